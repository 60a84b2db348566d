/*
 * Opponent switches (games/microrts/dsl/rts_dsl_switch.c): the text form's
 * errors name the line, a prefix bot plays its opening then its program,
 * and a switch picks the case whose features it sees, or its default when
 * none is within the radius. Maps from the harness cache (argument 1).
 */
#include "support/testutil.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "microsynth/bots.h"
#include "microsynth/match.h"
#include "microsynth/rts_dsl.h"

static const char *maps_dir;

#define HARVEST "for(Unit u){u.harvest(4) if(u.canAttack()) then {u.attack(Closest)}}\n"
#define ATTACK "for(Unit u){u.train(Worker,EnemyDir,8) u.attack(Closest)}\n"

static void need_maps(void)
{
	struct stat st;
	if (!maps_dir || stat(maps_dir, &st) != 0) {
		if (getenv("CI"))
			fail_msg("the harness maps are absent but CI is set");
		print_message("skipped: harness maps absent (tools/setup.sh)\n");
		skip();
	}
}

/* One native match of p0 and p1 on 8x8/basesWorkers8x8A, freeing both except the switch `keep` (may be NULL). */
static void play(ms_ctx *ctx, const ms_rts_utt *utt, ms_bot *p0, ms_bot *p1, int cycles, int *winner, int *end,
		 const ms_bot *keep)
{
	ms_rts_state *s;
	ms_bot *bots[2] = { p0, p1 };
	char map[2100];
	snprintf(map, sizeof map, "%s/8x8/basesWorkers8x8A.xml", maps_dir);
	if (ms_rts_state_load_map(ctx, &s, utt, map, 0))
		fail_msg("%s", ms_ctx_last_error(ctx));
	if (ms_bot_reset(p0) || ms_bot_reset(p1) || ms_bot_play(ctx, s, bots, cycles, 0, NULL, winner))
		fail_msg("%s", ms_ctx_last_error(ctx));
	*end = ms_rts_state_time(s);
	ms_rts_state_free(s);
	if (p0 != keep)
		ms_bot_free(p0);
	if (p1 != keep)
		ms_bot_free(p1);
}

static ms_bot *make(ms_ctx *ctx, const ms_rts_utt *utt, const char *spec)
{
	ms_bot *b;
	if (ms_bot_make(ctx, &b, spec, utt, 0))
		fail_msg("%s: %s", spec, ms_ctx_last_error(ctx));
	return b;
}

static void test_rts_switch__bad_text_is_an_error_naming_the_line(void **state)
{
	static const struct {
		const char *text, *msg;
	} bad[] = {
		{ "", "expected 'microsynth-switch 1'" },
		{ "microsynth-switch 2\n", "line 1: expected 'microsynth-switch 1'" },
		{ "microsynth-switch 1\ncycle -3\n", "line 2: expected 'cycle K'" },
		{ "microsynth-switch 1\n# c\ncycle 10\nwhat 3\n", "line 4: unknown item 'what'" },
		{ "microsynth-switch 1\ncycle 10\nprogram a\n" HARVEST, "line 3: program a has no 'end'" },
		{ "microsynth-switch 1\ncycle 10\nprogram a\nfor(Unit u){u.nope()}\nend\n", "program a (from line 4)" },
		{ "microsynth-switch 1\ncycle 10\nprogram a\n" HARVEST "end\nbefore b\n", "line 6: no program b above" },
		{ "microsynth-switch 1\ncycle 10\nprogram a\n" HARVEST "end\nbefore a\ncase x 2 0 0 0 0 0 0 0 0 0 a\n",
		  "line 7: expected 'case LABEL SEAT" },
		{ "microsynth-switch 1\ncycle 10\nprogram a\n" HARVEST "end\nbefore a\ncase x 0 0 0 0 0 0 0 0 0 a\n",
		  "line 7: expected 'case LABEL SEAT" },
		{ "microsynth-switch 1\ncycle 10\nprogram a\n" HARVEST "end\n", "no 'before NAME' line" },
		{ "microsynth-switch 1\nprogram a\n" HARVEST "end\nbefore a\n", "no 'cycle K' line" },
	};
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_bot *b = (ms_bot *)&b;
	(void)state;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_rts_utt_new(ctx, &utt, 2, 1), MS_OK);
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		int rc = ms_rts_switch_bot_new(ctx, &b, "t.switch", bad[i].text, strlen(bad[i].text), utt, 0);
		assert_int_not_equal(rc, MS_OK);
		assert_null(b);
		if (!strstr(ms_ctx_last_error(ctx), bad[i].msg))
			fail_msg("case %zu: '%s' lacks '%s'", i, ms_ctx_last_error(ctx), bad[i].msg);
	}
	assert_int_equal(ms_bot_make(ctx, &b, "switch:/no/such/file.switch", utt, 0), MS_EIO);
	assert_null(b);
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
}

