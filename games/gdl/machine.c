/* Machines: the current state's legal moves, terminal flag and goals, and
 * next states, from the ground network or, above the grounding bound, from
 * first-order evaluation of the rules on a per-machine fact store: bottom-up
 * by components, or top-down from the queries (topdown.c) after a
 * goal-directed load or an analysis past its budget. */
#include <stdio.h>
#include <string.h>

#include "gdl_internal.h"
#include "microsynth/arena.h"
#include "gdl_net.h"

struct ms_gdl_machine {
	ms_ctx *ctx;
	ms_gdl *g;
	ms_arena *mem;    /* every array below but the fallback's store: sized once, freed at once */
	uint8_t *val;     /* grounded: one byte per proposition */
	int *dirty;       /* grounded: what the network set since the state was set */
	int nstate, ndirty; /* dirty[0, nstate): by the state; [nstate, ndirty): by the move */
	int *fluent_prop, *next_prop; /* grounded: per fluent, (true f) and (next f) or -1 */
	int *legal_prop, *does_prop;  /* grounded: per move, (legal r m) or -1, (does r m) */
	int *slots;       /* per role: the does slot of its move this step */
	int terminal_prop;
	gdl_store fo;     /* fallback: dynamic facts of the current state */
	int *fo_rules;    /* fallback: non-synthetic rules sorted by component */
	int *fo_start;    /* per component of graph B: first rule */
	gdl_td *td;       /* top-down fallback (g->goal_directed or g->top_down): queries, not components */
	int *legal;       /* per role, a slice of nmoves: legal move ids */
	int *nlegal;
	int terminal;
	uint64_t *state;
};

void ms_gdl_machine_free(ms_gdl_machine *m)
{
	if (!m)
		return;
	if (m->fo.atoms)
		gdl_store_free(m->ctx, &m->fo);
	gdl_td_free(m->td);
	ms_arena_free(m->mem);
	ms_ctx_mfree(m->ctx, m);
}

static int fallback_init(ms_gdl_machine *m)
{
	ms_gdl *g = m->g;
	int rc = gdl_store_init(m->ctx, &m->fo, g->nrels);
	if (rc || ((g->goal_directed || g->top_down) && (rc = gdl_td_new(m->ctx, &m->td, g))))
		return rc;
	m->fo_rules = ms_arena_alloc(m->mem, (size_t)(g->nrules + 1) * sizeof *m->fo_rules);
	m->fo_start = ms_arena_calloc(m->mem, (size_t)g->ncomp_b + 1, sizeof *m->fo_start);
	if (!m->fo_rules || !m->fo_start)
		return MS_ENOMEM;
	int n = 0;
	for (int c = 0; c < g->ncomp_b; c++) {
		m->fo_start[c] = n;
		for (int i = 0; i < g->nrules; i++)
			if (!g->rules[i].synthetic && g->rels[g->rules[i].head_rel].scc_b == c)
				m->fo_rules[n++] = i;
	}
	m->fo_start[g->ncomp_b] = n;
	return MS_OK;
}

/* The propositions the machine reads and writes, looked up once. */
static int net_init(ms_gdl_machine *m)
{
	const ms_gdl *g = m->g;
	const gdl_net *n = g->net;
	int nf = g->fluents.n, nm = g->move_term.n;
	m->val = ms_arena_calloc(m->mem, (size_t)n->nprops, 1);
	m->dirty = ms_arena_alloc(m->mem, (size_t)(n->nheads + 1) * sizeof *m->dirty);
	m->fluent_prop = ms_arena_alloc(m->mem, (size_t)(nf + 1) * sizeof *m->fluent_prop);
	m->next_prop = ms_arena_alloc(m->mem, (size_t)(nf + 1) * sizeof *m->next_prop);
	m->legal_prop = ms_arena_alloc(m->mem, (size_t)(nm + 1) * sizeof *m->legal_prop);
	m->does_prop = ms_arena_alloc(m->mem, (size_t)(nm + 1) * sizeof *m->does_prop);
	m->slots = ms_arena_calloc(m->mem, (size_t)g->nroles, sizeof *m->slots);
	if (!m->val || !m->dirty || !m->fluent_prop || !m->next_prop || !m->legal_prop || !m->does_prop || !m->slots)
		return MS_ENOMEM;
	m->val[0] = 1;
	for (int f = 0; f < nf; f++) {
		m->fluent_prop[f] = n->prop_of_term[g->fluent_atom.v[f]];
		m->next_prop[f] = g->next_atom.v[f] < 0 ? -1 : n->prop_of_term[g->next_atom.v[f]];
	}
	for (int mv = 0; mv < nm; mv++) {
		m->legal_prop[mv] = g->legal_atom.v[mv] < 0 ? -1 : n->prop_of_term[g->legal_atom.v[mv]];
		m->does_prop[mv] = n->prop_of_term[g->does_atom.v[mv]];
	}
	int tt = gdl_term_find(&g->terms, g->rels[g->r_terminal].sym, -1, NULL);
	m->terminal_prop = tt < 0 ? -1 : n->prop_of_term[tt];
	return MS_OK;
}

