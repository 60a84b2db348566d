/*
 * microsynth view: the browser view. One libwebsockets context serves, on
 * one port, the page (HTML, JS and CSS built into the binary) over HTTP and
 * a websocket (subprotocol "microsynth-view") carrying JSON messages, one
 * session each (view_session.c). Matches and replays run in the event
 * loop, a slice of cycles per frame, and a connection gets its next frame
 * only once the last one went out, so a slow page slows its own match and
 * no other. Stops on SIGINT or SIGTERM (a thread in sigwait stops the loop).
 */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <libwebsockets.h>

#include "microsynth/bots.h"
#include "core/pool.h"
#include "cli.h"
#include "cli_lws.h"
#include "edition.h"
#include "view.h"

#define VIEW_PROTOCOL "microsynth-view"
#define MAX_MESSAGE ((size_t)1 << 20) /* the page sends small requests; program texts fit */
#define HTTP_CHUNK 16384
#define QUEUE_HIGH 64 /* a page that sends without reading is paused past this many queued replies */

typedef struct view_server {
	struct lws_context *lws;
	struct lws_protocols protocols[3];
	view_config cfg;
	const char *host;
	int port, quiet;
	atomic_int stop;
	int accepted;
	unsigned long errors;
} view_server;

/* A queued message, with the headroom lws_write needs. */
typedef struct vchunk {
	struct vchunk *next;
	size_t len;
	unsigned char data[]; /* LWS_PRE + len */
} vchunk;

typedef struct vconn {
	view_server *srv;
	struct lws *wsi;
	view_session *session;
	vchunk *head, *tail;
	int queued;
	ms_buf in; /* the message being received */
	ms_ctx *ctx;
	int too_big;
	int paused; /* rx flow control: its replies pile up */
} vconn;

typedef struct http_pss {
	const view_asset *asset;
	size_t sent;
} http_pss;

void cmd_view_usage(FILE *out)
{
	fprintf(out,
		"Usage: microsynth view [--port N] [--host ADDR] [--follow FILE]... [--results DIR]\n"
		"                       [--maps DIR] [--programs DIR] [--traces DIR] [--edition 2022|2023]\n"
		"                       [--quiet]\n\n"
		"Serves the browser view: open the address it prints (its first line on stdout)\n"
		"to watch native matches live (bots, programs with their lines lighting up as\n"
		"they act), replay official traces and recordings cycle by cycle, and follow a\n"
		"running synthesis (docs/view.md).\n\n"
		"  --port N         port for the page and its websocket (default 8765; 0: a free one)\n"
		"  --host ADDR      address to listen on (default 127.0.0.1: this machine only; the\n"
		"                   page can make the server read any file it can, so keep it local)\n"
		"  --follow FILE    a synthesis's CSV log (synth --csv), checkpoint (--checkpoint) or\n"
		"                   --progress-json file, or selfplay's --csv or -o program, to show\n"
		"                   on the dashboard; repeat for each\n"
		"  --results DIR    league/evaluate output: its .csv tables and .svg plots as pages\n"
		"  --maps DIR       maps offered (default: the harness cache's maps/)\n"
		"  --programs DIR   program, switch and portfolio files offered as players\n"
		"                   (default: programs/ here or in the checkout)\n"
		"  --traces DIR     traces and recordings offered for replay (default: the shared\n"
		"                   data's official traces, when present)\n"
		"  --edition E      the official bots' edition native bots play (default: the\n"
		"                   harness's, as `microsynth play`)\n"
		"  --quiet          no connection log on stderr (errors are still logged)\n\n"
		"Stdout: the address (http://HOST:PORT/) once listening; a line 'report client=N\n"
		"TEXT' for each outcome a scripted page reports (docs/view.md); at exit\n"
		"'connections=N errors=E'.\n");
}

static void log_line(void *ud, const char *line)
{
	view_server *srv = ud;
	srv->errors++;
	fprintf(stderr, "microsynth view: %s\n", line);
}

/* A scripted page's outcome, one line on stdout (newlines and overlong text cut). */
static void report_line(void *ud, int client, const char *text)
{
	(void)ud;
	printf("report client=%d ", client);
	for (int i = 0; text[i] && i < 8192; i++)
		putchar(text[i] == '\n' || text[i] == '\r' ? ' ' : text[i]);
	putchar('\n');
	fflush(stdout);
}

/* ---- HTTP: the page's files -------------------------------------------------- */

