/*
 * microsynth planetwars: usage, dispatch, native matches (play) and a bot
 * speaking the official protocol on stdin/stdout (bot); replay is in
 * cmd_pw_replay.c, evolve, tournament, bench and plot in cmd_pw_<subcommand>.c.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "microsynth/planetwars.h"
#include "microsynth/planetwars_synth.h"
#include "microsynth/buf.h"
#include "cli.h"
#include "synth_front.h"

#include "pw_common.h"

void cmd_planetwars_usage(FILE *out)
{
	fprintf(out,
		"Usage: microsynth planetwars replay DIR [--maps DIR] [--limit N] [--max-turns N]\n"
		"       microsynth planetwars play --map FILE|N --p1 BOT --p2 BOT [--max-turns N] [--seed S] [--maps DIR]\n"
		"       microsynth planetwars bot BOT [--seed S]\n"
		"       microsynth planetwars evolve --out DIR [--generations N | --time T] [--seed S] [--threads N]\n"
		"                [--population 60] [--players 6] [--maps-per-pair 10] [--p-champion 0.7]\n"
		"                [--champions 20] [--crossovers 60] [--mutation 0.04] [--init-range 1]\n"
		"                [--eval-maps 20] [--max-turns 200] [--maps DIR]\n"
		"       microsynth planetwars tournament --p1 BOT --p2 BOT [--maps DIR] [--seed S] [--max-turns N]\n"
		"       microsynth planetwars bench [--games N] [--p1 BOT] [--p2 BOT] [--maps DIR]\n"
		"       microsynth planetwars bench --official STARTER_DIR [--games N] [--maps DIR]\n"
		"       microsynth planetwars plot DIR/evolve.csv -o FILE.svg\n\n"
		"replay      for every mapM_A_B.playback.gz (+ .result) in DIR, plays A vs B natively on\n"
		"            maps/mapM.txt (--maps, default DIR/../maps) and compares every turn: planets\n"
		"            exactly, fleets as a multiset, then turns and winner. Prints the first\n"
		"            divergence of each game. Last line: games=N divergences=D (exit 1 if D > 0).\n"
		"play        one native match; last line: winner= turns= ships1= ships2= forfeit=\n"
		"bot         speaks the official protocol: reads states ending in 'go', answers orders\n"
		"            and 'go' (for tools/PlayGame.jar: \"microsynth planetwars bot Forecast\").\n"
		"evolve      the seed report's GA (every constant an option; the report's 120 children\n"
		"            are kept, not its later \"hundred\"). Checkpoint DIR/gen_NNNN.txt per\n"
		"            generation (resumes from the last), DIR/evolve.csv, DIR/best.txt.\n"
		"            Deterministic per seed whatever --threads. --generations N counts from\n"
		"            generation 0 (a resume plays the rest); --time stops between generations.\n"
		"tournament  p1 vs p2 on every map of --maps, both seats; last line: wins= draws= losses=\n"
		"            (of p1) games= plus per seat.\n"
		"bench       native games per second (one thread). With --official (a checkout of the\n"
		"            starter package): the same example-bot games in tools/PlayGame.jar, one\n"
		"            by one, and natively; last line ends ratio= (native / official games per s).\n"
		"plot        the GA's win rate per generation (vs the original, and in its tournaments).\n\n"
		"BOT: BullyBot, DualBot, ProspectorBot, RageBot, RandomBot (seeded by --seed),\n"
		"     Forecast (the hand-weighted original), Forecast:FILE (32 parameters) or\n"
		"     program:FILE (a gain program of `microsynth synth --game planetwars`).\n"
		"Maps default to $MS_SHARED_DIR/data/planetwars/maps or ../shared beside the build.\n");
}

/* ---- play ---- */

static int run_play(int argc, char **argv)
{
	pw_match_opts o;
	if (pw_parse_match_opts(argc, argv, "play", 1, &o))
		return CLI_USAGE;
	const char *map = o.map, *a = o.a, *b = o.b, *maps = o.maps;
	long max_turns = o.max_turns, seed = o.seed;
	if (!map || !a || !b)
		return cli_usage_error(CMD, "play needs --map, --p1 and --p2");
	char mapsbuf[4096];
	if (!maps && !pw_data_dir("maps", mapsbuf, sizeof mapsbuf))
		maps = mapsbuf;
	ms_ctx *ctx = pw_new_ctx();
	if (!ctx)
		return CLI_FAIL;
	ms_pw_state *m = NULL;
	ms_pw_bot p1 = { 0 }, p2 = { 0 };
	int ret = CLI_USAGE;
	if (pw_load_map(ctx, maps, map, &m) || ms_pw_bot_make(ctx, &p1, a, (uint64_t)seed) ||
	    ms_pw_bot_make(ctx, &p2, b, (uint64_t)seed + 1)) {
		fprintf(stderr, "microsynth %s: %s\n", CMD, ms_ctx_last_error(ctx));
	} else {
		ms_pw_result r;
		if (ms_pw_play(ctx, m, &p1, &p2, (int)max_turns, NULL, NULL, &r)) {
			fprintf(stderr, "microsynth %s: %s\n", CMD, ms_ctx_last_error(ctx));
			ret = CLI_FAIL;
		} else {
			if (r.forfeit)
				fprintf(stderr, "forfeit: %s\n", ms_ctx_last_error(ctx));
			printf("winner=%d turns=%d ships1=%d ships2=%d forfeit=%d\n", r.winner, r.turns, r.ships[1],
			       r.ships[2], r.forfeit);
			ret = CLI_OK;
		}
	}
	ms_pw_bot_release(ctx, &p1);
	ms_pw_bot_release(ctx, &p2);
	ms_pw_state_free(m);
	ms_ctx_free(ctx);
	return ret;
}

