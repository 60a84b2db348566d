/*
 * mayari's state and the helpers its two files share: mayari.c (the
 * decision: unit lists, the Java methods' rules) and mayari_act.c (turning
 * choices into pairs: locks, path steps, moves, productions).
 */
#ifndef MS_GAMES_MICRORTS_BOTS_MAYARI_H
#define MS_GAMES_MICRORTS_BOTS_MAYARI_H

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bots_internal.h"
#include "core/vec.h"

/* The bot's order of sides (its _dirs list): up, down, left, right. */
static const int dirs[4] = { MS_RTS_UP, MS_RTS_DOWN, MS_RTS_LEFT, MS_RTS_RIGHT };

enum { L_RES, L_BASES, L_BARRACKS, L_WORKERS, L_HEAVIES, L_ARCHERS, L_LIGHTS, L_ALLY, L_ALLY_COMBAT, L_EBASES,
       L_EBARRACKS, L_EWORKERS, L_EHEAVIES, L_EARCHERS, L_ELIGHTS, L_ENEMIES, L_ENEMIES_COMBAT, L_N };

typedef struct mayari {
	ms_bot *bot;
	bot_frame f;
	bot_astar astar;
	int worker, base, barracks, ranged, heavy, light;
	MS_VEC(int64_t) mem; /* _memHarvesters: worker ids, in the order taken */
	/* per decision, carved from blk (see scratch()) */
	int *list[L_N];
	int n[L_N];
	int *dmg;       /* [units] _newDmgs */
	int *has_act;   /* [units] the unit has a pair in the action */
	int *cnt;       /* [units] harvesters counted per base, -1: no entry */
	int *ws, *bs, *cand, *tmp;
	int *sep_at;    /* [units] separated(): n_taken + 1 when computed this decision, 0: not */
	uint8_t *sep_v; /* [units] its value */
	int *score;
	int *taken;     /* _locationsTaken, in order (duplicates kept) */
	int n_taken;
	int cap_taken;  /* room in taken; a lock past it fails the decision */
	ms_jrandom rng; /* the shuffle's draws when the bot is stochastic */
	int taken_over; /* locks refused this decision */
	int pa_over;    /* pairs refused this decision (room: cap_pa) */
	/* [cells] how often the cell is in taken: kept between decisions
	 * (zeroed lock by lock, cheaper than a map per decision) */
	MS_VEC(uint16_t) taken_n;
	uint8_t *occ;   /* [cells] a wall (terrain != 0) or a unit, this decision */
	int *prox;      /* [cells] distance field of findPath */
	MS_VEC(uint32_t) prox_gen; /* [cells] kept: prox[c] is this search's when prox_gen[c] == gen */
	uint32_t gen;
	int *fa, *fb;   /* [cells] frontiers */
	int *fbx, *fby; /* _futureBarracks */
	int n_fb;
	ms_rts_pair *pa;
	int n_pa, cap_pa;
	/* the block the per-decision arrays are carved from (scratch()): kept between decisions,
	 * carved again only when the sizes change or it moves */
	MS_VEC(char) blk;
	size_t carve_cap, carve_cells;
	int used;       /* _resourcesUsed */
	int future_heavies, enemy_future_heavy;
	int player;
	int clock_on, clock_read;
} mayari;

static inline const ms_rts_unit *U(const mayari *m, int i)
{
	return &rts_cunits(m->f.s)[i].u;
}

static inline const ms_rts_unit_type *T(const mayari *m, int i)
{
	return &m->f.s->utt->types[U(m, i)->type];
}

/* Java's int + and * (wrapping). */
static inline int iadd(int a, int b)
{
	return (int)(int32_t)((uint32_t)a + (uint32_t)b);
}

static inline int imul(int a, int b)
{
	return (int)(int32_t)((uint32_t)a * (uint32_t)b);
}

static inline int outside(const mayari *m, int x, int y)
{
	return x < 0 || y < 0 || x >= m->f.w || y >= m->f.h;
}

static inline int terrain(const mayari *m, int x, int y)
{
	return rts_cterrain(m->f.s)[x + y * m->f.w];
}

static inline int unit_at(const mayari *m, int x, int y)
{
	return rts_unit_at(m->f.s, x, y);
}

