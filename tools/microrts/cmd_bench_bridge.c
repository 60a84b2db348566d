/*
 * microsynth bench bridge, socket half: the round trip of one getAction
 * request (command line and state out, reply line back, over loopback TCP)
 * with our server and with the jar's own JSONSocketWrapperAI (or
 * XMLSocketWrapperAI) serving the same bot, on the same messages, in one
 * run. The messages are the states player 0 sees in a native match, so both
 * servers parse, decide and answer real game states; the replies are also
 * compared byte for byte.
 */
#include <errno.h>
#include <libgen.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libwebsockets.h>

#include "tools/kit/kit.h"
#include "microsynth/server.h"
#include "core/pool.h"
#include "cli.h"
#include "edition.h"

typedef struct bb_opts {
	char map[4096];
	const char *bot;
	const char *opponent;
	int lang;
	int cycles;
	int repeat;
	int warmup;
	int native_only;
	int forget;
} bb_opts;

typedef struct bb_run {
	double *us;      /* round trips of the timed passes */
	int n;
	char **replies;  /* replies of the last pass */
} bb_run;

/* The reference JVMs: stdout read line by line, stderr shown, killed with their children. */
static const proc_io java_io = { .out = PROC_PIPE, .own_group = 1 };

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double percentile(double *v, int n, double p)
{
	int i;

	if (n <= 0)
		return 0;
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	i = (int)(p * (n - 1) + 0.5);
	return v[i];
}

static void run_free(bb_run *r, int n)
{
	if (r->replies)
		for (int i = 0; i < n; i++)
			free(r->replies[i]);
	free(r->replies);
	free(r->us);
	memset(r, 0, sizeof(*r));
}

/* Expects one line; a copy in *out when `out` is given. */
static int expect_line(srv_client *c, const char *who, char **out)
{
	const char *line;
	size_t len;

	if (srv_client_line(c, 60000, &line, &len) != 1) {
		fprintf(stderr, "microsynth bench bridge: %s: no reply\n", who);
		return -1;
	}
	if (out) {
		*out = malloc(len + 1);
		if (!*out)
			return -1;
		memcpy(*out, line, len);
		(*out)[len] = '\0';
	}
	return 0;
}

/* One game's messages on an open connection: budget, utt, getAction per
 * state, gameOver. Times every getAction when `r` is given. */
static int pass(srv_client *c, const srv_script *sc, const char *who, bb_run *r, int keep)
{
	if (srv_client_request(c, "budget 100 0", NULL) || expect_line(c, who, NULL) ||
	    srv_client_request(c, "utt", sc->utt) || expect_line(c, who, NULL))
		return -1;
	for (int i = 0; i < sc->n; i++) {
		double t0 = cli_now();
		char *reply = NULL;
		if (srv_client_request(c, "getAction 0", sc->states[i]) || expect_line(c, who, keep ? &reply : NULL))
			return -1;
		if (r)
			r->us[r->n++] = (cli_now() - t0) * 1e6;
		if (keep) {
			free(r->replies[i]);
			r->replies[i] = reply;
		}
	}
	if (srv_client_request(c, "gameOver 0", NULL) || expect_line(c, who, NULL))
		return -1;
	return 0;
}

static int measure(const char *host, int port, const srv_script *sc, const bb_opts *o, const char *who, bb_run *r)
{
	srv_client c;
	char err[256];
	int rc = 0;

	memset(r, 0, sizeof(*r));
	r->us = calloc((size_t)sc->n * (size_t)o->repeat + 1, sizeof(double));
	r->replies = calloc((size_t)sc->n + 1, sizeof(char *));
	if (!r->us || !r->replies)
		return -1;
	if (srv_client_connect(&c, host, port, 30000, err, sizeof(err))) {
		fprintf(stderr, "microsynth bench bridge: %s: %s\n", who, err);
		return -1;
	}
	if (expect_line(&c, who, NULL)) /* welcome */
		rc = -1;
	for (int w = 0; w < o->warmup && !rc; w++)
		rc = pass(&c, sc, who, NULL, 0);
	for (int k = 0; k < o->repeat && !rc; k++)
		rc = pass(&c, sc, who, r, k == o->repeat - 1);
	srv_client_close(&c);
	return rc;
}

