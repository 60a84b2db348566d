/*
 * java.util.Random, bit for bit. Java's int and long arithmetic wraps, C's
 * signed arithmetic must not overflow, so the sums are done unsigned and
 * converted back (two's complement, as every supported compiler does).
 */
#include "microsynth/jrandom.h"

#include <math.h>

#include "core/strictmath.h"

#define MULTIPLIER UINT64_C(0x5DEECE66D)
#define ADDEND UINT64_C(0xB)
#define MASK ((UINT64_C(1) << 48) - 1)

static int32_t to_i32(uint32_t u)
{
	return u <= INT32_MAX ? (int32_t)u : (int32_t)(u - UINT32_C(0x80000000)) + INT32_MIN;
}

static int64_t to_i64(uint64_t u)
{
	return u <= INT64_MAX ? (int64_t)u : (int64_t)(u - UINT64_C(0x8000000000000000)) + INT64_MIN;
}

void ms_jrandom_set_seed(ms_jrandom *r, int64_t seed)
{
	r->seed = ((uint64_t)seed ^ MULTIPLIER) & MASK;
	r->have_next_gaussian = 0;
	r->next_gaussian = 0.0;
}

int64_t ms_jrandom_scramble(int64_t seed)
{
	return (int64_t)(((uint64_t)seed ^ MULTIPLIER) & MASK);
}

int64_t ms_jrandom_match_seed(int64_t seed, int k)
{
	return to_i64((uint64_t)seed * (uint64_t)MS_MATCH_SEED_MULT + (uint64_t)(int64_t)k);
}

void ms_jrandom_init(ms_jrandom *r, int64_t seed)
{
	ms_jrandom_set_seed(r, seed);
}

int32_t ms_jrandom_next(ms_jrandom *r, int bits)
{
	r->seed = (r->seed * MULTIPLIER + ADDEND) & MASK;
	/* (int)(seed >>> (48 - bits)): keep the low 32 bits, reinterpret. */
	return to_i32((uint32_t)(r->seed >> (48 - bits)));
}

int32_t ms_jrandom_next_int(ms_jrandom *r)
{
	return ms_jrandom_next(r, 32);
}

int ms_jrandom_next_int_bounded(ms_jrandom *r, int32_t bound, int32_t *out)
{
	int32_t v, m;

	if (bound <= 0)
		return MS_ERANGE;
	v = ms_jrandom_next(r, 31);
	m = bound - 1;
	if ((bound & m) == 0) {
		v = (int32_t)(((int64_t)bound * (int64_t)v) >> 31);
	} else {
		/* Reject the top partial range: Java tests u - r + m < 0 with
		 * wrapping int arithmetic. */
		int32_t u = v;
		for (;;) {
			v = u % bound;
			if (to_i32((uint32_t)u - (uint32_t)v + (uint32_t)m) >= 0)
				break;
			u = ms_jrandom_next(r, 31);
		}
	}
	*out = v;
	return MS_OK;
}

int64_t ms_jrandom_next_long(ms_jrandom *r)
{
	uint64_t hi = (uint64_t)(int64_t)ms_jrandom_next(r, 32);
	uint64_t lo = (uint64_t)(int64_t)ms_jrandom_next(r, 32);

	return to_i64((hi << 32) + lo);
}

int ms_jrandom_next_boolean(ms_jrandom *r)
{
	return ms_jrandom_next(r, 1) != 0;
}

float ms_jrandom_next_float(ms_jrandom *r)
{
	return (float)ms_jrandom_next(r, 24) / (float)(1 << 24);
}

double ms_jrandom_next_double(ms_jrandom *r)
{
	int64_t hi = ms_jrandom_next(r, 26);
	int64_t lo = ms_jrandom_next(r, 27);

	return (double)((hi << 27) + lo) * 0x1.0p-53;
}

double ms_jrandom_next_gaussian(ms_jrandom *r)
{
	double v1, v2, s, mul;

	if (r->have_next_gaussian) {
		r->have_next_gaussian = 0;
		return r->next_gaussian;
	}
	do {
		v1 = 2 * ms_jrandom_next_double(r) - 1;
		v2 = 2 * ms_jrandom_next_double(r) - 1;
		s = v1 * v1 + v2 * v2;
	} while (s >= 1 || s == 0);
	mul = sqrt(-2 * ms_strict_log(s) / s);
	r->next_gaussian = v2 * mul;
	r->have_next_gaussian = 1;
	return v1 * mul;
}

void ms_jrandom_next_bytes(ms_jrandom *r, uint8_t *bytes, size_t len)
{
	size_t i = 0;

	while (i < len) {
		uint32_t rnd = (uint32_t)ms_jrandom_next_int(r);
		for (int n = 0; n < 4 && i < len; n++, rnd >>= 8)
			bytes[i++] = (uint8_t)rnd;
	}
}
