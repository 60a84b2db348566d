/*
 * The MicroRTS strategy DSL: dialect A of spec/dsl.md (the interpreter of
 * Medeiros, Aleixo & Lelis, AAAI 2022, "SL DSL_Base"), on the generic
 * program trees of dsl.h.
 *
 * Grammar. Non-terminals S (statements), C (commands), B (conditions) and
 * the parameter non-terminals T (unit type), N (number), D (direction), Op
 * (target rule) and Tp (target player). Production names are the tokens of
 * the Java Control.salve format ("S_S", "For_S", "If_B_then_S", "C",
 * "Attack", "Build", "is_Type", "Barracks", "25", "EnemyDir", ...), so the
 * token form of a program is the Java token form minus the "S" and "B"
 * wrapper tokens (ms_rts_dsl_print with MS_RTS_DSL_FORM_SALVE adds them).
 * Productions print as Java's translate() does, so ms_dsl_print gives the
 * Java one-line form byte for byte.
 *
 * Text. ms_rts_dsl_parse reads the Java one-line form, the indented form
 * (translateIndentation), the paper form (`for(u){...}`, `if(B) S`, `;`
 * separators, `isWorker()`), the salve token form (detected by its
 * leading "S;") and the dissertation's Python-like listings (`def ...:`,
 * `for u in s:`, `if B:` / `else:` blocks by indentation, line numbers in
 * front allowed). Errors give line, column and what was expected. `not B`
 * is an extension (dialect A has no negation): accepted only with
 * MS_RTS_DSL_PARSE_NOT on a grammar made with MS_RTS_DSL_GRAMMAR_NOT, and
 * printed `not B` (salve token "Not"); the Java reference cannot run it.
 *
 * Interpretation. Every call decides one tick for one player as the SL
 * interpreter does: budget snapshot, a fresh abstract-action map, the
 * program with `u` unset, then AbstractionLayerAI.translateActions with the
 * DSL's own action layer (the JAR fork's Train, Harvest, path finding and
 * cell-free test), and NONE(10) for every other idle unit. Nothing carries
 * over between ticks. The pairs returned are what the Java AI would return
 * before the engine's issueSafe (which validates them: ms_bot_play does).
 */
#ifndef MICROSYNTH_RTS_DSL_H
#define MICROSYNTH_RTS_DSL_H

#include "microsynth/bots.h"
#include "microsynth/dsl.h"
#include "microsynth/jrandom.h"
#include "microsynth/microrts.h"
#include "microsynth/memo.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- grammar ------------------------------------------------------------ */

/** Grammar flags. */
enum {
	MS_RTS_DSL_GRAMMAR_NOT = 1u << 0,       /**< add the Not(B) extension to B */
	MS_RTS_DSL_GRAMMAR_GEN_RANDOM = 1u << 1, /**< samplers may draw Op = Random (as LLD does) */
	MS_RTS_DSL_GRAMMAR_LLD = 1u << 2 /**< the N value `inf` (never drawn): LLD Synthesis2's Build(T,D),
					      Train(T,D) and Harvest(), which have no cap (spec 11) */
};

/**
 * Builds the dialect-A grammar ("microrts-A", "microrts-A+not" with the
 * Not extension; "+random", "+lld" with the N value inf) and installs the
 * reference samplers (spec 13.2): S by its size budget, C uniformly among 7 commands, B among 14 conditions, each
 * parameter uniformly over its list (Op without Random unless
 * MS_RTS_DSL_GRAMMAR_GEN_RANDOM). Free with ms_dsl_grammar_free.
 */
MS_EXTERN int ms_rts_dsl_grammar_new(ms_ctx *ctx, ms_dsl_grammar **out, unsigned flags);

/** 1 when `g` was made by ms_rts_dsl_grammar_new (with any flags). */
MS_EXTERN int ms_rts_dsl_grammar_is(const ms_dsl_grammar *g);

