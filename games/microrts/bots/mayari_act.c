/*
 * mayari's actions (see mayari.c's head comment): a unit's pair, the cells
 * it locks, the path steps of moveTowards and findPath, productions.
 */
#include "mayari_internal.h"

void mayari_add_pair(mayari *m, int i, ms_rts_action a)
{
	if (m->n_pa >= m->cap_pa) { /* busy() keeps it to one pair per unit; counted, never written past */
		m->pa_over++;
		return;
	}
	m->pa[m->n_pa].unit = *U(m, i);
	m->pa[m->n_pa].action = a;
	m->n_pa++;
	m->has_act[i] = 1;
}

/* GameState.isUnitActionAllowed: a move needs an empty, in-map cell; the
 * cell a move or production takes must not be one pending actions take,
 * and a production must be affordable with the pending ones. */
int mayari_allowed(const mayari *m, int i, const ms_rts_action *a)
{
	const ms_rts_unit *u = U(m, i);
	const ms_rts_state *s = m->f.s;
	long c = bot_used_cell(m->f.w, u, a);

	if (a->type == MS_RTS_MOVE) {
		int x = u->x + rts_dx[a->parameter], y = u->y + rts_dy[a->parameter];
		if (outside(m, x, y) || terrain(m, x, y) == 1 || unit_at(m, x, y) >= 0)
			return 0;
	}
	if (c >= 0 && c < s->cells && m->f.pend[c])
		return 0;
	/* ResourceUsage.consistentWith checks the stock of a player only when
	 * pending actions use some of it */
	for (int p = 0; p < 2; p++) {
		int mine = a->type == MS_RTS_PRODUCE && u->player == p ? s->utt->types[a->unit_type].cost : 0;
		int sum = iadd(mine, m->f.pend_cost[p]);
		if (m->f.pend_cost[p] != 0 && sum > 0 && sum > s->resources[p])
			return 0;
	}
	return 1;
}

/* findPathToAdjacentPosition with locationsTaken reserved: a side or -1. */
static int astar_adjacent(mayari *m, int i, int tx, int ty)
{
	int dir;
	bot_astar_find(&m->astar, &m->f, U(m, i)->x, U(m, i)->y, tx + ty * m->f.w, 1, m->taken, m->n_taken, &dir);
	return dir;
}

/* A free neighbour of (ux, uy) has its distance: the field need not grow
 * further (the step takes the least distance first). */
static int near_reached(const mayari *m, int ux, int uy)
{
	static const int ox[4] = { -1, 0, 0, 1 }, oy[4] = { 0, 1, -1, 0 };
	for (int k = 0; k < 4; k++) {
		int x = ux + ox[k], y = uy + oy[k], c = x + y * m->f.w;
		if (!outside(m, x, y) && terrain(m, x, y) != 1 && unit_at(m, x, y) < 0 && m->prox_gen.v[c] == m->gen &&
		    m->prox[c] != INT_MAX)
			return 1;
	}
	return 0;
}

/* findPath's blocked cells: `occ` (walls and units, per decision) or taken. */
static int blocked(const mayari *m, int x, int y)
{
	int c = x + y * m->f.w;
	return outside(m, x, y) || m->occ[c] || m->taken_n.v[c];
}

/*
 * findPath: a breadth-first distance field from (tx, ty) over cells that
 * are free and not taken, up to `maxd` steps (the jar's level-by-level
 * lists hold duplicates but mark each cell at its BFS distance), then the
 * free neighbour of the unit with the least distance, ties to the nearest
 * to the target in Euclid (truncated) and then to the first of left, down,
 * up, right. -1 when no neighbour was reached. The unit's own cell is
 * occupied, so the jar's field always grows to its full radius; the native
 * one stops after the first level that reaches a free neighbour of the
 * unit, as the distances the step compares are then final (the Euclid
 * term is below 1000 on any map).
 */
