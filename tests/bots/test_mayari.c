/* mayari on bad and random states: no units, one side only (where the jar
 * loops forever in produceCombat), walls everywhere, a 128x128 map, random
 * legal maps. Every decision returns (bounded), every action it gives is
 * legal for its unit, and a match ends without error within its cycle
 * limit. Also: the decisions the jar takes under its wall-clock budget or
 * from an unseeded shuffle are flagged. */
#include "support/testutil.h"

#include <stdio.h>
#include <stdlib.h>

#include "microsynth/bots.h"
#include "microsynth/microrts.h"

/* A map XML of w x h; `wall` fills the terrain with walls but for the unit
 * cells; units are given as "type,player,x,y" lines in `units`. */
static char *make_map(int w, int h, int wall, const char *const *units, int n)
{
	size_t cap = (size_t)w * h + 400 + (size_t)n * 200;
	char *xml = malloc(cap), *p = xml;
	char *terrain = malloc((size_t)w * h + 1);

	for (int c = 0; c < w * h; c++)
		terrain[c] = wall ? '1' : '0';
	terrain[w * h] = 0;
	for (int k = 0; k < n; k++) {
		char type[32];
		int pl, x, y;
		sscanf(units[k], "%31[^,],%d,%d,%d", type, &pl, &x, &y);
		terrain[x + y * w] = '0';
	}
	p += sprintf(p,
		     "<rts.PhysicalGameState width=\"%d\" height=\"%d\"><terrain>%s</terrain><players>"
		     "<rts.Player ID=\"0\" resources=\"20\"></rts.Player><rts.Player ID=\"1\" resources=\"20\">"
		     "</rts.Player></players><units>",
		     w, h, terrain);
	for (int k = 0; k < n; k++) {
		char type[32];
		int pl, x, y;
		sscanf(units[k], "%31[^,],%d,%d,%d", type, &pl, &x, &y);
		p += sprintf(p,
			     "<rts.units.Unit type=\"%s\" ID=\"%d\" player=\"%d\" x=\"%d\" y=\"%d\" resources=\"%d\" "
			     "hitpoints=\"%d\"></rts.units.Unit>",
			     type, k + 1, pl, x, y, pl < 0 ? 20 : 0, type[0] == 'B' && type[1] == 'a' ? 10 : 1);
	}
	sprintf(p, "</units></rts.PhysicalGameState>");
	free(terrain);
	return xml;
}

/* Plays mayari (player 0) against `opp` for at most `cycles`, checking
 * every mayari decision returns and every action it gives is legal for an
 * idle unit of its own; returns the winner. */
static int play_checked(const char *xml, const char *opp, int cycles)
{
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_rts_state *s;
	ms_bot *b[2];
	ms_rts_pair *pa[2];
	int n[2], gameover = 0, cells, winner;

	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_rts_utt_new(ctx, &utt, 2, 1), MS_OK);
	assert_int_equal(ms_rts_state_from_map_xml(ctx, &s, utt, "fixture", xml, strlen(xml), 0), MS_OK);
	cells = ms_rts_state_width(s) * ms_rts_state_height(s) + 1;
	pa[0] = malloc(sizeof(ms_rts_pair) * (size_t)cells);
	pa[1] = malloc(sizeof(ms_rts_pair) * (size_t)cells);
	assert_int_equal(ms_bot_new(ctx, &b[0], "mayari", utt, 1), MS_OK);
	assert_int_equal(ms_bot_new(ctx, &b[1], opp, utt, 2), MS_OK);
	for (int t = 0; t < cycles && !gameover; t++) {
		for (int p = 0; p < 2; p++)
			assert_int_equal(ms_bot_decide(b[p], p, s, pa[p], cells, &n[p]), MS_OK);
		for (int k = 0; k < n[0]; k++) {
			int ui = ms_rts_state_find_unit(s, pa[0][k].unit.id);
			ms_rts_unit u;
			assert_true(ui >= 0);
			ms_rts_state_unit(s, ui, &u);
			assert_int_equal(u.player, 0);
			assert_true(ms_rts_state_unit_idle(s, ui));
			assert_true(ms_rts_action_legal(s, &u, &pa[0][k].action));
		}
		for (int p = 0; p < 2; p++)
			if (n[p])
				assert_int_equal(ms_rts_issue_safe(ctx, s, pa[p], n[p], NULL), MS_OK);
		assert_int_equal(ms_rts_cycle(ctx, s, &gameover), MS_OK);
	}
	winner = ms_rts_winner(s);
	ms_bot_free(b[0]);
	ms_bot_free(b[1]);
	free(pa[0]);
	free(pa[1]);
	ms_rts_state_free(ctx, s);
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
	return winner;
}

