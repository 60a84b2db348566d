/*
 * Goal-directed (top-down) evaluation for the fallback (issue 46, item 2).
 *
 * Some rule sets have relations whose bottom-up domain is huge though every
 * query a game asks binds them: hex's lists of cells (isList, append_el: 25^k
 * facts), nine men's morris's stone count (count_loop over every pair of
 * counts at every point). gdl_defer picks the relations the domain analysis
 * can leave out: those whose every positive occurrence in an analysed rule of
 * a state-dependent relation binds no head variable another analysed literal
 * does not bind. Dropping such a literal only widens the analysed domains
 * (an over-approximation, which is all the analysis promises); static rules
 * drop nothing, so every static relation the analysis keeps stays exact.
 *
 * A state is then evaluated from the queries the machine asks (legal, goal,
 * terminal; next after a joint move), resolving each literal by a call: the
 * literal with its unbound arguments left open (a hole term). Every call
 * keeps a table of its answers; tables of static relations live as long as
 * the machine (their answers never change), those of state-dependent ones
 * until the next state (or joint move, for relations that read does).
 * Recursion is tabled: a call met again while it is being evaluated reads the
 * answers found so far, and the call lowest on the stack that such a loop
 * reaches re-evaluates its component until no table of it grows (a least
 * fixpoint, the bottom-up answer; stratified negation never reaches an open
 * table). Within a rule, literals are taken as the join takes them: the most
 * bound first, negations and distinct once their variables are bound, unsafe
 * negations ignored and unbound head variables over every constant, so the
 * answers are those of the bottom-up fallback.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "gdl_internal.h"
#include "core/hash.h"
#include "microsynth/arena.h"

/* ---- which relations the analysis leaves to queries ---- */

static int is_keyword(const ms_gdl *g, int rel)
{
	return rel == g->r_role || rel == g->r_init || rel == g->r_true || rel == g->r_next || rel == g->r_legal ||
	       rel == g->r_does || rel == g->r_goal || rel == g->r_terminal;
}

void gdl_defer(ms_gdl *g)
{
	/* candidates: relations with a rule that has a body (facts alone are cheap to store) */
	for (int r = 0; r < g->nrels; r++)
		g->rels[r].deferred = 0;
	for (int i = 0; i < g->nrules; i++) {
		const gdl_rule *ru = &g->rules[i];
		if (!ru->synthetic && ru->nlits > 0 && !is_keyword(g, ru->head_rel))
			g->rels[ru->head_rel].deferred = 1;
	}
	for (int changed = 1; changed;) {
		changed = 0;
		for (int i = 0; i < g->nrules; i++) {
			const gdl_rule *ru = &g->rules[i];
			const gdl_lit *lits = g->lits + ru->lit0;
			if (g->rels[ru->head_rel].deferred)
				continue;
			uint64_t kept = 0;
			for (int k = 0; k < ru->nlits; k++)
				if (lits[k].kind == LIT_POS && !g->rels[lits[k].rel].deferred)
					kept |= lits[k].vars;
			for (int k = 0; k < ru->nlits; k++) {
				const gdl_lit *l = &lits[k];
				if (l->kind >= LIT_DISTINCT || !g->rels[l->rel].deferred)
					continue;
				/* static rules are analysed exactly; elsewhere a literal may go if
				 * the head's variables it binds are bound without it */
				int keep = !g->rels[ru->head_rel].dynamic ||
					   (l->kind == LIT_POS && (l->vars & ru->head_vars & ru->bound & ~kept));
				if (keep) {
					g->rels[l->rel].deferred = 0;
					changed = 1;
				}
			}
		}
	}
	for (int i = 0; i < g->nrules; i++) {
		const gdl_rule *ru = &g->rules[i];
		for (int k = 0; k < ru->nlits; k++) {
			gdl_lit *l = &g->lits[ru->lit0 + k];
			l->dropped = l->kind == LIT_POS && g->rels[l->rel].deferred;
		}
	}
}

/* ---- tables ---- */

