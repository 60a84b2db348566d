/*
 * The bot factory (ms_bot_make) and the match interface's native backend.
 * Arguments: the harness's maps folder, a program file.
 */
#include "support/testutil.h"

#include <stdio.h>
#include <sys/stat.h>

#include "microsynth/match.h"
#include "microsynth/bots.h"
#include "microsynth/rts_dsl.h"

static const char *maps_dir, *program_file;

/* One table: its native rows are the registry's names, its forms decode as ms_bot_make reads them. */
static void test_match__agent_table_is_the_registry_and_the_forms(void **state)
{
	int n, n_native, k = 0;
	const ms_rts_agent_row *rows = ms_rts_agents(&n, &n_native);
	const char *const *names = ms_bot_names();
	const char *arg;
	(void)state;

	for (; names[k]; k++) {
		assert_true(k < n_native);
		assert_string_equal(rows[k].form.name, names[k]);
		assert_int_equal(rows[k].form.arg, MS_SPEC_NONE);
	}
	assert_int_equal(k, n_native);
	assert_true(n > n_native);
	assert_string_equal(ms_bot_spec_form("program-text:x:y", &arg), "program-text");
	assert_string_equal(arg, "x:y");
	assert_string_equal(ms_bot_spec_form("program:f.ms", &arg), "program");
	assert_string_equal(arg, "f.ms");
	assert_string_equal(ms_bot_spec_form("TMA", &arg), "TMA");
	assert_null(arg);
	assert_null(ms_bot_spec_form("ai.abstraction.LightRush", &arg));
	assert_null(ms_bot_spec_form("WorkerRush:x", &arg));
	assert_null(arg);
}

/* Every kind of spec makes a bot; the bots' own registry knows no programs. */
static void test_match__factory_makes_every_kind_of_spec(void **state)
{
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_bot *b;
	char spec[4200];
	(void)state;

	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_rts_utt_new(ctx, &utt, 2, 1), MS_OK);
	assert_int_equal(ms_bot_make(ctx, &b, "WorkerRush", utt, 0), MS_OK);
	assert_string_equal(b->ops->name, "WorkerRush");
	ms_bot_free(b);
	assert_int_equal(ms_bot_make(ctx, &b, "ai.abstraction.LightRush", utt, 0), MS_OK);
	assert_string_equal(b->ops->name, "LightRush");
	ms_bot_free(b);
	assert_int_equal(ms_bot_make(ctx, &b, "program-text:for(Unit u){u.harvest(1)}", utt, 0), MS_OK);
	assert_string_equal(b->ops->name, "Program");
	ms_bot_free(b);
	snprintf(spec, sizeof spec, "program:%s", program_file);
	assert_int_equal(ms_bot_make(ctx, &b, spec, utt, 0), MS_OK);
	assert_string_equal(b->ops->name, "Program");
	ms_bot_free(b);
	/* below the factory, the scripted bots' registry does not read programs */
	assert_int_equal(ms_bot_new(ctx, &b, "program-text:for(Unit u){u.harvest(1)}", utt, 0), MS_ENOTFOUND);
	assert_null(b);
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
}

static void test_match__factory_errors_name_the_spec(void **state)
{
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_bot *b;
	(void)state;

	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_rts_utt_new(ctx, &utt, 2, 1), MS_OK);
	assert_int_equal(ms_bot_make(ctx, &b, "NoSuchRush", utt, 0), MS_ENOTFOUND);
	assert_non_null(strstr(ms_ctx_last_error(ctx), "NoSuchRush"));
	assert_int_not_equal(ms_bot_make(ctx, &b, "program-text:for(Unit u){u.harvest(}", utt, 0), MS_OK);
	assert_non_null(strstr(ms_ctx_last_error(ctx), "program text"));
	assert_int_not_equal(ms_bot_make(ctx, &b, "program:/no/such/program.txt", utt, 0), MS_OK);
	assert_non_null(strstr(ms_ctx_last_error(ctx), "/no/such/program.txt"));
	assert_int_equal(ms_bot_make(ctx, &b, NULL, utt, 0), MS_EINVAL);
	assert_null(b);
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
}

