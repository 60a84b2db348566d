/*
 * The unit actions TMA's strategies share (AwareAI in the jar; see tma.c's
 * head comment): each returns the action the Java method returns, or one
 * of type TMA_NULL for its null. Searches avoid the cells of the pairs the
 * decision accepted before the current batch (the strategies' own
 * ResourceUsage): t->ru.
 */
#include "tma_internal.h"

/* GameState.isUnitActionAllowed: a move needs an in-map cell without wall
 * or unit; a move's or production's cell must not be one pending actions
 * take; the stock is checked only for a player whose pending actions use
 * some (ResourceUsage.consistentWith skips the others). */
int tma_allowed(const tma *t, int i, const ms_rts_action *a)
{
	const ms_rts_unit *u = TU(t, i);
	const ms_rts_state *s = t->f.s;
	long c = bot_used_cell(t->f.w, u, a);

	if (a->type == MS_RTS_MOVE) {
		int x = u->x + rts_dx[a->parameter], y = u->y + rts_dy[a->parameter];
		if (!rts_inside(s, x, y) || tma_wall(t, x, y) || rts_unit_at(s, x, y) >= 0)
			return 0;
	}
	if (c >= 0 && c < s->cells && t->f.pend[c])
		return 0;
	for (int p = 0; p < 2; p++) {
		int mine = a->type == MS_RTS_PRODUCE && u->player == p ? s->utt->types[a->unit_type].cost : 0;
		int sum = mine + t->f.pend_cost[p];
		if (t->f.pend_cost[p] != 0 && sum > 0 && sum > s->resources[p])
			return 0;
	}
	return 1;
}

/* The official A* (pf): the first step of unit i towards cell `target`
 * within `range`, avoiding the accepted pairs' cells; -1 when none. */
int tma_step(tma *t, int i, int target, int range)
{
	int dir;
	bot_astar_find(&t->astar, &t->f, TU(t, i)->x, TU(t, i)->y, target, range, t->ru, t->n_ru, &dir);
	return dir;
}

static ms_rts_action move_if_allowed(const tma *t, int u, int dir)
{
	ms_rts_action a = bot_act(MS_RTS_MOVE, dir, -1);
	return tma_allowed(t, u, &a) ? a : tma_null();
}

static inline int cell_of(const tma *t, int i)
{
	return TU(t, i)->x + TU(t, i)->y * t->f.w;
}

/* sqrDistance (a square root, despite the name) against the attack range. */
static int in_range_xy(const tma *t, int u, int x, int y)
{
	int dx = TU(t, u)->x - x, dy = TU(t, u)->y - y;
	return sqrt((double)(dx * dx + dy * dy)) <= TT(t, u)->attack_range;
}

static int in_range(const tma *t, int u, int target)
{
	return in_range_xy(t, u, TU(t, target)->x, TU(t, target)->y);
}

/* futurePos: where the unit's pending move ends (staying on the map). */
int tma_future_pos(const tma *t, int u)
{
	const rts_unit *r = &rts_cunits(t->f.s)[u];
	int x = r->u.x, y = r->u.y;

	if (r->slot >= 0) {
		const ms_rts_action *a = &rts_cassigns(t->f.s)[r->slot].action;
		if (a->type == MS_RTS_MOVE) {
			if (a->parameter == MS_RTS_DOWN)
				y = y == t->f.h - 1 ? y : y + 1;
			else if (a->parameter == MS_RTS_UP)
				y = y == 0 ? y : y - 1;
			else if (a->parameter == MS_RTS_RIGHT)
				x = x == t->f.w - 1 ? x : x + 1;
			else if (a->parameter == MS_RTS_LEFT)
				x = x == 0 ? x : x - 1;
		}
	}
	return x + y * t->f.w;
}

static int future_in_range(const tma *t, int u, int target)
{
	int c = tma_future_pos(t, target);
	return in_range_xy(t, u, c % t->f.w, c / t->f.w);
}

static int will_escape(const tma *t, int attacker, int runner)
{
	const rts_unit *r = &rts_cunits(t->f.s)[runner];
	const rts_assign *as;

	if (r->slot < 0)
		return 0;
	as = &rts_cassigns(t->f.s)[r->slot];
	if (as->action.type != MS_RTS_MOVE)
		return 0;
	return TT(t, runner)->move_time - (t->f.s->time - as->time) <= TT(t, attacker)->attack_time;
}

