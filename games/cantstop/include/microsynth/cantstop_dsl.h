/*
 * The Can't Stop DSL as the sketch-learning reference code interprets it
 * (spec/cantstop.md section 5): the production tables in force for SA,
 * Sketch-SA, UCT and Sketch-UCT registered as a dsl.h grammar, the
 * reference's random generation and mutation, an interpreter with the
 * reference's Python/numpy value semantics, the printed form and its
 * reader, the GA and the published program written in the DSL, and the
 * bridges from a program to a player, a win rate and a cloning score.
 *
 * Tree shape. Programs are dsl.h trees that mirror the reference's nodes
 * one for one: a value wrapper (NumericConstant, VarList,
 * VarScalarFromArray, VarScalar) is a node with one child, its value, which
 * is a leaf of its own non-terminal. So node i of the pre-order array is
 * the i-th position the reference's mutation counts (spec 5.9), and sizes
 * follow the reference (wrappers, LocalList and DoubleProgram count 0, a
 * value counts 1).
 *
 * Threads. An ms_cs_dsl is read-only once made: threads may share it. A
 * runner (interpreter instance: compiled program plus value arena) belongs
 * to one thread at a time.
 */
#ifndef MICROSYNTH_CANTSTOP_DSL_H
#define MICROSYNTH_CANTSTOP_DSL_H

#include <stdint.h>
#include <stddef.h>
#include "microsynth/common.h"
#include "microsynth/jrandom.h"
#include "microsynth/dsl.h"
#include "microsynth/cantstop.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the grammar --------------------------------------------------------- */

/**
 * Non-terminals, the same ids in every variant. Each slot kind of the
 * reference's tables (spec 5.2) is its own non-terminal; slots with the
 * same allowed set share one (the two operands of Plus, Times and Minus).
 */
enum {
	MS_CS_NT_START = 0,  /**< "Start": DoubleProgram */
	MS_CS_NT_PROGRAM,    /**< "Program": DoubleProgram's yes/no and column slots */
	MS_CS_NT_COND,       /**< "Cond": ITE's condition */
	MS_CS_NT_BLOCK,      /**< "Block": ITE's then and else */
	MS_CS_NT_COMPARED,   /**< "Compared": LT's operands */
	MS_CS_NT_OPERAND,    /**< "Operand": Plus/Times/Minus operands */
	MS_CS_NT_AGGREGATED, /**< "Aggregated": the list of Sum and Argmax */
	MS_CS_NT_LAMBDA,     /**< "Lambda": Map's function */
	MS_CS_NT_MAPPED,     /**< "Mapped": Map's list */
	MS_CS_NT_BODY,       /**< "Body": Function's body */
	MS_CS_NT_CONSTANT,   /**< "Constant": NumericConstant's value */
	MS_CS_NT_LIST_NAME,  /**< "ListName": VarList's value */
	MS_CS_NT_ARRAY_NAME, /**< "ArrayName": VarScalarFromArray's value */
	MS_CS_NT_SCALAR_NAME,/**< "ScalarName": VarScalar's value */
	MS_CS_NT_COUNT
};

/**
 * Productions (ids and interpreter op codes), the same in every variant;
 * the variants differ only in which are alternatives of which slot.
 */
enum {
	MS_CS_P_DOUBLE_PROGRAM = 0,
	MS_CS_P_ITE,
	MS_CS_P_LT,
	MS_CS_P_SUM,
	MS_CS_P_ARGMAX,
	MS_CS_P_MAP,
	MS_CS_P_FUNCTION,
	MS_CS_P_PLUS,
	MS_CS_P_TIMES,
	MS_CS_P_MINUS,
	MS_CS_P_LOCAL_LIST,
	MS_CS_P_ADVANCED_THIS_ROUND, /**< NumberAdvancedThisRound */
	MS_CS_P_ADVANCED_BY_ACTION,  /**< NumberAdvancedByAction */
	MS_CS_P_PLAYER_SECURED,      /**< PositionsPlayerHasSecuredInColumn */
	MS_CS_P_OPPONENT_SECURED,    /**< PositionsOpponentHasSecuredInColumn */
	MS_CS_P_DIFFICULTY,          /**< DifficultyScore */
	MS_CS_P_IS_NEW_NEUTRAL,      /**< IsNewNeutral (extended grammar only) */
	MS_CS_P_WINS_AFTER_STOP,     /**< PlayerWinsAfterStopping (extended only) */
	MS_CS_P_NEUTRALS_TO_PLAY,    /**< AreThereNeutralsToPlay (extended only) */
	MS_CS_P_NUMERIC_CONSTANT,    /**< wrapper of a Constant value */
	MS_CS_P_VAR_LIST,            /**< wrapper of a ListName value */
	MS_CS_P_VAR_ARRAY,           /**< VarScalarFromArray, wrapper of an ArrayName value */
	MS_CS_P_VAR_SCALAR,          /**< wrapper of a ScalarName value (extended only) */
	MS_CS_P_CONST_0,             /**< values 0..7: MS_CS_P_CONST_0 + v */
	MS_CS_P_CONST_7 = MS_CS_P_CONST_0 + 7,
	MS_CS_P_NEUTRALS,            /**< list name "neutrals" */
	MS_CS_P_ACTIONS,             /**< list name "actions" */
	MS_CS_P_PROGRESS_VALUE,      /**< array name "progress_value" */
	MS_CS_P_MOVE_VALUE,          /**< array name "move_value" */
	MS_CS_P_MARKER,              /**< scalar name "marker" */
	MS_CS_P_COUNT
};

