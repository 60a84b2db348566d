/* SplitMix64 draws on a caller's state (microsynth/rng.h). */
#include "microsynth/rng.h"

#include "core/hash.h"

uint64_t ms_rng_next(uint64_t *state)
{
	return ms_splitmix64_next(state);
}

uint32_t ms_rng_below(uint64_t *state, uint32_t n)
{
	/* values at or above the last whole multiple of n would favour the low residues */
	uint64_t z, lim = UINT64_MAX - UINT64_MAX % n;

	do
		z = ms_splitmix64_next(state);
	while (z >= lim);
	return (uint32_t)(z % n);
}

double ms_rng_unit(uint64_t *state)
{
	return ms_rng_below(state, 1u << 30) / (double)(1u << 30);
}
