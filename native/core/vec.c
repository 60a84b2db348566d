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

int ms_vec_grow_plain(void **v, int *cap, long long need, size_t elem)
{
	long long c;
	void *p;

	if (need <= *cap)
		return MS_OK;
	if ((c = next_cap(*cap, need, elem)) < 0 || !(p = realloc(*v, (size_t)c * elem)))
		return MS_ENOMEM;
	*v = p;
	*cap = (int)c;
	return MS_OK;
}

int ms_vec_grow(ms_ctx *ctx, void **v, int *cap, long long need, size_t elem)
{
	long long c;
	void *p;

	if (need <= *cap)
		return MS_OK;
	if ((c = next_cap(*cap, need, elem)) < 0)
		return ms_ctx_error(ctx, MS_ENOMEM, "array of %lld elements of %zu bytes overflows", need, elem);
	p = ms_ctx_realloc(ctx, *v, (size_t)c * elem);
	if (!p)
		return MS_ENOMEM;
	*v = p;
	*cap = (int)c;
	return MS_OK;
}