/**
 * Production op codes (ms_dsl_prod_op), for synthesizers and tools that
 * walk programs. Parameter values have op MS_RTS_DSL_VAL_x | index, the
 * index in the list order of spec section 5 (for N the op holds the number).
 */
enum {
	MS_RTS_DSL_S_C = 1, MS_RTS_DSL_S_SEQ, MS_RTS_DSL_S_FOR, MS_RTS_DSL_S_IF, MS_RTS_DSL_S_IFELSE,
	MS_RTS_DSL_S_EMPTY,
	MS_RTS_DSL_ATTACK = 16, MS_RTS_DSL_BUILD, MS_RTS_DSL_HARVEST, MS_RTS_DSL_IDLE, MS_RTS_DSL_MOVEAWAY,
	MS_RTS_DSL_MOVETOUNIT, MS_RTS_DSL_TRAIN,
	MS_RTS_DSL_CANATTACK = 32, MS_RTS_DSL_CANHARVEST, MS_RTS_DSL_HASLESSNUMBEROFUNITS,
	MS_RTS_DSL_HASNUMBEROFUNITS, MS_RTS_DSL_HASNUMBEROFWORKERSHARVESTING, MS_RTS_DSL_HASUNITINOPPONENTRANGE,
	MS_RTS_DSL_HASUNITTHATKILLSINONEATTACK, MS_RTS_DSL_HASUNITWITHINDISTANCEFROMOPPONENT,
	MS_RTS_DSL_HAVEQTDUNITSATTACKING, MS_RTS_DSL_ISBUILDER, MS_RTS_DSL_IS_TYPE,
	MS_RTS_DSL_OPPONENTHASNUMBEROFUNITS, MS_RTS_DSL_OPPONENTHASUNITINPLAYERRANGE,
	MS_RTS_DSL_OPPONENTHASUNITTHATKILLSUNITINONEATTACK, MS_RTS_DSL_NOT,
	MS_RTS_DSL_VAL_T = 0x1000, MS_RTS_DSL_VAL_N = 0x2000, MS_RTS_DSL_VAL_D = 0x3000,
	MS_RTS_DSL_VAL_OP = 0x4000, MS_RTS_DSL_VAL_TP = 0x5000
};
#define MS_RTS_DSL_VAL_KIND(op) ((op) & 0xF000)
#define MS_RTS_DSL_VAL_INDEX(op) ((op) & 0x0FFF)

/* ---- random programs and mutation (spec 13.2, 13.3) --------------------- */

/**
 * A random program (sample_S of spec 13.2) with size budget `budget`;
 * budget <= 0 draws it uniformly in 1..9 as the synthesizers do. A budget
 * of b gives at most b commands before mutation grows the program.
 */
MS_EXTERN int ms_rts_dsl_generate(ms_dsl_prog *p, ms_jrandom *rng, int budget);

/**
 * One neighbour of simulated annealing as SL's DSL_Extent1 computes it, on
 * a correct pre-order index (spec 13.3): a slot drawn uniformly among the
 * weighted slots (a statement 3 plus its kind's own: sequence, for and if 1,
 * a command statement 3 more, Build and Train 4, Attack, Harvest and
 * moveToUnit 1, a condition 1 plus 1 except CanAttack and CanHarvest; Empty,
 * Idle and MoveAway 0), b uniform in 1..9, then: a statement slot resamples
 * the statement (p 0.2) or wraps it in a new sequence beside a fresh
 * statement (p 0.8); a sequence resamples both halves (p 0.9); a for passes
 * to its body; an if resamples its condition and branches; a command slot
 * resamples the command; a Build/Train slot its three parameters or one of
 * them; a condition slot resamples the condition or its parameters.
 * `*at` (may be NULL) receives the index of the node mutated.
 */
MS_EXTERN int ms_rts_dsl_mutate(ms_dsl_prog *p, ms_jrandom *rng, int *at);

/* ---- text ----------------------------------------------------------------- */

