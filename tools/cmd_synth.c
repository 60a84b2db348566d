/*
 * microsynth synth: reads --game and dispatches to that game's front end
 * (synth_<game>.c); `synth plot` draws any game's CSV logs. Adding a game
 * is one front-end file and one row below.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "synth_front.h"

static const struct {
	const char *game;
	int (*main)(int argc, char **argv);
	void (*usage)(FILE *out);
} games[] = {
	{ "microrts", synth_microrts_main, synth_microrts_usage },
	{ "cantstop", synth_cantstop_main, synth_cantstop_usage },
	{ "planetwars", synth_planetwars_main, synth_planetwars_usage },
};

void cmd_synth_usage(FILE *out)
{
	fprintf(out, "Usage: microsynth synth --game microrts|cantstop|planetwars [options of that game]\n"
		     "       microsynth synth plot --csv FILE [--csv FILE ...] -o FILE.svg [--x seconds|evals]\n"
		     "                        [--title TEXT]\n\n");
	for (size_t i = 0; i < sizeof games / sizeof *games; i++) {
		fprintf(out, "---- --game %s ----\n", games[i].game);
		games[i].usage(out);
		fputc('\n', out);
	}
	fprintf(out, "plot    draws best Psi (solid) and best C (dashed) over time, one colour per CSV log.\n");
}

int cmd_synth(int argc, char **argv)
{
	const char *game = NULL;

	if (argc >= 2 && !strcmp(argv[1], "plot"))
		return synth_plot_main(argc, argv);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--game") && i + 1 < argc)
			game = argv[i + 1];
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			for (size_t g = 0; game && g < sizeof games / sizeof *games; g++)
				if (!strcmp(game, games[g].game)) {
					games[g].usage(stdout);
					return CLI_OK;
				}
			cmd_synth_usage(stdout);
			return CLI_OK;
		}
	}
	if (!game)
		return cli_usage_error("synth", "--game is required (microrts, cantstop or planetwars)");
	for (size_t g = 0; g < sizeof games / sizeof *games; g++)
		if (!strcmp(game, games[g].game))
			return games[g].main(argc, argv);
	return cli_usage_error("synth", "--game: unknown game '%s' (microrts, cantstop or planetwars)", game);
}
