/*
 * Java's StrictMath functions where the C library may differ by an ulp.
 * StrictMath is defined as fdlibm's results; the Java side of MicroRTS and
 * java.util.Random.nextGaussian use it, so bit-exact ports need it too.
 */
#ifndef MS_CORE_STRICTMATH_H
#define MS_CORE_STRICTMATH_H

/** StrictMath.log(x): natural logarithm with fdlibm's rounding. */
double ms_strict_log(double x);

#endif