/* futurePos(x, y, dir): one step, staying on the map; other values stay put. */
static inline void step(const mayari *m, int x, int y, int dir, int *ox, int *oy)
{
	*ox = x, *oy = y;
	if (dir == MS_RTS_DOWN)
		*oy = y == m->f.h - 1 ? y : y + 1;
	else if (dir == MS_RTS_UP)
		*oy = y == 0 ? y : y - 1;
	else if (dir == MS_RTS_RIGHT)
		*ox = x == m->f.w - 1 ? x : x + 1;
	else if (dir == MS_RTS_LEFT)
		*ox = x == 0 ? x : x - 1;
}

/* futurePos(unit): where its pending move ends. */
static inline void future(const mayari *m, int i, int *x, int *y)
{
	const rts_unit *u = &rts_cunits(m->f.s)[i];
	*x = u->u.x, *y = u->u.y;
	if (u->slot >= 0) {
		const ms_rts_action *a = &rts_cassigns(m->f.s)[u->slot].action;
		if (a->type == MS_RTS_MOVE)
			step(m, u->u.x, u->u.y, a->parameter, x, y);
	}
}

static inline int to_dir(int sx, int sy, int dx, int dy)
{
	int ddx = dx - sx, ddy = dy - sy;
	if (abs(ddx) > abs(ddy))
		return ddx > 0 ? MS_RTS_RIGHT : MS_RTS_LEFT;
	return ddy > 0 ? MS_RTS_DOWN : MS_RTS_UP;
}

static inline int dist_xy(int ax, int ay, int bx, int by)
{
	return abs(ax - bx) + abs(ay - by);
}

static inline int dist(const mayari *m, int a, int b)
{
	return dist_xy(U(m, a)->x, U(m, a)->y, U(m, b)->x, U(m, b)->y);
}

static inline double sq_dist(int ax, int ay, int bx, int by)
{
	int dx = ax - bx, dy = ay - by;
	return sqrt((double)(dx * dx + dy * dy));
}

static inline int in_range(const mayari *m, int a, int r)
{
	return sq_dist(U(m, a)->x, U(m, a)->y, U(m, r)->x, U(m, r)->y) <= T(m, a)->attack_range;
}

static inline int enemy(const mayari *m, int i)
{
	return U(m, i)->player >= 0 && U(m, i)->player != m->player;
}

static inline int busy(const mayari *m, int i)
{
	return m->has_act[i] || rts_cunits(m->f.s)[i].slot >= 0;
}

static inline int taken_has(const mayari *m, int x, int y)
{
	return m->taken_n.v[x + y * m->f.w] > 0;
}

static inline void lock(mayari *m, int x, int y)
{
	int c = x + y * m->f.w;
	if (m->n_taken >= m->cap_taken) {
		m->taken_over++;
		return;
	}
	m->taken[m->n_taken++] = c;
	m->taken_n.v[c]++;
}

/* posFree(x, y, dir) */
static inline int pos_free(const mayari *m, int x, int y, int dir)
{
	int px, py;
	step(m, x, y, dir, &px, &py);
	return !taken_has(m, px, py) && unit_at(m, px, py) < 0 && terrain(m, px, py) != 1;
}

/* closest(pos, units): the first at the least Manhattan distance, or -1. */
static inline int closest(const mayari *m, int x, int y, const int *l, int n)
{
	int best = -1, bd = INT_MAX;
	for (int k = 0; k < n; k++) {
		int d = dist_xy(x, y, U(m, l[k])->x, U(m, l[k])->y);
		if (d < bd)
			bd = d, best = l[k];
	}
	return best;
}

/* minDistance(pos, positions of units) */
static inline int min_dist(const mayari *m, int x, int y, const int *l, int n)
{
	int md = INT_MAX;
	for (int k = 0; k < n; k++) {
		int d = dist_xy(x, y, U(m, l[k])->x, U(m, l[k])->y);
		if (d < md)
			md = d;
	}
	return md;
}

static inline void drop(int *l, int *n, int v)
{
	for (int k = 0; k < *n; k++)
		if (l[k] == v) {
			memmove(&l[k], &l[k + 1], sizeof(int) * (size_t)(*n - k - 1));
			(*n)--;
			return;
		}
}


/* mayari_act.c */
void mayari_add_pair(mayari *m, int i, ms_rts_action a);
int mayari_allowed(const mayari *m, int i, const ms_rts_action *a);
int mayari_move_towards(mayari *m, int i, int tx, int ty);
int mayari_move_rel(mayari *m, int a, int b, int away);
int mayari_produce(mayari *m, int i, int dir, int type);
int mayari_produce_wherever(mayari *m, int i, int type);
int mayari_next_to(mayari *m, int w, int t, int kind);
int mayari_separated(mayari *m, int b);

#endif
