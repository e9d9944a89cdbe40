/*
 * btree.c - host driver of the b+tree workload (order set, spec 001 §4): the
 * findK query of Rodinia's b+tree. The host bulk-builds a B+ tree of nodes
 * of order 63 (Rodinia's struct knode: location, indices[64], keys[64],
 * is_leaf, num_keys) with 32 entries per node over records whose keys are
 * the odd numbers 1, 3, ..., 2R - 1; record i's value is a hash of i. Node
 * 0 is the root. Queries are uniform in [0, 2R] (about half miss); one
 * thread block of 64 threads per query. Check: every answer equals the
 * CPU's lookup (-1 for a miss).
 * Sizes (records / queries): tiny 2048 / 64 (height 2), quick 32768 / 1024
 * (height 2), small 65536 / 2048 (height 3), paper 1048576 / 10000 (Rodinia's
 * mil.txt and its 10000-query command; height 4).
 * Variant `range`: the range query of the same program instead (Rodinia's
 * `j` command, findRangeK): each block descends to the range's first and last
 * keys at once; the range spans 32, 500, 1000 or 3000 records (tiny to paper;
 * paper is Rodinia's `j 6000 3000`, 6000 queries; the other sizes keep
 * findK's query counts). Its starts are uniform, so about half are even keys
 * that match no record (then neither answer is written). Check: every
 * query's first record and length equal the CPU's.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_btree[];

#define BT_ORDER   63
#define BT_FANOUT  32u
#define BT_THREADS 64u

struct bt_knode { /* the kernel's struct knode */
    int32_t location;
    int32_t indices[BT_ORDER + 1];
    int32_t keys[BT_ORDER + 1];
    int32_t is_leaf;
    int32_t num_keys;
};

static int32_t bt_value(uint32_t i)
{
    return (int32_t)((i * 2654435761u) >> 1);
}

/* Build the tree: leaves first, then each level above; returns the nodes
 * renumbered root first (level by level, top down) and the height. */
static struct bt_knode *bt_build(uint32_t n_rec, uint32_t *n_nodes, uint32_t *height)
{
    uint32_t levels[16], n_levels = 0, total = 0;
    for (uint32_t n = (n_rec + BT_FANOUT - 1) / BT_FANOUT;; n = (n + BT_FANOUT - 1) / BT_FANOUT) {
        panic_if(n_levels == 16, "b+tree too tall");
        levels[n_levels++] = n;
        total += n;
        if (n == 1)
            break;
    }
    /* level l (0 = leaves) starts at first[l] in root-first order */
    uint32_t first[16], at = 0;
    for (uint32_t l = n_levels; l-- > 0;) {
        first[l] = at;
        at += levels[l];
    }
    struct bt_knode *nodes = calloc(total, sizeof *nodes);
    int32_t *min_key = malloc(total * sizeof(int32_t));
    panic_if(!nodes || !min_key, "out of memory");
    for (uint32_t l = 0; l < n_levels; l++) {
        uint32_t below = l ? levels[l - 1] : n_rec;
        for (uint32_t k = 0; k < levels[l]; k++) {
            struct bt_knode *nd = &nodes[first[l] + k];
            nd->location = (int32_t)(first[l] + k);
            nd->is_leaf = l == 0;
            for (uint32_t t = 0; t <= BT_ORDER; t++)
                nd->keys[t] = INT_MAX;
            uint32_t lo = k * BT_FANOUT, hi = lo + BT_FANOUT < below ? lo + BT_FANOUT : below;
            for (uint32_t c = lo; c < hi; c++) {
                uint32_t t = c - lo;
                if (l == 0) {
                    nd->keys[t] = (int32_t)(2 * c + 1);
                    nd->indices[t] = (int32_t)c;
                } else {
                    nd->keys[t] = t == 0 ? INT_MIN : min_key[first[l - 1] + c];
                    nd->indices[t] = (int32_t)(first[l - 1] + c);
                }
            }
            nd->num_keys = (int32_t)(hi - lo);
            min_key[first[l] + k] = l == 0 ? (int32_t)(2 * lo + 1) : min_key[first[l - 1] + lo];
        }
    }
    free(min_key);
    *n_nodes = total;
    *height = n_levels - 1;
    return nodes;
}

