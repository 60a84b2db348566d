/*
 * Can't Stop as the reference Python code of the sketch-learning papers
 * plays it (spec/cantstop.md): the rules of era A (era B as an option), the
 * legal-action lists in the reference's order, the GA player of Glenn &
 * Aloi, the random player, the DSL's domain functions, matches and win-rate
 * evaluation, and the behavioural-cloning data sets and scores.
 *
 * A state is a flat struct (a clone is an assignment) that carries its own
 * dice generator. Players are structs of function pointers; a DSL program
 * becomes a player through ms_cs_player_program. Nothing here allocates
 * except the data sets, and nothing is global: every random draw comes from
 * a generator seeded explicitly by the caller.
 *
 * Conventions. Columns are numbered 2..12 and arrays indexed by column have
 * MS_CS_COLUMNS entries (0 and 1 unused). Cells are numbered 0 (bottom) to
 * height-1 (top). Players are 1 and 2; player 1 moves first in every game.
 * Functions that can fail return 0 or a negative MS_E* code and, when given
 * a context, leave a message in it (ctx may be NULL where documented).
 */
#ifndef MICROSYNTH_CANTSTOP_H
#define MICROSYNTH_CANTSTOP_H

#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include "microsynth/common.h"
#include "microsynth/spec.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MS_CS_COLUMNS 13      /**< length of arrays indexed by column */
#define MS_CS_FIRST_COLUMN 2
#define MS_CS_LAST_COLUMN 12
#define MS_CS_MAX_HEIGHT 13   /**< height of column 7 */
#define MS_CS_MAX_ACTIONS 6   /**< longest legal column-action list */
#define MS_CS_MAX_NEUTRALS 11 /**< entries of neutral_positions (3 in play; more only in a score's replay) */
#define MS_CS_DEFAULT_MAX_DECISIONS 300 /**< the evaluation loop's cap (spec 2.9) */
#define MS_CS_GA_THRESHOLD 29 /**< GA's threshold, also the program wrapper's (spec 5.6) */

/** Rule variants (spec 1, 2.13). */
enum { MS_CS_ERA_A = 0, MS_CS_ERA_B = 1 };

/** Number of cells of column c (3,5,...,13,...,3), 0 outside 2..12. */
MS_EXTERN int ms_cs_height(int c);

/* ---- random numbers ----------------------------------------------------- */

/** A small seeded generator (SplitMix64); copy it to fork the stream. */
typedef struct ms_cs_rng {
	uint64_t s;
} ms_cs_rng;

MS_EXTERN void ms_cs_rng_seed(ms_cs_rng *r, uint64_t seed);
MS_EXTERN uint64_t ms_cs_rng_next(ms_cs_rng *r);
/** Uniform integer in [0, n), unbiased; n >= 1. */
MS_EXTERN uint32_t ms_cs_rng_below(ms_cs_rng *r, uint32_t n);

/* ---- moves -------------------------------------------------------------- */

/** What a move is: advance in columns, or answer a yes/no decision. */
enum {
	MS_CS_MOVE_COLUMNS = 0, /**< a tuple of one or two columns */
	MS_CS_MOVE_YES = 1,     /**< 'y': keep rolling */
	MS_CS_MOVE_NO = 2       /**< 'n': stop, the turn's progress becomes permanent */
};

/**
 * A move. For MS_CS_MOVE_COLUMNS, `n` (1 or 2) columns in `col`, in tuple
 * order; a double such as (7,7) has n = 2 and advances twice. Legal lists
 * hold normalised tuples (pairs ascending), as the reference compares them.
 */
typedef struct ms_cs_move {
	int8_t kind;
	int8_t n;
	int8_t col[2];
} ms_cs_move;

/** 1 if a and b are the same move (same kind; same columns in order). */
MS_EXTERN int ms_cs_move_equal(const ms_cs_move *a, const ms_cs_move *b);

/**
 * Writes a move as the data-set format does: "y", "n", "7" or "2,12".
 * Returns the length written (buffers of 8 bytes always suffice).
 */
MS_EXTERN int ms_cs_move_format(const ms_cs_move *m, char *buf, size_t size);

/** Parses "y", "n", "c" or "a,b" (columns 2..12, kept in the given order). */
MS_EXTERN int ms_cs_move_parse(ms_ctx *ctx, ms_cs_move *m, const char *text);

