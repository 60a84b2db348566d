/*
 * microsynth bench fair: the native engine and bots against the official
 * jar's, under a protocol that gives the JVM its best case (issue 39, item 3).
 *
 * On two cores a JVM's wall clock is not its engine's cost: its compiler
 * and collector threads run beside the measured thread, a compile or a
 * collection lands in whichever repetition it falls on, and what one JVM
 * compiles differs from the next's. So both sides run the same jobs (trace
 * replays, bot matches); per part, several JVMs (JMH's forks) each warm up
 * until a whole round compiles nothing; every repetition is timed alone by
 * the CPU time of the thread that plays; Java is credited with its fastest
 * JVM's best repetition, and the native side, run between the JVMs so that
 * both sample the same stretch of a shared host's time, with its best. What
 * the JVM's other threads cost is printed beside it, not charged to Java.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "microsynth/bots.h"
#include "microsynth/microrts.h"
#include "core/vec.h"
#include "cli.h"
#include "edition.h"

#define CMD "bench fair"
#define FAIR_MAX_REPEAT 1000

/* The maps of `bench bots` and one 64x64 map: every size the issue names. */
static const char *const default_maps[] = {
	"8x8/basesWorkers8x8A.xml",   "16x16/TwoBasesBarracks16x16.xml",	"16x16/basesWorkers16x16A.xml",
	"24x24/basesWorkers24x24.xml", "DoubleGame24x24.xml",			"BWDistantResources32x32.xml",
	"BroodWar/(4)BloodBath.scmB.xml",
};
static const char *const rushes[] = { "WorkerRush", "LightRush", "HeavyRush", "RangedRush" };
static const char *const field_bots[] = { "CoacAI", "mayari" };

enum { JOB_TRACE, JOB_RUSHES, JOB_FIELD, JOB_KINDS };
static const char *const kind_name[] = { "engine", "bots", "field" };

/* One job, run alike on both sides. */
typedef struct fjob {
	int kind, w, h;
	char *path;	     /* the trace, or the map */
	char map[1024];	     /* what the figures are grouped by: the map, or a trace's map folder */
	char p0[32], p1[32]; /* native bots (matches) */
	char j0[64], j1[64]; /* the official classes they reproduce */
	ms_rts_trace *trace;
	/* per repetition: native cycles, decisions with a free unit; the best thread CPU seconds, wall extremes */
	double cycles, decisions, n_best, n_wall_best, n_wall_worst;
	int n_rounds; /* native rounds run: one before each JVM of its part and one after the last */
	/* Java's, from the fork whose best repetition ran fastest; the slowest fork's rate */
	double j_cycles, j_best, j_wall_best, j_wall_worst, j_rate_worst;
	int j_forks;
} fjob;

typedef struct fair_opts {
	long repeat, min_warm, max_warm, max_cycles, forks;
	int edition, engine, bots, field;
	const char *traces;
	int first; /* maps: argv[first..] (-1: the defaults) */
} fair_opts;

void cmd_bench_fair_usage(FILE *out)
{
	fprintf(out,
		"Usage: microsynth bench fair [--repeat N] [--forks N] [--min-warmup N] [--max-warmup N]\n"
		"                             [--max-cycles N] [--edition 2022|2023] [--only engine|bots|field]\n"
		"                             [--traces DIR] [MAP...]\n\n"
		"The native engine and bots against the official jar's, measured the way most favourable\n"
		"to the JVM, in one run: the engine replays official traces (default: every trace under\n"
		"the shared data's microrts/traces), the bots play matches on each MAP (default: the six\n"
		"maps of `bench bots` and (4)BloodBath.scmB, 8x8 to 64x64): `bots` the four rushes in\n"
		"every ordered pairing, `field` CoacAI and mayari against each rush in both seats.\n"
		"Protocol: per part, --forks JVMs (default 3) one after the other, as JMH forks: what a\n"
		"JVM compiles differs from run to run. Each runs whole rounds of the part's jobs untimed\n"
		"until a round compiles nothing (at least --min-warmup rounds, default 2; at most\n"
		"--max-warmup, default 8); then each job runs --repeat times (default 5), each repetition\n"
		"timed alone by the CPU time of the thread that plays and by the wall clock. Java gets\n"
		"each job's best repetition in its fastest fork; the native side (--min-warmup runs,\n"
		"then the same repetitions, before each JVM and after the last) its best repetition.\n"
		"Printed: per JVM, its warm-up rounds, the compiler's and collector's milliseconds inside\n"
		"the timed part and its process's CPU time against the playing thread's (the other\n"
		"threads' share is not charged to Java); per part and map size, the native cycles/s and\n"
		"decisions/s (a decision: a player with a unit free to act; a trace's decision points for\n"
		"the engine), the jar's cycles/s, the median ratio, and the medians over jobs of worst\n"
		"over best repetition (wall, spreadN and spreadJ) and of fastest over slowest fork (forksJ).\n"
		"Last line: engine_ratio, bots_ratio, field_ratio (median over maps of native / Java\n"
		"cycles per CPU second of the best repetition, a map's figure the median of its jobs)\n"
		"and ratio, the same over every map of every part.\n");
}

