/*
 * Can't Stop rules (spec/cantstop.md section 2): the legal lists and their
 * CPython order, advancing, claiming, stopping, busting, the edge cases of
 * section 2.12, era B, and the text form of states.
 *
 * Argument: the path of set_order_vectors.txt (CPython's orders).
 */
#include "cs_testutil.h"

#include <stdio.h>

#include "games/cantstop/cs_internal.h"

static const char *vectors_path;

static void test_rules__column_heights_are_3_to_13_to_3(void **state)
{
	static const int expected[] = { 3, 5, 7, 9, 11, 13, 11, 9, 7, 5, 3 };

	(void)state;
	for (int c = 2; c <= 12; c++)
		assert_int_equal(ms_cs_height(c), expected[c - 2]);
	assert_int_equal(ms_cs_height(1), 0);
	assert_int_equal(ms_cs_height(13), 0);
}

/* "7 3,11" into moves. */
static int parse_moves(char *text, ms_cs_move *out)
{
	int n = 0;

	for (char *tok = strtok(text, " \n"); tok; tok = strtok(NULL, " \n")) {
		assert_true(n < 12);
		assert_int_equal(ms_cs_move_parse(NULL, &out[n], tok), MS_OK);
		n++;
	}
	return n;
}

static void test_rules__action_order_is_cpython_set_order(void **state)
{
	FILE *f;
	char line[512];
	int lines = 0;

	(void)state;
	assert_non_null(vectors_path);
	f = fopen(vectors_path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		ms_cs_move in[12], expected[12], got[12];
		char *gt = strchr(line, '>');
		int n_in, n_exp, n_got;

		if (line[0] == '#' || !gt)
			continue;
		*gt = '\0';
		n_in = parse_moves(line, in);
		n_exp = parse_moves(gt + 1, expected);
		n_got = cs__set_order(in, n_in, got);
		assert_int_equal(n_got, n_exp);
		for (int i = 0; i < n_got; i++)
			if (!ms_cs_move_equal(&got[i], &expected[i]))
				fail_msg("vector %d: position %d differs", lines + 1, i);
		lines++;
	}
	fclose(f);
	assert_int_equal(lines, 400);
}

static void test_rules__spec_order_examples(void **state)
{
	ms_cs_move in[3] = { cs_single(7), cs_single(3), cs_single(11) }, out[3];
	ms_cs_move pairs[3] = { cs_pair(2, 12), cs_pair(3, 11), cs_pair(4, 10) };

	(void)state;
	assert_int_equal(cs__set_order(in, 3, out), 3);
	assert_int_equal(out[0].col[0], 11);
	assert_int_equal(out[1].col[0], 7);
	assert_int_equal(out[2].col[0], 3);
	assert_int_equal(cs__set_order(pairs, 3, out), 3);
	assert_true(ms_cs_move_equal(&out[0], &pairs[2]));
	assert_true(ms_cs_move_equal(&out[1], &pairs[0]));
	assert_true(ms_cs_move_equal(&out[2], &pairs[1]));
}

static void test_legal__turn_start_takes_pairs_in_reference_order(void **state)
{
	ms_cs_state s = cs_state("roll=1,3,4,6");

	(void)state;
	assert_legal(s, "4,10 5,9 7,7");
}

static void test_legal__pairs_are_ascending_and_deduplicated(void **state)
{
	ms_cs_state a = cs_state("roll=2,6,6,6"), b = cs_state("roll=6,6,1,1");

	(void)state;
	assert_legal(a, "8,12");
	assert_legal(b, "2,12 7,7");
}

static void test_legal__two_neutrals_and_two_new_columns_give_singles(void **state)
{
	ms_cs_state s = cs_state("roll=2,4,3,3 neutral=6:0,8:0");

	(void)state;
	/* (6,6) is a pair: column 6 holds a neutral; (5,7) are two new columns. */
	assert_legal(s, "6,6 7 5");
}

static void test_legal__two_neutrals_allow_a_pair_touching_one(void **state)
{
	ms_cs_state s = cs_state("roll=3,3,1,4 neutral=6:0,8:0");
	ms_cs_state d = cs_state("roll=2,2,2,2 neutral=6:0,8:0");

	(void)state;
	assert_legal(s, "7 5,6 4");
	assert_legal(d, "4,4"); /* a double on a new column is still one neutral */
}

