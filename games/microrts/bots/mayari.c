/*
 * mayari (mayariBot.mayari, the 2021 competition winner) deciding as the
 * jar of the harness (lib/bots/mayariBot.jar) does. There is no public
 * source: this is written from a reading of the jar's bytecode.
 *
 * The bot has no abstraction layer: each decision builds a PlayerAction
 * from scratch. It classifies the units in unit-list order, locks the
 * cells it sends units to (locationsTaken, which also blocks its A*), then
 * runs, in order: attack nearby enemies, build a barracks, rebuild a base,
 * train at barracks and bases, send workers harvesting (remembering the
 * harvesters by id across decisions), workers attack (small maps, or when
 * the enemy has no heavy threat) or step aside, then heavies, ranged and
 * lights attack. Moves take the first step of the harness's A* towards a
 * cell next to the target, replaced by the best first step of a
 * breadth-first distance field around the target (radius 42, or 64 up to
 * 32 units) when A* found a path. Ties go to the first in list order
 * (Stream.min/max keep the first of equals; Collections.sort is stable).
 *
 * Sources of the jar's run-to-run variation and what the native bot does:
 *  - tryMoveAway and moveInDirection shuffle the four sides with
 *    Collections.shuffle's unseeded generator and take the first that
 *    qualifies. When two or more qualify the jar's pick (and what the
 *    decision does after it) is not reproducible; the native bot takes the
 *    first in the bot's side order (up, down, left, right) and counts the
 *    draw in ms_bot.random_moves, so `botdiff` counts those decisions apart.
 *    Stochastic (ms_bot_set_stochastic), it draws uniformly among the sides
 *    that qualify, as shuffling then taking the first does, from its own
 *    generator seeded with the bot's seed.
 *  - a wall-clock budget: on maps at least 24 wide with at least 24 units
 *    (resources included) each decision has 100 ms. The combat pass stops
 *    sending a unit when less than 35 (workers), 30 (heavies), 15 (ranged)
 *    or 5 (lights) ms remain, and moves keep the A* step instead of the
 *    distance-field step once 35 ms or less remain (measured after the
 *    combat pass started). The native bot behaves as if time never runs
 *    out; a decision where the jar's budget was running and the combat
 *    pass consulted it sets ms_bot.clock_bound, and `botdiff` counts it
 *    apart.
 *  - the harvesters' memory lives in the instance; reset() clears it, as
 *    the native reset does. The per-base harvester counts are a HashMap
 *    over units (identity hash), but only membership is used: order
 *    decides nothing. The pending damages map is only looked up.
 * Where the jar does not end or throws, and what the native bot does:
 *  - produceCombat with no enemy in its state loops forever (the side that
 *    scores best is never set, so never removed). A full state has one
 *    until the game ends, but a partially observable view loses them from
 *    sight: the jar hangs at the first idle barracks with no enemy in view
 *    (why the recorder keeps mayari out of its partially observable jobs,
 *    and its watchdog). The native bot trains nothing there.
 *  - with no enemy left the barracks site scoring dereferences null and a
 *    ranged unit with no target reads past an empty list; the native bot
 *    takes the missing distance as Integer.MAX_VALUE and skips the unit.
 * Java int arithmetic that overflows (unreachable distances added, a busy
 * worker's Integer.MIN_VALUE score times 10) wraps here as there.
 */
#include "mayari_internal.h"

static int attack_now(mayari *m, int a, int e)
{
	ms_rts_action act = bot_act(MS_RTS_ATTACK, -1, -1);
	act.x = U(m, e)->x;
	act.y = U(m, e)->y;
	if (!mayari_allowed(m, a, &act))
		return 0;
	mayari_add_pair(m, a, act);
	/* the jar adds the attacker's maximum hit points, not its damage */
	m->dmg[e] = iadd(m->dmg[e], T(m, a)->hp);
	return 1;
}

static int will_escape(const mayari *m, int attacker, int runner)
{
	const rts_unit *r = &rts_cunits(m->f.s)[runner];
	const rts_assign *as;
	if (r->slot < 0)
		return 0;
	as = &rts_cassigns(m->f.s)[r->slot];
	if (as->action.type != MS_RTS_MOVE)
		return 0;
	return T(m, runner)->move_time - (m->f.s->time - as->time) <= T(m, attacker)->attack_time;
}

static int nearby_score(const mayari *m, int a, int d)
{
	const ms_rts_unit_type *ta = T(m, a), *td = T(m, d);
	int in, succ, threat, kill, a2w;

	if (U(m, d)->hitpoints <= m->dmg[d])
		return INT_MIN;
	if (sq_dist(U(m, a)->x, U(m, a)->y, U(m, d)->x, U(m, d)->y) >
	    m->f.s->utt->types[m->ranged].attack_range + 3)
		return INT_MIN;
	in = in_range(m, a, d);
	succ = in && !will_escape(m, a, d);
	threat = in_range(m, d, a);
	kill = ta->max_damage > U(m, d)->hitpoints;
	a2w = U(m, a)->type == m->ranged && U(m, d)->type == m->worker;
	(void)td;
	return 1000 * succ + 100 * kill + (a2w + td->max_damage) * 10 + threat;
}

