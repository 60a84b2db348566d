/*
 * AbstractionLayerAI and its abstract actions (Move, Attack, Harvest,
 * Build, Train, Idle) as the official jar runs them in-process: the
 * per-unit map survives between calls, and translateActions turns the
 * map into one PlayerAction (desires in map order, arbitrated against the
 * state's resource usage, then NONE(10) for every other idle unit).
 */
#include <string.h>

#include "bots_internal.h"

void bot_al_init(bot_al *al, ms_ctx *ctx)
{
	memset(al, 0, sizeof(*al));
	al->ctx = ctx;
}

void bot_al_dispose(bot_al *al)
{
	ms_ctx *ctx = al->ctx;

	ms_ctx_mfree(ctx, al->e);
	ms_ctx_mfree(ctx, al->ru);
	ms_ctx_mfree(ctx, al->acc);
	ms_ctx_mfree(ctx, al->in_out);
	ms_ctx_mfree(ctx, al->desires);
	bot_astar_dispose(ctx, &al->astar);
	bot_frame_dispose(ctx, &al->f);
	bot_al_init(al, ctx);
}

void bot_al_clear(bot_al *al)
{
	al->n = 0;
}

al_entry *bot_al_get(bot_al *al, int64_t id)
{
	for (int i = 0; i < al->n; i++)
		if (al->e[i].unit == id)
			return &al->e[i];
	return NULL;
}

int bot_al_set(bot_al *al, const al_entry *a)
{
	al_entry *old = bot_al_get(al, a->unit);

	if (old) {
		*old = *a;
		return MS_OK;
	}
	if (al->n == al->cap) {
		int cap = al->cap ? al->cap * 2 : 32;
		al_entry *e = ms_ctx_realloc(al->ctx, al->e, sizeof(al_entry) * (size_t)cap);
		if (!e)
			return ms_ctx_error(al->ctx, MS_ENOMEM, "bot: out of memory for abstract actions");
		al->e = e;
		al->cap = cap;
	}
	al->e[al->n++] = *a;
	return MS_OK;
}

static al_entry fresh(int64_t u, int kind)
{
	al_entry a;

	memset(&a, 0, sizeof(a));
	a.unit = u;
	a.kind = kind;
	a.target = a.base = -1;
	a.type = -1;
	return a;
}

int bot_al_move(bot_al *al, int64_t u, int x, int y)
{
	al_entry a = fresh(u, AL_MOVE);
	a.x = x;
	a.y = y;
	return bot_al_set(al, &a);
}

int bot_al_train(bot_al *al, int64_t u, int type)
{
	al_entry a = fresh(u, AL_TRAIN);
	a.type = type;
	return bot_al_set(al, &a);
}

int bot_al_build(bot_al *al, int64_t u, int type, int x, int y)
{
	al_entry a = fresh(u, AL_BUILD);
	a.type = type;
	a.x = x;
	a.y = y;
	return bot_al_set(al, &a);
}

int bot_al_harvest(bot_al *al, int64_t u, int64_t target, int64_t base)
{
	al_entry a = fresh(u, AL_HARVEST);
	a.target = target;
	a.base = base;
	return bot_al_set(al, &a);
}

int bot_al_attack(bot_al *al, int64_t u, int64_t target)
{
	al_entry a = fresh(u, AL_ATTACK);
	a.target = target;
	return bot_al_set(al, &a);
}

int bot_al_idle(bot_al *al, int64_t u)
{
	al_entry a = fresh(u, AL_IDLE);
	return bot_al_set(al, &a);
}