static void test_legal__three_neutrals_only_their_columns(void **state)
{
	ms_cs_state pairs = cs_state("roll=1,2,3,4 neutral=3:0,5:0,7:0");
	ms_cs_state singles = cs_state("roll=1,2,2,6 neutral=3:0,5:0,7:0");
	ms_cs_state bust = cs_state("roll=3,4,3,4 neutral=2:0,3:0,12:0");

	(void)state;
	assert_legal(pairs, "3,7 5,5");
	assert_legal(singles, "7 3");
	assert_legal(bust, "");
}

static void test_legal__finished_and_claimed_columns_are_closed(void **state)
{
	ms_cs_state s = cs_state("roll=1,6,2,3 fin=7:2 won=5");
	ms_cs_state t = cs_state("roll=3,4,1,2 fin=7:2 won=5");

	(void)state;
	assert_legal(s, "3,9 4,8");
	assert_legal(t, "4,6 3");
}

static void test_legal__yes_no_decision_is_y_then_n(void **state)
{
	ms_cs_state s = cs_state("phase=yesno neutral=6:0 roll=1,1,1,1");

	(void)state;
	assert_legal(s, "y n");
}

/* Spec 2.12 items 1-2: a double through a permanent marker on the top cell. */
static void test_edge__counter_reaches_four_and_claim_leaves_no_neutral(void **state)
{
	ms_cs_state s = cs_state("roll=6,6,6,6 neutral=6:0,8:0 m1=12:2");
	ms_cs_move m = cs_pair(12, 12);
	int cols[MS_CS_MAX_NEUTRALS];

	(void)state;
	assert_legal(s, "12,12");
	assert_int_equal(ms_cs_play(NULL, &s, &m), MS_OK);
	assert_int_equal(s.n_neutral, 4);
	assert_true(s.won & (1u << 12));
	assert_int_equal(s.neutral[12], -1);
	assert_int_equal(ms_cs_neutrals(&s, cols), 2);
	assert_int_equal(cols[0], 6);
	assert_int_equal(cols[1], 8);
	/* Invisible to the progress score, visible to the DSL functions. */
	assert_int_equal(ms_cs_ga_progress(ms_cs_ga_params_glenn(), &s), 2 * 2 + 2 * 2);
	assert_int_equal(ms_cs_advanced_this_round(&s, 12), 1);
	assert_int_equal(ms_cs_player_secured(&s, 12), 4);
	/* With four in use the legality rules are those of three. */
	s.dice_action = 1;
	s.roll[0] = 1, s.roll[1] = 5, s.roll[2] = 1, s.roll[3] = 5;
	assert_legal(s, "6,6");
	/* GA's rule 2 tests "!= 3": with four it keeps rolling. */
	s.dice_action = 0;
	assert_int_equal(ms_cs_neutrals_to_play(&s), 1);
	assert_int_equal(ms_cs_ga_yes_no(ms_cs_ga_params_glenn(), &s), MS_CS_MOVE_YES);
}

/* Spec 2.12 item 3 and 2.13: where the neutral goes when it claims. */
static void test_edge__era_a_keeps_the_neutral_on_the_top_cell(void **state)
{
	ms_cs_state a = cs_state("roll=1,1,1,1 neutral=2:2 m2=2:1 era=A");
	ms_cs_move m = cs_single(2);
	int cols[MS_CS_MAX_NEUTRALS];

	(void)state;
	assert_int_equal(ms_cs_play(NULL, &a, &m), MS_OK);
	assert_true(a.won & (1u << 2));
	assert_int_equal(a.neutral[2], 2);
	assert_int_equal(a.n_neutral, 1);
	assert_int_equal(ms_cs_neutrals(&a, cols), 1);
	assert_int_equal(cols[0], 2);
	/* A = neutral index + 1 + claim = 4; GA's progress (A+1) * 7 = 35. */
	assert_int_equal(ms_cs_advanced_this_round(&a, 2), 4);
	assert_int_equal(ms_cs_ga_progress(ms_cs_ga_params_glenn(), &a), 35);
	ms_cs_stop(&a);
	assert_int_equal(a.owner[2], 1);
	assert_int_equal(a.finished[1], 1);
	assert_int_equal(a.marker[1][2], -1);
	assert_int_equal(a.marker[2][2], -1); /* the opponent's progress is cleared */
	assert_int_equal(a.player, 2);
}

