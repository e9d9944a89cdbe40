/*
 * coalesce.h - the coalescing unit: one memory access per unique line
 * touched by a warp instruction (spec 002 §2).
 *
 * Lines come out in the order of the lowest lane that touches them, each with
 * the set of lanes it serves. A lane's access never crosses a line: PTX
 * requires natural alignment, and a misaligned lane is reported.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef GPU_COALESCE_H
#define GPU_COALESCE_H

#include "base/types.h"

struct coal_line {
    addr_t line;    /* line-aligned address */
    uint32_t lanes; /* lanes whose access falls in this line */
};

/* Coalesce the accesses of the lanes in `mask` (lane l touches `size` bytes
 * at addr[l]) into lines of `line_bytes` (a power of two >= 16). Writes up to
 * 32 lines to out and returns how many, or -1 with *bad_lane set when a lane's
 * address is not a multiple of `size`. */
int coalesce(const addr_t *addr, uint32_t mask, unsigned size, unsigned line_bytes,
             struct coal_line *out, unsigned *bad_lane);

#endif
