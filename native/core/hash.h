/*
 * The two mixing functions the library uses, written once: FNV-1a for
 * digests of programs, grammars, files and data sets (stable across runs
 * and builds: checkpoints and fingerprints store them), SplitMix64 for
 * seeding and small generators. Changing either changes stored digests and
 * seeded runs, so they are fixed here, not tuned per caller.
 */
#ifndef MS_CORE_HASH_H
#define MS_CORE_HASH_H

#include <stddef.h>
#include <stdint.h>

#define MS_FNV_OFFSET UINT64_C(1469598103934665603)
#define MS_FNV_PRIME UINT64_C(1099511628211)
/* SplitMix64's increment (2^64 / golden ratio), and the first multiplier of its finaliser. */
#define MS_SPLITMIX_GAMMA UINT64_C(0x9e3779b97f4a7c15)
#define MS_SPLITMIX_MUL1 UINT64_C(0xbf58476d1ce4e5b9)
/* 32-bit FNV-1a (hash tables of strings), and 2^32 / golden ratio. */
#define MS_FNV32_OFFSET UINT32_C(2166136261)
#define MS_FNV32_PRIME UINT32_C(16777619)
#define MS_GOLDEN32 UINT32_C(0x9e3779b9)

/* One FNV-1a step: `v` is xored in whole (callers pass bytes, or wider symbols as the DSL does). */
static inline uint64_t ms_fnv1a_step(uint64_t h, uint64_t v)
{
	return (h ^ v) * MS_FNV_PRIME;
}

/* FNV-1a of a string's bytes, continuing from `h` (MS_FNV_OFFSET to start). */
static inline uint64_t ms_fnv1a_str(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = ms_fnv1a_step(h, (uint8_t)*s);
	return h;
}

/* 32-bit FNV-1a of n bytes. */
static inline uint32_t ms_fnv1a32_bytes(const void *p, size_t n)
{
	const uint8_t *b = p;
	uint32_t h = MS_FNV32_OFFSET;
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * MS_FNV32_PRIME;
	return h;
}

/* SplitMix64's finaliser: a bijective mix of all 64 bits. */
static inline uint64_t ms_splitmix64_mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * MS_SPLITMIX_MUL1;
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/*
 * Zobrist digests of sets (memo keys): two words, each the xor of a key per
 * member, so adding or removing a member is one flip. Members are 64-bit
 * items (a cell, with a tag in the high bits to tell sets apart).
 */
static inline void ms_zobrist_flip(uint64_t h[2], uint64_t item)
{
	h[0] ^= ms_splitmix64_mix(UINT64_C(0x6a09e667f3bcc908) + item * MS_SPLITMIX_GAMMA);
	h[1] ^= ms_splitmix64_mix(UINT64_C(0xbb67ae8584caa73b) + item * MS_SPLITMIX_GAMMA);
}

/* A key from two digests' worth of scalars p1, p2 (packed without loss by the caller). */
static inline void ms_memo_key_mix(uint64_t key[2], uint64_t p1, uint64_t p2)
{
	key[0] ^= ms_splitmix64_mix(p1 ^ ms_splitmix64_mix(p2));
	key[1] ^= ms_splitmix64_mix(p2 ^ ms_splitmix64_mix(p1 + MS_SPLITMIX_GAMMA));
}

/* The next output of the SplitMix64 generator whose state is *x. */
static inline uint64_t ms_splitmix64_next(uint64_t *x)
{
	return ms_splitmix64_mix(*x += MS_SPLITMIX_GAMMA);
}

#endif
