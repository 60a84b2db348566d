/* KIF text to rules: a lexer that accepts LF and CRLF, S-expressions, then
 * sentences and literals with `or` distributed into separate rules. */
#include <string.h>

#include "gdl_internal.h"

#define KIF_MAX_DEPTH 200
#define KIF_MAX_EXPANSION 4096

typedef struct sx {
	int list;  /* 1: a list; 0: a word */
	int sym;   /* word */
	int first; /* list: first child or -1 */
	int next;  /* next sibling or -1 */
	int line;
} sx;

typedef struct kif {
	ms_gdl *g;
	sx *n;
	int nn, cap;
	int *tops;
	int ntops, captops;
} kif;

static int sx_new(kif *k, int list, int sym, int line, int *out)
{
	if (ms_vec_grow(k->g->ctx, (void **)&k->n, &k->cap, k->nn + 1, sizeof *k->n))
		return MS_ENOMEM;
	k->n[k->nn] = (sx){ list, sym, -1, -1, line };
	*out = k->nn++;
	return MS_OK;
}

static int is_delim(char c)
{
	return c == '(' || c == ')' || c == ';' || c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
	       c == '\f' || c == '\v' || c == '\0';
}

/* Reads the S-expressions of the text, iteratively (no recursion on depth). */
static int kif_read(kif *k, const char *s, size_t len)
{
	ms_gdl *g = k->g;
	int stack[KIF_MAX_DEPTH], last[KIF_MAX_DEPTH], depth = 0, line = 1, rc;
	size_t i = 0;
	while (i < len) {
		char c = s[i];
		if (c == '\n') {
			line++;
			i++;
			continue;
		}
		if (c == ';') {
			while (i < len && s[i] != '\n')
				i++;
			continue;
		}
		if (is_delim(c) && c != '(' && c != ')') {
			i++;
			continue;
		}
		int id;
		if (c == ')') {
			if (depth == 0)
				return ms_ctx_error(g->ctx, MS_EPARSE, "%s:%d: unbalanced ')'", g->name, line);
			depth--;
			i++;
			continue;
		}
		if (c == '(') {
			if (depth == KIF_MAX_DEPTH)
				return ms_ctx_error(g->ctx, MS_EPARSE, "%s:%d: nesting deeper than %d", g->name,
						    line, KIF_MAX_DEPTH);
			if ((rc = sx_new(k, 1, -1, line, &id)))
				return rc;
			i++;
		} else {
			size_t j = i;
			while (j < len && !is_delim(s[j]))
				j++;
			int sym;
			if ((rc = gdl_sym_intern(g->ctx, &g->syms, s + i, j - i, &sym)) ||
			    (rc = sx_new(k, 0, sym, line, &id)))
				return rc;
			i = j;
		}
		if (depth == 0) {
			if (ms_vec_grow(g->ctx, (void **)&k->tops, &k->captops, k->ntops + 1, sizeof *k->tops))
				return MS_ENOMEM;
			k->tops[k->ntops++] = id;
		} else {
			int p = stack[depth - 1];
			if (last[depth - 1] < 0)
				k->n[p].first = id;
			else
				k->n[last[depth - 1]].next = id;
			last[depth - 1] = id;
		}
		if (k->n[id].list) {
			stack[depth] = id;
			last[depth] = -1;
			depth++;
		}
	}
	if (depth)
		return ms_ctx_error(g->ctx, MS_EPARSE, "%s:%d: '(' opened on line %d is never closed", g->name,
				    line, k->n[stack[depth - 1]].line);
	return MS_OK;
}

/* Per-rule conversion state: variable names to indices. */
typedef struct conv {
	int vars[64];
	int nvars;
	int line;
} conv;

static const char *symname(const ms_gdl *g, int sym)
{
	return g->syms.name[sym];
}

static int pn_new(ms_gdl *g, gdl_pnode p, int *out)
{
	if (ms_vec_grow(g->ctx, (void **)&g->pn, &g->cappn, g->npn + 1, sizeof *g->pn))
		return MS_ENOMEM;
	g->pn[g->npn] = p;
	*out = g->npn++;
	return MS_OK;
}

