/*
 * coalesce.c - the coalescing unit (see coalesce.h).
 *
 * Linear search of the lines found so far, newest first: consecutive lanes
 * usually hit the line of the lane before, so the common case is one compare
 * per lane; the worst case (32 distinct lines) is 32*31/2 compares.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "gpu/coalesce.h"

int coalesce(const addr_t *addr, uint32_t mask, unsigned size, unsigned line_bytes,
             struct coal_line *out, unsigned *bad_lane)
{
    addr_t line_mask = ~(addr_t)(line_bytes - 1);
    int n = 0;
    while (mask) {
        unsigned l = (unsigned)__builtin_ctz(mask);
        mask &= mask - 1;
        addr_t a = addr[l];
        if (a & (size - 1)) {
            *bad_lane = l;
            return -1;
        }
        addr_t line = a & line_mask;
        int i = n - 1;
        while (i >= 0 && out[i].line != line)
            i--;
        if (i < 0) {
            out[n].line = line;
            out[n].lanes = 0;
            i = n++;
        }
        out[i].lanes |= 1u << l;
    }
    return n;
}
