/*
 * Grammars from a game's static tables. Everything is checked once here
 * so that programs, samplers and printers can trust the tables.
 */
#include <string.h>

#include "dsl_internal.h"
#include "core/hash.h"

/* Splits `s` on spaces into ids looked up by `find`; returns the count or < 0. */
typedef int (*name_lookup)(const ms_dsl_grammar *g, const char *name, size_t len);

static int lookup_nt(const ms_dsl_grammar *g, const char *name, size_t len)
{
	for (int i = 0; i < g->n_nts; i++)
		if (strlen(g->nts[i].name) == len && memcmp(g->nts[i].name, name, len) == 0)
			return i;
	return -1;
}

static int lookup_prod(const ms_dsl_grammar *g, const char *name, size_t len)
{
	for (int i = 0; i < g->n_prods; i++)
		if (strlen(g->prods[i].name) == len && memcmp(g->prods[i].name, name, len) == 0)
			return i;
	return -1;
}

static int split_names(ms_dsl_grammar *g, const char *s, name_lookup find, uint16_t *out, int max,
		       const char *what, const char *owner)
{
	int n = 0;
	while (s && *s) {
		while (*s == ' ')
			s++;
		if (!*s)
			break;
		const char *e = s;
		while (*e && *e != ' ')
			e++;
		int id = find(g, s, (size_t)(e - s));
		if (id < 0)
			return ms_ctx_error(g->ctx, MS_EINVAL, "grammar %s: %s names unknown %s '%.*s'", g->name,
					    owner, what, (int)(e - s), s);
		if (n == max)
			return ms_ctx_error(g->ctx, MS_ERANGE, "grammar %s: %s has more than %d %ss", g->name, owner,
					    max, what);
		out[n++] = (uint16_t)id;
		s = e;
	}
	return n;
}

/* Each child slot must appear exactly once in the template. */
static int check_template(ms_dsl_grammar *g, const dsl_prod *p)
{
	int seen[MS_DSL_MAX_CHILDREN] = { 0 };
	for (const char *c = p->print; *c; c++) {
		if (*c != '$')
			continue;
		c++;
		if (*c == '$')
			continue;
		if (*c < '0' || *c > '9' || *c - '0' >= p->arity)
			return ms_ctx_error(g->ctx, MS_EINVAL, "grammar %s: production %s: template \"%s\" has a bad $%c",
					    g->name, p->name, p->print, *c ? *c : ' ');
		seen[*c - '0']++;
	}
	for (int k = 0; k < p->arity; k++)
		if (seen[k] != 1)
			return ms_ctx_error(g->ctx, MS_EINVAL,
					    "grammar %s: production %s: template \"%s\" must print child $%d once",
					    g->name, p->name, p->print, k);
	return 0;
}

/* Every non-terminal must derive some finite program (else generation could not end). */
static int check_productive(ms_dsl_grammar *g)
{
	uint8_t done[MS_DSL_MAX_NTS] = { 0 };
	for (int changed = 1; changed;) {
		changed = 0;
		for (int i = 0; i < g->n_nts; i++) {
			if (done[i])
				continue;
			for (int a = 0; a < g->nts[i].n_alts && !done[i]; a++) {
				const dsl_prod *p = &g->prods[g->nts[i].alts[a]];
				int ok = 1;
				for (int k = 0; k < p->arity; k++)
					ok &= done[p->child[k]];
				if (ok)
					done[i] = 1, changed = 1;
			}
		}
	}
	for (int i = 0; i < g->n_nts; i++)
		if (!done[i])
			return ms_ctx_error(g->ctx, MS_EINVAL, "grammar %s: non-terminal %s derives no finite program",
					    g->name, g->nts[i].name);
	return 0;
}

void ms_dsl_grammar_free(ms_dsl_grammar *g)
{
	if (!g)
		return;
	for (int i = 0; g->nts && i < g->n_nts; i++) {
		ms_ctx_mfree(g->ctx, g->nts[i].alts);
		ms_ctx_mfree(g->ctx, g->nts[i].member);
	}
	ms_ctx_mfree(g->ctx, g->nts);
	ms_ctx_mfree(g->ctx, g->prods);
	ms_ctx_mfree(g->ctx, g);
}