static int field_step(mayari *m, int i, int tx, int ty, int maxd)
{
	int w = m->f.w, ux = U(m, i)->x, uy = U(m, i)->y;
	int *cur = m->fa, *nxt = m->fb, nc = 0, nn, d = 1;
	static const int ox[4] = { -1, 0, 0, 1 }, oy[4] = { 0, 1, -1, 0 };
	int best = INT_MIN, bx = -1, by = -1;

	if (++m->gen == 0) {
		memset(m->prox_gen.v, 0, sizeof(uint32_t) * (size_t)m->prox_gen.n);
		m->gen = 1;
	}
#define SEEN(c) (m->prox_gen.v[c] == m->gen)
	m->prox_gen.v[tx + ty * w] = m->gen;
	m->prox[tx + ty * w] = 0;
	for (int k = 0; k < 4; k++) {
		int x = tx + ox[k], y = ty + oy[k];
		if (!blocked(m, x, y) && !SEEN(x + y * w)) {
			m->prox_gen.v[x + y * w] = m->gen;
			m->prox[x + y * w] = INT_MAX; /* queued, distance set below */
			cur[nc++] = x + y * w;
		}
	}
	while (nc > 0 && d <= maxd && !near_reached(m, ux, uy)) {
		nn = 0;
		for (int k = 0; k < nc; k++) {
			int c = cur[k], x = c % w, y = c / w;
			m->prox[c] = d;
			for (int j = 0; j < 4; j++) {
				int x2 = x + ox[j], y2 = y + oy[j];
				if (blocked(m, x2, y2) || SEEN(x2 + y2 * w))
					continue;
				m->prox_gen.v[x2 + y2 * w] = m->gen;
				m->prox[x2 + y2 * w] = INT_MAX;
				nxt[nn++] = x2 + y2 * w;
			}
		}
		/* the jar stops once the unit's cell has a distance: only when
		 * the target is the unit's own cell */
		if (tx == ux && ty == uy)
			break;
		d++;
		int *t = cur;
		cur = nxt, nxt = t, nc = nn;
	}
	for (int k = 0; k < 4; k++) {
		int x = ux + ox[k], y = uy + oy[k], c, fit;
		if (outside(m, x, y) || terrain(m, x, y) == 1)
			continue;
		c = x + y * w;
		if (!SEEN(c) || m->prox[c] == INT_MAX || unit_at(m, x, y) >= 0)
			continue;
		fit = -1000 * m->prox[c] - (int)sq_dist(x, y, tx, ty);
		if (fit > best)
			best = fit, bx = x, by = y;
	}
#undef SEEN
	return bx < 0 ? -1 : to_dir(ux, uy, bx, by);
}

/* findPathAdjacent; time never runs out (see the header). */
static int path_adjacent(mayari *m, int i, int tx, int ty)
{
	int a = astar_adjacent(m, i, tx, ty), b;
	if (a < 0)
		return -1;
	if (m->clock_on && m->clock_read)
		m->bot->clock_bound = 1;
	b = field_step(m, i, tx, ty, m->f.s->n_units > 32 ? 42 : 64);
	return b >= 0 ? b : a;
}

int mayari_move_towards(mayari *m, int i, int tx, int ty)
{
	int dir = path_adjacent(m, i, tx, ty), fx, fy;
	ms_rts_action a;

	if (dir < 0)
		return 0;
	a = bot_act(MS_RTS_MOVE, dir, -1);
	if (!mayari_allowed(m, i, &a))
		return 0;
	step(m, U(m, i)->x, U(m, i)->y, dir, &fx, &fy);
	if (taken_has(m, fx, fy))
		return 0;
	mayari_add_pair(m, i, a);
	lock(m, fx, fy);
	return 1;
}

/* A uniform draw in [0, n). */
static int draw(ms_jrandom *r, int n)
{
	int32_t v = 0;
	ms_jrandom_next_int_bounded(r, n, &v);
	return v;
}

