/*
 * chainscan.c - host driver of chainscan, Table 5.3's explicitly
 * .gpu-synchronised class (cuSolver, namd2.10, mst; spec 004b §5.1): a
 * one-pass prefix sum whose CTAs hand their running totals on through
 * release/acquire flags at .gpu scope, then a fix-up kernel across chains
 * (chainscan.cu). Each round scans the previous round's output.
 *
 * The grid is CHAINS chains of per_chain CTAs. Under contiguous CTA
 * scheduling (docs/multi-gpu.md) GPU u of G runs CTAs [n u / G, n (u + 1) / G),
 * so with G dividing CHAINS every chain lies within one GPU and .gpu scope is
 * what the handoffs need; the workload is written for machines of 1, 2 or 4
 * GPUs (every configs/hmg-*.ini) and would race on more. Words from the
 * seed; the CPU reference is the same sums modulo 2^32: exact check.
 * Sizes (CTAs per chain, words per thread, rounds; footprint = 2 x words +
 * flags): tiny 4, 4, 1 (132 KB); quick and small 16, 4, 2 (528 KB); paper 64,
 * 8, 2 (4.3 MB).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_chainscan[];

#define CHAINS    4
#define CS_STRIDE 32

struct chainscan_size {
    int per_chain, per_thread, rounds;
};
static const struct chainscan_size chainscan_sizes[WL_NSIZES] = {
    [WL_TINY] = {4, 4, 1},
    [WL_QUICK] = {16, 4, 2},
    [WL_SMALL] = {16, 4, 2},
    [WL_PAPER] = {64, 8, 2},
};

static int chainscan_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    const struct chainscan_size *s = &chainscan_sizes[p->size];
    uint32_t ctas = CHAINS * (uint32_t)s->per_chain;
    size_t n = (size_t)ctas * 256 * (size_t)s->per_thread, bytes = n * sizeof(uint32_t);
    size_t side = (size_t)ctas * CS_STRIDE * sizeof(uint32_t);
    uint32_t *v = malloc(bytes), *got = malloc(bytes);
    if (!v || !got) {
        free(v), free(got);
        snprintf(why, why_len, "chainscan: out of host memory");
        return 1;
    }
    struct rng r;
    rng_seed(&r, p->seed, 0xc5ca);
    for (size_t i = 0; i < n; i++)
        v[i] = (uint32_t)rng_next(&r);

    host_load_ptx(h, wl_ptx_chainscan, "workloads/chainscan/chainscan.ptx");
    addr_t d_buf[2] = {host_malloc(h, bytes), host_malloc(h, bytes)};
    addr_t d_flags = host_malloc(h, side), d_totals = host_malloc(h, side);
    host_memcpy_to_dev(h, d_buf[0], v, bytes);
    for (int k = 0; k < s->rounds; k++) {
        host_memset(h, d_flags, 0, side);
        struct karg pass[] = {KARG_PTR(d_buf[k & 1]), KARG_PTR(d_buf[1 - (k & 1)]),
                              KARG_PTR(d_flags),      KARG_PTR(d_totals),
                              KARG_I32(s->per_chain), KARG_I32(s->per_thread)};
        host_launch(h, "chainscan_pass", DIM1(ctas), DIM1(256), 0, pass, ARRAY_LEN(pass));
        struct karg fix[] = {KARG_PTR(d_buf[1 - (k & 1)]), KARG_PTR(d_totals),
                             KARG_I32(s->per_chain), KARG_I32(s->per_thread)};
        host_launch(h, "chainscan_fixup", DIM1(ctas), DIM1(256), 0, fix, ARRAY_LEN(fix));
    }
    host_memcpy_from_dev(h, got, d_buf[s->rounds & 1], bytes);

    for (int k = 0; k < s->rounds; k++)
        for (size_t i = 1; i < n; i++)
            v[i] += v[i - 1];
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++)
        if (got[i] != v[i]) {
            snprintf(why, why_len,
                     "chainscan: word %zu (CTA %zu) after %d rounds is %u, expected %u", i,
                     i / (256 * (size_t)s->per_thread), s->rounds, got[i], v[i]);
            rc = 1;
        }
    host_free(h, d_buf[0]);
    host_free(h, d_buf[1]);
    host_free(h, d_flags);
    host_free(h, d_totals);
    free(v), free(got);
    return rc;
}

const struct workload wl_chainscan = {
    .name = "chainscan",
    .set = "mg",
    .desc = "explicit .gpu sync: one-pass chained prefix sum, release/acquire flag handoffs",
    .ptx = wl_ptx_chainscan,
    .ptx_file = "workloads/chainscan/chainscan.ptx",
    .run = chainscan_run,
};
