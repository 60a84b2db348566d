/* Private layout of grammars and programs (native/dsl only). */
#ifndef MS_DSL_INTERNAL_H
#define MS_DSL_INTERNAL_H

#include "microsynth/dsl.h"

typedef struct dsl_prod {
	const char *name;
	const char *print;
	int op, size, weight;
	int arity;
	uint16_t child[MS_DSL_MAX_CHILDREN];
} dsl_prod;

typedef struct dsl_nt {
	const char *name;
	uint16_t *alts;
	int n_alts;
	/* Alternatives by shape, for the default sampler's depth limit. */
	uint16_t *leaves, *unary;
	int n_leaves, n_unary;
	ms_dsl_sampler sampler;
	void *user;
	uint8_t *member; /* member[prod] != 0 when prod is an alternative */
} dsl_nt;

struct ms_dsl_grammar {
	ms_ctx *ctx;
	const char *name;
	int start;
	int n_prods, n_nts;
	dsl_prod *prods;
	dsl_nt *nts;
	uint64_t hash_seed; /* from the grammar's name and shape */
};

struct ms_dsl_prog {
	ms_ctx *ctx;
	const ms_dsl_grammar *g;
	ms_dsl_sym *node;
	int32_t *end;
	int n, cap;
	int nt;       /* non-terminal of the root, -1 until finished */
};

/* Grows the arrays to hold `need` nodes. */
int dsl_prog_reserve(ms_dsl_prog *p, int need);
/* Recomputes end[] for a program known to be well formed. */
void dsl_prog_index(ms_dsl_prog *p);
/*
 * Replaces the subtree at node i of a finished program with the len
 * symbols of seq, which must form one tree that fits node i's slot
 * (unchecked); seq may point into p itself.
 */
int dsl_prog_splice(ms_dsl_prog *p, int i, const ms_dsl_sym *seq, int len);
/* Whether sym may stand where a program of nt is expected. */
static inline int dsl_fits(const ms_dsl_grammar *g, int nt, ms_dsl_sym sym)
{
	if (ms_dsl_is_hole(sym))
		return ms_dsl_hole_nt(sym) == nt;
	return sym < g->n_prods && g->nts[nt].member[sym];
}
/* Arity of a symbol (0 for holes). */
static inline int dsl_arity(const ms_dsl_grammar *g, ms_dsl_sym s)
{
	return ms_dsl_is_hole(s) ? 0 : g->prods[s].arity;
}

#endif
