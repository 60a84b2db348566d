/*
 * Players and matches: the one way to make a bot from a spec, and the one
 * way to play a MicroRTS match, whichever engine plays it.
 *
 * The factory sits above the native scripted bots (bots.h) and the DSL
 * (rts_dsl.h): a spec names a native bot ("WorkerRush", or its Java class
 * "ai.abstraction.WorkerRush"), a program file ("program:FILE") or a
 * program's text ("program-text:TEXT"); a program already in memory becomes
 * a bot through ms_match_player_program.
 *
 * A match context (ms_match) is opened once per thread for one map and its
 * settings and plays any number of matches between any players:
 *  - MS_MATCH_NATIVE plays in the library's engine (ms_bot_play): players are
 *    native bots and programs; a Java class with no native twin is refused.
 *  - MS_MATCH_OFFICIAL plays in the official Java engine through the hosted
 *    JVM (jvm.h): players are Java classes (a native bot's name means the Java
 *    class it reproduces) and programs, which play through the drop-in bot
 *    (ai.microsynth.MicrosynthAI) and cross into the JVM as text once per
 *    match, parsed once there, never per decision. A Java AI that throws loses
 *    the match (the harness's rule); ours never takes the JVM down.
 * The same program therefore plays the same way on both backends, and a
 * synthesis problem scores candidates on either without writing files.
 */
#ifndef MICROSYNTH_MATCH_H
#define MICROSYNTH_MATCH_H

#include <stdint.h>
#include "microsynth/common.h"
#include "microsynth/bots.h"
#include "microsynth/dsl.h"
#include "microsynth/memo.h"
#include "microsynth/spec.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the bot factory ----------------------------------------------------- */

/**
 * A bot from a spec: a native bot's short or Java class name,
 * "program:FILE" or "program-text:TEXT" (any text form rts_dsl.h reads), or
 * "switch:FILE", "portfolio:FILE" (and their -text: forms), or
 * "fail-at:N:SPEC", SPEC failing (MS_ERROR) every decision from cycle N on:
 * fault injection, for tests of what survives a failing opponent.
 * `utt` must outlive the bot; `seed` seeds the bot's own generator; the bot
 * plays path-finding edition 2022 until ms_bot_set_edition. MS_ENOTFOUND for
 * an unknown name; parse errors name the file (or "program text"), line and
 * column.
 */
MS_EXTERN int ms_bot_make(ms_ctx *ctx, ms_bot **out, const char *spec, const ms_rts_utt *utt, int64_t seed);

/**
 * A row of MicroRTS's agent table (microsynth/spec.h): the form, and its
 * maker from the whole spec (its messages quote it), a unit type table and a
 * seed.
 */
typedef struct ms_rts_agent_row {
	ms_spec_form form;
	int (*make)(ms_ctx *ctx, ms_bot **out, const char *spec, const ms_rts_utt *utt, int64_t seed);
} ms_rts_agent_row;

/**
 * The agent table ms_bot_make decodes specs with (*n rows): first the
 * native bots (*n_native rows, the names of ms_bot_names, MS_SPEC_NONE), then
 * the forms with an argument (fail-at:, switch:, switch-text:, portfolio:,
 * portfolio-text:, program:, program-text:). n_native may be NULL.
 */
MS_EXTERN const ms_rts_agent_row *ms_rts_agents(int *n, int *n_native);

/**
 * 1 when ms_bot_make can build `spec` in the native engine: a native bot's
 * name, or one of the forms program:, program-text:, switch:, switch-text:,
 * portfolio:, portfolio-text:, fail-at: (their files and texts are read
 * only when the bot is made).
 */
MS_EXTERN int ms_bot_spec_native(const char *spec);

/**
 * The name of the row of ms_rts_agents that `spec` names as written
 * ("program", "program-text", "switch", ..., or a native bot's name), with
 * *arg the text after its ':' (NULL without one); NULL (and *arg NULL) for
 * anything else (a Java class name, a name in another case).
 */
