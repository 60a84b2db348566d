/*
 * microsynth synth: program synthesis for Can't Stop (spec/cantstop.md 7)
 * with the searches of synth.h on the problem of cantstop_synth.h, and
 * `synth plot`, an SVG of the best win rate over time from CSV logs.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "microsynth/cantstop_synth.h"
#include "microsynth/synth.h"
#include "cli.h"

#define CMD "synth"

void cmd_synth_usage(FILE *out)
{
	fprintf(out,
		"Usage: microsynth synth --game cantstop --algo sa|uct|sketch-sa|sketch-uct|random\n"
		"                        [--score A|O] [--oracle random|ga] (--evals N | --time T)\n"
		"                        --seed S [--threads K] -o FILE [--csv FILE] [--checkpoint FILE]\n"
		"                        [--resume] [--no-progress] [more options below]\n"
		"       microsynth synth plot --csv FILE [--csv FILE ...] -o FILE.svg [--x seconds|evals]\n"
		"                        [--title TEXT]\n\n"
		"Searches for a Can't Stop program (yes/no and column programs of the reference DSL)\n"
		"maximising its win rate against GA (Psi, 1000 matches per evaluation, a run-time error\n"
		"scores 0). Sketch searches first search on a cloning score C (--score O: observation-\n"
		"based, A: action-based; default O) over a data set recorded from the oracle's\n"
		"self-play (--oracle, default ga; 3 matches as the reference), then on Psi.\n\n"
		"Budget: --evals N (Psi evaluations; reproducible: the same seed gives the same program\n"
		"for any --threads) or --time T (seconds, or 90s, 15m, 2h; not reproducible). With both,\n"
		"the first reached ends the run.\n\n"
		"-o FILE receives the best program with a '#' header: its win rate against GA over\n"
		"10000 fresh matches (--final-matches, seeded with --final-seed, default 777), the\n"
		"settings, seed, evaluations and time. --csv appends a line per improvement (seconds,\n"
		"best_psi,best_c,evals_psi,evals_c,phase). --checkpoint logs every evaluation; after\n"
		"a kill, the same command with --resume continues and ends as an uninterrupted run.\n"
		"Ctrl-C stops cleanly (resume later). Last stdout line: psi=X search_psi=Y evals=N\n"
		"evals_c=M seconds=T.\n\n"
		"More options: --matches N (Psi matches, 1000), --data-matches N (3), --data-seed S (1),\n"
		"--data FILE (a data set file instead of --oracle), --era A|B (A), --sketch-evals N\n"
		"(C evaluations of the sketch phase; default: the algorithm's own), --uct-c X (10),\n"
		"--initial FILE|couto (sa, uct: start from this program, e.g. the published one;\n"
		"SA then restarts from it, as the reference code does), --restart code|best|pass\n"
		"(where SA passes restart: as the reference code (default), from the best program\n"
		"so far, or from the previous pass's best, the paper's wording), --common-matches\n"
		"(every Psi evaluation plays the same matches, drawn from --seed: paired comparisons,\n"
		"not the reference's protocol; the final evaluation still plays fresh matches).\n\n"
		"plot    draws best Psi (solid) and best C (dashed) over time, one colour per CSV log.\n"
		"--game microrts is not supported yet.\n");
}

/* ---- durations --------------------------------------------------------------- */

/* 90, 90s, 1.5m, 15m, 2h; > 0. */
static int parse_duration(const char *val, double *out)
{
	char *end;
	double v;

	if (!val || !*val)
		return cli_usage_error(CMD, "--time needs a value");
	errno = 0;
	v = strtod(val, &end);
	if (end == val || errno)
		return cli_usage_error(CMD, "--time: '%s' is not a duration (90, 90s, 15m, 2h)", val);
	if (!strcmp(end, "h"))
		v *= 3600;
	else if (!strcmp(end, "m"))
		v *= 60;
	else if (*end && strcmp(end, "s"))
		return cli_usage_error(CMD, "--time: '%s' is not a duration (90, 90s, 15m, 2h)", val);
	if (!(v > 0) || v > 1e9)
		return cli_usage_error(CMD, "--time: '%s' must be positive", val);
	*out = v;
	return CLI_OK;
}

/* ---- options ---------------------------------------------------------------- */

