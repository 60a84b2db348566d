/* Bottom-up evaluation of rules: matching, a join that picks the most bound
 * literal first, semi-naive components, and the relaxation that finds every
 * relation's domain (and, while grounding, records each ground rule). */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "gdl_internal.h"

int gdl_match(const ms_gdl *g, int node, int term, int *bind, int *trail, int *ntrail)
{
	const gdl_pnode *p = &g->pn[node];
	const gdl_terms *t = &g->terms;
	switch (p->kind) {
	case PN_CONST:
		return t->nargs[term] < 0 && t->sym[term] == p->sym;
	case PN_VAR:
		if (bind[p->sym] >= 0)
			return bind[p->sym] == term;
		bind[p->sym] = term;
		trail[(*ntrail)++] = p->sym;
		return 1;
	default:
		if (t->nargs[term] != p->nargs || t->sym[term] != p->sym)
			return 0;
		for (int i = 0; i < p->nargs; i++)
			if (!gdl_match(g, g->pargs.v[p->args + i], t->pool.v[t->args[term] + i], bind, trail, ntrail))
				return 0;
		return 1;
	}
}

int gdl_instance(ms_gdl *g, int node, const int *bind, int intern, int *out)
{
	const gdl_pnode *p = &g->pn[node];
	int rc;
	*out = -1;
	if (p->kind == PN_VAR) {
		*out = bind[p->sym];
		return MS_OK;
	}
	if (p->kind == PN_CONST) {
		if (intern)
			return gdl_term_intern(g->ctx, &g->terms, p->sym, -1, NULL, out);
		*out = gdl_term_find(&g->terms, p->sym, -1, NULL);
		return MS_OK;
	}
	int small[16], *args = small;
	if (p->nargs > 16 && !(args = ms_ctx_malloc(g->ctx, (size_t)p->nargs * sizeof *args)))
		return MS_ENOMEM;
	rc = MS_OK;
	for (int i = 0; i < p->nargs && !rc; i++) {
		rc = gdl_instance(g, g->pargs.v[p->args + i], bind, intern, &args[i]);
		if (!rc && args[i] < 0)
			goto done;
	}
	if (!rc && intern)
		rc = gdl_term_intern(g->ctx, &g->terms, p->sym, p->nargs, args, out);
	else if (!rc)
		*out = gdl_term_find(&g->terms, p->sym, p->nargs, args);
done:
	if (args != small)
		ms_ctx_mfree(g->ctx, args);
	return rc;
}

/* Pattern `node` under `bind` equals ground term `t`. */
static int eq_pt(const ms_gdl *g, int node, const int *bind, int t)
{
	const gdl_pnode *p = &g->pn[node];
	const gdl_terms *tm = &g->terms;
	if (p->kind == PN_VAR)
		return bind[p->sym] == t;
	if (tm->sym[t] != p->sym || tm->nargs[t] != (p->kind == PN_CONST ? -1 : p->nargs))
		return 0;
	for (int i = 0; p->kind == PN_FUNC && i < p->nargs; i++)
		if (!eq_pt(g, g->pargs.v[p->args + i], bind, tm->pool.v[tm->args[t] + i]))
			return 0;
	return 1;
}

/* Two ground patterns under `bind` are the same term. */
static int same(const ms_gdl *g, int a, int b, const int *bind)
{
	const gdl_pnode *p = &g->pn[a], *q = &g->pn[b];
	if (p->kind == PN_VAR)
		return eq_pt(g, b, bind, bind[p->sym]);
	if (q->kind == PN_VAR)
		return eq_pt(g, a, bind, bind[q->sym]);
	if (p->kind != q->kind || p->sym != q->sym || p->nargs != q->nargs)
		return 0;
	for (int i = 0; p->kind == PN_FUNC && i < p->nargs; i++)
		if (!same(g, g->pargs.v[p->args + i], g->pargs.v[q->args + i], bind))
			return 0;
	return 1;
}

typedef struct join {
	ms_gdl *g;
	gdl_store *dyn; /* dynamic relations' store (the game's own while relaxing) */
	const gdl_rule *r;
	const gdl_lit *lits;
	int relaxed;
	int lo[64], hi[64];
	int bind[64];
	int added;
	long steps; /* join steps of one first-order evaluation, against opts.relax_bound */
} join;

