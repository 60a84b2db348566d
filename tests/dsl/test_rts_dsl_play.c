/*
 * The four programs of the dissertation (../shared/programs/paper) play
 * full native matches on their maps against the native rushes, in both
 * seats, as bots made by ms_bot_make("program:FILE"): every decision must
 * succeed, the match must reach its end (a winner or the cycle limit), and
 * a replay must end identically. The maps come from the harness cache
 * (argument 1: its maps folder); the dissertation's 32x32 map
 * (basesWorkers32x32) is not in the gym-microrts harness, so the 32x32
 * program plays on BWDistantResources32x32, the harness's 32x32 map with
 * bases and workers.
 */
#include "support/testutil.h"

#include <stdio.h>
#include <sys/stat.h>

#include "microsynth/match.h"
#include "microsynth/bots.h"
#include "microsynth/rts_dsl.h"

static const char *maps_dir;

static const struct {
	const char *program, *map;
	int max_cycles;
} games[] = {
	{ "sketch-sa-o-16x16.txt", "16x16/TwoBasesBarracks16x16.xml", 4000 },
	{ "sketch-sa-o-24x24.txt", "24x24/basesWorkers24x24.xml", 5000 },
	{ "sketch-sa-o-32x32.txt", "BWDistantResources32x32.xml", 6000 },
	{ "sketch-sa-o-64x64.txt", "BroodWar/(4)BloodBath.scmB.xml", 8000 },
};

static const char *const rushes[] = { "WorkerRush", "LightRush", "HeavyRush", "RangedRush" };

static void play(ms_ctx *ctx, const ms_rts_utt *utt, const char *map, const char *p0, const char *p1, int max_cycles,
		 int *winner, int *cycles)
{
	ms_rts_state *s;
	ms_bot *bots[2];

	if (ms_rts_state_load_map(ctx, &s, utt, map, 0))
		fail_msg("%s", ms_ctx_last_error(ctx));
	if (ms_bot_make(ctx, &bots[0], p0, utt, 0) || ms_bot_make(ctx, &bots[1], p1, utt, 0))
		fail_msg("%s", ms_ctx_last_error(ctx));
	if (ms_bot_play(ctx, s, bots, max_cycles, 0, NULL, winner))
		fail_msg("%s vs %s on %s: %s", p0, p1, map, ms_ctx_last_error(ctx));
	*cycles = ms_rts_state_time(s);
	assert_true(*winner >= 0 || *cycles >= max_cycles);
	ms_bot_free(bots[0]);
	ms_bot_free(bots[1]);
	ms_rts_state_free(s);
}

static void test_rts_dsl_play__paper_programs_play_full_matches_against_the_rushes(void **state)
{
	ms_ctx *ctx;
	ms_rts_utt *utt;
	struct stat st;
	(void)state;
	MS_SKIP_OR_FAIL_WITHOUT_SHARED();
	if (!maps_dir || stat(maps_dir, &st) != 0) {
		if (getenv("CI"))
			fail_msg("the harness maps are absent but CI is set");
		print_message("skipped: harness maps absent (tools/setup.sh)\n");
		skip();
	}
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_rts_utt_new(ctx, &utt, 2, 1), MS_OK);
	for (size_t g = 0; g < sizeof(games) / sizeof(games[0]); g++) {
		char program[2100], map[2100];
		snprintf(program, sizeof(program), "program:%s/programs/paper/%s", ms_test_shared(), games[g].program);
		snprintf(map, sizeof(map), "%s/%s", maps_dir, games[g].map);
		for (int r = 0; r < 4; r++)
			for (int seat = 0; seat < 2; seat++) {
				int w, c, w2, c2;
				const char *p0 = seat ? rushes[r] : program, *p1 = seat ? program : rushes[r];
				play(ctx, utt, map, p0, p1, games[g].max_cycles, &w, &c);
				play(ctx, utt, map, p0, p1, games[g].max_cycles, &w2, &c2);
				assert_int_equal(w, w2);
				assert_int_equal(c, c2);
				print_message("%s as player %d vs %s on %s: winner=%d cycles=%d (%s)\n", games[g].program,
					      seat, rushes[r], games[g].map, w, c,
					      w < 0 ? "draw" : w == seat ? "program wins" : "rush wins");
			}
	}
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
}

/* program-text: gives the bridge a bot without a file. */
static void test_rts_dsl_play__program_text_bots(void **state)
{
	static const char map[] =
		"<rts.PhysicalGameState width=\"8\" height=\"8\"><terrain>"
		"0000000000000000000000000000000000000000000000000000000000000000</terrain><players>"
		"<rts.Player ID=\"0\" resources=\"5\"></rts.Player><rts.Player ID=\"1\" resources=\"5\"></rts.Player>"
		"</players><units>"
		"<rts.units.Unit type=\"Resource\" ID=\"0\" player=\"-1\" x=\"0\" y=\"0\" resources=\"20\" hitpoints=\"1\"></rts.units.Unit>"
		"<rts.units.Unit type=\"Base\" ID=\"1\" player=\"0\" x=\"2\" y=\"1\" resources=\"0\" hitpoints=\"10\"></rts.units.Unit>"
		"<rts.units.Unit type=\"Worker\" ID=\"2\" player=\"0\" x=\"1\" y=\"1\" resources=\"0\" hitpoints=\"1\"></rts.units.Unit>"
		"<rts.units.Unit type=\"Base\" ID=\"3\" player=\"1\" x=\"5\" y=\"6\" resources=\"0\" hitpoints=\"10\"></rts.units.Unit>"
		"<rts.units.Unit type=\"Worker\" ID=\"4\" player=\"1\" x=\"6\" y=\"6\" resources=\"0\" hitpoints=\"1\"></rts.units.Unit>"
		"</units></rts.PhysicalGameState>";
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_rts_state *s;
	ms_bot *bots[2], *bad = NULL;
	int winner;
	(void)state;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_rts_utt_new(ctx, &utt, 2, 1), MS_OK);
	assert_int_equal(ms_rts_state_from_map_xml(ctx, &s, utt, "8x8", map, strlen(map), 0), MS_OK);
	assert_int_equal(ms_bot_make(ctx, &bots[0],
				    "program-text:for(Unit u){u.train(Worker,EnemyDir,4) u.harvest(1) u.attack(Closest)}",
				    utt, 0),
			 MS_OK);
	assert_string_equal(bots[0]->ops->name, "Program");
	assert_int_equal(ms_bot_make(ctx, &bots[1], "PassiveAI", utt, 0), MS_OK);
	assert_int_equal(ms_bot_play(ctx, s, bots, 3000, 0, NULL, &winner), MS_OK);
	assert_int_equal(winner, 0); /* workers beat a passive player */
	/* errors: a bad program, a missing file */
	assert_int_equal(ms_bot_make(ctx, &bad, "program-text:u.attack(Closest)", utt, 0), MS_EINVAL);
	assert_non_null(strstr(ms_ctx_last_error(ctx), "line 1, column 1"));
	assert_null(bad);
	assert_int_equal(ms_bot_make(ctx, &bad, "program:/no/such/program.txt", utt, 0), MS_EIO);
	assert_null(bad);
	ms_bot_free(bots[0]);
	ms_bot_free(bots[1]);
	ms_rts_state_free(s);
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rts_dsl_play__paper_programs_play_full_matches_against_the_rushes),
		cmocka_unit_test(test_rts_dsl_play__program_text_bots),
	};
	maps_dir = argc > 1 ? argv[1] : NULL;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