/** Numeric constants of the grammar (spec 5.2). */
enum {
	MS_CS_DSL_CONSTANTS_01 = 0,     /**< {0, 1}: SA, Sketch-SA, UCT, Sketch-UCT */
	MS_CS_DSL_CONSTANTS_1_TO_7 = 1  /**< {1..7}: the iterated-best-response mode */
};

/** What Sum and Argmax do with a ragged nesting of lists (spec 5.4). */
enum {
	MS_CS_DSL_RAGGED_ERROR = 0, /**< raise, as numpy >= 1.24 does (the spec's choice, default) */
	/**
	 * As numpy 1.23.3, the version the reference pins, with the warning its
	 * main.py silences: an object array of the deepest consistent shape;
	 * Sum adds its elements with Python's + (lists and tuples concatenate,
	 * a number and a list raise), Argmax compares them with Python's >
	 * (tuples lexicographically: e.g. argmax over [(6, 6), (7,), (5,)] is 1).
	 */
	MS_CS_DSL_RAGGED_OBJECT = 1
};

#define MS_CS_DSL_OPTIONS_VERSION 1

/** Grammar variant; zero-initialise, set `version`, or pass NULL for the searches' grammar. */
typedef struct ms_cs_dsl_options {
	unsigned int version; /**< MS_CS_DSL_OPTIONS_VERSION */
	int constants;        /**< MS_CS_DSL_CONSTANTS_01 (default) or _1_TO_7 */
	/**
	 * 1: Plus/Times/Minus operands may also be `marker`, IsNewNeutral,
	 * PlayerWinsAfterStopping and AreThereNeutralsToPlay, which the
	 * reference defines but no search table reaches; the GA program of
	 * spec 3.5 needs the first two. Not for searches (spec 9 item 3).
	 */
	int extended;
	/** Generation depth (spec 5.9): children of nodes at depth >= max_depth are terminal-first. 0: 4. */
	int max_depth;
	/** MS_CS_DSL_RAGGED_ERROR (default) or MS_CS_DSL_RAGGED_OBJECT; interpretation only. */
	int ragged;
} ms_cs_dsl_options;

/**
 * Zero-initialises `opts` and sets its version (MS_CS_DSL_OPTIONS_VERSION): 0, or MS_EINVAL for a
 * version this build does not know.
 */
MS_EXTERN int ms_cs_dsl_options_init(ms_cs_dsl_options *opts, unsigned int version);

/** A Can't Stop grammar with its sampler. Read-only once made. */
typedef struct ms_cs_dsl ms_cs_dsl;

/**
 * Makes the grammar of `opts` (NULL: constants {0,1}, not extended, depth
 * 4). Its name is "cantstop", "cantstop-ibr", "cantstop-ext" or
 * "cantstop-ibr-ext". `ctx` is kept for the grammar's lifetime.
 */
MS_EXTERN int ms_cs_dsl_new(ms_ctx *ctx, ms_cs_dsl **out, const ms_cs_dsl_options *opts);
MS_EXTERN void ms_cs_dsl_free(ms_cs_dsl *d);
/** The dsl.h grammar (programs of it are what every function below takes). */
MS_EXTERN const ms_dsl_grammar *ms_cs_dsl_grammar(const ms_cs_dsl *d);
/**
 * Generation limits for dsl.h calls (ms_dsl_generate, ms_dsl_regenerate)
 * on this grammar. Its game sampler is installed on every non-terminal,
 * so those calls generate as the reference does.
 */
