/*
 * The SocketAI server's transport: one libwebsockets context, one service
 * thread, up to three listeners on the same loop — raw TCP (the protocol
 * SocketAI speaks), the same on a Unix-domain socket, and a websocket
 * endpoint (subprotocol "microrts.v1", one request per text message, one
 * reply per text message; docs/bridge.md). Each
 * connection owns a session (session.c); replies wait in a per-connection
 * queue and are written only on WRITEABLE, as libwebsockets wants.
 *
 * A client that sends without reading its replies is paused (rx flow
 * control) once its queue passes OUT_HIGH, so one connection cannot make the
 * server buffer without bound; a line over the limit is skipped by the
 * session, never buffered.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libwebsockets.h>

#include "core/internal.h"
#include "server_internal.h"
#include "core/opts.h"
#include "core/clock.h"

#define WS_PROTOCOL "microrts.v1"
#define OUT_HIGH ((size_t)8 << 20) /* pause reading past this many queued reply bytes */
#define OUT_LOW ((size_t)1 << 20)  /* and resume below this */
#define RX_CHUNK 65536

/* One queued reply: a line with its LF (raw) or one message (websocket),
 * with LWS_PRE bytes of headroom that lws_write needs for the frame. */
typedef struct chunk {
	struct chunk *next;
	size_t len;
	unsigned char data[]; /* LWS_PRE + len */
} chunk;

typedef struct conn {
	ms_server *srv;
	struct lws *wsi;
	ms_server_session *session;
	int client;
	int is_ws;
	const char *transport; /* "tcp", "unix" or "ws" */
	chunk *head, *tail;
	size_t queued;
	int paused;
	size_t msg_bytes; /* websocket: bytes of the message being received */
} conn;

struct ms_server {
	ms_ctx *ctx;  /* the creator's: creation errors, and run's failure */
	ms_ctx *ictx; /* the loop thread's own (same allocator) */
	struct lws_context *lws;
	struct lws_vhost *raw_vh, *ws_vh, *unix_vh;
	struct lws_protocols raw_protocols[2];
	struct lws_protocols ws_protocols[2];
	ms_server_options opts;
	char *bind;
	char *bot;
	char *unix_path;
	atomic_int stop;
	size_t queued; /* reply bytes waiting in all connections */
	int accepted, open;
	uint64_t games_over;
	int raw_port, ws_port;
};

static void event(ms_server *srv, ms_server_event_type type, const conn *c, int winner, const char *msg)
{
	ms_server_event ev;

	if (!srv->opts.on_event)
		return;
	ev.type = type;
	ev.client = c ? c->client : -1;
	ev.transport = c ? c->transport : "tcp";
	ev.winner = winner;
	ev.message = msg;
	srv->opts.on_event(srv->opts.event_ud, &ev);
}

static void on_session_error(void *ud, const char *message)
{
	conn *c = ud;
	event(c->srv, MS_SERVER_EV_ERROR, c, 0, message);
}

/* Queues one reply (the session's emit callback). */
static int enqueue(void *ud, const char *line, size_t len)
{
	conn *c = ud;
	size_t extra = c->is_ws ? 0 : 1;
	chunk *k = ms_ctx_malloc(c->srv->ictx, sizeof(*k) + LWS_PRE + len + extra);

	if (!k)
		return MS_ENOMEM;
	k->next = NULL;
	k->len = len + extra;
	memcpy(k->data + LWS_PRE, line, len);
	if (extra)
		k->data[LWS_PRE + len] = '\n';
	if (c->tail)
		c->tail->next = k;
	else
		c->head = k;
	c->tail = k;
	c->queued += k->len;
	c->srv->queued += k->len;
	return MS_OK;
}

static void drop_queue(conn *c)
{
	c->srv->queued -= c->queued;
	while (c->head) {
		chunk *k = c->head;
		c->head = k->next;
		ms_ctx_mfree(c->srv->ictx, k);
	}
	c->tail = NULL;
	c->queued = 0;
}

static int open_conn(ms_server *srv, conn *c, struct lws *wsi, int is_ws)
{
	int rc;

	memset(c, 0, sizeof(*c));
	c->srv = srv;
	c->wsi = wsi;
	c->is_ws = is_ws;
	c->transport = is_ws ? "ws" : srv->unix_vh && lws_get_vhost(wsi) == srv->unix_vh ? "unix" : "tcp";
	c->client = srv->accepted++;
	if (srv->open >= srv->opts.max_sessions) {
		event(srv, MS_SERVER_EV_ERROR, c, 0, "too many connections: closed at once");
		c->srv = NULL; /* nothing to release on close */
		return -1;
	}
	rc = srv_session_create(srv->ictx, &c->session, &srv->opts.session, c->client, 0);
	if (rc) {
		event(srv, MS_SERVER_EV_ERROR, c, 0, ms_ctx_last_error(srv->ictx));
		c->srv = NULL;
		return -1;
	}
	ms_server_session_on_error(c->session, on_session_error, c);
	srv->open++;
	event(srv, MS_SERVER_EV_OPEN, c, 0, NULL);
	/* The welcome goes first, as one write (SocketAI busy-waits for it). */
	{
		const char *w = ms_server_session_welcome(c->session);
		if (enqueue(c, w, strlen(w)))
			return -1;
	}
	lws_callback_on_writable(wsi);
	return 0;
}

