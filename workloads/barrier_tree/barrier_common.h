/*
 * barrier_common.h - what the drivers of the barrier workloads
 * (barrier-tree, barrier-lockfree) share: the data buffer and its check.
 *
 * Before every barrier episode e each thread t of CTA b writes the tag
 * (e << 20 | b << 8 | t) into its slot with a plain store; after the
 * barrier every thread reads the same slot of every CTA with plain loads and
 * counts mismatches in errs[0] (the first one's episode, reader CTA, writer
 * CTA, thread and value in errs[1..5]). Two halves of the buffer alternate
 * by episode. INVARIANT (checked): errs[0] == 0, i.e. every CTA saw every
 * other CTA's writes of the episode.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef WORKLOADS_BARRIER_COMMON_H
#define WORKLOADS_BARRIER_COMMON_H

#include <stdio.h>

#include "host/workload.h"

#define BARRIER_ERR_WORDS 8u

/* Reads errs back. Returns 0, or 1 with the first mismatch in why. */
static inline int barrier_check_errs(struct host *h, addr_t derrs, char *why, size_t why_len)
{
    uint32_t e[BARRIER_ERR_WORDS];
    host_memcpy_from_dev(h, e, derrs, sizeof e);
    if (e[0] == 0)
        return 0;
    uint32_t want = (e[1] << 20) | (e[3] << 8) | e[4];
    snprintf(why, why_len,
             "%u stale reads after barriers; first: episode %u, CTA %u read CTA %u's slot "
             "(thread %u): expected 0x%08x, got 0x%08x",
             e[0], e[1], e[2], e[3], e[4], want, e[5]);
    return 1;
}

#endif
