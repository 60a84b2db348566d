/* mayari on bad and random states: no units, one side only (where the jar
 * loops forever in produceCombat), walls everywhere, a 128x128 map, random
 * legal maps. Every decision returns (bounded), every action it gives is
 * legal for its unit, and a match ends without error within its cycle
 * limit. Also: the decisions the jar takes under its wall-clock budget or
 * from an unseeded shuffle are flagged. */
#include "bot_check.h"

#include <stdio.h>
#include <stdlib.h>

#include "microsynth/bots.h"
#include "microsynth/microrts.h"

static void test_mayari__no_units_decides_nothing_and_does_not_fail(void **state)
{
	(void)state;
	char *xml = bot_test_map(8, 8, 0, NULL, 0);
	bot_play_checked("mayari", xml, "WorkerRush", 20, NULL);
	free(xml);
}

/* One decision of mayari for player 0 on `xml`: the number of pairs, the
 * first pair of unit `id` in *a (type -1 when none), and the flags. */
static int decide_once(const char *xml, int64_t id, ms_rts_action *a, int *random, int *clock)
{
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_rts_state *s;
	ms_bot *b;
	ms_rts_pair *pa;
	int n = 0, cells;

	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_rts_utt_new(ctx, &utt, 2, 1), MS_OK);
	assert_int_equal(ms_rts_state_from_map_xml(ctx, &s, utt, "fixture", xml, strlen(xml), 0), MS_OK);
	cells = ms_rts_state_width(s) * ms_rts_state_height(s) + 1;
	pa = malloc(sizeof(ms_rts_pair) * (size_t)cells);
	assert_int_equal(ms_bot_new(ctx, &b, "mayariBot.mayari", utt, 1), MS_OK);
	assert_int_equal(ms_bot_decide(b, 0, s, pa, cells, &n), MS_OK);
	a->type = -1;
	for (int k = n - 1; k >= 0; k--)
		if (pa[k].unit.id == id)
			*a = pa[k].action;
	*random = b->random_moves;
	*clock = b->clock_bound;
	ms_bot_free(b);
	free(pa);
	ms_rts_state_free(s);
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
	return n;
}

/* With no enemy left the jar's produceCombat never ends (the side that
 * scores best is never found, so never removed); the native barracks
 * trains nothing and the decision returns. The engine ends a game before
 * such a state, so a whole match also ends at once. */
static void test_mayari__no_enemy_is_bounded(void **state)
{
	(void)state;
	const char *mine[] = { "Base,0,2,2", "Barracks,0,5,5", "Worker,0,3,3", "Resource,-1,0,0" };
	char *xml = bot_test_map(8, 8, 0, mine, 4);
	ms_rts_action a;
	int random, clock;
	assert_int_equal(decide_once(xml, 2, &a, &random, &clock), 3);
	assert_int_equal(a.type, MS_RTS_NONE);
	bot_play_checked("mayari", xml, "WorkerRush", 300, NULL);
	free(xml);
	const char *theirs[] = { "Base,1,2,2", "Worker,1,3,3", "Resource,-1,0,0" };
	xml = bot_test_map(8, 8, 0, theirs, 3);
	assert_int_equal(bot_play_checked("mayari", xml, "WorkerRush", 3000, NULL), 1);
	free(xml);
}

static void test_mayari__no_base_plays_legally(void **state)
{
	(void)state;
	const char *units[] = { "Worker,0,1,1", "Worker,0,2,1", "Resource,-1,0,0", "Base,1,12,12", "Worker,1,11,12",
				"Resource,-1,15,15" };
	char *xml = bot_test_map(16, 16, 0, units, 6);
	bot_play_checked("mayari", xml, "WorkerRush", 600, NULL);
	free(xml);
}

static void test_mayari__walls_everywhere_plays_legally(void **state)
{
	(void)state;
	const char *units[] = { "Base,0,1,1", "Worker,0,2,1", "Resource,-1,0,1", "Barracks,0,1,3",
				"Base,1,6,6", "Worker,1,5,6", "Resource,-1,7,6" };
	char *xml = bot_test_map(8, 8, 1, units, 7);
	bot_play_checked("mayari", xml, "LightRush", 300, NULL);
	free(xml);
}

static void test_mayari__128x128_map_plays_legally(void **state)
{
	(void)state;
	const char *units[] = { "Base,0,2,2", "Worker,0,3,2", "Resource,-1,0,0", "Barracks,0,5,5", "Heavy,0,6,6",
				"Ranged,0,8,8", "Light,0,9,9", "Base,1,125,125", "Worker,1,124,125",
				"Resource,-1,127,127", "Ranged,1,100,100" };
	char *xml = bot_test_map(128, 128, 0, units, 11);
	bot_play_checked("mayari", xml, "RangedRush", 200, NULL);
	free(xml);
}

static void test_mayari__random_legal_maps_play_legally(void **state)
{
	(void)state;
	srand(11);
	for (int m = 0; m < 30; m++) {
		char *xml = bot_random_map(m, 3);
		bot_play_checked("mayari", xml, m % 2 ? "WorkerRush" : "CoacAI", 150, NULL);
		free(xml);
	}
}

/* The jar's clock budget runs on maps 24+ wide with 24+ units: a decision
 * whose combat pass reads it is flagged; smaller ones are not. */
static void test_mayari__clock_budget_decisions_are_flagged(void **state)
{
	(void)state;
	char buf[30][40];
	const char *units[30];
	ms_rts_action a;
	int random, clock, k = 0;
	for (int i = 0; i < 12; i++) {
		snprintf(buf[k], sizeof(buf[k]), "Light,0,%d,1", i);
		units[k] = buf[k];
		k++;
		snprintf(buf[k], sizeof(buf[k]), "Light,1,%d,20", i);
		units[k] = buf[k];
		k++;
	}
	char *xml = bot_test_map(24, 24, 0, units, k);
	decide_once(xml, 1, &a, &random, &clock);
	assert_int_equal(clock, 1);
	assert_int_equal(random, 0);
	assert_int_equal(a.type, MS_RTS_MOVE);
	free(xml);
	/* 23 units: no budget */
	xml = bot_test_map(24, 24, 0, units, 23);
	decide_once(xml, 1, &a, &random, &clock);
	assert_int_equal(clock, 0);
	assert_int_equal(a.type, MS_RTS_MOVE);
	free(xml);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mayari__no_units_decides_nothing_and_does_not_fail),
		cmocka_unit_test(test_mayari__no_enemy_is_bounded),
		cmocka_unit_test(test_mayari__no_base_plays_legally),
		cmocka_unit_test(test_mayari__walls_everywhere_plays_legally),
		cmocka_unit_test(test_mayari__128x128_map_plays_legally),
		cmocka_unit_test(test_mayari__random_legal_maps_play_legally),
		cmocka_unit_test(test_mayari__clock_budget_decisions_are_flagged),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
