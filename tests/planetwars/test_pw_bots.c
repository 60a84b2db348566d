/*
 * Planet Wars bots: the example bots' choices on small states (ties, empty
 * planets, thresholds, fleet budgets), RandomBot by seed, the forecasting
 * bot's defence and legality, and the protocol: a bot decides the same on
 * its native view as on the text the engine would send it.
 */
#include "support/testutil.h"

#include <stdio.h>

#include "microsynth/planetwars.h"

static ms_ctx *ctx;

static int setup(void **state)
{
	return ms_ctx_new(&ctx, NULL);
}

static int teardown(void **state)
{
	ms_ctx_free(ctx);
	return 0;
}

static ms_pw_state *parse(const char *text)
{
	ms_pw_state *s = NULL;
	if (ms_pw_state_parse(ctx, &s, text, "fixture"))
		fail_msg("parse: %s", ms_ctx_last_error(ctx));
	return s;
}

/* The orders `name` gives as player 1 on `text` (a view), as "s d n;" items. */
static void decide(const char *name, const char *text, char *out, size_t size)
{
	ms_pw_state *s = parse(text);
	ms_pw_bot b;
	ms_pw_orders *o;
	assert_int_equal(ms_pw_bot_by_name(ctx, &b, name, 7), MS_OK);
	assert_int_equal(ms_pw_orders_new(ctx, &o), MS_OK);
	assert_int_equal(b.turn(ctx, b.ud, s, o), MS_OK);
	size_t len = 0;
	out[0] = 0;
	for (int i = 0; i < ms_pw_orders_count(o); i++) {
		const ms_pw_order *x = ms_pw_orders_at(o, i);
		len += (size_t)snprintf(out + len, size - len, "%d %d %d;", x->source, x->dest, x->ships);
	}
	ms_pw_orders_free(o);
	ms_pw_bot_release(ctx, &b);
	ms_pw_state_free(s);
}

static void test_pw_bots__bully_strongest_to_fewest_ships_first_on_ties(void **state)
{
	char o[256];
	const char *m = "P 0 0 1 9 1\nP 1 0 1 21 5\nP 2 0 1 21 1\nP 3 0 0 4 1\nP 4 0 2 4 9\nP 5 0 0 6 1\n";
	decide("BullyBot", m, o, sizeof o);
	assert_string_equal(o, "1 3 10;");
	char busy[512];
	snprintf(busy, sizeof busy, "%sF 1 0 0 3 4 2\n", m); /* an empty fleet still counts */
	decide("BullyBot", busy, o, sizeof o);
	assert_string_equal(o, "");
	decide("BullyBot", "P 0 0 1 0 1\nP 1 0 2 3 1\n", o, sizeof o); /* no ships, no source */
	assert_string_equal(o, "");
	decide("BullyBot", "P 0 0 1 1 1\nP 1 0 2 3 1\n", o, sizeof o); /* one ship: half is 0 */
	assert_string_equal(o, "0 1 0;");
}

static void test_pw_bots__prospector_and_dual_score_by_growth(void **state)
{
	char o[256];
	/* source: ships / (1 + growth): 20/5 = 4 beats 9/1 = 9? no: 9 > 4, planet 0 */
	const char *m = "P 0 0 1 9 0\nP 1 0 1 20 4\nP 2 0 0 10 1\nP 3 0 0 0 1\nP 4 0 2 30 9\n";
	decide("ProspectorBot", m, o, sizeof o);
	assert_string_equal(o, "0 3 4;"); /* an empty target scores +infinity */
	/* DualBot ahead in ships and production: attack mode, enemy planets only */
	const char *d = "P 0 0 1 90 5\nP 1 0 0 0 1\nP 2 0 2 12 2\nP 3 0 2 10 1\n";
	decide("DualBot", d, o, sizeof o);
	assert_string_equal(o, "0 2 45;"); /* 3/12 = 0.25 > 2/10 */
	/* behind in both: up to five fleets, any target */
	const char *e = "P 0 0 1 9 1\nP 1 0 0 0 1\nP 2 0 2 50 5\nF 1 1 0 1 3 2\nF 1 1 0 1 3 2\nF 1 1 0 1 3 2\nF 1 1 0 1 3 2\n";
	decide("DualBot", e, o, sizeof o);
	assert_string_equal(o, "0 1 4;");
}

