/*
 * counter_relaxed.c - host driver of the counter-relaxed workload (sync
 * set): every thread adds 1, iters times, to one device-wide counter
 * (fetch_add relaxed, device scope) and to its CTA's counter (fetch_add
 * relaxed, block scope, one 128-byte line per CTA). Stands for the relaxed
 * event/statistics counters of HeteroSync's relaxed-atomics set (Sinclair
 * et al., ISCA 2017). Check: total == CTAs * threads * iters and every CTA
 * counter == threads * iters, read by the host after the kernel.
 * Sizes (CTAs x threads x iters): tiny 4 x 64 x 4, small 16 x 256 x 16,
 * paper 64 x 256 x 64 (our choice).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>

#include "base/log.h"
#include "host/workload.h"

extern const char wl_ptx_counter_relaxed[];

#define CTR_LINE_WORDS 32u /* must match counter_relaxed.cu */

static int counter_relaxed_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    static const uint32_t ctas_by_size[WL_NSIZES] = {4, 16, 16, 64};
    static const uint32_t threads_by_size[WL_NSIZES] = {64, 256, 256, 256};
    static const uint32_t iters_by_size[WL_NSIZES] = {4, 16, 16, 64};
    if (p->variant) {
        snprintf(why, why_len, "unknown variant '%s'", p->variant);
        return 1;
    }
    uint32_t ctas = ctas_by_size[p->size], threads = threads_by_size[p->size];
    uint32_t iters = iters_by_size[p->size];
    size_t per_bytes = ctas * CTR_LINE_WORDS * sizeof(uint32_t);
    uint32_t *per = malloc(per_bytes);
    panic_if(!per, "out of memory");

    host_load_ptx(h, wl_ptx_counter_relaxed, "workloads/counter_relaxed/counter_relaxed.ptx");
    addr_t dtotal = host_malloc(h, 128), dper = host_malloc(h, per_bytes);
    host_memset(h, dtotal, 0, 128);
    host_memset(h, dper, 0, per_bytes);
    struct karg args[] = {KARG_PTR(dtotal), KARG_PTR(dper), KARG_I32(iters)};
    host_launch(h, "counter_relaxed", DIM1(ctas), DIM1(threads), 0, args, ARRAY_LEN(args));
    uint32_t total;
    host_memcpy_from_dev(h, &total, dtotal, sizeof total);
    host_memcpy_from_dev(h, per, dper, per_bytes);

    int rc = 0;
    if (total != ctas * threads * iters) {
        snprintf(why, why_len, "device counter: expected %u, got %u", ctas * threads * iters,
                 total);
        rc = 1;
    }
    for (uint32_t c = 0; c < ctas && rc == 0; c++) {
        if (per[c * CTR_LINE_WORDS] != threads * iters) {
            snprintf(why, why_len, "CTA %u counter: expected %u, got %u", c, threads * iters,
                     per[c * CTR_LINE_WORDS]);
            rc = 1;
        }
    }
    host_free(h, dtotal);
    host_free(h, dper);
    free(per);
    return rc;
}

const struct workload wl_counter_relaxed = {
    .name = "counter-relaxed",
    .set = "sync",
    .desc = "relaxed atomic counters, device-wide and per-CTA (block scope), checked totals",
    .ptx = wl_ptx_counter_relaxed,
    .ptx_file = "workloads/counter_relaxed/counter_relaxed.ptx",
    .run = counter_relaxed_run,
};