static int attack_nearby_one(mayari *m, int u, int e)
{
	int fx, fy;
	if (in_range(m, u, e) && !will_escape(m, u, e))
		return attack_now(m, u, e);
	future(m, e, &fx, &fy);
	if (sq_dist(U(m, u)->x, U(m, u)->y, fx, fy) <= T(m, u)->attack_range) {
		mayari_add_pair(m, u, bot_act(MS_RTS_NONE, 1, -1));
		return 1;
	}
	return in_range(m, e, u) && mayari_move_towards(m, u, U(m, e)->x, U(m, e)->y);
}

static void attack_nearby(mayari *m)
{
	int cut = m->n[L_ENEMIES_COMBAT] > 24 ? 12 : 24;
	for (int k = 0; k < m->n[L_ALLY]; k++) {
		int u = m->list[L_ALLY][k], nc;
		if (busy(m, u) || !T(m, u)->can_attack)
			continue;
		nc = m->n[L_ENEMIES];
		memcpy(m->cand, m->list[L_ENEMIES], sizeof(int) * (size_t)nc);
		/* the jar scores the enemies anew each round, but a round that fails changes nothing a
		 * score reads (damage is counted, and locks taken, only when the unit acts): score once */
		for (int j = 0; j < nc; j++)
			m->score[j] = nearby_score(m, u, m->cand[j]);
		for (int c = 0; nc > 0 && c < cut; c++) {
			int best = 0;
			for (int j = 1; j < nc; j++)
				if (m->score[j] > m->score[best])
					best = j;
			if (attack_nearby_one(m, u, m->cand[best]))
				break;
			nc--;
			memmove(&m->cand[best], &m->cand[best + 1], sizeof(int) * (size_t)(nc - best));
			memmove(&m->score[best], &m->score[best + 1], sizeof(int) * (size_t)(nc - best));
		}
	}
}

static int valid_build(const mayari *m, int x, int y)
{
	int u;
	if (outside(m, x, y) || terrain(m, x, y) == 1)
		return 0;
	u = unit_at(m, x, y);
	return u < 0 || (U(m, u)->type != m->base && U(m, u)->type != m->barracks);
}

static int between(int ax, int ay, int bx, int by, int cx, int cy)
{
	return (ax >= bx || cx >= bx) && (ax <= bx || cx <= bx) && (ay >= by || cy >= by) && (ay <= by || cy <= by);
}

static int barrack_worker_score(const mayari *m, int x, int y, int w)
{
	const ms_rts_unit_type *ty = m->f.s->utt->types;
	int danger, e, ed, pen = 0;

	if (busy(m, w))
		return INT_MIN;
	danger = ty[m->barracks].produce_time / ty[m->worker].move_time +
		 ty[m->heavy].produce_time / ty[m->worker].move_time;
	e = closest(m, x, y, m->list[L_ENEMIES], m->n[L_ENEMIES]);
	/* no enemy: the jar throws; the distance is taken as MAX_VALUE */
	ed = e < 0 ? INT_MAX : dist_xy(x, y, U(m, e)->x, U(m, e)->y);
	if (ed < 1)
		ed = 1;
	if (ed < danger) {
		pen = 2 * danger / ed;
		if (between(U(m, w)->x, U(m, w)->y, x, y, U(m, e)->x, U(m, e)->y))
			pen -= 3;
	}
	return -pen - dist_xy(U(m, w)->x, U(m, w)->y, x, y) / 2;
}

/* buildBlockPenalty: walls and map edges right next to the cell, bases and
 * resources within 2 (diagonals at 2 only when `diag`); summed in the
 * jar's cell order, as the sum is truncated. */
static double block_penalty(const mayari *m, int px, int py, int diag)
{
	double score = 0.0;
	for (int r = 0; r <= 2; r++)
		for (int x = -r; x <= r; x++) {
			int yy = r - abs(x);
			for (int s = 0; s < (yy != 0 ? 2 : 1); s++) {
				int nx = px + x, ny = py + (s ? -yy : yy), d = r, u;
				if (!diag && d == 2)
					continue;
				if (d == 0)
					continue;
				if (outside(m, nx, ny) || terrain(m, nx, ny) == 1)
					score += d > 1 ? 0.0 : 0.2;
				u = unit_at(m, nx, ny);
				if (u < 0)
					continue;
				if (!T(m, u)->is_resource && U(m, u)->type != m->base)
					continue;
				score += d > 1 ? 1.0 : 4.0;
			}
		}
	return score;
}

/* allPosDist ring `r` around (x, y) in the jar's order; returns the count. */
static int ring(int x, int y, int r, int *xs, int *ys)
{
	int n = 0;
	for (int dx = -r; dx <= r; dx++) {
		int dy = r - abs(dx);
		xs[n] = x + dx, ys[n++] = y + dy;
		if (dy != 0)
			xs[n] = x + dx, ys[n++] = y - dy;
	}
	return n;
}