/* ---- state -------------------------------------------------------------- */

/**
 * A game state: the reference's `Game` in flat form. Fields are public so
 * tests and domain functions read them directly; change them only through
 * the functions below (or ms_cs_state_parse) to keep them consistent.
 */
typedef struct ms_cs_state {
	int8_t neutral[MS_CS_COLUMNS];   /**< cell of the neutral marker in column c, -1 if none */
	int8_t marker[3][MS_CS_COLUMNS]; /**< [player][c]: cell of the permanent marker, -1 if none */
	int8_t owner[MS_CS_COLUMNS];     /**< finished_columns: 1 or 2 who claimed c, 0 if open */
	uint8_t finished[3];             /**< [player]: entries of finished_columns owned by player */
	uint8_t order[MS_CS_MAX_NEUTRALS]; /**< neutral_positions' columns, in the reference's order */
	uint8_t n_order;                 /**< entries in `order` */
	uint16_t won;                    /**< player_won_column: bit c set if c was claimed this turn */
	int8_t n_neutral;                /**< n_neutral_markers (a counter; may reach 4, spec 2.12) */
	int8_t player;                   /**< player_turn: 1 or 2 */
	int8_t dice_action;              /**< 1: next decision is a column choice; 0: yes/no */
	int8_t roll[4];                  /**< current_roll, dice 1..6 (legal lists index by their sums) */
	int8_t era;                      /**< MS_CS_ERA_A or MS_CS_ERA_B */
	uint8_t reserved[6];             /**< zero: no padding, so equal states compare equal bytewise */
	ms_cs_rng dice;                  /**< the dice generator */
} ms_cs_state;

/**
 * A new game: empty board, player 1 to move, the first roll made.
 * Returns MS_EINVAL for an unknown era.
 */
MS_EXTERN int ms_cs_state_init(ms_ctx *ctx, ms_cs_state *s, int era, uint64_t dice_seed);

/** Rolls the four dice from the state's generator. */
MS_EXTERN void ms_cs_roll(ms_cs_state *s);

/**
 * The legal list of the current decision, in the reference's order (the
 * iteration order of the CPython set it builds, spec 2.4; argmax ties
 * depend on it). At a yes/no decision: [YES, NO]. At a column decision the
 * normalised, deduplicated column actions; 0 means the player is bust.
 * Returns the count (0..MS_CS_MAX_ACTIONS).
 */
MS_EXTERN int ms_cs_legal_actions(const ms_cs_state *s, ms_cs_move out[MS_CS_MAX_ACTIONS]);

/*
 * Driving a game by hand, as the match loop does: while ms_cs_winner is 0,
 * take the legal list; at a column decision with an empty list call
 * ms_cs_bust (not a decision); otherwise ms_cs_play one move of the list.
 */

/**
 * Plays a move on the decision it answers (MS_EILLEGAL if the kind does not
 * match the decision): a column action advances and re-rolls; YES leads to
 * a column decision on the roll already made; NO stops (spec 2.6). Like the
 * reference, the columns are not checked against the legal list, only for
 * being in 2..12 (MS_EINVAL).
 */
MS_EXTERN int ms_cs_play(ms_ctx *ctx, ms_cs_state *s, const ms_cs_move *m);

/**
 * The pieces of ms_cs_play, without its checks, for callers that replay
 * moves on states they do not play (the observation score does):
 * advance (spec 2.5) then, if `reroll`, roll; dice_action becomes 0.
 */
MS_EXTERN void ms_cs_advance(ms_cs_state *s, const ms_cs_move *m, int reroll);
/** 'n': neutrals become permanent, claims close and clear their columns, turn passes. */
MS_EXTERN void ms_cs_stop(ms_cs_state *s);
/** Bust (spec 2.7): neutrals and this turn's claims are lost, turn passes, re-roll. */
MS_EXTERN void ms_cs_bust(ms_cs_state *s);
/** Removes every neutral marker and zeroes the counter (claims stay pending). */
MS_EXTERN void ms_cs_erase_neutrals(ms_cs_state *s);

/** 1 or 2 if that player owns 3 or more columns (player 1 checked first), else 0. */
MS_EXTERN int ms_cs_winner(const ms_cs_state *s);