static int fair_args(int argc, char **argv, fair_opts *o)
{
	*o = (fair_opts){ .repeat = 5, .min_warm = 2, .max_warm = 8, .max_cycles = 3000, .forks = 3, .first = -1,
			  .engine = 1, .bots = 1, .field = 1 };
	o->edition = edition_of_harness(NULL);
	for (int i = 2; i < argc; i += 2) { /* every option takes a value */
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "--repeat")) {
			if (cli_parse_int(CMD, a, v, 1, FAIR_MAX_REPEAT, &o->repeat))
				return CLI_USAGE;
		} else if (!strcmp(a, "--forks")) {
			if (cli_parse_int(CMD, a, v, 1, 100, &o->forks))
				return CLI_USAGE;
		} else if (!strcmp(a, "--min-warmup")) {
			if (cli_parse_int(CMD, a, v, 0, 1000, &o->min_warm))
				return CLI_USAGE;
		} else if (!strcmp(a, "--max-warmup")) {
			if (cli_parse_int(CMD, a, v, 1, 1000, &o->max_warm))
				return CLI_USAGE;
		} else if (!strcmp(a, "--max-cycles")) {
			if (cli_parse_int(CMD, a, v, 1, 1000000, &o->max_cycles))
				return CLI_USAGE;
		} else if (!strcmp(a, "--edition")) {
			if (edition_arg(CMD, v, &o->edition))
				return CLI_USAGE;
		} else if (!strcmp(a, "--only")) {
			int k = v ? 0 : JOB_KINDS;
			while (k < JOB_KINDS && strcmp(v, kind_name[k]))
				k++;
			if (k == JOB_KINDS)
				return cli_usage_error(CMD, "--only takes engine, bots or field, not '%s'", v ? v : "");
			o->engine = k == JOB_TRACE;
			o->bots = k == JOB_RUSHES;
			o->field = k == JOB_FIELD;
		} else if (!strcmp(a, "--traces")) {
			if (!v)
				return cli_usage_error(CMD, "--traces needs a directory or file");
			o->traces = v;
		} else if (a[0] == '-') {
			return cli_usage_error(CMD, "unknown option '%s'", a);
		} else {
			o->first = i;
			break;
		}
	}
	if (o->min_warm > o->max_warm)
		return cli_usage_error(CMD, "--min-warmup %ld is above --max-warmup %ld", o->min_warm, o->max_warm);
	if (o->first >= 0 && !o->bots && !o->field)
		return cli_usage_error(CMD, "maps are played by the bots and field parts; --only engine replays traces "
					    "(--traces DIR), not '%s'", argv[o->first]);
	return CLI_OK;
}

/* Java splits its job lines at spaces: such a path cannot be passed. */
static int java_safe(const char *path)
{
	if (!strchr(path, ' '))
		return 0;
	fprintf(stderr, "microsynth %s: '%s': paths with spaces cannot be passed to the Java side\n", CMD, path);
	return -1;
}

static fjob *add_job(fjob **jobs, int *n, int *cap)
{
	if (ms_vec_grow(NULL, (void **)jobs, cap, *n + 1, sizeof(**jobs)))
		return NULL;
	memset(&(*jobs)[*n], 0, sizeof(fjob));
	return &(*jobs)[(*n)++];
}

