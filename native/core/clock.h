/* The library's one monotonic clock, for deadlines and rates (never for results). */
#ifndef MS_CORE_CLOCK_H
#define MS_CORE_CLOCK_H

#include <stdint.h>

/* Seconds since an arbitrary fixed point (CLOCK_MONOTONIC). */
double ms_now(void);
/* The same in nanoseconds, for budgets kept as integers. */
int64_t ms_now_ns(void);

#endif
