/*
 * rts_import.h: engine objects from plain values. Tables and states built
 * field by field equal the ones the readers build (same JSON bytes), play
 * on identically, and every bad value is refused with a message.
 */
#include "support/testutil.h"

#include <stdio.h>

#include "microsynth/match.h"
#include "microsynth/bots.h"
#include "microsynth/microrts.h"
#include "microsynth/rts_import.h"

#ifndef JNI_TEST_DIR
#define JNI_TEST_DIR "."
#endif
#define MAP8 JNI_TEST_DIR "/jni_map8x8.xml"

static char *json_of(ms_ctx *ctx, const ms_rts_state *s)
{
	char *j = NULL;

	if (ms_rts_state_to_json(ctx, &j, s, MS_RTS_JSON_CONSTANTS))
		fail_msg("%s", ms_ctx_last_error(ctx));
	return j;
}

static void expect_error(ms_ctx *ctx, int rc, const char *want)
{
	assert_true(rc < 0);
	if (!strstr(ms_ctx_last_error(ctx), want))
		fail_msg("message '%s' lacks '%s'", ms_ctx_last_error(ctx), want);
}

static void test_import__official_tables_rebuild_to_the_same_json(void **state)
{
	ms_ctx *ctx;

	(void)state;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	for (int v = 1; v <= 3; v++) {
		ms_rts_utt *a, *b;
		ms_rts_unit_type types[MS_RTS_MAX_TYPES];
		char *ja, *jb;
		int n;

		assert_int_equal(ms_rts_utt_new(ctx, &a, v, v), MS_OK);
		n = ms_rts_utt_count(a);
		for (int i = 0; i < n; i++)
			types[i] = *ms_rts_utt_type(a, i);
		if (ms_rts_utt_from_types(ctx, &b, types, n, v, v))
			fail_msg("%s", ms_ctx_last_error(ctx));
		assert_int_equal(ms_rts_utt_to_json(ctx, &ja, a), MS_OK);
		assert_int_equal(ms_rts_utt_to_json(ctx, &jb, b), MS_OK);
		assert_string_equal(ja, jb);
		assert_int_equal(ms_rts_utt_max_attack_range(b), 3);
		ms_ctx_mfree(ctx, ja);
		ms_ctx_mfree(ctx, jb);
		ms_rts_utt_free(a);
		ms_rts_utt_free(b);
	}
	ms_ctx_free(ctx);
}

static void test_import__bad_types_are_refused(void **state)
{
	ms_ctx *ctx;
	ms_rts_utt *a, *b = NULL;
	ms_rts_unit_type t[MS_RTS_MAX_TYPES];
	int n;

	(void)state;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_rts_utt_new(ctx, &a, 2, 1), MS_OK);
	n = ms_rts_utt_count(a);
#define RESET() for (int i = 0; i < n; i++) t[i] = *ms_rts_utt_type(a, i)
	RESET();
	expect_error(ctx, ms_rts_utt_from_types(ctx, &b, t, 0, 2, 1), "0 types");
	expect_error(ctx, ms_rts_utt_from_types(ctx, &b, t, MS_RTS_MAX_TYPES + 1, 2, 1), "17 types");
	t[2].id = 5;
	expect_error(ctx, ms_rts_utt_from_types(ctx, &b, t, n, 2, 1), "has ID 5");
	RESET();
	memset(t[1].name, 'x', sizeof(t[1].name));
	expect_error(ctx, ms_rts_utt_from_types(ctx, &b, t, n, 2, 1), "name longer than");
	RESET();
	t[1].produces[0] = n;
	expect_error(ctx, ms_rts_utt_from_types(ctx, &b, t, n, 2, 1), "produces unknown type id 7");
	RESET();
	t[3].produced_by[0] = -1;
	expect_error(ctx, ms_rts_utt_from_types(ctx, &b, t, n, 2, 1), "produced by unknown type id -1");
	RESET();
	t[1].n_produces = 40;
	expect_error(ctx, ms_rts_utt_from_types(ctx, &b, t, n, 2, 1), "40 produces");
	RESET();
	t[4].move_time = -1;
	expect_error(ctx, ms_rts_utt_from_types(ctx, &b, t, n, 2, 1), "duration");
	RESET();
	t[4].hp = -1;
	expect_error(ctx, ms_rts_utt_from_types(ctx, &b, t, n, 2, 1), "negative");
	RESET();
	snprintf(t[5].name, sizeof(t[5].name), "%s", t[4].name);
	expect_error(ctx, ms_rts_utt_from_types(ctx, &b, t, n, 2, 1), "appears twice");
	expect_error(ctx, ms_rts_utt_from_types(ctx, &b, NULL, 3, 2, 1), "3 types");