/** Parse flags. */
enum {
	MS_RTS_DSL_PARSE_NOT = 1u << 0,     /**< accept `not B` / `!B` (the grammar must have Not) */
	MS_RTS_DSL_PARSE_HOLES = 1u << 1,   /**< accept holes: S, C, B, T, N, D, Op, Tp (sketches) */
	MS_RTS_DSL_PARSE_UNBOUND = 1u << 2  /**< accept commands and unit conditions outside any for */
};

/**
 * Reads a program in any text form into `p` (cleared first; its grammar
 * must be a MicroRTS DSL grammar). `what` names the text in errors (NULL:
 * "program"). Unless MS_RTS_DSL_PARSE_UNBOUND, a command or a condition
 * that reads `u` outside every for loop is an error naming its line and
 * column (the reference interpreter would throw there at run time).
 */
MS_EXTERN int ms_rts_dsl_parse(ms_dsl_prog *p, const char *what, const char *text, size_t len, unsigned flags);

/** Reads a program file (any text form) into `p`. */
MS_EXTERN int ms_rts_dsl_parse_file(ms_dsl_prog *p, const char *path, unsigned flags);

/** Print forms. */
enum {
	MS_RTS_DSL_FORM_JAVA = 0,   /**< translate(): one line, the default */
	MS_RTS_DSL_FORM_PRETTY = 1, /**< translateIndentation(0): one statement per line, tab indents */
	MS_RTS_DSL_FORM_SALVE = 2,  /**< Control.salve: exact-tree tokens joined by ';' */
	MS_RTS_DSL_FORM_SALVE_LLD = 3 /**< the same as LLD Synthesis2 writes it: no N after Build, Train and
					   Harvest (their caps dropped; read back with MS_RTS_DSL_GRAMMAR_LLD they are
					   inf) */
};

/**
 * Prints `p` in `form`. `*out` is NUL-terminated, from the program's
 * context allocator (free with ms_ctx_mfree); `len` may be NULL. Holes
 * print as their non-terminal's name (salve: "?NAME").
 */
MS_EXTERN int ms_rts_dsl_print(const ms_dsl_prog *p, int form, char **out, size_t *len);

/**
 * The load-time check: 0 when every command and every condition that
 * reads `u` lies inside a for loop; otherwise MS_EINVAL naming the first
 * offending node, whose index goes to `*node` (may be NULL).
 */
MS_EXTERN int ms_rts_dsl_check_bound(const ms_dsl_prog *p, int *node);

/* ---- interpretation ------------------------------------------------------- */

typedef struct ms_rts_dsl_interp ms_rts_dsl_interp;

/** Iteration order of `for` (spec 11). */
enum {
	MS_RTS_DSL_FOR_LIST = 0, /**< unit-list order (SL, the default) */
	MS_RTS_DSL_FOR_BIL = 1   /**< Workers, Barracks, Bases, then Heavy/Ranged/Light (BIL) */
};

/** Interpreter options; zero-initialise, set version, then fields. */
typedef struct ms_rts_dsl_options {
	int version;    /**< MS_RTS_DSL_OPTIONS_VERSION */
	int for_order;  /**< MS_RTS_DSL_FOR_* */
	int full_loops; /**< run every loop in full as Java does (slower, same decisions; for tests) */
	int full_paths; /**< run every path search in full, even one that cannot reach its goal (slower, same
			     decisions; for tests and `bench synth`) */
	long path_budget; /**< path-search expansions per decision; 0: the default 400,000 (tests lower it) */
	int check_regions; /**< compare every update of the path search's region labels with a fresh labelling; a
				difference fails the decision with MS_ERROR (slower; for tests) */
	int every_decision; /**< decide afresh even when the view is the last decision's or no unit of the player
				 is free (slower, same decisions; for tests) */
	int check_cells; /**< compare the path search's blocked cells, kept from decision to decision, with the
			      state at every change; a difference fails the decision with MS_ERROR (slower; for
			      tests) */
	ms_memo *path_memo; /**< path searches' answers kept from match to match (same decisions: the key holds
				 every input of a search); NULL: none. The caller owns it; one thread uses it */
	int check_memo; /**< also run every path search the memo answers and compare; a difference fails the
			     decision with MS_ERROR (slower; for tests) */
	/* version 3 */
	uint8_t *reach; /**< NULL, or one byte per node of the program that the interpreter ORs
			     MS_RTS_DSL_REACH_* into as it runs (the caller owns and clears it) */
	/* version 4 */
	long loop_budget; /**< loop iterations per decision; 0: the default 250,000. A decision that
			       would run more stops where the budget ends, keeping what it assigned so far
			       (nested loops cost units^depth, Java's time; ignored with full_loops) */
	int cut_fails; /**< a decision the loop budget stops fails with MS_EILLEGAL instead (native matches
			    score it as the harness scores a bot its time check stops: a loss) */
} ms_rts_dsl_options;

