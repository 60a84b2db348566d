/*
 * microsynth serve: the SocketAI server (spec Part 1) on raw TCP and, when
 * asked, a websocket endpoint, playing a native bot or a program. Stops on
 * SIGINT or SIGTERM (caught by a thread in sigwait, which stops the loop).
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libwebsockets.h>

#include "microsynth/server.h"
#include "core/pool.h"
#include "cli.h"
#include "edition.h"

typedef struct serve_state {
	ms_server *srv;
	int quiet;
	long games_wanted;
	uint64_t games_over;
	uint64_t errors;
} serve_state;

void cmd_serve_usage(FILE *out)
{
	fprintf(out,
		"Usage: microsynth serve [--port N] [--bind ADDR] [--ws-port N] [--unix PATH]\n"
		"                        [--program FILE | --bot NAME] [--lang auto|json|xml]\n"
		"                        [--seed N] [--max-line BYTES] [--max-connections N]\n"
		"                        [--games N] [--forget] [--edition 2022|2023] [--quiet]\n\n"
		"Serves MicroRTS games to ai.socket.SocketAI clients (the official socket\n"
		"protocol, JSON and XML) on raw TCP, and the same messages on a websocket\n"
		"endpoint (subprotocol \"microrts.v1\"; docs/bridge.md), many games at once.\n\n"
		"  --port N           TCP port (default 9898; 0 picks a free port; -1 none)\n"
		"  --bind ADDR        address to listen on (default 127.0.0.1: this machine only)\n"
		"  --ws-port N        also serve websockets on port N (default: no websocket)\n"
		"  --unix PATH        also serve on a Unix-domain socket (SocketAI's junixsocket\n"
		"                     constructor); a socket file at PATH is replaced\n"
		"  --program FILE     play the strategy program FILE (bot spec \"program:FILE\")\n"
		"  --bot NAME         play a native bot: WorkerRush, LightRush, HeavyRush,\n"
		"                     RangedRush, PassiveAI, RandomBiasedAI, RandomAI, CoacAI, mayari\n"
		"                     (default when neither is given: " MS_SERVER_DEFAULT_BOT ")\n"
		"  --lang L           payload language: auto (default: sniffed from each\n"
		"                     payload), json or xml\n"
		"  --seed N           seed of the bot's generator (RandomBiasedAI; default 0)\n"
		"  --max-line BYTES   longest line accepted (default 16 MiB); longer ones are\n"
		"                     skipped and answered as malformed\n"
		"  --max-connections N  connections at once (default 1024)\n"
		"  --games N          stop after N gameOver messages (default: serve until a signal)\n"
		"  --forget           the bot forgets its memory before every getAction, as behind\n"
		"                     the Java reference servers (their replies, byte for byte)\n"
		"  --edition E        the official bots' edition a native bot reproduces, 2022\n"
		"                     or 2023 (default: the harness's, see `microsynth harness`)\n"
		"  --quiet            do not log connections and errors on stderr\n\n"
		"Stdout: 'listening tcp=ADDR:PORT [ws=ADDR:PORT] [unix=PATH] bot=SPEC lang=L' once\n"
		"the sockets are open"
		"; at exit, 'connections=N games_over=G errors=E'.\n");
}

static void on_event(void *ud, const ms_server_event *ev)
{
	serve_state *st = ud;

	switch (ev->type) {
	case MS_SERVER_EV_GAME_OVER:
		st->games_over++;
		if (!st->quiet)
			fprintf(stderr, "client #%d (%s): game over, winner %d\n", ev->client, ev->transport, ev->winner);
		if (st->games_wanted > 0 && st->games_over >= (uint64_t)st->games_wanted)
			ms_server_stop(st->srv);
		break;
	case MS_SERVER_EV_ERROR:
		st->errors++;
		if (!st->quiet)
			fprintf(stderr, "client #%d (%s): %s\n", ev->client, ev->transport, ev->message);
		break;
	case MS_SERVER_EV_OPEN:
		if (!st->quiet)
			fprintf(stderr, "client #%d (%s): connected\n", ev->client, ev->transport);
		break;
	case MS_SERVER_EV_CLOSE:
		if (!st->quiet)
			fprintf(stderr, "client #%d (%s): closed\n", ev->client, ev->transport);
		break;
	}
}

typedef struct sig_waiter {
	sigset_t set;
	ms_server *srv;
} sig_waiter;

static void *wait_signals(void *arg)
{
	sig_waiter *w = arg;
	int sig = 0;

	for (;;) {
		if (sigwait(&w->set, &sig))
			continue;
		if (sig == SIGINT || sig == SIGTERM)
			ms_server_stop(w->srv);
		return NULL; /* SIGUSR1: the server stopped by itself */
	}
}

