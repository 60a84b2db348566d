/* The monotonic clock of core/clock.h. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "core/clock.h"

#include <time.h>

int64_t ms_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

double ms_now(void)
{
	return (double)ms_now_ns() * 1e-9;
}
