/*
 * mutex_common.h - what the drivers of the mutex workloads (mutex-spin,
 * mutex-backoff, mutex-ticket) share: sizes, device buffers and the check.
 *
 * The kernels are HeteroSync-shaped: one 32-thread CTA per contender, thread
 * 0 takes the lock, the whole CTA runs the critical section, which adds 1 to
 * every word of `nldst` 128-byte lines with plain loads and stores, and
 * thread 0 writes its CTA id at order[old value of word 0].
 * INVARIANT (checked): every data word == CTAs * iters, and every CTA id
 * appears exactly iters times in order - a lost update (stale read, broken
 * exclusion) fails one or both.
 * Sizes (CTAs x iters x nldst): tiny 8 x 2 x 2, small 32 x 8 x 4,
 * paper 64 x 10 x 10 (HeteroSync takes these as run parameters; numLdSt 10
 * is its usual value, the CTA and iteration counts are our choice).
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
    uint32_t ctas, iters, nldst;
    addr_t lock;   /* two 128-byte lines of lock words, zeroed */
    addr_t data;   /* nldst lines of counters, zeroed */
    addr_t order;  /* ctas * iters slots, all ones */
};

static inline void mutex_setup(struct host *h, enum wl_size size, struct mutex_bufs *b)
{
    static const uint32_t ctas[WL_NSIZES] = {8, 32, 64};
    static const uint32_t iters[WL_NSIZES] = {2, 8, 10};
    static const uint32_t nldst[WL_NSIZES] = {2, 4, 10};
    b->ctas = ctas[size];
    b->iters = iters[size];
    b->nldst = nldst[size];
    b->lock = host_malloc(h, 256);
    b->data = host_malloc(h, b->nldst * MUTEX_THREADS * sizeof(uint32_t));
    b->order = host_malloc(h, b->ctas * b->iters * sizeof(uint32_t));
    host_memset(h, b->lock, 0, 256);
    host_memset(h, b->data, 0, b->nldst * MUTEX_THREADS * sizeof(uint32_t));
    host_memset(h, b->order, 0xff, b->ctas * b->iters * sizeof(uint32_t));
}

/* Read back, check the invariant, free the buffers. Returns 0 or 1 (why). */
static inline int mutex_finish(struct host *h, struct mutex_bufs *b, char *why, size_t why_len)
{
    uint32_t nwords = b->nldst * MUTEX_THREADS, total = b->ctas * b->iters;
    uint32_t *data = malloc(nwords * sizeof *data), *order = malloc(total * sizeof *order);
    uint32_t *seen = calloc(b->ctas, sizeof *seen);
    panic_if(!data || !order || !seen, "out of memory");
    host_memcpy_from_dev(h, data, b->data, nwords * sizeof(uint32_t));
    host_memcpy_from_dev(h, order, b->order, total * sizeof(uint32_t));

    int rc = 0;
    for (uint32_t i = 0; i < nwords && rc == 0; i++) {
        if (data[i] != total) {
            snprintf(why, why_len,
                     "data word %u (line %u): expected %u increments (%u CTAs x %u), got %u", i,
                     i / MUTEX_THREADS, total, b->ctas, b->iters, data[i]);
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
    host_free(h, b->data);
    host_free(h, b->order);
    free(data);
    free(order);
    free(seen);
    return rc;
}

#endif