/**
 * Zero-initialises `opts` and sets its version (MS_RTS_DSL_OPTIONS_VERSION): 0, or MS_EINVAL for a
 * version this build does not know.
 */
MS_EXTERN int ms_rts_dsl_options_init(ms_rts_dsl_options *opts, unsigned int version);

#define MS_RTS_DSL_OPTIONS_VERSION 4

/**
 * What a run read of a program (ms_rts_dsl_options.reach), for a Random-free
 * program: another program that has the same symbol at every READ node's
 * place (the same path of child indices from the root) and no `for` in the
 * subtree at every BUSY node's place makes the same decisions in the same
 * states, so a match it plays against the same deterministic opponent from
 * the same start is the same match. Nodes with neither mark were never
 * read: nothing there changed a decision.
 */
enum {
	MS_RTS_DSL_REACH_READ = 1, /**< the node's symbol was read (a statement run, a condition, a command) */
	MS_RTS_DSL_REACH_BUSY = 2  /**< a subtree without loops, run only for units that had an action: it did
					nothing, as any loop-free subtree there would */
};

/** 1 when some target rule of `p` is Random (its runs draw numbers; reach marks do not describe them). */
MS_EXTERN int ms_rts_dsl_draws_random(const ms_dsl_prog *p);

/**
 * An interpreter for a copy of `p` (finished, no holes). `seed` seeds the
 * generator of the Random target rule (unseeded in Java, so programs using
 * Random cannot match Java runs). `opts` may be NULL.
 */
MS_EXTERN int ms_rts_dsl_interp_new(ms_ctx *ctx, ms_rts_dsl_interp **out, const ms_dsl_prog *p, int64_t seed,
				    const ms_rts_dsl_options *opts);
MS_EXTERN void ms_rts_dsl_interp_free(ms_rts_dsl_interp *it);

/** Replaces the program (same rules as ms_rts_dsl_interp_new); keeps the scratch memory. */
MS_EXTERN int ms_rts_dsl_interp_set_program(ms_rts_dsl_interp *it, const ms_dsl_prog *p);

/** Reseeds the Random target rule's generator. */
MS_EXTERN void ms_rts_dsl_interp_seed(ms_rts_dsl_interp *it, int64_t seed);

/**
 * Decides one tick for `player` in `s`: at most `max` pairs go to `out`,
 * `*n` receives how many there are (MS_ERANGE when more than `max`).
 * Returns MS_EILLEGAL, with a message naming the node, where the Java
 * interpreter would throw (a command or unit condition reached with `u`
 * unset): the Java evaluators score that match as a loss.
 */
MS_EXTERN int ms_rts_dsl_decide(ms_rts_dsl_interp *it, int player, const ms_rts_state *s, ms_rts_pair *out,
				int max, int *n);

/** Abstract actions (ai.abstraction.*) the program assigns. */
enum {
	MS_RTS_DSL_AA_MOVE = 0,
	MS_RTS_DSL_AA_ATTACK,
	MS_RTS_DSL_AA_HARVEST,
	MS_RTS_DSL_AA_BUILD,
	MS_RTS_DSL_AA_TRAIN,
	MS_RTS_DSL_AA_IDLE
};