static void test_pw_bots__rage_all_ships_to_nearest_enemy_above_ten_turns_of_growth(void **state)
{
	char o[256];
	const char *m = "P 0 0 1 50 5\nP 10 0 1 49 5\nP 3 0 2 1 1\nP 0 3 2 1 1\nP 20 0 2 9 1\nP 30 0 1 0 0\n";
	decide("RageBot", m, o, sizeof o);
	/* planet 0: enemies 2 and 3 at distance 3, the first wins; planet 1 holds 49 < 50; planet 5: 0 >= 0 */
	assert_string_equal(o, "0 2 50;5 4 0;");
}

static void test_pw_bots__random_is_seeded_and_never_targets_its_source(void **state)
{
	ms_pw_state *map = parse("P 0 0 1 50 5\nP 10 0 1 49 5\nP 3 0 2 30 1\nP 0 3 0 10 1\nP 20 0 2 9 1\n");
	int diffs = 0;
	for (int seed = 0; seed < 20; seed++) {
		ms_pw_bot a, b, c;
		ms_pw_result ra, rb, rc;
		ms_pw_bot opp = { 0 };
		assert_int_equal(ms_pw_bot_by_name(ctx, &opp, "RandomBot", 1000 + seed), MS_OK);
		assert_int_equal(ms_pw_bot_by_name(ctx, &a, "RandomBot", seed), MS_OK);
		assert_int_equal(ms_pw_play(ctx, map, &a, &opp, 200, NULL, NULL, &ra), MS_OK);
		ms_pw_bot_release(ctx, &opp);
		assert_int_equal(ms_pw_bot_by_name(ctx, &opp, "RandomBot", 1000 + seed), MS_OK);
		assert_int_equal(ms_pw_bot_by_name(ctx, &b, "RandomBot", seed), MS_OK);
		assert_int_equal(ms_pw_play(ctx, map, &b, &opp, 200, NULL, NULL, &rb), MS_OK);
		ms_pw_bot_release(ctx, &opp);
		assert_int_equal(ra.forfeit, 0);
		assert_memory_equal(&ra, &rb, sizeof ra);
		assert_int_equal(ms_pw_bot_by_name(ctx, &opp, "RandomBot", 1000 + seed), MS_OK);
		assert_int_equal(ms_pw_bot_by_name(ctx, &c, "RandomBot", seed + 500), MS_OK);
		assert_int_equal(ms_pw_play(ctx, map, &c, &opp, 200, NULL, NULL, &rc), MS_OK);
		ms_pw_bot_release(ctx, &opp);
		diffs += memcmp(&ra, &rc, sizeof ra) != 0;
		ms_pw_bot_release(ctx, &a);
		ms_pw_bot_release(ctx, &b);
		ms_pw_bot_release(ctx, &c);
	}
	assert_true(diffs > 5);
	ms_pw_state_free(map);
}

static void test_pw_bots__forecast_defends_a_planet_it_would_lose(void **state)
{
	char o[256];
	/* my planet 1 (5 ships, no growth) is hit by 12 enemy ships in 6 turns; planet 0 is 3 away with 40 */
	decide("Forecast", "P 0 0 1 40 0\nP 3 0 1 5 0\nP 30 30 2 1 0\nF 2 12 2 1 40 6\n", o, sizeof o);
	assert_non_null(strstr(o, "0 1 7;"));
	/* too far to arrive in time: no help */
	decide("Forecast", "P 0 0 1 40 0\nP 30 0 1 5 0\nP 60 60 2 1 0\nF 2 12 2 1 40 6\n", o, sizeof o);
	assert_null(strstr(o, "0 1 "));
}

static void test_pw_bots__unknown_name_is_not_found(void **state)
{
	ms_pw_bot b;
	assert_int_equal(ms_pw_bot_by_name(ctx, &b, "MyBot", 0), MS_ENOTFOUND);
	assert_non_null(strstr(ms_ctx_last_error(ctx), "MyBot"));
}