static int build_nt(ms_dsl_grammar *g, int i, const ms_dsl_nt_def *d)
{
	dsl_nt *nt = &g->nts[i];
	uint16_t tmp[MS_DSL_MAX_PRODS];
	int n = split_names(g, d->alts, lookup_prod, tmp, MS_DSL_MAX_PRODS, "production", d->name);
	if (n < 0)
		return n;
	if (n == 0)
		return ms_ctx_error(g->ctx, MS_EINVAL, "grammar %s: non-terminal %s has no alternatives", g->name,
				    d->name);
	/* alts, then the leaf and unary subsets, in one block */
	nt->alts = ms_ctx_malloc(g->ctx, sizeof(uint16_t) * (size_t)n * 3);
	nt->member = ms_ctx_calloc(g->ctx, (size_t)g->n_prods, 1);
	if (!nt->alts || !nt->member)
		return ms_ctx_error(g->ctx, MS_ENOMEM, "grammar %s: out of memory", g->name);
	nt->leaves = nt->alts + n;
	nt->unary = nt->alts + 2 * n;
	for (int a = 0; a < n; a++) {
		if (nt->member[tmp[a]])
			return ms_ctx_error(g->ctx, MS_EINVAL, "grammar %s: non-terminal %s lists %s twice", g->name,
					    d->name, g->prods[tmp[a]].name);
		nt->member[tmp[a]] = 1;
		nt->alts[a] = tmp[a];
		if (g->prods[tmp[a]].arity == 0)
			nt->leaves[nt->n_leaves++] = tmp[a];
		else if (g->prods[tmp[a]].arity == 1)
			nt->unary[nt->n_unary++] = tmp[a];
	}
	nt->n_alts = n;
	return 0;
}

int ms_dsl_grammar_new(ms_ctx *ctx, ms_dsl_grammar **out, const ms_dsl_grammar_def *def)
{
	*out = NULL;
	if (!def || def->version != MS_DSL_GRAMMAR_DEF_VERSION)
		return ms_ctx_error(ctx, MS_EINVAL, "grammar definition: unknown version");
	if (def->n_prods < 1 || def->n_prods > MS_DSL_MAX_PRODS || def->n_nts < 1 || def->n_nts > MS_DSL_MAX_NTS)
		return ms_ctx_error(ctx, MS_ERANGE, "grammar %s: %d productions and %d non-terminals (1..%d, 1..%d)",
				    def->name ? def->name : "?", def->n_prods, def->n_nts, MS_DSL_MAX_PRODS,
				    MS_DSL_MAX_NTS);
	ms_dsl_grammar *g = ms_ctx_calloc(ctx, 1, sizeof *g);
	if (!g)
		return ms_ctx_error(ctx, MS_ENOMEM, "grammar: out of memory");
	g->ctx = ctx;
	g->name = def->name ? def->name : "?";
	g->n_prods = def->n_prods;
	g->n_nts = def->n_nts;
	g->prods = ms_ctx_calloc(ctx, (size_t)g->n_prods, sizeof *g->prods);
	g->nts = ms_ctx_calloc(ctx, (size_t)g->n_nts, sizeof *g->nts);
	int rc = 0;
	if (!g->prods || !g->nts) {
		rc = ms_ctx_error(ctx, MS_ENOMEM, "grammar %s: out of memory", g->name);
		goto fail;
	}
	/* names are checked against those registered so far */
	g->n_nts = 0;
	g->n_prods = 0;
	for (int i = 0; i < def->n_nts; i++) {
		const char *nm = def->nts[i].name;
		if (!nm || !*nm || strchr(nm, ' ') || lookup_nt(g, nm, strlen(nm)) >= 0) {
			rc = ms_ctx_error(ctx, MS_EINVAL, "grammar %s: non-terminal %d has a missing, spaced or repeated name",
					  g->name, i);
			goto fail;
		}
		g->nts[i].name = nm;
		g->n_nts = i + 1;
	}
	for (int i = 0; i < def->n_prods; i++) {
		const ms_dsl_prod_def *d = &def->prods[i];
		dsl_prod *p = &g->prods[i];
		if (!d->name || !*d->name || strpbrk(d->name, " ;") || lookup_prod(g, d->name, strlen(d->name)) >= 0) {
			rc = ms_ctx_error(ctx, MS_EINVAL,
					  "grammar %s: production %d has a missing, repeated or spaced name", g->name, i);
			goto fail;
		}
		p->name = d->name;
		p->print = d->print ? d->print : d->name;
		p->op = d->op;
		p->size = d->size;
		p->weight = d->weight > 0 ? d->weight : 1;
		rc = split_names(g, d->children, lookup_nt, p->child, MS_DSL_MAX_CHILDREN, "non-terminal", d->name);
		if (rc < 0)
			goto fail;
		p->arity = rc;
		if ((rc = check_template(g, p)) < 0)
			goto fail;
		g->n_prods = i + 1;
	}
	for (int i = 0; i < g->n_nts; i++)
		if ((rc = build_nt(g, i, &def->nts[i])) < 0)
			goto fail;
	if (def->start < 0 || def->start >= g->n_nts) {
		rc = ms_ctx_error(ctx, MS_EINVAL, "grammar %s: start non-terminal %d out of range", g->name, def->start);
		goto fail;
	}
	g->start = def->start;
	if ((rc = check_productive(g)) < 0)
		goto fail;
	g->hash_seed = ms_fnv1a_step(ms_fnv1a_str(MS_FNV_OFFSET, g->name), (uint64_t)g->n_prods);
	*out = g;
	return 0;
fail:
	ms_dsl_grammar_free(g);
	return rc;
}

