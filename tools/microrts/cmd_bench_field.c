/*
 * microsynth bench synth --field: what a synthesis against the whole native
 * field costs, per map size, this build against another one side by side.
 * Each build runs the same seeded search (`synth --game microrts`, SA, the
 * field of competition.sh, one thread, an evaluation budget) as a child
 * process; the figure is evaluations per CPU second of the child (user +
 * system, from wait4), which the machine's load moves far less than the
 * wall clock. The two checkpoints must hold the same records (program hash
 * and exact score of every evaluation): a speed-up that changes a search is
 * no speed-up.
 */
#define _DEFAULT_SOURCE /* wait4 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"

#define CMD "bench synth --field"
#define MAX_MAPS 16

static const char *const field[] = { "CoacAI", "mayari", "WorkerRush", "LightRush", "HeavyRush", "RangedRush" };

/*
 * The default runs: one map of each size, each search starting from a
 * shipped program of a similar map, as the pre-game search starts from the
 * best screened candidate (a random start plays short, empty games that
 * say little about a real search), with budgets of a few seconds each.
 */
static const struct {
	const char *map, *program;
	long evals;
} default_runs[] = {
	{ "8x8/basesWorkers8x8A.xml", "basesWorkers8x8A.ms", 1500 },
	{ "16x16/basesWorkers16x16J.xml", "basesWorkers16x16A.ms", 600 },
	{ "24x24/basesWorkers24x24A.xml", "basesWorkers24x24.ms", 200 },
	{ "BWDistantResources32x32.xml", "BWDistantResources32x32.ms", 100 },
	{ "BroodWar/(4)BloodBath.scmB.xml", "BloodBath.scmB.ms", 30 },
};

/* One search of the bench: a map, the program it starts from (NULL: a random one), its budget. */
typedef struct run {
	char map[1024], program[4096];
	long evals;
} run;

void cmd_bench_field_usage(FILE *out)
{
	fprintf(out, "Usage: microsynth bench synth --field [--old EXE] [--evals N] [--seed S] [--repeat R]\n"
		     "                                  [MAP[=PROGRAM][@N] ...]\n\n"
		     "Evaluations per CPU second of one seeded simulated annealing against the native field\n"
		     "(CoacAI, mayari and the four rushes, both seats, edition 2023, the competition's game\n"
		     "length, one thread), per map: this build, and with --old EXE another build's microsynth\n"
		     "(e.g. the round's base, built apart) running the same search beside it; the two\n"
		     "checkpoints must hold the same records. A search starts from PROGRAM (--initial) when it\n"
		     "is given. Without maps: 8x8, 16x16, 24x24, 32x32 and 64x64 maps of the harness, each from\n"
		     "the shipped program of a similar map (programs/microrts of the checkout it runs in, or\n"
		     "of the one this executable was built in), 1500, 600, 200, 100 and 30 evaluations;\n"
		     "--evals N sets every budget not given by @N (default 300). --repeat R runs each search R\n"
		     "times per build, the builds taking turns, and keeps each build's least CPU time (a busy\n"
		     "machine only adds time; every run's records are compared); new_spread and old_spread\n"
		     "are each build's most over least CPU time of the same search (1.00 with one run).\n"
		     "Last line:\n"
		     "speedup=X (new / old evaluations per CPU second, smallest over maps; 0 without --old)\n"
		     "records_equal=0|1 maps=M\n");
}

/* Runs `exe synth ...` on `map` with its checkpoint at `ckpt`; *cpu gets the child's CPU seconds. */
static int run_search(const char *exe, const run *r, long seed, const char *ckpt, const char *out, const char *log,
		      double *cpu)
{
	const char *map = r->map;
	long evals = r->evals;
	char evals_s[32], seed_s[32];
	const char *argv[64];
	int n = 0, status;
	struct rusage ru;
	pid_t pid;

	snprintf(evals_s, sizeof evals_s, "%ld", evals);
	snprintf(seed_s, sizeof seed_s, "%ld", seed);
	argv[n++] = exe;
	argv[n++] = "synth";
	argv[n++] = "--game";
	argv[n++] = "microrts";
	argv[n++] = "--map";
	argv[n++] = map;
	for (size_t i = 0; i < sizeof field / sizeof field[0]; i++) {
		argv[n++] = "--opponent";
		argv[n++] = field[i];
	}
	const char *rest[] = { "--algo", "sa", "--evals", evals_s, "--seed", seed_s, "--threads", "1", "--tiebreak", "length",
			       "--edition", "2023", "--no-harness", "--no-progress", "--no-simplify", "--checkpoint", ckpt, "-o", out };
	for (size_t i = 0; i < sizeof rest / sizeof rest[0]; i++)
		argv[n++] = rest[i];
	if (r->program[0]) {
		argv[n++] = "--initial";
		argv[n++] = r->program;
	}
	argv[n] = NULL;
	unlink(ckpt);
	fflush(stdout); /* a child's freopen would flush our buffer a second time */
	if ((pid = fork()) < 0) {
		fprintf(stderr, "microsynth %s: fork: %s\n", CMD, strerror(errno));
		return -1;
	}
	if (pid == 0) {
		FILE *f = freopen(log, "w", stdout);
		if (!f || dup2(fileno(stdout), 2) < 0)
			_exit(127);
		execv(exe, (char *const *)argv);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) < 0) {
		fprintf(stderr, "microsynth %s: wait: %s\n", CMD, strerror(errno));
		return -1;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "microsynth %s: %s synth on %s failed (see %s)\n", CMD, exe, map, log);
		return -1;
	}
	*cpu = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
	       ru.ru_stime.tv_usec / 1e6;
	return 0;
}

