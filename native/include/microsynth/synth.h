/*
 * The game-agnostic synthesis core: simulated annealing, UCT over partial
 * programs, and their sketch-learning variants (Sketch-SA, Sketch-UCT) of
 * Medeiros, Aleixo and Lelis (AAAI 2022), over any grammar of dsl.h.
 *
 * A game plugs in as a "problem": its grammar, an objective Psi (e.g. the
 * win rate against a fixed opponent) and optionally a behavioural-cloning
 * score C(L, p) for sketch learning, both split into independent shards
 * (e.g. ranges of matches) that a thread pool evaluates in parallel.
 *
 * Reproducibility: every evaluation gets a seed derived from the search
 * seed and the evaluation's index, and shard results are combined in shard
 * order, so a search budgeted by evaluations gives the same result for a
 * given seed whatever the number of threads. A wall-clock budget does not
 * (how many evaluations fit depends on the machine); the statistics say
 * when a run was budgeted by time.
 *
 * Checkpoints: the search appends one line per evaluation (its index,
 * kind, program hash and exact score) to a log file. Resuming re-runs the
 * deterministic search from the start, taking scores from the log instead
 * of evaluating, then continues live. Every algorithm (including UCT's
 * tree and cache) therefore resumes exactly, a killed run loses at most
 * the evaluations in flight, and a run resumed under an evaluation budget
 * ends with the result an uninterrupted run would have given.
 *
 * Threads: the search runs on the caller's thread and uses the caller's
 * context; each evaluation thread gets its own context (and its own copy
 * of the program under evaluation), so problems need no locking unless
 * their `user` data is written during evaluation.
 */
#ifndef MICROSYNTH_SYNTH_H
#define MICROSYNTH_SYNTH_H

#include <stdint.h>
#include <stdio.h>
#include "common.h"
#include "dsl.h"
#include "jrandom.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What an evaluation computes. */
enum {
	MS_SYNTH_PSI = 0, /**< the objective Psi(p), e.g. win rate against the target opponent */
	MS_SYNTH_C = 1    /**< the cloning score C(L, p) of sketch learning */
};

/** Returned by a problem's `eval` when the program failed (a run-time error): the evaluation scores 0. */
#define MS_SYNTH_FAILED 1
/**
 * Returned by ms_synth_run when the progress callback asked to stop (the
 * checkpoint is complete). Distinct from MS_SYNTH_FAILED, so a caller that
 * passes an evaluation's status on cannot mistake one for the other.
 */
#define MS_SYNTH_STOPPED 2

/* ---- the problem ----------------------------------------------------------- */

/**
 * Version 2 adds opponents (`n_opponents`, `eval_vs`); version 3 adds
 * behavioural features (`n_features`, `feature_values`, `features`);
 * version 4 a static check (`check`). Problems of versions 1 to 3 are
 * still accepted.
 */
#define MS_SYNTH_PROBLEM_VERSION 4

/**
 * Whom Psi is measured against. A problem may number its opponents
 * 0 .. n_opponents - 1 (native bots, Java classes, programs, ... as it
 * defines them); a population is a set of them with weights, and
 * Psi(p) = sum_i w_i Psi_i(p) / sum_i w_i, Psi_i(p) being p's score
 * against opponent i. Self-play loops (iterated best response, fictitious
 * play, 2L) score programs against changing populations of one problem.
 */
typedef struct ms_synth_population {
	int n;                 /**< opponents in the population (0: every opponent of the problem, weight 1) */
	const int *opponents;  /**< their numbers */
	const double *weights; /**< their weights (> 0); NULL: all 1 */
} ms_synth_population;

/**
 * A search problem, as a game provides it. Zero-initialise, set `version`,
 * then the fields; the struct and what it points to must outlive every
 * search and evaluator made from it.
 *
 * Scores: evaluating program p of kind k runs `eval` once per shard
 * (0 .. shards[k]-1) with the same seed; each shard adds a `sum` and a
 * `weight`, and the score is (sum of sums) / (sum of weights), combined in
 * shard order. A shard returning MS_SYNTH_FAILED makes the whole score 0
 * (the Can't Stop reference scores any program that raises 0); a negative
 * status stops the search with that error.
 */
