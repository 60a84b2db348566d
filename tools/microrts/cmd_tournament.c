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

/* The harness settings tournament, evaluate and league all pass on. */
static const char *const shared_valued[] = { "--utt", "--conflict", "--max-cycles", "--time-budget",
					     "--iterations-budget", "--pregame-ms", "--pregame-later-ms", "--bots",
					     NULL };
static const char *const shared_flags[] = { "--partially-observable", "--timeout-check", NULL };
static const char *const none[] = { NULL };

/*
 * A command that hands its options to a Java runner: its own options with a
 * value and flags (each also takes the shared ones when `shared` is set),
 * what it requires, and what it adds to the runner's arguments.
 */
typedef struct java_cmd {
	const char *name, *java_class;
	const char *const *valued, *const *flags;
	int shared, gui;
	const char *required[4]; /* options that must be given (each at least min_count times) */
	int min_count;
	const char *missing;     /* the usage error when one is not */
	/* adds at most two arguments to args[*n] (NULL: none) */
	void (*extra)(int argc, char **argv, const char **args, int *n);
} java_cmd;

static int in(const char *const *set, const char *s)
{
	for (int i = 0; set[i]; i++)
		if (!strcmp(set[i], s))
			return 1;
	return 0;
}

static int count_opt(int argc, char **argv, const char *name)
{
	int c = 0;
	for (int i = 1; i < argc; i++)
		c += !strcmp(argv[i], name);
	return c;
}

/* Checks the options (so a typo costs no JVM start), then runs the runner with them unchanged. */
static int run_java_cmd(const java_cmd *c, int argc, char **argv)
{
	const char *const *sv = c->shared ? shared_valued : none, *const *sf = c->shared ? shared_flags : none;
	const char **args = calloc((size_t)argc + 8, sizeof(*args));
	int n = 0, rc;

	if (!args)
		return CLI_FAIL;
	for (int i = 1; i < argc; i++) {
		if (in(c->flags, argv[i]) || in(sf, argv[i])) {
			args[n++] = argv[i];
		} else if (in(c->valued, argv[i]) || in(sv, argv[i])) {
			if (i + 1 >= argc) {
				free(args);
				return cli_usage_error(c->name, "%s needs a value", argv[i]);
			}
			args[n++] = argv[i];
			args[n++] = argv[++i];
		} else {
			free(args);
			return cli_usage_error(c->name, "unknown option '%s'", argv[i]);
		}
	}
	for (int k = 0; k < 4 && c->required[k]; k++)
		if (count_opt(argc, argv, c->required[k]) < (c->min_count ? c->min_count : 1)) {
			free(args);
			return cli_usage_error(c->name, "%s", c->missing);
		}
	if (c->gui && !getenv("DISPLAY") && !getenv("WAYLAND_DISPLAY")) {
		free(args);
		fprintf(stderr, "microsynth %s: no display (set DISPLAY, or run under xvfb-run -a)\n", c->name);
		return CLI_USAGE;
	}
	if (c->extra)
		c->extra(argc, argv, args, &n);
	rc = cli_run_java(c->name, c->java_class, args, n, !c->gui);
	free(args);
	return rc;
}

int cmd_tournament(int argc, char **argv)
{
	static const char *const valued[] = { "--ai", "--opponent", "--map", "--iterations", "--traces", NULL };
	static const char *const flags[] = { "--self-matches", NULL };
	static const java_cmd c = { "tournament", "ai.microsynth.harness.Tournament", valued, flags, 1, 0,
				    { "--map", "--ai" }, 1, "at least one --ai and one --map are required", NULL };
	return run_java_cmd(&c, argc, argv);
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
	static const char *const valued[] = { "--p0", "--p1", "--map", "--utt", "--conflict", "--max-cycles",
					      "--time-budget", "--delay", "--size", "--screenshot", "--screenshot-at",
					      "--bots", NULL };
	static const char *const flags[] = { "--keep-open", NULL };
	static const java_cmd c = { "watch", "ai.microsynth.harness.Watch", valued, flags, 0, 1,
				    { "--p0", "--p1", "--map" }, 1, "--p0, --p1 and --map are required", NULL };
	return run_java_cmd(&c, argc, argv);
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

/* The harness's edition, so Evaluate can warn about programs made for another. */
static void evaluate_edition(int argc, char **argv, const char **args, int *n)
{
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
		args[(*n)++] = "--harness-edition";
		args[(*n)++] = edition_name(edition);
	}
}

int cmd_evaluate(int argc, char **argv)
{
	static const char *const valued[] = { "--ai", "--field", "--maps", "--iterations", "--map-dir", "--index",
					      "--keep-folders", "--harness", NULL };
	static const char *const flags[] = { "--held-out", "--round-robin", NULL };
	static const java_cmd c = { "evaluate", "ai.microsynth.harness.Evaluate", valued, flags, 1, 0,
				    { NULL }, 0, NULL, evaluate_edition };
	return run_java_cmd(&c, argc, argv);
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
	static const char *const valued[] = { "--ai", "--name", "--map", "--maps", "--iterations", "--svg",
					      "--map-dir", "--harness", NULL };
	static const java_cmd c = { "league", "ai.microsynth.harness.League", valued, none, 1, 0,
				    { "--ai" }, 2, "at least two --ai are required", NULL };
	return run_java_cmd(&c, argc, argv);
}
