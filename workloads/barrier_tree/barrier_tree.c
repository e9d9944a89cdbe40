/*
 * barrier_tree.c - host driver of the barrier-tree workload (sync set): a
 * two-level atomic tree barrier across all CTAs, HeteroSync's
 * atomicTreeBarrUniq: CTAs are grouped by blockIdx % groups (HeteroSync
 * groups by SM); after __syncthreads, thread 0 arrives at its group counter
 * (fetch_add acq_rel), the last of a group at the global counter, the last
 * of all raises the global flag (store release); group leaders wait for it
 * (load acquire) and raise their group flag, which the rest of the group
 * waits for. Repeated for several episodes; check: barrier_common.h, plus
 * every counter and flag at its final value.
 * Sizes (CTAs x threads, groups, episodes): tiny 8 x 64, 4, 4; small
 * 32 x 64, 8, 16; paper 60 x 64, 15, 100 (our choice: 15 groups as
 * HeteroSync's 15-SM GPU, 4 CTAs each).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>

#include "barrier_tree/barrier_common.h"

extern const char wl_ptx_barrier_tree[];

#define TREE_THREADS 64u
#define LINE_WORDS   32u /* must match barrier_tree.cu */

static int barrier_tree_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    static const uint32_t ctas_by_size[WL_NSIZES] = {8, 32, 32, 60};
    static const uint32_t groups_by_size[WL_NSIZES] = {4, 8, 8, 15};
    static const uint32_t episodes_by_size[WL_NSIZES] = {4, 16, 16, 100};
    if (p->variant) {
        snprintf(why, why_len, "unknown variant '%s'", p->variant);
        return 1;
    }
    uint32_t n = ctas_by_size[p->size], groups = groups_by_size[p->size];
    uint32_t episodes = episodes_by_size[p->size];
    size_t buf_bytes = 2 * n * TREE_THREADS * sizeof(uint32_t);
    size_t sync_words = (2 * groups + 2) * LINE_WORDS;

    host_load_ptx(h, wl_ptx_barrier_tree, "workloads/barrier_tree/barrier_tree.ptx");
    addr_t dbuf = host_malloc(h, buf_bytes), dsync = host_malloc(h, sync_words * 4);
    addr_t derrs = host_malloc(h, BARRIER_ERR_WORDS * 4);
    host_memset(h, dbuf, 0, buf_bytes);
    host_memset(h, dsync, 0, sync_words * 4);
    host_memset(h, derrs, 0, BARRIER_ERR_WORDS * 4);
    struct karg args[] = {KARG_PTR(dbuf), KARG_PTR(dsync), KARG_PTR(derrs), KARG_I32(episodes),
                          KARG_U32(groups)};
    host_launch(h, "barrier_tree", DIM1(n), DIM1(TREE_THREADS), 0, args, ARRAY_LEN(args));

    int rc = barrier_check_errs(h, derrs, why, why_len);
    uint32_t sync[(2 * 15 + 2) * 32];
    host_memcpy_from_dev(h, sync, dsync, sync_words * 4);
    for (uint32_t g = 0; g < groups && rc == 0; g++) {
        uint32_t members = (n - g + groups - 1) / groups;
        uint32_t lcount = sync[g * LINE_WORDS], lflag = sync[(groups + g) * LINE_WORDS];
        if (lcount != episodes * members || lflag != episodes) {
            snprintf(why, why_len,
                     "group %u: expected count %u and flag %u after %u episodes, got %u and %u", g,
                     episodes * members, episodes, episodes, lcount, lflag);
            rc = 1;
        }
    }
    uint32_t gcount = sync[2 * groups * LINE_WORDS], gflag = sync[(2 * groups + 1) * LINE_WORDS];
    if (rc == 0 && (gcount != episodes * groups || gflag != episodes)) {
        snprintf(why, why_len, "global level: expected count %u and flag %u, got %u and %u",
                 episodes * groups, episodes, gcount, gflag);
        rc = 1;
    }
    host_free(h, dbuf);
    host_free(h, dsync);
    host_free(h, derrs);
    return rc;
}

const struct workload wl_barrier_tree = {
    .name = "barrier-tree",
    .set = "sync",
    .desc = "two-level atomic tree barrier across all CTAs, acquire/release, "
            "checked episodes (HeteroSync atomicTreeBarr)",
    .ptx = wl_ptx_barrier_tree,
    .ptx_file = "workloads/barrier_tree/barrier_tree.ptx",
    .run = barrier_tree_run,
};
