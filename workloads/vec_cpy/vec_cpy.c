/*
 * vec_cpy.c - host driver of spec 000's vec-cpy microbenchmark (set stc):
 * dst[i] = src[i] over n floats, one thread per element, 256-thread CTAs.
 *
 * The paper's pathological case for STC: little compute per access and
 * stores to many bands at once. src and dst are separate allocations that
 * start on page boundaries, so src[i] and dst[i] share their page offset
 * (what makes adaptive bands move the band field up). Sizes are not given
 * (spec 000 §4): tiny 4096, quick 65536, small 262144, paper 1048576.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>

#include "base/log.h"
#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_vec_cpy[];

#define VC_THREADS 256u

static int vec_cpy_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    static const uint32_t sizes[WL_NSIZES] = {4096, 65536, 262144, 1u << 20};
    if (p->variant) {
        snprintf(why, why_len, "unknown variant '%s'", p->variant);
        return 1;
    }
    uint32_t n = sizes[p->size];
    float *src = malloc(n * sizeof *src), *out = malloc(n * sizeof *out);
    panic_if(!src || !out, "out of memory");
    struct rng r;
    rng_seed(&r, p->seed, 0);
    for (uint32_t i = 0; i < n; i++)
        src[i] = (float)rng_below(&r, 1u << 24);

    host_load_ptx(h, wl_ptx_vec_cpy, "workloads/vec_cpy/vec_cpy.ptx");
    addr_t dsrc = host_malloc(h, n * sizeof(float)), ddst = host_malloc(h, n * sizeof(float));
    host_memcpy_to_dev(h, dsrc, src, n * sizeof(float));
    struct karg args[] = {KARG_I32(n), KARG_PTR(dsrc), KARG_PTR(ddst)};
    host_launch(h, "vec_cpy", DIM1((n + VC_THREADS - 1) / VC_THREADS), DIM1(VC_THREADS), 0, args,
                ARRAY_LEN(args));
    host_memcpy_from_dev(h, out, ddst, n * sizeof(float));

    int rc = 0;
    for (uint32_t i = 0; i < n && !rc; i++)
        if (out[i] != src[i]) {
            snprintf(why, why_len, "dst[%u]: expected %.9g, got %.9g", i, (double)src[i],
                     (double)out[i]);
            rc = 1;
        }
    host_free(h, dsrc);
    host_free(h, ddst);
    free(src);
    free(out);
    return rc;
}

const struct workload wl_vec_cpy = {
    .name = "vec-cpy",
    .set = "stc",
    .desc = "dst[i] = src[i], one thread per element: stores to many bands at once (spec 000)",
    .ptx = wl_ptx_vec_cpy,
    .ptx_file = "workloads/vec_cpy/vec_cpy.ptx",
    .run = vec_cpy_run,
};
