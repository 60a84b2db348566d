/*
 * The JNI bot's native half, without JNI: one handle per Java MicrosynthAI
 * instance (its own context, unit type table, bot and state; nothing is
 * shared between handles), fed with the int arrays the Java side packs
 * (formats below, mirrored in java/src/ai/microsynth/MicrosynthAI.java).
 * jni_entry.c only converts Java arrays and strings and maps status codes
 * to exceptions; everything else is here, so it is tested in plain C.
 *
 * Unit type table, int[] (types in id order; names passed beside it):
 *   [0] MS_JNI_PACK_VERSION  [1] move-conflict policy  [2] number of types
 *   per type: ID cost hp minDamage maxDamage attackRange produceTime
 *             moveTime attackTime harvestTime returnTime harvestAmount
 *             sightRadius isResource isStockpile canHarvest canMove canAttack
 *             nProduces <ids...> nProducedBy <ids...>
 *
 * State, int[], once per decision (terrain comes once per game, separately):
 *   [0] time [1] stock of player 0 [2] stock of player 1 [3] units U
 *   [4] pending actions A [5] 0
 *   U units (MS_JNI_UNIT_INTS each, unit-list order):
 *     type player idLow idHigh x y resources hitpoints
 *   A pending actions (MS_JNI_PENDING_INTS each, execution order):
 *     unitX unitY idLow idHigh issuedAt type parameter x y unitType
 *   (an id is a Java long split in two ints; unitType -1 when unset)
 *
 * Decision, int[] (MS_JNI_PAIR_INTS per pair, in the bot's order):
 *   unitIndex type parameter x y unitType
 *   where unitIndex is the unit's position in the state array above.
 */
#ifndef MS_BRIDGE_JNI_AI_H
#define MS_BRIDGE_JNI_AI_H

#include <stddef.h>
#include <stdint.h>

#include "microsynth/common.h"

#define MS_JNI_PACK_VERSION 1
#define MS_JNI_TYPE_FIXED_INTS 19 /* before the produces list */
#define MS_JNI_STATE_HEADER 6
#define MS_JNI_UNIT_INTS 8
#define MS_JNI_PENDING_INTS 10
#define MS_JNI_PAIR_INTS 6

typedef struct ms_jni_ai ms_jni_ai;

/**
 * A handle playing the bot `spec` (anything ms_bot_make accepts: a native
 * bot name, later "program:FILE") with the table packed in `utt` and the
 * type names `names`. On failure `err` receives the message (the handle's
 * context is gone by then).
 */
int ms_jni_ai_new(ms_jni_ai **out, const char *spec, const int32_t *utt, int utt_len, const char *const *names,
		  int n_names, int64_t seed, char *err, size_t err_size);

/** Frees the handle and everything it owns; NULL is ignored. */
void ms_jni_ai_free(ms_jni_ai *ai);

/** The handle's context (its allocator and last error). */
ms_ctx *ms_jni_ai_ctx(ms_jni_ai *ai);

/** The message of the handle's last failure ("" if none). */
const char *ms_jni_ai_error(const ms_jni_ai *ai);

/** The bot's display name (the native bot's name, or the spec). */
const char *ms_jni_ai_bot_name(const ms_jni_ai *ai);

/**
 * Replaces the table (the game's table is not the constructor's): the bot
 * is rebuilt on it, so its per-game memory starts afresh. On failure the
 * handle keeps its previous table and bot.
 */
int ms_jni_ai_set_table(ms_jni_ai *ai, const int32_t *utt, int utt_len, const char *const *names, int n_names);

/** Replaces the bot by `spec`; on failure the previous bot stays. */
int ms_jni_ai_set_bot(ms_jni_ai *ai, const char *spec);

/** AI.reset: the bot forgets the game. */
int ms_jni_ai_reset(ms_jni_ai *ai);

/** The map of the coming decisions: w*h terrain cells, 0 free, else wall. */
int ms_jni_ai_set_map(ms_jni_ai *ai, int w, int h, const int8_t *terrain);

/**
 * One decision for `player` on the packed state: writes at most `out_len`
 * ints to `out` and returns the number of pairs (>= 0), or a negative
 * status with the message in ms_jni_ai_error. Pairs are kept only for the
 * player's own idle units, once each (the reply rules of the harness);
 * pending actions of units absent from the state (a partially observable
 * view) are ignored.
 */
int ms_jni_ai_decide(ms_jni_ai *ai, int player, const int32_t *state, int len, int32_t *out, int out_len);

/** AI.gameOver: the bot forgets the game and the per-game buffers are freed. */
int ms_jni_ai_game_over(ms_jni_ai *ai, int winner);

/** Nanoseconds spent in the bot's last decision (not in the import). */
int64_t ms_jni_ai_decide_ns(const ms_jni_ai *ai);

/**
 * Scratch arrays owned by the handle, grown to at least `in_len` and
 * `out_len` ints: where the JNI layer copies a Java array in and the reply
 * out, without an allocation per decision. 0, or MS_ENOMEM with both
 * pointers NULL.
 */
int ms_jni_ai_buffers(ms_jni_ai *ai, int in_len, int out_len, int32_t **in, int32_t **out);

/**
 * Pre-game synthesis (rts_synth.h, ms_rts_pregame) on the packed first
 * state, with the handle's table and terrain (set before): a copy of the
 * state is searched, so the bot and its next decisions are untouched. The
 * program (salve text) goes to res->program, on the handle's context
 * (ms_ctx_mfree(ms_jni_ai_ctx(ai), ...)). On failure the message is in
 * ms_jni_ai_error and nothing changed.
 */
struct ms_rts_pregame_options;
struct ms_rts_pregame_result;
int ms_jni_ai_pregame(ms_jni_ai *ai, const int32_t *state, int len, const struct ms_rts_pregame_options *o,
		      struct ms_rts_pregame_result *res);

/** Counters since creation: decisions made, pairs dropped by the reply rules. */
void ms_jni_ai_counters(const ms_jni_ai *ai, int64_t *decisions, int64_t *dropped);

#endif