typedef struct ms_synth_problem {
	int version;                   /**< MS_SYNTH_PROBLEM_VERSION */
	const char *name;              /**< e.g. "cantstop"; recorded in checkpoints */
	/**
	 * Everything that changes scores besides the program and the seed
	 * (opponent, matches per evaluation, data set, rule variant), as one
	 * line of text; a checkpoint made under another fingerprint is refused.
	 */
	const char *fingerprint;
	const ms_dsl_grammar *grammar;
	int start;                     /**< non-terminal of whole programs; -1: the grammar's start */
	ms_dsl_gen_options gen;           /**< generation and mutation limits (version 0: dsl.h defaults) */
	int shards[2];                 /**< shards of Psi and of C (0 means 1) */
	int has_c;                     /**< 1 if kind MS_SYNTH_C is defined (needed by sketch searches) */
	void *user;

	/** Per-thread state (may be NULL). `ctx` is the thread's own context; `worker` numbers threads from 0. */
	int (*worker_new)(void *user, ms_ctx *ctx, int worker, void **state);
	void (*worker_free)(void *user, void *state);

	/**
	 * Evaluates one shard. Must depend only on (prog, kind, shard, seed)
	 * and `user`'s read-only data: never on the thread, the time, or what
	 * the thread evaluated before. `prog` belongs to the thread (its
	 * context is `ctx`) and is valid for this call only. Returns 0,
	 * MS_SYNTH_FAILED, or a negative status with a message in `ctx`.
	 */
	int (*eval)(void *user, void *state, ms_ctx *ctx, const ms_dsl_prog *prog, int kind, int shard,
		    uint64_t seed, double *sum, double *weight);

	/* ---- version 2 ---- */
	/** Opponents the problem numbers (0: none; then Psi has no opponent and `eval` is used). */
	int n_opponents;
	/**
	 * As `eval`, against opponent number `opponent` (-1 for kind C, which has
	 * no opponent). Used instead of `eval` when set; required when
	 * n_opponents > 0.
	 */
	int (*eval_vs)(void *user, void *state, ms_ctx *ctx, const ms_dsl_prog *prog, int kind, int opponent,
		       int shard, uint64_t seed, double *sum, double *weight);

	/** A random whole program into `prog` (NULL: ms_dsl_generate of `start` with `gen`). */
	int (*generate)(void *user, ms_dsl_prog *prog, ms_jrandom *rng);
	/** A random neighbour, in place (NULL: ms_dsl_mutate with `gen`, nodes of size > 0). */
	int (*mutate)(void *user, ms_dsl_prog *prog, ms_jrandom *rng);

	/* ---- version 3 ---- */
	/**
	 * Behavioural features F(p) (Aleixo's dissertation, 4.5): n_features
	 * discrete values measured from matches of p against an opponent, what
	 * hierarchical synthesis search (MS_SYNTH_HSS) searches over. 0: none.
	 */
	int n_features;
	/** Feature j takes values 0 .. feature_values[j] - 1 (each at least 1). */
	const int *feature_values;
	/** Their names, for logs and library files (may be NULL). */
	const char *const *feature_names;
	/**
	 * F(prog) against opponent `opponent` (-1: the problem's own, as `eval`)
	 * into out[0 .. n), each an integer in its range. Same rules as `eval`:
	 * depends only on its arguments; MS_SYNTH_FAILED when the program fails
	 * at run time (it then has no features), a negative status on errors.
	 */
	int (*features)(void *user, void *state, ms_ctx *ctx, const ms_dsl_prog *prog, int opponent, uint64_t seed,
			int *out, int n);

	/* ---- version 4 ---- */
	/**
	 * A static check of a whole program (may be NULL: every program
	 * passes): 1 if it is worth evaluating, 0 if not (e.g. ill typed, so
	 * likely to fail at run time, or too large), or a negative error.
	 * Called on the search's thread, with no evaluation running. Local
	 * mutations (ms_synth_options.mutation) draw again while a mutant
	 * fails it and its parent passed.
	 */
	int (*check)(void *user, const ms_dsl_prog *prog);
} ms_synth_problem;

/* ---- the evaluator: a thread pool over shards -------------------------------- */

typedef struct ms_synth_eval ms_synth_eval;

/**
 * An evaluator on `threads` threads: the caller's, which evaluates too
 * while it waits, and threads - 1 started here (none for 1). Each gets a
 * context with `worker_alloc` (NULL: the C allocator; it must be
 * thread-safe) and the problem's worker state.
 */
MS_EXTERN int ms_synth_eval_new(ms_ctx *ctx, ms_synth_eval **out, const ms_synth_problem *pb, int threads,
				const ms_allocator *worker_alloc);
MS_EXTERN void ms_synth_eval_free(ms_synth_eval *ev);

/** Called in order i = 0, 1, ... as each program's score is complete; nonzero return is ignored. */
typedef void (*ms_synth_eval_done_fn)(void *ud, int i, double score, int failed);

