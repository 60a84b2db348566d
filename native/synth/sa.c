/*
 * Simulated annealing, Sketch-SA and random sampling (spec/cantstop.md
 * 7.2, 7.3; the AAAI 2022 paper's "Simulated Annealing for Synthesis of
 * Strategies" and "Sketch Learning with Simulated Annealing").
 *
 * One pass, as the reference code runs it: evaluate the start program;
 * then while T > eps: mutate a copy of the current program, evaluate it,
 * accept it with probability min(1, exp(beta * (new - current) / T)),
 * and set T = t1 / (1 + alpha * i) with i counting from 2 after the first
 * mutation (109 mutations per pass with the defaults). Every evaluation
 * can improve the best program; passes repeat until the budget is spent.
 * With sa_neighbours = k > 1, each step evaluates k mutations of the
 * current program at once and the best of them (the first among equals)
 * competes, as the MicroRTS references do (spec/dsl.md 13.3).
 */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "synth_internal.h"

/* Where the next pass starts (resolved from ms_synth_restart per use). */
enum { R_START = SYN_SA_RESTART_START, R_BEST = SYN_SA_RESTART_BEST, R_PASS = SYN_SA_RESTART_PASS,
       R_GLOBAL_PSI = SYN_SA_RESTART_GLOBAL_PSI };

typedef struct sa_search {
	ms_synth *s;
	int kind;
	int use_cache;
	ms_dsl_prog *cur, *best, *pass_best, *start;
	double cur_score, best_score, pass_score;
	ms_dsl_prog **nb;
	double *nb_score;
	int k;
	/* the paper's Sketch-SA: Psi of every program that improves the run's best C */
	int psi_on_improve;
	ms_dsl_prog *psi_best;
	double psi_best_score;
} sa_search;

static void sa_free(sa_search *a)
{
	ms_synth *s = a->s;
	ms_dsl_prog_free(a->cur);
	ms_dsl_prog_free(a->best);
	ms_dsl_prog_free(a->pass_best);
	ms_dsl_prog_free(a->start);
	ms_dsl_prog_free(a->psi_best);
	for (int i = 0; a->nb && i < a->k; i++)
		ms_dsl_prog_free(a->nb[i]);
	ms_ctx_mfree(s->ctx, a->nb);
	ms_ctx_mfree(s->ctx, a->nb_score);
}

static int sa_init(sa_search *a, ms_synth *s, int kind)
{
	memset(a, 0, sizeof *a);
	a->s = s;
	a->kind = kind;
	a->use_cache = s->o.sa_cache;
	a->k = s->o.sa_neighbours;
	a->best_score = a->pass_score = a->psi_best_score = -1;
	int rc;
	if ((rc = syn_prog_new(s, &a->cur)) < 0 || (rc = syn_prog_new(s, &a->best)) < 0 ||
	    (rc = syn_prog_new(s, &a->pass_best)) < 0 || (rc = syn_prog_new(s, &a->start)) < 0 ||
	    (rc = syn_prog_new(s, &a->psi_best)) < 0)
		return rc;
	a->nb = ms_ctx_calloc(s->ctx, (size_t)a->k, sizeof *a->nb);
	a->nb_score = ms_ctx_calloc(s->ctx, (size_t)a->k, sizeof *a->nb_score);
	if (!a->nb || !a->nb_score)
		return ms_ctx_error(s->ctx, MS_ENOMEM, "annealing: out of memory");
	for (int i = 0; i < a->k; i++)
		if ((rc = syn_prog_new(s, &a->nb[i])) < 0)
			return rc;
	return 0;
}