static const view_asset *find_asset(const char *path)
{
	if (!strcmp(path, "/") || !*path)
		path = "/index.html";
	for (const view_asset *a = view_assets; a->path; a++)
		if (!strcmp(a->path, path))
			return a;
	return NULL;
}

static int http_start(struct lws *wsi, http_pss *pss, const char *path)
{
	unsigned char buf[LWS_PRE + 1024], *start = buf + LWS_PRE, *p = start, *end = buf + sizeof(buf) - 1;

	pss->asset = find_asset(path);
	pss->sent = 0;
	if (!pss->asset) {
		lws_return_http_status(wsi, HTTP_STATUS_NOT_FOUND, "no such page");
		return lws_http_transaction_completed(wsi) ? -1 : 0;
	}
	if (lws_add_http_common_headers(wsi, HTTP_STATUS_OK, pss->asset->mime, pss->asset->len, &p, end) ||
	    lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_CACHE_CONTROL, (const unsigned char *)"no-store", 8, &p,
					 end) ||
	    lws_finalize_write_http_header(wsi, start, &p, end))
		return 1;
	lws_callback_on_writable(wsi);
	return 0;
}

static int http_write(struct lws *wsi, http_pss *pss)
{
	unsigned char buf[LWS_PRE + HTTP_CHUNK];
	size_t n;
	int final;

	if (!pss->asset)
		return -1;
	n = pss->asset->len - pss->sent;
	n = n > HTTP_CHUNK ? HTTP_CHUNK : n;
	final = pss->sent + n == pss->asset->len;
	memcpy(buf + LWS_PRE, pss->asset->data + pss->sent, n);
	if (lws_write(wsi, buf + LWS_PRE, n, final ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP) != (int)n)
		return -1;
	pss->sent += n;
	if (final)
		return lws_http_transaction_completed(wsi) ? -1 : 0;
	lws_callback_on_writable(wsi);
	return 0;
}

static int http_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len)
{
	http_pss *pss = user;

	switch (reason) {
	case LWS_CALLBACK_HTTP:
		return http_start(wsi, pss, in ? (const char *)in : "/");
	case LWS_CALLBACK_HTTP_WRITEABLE:
		return http_write(wsi, pss);
	default:
		return lws_callback_http_dummy(wsi, reason, user, in, len);
	}
}

/* ---- the websocket: one session per page ------------------------------------ */

static int enqueue(void *ud, const char *msg, size_t len)
{
	vconn *c = ud;
	vchunk *k = malloc(sizeof(*k) + LWS_PRE + len);

	if (!k)
		return MS_ENOMEM;
	k->next = NULL;
	k->len = len;
	memcpy(k->data + LWS_PRE, msg, len);
	if (c->tail)
		c->tail->next = k;
	else
		c->head = k;
	c->tail = k;
	c->queued++;
	lws_callback_on_writable(c->wsi);
	return MS_OK;
}

static double mono_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Moves the session on unless frames still wait to go out; arms the timer for the next time. */
static int run_tick(vconn *c)
{
	int next_ms = -1;

	if (c->queued > 1) {
		lws_set_timer_usecs(c->wsi, 5000); /* WRITEABLE comes back here once the queue drains */
		return 0;
	}
	if (view_session_tick(c->session, mono_now(), &next_ms) < 0) {
		log_line(c->srv, "out of memory: connection closed");
		return -1;
	}
	lws_set_timer_usecs(c->wsi, next_ms < 0 ? LWS_SET_TIMER_USEC_CANCEL : (lws_usec_t)(next_ms > 0 ? next_ms : 1) * 1000);
	return 0;
}

static void free_conn(vconn *c)
{
	while (c->head) {
		vchunk *k = c->head;
		c->head = k->next;
		free(k);
	}
	c->tail = NULL;
	view_session_free(c->session);
	c->session = NULL;
	ms_buf_dispose(&c->in);
	ms_ctx_free(c->ctx);
	c->ctx = NULL;
	c->srv = NULL;
}

static int open_conn(view_server *srv, vconn *c, struct lws *wsi)
{
	memset(c, 0, sizeof(*c));
	c->wsi = wsi;
	c->srv = srv;
	if (ms_ctx_new(&c->ctx, NULL) ||
	    view_session_new(&c->session, &srv->cfg, srv->accepted, enqueue, c)) {
		log_line(srv, "out of memory: connection refused");
		free_conn(c);
		return -1;
	}
	ms_buf_init(&c->in, c->ctx);
	if (!srv->quiet)
		fprintf(stderr, "microsynth view: client %d connected\n", srv->accepted);
	srv->accepted++;
	return view_session_hello(c->session) < 0 ? -1 : 0;
}

