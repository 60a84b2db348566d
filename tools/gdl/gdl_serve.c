/*
 * microsynth gdl serve: a General Game Playing player on the GGP protocol
 * (issue 44). libwebsockets serves HTTP on one port; every POST body is a
 * GGP message for the player (games/gdl/ggp.c), which answers at once or
 * from a match's thread. A connection waiting for a search holds a pending
 * reply: the worker's wake (lws_cancel_service) or the reply's deadline
 * timer sends it, so the event loop never waits for a search and no answer
 * is later than its deadline. One ms_pool_for runs it all: the event loop,
 * a job waiting for SIGINT or SIGTERM (which stop the server), and one
 * worker per match the player may play at once (--max-matches).
 */
#define _POSIX_C_SOURCE 200809L /* sigwait, kill, nanosleep */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libwebsockets.h>

#include "microsynth/buf.h"
#include "core/pool.h"
#include "games/gdl/gdl_ggp.h"
#include "cli.h"
#include "cli_lws.h"
#include "gdl_common.h"

#define CMD "gdl"
#define MAX_BODY ((size_t)16 << 20) /* chess's rules are 40 kB */
#define TOO_BIG "(error \"message over 16 MiB\")"

typedef struct gconn gconn;

typedef struct gserve {
	ms_ctx *ctx; /* the event loop's (the player's) */
	struct lws_context *lws;
	struct lws_protocols protocols[2];
	ms_gdl_ggp *player;
	int workers;
	sigset_t signals;
	gconn *pending; /* connections waiting for their reply (event loop only) */
	const char *host;
	int port, quiet;
	atomic_int stop;
} gserve;

/* One HTTP transaction: the message, then its reply. */
struct gconn {
	gserve *srv;
	struct lws *wsi;
	ms_buf body;
	int too_big, linked, headers_sent;
	double t0; /* when the request's headers arrived: the manager's clock runs from about then */
	ms_gdl_ggp_reply *reply;
	const char *answer; /* once there is one */
	gconn *prev, *next;
};

void cmd_gdl_serve_usage(FILE *out)
{
	fprintf(out,
		"serve   a GGP player on HTTP (the protocol of ggp-base's game server):\n"
		"        POST bodies (INFO) (PREVIEW rules clock) (START id role rules start play)\n"
		"        (PLAY id moves|NIL) (STOP id moves|NIL) (ABORT id); answers available|busy,\n"
		"        ready, a legal move, done, aborted, or (error \"...\") with one log line.\n"
		"        --port P (9147; 0: a free one) --host ADDR (127.0.0.1) --player uct|guct|sguct\n"
		"        --margin S: seconds kept back from each clock (1; at most a quarter of it)\n"
		"        --ponder 0|1 (1: search on between messages) --max-nodes N (1000000)\n"
		"        --max-matches N (8) --name NAME --seed S --fallback --quiet -v, and the\n"
		"        searcher options of play. First stdout line: http://HOST:PORT/; at exit\n"
		"        matches= messages= errors= late=\n");
}

static void log_line(void *ud, const char *line)
{
	gserve *srv = ud;
	if (!srv->quiet)
		fprintf(stderr, "microsynth gdl serve: %s\n", line);
}

/* A match's thread has an answer: the loop polls the pending connections. */
static void wake(void *ud)
{
	gserve *srv = ud;
	lws_cancel_service(srv->lws);
}

static void unlink_conn(gconn *c)
{
	if (!c->linked)
		return;
	if (c->prev)
		c->prev->next = c->next;
	else
		c->srv->pending = c->next;
	if (c->next)
		c->next->prev = c->prev;
	c->prev = c->next = NULL;
	c->linked = 0;
}

static void reset_conn(gconn *c)
{
	if (c->srv)
		unlink_conn(c);
	ms_gdl_ggp_reply_release(c->reply);
	ms_buf_dispose(&c->body);
	c->reply = NULL;
	c->too_big = c->headers_sent = 0;
	c->answer = NULL;
}