int bot_al_building_position(const ms_rts_state *s, const int *reserved, int n, int dx, int dy)
{
	int w = s->width, h = s->height, maxl = w > h ? w : h;
	const uint8_t *terrain = rts_cterrain(s);
	const uint16_t *grid = rts_cgrid(s);

#define TRY(X, Y)                                                                           \
	do {                                                                                \
		int c_ = (X) + (Y) * w, r_ = 0;                                             \
		if (!terrain[c_] && !grid[c_]) {                                            \
			for (int k_ = 0; k_ < n && !r_; k_++)                               \
				r_ = reserved[k_] == c_;                                    \
			if (!r_)                                                            \
				return c_;                                                  \
		}                                                                           \
	} while (0)

	for (int l = 1; l < maxl; l++) {
		int y = dy - l;
		if (y >= 0)
			for (int x = dx - l; x <= dx + l; x++)
				if (x >= 0 && x < w)
					TRY(x, y);
		int x = dx + l;
		if (x < w)
			for (int yy = dy - l; yy <= dy + l; yy++)
				if (yy >= 0 && yy < h)
					TRY(x, yy);
		y = dy + l;
		if (y < h)
			for (int xx = dx - l; xx <= dx + l; xx++)
				if (xx >= 0 && xx < w)
					TRY(xx, y);
		x = dx - l;
		if (x >= 0)
			for (int yy = dy - l; yy <= dy + l; yy++)
				if (yy >= 0 && yy < h)
					TRY(x, yy);
	}
#undef TRY
	return -1;
}

int bot_al_begin(bot_al *al, const ms_rts_state *s)
{
	int rc;

	bot_frame_dispose(al->ctx, &al->f);
	if ((rc = bot_frame_init(al->ctx, &al->f, s)))
		return rc;
	if ((rc = bot_astar_grow(al->ctx, &al->astar, s->cells)))
		return rc;
	if (s->cells > al->cap_cells) {
		ms_ctx_mfree(al->ctx, al->acc);
		ms_ctx_mfree(al->ctx, al->in_out);
		al->acc = ms_ctx_malloc(al->ctx, (size_t)s->cells);
		al->in_out = ms_ctx_malloc(al->ctx, (size_t)s->cells);
		al->cap_cells = al->acc && al->in_out ? s->cells : 0;
		if (!al->cap_cells)
			return ms_ctx_error(al->ctx, MS_ENOMEM, "bot: out of memory for a %dx%d map", s->width,
					    s->height);
	}
	return MS_OK;
}

/* ---- engine queries the abstract actions make ------------------------- */

static ms_rts_action act(int type, int parameter, int unit_type)
{
	ms_rts_action a;
	a.type = type;
	a.parameter = parameter;
	a.x = a.y = -1;
	a.unit_type = unit_type;
	return a;
}

/* The cell an action of `u` uses (ResourceUsage), or -1. */
static int used_cell(const bot_frame *f, const ms_rts_unit *u, const ms_rts_action *a)
{
	if ((a->type != MS_RTS_MOVE && a->type != MS_RTS_PRODUCE) || a->parameter < 0 || a->parameter > 3)
		return -1;
	return (u->x + rts_dx[a->parameter]) + (u->y + rts_dy[a->parameter]) * f->w;
}

static int used_cost(const bot_frame *f, const ms_rts_unit *u, const ms_rts_action *a)
{
	if (a->type != MS_RTS_PRODUCE || a->unit_type < 0)
		return 0;
	return f->s->utt->types[a->unit_type].cost;
}

/* GameState.isUnitActionAllowed: only against the state's own usage. */
static int allowed(const bot_frame *f, const ms_rts_unit *u, const ms_rts_action *a)
{
	const ms_rts_state *s = f->s;
	int cell = used_cell(f, u, a), cost = used_cost(f, u, a);

	if (a->type == MS_RTS_MOVE) {
		int x = u->x + rts_dx[a->parameter], y = u->y + rts_dy[a->parameter];
		if (!rts_inside(s, x, y) || rts_cterrain(s)[x + y * s->width] == 1 || rts_unit_at(s, x, y) >= 0)
			return 0;
	}
	if (cell >= 0 && cell < s->cells && f->pend[cell])
		return 0;
	if (cost && (u->player == 0 || u->player == 1)) {
		int sum = f->pend_cost[u->player] + cost;
		if (sum > 0 && sum > s->resources[u->player])
			return 0;
	}
	return 1;
}

static const ms_rts_unit *unit_by_id(const ms_rts_state *s, int64_t id)
{
	int i;
	if (id < 0)
		return NULL;
	i = ms_rts_state_find_unit(s, id);
	return i < 0 ? NULL : &rts_cunits(s)[i].u;
}

/* Direction from u to the neighbouring cell (x, y), checked up, right,
 * down, left as the Java actions do; -1 when not adjacent. */
static int adjacent_dir(const ms_rts_unit *u, int x, int y)
{
	for (int d = 0; d < 4; d++)
		if (u->x + rts_dx[d] == x && u->y + rts_dy[d] == y)
			return d;
	return -1;
}

