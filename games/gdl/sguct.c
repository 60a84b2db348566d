/*
 * SGUCT (MAGICIAN slides 24-30): a population of linear functions, started
 * from the statistical analysis, learns by gradient descent the values UCT
 * found for its fully tried nodes; generations of `epochs` passes, fitness
 * 1 / MSE on a held-out share, the weakest replaced by mutated clones of the
 * best, weight and feature mutation as the slides give them. Features are
 * scaled by their largest magnitude in the training set while learning.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gdl_eval.h"
#include "microsynth/mcts.h"
#include "core/hash.h"
#include "core/opts.h"
#include "microsynth/rng.h"

#define MAX_TERMS 256

int ms_gdl_sguct_options_init(ms_gdl_sguct_options *o, unsigned int version)
{
	if (!MS_OPTS_VERSION_OK(version, MS_GDL_SGUCT_OPTIONS_VERSION))
		return MS_EINVAL;
	memset(o, 0, sizeof *o);
	o->version = version;
	o->population = 10;
	o->generations = 5;
	o->epochs = 100;
	o->replaced = 3;
	o->learning_rate = 0.01;
	o->test_share = 0.2;
	o->p_weight_mutation = 0.3;
	o->p_weight = 0.1;
	o->p_feature_mutation = 0.2;
	o->p_remove = 0.6;
	o->max_ratio = 100;
	o->max_terms = 30;
	o->min_visits = 10;
	o->seed = 1;
	return MS_OK;
}

/* An individual: terms over candidate indices (columns of the data), weights on the goal scale. */
typedef struct indiv {
	int n;
	int col[MAX_TERMS];
	double w[MAX_TERMS];
	double c, fit;
} indiv;

typedef struct learner {
	const ms_gdl_sguct_options *o;
	const gdl_rolefn *fn;
	long ns;       /* samples */
	int nc;        /* columns: the role's ranked candidates */
	double *x;     /* ns * nc feature values */
	double *scale; /* per column: largest magnitude (>= 1) */
	const double *y;
	long *order;   /* sample order; the first ntest are the test set */
	long ntest;
	uint64_t rng;
} learner;

static double predict(const learner *l, const indiv *in, long s)
{
	const double *xs = l->x + (size_t)s * (size_t)l->nc;
	double v = in->c;
	for (int i = 0; i < in->n; i++)
		v += in->w[i] * xs[in->col[i]];
	return v;
}

/* `epochs` passes of stochastic gradient descent on the training samples, on scaled features and results / 100. */
static void train(learner *l, indiv *in)
{
	double w[MAX_TERMS], c = in->c / 100.0, lr = l->o->learning_rate;
	for (int i = 0; i < in->n; i++)
		w[i] = in->w[i] * l->scale[in->col[i]] / 100.0;
	for (int ep = 0; ep < l->o->epochs; ep++)
		for (long k = l->ntest; k < l->ns; k++) {
			long s = l->order[k];
			const double *xs = l->x + (size_t)s * (size_t)l->nc;
			double p = c;
			for (int i = 0; i < in->n; i++)
				p += w[i] * xs[in->col[i]] / l->scale[in->col[i]];
			double err = p - l->y[s] / 100.0;
			for (int i = 0; i < in->n; i++)
				w[i] -= lr * err * xs[in->col[i]] / l->scale[in->col[i]];
			c -= lr * err;
		}
	for (int i = 0; i < in->n; i++)
		in->w[i] = w[i] * 100.0 / l->scale[in->col[i]];
	in->c = c * 100.0;
}

static double test_mse(const learner *l, const indiv *in)
{
	double se = 0;
	for (long k = 0; k < l->ntest; k++) {
		long s = l->order[k];
		double d = predict(l, in, s) - l->y[s];
		se += d * d;
	}
	return l->ntest ? se / (double)l->ntest : 0.0;
}

static double all_mse(const learner *l, const indiv *in)
{
	double se = 0;
	for (long s = 0; s < l->ns; s++) {
		double d = predict(l, in, s) - l->y[s];
		se += d * d;
	}
	return se / (double)l->ns;
}

static int has_col(const indiv *in, int c)
{
	for (int i = 0; i < in->n; i++)
		if (in->col[i] == c)
			return 1;
	return 0;
}

/* A candidate not yet in the individual, by roulette on the rank score; -1 if none is left. */
static int draw_candidate(learner *l, const indiv *in)
{
	double total = 0;
	for (int c = 0; c < l->nc; c++)
		if (!has_col(in, c))
			total += l->fn->cand[c].score;
	double x = ms_rng_unit(&l->rng) * total;
	int last = -1;
	for (int c = 0; c < l->nc; c++) {
		if (has_col(in, c))
			continue;
		last = c;
		if ((x -= l->fn->cand[c].score) < 0)
			return c;
	}
	return last;
}

