/*
 * One SocketAI connection, independent of the transport: lines in, reply
 * lines out (spec Part 1, rules S3-S12). The session keeps what a game
 * needs between requests: the unit type table, the map's constants, and a
 * bot whose memory lasts the whole game (the Java reference servers lose it,
 * appendix A14; an in-process Java bot keeps it, and so do we).
 *
 * Bad input never ends the session: a malformed payload still gets its one
 * reply line (an empty action, or "ack error: ..."), so the game side stays
 * in step; unknown commands get no reply, as with the Java servers.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "core/vec.h"
#include "microsynth/match.h"
#include "microsynth/bots.h"
#include "server_internal.h"
#include "core/opts.h"

enum { PEND_NONE, PEND_UTT, PEND_PREGAME, PEND_ACTION };

/* The longest command prefix looked at; the rest of a longer line is ignored. */
#define CMD_MAX 256
/* Replies quote at most this much of an error message. */
#define ACK_ERROR_MAX 300
/* A line buffer grown past this is released after its line. */
#define KEEP_BUFFER (1u << 20)

struct ms_server_session {
	ms_ctx *ctx;
	char *bot_spec;
	int lang_cfg;
	int lang; /* language of the last payload (for replies to payloads that have none) */
	int64_t seed;
	size_t max_line;
	int forget;
	int edition;       /* MS_PATH_EDITION_* of the bot */
	int client;
	char welcome[256];

	/* framing */
	char *line;
	size_t len, cap;
	int dropping;  /* inside a line over the limit */
	size_t dropped;

	/* protocol */
	int pending;     /* which payload the next line is */
	int player;      /* getAction's argument */
	char arg_err[128]; /* what was wrong with the pending command's arguments, or "" */
	int closing;
	int time_budget, iterations_budget;
	ms_rts_utt *utt;
	ms_bot *bot;
	char bot_err[ACK_ERROR_MAX]; /* why there is a table but no bot */
	srv_constants consts;
	ms_rts_pair *pairs;
	int pairs_cap;
	ms_buf out;

	ms_server_error_fn on_error;
	void *error_ud;
	ms_server_session_stats stats;
};

/* ---- helpers ----------------------------------------------------------------- */

static void report(ms_server_session *s, const char *fmt, ...) MS_PRINTF(2, 3);

static void report(ms_server_session *s, const char *fmt, ...)
{
	char msg[600];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	s->stats.errors++;
	if (s->on_error)
		s->on_error(s->error_ud, msg);
}

static int emit_text(ms_server_session *s, ms_server_emit_fn emit, void *ud, const char *text, size_t n)
{
	(void)s;
	return emit ? emit(ud, text, n) : MS_OK;
}

/* The one reply to utt, preGameAnalysis, budget and gameOver. The game side
 * reads the line and ignores its content, so a failure can say what went
 * wrong after the conventional "ack". */
static int ack(ms_server_session *s, ms_server_emit_fn emit, void *ud, const char *error)
{
	char line[16 + ACK_ERROR_MAX];
	size_t n;

	if (!error)
		return emit_text(s, emit, ud, "ack", 3);
	n = (size_t)snprintf(line, sizeof(line), "ack error: %.*s", ACK_ERROR_MAX, error);
	if (n >= sizeof(line))
		n = sizeof(line) - 1;
	for (size_t i = 0; i < n; i++)
		if (line[i] == '\n' || line[i] == '\r')
			line[i] = ' ';
	return emit_text(s, emit, ud, line, n);
}

static int empty_action(ms_server_session *s, ms_server_emit_fn emit, void *ud, int lang)
{
	if (lang == MS_SERVER_LANG_XML)
		return emit_text(s, emit, ud, "<PlayerAction> </PlayerAction> ", 31);
	return emit_text(s, emit, ud, "[]", 2);
}

/* Decimal integer token at *p (after blanks); 0 on success. */
static int int_arg(const char **p, long long *out)
{
	char *end;

	while (**p == ' ' || **p == '\t')
		(*p)++;
	if (!**p)
		return -1;
	*out = strtoll(*p, &end, 10);
	if (end == *p || (*end && *end != ' ' && *end != '\t'))
		return -1;
	*p = end;
	return 0;
}

