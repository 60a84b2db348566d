/*
 * TMA (ai.tma.TMA, the 2024 competition winner) deciding as the jar built
 * from its public sources (TMA.java and strategiesV2, against the current
 * official microrts.jar) does; written from a reading of those sources.
 *
 * The bot has no abstraction layer: each decision builds a PlayerAction
 * from scratch. A macro layer (TMA) counts the units of each side by kind
 * and measures the map around its remembered bases, then picks one of
 * four strategies (AwareAI): attack or defence by the sign of the unit
 * difference plus how much nearer the enemy is to our base than we are to
 * theirs (weights 1, 1); workers or military by the sign of stock - 5, 2
 * with a barracks, and 10 when no enemy is reachable from our base, else
 * the nearest enemy's distance capped by h + w, less 16 (weights 1, 10,
 * 1). Before the strategy decides, the macro layer re-tunes it: the
 * harvesters wanted (by map size, the distance between bases, the nearest
 * resource and enemy), the unit kinds to train (balance our light, heavy
 * and ranged units; ranged ones when no enemy is reachable from our base,
 * when the bases are 4 or less apart without a ranged unit of ours, or
 * when the nearest enemy cannot be reached; counter the enemy's strongest
 * kind), one barracks, and the stock above which a military strategy
 * trains more workers.
 *
 * State the instance keeps from decision to decision, all reproduced:
 *  - mainBase and enemyBase: the first base of each side met in unit-list
 *    order while none is remembered, forgotten when that side has no base
 *    left (a dead one stays remembered while another stands);
 *  - the distance between those bases, kept when one is forgotten (9999
 *    before both were seen);
 *  - the A* distance from mainBase to the nearest reachable enemy,
 *    measured again at every decision while it is 0 or -1 (none);
 *  - the nearest enemy to mainBase, never set back to null;
 *  - the weights: both vectors 0 while we have neither worker nor base,
 *    set when the first decision is made and again on decisions at cycles
 *    that are multiples of 500 (with no unit free to act TMA returns at
 *    once and these cycles pass unseen).
 * The strategies' own fields (harvesters, production, threshold, unit
 * counts) are all set again by the macro layer before each use, so they
 * carry nothing between decisions.
 *
 * Each decision of a strategy (AwareAI.getAction): bases, barracks and
 * military units in unit-list order, each action accepted when its cell
 * and cost are consistent with the pending actions and those accepted
 * before; then the workers' list (a base builder when there is none, the
 * first n harvesters, a barracks builder for the military strategies,
 * the others scout), whose searches do not see each other's cells and
 * whose pairs are accepted afterwards in list order; then NONE for 10
 * cycles for the idle units left. Ties go to the first in unit-list order
 * (every minimum is strict).
 *
 * Random draws and the clock: none. AMilDefense creates a
 * java.util.Random it never draws from, and TMA keeps its computation
 * budget without reading the clock, so every decision is reproducible:
 * `ms_bot_set_stochastic` changes nothing and `botdiff` flags no decision.
 *
 * Where the native bot departs from the jar, and why:
 *  - reset(): the jar's clears nothing (its fields, including the
 *    remembered bases' unit objects and `initialized`, the map size read
 *    at the first decision, live on into the next game); the native reset
 *    forgets everything, as a fresh instance (AI.clone, what tournaments
 *    and the recorder use) starts. Not reset, both keep the last game's
 *    base while the new game has one: its searches read that cell as a
 *    linear index, aliased onto a smaller map as in the jar; past the
 *    map's cells the jar would index its arrays out of bounds (or as an
 *    earlier, larger map left them), the native search finds no path.
 *  - the jar remembers units as objects: a remembered unit that is dead
 *    keeps its last cell, which the native bot keeps too. Bases do not
 *    move. The nearest enemy is only read again while some enemy is in the
 *    state, so it is always a live one on a full state; on a partially
 *    observable view with no enemy in sight the jar reads where the unit
 *    stands now (the object is shared with the full state), which the
 *    native bot cannot see: it uses the cell it saw last.
 *  - the unit counts compare type names by identity (`==` on strings):
 *    true for the official tables, whose names are literals; the native
 *    bot compares type ids looked up by name.
 *  - each decision prints three numbers on the standard output; the
 *    native bot prints nothing.
 * Editions: TMA uses no class of ai.abstraction but AStarPathFinding,
 * whose paths are the same in both (astar.c), so the edition changes
 * nothing.
 *
 * Measured (Nov 2026, `botdiff --edition 2023` on recordings of the jar on
 * the current official harness, docs/tma.md): 252 matches against the
 * rushes, CoacAI, mayari and itself, both seats, on 24 maps from 8x8 to
 * 64x64 (the ten 2025 maps among them), tables 1-3, conflict policies
 * 1-3, 24 of them partially observable: 357,623 TMA decisions, 0
 * mismatches. Whole native matches against the rushes and itself end as
 * the jar's (winner and cycle count) in 174 of 174.
 */
