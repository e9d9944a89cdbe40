/*
 * reduce.c - host driver of the reduce workload (basic set): sum of n
 * unsigned words, each 256-thread CTA reducing 512 of them in shared memory
 * with __syncthreads between tree levels and writing one partial sum.
 *
 * Stands for Harris's "Optimizing Parallel Reduction in CUDA" (kernel 4;
 * paper size: the talk's 1 << 22 elements). The host adds the partial sums;
 * the check compares every partial sum exactly (unsigned wrap-around, so
 * no overflow question) and then the total.
 * Sizes: tiny 4096 (8 CTAs), small 1 << 18, paper 1 << 22.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>

#include "base/log.h"
#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_reduce[];

#define REDUCE_THREADS 256u /* must match reduce.cu */

static int reduce_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    static const uint32_t sizes[WL_NSIZES] = {4096, 1u << 18, 1u << 18, 1u << 22};
    if (p->variant) {
        snprintf(why, why_len, "unknown variant '%s'", p->variant);
        return 1;
    }
    uint32_t n = sizes[p->size];
    uint32_t ctas = n / (2 * REDUCE_THREADS);
    uint32_t *in = malloc(n * sizeof *in), *part = malloc(ctas * sizeof *part);
    panic_if(!in || !part, "out of memory");
    struct rng r;
    rng_seed(&r, p->seed, 0);
    for (uint32_t i = 0; i < n; i++)
        in[i] = (uint32_t)rng_next(&r);

    host_load_ptx(h, wl_ptx_reduce, "workloads/reduce/reduce.ptx");
    addr_t din = host_malloc(h, n * sizeof(uint32_t));
    addr_t dpart = host_malloc(h, ctas * sizeof(uint32_t));
    host_memcpy_to_dev(h, din, in, n * sizeof(uint32_t));
    host_memset(h, dpart, 0, ctas * sizeof(uint32_t));
    struct karg args[] = {KARG_PTR(din), KARG_PTR(dpart)};
    host_launch(h, "reduce", DIM1(ctas), DIM1(REDUCE_THREADS), 0, args, ARRAY_LEN(args));
    host_memcpy_from_dev(h, part, dpart, ctas * sizeof(uint32_t));

    int rc = 0;
    uint32_t total = 0, want_total = 0;
    for (uint32_t c = 0; c < ctas && rc == 0; c++) {
        uint32_t want = 0;
        for (uint32_t i = 0; i < 2 * REDUCE_THREADS; i++)
            want += in[c * 2 * REDUCE_THREADS + i];
        if (part[c] != want) {
            snprintf(why, why_len, "partial[%u]: expected %u, got %u", c, want, part[c]);
            rc = 1;
        }
        total += part[c];
        want_total += want;
    }
    if (rc == 0 && total != want_total) {
        snprintf(why, why_len, "total: expected %u, got %u", want_total, total);
        rc = 1;
    }
    host_free(h, din);
    host_free(h, dpart);
    free(in);
    free(part);
    return rc;
}

const struct workload wl_reduce = {
    .name = "reduce",
    .set = "basic",
    .desc = "shared-memory tree sum per CTA with __syncthreads (Harris reduction #4)",
    .ptx = wl_ptx_reduce,
    .ptx_file = "workloads/reduce/reduce.ptx",
    .run = reduce_run,
};
