/*
 * microsynth bench engine: the native engine and the official Java engine
 * replay the same recorded matches (the official traces) in one run; per
 * map, cycles per second of each, and the median ratio native / Java.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "microsynth/bots.h"
#include "microsynth/microrts.h"
#include "cli.h"
#include "edition.h"


typedef struct map_row {
	char name[256];
	double native_cycles, native_s, java_cycles, java_s;
} map_row;

static map_row *row_for(map_row *rows, int *n, const char *path)
{
	char name[256];

	bench_trace_map(path, name, sizeof(name));
	for (int i = 0; i < *n; i++)
		if (!strcmp(rows[i].name, name))
			return &rows[i];
	memset(&rows[*n], 0, sizeof(rows[*n]));
	snprintf(rows[*n].name, sizeof(rows[*n].name), "%s", name);
	return &rows[(*n)++];
}

/* Runs the Java side and adds its timings to the rows. */
static int run_java(char **files, int nfiles, int repeat, int warmup, map_row *rows, int *nrows)
{
	char rep[16], warm[16], line[8192];
	const char **args = calloc((size_t)nfiles + 2, sizeof(*args));
	FILE *in;
	pid_t pid;
	int n = 0;

	if (!args)
		return -1;
	snprintf(rep, sizeof(rep), "%d", repeat);
	snprintf(warm, sizeof(warm), "%d", warmup);
	args[n++] = rep;
	args[n++] = warm;
	for (int i = 0; i < nfiles; i++)
		args[n++] = files[i];
	in = bench_java_open("ai.microsynth.bench.ReplayBench", args, n, &pid);
	free(args);
	if (!in)
		return -1;
	while (fgets(line, sizeof(line), in)) {
		char path[4096];
		double cycles, nanos;
		if (sscanf(line, "trace %4095s cycles %lf nanos %lf", path, &cycles, &nanos) == 3) {
			map_row *r = row_for(rows, nrows, path);
			r->java_cycles += cycles;
			r->java_s += nanos * 1e-9;
		}
	}
	return bench_java_close(in, pid);
}

