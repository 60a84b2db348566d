/*
 * Planet Wars rules on small hand-made states: battles of two and three
 * forces and their ties, growth before battles, the turn limit, the end
 * test, bad map lines and bad orders, and the text the engine sends.
 * Every test counts the context's live blocks (no leaks).
 */
#include "support/testutil.h"

#include <stdio.h>

#include "microsynth/planetwars.h"

typedef struct fx {
	ms_test_alloc t;
	ms_allocator a;
	ms_ctx *ctx;
} fx;

static int setup(void **state)
{
	fx *f = calloc(1, sizeof *f);
	f->ctx = ms_test_ctx_with(&f->t, &f->a);
	*state = f;
	return f->ctx ? 0 : -1;
}

static int teardown(void **state)
{
	fx *f = *state;
	ms_ctx_free(f->ctx);
	assert_int_equal(f->t.live, 0);
	free(f);
	return 0;
}

static ms_pw_state *parse(fx *f, const char *text)
{
	ms_pw_state *s = NULL;
	int rc = ms_pw_state_parse(f->ctx, &s, text, "fixture");
	if (rc)
		fail_msg("parse: %s", ms_ctx_last_error(f->ctx));
	return s;
}

#define OWNER(s, i) (ms_pw_planet_at((s), (i))->owner)
#define SHIPS(s, i) (ms_pw_planet_at((s), (i))->ships)

/* Planet 0 is fought over; fleets of both players land on it next step. */
static void battle(fx *f, const char *p0, int f1, int f2, int *owner, int *ships)
{
	char text[512];
	snprintf(text, sizeof text, "%s\nP 10 0 1 0 0\nP 0 10 2 0 0\nF 1 %d 1 0 10 1\nF 2 %d 2 0 10 1\n", p0, f1, f2);
	ms_pw_state *s = parse(f, text);
	ms_pw_step(s);
	*owner = OWNER(s, 0);
	*ships = SHIPS(s, 0);
	assert_int_equal(ms_pw_num_fleets(s), 0);
	ms_pw_state_free(s);
}

static void test_pw_battle__three_forces_largest_keeps_margin_over_second(void **state)
{
	fx *f = *state;
	int o, n;
	battle(f, "P 0 0 0 3 4", 5, 4, &o, &n); /* the spec's example: 5 vs 4 vs 3 */
	assert_int_equal(o, 1);
	assert_int_equal(n, 1);
	battle(f, "P 0 0 0 10 4", 4, 3, &o, &n); /* neutral is the largest force */
	assert_int_equal(o, 0);
	assert_int_equal(n, 6);
	battle(f, "P 0 0 0 3 4", 2, 9, &o, &n);
	assert_int_equal(o, 2);
	assert_int_equal(n, 6);
}

static void test_pw_battle__tie_of_top_two_keeps_owner_with_zero(void **state)
{
	fx *f = *state;
	int o, n;
	battle(f, "P 0 0 0 3 4", 5, 5, &o, &n); /* players tie above neutral */
	assert_int_equal(o, 0);
	assert_int_equal(n, 0);
	battle(f, "P 0 0 0 5 4", 5, 2, &o, &n); /* neutral ties player 1 */
	assert_int_equal(o, 0);
	assert_int_equal(n, 0);
	battle(f, "P 0 0 2 4 0", 7, 3, &o, &n); /* owner 2 with 4 + 3 ties 7: stays 2 */
	assert_int_equal(o, 2);
	assert_int_equal(n, 0);
	battle(f, "P 0 0 0 0 4", 0, 0, &o, &n); /* empty fleets change nothing */
	assert_int_equal(o, 0);
	assert_int_equal(n, 0);
}

