/* microsynth catan: replay catanatron recordings, play games between agents,
 * measure playout speed (spec/catan.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "microsynth/catan.h"
#include "cli.h"
#include "microsynth/buf.h"
#include "core/hash.h"
#include "core/pool.h"
#include "kit/proc.h"

#define CMD "catan"

void cmd_catan_usage(FILE *out)
{
	fprintf(out, "Usage: microsynth catan replay FILE|DIR...\n"
		     "       microsynth catan play [--board tc2|random|FILE] [--p0 AGENT ... --p3 AGENT] [--players N]\n"
		     "                             [--games N] [--first random|fixed] [--seed S] [--threads T]\n"
		     "                             [--rules thesis|catanatron]\n"
		     "       microsynth catan bench [--games N] [--py-games M] [--seed S]\n"
		     "       microsynth catan serve [--agent AGENT] [--seed S]   (for tools/catan_bridge.py)\n"
		     "       microsynth catan jsettlers [--agent AGENT] [--seed S]   (for tools/catan_jsettlers.py)\n"
		     "  replay: replays catanatron 3.2.1 recordings (*.jsonl.gz): at every step the legal set and\n"
		     "          the state digest must equal the recording. Last line:\n"
		     "          games=G steps=S divergences=D legal_mismatches=L failed=F; with several files,\n"
		     "          one line per file before it. Exit 0 if all replay equal, 1 if any diverges, 2 if\n"
		     "          any cannot be read (F counts them). The header's rules (vps_to_win,\n"
		     "          discard_limit, turns_limit) are honoured; a bad one is refused by name.\n"
		     "  play:   games between agents (random, simple[:-port][:-yop][:-army][:-knight],\n"
		     "          mcts:N[:mean][:all][:onehalf], uct:N[:c][:all][:onehalf]); defaults: tc2 board,\n"
		     "          4 x simple, 100 games, fixed seats, thesis rules. mcts ranks children by Q sum (the\n"
		     "          thesis's runs), :mean by mean Q; :all turns the tree's pre-selection off; :onehalf\n"
		     "          gives a discard node one random half instead of 100 sampled ones.\n"
		     "          Prints the thesis's metrics per player; last line games=N wins_0=... wins_3=...\n"
		     "  bench:  random playouts (whole 4-player games, catanatron rules) per second, ours and\n"
		     "          catanatron 3.2.1's (from the venv tools/setup.sh installs) in the same run.\n");
}

static void print_line(void *ud, const char *line)
{
	(void)ud;
	printf("%s\n", line);
}

static int cmd_replay_files(int argc, char **argv)
{
	char **files = NULL;
	size_t n = 0;
	ms_ctx *ctx = NULL;
	ms_catan_replay_stats st = { 0, 0, 0, 0 };
	long failed = 0, diverged = 0;
	int rc = CLI_OK;
	if (argc < 3)
		return cli_usage_error(CMD, "replay needs recording files or directories");
	if (cli_collect_files(&files, &n, argc, argv, 2, ".jsonl.gz", ".jsonl") || n == 0)
		return cli_usage_error(CMD, "replay: no recordings found");
	if (ms_ctx_new(&ctx, NULL))
		rc = CLI_FAIL;
	/* every file is replayed whatever the others did; with several, one line each */
	for (size_t i = 0; rc == CLI_OK && i < n; i++) {
		ms_catan_replay_stats one = { 0, 0, 0, 0 };
		if (ms_catan_replay_file(ctx, files[i], &one, print_line, NULL) < 0) {
			fprintf(stderr, "microsynth catan: %s\n", ms_ctx_last_error(ctx));
			failed++;
			if (n > 1)
				printf("%s: unreadable\n", files[i]);
		} else if (n > 1) {
			printf("%s: steps=%ld divergences=%ld legal_mismatches=%ld\n", files[i], one.steps,
			       one.divergences, one.legal_mismatches);
		}
		diverged += one.divergences || one.legal_mismatches;
		st.games += one.games, st.steps += one.steps;
		st.divergences += one.divergences, st.legal_mismatches += one.legal_mismatches;
	}
	for (size_t i = 0; i < n; i++)
		free(files[i]);
	free(files);
	ms_ctx_free(ctx);
	printf("games=%ld steps=%ld divergences=%ld legal_mismatches=%ld failed=%ld\n", st.games, st.steps,
	       st.divergences, st.legal_mismatches, failed);
	if (rc == CLI_OK && failed)
		rc = CLI_USAGE;
	else if (rc == CLI_OK && diverged)
		rc = CLI_FAIL;
	return rc;
}

