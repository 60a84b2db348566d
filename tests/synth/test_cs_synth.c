/* Can't Stop as a synthesis problem (cantstop_synth.h) and short searches on it. */
#include "support/testutil.h"

#include <stdio.h>

#include "microsynth/cantstop_synth.h"

typedef struct fixture {
	ms_ctx *ctx;
} fixture;

static int setup(void **state)
{
	fixture *f = calloc(1, sizeof *f);
	if (!f || ms_ctx_new(&f->ctx, NULL) != MS_OK)
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	fixture *f = *state;
	ms_ctx_free(f->ctx);
	free(f);
	return 0;
}

static ms_cs_synth *make(fixture *f, int oracle, int score, long matches)
{
	ms_cs_synth_options o;
	ms_cs_synth *cs;
	ms_cs_synth_options_init(&o, MS_CS_SYNTH_OPTIONS_VERSION);
	o.oracle = oracle;
	o.score = score;
	o.matches = matches;
	o.final_matches = 2000;
	if (ms_cs_synth_new(f->ctx, &cs, &o) < 0)
		fail_msg("ms_cs_synth_new: %s", ms_ctx_last_error(f->ctx));
	return cs;
}

static ms_dsl_prog *parse(fixture *f, ms_cs_synth *cs, const char *text)
{
	ms_dsl_prog *p;
	assert_int_equal(ms_dsl_prog_new(f->ctx, &p, ms_cs_dsl_grammar(ms_cs_synth_dsl(cs))), 0);
	if (ms_cs_dsl_parse(ms_cs_synth_dsl(cs), p, text, strlen(text), MS_CS_NT_START, "test") < 0)
		fail_msg("parse: %s", ms_ctx_last_error(f->ctx));
	return p;
}

/* Win rate of `p` against the random player over `n` matches (player A first in even matches). */
static double vs_random(fixture *f, ms_cs_synth *cs, const ms_dsl_prog *p, long n)
{
	ms_cs_dsl_runner *r;
	ms_cs_player rnd;
	ms_cs_eval_result acc;
	memset(&acc, 0, sizeof acc);
	ms_cs_player_random(&rnd);
	assert_int_equal(ms_cs_dsl_runner_new(f->ctx, &r, ms_cs_synth_dsl(cs)), 0);
	assert_int_equal(ms_cs_dsl_runner_load(r, p), 0);
	int rc = ms_cs_dsl_evaluate(r, NULL, &rnd, 99, 0, n, &acc);
	ms_cs_dsl_runner_free(r);
	if (rc == MS_ERANGE) /* a run-time error loses, as in Psi */
		return 0;
	if (rc < 0)
		fail_msg("evaluate: %s", ms_ctx_last_error(f->ctx));
	return (double)acc.wins_a / (double)acc.matches;
}

/* ---- the problem ---- */

/* The published program's Psi is the spec's anchor (0.580 over 12,000 games), whatever the thread count. */
static void test_cs_synth__published_program_scores_its_anchor_on_any_threads(void **state)
{
	fixture *f = *state;
	ms_cs_synth *cs = make(f, MS_CS_ORACLE_NONE, 0, 1000);
	ms_dsl_prog *p = parse(f, cs, ms_cs_dsl_builtin("couto"));
	double psi1, psi2;
	int failed = 1;

	assert_int_equal(ms_cs_synth_final_psi(f->ctx, cs, p, 1, 5, &psi1, &failed), 0);
	assert_int_equal(failed, 0);
	assert_int_equal(ms_cs_synth_final_psi(f->ctx, cs, p, 2, 5, &psi2, &failed), 0);
	assert_memory_equal(&psi1, &psi2, sizeof psi1);
	/* 2,000 games: standard error 0.011; 4 of them around 0.58 */
	assert_true(psi1 > 0.535 && psi1 < 0.625);
	ms_dsl_prog_free(p);
	ms_cs_synth_free(cs);
}