/**
 * Scores progs[0..n) (kind MS_SYNTH_PSI or MS_SYNTH_C), program i with
 * seeds[i], all shards of all programs in parallel. `scores` and `failed`
 * (either may be NULL) receive the results; `done` (may be NULL) sees each
 * result as soon as it and all earlier ones are complete. The programs
 * must not change during the call. On a negative return (a problem's
 * error) the message names the program and shard.
 */
MS_EXTERN int ms_synth_eval_programs(ms_synth_eval *ev, const ms_dsl_prog *const *progs, int n, int kind,
				     const uint64_t *seeds, double *scores, int *failed, ms_synth_eval_done_fn done,
				     void *ud);

/**
 * Sets the population that later Psi evaluations are measured against
 * (copied; NULL or n = 0: every opponent of the problem with weight 1).
 * MS_EINVAL for an opponent number outside the problem's, a repeated one,
 * or a weight that is not > 0; the population is then unchanged.
 */
MS_EXTERN int ms_synth_eval_set_population(ms_synth_eval *ev, const ms_synth_population *pop);

/**
 * F(prog) (problem version 3 with features) against `opponent` (-1: the
 * problem's own) on the caller's thread, with worker 0's state; call it
 * between evaluations, never from a `done` callback. Returns 0,
 * MS_SYNTH_FAILED (the program failed at run time; `out` is zeroed), or a
 * negative status (MS_EINVAL when the problem has no features, or a value
 * outside its range).
 */
MS_EXTERN int ms_synth_eval_features(ms_synth_eval *ev, const ms_dsl_prog *prog, int opponent, uint64_t seed,
				     int *out);

/* ---- remote workers: tasks evaluated elsewhere (other MPI ranks) ------------------- */

/** One evaluation task: a program against one opponent (-1: none) on one shard. */
typedef struct ms_synth_task {
	const ms_dsl_prog *prog;
	int kind;     /**< MS_SYNTH_PSI or MS_SYNTH_C */
	int opponent; /**< the problem's opponent number, or -1 */
	int shard;
	uint64_t seed;
} ms_synth_task;

/**
 * Evaluates `task` somewhere else into *sum and *weight, as the problem's
 * eval would: 0, MS_SYNTH_FAILED, or a negative status with a message on
 * `ctx`. Called from the evaluator's threads, one call at a time per slot.
 */
typedef int (*ms_synth_remote_fn)(void *user, int slot, ms_ctx *ctx, const ms_synth_task *task, double *sum,
				  double *weight);

/**
 * Adds `slots` workers that hand their tasks to `fn` (once per evaluator).
 * Results are combined in task order as the local threads' are, so scores
 * do not depend on where a task ran. The caller's thread then no longer
 * evaluates (threads - 1 local helpers still do).
 */
MS_EXTERN int ms_synth_eval_add_remote(ms_synth_eval *ev, int slots, ms_synth_remote_fn fn, void *user);

/** Evaluates one task on the caller's thread with worker 0's state (the serving side of fn). */
MS_EXTERN int ms_synth_eval_task(ms_synth_eval *ev, const ms_synth_task *task, double *sum, double *weight);

/** The seed of evaluation number `index` of a search seeded with `seed` (SplitMix64 mixing). */
MS_EXTERN uint64_t ms_synth_eval_seed(uint64_t seed, uint64_t index);

/* ---- searches ---------------------------------------------------------------- */

typedef enum ms_synth_algo {
	MS_SYNTH_SA = 0,         /**< simulated annealing on Psi, restarted until the budget is spent */
	MS_SYNTH_UCT = 1,        /**< UCT over partial programs with SA rollouts */
	MS_SYNTH_SKETCH_SA = 2,  /**< SA on C (sketch search), then SA on Psi from the best sketch */
	MS_SYNTH_SKETCH_UCT = 3, /**< UCT on C, then UCT on Psi from a tree holding the sketch's branch */
	MS_SYNTH_RANDOM = 4,     /**< random programs: the baseline any search must beat */
	/** hierarchical synthesis search: a bandit over feature vectors picks where SA starts (needs features) */
	MS_SYNTH_HSS = 5,
	/**
	 * raced hill climbing: a mutation of the incumbent plays the incumbent's
	 * matches (paired scores) and is dropped as soon as it is not ahead; one
	 * that stays ahead replaces the incumbent only if it is ahead again on
	 * fresh matches (race_* options)
	 */
	MS_SYNTH_RACE = 6
} ms_synth_algo;