/**
 * Reads a state from text, for fixtures and data sets: space-separated
 * key=value items, any order, all optional except where noted:
 *   p=1|2            player to move (default 1)
 *   phase=column|yesno (default column)
 *   roll=a,b,c,d     the dice (default 1,1,1,1)
 *   nn=K             n_neutral_markers (default: the number of neutrals)
 *   neutral=c:k,...  neutral markers in neutral_positions order
 *   m1=c:k,...  m2=c:k,...  permanent markers of player 1 / 2
 *   won=c,...        columns claimed this turn (player_won_column)
 *   fin=c:o,...      finished columns and owners, in order
 *   era=A|B          (default A)
 * `what` names the text in error messages (with the column of the error).
 * The dice generator is seeded with 0.
 */
MS_EXTERN int ms_cs_state_parse(ms_ctx *ctx, ms_cs_state *s, const char *text, const char *what);

/**
 * Writes a state in the form ms_cs_state_parse reads (the dice generator is
 * not written). Returns the length it needs, as snprintf does; 512 bytes
 * always suffice.
 */
MS_EXTERN int ms_cs_state_format(const ms_cs_state *s, char *buf, size_t size);

/* ---- domain functions of the DSL (spec 5.5) ------------------------------ */
/*
 * All read the player to move from the state. Those taking a column return
 * MS_ERANGE for a column outside 2..12 (the spec's recommended C behaviour),
 * else a value >= 0.
 */

/** NumberAdvancedThisRound: A(c), advances made in c this turn, claim included (spec 3.2). */
MS_EXTERN int ms_cs_advanced_this_round(const ms_cs_state *s, int c);
/** NumberAdvancedByAction on a bound list: 2 if it has two equal elements, else 1. */
MS_EXTERN int ms_cs_advanced_by_action(const int64_t *list, size_t n);
/** PositionsPlayerHasSecuredInColumn. */
MS_EXTERN int ms_cs_player_secured(const ms_cs_state *s, int c);
/** PositionsOpponentHasSecuredInColumn. */
MS_EXTERN int ms_cs_opponent_secured(const ms_cs_state *s, int c);
/** DifficultyScore: GA's 7/1/5/6 bonuses over the neutral columns. */
MS_EXTERN int ms_cs_difficulty_score(const ms_cs_state *s);
/** IsNewNeutral: 1 if no neutral is in column c, else 0. */
MS_EXTERN int ms_cs_is_new_neutral(const ms_cs_state *s, int c);
/** PlayerWinsAfterStopping: 1 if stopping now gives the player exactly 3 columns. */
MS_EXTERN int ms_cs_wins_after_stopping(const ms_cs_state *s);
/**
 * AreThereNeutralsToPlay: 1 if n_neutral_markers != 3 and some column is
 * neither finished nor holding a neutral (GA's rule 2, spec 3.2).
 */
MS_EXTERN int ms_cs_neutrals_to_play(const ms_cs_state *s);
/** The `neutrals` list: the columns of neutral_positions, in order. Returns the count. */
MS_EXTERN int ms_cs_neutrals(const ms_cs_state *s, int out[MS_CS_MAX_NEUTRALS]);

/**
 * The environment a program sees at one decision (spec 5.3), as plain
 * data. `actions` is the legal list; at a yes/no decision it is
 * [YES, NO] (the reference's ['y','n']). progress_value and move_value are
 * GA's arrays, `marker` is 6. The `locals` record is the interpreter's.
 */
typedef struct ms_cs_env {
	const ms_cs_state *state;
	int yes_no; /**< 1 at a yes/no decision */
	const ms_cs_move *actions;
	int n_actions;
	int neutrals[MS_CS_MAX_NEUTRALS];
	int n_neutrals;
	const int *progress_value; /**< MS_CS_COLUMNS entries */
	const int *move_value;     /**< MS_CS_COLUMNS entries */
	int marker;
} ms_cs_env;

/** Fills `env` for state `s` and its legal list `actions[0..n)`. */
MS_EXTERN void ms_cs_env_init(ms_cs_env *env, const ms_cs_state *s, const ms_cs_move *actions, int n);

/* ---- players ------------------------------------------------------------ */