static int rest_is_blank(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return !*p;
}

static void free_game(ms_server_session *s)
{
	ms_bot_free(s->bot);
	s->bot = NULL;
	ms_rts_utt_free(s->utt);
	s->utt = NULL;
	s->bot_err[0] = '\0';
}

/* ---- payloads ----------------------------------------------------------------- */

/* The payload's language, or AUTO (with a report) when it is not the one
 * this session speaks. */
static int payload_lang(ms_server_session *s, const char *what, const char *text, size_t len)
{
	int sniffed = srv_sniff(text, len);

	if (s->lang_cfg != MS_SERVER_LANG_AUTO) {
		if (sniffed != s->lang_cfg) {
			report(s, "%s: payload is not %s", what, s->lang_cfg == MS_SERVER_LANG_XML ? "XML" : "JSON");
			return MS_SERVER_LANG_AUTO;
		}
		return sniffed;
	}
	if (sniffed == MS_SERVER_LANG_AUTO) {
		report(s, "%s: payload is neither JSON nor XML", what);
		return MS_SERVER_LANG_AUTO;
	}
	s->lang = sniffed;
	return sniffed;
}

static int on_utt(ms_server_session *s, const char *text, size_t len, ms_server_emit_fn emit, void *ud)
{
	int lang = payload_lang(s, "utt", text, len);
	ms_rts_utt *utt = NULL;
	char err[ACK_ERROR_MAX];

	/* A new table is a new game: nothing of the old one may survive, even
	 * when the new table is unreadable. */
	free_game(s);
	srv_constants_clear(s->ctx, &s->consts);
	if (lang == MS_SERVER_LANG_AUTO)
		return ack(s, emit, ud, "utt: payload is neither JSON nor XML of this session's language");
	if (srv_read_utt(s->ctx, lang, text, len, &utt)) {
		snprintf(err, sizeof(err), "%s", ms_ctx_last_error(s->ctx));
		report(s, "utt: %s", err);
		return ack(s, emit, ud, err);
	}
	s->utt = utt;
	if (ms_bot_make(s->ctx, &s->bot, s->bot_spec, s->utt, s->seed) || ms_bot_set_edition(s->bot, s->edition)) {
		snprintf(s->bot_err, sizeof(s->bot_err), "bot %s: %s", s->bot_spec, ms_ctx_last_error(s->ctx));
		report(s, "utt: %s", s->bot_err);
		return ack(s, emit, ud, s->bot_err);
	}
	return ack(s, emit, ud, NULL);
}

static int on_pregame(ms_server_session *s, const char *text, size_t len, ms_server_emit_fn emit, void *ud)
{
	ms_rts_state *st = NULL;
	int lang = payload_lang(s, "preGameAnalysis", text, len);
	char err[ACK_ERROR_MAX];

	if (s->arg_err[0]) {
		snprintf(err, sizeof(err), "preGameAnalysis: %s", s->arg_err);
		report(s, "%s", err);
		return ack(s, emit, ud, err);
	}
	if (lang == MS_SERVER_LANG_AUTO)
		return ack(s, emit, ud, "preGameAnalysis: payload is neither JSON nor XML of this session's language");
	if (!s->utt) {
		report(s, "preGameAnalysis: no unit type table (send a readable utt first)");
		return ack(s, emit, ud, "preGameAnalysis: no unit type table (send a readable utt first)");
	}
	if (srv_read_state(s->ctx, lang, s->utt, &s->consts, text, len, s->seed, &st) ||
	    srv_constants_keep(s->ctx, &s->consts, st)) {
		snprintf(err, sizeof(err), "preGameAnalysis: %s", ms_ctx_last_error(s->ctx));
		report(s, "%s", err);
		ms_rts_state_free(st);
		return ack(s, emit, ud, err);
	}
	/* The native bots have no pre-game analysis; the state's constants
	 * are what later states without them need. */
	ms_rts_state_free(st);
	return ack(s, emit, ud, NULL);
}

