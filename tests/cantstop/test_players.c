/*
 * Can't Stop players and domain functions: GA on the worked examples of
 * spec section 3.4, the DSL's domain functions (5.5), the environment
 * (5.3), the program wrapper (5.6), GA written as a program (3.5), and the
 * random player's legality and uniformity (4).
 */
#include "cs_testutil.h"

static const ms_cs_ga_params *ga(void)
{
	return ms_cs_ga_params_glenn();
}

/* Spec 3.4, stop decisions with three neutrals in use. */
static void test_ga__stop_decisions_of_the_worked_examples(void **state)
{
	static const struct {
		const char *state;
		int progress, difficulty, answer;
	} cases[] = {
		{ "phase=yesno neutral=6:0,7:0,8:0", 10, 0, MS_CS_MOVE_YES },
		{ "phase=yesno neutral=7:6,8:0,6:1 m1=7:4", 13, 0, MS_CS_MOVE_YES },
		{ "phase=yesno neutral=9:0,11:0,7:0", 20, 13, MS_CS_MOVE_NO },
		{ "phase=yesno neutral=2:1,3:0,4:1", 44, 5, MS_CS_MOVE_NO },
		/* Column 12 entered and claimed this turn: (4 + 1) * 7 = 35 alone. */
		{ "phase=yesno neutral=12:2,6:0,7:0 won=12", 35 + 4 + 2, 0, MS_CS_MOVE_NO },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ms_cs_state s = cs_state(cases[i].state);

		assert_int_equal(ms_cs_ga_progress(ga(), &s), cases[i].progress);
		assert_int_equal(ms_cs_ga_difficulty(ga(), &s), cases[i].difficulty);
		assert_int_equal(ms_cs_ga_yes_no(ga(), &s), cases[i].answer);
	}
}

static void test_ga__keeps_rolling_with_fewer_than_three_neutrals(void **state)
{
	/* 2 and 12 advanced three times each: progress 56, but rule 2 answers 'y'. */
	ms_cs_state s = cs_state("phase=yesno neutral=2:2,12:2");

	(void)state;
	assert_int_equal(ms_cs_ga_progress(ga(), &s), 56);
	assert_int_equal(ms_cs_ga_yes_no(ga(), &s), MS_CS_MOVE_YES);
}

static void test_ga__stops_when_stopping_wins_exactly_three(void **state)
{
	ms_cs_state win = cs_state("phase=yesno neutral=2:2 won=2 fin=5:1,9:1");
	/* A stop that would bring four columns does not trigger rule 1. */
	ms_cs_state four = cs_state("phase=yesno neutral=2:2,3:4 won=2,3 fin=5:1,9:1");

	(void)state;
	assert_int_equal(ms_cs_ga_yes_no(ga(), &win), MS_CS_MOVE_NO);
	assert_int_equal(ms_cs_wins_after_stopping(&four), 0);
	assert_int_equal(ms_cs_ga_yes_no(ga(), &four), MS_CS_MOVE_YES);
}

static void test_ga__column_decisions_of_the_worked_examples(void **state)
{
	ms_cs_state start = cs_state("roll=1,3,4,6");
	ms_cs_state two = cs_state("roll=2,4,3,3 neutral=6:0,8:0");
	ms_cs_move acts[MS_CS_MAX_ACTIONS];
	int n;

	(void)state;
	n = ms_cs_legal_actions(&start, acts);
	assert_int_equal(n, 3);
	assert_int_equal(ms_cs_ga_action_score(ga(), &start, &acts[0]), -8);  /* (4,10) */
	assert_int_equal(ms_cs_ga_action_score(ga(), &start, &acts[1]), -12); /* (5,9) */
	assert_int_equal(ms_cs_ga_action_score(ga(), &start, &acts[2]), 0);   /* (7,7) */
	assert_int_equal(ms_cs_ga_column(ga(), &start, acts, n), 2);
	n = ms_cs_legal_actions(&two, acts);
	assert_int_equal(n, 3);
	assert_int_equal(ms_cs_ga_action_score(ga(), &two, &acts[0]), 16); /* (6,6) */
	assert_int_equal(ms_cs_ga_action_score(ga(), &two, &acts[1]), -3); /* (7) */
	assert_int_equal(ms_cs_ga_action_score(ga(), &two, &acts[2]), -6); /* (5) */
	assert_int_equal(ms_cs_ga_column(ga(), &two, acts, n), 0);
}