static int sx_len(const kif *k, int id)
{
	int n = 0;
	for (int c = k->n[id].first; c >= 0; c = k->n[c].next)
		n++;
	return n;
}

/* A term: word (constant or ?variable) or (function args...). */
static int conv_term(kif *k, conv *cv, int id, int depth, int *out)
{
	ms_gdl *g = k->g;
	const sx *x = &k->n[id];
	int rc;
	if (!x->list) {
		const char *nm = symname(g, x->sym);
		if (nm[0] == '?') {
			int v = 0;
			while (v < cv->nvars && cv->vars[v] != x->sym)
				v++;
			if (v == cv->nvars) {
				if (v == 64)
					return ms_ctx_error(g->ctx, MS_EINVAL, "%s:%d: a rule with more than 64 variables",
							    g->name, x->line);
				cv->vars[cv->nvars++] = x->sym;
			}
			return pn_new(g, (gdl_pnode){ PN_VAR, v, 0, 0 }, out);
		}
		return pn_new(g, (gdl_pnode){ PN_CONST, x->sym, -1, 0 }, out);
	}
	if (x->first < 0 || k->n[x->first].list || symname(g, k->n[x->first].sym)[0] == '?')
		return ms_ctx_error(g->ctx, MS_EPARSE, "%s:%d: a term's function name must be a constant",
				    g->name, x->line);
	if (depth > KIF_MAX_DEPTH)
		return ms_ctx_error(g->ctx, MS_EPARSE, "%s:%d: term nested too deeply", g->name, x->line);
	int nargs = sx_len(k, id) - 1, i = 0, start = g->pargs.n;
	for (i = 0; i < nargs; i++) /* reserve the slots: nested terms append after them */
		if ((rc = gdl_ivec_push(g->ctx, &g->pargs, -1)))
			return rc;
	i = 0;
	for (int c = k->n[x->first].next; c >= 0; c = k->n[c].next) {
		int a;
		if ((rc = conv_term(k, cv, c, depth + 1, &a)))
			return rc;
		g->pargs.v[start + i++] = a;
	}
	return pn_new(g, (gdl_pnode){ PN_FUNC, k->n[x->first].sym, nargs, start }, out);
}

static int is_kw(const ms_gdl *g, int sym, const char *kw)
{
	return strcmp(symname(g, sym), kw) == 0;
}

/* A sentence: a constant word or (relation args...); returns node and relation. */
static int conv_sentence(kif *k, conv *cv, int id, int *node, int *rel)
{
	ms_gdl *g = k->g;
	const sx *x = &k->n[id];
	int rc;
	if (!x->list && symname(g, x->sym)[0] == '?')
		return ms_ctx_error(g->ctx, MS_EPARSE, "%s:%d: a variable (%s) where a sentence is expected",
				    g->name, x->line, symname(g, x->sym));
	if ((rc = conv_term(k, cv, id, 0, node)))
		return rc;
	const gdl_pnode *p = &g->pn[*node];
	static const char *const kws[] = { "not", "or", "distinct", "<=" };
	for (size_t i = 0; i < sizeof kws / sizeof kws[0]; i++)
		if (is_kw(g, p->sym, kws[i]))
			return ms_ctx_error(g->ctx, MS_EPARSE, "%s:%d: '%s' used as a relation", g->name, x->line,
					    kws[i]);
	return gdl_rel_get(g, p->sym, p->nargs, x->line, rel);
}