static void close_conn(conn *c, const char *why)
{
	if (!c->srv)
		return;
	drop_queue(c);
	ms_server_session_free(c->session);
	c->session = NULL;
	c->srv->open--;
	event(c->srv, MS_SERVER_EV_CLOSE, c, 0, why);
	c->srv = NULL;
}

/* Feeds received bytes; 0 to go on, -1 to close. */
static int receive(conn *c, const char *in, size_t len, int message_end)
{
	ms_server_session_stats before, after;
	int rc;

	ms_server_session_get_stats(c->session, &before);
	rc = ms_server_session_feed(c->session, in, len, enqueue, c);
	if (!rc && message_end)
		rc = ms_server_session_end_line(c->session, enqueue, c);
	ms_server_session_get_stats(c->session, &after);
	for (uint64_t g = before.games_over; g < after.games_over; g++) {
		c->srv->games_over++;
		event(c->srv, MS_SERVER_EV_GAME_OVER, c, after.last_winner, NULL);
	}
	if (rc) {
		event(c->srv, MS_SERVER_EV_ERROR, c, 0, "out of memory: connection closed");
		return -1;
	}
	if (c->queued > OUT_HIGH && !c->paused) {
		c->paused = 1;
		lws_rx_flow_control(c->wsi, 0);
	}
	if (c->head || ms_server_session_closing(c->session))
		lws_callback_on_writable(c->wsi);
	return 0;
}

/* Writes the next queued reply; 0 to go on, -1 to close. */
static int writeable(conn *c)
{
	chunk *k = c->head;

	if (k) {
		int n = lws_write(c->wsi, k->data + LWS_PRE, k->len, c->is_ws ? LWS_WRITE_TEXT : LWS_WRITE_RAW);
		if (n < (int)k->len)
			return -1;
		c->head = k->next;
		if (!c->head)
			c->tail = NULL;
		c->queued -= k->len;
		c->srv->queued -= k->len;
		ms_ctx_mfree(c->srv->ictx, k);
	}
	if (c->paused && c->queued < OUT_LOW) {
		c->paused = 0;
		lws_rx_flow_control(c->wsi, 1);
	}
	if (c->head) {
		lws_callback_on_writable(c->wsi);
		return 0;
	}
	/* `end`: close once everything before it went out. */
	return ms_server_session_closing(c->session) ? -1 : 0;
}

static int raw_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len)
{
	ms_server *srv = lws_context_user(lws_get_context(wsi));
	conn *c = user;

	switch (reason) {
	case LWS_CALLBACK_RAW_ADOPT:
		return open_conn(srv, c, wsi, 0);
	case LWS_CALLBACK_RAW_RX:
		if (!c || !c->srv)
			return -1;
		return receive(c, in, len, 0);
	case LWS_CALLBACK_RAW_WRITEABLE:
		if (!c || !c->srv)
			return -1;
		return writeable(c);
	case LWS_CALLBACK_RAW_CLOSE:
		if (c)
			close_conn(c, "closed");
		return 0;
	default:
		return 0;
	}
}

static int ws_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len)
{
	ms_server *srv = lws_context_user(lws_get_context(wsi));
	conn *c = user;

	switch (reason) {
	case LWS_CALLBACK_ESTABLISHED:
		return open_conn(srv, c, wsi, 1);
	case LWS_CALLBACK_RECEIVE: {
		int end;
		if (!c || !c->srv)
			return -1;
		c->msg_bytes += len;
		/* One message holds one request: a command line and its payload. */
		if (c->msg_bytes > 2 * srv->opts.session.max_line + 1024) {
			static const char why[] = "message too big";
			event(srv, MS_SERVER_EV_ERROR, c, 0, "websocket message over twice the line limit: closed");
			lws_close_reason(wsi, LWS_CLOSE_STATUS_MESSAGE_TOO_LARGE, (unsigned char *)why, sizeof(why) - 1);
			return -1;
		}
		end = lws_is_final_fragment(wsi) && !lws_remaining_packet_payload(wsi);
		if (end)
			c->msg_bytes = 0;
		return receive(c, in, len, end);
	}
	case LWS_CALLBACK_SERVER_WRITEABLE:
		if (!c || !c->srv)
			return -1;
		return writeable(c);
	case LWS_CALLBACK_CLOSED:
		if (c)
			close_conn(c, "closed");
		return 0;
	default:
		return lws_callback_http_dummy(wsi, reason, user, in, len);
	}
}