/** "sa", "uct", "sketch-sa", "sketch-uct", "random", "hss", "race"; NULL for unknown values. */
MS_EXTERN const char *ms_synth_algo_name(int algo);
/** The algorithm of a name above, or MS_ENOTFOUND. */
MS_EXTERN int ms_synth_algo_from_name(const char *name);
/** Number of algorithms in the table. */
MS_EXTERN int ms_synth_algo_count(void);
/** Name of the i-th algorithm of the table (0 .. count - 1), or NULL. */
MS_EXTERN const char *ms_synth_algo_name_at(int i);

/** Where an SA pass restarts (the paper and the reference code differ, spec/cantstop.md 7.2, 7.3). */
typedef enum ms_synth_restart {
	/** As the reference code: SA from the initial program if one was given, else from the best program
	 *  so far (a random one while the best scores 0); Sketch-SA's BR search from its previous pass's best. */
	MS_SYNTH_RESTART_CODE = 0,
	MS_SYNTH_RESTART_BEST = 1, /**< always from the best program so far (random while it scores 0) */
	MS_SYNTH_RESTART_PASS = 2  /**< from the best program of the previous pass (the paper's wording) */
} ms_synth_restart;

/** UCT's selection rule. */
typedef enum ms_synth_ucb {
	MS_SYNTH_UCB_CODE = 0, /**< Q + c * sqrt(N / N_rule), as the reference code (no logarithm) */
	MS_SYNTH_UCB_PAPER = 1 /**< Q + c * sqrt(ln N / N_rule), as the paper writes it */
} ms_synth_ucb;

/** Which hole a UCT edge fills. */
typedef enum ms_synth_hole {
	MS_SYNTH_HOLE_SHALLOWEST = 0, /**< the shallowest, leftmost among equals (reference code) */
	MS_SYNTH_HOLE_LEFTMOST = 1    /**< the first in pre-order (the paper) */
} ms_synth_hole;

/** How UCT completes a partial program for its rollout. */
typedef enum ms_synth_completion {
	/** As the reference: leftmost hole first, uniform over the alternatives; after `uct_expansions`
	 *  expansions only terminal-like ones (leaves, or wrappers of leaves), else those with 1 or 2
	 *  children. */
	MS_SYNTH_COMPLETE_CODE = 0,
	MS_SYNTH_COMPLETE_GENERATOR = 1 /**< each hole by ms_dsl_regenerate with the problem's `gen` */
} ms_synth_completion;

/** What a sketch search hands to Psi. */
typedef enum ms_synth_sketch_psi {
	MS_SYNTH_SKETCH_PSI_RUN_BEST = 0,    /**< the best program (by C) of each sketch run (reference code) */
	MS_SYNTH_SKETCH_PSI_IMPROVEMENTS = 1 /**< every program that improves its run's best C (the paper) */
} ms_synth_sketch_psi;

/** Search phases, as reported to progress callbacks. */
enum { MS_SYNTH_PHASE_SEARCH = 0, MS_SYNTH_PHASE_SKETCH = 1, MS_SYNTH_PHASE_BR = 2 };

/** Progress and final statistics. Scores are -1 until something was evaluated. */
typedef struct ms_synth_stats {
	double elapsed;          /**< seconds, including the time before a resume */
	double fraction;         /**< share of the budget spent, 0..1 */
	long long evals_psi;     /**< evaluations of Psi (cache hits excluded) */
	long long evals_c;       /**< evaluations of C */
	long long cache_hits;
	long long replayed;      /**< evaluations taken from the checkpoint */
	double best_psi;         /**< best Psi seen */
	double best_c;           /**< best C seen */
	int phase;               /**< MS_SYNTH_PHASE_* */
	int replaying;           /**< 1 while the checkpoint is being replayed */
	int improved;            /**< 1 if the evaluation just reported improved best_psi or best_c */
	int timed;               /**< 1 if budgeted by time: not reproducible */
	int last_kind;           /**< kind of the evaluation just reported */
	double last_score;       /**< its score */
} ms_synth_stats;

/**
 * Called after every evaluation, in order (also while replaying a
 * checkpoint). A nonzero return stops the search after the current batch;
 * ms_synth_run then returns MS_SYNTH_STOPPED.
 */
typedef int (*ms_synth_progress_fn)(void *ud, const ms_synth_stats *st);

/** How a search's mutations change a program (ms_synth_options.mutation). */
typedef enum ms_synth_mutation {
	/** the problem's mutation (a subtree regrown, as the references do); the default */
	MS_SYNTH_MUTATION_SUBTREE = 0,
	/**
	 * local edits (ms_dsl_mutate_local): one, then each further one with
	 * probability 1/2 (at most 4), drawn again (up to 100 times) while the
	 * problem's `check` refuses the mutant and passed its parent
	 */
	MS_SYNTH_MUTATION_LOCAL = 1,
	MS_SYNTH_MUTATION_MIXED = 2 /**< each mutation local or subtree with probability 1/2 */
} ms_synth_mutation;

