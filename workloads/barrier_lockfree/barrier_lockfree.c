/*
 * barrier_lockfree.c - host driver of the barrier-lockfree workload (sync
 * set): Xiao and Feng's lock-free inter-CTA barrier (IPDPS 2010) with
 * per-CTA in and out flags: every CTA's thread 0 sets in[b]; CTA 0's thread
 * i waits for in[i], then (after __syncthreads) sets out[i]; every CTA's
 * thread 0 waits for out[b]. Flags are relaxed device-scope atomics with
 * __threadfence() where later CUDA code puts it. Repeated for several
 * episodes (goal = episode number, so no reset); check: barrier_common.h,
 * plus every flag at the last goal.
 * Sizes (CTAs x threads, episodes): tiny 8 x 64, 4; small 32 x 64, 16;
 * paper 30 x 64, 100 (30 CTAs: one per SM of the paper's GTX 280; the
 * episode count is our choice). Needs threads >= CTAs.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>

#include "barrier_tree/barrier_common.h"

extern const char wl_ptx_barrier_lockfree[];

#define LF_THREADS 64u

static int barrier_lockfree_run(struct host *h, const struct wl_params *p, char *why,
                                size_t why_len)
{
    static const uint32_t ctas_by_size[WL_NSIZES] = {8, 32, 32, 30};
    static const uint32_t episodes_by_size[WL_NSIZES] = {4, 16, 16, 100};
    if (p->variant) {
        snprintf(why, why_len, "unknown variant '%s'", p->variant);
        return 1;
    }
    uint32_t n = ctas_by_size[p->size], episodes = episodes_by_size[p->size];
    size_t buf_bytes = 2 * n * LF_THREADS * sizeof(uint32_t);

    host_load_ptx(h, wl_ptx_barrier_lockfree, "workloads/barrier_lockfree/barrier_lockfree.ptx");
    addr_t dbuf = host_malloc(h, buf_bytes), din = host_malloc(h, n * 4);
    addr_t dout = host_malloc(h, n * 4), derrs = host_malloc(h, BARRIER_ERR_WORDS * 4);
    host_memset(h, dbuf, 0, buf_bytes);
    host_memset(h, din, 0, n * 4);
    host_memset(h, dout, 0, n * 4);
    host_memset(h, derrs, 0, BARRIER_ERR_WORDS * 4);
    struct karg args[] = {KARG_PTR(dbuf), KARG_PTR(din), KARG_PTR(dout), KARG_PTR(derrs),
                          KARG_I32(episodes)};
    host_launch(h, "barrier_lockfree", DIM1(n), DIM1(LF_THREADS), 0, args, ARRAY_LEN(args));

    int rc = barrier_check_errs(h, derrs, why, why_len);
    uint32_t fin[64], fout[64];
    host_memcpy_from_dev(h, fin, din, n * 4);
    host_memcpy_from_dev(h, fout, dout, n * 4);
    for (uint32_t b = 0; b < n && rc == 0; b++) {
        if (fin[b] != episodes || fout[b] != episodes) {
            snprintf(why, why_len, "CTA %u flags: expected in = out = %u, got %u and %u", b,
                     episodes, fin[b], fout[b]);
            rc = 1;
        }
    }
    host_free(h, dbuf);
    host_free(h, din);
    host_free(h, dout);
    host_free(h, derrs);
    return rc;
}

const struct workload wl_barrier_lockfree = {
    .name = "barrier-lockfree",
    .set = "sync",
    .desc = "Xiao-Feng lock-free barrier across all CTAs, per-CTA in/out flags, "
            "checked episodes",
    .ptx = wl_ptx_barrier_lockfree,
    .ptx_file = "workloads/barrier_lockfree/barrier_lockfree.ptx",
    .run = barrier_lockfree_run,
};