static ms_rts_action attack_at(const tma *t, int target)
{
	ms_rts_action a = bot_act(MS_RTS_ATTACK, -1, -1);
	a.x = TU(t, target)->x;
	a.y = TU(t, target)->y;
	return a;
}

static int adjacent_to_resource(const tma *t, int x, int y)
{
	static const int ox[4] = { -1, 0, 1, 0 }, oy[4] = { 0, -1, 0, 1 };
	for (int k = 0; k < 4; k++) {
		int u = rts_unit_at(t->f.s, x + ox[k], y + oy[k]);
		if (u >= 0 && tma_is_resource(t, u))
			return 1;
	}
	return 0;
}

/* The cells at the offsets that hold no unit, no wall and touch no resource. */
static int open_cells(const tma *t, int x0, int y0, const int *ox, const int *oy, int n, int *out)
{
	int k = 0;
	for (int i = 0; i < n; i++) {
		int x = x0 + ox[i], y = y0 + oy[i];
		if (!rts_inside(t->f.s, x, y))
			continue;
		if (rts_unit_at(t->f.s, x, y) < 0 && !tma_wall(t, x, y) && !adjacent_to_resource(t, x, y))
			out[k++] = x + y * t->f.w;
	}
	return k;
}

/* PositionsInRadius (radius 1: the four sides; 2: twelve cells). */
int tma_positions_in_radius(const tma *t, int u, int radius, int *out)
{
	static const int ox1[4] = { -1, 0, 1, 0 }, oy1[4] = { 0, -1, 0, 1 };
	static const int ox2[12] = { -1, 0, 1, 0, -1, -1, 1, 1, -2, 0, 2, 0 };
	static const int oy2[12] = { 0, -1, 0, 1, -1, 1, -1, 1, 0, -2, 0, 2 };
	if (radius == 2)
		return open_cells(t, TU(t, u)->x, TU(t, u)->y, ox2, oy2, 12, out);
	return open_cells(t, TU(t, u)->x, TU(t, u)->y, ox1, oy1, 4, out);
}

/* GetFreePositionsAround: the eight neighbours, or at a map edge the
 * cells of the 3x3 block pushed inwards (left and right edges first). */
int tma_free_around(const tma *t, int u, int *out)
{
	static const int ox[5][8] = { { -1, 0, 1, -1, 1, -1, 0, 1 },
				      { 0, 1, 2, 1, 2, 0, 1, 2 },
				      { 0, -1, -2, -1, -2, 0, -1, -2 },
				      { -1, -1, -1, 0, 0, 1, 1, 1 },
				      { -1, -1, -1, 0, 0, 1, 1, 1 } };
	static const int oy[5][8] = { { -1, -1, -1, 0, 0, 1, 1, 1 },
				      { -1, -1, -1, 0, 0, 1, 1, 1 },
				      { -1, -1, -1, 0, 0, 1, 1, 1 },
				      { 0, 1, 2, 1, 2, 0, 1, 2 },
				      { 0, -1, -2, -1, -2, 0, -1, -2 } };
	int x = TU(t, u)->x, y = TU(t, u)->y, k = 0;

	if (x == 0)
		k = 1;
	else if (x == t->f.w - 1)
		k = 2;
	else if (y == 0)
		k = 3;
	else if (y == t->f.h - 1)
		k = 4;
	return open_cells(t, x, y, ox[k], oy[k], 8, out);
}

/*
 * posDistance as the jar computes it: manhattanDistance(a%w, b%w, a/w,
 * b/w), i.e. |a%w - a/w| + |b%w - b/w|, not the distance between the two
 * cells. The chokepoint and bad-spot tests compare walls with it.
 */
static int pos_distance(int a, int b, int w)
{
	return abs(a % w - a / w) + abs(b % w - b / w);
}

/* The eight neighbours (sides first) with walls: 1 when a wall is found
 * that the odd distance above puts more than 1 from an earlier one; with
 * `resources`, also 1 at the first neighbour holding a resource. */
