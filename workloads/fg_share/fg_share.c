/*
 * fg_share.c - host driver of spec 000's fg-share microbenchmark (set stc):
 * every CTA, `rounds` times, takes one CAS mutex, adds its number + 1 to
 * every word of a shared ledger (read and write in place) and releases the
 * lock. 64-thread CTAs; the lock and the 256-word ledger are in different
 * pages (the paper's layout), so at SEB 12 they are in different bands.
 *
 * The paper: workgroups "contend to enter a critical section (atomic CAS
 * mutex), then read and update a shared structure in place"; the number of
 * workgroups is not given beyond fewer than 32 CUs' worth (spec 000 §4).
 * Sizes: tiny 8 CTAs x 2 rounds, quick 16 x 4, small 24 x 8, paper 24 x 16.
 * Check: every word ends at rounds x sum(c + 1) over the CTAs.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>

#include "base/log.h"
#include "host/workload.h"

extern const char wl_ptx_fg_share[];

#define FG_THREADS 64u
#define FG_WORDS   256u

static int fg_share_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    static const uint32_t ctas[WL_NSIZES] = {8, 16, 24, 24}, rounds[WL_NSIZES] = {2, 4, 8, 16};
    if (p->variant) {
        snprintf(why, why_len, "unknown variant '%s'", p->variant);
        return 1;
    }
    uint32_t n_ctas = ctas[p->size], n_rounds = rounds[p->size];
    uint32_t zero = 0, ledger[FG_WORDS] = {0};
    host_load_ptx(h, wl_ptx_fg_share, "workloads/fg_share/fg_share.ptx");
    /* the lock takes a page of its own: the ledger starts on the next one (another band) */
    addr_t dlock = host_malloc(h, 4096), dledger = host_malloc(h, sizeof ledger);
    host_memcpy_to_dev(h, dlock, &zero, sizeof zero);
    host_memcpy_to_dev(h, dledger, ledger, sizeof ledger);
    struct karg args[] = {KARG_I32(n_rounds), KARG_PTR(dlock), KARG_PTR(dledger),
                          KARG_I32(FG_WORDS)};
    host_launch(h, "fg_share", DIM1(n_ctas), DIM1(FG_THREADS), 0, args, ARRAY_LEN(args));
    host_memcpy_from_dev(h, ledger, dledger, sizeof ledger);
    host_memcpy_from_dev(h, &zero, dlock, sizeof zero);

    uint32_t want = n_rounds * n_ctas * (n_ctas + 1) / 2;
    int rc = 0;
    for (uint32_t j = 0; j < FG_WORDS && !rc; j++)
        if (ledger[j] != want) {
            snprintf(why, why_len, "ledger[%u]: expected %u, got %u (a lost update)", j, want,
                     ledger[j]);
            rc = 1;
        }
    if (!rc && zero) {
        snprintf(why, why_len, "the lock is still held (%u) after the kernel", zero);
        rc = 1;
    }
    host_free(h, dlock);
    host_free(h, dledger);
    return rc;
}

const struct workload wl_fg_share = {
    .name = "fg-share",
    .set = "stc",
    .desc = "every CTA CAS-locks one mutex and updates a shared ledger in place (spec 000)",
    .ptx = wl_ptx_fg_share,
    .ptx_file = "workloads/fg_share/fg_share.ptx",
    .run = fg_share_run,
};