typedef struct synth_args {
	char command[1024]; /* the command line, for the output's header */
	const char *game, *algo, *score, *oracle, *out, *csv, *checkpoint, *data, *era, *initial, *restart;
	long evals, seed, threads, matches, final_matches, final_seed, data_matches, data_seed, sketch_evals;
	double seconds, uct_c;
	int have_seed, resume, progress, have_uct_c, common;
} synth_args;

static int take_string(const char *opt, const char *val, const char **dst)
{
	if (!val)
		return cli_usage_error(CMD, "%s needs a value", opt);
	*dst = val;
	return CLI_OK;
}

static int parse_args(int argc, char **argv, synth_args *a)
{
	static const char *const strings[] = { "--game", "--algo", "--score", "--oracle", "-o", "--csv",
					      "--checkpoint", "--data", "--era", "--initial",
					      "--restart" };
	const char **string_dst[] = { &a->game, &a->algo, &a->score, &a->oracle, &a->out, &a->csv,
				      &a->checkpoint, &a->data, &a->era, &a->initial,
				      &a->restart };
	static const char *const ints[] = { "--evals", "--seed", "--threads", "--matches", "--final-matches",
					   "--final-seed", "--data-matches", "--data-seed", "--sketch-evals" };
	long *int_dst[] = { &a->evals, &a->seed, &a->threads, &a->matches, &a->final_matches,
			    &a->final_seed, &a->data_matches, &a->data_seed, &a->sketch_evals };
	static const long int_min[] = { 1, 0, 1, 1, 1, 0, 1, 0, 1 };
	static const long int_max[] = { 1000000000L, 0x7fffffffffffffffL, 256, 100000000L, 100000000L,
					0x7fffffffffffffffL, 1000, 0x7fffffffffffffffL, 1000000000L };

	for (int i = 1; i < argc; i++) {
		const char *opt = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
		size_t k;
		int rc;

		for (k = 0; k < sizeof strings / sizeof strings[0]; k++)
			if (!strcmp(opt, strings[k]))
				break;
		if (k < sizeof strings / sizeof strings[0]) {
			if ((rc = take_string(opt, val, string_dst[k])) != CLI_OK)
				return rc;
			i++;
			continue;
		}
		for (k = 0; k < sizeof ints / sizeof ints[0]; k++)
			if (!strcmp(opt, ints[k]))
				break;
		if (k < sizeof ints / sizeof ints[0]) {
			if (cli_parse_int(CMD, opt, val, int_min[k], int_max[k], int_dst[k]))
				return CLI_USAGE;
			if (int_dst[k] == &a->seed)
				a->have_seed = 1;
			i++;
			continue;
		}
		if (!strcmp(opt, "--time")) {
			if ((rc = parse_duration(val, &a->seconds)) != CLI_OK)
				return rc;
			i++;
		} else if (!strcmp(opt, "--uct-c")) {
			char *end;
			if (!val)
				return cli_usage_error(CMD, "--uct-c needs a value");
			a->uct_c = strtod(val, &end);
			if (end == val || *end || !(a->uct_c >= 0) || a->uct_c > 1e9)
				return cli_usage_error(CMD, "--uct-c: '%s' is not a non-negative number", val);
			a->have_uct_c = 1;
			i++;
		} else if (!strcmp(opt, "--resume")) {
			a->resume = 1;
		} else if (!strcmp(opt, "--common-matches")) {
			a->common = 1;
		} else if (!strcmp(opt, "--no-progress")) {
			a->progress = 0;
		} else {
			return cli_usage_error(CMD, "unknown option '%s'", opt);
		}
	}
	return CLI_OK;
}