static gdl_store *store_of(const join *J, int rel)
{
	return J->g->rels[rel].dynamic ? J->dyn : &J->g->st;
}

static int in_store(const gdl_store *st, int t)
{
	return t >= 0 && t < st->tcap && st->in[t];
}

/* Non-positive literals that just became ground: 0 if one fails. */
static int check_ready(join *J, uint64_t bound, uint64_t *checked)
{
	ms_gdl *g = J->g;
	for (int i = 0; i < J->r->nlits; i++) {
		const gdl_lit *l = &J->lits[i];
		if (l->kind == LIT_POS || (*checked >> i & 1) || (l->vars & ~bound))
			continue;
		*checked |= 1ull << i;
		if (l->kind >= LIT_DISTINCT) {
			if (same(g, l->atom, l->atom2, J->bind) == (l->kind == LIT_DISTINCT))
				return 0;
			continue;
		}
		if (J->relaxed && g->rels[l->rel].dynamic)
			continue; /* unknown until a state is given: kept in the ground rule */
		int t;
		gdl_instance(g, l->atom, J->bind, 0, &t);
		if (in_store(store_of(J, l->rel), t))
			return 0;
	}
	return 1;
}

static int record_ground(join *J, int head)
{
	ms_gdl *g = J->g;
	int rc, start = g->gr_lits.n;
	for (int i = 0; i < J->r->nlits; i++) {
		const gdl_lit *l = &J->lits[i];
		if (l->kind >= LIT_DISTINCT || !g->rels[l->rel].dynamic)
			continue;
		if (l->kind == LIT_NEG && (l->vars & ~J->r->bound))
			continue; /* unsafe negation: the prover's answers ignore it (test_case_3f) */
		int t;
		if ((rc = gdl_instance(g, l->atom, J->bind, 1, &t)) ||
		    (rc = gdl_ivec_push(g->ctx, &g->gr_lits, t << 1 | (l->kind == LIT_NEG))))
			return rc;
	}
	if ((rc = gdl_ivec_push(g->ctx, &g->gr_head, head)) || (rc = gdl_ivec_push(g->ctx, &g->gr_start, start)))
		return rc;
	g->ground_lits += g->gr_lits.n - start + 1;
	if (g->ground_lits > g->opts.ground_bound)
		gdl_ground_stop(g, MS_GDL_REP_SIZE);
	return MS_OK;
}

/* The analysis of rules with an unbounded domain would not end: count its steps
 * and its terms (about 40 bytes each; at most opts.max_terms). */
enum { GDL_ABANDON = 1 };

/*
 * What made the terms run out, for the refusal: the relation the rule being
 * evaluated derives, its facts so far, and the most its rule can derive
 * from the facts of its positive literals (their product: a large finite
 * relation such as hex's adjacency stays below it, one that recurses on
 * function terms grows with each round).
 */
static void blame_relation(const join *J, char *out, size_t size)
{
	const ms_gdl *g = J->g;
	const gdl_rule *r = J->r;
	int head = r->head_rel;
	double bound = 1;

	for (int k = 0; k < r->nlits; k++) {
		const gdl_lit *l = &J->lits[k];
		if (l->kind != LIT_POS || l->rel < 0)
			continue;
		const gdl_store *st = store_of(J, l->rel);
		bound *= l->rel < st->nrels ? (double)st->atoms[l->rel].n : 0;
	}
	const gdl_store *hs = store_of(J, head);
	snprintf(out, size, "; relation %s/%d holds %d facts, its rule derives at most %.3g from its literals' facts",
		 g->syms.name[g->rels[head].sym], g->rels[head].arity, head < hs->nrels ? hs->atoms[head].n : 0,
		 bound);
}