/* Sends the answer if there is one (now, or the deadline's); else waits for a wake or the timer. */
static int poll_conn(gconn *c)
{
	const char *text;
	if (c->answer || !c->reply || !c->srv->player) /* no player: shutting down */
		return 0;
	double now = cli_now();
	if (ms_gdl_ggp_reply_take(c->reply, now, &text)) {
		c->answer = text;
		unlink_conn(c);
		lws_callback_on_writable(c->wsi);
		return 0;
	}
	if (!c->linked) {
		c->next = c->srv->pending;
		if (c->next)
			c->next->prev = c;
		c->prev = NULL;
		c->srv->pending = c;
		c->linked = 1;
	}
	double wait = ms_gdl_ggp_reply_deadline(c->reply) - now;
	lws_set_timer_usecs(c->wsi, (lws_usec_t)(wait > 0 ? wait * 1e6 : 0) + 1000);
	return 0;
}

static int dispatch(gconn *c, const char *msg, size_t len)
{
	lws_set_timeout(c->wsi, NO_PENDING_TIMEOUT, 0); /* the clocks bound the wait, not lws */
	if (c->too_big) {
		c->answer = TOO_BIG;
		log_line(c->srv, "bad message: over 16 MiB");
		lws_callback_on_writable(c->wsi);
		return 0;
	}
	if (!c->srv->player || ms_gdl_ggp_handle(c->srv->player, msg ? msg : "", len, c->t0, &c->reply) < 0) {
		log_line(c->srv, "out of memory: connection closed");
		return -1;
	}
	return poll_conn(c);
}

static int append_body(gconn *c, const char *in, size_t len)
{
	if (c->too_big || c->body.len + len > MAX_BODY) {
		c->too_big = 1;
		return 0;
	}
	return ms_buf_append(&c->body, in, len) ? -1 : 0;
}

/* Headers on one WRITEABLE, the body on the next, as ggp-base writes them (text/acl). */
static int write_conn(gconn *c)
{
	struct lws *wsi = c->wsi;
	size_t n;
	if (!c->answer)
		return 0;
	n = strlen(c->answer);
	if (!c->headers_sent) {
		unsigned char buf[LWS_PRE + 512], *start = buf + LWS_PRE, *p = start, *end = buf + sizeof buf - 1;
		if (lws_add_http_common_headers(wsi, HTTP_STATUS_OK, "text/acl", n, &p, end) ||
		    lws_add_http_header_by_name(wsi, (const unsigned char *)"access-control-allow-origin:",
						(const unsigned char *)"*", 1, &p, end) ||
		    lws_finalize_write_http_header(wsi, start, &p, end))
			return -1;
		c->headers_sent = 1;
		lws_callback_on_writable(wsi);
		return 0;
	}
	ms_buf out; /* lws_write wants LWS_PRE bytes of room before the data */
	ms_buf_init(&out, c->srv->ctx);
	if (ms_buf_printf(&out, "%*s%s", (int)LWS_PRE, "", c->answer))
		return -1;
	int w = lws_write(wsi, (unsigned char *)out.data + LWS_PRE, n, LWS_WRITE_HTTP_FINAL);
	ms_buf_dispose(&out);
	reset_conn(c);
	if (w != (int)n)
		return -1;
	return lws_http_transaction_completed(wsi) ? -1 : 0;
}

static int http_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len)
{
	gserve *srv = lws_context_user(lws_get_context(wsi));
	gconn *c = user;

	switch (reason) {
	case LWS_CALLBACK_HTTP:
		if (c->srv)
			reset_conn(c);
		c->srv = srv;
		c->wsi = wsi;
		ms_buf_init(&c->body, srv->ctx);
		c->t0 = cli_now();
		if (lws_hdr_total_length(wsi, WSI_TOKEN_POST_URI))
			return 0; /* the message is the body */
		return dispatch(c, "(INFO)", 6); /* a GET (a browser, curl): the player's status */
	case LWS_CALLBACK_HTTP_BODY:
		return c && c->srv ? append_body(c, in, len) : -1;
	case LWS_CALLBACK_HTTP_BODY_COMPLETION:
		return c && c->srv ? dispatch(c, c->body.data, c->body.len) : -1;
	case LWS_CALLBACK_HTTP_WRITEABLE:
		return c && c->srv ? write_conn(c) : -1;
	case LWS_CALLBACK_TIMER:
		return c && c->srv ? poll_conn(c) : 0;
	case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
		for (gconn *p = srv->pending, *next; p; p = next) {
			next = p->next;
			poll_conn(p);
		}
		return 0;
	case LWS_CALLBACK_CLOSED_HTTP:
	case LWS_CALLBACK_HTTP_DROP_PROTOCOL:
		if (c && c->srv)
			reset_conn(c);
		return reason == LWS_CALLBACK_CLOSED_HTTP ? 0 : lws_callback_http_dummy(wsi, reason, user, in, len);
	default:
		return lws_callback_http_dummy(wsi, reason, user, in, len);
	}
}

