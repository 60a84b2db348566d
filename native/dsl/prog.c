/*
 * Programs: pre-order symbol arrays plus subtree ends. Edits splice the
 * arrays and re-index; a search's programs are small (tens to hundreds of
 * nodes), so linear work per edit is cheaper than pointer trees.
 */
#include <string.h>

#include "dsl_internal.h"
#include "core/hash.h"
#include "core/vec.h"

int dsl_prog_reserve(ms_dsl_prog *p, int need)
{
	if (need <= p->cap)
		return 0;
	if (need > (1 << 24))
		return ms_ctx_error(p->ctx, MS_ERANGE, "program: more than %d nodes", 1 << 24);
	const ms_vec_col cols[] = {MS_VEC_COL(p->node), MS_VEC_COL(p->end)};
	if (ms_vec_grow_cols(p->ctx, &p->cap, need, cols, 2) < 0)
		return ms_ctx_error(p->ctx, MS_ENOMEM, "program: out of memory");
	return 0;
}

/* Right to left, so each child's end is known: child 0 of i is i + 1, child k + 1 starts at child k's end. */
void dsl_prog_index(ms_dsl_prog *p)
{
	for (int i = p->n - 1; i >= 0; i--) {
		int a = dsl_arity(p->g, p->node[i]);
		int e = i + 1;
		for (int k = 0; k < a; k++)
			e = p->end[e];
		p->end[i] = e;
	}
}

int ms_dsl_prog_new(ms_ctx *ctx, ms_dsl_prog **out, const ms_dsl_grammar *g)
{
	*out = NULL;
	ms_dsl_prog *p = ms_ctx_calloc(ctx, 1, sizeof *p);
	if (!p)
		return ms_ctx_error(ctx, MS_ENOMEM, "program: out of memory");
	p->ctx = ctx;
	p->g = g;
	p->nt = -1;
	*out = p;
	return 0;
}

void ms_dsl_prog_free(ms_dsl_prog *p)
{
	if (!p)
		return;
	ms_ctx_mfree(p->ctx, p->node);
	ms_ctx_mfree(p->ctx, p->end);
	ms_ctx_mfree(p->ctx, p);
}

int ms_dsl_prog_copy(ms_dsl_prog *dst, const ms_dsl_prog *src)
{
	if (dst == src)
		return 0;
	if (dst->g != src->g)
		return ms_ctx_error(dst->ctx, MS_EINVAL, "program copy: different grammars");
	int rc = dsl_prog_reserve(dst, src->n);
	if (rc < 0)
		return rc;
	if (src->n) {
		memcpy(dst->node, src->node, sizeof *src->node * (size_t)src->n);
		memcpy(dst->end, src->end, sizeof *src->end * (size_t)src->n);
	}
	dst->n = src->n;
	dst->nt = src->nt;
	return 0;
}

int ms_dsl_prog_clone(ms_dsl_prog **out, const ms_dsl_prog *p)
{
	int rc = ms_dsl_prog_new(p->ctx, out, p->g);
	if (rc < 0)
		return rc;
	if ((rc = ms_dsl_prog_copy(*out, p)) < 0) {
		ms_dsl_prog_free(*out);
		*out = NULL;
	}
	return rc;
}

const ms_dsl_grammar *ms_dsl_prog_grammar(const ms_dsl_prog *p) { return p->g; }
ms_ctx *ms_dsl_prog_ctx(const ms_dsl_prog *p) { return p->ctx; }

void ms_dsl_prog_clear(ms_dsl_prog *p)
{
	p->n = 0;
	p->nt = -1;
}

int ms_dsl_prog_push(ms_dsl_prog *p, ms_dsl_sym sym)
{
	int rc = dsl_prog_reserve(p, p->n + 1);
	if (rc < 0)
		return rc;
	p->nt = -1;
	p->node[p->n++] = sym;
	return 0;
}

static const char *sym_name(const ms_dsl_grammar *g, ms_dsl_sym s)
{
	if (ms_dsl_is_hole(s))
		return ms_dsl_hole_nt(s) < g->n_nts ? g->nts[ms_dsl_hole_nt(s)].name : "?";
	return s < g->n_prods ? g->prods[s].name : "?";
}

