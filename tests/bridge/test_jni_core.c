/*
 * The JNI bot's native half (games/microrts/bridge/jni/jni_ai.c) without a JVM:
 * decisions through the packed arrays equal the bot's own decisions on the
 * engine's state over whole matches, and every malformed array, table or
 * spec is refused with a message while the handle stays usable.
 */
#include "support/testutil.h"

#include <stdio.h>

#include "microsynth/match.h"
#include "microsynth/bots.h"
#include "microsynth/microrts.h"
#include "jni_testpack.h"

#ifndef JNI_TEST_DIR
#define JNI_TEST_DIR "."
#endif
#define MAP8 JNI_TEST_DIR "/jni_map8x8.xml"

typedef struct fixture {
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_rts_state *s;
	int32_t *table;
	int table_len;
	const char *names[MS_RTS_MAX_TYPES];
	int n_names;
} fixture;

static void fixture_init(fixture *f, int version, const char *map)
{
	memset(f, 0, sizeof(*f));
	assert_int_equal(ms_ctx_new(&f->ctx, NULL), MS_OK);
	assert_int_equal(ms_rts_utt_new(f->ctx, &f->utt, version, MS_RTS_CONFLICT_CANCEL_BOTH), MS_OK);
	if (ms_rts_state_load_map(f->ctx, &f->s, f->utt, map, 0))
		fail_msg("%s", ms_ctx_last_error(f->ctx));
	f->table = jt_pack_table(f->utt, &f->table_len, f->names);
	assert_non_null(f->table);
	f->n_names = ms_rts_utt_count(f->utt);
}

static void fixture_dispose(fixture *f)
{
	free(f->table);
	ms_rts_state_free(f->s);
	ms_rts_utt_free(f->utt);
	ms_ctx_free(f->ctx);
}