static void test_edge__era_b_removes_the_neutral_and_clamps_the_counter(void **state)
{
	ms_cs_state b = cs_state("roll=1,1,1,1 neutral=2:2 era=B");
	ms_cs_state four = cs_state("roll=6,6,6,6 neutral=6:0,8:0 m1=12:2 era=B");
	ms_cs_move m = cs_single(2), d = cs_pair(12, 12);
	int cols[MS_CS_MAX_NEUTRALS];

	(void)state;
	assert_int_equal(ms_cs_play(NULL, &b, &m), MS_OK);
	assert_true(b.won & (1u << 2));
	assert_int_equal(b.neutral[2], -1);
	assert_int_equal(b.n_neutral, 1); /* not decremented */
	assert_int_equal(ms_cs_neutrals(&b, cols), 0);
	assert_int_equal(ms_cs_ga_progress(ms_cs_ga_params_glenn(), &b), 0);
	assert_int_equal(ms_cs_play(NULL, &four, &d), MS_OK);
	assert_int_equal(four.n_neutral, 3);
}

static void test_advance__claiming_takes_one_advance_beyond_the_top(void **state)
{
	ms_cs_state s = cs_state("");
	ms_cs_move m = cs_single(2);

	(void)state;
	for (int i = 0; i < 3; i++) {
		ms_cs_advance(&s, &m, 0);
		assert_int_equal(s.neutral[2], i);
		assert_false(s.won & (1u << 2));
	}
	ms_cs_advance(&s, &m, 0);
	assert_true(s.won & (1u << 2));
	assert_int_equal(s.n_neutral, 1);
}

static void test_advance__double_moves_twice_and_neutral_starts_above_marker(void **state)
{
	ms_cs_state s = cs_state("roll=3,4,3,4 m1=7:4 m2=7:9");
	ms_cs_move m = cs_pair(7, 7);
	int8_t roll[4];

	(void)state;
	memcpy(roll, s.roll, 4);
	assert_int_equal(ms_cs_play(NULL, &s, &m), MS_OK);
	assert_int_equal(s.neutral[7], 6); /* placed on 5, moved to 6 */
	assert_int_equal(s.n_neutral, 1);
	assert_int_equal(s.dice_action, 0);
	/* 'y' keeps the roll made after the move. */
	memcpy(roll, s.roll, 4);
	m = cs_answer(MS_CS_MOVE_YES);
	assert_int_equal(ms_cs_play(NULL, &s, &m), MS_OK);
	assert_int_equal(s.dice_action, 1);
	assert_memory_equal(roll, s.roll, 4);
}

static void test_advance__moved_neutral_goes_to_the_end_of_the_order(void **state)
{
	ms_cs_state s = cs_state("neutral=6:0,8:0,4:1");
	ms_cs_move m = cs_single(6);
	int cols[MS_CS_MAX_NEUTRALS];

	(void)state;
	ms_cs_advance(&s, &m, 0);
	assert_int_equal(ms_cs_neutrals(&s, cols), 3);
	assert_int_equal(cols[0], 8);
	assert_int_equal(cols[1], 4);
	assert_int_equal(cols[2], 6);
}

static void test_stop__neutrals_become_markers_and_claims_close_columns(void **state)
{
	ms_cs_state s = cs_state("phase=yesno neutral=7:6,3:2,2:2 m1=7:4 m2=7:6,3:1,2:0 won=2 fin=5:1,9:1");
	ms_cs_move n = cs_answer(MS_CS_MOVE_NO);

	(void)state;
	assert_int_equal(ms_cs_winner(&s), 0);
	assert_int_equal(ms_cs_wins_after_stopping(&s), 1);
	assert_int_equal(ms_cs_play(NULL, &s, &n), MS_OK);
	assert_int_equal(s.marker[1][7], 6);
	assert_int_equal(s.marker[1][3], 2);
	assert_int_equal(s.marker[2][7], 6);
	assert_int_equal(s.marker[2][3], 1);
	assert_int_equal(s.marker[2][2], -1);
	assert_int_equal(s.owner[2], 1);
	assert_int_equal(s.finished[1], 3);
	assert_int_equal(s.neutral[7], -1);
	assert_int_equal(s.n_order, 0);
	assert_int_equal(s.n_neutral, 0);
	assert_int_equal(s.won, 0);
	assert_int_equal(s.player, 2);
	assert_int_equal(s.dice_action, 1);
	assert_int_equal(ms_cs_winner(&s), 1);
}