static int barrack_score(mayari *m, int x, int y)
{
	int b, des = 0, best, bws;
	double pen;

	if (!valid_build(m, x, y) || m->n[L_WORKERS] == 0)
		return INT_MIN;
	b = closest(m, x, y, m->list[L_BASES], m->n[L_BASES]);
	if (mayari_separated(m, b))
		return imul(-(int)block_penalty(m, x, y, 1), 10);
	if (m->n[L_BARRACKS] + m->n_fb > 0) {
		int md = INT_MAX;
		for (int k = 0; k < m->n[L_BARRACKS]; k++) {
			int br = m->list[L_BARRACKS][k];
			int d = dist(m, b, br);
			md = d < md ? d : md;
		}
		for (int k = 0; k < m->n_fb; k++) {
			int d = dist_xy(U(m, b)->x, U(m, b)->y, m->fbx[k], m->fby[k]);
			md = d < md ? d : md;
		}
		des = md / 2;
	}
	pen = block_penalty(m, x, y, 0);
	best = m->list[L_WORKERS][0];
	bws = barrack_worker_score(m, x, y, best);
	for (int k = 1; k < m->n[L_WORKERS]; k++) {
		int sc = barrack_worker_score(m, x, y, m->list[L_WORKERS][k]);
		if (sc > bws)
			bws = sc, best = m->list[L_WORKERS][k];
	}
	return imul(iadd(des - (int)pen, bws), 10);
}

static int need_barracks(const mayari *m)
{
	int maxd = m->f.w / 4;
	if (m->n[L_BARRACKS] + m->n_fb >= m->n[L_BASES])
		return 0;
	for (int k = 0; k < m->n[L_BASES]; k++) {
		int b = m->list[L_BASES][k], md = INT_MAX, brx;
		for (int j = 0; j < m->n_fb; j++) {
			int d = dist_xy(U(m, b)->x, U(m, b)->y, m->fbx[j], m->fby[j]);
			md = d < md ? d : md;
		}
		if (md <= maxd)
			continue;
		brx = closest(m, U(m, b)->x, U(m, b)->y, m->list[L_BARRACKS], m->n[L_BARRACKS]);
		if (brx >= 0 && dist(m, brx, b) < maxd)
			continue;
		return 1;
	}
	return 0;
}

static void build_barracks(mayari *m)
{
	const ms_rts_unit_type *ty = m->f.s->utt->types;
	int *cx = m->cand, *cy = m->tmp, nc = 0;

	if (m->f.s->resources[m->player] - m->used - 1 < ty[m->barracks].cost || !need_barracks(m) ||
	    m->n[L_BASES] == 0 || m->n[L_WORKERS] == 0)
		return;
	for (int k = 0; k < m->n[L_BASES]; k++) {
		int b = m->list[L_BASES][k];
		for (int r = 0; r <= 2; r++)
			nc += ring(U(m, b)->x, U(m, b)->y, r, cx + nc, cy + nc);
	}
	for (int counter = 0; nc > 0 && counter < 2; counter++) {
		int best = 0, bsc = barrack_score(m, cx[0], cy[0]), w, ws;
		for (int k = 1; k < nc; k++) {
			int sc = barrack_score(m, cx[k], cy[k]);
			if (sc > bsc)
				bsc = sc, best = k;
		}
		if (bsc == INT_MIN)
			break;
		w = m->list[L_WORKERS][0];
		ws = barrack_worker_score(m, cx[best], cy[best], w);
		for (int k = 1; k < m->n[L_WORKERS]; k++) {
			int sc = barrack_worker_score(m, cx[best], cy[best], m->list[L_WORKERS][k]);
			if (sc > ws)
				ws = sc, w = m->list[L_WORKERS][k];
		}
		if (ws == INT_MIN)
			break;
		/* goBuildBarrack */
		if (dist_xy(U(m, w)->x, U(m, w)->y, cx[best], cy[best]) != 1) {
			if (mayari_move_towards(m, w, cx[best], cy[best]))
				return;
		} else if (mayari_produce(m, w, to_dir(U(m, w)->x, U(m, w)->y, cx[best], cy[best]), m->barracks)) {
			return;
		}
		memmove(&cx[best], &cx[best + 1], sizeof(int) * (size_t)(nc - best - 1));
		memmove(&cy[best], &cy[best + 1], sizeof(int) * (size_t)(nc - best - 1));
		nc--;
	}
}

static void build_base(mayari *m)
{
	int w = -1, ws = INT_MAX;
	if (m->n[L_WORKERS] == 0 || m->n[L_BASES] > 0 || m->n[L_RES] == 0 ||
	    m->f.s->resources[m->player] - m->used < m->f.s->utt->types[m->base].cost)
		return;
	for (int k = 0; k < m->n[L_WORKERS]; k++) {
		int u = m->list[L_WORKERS][k];
		int sc = busy(m, u) ? INT_MAX : min_dist(m, U(m, u)->x, U(m, u)->y, m->list[L_RES], m->n[L_RES]);
		if (w < 0 || sc < ws)
			ws = sc, w = u;
	}
	if (busy(m, w))
		return;
	for (int k = 0; k < 4; k++) {
		int px, py;
		step(m, U(m, w)->x, U(m, w)->y, dirs[k], &px, &py);
		if (valid_build(m, px, py) && mayari_produce(m, w, dirs[k], m->base))
			return;
	}
}

