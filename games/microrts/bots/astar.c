/*
 * The bots' per-decision view of the state (bot_frame), and the official
 * AStarPathFinding, reproduced step for step because its tie-breaking
 * decides which of several shortest paths a unit walks: the OPEN list is
 * kept ordered by non-increasing f (cost + Manhattan heuristic), a new
 * entry goes right after the last entry whose f is >= its own, and the last
 * entry is expanded first, so equal f means last in, first out. Neighbours
 * are generated up, right, down, left.
 */
#include <stdint.h>
#include <string.h>

#include "bots_internal.h"

/* Grows the frame's cell buffers (kept: pend is cleared cell by cell, which is
 * cheaper than zeroing a map per decision); the unit lists are scratch. */
static int frame_grow(ms_ctx *ctx, bot_frame *f, int cells, int units, int player)
{
	if (cells > f->cap_cells) {
		ms_ctx_mfree(ctx, f->pend);
		ms_ctx_mfree(ctx, f->pend_cells);
		f->pend = ms_ctx_calloc(ctx, (size_t)cells, 1);
		f->pend_cells = ms_ctx_malloc(ctx, sizeof(int) * (size_t)cells);
		f->n_pend = 0;
		f->cap_cells = f->pend && f->pend_cells ? cells : 0;
		if (!f->cap_cells)
			return MS_ENOMEM;
	}
	if (player >= 0) {
		bf_unit *all = bot_scratch(f, 4 * (size_t)units, sizeof(bf_unit), 0);
		if (!all)
			return MS_ENOMEM;
		f->own = all, f->others = all + units, f->res = all + 2 * units, f->stock = all + 3 * units;
	}
	return MS_OK;
}

int bot_scratch_ints(bot_frame *f, int **const parts[], const size_t len[], int n)
{
	size_t total = 0;
	int *all;

	for (int k = 0; k < n; k++) {
		if (len[k] > SIZE_MAX / sizeof(int) - total)
			return ms_ctx_error(f->ctx, MS_ENOMEM, "bot scratch of %d arrays overflows", n);
		total += len[k];
	}
	if (!(all = bot_scratch(f, total, sizeof(int), 0)))
		return MS_ENOMEM;
	for (int k = 0; k < n; k++) {
		*parts[k] = all;
		all += len[k];
	}
	return MS_OK;
}

void *bot_scratch(bot_frame *f, size_t n, size_t size, int zero)
{
	if (!f->scratch && ms_arena_new(&f->scratch, f->ctx, 0) < 0)
		return NULL;
	if (zero)
		return ms_arena_calloc(f->scratch, n, size);
	if (size && n > SIZE_MAX / size) {
		ms_ctx_error(f->ctx, MS_ENOMEM, "bot scratch of %zu x %zu bytes overflows", n, size);
		return NULL;
	}
	return ms_arena_alloc(f->scratch, n * size);
}

static inline bf_unit at(const ms_rts_unit *u, int i)
{
	bf_unit b;
	b.x = u->x;
	b.y = u->y;
	b.i = i;
	return b;
}

static void frame_roles(bot_frame *f, const ms_rts_utt *utt)
{
	memset(f->role, 0, sizeof(f->role));
	for (int t = 0; t < utt->n_types && t < MS_RTS_MAX_TYPES; t++)
		f->role[t] = (uint8_t)((utt->types[t].is_resource ? BF_RESOURCE : 0) |
				       (utt->types[t].is_stockpile ? BF_STOCKPILE : 0));
	f->roles_of = utt;
}

/* The role lists of `player`. */
static void frame_units(bot_frame *f, const ms_rts_state *s, int player)
{
	const rts_unit *us = rts_cunits(s);
	int n_own = 0, n_others = 0, n_res = 0, n_stock = 0;

	if (f->roles_of != s->utt)
		frame_roles(f, s->utt);
	for (int i = 0; i < s->n_units; i++) {
		const ms_rts_unit *u = &us[i].u;
		int role = f->role[u->type];
		if (u->player == player) {
			f->own[n_own++] = at(u, i);
			if (role & BF_STOCKPILE)
				f->stock[n_stock++] = at(u, i);
		} else if (u->player >= 0) {
			f->others[n_others++] = at(u, i);
		}
		if (role & BF_RESOURCE)
			f->res[n_res++] = at(u, i);
	}
	f->n_own = n_own;
	f->n_others = n_others;
	f->n_res = n_res;
	f->n_stock = n_stock;
}