#undef RESET
	assert_null(b);
	ms_rts_utt_free(a);
	ms_ctx_free(ctx);
}

/* `s` rebuilt through the import API into `c` (made for its map size). */
static void rebuild(ms_ctx *ctx, ms_rts_state *c, const ms_rts_state *s)
{
	assert_int_equal(ms_rts_state_reset_dynamic(ctx, c, ms_rts_state_time(s), ms_rts_state_resources(s, 0),
						    ms_rts_state_resources(s, 1)),
			 MS_OK);
	for (int i = 0; i < ms_rts_state_unit_count(s); i++) {
		ms_rts_unit u;
		int at;
		ms_rts_state_unit(s, i, &u);
		if (ms_rts_state_add_unit(ctx, c, &u, &at))
			fail_msg("%s", ms_ctx_last_error(ctx));
		assert_int_equal(at, i);
	}
	for (int k = 0; k < ms_rts_state_assignment_count(s); k++) {
		ms_rts_action a;
		int ui, t;
		ms_rts_state_assignment(s, k, &ui, &a, &t);
		if (ms_rts_state_add_pending(ctx, c, ui, t, &a))
			fail_msg("%s", ms_ctx_last_error(ctx));
	}
	/* Productions number new units from here; a host sets it when it knows it. */
	ms_rts_state_set_next_id(c, ms_rts_state_next_id(s));
}

static void test_import__states_rebuild_to_the_same_json_and_play_on_identically(void **state)
{
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_rts_state *s, *c = NULL;
	ms_bot *bot[2];
	ms_rts_pair pairs[64];
	uint8_t terrain[64];
	int over = 0, compared = 0;

	(void)state;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_rts_utt_new(ctx, &utt, 2, 1), MS_OK);
	if (ms_rts_state_load_map(ctx, &s, utt, MAP8, 0))
		fail_msg("%s", ms_ctx_last_error(ctx));
	for (int i = 0; i < 64; i++)
		terrain[i] = (uint8_t)ms_rts_state_terrain(s, i % 8, i / 8);
	assert_int_equal(ms_rts_state_new(ctx, &c, utt, 8, 8, terrain, 0), MS_OK);
	assert_int_equal(ms_bot_make(ctx, &bot[0], "LightRush", utt, 0), MS_OK);
	assert_int_equal(ms_bot_make(ctx, &bot[1], "WorkerRush", utt, 0), MS_OK);
	ms_bot_reset(bot[0]);
	ms_bot_reset(bot[1]);
	while (!over && ms_rts_state_time(s) < 3000) {
		for (int p = 0; p < 2; p++) {
			int n;
			assert_int_equal(ms_bot_decide(bot[p], p, s, pairs, 64, &n), MS_OK);
			if (n)
				assert_int_equal(ms_rts_issue_safe(ctx, s, pairs, n, NULL), MS_OK);
		}
		if (ms_rts_state_time(s) % 7 == 0) {
			/* the rebuilt state equals, and runs its pending actions the same way */
			ms_rts_state *a, *b;
			char *ja, *jb;
			rebuild(ctx, c, s);
			assert_int_equal(ms_rts_state_clone(ctx, &a, s), MS_OK);
			assert_int_equal(ms_rts_state_clone(ctx, &b, c), MS_OK);
			for (int k = 0; k < 12; k++) {
				ja = json_of(ctx, a);
				jb = json_of(ctx, b);
				assert_string_equal(ja, jb);
				ms_ctx_mfree(ctx, ja);
				ms_ctx_mfree(ctx, jb);
				assert_int_equal(ms_rts_cycle(ctx, a, NULL), MS_OK);
				assert_int_equal(ms_rts_cycle(ctx, b, NULL), MS_OK);
			}
			ms_rts_state_free(a);
			ms_rts_state_free(b);
			compared++;
		}
		assert_int_equal(ms_rts_cycle(ctx, s, &over), MS_OK);
	}
	assert_true(compared > 10);
	/* Old cells are cleared when a state is rebuilt smaller. */
	assert_int_equal(ms_rts_state_reset_dynamic(ctx, c, 0, 1, 2), MS_OK);
	for (int y = 0; y < 8; y++)
		for (int x = 0; x < 8; x++)
			assert_int_equal(ms_rts_state_unit_at(c, x, y), -1);
	assert_int_equal(ms_rts_state_unit_count(c), 0);
	assert_int_equal(ms_rts_state_assignment_count(c), 0);
	assert_int_equal(ms_rts_gameover(c), 1);
	assert_int_equal(ms_rts_state_resources(c, 1), 2);
	ms_bot_free(bot[0]);
	ms_bot_free(bot[1]);
	ms_rts_state_free(c);
	ms_rts_state_free(s);
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
}

