/*
 * The DSL's own action layer (spec section 10): the abstract actions of
 * the JAR fork the dialect-A interpreter ran on (Move, Attack, Build and
 * Idle as the official ones; Train with a preferred direction; the older
 * Harvest), its A* with the second search variant that returns the goal
 * cell, its guarded cell-free test, and AbstractionLayerAI.translateActions.
 * It is bot-side decision logic: the official engine rules still validate
 * every action (issueSafe in the match loop).
 *
 * The map of abstract actions lives for one decision only (the interpreter
 * clears it every tick), so units are referred to by their index in the
 * state's unit list.
 */
#include <string.h>

#include "rts_dsl_internal.h"
#include "games/microrts/bots/bot_actions.h"

void rd_layer_init(rd_layer *L, ms_ctx *ctx)
{
	memset(L, 0, sizeof(*L));
	L->ctx = ctx;
}

static void free_cells(rd_layer *L)
{
	ms_ctx_mfree(L->ctx, L->pend);
	ms_ctx_mfree(L->ctx, L->ru);
	ms_ctx_mfree(L->ctx, L->acc);
	ms_ctx_mfree(L->ctx, L->seen);
	ms_ctx_mfree(L->ctx, L->next);
	ms_ctx_mfree(L->ctx, L->first);
	ms_ctx_mfree(L->ctx, L->blk);
	ms_ctx_mfree(L->ctx, L->bk_flag);
	ms_ctx_mfree(L->ctx, L->bk_terrain);
	ms_ctx_mfree(L->ctx, L->bk_occ);
	ms_ctx_mfree(L->ctx, L->cx);
	ms_ctx_mfree(L->ctx, L->cy);
	ms_ctx_mfree(L->ctx, L->lab);
	ms_ctx_mfree(L->ctx, L->lab_size);
	ms_ctx_mfree(L->ctx, L->lab_vis);
	ms_ctx_mfree(L->ctx, L->lab_own);
	ms_ctx_mfree(L->ctx, L->lab_queue);
	ms_ctx_mfree(L->ctx, L->lab_terrain);
	ms_ctx_mfree(L->ctx, L->occ);
	ms_ctx_mfree(L->ctx, L->claims);
	ms_ctx_mfree(L->ctx, L->lab_check);
	L->lab_terrain = NULL;
	L->first = L->blk = L->bk_flag = L->bk_terrain = NULL;
	L->cx = L->cy = NULL;
	L->bk_occ = NULL;
	L->bk_ok = 0;
	L->occ = L->claims = L->lab_check = NULL;
	L->lab_ok = 0;
	L->pend = L->ru = L->acc = L->seen = NULL;
	L->next = NULL;
	L->lab = L->lab_size = L->lab_queue = NULL;
	L->lab_vis = NULL;
	L->lab_own = NULL;
	L->lab_tick = 0;
	L->lab_stamp = 0;
	L->cap_cells = 0;
}

void rd_layer_dispose(rd_layer *L)
{
	free_cells(L);
	ms_ctx_mfree(L->ctx, L->aa);
	ms_ctx_mfree(L->ctx, L->aa_of);
	ms_ctx_mfree(L->ctx, L->in_out);
	ms_ctx_mfree(L->ctx, L->desires);
	rd_layer_init(L, L->ctx);
}

