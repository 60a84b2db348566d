/* Private to games/gdl: symbols, ground terms, rules, the fact store and the join. */
#ifndef MS_GDL_INTERNAL_H
#define MS_GDL_INTERNAL_H

#include <stdint.h>

#include "core/vec.h" /* ms_vec_grow: every array of the module grows through it */
#include "microsynth/gdl.h"

/* The library's growable int array (core/vec.h); push appends a value, free disposes. */
typedef MS_VEC(int) gdl_ivec;
int gdl_ivec_push(ms_ctx *ctx, gdl_ivec *a, int x);
#define gdl_ivec_free(ctx, a) ms_vec_dispose((ctx), (a))

/* Interned strings (symbol names). */
typedef struct gdl_syms {
	char **name;
	int n, cap;
	int *hash; /* open addressing, -1 empty */
	int hcap;
} gdl_syms;
int gdl_sym_intern(ms_ctx *ctx, gdl_syms *s, const char *str, size_t len, int *out);
int gdl_sym_find(const gdl_syms *s, const char *str);

/* Hash-consed ground terms: a constant has nargs -1, "(f)" has nargs 0. */
typedef struct gdl_terms {
	int *sym, *nargs, *args; /* args: index of the first argument in pool */
	int n, cap, cap_nargs, cap_args;
	gdl_ivec pool;
	int *hash;
	int hcap;
} gdl_terms;
int gdl_term_intern(ms_ctx *ctx, gdl_terms *t, int sym, int nargs, const int *args, int *out);
int gdl_term_find(const gdl_terms *t, int sym, int nargs, const int *args);
/* dst (empty or a previous copy, whose storage is reused or freed) becomes a copy of src. */
int gdl_terms_copy(ms_ctx *ctx, gdl_terms *dst, const gdl_terms *src);
void gdl_terms_free(ms_ctx *ctx, gdl_terms *t);
/* Prints term `id` compactly into buf (returns the length needed). */
int gdl_term_text(const gdl_terms *t, const gdl_syms *s, int id, char *buf, size_t size);

/* Rule patterns: a tree of constants, variables and function terms. */
enum { PN_CONST, PN_VAR, PN_FUNC };
typedef struct gdl_pnode {
	int kind, sym, nargs, args; /* PN_VAR: sym is the variable's index; args into pargs */
} gdl_pnode;

enum { LIT_POS, LIT_NEG, LIT_DISTINCT, LIT_SAME }; /* LIT_SAME: (not (distinct a b)) */
typedef struct gdl_lit {
	int kind, atom, atom2, rel; /* atom, atom2: pattern nodes; rel for POS/NEG */
	uint64_t vars;              /* variables occurring in it */
	int dropped;                /* goal-directed mode: left out of the domain analysis (topdown.c) */
} gdl_lit;

typedef struct gdl_rule {
	int head, head_rel;
	int lit0, nlits;
	int nvars, line;
	int synthetic;  /* true <= init/next, does <= legal: domain analysis only */
	uint64_t bound; /* variables bound by positive literals */
	uint64_t head_vars;
	int var0;       /* names of its variables: g->varsyms.v[var0 ...] */
} gdl_rule;

/* A relation: name and arity (-1: a bare constant sentence such as terminal). */
typedef struct gdl_rel {
	int sym, arity;
	int dynamic;    /* depends on true or does */
	int on_does;    /* depends on does */
	int scc_a;      /* component in the graph with true<=init/next, does<=legal */
	int scc_b;      /* component in the real dependency graph (evaluation strata) */
	int recursive_b;
	int needed;     /* relaxed: 1 static, or reached positively from true, does, goal, terminal;
			 * 2 (grounding only) reached through negation alone */
	int first_line;
	int deferred;   /* goal-directed mode: not analysed, answered on demand (topdown.c) */
} gdl_rel;

/* Argument index: (rel, position, value) -> atom list; a position is an
 * argument p, or GDL_POS2(p, q) for argument q of a function argument p. */
#define GDL_POS2(p, q) (1000 + (p) * 64 + (q))
typedef struct gdl_idx_entry {
	int rel, pos, val;
	gdl_ivec atoms;
} gdl_idx_entry;

/* A fact store: atoms per relation, an argument index, membership and the
 * round each atom was derived in (for semi-naive evaluation). */
typedef struct gdl_store {
	gdl_ivec *atoms; /* per relation */
	int nrels;
	gdl_idx_entry *e;
	int ne, cape;
	int *hash;
	int hcap;
	uint8_t *in; /* per term */
	int *gen;    /* per term */
	int tcap, gcap; /* capacities of in and gen */
	int round;
} gdl_store;
int gdl_store_init(ms_ctx *ctx, gdl_store *st, int nrels);
void gdl_store_free(ms_ctx *ctx, gdl_store *st);
/* Adds atom `t` of relation `rel`; *added is 1 if it was new. */
int gdl_store_add(ms_ctx *ctx, gdl_store *st, const gdl_terms *terms, int rel, int t, int *added);
/* The index entry of atoms of `rel` whose argument `pos` is term `val`, or -1. */
int gdl_store_lookup(const gdl_store *st, int rel, int pos, int val);
/* Empties the listed relations. */
void gdl_store_clear(gdl_store *st, const int *rels, int n);