static void test_mayari__no_units_decides_nothing_and_does_not_fail(void **state)
{
	(void)state;
	char *xml = make_map(8, 8, 0, NULL, 0);
	play_checked(xml, "WorkerRush", 20);
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
	ms_rts_state_free(ctx, s);
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
	char *xml = make_map(8, 8, 0, mine, 4);
	ms_rts_action a;
	int random, clock;
	assert_int_equal(decide_once(xml, 2, &a, &random, &clock), 3);
	assert_int_equal(a.type, MS_RTS_NONE);
	play_checked(xml, "WorkerRush", 300);
	free(xml);
	const char *theirs[] = { "Base,1,2,2", "Worker,1,3,3", "Resource,-1,0,0" };
	xml = make_map(8, 8, 0, theirs, 3);
	assert_int_equal(play_checked(xml, "WorkerRush", 3000), 1);
	free(xml);
}

static void test_mayari__no_base_plays_legally(void **state)
{
	(void)state;
	const char *units[] = { "Worker,0,1,1", "Worker,0,2,1", "Resource,-1,0,0", "Base,1,12,12", "Worker,1,11,12",
				"Resource,-1,15,15" };
	char *xml = make_map(16, 16, 0, units, 6);
	play_checked(xml, "WorkerRush", 600);
	free(xml);
}

static void test_mayari__walls_everywhere_plays_legally(void **state)
{
	(void)state;
	const char *units[] = { "Base,0,1,1", "Worker,0,2,1", "Resource,-1,0,1", "Barracks,0,1,3",
				"Base,1,6,6", "Worker,1,5,6", "Resource,-1,7,6" };
	char *xml = make_map(8, 8, 1, units, 7);
	play_checked(xml, "LightRush", 300);
	free(xml);
}

static void test_mayari__128x128_map_plays_legally(void **state)
{
	(void)state;
	const char *units[] = { "Base,0,2,2", "Worker,0,3,2", "Resource,-1,0,0", "Barracks,0,5,5", "Heavy,0,6,6",
				"Ranged,0,8,8", "Light,0,9,9", "Base,1,125,125", "Worker,1,124,125",
				"Resource,-1,127,127", "Ranged,1,100,100" };
	char *xml = make_map(128, 128, 0, units, 11);
	play_checked(xml, "RangedRush", 200);
	free(xml);
}

static void test_mayari__random_legal_maps_play_legally(void **state)
{
	(void)state;
	static const char *const types[] = { "Base", "Worker", "Barracks", "Light", "Heavy", "Ranged", "Resource" };
	srand(11);
	for (int m = 0; m < 30; m++) {
		int w = 4 + rand() % 13, h = 4 + rand() % 13, n = rand() % 12;
		char buf[12][40];
		const char *units[12];
		char used[16 * 16] = { 0 };
		int k = 0;
		for (int i = 0; i < n; i++) {
			int x = rand() % w, y = rand() % h, t = rand() % 7;
			if (used[x + y * w])
				continue;
			used[x + y * w] = 1;
			snprintf(buf[k], sizeof(buf[k]), "%s,%d,%d,%d", types[t], t == 6 ? -1 : rand() % 2, x, y);
			units[k] = buf[k];
			k++;
		}
		char *xml = make_map(w, h, m % 3 == 0 && w > 6, units, k);
		play_checked(xml, m % 2 ? "WorkerRush" : "CoacAI", 150);
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
	char *xml = make_map(24, 24, 0, units, k);
	decide_once(xml, 1, &a, &random, &clock);
	assert_int_equal(clock, 1);
	assert_int_equal(random, 0);
	assert_int_equal(a.type, MS_RTS_MOVE);
	free(xml);
	/* 23 units: no budget */
	xml = make_map(24, 24, 0, units, 23);
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