enum { TD_HOLE = -2 }; /* the symbol of the term an open argument of a call is */
enum { T_NEW, T_ACTIVE, T_PARTIAL, T_COMPLETE };
enum { POOL_STATIC, POOL_STATE, POOL_MOVE, NPOOL };
enum { K_FACTS, K_STATIC, K_DERIVED }; /* how a relation is answered */
/* Terms the machine may add to its copy before its tables are flushed (about 40 bytes each). */
#define TD_MAX_NEW_TERMS 4000000

typedef struct td_table {
	int call, rel, status;
	int first, last, nans; /* answers: a chain through the pool's answers */
	int frame;             /* T_ACTIVE: its frame on the stack */
	int stamp;             /* T_PARTIAL: the iteration it was last evaluated in */
} td_table;

typedef struct td_answer {
	int atom, next, table;
} td_answer;

/* Open addressing over indices (-1 empty); keys are recomputed from the entries. */
typedef struct td_hash {
	int *slot;
	int cap, n;
} td_hash;

typedef struct td_pool {
	MS_VEC(td_table) t;
	MS_VEC(td_answer) a;
	td_hash calls, answers;
} td_pool;

typedef struct td_frame {
	int pool, table, low, looped;
	int scc; /* the component list's length when it was pushed */
} td_frame;

struct gdl_td {
	ms_ctx *ctx;
	const ms_gdl *g0;
	ms_gdl g;           /* a shallow copy of the rules whose terms are this machine's own */
	int base_terms;     /* terms of the rules' own table */
	int hole;
	ms_arena *mem;      /* the four tables below: sized once, freed at once */
	int *kind, *pool;   /* per relation */
	int *rstart, *rlist; /* per relation: its rules (synthetic ones left out) */
	td_pool p[NPOOL];
	gdl_store *facts;
	MS_VEC(td_frame) stack;
	MS_VEC(int) scc;    /* pool << 28 | table of tables left partial */
	long grow;          /* answers added to tables left partial (see evaluate) */
	int iter;
	long steps;
	int broken;         /* an evaluation failed half-way: flush before the next */
};

static uint32_t key1(int a)
{
	return (uint32_t)ms_splitmix64_mix((uint64_t)(uint32_t)a);
}

static uint32_t key2(int a, int b)
{
	return (uint32_t)ms_splitmix64_mix((uint64_t)(uint32_t)a << 32 | (uint32_t)b);
}

static uint32_t entry_key(const td_pool *p, const td_hash *h, int i)
{
	return h == &p->calls ? key1(p->t.v[i].call) : key2(p->a.v[i].table, p->a.v[i].atom);
}

static int hash_grow(ms_ctx *ctx, td_pool *p, td_hash *h)
{
	int cap = h->cap ? h->cap * 2 : 256;
	int *s = ms_ctx_malloc(ctx, (size_t)cap * sizeof *s);
	if (!s)
		return MS_ENOMEM;
	memset(s, 0xff, (size_t)cap * sizeof *s);
	for (int k = 0; k < h->cap; k++) {
		if (h->slot[k] < 0)
			continue;
		uint32_t j = entry_key(p, h, h->slot[k]) & (uint32_t)(cap - 1);
		while (s[j] >= 0)
			j = (j + 1) & (uint32_t)(cap - 1);
		s[j] = h->slot[k];
	}
	ms_ctx_mfree(ctx, h->slot);
	h->slot = s;
	h->cap = cap;
	return MS_OK;
}

static void pool_clear(td_pool *p)
{
	p->t.n = p->a.n = 0;
	p->calls.n = p->answers.n = 0;
	if (p->calls.slot)
		memset(p->calls.slot, 0xff, (size_t)p->calls.cap * sizeof *p->calls.slot);
	if (p->answers.slot)
		memset(p->answers.slot, 0xff, (size_t)p->answers.cap * sizeof *p->answers.slot);
}