static int enemy_heavies_weak(const mayari *m)
{
	int tot, eh = m->n[L_EHEAVIES];
	if (m->enemy_future_heavy > 0 || eh > 1)
		return 0;
	if (eh == 1 && U(m, m->list[L_EHEAVIES][0])->hitpoints > 3)
		return 0;
	tot = m->f.s->resources[1 - m->player];
	for (int k = 0; k < m->n[L_EWORKERS]; k++) {
		int u = m->list[L_EWORKERS][k], x = U(m, u)->x, y = U(m, u)->y;
		int bd = min_dist(m, x, y, m->list[L_EBASES], m->n[L_EBASES]);
		int rd = U(m, u)->resources > 0 ? 0 : min_dist(m, x, y, m->list[L_RES], m->n[L_RES]);
		tot += iadd(bd, rd) < m->f.w / 2;
	}
	return tot < m->f.s->utt->types[m->heavy].cost;
}

/* produceCombat: the sides by distance to the nearest enemy. With no
 * enemy the jar loops forever; the native bot trains nothing. */
static int produce_combat(mayari *m, int b, int type)
{
	int left[4], nl = 4;
	if (m->n[L_ENEMIES] == 0)
		return 0;
	memcpy(left, dirs, sizeof(left));
	while (nl > 0) {
		int bs = -INT_MAX, bd = -1, k;
		for (k = 0; k < nl; k++) {
			int px, py, sc;
			step(m, U(m, b)->x, U(m, b)->y, left[k], &px, &py);
			sc = -min_dist(m, px, py, m->list[L_ENEMIES], m->n[L_ENEMIES]);
			if (sc > bs)
				bs = sc, bd = left[k];
		}
		if (mayari_produce(m, b, bd, type))
			return 1;
		for (k = 0; k < nl && left[k] != bd; k++)
			;
		memmove(&left[k], &left[k + 1], sizeof(int) * (size_t)(nl - k - 1));
		nl--;
	}
	return 0;
}

static void barracks_action(mayari *m)
{
	const ms_rts_unit_type *ty = m->f.s->utt->types;
	for (int k = 0; k < m->n[L_BARRACKS]; k++) {
		int b = m->list[L_BARRACKS][k];
		if (busy(m, b))
			continue;
		if (mayari_separated(m, b) && produce_combat(m, b, m->ranged))
			continue;
		if (produce_combat(m, b, m->heavy))
			continue;
		if (enemy_heavies_weak(m) && produce_combat(m, b, m->ranged))
			continue;
		if (m->n[L_RES] > 0 || m->f.s->resources[m->player] - m->used >= ty[m->heavy].cost)
			continue;
		produce_combat(m, b, m->ranged);
	}
}

static int best_worker_dir(mayari *m, int b)
{
	int bs = -INT_MAX, bd = 0;
	int e = closest(m, U(m, b)->x, U(m, b)->y, m->list[L_ENEMIES], m->n[L_ENEMIES]);
	int r = closest(m, U(m, b)->x, U(m, b)->y, m->list[L_RES], m->n[L_RES]);
	for (int k = 0; k < 4; k++) {
		int nx, ny, sc;
		step(m, U(m, b)->x, U(m, b)->y, dirs[k], &nx, &ny);
		if (terrain(m, nx, ny) == 1 || unit_at(m, nx, ny) >= 0 || !pos_free(m, nx, ny, dirs[k]) || e < 0)
			continue;
		if (r < 0 || m->n[L_WORKERS] >= 2 * m->n[L_BASES])
			sc = -dist_xy(nx, ny, U(m, e)->x, U(m, e)->y);
		else
			sc = -dist_xy(nx, ny, U(m, r)->x, U(m, r)->y);
		if (sc > bs)
			bs = sc, bd = dirs[k];
	}
	return bd;
}

static int workers_per_base(mayari *m, int b)
{
	int eb = m->n[L_EBASES] > 1 ? m->n[L_EBASES] : 1, v;
	if (m->f.w < 9)
		return 15;
	if (m->f.w > 16)
		return 2;
	if (mayari_separated(m, b) || m->f.s->time > 1000)
		return 2;
	v = m->n[L_EWORKERS] / eb;
	return v > 2 ? v : 2;
}

static void bases_action(mayari *m)
{
	int producing = 0, pcount = 0;
	for (int k = 0; k < m->n[L_BASES]; k++)
		pcount += rts_cunits(m->f.s)[m->list[L_BASES][k]].slot >= 0;
	for (int k = 0; k < m->n[L_BASES]; k++) {
		int b = m->list[L_BASES][k], wpb, ok;
		if (busy(m, b))
			continue;
		if (m->n[L_RES] == 0 && m->f.s->resources[m->player] - m->used == 1) {
			mayari_produce_wherever(m, b, m->worker);
			continue;
		}
		if (m->f.w >= 9) {
			wpb = workers_per_base(m, b);
			if ((long)m->n[L_WORKERS] + producing + pcount >= (long)wpb * m->n[L_BASES])
				continue;
		}
		ok = mayari_produce(m, b, best_worker_dir(m, b), m->worker) || mayari_produce_wherever(m, b, m->worker);
		producing += ok;
	}
}