/* ---- the command ------------------------------------------------------------- */

typedef struct serve_args {
	gdl_agent_opts ag;
	ms_gdl_ggp_options o;
	long port;
	int workers; /* --max-matches */
} serve_args;

static int parse_player(serve_args *a, const char *v)
{
	int kind = ms_gdl_player_kind(v);

	if (kind >= MS_GDL_PLAYER_UCT) { /* a GGP player searches: random is no choice here */
		a->o.player = MS_GDL_GGP_UCT + (kind - MS_GDL_PLAYER_UCT);
		return CLI_OK;
	}
	return cli_usage_error(CMD, "serve: unknown player '%s' (uct, guct or sguct)", v);
}

/* The serve options; 1 if handled, -1 (reported) if bad, 0 if not one of them. */
static int parse_serve_option(serve_args *a, gserve *srv, const char *o, const char *v)
{
	long n;
	if (!strcmp(o, "--port"))
		return !v ? cli_usage_error(CMD, "--port needs a value"), -1 : cli_parse_int(CMD, o, v, 0, 65535, &a->port) ? -1 : 1;
	if (!strcmp(o, "--host") || !strcmp(o, "--name")) {
		if (!v || !*v || strpbrk(v, " ()\t\n"))
			return cli_usage_error(CMD, "%s needs one word", o), -1;
		*(!strcmp(o, "--host") ? &srv->host : &a->o.name) = v;
		return 1;
	}
	if (!strcmp(o, "--player"))
		return !v ? cli_usage_error(CMD, "--player needs a value"), -1 : parse_player(a, v) ? -1 : 1;
	if (!strcmp(o, "--margin"))
		return !v ? cli_usage_error(CMD, "--margin needs a value"), -1
			  : cli_parse_real(CMD, o, v, 0, 3600, 0, &a->o.margin) ? -1 : 1;
	if (!strcmp(o, "--ponder") || !strcmp(o, "--max-nodes") || !strcmp(o, "--max-matches") || !strcmp(o, "--seed")) {
		long hi = !strcmp(o, "--ponder") ? 1 : !strcmp(o, "--max-matches") ? 64 : 2147483647L;
		if (!v)
			return cli_usage_error(CMD, "%s needs a value", o), -1;
		if (cli_parse_int(CMD, o, v, !strcmp(o, "--ponder") || !strcmp(o, "--seed") ? 0 : 1, hi, &n))
			return -1;
		if (!strcmp(o, "--ponder"))
			a->o.ponder = (int)n;
		else if (!strcmp(o, "--max-nodes"))
			a->o.max_nodes = n;
		else if (!strcmp(o, "--max-matches"))
			a->workers = (int)n;
		else
			a->ag.uo.seed = (uint64_t)n;
		return 1;
	}
	return 0;
}

static int serve_parse(int argc, char **argv, serve_args *a, gserve *srv)
{
	gdl_agent_opts_default(&a->ag);
	ms_gdl_ggp_options_init(&a->o, MS_GDL_GGP_OPTIONS_VERSION);
	a->port = 9147;
	a->workers = 8;
	srv->host = "127.0.0.1";
	for (int i = 2; i < argc; i++) {
		const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		int r;
		if (!strcmp(o, "--fallback"))
			a->o.fallback = 1;
		else if (!strcmp(o, "--quiet"))
			srv->quiet = 1;
		else if (!strcmp(o, "-v"))
			a->o.verbose = 1;
		else if ((r = parse_serve_option(a, srv, o, v)) != 0 || (r = gdl_agent_option(&a->ag, o, v)) != 0) {
			if (r < 0)
				return CLI_USAGE;
			i++;
		} else
			return cli_usage_error(CMD, "serve: unknown option '%s'", o);
	}
	a->o.uct = a->ag.uo;
	a->o.stat = a->ag.so;
	a->o.sguct = a->ag.sgo;
	a->o.sguct_sims = a->ag.sguct_sims;
	a->o.online = a->ag.online;
	a->o.log = log_line;
	a->o.wake = wake;
	a->o.ud = srv;
	return CLI_OK;
}