static void pool_free(ms_ctx *ctx, td_pool *p)
{
	ms_vec_dispose(ctx, &p->t);
	ms_vec_dispose(ctx, &p->a);
	ms_ctx_mfree(ctx, p->calls.slot);
	ms_ctx_mfree(ctx, p->answers.slot);
}

/* The table of `call` in pool p, made if new (*out its index). */
static int table_of(gdl_td *T, int p, int call, int rel, int *out)
{
	td_pool *P = &T->p[p];
	td_hash *h = &P->calls;
	if (2 * (h->n + 1) > h->cap && hash_grow(T->ctx, P, h))
		return MS_ENOMEM;
	uint32_t j = key1(call) & (uint32_t)(h->cap - 1);
	for (; h->slot[j] >= 0; j = (j + 1) & (uint32_t)(h->cap - 1))
		if (P->t.v[h->slot[j]].call == call) {
			*out = h->slot[j];
			return MS_OK;
		}
	td_table *t = ms_vec_push(T->ctx, &P->t);
	if (!t)
		return MS_ENOMEM;
	*t = (td_table){ .call = call, .rel = rel, .status = T_NEW, .first = -1, .last = -1 };
	h->slot[j] = *out = P->t.n - 1;
	h->n++;
	return MS_OK;
}

static int add_answer(gdl_td *T, int p, int table, int atom)
{
	td_pool *P = &T->p[p];
	td_hash *h = &P->answers;
	if (2 * (h->n + 1) > h->cap && hash_grow(T->ctx, P, h))
		return MS_ENOMEM;
	uint32_t j = key2(table, atom) & (uint32_t)(h->cap - 1);
	for (; h->slot[j] >= 0; j = (j + 1) & (uint32_t)(h->cap - 1))
		if (P->a.v[h->slot[j]].table == table && P->a.v[h->slot[j]].atom == atom)
			return MS_OK;
	td_answer *a = ms_vec_push(T->ctx, &P->a);
	if (!a)
		return MS_ENOMEM;
	*a = (td_answer){ atom, -1, table };
	int ai = P->a.n - 1;
	h->slot[j] = ai;
	h->n++;
	td_table *t = &P->t.v[table];
	if (t->last >= 0)
		P->a.v[t->last].next = ai;
	else
		t->first = ai;
	t->last = ai;
	t->nans++;
	return MS_OK;
}

/* ---- terms ---- */

static const gdl_terms *terms(const gdl_td *T)
{
	return &T->g.terms;
}

static int arg_of(const gdl_td *T, int t, int i)
{
	return terms(T)->pool.v[terms(T)->args[t] + i];
}

static int has_hole(const gdl_td *T, int t)
{
	if (t == T->hole)
		return 1;
	for (int i = 0; i < terms(T)->nargs[t]; i++)
		if (has_hole(T, arg_of(T, t, i)))
			return 1;
	return 0;
}

/* Ground atom `atom` is one the call asks for. */
static int covers(const gdl_td *T, int call, int atom)
{
	if (call == atom || call == T->hole)
		return 1;
	const gdl_terms *tm = terms(T);
	if (tm->nargs[call] < 0 || tm->sym[call] != tm->sym[atom] || tm->nargs[call] != tm->nargs[atom])
		return 0;
	for (int i = 0; i < tm->nargs[call]; i++)
		if (!covers(T, arg_of(T, call, i), arg_of(T, atom, i)))
			return 0;
	return 1;
}

/* Pattern `node` under `bind` with every unbound variable a hole. */
static int call_term(gdl_td *T, int node, const int *bind, int *out)
{
	const gdl_pnode *p = &T->g.pn[node];
	if (p->kind == PN_VAR) {
		*out = bind[p->sym] >= 0 ? bind[p->sym] : T->hole;
		return MS_OK;
	}
	if (p->kind == PN_CONST)
		return gdl_term_intern(T->ctx, &T->g.terms, p->sym, -1, NULL, out);
	int small[16], *args = small, rc = MS_OK;
	if (p->nargs > 16 && !(args = ms_ctx_malloc(T->ctx, (size_t)p->nargs * sizeof *args)))
		return MS_ENOMEM;
	for (int i = 0; i < p->nargs && !rc; i++)
		rc = call_term(T, T->g.pargs.v[p->args + i], bind, &args[i]);
	if (!rc)
		rc = gdl_term_intern(T->ctx, &T->g.terms, p->sym, p->nargs, args, out);
	if (args != small)
		ms_ctx_mfree(T->ctx, args);
	return rc;
}

