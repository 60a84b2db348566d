/*
 * StatGUCT (MAGICIAN slides 19-21): sample sequences of nearby positions
 * from random games, score each sequence by random playouts, and keep the
 * features that vary across games but little between nearby positions and
 * correlate with the result. Statistics are accumulated sequence by
 * sequence, so only one sequence's feature values are held at a time.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gdl_eval.h"
#include "microsynth/mcts.h"
#include "core/hash.h"
#include "core/opts.h"
#include "microsynth/rng.h"

/* Ranked candidates kept beside each function, for SGUCT's new features. */
#define CANDIDATES 300
/* A random game longer than this is taken for rules that never end. */
#define MAX_GAME 100000

int ms_gdl_stat_options_init(ms_gdl_stat_options *o, unsigned int version)
{
	if (!MS_OPTS_VERSION_OK(version, MS_GDL_STAT_OPTIONS_VERSION))
		return MS_EINVAL;
	memset(o, 0, sizeof *o);
	o->version = version;
	o->sequences = 100;
	o->positions = 5;
	o->gap = 2;
	o->playouts = 10;
	o->stability_k = 10;
	o->keep = 30;
	o->differences = 1;
	o->max_features = 20000;
	o->seed = 1;
	return MS_OK;
}

typedef struct sampler {
	ms_ctx *ctx;
	const ms_gdl *g;
	ms_gdl_machine *m;
	const ms_gdl_stat_options *o;
	int nr;
	size_t words;
	uint64_t rng;
	uint64_t *path; /* the states of the current random game */
	int cap_path; /* in states */
	uint64_t *a, *b; /* scratch states */
} sampler;

/* A uniformly random joint move in the machine's current (non-terminal) state. */
static int random_joint(sampler *s, int *joint)
{
	for (int r = 0; r < s->nr; r++) {
		const int *mv;
		int n = ms_gdl_legal(s->m, r, &mv);
		if (n <= 0)
			return ms_ctx_error(s->ctx, MS_EINVAL, "gdl stat: %s: role %s has no legal move in a non-terminal state",
					    s->g->name, ms_gdl_role_name(s->g, r));
		joint[r] = mv[ms_rng_below(&s->rng, (uint32_t)n)];
	}
	return MS_OK;
}

/* Sets the machine to `st`; *terminal tells whether it is. */
static int set(sampler *s, const uint64_t *st, int *terminal)
{
	int rc = ms_gdl_machine_set(s->m, st);
	*terminal = rc == MS_OK && ms_gdl_terminal(s->m);
	return rc;
}

/* One random joint move from the machine's current state into `out`. */
static int step(sampler *s, uint64_t *out)
{
	int joint[MS_MCTS_MAX_PLAYERS], rc;
	if ((rc = random_joint(s, joint)) < 0)
		return rc;
	return ms_gdl_next(s->m, joint, out);
}

/* Sets the machine to s->a and, unless that state is terminal (*term), moves s->a
 * on by one random joint move; n joint moves were played before (at most MAX_GAME). */
static int advance(sampler *s, long n, int *term)
{
	int rc;
	if ((rc = set(s, s->a, term)) < 0 || *term)
		return rc;
	if (n >= MAX_GAME)
		return ms_ctx_error(s->ctx, MS_EINVAL, "gdl stat: %s: a random game did not end in %d joint moves",
				    s->g->name, MAX_GAME);
	if ((rc = step(s, s->b)) < 0)
		return rc;
	memcpy(s->a, s->b, s->words * sizeof *s->a);
	return MS_OK;
}

/* Adds each role's goal after a random playout from `from` to res[]. */
static int playout(sampler *s, const uint64_t *from, double *res)
{
	int rc, term = 0;
	memcpy(s->a, from, s->words * sizeof *from);
	for (long n = 0; !term; n++)
		if ((rc = advance(s, n, &term)) < 0)
			return rc;
	for (int r = 0; r < s->nr; r++) {
		int v;
		if (ms_gdl_goal(s->m, r, &v) < 0)
			v = s->o->goal_default; /* an ill-defined goal counts as the default (spec 2.4) */
		res[r] += v;
	}
	return MS_OK;
}

/* A random game from the initial state, stopped at a uniformly chosen non-terminal ply, into out. */
static int start_position(sampler *s, uint64_t *out)
{
	int rc, term;
	long n = 0;
	ms_gdl_initial(s->g, s->a);
	for (;; n++) {
		if (ms_vec_grow(s->ctx, (void **)&s->path, &s->cap_path, n + 1, sizeof *s->path * s->words))
			return MS_ENOMEM;
		memcpy(s->path + (size_t)n * s->words, s->a, s->words * sizeof *s->a);
		if ((rc = advance(s, n, &term)) < 0)
			return rc;
		if (term)
			break;
	}
	if (n == 0)
		return ms_ctx_error(s->ctx, MS_EINVAL, "gdl stat: %s: the initial state is terminal", s->g->name);
	long ply = (long)ms_rng_below(&s->rng, (uint32_t)n);
	memcpy(out, s->path + (size_t)ply * s->words, s->words * sizeof *out);
	return MS_OK;
}

