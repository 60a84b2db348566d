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
	ms_ctx *ctx; /* its allocator: ms_pw_state_free needs no context */
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

/*
 * One planet's battle as the engine resolves it: `forces` per owner (0
 * neutral, 1, 2) scanned in that order; the largest force wins and keeps
 * its margin over the second (saturated at INT_MAX); equal top forces leave
 * *owner in place with no ships. The engine and the forecasting bot's
 * predictions both use it.
 */
static inline void pw_battle(const long long forces[3], int *owner, int *ships)
{
	long long ws = 0, ss = 0;
	int wo = 0;
	for (int o = 0; o < 3; o++) {
		long long v = forces[o];
		if (v > ss) {
			if (v > ws) {
				ss = ws;
				wo = o;
				ws = v;
			} else {
				ss = v;
			}
		}
	}
	if (ws > ss) {
		*ships = ws - ss > 2147483647 ? 2147483647 : (int)(ws - ss);
		*owner = wo;
	} else {
		*ships = 0;
	}
}

/* The trip length the engine and the example bots compute: (int)ceil(sqrt(dx*dx + dy*dy)). */
int pw_trip(double ax, double ay, double bx, double by);

/* What a target's gain may depend on (the forecasting bot's quantities for source p, target q). */
typedef struct pw_gain_in {
	int residue;   /* ships q will hold at the horizon (the attack sends residue + 1) */
	int growth;    /* of q */
	int dist;      /* trip p -> q */
	int horizon;   /* H */
	int enemy;     /* 1: q is the enemy's, 0: neutral */
	int ships;     /* q's ships now */
	int spare;     /* p's spare ships */
	double f1, f2, f3; /* the report's ratios (forecast.c) */
} pw_gain_in;

typedef double (*pw_gain_fn)(void *ud, const pw_gain_in *in);

/* The forecasting bot with weights `p` (MS_PW_FORECAST_PARAMS of them; forecast.c). */
int pw_forecast_new(ms_ctx *ctx, ms_pw_bot *out, const double *p);
/* program:FILE of the agent table: a gain program read from `path`, as a bot that owns it (dsl.c). */
int pw_program_file_bot(ms_ctx *ctx, ms_pw_bot *out, const char *path);

/* The forecasting bot with its target gain computed by `gain` instead of the 32 weights. */
int pw_forecast_new_gain(ms_ctx *ctx, ms_pw_bot *out, pw_gain_fn gain, void *gain_ud, const char *name);

#endif