/* A rule's head against a call: binds the variables (of `safe`) whose argument
 * the call gives whole; 0 if they cannot agree. Emitted heads are checked
 * against the call again (covers), so what is not bound here only costs time. */
static int unify_call(gdl_td *T, int node, int t, uint64_t safe, int *bind, int *trail, int *nt)
{
	if (t == T->hole)
		return 1;
	const gdl_pnode *p = &T->g.pn[node];
	const gdl_terms *tm = terms(T);
	switch (p->kind) {
	case PN_CONST:
		return tm->nargs[t] < 0 && tm->sym[t] == p->sym;
	case PN_VAR:
		if (!(safe >> p->sym & 1) || has_hole(T, t))
			return 1;
		if (bind[p->sym] >= 0)
			return bind[p->sym] == t;
		bind[p->sym] = t;
		trail[(*nt)++] = p->sym;
		return 1;
	default:
		if (tm->nargs[t] != p->nargs || tm->sym[t] != p->sym)
			return 0;
		for (int i = 0; i < p->nargs; i++)
			if (!unify_call(T, T->g.pargs.v[p->args + i], arg_of(T, t, i), safe, bind, trail, nt))
				return 0;
		return 1;
	}
}

/* ---- evaluation ---- */

typedef struct td_rule {
	const gdl_rule *r;
	const gdl_lit *lits;
	int pool, table, call;
	int bind[64];
} td_rule;

static int td_call(gdl_td *T, int call, int rel, int *pool, int *table);

static int step(gdl_td *T, const gdl_rule *r)
{
	const ms_gdl *g = T->g0;
	if (++T->steps <= g->opts.relax_bound && T->stack.n < 3000)
		return MS_OK;
	return ms_ctx_error(T->ctx, MS_ERANGE,
			    "%s:%d: evaluating a state top-down exceeded %ld steps or 3000 nested calls (a "
			    "relation whose domain is unbounded, through recursion on function terms?)",
			    g->name, r->line, g->opts.relax_bound);
}

static const gdl_store *base_store(const gdl_td *T, int rel)
{
	return T->kind[rel] == K_FACTS ? T->facts : &T->g0->st;
}

static int in_base(const gdl_td *T, int rel, int t)
{
	const gdl_store *st = base_store(T, rel);
	return t >= 0 && t < st->tcap && st->in[t];
}

/* Ground atom t of relation rel holds. */
static int holds(gdl_td *T, int rel, int t, int *yes)
{
	if (T->kind[rel] != K_DERIVED) {
		*yes = in_base(T, rel, t);
		return MS_OK;
	}
	int p, tb, rc = td_call(T, t, rel, &p, &tb);
	if (!rc)
		*yes = T->p[p].t.v[tb].nans > 0;
	return rc;
}

/* Pattern `node` (an argument of a literal) is ground under bind. */
static int ground_node(const gdl_td *T, int node, const int *bind)
{
	const gdl_pnode *p = &T->g.pn[node];
	if (p->kind == PN_VAR)
		return bind[p->sym] >= 0;
	for (int i = 0; p->kind == PN_FUNC && i < p->nargs; i++)
		if (!ground_node(T, T->g.pargs.v[p->args + i], bind))
			return 0;
	return 1;
}

/* Argument `pos` of a base relation's atoms is the term of pattern `node` (a
 * constant or a bound variable): a shorter list than *v? */