int ms_dsl_grammar_set_sampler(ms_dsl_grammar *g, int nt, ms_dsl_sampler fn, void *user)
{
	if (nt < 0 || nt >= g->n_nts)
		return ms_ctx_error(g->ctx, MS_EINVAL, "grammar %s: no non-terminal %d", g->name, nt);
	g->nts[nt].sampler = fn;
	g->nts[nt].user = user;
	return 0;
}

const char *ms_dsl_grammar_name(const ms_dsl_grammar *g) { return g->name; }
int ms_dsl_grammar_start(const ms_dsl_grammar *g) { return g->start; }
int ms_dsl_prod_count(const ms_dsl_grammar *g) { return g->n_prods; }
int ms_dsl_nt_count(const ms_dsl_grammar *g) { return g->n_nts; }

int ms_dsl_prod_find(const ms_dsl_grammar *g, const char *name)
{
	int id = lookup_prod(g, name, strlen(name));
	return id < 0 ? MS_ENOTFOUND : id;
}

int ms_dsl_nt_find(const ms_dsl_grammar *g, const char *name)
{
	int id = lookup_nt(g, name, strlen(name));
	return id < 0 ? MS_ENOTFOUND : id;
}

const char *ms_dsl_prod_name(const ms_dsl_grammar *g, int prod)
{
	return prod >= 0 && prod < g->n_prods ? g->prods[prod].name : NULL;
}

const char *ms_dsl_nt_name(const ms_dsl_grammar *g, int nt)
{
	return nt >= 0 && nt < g->n_nts ? g->nts[nt].name : NULL;
}

int ms_dsl_prod_op(const ms_dsl_grammar *g, int prod) { return g->prods[prod].op; }
int ms_dsl_prod_arity(const ms_dsl_grammar *g, int prod) { return g->prods[prod].arity; }
int ms_dsl_prod_child_nt(const ms_dsl_grammar *g, int prod, int k) { return g->prods[prod].child[k]; }

const uint16_t *ms_dsl_nt_alts(const ms_dsl_grammar *g, int nt, int *n)
{
	*n = g->nts[nt].n_alts;
	return g->nts[nt].alts;
}

int ms_dsl_nt_has(const ms_dsl_grammar *g, int nt, int prod)
{
	return nt >= 0 && nt < g->n_nts && prod >= 0 && prod < g->n_prods && g->nts[nt].member[prod];
}
