/*
 * AStarPathFinding of the official bots, reproduced step for step because
 * its tie-breaking decides which of several shortest paths a unit walks:
 * the OPEN list is kept ordered by non-increasing f (cost + Manhattan
 * heuristic), a new entry goes right after the last entry whose f is >= its
 * own, and the last entry is expanded first, so equal f means last in,
 * first out. Neighbours are generated up, right, down, left.
 */
#include <string.h>

#include "bots_internal.h"

int bot_frame_init(ms_ctx *ctx, bot_frame *f, const ms_rts_state *s)
{
	const rts_assign *as = rts_cassigns(s);
	const rts_unit *us = rts_cunits(s);

	f->s = s;
	f->w = s->width;
	f->h = s->height;
	f->pend = ms_ctx_calloc(ctx, (size_t)s->cells, 1);
	if (!f->pend)
		return ms_ctx_error(ctx, MS_ENOMEM, "bot: out of memory for a %dx%d map", s->width, s->height);
	f->pend_cost[0] = f->pend_cost[1] = 0;
	for (int k = 0; k < s->n_assign; k++) {
		const rts_assign *a = &as[k];
		int t = a->action.type, d = a->action.parameter;
		const ms_rts_unit *u = &us[a->unit].u;
		if (t != MS_RTS_MOVE && t != MS_RTS_PRODUCE)
			continue;
		/* GameState.free compares the target by coordinates, so only
		 * in-map targets can block a cell. */
		if (d >= 0 && d < 4 && rts_inside(s, u->x + rts_dx[d], u->y + rts_dy[d]))
			f->pend[(u->x + rts_dx[d]) + (u->y + rts_dy[d]) * s->width] = 1;
		f->pend_cost[0] += a->use_cost[0];
		f->pend_cost[1] += a->use_cost[1];
	}
	return MS_OK;
}

void bot_frame_dispose(ms_ctx *ctx, bot_frame *f)
{
	ms_ctx_mfree(ctx, f->pend);
	f->pend = NULL;
}

int bot_frame_free(const bot_frame *f, int x, int y)
{
	int c = x + y * f->w;
	return !rts_cterrain(f->s)[c] && !rts_cgrid(f->s)[c] && !f->pend[c];
}

int bot_astar_grow(ms_ctx *ctx, bot_astar *a, int cells)
{
	if (cells <= a->cap)
		return MS_OK;
	bot_astar_dispose(ctx, a);
	a->cache = ms_ctx_malloc(ctx, (size_t)cells);
	a->added = ms_ctx_malloc(ctx, (size_t)cells);
	a->closed = ms_ctx_malloc(ctx, sizeof(int) * (size_t)cells);
	a->cost = ms_ctx_malloc(ctx, sizeof(int) * (size_t)cells);
	a->open_cell = ms_ctx_malloc(ctx, sizeof(int) * (size_t)cells);
	a->open_h = ms_ctx_malloc(ctx, sizeof(int) * (size_t)cells);
	a->open_parent = ms_ctx_malloc(ctx, sizeof(int) * (size_t)cells);
	if (!a->cache || !a->added || !a->closed || !a->cost || !a->open_cell || !a->open_h || !a->open_parent) {
		bot_astar_dispose(ctx, a);
		return ms_ctx_error(ctx, MS_ENOMEM, "A*: out of memory for %d cells", cells);
	}
	a->cap = cells;
	return MS_OK;
}

void bot_astar_dispose(ms_ctx *ctx, bot_astar *a)
{
	ms_ctx_mfree(ctx, a->cache);
	ms_ctx_mfree(ctx, a->added);
	ms_ctx_mfree(ctx, a->closed);
	ms_ctx_mfree(ctx, a->cost);
	ms_ctx_mfree(ctx, a->open_cell);
	ms_ctx_mfree(ctx, a->open_h);
	ms_ctx_mfree(ctx, a->open_parent);
	memset(a, 0, sizeof(*a));
}

static inline int iabs(int v)
{
	return v < 0 ? -v : v;
}

