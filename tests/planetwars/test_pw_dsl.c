/*
 * Planet Wars as a synthesis problem: the gain grammar, a program as the
 * forecasting bot's gain (the original gain as a program decides exactly as
 * the weights that encode it), and searches of the game-agnostic core on
 * the problem, the same for any thread count.
 */
#include "support/testutil.h"

#include <stdio.h>

#include "microsynth/planetwars_synth.h"

static ms_ctx *ctx;
static ms_pw_state *maps[3];

static int setup(void **state)
{
	if (ms_ctx_new(&ctx, NULL))
		return -1;
	for (int m = 0; m < 3; m++) {
		char text[1024];
		int n = snprintf(text, sizeof text, "P 0 0 1 100 5\nP %d %d 2 100 5\n", 20 + m, 16 - m);
		for (int i = 0; i < 6; i++)
			n += snprintf(text + n, sizeof text - n, "P %d %d 0 %d %d\n", 3 + 2 * i + m, 9 - i, 5 + 7 * i,
				      1 + (i + m) % 5);
		if (ms_pw_state_parse(ctx, &maps[m], text, "dsl map"))
			return -1;
	}
	return 0;
}

static int teardown(void **state)
{
	for (int m = 0; m < 3; m++)
		ms_pw_state_free(maps[m]);
	ms_ctx_free(ctx);
	return 0;
}

static void test_pw_dsl__original_gain_program_decides_as_its_weights(void **state)
{
	ms_dsl_grammar *g;
	ms_dsl_prog *p;
	assert_int_equal(ms_pw_dsl_grammar_new(ctx, &g), MS_OK);
	assert_int_equal(ms_dsl_prog_new(ctx, &p, g), MS_OK);
	const char *t = ms_pw_dsl_original_tokens();
	assert_int_equal(ms_dsl_parse_tokens(p, t, strlen(t), ' ', 0), MS_OK);
	char *text;
	assert_int_equal(ms_dsl_print(p, &text, NULL), MS_OK);
	assert_string_equal(text, "gain = (((horizon - dist) * growth) - residue)");
	ms_ctx_mfree(ctx, text);
	/* w0 + w1 = -1, w2 + w3 = 1 for both kinds of target */
	double w[MS_PW_FORECAST_PARAMS] = { 0 };
	w[0] = w[16] = -1;
	w[8] = w[24] = 1;
	static const char *const opp[] = { "RageBot", "DualBot", "Forecast" };
	for (int m = 0; m < 3; m++)
		for (int o = 0; o < 3; o++) {
			ms_pw_bot a, b, x, y;
			ms_pw_result ra, rb;
			assert_int_equal(ms_pw_bot_program(ctx, &a, p), MS_OK);
			assert_int_equal(ms_pw_bot_forecast(ctx, &b, w), MS_OK);
			assert_int_equal(ms_pw_bot_by_name(ctx, &x, opp[o], 1), MS_OK);
			assert_int_equal(ms_pw_bot_by_name(ctx, &y, opp[o], 1), MS_OK);
			assert_int_equal(ms_pw_play(ctx, maps[m], &a, &x, 200, NULL, NULL, &ra), MS_OK);
			assert_int_equal(ms_pw_play(ctx, maps[m], &b, &y, 200, NULL, NULL, &rb), MS_OK);
			assert_memory_equal(&ra, &rb, sizeof ra);
			ms_pw_bot_release(ctx, &a);
			ms_pw_bot_release(ctx, &b);
			ms_pw_bot_release(ctx, &x);
			ms_pw_bot_release(ctx, &y);
		}
	ms_dsl_prog_free(p);
	ms_dsl_grammar_free(g);
}

