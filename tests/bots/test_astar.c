/* AStarPathFinding on small maps: first steps the official class takes
 * (worked examples of the spec, checked with the Java class), including
 * its last-in-first-out tie-breaking, walls, units and reserved cells; and
 * on random maps the same first steps as the class's own algorithm. */
#include "support/testutil.h"

#include <stdio.h>

#include "microsynth/bots.h"
#include "microsynth/jrandom.h"
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
	ms_rts_state_free(s);
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
	ms_rts_state_free(s);
	/* a reserved (1,2) turns the way to (1,4) aside */
	s = map(ctx, utt, EMPTY, -1, -1);
	assert_int_equal(step(ctx, s, 1, 4, 0, NULL, 0), MS_RTS_DOWN);
	assert_int_not_equal(step(ctx, s, 1, 4, 0, reserved, 1), MS_RTS_DOWN);
	ms_rts_state_free(s);
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
	ms_rts_state_free(s);
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
}

/*
 * The Java search as the class writes it, the oracle for the native one
 * (which keeps OPEN in buckets and skips searches that cannot succeed):
 * one array ordered by non-increasing f, a new entry after the last entry
 * whose f is >= its own, the last entry expanded first.
 */
static int java_first_step(const ms_rts_state *s, const uint8_t *blocked, int sx, int sy, int target, int range)
{
	int w = ms_rts_state_width(s), h = ms_rts_state_height(s), cells = w * h;
	int tx = target % w, ty = target / w, n = 1, dir = -1;
	int *open = malloc(sizeof(int) * (size_t)cells * 3), *closed = malloc(sizeof(int) * (size_t)cells);
	int *cost = malloc(sizeof(int) * (size_t)cells), *oh = open + cells, *op = open + 2 * cells;
	uint8_t *seen = calloc((size_t)cells, 1);

	assert_non_null(open);
	assert_non_null(closed);
	assert_non_null(cost);
	assert_non_null(seen);
	for (int i = 0; i < cells; i++)
		closed[i] = -1;
	open[0] = op[0] = sx + sy * w;
	oh[0] = abs(sx - tx) + abs(sy - ty);
	cost[open[0]] = 0;
	seen[open[0]] = 1;
	while (n > 0) {
		int p = open[--n], parent = op[n], x = p % w, y = p / w;
		int nb[4][2] = { { x, y - 1 }, { x + 1, y }, { x, y + 1 }, { x - 1, y } };
		if (closed[p] != -1)
			continue;
		closed[p] = parent;
		if ((x - tx) * (x - tx) + (y - ty) * (y - ty) <= range * range) {
			int last = p;
			while (closed[p] != p) {
				last = p;
				p = closed[p];
			}
			/* decoded in the class's order (down, left, up, right): on a
			 * one-cell-wide map p + 1 is also p + w */
			dir = last == p + w ? MS_RTS_DOWN : last == p - 1 ? MS_RTS_LEFT : last == p - w ? MS_RTS_UP
			    : last == p + 1 ? MS_RTS_RIGHT : -1;
			break;
		}
		for (int d = 0; d < 4; d++) {
			int c = nb[d][0] + nb[d][1] * w, hc = abs(nb[d][0] - tx) + abs(nb[d][1] - ty), i;
			if (nb[d][0] < 0 || nb[d][1] < 0 || nb[d][0] >= w || nb[d][1] >= h || seen[c] || blocked[c])
				continue;
			cost[c] = cost[p] + 1;
			for (i = n - 1; i >= 0 && oh[i] + cost[open[i]] < hc + cost[c]; i--)
				;
			memmove(&open[i + 2], &open[i + 1], sizeof(int) * (size_t)(n - i - 1));
			memmove(&oh[i + 2], &oh[i + 1], sizeof(int) * (size_t)(n - i - 1));
			memmove(&op[i + 2], &op[i + 1], sizeof(int) * (size_t)(n - i - 1));
			open[i + 1] = c;
			oh[i + 1] = hc;
			op[i + 1] = p;
			n++;
			seen[c] = 1;
		}
	}
	free(open);
	free(closed);
	free(cost);
	free(seen);
	return dir;
}

static int rnd(ms_jrandom *r, int bound)
{
	int32_t v;
	assert_int_equal(ms_jrandom_next_int_bounded(r, bound, &v), MS_OK);
	return v;
}

/* A random map: walls, bases and resources (units that cannot move), and
 * workers of both players; some workers get a pending move. The walls are
 * drawn from `tr`, the units from `r`, the pending moves from `pr`; `xr`
 * (may be NULL) adds walls on cells no unit took, so two maps may differ in
 * their walls alone. */
