/*
 * microsynth synth --game cantstop: program synthesis for Can't Stop
 * (spec/cantstop.md 7) with the searches of synth.h on the problem of
 * cantstop_synth.h. cmd_synth.c dispatches here. The best program is
 * written simplified (ms_cs_dsl_simplify), proved on the final evaluation's
 * matches, so the win rate in its header is the written program's.
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
#include "synth_front.h"
#include "synth_progress.h"

#define CMD "synth"

static void synth_cantstop_usage(FILE *out)
{
	fprintf(out,
		"Usage: microsynth synth --game cantstop --algo sa|uct|sketch-sa|sketch-uct|random|hss|race\n"
		"                        [--score A|O] [--oracle random|ga] (--evals N | --time T)\n"
		"                        --seed S [--threads K] -o FILE [--csv FILE] [--checkpoint FILE]\n"
		"                        [--resume] [--keep-raw] [--no-simplify] [--no-progress]\n"
		"                        [more options below]\n"
		"\n"
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
		"settings, seed, evaluations and time. The program is written simplified, as\n"
		"`microsynth cantstop simplify` does it, proved on those final matches: at every call\n"
		"of every match it decides as the search's program did (docs/readable-programs.md);\n"
		"the header gives the proof's figures and stdout a line simplified: lines_before=...\n"
		"--keep-raw also writes the search's own text to FILE.raw.txt; --no-simplify writes\n"
		"that text to FILE.\n\n"
		"--csv appends a line per improvement (seconds,best_psi,best_c,evals_psi,evals_c,phase).\n"
		"--progress-json FILE appends JSON lines for `microsynth view --follow` (budget, then\n"
		"per new best its Psi; under MPI each rank's work).\n"
		"--checkpoint logs every evaluation; after a kill, the same command with --resume\n"
		"continues and ends as an uninterrupted run. Ctrl-C stops cleanly (resume later).\n"
		"Last stdout line: psi=X search_psi=Y evals=N evals_c=M seconds=T.\n\n"
		"More options: --matches N (Psi matches, 1000), --data-matches N (3), --data-seed S (1),\n"
		"--data FILE (a data set file instead of --oracle), --era A|B (A),\n"
		"--initial FILE|couto (sa, uct, race: start from this program, e.g. the published one;\n"
		"SA then restarts from it, as the reference code does), --common-matches\n"
		"(every Psi evaluation plays the same matches, drawn from --seed: paired comparisons,\n"
		"not the reference's protocol; the final evaluation still plays fresh matches).\n"
		"HSS (hierarchical synthesis search over behavioural features, cantstop_synth.h):\n"
		"--feature-matches N (matches behind a program's features, 20).\n"
		"--probe-matches N (any algorithm: random programs and mutations are drawn again until they\n"
		"play N probe matches against GA without a run-time error; most programs of the grammar\n"
		"fail at run time; a check by running, not a type system; default 0, the reference's).\n"
		"--typed (any algorithm: random programs and mutations are built well typed, so they never\n"
		"fail at run time; see cantstop_dsl.h; not the reference's generator). --max-nodes N (any\n"
		"algorithm: random programs and mutations are drawn again while they have more than N nodes;\n"
		"typed programs otherwise grow under mutation and slow down; default 0, no bound).\n"
		"The line before the last gives zero_evals=Z/N: of N reported Psi evaluations, Z scored 0\n"
		"(a run-time error, or no win).\n");
}

/* ---- options ---------------------------------------------------------------- */

typedef struct synth_args {
	synth_search_args s;
	const char *score, *oracle, *data, *era, *progress_json;
	long feature_matches, probe_matches, max_nodes;
	long matches, final_matches, final_seed, data_matches, data_seed;
	int common, typed, keep_raw, no_simplify;
} synth_args;

