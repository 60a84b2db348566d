/*
 * General Game Playing: a reasoner for games written in GDL (KIF syntax).
 *
 * A rule file is parsed, checked (safety, stratification, GDL's use of its
 * keywords), analysed for the domain of every relation (a relaxed bottom-up
 * fixpoint that ignores negation on relations that depend on the state) and
 * grounded to propositional rules evaluated bottom-up; a state is a bitset
 * over the fluents that domain analysis found. Above a grounding-size bound,
 * past a grounding time bound, or when timed playouts at load find it
 * faster, the same rules are evaluated first-order on each state instead
 * (the fallback), with identical answers.
 *
 * Semantics are those of ggp-base's ProverStateMachine, including on the
 * unsafe test files it still plays (see docs/gdl.md); a goal relation that
 * gives a role zero or several values in a state is reported as an error
 * naming the role and the state, never resolved by a guess.
 */
#ifndef MICROSYNTH_GDL_H
#define MICROSYNTH_GDL_H

#include "microsynth/common.h"
#include "microsynth/spec.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A loaded, checked and grounded rule set (immutable after loading). */
typedef struct ms_gdl ms_gdl;
/** Scratch space for reasoning about one state at a time (one per thread). */
typedef struct ms_gdl_machine ms_gdl_machine;

#define MS_GDL_OPTIONS_VERSION 4

/** The tools' default for ms_gdl_options.choose_seconds: short beside a start clock. */
#define MS_GDL_CHOOSE_SECONDS 0.1

/** Options for ms_gdl_load; zero-initialise then set `version`. */
typedef struct ms_gdl_options {
	unsigned int version; /**< MS_GDL_OPTIONS_VERSION */
	/** Reject unsafe rules (as ggp-base's validator does) instead of giving
	 * them the prover's meaning. 0: accept with the prover's meaning. */
	int strict;
	/** Ground literals above which the reasoner falls back to first-order
	 * evaluation per state; 0: 4,000,000. */
	long ground_bound;
	/** 1: never ground (always use the fallback); for tests and comparison. */
	int force_fallback;
	/** Join steps the domain analysis may take before the rules are rejected
	 * (MS_ERANGE): rules whose domain is unbounded, through recursion on
	 * function terms, never finish otherwise (nor may they make more than
	 * 50,000,000 terms). The same bound holds for each rule component of one
	 * first-order evaluation of a state (MS_ERANGE from the machine's calls).
	 * 0: 1,000,000,000. */
	long relax_bound;
	/** Terms (about 40 bytes each) the domain analysis may make before the
	 * rules are rejected (MS_ERANGE, naming the relation with the most facts
	 * and an estimate of its size); 0: 50,000,000. Since version 2. */
	long max_terms;
	/** Seconds from the start of loading within which grounding (the
	 * domain analysis while it records ground rules, then the network's
	 * compilation) must end; past them grounding is abandoned, everything
	 * it built freed, and the rules load on the fallback as above the size
	 * bound. The analysis the fallback needs still runs to its end (it is
	 * most of chess's load). 0: no bound; negative or NaN: MS_EINVAL.
	 * Since version 3. */
	double ground_seconds;
	/** When the rules ground: seconds at most that random playouts from the
	 * initial state are timed on each representation (2,000 steps at most,
	 * the same moves on both; a step begun is finished), keeping the
	 * faster; answers are the same either way, only speed differs. 0 or
	 * negative: not timed, the network kept (the default: a zeroed struct
	 * loads with no timing, so small games load in milliseconds and always
	 * on the same representation; MS_GDL_CHOOSE_SECONDS is the tools'
	 * value). Since version 3. */
	double choose_seconds;
	/** Goal-directed loading (issue 46, item 2): the domain analysis leaves
	 * out the relations every query binds (hex's lists of cells, morris's
	 * stone count), and the fallback evaluates a state top-down from the
	 * queries of legal, goal, terminal and next, answering static relations
	 * on demand and keeping their answers for the machine's life; no
	 * network. 0: only when the plain analysis takes more than
	 * goal_directed_steps join steps or makes a fifth of that in terms (and
	 * the goal-directed one does not; past both, the plain analysis runs
	 * again to its end, and if the rules do not ground the fallback still
	 * evaluates top-down, as chess does); 1: always; -1: never (the plain
	 * analysis, and the fallback bottom-up). Since version 4. */
	int goal_directed;
	/** The budget of goal_directed 0, in join steps of each analysis;
	 * 0: 10,000,000 (a few seconds). Since version 4. */
	long goal_directed_steps;
} ms_gdl_options;