static ms_rts_state *random_map_walls(ms_ctx *ctx, const ms_rts_utt *utt, ms_jrandom *tr, ms_jrandom *r,
				      ms_jrandom *pr, ms_jrandom *xr, int w, int h)
{
	static const char *const types[] = { "Worker", "Worker", "Worker", "Base", "Resource", "Barracks" };
	size_t cap = (size_t)w * h * 200 + 1024, len, ulen = 0;
	char *xml = malloc(cap), *units = malloc(cap), *terrain = malloc((size_t)w * h + 1);
	ms_rts_state *s = NULL;
	int id = 0, walls = rnd(tr, 4);

	assert_non_null(xml);
	assert_non_null(units);
	assert_non_null(terrain);
	for (int c = 0; c < w * h; c++)
		terrain[c] = rnd(tr, 10) < walls ? '1' : '0';
	terrain[w * h] = '\0';
	units[0] = '\0';
	for (int c = 0; c < w * h; c++) {
		const char *t = types[rnd(r, 6)];
		int player = !strcmp(t, "Resource") ? -1 : rnd(r, 2), keep = rnd(r, 10) < 3;
		if (terrain[c] != '0' || !keep) {
			if (xr && terrain[c] == '0' && !rnd(xr, 6))
				terrain[c] = 'x'; /* a wall no unit's draw depends on */
			continue;
		}
		ulen += (size_t)snprintf(units + ulen, cap - ulen,
					 "<rts.units.Unit type=\"%s\" ID=\"%d\" player=\"%d\" x=\"%d\" y=\"%d\" "
					 "resources=\"%d\" hitpoints=\"1\"></rts.units.Unit>",
					 t, id++, player, c % w, c / w, player < 0 ? 10 : 0);
	}
	for (int c = 0; c < w * h; c++)
		if (terrain[c] == 'x')
			terrain[c] = '1';
	len = (size_t)snprintf(xml, cap,
			       "<rts.PhysicalGameState width=\"%d\" height=\"%d\"><terrain>%s</terrain><players>"
			       "<rts.Player ID=\"0\" resources=\"5\"></rts.Player>"
			       "<rts.Player ID=\"1\" resources=\"5\"></rts.Player></players><units>%s"
			       "</units></rts.PhysicalGameState>",
			       w, h, terrain, units);
	assert_int_equal(ms_rts_state_from_map_xml(ctx, &s, utt, "random", xml, len, 0), MS_OK);
	free(xml);
	free(units);
	free(terrain);
	/* pending moves: GameState.free excludes the cells they target */
	for (int p = 0; p < 2; p++) {
		ms_rts_pair pairs[64];
		int n = 0;
		for (int i = 0; i < ms_rts_state_unit_count(s) && n < 64; i++) {
			ms_rts_unit u;
			ms_rts_action a = { MS_RTS_MOVE, rnd(pr, 4), -1, -1, -1 };
			ms_rts_state_unit(s, i, &u);
			if (u.player != p || strcmp(ms_rts_utt_type(utt, u.type)->name, "Worker") || rnd(pr, 3) ||
			    !ms_rts_action_legal(s, &u, &a))
				continue;
			pairs[n].unit = u;
			pairs[n++].action = a;
		}
		if (n)
			assert_int_equal(ms_rts_issue_safe(ctx, s, pairs, n, NULL), MS_OK);
	}
	return s;
}

static ms_rts_state *random_map(ms_ctx *ctx, const ms_rts_utt *utt, ms_jrandom *r, int w, int h)
{
	return random_map_walls(ctx, utt, r, r, r, NULL, w, h);
}

/* The blocked cells ms_bot_astar avoids: walls, units, pending moves' cells and `reserved`. */
static void blocked_cells(const ms_rts_state *s, int w, int h, const int *reserved, int nres, uint8_t *blocked)
{
	for (int c = 0; c < w * h; c++)
		blocked[c] = ms_rts_state_terrain(s, c % w, c / w) || ms_rts_state_unit_at(s, c % w, c / w) >= 0;
	for (int k = 0; k < ms_rts_state_assignment_count(s); k++) {
		ms_rts_unit u;
		ms_rts_action pend;
		int x, y, ui;
		assert_int_equal(ms_rts_state_assignment(s, k, &ui, &pend, NULL), MS_OK);
		ms_rts_state_unit(s, ui, &u);
		x = u.x + (pend.parameter == MS_RTS_RIGHT) - (pend.parameter == MS_RTS_LEFT);
		y = u.y + (pend.parameter == MS_RTS_DOWN) - (pend.parameter == MS_RTS_UP);
		if (pend.type == MS_RTS_MOVE && x >= 0 && y >= 0 && x < w && y < h)
			blocked[x + y * w] = 1;
	}
	for (int k = 0; k < nres; k++)
		blocked[reserved[k]] = 1;
}

/*
 * One memo for every search: the same queries (start, target, range,
 * reserved cells) asked twice on each of several maps of one size that
 * differ in their walls, their units, only their pending moves or only
 * their walls. A key
 * that left out any input would hand one map's answer to another; every
 * answer must be the class's.
 */