static void *serve(void *arg)
{
	ms_server_run(arg);
	return NULL;
}

/* Our server in this process, on a free loopback port. */
static int run_native(const srv_script *sc, const bb_opts *o, bb_run *r)
{
	ms_server_options so;
	ms_server *srv = NULL;
	ms_ctx *ctx = NULL;
	pthread_t t;
	int rc;

	memset(&so, 0, sizeof(so));
	so.version = MS_SERVER_OPTIONS_VERSION;
	so.port = 0;
	so.ws_port = MS_SERVER_NO_PORT;
	so.session.version = MS_SERVER_SESSION_OPTIONS_VERSION;
	so.session.bot = o->bot;
	so.session.language = o->lang;
	so.session.forget = o->forget;
	so.session.edition = edition_of_harness(NULL); /* the Java server it is compared with runs the harness's bots */
	lws_set_log_level(LLL_ERR | LLL_WARN, NULL);
	if (ms_ctx_new(&ctx, NULL) || ms_server_new(ctx, &srv, &so)) {
		fprintf(stderr, "microsynth bench bridge: %s\n", ctx ? ms_ctx_last_error(ctx) : "out of memory");
		ms_ctx_free(ctx);
		return -1;
	}
	if (ms_thread_start(NULL, &t, serve, srv, NULL)) {
		ms_server_free(srv);
		ms_ctx_free(ctx);
		return -1;
	}
	rc = measure("127.0.0.1", ms_server_port(srv), sc, o, "native server", r);
	ms_server_stop(srv);
	pthread_join(t, NULL);
	ms_server_free(srv);
	ms_ctx_free(ctx);
	return rc;
}

static const char *java_class_of(const char *bot)
{
	static const char *const names[][2] = { { "WorkerRush", "ai.abstraction.WorkerRush" },
						{ "LightRush", "ai.abstraction.LightRush" },
						{ "HeavyRush", "ai.abstraction.HeavyRush" },
						{ "RangedRush", "ai.abstraction.RangedRush" },
						{ "PassiveAI", "ai.PassiveAI" } };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(bot, names[i][0]))
			return names[i][1];
	return NULL;
}

/* The jar's server (SocketReference in microsynth-socket.jar) in a JVM. */
static int run_java(const srv_script *sc, const bb_opts *o, bb_run *r)
{
	char dir[4096], tools[4200], cp[16384], line[256], jdir[4200];
	const char *jclass = java_class_of(o->bot);
	char *argv[12];
	pid_t pid = -1;
	int fd = -1, port = 0, rc, n = 0;

	if (!jclass) {
		fprintf(stderr, "microsynth bench bridge: no Java class for bot %s (use a rush or PassiveAI)\n", o->bot);
		return -1;
	}
	if (cli_harness_dir(dir, sizeof(dir)) || cli_find_tools_jar(tools, sizeof(tools))) {
		fprintf(stderr, "microsynth bench bridge: needs the harness (tools/setup.sh) and the Java runners "
				"(build with -DMS_JAVA=ON), or --native-only\n");
		return -1;
	}
	snprintf(jdir, sizeof(jdir), "%s", tools);
	snprintf(cp, sizeof(cp), "%s/microsynth-socket.jar:%s:%s/microrts.jar", dirname(jdir), tools, dir);
	argv[n++] = "java";
	argv[n++] = "-cp";
	argv[n++] = cp;
	argv[n++] = "ai.microsynth.harness.SocketReference";
	argv[n++] = "--lang";
	argv[n++] = o->lang == MS_SERVER_LANG_XML ? "xml" : "json";
	argv[n++] = "--ai";
	argv[n++] = (char *)jclass;
	argv[n] = NULL;
	if (proc_spawn(argv, &java_io, &pid, &fd)) {
		fprintf(stderr, "microsynth bench bridge: cannot start java: %s\n", strerror(errno));
		return -1;
	}
	if (srv_fd_line(fd, 60000, line, sizeof(line)) != 1 || sscanf(line, "port=%d", &port) != 1) {
		fprintf(stderr, "microsynth bench bridge: the Java reference server did not start\n");
		proc_kill(pid);
		close(fd);
		return -1;
	}
	rc = measure("127.0.0.1", port, sc, o, "Java server", r);
	proc_kill(pid);
	close(fd);
	return rc;
}

