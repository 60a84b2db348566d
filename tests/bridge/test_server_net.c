/*
 * The SocketAI server over the network, in this process: raw TCP and the
 * websocket endpoint on one event loop, many games at once, and clients
 * that misbehave (vanish mid-payload, 8 MB lines, malformed payloads,
 * unknown commands, too many connections) without touching the others.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <libwebsockets.h>

#include "tools/kit/kit.h"
#include "microsynth/server.h"
#include "server_testlib.h"

#define TIMEOUT_MS 60000

/* ---- a server on a thread of its own ------------------------------------------- */

static void start(running *r, const char *bot, int ws, int max_sessions, size_t max_line)
{
	ms_server_options o;

	memset(&o, 0, sizeof(o));
	o.version = MS_SERVER_OPTIONS_VERSION;
	o.port = 0;
	o.ws_port = ws ? 0 : MS_SERVER_NO_PORT;
	o.max_sessions = max_sessions;
	o.session = session_options(bot, MS_SERVER_LANG_AUTO);
	o.session.max_line = max_line;
	assert_int_equal(running_start(r, &o), 0);
	assert_true(ms_server_port(r->srv) > 0);
}

#define stop running_stop
#define snapshot running_events

static int wait_closed(running *r, int closed)
{
	return running_wait_closed(r, closed, 30000);
}

static void dial(srv_client *c, running *r)
{
	char err[256];
	const char *line;
	size_t len;

	assert_int_equal(srv_client_connect(c, "127.0.0.1", ms_server_port(r->srv), 5000, err, sizeof(err)), 0);
	assert_int_equal(srv_client_line(c, TIMEOUT_MS, &line, &len), 1);
	assert_non_null(strstr(line, "you are client #"));
}

static void expect(srv_client *c, const char *want)
{
	const char *line;
	size_t len;

	assert_int_equal(srv_client_line(c, TIMEOUT_MS, &line, &len), 1);
	assert_int_equal(len, strlen(want));
	assert_memory_equal(line, want, len);
}

/* ---- scripts and what a lone session answers to them ------------------------------ */

static ms_ctx *CTX;
static srv_script JS, XS; /* WorkerRush vs LightRush on the 8x8 fixture, player 0's side */
static replies JR, XR;    /* a session's replies to budget, utt, every getAction, gameOver */

static void solo(const srv_script *sc, replies *r)
{
	ms_server_session_options o = session_options("WorkerRush", MS_SERVER_LANG_AUTO);
	ms_server_session *s;

	assert_int_equal(ms_server_session_new(CTX, &s, &o, 0), 0);
	ms_server_session_feed(s, "budget 100 0\nutt\n", 17, replies_emit, r);
	ms_server_session_feed(s, sc->utt, strlen(sc->utt), replies_emit, r);
	ms_server_session_feed(s, "\n", 1, replies_emit, r);
	for (int i = 0; i < sc->n; i++) {
		ms_server_session_feed(s, "getAction 0\n", 12, replies_emit, r);
		ms_server_session_feed(s, sc->states[i], strlen(sc->states[i]), replies_emit, r);
		ms_server_session_feed(s, "\n", 1, replies_emit, r);
	}
	ms_server_session_feed(s, "gameOver 1\n", 11, replies_emit, r);
	assert_int_equal(r->n, sc->n + 3);
	assert_int_equal(r->errors, 0);
	ms_server_session_free(s);
}

static int group_setup(void **state)
{
	(void)state;
	lws_set_log_level(LLL_ERR, NULL);
	assert_int_equal(ms_ctx_new(&CTX, NULL), 0);
	assert_int_equal(srv_script_make(CTX, &JS, MS_SERVER_LANG_JSON, fixture("server_map8x8.xml"), 2, "WorkerRush",
					 "LightRush", 150),
			 0);
	assert_int_equal(srv_script_make(CTX, &XS, MS_SERVER_LANG_XML, fixture("server_map8x8.xml"), 2, "WorkerRush",
					 "LightRush", 150),
			 0);
	solo(&JS, &JR);
	solo(&XS, &XR);
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	replies_clear(&JR);
	replies_clear(&XR);
	srv_script_free(CTX, &JS);
	srv_script_free(CTX, &XS);
	ms_ctx_free(CTX);
	return 0;
}

/* Request k of a script game: 0 budget, 1 utt, 2.. getAction, last gameOver. */
static int script_requests(const srv_script *sc)
{
	return sc->n + 3;
}