static int walls_apart(const tma *t, int x, int y, int resources)
{
	static const int ox[8] = { -1, 0, 1, 0, -1, -1, 1, 1 }, oy[8] = { 0, -1, 0, 1, -1, 1, -1, 1 };
	int walls[8], n = 0, w = t->f.w;

	for (int i = 0; i < 8; i++) {
		int nx = x + ox[i], ny = y + oy[i];
		if (!rts_inside(t->f.s, nx, ny))
			continue;
		if (resources) {
			int u = rts_unit_at(t->f.s, nx, ny);
			if (u >= 0 && tma_is_resource(t, u))
				return 1;
		}
		if (!tma_wall(t, nx, ny))
			continue;
		walls[n++] = nx + ny * w;
		if (n > 1)
			for (int k = 0; k < n; k++)
				if (pos_distance(walls[n - 1], walls[k], w) > 1)
					return 1;
	}
	return 0;
}

int tma_chokepoint(const tma *t, int x, int y)
{
	return walls_apart(t, x, y, 0);
}

int tma_bad_spot(const tma *t, int x, int y)
{
	return walls_apart(t, x, y, 1);
}

/* isPlayerPredominant: no more enemies than allies (the unit included)
 * within the box. */
int tma_predominant(const tma *t, int u, int width, int height)
{
	const ms_rts_state *s = t->f.s;
	const rts_unit *us = rts_cunits(s);
	int allies = 0, enemies = 0, me = TU(t, u)->player;

	for (int i = 0; i < s->n_units; i++) {
		const ms_rts_unit *v = &us[i].u;
		if (abs(v->x - TU(t, u)->x) > width || abs(v->y - TU(t, u)->y) > height)
			continue;
		if (v->player == me)
			allies++;
		if (v->player != me && v->player >= 0)
			enemies++;
	}
	return enemies <= allies;
}

/* evaluateAttackTarget: the distance, 0 for a target in range that one hit kills. */
int tma_eval_target(const tma *t, int u, int target)
{
	int d = tma_udist(t, u, target);
	if (d <= TT(t, u)->attack_range && TU(t, target)->hitpoints <= TT(t, u)->max_damage)
		return 0;
	return d;
}

ms_rts_action tma_move(tma *t, int u, int dest)
{
	int dir = tma_step(t, u, dest, 0);
	return dir < 0 ? tma_null() : move_if_allowed(t, u, dir);
}

/* Approach: the cell within two steps (of the twelve) nearest the target
 * yet nearer than the unit and not on it (distances less 4 for a ranged
 * target, 1 for another that attacks), among those a path reaches. */
static ms_rts_action approach(tma *t, int u, int target)
{
	const ms_rts_unit_type *tt = TT(t, target);
	int n = tma_positions_in_radius(t, u, 2, t->pos), mod = 0, best = 0, pos = 0, found = 0, cur;
	int tx = TU(t, target)->x, ty = TU(t, target)->y;

	if (tt->can_attack)
		mod = TU(t, target)->type == t->ranged ? 4 : 1;
	cur = tma_dist(tx, ty, TU(t, u)->x, TU(t, u)->y) - mod;
	for (int k = 0; k < n; k++) {
		int p = t->pos[k], d = tma_dist(tx, ty, p % t->f.w, p / t->f.w) - mod;
		/* pathExists has no effect: tested last */
		if ((!found || d < best) && d < cur && d > 0 && (p == cell_of(t, u) || tma_step(t, u, p, 0) >= 0)) {
			best = d;
			pos = p;
			found = 1;
		}
	}
	return found ? tma_move(t, u, pos) : tma_null();
}

/*
 * What tma_attack and tma_scout do first: strike a target in range that will
 * not get away, or wait for one about to come into range. 1 with *a set when
 * that decided; 0 when the unit must move.
 */
static int strike_or_wait(const tma *t, int u, int target, ms_rts_action *a)
{
	if (target < 0)
		*a = tma_null();
	else if (in_range(t, u, target) && !will_escape(t, u, target))
		*a = attack_at(t, target);
	else if (future_in_range(t, u, target))
		*a = bot_act(MS_RTS_NONE, 1, -1);
	else
		return 0;
	return 1;
}