static int path(bot_al *al, const ms_rts_unit *u, int x, int y, int range)
{
	int dir;
	bot_astar_find(&al->astar, &al->f, u->x, u->y, x + y * al->f.w, range, al->ru, al->n_ru, &dir);
	return dir;
}

static int completed(bot_al *al, const al_entry *a, const ms_rts_unit *u)
{
	const ms_rts_state *s = al->f.s;

	switch (a->kind) {
	case AL_MOVE:
		return u->x == a->x && u->y == a->y;
	case AL_ATTACK:
		return !unit_by_id(s, a->target);
	case AL_HARVEST:
		/* the jar's Harvest ends with its resource only, whatever the
		 * worker carries */
		return !unit_by_id(s, a->target);
	case AL_BUILD:
		return rts_unit_at(s, a->x, a->y) >= 0;
	case AL_TRAIN:
		return a->done;
	default:
		return 0;
	}
}

/* execute(): 1 and *out when the action yields a unit action. */
static int execute(bot_al *al, al_entry *a, const ms_rts_unit *u, ms_rts_action *out)
{
	const bot_frame *f = &al->f;
	const ms_rts_state *s = f->s;
	const ms_rts_unit_type *ut = &s->utt->types[u->type];
	int dir;

	switch (a->kind) {
	case AL_MOVE:
		dir = path(al, u, a->x, a->y, 0);
		if (dir < 0)
			return 0;
		*out = act(MS_RTS_MOVE, dir, -1);
		return allowed(f, u, out);
	case AL_ATTACK: {
		const ms_rts_unit *t = unit_by_id(s, a->target);
		int dx, dy;
		if (!t)
			return 0;
		dx = t->x - u->x;
		dy = t->y - u->y;
		if (dx * dx + dy * dy <= ut->attack_range * ut->attack_range) {
			*out = act(MS_RTS_ATTACK, -1, -1);
			out->x = t->x;
			out->y = t->y;
			return 1;
		}
		dir = path(al, u, t->x, t->y, ut->attack_range);
		if (dir < 0)
			return 0;
		*out = act(MS_RTS_MOVE, dir, -1);
		return allowed(f, u, out);
	}
	case AL_HARVEST: {
		int carrying = u->resources > 0;
		int64_t id = carrying ? a->base : a->target;
		const ms_rts_unit *t = unit_by_id(s, id);
		int x = carrying ? a->bx : a->tx, y = carrying ? a->by : a->ty;
		if (id < 0)
			return 0;
		if (t) {
			x = t->x;
			y = t->y;
		}
		dir = path(al, u, x, y, 1);
		if (dir >= 0) {
			*out = act(MS_RTS_MOVE, dir, -1);
			return allowed(f, u, out);
		}
		dir = adjacent_dir(u, x, y);
		if (dir < 0)
			return 0;
		*out = act(carrying ? MS_RTS_RETURN : MS_RTS_HARVEST, dir, -1);
		return 1;
	}
	case AL_BUILD:
		dir = path(al, u, a->x, a->y, 1);
		if (dir >= 0) {
			*out = act(MS_RTS_MOVE, dir, -1);
			return allowed(f, u, out);
		}
		dir = adjacent_dir(u, a->x, a->y);
		if (dir < 0)
			return 0;
		*out = act(MS_RTS_PRODUCE, dir, a->type);
		return allowed(f, u, out);
	case AL_TRAIN: {
		const ms_rts_unit_type *tt = &s->utt->types[a->type];
		int best = -1, best_score = 0;
		for (int d = 0; d < 4; d++) {
			int x = u->x + rts_dx[d], y = u->y + rts_dy[d], score = 0, first = 1;
			const rts_unit *us = rts_cunits(s);
			if (!rts_inside(s, x, y) || !bot_frame_free(f, x, y))
				continue;
			for (int i = 0; i < s->n_units; i++) {
				const ms_rts_unit *o = &us[i].u;
				int dist;
				if (tt->can_harvest ? !s->utt->types[o->type].is_resource
						    : (o->player < 0 || o->player == u->player))
					continue;
				dist = abs(o->x - x) + abs(o->y - y);
				if (first || dist < score) {
					score = dist;
					first = 0;
				}
			}
			score = -score;
			if (best < 0 || score > best_score) {
				best = d;
				best_score = score;
			}
		}
		a->done = 1;
		if (best < 0)
			return 0;
		*out = act(MS_RTS_PRODUCE, best, a->type);
		return allowed(f, u, out);
	}
	case AL_IDLE: {
		const rts_unit *us = rts_cunits(s);
		int r2 = ut->attack_range * ut->attack_range;
		if (!ut->can_attack)
			return 0;
		for (int i = 0; i < s->n_units; i++) {
			const ms_rts_unit *o = &us[i].u;
			int dx = o->x - u->x, dy = o->y - u->y;
			if (o->player >= 0 && o->player != u->player && dx * dx + dy * dy <= r2) {
				*out = act(MS_RTS_ATTACK, -1, -1);
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

static int push_ru(bot_al *al, int cell)
{
	if (al->n_ru == al->cap_ru) {
		int cap = al->cap_ru ? al->cap_ru * 2 : 64;
		int *v = ms_ctx_realloc(al->ctx, al->ru, sizeof(int) * (size_t)cap);
		if (!v)
			return ms_ctx_error(al->ctx, MS_ENOMEM, "bot: out of memory");
		al->ru = v;
		al->cap_ru = cap;
	}
	al->ru[al->n_ru++] = cell;
	return MS_OK;
}

int bot_al_translate(bot_al *al, int player, ms_rts_pair *out, int max, int *n)
{
	const bot_frame *f = &al->f;
	const ms_rts_state *s = f->s;
	const rts_unit *us = rts_cunits(s);
	int nd = 0, keep = 0, k = 0, acc_cost[2], rc = MS_OK;

	*n = 0;
	al->n_ru = 0;
	if (al->cap_desires < al->n) {
		ms_rts_pair *d = ms_ctx_realloc(al->ctx, al->desires, sizeof(ms_rts_pair) * (size_t)al->n);
		if (!d)
			return ms_ctx_error(al->ctx, MS_ENOMEM, "bot: out of memory");
		al->desires = d;
		al->cap_desires = al->n;
	}
	for (int i = 0; i < al->n; i++) {
		al_entry *a = &al->e[i];
		int ui = ms_rts_state_find_unit(s, a->unit);
		const ms_rts_unit *u;
		ms_rts_action ua;
		if (ui < 0)
			continue; /* dead: dropped */
		u = &us[ui].u;
		if (completed(al, a, u))
			continue;
		if (us[ui].slot < 0 && execute(al, a, u, &ua)) {
			int cell = used_cell(f, u, &ua);
			al->desires[nd].unit = *u;
			al->desires[nd].action = ua;
			nd++;
			if (cell >= 0 && (rc = push_ru(al, cell)))
				return rc;
		}
		al->e[keep++] = *a;
	}
	al->n = keep;

	memcpy(al->acc, f->pend, (size_t)s->cells);
	memset(al->in_out, 0, (size_t)s->cells);
	acc_cost[0] = f->pend_cost[0];
	acc_cost[1] = f->pend_cost[1];
	for (int i = 0; i < nd; i++) {
		const ms_rts_unit *u = &al->desires[i].unit;
		int cell = used_cell(f, u, &al->desires[i].action);
		int cost = used_cost(f, u, &al->desires[i].action), p = u->player;
		int in_map = cell >= 0 && cell < s->cells;
		if (in_map && al->acc[cell])
			continue;
		if (cost && (p == 0 || p == 1) && acc_cost[p] + cost > 0 && acc_cost[p] + cost > s->resources[p])
			continue;
		if (k < max)
			out[k] = al->desires[i];
		k++;
		if (in_map)
			al->acc[cell] = 1;
		if (p == 0 || p == 1)
			acc_cost[p] += cost;
		al->in_out[ms_rts_state_find_unit(s, u->id)] = 1;
	}
	for (int i = 0; i < s->n_units; i++) {
		if (us[i].u.player != player || us[i].slot >= 0 || al->in_out[i])
			continue;
		if (k < max) {
			out[k].unit = us[i].u;
			out[k].action = act(MS_RTS_NONE, 10, -1);
		}
		k++;
	}
	*n = k;
	if (k > max)
		return ms_ctx_error(al->ctx, MS_ERANGE, "bot: %d pairs do not fit in %d", k, max);
	return MS_OK;
}