void cmd_bench_usage(FILE *out)
{
	fprintf(out, "Usage: microsynth bench bots [--repeat N] [--warmup N] [--max-cycles N]\n"
		     "                            [--edition 2022|2023] [--bots LIST] [--against LIST] MAP...\n"
		     "       microsynth bench engine [--repeat N] [--warmup N] [--native-only] TRACE_PATH...\n"
		     "       microsynth bench fair [options]     (engine and bots vs the jar, the JVM at its best:\n"
		     "                                           best repetition by thread CPU after a quiet JIT;\n"
		     "                                           below)\n"
		     "       microsynth bench dsl [options]      (DSL decision time per step; see `bench dsl --help`)\n"
		     "       microsynth bench synth [options]    (synthesis matches: native vs hosted JVM, CoacAI,\n"
		     "                                           the JNI path's overhead; `bench synth --help`)\n"
		     "       microsynth bench synth --field [options] (evaluations per CPU second against the native\n"
		     "                                           field per map size, this build vs --old EXE)\n"
		     "       microsynth bench synth --mpi [options] (a synthesis on 1, 2, 4 MPI ranks side by\n"
		     "                                           side; below)\n"
		     "       microsynth bench bridge [options]   (socket round trip, ours vs the jar's server;\n"
		     "                                           see `microsynth bench bridge --help`)\n\n"
		     "bots: every ordered pairing of --bots (default WorkerRush,LightRush,HeavyRush,\n"
		     "RangedRush), or with --against each of --bots against each of its list in both\n"
		     "seats (e.g. --bots CoacAI --against WorkerRush,LightRush,HeavyRush,RangedRush),\n"
		     "on each map (table 2), played natively and by the official engine (one JVM,\n"
		     "warmed up, maps loaded before timing); cycles/s per map and pairing for both.\n"
		     "The native bots play the harness's edition unless --edition names one.\n"
		     "Last line: ratio=X, the median over map-pairings of native / Java cycles/s.\n"
		     "The line before it, cpu_ratio=Y, is the same over the CPU time of the thread\n"
		     "that plays (steadier on a busy machine; the JVM's collector and compiler\n"
		     "threads are left out of it).\n\n"
		     "engine:\n"
		     "Replays the same official traces (zips; directories are searched) in the\n"
		     "native engine and in the official Java engine (one JVM, warmed up, traces\n"
		     "parsed before timing), then prints cycles/s per map for both.\n"
		     "Last line: ratio=X, the median over maps of native / Java cycles per second.\n"
		     "Paths with spaces are not supported on the Java side.\n\n"
		     "synth --mpi [--ranks 1,2,4] [--threads K] [--mpirun PROG] [--dir DIR] [-- SYNTH-OPTIONS...]:\n"
		     "one synthesis (default: --game microrts --map 16x16/basesWorkers16x16A.xml --opponent\n"
		     "WorkerRush --opponent LightRush --algo sa --neighbours 4 --evals 600 --seed 4 --no-harness)\n"
		     "with each number of ranks in turn: 1 is this binary alone, more run under PROG\n"
		     "--oversubscribe -np N (default mpirun); every rank gets --threads K (1). Per run: search\n"
		     "seconds and evaluations per second (the CSV log's last line), the speed-up over the first\n"
		     "run, and rank 0's account of the other ranks' tasks: bytes and microseconds (round trip,\n"
		     "evaluating, the rest communicating) per task and per evaluation. DIR keeps the runs' files;\n"
		     "each run's --csv and --progress-json (each serving rank's tasks) are named on stderr as it\n"
		     "starts, for `microsynth view --follow` while it runs.\n"
		     "Last line: same_program=yes|no speedup=X (the last run's) ranks=... threads=K; runs on an\n"
		     "evaluation budget that write different programs fail (exit 1).\n\n");
	cmd_bench_fair_usage(out);
}

/* Bytes of a state on an empty side x side map, and what a clone copies
 * with `units` units and as many pending actions on it. */
static void state_size(ms_ctx *ctx, int side, int units)
{
	char *xml = malloc((size_t)side * side + 4096 + (size_t)units * 160);
	size_t n;
	ms_rts_utt *utt;
	ms_rts_state *s;

	if (!xml || ms_rts_utt_new(ctx, &utt, 2, 1)) {
		free(xml);
		return;
	}
	n = (size_t)sprintf(xml, "<rts.PhysicalGameState width=\"%d\" height=\"%d\"><terrain>", side, side);
	memset(xml + n, '0', (size_t)side * side);
	n += (size_t)side * side;
	n += (size_t)sprintf(xml + n, "</terrain><players><rts.Player ID=\"0\" resources=\"5\"/>"
				      "<rts.Player ID=\"1\" resources=\"5\"/></players><units>");
	for (int i = 0; i < units; i++)
		n += (size_t)sprintf(xml + n, "<u type=\"Worker\" ID=\"%d\" player=\"%d\" x=\"%d\" y=\"%d\" "
					      "resources=\"0\" hitpoints=\"1\"/>", i, i % 2, i % side, i / side);
	n += (size_t)sprintf(xml + n, "</units></rts.PhysicalGameState>");
	if (ms_rts_state_from_map_xml(ctx, &s, utt, "size", xml, n, 0) == MS_OK) {
		printf("state %dx%d: block %zu bytes, a clone with %d units copies %zu bytes\n", side, side,
		       ms_rts_state_bytes(s), units, ms_rts_state_copied_bytes(s));
		ms_rts_state_free(s);
	}
	ms_rts_utt_free(utt);
	free(xml);
}

