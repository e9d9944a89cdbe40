/*
 * clock.h - wall-clock time for progress lines and speed measurements (never
 * for anything that affects simulated results).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef BASE_CLOCK_H
#define BASE_CLOCK_H

#include <time.h>

/* Seconds on a monotonic clock, minus `origin`. */
static inline double wall_seconds_since(double origin)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9 - origin;
}

/* Seconds on the same clock since an arbitrary origin (differences only). */
static inline double wall_seconds(void)
{
    return wall_seconds_since(0);
}

#endif
