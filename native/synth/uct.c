/*
 * UCT over partial programs and Sketch-UCT (spec/cantstop.md 7.4; the
 * AAAI 2022 paper's "UCT for Synthesis of Strategies" and "Sketch
 * Learning with UCT").
 *
 * A tree node is a program with holes; an edge fills one hole (the
 * shallowest, as the code; the leftmost, as the paper) with one of its
 * non-terminal's productions. Selection takes the first rule not yet
 * tried, in the grammar's order, and otherwise the rule maximising
 * Q + c sqrt(N / N_rule) (the code; the paper puts ln N under the root).
 * The rollout completes every hole at random and runs one annealing pass
 * that may only change what was filled into the holes: the program's
 * structure down to them is the tree's. The best score of the rollout is
 * backed up. Scores are cached per search (the code keyed them by printed
 * text; here by tree, which is exact).
 */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "microsynth/arena.h"
#include "synth_internal.h"

/* One rule of a tree node: where it leads and its statistics. */
typedef struct uct_edge {
	int child;           /* tree node, -1 if not expanded */
	int n;               /* visits */
	double w;            /* summed rewards */
} uct_edge;

typedef struct uct_node {
	ms_dsl_prog *prog;
	int hole;            /* node index of the hole this tree node fills, -1 for a complete program */
	int n_rules;
	const uint16_t *rules;
	uct_edge *e;         /* per rule, from the tree's edge arena */
	int n_total, n_expanded;
	int parent, rule;    /* rule: index in the parent's rules */
} uct_node;

typedef struct uct {
	ms_synth *s;
	int kind;
	const ms_dsl_grammar *g;
	/* the tree: nodes by index in one growable array (as Pachi's node
	 * buffer), their edges in an arena, both released at once per tree */
	MS_VEC(uct_node) node;
	ms_arena *edges;

	/* completion tables, per non-terminal */
	ms_arena *tab; /* the tables below, made once from the grammar */
	uint16_t **leafish, **small, **minimal;
	int *n_leafish, *n_small, *n_minimal;
	int n_nts;

	/* the search's best (fresh evaluations) */
	ms_dsl_prog *best;
	double best_score;
	/* the paper's Sketch-UCT: Psi of every program that improves the best C */
	int psi_on_improve;
	ms_dsl_prog *psi_best;
	double psi_best_score;

	/* rollout scratch */
	ms_dsl_prog *full, *sub, *old;
	ms_dsl_prog **fill;
	int *holes;
	int n_fill, cap_fill;
} uct;

/* ---- completion ---- */

static int is_leafish(const ms_dsl_grammar *g, int prod)
{
	for (int k = 0; k < ms_dsl_prod_arity(g, prod); k++) {
		int n;
		const uint16_t *alts = ms_dsl_nt_alts(g, ms_dsl_prod_child_nt(g, prod, k), &n);
		for (int a = 0; a < n; a++)
			if (ms_dsl_prod_arity(g, alts[a]) > 0)
				return 0;
	}
	return 1;
}

