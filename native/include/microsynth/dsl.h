/*
 * Programs as trees over a context-free grammar that a game registers at
 * run time. Nothing here names a game: MicroRTS and Can't Stop each build
 * their grammar from a table, then share structural hashing, equality,
 * printing, random generation, subtree replacement (the synthesizers'
 * neighbourhood) and holes (partial programs for UCT and sketches).
 *
 * A program is a pre-order array of symbols. A symbol is a production id,
 * or a hole: ms_dsl_hole(nt) stands for "some program of non-terminal nt
 * still to be chosen". Each production has a fixed list of child slots,
 * each slot naming the non-terminal its child must come from, so the
 * array alone determines the tree; a parallel array gives where each
 * subtree ends. Copying, hashing and comparing are therefore flat array
 * operations, which is what a search that evaluates millions of programs
 * needs.
 *
 * Terminal values (a unit type, a number, a direction) are productions
 * without children, so mutating "one parameter" is replacing one leaf.
 *
 * Interpreters are the game's: they walk the arrays and switch on each
 * production's `op` code (see ms_dsl_prod_op, ms_dsl_child).
 */
#ifndef MICROSYNTH_DSL_H
#define MICROSYNTH_DSL_H

#include <stdint.h>
#include <stddef.h>
#include "common.h"
#include "jrandom.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Symbol of a program node: a production id or a hole. */
typedef uint16_t ms_dsl_sym;

/** Holes are encoded above every production id. */
#define MS_DSL_HOLE_BASE 0x8000u
/** Most productions and non-terminals a grammar may define. */
#define MS_DSL_MAX_PRODS 4096
#define MS_DSL_MAX_NTS 256
/** Most child slots of one production. */
#define MS_DSL_MAX_CHILDREN 8

/** The hole symbol of non-terminal `nt`. */
#define ms_dsl_hole(nt) ((ms_dsl_sym)(MS_DSL_HOLE_BASE + (unsigned)(nt)))
#define ms_dsl_is_hole(sym) (((unsigned)(sym)) >= MS_DSL_HOLE_BASE)
#define ms_dsl_hole_nt(sym) ((int)((unsigned)(sym) - MS_DSL_HOLE_BASE))

/* ---- grammar ------------------------------------------------------------ */

/**
 * One production, as a game declares it in a static table.
 *
 * `print` is the one-line printed form: `$0`..`$7` insert the children's
 * text, `$$` a dollar sign; everything else is copied. `children` names the
 * non-terminal of each child slot, separated by spaces ("S B"), or is NULL
 * or "" for a leaf. `size` is what the node counts in ms_dsl_size (games
 * count differently: a value wrapper may count 0). `op` is the game's own
 * code for its interpreter; `weight` is the default sampler's relative
 * weight wherever the production is an alternative (0 means 1).
 */
typedef struct ms_dsl_prod_def {
	const char *name;
	const char *print;
	const char *children;
	int op;
	int size;
	int weight;
} ms_dsl_prod_def;

/**
 * One non-terminal: its name (printed for a hole of it) and its
 * alternatives, production names separated by spaces, in the order the
 * game's sampler draws them. A production may be an alternative of several
 * non-terminals.
 */
typedef struct ms_dsl_nt_def {
	const char *name;
	const char *alts;
} ms_dsl_nt_def;

typedef struct ms_dsl_grammar ms_dsl_grammar;
typedef struct ms_dsl_gen ms_dsl_gen;

/**
 * A game's own sampler for a non-terminal (e.g. MicroRTS's budgeted
 * sample_S). It emits exactly one subtree of `nt` through ms_dsl_gen_emit
 * and ms_dsl_gen_sample, drawing numbers with ms_dsl_gen_rng; `budget` and
 * `depth` are what the caller passed on. Returns 0 or a negative MS_E*.
 */
typedef int (*ms_dsl_sampler)(ms_dsl_gen *gen, int nt, int budget, int depth, void *user);

