/*
 * microsynth harness: where the official MicroRTS harness is cached, and
 * microsynth match: one official headless match through the Java runner.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "edition.h"





void cmd_harness_usage(FILE *out)
{
	fprintf(out, "Usage: microsynth harness\n\n"
		     "Prints where the official harness is cached ($MICROSYNTH_HARNESS or\n"
		     "~/.cache/microsynth/harness), what tools/setup.sh recorded about it, and\n"
		     "the edition of the official bots its microrts.jar holds (2022: the\n"
		     "gym-microrts build; 2023: the official repository since 2023), which the\n"
		     "commands that play native bots follow by default (--edition overrides).\n"
		     "Last line: harness=DIR version=V ok=0|1 edition=2022|2023|unknown.\n"
		     "Exit 1 when it is missing or its jar cannot be read.\n");
}

int cmd_harness(int argc, char **argv)
{
	char dir[4096], path[4200], line[512];
	char version[64] = "unknown", why[512];
	FILE *f;
	int ok, edition = -1;

	if (argc > 1)
		return cli_usage_error("harness", "unexpected argument '%s'", argv[1]);
	if (cli_harness_dir(dir, sizeof(dir)))
		return cli_usage_error("harness", "set MICROSYNTH_HARNESS or HOME");
	snprintf(path, sizeof(path), "%s/microrts.jar", dir);
	ok = cli_is_file(path);
	snprintf(path, sizeof(path), "%s/HARNESS", dir);
	f = fopen(path, "r");
	if (f) {
		while (fgets(line, sizeof(line), f)) {
			fputs(line, stdout);
			if (!strncmp(line, "version=", 8)) {
				size_t k = strcspn(line + 8, "\r\n");
				if (k >= sizeof(version))
					k = sizeof(version) - 1;
				memcpy(version, line + 8, k);
				version[k] = '\0';
			}
		}
		fclose(f);
	} else {
		ok = 0;
	}
	if (!ok)
		fprintf(stderr, "microsynth harness: no harness in %s; run tools/setup.sh\n", dir);
	snprintf(path, sizeof(path), "%s/microrts.jar", dir);
	if (ok && edition_of_jar(path, &edition, why, sizeof(why))) {
		fprintf(stderr, "microsynth harness: %s\n", why);
		ok = 0;
	}
	printf("harness=%s version=%s ok=%d edition=%s\n", dir, version, ok,
	       edition >= 0 ? edition_name(edition) : "unknown");
	return ok ? CLI_OK : CLI_FAIL;
}

static int has_opt(int argc, char **argv, const char *opt)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], opt))
			return 1;
	return 0;
}

void cmd_match_usage(FILE *out)
{
	fprintf(out,
		"Usage: microsynth match [--map MAP] [--p0 AI] [--p1 AI] [--utt 1|2|3]\n"
		"                        [--max-cycles N] [--conflict 1|2|3] [--partially-observable]\n\n"
		"Plays one official headless match in the Java harness (microrts.jar)\n"
		"through ai.microsynth.harness.Match. MAP is a path or a name inside the\n"
		"harness maps/ (default 8x8/basesWorkers8x8A.xml); AI is a Java class,\n"
		"short names allowed (default WorkerRush vs LightRush).\n"
		"Last line: winner=W cycles=C (W: 0, 1, or -1 for a draw).\n");
}

/* Runs `java -cp microsynth-harness.jar CLASS --harness DIR ARGS...` and
 * returns its exit status (the runner builds its own class path). */
static int run_java(const char *cmd, const char *main_class, const char *const *extra, int nextra)
{
	return cli_run_java(cmd, main_class, extra, nextra, 1);
}


/* Options of match and record: name, whether it takes a value, its bounds. */
typedef struct game_opt {
	const char *name;
	int has_value;
	long min, max; /* min > max: any text */
} game_opt;

static const game_opt game_opts[] = {
	{ "--map", 1, 1, 0 }, { "--p0", 1, 1, 0 }, { "--p1", 1, 1, 0 },
	{ "--utt", 1, 1, 3 }, { "--conflict", 1, 1, 3 }, { "--max-cycles", 1, 1, 100000000 },
	{ "--seed", 1, -2147483647L, 2147483647L }, { "--partially-observable", 0, 0, 0 },
};

/* Validates match/record options up front so errors cost no JVM start;
 * `extra` lists further options allowed (with a value). */