/**
 * Zero-initialises `opts` and sets its version (MS_GDL_OPTIONS_VERSION): 0, or MS_EINVAL for a
 * version this build does not know.
 */
MS_EXTERN int ms_gdl_options_init(ms_gdl_options *opts, unsigned int version);

/**
 * Parses `len` bytes of KIF text (`name` is used in messages) and builds the
 * reasoner. Errors (MS_EPARSE, MS_EINVAL) name the file and line.
 */
MS_EXTERN int ms_gdl_parse(ms_ctx *ctx, ms_gdl **out, const char *text, size_t len, const char *name,
			   const ms_gdl_options *opts);

/** Reads a file and calls ms_gdl_parse; MS_EIO if it cannot be read. */
MS_EXTERN int ms_gdl_load(ms_ctx *ctx, ms_gdl **out, const char *path, const ms_gdl_options *opts);

/** Frees a rule set; NULL is ignored. Free its machines first. */
MS_EXTERN void ms_gdl_free(ms_gdl *g);

/** Number of roles (the `role` facts, in file order). */
MS_EXTERN int ms_gdl_num_roles(const ms_gdl *g);
/** Name of role `r` (0-based), or NULL. */
MS_EXTERN const char *ms_gdl_role_name(const ms_gdl *g, int r);
/** Index of the role named `name`, or -1. */
MS_EXTERN int ms_gdl_role_index(const ms_gdl *g, const char *name);

/** 1 if the rules were grounded, 0 if the first-order fallback is in use. */
MS_EXTERN int ms_gdl_is_grounded(const ms_gdl *g);

/** Why a rule set evaluates the way it does (ms_gdl_representation). */
enum {
	MS_GDL_REP_NETWORK = 0,  /**< grounded (and not slower than the fallback, if timed) */
	MS_GDL_REP_FORCED,       /**< force_fallback */
	MS_GDL_REP_SIZE,         /**< the size bound, or a relation the analysis leaves unknown */
	MS_GDL_REP_TIME,         /**< ground_seconds passed */
	MS_GDL_REP_FASTER,       /**< grounded, but timed playouts ran faster on the fallback */
	MS_GDL_REP_LARGE         /**< the plain analysis passed goal_directed_steps: goal-directed fallback */
};

/**
 * What the load decided, as MS_GDL_REP_*; with the steps per second that
 * timed playouts measured on the network and on the fallback (0 and 0 when
 * nothing was timed) and the seconds the analysis and grounding took
 * (pointers may be NULL).
 */
MS_EXTERN int ms_gdl_representation(const ms_gdl *g, double *network_rate, double *fallback_rate,
				    double *ground_seconds);

/** Number of fluents (possible `true` facts) and of 64-bit words in a state. */
MS_EXTERN int ms_gdl_num_fluents(const ms_gdl *g);
MS_EXTERN size_t ms_gdl_state_words(const ms_gdl *g);
/** Number of moves (possible `does` facts over all roles). */
MS_EXTERN int ms_gdl_num_moves(const ms_gdl *g);
/** The role that move `mv` belongs to. */
MS_EXTERN int ms_gdl_move_role(const ms_gdl *g, int mv);

/** Writes the initial state into `state` (ms_gdl_state_words words). */
MS_EXTERN void ms_gdl_initial(const ms_gdl *g, uint64_t *state);

/**
 * Prints fluent `f` or move `mv` in ggp-base's compact form ("(cell 1 1 x)",
 * "noop") into `buf`; returns the length it needs (like snprintf).
 */
MS_EXTERN int ms_gdl_fluent_text(const ms_gdl *g, int f, char *buf, size_t size);
MS_EXTERN int ms_gdl_move_text(const ms_gdl *g, int mv, char *buf, size_t size);

/** Creates a machine for `g`. */
MS_EXTERN int ms_gdl_machine_new(ms_ctx *ctx, ms_gdl_machine **out, const ms_gdl *g);
/** Frees a machine; NULL is ignored. */
MS_EXTERN void ms_gdl_machine_free(ms_gdl_machine *m);

/**
 * Makes `state` the machine's current state and evaluates everything that
 * does not depend on a move (legal, terminal, goal). MS_ENOMEM, or MS_EINVAL
 * if the fallback's evaluation fails.
 */
