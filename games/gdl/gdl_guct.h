/* Private to games/gdl: GUCT's rewards and evaluation cache (guct.c), used by uct.c. */
#ifndef MS_GDL_GUCT_H
#define MS_GDL_GUCT_H

#include "microsynth/gdl.h"

/* Every role's reward in [0, 1]: its eval clamped to 0-100, over 100. */
void gdl_guct_rewards(const ms_gdl_eval *e, int nr, const uint64_t *state, double *r);

/* Rewards of the positions joint moves lead to, keyed by (state hash, joint move);
 * collisions of the 64-bit key are ignored (a wrong prior, never a wrong move). */
typedef struct gdl_guct_cache gdl_guct_cache;
int gdl_guct_cache_new(ms_ctx *ctx, int nr, gdl_guct_cache **out);
void gdl_guct_cache_free(gdl_guct_cache *c);
/* Forgets everything (the eval changed). */
void gdl_guct_cache_clear(gdl_guct_cache *c);
uint64_t gdl_guct_key(uint64_t state_hash, const int *joint, int nr);
const double *gdl_guct_cache_find(const gdl_guct_cache *c, uint64_t key);
void gdl_guct_cache_put(gdl_guct_cache *c, uint64_t key, const double *r);

#endif
