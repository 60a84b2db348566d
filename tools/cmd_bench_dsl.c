/*
 * microsynth bench dsl: decision time of DSL programs (the interpreter and
 * its action layer, one getAction each) on mid-game states of four map
 * sizes. The states come from native LightRush vs HeavyRush matches,
 * sampled every 25 cycles in a window after the opening; each program
 * decides for both players on every state, many times over.
 *
 * The official jar has no dialect-A interpreter (its ai.synthesis classes
 * are dialect M, and the 2022 jar of the gym-microrts package lacks even
 * those), so there is nothing to run side by side: the ratio is against
 * the Java anchor of 75 microseconds per decision (the fastest measured),
 * ratio = 75 / native median, the median over maps of each map's median
 * over programs (each map's own ratio is printed too). Times are the
 * thread's CPU time, the median of 7 chunks of `repeat` passes over the
 * states, so that other processes on a shared machine count less.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "microsynth/rts_dsl.h"
#include "cli.h"

#define JAVA_ANCHOR_US 75.0
#define MAX_STATES 64
#define MAX_PROGS 16
#define CHUNKS 7

typedef struct bench_map {
	const char *path;
	int from, to; /* snapshot window (cycles) */
} bench_map;

static const bench_map default_maps[] = {
	{ "16x16/TwoBasesBarracks16x16.xml", 200, 500 },
	{ "24x24/basesWorkers24x24.xml", 400, 900 },
	{ "BWDistantResources32x32.xml", 400, 900 },
	{ "BroodWar/(4)BloodBath.scmB.xml", 800, 1400 },
};

static const char *const paper_files[] = { "sketch-sa-o-16x16.txt", "sketch-sa-o-24x24.txt", "sketch-sa-o-32x32.txt",
					    "sketch-sa-o-64x64.txt" };

/* CPU time of this thread: the machine may be shared, and a decision is
 * too short for wall-clock time not to count other processes' slices. */
static double thread_cpu(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(double), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The paper programs: --paper DIR, $MS_SHARED_DIR/programs/paper, or the
 * shared folder beside the checkout the executable was built from. */
static int find_paper(const char *opt, char *out, size_t size)
{
	const char *env = getenv("MS_SHARED_DIR");
	char dir[4096];

	if (opt) {
		snprintf(out, size, "%s", opt);
		return is_dir(out) ? 0 : -1;
	}
	if (env && *env) {
		snprintf(out, size, "%s/programs/paper", env);
		if (is_dir(out))
			return 0;
	}
	if (!cli_exe_dir(dir, sizeof(dir))) {
		static const char *const rel[] = { "/../../../shared/programs/paper", "/../../shared/programs/paper" };
		for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
			snprintf(out, size, "%s%s", dir, rel[i]);
			if (is_dir(out))
				return 0;
		}
	}
	return -1;
}

/* Mid-game snapshots of a LightRush vs HeavyRush match. */
static int snapshots(ms_ctx *ctx, const ms_rts_utt *utt, const char *path, int from, int to, ms_rts_state **out,
		     int *n)
{
	ms_rts_state *s = NULL;
	ms_bot *b[2] = { NULL, NULL };
	ms_rts_pair *pa = NULL;
	int max, rc, go = 0, cnt;

	*n = 0;
	if ((rc = ms_rts_state_load_map(ctx, &s, utt, path, 0)))
		return rc;
	max = ms_rts_state_width(s) * ms_rts_state_height(s) + 1;
	if (!(pa = malloc(sizeof(*pa) * (size_t)max)) || (rc = ms_bot_new(ctx, &b[0], "LightRush", utt, 0)) ||
	    (rc = ms_bot_new(ctx, &b[1], "HeavyRush", utt, 0)))
		goto done;
	while (!go && ms_rts_state_time(s) <= to && *n < MAX_STATES) {
		int t = ms_rts_state_time(s);
		if (t >= from && (t - from) % 25 == 0 && (rc = ms_rts_state_clone(ctx, &out[(*n)++], s)))
			goto done;
		for (int p = 0; p < 2; p++) {
			if ((rc = ms_bot_decide(b[p], p, s, pa, max, &cnt)) || (cnt && (rc = ms_rts_issue_safe(ctx, s, pa, cnt, NULL))))
				goto done;
		}
		if ((rc = ms_rts_cycle(ctx, s, &go)))
			goto done;
	}
done:
	free(pa);
	ms_bot_free(b[0]);
	ms_bot_free(b[1]);
	ms_rts_state_free(ctx, s);
	return rc;
}

