/*
 * ht.c - host driver of the HT workload (GETM set): populate a chained hash
 * table (spec 004a Table 4.3: HT-H, HT-M, HT-L).
 *
 * Every thread inserts `per` keys of its xorshift stream (ht.cu): the key's
 * bucket's head becomes the thread's node, whose `next` is the old head. By
 * default each insertion holds the bucket's lock (the fine-grained-lock twin,
 * FGLock: runs under any protocol); variants ending in "tx" insert in
 * transactions (need a transactional protocol: --protocol getm). The table
 * size sets the contention: HT-H (default), HT-M (variants m, m-tx) and HT-L
 * (l, l-tx) have 8000, 80000 and 800000 buckets at paper size, 100 times
 * fewer at tiny size and 10 times fewer at quick and small sizes. Check:
 * every bucket's chain holds exactly the nodes whose keys hash to it (each
 * once, no cycle), so every insertion took effect once: some serial order.
 * Sizes: tiny 16 CTAs x 64 threads x 2 keys; quick and small 60 x 128 x 2;
 * paper 240 x 256 x 4.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_ht[];

struct ht_size {
    uint32_t ctas, threads, per, scale; /* buckets = paper buckets / scale */
};
static const struct ht_size ht_sizes[WL_NSIZES] = {
    [WL_TINY] = {16, 64, 2, 100},
    [WL_QUICK] = {60, 128, 2, 10},
    [WL_SMALL] = {60, 128, 2, 10},
    [WL_PAPER] = {240, 256, 4, 1},
};

static const char *const ht_variants[] = {"tx", "m", "m-tx", "l", "l-tx", NULL};

static int ht_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    const char *v = p->variant ? p->variant : "";
    bool known = !*v;
    for (const char *const *k = ht_variants; *k; k++)
        known |= !strcmp(v, *k);
    if (!known) {
        snprintf(why, why_len, "unknown variant '%s' (tx, m, m-tx, l, l-tx)", v);
        return 1;
    }
    bool tx = strstr(v, "tx") != NULL;
    uint32_t paper_buckets = v[0] == 'm' ? 80000 : v[0] == 'l' ? 800000 : 8000;
    const struct ht_size *z = &ht_sizes[p->size];
    uint32_t nb = paper_buckets / z->scale, n = z->ctas * z->threads * z->per;
    struct rng r;
    rng_seed(&r, p->seed, 0x4854); /* "HT" */
    uint32_t seed = (uint32_t)rng_next(&r);

    host_load_ptx(h, wl_ptx_ht, "workloads/ht/ht.ptx");
    addr_t heads = host_malloc(h, (size_t)nb * 4), next = host_malloc(h, (size_t)n * 4);
    addr_t keys = host_malloc(h, (size_t)n * 4);
    host_memset(h, heads, 0xff, (size_t)nb * 4); /* -1: empty */
    host_memset(h, next, 0, (size_t)n * 4);
    if (tx) {
        struct karg a[] = {KARG_PTR(heads), KARG_PTR(next),   KARG_PTR(keys),
                           KARG_I32(nb),    KARG_I32(z->per), KARG_U32(seed)};
        host_launch(h, "ht_tx", DIM1(z->ctas), DIM1(z->threads), 0, a, ARRAY_LEN(a));
    } else {
        addr_t locks = host_malloc(h, (size_t)nb * 4);
        host_memset(h, locks, 0, (size_t)nb * 4);
        struct karg a[] = {KARG_PTR(heads), KARG_PTR(next),   KARG_PTR(keys), KARG_PTR(locks),
                           KARG_I32(nb),    KARG_I32(z->per), KARG_U32(seed)};
        host_launch(h, "ht_lock", DIM1(z->ctas), DIM1(z->threads), 0, a, ARRAY_LEN(a));
    }
    int32_t *gh = malloc((size_t)nb * 4), *gn = malloc((size_t)n * 4);
    uint32_t *want_key = malloc((size_t)n * 4), *gk = malloc((size_t)n * 4);
    uint8_t *seen = calloc(n, 1);
    panic_if(!gh || !gn || !want_key || !gk || !seen, "out of memory");
    host_memcpy_from_dev(h, gh, heads, (size_t)nb * 4);
    host_memcpy_from_dev(h, gn, next, (size_t)n * 4);
    host_memcpy_from_dev(h, gk, keys, (size_t)n * 4);
    for (uint32_t t = 0; t < z->ctas * z->threads; t++) {
        uint32_t s = (seed ^ (t * 0x9e3779b9u)) | 1u;
        for (uint32_t k = 0; k < z->per; k++) {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            want_key[t * z->per + k] = s;
        }
    }
    int rc = 0;
    uint32_t found = 0;
    for (uint32_t b = 0; b < nb && !rc; b++)
        for (int32_t e = gh[b]; e != -1 && !rc; e = gn[e]) {
            if (e < 0 || (uint32_t)e >= n) {
                snprintf(why, why_len, "bucket %u's chain holds node %d, out of range", b, e);
                rc = 1;
            } else if (seen[e]) {
                snprintf(why, why_len,
                         "node %d is in a chain twice (or the chain of bucket %u "
                         "has a cycle)",
                         e, b);
                rc = 1;
            } else if (want_key[e] % nb != b || gk[e] != want_key[e]) {
                snprintf(why, why_len,
                         "node %d (key %u) is in bucket %u's chain, its key "
                         "belongs to bucket %u",
                         e, gk[e], b, want_key[e] % nb);
                rc = 1;
            } else {
                seen[e] = 1;
                found++;
            }
        }
    if (!rc && found != n) {
        snprintf(why, why_len, "%u of %u inserted nodes are in the table (an insertion was lost)",
                 found, n);
        rc = 1;
    }
    free(gh);
    free(gn);
    free(want_key);
    free(gk);
    free(seen);
    return rc;
}

const struct workload wl_ht = {
    .name = "ht",
    .set = "getm",
    .desc = "populate a chained hash table under bucket locks (tx: in transactions, --protocol "
            "getm; m, l: 10x and 100x the buckets); every chain checked",
    .ptx = wl_ptx_ht,
    .ptx_file = "workloads/ht/ht.ptx",
    .run = ht_run,
    .variants = ht_variants,
};
