/* Machines: the current state's legal moves, terminal flag and goals, and
 * next states, from the ground network or, above the grounding bound, from
 * first-order evaluation of the rules on a per-machine fact store. */
#include <stdio.h>
#include <string.h>

#include "gdl_internal.h"
#include "gdl_net.h"

struct ms_gdl_machine {
	ms_ctx *ctx;
	ms_gdl *g;
	uint8_t *val;     /* grounded: one byte per proposition */
	gdl_store fo;     /* fallback: dynamic facts of the current state */
	int *fo_rules;    /* fallback: non-synthetic rules sorted by component */
	int *fo_start;    /* per component of graph B: first rule */
	int *legal;       /* per role, a slice of nmoves: legal move ids */
	int *nlegal;
	int terminal;
	uint64_t *state;
};

void ms_gdl_machine_free(ms_gdl_machine *m)
{
	if (!m)
		return;
	ms_ctx *ctx = m->ctx;
	ms_ctx_mfree(ctx, m->val);
	if (m->fo.atoms)
		gdl_store_free(ctx, &m->fo);
	ms_ctx_mfree(ctx, m->fo_rules);
	ms_ctx_mfree(ctx, m->fo_start);
	ms_ctx_mfree(ctx, m->legal);
	ms_ctx_mfree(ctx, m->nlegal);
	ms_ctx_mfree(ctx, m->state);
	ms_ctx_mfree(ctx, m);
}

static int fallback_init(ms_gdl_machine *m)
{
	ms_gdl *g = m->g;
	int rc = gdl_store_init(m->ctx, &m->fo, g->nrels);
	if (rc)
		return rc;
	m->fo_rules = ms_ctx_malloc(m->ctx, (size_t)(g->nrules + 1) * sizeof *m->fo_rules);
	m->fo_start = ms_ctx_calloc(m->ctx, (size_t)g->ncomp_b + 1, sizeof *m->fo_start);
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

int ms_gdl_machine_new(ms_ctx *ctx, const ms_gdl *gc, ms_gdl_machine **out)
{
	if (!ctx || !gc || !out)
		return ctx ? ms_ctx_error(ctx, MS_EINVAL, "ms_gdl_machine_new: NULL argument") : MS_EINVAL;
	ms_gdl_machine *m = ms_ctx_calloc(ctx, 1, sizeof *m);
	if (!m)
		return MS_ENOMEM;
	m->ctx = ctx;
	m->g = (ms_gdl *)gc; /* the fallback reads terms and rules, never changes them */
	int rc = MS_OK, nm = gc->move_term.n;
	m->legal = ms_ctx_malloc(ctx, (size_t)(nm + 1) * sizeof *m->legal);
	m->nlegal = ms_ctx_calloc(ctx, (size_t)gc->nroles, sizeof *m->nlegal);
	m->state = ms_ctx_calloc(ctx, ms_gdl_state_words(gc), sizeof *m->state);
	if (!m->legal || !m->nlegal || !m->state)
		rc = MS_ENOMEM;
	else if (gc->net)
		rc = (m->val = ms_ctx_calloc(ctx, (size_t)gc->net->nprops, 1)) ? MS_OK : MS_ENOMEM;
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

int ms_gdl_machine_set(ms_gdl_machine *m, const uint64_t *state)
{
	const ms_gdl *g = m->g;
	memcpy(m->state, state, ms_gdl_state_words(g) * sizeof *state);
	if (m->val) {
		const gdl_net *n = g->net;
		memset(m->val, 0, (size_t)n->nprops);
		m->val[0] = 1;
		for (int f = 0; f < g->fluents.n; f++)
			if (ms_gdl_state_has(state, f))
				m->val[n->prop_of_term[g->fluent_atom.v[f]]] = 1;
		gdl_net_run(n, m->val, 0, n->phase2);
	} else {
		int rc = fo_run(m, 0, NULL);
		if (rc)
			return rc;
	}
	memset(m->nlegal, 0, (size_t)g->nroles * sizeof *m->nlegal);
	int k = 0; /* moves are sorted by role: each role's legal moves follow the previous role's */
	for (int mv = 0; mv < g->move_term.n; mv++)
		if (holds(m, g->r_legal, g->legal_atom.v[mv])) {
			m->legal[k++] = mv;
			m->nlegal[g->move_role.v[mv]]++;
		}
	int terminal_term = gdl_term_find(&g->terms, g->rels[g->r_terminal].sym, -1, NULL);
	m->terminal = holds(m, g->r_terminal, terminal_term);
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
		const gdl_net *n = g->net;
		/* clear what the previous move derived, then set this move's does */
		for (int s = n->phase2; s < n->nseg; s++)
			for (int pc = n->seg.v[2 * s]; pc < n->seg.v[2 * s + 2]; pc += 2 + n->code.v[pc + 1])
				m->val[n->code.v[pc]] = 0;
		for (int mv = 0; mv < g->move_term.n; mv++)
			m->val[n->prop_of_term[g->does_atom.v[mv]]] = 0;
		for (int r = 0; r < g->nroles; r++)
			m->val[n->prop_of_term[g->does_atom.v[joint[r]]]] = 1;
		gdl_net_run(n, m->val, n->phase2, n->nseg);
	} else {
		int rc = fo_run(m, 1, joint);
		if (rc)
			return rc;
	}
	for (int f = 0; f < g->fluents.n; f++)
		if (holds(m, g->r_next, g->next_atom.v[f]))
			next[f >> 6] |= 1ull << (f & 63);
	return MS_OK;
}