static int bench_engine(int argc, char **argv)
{
	long repeat = 20, warmup = 3;
	int native_only = 0;
	char **files = NULL;
	size_t nfiles = 0;
	ms_ctx *ctx;
	ms_rts_trace **traces;
	map_row *rows;
	int nrows = 0, i, first = -1;
	double *ratios, ratio;

	for (i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--repeat")) {
			if (cli_parse_int("bench", "--repeat", i + 1 < argc ? argv[++i] : NULL, 1, 100000, &repeat))
				return CLI_USAGE;
		} else if (!strcmp(argv[i], "--warmup")) {
			if (cli_parse_int("bench", "--warmup", i + 1 < argc ? argv[++i] : NULL, 0, 100000, &warmup))
				return CLI_USAGE;
		} else if (!strcmp(argv[i], "--native-only")) {
			native_only = 1;
		} else if (argv[i][0] == '-') {
			return cli_usage_error("bench", "unknown option '%s'", argv[i]);
		} else {
			first = i;
			break;
		}
	}
	if (first < 0)
		return cli_usage_error("bench", "no trace given");
	if (cli_collect_files(&files, &nfiles, argc, argv, first, ".zip", ".xml"))
		return CLI_USAGE;
	if (ms_ctx_new(&ctx, NULL))
		return CLI_FAIL;
	traces = calloc(nfiles, sizeof(*traces));
	rows = calloc(nfiles, sizeof(*rows));
	ratios = calloc(nfiles, sizeof(*ratios));
	if (!traces || !rows || !ratios)
		return CLI_FAIL;
	for (size_t k = 0; k < nfiles; k++) {
		if (ms_rts_trace_load(ctx, &traces[k], files[k])) {
			fprintf(stderr, "microsynth bench: %s\n", ms_ctx_last_error(ctx));
			return CLI_USAGE;
		}
	}
	/* Native: same protocol as the Java side, warm-up then timed repeats. */
	for (long w = 0; w < warmup; w++)
		for (size_t k = 0; k < nfiles; k++) {
			ms_rts_replay_result r;
			ms_rts_trace_replay(ctx, traces[k], &r);
		}
	for (size_t k = 0; k < nfiles; k++) {
		map_row *row = row_for(rows, &nrows, files[k]);
		double t0 = cli_now(), cycles = 0;
		for (long r = 0; r < repeat; r++) {
			ms_rts_replay_result res;
			if (ms_rts_trace_replay(ctx, traces[k], &res)) {
				fprintf(stderr, "microsynth bench: %s: %s\n", files[k], ms_ctx_last_error(ctx));
				return CLI_FAIL;
			}
			cycles += res.cycles;
		}
		row->native_s += cli_now() - t0;
		row->native_cycles += cycles;
	}
	if (native_only) {
		for (i = 0; i < nrows; i++)
			printf("%-48s %14.0f\n", rows[i].name, rows[i].native_cycles / rows[i].native_s);
		printf("maps=%d traces=%zu repeat=%ld\n", nrows, nfiles, repeat);
		return CLI_OK;
	}
	state_size(ctx, 8, 10);
	state_size(ctx, 64, 100);
	state_size(ctx, 128, 100);
	if (run_java(files, (int)nfiles, (int)repeat, (int)warmup, rows, &nrows)) {
		fprintf(stderr, "microsynth bench: the Java side failed\n");
		return CLI_FAIL;
	}
	printf("%-48s %14s %14s %8s\n", "map", "native cyc/s", "java cyc/s", "ratio");
	for (i = 0; i < nrows; i++) {
		double nat = rows[i].native_cycles / rows[i].native_s;
		double jav = rows[i].java_cycles / rows[i].java_s;
		ratios[i] = nat / jav;
		printf("%-48s %14.0f %14.0f %8.1f\n", rows[i].name, nat, jav, ratios[i]);
	}
	qsort(ratios, (size_t)nrows, sizeof(*ratios), cli_cmp_double);
	ratio = nrows % 2 ? ratios[nrows / 2] : (ratios[nrows / 2 - 1] + ratios[nrows / 2]) / 2;
	printf("maps=%d traces=%zu repeat=%ld ratio=%.1f\n", nrows, nfiles, repeat, ratio);
	for (size_t k = 0; k < nfiles; k++) {
		ms_rts_trace_free(traces[k]);
		free(files[k]);
	}
	free(files);
	free(traces);
	free(rows);
	free(ratios);
	ms_ctx_free(ctx);
	return CLI_OK;
}