typedef struct play_args {
	const char *board, *agents[MS_CATAN_MAX_PLAYERS], *rules;
	long games, threads, players;
	uint64_t seed;
	int first_random;
} play_args;

/* What one game leaves: its result, the first agent's seat, the agents' search counters. */
typedef struct game_out {
	ms_catan_result r;
	int first;
	long searches, nodes;
} game_out;

typedef struct play_job {
	const play_args *a;
	const ms_catan_board *board; /* NULL: a random board per game */
	ms_catan_rules rules;
	game_out *games;
} play_job;

/* The seeds of a game and its agents: one SplitMix64 step from x. */
static uint64_t mix(uint64_t x)
{
	return ms_splitmix64_mix(x + MS_SPLITMIX_GAMMA);
}

/* One game (a job of the pool): agent i sits at seat (i - first) mod n; everything seeded from (seed, game). */
static int play_one(void *ud, ms_ctx *ctx, long g, int worker)
{
	play_job *j = ud;
	game_out *out = &j->games[g];
	(void)worker;
	const play_args *a = j->a;
	int n = (int)a->players, rc = MS_OK;
	uint64_t base = mix(a->seed * 1000003u + (uint64_t)g);
	int first = a->first_random ? (int)(mix(base ^ 1) % (uint64_t)n) : 0;
	ms_catan_agent *seats[MS_CATAN_MAX_PLAYERS] = { 0 };
	ms_catan_board *own = NULL;
	const ms_catan_board *b = j->board;
	if (!b && (rc = ms_catan_board_random(ctx, &own, mix(base ^ 2))) == MS_OK)
		b = own;
	for (int i = 0; rc == MS_OK && i < n; i++)
		rc = ms_catan_agent_new(ctx, &seats[((i - first) % n + n) % n], a->agents[i], mix(base ^ (uint64_t)(10 + i)));
	ms_catan_result r;
	if (rc == MS_OK)
		rc = ms_catan_play(ctx, b, &j->rules, n, seats, mix(base ^ 3), &r);
	for (int i = 0; i < n; i++) {
		long s1 = 0, n1 = 0;
		if (seats[i])
			ms_catan_agent_counters(seats[i], &s1, &n1);
		out->searches += s1, out->nodes += n1;
		ms_catan_agent_free(seats[i]);
	}
	ms_catan_board_free(own);
	if (rc < 0)
		return ms_ctx_error(ctx, rc, "game %ld: %s", g, ms_ctx_last_error(ctx));
	out->r = r;
	out->first = first;
	return MS_OK;
}

/* The thesis's metrics per player (agent --pI, whatever its seat). */
static void print_metrics(const play_job *j)
{
	const play_args *a = j->a;
	int n = (int)a->players;
	printf("player agent            V%%     t_win   points  sigma  roads  settl  cities knights LR%%    LA%%\n");
	for (int i = 0; i < n; i++) {
		double wins = 0, tw = 0, pts = 0, pts2 = 0, R = 0, S = 0, C = 0, K = 0, LR = 0, LA = 0;
		for (long g = 0; g < a->games; g++) {
			const ms_catan_result *r = &j->games[g].r;
			int seat = ((i - j->games[g].first) % n + n) % n;
			if (r->winner == seat)
				wins++, tw += r->turns;
			pts += r->vp[seat], pts2 += (double)r->vp[seat] * r->vp[seat];
			R += r->roads[seat], S += r->settlements[seat], C += r->cities[seat], K += r->knights[seat];
			LR += r->longest_road[seat], LA += r->largest_army[seat];
		}
		double G = (double)a->games, mean = pts / G, var = pts2 / G - mean * mean;
		printf("p%d     %-16s %6.2f %7.2f %7.2f %6.2f %6.2f %6.2f %6.2f %7.2f %6.2f %6.2f\n", i, a->agents[i],
		       100 * wins / G, wins ? tw / wins : 0.0, mean, sqrt(var > 0 ? var : 0), R / G, S / G, C / G, K / G,
		       100 * LR / G, 100 * LA / G);
	}
}

