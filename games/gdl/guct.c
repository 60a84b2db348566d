/*
 * GUCT's helpers for uct.c (MAGICIAN slides 13-14): rewards from an
 * evaluation function, and a direct-mapped cache of the evaluations of the
 * positions moves lead to, so ordering untried moves and priors do not
 * recompute a next state at every visit of a node.
 */
#include <math.h>
#include <string.h>

#include "gdl_guct.h"
#include "core/hash.h"

#define CACHE_SLOTS (1 << 16)

struct gdl_guct_cache {
	ms_ctx *ctx;
	int nr;
	uint64_t *key; /* 0: empty */
	double *val;   /* CACHE_SLOTS * nr */
};

void gdl_guct_rewards(const ms_gdl_eval *e, int nr, const uint64_t *state, double *r)
{
	for (int k = 0; k < nr; k++)
		r[k] = fmin(1.0, fmax(0.0, ms_gdl_eval_state(e, k, state) / 100.0));
}

int gdl_guct_cache_new(ms_ctx *ctx, int nr, gdl_guct_cache **out)
{
	gdl_guct_cache *c = ms_ctx_calloc(ctx, 1, sizeof *c);
	if (c) {
		c->ctx = ctx, c->nr = nr;
		c->key = ms_ctx_calloc(ctx, CACHE_SLOTS, sizeof *c->key);
		c->val = ms_ctx_calloc(ctx, (size_t)CACHE_SLOTS * (size_t)nr, sizeof *c->val);
	}
	if (!c || !c->key || !c->val) {
		gdl_guct_cache_free(c);
		return ms_ctx_error(ctx, MS_ENOMEM, "gdl guct: out of memory");
	}
	*out = c;
	return MS_OK;
}

void gdl_guct_cache_free(gdl_guct_cache *c)
{
	if (!c)
		return;
	ms_ctx_mfree(c->ctx, c->key);
	ms_ctx_mfree(c->ctx, c->val);
	ms_ctx_mfree(c->ctx, c);
}

void gdl_guct_cache_clear(gdl_guct_cache *c)
{
	memset(c->key, 0, sizeof *c->key * CACHE_SLOTS);
}

uint64_t gdl_guct_key(uint64_t state_hash, const int *joint, int nr)
{
	uint64_t h = state_hash ^ 0x2545f4914f6cdd1dull;
	for (int k = 0; k < nr; k++)
		h = ms_fnv1a_step(h, (uint64_t)(uint32_t)joint[k]), h ^= h >> 32;
	return h ? h : 1;
}

const double *gdl_guct_cache_find(const gdl_guct_cache *c, uint64_t key)
{
	size_t i = (size_t)(key & (CACHE_SLOTS - 1));
	return c->key[i] == key ? c->val + i * (size_t)c->nr : NULL;
}

void gdl_guct_cache_put(gdl_guct_cache *c, uint64_t key, const double *r)
{
	size_t i = (size_t)(key & (CACHE_SLOTS - 1));
	c->key[i] = key;
	memcpy(c->val + i * (size_t)c->nr, r, sizeof *r * (size_t)c->nr);
}