static int relax_step(join *J)
{
	ms_gdl *g = J->g;
	if (!J->relaxed) {
		/* the fallback can recurse on function terms too: with a state, rules the
		 * analysis abandoned (or let through under its bound) may never end */
		if (++J->steps <= g->opts.relax_bound && g->terms.n <= g->opts.max_terms)
			return MS_OK;
		return ms_ctx_error(g->ctx, MS_ERANGE,
				    "%s:%d: evaluating a state exceeded %ld join steps or %ld terms (a relation "
				    "whose domain is unbounded, through recursion on function terms?)",
				    g->name, J->r->line, g->opts.relax_bound, g->opts.max_terms);
	}
	if (gdl_ground_late(g))
		gdl_ground_stop(g, MS_GDL_REP_TIME);
	if (g->overflow && g->rels[J->r->head_rel].needed == 2)
		return GDL_ABANDON; /* only a network reads it, and there will be none */
	if (g->budgeted && (g->relax_work > g->opts.goal_directed_steps ||
			    g->terms.n - g->relax_terms0 > g->opts.goal_directed_steps / 5))
		return GDL_RETRY;
	if (g->terms.n > g->opts.max_terms) {
		char why[300];
		blame_relation(J, why, sizeof why);
		return ms_ctx_error(g->ctx, MS_ERANGE,
				    "%s:%d: the domain analysis made more than %ld terms%s (a large finite relation, or "
				    "one whose domain is unbounded through recursion on function terms)",
				    g->name, J->r->line, g->opts.max_terms, why);
	}
	if (++g->relax_steps <= g->opts.relax_bound)
		return MS_OK;
	return ms_ctx_error(g->ctx, MS_ERANGE,
			    "%s:%d: the domain analysis exceeded %ld steps (a relation whose domain is unbounded, "
			    "through recursion on function terms, or too large)",
			    g->name, J->r->line, g->opts.relax_bound);
}

/* All positive literals matched: bind unsafe head variables to every constant, emit. */
static int emit(join *J, uint64_t unbound)
{
	ms_gdl *g = J->g;
	int rc = MS_OK;
	if (unbound) {
		int v = __builtin_ctzll(unbound);
		for (int i = 0; i < g->consts.n; i++) {
			J->bind[v] = g->consts.v[i];
			if ((rc = emit(J, unbound & (unbound - 1))))
				break;
		}
		J->bind[v] = -1;
		return rc;
	}
	int head, added;
	if ((rc = relax_step(J)) || (rc = gdl_instance(g, J->r->head, J->bind, 1, &head)))
		return rc;
	if (head < 0)
		return ms_ctx_error(g->ctx, MS_ERROR, "%s:%d: derived an atom outside the analysed domain",
				    g->name, J->r->line);
	if ((rc = gdl_store_add(g->ctx, store_of(J, J->r->head_rel), &g->terms, J->r->head_rel, head, &added)))
		return rc;
	J->added += added;
	if (J->relaxed && g->grounding && !J->r->synthetic && g->rels[J->r->head_rel].dynamic)
		return record_ground(J, head);
	return MS_OK;
}

/* The slice of list v[0..n) whose rounds lie in [lo, hi]: atoms are appended in
 * round order, so it is found by two binary searches. Returns its length. */
static int window(const gdl_store *st, const int *v, int n, int lo, int hi, int *k0)
{
	int a = 0, b = n;
	while (a < b) {
		int mid = a + (b - a) / 2;
		if (st->gen[v[mid]] < lo)
			a = mid + 1;
		else
			b = mid;
	}
	int c = a, d = n;
	while (c < d) {
		int mid = c + (d - c) / 2;
		if (st->gen[v[mid]] <= hi)
			c = mid + 1;
		else
			d = mid;
	}
	*k0 = a;
	return c - a;
}

typedef struct cand {
	int entry; /* index entry (>= 0), all atoms of the relation (-1), the one atom t (-2 - t) */
	int k0, n; /* slice */
} cand;

/* If pattern `node` (a constant or a bound variable) is at position pos, fewer candidates? */
static void narrow(join *J, const gdl_store *st, int i, int pos, int node, cand *best)
{
	const gdl_pnode *q = &J->g->pn[node];
	int t, rel = J->lits[i].rel;
	if (q->kind == PN_FUNC || (q->kind == PN_VAR && J->bind[q->sym] < 0))
		return;
	if (q->kind == PN_VAR)
		t = J->bind[q->sym];
	else
		t = gdl_term_find(&J->g->terms, q->sym, -1, NULL);
	int e = t < 0 ? -1 : gdl_store_lookup(st, rel, pos, t), k0 = 0;
	int n = e < 0 ? 0 : window(st, st->e[e].atoms.v, st->e[e].atoms.n, J->lo[i], J->hi[i], &k0);
	if (n < best->n)
		*best = (cand){ e, k0, n };
}