static void test_import__bad_units_and_pending_actions_are_refused(void **state)
{
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_rts_state *c = NULL;
	ms_rts_unit w = { 10, 3, 0, 2, 2, 0, 1 };
	ms_rts_action move = { MS_RTS_MOVE, MS_RTS_UP, -1, -1, -1 };
	int at;

	(void)state;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_rts_utt_new(ctx, &utt, 2, 1), MS_OK);
	expect_error(ctx, ms_rts_state_new(ctx, &c, NULL, 8, 8, NULL, 0), "no unit type table");
	expect_error(ctx, ms_rts_state_new(ctx, &c, utt, 0, 8, NULL, 0), "map size 0x8");
	expect_error(ctx, ms_rts_state_new(ctx, &c, utt, 8, 1000, NULL, 0), "map size 8x1000");
	assert_int_equal(ms_rts_state_new(ctx, &c, utt, 8, 8, NULL, 0), MS_OK);
	expect_error(ctx, ms_rts_state_reset_dynamic(ctx, c, -1, 0, 0), "time -1");
	assert_int_equal(ms_rts_state_reset_dynamic(ctx, c, 5, 0, 0), MS_OK);
	assert_int_equal(ms_rts_state_add_unit(ctx, c, &w, &at), MS_OK);
	assert_int_equal(at, 0);
	assert_int_equal(ms_rts_state_next_id(c), 11);
	expect_error(ctx, ms_rts_state_add_unit(ctx, c, &w, NULL), "already holds unit 10");
	w.x = 9;
	expect_error(ctx, ms_rts_state_add_unit(ctx, c, &w, NULL), "outside the 8x8 map");
	w.x = 3;
	w.player = 2;
	expect_error(ctx, ms_rts_state_add_unit(ctx, c, &w, NULL), "player 2");
	w.player = 1;
	w.type = 9;
	expect_error(ctx, ms_rts_state_add_unit(ctx, c, &w, NULL), "unknown type 9");
	expect_error(ctx, ms_rts_state_add_pending(ctx, c, 1, 0, &move), "unit index 1");
	expect_error(ctx, ms_rts_state_add_pending(ctx, c, 0, 6, &move), "issued at cycle 6");
	move.type = 6;
	expect_error(ctx, ms_rts_state_add_pending(ctx, c, 0, 0, &move), "unknown action type 6");
	move.type = MS_RTS_PRODUCE;
	expect_error(ctx, ms_rts_state_add_pending(ctx, c, 0, 0, &move), "unit type -1");
	move.unit_type = 7;
	expect_error(ctx, ms_rts_state_add_pending(ctx, c, 0, 0, &move), "unit type 7");
	move.type = MS_RTS_NONE;
	move.unit_type = -1;
	move.parameter = -5;
	expect_error(ctx, ms_rts_state_add_pending(ctx, c, 0, 0, &move), "NONE lasts -5");
	move.parameter = 10;
	assert_int_equal(ms_rts_state_add_pending(ctx, c, 0, 5, &move), MS_OK);
	expect_error(ctx, ms_rts_state_add_pending(ctx, c, 0, 5, &move), "already has one");
	assert_int_equal(ms_rts_state_unit_idle(c, 0), 0);
	ms_rts_state_free(c);
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_import__official_tables_rebuild_to_the_same_json),
		cmocka_unit_test(test_import__bad_types_are_refused),
		cmocka_unit_test(test_import__states_rebuild_to_the_same_json_and_play_on_identically),
		cmocka_unit_test(test_import__bad_units_and_pending_actions_are_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
