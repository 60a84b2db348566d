/* Symbols, hash-consed ground terms, relations and fact stores. */
#include <stdio.h>
#include <string.h>

#include "gdl_internal.h"
#include "core/hash.h"

int gdl_ivec_push(ms_ctx *ctx, gdl_ivec *a, int x)
{
	int *slot = ms_vec_push(ctx, a);
	if (!slot)
		return MS_ENOMEM;
	*slot = x;
	return MS_OK;
}

static uint32_t hash_bytes(const char *s, size_t len)
{
	return ms_fnv1a32_bytes(s, len);
}

static uint32_t hash_ints(int sym, int nargs, const int *args)
{
	uint32_t h = (uint32_t)sym * 2654435761u ^ (uint32_t)(nargs + 7) * 40503u;
	for (int i = 0; i < nargs; i++)
		h = (h ^ (uint32_t)args[i]) * MS_FNV32_PRIME + MS_GOLDEN32;
	return h;
}

/* Rebuilds an open-addressing table of ids with a new capacity. */
static int rehash(ms_ctx *ctx, int **hash, int *hcap, int n, uint32_t (*hf)(const void *, int), const void *ud)
{
	int cap = *hcap ? *hcap * 2 : 1024;
	int *h = ms_ctx_malloc(ctx, (size_t)cap * sizeof *h);
	if (!h)
		return MS_ENOMEM;
	memset(h, 0xff, (size_t)cap * sizeof *h);
	for (int i = 0; i < n; i++) {
		uint32_t k = hf(ud, i) & (uint32_t)(cap - 1);
		while (h[k] >= 0)
			k = (k + 1) & (uint32_t)(cap - 1);
		h[k] = i;
	}
	ms_ctx_mfree(ctx, *hash);
	*hash = h;
	*hcap = cap;
	return MS_OK;
}

static uint32_t sym_hf(const void *ud, int i)
{
	const gdl_syms *s = ud;
	return hash_bytes(s->name[i], strlen(s->name[i]));
}

int gdl_sym_intern(ms_ctx *ctx, gdl_syms *s, const char *str, size_t len, int *out)
{
	int rc;
	if (2 * (s->n + 1) > s->hcap && (rc = rehash(ctx, &s->hash, &s->hcap, s->n, sym_hf, s)))
		return rc;
	uint32_t k = hash_bytes(str, len) & (uint32_t)(s->hcap - 1);
	for (; s->hash[k] >= 0; k = (k + 1) & (uint32_t)(s->hcap - 1)) {
		const char *nm = s->name[s->hash[k]];
		if (strlen(nm) == len && !memcmp(nm, str, len)) {
			*out = s->hash[k];
			return MS_OK;
		}
	}
	if (ms_vec_grow(ctx, (void **)&s->name, &s->cap, (long long)s->n + 1, sizeof *s->name))
		return MS_ENOMEM;
	char *c = ms_ctx_malloc(ctx, len + 1);
	if (!c)
		return MS_ENOMEM;
	memcpy(c, str, len);
	c[len] = 0;
	s->name[s->n] = c;
	s->hash[k] = s->n;
	*out = s->n++;
	return MS_OK;
}

int gdl_sym_find(const gdl_syms *s, const char *str)
{
	if (!s->hcap)
		return -1;
	uint32_t k = hash_bytes(str, strlen(str)) & (uint32_t)(s->hcap - 1);
	for (; s->hash[k] >= 0; k = (k + 1) & (uint32_t)(s->hcap - 1))
		if (!strcmp(s->name[s->hash[k]], str))
			return s->hash[k];
	return -1;
}

static uint32_t term_hf(const void *ud, int i)
{
	const gdl_terms *t = ud;
	return hash_ints(t->sym[i], t->nargs[i], t->pool.v + t->args[i]);
}

static int term_eq(const gdl_terms *t, int id, int sym, int nargs, const int *args)
{
	if (t->sym[id] != sym || t->nargs[id] != nargs)
		return 0;
	for (int i = 0; i < nargs; i++)
		if (t->pool.v[t->args[id] + i] != args[i])
			return 0;
	return 1;
}

int gdl_term_find(const gdl_terms *t, int sym, int nargs, const int *args)
{
	if (!t->hcap)
		return -1;
	uint32_t k = hash_ints(sym, nargs, args) & (uint32_t)(t->hcap - 1);
	for (; t->hash[k] >= 0; k = (k + 1) & (uint32_t)(t->hcap - 1))
		if (term_eq(t, t->hash[k], sym, nargs, args))
			return t->hash[k];
	return -1;
}