int bot_frame_begin(ms_ctx *ctx, bot_frame *f, const ms_rts_state *s, int player)
{
	const rts_assign *as = rts_cassigns(s);
	const rts_unit *us = rts_cunits(s);

	/* forget the previous decision's pending cells before the buffers may move */
	for (int k = 0; k < f->n_pend; k++)
		f->pend[f->pend_cells[k]] = 0;
	f->n_pend = 0;
	f->ctx = ctx;
	ms_arena_reset(f->scratch);
	if (frame_grow(ctx, f, s->cells, s->n_units, player))
		return ms_ctx_error(ctx, MS_ENOMEM, "bot: out of memory for a %dx%d map with %d units", s->width,
				    s->height, s->n_units);
	f->s = s;
	f->w = s->width;
	f->h = s->height;
	f->serial++;
	f->pend_cost[0] = f->pend_cost[1] = 0;
	for (int k = 0; k < s->n_assign; k++) {
		const rts_assign *a = &as[k];
		int t = a->action.type, d = a->action.parameter;
		const ms_rts_unit *u = &us[a->unit].u;
		if (t != MS_RTS_MOVE && t != MS_RTS_PRODUCE)
			continue;
		/* GameState.free compares the target by coordinates, so only
		 * in-map targets can block a cell. */
		if (d >= 0 && d < 4 && rts_inside(s, u->x + rts_dx[d], u->y + rts_dy[d])) {
			int c = (u->x + rts_dx[d]) + (u->y + rts_dy[d]) * s->width;
			if (!f->pend[c]) {
				f->pend[c] = 1;
				f->pend_cells[f->n_pend++] = c;
			}
		}
		f->pend_cost[0] += a->use_cost[0];
		f->pend_cost[1] += a->use_cost[1];
	}
	f->player = player;
	if (player >= 0)
		frame_units(f, s, player);
	return MS_OK;
}

int bot_frame_find(const bot_frame *f, int64_t id, int hint)
{
	const rts_unit *us = rts_cunits(f->s);
	int n = f->s->n_units, k = hint < 0 ? n - 1 : hint < n ? hint : n - 1;

	/* down from the hint first: a unit only moves down the list */
	for (int i = k; i >= 0; i--)
		if (us[i].u.id == id)
			return i;
	for (int i = k + 1; i < n; i++)
		if (us[i].u.id == id)
			return i;
	return -1;
}

void bot_frame_dispose(ms_ctx *ctx, bot_frame *f)
{
	ms_ctx_mfree(ctx, f->pend);
	ms_ctx_mfree(ctx, f->pend_cells);
	ms_arena_free(f->scratch);
	memset(f, 0, sizeof(*f));
}

int bot_astar_grow(ms_ctx *ctx, bot_astar *a, int cells)
{
	/* buckets are kept relative to the start's f: along a path of n steps
	 * f grows by at most 2n, and a path has fewer steps than the map cells */
	int cap_f = 2 * cells + 2;
	ms_memo *memo = a->memo; /* the owner's, not scratch */

	if (cells <= a->cap)
		return MS_OK;
	bot_astar_dispose(ctx, a);
	a->memo = memo;
	a->mark = ms_ctx_calloc(ctx, (size_t)cells, sizeof(uint32_t));
	a->parent = ms_ctx_malloc(ctx, sizeof(int) * (size_t)cells);
	a->cost = ms_ctx_malloc(ctx, sizeof(int) * (size_t)cells);
	a->next = ms_ctx_malloc(ctx, sizeof(int) * (size_t)cells);
	a->px = ms_ctx_malloc(ctx, sizeof(int16_t) * (size_t)cells);
	a->py = ms_ctx_malloc(ctx, sizeof(int16_t) * (size_t)cells);
	a->head = ms_ctx_malloc(ctx, sizeof(int) * (size_t)cap_f);
	a->comp = ms_ctx_malloc(ctx, sizeof(int) * (size_t)cells);
	a->terrain = ms_ctx_malloc(ctx, (size_t)cells);
	a->fixed = ms_ctx_malloc(ctx, sizeof(int) * (size_t)cells);
	if (!a->mark || !a->parent || !a->cost || !a->next || !a->px || !a->py || !a->head || !a->comp ||
	    !a->terrain || !a->fixed) {
		bot_astar_dispose(ctx, a);
		return ms_ctx_error(ctx, MS_ENOMEM, "A*: out of memory for %d cells", cells);
	}
	for (int i = 0; i < cap_f; i++)
		a->head[i] = -1;
	a->cap = cells;
	a->cap_f = cap_f;
	return MS_OK;
}

