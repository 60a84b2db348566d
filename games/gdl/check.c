/* Static checks (keywords, safety, stratification) and the relation graphs:
 * B is the real dependency graph (evaluation strata); A adds true <= init,
 * true <= next and does <= legal, the edges of the domain analysis. */
#include <string.h>

#include "gdl_internal.h"

typedef struct graph {
	gdl_ivec *out; /* per relation: relations it depends on */
	int *index, *low, *stack, *onstack, *comp;
	int n, counter, sp, ncomp;
} graph;

static void tarjan(graph *gr, int v)
{
	gr->index[v] = gr->low[v] = gr->counter++;
	gr->stack[gr->sp++] = v;
	gr->onstack[v] = 1;
	for (int i = 0; i < gr->out[v].n; i++) {
		int w = gr->out[v].v[i];
		if (gr->index[w] < 0) {
			tarjan(gr, w);
			if (gr->low[w] < gr->low[v])
				gr->low[v] = gr->low[w];
		} else if (gr->onstack[w] && gr->index[w] < gr->low[v]) {
			gr->low[v] = gr->index[w];
		}
	}
	if (gr->low[v] != gr->index[v])
		return;
	int w;
	do {
		w = gr->stack[--gr->sp];
		gr->onstack[w] = 0;
		gr->comp[w] = gr->ncomp; /* dependencies are numbered first */
	} while (w != v);
	gr->ncomp++;
}

/* Components of the graph of rules (synthetic ones only in A); comp[] per relation. */
static int components(ms_gdl *g, int with_synthetic, int *comp, int *ncomp)
{
	int n = g->nrels, rc = MS_OK;
	graph gr = { .n = n };
	gr.out = ms_ctx_calloc(g->ctx, (size_t)n, sizeof *gr.out);
	int *buf = ms_ctx_malloc(g->ctx, (size_t)n * 4 * sizeof *buf);
	if (!gr.out || !buf) {
		rc = MS_ENOMEM;
		goto done;
	}
	gr.index = buf;
	gr.low = buf + n;
	gr.stack = buf + 2 * n;
	gr.onstack = buf + 3 * n;
	gr.comp = comp;
	for (int i = 0; i < n; i++) {
		gr.index[i] = -1;
		gr.onstack[i] = 0;
	}
	for (int r = 0; r < g->nrules && !rc; r++) {
		const gdl_rule *ru = &g->rules[r];
		if (ru->synthetic && !with_synthetic)
			continue;
		for (int i = 0; i < ru->nlits && !rc; i++)
			if (g->lits[ru->lit0 + i].kind < LIT_DISTINCT)
				rc = gdl_ivec_push(g->ctx, &gr.out[ru->head_rel], g->lits[ru->lit0 + i].rel);
	}
	for (int v = 0; v < n && !rc; v++)
		if (gr.index[v] < 0)
			tarjan(&gr, v);
	*ncomp = gr.ncomp;
done:
	for (int i = 0; gr.out && i < n; i++)
		gdl_ivec_free(g->ctx, &gr.out[i]);
	ms_ctx_mfree(g->ctx, gr.out);
	ms_ctx_mfree(g->ctx, buf);
	return rc;
}

static const char *var_name(const ms_gdl *g, const gdl_rule *r, uint64_t vars)
{
	return g->syms.name[g->varsyms.v[r->var0 + __builtin_ctzll(vars)]];
}

static int rel_error(ms_gdl *g, int line, int rel, const char *what)
{
	const gdl_rel *R = &g->rels[rel];
	return ms_ctx_error(g->ctx, MS_EINVAL, "%s:%d: %s%s%s (arity %d)", g->name, line, what,
			    what[0] ? " " : "", g->syms.name[R->sym], R->arity < 0 ? 0 : R->arity);
}

/* GDL's restrictions on keywords, and safety (strict mode only). */
static int check_rules(ms_gdl *g)
{
	for (int r = 0; r < g->nrules; r++) {
		const gdl_rule *ru = &g->rules[r];
		if (ru->synthetic)
			continue;
		if (ru->head_rel == g->r_true || ru->head_rel == g->r_does)
			return rel_error(g, ru->line, ru->head_rel, "a rule cannot conclude");
		if (!g->opts.strict)
			continue;
		uint64_t unsafe = ru->head_vars & ~ru->bound;
		for (int i = 0; i < ru->nlits; i++)
			if (g->lits[ru->lit0 + i].kind != LIT_POS)
				unsafe |= g->lits[ru->lit0 + i].vars & ~ru->bound;
		if (unsafe)
			return ms_ctx_error(g->ctx, MS_EINVAL,
					    "%s:%d: unsafe rule: variable %s occurs in no positive literal of the body",
					    g->name, ru->line, var_name(g, ru, unsafe));
	}
	return MS_OK;
}

/* Which relations depend on true, and which on does (fixpoint over the rules). */
static void mark_dynamic(ms_gdl *g)
{
	g->rels[g->r_true].dynamic = 1;
	g->rels[g->r_does].dynamic = 1;
	g->rels[g->r_does].on_does = 1;
	for (int changed = 1; changed;) {
		changed = 0;
		for (int r = 0; r < g->nrules; r++) {
			const gdl_rule *ru = &g->rules[r];
			gdl_rel *h = &g->rels[ru->head_rel];
			if (ru->synthetic)
				continue;
			for (int i = 0; i < ru->nlits; i++) {
				const gdl_lit *l = &g->lits[ru->lit0 + i];
				if (l->kind >= LIT_DISTINCT)
					continue;
				if (g->rels[l->rel].dynamic && !h->dynamic)
					changed = h->dynamic = 1;
				if (g->rels[l->rel].on_does && !h->on_does)
					changed = h->on_does = 1;
			}
		}
	}
}

