/*
 * Natural logarithm computed as fdlibm does (and so StrictMath.log): split
 * x = 2^k (1 + f) with 1 + f in [sqrt(2)/2, sqrt(2)), then
 * log(1 + f) = 2s + 2s^3/3 + ... with s = f / (2 + f), the tail from a
 * degree-14 minimax polynomial in s^2. The result is off by well under one
 * ulp, but the *same* value as Java's only when the operations run in this
 * order: do not let the compiler contract them into fused multiply-adds.
 */
#include "core/strictmath.h"

#include <stdint.h>
#include <string.h>

static uint64_t bits(double d)
{
	uint64_t u;

	memcpy(&u, &d, sizeof(u));
	return u;
}

static double from_bits(uint64_t u)
{
	double d;

	memcpy(&d, &u, sizeof(d));
	return d;
}

static double with_high(double d, uint32_t hi)
{
	return from_bits(((uint64_t)hi << 32) | (bits(d) & 0xffffffffu));
}

double ms_strict_log(double x)
{
	/* ln 2 split so that k * LN2_HI is exact for |k| < 2^11. */
	const double LN2_HI = from_bits(UINT64_C(0x3fe62e42fee00000));
	const double LN2_LO = from_bits(UINT64_C(0x3dea39ef35793c76));
	const double TWO54 = from_bits(UINT64_C(0x4350000000000000));
	/* Minimax coefficients of (log(1+f) - 2s) / s^2 ... ~ 2/3, 2/5, 2/7, ... */
	const double C1 = from_bits(UINT64_C(0x3fe5555555555593));
	const double C2 = from_bits(UINT64_C(0x3fd999999997fa04));
	const double C3 = from_bits(UINT64_C(0x3fd2492494229359));
	const double C4 = from_bits(UINT64_C(0x3fcc71c51d8e78af));
	const double C5 = from_bits(UINT64_C(0x3fc7466496cb03de));
	const double C6 = from_bits(UINT64_C(0x3fc39a09d078c69f));
	const double C7 = from_bits(UINT64_C(0x3fc2f112df3e5244));
	uint64_t u = bits(x);
	int32_t hx = (int32_t)(uint32_t)(u >> 32);
	uint32_t lx = (uint32_t)u;
	int32_t k = 0, i, j;
	double f, s, z, w, t1, t2, r, hfsq, dk;

	if (hx < 0x00100000) { /* zero, negative or subnormal */
		if (((hx & 0x7fffffff) | (int32_t)lx) == 0)
			return -TWO54 / 0.0; /* -inf */
		if (hx < 0)
			return (x - x) / 0.0; /* NaN */
		k -= 54;
		x *= TWO54;
		hx = (int32_t)(uint32_t)(bits(x) >> 32);
	}
	if (hx >= 0x7ff00000)
		return x + x; /* inf or NaN */
	k += (hx >> 20) - 1023;
	hx &= 0x000fffff;
	/* Pick the exponent that puts the mantissa on the right side of sqrt(2). */
	i = (hx + 0x95f64) & 0x100000;
	x = with_high(x, (uint32_t)(hx | (i ^ 0x3ff00000)));
	k += i >> 20;
	f = x - 1.0;
	if ((0x000fffff & (2 + hx)) < 3) { /* |f| < 2^-20: short series */
		if (f == 0.0) {
			if (k == 0)
				return 0.0;
			dk = (double)k;
			return dk * LN2_HI + dk * LN2_LO;
		}
		r = f * f * (0.5 - 0.33333333333333333 * f);
		if (k == 0)
			return f - r;
		dk = (double)k;
		return dk * LN2_HI - ((r - dk * LN2_LO) - f);
	}
	s = f / (2.0 + f);
	dk = (double)k;
	z = s * s;
	i = hx - 0x6147a;
	w = z * z;
	j = 0x6b851 - hx;
	t1 = w * (C2 + w * (C4 + w * C6));
	t2 = z * (C1 + w * (C3 + w * (C5 + w * C7)));
	i |= j;
	r = t2 + t1;
	if (i > 0) { /* f far from 0: subtract f^2/2 separately for accuracy */
		hfsq = 0.5 * f * f;
		if (k == 0)
			return f - (hfsq - s * (hfsq + r));
		return dk * LN2_HI - ((hfsq - (s * (hfsq + r) + dk * LN2_LO)) - f);
	}
	if (k == 0)
		return f - s * (f - r);
	return dk * LN2_HI - ((s * (f - r) - dk * LN2_LO) - f);
}