/*
 * The next evaluation record of a checkpoint ("e CRC INDEX KIND HASH SCORE ..."), as its index, kind, program
 * hash and exact score: what must not change (the CRC and the time fields after the score do). 0 at the end.
 */
static int next_record(FILE *f, char *out, size_t size)
{
	char line[4096], crc[64], idx[64], kind[16], hash[64], score[64];
	while (fgets(line, sizeof line, f)) {
		if (line[0] == 'e' && sscanf(line, "e %63s %63s %15s %63s %63s", crc, idx, kind, hash, score) == 5) {
			snprintf(out, size, "%s %s %s %s", idx, kind, hash, score);
			return 1;
		}
	}
	return 0;
}

/* 1 when the two checkpoints hold the same evaluation records, in the same order (and at least one). */
static int same_records(const char *a, const char *b)
{
	FILE *fa = fopen(a, "r"), *fb = fopen(b, "r");
	char ra[512], rb[512];
	int same = fa && fb, n = 0;
	while (same) {
		int ha = next_record(fa, ra, sizeof ra), hb = next_record(fb, rb, sizeof rb);
		if (ha != hb || (ha && strcmp(ra, rb)))
			same = 0;
		else if (!ha)
			break;
		n++;
	}
	if (fa)
		fclose(fa);
	if (fb)
		fclose(fb);
	return same && n > 0;
}

/* The shipped program `name`: programs/microrts of the checkout the command runs in, else of the one this
 * executable was built in (build/bin; a build directory elsewhere finds it only from the checkout). */
static int shipped(const char *name, char *out, size_t size)
{
	char dir[4096];
	snprintf(out, size, "programs/microrts/%s", name);
	if (!access(out, R_OK))
		return 0;
	if (cli_exe_dir(dir, sizeof dir))
		return -1;
	snprintf(out, size, "%s/../../programs/microrts/%s", dir, name);
	return access(out, R_OK);
}

/* Parses MAP[=PROGRAM][@N] into r; --evals (when > 0) sets budgets not given. */
static int run_arg(const char *arg, long evals, run *r)
{
	char text[5200];
	if (strlen(arg) >= sizeof text)
		return cli_usage_error(CMD, "'%s' is too long", arg);
	snprintf(text, sizeof text, "%s", arg);
	char *at = strrchr(text, '@'), *eq;
	r->evals = evals > 0 ? evals : 300;
	if (at && at[1] && strspn(at + 1, "0123456789") == strlen(at + 1)) {
		if (cli_parse_int(CMD, "MAP@N", at + 1, 1, 100000000, &r->evals))
			return CLI_USAGE;
		*at = 0;
	}
	if ((eq = strchr(text, '=')))
		*eq++ = 0;
	if (strlen(text) >= sizeof r->map || (eq && strlen(eq) >= sizeof r->program))
		return cli_usage_error(CMD, "'%s' is too long", arg);
	snprintf(r->map, sizeof r->map, "%s", text);
	snprintf(r->program, sizeof r->program, "%s", eq ? eq : "");
	if (eq && access(r->program, R_OK))
		return cli_usage_error(CMD, "%s: cannot read the program %s", r->map, r->program);
	return CLI_OK;
}

/* The default runs, with --evals N (when > 0) as every budget. */
static int default_set(long evals, run *runs, int *n)
{
	for (*n = 0; *n < (int)(sizeof default_runs / sizeof default_runs[0]); (*n)++) {
		run *r = &runs[*n];
		snprintf(r->map, sizeof r->map, "%s", default_runs[*n].map);
		if (shipped(default_runs[*n].program, r->program, sizeof r->program)) {
			fprintf(stderr, "microsynth %s: no shipped program %s beside this build; give MAP=PROGRAM\n", CMD,
				default_runs[*n].program);
			return CLI_FAIL;
		}
		r->evals = evals > 0 ? evals : default_runs[*n].evals;
	}
	return CLI_OK;
}