MS_EXTERN int ms_gdl_machine_set(ms_gdl_machine *m, const uint64_t *state);
/** 1 if the current state is terminal. */
MS_EXTERN int ms_gdl_terminal(const ms_gdl_machine *m);
/**
 * The legal moves of role `r` in the current state, as move ids in
 * ascending order; the array lives until the next ms_gdl_machine_set.
 */
MS_EXTERN int ms_gdl_legal(const ms_gdl_machine *m, int r, const int **moves);
/**
 * The goal value of role `r` in the current state. MS_EINVAL, with a message
 * naming the role, the number of values and the state, if the rules give
 * the role not exactly one value.
 */
MS_EXTERN int ms_gdl_goal(ms_gdl_machine *m, int r, int *value);
/**
 * The state after joint move `joint` (one move id per role) from the
 * current state, into `next`. MS_EILLEGAL if a move is not legal.
 */
MS_EXTERN int ms_gdl_next(ms_gdl_machine *m, const int *joint, uint64_t *next);

/** Fluent `f` is true in `state`. */
static inline int ms_gdl_state_has(const uint64_t *state, int f)
{
	return (int)((state[f >> 6] >> (f & 63)) & 1u);
}

/* ---- StatGUCT: an evaluation function built from the rules -------------- */

/**
 * A linear evaluation function per role, `Eval(s) = sum w_i f_i(s) + c` on
 * the goal scale (0-100), as MAGICIAN's StatGUCT builds it. A feature is
 * the number of true fluents matching a pattern whose argument positions
 * are each a constant of that position's domain or `?` (generalisation and
 * specialisation of the fluents the rules can make), or the difference of
 * two patterns that differ in one position. The statistics: random games
 * give sequences of up to `positions` states `gap` random joint moves
 * apart, each scored by the mean goal of `playouts` random playouts from
 * its first state; per feature TV (variance over the sequences' first
 * states), SV (mean variance within a sequence), the correlation of the
 * per-sequence mean with the result, stability S = TV / (TV + k SV);
 * features are ranked by min(S, |corr|), the first `keep` kept with
 * weight S corr, and the constant is the mean result.
 */
typedef struct ms_gdl_eval ms_gdl_eval;

#define MS_GDL_STAT_OPTIONS_VERSION 1

/** Options for ms_gdl_stat_build; ms_gdl_stat_options_init fills them. */
typedef struct ms_gdl_stat_options {
	unsigned int version; /**< MS_GDL_STAT_OPTIONS_VERSION */
	int sequences;        /**< sample sequences (default 100) */
	int positions;        /**< states per sequence at most (default 5) */
	int gap;              /**< random joint moves between them: uniform 1..gap (default 2) */
	int playouts;         /**< random playouts scoring a sequence (default 10) */
	double stability_k;   /**< k of S = TV / (TV + k SV) (default 10) */
	int keep;             /**< features kept (default 30) */
	int differences;      /**< 1: difference features too (default 1) */
	long max_features;    /**< candidate features at most (default 20000) */
	int goal_default;     /**< goal of a role whose goal is ill defined (default 0) */
	uint64_t seed;        /**< default 1 */
} ms_gdl_stat_options;

/**
 * Fills the defaults above (version: MS_GDL_STAT_OPTIONS_VERSION); 0, or MS_EINVAL for a version
 * this build does not know.
 */
MS_EXTERN int ms_gdl_stat_options_init(ms_gdl_stat_options *opts, unsigned int version);

/**
 * Builds the function of every role from random play on `g` (which must
 * outlive it). Deterministic for a seed. MS_EINVAL on bad options or if a
 * random game cannot be played (a role without legal moves).
 */
MS_EXTERN int ms_gdl_stat_build(ms_ctx *ctx, ms_gdl_eval **out, const ms_gdl *g, const ms_gdl_stat_options *o);
MS_EXTERN void ms_gdl_eval_free(ms_gdl_eval *e);