static void test_bust__loses_neutrals_and_claims_keeps_markers(void **state)
{
	ms_cs_state s = cs_state("p=2 roll=3,4,3,4 neutral=2:0,3:1 m2=12:2,3:0 m1=3:4 won=12 nn=3");

	(void)state;
	assert_legal(s, "");
	ms_cs_bust(&s);
	assert_int_equal(s.player, 1);
	assert_int_equal(s.n_neutral, 0);
	assert_int_equal(s.n_order, 0);
	assert_int_equal(s.won, 0);
	for (int c = 2; c <= 12; c++)
		assert_int_equal(s.neutral[c], -1);
	assert_int_equal(s.marker[2][12], 2); /* a marker on the top cell stays */
	assert_int_equal(s.marker[2][3], 0);
	assert_int_equal(s.marker[1][3], 4);
	assert_int_equal(s.owner[12], 0);
	assert_int_equal(s.dice_action, 1);
}

static void test_play__rejects_moves_of_the_wrong_kind_or_columns(void **state)
{
	ms_cs_state s = cs_state("roll=1,1,1,1");
	ms_cs_move y = cs_answer(MS_CS_MOVE_YES), bad = cs_pair(2, 13), m = cs_pair(2, 2);
	ms_ctx *ctx;

	(void)state;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_cs_play(ctx, &s, &y), MS_EILLEGAL);
	assert_non_null(strstr(ms_ctx_last_error(ctx), "column decision"));
	assert_int_equal(ms_cs_play(ctx, &s, &bad), MS_EINVAL);
	assert_int_equal(ms_cs_play(ctx, &s, &m), MS_OK);
	assert_int_equal(ms_cs_play(ctx, &s, &m), MS_EILLEGAL);
	assert_int_equal(ms_cs_state_init(ctx, &s, 7, 1), MS_EINVAL);
	ms_ctx_free(ctx);
}

static void test_dice__reproducible_and_uniform(void **state)
{
	ms_cs_state a, b;
	long count[7] = { 0 };
	double chi = 0;
	const int rolls = 60000;

	(void)state;
	ms_cs_state_init(NULL, &a, MS_CS_ERA_A, 42);
	ms_cs_state_init(NULL, &b, MS_CS_ERA_A, 42);
	for (int i = 0; i < rolls; i++) {
		ms_cs_roll(&a);
		ms_cs_roll(&b);
		assert_memory_equal(a.roll, b.roll, 4);
		for (int k = 0; k < 4; k++) {
			assert_in_range(a.roll[k], 1, 6);
			count[a.roll[k]]++;
		}
	}
	for (int f = 1; f <= 6; f++) {
		double e = rolls * 4 / 6.0;

		chi += (count[f] - e) * (count[f] - e) / e;
	}
	/* 5 degrees of freedom: 20.5 is the 0.999 quantile. */
	assert_true(chi < 20.5);
	/* Another seed, another sequence. */
	ms_cs_state_init(NULL, &a, MS_CS_ERA_A, 42);
	ms_cs_state_init(NULL, &b, MS_CS_ERA_A, 43);
	{
		int differ = 0;

		for (int i = 0; i < 10; i++) {
			ms_cs_roll(&a);
			ms_cs_roll(&b);
			differ += memcmp(a.roll, b.roll, 4) != 0;
		}
		assert_true(differ > 0);
	}
}

static void test_text__state_round_trips_and_errors_name_the_column(void **state)
{
	const char *text = "p=2 phase=yesno roll=1,2,3,4 nn=4 neutral=8:3,6:0 m1=7:12 m2=2:0,12:2 won=5,9 "
			   "fin=3:1,11:2 era=B";
	ms_cs_state s = cs_state(text), t;
	char buf[512];
	ms_ctx *ctx;

	(void)state;
	ms_cs_state_format(&s, buf, sizeof(buf));
	assert_string_equal(buf, text);
	t = cs_state(buf);
	assert_memory_equal(&t, &s, sizeof(s));
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_cs_state_parse(ctx, &t, "p=1 neutral=2:3", "fx"), MS_EPARSE);
	assert_string_equal(ms_ctx_last_error(ctx), "fx: column 15: expected an integer in [0, 2]");
	assert_int_equal(ms_cs_state_parse(ctx, &t, "p=3", "fx"), MS_EPARSE);
	assert_int_equal(ms_cs_state_parse(ctx, &t, "colour=red", "fx"), MS_EPARSE);
	assert_non_null(strstr(ms_ctx_last_error(ctx), "unknown key"));
	assert_int_equal(ms_cs_state_parse(ctx, &t, "neutral=4:0,4:1", "fx"), MS_EPARSE);
	assert_int_equal(ms_cs_state_parse(ctx, &t, "roll=1,2,3", "fx"), MS_EPARSE);
	ms_ctx_free(ctx);
}