static int harvest_score(const mayari *m, int w, const int *bs, int nb)
{
	int r, b, x = U(m, w)->x, y = U(m, w)->y;
	if (busy(m, w) || U(m, w)->resources > 0)
		return INT_MAX;
	r = closest(m, x, y, m->list[L_RES], m->n[L_RES]);
	b = closest(m, x, y, bs, nb);
	if (r < 0 || b < 0)
		return INT_MAX;
	return dist(m, w, b) + dist(m, w, r);
}

static void go_harvesting(mayari *m, int w)
{
	int r = closest(m, U(m, w)->x, U(m, w)->y, m->list[L_RES], m->n[L_RES]);
	if (r < 0)
		return;
	if (dist(m, w, r) == 1) {
		mayari_next_to(m, w, r, MS_RTS_HARVEST);
		return;
	}
	if (!mayari_move_towards(m, w, U(m, r)->x, U(m, r)->y))
		mayari_move_rel(m, w, w, 1);
}

static int per_base(const mayari *m)
{
	int occ = m->n[L_WORKERS] + m->n[L_EWORKERS] + m->n[L_ALLY_COMBAT] + m->n[L_ENEMIES_COMBAT] +
		  m->n[L_EBASES] + m->n[L_BASES] + m->n[L_BARRACKS] + m->n[L_EBARRACKS] + m->n[L_RES];
	if (m->f.w <= 12 && occ > (int)((double)(m->f.w * m->f.h) / 2.9))
		return 1;
	return 2;
}

static int worker_action(mayari *m)
{
	int *ws = m->ws, *bs = m->bs, nw = m->n[L_WORKERS], nb = m->n[L_BASES], pb = per_base(m);

	memcpy(ws, m->list[L_WORKERS], sizeof(int) * (size_t)nw);
	memcpy(bs, m->list[L_BASES], sizeof(int) * (size_t)nb);
	for (int k = 0; k < nb; k++)
		m->cnt[bs[k]] = -1;
	for (int k = 0; k < m->mem.n; k++) {
		int h = bot_frame_find(&m->f, m->mem.v[k], -1), b;
		if (h < 0)
			continue; /* init dropped the dead ones */
		b = closest(m, U(m, h)->x, U(m, h)->y, bs, nb);
		if (!busy(m, h) && U(m, h)->resources == 0)
			go_harvesting(m, h);
		drop(ws, &nw, h);
		if (b >= 0)
			m->cnt[b] = m->cnt[b] < 0 ? 1 : m->cnt[b] + 1;
	}
	for (int k = 0; k < m->n[L_BASES]; k++) {
		int b = m->list[L_BASES][k];
		if (m->cnt[b] >= pb)
			drop(bs, &nb, b);
	}
	while (nb > 0 && nw > 0) {
		int w = ws[0], sc = harvest_score(m, ws[0], bs, nb), b;
		for (int k = 1; k < nw; k++) {
			int s2 = harvest_score(m, ws[k], bs, nb);
			if (s2 < sc)
				sc = s2, w = ws[k];
		}
		if (sc == INT_MAX)
			break;
		b = closest(m, U(m, w)->x, U(m, w)->y, bs, nb);
		go_harvesting(m, w);
		int64_t *slot = ms_vec_push(m->bot->ctx, &m->mem);
		if (!slot)
			return MS_ENOMEM;
		*slot = U(m, w)->id;
		drop(ws, &nw, w);
		if (m->cnt[b] < 0)
			m->cnt[b] = 1;
		if (m->cnt[b] >= pb)
			drop(bs, &nb, b);
	}
	for (int k = 0; k < m->n[L_WORKERS]; k++) {
		int w = m->list[L_WORKERS][k], b;
		if (busy(m, w) || U(m, w)->resources <= 0)
			continue;
		b = closest(m, U(m, w)->x, U(m, w)->y, m->list[L_BASES], m->n[L_BASES]);
		if (b < 0)
			return MS_OK;
		if (dist(m, w, b) <= 1)
			mayari_next_to(m, w, b, MS_RTS_RETURN);
		else
			mayari_move_towards(m, w, U(m, b)->x, U(m, b)->y);
	}
	return MS_OK;
}

static int should_workers_attack(const mayari *m)
{
	return m->f.w <= 12 || (enemy_heavies_weak(m) && m->n[L_EARCHERS] == 0 && m->n[L_HEAVIES] == 0 &&
				m->future_heavies == 0 && m->n[L_ARCHERS] == 0);
}

static int combat_score(const mayari *m, int u, int e)
{
	int sc = -dist(m, u, e), tu = U(m, u)->type, te = U(m, e)->type;
	if (tu == m->ranged && te == m->ranged && m->f.w > 9)
		sc += 2;
	if (m->f.w >= 16 && (tu == m->heavy || tu == m->ranged) && te == m->barracks)
		sc += m->f.w;
	return sc;
}

static int overpowering(const mayari *m)
{
	int p = 0, e = 0;
	for (int k = 0; k < m->n[L_ALLY_COMBAT]; k++)
		p += T(m, m->list[L_ALLY_COMBAT][k])->max_damage;
	for (int k = 0; k < m->n[L_ENEMIES_COMBAT]; k++)
		e += T(m, m->list[L_ENEMIES_COMBAT][k])->max_damage;
	return p - e > 0;
}