struct ms_gdl {
	ms_ctx *ctx;
	char name[256];
	ms_gdl_options opts;
	gdl_syms syms;
	gdl_terms terms;
	gdl_pnode *pn;
	int npn, cappn;
	gdl_ivec pargs;
	gdl_ivec varsyms;
	gdl_lit *lits;
	int nlits, caplits;
	gdl_rule *rules;
	int nrules, caprules;
	gdl_rel *rels;
	int nrels, caprels;
	gdl_store st;    /* static facts exactly, dynamic ones relaxed */
	int ncomp_a, ncomp_b;
	gdl_ivec consts; /* every constant symbol's term, for unbound head variables */
	/* well-known relations (-1 if absent) */
	int r_role, r_init, r_true, r_next, r_legal, r_does, r_goal, r_terminal;
	/* roles, fluents, moves */
	int nroles;
	int *role_term;
	const char **role_name;
	gdl_ivec fluents;     /* per fluent: its term (the argument of true), sorted by text */
	gdl_ivec fluent_atom; /* per fluent: term of (true f) */
	gdl_ivec next_atom;   /* per fluent: term of (next f) or -1 */
	gdl_ivec move_term;   /* per move (sorted by role, then text): term of the move */
	gdl_ivec move_role;
	gdl_ivec does_atom, legal_atom; /* per move: terms of (does r m), (legal r m) or -1 */
	gdl_ivec goal_atom, goal_role, goal_val; /* every possible goal atom */
	uint64_t *initial;
	size_t words;
	/* ground rules (when grounded) */
	gdl_ivec gr_head, gr_start, gr_lits; /* gr_lits: term<<1 | negated */
	long ground_lits;
	long relax_steps; /* join steps of the domain analysis, against opts.relax_bound */
	long relax_work;  /* candidates it tried to match, against opts.goal_directed_steps */
	int grounding;   /* recording ground rules now */
	int overflow;    /* grounding bound exceeded, or a dynamic relation outside the relaxation */
	struct gdl_net *net;
	/* the choice of representation (choose.c) */
	double deadline;  /* ms_now() past which grounding is abandoned; 0: none */
	unsigned ticks;   /* join steps since the clock was last read */
	int late;         /* the deadline was seen passed (it stays passed) */
	int rep;          /* MS_GDL_REP_* */
	int goal_directed; /* the domain analysis skipped the deferred relations; top-down fallback */
	int budgeted;      /* this analysis gives up (GDL_RETRY) past opts.goal_directed_steps */
	int top_down;      /* the fallback evaluates states top-down (always when goal_directed) */
	int relax_terms0;  /* terms when this analysis began */
	double rate_net, rate_fo, load_s;
};

/* kif.c: parse text into rules. */
int gdl_kif_parse(ms_gdl *g, const char *text, size_t len);
/* check.c: relation graph, components, safety and stratification checks. */
int gdl_check(ms_gdl *g);
/* db.c: stores, matching, the join and the relaxation. */
int gdl_rel_find(const ms_gdl *g, int sym, int arity);
int gdl_rel_get(ms_gdl *g, int sym, int arity, int line, int *out);
/* Evaluates one component's rules semi-naively into `dyn` (relaxed: negation on
 * dynamic relations ignored, ground rules recorded when g->grounding). */
int gdl_eval_component(ms_gdl *g, gdl_store *dyn, int comp, int use_b, int relaxed, const int *rules, int nrules);
/* A budgeted analysis passed opts.goal_directed_steps join steps, or made a
 * fifth of that in terms: gdl_relax returns this, and loading starts over. */
enum { GDL_RETRY = 2 };
int gdl_relax(ms_gdl *g);
/* Matches pattern `node` against ground term `term`, binding variables (recorded in trail). */
int gdl_match(const ms_gdl *g, int node, int term, int *bind, int *trail, int *ntrail);
/* The ground term of pattern `node` under `bind` (*out -1 if absent and not interned). */
int gdl_instance(ms_gdl *g, int node, const int *bind, int intern, int *out);
/* prop.c: the ground network and machines. */
int gdl_net_build(ms_gdl *g);
void gdl_net_free(ms_gdl *g);
/* choose.c: grounding stopped, its ground rules
 * freed, and for a reason `why` (MS_GDL_REP_*) other than _NETWORK (done) the
 * network too; 1 while grounding once its deadline has passed (the clock
 * read every 1,024 calls); the timed choice between the network
 * and the fallback (opts.choose_seconds), which frees the network if the
 * fallback ran faster. */
void gdl_ground_stop(ms_gdl *g, int why);
int gdl_ground_late(ms_gdl *g);
int gdl_choose(ms_gdl *g);
/* topdown.c: goal-directed evaluation for the fallback. gdl_defer marks the
 * relations the domain analysis may leave to on-demand queries and the
 * literals it then drops; a gdl_td (one per machine) answers the open queries
 * of legal, goal, terminal (phase 0) or next (phase 1) into `facts`, which holds
 * the state's true (and the joint move's does) facts. */
void gdl_defer(ms_gdl *g);
typedef struct gdl_td gdl_td;
int gdl_td_new(ms_ctx *ctx, gdl_td **out, const ms_gdl *g);
void gdl_td_free(gdl_td *td);
int gdl_td_run(gdl_td *td, gdl_store *facts, int phase);

#endif
