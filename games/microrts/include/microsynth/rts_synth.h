/*
 * MicroRTS as a synthesis problem (synth.h over rts_dsl.h programs), as the
 * sketch-learning paper sets it up for MicroRTS:
 *   Psi(p) = mean score (win 1, draw 0.5, loss 0) of p over matches against
 *            each opponent, in both seats, on each map, each map with the
 *            competition's cycle limit for its size (8x8: 3000, 16x16: 4000,
 *            24x24: 5000, 32x32: 6000, larger: 8000) unless overridden.
 *            Opponents are the problem's numbered opponents (synth.h
 *            populations): native bots and programs play in-process, Java
 *            classes (CoacAI, mayari, ...) in the official engine through the
 *            hosted JVM, the candidate crossing from memory. A Java opponent
 *            that throws or times out loses (the harness's rule), and so does
 *            a native opponent whose decision fails; both are counted
 *            (ms_rts_synth_fault_counts).
 *   C(L, p) = the observable-outcome score O: how alike p's matches and an
 *            oracle's matches are, per map and seat, against the C opponent
 *            (a native bot: the oracle's matches are played once, natively):
 *            units trained per type, resources harvested, enemy units
 *            destroyed and own units lost, compared as 1 - sum|a-b| / sum(a+b);
 *            or (c_score A) the action score: the share of the oracle's
 *            issued unit actions in those matches that p, run on the states
 *            the oracle saw, issues alike.
 *   With `tiebreak`, ties in Psi are broken (lexicographic order: Psi + eps * t
 *   with t in [0, 1] and eps below Psi's resolution, so no tie-break ever
 *   outweighs a better result): MS_RTS_TIEBREAK_O by O, as the paper's
 *   MicroRTS setup, so sketch learning guides a search while every program
 *   loses; MS_RTS_TIEBREAK_LENGTH by match length (a loss later, a win
 *   sooner), which needs no oracle and works against Java opponents too;
 *   MS_RTS_TIEBREAK_MATERIAL as LENGTH, and draws by the material each side
 *   holds at the end (native opponents; draws against Java ones score 0.5),
 *   which ranks programs that draw where every game reaches the limit;
 *   MS_RTS_TIEBREAK_A by the action score (c_score A), the paper's setup
 *   with the action-based C.
 * Shards: one per (map, seat), so matches of one evaluation run in parallel.
 * Matches are seeded with 0: with the default table and conflict policy they
 * draw no random number, and a program's Psi is exact and reproducible.
 */
#ifndef MICROSYNTH_RTS_SYNTH_H
#define MICROSYNTH_RTS_SYNTH_H

#include "microsynth/common.h"
#include "microsynth/dsl.h"
#include "microsynth/microrts.h"
#include "microsynth/synth.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Version 3 adds `states`, 4 `match_memo`, 5 `c_score`, 6 `players`; versions 2-5 are still accepted. */
#define MS_RTS_SYNTH_OPTIONS_VERSION 6

struct ms_match_player;

/** Tie-breaks of Psi. */
enum {
	MS_RTS_TIEBREAK_NONE = 0,
	MS_RTS_TIEBREAK_O = 1,     /**< the O score against the oracle's matches (native opponents only) */
	MS_RTS_TIEBREAK_LENGTH = 2, /**< per match: a loss scores its length, a win its shortness (cycles / limit) */
	MS_RTS_TIEBREAK_MATERIAL = 3, /**< as LENGTH, and a native draw scores the program's share of the material
				       left (each unit's cost times its hit points left, plus the stockpile) */
	MS_RTS_TIEBREAK_A = 4         /**< the action score A on the oracle's recorded decisions (c_score A) */
};