#include "tma_internal.h"

/* ---- the macro layer (TMA) ---------------------------------------------- */

/* updateUnitDistribution: counts by kind, and the remembered bases. The
 * kind of a unit of no known kind is the previous unit's (the jar's
 * variable is not reset), only ever true of resources, which no side owns. */
static void count_units(tma *t)
{
	const ms_rts_state *s = t->f.s;
	const rts_unit *us = rts_cunits(s);
	int kind = TMA_WORKER;

	memset(t->pu, 0, sizeof(t->pu));
	memset(t->eu, 0, sizeof(t->eu));
	for (int i = 0; i < s->n_units; i++) {
		const ms_rts_unit *u = &us[i].u;
		if (u->type == t->worker)
			kind = TMA_WORKER;
		if (u->type == t->light)
			kind = TMA_LIGHT;
		if (u->type == t->heavy)
			kind = TMA_HEAVY;
		if (u->type == t->ranged)
			kind = TMA_RANGED;
		if (u->type == t->base) {
			kind = TMA_BASE;
			if (!t->has_main && u->player == t->player) {
				t->has_main = 1;
				t->main_x = u->x;
				t->main_y = u->y;
			} else if (!t->has_enemy_base && u->player != t->player) {
				t->has_enemy_base = 1;
				t->eb_x = u->x;
				t->eb_y = u->y;
			}
		}
		if (u->type == t->barracks)
			kind = TMA_BARRACKS;
		if (u->player != t->player && u->player >= 0)
			t->eu[kind]++;
		else if (u->player == t->player)
			t->pu[kind]++;
	}
	if (t->pu[TMA_BASE] == 0)
		t->has_main = 0;
	if (t->eu[TMA_BASE] == 0)
		t->has_enemy_base = 0;
}

/* calibrateWeights */
static void calibrate_weights(tma *t)
{
	int off = t->pu[TMA_WORKER] == 0 && t->pu[TMA_BASE] == 0;
	t->weight_ad[0] = t->weight_ad[1] = off ? 0 : 1;
	t->weight_wm[0] = t->weight_wm[2] = off ? 0 : 1;
	t->weight_wm[1] = off ? 0 : 10;
}

/* distRealUnitEneBase: the shortest A* distance from mainBase to a cell
 * next to an enemy, -1 when none is reachable. */
static int real_distance(tma *t)
{
	int found = 0, best = 0;
	for (int k = 0; k < t->f.n_others; k++) {
		const bf_unit *e = &t->f.others[k];
		int d = tma_path_dist(&t->path, &t->f, t->main_x, t->main_y, e->x + e->y * t->f.w, 1);
		if ((!found || d < best) && d >= 0) {
			found = 1;
			best = d;
		}
	}
	return found ? best : -1;
}

/* CalibrateUnitProduction: weights of light, heavy, ranged. */
static void calibrate_production(tma *t)
{
	const int *pu = t->pu, *eu = t->eu;
	int high = pu[TMA_LIGHT], counter = 0, enemy_high = 0, ranged = 0;

	high = pu[TMA_HEAVY] > high ? pu[TMA_HEAVY] : high;
	high = pu[TMA_RANGED] > high ? pu[TMA_RANGED] : high;
	for (int i = 0; i < 3; i++)
		t->prod[i] = high == 0 ? i == 1 : pu[i + 1] < high;
	if (t->has_closest && t->has_main &&
	    tma_path_dist(&t->path, &t->f, t->main_x, t->main_y, t->closest_x + t->closest_y * t->f.w, 1) == -1)
		ranged = 1;
	if (t->real_base_to_enemy == -1 || (t->base_to_enemy_base <= 4 && pu[TMA_RANGED] == 0) || ranged)
		t->prod[2] += 3;
	for (int i = 1; i <= 3; i++)
		if (eu[i] > enemy_high && eu[i] >= pu[i]) {
			counter = i;
			enemy_high = eu[i];
		}
	if (counter == TMA_LIGHT || counter == TMA_HEAVY)
		t->prod[1]++;
	else if (counter == TMA_RANGED)
		t->prod[0]++;
}

