/*
 * Raced hill climbing (native/synth/race.c): paired scores, the fresh
 * confirmation, determinism across thread counts. Two problems: the toy's
 * (tests/synth/toy.h, a real gradient to climb) and a pure-luck one whose
 * score depends on the evaluation's seed only, where every program is as
 * good as any other and only a search fooled by luck would report more
 * than the mean.
 */
#define _POSIX_C_SOURCE 200809L
#include "support/testutil.h"

#include <stdio.h>

#include "toy.h"

/* The pure-luck problem: a score in [0, 1] from the seed alone; the seeds seen, in order (1 thread). */
typedef struct luck {
	uint64_t seed[4096];
	double score[4096];
	int n_seeds;
	long evals;
} luck;

static double luck_of(uint64_t seed)
{
	return (double)(toy_mix(seed) % 1001) / 1000.0;
}

static int luck_eval(void *user, void *state, ms_ctx *ctx, const ms_dsl_prog *p, int kind, int shard, uint64_t seed,
		     double *sum, double *weight)
{
	luck *l = user;
	(void)state, (void)ctx, (void)p, (void)kind;
	if (shard == 0) {
		int seen = 0;
		for (int i = 0; i < l->n_seeds; i++)
			seen |= l->seed[i] == seed;
		if (!seen && l->n_seeds < 4096) {
			l->seed[l->n_seeds] = seed;
			l->score[l->n_seeds++] = luck_of(seed);
		}
		l->evals++;
	}
	*sum = luck_of(seed);
	*weight = 1;
	return 0;
}

typedef struct fixture {
	toy_env e;
	luck l;
} fixture;

static int setup(void **state)
{
	fixture *f = calloc(1, sizeof *f);
	*state = f;
	return f && toy_env_open(&f->e, 1, 4) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
	fixture *f = *state;
	toy_env_close(&f->e);
	free(f);
	return 0;
}

/* The race's defaults with a budget of evaluations, from `start` (NULL: from scratch). */
static ms_synth_options race_opts(long long evals, int threads, const ms_dsl_prog *start)
{
	ms_synth_options o;
	ms_synth_options_init(&o, MS_SYNTH_OPTIONS_VERSION);
	o.algo = MS_SYNTH_RACE, o.seed = 5, o.initial = start;
	o.max_evals = evals, o.threads = threads;
	return o;
}

/* Runs a search; its best program's tokens into *tokens (caller frees), its reported score returned. */
static double run(fixture *f, const ms_synth_problem *pb, const ms_synth_options *o, char **tokens)
{
	ms_synth *s;
	assert_int_equal(ms_synth_new(f->e.ctx, &s, pb, o), 0);
	assert_int_equal(ms_synth_run(s), 0);
	double score = ms_synth_best_score(s, MS_SYNTH_PSI);
	char *t;
	assert_int_equal(ms_dsl_print_tokens(ms_synth_best(s, MS_SYNTH_PSI), ' ', &t, NULL), 0);
	*tokens = strdup(t);
	ms_ctx_mfree(f->e.ctx, t);
	ms_synth_free(s);
	return score;
}

static ms_dsl_prog *parse(fixture *f, const char *tokens)
{
	ms_dsl_prog *p;
	assert_int_equal(ms_dsl_prog_new(f->e.ctx, &p, f->e.t.g), 0);
	assert_int_equal(ms_dsl_parse_tokens(p, tokens, strlen(tokens), ' ', TOY_E), 0);
	return p;
}

static void test_race__is_in_the_table_with_its_knobs(void **state)
{
	ms_synth_options o;
	ms_ctx *ctx;
	(void)state;
	assert_int_equal(ms_ctx_new(&ctx, NULL), 0);
	assert_int_equal(ms_synth_algo_from_name("race"), MS_SYNTH_RACE);
	assert_string_equal(ms_synth_algo_name(MS_SYNTH_RACE), "race");
	assert_int_equal(ms_synth_options_init(&o, MS_SYNTH_OPTIONS_VERSION), 0);
	assert_int_equal(o.race_blocks, 4);
	assert_int_equal(o.race_confirm, 16);
	assert_true(o.race_z == 2);
	assert_int_equal(ms_synth_options_set(ctx, &o, "--race-blocks", "6"), 0);
	assert_int_equal(ms_synth_options_set(ctx, &o, "--race-confirm", "3"), 0);
	assert_int_equal(ms_synth_options_set(ctx, &o, "--race-margin", "0.01"), 0);
	assert_int_equal(o.race_blocks, 6);
	assert_int_equal(o.race_confirm, 3);
	assert_true(o.race_margin == 0.01);
	assert_int_equal(ms_synth_options_set(ctx, &o, "--race-blocks", "0"), MS_EINVAL);
	assert_int_equal(ms_synth_knob_applies(ctx, "--race-confirm", MS_SYNTH_SA), MS_EINVAL);
	assert_int_equal(ms_synth_knob_applies(ctx, "--race-confirm", MS_SYNTH_RACE), 0);
	ms_ctx_free(ctx);
}

