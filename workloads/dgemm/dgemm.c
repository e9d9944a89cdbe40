/*
 * dgemm.c - host driver of the dgemm workload (set stc): C = A * B for n x n
 * doubles, 16 x 16 tiles through shared memory, one kernel.
 *
 * Spec 000 names dgemm (suite not stated; slower at 16 and 32 CUs); its
 * size is not given. Sizes: tiny 64, quick 256, small 384, paper 512.
 * Check: every element against the CPU's product summed in the same order
 * (1e-9 relative).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/log.h"
#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_dgemm[];

static int dgemm_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    static const uint32_t sizes[WL_NSIZES] = {64, 256, 384, 512};
    if (p->variant) {
        snprintf(why, why_len, "unknown variant '%s'", p->variant);
        return 1;
    }
    uint32_t n = sizes[p->size];
    size_t bytes = (size_t)n * n * sizeof(double);
    double *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes);
    panic_if(!a || !b || !c, "out of memory");
    struct rng r;
    rng_seed(&r, p->seed, 0);
    for (size_t i = 0; i < (size_t)n * n; i++) {
        a[i] = (double)rng_below(&r, 2048) / 1024.0 - 1.0;
        b[i] = (double)rng_below(&r, 2048) / 1024.0 - 1.0;
    }
    host_load_ptx(h, wl_ptx_dgemm, "workloads/dgemm/dgemm.ptx");
    addr_t da = host_malloc(h, bytes), db = host_malloc(h, bytes), dc = host_malloc(h, bytes);
    host_memcpy_to_dev(h, da, a, bytes);
    host_memcpy_to_dev(h, db, b, bytes);
    struct karg args[] = {KARG_I32(n), KARG_PTR(da), KARG_PTR(db), KARG_PTR(dc)};
    host_launch(h, "dgemm", DIM3(n / 16, n / 16, 1), DIM3(16, 16, 1), 0, args, ARRAY_LEN(args));
    host_memcpy_from_dev(h, c, dc, bytes);
    int rc = 0;
    for (uint32_t i = 0; i < n && !rc; i++)
        for (uint32_t j = 0; j < n && !rc; j++) {
            double s = 0.0;
            for (uint32_t k = 0; k < n; k++)
                s = fma(a[(size_t)i * n + k], b[(size_t)k * n + j], s);
            double got = c[(size_t)i * n + j];
            if (fabs(got - s) > 1e-9 * fmax(1.0, fabs(s))) {
                snprintf(why, why_len, "C[%u][%u]: expected %.17g, got %.17g", i, j, s, got);
                rc = 1;
            }
        }
    host_free(h, da), host_free(h, db), host_free(h, dc);
    free(a), free(b), free(c);
    return rc;
}

const struct workload wl_dgemm = {
    .name = "dgemm",
    .set = "stc",
    .desc = "double-precision matrix multiply, 16x16 shared-memory tiles (spec 000)",
    .ptx = wl_ptx_dgemm,
    .ptx_file = "workloads/dgemm/dgemm.ptx",
    .run = dgemm_run,
};