/* Keeps only pairs for distinct idle units of `player` in `st` (spec 1.7,
 * rules 2 and 3): anything else would abort or confuse the game side. */
static int keep_valid_pairs(ms_server_session *s, const ms_rts_state *st, int player, int n)
{
	int k = 0;

	for (int i = 0; i < n; i++) {
		int ui = ms_rts_state_find_unit(st, s->pairs[i].unit.id), dup = 0;
		ms_rts_unit u;

		if (ui < 0 || ms_rts_state_unit(st, ui, &u) || u.player != player || !ms_rts_state_unit_idle(st, ui))
			continue;
		for (int j = 0; j < k && !dup; j++)
			dup = s->pairs[j].unit.id == u.id;
		if (!dup)
			s->pairs[k++] = s->pairs[i];
	}
	if (k != n)
		report(s, "getAction: dropped %d of the bot's %d actions (not distinct idle units of player %d)", n - k,
		       n, player);
	return k;
}

static int decide(ms_server_session *s, const ms_rts_state *st, int *n)
{
	int want = ms_rts_state_unit_count(st) + 1;

	if (ms_vec_grow(s->ctx, (void **)&s->pairs, &s->pairs_cap, want, sizeof *s->pairs) < 0)
		return ms_ctx_error(s->ctx, MS_ENOMEM, "out of memory for %d actions", want);
	if (s->forget) {
		int rc = ms_bot_reset(s->bot);
		if (rc)
			return rc;
	}
	return ms_bot_decide(s->bot, s->player, st, s->pairs, s->pairs_cap, n);
}

static int on_get_action(ms_server_session *s, const char *text, size_t len, ms_server_emit_fn emit, void *ud)
{
	ms_rts_state *st = NULL;
	int lang = payload_lang(s, "getAction", text, len), n = 0, rc;
	int reply_lang = lang != MS_SERVER_LANG_AUTO ? lang : s->lang_cfg != MS_SERVER_LANG_AUTO ? s->lang_cfg : s->lang;

	s->stats.actions++;
	if (s->arg_err[0]) {
		report(s, "getAction: %s", s->arg_err);
		return empty_action(s, emit, ud, reply_lang);
	}
	if (lang == MS_SERVER_LANG_AUTO)
		return empty_action(s, emit, ud, reply_lang);
	if (!s->utt) {
		report(s, "getAction: no unit type table (send a readable utt first)");
		return empty_action(s, emit, ud, reply_lang);
	}
	if (srv_read_state(s->ctx, lang, s->utt, &s->consts, text, len, s->seed, &st)) {
		report(s, "getAction: %s", ms_ctx_last_error(s->ctx));
		return empty_action(s, emit, ud, reply_lang);
	}
	if (!s->bot) {
		report(s, "getAction: no bot (%s)", s->bot_err);
		ms_rts_state_free(st);
		return empty_action(s, emit, ud, reply_lang);
	}
	if (srv_constants_keep(s->ctx, &s->consts, st) || decide(s, st, &n)) {
		report(s, "getAction: %s", ms_ctx_last_error(s->ctx));
		ms_rts_state_free(st);
		return empty_action(s, emit, ud, reply_lang);
	}
	n = keep_valid_pairs(s, st, s->player, n);
	if (lang == MS_SERVER_LANG_JSON) {
		char *json = NULL;
		rc = ms_rts_player_action_to_json(s->ctx, &json, st, s->pairs, n);
		if (!rc)
			rc = emit_text(s, emit, ud, json, strlen(json));
		ms_ctx_mfree(s->ctx, json);
	} else {
		s->out.len = 0;
		rc = srv_player_action_xml(&s->out, st, s->pairs, n);
		if (!rc)
			rc = emit_text(s, emit, ud, s->out.data, s->out.len);
	}
	ms_rts_state_free(st);
	return rc;
}

/* ---- commands ----------------------------------------------------------------- */

