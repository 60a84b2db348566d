/*
 * CoacAI (ai.coac.CoacAI, the 2020 competition winner) deciding as the
 * 2022 jar (lib/bots/Coac.jar of the harness) does, written from a reading
 * of its public source and the jar's bytecode.
 *
 * Layer: AbstractionLayerAIWait1, which is AbstractionLayerAI with its
 * actions map created as a LinkedHashMap (bytecode: the field is typed
 * HashMap but `new LinkedHashMap`), so translation runs in first-insertion
 * order, as bot_al; units are keys by identity (Unit overrides hashCode
 * only) and the harness hands the bots its own state, so entries live
 * across decisions until completed or dead. Its fill is NONE for 1 cycle
 * (bot_al's fill_wait). Actions (abstraction.c): TrueIdle (NONE 1, never
 * completed), HarvestReturn (Harvest that ends only when its resource is
 * gone and nothing is carried), BuildModified (Build that waits NONE 1
 * when blocked), TrainDirection (the side CoacAI chose; NONE 1 when the
 * engine refuses), CoacAttack (attack in range; wait when the target's
 * pending move ends in range; A* into range; else a move at random), and
 * the layer's Move and Harvest.
 *
 * Decision (getAction): classify the units in unit-list order; damages of
 * our pending attacks; forget harvesters that died or lost their base;
 * bases with a barracks under construction; the flood fill that marks a
 * base "separated" (maps narrower than 10); then workers, barracks, bases,
 * combat units, each as the Java methods, ties to the first in list order
 * (Stream.min/max keep the first of equals).
 *
 * Sources of the jar's run-to-run variation and what the native bot does:
 *  - CoacAttack without a path draws a side from a fresh, unseeded
 *    java.util.Random and tries the four moves clockwise from it. With two
 *    or more allowed moves the jar's pick (and everything the layer
 *    decides after it in that translation) is not reproducible; the native
 *    bot starts up and counts such moves in ms_bot.random_moves, so
 *    `botdiff` can count those decisions apart. Stochastic
 *    (ms_bot_set_stochastic), it draws the starting side uniformly from its
 *    own generator, seeded with the bot's seed, and goes clockwise as the
 *    jar does.
 *  - state kept by one instance across games: reset() clears neither
 *    harvesting, attackAll, wasSeparated nor myWorkersCombat (whose null
 *    test is how it spots its first decision, so the map check below runs
 *    in the first game only). The native bot forgets everything on reset.
 *  - the map check hashes the state's text, unit ids included: ids come
 *    from the engine's static counter, so only a fresh JVM's first load of
 *    basesWorkers16x16A is recognised. The native bot compares the same
 *    fields (is_bases_workers_16a).
 *  - getAction reads the clock only to print: no budget cut.
 *  - harvesting and damages are keyed by Long: their iteration order
 *    decides nothing.
 * A Java crash the native bot does not copy: scoreTrainDirection with no
 * enemy left dereferences null; the native bot scores every side 0.
 *
 * Measured (Nov 2026, `microsynth botdiff` on fresh recordings of the 2022
 * harness, one JVM per match): CoacAI against each rush in both seats on
 * 8x8/basesWorkers8x8A, NoWhereToRun9x8, 16x16/basesWorkers16x16A,
 * 16x16/TwoBasesBarracks16x16, 24x24/basesWorkers24x24 and 24x24A (tables 1-3, conflict
 * policies 1-3; 76 recordings, 68,174 CoacAI decisions, 794 of them random
 * moves; 320 more recordings through the outcome runs): 0 mismatched
 * decisions outside the random-move ones (the simplified draft before
 * this: 5,717). On 29 recordings of the current official repository (its
 * rebuilt Coac.jar; ../shared recordings-master, `--edition 2023`; 21,144
 * decisions): 0 as well (draft: 1,382). Recording a match twice, the first
 * cycle where the jar's two decisions differ was a flagged random move in
 * all 7 pairs (of 8) that diverged. Whole native matches
 * whose jar recording has no random move drawn differently end with the
 * same winner, cycle count and byte-identical trace (108 of 108 on the 8
 * maps of the play tests, tables 1-2, conflict policies 1 and 3).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "bots_internal.h"
#include "core/vec.h"

typedef struct coac_harv {
	int64_t worker, base;
} coac_harv;

typedef struct coac {
	bot_al al;
	int worker, base, barracks, ranged, heavy, light;
	MS_VEC(coac_harv) harv; /* harvesting: worker id -> base id */
	int attack_all, was_separated;
	int map_a; /* -1: not looked at yet; 1: the first decision saw basesWorkers16x16A */
	ms_jrandom rng; /* CoacAttack's side when the bot is stochastic */
	/* per decision, one entry per unit, from the frame's scratch arena */
	int *mw, *mwb, *mc, *mcb, *mb, *mbar, *en, *alive, *res, *close_res, *bases, *combat_w, *dmg, *tmp, *sep,
		*building, *ecomb, *att, *ob;
	int n_mw, n_mwb, n_mc, n_mcb, n_mb, n_mbar, n_en, n_alive, n_res, n_close_res, n_bases, n_combat_w, n_ecomb;
	int *stack; /* flood fill, one per cell (scratch) */
	uint8_t *seen;
	int used; /* resourceUsed */
	int attack_combat, max_cycles;
	int player;
} coac;