/* One body literal into alternatives: `or` lists several, others one. */
static int conv_literal(kif *k, conv *cv, int id, gdl_lit *alts, int *nalts, int maxalts)
{
	ms_gdl *g = k->g;
	const sx *x = &k->n[id];
	int rc;
	if (x->list && x->first >= 0 && !k->n[x->first].list) {
		int head = k->n[x->first].sym, n = sx_len(k, id) - 1;
		int a1 = k->n[x->first].next;
		if (is_kw(g, head, "or")) {
			for (int c = a1; c >= 0; c = k->n[c].next)
				if ((rc = conv_literal(k, cv, c, alts, nalts, maxalts)))
					return rc;
			return MS_OK;
		}
		int is_distinct = is_kw(g, head, "distinct"), is_not = is_kw(g, head, "not");
		if ((is_distinct || is_not) && *nalts == maxalts)
			return ms_ctx_error(g->ctx, MS_EINVAL, "%s:%d: 'or' with too many alternatives", g->name,
					    x->line);
		gdl_lit *l = &alts[*nalts];
		memset(l, 0, sizeof *l);
		if (is_distinct) {
			(*nalts)++;
			if (n != 2)
				return ms_ctx_error(g->ctx, MS_EPARSE, "%s:%d: 'distinct' takes 2 arguments, not %d",
						    g->name, x->line, n);
			l->kind = LIT_DISTINCT;
			l->rel = -1;
			if ((rc = conv_term(k, cv, a1, 0, &l->atom)) ||
			    (rc = conv_term(k, cv, k->n[a1].next, 0, &l->atom2)))
				return rc;
			return MS_OK;
		}
		if (is_not) {
			(*nalts)++;
			if (n != 1)
				return ms_ctx_error(g->ctx, MS_EPARSE, "%s:%d: 'not' takes 1 argument, not %d",
						    g->name, x->line, n);
			l->kind = LIT_NEG;
			const sx *y = &k->n[a1];
			if (y->list && y->first >= 0 && !k->n[y->first].list && is_kw(g, k->n[y->first].sym, "distinct")) {
				/* (not (distinct a b)): the two terms are the same */
				if (sx_len(k, a1) != 3)
					return ms_ctx_error(g->ctx, MS_EPARSE, "%s:%d: 'distinct' takes 2 arguments",
							    g->name, y->line);
				int b1 = k->n[y->first].next, rc2;
				l->kind = LIT_SAME;
				l->rel = -1;
				if ((rc2 = conv_term(k, cv, b1, 0, &l->atom)) ||
				    (rc2 = conv_term(k, cv, k->n[b1].next, 0, &l->atom2)))
					return rc2;
				return MS_OK;
			}
			return conv_sentence(k, cv, a1, &l->atom, &l->rel);
		}
	}
	if (*nalts == maxalts)
		return ms_ctx_error(g->ctx, MS_EINVAL, "%s:%d: 'or' with too many alternatives", g->name, x->line);
	gdl_lit *l = &alts[(*nalts)++];
	memset(l, 0, sizeof *l);
	l->kind = LIT_POS;
	return conv_sentence(k, cv, id, &l->atom, &l->rel);
}

static uint64_t node_vars(const ms_gdl *g, int node)
{
	const gdl_pnode *p = &g->pn[node];
	if (p->kind == PN_VAR)
		return 1ull << p->sym;
	uint64_t m = 0;
	if (p->kind == PN_FUNC)
		for (int i = 0; i < p->nargs; i++)
			m |= node_vars(g, g->pargs.v[p->args + i]);
	return m;
}

static int push_rule(ms_gdl *g, int head, int head_rel, const gdl_lit *lits, int nlits, const conv *cv)
{
	int nvars = cv->nvars, line = cv->line;
	if (ms_vec_grow(g->ctx, (void **)&g->rules, &g->caprules, g->nrules + 1, sizeof *g->rules) ||
	    ms_vec_grow(g->ctx, (void **)&g->lits, &g->caplits, g->nlits + nlits, sizeof *g->lits))
		return MS_ENOMEM;
	gdl_rule *r = &g->rules[g->nrules++];
	memset(r, 0, sizeof *r);
	r->head = head;
	r->head_rel = head_rel;
	r->lit0 = g->nlits;
	r->nlits = nlits;
	r->nvars = nvars;
	r->line = line;
	r->head_vars = node_vars(g, head);
	r->var0 = g->varsyms.n;
	for (int i = 0; i < nvars; i++)
		if (gdl_ivec_push(g->ctx, &g->varsyms, cv->vars[i]))
			return MS_ENOMEM;
	for (int i = 0; i < nlits; i++) {
		gdl_lit l = lits[i];
		l.vars = node_vars(g, l.atom) | (l.kind >= LIT_DISTINCT ? node_vars(g, l.atom2) : 0);
		if (l.kind == LIT_POS)
			r->bound |= l.vars;
		g->lits[g->nlits++] = l;
	}
	return MS_OK;
}