static int tables(uct *u)
{
	const ms_dsl_grammar *g = u->g;
	ms_ctx *ctx = u->s->ctx;
	ms_arena *tab = u->tab;
	int nts = ms_dsl_nt_count(g), prods = ms_dsl_prod_count(g);
	u->n_nts = nts;
	u->leafish = ms_arena_calloc(tab, (size_t)nts, sizeof *u->leafish);
	u->small = ms_arena_calloc(tab, (size_t)nts, sizeof *u->small);
	u->minimal = ms_arena_calloc(tab, (size_t)nts, sizeof *u->minimal);
	u->n_leafish = ms_arena_calloc(tab, (size_t)nts, sizeof *u->n_leafish);
	u->n_small = ms_arena_calloc(tab, (size_t)nts, sizeof *u->n_small);
	u->n_minimal = ms_arena_calloc(tab, (size_t)nts, sizeof *u->n_minimal);
	int *minh = ms_arena_alloc(tab, sizeof *minh * (size_t)nts);
	int *ph = ms_arena_alloc(tab, sizeof *ph * (size_t)prods);
	if (!u->leafish || !u->small || !u->minimal || !u->n_leafish || !u->n_small || !u->n_minimal || !minh || !ph)
		return ms_ctx_error(ctx, MS_ENOMEM, "UCT: out of memory");
	/* least derivation heights, by fixpoint (the grammar guarantees every one is finite) */
	for (int i = 0; i < nts; i++)
		minh[i] = 1 << 28;
	for (int changed = 1; changed;) {
		changed = 0;
		for (int p = 0; p < prods; p++) {
			int h = 1;
			for (int k = 0; k < ms_dsl_prod_arity(g, p); k++) {
				int c = minh[ms_dsl_prod_child_nt(g, p, k)];
				if (c + 1 > h)
					h = c + 1;
			}
			ph[p] = h;
		}
		for (int nt = 0; nt < nts; nt++) {
			int n;
			const uint16_t *alts = ms_dsl_nt_alts(g, nt, &n);
			for (int a = 0; a < n; a++)
				if (ph[alts[a]] < minh[nt]) {
					minh[nt] = ph[alts[a]];
					changed = 1;
				}
		}
	}
	for (int nt = 0; nt < nts; nt++) {
		int n;
		const uint16_t *alts = ms_dsl_nt_alts(g, nt, &n);
		u->leafish[nt] = ms_arena_alloc(tab, sizeof(uint16_t) * (size_t)(n ? n : 1));
		u->small[nt] = ms_arena_alloc(tab, sizeof(uint16_t) * (size_t)(n ? n : 1));
		u->minimal[nt] = ms_arena_alloc(tab, sizeof(uint16_t) * (size_t)(n ? n : 1));
		if (!u->leafish[nt] || !u->small[nt] || !u->minimal[nt])
			return ms_ctx_error(ctx, MS_ENOMEM, "UCT: out of memory");
		for (int a = 0; a < n; a++) {
			int p = alts[a], ar = ms_dsl_prod_arity(g, p);
			if (is_leafish(g, p))
				u->leafish[nt][u->n_leafish[nt]++] = (uint16_t)p;
			if (ar == 1 || ar == 2)
				u->small[nt][u->n_small[nt]++] = (uint16_t)p;
			if (ph[p] == minh[nt])
				u->minimal[nt][u->n_minimal[nt]++] = (uint16_t)p;
		}
	}
	return 0;
}

/*
 * Fills every hole of p, leftmost first, as the code's random completion:
 * uniform over the alternatives for the first `uct_expansions` expansions
 * (counted across calls through *count), then only terminal-like ones. A
 * program past the generation node cap is finished by least-height
 * alternatives, so completion always ends.
 */
static int complete(uct *u, ms_dsl_prog *p, int *count)
{
	ms_synth *s = u->s;
	int rc, h;
	if (s->o.uct_completion == MS_SYNTH_COMPLETE_GENERATOR) {
		const ms_dsl_gen_options *go = s->pb->gen.version == MS_DSL_GEN_OPTIONS_VERSION ? &s->pb->gen : NULL;
		while ((h = ms_dsl_first_hole(p)) >= 0)
			if ((rc = ms_dsl_regenerate(p, h, &s->rng, go)) < 0)
				return rc;
		return 0;
	}
	int cap = s->pb->gen.max_nodes > 0 ? s->pb->gen.max_nodes : 10000;
	while ((h = ms_dsl_first_hole(p)) >= 0) {
		int nt = ms_dsl_hole_nt(ms_dsl_prog_nodes(p)[h]), n;
		const uint16_t *set = ms_dsl_nt_alts(u->g, nt, &n);
		if (ms_dsl_prog_len(p) > cap) {
			set = u->minimal[nt], n = u->n_minimal[nt];
		} else if (*count >= s->o.uct_expansions) {
			if (u->n_leafish[nt])
				set = u->leafish[nt], n = u->n_leafish[nt];
			else if (u->n_small[nt])
				set = u->small[nt], n = u->n_small[nt];
		}
		if ((rc = ms_dsl_expand(p, h, set[syn_below(s, n)])) < 0)
			return rc;
		(*count)++;
	}
	return 0;
}

