/*
 * The two searches of TMA the shared A* (astar.c) does not give: the
 * length of the path AStarPathFinding.findDistToPositionInRange measures,
 * and ScoutPathFinding, TMA's copy of the same A* in which a cell holding
 * a resource counts as free (the scout's first step onto one becomes a
 * HARVEST). Both keep the official OPEN order: lowest f first, the latest
 * pushed first among equal f (a stack per f value, as astar.c explains),
 * neighbours pushed up, right, down, left, so the path, and its first
 * step, are the jar's.
 */
#include "tma_internal.h"

int tma_path_grow(ms_ctx *ctx, tma_path *p, int cells)
{
	int cap_f = 2 * cells + 2;

	if (cells <= p->cap)
		return MS_OK;
	tma_path_dispose(ctx, p);
	p->mark = ms_ctx_calloc(ctx, (size_t)cells, sizeof(uint32_t));
	p->parent = ms_ctx_malloc(ctx, sizeof(int) * (size_t)cells);
	p->cost = ms_ctx_malloc(ctx, sizeof(int) * (size_t)cells);
	p->next = ms_ctx_malloc(ctx, sizeof(int) * (size_t)cells);
	p->head = ms_ctx_malloc(ctx, sizeof(int) * (size_t)cap_f);
	if (!p->mark || !p->parent || !p->cost || !p->next || !p->head) {
		tma_path_dispose(ctx, p);
		return ms_ctx_error(ctx, MS_ENOMEM, "TMA: out of memory for the searches of %d cells", cells);
	}
	for (int i = 0; i < cap_f; i++)
		p->head[i] = -1;
	p->cap = cells;
	p->cap_f = cap_f;
	return MS_OK;
}

void tma_path_dispose(ms_ctx *ctx, tma_path *p)
{
	ms_ctx_mfree(ctx, p->mark);
	ms_ctx_mfree(ctx, p->parent);
	ms_ctx_mfree(ctx, p->cost);
	ms_ctx_mfree(ctx, p->next);
	ms_ctx_mfree(ctx, p->head);
	memset(p, 0, sizeof(*p));
}

/* Whether the search may step on cell c: GameState.free, or (scout) a resource there. */
static inline int passable(const bot_frame *f, int c, int scout)
{
	const ms_rts_state *s = f->s;
	int u = rts_cgrid(s)[c];

	if (rts_cterrain(s)[c])
		return 0;
	if (u)
		return scout && s->utt->types[rts_cunits(s)[u - 1].u.type].is_resource;
	return !f->pend[c];
}

/*
 * The search from (sx, sy) to any cell within Euclidean `range` of
 * `target`: the cell reached (the start when it is in range), or -1.
 * parent[] and cost[] then hold the path. Like the jar, it reads the start
 * and the target as linear cells (x + y*w): a base remembered from a game
 * on a larger map by a bot nobody reset starts where that index falls;
 * one past the map's cells finds nothing (the jar's arrays would throw or
 * hold an earlier map's size).
 */
static int search(tma_path *p, const bot_frame *f, int sx, int sy, int target, int range, const int *reserved,
		  int n, int scout)
{
	int w = f->w, h = f->h, cells = w * h;
	int tx = target % w, ty = target / w, r2 = range * range;
	long linear = (long)sx + (long)sy * w;
	int start, f0, fcur = 0, fmax = 0, goal = -1;

	if (linear < 0 || linear >= cells || target < 0)
		return -1;
	start = (int)linear;
	sx = start % w;
	sy = start / w;
	f0 = abs(sx - tx) + abs(sy - ty);
	if (++p->gen == 0) {
		memset(p->mark, 0, sizeof(uint32_t) * (size_t)p->cap);
		p->gen = 1;
	}
	for (int i = 0; i < n; i++)
		if (reserved[i] >= 0 && reserved[i] < cells)
			p->mark[reserved[i]] = p->gen;
	p->mark[start] = p->gen;
	p->parent[start] = start;
	p->cost[start] = 0;
	p->next[start] = -1;
	p->head[0] = start;
	for (;;) {
		int c, x, y;
		while (fcur <= fmax && p->head[fcur] < 0)
			fcur++;
		if (fcur > fmax)
			break;
		c = p->head[fcur];
		p->head[fcur] = p->next[c];
		x = c % w;
		y = c / w;
		if ((x - tx) * (x - tx) + (y - ty) * (y - ty) <= r2) {
			goal = c;
			break;
		}
		for (int d = 0; d < 4; d++) {
			int nx = x + rts_dx[d], ny = y + rts_dy[d], nc, fv;
			if (nx < 0 || ny < 0 || nx >= w || ny >= h)
				continue;
			nc = nx + ny * w;
			if (p->mark[nc] == p->gen)
				continue;
			p->mark[nc] = p->gen;
			if (!passable(f, nc, scout))
				continue;
			p->parent[nc] = c;
			p->cost[nc] = p->cost[c] + 1;
			fv = p->cost[nc] + abs(nx - tx) + abs(ny - ty) - f0;
			p->next[nc] = p->head[fv];
			p->head[fv] = nc;
			if (fv > fmax)
				fmax = fv;
		}
	}
	for (int k = fcur; k <= fmax; k++)
		p->head[k] = -1;
	return goal;
}

int tma_path_dist(tma_path *p, const bot_frame *f, int sx, int sy, int target, int range)
{
	int goal = search(p, f, sx, sy, target, range, NULL, 0, 0);
	return goal < 0 ? -1 : p->cost[goal];
}

int tma_path_scout(tma_path *p, const bot_frame *f, int sx, int sy, int target, int range, const int *reserved,
		   int n, int *harvest)
{
	int w = f->w, start = sx + sy * w, c = search(p, f, sx, sy, target, range, reserved, n, 1), last;

	*harvest = 0;
	if (c < 0)
		return -1;
	last = c;
	while (p->parent[c] != c) {
		last = c;
		c = p->parent[c];
	}
	if (last == start)
		return -1;
	*harvest = rts_cgrid(f->s)[last] != 0; /* only a resource can stand on the path */
	/* the jar's order of tests (a map one cell wide takes the first that matches) */
	if (last == start + w)
		return MS_RTS_DOWN;
	if (last == start - 1)
		return MS_RTS_LEFT;
	if (last == start - w)
		return MS_RTS_UP;
	if (last == start + 1)
		return MS_RTS_RIGHT;
	*harvest = 0;
	return -1;
}