static struct lws_vhost *listen_on(ms_server *srv, const char *name, int port, const struct lws_protocols *protocols,
				   int raw, const char *unix_path)
{
	struct lws_context_creation_info info;

	memset(&info, 0, sizeof(info));
	info.vhost_name = name;
	info.port = port;
	info.iface = unix_path ? unix_path : srv->bind;
	info.protocols = protocols;
	if (unix_path)
		info.options |= LWS_SERVER_OPTION_UNIX_SOCK;
	else if (!strchr(srv->bind, ':'))
		info.options |= LWS_SERVER_OPTION_DISABLE_IPV6;
	if (raw) {
		info.options |= LWS_SERVER_OPTION_ADOPT_APPLY_LISTEN_ACCEPT_CONFIG;
		info.listen_accept_role = "raw-skt";
		info.listen_accept_protocol = protocols[0].name;
	}
	return lws_create_vhost(srv->lws, &info);
}

int ms_server_new(ms_ctx *ctx, ms_server **out, const ms_server_options *opts)
{
	struct lws_context_creation_info info;
	ms_server_session *probe = NULL;
	ms_server *srv;
	int rc;

	*out = NULL;
	if (!opts || opts->version != MS_SERVER_OPTIONS_VERSION)
		return ms_ctx_error(ctx, MS_EINVAL, "server: options missing or of an unknown version");
	if (opts->port < MS_SERVER_NO_PORT || opts->port > 65535 || opts->ws_port < MS_SERVER_NO_PORT ||
	    opts->ws_port > 65535)
		return ms_ctx_error(ctx, MS_EINVAL, "server: ports must be 0..65535 (or MS_SERVER_NO_PORT)");
	if (opts->port == MS_SERVER_NO_PORT && opts->ws_port == MS_SERVER_NO_PORT && !opts->unix_path)
		return ms_ctx_error(ctx, MS_EINVAL, "server: no TCP port, websocket port or Unix socket to listen on");
	if (opts->unix_path) {
		struct stat st;
		/* libwebsockets unlinks the path before binding: only ever a socket. */
		if (!*opts->unix_path || strlen(opts->unix_path) >= 100)
			return ms_ctx_error(ctx, MS_EINVAL, "server: Unix socket path '%s' is empty or too long",
					    opts->unix_path);
		if (lstat(opts->unix_path, &st) == 0 && !S_ISSOCK(st.st_mode))
			return ms_ctx_error(ctx, MS_EINVAL, "server: %s exists and is not a socket", opts->unix_path);
	}
	if (opts->max_sessions < 0)
		return ms_ctx_error(ctx, MS_EINVAL, "server: negative max_sessions");
	/* Check the options and the bot once, as a session would. */
	if ((rc = ms_server_session_new(ctx, &probe, &opts->session, 0)))
		return rc;
	ms_server_session_free(probe);

	if (!(srv = ms_ctx_calloc(ctx, 1, sizeof(*srv))))
		return ms_ctx_error(ctx, MS_ENOMEM, "server: out of memory");
	srv->ctx = ctx;
	{
		ms_ctx_options co = { MS_CTX_OPTIONS_VERSION, &ctx->alloc };
		if (ms_ctx_new(&srv->ictx, &co)) {
			ms_ctx_mfree(ctx, srv);
			return ms_ctx_error(ctx, MS_ENOMEM, "server: out of memory");
		}
	}
	srv->opts = *opts;
	srv->bind = ms_ctx_strdup(ctx, opts->bind ? opts->bind : "127.0.0.1");
	srv->bot = ms_ctx_strdup(ctx, opts->session.bot ? opts->session.bot : MS_SERVER_DEFAULT_BOT);
	if (!srv->bind || !srv->bot) {
		ms_server_free(srv);
		return ms_ctx_error(ctx, MS_ENOMEM, "server: out of memory");
	}
	srv->opts.bind = srv->bind;
	srv->opts.session.bot = srv->bot;
	srv->opts.session.welcome = NULL;
	if (!srv->opts.session.max_line)
		srv->opts.session.max_line = MS_SERVER_DEFAULT_MAX_LINE;
	if (!srv->opts.max_sessions)
		srv->opts.max_sessions = 1024;
	srv->raw_port = srv->ws_port = MS_SERVER_NO_PORT;
	atomic_init(&srv->stop, 0);

	srv->raw_protocols[0].name = "microrts-raw";
	srv->raw_protocols[0].callback = raw_callback;
	srv->raw_protocols[0].per_session_data_size = sizeof(conn);
	srv->raw_protocols[0].rx_buffer_size = RX_CHUNK;
	srv->ws_protocols[0].name = WS_PROTOCOL;
	srv->ws_protocols[0].callback = ws_callback;
	srv->ws_protocols[0].per_session_data_size = sizeof(conn);
	srv->ws_protocols[0].rx_buffer_size = RX_CHUNK;

	memset(&info, 0, sizeof(info));
	info.options = LWS_SERVER_OPTION_EXPLICIT_VHOSTS;
	info.port = CONTEXT_PORT_NO_LISTEN;
	info.user = srv;
	info.pt_serv_buf_size = RX_CHUNK;
	info.fd_limit_per_thread = (unsigned int)srv->opts.max_sessions + 64;
	srv->lws = lws_create_context(&info);
	if (!srv->lws) {
		ms_server_free(srv);
		return ms_ctx_error(ctx, MS_EIO, "server: libwebsockets could not create its context");
	}
	if (opts->port != MS_SERVER_NO_PORT) {
		srv->raw_vh = listen_on(srv, "tcp", opts->port, srv->raw_protocols, 1, NULL);
		srv->raw_port = srv->raw_vh ? lws_get_vhost_listen_port(srv->raw_vh) : 0;
		if (srv->raw_port <= 0) {
			ms_server_free(srv);
			return ms_ctx_error(ctx, MS_EIO, "server: cannot listen for TCP on %s port %d (address in use "
							 "or not local?)",
					    opts->bind ? opts->bind : "127.0.0.1", opts->port);
		}
	}
	if (opts->ws_port != MS_SERVER_NO_PORT) {
		srv->ws_vh = listen_on(srv, "ws", opts->ws_port, srv->ws_protocols, 0, NULL);
		srv->ws_port = srv->ws_vh ? lws_get_vhost_listen_port(srv->ws_vh) : 0;
		if (srv->ws_port <= 0) {
			ms_server_free(srv);
			return ms_ctx_error(ctx, MS_EIO, "server: cannot listen for websockets on %s port %d (address in "
							 "use or not local?)",
					    opts->bind ? opts->bind : "127.0.0.1", opts->ws_port);
		}
	}
	if (opts->unix_path) {
		srv->unix_path = ms_ctx_strdup(ctx, opts->unix_path);
		srv->opts.unix_path = srv->unix_path;
		srv->unix_vh = srv->unix_path ? listen_on(srv, "unix", 0, srv->raw_protocols, 1, srv->unix_path) : NULL;
		if (!srv->unix_vh) {
			ms_server_free(srv);
			return ms_ctx_error(ctx, MS_EIO, "server: cannot listen on the Unix socket %s", opts->unix_path);
		}
	}
	*out = srv;
	return MS_OK;
}