static const ms_rts_unit *U(const coac *c, int i)
{
	return &rts_cunits(c->al.f.s)[i].u;
}

static const ms_rts_unit_type *T(const coac *c, int i)
{
	return &c->al.f.s->utt->types[U(c, i)->type];
}

static int dist(const coac *c, int a, int b)
{
	return abs(U(c, a)->x - U(c, b)->x) + abs(U(c, a)->y - U(c, b)->y);
}

static int dist_xy(const coac *c, int a, int x, int y)
{
	return abs(U(c, a)->x - x) + abs(U(c, a)->y - y);
}

/* closestUnit: the first of the list at the least Manhattan distance. */
static int closest(const coac *c, int from, const int *list, int n)
{
	int best = -1, bd = INT_MAX;
	for (int k = 0; k < n; k++) {
		int d = dist(c, from, list[k]);
		if (d < bd)
			bd = d, best = list[k];
	}
	return best;
}

/* closestUnitAfterMoveAction: distances to where the units' moves end. */
static int closest_after_move(const coac *c, int from, const int *list, int n)
{
	int best = -1, bd = INT_MAX;
	for (int k = 0; k < n; k++) {
		int x, y, d;
		bot_next_pos(c->al.f.s, list[k], &x, &y);
		d = dist_xy(c, from, x, y);
		if (d < bd)
			bd = d, best = list[k];
	}
	return best;
}

static int list_has(const int *list, int n, int v)
{
	for (int k = 0; k < n; k++)
		if (list[k] == v)
			return 1;
	return 0;
}

static void list_drop(int *list, int *n, int v)
{
	for (int k = 0; k < *n; k++)
		if (list[k] == v) {
			memmove(&list[k], &list[k + 1], sizeof(int) * (size_t)(*n - k - 1));
			(*n)--;
			return;
		}
}

/* ---- CoacAI's own abstract actions (ai.coac.*), on the shared layer ---- */

/* TrueIdle: NONE for one cycle, never completed. */
static int true_idle_completed(bot_al *al, al_entry *a, const ms_rts_unit *u)
{
	(void)al, (void)a, (void)u;
	return 0;
}

static int true_idle_execute(bot_al *al, al_entry *a, const ms_rts_unit *u, ms_rts_action *out)
{
	(void)al, (void)a, (void)u;
	*out = bot_act(MS_RTS_NONE, 1, -1);
	return 1;
}

/* HarvestReturn: Harvest, completed when its resource is gone and nothing is carried. */
static int harvest_return_completed(bot_al *al, al_entry *a, const ms_rts_unit *u)
{
	return u->resources == 0 && !bot_al_unit_by_id(&al->f, a->target, &a->ti);
}

/* BuildModified: Build, but a blocked step or site waits 1 cycle. */
static int build_mod_completed(bot_al *al, al_entry *a, const ms_rts_unit *u)
{
	(void)u;
	return rts_unit_at(al->f.s, a->x, a->y) >= 0;
}

static int build_mod_execute(bot_al *al, al_entry *a, const ms_rts_unit *u, ms_rts_action *out)
{
	int dir = bot_al_path(al, u, a->x, a->y, 1);
	if (dir >= 0)
		*out = bot_act(MS_RTS_MOVE, dir, -1);
	else if ((dir = bot_al_adjacent_dir(u, a->x, a->y)) >= 0)
		*out = bot_act(MS_RTS_PRODUCE, dir, a->type);
	if (dir < 0 || !bot_al_allowed(&al->f, u, out))
		*out = bot_act(MS_RTS_NONE, 1, -1);
	return 1;
}

/* TrainDirection: the side CoacAI chose; NONE 1 when the engine refuses it. */
static int train_dir_completed(bot_al *al, al_entry *a, const ms_rts_unit *u)
{
	(void)al, (void)u;
	return a->done;
}

static int train_dir_execute(bot_al *al, al_entry *a, const ms_rts_unit *u, ms_rts_action *out)
{
	a->done = 1;
	*out = bot_act(MS_RTS_PRODUCE, a->dir, a->type);
	if (!bot_al_allowed(&al->f, u, out))
		*out = bot_act(MS_RTS_NONE, 1, -1);
	return 1;
}

/* CoacAttack: Attack, completed when the target is gone. */
static int coac_attack_completed(bot_al *al, al_entry *a, const ms_rts_unit *u)
{
	(void)u;
	return !bot_al_unit_by_id(&al->f, a->target, &a->ti);
}