static int check_opts(const char *cmd, int argc, char **argv, const char *const *extra)
{
	for (int i = 1; i < argc; i++) {
		const game_opt *o = NULL;
		long v;
		for (size_t k = 0; k < sizeof(game_opts) / sizeof(game_opts[0]); k++)
			if (!strcmp(argv[i], game_opts[k].name))
				o = &game_opts[k];
		if (!o) {
			int ok = 0;
			for (int k = 0; extra && extra[k]; k++)
				ok |= !strcmp(argv[i], extra[k]);
			if (!ok)
				return cli_usage_error(cmd, "unknown option '%s'", argv[i]);
			if (strcmp(argv[i], "--traces") && ++i >= argc)
				return cli_usage_error(cmd, "%s needs a value", argv[i - 1]);
			continue;
		}
		if (!o->has_value)
			continue;
		if (i + 1 >= argc)
			return cli_usage_error(cmd, "%s needs a value", argv[i]);
		if (o->min <= o->max && cli_parse_int(cmd, argv[i], argv[i + 1], o->min, o->max, &v))
			return CLI_USAGE;
		i++;
	}
	return CLI_OK;
}

static const char *opt_value(int argc, char **argv, const char *name, const char *def)
{
	for (int i = 1; i + 1 < argc; i++)
		if (!strcmp(argv[i], name))
			return argv[i + 1];
	return def;
}

int cmd_match(int argc, char **argv)
{
	const char *args[64];
	int n = 0, rc;

	if ((rc = check_opts("match", argc, argv, NULL)))
		return rc;
	if (argc > 40)
		return cli_usage_error("match", "too many arguments");
	for (int i = 1; i < argc; i++)
		args[n++] = argv[i];
	/* The small default of the README's main job. */
	if (!has_opt(argc, argv, "--map")) {
		args[n++] = "--map";
		args[n++] = "8x8/basesWorkers8x8A.xml";
	}
	if (!has_opt(argc, argv, "--p0")) {
		args[n++] = "--p0";
		args[n++] = "WorkerRush";
	}
	if (!has_opt(argc, argv, "--p1")) {
		args[n++] = "--p1";
		args[n++] = "LightRush";
	}
	return run_java("match", "ai.microsynth.harness.Match", args, n);
}

void cmd_record_usage(FILE *out)
{
	fprintf(out,
		"Usage: microsynth record --out DIR [--traces] [--extra-maps DIR]\n"
		"                         (--plan ci|sweep | [--map MAP] [--p0 AI] [--p1 AI] [--utt 1|2|3]\n"
		"                          [--conflict 1|2|3] [--max-cycles N] [--seed S] [--partially-observable])\n\n"
		"Plays official matches in the Java harness (ai.microsynth.harness.Recorder)\n"
		"and records every cycle into DIR/NAME.rec.gz for `microsynth diff`\n"
		"(format: tests/README.md). One match by default (WorkerRush vs LightRush on\n"
		"8x8/basesWorkers8x8A.xml, table 2, 3000 cycles), named \"match\"; --plan runs\n"
		"the fixed CI subset (110 matches) or the sweep (1,200). --traces also writes\n"
		"each match's official trace (DIR/NAME.trace.xml); --extra-maps is searched\n"
		"for maps the harness lacks. Last line: matches=N failed=F.\n");
}

int cmd_record(int argc, char **argv)
{
	static const char *const extra[] = { "--out", "--plan", "--traces", "--extra-maps", NULL };
	const char *args[16];
	char job[2048];
	int n = 0, rc;

	if ((rc = check_opts("record", argc, argv, extra)))
		return rc;
	if (!has_opt(argc, argv, "--out"))
		return cli_usage_error("record", "--out DIR is required");
	args[n++] = "--out";
	args[n++] = opt_value(argc, argv, "--out", NULL);
	if (has_opt(argc, argv, "--traces"))
		args[n++] = "--traces";
	if (has_opt(argc, argv, "--extra-maps")) {
		args[n++] = "--extra-maps";
		args[n++] = opt_value(argc, argv, "--extra-maps", NULL);
	}
	if (has_opt(argc, argv, "--plan")) {
		args[n++] = "--plan";
		args[n++] = opt_value(argc, argv, "--plan", NULL);
	} else {
		const char *map = opt_value(argc, argv, "--map", "8x8/basesWorkers8x8A.xml");
		if (strchr(map, ' '))
			return cli_usage_error("record", "map paths with spaces are not supported");
		snprintf(job, sizeof(job), "match %s %s %s %s %s %s %s%s", map, opt_value(argc, argv, "--utt", "2"),
			 opt_value(argc, argv, "--conflict", "1"), opt_value(argc, argv, "--p0", "WorkerRush"),
			 opt_value(argc, argv, "--p1", "LightRush"), opt_value(argc, argv, "--max-cycles", "3000"),
			 opt_value(argc, argv, "--seed", "0"), has_opt(argc, argv, "--partially-observable") ? " po" : "");
		args[n++] = "--job";
		args[n++] = job;
	}
	return run_java("record", "ai.microsynth.harness.Recorder", args, n);
}
