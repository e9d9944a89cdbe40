/*
 * pathfinder.c - host driver of pathfinder, Table 5.3's DP wavefront class
 * (Rodinia pathfinder, nw; spec 004b §5.1): one dependent launch per row of
 * the dynamic program (pathfinder.cu).
 *
 * Costs in [0, 9] from the seed; row 0 is the starting row. The CPU
 * reference runs the same recurrence: exact check of the last row.
 * Sizes (rows, columns; footprint = rows x cols + 2 cols words): tiny 8,
 * 1024 (40 KB); quick and small 24, 8192 (832 KB); paper 64, 65536 (17 MB).
 * Rodinia's pathfinder in Table 5.3 is 1.49 GB; the cost matrix is read once,
 * so its size sets only the run time, and the rows' reuse (each written once
 * and read once by the next launch, three times at the partition edges) is
 * what the protocols see.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_pathfinder[];

struct pathfinder_size {
    int rows, cols;
};
static const struct pathfinder_size pathfinder_sizes[WL_NSIZES] = {
    [WL_TINY] = {8, 1024},
    [WL_QUICK] = {24, 8192},
    [WL_SMALL] = {24, 8192},
    [WL_PAPER] = {64, 65536},
};

static int pathfinder_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    const struct pathfinder_size *s = &pathfinder_sizes[p->size];
    int R = s->rows, C = s->cols;
    size_t all = (size_t)R * C;
    int *cost = malloc(all * sizeof *cost), *row = malloc((size_t)C * sizeof *row);
    int *next = malloc((size_t)C * sizeof *next), *got = malloc((size_t)C * sizeof *got);
    if (!cost || !row || !next || !got) {
        free(cost), free(row), free(next), free(got);
        snprintf(why, why_len, "pathfinder: out of host memory");
        return 1;
    }
    struct rng r;
    rng_seed(&r, p->seed, 0x9a7f);
    for (size_t i = 0; i < all; i++)
        cost[i] = (int)rng_below(&r, 10);

    host_load_ptx(h, wl_ptx_pathfinder, "workloads/pathfinder/pathfinder.ptx");
    addr_t d_cost = host_malloc(h, all * sizeof(int));
    addr_t d_row[2] = {host_malloc(h, (size_t)C * sizeof(int)),
                       host_malloc(h, (size_t)C * sizeof(int))};
    host_memcpy_to_dev(h, d_cost, cost, all * sizeof(int));
    host_memcpy_to_dev(h, d_row[0], cost, (size_t)C * sizeof(int));
    for (int y = 1; y < R; y++) {
        struct karg args[] = {KARG_PTR(d_cost + (addr_t)y * (addr_t)C * sizeof(int)),
                              KARG_PTR(d_row[(y - 1) & 1]), KARG_PTR(d_row[y & 1]), KARG_I32(C)};
        host_launch(h, "pathfinder_row", DIM1((uint32_t)(C + 255) / 256), DIM1(256), 0, args,
                    ARRAY_LEN(args));
    }
    host_memcpy_from_dev(h, got, d_row[(R - 1) & 1], (size_t)C * sizeof(int));

    memcpy(row, cost, (size_t)C * sizeof *row);
    for (int y = 1; y < R; y++) {
        for (int x = 0; x < C; x++) {
            int v = row[x];
            if (x > 0 && row[x - 1] < v)
                v = row[x - 1];
            if (x < C - 1 && row[x + 1] < v)
                v = row[x + 1];
            next[x] = cost[(size_t)y * C + x] + v;
        }
        memcpy(row, next, (size_t)C * sizeof *row);
    }
    int rc = 0;
    for (int x = 0; x < C && rc == 0; x++)
        if (got[x] != row[x]) {
            snprintf(why, why_len, "pathfinder: column %d of row %d is %d, expected %d", x, R - 1,
                     got[x], row[x]);
            rc = 1;
        }
    host_free(h, d_cost);
    host_free(h, d_row[0]);
    host_free(h, d_row[1]);
    free(cost), free(row), free(next), free(got);
    return rc;
}

const struct workload wl_pathfinder = {
    .name = "pathfinder",
    .set = "mg",
    .desc = "DP wavefront: Rodinia pathfinder, one dependent kernel per row",
    .ptx = wl_ptx_pathfinder,
    .ptx_file = "workloads/pathfinder/pathfinder.ptx",
    .run = pathfinder_run,
};