/*
 * Version 2: the hss_* and population fields (they joined the struct while
 * it still said 1, so options declaring 1 are refused rather than read past
 * their end); version 3: the race_* fields; version 4: `mutation`. Options
 * of versions 2 and 3 are still accepted (the later fields take their
 * defaults).
 */
#define MS_SYNTH_OPTIONS_VERSION 4

/**
 * Search settings. ms_synth_options_init fills the reference code's values
 * (spec/cantstop.md 7); change fields after it.
 */
typedef struct ms_synth_options {
	int version;             /**< MS_SYNTH_OPTIONS_VERSION */
	int algo;                /**< ms_synth_algo */
	uint64_t seed;
	int threads;             /**< evaluation threads (1) */
	const ms_allocator *worker_alloc; /**< allocator of the threads' contexts (NULL: C allocator) */

	/* budget: at least one of the first two */
	long long max_evals;     /**< Psi evaluations (0: no limit) */
	double max_seconds;      /**< wall clock (0: no limit); not reproducible */
	/** C evaluations of the sketch phase (0: Sketch-SA as the code, `sketch_runs` x `sketch_passes`
	 *  passes; Sketch-UCT: max_evals, or without max_evals only the time share) */
	long long sketch_evals;
	/** share of max_seconds for the sketch phase; 0 means the default: 0.2 for Sketch-UCT (about the
	 *  paper's 10 h of 48 h), none for Sketch-SA (bounded by its passes, as the code) */
	double sketch_share;

	/* simulated annealing (spec 7.2): T = t1 / (1 + alpha * i), a pass ends when T <= eps */
	double sa_t1;            /**< 100 */
	double sa_alpha;         /**< 0.9 */
	double sa_beta;          /**< 200: accept with min(1, exp(beta * (new - current) / T)) */
	double sa_eps;           /**< 1 */
	int sa_neighbours;       /**< neighbours per step, the best one competes (1; MicroRTS SA uses 20) */
	int sa_restart;          /**< ms_synth_restart */
	int sa_cache;            /**< 1: cache Psi and C by program in SA too (0, as the code) */

	/* UCT (spec 7.4) */
	double uct_c;            /**< exploration constant (10: the paper's K and the reference logs' "c10") */
	int uct_ucb;             /**< ms_synth_ucb */
	int uct_hole;            /**< ms_synth_hole */
	int uct_completion;      /**< ms_synth_completion */
	int uct_expansions;      /**< free expansions of a completion before terminal-like ones (10) */
	int uct_rollout_sa;      /**< 1: SA rollout over the filled-in parts (code, "-sim_function SA");
				      0: one random completion */

	/* sketch learning (spec 7.3, 7.4) */
	int sketch_runs;         /**< sketch searches (0: 5 for Sketch-SA, 3 for Sketch-UCT, as the code) */
	int sketch_passes;       /**< SA passes per sketch run (10) */
	int sketch_psi;          /**< ms_synth_sketch_psi */

	/** SA starts from this program (and, under MS_SYNTH_RESTART_CODE, restarts from it, as the code);
	 *  UCT's tree starts with this program's branch, scored by one Psi evaluation. Not for sketch
	 *  searches, whose sketch is their start. */
	const ms_dsl_prog *initial;

	/** Psi is measured against this population (NULL: every opponent of the problem, weight 1);
	 *  recorded in the checkpoint, so a resume under another population is refused. */
	const ms_synth_population *population;

	/* output */
	/** evaluation log path (NULL: none). A resume needs the settings it records (problem, seed,
	 *  algorithm options); the thread count may differ, and a larger budget extends the run. */
	const char *checkpoint;
	int resume;              /**< 1: replay `checkpoint` if it exists; 0: refuse an existing file */
	int checkpoint_sync;     /**< 1: fdatasync after every record (survives power loss; slower) */
	const char *csv;         /**< CSV log path (appended): seconds,best_psi,best_c,evals_psi,evals_c,phase */
	ms_synth_progress_fn progress;
	void *progress_ud;

	/*
	 * HSS (dissertation 4.5, 2.2.2): each iteration, two-phase naive
	 * sampling picks a feature vector V (explore with probability eps0:
	 * each feature's value from its local bandit, eps_l-greedy; else a
	 * known vector from the global bandit, eps_g-greedy), SA runs
	 * `hss_passes` passes from the library program nearest to V (L1), and
	 * every program the passes scored joins the library and updates the
	 * bandits with its Psi. Before each update every mean is multiplied by
	 * `hss_gamma`, so recent evaluations weigh more. The first
	 * `hss_switch` iterations use the exploring epsilons, later ones the
	 * exploiting ones.
	 */
	double hss_eps1[3];      /**< phase 1 eps0, eps_l, eps_g (0.8, 0.5, 0.3) */
	double hss_eps2[3];      /**< phase 2 (0.3, 0.2, 0.05) */
	double hss_gamma;        /**< decay of the means, 0 < gamma <= 1 (0.95) */
	int hss_switch;          /**< iterations of phase 1 (10) */
	int hss_passes;          /**< SA passes per iteration (1) */
	/** Program library file: read at the start if it exists (transfer from earlier calls), rewritten
	 *  at the end with every program met. NULL: the library lives only in this search. */
	const char *hss_library;
	/** Opponent number F(p) is measured against (-1: the population's first, or the problem's own). */
	int hss_feature_opponent;
	/**
	 * HSS: after each iteration, its best program, when its score beats the
	 * champion's mean, is scored this many more times; the champion is the
	 * best mean over 1 + hss_confirm scores, and the search's best Psi
	 * (ms_synth_best) is the champion once there is one (2; 0: the best single
	 * score, as the other algorithms).
	 */
	int hss_confirm;

	/*
	 * Raced hill climbing (MS_SYNTH_RACE). The incumbent has scores on
	 * `race_blocks` evaluations' seeds, drawn afresh whenever it changes.
	 * A mutation of it is scored on the same seeds one at a time (the same
	 * matches: paired) and dropped as soon as its summed gain over the
	 * incumbent is not above 0; one that stays ahead through all of them
	 * is scored with the incumbent on `race_confirm` fresh seeds, and
	 * replaces it when its mean gain there exceeds `race_margin` by
	 * `race_z` standard errors (from the spread of those gains). The
	 * scores a candidate was selected on never decide its acceptance, so
	 * the best of thousands of lucky scores is not taken for a better
	 * program. The search's best Psi (ms_synth_best) is the incumbent,
	 * scored by its mean over its race seeds, drawn after it was accepted.
	 */
	int race_blocks;         /**< paired evaluations of the race (4) */
	int race_confirm;        /**< fresh paired evaluations of the confirmation (16) */
	double race_margin;      /**< mean gain per evaluation the confirmation needs (0) */
	double race_z;           /**< standard errors it must clear the margin by (2; 0: the mean alone) */

	/* ---- version 4 ---- */
	/**
	 * ms_synth_mutation: the neighbours of SA, Sketch-SA, HSS and the race
	 * (MS_SYNTH_MUTATION_SUBTREE). Under local or mixed mutation the race
	 * scores each distinct mutant once per incumbent: a local neighbourhood
	 * is small, so the same mutant comes back often, and on the same race
	 * seeds it would score the same.
	 */
	int mutation;
} ms_synth_options;

