/*
 * The SocketAI server against the official jar (label harness; runs JVMs,
 * so not sanitized):
 *
 *   socketai LANG   ai.socket.SocketAI (the official game side, in
 *                   SocketMatch) plays full matches against CoacAI on an 8x8
 *                   map through our server: two games on one connection, and
 *                   one on a clone()'s connection as tournaments do.
 *   client LANG     rts.MicroRTS in CLIENT launch mode (config file; this jar
 *                   has no -l flag and always opens a game window, so under
 *                   xvfb-run) plays a game against our server.
 *   same LANG       the native WorkerRush behind our server (TCP, and a
 *                   Unix-domain socket through the jar's junixsocket
 *                   SocketAI) plays LightRush to the very end the jar's
 *                   in-process WorkerRush does: same winner, same cycle count.
 *   reference LANG  the jar's own JSONSocketWrapperAI / XMLSocketWrapperAI
 *                   serving WorkerRush and our server serving the native
 *                   WorkerRush (in its --forget mode, which is how the Java
 *                   servers make bots behave: spec A14) get the same
 *                   messages of two games; every reply must be the same bytes.
 *
 * Usage: test_server_java MODE LANG SOCKET_JAR HARNESS_DIR
 * Skips (exit 77, "skipped: ...") without java, the harness or xvfb-run,
 * and fails instead when CI is set.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libwebsockets.h>

#include "tools/kit/kit.h"
#include "microsynth/server.h"
#include "server_testlib.h"

/* The JVMs under test: stdout read here, stderr shown, killed with their children. */
static const proc_io java_io = { .out = PROC_PIPE, .own_group = 1 };
static const char *jar, *harness;
static int lang;

static void skip(const char *why)
{
	if (getenv("CI")) {
		printf("FAIL: %s, and CI is set\n", why);
		exit(1);
	}
	printf("skipped: %s\n", why);
	exit(77);
}

#define CHECK(cond, ...)                                      \
	do {                                                  \
		if (!(cond)) {                                \
			printf("FAIL (line %d): ", __LINE__); \
			printf(__VA_ARGS__);                  \
			printf("\n");                         \
			exit(1);                              \
		}                                             \
	} while (0)

static int exists(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0;
}

static int in_path(const char *prog)
{
	const char *path = getenv("PATH");
	char buf[4096];

	while (path && *path) {
		size_t n = strcspn(path, ":");
		snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, path, prog);
		if (access(buf, X_OK) == 0)
			return 1;
		path += n + (path[n] == ':');
	}
	return 0;
}

static void start_server(running *r, int forget)
{
	ms_server_options o;

	memset(&o, 0, sizeof(o));
	o.version = MS_SERVER_OPTIONS_VERSION;
	o.port = 0;
	o.ws_port = MS_SERVER_NO_PORT;
	o.session = session_options("WorkerRush", MS_SERVER_LANG_AUTO);
	o.session.forget = forget;
	CHECK(running_start(r, &o) == 0, "the server did not start");
}

/* Runs argv to its end (at most `secs`), echoing its stdout, which is kept
 * in `out`. Returns the exit status. */
static int run(char *const argv[], int secs, char *out, size_t size)
{
	pid_t pid;
	int fd, status;
	size_t n = 0;
	char line[4096];

	CHECK(proc_spawn(argv, &java_io, &pid, &fd) == 0, "cannot start %s: %s", argv[0], strerror(errno));
	out[0] = '\0';
	for (;;) {
		int got = srv_fd_line(fd, secs * 1000, line, sizeof(line));
		if (got != 1) {
			CHECK(got == 0, "%s: no end after %d s", argv[0], secs);
			break;
		}
		printf("  | %s\n", line);
		n += (size_t)snprintf(out + n, size - n, "%s\n", line);
		if (n >= size)
			n = size - 1;
	}
	close(fd);
	status = proc_wait(pid, 10000);
	if (status < 0)
		proc_kill(pid);
	return status;
}

static void class_path(char *cp, size_t size, int with_coac)
{
	snprintf(cp, size, "%s:%s/microrts.jar%s%s%s", jar, harness, with_coac ? ":" : "", with_coac ? harness : "",
		 with_coac ? "/lib/bots/Coac.jar" : "");
}

/* ---- SocketAI against CoacAI ------------------------------------------------------ */