static const char *const rushes[] = { "WorkerRush", "LightRush", "HeavyRush", "RangedRush" };

#define BENCH_MAX_BOTS 16

/* The pairings a bots benchmark plays: p0[k] against p1[k]. */
typedef struct bench_pairs {
	char p0[BENCH_MAX_BOTS * BENCH_MAX_BOTS * 2][32], p1[BENCH_MAX_BOTS * BENCH_MAX_BOTS * 2][32];
	char j0[BENCH_MAX_BOTS * BENCH_MAX_BOTS * 2][64], j1[BENCH_MAX_BOTS * BENCH_MAX_BOTS * 2][64]; /* Java classes */
	int n;
} bench_pairs;

/* Splits a comma-separated list of native bot names into out[]; 0 or -1
 * after a usage error. */
static int bench_bot_list(const char *opt, const char *arg, char out[][32], int *n)
{
	*n = 0;
	if (!arg || !*arg)
		return cli_usage_error("bench", "%s needs a comma-separated list of bots", opt), -1;
	for (const char *p = arg; *p;) {
		size_t len = strcspn(p, ",");
		if (*n == BENCH_MAX_BOTS || len == 0 || len >= 32)
			return cli_usage_error("bench", "%s: bad list '%s' (at most %d names)", opt, arg, BENCH_MAX_BOTS),
			       -1;
		memcpy(out[*n], p, len);
		out[*n][len] = '\0';
		if (!ms_bot_for_java_class(out[*n]))
			return cli_usage_error("bench", "%s: no native bot called '%s'", opt, out[*n]), -1;
		(*n)++;
		p += len;
		if (*p == ',')
			p++;
	}
	return 0;
}

/* Runs BotBench in one JVM; fills the cycles, wall seconds and thread CPU
 * seconds (-1: unknown) per job (map-major). */
static int run_java_bots(char **maps, int nmaps, const bench_pairs *pp, int repeat, int warmup, int max_cycles,
			 double *cyc, double *secs, double *cpu)
{
	char rep[16], warm[16], maxc[16], line[8192];
	int njobs = nmaps * pp->n, n = 0, rc;
	const char **args = calloc((size_t)njobs + 3, sizeof(*args));
	char **jobs = calloc((size_t)njobs, sizeof(*jobs));
	FILE *in = NULL;
	pid_t pid;

	if (!args || !jobs) {
		free(args);
		free(jobs);
		return -1;
	}
	snprintf(rep, sizeof(rep), "%d", repeat);
	snprintf(warm, sizeof(warm), "%d", warmup);
	snprintf(maxc, sizeof(maxc), "%d", max_cycles);
	args[n++] = rep;
	args[n++] = warm;
	args[n++] = maxc;
	rc = 0;
	for (int m = 0; m < nmaps && !rc; m++)
		for (int k = 0; k < pp->n && !rc; k++) {
			size_t len = strlen(maps[m]) + 160;
			char *job = malloc(len);
			if (!job) {
				rc = -1;
				break;
			}
			snprintf(job, len, "%s %s %s", maps[m], pp->j0[k], pp->j1[k]);
			jobs[m * pp->n + k] = job;
			args[n++] = job;
		}
	if (!rc)
		in = bench_java_open("ai.microsynth.bench.BotBench", args, n, &pid);
	if (in) {
		for (int j = 0; j < njobs && fgets(line, sizeof(line), in);) {
			const char *c = strstr(line, " cycles ");
			double cycles, nanos, cpu_nanos = -1;
			if (!strncmp(line, "match ", 6) && c &&
			    sscanf(c, " cycles %lf nanos %lf cpu %lf", &cycles, &nanos, &cpu_nanos) >= 2) {
				cyc[j] = cycles;
				secs[j] = nanos * 1e-9;
				cpu[j] = cpu_nanos < 0 ? -1 : cpu_nanos * 1e-9;
				j++;
			}
		}
		rc = bench_java_close(in, pid);
	} else {
		rc = -1;
	}
	for (int j = 0; j < njobs; j++)
		free(jobs[j]);
	free(jobs);
	free(args);
	return rc;
}

