/*
 * CoacAIDraft: a first, simplified native take on CoacAI (ai.coac.CoacAI,
 * the 2020 competition winner), written from a reading of its public
 * source. NOT yet decision-identical to the jar, which is why it is not
 * registered under the jar's name: it decides through the shared
 * AbstractionLayerAI (bot_al), not through CoacAI's own
 * AbstractionLayerAIWait1 and actions, and it simplifies these points:
 *  - TrueIdle is played as the layer's Idle (which may attack in range);
 *    HarvestReturn, BuildModified, CoacAttack as Harvest, Build, Attack;
 *  - TrainDirection's side choice (the free side nearest the nearest enemy)
 *    is left to Train's own choice;
 *  - enemies are taken where they stand, not where a pending move ends
 *    (nextPos), and willBeMoveBeforeAttack is not tested;
 *  - the flood fill that marks a base "separated" on maps narrower than 10
 *    is not done (the base is taken as not separated);
 *  - no ranged flee.
 * Kept: the worker/barracks/base/combat rules and their order, the
 * harvester assignment (worker id -> base id, kept across decisions), the
 * per-decision damage bookkeeping that drops enemies already killed by
 * this decision's attacks, and the attack-all switch.
 * What the 2022 jar does that this draft does not yet follow (read from its
 * bytecode; the public source agrees unless said):
 *  - AbstractionLayerAIWait1 keeps `actions` in a HashMap<Unit, ...> and
 *    translates in that map's iteration order. In this microrts.jar
 *    Unit.hashCode is (int)ID and equals is identity, so the order is
 *    HashMap bucket order ((h ^ h >>> 16) & (capacity - 1), insertion order
 *    within a bucket, capacity doubling past 3/4 load and never shrinking):
 *    deterministic given the ids, but not the insertion order bot_al uses.
 *    It ends with fillWithNones.
 *  - TrueIdle is NONE with duration 1 (the layer's Idle may attack). The
 *    layer's fill of units without action is NONE 1 too: that one the
 *    draft follows.
 *  - TrainDirection produces in the side CoacAI chose (max of -distance to
 *    the nearest enemy over up, down, left, right, first on ties; free
 *    cells only), and only if the engine allows it (else it prints
 *    "TrainDirection invalid direction" and gives nothing); it completes at
 *    once.
 *  - CoacAttack: attack when in range; wait (NONE 1) when the target's next
 *    cell is in range; else the A* path into range; when there is none it
 *    draws a direction from a fresh, unseeded java.util.Random and tries the
 *    four moves from there, turning clockwise.
 *  - CoacAI recognises basesWorkers16x16A by the hash of the map's text
 *    (1835166811) on the first decision after construction and then
 *    trains ranged after the first heavy there: the draft follows it
 *    (is_bases_workers_16a), looking again after each reset.
 * Sources of the jar's run-to-run variation:
 *  - CoacAttack's unseeded Random (above): a chaser with no path moves in a
 *    random direction; the recorder's field seeding cannot reach it. Those
 *    cycles are not deterministic; the native bot is to try up, right,
 *    down, left in that order (a fixed, documented choice).
 *  - state kept across games by one instance: reset() clears neither
 *    harvesting, attackAll, wasSeparated nor myWorkersCombat (whose null
 *    test is how it spots the first decision, so the map check runs only
 *    in the first game). The native bot forgets everything on reset.
 *  - unit ids come from the engine's static counter, so repeated matches in
 *    one JVM number units differently and the HashMap order above changes;
 *    recordings carry the ids, so botdiff can reproduce it.
 *  - getAction reads the clock only to print: no budget cut.
 *  - harvesting, damages and the per-base maps are keyed by Long (hashed by
 *    value): deterministic.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "bots_internal.h"

typedef struct coac_harv {
	int64_t worker, base;
} coac_harv;

typedef struct coac {
	bot_al al;
	int worker, base, barracks, ranged, heavy, light;
	coac_harv *harv; /* harvesting: worker id -> base id, insertion order */
	int n_harv, cap_harv;
	int attack_all;
	int map_a; /* -1: not looked at yet; 1: the first decision saw basesWorkers16x16A */
	/* per-decision scratch, cap_units each */
	int *mw, *mwb, *mc, *mcb, *mb, *mbar, *en, *alive, *res, *close_res, *bases, *combat_w, *dmg, *tmp;
	int cap_units;
	int n_mw, n_mwb, n_mc, n_mcb, n_mb, n_mbar, n_en, n_alive, n_res, n_close_res, n_bases, n_combat_w;
	int used; /* resourceUsed */
	int attack_combat;
} coac;

