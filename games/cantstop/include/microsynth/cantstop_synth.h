/*
 * Can't Stop as a synthesis problem (synth.h over cantstop_dsl.h), as the
 * sketch-learning reference sets it up (spec/cantstop.md 6, 7):
 *
 *   Psi(p)   = win rate of p against GA over `matches` matches (1,000),
 *              match i seeded from the evaluation's seed, p first in even
 *              matches; split into shards of `shard_matches` so threads
 *              share an evaluation. A program run-time error scores 0.
 *   C(L, p)  = the observation- (O) or action-based (A) cloning score of p
 *              on a data set L recorded from an oracle's self-play (the
 *              reference's three matches of random or GA play), or read
 *              from a file (cantstop.h text form).
 *
 * The made object also carries a second problem, the same Psi over
 * `final_matches` (10,000) fresh matches, for reporting a final program's
 * strength with ms_synth_eval_programs or ms_cs_synth_final_psi.
 *
 * Everything that changes scores is in the problems' fingerprint line, so
 * a checkpoint cannot be resumed under other settings.
 */
#ifndef MICROSYNTH_CANTSTOP_SYNTH_H
#define MICROSYNTH_CANTSTOP_SYNTH_H

#include <stdint.h>
#include "microsynth/common.h"
#include "microsynth/synth.h"
#include "microsynth/cantstop.h"
#include "microsynth/cantstop_dsl.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Oracles of the cloning data set. */
enum {
	MS_CS_ORACLE_NONE = 0,   /**< no C: only SA, UCT and random sampling apply */
	MS_CS_ORACLE_RANDOM = 1, /**< random player against itself */
	MS_CS_ORACLE_GA = 2,     /**< GA against itself */
	MS_CS_ORACLE_FILE = 3    /**< a data set file (`data_path`) */
};

#define MS_CS_SYNTH_OPTIONS_VERSION 1

/** Settings; ms_cs_synth_options_init fills the reference's values. */
typedef struct ms_cs_synth_options {
	unsigned int version;  /**< MS_CS_SYNTH_OPTIONS_VERSION */
	int era;               /**< MS_CS_ERA_A (reference) or MS_CS_ERA_B */
	long matches;          /**< Psi: matches per evaluation (1000) */
	long shard_matches;    /**< matches per shard (100) */
	long final_matches;    /**< matches of the final evaluation problem (10000) */
	int oracle;            /**< MS_CS_ORACLE_* (NONE) */
	int score;             /**< MS_CS_SCORE_OBSERVATION (default) or MS_CS_SCORE_ACTION */
	int data_matches;      /**< matches recorded from the oracle (3, as the reference) */
	uint64_t data_seed;    /**< seed of the recording (1) */
	const char *data_path; /**< MS_CS_ORACLE_FILE: the data set to read */
	/**
	 * 1: every Psi evaluation of the search problem plays the same matches,
	 * those of `common_seed`, instead of matches drawn from the evaluation's
	 * seed (common random numbers: programs that play alike score alike, so
	 * comparisons are paired, at the risk of fitting those matches; the
	 * final problem always plays its own). 0 (default): as the reference.
	 */
	int common_matches;
	uint64_t common_seed;
	/** Matches behind a program's behavioural features (0: 20); see MS_CS_FEATURES. */
	long feature_matches;
	/**
	 * > 0: the search problem's generation and mutation keep only programs
	 * that play this many probe matches against GA (fixed seeds) without a
	 * run-time error, drawing again (at most 5000 times, then keeping the
	 * last draw). Most programs of the grammar fail at run time (a Map
	 * binding a string, a local read where none is bound, a float used as
	 * an index, ...): about 1 random program in 700 passes 4 probe matches,
	 * and those nearly always pass 20. This spends the search on programs
	 * that run. It is a check by running, not a type system: a program that
	 * passes may still fail elsewhere. 0 (default): the reference's
	 * generator. With it, searches on one object must not run at the same
	 * time (the check uses one interpreter of the object).
	 */
	long probe_matches;
	/**
	 * 1: the search problem's generation and mutation build only well-typed
	 * programs (ms_cs_dsl_generate_typed, ms_cs_dsl_mutate_typed), which
	 * never fail at run time. Not the reference's generator; named in the
	 * fingerprint. Combines with probe_matches. 0 (default): the reference's.
	 */
	int typed;
	/**
	 * > 0: the search problem's generation and mutation draw again (at most
	 * 5000 times, then keep the last draw) while the program has more nodes
	 * than this. Typed programs never fail, so nothing stops them growing
	 * under mutation, and larger programs evaluate more slowly; with the
	 * reference's generator, growth mostly fails and is rejected by the
	 * search. Named in the fingerprint. 0 (default): no bound.
	 */
	int max_nodes;
} ms_cs_synth_options;