static void bench_dsl_usage(FILE *out)
{
	fprintf(out, "Usage: microsynth bench dsl [--repeat R] [--paper DIR] [--random N] [--seed S] [MAP...]\n\n"
		     "Decision time per step of DSL programs (the paper programs of DIR, default\n"
		     "$MS_SHARED_DIR/programs/paper, plus N random programs of the reference\n"
		     "sampler, default 4) on mid-game states of each map (default: the maps of\n"
		     "the dissertation's experiments available in the harness cache, 16x16 to\n"
		     "64x64). Last line: ... native_us=X java_us=75 ratio=Y, Y = 75 / X, X the\n"
		     "median over maps of the median over programs of microseconds per decision.\n");
}

int cmd_bench_dsl(int argc, char **argv)
{
	long repeat = 30, nrandom = 4, seed = 1;
	const char *paper_opt = NULL;
	const char *maps[16];
	int from[16], to[16], nmaps = 0, nprogs = 0, rc = CLI_OK;
	char paper[4096], *names[MAX_PROGS];
	ms_ctx *ctx = NULL;
	ms_rts_utt *utt = NULL;
	ms_dsl_grammar *g = NULL;
	ms_dsl_prog *progs[MAX_PROGS];
	double map_us[16], map_ratio[16];

	for (int i = 2; i < argc; i++) {
		const char *o = argv[i];
		if (!strcmp(o, "--repeat")) {
			if (cli_parse_int("bench", o, i + 1 < argc ? argv[++i] : NULL, 1, 1000000, &repeat))
				return CLI_USAGE;
		} else if (!strcmp(o, "--random")) {
			if (cli_parse_int("bench", o, i + 1 < argc ? argv[++i] : NULL, 0, 8, &nrandom))
				return CLI_USAGE;
		} else if (!strcmp(o, "--seed")) {
			if (cli_parse_int("bench", o, i + 1 < argc ? argv[++i] : NULL, 0, 2147483647L, &seed))
				return CLI_USAGE;
		} else if (!strcmp(o, "--paper")) {
			if (i + 1 >= argc)
				return cli_usage_error("bench", "--paper needs a directory");
			paper_opt = argv[++i];
		} else if (o[0] == '-') {
			bench_dsl_usage(stderr);
			return cli_usage_error("bench", "unknown option '%s'", o);
		} else if (nmaps < 16) {
			maps[nmaps] = o;
			from[nmaps] = 300;
			to[nmaps++] = 800;
		}
	}
	if (nmaps == 0)
		for (size_t i = 0; i < sizeof(default_maps) / sizeof(default_maps[0]); i++) {
			maps[nmaps] = default_maps[i].path;
			from[nmaps] = default_maps[i].from;
			to[nmaps++] = default_maps[i].to;
		}
	if (ms_ctx_new(&ctx, NULL) || ms_rts_utt_new(ctx, &utt, 2, 1) || ms_rts_dsl_grammar_new(ctx, &g, 0)) {
		fprintf(stderr, "microsynth bench dsl: setup failed\n");
		ms_ctx_free(ctx);
		return CLI_FAIL;
	}
	/* the programs */
	if (find_paper(paper_opt, paper, sizeof(paper)) == 0) {
		for (int i = 0; i < 4; i++) {
			char path[4300];
			snprintf(path, sizeof(path), "%s/%s", paper, paper_files[i]);
			if (ms_dsl_prog_new(ctx, &progs[nprogs], g) || ms_rts_dsl_parse_file(progs[nprogs], path, 0)) {
				fprintf(stderr, "microsynth bench dsl: %s\n", ms_ctx_last_error(ctx));
				ms_dsl_prog_free(progs[nprogs]);
				rc = CLI_USAGE;
				goto done;
			}
			names[nprogs++] = strdup(paper_files[i]);
		}
	} else {
		fprintf(stderr, "microsynth bench dsl: no paper programs (%s); random programs only\n",
			paper_opt ? paper_opt : "set MS_SHARED_DIR or --paper");
	}
	{
		ms_jrandom rng;
		ms_jrandom_init(&rng, seed);
		for (int k = 0; k < nrandom && nprogs < MAX_PROGS;) {
			char label[64];
			if (ms_dsl_prog_new(ctx, &progs[nprogs], g) || ms_rts_dsl_generate(progs[nprogs], &rng, 9)) {
				rc = CLI_FAIL;
				goto done;
			}
			/* only programs the reference interpreter can run on every state */
			if (ms_rts_dsl_check_bound(progs[nprogs], NULL)) {
				ms_dsl_prog_free(progs[nprogs]);
				continue;
			}
			snprintf(label, sizeof(label), "random-%d (seed %ld)", ++k, seed);
			names[nprogs++] = strdup(label);
		}
	}
	if (nprogs == 0) {
		fprintf(stderr, "microsynth bench dsl: no programs\n");
		rc = CLI_USAGE;
		goto done;
	}
	for (int i = 0; i < nprogs; i++) {
		char *s = NULL;
		ms_rts_dsl_print(progs[i], MS_RTS_DSL_FORM_JAVA, &s, NULL);
		printf("program %-24s %s\n", names[i], s ? s : "?");
		ms_ctx_mfree(ctx, s);
	}
	printf("%-34s %-28s %7s %7s %12s %9s\n", "map", "program", "states", "units", "decisions", "us/dec");
	for (int m = 0; m < nmaps && rc == CLI_OK; m++) {
		char path[4608];
		ms_rts_state *states[MAX_STATES];
		int nstates = 0, max, units = 0;
		double per_prog[MAX_PROGS];
		ms_rts_pair *pa;
		if (cli_resolve_map(maps[m], path, sizeof(path)) ||
		    snapshots(ctx, utt, path, from[m], to[m], states, &nstates) || nstates == 0) {
			fprintf(stderr, "microsynth bench dsl: map %s: %s\n", maps[m],
				ms_ctx_last_status(ctx) ? ms_ctx_last_error(ctx) : "not found or no mid-game state");
			rc = CLI_USAGE;
			break;
		}
		for (int k = 0; k < nstates; k++)
			units += ms_rts_state_unit_count(states[k]);
		max = ms_rts_state_width(states[0]) * ms_rts_state_height(states[0]) + 1;
		pa = malloc(sizeof(*pa) * (size_t)max);
		for (int i = 0; i < nprogs && pa && rc == CLI_OK; i++) {
			ms_rts_dsl_interp *it = NULL;
			long decisions = 0;
			double t0, dt, chunk_us[CHUNKS];
			int n;
			if (ms_rts_dsl_interp_new(ctx, &it, progs[i], 0, NULL)) {
				rc = CLI_FAIL;
				break;
			}
			/* warm-up: caches and scratch memory */
			for (int k = 0; k < nstates; k++)
				for (int p = 0; p < 2; p++)
					ms_rts_dsl_decide(it, p, states[k], pa, max, &n);
			/* CHUNKS timed chunks of `repeat` passes; the median chunk counts */
			for (int ch = 0; ch < CHUNKS; ch++) {
				long before = decisions;
				t0 = thread_cpu();
				for (long r = 0; r < repeat; r++)
					for (int k = 0; k < nstates; k++)
						for (int p = 0; p < 2; p++) {
							if (ms_rts_dsl_decide(it, p, states[k], pa, max, &n)) {
								fprintf(stderr, "microsynth bench dsl: %s\n", ms_ctx_last_error(ctx));
								rc = CLI_FAIL;
							}
							decisions++;
						}
				dt = thread_cpu() - t0;
				chunk_us[ch] = dt * 1e6 / (double)(decisions - before);
			}
			per_prog[i] = median(chunk_us, CHUNKS);
			printf("%-34s %-28s %7d %7.1f %12ld %9.2f\n", maps[m], names[i], nstates,
			       (double)units / nstates, decisions, per_prog[i]);
			ms_rts_dsl_interp_free(it);
		}
		free(pa);
		for (int k = 0; k < nstates; k++)
			ms_rts_state_free(ctx, states[k]);
		if (rc == CLI_OK) {
			map_us[m] = median(per_prog, nprogs);
			map_ratio[m] = JAVA_ANCHOR_US / map_us[m];
			printf("%-34s %-28s %7s %7s %12s %9.2f  ratio %.1f\n", maps[m], "(median over programs)", "", "",
			       "", map_us[m], map_ratio[m]);
		}
	}
	if (rc == CLI_OK) {
		double us = median(map_us, nmaps), ratio = JAVA_ANCHOR_US / us;
		printf("maps=%d programs=%d repeat=%ld native_us=%.2f java_us=%.0f ratio=%.1f\n", nmaps, nprogs, repeat, us,
		       JAVA_ANCHOR_US, ratio);
	}
done:
	for (int i = 0; i < nprogs; i++) {
		ms_dsl_prog_free(progs[i]);
		free(names[i]);
	}
	ms_dsl_grammar_free(g);
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
	return rc;
}
