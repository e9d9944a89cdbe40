/*
 * mutex_common.h - what the drivers of the mutex workloads (mutex-spin,
 * mutex-backoff, mutex-ticket) share: sizes, device buffers and the check.
 *
 * The kernels are HeteroSync-shaped: one 32-thread CTA per contender, thread
 * 0 takes the lock, the whole CTA runs the critical section. In it, thread t
 * reads total[t] and word t of every CTA's line of `percta` with plain loads,
 * counts a mismatch in errs when they do not add up, then increments its
 * CTA's word and total[t] with plain stores; thread 0 writes its CTA id at
 * order[old total]. Other CTAs' lines are only read, so a stale L1 copy
 * (even under a write-evict L1) is caught.
 * INVARIANT (checked): errs == 0; total[t] == CTAs * iters and every CTA's
 * word == iters; every CTA id appears exactly iters times in order.
 * Sizes (CTAs x iters): tiny 8 x 4, small 32 x 8, paper 64 x 10 (HeteroSync
 * takes CTA and iteration counts as run parameters; these are our choice).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef WORKLOADS_MUTEX_COMMON_H
#define WORKLOADS_MUTEX_COMMON_H

#include <stdio.h>
#include <stdlib.h>

#include "base/log.h"
#include "host/workload.h"

#define MUTEX_THREADS 32u /* one warp per CTA, as HeteroSync */

struct mutex_bufs {
    uint32_t ctas, iters;
    addr_t lock;   /* two 128-byte lines of lock words, zeroed */
    addr_t total;  /* one line: acquisitions so far, per thread slot */
    addr_t percta; /* one line per CTA: its own acquisitions, per thread slot */
    addr_t order;  /* ctas * iters slots, all ones */
    addr_t errs;   /* one line: errs[0] counts sums that did not match */
};

static inline void mutex_setup(struct host *h, enum wl_size size, struct mutex_bufs *b)
{
    static const uint32_t ctas[WL_NSIZES] = {8, 32, 32, 64};
    static const uint32_t iters[WL_NSIZES] = {4, 8, 8, 10};
    b->ctas = ctas[size];
    b->iters = iters[size];
    size_t line = MUTEX_THREADS * sizeof(uint32_t);
    b->lock = host_malloc(h, 2 * line);
    b->total = host_malloc(h, line);
    b->percta = host_malloc(h, b->ctas * line);
    b->order = host_malloc(h, b->ctas * b->iters * sizeof(uint32_t));
    b->errs = host_malloc(h, line);
    host_memset(h, b->lock, 0, 2 * line);
    host_memset(h, b->total, 0, line);
    host_memset(h, b->percta, 0, b->ctas * line);
    host_memset(h, b->order, 0xff, b->ctas * b->iters * sizeof(uint32_t));
    host_memset(h, b->errs, 0, line);
}

/* Read back, check the invariant, free the buffers. Returns 0 or 1 (why). */
static inline int mutex_finish(struct host *h, struct mutex_bufs *b, char *why, size_t why_len)
{
    uint32_t nper = b->ctas * MUTEX_THREADS, total = b->ctas * b->iters;
    uint32_t tot[MUTEX_THREADS], errs;
    uint32_t *per = malloc(nper * sizeof *per), *order = malloc(total * sizeof *order);
    uint32_t *seen = calloc(b->ctas, sizeof *seen);
    panic_if(!per || !order || !seen, "out of memory");
    host_memcpy_from_dev(h, tot, b->total, sizeof tot);
    host_memcpy_from_dev(h, &errs, b->errs, sizeof errs);
    host_memcpy_from_dev(h, per, b->percta, nper * sizeof(uint32_t));
    host_memcpy_from_dev(h, order, b->order, total * sizeof(uint32_t));

    int rc = 0;
    if (errs != 0) {
        snprintf(why, why_len,
                 "%u critical-section reads: the CTAs' counts did not add up to the total "
                 "(stale or torn data)",
                 errs);
        rc = 1;
    }
    for (uint32_t t = 0; t < MUTEX_THREADS && rc == 0; t++) {
        if (tot[t] != total) {
            snprintf(why, why_len, "total[%u]: expected %u acquisitions (%u CTAs x %u), got %u", t,
                     total, b->ctas, b->iters, tot[t]);
            rc = 1;
        }
    }
    for (uint32_t i = 0; i < nper && rc == 0; i++) {
        if (per[i] != b->iters) {
            snprintf(why, why_len, "CTA %u's count (word %u): expected %u, got %u",
                     i / MUTEX_THREADS, i % MUTEX_THREADS, b->iters, per[i]);
            rc = 1;
        }
    }
    for (uint32_t i = 0; i < total && rc == 0; i++) {
        if (order[i] >= b->ctas) {
            snprintf(why, why_len, "order[%u]: expected a CTA id < %u, got 0x%08x", i, b->ctas,
                     order[i]);
            rc = 1;
        } else if (++seen[order[i]] > b->iters) {
            snprintf(why, why_len, "CTA %u logged more than %u acquisitions (slot %u)", order[i],
                     b->iters, i);
            rc = 1;
        }
    }
    host_free(h, b->lock);
    host_free(h, b->total);
    host_free(h, b->percta);
    host_free(h, b->order);
    host_free(h, b->errs);
    free(per);
    free(order);
    free(seen);
    return rc;
}

#endif
