/*
 * microsynth synth: reads --game and hands over to that game's front end
 * (its row of synth_games(), in synth_<game>.c); `synth plot` draws any
 * game's CSV logs.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "synth_front.h"

void cmd_synth_usage(FILE *out)
{
	size_t n;
	const synth_game *const *games = synth_games(&n);
	fprintf(out, "Usage: microsynth synth --game ");
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s%s", i ? "|" : "", games[i]->name);
	fprintf(out, " [options of that game]\n"
		     "       microsynth synth plot --csv FILE [--csv FILE ...] -o FILE.svg [--x seconds|evals]\n"
		     "                        [--title TEXT] [--group LABEL=A.csv,B.csv,...] [--until X]\n"
		     "                        [--step Q]\n\n");
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "---- --game %s ----\n", games[i]->name);
		games[i]->synth->usage(out);
		fputc('\n', out);
	}
	fprintf(out, "---- every game ----\n");
	synth_knobs_usage(out);
	fprintf(out, "\nplot    draws best Psi (solid) and best C (dashed) over time, one colour per CSV log;\n"
		     "        --group: per group of runs, the mean best Psi and a +-1 std band (each run holds\n"
		     "        its best until --until X, the budget); --step Q rounds Psi down to multiples of Q\n"
		     "        (tie-breaks removed: 0.25 for one MicroRTS map and opponent).\n");
}

int cmd_synth(int argc, char **argv)
{
	const char *game = NULL;
	const synth_game *row;
	char names[256];

	if (argc >= 2 && !strcmp(argv[1], "plot"))
		return synth_plot_main(argc, argv);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--game") && i + 1 < argc)
			game = argv[i + 1];
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			if ((row = synth_game_find(game))) {
				row->synth->usage(stdout);
				fputc('\n', stdout);
				synth_knobs_usage(stdout);
			} else
				cmd_synth_usage(stdout);
			return CLI_OK;
		}
	}
	synth_game_names(names, sizeof names, 0);
	if (!game)
		return cli_usage_error("synth", "--game is required (%s)", names);
	if (!(row = synth_game_find(game)))
		return cli_usage_error("synth", "--game: unknown game '%s' (%s)", game, names);
	return synth_main(row, argc, argv);
}