/** Number of candidate features generated from the rules (before ranking). */
MS_EXTERN long ms_gdl_eval_candidates(const ms_gdl_eval *e);
/** Terms of role r's function, and term i's weight, feature value in a state and text. */
MS_EXTERN int ms_gdl_eval_terms(const ms_gdl_eval *e, int r);
MS_EXTERN double ms_gdl_eval_weight(const ms_gdl_eval *e, int r, int i);
MS_EXTERN double ms_gdl_eval_constant(const ms_gdl_eval *e, int r);
MS_EXTERN int ms_gdl_eval_term_value(const ms_gdl_eval *e, int r, int i, const uint64_t *state);
/** "(cell ? ? bk)" or "(cell ? ? wp)-(cell ? ? bp)"; returns the length it needs (like snprintf). */
MS_EXTERN int ms_gdl_eval_term_text(const ms_gdl_eval *e, int r, int i, char *buf, size_t size);
/** Role r's Eval of `state` on the goal scale (not clamped). */
MS_EXTERN double ms_gdl_eval_state(const ms_gdl_eval *e, int r, const uint64_t *state);

/* ---- UCT (decoupled, on the MCTS core of mcts.h) ----------------------- */

/**
 * A UCT player for any role of a rule set. GDL moves are simultaneous, so
 * a tree node's move is a joint move and each role picks its own part by
 * UCB1 on its own statistics (decoupled UCT): role r's move a at a node has
 * the visits and summed rewards (goal/100 of r) of all children whose joint
 * move has r playing a. Untried moves of a role come first (uniformly, or
 * by the history heuristic); one node is added per simulation; playouts are
 * uniformly random (or Gibbs sampling on the history) until terminal. The
 * tree below the joint move actually played is kept for the next search.
 * Transpositions (optional): equal states reached by different paths stay
 * separate nodes, but a table keyed by state pools their rewards, and a
 * child's mean is taken from the table (its visit count from the edge).
 */
typedef struct ms_gdl_uct ms_gdl_uct;

#define MS_GDL_UCT_OPTIONS_VERSION 1

/** Options for ms_gdl_uct_new; ms_gdl_uct_options_init fills them. */
typedef struct ms_gdl_uct_options {
	unsigned int version; /**< MS_GDL_UCT_OPTIONS_VERSION */
	long simulations;     /**< new simulations per search (default 1000) */
	double c;             /**< UCB1: mean + c * sqrt(2 ln N / n), rewards in [0, 1] (default 0.5) */
	int keep_tree;        /**< 1: keep the subtree below the played joint move (default 1) */
	int playout_limit;    /**< joint moves per playout, then goals of that state; 0: none (default) */
	/** History heuristic (MAST): every move's mean reward for its role over
	 * all simulations orders untried moves and, with Gibbs sampling at
	 * temperature history_tau, biases playouts. 0: off (default). */
	int history;
	double history_tau; /**< default 0.1 (rewards in [0, 1]) */
	uint64_t seed;      /**< default 1 */
	/** Transposition table entries (states whose statistics are pooled),
	 * 0: no transpositions (default). When full, new states go unpooled. */
	long transpositions;
	/** GUCT (MAGICIAN slides 13-14): an evaluation function guiding the
	 * search (read at every use, so it may be refined between searches);
	 * NULL: plain UCT. Its value for a role, clamped to 0-100, over 100 is
	 * the reward. The four uses below are independent. */
	const ms_gdl_eval *eval;
	double cutoff;  /**< p: each playout step ends the playout, scored by eval, with this probability (default 0.1) */
	double replace; /**< q: a whole playout is replaced by eval of its first state with this probability (default 0) */
	int order;      /**< 1: a role's untried moves are tried best eval of the position they lead to first (default 0) */
	int prior;      /**< n: a role's move starts with eval of its position worth n visits (default 0: off) */
} ms_gdl_uct_options;

/**
 * Fills the defaults above (version: MS_GDL_UCT_OPTIONS_VERSION); 0, or MS_EINVAL for a version
 * this build does not know.
 */
MS_EXTERN int ms_gdl_uct_options_init(ms_gdl_uct_options *opts, unsigned int version);


/** Creates a UCT player on `g` (which must outlive it). MS_EINVAL on bad options. */
MS_EXTERN int ms_gdl_uct_new(ms_ctx *ctx, ms_gdl_uct **out, const ms_gdl *g, const ms_gdl_uct_options *o);
MS_EXTERN void ms_gdl_uct_free(ms_gdl_uct *u);

/**
 * Searches from `state` (continuing the kept tree if its root is this
 * state) and writes into `joint` each role's most visited move at the root
 * (ties: higher mean, then lower move id). MS_EINVAL if the state is
 * terminal, if a role has no legal move, if the joint moves of a state
 * exceed 1024, or if a goal is ill defined.
 */
MS_EXTERN int ms_gdl_uct_search(ms_gdl_uct *u, const uint64_t *state, int *joint);