/* A fragment of the page's message; the whole message goes to the session. */
static int receive(vconn *c, const char *in, size_t len)
{
	struct lws *wsi = c->wsi;
	int rc = 0;

	if (!c->too_big && c->in.len + len > MAX_MESSAGE) {
		c->too_big = 1;
		c->in.len = 0;
	}
	if (!c->too_big && ms_buf_append(&c->in, in, len))
		return -1;
	if (!lws_is_final_fragment(wsi) || lws_remaining_packet_payload(wsi))
		return 0;
	if (c->too_big) {
		char msg[120];
		snprintf(msg, sizeof(msg), "bad message: over %zu bytes", MAX_MESSAGE);
		rc = view_session_report(c->session, msg);
		c->too_big = 0;
	} else
		rc = view_session_handle(c->session, c->in.data ? c->in.data : "", c->in.len);
	c->in.len = 0;
	if (rc < 0)
		return -1;
	if (c->queued > QUEUE_HIGH && !c->paused) {
		c->paused = 1;
		lws_rx_flow_control(wsi, 0);
	}
	return run_tick(c);
}

static int ws_write(vconn *c)
{
	vchunk *k = c->head;

	if (k) {
		if (lws_write(c->wsi, k->data + LWS_PRE, k->len, LWS_WRITE_TEXT) < (int)k->len)
			return -1;
		c->head = k->next;
		if (!c->head)
			c->tail = NULL;
		c->queued--;
		free(k);
	}
	if (c->paused && c->queued < QUEUE_HIGH / 4) {
		c->paused = 0;
		lws_rx_flow_control(c->wsi, 1);
	}
	if (c->head) {
		lws_callback_on_writable(c->wsi);
		return 0;
	}
	return run_tick(c);
}

static int ws_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len)
{
	view_server *srv = lws_context_user(lws_get_context(wsi));
	vconn *c = user;

	switch (reason) {
	case LWS_CALLBACK_ESTABLISHED:
		return open_conn(srv, c, wsi);
	case LWS_CALLBACK_RECEIVE:
		return c && c->srv ? receive(c, in, len) : -1;
	case LWS_CALLBACK_SERVER_WRITEABLE:
		return c && c->srv ? ws_write(c) : -1;
	case LWS_CALLBACK_TIMER:
		return c && c->srv ? run_tick(c) : 0;
	case LWS_CALLBACK_CLOSED:
		if (c && c->srv) {
			if (!srv->quiet)
				fprintf(stderr, "microsynth view: a client left\n");
			free_conn(c);
		}
		return 0;
	default:
		return 0;
	}
}

/* ---- the command ------------------------------------------------------------- */

typedef struct view_args {
	const char *follow[64];
	int n_follow;
	const char *maps, *programs, *traces;
	char maps_buf[4096], programs_buf[4096], traces_buf[4096];
	long port;
	int edition;
} view_args;

static int is_dir(const char *p)
{
	struct stat st;
	return !stat(p, &st) && S_ISDIR(st.st_mode);
}

/* Defaults for what the page offers: the harness's maps, our programs, the shared traces. */
static void default_dirs(view_args *a)
{
	char dir[4096];

	if (!a->maps && !cli_harness_dir(dir, sizeof(dir))) {
		snprintf(a->maps_buf, sizeof(a->maps_buf), "%s/maps", dir);
		a->maps = is_dir(a->maps_buf) ? a->maps_buf : NULL;
	}
	if (!a->programs) {
		if (is_dir("programs"))
			a->programs = "programs";
		else if (!cli_exe_dir(dir, sizeof(dir))) {
			/* build/bin/microsynth in a checkout: its programs/ */
			snprintf(a->programs_buf, sizeof(a->programs_buf), "%s/../../programs", dir);
			a->programs = is_dir(a->programs_buf) ? a->programs_buf : NULL;
		}
	}
	if (!a->traces && !cli_shared_path("data/microrts/traces", a->traces_buf, sizeof(a->traces_buf)))
		a->traces = a->traces_buf;
}

