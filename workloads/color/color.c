/*
 * color.c - host driver of the color workload (set stc; a guess for one of
 * spec 000's four unnamed benchmarks): graph colouring by rounds of
 * independent sets (Pannotia's color, from the same suite as bc, fw and
 * mis) over a random undirected graph; one kernel per round, the host
 * clearing and reading a "more" flag between rounds. 128-thread CTAs.
 *
 * Sizes: tiny 512 nodes, quick 8192, small 32768, paper 65536; 4 random
 * edges per node. Check: the CPU's rounds give the same colours, and no
 * edge joins two nodes of one colour.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_color[];

#define CO_THREADS 128u

static int color_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    static const uint32_t nodes[WL_NSIZES] = {512, 8192, 32768, 65536};
    if (p->variant) {
        snprintf(why, why_len, "unknown variant '%s'", p->variant);
        return 1;
    }
    uint32_t n = nodes[p->size];
    struct rng r;
    rng_seed(&r, p->seed, 0);
    int32_t *row, *col;
    wl_random_undirected_csr(n, 4, &r, &row, &col);
    uint32_t m = (uint32_t)row[n];
    int32_t *rnd = malloc(n * 4), *color = malloc(n * 4), *out = malloc(n * 4);
    panic_if(!rnd || !color || !out, "out of memory");
    for (uint32_t v = 0; v < n; v++) {
        rnd[v] = (int32_t)(((uint64_t)rng_below(&r, 1u << 20) << 11) | v % 2048); /* distinct */
        color[v] = -1;
    }
    host_load_ptx(h, wl_ptx_color, "workloads/color/color.ptx");
    addr_t drow = host_malloc(h, (n + 1) * 4), dcol = host_malloc(h, m * 4);
    addr_t drnd = host_malloc(h, n * 4), dcolor = host_malloc(h, n * 4), dmore = host_malloc(h, 4);
    host_memcpy_to_dev(h, drow, row, (n + 1) * 4);
    host_memcpy_to_dev(h, dcol, col, m * 4);
    host_memcpy_to_dev(h, drnd, rnd, n * 4);
    host_memcpy_to_dev(h, dcolor, color, n * 4);
    int32_t more = 1;
    for (int32_t c = 0; more; c++) {
        panic_if((uint32_t)c > n, "color: no progress after %d rounds", c);
        more = 0;
        host_memcpy_to_dev(h, dmore, &more, 4);
        struct karg a[] = {KARG_I32(n),    KARG_I32(c),      KARG_PTR(drow), KARG_PTR(dcol),
                           KARG_PTR(drnd), KARG_PTR(dcolor), KARG_PTR(dmore)};
        host_launch(h, "color_round", DIM1((n + CO_THREADS - 1) / CO_THREADS), DIM1(CO_THREADS), 0,
                    a, ARRAY_LEN(a));
        host_memcpy_from_dev(h, &more, dmore, 4);
    }
    host_memcpy_from_dev(h, out, dcolor, n * 4);
    for (int32_t c = 0, left = 1; left; c++) { /* the same rounds on the CPU */
        left = 0;
        int32_t *next = malloc(n * 4);
        panic_if(!next, "out of memory");
        for (uint32_t v = 0; v < n; v++) {
            next[v] = color[v];
            if (color[v] >= 0)
                continue;
            bool best = true;
            for (int32_t k = row[v]; k < row[v + 1]; k++)
                if (color[col[k]] < 0 && rnd[col[k]] > rnd[v])
                    best = false;
            if (best)
                next[v] = c;
            else
                left = 1;
        }
        memcpy(color, next, n * 4);
        free(next);
    }
    int rc = 0;
    for (uint32_t v = 0; v < n && !rc; v++) {
        if (out[v] != color[v]) {
            snprintf(why, why_len, "node %u: colour %d, expected %d", v, out[v], color[v]);
            rc = 1;
        }
        for (int32_t k = row[v]; k < row[v + 1] && !rc; k++)
            if (out[col[k]] == out[v]) {
                snprintf(why, why_len, "edge %u-%d: both colour %d", v, col[k], out[v]);
                rc = 1;
            }
    }
    host_free(h, drow), host_free(h, dcol), host_free(h, drnd), host_free(h, dcolor);
    host_free(h, dmore);
    free(row), free(col), free(rnd), free(color), free(out);
    return rc;
}

const struct workload wl_color = {
    .name = "color",
    .set = "stc",
    .desc = "graph colouring by independent-set rounds (Pannotia color; a guess for an unnamed "
            "benchmark of spec 000)",
    .ptx = wl_ptx_color,
    .ptx_file = "workloads/color/color.ptx",
    .run = color_run,
};
