/*
 * bfs.c - host driver of BFS, level-synchronous frontier expansion with a
 * shared byte mask (see bfs.cu).
 *
 * Input: a random directed graph in CSR form from the seed: every node has
 * 1..2d-1 out-edges to uniformly random nodes (d the mean degree), plus an
 * edge to its successor so that every node is reachable from node 0. The
 * driver launches expand + update per level until `over` stays 0.
 * Reference: a CPU queue BFS; levels are unique, so cost must match exactly.
 * Sizes (nodes, mean degree): tiny 2048, 4; small 16384, 6; paper 65536, 6
 * (neither paper states BFS's input; 64 Ki nodes is invented, the size of
 * the ISPASS'09 suite's largest bundled graph). 256 threads per CTA.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_bfs[];

struct bfs_size {
    unsigned nodes, degree;
};
static const struct bfs_size bfs_sizes[WL_NSIZES] = {
    [WL_TINY] = {2048, 4},
    [WL_QUICK] = {16384, 6},
    [WL_SMALL] = {16384, 6},
    [WL_PAPER] = {65536, 6},
};
#define BFS_THREADS 256

static int bfs_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    if (p->variant) {
        snprintf(why, why_len, "bfs: unknown variant '%s' (bfs has none)", p->variant);
        return 1;
    }
    const unsigned n = bfs_sizes[p->size].nodes, d = bfs_sizes[p->size].degree;
    struct rng r;
    rng_seed(&r, p->seed, 0xbf5);

    uint32_t *row = malloc((n + 1) * sizeof(uint32_t));
    uint32_t *col = malloc((size_t)n * 2 * d * sizeof(uint32_t));
    int32_t *want = malloc(n * sizeof(int32_t)), *got = malloc(n * sizeof(int32_t));
    uint32_t *queue = malloc(n * sizeof(uint32_t));
    uint8_t *bytes = calloc(n, 1);
    if (!row || !col || !want || !got || !queue || !bytes) {
        free(row), free(col), free(want), free(got), free(queue), free(bytes);
        snprintf(why, why_len, "bfs: out of host memory");
        return 1;
    }
    uint32_t m = 0;
    for (uint32_t u = 0; u < n; u++) {
        row[u] = m;
        col[m++] = (u + 1) % n;
        uint32_t k = (uint32_t)rng_below(&r, 2 * d - 1);
        for (uint32_t j = 0; j < k; j++)
            col[m++] = (uint32_t)rng_below(&r, n);
    }
    row[n] = m;

    /* CPU reference */
    for (uint32_t u = 0; u < n; u++)
        want[u] = -1;
    unsigned qh = 0, qt = 0;
    want[0] = 0;
    queue[qt++] = 0;
    while (qh < qt) {
        uint32_t u = queue[qh++];
        for (uint32_t e = row[u]; e < row[u + 1]; e++)
            if (want[col[e]] < 0) {
                want[col[e]] = want[u] + 1;
                queue[qt++] = col[e];
            }
    }

    host_load_ptx(h, wl_ptx_bfs, "workloads/bfs/bfs.ptx");
    addr_t drow = host_malloc(h, (n + 1) * sizeof(uint32_t));
    addr_t dcol = host_malloc(h, m * sizeof(uint32_t));
    addr_t dmask = host_malloc(h, n), dupd = host_malloc(h, n), dvis = host_malloc(h, n);
    addr_t dcost = host_malloc(h, n * sizeof(int32_t)), dover = host_malloc(h, 4);
    host_memcpy_to_dev(h, drow, row, (n + 1) * sizeof(uint32_t));
    host_memcpy_to_dev(h, dcol, col, m * sizeof(uint32_t));
    host_memset(h, dupd, 0, n);
    bytes[0] = 1;
    host_memcpy_to_dev(h, dmask, bytes, n);
    host_memcpy_to_dev(h, dvis, bytes, n);
    for (uint32_t u = 0; u < n; u++)
        got[u] = u == 0 ? 0 : -1;
    host_memcpy_to_dev(h, dcost, got, n * sizeof(int32_t));

    const struct dim3 grid = DIM1((n + BFS_THREADS - 1) / BFS_THREADS);
    struct karg ex[] = {KARG_PTR(drow), KARG_PTR(dcol),  KARG_PTR(dmask), KARG_PTR(dupd),
                        KARG_PTR(dvis), KARG_PTR(dcost), KARG_U32(n)};
    struct karg up[] = {KARG_PTR(dmask), KARG_PTR(dupd), KARG_PTR(dvis), KARG_PTR(dover),
                        KARG_U32(n)};
    unsigned levels = 0;
    for (;;) {
        uint32_t over = 0;
        host_memcpy_to_dev(h, dover, &over, 4);
        host_launch(h, "bfs_expand", grid, DIM1(BFS_THREADS), 0, ex, ARRAY_LEN(ex));
        host_launch(h, "bfs_update", grid, DIM1(BFS_THREADS), 0, up, ARRAY_LEN(up));
        host_memcpy_from_dev(h, &over, dover, 4);
        if (!over)
            break;
        if (++levels > n) {
            snprintf(why, why_len, "bfs: more than %u levels: the frontier never empties", n);
            free(row), free(col), free(want), free(got), free(queue), free(bytes);
            return 1;
        }
    }
    host_memcpy_from_dev(h, got, dcost, n * sizeof(int32_t));
    int rc = 0;
    for (uint32_t u = 0; u < n && rc == 0; u++)
        if (got[u] != want[u]) {
            snprintf(why, why_len, "bfs: node %u has cost %d, expected %d", u, got[u], want[u]);
            rc = 1;
        }
    free(row), free(col), free(want), free(got), free(queue), free(bytes);
    return rc;
}

const struct workload wl_bfs = {
    .name = "bfs",
    .set = "inter",
    .desc = "level-synchronous BFS, shared byte frontier mask written by all CTAs",
    .ptx = wl_ptx_bfs,
    .ptx_file = "workloads/bfs/bfs.ptx",
    .run = bfs_run,
};
