/*
 * fw.c - host driver of the fw workload (set stc): Floyd-Warshall all-pairs
 * shortest paths over a random n-node graph, one in-place kernel per
 * intermediate node k (n launches), a CTA row of 128 threads per matrix row
 * segment.
 *
 * Pannotia's fw, in spec 000's coarse-grain sharing set; its graph is not
 * given. Sizes: tiny 64 nodes, quick 192, small 384, paper 512; each node
 * has edges to 8 random others with weights 1..100. Check: the CPU's
 * Floyd-Warshall, exactly (integers).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>

#include "base/log.h"
#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_fw[];

#define FW_THREADS 128u
#define FW_INF     (1 << 28)

static int fw_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    static const uint32_t sizes[WL_NSIZES] = {64, 192, 384, 512};
    if (p->variant) {
        snprintf(why, why_len, "unknown variant '%s'", p->variant);
        return 1;
    }
    uint32_t n = sizes[p->size];
    size_t bytes = (size_t)n * n * 4;
    int32_t *d = malloc(bytes), *out = malloc(bytes);
    panic_if(!d || !out, "out of memory");
    struct rng r;
    rng_seed(&r, p->seed, 0);
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < n; j++)
            d[(size_t)i * n + j] = i == j ? 0 : FW_INF;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t e = 0; e < 8; e++) {
            uint32_t j = (uint32_t)rng_below(&r, n);
            if (j != i)
                d[(size_t)i * n + j] = 1 + (int32_t)rng_below(&r, 100);
        }
    host_load_ptx(h, wl_ptx_fw, "workloads/fw/fw.ptx");
    addr_t dd = host_malloc(h, bytes);
    host_memcpy_to_dev(h, dd, d, bytes);
    for (uint32_t k = 0; k < n; k++) {
        struct karg a[] = {KARG_I32(n), KARG_I32(k), KARG_PTR(dd)};
        host_launch(h, "fw_step", DIM3((n + FW_THREADS - 1) / FW_THREADS, n, 1), DIM1(FW_THREADS),
                    0, a, ARRAY_LEN(a));
    }
    host_memcpy_from_dev(h, out, dd, bytes);
    for (uint32_t k = 0; k < n; k++)
        for (uint32_t i = 0; i < n; i++)
            for (uint32_t j = 0; j < n; j++) {
                int32_t via = d[(size_t)i * n + k] + d[(size_t)k * n + j];
                if (via < d[(size_t)i * n + j])
                    d[(size_t)i * n + j] = via;
            }
    int rc = 0;
    for (size_t i = 0; i < (size_t)n * n && !rc; i++)
        if (out[i] != d[i]) {
            snprintf(why, why_len, "d[%zu][%zu]: expected %d, got %d", i / n, i % n, d[i], out[i]);
            rc = 1;
        }
    host_free(h, dd);
    free(d), free(out);
    return rc;
}

const struct workload wl_fw = {
    .name = "fw",
    .set = "stc",
    .desc = "Floyd-Warshall (Pannotia fw): one in-place kernel per intermediate node (spec 000)",
    .ptx = wl_ptx_fw,
    .ptx_file = "workloads/fw/fw.ptx",
    .run = fw_run,
};
