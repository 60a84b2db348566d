/* Loading a rule set: parse, check, analyse domains, ground (or fall back),
 * then the tables of roles, fluents, moves and goals the machines read. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

#include "core/buf.h"
#include "gdl_internal.h"
#include "gdl_net.h"
#include "core/opts.h"
#include "core/clock.h"

void ms_gdl_free(ms_gdl *g)
{
	if (!g)
		return;
	ms_ctx *ctx = g->ctx;
	gdl_net_free(g);
	gdl_store_free(ctx, &g->st);
	for (int i = 0; i < g->syms.n; i++)
		ms_ctx_mfree(ctx, g->syms.name[i]);
	ms_ctx_mfree(ctx, g->syms.name);
	ms_ctx_mfree(ctx, g->syms.hash);
	gdl_terms_free(ctx, &g->terms);
	gdl_ivec *vecs[] = { &g->pargs, &g->varsyms, &g->consts, &g->fluents, &g->fluent_atom,
			     &g->next_atom, &g->move_term, &g->move_role, &g->does_atom, &g->legal_atom,
			     &g->goal_atom, &g->goal_role, &g->goal_val, &g->gr_head, &g->gr_start, &g->gr_lits };
	for (size_t i = 0; i < sizeof vecs / sizeof vecs[0]; i++)
		gdl_ivec_free(ctx, vecs[i]);
	ms_ctx_mfree(ctx, g->pn);
	ms_ctx_mfree(ctx, g->lits);
	ms_ctx_mfree(ctx, g->rules);
	ms_ctx_mfree(ctx, g->rels);
	ms_ctx_mfree(ctx, g->role_term);
	ms_ctx_mfree(ctx, g->role_name);
	ms_ctx_mfree(ctx, g->initial);
	ms_ctx_mfree(ctx, g);
}

/* The relations GDL gives a meaning to exist even when the rules never mention them. */
static int known_relations(ms_gdl *g)
{
	static const struct {
		const char *name;
		int arity;
		size_t off;
	} k[] = {
		{ "role", 1, offsetof(ms_gdl, r_role) },   { "init", 1, offsetof(ms_gdl, r_init) },
		{ "true", 1, offsetof(ms_gdl, r_true) },   { "next", 1, offsetof(ms_gdl, r_next) },
		{ "legal", 2, offsetof(ms_gdl, r_legal) }, { "does", 2, offsetof(ms_gdl, r_does) },
		{ "goal", 2, offsetof(ms_gdl, r_goal) },   { "terminal", -1, offsetof(ms_gdl, r_terminal) },
	};
	for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
		int sym, rc;
		if ((rc = gdl_sym_intern(g->ctx, &g->syms, k[i].name, strlen(k[i].name), &sym)) ||
		    (rc = gdl_rel_get(g, sym, k[i].arity, 0, (int *)((char *)g + k[i].off))))
			return rc;
	}
	return MS_OK;
}

typedef struct sortrec {
	int key;
	char *text;
	int a, b;
} sortrec;

static int cmp_sortrec(const void *x, const void *y)
{
	const sortrec *p = x, *q = y;
	if (p->key != q->key)
		return p->key < q->key ? -1 : 1;
	return strcmp(p->text, q->text);
}

static char *term_string(ms_gdl *g, int t)
{
	int len = gdl_term_text(&g->terms, &g->syms, t, NULL, 0);
	char *s = ms_ctx_malloc(g->ctx, (size_t)len + 1);
	if (s)
		gdl_term_text(&g->terms, &g->syms, t, s, (size_t)len + 1);
	return s;
}

static int arg(const ms_gdl *g, int t, int i)
{
	return g->terms.pool.v[g->terms.args[t] + i];
}

static int role_of_term(const ms_gdl *g, int t)
{
	for (int r = 0; r < g->nroles; r++)
		if (g->role_term[r] == t)
			return r;
	return -1;
}

static int lookup2(const ms_gdl *g, int rel, int a0, int a1)
{
	int args[2] = { a0, a1 };
	int t = gdl_term_find(&g->terms, g->rels[rel].sym, a1 < 0 ? 1 : 2, args);
	return t >= 0 && t < g->st.tcap && g->st.in[t] ? t : -1;
}