static const uint32_t bt_records[WL_NSIZES] = {2048, 32768, 65536, 1048576};

/* Rodinia's range query (`j`): every block's first record and length. */
static int btree_range(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    static const uint32_t queries[WL_NSIZES] = {64, 1024, 2048, 6000};
    static const uint32_t spans[WL_NSIZES] = {32, 500, 1000, 3000};
    uint32_t n_rec = bt_records[p->size], nq = queries[p->size], span = spans[p->size];
    uint32_t n_nodes, height;
    struct bt_knode *nodes = bt_build(n_rec, &n_nodes, &height);
    int32_t *start = malloc(nq * sizeof(int32_t)), *end = malloc(nq * sizeof(int32_t)),
            *recstart = malloc(nq * sizeof(int32_t)), *reclen = malloc(nq * sizeof(int32_t));
    panic_if(!start || !end || !recstart || !reclen, "out of memory");
    struct rng r;
    rng_seed(&r, p->seed, 0x42545247);  /* "BTRG" */
    for (uint32_t q = 0; q < nq; q++) { /* keys are 2c + 1: a span of records is twice as wide */
        start[q] = (int32_t)rng_below(&r, 2 * (n_rec - span) + 1);
        end[q] = start[q] + 2 * (int32_t)span;
    }

    host_load_ptx(h, wl_ptx_btree, "workloads/btree/btree.ptx");
    size_t lsz = nq * sizeof(int64_t), isz = nq * sizeof(int32_t);
    addr_t dnodes = host_malloc(h, n_nodes * sizeof *nodes), dcurr = host_malloc(h, lsz),
           doff = host_malloc(h, lsz), dlast = host_malloc(h, lsz), doff2 = host_malloc(h, lsz),
           dstart = host_malloc(h, isz), dend = host_malloc(h, isz), drs = host_malloc(h, isz),
           drl = host_malloc(h, isz);
    host_memcpy_to_dev(h, dnodes, nodes, n_nodes * sizeof *nodes);
    host_memcpy_to_dev(h, dstart, start, isz);
    host_memcpy_to_dev(h, dend, end, isz);
    addr_t zeroed[] = {dcurr, doff, dlast, doff2};
    for (size_t i = 0; i < ARRAY_LEN(zeroed); i++)
        host_memset(h, zeroed[i], 0, lsz);
    host_memset(h, drs, 0xff, isz);
    host_memset(h, drl, 0xff, isz);
    struct karg args[] = {KARG_U64(height), KARG_PTR(dnodes), KARG_U64(n_nodes), KARG_PTR(dcurr),
                          KARG_PTR(doff),   KARG_PTR(dlast),  KARG_PTR(doff2),   KARG_PTR(dstart),
                          KARG_PTR(dend),   KARG_PTR(drs),    KARG_PTR(drl)};
    host_launch(h, "findRangeK", (struct dim3){nq, 1, 1}, (struct dim3){BT_THREADS, 1, 1}, 0, args,
                ARRAY_LEN(args));
    host_memcpy_from_dev(h, recstart, drs, isz);
    host_memcpy_from_dev(h, reclen, drl, isz);

    int rc = 0;
    for (uint32_t q = 0; q < nq && !rc; q++) {
        bool hit = start[q] & 1; /* the end has the start's parity: both match, or neither */
        int32_t want_start = hit ? start[q] / 2 : -1, want_len = hit ? (int32_t)span + 1 : -1;
        if (recstart[q] != want_start || reclen[q] != want_len) {
            snprintf(why, why_len,
                     "range query %u [%d, %d]: expected record %d length %d, got %d %d", q,
                     start[q], end[q], want_start, want_len, recstart[q], reclen[q]);
            rc = 1;
        }
    }
    addr_t bufs[] = {dnodes, dcurr, doff, dlast, doff2, dstart, dend, drs, drl};
    for (size_t i = 0; i < ARRAY_LEN(bufs); i++)
        host_free(h, bufs[i]);
    free(nodes);
    free(start);
    free(end);
    free(recstart);
    free(reclen);
    return rc;
}

