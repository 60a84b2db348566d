/*
 * The synthesis core's shapes: the algorithm table, evaluation against
 * opponent populations, and SA passes as a step other algorithms call.
 * Problem: the toy grammar (toy.h) where opponent k asks for f_k(x) = 5x + k
 * (k = 0, 1, 2), so a program's score depends on whom it is measured
 * against, exactly (points -8..8, no noise).
 */
#define _POSIX_C_SOURCE 200809L
#include "support/testutil.h"

#include <unistd.h>
#include <stdio.h>

#include "toy.h"
#include "synth/synth_internal.h"

enum { N_OPP = 3 };

static int vs_eval(void *user, void *state, ms_ctx *ctx, const ms_dsl_prog *p, int kind, int opponent, int shard,
		   uint64_t seed, double *sum, double *weight)
{
	(void)user, (void)state, (void)ctx, (void)seed;
	*sum = *weight = 0;
	for (int j = 0; j < 17; j++) {
		double x = -8.0 + j, want, v;
		if (j % 4 != shard % 4)
			continue;
		want = kind == MS_SYNTH_PSI ? 5 * x + opponent : 5 * x;
		v = toy_run(p, 0, x);
		if (!(fabs(v) <= 1e9))
			return MS_SYNTH_FAILED;
		*sum += 1.0 / (1.0 + 4 * fabs(v - want) / (1 + fabs(want)));
		*weight += 1;
	}
	return 0;
}

typedef struct fixture {
	ms_ctx *ctx;
	toy t;
	ms_synth_problem pb;
} fixture;

static int setup(void **state)
{
	fixture *f = calloc(1, sizeof *f);
	if (!f || ms_ctx_new(&f->ctx, NULL) || toy_problem(f->ctx, &f->t, &f->pb))
		return -1;
	f->pb.fingerprint = "opponents";
	f->pb.eval = NULL;
	f->pb.n_opponents = N_OPP;
	f->pb.eval_vs = vs_eval;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	fixture *f = *state;
	ms_dsl_grammar_free(f->t.g);
	ms_ctx_free(f->ctx);
	free(f);
	return 0;
}

/* 5x + 1, exactly opponent 1's target */
static ms_dsl_prog *five_x_plus_one(fixture *f)
{
	ms_dsl_prog *p;
	assert_int_equal(ms_dsl_prog_new(f->ctx, &p, f->t.g), 0);
	/* ((2 + (2 + 1)) * x) + 1 */
	static const ms_dsl_sym t[] = { TOY_PLUS, TOY_TIMES, TOY_PLUS, TOY_NUM, TOY_N2, TOY_PLUS, TOY_NUM, TOY_N2,
					TOY_NUM, TOY_N1, TOY_X, TOY_NUM, TOY_N1 };
	for (size_t i = 0; i < sizeof t / sizeof *t; i++)
		assert_int_equal(ms_dsl_prog_push(p, t[i]), 0);
	assert_int_equal(ms_dsl_prog_finish(p, TOY_E), 0);
	assert_int_equal(ms_dsl_hole_count(p), 0);
	return p;
}

static void test_synth_algos__the_table_names_every_algorithm(void **state)
{
	(void)state;
	assert_int_equal(ms_synth_algo_count(), 7);
	for (int i = 0; i < ms_synth_algo_count(); i++) {
		const char *name = ms_synth_algo_name_at(i);
		assert_non_null(name);
		assert_true(ms_synth_algo_from_name(name) >= 0);
		assert_string_equal(ms_synth_algo_name(ms_synth_algo_from_name(name)), name);
	}
	assert_int_equal(ms_synth_algo_from_name("sketch-sa"), MS_SYNTH_SKETCH_SA);
	assert_int_equal(ms_synth_algo_from_name("hill-climbing"), MS_ENOTFOUND);
	assert_null(ms_synth_algo_name(-1));
	assert_null(ms_synth_algo_name_at(7));
}