int gdl_term_intern(ms_ctx *ctx, gdl_terms *t, int sym, int nargs, const int *args, int *out)
{
	int rc, id = gdl_term_find(t, sym, nargs, args);
	if (id >= 0) {
		*out = id;
		return MS_OK;
	}
	if (2 * (t->n + 1) > t->hcap && (rc = rehash(ctx, &t->hash, &t->hcap, t->n, term_hf, t)))
		return rc;
	/* parallel arrays, each with its capacity, so a failed growth leaves all three valid */
	if (ms_vec_grow(ctx, (void **)&t->sym, &t->cap, (long long)t->n + 1, sizeof *t->sym) ||
	    ms_vec_grow(ctx, (void **)&t->nargs, &t->cap_nargs, (long long)t->n + 1, sizeof *t->nargs) ||
	    ms_vec_grow(ctx, (void **)&t->args, &t->cap_args, (long long)t->n + 1, sizeof *t->args))
		return MS_ENOMEM;
	id = t->n;
	t->sym[id] = sym;
	t->nargs[id] = nargs;
	t->args[id] = t->pool.n;
	for (int i = 0; i < nargs; i++)
		if ((rc = gdl_ivec_push(ctx, &t->pool, args[i])))
			return rc;
	uint32_t k = hash_ints(sym, nargs, args) & (uint32_t)(t->hcap - 1);
	while (t->hash[k] >= 0)
		k = (k + 1) & (uint32_t)(t->hcap - 1);
	t->hash[k] = id;
	t->n++;
	*out = id;
	return MS_OK;
}

void gdl_terms_free(ms_ctx *ctx, gdl_terms *t)
{
	ms_ctx_mfree(ctx, t->sym);
	ms_ctx_mfree(ctx, t->nargs);
	ms_ctx_mfree(ctx, t->args);
	ms_ctx_mfree(ctx, t->hash);
	gdl_ivec_free(ctx, &t->pool);
	memset(t, 0, sizeof *t);
}

/* Each array to its own capacity (the ones intern grows), so the copy grows as the original. */
static int copy_ints(ms_ctx *ctx, int **dst, int *cap, const int *src, int n)
{
	if (ms_vec_grow(ctx, (void **)dst, cap, n > 0 ? n : 1, sizeof **dst))
		return MS_ENOMEM;
	if (n > 0)
		memcpy(*dst, src, (size_t)n * sizeof **dst);
	return MS_OK;
}

int gdl_terms_copy(ms_ctx *ctx, gdl_terms *dst, const gdl_terms *src)
{
	int hcap = dst->hcap;
	if (copy_ints(ctx, &dst->sym, &dst->cap, src->sym, src->n) ||
	    copy_ints(ctx, &dst->nargs, &dst->cap_nargs, src->nargs, src->n) ||
	    copy_ints(ctx, &dst->args, &dst->cap_args, src->args, src->n) ||
	    copy_ints(ctx, &dst->pool.v, &dst->pool.cap, src->pool.v, src->pool.n))
		return MS_ENOMEM;
	if (hcap != src->hcap) {
		ms_ctx_mfree(ctx, dst->hash);
		if (!(dst->hash = ms_ctx_malloc(ctx, (size_t)(src->hcap ? src->hcap : 1) * sizeof *dst->hash))) {
			dst->hcap = 0;
			return MS_ENOMEM;
		}
	}
	if (src->hcap)
		memcpy(dst->hash, src->hash, (size_t)src->hcap * sizeof *dst->hash);
	dst->hcap = src->hcap;
	dst->n = src->n;
	dst->pool.n = src->pool.n;
	return MS_OK;
}

static void put(char *buf, size_t size, size_t *pos, const char *s)
{
	size_t len = strlen(s);
	if (*pos < size) {
		size_t room = size - *pos - 1;
		memcpy(buf + *pos, s, len < room ? len : room);
		buf[*pos + (len < room ? len : room)] = 0;
	}
	*pos += len;
}

static void term_text(const gdl_terms *t, const gdl_syms *s, int id, char *buf, size_t size, size_t *pos)
{
	if (t->nargs[id] < 0) {
		put(buf, size, pos, s->name[t->sym[id]]);
		return;
	}
	put(buf, size, pos, "(");
	put(buf, size, pos, s->name[t->sym[id]]);
	for (int i = 0; i < t->nargs[id]; i++) {
		put(buf, size, pos, " ");
		term_text(t, s, t->pool.v[t->args[id] + i], buf, size, pos);
	}
	put(buf, size, pos, ")");
}

int gdl_term_text(const gdl_terms *t, const gdl_syms *s, int id, char *buf, size_t size)
{
	size_t pos = 0;
	if (size)
		buf[0] = 0;
	term_text(t, s, id, buf, size, &pos);
	return (int)pos;
}

int gdl_rel_find(const ms_gdl *g, int sym, int arity)
{
	for (int i = 0; i < g->nrels; i++)
		if (g->rels[i].sym == sym && g->rels[i].arity == arity)
			return i;
	return -1;
}

int gdl_rel_get(ms_gdl *g, int sym, int arity, int line, int *out)
{
	int r = gdl_rel_find(g, sym, arity);
	if (r >= 0) {
		*out = r;
		return MS_OK;
	}
	if (ms_vec_grow(g->ctx, (void **)&g->rels, &g->caprels, g->nrels + 1, sizeof *g->rels))
		return MS_ENOMEM;
	memset(&g->rels[g->nrels], 0, sizeof g->rels[0]);
	g->rels[g->nrels].sym = sym;
	g->rels[g->nrels].arity = arity;
	g->rels[g->nrels].first_line = line;
	*out = g->nrels++;
	return MS_OK;
}