/* Fluents from the domain of true, moves from that of does, each sorted by text. */
static int build_tables(ms_gdl *g)
{
	int rc = MS_OK;
	for (int pass = 0; pass < 2 && !rc; pass++) {
		const gdl_ivec *a = &g->st.atoms[pass ? g->r_does : g->r_true];
		sortrec *s = ms_ctx_calloc(g->ctx, (size_t)a->n + 1, sizeof *s);
		int n = 0;
		if (!s)
			return MS_ENOMEM;
		for (int i = 0; i < a->n && !rc; i++) {
			int t = a->v[i], role = pass ? role_of_term(g, arg(g, t, 0)) : 0;
			if (role < 0)
				continue;
			s[n] = (sortrec){ role, term_string(g, arg(g, t, pass)), t, 0 };
			if (!s[n++].text)
				rc = MS_ENOMEM;
		}
		if (!rc)
			qsort(s, (size_t)n, sizeof *s, cmp_sortrec);
		for (int i = 0; i < n && !rc; i++) {
			int t = s[i].a, m = arg(g, t, pass);
			if (pass == 0) {
				if ((rc = gdl_ivec_push(g->ctx, &g->fluents, m)) ||
				    (rc = gdl_ivec_push(g->ctx, &g->fluent_atom, t)) ||
				    (rc = gdl_ivec_push(g->ctx, &g->next_atom, lookup2(g, g->r_next, m, -1))))
					break;
			} else if ((rc = gdl_ivec_push(g->ctx, &g->move_term, m)) ||
				   (rc = gdl_ivec_push(g->ctx, &g->move_role, s[i].key)) ||
				   (rc = gdl_ivec_push(g->ctx, &g->does_atom, t)) ||
				   (rc = gdl_ivec_push(g->ctx, &g->legal_atom, lookup2(g, g->r_legal, arg(g, t, 0), m)))) {
				break;
			}
		}
		for (int i = 0; i < n; i++)
			ms_ctx_mfree(g->ctx, s[i].text);
		ms_ctx_mfree(g->ctx, s);
	}
	return rc;
}

/* Goal atoms (role, value); a value must be a number. Initial state from init. */
static int build_goals_and_initial(ms_gdl *g)
{
	int rc;
	const gdl_ivec *a = &g->st.atoms[g->r_goal];
	for (int i = 0; i < a->n; i++) {
		int t = a->v[i], role = role_of_term(g, arg(g, t, 0)), v = arg(g, t, 1);
		if (role < 0)
			continue;
		const char *txt = g->syms.name[g->terms.sym[v]];
		char *end;
		errno = 0;
		long val = strtol(txt, &end, 10);
		if (g->terms.nargs[v] >= 0 || !*txt || *end || errno || val < -1000000 || val > 1000000)
			return ms_ctx_error(g->ctx, MS_EINVAL, "%s: a goal value of role %s is not a number: %s",
					    g->name, g->role_name[role], txt);
		if ((rc = gdl_ivec_push(g->ctx, &g->goal_atom, t)) || (rc = gdl_ivec_push(g->ctx, &g->goal_role, role)) ||
		    (rc = gdl_ivec_push(g->ctx, &g->goal_val, (int)val)))
			return rc;
	}
	g->words = (size_t)(g->fluents.n + 63) / 64;
	g->initial = ms_ctx_calloc(g->ctx, g->words ? g->words : 1, sizeof *g->initial);
	if (!g->initial)
		return MS_ENOMEM;
	for (int f = 0; f < g->fluents.n; f++)
		if (lookup2(g, g->r_init, g->fluents.v[f], -1) >= 0)
			g->initial[f >> 6] |= 1ull << (f & 63);
	return MS_OK;
}

/*
 * Starts the domain analysis over: goal-directed (the analysis leaves out what
 * queries can answer, topdown.c; the fallback evaluates states top-down; no
 * network) or plain again (everything as a first attempt would, unbudgeted).
 * Whatever the attempt before stored or grounded is dropped; its terms stay.
 */