static int parse_play(int argc, char **argv, play_args *a)
{
	long v;
	for (int i = 2; i < argc; i++) {
		const char *o = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
		if (!val)
			return cli_usage_error(CMD, "option '%s' needs a value", o);
		i++;
		if (!strcmp(o, "--board"))
			a->board = val;
		else if (!strcmp(o, "--rules"))
			a->rules = val;
		else if (strlen(o) == 4 && !strncmp(o, "--p", 3) && o[3] >= '0' && o[3] <= '3')
			a->agents[o[3] - '0'] = val;
		else if (!strcmp(o, "--first")) {
			if (strcmp(val, "random") && strcmp(val, "fixed"))
				return cli_usage_error(CMD, "--first is random or fixed, not '%s'", val);
			a->first_random = !strcmp(val, "random");
		} else if (!strcmp(o, "--games")) {
			if (cli_parse_int(CMD, o, val, 1, 100000000, &a->games))
				return CLI_USAGE;
		} else if (!strcmp(o, "--threads")) {
			if (cli_parse_int(CMD, o, val, 1, 256, &a->threads))
				return CLI_USAGE;
		} else if (!strcmp(o, "--players")) {
			if (cli_parse_int(CMD, o, val, 2, 4, &a->players))
				return CLI_USAGE;
		} else if (!strcmp(o, "--seed")) {
			if (cli_parse_int(CMD, o, val, 0, 0x7fffffffL, &v))
				return CLI_USAGE;
			a->seed = (uint64_t)v;
		} else {
			return cli_usage_error(CMD, "unknown option '%s'", o);
		}
	}
	return CLI_OK;
}

/* --board: tc2, random, or a file holding a tile table (JSON) or a BOARDLAYOUT message. */
static int load_board(ms_ctx *ctx, const char *name, ms_catan_board **b)
{
	*b = NULL;
	if (!strcmp(name, "tc2"))
		return ms_catan_board_tc2(ctx, b);
	if (!strcmp(name, "random"))
		return MS_OK;
	char *text;
	size_t len, i = 0;
	int rc;
	if (!cli_is_file(name))
		return ms_ctx_error(ctx, MS_EIO, "board '%s': no such file (tc2, random or a file)", name);
	if ((rc = ms_read_text_file(ctx, &text, &len, name, "board")) < 0)
		return rc;
	while (i < len && (text[i] == ' ' || text[i] == '\n' || text[i] == '\r' || text[i] == '\t'))
		i++;
	if (i < len && text[i] == '{')
		rc = ms_catan_board_from_json(ctx, b, text, len);
	else
		rc = ms_catan_board_from_layout(ctx, b, text, len);
	ms_ctx_mfree(ctx, text);
	return rc;
}

static int cmd_play_games(int argc, char **argv)
{
	play_args a;
	play_job j;
	ms_ctx *ctx = NULL;
	ms_catan_board *board = NULL;
	int rc;
	memset(&a, 0, sizeof a);
	a.board = "tc2", a.rules = "thesis", a.games = 100, a.threads = 1, a.players = 4, a.seed = 1;
	if ((rc = parse_play(argc, argv, &a)))
		return rc;
	memset(&j, 0, sizeof j);
	j.a = &a;
	for (int i = (int)a.players; i < MS_CATAN_MAX_PLAYERS; i++)
		if (a.agents[i])
			return cli_usage_error(CMD, "--p%d given, but --players %ld seats only --p0..--p%ld", i, a.players,
					       a.players - 1);
	int profile = ms_catan_profile_by_name(a.rules);
	if (profile < 0)
		return cli_usage_error(CMD, "--rules is thesis or catanatron, not '%s'", a.rules);
	ms_catan_rules_profile(&j.rules, profile);
	if (ms_ctx_new(&ctx, NULL))
		return CLI_FAIL;
	for (int i = 0; i < a.players; i++) {
		ms_catan_agent *probe;
		if (!a.agents[i])
			a.agents[i] = "simple";
		if (ms_catan_agent_new(ctx, &probe, a.agents[i], 0) < 0) {
			rc = cli_usage_error(CMD, "--p%d: %s", i, ms_ctx_last_error(ctx));
			ms_ctx_free(ctx);
			return rc;
		}
		ms_catan_agent_free(probe);
	}
	if (load_board(ctx, a.board, &board) < 0) {
		rc = cli_usage_error(CMD, "%s", ms_ctx_last_error(ctx));
		ms_ctx_free(ctx);
		return rc;
	}
	j.board = board;
	double t0 = cli_now();
	if (!(j.games = ms_ctx_calloc(ctx, (size_t)a.games, sizeof *j.games)) ||
	    ms_pool_for(ctx, a.games, (int)a.threads, play_one, &j, NULL) < 0) {
		fprintf(stderr, "microsynth catan: %s\n", ms_ctx_last_error(ctx));
		rc = CLI_FAIL;
	} else {
		double secs = cli_now() - t0;
		long searches = 0, nodes = 0;
		for (long g = 0; g < a.games; g++)
			searches += j.games[g].searches, nodes += j.games[g].nodes;
		print_metrics(&j);
		printf("seconds=%.2f searches=%ld nodes=%ld s_per_search=%.3f\n", secs, searches, nodes,
		       searches ? secs * a.threads / searches : 0.0);
		printf("games=%ld", a.games);
		for (int i = 0; i < a.players; i++) {
			long w = 0;
			for (long g = 0; g < a.games; g++)
				w += j.games[g].r.winner ==
				     ((i - j.games[g].first) % (int)a.players + (int)a.players) % (int)a.players;
			printf(" wins_%d=%ld", i, w);
		}
		printf("\n");
	}
	ms_ctx_mfree(ctx, j.games);
	ms_catan_board_free(board);
	ms_ctx_free(ctx);
	return rc;
}

