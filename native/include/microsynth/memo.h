/*
 * Memo tables: results of a deterministic computation kept under a 128-bit
 * key that stands for all of its inputs, so a synthesis that plays the same
 * positions again (the neighbours of a program share most of their games)
 * looks an answer up instead of computing it. A table has a fixed size and
 * forgets its oldest entries; a miss costs a lookup only. A table belongs to
 * one thread, like the context it is made from.
 */
#ifndef MICROSYNTH_MEMO_H
#define MICROSYNTH_MEMO_H

#include <stdint.h>

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ms_memo ms_memo;

/** Limits of ms_memo_new's `bits` (a table of 2^bits entries of 32 bytes). */
#define MS_MEMO_MIN_BITS 4
#define MS_MEMO_MAX_BITS 28
/** The size the library picks when a caller leaves it at 0: 2^18 entries, 8 MiB. */
#define MS_MEMO_DEFAULT_BITS 18

/**
 * A table of 2^bits entries (0: MS_MEMO_DEFAULT_BITS) whose memory comes
 * from `ctx`. MS_ERANGE for bits outside [MS_MEMO_MIN_BITS,
 * MS_MEMO_MAX_BITS], MS_ENOMEM.
 */
MS_EXTERN int ms_memo_new(ms_ctx *ctx, ms_memo **out, unsigned bits);
/** NULL is ignored. */
MS_EXTERN void ms_memo_free(ms_memo *m);
/** Forgets every entry (the counters too). */
MS_EXTERN void ms_memo_clear(ms_memo *m);

/** Lookups, hits and stores since the table was made or cleared. */
typedef struct ms_memo_stats {
	uint64_t lookups, hits, stores;
} ms_memo_stats;

MS_EXTERN void ms_memo_get_stats(const ms_memo *m, ms_memo_stats *out);

/*
 * The table proper. A key is two 64-bit words that callers derive from
 * every input of the computation (a collision would return another
 * computation's answer: keys are 127 bits, so it would take ~2^63 entries);
 * a value is four 32-bit words.
 */

/** 1 and `val` filled when `key` is held, else 0. */
MS_EXTERN int ms_memo_get(ms_memo *m, const uint64_t key[2], uint32_t val[4]);
/** Keeps `val` under `key`, replacing the key's entry or the bucket's older one. */
MS_EXTERN void ms_memo_put(ms_memo *m, const uint64_t key[2], const uint32_t val[4]);

#ifdef __cplusplus
}
#endif
#endif