static void narrow(const gdl_td *T, const gdl_store *st, int rel, int pos, int node, const int *bind, const int **v,
		   int *n)
{
	const gdl_pnode *q = &T->g.pn[node];
	int t;
	if (q->kind == PN_FUNC || (q->kind == PN_VAR && bind[q->sym] < 0))
		return;
	t = q->kind == PN_VAR ? bind[q->sym] : gdl_term_find(terms(T), q->sym, -1, NULL);
	int e = t < 0 ? -1 : gdl_store_lookup(st, rel, pos, t);
	if (e < 0)
		*n = 0;
	else if (st->e[e].atoms.n < *n) {
		*v = st->e[e].atoms.v;
		*n = st->e[e].atoms.n;
	}
}

/* The smallest list of a base relation's atoms that literal `l` can match
 * (its argument index, two levels deep, on bound arguments, as the join's). */
static void base_list(const gdl_td *T, const gdl_lit *l, const int *bind, const int **v, int *n)
{
	const gdl_store *st = base_store(T, l->rel);
	const gdl_pnode *p = &T->g.pn[l->atom];
	const gdl_ivec *all = &st->atoms[l->rel];
	*v = all->v;
	*n = all->n;
	for (int a = 0; p->kind == PN_FUNC && a < p->nargs && a < 64 && *n > 0; a++) {
		int node = T->g.pargs.v[p->args + a];
		const gdl_pnode *q = &T->g.pn[node];
		if (q->kind != PN_FUNC) {
			narrow(T, st, l->rel, a, node, bind, v, n);
			continue;
		}
		for (int b = 0; b < q->nargs && b < 64 && *n > 0; b++)
			narrow(T, st, l->rel, GDL_POS2(a, b), T->g.pargs.v[q->args + b], bind, v, n);
	}
}

/* How costly literal l is to take next (lower first): ground ones are tests,
 * base relations cost their candidates, derived ones come after, the more
 * bound the sooner. */
static long cost(const gdl_td *T, const gdl_lit *l, uint64_t bound, const int *bind)
{
	if (!(l->vars & ~bound))
		return 0;
	if (T->kind[l->rel] != K_DERIVED) {
		const int *v;
		int n;
		base_list(T, l, bind, &v, &n);
		return 1 + n;
	}
	const gdl_pnode *p = &T->g.pn[l->atom];
	int open = 0;
	for (int a = 0; p->kind == PN_FUNC && a < p->nargs; a++)
		open += !ground_node(T, T->g.pargs.v[p->args + a], bind);
	return 1000000L + (p->nargs > 0 ? 1000L * open / p->nargs : 0);
}

/* Non-positive literals that just became ground: 0 in *ok if one fails. */
static int check_ready(gdl_td *T, td_rule *R, uint64_t bound, uint64_t *checked, int *ok)
{
	*ok = 1;
	for (int i = 0; i < R->r->nlits; i++) {
		const gdl_lit *l = &R->lits[i];
		if (l->kind == LIT_POS || (*checked >> i & 1) || (l->vars & ~bound))
			continue;
		*checked |= 1ull << i;
		if (l->kind >= LIT_DISTINCT) {
			int a, b, rc;
			if ((rc = call_term(T, l->atom, R->bind, &a)) || (rc = call_term(T, l->atom2, R->bind, &b)))
				return rc;
			if ((a == b) == (l->kind == LIT_DISTINCT)) {
				*ok = 0;
				return MS_OK;
			}
			continue;
		}
		int t, yes, rc;
		if ((rc = call_term(T, l->atom, R->bind, &t)) || (rc = holds(T, l->rel, t, &yes)))
			return rc;
		if (yes) {
			*ok = 0;
			return MS_OK;
		}
	}
	return MS_OK;
}

/* All positive literals matched: unsafe head variables over every constant, then the answer. */
static int emit(gdl_td *T, td_rule *R, uint64_t unbound)
{
	int rc = MS_OK;
	if (unbound) {
		int v = __builtin_ctzll(unbound);
		for (int i = 0; i < T->g.consts.n && !rc; i++) {
			R->bind[v] = T->g.consts.v[i];
			rc = emit(T, R, unbound & (unbound - 1));
		}
		R->bind[v] = -1;
		return rc;
	}
	int head;
	if ((rc = call_term(T, R->r->head, R->bind, &head)))
		return rc;
	return covers(T, R->call, head) ? add_answer(T, R->pool, R->table, head) : MS_OK;
}