/** Tells the player the joint move that was played from the last searched state (prunes the tree). */
MS_EXTERN void ms_gdl_uct_played(ms_gdl_uct *u, const int *joint);

/**
 * Role r's statistics for move mv at the root of the last search: visits
 * and mean reward in [0, 1] (0 and 0 for a move without a child), from the
 * tree's own nodes (not pooled by the transposition table).
 */
MS_EXTERN void ms_gdl_uct_root_stats(const ms_gdl_uct *u, int r, int mv, long *visits, double *mean);

/**
 * SGUCT's training set: calls fn with the state of every tree node where
 * role r has tried each of its legal moves and that has at least
 * `min_visits` visits, and the mean reward of r's best move there, on the
 * goal scale (0-100). Stops at and returns fn's first non-zero result.
 */
MS_EXTERN int ms_gdl_uct_expanded(ms_gdl_uct *u, int r, long min_visits,
				  int (*fn)(void *ud, const uint64_t *state, double value), void *ud);

/** Tells the player its eval (options.eval) was changed in place (clears its cache). */
MS_EXTERN void ms_gdl_uct_eval_changed(ms_gdl_uct *u);

/** Nodes in the current tree. */
MS_EXTERN int ms_gdl_uct_nodes(const ms_gdl_uct *u);
/** States in the transposition table (0 without one). */
MS_EXTERN long ms_gdl_uct_table_states(const ms_gdl_uct *u);

/**
 * A copy of `e` whose role functions can change independently (SGUCT's
 * online learning within one game); it shares e's features, so free it
 * before e.
 */
MS_EXTERN int ms_gdl_eval_clone(ms_ctx *ctx, ms_gdl_eval **out, const ms_gdl_eval *e);

/* ---- SGUCT: refining the function on UCT's own values ------------------ */

#define MS_GDL_SGUCT_OPTIONS_VERSION 1

/** Options for SGUCT's evolution; ms_gdl_sguct_options_init fills them. */
typedef struct ms_gdl_sguct_options {
	unsigned int version;      /**< MS_GDL_SGUCT_OPTIONS_VERSION */
	int population;            /**< individuals (default 10) */
	int generations;           /**< generations per call (default 5; the slides give none) */
	int epochs;                /**< gradient passes over the training share per generation (default 100) */
	int replaced;              /**< weakest replaced by mutated clones of as many best (default 3) */
	double learning_rate;      /**< on features scaled to [-1, 1] and results / 100 (default 0.01) */
	double test_share;         /**< samples held out for the fitness 1 / MSE, re-drawn each generation (0.2) */
	double p_weight_mutation;  /**< an individual's weights mutate (default 0.3) */
	double p_weight;           /**< then each weight mutates (default 0.1), by U[-d, d], d = max(1, |w|) */
	double p_feature_mutation; /**< an individual's features mutate (default 0.2) */
	double p_remove;           /**< a feature is removed first even if not needed (default 0.6) */
	double max_ratio;          /**< ... or when max/min sensitivity (|w| max|f|) exceeds this (default 100) */
	int max_terms;             /**< ... or when the individual has more terms (default 30) */
	long min_visits;           /**< tree nodes with fewer visits are not training samples (default 10) */
	uint64_t seed;             /**< default 1 */
} ms_gdl_sguct_options;

/**
 * Fills the defaults above (version: MS_GDL_SGUCT_OPTIONS_VERSION); 0, or MS_EINVAL for a version
 * this build does not know.
 */
MS_EXTERN int ms_gdl_sguct_options_init(ms_gdl_sguct_options *opts, unsigned int version);

/** What a learning step did: samples, and the mean squared error over all of
 * them (goal scale) of the function before and after (-1 if none). */
typedef struct ms_gdl_sguct_report {
	long samples;
	double mse_before, mse_after;
} ms_gdl_sguct_report;

/**
 * Evolves role r's function of `e` on n samples (states and their values
 * on the goal scale): a population seeded by the current function and by
 * functions drawn from its ranked candidates (roulette on min(S, |corr|)),
 * then o->generations generations. The fittest (on the last generation's
 * test share) replaces the function. Nothing is learnt from fewer than 5
 * samples or without candidate features. `rep` may be NULL.
 */
MS_EXTERN int ms_gdl_sguct_refine(ms_ctx *ctx, ms_gdl_eval *e, int r, const uint64_t *states, const double *values,
				  long n, const ms_gdl_sguct_options *o, ms_gdl_sguct_report *rep);

