/* Planet Wars: the state's layout, shared by the engine, the bots and the GA. */
#ifndef MS_PW_INTERNAL_H
#define MS_PW_INTERNAL_H

#include "microsynth/planetwars.h"

/*
 * A state owns its planets, fleets and two distance tables: `dist` from the
 * coordinates it was given, `vdist` from those coordinates as the engine
 * prints them (what a bot computes). A view borrows its source's tables and
 * answers ms_pw_distance from `vdist`; every other state from `dist`.
 */
struct ms_pw_state {
	int np, nf, fcap;
	int turn;
	int is_view;
	int owns_tables;
	ms_pw_planet *planets;
	ms_pw_fleet *fleets;
	int *dist;             /* np x np */
	int *vdist;            /* np x np */
	ms_pw_planet *vplanets; /* planets with printed coordinates (owners unused) */
};

struct ms_pw_orders {
	ms_ctx *ctx;
	int n, cap;
	ms_pw_order *v;
};

static inline int pw_dist(const ms_pw_state *s, int a, int b)
{
	return (s->is_view ? s->vdist : s->dist)[a * s->np + b];
}

/* a + b for non-negative ints, saturated at INT_MAX (ships of absurd maps must not overflow) */
static inline int pw_sat_add(int a, int b)
{
	return a > 2147483647 - b ? 2147483647 : a + b;
}

/* The trip length the engine and the example bots compute: (int)ceil(sqrt(dx*dx + dy*dy)). */
int pw_trip(double ax, double ay, double bx, double by);

#endif