/* The Python side of 'catan bench': catanatron's own game loop with its
 * RandomPlayer, timed in the same run. */
static const char bench_py[] =
	"import sys, time\n"
	"from catanatron import Color, Game, RandomPlayer\n"
	"n, seed = int(sys.argv[1]), int(sys.argv[2])\n"
	"steps = 0\n"
	"t0 = time.perf_counter()\n"
	"for g in range(n):\n"
	"    game = Game([RandomPlayer(c) for c in (Color.RED, Color.BLUE, Color.ORANGE, Color.WHITE)], seed=seed + g)\n"
	"    game.play()\n"
	"    steps += len(game.state.actions)\n"
	"print('games=%d steps=%d seconds=%.6f' % (n, steps, time.perf_counter() - t0))\n";

/* Runs the catanatron side; 0 with its figures, -1 if unavailable. */
static int bench_python(long games, long seed, long *steps, double *secs)
{
	const char *venv = getenv("MICROSYNTH_CATANATRON"), *home = getenv("HOME");
	char py[1024], script[] = "/tmp/microsynth-catan-bench-XXXXXX";
	long g = 0;
	if (venv && *venv)
		snprintf(py, sizeof py, "%s/bin/python", venv);
	else
		snprintf(py, sizeof py, "%s/.cache/microsynth/catanatron-3.2.1/bin/python", home ? home : "");
	if (!cli_is_file(py))
		return -1;
	int fd = mkstemp(script);
	if (fd < 0)
		return -1;
	FILE *f = fdopen(fd, "w");
	if (!f)
		return -1;
	fputs(bench_py, f);
	fclose(f);
	char ngames[24], nseed[24];
	snprintf(ngames, sizeof ngames, "%ld", games);
	snprintf(nseed, sizeof nseed, "%ld", seed);
	char *argv[] = { py, script, ngames, nseed, NULL };
	const proc_io io = { .out = PROC_PIPE };
	pid_t pid;
	int out, ok = 0;
	if (!proc_spawn(argv, &io, &pid, &out)) {
		FILE *p = fdopen(out, "r");
		ok = p && fscanf(p, "games=%ld steps=%ld seconds=%lf", &g, steps, secs) == 3 && g == games;
		if (p)
			fclose(p);
		else
			close(out);
		ok = proc_wait(pid, -1) == 0 && ok;
	}
	remove(script);
	return ok ? 0 : -1;
}

/* Ours: random legal actions under the catanatron profile, random boards, 4 seats. */
static int bench_native(ms_ctx *ctx, long games, long seed, long *steps, double *secs)
{
	ms_catan_rules rules;
	ms_catan_agent *ag[4] = { 0 };
	int rc = MS_OK;
	ms_catan_rules_profile(&rules, MS_CATAN_PROFILE_CATANATRON);
	*steps = 0;
	double t0 = cli_now();
	for (long g = 0; rc == MS_OK && g < games; g++) {
		ms_catan_board *b = NULL;
		ms_catan_result r;
		if ((rc = ms_catan_board_random(ctx, &b, (uint64_t)(seed + g))) < 0)
			break;
		for (int i = 0; rc == MS_OK && i < 4; i++)
			rc = ms_catan_agent_new(ctx, &ag[i], "random", mix((uint64_t)(seed + g) * 8 + (uint64_t)i));
		if (rc == MS_OK && (rc = ms_catan_play(ctx, b, &rules, 4, ag, mix((uint64_t)(seed + g)), &r)) == MS_OK)
			*steps += r.steps;
		for (int i = 0; i < 4; i++)
			ms_catan_agent_free(ag[i]), ag[i] = NULL;
		ms_catan_board_free(b);
	}
	*secs = cli_now() - t0;
	return rc;
}