/* One of Can't Stop's own options (opt at argv[*i]); CLI_OK or the exit code after a usage error. */
static int cs_option(void *g, int argc, char **argv, int *i)
{
	synth_args *a = g;
	static const char *const strings[] = { "--game", "--score", "--oracle", "--data", "--era", "--progress-json" };
	const char **string_dst[] = { NULL, &a->score, &a->oracle, &a->data, &a->era, &a->progress_json };
	static const char *const ints[] = { "--matches", "--final-matches", "--final-seed", "--data-matches",
					   "--data-seed", "--feature-matches", "--probe-matches", "--max-nodes" };
	long *int_dst[] = { &a->matches, &a->final_matches, &a->final_seed, &a->data_matches, &a->data_seed,
			    &a->feature_matches, &a->probe_matches, &a->max_nodes };
	static const long int_min[] = { 1, 1, 0, 1, 0, 1, 1, 1 };
	static const long int_max[] = { 100000000L, 100000000L, 0x7fffffffffffffffL, 1000, 0x7fffffffffffffffL,
					100000, 1000, 100000 };
	static const char *const flags[] = { "--common-matches", "--typed", "--keep-raw", "--no-simplify" };
	int *flag_dst[] = { &a->common, &a->typed, &a->keep_raw, &a->no_simplify };
	const char *opt = argv[*i], *val = *i + 1 < argc ? argv[*i + 1] : NULL;
	size_t k;

	for (k = 0; k < sizeof flags / sizeof flags[0]; k++)
		if (!strcmp(opt, flags[k])) {
			*flag_dst[k] = 1;
			return CLI_OK;
		}
	if (!val)
		return cli_usage_error(CMD, "%s needs a value (or is unknown)", opt);
	++*i;
	for (k = 0; k < sizeof strings / sizeof strings[0]; k++)
		if (!strcmp(opt, strings[k])) {
			if (string_dst[k])
				*string_dst[k] = val;
			return CLI_OK;
		}
	for (k = 0; k < sizeof ints / sizeof ints[0]; k++)
		if (!strcmp(opt, ints[k])) {
			return cli_parse_int(CMD, opt, val, int_min[k], int_max[k], int_dst[k]) ? CLI_USAGE : CLI_OK;
		}
	return cli_usage_error(CMD, "unknown option '%s'", opt);
}

/* Checks what needs the whole command line; fills the problem's options. */
static int check_args(const synth_args *a, const int *algo, ms_cs_synth_options *po)
{
	if (a->s.initial && *algo != MS_SYNTH_SA && *algo != MS_SYNTH_UCT && *algo != MS_SYNTH_RACE)
		return cli_usage_error(CMD, "--initial applies to sa, uct and race only (a sketch search starts from its sketch)");
	if (a->common && a->s.seed == a->final_seed)
		return cli_usage_error(CMD, "--common-matches plays the matches of --seed %ld: the final evaluation "
				       "needs another --final-seed to play fresh ones", a->s.seed);

	ms_cs_synth_options_init(po, MS_CS_SYNTH_OPTIONS_VERSION);
	int sketch = *algo == MS_SYNTH_SKETCH_SA || *algo == MS_SYNTH_SKETCH_UCT;
	if (!sketch && (a->score || a->oracle || a->data))
		return cli_usage_error(CMD, "--score, --oracle and --data apply to sketch-sa and sketch-uct only");
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
	po->common_seed = (uint64_t)a->s.seed;
	po->feature_matches = a->feature_matches;
	po->probe_matches = a->probe_matches;
	po->typed = a->typed;
	po->max_nodes = (int)a->max_nodes;
	return CLI_OK;
}

/* ---- the run ---------------------------------------------------------------- */

/* The progress bar plus a count of Psi evaluations that scored 0 (most are run-time errors). */
typedef struct cs_progress {
	synth_run_ud *run;
	long long psi, zero;
} cs_progress;

static int cs_on_progress(void *ud, const ms_synth_stats *st)
{
	cs_progress *p = ud;
	if (st->last_kind == MS_SYNTH_PSI) {
		p->psi++;
		p->zero += st->last_score == 0;
	}
	return synth_on_progress(p->run, st);
}

/* --initial FILE|couto read into *initial; a CLI code. */
static int cs_initial(ms_ctx *ctx, const ms_cs_synth *cs, const char *name, ms_dsl_prog **initial)
{
	const ms_cs_dsl *d = ms_cs_synth_dsl(cs);
	const char *builtin = ms_cs_dsl_builtin(name);
	int rc = ms_dsl_prog_new(ctx, initial, ms_cs_dsl_grammar(d));
	if (rc >= 0)
		rc = builtin && !strcmp(name, "couto")
			     ? ms_cs_dsl_parse(d, *initial, builtin, strlen(builtin), MS_CS_NT_START, "couto")
			     : ms_cs_dsl_load(d, *initial, name);
	return rc < 0 ? synth_fail(ctx, "--initial") : CLI_OK;
}

/* ---- the written program, simplified -------------------------------------- */

#define CS_RAW_SUFFIX ".raw.txt" /* --keep-raw: the search's text beside the program file */