static int on_command(ms_server_session *s, const char *line, size_t len, ms_server_emit_fn emit, void *ud)
{
	char cmd[CMD_MAX];
	const char *p, *kw_end;
	size_t kw;
	long long a = 0, b = 0;

	if (len == 0)
		return MS_OK; /* a blank line is no command; Java ignores it too */
	s->stats.requests++;
	snprintf(cmd, sizeof(cmd), "%.*s", (int)(len < CMD_MAX ? len : CMD_MAX - 1), line);
	if (memchr(line, '\0', len < CMD_MAX ? len : CMD_MAX - 1))
		cmd[0] = '\0'; /* NUL bytes: no command of ours */
	for (kw_end = cmd; *kw_end && *kw_end != ' ' && *kw_end != '\t'; kw_end++)
		;
	kw = (size_t)(kw_end - cmd);
	p = kw_end;
	s->arg_err[0] = '\0';
#define IS(word) (kw == sizeof(word) - 1 && !memcmp(cmd, word, kw))
	if (IS("getAction")) {
		s->pending = PEND_ACTION;
		if (int_arg(&p, &a) || !rest_is_blank(p) || (a != 0 && a != 1))
			snprintf(s->arg_err, sizeof(s->arg_err), "player must be 0 or 1 in '%.60s'", cmd);
		s->player = (int)(a == 1);
		return MS_OK;
	}
	if (IS("utt")) {
		s->pending = PEND_UTT;
		return MS_OK;
	}
	if (IS("preGameAnalysis")) {
		/* "preGameAnalysis MS" or "preGameAnalysis MS  \"FOLDER\"": the
		 * folder is optional and, read by a remote bot, meaningless. */
		s->pending = PEND_PREGAME;
		if (int_arg(&p, &a))
			snprintf(s->arg_err, sizeof(s->arg_err), "no time budget in '%.60s'", cmd);
		return MS_OK;
	}
	if (IS("budget")) {
		if (int_arg(&p, &a) || int_arg(&p, &b) || !rest_is_blank(p) || a < -1 || b < -1 || a > 0x7fffffff ||
		    b > 0x7fffffff) {
			char err[160];
			snprintf(err, sizeof(err), "budget: expected 'budget TIME ITERATIONS', got '%.60s'", cmd);
			report(s, "%s", err);
			return ack(s, emit, ud, err);
		}
		s->time_budget = (int)a;
		s->iterations_budget = (int)b;
		/* SocketAI sends budget from every reset(): a new game begins. */
		if (s->bot && ms_bot_reset(s->bot)) {
			report(s, "budget: resetting the bot: %s", ms_ctx_last_error(s->ctx));
			return ack(s, emit, ud, ms_ctx_last_error(s->ctx));
		}
		return ack(s, emit, ud, NULL);
	}
	if (IS("gameOver")) {
		s->stats.games_over++;
		if (int_arg(&p, &a) || a < -1 || a > 1) {
			s->stats.last_winner = -1;
			report(s, "gameOver: expected 'gameOver -1|0|1', got '%.60s'", cmd);
		} else {
			s->stats.last_winner = (int)a;
		}
		if (s->bot)
			ms_bot_reset(s->bot);
		return ack(s, emit, ud, NULL);
	}
	if (IS("end")) {
		/* Java's servers end the whole process here; we end this connection. */
		s->closing = 1;
		return MS_OK;
	}
#undef IS
	report(s, "unknown command '%.40s%s' (ignored, no reply)", cmd, len > 40 ? "..." : "");
	return MS_OK;
}

static int on_line(ms_server_session *s, const char *line, size_t len, ms_server_emit_fn emit, void *ud)
{
	int pending = s->pending;

	if (len && line[len - 1] == '\r')
		len--;
	if (s->closing)
		return MS_OK;
	if (pending == PEND_NONE)
		return on_command(s, line, len, emit, ud);
	s->pending = PEND_NONE;
	if (pending == PEND_UTT)
		return on_utt(s, line, len, emit, ud);
	if (pending == PEND_PREGAME)
		return on_pregame(s, line, len, emit, ud);
	return on_get_action(s, line, len, emit, ud);
}