/**
 * A player. `yes_no` sets *answer to MS_CS_MOVE_YES or MS_CS_MOVE_NO;
 * `column` sets *choice to an index in [0, n) of the legal list. `rng` is
 * the match's player-side generator (for players that draw). A negative
 * return is an error that ends the match, evaluation or score with that
 * status (the reference scores such a program 0); put the message in ctx.
 * Callbacks must not keep `s` or `actions`.
 */
typedef struct ms_cs_player {
	int (*yes_no)(ms_ctx *ctx, void *ud, const ms_cs_state *s, ms_cs_rng *rng, int *answer);
	int (*column)(ms_ctx *ctx, void *ud, const ms_cs_state *s, const ms_cs_move *actions, int n,
		      ms_cs_rng *rng, int *choice);
	void *ud;
	const char *name;
} ms_cs_player;

/** Weights of the Rule-of-28 family (spec 3.1). */
typedef struct ms_cs_ga_params {
	int progress_value[MS_CS_COLUMNS];
	int move_value[MS_CS_COLUMNS];
	int odds, evens, highs, lows;
	int marker;    /**< penalty per new neutral */
	int threshold; /**< stop when progress + difficulty >= threshold */
} ms_cs_ga_params;

/** Glenn & Aloi's values, as Glenn_Player sets them. */
MS_EXTERN const ms_cs_ga_params *ms_cs_ga_params_glenn(void);
/** The Rule-of-28 parent's defaults (not used by GA). */
MS_EXTERN const ms_cs_ga_params *ms_cs_ga_params_rule28(void);

/** Progress score: sum over neutrals of (A(c) + 1) * progress_value[c]. */
MS_EXTERN int ms_cs_ga_progress(const ms_cs_ga_params *p, const ms_cs_state *s);
/** Difficulty bonuses over the neutral columns (empty: all four apply). */
MS_EXTERN int ms_cs_ga_difficulty(const ms_cs_ga_params *p, const ms_cs_state *s);
/** GA's yes/no decision (spec 3.2): MS_CS_MOVE_YES or MS_CS_MOVE_NO. */
MS_EXTERN int ms_cs_ga_yes_no(const ms_cs_ga_params *p, const ms_cs_state *s);
/** GA's score of one column action (spec 3.3). */
MS_EXTERN int ms_cs_ga_action_score(const ms_cs_ga_params *p, const ms_cs_state *s, const ms_cs_move *a);
/** GA's column decision: index of the first action with the highest score (n >= 1). */
MS_EXTERN int ms_cs_ga_column(const ms_cs_ga_params *p, const ms_cs_state *s, const ms_cs_move *actions, int n);

/**
 * GA as a player. `params` NULL means Glenn's values; otherwise it must
 * outlive the player. `sorted_ties` 1 breaks column ties in ascending
 * order (singles first) instead of the reference's order (spec 8.3).
 */
MS_EXTERN void ms_cs_player_ga(ms_cs_player *out, const ms_cs_ga_params *params, int sorted_ties);

/** The random player (spec 4): uniform over the legal list. */
MS_EXTERN void ms_cs_player_random(ms_cs_player *out);

/**
 * The strongest published program (spec 5.10, "Couto_Player"), through the
 * program wrapper: a regression anchor (about 0.58 against GA in era A).
 */
MS_EXTERN void ms_cs_player_couto(ms_cs_player *out);

/**
 * A row of Can't Stop's agent table (microsynth/spec.h): the form, and its
 * maker from the whole spec, its argument and a seed. A program is a player
 * through ms_cs_player_program (in memory) or ms_cs_dsl_runner_player.
 */
typedef struct ms_cs_agent_row {
	ms_spec_form form;
	int (*make)(ms_ctx *ctx, ms_cs_player *out, const char *spec, const char *arg, uint64_t seed);
} ms_cs_agent_row;

/** The built-in players' rows (*n of them): ga, ga-sorted, rule28, random, couto. */
MS_EXTERN const ms_cs_agent_row *ms_cs_agents(int *n);

/**
 * Built-in players by name: "ga", "ga-sorted", "rule28", "random", "couto"
 * (ms_cs_agents). Returns MS_ENOTFOUND for other names.
 */