/* Lines of p's printed form (yes-no: and column:, 2 for every whole program); -1 if it cannot be printed. */
static int cs_lines(const ms_dsl_prog *p)
{
	char *text = NULL;
	size_t len = 0;
	int n = 0;
	if (ms_dsl_print(p, &text, &len) < 0)
		return -1;
	for (size_t i = 0; i < len; i++)
		n += text[i] == '\n';
	n += len > 0 && text[len - 1] != '\n';
	ms_ctx_mfree(ms_dsl_prog_ctx(p), text);
	return n;
}

/*
 * p simplified in place and proved on the matches of a final evaluation
 * (ms_cs_synth_final_psi: `matches` matches against GA seeded with `seed`,
 * the program first in even ones, `era`, the 300-decision cap), so the win
 * rate reported for p is the written program's; on a failure p stays as
 * found and out->why says why (the run goes on).
 */
static void cs_simplify(ms_ctx *ctx, const ms_cs_dsl *d, ms_dsl_prog *p, long matches, uint64_t seed, int era,
			synth_simplified *out)
{
	ms_cs_dsl_proof_options o;
	ms_cs_dsl_simplify_stats st;
	char raises[128] = "";
	double t0 = cli_now();

	memset(&o, 0, sizeof o);
	o.version = MS_CS_DSL_PROOF_OPTIONS_VERSION;
	o.matches = matches;
	o.seed = seed;
	o.era = era;
	out->lines_before = cs_lines(p);
	if (ms_cs_dsl_simplify(ctx, d, p, &o, &st) < 0) {
		snprintf(out->why, sizeof out->why, "simplification failed: %s", ms_ctx_last_error(ctx));
		fprintf(stderr, "microsynth: the program is written as found: %s\n", out->why);
		ms_ctx_clear_error(ctx);
		return;
	}
	out->done = 1;
	out->seconds = cli_now() - t0;
	out->lines_after = cs_lines(p);
	out->nodes_before = st.nodes_before;
	out->nodes_after = st.nodes_after;
	if (st.matches < matches) /* an evaluation stops at the program's first run-time error */
		snprintf(raises, sizeof raises,
			 ";\nthe program raises in match %ld, where the evaluation (and so the proof) stops", st.matches - 1);
	snprintf(out->proof, sizeof out->proof,
		 "size %d of %d, %d of %d characters;\n"
		 "proof: the %ld match%s of the final evaluation against GA (seed %llu, era %c, the program first\n"
		 "in even matches), replayed with this program, make the same %ld decisions (yes/no answers\n"
		 "and column choices, call by call) and end the same%s",
		 st.size_after, st.size_before, st.chars_after, st.chars_before, st.matches, st.matches == 1 ? "" : "es",
		 (unsigned long long)seed, era == MS_CS_ERA_B ? 'B' : 'A', st.decisions_compared, raises);
	snprintf(out->fields, sizeof out->fields,
		 "size_before=%d size_after=%d chars_before=%d chars_after=%d matches=%ld decisions_compared=%ld "
		 "candidates=%ld kept=%ld",
		 st.size_before, st.size_after, st.chars_before, st.chars_after, st.matches, st.decisions_compared,
		 st.candidates, st.kept);
}

/* The final evaluation of the search's best program and what the output's header says of the run. */
typedef struct cs_final {
	const synth_args *a;
	int algo;
	const ms_cs_synth_options *po;
	const ms_synth_options *so;
	ms_synth_stats st;
	double psi, search_psi;
	int failed;
	synth_simplified sim; /* what was done to the written program */
} cs_final;

