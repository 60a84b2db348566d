/*
 * Stochastic CoacAI and mayari (ms_bot_set_stochastic): where the jars draw
 * unseeded numbers the native bots draw from their own generator. A match
 * is then reproducible for a bot seed and varies between seeds; off, the
 * bots keep the reproducible first choice whatever the seed. Maps from the
 * harness cache (argument 1).
 */
#include "support/testutil.h"

#include <stdio.h>
#include <sys/stat.h>

#include "microsynth/bots.h"
#include "microsynth/match.h"

static const char *maps_dir;

/* WorkerRush vs BOT on 16x16/basesWorkers16x16A (edition 2023): end cycle * 4 + winner + 1. */
static int play(ms_ctx *ctx, const ms_rts_utt *utt, const char *bot, int64_t seed, int stochastic)
{
	char map[2100];
	ms_rts_state *s;
	ms_bot *b[2];
	int winner, end;
	snprintf(map, sizeof map, "%s/16x16/basesWorkers16x16A.xml", maps_dir);
	if (ms_rts_state_load_map(ctx, &s, utt, map, 0) || ms_bot_make(ctx, &b[0], "WorkerRush", utt, seed) ||
	    ms_bot_make(ctx, &b[1], bot, utt, seed))
		fail_msg("%s", ms_ctx_last_error(ctx));
	for (int p = 0; p < 2; p++)
		if (ms_bot_set_edition(b[p], MS_PATH_EDITION_2023) || ms_bot_set_stochastic(b[p], stochastic) ||
		    ms_bot_reset(b[p]))
			fail_msg("%s", ms_ctx_last_error(ctx));
	if (ms_bot_play(ctx, s, b, 5000, 0, NULL, &winner))
		fail_msg("%s", ms_ctx_last_error(ctx));
	end = ms_rts_state_time(s);
	ms_bot_free(b[0]);
	ms_bot_free(b[1]);
	ms_rts_state_free(s);
	return end * 4 + winner + 1;
}

static void test_stochastic__varies_with_the_seed_and_repeats_for_one(void **state)
{
	static const char *const bots[] = { "mayari", "CoacAI" };
	ms_ctx *ctx;
	ms_rts_utt *utt;
	struct stat st;
	(void)state;
	if (!maps_dir || stat(maps_dir, &st) != 0) {
		if (getenv("CI"))
			fail_msg("the harness maps are absent but CI is set");
		print_message("skipped: harness maps absent (tools/setup.sh)\n");
		skip();
	}
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_rts_utt_new(ctx, &utt, 2, 1), MS_OK);
	for (size_t b = 0; b < sizeof bots / sizeof *bots; b++) {
		int first = play(ctx, utt, bots[b], 1, 1), varied = 0;
		int fixed = play(ctx, utt, bots[b], 1, 0);
		for (int64_t seed = 2; seed <= 8; seed++) {
			varied |= play(ctx, utt, bots[b], seed, 1) != first;
			/* off: the seed changes nothing */
			assert_int_equal(play(ctx, utt, bots[b], seed, 0), fixed);
		}
		assert_int_equal(play(ctx, utt, bots[b], 1, 1), first);
		if (!varied)
			fail_msg("%s: eight seeds, one outcome", bots[b]);
	}
	assert_true(ms_bot_draws_unseeded("mayari") && ms_bot_draws_unseeded("ai.coac.CoacAI"));
	assert_false(ms_bot_draws_unseeded("WorkerRush") || ms_bot_draws_unseeded("nosuchbot"));
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stochastic__varies_with_the_seed_and_repeats_for_one),
	};
	maps_dir = argc > 1 ? argv[1] : NULL;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
