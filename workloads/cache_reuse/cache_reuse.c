/*
 * cache_reuse.c - host driver of spec 000's cache-reuse microbenchmark (set
 * stc): 10 kernels, each reading the same read-only array a and updating a
 * second array b (b[i] = 0.5 b[i] + k a[i], k = 1..10), 64 CTAs of 256
 * threads striding over the arrays (every kernel places an element on the
 * same CU).
 *
 * The paper: "10 kernels, each reads the same read-only array and updates a
 * second array"; sizes are not given (spec 000 §4). a is sized so that each
 * CU's share fits its L1 on stc-gcn (8 x 64 KB): tiny 4096 floats (16 KB),
 * quick and small 65536 (256 KB), paper 114688 (448 KB, 56 KB a CU). A
 * launch that invalidates the L1 (rc) loses a between kernels; STC keeps it
 * where a's bands are not written (AB moves the band field so that a and b
 * fall in different bands). b and a are separate allocations.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/log.h"
#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_cache_reuse[];

#define CR_THREADS 256u
#define CR_KERNELS 10u
#define CR_CTAS    64u /* resident at once on 8 CUs (8 each): the same placement every kernel */

static int cache_reuse_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    static const uint32_t sizes[WL_NSIZES] = {4096, 65536, 65536, 114688};
    if (p->variant) {
        snprintf(why, why_len, "unknown variant '%s'", p->variant);
        return 1;
    }
    uint32_t n = sizes[p->size];
    float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *out = malloc(n * sizeof *out);
    panic_if(!a || !b || !out, "out of memory");
    struct rng r;
    rng_seed(&r, p->seed, 0);
    for (uint32_t i = 0; i < n; i++) {
        a[i] = (float)rng_below(&r, 1u << 10) / 1024.0f;
        b[i] = (float)rng_below(&r, 1u << 10) / 1024.0f;
    }

    host_load_ptx(h, wl_ptx_cache_reuse, "workloads/cache_reuse/cache_reuse.ptx");
    addr_t da = host_malloc(h, n * sizeof(float)), db = host_malloc(h, n * sizeof(float));
    host_memcpy_to_dev(h, da, a, n * sizeof(float));
    host_memcpy_to_dev(h, db, b, n * sizeof(float));
    for (uint32_t k = 1; k <= CR_KERNELS; k++) {
        struct karg args[] = {KARG_I32(n), KARG_F32((float)k), KARG_PTR(da), KARG_PTR(db)};
        host_launch(h, "cache_reuse", DIM1(CR_CTAS), DIM1(CR_THREADS), 0, args, ARRAY_LEN(args));
    }
    host_memcpy_from_dev(h, out, db, n * sizeof(float));

    int rc = 0;
    for (uint32_t i = 0; i < n && !rc; i++) {
        float want = b[i];
        for (uint32_t k = 1; k <= CR_KERNELS; k++)
            want = fmaf((float)k, a[i], 0.5f * want); /* nvcc contracts to one fma */
        if (fabsf(out[i] - want) > 1e-5f * fmaxf(1.0f, fabsf(want))) {
            snprintf(why, why_len, "b[%u]: expected %.9g, got %.9g", i, (double)want,
                     (double)out[i]);
            rc = 1;
        }
    }
    host_free(h, da);
    host_free(h, db);
    free(a);
    free(b);
    free(out);
    return rc;
}

const struct workload wl_cache_reuse = {
    .name = "cache-reuse",
    .set = "stc-reuse",
    .desc = "10 kernels each re-reading one read-only array and updating another (spec 000)",
    .ptx = wl_ptx_cache_reuse,
    .ptx_file = "workloads/cache_reuse/cache_reuse.ptx",
    .run = cache_reuse_run,
};