static int coac_attack_execute(bot_al *al, al_entry *a, const ms_rts_unit *u, ms_rts_action *out)
{
	const bot_frame *f = &al->f;
	const ms_rts_state *s = f->s;
	const ms_rts_unit_type *ut = &s->utt->types[u->type];
	const ms_rts_unit *t = bot_al_unit_by_id(f, a->target, &a->ti);
	int r2 = ut->attack_range * ut->attack_range, dx, dy, nx, ny, n_ok = 0, first = -1, dir;
	if (!t)
		return 0;
	dx = t->x - u->x;
	dy = t->y - u->y;
	if (dx * dx + dy * dy <= r2) {
		*out = bot_act(MS_RTS_ATTACK, -1, -1);
		out->x = t->x;
		out->y = t->y;
		return 1;
	}
	/* wait when the target's pending move brings it in range */
	bot_next_pos(s, a->ti, &nx, &ny);
	if ((nx - u->x) * (nx - u->x) + (ny - u->y) * (ny - u->y) <= r2) {
		*out = bot_act(MS_RTS_NONE, 1, -1);
		return 1;
	}
	dir = bot_al_path(al, u, t->x, t->y, ut->attack_range);
	if (dir >= 0) {
		*out = bot_act(MS_RTS_MOVE, dir, -1);
		if (bot_al_allowed(f, u, out))
			return 1;
	}
	/* No path: the jar tries the four moves clockwise from a side
	 * drawn by an unseeded java.util.Random. The native bot starts
	 * up; with two or more allowed moves the jar's pick is not
	 * reproducible, and the decision is counted as such. */
	int32_t start = 0;
	if (al->rng)
		ms_jrandom_next_int_bounded(al->rng, 4, &start);
	for (int k = 0; k < 4; k++) {
		int d = (int)(start + k) % 4; /* up, right, down, left: clockwise */
		ms_rts_action m = bot_act(MS_RTS_MOVE, d, -1);
		if (bot_al_allowed(f, u, &m) && n_ok++ == 0)
			first = d;
	}
	if (n_ok > 1)
		al->random_moves++;
	*out = first >= 0 ? bot_act(MS_RTS_MOVE, first, -1) : bot_act(MS_RTS_NONE, 1, -1);
	return 1;
}

static const al_action_ops true_idle_ops = { true_idle_completed, true_idle_execute };
static const al_action_ops harvest_return_ops = { harvest_return_completed, bot_al_execute_harvest };
static const al_action_ops build_mod_ops = { build_mod_completed, build_mod_execute };
static const al_action_ops train_dir_ops = { train_dir_completed, train_dir_execute };
static const al_action_ops coac_attack_ops = { coac_attack_completed, coac_attack_execute };

/* Makes the unit's entry (just set by the layer) one of CoacAI's actions. */
static int own(bot_al *al, int ui, int rc, const al_action_ops *ops)
{
	if (!rc) {
		al_entry *e = bot_al_get(al, ui);
		e->kind = AL_OWN;
		e->own = ops;
	}
	return rc;
}

static int true_idle(bot_al *al, int ui)
{
	al_entry a = bot_al_fresh(al, ui, AL_OWN);
	a.own = &true_idle_ops;
	return bot_al_set(al, &a);
}

/* `target` may be -1 (no resource left). */
static int harvest_return(bot_al *al, int ui, int target, int base)
{
	return own(al, ui, bot_al_harvest(al, ui, target, base), &harvest_return_ops);
}

static int build_mod(bot_al *al, int ui, int type, int x, int y)
{
	return own(al, ui, bot_al_build(al, ui, type, x, y), &build_mod_ops);
}

static int train_dir(bot_al *al, int ui, int type, int dir)
{
	al_entry a = bot_al_fresh(al, ui, AL_OWN);
	a.own = &train_dir_ops;
	a.type = type;
	a.dir = dir;
	return bot_al_set(al, &a);
}

static int coac_attack(bot_al *al, int ui, int target)
{
	return own(al, ui, bot_al_attack(al, ui, target), &coac_attack_ops);
}

static int harv_find(const coac *c, int64_t worker)
{
	for (int k = 0; k < c->harv.n; k++)
		if (c->harv.v[k].worker == worker)
			return k;
	return -1;
}

static void harv_remove(coac *c, int k)
{
	memmove(&c->harv.v[k], &c->harv.v[k + 1], sizeof(*c->harv.v) * (size_t)(c->harv.n - k - 1));
	c->harv.n--;
}

static int harv_put(coac *c, int64_t worker, int64_t base)
{
	int k = harv_find(c, worker);
	if (k >= 0) {
		c->harv.v[k].base = base;
		return MS_OK;
	}
	coac_harv *h = ms_vec_push(c->al.ctx, &c->harv);
	if (!h)
		return MS_ENOMEM;
	*h = (coac_harv){ worker, base };
	return MS_OK;
}

static int base_full(const coac *c, int b)
{
	int n = 0;
	for (int k = 0; k < c->harv.n; k++)
		n += c->harv.v[k].base == U(c, b)->id;
	return n >= 2;
}

/* enemyIsInRangeAttack: Euclidean distance within the attacker's range. */
static int in_range(const coac *c, int a, int e)
{
	int dx = U(c, a)->x - U(c, e)->x, dy = U(c, a)->y - U(c, e)->y, r = T(c, a)->attack_range;
	return dx * dx + dy * dy <= r * r;
}