/* CalibrateStrategy: what the chosen strategy is told. */
static void calibrate_strategy(tma *t)
{
	int harvest = 2, nb = 1, *pu = t->pu;

	if (!t->has_main)
		harvest = 0;
	else if (t->map_max < 12 || t->base_to_enemy_base < 16)
		harvest = pu[TMA_BASE];
	else if (t->base_to_res > t->enemy_to_base)
		harvest = pu[TMA_BASE] > 2 ? pu[TMA_BASE] : 2;
	else if (t->base_to_res / 5 > harvest)
		harvest = t->base_to_res / 5 > pu[TMA_BASE] ? t->base_to_res / 5 : pu[TMA_BASE];
	else if (t->map_max >= 64)
		harvest = t->base_to_res - 1 < 4 ? t->base_to_res - 1 : 4;
	t->n_harvest = harvest;
	calibrate_production(t);
	t->tot_barracks = nb;
	if (t->map_max >= 64 && t->real_base_to_enemy != -1)
		t->threshold = 10;
	else if (pu[TMA_BARRACKS] < nb)
		t->threshold = (t->map_max <= 10 ? 5 : 8) * (nb - pu[TMA_BARRACKS]);
	else
		t->threshold = (t->map_max <= 10 ? 3 : 4) * pu[TMA_BARRACKS];
}

/* getMacroStrategy: the figures, the strategy, its tuning. */
static void macro(tma *t)
{
	const ms_rts_state *s = t->f.s;
	const rts_unit *us = rts_cunits(s);
	int rd = 9999, ed = 9999, pd = 9999, has_res = 0, has_pl = 0, x0 = 0, x1, y1, y2, ab, wm;

	count_units(t);
	if (s->time % 500 == 0 && s->time != 0)
		calibrate_weights(t);
	if (t->has_main && t->real_base_to_enemy <= 0)
		t->real_base_to_enemy = real_distance(t);
	if (t->has_main && t->has_enemy_base)
		t->base_to_enemy_base = tma_dist(t->eb_x, t->eb_y, t->main_x, t->main_y);
	for (int i = 0; i < s->n_units; i++) {
		const ms_rts_unit *u = &us[i].u;
		int d;
		if (t->has_main) {
			d = tma_dist(u->x, u->y, t->main_x, t->main_y);
			if (s->utt->types[u->type].is_resource) {
				if (!has_res || d < rd)
					has_res = 1, rd = d;
			} else if (u->player != t->player && u->player >= 0 && (!t->has_closest || d < ed)) {
				t->has_closest = 1;
				t->closest_id = u->id;
				t->closest_x = u->x;
				t->closest_y = u->y;
				t->closest_hint = i;
				ed = d;
			}
		}
		if (t->has_enemy_base && u->player == t->player) {
			d = tma_dist(u->x, u->y, t->eb_x, t->eb_y);
			if (!has_pl || d < pd)
				has_pl = 1, pd = d;
		}
	}
	t->base_to_res = rd;
	t->enemy_to_base = ed;
	t->player_to_enemy_base = pd;
	for (int k = TMA_WORKER; k <= TMA_RANGED; k++)
		x0 += t->pu[k] - t->eu[k];
	x1 = ed == 9999 ? 0 : pd == 9999 ? 10 : ed - pd;
	ab = x0 * t->weight_ad[0] + x1 * t->weight_ad[1];
	y1 = t->pu[TMA_BARRACKS] > 0 ? 2 : 0;
	y2 = t->real_base_to_enemy == -1 ? 10 : (ed < s->height + s->width ? ed : s->height + s->width) - 16;
	wm = (t->res - 5) * t->weight_wm[0] + y1 * t->weight_wm[1] + y2 * t->weight_wm[2];
	t->rush = ab >= 0;
	t->mil = wm >= 0;
	calibrate_strategy(t);
}

/* ---- the strategies (AWorkDefense, AMilDefense, AWorkRush, AMilRush) ---- */

static int closest_in(const bf_unit *l, int n, int x, int y, int *dist)
{
	int best = -1, bd = 0;
	for (int k = 0; k < n; k++) {
		int d = tma_dist(l[k].x, l[k].y, x, y);
		if (best < 0 || d < bd)
			best = l[k].i, bd = d;
	}
	*dist = bd;
	return best;
}