static void add_term(learner *l, indiv *in)
{
	int c = in->n < MAX_TERMS ? draw_candidate(l, in) : -1;
	if (c >= 0)
		in->col[in->n] = c, in->w[in->n] = l->fn->cand[c].s * l->fn->cand[c].corr, in->n++;
}

/* Slide 28: each weight with p_weight gains a uniform value in [-d, d], d = max(1, |w|). */
static void mutate_weights(learner *l, indiv *in)
{
	for (int i = 0; i < in->n; i++)
		if (ms_rng_unit(&l->rng) < l->o->p_weight) {
			double d = fmax(1.0, fabs(in->w[i]));
			in->w[i] += (2 * ms_rng_unit(&l->rng) - 1) * d;
		}
}

/* Slide 29: maybe remove a feature (roulette on 1 / sensitivity), then add a new one. */
static void mutate_features(learner *l, indiv *in)
{
	double sens[MAX_TERMS], lo = INFINITY, hi = 0, inv = 0;
	int zero = -1;
	for (int i = 0; i < in->n; i++) {
		sens[i] = fabs(in->w[i]) * l->scale[in->col[i]];
		lo = fmin(lo, sens[i]), hi = fmax(hi, sens[i]);
		if (sens[i] <= 0 && zero < 0)
			zero = i;
		inv += sens[i] > 0 ? 1 / sens[i] : 0;
	}
	int remove = in->n > l->o->max_terms || (in->n && lo > 0 && hi / lo > l->o->max_ratio) ||
		     ms_rng_unit(&l->rng) < l->o->p_remove;
	if (remove && in->n > 0) {
		int k = zero;
		double x = ms_rng_unit(&l->rng) * inv;
		for (int i = 0; k < 0 && i < in->n; i++)
			if ((x -= 1 / sens[i]) < 0 || i == in->n - 1)
				k = i;
		in->col[k] = in->col[in->n - 1], in->w[k] = in->w[in->n - 1], in->n--;
	}
	add_term(l, in);
}

static void mutate(learner *l, indiv *in, int force_weights)
{
	if (force_weights || ms_rng_unit(&l->rng) < l->o->p_weight_mutation)
		mutate_weights(l, in);
	if (ms_rng_unit(&l->rng) < l->o->p_feature_mutation)
		mutate_features(l, in);
}

static int cmp_fit(const void *a, const void *b)
{
	double x = ((const indiv *)a)->fit, y = ((const indiv *)b)->fit;
	return (x < y) - (x > y);
}

/* Individual 0 is the current function; the others draw as many features by roulette on the rank score. */
static void seed_population(learner *l, indiv *pop, int np, const gdl_rolefn *fn)
{
	memset(pop, 0, sizeof *pop * (size_t)np);
	for (int i = 0; i < fn->n && pop[0].n < MAX_TERMS; i++)
		for (int c = 0; c < l->nc; c++)
			if (fn->cand[c].feat == fn->feat[i]) {
				pop[0].col[pop[0].n] = c, pop[0].w[pop[0].n++] = fn->w[i];
				break;
			}
	pop[0].c = fn->c;
	for (int k = 1; k < np; k++) {
		pop[k].c = fn->c;
		for (int i = 0; i < (fn->n ? fn->n : 1); i++)
			add_term(l, &pop[k]);
	}
}

/* A new random split: the first ntest of order are the test set. */
static void shuffle(learner *l)
{
	for (long i = l->ns - 1; i > 0; i--) {
		long j = (long)ms_rng_below(&l->rng, (uint32_t)(i + 1)), t = l->order[i];
		l->order[i] = l->order[j], l->order[j] = t;
	}
}

static void evolve(learner *l, indiv *pop, int np)
{
	const ms_gdl_sguct_options *o = l->o;
	int best = o->replaced < np / 2 ? o->replaced : np / 2;
	for (int gen = 0; gen < o->generations; gen++) {
		shuffle(l);
		for (int k = 0; k < np; k++) {
			train(l, &pop[k]);
			pop[k].fit = 1.0 / (test_mse(l, &pop[k]) + 1e-12);
		}
		qsort(pop, (size_t)np, sizeof *pop, cmp_fit);
		if (gen == o->generations - 1)
			break;
		for (int k = 0; k < best; k++) { /* the weakest give way to mutated clones of the best */
			pop[np - 1 - k] = pop[k];
			mutate(l, &pop[np - 1 - k], 1);
		}
		for (int k = best; k < np - best; k++)
			mutate(l, &pop[k], 0);
	}
}

