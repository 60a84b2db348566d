/*
 * microsynth tournament / watch / evaluate / league: the official tournament
 * code and game window, driven from the command line through the Java
 * runners (java/src/ai/microsynth/harness/Tournament.java, Watch.java,
 * Evaluate.java, League.java). Each command checks its options against its
 * lists here (so a typo costs no JVM start) and passes them on unchanged;
 * each usage names every option its lists accept.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "edition.h"

void cmd_tournament_usage(FILE *out)
{
	fprintf(out,
		"Usage: microsynth tournament --ai A --ai B [--ai ...] --map M [--map ...] [--iterations N]\n"
		"                             [--opponent O ...] [--utt 1|2|3] [--conflict 1|2|3]\n"
		"                             [--max-cycles N] [--time-budget MS] [--iterations-budget N]\n"
		"                             [--pregame-ms MS] [--pregame-later-ms MS] [--partially-observable] [--self-matches]\n"
		"                             [--timeout-check] [--traces DIR] [--bots MODE]\n\n"
		"Runs the official tournaments.RoundRobinTournament in the harness (every\n"
		"ordered pair of AIs on every map, N iterations), or FixedOpponentsTournament\n"
		"when --opponent is given (every --ai against every --opponent). An AI is a\n"
		"Java class (WorkerRush, ai.coac.CoacAI, mayari, ...), program:FILE (our\n"
		"drop-in bot playing a program; needs microsynth.jar beside the harness jar\n"
		"or $MICROSYNTH_JAR) or socket:HOST:PORT[:json|xml] (the official SocketAI\n"
		"connected to a server such as `microsynth serve`). Prints the official log,\n"
		"then a win/tie/loss table; last line:\n"
		"games=N crashes=C timeouts=T wins_0=W0 wins_1=W1 ...\n");
}

/* Options with a value, and flags; both are passed on unchanged. */
static const char *const t_valued[] = { "--ai", "--opponent", "--map", "--iterations", "--utt", "--conflict",
					"--max-cycles", "--time-budget", "--iterations-budget", "--pregame-ms", "--pregame-later-ms",
					"--traces", "--bots", NULL };
static const char *const t_flags[] = { "--partially-observable", "--self-matches", "--timeout-check", NULL };
static const char *const w_valued[] = { "--p0", "--p1", "--map", "--utt", "--conflict", "--max-cycles",
					"--time-budget", "--delay", "--size", "--screenshot", "--screenshot-at",
					"--bots", NULL };
static const char *const w_flags[] = { "--keep-open", NULL };

static int in(const char *const *set, const char *s)
{
	for (int i = 0; set[i]; i++)
		if (!strcmp(set[i], s))
			return 1;
	return 0;
}

/* Checks the options (so typos cost no JVM start) and collects them. */
static int collect(const char *cmd, int argc, char **argv, const char *const *valued, const char *const *flags,
		   const char ***out, int *n)
{
	const char **args = calloc((size_t)argc + 8, sizeof(*args));
	if (!args)
		return CLI_FAIL;
	*n = 0;
	for (int i = 1; i < argc; i++) {
		if (in(flags, argv[i])) {
			args[(*n)++] = argv[i];
		} else if (in(valued, argv[i])) {
			if (i + 1 >= argc) {
				free(args);
				return cli_usage_error(cmd, "%s needs a value", argv[i]);
			}
			args[(*n)++] = argv[i];
			args[(*n)++] = argv[++i];
		} else {
			free(args);
			return cli_usage_error(cmd, "unknown option '%s'", argv[i]);
		}
	}
	*out = args;
	return CLI_OK;
}

static int count_opt(int argc, char **argv, const char *name)
{
	int c = 0;
	for (int i = 1; i < argc; i++)
		c += !strcmp(argv[i], name);
	return c;
}

int cmd_tournament(int argc, char **argv)
{
	const char **args;
	int n, rc;

	if ((rc = collect("tournament", argc, argv, t_valued, t_flags, &args, &n)))
		return rc;
	if (count_opt(argc, argv, "--map") == 0 || count_opt(argc, argv, "--ai") == 0) {
		free(args);
		return cli_usage_error("tournament", "at least one --ai and one --map are required");
	}
	rc = cli_run_java("tournament", "ai.microsynth.harness.Tournament", args, n, 1);
	free(args);
	return rc;
}