/* Psi against a population is the weighted mean of the scores against each opponent, on any thread count. */
static void test_synth_population__psi_is_the_weighted_mean_over_opponents(void **state)
{
	fixture *f = *state;
	ms_dsl_prog *p = five_x_plus_one(f);
	const ms_dsl_prog *progs[1] = { p };
	uint64_t seed = 7;
	double alone[N_OPP], mixed, again;
	int ids[2] = { 0, 1 };
	double w[2] = { 1, 3 };

	for (int threads = 1; threads <= 2; threads++) {
		ms_synth_eval *ev;
		assert_int_equal(ms_synth_eval_new(f->ctx, &ev, &f->pb, threads, NULL), 0);
		for (int k = 0; k < N_OPP; k++) {
			ms_synth_population one = { 1, &k, NULL };
			assert_int_equal(ms_synth_eval_set_population(ev, &one), 0);
			assert_int_equal(ms_synth_eval_programs(ev, progs, 1, MS_SYNTH_PSI, &seed, &alone[k], NULL, NULL,
								NULL),
					 0);
		}
		/* 5x + 1 is exactly opponent 1's target, and worse against the others */
		assert_true(alone[1] == 1.0);
		assert_true(alone[0] < 1.0 && alone[2] < 1.0);
		ms_synth_population two = { 2, ids, w };
		assert_int_equal(ms_synth_eval_set_population(ev, &two), 0);
		assert_int_equal(ms_synth_eval_programs(ev, progs, 1, MS_SYNTH_PSI, &seed, &mixed, NULL, NULL, NULL), 0);
		assert_true(fabs(mixed - (alone[0] + 3 * alone[1]) / 4) < 1e-12);
		/* NULL: every opponent, weight 1 */
		assert_int_equal(ms_synth_eval_set_population(ev, NULL), 0);
		assert_int_equal(ms_synth_eval_programs(ev, progs, 1, MS_SYNTH_PSI, &seed, &again, NULL, NULL, NULL), 0);
		assert_true(fabs(again - (alone[0] + alone[1] + alone[2]) / 3) < 1e-12);
		ms_synth_eval_free(ev);
	}
	ms_dsl_prog_free(p);
}

static void test_synth_population__bad_populations_are_refused(void **state)
{
	fixture *f = *state;
	ms_synth_eval *ev;
	int out_of_range = N_OPP, twice[2] = { 1, 1 }, ok = 2;
	double zero = 0;
	ms_synth_population bad1 = { 1, &out_of_range, NULL }, bad2 = { 2, twice, NULL }, bad3 = { 1, &ok, &zero };

	assert_int_equal(ms_synth_eval_new(f->ctx, &ev, &f->pb, 1, NULL), 0);
	assert_int_equal(ms_synth_eval_set_population(ev, &bad1), MS_EINVAL);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "no such opponent"));
	assert_int_equal(ms_synth_eval_set_population(ev, &bad2), MS_EINVAL);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "given twice"));
	assert_int_equal(ms_synth_eval_set_population(ev, &bad3), MS_EINVAL);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "weight"));
	ms_synth_eval_free(ev);
	/* a problem with opponents needs eval_vs */
	f->pb.eval_vs = NULL;
	f->pb.eval = toy_eval;
	assert_int_equal(ms_synth_eval_new(f->ctx, &ev, &f->pb, 1, NULL), MS_EINVAL);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "eval_vs"));
}

/*
 * A search against a population is deterministic; a checkpoint made against
 * one population is refused by a search against another (so neither the
 * log nor the cache ever mixes scores against different opponents).
 */
