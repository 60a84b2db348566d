/*
 * Can't Stop DSL programs as players: GA written in the DSL (spec 3.5) and
 * the published program (5.10) play byte-identical matches to the native
 * players (every decision's state and move), score identically on cloning
 * data sets (6), and a program's errors end evaluations with MS_ERANGE.
 */
#include "cs_testutil.h"

#include <stdio.h>

#include "microsynth/cantstop_dsl.h"

/* A player that records every decision of the player it wraps. */
typedef struct spy {
	const ms_cs_player *inner;
	ms_cs_state *states;
	ms_cs_move *moves;
	int n, cap;
} spy;

static void spy_log(spy *s, const ms_cs_state *st, ms_cs_move m)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 1024;
		s->states = realloc(s->states, sizeof(*s->states) * (size_t)s->cap);
		s->moves = realloc(s->moves, sizeof(*s->moves) * (size_t)s->cap);
		assert_non_null(s->states);
		assert_non_null(s->moves);
	}
	s->states[s->n] = *st;
	s->moves[s->n++] = m;
}

static int spy_yes_no(ms_ctx *ctx, void *ud, const ms_cs_state *st, ms_cs_rng *rng, int *answer)
{
	spy *s = ud;
	int rc = s->inner->yes_no(ctx, s->inner->ud, st, rng, answer);

	if (rc == 0)
		spy_log(s, st, cs_answer(*answer));
	return rc;
}

static int spy_column(ms_ctx *ctx, void *ud, const ms_cs_state *st, const ms_cs_move *actions, int n, ms_cs_rng *rng,
		      int *choice)
{
	spy *s = ud;
	int rc = s->inner->column(ctx, s->inner->ud, st, actions, n, rng, choice);

	if (rc == 0)
		spy_log(s, st, actions[*choice]);
	return rc;
}

static ms_cs_player spy_player(spy *s, const ms_cs_player *inner)
{
	ms_cs_player p = { spy_yes_no, spy_column, s, "spy" };

	memset(s, 0, sizeof(*s));
	s->inner = inner;
	return p;
}

static void spy_free(spy *s)
{
	free(s->states);
	free(s->moves);
}

/*
 * Plays `matches` matches of X against each opponent, X moving first in
 * even matches, once with X = the DSL program and once with X = the
 * native player, and compares every decision of both sides.
 */
static void assert_same_matches(ms_cs_player *dsl_player, const ms_cs_player *native, int matches, uint64_t seed,
				long *decisions)
{
	ms_ctx *ctx = NULL;
	ms_cs_player ga, rnd;
	const ms_cs_player *opponents[2];

	assert_int_equal(ms_ctx_new(&ctx, NULL), 0);
	ms_cs_player_ga(&ga, NULL, 0);
	ms_cs_player_random(&rnd);
	opponents[0] = &ga;
	opponents[1] = &rnd;
	*decisions = 0;
	for (int o = 0; o < 2; o++)
		for (int i = 0; i < matches; i++) {
			spy sa, sb;
			ms_cs_player a = spy_player(&sa, dsl_player), b = spy_player(&sb, native);
			ms_cs_match_result ra, rb;
			uint64_t s = ms_cs_match_seed(seed + (uint64_t)o, (uint64_t)i);
			int rc_a, rc_b;

			if (i % 2 == 0) {
				rc_a = ms_cs_play_match(ctx, NULL, &a, opponents[o], s, &ra);
				rc_b = ms_cs_play_match(ctx, NULL, &b, opponents[o], s, &rb);
			} else {
				rc_a = ms_cs_play_match(ctx, NULL, opponents[o], &a, s, &ra);
				rc_b = ms_cs_play_match(ctx, NULL, opponents[o], &b, s, &rb);
			}
			if (rc_a != 0)
				fail_msg("match %d: %s", i, ms_ctx_last_error(ctx));
			assert_int_equal(rc_b, 0);
			assert_int_equal(sa.n, sb.n);
			for (int k = 0; k < sa.n; k++)
				if (memcmp(&sa.states[k], &sb.states[k], sizeof(ms_cs_state)) ||
				    !ms_cs_move_equal(&sa.moves[k], &sb.moves[k])) {
					char st[512], ma[8], mb[8];

					ms_cs_state_format(&sa.states[k], st, sizeof(st));
					ms_cs_move_format(&sa.moves[k], ma, sizeof(ma));
					ms_cs_move_format(&sb.moves[k], mb, sizeof(mb));
					fail_msg("opponent %d match %d decision %d differs: %s: dsl %s, native %s", o, i, k, st, ma,
						 mb);
				}
			assert_memory_equal(&ra, &rb, sizeof(ra));
			*decisions += sa.n;
			spy_free(&sa);
			spy_free(&sb);
		}
	ms_ctx_free(ctx);
}