static void test_rts_switch__prefix_bot_plays_its_opening_then_its_program(void **state)
{
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_dsl_grammar *g;
	ms_dsl_prog *h, *a;
	ms_bot *b;
	int w0, e0, w1, e1;
	(void)state;
	need_maps();
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_rts_utt_new(ctx, &utt, 2, 1), MS_OK);
	assert_int_equal(ms_rts_dsl_grammar_new(ctx, &g, 0), MS_OK);
	assert_int_equal(ms_dsl_prog_new(ctx, &h, g), MS_OK);
	assert_int_equal(ms_dsl_prog_new(ctx, &a, g), MS_OK);
	assert_int_equal(ms_rts_dsl_parse(h, "h", HARVEST, strlen(HARVEST), 0), MS_OK);
	assert_int_equal(ms_rts_dsl_parse(a, "a", ATTACK, strlen(ATTACK), 0), MS_OK);
	/* switching at cycle 0 is the second program throughout */
	assert_int_equal(ms_rts_prefix_bot_new(ctx, &b, h, 0, a, utt, 0), MS_OK);
	play(ctx, utt, b, make(ctx, utt, "WorkerRush"), 3000, &w0, &e0, NULL);
	play(ctx, utt, make(ctx, utt, "program-text:" ATTACK), make(ctx, utt, "WorkerRush"), 3000, &w1, &e1, NULL);
	assert_int_equal(w0, w1);
	assert_int_equal(e0, e1);
	/* switching after the end is the first program throughout */
	assert_int_equal(ms_rts_prefix_bot_new(ctx, &b, h, 100000, a, utt, 0), MS_OK);
	play(ctx, utt, b, make(ctx, utt, "WorkerRush"), 3000, &w0, &e0, NULL);
	play(ctx, utt, make(ctx, utt, "program-text:" HARVEST), make(ctx, utt, "WorkerRush"), 3000, &w1, &e1, NULL);
	assert_int_equal(w0, w1);
	assert_int_equal(e0, e1);
	assert_int_equal(ms_rts_prefix_bot_new(ctx, &b, NULL, 10, a, utt, 0), MS_EINVAL);
	ms_dsl_prog_free(h);
	ms_dsl_prog_free(a);
	ms_dsl_grammar_free(g);
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
}

static void test_rts_switch__picks_the_case_it_sees_else_the_default(void **state)
{
	static const char head[] = "microsynth-switch 1\ncycle 120\nprogram h\n" HARVEST "end\nprogram a\n" ATTACK
				   "end\nbefore h\n";
	char text[4096];
	double seen[MS_RTS_SWITCH_FEATURES], lr[MS_RTS_SWITCH_FEATURES];
	const char *label;
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_bot *b;
	int w, e, used;
	(void)state;
	need_maps();
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_rts_utt_new(ctx, &utt, 2, 1), MS_OK);
	/* what the opening sees of WorkerRush and of LightRush in seat 1 at cycle 120 */
	assert_int_equal(ms_rts_switch_bot_new(ctx, &b, "probe", head, strlen(head), utt, 0), MS_OK);
	assert_int_equal(ms_rts_switch_bot_choice(b, &label, seen), MS_ENOTFOUND);
	play(ctx, utt, make(ctx, utt, "WorkerRush"), b, 121, &w, &e, b);
	assert_int_equal(ms_rts_switch_bot_choice(b, &label, seen), MS_OK);
	assert_string_equal(label, "default");
	assert_true(seen[0] >= 1); /* WorkerRush's workers */
	ms_bot_free(b);
	assert_int_equal(ms_rts_switch_bot_new(ctx, &b, "probe", head, strlen(head), utt, 0), MS_OK);
	play(ctx, utt, make(ctx, utt, "LightRush"), b, 121, &w, &e, b);
	assert_int_equal(ms_rts_switch_bot_choice(b, NULL, lr), MS_OK);
	assert_memory_not_equal(seen, lr, sizeof seen);
	/* a case at WorkerRush's features in seat 1 only */
	used = snprintf(text, sizeof text, "%sradius 0\ncase WR 1", head);
	for (int k = 0; k < MS_RTS_SWITCH_FEATURES; k++)
		used += snprintf(text + used, sizeof text - used, " %g", seen[k]);
	snprintf(text + used, sizeof text - used, " a\n");
	ms_bot_free(b);
	assert_int_equal(ms_rts_switch_bot_new(ctx, &b, "t", text, strlen(text), utt, 0), MS_OK);
	play(ctx, utt, make(ctx, utt, "WorkerRush"), b, 3000, &w, &e, b);
	assert_int_equal(ms_rts_switch_bot_choice(b, &label, NULL), MS_OK);
	assert_string_equal(label, "WR");
	/* reset forgets the choice; LightRush lies outside radius 0: the default */
	play(ctx, utt, make(ctx, utt, "LightRush"), b, 3000, &w, &e, b);
	assert_int_equal(ms_rts_switch_bot_choice(b, &label, NULL), MS_OK);
	assert_string_equal(label, "default");
	/* the same case in seat 0 is never chosen for seat 1 */
	text[strstr(text, "case WR 1") - text + 8] = '0';
	ms_bot_free(b);
	assert_int_equal(ms_rts_switch_bot_new(ctx, &b, "t", text, strlen(text), utt, 0), MS_OK);
	play(ctx, utt, make(ctx, utt, "WorkerRush"), b, 3000, &w, &e, b);
	assert_int_equal(ms_rts_switch_bot_choice(b, &label, NULL), MS_OK);
	assert_string_equal(label, "default");
	ms_bot_free(b);
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rts_switch__bad_text_is_an_error_naming_the_line),
		cmocka_unit_test(test_rts_switch__prefix_bot_plays_its_opening_then_its_program),
		cmocka_unit_test(test_rts_switch__picks_the_case_it_sees_else_the_default),
	};
	maps_dir = argc > 1 ? argv[1] : NULL;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
