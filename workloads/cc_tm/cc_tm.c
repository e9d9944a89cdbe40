/*
 * cc_tm.c - host driver of CC of the TM benchmarks (GETM set): push-relabel
 * on an image grid, each pixel's push or relabel a critical section (spec
 * 004a Table 4.3, CudaCuts; cc_tm.cu).
 *
 * Every pixel has a random source capacity (its starting excess: the
 * preflow saturates the source's edges), a random sink capacity, and an
 * edge of random capacity 1..16 to each of its 4 neighbours (both ways).
 * Each round is one launch that visits every active pixel once. By default a
 * step holds the locks of the pixel and the neighbour it pushes to (the
 * fine-grained-lock twin, FGLock: any protocol); `tx` makes it a transaction
 * (--protocol getm). DEVIATION: a pixel pushes to the sink whatever its
 * height (sink edges are not part of the height function); CudaCuts' global
 * relabel is left out; the run stops after a fixed number of rounds, not at
 * the maximum flow.
 * Check, true of every serial order of the steps: no excess or capacity is
 * negative; the excess left plus the flow that reached the sink equals what
 * left the source; every edge's two residual capacities sum to twice its
 * capacity; the heights are valid (a residual edge u->v has h(u) <= h(v) + 1),
 * which a push planned on a stale height breaks; some flow reached the sink.
 * Sizes: tiny 32 x 24 pixels, 16 CTAs x 64 threads, 4 rounds; quick and
 * small 100 x 75, 60 x 128, 6 rounds; paper 200 x 150 (Table 4.3), 240 x
 * 128, 12 rounds.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_cc_tm[];

#define CC_HMAX 1000000 /* as in cc_tm.cu */

struct cc_size {
    uint32_t ctas, threads, w, h, rounds;
};
static const struct cc_size cc_sizes[WL_NSIZES] = {
    [WL_TINY] = {16, 64, 32, 24, 4},
    [WL_QUICK] = {60, 128, 100, 75, 6},
    [WL_SMALL] = {60, 128, 100, 75, 6},
    [WL_PAPER] = {240, 128, 200, 150, 12},
};