/* Is `sym` allowed where a program of `nt` is expected? */
int ms_dsl_prog_finish(ms_dsl_prog *p, int nt)
{
	const ms_dsl_grammar *g = p->g;
	p->nt = -1;
	if (nt < 0 || nt >= g->n_nts)
		return ms_ctx_error(p->ctx, MS_EINVAL, "program: no non-terminal %d", nt);
	if (p->n == 0)
		return ms_ctx_error(p->ctx, MS_EPARSE, "program: empty (a %s was expected)", g->nts[nt].name);
	/* Stack of (node, next slot) pairs; depth is bounded by the length. */
	int32_t *stack = ms_ctx_malloc(p->ctx, sizeof *stack * 2 * (size_t)p->n);
	if (!stack)
		return ms_ctx_error(p->ctx, MS_ENOMEM, "program: out of memory");
	int top = 0, rc = 0, i;
	for (i = 0; i < p->n; i++) {
		ms_dsl_sym s = p->node[i];
		int want = nt, parent = -1, slot = 0;
		if (top > 0) {
			parent = stack[2 * (top - 1)];
			slot = stack[2 * (top - 1) + 1];
			want = g->prods[p->node[parent]].child[slot];
		} else if (i > 0) {
			rc = ms_ctx_error(p->ctx, MS_EPARSE, "program: node %d (%s) follows a complete %s", i,
					  sym_name(g, s), g->nts[nt].name);
			goto done;
		}
		if (!dsl_fits(g, want, s)) {
			if (parent < 0)
				rc = ms_ctx_error(p->ctx, MS_EPARSE, "program: node 0 (%s) is not a %s", sym_name(g, s),
						  g->nts[want].name);
			else
				rc = ms_ctx_error(p->ctx, MS_EPARSE,
						  "program: node %d (%s) cannot be child %d of %s (a %s was expected)", i,
						  sym_name(g, s), slot, g->prods[p->node[parent]].name, g->nts[want].name);
			goto done;
		}
		if (top > 0)
			stack[2 * (top - 1) + 1]++;
		/* pop parents whose slots are all filled once this leaf completes */
		if (dsl_arity(g, s) > 0) {
			stack[2 * top] = i;
			stack[2 * top + 1] = 0;
			top++;
		}
		while (top > 0 && stack[2 * (top - 1) + 1] == g->prods[p->node[stack[2 * (top - 1)]]].arity)
			top--;
	}
	if (top > 0) {
		int parent = stack[2 * (top - 1)];
		rc = ms_ctx_error(p->ctx, MS_EPARSE, "program: ends inside %s (child %d of %d missing)",
				  g->prods[p->node[parent]].name, stack[2 * (top - 1) + 1],
				  g->prods[p->node[parent]].arity);
		goto done;
	}
	dsl_prog_index(p);
	p->nt = nt;
done:
	ms_ctx_mfree(p->ctx, stack);
	return rc;
}

int ms_dsl_prog_len(const ms_dsl_prog *p) { return p->n; }
const ms_dsl_sym *ms_dsl_prog_nodes(const ms_dsl_prog *p) { return p->node; }
const int32_t *ms_dsl_prog_ends(const ms_dsl_prog *p) { return p->end; }
int ms_dsl_prog_nt(const ms_dsl_prog *p) { return p->nt; }

int ms_dsl_child(const ms_dsl_prog *p, int i, int k)
{
	int c = i + 1;
	while (k-- > 0)
		c = p->end[c];
	return c;
}

int ms_dsl_parent(const ms_dsl_prog *p, int i, int *slot)
{
	int j = i - 1;
	/* the parent is the nearest earlier node whose subtree still covers i */
	while (j >= 0 && p->end[j] <= i)
		j--;
	if (slot) {
		*slot = -1;
		if (j >= 0) {
			int c = j + 1, k = 0;
			while (c != i)
				c = p->end[c], k++;
			*slot = k;
		}
	}
	return j;
}

int ms_dsl_node_nt(const ms_dsl_prog *p, int i)
{
	int slot;
	int j = ms_dsl_parent(p, i, &slot);
	return j < 0 ? p->nt : p->g->prods[p->node[j]].child[slot];
}

int ms_dsl_size(const ms_dsl_prog *p)
{
	int s = 0;
	for (int i = 0; i < p->n; i++)
		s += ms_dsl_is_hole(p->node[i]) ? 1 : p->g->prods[p->node[i]].size;
	return s;
}

int ms_dsl_depth(const ms_dsl_prog *p)
{
	/* open ancestors' ends on a stack: a node's depth is the stack height + 1 */
	int32_t small[64];
	int32_t *stack = p->n <= 64 ? small : ms_ctx_malloc(p->ctx, sizeof *stack * (size_t)p->n);
	if (!stack)
		return ms_ctx_error(p->ctx, MS_ENOMEM, "program depth: out of memory");
	int top = 0, best = 0;
	for (int i = 0; i < p->n; i++) {
		while (top > 0 && stack[top - 1] <= i)
			top--;
		if (top + 1 > best)
			best = top + 1;
		stack[top++] = p->end[i];
	}
	if (stack != small)
		ms_ctx_mfree(p->ctx, stack);
	return best;
}