/* A program error scores 0 and is flagged, as the reference scores an exception. */
static void test_cs_synth__run_time_error_scores_zero(void **state)
{
	fixture *f = *state;
	ms_cs_synth *cs = make(f, MS_CS_ORACLE_NONE, 0, 1000);
	/* the column program's index 1 is out of range whenever only one action is legal */
	ms_dsl_prog *p = parse(f, cs, "yes-no: (0 + 0)\ncolumn: (1 + 1)");
	double psi = -1;
	int failed = 0;

	assert_int_equal(ms_cs_synth_final_psi(f->ctx, cs, p, 2, 5, &psi, &failed), 0);
	assert_int_equal(failed, 1);
	assert_true(psi == 0);
	ms_dsl_prog_free(p);
	ms_cs_synth_free(cs);
}

/* C is the cloning score of the data set: GA's own data clones GA's stand-in (the published program) partly. */
static void test_cs_synth__c_is_the_cloning_score_of_the_recorded_data(void **state)
{
	fixture *f = *state;
	ms_cs_synth *cs = make(f, MS_CS_ORACLE_GA, MS_CS_SCORE_ACTION, 1000);
	const ms_synth_problem *pb = ms_cs_synth_problem(cs);
	ms_dsl_prog *p = parse(f, cs, ms_cs_dsl_builtin("couto"));
	ms_synth_eval *ev;
	uint64_t seed = 3;
	double c = -1, direct = -2;
	int failed = 1;

	assert_int_equal(pb->has_c, 1);
	assert_int_equal(ms_cs_dataset_matches(ms_cs_synth_dataset(cs)), 3);
	assert_int_equal(ms_synth_eval_new(f->ctx, &ev, pb, 2, NULL), 0);
	const ms_dsl_prog *progs[1] = { p };
	assert_int_equal(ms_synth_eval_programs(ev, progs, 1, MS_SYNTH_C, &seed, &c, &failed, NULL, NULL), 0);
	ms_synth_eval_free(ev);
	assert_int_equal(failed, 0);

	ms_cs_dsl_runner *r;
	assert_int_equal(ms_cs_dsl_runner_new(f->ctx, &r, ms_cs_synth_dsl(cs)), 0);
	assert_int_equal(ms_cs_dsl_runner_load(r, p), 0);
	assert_int_equal(ms_cs_dsl_clone_score(r, ms_cs_synth_dataset(cs), MS_CS_SCORE_ACTION, seed, &direct), 0);
	ms_cs_dsl_runner_free(r);
	assert_memory_equal(&c, &direct, sizeof c);
	assert_true(c > 0.3 && c < 1.0);
	ms_dsl_prog_free(p);
	ms_cs_synth_free(cs);
}

/* Settings that change scores are in the fingerprint, so a checkpoint cannot be resumed under others. */
static void test_cs_synth__fingerprint_names_the_settings(void **state)
{
	fixture *f = *state;
	ms_cs_synth *a = make(f, MS_CS_ORACLE_GA, MS_CS_SCORE_OBSERVATION, 1000);
	ms_cs_synth *b = make(f, MS_CS_ORACLE_RANDOM, MS_CS_SCORE_OBSERVATION, 1000);
	ms_cs_synth *c = make(f, MS_CS_ORACLE_GA, MS_CS_SCORE_ACTION, 500);

	assert_non_null(strstr(ms_cs_synth_fingerprint(a), "matches=1000"));
	assert_non_null(strstr(ms_cs_synth_fingerprint(a), "score=O data=ga-selfplay matches=3 seed=1"));
	assert_non_null(strstr(ms_cs_synth_fingerprint(b), "data=random-selfplay"));
	assert_non_null(strstr(ms_cs_synth_fingerprint(c), "matches=500"));
	assert_non_null(strstr(ms_cs_synth_fingerprint(c), "score=A"));
	assert_string_not_equal(ms_cs_synth_fingerprint(a), ms_cs_synth_fingerprint(b));
	assert_int_equal(ms_cs_synth_final_problem(a)->has_c, 0);
	assert_non_null(strstr(ms_cs_synth_final_problem(a)->fingerprint, "matches=2000"));
	ms_cs_synth_free(a);
	ms_cs_synth_free(b);
	ms_cs_synth_free(c);
}

