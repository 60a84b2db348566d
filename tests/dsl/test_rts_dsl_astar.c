/*
 * The DSL layer's path search (rd_astar, two LIFO stacks over the blocked
 * cells kept between decisions) against a plain reading of the JAR's
 * AStarPathFinding: OPEN a list, the smallest f expanded first and among
 * equal f the entry added last, a cell put on OPEN once, the first step
 * found by walking the parents back. Random walled maps, random units,
 * claims, ranges, off-map targets and budgets; the same layer across
 * decisions on changing units and a changing terrain.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "games/microrts/dsl/rts_dsl_internal.h"
#include "microsynth/microrts.h"
#include "microsynth/jrandom.h"

#define W 13
#define H 11

/* Random.nextInt(bound), bound > 0. */
static int draw(ms_jrandom *r, int bound)
{
	int32_t v = 0;
	assert_int_equal(ms_jrandom_next_int_bounded(r, bound, &v), MS_OK);
	return v;
}

typedef struct {
	int w, h;
	const uint8_t *terrain;
	const uint16_t *grid;
	const uint32_t *ru;
	uint32_t tick;
} ref_map;

static int ref_blocked(const ref_map *m, int c, int use_ru)
{
	return m->terrain[c] || m->grid[c] || (use_ru && m->ru[c] == m->tick);
}

/* The reference: O(n^2), written from the Java class's description. */
static void ref_astar(const ref_map *m, int sx, int sy, int target, int range, int use_ru, long budget, int *dir,
		      int *goal, long *pops)
{
	int n = m->w * m->h, tx = target % m->w, ty = target / m->w, start = sx + sy * m->w, n_open = 0, seq = 0;
	int *open, *ord, *g, *f, *par;
	char *put;

	if ((sx - tx) * (sx - tx) + (sy - ty) * (sy - ty) <= range * range) {
		*dir = *goal = -1; /* the start qualifies: no step (the layer's contract) */
		*pops = 0;
		return;
	}
	open = malloc(sizeof(int) * (size_t)n);
	ord = malloc(sizeof(int) * (size_t)n);
	g = malloc(sizeof(int) * (size_t)n);
	f = malloc(sizeof(int) * (size_t)n);
	par = malloc(sizeof(int) * (size_t)n);
	put = calloc((size_t)n, 1);

	*dir = *goal = -1;
	*pops = 0;
	assert_non_null(open);
	assert_non_null(ord);
	assert_non_null(g);
	assert_non_null(f);
	assert_non_null(par);
	assert_non_null(put);
	put[start] = 1;
	g[start] = 0;
	f[start] = abs(sx - tx) + abs(sy - ty);
	par[start] = start;
	ord[start] = seq++;
	open[n_open++] = start;
	while (n_open > 0) {
		int best = 0, p, px, py;
		for (int i = 1; i < n_open; i++)
			if (f[open[i]] < f[open[best]] || (f[open[i]] == f[open[best]] && ord[open[i]] > ord[open[best]]))
				best = i;
		p = open[best];
		open[best] = open[--n_open];
		if (++*pops > budget)
			break;
		px = p % m->w;
		py = p / m->w;
		if ((px - tx) * (px - tx) + (py - ty) * (py - ty) <= range * range) {
			int q = p;
			while (par[q] != start)
				q = par[q];
			*goal = p;
			*dir = q == start - m->w ? MS_RTS_UP : q == start + 1 ? MS_RTS_RIGHT : q == start + m->w ? MS_RTS_DOWN
												 : MS_RTS_LEFT;
			break;
		}
		for (int d = 0; d < 4; d++) {
			int nx = px + rts_dx[d], ny = py + rts_dy[d], c = nx + ny * m->w;
			if (nx < 0 || ny < 0 || nx >= m->w || ny >= m->h || put[c] || ref_blocked(m, c, use_ru))
				continue;
			put[c] = 1;
			g[c] = g[p] + 1;
			f[c] = g[c] + abs(nx - tx) + abs(ny - ty);
			par[c] = p;
			ord[c] = seq++;
			open[n_open++] = c;
		}
	}
	free(open);
	free(ord);
	free(g);
	free(f);
	free(par);
	free(put);
}