static int join_rec(gdl_td *T, td_rule *R, uint64_t todo, uint64_t bound, uint64_t checked)
{
	int rc, ok;
	if ((rc = step(T, R->r)) || (rc = check_ready(T, R, bound, &checked, &ok)) || !ok)
		return rc;
	if (!todo)
		return emit(T, R, R->r->head_vars & ~bound);
	int pick = -1;
	long best = LONG_MAX;
	for (uint64_t m = todo; m; m &= m - 1) {
		int i = __builtin_ctzll(m);
		long c = cost(T, &R->lits[i], bound, R->bind);
		if (c < best) {
			best = c;
			pick = i;
		}
	}
	const gdl_lit *l = &R->lits[pick];
	int trail[64];
	todo &= ~(1ull << pick);
	if (T->kind[l->rel] != K_DERIVED) {
		const int *v;
		int n;
		base_list(T, l, R->bind, &v, &n);
		for (int k = 0; k < n; k++) {
			int nt = 0;
			if (gdl_match(&T->g, l->atom, v[k], R->bind, trail, &nt) &&
			    (rc = join_rec(T, R, todo, bound | l->vars, checked)))
				return rc;
			while (nt)
				R->bind[trail[--nt]] = -1;
		}
		return MS_OK;
	}
	int call, p, tb;
	if ((rc = call_term(T, l->atom, R->bind, &call)) || (rc = td_call(T, call, l->rel, &p, &tb)))
		return rc;
	/* by index: the answers may grow (a recursive call) and move while we read them */
	for (int a = T->p[p].t.v[tb].first; a >= 0; a = T->p[p].a.v[a].next) {
		int nt = 0;
		if (gdl_match(&T->g, l->atom, T->p[p].a.v[a].atom, R->bind, trail, &nt) &&
		    (rc = join_rec(T, R, todo, bound | l->vars, checked)))
			return rc;
		while (nt)
			R->bind[trail[--nt]] = -1;
	}
	return MS_OK;
}

/* One pass of the rules of table tb's relation. */
static int solve(gdl_td *T, int p, int tb)
{
	int rel = T->p[p].t.v[tb].rel, rc;
	for (int k = T->rstart[rel]; k < T->rstart[rel + 1]; k++) {
		td_rule R = { .r = &T->g.rules[T->rlist[k]], .pool = p, .table = tb, .call = T->p[p].t.v[tb].call };
		R.lits = T->g.lits + R.r->lit0;
		for (int v = 0; v < 64; v++)
			R.bind[v] = -1;
		int trail[64], nt = 0;
		if (!unify_call(T, R.r->head, R.call, R.r->head_vars & R.r->bound, R.bind, trail, &nt))
			continue;
		uint64_t todo = 0, bound = 0;
		for (int v = 0; v < 64; v++)
			if (R.bind[v] >= 0)
				bound |= 1ull << v;
		for (int i = 0; i < R.r->nlits; i++)
			if (R.lits[i].kind == LIT_POS)
				todo |= 1ull << i;
		if ((rc = join_rec(T, &R, todo, bound, 0)))
			return rc;
	}
	return MS_OK;
}

static int push_frame(gdl_td *T, int p, int tb)
{
	td_frame *f = ms_vec_push(T->ctx, &T->stack);
	if (!f)
		return MS_ENOMEM;
	*f = (td_frame){ p, tb, T->stack.n - 1, 0, T->scc.n };
	T->p[p].t.v[tb].status = T_ACTIVE;
	T->p[p].t.v[tb].frame = T->stack.n - 1;
	return MS_OK;
}

/*
 * Evaluates a table that is new, or partial from an earlier iteration. A
 * frame whose evaluation met an active table below it (`low`) belongs to that
 * table's component: it is left partial, to be evaluated again. The lowest
 * frame of a component (a leader) that met itself (`looped`) evaluates again
 * while its own answers or those of the tables it left partial grew.
 */
