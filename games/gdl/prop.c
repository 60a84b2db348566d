/* The propositional network: ground rules as flat code over propositions
 * (0 is the constant true), ordered by stratum, split into what a state
 * decides (legal, goal, terminal) and what a joint move decides (next). */
#include <stdlib.h>
#include <string.h>

#include "gdl_internal.h"
#include "gdl_net.h"

void gdl_net_free(ms_gdl *g)
{
	gdl_net *n = g->net;
	if (!n)
		return;
	ms_ctx_mfree(g->ctx, n->prop_of_term);
	gdl_ivec_free(g->ctx, &n->code);
	gdl_ivec_free(g->ctx, &n->seg);
	ms_ctx_mfree(g->ctx, n);
	g->net = NULL;
}

static int rule_key(const ms_gdl *g, int head_term)
{
	int rel = gdl_rel_find(g, g->terms.sym[head_term], g->terms.nargs[head_term]);
	return g->rels[rel].on_does * (1 << 20) + g->rels[rel].scc_b;
}

typedef struct keyed {
	int key, rule;
} keyed;

static int cmp_keyed(const void *a, const void *b)
{
	const keyed *x = a, *y = b;
	return x->key != y->key ? (x->key < y->key ? -1 : 1) : (x->rule < y->rule ? -1 : x->rule > y->rule);
}

/* Propositions: 0 is true; every dynamic atom of the store gets one, static ones map to 0. */
static int number_props(ms_gdl *g, gdl_net *n)
{
	n->prop_of_term = ms_ctx_malloc(g->ctx, (size_t)g->terms.n * sizeof *n->prop_of_term);
	if (!n->prop_of_term)
		return MS_ENOMEM;
	for (int t = 0; t < g->terms.n; t++)
		n->prop_of_term[t] = -1;
	n->nprops = 1;
	for (int r = 0; r < g->nrels; r++) {
		const gdl_ivec *a = &g->st.atoms[r];
		for (int i = 0; i < a->n; i++)
			n->prop_of_term[a->v[i]] = g->rels[r].dynamic ? n->nprops++ : 0;
	}
	return MS_OK;
}

/* One ground rule as code [head, nlits, lits...]; 0 if it can never fire. */
static int emit_rule(ms_gdl *g, gdl_net *n, int k)
{
	int rc, start = g->gr_start.v[k], end = k + 1 < g->gr_start.n ? g->gr_start.v[k + 1] : g->gr_lits.n;
	int at = n->code.n;
	if ((rc = gdl_ivec_push(g->ctx, &n->code, n->prop_of_term[g->gr_head.v[k]])) ||
	    (rc = gdl_ivec_push(g->ctx, &n->code, 0)))
		return rc;
	for (int i = start; i < end; i++) {
		int t = g->gr_lits.v[i] >> 1, neg = g->gr_lits.v[i] & 1;
		int p = t < g->terms.n ? n->prop_of_term[t] : -1;
		if (p < 0) {
			if (!neg) { /* a positive atom outside the domain: the rule never fires */
				n->code.n = at;
				return MS_OK;
			}
			continue; /* the negation of an atom that is never true */
		}
		if ((rc = gdl_ivec_push(g->ctx, &n->code, p << 1 | neg)))
			return rc;
		n->code.v[at + 1]++;
	}
	return MS_OK;
}

int gdl_net_build(ms_gdl *g)
{
	int rc;
	gdl_net *n = ms_ctx_calloc(g->ctx, 1, sizeof *n);
	if (!n)
		return MS_ENOMEM;
	g->net = n;
	if ((rc = number_props(g, n)))
		return rc;
	int nr = g->gr_head.n;
	keyed *ks = ms_ctx_malloc(g->ctx, (size_t)(nr + 1) * sizeof *ks);
	if (!ks)
		return MS_ENOMEM;
	for (int k = 0; k < nr; k++)
		ks[k] = (keyed){ rule_key(g, g->gr_head.v[k]), k };
	qsort(ks, (size_t)nr, sizeof *ks, cmp_keyed);
	n->phase2 = -1;
	for (int k = 0; k < nr && !rc; k++) {
		if (k == 0 || ks[k].key != ks[k - 1].key) {
			int rel = gdl_rel_find(g, g->terms.sym[g->gr_head.v[ks[k].rule]],
					       g->terms.nargs[g->gr_head.v[ks[k].rule]]);
			if (g->rels[rel].on_does && n->phase2 < 0)
				n->phase2 = n->nseg;
			/* segment: code start, recursive flag; its end is the next one's start */
			if ((rc = gdl_ivec_push(g->ctx, &n->seg, n->code.n)) ||
			    (rc = gdl_ivec_push(g->ctx, &n->seg, g->rels[rel].recursive_b)))
				break;
			n->nseg++;
		}
		rc = emit_rule(g, n, ks[k].rule);
	}
	if (!rc)
		rc = gdl_ivec_push(g->ctx, &n->seg, n->code.n);
	if (n->phase2 < 0)
		n->phase2 = n->nseg;
	ms_ctx_mfree(g->ctx, ks);
	return rc;
}

/* Runs segments [s0, s1): each rule sets its head when all its literals hold. */
void gdl_net_run(const gdl_net *n, uint8_t *val, int s0, int s1)
{
	const int *code = n->code.v, *seg = n->seg.v;
	for (int s = s0; s < s1; s++) {
		int begin = seg[2 * s], end = seg[2 * s + 2], rec = seg[2 * s + 1], changed;
		do {
			changed = 0;
			for (int pc = begin; pc < end;) {
				int head = code[pc], nl = code[pc + 1], i = 0;
				const int *l = code + pc + 2;
				pc += 2 + nl;
				if (val[head])
					continue;
				for (; i < nl; i++)
					if (val[l[i] >> 1] == (l[i] & 1))
						break;
				if (i == nl)
					changed = val[head] = 1;
			}
		} while (rec && changed);
	}
}