/* ms_bot_play on a fresh state with bots from the factory: the reference the match interface must equal. */
static void play_direct(ms_ctx *ctx, const char *map, const char *p0, const char *p1, int max_cycles, int *winner,
			int *cycles)
{
	ms_rts_utt *utt;
	ms_rts_state *s;
	ms_bot *bots[2];

	assert_int_equal(ms_rts_utt_new(ctx, &utt, 2, 1), MS_OK);
	if (ms_rts_state_load_map(ctx, &s, utt, map, 0) || ms_bot_make(ctx, &bots[0], p0, utt, 3) ||
	    ms_bot_make(ctx, &bots[1], p1, utt, 3))
		fail_msg("%s", ms_ctx_last_error(ctx));
	/* bots seeded as the interface seeds them for seed 0 (0 * 1000003 + 3); table 2 and policy 1 draw nothing */
	if (ms_bot_play(ctx, s, bots, max_cycles, 0, NULL, winner))
		fail_msg("%s", ms_ctx_last_error(ctx));
	*cycles = ms_rts_state_time(s);
	ms_bot_free(bots[0]);
	ms_bot_free(bots[1]);
	ms_rts_state_free(s);
	ms_rts_utt_free(utt);
}

/*
 * A program in memory plays, in both seats and over repeated matches on one
 * context, exactly as the same program made from its text by the factory
 * and played by ms_bot_play on a freshly loaded map.
 */
static void test_match__native_program_in_memory_plays_as_ms_bot_play(void **state)
{
	ms_ctx *ctx;
	ms_dsl_grammar *g;
	ms_dsl_prog *p;
	ms_match *m;
	char map[2100], spec[4200];
	ms_match_options o = { .version = MS_MATCH_OPTIONS_VERSION, .backend = MS_MATCH_NATIVE, .max_cycles = 3000 };
	(void)state;

	if (!ms_test_have_maps(maps_dir))
		skip();
	snprintf(map, sizeof map, "%s/16x16/basesWorkers16x16A.xml", maps_dir);
	snprintf(spec, sizeof spec, "program:%s", program_file);
	o.map = map;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_rts_dsl_grammar_new(ctx, &g, 0), MS_OK);
	assert_int_equal(ms_dsl_prog_new(ctx, &p, g), MS_OK);
	assert_int_equal(ms_rts_dsl_parse_file(p, program_file, 0), MS_OK);
	assert_int_equal(ms_match_new(ctx, &m, &o), MS_OK);
	assert_null(ms_match_final_state(m));
	for (int round = 0; round < 2; round++)
		for (int seat = 0; seat < 2; seat++)
			for (int r = 0; r < 2; r++) {
				const char *rush = r ? "LightRush" : "WorkerRush";
				ms_match_player pl[2];
				ms_match_result res;
				int w, c;

				pl[seat] = ms_match_player_program(p);
				pl[1 - seat] = ms_match_player_spec(rush);
				assert_int_equal(ms_match_play(m, pl, NULL, &res), MS_OK);
				play_direct(ctx, map, seat ? rush : spec, seat ? spec : rush, 3000, &w, &c);
				assert_int_equal(res.winner, w);
				assert_int_equal(res.cycles, c);
				assert_int_equal(res.crashed, -1);
				assert_non_null(ms_match_final_state(m));
				assert_int_equal(ms_rts_state_time(ms_match_final_state(m)), c);
				if (!round)
					print_message("program as player %d vs %s: winner=%d cycles=%d\n", seat, rush, w, c);
			}
	/* the second round's path searches came from the context's memo (and ended alike above) */
	{
		ms_memo_stats st;
		ms_match_memo_stats(m, &st);
		assert_true(st.hits > 0 && st.hits * 3 > st.lookups);
		print_message("memo: %llu of %llu path searches answered\n", (unsigned long long)st.hits,
			      (unsigned long long)st.lookups);
	}
	ms_match_free(m);
	ms_dsl_prog_free(p);
	ms_dsl_grammar_free(g);
	ms_ctx_free(ctx);
}