/* AStarPathFinding.addToOpen; `n` entries are on OPEN. */
static void add_to_open(bot_astar *a, int *n, int cell, int parent, int h)
{
	int fnew, i;

	a->cost[cell] = a->cost[parent] + 1;
	fnew = h + a->cost[cell];
	for (i = *n - 1; i >= 0; i--)
		if (a->open_h[i] + a->cost[a->open_cell[i]] >= fnew)
			break;
	/* i is the entry to insert after (-1: the front) */
	for (int j = *n; j > i + 1; j--) {
		a->open_cell[j] = a->open_cell[j - 1];
		a->open_h[j] = a->open_h[j - 1];
		a->open_parent[j] = a->open_parent[j - 1];
	}
	a->open_cell[i + 1] = cell;
	a->open_h[i + 1] = h;
	a->open_parent[i + 1] = parent;
	(*n)++;
	a->added[cell] = 1;
}

/* Looks a neighbour up (the cache spares repeated GameState.free calls,
 * and reserved cells are pre-marked blocked in it) and adds it if free. */
static void consider(bot_astar *a, const bot_frame *f, int *n, int nx, int ny, int from, int tx, int ty)
{
	int c = nx + ny * f->w;

	if (a->added[c])
		return;
	if (a->cache[c] == 0)
		a->cache[c] = bot_frame_free(f, nx, ny) ? 1 : -1;
	if (a->cache[c] == 1)
		add_to_open(a, n, c, from, iabs(nx - tx) + iabs(ny - ty));
}

void bot_astar_find(bot_astar *a, const bot_frame *f, int sx, int sy, int target, int range, const int *reserved,
		    int n_reserved, int *dir)
{
	int w = f->w, h = f->h, cells = w * h;
	int tx = target % w, ty = target / w, r2 = range * range;
	int start = sx + sy * w, n = 0;

	*dir = -1;
	memset(a->cache, 0, (size_t)cells);
	memset(a->added, 0, (size_t)cells);
	for (int i = 0; i < cells; i++)
		a->closed[i] = -1;
	for (int i = 0; i < n_reserved; i++)
		if (reserved[i] >= 0 && reserved[i] < cells)
			a->cache[reserved[i]] = -1;
	a->open_cell[0] = start;
	a->open_h[0] = iabs(sx - tx) + iabs(sy - ty);
	a->open_parent[0] = start;
	a->added[start] = 1;
	a->cost[start] = 0;
	n = 1;
	while (n > 0) {
		int p, parent, px, py;
		n--;
		p = a->open_cell[n];
		parent = a->open_parent[n];
		if (a->closed[p] != -1)
			continue;
		a->closed[p] = parent;
		px = p % w;
		py = p / w;
		if ((px - tx) * (px - tx) + (py - ty) * (py - ty) <= r2) {
			int last = p;
			while (parent != p) {
				last = p;
				p = parent;
				parent = a->closed[p];
			}
			/* p is the start now, last the first step (or the start) */
			if (last == p + w)
				*dir = MS_RTS_DOWN;
			else if (last == p - 1)
				*dir = MS_RTS_LEFT;
			else if (last == p - w)
				*dir = MS_RTS_UP;
			else if (last == p + 1)
				*dir = MS_RTS_RIGHT;
			return;
		}
		if (py > 0)
			consider(a, f, &n, px, py - 1, p, tx, ty);
		if (px < w - 1)
			consider(a, f, &n, px + 1, py, p, tx, ty);
		if (py < h - 1)
			consider(a, f, &n, px, py + 1, p, tx, ty);
		if (px > 0)
			consider(a, f, &n, px - 1, py, p, tx, ty);
	}
}

int ms_bot_astar(ms_ctx *ctx, const ms_rts_state *state, int sx, int sy, int target, int range,
		 const int *reserved, int n_reserved, ms_rts_action *out)
{
	bot_frame f;
	bot_astar a;
	int rc, dir;

	memset(&a, 0, sizeof(a));
	out->type = -1;
	out->parameter = -1;
	out->x = out->y = -1;
	out->unit_type = -1;
	if (!rts_inside(state, sx, sy) || range < 0)
		return ms_ctx_error(ctx, MS_EINVAL, "A*: start (%d,%d) outside the map or range %d < 0", sx, sy, range);
	if ((rc = bot_frame_init(ctx, &f, state)))
		return rc;
	if ((rc = bot_astar_grow(ctx, &a, state->cells)) == MS_OK) {
		bot_astar_find(&a, &f, sx, sy, target, range, reserved, n_reserved, &dir);
		if (dir >= 0) {
			out->type = MS_RTS_MOVE;
			out->parameter = dir;
		}
	}
	bot_astar_dispose(ctx, &a);
	bot_frame_dispose(ctx, &f);
	return rc;
}
