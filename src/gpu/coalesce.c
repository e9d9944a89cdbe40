/*
 * coalesce.c - the coalescing unit (see coalesce.h).
 *
 * Linear search of the lines found so far, newest first: consecutive lanes
 * usually hit the line of the lane before, so the common case is one compare
 * per lane, with the newest line's lanes gathered in a register (stored when
 * a lane leaves that line, and at the end) rather than in out[] each lane;
 * the worst case (32 distinct lines) is 32*31/2 compares.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "gpu/coalesce.h"

int coalesce(const addr_t *addr, uint32_t mask, unsigned size, unsigned line_bytes,
             struct coal_line *out, unsigned *bad_lane)
{
    addr_t line_mask = ~(addr_t)(line_bytes - 1);
    int n = 0;
    addr_t cur = 0;         /* the newest line (out[n - 1], when n > 0) ... */
    uint32_t cur_lanes = 0; /* ... and its lanes, kept here until a lane leaves it */
    while (mask) {
        unsigned l = (unsigned)__builtin_ctz(mask);
        mask &= mask - 1;
        addr_t a = addr[l];
        if (a & (size - 1)) {
            *bad_lane = l;
            return -1;
        }
        addr_t line = a & line_mask;
        if (n && line == cur) { /* the common case: one compare, no store */
            cur_lanes |= 1u << l;
            continue;
        }
        if (n)
            out[n - 1].lanes = cur_lanes;
        int i = n - 2;
        while (i >= 0 && out[i].line != line)
            i--;
        if (i >= 0) { /* an older line: the newest stays the newest */
            out[i].lanes |= 1u << l;
            continue;
        }
        out[n++].line = cur = line;
        cur_lanes = 1u << l;
    }
    if (n)
        out[n - 1].lanes = cur_lanes;
    return n;
}
