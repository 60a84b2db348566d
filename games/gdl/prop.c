/* The propositional network: ground rules over propositions (0 is the
 * constant true), ordered by stratum, split into what a state decides
 * (legal, goal, terminal) and what a joint move decides (next), compiled
 * into literal tries (layout in gdl_net.h). */
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
	ms_ctx_mfree(g->ctx, n->does_slot);
	gdl_ivec_free(g->ctx, &n->code);
	gdl_ivec_free(g->ctx, &n->slot);
	gdl_ivec_free(g->ctx, &n->seg);
	ms_ctx_mfree(g->ctx, n);
	g->net = NULL;
}

/* Propositions: 0 is true; every dynamic atom of the store gets one, static
 * ones map to 0. Does atoms are numbered again as slots 1, 2, ... */
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
	n->does_slot = ms_ctx_calloc(g->ctx, (size_t)n->nprops, sizeof *n->does_slot);
	if (!n->does_slot)
		return MS_ENOMEM;
	const gdl_ivec *d = &g->st.atoms[g->r_does];
	for (int i = 0; i < d->n && g->rels[g->r_does].dynamic; i++)
		n->does_slot[n->prop_of_term[d->v[i]]] = ++n->ndoes;
	return MS_OK;
}

/* One ground rule on its way into a trie. */
typedef struct crule {
	int key;  /* on_does << 20 | stratum: the segment */
	int slot; /* 0, or the slot of the does literal taken out */
	int head, rec, n, off;
	const int *lits; /* prop << 1 | negated, n of them (from off in the buffer) */
} crule;

static int cmp_crule(const void *a, const void *b)
{
	const crule *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	if (x->slot != y->slot)
		return x->slot < y->slot ? -1 : 1;
	for (int i = 0; i < x->n && i < y->n; i++)
		if (x->lits[i] != y->lits[i])
			return x->lits[i] < y->lits[i] ? -1 : 1;
	if (x->n != y->n)
		return x->n < y->n ? -1 : 1;
	return (x->head > y->head) - (x->head < y->head);
}

/* Ground rule k as propositions into buf; c->n is -1 if it can never fire. */
static int compile_rule(ms_gdl *g, const gdl_net *n, int k, gdl_ivec *buf, crule *c)
{
	int rc, start = g->gr_start.v[k], end = k + 1 < g->gr_start.n ? g->gr_start.v[k + 1] : g->gr_lits.n;
	int ht = g->gr_head.v[k];
	const gdl_rel *h = &g->rels[gdl_rel_find(g, g->terms.sym[ht], g->terms.nargs[ht])];
	*c = (crule){ h->on_does << 20 | h->scc_b, 0, n->prop_of_term[ht], h->recursive_b, 0, buf->n, NULL };
	for (int i = start; i < end; i++) {
		int t = g->gr_lits.v[i] >> 1, neg = g->gr_lits.v[i] & 1;
		int p = t < g->terms.n ? n->prop_of_term[t] : -1;
		if (p < 0) {
			if (!neg) { /* a positive atom outside the domain: the rule never fires */
				buf->n = c->off;
				c->n = -1;
				return MS_OK;
			}
			continue; /* the negation of an atom that is never true */
		}
		if (h->on_does && !neg && !c->slot && n->does_slot[p]) {
			c->slot = n->does_slot[p]; /* the slot tests it */
			continue;
		}
		if ((rc = gdl_ivec_push(g->ctx, buf, p << 1 | neg)))
			return rc;
		c->n++;
	}
	return MS_OK;
}

/* The trie of rules r[a, b), which share their first d literals. */
static int emit_trie(ms_ctx *ctx, gdl_ivec *code, const crule *r, int a, int b, int d)
{
	int rc, i = a;
	for (; i < b && r[i].n == d; i++)
		if ((rc = gdl_ivec_push(ctx, code, ~r[i].head)))
			return rc;
	while (i < b) {
		int lit = r[i].lits[d], j = i + 1, at = code->n;
		while (j < b && r[j].lits[d] == lit)
			j++;
		if ((rc = gdl_ivec_push(ctx, code, lit)) || (rc = gdl_ivec_push(ctx, code, 0)) ||
		    (rc = emit_trie(ctx, code, r, i, j, d + 1)))
			return rc;
		code->v[at + 1] = code->n - at;
		i = j;
	}
	return MS_OK;
}

