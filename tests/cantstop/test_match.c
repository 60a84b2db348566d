/*
 * Can't Stop matches and win-rate evaluation (spec 2.9, 7.1): determinism
 * by seed, splitting, the decision cap, errors, and the anchors of spec
 * section 8.3 (the reference's figures, with tolerances of about three
 * standard errors of the combined estimates; seeds are fixed).
 */
#include "cs_testutil.h"

#include <math.h>

static ms_cs_player named(const char *name)
{
	ms_cs_player p;

	assert_int_equal(ms_cs_player_by_name(NULL, &p, name), MS_OK);
	return p;
}

static ms_cs_eval_result eval(const char *a, const char *b, int era, long n, uint64_t seed)
{
	ms_cs_player pa = named(a), pb = named(b);
	ms_cs_match_options o = { MS_CS_MATCH_OPTIONS_VERSION, era, 0 };
	ms_cs_eval_result r;

	memset(&r, 0, sizeof(r));
	assert_int_equal(ms_cs_evaluate(NULL, &o, &pa, &pb, seed, 0, n, &r), MS_OK);
	assert_int_equal(r.matches, n);
	assert_int_equal(r.wins_a + r.wins_b + r.draws, n);
	return r;
}

static void test_eval__same_seed_same_totals_and_ranges_add_up(void **state)
{
	ms_cs_player ga = named("ga"), rnd = named("random");
	ms_cs_eval_result whole, again, parts, other;

	(void)state;
	memset(&whole, 0, sizeof(whole));
	memset(&again, 0, sizeof(again));
	memset(&parts, 0, sizeof(parts));
	memset(&other, 0, sizeof(other));
	assert_int_equal(ms_cs_evaluate(NULL, NULL, &ga, &rnd, 5, 0, 200, &whole), MS_OK);
	assert_int_equal(ms_cs_evaluate(NULL, NULL, &ga, &rnd, 5, 0, 200, &again), MS_OK);
	assert_memory_equal(&whole, &again, sizeof(whole));
	assert_int_equal(ms_cs_evaluate(NULL, NULL, &ga, &rnd, 5, 0, 77, &parts), MS_OK);
	assert_int_equal(ms_cs_evaluate(NULL, NULL, &ga, &rnd, 5, 77, 123, &parts), MS_OK);
	assert_memory_equal(&whole, &parts, sizeof(whole));
	assert_int_equal(ms_cs_evaluate(NULL, NULL, &ga, &rnd, 6, 0, 200, &other), MS_OK);
	assert_true(other.decisions != whole.decisions || other.busts != whole.busts);
}

static void test_match__one_match_by_seed(void **state)
{
	ms_cs_player ga = named("ga"), rnd = named("random");
	ms_cs_match_result a, b;

	(void)state;
	assert_int_equal(ms_cs_play_match(NULL, NULL, &ga, &rnd, 99, &a), MS_OK);
	assert_int_equal(ms_cs_play_match(NULL, NULL, &ga, &rnd, 99, &b), MS_OK);
	assert_memory_equal(&a, &b, sizeof(a));
	assert_true(a.winner == 1 || a.winner == 2 || (a.winner == 0 && a.decisions == 300));
	assert_true(a.decisions > 0 && a.turns > 0);
}

static void test_match__cap_makes_draws_and_no_cap_none(void **state)
{
	ms_cs_player ga = named("ga");
	ms_cs_match_options capped = { MS_CS_MATCH_OPTIONS_VERSION, MS_CS_ERA_A, 10 };
	ms_cs_match_options uncapped = { MS_CS_MATCH_OPTIONS_VERSION, MS_CS_ERA_A, -1 };
	ms_cs_eval_result r;

	(void)state;
	memset(&r, 0, sizeof(r));
	assert_int_equal(ms_cs_evaluate(NULL, &capped, &ga, &ga, 1, 0, 50, &r), MS_OK);
	assert_int_equal(r.draws, 50);
	assert_int_equal(r.decisions, 500);
	memset(&r, 0, sizeof(r));
	assert_int_equal(ms_cs_evaluate(NULL, &uncapped, &ga, &ga, 1, 0, 300, &r), MS_OK);
	assert_int_equal(r.draws, 0);
}

