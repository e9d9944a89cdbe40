/*
 * types.h - scalar domain types shared by every part of gpucoh.
 *
 * Time is integer picoseconds (tick_t) so that clock domains of different
 * frequencies interleave exactly and runs are deterministic. Addresses are
 * 64-bit simulated device addresses (addr_t).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef BASE_TYPES_H
#define BASE_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint64_t tick_t;  /* simulated time in picoseconds */
typedef uint64_t addr_t;  /* simulated device address */
typedef uint64_t cycle_t; /* a count of cycles of some clock domain */

#define TICK_MAX UINT64_MAX

/* Largest cache line any configuration may use; byte masks are this wide. */
#define LINE_MAX_BYTES 128

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define MIN(a, b)    ((a) < (b) ? (a) : (b))
#define MAX(a, b)    ((a) > (b) ? (a) : (b))

/* container_of: from a pointer to a member back to its enclosing struct. */
#define container_of(p, type, member) ((type *)((char *)(p)-offsetof(type, member)))

#endif