MS_EXTERN const ms_dsl_gen_options *ms_cs_dsl_gen_options(const ms_cs_dsl *d);
MS_EXTERN const ms_cs_dsl_options *ms_cs_dsl_get_options(const ms_cs_dsl *d);

/* ---- random programs and mutation (spec 5.9) ---------------------------- */

/**
 * A random whole program (DoubleProgram) into `p` (a program of this
 * grammar; cleared first), as `fill_random_program` makes one: every slot
 * uniform over its alternatives; below depth max_depth only terminals
 * (leaves and value wrappers), else productions with one child, else any.
 */
MS_EXTERN int ms_cs_dsl_generate(const ms_cs_dsl *d, ms_dsl_prog *p, ms_jrandom *rng);

/**
 * The reference's mutation: k uniform in [0, size); k = 0 makes a new
 * random program; otherwise node k (the k-th position of a pre-order walk
 * that counts every node, zero-sized ones included) is replaced by a fresh
 * subtree of its slot, generated with its own depth budget. `*at` (may be
 * NULL) receives k. Usable as ms_synth_problem.mutate.
 */
MS_EXTERN int ms_cs_dsl_mutate(const ms_cs_dsl *d, ms_dsl_prog *p, ms_jrandom *rng, int *at);

/**
 * The mutation at a given position k in [0, length): 0 regenerates the
 * whole program. (The reference's bookkeeping makes a DoubleProgram that
 * went through a mutation below its two children report size + 1, so its
 * next draw is in [0, size]; a search that wants that quirk draws k itself
 * and calls this.)
 */
MS_EXTERN int ms_cs_dsl_mutate_at(const ms_cs_dsl *d, ms_dsl_prog *p, int k, ms_jrandom *rng);

/* ---- typed programs (an option of the searches, not the reference's) ------- */

/*
 * Types that make a program run without error on every state (spec 5.4):
 * numbers; the column program's index (Argmax over one number per action,
 * or an ITE of two); Sum over `neutrals`, local_list or a Map with a number
 * as body; Argmax over ['y', 'n'] (yes/no), local_list or a Map over
 * `actions` or local_list (never empty); Maps only over `neutrals` and
 * local_list (binding columns) or `actions` at column decisions (binding
 * actions), never over another Map; column functions only inside a Map
 * that binds a column, NumberAdvancedByAction and local_list only inside
 * one that binds an action. A well-typed program never raises; some
 * programs that never raise are not well typed (e.g. a Map over a Map).
 */

/**
 * 1 if the whole program `p` is well typed, 0 if not (`*node`, may be
 * NULL, receives the first offending node in pre-order, else -1), or an
 * error (a program of another grammar, not whole).
 */
MS_EXTERN int ms_cs_dsl_typecheck(const ms_cs_dsl *d, const ms_dsl_prog *p, int *node);

/**
 * A random well-typed whole program: the reference's sampler (uniform
 * over a slot's alternatives, terminal-first below the depth limit)
 * restricted to the alternatives of the slot's type. Deterministic for a
 * given generator state.
 */
MS_EXTERN int ms_cs_dsl_generate_typed(const ms_cs_dsl *d, ms_dsl_prog *p, ms_jrandom *rng);

/**
 * The reference's mutation position (as ms_cs_dsl_mutate), its subtree
 * regrown with the type of its slot: a well-typed program stays well
 * typed. In an ill-typed program a slot that no well-typed subtree fits is
 * regrown as the reference does. `*at` (may be NULL) receives the position.
 */
MS_EXTERN int ms_cs_dsl_mutate_typed(const ms_cs_dsl *d, ms_dsl_prog *p, ms_jrandom *rng, int *at);

/* ---- text (spec 5.8) ------------------------------------------------------ */

/*
 * Printing is ms_dsl_print: the reference's to_string exactly, e.g.
 *   yes-no: (sum(map((lambda x : ...), neutrals)) + DifficultyScore)
 *   column: argmax(map(...))
 * The token form of dsl.h (ms_dsl_print_tokens / ms_dsl_parse_tokens) also
 * works: production names are the class names, values are their text.
 */

/**
 * Reads the printed form into `p` (cleared first) as a program of
 * non-terminal `nt` (MS_CS_NT_START for whole programs: "yes-no: A" then
 * "column: A"). Whitespace between tokens is free; '#' starts a comment
 * that runs to the end of the line. Errors (MS_EPARSE) name
 * "what:line:column" and what was expected. Holes are not read.
 */