/* A new score for program p: the search's and the pass's best; the paper's Psi probe. */
static int sa_record(sa_search *a, const ms_dsl_prog *p, double score)
{
	int rc;
	if (a->pass_score < 0 || score > a->pass_score) {
		if ((rc = ms_dsl_prog_copy(a->pass_best, p)) < 0)
			return rc;
		a->pass_score = score;
	}
	if (a->best_score < 0 || score > a->best_score) {
		if ((rc = ms_dsl_prog_copy(a->best, p)) < 0)
			return rc;
		a->best_score = score;
		if (a->psi_on_improve) {
			/* evaluate a copy: the caller still needs p */
			ms_dsl_prog *q;
			double psi;
			if ((rc = ms_dsl_prog_clone(&q, p)) < 0)
				return rc;
			rc = syn_eval1(a->s, q, MS_SYNTH_PSI, a->use_cache, &psi);
			if (rc == 0 && (a->psi_best_score < 0 || psi > a->psi_best_score)) {
				rc = ms_dsl_prog_copy(a->psi_best, q);
				a->psi_best_score = psi;
			}
			ms_dsl_prog_free(q);
			if (rc != 0)
				return rc;
		}
	}
	return 0;
}

/* One annealing pass from a->start. Returns 0 at its end, SYN_STOP / SYN_PHASE, or an error. */
static int sa_pass(sa_search *a)
{
	ms_synth *s = a->s;
	const ms_synth_options *o = &s->o;
	int rc, n_done;
	if ((rc = ms_dsl_prog_copy(a->cur, a->start)) < 0)
		return rc;
	a->pass_score = -1;
	if ((rc = syn_eval1(s, a->cur, a->kind, a->use_cache, &a->cur_score)) != 0)
		return rc;
	if ((rc = sa_record(a, a->cur, a->cur_score)) != 0)
		return rc;
	double t = o->sa_t1;
	long long i = 1;
	while (t > o->sa_eps) {
		for (int j = 0; j < a->k; j++) {
			if ((rc = ms_dsl_prog_copy(a->nb[j], a->cur)) < 0 || (rc = syn_mutate(s, a->nb[j])) < 0)
				return rc;
		}
		int ev = syn_eval(s, a->nb, a->k, a->kind, a->use_cache, a->nb_score, &n_done);
		if (ev < 0)
			return ev;
		int pick = -1;
		for (int j = 0; j < n_done; j++) {
			if ((rc = sa_record(a, a->nb[j], a->nb_score[j])) != 0)
				return rc;
			if (pick < 0 || a->nb_score[j] > a->nb_score[pick])
				pick = j;
		}
		if (ev != 0)
			return ev;
		double p = exp(o->sa_beta * (a->nb_score[pick] - a->cur_score) / t);
		if (p > 1)
			p = 1;
		if (syn_uniform(s) < p) {
			ms_dsl_prog *tmp = a->cur;
			a->cur = a->nb[pick];
			a->nb[pick] = tmp;
			a->cur_score = a->nb_score[pick];
		}
		i++;
		t = o->sa_t1 / (1 + o->sa_alpha * (double)i);
	}
	return 0;
}

/* Chooses the next pass's start; a random program while the relevant best scores 0. */
static int sa_next_start(sa_search *a, int restart)
{
	ms_synth *s = a->s;
	switch (restart) {
	case R_START:
		return 0;
	case R_BEST:
		if (a->best_score > 0)
			return ms_dsl_prog_copy(a->start, a->best);
		break;
	case R_PASS:
		if (a->pass_score > 0)
			return ms_dsl_prog_copy(a->start, a->pass_best);
		break;
	default:
		if (s->best_score[MS_SYNTH_PSI] > 0)
			return ms_dsl_prog_copy(a->start, s->best[MS_SYNTH_PSI]);
		break;
	}
	return syn_generate(s, a->start);
}

/* Passes from `start` (NULL: a random program) until `max_passes` (0: no limit) or the budget ends. */
static int sa_passes(sa_search *a, const ms_dsl_prog *start, int max_passes, int restart)
{
	int rc = start ? ms_dsl_prog_copy(a->start, start) : syn_generate(a->s, a->start);
	if (rc < 0)
		return rc;
	for (int pass = 0; max_passes == 0 || pass < max_passes; pass++) {
		if ((rc = sa_pass(a)) != 0)
			return rc;
		if ((rc = sa_next_start(a, restart)) < 0)
			return rc;
	}
	return 0;
}