static void send_request(srv_client *c, const srv_script *sc, int k)
{
	if (k == 0)
		assert_int_equal(srv_client_request(c, "budget 100 0", NULL), 0);
	else if (k == 1)
		assert_int_equal(srv_client_request(c, "utt", sc->utt), 0);
	else if (k < sc->n + 2)
		assert_int_equal(srv_client_request(c, "getAction 0", sc->states[k - 2]), 0);
	else
		assert_int_equal(srv_client_request(c, "gameOver 1", NULL), 0);
}

/* ---- tests --------------------------------------------------------------------------- */

static void test_server_net__a_tcp_game_gets_the_session_replies(void **state)
{
	running r;
	srv_client c;

	(void)state;
	start(&r, "WorkerRush", 0, 0, 0);
	dial(&c, &r);
	for (int k = 0; k < script_requests(&JS); k++) {
		send_request(&c, &JS, k);
		expect(&c, JR.line[k]);
	}
	srv_client_close(&c);
	assert_true(wait_closed(&r, 1));
	assert_int_equal(snapshot(&r).games_over, 1);
	assert_int_equal(snapshot(&r).errors, 0);
	stop(&r);
}

/*
 * 64 games at once (half JSON, half XML), requests of all of them in flight
 * together, while other clients vanish in the middle of a payload, send an
 * 8 MB line, malformed payloads and unknown commands: every one of the 64
 * gets exactly the replies a lone session gives.
 */
enum { GAMES = 64 };

static void test_server_net__sixty_four_games_at_once_beside_misbehaving_clients(void **state)
{
	running r;
	srv_client games[GAMES], vanish[4], big, junk;
	size_t bigsize = (size_t)8 << 20;
	char *bigline = malloc(bigsize + 1);
	int rounds = script_requests(&JS);
	server_events e;

	(void)state;
	assert_int_equal(script_requests(&XS), rounds);
	memset(bigline, '[', bigsize);
	bigline[bigsize] = '\0';
	start(&r, "WorkerRush", 0, 0, 0);
	for (int g = 0; g < GAMES; g++)
		dial(&games[g], &r);
	for (int v = 0; v < 4; v++)
		dial(&vanish[v], &r);
	dial(&big, &r);
	dial(&junk, &r);
	for (int k = 0; k < rounds; k++) {
		for (int g = 0; g < GAMES; g++)
			send_request(&games[g], g % 2 ? &XS : &JS, k);
		/* the others, while the 64 requests are in flight */
		if (k == 5 || k == 40 || k == 80 || k == 120) {
			srv_client *v = &vanish[k == 5 ? 0 : k == 40 ? 1 : k == 80 ? 2 : 3];
			const char *st = JS.states[k % JS.n];
			assert_int_equal(srv_client_request(v, "utt", JS.utt), 0);
			assert_int_equal(srv_client_send(v, "getAction 0\n", 12), 0);
			assert_int_equal(srv_client_send(v, st, strlen(st) / 2), 0);
			srv_client_close(v); /* gone, half a state sent */
		}
		if (k == 10) {
			assert_int_equal(srv_client_request(&big, "utt", JS.utt), 0);
			assert_int_equal(srv_client_request(&big, "getAction 0", bigline), 0);
		}
		if (k == 30) {
			assert_int_equal(srv_client_request(&junk, "utt", XS.utt), 0);
			assert_int_equal(srv_client_request(&junk, "getAction 0", "<rts.GameState time=\"3\"><oops>"), 0);
			assert_int_equal(srv_client_request(&junk, "hello server", NULL), 0);
			assert_int_equal(srv_client_request(&junk, "getAction 0", "{\"time\":1,\"pgs\":{}}"), 0);
		}
		for (int g = 0; g < GAMES; g++) {
			const replies *want = g % 2 ? &XR : &JR;
			expect(&games[g], want->line[k]);
		}
	}
	expect(&big, "ack");
	expect(&big, "[]");
	expect(&junk, "ack");
	expect(&junk, "<PlayerAction> </PlayerAction> ");
	expect(&junk, "[]"); /* a JSON payload in an auto session is answered in JSON */
	assert_true(srv_client_quiet(&junk, 100)); /* "hello server" got no reply */
	for (int g = 0; g < GAMES; g++)
		srv_client_close(&games[g]);
	srv_client_close(&big);
	srv_client_close(&junk);
	assert_true(wait_closed(&r, GAMES + 6));
	e = snapshot(&r);
	assert_int_equal(e.opened, GAMES + 6);
	assert_int_equal(e.games_over, GAMES);
	assert_int_equal(e.errors, 4); /* the 8 MB line, the broken XML, the unknown command, the empty pgs */
	/* still serving */
	{
		srv_client c;
		dial(&c, &r);
		assert_int_equal(srv_client_request(&c, "budget 100 0", NULL), 0);
		expect(&c, "ack");
		srv_client_close(&c);
	}
	free(bigline);
	stop(&r);
}

