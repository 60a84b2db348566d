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

static int is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The paper programs: --paper DIR, $MS_SHARED_DIR/programs/paper, or the
 * shared folder beside the checkout the executable was built from. */
static int find_paper(const char *opt, char *out, size_t size)
{
	if (opt) {
		snprintf(out, size, "%s", opt);
		return is_dir(out) ? 0 : -1;
	}
	return cli_shared_path("programs/paper", out, size) || !is_dir(out) ? -1 : 0;
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
	ms_rts_state_free(s);
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

/* The options of 'bench dsl'. */
typedef struct bench_dsl_opts {
	long repeat, nrandom, seed;
	const char *paper_opt;
	const char *maps[16];
	int from[16], to[16], nmaps;
} bench_dsl_opts;

/* CLI_OK, or the exit code after a usage error. */
static int bench_dsl_args(int argc, char **argv, bench_dsl_opts *opt)
{
	*opt = (bench_dsl_opts){ .repeat = 30, .nrandom = 4, .seed = 1 };
	for (int i = 2; i < argc; i++) {
		const char *o = argv[i];
		if (!strcmp(o, "--repeat")) {
			if (cli_parse_int("bench", o, i + 1 < argc ? argv[++i] : NULL, 1, 1000000, &opt->repeat))
				return CLI_USAGE;
		} else if (!strcmp(o, "--random")) {
			if (cli_parse_int("bench", o, i + 1 < argc ? argv[++i] : NULL, 0, 8, &opt->nrandom))
				return CLI_USAGE;
		} else if (!strcmp(o, "--seed")) {
			if (cli_parse_int("bench", o, i + 1 < argc ? argv[++i] : NULL, 0, 2147483647L, &opt->seed))
				return CLI_USAGE;
		} else if (!strcmp(o, "--paper")) {
			if (i + 1 >= argc)
				return cli_usage_error("bench", "--paper needs a directory");
			opt->paper_opt = argv[++i];
		} else if (o[0] == '-') {
			bench_dsl_usage(stderr);
			return cli_usage_error("bench", "unknown option '%s'", o);
		} else if (opt->nmaps < 16) {
			opt->maps[opt->nmaps] = o;
			opt->from[opt->nmaps] = 300;
			opt->to[opt->nmaps++] = 800;
		}
	}
	if (opt->nmaps == 0)
		for (size_t i = 0; i < sizeof(default_maps) / sizeof(default_maps[0]); i++) {
			opt->maps[opt->nmaps] = default_maps[i].path;
			opt->from[opt->nmaps] = default_maps[i].from;
			opt->to[opt->nmaps++] = default_maps[i].to;
		}
	return CLI_OK;
}

/* The setup and the programs measured. */
typedef struct bench_dsl_run {
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_dsl_grammar *g;
	ms_dsl_prog *progs[MAX_PROGS];
	char *names[MAX_PROGS];
	int nprogs;
} bench_dsl_run;

/* The paper programs (if found) and the random ones; a CLI code. */
static int bench_dsl_programs(bench_dsl_run *br, const bench_dsl_opts *opt)
{
	char paper[4096];
	if (find_paper(opt->paper_opt, paper, sizeof(paper)) == 0) {
		for (int i = 0; i < 4; i++) {
			char path[4300];
			snprintf(path, sizeof(path), "%s/%s", paper, paper_files[i]);
			if (ms_dsl_prog_new(br->ctx, &br->progs[br->nprogs], br->g) ||
			    ms_rts_dsl_parse_file(br->progs[br->nprogs], path, 0)) {
				fprintf(stderr, "microsynth bench dsl: %s\n", ms_ctx_last_error(br->ctx));
				ms_dsl_prog_free(br->progs[br->nprogs]);
				return CLI_USAGE;
			}
			br->names[br->nprogs++] = strdup(paper_files[i]);
		}
	} else {
		fprintf(stderr, "microsynth bench dsl: no paper programs (%s); random programs only\n",
			opt->paper_opt ? opt->paper_opt : "set MS_SHARED_DIR or --paper");
	}
	ms_jrandom rng;
	ms_jrandom_init(&rng, opt->seed);
	for (int k = 0; k < opt->nrandom && br->nprogs < MAX_PROGS;) {
		char label[64];
		ms_dsl_prog **pr = &br->progs[br->nprogs];
		if (ms_dsl_prog_new(br->ctx, pr, br->g) || ms_rts_dsl_generate(*pr, &rng, 9))
			return CLI_FAIL;
		/* only programs the reference interpreter can run on every state */
		if (ms_rts_dsl_check_bound(*pr, NULL)) {
			ms_dsl_prog_free(*pr);
			continue;
		}
		snprintf(label, sizeof(label), "random-%d (seed %ld)", ++k, opt->seed);
		br->names[br->nprogs++] = strdup(label);
	}
	if (br->nprogs == 0) {
		fprintf(stderr, "microsynth bench dsl: no programs\n");
		return CLI_USAGE;
	}
	return CLI_OK;
}

/* Microseconds of CPU per decision of `it` over the states: the median of CHUNKS chunks of `repeat` passes. */
static int bench_dsl_time(const bench_dsl_run *br, ms_rts_dsl_interp *it, ms_rts_state **states, int nstates,
			  ms_rts_pair *pa, int max, long repeat, long *decisions, double *us)
{
	double chunk_us[CHUNKS];
	int n, rc = CLI_OK;
	/* warm-up: caches and scratch memory */
	for (int k = 0; k < nstates; k++)
		for (int p = 0; p < 2; p++)
			ms_rts_dsl_decide(it, p, states[k], pa, max, &n);
	for (int ch = 0; ch < CHUNKS; ch++) {
		long before = *decisions;
		double t0 = cli_thread_cpu();
		for (long r = 0; r < repeat; r++)
			for (int k = 0; k < nstates; k++)
				for (int p = 0; p < 2; p++) {
					if (ms_rts_dsl_decide(it, p, states[k], pa, max, &n)) {
						fprintf(stderr, "microsynth bench dsl: %s\n", ms_ctx_last_error(br->ctx));
						rc = CLI_FAIL;
					}
					(*decisions)++;
				}
		double dt = cli_thread_cpu() - t0;
		chunk_us[ch] = dt * 1e6 / (double)(*decisions - before);
	}
	*us = cli_median(chunk_us, CHUNKS);
	return rc;
}

/* Times every program on map m's mid-game states; its median over programs in *map_us. A CLI code. */
static int bench_dsl_map(const bench_dsl_run *br, const bench_dsl_opts *opt, int m, double *map_us)
{
	char path[4608];
	ms_rts_state *states[MAX_STATES];
	int nstates = 0, units = 0, rc = CLI_OK;
	double per_prog[MAX_PROGS];
	const char *map = opt->maps[m];
	if (cli_resolve_map(map, path, sizeof(path)) ||
	    snapshots(br->ctx, br->utt, path, opt->from[m], opt->to[m], states, &nstates) || nstates == 0) {
		fprintf(stderr, "microsynth bench dsl: map %s: %s\n", map,
			ms_ctx_last_status(br->ctx) ? ms_ctx_last_error(br->ctx) : "not found or no mid-game state");
		return CLI_USAGE;
	}
	for (int k = 0; k < nstates; k++)
		units += ms_rts_state_unit_count(states[k]);
	int max = ms_rts_state_width(states[0]) * ms_rts_state_height(states[0]) + 1;
	ms_rts_pair *pa = malloc(sizeof(*pa) * (size_t)max);
	for (int i = 0; i < br->nprogs && pa && rc == CLI_OK; i++) {
		ms_rts_dsl_interp *it = NULL;
		long decisions = 0;
		if (ms_rts_dsl_interp_new(br->ctx, &it, br->progs[i], 0, NULL)) {
			rc = CLI_FAIL;
			break;
		}
		rc = bench_dsl_time(br, it, states, nstates, pa, max, opt->repeat, &decisions, &per_prog[i]);
		printf("%-34s %-28s %7d %7.1f %12ld %9.2f\n", map, br->names[i], nstates, (double)units / nstates,
		       decisions, per_prog[i]);
		ms_rts_dsl_interp_free(it);
	}
	free(pa);
	for (int k = 0; k < nstates; k++)
		ms_rts_state_free(states[k]);
	if (rc == CLI_OK) {
		*map_us = cli_median(per_prog, br->nprogs);
		printf("%-34s %-28s %7s %7s %12s %9.2f  ratio %.1f\n", map, "(median over programs)", "", "", "", *map_us,
		       JAVA_ANCHOR_US / *map_us);
	}
	return rc;
}

/* Prints the programs, times them on every map and prints the summary line; a CLI code. */
static int bench_dsl_maps(const bench_dsl_run *br, const bench_dsl_opts *opt)
{
	double map_us[16];
	int rc = CLI_OK;
	for (int i = 0; i < br->nprogs; i++) {
		char *s = NULL;
		ms_rts_dsl_print(br->progs[i], MS_RTS_DSL_FORM_JAVA, &s, NULL);
		printf("program %-24s %s\n", br->names[i], s ? s : "?");
		ms_ctx_mfree(br->ctx, s);
	}
	printf("%-34s %-28s %7s %7s %12s %9s\n", "map", "program", "states", "units", "decisions", "us/dec");
	for (int m = 0; m < opt->nmaps && rc == CLI_OK; m++)
		rc = bench_dsl_map(br, opt, m, &map_us[m]);
	if (rc == CLI_OK) {
		double us = cli_median(map_us, opt->nmaps), ratio = JAVA_ANCHOR_US / us;
		printf("maps=%d programs=%d repeat=%ld native_us=%.2f java_us=%.0f ratio=%.1f\n", opt->nmaps, br->nprogs,
		       opt->repeat, us, JAVA_ANCHOR_US, ratio);
	}
	return rc;
}

int cmd_bench_dsl(int argc, char **argv)
{
	bench_dsl_opts opt;
	int rc = bench_dsl_args(argc, argv, &opt);
	if (rc)
		return rc;
	bench_dsl_run br = { 0 };
	if (ms_ctx_new(&br.ctx, NULL) || ms_rts_utt_new(br.ctx, &br.utt, 2, 1) ||
	    ms_rts_dsl_grammar_new(br.ctx, &br.g, 0)) {
		fprintf(stderr, "microsynth bench dsl: setup failed\n");
		ms_ctx_free(br.ctx);
		return CLI_FAIL;
	}
	rc = bench_dsl_programs(&br, &opt);
	if (rc == CLI_OK)
		rc = bench_dsl_maps(&br, &opt);
	for (int i = 0; i < br.nprogs; i++) {
		ms_dsl_prog_free(br.progs[i]);
		free(br.names[i]);
	}
	ms_dsl_grammar_free(br.g);
	ms_rts_utt_free(br.utt);
	ms_ctx_free(br.ctx);
	return rc;
}