/* The enemy the attack score ranks first (evaluateAttackTarget). */
static int best_target(const tma *t, int u, int *score)
{
	int best = -1, bs = 0;
	for (int k = 0; k < t->f.n_others; k++) {
		int e = t->f.others[k].i, d = tma_eval_target(t, u, e);
		if (best < 0 || d < bs)
			best = e, bs = d;
	}
	*score = bs;
	return best;
}

static int half_side(const tma *t)
{
	return (t->f.w > t->f.h ? t->f.w : t->f.h) / 2;
}

/* Workers strategies train a worker whenever they can; military ones
 * while short of harvesters or with stock above the threshold. */
static ms_rts_action base_behavior(tma *t, int u)
{
	int ok = t->res >= t->f.s->utt->types[t->worker].cost;
	if (t->mil)
		ok = ok && (t->pu[TMA_WORKER] < t->n_harvest || t->res > t->threshold);
	return ok ? tma_train(t, u, t->worker) : tma_null();
}

static ms_rts_action barracks_behavior(tma *t, int u)
{
	const int types[3] = { t->light, t->heavy, t->ranged };
	int type = t->heavy, value = 0;

	if (!t->mil)
		type = t->light;
	else
		for (int i = 0; i < 3; i++)
			if (t->prod[i] > value)
				value = t->prod[i], type = types[i];
	if (t->res >= t->f.s->utt->types[type].cost)
		return tma_train(t, u, type);
	return tma_null();
}

/* rangedBehavior: step away from a melee enemy about to be next to us
 * unless the best target dies in one hit. */
static ms_rts_action ranged_behavior(tma *t, int u)
{
	int ce = -1, cd = 0, bt = -1, bs = 0, n, f, fd;

	for (int k = 0; k < t->f.n_others; k++) {
		int e = t->f.others[k].i, d = tma_udist(t, u, e), sc = tma_eval_target(t, u, e);
		if (ce < 0 || d < cd)
			ce = e, cd = d;
		if (bt < 0 || sc < bs)
			bt = e, bs = sc;
	}
	if (bt < 0)
		return tma_null();
	if (cd > 2 || TU(t, bt)->hitpoints <= TT(t, u)->max_damage)
		return tma_attack(t, u, bt);
	f = tma_future_pos(t, ce);
	fd = tma_dist(TU(t, u)->x, TU(t, u)->y, f % t->f.w, f / t->f.w);
	if (fd == 1) {
		int pos[4];
		n = tma_positions_in_radius(t, u, 1, pos);
		for (int k = 0; k < n; k++)
			if (tma_dist(TU(t, ce)->x, TU(t, ce)->y, pos[k] % t->f.w, pos[k] / t->f.w) > fd)
				return tma_move(t, u, pos[k]);
	}
	return tma_attack(t, u, bt);
}

/* aggroMeleeBehevior: heavies prefer buildings, lights ranged units,
 * unless another enemy scores under 4. */
static ms_rts_action aggro_behavior(tma *t, int u)
{
	int ct = -1, cd = 0, fav = -1, fd = 0, ut = TU(t, u)->type;

	for (int k = 0; k < t->f.n_others; k++) {
		int e = t->f.others[k].i, et = TU(t, e)->type, d = tma_eval_target(t, u, e);
		if (ct < 0 || d < cd)
			ct = e, cd = d;
		if ((((et == t->barracks || et == t->base) && ut == t->heavy) || (et == t->ranged && ut == t->light)) &&
		    (fav < 0 || d < fd))
			fav = e, fd = d;
	}
	if (fav < 0 && ct >= 0)
		return tma_attack(t, u, ct);
	if (fav == ct)
		return tma_attack(t, u, fav);
	if (ct >= 0 && cd < 4)
		return tma_attack(t, u, ct);
	return tma_attack(t, u, fav);
}

static ms_rts_action melee_behavior(tma *t, int u)
{
	int ce, cd, mybase = 0, ut = TU(t, u)->type;

	if (t->rush && t->mil) {
		if (ut == t->ranged)
			return ranged_behavior(t, u);
		if (ut == t->heavy || ut == t->light)
			return aggro_behavior(t, u);
		return tma_null();
	}
	ce = best_target(t, u, &cd);
	if (t->rush)
		return tma_attack(t, u, ce);
	for (int k = 0; k < t->f.n_own; k++) {
		int b = t->f.own[k].i, d;
		if (TU(t, b)->type != t->base)
			continue;
		d = tma_udist(t, b, u);
		if (mybase == 0 || d < mybase)
			mybase = d;
	}
	if (ce >= 0 && (cd < half_side(t) || mybase < half_side(t)))
		return tma_attack(t, u, ce);
	return tma_null();
}