/* Checks what needs the whole command line; fills the problem's options. */
static int check_args(const synth_args *a, int *algo, ms_cs_synth_options *po)
{
	if (!a->game)
		return cli_usage_error(CMD, "--game is required (cantstop)");
	if (!strcmp(a->game, "microrts"))
		return cli_usage_error(CMD, "--game microrts: not yet (MicroRTS synthesis is not implemented; use cantstop)");
	if (strcmp(a->game, "cantstop"))
		return cli_usage_error(CMD, "--game: unknown game '%s' (cantstop)", a->game);
	if (!a->algo)
		return cli_usage_error(CMD, "--algo is required (sa, uct, sketch-sa, sketch-uct, random)");
	*algo = ms_synth_algo_from_name(a->algo);
	if (*algo < 0)
		return cli_usage_error(CMD, "--algo: unknown algorithm '%s' (sa, uct, sketch-sa, sketch-uct, random)",
				       a->algo);
	if (!a->evals && !(a->seconds > 0))
		return cli_usage_error(CMD, "a budget is required: --evals N or --time T");
	if (!a->have_seed)
		return cli_usage_error(CMD, "--seed is required");
	if (!a->out)
		return cli_usage_error(CMD, "-o FILE is required");
	if (a->initial && *algo != MS_SYNTH_SA && *algo != MS_SYNTH_UCT)
		return cli_usage_error(CMD, "--initial applies to sa and uct only (a sketch search starts from its sketch)");
	if (a->restart && strcmp(a->restart, "code") && strcmp(a->restart, "best") && strcmp(a->restart, "pass"))
		return cli_usage_error(CMD, "--restart is code, best or pass, not '%s'", a->restart);
	if (a->common && a->seed == a->final_seed)
		return cli_usage_error(CMD, "--common-matches plays the matches of --seed %ld: the final evaluation "
				       "needs another --final-seed to play fresh ones", a->seed);
	if (a->resume && !a->checkpoint)
		return cli_usage_error(CMD, "--resume needs --checkpoint FILE");

	ms_cs_synth_options_init(po);
	int sketch = *algo == MS_SYNTH_SKETCH_SA || *algo == MS_SYNTH_SKETCH_UCT;
	if (!sketch && (a->score || a->oracle || a->data || a->sketch_evals))
		return cli_usage_error(CMD, "--score, --oracle, --data and --sketch-evals apply to sketch-sa and "
				       "sketch-uct only");
	if (a->score && strcmp(a->score, "A") && strcmp(a->score, "O"))
		return cli_usage_error(CMD, "--score is A (action-based) or O (observation-based), not '%s'", a->score);
	if (a->oracle && strcmp(a->oracle, "random") && strcmp(a->oracle, "ga"))
		return cli_usage_error(CMD, "--oracle is random or ga, not '%s' (the human data set is not available)",
				       a->oracle);
	if (a->oracle && a->data)
		return cli_usage_error(CMD, "--oracle and --data exclude each other");
	if (a->era && strcmp(a->era, "A") && strcmp(a->era, "B"))
		return cli_usage_error(CMD, "--era is A or B");
	if (sketch) {
		po->oracle = a->data ? MS_CS_ORACLE_FILE
			     : a->oracle && !strcmp(a->oracle, "random") ? MS_CS_ORACLE_RANDOM
									 : MS_CS_ORACLE_GA;
		po->data_path = a->data;
		po->score = a->score && !strcmp(a->score, "A") ? MS_CS_SCORE_ACTION : MS_CS_SCORE_OBSERVATION;
	}
	if (a->era)
		po->era = a->era[0] == 'B' ? MS_CS_ERA_B : MS_CS_ERA_A;
	if (a->matches)
		po->matches = a->matches;
	if (a->final_matches)
		po->final_matches = a->final_matches;
	if (a->data_matches)
		po->data_matches = (int)a->data_matches;
	po->data_seed = (uint64_t)a->data_seed;
	po->common_matches = a->common;
	po->common_seed = (uint64_t)a->seed;
	return CLI_OK;
}

/* ---- the run ---------------------------------------------------------------- */

static volatile sig_atomic_t synth_interrupted;

static void on_signal(int sig)
{
	(void)sig;
	synth_interrupted = 1;
}

typedef struct run_ud {
	ms_synth_bar bar;
	int bar_on;
} run_ud;

static int on_progress(void *ud, const ms_synth_stats *st)
{
	run_ud *r = ud;
	if (r->bar_on)
		ms_synth_progress_bar(&r->bar, st);
	return synth_interrupted != 0;
}

/* Status to exit code: bad input (options, files) is usage, the rest a failure. */
static int fail(ms_ctx *ctx, const char *what)
{
	int st = ms_ctx_last_status(ctx);
	fprintf(stderr, "microsynth synth: %s: %s\n", what, ms_ctx_last_error(ctx));
	return st == MS_EINVAL || st == MS_EPARSE || st == MS_EIO || st == MS_ENOTFOUND ? CLI_USAGE : CLI_FAIL;
}

