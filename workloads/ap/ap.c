/*
 * ap.c - host driver of AP of the TM benchmarks (GETM set): Apriori support
 * counting over a few hot candidate item sets (spec 004a Table 4.3, Data
 * Mining of RMS-TM; ap.cu).
 *
 * A record is a random set of 32 items: items 0-5 are frequent (each in half
 * the records), the rest rare (each in one in ten). The 16 candidates are
 * the 15 pairs of frequent items and the triple {0, 1, 2}, so a record
 * contains about 4 of them. By default each counter is incremented under its
 * own lock (the fine-grained-lock twin, FGLock: any protocol); `tx`
 * increments a record's counters in one transaction (--protocol getm).
 * Check: every counter equals the number of records that contain its
 * candidate, counted on the host (true in every serial order; a lost update
 * shows).
 * Sizes: tiny 512 records on 8 CTAs x 64 threads; quick, small and paper
 * 4000 records (Table 4.3's) on 32 x 128, one record a thread.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_ap[];

#define AP_CANDIDATES 16 /* as in ap.cu */

struct ap_size {
    uint32_t ctas, threads, records;
};
static const struct ap_size ap_sizes[WL_NSIZES] = {
    [WL_TINY] = {8, 64, 512},
    [WL_QUICK] = {32, 128, 4000},
    [WL_SMALL] = {32, 128, 4000},
    [WL_PAPER] = {32, 128, 4000},
};

static int ap_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    if (p->variant && strcmp(p->variant, "tx")) {
        snprintf(why, why_len, "unknown variant '%s' (tx)", p->variant);
        return 1;
    }
    const struct ap_size *z = &ap_sizes[p->size];
    uint32_t *rec = malloc((size_t)z->records * 4), cand[AP_CANDIDATES];
    int32_t want[AP_CANDIDATES] = {0}, got[AP_CANDIDATES * 8];
    panic_if(!rec, "out of memory");
    unsigned nc = 0;
    for (unsigned i = 0; i < 6; i++)
        for (unsigned j = i + 1; j < 6; j++)
            cand[nc++] = 1u << i | 1u << j;
    cand[nc++] = 7u;
    panic_if(nc != AP_CANDIDATES, "ap: %u candidates", nc);
    struct rng r;
    rng_seed(&r, p->seed, 0x4150); /* "AP" */
    for (uint32_t k = 0; k < z->records; k++) {
        uint32_t m = 0;
        for (unsigned i = 0; i < 32; i++)
            m |= (uint32_t)(rng_below(&r, 10) < (i < 6 ? 5u : 1u)) << i;
        rec[k] = m;
        for (unsigned c = 0; c < AP_CANDIDATES; c++)
            want[c] += (m & cand[c]) == cand[c];
    }

    host_load_ptx(h, wl_ptx_ap, "workloads/ap/ap.ptx");
    addr_t dr = host_malloc(h, (size_t)z->records * 4), dc = host_malloc(h, sizeof cand);
    addr_t count = host_malloc(h, sizeof got);
    host_memcpy_to_dev(h, dr, rec, (size_t)z->records * 4);
    host_memcpy_to_dev(h, dc, cand, sizeof cand);
    host_memset(h, count, 0, sizeof got);
    if (p->variant) {
        struct karg a[] = {KARG_PTR(dr), KARG_PTR(dc), KARG_PTR(count), KARG_I32(z->records)};
        host_launch(h, "ap_tx", DIM1(z->ctas), DIM1(z->threads), 0, a, ARRAY_LEN(a));
    } else {
        addr_t locks = host_malloc(h, sizeof got);
        host_memset(h, locks, 0, sizeof got);
        struct karg a[] = {KARG_PTR(dr), KARG_PTR(dc), KARG_PTR(count), KARG_PTR(locks),
                           KARG_I32(z->records)};
        host_launch(h, "ap_lock", DIM1(z->ctas), DIM1(z->threads), 0, a, ARRAY_LEN(a));
    }
    host_memcpy_from_dev(h, got, count, sizeof got);
    int rc = 0;
    for (unsigned c = 0; c < AP_CANDIDATES && !rc; c++)
        if (got[8 * c] != want[c]) {
            snprintf(why, why_len,
                     "candidate %u (items 0x%x) counted %d times, %d records "
                     "contain it (a lost update)",
                     c, cand[c], got[8 * c], want[c]);
            rc = 1;
        }
    free(rec);
    return rc;
}

const struct workload wl_ap = {
    .name = "ap",
    .set = "getm",
    .desc = "AP of the TM benchmarks: Apriori support counts of 16 hot candidates, each under its "
            "lock (tx: a record's in one transaction, --protocol getm); every count checked",
    .ptx = wl_ptx_ap,
    .ptx_file = "workloads/ap/ap.ptx",
    .run = ap_run,
    .variants = (const char *const[]){"tx", NULL},
};