static ms_rts_action scout_behavior(tma *t, int u)
{
	int ce, ced, cbd, base = closest_in(t->f.stock, t->f.n_stock, TU(t, u)->x, TU(t, u)->y, &cbd);

	ce = best_target(t, u, &ced);
	if (ce < 0 || (!t->rush && ced >= half_side(t) && cbd >= half_side(t)))
		return tma_null();
	if (tma_step(t, u, TU(t, ce)->x + TU(t, ce)->y * t->f.w, 1) >= 0 || tma_udist(t, u, ce) == 1) {
		if (tma_chokepoint(t, TU(t, u)->x, TU(t, u)->y))
			return tma_predominant(t, u, 5, 5) ? tma_attack(t, u, ce) : tma_idle(t, u);
		return tma_attack(t, u, ce);
	}
	if (TU(t, u)->resources == 0)
		return tma_scout(t, u, ce);
	if (base < 0)
		return tma_null();
	if (tma_step(t, u, TU(t, base)->x + TU(t, base)->y * t->f.w, 1) >= 0 || tma_udist(t, u, base) == 1)
		return tma_harvest(t, u, -1, base);
	return tma_scout(t, u, ce);
}

static ms_rts_action worker_behavior(tma *t, int u)
{
	int d, r = closest_in(t->f.res, t->f.n_res, TU(t, u)->x, TU(t, u)->y, &d);
	int b = closest_in(t->f.stock, t->f.n_stock, TU(t, u)->x, TU(t, u)->y, &d);

	if (b >= 0 || r >= 0)
		return tma_harvest(t, u, r, b);
	return scout_behavior(t, u);
}

/* evaluateBaseBuild: far from the enemy, near a resource (not next to
 * one), near the builder. */
static int eval_base_build(const tma *t, int builder, int pos)
{
	int x = pos % t->f.w, y = pos / t->f.w, rd = 0, ed = 0;

	for (int k = 0; k < t->f.n_res; k++) {
		int d = tma_dist(t->f.res[k].x, t->f.res[k].y, x, y);
		if ((rd == 0 || d < rd) && d > 1)
			rd = d;
	}
	for (int k = 0; k < t->f.n_others; k++) {
		int d = tma_dist(t->f.others[k].x, t->f.others[k].y, x, y);
		if (ed == 0 || d > ed)
			ed = d;
	}
	return ed - rd - tma_dist(TU(t, builder)->x, TU(t, builder)->y, x, y);
}

/* evaluateBarrackBuild: 0 on a bad spot; else far from our farthest base
 * and from the enemy (under 64 wide: the farthest enemy; else near the
 * nearest). */
static int eval_barracks_build(const tma *t, int pos)
{
	int w = t->f.w, x = pos % w, y = pos / w, bd = 0, ed = 0;

	if (tma_bad_spot(t, x, y))
		return 0;
	for (int k = 0; k < t->f.n_own; k++) {
		int d;
		if (TU(t, t->f.own[k].i)->type != t->base)
			continue;
		d = tma_dist(t->f.own[k].x, t->f.own[k].y, x, y);
		if ((bd == 0 || d > bd) && d > 1)
			bd = d;
	}
	for (int k = 0; k < t->f.n_others; k++) {
		int d = tma_dist(t->f.others[k].x, t->f.others[k].y, x, y);
		if (ed == 0 || (d > ed && w < 64) || (d < ed && w >= 64))
			ed = d;
	}
	return w < 64 ? ed + bd : bd - ed;
}

static ms_rts_action builder_behavior(tma *t, int u)
{
	const ms_rts_unit_type *ty = t->f.s->utt->types;
	int pos[8], n, hs = 0, at = 0;

	if (t->pu[TMA_BASE] == 0 && t->res >= ty[t->base].cost) {
		if (!(n = tma_free_around(t, u, pos)))
			return worker_behavior(t, u);
		for (int k = 0; k < n; k++) {
			int sc = eval_base_build(t, u, pos[k]);
			if (sc > hs)
				hs = sc, at = pos[k];
		}
		return tma_build(t, u, t->base, at % t->f.w, at / t->f.w);
	}
	if (t->mil && t->pu[TMA_BARRACKS] < t->tot_barracks && t->res >= ty[t->barracks].cost) {
		int b = -1, bd = 0;
		for (int k = 0; k < t->f.n_own; k++) {
			int o = t->f.own[k].i, d;
			if (TU(t, o)->type != t->base)
				continue;
			d = tma_udist(t, u, o);
			if (b < 0 || d < bd)
				b = o, bd = d;
		}
		if (!(n = tma_free_around(t, b >= 0 ? b : u, pos)))
			return worker_behavior(t, u);
		for (int k = 0; k < n; k++) {
			int sc = eval_barracks_build(t, pos[k]);
			if (sc > hs || hs == 0)
				hs = sc, at = pos[k];
		}
		return tma_build(t, u, t->barracks, at % t->f.w, at / t->f.w);
	}
	return worker_behavior(t, u);
}

