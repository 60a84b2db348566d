/*
 * AbstractionLayerAI and its abstract actions (Move, Attack, Harvest,
 * Build, Train, Idle) as the official jar runs them in-process: the
 * per-unit map survives between calls, and translateActions turns the
 * map into one PlayerAction (desires in map order, arbitrated against the
 * state's resource usage, then NONE(10) for every other idle unit).
 */
#include <stdlib.h>
#include <string.h>

#include "bots_internal.h"
#include "core/vec.h"

void bot_al_init(bot_al *al, ms_ctx *ctx)
{
	memset(al, 0, sizeof(*al));
	al->ctx = ctx;
	al->fill_wait = 10;
}

void bot_al_dispose(bot_al *al)
{
	ms_ctx *ctx = al->ctx;

	ms_ctx_mfree(ctx, al->e);
	ms_ctx_mfree(ctx, al->ru);
	ms_ctx_mfree(ctx, al->acc);
	ms_ctx_mfree(ctx, al->ent);
	ms_ctx_mfree(ctx, al->in_out);
	ms_ctx_mfree(ctx, al->foes);
	ms_ctx_mfree(ctx, al->desires);
	ms_ctx_mfree(ctx, al->desire_unit);
	bot_astar_dispose(ctx, &al->astar);
	bot_frame_dispose(ctx, &al->f);
	bot_al_init(al, ctx);
}

void bot_al_clear(bot_al *al)
{
	al->n = 0;
}

al_entry *bot_al_get(bot_al *al, int ui)
{
	return al->ent[ui] >= 0 ? &al->e[al->ent[ui]] : NULL;
}

int bot_al_set(bot_al *al, const al_entry *a)
{
	al_entry *old = bot_al_get(al, a->ui);

	if (old) {
		*old = *a;
		return MS_OK;
	}
	if (ms_vec_grow(al->ctx, (void **)&al->e, &al->cap, (long long)al->n + 1, sizeof *al->e) < 0)
		return ms_ctx_error(al->ctx, MS_ENOMEM, "bot: out of memory for abstract actions");
	al->ent[a->ui] = al->n;
	al->e[al->n++] = *a;
	return MS_OK;
}

al_entry bot_al_fresh(const bot_al *al, int ui, int kind)
{
	al_entry a;

	memset(&a, 0, sizeof(a));
	a.unit = rts_cunits(al->f.s)[ui].u.id;
	a.ui = ui;
	a.kind = kind;
	a.target = a.base = -1;
	a.ti = a.bi = -1;
	a.type = -1;
	return a;
}

int bot_al_move(bot_al *al, int ui, int x, int y)
{
	al_entry a = bot_al_fresh(al, ui, AL_MOVE);
	a.x = x;
	a.y = y;
	return bot_al_set(al, &a);
}

int bot_al_train(bot_al *al, int ui, int type)
{
	al_entry a = bot_al_fresh(al, ui, AL_TRAIN);
	a.type = type;
	return bot_al_set(al, &a);
}

int bot_al_build(bot_al *al, int ui, int type, int x, int y)
{
	al_entry a = bot_al_fresh(al, ui, AL_BUILD);
	a.type = type;
	a.x = x;
	a.y = y;
	return bot_al_set(al, &a);
}

int bot_al_harvest(bot_al *al, int ui, int target, int base)
{
	const rts_unit *us = rts_cunits(al->f.s);
	al_entry a = bot_al_fresh(al, ui, AL_HARVEST);
	if (target >= 0) {
		a.target = us[target].u.id;
		a.ti = target;
		a.tx = us[target].u.x;
		a.ty = us[target].u.y;
	}
	a.base = us[base].u.id;
	a.bi = base;
	a.bx = us[base].u.x;
	a.by = us[base].u.y;
	return bot_al_set(al, &a);
}

int bot_al_attack(bot_al *al, int ui, int target)
{
	al_entry a = bot_al_fresh(al, ui, AL_ATTACK);
	a.target = rts_cunits(al->f.s)[target].u.id;
	a.ti = target;
	return bot_al_set(al, &a);
}