/**
 * Fills the defaults above (version: MS_SYNTH_OPTIONS_VERSION); 0, or MS_EINVAL for a version this
 * build does not know.
 */
MS_EXTERN int ms_synth_options_init(ms_synth_options *opts, unsigned int version);

/* ---- knobs: the algorithms' settings by name ---------------------------------- */

/** How a knob's value is read and stored. */
typedef enum ms_synth_knob_type {
	MS_SYNTH_KNOB_INT = 0,    /**< an int field, an integer in [lo, hi] */
	MS_SYNTH_KNOB_LONG = 1,   /**< a long long field, an integer in [lo, hi] */
	MS_SYNTH_KNOB_REAL = 2,   /**< a double field, a number in [lo, hi] ((lo, hi] if open_lo) */
	MS_SYNTH_KNOB_STRING = 3, /**< a const char * field: the value itself (not copied, must outlive o) */
	MS_SYNTH_KNOB_CHOICE = 4  /**< an int field: the index of the value among `choices` */
} ms_synth_knob_type;

/**
 * One named setting of ms_synth_options, published by the option family that
 * owns it (SA, UCT, sketch learning, HSS), so front ends set any
 * algorithm's settings from a name without knowing them.
 */
typedef struct ms_synth_knob {
	const char *name;     /**< the command-line flag, e.g. "--uct-c" */
	int type;             /**< ms_synth_knob_type */
	double lo, hi;        /**< the range of INT, LONG and REAL values */
	int open_lo;          /**< REAL: 1 excludes lo */
	size_t offset;        /**< of the field in ms_synth_options */
	unsigned int algos;   /**< the algorithms it applies to: bit 1u << ms_synth_algo */
	const char *choices;  /**< CHOICE: the values, '|'-separated ("code|best|pass") */
	const char *arg;      /**< the value's placeholder in help ("N", "X", "FILE") */
	const char *help;     /**< one line: what it sets, the library's default */
} ms_synth_knob;