int ms_server_port(const ms_server *s)
{
	return s->raw_port;
}

int ms_server_ws_port(const ms_server *s)
{
	return s->ws_port;
}

int ms_server_run(ms_server *s)
{
	double deadline;

	while (!atomic_load(&s->stop)) {
		if (lws_service(s->lws, 0) < 0) {
			atomic_store(&s->stop, 0);
			return ms_ctx_error(s->ctx, MS_EIO, "server: the event loop failed");
		}
	}
	/* Let replies already queued go out (the ack of the gameOver that made
	 * the caller stop, say), for at most a second: a client that does not
	 * read does not hold the stop up. */
	deadline = ms_now() + 1.0;
	while (s->queued && ms_now() < deadline) {
		lws_cancel_service(s->lws); /* so that lws_service returns once the writes are done */
		if (lws_service(s->lws, 0) < 0)
			break;
	}
	atomic_store(&s->stop, 0);
	return MS_OK;
}

void ms_server_stop(ms_server *s)
{
	atomic_store(&s->stop, 1);
	lws_cancel_service(s->lws);
}

void ms_server_counts(const ms_server *s, int *accepted, int *open, uint64_t *games_over)
{
	if (accepted)
		*accepted = s->accepted;
	if (open)
		*open = s->open;
	if (games_over)
		*games_over = s->games_over;
}

void ms_server_free(ms_server *s)
{
	if (!s)
		return;
	/* Destroying the context closes every connection (their CLOSE
	 * callbacks free the sessions) and the listeners. */
	if (s->lws)
		lws_context_destroy(s->lws);
	if (s->unix_vh)
		unlink(s->unix_path); /* the socket file goes with the listener */
	ms_ctx_free(s->ictx);
	ms_ctx_mfree(s->ctx, s->unix_path);
	ms_ctx_mfree(s->ctx, s->bind);
	ms_ctx_mfree(s->ctx, s->bot);
	ms_ctx_mfree(s->ctx, s);
}

int ms_server_options_init(ms_server_options *opts, unsigned int version)
{
	return MS_OPTS_INIT_ZERO(opts, version, MS_SERVER_OPTIONS_VERSION);
}