/* Every candidate's value in every sample, and each column's largest magnitude. */
static void fill_columns(learner *l, const gdl_featset *fs, const uint64_t *states, size_t words, int *cnt)
{
	for (int c = 0; c < l->nc; c++)
		l->scale[c] = 1;
	for (long s = 0; s < l->ns; s++) {
		gdl_featset_counts(fs, states + (size_t)s * words, cnt);
		for (int c = 0; c < l->nc; c++) {
			double v = gdl_feat_from_counts(fs, l->fn->cand[c].feat, cnt);
			l->x[(size_t)s * (size_t)l->nc + (size_t)c] = v;
			l->scale[c] = fmax(l->scale[c], fabs(v));
		}
	}
}

static int check_sguct_options(ms_ctx *ctx, const ms_gdl_eval *e, int r, const ms_gdl_sguct_options *o)
{
	if (!e || !o || o->version != MS_GDL_SGUCT_OPTIONS_VERSION || r < 0 || r >= e->nr)
		return ms_ctx_error(ctx, MS_EINVAL, "gdl sguct: missing function, bad role or unknown options version");
	if (o->population < 2 || o->population > 1000 || o->generations < 1 || o->epochs < 0 || o->replaced < 0 ||
	    o->max_terms < 1 || o->max_terms >= MAX_TERMS)
		return ms_ctx_error(ctx, MS_EINVAL,
				    "gdl sguct: population 2-1000, generations >= 1, epochs >= 0, max_terms 1-%d", MAX_TERMS - 1);
	if (!(o->learning_rate > 0) || !(o->test_share > 0 && o->test_share < 1))
		return ms_ctx_error(ctx, MS_EINVAL, "gdl sguct: learning_rate > 0 and test_share in (0, 1)");
	return MS_OK;
}

int ms_gdl_sguct_refine(ms_ctx *ctx, ms_gdl_eval *e, int r, const uint64_t *states, const double *values, long n,
			const ms_gdl_sguct_options *o, ms_gdl_sguct_report *rep)
{
	int rc;
	if ((rc = check_sguct_options(ctx, e, r, o)) < 0)
		return rc;
	gdl_rolefn *fn = &e->fn[r];
	if (rep)
		*rep = (ms_gdl_sguct_report){ n, -1, -1 };
	if (n < 5 || fn->ncand == 0)
		return MS_OK; /* nothing to learn from */
	learner l = { .o = o, .fn = fn, .ns = n, .nc = fn->ncand, .y = values };
	l.rng = o->seed * MS_SPLITMIX_GAMMA + (uint64_t)r + 7;
	l.ntest = (long)ceil(o->test_share * (double)n);
	l.x = ms_ctx_calloc(ctx, (size_t)n * (size_t)l.nc, sizeof *l.x);
	l.scale = ms_ctx_calloc(ctx, (size_t)l.nc, sizeof *l.scale);
	l.order = ms_ctx_calloc(ctx, (size_t)n, sizeof *l.order);
	int *cnt = ms_ctx_calloc(ctx, (size_t)e->fs->npat + 1, sizeof *cnt);
	indiv *pop = ms_ctx_calloc(ctx, (size_t)o->population, sizeof *pop);
	if (!l.x || !l.scale || !l.order || !cnt || !pop) {
		rc = ms_ctx_error(ctx, MS_ENOMEM, "gdl sguct: out of memory for %ld samples", n);
	} else {
		for (long s = 0; s < n; s++)
			l.order[s] = s;
		fill_columns(&l, e->fs, states, e->g->words ? e->g->words : 1, cnt);
		seed_population(&l, pop, o->population, fn);
		if (rep)
			rep->mse_before = all_mse(&l, &pop[0]);
		evolve(&l, pop, o->population);
		if (rep)
			rep->mse_after = all_mse(&l, &pop[0]);
		long feat[MAX_TERMS];
		for (int i = 0; i < pop[0].n; i++)
			feat[i] = fn->cand[pop[0].col[i]].feat;
		if ((rc = gdl_rolefn_set(ctx, fn, feat, pop[0].w, pop[0].n)) == MS_OK)
			fn->c = pop[0].c;
	}
	ms_ctx_mfree(ctx, l.x);
	ms_ctx_mfree(ctx, l.scale);
	ms_ctx_mfree(ctx, l.order);
	ms_ctx_mfree(ctx, cnt);
	ms_ctx_mfree(ctx, pop);
	return rc;
}

/* ---- the training set from a UCT tree ---------------------------------------- */