/* Over many random games: the invariants the reference relies on. */
static void test_invariants__hold_over_random_games(void **state)
{
	ms_cs_rng rng;
	long decisions = 0, states_with_three = 0;

	(void)state;
	ms_cs_rng_seed(&rng, 7);
	for (int g = 0; g < 300; g++) {
		ms_cs_state s;

		ms_cs_state_init(NULL, &s, g % 2 ? MS_CS_ERA_B : MS_CS_ERA_A, (uint64_t)g);
		while (!ms_cs_winner(&s)) {
			ms_cs_move acts[MS_CS_MAX_ACTIONS];
			int n = ms_cs_legal_actions(&s, acts);
			char buf[512];
			ms_cs_state t;

			assert_true(s.n_order <= 3);
			assert_true(s.n_neutral <= 4 && s.n_neutral >= s.n_order);
			for (int c = 2; c <= 12; c++)
				if (s.owner[c])
					assert_true(s.neutral[c] < 0 && s.marker[1][c] < 0 && s.marker[2][c] < 0);
			ms_cs_state_format(&s, buf, sizeof(buf));
			t = cs_state(buf);
			t.dice = s.dice;
			assert_memory_equal(&t, &s, sizeof(s));
			if (s.dice_action && n == 0) {
				ms_cs_bust(&s);
				continue;
			}
			/* The reference's second bust test can never fire (spec 2.3). */
			if (s.dice_action && s.n_neutral >= 3) {
				states_with_three++;
				for (int i = 0; i < n; i++)
					for (int k = 0; k < acts[i].n; k++)
						assert_true(s.neutral[acts[i].col[k]] >= 0);
			}
			assert_int_equal(ms_cs_play(NULL, &s, &acts[ms_cs_rng_below(&rng, (uint32_t)n)]), MS_OK);
			decisions++;
		}
	}
	assert_true(decisions > 10000);
	assert_true(states_with_three > 100);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rules__column_heights_are_3_to_13_to_3),
		cmocka_unit_test(test_rules__action_order_is_cpython_set_order),
		cmocka_unit_test(test_rules__spec_order_examples),
		cmocka_unit_test(test_legal__turn_start_takes_pairs_in_reference_order),
		cmocka_unit_test(test_legal__pairs_are_ascending_and_deduplicated),
		cmocka_unit_test(test_legal__two_neutrals_and_two_new_columns_give_singles),
		cmocka_unit_test(test_legal__two_neutrals_allow_a_pair_touching_one),
		cmocka_unit_test(test_legal__three_neutrals_only_their_columns),
		cmocka_unit_test(test_legal__finished_and_claimed_columns_are_closed),
		cmocka_unit_test(test_legal__yes_no_decision_is_y_then_n),
		cmocka_unit_test(test_edge__counter_reaches_four_and_claim_leaves_no_neutral),
		cmocka_unit_test(test_edge__era_a_keeps_the_neutral_on_the_top_cell),
		cmocka_unit_test(test_edge__era_b_removes_the_neutral_and_clamps_the_counter),
		cmocka_unit_test(test_advance__claiming_takes_one_advance_beyond_the_top),
		cmocka_unit_test(test_advance__double_moves_twice_and_neutral_starts_above_marker),
		cmocka_unit_test(test_advance__moved_neutral_goes_to_the_end_of_the_order),
		cmocka_unit_test(test_stop__neutrals_become_markers_and_claims_close_columns),
		cmocka_unit_test(test_bust__loses_neutrals_and_claims_keeps_markers),
		cmocka_unit_test(test_play__rejects_moves_of_the_wrong_kind_or_columns),
		cmocka_unit_test(test_dice__reproducible_and_uniform),
		cmocka_unit_test(test_text__state_round_trips_and_errors_name_the_column),
		cmocka_unit_test(test_invariants__hold_over_random_games),
	};

	vectors_path = argc > 1 ? argv[1] : NULL;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