static int evaluate(gdl_td *T, int p, int tb)
{
	int rc;
	if ((rc = push_frame(T, p, tb)))
		return rc;
	int d = T->stack.n - 1;
	long grow_entry = T->grow;
	int nans_entry = T->p[p].t.v[tb].nans;
	for (;;) {
		long grow_pass = T->grow;
		int nans_pass = T->p[p].t.v[tb].nans;
		if ((rc = solve(T, p, tb)))
			return rc;
		const td_frame *f = &T->stack.v[d];
		if (f->low < d || !f->looped || (T->grow == grow_pass && T->p[p].t.v[tb].nans == nans_pass))
			break;
		T->iter++;
	}
	td_frame f = T->stack.v[d];
	T->stack.n--;
	td_table *t = &T->p[p].t.v[tb];
	if (f.low < d) {
		t->status = T_PARTIAL;
		t->stamp = T->iter;
		T->grow += t->nans - nans_entry;
		int *e = ms_vec_push(T->ctx, &T->scc);
		if (!e)
			return MS_ENOMEM;
		*e = p << 28 | tb;
		if (T->stack.v[d - 1].low > f.low)
			T->stack.v[d - 1].low = f.low;
		return MS_OK;
	}
	t->status = T_COMPLETE;
	for (int i = f.scc; i < T->scc.n; i++)
		T->p[T->scc.v[i] >> 28].t.v[T->scc.v[i] & ((1 << 28) - 1)].status = T_COMPLETE;
	T->scc.n = f.scc;
	T->grow = grow_entry;
	return MS_OK;
}

static int td_call(gdl_td *T, int call, int rel, int *pool, int *table)
{
	int p = T->pool[rel], tb, rc;
	if ((rc = table_of(T, p, call, rel, &tb)))
		return rc;
	*pool = p;
	*table = tb;
	td_table *t = &T->p[p].t.v[tb];
	switch (t->status) {
	case T_COMPLETE:
		return MS_OK;
	case T_ACTIVE: { /* a loop: every frame above t's depends on it */
		int d = t->frame;
		td_frame *top = &T->stack.v[T->stack.n - 1];
		T->stack.v[d].looped = 1;
		if (top->low > d)
			top->low = d;
		return MS_OK;
	}
	case T_PARTIAL:
		if (t->stamp == T->iter)
			return MS_OK;
		/* fall through */
	default:
		if (T->p[p].t.n >= (1 << 28) - 1)
			return ms_ctx_error(T->ctx, MS_ERANGE, "%s: more than 2^28 calls in one evaluation", T->g0->name);
		return evaluate(T, p, tb);
	}
}

/* ---- the machine's side ---- */

static int reset_terms(gdl_td *T)
{
	int rc = gdl_terms_copy(T->ctx, &T->g.terms, &T->g0->terms);
	if (!rc)
		rc = gdl_term_intern(T->ctx, &T->g.terms, TD_HOLE, -1, NULL, &T->hole);
	for (int p = 0; p < NPOOL; p++)
		pool_clear(&T->p[p]);
	T->stack.n = T->scc.n = 0;
	T->grow = 0;
	T->broken = rc != MS_OK;
	return rc;
}

