/* AStarPathFinding on small maps: first steps the official class takes
 * (worked examples of the spec, checked with the Java class), including
 * its last-in-first-out tie-breaking, walls, units and reserved cells. */
#include "support/testutil.h"

#include <stdio.h>

#include "microsynth/bots.h"
#include "microsynth/microrts.h"

/* An empty 8x8 map with `terrain` (64 digits) and one worker at (1,1),
 * plus an optional blocking worker at (bx, by) (bx < 0: none). */
static ms_rts_state *map(ms_ctx *ctx, const ms_rts_utt *utt, const char *terrain, int bx, int by)
{
	char xml[2048], extra[256] = "";
	ms_rts_state *s = NULL;

	if (bx >= 0)
		snprintf(extra, sizeof(extra),
			 "<rts.units.Unit type=\"Worker\" ID=\"2\" player=\"1\" x=\"%d\" y=\"%d\" resources=\"0\" "
			 "hitpoints=\"1\"></rts.units.Unit>",
			 bx, by);
	snprintf(xml, sizeof(xml),
		 "<rts.PhysicalGameState width=\"8\" height=\"8\"><terrain>%s</terrain><players>"
		 "<rts.Player ID=\"0\" resources=\"5\"></rts.Player><rts.Player ID=\"1\" resources=\"5\"></rts.Player>"
		 "</players><units><rts.units.Unit type=\"Worker\" ID=\"1\" player=\"0\" x=\"1\" y=\"1\" "
		 "resources=\"0\" hitpoints=\"1\"></rts.units.Unit>%s</units></rts.PhysicalGameState>",
		 terrain, extra);
	assert_int_equal(ms_rts_state_from_map_xml(ctx, &s, utt, "fixture", xml, strlen(xml), 0), MS_OK);
	return s;
}

#define EMPTY "0000000000000000000000000000000000000000000000000000000000000000"

/* First step from (1,1) to (x,y) within `range`; -1 for none. */
static int step(ms_ctx *ctx, const ms_rts_state *s, int x, int y, int range, const int *res, int nres)
{
	ms_rts_action a;
	assert_int_equal(ms_bot_astar(ctx, s, 1, 1, x + y * 8, range, res, nres, &a), MS_OK);
	if (a.type < 0)
		return -1;
	assert_int_equal(a.type, MS_RTS_MOVE);
	return a.parameter;
}

static void test_astar__worked_examples_of_the_java_class(void **state)
{
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_rts_state *s;

	(void)state;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_rts_utt_new(ctx, &utt, 2, 1), MS_OK);
	s = map(ctx, utt, EMPTY, -1, -1);
	/* up and left tie at f=2: the later-inserted left is expanded first */
	assert_int_equal(step(ctx, s, 0, 0, 0, NULL, 0), MS_RTS_LEFT);
	assert_int_equal(step(ctx, s, 3, 3, 0, NULL, 0), MS_RTS_DOWN);
	assert_int_equal(step(ctx, s, 5, 4, 0, NULL, 0), MS_RTS_DOWN);
	assert_int_equal(step(ctx, s, 5, 1, 0, NULL, 0), MS_RTS_RIGHT);
	assert_int_equal(step(ctx, s, 1, 0, 0, NULL, 0), MS_RTS_UP);
	assert_int_equal(step(ctx, s, 2, 1, 1, NULL, 0), -1); /* adjacent already */
	assert_int_equal(step(ctx, s, 0, 0, 3, NULL, 0), -1); /* within range */
	ms_rts_state_free(ctx, s);
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
}

static void test_astar__walls_units_and_reserved_cells_block(void **state)
{
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_rts_state *s;
	int reserved[1] = { 1 + 2 * 8 }; /* (1,2) */

	(void)state;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_rts_utt_new(ctx, &utt, 2, 1), MS_OK);
	/* a unit on (0,1) hides the left tie: the path goes up first */
	s = map(ctx, utt, EMPTY, 0, 1);
	assert_int_equal(step(ctx, s, 0, 0, 0, NULL, 0), MS_RTS_UP);
	ms_rts_state_free(ctx, s);
	/* a reserved (1,2) turns the way to (1,4) aside */
	s = map(ctx, utt, EMPTY, -1, -1);
	assert_int_equal(step(ctx, s, 1, 4, 0, NULL, 0), MS_RTS_DOWN);
	assert_int_not_equal(step(ctx, s, 1, 4, 0, reserved, 1), MS_RTS_DOWN);
	ms_rts_state_free(ctx, s);
	/* walled in on row 2 and column 2: (3,3) is unreachable */
	s = map(ctx, utt,
		"00100000"
		"00100000"
		"11100000"
		"00000000"
		"00000000"
		"00000000"
		"00000000"
		"00000000",
		-1, -1);
	assert_int_equal(step(ctx, s, 3, 3, 0, NULL, 0), -1);
	assert_int_equal(step(ctx, s, 0, 0, 0, NULL, 0), MS_RTS_LEFT);
	ms_rts_state_free(ctx, s);
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_astar__worked_examples_of_the_java_class),
		cmocka_unit_test(test_astar__walls_units_and_reserved_cells_block),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