#define KIF_MAX_BODY 64

/* A top-level form: a fact or (<= head body...), `or` distributed. */
static int conv_form(kif *k, int id)
{
	ms_gdl *g = k->g;
	const sx *x = &k->n[id];
	conv cv = { .nvars = 0, .line = x->line };
	int rc, head, rel;
	if (x->list && x->first >= 0 && !k->n[x->first].list && is_kw(g, k->n[x->first].sym, "<=")) {
		int h = k->n[x->first].next;
		if (h < 0)
			return ms_ctx_error(g->ctx, MS_EPARSE, "%s:%d: a rule without a head", g->name, x->line);
		if ((rc = conv_sentence(k, &cv, h, &head, &rel)))
			return rc;
		gdl_lit alts[KIF_MAX_BODY][16];
		int nalts[KIF_MAX_BODY], nb = 0;
		for (int c = k->n[h].next; c >= 0; c = k->n[c].next) {
			if (nb == KIF_MAX_BODY)
				return ms_ctx_error(g->ctx, MS_EINVAL, "%s:%d: more than %d literals in a body",
						    g->name, x->line, KIF_MAX_BODY);
			nalts[nb] = 0;
			if ((rc = conv_literal(k, &cv, c, alts[nb], &nalts[nb], 16)))
				return rc;
			nb++;
		}
		long total = 1;
		for (int i = 0; i < nb; i++) {
			total *= nalts[i] ? nalts[i] : 1;
			if (total > KIF_MAX_EXPANSION)
				return ms_ctx_error(g->ctx, MS_EINVAL, "%s:%d: 'or' expands to more than %d rules",
						    g->name, x->line, KIF_MAX_EXPANSION);
		}
		for (long e = 0; e < total; e++) {
			gdl_lit body[KIF_MAX_BODY];
			long rest = e;
			int n = 0;
			for (int i = 0; i < nb; i++) {
				if (!nalts[i])
					continue;
				body[n++] = alts[i][rest % nalts[i]];
				rest /= nalts[i];
			}
			if ((rc = push_rule(g, head, rel, body, n, &cv)))
				return rc;
		}
		return MS_OK;
	}
	if ((rc = conv_sentence(k, &cv, id, &head, &rel)))
		return rc;
	return push_rule(g, head, rel, NULL, 0, &cv);
}

int gdl_kif_parse(ms_gdl *g, const char *text, size_t len)
{
	kif k = { .g = g };
	int rc = kif_read(&k, text, len);
	for (int i = 0; !rc && i < k.ntops; i++)
		rc = conv_form(&k, k.tops[i]);
	/* roles in file order, from the facts */
	for (int i = 0; !rc && i < k.ntops; i++) {
		const sx *x = &k.n[k.tops[i]];
		if (!x->list || x->first < 0 || k.n[x->first].list || !is_kw(g, k.n[x->first].sym, "role"))
			continue;
		int a = k.n[x->first].next;
		if (a < 0 || k.n[a].list || k.n[a].next >= 0 || symname(g, k.n[a].sym)[0] == '?') {
			rc = ms_ctx_error(g->ctx, MS_EINVAL, "%s:%d: a role must be one constant", g->name, x->line);
			break;
		}
		int t;
		if ((rc = gdl_term_intern(g->ctx, &g->terms, k.n[a].sym, -1, NULL, &t)))
			break;
		int dup = 0;
		for (int r = 0; r < g->nroles; r++)
			dup |= g->role_term[r] == t;
		if (dup)
			continue;
		int c1 = g->nroles, c2 = g->nroles;
		if (ms_vec_grow(g->ctx, (void **)&g->role_term, &c1, g->nroles + 1, sizeof *g->role_term) ||
		    ms_vec_grow(g->ctx, (void **)&g->role_name, &c2, g->nroles + 1, sizeof *g->role_name)) {
			rc = MS_ENOMEM;
			break;
		}
		g->role_term[g->nroles] = t;
		g->role_name[g->nroles++] = symname(g, k.n[a].sym);
	}
	ms_ctx_mfree(g->ctx, k.n);
	ms_ctx_mfree(g->ctx, k.tops);
	return rc;
}