static void register_damage(coac *c, int a, int e)
{
	const ms_rts_unit_type *t = T(c, a);
	c->dmg[e] += (t->min_damage + t->max_damage) / 2;
	if (c->dmg[e] >= U(c, e)->hitpoints)
		list_drop(c->alive, &c->n_alive, e);
}

/* attackAndRegisterDamage (chaseToAttack too). */
static int attack(coac *c, int a, int e)
{
	if (in_range(c, a, e))
		register_damage(c, a, e);
	return coac_attack(&c->al, a, e);
}

/* bestToAttack: Stream.max of a comparator preferring enemies this attack
 * kills, then the closest; max keeps the earlier of equals. */
static int best_to_attack(const coac *c, int a, const int *list, int n)
{
	int mind = T(c, a)->min_damage, best = -1;
	for (int k = 0; k < n; k++) {
		int e = list[k];
		if (best < 0) {
			best = e;
			continue;
		}
		int ra = U(c, best)->hitpoints - c->dmg[best] - mind, rb = U(c, e)->hitpoints - c->dmg[e] - mind;
		int cmp = ra <= 0 && rb <= 0 ? ra - rb : ra <= 0 ? 1 : rb <= 0 ? -1 : -dist(c, a, best) + dist(c, a, e);
		if (cmp < 0)
			best = e;
	}
	return best;
}

/* willBeMoveBeforeAttack: the enemy's pending move ends before our attack would land. */
static int moves_first(const coac *c, int a, int e)
{
	const ms_rts_state *s = c->al.f.s;
	const rts_unit *ru = &rts_cunits(s)[e];
	if (ru->slot < 0)
		return 0;
	const rts_assign *as = &rts_cassigns(s)[ru->slot];
	if (as->action.type != MS_RTS_MOVE)
		return 0;
	return T(c, e)->move_time - (s->time - as->time) <= T(c, a)->attack_time;
}

static int free_pos(const coac *c, int x, int y)
{
	const ms_rts_state *s = c->al.f.s;
	return rts_inside(s, x, y) && rts_cterrain(s)[x + y * s->width] != 1 && rts_unit_at(s, x, y) < 0;
}

/* moveAwayFrom: a step that increases the distance to where the enemy's
 * move ends: up, down, right, left; along the enemy's axis when it shares
 * one. */
static int move_away(coac *c, int a, int e)
{
	static const int px[4] = { 0, 0, 1, -1 }, py[4] = { -1, 1, 0, 0 }; /* up, down, right, left */
	int ex, ey, x = U(c, a)->x, y = U(c, a)->y, cur, pick = -1, ok[4];
	bot_next_pos(c->al.f.s, e, &ex, &ey);
	cur = dist_xy(c, a, ex, ey);
	for (int k = 0; k < 4; k++) {
		int nx = x + px[k], ny = y + py[k];
		ok[k] = free_pos(c, nx, ny) && abs(ex - nx) + abs(ey - ny) > cur;
		if (ok[k] && pick < 0)
			pick = k;
	}
	if (pick < 0)
		return true_idle(&c->al, a);
	if (ex == x) {
		if (ok[0])
			pick = 0;
		else if (ok[1])
			pick = 1;
	} else if (ey == y) {
		if (ok[2])
			pick = 2;
		else if (ok[3])
			pick = 3;
	}
	return bot_al_move(&c->al, a, x + px[pick], y + py[pick]);
}

/* computeCombatAction: attack only sure hits, else chase or gather. */
static int combat(coac *c, int a)
{
	const ms_rts_state *s = c->al.f.s;
	int n_in = 0, n_ok = 0, e;

	if (!c->n_alive)
		return true_idle(&c->al, a);
	for (int k = 0; k < c->n_alive; k++)
		if (in_range(c, a, c->alive[k]))
			c->tmp[n_in++] = c->alive[k];
	for (int k = 0; k < n_in; k++)
		if (!moves_first(c, a, c->tmp[k]))
			c->att[n_ok++] = c->tmp[k];
	if (n_ok)
		return attack(c, a, best_to_attack(c, a, c->att, n_ok));
	if (n_in) {
		if (T(c, a)->attack_range > 1) {
			int m = closest_after_move(c, a, c->tmp, n_in), nx, ny;
			int r = T(c, m)->attack_range;
			bot_next_pos(s, m, &nx, &ny);
			int dx = nx - U(c, a)->x, dy = ny - U(c, a)->y;
			if (dx * dx + dy * dy > r * r)
				return move_away(c, a, m);
			/* else the jar may flee but then overwrites it with TrueIdle */
		}
		return true_idle(&c->al, a);
	}
	e = closest_after_move(c, a, c->alive, c->n_alive);
	if (c->attack_combat || dist(c, a, e) <= 5)
		return attack(c, a, e);
	int n = c->n_mc + c->n_mcb + c->n_combat_w;
	if (!n) {
		if (s->time > c->max_cycles / 2)
			return attack(c, a, e);
		return true_idle(&c->al, a);
	}
	long sx = 0, sy = 0;
	const int *lists[3] = { c->mc, c->mcb, c->combat_w };
	int ns[3] = { c->n_mc, c->n_mcb, c->n_combat_w };
	for (int l = 0; l < 3; l++)
		for (int k = 0; k < ns[l]; k++)
			sx += U(c, lists[l][k])->x, sy += U(c, lists[l][k])->y;
	int cx = (int)(sx / n), cy = (int)(sy / n);
	if (s->time > c->max_cycles / 2 || dist_xy(c, a, cx, cy) <= 3)
		return attack(c, a, e);
	return bot_al_move(&c->al, a, cx, cy);
}

