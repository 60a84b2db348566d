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

#include "../rts.h"

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