typedef struct fixture {
	ms_ctx *ctx;
	ms_cs_dsl *d, *ext;
	ms_dsl_prog *p;
	ms_cs_dsl_runner *r;
} fixture;

static int setup(void **state)
{
	fixture *f = calloc(1, sizeof(*f));
	ms_cs_dsl_options e = { .version = MS_CS_DSL_OPTIONS_VERSION,
					.constants = MS_CS_DSL_CONSTANTS_01, .extended = 1 };

	if (!f || ms_ctx_new(&f->ctx, NULL) || ms_cs_dsl_new(f->ctx, &f->d, NULL) || ms_cs_dsl_new(f->ctx, &f->ext, &e))
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	fixture *f = *state;

	ms_cs_dsl_runner_free(f->r);
	ms_dsl_prog_free(f->p);
	ms_cs_dsl_free(f->d);
	ms_cs_dsl_free(f->ext);
	ms_ctx_free(f->ctx);
	free(f);
	return 0;
}

/* Loads `text` of grammar d into a fresh runner of the fixture. */
static void load(fixture *f, ms_cs_dsl *d, const char *text)
{
	ms_dsl_prog_free(f->p);
	ms_cs_dsl_runner_free(f->r);
	f->p = NULL;
	f->r = NULL;
	assert_int_equal(ms_dsl_prog_new(f->ctx, &f->p, ms_cs_dsl_grammar(d)), 0);
	if (ms_cs_dsl_parse(d, f->p, text, strlen(text), MS_CS_NT_START, "t"))
		fail_msg("%s", ms_ctx_last_error(f->ctx));
	assert_int_equal(ms_cs_dsl_runner_new(f->ctx, &f->r, d), 0);
	assert_int_equal(ms_cs_dsl_runner_load(f->r, f->p), 0);
}

static void test_cs_dsl_ga__plays_the_same_matches_as_native_ga(void **state)
{
	fixture *f = *state;
	ms_cs_player dsl, ga;
	long decisions;

	load(f, f->ext, ms_cs_dsl_builtin("ga"));
	ms_cs_dsl_runner_player(f->r, &dsl);
	ms_cs_player_ga(&ga, NULL, 0);
	assert_same_matches(&dsl, &ga, 300, 2024, &decisions);
	print_message("GA in the DSL: 600 matches, %ld decisions, all identical\n", decisions);
	assert_true(decisions > 600 * 50);
}

static void test_cs_dsl_couto__plays_the_same_matches_as_the_native_program(void **state)
{
	fixture *f = *state;
	ms_cs_player dsl, couto;
	long decisions;

	load(f, f->d, ms_cs_dsl_builtin("couto"));
	ms_cs_dsl_runner_player(f->r, &dsl);
	ms_cs_player_couto(&couto);
	assert_same_matches(&dsl, &couto, 300, 77, &decisions);
	print_message("couto in the DSL: 600 matches, %ld decisions, all identical\n", decisions);
	assert_true(decisions > 600 * 50);
}