/* CoacAI.train: the free side nearest the nearest enemy (up, down, left,
 * right; the first on ties); the stock is counted as used even when no
 * side is free. */
static int train(coac *c, int u, int type)
{
	const ms_rts_state *s = c->al.f.s;
	static const int order[4] = { 0, 2, 3, 1 }; /* UP, DOWN, LEFT, RIGHT */
	int best = -1, bs = INT_MIN;

	if (rts_cunits(s)[u].slot >= 0 || s->resources[c->player] - c->used < s->utt->types[type].cost)
		return MS_OK;
	c->used += s->utt->types[type].cost;
	int en = closest(c, u, c->en, c->n_en);
	for (int k = 0; k < 4; k++) {
		int d = order[k], x = U(c, u)->x + rts_dx[d], y = U(c, u)->y + rts_dy[d];
		int sc = INT_MIN;
		if (rts_inside(s, x, y) && bot_frame_free(&c->al.f, x, y))
			sc = en < 0 ? 0 : -(abs(U(c, en)->x - x) + abs(U(c, en)->y - y));
		if (best < 0 || sc > bs)
			best = d, bs = sc;
	}
	if (bs == INT_MIN)
		return MS_OK;
	return train_dir(&c->al, u, type, best);
}

static int resource_adjacent(const coac *c, int x, int y)
{
	for (int k = 0; k < c->n_res; k++)
		if (abs(U(c, c->res[k])->x - x) <= 1 && abs(U(c, c->res[k])->y - y) <= 1)
			return 1;
	return 0;
}

static int build_barracks(coac *c)
{
	const ms_rts_state *s = c->al.f.s;
	const ms_rts_unit_type *bt = &s->utt->types[c->barracks], *wt = &s->utt->types[c->worker];
	int P = s->resources[c->player], E = s->resources[1 - c->player];
	static const int adj[4][2] = { { 0, 1 }, { 0, -1 }, { 1, 0 }, { -1, 0 } };

	if (c->n_mbar || P - c->used < bt->cost + 1)
		return MS_OK;
	for (int k = 0; k < c->n_mb; k++) {
		int b = c->mb[k], safe = 1, en, w, best = -1, bd = c->was_separated ? 9999999 : 0;
		if (c->building[k])
			continue;
		if (!c->sep[k]) {
			if ((en = closest(c, b, c->alive, c->n_alive)) >= 0)
				safe = dist(c, en, b) * wt->move_time > bt->produce_time;
			if (P > 10 && P >= E)
				safe = 1;
		}
		if (!safe)
			continue;
		if ((w = closest(c, b, c->mw, c->n_mw)) < 0)
			break;
		en = closest(c, w, c->alive, c->n_alive);
		if ((en >= 0 && dist(c, w, en) <= 2) || dist(c, w, b) > 2)
			continue;
		for (int d = 0; d < 4; d++) {
			int x = U(c, w)->x + adj[d][0], y = U(c, w)->y + adj[d][1];
			if (x < 0 || y < 0 || x >= s->width || y >= s->height || resource_adjacent(c, x, y) ||
			    rts_unit_at(s, x, y) >= 0)
				continue;
			if (en < 0)
				break;
			int dd = abs(U(c, en)->x - x) + abs(U(c, en)->y - y);
			if (c->was_separated ? dd < bd : dd > bd)
				best = x + y * s->width, bd = dd;
		}
		if (best < 0)
			continue;
		int rc = build_mod(&c->al, w, c->barracks, best % s->width, best / s->width);
		if (rc)
			return rc;
		list_drop(c->mw, &c->n_mw, w);
		c->mwb[c->n_mwb++] = w;
		c->used += bt->cost;
	}
	return MS_OK;
}

/* harvestScore's and harvestClosest's base: the closest of ours with fewer
 * than 2 harvesters. */
static int open_base(coac *c, int w)
{
	int n = 0, *l = c->ob;
	for (int k = 0; k < c->n_mb; k++)
		if (!base_full(c, c->mb[k]))
			l[n++] = c->mb[k];
	return closest(c, w, l, n);
}

static int harvest_score(coac *c, int w)
{
	int r = closest(c, w, c->close_res, c->n_close_res), b = open_base(c, w);
	return r < 0 || b < 0 ? INT_MAX : dist(c, w, b) + dist(c, w, r);
}