/* The engine's jobs: every trace found; a CLI code. */
static int trace_jobs(ms_ctx *ctx, const fair_opts *o, fjob **jobs, int *n, int *cap)
{
	char dir[4096];
	char *argv1[1];
	char **files = NULL;
	size_t nfiles = 0;
	int rc = CLI_OK;

	if (o->traces)
		snprintf(dir, sizeof(dir), "%s", o->traces);
	else if (cli_shared_path("data/microrts/traces", dir, sizeof(dir))) {
		fprintf(stderr, "microsynth %s: no traces at %s (give --traces DIR or set MS_SHARED_DIR)\n", CMD, dir);
		return CLI_USAGE;
	}
	argv1[0] = dir;
	if (cli_collect_files(&files, &nfiles, 1, argv1, 0, ".zip", ".xml"))
		return CLI_USAGE;
	if (nfiles == 0) {
		fprintf(stderr, "microsynth %s: no trace (.zip or .xml) under %s\n", CMD, dir);
		rc = CLI_USAGE;
	}
	/* a job owns its path; the files after the first failure are only freed */
	for (size_t k = 0; k < nfiles && !rc; k++) {
		fjob *j = add_job(jobs, n, cap);
		if (!j) {
			rc = CLI_FAIL;
			break;
		}
		if (java_safe(files[k]) || ms_rts_trace_load(ctx, &j->trace, files[k])) {
			if (ms_ctx_last_status(ctx))
				fprintf(stderr, "microsynth %s: %s\n", CMD, ms_ctx_last_error(ctx));
			rc = CLI_USAGE;
			break;
		}
		j->kind = JOB_TRACE;
		j->path = files[k];
		files[k] = NULL;
		j->w = ms_rts_state_width(ms_rts_trace_initial(j->trace));
		j->h = ms_rts_state_height(ms_rts_trace_initial(j->trace));
		j->decisions = ms_rts_trace_entry_count(j->trace);
		bench_trace_map(j->path, j->map, sizeof(j->map));
	}
	for (size_t k = 0; k < nfiles; k++)
		free(files[k]);
	free(files);
	return rc;
}

/* The matches of one part on one map: the rushes' pairings, or the field bots against each rush in both seats. */
static int match_jobs(ms_ctx *ctx, ms_rts_utt *utt, int kind, const char *map, fjob **jobs, int *n, int *cap)
{
	char path[4096];
	ms_rts_state *s;

	if (cli_resolve_map(map, path, sizeof(path)) || ms_rts_state_load_map(ctx, &s, utt, path, 0)) {
		fprintf(stderr, "microsynth %s: map %s: %s\n", CMD, map,
			ms_ctx_last_status(ctx) ? ms_ctx_last_error(ctx) : "not found");
		return CLI_USAGE;
	}
	int w = ms_rts_state_width(s), h = ms_rts_state_height(s);
	ms_rts_state_free(s);
	if (java_safe(path))
		return CLI_USAGE;
	for (int a = 0; a < (kind == JOB_RUSHES ? 4 : 2); a++)
		for (int b = 0; b < 4; b++)
			for (int seat = 0; seat < (kind == JOB_FIELD ? 2 : 1); seat++) {
				const char *x = kind == JOB_RUSHES ? rushes[a] : field_bots[a], *y = rushes[b];
				fjob *j = add_job(jobs, n, cap);
				if (!j || !(j->path = strdup(path)))
					return CLI_FAIL;
				snprintf(j->map, sizeof(j->map), "%s", path);
				j->kind = kind;
				j->w = w;
				j->h = h;
				snprintf(j->p0, sizeof(j->p0), "%s", seat ? y : x);
				snprintf(j->p1, sizeof(j->p1), "%s", seat ? x : y);
			}
	return CLI_OK;
}

/* Counts a player's decisions that have a unit free to act (the hook sees the state both decided in). */
static int count_decisions(void *ud, const ms_rts_state *s, const ms_rts_pair *const pairs[2], const int n[2])
{
	double *count = ud;
	int free_of[2] = { 0, 0 };

	(void)pairs;
	(void)n;
	for (int i = 0; i < ms_rts_state_unit_count(s); i++) {
		ms_rts_unit u;
		if (ms_rts_state_unit(s, i, &u) == MS_OK && u.player >= 0 && u.player < 2 &&
		    ms_rts_state_unit_idle(s, i))
			free_of[u.player] = 1;
	}
	*count += free_of[0] + free_of[1];
	return 0;
}