static void cs_header(char *header, size_t size, const cs_final *f, const ms_cs_synth *cs)
{
	const synth_args *a = f->a;
	const ms_cs_synth_options *po = f->po;
	const ms_synth_stats *st = &f->st;
	char budget[96], simp[2048];
	const char *restart = synth_search_knob(&a->s, "--restart");
	synth_simplified_header(&f->sim, a->keep_raw, CS_RAW_SUFFIX, simp, sizeof simp);
	if (a->s.evals && a->s.seconds > 0)
		snprintf(budget, sizeof budget, "--evals %ld, --time %.0fs", a->s.evals, a->s.seconds);
	else if (a->s.evals)
		snprintf(budget, sizeof budget, "--evals %ld", a->s.evals);
	else
		snprintf(budget, sizeof budget, "--time %.0fs", a->s.seconds);
	const char *oracle = ms_cs_synth_oracle_name(po->oracle);
	snprintf(header, size,
		 "microsynth synth: a Can't Stop program (cantstop DSL, printed form)\n"
		 "command: %s\n"
		 "win rate vs GA: %.4f over %ld fresh matches (final seed %llu)%s\n"
		 "algorithm: %s; score: %s; oracle: %s; Psi: %ld %smatches per evaluation; era %c\n"
		 "seed: %ld; threads: %ld; budget: %s; initial program: %s; SA restarts: %s\n"
		 "evaluations: Psi %lld, C %lld, cache hits %lld; elapsed %.1f s\n"
		 "best search estimate: Psi %.4f (%s of %ld-match evaluations%s)\n"
		 "%s\n"
		 "%s\n"
		 "fingerprint: %s",
		 a->s.command, f->psi, po->final_matches, (unsigned long long)a->final_seed,
		 f->failed ? " (the program raised a run-time error)" : "", ms_synth_algo_name(f->algo),
		 po->oracle == MS_CS_ORACLE_NONE ? "-" : po->score == MS_CS_SCORE_ACTION ? "A (action)" : "O (observation)",
		 po->oracle == MS_CS_ORACLE_NONE ? "-" : oracle, po->matches, a->common ? "common (always the same) " : "",
		 po->era == MS_CS_ERA_B ? 'B' : 'A', a->s.seed,
		 a->s.threads, budget, a->s.initial ? a->s.initial : "none (from scratch)",
		 restart ? restart : "code", st->evals_psi, st->evals_c, st->cache_hits, st->elapsed, f->search_psi,
		 f->algo == MS_SYNTH_RACE ? "the incumbent's mean, on seeds drawn after its acceptance,"
		 : f->algo == MS_SYNTH_HSS && f->so->hss_confirm > 0 ? "the best mean of a few" : "the best single one",
		 po->matches, f->algo == MS_SYNTH_RACE ? "" : ", optimistic",
		 st->timed ? "NOT reproducible: budgeted by time (how far a run gets depends on the machine)"
			   : "reproducible: the same command gives the same program for any --threads",
		 simp, ms_cs_synth_fingerprint(cs));
}

/* -o FILE (the program under the run's header) and, with --keep-raw, the search's text beside it; a CLI code. */
static int cs_write(ms_ctx *ctx, const synth_args *a, const ms_dsl_prog *prog, const ms_dsl_prog *raw,
		    const char *header, int simplified)
{
	char path[4096], *raw_header = NULL;
	int rc = ms_cs_dsl_save(prog, a->s.out, header);
	if (rc >= 0 && a->keep_raw) {
		size_t n = strlen(header) + 512;
		if (!(raw_header = malloc(n))) {
			fprintf(stderr, "microsynth synth: out of memory\n");
			return CLI_FAIL;
		}
		snprintf(path, sizeof path, "%s%s", a->s.out, CS_RAW_SUFFIX);
		snprintf(raw_header, n, "the search's own text of the program %s holds%s\n%s", a->s.out,
			 simplified ? " simplified (the same decisions on every match of the final evaluation)" : "", header);
		rc = ms_cs_dsl_save(raw, path, raw_header);
		free(raw_header);
	}
	return rc < 0 ? synth_fail(ctx, "output") : CLI_OK;
}

/* Simplifies the best program, plays its fresh matches, writes -o and prints the summary; a CLI code. */
static int cs_report(ms_ctx *ctx, ms_cs_synth *cs, ms_synth *s, cs_final *f, const cs_progress *ud)
{
	const synth_args *a = f->a;
	const ms_dsl_prog *raw = ms_synth_best(s, MS_SYNTH_PSI);
	ms_dsl_prog *best = NULL;
	char *text = NULL, header[6144];
	int rc;
	f->search_psi = ms_synth_best_score(s, MS_SYNTH_PSI);
	if (ms_dsl_prog_clone(&best, raw) < 0)
		return synth_fail(ctx, "output");
	if (a->no_simplify)
		snprintf(f->sim.why, sizeof f->sim.why, "--no-simplify");
	else
		cs_simplify(ctx, ms_cs_synth_dsl(cs), best, f->po->final_matches, (uint64_t)a->final_seed, f->po->era,
			    &f->sim);
	double t0 = cli_now();
	if (ms_cs_synth_final_psi(ctx, cs, best, (int)a->s.threads, (uint64_t)a->final_seed, &f->psi, &f->failed) < 0) {
		rc = synth_fail(ctx, "final evaluation");
		goto done;
	}
	double final_seconds = cli_now() - t0;
	cs_header(header, sizeof header, f, cs);
	if ((rc = cs_write(ctx, a, best, raw, header, f->sim.done)) != CLI_OK)
		goto done;
	if (ms_dsl_print(best, &text, NULL) < 0) {
		rc = synth_fail(ctx, "output");
		goto done;
	}
	printf("%s\n", text);
	ms_ctx_mfree(ctx, text);
	synth_simplified_print(&f->sim, "");
	const ms_synth_stats *st = &f->st;
	printf("algo=%s seed=%ld evals_psi=%lld evals_c=%lld elapsed=%.1f final_matches=%ld final_seconds=%.2f "
	       "zero_evals=%lld/%lld%s\n",
	       ms_synth_algo_name(f->algo), a->s.seed, st->evals_psi, st->evals_c, st->elapsed, f->po->final_matches,
	       final_seconds, ud->zero, ud->psi, st->timed ? " reproducible=no" : " reproducible=yes");
	printf("psi=%.4f search_psi=%.4f evals=%lld evals_c=%lld seconds=%.1f\n", f->psi, f->search_psi,
	       st->evals_psi, st->evals_c, st->elapsed);
done:
	ms_dsl_prog_free(best);
	return rc;
}