static const ms_rts_unit *U(const coac *c, int i)
{
	return &rts_cunits(c->al.f.s)[i].u;
}

static int dist(const coac *c, int a, int b)
{
	return abs(U(c, a)->x - U(c, b)->x) + abs(U(c, a)->y - U(c, b)->y);
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

static int harv_find(const coac *c, int64_t worker)
{
	for (int k = 0; k < c->n_harv; k++)
		if (c->harv[k].worker == worker)
			return k;
	return -1;
}

static void harv_remove(coac *c, int k)
{
	memmove(&c->harv[k], &c->harv[k + 1], sizeof(*c->harv) * (size_t)(c->n_harv - k - 1));
	c->n_harv--;
}

static int base_full(const coac *c, int b)
{
	int n = 0;
	for (int k = 0; k < c->n_harv; k++)
		n += c->harv[k].base == U(c, b)->id;
	return n >= 2;
}

static int in_range(const coac *c, int a, int e)
{
	const ms_rts_unit *u = U(c, a), *v = U(c, e);
	int dx = u->x - v->x, dy = u->y - v->y, r = c->al.f.s->utt->types[u->type].attack_range;
	return dx * dx + dy * dy <= r * r;
}

static void drop_alive(coac *c, int e)
{
	for (int k = 0; k < c->n_alive; k++)
		if (c->alive[k] == e) {
			memmove(&c->alive[k], &c->alive[k + 1], sizeof(int) * (size_t)(c->n_alive - k - 1));
			c->n_alive--;
			return;
		}
}

static void register_damage(coac *c, int a, int e)
{
	const ms_rts_unit_type *t = &c->al.f.s->utt->types[U(c, a)->type];
	c->dmg[e] += (t->min_damage + t->max_damage) / 2;
	if (c->dmg[e] >= U(c, e)->hitpoints)
		drop_alive(c, e);
}

static int attack(coac *c, int a, int e)
{
	if (in_range(c, a, e))
		register_damage(c, a, e);
	return bot_al_attack(&c->al, a, e);
}

/* bestToAttack: an enemy this attack kills (the one left with the most
 * negative hp wins... as the Java comparator's max), else the closest. */
static int best_to_attack(const coac *c, int a, const int *list, int n)
{
	int mind = c->al.f.s->utt->types[U(c, a)->type].min_damage, best = -1;
	for (int k = 0; k < n; k++) {
		int e = list[k];
		if (best < 0) {
			best = e;
			continue;
		}
		/* Stream.max keeps the earlier one unless compare(earlier, later) < 0 */
		int ra = U(c, best)->hitpoints - c->dmg[best] - mind, rb = U(c, e)->hitpoints - c->dmg[e] - mind;
		int cmp = ra <= 0 && rb <= 0 ? ra - rb : ra <= 0 ? 1 : rb <= 0 ? -1 : -dist(c, a, best) + dist(c, a, e);
		if (cmp < 0)
			best = e;
	}
	return best;
}

static int combat(coac *c, int a)
{
	int n_in = 0, e;
	const ms_rts_state *s = c->al.f.s;

	if (!c->n_alive)
		return bot_al_idle(&c->al, a);
	for (int k = 0; k < c->n_alive; k++)
		if (in_range(c, a, c->alive[k]))
			c->tmp[n_in++] = c->alive[k];
	if (n_in)
		return attack(c, a, best_to_attack(c, a, c->tmp, n_in));
	e = closest(c, a, c->alive, c->n_alive);
	int maxc = s->width <= 8 ? 3000 : s->width <= 16 ? 4000 : s->width <= 24 ? 5000 : s->width <= 32 ? 6000
		 : s->width <= 64 ? 8000 : 12000;
	if (c->attack_combat || dist(c, a, e) <= 5)
		return attack(c, a, e);
	int n = c->n_mc + c->n_mcb + c->n_combat_w;
	if (!n || s->time > maxc / 2) {
		if (s->time > maxc / 2)
			return attack(c, a, e);
		return bot_al_idle(&c->al, a);
	}
	long sx = 0, sy = 0;
	const int *lists[3] = { c->mc, c->mcb, c->combat_w };
	int ns[3] = { c->n_mc, c->n_mcb, c->n_combat_w };
	for (int l = 0; l < 3; l++)
		for (int k = 0; k < ns[l]; k++)
			sx += U(c, lists[l][k])->x, sy += U(c, lists[l][k])->y;
	int cx = (int)(sx / n), cy = (int)(sy / n);
	if (abs(U(c, a)->x - cx) + abs(U(c, a)->y - cy) <= 3)
		return attack(c, a, e);
	return bot_al_move(&c->al, a, cx, cy);
}

static int train(coac *c, int u, int type)
{
	const ms_rts_state *s = c->al.f.s;
	if (rts_cunits(s)[u].slot >= 0 || s->resources[c->al.f.player] - c->used < s->utt->types[type].cost)
		return MS_OK;
	c->used += s->utt->types[type].cost;
	return bot_al_train(&c->al, u, type);
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
	int P = s->resources[c->al.f.player], E = s->resources[1 - c->al.f.player];
	static const int adj[4][2] = { { 0, 1 }, { 0, -1 }, { 1, 0 }, { -1, 0 } };

	if (c->n_mbar || P - c->used < bt->cost + 1)
		return MS_OK;
	for (int k = 0; k < c->n_mb; k++) {
		int b = c->mb[k], safe = 1, en, w, best = -1, bd = 0;
		/* constructingBarracksForBase: a busy worker producing barracks
		 * whose closest base is this one */
		int busy = 0;
		for (int j = 0; j < c->n_mwb && !busy; j++) {
			const rts_unit *ru = &rts_cunits(s)[c->mwb[j]];
			const rts_assign *as = &rts_cassigns(s)[ru->slot];
			busy = as->action.type == MS_RTS_PRODUCE && as->action.unit_type == c->barracks &&
			       closest(c, c->mwb[j], c->mb, c->n_mb) == b;
		}
		if (busy)
			continue;
		if ((en = closest(c, b, c->alive, c->n_alive)) >= 0)
			safe = dist(c, en, b) * wt->move_time > bt->produce_time;
		if (P > 10 && P >= E)
			safe = 1;
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
			    rts_cgrid(s)[x + y * s->width])
				continue;
			if (en < 0)
				break;
			int dd = abs(U(c, en)->x - x) + abs(U(c, en)->y - y);
			if (dd > bd)
				best = x + y * s->width, bd = dd;
		}
		if (best < 0)
			continue;
		int rc = bot_al_build(&c->al, w, c->barracks, best % s->width, best / s->width);
		if (rc)
			return rc;
		for (int j = 0; j < c->n_mw; j++)
			if (c->mw[j] == w) {
				memmove(&c->mw[j], &c->mw[j + 1], sizeof(int) * (size_t)(c->n_mw - j - 1));
				c->n_mw--;
				break;
			}
		c->mwb[c->n_mwb++] = w;
		c->used += bt->cost;
	}
	return MS_OK;
}