/* One native run of a job; its cycles. With `decisions`, counts them (untimed runs only). */
static int run_native(ms_ctx *ctx, const fair_opts *o, fjob *j, ms_rts_state *const st[2],
		      ms_bot *const bots[2], double *decisions, double *cycles)
{
	if (j->kind == JOB_TRACE) {
		ms_rts_replay_result r;
		if (ms_rts_trace_replay(ctx, j->trace, &r))
			return -1;
		*cycles = r.cycles;
		return 0;
	}
	ms_bot_hooks hooks = { .decisions = count_decisions, .ud = decisions };
	ms_rts_state_copy(st[1], st[0]);
	ms_bot_reset(bots[0]);
	ms_bot_reset(bots[1]);
	if (ms_bot_play_hooked(ctx, st[1], bots, (int)o->max_cycles, 0, NULL, NULL, decisions ? &hooks : NULL))
		return -1;
	*cycles = ms_rts_state_time(st[1]);
	return 0;
}

/* The native side of one job: warm-up runs, one counting run, then the timed repetitions; a CLI code. */
static int native_job(ms_ctx *ctx, ms_rts_utt *utt, const fair_opts *o, fjob *j)
{
	ms_rts_state *st[2] = { NULL, NULL };
	ms_bot *bots[2] = { NULL, NULL };
	double cpu[FAIR_MAX_REPEAT], wall[FAIR_MAX_REPEAT], cycles = 0, dec = 0;
	int rc = CLI_OK;

	if (j->kind != JOB_TRACE &&
	    (ms_rts_state_load_map(ctx, &st[0], utt, j->path, 0) || ms_rts_state_clone(ctx, &st[1], st[0]) ||
	     ms_bot_new(ctx, &bots[0], j->p0, utt, 0) || ms_bot_new(ctx, &bots[1], j->p1, utt, 0) ||
	     ms_bot_set_edition(bots[0], o->edition) || ms_bot_set_edition(bots[1], o->edition)))
		rc = CLI_FAIL;
	for (long w = 0; w < o->min_warm && !rc; w++)
		if (run_native(ctx, o, j, st, bots, NULL, &cycles))
			rc = CLI_FAIL;
	if (!rc && j->kind != JOB_TRACE) {
		if (run_native(ctx, o, j, st, bots, &dec, &cycles))
			rc = CLI_FAIL;
		j->decisions = dec;
	}
	for (long r = 0; r < o->repeat && !rc; r++) {
		double c0 = cli_thread_cpu(), t0 = cli_now();
		if (run_native(ctx, o, j, st, bots, NULL, &cycles))
			rc = CLI_FAIL;
		wall[r] = cli_now() - t0;
		cpu[r] = cli_thread_cpu() - c0;
	}
	if (rc) {
		fprintf(stderr, "microsynth %s: %s: %s\n", CMD, j->path, ms_ctx_last_error(ctx));
	} else {
		int first = !j->n_rounds++;
		j->cycles = cycles;
		qsort(cpu, (size_t)o->repeat, sizeof(*cpu), cli_cmp_double);
		qsort(wall, (size_t)o->repeat, sizeof(*wall), cli_cmp_double);
		if (first || cpu[0] < j->n_best)
			j->n_best = cpu[0];
		if (first || wall[0] < j->n_wall_best)
			j->n_wall_best = wall[0];
		if (first || wall[o->repeat - 1] > j->n_wall_worst)
			j->n_wall_worst = wall[o->repeat - 1];
	}
	if (bots[1]) {
		snprintf(j->j0, sizeof(j->j0), "%s", bots[0]->ops->java_class);
		snprintf(j->j1, sizeof(j->j1), "%s", bots[1]->ops->java_class);
	}
	ms_bot_free(bots[0]);
	ms_bot_free(bots[1]);
	ms_rts_state_free(st[0]);
	ms_rts_state_free(st[1]);
	return rc;
}

/* Runs FairBench on jobs[0..n) (one part) in one JVM (fork `fork`), keeps each job's fastest fork; prints the
 * JVM's own line. */