/* conflictingMove: a move next to a friendly attacker already listed with a move. */
static int conflicting(const tma *t, int u, const ms_rts_action *a)
{
	static const int ox[4] = { -1, 0, 1, 0 }, oy[4] = { 0, -1, 0, 1 };

	if (a->type != MS_RTS_MOVE)
		return 0;
	for (int k = 0; k < 4; k++) {
		int v = rts_unit_at(t->f.s, TU(t, u)->x + ox[k], TU(t, u)->y + oy[k]);
		if (v < 0 || !TT(t, v)->can_attack || TU(t, v)->player != TU(t, u)->player)
			continue;
		for (int j = 0; j < t->n_wl; j++)
			if (t->wl[j] == v && t->wa[j].type == MS_RTS_MOVE)
				return 1;
	}
	return 0;
}

static void list_add(tma *t, int u, ms_rts_action a)
{
	t->wl[t->n_wl] = u;
	t->wa[t->n_wl++] = a;
}

static void list_checked(tma *t, int u, ms_rts_action a)
{
	list_add(t, u, conflicting(t, u, &a) ? tma_idle(t, u) : a);
}

static int pop_front(int *l, int *n)
{
	int v = l[0];
	memmove(l, l + 1, sizeof(int) * (size_t)(--*n));
	return v;
}

/* Between: u inside the box of a and b. */
static int between(const tma *t, int u, int a, int b)
{
	const ms_rts_unit *p = TU(t, u), *q = TU(t, a), *r = TU(t, b);
	int x0 = q->x < r->x ? q->x : r->x, x1 = q->x < r->x ? r->x : q->x;
	int y0 = q->y < r->y ? q->y : r->y, y1 = q->y < r->y ? r->y : q->y;
	return x0 <= p->x && p->x <= x1 && y0 <= p->y && p->y <= y1;
}

/* workersBehavior: the list of (worker, action) in the jar's order; `fr`
 * has room for twice the workers. */
static void workers_behavior(tma *t, const int *workers, int nw, int *fr, int *hv)
{
	const ms_rts_unit_type *ty = t->f.s->utt->types;
	int nf = nw, nh = 0;

	t->n_wl = 0;
	if (nw == 0)
		return;
	memcpy(fr, workers, sizeof(int) * (size_t)nw);
	if (t->pu[TMA_BASE] == 0 && nf > 0 && t->res >= ty[t->base].cost) {
		int u = pop_front(fr, &nf);
		if (!tma_busy(t, u))
			list_checked(t, u, builder_behavior(t, u));
	}
	for (int i = 1; i <= t->n_harvest && nf > 0; i++)
		hv[nh++] = pop_front(fr, &nf);
	if (t->mil && nh >= 1 && t->pu[TMA_BARRACKS] < t->tot_barracks && t->res > ty[t->barracks].cost) {
		int u = nh == 1 && nf > 0 ? pop_front(fr, &nf) : pop_front(hv, &nh);
		if (!tma_busy(t, u))
			list_checked(t, u, builder_behavior(t, u));
	}
	for (int k = 0; k < nh; k++) {
		int hw = hv[k], x, y, cr, cb, ce, crd, cbd, ced;
		if (tma_busy(t, hw))
			continue;
		x = TU(t, hw)->x;
		y = TU(t, hw)->y;
		cr = closest_in(t->f.res, t->f.n_res, x, y, &crd);
		cb = closest_in(t->f.stock, t->f.n_stock, x, y, &cbd);
		ce = closest_in(t->f.others, t->f.n_others, x, y, &ced);
		if (ce >= 0 && ced <= 2 && cbd <= 2)
			list_add(t, hw, tma_attack(t, hw, ce));
		else if (cr >= 0 && cb >= 0)
			list_checked(t, hw,
				     ce >= 0 && between(t, ce, hw, cr) && TU(t, hw)->resources < 1
					     ? scout_behavior(t, hw)
					     : tma_harvest(t, hw, cr, cb));
		else if (cb >= 0 && TU(t, hw)->resources > 0)
			list_checked(t, hw, tma_harvest(t, hw, -1, cb));
		else
			fr[nf++] = hw;
	}
	for (int k = 0; k < nf; k++)
		if (!tma_busy(t, fr[k]))
			list_checked(t, fr[k], scout_behavior(t, fr[k]));
}