/* Room for a map of `cells` cells. */
static int grow_cells(rd_layer *L, int cells, int w, int h)
{
	size_t n = (size_t)cells;

	if (cells <= L->cap_cells)
		return MS_OK;
	free_cells(L);
	L->pend = ms_ctx_calloc(L->ctx, n, sizeof(uint32_t));
	L->ru = ms_ctx_calloc(L->ctx, n, sizeof(uint32_t));
	L->acc = ms_ctx_calloc(L->ctx, n, sizeof(uint32_t));
	L->seen = ms_ctx_calloc(L->ctx, n, sizeof(uint32_t));
	L->next = ms_ctx_malloc(L->ctx, sizeof(int) * n);
	L->first = ms_ctx_malloc(L->ctx, n);
	L->blk = ms_ctx_malloc(L->ctx, n);
	L->bk_flag = ms_ctx_malloc(L->ctx, n);
	L->bk_terrain = ms_ctx_malloc(L->ctx, n);
	L->bk_occ = ms_ctx_malloc(L->ctx, sizeof(int) * n);
	L->cx = ms_ctx_malloc(L->ctx, sizeof(uint16_t) * n);
	L->cy = ms_ctx_malloc(L->ctx, sizeof(uint16_t) * n);
	L->lab = ms_ctx_malloc(L->ctx, sizeof(int) * n);
	L->lab_size = ms_ctx_malloc(L->ctx, sizeof(int) * 2 * n);
	L->lab_vis = ms_ctx_calloc(L->ctx, n, sizeof(uint32_t));
	L->lab_own = ms_ctx_malloc(L->ctx, n);
	L->lab_queue = ms_ctx_malloc(L->ctx, sizeof(int) * 4 * n);
	L->lab_terrain = ms_ctx_malloc(L->ctx, n);
	L->occ = ms_ctx_malloc(L->ctx, sizeof(int) * 3 * n);
	L->claims = ms_ctx_malloc(L->ctx, sizeof(int) * n);
	if (!L->pend || !L->ru || !L->acc || !L->seen || !L->next || !L->first || !L->blk || !L->bk_flag ||
	    !L->bk_terrain || !L->bk_occ || !L->cx || !L->cy || !L->lab || !L->lab_size || !L->lab_vis ||
	    !L->lab_own || !L->lab_queue || !L->lab_terrain || !L->occ || !L->claims) {
		free_cells(L);
		return ms_ctx_error(L->ctx, MS_ENOMEM, "DSL: out of memory for a %dx%d map", w, h);
	}
	L->cap_cells = cells;
	/* fresh stamps: start over */
	L->tick = 0;
	L->search = 0;
	return MS_OK;
}

static int grow_units(rd_layer *L, int n)
{
	if (n <= L->cap_units)
		return MS_OK;
	ms_ctx_mfree(L->ctx, L->aa_of);
	ms_ctx_mfree(L->ctx, L->in_out);
	ms_ctx_mfree(L->ctx, L->aa);
	ms_ctx_mfree(L->ctx, L->desires);
	L->aa_of = ms_ctx_malloc(L->ctx, sizeof(int) * (size_t)n);
	L->in_out = ms_ctx_malloc(L->ctx, (size_t)n);
	L->aa = ms_ctx_malloc(L->ctx, sizeof(rd_aa) * (size_t)n);
	L->desires = ms_ctx_malloc(L->ctx, sizeof(ms_rts_pair) * (size_t)n);
	if (!L->aa_of || !L->in_out || !L->aa || !L->desires) {
		ms_ctx_mfree(L->ctx, L->aa_of);
		ms_ctx_mfree(L->ctx, L->in_out);
		ms_ctx_mfree(L->ctx, L->aa);
		ms_ctx_mfree(L->ctx, L->desires);
		L->aa_of = NULL;
		L->in_out = NULL;
		L->aa = NULL;
		L->desires = NULL;
		L->cap_units = 0;
		return ms_ctx_error(L->ctx, MS_ENOMEM, "DSL: out of memory for %d units", n);
	}
	L->cap_units = L->cap_aa = L->cap_desires = n;
	return MS_OK;
}