typedef struct collect {
	ms_ctx *ctx;
	size_t words;
	uint64_t *states;
	double *values;
	int n, cap_states, cap_values;
} collect;

static int collect_one(void *ud, const uint64_t *state, double value)
{
	collect *c = ud;
	if (ms_vec_grow(c->ctx, (void **)&c->states, &c->cap_states, c->n + 1LL, sizeof *c->states * c->words) ||
	    ms_vec_grow(c->ctx, (void **)&c->values, &c->cap_values, c->n + 1LL, sizeof *c->values))
		return MS_ENOMEM;
	memcpy(c->states + (size_t)c->n * c->words, state, sizeof *state * c->words);
	c->values[c->n++] = value;
	return 0;
}

int ms_gdl_sguct_learn(ms_ctx *ctx, ms_gdl_eval *e, ms_gdl_uct *u, const ms_gdl_sguct_options *o,
		       ms_gdl_sguct_report *rep)
{
	int rc = MS_OK;
	if (rep)
		*rep = (ms_gdl_sguct_report){ 0, 0, 0 };
	for (int r = 0; e && rc == MS_OK && r < e->nr; r++) {
		collect c = { .ctx = ctx, .words = e->g->words ? e->g->words : 1 };
		rc = ms_gdl_uct_expanded(u, r, o ? o->min_visits : 0, collect_one, &c);
		ms_gdl_sguct_report one = { 0, -1, -1 };
		if (rc == MS_OK)
			rc = ms_gdl_sguct_refine(ctx, e, r, c.states, c.values, c.n, o, &one);
		if (rc == MS_OK && rep && one.mse_after >= 0) {
			rep->samples += one.samples;
			rep->mse_before += one.mse_before * (double)one.samples;
			rep->mse_after += one.mse_after * (double)one.samples;
		}
		ms_ctx_mfree(ctx, c.states);
		ms_ctx_mfree(ctx, c.values);
	}
	return rc;
}

int ms_gdl_sguct_offline(ms_ctx *ctx, const ms_gdl *g, ms_gdl_eval *e, const ms_gdl_uct_options *uo,
			 const ms_gdl_sguct_options *o, ms_gdl_sguct_report *rep)
{
	ms_gdl_uct_options go = *uo;
	go.eval = e;
	ms_gdl_uct *u = NULL;
	uint64_t *st = ms_ctx_calloc(ctx, g->words + 1, sizeof *st);
	int joint[MS_MCTS_MAX_PLAYERS], rc;
	if (!st)
		rc = ms_ctx_error(ctx, MS_ENOMEM, "gdl sguct: out of memory");
	else if ((rc = ms_gdl_uct_new(ctx, &u, g, &go)) == MS_OK) {
		ms_gdl_initial(g, st);
		if ((rc = ms_gdl_uct_search(u, st, joint)) == MS_OK)
			rc = ms_gdl_sguct_learn(ctx, e, u, o, rep);
	}
	ms_gdl_uct_free(u);
	ms_ctx_mfree(ctx, st);
	return rc;
}

int ms_gdl_eval_clone(ms_ctx *ctx, ms_gdl_eval **out, const ms_gdl_eval *e)
{
	*out = NULL;
	ms_gdl_eval *c = ms_ctx_calloc(ctx, 1, sizeof *c);
	if (!c)
		return ms_ctx_error(ctx, MS_ENOMEM, "gdl eval: out of memory");
	c->ctx = ctx, c->g = e->g, c->fs = e->fs, c->nr = e->nr, c->borrowed = 1;
	c->fn = ms_ctx_calloc(ctx, (size_t)e->nr, sizeof *c->fn);
	int rc = c->fn ? MS_OK : ms_ctx_error(ctx, MS_ENOMEM, "gdl eval: out of memory");
	for (int r = 0; rc == MS_OK && r < e->nr; r++) {
		const gdl_rolefn *f = &e->fn[r];
		c->fn[r].c = f->c;
		c->fn[r].ncand = f->ncand;
		if (!(c->fn[r].cand = ms_ctx_calloc(ctx, (size_t)f->ncand + 1, sizeof *f->cand)))
			rc = ms_ctx_error(ctx, MS_ENOMEM, "gdl eval: out of memory");
		else
			memcpy(c->fn[r].cand, f->cand, sizeof *f->cand * (size_t)f->ncand);
		if (rc == MS_OK)
			rc = gdl_rolefn_set(ctx, &c->fn[r], f->feat, f->w, f->n);
	}
	if (rc < 0) {
		ms_gdl_eval_free(c);
		return rc;
	}
	*out = c;
	return MS_OK;
}