int gdl_td_new(ms_ctx *ctx, gdl_td **out, const ms_gdl *g)
{
	gdl_td *T = ms_ctx_calloc(ctx, 1, sizeof *T);
	if (!T)
		return ms_ctx_error(ctx, MS_ENOMEM, "%s: out of memory for the top-down evaluation", g->name);
	T->ctx = ctx;
	T->g0 = g;
	T->g = *g;
	T->g.ctx = ctx;
	memset(&T->g.terms, 0, sizeof T->g.terms);
	T->base_terms = g->terms.n;
	int n = g->nrels, rc = MS_OK;
	if ((rc = ms_arena_new(&T->mem, ctx, 0)) < 0) {
		gdl_td_free(T);
		return rc;
	}
	T->kind = ms_arena_calloc(T->mem, (size_t)n + 1, sizeof *T->kind);
	T->pool = ms_arena_calloc(T->mem, (size_t)n + 1, sizeof *T->pool);
	T->rstart = ms_arena_calloc(T->mem, (size_t)n + 2, sizeof *T->rstart);
	T->rlist = ms_arena_calloc(T->mem, (size_t)g->nrules + 1, sizeof *T->rlist);
	if (!T->kind || !T->pool || !T->rstart || !T->rlist) {
		gdl_td_free(T);
		return ms_ctx_error(ctx, MS_ENOMEM, "%s: out of memory for the top-down evaluation", g->name);
	}
	for (int r = 0; r < n; r++) {
		const gdl_rel *R = &g->rels[r];
		T->kind[r] = r == g->r_true || r == g->r_does ? K_FACTS : !R->dynamic && !R->deferred ? K_STATIC : K_DERIVED;
		T->pool[r] = !R->dynamic ? POOL_STATIC : R->on_does ? POOL_MOVE : POOL_STATE;
	}
	int k = 0;
	for (int r = 0; r < n; r++) {
		T->rstart[r] = k;
		for (int i = 0; i < g->nrules; i++)
			if (!g->rules[i].synthetic && g->rules[i].head_rel == r)
				T->rlist[k++] = i;
	}
	T->rstart[n] = k;
	if ((rc = reset_terms(T))) {
		gdl_td_free(T);
		return rc;
	}
	*out = T;
	return MS_OK;
}

void gdl_td_free(gdl_td *T)
{
	if (!T)
		return;
	ms_ctx *ctx = T->ctx;
	for (int p = 0; p < NPOOL; p++)
		pool_free(ctx, &T->p[p]);
	ms_vec_dispose(ctx, &T->stack);
	ms_vec_dispose(ctx, &T->scc);
	gdl_terms_free(ctx, &T->g.terms);
	ms_arena_free(T->mem);
	ms_ctx_mfree(ctx, T);
}

/* Every atom of relation rel into the facts (the open query's answers). */
static int ask(gdl_td *T, int rel)
{
	const gdl_rel *R = &T->g0->rels[rel];
	int call, p, tb, rc, added;
	if (R->arity < 0)
		rc = gdl_term_intern(T->ctx, &T->g.terms, R->sym, -1, NULL, &call);
	else { /* legal, goal: 2; next: 1 */
		int holes[2] = { T->hole, T->hole };
		rc = gdl_term_intern(T->ctx, &T->g.terms, R->sym, R->arity < 2 ? R->arity : 2, holes, &call);
	}
	if (rc || (rc = td_call(T, call, rel, &p, &tb)))
		return rc;
	for (int a = T->p[p].t.v[tb].first; a >= 0 && !rc; a = T->p[p].a.v[a].next)
		if (T->p[p].a.v[a].atom < T->base_terms) /* the analysed domain holds every answer that matters */
			rc = gdl_store_add(T->ctx, T->facts, terms(T), rel, T->p[p].a.v[a].atom, &added);
	return rc;
}

int gdl_td_run(gdl_td *T, gdl_store *facts, int phase)
{
	const ms_gdl *g = T->g0;
	int rc = MS_OK;
	if (T->broken || T->g.terms.n - T->base_terms > TD_MAX_NEW_TERMS)
		rc = reset_terms(T); /* tables are a cache: dropped whole, terms with them */
	if (rc)
		return rc;
	pool_clear(&T->p[POOL_MOVE]);
	if (phase == 0)
		pool_clear(&T->p[POOL_STATE]);
	T->facts = facts;
	T->steps = 0;
	if (phase == 0)
		rc = ask(T, g->r_legal);
	if (phase == 0 && !rc)
		rc = ask(T, g->r_goal);
	if (phase == 0 && !rc)
		rc = ask(T, g->r_terminal);
	if (phase == 1)
		rc = ask(T, g->r_next);
	T->broken = rc != MS_OK;
	return rc;
}