/* The options of 'bench bots'; maps are argv[first..argc). */
typedef struct bench_bots_opts {
	long repeat, warmup, max_cycles;
	int edition, nb, na, first;
	char botl[BENCH_MAX_BOTS][32], against[BENCH_MAX_BOTS][32];
} bench_bots_opts;

/* CLI_OK, or the exit code after a usage error. */
static int bench_bots_args(int argc, char **argv, bench_bots_opts *o)
{
	*o = (bench_bots_opts){ .repeat = 10, .warmup = 2, .max_cycles = 3000, .first = -1, .nb = 4 };
	o->edition = edition_of_harness(NULL);
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--repeat")) {
			if (cli_parse_int("bench", "--repeat", i + 1 < argc ? argv[++i] : NULL, 1, 100000, &o->repeat))
				return CLI_USAGE;
		} else if (!strcmp(argv[i], "--warmup")) {
			if (cli_parse_int("bench", "--warmup", i + 1 < argc ? argv[++i] : NULL, 0, 100000, &o->warmup))
				return CLI_USAGE;
		} else if (!strcmp(argv[i], "--max-cycles")) {
			if (cli_parse_int("bench", "--max-cycles", i + 1 < argc ? argv[++i] : NULL, 1, 1000000,
					  &o->max_cycles))
				return CLI_USAGE;
		} else if (!strcmp(argv[i], "--edition")) {
			if (edition_arg("bench", i + 1 < argc ? argv[++i] : NULL, &o->edition))
				return CLI_USAGE;
		} else if (!strcmp(argv[i], "--bots")) {
			if (bench_bot_list("--bots", i + 1 < argc ? argv[++i] : NULL, o->botl, &o->nb))
				return CLI_USAGE;
		} else if (!strcmp(argv[i], "--against")) {
			if (bench_bot_list("--against", i + 1 < argc ? argv[++i] : NULL, o->against, &o->na))
				return CLI_USAGE;
		} else if (argv[i][0] == '-') {
			return cli_usage_error("bench", "unknown option '%s'", argv[i]);
		} else {
			o->first = i;
			break;
		}
	}
	if (o->first < 0)
		return cli_usage_error("bench", "no map given");
	return CLI_OK;
}

/* Every ordered pairing of --bots, or each of them against each of --against in both seats. */
static void bench_bots_pairs(bench_bots_opts *o, bench_pairs *pp)
{
	if (o->nb == 4 && !o->botl[0][0])
		for (int k = 0; k < 4; k++)
			snprintf(o->botl[k], sizeof(o->botl[k]), "%s", rushes[k]);
	int na = o->na;
	pp->n = 0;
	for (int a = 0; a < o->nb; a++)
		for (int b = 0; b < (na ? na : o->nb); b++)
			for (int seat = 0; seat < (na ? 2 : 1); seat++) {
				const char *x = o->botl[a], *y = na ? o->against[b] : o->botl[b];
				snprintf(pp->p0[pp->n], sizeof(pp->p0[0]), "%s", seat ? y : x);
				snprintf(pp->p1[pp->n], sizeof(pp->p1[0]), "%s", seat ? x : y);
				pp->n++;
			}
}

/* Per job (map m, pairing k at m * pairings + k): cycles, wall and CPU seconds of each side; ratios. */
typedef struct bench_times {
	double *ncyc, *nsec, *ncpu, *jcyc, *jsec, *jcpu, *ratios, *cpu_ratios;
} bench_times;

