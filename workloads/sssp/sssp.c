/*
 * sssp.c - host driver of sssp, Table 5.3's graph class (Lonestar bfs and
 * mst on road-FLA; spec 004b §5.1): single-source shortest paths by
 * Bellman-Ford rounds with system-scope atomicMin, one relaxation launch and
 * one frontier launch per round until a round changes nothing (sssp.cu).
 *
 * The graph is road-like: a side x side grid of nodes, each joined to its
 * four neighbours, plus side x side / 8 random shortcuts between any two
 * nodes (highways); edge weights in [1, 16]; all from the seed. The source is
 * node 0. The CPU reference relaxes every edge until nothing changes: exact
 * check of every distance.
 * Sizes (side; nodes, footprint = nodes x 4 words + edges x 2 words): tiny 16
 * (256 nodes, 12 KB); quick and small 64 (4096 nodes, 201 KB); paper 256
 * (65536 nodes, 3.2 MB). Table 5.3's bfs on road-FLA is 26 MB.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_sssp[];

static const int sssp_sides[WL_NSIZES] = {
    [WL_TINY] = 16, [WL_QUICK] = 64, [WL_SMALL] = 64, [WL_PAPER] = 256};
#define SSSP_FAR (INT_MAX / 2)

struct sssp_edge {
    int u, v, w;
};

static int sssp_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    /* flag-once: an ablation of the `changed` flag (sssp.cu) */
    const char *relax_kernel = "sssp_relax";
    if (p->variant && !strcmp(p->variant, "flag-once")) {
        relax_kernel = "sssp_relax_flag_once";
    } else if (p->variant) {
        snprintf(why, why_len, "sssp: unknown variant '%s' (known: flag-once)", p->variant);
        return 1;
    }
    int side = sssp_sides[p->size], n = side * side;
    int n_short = n / 8, m = 2 * side * (side - 1) + n_short; /* undirected edges */
    struct sssp_edge *e = malloc((size_t)m * sizeof *e);
    int *row = calloc((size_t)n + 1, sizeof *row), *col = malloc(2 * (size_t)m * sizeof *col);
    int *wgt = malloc(2 * (size_t)m * sizeof *wgt), *fill = calloc((size_t)n, sizeof *fill);
    int *dist = malloc((size_t)n * sizeof *dist), *got = malloc((size_t)n * sizeof *got);
    int *active = calloc((size_t)n, sizeof *active);
    if (!e || !row || !col || !wgt || !fill || !dist || !got || !active) {
        free(e), free(row), free(col), free(wgt), free(fill), free(dist), free(got), free(active);
        snprintf(why, why_len, "sssp: out of host memory");
        return 1;
    }
    struct rng r;
    rng_seed(&r, p->seed, 0x555b);
    int k = 0;
    for (int y = 0; y < side; y++)
        for (int x = 0; x < side; x++) {
            int u = y * side + x;
            if (x + 1 < side)
                e[k++] = (struct sssp_edge){u, u + 1, 1 + (int)rng_below(&r, 16)};
            if (y + 1 < side)
                e[k++] = (struct sssp_edge){u, u + side, 1 + (int)rng_below(&r, 16)};
        }
    while (k < m) {
        int u = (int)rng_below(&r, (uint64_t)n), v = (int)rng_below(&r, (uint64_t)n);
        if (u != v)
            e[k++] = (struct sssp_edge){u, v, 1 + (int)rng_below(&r, 16)};
    }
    for (int i = 0; i < m; i++) {
        row[e[i].u + 1]++;
        row[e[i].v + 1]++;
    }
    for (int u = 0; u < n; u++)
        row[u + 1] += row[u];
    for (int i = 0; i < m; i++) {
        int a = row[e[i].u] + fill[e[i].u]++, b = row[e[i].v] + fill[e[i].v]++;
        col[a] = e[i].v, wgt[a] = e[i].w;
        col[b] = e[i].u, wgt[b] = e[i].w;
    }
    for (int u = 0; u < n; u++)
        dist[u] = SSSP_FAR;
    dist[0] = 0;
    active[0] = 1;

    host_load_ptx(h, wl_ptx_sssp, "workloads/sssp/sssp.ptx");
    size_t nb = (size_t)n * sizeof(int), eb = 2 * (size_t)m * sizeof(int);
    addr_t d_row = host_malloc(h, nb + sizeof(int)), d_col = host_malloc(h, eb);
    addr_t d_wgt = host_malloc(h, eb), d_dist = host_malloc(h, nb);
    addr_t d_active = host_malloc(h, nb), d_next = host_malloc(h, nb);
    addr_t d_changed = host_malloc(h, sizeof(int));
    host_memcpy_to_dev(h, d_row, row, nb + sizeof(int));
    host_memcpy_to_dev(h, d_col, col, eb);
    host_memcpy_to_dev(h, d_wgt, wgt, eb);
    host_memcpy_to_dev(h, d_dist, dist, nb);
    host_memcpy_to_dev(h, d_active, active, nb);
    host_memset(h, d_next, 0, nb);
    struct dim3 grid = DIM1((uint32_t)(n + 255) / 256);
    int rounds = 0, changed = 1;
    while (changed && rounds < n) {
        host_memset(h, d_changed, 0, sizeof(int));
        struct karg relax[] = {KARG_PTR(d_row),     KARG_PTR(d_col),    KARG_PTR(d_wgt),
                               KARG_PTR(d_dist),    KARG_PTR(d_active), KARG_PTR(d_next),
                               KARG_PTR(d_changed), KARG_I32(n)};
        host_launch(h, relax_kernel, grid, DIM1(256), 0, relax, ARRAY_LEN(relax));
        struct karg swap[] = {KARG_PTR(d_active), KARG_PTR(d_next), KARG_I32(n)};
        host_launch(h, "sssp_swap", grid, DIM1(256), 0, swap, ARRAY_LEN(swap));
        host_memcpy_from_dev(h, &changed, d_changed, sizeof(int));
        rounds++;
    }
    host_memcpy_from_dev(h, got, d_dist, nb);

    for (bool again = true; again;) {
        again = false;
        for (int i = 0; i < m; i++) {
            int a = e[i].u, b = e[i].v;
            if (dist[a] + e[i].w < dist[b])
                dist[b] = dist[a] + e[i].w, again = true;
            if (dist[b] + e[i].w < dist[a])
                dist[a] = dist[b] + e[i].w, again = true;
        }
    }
    int rc = 0;
    if (changed) {
        snprintf(why, why_len, "sssp: still changing after %d rounds", rounds);
        rc = 1;
    }
    for (int u = 0; u < n && rc == 0; u++)
        if (got[u] != dist[u]) {
            snprintf(why, why_len, "sssp: distance of node %d after %d rounds is %d, expected %d",
                     u, rounds, got[u], dist[u]);
            rc = 1;
        }
    host_free(h, d_row);
    host_free(h, d_col);
    host_free(h, d_wgt);
    host_free(h, d_dist);
    host_free(h, d_active);
    host_free(h, d_next);
    host_free(h, d_changed);
    free(e), free(row), free(col), free(wgt), free(fill), free(dist), free(got), free(active);
    return rc;
}

const struct workload wl_sssp = {
    .name = "sssp",
    .set = "mg",
    .desc = "graph: Bellman-Ford SSSP on a road-like grid, .sys atomicMin, a kernel pair per round",
    .ptx = wl_ptx_sssp,
    .ptx_file = "workloads/sssp/sssp.ptx",
    .variants = (const char *const[]){"flag-once", NULL},
    .run = sssp_run,
};