int rd_layer_begin(rd_layer *L, const ms_rts_state *s, int player)
{
	const rts_assign *as = rts_cassigns(s);
	int rc;

	if ((rc = grow_cells(L, s->cells, s->width, s->height)) || (rc = grow_units(L, s->n_units > 0 ? s->n_units : 1)))
		return rc;
	if (++L->tick == 0) { /* stamps wrapped: clear them once */
		memset(L->pend, 0, sizeof(uint32_t) * (size_t)L->cap_cells);
		memset(L->ru, 0, sizeof(uint32_t) * (size_t)L->cap_cells);
		memset(L->acc, 0, sizeof(uint32_t) * (size_t)L->cap_cells);
		L->tick = 1;
		L->lab_tick = 0;
		L->bk_tick = 0;
	}
	L->expanded = 0;
	/* label at the first search when the last decision searched in vain */
	L->lab_want = 2 * L->unreached >= L->cells && L->unreached > 0;
	L->unreached = 0;
	L->s = s;
	L->units = rts_cunits(s);
	L->terrain = rts_cterrain(s);
	L->grid = rts_cgrid(s);
	L->n_units = s->n_units;
	L->w = s->width;
	L->h = s->height;
	L->cells = s->cells;
	L->player = player;
	L->pend_cost[0] = L->pend_cost[1] = 0;
	for (int k = 0; k < s->n_assign; k++) {
		/* pending actions passed the engine's rules: their cells are on the map */
		if (as[k].use_cell >= 0 && as[k].use_cell < s->cells)
			L->pend[as[k].use_cell] = L->tick;
		L->pend_cost[0] += as[k].use_cost[0];
		L->pend_cost[1] += as[k].use_cost[1];
	}
	L->n_claims = 0;
	L->ru_hash[0] = L->ru_hash[1] = 0;
	L->n_aa = 0;
	for (int i = 0; i < s->n_units; i++)
		L->aa_of[i] = -1;
	return MS_OK;
}

int rd_layer_assign(rd_layer *L, const rd_aa *a)
{
	/* at most one entry per unit, so the unit count bounds the map; a
	 * caller that broke that would write past aa */
	if (a->unit < 0 || a->unit >= L->n_units || L->aa_of[a->unit] >= 0 || L->n_aa >= L->cap_aa)
		return ms_ctx_error(L->ctx, MS_ERANGE, "DSL: abstract action %d for unit index %d of %d (map holds %d)",
				    L->n_aa, a->unit, L->n_units, L->cap_aa);
	L->aa_of[a->unit] = L->n_aa;
	L->aa[L->n_aa++] = *a;
	return MS_OK;
}

int rd_jar_free(const rd_layer *L, int x, int y)
{
	long c = (long)x + (long)y * L->w;

	if (c < 0 || c >= L->cells)
		return 0;
	if (L->terrain[c])
		return 0;
	/* units and pending targets are compared by coordinates */
	if (x < 0 || y < 0 || x >= L->w || y >= L->h)
		return 1;
	return !L->grid[c] && L->pend[c] != L->tick;
}

static inline int iabs(int v)
{
	return v < 0 ? -v : v;
}

/*
 * The search proper, from (sx, sy) not yet within range: *dir and *goal
 * when a goal cell is reached. 0 when the decision's budget stopped it.
 *
 * OPEN of the Java class is a list sorted by f where a new entry goes after
 * every entry of equal f and the last one is expanded: that is, smallest f
 * first and, among equal f, last in first out. A step changes f by 0 (it
 * nears the target) or 2 (it moves away), so while the stack of the
 * smallest f is expanded, cells go on it or on the next one: two LIFO
 * stacks give the list's order without its linear insertion.
 */