MS_EXTERN const char *ms_bot_spec_form(const char *spec, const char **arg);

/**
 * The game length the MicroRTS competitions play on a map of this size:
 * 3000 cycles up to 8x8, 4000 to 16x16, 5000 to 24x24, 6000 to 32x32, 8000
 * above (the 2025 competition played its 16x16 maps for 5000; see
 * ms_match_competition_maps).
 */
MS_EXTERN int ms_match_competition_cycles(int width, int height);

/**
 * The names of the competitions' map sets, NULL-terminated: "2025" (its ten
 * public 16x16 maps), "2023" (open maps), "2023-hidden", "fresh" (round 4's held-out
 * maps of the current official repository), "held-out" (harness
 * maps no synthesis run of ours used). Java's runners (`evaluate --maps`)
 * keep the same table; a harness test checks that the two agree.
 */
MS_EXTERN const char *const *ms_match_competition_sets(void);

/**
 * The maps of competition set `set`, NULL-terminated, as paths under the
 * harness's maps/ folder (or bare names of the official repository's maps);
 * NULL for an unknown name. *n_maps (may be NULL) receives their count and
 * *cycles (may be NULL) the set's own game length, 0 when the length goes
 * by map size (ms_match_competition_cycles): 5000 for "2025".
 */
MS_EXTERN const char *const *ms_match_competition_maps(const char *set, int *n_maps, int *cycles);

/* ---- portfolio bots (games/microrts/match/portfolio.c) ------------------- */

/**
 * A portfolio bot: simulates, in slices of each decision's time, every
 * candidate program against every bot of a field from the game's first
 * state, first as whole games (the best over the field becomes the
 * opening), then after the opening; at its cycle it matches the enemy to
 * the nearest simulated field bot and plays the candidate that scored best
 * against it (docs/portfolio.md has the text form). ms_bot_make makes one
 * from "portfolio:FILE" or "portfolio-text:TEXT"; parse errors name the
 * file (or "portfolio text") and line. A simulation that fails stops the
 * simulations, never the game.
 */
MS_EXTERN int ms_rts_portfolio_bot_new(ms_ctx *ctx, ms_bot **out, const char *what, const char *text, size_t len,
				       const ms_rts_utt *utt, int64_t seed);

/** ms_rts_portfolio_bot_new from "portfolio:FILE" or "portfolio-text:TEXT"; MS_ENOTFOUND for other specs. */
MS_EXTERN int ms_rts_portfolio_bot_from_spec(ms_ctx *ctx, ms_bot **out, const char *spec, const ms_rts_utt *utt,
					     int64_t seed);

/** What a portfolio bot has done in its current game. */
typedef struct ms_rts_portfolio_info {
	const char *opponent; /**< field bot identified; "none" when none within the radius; NULL before the cycle */
	const char *program;  /**< the program it plays now */
	const char *opening;  /**< the opening: the configured one until the whole-game simulations chose */
	int opening_final;    /**< 1 once the opening can no longer change */
	long games, cycles;   /**< simulated games finished, simulated cycles */
	long failures;        /**< simulated games a bot failed in */
	long jobs_left;       /**< simulated games still to play */
	int chosen_games;     /**< simulated games of the program played, against the opponent identified */
	double chosen_score;  /**< its mean score in them (win 1, draw 0.5) */
} ms_rts_portfolio_info;

/** Fills `info` for a portfolio bot; MS_EINVAL for any other bot. */
MS_EXTERN int ms_rts_portfolio_bot_info(const ms_bot *b, ms_rts_portfolio_info *info);

/* ---- players ---------------------------------------------------------------- */

