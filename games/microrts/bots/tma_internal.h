/*
 * TMA's state and the helpers its three files share: tma.c (the macro
 * layer that picks and tunes a strategy, the decision loop, the four
 * strategies' rules), tma_act.c (the unit actions the strategies build:
 * attack, harvest, build, train, approach, scout) and tma_path.c (the
 * searches the shared A* does not give: path lengths, and the scouts'
 * search that walks through resources).
 */
#ifndef MS_GAMES_MICRORTS_BOTS_TMA_H
#define MS_GAMES_MICRORTS_BOTS_TMA_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bots_internal.h"

/* An action the Java methods return as null. */
#define TMA_NULL (-1)

/* Scratch of tma_path.c's searches, grown to the largest map seen. */
typedef struct tma_path {
	int cap, cap_f;
	uint32_t gen;
	uint32_t *mark;            /* [cells] == gen: looked at in this search */
	int *parent, *cost, *next; /* [cells] */
	int *head;                 /* [cap_f] last cell pushed with that f, -1: none */
} tma_path;

/* The unit counts' slots (TMA's playerUnits and enemyUnits). */
enum { TMA_WORKER, TMA_LIGHT, TMA_HEAVY, TMA_RANGED, TMA_BASE, TMA_BARRACKS, TMA_KINDS };

typedef struct tma {
	ms_bot *bot;
	bot_frame f;
	bot_astar astar;
	tma_path path;
	int worker, light, heavy, ranged, base, barracks; /* type ids */

	/* The instance's fields, kept for the game (reset forgets them). */
	int initialized, map_max;
	int has_main, main_x, main_y; /* mainBase: only its cell is read, and bases stand still */
	int has_enemy_base, eb_x, eb_y;
	/* closestEnemy: never set back to null; read where it is when seen
	 * last (a live Java object moves with its unit) */
	int has_closest;
	int64_t closest_id;
	int closest_x, closest_y, closest_hint;
	int base_to_enemy_base; /* 9999 until both bases were seen; kept when one is gone */
	int real_base_to_enemy; /* 0: not measured; -1: no enemy reachable from mainBase */
	int weight_ad[2], weight_wm[3];

	/* The decision's macro figures. */
	int pu[TMA_KINDS], eu[TMA_KINDS];
	int base_to_res, enemy_to_base, player_to_enemy_base;

	/* The strategy chosen (rush: attack side; mil: military side) and
	 * what CalibrateStrategy set on it. */
	int rush, mil;
	int n_harvest, prod[3], tot_barracks, threshold;

	/* The decision (scratch of the frame's arena). */
	int player, res;
	uint8_t *taken;   /* [cells] the cell of an accepted pair */
	uint8_t *in_pa;   /* [units] the unit has an accepted pair */
	int *ru, n_ru;    /* cells of the accepted pairs, in order (the strategies' ResourceUsage) */
	int acc_cost[2];  /* stock of the accepted pairs per player */
	ms_rts_pair *pa;
	int n_pa;
	int *wl, n_wl;    /* the workers' list: units ... */
	ms_rts_action *wa; /* ... and their actions (TMA_NULL kept) */
	int *pos;         /* candidate cells (12 at most) */
} tma;

static inline const ms_rts_unit *TU(const tma *t, int i)
{
	return &rts_cunits(t->f.s)[i].u;
}

static inline const ms_rts_unit_type *TT(const tma *t, int i)
{
	return &t->f.s->utt->types[TU(t, i)->type];
}

static inline int tma_busy(const tma *t, int i)
{
	return rts_cunits(t->f.s)[i].slot >= 0;
}

static inline int tma_dist(int ax, int ay, int bx, int by)
{
	return abs(ax - bx) + abs(ay - by);
}

static inline int tma_udist(const tma *t, int a, int b)
{
	return tma_dist(TU(t, a)->x, TU(t, a)->y, TU(t, b)->x, TU(t, b)->y);
}

static inline int tma_wall(const tma *t, int x, int y)
{
	return rts_cterrain(t->f.s)[x + y * t->f.w] != 0;
}

static inline int tma_is_resource(const tma *t, int i)
{
	return TT(t, i)->is_resource;
}

static inline ms_rts_action tma_null(void)
{
	return bot_act(TMA_NULL, -1, -1);
}

/* tma_path.c */
int tma_path_grow(ms_ctx *ctx, tma_path *p, int cells);
void tma_path_dispose(ms_ctx *ctx, tma_path *p);
/* findDistToPositionInRange: the steps of the shortest path, -1 when none. */
int tma_path_dist(tma_path *p, const bot_frame *f, int sx, int sy, int target, int range);
/* ScoutPathFinding.findPathToPositionInRange (resources passable, the
 * `n` cells of `reserved` not): the first step's direction or -1, and
 * *harvest = 1 when that step holds a resource. */
int tma_path_scout(tma_path *p, const bot_frame *f, int sx, int sy, int target, int range, const int *reserved,
		   int n, int *harvest);

/* tma_act.c */
int tma_allowed(const tma *t, int i, const ms_rts_action *a);
int tma_step(tma *t, int i, int target, int range);
ms_rts_action tma_attack(tma *t, int u, int target);
ms_rts_action tma_scout(tma *t, int u, int target);
ms_rts_action tma_idle(tma *t, int u);
ms_rts_action tma_move(tma *t, int u, int dest);
ms_rts_action tma_harvest(tma *t, int u, int target, int base);
ms_rts_action tma_build(tma *t, int u, int type, int x, int y);
ms_rts_action tma_train(tma *t, int u, int type);
int tma_eval_target(const tma *t, int u, int target);
int tma_positions_in_radius(const tma *t, int u, int radius, int *out);
int tma_free_around(const tma *t, int u, int *out);
int tma_chokepoint(const tma *t, int x, int y);
int tma_bad_spot(const tma *t, int x, int y);
int tma_predominant(const tma *t, int u, int width, int height);
int tma_future_pos(const tma *t, int u);

#endif