MS_EXTERN int ms_cs_dsl_parse(const ms_cs_dsl *d, ms_dsl_prog *p, const char *text, size_t len, int nt,
			      const char *what);
/** Reads a whole program from a file (errors name the path). */
MS_EXTERN int ms_cs_dsl_load(const ms_cs_dsl *d, ms_dsl_prog *p, const char *path);
/**
 * Writes a program to a file: `header` (may be NULL) as '#' comment lines,
 * then the printed form and a newline.
 */
MS_EXTERN int ms_cs_dsl_save(const ms_dsl_prog *p, const char *path, const char *header);

/**
 * Built-in program texts (printed form):
 *   "ga": GA written in the DSL (spec 3.5; needs the extended grammar),
 *   "couto": the strongest published program (spec 5.10) in the searches' grammar.
 * NULL for other names.
 */
MS_EXTERN const char *ms_cs_dsl_builtin(const char *name);

/* ---- the interpreter -------------------------------------------------------- */

/** Kinds of values, after the Python/numpy types the reference produces (spec 5.4). */
enum {
	MS_CS_VAL_INT = 0, /**< Python int (constants, domain functions, arithmetic on them) */
	MS_CS_VAL_NPINT,   /**< numpy int64 (Sum of integers, Argmax, arithmetic with one) */
	MS_CS_VAL_FLOAT,   /**< numpy float64 (Sum of an empty list, arithmetic with one) */
	MS_CS_VAL_BOOL,    /**< Python bool (IsNewNeutral and the other predicates) */
	MS_CS_VAL_STR,     /**< 'y' or 'n' (elements of `actions` at yes/no decisions) */
	MS_CS_VAL_LIST     /**< list or tuple */
};

/** A value as ms_cs_dsl_eval returns it; lists stay inside the runner. */
typedef struct ms_cs_dsl_value {
	int kind;
	int64_t i;    /**< INT, NPINT, BOOL (0/1), STR (the letter); LIST: 1 for a tuple */
	double f;     /**< FLOAT; also the numeric value of INT, NPINT and BOOL */
	uint32_t len; /**< LIST: number of elements */
	uint32_t ref; /**< LIST: the runner's reference (valid until the next evaluation) */
} ms_cs_dsl_value;

/** An interpreter instance: one per thread. */
typedef struct ms_cs_dsl_runner ms_cs_dsl_runner;

/** A runner for programs of `d` (which must outlive it). Allocates through `ctx`. */
MS_EXTERN int ms_cs_dsl_runner_new(ms_ctx *ctx, ms_cs_dsl_runner **out, const ms_cs_dsl *d);
MS_EXTERN void ms_cs_dsl_runner_free(ms_cs_dsl_runner *r);

/**
 * Compiles `p` into the runner (copied: `p` may change or go afterwards).
 * Any non-terminal may be the root; players need a whole program
 * (MS_CS_NT_START). MS_EINVAL for holes or a program of another grammar;
 * MS_ERANGE for a program nested deeper than 2,000 (the walk is recursive),
 * which a search should score as a failing program.
 */
MS_EXTERN int ms_cs_dsl_runner_load(ms_cs_dsl_runner *r, const ms_dsl_prog *p);

/**
 * Evaluates the loaded program on `env` with fresh locals (spec 5.3). A
 * whole program evaluates its yes/no child when env->yes_no, else its
 * column child. A run-time error of the reference (spec 5.4: a Map binding
 * a value that is neither a Python int nor a list, an unbound local, an
 * argmax of nothing, a ragged array (unless MS_CS_DSL_RAGGED_OBJECT), a sum
 * of strings, a column outside 2..12, ...) returns MS_ERANGE with a message
 * naming the node.
 */
MS_EXTERN int ms_cs_dsl_eval(ms_cs_dsl_runner *r, const ms_cs_env *env, ms_cs_dsl_value *out);

/**
 * Writes `v` (from the runner's last evaluation) in a Python-like form for
 * tests and logs: 3, np.int64(3), np.float64(0.0), True, 'y', [1, [2, 3]].
 * Returns the length it needs, as snprintf does.
 */
MS_EXTERN int ms_cs_dsl_value_format(const ms_cs_dsl_runner *r, const ms_cs_dsl_value *v, char *buf, size_t size);