/* harvestScore's closest base among those with fewer than 2 harvesters. */
static int open_base(coac *c, int w)
{
	int n = 0;
	for (int k = 0; k < c->n_mb; k++)
		if (!base_full(c, c->mb[k]))
			c->tmp[n++] = c->mb[k];
	return closest(c, w, c->tmp, n);
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
				int w = c->mw[k];
				if (harv_find(c, U(c, w)->id) >= 0)
					continue;
				int r = closest(c, w, c->close_res, c->n_close_res), b = open_base(c, w);
				int sc = r < 0 || b < 0 ? INT_MAX : dist(c, w, b) + dist(c, w, r);
				if (best < 0 || sc < bs)
					best = w, bs = sc;
			}
			if (best < 0 || bs == INT_MAX)
				break;
			int r = closest(c, best, c->close_res, c->n_close_res), b = open_base(c, best);
			if (c->n_harv == c->cap_harv) {
				int cap = c->cap_harv ? 2 * c->cap_harv : 16;
				coac_harv *nh = ms_ctx_realloc(c->al.ctx, c->harv, sizeof(*nh) * (size_t)cap);
				if (!nh)
					return ms_ctx_error(c->al.ctx, MS_ENOMEM, "CoacAI: out of memory");
				c->harv = nh, c->cap_harv = cap;
			}
			c->harv[c->n_harv++] = (coac_harv){ U(c, best)->id, U(c, b)->id };
			if ((rc = bot_al_harvest(&c->al, best, r, b)))
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
			int b = bot_frame_find(&c->al.f, c->harv[h].base, -1), r = closest(c, w, c->res, c->n_res);
			if (b >= 0 && r >= 0 && (rc = bot_al_harvest(&c->al, w, r, b)))
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