static int btree_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    if (p->variant && !strcmp(p->variant, "range"))
        return btree_range(h, p, why, why_len);
    if (p->variant) {
        snprintf(why, why_len, "unknown variant '%s' (range)", p->variant);
        return 1;
    }
    static const uint32_t queries[WL_NSIZES] = {64, 1024, 2048, 10000};
    uint32_t n_rec = bt_records[p->size], nq = queries[p->size], n_nodes, height;
    struct bt_knode *nodes = bt_build(n_rec, &n_nodes, &height);
    int32_t *records = malloc(n_rec * sizeof(int32_t)), *keys = malloc(nq * sizeof(int32_t)),
            *ans = malloc(nq * sizeof(int32_t));
    panic_if(!records || !keys || !ans, "out of memory");
    for (uint32_t i = 0; i < n_rec; i++)
        records[i] = bt_value(i);
    struct rng r;
    rng_seed(&r, p->seed, 0x42545245); /* "BTRE" */
    for (uint32_t q = 0; q < nq; q++)
        keys[q] = (int32_t)rng_below(&r, 2 * n_rec + 1);

    host_load_ptx(h, wl_ptx_btree, "workloads/btree/btree.ptx");
    addr_t dnodes = host_malloc(h, n_nodes * sizeof *nodes),
           drec = host_malloc(h, n_rec * sizeof(int32_t)),
           dcurr = host_malloc(h, nq * sizeof(int64_t)),
           doff = host_malloc(h, nq * sizeof(int64_t)),
           dkeys = host_malloc(h, nq * sizeof(int32_t)),
           dans = host_malloc(h, nq * sizeof(int32_t));
    host_memcpy_to_dev(h, dnodes, nodes, n_nodes * sizeof *nodes);
    host_memcpy_to_dev(h, drec, records, n_rec * sizeof(int32_t));
    host_memcpy_to_dev(h, dkeys, keys, nq * sizeof(int32_t));
    host_memset(h, dcurr, 0, nq * sizeof(int64_t));
    host_memset(h, doff, 0, nq * sizeof(int64_t));
    host_memset(h, dans, 0xff, nq * sizeof(int32_t));
    struct karg args[] = {KARG_U64(height), KARG_PTR(dnodes), KARG_U64(n_nodes), KARG_PTR(drec),
                          KARG_PTR(dcurr),  KARG_PTR(doff),   KARG_PTR(dkeys),   KARG_PTR(dans)};
    host_launch(h, "findK", (struct dim3){nq, 1, 1}, (struct dim3){BT_THREADS, 1, 1}, 0, args,
                ARRAY_LEN(args));
    host_memcpy_from_dev(h, ans, dans, nq * sizeof(int32_t));

    int rc = 0;
    for (uint32_t q = 0; q < nq; q++) {
        int32_t k = keys[q];
        int32_t want = (k & 1) && (uint32_t)k < 2 * n_rec ? bt_value((uint32_t)k / 2) : -1;
        if (ans[q] != want) {
            snprintf(why, why_len, "query %u (key %d): expected %d, got %d", q, k, want, ans[q]);
            rc = 1;
            break;
        }
    }
    host_free(h, dnodes);
    host_free(h, drec);
    host_free(h, dcurr);
    host_free(h, doff);
    host_free(h, dkeys);
    host_free(h, dans);
    free(nodes);
    free(records);
    free(keys);
    free(ans);
    return rc;
}

const struct workload wl_btree = {
    .name = "btree",
    .set = "order",
    .desc = "B+ tree lookups, one block per query descending from the root "
            "(Rodinia b+tree findK; spec 001); variant range (findRangeK)",
    .ptx = wl_ptx_btree,
    .ptx_file = "workloads/btree/btree.ptx",
    .run = btree_run,
    .variants = (const char *const[]){"range", NULL},
};