/* p := a lone hole of non-terminal nt. */
static int lone_hole(ms_dsl_prog *p, int nt)
{
	ms_dsl_prog_clear(p);
	int rc = ms_dsl_prog_push(p, ms_dsl_hole(nt));
	return rc < 0 ? rc : ms_dsl_prog_finish(p, nt);
}

/* ---- tree ---- */

static void tree_clear(uct *u)
{
	for (int i = 0; i < u->node.n; i++)
		ms_dsl_prog_free(u->node.v[i].prog);
	u->node.n = 0;
	ms_arena_reset(u->edges);
}

/* The hole an edge fills next: shallowest (leftmost among equals) or leftmost. */
static int next_hole(const uct *u, const ms_dsl_prog *p)
{
	if (u->s->o.uct_hole == MS_SYNTH_HOLE_LEFTMOST)
		return ms_dsl_first_hole(p);
	const ms_dsl_sym *sym = ms_dsl_prog_nodes(p);
	const int32_t *end = ms_dsl_prog_ends(p);
	int n = ms_dsl_prog_len(p), best = -1, best_depth = 0, top = 0;
	int32_t small[64], *stack = small;
	if (n > 64 && !(stack = ms_ctx_malloc(u->s->ctx, sizeof *stack * (size_t)n)))
		return ms_ctx_error(u->s->ctx, MS_ENOMEM, "UCT: out of memory");
	for (int i = 0; i < n; i++) {
		while (top > 0 && stack[top - 1] <= i)
			top--;
		if (ms_dsl_is_hole(sym[i]) && (best < 0 || top < best_depth)) {
			best = i;
			best_depth = top;
		}
		stack[top++] = end[i];
	}
	if (stack != small)
		ms_ctx_mfree(u->s->ctx, stack);
	return best;
}

/* A tree node for program p (taken over), child `rule` of `parent` (-1 for the root). */
static int node_add(uct *u, ms_dsl_prog *p, int parent, int rule, int *out)
{
	int hole = next_hole(u, p), rc;
	uct_node *n;
	if (hole < -1 || (rc = ms_vec_reserve(u->s->ctx, &u->node, u->node.n + 1)) < 0) {
		ms_dsl_prog_free(p);
		return hole < -1 ? hole : rc;
	}
	n = &u->node.v[u->node.n];
	*n = (uct_node){ .prog = p, .hole = hole, .parent = parent, .rule = rule };
	if (hole >= 0) {
		n->rules = ms_dsl_nt_alts(u->g, ms_dsl_hole_nt(ms_dsl_prog_nodes(p)[hole]), &n->n_rules);
		if (!(n->e = ms_arena_calloc(u->edges, (size_t)n->n_rules, sizeof *n->e))) {
			ms_dsl_prog_free(p);
			return MS_ENOMEM;
		}
		for (int r = 0; r < n->n_rules; r++)
			n->e[r].child = -1;
	}
	*out = u->node.n++;
	if (parent >= 0) {
		u->node.v[parent].e[rule].child = *out;
		u->node.v[parent].n_expanded++;
	}
	return 0;
}

static int new_root(uct *u)
{
	ms_dsl_prog *p;
	int rc = syn_prog_new(u->s, &p), id;
	if (rc < 0)
		return rc;
	if ((rc = lone_hole(p, u->s->start_nt)) < 0) {
		ms_dsl_prog_free(p);
		return rc;
	}
	tree_clear(u);
	return node_add(u, p, -1, -1, &id);
}

static int expand(uct *u, int parent, int rule, int *out)
{
	const uct_node *pn = &u->node.v[parent];
	ms_dsl_prog *p;
	int rc = ms_dsl_prog_clone(&p, pn->prog);
	if (rc < 0)
		return rc;
	if ((rc = ms_dsl_expand(p, pn->hole, pn->rules[rule])) < 0) {
		ms_dsl_prog_free(p);
		return rc;
	}
	return node_add(u, p, parent, rule, out);
}