static void test_server_net__end_closes_only_that_connection(void **state)
{
	running r;
	srv_client a, b;
	const char *line;
	size_t len;

	(void)state;
	start(&r, "WorkerRush", 0, 0, 0);
	dial(&a, &r);
	dial(&b, &r);
	assert_int_equal(srv_client_request(&a, "budget 100 0", NULL), 0);
	assert_int_equal(srv_client_send(&a, "end\n", 4), 0);
	expect(&a, "ack");
	assert_int_equal(srv_client_line(&a, TIMEOUT_MS, &line, &len), 0); /* closed after its pending reply */
	for (int k = 0; k < 6; k++) {
		send_request(&b, &JS, k);
		expect(&b, JR.line[k]);
	}
	srv_client_close(&a);
	srv_client_close(&b);
	stop(&r);
}

static void test_server_net__connections_over_the_limit_are_closed_at_once(void **state)
{
	running r;
	srv_client a, b, c;
	char err[256];
	const char *line;
	size_t len;

	(void)state;
	start(&r, "WorkerRush", 0, 2, 0);
	dial(&a, &r);
	dial(&b, &r);
	assert_int_equal(srv_client_connect(&c, "127.0.0.1", ms_server_port(r.srv), 5000, err, sizeof(err)), 0);
	assert_int_equal(srv_client_line(&c, 10000, &line, &len), 0); /* no welcome: closed */
	srv_client_close(&c);
	srv_client_close(&b);
	assert_true(wait_closed(&r, 1));
	dial(&c, &r); /* room again */
	assert_int_equal(srv_client_request(&c, "budget 100 0", NULL), 0);
	expect(&c, "ack");
	srv_client_close(&a);
	srv_client_close(&c);
	stop(&r);
}

static void test_server_net__a_busy_port_is_a_clear_error(void **state)
{
	running r;
	ms_server_options o;
	ms_server *second = NULL;

	(void)state;
	start(&r, "WorkerRush", 0, 0, 0);
	memset(&o, 0, sizeof(o));
	o.version = MS_SERVER_OPTIONS_VERSION;
	o.port = ms_server_port(r.srv);
	o.ws_port = MS_SERVER_NO_PORT;
	o.session = session_options(NULL, MS_SERVER_LANG_AUTO);
	assert_int_equal(ms_server_new(r.ctx, &second, &o), MS_EIO);
	assert_null(second);
	assert_non_null(strstr(ms_ctx_last_error(r.ctx), "cannot listen"));
	o.port = MS_SERVER_NO_PORT;
	assert_int_equal(ms_server_new(r.ctx, &second, &o), MS_EINVAL);
	stop(&r);
}

static void test_server_net__stopping_closes_every_connection(void **state)
{
	running r;
	srv_client c;
	const char *line;
	size_t len;

	(void)state;
	start(&r, "WorkerRush", 0, 0, 0);
	dial(&c, &r);
	stop(&r);
	assert_int_equal(srv_client_line(&c, TIMEOUT_MS, &line, &len), 0);
	srv_client_close(&c);
}

/* The raw protocol on a Unix-domain socket too (SocketAI can connect to one
 * through junixsocket); a path holding another kind of file is refused. */