/* ---- bot (the official protocol on stdin/stdout) ---- */

static int run_bot(int argc, char **argv)
{
	const char *name = NULL;
	long seed = 1;
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
			if (cli_parse_int(CMD, "--seed", argv[++i], 0, 2147483647L, &seed))
				return CLI_USAGE;
		} else if (argv[i][0] == '-')
			return cli_usage_error(CMD, "bot: unknown option '%s'", argv[i]);
		else
			name = argv[i];
	}
	if (!name)
		return cli_usage_error(CMD, "bot: which bot?");
	ms_ctx *ctx = pw_new_ctx();
	if (!ctx)
		return CLI_FAIL;
	ms_pw_bot bot;
	ms_pw_orders *ord = NULL;
	if (ms_pw_bot_make(ctx, &bot, name, (uint64_t)seed) || ms_pw_orders_new(ctx, &ord)) {
		fprintf(stderr, "microsynth %s: %s\n", CMD, ms_ctx_last_error(ctx));
		ms_ctx_free(ctx);
		return CLI_USAGE;
	}
	ms_buf msg;
	char line[4096];
	int ret = CLI_OK, turn = 0;
	ms_buf_init(&msg, ctx);
	while (fgets(line, sizeof line, stdin)) {
		size_t l = strlen(line);
		char *t = line;
		while (*t == ' ' || *t == '\t')
			t++;
		if (!strncmp(t, "go", 2) && (t[2] == '\n' || t[2] == '\r' || t[2] == 0 || t[2] == ' ')) {
			ms_pw_state *s = NULL;
			char what[64];
			snprintf(what, sizeof what, "state of turn %d", ++turn);
			if (ms_pw_state_parse(ctx, &s, msg.data ? msg.data : "", what)) {
				fprintf(stderr, "microsynth %s: %s\n", CMD, ms_ctx_last_error(ctx));
				ret = CLI_USAGE;
				break;
			}
			ms_pw_orders_clear(ord);
			if (bot.turn(ctx, bot.ud, s, ord)) {
				fprintf(stderr, "microsynth %s: %s\n", CMD, ms_ctx_last_error(ctx));
				ms_pw_state_free(s);
				ret = CLI_FAIL;
				break;
			}
			for (int i = 0; i < ms_pw_orders_count(ord); i++) {
				const ms_pw_order *o = ms_pw_orders_at(ord, i);
				printf("%d %d %d\n", o->source, o->dest, o->ships);
			}
			printf("go\n");
			fflush(stdout);
			ms_pw_state_free(s);
			msg.len = 0;
			if (msg.data)
				msg.data[0] = '\0';
			continue;
		}
		if (ms_buf_append(&msg, line, l) < 0) {
			ret = pw_out_of_memory("a state");
			break;
		}
	}
	ms_buf_dispose(&msg);
	ms_pw_orders_free(ord);
	ms_pw_bot_release(ctx, &bot);
	ms_ctx_free(ctx);
	return ret;
}

int cmd_planetwars(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		cmd_planetwars_usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? CLI_USAGE : CLI_OK;
	}
	if (!strcmp(argv[1], "replay"))
		return cmd_pw_replay(argc, argv);
	if (!strcmp(argv[1], "play"))
		return run_play(argc, argv);
	if (!strcmp(argv[1], "bot"))
		return run_bot(argc, argv);
	if (!strcmp(argv[1], "evolve"))
		return cmd_pw_evolve(argc, argv);
	if (!strcmp(argv[1], "tournament"))
		return cmd_pw_tournament(argc, argv);
	if (!strcmp(argv[1], "bench"))
		return cmd_pw_bench(argc, argv);
	if (!strcmp(argv[1], "plot"))
		return cmd_pw_plot(argc, argv);
	return cli_usage_error(CMD, "unknown subcommand '%s' (replay, play, bot, evolve, tournament, bench, plot)", argv[1]);
}