/** The i-th knob of every family (NULL past the last), in the families' order. */
MS_EXTERN const ms_synth_knob *ms_synth_knob_at(size_t i);
/** The knob called name (its flag, "--uct-c"), or NULL. */
MS_EXTERN const ms_synth_knob *ms_synth_knob_find(const char *name);
/**
 * Sets the knob `name` of o from its text `value`, range-checked; 0, or
 * MS_EINVAL with a message naming the flag and the value (an unknown name,
 * a value out of range or not of the knob's type).
 */
MS_EXTERN int ms_synth_options_set(ms_ctx *ctx, ms_synth_options *o, const char *name, const char *value);
/** The names of the algorithms knob k applies to, "a, b, c" in the table's order, into out (cut to size). */
MS_EXTERN void ms_synth_knob_algo_list(const ms_synth_knob *k, char *out, size_t size);
/**
 * 0 if the knob `name` applies to algorithm `algo`; else MS_EINVAL with the
 * one message "--X applies to A, B only" (MS_ENOTFOUND for an unknown name).
 */
MS_EXTERN int ms_synth_knob_applies(ms_ctx *ctx, const char *name, int algo);

typedef struct ms_synth ms_synth;

/**
 * Prepares a search: checks the options against the problem, starts the
 * evaluator, opens the checkpoint (replaying it on ms_synth_run when
 * `resume` is set and the file exists; its settings must match) and the
 * CSV log. Errors name the option or file at fault.
 */
MS_EXTERN int ms_synth_new(ms_ctx *ctx, ms_synth **out, const ms_synth_problem *pb, const ms_synth_options *o);

/**
 * Runs until the budget is spent (returns 0), the progress callback stops
 * it (MS_SYNTH_STOPPED), or an error (negative). Call once.
 */
MS_EXTERN int ms_synth_run(ms_synth *s);

/** Best program of `kind` found so far (NULL if none); owned by the search. */
MS_EXTERN const ms_dsl_prog *ms_synth_best(const ms_synth *s, int kind);
/** Its score (-1 if none). */
MS_EXTERN double ms_synth_best_score(const ms_synth *s, int kind);
MS_EXTERN void ms_synth_get_stats(const ms_synth *s, ms_synth_stats *out);
/** The search's evaluator (to add remote workers before ms_synth_run). */
MS_EXTERN ms_synth_eval *ms_synth_evaluator(ms_synth *s);
MS_EXTERN void ms_synth_free(ms_synth *s);

/* ---- self-play ------------------------------------------------------------------ */

/** Learning loops over programs (dissertation 2.5; Moraes et al., IJCAI 2023). */
typedef enum ms_synth_loop {
	MS_SYNTH_LOOP_IBR = 0, /**< iterated best response: a best response to the previous iteration's program */
	MS_SYNTH_LOOP_FP = 1,  /**< fictitious play: to the uniform mixture of every earlier iteration's program */
	MS_SYNTH_LOOP_2L = 2   /**< 2L: to the subset of earlier programs that explains the whole pool (below) */
} ms_synth_loop;

/** "ibr", "fp", "2l"; NULL for other values. */
MS_EXTERN const char *ms_synth_loop_name(int loop);
/** The loop of a name above, or MS_ENOTFOUND. */
MS_EXTERN int ms_synth_loop_from_name(const char *name);

/**
 * What a game gives self-play: problems whose opponents include programs.
 * `make` returns a problem whose opponents 0 .. n_fixed - 1 are the
 * game's fixed ones (bots, e.g. GA) and n_fixed + j is progs[j] (0 <= j <
 * n); the problem and `*handle` stay valid until `release(ud, handle)`.
 * Every problem made must score a program the same way against the same
 * opponent whatever else is in the list.
 */
typedef struct ms_synth_selfplay_game {
	void *ud;
	int n_fixed;
	int (*make)(void *ud, ms_ctx *ctx, const ms_dsl_prog *const *progs, int n, const ms_synth_problem **pb,
		    void **handle);
	void (*release)(void *ud, void *handle);
} ms_synth_selfplay_game;

/** One iteration's outcome, as the callback sees it. */
typedef struct ms_synth_selfplay_iter {
	int iteration;                   /**< 0, 1, ... */
	const ms_dsl_prog *prog;         /**< its best response (owned by the loop; copy it to keep it) */
	double psi;                      /**< its score against its population, from its search */
	const ms_synth_population *pop;  /**< the population it answered (opponent numbers as in `make`) */
	ms_synth_stats stats;            /**< its search's statistics */
} ms_synth_selfplay_iter;