static int workers(coac *c)
{
	int rc;
	if (c->attack_all) {
		for (int k = 0; k < c->n_mw; k++)
			if ((rc = combat(c, c->mw[k])))
				return rc;
		return MS_OK;
	}
	if ((rc = build_barracks(c)))
		return rc;
	if (c->n_mw && c->n_mb && c->n_res) {
		for (int i = 0; i < c->n_mb; i++) {
			int best = -1, bs = INT_MAX;
			for (int k = 0; k < c->n_mw; k++) {
				int w = c->mw[k], sc;
				if (harv_find(c, U(c, w)->id) >= 0)
					continue;
				sc = harvest_score(c, w);
				if (best < 0 || sc < bs)
					best = w, bs = sc;
			}
			if (best < 0 || bs == INT_MAX)
				break;
			int r = closest(c, best, c->close_res, c->n_close_res), b = open_base(c, best);
			if ((rc = harv_put(c, U(c, best)->id, U(c, b)->id)) || (rc = bot_al_harvest(&c->al, best, r, b)))
				return rc;
		}
	}
	for (int k = 0; k < c->n_mw; k++) {
		int w = c->mw[k], h = harv_find(c, U(c, w)->id), en = closest(c, w, c->alive, c->n_alive);
		if (h >= 0) {
			if (en >= 0 && dist(c, en, w) <= 2) {
				harv_remove(c, h);
				c->combat_w[c->n_combat_w++] = w;
				if ((rc = combat(c, w)))
					return rc;
				continue;
			}
			int b = bot_frame_find(&c->al.f, c->harv.v[h].base, -1), r = closest(c, w, c->res, c->n_res);
			if (b >= 0 && (rc = harvest_return(&c->al, w, r, b)))
				return rc;
			continue;
		}
		c->combat_w[c->n_combat_w++] = w;
		if ((rc = combat(c, w)))
			return rc;
	}
	return MS_OK;
}

/*
 * isBaseSeparated (maps narrower than 10): no enemy unit reachable from the
 * base, where the fill enters every in-map cell next to a cell it expands
 * and expands every cell that is neither a wall nor a resource's (the jar
 * tests the cell being expanded, not the one entered).
 */
static int separated(coac *c, int b)
{
	const ms_rts_state *s = c->al.f.s;
	int w = s->width, h = s->height, n = 0, top = 0;

	if (w >= 10)
		return 0;
	/* in locals: stores to seen (uint8_t) may alias anything, and this runs every decision */
	const uint16_t *grid = rts_cgrid(s);
	const uint8_t *terrain = rts_cterrain(s);
	const rts_unit *us = rts_cunits(s);
	const ms_rts_unit_type *types = s->utt->types;
	uint8_t *seen = c->seen;
	int *stack = c->stack, player = c->player;
	memset(seen, 0, (size_t)s->cells);
	stack[n++] = U(c, b)->x + U(c, b)->y * w;
	seen[stack[0]] = 1;
	while (top < n) {
		int cell = stack[top++], x = cell % w, y = cell / w, ui = (int)grid[cell] - 1;
		const ms_rts_unit *u = ui >= 0 ? &us[ui].u : NULL;
		if (u && u->player >= 0 && u->player != player)
			return 0;
		if (terrain[cell] == 1 || (u && types[u->type].is_resource))
			continue;
		for (int d = 0; d < 4; d++) {
			int nx = x + rts_dx[d], ny = y + rts_dy[d];
			if (nx >= 0 && ny >= 0 && nx < w && ny < h && !seen[nx + ny * w]) {
				seen[nx + ny * w] = 1;
				stack[n++] = nx + ny * w;
			}
		}
	}
	c->was_separated = 1;
	return 1;
}

/*
 * CoacAI tells basesWorkers16x16A by the String hash of the state's text on
 * its first decision (1835166811); the text lists the terrain, the players'
 * stocks and every unit's type, id, owner, cell, hit points and load, so
 * the native bot compares those with the map's start instead.
 */
static int is_bases_workers_16a(const ms_rts_state *s)
{
	static const int want[8][7] = { /* type, id, player, x, y, resources, hp */
		{ 0, 16, -1, 0, 0, 25, 1 },   { 0, 17, -1, 0, 1, 25, 1 },  { 0, 18, -1, 15, 14, 25, 1 },
		{ 0, 19, -1, 15, 15, 25, 1 }, { 1, 20, 0, 2, 2, 0, 10 },   { 1, 21, 1, 13, 13, 0, 10 },
		{ 3, 22, 0, 1, 1, 0, 1 },     { 3, 23, 1, 14, 14, 0, 1 },
	};
	static const char *const names[] = { "Resource", "Base", "Barracks", "Worker" };
	const rts_unit *us = rts_cunits(s);

	if (s->width != 16 || s->height != 16 || s->n_units != 8 || s->resources[0] != 5 || s->resources[1] != 5)
		return 0;
	for (int c = 0; c < 256; c++)
		if (rts_cterrain(s)[c])
			return 0;
	for (int k = 0; k < 8; k++) {
		const ms_rts_unit *u = &us[k].u;
		if (u->type != ms_rts_utt_find(s->utt, names[want[k][0]]) || u->id != want[k][1] ||
		    u->player != want[k][2] || u->x != want[k][3] || u->y != want[k][4] || u->resources != want[k][5] ||
		    u->hitpoints != want[k][6])
			return 0;
	}
	return 1;
}