/* The final check plays every field bot on every map in both seats, as games played one by one do. */
static void test_pw_dsl__final_check_counts_every_game_of_the_field(void **state)
{
	ms_dsl_grammar *g;
	ms_dsl_prog *p;
	int wdl[MS_PW_FINAL_FIELD][3] = { { 0 } };
	(void)state;
	assert_int_equal(ms_pw_dsl_grammar_new(ctx, &g), MS_OK);
	assert_int_equal(ms_dsl_prog_new(ctx, &p, g), MS_OK);
	const char *t = ms_pw_dsl_original_tokens();
	assert_int_equal(ms_dsl_parse_tokens(p, t, strlen(t), ' ', 0), MS_OK);
	assert_int_equal(ms_pw_synth_final(ctx, p, (const ms_pw_state *const *)maps, 3, wdl), MS_OK);
	for (int o = 0; o < MS_PW_FINAL_FIELD; o++) {
		int by_hand[3] = { 0 };
		for (int m = 0; m < 3; m++)
			for (int seat = 1; seat <= 2; seat++) {
				ms_pw_bot me, them;
				ms_pw_result r;
				assert_int_equal(ms_pw_bot_program(ctx, &me, p), MS_OK);
				assert_int_equal(ms_pw_bot_by_name(ctx, &them, ms_pw_final_field()[o], (uint64_t)m), MS_OK);
				assert_int_equal(ms_pw_play(ctx, maps[m], seat == 1 ? &me : &them, seat == 1 ? &them : &me,
							    MS_PW_MAX_TURNS, NULL, NULL, &r),
						 MS_OK);
				by_hand[r.winner == seat ? 0 : r.winner == 0 ? 1 : 2]++;
				ms_pw_bot_release(ctx, &me);
				ms_pw_bot_release(ctx, &them);
			}
		assert_memory_equal(wdl[o], by_hand, sizeof by_hand);
	}
	assert_string_equal(ms_pw_final_field()[0], "Forecast");
	assert_int_equal(ms_pw_synth_final(ctx, NULL, NULL, 0, wdl), MS_EINVAL);
	ms_dsl_prog_free(p);
	ms_dsl_grammar_free(g);
}

static void test_pw_dsl__a_program_with_holes_is_not_a_bot(void **state)
{
	ms_dsl_grammar *g;
	ms_dsl_prog *p;
	ms_pw_bot b;
	assert_int_equal(ms_pw_dsl_grammar_new(ctx, &g), MS_OK);
	assert_int_equal(ms_dsl_prog_new(ctx, &p, g), MS_OK);
	assert_int_equal(ms_dsl_parse_tokens(p, "gain ?E", 7, ' ', 0), MS_OK);
	assert_int_equal(ms_pw_bot_program(ctx, &b, p), MS_EINVAL);
	ms_dsl_prog_free(p);
	ms_dsl_grammar_free(g);
}

static char *search(int algo, int threads, uint64_t seed, double *score)
{
	ms_pw_synth *pws;
	ms_pw_synth_options po = { MS_PW_SYNTH_OPTIONS_VERSION, (const ms_pw_state *const *)maps, 3, NULL, 120, "t" };
	assert_int_equal(ms_pw_synth_new(ctx, &pws, &po), MS_OK);
	ms_synth_options so;
	ms_synth_options_init(&so, MS_SYNTH_OPTIONS_VERSION);
	so.algo = algo;
	so.seed = seed;
	so.threads = threads;
	so.max_evals = 25;
	ms_synth *s;
	assert_int_equal(ms_synth_new(ctx, &s, ms_pw_synth_problem(pws), &so), MS_OK);
	assert_true(ms_synth_run(s) >= 0);
	char *tokens, *copy;
	assert_int_equal(ms_dsl_print_tokens(ms_synth_best(s, MS_SYNTH_PSI), ' ', &tokens, NULL), MS_OK);
	copy = malloc(strlen(tokens) + 1);
	strcpy(copy, tokens);
	ms_ctx_mfree(ctx, tokens);
	*score = ms_synth_best_score(s, MS_SYNTH_PSI);
	ms_synth_free(s);
	ms_pw_synth_free(pws);
	return copy;
}

static void test_pw_dsl__searches_are_the_same_whatever_the_threads(void **state)
{
	static const int algos[] = { MS_SYNTH_SA, MS_SYNTH_UCT, MS_SYNTH_RANDOM };
	for (int i = 0; i < 3; i++) {
		double s1, s2;
		char *a = search(algos[i], 1, 3, &s1), *b = search(algos[i], 2, 3, &s2);
		assert_string_equal(a, b);
		assert_true(s1 == s2);
		assert_true(s1 >= 0 && s1 <= 1);
		free(a);
		free(b);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pw_dsl__original_gain_program_decides_as_its_weights),
		cmocka_unit_test(test_pw_dsl__final_check_counts_every_game_of_the_field),
		cmocka_unit_test(test_pw_dsl__a_program_with_holes_is_not_a_bot),
		cmocka_unit_test(test_pw_dsl__searches_are_the_same_whatever_the_threads),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