/* goCombat: each idle attacker walks towards the best-scored enemy it can
 * step towards (scores: nearer first, stable); a ranged unit that found
 * none steps towards the first (after stepping away when stronger). */
static void go_combat(mayari *m, int which)
{
	int cut = m->n[L_ENEMIES_COMBAT] > 24 ? 12 : 24, ne = m->n[L_ENEMIES];
	for (int k = 0; k < m->n[which]; k++) {
		int u = m->list[which][k], c;
		if (busy(m, u) || !T(m, u)->can_attack)
			continue;
		m->clock_read = 1;
		if (m->clock_on)
			m->bot->clock_bound = 1;
		/* stable sort of the enemies by decreasing score */
		for (int j = 0; j < ne; j++) {
			int e = m->list[L_ENEMIES][j], sc = combat_score(m, u, e), i = j;
			while (i > 0 && m->score[i - 1] < sc) {
				m->score[i] = m->score[i - 1];
				m->cand[i] = m->cand[i - 1];
				i--;
			}
			m->score[i] = sc;
			m->cand[i] = e;
		}
		for (c = 0; c < ne && c < cut; c++) {
			int fx, fy;
			future(m, m->cand[c], &fx, &fy);
			if (mayari_move_towards(m, u, fx, fy))
				break;
		}
		if (c < ne || U(m, u)->type != m->ranged || ne == 0)
			continue;
		if (overpowering(m))
			mayari_move_rel(m, u, u, 1);
		mayari_move_rel(m, u, m->cand[0], 0);
	}
}

static void free_blocks(mayari *m)
{
	static const int ox[4] = { -1, 0, 0, 1 }, oy[4] = { 0, 1, -1, 0 };
	for (int k = 0; k < m->n[L_WORKERS]; k++) {
		int u = m->list[L_WORKERS][k], near = 0;
		if (busy(m, u))
			continue;
		for (int j = 0; j < 4 && !near; j++)
			near = unit_at(m, U(m, u)->x + ox[j], U(m, u)->y + oy[j]) >= 0;
		if (near)
			mayari_move_rel(m, u, u, 1);
	}
}

/* Barracks candidates: up to this many sites per base (or the enemies). */
#define MAYARI_SITES 13

/* A kept per-cell array grown to `cells`, its new part zeroed. */
static int cells_zeroed(ms_ctx *ctx, void **v, int *n, int *cap, int cells, size_t elem)
{
	if (cells <= *n)
		return MS_OK;
	if (ms_vec_grow(ctx, v, cap, cells, elem) < 0)
		return MS_ENOMEM;
	memset((char *)*v + (size_t)*n * elem, 0, (size_t)(cells - *n) * elem);
	*n = cells;
	return MS_OK;
}

/*
 * The decision's buffers: unit-sized ones with room for twice the units
 * (pairs and locks are bounded by that room, and refused past it),
 * cell-sized ones per cell, all carved from one block kept between
 * decisions (carving them from the frame's arena every decision cost 5%
 * of a match against mayari). The lock counts and the distance field's
 * generations are kept arrays too (undone lock by lock, stamped by
 * generation): zeroing them per decision cost more.
 */
static int scratch(mayari *m, const ms_rts_state *s)
{
	ms_ctx *ctx = m->bot->ctx;
	size_t cap = (size_t)(s->n_units < 16 ? 32 : 2 * s->n_units), cells = (size_t)s->cells;
	int **ints[15] = { &m->dmg, &m->has_act, &m->cnt, &m->ws,  &m->bs,    &m->score, &m->sep_at, &m->cand,
			   &m->tmp, &m->fbx,     &m->fby, &m->taken, &m->prox, &m->fa,    &m->fb };
	size_t len[L_N + 15] = { cap, cap, cap, cap, cap, cap, cap, cap * MAYARI_SITES, cap * MAYARI_SITES,
				 2 * cap, 2 * cap, 3 * cap, cells, cells, cells };
	size_t n_ints = 0, cap_pa = 2 * cap + 4;

	for (int k = 0; k < L_N; k++)
		len[15 + k] = cap;
	for (int k = 0; k < L_N + 15; k++)
		n_ints += len[k];
	/* the pairs first (the block's alignment), then the ints, then the bytes */
	long long bytes = (long long)(cap_pa * sizeof(ms_rts_pair) + n_ints * sizeof(int) + cap + cells);
	char *old = m->blk.v;
	if (ms_vec_reserve(ctx, &m->blk, bytes) < 0 ||
	    cells_zeroed(ctx, (void **)&m->taken_n.v, &m->taken_n.n, &m->taken_n.cap, s->cells, sizeof(uint16_t)) < 0 ||
	    cells_zeroed(ctx, (void **)&m->prox_gen.v, &m->prox_gen.n, &m->prox_gen.cap, s->cells, sizeof(uint32_t)) < 0)
		return ms_ctx_error(ctx, MS_ENOMEM, "mayari: out of memory for a %dx%d map with %d units", s->width,
				    s->height, s->n_units);
	m->cap_pa = (int)cap_pa;
	m->cap_taken = (int)(3 * cap);
	if (m->blk.v != old || cap != m->carve_cap || cells != m->carve_cells) {
		m->pa = (ms_rts_pair *)(void *)m->blk.v;
		int *at = (int *)(void *)(m->pa + cap_pa);
		for (int k = 0; k < L_N + 15; k++) {
			*(k < 15 ? ints[k] : &m->list[k - 15]) = at;
			at += len[k];
		}
		m->sep_v = (uint8_t *)at;
		m->occ = m->sep_v + cap;
		m->carve_cap = cap;
		m->carve_cells = cells;
	}
	return bot_astar_grow(ctx, &m->astar, s->cells) ? ms_ctx_error(ctx, MS_ENOMEM, "mayari: out of memory") : MS_OK;
}