/* Segment of rules r[a, b) (one key): its slots' tries. */
static int emit_segment(ms_gdl *g, gdl_net *n, const crule *r, int a, int b)
{
	int rc, rec = 0, phase2 = r[a].key >> 20, nslots = phase2 ? 1 + n->ndoes : 1;
	for (int i = a; i < b; i++)
		rec |= r[i].rec;
	if (phase2 && n->phase2 < 0)
		n->phase2 = n->nseg;
	if ((rc = gdl_ivec_push(g->ctx, &n->seg, n->slot.n / 2)) || (rc = gdl_ivec_push(g->ctx, &n->seg, rec)))
		return rc;
	n->nseg++;
	for (int s = 0, i = a; s < nslots; s++) {
		int j = i;
		while (j < b && r[j].slot == s)
			j++;
		if ((rc = gdl_ivec_push(g->ctx, &n->slot, n->code.n)) ||
		    (rc = emit_trie(g->ctx, &n->code, r, i, j, 0)) ||
		    (rc = gdl_ivec_push(g->ctx, &n->slot, n->code.n)))
			return rc;
		i = j;
	}
	return MS_OK;
}

static int count_heads(ms_gdl *g, gdl_net *n, const crule *r, int nr)
{
	uint8_t *seen = ms_ctx_calloc(g->ctx, (size_t)n->nprops, 1);
	if (!seen)
		return MS_ENOMEM;
	for (int i = 0; i < nr; i++) {
		n->nheads += !seen[r[i].head];
		seen[r[i].head] = 1;
	}
	ms_ctx_mfree(g->ctx, seen);
	return MS_OK;
}

int gdl_net_build(ms_gdl *g)
{
	int rc, nr = g->gr_head.n, m = 0;
	gdl_net *n = ms_ctx_calloc(g->ctx, 1, sizeof *n);
	if (!n)
		return MS_ENOMEM;
	g->net = n;
	n->phase2 = -1;
	if ((rc = number_props(g, n)))
		return rc;
	crule *cr = ms_ctx_malloc(g->ctx, (size_t)(nr + 1) * sizeof *cr);
	gdl_ivec buf = { 0 };
	if (!cr)
		return MS_ENOMEM;
	/* a network finished past the deadline is freed by the caller: stop early */
	for (int k = 0; k < nr && !rc && !gdl_ground_late(g); k++)
		if (!(rc = compile_rule(g, n, k, &buf, &cr[m])) && cr[m].n >= 0)
			m++;
	for (int i = 0; i < m; i++)
		cr[i].lits = buf.v + cr[i].off;
	if (!rc) {
		qsort(cr, (size_t)m, sizeof *cr, cmp_crule);
		rc = count_heads(g, n, cr, m);
	}
	for (int a = 0, b; a < m && !rc && !gdl_ground_late(g); a = b) {
		for (b = a + 1; b < m && cr[b].key == cr[a].key;)
			b++;
		rc = emit_segment(g, n, cr, a, b);
	}
	if (n->phase2 < 0)
		n->phase2 = n->nseg;
	gdl_ivec_free(g->ctx, &buf);
	ms_ctx_mfree(g->ctx, cr);
	return rc;
}

/* Runs one slot's trie; 1 if it set a proposition. */
static int run_slot(const gdl_net *n, int sl, uint8_t *val, int *dirty, int *nd)
{
	const int *code = n->code.v;
	int pc = n->slot.v[2 * sl], end = n->slot.v[2 * sl + 1], changed = 0;
	while (pc < end) {
		int op = code[pc];
		if (op >= 0) {
			pc += val[op >> 1] == (op & 1) ? code[pc + 1] : 2;
			continue;
		}
		if (!val[~op]) {
			val[~op] = 1;
			dirty[(*nd)++] = ~op;
			changed = 1;
		}
		pc++;
	}
	return changed;
}

/* Segment s: slot 0 and the given slots, to a fixpoint if it is recursive. */
static void run_segment(const gdl_net *n, int s, const int *slots, int nslots, uint8_t *val, int *dirty, int *nd)
{
	int first = n->seg.v[2 * s], rec = n->seg.v[2 * s + 1], changed;
	do {
		changed = run_slot(n, first, val, dirty, nd);
		for (int i = 0; i < nslots; i++)
			if (slots[i] > 0)
				changed |= run_slot(n, first + slots[i], val, dirty, nd);
	} while (rec && changed);
}

int gdl_net_state(const gdl_net *n, uint8_t *val, int *dirty)
{
	int nd = 0;
	for (int s = 0; s < n->phase2; s++)
		run_segment(n, s, NULL, 0, val, dirty, &nd);
	return nd;
}

int gdl_net_move(const gdl_net *n, uint8_t *val, const int *slots, int nslots, int *dirty)
{
	int nd = 0;
	for (int s = n->phase2; s < n->nseg; s++)
		run_segment(n, s, slots, nslots, val, dirty, &nd);
	return nd;
}