/** Settings; zero-initialise, set version, maps and opponents. */
typedef struct ms_rts_synth_options {
	int version;                    /**< MS_RTS_SYNTH_OPTIONS_VERSION */
	const char *const *maps;        /**< map files (or names inside the harness's maps/) */
	int n_maps;
	const char *const *opponents;   /**< native bot names, program:FILE, or Java classes (or `players`) */
	int n_opponents;
	int utt;                        /**< unit type table 1..3 (0: 2) */
	int conflict;                   /**< move conflict policy 1..3 (0: 1) */
	int max_cycles;                 /**< 0: by map size as above */
	int edition;                    /**< native bots' path finding (MS_PATH_EDITION_*) */
	const char *harness_jar;        /**< microsynth-harness.jar: needed for Java opponents and ms_rts_synth_score */
	const char *harness_dir;        /**< NULL: $MICROSYNTH_HARNESS or ~/.cache/microsynth/harness */
	const char *oracle;             /**< the oracle of C: a native bot or program:FILE (NULL: no C) */
	const char *c_opponent;         /**< native opponent of C's matches (NULL: the first native opponent, else WorkerRush) */
	int tiebreak;                   /**< MS_RTS_TIEBREAK_*: how ties in Psi are broken (O needs an oracle) */
	/** A switch case (rts_dsl.h): our side plays `prefix` before cycle `switch_cycle`, then the candidate.
	 *  NULL: the candidate plays the whole match. Native opponents only. */
	const ms_dsl_prog *prefix;
	int switch_cycle;
	/** K >= 2: each native opponent plays K matches per seat with seeds 1..K, drawing where its Java
	 *  original draws unseeded numbers (ms_bot_set_stochastic); 0 or 1: one reproducible match. */
	int opponent_seeds;
	int java_hang_ms;               /**< a Java opponent's decision running this long loses as timed out (0: 10,000) */
	/* ---- version 3 ---- */
	/** NULL, or n_maps first states in memory (match.h's ms_match_options.initial): map i is played from
	 *  states[i] (borrowed; it and its table must outlive the problem) and maps[i] only names it. Native
	 *  opponents only; `utt` and `conflict` are then the states' tables'. */
	const ms_rts_state *const *states;
	/* ---- version 4 ---- */
	int match_memo;                 /**< MS_RTS_MATCH_MEMO_*: the match memo (0: on) */
	/* ---- version 5 ---- */
	int c_score;                    /**< MS_RTS_C_SCORE_*: what C measures against the oracle (0: O) */
	/** A: a data set file (ms_rts_synth_dataset_save's format) to compare with instead of recording the
	 *  oracle's matches (then no oracle is needed); NULL: record them. */
	const char *dataset;
	/* ---- version 6 ---- */
	/** NULL, or the n_opponents opponents as players (match.h), read instead of `opponents`: a spec as
	 *  `opponents` holds them, or a program in memory (copied), so a self-play loop hands its earlier
	 *  programs over as they are, never as text to read again. A program enters the fingerprint as its
	 *  hash, as a program:FILE opponent does; prefix and reach are not read. */
	const struct ms_match_player *players;
} ms_rts_synth_options;

/**
 * Zero-initialises `opts` and sets its version (MS_RTS_SYNTH_OPTIONS_VERSION): 0, or MS_EINVAL for
 * a version this build does not know.
 */
MS_EXTERN int ms_rts_synth_options_init(ms_rts_synth_options *opts, unsigned int version);

/** The cloning score C of sketch learning (needs an oracle). */
enum {
	MS_RTS_C_SCORE_O = 0, /**< the observable outcome of the program's match beside the oracle's */
	MS_RTS_C_SCORE_A = 1  /**< actions: the share of the oracle's issued unit actions the program issues alike
				   on the states of the oracle's matches (rts_ascore.h) */
};

/**
 * The match memo: a native match's result kept with what the match read of
 * the program and the actions it saw, given to a later program that plays
 * it alike without playing: one that agrees with it wherever the match read
 * (a neighbour that changed dead code), or one whose decisions at the cycles
 * that read a place where the two differ are the same when the match is
 * replayed with its recorded actions (no opponent runs). Exact: a search's
 * every score is the same with it on or off.
 */
enum {
	MS_RTS_MATCH_MEMO_ON = 0,
	MS_RTS_MATCH_MEMO_OFF = 1,
	MS_RTS_MATCH_MEMO_CHECK = 2, /**< on, and every answer is also played and compared (MS_ERROR if not equal) */
	MS_RTS_MATCH_MEMO_NO_REPLAY = 3 /**< on, without replays (dead-code answers only) */
};

/** What the match memo did so far. */
typedef struct ms_rts_synth_memo_stats {
	long lookups;     /**< native matches asked for */
	long hits;        /**< answered because the program agreed wherever the match read */
	long replays;     /**< replays tried */
	long replay_hits; /**< answered by a replay */
} ms_rts_synth_memo_stats;


typedef struct ms_rts_synth ms_rts_synth;

/**
 * Checks the settings (every map loads; every opponent is a native bot, a
 * readable program or, with a harness jar, a Java class), plays the
 * oracle's matches, and fills the problem. Errors name the option.
 */
