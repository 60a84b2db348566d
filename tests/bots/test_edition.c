/* Bot editions: the rules the 2023 official rushes added (a carrying
 * worker goes home without resources left; workers with nothing to
 * harvest attack) on small fixtures where the two editions must differ,
 * and ms_bot_set_edition's checks. */
#include "support/testutil.h"

#include <stdio.h>

#include "microsynth/bots.h"
#include "microsynth/microrts.h"

/* A 8x8 map without resources: player 0 has a base at (1,1), a barracks
 * at (1,5) when `barracks`, and a worker at (5,2) carrying `load`; player 1
 * a worker at (6,6). Nobody can pay for anything (0 resources). */
static ms_rts_state *fixture(ms_ctx *ctx, const ms_rts_utt *utt, int load, int barracks)
{
	char xml[4096], extra[256] = "";
	ms_rts_state *s = NULL;

	if (barracks)
		snprintf(extra, sizeof(extra), "<rts.units.Unit type=\"Barracks\" ID=\"4\" player=\"0\" x=\"1\" y=\"5\" "
					       "resources=\"0\" hitpoints=\"4\"></rts.units.Unit>");
	snprintf(xml, sizeof(xml),
		 "<rts.PhysicalGameState width=\"8\" height=\"8\"><terrain>"
		 "0000000000000000000000000000000000000000000000000000000000000000</terrain><players>"
		 "<rts.Player ID=\"0\" resources=\"0\"></rts.Player><rts.Player ID=\"1\" resources=\"0\"></rts.Player>"
		 "</players><units>"
		 "<rts.units.Unit type=\"Base\" ID=\"1\" player=\"0\" x=\"1\" y=\"1\" resources=\"0\" "
		 "hitpoints=\"10\"></rts.units.Unit>"
		 "<rts.units.Unit type=\"Worker\" ID=\"2\" player=\"0\" x=\"5\" y=\"2\" resources=\"%d\" "
		 "hitpoints=\"1\"></rts.units.Unit>"
		 "<rts.units.Unit type=\"Worker\" ID=\"3\" player=\"1\" x=\"6\" y=\"6\" resources=\"0\" "
		 "hitpoints=\"1\"></rts.units.Unit>%s"
		 "</units></rts.PhysicalGameState>",
		 load, extra);
	assert_int_equal(ms_rts_state_from_map_xml(ctx, &s, utt, "fixture", xml, strlen(xml), 0), MS_OK);
	return s;
}

/* The action `bot_name` (in `edition`) gives player 0's worker (id 2). */
static ms_rts_action worker_action(const char *bot_name, int edition, int load, int barracks)
{
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_rts_state *s;
	ms_bot *b;
	ms_rts_pair out[16];
	ms_rts_action a;
	int n = 0, found = 0;

	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_rts_utt_new(ctx, &utt, 2, 1), MS_OK);
	s = fixture(ctx, utt, load, barracks);
	assert_int_equal(ms_bot_new(ctx, &b, bot_name, utt, 0), MS_OK);
	assert_int_equal(b->edition, MS_PATH_EDITION_2022);
	assert_int_equal(ms_bot_set_edition(b, edition), MS_OK);
	assert_int_equal(ms_bot_decide(b, 0, s, out, 16, &n), MS_OK);
	memset(&a, 0, sizeof(a));
	for (int i = 0; i < n; i++)
		if (out[i].unit.id == 2) {
			a = out[i].action;
			found++;
		}
	assert_int_equal(found, 1);
	ms_bot_free(b);
	ms_rts_state_free(s);
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
	return a;
}

static void test_edition__2023_rushes_bring_a_load_home_when_no_resource_is_left(void **state)
{
	static const char *const rushes[] = { "WorkerRush", "LightRush" };

	(void)state;
	for (int k = 0; k < 2; k++) {
		/* 2022: no resource, so no Harvest: the worker idles */
		ms_rts_action a = worker_action(rushes[k], MS_PATH_EDITION_2022, 1, k == 1);
		assert_int_equal(a.type, MS_RTS_NONE);
		/* 2023: home to the base at (1,1), first step up (A* ties: the
		 * path along the row is taken last in, first out) or left */
		a = worker_action(rushes[k], MS_PATH_EDITION_2023, 1, k == 1);
		assert_int_equal(a.type, MS_RTS_MOVE);
		assert_true(a.parameter == MS_RTS_UP || a.parameter == MS_RTS_LEFT);
	}
}

static void test_edition__2023_rushes_send_workers_with_nothing_to_harvest_to_attack(void **state)
{
	static const char *const rushes[] = { "WorkerRush", "LightRush" };

	(void)state;
	for (int k = 0; k < 2; k++) {
		ms_rts_action a = worker_action(rushes[k], MS_PATH_EDITION_2022, 0, k == 1);
		assert_int_equal(a.type, MS_RTS_NONE);
		/* towards the enemy worker at (6,6): down or right */
		a = worker_action(rushes[k], MS_PATH_EDITION_2023, 0, k == 1);
		assert_int_equal(a.type, MS_RTS_MOVE);
		assert_true(a.parameter == MS_RTS_DOWN || a.parameter == MS_RTS_RIGHT);
	}
}

static void test_edition__unknown_edition_is_rejected_and_changes_nothing(void **state)
{
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_bot *b;

	(void)state;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_rts_utt_new(ctx, &utt, 2, 1), MS_OK);
	assert_int_equal(ms_bot_new(ctx, &b, "RangedRush", utt, 0), MS_OK);
	assert_int_equal(ms_bot_set_edition(b, MS_PATH_EDITION_2023), MS_OK);
	assert_int_equal(ms_bot_set_edition(b, 2), MS_EINVAL);
	assert_non_null(strstr(ms_ctx_last_error(ctx), "unknown edition 2"));
	assert_int_equal(b->edition, MS_PATH_EDITION_2023);
	assert_int_equal(ms_bot_set_edition(b, -1), MS_EINVAL);
	assert_int_equal(ms_bot_set_edition(NULL, MS_PATH_EDITION_2022), MS_EINVAL);
	ms_bot_free(b);
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_edition__2023_rushes_bring_a_load_home_when_no_resource_is_left),
		cmocka_unit_test(test_edition__2023_rushes_send_workers_with_nothing_to_harvest_to_attack),
		cmocka_unit_test(test_edition__unknown_edition_is_rejected_and_changes_nothing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
