/*
 * Native scripted MicroRTS bots: re-implementations of official Java bots
 * (WorkerRush, LightRush, HeavyRush, RangedRush, PassiveAI, RandomBiasedAI,
 * CoacAI, mayari)
 * that return, for the same sequence of states, the very PlayerAction the
 * Java bot returns in-process (same pairs, same order, same actions). The
 * action is what the bot returns *before* the engine's issueSafe: illegal
 * actions are kept, and idle units the bot does not command get NONE(10)
 * as Java's fillWithNones gives them.
 *
 * A bot keeps memory for a whole game (the abstraction layer's per-unit
 * abstract actions, keyed by unit id), so call decide once per cycle on
 * the states of one game, in order, and reset between games.
 */
#ifndef MICROSYNTH_BOTS_H
#define MICROSYNTH_BOTS_H

#include "microsynth/microrts.h"
#include "microsynth/memo.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ms_bot ms_bot;

/**
 * Editions of the official scripted bots (ai.abstraction.*) a native bot can
 * reproduce. MicroRTS builds differ in how the rushes and their Harvest
 * action treat a worker that carries resources:
 * - MS_PATH_EDITION_2022: the build inside gym-microrts 0.6.0 (the harness
 *   tools/setup.sh installs). A harvester is only assigned while both a
 *   resource and an own stockpile exist, whatever it carries; a worker left
 *   without them stays idle; Harvest ends when its resource is gone.
 * - MS_PATH_EDITION_2023: the official repository since 2023 (what the
 *   competitions run). A carrying worker is sent back to the nearest own
 *   stockpile even when no resource is left; workers that cannot harvest
 *   attack the nearest enemy; Harvest ends when the unit it heads for (the
 *   stockpile while carrying, else the resource) is gone.
 * AStarPathFinding was rewritten in that repository in Nov-Dec 2023, but the
 * rewrite chooses the same paths (same OPEN order and tie-breaking), so both
 * editions share the native A*. The name keeps "PATH" because the two
 * builds are told apart by that class (see docs/harness.md).
 */
enum { MS_PATH_EDITION_2022 = 0, MS_PATH_EDITION_2023 = 1 };

/** The operations of a bot; every native bot fills one of these. */
typedef struct ms_bot_ops {
	const char *name;       /**< short name, e.g. "WorkerRush" */
	const char *java_class; /**< the official class it reproduces */
	/** Forgets all per-game memory (AI.reset). */
	int (*reset)(ms_bot *bot);
	/**
	 * The player action for `player` in `state` (the state before issuing).
	 * Writes at most `max` pairs; `*n` receives how many the bot returns
	 * (MS_ERANGE when that exceeds `max`).
	 */
	int (*decide)(ms_bot *bot, int player, const ms_rts_state *state, ms_rts_pair *out, int max, int *n);
	/** Releases the bot's private data (not the ms_bot itself). */
	void (*free)(ms_bot *bot);
} ms_bot_ops;

/** A bot instance: its operations, owner context and private data. */
struct ms_bot {
	const ms_bot_ops *ops;
	ms_ctx *ctx;
	const ms_rts_utt *utt;
	int64_t seed;
	void *impl;
	int edition; /**< MS_PATH_EDITION_*; 0 (2022) after ms_bot_new */
	/** Moves of the last decision that the Java bot draws from an unseeded
	 * generator among two or more choices (CoacAI): when nonzero, the
	 * Java bot's decision is not reproducible. */
	int random_moves;
	/** 1 when the Java bot's last decision ran under a wall-clock budget
	 * that may have cut it (mayari on large maps): the jar's decision then
	 * depends on its speed; the native bot decides as with time to spare. */
	int clock_bound;
	/** 1: draw where the Java bot draws from an unseeded generator
	 * (ms_bot_set_stochastic); 0: the reproducible first choice. */
	int stochastic;
	/** Decisions of this bot that returned an error (ms_bot_decide counts
	 * them): after a failed match it tells which player failed. */
	int failures;
	/** Path searches' answers kept from match to match (ms_bot_set_memo); NULL: none. */
	ms_memo *memo;
};

/**
 * Creates the bot called `name` (case-insensitive; the Java simple or full
 * class name is accepted too: "WorkerRush", "ai.abstraction.WorkerRush").
 * `utt` must outlive the bot; `seed` seeds its own generator (only bots
 * that draw numbers use it). MS_ENOTFOUND for an unknown name, MS_EINVAL
 * when the table lacks a type the bot needs. Only native scripted bots:
 * programs and every other spec go through ms_bot_make (match.h).
 */
MS_EXTERN int ms_bot_new(ms_ctx *ctx, ms_bot **out, const char *name, const ms_rts_utt *utt, int64_t seed);

/**
 * The one way a bot is built: an ms_bot with `ops`, `ctx`, `utt`, `seed` and
 * `impl_size` zeroed bytes of private data in impl (none for 0), freed by
 * ms_bot_free (ops->free releases what impl points to). On failure *out is
 * NULL and MS_ENOMEM is reported as "WHAT: out of memory".
 */
MS_EXTERN int ms_bot_alloc(ms_ctx *ctx, ms_bot **out, const ms_bot_ops *ops, size_t impl_size, const ms_rts_utt *utt,
			   int64_t seed, const char *what);