/*
 * The JNI half: java/.../bench/JniBench in its own JVM (microsynth.jar, the
 * harness), its report relayed; its last line (overhead and decision time
 * through JNI) is kept for the summary. 0 when it ran.
 */
static int run_jni(const bb_opts *o, char *summary, size_t size)
{
	char dir[4096], tools[4200], jdir[4200], cp[16384], line[1024];
	char *argv[8];
	pid_t pid;
	int fd, n = 0, got = 0;

	if (cli_harness_dir(dir, sizeof(dir)) || cli_find_tools_jar(tools, sizeof(tools)))
		return -1;
	snprintf(jdir, sizeof(jdir), "%s", tools);
	snprintf(cp, sizeof(cp), "%s/microsynth-jni-tools.jar:%s/microrts.jar:%s/microsynth.jar", dirname(jdir), dir,
		 jdir);
	argv[n++] = "java";
	argv[n++] = "-cp";
	argv[n++] = cp;
	argv[n++] = "ai.microsynth.bench.JniBench";
	argv[n++] = "--bot";
	argv[n++] = (char *)o->bot;
	argv[n] = NULL;
	printf("bench bridge (JNI): %s through ai.microsynth.MicrosynthAI.getAction\n", o->bot);
	fflush(stdout);
	if (proc_spawn(argv, &java_io, &pid, &fd)) {
		fprintf(stderr, "microsynth bench bridge: cannot start java: %s\n", strerror(errno));
		return -1;
	}
	while (srv_fd_line(fd, 600000, line, sizeof(line)) == 1) {
		printf("  %s\n", line);
		if (strstr(line, "overhead_median_us_16=")) {
			snprintf(summary, size, "%s", line);
			got = 1;
		}
	}
	close(fd);
	if (proc_wait(pid, 10000) != 0 || !got) {
		fprintf(stderr, "microsynth bench bridge: JniBench failed (build microsynth.jar with -DMS_JAVA=ON)\n");
		return -1;
	}
	return 0;
}

static void usage_line(FILE *out)
{
	fprintf(out, "       microsynth bench bridge [--map MAP] [--bot NAME] [--opponent NAME] [--lang json|xml]\n"
		     "                               [--cycles N] [--repeat N] [--warmup N] [--native-only]\n"
		     "                               [--remember] [--no-jni]\n"
		     "Socket round trip of getAction, our server vs the jar's JSON/XML server on the\n"
		     "same messages; then (unless --no-jni or --native-only) getAction through the\n"
		     "JNI drop-in bot (JniBench: overhead median on 16x16, decision p99 on 64x64).\n"
		     "Last line: the socket figures, then the JNI figures, as key=value pairs.\n");
}