/*
 * A program whose loops draw Random targets five deep over 41 units would
 * run 41^5 iterations a decision: natively its first decision stops at the
 * loop budget and the match is its loss, as a bot the harness's time check
 * stops; a program within the budget plays the same state as usual.
 */
static void test_match__a_decision_past_the_loop_budget_loses_the_match(void **state)
{
	static const char deep[] =
		"for(Unit u){for(Unit u){for(Unit u){for(Unit u){for(Unit u){u.moveToUnit(Ally,Random)}}}}}";
	static const char plain[] = "for(Unit u){u.harvest(2) u.moveToUnit(Enemy,Closest)}";
	char *xml = ms_test_crowded_map(16, 16, 40);
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_rts_state *s;
	ms_dsl_grammar *g;
	ms_dsl_prog *p;
	ms_match *m;
	ms_match_options o = { .version = MS_MATCH_OPTIONS_VERSION, .backend = MS_MATCH_NATIVE, .max_cycles = 200 };
	(void)state;
	assert_non_null(xml);

	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_rts_utt_new(ctx, &utt, 2, 1), MS_OK);
	assert_int_equal(ms_rts_state_from_map_xml(ctx, &s, utt, "crowded", xml, strlen(xml), 0), MS_OK);
	assert_int_equal(ms_rts_dsl_grammar_new(ctx, &g, 0), MS_OK);
	assert_int_equal(ms_dsl_prog_new(ctx, &p, g), MS_OK);
	o.initial = s;
	o.map = "crowded";
	assert_int_equal(ms_match_new(ctx, &m, &o), MS_OK);
	for (int k = 0; k < 2; k++) {
		ms_match_player pl[2] = { ms_match_player_program(p), ms_match_player_spec("WorkerRush") };
		ms_match_result res;
		int rc;
		const char *text = k ? plain : deep;
		assert_int_equal(ms_rts_dsl_parse(p, "test", text, strlen(text), 0), MS_OK);
		rc = ms_match_play(m, pl, NULL, &res);
		if (k) {
			assert_int_equal(rc, MS_OK);
			assert_int_equal(res.crashed, -1);
			assert_true(res.cycles > 0);
		} else {
			assert_int_equal(rc, MS_EILLEGAL);
			assert_int_equal(res.crashed, 0);
			assert_int_equal(res.winner, 1);
			assert_int_equal(res.cycles, 0);
			assert_non_null(strstr(ms_ctx_last_error(ctx), "250000 loop iterations"));
		}
	}
	ms_match_free(m);
	ms_dsl_prog_free(p);
	ms_dsl_grammar_free(g);
	ms_rts_state_free(s);
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
	free(xml);
}