/** One entry of the abstract-action map of the last decision. */
typedef struct ms_rts_dsl_assignment {
	int64_t unit;   /**< id of the unit commanded */
	int kind;       /**< MS_RTS_DSL_AA_* */
	int64_t target; /**< Attack target / Harvest resource id, -1 for none */
	int64_t base;   /**< Harvest stockpile id, -1 for none */
	int x, y;       /**< Move destination, Build site */
	int unit_type;  /**< Build / Train type id, else -1 */
	int pref;       /**< Train's preferred direction (-1: none) */
	int node;       /**< program node that assigned it */
} ms_rts_dsl_assignment;

/**
 * The abstract-action map of the last decision, in insertion order (valid
 * until the next decision). `*n` receives the count.
 */
/** Path-search expansions the last decision counted against its budget (tests compare them). */
MS_EXTERN long ms_rts_dsl_path_expansions(const ms_rts_dsl_interp *it);
/** Decisions that repeated the last one's answer because its view was the same (tests count them). */
MS_EXTERN long ms_rts_dsl_repeats(const ms_rts_dsl_interp *it);
/**
 * Decisions answered empty without running the program because no unit of
 * the player was free (every_decision off, no Random target): their
 * abstract-action map and expansion count are empty (tests count them).
 */
MS_EXTERN long ms_rts_dsl_skips(const ms_rts_dsl_interp *it);
/** Decisions stopped by the loop budget (ms_rts_dsl_options.loop_budget). */
MS_EXTERN long ms_rts_dsl_cuts(const ms_rts_dsl_interp *it);

MS_EXTERN const ms_rts_dsl_assignment *ms_rts_dsl_assignments(const ms_rts_dsl_interp *it, int *n);

/* ---- programs as bots ----------------------------------------------------- */

/**
 * A bot playing a copy of `p` (ms_bot_ops name "Program"). The bot keeps
 * no memory between ticks (nor does the reference interpreter).
 */
MS_EXTERN int ms_rts_dsl_bot_new(ms_ctx *ctx, ms_bot **out, const ms_dsl_prog *p, const ms_rts_utt *utt,
				 int64_t seed);

/** ms_rts_dsl_bot_new with interpreter options (`opts` may be NULL), e.g. full_paths for `bench synth`. */
MS_EXTERN int ms_rts_dsl_bot_new_options(ms_ctx *ctx, ms_bot **out, const ms_dsl_prog *p, const ms_rts_utt *utt,
				      int64_t seed, const ms_rts_dsl_options *opts);

/**
 * A bot from a program's text (any text form of ms_rts_dsl_parse, default
 * flags); `what` names the text in parse errors ("FILE: program NAME").
 */
MS_EXTERN int ms_rts_dsl_bot_from_text(ms_ctx *ctx, ms_bot **out, const char *what, const char *text, size_t len,
				       const ms_rts_utt *utt, int64_t seed);

/** A bot made from a text form: ms_rts_dsl_bot_from_text, ms_rts_switch_bot_new, ms_rts_portfolio_bot_new. */
typedef int (*ms_rts_text_bot_fn)(ms_ctx *ctx, ms_bot **out, const char *what, const char *text, size_t len,
				  const ms_rts_utt *utt, int64_t seed);

/**
 * A bot from "KIND-text:TEXT" (`what` = "KIND text") or "KIND:FILE" (the
 * file's contents, `what` = FILE), made by `build`. MS_ENOTFOUND, with a
 * message, for a spec of neither form; MS_EIO or MS_ERANGE for a file that
 * cannot be read or is larger than 16 MiB.
 */
MS_EXTERN int ms_rts_bot_from_spec_text(ms_ctx *ctx, ms_bot **out, const char *spec, const char *kind,
					ms_rts_text_bot_fn build, const ms_rts_utt *utt, int64_t seed);