static int search(rd_layer *L, int sx, int sy, int tx, int ty, int r2, int use_ru, int *dir, int *goal)
{
	int w = L->w, h = L->h, start = sx + sy * w, top[2] = { start, -1 };
	int *next = L->next;
	uint8_t *first = L->first;
	const uint8_t *blk = L->blk;
	const uint32_t *ru = L->ru;
	const uint16_t *cx = L->cx, *cy = L->cy;
	uint32_t *seen = L->seen, st, tick = L->tick;

	rd_cells_update(L);
	if (++L->search == 0) {
		memset(L->seen, 0, sizeof(uint32_t) * (size_t)L->cap_cells);
		L->search = 1;
	}
	st = L->search;
	seen[start] = st;
	next[start] = -1;
	for (;;) {
		int p = top[0], px, py, step;
		uint8_t away[4];
		if (p < 0) {
			if (top[1] < 0)
				return 1; /* OPEN is empty: no path */
			top[0] = top[1];
			top[1] = -1;
			continue;
		}
		top[0] = next[p];
		if (++L->expanded > L->budget)
			return 0; /* the decision's search budget is spent: no path */
		px = cx[p];
		py = cy[p];
		if ((px - tx) * (px - tx) + (py - ty) * (py - ty) <= r2) {
			*goal = p;
			*dir = first[p]; /* p is not the start: the start is not within range */
			return 1;
		}
		step = p == start ? -1 : first[p];
		away[MS_RTS_UP] = py <= ty;
		away[MS_RTS_RIGHT] = px >= tx;
		away[MS_RTS_DOWN] = py >= ty;
		away[MS_RTS_LEFT] = px <= tx;
		for (int d = 0; d < 4; d++) {
			int nx = px + rts_dx[d], ny = py + rts_dy[d], c;
			if (nx < 0 || ny < 0 || nx >= w || ny >= h)
				continue;
			c = nx + ny * w;
			if (seen[c] == st || blk[c] || (use_ru && ru[c] == tick))
				continue;
			seen[c] = st;
			first[c] = (uint8_t)(step < 0 ? d : step);
			next[c] = top[away[d]];
			top[away[d]] = c;
		}
	}
}

/*
 * The path memo. A search's answer depends on the blocked cells, the
 * claimed ones when use_ru, start, target and range, and on the budget
 * only through whether it stops early; so an answer found in n expansions
 * is the answer wherever n more fit in the budget, and the decision is
 * charged those n expansions as if the search had run. Searches the budget
 * stopped are not kept.
 */
static void memo_key(rd_layer *L, int sx, int sy, int target, int r2, int use_ru, uint64_t key[2])
{
	rd_cells_update(L);
	key[0] = L->bk_hash[0];
	key[1] = L->bk_hash[1];
	bot_path_key(key, sx, sy, L->w, L->h, target, r2, use_ru ? BOT_PATH_DSL_RU : BOT_PATH_DSL);
	if (use_ru) {
		key[0] ^= L->ru_hash[0];
		key[1] ^= L->ru_hash[1];
	}
}

/* 1 when the memo holds the search's answer and its expansions fit: *dir, *goal and the charge made. */
static int memo_answer(rd_layer *L, const uint64_t key[2], int sx, int sy, int tx, int ty, int r2, int use_ru,
		       int *dir, int *goal)
{
	uint32_t v[4];
	long before = L->expanded;

	if (!ms_memo_get(L->memo, key, v) || (long)v[0] > L->budget - before)
		return 0;
	if (L->check_memo) {
		search(L, sx, sy, tx, ty, r2, use_ru, dir, goal);
		if (L->expanded - before != (long)v[0] || *goal != (int)v[1] - 1 || *dir != (int)v[2] - 1)
			L->memo_wrong = 1;
	}
	L->expanded = before + (long)v[0];
	*goal = (int)v[1] - 1;
	*dir = (int)v[2] - 1;
	return 1;
}

static void memo_keep(rd_layer *L, const uint64_t key[2], long n, int dir, int goal)
{
	uint32_t v[4] = { (uint32_t)n, (uint32_t)(goal + 1), (uint32_t)(dir + 1), 0 };
	ms_memo_put(L->memo, key, v);
}