static void test_cs_dsl_evaluate__win_rate_equals_the_native_players(void **state)
{
	fixture *f = *state;
	ms_cs_eval_result a, b;
	ms_cs_player couto, ga;

	load(f, f->d, ms_cs_dsl_builtin("couto"));
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	assert_int_equal(ms_cs_dsl_evaluate(f->r, NULL, NULL, 5, 0, 400, &a), 0);
	ms_cs_player_couto(&couto);
	ms_cs_player_ga(&ga, NULL, 0);
	assert_int_equal(ms_cs_evaluate(f->ctx, NULL, &couto, &ga, 5, 0, 400, &b), 0);
	assert_memory_equal(&a, &b, sizeof(a));
	assert_true(a.wins_a > 180); /* about 0.58 (spec 8.3) */
}

static void test_cs_dsl_clone_score__equals_the_native_policies(void **state)
{
	fixture *f = *state;
	ms_cs_player ga, rnd, couto;
	ms_cs_dataset *data[2];
	double s, t;

	ms_cs_player_ga(&ga, NULL, 0);
	ms_cs_player_random(&rnd);
	ms_cs_player_couto(&couto);
	assert_int_equal(ms_cs_dataset_generate(f->ctx, &data[0], &ga, &ga, 3, MS_CS_ERA_A, 9), 0);
	assert_int_equal(ms_cs_dataset_generate(f->ctx, &data[1], &rnd, &rnd, 3, MS_CS_ERA_A, 9), 0);
	for (int k = 0; k < 2; k++) {
		load(f, f->ext, ms_cs_dsl_builtin("ga"));
		assert_int_equal(ms_cs_dsl_clone_score(f->r, data[k], MS_CS_SCORE_ACTION, 1, &s), 0);
		assert_int_equal(ms_cs_score_action(f->ctx, data[k], &ga, 1, &t), 0);
		assert_true(s == t);
		if (k == 0)
			assert_true(s == 1.0); /* GA clones its own data exactly */
		assert_int_equal(ms_cs_dsl_clone_score(f->r, data[k], MS_CS_SCORE_OBSERVATION, 1, &s), 0);
		assert_int_equal(ms_cs_score_observation(f->ctx, data[k], &ga, 1, &t), 0);
		assert_true(s == t);
		load(f, f->d, ms_cs_dsl_builtin("couto"));
		assert_int_equal(ms_cs_dsl_clone_score(f->r, data[k], MS_CS_SCORE_ACTION, 1, &s), 0);
		assert_int_equal(ms_cs_score_action(f->ctx, data[k], &couto, 1, &t), 0);
		assert_true(s == t && s > 0 && s < 1);
		assert_int_equal(ms_cs_dsl_clone_score(f->r, data[k], MS_CS_SCORE_OBSERVATION, 1, &s), 0);
		assert_int_equal(ms_cs_score_observation(f->ctx, data[k], &couto, 1, &t), 0);
		assert_true(s == t && s > 0);
	}
	/* A program that raises scores 0 and says why. */
	load(f, f->d, "yes-no: sum(local_list)\ncolumn: argmax(actions)");
	s = 0.5;
	assert_int_equal(ms_cs_dsl_clone_score(f->r, data[0], MS_CS_SCORE_ACTION, 1, &s), MS_ERANGE);
	assert_true(s == 0);
	assert_int_equal(ms_cs_dsl_clone_score(f->r, data[0], 7, 1, &s), MS_EINVAL);
	ms_cs_dataset_free(data[0]);
	ms_cs_dataset_free(data[1]);
}