/* The smallest candidate slice for literal i. */
static void candidates(join *J, int i, uint64_t bound, cand *best)
{
	ms_gdl *g = J->g;
	const gdl_lit *l = &J->lits[i];
	const gdl_store *st = store_of(J, l->rel);
	const gdl_pnode *p = &g->pn[l->atom];
	if (!(l->vars & ~bound)) { /* ground: a membership test */
		int t;
		gdl_instance(g, l->atom, J->bind, 0, &t);
		int ok = t >= 0 && t < st->tcap && st->in[t] && st->gen[t] >= J->lo[i] && st->gen[t] <= J->hi[i];
		*best = (cand){ ok ? -2 - t : -1, 0, ok };
		return;
	}
	const gdl_ivec *all = &st->atoms[l->rel];
	best->entry = -1;
	best->n = window(st, all->v, all->n, J->lo[i], J->hi[i], &best->k0);
	for (int a = 0; p->kind == PN_FUNC && a < p->nargs && best->n > 0; a++) {
		int node = g->pargs.v[p->args + a];
		const gdl_pnode *q = &g->pn[node];
		if (q->kind == PN_FUNC) {
			for (int b = 0; a < 64 && b < q->nargs && b < 64 && best->n > 0; b++)
				narrow(J, st, i, GDL_POS2(a, b), g->pargs.v[q->args + b], best);
			continue;
		}
		narrow(J, st, i, a, node, best);
	}
}

static int join_rec(join *J, uint64_t todo, uint64_t bound, uint64_t checked)
{
	int rc;
	if ((rc = relax_step(J)))
		return rc;
	if (!check_ready(J, bound, &checked))
		return MS_OK;
	if (!todo)
		return emit(J, J->r->head_vars & ~bound);
	if (!(J->r->head_vars & ~bound) && !(J->relaxed && J->g->grounding)) {
		/* only the atoms matter: a head already known needs no other derivation */
		int h;
		gdl_instance(J->g, J->r->head, J->bind, 0, &h);
		if (h >= 0 && in_store(store_of(J, J->r->head_rel), h))
			return MS_OK;
	}
	int pick = -1;
	cand best = { -1, 0, INT_MAX };
	for (uint64_t m = todo; m; m &= m - 1) {
		int i = __builtin_ctzll(m);
		cand c;
		candidates(J, i, bound, &c);
		if (c.n < best.n) {
			best = c;
			pick = i;
		}
	}
	if (best.n == 0)
		return MS_OK;
	if (J->relaxed)
		J->g->relax_work += best.n; /* matches tried, failed ones too: the budget's measure */
	const gdl_lit *l = &J->lits[pick];
	gdl_store *st = store_of(J, l->rel);
	int trail[64];
	for (int k = best.k0; k < best.k0 + best.n; k++) {
		int t = best.entry >= 0	? st->e[best.entry].atoms.v[k]
			: best.entry <= -2 ? -2 - best.entry
					   : st->atoms[l->rel].v[k];
		int nt = 0;
		if (gdl_match(J->g, l->atom, t, J->bind, trail, &nt)) {
			rc = join_rec(J, todo & ~(1ull << pick), bound | l->vars, checked);
			if (rc)
				return rc;
		}
		while (nt)
			J->bind[trail[--nt]] = -1;
	}
	return MS_OK;
}

/* One pass of rule r with the current windows. */
static int join_rule(join *J, const gdl_rule *r)
{
	J->r = r;
	J->lits = J->g->lits + r->lit0;
	for (int v = 0; v < 64; v++)
		J->bind[v] = -1;
	uint64_t todo = 0;
	for (int i = 0; i < r->nlits; i++)
		if (J->lits[i].kind == LIT_POS && !J->lits[i].dropped)
			todo |= 1ull << i;
	return join_rec(J, todo, 0, 0);
}

static int comp_of(const ms_gdl *g, int rel, int use_b)
{
	return use_b ? g->rels[rel].scc_b : g->rels[rel].scc_a;
}