/* ---- the row synth_main runs ---------------------------------------------- */

/* A run: the command line, the problem and what watches the search. */
typedef struct cs_run {
	synth_args a; /* first: synth_main's */
	int algo;
	ms_cs_synth_options po;
	ms_cs_synth *cs;
	ms_dsl_prog *initial;
	const ms_synth_options *so; /* the search's, read by the report */
	cs_progress ud;
	synth_progress pj;
} cs_run;

static void cs_defaults(void *g)
{
	synth_args *a = g;
	a->data_seed = 1;
	a->final_seed = 777;
}

static int cs_check(void *g, int algo)
{
	cs_run *r = g;
	r->algo = algo;
	return check_args(&r->a, &r->algo, &r->po);
}

static int cs_problem(void *g, ms_ctx *ctx, int algo, const ms_synth_problem **pb)
{
	cs_run *r = g;
	int rc;
	(void)algo;
	if (ms_cs_synth_new(ctx, &r->cs, &r->po) < 0)
		return synth_fail(ctx, "problem");
	*pb = ms_cs_synth_problem(r->cs);
	if (r->a.s.initial && (rc = cs_initial(ctx, r->cs, r->a.s.initial, &r->initial)) != CLI_OK)
		return rc;
	return CLI_OK;
}

static void cs_search(void *g, ms_synth_options *so, synth_run_ud *ud)
{
	cs_run *r = g;
	so->initial = r->initial;
	r->so = so;
	r->ud.run = ud;
	so->progress = cs_on_progress;
	so->progress_ud = &r->ud;
}

static int cs_attach(void *g, ms_synth_options *so, ms_synth *const *s)
{
	cs_run *r = g;
	const synth_search_args *a = &r->a.s;
	synth_progress_head h = { "cantstop", a->algo, a->seed, a->evals, a->seconds, NULL, NULL, 0, 0, NULL, NULL };
	return synth_progress_open(&r->pj, CMD, r->a.progress_json, &h, so, s);
}

static int cs_row_report(void *g, ms_ctx *ctx, ms_synth *s, const ms_synth_stats *st)
{
	cs_run *r = g;
	cs_final f = { .a = &r->a, .algo = r->algo, .po = &r->po, .so = r->so, .st = *st };
	return cs_report(ctx, r->cs, s, &f, &r->ud);
}

static void cs_release(void *g)
{
	cs_run *r = g;
	synth_progress_close(&r->pj);
	ms_dsl_prog_free(r->initial);
	ms_cs_synth_free(r->cs);
}

static const synth_row cs_row = {
	sizeof(cs_run), synth_cantstop_usage, cs_defaults, cs_option,	   NULL,       0,
	cs_check,	cs_problem,	      cs_search,   cs_attach, cs_row_report, cs_release,
};

/* ---- self-play: Can't Stop against GA and earlier programs ----------------- */

typedef struct cs_sp {
	long matches, final_matches, feature_matches, probe_matches;
	int era;
	ms_cs_synth *cs; /* GA's problem: the final win rates */
} cs_sp;

static void cs_sp_usage(FILE *out)
{
	fprintf(out, "Can't Stop options: --matches N (1000), --final-matches N (10000), --feature-matches N (20),\n"
		     "--hss-library FILE (hss: one library shared by every iteration, read and rewritten by each),\n"
		     "--probe-matches N (generation and mutation keep programs that play N matches without error).\n");
}

