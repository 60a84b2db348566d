/*
 * The official playback reader (games/planetwars/playback.c): turns read,
 * malformed entries named by file and turn, a failed allocation at any
 * point, and the turn-by-turn check finding a changed planet, a changed
 * fleet and a game that goes on past the playback.
 */
#include "support/testutil.h"

#include <stdio.h>

#include "microsynth/planetwars.h"

static const char map_text[] = "P 0 0 1 40 5\nP 3 4 2 30 5\n";

/* Turn 1: no fleets; turn 2: player 1 has sent 10 ships from planet 0 (empty items and entries are skipped). */
static const char playback[] = "0,0,1,40,5:3,4,2,30,5|1.45,2.35:\n1.40,,2.40,1.10.0.1.5.4::";

/* The map after two steps, with 10 ships sent from planet 0 before the second when `send`. */
static ms_pw_state *two_steps(ms_ctx *ctx, int send)
{
	ms_pw_state *s;
	assert_int_equal(ms_pw_state_parse(ctx, &s, map_text, "map"), MS_OK);
	ms_pw_step(s);
	if (send)
		assert_int_equal(ms_pw_issue(ctx, s, 1, 0, 1, 10), MS_OK);
	ms_pw_step(s);
	return s;
}

static void test_pw_playback__checks_every_turn_and_names_the_first_difference(void **state)
{
	ms_ctx *ctx;
	ms_pw_state *s;
	ms_pw_playback *pb, *other;
	char msg[256];
	static const char other_fleet[] = "x|1.45,2.35:1.40,2.40,1.10.0.1.5.3";
	(void)state;

	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_pw_playback_parse(ctx, &pb, playback, sizeof playback - 1, 2, "g"), MS_OK);
	assert_int_equal(ms_pw_playback_turns(pb), 2);
	s = two_steps(ctx, 0);
	assert_int_equal(ms_pw_playback_check(ctx, pb, 1, s, msg, sizeof msg), 1);
	assert_string_equal(msg, "turn 2: planet 0 official 1.40 native 1.50");
	ms_pw_state_free(s);

	s = two_steps(ctx, 1);
	assert_int_equal(ms_pw_playback_check(ctx, pb, 1, s, msg, sizeof msg), 0);
	assert_int_equal(ms_pw_playback_check(ctx, pb, 2, s, msg, sizeof msg), 1);
	assert_string_equal(msg, "turn 3: native game goes on, the playback has 2 turns");
	assert_int_equal(ms_pw_playback_parse(ctx, &other, other_fleet, sizeof other_fleet - 1, 2, "h"), MS_OK);
	assert_int_equal(ms_pw_playback_check(ctx, other, 1, s, msg, sizeof msg), 1);
	assert_string_equal(msg, "turn 2: fleets differ (official 1, native 1); first difference: official "
				 "1.10.0.1.5.3 native 1.10.0.1.5.4");
	ms_pw_playback_free(other);
	ms_pw_state_free(s);
	ms_pw_playback_free(pb);
	ms_ctx_free(ctx);
}

static void test_pw_playback__malformed_text_names_file_and_turn(void **state)
{
	static const struct {
		const char *text, *error;
	} bad[] = {
		{ "1.45,2.35", "g: no '|' in the playback" },
		{ "|1.45,x", "g: turn 1: planet item 'x' is not owner.ships" },
		{ "|1.45,2.35,1.2.3", "g: turn 1: fleet item '1.2.3' is not six numbers" },
		{ "|1.45,2.35:1.45", "g: turn 2: 1 planets, the map has 2" },
	};
	ms_ctx *ctx;
	ms_pw_playback *pb = (ms_pw_playback *)&pb;
	(void)state;

	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		assert_int_equal(ms_pw_playback_parse(ctx, &pb, bad[i].text, strlen(bad[i].text), 2, "g"), MS_EPARSE);
		assert_null(pb);
		assert_string_equal(ms_ctx_last_error(ctx), bad[i].error);
	}
	ms_ctx_free(ctx);
}

static void test_pw_playback__failed_allocation_anywhere_is_an_error_without_leaks(void **state)
{
	ms_test_alloc t = { 0 };
	ms_allocator a;
	ms_pw_playback *pb;
	int rc = MS_ENOMEM;
	(void)state;

	for (long n = 1; rc == MS_ENOMEM; n++) {
		t = (ms_test_alloc){ 0 };
		ms_ctx *ctx = ms_test_ctx_with(&t, &a);
		assert_non_null(ctx);
		t.fail_at = t.calls + n;
		rc = ms_pw_playback_parse(ctx, &pb, playback, sizeof playback - 1, 2, "g");
		assert_true(rc == MS_OK || rc == MS_ENOMEM);
		if (rc == MS_OK)
			assert_int_equal(ms_pw_playback_turns(pb), 2);
		ms_pw_playback_free(pb);
		ms_ctx_free(ctx);
		assert_int_equal(t.live, 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pw_playback__checks_every_turn_and_names_the_first_difference),
		cmocka_unit_test(test_pw_playback__malformed_text_names_file_and_turn),
		cmocka_unit_test(test_pw_playback__failed_allocation_anywhere_is_an_error_without_leaks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
