/* RandomAI and RandomBiasedAI on a small map with resources, bases and
 * workers: whatever the seed, every idle unit of the player gets exactly
 * one action, in unit-list order, drawn from its legal list, and the moves
 * and productions kept never share a cell with each other or with pending
 * ones (RandomAI's Java generator is unseeded, so this property is what a
 * test can hold it to); the same seed gives the same game. */
#include "support/testutil.h"

#include <stdio.h>

#include "microsynth/bots.h"
#include "microsynth/microrts.h"

static const char map_xml[] =
	"<rts.PhysicalGameState width=\"6\" height=\"6\"><terrain>000000000000000000000000000000000000</terrain>"
	"<players><rts.Player ID=\"0\" resources=\"5\"></rts.Player><rts.Player ID=\"1\" resources=\"5\"></rts.Player>"
	"</players><units>"
	"<rts.units.Unit type=\"Resource\" ID=\"1\" player=\"-1\" x=\"0\" y=\"0\" resources=\"20\" hitpoints=\"1\"></rts.units.Unit>"
	"<rts.units.Unit type=\"Base\" ID=\"2\" player=\"0\" x=\"1\" y=\"1\" resources=\"0\" hitpoints=\"10\"></rts.units.Unit>"
	"<rts.units.Unit type=\"Worker\" ID=\"3\" player=\"0\" x=\"0\" y=\"1\" resources=\"0\" hitpoints=\"1\"></rts.units.Unit>"
	"<rts.units.Unit type=\"Resource\" ID=\"4\" player=\"-1\" x=\"5\" y=\"5\" resources=\"20\" hitpoints=\"1\"></rts.units.Unit>"
	"<rts.units.Unit type=\"Base\" ID=\"5\" player=\"1\" x=\"4\" y=\"4\" resources=\"0\" hitpoints=\"10\"></rts.units.Unit>"
	"<rts.units.Unit type=\"Worker\" ID=\"6\" player=\"1\" x=\"5\" y=\"4\" resources=\"0\" hitpoints=\"1\"></rts.units.Unit>"
	"</units></rts.PhysicalGameState>";

#define MAXP 64

static void check_action(const ms_rts_state *s, int player, const ms_rts_pair *pa, int n)
{
	int k = 0, cells = ms_rts_state_width(s) * ms_rts_state_height(s);
	char used[64] = { 0 };

	assert_true(cells <= 64);
	for (int i = 0; i < ms_rts_state_assignment_count(s); i++) {
		int ui, at;
		ms_rts_action a;
		ms_rts_unit u;
		assert_int_equal(ms_rts_state_assignment(s, i, &ui, &a, &at), MS_OK);
		ms_rts_state_unit(s, ui, &u);
		if (a.type == MS_RTS_MOVE || a.type == MS_RTS_PRODUCE) {
			static const int dx[4] = { 0, 1, 0, -1 }, dy[4] = { -1, 0, 1, 0 };
			used[u.x + dx[a.parameter] + (u.y + dy[a.parameter]) * ms_rts_state_width(s)] = 1;
		}
	}
	for (int i = 0; i < ms_rts_state_unit_count(s); i++) {
		ms_rts_unit u;
		ms_rts_state_unit(s, i, &u);
		if (u.player != player || !ms_rts_state_unit_idle(s, i))
			continue;
		assert_true(k < n);
		assert_true(pa[k].unit.id == u.id);
		assert_true(ms_rts_action_legal(s, &u, &pa[k].action));
		if (pa[k].action.type == MS_RTS_MOVE || pa[k].action.type == MS_RTS_PRODUCE) {
			static const int dx[4] = { 0, 1, 0, -1 }, dy[4] = { -1, 0, 1, 0 };
			int c = u.x + dx[pa[k].action.parameter] + (u.y + dy[pa[k].action.parameter]) * ms_rts_state_width(s);
			assert_false(used[c]);
			used[c] = 1;
		}
		k++;
	}
	assert_int_equal(k, n);
}