static void backprop(uct *u, int id, double v)
{
	while (u->node.v[id].parent >= 0) {
		uct_node *p = &u->node.v[u->node.v[id].parent];
		int r = u->node.v[id].rule;
		p->n_total++;
		p->e[r].n++;
		p->e[r].w += v;
		id = u->node.v[id].parent;
	}
}

static int select_rule(const uct *u, const uct_node *n)
{
	if (n->n_expanded < n->n_rules) {
		for (int r = 0; r < n->n_rules; r++)
			if (n->e[r].child < 0)
				return r;
	}
	const ms_synth_options *o = &u->s->o;
	double lnN = log((double)(n->n_total > 0 ? n->n_total : 1));
	int best = -1;
	double best_v = 0;
	for (int r = 0; r < n->n_rules; r++) {
		double nr = n->e[r].n > 0 ? n->e[r].n : 1;
		double explore = o->uct_ucb == MS_SYNTH_UCB_PAPER ? sqrt(lnN / nr) : sqrt((double)n->n_total / nr);
		double v = n->e[r].w / nr + o->uct_c * explore;
		if (best < 0 || v > best_v) {
			best = r;
			best_v = v;
		}
	}
	return best;
}

/* ---- scores ---- */

static int score(uct *u, ms_dsl_prog *p, double *out)
{
	int rc = syn_eval1(u->s, p, u->kind, 1, out);
	if (rc != 0)
		return rc;
	if (u->best_score < 0 || *out > u->best_score) {
		if ((rc = ms_dsl_prog_copy(u->best, p)) < 0)
			return rc;
		u->best_score = *out;
		if (u->psi_on_improve) {
			double psi;
			if ((rc = syn_eval1(u->s, p, MS_SYNTH_PSI, 0, &psi)) != 0)
				return rc;
			if (u->psi_best_score < 0 || psi > u->psi_best_score) {
				if ((rc = ms_dsl_prog_copy(u->psi_best, p)) < 0)
					return rc;
				u->psi_best_score = psi;
			}
		}
	}
	return 0;
}

/* full := the node's program with every hole replaced by its filler. */
static int assemble(uct *u, const ms_dsl_prog *partial)
{
	int rc = ms_dsl_prog_copy(u->full, partial);
	for (int i = u->n_fill - 1; rc == 0 && i >= 0; i--)
		rc = ms_dsl_replace(u->full, u->holes[i], u->fill[i], 0);
	return rc;
}

static int reserve_fill(uct *u, int n)
{
	ms_synth *s = u->s;
	if (n <= u->cap_fill)
		return 0;
	/* cap_fill counts the programs made: both arrays grow from there, alike */
	int cap = u->cap_fill;
	const ms_vec_col cols[] = {MS_VEC_COL(u->fill), MS_VEC_COL(u->holes)};
	if (ms_vec_grow_cols(s->ctx, &cap, n, cols, 2) < 0)
		return ms_ctx_error(s->ctx, MS_ENOMEM, "UCT: out of memory");
	for (int i = u->cap_fill; i < cap; i++)
		u->fill[i] = NULL;
	for (int i = u->cap_fill; i < cap; i++) {
		int rc = syn_prog_new(s, &u->fill[i]);
		if (rc < 0) {
			u->cap_fill = i;
			return rc;
		}
	}
	u->cap_fill = cap;
	return 0;
}

/*
 * The rollout of the code's "-sim_function SA": complete the node's holes,
 * score the result, then one annealing pass whose neighbours regenerate
 * one node (uniform over every node filled into a hole) and whose
 * temperature after the i-th neighbour is t1 / (1 + alpha * i). Returns
 * the best score seen in *out.
 */
