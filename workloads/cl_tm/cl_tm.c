/*
 * cl_tm.c - host driver of CL and CLto (GETM set): cloth physics with one
 * critical section per edge (spec 004a Table 4.3; cl_tm.cu).
 *
 * The mesh is a W x H grid of vertices with horizontal, vertical and both
 * diagonal edges (4WH - 3W - 3H + 2 of them; 123 x 123 gives Table 4.3's
 * 60K), each with a rest length 90% of its length, so every update moves
 * its vertices. Every edge is solved `passes` times. By default each update
 * holds both vertices' locks (the fine-grained-lock twin, FGLock: any
 * protocol); `tx` does it in a transaction (--protocol getm); `to` and
 * `to-tx` are CLto, whose critical section only adds a correction computed
 * outside it. Check, true in every serial order: the sums of the x and of
 * the y coordinates are unchanged (each update adds +c to one vertex and -c
 * to the other) and every vertex's update count is its degree times the
 * passes (a lost update shows in both).
 * Sizes: tiny 16 CTAs x 64 threads on 16 x 16 vertices (930 edges), 2
 * passes; quick and small 60 x 128 on 40 x 40 (6162 edges), 2 passes; paper
 * 240 x 256 on 123 x 123 (59 780 edges), 1 pass.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_cl_tm[];

#define CL_SPACING 256 /* fixed point: one mesh spacing */

struct cl_size {
    uint32_t ctas, threads, side, passes;
};
static const struct cl_size cl_sizes[WL_NSIZES] = {
    [WL_TINY] = {16, 64, 16, 2},
    [WL_QUICK] = {60, 128, 40, 2},
    [WL_SMALL] = {60, 128, 40, 2},
    [WL_PAPER] = {240, 256, 123, 1},
};

static const char *const cl_variants[] = {"tx", "to", "to-tx", NULL};

static int cl_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    const char *v = p->variant ? p->variant : "";
    bool tx = !strcmp(v, "tx") || !strcmp(v, "to-tx"), to = !strncmp(v, "to", 2);
    if (*v && !tx && !to) {
        snprintf(why, why_len, "unknown variant '%s' (tx, to, to-tx)", v);
        return 1;
    }
    const struct cl_size *z = &cl_sizes[p->size];
    uint32_t side = z->side, nv = side * side;
    uint32_t ne = 4 * side * side - 6 * side + 2;
    int32_t *vert = calloc((size_t)nv * 4, 4), *got = malloc((size_t)nv * 16);
    int32_t *edges = malloc((size_t)ne * 16), *degree = calloc(nv, 4);
    panic_if(!vert || !got || !edges || !degree, "out of memory");
    struct rng r;
    rng_seed(&r, p->seed, 0x434c); /* "CL" */
    int64_t sx = 0, sy = 0;
    for (uint32_t k = 0; k < nv; k++) { /* the grid, each vertex jittered by up to 1/8 */
        vert[4 * k] = (int32_t)((k % side) * CL_SPACING + rng_below(&r, 64) - 32);
        vert[4 * k + 1] = (int32_t)((k / side) * CL_SPACING + rng_below(&r, 64) - 32);
        sx += vert[4 * k];
        sy += vert[4 * k + 1];
    }
    uint32_t e = 0;
    static const int dirs[4][3] = {{1, 0, 230}, {0, 1, 230}, {1, 1, 326}, {-1, 1, 326}};
    for (uint32_t y = 0; y < side; y++)
        for (uint32_t x = 0; x < side; x++)
            for (int d = 0; d < 4; d++) {
                int nx = (int)x + dirs[d][0], ny = (int)y + dirs[d][1];
                if (nx < 0 || nx >= (int)side || ny >= (int)side)
                    continue;
                uint32_t u = y * side + x, w = (uint32_t)ny * side + (uint32_t)nx;
                edges[4 * e] = (int32_t)u;
                edges[4 * e + 1] = (int32_t)w;
                edges[4 * e + 2] = dirs[d][2]; /* 90% of 256 and of 256 * sqrt(2) */
                edges[4 * e + 3] = 0;
                degree[u]++;
                degree[w]++;
                e++;
            }
    panic_if(e != ne, "cl-tm: %u edges, expected %u", e, ne);
    /* shuffle the edges so that a warp's edges are spread over the mesh */
    for (uint32_t k = ne - 1; k > 0; k--) {
        uint32_t j = (uint32_t)rng_below(&r, k + 1);
        for (int f = 0; f < 4; f++) {
            int32_t t = edges[4 * k + f];
            edges[4 * k + f] = edges[4 * j + f];
            edges[4 * j + f] = t;
        }
    }

    host_load_ptx(h, wl_ptx_cl_tm, "workloads/cl_tm/cl_tm.ptx");
    addr_t dv = host_malloc(h, (size_t)nv * 16), de = host_malloc(h, (size_t)ne * 16);
    host_memcpy_to_dev(h, dv, vert, (size_t)nv * 16);
    host_memcpy_to_dev(h, de, edges, (size_t)ne * 16);
    if (tx) {
        struct karg a[] = {KARG_PTR(dv), KARG_PTR(de), KARG_I32(ne), KARG_I32(z->passes)};
        host_launch(h, to ? "clto_tx" : "cl_tx", DIM1(z->ctas), DIM1(z->threads), 0, a,
                    ARRAY_LEN(a));
    } else {
        addr_t locks = host_malloc(h, (size_t)nv * 4);
        host_memset(h, locks, 0, (size_t)nv * 4);
        struct karg a[] = {KARG_PTR(dv), KARG_PTR(de), KARG_PTR(locks), KARG_I32(ne),
                           KARG_I32(z->passes)};
        host_launch(h, to ? "clto_lock" : "cl_lock", DIM1(z->ctas), DIM1(z->threads), 0, a,
                    ARRAY_LEN(a));
    }
    host_memcpy_from_dev(h, got, dv, (size_t)nv * 16);
    int rc = 0;
    int64_t gx = 0, gy = 0;
    uint32_t moved = 0;
    for (uint32_t k = 0; k < nv; k++) {
        gx += got[4 * k];
        gy += got[4 * k + 1];
        moved += got[4 * k] != vert[4 * k] || got[4 * k + 1] != vert[4 * k + 1];
        int32_t want = degree[k] * (int32_t)z->passes;
        if (got[4 * k + 2] != want && !rc) {
            snprintf(why, why_len,
                     "vertex %u received %d edge updates, its %d edges x %u passes "
                     "give %d (a lost update)",
                     k, got[4 * k + 2], degree[k], z->passes, want);
            rc = 1;
        }
    }
    if (!rc && (gx != sx || gy != sy)) {
        snprintf(why, why_len,
                 "the coordinates sum to (%lld, %lld), not (%lld, %lld): an update "
                 "was lost or torn",
                 (long long)gx, (long long)gy, (long long)sx, (long long)sy);
        rc = 1;
    }
    if (!rc && moved < nv / 2) {
        snprintf(why, why_len, "only %u of %u vertices moved", moved, nv);
        rc = 1;
    }
    free(vert);
    free(got);
    free(edges);
    free(degree);
    return rc;
}

const struct workload wl_cl_tm = {
    .name = "cl-tm",
    .set = "getm",
    .desc = "CL of the TM benchmarks: cloth edges solved in parallel under two vertex locks (tx: "
            "in transactions, --protocol getm; to, to-tx: CLto); sums and counts checked",
    .ptx = wl_ptx_cl_tm,
    .ptx_file = "workloads/cl_tm/cl_tm.ptx",
    .run = cl_run,
    .variants = cl_variants,
};