static void test_pw_step__growth_before_battle_and_only_for_players(void **state)
{
	fx *f = *state;
	/* planet 0 (player 1, 5 ships, growth 2) grows to 7 before 7 attackers land: a tie */
	ms_pw_state *s = parse(f, "P 0 0 1 5 2\nP 3 4 2 1 3\nP 9 9 0 4 5\nF 2 7 1 0 5 1\n");
	ms_pw_step(s);
	assert_int_equal(OWNER(s, 0), 1);
	assert_int_equal(SHIPS(s, 0), 0);
	assert_int_equal(SHIPS(s, 1), 4);
	assert_int_equal(SHIPS(s, 2), 4); /* neutral does not grow */
	assert_int_equal(ms_pw_turn(s), 1);
	ms_pw_state_free(s);
}

static void test_pw_issue__fleet_takes_ceil_distance_and_lands_after_it(void **state)
{
	fx *f = *state;
	ms_pw_state *s = parse(f, "P 0 0 1 10 0\nP 3 4.1 2 10 0\n");
	assert_int_equal(ms_pw_distance(s, 0, 1), 6); /* sqrt(9 + 16.81) = 5.08 */
	assert_int_equal(ms_pw_issue(f->ctx, s, 1, 0, 1, 4), MS_OK);
	assert_int_equal(SHIPS(s, 0), 6);
	const ms_pw_fleet *fl = ms_pw_fleet_at(s, 0);
	assert_int_equal(fl->total, 6);
	assert_int_equal(fl->remaining, 6);
	for (int i = 0; i < 5; i++)
		ms_pw_step(s);
	assert_int_equal(ms_pw_num_fleets(s), 1);
	assert_int_equal(ms_pw_fleet_at(s, 0)->remaining, 1);
	ms_pw_step(s);
	assert_int_equal(ms_pw_num_fleets(s), 0);
	assert_int_equal(SHIPS(s, 1), 6);
	/* zero ships are legal: an empty fleet */
	assert_int_equal(ms_pw_issue(f->ctx, s, 1, 0, 1, 0), MS_OK);
	assert_int_equal(ms_pw_num_fleets(s), 1);
	assert_int_equal(ms_pw_fleet_at(s, 0)->ships, 0);
	ms_pw_state_free(s);
}

static void test_pw_issue__bad_orders_are_refused_with_reason(void **state)
{
	fx *f = *state;
	ms_pw_state *s = parse(f, "P 0 0 1 10 0\nP 3 4 2 10 0\nP 6 8 0 3 1\n");
	assert_int_equal(ms_pw_issue(f->ctx, s, 1, 1, 2, 1), MS_EILLEGAL);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "not the player's"));
	assert_int_equal(ms_pw_issue(f->ctx, s, 1, 0, 2, 11), MS_EILLEGAL);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "holds 10"));
	assert_int_equal(ms_pw_issue(f->ctx, s, 1, 0, 2, -1), MS_EILLEGAL);
	assert_int_equal(ms_pw_issue(f->ctx, s, 1, 0, 0, 1), MS_EILLEGAL);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "same"));
	assert_int_equal(ms_pw_issue(f->ctx, s, 1, 0, 3, 1), MS_ERANGE);
	assert_int_equal(ms_pw_issue(f->ctx, s, 1, -1, 2, 1), MS_ERANGE);
	assert_int_equal(ms_pw_num_fleets(s), 0);
	assert_int_equal(SHIPS(s, 0), 10);
	/* the sum of a turn's orders from a planet may not exceed it */
	assert_int_equal(ms_pw_issue(f->ctx, s, 1, 0, 2, 6), MS_OK);
	assert_int_equal(ms_pw_issue(f->ctx, s, 1, 0, 1, 5), MS_EILLEGAL);
	ms_pw_state_free(s);
}