int cmd_bench_field(int argc, char **argv)
{
	const char *args[MAX_MAPS], *old = NULL;
	static run runs[MAX_MAPS];
	char self[4096], dir[] = "/tmp/microsynth-bench-field-XXXXXX";
	long evals = 0, seed = 1, repeat = 1;
	int n_maps = 0, equal = 1, rc;
	double worst = 0;

	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			cmd_bench_field_usage(stdout);
			return CLI_OK;
		}
		if (!strcmp(argv[i], "--field"))
			continue;
		if (!strcmp(argv[i], "--old") && i + 1 < argc)
			old = argv[++i];
		else if (!strcmp(argv[i], "--evals") && i + 1 < argc) {
			if (cli_parse_int(CMD, "--evals", argv[++i], 1, 100000000, &evals))
				return CLI_USAGE;
		} else if (!strcmp(argv[i], "--repeat") && i + 1 < argc) {
			if (cli_parse_int(CMD, "--repeat", argv[++i], 1, 100, &repeat))
				return CLI_USAGE;
		} else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
			if (cli_parse_int(CMD, "--seed", argv[++i], 0, 2147483647, &seed))
				return CLI_USAGE;
		} else if (argv[i][0] == '-')
			return cli_usage_error(CMD, "unknown option '%s'", argv[i]);
		else if (n_maps < MAX_MAPS)
			args[n_maps++] = argv[i];
		else
			return cli_usage_error(CMD, "at most %d maps", MAX_MAPS);
	}
	if (old && access(old, X_OK) != 0)
		return cli_usage_error(CMD, "--old %s: not an executable", old);
	for (int i = 0; i < n_maps; i++)
		if ((rc = run_arg(args[i], evals, &runs[i])))
			return rc;
	if (!n_maps && (rc = default_set(evals, runs, &n_maps)))
		return rc;
	ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
	if (len <= 0 || (size_t)len >= sizeof self - 1) {
		fprintf(stderr, "microsynth %s: cannot find this executable\n", CMD);
		return CLI_FAIL;
	}
	self[len] = 0;
	if (!mkdtemp(dir)) {
		fprintf(stderr, "microsynth %s: mkdtemp: %s\n", CMD, strerror(errno));
		return CLI_FAIL;
	}
	printf("map evals new_cpu_s new_evals_per_s%s\n",
	       old ? " old_cpu_s old_evals_per_s speedup records_equal new_spread old_spread" : " new_spread");
	for (int i = 0; i < n_maps; i++) {
		char ck[2][4200], out[2][4200], log[2][4200];
		double cpu[2] = { 0, 0 }, most[2] = { 0, 0 }; /* each build's least and most CPU time */
		int same = 1;
		for (int k = 0; k < 2; k++) {
			snprintf(ck[k], sizeof ck[k], "%s/%d.%s.ckpt", dir, i, k ? "old" : "new");
			snprintf(out[k], sizeof out[k], "%s/%d.%s.ms", dir, i, k ? "old" : "new");
			snprintf(log[k], sizeof log[k], "%s/%d.%s.log", dir, i, k ? "old" : "new");
		}
		const run *r = &runs[i];
		const char *exe[2] = { self, old };
		for (long t = 0; t < repeat; t++)
			for (int j = 0; j < (old ? 2 : 1); j++) {
				int k = old ? (int)((j + t) % 2) : 0; /* turns alternate who runs first */
				double c;
				if (run_search(exe[k], r, seed, ck[k], out[k], log[k], &c))
					return CLI_FAIL;
				cpu[k] = t == 0 || c < cpu[k] ? c : cpu[k];
				most[k] = c > most[k] ? c : most[k];
				if (old && j == 1)
					same &= same_records(ck[0], ck[1]);
			}
		printf("%s %ld %.2f %.1f", r->map, r->evals, cpu[0], r->evals / (cpu[0] > 0 ? cpu[0] : 1e-9));
		if (old) {
			double s = cpu[0] > 0 ? cpu[1] / cpu[0] : 0;
			equal &= same;
			worst = i == 0 || s < worst ? s : worst;
			printf(" %.2f %.1f %.2f %d", cpu[1], r->evals / (cpu[1] > 0 ? cpu[1] : 1e-9), s, same);
		}
		/* the same search's most over least CPU time: what this machine's noise did to the figures */
		for (int k = 0; k < (old ? 2 : 1); k++)
			printf(" %.2f", cpu[k] > 0 ? most[k] / cpu[k] : 0);
		printf("\n");
		fflush(stdout);
		for (int k = 0; k < 2; k++) {
			unlink(ck[k]);
			unlink(out[k]);
			unlink(log[k]);
		}
	}
	rmdir(dir);
	printf("speedup=%.2f records_equal=%d maps=%d\n", old ? worst : 0.0, old ? equal : 1, n_maps);
	return old && !equal ? CLI_FAIL : CLI_OK;
}
