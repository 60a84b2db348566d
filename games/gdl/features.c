/*
 * StatGUCT's candidate features (MAGICIAN slides 16-18): every fluent the
 * domain analysis found is generalised position by position into patterns
 * (each argument its constant or `?`), so the patterns are exactly the
 * lattice points over the argument domains that match some fluent; a
 * pattern's value is how many true fluents it binds. Difference features
 * subtract two patterns that differ in one argument (the slides drop ratios).
 */
#include <stdlib.h>
#include <string.h>

#include "gdl_eval.h"
#include "core/hash.h"

/* Arities above this get only the masks with at most two constants (and the fluent itself). */
#define FULL_LATTICE_ARITY 8
/* Difference groups larger than this (step counters and the like) give no pairs. */
#define MAX_GROUP 12

/* An open-addressing table of int sequences stored in a key pool. */
typedef struct seqtab {
	int *slot; /* -1 empty, else entry id */
	int cap;
} seqtab;

static uint64_t seq_hash(const int *k, int n)
{
	uint64_t h = MS_FNV_OFFSET;
	for (int i = 0; i < n; i++)
		h = ms_fnv1a_step(h, (uint64_t)(uint32_t)k[i]);
	return h ^ (h >> 29);
}

static int seq_len(const gdl_ivec *key, int off)
{
	return 2 + (key->v[off + 1] > 0 ? key->v[off + 1] : 0);
}

/* Entry of sequence k (length n) in t, adding it to key/offs if absent; -1 on no memory. */
static int seq_intern(ms_ctx *ctx, seqtab *t, gdl_ivec *key, gdl_ivec *offs, const int *k, int n)
{
	if (offs->n * 2 >= t->cap) {
		int cap = t->cap ? t->cap * 2 : 1024;
		int *slot = ms_ctx_calloc(ctx, (size_t)cap, sizeof *slot);
		if (!slot)
			return -1;
		memset(slot, 0xff, sizeof *slot * (size_t)cap);
		for (int e = 0; e < offs->n; e++) {
			int o = offs->v[e];
			size_t i = (size_t)(seq_hash(key->v + o, seq_len(key, o)) % (uint64_t)cap);
			while (slot[i] >= 0)
				i = (i + 1) % (size_t)cap;
			slot[i] = e;
		}
		ms_ctx_mfree(ctx, t->slot);
		t->slot = slot, t->cap = cap;
	}
	size_t i = (size_t)(seq_hash(k, n) % (uint64_t)t->cap);
	for (; t->slot[i] >= 0; i = (i + 1) % (size_t)t->cap) {
		int o = offs->v[t->slot[i]];
		if (seq_len(key, o) == n && !memcmp(key->v + o, k, sizeof *k * (size_t)n))
			return t->slot[i];
	}
	if (gdl_ivec_push(ctx, offs, key->n))
		return -1;
	for (int j = 0; j < n; j++)
		if (gdl_ivec_push(ctx, key, k[j]))
			return -1;
	return t->slot[i] = offs->n - 1;
}

/* The fluent's symbol, arity (0 for a constant) and arguments. */
static int fluent_parts(const ms_gdl *g, int f, const int **args)
{
	int t = g->fluents.v[f], na = g->terms.nargs[t];
	*args = na > 0 ? g->terms.pool.v + g->terms.args[t] : NULL;
	return na > 0 ? na : 0;
}

/* The argument masks (bit i: argument i kept) of an arity: all, or those keeping at most two and all. */
static int masks_of(int arity, unsigned *out)
{
	int n = 0;
	if (arity <= FULL_LATTICE_ARITY) {
		for (unsigned m = 0; m < (1u << arity); m++)
			out[n++] = m;
		return n;
	}
	out[n++] = 0;
	for (int i = 0; i < arity; i++)
		out[n++] = 1u << i;
	for (int i = 0; i < arity; i++)
		for (int j = i + 1; j < arity; j++)
			out[n++] = (1u << i) | (1u << j);
	out[n++] = (1u << arity) - 1;
	return n;
}

/* Patterns of every fluent, and the (fluent, pattern) pairs in fluent order. */
static int make_patterns(ms_ctx *ctx, gdl_featset *fs, seqtab *t, gdl_ivec *pairs)
{
	const ms_gdl *g = fs->g;
	int k[2 + 32];
	const int max_arity = 20; /* masks_of stays small: 1 + 20 + 190 + 1 */
	unsigned masks[1u << FULL_LATTICE_ARITY];
	for (int f = 0; f < g->fluents.n; f++) {
		const int *args;
		int a = fluent_parts(g, f, &args);
		if (a > max_arity)
			a = 0; /* such a fluent only counts as its symbol */
		k[0] = g->terms.sym[g->fluents.v[f]], k[1] = a;
		for (int mi = 0, nm = masks_of(a, masks); mi < nm; mi++) {
			for (int i = 0; i < a; i++)
				k[2 + i] = (masks[mi] >> i) & 1u ? args[i] : -1;
			int p = seq_intern(ctx, t, &fs->key, &fs->key_off, k, 2 + a);
			if (p < 0 || gdl_ivec_push(ctx, pairs, f) || gdl_ivec_push(ctx, pairs, p))
				return MS_ENOMEM;
		}
	}
	fs->npat = fs->key_off.n;
	return MS_OK;
}