/*
 * One sequence into seq (up to o->positions states, each 1..gap random
 * joint moves after the previous, ending before a terminal state); its
 * playout result per role into res. Returns the number of positions.
 */
static int sequence(sampler *s, uint64_t *seq, double *res)
{
	int rc, term, n = 1;
	if ((rc = start_position(s, seq)) < 0)
		return rc;
	for (int r = 0; r < s->nr; r++)
		res[r] = 0;
	for (int k = 0; k < s->o->playouts; k++)
		if ((rc = playout(s, seq, res)) < 0)
			return rc;
	for (int r = 0; r < s->nr; r++)
		res[r] /= s->o->playouts;
	while (n < s->o->positions) {
		uint64_t *cur = seq + (size_t)n * s->words;
		memcpy(cur, cur - s->words, s->words * sizeof *cur);
		int gap = 1 + (int)ms_rng_below(&s->rng, (uint32_t)s->o->gap);
		for (int k = 0; k < gap; k++) {
			if ((rc = set(s, cur, &term)) < 0)
				return rc;
			if (term)
				return n;
			if ((rc = step(s, s->b)) < 0)
				return rc;
			memcpy(cur, s->b, s->words * sizeof *cur);
		}
		if ((rc = set(s, cur, &term)) < 0)
			return rc;
		if (term)
			return n;
		n++;
	}
	return n;
}

/* Running sums over the sequences, per feature (and per role where the result enters). */
typedef struct sums {
	double *x0, *xx0, *sv, *m, *mm, *my; /* my: nfeat * nr */
	double y[MS_MCTS_MAX_PLAYERS], yy[MS_MCTS_MAX_PLAYERS];
	int n;
} sums;

static void accumulate(const gdl_featset *fs, sums *a, const int *cnt, int npos, const double *res, int nr)
{
	for (long f = 0; f < fs->nfeat; f++) {
		double sx = 0, sxx = 0, x0 = gdl_feat_from_counts(fs, f, cnt);
		for (int p = 0; p < npos; p++) {
			double x = gdl_feat_from_counts(fs, f, cnt + (size_t)p * (size_t)fs->npat);
			sx += x, sxx += x * x;
		}
		double mean = sx / npos;
		a->x0[f] += x0, a->xx0[f] += x0 * x0;
		a->sv[f] += fmax(0.0, sxx / npos - mean * mean);
		a->m[f] += mean, a->mm[f] += mean * mean;
		for (int r = 0; r < nr; r++)
			a->my[(size_t)f * (size_t)nr + (size_t)r] += mean * res[r];
	}
	for (int r = 0; r < nr; r++)
		a->y[r] += res[r], a->yy[r] += res[r] * res[r];
	a->n++;
}

static int cmp_cand(const void *x, const void *y)
{
	const gdl_cand *a = x, *b = y;
	if (a->score != b->score)
		return a->score > b->score ? -1 : 1;
	return (a->feat > b->feat) - (a->feat < b->feat);
}

int gdl_rolefn_set(ms_ctx *ctx, gdl_rolefn *fn, const long *feat, const double *w, int n)
{
	if (ms_vec_grow(ctx, (void **)&fn->feat, &fn->cap_feat, n, sizeof *fn->feat) ||
	    ms_vec_grow(ctx, (void **)&fn->w, &fn->cap_w, n, sizeof *fn->w))
		return MS_ENOMEM;
	if (n > 0) {
		memmove(fn->feat, feat, sizeof *feat * (size_t)n);
		memmove(fn->w, w, sizeof *w * (size_t)n);
	}
	fn->n = n;
	return MS_OK;
}

