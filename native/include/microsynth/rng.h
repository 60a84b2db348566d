/*
 * The library's own generator for draws that match no Java code (the Java
 * engine's draws go through jrandom.h): SplitMix64 on a caller's 64-bit
 * state, so a search, a player or a game keeps its stream in its own
 * struct and nothing is global. Seed the state with any value.
 */
#ifndef MICROSYNTH_RNG_H
#define MICROSYNTH_RNG_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The next 64 random bits; advances *state. */
MS_EXTERN uint64_t ms_rng_next(uint64_t *state);

/** Uniform integer in [0, n), n >= 1; rejection keeps every value equally likely. */
MS_EXTERN uint32_t ms_rng_below(uint64_t *state, uint32_t n);

/** Uniform double in [0, 1) on a grid of 2^-30 (one ms_rng_below draw). */
MS_EXTERN double ms_rng_unit(uint64_t *state);

#ifdef __cplusplus
}
#endif

#endif