/* CSR lists both ways from the (fluent, pattern) pairs. */
static int make_lists(ms_ctx *ctx, gdl_featset *fs, const gdl_ivec *pairs)
{
	int nf = fs->g->fluents.n, np = pairs->n / 2;
	fs->fp_off = ms_ctx_calloc(ctx, (size_t)nf + 1, sizeof(int));
	fs->pf_off = ms_ctx_calloc(ctx, (size_t)fs->npat + 1, sizeof(int));
	fs->fp = ms_ctx_calloc(ctx, (size_t)np + 1, sizeof(int));
	fs->pf = ms_ctx_calloc(ctx, (size_t)np + 1, sizeof(int));
	if (!fs->fp_off || !fs->pf_off || !fs->fp || !fs->pf)
		return MS_ENOMEM;
	for (int i = 0; i < np; i++)
		fs->fp_off[pairs->v[2 * i] + 1]++, fs->pf_off[pairs->v[2 * i + 1] + 1]++;
	for (int f = 0; f < nf; f++)
		fs->fp_off[f + 1] += fs->fp_off[f];
	for (int p = 0; p < fs->npat; p++)
		fs->pf_off[p + 1] += fs->pf_off[p];
	int *fill = ms_ctx_calloc(ctx, (size_t)fs->npat + 1, sizeof(int));
	if (!fill)
		return MS_ENOMEM;
	for (int i = 0; i < np; i++) { /* pairs come in fluent order, so both lists stay sorted */
		int f = pairs->v[2 * i], p = pairs->v[2 * i + 1];
		fs->fp[i] = p;
		fs->pf[fs->pf_off[p] + fill[p]++] = f;
	}
	ms_ctx_mfree(ctx, fill);
	return MS_OK;
}

/* cap[]: the capacities of fs->fa and fs->fb. */
static int push_feature(ms_ctx *ctx, gdl_featset *fs, int cap[2], int a, int b)
{
	if (ms_vec_grow(ctx, (void **)&fs->fa, &cap[0], fs->nfeat + 1, sizeof *fs->fa) ||
	    ms_vec_grow(ctx, (void **)&fs->fb, &cap[1], fs->nfeat + 1, sizeof *fs->fb))
		return MS_ENOMEM;
	fs->fa[fs->nfeat] = a, fs->fb[fs->nfeat] = b;
	fs->nfeat++;
	return MS_OK;
}

typedef struct gmember {
	int spec, group, pat; /* constants left in the group's key, group, pattern */
} gmember;

static int cmp_member(const void *x, const void *y)
{
	const gmember *a = x, *b = y;
	if (a->spec != b->spec)
		return a->spec < b->spec ? -1 : 1;
	if (a->group != b->group)
		return a->group < b->group ? -1 : 1;
	return (a->pat > b->pat) - (a->pat < b->pat);
}

/* Groups of patterns equal but for one constant argument (marked -2 in the group key). */
static int group_patterns(ms_ctx *ctx, const gdl_featset *fs, gmember **out, int *nout)
{
	seqtab t = { 0 };
	gdl_ivec key = { 0 }, offs = { 0 };
	gmember *m = NULL;
	int n = 0, cap = 0, rc = MS_OK, k[2 + 32];
	for (int p = 0; p < fs->npat && rc == MS_OK; p++) {
		const int *pk = fs->key.v + fs->key_off.v[p];
		int a = pk[1], spec = 0;
		for (int i = 0; i < a; i++)
			spec += pk[2 + i] >= 0;
		for (int i = 0; i < a && rc == MS_OK; i++) {
			if (pk[2 + i] < 0)
				continue;
			memcpy(k, pk, sizeof(int) * (size_t)(2 + a));
			k[2 + i] = -2;
			int gi = seq_intern(ctx, &t, &key, &offs, k, 2 + a);
			if (gi < 0 || ms_vec_grow(ctx, (void **)&m, &cap, n + 1, sizeof *m))
				rc = MS_ENOMEM;
			else
				m[n++] = (gmember){ spec - 1, gi, p };
		}
	}
	ms_ctx_mfree(ctx, t.slot);
	gdl_ivec_free(ctx, &key);
	gdl_ivec_free(ctx, &offs);
	if (rc) {
		ms_ctx_mfree(ctx, m);
		return rc;
	}
	if (n)
		qsort(m, (size_t)n, sizeof *m, cmp_member);
	*out = m, *nout = n;
	return MS_OK;
}