/* init(): the unit lists, pending productions and attacks, memory upkeep. */
static void classify(mayari *m)
{
	const ms_rts_state *s = m->f.s;
	const rts_unit *us = rts_cunits(s);
	const rts_assign *as = rts_cassigns(s);
	const ms_rts_unit_type *ty = s->utt->types;
	int k;

	memset(m->n, 0, sizeof(m->n));
	for (int i = 0; i < s->n_units; i++) {
		int t = us[i].u.type, e = enemy(m, i), l = -1;
		m->dmg[i] = 0;
		m->has_act[i] = 0;
		m->sep_at[i] = 0;
		if (ty[t].is_resource)
			l = L_RES;
		else if (t == m->base)
			l = e ? L_EBASES : L_BASES;
		else if (t == m->barracks)
			l = e ? L_EBARRACKS : L_BARRACKS;
		else if (t == m->worker)
			l = e ? L_EWORKERS : L_WORKERS;
		else if (t == m->ranged)
			l = e ? L_EARCHERS : L_ARCHERS;
		else if (t == m->heavy)
			l = e ? L_EHEAVIES : L_HEAVIES;
		else if (t == m->light)
			l = e ? L_ELIGHTS : L_LIGHTS;
		if (l >= 0)
			m->list[l][m->n[l]++] = i;
	}
	for (int i = 0; i < s->n_units; i++) {
		int t = us[i].u.type, e = enemy(m, i);
		if (ty[t].is_resource)
			continue;
		if (e)
			m->list[L_ENEMIES][m->n[L_ENEMIES]++] = i;
		else
			m->list[L_ALLY][m->n[L_ALLY]++] = i;
		if (e && ty[t].can_attack)
			m->list[L_ENEMIES_COMBAT][m->n[L_ENEMIES_COMBAT]++] = i;
		else if (ty[t].can_attack)
			m->list[L_ALLY_COMBAT][m->n[L_ALLY_COMBAT]++] = i;
	}
	m->n_fb = 0;
	m->future_heavies = m->enemy_future_heavy = 0;
	m->used = 0;
	/* pending productions, then pending attacks, of all non-resource units in list order */
	for (int i = 0; i < s->n_units; i++) {
		const ms_rts_action *a;
		int fx, fy, e;
		if (ty[us[i].u.type].is_resource || us[i].slot < 0)
			continue;
		a = &as[us[i].slot].action;
		if (a->type != MS_RTS_PRODUCE)
			continue;
		e = enemy(m, i);
		step(m, us[i].u.x, us[i].u.y, a->parameter, &fx, &fy);
		lock(m, fx, fy);
		if (a->unit_type < 0)
			continue;
		if (!e)
			m->used += ty[a->unit_type].cost;
		if (!e && a->unit_type == m->barracks)
			m->fbx[m->n_fb] = fx, m->fby[m->n_fb++] = fy;
		if (!e && a->unit_type == m->heavy)
			m->future_heavies++;
		if (e && a->unit_type == m->heavy)
			m->enemy_future_heavy++;
	}
	for (int i = 0; i < s->n_units; i++) {
		const ms_rts_action *a;
		int t;
		if (ty[us[i].u.type].is_resource || us[i].slot < 0)
			continue;
		a = &as[us[i].slot].action;
		if (a->type != MS_RTS_ATTACK || (t = rts_unit_at(s, a->x, a->y)) < 0)
			continue;
		m->dmg[t] = iadd(m->dmg[t], ty[us[i].u.type].max_damage);
	}
	if (m->n[L_BASES] == 0)
		m->mem.n = 0;
	for (k = 0; k < m->mem.n;) {
		/* a unit of another player with a remembered id belongs to a
		 * new game on a bot nobody reset: the jar keeps unit objects */
		int i = bot_frame_find(&m->f, m->mem.v[k], -1);
		if (i < 0 || U(m, i)->player != m->player) {
			memmove(&m->mem.v[k], &m->mem.v[k + 1], sizeof(int64_t) * (size_t)(m->mem.n - k - 1));
			m->mem.n--;
		} else {
			k++;
		}
	}
	m->clock_on = s->width >= 24 && s->n_units >= 24;
	m->clock_read = 0;
}