/* Times every pairing natively on one map (its Java classes noted in pp); a CLI code. */
static int bench_native_map(ms_ctx *ctx, ms_rts_utt *utt, const bench_bots_opts *o, bench_pairs *pp,
			    const ms_rts_state *initial, ms_rts_state *s, int m, bench_times *bt)
{
	int rc = CLI_OK;
	for (int k = 0; k < pp->n && rc == CLI_OK; k++) {
		ms_bot *bots[2];
		double t0 = 0, c0 = 0;
		if (ms_bot_new(ctx, &bots[0], pp->p0[k], utt, 0) || ms_bot_new(ctx, &bots[1], pp->p1[k], utt, 0) ||
		    ms_bot_set_edition(bots[0], o->edition) || ms_bot_set_edition(bots[1], o->edition))
			return CLI_FAIL;
		snprintf(pp->j0[k], sizeof(pp->j0[k]), "%s", bots[0]->ops->java_class);
		snprintf(pp->j1[k], sizeof(pp->j1[k]), "%s", bots[1]->ops->java_class);
		for (long r = -o->warmup; r < o->repeat && rc == CLI_OK; r++) {
			if (r == 0) {
				t0 = cli_now();
				c0 = cli_thread_cpu();
			}
			ms_rts_state_copy(s, initial);
			ms_bot_reset(bots[0]);
			ms_bot_reset(bots[1]);
			if (ms_bot_play(ctx, s, bots, (int)o->max_cycles, 0, NULL, NULL)) {
				fprintf(stderr, "microsynth bench: %s\n", ms_ctx_last_error(ctx));
				rc = CLI_FAIL;
			}
			if (r >= 0)
				bt->ncyc[m * pp->n + k] += ms_rts_state_time(s);
		}
		bt->nsec[m * pp->n + k] = cli_now() - t0;
		bt->ncpu[m * pp->n + k] = cli_thread_cpu() - c0;
		ms_bot_free(bots[0]);
		ms_bot_free(bots[1]);
	}
	return rc;
}

/* Loads each map (its path kept in maps[]) and times it natively; a CLI code. */
static int bench_native(int argc, char **argv, const bench_bots_opts *o, bench_pairs *pp, char **maps,
			bench_times *bt, ms_ctx *ctx, ms_rts_utt *utt)
{
	int rc = CLI_OK;
	for (int m = 0; m < argc - o->first && rc == CLI_OK; m++) {
		char path[4096];
		ms_rts_state *initial, *s;
		if (cli_resolve_map(argv[o->first + m], path, sizeof(path)) ||
		    ms_rts_state_load_map(ctx, &initial, utt, path, 0)) {
			fprintf(stderr, "microsynth bench: map %s: %s\n", argv[o->first + m],
				ms_ctx_last_status(ctx) ? ms_ctx_last_error(ctx) : "not found");
			return CLI_USAGE;
		}
		maps[m] = strdup(path);
		if (ms_rts_state_clone(ctx, &s, initial)) {
			ms_rts_state_free(initial);
			return CLI_FAIL;
		}
		rc = bench_native_map(ctx, utt, o, pp, initial, s, m, bt);
		ms_rts_state_free(s);
		ms_rts_state_free(initial);
	}
	return rc;
}