void bot_astar_dispose(ms_ctx *ctx, bot_astar *a)
{
	ms_ctx_mfree(ctx, a->mark);
	ms_ctx_mfree(ctx, a->parent);
	ms_ctx_mfree(ctx, a->cost);
	ms_ctx_mfree(ctx, a->next);
	ms_ctx_mfree(ctx, a->px);
	ms_ctx_mfree(ctx, a->py);
	ms_ctx_mfree(ctx, a->head);
	ms_ctx_mfree(ctx, a->comp);
	ms_ctx_mfree(ctx, a->terrain);
	ms_ctx_mfree(ctx, a->fixed);
	memset(a, 0, sizeof(*a));
}

static inline int iabs(int v)
{
	return v < 0 ? -v : v;
}

/* Labels the regions of cells free of walls and of units that cannot move
 * (flood fill; `next` serves as the stack, it is free between searches). */
static void regions_build(bot_astar *a, const bot_frame *f)
{
	const ms_rts_state *s = f->s;
	const uint8_t *terrain = rts_cterrain(s);
	int w = f->w, h = f->h, cells = w * h, label = 0;

	memcpy(a->terrain, terrain, (size_t)cells);
	a->terrain_hash[0] = a->terrain_hash[1] = 0;
	for (int c = 0; c < cells; c++) {
		a->comp[c] = terrain[c] ? 0 : -1;
		if (terrain[c])
			ms_zobrist_flip(a->terrain_hash, (uint64_t)c);
	}
	for (int k = 0; k < a->n_fixed; k++)
		a->comp[a->fixed[k]] = 0;
	for (int c0 = 0; c0 < cells; c0++) {
		int top = 0;
		if (a->comp[c0] != -1)
			continue;
		a->comp[c0] = ++label;
		a->next[top++] = c0;
		while (top > 0) {
			int c = a->next[--top], x = c % w, y = c / w;
			int nb[4] = { y > 0 ? c - w : -1, x < w - 1 ? c + 1 : -1, y < h - 1 ? c + w : -1,
				      x > 0 ? c - 1 : -1 };
			for (int d = 0; d < 4; d++)
				if (nb[d] >= 0 && a->comp[nb[d]] == -1) {
					a->comp[nb[d]] = label;
					a->next[top++] = nb[d];
				}
		}
	}
	a->comp_w = w;
	a->comp_h = h;
}

/* Brings the region labels up to date with the frame's state (once per
 * decision): rebuilt when the terrain or a fixed unit's cell changed. */
static void regions_check(bot_astar *a, const bot_frame *f)
{
	const ms_rts_state *s = f->s;
	const rts_unit *us = rts_cunits(s);
	const ms_rts_unit_type *types = s->utt->types;
	int same, n = 0, cells = f->w * f->h;

	if (a->seen_frame == f && a->seen_serial == f->serial)
		return;
	a->seen_frame = f;
	a->seen_serial = f->serial;
	same = a->comp_w == f->w && a->comp_h == f->h && !memcmp(a->terrain, rts_cterrain(s), (size_t)cells);
	for (int i = 0; i < s->n_units; i++) {
		const ms_rts_unit *u = &us[i].u;
		int c = u->x + u->y * f->w;
		if (types[u->type].can_move)
			continue;
		if (same && (n >= a->n_fixed || a->fixed[n] != c))
			same = 0;
		a->fixed[n++] = c;
	}
	if (!same || n != a->n_fixed) {
		a->n_fixed = n;
		regions_build(a, f);
	}
}

/* 0 when no cell within the range of the target (tx, ty) lies in a region
 * next to the start: then A* explores all it can reach and fails. */