int ms_gdl_machine_new(ms_ctx *ctx, ms_gdl_machine **out, const ms_gdl *gc)
{
	if (!ctx || !gc || !out)
		return ctx ? ms_ctx_error(ctx, MS_EINVAL, "ms_gdl_machine_new: NULL argument") : MS_EINVAL;
	ms_gdl_machine *m = ms_ctx_calloc(ctx, 1, sizeof *m);
	if (!m)
		return MS_ENOMEM;
	m->ctx = ctx;
	m->g = (ms_gdl *)gc; /* the fallback reads terms and rules, never changes them */
	int rc = ms_arena_new(&m->mem, ctx, 0), nm = gc->move_term.n;
	if (rc) {
		ms_ctx_mfree(ctx, m);
		return rc;
	}
	m->legal = ms_arena_alloc(m->mem, (size_t)(nm + 1) * sizeof *m->legal);
	m->nlegal = ms_arena_calloc(m->mem, (size_t)gc->nroles, sizeof *m->nlegal);
	m->state = ms_arena_calloc(m->mem, ms_gdl_state_words(gc), sizeof *m->state);
	if (!m->legal || !m->nlegal || !m->state)
		rc = MS_ENOMEM;
	else if (gc->net)
		rc = net_init(m);
	else
		rc = fallback_init(m);
	if (rc) {
		ms_gdl_machine_free(m);
		return ms_ctx_error(ctx, rc, "ms_gdl_machine_new: out of memory");
	}
	*out = m;
	return MS_OK;
}

static int in_st(const gdl_store *st, int t)
{
	return t >= 0 && t < st->tcap && st->in[t];
}

/* Atom t (of relation rel) holds after the last evaluation. */
static int holds(const ms_gdl_machine *m, int rel, int t)
{
	if (t < 0)
		return 0;
	if (m->val) {
		int p = m->g->net->prop_of_term[t];
		return p >= 0 && m->val[p];
	}
	return in_st(m->g->rels[rel].dynamic ? &m->fo : &m->g->st, t);
}

/* Fallback: evaluates the dynamic components needing a state (phase 0) or a move (1). */
static int fo_run(ms_gdl_machine *m, int phase, const int *joint)
{
	ms_gdl *g = m->g;
	int rels[256], nr = 0, rc;
	for (int r = 0; r < g->nrels; r++)
		if (g->rels[r].dynamic && (phase == 0 || g->rels[r].on_does)) {
			if (nr == 256) {
				gdl_store_clear(&m->fo, rels, nr);
				nr = 0;
			}
			rels[nr++] = r;
		}
	gdl_store_clear(&m->fo, rels, nr);
	int added;
	if (phase == 0) {
		for (int f = 0; f < g->fluents.n; f++)
			if (ms_gdl_state_has(m->state, f) &&
			    (rc = gdl_store_add(m->ctx, &m->fo, &g->terms, g->r_true, g->fluent_atom.v[f], &added)))
				return rc;
	} else {
		for (int r = 0; r < g->nroles; r++)
			if ((rc = gdl_store_add(m->ctx, &m->fo, &g->terms, g->r_does, g->does_atom.v[joint[r]], &added)))
				return rc;
	}
	if (m->td)
		return gdl_td_run(m->td, &m->fo, phase);
	for (int c = 0; c < g->ncomp_b; c++) {
		int n = m->fo_start[c + 1] - m->fo_start[c];
		if (!n)
			continue;
		const gdl_rel *h = &g->rels[g->rules[m->fo_rules[m->fo_start[c]]].head_rel];
		if (!h->dynamic || h->on_does != phase)
			continue;
		if ((rc = gdl_eval_component(g, &m->fo, c, 1, 0, m->fo_rules + m->fo_start[c], n)))
			return rc;
	}
	return MS_OK;
}

/* Undoes what the network derived, sets the state's fluents, runs the state phase. */
static void net_set(ms_gdl_machine *m, const uint64_t *state)
{
	const ms_gdl *g = m->g;
	for (int i = 0; i < m->ndirty; i++)
		m->val[m->dirty[i]] = 0;
	for (int f = 0; f < g->fluents.n; f++)
		m->val[m->fluent_prop[f]] = (uint8_t)ms_gdl_state_has(state, f);
	m->nstate = m->ndirty = gdl_net_state(g->net, m->val, m->dirty);
}