/**
 * A bot from a bot name: "program:FILE" reads the program file,
 * "program-text:TEXT" reads TEXT (any text form of ms_rts_dsl_parse, with
 * the default flags). MS_ENOTFOUND when `spec` has neither prefix.
 */
MS_EXTERN int ms_rts_dsl_bot_from_spec(ms_ctx *ctx, ms_bot **out, const char *spec, const ms_rts_utt *utt,
				       int64_t seed);

/* ---- opponent switches (rts_dsl_switch.c) -------------------------------- */

/** Features a switch compares at its cycle (see ms_rts_switch_features). */
#define MS_RTS_SWITCH_FEATURES 9

/**
 * What `player` sees of the enemy: its workers, light, heavy and ranged
 * units, bases and barracks, its resources, its mobile units within 4 cells
 * of one of ours, and our own unit count.
 */
MS_EXTERN int ms_rts_switch_features(const ms_rts_state *s, int player, double f[MS_RTS_SWITCH_FEATURES]);
/** The L1 distance between two feature vectors, as a switch compares them. */
MS_EXTERN double ms_rts_switch_distance(const double a[MS_RTS_SWITCH_FEATURES], const double b[MS_RTS_SWITCH_FEATURES]);

/**
 * A switch bot from its text form (docs/switch.md): the `before` program
 * until the switch cycle, then the program of the case whose features
 * (same seat) are nearest in L1 distance within the radius, else the
 * default program. Errors name `what` and the line.
 */
MS_EXTERN int ms_rts_switch_bot_new(ms_ctx *ctx, ms_bot **out, const char *what, const char *text, size_t len,
				    const ms_rts_utt *utt, int64_t seed);
/** "switch:FILE" or "switch-text:TEXT"; MS_ENOTFOUND when `spec` has neither prefix. */
MS_EXTERN int ms_rts_switch_bot_from_spec(ms_ctx *ctx, ms_bot **out, const char *spec, const ms_rts_utt *utt,
					  int64_t seed);
/**
 * The case a switch bot chose in this game ("default" when none was near
 * enough) and the features it saw; MS_ENOTFOUND before its cycle, MS_EINVAL
 * for a bot that is not a switch.
 */
MS_EXTERN int ms_rts_switch_bot_choice(const ms_bot *b, const char **label, double seen[MS_RTS_SWITCH_FEATURES]);
/** A bot playing `before` until `cycle`, then `p` (copies of both): what a switch case plays. */
MS_EXTERN int ms_rts_prefix_bot_new(ms_ctx *ctx, ms_bot **out, const ms_dsl_prog *before, int cycle,
				    const ms_dsl_prog *p, const ms_rts_utt *utt, int64_t seed);

/* ---- readable programs: proofs of equal play, simplification (rts_dsl_simplify.c) ---- */

/**
 * Lines of the indented form (MS_RTS_DSL_FORM_PRETTY) of `p`: `*n_lines`
 * receives their count; `line_of` (NULL, or ms_dsl_prog_len entries)
 * receives for every node the line (from 1) its statement starts on (a
 * command's and a condition's nodes: their statement's line).
 */
MS_EXTERN int ms_rts_dsl_line_map(const ms_dsl_prog *p, int *line_of, int *n_lines);

/**
 * The simplifications that need no match, exact by the interpreter's rules
 * for the unit type table `utt`: inside a for, conditions on u's type fold
 * where the enclosing conditions decide them (u.is, u.isBuilder,
 * u.canAttack, u.canHarvest), a command that no type u may have here can
 * carry out is removed (u.build of a unit, u.train of a type the unit
 * cannot make, a count of 0, every command of a unit that has an action:
 * after an Attack, which always assigns one to a unit that can attack), as
 * are counting conditions with 0 anywhere (always true, or false for
 * HasLessNumberOfUnits), then e, empty branches and loops. Conditions that
 * read u outside every for are kept (Java throws there). Rewrites `p`.
 */
MS_EXTERN int ms_rts_dsl_simplify_static(ms_dsl_prog *p, const ms_rts_utt *utt);

struct ms_match_player;

