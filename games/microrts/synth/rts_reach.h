/*
 * The match memo of the synthesis problem (rts_reach.c): the result of a
 * native match kept with the part of the program the match read (the
 * interpreter's reach marks, rts_dsl.h) and what the match did, so that
 * another program that plays it alike gets the result without playing.
 *
 * Why it is exact: against a deterministic opponent from the same start, a
 * match is a function of the program's decisions, and a Random-free
 * program's decision in a state is a function of the nodes the decision
 * read (MS_RTS_DSL_REACH_READ) and of there being no loop where it ran a
 * subtree only for busy units (MS_RTS_DSL_REACH_BUSY). Places in two
 * programs are matched by their paths from the root. So:
 *  - a program that agrees with the kept one on every place the match read
 *    plays the same match (a change in dead code: the first test, cheap);
 *  - otherwise the places where they differ are known, and only the
 *    decisions that read one of them can decide otherwise: the match is
 *    replayed with its recorded actions (the engine alone, no opponent),
 *    the new program deciding at just those cycles; if it decides as the
 *    kept one did at each, it plays the same match (a change that did not
 *    matter where it was met).
 * Entries are per match slot (kind, opponent, map and seat), a few per
 * slot, the most recently used first, each slot under its own lock.
 */
#ifndef MS_GAMES_MICRORTS_SYNTH_RTS_REACH_H
#define MS_GAMES_MICRORTS_SYNTH_RTS_REACH_H

#include <stdint.h>

#include "microsynth/bots.h"
#include "microsynth/dsl.h"
#include "microsynth/memo.h"
#include "microsynth/rts_dsl.h"
#include "games/microrts/synth/rts_observe.h"

typedef struct rts_reach_memo rts_reach_memo;

/* What a match slot's evaluation gave: eval_vs's sum and weight, and the feature counts when it had them. */
typedef struct rts_reach_result {
	double sum, weight;
	int have_c;
	double c[RF_COUNT];
} rts_reach_result;

/* A cycle where the program's decision ran or a player issued pairs. */
typedef struct rts_reach_event {
	int cycle;
	int n[2];  /* pairs of players 0 and 1, from `off` on */
	int off;
	int dec;   /* the decision's marks (index of a run decision), -1: it did not run */
} rts_reach_event;

/* One match as it is played (rts_reach_record is its decisions hook; the worker owns it). */
typedef struct rts_reach_rec {
	ms_ctx *ctx;
	int n, seat;         /* program nodes; the program's seat */
	int cap_marks;       /* bytes: marks and all */
	uint8_t *marks;      /* [n] the interpreter's marks of the decision under way */
	uint8_t *all;        /* [n] the match's marks */
	rts_reach_event *ev;
	int n_ev, cap_ev;
	ms_rts_pair *pairs;
	int n_pairs, cap_pairs;
	uint8_t *dec;        /* [n_dec][n] each run decision's marks */
	int n_dec, cap_dec;  /* decisions; bytes held */
	int lost;            /* out of memory while recording: nothing to keep */
} rts_reach_rec;

/* A program's side of lookups and what replays need. The worker owns it. */
typedef struct rts_reach_prog {
	ms_ctx *ctx;
	const ms_dsl_prog *p;
	int32_t *fors;       /* [n + 1]: for loops among nodes [0, i) */
	int cap;
	int random;          /* the program draws Random targets: the memo does not describe it */
	/* replays: the start, a scratch state, the program's interpreter, pairs */
	const ms_rts_state *initial;
	ms_rts_state *s;
	ms_rts_dsl_interp *it;
	ms_memo *memo;       /* path searches' memo for the interpreter (may be NULL) */
	ms_rts_pair *buf;
	int cap_buf;
} rts_reach_prog;

/* A memo of `slots` match slots, `ways` entries each; it keeps its own context. */
int rts_reach_memo_new(ms_ctx *err, rts_reach_memo **out, int slots, int ways);
void rts_reach_memo_free(rts_reach_memo *m);

/* Sets `q` for `p`, whose matches start from `initial` (its buffers grow in q->ctx). */
int rts_reach_prog_set(rts_reach_prog *q, const ms_dsl_prog *p, const ms_rts_state *initial, ms_memo *memo);
void rts_reach_prog_dispose(rts_reach_prog *q);

/* Starts recording a match of a program of n nodes in `seat` (its buffers grow in r->ctx). */
int rts_reach_rec_start(rts_reach_rec *r, int n, int seat);
void rts_reach_rec_dispose(rts_reach_rec *r);
/* The decisions hook (bots.h) of a recorded match; ud is the rts_reach_rec. */
int rts_reach_record(void *ud, const ms_rts_state *s, const ms_rts_pair *const pairs[2], const int n[2]);

/*
 * 1 and *out when slot `slot` holds a match that q's program plays alike
 * (without replay, or with one when `replay` is set); 0 otherwise; an error
 * (negative) when a replay fails (q->ctx has it).
 */
int rts_reach_get(rts_reach_memo *m, int slot, rts_reach_prog *q, int replay, rts_reach_result *out);

/* Keeps the result of q's program in `slot` with what match recording `r` holds; `seconds`, the
 * match's CPU time (0: unknown), is what an answer in the slot saves. */
int rts_reach_put(rts_reach_memo *m, int slot, const rts_reach_prog *q, const rts_reach_rec *r,
		  const rts_reach_result *res, double seconds);

/* This thread's CPU seconds (0 without the clock): how matches and replays are timed for the memo. */
double rts_reach_cpu_seconds(void);

/* Lookups, answers without a replay, replays tried and replays that answered. */
typedef struct rts_reach_counts {
	long lookups, hits, replays, replay_hits;
} rts_reach_counts;
void rts_reach_get_counts(rts_reach_memo *m, rts_reach_counts *out);

#endif