static int regions_may_reach(const bot_astar *a, int w, int h, int start, int tx, int ty, int range)
{
	int sx = start % w, sy = start / w, r2 = range * range, labels[4], nl = 0;
	int x0 = tx - range < 0 ? 0 : tx - range, x1 = tx + range >= w ? w - 1 : tx + range;
	int y0 = ty - range < 0 ? 0 : ty - range, y1 = ty + range >= h ? h - 1 : ty + range;

	if (sy > 0 && a->comp[start - w] > 0)
		labels[nl++] = a->comp[start - w];
	if (sx < w - 1 && a->comp[start + 1] > 0)
		labels[nl++] = a->comp[start + 1];
	if (sy < h - 1 && a->comp[start + w] > 0)
		labels[nl++] = a->comp[start + w];
	if (sx > 0 && a->comp[start - 1] > 0)
		labels[nl++] = a->comp[start - 1];
	for (int y = y0; y <= y1 && nl; y++)
		for (int x = x0; x <= x1; x++) {
			int c = x + y * w;
			if ((x - tx) * (x - tx) + (y - ty) * (y - ty) > r2 || a->comp[c] <= 0)
				continue;
			for (int k = 0; k < nl; k++)
				if (a->comp[c] == labels[k])
					return 1;
		}
	return 0;
}

/*
 * The Java class keeps OPEN as one array ordered by non-increasing f, puts a
 * new entry after every entry whose f is >= its own and expands the last
 * entry: the lowest f first, and among equal f the latest pushed. A stack
 * per f value gives the same order in O(1). f never drops below the f being
 * expanded (the Manhattan heuristic is consistent), so the lowest non-empty
 * bucket is found by walking up from the current one.
 */
typedef struct astar_run {
	bot_astar *a;
	const uint8_t *terrain, *pend;
	const uint16_t *grid;
	uint32_t gen;
	int tx, ty, f0, fmax; /* bucket k holds f = f0 + k */
} astar_run;

/* Pushes neighbour (nx, ny) of `from` unless looked at already or not free. */
static inline void consider(astar_run *r, int c, int nx, int ny, int from)
{
	bot_astar *a = r->a;
	int f;

	if (a->mark[c] == r->gen)
		return;
	a->mark[c] = r->gen;
	if (r->terrain[c] || r->grid[c] || r->pend[c])
		return;
	a->parent[c] = from;
	a->px[c] = (int16_t)nx;
	a->py[c] = (int16_t)ny;
	a->cost[c] = a->cost[from] + 1;
	f = a->cost[c] + iabs(nx - r->tx) + iabs(ny - r->ty) - r->f0;
	a->next[c] = a->head[f];
	a->head[f] = c;
	if (f > r->fmax)
		r->fmax = f;
}

/* Item tags of the memo's cell sets (the terrain's is 0). */
#define MEMO_UNITS (UINT64_C(1) << 32)
#define MEMO_PEND (UINT64_C(2) << 32)
#define MEMO_RESERVED (UINT64_C(3) << 32)

/* The digest of the cells units and pending actions hold in this decision. */
static const uint64_t *cells_hash(bot_astar *a, const bot_frame *f)
{
	const ms_rts_state *s = f->s;
	const rts_unit *us = rts_cunits(s);
	const uint16_t *grid = rts_cgrid(s);

	if (a->hash_frame == f && a->hash_serial == f->serial)
		return a->cells_hash;
	a->hash_frame = f;
	a->hash_serial = f->serial;
	a->cells_hash[0] = a->terrain_hash[0];
	a->cells_hash[1] = a->terrain_hash[1];
	for (int i = 0; i < s->n_units; i++) {
		int c = us[i].u.x + us[i].u.y * f->w;
		if (grid[c] == i + 1) /* one flip a cell, whatever the state's invariants */
			ms_zobrist_flip(a->cells_hash, MEMO_UNITS | (uint64_t)c);
	}
	for (int k = 0; k < f->n_pend; k++)
		ms_zobrist_flip(a->cells_hash, MEMO_PEND | (uint64_t)f->pend_cells[k]);
	return a->cells_hash;
}