static ms_jni_ai *new_ai(fixture *f, const char *spec)
{
	ms_jni_ai *ai = NULL;
	char err[512];
	int8_t *t = jt_pack_terrain(f->s);

	if (ms_jni_ai_new(&ai, spec, f->table, f->table_len, f->names, f->n_names, 0, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(ms_jni_ai_set_map(ai, ms_rts_state_width(f->s), ms_rts_state_height(f->s), t), MS_OK);
	free(t);
	return ai;
}

/* Decides through the arrays and checks the reply against `want` (the bot's own). */
static void expect_same_reply(ms_jni_ai *ai, const ms_rts_state *s, int player, const ms_rts_pair *want, int n)
{
	static int32_t in[1 << 16], out[1 << 14];
	int len = jt_pack_state(s, in, (int)(sizeof(in) / sizeof(in[0])));
	int got;

	assert_true(len > 0);
	got = ms_jni_ai_decide(ai, player, in, len, out, (int)(sizeof(out) / sizeof(out[0])));
	if (got < 0)
		fail_msg("cycle %d: %s", ms_rts_state_time(s), ms_jni_ai_error(ai));
	assert_int_equal(got, n);
	for (int i = 0; i < n; i++) {
		const int32_t *o = out + i * MS_JNI_PAIR_INTS;
		ms_rts_unit u;
		assert_int_equal(ms_rts_state_unit(s, o[0], &u), MS_OK);
		assert_int_equal(u.id, want[i].unit.id);
		assert_int_equal(o[1], want[i].action.type);
		assert_int_equal(o[2], want[i].action.parameter);
		if (want[i].action.type == MS_RTS_ATTACK) {
			assert_int_equal(o[3], want[i].action.x);
			assert_int_equal(o[4], want[i].action.y);
		}
		assert_int_equal(o[5], want[i].action.unit_type);
	}
}

/* Plays bots[0] vs bots[1] natively; handles j0/j1 (same specs) decide on
 * the packed copy of every state and must answer as the bots do. */
static void play_both_ways(const char *map, int version, const char *p0, const char *p1, int max_cycles)
{
	fixture f;
	ms_bot *bot[2];
	ms_jni_ai *j[2];
	ms_rts_pair *pairs[2];
	int n[2], cells, over = 0;

	fixture_init(&f, version, map);
	cells = ms_rts_state_width(f.s) * ms_rts_state_height(f.s);
	for (int p = 0; p < 2; p++) {
		const char *spec = p ? p1 : p0;
		assert_int_equal(ms_bot_make(f.ctx, &bot[p], spec, f.utt, 0), MS_OK);
		assert_int_equal(ms_bot_reset(bot[p]), MS_OK);
		j[p] = new_ai(&f, spec);
		pairs[p] = calloc((size_t)cells, sizeof(ms_rts_pair));
		assert_non_null(pairs[p]);
	}
	while (!over && ms_rts_state_time(f.s) < max_cycles) {
		for (int p = 0; p < 2; p++) {
			assert_int_equal(ms_bot_decide(bot[p], p, f.s, pairs[p], cells, &n[p]), MS_OK);
			expect_same_reply(j[p], f.s, p, pairs[p], n[p]);
		}
		for (int p = 0; p < 2; p++)
			if (n[p] && ms_rts_issue_safe(f.ctx, f.s, pairs[p], n[p], NULL))
				fail_msg("%s", ms_ctx_last_error(f.ctx));
		assert_int_equal(ms_rts_cycle(f.ctx, f.s, &over), MS_OK);
	}
	assert_true(ms_rts_state_time(f.s) > 50); /* a real match was compared */
	for (int p = 0; p < 2; p++) {
		int64_t decisions, dropped;
		ms_jni_ai_counters(j[p], &decisions, &dropped);
		assert_int_equal(dropped, 0);
		assert_int_equal(decisions, ms_rts_state_time(f.s));
		ms_jni_ai_free(j[p]);
		ms_bot_free(bot[p]);
		free(pairs[p]);
	}
	fixture_dispose(&f);
}

static void test_jni__lightrush_vs_workerrush_decides_as_the_bot_on_every_state(void **state)
{
	(void)state;
	play_both_ways(MAP8, 2, "LightRush", "WorkerRush", 3000);
}

static void test_jni__heavy_and_ranged_on_table_1_decide_as_the_bots(void **state)
{
	(void)state;
	play_both_ways(MAP8, 1, "HeavyRush", "RangedRush", 3000);
}

static void test_jni__workerrush_self_play_on_table_3_decides_as_the_bot(void **state)
{
	(void)state;
	play_both_ways(MAP8, 3, "WorkerRush", "WorkerRush", 1500);
}

/* ms_jni_ai_new with a table edited by `edit`: must fail with `want` in the message. */
static void expect_new_fails(fixture *f, const char *spec, void (*edit)(int32_t *t, int *len, const char **names,
									  int *n_names),
			     const char *want)
{
	int32_t *t = malloc((size_t)(f->table_len + 64) * sizeof(*t));
	const char *names[MS_RTS_MAX_TYPES + 2];
	int len = f->table_len, n = f->n_names;
	ms_jni_ai *ai = NULL;
	char err[512];

	assert_non_null(t);
	memcpy(t, f->table, (size_t)len * sizeof(*t));
	memcpy(names, f->names, sizeof(f->names));
	if (edit)
		edit(t, &len, names, &n);
	assert_true(ms_jni_ai_new(&ai, spec, t, len, names, n, 0, err, sizeof(err)) < 0);
	assert_null(ai);
	if (!strstr(err, want))
		fail_msg("message '%s' lacks '%s'", err, want);
	free(t);
}

static void edit_version(int32_t *t, int *len, const char **names, int *n) { t[0] = 99; }
static void edit_no_types(int32_t *t, int *len, const char **names, int *n) { t[2] = 0; }
static void edit_many_types(int32_t *t, int *len, const char **names, int *n) { t[2] = MS_RTS_MAX_TYPES + 1; }
static void edit_names(int32_t *t, int *len, const char **names, int *n) { (*n)--; }
static void edit_long_name(int32_t *t, int *len, const char **names, int *n)
{
	names[1] = "ThisUnitTypeNameIsFarTooLongForTheTable";
}
static void edit_cut(int32_t *t, int *len, const char **names, int *n) { *len -= 5; }
static void edit_header_only(int32_t *t, int *len, const char **names, int *n) { *len = 2; }
static void edit_extra(int32_t *t, int *len, const char **names, int *n) { t[(*len)++] = 7; }
/* Type 0 (Resource) produces nothing: its produces count is t[3 + 18]. */
static void edit_bad_produces(int32_t *t, int *len, const char **names, int *n)
{
	memmove(t + 23, t + 22, (size_t)(*len - 22) * sizeof(*t));
	t[21] = 1;
	t[22] = 12;
	(*len)++;
}
static void edit_negative_cost(int32_t *t, int *len, const char **names, int *n) { t[3 + 1] = -4; }
static void edit_inverted_damage(int32_t *t, int *len, const char **names, int *n) { t[3 + 3] = 9; }
static void edit_id(int32_t *t, int *len, const char **names, int *n) { t[3] = 3; }
static void edit_huge_list(int32_t *t, int *len, const char **names, int *n) { t[21] = 1000; }
static void edit_dup_name(int32_t *t, int *len, const char **names, int *n) { names[2] = names[1]; }

static void test_jni__malformed_tables_and_specs_are_refused_with_a_message(void **state)
{
	fixture f;

	(void)state;
	fixture_init(&f, 2, MAP8);
	expect_new_fails(&f, "LightRush", edit_version, "pack version 99");
	expect_new_fails(&f, "LightRush", edit_no_types, "0 types");
	expect_new_fails(&f, "LightRush", edit_many_types, "17 types");
	expect_new_fails(&f, "LightRush", edit_names, "but 6 names");
	expect_new_fails(&f, "LightRush", edit_long_name, "longer than");
	expect_new_fails(&f, "LightRush", edit_cut, "unit type table");
	expect_new_fails(&f, "LightRush", edit_header_only, "header alone");
	expect_new_fails(&f, "LightRush", edit_extra, "1 ints left over");
	expect_new_fails(&f, "LightRush", edit_bad_produces, "produces unknown type id 12");
	expect_new_fails(&f, "LightRush", edit_negative_cost, "negative or inverted");
	expect_new_fails(&f, "LightRush", edit_inverted_damage, "negative or inverted");
	expect_new_fails(&f, "LightRush", edit_id, "has ID 3");
	expect_new_fails(&f, "LightRush", edit_huge_list, "bad produces list");
	expect_new_fails(&f, "LightRush", edit_dup_name, "appears twice");
	expect_new_fails(&f, "NoSuchBot", NULL, "no native bot called \"NoSuchBot\"");
	expect_new_fails(&f, "", NULL, "empty bot spec");
	fixture_dispose(&f);
}

/* A valid decision on the fixture's state still works. */
static void expect_decides(ms_jni_ai *ai, const ms_rts_state *s)
{
	int32_t in[4096], out[1024];
	int len = jt_pack_state(s, in, 4096);

	if (ms_jni_ai_decide(ai, 0, in, len, out, 1024) < 0)
		fail_msg("%s", ms_jni_ai_error(ai));
}

static void expect_decide_fails(ms_jni_ai *ai, int player, const int32_t *in, int len, const char *want)
{
	int32_t out[1024];

	assert_true(ms_jni_ai_decide(ai, player, in, len, out, 1024) < 0);
	if (!strstr(ms_jni_ai_error(ai), want))
		fail_msg("message '%s' lacks '%s'", ms_jni_ai_error(ai), want);
}

static void test_jni__malformed_states_are_refused_and_the_handle_recovers(void **state)
{
	fixture f;
	ms_jni_ai *ai;
	int32_t base[4096], in[4096];
	int len, u0 = MS_JNI_STATE_HEADER, last;

	(void)state;
	fixture_init(&f, 2, MAP8);
	ai = new_ai(&f, "WorkerRush");
	len = jt_pack_state(f.s, base, 4096);
	last = u0 + (base[3] - 1) * MS_JNI_UNIT_INTS; /* player 1's worker */

#define CASE(setup, player, n, want)                    \
	do {                                            \
		memcpy(in, base, sizeof(in));           \
		setup;                                  \
		expect_decide_fails(ai, player, in, n, want); \
		expect_decides(ai, f.s);                \
	} while (0)

	CASE((void)0, 2, len, "player 2");
	CASE((void)0, 0, 3, "header alone");
	CASE(in[3] = 500, 0, len, "do not fit");
	CASE(in[3] = -1, 0, len, "do not fit");
	CASE(in[4] = 3, 0, len, "do not fit");
	CASE(in[0] = -5, 0, len, "time -5");
	CASE(in[last + 4] = 8, 0, len, "outside the 8x8 map");
	CASE(in[last + 5] = -1, 0, len, "outside the 8x8 map");
	CASE((in[last + 4] = in[u0 + 4], in[last + 5] = in[u0 + 5]), 0, len, "already holds");
	CASE(in[last] = 7, 0, len, "unknown type 7");
	CASE(in[last + 1] = 3, 0, len, "player 3");
	/* pending actions: append one, and a second for the same unit */
	{
		int p = len;
		int32_t pend[MS_JNI_PENDING_INTS] = { in[last + 4], in[last + 5], in[last + 2], in[last + 3], 0,
						      MS_RTS_MOVE, MS_RTS_LEFT, -1, -1, -1 };
		CASE((memcpy(in + p, pend, sizeof(pend)), in[4] = 1, in[p + 5] = 9), 0, len + MS_JNI_PENDING_INTS,
		     "unknown action type 9");
		CASE((memcpy(in + p, pend, sizeof(pend)), in[4] = 1, in[p + 5] = MS_RTS_PRODUCE), 0,
		     len + MS_JNI_PENDING_INTS, "unit type -1 is not in the table");
		CASE((memcpy(in + p, pend, sizeof(pend)), in[4] = 1, in[p + 4] = 50), 0, len + MS_JNI_PENDING_INTS,
		     "issued at cycle 50");
		CASE((memcpy(in + p, pend, sizeof(pend)), memcpy(in + p + MS_JNI_PENDING_INTS, pend, sizeof(pend)),
		      in[4] = 2),
		     0, len + 2 * MS_JNI_PENDING_INTS, "already has one");
		/* A pending action of a unit the view does not show is ignored. */
		memcpy(in, base, sizeof(in));
		memcpy(in + p, pend, sizeof(pend));
		in[4] = 1;
		in[p + 2] = 999;
		in[p] = 4;
		in[p + 1] = 4;
		{
			int32_t out[1024];
			if (ms_jni_ai_decide(ai, 0, in, len + MS_JNI_PENDING_INTS, out, 1024) < 0)
				fail_msg("%s", ms_jni_ai_error(ai));
		}
	}
#undef CASE
	ms_jni_ai_free(ai);
	fixture_dispose(&f);
}

static void test_jni__maps_must_come_first_and_be_sane(void **state)
{
	fixture f;
	ms_jni_ai *ai;
	int32_t in[4096], out[1024];
	int8_t terrain[64] = { 0 };
	int len;
	char err[256];

	(void)state;
	fixture_init(&f, 2, MAP8);
	assert_int_equal(ms_jni_ai_new(&ai, "LightRush", f.table, f.table_len, f.names, f.n_names, 0, err, sizeof(err)),
			 MS_OK);
	len = jt_pack_state(f.s, in, 4096);
	expect_decide_fails(ai, 0, in, len, "no map");
	assert_true(ms_jni_ai_set_map(ai, 0, 8, terrain) < 0);
	assert_non_null(strstr(ms_jni_ai_error(ai), "map size 0x8"));
	assert_true(ms_jni_ai_set_map(ai, 300, 8, terrain) < 0);
	assert_int_equal(ms_jni_ai_set_map(ai, 8, 8, terrain), MS_OK);
	assert_true(ms_jni_ai_decide(ai, 0, in, len, out, 1024) >= 0);
	/* game over frees the per-game state: the next game sends its map again */
	assert_int_equal(ms_jni_ai_game_over(ai, 0), MS_OK);
	expect_decide_fails(ai, 0, in, len, "no map");
	/* a smaller map: the units of the 8x8 state no longer fit */
	assert_int_equal(ms_jni_ai_set_map(ai, 4, 4, terrain), MS_OK);
	expect_decide_fails(ai, 0, in, len, "outside the 4x4 map");
	assert_int_equal(ms_jni_ai_set_map(ai, 8, 8, terrain), MS_OK);
	assert_true(ms_jni_ai_decide(ai, 0, in, len, out, 1024) >= 0);
	ms_jni_ai_free(ai);
	fixture_dispose(&f);
}

static void test_jni__table_and_bot_can_be_replaced_and_failures_keep_the_old_ones(void **state)
{
	fixture f1, f2;
	ms_jni_ai *ai;
	int32_t bad[8] = { MS_JNI_PACK_VERSION, 1, 1, 0 };
	const char *one[1] = { "Solo" };

	(void)state;
	fixture_init(&f1, 1, MAP8);
	fixture_init(&f2, 2, MAP8);
	ai = new_ai(&f1, "LightRush");
	assert_int_equal(ms_jni_ai_set_table(ai, f2.table, f2.table_len, f2.names, f2.n_names), MS_OK);
	expect_decides(ai, f2.s);
	assert_true(ms_jni_ai_set_table(ai, bad, 4, one, 1) < 0);
	expect_decides(ai, f2.s);
	assert_true(ms_jni_ai_set_bot(ai, "NoSuchBot") < 0);
	assert_non_null(strstr(ms_jni_ai_error(ai), "NoSuchBot"));
	assert_string_equal(ms_jni_ai_bot_name(ai), "LightRush");
	assert_int_equal(ms_jni_ai_set_bot(ai, "HeavyRush"), MS_OK);
	assert_string_equal(ms_jni_ai_bot_name(ai), "HeavyRush");
	expect_decides(ai, f2.s);
	assert_int_equal(ms_jni_ai_reset(ai), MS_OK);
	ms_jni_ai_free(ai);
	fixture_dispose(&f1);
	fixture_dispose(&f2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jni__lightrush_vs_workerrush_decides_as_the_bot_on_every_state),
		cmocka_unit_test(test_jni__heavy_and_ranged_on_table_1_decide_as_the_bots),
		cmocka_unit_test(test_jni__workerrush_self_play_on_table_3_decides_as_the_bot),
		cmocka_unit_test(test_jni__malformed_tables_and_specs_are_refused_with_a_message),
		cmocka_unit_test(test_jni__malformed_states_are_refused_and_the_handle_recovers),
		cmocka_unit_test(test_jni__maps_must_come_first_and_be_sane),
		cmocka_unit_test(test_jni__table_and_bot_can_be_replaced_and_failures_keep_the_old_ones),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