/* Simple features first (every pattern), then differences, groups with fewer constants first. */
static int make_features(ms_ctx *ctx, gdl_featset *fs, int differences, long max)
{
	int cap[2] = { 0, 0 };
	for (int p = 0; p < fs->npat && fs->nfeat < max; p++)
		if (push_feature(ctx, fs, cap, p, -1))
			return MS_ENOMEM;
	if (!differences)
		return MS_OK;
	gmember *m;
	int n, rc;
	if ((rc = group_patterns(ctx, fs, &m, &n)))
		return rc;
	for (int s = 0; s < n && rc == MS_OK; ) {
		int e = s;
		while (e < n && m[e].group == m[s].group)
			e++;
		for (int i = s; e - s <= MAX_GROUP && i < e && rc == MS_OK; i++)
			for (int j = i + 1; j < e && rc == MS_OK && fs->nfeat < max; j++)
				rc = push_feature(ctx, fs, cap, m[i].pat, m[j].pat);
		s = e;
	}
	ms_ctx_mfree(ctx, m);
	return rc;
}

int gdl_featset_build(ms_ctx *ctx, const ms_gdl *g, int differences, long max_features, gdl_featset **out)
{
	*out = NULL;
	gdl_featset *fs = ms_ctx_calloc(ctx, 1, sizeof *fs);
	if (!fs)
		return ms_ctx_error(ctx, MS_ENOMEM, "gdl features: out of memory");
	fs->g = g;
	seqtab t = { 0 };
	gdl_ivec pairs = { 0 };
	int rc = make_patterns(ctx, fs, &t, &pairs);
	if (rc == MS_OK)
		rc = make_lists(ctx, fs, &pairs);
	if (rc == MS_OK)
		rc = make_features(ctx, fs, differences, max_features);
	ms_ctx_mfree(ctx, t.slot);
	gdl_ivec_free(ctx, &pairs);
	if (rc) {
		gdl_featset_free(ctx, fs);
		return ms_ctx_error(ctx, rc, "gdl features: out of memory generating the features of %s", g->name);
	}
	*out = fs;
	return MS_OK;
}

void gdl_featset_free(ms_ctx *ctx, gdl_featset *fs)
{
	if (!fs)
		return;
	gdl_ivec_free(ctx, &fs->key);
	gdl_ivec_free(ctx, &fs->key_off);
	ms_ctx_mfree(ctx, fs->pf_off);
	ms_ctx_mfree(ctx, fs->pf);
	ms_ctx_mfree(ctx, fs->fp_off);
	ms_ctx_mfree(ctx, fs->fp);
	ms_ctx_mfree(ctx, fs->fa);
	ms_ctx_mfree(ctx, fs->fb);
	ms_ctx_mfree(ctx, fs);
}

void gdl_featset_counts(const gdl_featset *fs, const uint64_t *state, int *cnt)
{
	memset(cnt, 0, sizeof *cnt * (size_t)fs->npat);
	for (size_t w = 0; w < fs->g->words; w++)
		for (uint64_t bits = state[w]; bits; bits &= bits - 1) {
			int f = (int)(w * 64) + __builtin_ctzll(bits);
			for (int i = fs->fp_off[f]; i < fs->fp_off[f + 1]; i++)
				cnt[fs->fp[i]]++;
		}
}

static int pattern_count(const gdl_featset *fs, int p, const uint64_t *state)
{
	int n = 0;
	for (int i = fs->pf_off[p]; i < fs->pf_off[p + 1]; i++)
		n += ms_gdl_state_has(state, fs->pf[i]);
	return n;
}

int gdl_feat_value(const gdl_featset *fs, long i, const uint64_t *state)
{
	int v = pattern_count(fs, fs->fa[i], state);
	return fs->fb[i] >= 0 ? v - pattern_count(fs, fs->fb[i], state) : v;
}

/* Appends to buf at *pos like snprintf, counting what does not fit. */
static void put(char *buf, size_t size, size_t *pos, const char *s)
{
	size_t n = strlen(s);
	if (*pos < size)
		memcpy(buf + *pos, s, *pos + n < size ? n : size - *pos - 1);
	*pos += n;
	if (size)
		buf[*pos < size ? *pos : size - 1] = 0;
}

static void pattern_text(const gdl_featset *fs, int p, char *buf, size_t size, size_t *pos)
{
	const ms_gdl *g = fs->g;
	const int *k = fs->key.v + fs->key_off.v[p];
	char arg[256];
	if (k[1] > 0)
		put(buf, size, pos, "(");
	put(buf, size, pos, g->syms.name[k[0]]);
	for (int i = 0; i < k[1]; i++) {
		put(buf, size, pos, " ");
		if (k[2 + i] < 0)
			put(buf, size, pos, "?");
		else if (gdl_term_text(&g->terms, &g->syms, k[2 + i], arg, sizeof arg) < (int)sizeof arg)
			put(buf, size, pos, arg);
		else
			put(buf, size, pos, "...");
	}
	if (k[1] > 0)
		put(buf, size, pos, ")");
}

int gdl_feat_text(const gdl_featset *fs, long i, char *buf, size_t size)
{
	size_t pos = 0;
	if (size)
		buf[0] = 0;
	pattern_text(fs, fs->fa[i], buf, size, &pos);
	if (fs->fb[i] >= 0) {
		put(buf, size, &pos, "-");
		pattern_text(fs, fs->fb[i], buf, size, &pos);
	}
	return (int)pos;
}