static int mayari_decide(ms_bot *bot, int player, const ms_rts_state *s, ms_rts_pair *out, int max, int *n)
{
	mayari *m = bot->impl;
	const rts_unit *us = rts_cunits(s);
	int rc;

	*n = 0;
	bot->random_moves = 0;
	bot->clock_bound = 0;
	if (player < 0 || player > 1)
		return ms_ctx_error(bot->ctx, MS_EINVAL, "%s: player %d", bot->ops->name, player);
	if (s->utt != bot->utt)
		return ms_ctx_error(bot->ctx, MS_EINVAL, "%s: the state uses another unit type table", bot->ops->name);
	/* the previous decision's locks, undone while `taken` (scratch) is still valid */
	for (int k = 0; k < m->n_taken; k++)
		m->taken_n.v[m->taken[k]] = 0;
	m->n_taken = 0;
	m->taken_over = 0;
	m->pa_over = 0;
	if ((rc = bot_frame_begin(bot->ctx, &m->f, s, -1)) || (rc = scratch(m, s)))
		return rc;
	m->player = player;
	m->astar.memo = bot->memo;
	m->n_pa = 0;
	/* the pointers in locals: a store through occ (uint8_t) may alias anything, so they would be
	 * reloaded every cell and the loop not vectorized (a fifth of mayari's time on 64x64) */
	const uint8_t *terrain = rts_cterrain(s);
	const uint16_t *grid = rts_cgrid(s);
	uint8_t *occ = m->occ;
	for (int c = 0, cells = s->cells; c < cells; c++)
		occ[c] = (uint8_t)((terrain[c] != 0) | (grid[c] != 0));
	classify(m);
	attack_nearby(m);
	build_barracks(m);
	build_base(m);
	barracks_action(m);
	bases_action(m);
	if ((rc = worker_action(m)))
		return rc;
	if (should_workers_attack(m))
		go_combat(m, L_WORKERS);
	else
		free_blocks(m);
	go_combat(m, L_HEAVIES);
	go_combat(m, L_ARCHERS);
	go_combat(m, L_LIGHTS);
	/* fillWithNones(gs, player, 1) */
	for (int i = 0; i < s->n_units; i++) {
		if (us[i].u.player != player || us[i].slot >= 0 || m->has_act[i])
			continue;
		if (m->n_pa < m->cap_pa) {
			m->pa[m->n_pa].unit = us[i].u;
			m->pa[m->n_pa++].action = bot_act(MS_RTS_NONE, 1, -1);
		} else {
			m->pa_over++;
		}
	}
	if (m->pa_over)
		return ms_ctx_error(bot->ctx, MS_ERANGE, "%s: %d pairs in one decision, room for %d", bot->ops->name,
				    m->n_pa + m->pa_over, m->cap_pa);
	if (m->taken_over)
		return ms_ctx_error(bot->ctx, MS_ERANGE, "%s: %d cells locked in one decision, room for %d",
				    bot->ops->name, m->n_taken + m->taken_over, m->cap_taken);
	if (m->n_pa > max)
		return ms_ctx_error(bot->ctx, MS_ERANGE, "%s: %d pairs do not fit in %d", bot->ops->name, m->n_pa, max);
	memcpy(out, m->pa, sizeof(ms_rts_pair) * (size_t)m->n_pa);
	*n = m->n_pa;
	return MS_OK;
}

static int mayari_reset(ms_bot *b)
{
	mayari *m = b->impl;
	m->mem.n = 0;
	ms_jrandom_init(&m->rng, b->seed);
	return MS_OK;
}

static void mayari_free(ms_bot *b)
{
	mayari *m = b->impl;
	ms_ctx *ctx = b->ctx;
	if (!m)
		return;
	ms_vec_dispose(ctx, &m->mem);
	ms_vec_dispose(ctx, &m->taken_n);
	ms_vec_dispose(ctx, &m->prox_gen);
	ms_vec_dispose(ctx, &m->blk);
	bot_astar_dispose(ctx, &m->astar);
	bot_frame_dispose(ctx, &m->f);
	ms_ctx_mfree(ctx, m);
	b->impl = NULL;
}

static const ms_bot_ops mayari_ops = { "mayari", "mayariBot.mayari", mayari_reset, mayari_decide, mayari_free };

int bot_mayari_new(ms_bot *b, const char *arg)
{
	mayari *m = ms_ctx_calloc(b->ctx, 1, sizeof(mayari));
	const char *need[] = { "Worker", "Base", "Barracks", "Ranged", "Heavy", "Light" };
	int *ids[6];

	if (!m)
		return ms_ctx_error(b->ctx, MS_ENOMEM, "bot: out of memory");
	m->bot = b;
	b->impl = m;
	b->ops = &mayari_ops;
	ms_jrandom_init(&m->rng, b->seed);
	ids[0] = &m->worker, ids[1] = &m->base, ids[2] = &m->barracks, ids[3] = &m->ranged, ids[4] = &m->heavy;
	ids[5] = &m->light;
	for (int i = 0; i < 6; i++)
		if ((*ids[i] = ms_rts_utt_find(b->utt, need[i])) < 0)
			return ms_ctx_error(b->ctx, MS_EINVAL, "%s: the unit type table has no type \"%s\"", b->ops->name,
					    need[i]);
	return MS_OK;
}
