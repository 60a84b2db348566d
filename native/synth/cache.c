/*
 * Scores by program: open addressing on ms_dsl_hash, the symbols kept in
 * one pool so equal hashes are told apart by comparing trees (the
 * reference keyed its cache by printed text; a tree key is exact).
 */
#include <string.h>

#include "core/vec.h"
#include "synth_internal.h"

void syn_cache_init(syn_cache *c, ms_ctx *ctx)
{
	memset(c, 0, sizeof *c);
	c->ctx = ctx;
}

void syn_cache_dispose(syn_cache *c)
{
	ms_ctx_mfree(c->ctx, c->hash);
	ms_ctx_mfree(c->ctx, c->off);
	ms_ctx_mfree(c->ctx, c->len);
	ms_ctx_mfree(c->ctx, c->score);
	ms_ctx_mfree(c->ctx, c->pool);
	syn_cache_init(c, c->ctx);
}

static uint64_t key_of(const ms_dsl_prog *p)
{
	uint64_t h = ms_dsl_hash(p);
	return h ? h : 1;
}

static int same(const syn_cache *c, size_t slot, const ms_dsl_prog *p)
{
	int n = ms_dsl_prog_len(p);
	return c->len[slot] == n &&
	       memcmp(c->pool + c->off[slot], ms_dsl_prog_nodes(p), sizeof(ms_dsl_sym) * (size_t)n) == 0;
}

int syn_cache_get(const syn_cache *c, const ms_dsl_prog *p, double *score)
{
	if (c->n == 0)
		return 0;
	uint64_t h = key_of(p);
	for (size_t i = h & (c->cap - 1);; i = (i + 1) & (c->cap - 1)) {
		if (c->hash[i] == 0)
			return 0;
		if (c->hash[i] == h && same(c, i, p)) {
			*score = c->score[i];
			return 1;
		}
	}
}

static int grow(syn_cache *c)
{
	size_t cap = c->cap ? c->cap * 2 : 1024;
	uint64_t *hash = ms_ctx_calloc(c->ctx, cap, sizeof *hash);
	int64_t *off = ms_ctx_malloc(c->ctx, cap * sizeof *off);
	int32_t *len = ms_ctx_malloc(c->ctx, cap * sizeof *len);
	double *score = ms_ctx_malloc(c->ctx, cap * sizeof *score);
	if (!hash || !off || !len || !score) {
		ms_ctx_mfree(c->ctx, hash);
		ms_ctx_mfree(c->ctx, off);
		ms_ctx_mfree(c->ctx, len);
		ms_ctx_mfree(c->ctx, score);
		return ms_ctx_error(c->ctx, MS_ENOMEM, "search cache: out of memory");
	}
	for (size_t i = 0; i < c->cap; i++) {
		if (c->hash[i] == 0)
			continue;
		size_t j = c->hash[i] & (cap - 1);
		while (hash[j])
			j = (j + 1) & (cap - 1);
		hash[j] = c->hash[i];
		off[j] = c->off[i];
		len[j] = c->len[i];
		score[j] = c->score[i];
	}
	ms_ctx_mfree(c->ctx, c->hash);
	ms_ctx_mfree(c->ctx, c->off);
	ms_ctx_mfree(c->ctx, c->len);
	ms_ctx_mfree(c->ctx, c->score);
	c->hash = hash, c->off = off, c->len = len, c->score = score;
	c->cap = cap;
	return 0;
}

int syn_cache_put(syn_cache *c, const ms_dsl_prog *p, double score)
{
	int rc;
	if (2 * (c->n + 1) > c->cap && (rc = grow(c)) < 0)
		return rc;
	size_t n = (size_t)ms_dsl_prog_len(p);
	if (c->pool_n + n > c->pool_cap &&
	    ms_vec_grow_big(c->ctx, (void **)&c->pool, &c->pool_cap, c->pool_n + n, sizeof *c->pool, 4096, 0) < 0)
		return ms_ctx_error(c->ctx, MS_ENOMEM, "search cache: out of memory");
	uint64_t h = key_of(p);
	size_t i = h & (c->cap - 1);
	for (; c->hash[i]; i = (i + 1) & (c->cap - 1))
		if (c->hash[i] == h && same(c, i, p)) {
			c->score[i] = score;
			return 0;
		}
	memcpy(c->pool + c->pool_n, ms_dsl_prog_nodes(p), n * sizeof *c->pool);
	c->hash[i] = h;
	c->off[i] = (int64_t)c->pool_n;
	c->len[i] = (int32_t)n;
	c->score[i] = score;
	c->pool_n += n;
	c->n++;
	return 0;
}
