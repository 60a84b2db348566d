/* The microsynth command: one binary, one subcommand per job. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "microsynth/common.h"
#include "cli.h"
#include "synth_mpi.h"

static const cli_cmd commands[] = {
	{ "match", "play one official headless match in the Java harness", cmd_match, cmd_match_usage },
	{ "record", "record official matches in the Java harness, cycle by cycle", cmd_record, cmd_record_usage },
	{ "replay", "replay official traces in the native engine and compare every state", cmd_replay, cmd_replay_usage },
	{ "diff", "play recordings of official matches natively and compare every cycle", cmd_diff, cmd_diff_usage },
	{ "botdiff", "compare native scripted bots' decisions with recorded official ones", cmd_botdiff, cmd_botdiff_usage },
	{ "refdiff", "compare the DSL interpreter's decisions with the reference interpreter's recorded ones", cmd_refdiff, cmd_refdiff_usage },
	{ "json", "print a map and unit type table as the official engine's JSON", cmd_json, cmd_json_usage },
	{ "bench", "benchmarks: native engine vs the official Java engine", cmd_bench, cmd_bench_usage },
	{ "play", "play one match between native bots in the native engine", cmd_play, cmd_play_usage },
	{ "switch", "build an opponent switch: an opening, then the program of the opponent it sees", cmd_switch, cmd_switch_usage },
	{ "pregame", "the drop-in bot's pre-game search on a map: a program, or an opponent switch", cmd_pregame, cmd_pregame_usage },
	{ "dsl", "the MicroRTS strategy DSL: check, convert, random programs, simplify, equal, explain", cmd_dsl, cmd_dsl_usage },
	{ "harness", "show and check the cached official harness", cmd_harness, cmd_harness_usage },
	{ "cantstop", "Can't Stop: matches, throughput, cloning data sets and scores", cmd_cantstop, cmd_cantstop_usage },
	{ "planetwars", "Planet Wars: replay official playbacks, matches, protocol bot, the GA", cmd_planetwars, cmd_planetwars_usage },
	{ "catan", "Settlers of Catan: replay catanatron recordings, play the thesis agents, bench", cmd_catan, cmd_catan_usage },
	{ "gdl", "General Game Playing: the GDL reasoner replayed against ggp-base, its speed", cmd_gdl, cmd_gdl_usage },
	{ "synth", "synthesize a program: SA, UCT, Sketch-SA, Sketch-UCT (Can't Stop); plot CSV logs", cmd_synth, cmd_synth_usage },
	{ "selfplay", "learn a program by self-play: IBR, fictitious play, 2L (any search as best response)", cmd_selfplay, cmd_selfplay_usage },
	{ "tournament", "run an official round-robin or fixed-opponents tournament", cmd_tournament, cmd_tournament_usage },
	{ "evaluate", "score an AI against the field in the official harness, both seats, per map", cmd_evaluate, cmd_evaluate_usage },
	{ "package", "write a competition submission: the drop-in jar, its README and program index", cmd_package, cmd_package_usage },
	{ "league", "a simulated tournament of programs, native and Java bots, with tables and SVG plots", cmd_league, cmd_league_usage },
	{ "watch", "show a match in the official game window", cmd_watch, cmd_watch_usage },
	{ "serve", "serve games to SocketAI clients over TCP and websockets", cmd_serve, cmd_serve_usage },
	{ "view", "the browser view: live matches, replays, programs beside the board, synthesis", cmd_view, cmd_view_usage },
	{ "selftest", "play random whole matches between native bots and random programs, report failures", cmd_selftest, cmd_selftest_usage },
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))



static void usage(FILE *out)
{
	fprintf(out, "Usage: microsynth <command> [options]\n"
		     "       microsynth --help | --version\n\n"
		     "Synthesizes programmatic strategies for MicroRTS and plays them in the\n"
		     "official Java harness.\n\nCommands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\n'microsynth <command> --help' describes a command.\n"
		     "Commands that scripts read end stdout with one line of key=value pairs;\n"
		     "exit status 0: the check held, 1: it ran and failed, 2: bad usage or input.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return CLI_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		if (argc > 2 && strcmp(argv[1], "help") == 0) {
			for (size_t i = 0; i < NCOMMANDS; i++)
				if (!strcmp(argv[2], commands[i].name)) {
					commands[i].usage(stdout);
					return CLI_OK;
				}
		}
		usage(stdout);
		return CLI_OK;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("microsynth %s\n", ms_version());
		return CLI_OK;
	}
	for (size_t i = 0; i < NCOMMANDS; i++) {
		if (strcmp(argv[1], commands[i].name))
			continue;
		for (int j = 2; j < argc; j++)
			if (!strcmp(argv[j], "--help") || !strcmp(argv[j], "-h")) {
				commands[i].usage(stdout);
				return CLI_OK;
			}
		/* a synthesis across MPI ranks ends here on every rank */
		return synth_mpi_end(commands[i].run(argc - 1, argv + 1));
	}
	return cli_usage_error(NULL, "unknown command '%s'", argv[1]);
}