/* Role r's function from the sums: rank, keep the first o->keep, w = S corr, c = mean result. */
static int make_function(ms_gdl_eval *e, const sums *a, int r, const ms_gdl_stat_options *o, gdl_cand *tmp)
{
	const gdl_featset *fs = e->fs;
	double n = a->n, my = a->y[r] / n, vy = a->yy[r] / n - my * my;
	long nc = 0;
	for (long f = 0; vy > 1e-9 && f < fs->nfeat; f++) {
		double m0 = a->x0[f] / n, tv = a->xx0[f] / n - m0 * m0, sv = a->sv[f] / n;
		double mm = a->m[f] / n, vm = a->mm[f] / n - mm * mm;
		if (tv <= 1e-9 || vm <= 1e-9) /* S or the correlation undefined */
			continue;
		double cov = a->my[(size_t)f * (size_t)e->nr + (size_t)r] / n - mm * my;
		double corr = cov / sqrt(vm * vy), s = tv / (tv + o->stability_k * sv);
		tmp[nc++] = (gdl_cand){ f, s, corr, fmin(s, fabs(corr)) };
	}
	if (nc)
		qsort(tmp, (size_t)nc, sizeof *tmp, cmp_cand);
	gdl_rolefn *fn = &e->fn[r];
	fn->c = my;
	fn->ncand = (int)(nc < CANDIDATES ? nc : CANDIDATES);
	fn->cand = ms_ctx_calloc(e->ctx, (size_t)fn->ncand + 1, sizeof *fn->cand);
	if (!fn->cand)
		return ms_ctx_error(e->ctx, MS_ENOMEM, "gdl stat: out of memory");
	memcpy(fn->cand, tmp, sizeof *tmp * (size_t)fn->ncand);
	int keep = (int)(nc < o->keep ? nc : o->keep);
	long feat[256];
	double w[256];
	for (int i = 0; i < keep; i++)
		feat[i] = tmp[i].feat, w[i] = tmp[i].s * tmp[i].corr;
	return gdl_rolefn_set(e->ctx, fn, feat, w, keep);
}

static int check_stat_options(ms_ctx *ctx, const ms_gdl *g, const ms_gdl_stat_options *o)
{
	if (!g || !o || o->version != MS_GDL_STAT_OPTIONS_VERSION)
		return ms_ctx_error(ctx, MS_EINVAL, "gdl stat: missing rules or unknown options version");
	if (o->sequences < 3 || o->positions < 1 || o->gap < 1 || o->playouts < 1)
		return ms_ctx_error(ctx, MS_EINVAL,
				    "gdl stat: sequences (>= 3), positions, gap and playouts (>= 1) (got %d, %d, %d, %d)",
				    o->sequences, o->positions, o->gap, o->playouts);
	if (o->keep < 0 || o->keep > 256 || o->max_features < 1 || !(o->stability_k >= 0))
		return ms_ctx_error(ctx, MS_EINVAL, "gdl stat: keep must be 0-256, max_features >= 1, stability_k >= 0");
	if (ms_gdl_num_roles(g) < 1 || ms_gdl_num_roles(g) > MS_MCTS_MAX_PLAYERS)
		return ms_ctx_error(ctx, MS_EINVAL, "gdl stat: %d roles (1 to %d supported)", ms_gdl_num_roles(g),
				    MS_MCTS_MAX_PLAYERS);
	return MS_OK;
}

static void sums_free(ms_ctx *ctx, sums *a)
{
	double *v[] = { a->x0, a->xx0, a->sv, a->m, a->mm, a->my };
	for (size_t i = 0; i < sizeof v / sizeof *v; i++)
		ms_ctx_mfree(ctx, v[i]);
}

/* Samples the sequences and accumulates their statistics. */
static int sample_all(ms_gdl_eval *e, sampler *s, sums *a)
{
	const gdl_featset *fs = e->fs;
	size_t np = (size_t)s->o->positions, nf = (size_t)(fs->nfeat ? fs->nfeat : 1);
	uint64_t *seq = ms_ctx_calloc(e->ctx, np * s->words, sizeof *seq);
	int *cnt = ms_ctx_calloc(e->ctx, np * (size_t)(fs->npat + 1), sizeof *cnt);
	double **v[] = { &a->x0, &a->xx0, &a->sv, &a->m, &a->mm };
	int rc = seq && cnt ? MS_OK : MS_ENOMEM;
	for (size_t i = 0; i < sizeof v / sizeof *v; i++)
		if (!(*v[i] = ms_ctx_calloc(e->ctx, nf, sizeof(double))))
			rc = MS_ENOMEM;
	if (!(a->my = ms_ctx_calloc(e->ctx, nf * (size_t)e->nr, sizeof(double))))
		rc = MS_ENOMEM;
	if (rc)
		rc = ms_ctx_error(e->ctx, MS_ENOMEM, "gdl stat: out of memory for %ld features", fs->nfeat);
	for (int k = 0; rc == MS_OK && k < s->o->sequences; k++) {
		double res[MS_MCTS_MAX_PLAYERS];
		int n = sequence(s, seq, res);
		if (n < 0) {
			rc = n;
			break;
		}
		for (int p = 0; p < n; p++)
			gdl_featset_counts(fs, seq + (size_t)p * s->words, cnt + (size_t)p * (size_t)fs->npat);
		accumulate(fs, a, cnt, n, res, e->nr);
	}
	ms_ctx_mfree(e->ctx, seq);
	ms_ctx_mfree(e->ctx, cnt);
	return rc;
}

