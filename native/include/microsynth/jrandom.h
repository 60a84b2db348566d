/*
 * A bit-exact reimplementation of java.util.Random (the 48-bit linear
 * congruential generator of the JDK), so that wherever the Java engine or a
 * Java bot draws numbers, the native side can draw the same ones.
 *
 * The struct is public so engine states holding one stay flat (one memcpy
 * clones them); treat its fields as private.
 */
#ifndef MICROSYNTH_JRANDOM_H
#define MICROSYNTH_JRANDOM_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ms_jrandom {
	uint64_t seed;          /* 48-bit state */
	double next_gaussian;   /* second value of the last Box-Muller pair */
	int have_next_gaussian;
} ms_jrandom;

/** Same as `new java.util.Random(seed)`. */
MS_EXTERN void ms_jrandom_init(ms_jrandom *r, int64_t seed);

/** Same as Random.setSeed(seed) (also forgets a pending Gaussian). */
MS_EXTERN void ms_jrandom_set_seed(ms_jrandom *r, int64_t seed);

/** Random.next(bits): the top `bits` (1..32) bits of the next state. */
MS_EXTERN int32_t ms_jrandom_next(ms_jrandom *r, int bits);

/** Random.nextInt(). */
MS_EXTERN int32_t ms_jrandom_next_int(ms_jrandom *r);

/**
 * Random.nextInt(bound). Java throws for bound <= 0; here that returns
 * MS_ERANGE and draws nothing.
 */
MS_EXTERN int ms_jrandom_next_int_bounded(ms_jrandom *r, int32_t bound, int32_t *out);

/** Random.nextLong(). */
MS_EXTERN int64_t ms_jrandom_next_long(ms_jrandom *r);

/** Random.nextBoolean(). */
MS_EXTERN int ms_jrandom_next_boolean(ms_jrandom *r);

/** Random.nextFloat(). */
MS_EXTERN float ms_jrandom_next_float(ms_jrandom *r);

/** Random.nextDouble(). */
MS_EXTERN double ms_jrandom_next_double(ms_jrandom *r);

/**
 * Random.nextGaussian(). Java computes it with StrictMath.log, whose fdlibm
 * rounding the C library's log does not always share; a port of it is used.
 */
MS_EXTERN double ms_jrandom_next_gaussian(ms_jrandom *r);

/** Random.nextBytes(bytes) for `len` bytes. */
MS_EXTERN void ms_jrandom_next_bytes(ms_jrandom *r, uint8_t *bytes, size_t len);

/**
 * The raw 48-bit state `new java.util.Random(seed)` starts from: what
 * ms_rts_state_set_rng takes to follow a Java generator so seeded.
 */
MS_EXTERN int64_t ms_jrandom_scramble(int64_t seed);

/*
 * Seeding as the Java runner Match does (Match.Run.seedEngine): for a game
 * seeded `seed`, MicroRTS's k-th static generator (GameState.r, then
 * UnitAction.r, Sampler.generator, PlayerActionGenerator.r) gets
 * new Random(seed * MS_MATCH_SEED_MULT + k).
 */
#define MS_MATCH_SEED_MULT INT64_C(1000003)
enum { MS_MATCH_RNG_GAMESTATE = 1, MS_MATCH_RNG_UNITACTION = 2, MS_MATCH_RNG_SAMPLER = 3, MS_MATCH_RNG_PAG = 4 };

/** seed * MS_MATCH_SEED_MULT + k, wrapping as Java's long arithmetic does. */
MS_EXTERN int64_t ms_jrandom_match_seed(int64_t seed, int k);

#ifdef __cplusplus
}
#endif
#endif