void bot_astar_find(bot_astar *a, const bot_frame *f, int sx, int sy, int target, int range, const int *reserved,
		    int n_reserved, int *dir)
{
	int w = f->w, h = f->h, cells = w * h;
	int tx = target % w, ty = target / w, r2 = range * range;
	int start = sx + sy * w, fcur;
	uint64_t key[2];
	astar_run r;

	*dir = -1;
	/* the start in range: A* expands it first and returns no move */
	if ((sx - tx) * (sx - tx) + (sy - ty) * (sy - ty) <= r2)
		return;
	regions_check(a, f);
	if (!regions_may_reach(a, w, h, start, tx, ty, range))
		return;
	if (++a->gen == 0) {
		memset(a->mark, 0, sizeof(uint32_t) * (size_t)a->cap);
		a->gen = 1;
	}
	r.a = a;
	r.terrain = rts_cterrain(f->s);
	r.grid = rts_cgrid(f->s);
	r.pend = f->pend;
	r.gen = a->gen;
	r.tx = tx;
	r.ty = ty;
	if (a->memo) {
		const uint64_t *ch = cells_hash(a, f);
		key[0] = ch[0];
		key[1] = ch[1];
	}
	for (int i = 0; i < n_reserved; i++)
		if (reserved[i] >= 0 && reserved[i] < cells && a->mark[reserved[i]] != r.gen) {
			a->mark[reserved[i]] = r.gen;
			if (a->memo)
				ms_zobrist_flip(key, MEMO_RESERVED | (uint64_t)reserved[i]);
		}
	if (a->memo) {
		uint32_t v[4];
		bot_path_key(key, sx, sy, w, h, target, r2, BOT_PATH_BOTS);
		if (ms_memo_get(a->memo, key, v)) {
			*dir = (int)v[0] - 1;
			return;
		}
	}
	a->mark[start] = r.gen;
	a->parent[start] = start;
	a->px[start] = (int16_t)sx;
	a->py[start] = (int16_t)sy;
	a->cost[start] = 0;
	a->next[start] = -1;
	r.f0 = iabs(sx - tx) + iabs(sy - ty);
	fcur = r.fmax = 0;
	a->head[0] = start;
	for (;;) {
		int p, px, py;
		while (fcur <= r.fmax && a->head[fcur] < 0)
			fcur++;
		if (fcur > r.fmax)
			break; /* OPEN is empty: unreachable */
		p = a->head[fcur];
		a->head[fcur] = a->next[p];
		px = a->px[p];
		py = a->py[p];
		if ((px - tx) * (px - tx) + (py - ty) * (py - ty) <= r2) {
			int last = p;
			while (a->parent[p] != p) {
				last = p;
				p = a->parent[p];
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
			break;
		}
		if (py > 0)
			consider(&r, p - w, px, py - 1, p);
		if (px < w - 1)
			consider(&r, p + 1, px + 1, py, p);
		if (py < h - 1)
			consider(&r, p + w, px, py + 1, p);
		if (px > 0)
			consider(&r, p - 1, px - 1, py, p);
	}
	/* leave every bucket empty for the next search */
	for (int k = fcur; k <= r.fmax; k++)
		a->head[k] = -1;
	if (a->memo) {
		uint32_t v[4] = { (uint32_t)(*dir + 1), 0, 0, 0 };
		ms_memo_put(a->memo, key, v);
	}
}

int ms_bot_astar(ms_ctx *ctx, const ms_rts_state *state, int sx, int sy, int target, int range,
		 const int *reserved, int n_reserved, ms_rts_action *out)
{
	return ms_bot_astar_memo(ctx, NULL, state, sx, sy, target, range, reserved, n_reserved, out);
}

int ms_bot_astar_memo(ms_ctx *ctx, ms_memo *memo, const ms_rts_state *state, int sx, int sy, int target, int range,
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
	memset(&f, 0, sizeof(f));
	if ((rc = bot_frame_begin(ctx, &f, state, -1)))
		return rc;
	a.memo = memo;
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

/* Here rather than in the registry: the edition travels with the bot, and
 * the bots that depend on it read it at each decision. */
int ms_bot_set_edition(ms_bot *b, int edition)
{
	if (!b)
		return MS_EINVAL;
	if (edition != MS_PATH_EDITION_2022 && edition != MS_PATH_EDITION_2023)
		return ms_ctx_error(b->ctx, MS_EINVAL, "ms_bot_set_edition: unknown edition %d (0: 2022, 1: 2023)",
				    edition);
	b->edition = edition;
	return MS_OK;
}

int ms_bot_set_memo(ms_bot *b, ms_memo *memo)
{
	if (!b)
		return MS_EINVAL;
	b->memo = memo;
	return MS_OK;
}

int ms_bot_set_stochastic(ms_bot *b, int on)
{
	if (!b)
		return MS_EINVAL;
	b->stochastic = on != 0;
	return MS_OK;
}