static void test_cs_dsl_player__program_errors_end_the_evaluation(void **state)
{
	fixture *f = *state;
	static const struct {
		const char *text, *why;
	} cases[] = {
		/* The yes/no program runs at every yes/no decision, forced ones included (spec 5.6). */
		{ "yes-no: sum(local_list)\ncolumn: argmax(map((lambda x : sum(local_list)), actions))", "local_list is read before" },
		/* Sum of an empty list is a float: no index. */
		{ "yes-no: sum(neutrals)\ncolumn: sum(map((lambda x : sum(neutrals)), neutrals))", "cannot index" },
		/* Map over ['y', 'n'] binds strings. */
		{ "yes-no: sum(map((lambda x : (1 + 1)), actions))\ncolumn: argmax(map((lambda x : sum(local_list)), actions))", "map binds a string" },
		/* Sum over strings. */
		{ "yes-no: sum(actions)\ncolumn: argmax(map((lambda x : sum(local_list)), actions))", "sum of strings" },
	};
	ms_cs_eval_result acc;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(&acc, 0, sizeof(acc));
		load(f, f->d, cases[i].text);
		assert_int_equal(ms_cs_dsl_evaluate(f->r, NULL, NULL, 1, 0, 10, &acc), MS_ERANGE);
		assert_non_null(strstr(ms_ctx_last_error(f->ctx), cases[i].why));
	}
	/* argmax(actions) picks the flattened index of the tuples' maximum; out of range for pairs is an error. */
	load(f, f->d, "yes-no: (DifficultyScore + 0)\ncolumn: argmax(actions)");
	memset(&acc, 0, sizeof(acc));
	assert_int_equal(ms_cs_dsl_evaluate(f->r, NULL, NULL, 1, 0, 50, &acc), MS_ERANGE);
	/* A runner without a whole program is refused. */
	{
		ms_cs_dsl_runner *r;
		ms_cs_player p;
		ms_cs_state s = cs_state("phase=yesno");
		int answer;

		assert_int_equal(ms_cs_dsl_runner_new(f->ctx, &r, f->d), 0);
		ms_cs_dsl_runner_player(r, &p);
		assert_int_equal(p.yes_no(f->ctx, p.ud, &s, NULL, &answer), MS_EINVAL);
		assert_non_null(strstr(ms_ctx_last_error(f->ctx), "no program loaded"));
		ms_cs_dsl_runner_free(r);
	}
}

static void test_cs_dsl_random_programs__evaluate_or_fail_cleanly(void **state)
{
	fixture *f = *state;
	ms_jrandom rng;
	ms_cs_player p;
	int ok = 0, failed = 0;

	assert_int_equal(ms_dsl_prog_new(f->ctx, &f->p, ms_cs_dsl_grammar(f->d)), 0);
	assert_int_equal(ms_cs_dsl_runner_new(f->ctx, &f->r, f->d), 0);
	ms_cs_dsl_runner_player(f->r, &p);
	ms_jrandom_init(&rng, 5);
	for (int k = 0; k < 3000; k++) {
		ms_cs_eval_result acc;
		int rc;

		assert_int_equal(ms_cs_dsl_generate(f->d, f->p, &rng), 0);
		/* One runner, one player: loading a program switches what the player plays. */
		assert_int_equal(ms_cs_dsl_runner_load(f->r, f->p), 0);
		memset(&acc, 0, sizeof(acc));
		rc = ms_cs_dsl_evaluate(f->r, NULL, NULL, (uint64_t)k, 0, 2, &acc);
		if (rc != 0 && rc != MS_ERANGE)
			fail_msg("rc %d: %s", rc, ms_ctx_last_error(f->ctx));
		if (rc == 0)
			ok++;
		else
			failed++;
	}
	/* Most random programs raise (the reference's SA waits hours for a first non-zero score, spec 8.2). */
	print_message("random programs: %d play, %d raise\n", ok, failed);
	assert_true(ok > 0 && failed > 0);
}

/* Records the states of yes/no decisions (the spy's column callback records the others). */
static int collect_yes_no(ms_ctx *ctx, void *ud, const ms_cs_state *st, ms_cs_rng *rng, int *answer)
{
	spy *s = ud;

	spy_log(s, st, cs_answer(MS_CS_MOVE_YES));
	return s->inner->yes_no(ctx, s->inner->ud, st, rng, answer);
}