static int java_part(const fair_opts *o, fjob *jobs, int n, const char *part, int fork)
{
	char rep[16], minw[16], maxw[16], line[8192];
	const char **args = NULL;
	char *text = NULL; /* the job lines, one after the other */
	int acap = 0, tcap = 0, used = 0, rc, got = 0;
	FILE *in = NULL;
	pid_t pid;

	rc = ms_vec_grow(NULL, (void **)&args, &acap, n + 3, sizeof(*args));
	for (int k = 0; k < n && !rc; k++) {
		const fjob *j = &jobs[k];
		int len = (int)strlen(j->path) + 200;
		if ((rc = ms_vec_grow(NULL, (void **)&text, &tcap, used + len, 1)))
			break;
		if (j->kind == JOB_TRACE)
			used += snprintf(text + used, (size_t)len, "trace %s", j->path) + 1;
		else
			used += snprintf(text + used, (size_t)len, "match %s %s %s %ld", j->path, j->j0, j->j1,
					 o->max_cycles) + 1;
	}
	snprintf(rep, sizeof(rep), "%ld", o->repeat);
	snprintf(minw, sizeof(minw), "%ld", o->min_warm);
	snprintf(maxw, sizeof(maxw), "%ld", o->max_warm);
	if (!rc) {
		args[0] = rep, args[1] = minw, args[2] = maxw;
		for (int k = 0, at = 0; k < n; k++, at += (int)strlen(text + at) + 1)
			args[k + 3] = text + at;
		in = bench_java_open("ai.microsynth.bench.FairBench", args, n + 3, &pid);
		rc = in ? 0 : -1;
	}
	if (!rc) {
		while (fgets(line, sizeof(line), in)) {
			int k;
			double cyc, cb, wb, ww;
			if (sscanf(line, "fair %d cycles %lf cpu_best %lf wall_best %lf wall_worst %lf", &k, &cyc, &cb,
				   &wb, &ww) == 5 &&
			    k >= 0 && k < n) {
				fjob *j = &jobs[k];
				double rate = cyc / (cb * 1e-9);
				/* CoacAI draws unseeded moves in Java: compare forks by rate, not by time */
				if (!j->j_forks || rate > j->j_cycles / j->j_best) {
					j->j_cycles = cyc;
					j->j_best = cb * 1e-9;
					j->j_wall_best = wb * 1e-9;
					j->j_wall_worst = ww * 1e-9;
				}
				if (!j->j_forks++ || rate < j->j_rate_worst)
					j->j_rate_worst = rate;
				got++;
			} else if (!strncmp(line, "jvm ", 4)) {
				printf("%s fork %d %s", part, fork, line);
			}
		}
		rc = bench_java_close(in, pid);
	}
	if (!rc && got != n) {
		fprintf(stderr, "microsynth %s: the Java side timed %d of %d %s jobs\n", CMD, got, n, part);
		rc = -1;
	}
	free(text);
	free(args);
	return rc;
}

static int cmp_size(const void *a, const void *b)
{
	const fjob *x = a, *y = b;
	int ax = x->w * x->h, ay = y->w * y->h;
	if (x->kind != y->kind)
		return x->kind - y->kind;
	if (ax != ay)
		return ax < ay ? -1 : 1;
	if (x->w != y->w)
		return x->w - y->w;
	return strcmp(x->map, y->map);
}

/* Per part and map size: the native and Java figures; returns the part's ratio (median over maps), adding
 * each map's ratio to all[]. */
static double report_part(fjob *jobs, int n, int kind, double *all, int *nall, double *scratch)
{
	double map_ratio[4096];
	int nmaps = 0;

	printf("%-6s %-9s %5s %5s %14s %14s %14s %8s %8s %8s %8s\n", kind_name[kind], "size", "maps", "jobs",
	       "native cyc/s", "native dec/s", "java cyc/s", "ratio", "spreadN", "spreadJ", "forksJ");
	for (int a = 0; a < n;) {
		int b = a, nj = 0, nm = 0;
		double nc = 0, ns = 0, nd = 0, jc = 0, js = 0, sn[4096], sj[4096], fj[4096];
		while (b < n && jobs[b].kind == kind && jobs[b].w == jobs[a].w && jobs[b].h == jobs[a].h)
			b++;
		if (b == a) {
			a++;
			continue;
		}
		/* maps within the size: their ratios, each the median of the map's jobs */
		for (int m = a; m < b;) {
			int e = m, k = 0;
			while (e < b && !strcmp(jobs[e].map, jobs[m].map))
				e++;
			for (int q = m; q < e; q++)
				scratch[k++] = (jobs[q].cycles / jobs[q].n_best) / (jobs[q].j_cycles / jobs[q].j_best);
			if (nmaps < 4096)
				map_ratio[nmaps++] = cli_median(scratch, k);
			if (*nall < 4096)
				all[(*nall)++] = cli_median(scratch, k);
			nm++;
			m = e;
		}
		for (int q = a; q < b; q++, nj++) {
			nc += jobs[q].cycles;
			ns += jobs[q].n_best;
			nd += jobs[q].decisions;
			jc += jobs[q].j_cycles;
			js += jobs[q].j_best;
			if (nj < 4096) {
				sn[nj] = jobs[q].n_wall_worst / jobs[q].n_wall_best;
				sj[nj] = jobs[q].j_wall_worst / jobs[q].j_wall_best;
				fj[nj] = jobs[q].j_cycles / jobs[q].j_best / jobs[q].j_rate_worst;
			}
			scratch[nj] = (jobs[q].cycles / jobs[q].n_best) / (jobs[q].j_cycles / jobs[q].j_best);
		}
		char size[32];
		snprintf(size, sizeof(size), "%dx%d", jobs[a].w, jobs[a].h);
		int ns_ = nj < 4096 ? nj : 4096;
		printf("%-6s %-9s %5d %5d %14.0f %14.0f %14.0f %8.1f %8.2f %8.2f %8.2f\n", kind_name[kind], size, nm, nj,
		       nc / ns, nd / ns, jc / js, cli_median(scratch, nj), cli_median(sn, ns_), cli_median(sj, ns_),
		       cli_median(fj, ns_));
		a = b;
	}
	return cli_median(map_ratio, nmaps);
}

