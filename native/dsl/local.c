/*
 * Local edits (ms_dsl_mutate_local): a small neighbourhood beside subtree
 * regeneration. Regrowing a node and everything below it moves a good
 * program far away, and in a loosely typed grammar most regrown subtrees
 * fail at run time; the edits here change one thing and keep the rest:
 *
 *   relabel   a node's production becomes another alternative of its slot
 *             with the same child slots (a leaf for a leaf, + for -);
 *   terminal  a terminal-like subtree (a leaf, or a production over one
 *             leaf, such as a constant or variable wrapper) becomes another;
 *   wrap      x becomes op(..., x, ...): op an alternative of x's slot with
 *             a slot x fits, its other slots terminal-like;
 *   unwrap    a node gives its place to a descendant that fits its slot;
 *   swap      two children of a node change places, each fitting the other's slot.
 *
 * Only the grammar decides what applies. Draws: the kind uniformly among
 * those that apply somewhere, a node uniformly among those it applies to,
 * then the variant uniformly, so the result is a function of the
 * generator's state.
 */
#include <string.h>

#include "dsl_internal.h"

/* Terminal-like subtrees of nt: its leaves, and its unary productions over a leaf. */
static int term_count(const ms_dsl_grammar *g, int nt)
{
	const dsl_nt *d = &g->nts[nt];
	int n = 0;
	for (int a = 0; a < d->n_alts; a++) {
		const dsl_prod *q = &g->prods[d->alts[a]];
		n += q->arity == 0 ? 1 : q->arity == 1 ? g->nts[q->child[0]].n_leaves : 0;
	}
	return n;
}

/* The k-th terminal-like subtree of nt into seq; returns its length (1 or 2). */
static int term_at(const ms_dsl_grammar *g, int nt, int k, ms_dsl_sym *seq)
{
	const dsl_nt *d = &g->nts[nt];
	for (int a = 0; a < d->n_alts; a++) {
		const dsl_prod *q = &g->prods[d->alts[a]];
		int m = q->arity == 0 ? 1 : q->arity == 1 ? g->nts[q->child[0]].n_leaves : 0;
		if (k >= m) {
			k -= m;
			continue;
		}
		seq[0] = d->alts[a];
		if (q->arity == 0)
			return 1;
		seq[1] = g->nts[q->child[0]].leaves[k];
		return 2;
	}
	return 0;
}

/* Index of the subtree at node i among nt's terminal-like subtrees, or -1. */
static int term_index(const ms_dsl_prog *p, int i, int nt)
{
	ms_dsl_sym seq[2];
	int len = p->end[i] - i, n = term_count(p->g, nt);
	if (len > 2)
		return -1;
	for (int k = 0; k < n; k++)
		if (term_at(p->g, nt, k, seq) == len && memcmp(seq, p->node + i, sizeof *seq * (size_t)len) == 0)
			return k;
	return -1;
}

static int same_slots(const dsl_prod *a, const dsl_prod *b)
{
	return a->arity == b->arity && memcmp(a->child, b->child, sizeof *a->child * (size_t)a->arity) == 0;
}

/* Wrap variant (q, k) exists: slot k of q takes sym, every other slot has a terminal-like subtree. */
static int wrap_ok(const ms_dsl_grammar *g, const dsl_prod *q, int k, ms_dsl_sym sym)
{
	if (!dsl_fits(g, q->child[k], sym))
		return 0;
	for (int m = 0; m < q->arity; m++)
		if (m != k && term_count(g, q->child[m]) == 0)
			return 0;
	return 1;
}

static int same_subtree(const ms_dsl_prog *p, int a, int b)
{
	int la = p->end[a] - a;
	return la == p->end[b] - b && memcmp(p->node + a, p->node + b, sizeof *p->node * (size_t)la) == 0;
}

/*
 * Variants of edit `kind` at node i; when `pick` >= 0, the pick-th variant
 * goes to out[0..1] (relabel: production; terminal: subtree index; wrap:
 * production and slot; unwrap: node; swap: the two slots).
 */
static int variants(const ms_dsl_prog *p, int i, int kind, int pick, int *out)
{
	const ms_dsl_grammar *g = p->g;
	ms_dsl_sym sym = p->node[i];
	if (ms_dsl_is_hole(sym))
		return 0;
	const dsl_prod *prod = &g->prods[sym];
	int nt = ms_dsl_node_nt(p, i), n = 0;
	const dsl_nt *d = &g->nts[nt];
	switch (kind) {
	case MS_DSL_EDIT_RELABEL:
		for (int a = 0; a < d->n_alts; a++)
			if (d->alts[a] != sym && same_slots(&g->prods[d->alts[a]], prod) && n++ == pick)
				out[0] = d->alts[a];
		return n;
	case MS_DSL_EDIT_TERMINAL: {
		int at = term_index(p, i, nt);
		if (at < 0)
			return 0;
		if (pick >= 0)
			out[0] = pick < at ? pick : pick + 1;
		return term_count(g, nt) - 1;
	}
	case MS_DSL_EDIT_WRAP:
		for (int a = 0; a < d->n_alts; a++) {
			const dsl_prod *q = &g->prods[d->alts[a]];
			for (int k = 0; k < q->arity; k++)
				if (wrap_ok(g, q, k, sym) && n++ == pick)
					out[0] = d->alts[a], out[1] = k;
		}
		return n;
	case MS_DSL_EDIT_UNWRAP:
		for (int j = i + 1; j < p->end[i]; j++)
			if (dsl_fits(g, nt, p->node[j]) && n++ == pick)
				out[0] = j;
		return n;
	case MS_DSL_EDIT_SWAP:
		for (int a = 0; a < prod->arity; a++)
			for (int b = a + 1; b < prod->arity; b++) {
				int ca = ms_dsl_child(p, i, a), cb = ms_dsl_child(p, i, b);
				if (dsl_fits(g, prod->child[b], p->node[ca]) && dsl_fits(g, prod->child[a], p->node[cb]) &&
				    !same_subtree(p, ca, cb) && n++ == pick)
					out[0] = a, out[1] = b;
			}
		return n;
	default:
		return 0;
	}
}