void rd_astar(rd_layer *L, int sx, int sy, int target, int range, int use_ru, int *dir, int *goal)
{
	int w = L->w;
	int tx = target % w, ty = target / w; /* Java's int arithmetic, off-map targets included */
	int r2 = range * range;
	uint64_t key[2];
	long before = L->expanded, size;

	*dir = -1;
	*goal = -1;
	if ((sx - tx) * (sx - tx) + (sy - ty) * (sy - ty) <= r2)
		return;
	if (L->full_paths) {
		search(L, sx, sy, tx, ty, r2, use_ru, dir, goal);
		return;
	}
	/* the budget is spent: the search would stop at its first expansion */
	if (L->expanded >= L->budget) {
		L->expanded++;
		return;
	}
	if (L->memo) {
		memo_key(L, sx, sy, target, r2, use_ru, key);
		if (memo_answer(L, key, sx, sy, tx, ty, r2, use_ru, dir, goal))
			goto charged;
	}
	/* no goal cell reachable: charge the whole region as the search
	 * would. Labelling costs about one search of the whole map, so it
	 * waits for a decision that searched in vain (or follows one);
	 * labels once made cost only the cells that changed since. */
	if ((L->lab_want || L->lab_ok) && (size = rd_regions_unreachable(L, sx, sy, tx, ty, range, use_ru)) > 0) {
		L->unreached += size;
		if (size > L->budget - L->expanded) {
			L->expanded = L->budget + 1;
			return;
		}
		L->expanded += size;
		if (L->memo)
			memo_keep(L, key, size, -1, -1);
		return;
	}
	if (!search(L, sx, sy, tx, ty, r2, use_ru, dir, goal))
		return; /* the budget stopped it */
	if (L->memo)
		memo_keep(L, key, L->expanded - before, *dir, *goal);
charged:
	if (*goal < 0) {
		L->unreached += L->expanded - before;
		if (2 * L->unreached >= L->cells)
			L->lab_want = 1;
	}
}

/* The same spiral as AbstractionLayerAI.findBuildingPosition with nothing reserved. */
int rd_building_position(const rd_layer *L, int x0, int y0)
{
	return bot_al_building_position(L->s, NULL, 0, x0, y0);
}

/* ---- abstract actions ------------------------------------------------------ */

/* The linear cell an action claims (ResourceUsage), or -1. */
static long used_cell(const rd_layer *L, const ms_rts_unit *u, const ms_rts_action *a)
{
	return bot_used_cell(L->w, u, a);
}

static int used_cost(const rd_layer *L, const ms_rts_unit *u, const ms_rts_action *a)
{
	if (a->type != MS_RTS_PRODUCE || a->unit_type < 0 || (u->player != 0 && u->player != 1))
		return 0;
	return L->s->utt->types[a->unit_type].cost;
}

/* GameState.isUnitActionAllowed: move target free on the map, usage
 * consistent with the actions already running. */
static int allowed(const rd_layer *L, const ms_rts_unit *u, const ms_rts_action *a)
{
	long cell = used_cell(L, u, a);
	int cost = used_cost(L, u, a);

	if (a->type == MS_RTS_MOVE) {
		int x = u->x + rts_dx[a->parameter], y = u->y + rts_dy[a->parameter];
		if (x < 0 || y < 0 || x >= L->w || y >= L->h || L->terrain[x + y * L->w] || L->grid[x + y * L->w])
			return 0;
	}
	if (cell >= 0 && cell < L->cells && L->pend[cell] == L->tick)
		return 0;
	if (cost) {
		int sum = L->pend_cost[u->player] + cost;
		if (sum > 0 && sum > L->s->resources[u->player])
			return 0;
	}
	return 1;
}

/* Direction from u to the neighbouring cell (x, y), or -1. */
static int adjacent_dir(const ms_rts_unit *u, int x, int y)
{
	for (int d = 0; d < 4; d++)
		if (u->x + rts_dx[d] == x && u->y + rts_dy[d] == y)
			return d;
	return -1;
}

static int step_towards(rd_layer *L, const ms_rts_unit *u, int target, int range)
{
	int dir, goal;
	rd_astar(L, u->x, u->y, target, range, 1, &dir, &goal);
	return dir;
}