#define MS_SYNTH_SELFPLAY_OPTIONS_VERSION 2 /* 2 added on_search; 1 is still accepted */

/**
 * Self-play settings; ms_synth_selfplay_options_init fills the defaults.
 *
 * Iteration 0 answers the fixed opponents (weight 1 each). Iteration i > 0
 * answers programs of earlier iterations, plus every fixed opponent with
 * weight `fixed_weight` when it is > 0:
 *   IBR: program i - 1;  FP: programs 0 .. i - 1, weight 1 each;
 *   2L: program i - 1 and, greedily, the earlier programs that bring the
 *   mean score over the chosen set closest to the mean over all earlier
 *   programs, measured on `l2_programs` programs spread over the previous
 *   search (each scored against each earlier program), until the mean
 *   absolute gap is at most `l2_tolerance`. The IJCAI 2023 paper's 2L keeps
 *   the opponents that change how the learner's candidates rank; this is a
 *   cheap stand-in of the same idea: as few opponents as tell programs
 *   apart as the whole pool does.
 * The best-response search of iteration i is `br` with seed br.seed + i,
 * its population set by the loop; a checkpoint directory holds one search
 * log per iteration (iter-NNN.log), so a killed loop resumes by replaying
 * them.
 */
typedef struct ms_synth_selfplay_options {
	int version;             /**< MS_SYNTH_SELFPLAY_OPTIONS_VERSION */
	int loop;                /**< ms_synth_loop */
	int iterations;          /**< at least 1 */
	double fixed_weight;     /**< weight of the fixed opponents after iteration 0 (0: left out) */
	ms_synth_options br;        /**< the best-response search (budget per iteration); population, initial,
				      checkpoint and resume are the loop's */
	const char *checkpoint_dir; /**< existing directory for the iterations' logs (NULL: none) */
	int resume;              /**< 1: replay the logs found there */
	int l2_programs;         /**< 2L: programs of the previous search that judge the pool (20) */
	double l2_tolerance;     /**< 2L: mean absolute gap allowed (0.02) */
	/** Called after each iteration; a nonzero return stops the loop (ms_synth_selfplay returns MS_SYNTH_STOPPED). */
	int (*on_iteration)(void *ud, const ms_synth_selfplay_iter *it);
	void *ud;
	/**
	 * Version 2: called (may be NULL) with each iteration's search once made, before it runs, with the
	 * problem and the earlier programs the game's `make` got (progs[0 .. n)); a negative return ends the
	 * loop with that error. Lets a caller add remote workers (ms_synth_eval_add_remote), e.g. MPI ranks
	 * that build the same problem from the same programs.
	 */
	int (*on_search)(void *ud, ms_synth *s, const ms_synth_problem *pb, const ms_dsl_prog *const *progs, int n);
} ms_synth_selfplay_options;

/**
 * Fills the defaults above (version: MS_SYNTH_SELFPLAY_OPTIONS_VERSION); 0, or MS_EINVAL for a
 * version this build does not know.
 */
MS_EXTERN int ms_synth_selfplay_options_init(ms_synth_selfplay_options *opts, unsigned int version);

/**
 * Runs the loop. progs[0 .. iterations) are programs of the game's grammar
 * that receive each iteration's best response. Returns 0, MS_SYNTH_STOPPED
 * (the callback, or a search's progress callback, asked to stop: the
 * checkpoint logs are complete), or a negative error.
 */
MS_EXTERN int ms_synth_selfplay(ms_ctx *ctx, const ms_synth_selfplay_game *game, const ms_synth_selfplay_options *o,
				ms_dsl_prog *const *progs);

/* ---- a progress bar -------------------------------------------------------- */

/** State of ms_synth_progress_bar; zero-initialise and set `out` (e.g. stderr). */
typedef struct ms_synth_bar {
	FILE *out;
	double last;   /* elapsed time of the last drawing */
	int drawn;
} ms_synth_bar;

/**
 * A progress callback (pass an ms_synth_bar as `progress_ud`): one line
 * redrawn at most 5 times a second with the bar, elapsed time, ETA, best
 * Psi and C, and evaluation counts. Never stops the search.
 */
MS_EXTERN int ms_synth_progress_bar(void *bar, const ms_synth_stats *st);
/** Ends the bar's line (call after ms_synth_run). */
MS_EXTERN void ms_synth_bar_end(ms_synth_bar *bar);

#ifdef __cplusplus
}
#endif
#endif
