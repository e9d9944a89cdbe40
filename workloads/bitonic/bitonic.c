/*
 * bitonic.c - host driver of the bitonic workload (set stc; a guess for one
 * of spec 000's four unnamed benchmarks): HCC's BitonicSort example, a
 * bitonic sort of n unsigned keys in log2(n) (log2(n) + 1) / 2 in-place
 * compare-exchange launches. 256-thread CTAs.
 *
 * Sizes: tiny 1024 keys, quick 32768, small 131072, paper 262144. Check:
 * the keys come out in ascending order, equal to the CPU's qsort.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_bitonic[];

#define BI_THREADS 256u

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static int bitonic_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    static const uint32_t keys[WL_NSIZES] = {1024, 32768, 131072, 262144};
    if (p->variant) {
        snprintf(why, why_len, "unknown variant '%s'", p->variant);
        return 1;
    }
    uint32_t n = keys[p->size];
    uint32_t *a = malloc(n * 4), *out = malloc(n * 4);
    panic_if(!a || !out, "out of memory");
    struct rng r;
    rng_seed(&r, p->seed, 0);
    for (uint32_t i = 0; i < n; i++)
        a[i] = (uint32_t)rng_below(&r, 1u << 31);
    host_load_ptx(h, wl_ptx_bitonic, "workloads/bitonic/bitonic.ptx");
    addr_t da = host_malloc(h, n * 4);
    host_memcpy_to_dev(h, da, a, n * 4);
    for (uint32_t k = 2; k <= n; k *= 2)
        for (uint32_t j = k / 2; j > 0; j /= 2) {
            struct karg args[] = {KARG_I32(n), KARG_I32(j), KARG_I32(k), KARG_PTR(da)};
            host_launch(h, "bitonic_step", DIM1((n + BI_THREADS - 1) / BI_THREADS),
                        DIM1(BI_THREADS), 0, args, ARRAY_LEN(args));
        }
    host_memcpy_from_dev(h, out, da, n * 4);
    qsort(a, n, 4, cmp_u32);
    int rc = 0;
    for (uint32_t i = 0; i < n && !rc; i++)
        if (out[i] != a[i]) {
            snprintf(why, why_len, "key %u: expected %u, got %u", i, a[i], out[i]);
            rc = 1;
        }
    host_free(h, da);
    free(a), free(out);
    return rc;
}

const struct workload wl_bitonic = {
    .name = "bitonic",
    .set = "stc",
    .desc = "bitonic sort, one in-place compare-exchange kernel a step (HCC BitonicSort; a guess "
            "for an unnamed benchmark of spec 000)",
    .ptx = wl_ptx_bitonic,
    .ptx_file = "workloads/bitonic/bitonic.ptx",
    .run = bitonic_run,
};