/* A line over the limit was skipped: what it stood for still gets its reply. */
static int on_dropped_line(ms_server_session *s, size_t n, ms_server_emit_fn emit, void *ud)
{
	int pending = s->pending;
	char err[160];

	snprintf(err, sizeof(err), "line of %zu bytes is over the limit of %zu (skipped)", n, s->max_line);
	if (s->closing)
		return MS_OK;
	s->pending = PEND_NONE;
	switch (pending) {
	case PEND_NONE:
		s->stats.requests++;
		report(s, "command %s", err);
		return MS_OK;
	case PEND_ACTION:
		s->stats.actions++;
		report(s, "getAction: payload %s", err);
		return empty_action(s, emit, ud, s->lang_cfg != MS_SERVER_LANG_AUTO ? s->lang_cfg : s->lang);
	case PEND_UTT:
		free_game(s);
		srv_constants_clear(s->ctx, &s->consts);
		/* fall through */
	default:
		report(s, "%s: payload %s", pending == PEND_UTT ? "utt" : "preGameAnalysis", err);
		return ack(s, emit, ud, err);
	}
}

/* ---- framing ------------------------------------------------------------------- */

static void release_line(ms_server_session *s)
{
	ms_ctx_mfree(s->ctx, s->line);
	s->line = NULL;
	s->len = s->cap = 0;
}

static int append(ms_server_session *s, const char *data, size_t n)
{
	/* the caller keeps a line within max_line, so the bound only trims the last doubling */
	if (s->len + n > s->cap &&
	    ms_vec_grow_big(s->ctx, (void **)&s->line, &s->cap, s->len + n, 1, 4096, s->max_line) < 0)
		return ms_ctx_error(s->ctx, MS_ENOMEM, "out of memory buffering a line of %zu bytes", s->len + n);
	memcpy(s->line + s->len, data, n);
	s->len += n;
	return MS_OK;
}

int ms_server_session_feed(ms_server_session *s, const char *data, size_t len, ms_server_emit_fn emit, void *ud)
{
	int rc = MS_OK;

	while (len && !rc) {
		const char *nl = memchr(data, '\n', len);
		size_t take = nl ? (size_t)(nl - data) : len;

		if (s->dropping) {
			s->dropped += take;
			if (nl) {
				s->dropping = 0;
				rc = on_dropped_line(s, s->dropped, emit, ud);
			}
		} else if (s->len + take > s->max_line) {
			s->dropping = 1;
			s->dropped = s->len + take;
			release_line(s);
			if (nl) {
				s->dropping = 0;
				rc = on_dropped_line(s, s->dropped, emit, ud);
			}
		} else if (nl && s->len == 0) {
			rc = on_line(s, data, take, emit, ud); /* the whole line is here: no copy */
		} else {
			rc = append(s, data, take);
			if (!rc && nl) {
				rc = on_line(s, s->line, s->len, emit, ud);
				s->len = 0;
				if (s->cap > KEEP_BUFFER)
					release_line(s);
			}
		}
		if (nl)
			take++;
		data += take;
		len -= take;
	}
	return rc;
}

int ms_server_session_end_line(ms_server_session *s, ms_server_emit_fn emit, void *ud)
{
	if (!s->len && !s->dropping)
		return MS_OK;
	return ms_server_session_feed(s, "\n", 1, emit, ud);
}

/* ---- life cycle ---------------------------------------------------------------- */