/**
 * Behavioural features of a program (synth.h, problem version 3), measured
 * over `feature_matches` matches against an opponent (GA by default), the
 * program first in even matches, from the program's own decisions:
 *   0 yes-rate         share of yes/no decisions answered "roll again", in tenths (10 values)
 *   1 busts-per-turn   (turns begun - stops) / turns begun, in fifths (5)
 *   2 centre-distance  mean |column - 7| of the markers its moves advance, floored (6: 0..5)
 *   3 columns-won      columns it owns at its last decision, mean over matches, in halves (6: 0..2.5+)
 *   4 pair-moves       share of column moves that advance two markers, in fifths (5)
 *   5 turn-length      column moves per turn begun, minus 1, floored (6: 0..5+)
 * They are the quantities the dissertation's observation score and its
 * description of the game turn on (how far a turn goes before stopping,
 * which columns it races in, what it claims); a program that fails at run
 * time has none. The dissertation's copy in ../shared lists no Can't Stop
 * feature set (its HSS experiments are on MicroRTS), so this set is ours.
 */
#define MS_CS_FEATURES 6

/**
 * Fills the defaults above (version: MS_CS_SYNTH_OPTIONS_VERSION); 0, or MS_EINVAL for a version
 * this build does not know.
 */
MS_EXTERN int ms_cs_synth_options_init(ms_cs_synth_options *opts, unsigned int version);

/** Oracle names: "none", "random", "ga", "file"; NULL for other values. */
MS_EXTERN const char *ms_cs_synth_oracle_name(int oracle);

/** The problems, their grammar and data set. Read-only once made: searches on threads may share it. */
typedef struct ms_cs_synth ms_cs_synth;

/**
 * Makes the grammar (the searches' variant), records or reads the data set
 * and fills both problems. Errors name the option or file at fault.
 * `ctx` is kept for the object's lifetime.
 */
MS_EXTERN int ms_cs_synth_new(ms_ctx *ctx, ms_cs_synth **out, const ms_cs_synth_options *o);
MS_EXTERN void ms_cs_synth_free(ms_cs_synth *cs);

/** The search problem (Psi over `matches`; C when an oracle is set). */
MS_EXTERN const ms_synth_problem *ms_cs_synth_problem(const ms_cs_synth *cs);
/** Psi over `final_matches` (no C), for the final report. */
MS_EXTERN const ms_synth_problem *ms_cs_synth_final_problem(const ms_cs_synth *cs);
MS_EXTERN const ms_cs_dsl *ms_cs_synth_dsl(const ms_cs_synth *cs);
/** The cloning data set (NULL without an oracle). */
MS_EXTERN const ms_cs_dataset *ms_cs_synth_dataset(const ms_cs_synth *cs);
/** The fingerprint line of the search problem (settings that change scores). */
MS_EXTERN const char *ms_cs_synth_fingerprint(const ms_cs_synth *cs);

/**
 * Win rate of `prog` against GA over the final problem's matches, seeded
 * with `seed`, on `threads` threads (the result does not depend on them).
 * *failed is set to 1 (and *psi to 0) if the program raised a run-time
 * error, as the reference scores it. `ctx` receives errors.
 */
MS_EXTERN int ms_cs_synth_final_psi(ms_ctx *ctx, const ms_cs_synth *cs, const ms_dsl_prog *prog, int threads,
				    uint64_t seed, double *psi, int *failed);

/* ---- opponents that are programs (self-play) ------------------------------ */

/** A problem whose opponents are GA and given programs: read-only once made. */
typedef struct ms_cs_synth_vs ms_cs_synth_vs;

/**
 * The search problem of `cs` (Psi over `matches`, the same C and features)
 * with n_opponents = n + 1: opponent 0 is GA, opponent i (1..n) is
 * progs[i - 1] (copied). A program opponent never fails a match: where it
 * raises, it stops or takes the first move. The fingerprint names the
 * opponents by hash. `cs` must outlive the object.
 */
MS_EXTERN int ms_cs_synth_vs_new(ms_ctx *ctx, ms_cs_synth_vs **out, const ms_cs_synth *cs,
				 const ms_dsl_prog *const *progs, int n);
MS_EXTERN const ms_synth_problem *ms_cs_synth_vs_problem(const ms_cs_synth_vs *v);
MS_EXTERN void ms_cs_synth_vs_free(ms_cs_synth_vs *v);

#ifdef __cplusplus
}
#endif
#endif