/* The decision's buffers, from the frame's arena: one int per unit each, the flood fill's per cell. */
static int scratch(coac *c, const ms_rts_state *s)
{
	int **arrs[] = { &c->mw,  &c->mwb,       &c->mc,    &c->mcb,      &c->mb,  &c->mbar, &c->en,
			 &c->alive, &c->res,   &c->close_res, &c->bases, &c->combat_w, &c->dmg, &c->tmp, &c->sep,
			 &c->building, &c->ecomb, &c->att, &c->ob, &c->stack };
	enum { N = sizeof(arrs) / sizeof(arrs[0]) };
	size_t len[N];

	for (int k = 0; k < N; k++)
		len[k] = (size_t)(s->n_units < 1 ? 1 : s->n_units);
	len[N - 1] = (size_t)s->cells;
	if (bot_scratch_ints(&c->al.f, arrs, len, N) < 0 || !(c->seen = bot_scratch(&c->al.f, (size_t)s->cells, 1, 0)))
		return MS_ENOMEM;
	return MS_OK;
}

/* CoacAI.init: the unit lists, in unit-list order, and what follows from them. */
static void classify(coac *c)
{
	const ms_rts_state *s = c->al.f.s;
	const rts_unit *us = rts_cunits(s);
	int player = c->player;

	c->n_mw = c->n_mwb = c->n_mc = c->n_mcb = c->n_mb = c->n_mbar = c->n_en = c->n_alive = c->n_res = 0;
	c->n_close_res = c->n_bases = c->n_combat_w = c->n_ecomb = 0;
	c->used = 0;
	for (int i = 0; i < s->n_units; i++) {
		const ms_rts_unit *u = &us[i].u;
		const ms_rts_unit_type *t = &s->utt->types[u->type];
		int mine = u->player == player, enemy = u->player >= 0 && !mine;
		c->dmg[i] = 0;
		if (t->is_resource)
			c->res[c->n_res++] = i;
		else if (t->is_stockpile) {
			if (!enemy)
				c->mb[c->n_mb++] = i;
			c->bases[c->n_bases++] = i;
		} else if (t->can_harvest && mine) {
			if (us[i].slot < 0)
				c->mw[c->n_mw++] = i;
			else
				c->mwb[c->n_mwb++] = i;
		} else if (!t->can_harvest && t->can_attack) {
			if (!mine)
				c->ecomb[c->n_ecomb++] = i;
			else if (us[i].slot < 0)
				c->mc[c->n_mc++] = i;
			else
				c->mcb[c->n_mcb++] = i;
		} else if (u->type == c->barracks && mine)
			c->mbar[c->n_mbar++] = i;
		if (enemy)
			c->en[c->n_en++] = i, c->alive[c->n_alive++] = i;
	}
	for (int k = 0; k < c->n_res; k++) {
		int b = closest(c, c->res[k], c->bases, c->n_bases);
		if (b >= 0 && us[b].u.player == player)
			c->close_res[c->n_close_res++] = c->res[k];
	}
	/* damages of our pending attacks (busy combat units, then workers) */
	for (int k = 0; k < c->n_mcb + c->n_mwb; k++) {
		int a = k < c->n_mcb ? c->mcb[k] : c->mwb[k - c->n_mcb], e;
		const rts_assign *as = &rts_cassigns(s)[us[a].slot];
		if (as->action.type == MS_RTS_ATTACK && (e = rts_unit_at(s, as->action.x, as->action.y)) >= 0)
			register_damage(c, a, e);
	}
	/* forget harvesters that died or whose base is gone */
	for (int k = 0; k < c->harv.n;) {
		int w = bot_frame_find(&c->al.f, c->harv.v[k].worker, -1), b = bot_frame_find(&c->al.f, c->harv.v[k].base, -1);
		if (w < 0 || !(list_has(c->mw, c->n_mw, w) || list_has(c->mwb, c->n_mwb, w)) || b < 0 ||
		    !list_has(c->mb, c->n_mb, b))
			harv_remove(c, k);
		else
			k++;
	}
	/* bases with a barracks under construction by a busy worker */
	for (int k = 0; k < c->n_mb; k++)
		c->building[k] = 0;
	for (int j = 0; j < c->n_mwb; j++) {
		const rts_assign *as = &rts_cassigns(s)[us[c->mwb[j]].slot];
		int b;
		if (as->action.type == MS_RTS_PRODUCE && as->action.unit_type == c->barracks &&
		    (b = closest(c, c->mwb[j], c->mb, c->n_mb)) >= 0)
			for (int k = 0; k < c->n_mb; k++)
				if (c->mb[k] == b)
					c->building[k] = 1;
	}
	for (int k = 0; k < c->n_mb; k++)
		c->sep[k] = separated(c, c->mb[k]);
}