/* Plays `bot` against itself for `cycles`; returns a digest of the game. */
static uint64_t play(const char *bot, int64_t seed, int cycles)
{
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_rts_state *s;
	ms_bot *b[2];
	ms_rts_pair pa[2][MAXP];
	uint64_t digest = 0; /* unsigned: the digest wraps */
	int n[2], gameover = 0;

	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_rts_utt_new(ctx, &utt, 2, 1), MS_OK);
	assert_int_equal(ms_rts_state_from_map_xml(ctx, &s, utt, "fixture", map_xml, strlen(map_xml), 0), MS_OK);
	assert_int_equal(ms_bot_new(ctx, &b[0], bot, utt, seed), MS_OK);
	assert_int_equal(ms_bot_new(ctx, &b[1], bot, utt, seed + 1), MS_OK);
	for (int t = 0; t < cycles && !gameover; t++) {
		for (int p = 0; p < 2; p++) {
			assert_int_equal(ms_bot_decide(b[p], p, s, pa[p], MAXP, &n[p]), MS_OK);
			check_action(s, p, pa[p], n[p]);
			for (int i = 0; i < n[p]; i++)
				digest = digest * 31 + (uint64_t)(uint32_t)(pa[p][i].action.type * 7 + pa[p][i].action.parameter);
		}
		for (int p = 0; p < 2; p++)
			if (n[p])
				assert_int_equal(ms_rts_issue_safe(ctx, s, pa[p], n[p], NULL), MS_OK);
		assert_int_equal(ms_rts_cycle(ctx, s, &gameover), MS_OK);
	}
	digest = digest * 31 + (uint64_t)ms_rts_state_time(s);
	ms_bot_free(b[0]);
	ms_bot_free(b[1]);
	ms_rts_state_free(s);
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
	return digest;
}

static void test_bots_random__every_idle_unit_gets_a_legal_action_that_fits(void **st)
{
	(void)st;
	for (int64_t seed = 0; seed < 20; seed++) {
		play("RandomAI", seed, 400);
		play("RandomBiasedAI", seed, 400);
	}
}

static void test_bots_random__same_seed_same_game(void **st)
{
	(void)st;
	assert_true(play("RandomAI", 5, 300) == play("RandomAI", 5, 300));
	assert_true(play("ai.RandomBiasedAI", 5, 300) == play("RandomBiasedAI", 5, 300));
	assert_true(play("RandomAI", 5, 300) != play("RandomAI", 6, 300));
}

/* The registry's rows and each bot's own ops name the same bot, by short and by Java name. */
static void test_bots_registry__every_name_builds_the_bot_it_names(void **state)
{
	ms_ctx *ctx;
	ms_rts_utt *utt;
	const char *const *names = ms_bot_names();
	int n = 0;

	(void)state;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_rts_utt_new(ctx, &utt, 2, 1), MS_OK);
	for (; names[n]; n++) {
		ms_bot *b, *j;
		assert_int_equal(ms_bot_new(ctx, &b, names[n], utt, 1), MS_OK);
		assert_string_equal(b->ops->name, names[n]);
		assert_string_equal(ms_bot_for_java_class(b->ops->java_class), names[n]);
		assert_int_equal(ms_bot_new(ctx, &j, b->ops->java_class, utt, 1), MS_OK);
		assert_string_equal(j->ops->name, names[n]);
		ms_bot_free(j);
		ms_bot_free(b);
	}
	assert_int_equal(n, 10);
	assert_true(ms_bot_draws_unseeded("CoacAI") && ms_bot_draws_unseeded("mayariBot.mayari"));
	assert_false(ms_bot_draws_unseeded("WorkerRush"));
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bots_random__every_idle_unit_gets_a_legal_action_that_fits),
		cmocka_unit_test(test_bots_random__same_seed_same_game),
		cmocka_unit_test(test_bots_registry__every_name_builds_the_bot_it_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
