/*
 * Growable arrays on the context's allocator, written once (as libgit2's
 * git_array_t and Lua's luaM_growvector): MS_VEC(T) is { T *v; int n, cap; }.
 * Growth doubles, is overflow-checked, and leaves the message in the
 * context. Arrays whose entries belong together are one MS_VEC of a
 * struct; where an API needs parallel arrays, each has its own capacity,
 * so a failed growth leaves every array valid.
 */
#ifndef MS_CORE_VEC_H
#define MS_CORE_VEC_H

#include <stddef.h>

#include "microsynth/common.h"

#define MS_VEC(T) struct { T *v; int n, cap; }

/* Makes *cap >= need (elements of `elem` bytes) by doubling; 0 or MS_ENOMEM. */
int ms_vec_grow(ms_ctx *ctx, void **v, int *cap, long long need, size_t elem);

/*
 * The same growth on the C library's realloc, for code that has no context
 * (the command-line tools' own lists; free them with free()); 0 or
 * MS_ENOMEM, the array unchanged on failure.
 */
int ms_vec_grow_plain(void **v, int *cap, long long need, size_t elem);
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
