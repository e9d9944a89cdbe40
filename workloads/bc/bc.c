/*
 * bc.c - host driver of the bc workload (set stc): Brandes betweenness
 * centrality from `sources` source nodes of a random directed graph in CSR
 * form; per source an init kernel, one forward kernel per BFS level (the
 * host clears and reads a "more" flag between them) and one backward kernel
 * per level. 128-thread CTAs.
 *
 * Pannotia's bc, in spec 000's inter-kernel reuse set with fine-grain
 * sharing; the paper's graphs are not given (spec 000 §4). Shape kept: the
 * CSR arrays are read-only and re-read by every launch; distances and path
 * counts are updated with atomics by all CTAs; dependencies are pulled from
 * the next level. Sizes: tiny 256 nodes, out-degree 4, 1 source; quick
 * 4096, 6, 2; small 16384, 6, 2; paper 16384, 8, 4. Check: the CPU runs the
 * same algorithm (path counts exact, centralities 1e-3 relative).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_bc[];

#define BC_THREADS 128u

static int bc_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    static const uint32_t nodes[WL_NSIZES] = {256, 4096, 16384, 16384};
    static const uint32_t degs[WL_NSIZES] = {4, 6, 6, 8}, srcs[WL_NSIZES] = {1, 2, 2, 4};
    if (p->variant) {
        snprintf(why, why_len, "unknown variant '%s'", p->variant);
        return 1;
    }
    uint32_t n = nodes[p->size], deg = degs[p->size], m = n * deg;
    int32_t *row = malloc((n + 1) * 4), *col = malloc(m * 4), *dist = malloc(n * 4);
    uint32_t *sigma = malloc(n * 4);
    float *delta = malloc(n * 4), *bc = calloc(n, 4), *out = malloc(n * 4);
    panic_if(!row || !col || !dist || !sigma || !delta || !bc || !out, "out of memory");
    struct rng r;
    rng_seed(&r, p->seed, 0);
    for (uint32_t v = 0; v <= n; v++)
        row[v] = (int32_t)(v * deg);
    for (uint32_t v = 0; v < n; v++)
        for (uint32_t k = 0; k < deg; k++) {
            uint32_t w = (uint32_t)rng_below(&r, n - 1);
            col[v * deg + k] = (int32_t)(w >= v ? w + 1 : w); /* no self loops */
        }

    host_load_ptx(h, wl_ptx_bc, "workloads/bc/bc.ptx");
    addr_t drow = host_malloc(h, (n + 1) * 4), dcol = host_malloc(h, m * 4);
    addr_t ddist = host_malloc(h, n * 4), dsigma = host_malloc(h, n * 4);
    addr_t ddelta = host_malloc(h, n * 4), dbc = host_malloc(h, n * 4), dmore = host_malloc(h, 4);
    host_memcpy_to_dev(h, drow, row, (n + 1) * 4);
    host_memcpy_to_dev(h, dcol, col, m * 4);
    host_memcpy_to_dev(h, dbc, bc, n * 4);
    struct dim3 grid = DIM1((n + BC_THREADS - 1) / BC_THREADS);
    int rc = 0;
    for (uint32_t s = 0; s < srcs[p->size]; s++) {
        int32_t src = (int32_t)(s * (n / srcs[p->size]));
        struct karg ia[] = {KARG_I32(n), KARG_I32(src), KARG_PTR(ddist), KARG_PTR(dsigma),
                            KARG_PTR(ddelta)};
        host_launch(h, "bc_init", grid, DIM1(BC_THREADS), 0, ia, ARRAY_LEN(ia));
        int32_t level = 0, more = 1;
        while (more) {
            more = 0;
            host_memcpy_to_dev(h, dmore, &more, 4);
            struct karg fa[] = {KARG_I32(n),     KARG_I32(level),  KARG_PTR(drow), KARG_PTR(dcol),
                                KARG_PTR(ddist), KARG_PTR(dsigma), KARG_PTR(dmore)};
            host_launch(h, "bc_forward", grid, DIM1(BC_THREADS), 0, fa, ARRAY_LEN(fa));
            host_memcpy_from_dev(h, &more, dmore, 4);
            level++;
        }
        for (int32_t l = level - 1; l >= 0; l--) {
            struct karg ba[] = {KARG_I32(n),      KARG_I32(l),      KARG_I32(src),
                                KARG_PTR(drow),   KARG_PTR(dcol),   KARG_PTR(ddist),
                                KARG_PTR(dsigma), KARG_PTR(ddelta), KARG_PTR(dbc)};
            host_launch(h, "bc_backward", grid, DIM1(BC_THREADS), 0, ba, ARRAY_LEN(ba));
        }
        /* the same on the CPU: BFS in levels, then dependencies pulled */
        for (uint32_t v = 0; v < n; v++) {
            dist[v] = (int32_t)v == src ? 0 : -1;
            sigma[v] = (int32_t)v == src;
            delta[v] = 0.0f;
        }
        int32_t maxl = 0;
        for (int32_t l = 0;; l++) {
            bool grew = false;
            for (uint32_t v = 0; v < n; v++)
                if (dist[v] == l)
                    for (int32_t k = row[v]; k < row[v + 1]; k++) {
                        int32_t w = col[k];
                        if (dist[w] == -1) {
                            dist[w] = l + 1;
                            grew = true;
                        }
                        if (dist[w] == l + 1)
                            sigma[w] += sigma[v];
                    }
            if (!grew) {
                maxl = l;
                break;
            }
        }
        if (maxl + 1 != level) {
            snprintf(why, why_len, "source %d: %d BFS levels on the GPU, %d on the CPU", src, level,
                     maxl + 1);
            rc = 1;
        }
        for (int32_t l = maxl; l >= 0; l--)
            for (uint32_t v = 0; v < n; v++)
                if (dist[v] == l) {
                    float d = 0.0f;
                    for (int32_t k = row[v]; k < row[v + 1]; k++) {
                        int32_t w = col[k];
                        if (dist[w] == l + 1)
                            d += (float)sigma[v] / (float)sigma[w] * (1.0f + delta[w]);
                    }
                    delta[v] = d;
                    if ((int32_t)v != src)
                        bc[v] += d;
                }
        uint32_t *gs = malloc(n * 4);
        panic_if(!gs, "out of memory");
        host_memcpy_from_dev(h, gs, dsigma, n * 4);
        for (uint32_t v = 0; v < n && !rc; v++)
            if (gs[v] != sigma[v]) {
                snprintf(why, why_len, "source %d: sigma[%u] = %u, expected %u", src, v, gs[v],
                         sigma[v]);
                rc = 1;
            }
        free(gs);
    }
    host_memcpy_from_dev(h, out, dbc, n * 4);
    for (uint32_t v = 0; v < n && !rc; v++)
        if (fabsf(out[v] - bc[v]) > 1e-3f * fmaxf(1.0f, fabsf(bc[v]))) {
            snprintf(why, why_len, "bc[%u]: expected %.9g, got %.9g", v, (double)bc[v],
                     (double)out[v]);
            rc = 1;
        }
    host_free(h, drow), host_free(h, dcol), host_free(h, ddist), host_free(h, dsigma);
    host_free(h, ddelta), host_free(h, dbc), host_free(h, dmore);
    free(row), free(col), free(dist), free(sigma), free(delta), free(bc), free(out);
    return rc;
}

const struct workload wl_bc = {
    .name = "bc",
    .set = "stc-reuse",
    .desc = "betweenness centrality (Pannotia bc): BFS-level kernels with atomics over a "
            "read-only CSR graph, then backward kernels (spec 000)",
    .ptx = wl_ptx_bc,
    .ptx_file = "workloads/bc/bc.ptx",
    .run = bc_run,
};