static int rollout(uct *u, const uct_node *node, double *out)
{
	ms_synth *s = u->s;
	const ms_synth_options *o = &s->o;
	const ms_dsl_prog *partial = node->prog;
	const ms_dsl_sym *sym = ms_dsl_prog_nodes(partial);
	int n = ms_dsl_prog_len(partial), rc, count = 0;
	u->n_fill = 0;
	for (int i = 0; i < n; i++)
		if (ms_dsl_is_hole(sym[i])) {
			if ((rc = reserve_fill(u, u->n_fill + 1)) < 0)
				return rc;
			u->holes[u->n_fill++] = i;
		}
	for (int i = 0; i < u->n_fill; i++) {
		if ((rc = lone_hole(u->fill[i], ms_dsl_hole_nt(sym[u->holes[i]]))) < 0 ||
		    (rc = complete(u, u->fill[i], &count)) < 0)
			return rc;
	}
	double cur, next;
	if ((rc = assemble(u, partial)) < 0 || (rc = score(u, u->full, &cur)) != 0)
		return rc;
	*out = cur;
	if (u->n_fill == 0 || !o->uct_rollout_sa)
		return 0;
	double t = o->sa_t1;
	for (long long it = 1; t > o->sa_eps; it++) {
		int total = 0;
		for (int i = 0; i < u->n_fill; i++)
			total += ms_dsl_prog_len(u->fill[i]);
		int r = syn_below(s, total), f = 0;
		while (r >= ms_dsl_prog_len(u->fill[f]))
			r -= ms_dsl_prog_len(u->fill[f++]);
		int sub_count = -1; /* the code draws the slot's production before its completion counts */
		if ((rc = ms_dsl_prog_copy(u->old, u->fill[f])) < 0 ||
		    (rc = lone_hole(u->sub, ms_dsl_node_nt(u->fill[f], r))) < 0 ||
		    (rc = complete(u, u->sub, &sub_count)) < 0 || (rc = ms_dsl_replace(u->fill[f], r, u->sub, 0)) < 0)
			return rc;
		if ((rc = assemble(u, partial)) < 0 || (rc = score(u, u->full, &next)) != 0)
			return rc;
		if (next > *out)
			*out = next;
		double p = exp(o->sa_beta * (next - cur) / t);
		if (syn_uniform(s) < (p > 1 ? 1 : p)) {
			cur = next;
		} else {
			ms_dsl_prog *tmp = u->fill[f];
			u->fill[f] = u->old;
			u->old = tmp;
		}
		t = o->sa_t1 / (1 + o->sa_alpha * (double)it);
	}
	return 0;
}

/* ---- the search ---- */

static int uct_iterate(uct *u)
{
	ms_synth *s = u->s;
	int rc;
	for (;;) {
		if ((rc = syn_check(s, u->kind)) != 0)
			return rc;
		if ((rc = syn_idle(s)) != 0)
			return rc; /* every iteration met cached programs only: a finite space, fully explored */
		int id = 0, r = select_rule(u, &u->node.v[0]);
		double v;
		while (u->node.v[id].e[r].child >= 0) {
			id = u->node.v[id].e[r].child;
			if (u->node.v[id].hole < 0)
				break;
			r = select_rule(u, &u->node.v[id]);
		}
		if (u->node.v[id].hole < 0) {
			if ((rc = score(u, u->node.v[id].prog, &v)) != 0)
				return rc;
			backprop(u, id, v);
			continue;
		}
		int child;
		if ((rc = expand(u, id, r, &child)) < 0)
			return rc;
		if ((rc = rollout(u, &u->node.v[child], &v)) != 0)
			return rc;
		backprop(u, child, v);
	}
}

/* Tree nodes down the derivation of complete program `target`, backed up with `v`. */
static int branch(uct *u, const ms_dsl_prog *target, double v)
{
	const ms_dsl_sym *tsym = ms_dsl_prog_nodes(target);
	const int32_t *tend = ms_dsl_prog_ends(target);
	int id = 0, rc;
	while (u->node.v[id].hole >= 0) {
		const uct_node *n = &u->node.v[id];
		const ms_dsl_sym *psym = ms_dsl_prog_nodes(n->prog);
		int ti = 0;
		for (int pi = 0; pi < n->hole; pi++)
			ti = ms_dsl_is_hole(psym[pi]) ? tend[ti] : ti + 1;
		int r = 0;
		while (r < n->n_rules && n->rules[r] != tsym[ti])
			r++;
		if (r == n->n_rules)
			return ms_ctx_error(u->s->ctx, MS_EINVAL, "UCT: the sketch's production %s is no alternative of its slot",
					    ms_dsl_prod_name(u->g, tsym[ti]));
		if (n->e[r].child >= 0) {
			id = n->e[r].child;
			continue;
		}
		int child;
		if ((rc = expand(u, id, r, &child)) < 0)
			return rc;
		id = child;
	}
	backprop(u, id, v);
	return 0;
}