static int run_search(const synth_args *a)
{
	ms_ctx *ctx = NULL;
	ms_cs_synth *cs = NULL;
	ms_synth *s = NULL;
	ms_synth_opts so;
	ms_cs_synth_options po;
	ms_synth_stats st;
	run_ud ud;
	char *text = NULL;
	ms_dsl_prog *initial = NULL;
	int algo, rc, ret = CLI_FAIL;

	if ((rc = check_args(a, &algo, &po)) != CLI_OK)
		return rc;
	if (ms_ctx_new(&ctx, NULL) != MS_OK) {
		fprintf(stderr, "microsynth synth: out of memory\n");
		return CLI_FAIL;
	}
	if (ms_cs_synth_new(ctx, &cs, &po) < 0) {
		ret = fail(ctx, "problem");
		goto done;
	}

	if (a->initial) {
		const ms_cs_dsl *d = ms_cs_synth_dsl(cs);
		const char *builtin = ms_cs_dsl_builtin(a->initial);
		rc = ms_dsl_prog_new(ctx, &initial, ms_cs_dsl_grammar(d));
		if (rc >= 0)
			rc = builtin && !strcmp(a->initial, "couto")
				     ? ms_cs_dsl_parse(d, initial, builtin, strlen(builtin), MS_CS_NT_START, "couto")
				     : ms_cs_dsl_load(d, initial, a->initial);
		if (rc < 0) {
			ret = fail(ctx, "--initial");
			goto done;
		}
	}
	ms_synth_opts_init(&so);
	so.initial = initial;
	if (a->restart)
		so.sa_restart = !strcmp(a->restart, "best")   ? MS_SYNTH_RESTART_BEST
				: !strcmp(a->restart, "pass") ? MS_SYNTH_RESTART_PASS
							      : MS_SYNTH_RESTART_CODE;
	so.algo = algo;
	so.seed = (uint64_t)a->seed;
	so.threads = (int)a->threads;
	so.max_evals = a->evals;
	so.max_seconds = a->seconds;
	so.sketch_evals = a->sketch_evals;
	if (a->have_uct_c)
		so.uct_c = a->uct_c;
	so.checkpoint = a->checkpoint;
	so.resume = a->resume;
	so.csv = a->csv;
	memset(&ud, 0, sizeof ud);
	ud.bar.out = stderr;
	ud.bar_on = a->progress;
	so.progress = on_progress;
	so.progress_ud = &ud;

	if (ms_synth_new(ctx, &s, ms_cs_synth_problem(cs), &so) < 0) {
		ret = fail(ctx, "search");
		goto done;
	}
	synth_interrupted = 0;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	rc = ms_synth_run(s);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	if (ud.bar_on)
		ms_synth_bar_end(&ud.bar);
	if (rc < 0) {
		ret = fail(ctx, "search");
		goto done;
	}
	ms_synth_get_stats(s, &st);
	if (rc == MS_SYNTH_STOPPED) {
		fprintf(stderr, "microsynth synth: interrupted after %lld Psi evaluations (%.1f s)%s\n", st.evals_psi,
			st.elapsed,
			a->checkpoint ? "; continue with the same command and --resume" : "; no checkpoint was kept");
		goto done;
	}

	const ms_dsl_prog *best = ms_synth_best(s, MS_SYNTH_PSI);
	if (!best) {
		fprintf(stderr, "microsynth synth: the budget ended before any program was evaluated on Psi\n");
		goto done;
	}
	double search_psi = ms_synth_best_score(s, MS_SYNTH_PSI);
	uint64_t final_seed = (uint64_t)a->final_seed;
	double psi, t0 = cli_now();
	int failed;
	if (ms_cs_synth_final_psi(ctx, cs, best, (int)a->threads, final_seed, &psi, &failed) < 0) {
		ret = fail(ctx, "final evaluation");
		goto done;
	}
	double final_seconds = cli_now() - t0;

	char budget[96], header[3072];
	if (a->evals && a->seconds > 0)
		snprintf(budget, sizeof budget, "--evals %ld, --time %.0fs", a->evals, a->seconds);
	else if (a->evals)
		snprintf(budget, sizeof budget, "--evals %ld", a->evals);
	else
		snprintf(budget, sizeof budget, "--time %.0fs", a->seconds);
	const char *oracle = ms_cs_synth_oracle_name(po.oracle);
	snprintf(header, sizeof header,
		 "microsynth synth: a Can't Stop program (cantstop DSL, printed form)\n"
		 "command: %s\n"
		 "win rate vs GA: %.4f over %ld fresh matches (final seed %llu)%s\n"
		 "algorithm: %s; score: %s; oracle: %s; Psi: %ld %smatches per evaluation; era %c\n"
		 "seed: %ld; threads: %ld; budget: %s; initial program: %s; SA restarts: %s\n"
		 "evaluations: Psi %lld, C %lld, cache hits %lld; elapsed %.1f s\n"
		 "best search estimate: Psi %.4f (one %ld-match evaluation, optimistic)\n"
		 "%s\n"
		 "fingerprint: %s",
		 a->command, psi, po.final_matches, (unsigned long long)final_seed,
		 failed ? " (the program raised a run-time error)" : "", ms_synth_algo_name(algo),
		 po.oracle == MS_CS_ORACLE_NONE ? "-" : po.score == MS_CS_SCORE_ACTION ? "A (action)" : "O (observation)",
		 po.oracle == MS_CS_ORACLE_NONE ? "-" : oracle, po.matches, a->common ? "common (always the same) " : "",
		 po.era == MS_CS_ERA_B ? 'B' : 'A', a->seed,
		 a->threads, budget, a->initial ? a->initial : "none (from scratch)",
		 a->restart ? a->restart : "code", st.evals_psi, st.evals_c, st.cache_hits, st.elapsed, search_psi, po.matches,
		 st.timed ? "NOT reproducible: budgeted by time (how far a run gets depends on the machine)"
			  : "reproducible: the same command gives the same program for any --threads",
		 ms_cs_synth_fingerprint(cs));
	if (ms_cs_dsl_save(best, a->out, header) < 0) {
		ret = fail(ctx, "output");
		goto done;
	}
	if (ms_dsl_print(best, &text, NULL) < 0) {
		ret = fail(ctx, "output");
		goto done;
	}
	printf("%s\n", text);
	printf("algo=%s seed=%ld evals_psi=%lld evals_c=%lld elapsed=%.1f final_matches=%ld final_seconds=%.2f%s\n",
	       ms_synth_algo_name(algo), a->seed, st.evals_psi, st.evals_c, st.elapsed, po.final_matches,
	       final_seconds, st.timed ? " reproducible=no" : " reproducible=yes");
	printf("psi=%.4f search_psi=%.4f evals=%lld evals_c=%lld seconds=%.1f\n", psi, search_psi, st.evals_psi,
	       st.evals_c, st.elapsed);
	ret = CLI_OK;
done:
	if (text)
		ms_ctx_mfree(ctx, text);
	ms_synth_free(s);
	ms_dsl_prog_free(initial);
	ms_cs_synth_free(cs);
	ms_ctx_free(ctx);
	return ret;
}

