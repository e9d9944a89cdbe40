/*
 * memcached.c - host driver of the memcached workload (order set, spec 001
 * §4): the GET path of a GPU memcached (Hetherington et al., ISPASS 2012),
 * reduced to its memory pattern. A set-associative hash table (8 item
 * slots per bucket, two thirds full) of items with a key, a value and a
 * last-access time; one thread per GET request: hash, bucket, key compares,
 * value, and atomicMax of the item's time on a hit. Requests: 3 in 4 ask for
 * a stored key (skewed: a quarter of those go to 1/64 of the items), the
 * rest for absent keys. Check: every response, and every item's final time
 * (the largest time of the requests that hit it), equal the CPU's.
 * Sizes (items / requests): tiny 1024 / 512, quick 16384 / 8192, small
 * 65536 / 32768, paper 262144 / 131072 (the paper names the workload only;
 * invented).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_memcached[];

#define MC_WAYS  8u
#define MC_BLOCK 256u

/* the kernel's mc_hash */
static uint32_t mc_hash(uint32_t k)
{
    k ^= k >> 16;
    k *= 0x7feb352du;
    k ^= k >> 15;
    k *= 0x846ca68bu;
    k ^= k >> 16;
    return k;
}

static int memcached_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    static const uint32_t items[WL_NSIZES] = {1024, 16384, 65536, 262144};
    uint32_t n_items = items[p->size], n_req = n_items / 2;
    uint32_t n_buckets = n_items * 3 / 2 / MC_WAYS; /* two thirds full */
    int32_t *buckets = malloc((size_t)n_buckets * MC_WAYS * sizeof(int32_t)),
            *value = malloc(n_items * sizeof(int32_t)), *resp = malloc(n_req * sizeof(int32_t));
    uint32_t *key = malloc(n_items * sizeof(uint32_t)), *itime = calloc(n_items, sizeof(uint32_t)),
             *got_time = malloc(n_items * sizeof(uint32_t)),
             *req_key = malloc(n_req * sizeof(uint32_t)),
             *req_time = malloc(n_req * sizeof(uint32_t));
    panic_if(!buckets || !value || !resp || !key || !itime || !got_time || !req_key || !req_time,
             "out of memory");
    memset(buckets, 0xff, (size_t)n_buckets * MC_WAYS * sizeof(int32_t));
    struct rng r;
    rng_seed(&r, p->seed, 0x4d454d43); /* "MEMC" */
    /* stored keys are even, absent ones odd; an item goes in its bucket's
     * first free slot (a full bucket's item is dropped: never stored) */
    uint32_t stored = 0;
    for (uint32_t i = 0; i < n_items; i++) {
        uint32_t k = (uint32_t)rng_below(&r, 1u << 30) * 2;
        uint32_t b = mc_hash(k) % n_buckets;
        bool dup = false;
        for (uint32_t w = 0; w < MC_WAYS && buckets[b * MC_WAYS + w] >= 0; w++)
            dup |= key[buckets[b * MC_WAYS + w]] == k;
        uint32_t w = 0;
        while (w < MC_WAYS && buckets[b * MC_WAYS + w] >= 0)
            w++;
        if (dup || w == MC_WAYS)
            continue;
        key[stored] = k;
        value[stored] = (int32_t)rng_below(&r, 1u << 31);
        buckets[b * MC_WAYS + w] = (int32_t)stored;
        stored++;
    }
    for (uint32_t q = 0; q < n_req; q++) {
        uint32_t kind = (uint32_t)rng_below(&r, 16);
        if (kind < 3)
            req_key[q] = key[rng_below(&r, stored / 64 + 1)]; /* the hot items */
        else if (kind < 12)
            req_key[q] = key[rng_below(&r, stored)];
        else
            req_key[q] = (uint32_t)rng_below(&r, 1u << 30) * 2 + 1;
        req_time[q] = 1 + (uint32_t)rng_below(&r, 1u << 20);
    }

    host_load_ptx(h, wl_ptx_memcached, "workloads/memcached/memcached.ptx");
    addr_t dbuckets = host_malloc(h, (size_t)n_buckets * MC_WAYS * sizeof(int32_t)),
           dkey = host_malloc(h, n_items * sizeof(uint32_t)),
           dvalue = host_malloc(h, n_items * sizeof(int32_t)),
           dtime = host_malloc(h, n_items * sizeof(uint32_t)),
           dreq_key = host_malloc(h, n_req * sizeof(uint32_t)),
           dreq_time = host_malloc(h, n_req * sizeof(uint32_t)),
           dresp = host_malloc(h, n_req * sizeof(int32_t));
    host_memcpy_to_dev(h, dbuckets, buckets, (size_t)n_buckets * MC_WAYS * sizeof(int32_t));
    host_memcpy_to_dev(h, dkey, key, n_items * sizeof(uint32_t));
    host_memcpy_to_dev(h, dvalue, value, n_items * sizeof(int32_t));
    host_memset(h, dtime, 0, n_items * sizeof(uint32_t));
    host_memcpy_to_dev(h, dreq_key, req_key, n_req * sizeof(uint32_t));
    host_memcpy_to_dev(h, dreq_time, req_time, n_req * sizeof(uint32_t));
    struct karg args[] = {KARG_I32(n_req),     KARG_PTR(dreq_key), KARG_PTR(dreq_time),
                          KARG_U32(n_buckets), KARG_I32(MC_WAYS),  KARG_PTR(dbuckets),
                          KARG_PTR(dkey),      KARG_PTR(dvalue),   KARG_PTR(dtime),
                          KARG_PTR(dresp)};
    host_launch(h, "mc_get", (struct dim3){(n_req + MC_BLOCK - 1) / MC_BLOCK, 1, 1},
                (struct dim3){MC_BLOCK, 1, 1}, 0, args, ARRAY_LEN(args));
    host_memcpy_from_dev(h, resp, dresp, n_req * sizeof(int32_t));
    host_memcpy_from_dev(h, got_time, dtime, n_items * sizeof(uint32_t));

    int rc = 0;
    for (uint32_t q = 0; q < n_req && !rc; q++) {
        uint32_t b = mc_hash(req_key[q]) % n_buckets;
        int32_t want = -1;
        for (uint32_t w = 0; w < MC_WAYS; w++) {
            int32_t it = buckets[b * MC_WAYS + w];
            if (it >= 0 && key[it] == req_key[q]) {
                want = value[it];
                if (req_time[q] > itime[it])
                    itime[it] = req_time[q];
                break;
            }
        }
        if (resp[q] != want) {
            snprintf(why, why_len, "request %u (key %u): expected %d, got %d", q, req_key[q], want,
                     resp[q]);
            rc = 1;
        }
    }
    for (uint32_t i = 0; i < stored && !rc; i++)
        if (got_time[i] != itime[i]) {
            snprintf(why, why_len, "item %u: last access %u, expected %u", i, got_time[i],
                     itime[i]);
            rc = 1;
        }
    host_free(h, dbuckets);
    host_free(h, dkey);
    host_free(h, dvalue);
    host_free(h, dtime);
    host_free(h, dreq_key);
    host_free(h, dreq_time);
    host_free(h, dresp);
    free(buckets);
    free(value);
    free(resp);
    free(key);
    free(itime);
    free(got_time);
    free(req_key);
    free(req_time);
    return rc;
}

const struct workload wl_memcached = {
    .name = "memcached",
    .set = "order",
    .desc = "hashed key-value GETs: bucket, key compare, value, atomic last-access update "
            "(GPU memcached's GET path; spec 001)",
    .ptx = wl_ptx_memcached,
    .ptx_file = "workloads/memcached/memcached.ptx",
    .run = memcached_run,
};