ms_rts_action tma_attack(tma *t, int u, int target)
{
	ms_rts_action a;
	int dir;

	if (strike_or_wait(t, u, target, &a))
		return a;
	dir = tma_step(t, u, cell_of(t, target), TT(t, u)->attack_range);
	if (dir < 0)
		return approach(t, u, target);
	return move_if_allowed(t, u, dir);
}

ms_rts_action tma_scout(tma *t, int u, int target)
{
	int dir, harvest;
	ms_rts_action a;

	if (strike_or_wait(t, u, target, &a))
		return a;
	dir = tma_path_scout(&t->path, &t->f, TU(t, u)->x, TU(t, u)->y, cell_of(t, target), TT(t, u)->attack_range,
			     t->ru, t->n_ru, &harvest);
	if (dir < 0)
		return approach(t, u, target);
	a = bot_act(harvest ? MS_RTS_HARVEST : MS_RTS_MOVE, dir, -1);
	if (!tma_allowed(t, u, &a))
		return tma_null();
	if (harvest && tma_chokepoint(t, TU(t, u)->x, TU(t, u)->y) && !tma_predominant(t, u, 5, 5))
		return tma_null();
	return a;
}

ms_rts_action tma_idle(tma *t, int u)
{
	if (!TT(t, u)->can_attack)
		return tma_null();
	for (int k = 0; k < t->f.n_others; k++)
		if (in_range(t, u, t->f.others[k].i))
			return attack_at(t, t->f.others[k].i);
	return tma_null();
}

/* Harvest: to the resource when empty-handed, else back to the base; the
 * action on it once next to it. */
ms_rts_action tma_harvest(tma *t, int u, int target, int base)
{
	int carrying = TU(t, u)->resources != 0, goal = carrying ? base : target, dir;

	if (goal < 0)
		return tma_null();
	dir = tma_step(t, u, cell_of(t, goal), 1);
	if (dir >= 0)
		return move_if_allowed(t, u, dir);
	dir = bot_al_adjacent_dir(TU(t, u), TU(t, goal)->x, TU(t, goal)->y);
	if (dir < 0)
		return tma_null();
	return bot_act(carrying ? MS_RTS_RETURN : MS_RTS_HARVEST, dir, -1);
}

ms_rts_action tma_build(tma *t, int u, int type, int x, int y)
{
	int dir = tma_step(t, u, x + y * t->f.w, 1);
	ms_rts_action a;

	if (dir >= 0)
		return move_if_allowed(t, u, dir);
	dir = bot_al_adjacent_dir(TU(t, u), x, y);
	if (dir < 0)
		return tma_null();
	a = bot_act(MS_RTS_PRODUCE, dir, type);
	return tma_allowed(t, u, &a) ? a : tma_null();
}

/* evaluateTrain: minus the distance to the nearest resource (a worker
 * while workers are short of the harvesters wanted), else to the nearest
 * enemy; 0 with none. */
static int eval_train(const tma *t, int x, int y, int type)
{
	const bf_unit *l = t->f.others;
	int n = t->f.n_others, best = 0;

	if (t->f.s->utt->types[type].can_harvest && t->pu[TMA_WORKER] < t->n_harvest)
		l = t->f.res, n = t->f.n_res;
	for (int k = 0; k < n; k++) {
		int d = tma_dist(l[k].x, l[k].y, x, y);
		if (k == 0 || d < best)
			best = d;
	}
	return -best;
}

ms_rts_action tma_train(tma *t, int u, int type)
{
	int best_dir = -1, best = -1;
	ms_rts_action a;

	for (int d = 0; d < 4; d++) {
		int x = TU(t, u)->x + rts_dx[d], y = TU(t, u)->y + rts_dy[d], sc;
		if (!rts_inside(t->f.s, x, y) || !bot_frame_free(&t->f, x, y))
			continue;
		sc = eval_train(t, x, y, type);
		if (sc > best || best_dir == -1)
			best = sc, best_dir = d;
	}
	if (best_dir < 0)
		return tma_null();
	a = bot_act(MS_RTS_PRODUCE, best_dir, type);
	return tma_allowed(t, u, &a) ? a : tma_null();
}