/* ---- plot ------------------------------------------------------------------- */

typedef struct series {
	const char *name;
	double *x, *psi, *c;
	int n, cap;
} series;

static int read_csv(const char *path, int use_evals, series *se)
{
	FILE *f = fopen(path, "r");
	char line[512];
	int lineno = 0;

	if (!f)
		return cli_usage_error(CMD " plot", "%s: cannot open: %s", path, strerror(errno));
	se->name = path;
	while (fgets(line, sizeof line, f)) {
		double t, p = -1, c = -1;
		long long ep = 0, ec = 0;
		char *fields[6], *q = line;
		int nf = 0;

		lineno++;
		if (lineno == 1 && !strncmp(line, "seconds,", 8))
			continue;
		line[strcspn(line, "\r\n")] = 0;
		if (!*line)
			continue;
		while (nf < 6) {
			fields[nf++] = q;
			q = strchr(q, ',');
			if (!q)
				break;
			*q++ = 0;
		}
		if (nf < 5) {
			fclose(f);
			return cli_usage_error(CMD " plot", "%s: line %d: expected seconds,best_psi,best_c,evals_psi,"
					       "evals_c,phase", path, lineno);
		}
		t = atof(fields[0]);
		if (*fields[1])
			p = atof(fields[1]);
		if (*fields[2])
			c = atof(fields[2]);
		ep = atoll(fields[3]);
		ec = atoll(fields[4]);
		(void)ec;
		if (se->n == se->cap) {
			int cap = se->cap ? 2 * se->cap : 64;
			double *x = realloc(se->x, sizeof *x * (size_t)cap), *ps, *cs;
			if (x)
				se->x = x;
			ps = x ? realloc(se->psi, sizeof *ps * (size_t)cap) : NULL;
			if (ps)
				se->psi = ps;
			cs = ps ? realloc(se->c, sizeof *cs * (size_t)cap) : NULL;
			if (!cs) {
				fclose(f);
				fprintf(stderr, "microsynth synth plot: out of memory\n");
				return CLI_FAIL;
			}
			se->c = cs;
			se->cap = cap;
		}
		se->x[se->n] = use_evals ? (double)ep : t;
		se->psi[se->n] = p;
		se->c[se->n] = c;
		se->n++;
	}
	fclose(f);
	if (se->n == 0)
		return cli_usage_error(CMD " plot", "%s: no data lines", path);
	return CLI_OK;
}

