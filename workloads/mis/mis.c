/*
 * mis.c - host driver of the mis workload (set stc): Luby's maximal
 * independent set over a random undirected graph in CSR form; per round a
 * select kernel and an update kernel, the host clearing and reading a
 * "more" flag between rounds. 128-thread CTAs.
 *
 * Pannotia's mis, in spec 000's coarse-grain sharing set; its graph is not
 * given. Shape kept: the CSR arrays and random values are read-only and
 * re-read by every launch; node status and selection arrays are read and
 * written each round. Sizes: tiny 512 nodes, quick 8192, small 32768,
 * paper 65536; 4 random edges per node, both directions. Check: the CPU's
 * rounds give the same set, which is then checked independent and maximal.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_mis[];

#define MIS_THREADS 128u

static int mis_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    static const uint32_t nodes[WL_NSIZES] = {512, 8192, 32768, 65536};
    if (p->variant) {
        snprintf(why, why_len, "unknown variant '%s'", p->variant);
        return 1;
    }
    uint32_t n = nodes[p->size], m;
    struct rng r;
    rng_seed(&r, p->seed, 0);
    int32_t *row, *col;
    wl_random_undirected_csr(n, 4, &r, &row, &col);
    m = (uint32_t)row[n];
    int32_t *rnd = malloc(n * 4), *status = calloc(n, 4), *sel = calloc(n, 4), *out = malloc(n * 4);
    panic_if(!rnd || !status || !sel || !out, "out of memory");
    for (uint32_t v = 0; v < n; v++) /* a random permutation: distinct values */
        rnd[v] = (int32_t)v;
    for (uint32_t v = n - 1; v > 0; v--) {
        uint32_t j = (uint32_t)rng_below(&r, v + 1);
        int32_t t = rnd[v];
        rnd[v] = rnd[j], rnd[j] = t;
    }
    host_load_ptx(h, wl_ptx_mis, "workloads/mis/mis.ptx");
    addr_t drow = host_malloc(h, (n + 1) * 4), dcol = host_malloc(h, m * 4);
    addr_t drnd = host_malloc(h, n * 4), dstatus = host_malloc(h, n * 4);
    addr_t dsel = host_malloc(h, n * 4), dmore = host_malloc(h, 4);
    host_memcpy_to_dev(h, drow, row, (n + 1) * 4);
    host_memcpy_to_dev(h, dcol, col, m * 4);
    host_memcpy_to_dev(h, drnd, rnd, n * 4);
    host_memcpy_to_dev(h, dstatus, status, n * 4);
    host_memcpy_to_dev(h, dsel, sel, n * 4);
    struct dim3 grid = DIM1((n + MIS_THREADS - 1) / MIS_THREADS);
    int32_t more = 1;
    uint32_t rounds = 0;
    while (more) {
        more = 0;
        host_memcpy_to_dev(h, dmore, &more, 4);
        struct karg sa[] = {KARG_I32(n),    KARG_PTR(drow),    KARG_PTR(dcol),
                            KARG_PTR(drnd), KARG_PTR(dstatus), KARG_PTR(dsel)};
        host_launch(h, "mis_select", grid, DIM1(MIS_THREADS), 0, sa, ARRAY_LEN(sa));
        struct karg ua[] = {KARG_I32(n),    KARG_PTR(drow),    KARG_PTR(dcol),
                            KARG_PTR(dsel), KARG_PTR(dstatus), KARG_PTR(dmore)};
        host_launch(h, "mis_update", grid, DIM1(MIS_THREADS), 0, ua, ARRAY_LEN(ua));
        host_memcpy_from_dev(h, &more, dmore, 4);
        rounds++;
        panic_if(rounds > n, "mis: no progress after %u rounds", rounds);
    }
    host_memcpy_from_dev(h, out, dstatus, n * 4);
    /* the same rounds on the CPU */
    for (bool left = true; left;) {
        left = false;
        for (uint32_t v = 0; v < n; v++)
            if (status[v] == 0) {
                sel[v] = 1;
                for (int32_t k = row[v]; k < row[v + 1]; k++)
                    if (status[col[k]] == 0 && rnd[col[k]] < rnd[v])
                        sel[v] = 0;
            }
        for (uint32_t v = 0; v < n; v++)
            if (status[v] == 0 && sel[v])
                status[v] = 1;
        for (uint32_t v = 0; v < n; v++)
            if (status[v] == 0) {
                for (int32_t k = row[v]; k < row[v + 1] && !status[v]; k++)
                    if (sel[col[k]] && status[col[k]] == 1)
                        status[v] = 2;
                left |= status[v] == 0;
            }
    }
    int rc = 0;
    for (uint32_t v = 0; v < n && !rc; v++) {
        bool in_nb = false;
        for (int32_t k = row[v]; k < row[v + 1]; k++)
            in_nb |= out[col[k]] == 1;
        if (out[v] != status[v])
            snprintf(why, why_len, "node %u: status %d, expected %d", v, out[v], status[v]), rc = 1;
        else if ((out[v] == 1 && in_nb) || (out[v] == 2 && !in_nb) || out[v] == 0)
            snprintf(why, why_len, "node %u: status %d breaks independence or maximality", v,
                     out[v]),
                rc = 1;
    }
    host_free(h, drow), host_free(h, dcol), host_free(h, drnd), host_free(h, dstatus);
    host_free(h, dsel), host_free(h, dmore);
    free(row), free(col), free(rnd), free(status), free(sel);
    free(out);
    return rc;
}

const struct workload wl_mis = {
    .name = "mis",
    .set = "stc",
    .desc = "Luby's maximal independent set (Pannotia mis): select and update kernels per "
            "round over a read-only CSR graph (spec 000)",
    .ptx = wl_ptx_mis,
    .ptx_file = "workloads/mis/mis.ptx",
    .run = mis_run,
};