/* tryMoveAway (away = 1) and moveInDirection (away = 0) from/to unit b.
 * The jar tries the sides in a random order; see the header. */
int mayari_move_rel(mayari *m, int a, int b, int away)
{
	int ax = U(m, a)->x, ay = U(m, a)->y, bx = U(m, b)->x, by = U(m, b)->y;
	int d0 = dist_xy(ax, ay, bx, by), first = -1, ok = 0, fx = 0, fy = 0;

	for (int k = 0; k < 4; k++) {
		int nx, ny, d;
		ms_rts_action act = bot_act(MS_RTS_MOVE, dirs[k], -1);
		step(m, ax, ay, dirs[k], &nx, &ny);
		d = dist_xy(nx, ny, bx, by);
		if (away ? d <= d0 : d >= d0)
			continue;
		if (!pos_free(m, nx, ny, -1))
			continue;
		if (!mayari_allowed(m, away ? b : a, &act))
			continue;
		/* shuffle, then the first that qualifies: uniform over those
		 * that qualify, which is what reservoir sampling draws */
		ok++;
		if (ok == 1 || (m->bot->stochastic && draw(&m->rng, ok) == 0))
			first = dirs[k], fx = nx, fy = ny;
	}
	if (ok > 1)
		m->bot->random_moves++;
	if (first < 0)
		return 0;
	mayari_add_pair(m, a, bot_act(MS_RTS_MOVE, first, -1));
	lock(m, fx, fy);
	return 1;
}

int mayari_produce(mayari *m, int i, int dir, int type)
{
	const ms_rts_unit_type *t = &m->f.s->utt->types[type];
	ms_rts_action a;
	int fx, fy;

	if (busy(m, i) || m->f.s->resources[m->player] - m->used < t->cost)
		return 0;
	if (!pos_free(m, U(m, i)->x, U(m, i)->y, dir))
		return 0;
	if (dir < 0 || dir > 3)
		return 0; /* unreachable: the unit's own cell is never free */
	a = bot_act(MS_RTS_PRODUCE, dir, type);
	if (!mayari_allowed(m, i, &a))
		return 0;
	mayari_add_pair(m, i, a);
	step(m, U(m, i)->x, U(m, i)->y, dir, &fx, &fy);
	lock(m, fx, fy);
	if (type == m->barracks) {
		m->fbx[m->n_fb] = fx;
		m->fby[m->n_fb++] = fy;
	} else if (type == m->heavy) {
		m->future_heavies++;
	}
	m->used += t->cost;
	return 1;
}

int mayari_produce_wherever(mayari *m, int i, int type)
{
	for (int k = 0; k < 4; k++)
		if (mayari_produce(m, i, dirs[k], type))
			return 1;
	return 0;
}

/* harvest (kind HARVEST) and returnHarvest (kind RETURN) next to `t`. */
int mayari_next_to(mayari *m, int w, int t, int kind)
{
	ms_rts_action a;
	if (busy(m, w) || dist(m, w, t) != 1)
		return 0;
	a = bot_act(kind, to_dir(U(m, w)->x, U(m, w)->y, U(m, t)->x, U(m, t)->y), -1);
	if (!mayari_allowed(m, w, &a))
		return 0;
	mayari_add_pair(m, w, a);
	return 1;
}

/* isSeperated(b, enemies): no A* path from `b` to next to any enemy.
 * Kept until a cell is locked (the taken cells block the search). */
int mayari_separated(mayari *m, int b)
{
	const int *l = m->list[L_ENEMIES];
	int v = 1;
	if (m->sep_at[b] == m->n_taken + 1)
		return m->sep_v[b];
	for (int k = 0; k < m->n[L_ENEMIES] && v; k++)
		if (astar_adjacent(m, b, U(m, l[k])->x, U(m, l[k])->y) >= 0)
			v = 0;
	m->sep_at[b] = m->n_taken + 1;
	m->sep_v[b] = (uint8_t)v;
	return v;
}