static void socketai(void)
{
	running r;
	char cp[8192], port[16], map[4200], out[8192];
	const char *l = lang == MS_SERVER_LANG_XML ? "xml" : "json";
	server_events e;
	int status;

	class_path(cp, sizeof(cp), 1);
	snprintf(map, sizeof(map), "%s/maps/8x8/basesWorkers8x8A.xml", harness);
	start_server(&r, 0);
	snprintf(port, sizeof(port), "%d", ms_server_port(r.srv));
	{
		char *argv[] = { "java", "-Djava.awt.headless=true", "-cp", cp, "ai.microsynth.harness.SocketMatch",
				 "--port", port, "--lang", (char *)l, "--map", map, "--opponent", "ai.coac.CoacAI",
				 "--max-cycles", "3000", "--games", "2", NULL };
		status = run(argv, 600, out, sizeof(out));
	}
	CHECK(status == 0, "SocketMatch exited with %d", status);
	CHECK(strstr(out, "games=2 ") && strstr(out, " crashes=0"), "two games without a crash expected");
	{
		char *argv[] = { "java", "-Djava.awt.headless=true", "-cp", cp, "ai.microsynth.harness.SocketMatch",
				 "--port", port, "--lang", (char *)l, "--map", map, "--opponent", "ai.coac.CoacAI",
				 "--max-cycles", "3000", "--clone", "--seat", "1", "--folder",
				 "tournament_0/AI1readWriteFolder", NULL };
		status = run(argv, 600, out, sizeof(out));
	}
	CHECK(status == 0, "SocketMatch --clone exited with %d", status);
	CHECK(strstr(out, "games=1 ") && strstr(out, " crashes=0"), "a game without a crash expected");
	CHECK(running_wait_closed(&r, 3, 10000), "the server did not see the three connections close");
	e = running_events(&r);
	running_stop(&r);
	printf("server: connections=%d games_over=%d errors=%d\n", e.opened, e.games_over, e.errors);
	CHECK(e.opened == 3, "3 connections expected (one per SocketAI, one for the clone)");
	CHECK(e.games_over == 3, "3 games over expected");
	CHECK(e.errors == 0, "no protocol error expected, got %d (last: %s)", e.errors, e.last_error);
}

/* ---- rts.MicroRTS in CLIENT launch mode --------------------------------------------- */

static void client_mode(void)
{
	running r;
	char cp[8192], conf[256], line[512];
	FILE *f;
	pid_t pid;
	int fd;
	server_events e;

	if (!in_path("xvfb-run"))
		skip("xvfb-run is not installed (this jar's CLIENT mode always opens a game window)");
	class_path(cp, sizeof(cp), 0);
	start_server(&r, 0);
	snprintf(conf, sizeof(conf), "server_client_%d.properties", (int)getpid());
	f = fopen(conf, "w");
	CHECK(f, "cannot write %s", conf);
	fprintf(f, "launch_mode=CLIENT\nserver_address=127.0.0.1\nserver_port=%d\nserialization_type=%d\n"
		   "map_location=%s/maps/8x8/basesWorkers8x8A.xml\nmax_cycles=600\npartially_observable=false\n"
		   "UTT_version=2\nconflict_policy=1\nAI1=ai.abstraction.WorkerRush\nAI2=ai.abstraction.LightRush\n",
		ms_server_port(r.srv), lang, harness);
	fclose(f);
	{
		char *argv[] = { "xvfb-run", "-a", "java", "-cp", cp, "rts.MicroRTS", "-f", conf, NULL };
		CHECK(proc_spawn(argv, &java_io, &pid, &fd) == 0, "cannot start xvfb-run: %s", strerror(errno));
	}
	/* 20 ms per cycle in this mode: 600 cycles take 12 s at most. */
	CHECK(running_wait_games(&r, 1, 120000), "no gameOver from rts.MicroRTS within 120 s");
	while (srv_fd_line(fd, 100, line, sizeof(line)) == 1)
		printf("  | %s\n", line);
	proc_kill(pid); /* the game window keeps that JVM alive */
	close(fd);
	unlink(conf);
	e = running_events(&r);
	running_stop(&r);
	printf("server: connections=%d games_over=%d winner=%d errors=%d\n", e.opened, e.games_over, e.last_winner,
	       e.errors);
	CHECK(e.opened == 1 && e.games_over == 1, "one connection and one game expected");
	CHECK(e.errors == 0, "no protocol error expected, got %d (last: %s)", e.errors, e.last_error);
}

/* ---- the same match as in-process --------------------------------------------------- */

/* "winner=W cycles=C" from a runner's output (its game line), or "". */
static void result_of(const char *out, char *res, size_t size)
{
	const char *w = strstr(out, "winner=");
	size_t n = w ? strcspn(w, "\n") : 0;
	const char *crashed = w ? strstr(w, " crashed=") : NULL;

	if (crashed && (size_t)(crashed - w) < n)
		n = (size_t)(crashed - w);
	snprintf(res, size, "%.*s", (int)n, w ? w : "");
}