int syn_sa_step(ms_synth *s, int kind, const ms_dsl_prog *start, int max_passes, int restart, ms_dsl_prog *best,
		double *best_score)
{
	sa_search a;
	int rc;

	if (restart < R_START || restart > R_GLOBAL_PSI)
		return ms_ctx_error(s->ctx, MS_EINVAL, "SA step: unknown restart rule %d", restart);
	if ((rc = sa_init(&a, s, kind)) == 0)
		rc = sa_passes(&a, start, max_passes, restart);
	if (rc == SYN_PHASE)
		rc = 0;
	if (rc >= 0 && best_score)
		*best_score = a.best_score;
	if (rc >= 0 && best && a.best_score >= 0) {
		int c = ms_dsl_prog_copy(best, a.best);
		if (c < 0)
			rc = c;
	}
	sa_free(&a);
	return rc;
}

int syn_run_sa(ms_synth *s)
{
	int restart = s->o.sa_restart == MS_SYNTH_RESTART_PASS ? R_PASS :
		      s->o.sa_restart == MS_SYNTH_RESTART_BEST ? R_BEST : s->o.initial ? R_START : R_BEST;
	syn_phase(s, MS_SYNTH_PHASE_SEARCH, 0, 0, 0);
	return syn_sa_step(s, MS_SYNTH_PSI, s->o.initial, 0, restart, NULL, NULL);
}

/*
 * Sketch-SA as the code runs it: `sketch_runs` (5) SA searches on C from
 * random programs, each of at most `sketch_passes` (10) passes (and its
 * share of sketch_evals / the sketch time); the best program of each by C
 * (or, in the paper's variant, the best by Psi among those that improved
 * C) is scored with Psi; the best of those seeds the BR search: one pass
 * at a time on Psi, each from the previous pass's best program.
 */
int syn_run_sketch_sa(ms_synth *s)
{
	const ms_synth_options *o = &s->o;
	int runs = o->sketch_runs > 0 ? o->sketch_runs : 5;
	int sketch_restart = o->sa_restart == MS_SYNTH_RESTART_PASS ? R_PASS : R_BEST;
	ms_dsl_prog *sketch = NULL;
	double sketch_psi = -1;
	long long c0 = s->evals[MS_SYNTH_C];
	int rc = syn_prog_new(s, &sketch);
	for (int r = 0; rc == 0 && r < runs; r++) {
		sa_search a;
		long long limit = s->sketch_c_budget > 0 ? c0 + s->sketch_c_budget * (r + 1) / runs : 0;
		double deadline = s->sketch_seconds > 0 ? s->sketch_seconds * (r + 1) / runs : 0;
		if ((rc = sa_init(&a, s, MS_SYNTH_C)) == 0) {
			a.psi_on_improve = o->sketch_psi == MS_SYNTH_SKETCH_PSI_IMPROVEMENTS;
			syn_phase(s, MS_SYNTH_PHASE_SKETCH, r, limit, deadline);
			rc = sa_passes(&a, NULL, o->sketch_passes, sketch_restart);
			if (rc == SYN_PHASE)
				rc = 0;
			syn_phase(s, MS_SYNTH_PHASE_SKETCH, r, 0, 0);
			if (rc == 0 && !a.psi_on_improve && a.best_score >= 0) {
				if ((rc = ms_dsl_prog_copy(a.psi_best, a.best)) == 0)
					rc = syn_eval1(s, a.psi_best, MS_SYNTH_PSI, a.use_cache, &a.psi_best_score);
			}
			if (rc == 0 && a.psi_best_score >= 0 && (sketch_psi < 0 || a.psi_best_score > sketch_psi)) {
				rc = ms_dsl_prog_copy(sketch, a.psi_best);
				sketch_psi = a.psi_best_score;
			}
		}
		sa_free(&a);
	}
	if (rc == 0) {
		sa_search a;
		if ((rc = sa_init(&a, s, MS_SYNTH_PSI)) == 0) {
			int restart = o->sa_restart == MS_SYNTH_RESTART_BEST ? R_GLOBAL_PSI : R_PASS;
			syn_phase(s, MS_SYNTH_PHASE_BR, 0, 0, 0);
			rc = sa_passes(&a, sketch_psi >= 0 ? sketch : NULL, 0, restart);
		}
		sa_free(&a);
	}
	ms_dsl_prog_free(sketch);
	return rc == SYN_PHASE ? 0 : rc;
}