MS_EXTERN int ms_rts_synth_new(ms_ctx *ctx, ms_rts_synth **out, const ms_rts_synth_options *o);
MS_EXTERN void ms_rts_synth_free(ms_rts_synth *rs);
/**
 * Writes the A score's data set (the oracle's recorded decisions: states
 * and unit actions, the official JSON) to `path` (gzip if it ends in .gz),
 * for `dataset` of a later problem on the same maps. MS_EINVAL without one.
 */
MS_EXTERN int ms_rts_synth_dataset_save(const ms_rts_synth *rs, const char *path);

/** The search problem (its opponents are the options' opponents, in order). */
MS_EXTERN const ms_synth_problem *ms_rts_synth_problem(const ms_rts_synth *rs);
/** The DSL grammar programs of the problem use. */
MS_EXTERN const ms_dsl_grammar *ms_rts_synth_grammar(const ms_rts_synth *rs);
/** Cycle limit used on map i. */
MS_EXTERN int ms_rts_synth_max_cycles(const ms_rts_synth *rs, int map);
/** The fingerprint line (settings that change scores). */
MS_EXTERN const char *ms_rts_synth_fingerprint(const ms_rts_synth *rs);
/** What the match memo did so far (all 0 when it is off). */
MS_EXTERN void ms_rts_synth_memo_counts(const ms_rts_synth *rs, ms_rts_synth_memo_stats *out);

/** Results of ms_rts_synth_score. */
typedef struct ms_rts_synth_result {
	double psi;          /**< mean score, ties not broken */
	int wins, draws, losses;
	int opponent_crashes; /**< opponents that threw (Java) or failed a decision (native): our wins */
	int opponent_timeouts; /**< Java opponents the harness's time check stopped: our wins */
} ms_rts_synth_result;

/** Opponent faults met by the evaluations of a search (ms_rts_synth_fault_counts). */
typedef struct ms_rts_synth_faults {
	long crashes;  /**< Java opponents that threw (the harness scores the match as their loss) */
	long timeouts; /**< Java opponents stopped by the harness's time check (their loss) */
	long errors;   /**< native opponents whose decision failed (scored as a crash: their loss) */
} ms_rts_synth_faults;

/**
 * The opponent faults counted so far by the problem's evaluations (all
 * threads; matches a cache or a resumed checkpoint answers are not played
 * again, so not counted again).
 */
MS_EXTERN void ms_rts_synth_fault_counts(const ms_rts_synth *rs, ms_rts_synth_faults *out);

/**
 * Plays `prog` against every opponent in both seats on every map, in the
 * native engine (`official` 0; Java opponents still play in the JVM) or
 * with every match in the official engine (`official` 1: native bot names
 * mean their Java classes; the program plays through the drop-in bot).
 * `ctx` receives errors.
 */
MS_EXTERN int ms_rts_synth_score(ms_ctx *ctx, const ms_rts_synth *rs, const ms_dsl_prog *prog, int official,
				 ms_rts_synth_result *res);

/* ---- pre-game synthesis (the drop-in bot's preGameAnalysis) ----------------- */

/* Version 3 adds `archetypes`, version 2 the opponent switch (case_share, max_cases, switch_cycle).
 * Older options are still accepted: version 1 makes no switch, versions 1 and 2 screen no archetype. */
#define MS_RTS_PREGAME_OPTIONS_VERSION 3