/* ---- the decision --------------------------------------------------------- */

/* PlayerAction.consistentWith, then addUnitAction: the pair is kept when
 * its cell is neither pending nor accepted and its cost fits the stock
 * with the pending and accepted ones. */
static void try_add(tma *t, int u, ms_rts_action a)
{
	const ms_rts_state *s = t->f.s;
	long c = bot_used_cell(t->f.w, TU(t, u), &a);
	int p = TU(t, u)->player;
	int cost = a.type == MS_RTS_PRODUCE ? s->utt->types[a.unit_type].cost : 0;

	if (a.type == TMA_NULL)
		return;
	if (c >= 0 && c < s->cells && (t->f.pend[c] || t->taken[c]))
		return;
	if (cost && (p == 0 || p == 1)) {
		int sum = t->f.pend_cost[p] + t->acc_cost[p] + cost;
		if (sum > 0 && sum > s->resources[p])
			return;
		t->acc_cost[p] += cost;
	}
	if (c >= 0 && c < s->cells) {
		t->taken[c] = 1;
		t->ru[t->n_ru++] = (int)c;
	}
	t->pa[t->n_pa].unit = *TU(t, u);
	t->pa[t->n_pa++].action = a;
	t->in_pa[u] = 1;
}

/* AwareAI.getAction of the chosen strategy. */
static void strategy_action(tma *t, int *workers, int *fr, int *hv)
{
	int nw = 0;

	for (int k = 0; k < t->f.n_own; k++) {
		int u = t->f.own[k].i, type = TU(t, u)->type, idle = !tma_busy(t, u);
		const ms_rts_unit_type *ut = TT(t, u);
		ms_rts_action a = tma_null();
		if (type == t->base && idle)
			a = base_behavior(t, u);
		if (type == t->barracks && idle)
			a = barracks_behavior(t, u);
		if (ut->can_harvest)
			workers[nw++] = u;
		if (ut->can_attack && !ut->can_harvest && idle)
			a = melee_behavior(t, u);
		try_add(t, u, a);
	}
	workers_behavior(t, workers, nw, fr, hv);
	for (int k = 0; k < t->n_wl; k++)
		try_add(t, t->wl[k], t->wa[k]);
	/* fillWithNones(gs, player, 10) */
	for (int k = 0; k < t->f.n_own; k++) {
		int u = t->f.own[k].i;
		if (!tma_busy(t, u) && !t->in_pa[u]) {
			t->pa[t->n_pa].unit = *TU(t, u);
			t->pa[t->n_pa++].action = bot_act(MS_RTS_NONE, 10, -1);
		}
	}
}

/* The decision's scratch, then the strategy's decision: one pair per own
 * unit at most (each is listed once), twice the units for the free
 * workers (harvesters that find nothing to do go back to that list), 12
 * candidate cells. */
static int scratch(tma *t)
{
	const ms_rts_state *s = t->f.s;
	size_t n = (size_t)s->n_units + 1, len[6] = { n, n, n, 12, 2 * n, n };
	int *workers, *fr, *hv;
	int **parts[6] = { &t->ru, &t->wl, &workers, &t->pos, &fr, &hv };

	t->taken = bot_scratch(&t->f, (size_t)s->cells, 1, 1);
	t->in_pa = bot_scratch(&t->f, n, 1, 1);
	t->pa = bot_scratch(&t->f, n, sizeof(ms_rts_pair), 0);
	t->wa = bot_scratch(&t->f, n, sizeof(ms_rts_action), 0);
	if (!t->taken || !t->in_pa || !t->pa || !t->wa || bot_scratch_ints(&t->f, parts, len, 6))
		return ms_ctx_error(t->bot->ctx, MS_ENOMEM, "TMA: out of memory for a %dx%d map with %d units",
				    s->width, s->height, s->n_units);
	t->n_ru = t->n_pa = t->n_wl = 0;
	t->acc_cost[0] = t->acc_cost[1] = 0;
	strategy_action(t, workers, fr, hv);
	return MS_OK;
}