static void test_pw_parse__bad_lines_name_the_input_and_line(void **state)
{
	fx *f = *state;
	static const struct {
		const char *text;
		int rc;
		const char *msg;
	} cases[] = {
		{ "P 0 0 1 10 0\nP 1 1 0 5\n", MS_EPARSE, "fixture:2: a planet line" },
		{ "# c\n\nQ 1 2\n", MS_EPARSE, "fixture:3: unknown line 'Q'" },
		{ "P x 0 1 10 0\n", MS_EPARSE, "fixture:1: x 'x' is not a finite number" },
		{ "P 0 0 3 10 0\n", MS_ERANGE, "fixture:1: owner 3" },
		{ "P 0 0 1 -4 0\n", MS_ERANGE, "fixture:1: ships -4" },
		{ "P 0 0 1 10 0\nP 1 1 2 1 1\nF 1 5 0 7 3 2\n", MS_ERANGE, "fixture:3: fleet between planets 0 and 7" },
		{ "P 0 0 1 10 0\nF 1 5 0 1 3\n", MS_EPARSE, "fixture:2: a fleet line" },
		{ "P 0 0 1 10 0\nF 0 5 0 0 3 2\n", MS_ERANGE, "fixture:2: owner 0" },
		{ "P 0 0 1 10 0\nP 0 0 2 10 0\n", MS_EINVAL, "fixture:2: planet 1 at the position of planet 0" },
		{ "# nothing\n", MS_EPARSE, "fixture: no planets" },
		{ "P 0 0 1 1e400 0\n", MS_EPARSE, "not an integer" },
		{ "P 0 3e10 1 4 0\n", MS_ERANGE, "fixture:1: y 3e10 outside" },
		{ "P 0 0 1 10 0 # ok\nF 1 5 0 0 3 2\nP 4 4 2 1 1\n", MS_EPARSE, "fixture:3: planet after a fleet line" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		ms_pw_state *s = (ms_pw_state *)1;
		int rc = ms_pw_state_parse(f->ctx, &s, cases[i].text, "fixture");
		if (rc != cases[i].rc || !strstr(ms_ctx_last_error(f->ctx), cases[i].msg))
			fail_msg("case %zu: rc %d (%s), expected %d '%s'", i, rc, ms_ctx_last_error(f->ctx), cases[i].rc,
				 cases[i].msg);
		assert_null(s);
	}
	ms_pw_state *s = NULL;
	assert_int_equal(ms_pw_state_load(f->ctx, &s, "/nonexistent/map.txt"), MS_EIO);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "/nonexistent/map.txt"));
}

static void test_pw_parse__comments_blanks_tabs_and_crlf(void **state)
{
	fx *f = *state;
	ms_pw_state *s = parse(f, "# Example map\r\n\r\nP 0    0    1 34 2  # home\r\nP 7\t9 2 34 2\nP 3.14 2.71 0 15 5\n"
				  "F 1 15 0 1 12 2\nF 2 28 1 2  8 4\n");
	assert_int_equal(ms_pw_num_planets(s), 3);
	assert_int_equal(ms_pw_num_fleets(s), 2);
	assert_int_equal(ms_pw_fleet_at(s, 1)->ships, 28);
	assert_int_equal(ms_pw_planet_at(s, 2)->growth, 5);
	ms_pw_state_free(s);
}

static void test_pw_orders__lines_and_go(void **state)
{
	fx *f = *state;
	ms_pw_order o;
	int go;
	assert_int_equal(ms_pw_order_parse(f->ctx, "1 17 50\n", "bot", &o, &go), MS_OK);
	assert_int_equal(go, 0);
	assert_int_equal(o.source, 1);
	assert_int_equal(o.dest, 17);
	assert_int_equal(o.ships, 50);
	assert_int_equal(ms_pw_order_parse(f->ctx, " go \r\n", "bot", &o, &go), MS_OK);
	assert_int_equal(go, 1);
	assert_int_equal(ms_pw_order_parse(f->ctx, "1 17", "bot", &o, &go), MS_EPARSE);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "bot: '1 17'"));
	assert_int_equal(ms_pw_order_parse(f->ctx, "1 17 x", "bot", &o, &go), MS_EPARSE);
	assert_int_equal(ms_pw_order_parse(f->ctx, "1 17 5 5", "bot", &o, &go), MS_EPARSE);
	assert_int_equal(ms_pw_order_parse(f->ctx, "1.5 17 5", "bot", &o, &go), MS_EPARSE);
	assert_int_equal(ms_pw_order_parse(f->ctx, "", "bot", &o, &go), MS_EPARSE);
}