/* Plays `a` vs `b` turn by turn; each turn every bot also decides on the parsed text of its view. */
static void protocol_game(const ms_pw_state *map, const char *a, const char *b)
{
	ms_pw_state *s = NULL, *v = NULL;
	assert_int_equal(ms_pw_state_clone(ctx, &s, map), MS_OK);
	ms_pw_bot bot[2], twin[2];
	ms_pw_orders *o1, *o2;
	assert_int_equal(ms_pw_bot_by_name(ctx, &bot[0], a, 3), MS_OK);
	assert_int_equal(ms_pw_bot_by_name(ctx, &bot[1], b, 4), MS_OK);
	assert_int_equal(ms_pw_bot_by_name(ctx, &twin[0], a, 3), MS_OK);
	assert_int_equal(ms_pw_bot_by_name(ctx, &twin[1], b, 4), MS_OK);
	assert_int_equal(ms_pw_orders_new(ctx, &o1), MS_OK);
	assert_int_equal(ms_pw_orders_new(ctx, &o2), MS_OK);
	size_t cap = 1 << 16;
	char *text = malloc(cap);
	while (ms_pw_winner(s, 200) < 0) {
		ms_pw_orders *keep[2] = { NULL, NULL };
		for (int k = 0; k < 2; k++) {
			ms_pw_orders_clear(o1);
			ms_pw_orders_clear(o2);
			assert_int_equal(ms_pw_make_view(ctx, s, k + 1, &v), MS_OK);
			assert_int_equal(bot[k].turn(ctx, bot[k].ud, v, o1), MS_OK);
			size_t n = ms_pw_format_view(s, k + 1, text, cap);
			assert_true(n < cap);
			text[n - 3] = 0; /* drop "go\n" */
			ms_pw_state *p = parse(text);
			assert_int_equal(twin[k].turn(ctx, twin[k].ud, p, o2), MS_OK);
			ms_pw_state_free(p);
			assert_int_equal(ms_pw_orders_count(o1), ms_pw_orders_count(o2));
			for (int i = 0; i < ms_pw_orders_count(o1); i++)
				assert_memory_equal(ms_pw_orders_at(o1, i), ms_pw_orders_at(o2, i), sizeof(ms_pw_order));
			assert_int_equal(ms_pw_orders_new(ctx, &keep[k]), MS_OK);
			for (int i = 0; i < ms_pw_orders_count(o1); i++) {
				const ms_pw_order *x = ms_pw_orders_at(o1, i);
				ms_pw_orders_add(keep[k], x->source, x->dest, x->ships);
			}
		}
		for (int k = 0; k < 2; k++) {
			for (int i = 0; i < ms_pw_orders_count(keep[k]); i++) {
				const ms_pw_order *x = ms_pw_orders_at(keep[k], i);
				if (ms_pw_issue(ctx, s, k + 1, x->source, x->dest, x->ships))
					fail_msg("%s: %s", k ? b : a, ms_ctx_last_error(ctx));
			}
			ms_pw_orders_free(keep[k]);
		}
		ms_pw_step(s);
	}
	free(text);
	for (int k = 0; k < 2; k++) {
		ms_pw_bot_release(ctx, &bot[k]);
		ms_pw_bot_release(ctx, &twin[k]);
	}
	ms_pw_orders_free(o1);
	ms_pw_orders_free(o2);
	ms_pw_state_free(v);
	ms_pw_state_free(s);
}

static void test_pw_bots__same_orders_from_the_protocol_text_and_legal_all_game(void **state)
{
	const char *shared = getenv("MS_SHARED_DIR");
	if (!shared || !*shared) {
		if (getenv("CI"))
			fail_msg("../shared is absent but CI is set");
		skip();
	}
	static const char *const names[] = { "Forecast", "RageBot", "DualBot", "BullyBot", "ProspectorBot", "RandomBot" };
	for (int m = 1; m <= 100; m += 33) {
		char path[4096];
		snprintf(path, sizeof path, "%s/data/planetwars/maps/map%d.txt", shared, m);
		ms_pw_state *map = NULL;
		assert_int_equal(ms_pw_state_load(ctx, &map, path), MS_OK);
		for (int i = 1; i < 6; i++) {
			protocol_game(map, names[0], names[i]);
			protocol_game(map, names[i], names[0]);
		}
		ms_pw_state_free(map);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pw_bots__bully_strongest_to_fewest_ships_first_on_ties),
		cmocka_unit_test(test_pw_bots__prospector_and_dual_score_by_growth),
		cmocka_unit_test(test_pw_bots__rage_all_ships_to_nearest_enemy_above_ten_turns_of_growth),
		cmocka_unit_test(test_pw_bots__random_is_seeded_and_never_targets_its_source),
		cmocka_unit_test(test_pw_bots__forecast_defends_a_planet_it_would_lose),
		cmocka_unit_test(test_pw_bots__unknown_name_is_not_found),
		cmocka_unit_test(test_pw_bots__same_orders_from_the_protocol_text_and_legal_all_game),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
