/*
 * The SocketAI server under load for a bounded time (issue 22): waves of
 * 64 concurrent games on loopback (half JSON, half XML) whose every reply
 * must equal a lone session's, while 16 more clients per wave vanish in the
 * middle of a message (a cut command line, half a state, a cut utt, right
 * after connecting). The server's resident set is read after the first wave
 * and at the end: it must not grow by more than `--rss-slack` KiB.
 *
 *   server_soak FIXTURE_DIR SECONDS [RSS_SLACK_KB]
 *
 * Last line: waves= games= vanished= seconds= rss_first_kb= rss_last_kb=
 * errors=; exit 0 when every reply matched and the RSS held, 1 otherwise.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libwebsockets.h>

#include "tools/kit/kit.h"
#include "microsynth/server.h"
#include "server_testlib.h"

enum { GAMES = 64, VANISH = 16, TIMEOUT_MS = 60000 };

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* VmRSS of this process (the server runs in it), in KiB; -1 if unknown. */
static long rss_kb(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kb = -1;

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "VmRSS:", 6))
			kb = strtol(line + 6, NULL, 10);
	if (f)
		fclose(f);
	return kb;
}

/* A lone session's replies to the whole script (budget, utt, states, gameOver). */
static int solo(ms_ctx *ctx, const srv_script *sc, replies *r)
{
	ms_server_session_options o = session_options("WorkerRush", MS_SERVER_LANG_AUTO);
	ms_server_session *s;

	if (ms_server_session_new(ctx, &s, &o, 0))
		return -1;
	ms_server_session_feed(s, "budget 100 0\nutt\n", 17, replies_emit, r);
	ms_server_session_feed(s, sc->utt, strlen(sc->utt), replies_emit, r);
	ms_server_session_feed(s, "\n", 1, replies_emit, r);
	for (int i = 0; i < sc->n; i++) {
		ms_server_session_feed(s, "getAction 0\n", 12, replies_emit, r);
		ms_server_session_feed(s, sc->states[i], strlen(sc->states[i]), replies_emit, r);
		ms_server_session_feed(s, "\n", 1, replies_emit, r);
	}
	ms_server_session_feed(s, "gameOver 1\n", 11, replies_emit, r);
	ms_server_session_free(s);
	return r->n == sc->n + 3 && r->errors == 0 ? 0 : -1;
}

static int request(srv_client *c, const srv_script *sc, int k)
{
	if (k == 0)
		return srv_client_request(c, "budget 100 0", NULL);
	if (k == 1)
		return srv_client_request(c, "utt", sc->utt);
	if (k < sc->n + 2)
		return srv_client_request(c, "getAction 0", sc->states[k - 2]);
	return srv_client_request(c, "gameOver 1", NULL);
}

static int dial(srv_client *c, running *r)
{
	char err[256];
	const char *line;
	size_t len;

	if (srv_client_connect(c, "127.0.0.1", ms_server_port(r->srv), 5000, err, sizeof(err))) {
		fprintf(stderr, "soak: connect: %s\n", err);
		return -1;
	}
	return srv_client_line(c, TIMEOUT_MS, &line, &len) == 1 ? 0 : -1;
}

/* A client that goes away in the middle of a message, in one of four ways. */
static void vanish(running *r, const srv_script *sc, int how)
{
	srv_client c;
	const char *st = sc->states[how % sc->n];

	if (dial(&c, r))
		return;
	switch (how % 4) {
	case 0:
		srv_client_send(&c, "getAc", 5); /* a cut command line */
		break;
	case 1:
		srv_client_request(&c, "utt", sc->utt);
		srv_client_send(&c, "getAction 0\n", 12);
		srv_client_send(&c, st, strlen(st) / 2); /* half a state */
		break;
	case 2:
		srv_client_send(&c, "utt\n", 4);
		srv_client_send(&c, sc->utt, strlen(sc->utt) / 3); /* a cut table */
		break;
	default:
		break; /* gone right after the welcome */
	}
	srv_client_close(&c);
}