int ms_dsl_hole_count(const ms_dsl_prog *p)
{
	int c = 0;
	for (int i = 0; i < p->n; i++)
		c += ms_dsl_is_hole(p->node[i]);
	return c;
}

int ms_dsl_first_hole(const ms_dsl_prog *p)
{
	for (int i = 0; i < p->n; i++)
		if (ms_dsl_is_hole(p->node[i]))
			return i;
	return -1;
}

uint64_t ms_dsl_hash(const ms_dsl_prog *p)
{
	uint64_t h = p->g->hash_seed ^ (uint64_t)(uint32_t)p->nt;
	for (int i = 0; i < p->n; i++) {
		h = ms_fnv1a_step(h, p->node[i] & 0xff);
		h = ms_fnv1a_step(h, p->node[i] >> 8);
	}
	return h;
}

int ms_dsl_equal(const ms_dsl_prog *a, const ms_dsl_prog *b)
{
	return a->g == b->g && a->nt == b->nt && a->n == b->n &&
	       (a->n == 0 || memcmp(a->node, b->node, sizeof *a->node * (size_t)a->n) == 0);
}

int ms_dsl_replace(ms_dsl_prog *p, int i, const ms_dsl_prog *src, int j)
{
	if (p->nt < 0 || src->nt < 0)
		return ms_ctx_error(p->ctx, MS_EINVAL, "program replace: program not finished");
	if (p->g != src->g)
		return ms_ctx_error(p->ctx, MS_EINVAL, "program replace: different grammars");
	if (i < 0 || i >= p->n || j < 0 || j >= src->n)
		return ms_ctx_error(p->ctx, MS_ERANGE, "program replace: node %d or %d out of range", i, j);
	int nt = ms_dsl_node_nt(p, i);
	if (!dsl_fits(p->g, nt, src->node[j]))
		return ms_ctx_error(p->ctx, MS_EINVAL, "program replace: %s cannot stand where a %s is expected",
				    sym_name(p->g, src->node[j]), p->g->nts[nt].name);
	return dsl_prog_splice(p, i, src->node + j, src->end[j] - j);
}

int dsl_prog_splice(ms_dsl_prog *p, int i, const ms_dsl_sym *seq, int new_len)
{
	int old_len = p->end[i] - i;
	int n = p->n - old_len + new_len;
	ms_dsl_sym *tmp = NULL;
	const ms_dsl_sym *from = seq;
	/* The sequence may lie inside p's own arrays, which the move below shifts. */
	if ((uintptr_t)seq >= (uintptr_t)p->node && (uintptr_t)seq < (uintptr_t)(p->node + p->cap)) {
		tmp = ms_ctx_malloc(p->ctx, sizeof *tmp * (size_t)new_len);
		if (!tmp)
			return ms_ctx_error(p->ctx, MS_ENOMEM, "program replace: out of memory");
		memcpy(tmp, from, sizeof *tmp * (size_t)new_len);
		from = tmp;
	}
	int rc = dsl_prog_reserve(p, n);
	if (rc == 0) {
		memmove(p->node + i + new_len, p->node + i + old_len, sizeof *p->node * (size_t)(p->n - i - old_len));
		memcpy(p->node + i, from, sizeof *from * (size_t)new_len);
		p->n = n;
		dsl_prog_index(p);
	}
	ms_ctx_mfree(p->ctx, tmp);
	return rc;
}

int ms_dsl_expand(ms_dsl_prog *p, int i, int prod)
{
	if (p->nt < 0)
		return ms_ctx_error(p->ctx, MS_EINVAL, "program expand: program not finished");
	if (i < 0 || i >= p->n || !ms_dsl_is_hole(p->node[i]))
		return ms_ctx_error(p->ctx, MS_EINVAL, "program expand: node %d is not a hole", i);
	int nt = ms_dsl_hole_nt(p->node[i]);
	if (prod < 0 || prod >= p->g->n_prods || !p->g->nts[nt].member[prod])
		return ms_ctx_error(p->ctx, MS_EINVAL, "program expand: production %d is not a %s", prod,
				    p->g->nts[nt].name);
	const dsl_prod *d = &p->g->prods[prod];
	int rc = dsl_prog_reserve(p, p->n + d->arity);
	if (rc < 0)
		return rc;
	memmove(p->node + i + 1 + d->arity, p->node + i + 1, sizeof *p->node * (size_t)(p->n - i - 1));
	p->node[i] = (ms_dsl_sym)prod;
	for (int k = 0; k < d->arity; k++)
		p->node[i + 1 + k] = ms_dsl_hole(d->child[k]);
	p->n += d->arity;
	dsl_prog_index(p);
	return 0;
}