static void test_server_net__a_unix_socket_game_gets_the_session_replies(void **state)
{
	running r;
	ms_server_options o;
	srv_client c;
	char path[64], err[256];
	const char *line;
	size_t len;
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "server_net_%d.sock", (int)getpid());
	memset(&o, 0, sizeof(o));
	o.version = MS_SERVER_OPTIONS_VERSION;
	o.port = MS_SERVER_NO_PORT;
	o.ws_port = MS_SERVER_NO_PORT;
	o.unix_path = path;
	o.session = session_options("WorkerRush", MS_SERVER_LANG_AUTO);
	assert_int_equal(running_start(&r, &o), 0);
	assert_int_equal(ms_server_port(r.srv), MS_SERVER_NO_PORT);
	assert_int_equal(srv_client_connect_unix(&c, path, err, sizeof(err)), 0);
	assert_int_equal(srv_client_line(&c, TIMEOUT_MS, &line, &len), 1);
	for (int k = 0; k < script_requests(&JS); k++) {
		send_request(&c, &JS, k);
		expect(&c, JR.line[k]);
	}
	srv_client_close(&c);
	running_stop(&r);
	assert_int_not_equal(access(path, F_OK), 0); /* the socket file went with the server */
	f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
	{
		ms_ctx *ctx;
		ms_server *srv = NULL;
		assert_int_equal(ms_ctx_new(&ctx, NULL), 0);
		assert_int_equal(ms_server_new(ctx, &srv, &o), MS_EINVAL);
		assert_non_null(strstr(ms_ctx_last_error(ctx), "not a socket"));
		ms_ctx_free(ctx);
	}
	assert_int_equal(access(path, F_OK), 0); /* and the plain file is still there */
	unlink(path);
}

/* ---- websocket ------------------------------------------------------------------------ */

typedef struct ws_game {
	const srv_script *sc;
	int sent;        /* requests sent */
	int got;         /* messages received, welcome included */
	int done, failed;
	char *msg;       /* message being received */
	size_t msg_len;
	replies r;       /* replies, welcome first */
	int no_newline;  /* send requests without their final LF */
	int oversize;    /* send one message of this many bytes instead of the script */
	int closed;      /* the server closed the connection */
	const char *protocol; /* subprotocol asked for (NULL: none) */
} ws_game;

static char *ws_request(const ws_game *g, int k)
{
	const srv_script *sc = g->sc;
	const char *cmd = k == 0 ? "budget 100 0" : k == 1 ? "utt" : k < sc->n + 2 ? "getAction 0" : "gameOver 1";
	const char *payload = k == 1 ? sc->utt : k >= 2 && k < sc->n + 2 ? sc->states[k - 2] : NULL;
	size_t a = strlen(cmd), b = payload ? strlen(payload) : 0;
	char *m = malloc(LWS_PRE + a + b + 3);

	memcpy(m + LWS_PRE, cmd, a);
	if (payload) {
		m[LWS_PRE + a] = '\n';
		memcpy(m + LWS_PRE + a + 1, payload, b);
		a += b + 1;
	}
	if (!g->no_newline)
		m[LWS_PRE + a++] = '\n';
	m[LWS_PRE + a] = '\0';
	return m;
}

static int ws_client_cb(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len)
{
	ws_game *g = lws_context_user(lws_get_context(wsi));

	(void)user;
	switch (reason) {
	case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
		g->failed = 1;
		return -1;
	case LWS_CALLBACK_CLIENT_RECEIVE:
		g->msg = realloc(g->msg, g->msg_len + len + 1);
		memcpy(g->msg + g->msg_len, in, len);
		g->msg_len += len;
		if (lws_is_final_fragment(wsi) && !lws_remaining_packet_payload(wsi)) {
			replies_emit(&g->r, g->msg, g->msg_len);
			g->msg_len = 0;
			g->got++;
			if (g->sent < script_requests(g->sc))
				lws_callback_on_writable(wsi);
			else
				g->done = 1;
		}
		return 0;
	case LWS_CALLBACK_CLIENT_WRITEABLE: {
		char *m;
		if (g->oversize) {
			unsigned char *big = malloc(LWS_PRE + (size_t)g->oversize);
			int w;
			memset(big + LWS_PRE, 'x', (size_t)g->oversize);
			w = lws_write(wsi, big + LWS_PRE, (size_t)g->oversize, LWS_WRITE_TEXT);
			free(big);
			g->sent++;
			return w < g->oversize ? -1 : 0;
		}
		m = ws_request(g, g->sent);
		size_t n = strlen(m + LWS_PRE);
		int w = lws_write(wsi, (unsigned char *)m + LWS_PRE, n, LWS_WRITE_TEXT);
		free(m);
		if (w < (int)n)
			return -1;
		g->sent++;
		return 0;
	}
	case LWS_CALLBACK_CLIENT_CLOSED:
		g->closed = 1;
		if (!g->done)
			g->failed = 1;
		return 0;
	default:
		return 0;
	}
}