void cmd_watch_usage(FILE *out)
{
	fprintf(out,
		"Usage: microsynth watch --p0 A --p1 B --map M [--utt 1|2|3] [--conflict 1|2|3]\n"
		"                        [--max-cycles N] [--time-budget MS] [--delay MS] [--size PX]\n"
		"                        [--screenshot FILE [--screenshot-at CYCLE]] [--keep-open] [--bots MODE]\n\n"
		"Plays one match in the official engine and shows it in MicroRTS's own game\n"
		"window (gui.PhysicalGameStatePanel), --delay ms per cycle (default 20).\n"
		"AIs as for `microsynth tournament` (class, program:FILE, socket:HOST:PORT).\n"
		"Needs a display: on a machine without one, run it under xvfb-run.\n"
		"--screenshot saves the window as seen on screen (PNG). Last line:\n"
		"winner=W cycles=C\n");
}

int cmd_watch(int argc, char **argv)
{
	const char **args;
	int n, rc;

	if ((rc = collect("watch", argc, argv, w_valued, w_flags, &args, &n)))
		return rc;
	if (!count_opt(argc, argv, "--p0") || !count_opt(argc, argv, "--p1") || !count_opt(argc, argv, "--map")) {
		free(args);
		return cli_usage_error("watch", "--p0, --p1 and --map are required");
	}
	if (!getenv("DISPLAY") && !getenv("WAYLAND_DISPLAY")) {
		free(args);
		fprintf(stderr, "microsynth watch: no display (set DISPLAY, or run under xvfb-run -a)\n");
		return CLI_USAGE;
	}
	rc = cli_run_java("watch", "ai.microsynth.harness.Watch", args, n, 0);
	free(args);
	return rc;
}

void cmd_evaluate_usage(FILE *out)
{
	fprintf(out,
		"Usage: microsynth evaluate [--ai AI] [--field default|all|tma|FILE]\n"
		"                           [--maps 2025|2023|2023-hidden|held-out|fresh|FILE]\n"
		"                           [--held-out] [--iterations N] [--round-robin] [--max-cycles N]\n"
		"                           [--map-dir DIR] [--index FILE] [--utt 1|2|3] [--conflict 1|2|3]\n"
		"                           [--time-budget MS] [--iterations-budget N] [--pregame-ms MS]\n"
		"                           [--pregame-later-ms MS] [--keep-folders DIR]\n"
		"                           [--partially-observable] [--timeout-check] [--bots MODE] [--harness DIR]\n\n"
		"Scores an AI (default microsynth:auto: the drop-in bot choosing its program\n"
		"by map) against a field of bots in the official tournament code, both seats:\n"
		"per map, FixedOpponentsTournament with the AI in seat 0, then with the field\n"
		"in seat 0 (--round-robin: RoundRobinTournament over the AI and the field,\n"
		"which also scores the field). Field: default = CoacAI, mayari, WorkerRush,\n"
		"LightRush, HeavyRush, RangedRush; all = also the harness's other lib/bots; tma =\n"
		"the default field and TMA, built by the user ($MICROSYNTH_TMA: docs/harness.md).\n"
		"Maps: 2025 = the 2025 competition's ten 16x16 maps (5000 cycles); 2023 = the\n"
		"2023 open maps; 2023-hidden; held-out = harness maps no synthesis of ours used\n"
		"(checked against the program index's 'trained' lines); fresh = round 4's held-out\n"
		"maps of the current official repository (the rule: games/microrts/match/competition.c);\n"
		"--maps repeats.\n"
		"--pregame-ms MS: the AI's first game on a map calls preGameAnalysis with MS ms (the\n"
		"drop-in bot synthesizes there on maps it has no program for), its later games with\n"
		"--pregame-later-ms (default: the same); the bot keeps its programs in a read/write\n"
		"folder of the run (--keep-folders DIR keeps them after it).\n"
		"Game length: 5000 on the 2025 maps, else the competition's by map size, unless\n"
		"--max-cycles. --bots, --harness and the budgets as for `tournament`. A warning line\n"
		"(stderr) names programs made for another edition than the harness's (the\n"
		"index's 'made-for' lines; a program:FILE's header).\n"
		"Prints W/D/L per map and opponent, mean scores, the drop-in bot's decision\n"
		"times; last line:\n"
		"games=N wins=W draws=D losses=L score=X crashes=C timeouts=T [decisions=K decision_ms_p999=P ...]\n"
		"[pregame_calls=N pregame_ms=T pregame_searches=S pregame_evals=E pregame_reused=R pregame_failed=F\n"
		" pregame_switches=W]\n");
}