/** A whole grammar, as a game declares it. */
typedef struct ms_dsl_grammar_def {
	int version;                  /**< MS_DSL_GRAMMAR_DEF_VERSION */
	const char *name;             /**< e.g. "microrts-A" */
	const ms_dsl_prod_def *prods; /**< n_prods entries; id = index */
	int n_prods;
	const ms_dsl_nt_def *nts;     /**< n_nts entries; id = index */
	int n_nts;
	int start;                    /**< non-terminal of whole programs */
} ms_dsl_grammar_def;

#define MS_DSL_GRAMMAR_DEF_VERSION 1

/**
 * Builds a grammar from `def`, checking it: unique names, known
 * non-terminals in child slots and alternatives, well-formed print
 * templates with one `$k` per slot, and that every non-terminal can derive
 * a finite program. The definition's strings must outlive the grammar.
 */
MS_EXTERN int ms_dsl_grammar_new(ms_ctx *ctx, ms_dsl_grammar **out, const ms_dsl_grammar_def *def);
MS_EXTERN void ms_dsl_grammar_free(ms_dsl_grammar *g);

/** Installs a game sampler for non-terminal `nt` (NULL restores the default). */
MS_EXTERN int ms_dsl_grammar_set_sampler(ms_dsl_grammar *g, int nt, ms_dsl_sampler fn, void *user);

MS_EXTERN const char *ms_dsl_grammar_name(const ms_dsl_grammar *g);
MS_EXTERN int ms_dsl_grammar_start(const ms_dsl_grammar *g);
MS_EXTERN int ms_dsl_prod_count(const ms_dsl_grammar *g);
MS_EXTERN int ms_dsl_nt_count(const ms_dsl_grammar *g);
/** Production or non-terminal id by name, or MS_ENOTFOUND. */
MS_EXTERN int ms_dsl_prod_find(const ms_dsl_grammar *g, const char *name);
MS_EXTERN int ms_dsl_nt_find(const ms_dsl_grammar *g, const char *name);
MS_EXTERN const char *ms_dsl_prod_name(const ms_dsl_grammar *g, int prod);
MS_EXTERN const char *ms_dsl_nt_name(const ms_dsl_grammar *g, int nt);
MS_EXTERN int ms_dsl_prod_op(const ms_dsl_grammar *g, int prod);
MS_EXTERN int ms_dsl_prod_arity(const ms_dsl_grammar *g, int prod);
/** Non-terminal of child slot `k` of `prod`. */
MS_EXTERN int ms_dsl_prod_child_nt(const ms_dsl_grammar *g, int prod, int k);
/** Alternatives of `nt`: `*n` receives their count; returns the ids. */
MS_EXTERN const uint16_t *ms_dsl_nt_alts(const ms_dsl_grammar *g, int nt, int *n);
/** Whether `prod` is an alternative of `nt`. */
MS_EXTERN int ms_dsl_nt_has(const ms_dsl_grammar *g, int nt, int prod);

/* ---- programs ----------------------------------------------------------- */

typedef struct ms_dsl_prog ms_dsl_prog;

/** An empty program (no nodes) to be filled with ms_dsl_prog_push. */
MS_EXTERN int ms_dsl_prog_new(ms_ctx *ctx, ms_dsl_prog **out, const ms_dsl_grammar *g);
MS_EXTERN void ms_dsl_prog_free(ms_dsl_prog *p);
MS_EXTERN int ms_dsl_prog_clone(ms_dsl_prog **out, const ms_dsl_prog *p);
/** Makes `dst` (same grammar) equal to `src`. */
MS_EXTERN int ms_dsl_prog_copy(ms_dsl_prog *dst, const ms_dsl_prog *src);
MS_EXTERN const ms_dsl_grammar *ms_dsl_prog_grammar(const ms_dsl_prog *p);
MS_EXTERN ms_ctx *ms_dsl_prog_ctx(const ms_dsl_prog *p);
MS_EXTERN void ms_dsl_prog_clear(ms_dsl_prog *p);

/**
 * Builds a program symbol by symbol in pre-order. Pushing is unchecked;
 * ms_dsl_prog_finish checks that the symbols form exactly one tree of
 * non-terminal `nt` (every child allowed in its slot) and computes the
 * subtree ends. A program is usable only after finish succeeds.
 */
MS_EXTERN int ms_dsl_prog_push(ms_dsl_prog *p, ms_dsl_sym sym);
MS_EXTERN int ms_dsl_prog_finish(ms_dsl_prog *p, int nt);