/**
 * The loaded program as the reference's Rule_of_28_Player_Double_Program
 * (spec 5.6, through ms_cs_player_program): yes/no value = the yes/no
 * program's number (an error if it is not a number), column index = the
 * column program's integer (floats are errors). The player's callbacks use
 * the runner: one player per runner, one runner per thread; load another
 * program and the same player plays it.
 */
MS_EXTERN void ms_cs_dsl_runner_player(ms_cs_dsl_runner *r, ms_cs_player *out);
/**
 * 1 if the loaded whole program's yes/no part provably never raises (a
 * conservative check made at load: arithmetic over constants, the domain
 * functions inside Maps over `neutrals`, sums of such Maps, ...). Its
 * player then skips the yes/no program where the wrapper's forced rules
 * decide: the reference runs it there only for its errors.
 */
MS_EXTERN int ms_cs_dsl_runner_yes_no_safe(const ms_cs_dsl_runner *r);
/** The same as an ms_cs_program (for callers that wrap it themselves). */
MS_EXTERN const ms_cs_program *ms_cs_dsl_runner_program(const ms_cs_dsl_runner *r);

/* ---- scores ------------------------------------------------------------------ */

/** Which cloning score (spec 6). */
enum { MS_CS_SCORE_OBSERVATION = 0, MS_CS_SCORE_ACTION = 1 };

/**
 * C(L, p) of the loaded program on `ds`: the program as a policy through
 * ms_cs_score_observation or ms_cs_score_action. A program error gives
 * *score = 0 and returns MS_ERANGE (the reference scores it 0); other
 * codes are the data set's or the caller's problems.
 */
MS_EXTERN int ms_cs_dsl_clone_score(ms_cs_dsl_runner *r, const ms_cs_dataset *ds, int which, uint64_t seed,
				    double *score);

/**
 * Win rate of the loaded program against `opponent` (NULL: GA) over
 * matches first .. first+count-1 of an evaluation seeded with `seed`
 * (spec 7.1, ms_cs_evaluate with the program as player A). Totals are
 * added into *acc (zero it first). A program error (the reference's
 * exception: score 0) stops the evaluation and returns MS_ERANGE; so does
 * a column index outside the legal list. MS_ENOMEM and MS_EINVAL are not
 * the program's.
 */
MS_EXTERN int ms_cs_dsl_evaluate(ms_cs_dsl_runner *r, const ms_cs_match_options *opts, const ms_cs_player *opponent,
				 uint64_t seed, long first, long count, ms_cs_eval_result *acc);

/* ---- readable programs: equal play, simplification (dsl_proof.c, dsl_simplify.c) ---- */

/*
 * The matches of a proof are those one evaluation plays
 * (ms_cs_dsl_evaluate, `microsynth cantstop program`, the synthesis's Psi):
 * matches 0 .. N-1 against one opponent, match i seeded with
 * ms_cs_match_seed(seed, i), the program moving first when i is even, so
 * both seats. Two programs play alike on them when, at every call the
 * match makes to the program's player, the player returns the same thing
 * (the same yes/no answer, the same index into the legal list, or an error
 * of the same status at the same call), and every match ends the same
 * (winner, decisions of both players, busts). An evaluation stops at the
 * first error of the program, so the proof's matches stop there too.
 * docs/readable-programs.md says more.
 */

struct ms_cs_dsl_diff;

/**
 * Told of every candidate ms_cs_dsl_simplify replays: node `at` of `cur`
 * (the program before it) replaced, giving `cand`, whose subtree at `at`
 * is the replacement. `diff` is NULL when the candidate was kept, else
 * where it first played differently.
 */
typedef void (*ms_cs_dsl_simplify_log)(void *ud, const ms_dsl_prog *cur, int at, const ms_dsl_prog *cand,
				       const struct ms_cs_dsl_diff *diff);

#define MS_CS_DSL_PROOF_OPTIONS_VERSION 1

/** The matches of a proof; zero-initialise, set `version`. */
typedef struct ms_cs_dsl_proof_options {
	unsigned int version;         /**< MS_CS_DSL_PROOF_OPTIONS_VERSION */
	/**
	 * NULL: GA. It must outlive the call and decide from the state and the
	 * match's player generator only (every built-in player does), so that
	 * the same decisions of the program give the same match.
	 */
	const ms_cs_player *opponent;
	long matches;                 /**< N: matches 0 .. N-1 (0: 1000) */
	uint64_t seed;                /**< the evaluation's seed */
	int era;                      /**< MS_CS_ERA_A (default) or MS_CS_ERA_B */
	int max_decisions;            /**< as ms_cs_match_options (0: the evaluation's 300, -1: no cap) */
	ms_cs_dsl_simplify_log log;   /**< ms_cs_dsl_simplify only; NULL: none */
	void *ud;                     /**< passed to `log` */
} ms_cs_dsl_proof_options;

