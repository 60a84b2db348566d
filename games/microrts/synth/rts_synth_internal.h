/*
 * The MicroRTS synthesis problem's insides, shared by its evaluation
 * (rts_synth.c) and its construction (rts_synth_new.c).
 */
#ifndef MS_GAMES_MICRORTS_SYNTH_RTS_SYNTH_INTERNAL_H
#define MS_GAMES_MICRORTS_SYNTH_RTS_SYNTH_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>

#include "microsynth/rts_synth.h"
#include "microsynth/match.h"
#include "microsynth/rts_dsl.h"
#include "games/microrts/synth/rts_observe.h"
#include "games/microrts/synth/rts_reach.h"

/*
 * O's share: the O score (at most 1 per match) of all 2 x maps x opponents
 * matches together stays below this, under Psi's resolution (half a match).
 */
#define O_TOTAL 0.25


/*
 * The counts of recent Psi matches, so that F(p) reuses the matches Psi
 * just played against the feature opponent instead of playing them again
 * (HSS measures F of every program its passes score). Matches are
 * deterministic, so a hit gives what a replay would. Direct-mapped by
 * program hash, opponent and shard. Every native Psi match fills it: HSS's
 * first pass runs before its first features() call, and observing a match
 * costs about 1% of playing it.
 */
enum { FCACHE_SLOTS = 1 << 14 };

/* Match memo entries per match slot (rts_reach.h): the current program of a search and its last few
 * neighbours that met the slot's matches somewhere else. */
enum { MATCH_MEMO_WAYS = 8 };
typedef struct fcache_entry {
	uint64_t hash;
	int opponent, shard, valid;
	double c[RF_COUNT];
} fcache_entry;

/*
 * An opponent as given, and a program opponent (program:FILE,
 * program-text:TEXT) parsed once when the problem is made, so its matches
 * hand it over in memory rather than parsing its text each time.
 */
typedef struct rts_opponent {
	char *spec;
	int java;            /* 1: a Java class, played in the JVM */
	ms_dsl_prog *prog;   /* a program opponent; NULL for the others */
} rts_opponent;

struct ms_rts_synth {
	ms_ctx *ctx;
	ms_dsl_grammar *g;
	int n_maps, n_opp;
	char **maps;            /* as given */
	const ms_rts_state **states; /* [map] first states in memory (borrowed; the array is ours), or NULL */
	int *max_cycles;        /* per map */
	rts_opponent *opp;      /* [n_opp] */
	int utt, conflict, edition, tiebreak;
	char *harness_jar, *harness_dir;
	int java_hang_ms;       /* official matches: a decision this long loses (0: the match default) */
	char *oracle, *c_opp;   /* NULL without C */
	double *oracle_f;       /* [map][seat][N_FEATURES] */
	int c_score;            /* MS_RTS_C_SCORE_* */
	struct rts_ascore *ascore; /* A: the oracle's recorded decisions, [map][seat] shards */
	double eps;             /* weight of O in tie-broken Psi */
	int for_prod, s_nt;     /* for(Unit u){S} and S, to wrap unbound programs */
	char *fingerprint;      /* the problem's settings, uncut (ms_buf) */
	ms_dsl_prog *prefix;    /* switch cases: played before switch_cycle, then the candidate */
	int switch_cycle;
	int opp_seeds;          /* >= 2: stochastic native opponents, this many seeds per seat */
	ms_synth_problem pb;
	pthread_mutex_t fc_mu;
	int fc_mu_ok;           /* fc_mu initialised */
	fcache_entry *fc;       /* [FCACHE_SLOTS] */
	atomic_int features_asked; /* features() ran: from then on native matches fill fc (before, none reads it) */
	rts_reach_memo *memo;   /* the match memo (rts_reach.h), or NULL when off */
	int memo_check;         /* play every match it answers too, and compare */
	int memo_replay;        /* try replays (rts_reach.h) */
	/* opponent faults met by evaluations, from any worker thread */
	atomic_long f_crashes, f_timeouts, f_errors;
};

typedef struct worker {
	ms_ctx *ctx;
	ms_match **nat;         /* [map] native contexts */
	ms_match **off;         /* [map] official contexts, opened on first use */
	int types[RF_TYPES];    /* type ids of rf_type_names (-1: none in the table) */
	rts_reach_prog rp;      /* the program's side of match memo lookups */
	rts_reach_rec rec;      /* the match being played, for the memo */
} worker;

/* A native (official 0) or official match context for map `map`. */
int rts_synth_open_match(const ms_rts_synth *rs, ms_ctx *ctx, int map, int official, ms_match **out);
/* The problem's callbacks and settings (ms_synth_problem), once rs is built. */
void rts_synth_fill_problem(ms_rts_synth *rs);

#endif