/* completed(gs) within one decision: units cannot have vanished. */
static int completed(const rd_layer *L, const rd_aa *a, const ms_rts_unit *u)
{
	switch (a->kind) {
	case MS_RTS_DSL_AA_MOVE:
		return u->x == a->x && u->y == a->y;
	case MS_RTS_DSL_AA_ATTACK:
		return a->target < 0;
	case MS_RTS_DSL_AA_BUILD:
		return a->x >= 0 && a->y >= 0 && a->x < L->w && a->y < L->h && L->grid[a->x + a->y * L->w];
	default: /* Harvest (JAR: only its resource ends it), Train (not yet run), Idle */
		return 0;
	}
}

/* execute(gs, ru): 1 and *out when the abstract action yields an action. */
static int execute(rd_layer *L, const rd_aa *a, const ms_rts_unit *u, ms_rts_action *out)
{
	const ms_rts_utt *utt = L->s->utt;
	const ms_rts_unit_type *ut = &utt->types[u->type];
	int dir;

	switch (a->kind) {
	case MS_RTS_DSL_AA_MOVE:
		if ((dir = step_towards(L, u, a->x + a->y * L->w, 0)) < 0)
			return 0;
		*out = bot_act(MS_RTS_MOVE, dir, -1);
		return allowed(L, u, out);
	case MS_RTS_DSL_AA_ATTACK: {
		const ms_rts_unit *t = &L->units[a->target].u;
		int dx = t->x - u->x, dy = t->y - u->y;
		if (dx * dx + dy * dy <= ut->attack_range * ut->attack_range) {
			*out = bot_act(MS_RTS_ATTACK, -1, -1);
			out->x = t->x;
			out->y = t->y;
			return 1;
		}
		if ((dir = step_towards(L, u, t->x + t->y * L->w, ut->attack_range)) < 0)
			return 0;
		*out = bot_act(MS_RTS_MOVE, dir, -1);
		return allowed(L, u, out);
	}
	case MS_RTS_DSL_AA_HARVEST: {
		int carrying = u->resources > 0;
		const ms_rts_unit *t = &L->units[carrying ? a->base : a->target].u;
		if ((dir = step_towards(L, u, t->x + t->y * L->w, 1)) >= 0) {
			*out = bot_act(MS_RTS_MOVE, dir, -1);
			return allowed(L, u, out);
		}
		/* HARVEST and RETURN are not checked against the rules here */
		if ((dir = adjacent_dir(u, t->x, t->y)) < 0)
			return 0;
		*out = bot_act(carrying ? MS_RTS_RETURN : MS_RTS_HARVEST, dir, -1);
		return 1;
	}
	case MS_RTS_DSL_AA_BUILD:
		if ((dir = step_towards(L, u, a->x + a->y * L->w, 1)) >= 0) {
			*out = bot_act(MS_RTS_MOVE, dir, -1);
			return allowed(L, u, out);
		}
		if ((dir = adjacent_dir(u, a->x, a->y)) < 0)
			return 0;
		*out = bot_act(MS_RTS_PRODUCE, dir, a->type);
		return allowed(L, u, out);
	case MS_RTS_DSL_AA_TRAIN: {
		/* the JAR's Train: the preferred direction wins when its cell is free */
		int harvester = utt->types[a->type].can_harvest, best = -1, best_score = 0;
		for (int d = 0; d < 4; d++) {
			int x = u->x + rts_dx[d], y = u->y + rts_dy[d], score = 0, first = 1;
			if (x < 0 || y < 0 || x >= L->w || y >= L->h || !rd_free(L, x + y * L->w))
				continue;
			for (int i = 0; i < L->n_units; i++) {
				const ms_rts_unit *o = &L->units[i].u;
				int dist;
				if (harvester ? !utt->types[o->type].is_resource : (o->player < 0 || o->player == u->player))
					continue;
				dist = iabs(o->x - x) + iabs(o->y - y);
				if (first || dist < score) {
					score = dist;
					first = 0;
				}
			}
			score = d == a->pref ? 10000000 : -score;
			if (best < 0 || score > best_score) {
				best = d;
				best_score = score;
			}
		}
		if (best < 0)
			return 0;
		*out = bot_act(MS_RTS_PRODUCE, best, a->type);
		return allowed(L, u, out);
	}
	case MS_RTS_DSL_AA_IDLE: {
		int r2 = ut->attack_range * ut->attack_range;
		if (!ut->can_attack)
			return 0;
		for (int i = 0; i < L->n_units; i++) {
			const ms_rts_unit *o = &L->units[i].u;
			int dx = o->x - u->x, dy = o->y - u->y;
			if (o->player >= 0 && o->player != u->player && dx * dx + dy * dy <= r2) {
				*out = bot_act(MS_RTS_ATTACK, -1, -1);
				out->x = o->x;
				out->y = o->y;
				return 1;
			}
		}
		return 0;
	}
	default:
		return 0;
	}
}