/* A map with random walls (`wall_seed`) and workers on random free cells. */
static ms_rts_state *random_state(ms_ctx *ctx, ms_rts_utt *utt, ms_jrandom *rng, int64_t wall_seed, int units)
{
	static char xml[16384];
	char terrain[W * H + 1];
	ms_jrandom walls;
	ms_rts_state *s;
	size_t n;

	ms_jrandom_init(&walls, wall_seed);
	for (int c = 0; c < W * H; c++)
		terrain[c] = draw(&walls, 100) < 28 ? '1' : '0';
	terrain[W * H] = 0;
	n = (size_t)snprintf(xml, sizeof(xml),
			     "<rts.PhysicalGameState width=\"%d\" height=\"%d\"><terrain>%s</terrain><players>"
			     "<rts.Player ID=\"0\" resources=\"5\"></rts.Player><rts.Player ID=\"1\" resources=\"5\">"
			     "</rts.Player></players><units>",
			     W, H, terrain);
	for (int i = 0; i < units; i++) {
		int c = draw(rng, W * H);
		if (terrain[c] == '1')
			continue;
		terrain[c] = '1'; /* one unit a cell (the map's terrain string is already written) */
		n += (size_t)snprintf(xml + n, sizeof(xml) - n,
				      "<rts.units.Unit type=\"Worker\" ID=\"%d\" player=\"%d\" x=\"%d\" y=\"%d\" "
				      "resources=\"0\" hitpoints=\"1\"></rts.units.Unit>",
				      i, i % 2, c % W, c / W);
	}
	snprintf(xml + n, sizeof(xml) - n, "</units></rts.PhysicalGameState>");
	assert_int_equal(ms_rts_state_from_map_xml(ctx, &s, utt, "random", xml, strlen(xml), 0), MS_OK);
	return s;
}

/* Searches of one decision in L, each compared with the reference; claims
 * in between as desires make them. Returns the searches that found a path. */
static int compare_decision(rd_layer *L, const ms_rts_state *s, ms_jrandom *rng, long budget)
{
	ref_map m = { L->w, L->h, L->terrain, L->grid, L->ru, L->tick };
	int found = 0;

	for (int k = 0; k < 400; k++) {
		int sx = draw(rng, W), sy = draw(rng, H), dir, goal, rdir, rgoal;
		/* targets off the map too: Java's linear arithmetic */
		int target = draw(rng, W * H + 2 * W) - W, range = draw(rng, 4);
		int use_ru = draw(rng, 2);
		long before = L->expanded, pops;
		if (!L->grid[sx + sy * W])
			continue; /* units search from their own cells */
		rd_astar(L, sx, sy, target, range, use_ru, &dir, &goal);
		ref_astar(&m, sx, sy, target, range, use_ru, budget - before, &rdir, &rgoal, &pops);
		if (dir != rdir || goal != rgoal)
			fail_msg("from (%d,%d) to %d range %d ru %d: step %d goal %d, the reference %d goal %d", sx, sy,
				 target, range, use_ru, dir, goal, rdir, rgoal);
		/* the budget's count: the reference stops one past it as the layer does */
		if (before + pops <= budget && L->expanded - before != pops)
			fail_msg("from (%d,%d) to %d: %ld expansions, the reference %ld", sx, sy, target,
				 L->expanded - before, pops);
		found += goal >= 0;
		if (draw(rng, 30) == 0) { /* a desire claims a free cell */
			int c = draw(rng, W * H);
			if (!L->terrain[c] && !L->grid[c]) {
				/* as rd_layer_translate claims */
				L->ru[c] = L->tick;
				if (L->lab_tick == L->tick && (L->lab_ru || L->n_claims == 0))
					rd_regions_claim(L, c);
				L->claims[L->n_claims++] = c;
			}
		}
	}
	assert_int_equal(L->cells_wrong, 0);
	return found;
}

static void test_rts_dsl_astar__the_search_is_the_jar_search(void **state)
{
	ms_ctx *ctx;
	ms_rts_utt *utt;
	ms_jrandom rng;
	rd_layer L;
	int found = 0;
	(void)state;
	assert_int_equal(ms_ctx_new(&ctx, NULL), MS_OK);
	assert_int_equal(ms_rts_utt_new(ctx, &utt, 2, 1), MS_OK);
	ms_jrandom_init(&rng, 28);
	rd_layer_init(&L, ctx);
	L.check_cells = 1;
	for (int k = 0; k < 60; k++) {
		/* the terrain changes every tenth decision; units every decision */
		ms_rts_state *s = random_state(ctx, utt, &rng, 1 + k / 10, 4 + k % 9);
		long budget = k % 4 == 3 ? 5 + k : 400000;
		L.budget = budget;
		L.full_paths = k % 2; /* with and without the region test */
		assert_int_equal(rd_layer_begin(&L, s, k % 2), MS_OK);
		found += compare_decision(&L, s, &rng, budget);
		ms_rts_state_free(s);
	}
	/* the comparison saw paths, not only failures */
	assert_true(found > 300);
	rd_layer_dispose(&L);
	ms_rts_utt_free(utt);
	ms_ctx_free(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rts_dsl_astar__the_search_is_the_jar_search),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