MS_EXTERN int ms_cs_player_by_name(ms_ctx *ctx, ms_cs_player *out, const char *name);
/** The names ms_cs_player_by_name knows, NULL-terminated. */
MS_EXTERN const char *const *ms_cs_player_names(void);

/**
 * A program as a player, as the reference wraps a DoubleProgram (spec 5.6).
 * yes_no_value: the yes/no program's number; column_index: the column
 * program's value used as a Python index into env->actions (negative counts
 * from the end). Both return 0 or a negative status.
 */
typedef struct ms_cs_program {
	int (*yes_no_value)(ms_ctx *ctx, void *ud, const ms_cs_env *env, double *value);
	int (*column_index)(ms_ctx *ctx, void *ud, const ms_cs_env *env, int64_t *index);
	void *ud;
} ms_cs_program;

/**
 * Wraps `prog` (which must outlive the player). At a yes/no decision the
 * yes/no program is always evaluated first; then: stop if stopping wins
 * (exactly 3 columns); else YES if ms_cs_neutrals_to_play; else NO iff the
 * value >= 29. At a column decision the index is checked (MS_ERANGE outside
 * [-n, n)) and wrapped.
 */
MS_EXTERN void ms_cs_player_program(ms_cs_player *out, const ms_cs_program *prog);

/* ---- matches and win rates ---------------------------------------------- */

#define MS_CS_MATCH_OPTIONS_VERSION 1

/** Match settings; zero-initialise, set `version`, or pass NULL for defaults. */
typedef struct ms_cs_match_options {
	unsigned int version; /**< MS_CS_MATCH_OPTIONS_VERSION */
	int era;              /**< MS_CS_ERA_A (0, default) or MS_CS_ERA_B */
	int max_decisions;    /**< 0: the evaluation's 300; -1: no cap; else that cap */
} ms_cs_match_options;

/**
 * Zero-initialises `opts` and sets its version (MS_CS_MATCH_OPTIONS_VERSION): 0, or MS_EINVAL for
 * a version this build does not know.
 */
MS_EXTERN int ms_cs_match_options_init(ms_cs_match_options *opts, unsigned int version);

/** One match. */
typedef struct ms_cs_match_result {
	int winner;    /**< 1 or 2; 0 if stopped at the decision cap (a draw) */
	int decisions; /**< column and yes/no decisions of both players (busts not counted) */
	int busts;
	int turns;     /**< turns ended by a stop */
} ms_cs_match_result;

/**
 * Plays p1 (moves first) against p2 from a new game, with the match loop of
 * the reference's evaluation (spec 2.3, 2.9): bust when the column list is
 * empty, a winner checked after every decision, a draw at the cap. `seed`
 * seeds the dice and the players' generator. Returns 0, a player's error,
 * MS_ERANGE if a player chose an index outside the list, or MS_EINVAL.
 */
MS_EXTERN int ms_cs_play_match(ms_ctx *ctx, const ms_cs_match_options *opts, const ms_cs_player *p1,
			       const ms_cs_player *p2, uint64_t seed, ms_cs_match_result *out);

/** The seed of match `index` of an evaluation seeded with `seed`. */
MS_EXTERN uint64_t ms_cs_match_seed(uint64_t seed, uint64_t index);

/** Totals of an evaluation; add the totals of disjoint ranges to combine them. */
typedef struct ms_cs_eval_result {
	long matches;
	long wins_a, wins_b, draws;
	long first_wins;      /**< wins of whoever moved first */
	long decisions, busts;
} ms_cs_eval_result;

/**
 * Plays matches first .. first+count-1 of an evaluation of A against B
 * (spec 7.1): match i has A moving first when i is even, B when odd, and is
 * seeded with ms_cs_match_seed(seed, i), so splitting the range over
 * threads gives the same totals. Adds into *acc (zero it first). A's win
 * rate is wins_a / matches, draws counting as non-wins. Stops at the first
 * error and returns it. Threads may evaluate ranges at once, each with its
 * own ctx and acc, when the players' callbacks allow it (the built-in
 * players only read their data).
 */
MS_EXTERN int ms_cs_evaluate(ms_ctx *ctx, const ms_cs_match_options *opts, const ms_cs_player *a,
			     const ms_cs_player *b, uint64_t seed, long first, long count, ms_cs_eval_result *acc);