static void restart(ms_gdl *g, int goal_dir, int why)
{
	gdl_ground_stop(g, why);
	gdl_store_free(g->ctx, &g->st);
	g->relax_steps = g->relax_work = 0;
	g->relax_terms0 = g->terms.n;
	g->goal_directed = goal_dir;
	if (goal_dir) {
		g->grounding = 0;
		g->rep = why;
		gdl_defer(g);
		return;
	}
	g->budgeted = 0;
	g->overflow = 0;
	g->ground_lits = 0;
	g->grounding = !g->opts.force_fallback;
	g->rep = g->opts.force_fallback ? MS_GDL_REP_FORCED : MS_GDL_REP_NETWORK;
	for (int r = 0; r < g->nrels; r++)
		g->rels[r].deferred = 0;
	for (int i = 0; i < g->nlits; i++)
		g->lits[i].dropped = 0;
}

int ms_gdl_parse(ms_ctx *ctx, ms_gdl **out, const char *text, size_t len, const char *name, const ms_gdl_options *opts)
{
	if (!ctx || !out || (!text && len))
		return ctx ? ms_ctx_error(ctx, MS_EINVAL, "ms_gdl_parse: NULL argument") : MS_EINVAL;
	if (opts && (opts->version < 1 || opts->version > MS_GDL_OPTIONS_VERSION))
		return ms_ctx_error(ctx, MS_EINVAL, "ms_gdl_parse: options version %u, expected 1 to %d",
				    opts->version, MS_GDL_OPTIONS_VERSION);
	*out = NULL;
	ms_gdl *g = ms_ctx_calloc(ctx, 1, sizeof *g);
	if (!g)
		return MS_ENOMEM;
	g->ctx = ctx;
	snprintf(g->name, sizeof g->name, "%s", name ? name : "<rules>");
	/* older callers' structs end before the fields their version lacks */
	static const size_t ends[] = { offsetof(ms_gdl_options, max_terms), offsetof(ms_gdl_options, ground_seconds),
				       offsetof(ms_gdl_options, goal_directed) };
	if (opts)
		memcpy(&g->opts, opts, ms_opts_size(opts->version, ends, sizeof ends / sizeof *ends, sizeof *opts));
	g->opts.version = MS_GDL_OPTIONS_VERSION;
	if (!(g->opts.ground_seconds >= 0)) { /* NaN too */
		ms_gdl_free(g);
		return ms_ctx_error(ctx, MS_EINVAL, "ms_gdl_parse: %s: ground_seconds %g, expected 0 (no bound) or more",
				    name ? name : "<rules>", opts->ground_seconds);
	}
	if (g->opts.max_terms <= 0)
		g->opts.max_terms = 50000000L;
	if (g->opts.ground_bound <= 0)
		g->opts.ground_bound = 4000000;
	if (g->opts.relax_bound <= 0)
		g->opts.relax_bound = 1000000000L;
	if (g->opts.goal_directed_steps <= 0)
		g->opts.goal_directed_steps = 10000000L;
	g->grounding = !g->opts.force_fallback;
	g->rep = g->opts.force_fallback ? MS_GDL_REP_FORCED : MS_GDL_REP_NETWORK;
	double t0 = ms_now();
	if (g->opts.ground_seconds > 0)
		g->deadline = t0 + g->opts.ground_seconds;
	int rc;
	if ((rc = known_relations(g)) || (rc = gdl_kif_parse(g, text, len)) || (rc = gdl_check(g)))
		goto fail;
	/* goal_directed 0: a plain analysis past its budget starts over goal-directed,
	 * and one past it again (chess: the widened domains cost more joins) plainly */
	g->budgeted = !g->opts.goal_directed;
	if (g->opts.goal_directed > 0)
		restart(g, 1, MS_GDL_REP_FORCED);
	if ((rc = gdl_relax(g)) == GDL_RETRY) {
		restart(g, 1, MS_GDL_REP_LARGE);
		if ((rc = gdl_relax(g)) == GDL_RETRY) {
			restart(g, 0, MS_GDL_REP_NETWORK);
			rc = gdl_relax(g);
			g->top_down = 1; /* unless it grounds, the fallback evaluates top-down all the same */
		}
	}
	if (rc)
		goto fail;
	if (!g->nroles) {
		rc = ms_ctx_error(ctx, MS_EINVAL, "%s: no role", g->name);
		goto fail;
	}
	if (g->grounding && !g->overflow && (rc = gdl_net_build(g)))
		goto fail;
	if (g->net && g->deadline > 0 && ms_now() >= g->deadline)
		gdl_ground_stop(g, MS_GDL_REP_TIME); /* built, but late: the caller's bound holds */
	gdl_ground_stop(g, MS_GDL_REP_NETWORK);      /* done: its ground rules live on in the network */
	g->load_s = ms_now() - t0;
	if ((rc = build_tables(g)) || (rc = build_goals_and_initial(g)) || (rc = gdl_choose(g)))
		goto fail;
	*out = g;
	return MS_OK;
fail:
	if (rc == MS_ENOMEM)
		ms_ctx_error(ctx, rc, "%s: out of memory", g->name);
	ms_gdl_free(g);
	return rc;
}