static void test_synth_population__searches_follow_their_population(void **state)
{
	fixture *f = *state;
	char path[] = "/tmp/ms_test_population_XXXXXX";
	int fd = mkstemp(path);
	double best[2][2];

	assert_true(fd >= 0);
	close(fd);
	remove(path);
	for (int k = 0; k < 2; k++)
		for (int rep = 0; rep < 2; rep++) {
			int target = k ? 2 : 0;
			ms_synth_population pop = { 1, &target, NULL };
			ms_synth_options o;
			ms_synth *s;
			ms_synth_options_init(&o, MS_SYNTH_OPTIONS_VERSION);
			o.algo = MS_SYNTH_SA;
			o.seed = 11;
			o.max_evals = 400;
			o.population = &pop;
			o.checkpoint = k == 0 && rep == 0 ? path : NULL;
			assert_int_equal(ms_synth_new(f->ctx, &s, &f->pb, &o), 0);
			assert_true(ms_synth_run(s) >= 0);
			best[k][rep] = ms_synth_best_score(s, MS_SYNTH_PSI);
			ms_synth_free(s);
		}
	assert_true(best[0][0] == best[0][1]);
	assert_true(best[1][0] == best[1][1]);
	{
		int other = 2;
		ms_synth_population pop = { 1, &other, NULL };
		ms_synth_options o;
		ms_synth *s;
		ms_synth_options_init(&o, MS_SYNTH_OPTIONS_VERSION);
		o.algo = MS_SYNTH_SA;
		o.seed = 11;
		o.max_evals = 400;
		o.population = &pop;
		o.checkpoint = path;
		o.resume = 1;
		assert_int_equal(ms_synth_new(f->ctx, &s, &f->pb, &o), MS_EINVAL);
		assert_non_null(strstr(ms_ctx_last_error(f->ctx), "settings"));
	}
	remove(path);
}

/* SA passes called as a step from outside the SA algorithm (as a best response would be). */
static void test_synth_sa_step__runs_passes_for_another_algorithm(void **state)
{
	fixture *f = *state;
	ms_synth_options o;
	ms_synth *s;
	ms_dsl_prog *start = five_x_plus_one(f), *best;
	double score = -1, check;
	int target = 2;
	ms_synth_population pop = { 1, &target, NULL };
	ms_synth_stats st;

	ms_synth_options_init(&o, MS_SYNTH_OPTIONS_VERSION);
	o.seed = 5;
	o.max_evals = 100000;
	o.population = &pop;
	assert_int_equal(ms_synth_new(f->ctx, &s, &f->pb, &o), 0);
	assert_int_equal(ms_dsl_prog_new(f->ctx, &best, f->t.g), 0);
	syn_start_live_clock(s);
	assert_int_equal(syn_sa_step(s, MS_SYNTH_PSI, start, 2, SYN_SA_RESTART_PASS, best, &score), 0);
	ms_synth_get_stats(s, &st);
	/* two passes of about 110 steps each, every step one evaluation */
	assert_true(st.evals_psi > 150 && st.evals_psi < 300);
	/* the step's best is at least its start and is what the evaluator says it is */
	{
		ms_synth_eval *ev;
		const ms_dsl_prog *one[2] = { start, best };
		uint64_t seeds[2] = { 1, 1 };
		double sc[2];
		assert_int_equal(ms_synth_eval_new(f->ctx, &ev, &f->pb, 1, NULL), 0);
		assert_int_equal(ms_synth_eval_set_population(ev, &pop), 0);
		assert_int_equal(ms_synth_eval_programs(ev, one, 2, MS_SYNTH_PSI, seeds, sc, NULL, NULL, NULL), 0);
		check = sc[1];
		assert_true(score >= sc[0]);
		ms_synth_eval_free(ev);
	}
	assert_true(check == score);
	assert_int_equal(syn_sa_step(s, MS_SYNTH_PSI, start, 1, 99, best, &score), MS_EINVAL);
	ms_dsl_prog_free(best);
	ms_dsl_prog_free(start);
	ms_synth_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_synth_algos__the_table_names_every_algorithm),
		cmocka_unit_test_setup_teardown(test_synth_population__psi_is_the_weighted_mean_over_opponents, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_synth_population__bad_populations_are_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_synth_population__searches_follow_their_population, setup, teardown),
		cmocka_unit_test_setup_teardown(test_synth_sa_step__runs_passes_for_another_algorithm, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
