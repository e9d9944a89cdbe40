/*
 * pagerank.c - host driver of the pagerank workload (set stc; a guess for
 * one of spec 000's four unnamed benchmarks): Pannotia-style PageRank over a
 * random directed graph, `iters` iterations of two kernels (contributions,
 * then ranks pulled over in-edges). 128-thread CTAs.
 *
 * Sizes: tiny 1024 nodes, quick 16384, small 65536, paper 65536; 8 random
 * out-edges a node; iters 2 / 10 / 10 / 20. Check: the CPU's iterations
 * (floats, 1e-4 relative).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/log.h"
#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_pagerank[];

#define PR_THREADS 128u
#define PR_DEG     8u

static int pagerank_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    static const uint32_t nodes[WL_NSIZES] = {1024, 16384, 65536, 65536};
    static const uint32_t iters[WL_NSIZES] = {2, 10, 10, 20};
    if (p->variant) {
        snprintf(why, why_len, "unknown variant '%s'", p->variant);
        return 1;
    }
    uint32_t n = nodes[p->size], m = n * PR_DEG;
    uint32_t *src = malloc(m * 4), *dst = malloc(m * 4);
    int32_t *row = calloc(n + 1, 4), *col = malloc(m * 4), *fill = calloc(n, 4);
    int32_t *outdeg = malloc(n * 4);
    float *rank = malloc(n * 4), *contrib = malloc(n * 4), *out = malloc(n * 4);
    panic_if(!src || !dst || !row || !col || !fill || !outdeg || !rank || !contrib || !out,
             "out of memory");
    struct rng r;
    rng_seed(&r, p->seed, 0);
    for (uint32_t e = 0; e < m; e++) { /* node e / PR_DEG -> a random other node */
        src[e] = e / PR_DEG;
        dst[e] = (uint32_t)rng_below(&r, n - 1);
        dst[e] += dst[e] >= src[e];
        row[dst[e] + 1]++;
    }
    for (uint32_t v = 0; v < n; v++) {
        row[v + 1] += row[v];
        outdeg[v] = PR_DEG;
        rank[v] = 1.0f / (float)n;
    }
    for (uint32_t e = 0; e < m; e++) /* in-edges of each node */
        col[row[dst[e]] + fill[dst[e]]++] = (int32_t)src[e];
    host_load_ptx(h, wl_ptx_pagerank, "workloads/pagerank/pagerank.ptx");
    addr_t drow = host_malloc(h, (n + 1) * 4), dcol = host_malloc(h, m * 4);
    addr_t ddeg = host_malloc(h, n * 4), drank = host_malloc(h, n * 4),
           dcon = host_malloc(h, n * 4);
    host_memcpy_to_dev(h, drow, row, (n + 1) * 4);
    host_memcpy_to_dev(h, dcol, col, m * 4);
    host_memcpy_to_dev(h, ddeg, outdeg, n * 4);
    host_memcpy_to_dev(h, drank, rank, n * 4);
    struct dim3 grid = DIM1((n + PR_THREADS - 1) / PR_THREADS);
    for (uint32_t it = 0; it < iters[p->size]; it++) {
        struct karg ca[] = {KARG_I32(n), KARG_PTR(drank), KARG_PTR(ddeg), KARG_PTR(dcon)};
        host_launch(h, "pr_contrib", grid, DIM1(PR_THREADS), 0, ca, ARRAY_LEN(ca));
        struct karg ra[] = {KARG_I32(n), KARG_PTR(drow), KARG_PTR(dcol), KARG_PTR(dcon),
                            KARG_PTR(drank)};
        host_launch(h, "pr_rank", grid, DIM1(PR_THREADS), 0, ra, ARRAY_LEN(ra));
        for (uint32_t v = 0; v < n; v++) /* the same on the CPU */
            contrib[v] = rank[v] / (float)outdeg[v];
        for (uint32_t v = 0; v < n; v++) {
            float s = 0.0f;
            for (int32_t k = row[v]; k < row[v + 1]; k++)
                s += contrib[col[k]];
            rank[v] = 0.15f / (float)n + 0.85f * s;
        }
    }
    host_memcpy_from_dev(h, out, drank, n * 4);
    int rc = 0;
    for (uint32_t v = 0; v < n && !rc; v++)
        if (fabsf(out[v] - rank[v]) > 1e-4f * fmaxf(1e-6f, fabsf(rank[v]))) {
            snprintf(why, why_len, "rank[%u]: expected %.9g, got %.9g", v, (double)rank[v],
                     (double)out[v]);
            rc = 1;
        }
    host_free(h, drow), host_free(h, dcol), host_free(h, ddeg), host_free(h, drank);
    host_free(h, dcon);
    free(src), free(dst), free(row), free(col), free(fill), free(outdeg), free(rank);
    free(contrib), free(out);
    return rc;
}

const struct workload wl_pagerank = {
    .name = "pagerank",
    .set = "stc",
    .desc = "PageRank iterations pulled over in-edges (Pannotia pagerank; a guess for an "
            "unnamed benchmark of spec 000)",
    .ptx = wl_ptx_pagerank,
    .ptx_file = "workloads/pagerank/pagerank.ptx",
    .run = pagerank_run,
};