int ms_gdl_load(ms_ctx *ctx, ms_gdl **out, const char *path, const ms_gdl_options *opts)
{
	char *buf;
	size_t n;
	int rc = ms_read_text_file(ctx, &buf, &n, path, "rule file");
	if (rc)
		return rc;
	const char *base = strrchr(path, '/');
	rc = ms_gdl_parse(ctx, out, buf, n, base ? base + 1 : path, opts);
	ms_ctx_mfree(ctx, buf);
	return rc;
}

int ms_gdl_num_roles(const ms_gdl *g)
{
	return g->nroles;
}

const char *ms_gdl_role_name(const ms_gdl *g, int r)
{
	return r >= 0 && r < g->nroles ? g->role_name[r] : NULL;
}

int ms_gdl_role_index(const ms_gdl *g, const char *name)
{
	for (int r = 0; r < g->nroles; r++)
		if (!strcmp(g->role_name[r], name))
			return r;
	return -1;
}

int ms_gdl_is_grounded(const ms_gdl *g)
{
	return g->net != NULL;
}

int ms_gdl_representation(const ms_gdl *g, double *network_rate, double *fallback_rate, double *ground_seconds)
{
	if (network_rate)
		*network_rate = g->rate_net;
	if (fallback_rate)
		*fallback_rate = g->rate_fo;
	if (ground_seconds)
		*ground_seconds = g->load_s;
	return g->rep;
}

int ms_gdl_num_fluents(const ms_gdl *g)
{
	return g->fluents.n;
}

size_t ms_gdl_state_words(const ms_gdl *g)
{
	return g->words ? g->words : 1;
}

int ms_gdl_num_moves(const ms_gdl *g)
{
	return g->move_term.n;
}

int ms_gdl_move_role(const ms_gdl *g, int mv)
{
	return mv >= 0 && mv < g->move_role.n ? g->move_role.v[mv] : -1;
}

void ms_gdl_initial(const ms_gdl *g, uint64_t *state)
{
	memcpy(state, g->initial, ms_gdl_state_words(g) * sizeof *state);
}

int ms_gdl_fluent_text(const ms_gdl *g, int f, char *buf, size_t size)
{
	if (f < 0 || f >= g->fluents.n)
		return -1;
	return gdl_term_text(&g->terms, &g->syms, g->fluents.v[f], buf, size);
}

int ms_gdl_move_text(const ms_gdl *g, int mv, char *buf, size_t size)
{
	if (mv < 0 || mv >= g->move_term.n)
		return -1;
	return gdl_term_text(&g->terms, &g->syms, g->move_term.v[mv], buf, size);
}

int ms_gdl_options_init(ms_gdl_options *opts, unsigned int version)
{
	return MS_OPTS_INIT_ZERO(opts, version, MS_GDL_OPTIONS_VERSION);
}