/** Number of nodes. */
MS_EXTERN int ms_dsl_prog_len(const ms_dsl_prog *p);
/** The pre-order symbols (valid until the program changes). */
MS_EXTERN const ms_dsl_sym *ms_dsl_prog_nodes(const ms_dsl_prog *p);
/** end[i] = index one past the subtree rooted at node i. */
MS_EXTERN const int32_t *ms_dsl_prog_ends(const ms_dsl_prog *p);
/** The non-terminal of the whole program. */
MS_EXTERN int ms_dsl_prog_nt(const ms_dsl_prog *p);
/** Index of the k-th child of node i (i + 1 for k = 0). */
MS_EXTERN int ms_dsl_child(const ms_dsl_prog *p, int i, int k);
/** Index of the parent of node i and which slot i fills; -1 for the root. */
MS_EXTERN int ms_dsl_parent(const ms_dsl_prog *p, int i, int *slot);
/** The non-terminal node i derives from (its slot's, or the program's for the root). */
MS_EXTERN int ms_dsl_node_nt(const ms_dsl_prog *p, int i);

/** Sum of the productions' sizes (holes count 1). */
MS_EXTERN int ms_dsl_size(const ms_dsl_prog *p);
/** Depth: 1 for a single node. */
MS_EXTERN int ms_dsl_depth(const ms_dsl_prog *p);
/** Number of holes; index of the first hole in pre-order or -1. */
MS_EXTERN int ms_dsl_hole_count(const ms_dsl_prog *p);
MS_EXTERN int ms_dsl_first_hole(const ms_dsl_prog *p);

/** Structural hash (64-bit FNV-1a over grammar and symbols); equal trees hash equally. */
MS_EXTERN uint64_t ms_dsl_hash(const ms_dsl_prog *p);
/** 1 when both programs are the same tree of the same grammar. */
MS_EXTERN int ms_dsl_equal(const ms_dsl_prog *a, const ms_dsl_prog *b);

/**
 * Replaces the subtree rooted at node `i` with the subtree of `src`
 * rooted at node `j`. It must derive from the same non-terminal as node i
 * (MS_EINVAL otherwise, and `p` is unchanged).
 */
MS_EXTERN int ms_dsl_replace(ms_dsl_prog *p, int i, const ms_dsl_prog *src, int j);

/**
 * Expands the hole at node `i` with production `prod` (an alternative of
 * the hole's non-terminal); its children become holes.
 */
MS_EXTERN int ms_dsl_expand(ms_dsl_prog *p, int i, int prod);

/* ---- text --------------------------------------------------------------- */

/**
 * Prints the program with the productions' templates (holes print as their
 * non-terminal's name). `*out` is a NUL-terminated string from the
 * program's context allocator (free with ms_ctx_mfree); `len` may be NULL.
 */
MS_EXTERN int ms_dsl_print(const ms_dsl_prog *p, char **out, size_t *len);

/**
 * Prints the exact-tree token form: production names in pre-order joined
 * by `sep` (holes as "?" followed by the non-terminal's name).
 */
MS_EXTERN int ms_dsl_print_tokens(const ms_dsl_prog *p, char sep, char **out, size_t *len);

/**
 * Reads the token form back into `p` (cleared first) as a program of
 * non-terminal `nt`; errors name the token's position (1-based) and text.
 * Whitespace around tokens is ignored.
 */
MS_EXTERN int ms_dsl_parse_tokens(ms_dsl_prog *p, const char *text, size_t len, char sep, int nt);

/* ---- random generation and mutation ------------------------------------- */

/** Limits of random generation; zero-initialise, set version, then fields. */
typedef struct ms_dsl_gen_options {
	int version;   /**< MS_DSL_GEN_OPTIONS_VERSION */
	int max_depth; /**< default sampler: beyond it only leaf-most productions (0: 4) */
	int budget;    /**< passed to game samplers as their size budget */
	int max_nodes; /**< hard cap on the generated subtree's nodes (0: 10,000) */
} ms_dsl_gen_options;

