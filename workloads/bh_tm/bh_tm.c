/*
 * bh_tm.c - host driver of BH of the TM benchmarks (GETM set): build a
 * Barnes-Hut octree, one body inserted per critical section (spec 004a
 * Table 4.3; bh_tm.cu).
 *
 * Bodies get distinct coordinates of 10 bits each (a bijection of the body
 * number on 30 bits, mixed by the seed). By default each insertion claims or
 * locks one child slot with atomicCAS (the fine-grained-lock twin, FGLock:
 * any protocol); `tx` does it in a transaction (--protocol getm). Check, true
 * of every serial order of the insertions: walking the tree from the root
 * reaches every body exactly once, in the slot its coordinates select at
 * every depth on its path, no cell twice, no slot left locked.
 * Sizes: tiny 1024 bodies (16 CTAs x 64 threads), quick and small 7680 (60 x
 * 128), paper 30 000 (Table 4.3's 30K; 240 x 128, one body a thread).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_bh_tm[];

#define BH_BITS 10 /* as in bh_tm.cu */

struct bh_size {
    uint32_t ctas, threads, bodies;
};
static const struct bh_size bh_sizes[WL_NSIZES] = {
    [WL_TINY] = {16, 64, 1024},
    [WL_QUICK] = {60, 128, 7680},
    [WL_SMALL] = {60, 128, 7680},
    [WL_PAPER] = {240, 128, 30000},
};

/* A bijection of 30-bit numbers (xor-shifts and odd multipliers). */
static uint32_t bh_mix(uint32_t h)
{
    const uint32_t mask = (1u << 30) - 1;
    h ^= h >> 15;
    h = (h * 0x2c1b3c6du) & mask;
    h ^= h >> 12;
    h = (h * 0x297a2d39u) & mask;
    h ^= h >> 15;
    return h;
}

static int bh_octant(const int32_t *b, int depth)
{
    int s = BH_BITS - 1 - depth;
    return (((b[0] >> s) & 1) << 2) | (((b[1] >> s) & 1) << 1) | ((b[2] >> s) & 1);
}

struct bh_walk {
    const int32_t *child, *bodies;
    uint32_t nbodies, ncells;
    uint8_t *seen_body, *seen_cell;
    uint32_t found;
    int path[BH_BITS + 1];
    char *why;
    size_t why_len;
};

static int bh_check_cell(struct bh_walk *w, uint32_t c, int depth)
{
    if (depth > BH_BITS - 1) {
        snprintf(w->why, w->why_len, "cell %u is at depth %d, below the deepest possible", c,
                 depth);
        return 1;
    }
    if (w->seen_cell[c]) {
        snprintf(w->why, w->why_len, "cell %u is reached twice", c);
        return 1;
    }
    w->seen_cell[c] = 1;
    for (int o = 0; o < 8; o++) {
        int32_t s = w->child[8 * (size_t)c + (size_t)o];
        w->path[depth] = o;
        if (s == -1)
            continue;
        if (s < -1) {
            snprintf(w->why, w->why_len, "cell %u's slot %d is still locked (%d)", c, o, s);
            return 1;
        }
        if ((uint32_t)s >= w->nbodies) {
            uint32_t k = (uint32_t)s - w->nbodies;
            if (k >= w->ncells || k == 0) {
                snprintf(w->why, w->why_len, "cell %u's slot %d holds %d, no cell", c, o, s);
                return 1;
            }
            if (bh_check_cell(w, k, depth + 1))
                return 1;
            continue;
        }
        if (w->seen_body[s]) {
            snprintf(w->why, w->why_len, "body %d is in the tree twice", s);
            return 1;
        }
        w->seen_body[s] = 1;
        w->found++;
        for (int d = 0; d <= depth; d++)
            if (bh_octant(&w->bodies[4 * s], d) != w->path[d]) {
                snprintf(w->why, w->why_len,
                         "body %d sits in octant %d at depth %d, its "
                         "coordinates select %d",
                         s, w->path[d], d, bh_octant(&w->bodies[4 * s], d));
                return 1;
            }
    }
    return 0;
}

static int bh_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    if (p->variant && strcmp(p->variant, "tx")) {
        snprintf(why, why_len, "unknown variant '%s' (tx)", p->variant);
        return 1;
    }
    const struct bh_size *z = &bh_sizes[p->size];
    uint32_t nthreads = z->ctas * z->threads, per = (z->bodies + nthreads - 1) / nthreads;
    uint32_t ncells = 1 + nthreads * per * BH_BITS;
    struct rng r;
    rng_seed(&r, p->seed, 0x4248); /* "BH" */
    uint32_t salt = (uint32_t)rng_next(&r) & ((1u << 30) - 1);
    int32_t *bodies = malloc((size_t)z->bodies * 16);
    int32_t *child = malloc((size_t)ncells * 32);
    panic_if(!bodies || !child, "out of memory");
    for (uint32_t k = 0; k < z->bodies; k++) {
        uint32_t key = bh_mix(k ^ salt);
        bodies[4 * k] = (int32_t)(key >> 20);
        bodies[4 * k + 1] = (int32_t)((key >> 10) & 1023);
        bodies[4 * k + 2] = (int32_t)(key & 1023);
        bodies[4 * k + 3] = 0;
    }

    host_load_ptx(h, wl_ptx_bh_tm, "workloads/bh_tm/bh_tm.ptx");
    addr_t dc = host_malloc(h, (size_t)ncells * 32), db = host_malloc(h, (size_t)z->bodies * 16);
    host_memset(h, dc, 0xff, (size_t)ncells * 32); /* every slot -1: empty */
    host_memcpy_to_dev(h, db, bodies, (size_t)z->bodies * 16);
    struct karg a[] = {KARG_PTR(dc), KARG_PTR(db), KARG_I32(z->bodies), KARG_I32(per)};
    host_launch(h, p->variant ? "bh_tx" : "bh_lock", DIM1(z->ctas), DIM1(z->threads), 0, a,
                ARRAY_LEN(a));
    host_memcpy_from_dev(h, child, dc, (size_t)ncells * 32);
    struct bh_walk w = {.child = child,
                        .bodies = bodies,
                        .nbodies = z->bodies,
                        .ncells = ncells,
                        .seen_body = calloc(z->bodies, 1),
                        .seen_cell = calloc(ncells, 1),
                        .why = why,
                        .why_len = why_len};
    panic_if(!w.seen_body || !w.seen_cell, "out of memory");
    int rc = bh_check_cell(&w, 0, 0);
    if (!rc && w.found != z->bodies) {
        snprintf(why, why_len, "%u of %u bodies are in the tree (an insertion was lost)", w.found,
                 z->bodies);
        rc = 1;
    }
    free(w.seen_body);
    free(w.seen_cell);
    free(bodies);
    free(child);
    return rc;
}

const struct workload wl_bh_tm = {
    .name = "bh-tm",
    .set = "getm",
    .desc = "BH of the TM benchmarks: octree build, each body inserted under a CAS-locked slot "
            "(tx: in a transaction, --protocol getm); the whole tree checked",
    .ptx = wl_ptx_bh_tm,
    .ptx_file = "workloads/bh_tm/bh_tm.ptx",
    .run = bh_run,
    .variants = (const char *const[]){"tx", NULL},
};
