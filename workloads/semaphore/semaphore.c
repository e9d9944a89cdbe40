/*
 * semaphore.c - host driver of the semaphore workload (sync set): a counting
 * semaphore of S units in one word (wait: relaxed load, then
 * compare_exchange(acquire); post: fetch_add(release); device scope), taken
 * by thread 0 of every CTA, HeteroSync's spinSem. Every 4th CTA is a writer
 * and takes all S units; the others are readers and take one.
 *
 * Writers add 1 to every word of `nldst` lines with plain loads and stores
 * and count the write atomically; readers check with plain loads that every
 * word equals the atomic write count (no writer can be inside with them).
 * Check: reader mismatches == 0, every word == writer CTAs * iters, the
 * write count likewise, and the semaphore back at S.
 * Sizes (CTAs x iters x nldst, S): tiny 8 x 2 x 2, S 2; small 32 x 8 x 4,
 * S 10; paper 64 x 10 x 10, S 10 (HeteroSync runs sizes 1, 2, 10 and 120;
 * the CTA and iteration counts are our choice). 32-thread CTAs.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>

#include "base/log.h"
#include "host/workload.h"

extern const char wl_ptx_semaphore[];

#define SEM_THREADS      32u
#define SEM_WRITER_EVERY 4u

static int semaphore_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    static const uint32_t ctas_by_size[WL_NSIZES] = {8, 32, 32, 64};
    static const uint32_t iters_by_size[WL_NSIZES] = {2, 8, 8, 10};
    static const uint32_t nldst_by_size[WL_NSIZES] = {2, 4, 4, 10};
    static const uint32_t units_by_size[WL_NSIZES] = {2, 10, 10, 10};
    if (p->variant) {
        snprintf(why, why_len, "unknown variant '%s'", p->variant);
        return 1;
    }
    uint32_t ctas = ctas_by_size[p->size], iters = iters_by_size[p->size];
    uint32_t nldst = nldst_by_size[p->size], units = units_by_size[p->size];
    uint32_t nwords = nldst * SEM_THREADS;
    uint32_t writes = (ctas + SEM_WRITER_EVERY - 1) / SEM_WRITER_EVERY * iters;
    uint32_t *data = malloc(nwords * sizeof *data);
    panic_if(!data, "out of memory");

    host_load_ptx(h, wl_ptx_semaphore, "workloads/semaphore/semaphore.ptx");
    addr_t dsem = host_malloc(h, 128), ddata = host_malloc(h, nwords * sizeof(uint32_t));
    addr_t dwcount = host_malloc(h, 128), derrs = host_malloc(h, 128);
    host_memcpy_to_dev(h, dsem, &units, sizeof units);
    host_memset(h, ddata, 0, nwords * sizeof(uint32_t));
    host_memset(h, dwcount, 0, 128);
    host_memset(h, derrs, 0, 128);
    struct karg args[] = {KARG_PTR(dsem),  KARG_PTR(ddata),           KARG_PTR(dwcount),
                          KARG_PTR(derrs), KARG_I32(iters),           KARG_I32(nldst),
                          KARG_I32(units), KARG_I32(SEM_WRITER_EVERY)};
    host_launch(h, "semaphore", DIM1(ctas), DIM1(SEM_THREADS), 0, args, ARRAY_LEN(args));
    uint32_t sem, wcount, errs;
    host_memcpy_from_dev(h, &sem, dsem, sizeof sem);
    host_memcpy_from_dev(h, &wcount, dwcount, sizeof wcount);
    host_memcpy_from_dev(h, &errs, derrs, sizeof errs);
    host_memcpy_from_dev(h, data, ddata, nwords * sizeof(uint32_t));

    int rc = 1;
    if (errs != 0)
        snprintf(why, why_len, "readers saw %u words that differ from the write count", errs);
    else if (wcount != writes)
        snprintf(why, why_len, "write count: expected %u, got %u", writes, wcount);
    else if (sem != units)
        snprintf(why, why_len, "semaphore: expected %u free units at the end, got %u", units, sem);
    else
        rc = 0;
    for (uint32_t i = 0; i < nwords && rc == 0; i++) {
        if (data[i] != writes) {
            snprintf(why, why_len, "data word %u: expected %u writer increments, got %u", i, writes,
                     data[i]);
            rc = 1;
        }
    }
    host_free(h, dsem);
    host_free(h, ddata);
    host_free(h, dwcount);
    host_free(h, derrs);
    free(data);
    return rc;
}

const struct workload wl_semaphore = {
    .name = "semaphore",
    .set = "sync",
    .desc = "counting semaphore, readers take 1 unit, writers all (HeteroSync spinSem)",
    .ptx = wl_ptx_semaphore,
    .ptx_file = "workloads/semaphore/semaphore.ptx",
    .run = semaphore_run,
};