/** The matches of one evaluation, as `synth --game microrts` plays them; zero-initialise, set version. */
typedef struct ms_rts_proof_options {
	int version;                  /**< MS_RTS_PROOF_OPTIONS_VERSION */
	const char *const *maps;      /**< map files (or names under the harness's maps/) */
	int n_maps;
	const char *const *opponents; /**< native bots or program:FILE (ms_bot_spec_native); Java classes are refused */
	int n_opponents;
	int utt;                      /**< unit type table 1..3 (0: 2) */
	int conflict;                 /**< move conflict policy 1..3 (0: 1) */
	int max_cycles;               /**< 0: the competition's length for each map's size */
	int edition;                  /**< native bots' edition (MS_PATH_EDITION_*) */
	int opponent_seeds;           /**< K >= 2: opponents that draw unseeded numbers play seeds 1..K (synth's --opponent-seeds) */
	/* ---- version 2 ---- */
	/** NULL, or the n_opponents opponents as players (match.h), read instead of `opponents`: a spec, or a
	 *  program in memory (copied; named "program HASH" in messages); prefix and reach are not read. */
	const struct ms_match_player *players;
} ms_rts_proof_options;

/**
 * Zero-initialises `opts` and sets its version (MS_RTS_PROOF_OPTIONS_VERSION): 0, or MS_EINVAL for a
 * version this build does not know.
 */
MS_EXTERN int ms_rts_proof_options_init(ms_rts_proof_options *opts, unsigned int version);

/* Version 2 adds `players`; version 1 is still accepted. */
#define MS_RTS_PROOF_OPTIONS_VERSION 2

typedef struct ms_rts_proof ms_rts_proof;

/**
 * Opens every map and lists the evaluation's matches in ms_rts_synth_score's
 * order: per map, per opponent, per seed, the program as player 0 then 1.
 * Errors name the map or opponent (MS_ENOTFOUND for an opponent that is no
 * native bot).
 */
MS_EXTERN int ms_rts_proof_new(ms_ctx *ctx, ms_rts_proof **out, const ms_rts_proof_options *opts);
MS_EXTERN void ms_rts_proof_free(ms_rts_proof *pr);
/** Number of matches. */
MS_EXTERN int ms_rts_proof_count(const ms_rts_proof *pr);
/** The unit type table the matches are played with. */
MS_EXTERN const ms_rts_utt *ms_rts_proof_utt(const ms_rts_proof *pr);

/** One match of a proof. */
typedef struct ms_rts_proof_match {
	const char *map, *opponent;   /**< as given (valid while the proof lives) */
	int map_index, opponent_index;
	int seat;                     /**< the program plays player `seat` */
	int64_t seed;                 /**< the match's seed (0 unless opponent seeds) */
	int stochastic;               /**< the opponent draws (opponent seeds) */
	int max_cycles;
	int winner, cycles, failed;   /**< the reference's end (after ms_rts_proof_record; failed: a decision failed) */
} ms_rts_proof_match;

MS_EXTERN int ms_rts_proof_match_info(const ms_rts_proof *pr, int k, ms_rts_proof_match *info);

/**
 * Plays every match with `p` and records, decision by decision, the pairs
 * it returns: the reference later programs are compared with. Each match is
 * also played through ms_match_play and must end the same (MS_ERROR
 * otherwise: the proof would not be replaying the evaluation's matches).
 */
MS_EXTERN int ms_rts_proof_record(ms_rts_proof *pr, const ms_dsl_prog *p);

/** Where a program's play first differs from the reference's. */
typedef struct ms_rts_proof_diff {
	int match;            /**< the match (ms_rts_proof_match_info) */
	int cycle;            /**< the cycle of the first decision that differs (or of the end) */
	int64_t unit;         /**< the unit whose action differs; -1 when no unit is to blame (the end, an error) */
	int unit_type, x, y;  /**< its type id and cell */
	char reference[128];  /**< the reference's action for it: move(right), produce(Worker,down), none(10), no action */
	char candidate[128];  /**< the compared program's */
	char message[1024];   /**< all of it in one line, naming map, opponent, seat (and seed) */
} ms_rts_proof_diff;

