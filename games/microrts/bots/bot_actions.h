/*
 * The small action helpers the scripted bots share with the DSL's own action
 * layer (games/microrts/dsl): building unit actions, the cell an action
 * claims, and the abstraction layer's building-site search. The DSL sits
 * above the bots and includes only this header, never bots_internal.h, so
 * the bots' internals stay theirs and nothing in the bots calls up into the
 * DSL (programs become bots in games/microrts/match/factory.c).
 */
#ifndef MS_GAMES_MICRORTS_BOT_ACTIONS_H
#define MS_GAMES_MICRORTS_BOT_ACTIONS_H

#include "../engine/rts.h"
#include "core/hash.h"

/* Kinds of path search, apart in a memo table they share (bits 62-63 of the key's second word). */
#define BOT_PATH_BOTS (UINT64_C(1) << 62)   /* the bots' A* (astar.c) */
#define BOT_PATH_DSL 0                       /* the DSL layer's, claimed cells allowed */
#define BOT_PATH_DSL_RU (UINT64_C(1) << 63) /* the DSL layer's, claimed cells avoided */

/*
 * Mixes a path search's scalar inputs into a memo key that holds the
 * digests of its cell sets: start, map size, target and squared range,
 * packed without loss (sides below 65536, r2 below 2^30: ranges below
 * 32768), and the kind of search.
 */
static inline void bot_path_key(uint64_t key[2], int sx, int sy, int w, int h, int target, int r2, uint64_t kind)
{
	ms_memo_key_mix(key,
			(uint64_t)(uint16_t)sx | (uint64_t)(uint16_t)sy << 16 | (uint64_t)(uint16_t)w << 32 |
				(uint64_t)(uint16_t)h << 48,
			(uint64_t)(uint32_t)target | (uint64_t)(uint32_t)(r2 & 0x3fffffff) << 32 | kind);
}

/* findBuildingPosition: a cell index or -1. `reserved` has `n` cells. */
int bot_al_building_position(const ms_rts_state *s, const int *reserved, int n, int dx, int dy);

/* An abstract action's unit action (no target cell). */
static inline ms_rts_action bot_act(int type, int parameter, int unit_type)
{
	ms_rts_action a;
	a.type = type;
	a.parameter = parameter;
	a.x = a.y = -1;
	a.unit_type = unit_type;
	return a;
}

/* The linear cell an action of `u` claims (ResourceUsage) on a map `w` wide, or -1. */
static inline long bot_used_cell(int w, const ms_rts_unit *u, const ms_rts_action *a)
{
	if ((a->type != MS_RTS_MOVE && a->type != MS_RTS_PRODUCE) || a->parameter < 0 || a->parameter > 3)
		return -1;
	return (long)(u->x + rts_dx[a->parameter]) + (long)(u->y + rts_dy[a->parameter]) * w;
}

#endif