/*
 * Where the score is the seed's luck alone, paired scores make every
 * candidate's gain exactly 0: none is ever confirmed, the start stays, the
 * search scores on its race seeds only, and reports their mean, not the
 * best score it saw (what SA reports on the same problem).
 */
static void test_race__paired_scores_never_take_luck_for_a_better_program(void **state)
{
	fixture *f = *state;
	ms_synth_problem pb = f->e.pb;
	ms_synth_options o;
	char *best;
	pb.eval = luck_eval;
	pb.user = &f->l;
	pb.fingerprint = "luck";
	ms_dsl_prog *start = parse(f, "Plus x Num 1");
	memset(&f->l, 0, sizeof f->l);
	o = race_opts(300, 1, start);
	double reported = run(f, &pb, &o, &best);
	assert_string_equal(best, "Plus x Num 1");
	assert_int_equal(f->l.evals, 300);
	assert_int_equal(f->l.n_seeds, o.race_blocks);
	double mean = 0, max = 0;
	for (int i = 0; i < f->l.n_seeds; i++) {
		mean += f->l.score[i] / f->l.n_seeds;
		max = f->l.score[i] > max ? f->l.score[i] : max;
	}
	assert_true(fabs(reported - mean) < 1e-12);
	free(best);

	/* SA on the same problem: the luckiest of 300 scores */
	memset(&f->l, 0, sizeof f->l);
	ms_synth_options_init(&o, MS_SYNTH_OPTIONS_VERSION);
	o.seed = 5;
	o.max_evals = 300;
	o.initial = start;
	double sa = run(f, &pb, &o, &best);
	assert_true(sa > 0.95);
	assert_true(sa > reported + 0.2);
	free(best);
	ms_dsl_prog_free(start);
}

/*
 * On the toy problem (noisy scores, a real target) the race climbs from a
 * poor start; a margin no gain can exceed keeps the start however far
 * ahead a candidate raced: only the confirmation replaces the incumbent.
 */
static void test_race__only_a_confirmation_replaces_the_incumbent(void **state)
{
	fixture *f = *state;
	ms_synth_options o;
	char *best;
	ms_dsl_prog *start = parse(f, "Plus x Num 0");
	o = race_opts(3000, 1, start);
	double climbed = run(f, &f->e.pb, &o, &best);
	assert_string_not_equal(best, "Plus x Num 0");
	free(best);
	o.race_margin = 1;
	double kept = run(f, &f->e.pb, &o, &best);
	assert_string_equal(best, "Plus x Num 0");
	assert_true(climbed > kept + 0.2);
	free(best);
	ms_dsl_prog_free(start);
}

/* With an evaluation budget the race is reproducible for any thread count, from a start or from scratch. */
static void test_race__is_deterministic_across_thread_counts(void **state)
{
	fixture *f = *state;
	ms_synth_options o;
	char *a, *b;
	o = race_opts(1500, 1, NULL);
	double s1 = run(f, &f->e.pb, &o, &a);
	o = race_opts(1500, 3, NULL);
	double s3 = run(f, &f->e.pb, &o, &b);
	assert_string_equal(a, b);
	assert_true(s1 == s3);
	assert_true(s1 > 0);
	free(a);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_race__is_in_the_table_with_its_knobs),
		cmocka_unit_test(test_race__paired_scores_never_take_luck_for_a_better_program),
		cmocka_unit_test(test_race__only_a_confirmation_replaces_the_incumbent),
		cmocka_unit_test(test_race__is_deterministic_across_thread_counts),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
