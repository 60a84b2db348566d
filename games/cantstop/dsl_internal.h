/* The Can't Stop DSL: what its files share (not public). */
#ifndef MS_GAMES_CANTSTOP_DSL_INTERNAL_H
#define MS_GAMES_CANTSTOP_DSL_INTERNAL_H

#include "microsynth/cantstop_dsl.h"

/* Alternatives of one non-terminal, split as the reference's depth limit needs them. */
typedef struct csd__nt {
	uint16_t alts[MS_CS_P_COUNT];
	uint16_t terminal[MS_CS_P_COUNT]; /* no children, or a value wrapper */
	uint16_t unary[MS_CS_P_COUNT];    /* one child (and not a wrapper) */
	int n_alts, n_terminal, n_unary;
} csd__nt;

struct ms_cs_dsl {
	ms_ctx *ctx;
	ms_cs_dsl_options opts;
	ms_dsl_gen_options gen;
	ms_dsl_grammar *g;
	csd__nt nt[MS_CS_NT_COUNT];
	/* The alternatives' text of each non-terminal, built for the options (the grammar keeps pointers). */
	char alts_text[MS_CS_NT_COUNT][512];
	ms_dsl_nt_def nt_defs[MS_CS_NT_COUNT];
};

/* Whether production `prod` wraps a value (its child is a value leaf). */
static inline int csd__is_wrapper(int prod)
{
	return prod == MS_CS_P_NUMERIC_CONSTANT || prod == MS_CS_P_VAR_LIST || prod == MS_CS_P_VAR_ARRAY ||
	       prod == MS_CS_P_VAR_SCALAR;
}

/* Static production table, indexed by MS_CS_P_*. */
extern const ms_dsl_prod_def csd__prods[MS_CS_P_COUNT];

#endif
