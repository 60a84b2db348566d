/*
 * A toy synthesis problem for the search tests and the benchmark: the
 * arithmetic grammar of tests/dsl/test_dsl_core.c (If drawn a quarter as
 * often as the rest), Psi = closeness of the program's function to
 * f(x) = 5x + 11 on sample points, C = closeness to g(x) = 5x (a "weak
 * oracle" that shares part of f's structure). Per point the score is
 * 1 / (1 + 4 |p(x) - f(x)| / (1 + |f(x)|)), averaged. A target needing
 * a dozen nodes built from 0, 1, 2 and x is rarely drawn at random but
 * approached step by step, so it tells searching from sampling.
 *
 * Noisy mode draws the sample points from the evaluation's seed (like a
 * win rate over random matches); exact mode uses the points -8..8. Values
 * beyond 1e9 count as a run-time failure (MS_SYNTH_FAILED).
 */
#ifndef MS_TEST_SYNTH_TOY_H
#define MS_TEST_SYNTH_TOY_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "microsynth/synth.h"

enum { TOY_E, TOY_B, TOY_N };
enum { TOY_PLUS, TOY_TIMES, TOY_IF, TOY_NUM, TOY_X, TOY_LT, TOY_N0, TOY_N1, TOY_N2 };

static const ms_dsl_prod_def toy_prods[] = {
	{ "Plus", "($0 + $1)", "E E", TOY_PLUS, 1, 4 },
	{ "Times", "($0 * $1)", "E E", TOY_TIMES, 1, 4 },
	{ "If", "if $0 then $1 else $2", "B E E", TOY_IF, 1, 1 },
	{ "Num", "$0", "N", TOY_NUM, 0, 4 },
	{ "x", "x", NULL, TOY_X, 1, 4 },
	{ "Lt", "$0 < $1", "E E", TOY_LT, 1, 0 },
	{ "0", "0", NULL, TOY_N0, 1, 0 },
	{ "1", "1", NULL, TOY_N1, 1, 0 },
	{ "2", "2", NULL, TOY_N2, 1, 0 },
};
static const ms_dsl_nt_def toy_nts[] = {
	{ "E", "Plus Times If Num x" },
	{ "B", "Lt" },
	{ "N", "0 1 2" },
};

typedef struct toy {
	int noisy;
	int points;      /* per shard, noisy mode */
	int work;        /* extra thousands of hash steps per shard, to make an evaluation cost something */
	int fail_on_hole; /* a hole in an evaluated program is an error (never happens in searches) */
	ms_dsl_grammar *g;
} toy;

static double toy_run(const ms_dsl_prog *p, int i, double x)
{
	const ms_dsl_sym *s = ms_dsl_prog_nodes(p);
	switch (s[i]) {
	case TOY_PLUS: return toy_run(p, i + 1, x) + toy_run(p, ms_dsl_child(p, i, 1), x);
	case TOY_TIMES: return toy_run(p, i + 1, x) * toy_run(p, ms_dsl_child(p, i, 1), x);
	case TOY_IF:
		return toy_run(p, i + 1, x) != 0 ? toy_run(p, ms_dsl_child(p, i, 1), x) : toy_run(p, ms_dsl_child(p, i, 2), x);
	case TOY_LT: return toy_run(p, i + 1, x) < toy_run(p, ms_dsl_child(p, i, 1), x);
	case TOY_NUM: return (double)(s[i + 1] - TOY_N0);
	case TOY_X: return x;
	default: return NAN;
	}
}

static uint64_t toy_mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static int toy_eval(void *user, void *state, ms_ctx *ctx, const ms_dsl_prog *p, int kind, int shard, uint64_t seed,
		    double *sum, double *weight)
{
	const toy *t = user;
	(void)state;
	if (ms_dsl_hole_count(p) > 0)
		return ms_ctx_error(ctx, MS_EINVAL, "toy: program with a hole");
	int n = t->noisy ? t->points : 17;
	uint64_t spin = seed;
	for (long k = 0; k < 1000L * t->work; k++)
		spin = toy_mix(spin + (uint64_t)k);
	volatile uint64_t sink = spin; /* the spin must happen */
	(void)sink;
	*sum = 0;
	*weight = 0;
	for (int j = 0; j < n; j++) {
		double x;
		if (t->noisy)
			x = -8.0 + (double)(toy_mix(seed + 0x9e3779b97f4a7c15ULL * (uint64_t)(shard * 1000 + j + 1)) % 17);
		else if (j % 4 == shard % 4)
			x = -8.0 + j;
		else
			continue;
		double v = toy_run(p, 0, x);
		if (!(fabs(v) <= 1e9))
			return MS_SYNTH_FAILED;
		double want = kind == MS_SYNTH_PSI ? 5 * x + 11 : 5 * x;
		*sum += 1.0 / (1.0 + 4 * fabs(v - want) / (1 + fabs(want)));
		*weight += 1;
	}
	return 0;
}

/* Fills `pb` for toy `t`, whose grammar is built in ctx. */
static int toy_problem(ms_ctx *ctx, toy *t, ms_synth_problem *pb)
{
	ms_dsl_grammar_def d = { MS_DSL_GRAMMAR_DEF_VERSION, "toy", toy_prods, 9, toy_nts, 3, TOY_E };
	int rc = ms_dsl_grammar_new(ctx, &t->g, &d);
	if (rc < 0)
		return rc;
	memset(pb, 0, sizeof *pb);
	pb->version = MS_SYNTH_PROBLEM_VERSION;
	pb->name = "toy";
	pb->fingerprint = t->noisy ? "noisy" : "exact";
	pb->grammar = t->g;
	pb->start = -1;
	pb->shards[MS_SYNTH_PSI] = 4;
	pb->shards[MS_SYNTH_C] = 4;
	pb->has_c = 1;
	pb->user = t;
	pb->eval = toy_eval;
	return 0;
}

/* A test's context and toy problem, opened and closed together. */
typedef struct toy_env {
	ms_ctx *ctx;
	toy t;
	ms_synth_problem pb;
} toy_env;

static inline int toy_env_open(toy_env *e, int noisy, int points)
{
	memset(e, 0, sizeof *e);
	if (ms_ctx_new(&e->ctx, NULL) < 0)
		return -1;
	e->t.noisy = noisy;
	e->t.points = points;
	return toy_problem(e->ctx, &e->t, &e->pb) < 0 ? -1 : 0;
}

static inline void toy_env_close(toy_env *e)
{
	ms_dsl_grammar_free(e->t.g);
	ms_ctx_free(e->ctx);
}

#endif