static void test_pw_winner__turn_limit_is_more_than_max_steps(void **state)
{
	fx *f = *state;
	ms_pw_state *s = parse(f, "P 0 0 1 10 1\nP 3 4 2 10 1\n");
	for (int t = 1; t <= 3; t++) {
		ms_pw_step(s);
		assert_int_equal(ms_pw_winner(s, 3), -1);
	}
	ms_pw_step(s); /* step 4 > 3: equal ships, a draw */
	assert_int_equal(ms_pw_winner(s, 3), 0);
	assert_int_equal(ms_pw_issue(f->ctx, s, 2, 1, 0, 1), MS_OK); /* the fleet still counts */
	assert_int_equal(ms_pw_winner(s, 3), 0);
	ms_pw_state_free(s);
	s = parse(f, "P 0 0 1 10 1\nP 3 4 2 9 1\n");
	for (int t = 0; t < 4; t++)
		ms_pw_step(s);
	assert_int_equal(ms_pw_winner(s, 3), 1);
	ms_pw_state_free(s);
}

static void test_pw_winner__elimination_ends_the_game(void **state)
{
	fx *f = *state;
	ms_pw_state *s = parse(f, "P 0 0 1 10 1\nP 3 4 0 10 1\n");
	assert_int_equal(ms_pw_winner(s, 200), 1);
	ms_pw_state_free(s);
	s = parse(f, "P 0 0 0 10 1\nP 3 4 0 10 1\nF 2 0 0 1 5 3\n"); /* an empty fleet keeps player 2 alive */
	assert_int_equal(ms_pw_winner(s, 200), 2);
	ms_pw_state_free(s);
	s = parse(f, "P 0 0 0 10 1\nP 3 4 0 10 1\n");
	assert_int_equal(ms_pw_winner(s, 200), 0);
	ms_pw_state_free(s);
}

static void test_pw_view__owners_swapped_and_coordinates_as_java_prints(void **state)
{
	fx *f = *state;
	/* Java's %f rounds the shortest decimal half up: 1.0000005 -> 1.000001 (C's %f: 1.000000) */
	ms_pw_state *s = parse(f, "P 1.0000005 0.0000005 1 10 2\nP 11.6135908004 2 2 7 3\nP 5 5 0 4 1\nF 2 3 1 0 9 4\n");
	char buf[512];
	size_t n = ms_pw_format_view(s, 2, buf, sizeof buf);
	assert_int_equal(n, strlen(buf));
	assert_string_equal(buf, "P 1.000001 0.000001 2 10 2\nP 11.613591 2.000000 1 7 3\nP 5.000000 5.000000 0 4 1\n"
				 "F 1 3 1 0 9 4\ngo\n");
	assert_int_equal(ms_pw_format_view(s, 2, buf, 8), n); /* truncated, length still reported */
	ms_pw_state *v = NULL;
	assert_int_equal(ms_pw_make_view(f->ctx, s, 2, &v), MS_OK);
	assert_int_equal(OWNER(v, 0), 2);
	assert_int_equal(OWNER(v, 1), 1);
	assert_int_equal(ms_pw_fleet_at(v, 0)->owner, 1);
	assert_true(ms_pw_planet_at(v, 0)->x == 1.000001);
	/* the view is what a bot gets by parsing the text */
	ms_pw_format_view(s, 2, buf, sizeof buf);
	buf[n - 3] = 0; /* the state without its "go" */
	ms_pw_state *p = parse(f, buf);
	for (int i = 0; i < 3; i++) {
		assert_memory_equal(ms_pw_planet_at(p, i), ms_pw_planet_at(v, i), sizeof(ms_pw_planet));
		for (int j = 0; j < 3; j++)
			assert_int_equal(ms_pw_distance(p, i, j), ms_pw_distance(v, i, j));
	}
	ms_pw_state_free(p);
	ms_pw_state_free(v);
	ms_pw_state_free(s);
}