int cmd_bench_bridge(int argc, char **argv)
{
	bb_opts o;
	srv_script sc;
	bb_run nat, jav;
	ms_ctx *ctx = NULL;
	const char *map = "16x16/basesWorkers16x16A.xml";
	double nm, np, jm = 0, jp = 0;
	int rc, same = 0, no_jni = 0;
	char jni[1024] = "";
	long v;

	memset(&o, 0, sizeof(o));
	memset(&nat, 0, sizeof(nat));
	memset(&jav, 0, sizeof(jav));
	o.bot = "WorkerRush";
	o.opponent = "LightRush";
	o.lang = MS_SERVER_LANG_JSON;
	o.cycles = 500;
	o.repeat = 3;
	o.warmup = 2;
	o.forget = 1; /* decide as behind the Java server, so the replies can be compared */
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "--native-only")) {
			o.native_only = 1;
			continue;
		}
		if (!strcmp(a, "--remember")) {
			o.forget = 0;
			continue;
		}
		if (!strcmp(a, "--no-jni")) {
			no_jni = 1;
			continue;
		}
		if (!val) {
			usage_line(stderr);
			return cli_usage_error("bench", "%s needs a value", a);
		}
		i++;
		if (!strcmp(a, "--map")) {
			map = val;
		} else if (!strcmp(a, "--bot")) {
			o.bot = val;
		} else if (!strcmp(a, "--opponent")) {
			o.opponent = val;
		} else if (!strcmp(a, "--lang")) {
			if (strcmp(val, "json") && strcmp(val, "xml"))
				return cli_usage_error("bench", "--lang must be json or xml");
			o.lang = !strcmp(val, "xml") ? MS_SERVER_LANG_XML : MS_SERVER_LANG_JSON;
		} else if (!strcmp(a, "--cycles") || !strcmp(a, "--repeat") || !strcmp(a, "--warmup")) {
			if (cli_parse_int("bench", a, val, !strcmp(a, "--warmup") ? 0 : 1, 1000000, &v))
				return CLI_USAGE;
			if (!strcmp(a, "--cycles"))
				o.cycles = (int)v;
			else if (!strcmp(a, "--repeat"))
				o.repeat = (int)v;
			else
				o.warmup = (int)v;
		} else {
			usage_line(stderr);
			return cli_usage_error("bench", "unknown bridge option '%s'", a);
		}
	}
	if (cli_resolve_map(map, o.map, sizeof(o.map)))
		return cli_usage_error("bench", "map %s not found (as a path, or in the harness cache)", map);
	if (ms_ctx_new(&ctx, NULL))
		return CLI_FAIL;
	if (srv_script_make(ctx, &sc, o.lang, o.map, MS_RTS_UTT_FINETUNED, o.bot, o.opponent, o.cycles)) {
		fprintf(stderr, "microsynth bench bridge: %s\n", ms_ctx_last_error(ctx));
		ms_ctx_free(ctx);
		return CLI_USAGE;
	}
	printf("bench bridge (socket): map %s, %d getAction messages (native %s vs %s), %s, %d warm-up + %d timed "
	       "passes per server\n",
	       map, sc.n, o.bot, o.opponent, o.lang == MS_SERVER_LANG_XML ? "XML" : "JSON", o.warmup, o.repeat);
	fflush(stdout);
	rc = run_native(&sc, &o, &nat);
	if (!rc && !o.native_only)
		rc = run_java(&sc, &o, &jav);
	if (rc) {
		run_free(&nat, sc.n);
		run_free(&jav, sc.n);
		srv_script_free(ctx, &sc);
		ms_ctx_free(ctx);
		return CLI_FAIL;
	}
	for (int i = 0; i < sc.n && !o.native_only; i++) {
		int eq = nat.replies[i] && jav.replies[i] && !strcmp(nat.replies[i], jav.replies[i]);
		if (!eq && sc.n - same > 0 && i - same < 3) /* the first few differences, for the record */
			fprintf(stderr, "reply %d differs:\n  native %s\n  java   %s\n", i, nat.replies[i] ? nat.replies[i] : "-",
				jav.replies[i] ? jav.replies[i] : "-");
		same += eq;
	}
	nm = percentile(nat.us, nat.n, 0.5);
	np = percentile(nat.us, nat.n, 0.99);
	printf("%-8s %12s %12s\n", "server", "median_us", "p99_us");
	printf("%-8s %12.1f %12.1f\n", "native", nm, np);
	if (!o.native_only) {
		jm = percentile(jav.us, jav.n, 0.5);
		jp = percentile(jav.us, jav.n, 0.99);
		printf("%-8s %12.1f %12.1f\n", "java", jm, jp);
		printf("identical replies: %d of %d\n", same, sc.n);
		if (!no_jni && run_jni(&o, jni, sizeof(jni)))
			rc = CLI_FAIL;
		printf("socket_native_median_us=%.1f socket_native_p99_us=%.1f socket_java_median_us=%.1f "
		       "socket_java_p99_us=%.1f socket_ratio=%.2f identical=%d/%d%s%s\n",
		       nm, np, jm, jp, nm > 0 ? jm / nm : 0, same, sc.n, jni[0] ? " " : "", jni);
	} else {
		printf("socket_native_median_us=%.1f socket_native_p99_us=%.1f\n", nm, np);
	}
	run_free(&nat, sc.n);
	run_free(&jav, sc.n);
	srv_script_free(ctx, &sc);
	ms_ctx_free(ctx);
	return rc ? CLI_FAIL : CLI_OK;
}