static void test_ga__ties_go_to_the_first_action_unless_sorted(void **state)
{
	ms_cs_state s = cs_state("roll=1,1,1,1");
	ms_cs_move acts[2] = { cs_pair(5, 9), cs_pair(3, 11) };
	ms_cs_player sorted;
	ms_cs_rng rng;
	int choice = -1;

	(void)state;
	assert_int_equal(ms_cs_ga_action_score(ga(), &s, &acts[0]), -12);
	assert_int_equal(ms_cs_ga_action_score(ga(), &s, &acts[1]), -12);
	assert_int_equal(ms_cs_ga_column(ga(), &s, acts, 2), 0);
	ms_cs_player_ga(&sorted, NULL, 1);
	ms_cs_rng_seed(&rng, 1);
	assert_int_equal(sorted.column(NULL, sorted.ud, &s, acts, 2, &rng, &choice), MS_OK);
	assert_int_equal(choice, 1); /* (3,11) sorts before (5,9) */
}

static void test_domain__functions_on_a_hand_made_state(void **state)
{
	const char *text = "p=1 neutral=7:6,4:2 m1=7:4,10:3,12:2 m2=7:8,4:5,6:3 won=12 fin=2:1,11:2 nn=3";
	ms_cs_state s = cs_state(text);
	int cols[MS_CS_MAX_NEUTRALS];
	int64_t dbl[2] = { 7, 7 }, pair[2] = { 7, 8 }, three[3] = { 7, 7, 7 };

	(void)state;
	assert_int_equal(ms_cs_advanced_this_round(&s, 7), 2);
	assert_int_equal(ms_cs_advanced_this_round(&s, 4), 3);
	assert_int_equal(ms_cs_advanced_this_round(&s, 10), 0);
	assert_int_equal(ms_cs_advanced_this_round(&s, 12), 1);
	assert_int_equal(ms_cs_advanced_this_round(&s, 6), 0);
	assert_int_equal(ms_cs_player_secured(&s, 2), 4);
	assert_int_equal(ms_cs_player_secured(&s, 11), 0);
	assert_int_equal(ms_cs_player_secured(&s, 7), 7);
	assert_int_equal(ms_cs_player_secured(&s, 4), 3);
	assert_int_equal(ms_cs_player_secured(&s, 10), 4);
	assert_int_equal(ms_cs_player_secured(&s, 12), 4);
	assert_int_equal(ms_cs_player_secured(&s, 6), 0);
	assert_int_equal(ms_cs_opponent_secured(&s, 2), 0);
	assert_int_equal(ms_cs_opponent_secured(&s, 11), 6);
	assert_int_equal(ms_cs_opponent_secured(&s, 7), 9);
	assert_int_equal(ms_cs_opponent_secured(&s, 4), 6);
	assert_int_equal(ms_cs_opponent_secured(&s, 6), 4);
	assert_int_equal(ms_cs_opponent_secured(&s, 10), 0);
	assert_int_equal(ms_cs_difficulty_score(&s), 5);
	assert_int_equal(ms_cs_is_new_neutral(&s, 7), 0);
	assert_int_equal(ms_cs_is_new_neutral(&s, 5), 1);
	assert_int_equal(ms_cs_wins_after_stopping(&s), 0);
	assert_int_equal(ms_cs_neutrals_to_play(&s), 0);
	assert_int_equal(ms_cs_neutrals(&s, cols), 2);
	assert_int_equal(cols[0], 7);
	assert_int_equal(cols[1], 4);
	assert_int_equal(ms_cs_advanced_by_action(dbl, 2), 2);
	assert_int_equal(ms_cs_advanced_by_action(pair, 2), 1);
	assert_int_equal(ms_cs_advanced_by_action(dbl, 1), 1);
	assert_int_equal(ms_cs_advanced_by_action(three, 3), 1);
	for (int c = -1; c <= 13; c += 14) {
		assert_int_equal(ms_cs_advanced_this_round(&s, c), MS_ERANGE);
		assert_int_equal(ms_cs_player_secured(&s, c), MS_ERANGE);
		assert_int_equal(ms_cs_opponent_secured(&s, c), MS_ERANGE);
		assert_int_equal(ms_cs_is_new_neutral(&s, c), MS_ERANGE);
	}
	assert_int_equal(ms_cs_advanced_this_round(&s, 1), MS_ERANGE);
	/* The same board seen by player 2. */
	s.player = 2;
	assert_int_equal(ms_cs_player_secured(&s, 11), 6);
	assert_int_equal(ms_cs_player_secured(&s, 2), 0);
	assert_int_equal(ms_cs_opponent_secured(&s, 2), 4);
	assert_int_equal(ms_cs_opponent_secured(&s, 10), 4);
}

