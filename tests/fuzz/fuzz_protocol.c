/*
 * Fuzzes the SocketAI protocol session (line framing, commands, JSON and XML
 * payloads, the bot behind them): any bytes must give only single-line
 * replies, at most one per line, and the same replies however the bytes are
 * split into reads.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "microsynth/server.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct log {
	size_t n;
	uint64_t hash; /* FNV-1a over every reply, with separators */
	int bad;
} log_t;

static int emit(void *ud, const char *line, size_t len)
{
	log_t *l = ud;

	if (memchr(line, '\n', len))
		l->bad = 1;
	l->n++;
	for (size_t i = 0; i < len; i++)
		l->hash = (l->hash ^ (uint8_t)line[i]) * 1099511628211u;
	l->hash = (l->hash ^ 0x100u) * 1099511628211u;
	return 0;
}

/* Feeds `data` in pieces of at most `piece` bytes, then ends the line as a
 * websocket message would. */
static void run(ms_ctx *ctx, const uint8_t *data, size_t size, size_t piece, log_t *l)
{
	ms_server_session_options o;
	ms_server_session *s;

	memset(&o, 0, sizeof(o));
	o.version = MS_SERVER_SESSION_OPTIONS_VERSION;
	o.bot = "WorkerRush";
	o.max_line = 32768; /* small, so that inputs also cross the limit */
	memset(l, 0, sizeof(*l));
	l->hash = 1469598103934665603u;
	if (ms_server_session_new(ctx, &s, &o, 0))
		__builtin_trap(); /* the options are valid */
	for (size_t off = 0; off < size; off += piece)
		ms_server_session_feed(s, (const char *)data + off, size - off < piece ? size - off : piece, emit, l);
	ms_server_session_end_line(s, emit, l);
	ms_server_session_free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ms_ctx *ctx;
	log_t whole, pieces;
	size_t lines = 1;

	if (ms_ctx_new(&ctx, NULL))
		return 0;
	for (size_t i = 0; i < size; i++)
		lines += data[i] == '\n';
	run(ctx, data, size, size ? size : 1, &whole);
	run(ctx, data, size, 1 + (size ? data[0] % 97 : 0), &pieces);
	if (whole.bad || whole.n > lines)
		__builtin_trap();
	if (whole.n != pieces.n || whole.hash != pieces.hash)
		__builtin_trap(); /* framing must not depend on how bytes arrive */
	ms_ctx_free(ctx);
	return 0;
}