static int cmd_bench_games(int argc, char **argv)
{
	long games = 2000, py_games = 50, seed = 1, steps = 0, py_steps = 0;
	double secs = 0, py_secs = 0;
	ms_ctx *ctx = NULL;
	for (int i = 2; i < argc; i += 2) {
		long *dst = !strcmp(argv[i], "--games") ? &games : !strcmp(argv[i], "--py-games") ? &py_games
			    : !strcmp(argv[i], "--seed")    ? &seed
							    : NULL;
		if (!dst)
			return cli_usage_error(CMD, "unknown option '%s'", argv[i]);
		if (i + 1 >= argc || cli_parse_int(CMD, argv[i], argv[i + 1], 0, 100000000, dst))
			return CLI_USAGE;
	}
	if (ms_ctx_new(&ctx, NULL))
		return CLI_FAIL;
	if (bench_native(ctx, games, seed, &steps, &secs) < 0) {
		fprintf(stderr, "microsynth catan: %s\n", ms_ctx_last_error(ctx));
		ms_ctx_free(ctx);
		return CLI_FAIL;
	}
	ms_ctx_free(ctx);
	printf("ours: games=%ld steps=%ld seconds=%.3f playouts_per_s=%.1f steps_per_s=%.0f\n", games, steps, secs,
	       games / secs, steps / secs);
	if (py_games == 0) {
		printf("catanatron: skipped (--py-games 0)\nratio=none\n");
	} else if (bench_python(py_games, seed, &py_steps, &py_secs) == 0) {
		printf("catanatron: games=%ld steps=%ld seconds=%.3f playouts_per_s=%.2f steps_per_s=%.0f\n", py_games,
		       py_steps, py_secs, py_games / py_secs, py_steps / py_secs);
		printf("ratio=%.1f\n", (games / secs) / (py_games / py_secs));
	} else {
		printf("catanatron: unavailable (run tools/setup.sh; venv ~/.cache/microsynth/catanatron-3.2.1)\nratio=none\n");
	}
	return CLI_OK;
}

/* The engine side of tools/catan_bridge.py and, with `jsettlers`, of
 * tools/catan_jsettlers.py (JSON lines on stdin/stdout). */
static int cmd_serve_agent(int argc, char **argv, int jsettlers)
{
	const char *agent = "uct:1000";
	long seed = 1, fallbacks = 0;
	ms_ctx *ctx = NULL;
	for (int i = 2; i < argc; i += 2) {
		if (i + 1 >= argc)
			return cli_usage_error(CMD, "option '%s' needs a value", argv[i]);
		if (!strcmp(argv[i], "--agent"))
			agent = argv[i + 1];
		else if (!strcmp(argv[i], "--seed")) {
			if (cli_parse_int(CMD, argv[i], argv[i + 1], 0, 0x7fffffffL, &seed))
				return CLI_USAGE;
		} else
			return cli_usage_error(CMD, "unknown option '%s'", argv[i]);
	}
	if (ms_ctx_new(&ctx, NULL))
		return CLI_FAIL;
	int rc = jsettlers ? ms_catan_js_serve(ctx, agent, (uint64_t)seed, stdin, stdout)
			   : ms_catan_serve(ctx, agent, (uint64_t)seed, stdin, stdout, &fallbacks);
	if (rc < 0)
		fprintf(stderr, "microsynth catan: %s\n", ms_ctx_last_error(ctx));
	ms_ctx_free(ctx);
	return rc == MS_EINVAL ? CLI_USAGE : rc < 0 ? CLI_FAIL : CLI_OK;
}

int cmd_catan(int argc, char **argv)
{
	if (argc < 2)
		return cli_usage_error(CMD, "needs a subcommand: replay, play, bench, serve, jsettlers");
	if (!strcmp(argv[1], "replay"))
		return cmd_replay_files(argc, argv);
	if (!strcmp(argv[1], "play"))
		return cmd_play_games(argc, argv);
	if (!strcmp(argv[1], "bench"))
		return cmd_bench_games(argc, argv);
	if (!strcmp(argv[1], "serve"))
		return cmd_serve_agent(argc, argv, 0);
	if (!strcmp(argv[1], "jsettlers"))
		return cmd_serve_agent(argc, argv, 1);
	return cli_usage_error(CMD, "unknown subcommand '%s' (replay, play, bench, serve, jsettlers)", argv[1]);
}