int cmd_bench_fair(int argc, char **argv)
{
	fair_opts o;
	int rc = fair_args(argc, argv, &o), n = 0, cap = 0;
	fjob *jobs = NULL;
	ms_ctx *ctx = NULL;
	ms_rts_utt *utt = NULL;

	if (rc)
		return rc;
	if (ms_ctx_new(&ctx, NULL) || ms_rts_utt_new(ctx, &utt, 2, 1))
		return CLI_FAIL;
	if (o.engine)
		rc = trace_jobs(ctx, &o, &jobs, &n, &cap);
	/* part by part: each part's jobs are contiguous, for its JVM */
	for (int kind = JOB_RUSHES; kind <= JOB_FIELD && !rc; kind++) {
		int nm = o.first < 0 ? (int)(sizeof(default_maps) / sizeof(*default_maps)) : argc - o.first;
		if (kind == JOB_RUSHES ? !o.bots : !o.field)
			continue;
		for (int m = 0; m < nm && !rc; m++)
			rc = match_jobs(ctx, utt, kind, o.first < 0 ? default_maps[m] : argv[o.first + m], &jobs,
					&n, &cap);
	}
	/* One JVM per part and fork, each warmed on its own jobs: a JVM's compiled code differs from run to
	 * run. The native rounds go between them, so that both sides sample the same stretch of the machine's
	 * time (its other tenants move even CPU time by tens of percent over minutes). */
	for (int kind = 0; kind < JOB_KINDS && !rc; kind++) {
		int a = 0, b;
		while (a < n && jobs[a].kind != kind)
			a++;
		for (b = a; b < n && jobs[b].kind == kind; b++)
			;
		for (long f = 0; f <= o.forks && b > a && !rc; f++) {
			for (int k = a; k < b && !rc; k++)
				rc = native_job(ctx, utt, &o, &jobs[k]);
			if (!rc && f < o.forks && java_part(&o, jobs + a, b - a, kind_name[kind], (int)f)) {
				fprintf(stderr, "microsynth %s: the Java side of '%s' failed\n", CMD, kind_name[kind]);
				rc = CLI_FAIL;
			}
		}
	}
	if (!rc) {
		double all[4096], part[JOB_KINDS] = { 0 }, *scratch = NULL;
		int nall = 0, scap = 0;
		if (ms_vec_grow(NULL, (void **)&scratch, &scap, n + 1, sizeof(*scratch)))
			rc = CLI_FAIL;
		qsort(jobs, (size_t)n, sizeof(*jobs), cmp_size);
		for (int kind = 0; kind < JOB_KINDS && !rc; kind++)
			if (kind == JOB_TRACE ? o.engine : kind == JOB_RUSHES ? o.bots : o.field)
				part[kind] = report_part(jobs, n, kind, all, &nall, scratch);
		if (!rc)
			printf("repeat=%ld engine_ratio=%.1f bots_ratio=%.1f field_ratio=%.1f ratio=%.1f\n", o.repeat,
			       part[JOB_TRACE], part[JOB_RUSHES], part[JOB_FIELD], cli_median(all, nall));
		free(scratch);
	}
	for (int k = 0; k < n; k++) {
		free(jobs[k].path);
		ms_rts_trace_free(jobs[k].trace);
	}
	free(jobs);
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
	return rc;
}