/** What plays one side of a match. */
typedef struct ms_match_player {
	/** A spec as ms_bot_make reads it, or a Java class (official backend); NULL when `program` is set. */
	const char *spec;
	/** A MicroRTS DSL program in memory (rts_dsl.h grammar), or NULL. */
	const ms_dsl_prog *program;
	/** With `program`, native backend only: played before `switch_cycle`, then `program` (a switch case). */
	const ms_dsl_prog *prefix;
	int switch_cycle;
	/** With `program` and no prefix, native backend only: NULL, or one byte per program node that the
	 *  match ORs the interpreter's reach marks into (rts_dsl.h, MS_RTS_DSL_REACH_*). */
	uint8_t *reach;
} ms_match_player;

/** A player for a spec (a native bot, program:FILE, program-text:TEXT, or a Java class). */
static inline ms_match_player ms_match_player_spec(const char *spec)
{
	ms_match_player p = { spec, NULL, NULL, 0, NULL };
	return p;
}

/** A player for a program held in memory. */
static inline ms_match_player ms_match_player_program(const ms_dsl_prog *program)
{
	ms_match_player p = { NULL, program, NULL, 0, NULL };
	return p;
}

/* ---- matches ---------------------------------------------------------------- */

typedef enum ms_match_backend {
	MS_MATCH_NATIVE = 0,  /**< the library's engine, in-process */
	MS_MATCH_OFFICIAL = 1 /**< the official Java engine in the hosted JVM */
} ms_match_backend;

/* Version 3 adds `initial`; version 2 options are still accepted. */
#define MS_MATCH_OPTIONS_VERSION 3

/** Settings of a match context; zero-initialise, set version and map (or initial). */
typedef struct ms_match_options {
	int version;             /**< MS_MATCH_OPTIONS_VERSION */
	int backend;             /**< ms_match_backend */
	/** Map file; a relative path that does not exist is looked up in the harness's maps/. With
	 *  `initial`, only the map's name in messages (may be NULL). */
	const char *map;
	int utt;                 /**< unit type table 1..3 (0: 2) */
	int conflict;            /**< move conflict policy 1..3 (0: 1) */
	int max_cycles;          /**< 0: 5000 */
	int partially_observable;
	int edition;             /**< native bots' path finding: MS_PATH_EDITION_* (native backend) */
	int64_t seed;            /**< seeds the bots' and the engine's generators */
	/** native backend: the players (programs and native bots) keep their path searches' answers from match
	 *  to match in a table of 2^memo_bits entries of this match context (ms_memo; the same decisions, fewer
	 *  searches when games share positions, as a synthesis's do); 0: by the map's size, 2^8 entries a cell within
	 *  [2^14, 2^20] (32x32: 2^18, 8 MiB); negative: no table */
	int memo_bits;
	/* official backend only */
	const char *harness_jar; /**< microsynth-harness.jar (required there) */
	const char *harness_dir; /**< NULL: $MICROSYNTH_HARNESS or ~/.cache/microsynth/harness */
	int time_budget;         /**< ms per decision for budgeted Java AIs (0: 100) */
	/** a Java decision still running after this many ms loses the match as timed out, so an AI
	 *  that hangs cannot stop a synthesis (0: 10,000; negative: no limit) */
	int hang_ms;
	/** 1: keep what Java AIs print; 0 (default): the JVM's stdout and stderr are discarded (competition
	 *  bots print warnings every cycle). Takes effect when this context starts the process's JVM. */
	int jvm_verbose;
	/* ---- version 3 ---- */
	/** native backend: matches start from a copy of this state instead of a map file (a game's
	 *  first state as a harness hands it to a bot); it and its unit type table are borrowed and
	 *  must outlive the context, and `utt`/`conflict` are then the table's. Builds without map
	 *  files (the drop-in bot's library) take only this form. */
	const ms_rts_state *initial;
} ms_match_options;

/**
 * Zero-initialises `opts` and sets its version (MS_MATCH_OPTIONS_VERSION): 0, or MS_EINVAL for a
 * version this build does not know.
 */
MS_EXTERN int ms_match_options_init(ms_match_options *opts, unsigned int version);