/* Common matches: every Psi evaluation plays the same matches, whatever its seed; the default draws them. */
static void test_cs_synth__common_matches_ignore_the_evaluation_seed(void **state)
{
	fixture *f = *state;
	ms_cs_synth_options o;
	ms_cs_synth *cs[2];
	double psi[2][2];

	for (int k = 0; k < 2; k++) {
		ms_cs_synth_options_init(&o, MS_CS_SYNTH_OPTIONS_VERSION);
		o.matches = 400;
		o.common_matches = k;
		o.common_seed = 9;
		if (ms_cs_synth_new(f->ctx, &cs[k], &o) < 0)
			fail_msg("ms_cs_synth_new: %s", ms_ctx_last_error(f->ctx));
		ms_dsl_prog *p = parse(f, cs[k], ms_cs_dsl_builtin("couto"));
		ms_synth_eval *ev;
		uint64_t seeds[2] = { 1, 2 };
		const ms_dsl_prog *progs[2] = { p, p };
		assert_int_equal(ms_synth_eval_new(f->ctx, &ev, ms_cs_synth_problem(cs[k]), 2, NULL), 0);
		assert_int_equal(ms_synth_eval_programs(ev, progs, 2, MS_SYNTH_PSI, seeds, psi[k], NULL, NULL, NULL), 0);
		ms_synth_eval_free(ev);
		ms_dsl_prog_free(p);
	}
	assert_true(psi[1][0] == psi[1][1]);
	assert_true(psi[0][0] != psi[0][1]);
	assert_non_null(strstr(ms_cs_synth_fingerprint(cs[1]), "common-matches=9"));
	assert_null(strstr(ms_cs_synth_fingerprint(cs[0]), "common-matches"));
	/* the final problem plays fresh matches either way */
	assert_null(strstr(ms_cs_synth_final_problem(cs[1])->fingerprint, "common-matches"));
	ms_cs_synth_free(cs[0]);
	ms_cs_synth_free(cs[1]);
}

static void test_cs_synth__bad_options_are_refused_with_a_message(void **state)
{
	fixture *f = *state;
	ms_cs_synth_options o;
	ms_cs_synth *cs = NULL;

	ms_cs_synth_options_init(&o, MS_CS_SYNTH_OPTIONS_VERSION);
	o.era = 7;
	assert_int_equal(ms_cs_synth_new(f->ctx, &cs, &o), MS_EINVAL);
	assert_null(cs);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "era"));

	ms_cs_synth_options_init(&o, MS_CS_SYNTH_OPTIONS_VERSION);
	o.matches = 0;
	assert_int_equal(ms_cs_synth_new(f->ctx, &cs, &o), MS_EINVAL);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "matches"));

	ms_cs_synth_options_init(&o, MS_CS_SYNTH_OPTIONS_VERSION);
	o.oracle = MS_CS_ORACLE_FILE;
	o.data_path = "no/such/dataset.txt";
	assert_int_equal(ms_cs_synth_new(f->ctx, &cs, &o), MS_EIO);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "no/such/dataset.txt"));
}

/* ---- searches ---- */

typedef struct result {
	char text[4096];
	double psi, c;
	long long evals_psi, evals_c;
} result;