static int coac_decide(ms_bot *bot, int player, const ms_rts_state *s, ms_rts_pair *out, int max, int *n)
{
	coac *c = bot->impl;
	const ms_rts_unit_type *types = s->utt->types;
	const rts_unit *us = rts_cunits(s);
	int rc, w = s->width;

	*n = 0;
	bot->random_moves = 0;
	if (player < 0 || player > 1)
		return ms_ctx_error(bot->ctx, MS_EINVAL, "%s: player %d", bot->ops->name, player);
	if (s->utt != bot->utt)
		return ms_ctx_error(bot->ctx, MS_EINVAL, "%s: the state uses another unit type table", bot->ops->name);
	c->al.edition = bot->edition;
	c->al.astar.memo = bot->memo;
	c->al.rng = bot->stochastic ? &c->rng : NULL;
	c->al.fill_wait = 1;
	c->player = player;
	if ((rc = bot_al_begin(&c->al, s, player)) || (rc = scratch(c, s)))
		return rc;
	if (c->map_a < 0)
		c->map_a = is_bases_workers_16a(s);
	c->max_cycles = w <= 8 ? 3000 : w <= 16 ? 4000 : w <= 24 ? 5000 : w <= 32 ? 6000 : w <= 64 ? 8000 : 12000;
	classify(c);
	if (s->resources[player] == 0 && c->n_res == 0)
		c->attack_all = 1;
	{
		int ec = 0, mc = 0;
		for (int k = 0; k < c->n_ecomb; k++)
			ec += types[us[c->ecomb[k]].u.type].cost;
		for (int k = 0; k < c->n_mc; k++)
			mc += types[us[c->mc[k]].u.type].cost;
		for (int k = 0; k < c->n_mcb; k++)
			mc += types[us[c->mcb[k]].u.type].cost;
		c->attack_combat = mc - 4 > ec;
	}
	if ((rc = workers(c)))
		return rc;
	{
		/* computeBarracksAction; on basesWorkers16x16A ranged after the first heavy */
		int heavy = 0;
		for (int k = 0; k < c->n_mc; k++)
			heavy += us[c->mc[k]].u.type == c->heavy;
		for (int k = 0; k < c->n_mcb; k++)
			heavy += us[c->mcb[k]].u.type == c->heavy;
		for (int k = 0; k < c->n_mbar; k++)
			if ((rc = train(c, c->mbar[k],
					heavy > (c->map_a ? 0 : 3) || c->was_separated ? c->ranged : c->heavy)))
				return rc;
	}
	/* computeBasesAction */
	if (w <= 8)
		for (int k = 0; k < c->n_mb; k++)
			if (!c->sep[k] && (rc = train(c, c->mb[k], c->worker)))
				return rc;
	{
		int producing = 0, prod = 0;
		for (int k = 0; k < c->n_mb; k++)
			prod += us[c->mb[k]].slot >= 0;
		for (int k = 0; k < c->n_mb; k++) {
			if (c->n_mw + c->n_mwb + producing + prod >= 2 * c->n_mb && s->resources[player] - c->used < 15)
				break;
			if ((rc = train(c, c->mb[k], c->worker)))
				return rc;
			producing++;
		}
	}
	for (int k = 0; k < c->n_mc; k++)
		if ((rc = combat(c, c->mc[k])))
			return rc;
	rc = bot_al_translate(&c->al, out, max, n);
	bot->random_moves = c->al.random_moves;
	return rc;
}

static int coac_reset(ms_bot *b)
{
	coac *c = b->impl;
	bot_al_clear(&c->al);
	c->harv.n = 0;
	c->attack_all = 0;
	c->was_separated = 0;
	c->map_a = -1;
	ms_jrandom_init(&c->rng, b->seed);
	return MS_OK;
}

static void coac_free(ms_bot *b)
{
	coac *c = b->impl;
	if (!c)
		return;
	ms_vec_dispose(b->ctx, &c->harv);
	bot_al_dispose(&c->al);
	ms_ctx_mfree(b->ctx, c);
	b->impl = NULL;
}

static const ms_bot_ops coac_ops = { "CoacAI", "ai.coac.CoacAI", coac_reset, coac_decide, coac_free };

int bot_coac_new(ms_bot *b, const char *arg)
{
	coac *c = ms_ctx_calloc(b->ctx, 1, sizeof(coac));
	const char *need[] = { "Worker", "Base", "Barracks", "Ranged", "Heavy", "Light" };
	int *ids[6];

	if (!c)
		return ms_ctx_error(b->ctx, MS_ENOMEM, "bot: out of memory");
	bot_al_init(&c->al, b->ctx);
	c->map_a = -1;
	ms_jrandom_init(&c->rng, b->seed);
	b->impl = c;
	b->ops = &coac_ops;
	ids[0] = &c->worker, ids[1] = &c->base, ids[2] = &c->barracks, ids[3] = &c->ranged, ids[4] = &c->heavy;
	ids[5] = &c->light;
	for (int i = 0; i < 6; i++)
		if ((*ids[i] = ms_rts_utt_find(b->utt, need[i])) < 0)
			return ms_ctx_error(b->ctx, MS_EINVAL, "%s: the unit type table has no type \"%s\"", b->ops->name,
					    need[i]);
	return MS_OK;
}