static int bad_turn(ms_ctx *ctx, void *ud, const ms_pw_state *v, ms_pw_orders *out)
{
	return ms_pw_orders_add(out, 1, 0, 1); /* player 1's view: planet 1 is the enemy's */
}

static int wild_turn(ms_ctx *ctx, void *ud, const ms_pw_state *v, ms_pw_orders *out)
{
	return ms_pw_orders_add(out, 0, 5, 1); /* no planet 5 */
}

static int idle_turn(ms_ctx *ctx, void *ud, const ms_pw_state *v, ms_pw_orders *out)
{
	return MS_OK;
}

static void test_pw_play__illegal_order_forfeits(void **state)
{
	fx *f = *state;
	ms_pw_state *s = parse(f, "P 0 0 1 10 1\nP 3 4 2 10 1\n");
	ms_pw_bot bad = { "bad", NULL, bad_turn, NULL }, wild = { "wild", NULL, wild_turn, NULL }, idle = { "idle", NULL, idle_turn, NULL };
	ms_pw_result r;
	assert_int_equal(ms_pw_play(f->ctx, s, &bad, &idle, 200, NULL, NULL, &r), MS_OK);
	assert_int_equal(r.winner, 2);
	assert_int_equal(r.forfeit, 1);
	assert_int_equal(r.turns, 0);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "not the player's"));
	assert_int_equal(ms_pw_play(f->ctx, s, &wild, &wild, 200, NULL, NULL, &r), MS_OK);
	assert_non_null(strstr(ms_ctx_last_error(f->ctx), "outside"));
	assert_int_equal(r.winner, 0);
	assert_int_equal(r.forfeit, 3);
	assert_int_equal(ms_pw_play(f->ctx, s, &idle, &idle, 5, NULL, NULL, &r), MS_OK);
	assert_int_equal(r.turns, 6);
	assert_int_equal(r.winner, 0);
	ms_pw_state_free(s);
}

static void test_pw_alloc__failures_are_reported_not_fatal(void **state)
{
	(void)state;
	for (long n = 1; n < 40; n++) {
		ms_test_alloc t = { 0, 0, 0 };
		ms_allocator a;
		ms_ctx *ctx = ms_test_ctx_with(&t, &a);
		t.fail_at = n + t.calls;
		ms_pw_state *s = NULL, *c = NULL;
		int rc = ms_pw_state_parse(ctx, &s, "P 0 0 1 10 1\nP 3 4 2 10 1\nF 1 2 0 1 5 5\n", "f");
		if (!rc)
			rc = ms_pw_state_clone(ctx, &c, s);
		if (!rc)
			rc = ms_pw_issue(ctx, c, 1, 0, 1, 3);
		assert_true(rc == MS_OK || rc == MS_ENOMEM);
		ms_pw_state_free(c);
		ms_pw_state_free(s);
		ms_ctx_free(ctx);
		assert_int_equal(t.live, 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_pw_battle__three_forces_largest_keeps_margin_over_second, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pw_battle__tie_of_top_two_keeps_owner_with_zero, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pw_step__growth_before_battle_and_only_for_players, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pw_issue__fleet_takes_ceil_distance_and_lands_after_it, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pw_issue__bad_orders_are_refused_with_reason, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pw_parse__bad_lines_name_the_input_and_line, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pw_parse__comments_blanks_tabs_and_crlf, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pw_orders__lines_and_go, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pw_winner__turn_limit_is_more_than_max_steps, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pw_winner__elimination_ends_the_game, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pw_view__owners_swapped_and_coordinates_as_java_prints, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pw_play__illegal_order_forfeits, setup, teardown),
		cmocka_unit_test(test_pw_alloc__failures_are_reported_not_fatal),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