static void bench_bots_report(char **maps, int nmaps, const bench_pairs *pp, long repeat, bench_times *bt)
{
	int ncpu_ratios = 0, njobs = nmaps * pp->n;
	printf("%-34s %-24s %14s %14s %8s %8s\n", "map", "pairing", "native cyc/s", "java cyc/s", "ratio", "cpu");
	for (int j = 0; j < njobs; j++) {
		double nat = bt->ncyc[j] / bt->nsec[j], jav = bt->jcyc[j] / bt->jsec[j];
		char pairing[80], cpu[16] = "-";
		const char *base = strrchr(maps[j / pp->n], '/');
		snprintf(pairing, sizeof(pairing), "%s-%s", pp->p0[j % pp->n], pp->p1[j % pp->n]);
		bt->ratios[j] = nat / jav;
		if (bt->jcpu[j] > 0 && bt->ncpu[j] > 0) {
			bt->cpu_ratios[ncpu_ratios] = (bt->ncyc[j] / bt->ncpu[j]) / (bt->jcyc[j] / bt->jcpu[j]);
			snprintf(cpu, sizeof(cpu), "%.1f", bt->cpu_ratios[ncpu_ratios++]);
		}
		printf("%-34s %-24s %14.0f %14.0f %8.1f %8s\n", base ? base + 1 : maps[j / pp->n], pairing, nat, jav,
		       bt->ratios[j], cpu);
	}
	/* CPU time of the playing thread on both sides: steadier than wall
	 * time on a busy machine, and it leaves out the JVM's collector and
	 * compiler threads (which only lowers the Java side's cost). */
	if (ncpu_ratios)
		printf("cpu_ratio=%.1f (median of native / Java over the playing thread's CPU time)\n",
		       cli_median(bt->cpu_ratios, ncpu_ratios));
	printf("maps=%d pairings=%d repeat=%ld ratio=%.1f\n", nmaps, pp->n, repeat, cli_median(bt->ratios, njobs));
}

static int bench_bots(int argc, char **argv)
{
	bench_bots_opts o;
	int rc = bench_bots_args(argc, argv, &o);
	if (rc)
		return rc;
	bench_pairs *pp = calloc(1, sizeof(*pp));
	if (!pp)
		return CLI_FAIL;
	bench_bots_pairs(&o, pp);
	int nmaps = argc - o.first, njobs = nmaps * pp->n;
	char **maps = calloc((size_t)nmaps, sizeof(*maps));
	double *all = calloc((size_t)njobs * 8, sizeof(double));
	bench_times bt = { 0 };
	if (all)
		bt = (bench_times){ all, all + njobs, all + 2 * njobs, all + 3 * njobs, all + 4 * njobs,
				    all + 5 * njobs, all + 6 * njobs, all + 7 * njobs };
	ms_ctx *ctx = NULL;
	ms_rts_utt *utt = NULL;
	if (!maps || !all || ms_ctx_new(&ctx, NULL))
		rc = CLI_FAIL;
	else if (ms_rts_utt_new(ctx, &utt, 2, 1))
		rc = CLI_FAIL;
	else
		rc = bench_native(argc, argv, &o, pp, maps, &bt, ctx, utt);
	if (rc == CLI_OK && run_java_bots(maps, nmaps, pp, (int)o.repeat, (int)o.warmup, (int)o.max_cycles, bt.jcyc,
					  bt.jsec, bt.jcpu)) {
		fprintf(stderr, "microsynth bench: the Java side failed\n");
		rc = CLI_FAIL;
	}
	if (rc == CLI_OK)
		bench_bots_report(maps, nmaps, pp, o.repeat, &bt);
	for (int m = 0; maps && m < nmaps; m++)
		free(maps[m]);
	free(maps);
	free(all);
	free(pp);
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
	return rc;
}

int cmd_bench(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "engine"))
		return bench_engine(argc, argv);
	if (argc >= 2 && !strcmp(argv[1], "bots"))
		return bench_bots(argc, argv);
	if (argc >= 2 && !strcmp(argv[1], "fair"))
		return cmd_bench_fair(argc, argv);
	if (argc >= 2 && !strcmp(argv[1], "bridge"))
		return cmd_bench_bridge(argc, argv);
	if (argc >= 2 && !strcmp(argv[1], "synth")) {
		for (int i = 2; i < argc && strcmp(argv[i], "--"); i++)
			if (!strcmp(argv[i], "--mpi"))
				return cmd_bench_synth_mpi(argc, argv);
			else if (!strcmp(argv[i], "--field"))
				return cmd_bench_field(argc, argv);
		return cmd_bench_synth(argc, argv);
	}
	if (argc >= 2 && !strcmp(argv[1], "dsl"))
		return cmd_bench_dsl(argc, argv);
	return cli_usage_error("bench", "expected 'engine' or 'bots'");
}