static void play_ws(int port, ws_game *g)
{
	static const struct lws_protocols protocols[] = { { "microrts.v1", ws_client_cb, 0, 65536, 0, NULL, 0 },
							  { NULL, NULL, 0, 0, 0, NULL, 0 } };
	struct lws_context_creation_info info;
	struct lws_client_connect_info ci;
	struct lws_context *ctx;
	time_t deadline = time(NULL) + 60;

	memset(&info, 0, sizeof(info));
	info.port = CONTEXT_PORT_NO_LISTEN;
	info.protocols = protocols;
	info.user = g;
	ctx = lws_create_context(&info);
	assert_non_null(ctx);
	memset(&ci, 0, sizeof(ci));
	ci.context = ctx;
	ci.address = "127.0.0.1";
	ci.port = port;
	ci.path = "/";
	ci.host = "127.0.0.1";
	ci.origin = "127.0.0.1";
	ci.protocol = g->protocol;
	assert_non_null(lws_client_connect_via_info(&ci));
	while (!g->done && !g->failed && time(NULL) < deadline)
		lws_service(ctx, 50);
	lws_context_destroy(ctx);
	free(g->msg);
}

/* The same game over the websocket endpoint: the welcome, then one reply
 * message per request message, equal to the TCP replies; also when the
 * requests' last line has no LF. */
static void test_server_net__a_websocket_game_gets_the_tcp_replies(void **state)
{
	running r;

	(void)state;
	start(&r, "WorkerRush", 1, 0, 0);
	assert_true(ms_server_ws_port(r.srv) > 0);
	for (int variant = 0; variant < 2; variant++) {
		const srv_script *sc = variant ? &XS : &JS;
		const replies *want = variant ? &XR : &JR;
		ws_game g;
		memset(&g, 0, sizeof(g));
		g.sc = sc;
		g.no_newline = variant;
		g.protocol = variant ? NULL : "microrts.v1"; /* a client naming no subprotocol is served too */
		play_ws(ms_server_ws_port(r.srv), &g);
		assert_false(g.failed);
		assert_true(g.done);
		assert_int_equal(g.r.n, script_requests(sc) + 1);
		assert_non_null(strstr(g.r.line[0], "you are client #"));
		for (int k = 0; k < script_requests(sc); k++)
			assert_string_equal(g.r.line[k + 1], want->line[k]);
		replies_clear(&g.r);
	}
	assert_true(wait_closed(&r, 2));
	assert_int_equal(snapshot(&r).games_over, 2);
	assert_int_equal(snapshot(&r).errors, 0);
	stop(&r);
}

/* A websocket message over twice the line limit closes that connection. */
static void test_server_net__a_websocket_message_over_the_limit_closes_the_connection(void **state)
{
	running r;
	ws_game g;
	srv_client c;

	(void)state;
	start(&r, "WorkerRush", 1, 0, 1024);
	memset(&g, 0, sizeof(g));
	g.sc = &JS;
	g.oversize = 4096;
	g.protocol = "microrts.v1";
	play_ws(ms_server_ws_port(r.srv), &g);
	assert_true(g.closed);
	assert_int_equal(g.r.n, 1); /* the welcome, nothing else */
	replies_clear(&g.r);
	assert_true(wait_closed(&r, 1));
	assert_int_equal(snapshot(&r).errors, 1);
	dial(&c, &r); /* the server goes on */
	srv_client_close(&c);
	stop(&r);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_server_net__a_tcp_game_gets_the_session_replies),
		cmocka_unit_test(test_server_net__sixty_four_games_at_once_beside_misbehaving_clients),
		cmocka_unit_test(test_server_net__end_closes_only_that_connection),
		cmocka_unit_test(test_server_net__connections_over_the_limit_are_closed_at_once),
		cmocka_unit_test(test_server_net__a_busy_port_is_a_clear_error),
		cmocka_unit_test(test_server_net__stopping_closes_every_connection),
		cmocka_unit_test(test_server_net__a_unix_socket_game_gets_the_session_replies),
		cmocka_unit_test(test_server_net__a_websocket_game_gets_the_tcp_replies),
		cmocka_unit_test(test_server_net__a_websocket_message_over_the_limit_closes_the_connection),
	};

	if (argc > 1)
		set_fixture_dir(argv[1]);
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