/**
 * Zero-initialises `opts` and sets its version (MS_DSL_GEN_OPTIONS_VERSION): 0, or MS_EINVAL for a
 * version this build does not know.
 */
MS_EXTERN int ms_dsl_gen_options_init(ms_dsl_gen_options *opts, unsigned int version);

#define MS_DSL_GEN_OPTIONS_VERSION 1

/**
 * Generates a random program of non-terminal `nt` into `p` (cleared
 * first). The default sampler draws an alternative by weight; at depth >=
 * max_depth it draws among the alternatives without children, else among
 * those with one child, else among all (as the Can't Stop reference does).
 * Game samplers take over for the non-terminals they are installed on.
 */
MS_EXTERN int ms_dsl_generate(ms_dsl_prog *p, int nt, ms_jrandom *rng, const ms_dsl_gen_options *opts);

/**
 * The neighbourhood of local search: replaces the subtree at node `i` with
 * a freshly generated subtree of the same non-terminal, generated with
 * `opts` as a whole new program would be (the references give the new
 * subtree its own depth or size budget, so programs may grow).
 */
MS_EXTERN int ms_dsl_regenerate(ms_dsl_prog *p, int i, ms_jrandom *rng, const ms_dsl_gen_options *opts);

/**
 * A mutation as most references do it: a node drawn uniformly among the
 * nodes whose production size is > 0 (all nodes when `all_nodes`), then
 * ms_dsl_regenerate there. `*at` (may be NULL) receives the node index.
 */
MS_EXTERN int ms_dsl_mutate(ms_dsl_prog *p, ms_jrandom *rng, const ms_dsl_gen_options *opts, int all_nodes, int *at);

/** The edits of ms_dsl_mutate_local. */
typedef enum ms_dsl_edit {
	MS_DSL_EDIT_RELABEL = 0,  /**< a node's production becomes another alternative with the same child slots */
	MS_DSL_EDIT_TERMINAL = 1, /**< a leaf (or a production over one leaf) becomes another such subtree */
	MS_DSL_EDIT_WRAP = 2,     /**< x becomes op(..., x, ...), op's other slots terminal-like (as above) */
	MS_DSL_EDIT_UNWRAP = 3,   /**< a node gives its place to a descendant that fits its slot */
	MS_DSL_EDIT_SWAP = 4,     /**< two children of a node change places (each fits the other's slot) */
	MS_DSL_EDIT_COUNT
} ms_dsl_edit;

/**
 * A local edit of a finished program, in place: the gentle neighbourhood
 * beside ms_dsl_mutate's subtree regeneration (one operator, leaf or
 * operand changes; the rest stays). The kind is drawn uniformly among the
 * kinds that apply somewhere in `p`, the node uniformly among those it
 * applies to, the variant uniformly; new subtrees (a terminal, a wrapper's
 * other operands) are drawn uniformly among the slot's terminal-like
 * subtrees. Only the grammar decides what applies, so a mutant may still
 * be ill typed for the game: a search filters with its problem's check.
 * The result always differs from `p`. `*at` and `*edit` (may be NULL) receive the
 * node and the ms_dsl_edit. MS_ENOTFOUND when no edit applies anywhere
 * (e.g. a lone leaf that has no alternative).
 */
MS_EXTERN int ms_dsl_mutate_local(ms_dsl_prog *p, ms_jrandom *rng, int *at, int *edit);

/* For game samplers: emit one production or hole, recurse into a child. */
MS_EXTERN int ms_dsl_gen_emit(ms_dsl_gen *gen, ms_dsl_sym sym);
/** Generates a subtree of `nt` (through its sampler) at `depth`. */
MS_EXTERN int ms_dsl_gen_sample(ms_dsl_gen *gen, int nt, int budget, int depth);
/** The default sampler's choice for `nt`, to fall back on. */
MS_EXTERN int ms_dsl_gen_default(ms_dsl_gen *gen, int nt, int budget, int depth);
MS_EXTERN ms_jrandom *ms_dsl_gen_rng(ms_dsl_gen *gen);
MS_EXTERN const ms_dsl_grammar *ms_dsl_gen_grammar(ms_dsl_gen *gen);

#ifdef __cplusplus
}
#endif
#endif
