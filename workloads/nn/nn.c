/*
 * nn.c - host driver of the nn workload (set stc): Rodinia's nearest
 * neighbour, one kernel computing every record's distance to a query point
 * (Rodinia's host then picks the nearest). 256-thread CTAs.
 *
 * Spec 000 names Rodinia's nn (slower at 16 and 32 CUs, where epoch
 * changes cost more); its input is not given. Sizes: tiny 4096 records,
 * quick 65536, small 262144, paper 1 M. Check: every distance against the
 * CPU's (1e-5 relative).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/log.h"
#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_nn[];

#define NN_THREADS 256u

static int nn_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    static const uint32_t recs[WL_NSIZES] = {4096, 65536, 262144, 1u << 20};
    if (p->variant) {
        snprintf(why, why_len, "unknown variant '%s'", p->variant);
        return 1;
    }
    uint32_t n = recs[p->size];
    float *lat = malloc(n * 4), *lng = malloc(n * 4), *d = malloc(n * 4);
    panic_if(!lat || !lng || !d, "out of memory");
    struct rng r;
    rng_seed(&r, p->seed, 0);
    for (uint32_t i = 0; i < n; i++) {
        lat[i] = (float)rng_below(&r, 180000) / 1000.0f - 90.0f;
        lng[i] = (float)rng_below(&r, 360000) / 1000.0f - 180.0f;
    }
    const float qlat = 30.0f, qlng = 90.0f;
    host_load_ptx(h, wl_ptx_nn, "workloads/nn/nn.ptx");
    addr_t dlat = host_malloc(h, n * 4), dlng = host_malloc(h, n * 4), dd = host_malloc(h, n * 4);
    host_memcpy_to_dev(h, dlat, lat, n * 4);
    host_memcpy_to_dev(h, dlng, lng, n * 4);
    struct karg a[] = {KARG_I32(n),    KARG_F32(qlat), KARG_F32(qlng),
                       KARG_PTR(dlat), KARG_PTR(dlng), KARG_PTR(dd)};
    host_launch(h, "nn_dist", DIM1((n + NN_THREADS - 1) / NN_THREADS), DIM1(NN_THREADS), 0, a,
                ARRAY_LEN(a));
    host_memcpy_from_dev(h, d, dd, n * 4);
    int rc = 0;
    for (uint32_t i = 0; i < n && !rc; i++) {
        float x = lat[i] - qlat, y = lng[i] - qlng, want = sqrtf(x * x + y * y);
        if (fabsf(d[i] - want) > 1e-5f * fmaxf(1.0f, want)) {
            snprintf(why, why_len, "distance of record %u: expected %.9g, got %.9g", i,
                     (double)want, (double)d[i]);
            rc = 1;
        }
    }
    host_free(h, dlat), host_free(h, dlng), host_free(h, dd);
    free(lat), free(lng), free(d);
    return rc;
}

const struct workload wl_nn = {
    .name = "nn",
    .set = "stc",
    .desc = "Rodinia nearest neighbour: one kernel of record-to-query distances (spec 000)",
    .ptx = wl_ptx_nn,
    .ptx_file = "workloads/nn/nn.ptx",
    .run = nn_run,
};