static int grow(coac *c, int n)
{
	int **arrs[] = { &c->mw, &c->mwb, &c->mc, &c->mcb, &c->mb, &c->mbar, &c->en, &c->alive, &c->res, &c->close_res,
			 &c->bases, &c->combat_w, &c->dmg, &c->tmp };
	if (n <= c->cap_units && c->mw)
		return MS_OK;
	if (n < 1)
		n = 1;
	for (size_t k = 0; k < sizeof(arrs) / sizeof(arrs[0]); k++) {
		ms_ctx_mfree(c->al.ctx, *arrs[k]);
		if (!(*arrs[k] = ms_ctx_malloc(c->al.ctx, sizeof(int) * (size_t)n))) {
			c->cap_units = 0;
			return ms_ctx_error(c->al.ctx, MS_ENOMEM, "CoacAI: out of memory");
		}
	}
	c->cap_units = n;
	return MS_OK;
}

static int coac_decide(ms_bot *bot, int player, const ms_rts_state *s, ms_rts_pair *out, int max, int *n)
{
	coac *c = bot->impl;
	const ms_rts_unit_type *types = s->utt->types;
	const rts_unit *us = rts_cunits(s);
	int rc, P;

	*n = 0;
	if (player < 0 || player > 1)
		return ms_ctx_error(bot->ctx, MS_EINVAL, "%s: player %d", bot->ops->name, player);
	if (s->utt != bot->utt)
		return ms_ctx_error(bot->ctx, MS_EINVAL, "%s: the state uses another unit type table", bot->ops->name);
	c->al.edition = bot->edition;
	if ((rc = bot_al_begin(&c->al, s, player)) || (rc = grow(c, s->n_units)))
		return rc;
	c->n_mw = c->n_mwb = c->n_mc = c->n_mcb = c->n_mb = c->n_mbar = c->n_en = c->n_alive = c->n_res = 0;
	c->n_close_res = c->n_bases = c->n_combat_w = 0;
	c->used = 0;
	if (c->map_a < 0)
		c->map_a = is_bases_workers_16a(s);
	for (int i = 0; i < s->n_units; i++) {
		const ms_rts_unit *u = &us[i].u;
		const ms_rts_unit_type *t = &types[u->type];
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
			if (mine) {
				if (us[i].slot < 0)
					c->mc[c->n_mc++] = i;
				else
					c->mcb[c->n_mcb++] = i;
			}
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
	/* damages of the busy units' pending attacks */
	for (int k = 0; k < c->n_mcb + c->n_mwb; k++) {
		int a = k < c->n_mcb ? c->mcb[k] : c->mwb[k - c->n_mcb];
		const rts_assign *as = &rts_cassigns(s)[us[a].slot];
		if (as->action.type != MS_RTS_ATTACK)
			continue;
		int cell = as->action.x + as->action.y * s->width;
		for (int i = 0; i < s->n_units; i++)
			if (us[i].u.x + us[i].u.y * s->width == cell) {
				register_damage(c, a, i);
				break;
			}
	}
	/* forget harvesters that died or whose base is gone */
	for (int k = 0; k < c->n_harv;) {
		int w = bot_frame_find(&c->al.f, c->harv[k].worker, -1), b = bot_frame_find(&c->al.f, c->harv[k].base, -1);
		if (w < 0 || us[w].u.player != player || b < 0 || us[b].u.player != player)
			harv_remove(c, k);
		else
			k++;
	}
	P = s->resources[player];
	if (P == 0 && c->n_res == 0)
		c->attack_all = 1;
	{
		int ec = 0, mc = 0;
		for (int i = 0; i < s->n_units; i++) {
			const ms_rts_unit_type *t = &types[us[i].u.type];
			if (us[i].u.player >= 0 && us[i].u.player != player && !t->can_harvest && t->can_attack)
				ec += t->cost;
		}
		for (int k = 0; k < c->n_mc; k++)
			mc += types[us[c->mc[k]].u.type].cost;
		for (int k = 0; k < c->n_mcb; k++)
			mc += types[us[c->mcb[k]].u.type].cost;
		c->attack_combat = mc - 4 > ec;
	}
	if ((rc = workers(c)))
		return rc;
	{
		int heavy = 0;
		for (int k = 0; k < c->n_mc; k++)
			heavy += us[c->mc[k]].u.type == c->heavy;
		for (int k = 0; k < c->n_mcb; k++)
			heavy += us[c->mcb[k]].u.type == c->heavy;
		for (int k = 0; k < c->n_mbar; k++)
			if ((rc = train(c, c->mbar[k], heavy > (c->map_a ? 0 : 3) ? c->ranged : c->heavy)))
				return rc;
	}
	if (s->width <= 8)
		for (int k = 0; k < c->n_mb; k++)
			if ((rc = train(c, c->mb[k], c->worker)))
				return rc;
	{
		int producing = 0, prod = 0;
		for (int k = 0; k < c->n_mb; k++)
			prod += us[c->mb[k]].slot >= 0;
		for (int k = 0; k < c->n_mb; k++) {
			if (c->n_mw + c->n_mwb + producing + prod >= 2 * c->n_mb && P - c->used < 15)
				break;
			if ((rc = train(c, c->mb[k], c->worker)))
				return rc;
			producing++;
		}
	}
	for (int k = 0; k < c->n_mc; k++)
		if ((rc = combat(c, c->mc[k])))
			return rc;
	if ((rc = bot_al_translate(&c->al, out, max, n)))
		return rc;
	/* AbstractionLayerAIWait1 fills the units left without an action with
	 * NONE for 1 cycle (the shared layer, as AbstractionLayerAI, for 10);
	 * the shared layer gives NONE only in that fill. */
	for (int k = 0; k < *n; k++)
		if (out[k].action.type == MS_RTS_NONE && out[k].action.parameter == 10)
			out[k].action.parameter = 1;
	return MS_OK;
}

static int coac_reset(ms_bot *b)
{
	coac *c = b->impl;
	bot_al_clear(&c->al);
	c->n_harv = 0;
	c->attack_all = 0;
	c->map_a = -1;
	return MS_OK;
}

static void coac_free(ms_bot *b)
{
	coac *c = b->impl;
	int **arrs[] = { &c->mw, &c->mwb, &c->mc, &c->mcb, &c->mb, &c->mbar, &c->en, &c->alive, &c->res, &c->close_res,
			 &c->bases, &c->combat_w, &c->dmg, &c->tmp };
	if (!c)
		return;
	for (size_t k = 0; k < sizeof(arrs) / sizeof(arrs[0]); k++)
		ms_ctx_mfree(b->ctx, *arrs[k]);
	ms_ctx_mfree(b->ctx, c->harv);
	bot_al_dispose(&c->al);
	ms_ctx_mfree(b->ctx, c);
	b->impl = NULL;
}

/* No Java class: the draft must not stand in for ai.coac.CoacAI. */
static const ms_bot_ops coac_ops = { "CoacAIDraft", "", coac_reset, coac_decide, coac_free };

int bot_coac_new(ms_bot *b)
{
	coac *c = ms_ctx_calloc(b->ctx, 1, sizeof(coac));
	const char *need[] = { "Worker", "Base", "Barracks", "Ranged", "Heavy", "Light" };
	int *ids[] = { NULL, NULL, NULL, NULL, NULL, NULL };

	if (!c)
		return ms_ctx_error(b->ctx, MS_ENOMEM, "bot: out of memory");
	bot_al_init(&c->al, b->ctx);
	c->map_a = -1;
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