static int tma_decide(ms_bot *bot, int player, const ms_rts_state *s, ms_rts_pair *out, int max, int *n)
{
	tma *t = bot->impl;
	const rts_unit *us = rts_cunits(s);
	int rc, any = 0;

	*n = 0;
	bot->random_moves = 0;
	bot->clock_bound = 0;
	if (player < 0 || player > 1)
		return ms_ctx_error(bot->ctx, MS_EINVAL, "%s: player %d", bot->ops->name, player);
	if (s->utt != bot->utt)
		return ms_ctx_error(bot->ctx, MS_EINVAL, "%s: the state uses another unit type table", bot->ops->name);
	if ((rc = bot_frame_begin(bot->ctx, &t->f, s, player)))
		return rc;
	if (bot_astar_grow(bot->ctx, &t->astar, s->cells) || tma_path_grow(bot->ctx, &t->path, s->cells))
		return ms_ctx_error(bot->ctx, MS_ENOMEM, "%s: out of memory for a %dx%d map", bot->ops->name, s->width,
				    s->height);
	t->astar.memo = bot->memo;
	t->player = player;
	t->res = s->resources[player];
	if (t->has_closest) { /* the jar's object follows its unit while it lives */
		int i = bot_frame_find(&t->f, t->closest_id, t->closest_hint);
		if (i >= 0) {
			t->closest_x = us[i].u.x;
			t->closest_y = us[i].u.y;
			t->closest_hint = i;
		}
	}
	if (!t->initialized) {
		t->map_max = s->width > s->height ? s->width : s->height;
		count_units(t);
		calibrate_weights(t);
		t->initialized = 1;
	}
	for (int k = 0; k < t->f.n_own && !any; k++)
		any = !tma_busy(t, t->f.own[k].i);
	if (!any)
		return MS_OK;
	macro(t);
	if ((rc = scratch(t)))
		return rc;
	if (t->n_pa > max)
		return ms_ctx_error(bot->ctx, MS_ERANGE, "%s: %d pairs do not fit in %d", bot->ops->name, t->n_pa, max);
	memcpy(out, t->pa, sizeof(ms_rts_pair) * (size_t)t->n_pa);
	*n = t->n_pa;
	return MS_OK;
}

/* A fresh instance's fields (TMA's constructor). */
static void forget(tma *t)
{
	t->initialized = 0;
	t->map_max = 0;
	t->has_main = t->has_enemy_base = t->has_closest = 0;
	t->closest_hint = -1;
	t->base_to_enemy_base = 9999;
	t->real_base_to_enemy = 0;
	t->weight_ad[0] = t->weight_ad[1] = 1;
	t->weight_wm[0] = t->weight_wm[2] = 1;
	t->weight_wm[1] = 10;
}

static int tma_reset(ms_bot *b)
{
	forget(b->impl);
	return MS_OK;
}

static void tma_free(ms_bot *b)
{
	tma *t = b->impl;
	if (!t)
		return;
	tma_path_dispose(b->ctx, &t->path);
	bot_astar_dispose(b->ctx, &t->astar);
	bot_frame_dispose(b->ctx, &t->f);
	ms_ctx_mfree(b->ctx, t);
	b->impl = NULL;
}

static const ms_bot_ops tma_ops = { "TMA", "ai.tma.TMA", tma_reset, tma_decide, tma_free };

int bot_tma_new(ms_bot *b, const char *arg)
{
	tma *t = ms_ctx_calloc(b->ctx, 1, sizeof(tma));
	const char *need[] = { "Worker", "Light", "Heavy", "Ranged", "Base", "Barracks" };
	int *ids[6];

	(void)arg;
	if (!t)
		return ms_ctx_error(b->ctx, MS_ENOMEM, "bot: out of memory");
	t->bot = b;
	b->impl = t;
	b->ops = &tma_ops;
	forget(t);
	ids[0] = &t->worker, ids[1] = &t->light, ids[2] = &t->heavy, ids[3] = &t->ranged, ids[4] = &t->base;
	ids[5] = &t->barracks;
	for (int i = 0; i < 6; i++)
		if ((*ids[i] = ms_rts_utt_find(b->utt, need[i])) < 0)
			return ms_ctx_error(b->ctx, MS_EINVAL, "%s: the unit type table has no type \"%s\"", b->ops->name,
					    need[i]);
	return MS_OK;
}