static void search(fixture *f, ms_cs_synth *cs, int algo, uint64_t seed, long long evals, int threads, result *out)
{
	ms_synth_options o;
	ms_synth *s;
	char *text;

	ms_synth_options_init(&o, MS_SYNTH_OPTIONS_VERSION);
	o.algo = algo;
	o.seed = seed;
	o.max_evals = evals;
	o.threads = threads;
	if (ms_synth_new(f->ctx, &s, ms_cs_synth_problem(cs), &o) < 0 || ms_synth_run(s) < 0)
		fail_msg("search: %s", ms_ctx_last_error(f->ctx));
	const ms_dsl_prog *b = ms_synth_best(s, MS_SYNTH_PSI);
	assert_non_null(b);
	assert_int_equal(ms_dsl_print(b, &text, NULL), 0);
	snprintf(out->text, sizeof out->text, "%s", text);
	ms_ctx_mfree(f->ctx, text);
	out->psi = ms_synth_best_score(s, MS_SYNTH_PSI);
	out->c = ms_synth_best_score(s, MS_SYNTH_C);
	ms_synth_stats st;
	ms_synth_get_stats(s, &st);
	out->evals_psi = st.evals_psi;
	out->evals_c = st.evals_c;
	ms_synth_free(s);
}

/* Budgeted by evaluations, a search gives the same program for the same seed on 1 or 2 threads. */
static void test_cs_synth__evals_budget_is_deterministic_across_threads(void **state)
{
	fixture *f = *state;
	ms_cs_synth *cs = make(f, MS_CS_ORACLE_GA, MS_CS_SCORE_OBSERVATION, 100);
	static const int algos[] = { MS_SYNTH_SA, MS_SYNTH_SKETCH_SA, MS_SYNTH_UCT };
	result a, b, c;

	for (size_t i = 0; i < sizeof algos / sizeof algos[0]; i++) {
		search(f, cs, algos[i], 4, 1500, 1, &a);
		search(f, cs, algos[i], 4, 1500, 2, &b);
		assert_string_equal(a.text, b.text);
		assert_memory_equal(&a.psi, &b.psi, sizeof a.psi);
		assert_memory_equal(&a.c, &b.c, sizeof a.c);
		assert_int_equal(a.evals_psi, 1500);
		assert_int_equal(a.evals_psi, b.evals_psi);
		assert_int_equal(a.evals_c, b.evals_c);
		/* and the seed matters */
		search(f, cs, algos[i], 5, 1500, 2, &c);
		assert_true(strcmp(a.text, c.text) != 0 || a.psi != c.psi);
	}
	ms_cs_synth_free(cs);
}

/*
 * A short search finds a program that beats the random player clearly
 * (GA itself wins about 0.97 against it; a program that fails or never
 * stops loses to it). Most programs of the reference grammar raise an
 * error, so a short run from one seed does not always get there (in
 * trials, one seed in four of Sketch-SA(O) at this budget stayed below
 * 0.1 against GA): the search restarts from two seeds and keeps the best.
 */
static void test_cs_synth__short_search_beats_the_random_player(void **state)
{
	fixture *f = *state;
	ms_cs_synth *cs = make(f, MS_CS_ORACLE_GA, MS_CS_SCORE_OBSERVATION, 100);
	double best_psi = -1, best_w = 0;
	result r;

	for (uint64_t seed = 1; seed <= 2; seed++) {
		search(f, cs, MS_SYNTH_SKETCH_SA, seed, 5000, 2, &r);
		if (r.psi <= best_psi)
			continue;
		best_psi = r.psi;
		ms_dsl_prog *p = parse(f, cs, r.text);
		best_w = vs_random(f, cs, p, 1000);
		ms_dsl_prog_free(p);
	}
	print_message("best psi %.3f (100 matches), against random %.3f (1000 matches)\n", best_psi, best_w);
	assert_true(best_psi > 0.15);
	assert_true(best_w > 0.8);
	ms_cs_synth_free(cs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_cs_synth__published_program_scores_its_anchor_on_any_threads, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_cs_synth__run_time_error_scores_zero, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cs_synth__c_is_the_cloning_score_of_the_recorded_data, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cs_synth__fingerprint_names_the_settings, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cs_synth__common_matches_ignore_the_evaluation_seed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cs_synth__bad_options_are_refused_with_a_message, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cs_synth__evals_budget_is_deterministic_across_threads, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cs_synth__short_search_beats_the_random_player, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