int ms_gdl_stat_build(ms_ctx *ctx, ms_gdl_eval **out, const ms_gdl *g, const ms_gdl_stat_options *o)
{
	int rc;
	*out = NULL;
	if ((rc = check_stat_options(ctx, g, o)) < 0)
		return rc;
	ms_gdl_eval *e = ms_ctx_calloc(ctx, 1, sizeof *e);
	if (!e)
		return ms_ctx_error(ctx, MS_ENOMEM, "gdl stat: out of memory");
	e->ctx = ctx, e->g = g, e->nr = ms_gdl_num_roles(g);
	sampler s = { .ctx = ctx, .g = g, .o = o, .nr = e->nr, .words = g->words ? g->words : 1 };
	s.rng = o->seed * MS_SPLITMIX_GAMMA + 0x5851f42d4c957f2dull;
	sums a = { 0 };
	gdl_cand *tmp = NULL;
	e->fn = ms_ctx_calloc(ctx, (size_t)e->nr, sizeof *e->fn);
	s.a = ms_ctx_calloc(ctx, s.words, sizeof *s.a);
	s.b = ms_ctx_calloc(ctx, s.words, sizeof *s.b);
	if (!e->fn || !s.a || !s.b)
		rc = ms_ctx_error(ctx, MS_ENOMEM, "gdl stat: out of memory");
	if (rc == MS_OK)
		rc = gdl_featset_build(ctx, g, o->differences, o->max_features, &e->fs);
	if (rc == MS_OK)
		rc = ms_gdl_machine_new(ctx, &s.m, g);
	if (rc == MS_OK)
		rc = sample_all(e, &s, &a);
	if (rc == MS_OK && !(tmp = ms_ctx_calloc(ctx, (size_t)e->fs->nfeat + 1, sizeof *tmp)))
		rc = ms_ctx_error(ctx, MS_ENOMEM, "gdl stat: out of memory");
	for (int r = 0; rc == MS_OK && r < e->nr; r++)
		rc = make_function(e, &a, r, o, tmp);
	ms_ctx_mfree(ctx, tmp);
	sums_free(ctx, &a);
	ms_gdl_machine_free(s.m);
	ms_ctx_mfree(ctx, s.path);
	ms_ctx_mfree(ctx, s.a);
	ms_ctx_mfree(ctx, s.b);
	if (rc < 0) {
		ms_gdl_eval_free(e);
		return rc;
	}
	*out = e;
	return MS_OK;
}

void ms_gdl_eval_free(ms_gdl_eval *e)
{
	if (!e)
		return;
	for (int r = 0; e->fn && r < e->nr; r++) {
		ms_ctx_mfree(e->ctx, e->fn[r].feat);
		ms_ctx_mfree(e->ctx, e->fn[r].w);
		ms_ctx_mfree(e->ctx, e->fn[r].cand);
	}
	ms_ctx_mfree(e->ctx, e->fn);
	if (!e->borrowed)
		gdl_featset_free(e->ctx, e->fs);
	ms_ctx_mfree(e->ctx, e);
}

long ms_gdl_eval_candidates(const ms_gdl_eval *e)
{
	return e->fs->nfeat;
}

int ms_gdl_eval_terms(const ms_gdl_eval *e, int r)
{
	return r >= 0 && r < e->nr ? e->fn[r].n : 0;
}

double ms_gdl_eval_weight(const ms_gdl_eval *e, int r, int i)
{
	return e->fn[r].w[i];
}

double ms_gdl_eval_constant(const ms_gdl_eval *e, int r)
{
	return e->fn[r].c;
}

int ms_gdl_eval_term_value(const ms_gdl_eval *e, int r, int i, const uint64_t *state)
{
	return gdl_feat_value(e->fs, e->fn[r].feat[i], state);
}

int ms_gdl_eval_term_text(const ms_gdl_eval *e, int r, int i, char *buf, size_t size)
{
	return gdl_feat_text(e->fs, e->fn[r].feat[i], buf, size);
}

double ms_gdl_eval_state(const ms_gdl_eval *e, int r, const uint64_t *state)
{
	const gdl_rolefn *fn = &e->fn[r];
	double v = fn->c;
	for (int i = 0; i < fn->n; i++)
		v += fn->w[i] * gdl_feat_value(e->fs, fn->feat[i], state);
	return v;
}