/* Random sampling: fresh random programs, in batches (generation never depends on scores). */
int syn_run_random(ms_synth *s)
{
	enum { BATCH = 8 };
	ms_dsl_prog *p[BATCH] = { 0 };
	double score[BATCH];
	int rc = 0, n_done;
	for (int i = 0; rc == 0 && i < BATCH; i++)
		rc = syn_prog_new(s, &p[i]);
	syn_phase(s, MS_SYNTH_PHASE_SEARCH, 0, 0, 0);
	while (rc == 0) {
		for (int i = 0; rc == 0 && i < BATCH; i++)
			rc = syn_generate(s, p[i]);
		if (rc == 0)
			rc = syn_eval(s, p, BATCH, MS_SYNTH_PSI, 0, score, &n_done);
	}
	for (int i = 0; i < BATCH; i++)
		ms_dsl_prog_free(p[i]);
	return rc == SYN_PHASE ? 0 : rc;
}

/* ---- SA's and sketch learning's options ---- */

static void sa_defaults(ms_synth_options *o)
{
	o->sa_t1 = 100;
	o->sa_alpha = 0.9;
	o->sa_beta = 200;
	o->sa_eps = 1;
	o->sa_neighbours = 1;
	o->sa_restart = MS_SYNTH_RESTART_CODE;
}

static int sa_check(ms_ctx *ctx, const ms_synth_problem *pb, const ms_synth_options *o)
{
	(void)pb;
	if (!(o->sa_t1 > 0) || !(o->sa_eps > 0) || !(o->sa_alpha > 0) || !(o->sa_beta >= 0) || isinf(o->sa_t1))
		return ms_ctx_error(ctx, MS_EINVAL, "search options: annealing needs t1 > 0, eps > 0, alpha > 0, beta >= 0");
	if (o->sa_t1 / o->sa_eps > 1e9 * o->sa_alpha)
		return ms_ctx_error(ctx, MS_EINVAL, "search options: annealing passes of more than 10^9 steps (t1 %g, eps %g, alpha %g)",
				    o->sa_t1, o->sa_eps, o->sa_alpha);
	if (o->sa_neighbours < 1 || o->sa_neighbours > 1 << 16)
		return ms_ctx_error(ctx, MS_EINVAL, "search options: %d neighbours per step", o->sa_neighbours);
	if (o->sa_restart < 0 || o->sa_restart > MS_SYNTH_RESTART_PASS)
		return ms_ctx_error(ctx, MS_EINVAL, "search options: unknown restart rule %d", o->sa_restart);
	return 0;
}

static int sa_header(ms_synth *s, ms_buf *b)
{
	const ms_synth_options *o = &s->o;
	return ms_buf_printf(b, "sa %.17g %.17g %.17g %.17g %d %d %d\n", o->sa_t1, o->sa_alpha, o->sa_beta, o->sa_eps,
			     o->sa_neighbours, o->sa_restart, o->sa_cache);
}

