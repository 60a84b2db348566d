/*
 * Arenas: bump allocation for per-match and per-search memory, released all
 * at once with ms_arena_reset. Built with MS_ARENA_MALLOC, every allocation
 * is a separate malloc so ASan and valgrind see each block.
 */
#ifndef MICROSYNTH_ARENA_H
#define MICROSYNTH_ARENA_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ms_arena ms_arena;

/**
 * Creates an arena whose blocks hold at least `block_size` bytes (0 picks a
 * default) and come from `ctx`'s allocator. `ctx` must outlive the arena.
 */
MS_EXTERN int ms_arena_new(ms_arena **out, ms_ctx *ctx, size_t block_size);

/** Frees the arena and everything allocated from it; NULL is ignored. */
MS_EXTERN void ms_arena_free(ms_arena *arena);

/**
 * Returns `size` bytes aligned for any type, or NULL (with MS_ENOMEM in the
 * context) when memory runs out. Zero-size requests return a valid pointer.
 */
MS_EXTERN void *ms_arena_alloc(ms_arena *arena, size_t size);

/** Like ms_arena_alloc, zero-filled; `n * size` overflow returns NULL. */
MS_EXTERN void *ms_arena_calloc(ms_arena *arena, size_t n, size_t size);

/** Copies a string into the arena. */
MS_EXTERN char *ms_arena_strdup(ms_arena *arena, const char *s);

/**
 * Releases every allocation at once. The arena then keeps one block as
 * large as all it held, so a loop of resets and loads no larger than
 * before (playouts, per-decision scratch) stops calling the allocator
 * after its first rounds.
 */
MS_EXTERN void ms_arena_reset(ms_arena *arena);

/** Bytes handed out since the last reset (for tests and statistics). */
MS_EXTERN size_t ms_arena_used(const ms_arena *arena);

/** 1 when built with the malloc pass-through switch (MS_ARENA_MALLOC). */
MS_EXTERN int ms_arena_is_passthrough(void);

#ifdef __cplusplus
}
#endif
#endif