static void test_domain__difficulty_of_no_neutrals_is_every_bonus(void **state)
{
	ms_cs_state s = cs_state("");

	(void)state;
	assert_int_equal(ms_cs_difficulty_score(&s), 7 + 1 + 5 + 6);
}

static void test_env__holds_the_reference_environment(void **state)
{
	ms_cs_state s = cs_state("roll=2,4,3,3 neutral=8:0,6:0");
	ms_cs_move acts[MS_CS_MAX_ACTIONS];
	int n = ms_cs_legal_actions(&s, acts);
	ms_cs_env env;

	(void)state;
	ms_cs_env_init(&env, &s, acts, n);
	assert_ptr_equal(env.state, &s);
	assert_int_equal(env.yes_no, 0);
	assert_int_equal(env.n_actions, 3);
	assert_int_equal(env.n_neutrals, 2);
	assert_int_equal(env.neutrals[0], 8);
	assert_int_equal(env.neutrals[1], 6);
	assert_int_equal(env.progress_value[2], 7);
	assert_int_equal(env.progress_value[7], 1);
	assert_int_equal(env.move_value[6], 4);
	assert_int_equal(env.move_value[3], 0);
	assert_int_equal(env.marker, 6);
}

/* A program whose values the test sets, counting its evaluations. */
typedef struct fake_prog {
	double value;
	int64_t index;
	int status;
	int yes_no_calls;
} fake_prog;

static int fake_yes_no(ms_ctx *ctx, void *ud, const ms_cs_env *env, double *value)
{
	fake_prog *f = ud;

	f->yes_no_calls++;
	assert_int_equal(env->yes_no, 1);
	assert_int_equal(env->n_actions, 2);
	assert_int_equal(env->actions[0].kind, MS_CS_MOVE_YES);
	assert_int_equal(env->actions[1].kind, MS_CS_MOVE_NO);
	*value = f->value;
	return f->status;
}

static int fake_column(ms_ctx *ctx, void *ud, const ms_cs_env *env, int64_t *index)
{
	fake_prog *f = ud;

	*index = f->index;
	return f->status;
}

static int ask_yes_no(const ms_cs_player *p, const ms_cs_state *s, int *answer)
{
	ms_cs_rng rng;

	ms_cs_rng_seed(&rng, 1);
	return p->yes_no(NULL, p->ud, s, &rng, answer);
}

static void test_program__yes_no_forced_rules_and_threshold(void **state)
{
	fake_prog f = { 0, 0, MS_OK, 0 };
	ms_cs_program prog = { fake_yes_no, fake_column, &f };
	ms_cs_player p;
	ms_cs_state win = cs_state("phase=yesno neutral=2:2 won=2 fin=5:1,9:1");
	ms_cs_state free_cols = cs_state("phase=yesno neutral=2:2");
	ms_cs_state three = cs_state("phase=yesno neutral=6:0,7:0,8:0");
	int answer = 0;

	(void)state;
	ms_cs_player_program(&p, &prog);
	f.value = 0;
	assert_int_equal(ask_yes_no(&p, &win, &answer), MS_OK);
	assert_int_equal(answer, MS_CS_MOVE_NO);
	f.value = 1000;
	assert_int_equal(ask_yes_no(&p, &free_cols, &answer), MS_OK);
	assert_int_equal(answer, MS_CS_MOVE_YES);
	assert_int_equal(f.yes_no_calls, 2); /* evaluated even when the answer is forced */
	f.value = 28.9;
	assert_int_equal(ask_yes_no(&p, &three, &answer), MS_OK);
	assert_int_equal(answer, MS_CS_MOVE_YES);
	f.value = 29;
	assert_int_equal(ask_yes_no(&p, &three, &answer), MS_OK);
	assert_int_equal(answer, MS_CS_MOVE_NO);
	/* An error surfaces even where the answer would be forced. */
	f.status = MS_EPARSE;
	assert_int_equal(ask_yes_no(&p, &win, &answer), MS_EPARSE);
}