static int cc_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    if (p->variant && strcmp(p->variant, "tx")) {
        snprintf(why, why_len, "unknown variant '%s' (tx)", p->variant);
        return 1;
    }
    const struct cc_size *z = &cc_sizes[p->size];
    uint32_t n = z->w * z->h;
    size_t nb = (size_t)n * 4;
    int32_t *e = malloc(nb), *ht = calloc(n, 4), *t = malloc(nb), *cap = calloc(n, 16);
    int32_t *t0 = malloc(nb), *cap0 = malloc(nb * 4);
    panic_if(!e || !ht || !t || !cap || !t0 || !cap0, "out of memory");
    struct rng r;
    rng_seed(&r, p->seed, 0x4343); /* "CC" */
    int64_t source = 0;
    for (uint32_t u = 0; u < n; u++) {
        e[u] = (int32_t)rng_below(&r, 25);
        t[u] = t0[u] = (int32_t)rng_below(&r, 25);
        source += e[u];
        uint32_t x = u % z->w, y = u / z->w;
        if (x + 1 < z->w) /* right, and its reverse: the neighbour's left */
            cap[4 * u + 1] = cap[4 * (u + 1) + 0] = 1 + (int32_t)rng_below(&r, 16);
        if (y + 1 < z->h) /* down, and the neighbour's up */
            cap[4 * u + 3] = cap[4 * (u + z->w) + 2] = 1 + (int32_t)rng_below(&r, 16);
    }
    memcpy(cap0, cap, nb * 4);

    host_load_ptx(h, wl_ptx_cc_tm, "workloads/cc_tm/cc_tm.ptx");
    addr_t de = host_malloc(h, nb), dh = host_malloc(h, nb), dt = host_malloc(h, nb);
    addr_t dc = host_malloc(h, nb * 4), locks = 0;
    host_memcpy_to_dev(h, de, e, nb);
    host_memcpy_to_dev(h, dh, ht, nb);
    host_memcpy_to_dev(h, dt, t, nb);
    host_memcpy_to_dev(h, dc, cap, nb * 4);
    if (!p->variant) {
        locks = host_malloc(h, nb);
        host_memset(h, locks, 0, nb);
    }
    for (uint32_t k = 0; k < z->rounds; k++)
        if (p->variant) {
            struct karg a[] = {KARG_PTR(de), KARG_PTR(dh),   KARG_PTR(dt),
                               KARG_PTR(dc), KARG_I32(z->w), KARG_I32(n)};
            host_launch(h, "cc_tx", DIM1(z->ctas), DIM1(z->threads), 0, a, ARRAY_LEN(a));
        } else {
            struct karg a[] = {KARG_PTR(de),    KARG_PTR(dh),   KARG_PTR(dt), KARG_PTR(dc),
                               KARG_PTR(locks), KARG_I32(z->w), KARG_I32(n)};
            host_launch(h, "cc_lock", DIM1(z->ctas), DIM1(z->threads), 0, a, ARRAY_LEN(a));
        }
    host_memcpy_from_dev(h, e, de, nb);
    host_memcpy_from_dev(h, ht, dh, nb);
    host_memcpy_from_dev(h, t, dt, nb);
    host_memcpy_from_dev(h, cap, dc, nb * 4);
    int rc = 0;
    int64_t left = 0, sunk = 0;
    for (uint32_t u = 0; u < n && !rc; u++) {
        left += e[u];
        sunk += t0[u] - t[u];
        if (e[u] < 0 || t[u] < 0 || t[u] > t0[u]) {
            snprintf(why, why_len, "pixel %u has excess %d and sink capacity %d (of %d)", u, e[u],
                     t[u], t0[u]);
            rc = 1;
        }
        static const int back[4] = {1, 0, 3, 2};
        for (int d = 0; d < 4 && !rc; d++) {
            if (!cap0[4 * u + d])
                continue;
            uint32_t v = d == 0 ? u - 1 : d == 1 ? u + 1 : d == 2 ? u - z->w : u + z->w;
            int32_t c = cap[4 * u + d], rev = cap[4 * v + (uint32_t)back[d]];
            if (c < 0 || c + rev != 2 * cap0[4 * u + d]) {
                snprintf(why, why_len,
                         "edge %u->%u has residual capacities %d and %d, which "
                         "must sum to %d (a lost push)",
                         u, v, c, rev, 2 * cap0[4 * u + d]);
                rc = 1;
            } else if (c > 0 && ht[u] < CC_HMAX && ht[u] > ht[v] + 1) {
                snprintf(why, why_len,
                         "residual edge %u->%u joins heights %d and %d: a push or "
                         "relabel used a stale height",
                         u, v, ht[u], ht[v]);
                rc = 1;
            }
        }
    }
    if (!rc && left + sunk != source) {
        snprintf(why, why_len,
                 "%lld units are left in pixels and %lld reached the sink, but "
                 "%lld left the source",
                 (long long)left, (long long)sunk, (long long)source);
        rc = 1;
    }
    if (!rc && sunk == 0) {
        snprintf(why, why_len, "no flow reached the sink");
        rc = 1;
    }
    free(e);
    free(ht);
    free(t);
    free(cap);
    free(t0);
    free(cap0);
    return rc;
}

const struct workload wl_cc_tm = {
    .name = "cc-tm",
    .set = "getm",
    .desc = "CC of the TM benchmarks: push-relabel on a pixel grid, each step under two pixel "
            "locks (tx: a transaction, --protocol getm); flow and heights checked",
    .ptx = wl_ptx_cc_tm,
    .ptx_file = "workloads/cc_tm/cc_tm.ptx",
    .run = cc_run,
    .variants = (const char *const[]){"tx", NULL},
};