/**
 * Replays every match with `p` and compares its pairs with the reference's
 * at every decision (units, order and actions, not only the end), then the
 * end (cycle, winner, a failed decision). A match stops at its first
 * difference, which goes to `diff` (may be NULL); *equal receives 1 when
 * every decision and every end is the same. The match that differed is
 * replayed first next time.
 */
MS_EXTERN int ms_rts_proof_compare(ms_rts_proof *pr, const ms_dsl_prog *p, int *equal, ms_rts_proof_diff *diff);

/** Decisions (cycles) the last ms_rts_proof_compare compared and found equal. */
MS_EXTERN long ms_rts_proof_cycles_compared(const ms_rts_proof *pr);

/**
 * Plays every match with `p` and counts, per match k and node i, the
 * actions the command at node i issued: counts[k * ms_dsl_prog_len(p) + i]
 * (the caller's array; NONE(10) given to idle units without an abstract
 * action is no one's).
 */
MS_EXTERN int ms_rts_proof_explain(ms_rts_proof *pr, const ms_dsl_prog *p, long *counts);

/** What ms_rts_simplify did. */
typedef struct ms_rts_simplify_stats {
	int nodes_before, nodes_after;
	int lines_before, lines_after; /**< lines of the indented form */
	int static_nodes;              /**< nodes the rules without matches removed */
	long candidates;               /**< simplifications replayed */
	long kept;                     /**< those that played every match identically */
	int matches;                   /**< matches of the proof */
	long cycles_compared;          /**< decisions the final proof compared */
} ms_rts_simplify_stats;

/**
 * Told of every simplification replayed: node `at` of `p` (the program
 * before it) replaced by e (keep < 0) or by its descendant `keep`; `diff`
 * NULL when it was kept, else where it first played differently.
 */
typedef void (*ms_rts_simplify_log)(void *ud, const ms_dsl_prog *p, int at, int keep, const ms_rts_proof_diff *diff);

/** Options of ms_rts_simplify; zero-initialise, set version. */
typedef struct ms_rts_simplify_options {
	int version;             /**< MS_RTS_SIMPLIFY_OPTIONS_VERSION */
	ms_rts_simplify_log log; /**< NULL: none */
	void *ud;
} ms_rts_simplify_options;

/**
 * Zero-initialises `opts` and sets its version (MS_RTS_SIMPLIFY_OPTIONS_VERSION): 0, or MS_EINVAL for
 * a version this build does not know.
 */
MS_EXTERN int ms_rts_simplify_options_init(ms_rts_simplify_options *opts, unsigned int version);

#define MS_RTS_SIMPLIFY_OPTIONS_VERSION 1

/**
 * Simplifies `p` in place and proves it: records `p` as the reference, applies
 * ms_rts_dsl_simplify_static, then tries, what removes most first, to
 * replace each statement by e and each if, if-else and nested for by one of
 * its branches or its body, keeping a change when every match plays the
 * same actions at every decision (ms_rts_proof_compare), until no change is
 * kept; the result is compared once more on every match. A program whose
 * commands all lie inside loops keeps them there. `opts` may be NULL.
 */
MS_EXTERN int ms_rts_simplify(ms_rts_proof *pr, ms_dsl_prog *p, const ms_rts_simplify_options *opts,
			       ms_rts_simplify_stats *st);

/**
 * The library's archetype programs, fallback starts for a map unlike every
 * shipped program's (the pre-game search screens them, a portfolio may add
 * them): plain rushes (a barracks, one unit type sent at the nearest enemy,
 * one to three harvesters) and a worker rush, each a few lines of the
 * indented form. Archetype `i` (0-based), or NULL past the last one.
 */
MS_EXTERN const char *ms_rts_archetype(int i);

#ifdef __cplusplus
}
#endif
#endif