int cmd_evaluate(int argc, char **argv)
{
	static const char *const valued[] = { "--ai", "--field", "--maps", "--iterations", "--max-cycles", "--map-dir",
					      "--index", "--utt", "--conflict", "--time-budget", "--iterations-budget",
					      "--pregame-ms", "--pregame-later-ms", "--keep-folders", "--bots", "--harness",
					      NULL };
	static const char *const flags[] = { "--held-out", "--round-robin", "--partially-observable",
					     "--timeout-check", NULL };
	const char **args;
	int n, rc;

	if ((rc = collect("evaluate", argc, argv, valued, flags, &args, &n)))
		return rc;
	/* the harness's edition, so Evaluate can warn about programs made for
	 * another (collect left room for these two) */
	char dir[4096] = "", jar[4200], why[512];
	const char *harness = NULL;
	int edition, have_dir = 0;
	for (int i = 1; i + 1 < argc; i++)
		if (!strcmp(argv[i], "--harness"))
			harness = argv[++i];
	if (harness)
		have_dir = snprintf(dir, sizeof dir, "%s", harness) < (int)sizeof dir;
	else
		have_dir = cli_harness_dir(dir, sizeof dir) == 0;
	snprintf(jar, sizeof jar, "%s/microrts.jar", dir);
	if (have_dir && edition_of_jar(jar, &edition, why, sizeof why) == 0) {
		args[n++] = "--harness-edition";
		args[n++] = edition_name(edition);
	}
	rc = cli_run_java("evaluate", "ai.microsynth.harness.Evaluate", args, n, 1);
	free(args);
	return rc;
}

void cmd_league_usage(FILE *out)
{
	fprintf(out,
		"Usage: microsynth league --ai A [--name N] --ai B [--name N] ... (--map M ... | --maps SET)\n"
		"                         [--iterations N] [--max-cycles N] [--svg PREFIX] [--map-dir DIR]\n"
		"                         [--utt 1|2|3] [--conflict 1|2|3] [--time-budget MS] [--iterations-budget N]\n"
		"                         [--pregame-ms MS] [--pregame-later-ms MS] [--partially-observable] [--timeout-check] [--bots MODE]\n"
		"                         [--harness DIR]\n\n"
		"A simulated tournament: the official RoundRobinTournament over programs\n"
		"(program:FILE), our native bots (microsynth:NAME, through the drop-in bot) and\n"
		"Java bots (CoacAI, mayari, ...), every ordered pair on every map, each map with\n"
		"the competition's game length for its size (--max-cycles overrides). Sets as for\n"
		"`evaluate --maps`. Prints the W/D/L and mean-score tables and a ranking; --svg\n"
		"writes PREFIX-heatmap.svg and PREFIX-ranking.svg. Last line:\n"
		"games=N crashes=C timeouts=T best=NAME best_score=X\n");
}

int cmd_league(int argc, char **argv)
{
	static const char *const valued[] = { "--ai", "--name", "--map", "--maps", "--iterations", "--max-cycles",
					      "--svg", "--map-dir", "--utt", "--conflict", "--time-budget",
					      "--iterations-budget", "--pregame-ms", "--pregame-later-ms", "--bots", "--harness", NULL };
	static const char *const flags[] = { "--partially-observable", "--timeout-check", NULL };
	const char **args;
	int n, rc;

	if ((rc = collect("league", argc, argv, valued, flags, &args, &n)))
		return rc;
	if (count_opt(argc, argv, "--ai") < 2) {
		free(args);
		return cli_usage_error("league", "at least two --ai are required");
	}
	rc = cli_run_java("league", "ai.microsynth.harness.League", args, n, 1);
	free(args);
	return rc;
}