static int draw(ms_dsl_prog *p, ms_jrandom *rng, int bound, int *out)
{
	int32_t v;
	int rc = ms_jrandom_next_int_bounded(rng, bound, &v);
	if (rc < 0)
		return ms_ctx_error(p->ctx, rc, "program local mutation: bad bound %d", bound);
	*out = v;
	return 0;
}

/* Copies the subtree at node j of p to seq; returns its length. */
static int put_subtree(const ms_dsl_prog *p, int j, ms_dsl_sym *seq)
{
	int len = p->end[j] - j;
	memcpy(seq, p->node + j, sizeof *seq * (size_t)len);
	return len;
}

/* Applies variant v[] of `kind` at node i (wrap draws its other operands). */
static int apply(ms_dsl_prog *p, ms_jrandom *rng, int i, int kind, const int *v)
{
	const ms_dsl_grammar *g = p->g;
	if (kind == MS_DSL_EDIT_RELABEL) {
		p->node[i] = (ms_dsl_sym)v[0]; /* the same child slots: the tree's shape stands */
		return 0;
	}
	if (kind == MS_DSL_EDIT_UNWRAP)
		return dsl_prog_splice(p, i, p->node + v[0], p->end[v[0]] - v[0]);
	int len = p->end[i] - i, n = 0, rc = 0, k;
	ms_dsl_sym *seq = ms_ctx_malloc(p->ctx, sizeof *seq * (size_t)(len + 2 * MS_DSL_MAX_CHILDREN + 2));
	if (!seq)
		return ms_ctx_error(p->ctx, MS_ENOMEM, "program local mutation: out of memory");
	if (kind == MS_DSL_EDIT_TERMINAL) {
		n = term_at(g, ms_dsl_node_nt(p, i), v[0], seq);
	} else if (kind == MS_DSL_EDIT_WRAP) {
		const dsl_prod *q = &g->prods[v[0]];
		seq[n++] = (ms_dsl_sym)v[0];
		for (int m = 0; rc == 0 && m < q->arity; m++) {
			if (m == v[1])
				n += put_subtree(p, i, seq + n);
			else if ((rc = draw(p, rng, term_count(g, q->child[m]), &k)) == 0)
				n += term_at(g, q->child[m], k, seq + n);
		}
	} else { /* swap */
		seq[n++] = p->node[i];
		for (int m = 0; m < g->prods[p->node[i]].arity; m++)
			n += put_subtree(p, ms_dsl_child(p, i, m == v[0] ? v[1] : m == v[1] ? v[0] : m), seq + n);
	}
	if (rc == 0)
		rc = dsl_prog_splice(p, i, seq, n);
	ms_ctx_mfree(p->ctx, seq);
	return rc;
}

int ms_dsl_mutate_local(ms_dsl_prog *p, ms_jrandom *rng, int *at, int *edit)
{
	if (p->nt < 0 || p->n == 0)
		return ms_ctx_error(p->ctx, MS_EINVAL, "program local mutation: program not finished");
	int nodes[MS_DSL_EDIT_COUNT] = { 0 }, kinds = 0, r, rc, v[2] = { 0, 0 };
	for (int kind = 0; kind < MS_DSL_EDIT_COUNT; kind++) {
		for (int i = 0; i < p->n; i++)
			nodes[kind] += variants(p, i, kind, -1, NULL) > 0;
		kinds += nodes[kind] > 0;
	}
	if (kinds == 0)
		return ms_ctx_error(p->ctx, MS_ENOTFOUND, "program local mutation: no edit applies to this program");
	if ((rc = draw(p, rng, kinds, &r)) < 0)
		return rc;
	int kind = 0;
	while (nodes[kind] == 0 || r-- > 0)
		kind++;
	if ((rc = draw(p, rng, nodes[kind], &r)) < 0)
		return rc;
	int i = 0;
	while (variants(p, i, kind, -1, NULL) == 0 || r-- > 0)
		i++;
	if ((rc = draw(p, rng, variants(p, i, kind, -1, NULL), &r)) < 0)
		return rc;
	variants(p, i, kind, r, v);
	if (at)
		*at = i;
	if (edit)
		*edit = kind;
	return apply(p, rng, i, kind, v);
}