static void test_match__bad_settings_and_players_are_errors(void **state)
{
	ms_ctx *ctx;
	ms_match *m;
	ms_match_player pl[2] = { ms_match_player_spec(NULL), ms_match_player_spec("WorkerRush") };
	ms_match_result res;
	char map[2100];
	ms_match_options o = { .version = MS_MATCH_OPTIONS_VERSION, .backend = MS_MATCH_NATIVE,
			    .map = "no/such/map.xml" };
	(void)state;

	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_match_new(ctx, &m, &o), MS_ENOTFOUND);
	assert_non_null(strstr(ms_ctx_last_error(ctx), "no/such/map.xml"));
	o.version = 99;
	assert_int_equal(ms_match_new(ctx, &m, &o), MS_EINVAL);
	o.version = MS_MATCH_OPTIONS_VERSION;
	o.utt = 7;
	assert_int_equal(ms_match_new(ctx, &m, &o), MS_EINVAL);
	o.utt = 0;
	o.memo_bits = MS_MEMO_MAX_BITS + 1;
	assert_int_equal(ms_match_new(ctx, &m, &o), MS_ERANGE);
	assert_non_null(strstr(ms_ctx_last_error(ctx), "memo"));
	o.memo_bits = 0;
	o.utt = 7;
	if (ms_test_have_maps(maps_dir)) {
		snprintf(map, sizeof map, "%s/8x8/basesWorkers8x8A.xml", maps_dir);
		o.map = map;
		o.utt = 0;
		assert_int_equal(ms_match_new(ctx, &m, &o), MS_OK);
		assert_int_equal(ms_match_play(m, pl, NULL, &res), MS_EINVAL);
		assert_non_null(strstr(ms_ctx_last_error(ctx), "player 0"));
		pl[0].spec = "CoacAI-that-does-not-exist";
		assert_int_equal(ms_match_play(m, pl, NULL, &res), MS_ENOTFOUND);
		assert_non_null(strstr(ms_ctx_last_error(ctx), "CoacAI-that-does-not-exist"));
		/* and the context still plays */
		pl[0].spec = "LightRush";
		assert_int_equal(ms_match_play(m, pl, NULL, &res), MS_OK);
		assert_true(res.cycles > 0);
		ms_match_free(m);
	}
	ms_ctx_free(ctx);
}

/* The competition table: every set listed resolves, an unknown name does not, lengths step at 8/16/24/32. */
static void test_match__competition_table_is_complete(void **state)
{
	const char *const *sets = ms_match_competition_sets();
	int n, cycles, n_sets = 0;
	char path[2100];
	struct stat st;
	(void)state;

	for (; sets[n_sets]; n_sets++) {
		const char *const *maps = ms_match_competition_maps(sets[n_sets], &n, &cycles);
		assert_non_null(maps);
		assert_true(n > 0);
		assert_null(maps[n]);
		assert_int_equal(cycles, strcmp(sets[n_sets], "2025") ? 0 : 5000);
		/* the 2025, held-out and fresh sets are harness maps by definition (fresh: in both builds) */
		if (ms_test_have_maps(maps_dir) && (!strcmp(sets[n_sets], "2025") || !strcmp(sets[n_sets], "held-out") ||
						    !strcmp(sets[n_sets], "fresh")))
			for (int i = 0; i < n; i++) {
				snprintf(path, sizeof path, "%s/%s", maps_dir, maps[i]);
				assert_int_equal(stat(path, &st), 0);
			}
	}
	assert_int_equal(n_sets, 5);
	ms_match_competition_maps("2025", &n, NULL);
	assert_int_equal(n, 10);
	assert_null(ms_match_competition_maps("2024", &n, &cycles));
	assert_int_equal(n, 0);
	assert_int_equal(cycles, 0);
	assert_null(ms_match_competition_maps(NULL, NULL, NULL));
	assert_int_equal(ms_match_competition_cycles(8, 8), 3000);
	assert_int_equal(ms_match_competition_cycles(9, 8), 4000);
	assert_int_equal(ms_match_competition_cycles(16, 12), 4000);
	assert_int_equal(ms_match_competition_cycles(8, 24), 5000);
	assert_int_equal(ms_match_competition_cycles(32, 25), 6000);
	assert_int_equal(ms_match_competition_cycles(33, 8), 8000);
	assert_int_equal(ms_match_competition_cycles(64, 64), 8000);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_match__agent_table_is_the_registry_and_the_forms),
		cmocka_unit_test(test_match__factory_makes_every_kind_of_spec),
		cmocka_unit_test(test_match__factory_errors_name_the_spec),
		cmocka_unit_test(test_match__native_program_in_memory_plays_as_ms_bot_play),
		cmocka_unit_test(test_match__a_decision_past_the_loop_budget_loses_the_match),
		cmocka_unit_test(test_match__bad_settings_and_players_are_errors),
		cmocka_unit_test(test_match__competition_table_is_complete),
	};
	if (argc != 3)
		return fprintf(stderr, "usage: test_match MAPS_DIR PROGRAM\n"), 2;
	maps_dir = argv[1];
	program_file = argv[2];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
