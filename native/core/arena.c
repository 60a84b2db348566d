/*
 * Arena allocator. Blocks are chained; allocation bumps a pointer in the
 * newest block. With MS_ARENA_MALLOC every allocation is its own block so
 * sanitizers see overflows between neighbours.
 */
#include "microsynth/arena.h"

#include <stdalign.h>
#include <string.h>

#include "core/internal.h"

#define ARENA_ALIGN alignof(max_align_t)
#define ARENA_DEFAULT_BLOCK (64u * 1024u)

typedef struct block {
	struct block *prev;
	size_t size;  /* usable bytes after the header */
	size_t used;
	alignas(max_align_t) unsigned char data[];
} block;

struct ms_arena {
	ms_ctx *ctx;
	block *head;
	size_t block_size;
	size_t used; /* bytes handed out since reset */
};

int ms_arena_is_passthrough(void)
{
#ifdef MS_ARENA_MALLOC
	return 1;
#else
	return 0;
#endif
}

int ms_arena_new(ms_arena **out, ms_ctx *ctx, size_t block_size)
{
	ms_arena *a;

	if (!out || !ctx)
		return MS_EINVAL;
	*out = NULL;
	a = ms_ctx_calloc(ctx, 1, sizeof(*a));
	if (!a)
		return MS_ENOMEM;
	a->ctx = ctx;
	a->block_size = block_size ? block_size : ARENA_DEFAULT_BLOCK;
	*out = a;
	return MS_OK;
}

static void free_blocks(ms_arena *a, block *keep)
{
	block *b = a->head;

	while (b && b != keep) {
		block *prev = b->prev;
		ms_ctx_mfree(a->ctx, b);
		b = prev;
	}
	a->head = keep;
}

void ms_arena_free(ms_arena *a)
{
	if (!a)
		return;
	free_blocks(a, NULL);
	ms_ctx_mfree(a->ctx, a);
}

static size_t round_up(size_t n)
{
	return (n + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
}

void *ms_arena_alloc(ms_arena *a, size_t size)
{
	size_t need = round_up(size ? size : 1);
	block *b = a->head;

	if (need < size) {
		ms_ctx_error(a->ctx, MS_ENOMEM, "arena allocation of %zu bytes overflows", size);
		return NULL;
	}
#ifndef MS_ARENA_MALLOC
	if (b && b->size - b->used >= need) {
		void *p = b->data + b->used;
		b->used += need;
		a->used += need;
		return p;
	}
#endif
	{
		size_t cap = need;
#ifndef MS_ARENA_MALLOC
		if (cap < a->block_size)
			cap = a->block_size;
#endif
		if (cap > SIZE_MAX - sizeof(block)) {
			ms_ctx_error(a->ctx, MS_ENOMEM, "arena allocation of %zu bytes overflows", size);
			return NULL;
		}
		b = ms_ctx_malloc(a->ctx, sizeof(block) + cap);
		if (!b)
			return NULL;
		b->prev = a->head;
		b->size = cap;
		b->used = need;
		a->head = b;
		a->used += need;
		return b->data;
	}
}

void *ms_arena_calloc(ms_arena *a, size_t n, size_t size)
{
	void *p;

	if (size && n > SIZE_MAX / size) {
		ms_ctx_error(a->ctx, MS_ENOMEM, "arena allocation of %zu x %zu bytes overflows", n, size);
		return NULL;
	}
	p = ms_arena_alloc(a, n * size);
	if (p)
		memset(p, 0, n * size);
	return p;
}

char *ms_arena_strdup(ms_arena *a, const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = ms_arena_alloc(a, n);

	if (p)
		memcpy(p, s, n);
	return p;
}

void ms_arena_reset(ms_arena *a)
{
	if (!a)
		return;
#ifdef MS_ARENA_MALLOC
	free_blocks(a, NULL);
#else
	/* Several blocks become one that holds them all: a loop of resets and
	 * loads no larger than before (per-decision scratch, playouts) then
	 * allocates only in its first rounds. A failure here only means the
	 * next allocation asks again. */
	if (a->head && a->head->prev) {
		size_t total = 0;
		for (block *b = a->head; b; b = b->prev)
			total += b->size;
		free_blocks(a, NULL);
		a->head = a->ctx->alloc.malloc_fn(a->ctx->alloc.ud, sizeof(block) + total);
		if (a->head) {
			a->head->prev = NULL;
			a->head->size = total;
		}
	}
	if (a->head)
		a->head->used = 0;
#endif
	a->used = 0;
}

size_t ms_arena_used(const ms_arena *a)
{
	return a ? a->used : 0;
}
