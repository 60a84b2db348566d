/*
 * The algorithms' knobs (synth.h): the families' table, the setter by name
 * and the one "applies to" rule, whose messages every front end prints as
 * they are.
 */
#include "support/testutil.h"

#include <stdio.h>

#include "microsynth/synth.h"

static void test_synth_knobs__every_knob_is_found_by_its_flag_and_applies_somewhere(void **state)
{
	const ms_synth_knob *k;
	size_t n = 0;
	(void)state;
	for (; (k = ms_synth_knob_at(n)); n++) {
		assert_ptr_equal(ms_synth_knob_find(k->name), k);
		assert_true(!strncmp(k->name, "--", 2));
		assert_true(k->algos != 0);
		assert_true(k->offset < sizeof(ms_synth_options));
		assert_non_null(k->help);
		assert_non_null(k->arg);
	}
	assert_true(n >= 8);
	assert_null(ms_synth_knob_find("--no-such-knob"));
}

static void test_synth_knobs__good_values_land_in_their_fields(void **state)
{
	ms_ctx *ctx = NULL;
	ms_synth_options o;
	(void)state;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_synth_options_init(&o, MS_SYNTH_OPTIONS_VERSION), 0);
	assert_int_equal(ms_synth_options_set(ctx, &o, "--uct-c", "2.5"), 0);
	assert_true(o.uct_c == 2.5);
	assert_int_equal(ms_synth_options_set(ctx, &o, "--neighbours", "65536"), 0);
	assert_int_equal(o.sa_neighbours, 65536);
	assert_int_equal(ms_synth_options_set(ctx, &o, "--sketch-evals", "1000000000"), 0);
	assert_true(o.sketch_evals == 1000000000LL);
	assert_int_equal(ms_synth_options_set(ctx, &o, "--sketch-share", "1"), 0);
	assert_true(o.sketch_share == 1);
	assert_int_equal(ms_synth_options_set(ctx, &o, "--restart", "pass"), 0);
	assert_int_equal(o.sa_restart, MS_SYNTH_RESTART_PASS);
	assert_int_equal(ms_synth_options_set(ctx, &o, "--hss-library", "lib.txt"), 0);
	assert_string_equal(o.hss_library, "lib.txt");
	assert_int_equal(ms_synth_options_set(ctx, &o, "--hss-confirm", "0"), 0);
	assert_int_equal(o.hss_confirm, 0);
	ms_ctx_free(ctx);
}

static void test_synth_knobs__bad_names_and_values_are_refused_naming_flag_and_value(void **state)
{
	/* flag, value and the message, split at '|' */
	static const char *const cases[] = {
		"--uct|1|unknown search option '--uct'",
		"--neighbours|0|--neighbours: '0' is not an integer in [1, 65536]",
		"--hss-passes|3x|--hss-passes: '3x' is not an integer in [1, 1000]",
		"--sketch-share|0|--sketch-share: '0' is not a number in (0, 1]",
		"--uct-c|-1|--uct-c: '-1' is not a number in [0, 1e+09]",
		"--restart|foo|--restart is code, best or pass, not 'foo'",
		"--hss-library||--hss-library needs a value",
	};
	ms_ctx *ctx = NULL;
	ms_synth_options o, before;
	(void)state;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_synth_options_init(&o, MS_SYNTH_OPTIONS_VERSION), 0);
	before = o;
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char name[32], value[8];
		const char *bar = strchr(cases[i], '|'), *bar2 = strchr(bar + 1, '|');
		snprintf(name, sizeof name, "%.*s", (int)(bar - cases[i]), cases[i]);
		snprintf(value, sizeof value, "%.*s", (int)(bar2 - bar - 1), bar + 1);
		assert_int_equal(ms_synth_options_set(ctx, &o, name, value), MS_EINVAL);
		assert_string_equal(ms_ctx_last_error(ctx), bar2 + 1);
	}
	/* a refused value leaves the options as they were */
	assert_int_equal(memcmp(&o, &before, sizeof o), 0);
	ms_ctx_free(ctx);
}

static void test_synth_knobs__a_knob_of_another_algorithm_names_those_it_applies_to(void **state)
{
	ms_ctx *ctx = NULL;
	(void)state;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_synth_knob_applies(ctx, "--uct-c", MS_SYNTH_UCT), 0);
	assert_int_equal(ms_synth_knob_applies(ctx, "--uct-c", MS_SYNTH_SKETCH_UCT), 0);
	assert_int_equal(ms_synth_knob_applies(ctx, "--uct-c", MS_SYNTH_SA), MS_EINVAL);
	assert_string_equal(ms_ctx_last_error(ctx), "--uct-c applies to uct, sketch-uct only");
	assert_int_equal(ms_synth_knob_applies(ctx, "--hss-passes", MS_SYNTH_RANDOM), MS_EINVAL);
	assert_string_equal(ms_ctx_last_error(ctx), "--hss-passes applies to hss only");
	assert_int_equal(ms_synth_knob_applies(ctx, "--neighbours", MS_SYNTH_HSS), 0);
	assert_int_equal(ms_synth_knob_applies(ctx, "--neighbours", MS_SYNTH_UCT), MS_EINVAL);
	assert_string_equal(ms_ctx_last_error(ctx), "--neighbours applies to sa, sketch-sa, hss only");
	assert_int_equal(ms_synth_knob_applies(ctx, "--nope", MS_SYNTH_SA), MS_ENOTFOUND);
	ms_ctx_free(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_synth_knobs__every_knob_is_found_by_its_flag_and_applies_somewhere),
		cmocka_unit_test(test_synth_knobs__good_values_land_in_their_fields),
		cmocka_unit_test(test_synth_knobs__bad_names_and_values_are_refused_naming_flag_and_value),
		cmocka_unit_test(test_synth_knobs__a_knob_of_another_algorithm_names_those_it_applies_to),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
