/*
 * vecadd.c - host driver of the vecadd workload (basic set): c = a + b over
 * n floats, one thread per element, 256-thread CTAs.
 *
 * Stands for the CUDA samples' vectorAdd (paper size: its 50000 elements).
 * Inputs are uniform floats in [-1, 1) from the seed; the check is exact,
 * since one IEEE single add gives the same result on the host.
 * Sizes: tiny 1000 (4 CTAs, the last partly idle), small 65536, paper 50000.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>

#include "base/log.h"
#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_vecadd[];

#define VECADD_THREADS 256u

static float rand_unit(struct rng *r)
{
    return (float)rng_below(r, 1u << 24) / (float)(1u << 23) - 1.0f;
}

static int vecadd_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    static const uint32_t sizes[WL_NSIZES] = {1000, 65536, 65536, 50000};
    if (p->variant) {
        snprintf(why, why_len, "unknown variant '%s'", p->variant);
        return 1;
    }
    uint32_t n = sizes[p->size];
    float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
    panic_if(!a || !b || !c, "out of memory");
    struct rng r;
    rng_seed(&r, p->seed, 0);
    for (uint32_t i = 0; i < n; i++) {
        a[i] = rand_unit(&r);
        b[i] = rand_unit(&r);
    }

    host_load_ptx(h, wl_ptx_vecadd, "workloads/vecadd/vecadd.ptx");
    addr_t da = host_malloc(h, n * sizeof(float)), db = host_malloc(h, n * sizeof(float));
    addr_t dc = host_malloc(h, n * sizeof(float));
    host_memcpy_to_dev(h, da, a, n * sizeof(float));
    host_memcpy_to_dev(h, db, b, n * sizeof(float));
    host_memset(h, dc, 0, n * sizeof(float));
    struct karg args[] = {KARG_PTR(da), KARG_PTR(db), KARG_PTR(dc), KARG_I32(n)};
    host_launch(h, "vecadd", DIM1((n + VECADD_THREADS - 1) / VECADD_THREADS), DIM1(VECADD_THREADS),
                0, args, ARRAY_LEN(args));
    host_memcpy_from_dev(h, c, dc, n * sizeof(float));

    int rc = 0;
    for (uint32_t i = 0; i < n; i++) {
        float want = a[i] + b[i];
        if (c[i] != want) {
            snprintf(why, why_len, "c[%u]: expected %.9g, got %.9g", i, (double)want, (double)c[i]);
            rc = 1;
            break;
        }
    }
    host_free(h, da);
    host_free(h, db);
    host_free(h, dc);
    free(a);
    free(b);
    free(c);
    return rc;
}

const struct workload wl_vecadd = {
    .name = "vecadd",
    .set = "basic",
    .desc = "c = a + b over floats, one thread per element (CUDA samples vectorAdd)",
    .ptx = wl_ptx_vecadd,
    .ptx_file = "workloads/vecadd/vecadd.ptx",
    .run = vecadd_run,
};