/**
 * Selects the edition of the official bots `bot` reproduces (an
 * MS_PATH_EDITION_* value); bots without a scripted counterpart that
 * changed (PassiveAI, the random bots, programs) ignore it. Takes effect at
 * the next decision; call it before a game starts. MS_EINVAL for an unknown
 * edition (the bot keeps its edition).
 */
MS_EXTERN int ms_bot_set_edition(ms_bot *bot, int edition);

/**
 * on = 1: where the Java bot picks among two or more moves with an unseeded
 * generator (mayari's Collections.shuffle, CoacAI's new Random()), the
 * native bot draws with the same distribution from its own generator,
 * seeded with the bot's seed at every reset, so a match is reproducible
 * for a seed and varies between seeds. on = 0 (the default): the first
 * choice in a fixed order, as `botdiff` compares. Takes effect at the next
 * reset.
 */
MS_EXTERN int ms_bot_set_stochastic(ms_bot *bot, int on);

/**
 * Gives the bot a memo table for its path searches (NULL: none): a search
 * whose inputs it met before takes the answer from the table, so the
 * decisions are those without it. The table may serve every bot of one
 * thread, from match to match; the caller frees it after them. Program
 * bots take theirs in ms_rts_dsl_options.
 */
MS_EXTERN int ms_bot_set_memo(ms_bot *bot, ms_memo *memo);

/** 1 when the native bot called `name` has draws ms_bot_set_stochastic turns on (CoacAI, mayari). */
MS_EXTERN int ms_bot_draws_unseeded(const char *name);

/** Frees a bot; NULL is ignored. */
MS_EXTERN void ms_bot_free(ms_bot *bot);

/** Same as bot->ops->reset(bot). */
MS_EXTERN int ms_bot_reset(ms_bot *bot);

/** Same as bot->ops->decide(...). */
MS_EXTERN int ms_bot_decide(ms_bot *bot, int player, const ms_rts_state *state, ms_rts_pair *out, int max,
			    int *n);

/** Names of the native bots, NULL-terminated. */
MS_EXTERN const char *const *ms_bot_names(void);

/**
 * The native bot name matching a Java class name ("ai.abstraction.LightRush"
 * or "LightRush"), or NULL when there is none.
 */
MS_EXTERN const char *ms_bot_for_java_class(const char *java_class);

/* ---- matches ------------------------------------------------------------ */

/**
 * Plays `s` to its end as the official loop does: both bots decide on the
 * same state (each on its own partially observable view when `po`), player
 * 0's action is issued, then player 1's, then one cycle; until game over or
 * time `max_cycles` (a draw, winner -1, when both still have units). When
 * `trace` is not NULL each decision point is added to it (finish it with
 * ms_rts_trace_writer_finish). `*winner` receives ms_rts_winner at the end.
 */
MS_EXTERN int ms_bot_play(ms_ctx *ctx, ms_rts_state *s, ms_bot *const bots[2], int max_cycles, int po,
			  ms_rts_trace_writer *trace, int *winner);

/** Called after every cycle of ms_bot_play_observed; a nonzero return ends the match with that status. */
typedef int (*ms_bot_observer)(void *ud, const ms_rts_state *s);

/** ms_bot_play with `observe` (may be NULL) called after every cycle, e.g. to count what a player trains. */
MS_EXTERN int ms_bot_play_observed(ms_ctx *ctx, ms_rts_state *s, ms_bot *const bots[2], int max_cycles, int po,
				   ms_rts_trace_writer *trace, int *winner, ms_bot_observer observe, void *ud);

/**
 * Called every cycle once both players have decided, before their actions
 * are issued: the state they saw and each player's pairs as returned (what
 * a replay issues again). A nonzero return ends the match with that status.
 */
typedef int (*ms_bot_decisions)(void *ud, const ms_rts_state *s, const ms_rts_pair *const pairs[2],
				const int n[2]);

/** What ms_bot_play_hooked calls; either function may be NULL. */
typedef struct ms_bot_hooks {
	ms_bot_observer observe;
	ms_bot_decisions decisions;
	void *ud;
} ms_bot_hooks;

/** ms_bot_play with hooks (`h` may be NULL). */
MS_EXTERN int ms_bot_play_hooked(ms_ctx *ctx, ms_rts_state *s, ms_bot *const bots[2], int max_cycles, int po,
				 ms_rts_trace_writer *trace, int *winner, const ms_bot_hooks *h);

/* ---- path finding ------------------------------------------------------- */

/**
 * AStarPathFinding.findPathToPositionInRange as the official class computes
 * it, tie-breaking included: the first MOVE of a shortest path for the unit
 * at (sx, sy) towards any cell within Euclidean distance `range` of cell
 * `target` (x + y * width), avoiding cells that are not GameState.free and
 * the `n_reserved` cells of `reserved`. `*out` receives the MOVE, or type
 * -1 when there is none (already in range, or unreachable). The scratch
 * memory is allocated per call on `ctx`.
 */
MS_EXTERN int ms_bot_astar(ms_ctx *ctx, const ms_rts_state *state, int sx, int sy, int target, int range,
			   const int *reserved, int n_reserved, ms_rts_action *out);

/** ms_bot_astar through `memo` (NULL: none): the answer of a search whose inputs the table holds is taken from it. */
MS_EXTERN int ms_bot_astar_memo(ms_ctx *ctx, ms_memo *memo, const ms_rts_state *state, int sx, int sy, int target,
				int range, const int *reserved, int n_reserved, ms_rts_action *out);

#ifdef __cplusplus
}
#endif
#endif