static int view_parse(int argc, char **argv, view_args *a, view_server *srv)
{
	a->port = 8765;
	a->edition = -1;
	srv->host = "127.0.0.1";
	for (int i = 1; i < argc; i++) {
		const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(o, "--quiet")) {
			srv->quiet = 1;
			continue;
		}
		if (!v)
			return cli_usage_error("view", "%s needs a value", o);
		i++;
		if (!strcmp(o, "--port")) {
			if (cli_parse_int("view", o, v, 0, 65535, &a->port))
				return CLI_USAGE;
		} else if (!strcmp(o, "--host") || !strcmp(o, "--bind"))
			srv->host = v;
		else if (!strcmp(o, "--follow")) {
			if (a->n_follow == 64)
				return cli_usage_error("view", "at most 64 --follow files");
			a->follow[a->n_follow++] = v;
		} else if (!strcmp(o, "--results"))
			srv->cfg.results_dir = v;
		else if (!strcmp(o, "--maps"))
			a->maps = v;
		else if (!strcmp(o, "--programs"))
			a->programs = v;
		else if (!strcmp(o, "--traces"))
			a->traces = v;
		else if (!strcmp(o, "--edition")) {
			if (edition_arg("view", v, &a->edition))
				return CLI_USAGE;
		} else
			return cli_usage_error("view", "unknown option '%s'", o);
	}
	default_dirs(a);
	srv->cfg.edition = a->edition >= 0 ? a->edition : edition_of_harness(NULL);
	srv->cfg.maps_dir = a->maps;
	srv->cfg.programs_dir = a->programs;
	srv->cfg.traces_dir = a->traces;
	srv->cfg.follow = a->follow;
	srv->cfg.n_follow = a->n_follow;
	srv->cfg.resolve_map = cli_resolve_map;
	srv->cfg.log = log_line;
	srv->cfg.log_ud = srv;
	srv->cfg.report = report_line;
	return CLI_OK;
}

/* The context and its one vhost: the page and the websocket on one port. */
static int view_listen(view_server *srv, long port)
{
	srv->protocols[0].name = "http";
	srv->protocols[0].callback = http_callback;
	srv->protocols[0].per_session_data_size = sizeof(http_pss);
	srv->protocols[1].name = VIEW_PROTOCOL;
	srv->protocols[1].callback = ws_callback;
	srv->protocols[1].per_session_data_size = sizeof(vconn);
	srv->protocols[1].rx_buffer_size = 65536;
	return cli_lws_listen("view", "view", srv->host, port, srv->protocols, srv, &srv->lws, &srv->port);
}

typedef struct view_sig {
	sigset_t set;
	view_server *srv;
} view_sig;

static void *view_wait_signals(void *arg)
{
	view_sig *w = arg;
	int sig = 0;

	while (sigwait(&w->set, &sig))
		;
	if (sig == SIGINT || sig == SIGTERM) {
		atomic_store(&w->srv->stop, 1);
		lws_cancel_service(w->srv->lws);
	}
	return NULL; /* SIGUSR1: the loop ended by itself */
}

int cmd_view(int argc, char **argv)
{
	view_server srv;
	view_args a;
	view_sig w;
	pthread_t thread;
	int rc;

	memset(&srv, 0, sizeof(srv));
	memset(&a, 0, sizeof(a));
	atomic_init(&srv.stop, 0);
	if ((rc = view_parse(argc, argv, &a, &srv)))
		return rc;
	lws_set_log_level(LLL_ERR | LLL_WARN, NULL);
	/* signals go to one thread, blocked everywhere else before any thread exists */
	sigemptyset(&w.set);
	sigaddset(&w.set, SIGINT);
	sigaddset(&w.set, SIGTERM);
	sigaddset(&w.set, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &w.set, NULL);
	w.srv = &srv;
	if ((rc = view_listen(&srv, a.port))) {
		if (srv.lws)
			lws_context_destroy(srv.lws);
		return rc;
	}
	if (ms_thread_start(NULL, &thread, view_wait_signals, &w, NULL)) {
		fprintf(stderr, "microsynth view: cannot start the signal thread\n");
		lws_context_destroy(srv.lws);
		return CLI_FAIL;
	}
	if (strchr(srv.host, ':'))
		printf("http://[%s]:%d/\n", srv.host, srv.port);
	else
		printf("http://%s:%d/\n", srv.host, srv.port);
	fflush(stdout);
	while (!atomic_load(&srv.stop))
		if (lws_service(srv.lws, 0) < 0)
			break;
	pthread_kill(thread, SIGUSR1);
	pthread_join(thread, NULL);
	lws_context_destroy(srv.lws);
	printf("connections=%d errors=%lu\n", srv.accepted, srv.errors);
	return CLI_OK;
}
