/*
 * Growable arrays on the context's allocator, written once (as libgit2's
 * git_array_t and Lua's luaM_growvector): MS_VEC(T) is { T *v; int n, cap; }.
 * Growth doubles, is overflow-checked, and leaves the message in the
 * context. Arrays whose entries belong together are one MS_VEC of a
 * struct; where an API needs parallel arrays (columns), ms_vec_grow_cols
 * grows them all to one shared capacity. A NULL context means the C
 * library's realloc, for the tools' code that has none (free with free()).
 */
#ifndef MS_CORE_VEC_H
#define MS_CORE_VEC_H

#include <stddef.h>

#include "microsynth/common.h"

#define MS_VEC(T) struct { T *v; int n, cap; }

/*
 * Makes *cap >= need (elements of `elem` bytes) by doubling; 0 or MS_ENOMEM,
 * the array unchanged on failure. ctx NULL: the C library's realloc.
 */
int ms_vec_grow(ms_ctx *ctx, void **v, int *cap, long long need, size_t elem);

/* One column of parallel arrays: where its pointer is, and its element's size. */
typedef struct ms_vec_col {
	void **v;
	size_t elem;
} ms_vec_col;

/* The column of array `p` (an lvalue of pointer type), for ms_vec_grow_cols. */
#define MS_VEC_COL(p) { (void **)&(p), sizeof *(p) }

/*
 * Makes the shared capacity *cap >= need for every one of the `n` columns,
 * by doubling; 0 or MS_ENOMEM. On failure *cap is unchanged and every
 * column still holds at least *cap elements (those already grown keep
 * their larger block), so all stay valid. ctx NULL: the C library's realloc.
 */
int ms_vec_grow_cols(ms_ctx *ctx, int *cap, long long need, const ms_vec_col *cols, int n);

/*
 * Frees every column and sets its pointer to NULL. Given the same list as
 * ms_vec_grow_cols, an owner frees what it grew without a second list to
 * keep in step.
 */
void ms_vec_dispose_cols(ms_ctx *ctx, const ms_vec_col *cols, int n);

/*
 * For blocks whose size may pass an int's (a byte buffer, a pool of
 * symbols): makes *cap >= need by doubling from at least `min`, never past
 * `max` (0: no bound; the last step stops at max). 0, MS_EINVAL when need is
 * over max, or MS_ENOMEM; the block and *cap unchanged on failure.
 */
int ms_vec_grow_big(ms_ctx *ctx, void **v, size_t *cap, size_t need, size_t elem, size_t min, size_t max);
/* Room for `need` elements in total; 0 or MS_ENOMEM (the array is unchanged). */
#define ms_vec_reserve(ctx, vec, need)                                                      \
	((long long)(need) <= (long long)(vec)->cap                                         \
		 ? 0                                                                        \
		 : ms_vec_grow((ctx), (void **)&(vec)->v, &(vec)->cap, (need), sizeof *(vec)->v))

/* A new last element (uninitialised), or NULL with MS_ENOMEM in the context. */
#define ms_vec_push(ctx, vec) \
	(ms_vec_reserve((ctx), (vec), (long long)(vec)->n + 1) < 0 ? NULL : &(vec)->v[(vec)->n++])

/* Frees the storage; the array is empty and reusable. */
#define ms_vec_dispose(ctx, vec) \
	(ms_ctx_mfree((ctx), (vec)->v), (vec)->v = NULL, (vec)->n = (vec)->cap = 0)

#endif