static int bad_column(ms_ctx *ctx, void *ud, const ms_cs_state *s, const ms_cs_move *actions, int n,
		      ms_cs_rng *rng, int *choice)
{
	*choice = n;
	return MS_OK;
}

static int failing_yes_no(ms_ctx *ctx, void *ud, const ms_cs_state *s, ms_cs_rng *rng, int *answer)
{
	return ms_ctx_error(ctx, MS_EPARSE, "program failed");
}

static void test_match__errors_end_the_evaluation(void **state)
{
	ms_cs_player ga = named("ga"), bad = named("ga"), failing = named("ga");
	ms_cs_match_options old = { 99, MS_CS_ERA_A, 0 };
	ms_cs_eval_result r;
	ms_ctx *ctx;

	(void)state;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	bad.column = bad_column;
	failing.yes_no = failing_yes_no;
	memset(&r, 0, sizeof(r));
	assert_int_equal(ms_cs_evaluate(ctx, &old, &ga, &ga, 1, 0, 2, &r), MS_EINVAL);
	assert_int_equal(ms_cs_evaluate(ctx, NULL, &bad, &ga, 1, 0, 2, &r), MS_ERANGE);
	assert_non_null(strstr(ms_ctx_last_error(ctx), "chose action"));
	assert_int_equal(ms_cs_evaluate(ctx, NULL, &ga, &failing, 1, 0, 2, &r), MS_EPARSE);
	assert_string_equal(ms_ctx_last_error(ctx), "program failed");
	failing.yes_no = NULL;
	assert_int_equal(ms_cs_evaluate(ctx, NULL, &ga, &failing, 1, 0, 2, &r), MS_EINVAL);
	ms_ctx_free(ctx);
}

/* Spec 8.3: GA vs random 0.967 over 2,000 games (draws 0.7 %). */
static void test_anchor__ga_beats_random(void **state)
{
	ms_cs_eval_result r = eval("ga", "random", MS_CS_ERA_A, 2000, 101);

	(void)state;
	assert_true(fabs((double)r.wins_a / 2000 - 0.967) < 0.02);
}

/* Spec 8.3: random vs random 0.5025 over 2,000. */
static void test_anchor__random_vs_random_is_even(void **state)
{
	ms_cs_eval_result r = eval("random", "random", MS_CS_ERA_A, 4000, 102);

	(void)state;
	assert_true(fabs((double)r.wins_a / 4000 - 0.5025) < 0.035);
}

/* Spec 8.3: GA vs GA, first mover 0.544 (draws 0.8 %), about 170 decisions. */
static void test_anchor__ga_vs_ga_first_mover_and_length(void **state)
{
	ms_cs_eval_result r = eval("ga", "ga", MS_CS_ERA_A, 4000, 103);

	(void)state;
	assert_true(fabs((double)r.first_wins / 4000 - 0.544) < 0.03);
	assert_true((double)r.draws / 4000 < 0.02);
	assert_true(fabs((double)r.decisions / 4000 - 170) < 8);
}

/* Spec 8.3: the published program vs GA, 0.580 in era A (about 163 decisions), 0.7245 in era B. */
static void test_anchor__published_program_vs_ga_in_both_eras(void **state)
{
	ms_cs_eval_result a = eval("couto", "ga", MS_CS_ERA_A, 12000, 104);
	ms_cs_eval_result b = eval("couto", "ga", MS_CS_ERA_B, 4000, 105);

	(void)state;
	assert_true(fabs((double)a.wins_a / 12000 - 0.580) < 0.02);
	assert_true(fabs((double)a.decisions / 12000 - 163) < 8);
	assert_true(fabs((double)b.wins_a / 4000 - 0.7245) < 0.035);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_eval__same_seed_same_totals_and_ranges_add_up),
		cmocka_unit_test(test_match__one_match_by_seed),
		cmocka_unit_test(test_match__cap_makes_draws_and_no_cap_none),
		cmocka_unit_test(test_match__errors_end_the_evaluation),
		cmocka_unit_test(test_anchor__ga_beats_random),
		cmocka_unit_test(test_anchor__random_vs_random_is_even),
		cmocka_unit_test(test_anchor__ga_vs_ga_first_mover_and_length),
		cmocka_unit_test(test_anchor__published_program_vs_ga_in_both_eras),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