static void xml_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else if (*s == '"')
			fputs("&quot;", f);
		else
			fputc(*s, f);
	}
}

/* A tick step of 1, 2 or 5 times a power of ten giving about `want` ticks over `span`. */
static double tick_step(double span, int want)
{
	double raw = span / want, p = pow(10, floor(log10(raw))), m = raw / p;
	return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

/* A step line of values[] (skipping -1s) as an SVG path, extended to xmax. */
static void step_path(FILE *f, const series *se, const double *v, double xmax, double (*X)(double, const void *),
		      double (*Y)(double, const void *), const void *ax, const char *color, const char *dash)
{
	int started = 0;
	double last = -1;

	for (int i = 0; i < se->n; i++) {
		if (v[i] < 0)
			continue;
		if (!started) {
			fprintf(f, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"1.8\"%s d=\"M%.1f %.1f", color, dash,
				X(se->x[i], ax), Y(v[i], ax));
			started = 1;
		} else {
			fprintf(f, " H%.1f V%.1f", X(se->x[i], ax), Y(v[i], ax));
		}
		last = v[i];
	}
	if (started)
		fprintf(f, " H%.1f\"/>\n", X(xmax, ax));
	(void)last;
}

typedef struct axes {
	double x0, x1, left, width, top, height;
} axes;

static double ax_x(double x, const void *ud)
{
	const axes *a = ud;
	return a->left + (a->x1 > a->x0 ? (x - a->x0) / (a->x1 - a->x0) : 0) * a->width;
}

static double ax_y(double y, const void *ud)
{
	const axes *a = ud;
	return a->top + (1 - y) * a->height;
}

static int cmd_synth_plot(int argc, char **argv)
{
	static const char *const colors[] = { "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
					      "#8c564b", "#e377c2", "#17becf" };
	const char *csvs[64], *out = NULL, *title = "Best win rate against GA";
	int ncsv = 0, use_evals = 0, ret = CLI_OK;
	series se[64];

	for (int i = 2; i < argc; i++) {
		const char *opt = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(opt, "--csv") || !strcmp(opt, "-o") || !strcmp(opt, "--title") || !strcmp(opt, "--x")) {
			if (!val)
				return cli_usage_error(CMD " plot", "%s needs a value", opt);
			if (!strcmp(opt, "--csv")) {
				if (ncsv == 64)
					return cli_usage_error(CMD " plot", "at most 64 --csv logs");
				csvs[ncsv++] = val;
			} else if (!strcmp(opt, "-o")) {
				out = val;
			} else if (!strcmp(opt, "--title")) {
				title = val;
			} else if (!strcmp(val, "seconds") || !strcmp(val, "evals")) {
				use_evals = !strcmp(val, "evals");
			} else {
				return cli_usage_error(CMD " plot", "--x is seconds or evals, not '%s'", val);
			}
			i++;
		} else {
			return cli_usage_error(CMD " plot", "unknown option '%s'", opt);
		}
	}
	if (!ncsv || !out)
		return cli_usage_error(CMD " plot", "--csv FILE and -o FILE.svg are required");
	memset(se, 0, sizeof se);
	double xmax = 0;
	for (int k = 0; k < ncsv && ret == CLI_OK; k++) {
		ret = read_csv(csvs[k], use_evals, &se[k]);
		for (int i = 0; ret == CLI_OK && i < se[k].n; i++)
			if (se[k].x[i] > xmax)
				xmax = se[k].x[i];
	}
	if (ret != CLI_OK)
		goto done;

	/* seconds beyond two hours read better in hours, beyond two minutes in minutes */
	double unit = 1;
	const char *xlabel = use_evals ? "Psi evaluations" : "seconds";
	if (!use_evals && xmax > 7200) {
		unit = 3600;
		xlabel = "hours";
	} else if (!use_evals && xmax > 120) {
		unit = 60;
		xlabel = "minutes";
	}
	for (int k = 0; k < ncsv; k++)
		for (int i = 0; i < se[k].n; i++)
			se[k].x[i] /= unit;
	xmax /= unit;
	if (!(xmax > 0))
		xmax = 1;

	FILE *f = fopen(out, "w");
	if (!f) {
		ret = cli_usage_error(CMD " plot", "%s: cannot create: %s", out, strerror(errno));
		goto done;
	}
	const int W = 760, H = 440 + 18 * ncsv;
	axes ax = { 0, xmax, 70, 660, 50, 320 };
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		   "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		   "font-family=\"sans-serif\" font-size=\"12\">\n"
		   "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n<text x=\"%d\" y=\"28\" font-size=\"16\" "
		   "text-anchor=\"middle\">",
		W, H, W, H, W, H, W / 2);
	xml_text(f, title);
	fputs("</text>\n", f);
	for (int t = 0; t <= 10; t++) {
		double y = t / 10.0;
		fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", ax.left,
			ax.left + ax.width, ax_y(y, &ax), ax_y(y, &ax));
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%.1f</text>\n", ax.left - 6,
			ax_y(y, &ax) + 4, y);
	}
	double step = tick_step(xmax, 8);
	for (double x = 0; x <= xmax * (1 + 1e-9); x += step) {
		fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>\n", ax_x(x, &ax),
			ax_x(x, &ax), ax.top, ax.top + ax.height);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g</text>\n", ax_x(x, &ax),
			ax.top + ax.height + 16, x);
	}
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"black\"/>\n",
		ax.left, ax.top, ax.width, ax.height);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n", ax.left + ax.width / 2,
		ax.top + ax.height + 34, xlabel);
	fprintf(f, "<text x=\"18\" y=\"%.1f\" text-anchor=\"middle\" transform=\"rotate(-90 18 %.1f)\">"
		   "best score (solid: win rate vs GA, dashed: cloning score)</text>\n",
		ax.top + ax.height / 2, ax.top + ax.height / 2);
	for (int k = 0; k < ncsv; k++) {
		const char *col = colors[k % 8];
		step_path(f, &se[k], se[k].psi, xmax, ax_x, ax_y, &ax, col, "");
		step_path(f, &se[k], se[k].c, xmax, ax_x, ax_y, &ax, col, " stroke-dasharray=\"5 4\" opacity=\"0.7\"");
		double ly = ax.top + ax.height + 56 + 18 * k;
		fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"/>\n",
			ax.left, ax.left + 24, ly - 4, ly - 4, col);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">", ax.left + 30, ly);
		xml_text(f, se[k].name);
		double last = -1;
		for (int i = 0; i < se[k].n; i++)
			if (se[k].psi[i] >= 0)
				last = se[k].psi[i];
		if (last >= 0)
			fprintf(f, " (best Psi %.3f)", last);
		fputs("</text>\n", f);
	}
	fputs("</svg>\n", f);
	if (fclose(f) != 0) {
		ret = cli_usage_error(CMD " plot", "%s: write failed", out);
		goto done;
	}
	printf("plot=%s logs=%d xmax=%g %s\n", out, ncsv, xmax, xlabel);
done:
	for (int k = 0; k < ncsv; k++) {
		free(se[k].x);
		free(se[k].psi);
		free(se[k].c);
	}
	return ret;
}

int cmd_synth(int argc, char **argv)
{
	synth_args a;

	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			cmd_synth_usage(stdout);
			return CLI_OK;
		}
	if (argc >= 2 && !strcmp(argv[1], "plot"))
		return cmd_synth_plot(argc, argv);
	memset(&a, 0, sizeof a);
	size_t used = (size_t)snprintf(a.command, sizeof a.command, "microsynth");
	for (int i = 0; i < argc && used < sizeof a.command; i++)
		used += (size_t)snprintf(a.command + used, sizeof a.command - used, " %s", argv[i]);
	a.threads = 1;
	a.progress = 1;
	a.data_seed = 1;
	a.final_seed = 777;
	int rc = parse_args(argc, argv, &a);
	if (rc != CLI_OK)
		return rc;
	return run_search(&a);
}