/* ---- behavioural cloning: data sets and scores (spec 6) ------------------ */

/**
 * One recorded decision: the state before it, and the oracle's move.
 * `round` numbers the recorded turns of `player` in `match` from 0.
 */
typedef struct ms_cs_record {
	ms_cs_state state;
	ms_cs_move action;
	int32_t match;
	int32_t round;
	int8_t player;
} ms_cs_record;

/** A data set: records grouped by match, then in play order. */
typedef struct ms_cs_dataset ms_cs_dataset;

MS_EXTERN int ms_cs_dataset_new(ms_ctx *ctx, ms_cs_dataset **out);
MS_EXTERN void ms_cs_dataset_free(ms_cs_dataset *ds);
/** Appends a record (copied). Matches must come in order 0, 1, ... */
MS_EXTERN int ms_cs_dataset_add(ms_ctx *ctx, ms_cs_dataset *ds, const ms_cs_record *r);
MS_EXTERN size_t ms_cs_dataset_size(const ms_cs_dataset *ds);
/** Number of matches (1 + the largest match index; 0 if empty). */
MS_EXTERN int ms_cs_dataset_matches(const ms_cs_dataset *ds);
MS_EXTERN const ms_cs_record *ms_cs_dataset_get(const ms_cs_dataset *ds, size_t i);

/**
 * Records `n_matches` games of p1 against p2 as the reference's recorder
 * does (spec 6.1): every decision of both players, keeping only turns that
 * end with a stop (a bust discards the turn's records); games run to the
 * end (no 300 cap; a safety cap of 100,000 decisions returns MS_ERANGE).
 * Match m is seeded with ms_cs_match_seed(seed, m). `era` is MS_CS_ERA_A/B.
 */
MS_EXTERN int ms_cs_dataset_generate(ms_ctx *ctx, ms_cs_dataset **out, const ms_cs_player *p1,
				     const ms_cs_player *p2, int n_matches, int era, uint64_t seed);

/**
 * The text form, one record per line after a header line
 * "cantstop-dataset 1":
 *   MATCH PLAYER ROUND MOVE STATE...
 * MOVE as ms_cs_move_format writes it, STATE as ms_cs_state_format. Blank
 * lines and lines starting with '#' are ignored when reading.
 */
MS_EXTERN int ms_cs_dataset_write(ms_ctx *ctx, const ms_cs_dataset *ds, FILE *f);
/** Reads the text form; `what` names it in errors (with the line). */
MS_EXTERN int ms_cs_dataset_read(ms_ctx *ctx, ms_cs_dataset **out, const char *text, size_t len,
				 const char *what);
MS_EXTERN int ms_cs_dataset_load(ms_ctx *ctx, ms_cs_dataset **out, const char *path);
MS_EXTERN int ms_cs_dataset_save(ms_ctx *ctx, const ms_cs_dataset *ds, const char *path);

/**
 * Observation-based score C(L, p) (spec 6.2), over player 1's records:
 * per match, replay the policy's moves (chosen on the recorded states) on a
 * fresh board, then sum over columns of min(learner, oracle) progress over
 * the oracle's total; the mean over matches. `seed` seeds the policy's
 * generator. On any error (a policy error, a match without player-1 turns,
 * an oracle without progress) *score is 0 and the status is returned.
 */
MS_EXTERN int ms_cs_score_observation(ms_ctx *ctx, const ms_cs_dataset *ds, const ms_cs_player *policy,
				      uint64_t seed, double *score);

/**
 * Action-based score (spec 6.3): the fraction of player 1's records where
 * the policy's move on the recorded state equals the oracle's. Errors as
 * for ms_cs_score_observation.
 */
MS_EXTERN int ms_cs_score_action(ms_ctx *ctx, const ms_cs_dataset *ds, const ms_cs_player *policy,
				 uint64_t seed, double *score);

/**
 * Column progress X(c) the observation score compares (spec 6.2 item 3),
 * for player 1, into out[0..MS_CS_COLUMNS). Returns the sum.
 */
MS_EXTERN int ms_cs_progress_profile(const ms_cs_state *s, int out[MS_CS_COLUMNS]);

#ifdef __cplusplus
}
#endif
#endif
