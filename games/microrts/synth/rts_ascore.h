/*
 * The action score A of sketch learning on MicroRTS (issue 45): the share of
 * an oracle's issued unit actions that a program reproduces. The oracle's
 * matches against the C opponent (the same matches the O score observes)
 * are recorded once: at every cycle where the oracle issued actions, the
 * state it saw and its pairs. A program is then run on those states of one
 * (map, seat), in cycle order, by one interpreter (as a bot that had played
 * the oracle's match: its abstract actions carry from cycle to cycle), and
 * each oracle pair it issues alike (same unit, same action) counts. Waits
 * (NONE) are left out: the abstraction layer gives one to every free unit
 * without an action, so an idle program would reproduce them all.
 */
#ifndef MS_RTS_ASCORE_H
#define MS_RTS_ASCORE_H

#include "microsynth/dsl.h"
#include "microsynth/match.h"

typedef struct rts_ascore rts_ascore;

/* An empty data set of n_shards (map, seat) shards. */
int rts_ascore_new(ms_ctx *ctx, int n_shards, rts_ascore **out);
void rts_ascore_free(rts_ascore *a);
/* Plays the oracle in `seat` of match m against `opp`, recording into shard `shard`; a status. */
int rts_ascore_record(rts_ascore *a, ms_match *m, int shard, int seat, ms_match_player oracle, ms_match_player opp);
/* Oracle actions recorded in `shard` (all shards: shard < 0). */
long rts_ascore_actions(const rts_ascore *a, int shard);
/*
 * Program p on shard `shard`: *matched oracle actions reproduced out of
 * *total. A run-time error (MS_EILLEGAL, where the Java interpreter throws)
 * ends the program's part there: the actions after it count as missed.
 */
int rts_ascore_eval(const rts_ascore *a, ms_ctx *ctx, const ms_dsl_prog *p, int shard, double *matched,
		    double *total);

#endif
