/*
 * The scripted bots' path memo (ms_bot_set_memo): bots with a memo and the
 * same bots without one decide in lockstep on one state, cycle by cycle,
 * in matches played twice over, the second answered mostly from the memo
 * the first filled; every decision must be the same. Maps from the harness
 * cache (argument 1).
 */
#include "support/testutil.h"

#include <stdio.h>

#include "microsynth/bots.h"
#include "microsynth/match.h"

static const char *maps_dir;

static int same_pair(const ms_rts_pair *a, const ms_rts_pair *b)
{
	return a->unit.id == b->unit.id && a->action.type == b->action.type &&
	       a->action.parameter == b->action.parameter && a->action.x == b->action.x &&
	       a->action.y == b->action.y && a->action.unit_type == b->action.unit_type;
}

/* Plays `names` on `map` with and without `memo`; returns the decisions compared. */
static long lockstep(ms_ctx *ctx, const ms_rts_utt *utt, const char *map, const char *const names[2], ms_memo *memo,
		     int cycles)
{
	char path[2100];
	ms_rts_state *s;
	ms_bot *ref[2], *mem[2];
	ms_rts_pair pa[512], pb[512];
	long compared = 0;

	snprintf(path, sizeof path, "%s/%s", maps_dir, map);
	if (ms_rts_state_load_map(ctx, &s, utt, path, 0))
		fail_msg("%s", ms_ctx_last_error(ctx));
	for (int p = 0; p < 2; p++) {
		if (ms_bot_make(ctx, &ref[p], names[p], utt, 5) || ms_bot_make(ctx, &mem[p], names[p], utt, 5))
			fail_msg("%s", ms_ctx_last_error(ctx));
		assert_int_equal(ms_bot_set_memo(mem[p], memo), MS_OK);
		assert_int_equal(ms_bot_set_edition(ref[p], MS_PATH_EDITION_2023), MS_OK);
		assert_int_equal(ms_bot_set_edition(mem[p], MS_PATH_EDITION_2023), MS_OK);
		assert_int_equal(ms_bot_reset(ref[p]), MS_OK);
		assert_int_equal(ms_bot_reset(mem[p]), MS_OK);
	}
	for (int t = 0; t < cycles; t++) {
		int over = 0;
		for (int p = 0; p < 2; p++) {
			int na, nb;
			assert_int_equal(ms_bot_decide(ref[p], p, s, pa, 512, &na), MS_OK);
			assert_int_equal(ms_bot_decide(mem[p], p, s, pb, 512, &nb), MS_OK);
			if (na != nb)
				fail_msg("%s vs %s on %s: %s decides %d actions with the memo, %d without, cycle %d", names[0],
					 names[1], map, names[p], nb, na, t);
			for (int k = 0; k < na; k++)
				if (!same_pair(&pa[k], &pb[k]))
					fail_msg("%s vs %s on %s: %s's action %d differs with the memo at cycle %d", names[0],
						 names[1], map, names[p], k, t);
			compared++;
			assert_int_equal(ms_rts_issue_safe(ctx, s, pa, na, NULL), MS_OK);
		}
		assert_int_equal(ms_rts_cycle(ctx, s, &over), MS_OK);
		if (over)
			break;
	}
	for (int p = 0; p < 2; p++) {
		ms_bot_free(ref[p]);
		ms_bot_free(mem[p]);
	}
	ms_rts_state_free(s);
	return compared;
}

static void test_memo__bots_decide_alike_with_and_without_it(void **state)
{
	static const struct {
		const char *map, *p0, *p1;
		int cycles;
	} games[] = {
		{ "16x16/basesWorkers16x16A.xml", "CoacAI", "mayari", 2500 },
		{ "16x16/TwoBasesBarracks16x16.xml", "LightRush", "CoacAI", 2500 },
		{ "24x24/basesWorkers24x24A.xml", "mayari", "WorkerRush", 2500 },
		{ "NoWhereToRun9x8.xml", "CoacAI", "RangedRush", 2000 },
	};
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_memo *memo;
	ms_memo_stats st;
	long compared = 0;

	(void)state;
	if (!ms_test_have_maps(maps_dir))
		skip();
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_rts_utt_new(ctx, &utt, 2, 1), MS_OK);
	assert_int_equal(ms_memo_new(ctx, &memo, 16), MS_OK);
	for (size_t g = 0; g < sizeof games / sizeof *games; g++) {
		const char *names[2] = { games[g].p0, games[g].p1 };
		uint64_t hits;
		ms_memo_get_stats(memo, &st);
		hits = st.hits;
		compared += lockstep(ctx, utt, games[g].map, names, memo, games[g].cycles);
		/* the same match again: its searches are the first's */
		compared += lockstep(ctx, utt, games[g].map, names, memo, games[g].cycles);
		ms_memo_get_stats(memo, &st);
		if (st.hits - hits < 100)
			fail_msg("%s vs %s on %s: %llu answers from the memo", names[0], names[1], games[g].map,
				 (unsigned long long)(st.hits - hits));
	}
	ms_memo_get_stats(memo, &st);
	assert_true(compared > 10000);
	assert_true(st.hits > st.lookups / 3);
	print_message("compared %ld decisions; %llu of %llu searches answered from the memo\n", compared,
		      (unsigned long long)st.hits, (unsigned long long)st.lookups);
	ms_memo_free(memo);
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_memo__bots_decide_alike_with_and_without_it),
	};
	maps_dir = argc > 1 ? argv[1] : NULL;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