int bot_al_idle(bot_al *al, int ui)
{
	al_entry a = bot_al_fresh(al, ui, AL_IDLE);
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

int bot_al_begin(bot_al *al, const ms_rts_state *s, int player)
{
	int rc, units = s->n_units;

	if ((rc = bot_frame_begin(al->ctx, &al->f, s, player)))
		return rc;
	if ((rc = bot_astar_grow(al->ctx, &al->astar, s->cells)))
		return rc;
	if (s->cells > al->cap_cells) {
		ms_ctx_mfree(al->ctx, al->acc);
		al->acc = ms_ctx_calloc(al->ctx, (size_t)s->cells, 1);
		al->cap_cells = al->acc ? s->cells : 0;
	}
	if (units > al->cap_units) {
		int cap = units < 16 ? 16 : units * 2;
		ms_ctx_mfree(al->ctx, al->ent);
		ms_ctx_mfree(al->ctx, al->in_out);
		ms_ctx_mfree(al->ctx, al->foes);
		al->ent = ms_ctx_malloc(al->ctx, sizeof(int) * (size_t)cap);
		al->in_out = ms_ctx_malloc(al->ctx, (size_t)cap);
		al->foes = ms_ctx_malloc(al->ctx, sizeof(bf_unit) * (size_t)cap);
		al->cap_units = al->ent && al->in_out && al->foes ? cap : 0;
	}
	if (s->cells > al->cap_cells || units > al->cap_units)
		return ms_ctx_error(al->ctx, MS_ENOMEM, "bot: out of memory for a %dx%d map", s->width, s->height);
	for (int i = 0; i < units; i++)
		al->ent[i] = -1;
	for (int k = 0; k < al->n; k++) {
		int ui = bot_frame_find(&al->f, al->e[k].unit, al->e[k].ui);
		/* Java keys the map by unit object: a unit of another player that
		 * took the id (a new game on a bot nobody reset) is not the same */
		if (ui >= 0 && rts_cunits(s)[ui].u.player != player)
			ui = -1;
		al->e[k].ui = ui;
		if (ui >= 0)
			al->ent[ui] = k;
	}
	return MS_OK;
}

/* ---- engine queries the abstract actions make ------------------------- */

/* The cell an action of `u` uses (ResourceUsage), or -1. */
static int used_cell(const bot_frame *f, const ms_rts_unit *u, const ms_rts_action *a)
{
	return (int)bot_used_cell(f->w, u, a);
}

static int used_cost(const bot_frame *f, const ms_rts_unit *u, const ms_rts_action *a)
{
	if (a->type != MS_RTS_PRODUCE || a->unit_type < 0)
		return 0;
	return f->s->utt->types[a->unit_type].cost;
}

int bot_al_allowed(const bot_frame *f, const ms_rts_unit *u, const ms_rts_action *a)
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

const ms_rts_unit *bot_al_unit_by_id(const bot_frame *f, int64_t id, int *hint)
{
	if (id < 0)
		return NULL;
	*hint = bot_frame_find(f, id, *hint);
	return *hint < 0 ? NULL : &rts_cunits(f->s)[*hint].u;
}

int bot_al_adjacent_dir(const ms_rts_unit *u, int x, int y)
{
	for (int d = 0; d < 4; d++)
		if (u->x + rts_dx[d] == x && u->y + rts_dy[d] == y)
			return d;
	return -1;
}

int bot_al_path(bot_al *al, const ms_rts_unit *u, int x, int y, int range)
{
	int dir;
	bot_astar_find(&al->astar, &al->f, u->x, u->y, x + y * al->f.w, range, al->ru, al->n_ru, &dir);
	return dir;
}

static int completed(bot_al *al, al_entry *a, const ms_rts_unit *u)
{
	const ms_rts_state *s = al->f.s;

	switch (a->kind) {
	case AL_MOVE:
		return u->x == a->x && u->y == a->y;
	case AL_ATTACK:
		return !bot_al_unit_by_id(&al->f, a->target, &a->ti);
	case AL_HARVEST:
		/* the 2022 jar's Harvest ends with its resource only, whatever
		 * the worker carries; since 2023 with the unit it heads for (no
		 * unit, -1, counts as gone as Java's contains(null) is false) */
		if (al->edition == MS_PATH_EDITION_2023 && u->resources > 0)
			return !bot_al_unit_by_id(&al->f, a->base, &a->bi);
		return !bot_al_unit_by_id(&al->f, a->target, &a->ti);
	case AL_BUILD:
		return rts_unit_at(s, a->x, a->y) >= 0;
	case AL_TRAIN:
		return a->done;
	case AL_OWN:
		return a->own->completed(al, a, u);
	default:
		return 0;
	}
}

/* The units of players other than `player` and the neutral one, in
 * unit-list order: the frame's list for the deciding player; for a unit of
 * the other player (a bot that decided for both seats has entries of both)
 * a list built on the spot. */
static const bf_unit *foes(bot_al *al, int player, int *n)
{
	const ms_rts_state *s = al->f.s;
	const rts_unit *us = rts_cunits(s);

	if (player == al->f.player) {
		*n = al->f.n_others;
		return al->f.others;
	}
	*n = 0;
	for (int i = 0; i < s->n_units; i++)
		if (us[i].u.player >= 0 && us[i].u.player != player) {
			al->foes[*n].x = us[i].u.x;
			al->foes[*n].y = us[i].u.y;
			al->foes[*n].i = i;
			(*n)++;
		}
	return al->foes;
}

int bot_al_execute_harvest(bot_al *al, al_entry *a, const ms_rts_unit *u, ms_rts_action *out)
{
	const bot_frame *f = &al->f;
	int dir, carrying = u->resources > 0;
	int64_t id = carrying ? a->base : a->target;
	const ms_rts_unit *t = bot_al_unit_by_id(f, id, carrying ? &a->bi : &a->ti);
	int x = carrying ? a->bx : a->tx, y = carrying ? a->by : a->ty;
	if (id < 0)
		return 0;
	if (t) {
		x = t->x;
		y = t->y;
	}
	dir = bot_al_path(al, u, x, y, 1);
	if (dir >= 0) {
		*out = bot_act(MS_RTS_MOVE, dir, -1);
		return bot_al_allowed(f, u, out);
	}
	dir = bot_al_adjacent_dir(u, x, y);
	if (dir < 0)
		return 0;
	*out = bot_act(carrying ? MS_RTS_RETURN : MS_RTS_HARVEST, dir, -1);
	return 1;
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
		dir = bot_al_path(al, u, a->x, a->y, 0);
		if (dir < 0)
			return 0;
		*out = bot_act(MS_RTS_MOVE, dir, -1);
		return bot_al_allowed(f, u, out);
	case AL_ATTACK: {
		const ms_rts_unit *t = bot_al_unit_by_id(f, a->target, &a->ti);
		int dx, dy;
		if (!t)
			return 0;
		dx = t->x - u->x;
		dy = t->y - u->y;
		if (dx * dx + dy * dy <= ut->attack_range * ut->attack_range) {
			*out = bot_act(MS_RTS_ATTACK, -1, -1);
			out->x = t->x;
			out->y = t->y;
			return 1;
		}
		dir = bot_al_path(al, u, t->x, t->y, ut->attack_range);
		if (dir < 0)
			return 0;
		*out = bot_act(MS_RTS_MOVE, dir, -1);
		return bot_al_allowed(f, u, out);
	}
	case AL_HARVEST:
		return bot_al_execute_harvest(al, a, u, out);
	case AL_BUILD:
		dir = bot_al_path(al, u, a->x, a->y, 1);
		if (dir >= 0) {
			*out = bot_act(MS_RTS_MOVE, dir, -1);
			return bot_al_allowed(f, u, out);
		}
		dir = bot_al_adjacent_dir(u, a->x, a->y);
		if (dir < 0)
			return 0;
		*out = bot_act(MS_RTS_PRODUCE, dir, a->type);
		return bot_al_allowed(f, u, out);
	case AL_TRAIN: {
		const ms_rts_unit_type *tt = &s->utt->types[a->type];
		/* the trainee faces the nearest resource (a harvester) or unit of
		 * another player; the direction with the highest -distance wins,
		 * the first one on ties */
		const bf_unit *near;
		int n_near, best = -1, best_score = 0;
		if (tt->can_harvest) {
			near = f->res;
			n_near = f->n_res;
		} else {
			near = foes(al, u->player, &n_near);
		}
		for (int d = 0; d < 4; d++) {
			int x = u->x + rts_dx[d], y = u->y + rts_dy[d], score = 0;
			if (!rts_inside(s, x, y) || !bot_frame_free(f, x, y))
				continue;
			for (int i = 0; i < n_near; i++) {
				int dist = abs(near[i].x - x) + abs(near[i].y - y);
				if (i == 0 || dist < score)
					score = dist;
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
		*out = bot_act(MS_RTS_PRODUCE, best, a->type);
		return bot_al_allowed(f, u, out);
	}
	case AL_IDLE: {
		int r2 = ut->attack_range * ut->attack_range, n_foes;
		const bf_unit *foe;
		if (!ut->can_attack)
			return 0;
		foe = foes(al, u->player, &n_foes);
		for (int i = 0; i < n_foes; i++) {
			const bf_unit *o = &foe[i];
			int dx = o->x - u->x, dy = o->y - u->y;
			if (dx * dx + dy * dy <= r2) {
				*out = bot_act(MS_RTS_ATTACK, -1, -1);
				out->x = o->x;
				out->y = o->y;
				return 1;
			}
		}
		return 0;
	}
	case AL_OWN:
		return a->own->execute(al, a, u, out);
	default:
		return 0;
	}
}

static int push_ru(bot_al *al, int cell)
{
	if (ms_vec_grow(al->ctx, (void **)&al->ru, &al->cap_ru, (long long)al->n_ru + 1, sizeof *al->ru) < 0)
		return ms_ctx_error(al->ctx, MS_ENOMEM, "bot: out of memory");
	al->ru[al->n_ru++] = cell;
	return MS_OK;
}

int bot_al_translate(bot_al *al, ms_rts_pair *out, int max, int *n)
{
	const bot_frame *f = &al->f;
	const ms_rts_state *s = f->s;
	const rts_unit *us = rts_cunits(s);
	int nd = 0, keep = 0, k = 0, acc_cost[2], rc = MS_OK;

	*n = 0;
	al->n_ru = 0;
	al->random_moves = 0;
	if (al->cap_desires < al->n) {
		const ms_vec_col cols[] = {MS_VEC_COL(al->desires), MS_VEC_COL(al->desire_unit)};
		if (ms_vec_grow_cols(al->ctx, &al->cap_desires, al->n, cols, 2) < 0)
			return ms_ctx_error(al->ctx, MS_ENOMEM, "bot: out of memory");
	}
	for (int i = 0; i < al->n; i++) {
		al_entry *a = &al->e[i];
		int ui = a->ui;
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
			al->desire_unit[nd] = ui;
			nd++;
			if (cell >= 0 && (rc = push_ru(al, cell)))
				return rc;
		}
		if (keep != i)
			al->e[keep] = *a;
		keep++;
	}
	al->n = keep;

	/* arbitration against the state's usage plus the desires accepted so
	 * far; acc holds the latter (all among the ru cells, cleared below) */
	if (s->n_units > 0)
		memset(al->in_out, 0, (size_t)s->n_units);
	acc_cost[0] = f->pend_cost[0];
	acc_cost[1] = f->pend_cost[1];
	for (int i = 0; i < nd; i++) {
		const ms_rts_unit *u = &al->desires[i].unit;
		int cell = used_cell(f, u, &al->desires[i].action);
		int cost = used_cost(f, u, &al->desires[i].action), p = u->player;
		int in_map = cell >= 0 && cell < s->cells;
		if (in_map && (f->pend[cell] || al->acc[cell]))
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
		al->in_out[al->desire_unit[i]] = 1;
	}
	for (int i = 0; i < al->n_ru; i++)
		if (al->ru[i] < s->cells)
			al->acc[al->ru[i]] = 0;
	for (int i = 0; i < f->n_own; i++) {
		int ui = f->own[i].i;
		if (us[ui].slot >= 0 || al->in_out[ui])
			continue;
		if (k < max) {
			out[k].unit = us[ui].u;
			out[k].action = bot_act(MS_RTS_NONE, al->fill_wait, -1);
		}
		k++;
	}
	*n = k;
	if (k > max)
		return ms_ctx_error(al->ctx, MS_ERANGE, "bot: %d pairs do not fit in %d", k, max);
	return MS_OK;
}