/* The command line of 'serve': the server's options and what they point to. */
typedef struct serve_opts {
	ms_server_options o;
	char spec[4200];
	const char *program, *bot, *bind, *unix_path;
	long port, ws_port;
	int edition_given;
} serve_opts;

/* One option with a value; CLI_OK or the exit code after a usage error. */
static int serve_option(const char *a, const char *val, serve_opts *so, serve_state *st)
{
	ms_server_options *o = &so->o;
	long v;
	if (!strcmp(a, "--port")) {
		if (cli_parse_int("serve", a, val, -1, 65535, &so->port))
			return CLI_USAGE;
	} else if (!strcmp(a, "--ws-port")) {
		if (cli_parse_int("serve", a, val, -1, 65535, &so->ws_port))
			return CLI_USAGE;
	} else if (!strcmp(a, "--bind")) {
		so->bind = val;
	} else if (!strcmp(a, "--unix")) {
		so->unix_path = val;
	} else if (!strcmp(a, "--program")) {
		so->program = val;
	} else if (!strcmp(a, "--bot")) {
		so->bot = val;
	} else if (!strcmp(a, "--lang")) {
		if (!strcmp(val, "auto"))
			o->session.language = MS_SERVER_LANG_AUTO;
		else if (!strcmp(val, "json"))
			o->session.language = MS_SERVER_LANG_JSON;
		else if (!strcmp(val, "xml"))
			o->session.language = MS_SERVER_LANG_XML;
		else
			return cli_usage_error("serve", "--lang must be auto, json or xml");
	} else if (!strcmp(a, "--seed")) {
		if (cli_parse_int("serve", a, val, -2147483647L - 1, 2147483647L, &v))
			return CLI_USAGE;
		o->session.seed = v;
	} else if (!strcmp(a, "--max-line")) {
		if (cli_parse_int("serve", a, val, 64, 1L << 30, &v))
			return CLI_USAGE;
		o->session.max_line = (size_t)v;
	} else if (!strcmp(a, "--max-connections")) {
		if (cli_parse_int("serve", a, val, 1, 1000000, &v))
			return CLI_USAGE;
		o->max_sessions = (int)v;
	} else if (!strcmp(a, "--edition")) {
		if (edition_arg("serve", val, &o->session.edition))
			return CLI_USAGE;
		so->edition_given = 1;
	} else if (!strcmp(a, "--games")) {
		if (cli_parse_int("serve", a, val, 1, 1L << 30, &st->games_wanted))
			return CLI_USAGE;
	} else {
		return cli_usage_error("serve", "unknown option '%s'", a);
	}
	return CLI_OK;
}

/* Fills so (and st's --quiet and --games) from the command line; CLI_OK or the exit code. */
static int serve_args(int argc, char **argv, serve_opts *so, serve_state *st)
{
	ms_server_options *o = &so->o;
	memset(so, 0, sizeof(*so));
	so->bind = "127.0.0.1";
	so->port = 9898;
	so->ws_port = -1;
	o->version = MS_SERVER_OPTIONS_VERSION;
	o->session.version = MS_SERVER_SESSION_OPTIONS_VERSION;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "--quiet")) {
			st->quiet = 1;
			continue;
		}
		if (!strcmp(a, "--forget")) {
			o->session.forget = 1;
			continue;
		}
		if (!val)
			return cli_usage_error("serve", "%s needs a value", a);
		i++;
		int rc = serve_option(a, val, so, st);
		if (rc)
			return rc;
	}
	if (so->program && so->bot)
		return cli_usage_error("serve", "give --program or --bot, not both");
	if (so->port < 0 && so->ws_port < 0 && !so->unix_path)
		return cli_usage_error("serve", "nothing to listen on (--port -1, no --ws-port, no --unix)");
	if (so->program)
		snprintf(so->spec, sizeof(so->spec), "program:%s", so->program);
	else
		snprintf(so->spec, sizeof(so->spec), "%s", so->bot ? so->bot : MS_SERVER_DEFAULT_BOT);
	if (!so->edition_given)
		o->session.edition = edition_of_harness(NULL);
	o->bind = so->bind;
	o->port = (int)so->port;
	o->ws_port = (int)so->ws_port;
	o->unix_path = so->unix_path;
	o->session.bot = so->spec;
	o->on_event = on_event;
	o->event_ud = st;
	return CLI_OK;
}