static void test_astar__a_memo_answers_only_the_same_search(void **state)
{
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_memo *memo;
	ms_memo_stats st;
	ms_jrandom r;
	int searches = 0;

	(void)state;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_rts_utt_new(ctx, &utt, 2, 1), MS_OK);
	assert_int_equal(ms_memo_new(ctx, &memo, 12), MS_OK);
	ms_jrandom_init(&r, 20261127);
	for (int fam = 0; fam < 30; fam++) {
		int w = 4 + rnd(&r, 12), h = 4 + rnd(&r, 12), cells = w * h, q[24][8];
		uint8_t *blocked = malloc((size_t)cells);
		assert_non_null(blocked);
		/* queries 12-23: 0-11 with other reserved cells */
		for (int k = 0; k < 24; k++) {
			q[k][0] = k < 12 ? rnd(&r, w) : q[k - 12][0];
			q[k][1] = k < 12 ? rnd(&r, h) : q[k - 12][1];
			q[k][2] = k >= 12 ? q[k - 12][2] : rnd(&r, 10) ? rnd(&r, cells) : -1;
			q[k][3] = k < 12 ? rnd(&r, 3) : q[k - 12][3];
			q[k][4] = 1 + rnd(&r, 3);
			for (int j = 0; j < 3; j++)
				q[k][5 + j] = rnd(&r, cells);
		}
		for (int wall = 0; wall < 2; wall++) {
			ms_jrandom walls = r, units;
			rnd(&r, 2); /* r moves on: the next walls differ */
			units = r;
			rnd(&r, 2);
			/* maps 0 and 1 share walls and units (not pending moves), 2 and 3 only walls,
			 * 4 has 0's units with more walls */
			for (int v = 0; v < 5; v++) {
				ms_jrandom tr = walls, ur = units, pr = r;
				ms_rts_state *s = random_map_walls(ctx, utt, &tr, v < 2 || v == 4 ? &ur : &r, &r,
								   v == 4 ? &pr : NULL, w, h);
				for (int rep = 0; rep < 2; rep++)
					for (int k = 0; k < 24; k++) {
						ms_rts_action a;
						blocked_cells(s, w, h, &q[k][5], q[k][4], blocked);
						assert_int_equal(ms_bot_astar_memo(ctx, memo, s, q[k][0], q[k][1], q[k][2],
										   q[k][3], &q[k][5], q[k][4], &a),
								 MS_OK);
						assert_int_equal(a.type < 0 ? -1 : a.parameter,
								 java_first_step(s, blocked, q[k][0], q[k][1], q[k][2],
										 q[k][3]));
						searches++;
					}
				ms_rts_state_free(s);
			}
		}
		free(blocked);
	}
	ms_memo_get_stats(memo, &st);
	/* the second asking of each search on a map at least (start in range: no search) */
	assert_true(st.hits >= (uint64_t)searches / 4);
	ms_memo_free(memo);
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
}

static void test_astar__same_steps_as_the_ordered_open_list_on_random_maps(void **state)
{
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_jrandom r;
	int searches = 0, moves = 0, none = 0;

	(void)state;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_rts_utt_new(ctx, &utt, 2, 1), MS_OK);
	ms_jrandom_init(&r, 20240611);
	for (int m = 0; m < 150; m++) {
		int w = 1 + rnd(&r, 16), h = 1 + rnd(&r, 16), cells = w * h;
		ms_rts_state *s = random_map(ctx, utt, &r, w, h);
		uint8_t *blocked = malloc((size_t)cells);
		assert_non_null(blocked);
		for (int q = 0; q < 40; q++) {
			int sx = rnd(&r, w), sy = rnd(&r, h), range = rnd(&r, 4), reserved[3], nres = rnd(&r, 4);
			/* a target off the map as well: findBuildingPosition's -1 */
			int target = rnd(&r, 10) ? rnd(&r, cells) : -1;
			ms_rts_action a;
			for (int k = 0; k < nres; k++)
				reserved[k] = rnd(&r, cells);
			blocked_cells(s, w, h, reserved, nres, blocked);
			assert_int_equal(ms_bot_astar(ctx, s, sx, sy, target, range, reserved, nres, &a), MS_OK);
			assert_int_equal(a.type < 0 ? -1 : a.parameter, java_first_step(s, blocked, sx, sy, target, range));
			searches++;
			moves += a.type >= 0;
			none += a.type < 0;
		}
		free(blocked);
		ms_rts_state_free(s);
	}
	/* the maps exercise both outcomes */
	assert_true(moves > searches / 10);
	assert_true(none > searches / 10);
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_astar__worked_examples_of_the_java_class),
		cmocka_unit_test(test_astar__walls_units_and_reserved_cells_block),
		cmocka_unit_test(test_astar__same_steps_as_the_ordered_open_list_on_random_maps),
		cmocka_unit_test(test_astar__a_memo_answers_only_the_same_search),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