static int cs_sp_option(void *g, int argc, char **argv, int *i)
{
	static const char *const names[] = { "--matches", "--final-matches", "--feature-matches", "--probe-matches" };
	static const long hi[] = { 100000000L, 100000000L, 100000, 1000 };
	cs_sp *c = g;
	long *dst[] = { &c->matches, &c->final_matches, &c->feature_matches, &c->probe_matches };
	for (size_t k = 0; k < sizeof names / sizeof *names; k++)
		if (!strcmp(argv[*i], names[k])) {
			const char *v = *i + 1 < argc ? argv[*i + 1] : NULL;
			++*i;
			return cli_parse_int("selfplay", names[k], v, 1, hi[k], dst[k]) ? CLI_USAGE : CLI_OK;
		}
	return SYNTH_OPT_OTHER;
}

static int cs_sp_make(void *ud, ms_ctx *ctx, const ms_dsl_prog *const *progs, int n, const ms_synth_problem **pb,
		      void **handle)
{
	ms_cs_synth_vs *v;
	int rc = ms_cs_synth_vs_new(ctx, &v, ud, progs, n);
	if (rc < 0)
		return rc;
	*pb = ms_cs_synth_vs_problem(v);
	*handle = v;
	return 0;
}

static void cs_sp_release(void *ud, void *handle)
{
	(void)ud;
	ms_cs_synth_vs_free(handle);
}

static int cs_sp_game(void *g, ms_ctx *ctx, int algo, ms_synth_selfplay_game *out)
{
	cs_sp *c = g;
	ms_cs_synth_options po;
	ms_cs_synth_options_init(&po, MS_CS_SYNTH_OPTIONS_VERSION);
	if (c->matches)
		po.matches = c->matches;
	if (c->final_matches)
		po.final_matches = c->final_matches;
	po.feature_matches = c->feature_matches;
	po.probe_matches = c->probe_matches;
	if (algo == MS_SYNTH_SKETCH_SA || algo == MS_SYNTH_SKETCH_UCT)
		po.oracle = MS_CS_ORACLE_GA;
	c->era = po.era;
	if (ms_cs_synth_new(ctx, &c->cs, &po) < 0)
		return synth_fail_as("selfplay", ctx, "problem");
	*out = (ms_synth_selfplay_game){ c->cs, 1, cs_sp_make, cs_sp_release };
	return CLI_OK;
}

static int cs_sp_vs_fixed(void *g, ms_ctx *ctx, void *probe, const ms_dsl_prog *p, int threads, double *out)
{
	cs_sp *c = g;
	int failed = 0;
	(void)probe;
	return ms_cs_synth_final_psi(ctx, c->cs, p, threads, 777, out, &failed);
}

static void cs_sp_describe(void *g, double vs, char *out, size_t size)
{
	cs_sp *c = g;
	snprintf(out, size, "win rate vs GA: %.4f over %ld fresh matches (seed 777)", vs,
		 c->final_matches ? c->final_matches : 10000L);
}

static void cs_sp_summary(void *g, char *out, size_t size)
{
	cs_sp *c = g;
	snprintf(out, size, " final_matches=%ld", c->final_matches ? c->final_matches : 10000L);
}

/*
 * Proved on vs_fixed's matches (GA, --final-matches, seed 777) only: the
 * searches score against earlier programs on matches drawn from each
 * evaluation's seed, so there is no fixed set of those matches to replay.
 */
static void cs_sp_simplify(void *g, ms_ctx *ctx, ms_dsl_prog *p, const ms_dsl_prog *const *pop, int n_pop,
			   synth_simplified *out)
{
	cs_sp *c = g;
	(void)pop;
	(void)n_pop;
	cs_simplify(ctx, ms_cs_synth_dsl(c->cs), p, c->final_matches ? c->final_matches : 10000L, 777, c->era, out);
}

static void cs_sp_release_state(void *g)
{
	ms_cs_synth_free(((cs_sp *)g)->cs);
}

static const synth_selfplay_row cs_selfplay = {
	sizeof(cs_sp),	cs_sp_usage,	cs_sp_option,	cs_sp_game,	     NULL,
	cs_sp_vs_fixed, ms_cs_dsl_save, "vs_ga",	cs_sp_describe, cs_sp_summary,
	cs_sp_release_state, cs_sp_simplify, CS_RAW_SUFFIX,
};

const synth_game synth_game_cantstop = { "cantstop", &cs_row, &cs_selfplay };
