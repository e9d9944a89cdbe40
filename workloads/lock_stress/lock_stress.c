/*
 * lock_stress.c - host driver of the lock-stress workload (sync set): random
 * lock-protected episodes over many lines, the value-checked stress test of
 * the SM's memory models (docs/ordering.md).
 *
 * Every thread of every CTA runs `episodes` episodes (lock_stress.cu): take
 * a random location's lock, check that its two words agree, increment both,
 * read a read-only table, write a private line, release. The locations, the
 * table and the private lines spread over many sectors, so with small
 * type-aware SC structures (order.sector_bytes, mac_entries,
 * type_cache_entries) sectors move between private, read-only and shared
 * states all the time. Check: no episode saw the two words disagree, every
 * location's words equal the number of episodes that chose it (replayed on
 * the host from the same streams), and every thread's table sum is right.
 * Sizes: tiny 64 CTAs x 32 threads x 10 episodes (20480) over 64 locations;
 * quick and small 128 x 64 x 16 (131072) over 256; paper 256 x 128 x 32
 * (1 M) over 1024. Invented (a DRF random tester in the spirit of gem5's
 * Ruby random tester, run as a kernel).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_lock_stress[];

#define LS_LINE_WORDS 32u    /* one element per 128-byte line */
#define LS_GAP        16384u /* a and b in different 16 KB sectors */

struct ls_size {
    uint32_t ctas, threads, episodes, nlocs, ntable;
};
static const struct ls_size ls_sizes[WL_NSIZES] = {
    [WL_TINY] = {64, 32, 10, 64, 64},
    [WL_QUICK] = {128, 64, 16, 256, 256},
    [WL_SMALL] = {128, 64, 16, 256, 256},
    [WL_PAPER] = {256, 128, 32, 1024, 1024},
};

static int32_t *ls_alloc(size_t n)
{
    int32_t *p = calloc(n ? n : 1, sizeof *p);
    panic_if(!p, "out of memory");
    return p;
}

static int lock_stress_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    if (p->variant) {
        snprintf(why, why_len, "unknown variant '%s' (none defined)", p->variant);
        return 1;
    }
    const struct ls_size *z = &ls_sizes[p->size];
    uint32_t n_threads = z->ctas * z->threads;
    size_t loc_bytes = (size_t)z->nlocs * LS_LINE_WORDS * 4;
    size_t tab_bytes = (size_t)z->ntable * LS_LINE_WORDS * 4;
    size_t thr_bytes = (size_t)n_threads * LS_LINE_WORDS * 4;
    struct rng r;
    rng_seed(&r, p->seed, 0x4c4b53); /* "LKS" */
    uint32_t seed = (uint32_t)rng_next(&r);
    int32_t *table = ls_alloc(tab_bytes / 4);
    for (uint32_t i = 0; i < z->ntable; i++)
        table[i * LS_LINE_WORDS] = (int32_t)rng_below(&r, 1000);

    host_load_ptx(h, wl_ptx_lock_stress, "workloads/lock_stress/lock_stress.ptx");
    addr_t locks = host_malloc(h, loc_bytes), a = host_malloc(h, loc_bytes + LS_GAP);
    addr_t b = host_malloc(h, loc_bytes + LS_GAP), tab = host_malloc(h, tab_bytes + LS_GAP);
    addr_t scratch = host_malloc(h, thr_bytes), sums = host_malloc(h, (size_t)n_threads * 4);
    addr_t errors = host_malloc(h, 4);
    host_memset(h, locks, 0, loc_bytes);
    host_memset(h, a, 0, loc_bytes);
    host_memset(h, b, 0, loc_bytes);
    host_memset(h, errors, 0, 4);
    host_memcpy_to_dev(h, tab, table, tab_bytes);
    struct karg args[] = {KARG_PTR(locks),       KARG_PTR(a),        KARG_PTR(b),
                          KARG_PTR(tab),         KARG_PTR(scratch),  KARG_PTR(sums),
                          KARG_PTR(errors),      KARG_I32(z->nlocs), KARG_I32(z->ntable),
                          KARG_I32(z->episodes), KARG_U32(seed)};
    host_launch(h, "lock_stress", DIM1(z->ctas), DIM1(z->threads), 0, args, ARRAY_LEN(args));

    /* replay every thread's stream */
    int32_t *count = ls_alloc(z->nlocs), *want_sum = ls_alloc(n_threads);
    for (uint32_t t = 0; t < n_threads; t++) {
        uint32_t s = (seed ^ (t * 0x9e3779b9u)) | 1u;
        for (uint32_t e = 0; e < z->episodes; e++) {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            count[s % z->nlocs]++;
            want_sum[t] += table[((s >> 8) % z->ntable) * LS_LINE_WORDS];
        }
    }
    int32_t *got_a = ls_alloc(loc_bytes / 4), *got_b = ls_alloc(loc_bytes / 4);
    int32_t *got_sum = ls_alloc(n_threads), *got_scr = ls_alloc(thr_bytes / 4), nerr = 0;
    host_memcpy_from_dev(h, got_a, a, loc_bytes);
    host_memcpy_from_dev(h, got_b, b, loc_bytes);
    host_memcpy_from_dev(h, got_sum, sums, (size_t)n_threads * 4);
    host_memcpy_from_dev(h, got_scr, scratch, thr_bytes);
    host_memcpy_from_dev(h, &nerr, errors, 4);
    int rc = 0;
    if (nerr) {
        snprintf(why, why_len, "%d episodes found a location's two words different (a stale read)",
                 nerr);
        rc = 1;
    }
    for (uint32_t k = 0; k < z->nlocs && !rc; k++) {
        int32_t va = got_a[k * LS_LINE_WORDS], vb = got_b[k * LS_LINE_WORDS];
        if (va != count[k] || vb != count[k]) {
            snprintf(why, why_len,
                     "location %u: %d episodes chose it, its words are %d and %d (an increment "
                     "was lost)",
                     k, count[k], va, vb);
            rc = 1;
        }
    }
    for (uint32_t t = 0; t < n_threads && !rc; t++)
        if (got_sum[t] != want_sum[t] || got_scr[t * LS_LINE_WORDS] != want_sum[t]) {
            snprintf(why, why_len, "thread %u: table sum %d (scratch %d), expected %d", t,
                     got_sum[t], got_scr[t * LS_LINE_WORDS], want_sum[t]);
            rc = 1;
        }
    free(table);
    free(count);
    free(want_sum);
    free(got_a);
    free(got_b);
    free(got_sum);
    free(got_scr);
    return rc;
}

const struct workload wl_lock_stress = {
    .name = "lock-stress",
    .set = "sync",
    .desc = "random lock-protected episodes over many lines and sectors, paired words and counts "
            "checked (memory-model stress)",
    .ptx = wl_ptx_lock_stress,
    .ptx_file = "workloads/lock_stress/lock_stress.ptx",
    .run = lock_stress_run,
};