/** Settings of ms_rts_pregame; ms_rts_pregame_options_init fills the defaults given here. */
typedef struct ms_rts_pregame_options {
	int version;                   /**< MS_RTS_PREGAME_OPTIONS_VERSION */
	const char *const *field;      /**< native opponents (NULL: CoacAI, mayari, TMA and the four rushes) */
	int n_field;
	int edition;                   /**< the field's path finding (MS_PATH_EDITION_2023) */
	int max_cycles;                /**< game length (0: the competition's by map size) */
	double seconds;                /**< wall-clock budget of the whole call (0: none; then max_evals) */
	long long max_evals;           /**< or an evaluation budget, reproducible for a seed and any thread count */
	int threads;                   /**< evaluation threads (1) */
	uint64_t seed;                 /**< (1) */
	int neighbours;                /**< SA's neighbours per step (20, as the MicroRTS references) */
	/** Program texts (any form ms_rts_dsl_parse reads): each is scored on the map, the best starts the
	 *  search. Texts that do not parse are skipped (counted). */
	const char *const *candidates;
	int n_candidates;
	/** Share of the budget for a second stage in which the bots that draw unseeded numbers in their jars
	 *  play `opponent_seeds` seeds per seat (0.3; 0: one stage). */
	double stochastic_share;
	int opponent_seeds;            /**< (2) */
	/* ---- version 2 ---- */
	/** Share of the budget for case programs (0.35; 0: none): an opponent of the field the program does
	 *  not beat in every game (seeds as the second stage) gets a program of its own, searched after the
	 *  program's opening, and the result becomes an opponent switch (docs/switch.md) when the switch
	 *  scores more than the program alone over the same games. */
	double case_share;
	/** Opponents that get a case (4): those that can be told apart at the switch cycle, the ones the
	 *  program scores most against first, then those that draw no unseeded numbers, then the field's order. */
	int max_cases;
	/** The switch's earliest cycle (150): it switches at 1 to 4 times this, the earliest cycle at which
	 *  most of the opponents the program loses to look unlike every other bot of the field. */
	int switch_cycle;
	/* ---- version 3 ---- */
	/** 1 (the default): the library's archetypes (ms_rts_archetype, rts_dsl.h) are screened after the candidates, so
	 *  a map unlike every shipped program's still starts from a plain rush that works there; 0: none. */
	int archetypes;
} ms_rts_pregame_options;

#define MS_RTS_PREGAME_BOTS 16

/** What ms_rts_pregame made. */
typedef struct ms_rts_pregame_result {
	char *program;        /**< the program, salve text (ms_ctx_mfree on the call's context) */
	double psi;           /**< its first-stage score (tie-broken; -1: none) */
	double stochastic_psi; /**< its second-stage score (-1 or 0 without one) */
	double start_psi;     /**< the best candidate's score (-1: none screened) */
	int start;            /**< index of that candidate (n_candidates + k: archetype k), -1: the search
	                       *   started from a random program */
	int screened, skipped; /**< candidates scored, candidates that did not parse */
	long long evals;      /**< evaluations, screening included */
	long long stage1_evals, stage2_evals;
	double seconds;       /**< wall clock of the call */
	/** The opponent switch's text (microsynth-switch 1, `program` inline; ms_ctx_mfree on the call's
	 *  context), or NULL when the program alone is the answer. */
	char *switch_text;
	int cases;            /**< opponents whose case program the switch plays */
	int switch_cycle;     /**< the switch's cycle (the options' times 1 to 4: most lost-to bots told apart) */
	long long case_evals; /**< evaluations of the case searches (part of `evals`) */
	/** The check (every field bot, both seats, the second stage's seeds): games, and the score (win 1,
	 *  draw 0.5) of the program alone and of the switch over them (-1: no switch was checked). */
	int check_games;
	double check_program, check_switch;
	/** Per bot of the field (the first MS_RTS_PREGAME_BOTS): its check games, the program's score over
	 *  them, its case program's score over them (-1: no case was searched) and whether the switch
	 *  plays that case (0 when it lost the case to a look-alike bot or scored no more). */
	struct {
		const char *name; /**< the bot (the options' string, or the library's default field's) */
		int games;
		double program, case_score;
		int in_switch;
	} bot[MS_RTS_PREGAME_BOTS];
} ms_rts_pregame_result;

/**
 * Fills the defaults of ms_rts_pregame_options (version: MS_RTS_PREGAME_OPTIONS_VERSION); 0, or
 * MS_EINVAL for a version this build does not know.
 */
MS_EXTERN int ms_rts_pregame_options_init(ms_rts_pregame_options *opts, unsigned int version);


/**
 * Synthesizes a program for the game that starts at `first` (its table
 * included; borrowed for the call) against the native field, both seats:
 * screens the candidates, runs SA from the best, then the stochastic stage,
 * then (version 2) case programs for the opponents it still loses to,
 * kept as an opponent switch when the switch wins more of the check games.
 * A candidate may be a switch's text: its `before` program is screened.
 * The searches stop between batches, a margin (a batch's measured time)
 * before the deadline. MS_ERANGE when the budget ended before any program
 * was scored; other errors name what failed.
 */
MS_EXTERN int ms_rts_pregame(ms_ctx *ctx, const ms_rts_state *first, const ms_rts_pregame_options *o,
			     ms_rts_pregame_result *res);

#ifdef __cplusplus
}
#endif
#endif
