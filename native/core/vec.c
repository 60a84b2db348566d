/* Growth for MS_VEC arrays (core/vec.h). */
#include "core/vec.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>

#define VEC_MIN_CAP 16

/* The capacity that holds `need` (doubling from `cap`), or -1 when it overflows an int or a size_t. */
static long long next_cap(int cap, long long need, size_t elem)
{
	long long c = cap > 0 ? cap : VEC_MIN_CAP;

	while (c < need && c <= INT_MAX / 2)
		c *= 2;
	if (c < need)
		c = need;
	return need > INT_MAX || (elem && (size_t)c > SIZE_MAX / elem) ? -1 : c;
}

/* A block of `size` bytes in place of p: the context's allocator, or C's without a context. */
static void *grow_block(ms_ctx *ctx, void *p, size_t size)
{
	return ctx ? ms_ctx_realloc(ctx, p, size) : realloc(p, size ? size : 1);
}

int ms_vec_grow(ms_ctx *ctx, void **v, int *cap, long long need, size_t elem)
{
	ms_vec_col col = {v, elem};

	return ms_vec_grow_cols(ctx, cap, need, &col, 1);
}

int ms_vec_grow_cols(ms_ctx *ctx, int *cap, long long need, const ms_vec_col *cols, int n)
{
	long long c = 0;

	if (need <= *cap)
		return MS_OK;
	for (int k = 0; k < n; k++) {
		long long ck = next_cap(*cap, need, cols[k].elem);
		if (ck < 0)
			return ms_ctx_error(ctx, MS_ENOMEM, "array of %lld elements of %zu bytes overflows", need,
					    cols[k].elem);
		c = ck; /* the same for every column: only the overflow test depends on the size */
	}
	for (int k = 0; k < n; k++) {
		void *p = grow_block(ctx, *cols[k].v, (size_t)c * cols[k].elem);
		if (!p)
			return MS_ENOMEM;
		*cols[k].v = p;
	}
	*cap = (int)c;
	return MS_OK;
}

int ms_vec_grow_big(ms_ctx *ctx, void **v, size_t *cap, size_t need, size_t elem, size_t min, size_t max)
{
	size_t c = *cap > min ? *cap : (min ? min : 1);
	void *p;

	if (need <= *cap)
		return MS_OK;
	if (max && need > max)
		return ms_ctx_error(ctx, MS_EINVAL, "a block of %zu elements is over its bound of %zu", need, max);
	while (c < need)
		c = c > SIZE_MAX / 2 ? need : c * 2;
	if (max && c > max)
		c = max;
	if (elem && c > SIZE_MAX / elem)
		return ms_ctx_error(ctx, MS_ENOMEM, "a block of %zu elements of %zu bytes overflows", c, elem);
	if (!(p = grow_block(ctx, *v, c * elem)))
		return ms_ctx_error(ctx, MS_ENOMEM, "out of memory for %zu elements of %zu bytes", c, elem);
	*v = p;
	*cap = c;
	return MS_OK;
}

void ms_vec_dispose_cols(ms_ctx *ctx, const ms_vec_col *cols, int n)
{
	for (int k = 0; k < n; k++) {
		if (ctx)
			ms_ctx_mfree(ctx, *cols[k].v);
		else
			free(*cols[k].v);
		*cols[k].v = NULL;
	}
}