static int serve_listen(gserve *srv, long port)
{
	srv->protocols[0].name = "http";
	srv->protocols[0].callback = http_callback;
	srv->protocols[0].per_session_data_size = sizeof(gconn);
	return cli_lws_listen("gdl serve", "ggp", srv->host, port, srv->protocols, srv, &srv->lws, &srv->port);
}

/* The event loop, until a signal (or lws) stops it; then the workers and the signal job go home. */
static void event_loop(gserve *srv)
{
	/* the URL only once the workers wait for matches, so that a START right after it finds one */
	for (int i = 0; i < 2000 && ms_gdl_ggp_free_workers(srv->player) < srv->workers; i++)
		nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
	if (strchr(srv->host, ':'))
		printf("http://[%s]:%d/\n", srv->host, srv->port);
	else
		printf("http://%s:%d/\n", srv->host, srv->port);
	fflush(stdout);
	while (!atomic_load(&srv->stop))
		if (lws_service(srv->lws, 0) < 0)
			break;
	ms_gdl_ggp_shutdown(srv->player);
	kill(getpid(), SIGUSR1); /* the signal job, if the loop ended by itself */
}

/* SIGINT or SIGTERM stops the loop; SIGUSR1 says the loop has ended. */
static void wait_signals(gserve *srv)
{
	int sig = 0;
	while (sigwait(&srv->signals, &sig))
		;
	if (sig != SIGUSR1) {
		atomic_store(&srv->stop, 1);
		lws_cancel_service(srv->lws);
	}
}

static int serve_job(void *ud, ms_ctx *ctx, long i, int worker)
{
	gserve *srv = ud;
	(void)ctx, (void)worker;
	if (i == 0)
		event_loop(srv);
	else if (i == 1)
		wait_signals(srv);
	else
		ms_gdl_ggp_worker(srv->player);
	return MS_OK;
}

int cmd_gdl_serve(int argc, char **argv)
{
	gserve srv;
	serve_args a;
	int rc;

	memset(&srv, 0, sizeof srv);
	atomic_init(&srv.stop, 0);
	if ((rc = serve_parse(argc, argv, &a, &srv)))
		return rc;
	srv.workers = a.workers;
	if (ms_ctx_new(&srv.ctx, NULL) || ms_gdl_ggp_new(srv.ctx, &a.o, &srv.player)) {
		fprintf(stderr, "microsynth gdl serve: %s\n", srv.ctx ? ms_ctx_last_error(srv.ctx) : "out of memory");
		ms_ctx_free(srv.ctx);
		return CLI_FAIL;
	}
	lws_set_log_level(LLL_ERR | LLL_WARN, NULL);
	/* signals go to the signal job only: blocked in every thread, before any exists */
	sigemptyset(&srv.signals);
	sigaddset(&srv.signals, SIGINT);
	sigaddset(&srv.signals, SIGTERM);
	sigaddset(&srv.signals, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &srv.signals, NULL);
	if (!(rc = serve_listen(&srv, a.port)) &&
	    ms_pool_for(srv.ctx, srv.workers + 2, srv.workers + 2, serve_job, &srv, NULL) < 0) {
		fprintf(stderr, "microsynth gdl serve: %s\n", ms_ctx_last_error(srv.ctx));
		rc = CLI_FAIL;
	}
	ms_gdl_ggp_counts counts;
	ms_gdl_ggp_counts_get(srv.player, &counts);
	ms_gdl_ggp_free(srv.player); /* every worker has returned */
	srv.player = NULL;
	if (srv.lws)
		lws_context_destroy(srv.lws);
	ms_ctx_free(srv.ctx);
	if (!rc)
		printf("matches=%ld messages=%ld errors=%ld late=%ld\n", counts.matches, counts.messages, counts.errors,
		       counts.late);
	return rc;
}