/* One wave: 64 games played to the end beside 16 vanishing clients. */
static int wave(running *r, const srv_script *sc[2], const replies *want[2], int w, long *vanished)
{
	srv_client games[GAMES];
	int rounds = sc[0]->n + 3, bad = 0;

	for (int g = 0; g < GAMES; g++)
		if (dial(&games[g], r))
			return -1;
	for (int k = 0; k < rounds && !bad; k++) {
		for (int g = 0; g < GAMES; g++)
			bad |= request(&games[g], sc[g % 2], k) != 0;
		if (k % (rounds / VANISH + 1) == 1) {
			vanish(r, sc[k % 2], w + k);
			(*vanished)++;
		}
		for (int g = 0; g < GAMES && !bad; g++) {
			const char *line;
			size_t len;
			const char *exp = want[g % 2]->line[k];
			if (srv_client_line(&games[g], TIMEOUT_MS, &line, &len) != 1 || len != strlen(exp) ||
			    memcmp(line, exp, len)) {
				fprintf(stderr, "soak: wave %d game %d request %d: reply differs from a lone session's\n", w,
					g, k);
				bad = 1;
			}
		}
	}
	for (int g = 0; g < GAMES; g++)
		srv_client_close(&games[g]);
	return bad ? -1 : 0;
}

int main(int argc, char **argv)
{
	ms_ctx *ctx = NULL;
	srv_script js, xs;
	replies jr, xr;
	running r;
	ms_server_options o;
	double seconds, t0;
	long slack = argc > 3 ? strtol(argv[3], NULL, 10) : 16384, vanished = 0, rss_first = -1, rss_last;
	int waves = 0, fail = 0;

	if (argc < 3 || (seconds = strtod(argv[2], NULL)) <= 0) {
		fprintf(stderr, "usage: server_soak FIXTURE_DIR SECONDS [RSS_SLACK_KB]\n");
		return 2;
	}
	lws_set_log_level(LLL_ERR, NULL);
	set_fixture_dir(argv[1]);
	memset(&jr, 0, sizeof(jr));
	memset(&xr, 0, sizeof(xr));
	if (ms_ctx_new(&ctx, NULL) ||
	    srv_script_make(ctx, &js, MS_SERVER_LANG_JSON, fixture("server_map8x8.xml"), 2, "WorkerRush", "LightRush",
			    150) ||
	    srv_script_make(ctx, &xs, MS_SERVER_LANG_XML, fixture("server_map8x8.xml"), 2, "WorkerRush", "LightRush",
			    150) ||
	    solo(ctx, &js, &jr) || solo(ctx, &xs, &xr) || xs.n != js.n) {
		fprintf(stderr, "soak: cannot prepare the scripts: %s\n", ctx ? ms_ctx_last_error(ctx) : "no context");
		return 1;
	}
	memset(&o, 0, sizeof(o));
	o.version = MS_SERVER_OPTIONS_VERSION;
	o.port = 0;
	o.ws_port = MS_SERVER_NO_PORT;
	o.session = session_options("WorkerRush", MS_SERVER_LANG_AUTO);
	if (running_start(&r, &o))
		return 1;
	t0 = now();
	{
		const srv_script *sc[2] = { &js, &xs };
		const replies *want[2] = { &jr, &xr };
		do {
			if (wave(&r, sc, want, waves, &vanished)) {
				fail = 1;
				break;
			}
			waves++;
			/* the first wave grows the allocator's pools: measure after it */
			if (waves == 1 && running_wait_closed(&r, GAMES + (int)vanished, 30000))
				rss_first = rss_kb();
		} while (now() - t0 < seconds);
	}
	if (!running_wait_closed(&r, waves * GAMES + (int)vanished, 30000)) {
		fprintf(stderr, "soak: the server did not see every connection close\n");
		fail = 1;
	}
	rss_last = rss_kb();
	{
		server_events e = running_events(&r);
		printf("waves=%d games=%ld vanished=%ld seconds=%.1f rss_first_kb=%ld rss_last_kb=%ld errors=%d\n", waves,
		       (long)waves * GAMES, vanished, now() - t0, rss_first, rss_last, e.errors);
		if (e.games_over != waves * GAMES) {
			fprintf(stderr, "soak: %d games over, %d expected\n", e.games_over, waves * GAMES);
			fail = 1;
		}
	}
	if (rss_first < 0 || rss_last - rss_first > slack) {
		fprintf(stderr, "soak: resident set grew from %ld to %ld KiB (slack %ld)\n", rss_first, rss_last, slack);
		fail = 1;
	}
	running_stop(&r);
	replies_clear(&jr);
	replies_clear(&xr);
	srv_script_free(ctx, &js);
	srv_script_free(ctx, &xs);
	ms_ctx_free(ctx);
	return fail;
}