static void test_program__column_index_is_a_python_index(void **state)
{
	fake_prog f = { 0, 0, MS_OK, 0 };
	ms_cs_program prog = { fake_yes_no, fake_column, &f };
	ms_cs_player p;
	ms_cs_state s = cs_state("roll=1,3,4,6");
	ms_cs_move acts[MS_CS_MAX_ACTIONS];
	int n = ms_cs_legal_actions(&s, acts), choice = -1;
	ms_cs_rng rng;
	ms_ctx *ctx;

	(void)state;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	ms_cs_rng_seed(&rng, 1);
	ms_cs_player_program(&p, &prog);
	f.index = 1;
	assert_int_equal(p.column(ctx, p.ud, &s, acts, n, &rng, &choice), MS_OK);
	assert_int_equal(choice, 1);
	f.index = -1;
	assert_int_equal(p.column(ctx, p.ud, &s, acts, n, &rng, &choice), MS_OK);
	assert_int_equal(choice, 2);
	f.index = -3;
	assert_int_equal(p.column(ctx, p.ud, &s, acts, n, &rng, &choice), MS_OK);
	assert_int_equal(choice, 0);
	f.index = 3;
	assert_int_equal(p.column(ctx, p.ud, &s, acts, n, &rng, &choice), MS_ERANGE);
	assert_non_null(strstr(ms_ctx_last_error(ctx), "index 3 of a list of 3"));
	f.index = -4;
	assert_int_equal(p.column(ctx, p.ud, &s, acts, n, &rng, &choice), MS_ERANGE);
	ms_ctx_free(ctx);
}

/*
 * GA written as the DSL program of spec 3.5, with the domain functions:
 *   yes/no: sum(map(lambda: (NumberAdvancedThisRound + 1) * progress_value, neutrals)) + DifficultyScore
 *   column: argmax(map(lambda: sum(map(lambda: NumberAdvancedByAction * move_value
 *                                             - marker * IsNewNeutral, local_list)), actions))
 */
static int ga_prog_yes_no(ms_ctx *ctx, void *ud, const ms_cs_env *env, double *value)
{
	double v = 0;

	for (int i = 0; i < env->n_neutrals; i++) {
		int c = env->neutrals[i];

		v += (ms_cs_advanced_this_round(env->state, c) + 1) * env->progress_value[c];
	}
	*value = v + ms_cs_difficulty_score(env->state);
	return MS_OK;
}

static int ga_prog_column(ms_ctx *ctx, void *ud, const ms_cs_env *env, int64_t *index)
{
	double best = 0;

	for (int i = 0; i < env->n_actions; i++) {
		const ms_cs_move *a = &env->actions[i];
		int64_t list[2] = { a->col[0], a->col[1] };
		double v = 0;

		for (int k = 0; k < a->n; k++) {
			int c = a->col[k];

			v += ms_cs_advanced_by_action(list, (size_t)a->n) * env->move_value[c] -
			     env->marker * ms_cs_is_new_neutral(env->state, c);
		}
		if (i == 0 || v > best) {
			best = v;
			*index = i;
		}
	}
	return MS_OK;
}

static void test_program__ga_written_as_a_program_plays_as_ga(void **state)
{
	ms_cs_program prog = { ga_prog_yes_no, ga_prog_column, NULL };
	ms_cs_player as_program, native, random;
	ms_cs_eval_result r1, r2;

	(void)state;
	ms_cs_player_program(&as_program, &prog);
	ms_cs_player_ga(&native, NULL, 0);
	ms_cs_player_random(&random);
	memset(&r1, 0, sizeof(r1));
	memset(&r2, 0, sizeof(r2));
	assert_int_equal(ms_cs_evaluate(NULL, NULL, &as_program, &random, 11, 0, 400, &r1), MS_OK);
	assert_int_equal(ms_cs_evaluate(NULL, NULL, &native, &random, 11, 0, 400, &r2), MS_OK);
	assert_memory_equal(&r1, &r2, sizeof(r1));
	assert_true(r1.decisions > 400 * 100);
}