/**
 * Zero-initialises `opts` and sets its version (MS_CS_DSL_PROOF_OPTIONS_VERSION): 0, or MS_EINVAL
 * for a version this build does not know.
 */
MS_EXTERN int ms_cs_dsl_proof_options_init(ms_cs_dsl_proof_options *opts, unsigned int version);

/** What a decision of a difference was. */
enum {
	MS_CS_DIFF_NONE = 0,   /**< no difference */
	MS_CS_DIFF_YES_NO = 1, /**< a yes/no decision ("roll again?") */
	MS_CS_DIFF_COLUMN = 2, /**< a column decision */
	MS_CS_DIFF_END = 3     /**< every decision the same, the end of the match not */
};

/** Where the play of two programs first differs, and how much was compared. */
typedef struct ms_cs_dsl_diff {
	int equal;               /**< 1: every decision and every end the same */
	long matches;            /**< the proof's matches (fewer than asked when the reference raised) */
	long decisions_compared; /**< the program's decisions compared and found equal */
	long match;              /**< the first match that differs (its evaluation index), -1 if none */
	int program_first;       /**< the program moved first in it (even matches) */
	int kind;                /**< MS_CS_DIFF_* */
	long decision;           /**< the program's decision in that match, from 0 (END: its decision count) */
	long ply;                /**< decisions of both players in that match before it */
	char reference[128];     /**< what the reference program did: "y", "n", "column 4,10 (action 2 of 3)", ... */
	char candidate[128];     /**< what the compared program did */
	char message[512];       /**< all of it in one line */
} ms_cs_dsl_diff;

/**
 * Plays the matches of `opts` with `a`, then with `b` (whole programs of
 * `d`'s grammar), and compares `b`'s decisions with `a`'s call by call;
 * b's replay of a match stops at its first difference, which `out` then
 * describes (out->equal 0). Returns 0 whether or not they are equal;
 * MS_EINVAL for bad options or programs (another grammar, holes, not
 * whole), MS_ENOMEM, or an opponent's error. A run-time error of a
 * program is one of its decisions (an evaluation ends there), not an
 * error of this call.
 */
MS_EXTERN int ms_cs_dsl_equal(ms_ctx *ctx, const ms_cs_dsl *d, const ms_dsl_prog *a, const ms_dsl_prog *b,
			      const ms_cs_dsl_proof_options *opts, ms_cs_dsl_diff *out);

/** What ms_cs_dsl_simplify did. */
typedef struct ms_cs_dsl_simplify_stats {
	int nodes_before, nodes_after; /**< ms_dsl_prog_len */
	int size_before, size_after;   /**< ms_dsl_size (the reference's Node.size) */
	int chars_before, chars_after; /**< length of the printed form */
	long matches;                  /**< the proof's matches */
	long decisions_compared;       /**< the program's decisions the final proof compared */
	long candidates;               /**< candidate programs replayed */
	long kept;                     /**< those that played every match alike */
} ms_cs_dsl_simplify_stats;

/**
 * Simplifies the whole program `p` in place and proves it: plays the
 * matches of `opts` with `p` as the reference, then tries candidates, the
 * ones that remove most nodes first: node i replaced by (1) a proper
 * descendant that may stand in i's slot (an ITE by a branch, Plus, Minus
 * and Times by an operand, a Map by its list, ...), or (2) when i's slot
 * admits constants (LT's and the arithmetic's operands) and i has more
 * than 2 nodes, each constant of the grammar. A candidate is kept when
 * every match replays with the same decisions and ends the same
 * (ms_cs_dsl_equal's test, each replay stopped at its first difference);
 * the candidates of the new program are then tried from the same rank, and
 * passes repeat until one keeps nothing. The result is compared once more
 * on every match (the stats' figures are that proof's). `st` may be NULL.
 * Errors as ms_cs_dsl_equal; on an error `p` is unchanged.
 */
MS_EXTERN int ms_cs_dsl_simplify(ms_ctx *ctx, const ms_cs_dsl *d, ms_dsl_prog *p,
				 const ms_cs_dsl_proof_options *opts, ms_cs_dsl_simplify_stats *st);

#ifdef __cplusplus
}
#endif
#endif