/** The end of one match. */
typedef struct ms_match_result {
	int winner;    /**< 0, 1, or -1 for a draw */
	int cycles;    /**< the cycle the match ended at */
	int crashed;   /**< official backend: the player whose AI threw (it lost), else -1 */
	int timed_out; /**< official backend: the player the harness's time check stopped (it lost), else -1 */
} ms_match_result;

typedef struct ms_match ms_match;

/**
 * Opens a match context: loads the map and its unit type table once (native
 * backend) or starts/joins the process's JVM (official backend). Errors name
 * the map or the JVM's problem.
 */
MS_EXTERN int ms_match_new(ms_ctx *ctx, ms_match **out, const ms_match_options *opts);
MS_EXTERN void ms_match_free(ms_match *m);

/** The counters of the match context's memo table (all 0 before a native match, or without a table). */
MS_EXTERN void ms_match_memo_stats(const ms_match *m, ms_memo_stats *out);

/**
 * Seeds the following matches as ms_match_options.seed would (the engine's
 * and the bots' generators); stochastic = 1 makes native bots draw where
 * the Java bots draw unseeded numbers (ms_bot_set_stochastic).
 */
MS_EXTERN int ms_match_reseed(ms_match *m, int64_t seed, int stochastic);

/**
 * Seeds a MicroRTS state's conflict and damage generators as the Java
 * runner Match seeds GameState.r and UnitAction.r for a game seeded `seed`
 * (ms_jrandom_match_seed); ms_match_new and ms_match_reseed do this.
 */
MS_EXTERN void ms_match_seed_state(ms_rts_state *s, int64_t seed);

/**
 * Plays one match, players[0] as player 0. `trace` (NULL: none) receives
 * the official trace (XML, or zipped when it ends in .zip). The result does
 * not depend on earlier matches of the context. A program or bot that fails
 * during the match is an error naming the player and cycle (native), or a
 * loss of that player (official, the harness's rule). Natively `res` is
 * then filled as the harness scores it too: `crashed` names the player
 * that failed (-1 when it was not a decision, e.g. out of memory), `winner`
 * the other one.
 */
MS_EXTERN int ms_match_play(ms_match *m, const ms_match_player players[2], const char *trace,
			    ms_match_result *res);

/**
 * The native backend's ms_match_play with `observe` (bots.h; may be NULL)
 * called on the state after every cycle. MS_EUNSUPPORTED on the official
 * backend, whose cycles run in the JVM.
 */
MS_EXTERN int ms_match_play_observed(ms_match *m, const ms_match_player players[2], ms_bot_observer observe,
				     void *ud, ms_match_result *res);

/** ms_match_play_observed with both hooks of bots.h (`h` may be NULL); native backend only. */
MS_EXTERN int ms_match_play_hooked(ms_match *m, const ms_match_player players[2], const ms_bot_hooks *h,
				   ms_match_result *res);

/**
 * The path searches' memo the context's matches share (made on first use;
 * *out is NULL when the context keeps none): a caller deciding for a
 * program in this context's states (a replay) reuses its answers.
 * MS_EUNSUPPORTED on the official backend; MS_ENOMEM.
 */
MS_EXTERN int ms_match_path_memo(ms_match *m, ms_memo **out);

/** The native backend's state every match starts from (NULL for official). */
MS_EXTERN const ms_rts_state *ms_match_initial_state(const ms_match *m);

/** The map's width and height (native backend; 0 for official). */
MS_EXTERN void ms_match_map_size(const ms_match *m, int *width, int *height);

/** The native backend's state at the end of the last match (NULL before one, or official). */
MS_EXTERN const ms_rts_state *ms_match_final_state(const ms_match *m);
/** The unit type table matches are played with (native backend; NULL for official). */
MS_EXTERN const ms_rts_utt *ms_match_utt(const ms_match *m);

#ifdef __cplusplus
}
#endif
#endif
