/*
 * What one MicroRTS match shows of a seat's play (rts_observe.c): the
 * observer the synthesis problem (rts_synth.c) attaches to a match for the
 * O score's outcome features and for HSS's behavioural features.
 */
#ifndef MS_GAMES_MICRORTS_SYNTH_RTS_OBSERVE_H
#define MS_GAMES_MICRORTS_SYNTH_RTS_OBSERVE_H

#include <stdint.h>

#include "microsynth/microrts.h"

/* Features of one match, for the seat of interest: units trained per type, then these. */
enum { F_HARVESTED = MS_RTS_MAX_TYPES, F_DESTROYED, F_LOST, N_FEATURES };

/*
 * Behavioural features (see features()): the counts of one match, then
 * their bins. RF_TYPES are the unit types counted as trained, by name.
 */
enum { RF_WORKER, RF_LIGHT, RF_HEAVY, RF_RANGED, RF_BARRACKS, RF_BASE, RF_HARVESTED, RF_LOST, RF_DESTROYED,
       RF_ATTACKS, RF_FIRST_ATTACK, RF_COUNT };
enum { RF_TYPES = 6 };

/* One seat's counts so far; rts_observer_start fills it. */
typedef struct rts_observer {
	int seat;
	int64_t max_id;          /* highest unit id seen */
	int alive[2];            /* units per player at the last cycle */
	int res;                 /* the seat's resources at the last cycle */
	double f[N_FEATURES];
	int count_attacks;       /* 1: also count the seat's attack actions (behavioural features) */
	int attacks;             /* attack actions the seat's units started */
	int first_attack;        /* the cycle the first of them was issued at, -1: none */
} rts_observer;

/* Starts observing `seat` from the match's initial state. */
void rts_observer_start(rts_observer *o, const ms_rts_state *s, int seat);
/* The match observer (ms_bot_observer): called after every cycle with an rts_observer. */
int rts_observe(void *ud, const ms_rts_state *s);
/* 1 - sum|a - b| / sum(a + b) over N_FEATURES: 1 for identical outcomes, 0 for disjoint ones. */
double rts_similarity(const double *a, const double *b);
/* The behavioural counts of one observed match; types are the table's ids of RF_TYPES (-1: absent). */
void rts_match_counts(const rts_observer *o, const int types[RF_TYPES], double c[RF_COUNT]);

#endif