/**
 * SGUCT's learning step on a UCT player's current tree: for every role, the
 * training set of ms_gdl_uct_expanded, then ms_gdl_sguct_refine. `rep`
 * (may be NULL) gets the samples over all roles and their summed squared
 * errors over the samples.
 */
MS_EXTERN int ms_gdl_sguct_learn(ms_ctx *ctx, ms_gdl_eval *e, ms_gdl_uct *u, const ms_gdl_sguct_options *o,
				 ms_gdl_sguct_report *rep);

/**
 * SGUCT offline (the analysis time): a GUCT search guided by `e` of
 * uo->simulations simulations from the initial state (uo->eval is set to
 * e), then ms_gdl_sguct_learn on its tree.
 */
MS_EXTERN int ms_gdl_sguct_offline(ms_ctx *ctx, const ms_gdl *g, ms_gdl_eval *e, const ms_gdl_uct_options *uo,
				   const ms_gdl_sguct_options *o, ms_gdl_sguct_report *rep);

/* ---- players (games/gdl/player.c) ---------------------------------------- */

/** The players GDL's commands offer, by name (random, uct, guct, sguct). */
enum { MS_GDL_PLAYER_RANDOM = 1, MS_GDL_PLAYER_UCT, MS_GDL_PLAYER_GUCT, MS_GDL_PLAYER_SGUCT };
/** The MS_GDL_PLAYER_* kind `name` names (the library's one spec decoder reads it), or -1. */
MS_EXTERN int ms_gdl_player_kind(const char *name);
/** A kind's name, or "?" for one that is not. */
MS_EXTERN const char *ms_gdl_player_name(int kind);
/** GDL's agent table (microsynth/spec.h), *n rows in the order of MS_GDL_PLAYER_* from 1. */
MS_EXTERN const ms_spec_form *ms_gdl_players(int *n);

#define MS_GDL_PLAYER_OPTIONS_VERSION 1

/** A player's knobs; ms_gdl_player_options_init fills the defaults given here. */
typedef struct ms_gdl_player_options {
	int version;              /**< MS_GDL_PLAYER_OPTIONS_VERSION */
	ms_gdl_uct_options uo;    /**< uct, guct, sguct: the search (its seed is each game's) */
	ms_gdl_stat_options so;   /**< guct, sguct: the statistical analysis (its seed is the player's) */
	ms_gdl_sguct_options sgo; /**< sguct: the evolution */
	long sguct_sims;          /**< sguct: simulations of the offline search from the initial state (10000) */
	int online;               /**< sguct: generations after each of its searches (0: offline only) */
	double seconds;           /**< per move, searches of uo.simulations grow one tree this long (0: one search) */
} ms_gdl_player_options;

/** Fills the defaults (each family's own init); 0, or MS_EINVAL for a version this build does not know. */
MS_EXTERN int ms_gdl_player_options_init(ms_gdl_player_options *opts, unsigned int version);

typedef struct ms_gdl_player ms_gdl_player;

/**
 * A player of `kind` (MS_GDL_PLAYER_*) on `g` (which must outlive it), made
 * once for any number of games: guct and sguct build StatGUCT's function now
 * (seeded by `seed`), sguct refines it on an offline search. Errors name
 * what failed.
 */
MS_EXTERN int ms_gdl_player_new(ms_ctx *ctx, ms_gdl_player **out, const ms_gdl *g, int kind,
				const ms_gdl_player_options *o, uint64_t seed);
/** A new game: a fresh search seeded by `seed` (random: its generator; sguct online: a copy of its function). */
MS_EXTERN int ms_gdl_player_start(ms_gdl_player *p, uint64_t seed);
/** Role `role`'s move in the machine's current state `st` (the machine set to it). */
MS_EXTERN int ms_gdl_player_move(ms_gdl_player *p, ms_gdl_machine *mm, const uint64_t *st, int role, int *move);
/** Tells the player the joint move played (its tree follows it). */
MS_EXTERN void ms_gdl_player_played(ms_gdl_player *p, const int *joint);
/** The game's search freed (ms_gdl_player_start frees the last one too). */
MS_EXTERN void ms_gdl_player_end(ms_gdl_player *p);
MS_EXTERN void ms_gdl_player_free(ms_gdl_player *p);

#ifdef __cplusplus
}
#endif
#endif