/* The move phase for a joint move: only the slots of the moves played run. */
static void net_next(ms_gdl_machine *m, const int *joint, uint64_t *next)
{
	const ms_gdl *g = m->g;
	for (int i = m->nstate; i < m->ndirty; i++)
		m->val[m->dirty[i]] = 0;
	for (int r = 0; r < g->nroles; r++) {
		int p = m->does_prop[joint[r]];
		m->val[p] = 1;
		m->slots[r] = g->net->does_slot[p];
	}
	m->ndirty = m->nstate + gdl_net_move(g->net, m->val, m->slots, g->nroles, m->dirty + m->nstate);
	for (int r = 0; r < g->nroles; r++)
		m->val[m->does_prop[joint[r]]] = 0;
	for (int f = 0; f < g->fluents.n; f++)
		if (m->next_prop[f] >= 0 && m->val[m->next_prop[f]])
			next[f >> 6] |= 1ull << (f & 63);
}

int ms_gdl_machine_set(ms_gdl_machine *m, const uint64_t *state)
{
	const ms_gdl *g = m->g;
	memcpy(m->state, state, ms_gdl_state_words(g) * sizeof *state);
	if (m->val)
		net_set(m, state);
	else {
		int rc = fo_run(m, 0, NULL);
		if (rc)
			return rc;
	}
	memset(m->nlegal, 0, (size_t)g->nroles * sizeof *m->nlegal);
	int k = 0; /* moves are sorted by role: each role's legal moves follow the previous role's */
	for (int mv = 0; mv < g->move_term.n; mv++)
		if (m->val ? m->legal_prop[mv] >= 0 && m->val[m->legal_prop[mv]]
			   : holds(m, g->r_legal, g->legal_atom.v[mv])) {
			m->legal[k++] = mv;
			m->nlegal[g->move_role.v[mv]]++;
		}
	if (m->val)
		m->terminal = m->terminal_prop >= 0 && m->val[m->terminal_prop];
	else
		m->terminal = holds(m, g->r_terminal, gdl_term_find(&g->terms, g->rels[g->r_terminal].sym, -1, NULL));
	return MS_OK;
}

int ms_gdl_terminal(const ms_gdl_machine *m)
{
	return m->terminal;
}

int ms_gdl_legal(const ms_gdl_machine *m, int r, const int **moves)
{
	int off = 0;
	for (int i = 0; i < r; i++)
		off += m->nlegal[i];
	*moves = m->legal + off;
	return m->nlegal[r];
}

/* "(cell 1 1 x) (control red)" into buf, truncated. */
static void state_text(const ms_gdl_machine *m, char *buf, size_t size)
{
	size_t pos = 0;
	buf[0] = 0;
	for (int f = 0; f < m->g->fluents.n && pos + 1 < size; f++) {
		if (!ms_gdl_state_has(m->state, f))
			continue;
		if (pos)
			buf[pos++] = ' ';
		int len = ms_gdl_fluent_text(m->g, f, buf + pos, size - pos);
		pos += (size_t)len < size - pos ? (size_t)len : size - pos - 1;
	}
	if (!pos)
		snprintf(buf, size, "(empty)");
}

int ms_gdl_goal(ms_gdl_machine *m, int r, int *value)
{
	const ms_gdl *g = m->g;
	int vals[8], k = 0;
	for (int i = 0; i < g->goal_atom.n; i++) {
		if (g->goal_role.v[i] != r || !holds(m, g->r_goal, g->goal_atom.v[i]))
			continue;
		int dup = 0;
		for (int j = 0; j < k && j < 8; j++)
			dup |= vals[j] == g->goal_val.v[i];
		if (!dup) {
			if (k < 8)
				vals[k] = g->goal_val.v[i];
			k++;
		}
	}
	if (k == 1) {
		*value = vals[0];
		return MS_OK;
	}
	char st[300];
	state_text(m, st, sizeof st);
	return ms_ctx_error(m->ctx, MS_EINVAL, "%s: goal of role %s is ill defined (%d values) in state %s", g->name,
			    g->role_name[r], k, st);
}

int ms_gdl_next(ms_gdl_machine *m, const int *joint, uint64_t *next)
{
	const ms_gdl *g = m->g;
	for (int r = 0; r < g->nroles; r++) {
		const int *mv;
		int n = ms_gdl_legal(m, r, &mv), ok = 0;
		for (int i = 0; i < n && !ok; i++)
			ok = mv[i] == joint[r];
		if (!ok)
			return ms_ctx_error(m->ctx, MS_EILLEGAL, "%s: move %d is not legal for role %s", g->name,
					    joint[r], g->role_name[r]);
	}
	size_t words = ms_gdl_state_words(g);
	memset(next, 0, words * sizeof *next);
	if (m->val) {
		net_next(m, joint, next);
		return MS_OK;
	}
	int rc = fo_run(m, 1, joint);
	if (rc)
		return rc;
	for (int f = 0; f < g->fluents.n; f++)
		if (holds(m, g->r_next, g->next_atom.v[f]))
			next[f >> 6] |= 1ull << (f & 63);
	return MS_OK;
}