static void uct_free(uct *u)
{
	ms_ctx *ctx = u->s->ctx;
	tree_clear(u);
	ms_vec_dispose(ctx, &u->node);
	ms_arena_free(u->edges);
	ms_arena_free(u->tab);
	ms_dsl_prog_free(u->best);
	ms_dsl_prog_free(u->psi_best);
	ms_dsl_prog_free(u->full);
	ms_dsl_prog_free(u->sub);
	ms_dsl_prog_free(u->old);
	for (int i = 0; i < u->cap_fill; i++)
		ms_dsl_prog_free(u->fill[i]);
	ms_ctx_mfree(ctx, u->fill);
	ms_ctx_mfree(ctx, u->holes);
}

static int uct_init(uct *u, ms_synth *s)
{
	memset(u, 0, sizeof *u);
	u->s = s;
	u->g = s->pb->grammar;
	u->best_score = u->psi_best_score = -1;
	int rc;
	if ((rc = ms_arena_new(&u->edges, s->ctx, 0)) < 0 || (rc = ms_arena_new(&u->tab, s->ctx, 0)) < 0 || (rc = tables(u)) < 0 || (rc = syn_prog_new(s, &u->best)) < 0 || (rc = syn_prog_new(s, &u->psi_best)) < 0 ||
	    (rc = syn_prog_new(s, &u->full)) < 0 || (rc = syn_prog_new(s, &u->sub)) < 0 ||
	    (rc = syn_prog_new(s, &u->old)) < 0)
		return rc;
	return 0;
}

/* A fresh search of `kind`: new tree, new cache, no best. */
static int uct_reset(uct *u, int kind)
{
	u->kind = kind;
	u->best_score = u->psi_best_score = -1;
	u->s->idle = 0;
	syn_cache_dispose(&u->s->cache[kind]);
	return new_root(u);
}

int syn_run_uct(ms_synth *s)
{
	uct u;
	int rc = uct_init(&u, s);
	if (rc == 0)
		rc = uct_reset(&u, MS_SYNTH_PSI);
	syn_phase(s, MS_SYNTH_PHASE_SEARCH, 0, 0, 0);
	if (rc == 0 && s->o.initial) {
		ms_dsl_prog *p;
		double v;
		if ((rc = ms_dsl_prog_clone(&p, s->o.initial)) == 0) {
			if ((rc = score(&u, p, &v)) == 0)
				rc = branch(&u, p, v);
			ms_dsl_prog_free(p);
		}
	}
	if (rc == 0)
		rc = uct_iterate(&u);
	uct_free(&u);
	return rc == SYN_PHASE ? 0 : rc;
}

/*
 * Sketch-UCT as the code runs it: `sketch_runs` (3) UCT searches on C,
 * each with its share of the sketch budget and its own tree and cache;
 * each run's best program by C (or, as the paper, the best by Psi among
 * those that improved C) is scored with Psi; the BR search starts from a
 * tree holding the derivation of the best of those, backed up with its
 * Psi, and searches on Psi with a fresh cache.
 */
