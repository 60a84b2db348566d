/*
 * The interpreter's compiler (rts_dsl_interp.h): one flat node per program
 * node with its parameters decoded, and the marks the loop shortcuts read.
 */
#include <string.h>

#include "rts_dsl_interp.h"
#include "core/vec.h"

int rd_compile(ms_rts_dsl_interp *it, const ms_dsl_prog *p)
{
	const ms_dsl_grammar *g = ms_dsl_prog_grammar(p);
	const ms_dsl_sym *nodes = ms_dsl_prog_nodes(p);
	const int32_t *ends = ms_dsl_prog_ends(p);
	int n = ms_dsl_prog_len(p);

	if (!ms_rts_dsl_grammar_is(g) || ms_dsl_prog_nt(p) != RD_NT_S || n < 1)
		return ms_ctx_error(it->ctx, MS_EINVAL, "DSL interpreter: not a finished MicroRTS DSL program");
	if (ms_dsl_hole_count(p) > 0)
		return ms_ctx_error(it->ctx, MS_EINVAL, "DSL interpreter: the program has holes (node %d)",
				    ms_dsl_first_hole(p));
	if (n > it->cap_code) {
		const ms_vec_col cols[] = {MS_VEC_COL(it->code), MS_VEC_COL(it->fors)};
		if (ms_vec_grow_cols(it->ctx, &it->cap_code, n, cols, 2) < 0)
			return ms_ctx_error(it->ctx, MS_ENOMEM, "DSL interpreter: out of memory");
	}
	for (int i = 0; i < n; i++) {
		rd_node *c = &it->code[i];
		int arity = ms_dsl_prod_arity(g, nodes[i]);
		memset(c, 0, sizeof(*c));
		c->op = ms_dsl_prod_op(g, nodes[i]);
		c->t = c->d = c->o = c->tp = -1;
		c->at = c->ad = c->an = c->ao = c->atp = -1;
		c->end = ends[i];
		for (int k = 0; k < arity && k < 3; k++) {
			int ch = ms_dsl_child(p, i, k), op = ms_dsl_prod_op(g, nodes[ch]);
			c->k[k] = ch;
			switch (MS_RTS_DSL_VAL_KIND(op)) {
			case MS_RTS_DSL_VAL_T:
				c->t = MS_RTS_DSL_VAL_INDEX(op);
				c->at = ch;
				break;
			case MS_RTS_DSL_VAL_N:
				c->n = MS_RTS_DSL_VAL_INDEX(op) == RD_N_INF ? RD_N_INF_VALUE : MS_RTS_DSL_VAL_INDEX(op);
				c->an = ch;
				break;
			case MS_RTS_DSL_VAL_D:
				c->d = MS_RTS_DSL_VAL_INDEX(op);
				c->ad = ch;
				break;
			case MS_RTS_DSL_VAL_OP:
				c->o = MS_RTS_DSL_VAL_INDEX(op);
				c->ao = ch;
				break;
			case MS_RTS_DSL_VAL_TP:
				c->tp = MS_RTS_DSL_VAL_INDEX(op);
				c->atp = ch;
				break;
			default:
				break;
			}
		}
	}
	/* Random anywhere below a node makes its loops draw numbers. Bottom up
	 * over the children (each next one at its sibling's end): a program is
	 * compiled for every match, so this stays linear. */
	for (int i = n - 1; i >= 0; i--) {
		rd_node *c = &it->code[i];
		int below = 0; /* a for strictly inside the subtree */
		c->rnd = c->o == RD_OP_RANDOM;
		for (int j = i + 1; j < c->end; j = it->code[j].end) {
			c->rnd |= it->code[j].rnd;
			below |= it->code[j].loops;
		}
		c->inner = c->op == MS_RTS_DSL_S_FOR && below;
		c->loops = c->op == MS_RTS_DSL_S_FOR || below;
		it->fors[i].tick = 0;
	}
	it->n_code = n;
	return MS_OK;
}