/* Checks the bot and opens the sockets into st->srv; a CLI code (ctx freed on failure). */
static int serve_open(ms_ctx *ctx, const serve_opts *so, serve_state *st)
{
	/* A bot or program that cannot be built is bad input (exit 2) whatever
	 * its status; only a socket that cannot be opened is a failure (1). */
	ms_server_session *probe = NULL;
	int rc = ms_server_session_new(ctx, &probe, &so->o.session, 0);
	ms_server_session_free(probe);
	if (rc) {
		fprintf(stderr, "microsynth serve: %s\n", ms_ctx_last_error(ctx));
		ms_ctx_free(ctx);
		return CLI_USAGE;
	}
	rc = ms_server_new(ctx, &st->srv, &so->o);
	if (rc) {
		fprintf(stderr, "microsynth serve: %s\n", ms_ctx_last_error(ctx));
		ms_ctx_free(ctx);
		return rc == MS_EIO ? CLI_FAIL : CLI_USAGE;
	}
	return CLI_OK;
}

static void serve_print_listening(const serve_opts *so, ms_server *srv)
{
	int lang = so->o.session.language;
	printf("listening");
	if (ms_server_port(srv) != MS_SERVER_NO_PORT)
		printf(" tcp=%s:%d", so->bind, ms_server_port(srv));
	if (ms_server_ws_port(srv) != MS_SERVER_NO_PORT)
		printf(" ws=%s:%d", so->bind, ms_server_ws_port(srv));
	if (so->unix_path)
		printf(" unix=%s", so->unix_path);
	printf(" bot=%s lang=%s\n", so->spec,
	       lang == MS_SERVER_LANG_JSON ? "json" : lang == MS_SERVER_LANG_XML ? "xml" : "auto");
	fflush(stdout);
}

int cmd_serve(int argc, char **argv)
{
	serve_opts so;
	serve_state st;
	sig_waiter w;
	pthread_t thread;
	ms_ctx *ctx = NULL;
	int accepted = 0;

	memset(&st, 0, sizeof(st));
	int rc = serve_args(argc, argv, &so, &st);
	if (rc)
		return rc;

	/* lws logs notices per context on stderr by default; keep its errors. */
	lws_set_log_level(LLL_ERR | LLL_WARN, NULL);
	/* Signals go to one thread that stops the loop (blocked everywhere else;
	 * set before any thread exists, so every thread inherits the mask). */
	sigemptyset(&w.set);
	sigaddset(&w.set, SIGINT);
	sigaddset(&w.set, SIGTERM);
	sigaddset(&w.set, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &w.set, NULL);

	if (ms_ctx_new(&ctx, NULL)) {
		fprintf(stderr, "microsynth serve: out of memory\n");
		return CLI_FAIL;
	}
	if ((rc = serve_open(ctx, &so, &st)))
		return rc;
	w.srv = st.srv;
	if (ms_thread_start(NULL, &thread, wait_signals, &w, NULL)) {
		fprintf(stderr, "microsynth serve: cannot start the signal thread\n");
		ms_server_free(st.srv);
		ms_ctx_free(ctx);
		return CLI_FAIL;
	}
	serve_print_listening(&so, st.srv);

	rc = ms_server_run(st.srv);
	if (rc)
		fprintf(stderr, "microsynth serve: %s\n", ms_ctx_last_error(ctx));
	pthread_kill(thread, SIGUSR1); /* harmless when the thread already returned */
	pthread_join(thread, NULL);
	ms_server_counts(st.srv, &accepted, NULL, NULL);
	ms_server_free(st.srv);
	ms_ctx_free(ctx);
	printf("connections=%d games_over=%llu errors=%llu\n", accepted, (unsigned long long)st.games_over,
	       (unsigned long long)st.errors);
	return rc ? CLI_FAIL : CLI_OK;
}
