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

/*
 * An empty data set of n_shards (map, seat) shards whose states use `utt`
 * (borrowed: it outlives the data set), or with utt NULL a table of its own
 * of that version and conflict policy (a match's table goes with the match,
 * so recorded states are moved onto this one, which is the same table).
 */
int rts_ascore_new(ms_ctx *ctx, int n_shards, const ms_rts_utt *utt, int version, int conflict, rts_ascore **out);
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

/*
 * A data set file (JSON lines, gzip when the name ends in .gz): a header
 * {"format":"microsynth-rts-dataset/1","oracle":..,"opponent":..,"maps":[..]},
 * then per recorded decision {"map":i,"seat":s,"state":GameState JSON,
 * "actions":PlayerAction JSON} (the official toJSON bytes), shards in order.
 */
int rts_ascore_save(const rts_ascore *a, const char *path, const char *const *maps, int n_maps, const char *oracle,
		    const char *opponent);
/*
 * Reads a data set for a problem whose maps are `maps` (names as given):
 * every map of the file must be one of them (its shards are placed there),
 * states read with `utt`. Errors name the file and line.
 */
int rts_ascore_load(ms_ctx *ctx, rts_ascore **out, const char *path, const char *const *maps, int n_maps,
		    const ms_rts_utt *utt, int version, int conflict);

#endif