int gdl_store_init(ms_ctx *ctx, gdl_store *st, int nrels)
{
	memset(st, 0, sizeof *st);
	st->atoms = ms_ctx_calloc(ctx, (size_t)(nrels ? nrels : 1), sizeof *st->atoms);
	st->nrels = nrels;
	return st->atoms ? MS_OK : MS_ENOMEM;
}

void gdl_store_free(ms_ctx *ctx, gdl_store *st)
{
	for (int i = 0; i < st->nrels; i++)
		gdl_ivec_free(ctx, &st->atoms[i]);
	for (int i = 0; i < st->ne; i++)
		gdl_ivec_free(ctx, &st->e[i].atoms);
	ms_ctx_mfree(ctx, st->atoms);
	ms_ctx_mfree(ctx, st->e);
	ms_ctx_mfree(ctx, st->hash);
	ms_ctx_mfree(ctx, st->in);
	ms_ctx_mfree(ctx, st->gen);
	memset(st, 0, sizeof *st);
}

static uint32_t idx_hash(int rel, int pos, int val)
{
	return ((uint32_t)rel * 2654435761u) ^ ((uint32_t)pos * 40503u) ^ ((uint32_t)val * 2246822519u);
}

static uint32_t idx_hf(const void *ud, int i)
{
	const gdl_store *st = ud;
	return idx_hash(st->e[i].rel, st->e[i].pos, st->e[i].val);
}

/* The index entry (rel, pos, val), or -1 (create: make it). */
static int idx_slot(ms_ctx *ctx, gdl_store *st, int rel, int pos, int val, int create, int *out)
{
	int rc;
	*out = -1;
	if (create && 2 * (st->ne + 1) > st->hcap && (rc = rehash(ctx, &st->hash, &st->hcap, st->ne, idx_hf, st)))
		return rc;
	if (!st->hcap)
		return MS_OK;
	uint32_t k = idx_hash(rel, pos, val) & (uint32_t)(st->hcap - 1);
	for (; st->hash[k] >= 0; k = (k + 1) & (uint32_t)(st->hcap - 1)) {
		const gdl_idx_entry *e = &st->e[st->hash[k]];
		if (e->rel == rel && e->pos == pos && e->val == val) {
			*out = st->hash[k];
			return MS_OK;
		}
	}
	if (!create)
		return MS_OK;
	if (ms_vec_grow(ctx, (void **)&st->e, &st->cape, st->ne + 1, sizeof *st->e))
		return MS_ENOMEM;
	st->e[st->ne] = (gdl_idx_entry){ rel, pos, val, { 0 } };
	st->hash[k] = st->ne;
	*out = st->ne++;
	return MS_OK;
}

int gdl_store_lookup(const gdl_store *st, int rel, int pos, int val)
{
	int out;
	idx_slot(NULL, (gdl_store *)st, rel, pos, val, 0, &out);
	return out;
}

int gdl_store_add(ms_ctx *ctx, gdl_store *st, const gdl_terms *terms, int rel, int t, int *added)
{
	int rc;
	*added = 0;
	if (t >= st->tcap || t >= st->gcap) {
		int old = st->tcap; /* `in` is read up to tcap, so its new part is cleared at once */
		if (ms_vec_grow(ctx, (void **)&st->in, &st->tcap, (long long)t + 1, sizeof *st->in))
			return MS_ENOMEM;
		memset(st->in + old, 0, (size_t)(st->tcap - old));
		if (ms_vec_grow(ctx, (void **)&st->gen, &st->gcap, (long long)t + 1, sizeof *st->gen))
			return MS_ENOMEM;
	}
	if (st->in[t])
		return MS_OK;
	if ((rc = gdl_ivec_push(ctx, &st->atoms[rel], t)))
		return rc;
	for (int p = 0; p < terms->nargs[t]; p++) {
		int e, a = terms->pool.v[terms->args[t] + p];
		if ((rc = idx_slot(ctx, st, rel, p, a, 1, &e)) || (rc = gdl_ivec_push(ctx, &st->e[e].atoms, t)))
			return rc;
		/* arguments of a function argument too: (true (cell ?x ?y b)) looks up by x, y, b */
		for (int q = 0; p < 64 && q < terms->nargs[a] && q < 64; q++)
			if ((rc = idx_slot(ctx, st, rel, GDL_POS2(p, q), terms->pool.v[terms->args[a] + q], 1, &e)) ||
			    (rc = gdl_ivec_push(ctx, &st->e[e].atoms, t)))
				return rc;
	}
	st->in[t] = 1;
	st->gen[t] = st->round;
	*added = 1;
	return MS_OK;
}

void gdl_store_clear(gdl_store *st, const int *rels, int n)
{
	for (int i = 0; i < n; i++) {
		gdl_ivec *a = &st->atoms[rels[i]];
		for (int j = 0; j < a->n; j++)
			st->in[a->v[j]] = 0;
		a->n = 0;
	}
	for (int i = 0; i < st->ne; i++)
		for (int j = 0; j < n; j++)
			if (st->e[i].rel == rels[j])
				st->e[i].atoms.n = 0;
}