static void same_match(void)
{
	static const char *const maps[] = { "8x8/basesWorkers8x8A.xml", "16x16/basesWorkers16x16A.xml" };
	char tools[4200], cp[8192], map[4200], port[16], out[8192], want[128], got[128], sock[128];
	const char *l = lang == MS_SERVER_LANG_XML ? "xml" : "json";
	running r;
	ms_server_options o;
	char *slash;

	snprintf(tools, sizeof(tools), "%s", jar);
	slash = strrchr(tools, '/');
	snprintf(slash ? slash + 1 : tools, sizeof(tools) - (size_t)(slash ? slash + 1 - tools : 0),
		 "microsynth-harness.jar");
	if (!exists(tools))
		skip("microsynth-harness.jar was not built");
	class_path(cp, sizeof(cp), 0);
	snprintf(sock, sizeof(sock), "server_same_%d.sock", (int)getpid());
	memset(&o, 0, sizeof(o));
	o.version = MS_SERVER_OPTIONS_VERSION;
	o.port = 0;
	o.ws_port = MS_SERVER_NO_PORT;
	o.unix_path = sock;
	o.session = session_options("WorkerRush", MS_SERVER_LANG_AUTO);
	CHECK(running_start(&r, &o) == 0, "the server did not start");
	snprintf(port, sizeof(port), "%d", ms_server_port(r.srv));
	for (size_t m = 0; m < sizeof(maps) / sizeof(maps[0]); m++) {
		snprintf(map, sizeof(map), "%s/maps/%s", harness, maps[m]);
		{
			char *argv[] = { "java", "-Djava.awt.headless=true", "-cp", tools, "ai.microsynth.harness.Match",
					 "--harness", (char *)harness, "--bots", "flat", "--map", map, "--p0", "WorkerRush",
					 "--p1", "LightRush", NULL };
			CHECK(run(argv, 600, out, sizeof(out)) == 0, "Match failed");
			result_of(out, want, sizeof(want));
		}
		for (int via_unix = 0; via_unix < 2; via_unix++) {
			char *argv[] = { "java", "-Djava.awt.headless=true", "-cp", cp, "ai.microsynth.harness.SocketMatch",
					 via_unix ? "--unix" : "--port", via_unix ? sock : port, "--lang", (char *)l, "--map", map,
					 "--opponent", "ai.abstraction.LightRush", NULL };
			CHECK(run(argv, 600, out, sizeof(out)) == 0, "SocketMatch failed");
			result_of(out, got, sizeof(got));
			printf("%s: in-process jar '%s', through the %s socket '%s'\n", maps[m], want,
			       via_unix ? "Unix" : "TCP", got);
			CHECK(want[0] && !strcmp(want, got), "the match through the server must end as in-process");
		}
	}
	running_stop(&r);
}

/* ---- replies of the jar's own servers ------------------------------------------------- */

static char *line_copy(srv_client *c, const char *who)
{
	const char *line;
	size_t len;
	char *s;

	CHECK(srv_client_line(c, 60000, &line, &len) == 1, "%s: no reply", who);
	s = malloc(len + 1);
	memcpy(s, line, len);
	s[len] = '\0';
	return s;
}

/* Sends one request to both servers; 1 when the replies are equal. */
static int both(srv_client *ours, srv_client *java, const char *cmd, const char *payload, int *shown)
{
	char *a, *b;
	int same;

	CHECK(srv_client_request(ours, cmd, payload) == 0, "send to our server");
	CHECK(srv_client_request(java, cmd, payload) == 0, "send to the Java server");
	a = line_copy(ours, "our server");
	b = line_copy(java, "Java server");
	same = !strcmp(a, b);
	if (!same && (*shown)++ < 3)
		printf("  differ on '%s':\n    ours %s\n    java %s\n", cmd, a, b);
	free(a);
	free(b);
	return same;
}

static int compare_game(srv_client *ours, srv_client *java, const srv_script *sc, int *n)
{
	int same = 0, shown = 0;

	*n = 0;
	same += both(ours, java, "budget 100 -1", NULL, &shown), (*n)++;
	same += both(ours, java, "utt", sc->utt, &shown), (*n)++;
	/* The Java servers crash on preGameAnalysis without a folder (A5);
	 * tournaments send one. */
	same += both(ours, java, "preGameAnalysis 100  \"tournament_0/AI0readWriteFolder\"", sc->states[0], &shown),
		(*n)++;
	for (int i = 0; i < sc->n; i++)
		same += both(ours, java, "getAction 0", sc->states[i], &shown), (*n)++;
	same += both(ours, java, "gameOver 0", NULL, &shown), (*n)++;
	return same;
}