int gdl_eval_component(ms_gdl *g, gdl_store *dyn, int comp, int use_b, int relaxed, const int *rules, int nrules)
{
	join J = { .g = g, .dyn = dyn, .relaxed = relaxed };
	if (!nrules)
		return MS_OK;
	gdl_store *st = store_of(&J, g->rules[rules[0]].head_rel);
	int rc, start = ++st->round;
	for (int i = 0; i < 64; i++) {
		J.lo[i] = INT_MIN;
		J.hi[i] = INT_MAX;
	}
	for (int k = 0; k < nrules; k++) {
		const gdl_rule *r = &g->rules[rules[k]];
		for (int i = 0; i < r->nlits; i++)
			if (g->lits[r->lit0 + i].kind == LIT_POS && comp_of(g, g->lits[r->lit0 + i].rel, use_b) == comp)
				J.hi[i] = start - 1;
		rc = join_rule(&J, r);
		for (int i = 0; i < r->nlits; i++)
			J.hi[i] = INT_MAX;
		if (rc)
			return rc;
	}
	/* semi-naive rounds: each rule once per in-component literal reading the last round's atoms */
	for (;;) {
		int prev = st->round;
		st->round++;
		J.added = 0;
		for (int k = 0; k < nrules; k++) {
			const gdl_rule *r = &g->rules[rules[k]];
			const gdl_lit *lits = g->lits + r->lit0;
			for (int d = 0; d < r->nlits; d++) {
				if (lits[d].kind != LIT_POS || lits[d].dropped || comp_of(g, lits[d].rel, use_b) != comp)
					continue;
				for (int i = 0; i < r->nlits; i++) {
					int in = lits[i].kind == LIT_POS && comp_of(g, lits[i].rel, use_b) == comp;
					J.lo[i] = in && i == d ? prev : INT_MIN;
					J.hi[i] = !in ? INT_MAX : i < d ? prev - 1 : prev;
				}
				if ((rc = join_rule(&J, r)))
					return rc;
			}
		}
		if (!J.added)
			break;
	}
	return MS_OK;
}

/* Every constant of the rules, as a term: the range of unsafe head variables. */
static int collect_consts(ms_gdl *g)
{
	int rc;
	for (int i = 0; i < g->npn; i++) {
		if (g->pn[i].kind != PN_CONST)
			continue;
		int t, dup = 0;
		if ((rc = gdl_term_intern(g->ctx, &g->terms, g->pn[i].sym, -1, NULL, &t)))
			return rc;
		for (int j = 0; j < g->consts.n && !dup; j++)
			dup = g->consts.v[j] == t;
		if (!dup && (rc = gdl_ivec_push(g->ctx, &g->consts, t)))
			return rc;
	}
	return MS_OK;
}

int gdl_relax(ms_gdl *g)
{
	int rc;
	if ((rc = collect_consts(g)) || (rc = gdl_store_init(g->ctx, &g->st, g->nrels)))
		return rc;
	for (int i = 0; i < g->nrules; i++)
		if (!g->rels[g->rules[i].head_rel].needed)
			gdl_ground_stop(g, MS_GDL_REP_SIZE); /* its atoms stay unknown: no ground network */
	int *list = ms_ctx_malloc(g->ctx, (size_t)(g->nrules + 1) * sizeof *list);
	if (!list)
		return MS_ENOMEM;
	/* relations marked 2 (read only under negation, for the network) come last:
	 * no relation marked 1 reads them positively; chess's threatened_with_capture
	 * alone has 2 x 64^3 relaxed atoms, so they are abandoned once the grounding
	 * bound is passed */
	for (int pass = 1; pass <= 2 && !rc && !(pass == 2 && g->overflow); pass++)
		for (int c = 0; c < g->ncomp_a && !rc; c++) {
			int n = 0;
			for (int i = 0; i < g->nrules; i++) {
				const gdl_rel *h = &g->rels[g->rules[i].head_rel];
				if (h->scc_a == c && h->needed == pass && !h->deferred)
					list[n++] = i;
			}
			rc = gdl_eval_component(g, &g->st, c, 0, 1, list, n);
		}
	ms_ctx_mfree(g->ctx, list);
	return rc == GDL_ABANDON ? MS_OK : rc;
}