static void test_cs_dsl_yes_no_safe__programs_proven_safe_never_raise(void **state)
{
	fixture *f = *state;
	ms_cs_player ga, rnd, p;
	spy states;
	ms_jrandom rng;
	int safe = 0, unsafe_raised = 0;
	static const ms_cs_move yn[2] = { { MS_CS_MOVE_YES, 0, { 0, 0 } }, { MS_CS_MOVE_NO, 0, { 0, 0 } } };

	/* The built-ins are safe: their forced yes/no decisions skip the program (and still match, above). */
	load(f, f->d, ms_cs_dsl_builtin("couto"));
	assert_true(ms_cs_dsl_runner_yes_no_safe(f->r));
	load(f, f->ext, ms_cs_dsl_builtin("ga"));
	assert_true(ms_cs_dsl_runner_yes_no_safe(f->r));
	load(f, f->d, "yes-no: argmax(neutrals)\ncolumn: argmax(actions)");
	assert_false(ms_cs_dsl_runner_yes_no_safe(f->r));
	/* Yes/no states of 40 matches, then random programs: those proven safe run on all of them. */
	ms_cs_player_ga(&ga, NULL, 0);
	ms_cs_player_random(&rnd);
	p = spy_player(&states, &ga);
	p.yes_no = collect_yes_no;
	for (int i = 0; i < 40; i++) {
		ms_cs_match_result res;

		assert_int_equal(ms_cs_play_match(f->ctx, NULL, i % 2 ? &p : &rnd, i % 2 ? &rnd : &p, (uint64_t)i, &res), 0);
	}
	ms_dsl_prog_free(f->p);
	ms_cs_dsl_runner_free(f->r);
	assert_int_equal(ms_dsl_prog_new(f->ctx, &f->p, ms_cs_dsl_grammar(f->d)), 0);
	assert_int_equal(ms_cs_dsl_runner_new(f->ctx, &f->r, f->d), 0);
	ms_jrandom_init(&rng, 21);
	for (int k = 0; k < 4000; k++) {
		int raised = 0;

		assert_int_equal(ms_cs_dsl_generate(f->d, f->p, &rng), 0);
		for (int m = k % 3; m > 0; m--)
			assert_int_equal(ms_cs_dsl_mutate(f->d, f->p, &rng, NULL), 0);
		assert_int_equal(ms_cs_dsl_runner_load(f->r, f->p), 0);
		for (int j = k % 7; j < states.n && !raised; j += 7) {
			ms_cs_env env;
			ms_cs_dsl_value v;

			if (states.states[j].dice_action) /* the spy logs column decisions too */
				continue;
			ms_cs_env_init(&env, &states.states[j], yn, 2);
			raised = ms_cs_dsl_eval(f->r, &env, &v) != 0;
		}
		if (ms_cs_dsl_runner_yes_no_safe(f->r)) {
			safe++;
			if (raised) {
				char *t = NULL;

				ms_dsl_print(f->p, &t, NULL);
				fail_msg("proven safe but raised: %s\n%s", ms_ctx_last_error(f->ctx), t);
			}
		} else {
			unsafe_raised += raised;
		}
	}
	print_message("yes/no parts proven safe: %d of 4000 random programs (%d of the others raised)\n", safe,
		      unsafe_raised);
	assert_true(safe > 100);
	spy_free(&states);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_cs_dsl_ga__plays_the_same_matches_as_native_ga, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cs_dsl_couto__plays_the_same_matches_as_the_native_program, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_cs_dsl_evaluate__win_rate_equals_the_native_players, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cs_dsl_clone_score__equals_the_native_policies, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cs_dsl_player__program_errors_end_the_evaluation, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cs_dsl_random_programs__evaluate_or_fail_cleanly, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cs_dsl_yes_no_safe__programs_proven_safe_never_raise, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