static void reference(void)
{
	static const char *const maps[] = { "16x16/basesWorkers16x16A.xml", "8x8/basesWorkers8x8A.xml" };
	running mine, remembering;
	srv_client ours, java, ours_mem;
	ms_ctx *ctx;
	char cp[8192], line[256], err[256];
	pid_t pid;
	int fd, port = 0, total = 0, same = 0, same_mem = 0, total_mem = 0;

	class_path(cp, sizeof(cp), 0);
	{
		char *argv[] = { "java", "-Djava.awt.headless=true", "-cp", cp, "ai.microsynth.harness.SocketReference",
				 "--lang", lang == MS_SERVER_LANG_XML ? "xml" : "json", "--ai", "ai.abstraction.WorkerRush",
				 NULL };
		CHECK(proc_spawn(argv, &java_io, &pid, &fd) == 0, "cannot start java: %s", strerror(errno));
	}
	CHECK(srv_fd_line(fd, 60000, line, sizeof(line)) == 1 && sscanf(line, "port=%d", &port) == 1,
	      "the Java reference server did not start");
	start_server(&mine, 1);
	start_server(&remembering, 0);
	CHECK(srv_client_connect(&java, "127.0.0.1", port, 30000, err, sizeof(err)) == 0, "%s", err);
	CHECK(srv_client_connect(&ours, "127.0.0.1", ms_server_port(mine.srv), 5000, err, sizeof(err)) == 0, "%s", err);
	CHECK(srv_client_connect(&ours_mem, "127.0.0.1", ms_server_port(remembering.srv), 5000, err, sizeof(err)) == 0,
	      "%s", err);
	free(line_copy(&java, "Java server"));
	free(line_copy(&ours, "our server"));
	free(line_copy(&ours_mem, "our server"));
	CHECK(ms_ctx_new(&ctx, NULL) == 0, "context");
	for (size_t m = 0; m < sizeof(maps) / sizeof(maps[0]); m++) {
		char path[4200];
		srv_script sc;
		int n, k;
		snprintf(path, sizeof(path), "%s/maps/%s", harness, maps[m]);
		/* The jar's XML server answers each request in two writes with
		 * Nagle on, so every reply waits for a delayed ACK (about 44 ms
		 * here): XML games are kept shorter. */
		CHECK(srv_script_make(ctx, &sc, lang, path, MS_RTS_UTT_FINETUNED, "WorkerRush", "LightRush",
				      lang == MS_SERVER_LANG_XML ? 300 : 1000) == 0,
		      "script: %s", ms_ctx_last_error(ctx));
		k = compare_game(&ours, &java, &sc, &n);
		printf("%s: %d of %d replies identical (forget mode)\n", maps[m], k, n);
		same += k;
		total += n;
		if (lang == MS_SERVER_LANG_XML) {
			srv_script_free(ctx, &sc);
			continue;
		}
		k = compare_game(&ours_mem, &java, &sc, &n);
		printf("%s: %d of %d replies identical with the bot's memory kept (A14: order may differ)\n", maps[m], k,
		       n);
		same_mem += k;
		total_mem += n;
		srv_script_free(ctx, &sc);
	}
	srv_client_close(&ours);
	srv_client_close(&ours_mem);
	srv_client_close(&java);
	proc_kill(pid);
	close(fd);
	running_stop(&mine);
	running_stop(&remembering);
	ms_ctx_free(ctx);
	if (total_mem)
		printf("identical=%d/%d identical_with_memory=%d/%d\n", same, total, same_mem, total_mem);
	else
		printf("identical=%d/%d\n", same, total);
	CHECK(total > 500 && same == total, "every reply must be the Java server's, byte for byte");
}

int main(int argc, char **argv)
{
	char probe[4200];

	if (argc != 5 || (strcmp(argv[2], "json") && strcmp(argv[2], "xml"))) {
		fprintf(stderr, "usage: test_server_java socketai|client|same|reference json|xml SOCKET_JAR HARNESS_DIR\n");
		return 2;
	}
	lang = !strcmp(argv[2], "xml") ? MS_SERVER_LANG_XML : MS_SERVER_LANG_JSON;
	jar = argv[3];
	harness = argv[4];
	signal(SIGPIPE, SIG_IGN);
	lws_set_log_level(LLL_ERR, NULL);
	snprintf(probe, sizeof(probe), "%s/microrts.jar", harness);
	if (!exists(probe))
		skip("no official harness (run tools/setup.sh)");
	if (!exists(jar))
		skip("microsynth-socket.jar was not built (configure with -DMS_JAVA=ON and a JDK)");
	if (!in_path("java"))
		skip("no java in PATH");
	if (!strcmp(argv[1], "socketai"))
		socketai();
	else if (!strcmp(argv[1], "client"))
		client_mode();
	else if (!strcmp(argv[1], "reference"))
		reference();
	else if (!strcmp(argv[1], "same"))
		same_match();
	else
		return 2;
	printf("ok\n");
	return 0;
}