/* SA's steps run in sa, sketch-sa's passes and hss's iterations; the restart rule only in the first two. */
static const ms_synth_knob sa_knobs[] = {
	{ "--neighbours", MS_SYNTH_KNOB_INT, 1, 1 << 16, 0, offsetof(ms_synth_options, sa_neighbours),
	  SYN_ALGO(MS_SYNTH_SA) | SYN_ALGO(MS_SYNTH_SKETCH_SA) | SYN_ALGO(MS_SYNTH_HSS), NULL, "K",
	  "SA: mutations per step, the best one competes (1)" },
	{ "--restart", MS_SYNTH_KNOB_CHOICE, 0, 0, 0, offsetof(ms_synth_options, sa_restart),
	  SYN_ALGO(MS_SYNTH_SA) | SYN_ALGO(MS_SYNTH_SKETCH_SA), "code|best|pass", "code|best|pass",
	  "where SA passes restart: as the reference code (default), the best so far, the last pass's best" },
};

const syn_opts_part syn_sa_part = { sa_defaults, sa_check, sa_header, NULL, sa_knobs,
				    sizeof sa_knobs / sizeof *sa_knobs };

static void sketch_defaults(ms_synth_options *o)
{
	o->sketch_passes = 10;
	o->sketch_psi = MS_SYNTH_SKETCH_PSI_RUN_BEST;
}

static int sketch_check(ms_ctx *ctx, const ms_synth_problem *pb, const ms_synth_options *o)
{
	(void)pb;
	if (o->sketch_evals < 0 || o->sketch_share < 0 || o->sketch_share > 1)
		return ms_ctx_error(ctx, MS_EINVAL, "search options: negative budget, or a sketch share outside [0, 1]");
	if (o->sketch_runs < 0 || o->sketch_passes < 1 || o->sketch_psi < 0 ||
	    o->sketch_psi > MS_SYNTH_SKETCH_PSI_IMPROVEMENTS)
		return ms_ctx_error(ctx, MS_EINVAL, "search options: bad sketch settings");
	return 0;
}

static int sketch_header(ms_synth *s, ms_buf *b)
{
	const ms_synth_options *o = &s->o;
	return ms_buf_printf(b, "sketch %d %d %d %lld %.17g\n", o->sketch_runs, o->sketch_passes, o->sketch_psi,
			     s->sketch_c_budget, s->sketch_seconds);
}

static const ms_synth_knob sketch_knobs[] = {
	{ "--sketch-evals", MS_SYNTH_KNOB_LONG, 1, 1e9, 0, offsetof(ms_synth_options, sketch_evals),
	  SYN_ALGO(MS_SYNTH_SKETCH_SA) | SYN_ALGO(MS_SYNTH_SKETCH_UCT), NULL, "N",
	  "C evaluations of the sketch phase (default: the algorithm's own)" },
	{ "--sketch-share", MS_SYNTH_KNOB_REAL, 0, 1, 1, offsetof(ms_synth_options, sketch_share),
	  SYN_ALGO(MS_SYNTH_SKETCH_SA) | SYN_ALGO(MS_SYNTH_SKETCH_UCT), NULL, "X",
	  "with --time, the sketch phase's share of it (Sketch-UCT 0.2; Sketch-SA: its passes)" },
};

const syn_opts_part syn_sketch_part = { sketch_defaults, sketch_check, sketch_header, NULL, sketch_knobs,
					sizeof sketch_knobs / sizeof *sketch_knobs };

void syn_setup_sketch_sa(ms_synth *s)
{
	s->sketch_c_budget = s->o.sketch_evals;
	s->sketch_seconds = s->o.sketch_share > 0 ? s->o.sketch_share * s->o.max_seconds : 0;
}

void syn_setup_sketch_uct(ms_synth *s)
{
	const ms_synth_options *o = &s->o;
	s->sketch_c_budget = o->sketch_evals > 0 ? o->sketch_evals : o->max_evals;
	s->sketch_seconds = o->max_seconds > 0 ? (o->sketch_share > 0 ? o->sketch_share : 0.2) * o->max_seconds : 0;
}