static void test_random__choices_are_legal_and_uniform(void **state)
{
	ms_cs_player p;
	ms_cs_rng rng;
	ms_cs_state three = cs_state("roll=1,3,4,6"), yn = cs_state("phase=yesno neutral=6:0");
	ms_cs_move acts[MS_CS_MAX_ACTIONS];
	int n = ms_cs_legal_actions(&three, acts);
	long count[3] = { 0 }, yes = 0;
	const int draws = 30000;

	(void)state;
	ms_cs_player_random(&p);
	ms_cs_rng_seed(&rng, 3);
	for (int i = 0; i < draws; i++) {
		int choice = -1, answer = 0;

		assert_int_equal(p.column(NULL, p.ud, &three, acts, n, &rng, &choice), MS_OK);
		assert_in_range(choice, 0, n - 1);
		count[choice]++;
		assert_int_equal(p.yes_no(NULL, p.ud, &yn, &rng, &answer), MS_OK);
		assert_true(answer == MS_CS_MOVE_YES || answer == MS_CS_MOVE_NO);
		yes += answer == MS_CS_MOVE_YES;
	}
	/* Within 4 standard deviations of uniform. */
	for (int i = 0; i < 3; i++)
		assert_true(labs(count[i] - draws / 3) < 4 * 82);
	assert_true(labs(yes - draws / 2) < 4 * 87);
}

static void test_random__moves_are_legal_over_whole_games(void **state)
{
	ms_cs_player p;
	ms_cs_rng rng;
	long decisions = 0;

	(void)state;
	ms_cs_player_random(&p);
	ms_cs_rng_seed(&rng, 9);
	for (int g = 0; g < 100; g++) {
		ms_cs_state s;

		ms_cs_state_init(NULL, &s, MS_CS_ERA_A, (uint64_t)g + 100);
		while (!ms_cs_winner(&s)) {
			ms_cs_move acts[MS_CS_MAX_ACTIONS];
			int n = ms_cs_legal_actions(&s, acts), choice = -1, answer = 0;

			if (s.dice_action && n == 0) {
				ms_cs_bust(&s);
				continue;
			}
			if (s.dice_action) {
				assert_int_equal(p.column(NULL, p.ud, &s, acts, n, &rng, &choice), MS_OK);
				assert_in_range(choice, 0, n - 1);
				assert_int_equal(ms_cs_play(NULL, &s, &acts[choice]), MS_OK);
			} else {
				ms_cs_move m;

				assert_int_equal(p.yes_no(NULL, p.ud, &s, &rng, &answer), MS_OK);
				m = cs_answer(answer);
				assert_int_equal(ms_cs_play(NULL, &s, &m), MS_OK);
			}
			decisions++;
		}
	}
	assert_true(decisions > 5000);
}

static void test_players__by_name(void **state)
{
	const char *const *names = ms_cs_player_names();
	ms_cs_player p;
	ms_ctx *ctx;
	int k = 0;

	(void)state;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	for (; names[k]; k++) {
		memset(&p, 0, sizeof(p));
		assert_int_equal(ms_cs_player_by_name(ctx, &p, names[k]), MS_OK);
		assert_non_null(p.yes_no);
		assert_non_null(p.column);
		assert_string_equal(p.name, names[k]);
	}
	assert_int_equal(k, 5);
	assert_int_equal(ms_cs_player_by_name(ctx, &p, "glenn"), MS_ENOTFOUND);
	assert_non_null(strstr(ms_ctx_last_error(ctx), "glenn"));
	ms_ctx_free(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ga__stop_decisions_of_the_worked_examples),
		cmocka_unit_test(test_ga__keeps_rolling_with_fewer_than_three_neutrals),
		cmocka_unit_test(test_ga__stops_when_stopping_wins_exactly_three),
		cmocka_unit_test(test_ga__column_decisions_of_the_worked_examples),
		cmocka_unit_test(test_ga__ties_go_to_the_first_action_unless_sorted),
		cmocka_unit_test(test_domain__functions_on_a_hand_made_state),
		cmocka_unit_test(test_domain__difficulty_of_no_neutrals_is_every_bonus),
		cmocka_unit_test(test_env__holds_the_reference_environment),
		cmocka_unit_test(test_program__yes_no_forced_rules_and_threshold),
		cmocka_unit_test(test_program__column_index_is_a_python_index),
		cmocka_unit_test(test_program__ga_written_as_a_program_plays_as_ga),
		cmocka_unit_test(test_random__choices_are_legal_and_uniform),
		cmocka_unit_test(test_random__moves_are_legal_over_whole_games),
		cmocka_unit_test(test_players__by_name),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