int rd_layer_translate(rd_layer *L, ms_rts_pair *out, int max, int *n)
{
	const ms_rts_state *s = L->s;
	int nd = 0, k = 0, acc_cost[2];

	*n = 0;
	/* 4b: desires in map order; each claims its cell for later searches */
	for (int i = 0; i < L->n_aa; i++) {
		const rd_aa *a = &L->aa[i];
		const ms_rts_unit *u = &L->units[a->unit].u;
		ms_rts_action ua;
		long cell;
		if (completed(L, a, u) || L->units[a->unit].slot >= 0)
			continue;
		if (!execute(L, a, u, &ua))
			continue;
		L->desires[nd].unit = *u;
		L->desires[nd].action = ua;
		nd++;
		cell = used_cell(L, u, &ua);
		if (cell >= 0 && cell < L->cells) {
			if (L->ru[cell] != L->tick)
				rd_zobrist_flip(L->ru_hash, (int)cell, 1);
			L->ru[cell] = L->tick;
			if (L->lab_tick == L->tick && (L->lab_ru || L->n_claims == 0))
				rd_regions_claim(L, (int)cell);
			/* a desire per unit, a unit per cell: the list cannot overflow */
			if (L->n_claims < L->cap_cells)
				L->claims[L->n_claims++] = (int)cell;
		}
	}
	/* 4c, 4d: keep the desires consistent with the running actions and
	 * with the desires kept before them */
	for (int c = 0; c < L->n_units; c++)
		L->in_out[c] = 0;
	acc_cost[0] = L->pend_cost[0];
	acc_cost[1] = L->pend_cost[1];
	for (int i = 0; i < nd; i++) {
		const ms_rts_unit *u = &L->desires[i].unit;
		long cell = used_cell(L, u, &L->desires[i].action);
		int cost = used_cost(L, u, &L->desires[i].action), p = u->player;
		int in_map = cell >= 0 && cell < L->cells;
		if (in_map && (L->pend[cell] == L->tick || L->acc[cell] == L->tick))
			continue;
		if (cost && acc_cost[p] + cost > 0 && acc_cost[p] + cost > s->resources[p])
			continue;
		if (k < max)
			out[k] = L->desires[i];
		k++;
		if (in_map)
			L->acc[cell] = L->tick;
		if (cost)
			acc_cost[p] += cost;
		L->in_out[rts_unit_at(s, u->x, u->y)] = 1;
	}
	/* 4e: fillWithNones(10) */
	for (int i = 0; i < L->n_units; i++) {
		const rts_unit *r = &L->units[i];
		if (r->u.player != L->player || r->slot >= 0 || L->in_out[i])
			continue;
		if (k < max) {
			out[k].unit = r->u;
			out[k].action = bot_act(MS_RTS_NONE, 10, -1);
		}
		k++;
	}
	*n = k;
	if (k > max)
		return ms_ctx_error(L->ctx, MS_ERANGE, "DSL: %d pairs do not fit in %d", k, max);
	return MS_OK;
}