int srv_session_create(ms_ctx *ctx, ms_server_session **out, const ms_server_session_options *opts, int client,
		       int check_bot)
{
	ms_ctx_options co = { MS_CTX_OPTIONS_VERSION, &ctx->alloc };
	ms_server_session *s;
	const char *bot;
	int rc, edition;

	*out = NULL;
	if (!opts || opts->version < 1 || opts->version > MS_SERVER_SESSION_OPTIONS_VERSION)
		return ms_ctx_error(ctx, MS_EINVAL, "server session: options missing or of an unknown version");
	edition = opts->version >= 2 ? opts->edition : MS_PATH_EDITION_2022;
	if (edition != MS_PATH_EDITION_2022 && edition != MS_PATH_EDITION_2023)
		return ms_ctx_error(ctx, MS_EINVAL, "server session: unknown bot edition %d", edition);
	if (opts->language != MS_SERVER_LANG_AUTO && opts->language != MS_SERVER_LANG_JSON &&
	    opts->language != MS_SERVER_LANG_XML)
		return ms_ctx_error(ctx, MS_EINVAL, "server session: unknown language %d", opts->language);
	bot = opts->bot ? opts->bot : MS_SERVER_DEFAULT_BOT;
	if (check_bot) {
		ms_rts_utt *utt;
		ms_bot *b;
		if ((rc = ms_rts_utt_new(ctx, &utt, MS_RTS_UTT_FINETUNED, MS_RTS_CONFLICT_CANCEL_BOTH)))
			return rc;
		rc = ms_bot_make(ctx, &b, bot, utt, opts->seed);
		if (!rc)
			rc = ms_bot_set_edition(b, edition);
		ms_bot_free(b);
		ms_rts_utt_free(utt);
		if (rc)
			return rc;
	}
	if (!(s = ms_ctx_calloc(ctx, 1, sizeof(*s))))
		return ms_ctx_error(ctx, MS_ENOMEM, "server session: out of memory");
	if (ms_ctx_new(&s->ctx, &co)) {
		ms_ctx_mfree(ctx, s);
		return ms_ctx_error(ctx, MS_ENOMEM, "server session: out of memory");
	}
	s->bot_spec = ms_ctx_strdup(s->ctx, bot);
	if (!s->bot_spec) {
		ms_server_session_free(s);
		return ms_ctx_error(ctx, MS_ENOMEM, "server session: out of memory");
	}
	s->lang_cfg = opts->language;
	s->lang = opts->language != MS_SERVER_LANG_AUTO ? opts->language : MS_SERVER_LANG_JSON;
	s->seed = opts->seed;
	s->forget = opts->forget;
	s->edition = edition;
	s->max_line = opts->max_line ? opts->max_line : MS_SERVER_DEFAULT_MAX_LINE;
	s->client = client;
	s->time_budget = 100;
	s->iterations_budget = -1;
	s->stats.last_winner = -2;
	ms_buf_init(&s->out, s->ctx);
	if (opts->welcome)
		snprintf(s->welcome, sizeof(s->welcome), "%s", opts->welcome);
	else
		snprintf(s->welcome, sizeof(s->welcome), "microsynth %s: you are client #%d, playing %s", ms_version(),
			 client, bot);
	for (char *c = s->welcome; *c; c++)
		if (*c == '\n' || *c == '\r')
			*c = ' ';
	*out = s;
	return MS_OK;
}

int ms_server_session_new(ms_ctx *ctx, ms_server_session **out, const ms_server_session_options *opts, int client)
{
	return srv_session_create(ctx, out, opts, client, 1);
}

void ms_server_session_free(ms_server_session *s)
{
	ms_ctx *ctx;

	if (!s)
		return;
	ctx = s->ctx;
	free_game(s);
	srv_constants_clear(ctx, &s->consts);
	ms_buf_dispose(&s->out);
	ms_ctx_mfree(ctx, s->pairs);
	ms_ctx_mfree(ctx, s->line);
	ms_ctx_mfree(ctx, s->bot_spec);
	/* The session block came from the creating context's allocator, which
	 * its own context shares; keep a copy, as the context goes first. */
	{
		ms_allocator a = ctx->alloc;
		ms_ctx_free(ctx);
		a.free_fn(a.ud, s);
	}
}

const char *ms_server_session_welcome(const ms_server_session *s)
{
	return s->welcome;
}

void ms_server_session_on_error(ms_server_session *s, ms_server_error_fn fn, void *ud)
{
	s->on_error = fn;
	s->error_ud = ud;
}

int ms_server_session_closing(const ms_server_session *s)
{
	return s->closing;
}

void ms_server_session_get_stats(const ms_server_session *s, ms_server_session_stats *out)
{
	*out = s->stats;
}

int ms_server_session_options_init(ms_server_session_options *opts, unsigned int version)
{
	return MS_OPTS_INIT_ZERO(opts, version, MS_SERVER_SESSION_OPTIONS_VERSION);
}