int syn_run_sketch_uct(ms_synth *s)
{
	const ms_synth_options *o = &s->o;
	int runs = o->sketch_runs > 0 ? o->sketch_runs : 3;
	ms_dsl_prog *sketch = NULL;
	double sketch_psi = -1;
	long long c0 = s->evals[MS_SYNTH_C];
	uct u;
	int rc = uct_init(&u, s);
	if (rc == 0)
		rc = syn_prog_new(s, &sketch);
	u.psi_on_improve = o->sketch_psi == MS_SYNTH_SKETCH_PSI_IMPROVEMENTS;
	for (int r = 0; rc == 0 && r < runs; r++) {
		long long limit = s->sketch_c_budget > 0 ? c0 + s->sketch_c_budget * (r + 1) / runs : 0;
		double deadline = s->sketch_seconds > 0 ? s->sketch_seconds * (r + 1) / runs : 0;
		if ((rc = uct_reset(&u, MS_SYNTH_C)) < 0)
			break;
		syn_phase(s, MS_SYNTH_PHASE_SKETCH, r, limit, deadline);
		rc = uct_iterate(&u);
		if (rc == SYN_PHASE)
			rc = 0;
		syn_phase(s, MS_SYNTH_PHASE_SKETCH, r, 0, 0);
		if (rc == 0 && !u.psi_on_improve && u.best_score >= 0) {
			if ((rc = ms_dsl_prog_copy(u.psi_best, u.best)) == 0)
				rc = syn_eval1(s, u.psi_best, MS_SYNTH_PSI, 0, &u.psi_best_score);
		}
		if (rc == 0 && u.psi_best_score >= 0 && (sketch_psi < 0 || u.psi_best_score > sketch_psi)) {
			rc = ms_dsl_prog_copy(sketch, u.psi_best);
			sketch_psi = u.psi_best_score;
		}
	}
	u.psi_on_improve = 0;
	if (rc == 0)
		rc = uct_reset(&u, MS_SYNTH_PSI);
	syn_phase(s, MS_SYNTH_PHASE_BR, 0, 0, 0);
	if (rc == 0 && sketch_psi >= 0) {
		u.best_score = sketch_psi;
		rc = ms_dsl_prog_copy(u.best, sketch);
		if (rc == 0)
			rc = branch(&u, sketch, sketch_psi);
	}
	if (rc == 0)
		rc = uct_iterate(&u);
	ms_dsl_prog_free(sketch);
	uct_free(&u);
	return rc == SYN_PHASE ? 0 : rc;
}

/* ---- UCT's options ---- */

static void uct_defaults(ms_synth_options *o)
{
	o->uct_c = 10;
	o->uct_ucb = MS_SYNTH_UCB_CODE;
	o->uct_hole = MS_SYNTH_HOLE_SHALLOWEST;
	o->uct_completion = MS_SYNTH_COMPLETE_CODE;
	o->uct_expansions = 10;
	o->uct_rollout_sa = 1;
}

static int uct_check(ms_ctx *ctx, const ms_synth_problem *pb, const ms_synth_options *o)
{
	(void)pb;
	if (!(o->uct_c >= 0) || o->uct_ucb < 0 || o->uct_ucb > MS_SYNTH_UCB_PAPER || o->uct_hole < 0 ||
	    o->uct_hole > MS_SYNTH_HOLE_LEFTMOST || o->uct_completion < 0 ||
	    o->uct_completion > MS_SYNTH_COMPLETE_GENERATOR || o->uct_expansions < 0)
		return ms_ctx_error(ctx, MS_EINVAL, "search options: bad UCT settings");
	return 0;
}

static int uct_header(ms_synth *s, ms_buf *b)
{
	const ms_synth_options *o = &s->o;
	return ms_buf_printf(b, "uct %.17g %d %d %d %d %d\n", o->uct_c, o->uct_ucb, o->uct_hole, o->uct_completion,
			     o->uct_expansions, o->uct_rollout_sa);
}

static const ms_synth_knob uct_knobs[] = {
	{ "--uct-c", MS_SYNTH_KNOB_REAL, 0, 1e9, 0, offsetof(ms_synth_options, uct_c),
	  SYN_ALGO(MS_SYNTH_UCT) | SYN_ALGO(MS_SYNTH_SKETCH_UCT), NULL, "X", "UCT's exploration constant (10)" },
};

const syn_opts_part syn_uct_part = { uct_defaults, uct_check, uct_header, NULL, uct_knobs,
				     sizeof uct_knobs / sizeof *uct_knobs };