static int add_synthetic(ms_gdl *g, int head_rel, int body_rel, int nargs)
{
	int rc, start = g->pargs.n, node[2];
	/* rel(?0 ...) <= body(?0 ...): two function nodes over the same variable nodes */
	if (ms_vec_grow(g->ctx, (void **)&g->pn, &g->cappn, g->npn + nargs + 2, sizeof *g->pn) ||
	    ms_vec_grow(g->ctx, (void **)&g->rules, &g->caprules, g->nrules + 1, sizeof *g->rules) ||
	    ms_vec_grow(g->ctx, (void **)&g->lits, &g->caplits, g->nlits + 1, sizeof *g->lits))
		return MS_ENOMEM;
	for (int i = 0; i < nargs; i++) {
		g->pn[g->npn] = (gdl_pnode){ PN_VAR, i, 0, 0 };
		if ((rc = gdl_ivec_push(g->ctx, &g->pargs, g->npn++)))
			return rc;
	}
	for (int k = 0; k < 2; k++) {
		g->pn[g->npn] = (gdl_pnode){ PN_FUNC, g->rels[k ? body_rel : head_rel].sym, nargs, start };
		node[k] = g->npn++;
	}
	uint64_t vm = nargs == 2 ? 3 : 1;
	g->lits[g->nlits] = (gdl_lit){ LIT_POS, node[1], -1, body_rel, vm, 0 };
	g->rules[g->nrules++] = (gdl_rule){ .head = node[0], .head_rel = head_rel, .lit0 = g->nlits++, .nlits = 1,
					    .nvars = nargs, .synthetic = 1, .bound = vm, .head_vars = vm };
	return MS_OK;
}

/* Marks `mark` on every relation reached from an already marked one through a
 * literal of kind at most `kind` (LIT_POS, or LIT_NEG for both polarities). */
static void close_needed(ms_gdl *g, int kind, int mark)
{
	for (int changed = 1; changed;) {
		changed = 0;
		for (int r = 0; r < g->nrules; r++) {
			const gdl_rule *ru = &g->rules[r];
			if (!g->rels[ru->head_rel].needed)
				continue;
			for (int i = 0; i < ru->nlits; i++) {
				const gdl_lit *l = &g->lits[ru->lit0 + i];
				if (l->kind <= kind && !g->rels[l->rel].needed)
					changed = g->rels[l->rel].needed = mark;
			}
		}
	}
}

/* The relations the domain analysis needs: every static one (negation on them is
 * decided exactly) and the dynamic ones reached through positive literals from
 * true, does, goal and terminal (negation on dynamic ones is ignored there).
 * A ground network also needs those read only under negation (breakthrough's
 * whiteCell, checkers' has_legal_move): marked 2, relaxed last (join.c). */
static void mark_needed(ms_gdl *g)
{
	for (int r = 0; r < g->nrels; r++)
		g->rels[r].needed = !g->rels[r].dynamic;
	g->rels[g->r_true].needed = g->rels[g->r_does].needed = 1;
	g->rels[g->r_goal].needed = g->rels[g->r_terminal].needed = 1;
	close_needed(g, LIT_POS, 1);
	if (g->grounding)
		close_needed(g, LIT_NEG, 2);
}

int gdl_check(ms_gdl *g)
{
	int rc, *ca = NULL, *cb = NULL;
	if ((rc = check_rules(g)))
		return rc;
	if ((rc = add_synthetic(g, g->r_true, g->r_init, 1)) || (rc = add_synthetic(g, g->r_true, g->r_next, 1)) ||
	    (rc = add_synthetic(g, g->r_does, g->r_legal, 2)))
		return rc;
	mark_dynamic(g);
	mark_needed(g);
	ca = ms_ctx_malloc(g->ctx, (size_t)g->nrels * sizeof *ca);
	cb = ms_ctx_malloc(g->ctx, (size_t)g->nrels * sizeof *cb);
	if (!ca || !cb) {
		rc = MS_ENOMEM;
		goto done;
	}
	if ((rc = components(g, 1, ca, &g->ncomp_a)) || (rc = components(g, 0, cb, &g->ncomp_b)))
		goto done;
	for (int i = 0; i < g->nrels; i++) {
		g->rels[i].scc_a = ca[i];
		g->rels[i].scc_b = cb[i];
	}
	for (int r = 0; r < g->nrules && !rc; r++) {
		const gdl_rule *ru = &g->rules[r];
		if (ru->synthetic)
			continue;
		for (int i = 0; i < ru->nlits && !rc; i++) {
			const gdl_lit *l = &g->lits[ru->lit0 + i];
			if (l->kind >= LIT_DISTINCT || cb[l->rel] != cb[ru->head_rel])
				continue;
			if (l->kind == LIT_NEG)
				rc = rel_error(g, ru->line, l->rel, "not stratified: recursion through the negation of");
			else
				g->rels[ru->head_rel].recursive_b = 1;
		}
	}
	static const char *const no_does[] = { "legal", "goal", "terminal", "init" };
	int rels[] = { g->r_legal, g->r_goal, g->r_terminal, g->r_init };
	for (int i = 0; i < 4 && !rc; i++)
		if (g->rels[rels[i]].on_does)
			rc = ms_ctx_error(g->ctx, MS_EINVAL, "%s:%d: '%s' depends on 'does'", g->name,
					  g->rels[rels[i]].first_line, no_does[i]);
	if (!rc && g->rels[g->r_init].dynamic)
		rc = ms_ctx_error(g->ctx, MS_EINVAL, "%s:%d: 'init' depends on 'true'", g->name,
				  g->rels[g->r_init].first_line);
done:
	ms_ctx_mfree(g->ctx, ca);
	ms_ctx_mfree(g->ctx, cb);
	return rc;
}
