/*
 * dlb.c - host driver of DLB, octree partitioning with per-CTA task deques
 * and work stealing (see dlb.cu).
 *
 * Input (from the seed): N points in the unit cube, grouped in 4 Gaussian-like
 * clusters so that the octree is unbalanced and stealing matters;
 * coordinates are multiples of 2^-24, so cell tests are exact in float. The
 * root task (all points) starts in CTA 0's deque.
 * Check (the schedule is nondeterministic; these hold for every correct
 * run): no deque overflow; every task id created was processed exactly once
 * and nothing is pending; the leaves tile [0, N) and their counts sum to N;
 * every leaf is small enough or at the depth limit; each leaf's points lie in
 * its cell; the output is a permutation of the input; the set of leaves
 * (cell, count) and the number of tasks equal a CPU partition's.
 * Sizes (points, leaf size, depth limit, CTAs x threads): tiny 2048, 32, 8,
 * 4x64; quick 32768, 32, 8, 16x64; paper 100000 (the paper's 100000-node
 * input), 32, 9, 16x64. The grid must be co-resident.
 * Variant "nofence": push and steal without their fences.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_dlb[];

#define DLB_CAP 256
#define DLB_CTL 32
enum { DLB_PENDING, DLB_NEXT_ID, DLB_NLEAVES, DLB_ERROR, DLB_STEALS, DLB_NGLOB };

struct dlb_size {
    unsigned points, leaf_max, max_depth, ctas, threads;
};
static const struct dlb_size dlb_sizes[WL_NSIZES] = {
    [WL_TINY] = {2048, 32, 8, 4, 64},
    [WL_QUICK] = {32768, 32, 8, 16, 64},
    [WL_SMALL] = {100000, 32, 9, 16, 64}, /* small is paper: larger than the L2 */
    [WL_PAPER] = {100000, 32, 9, 16, 64},
};

struct dlb_pt {
    float x, y, z;
    uint32_t id;
};
struct dlb_task {
    uint32_t lo, n, key, id; /* key = depth << 28 | path */
};

static unsigned dlb_octant(const struct dlb_pt *q, float cx, float cy, float cz)
{
    return (unsigned)(q->x >= cx) | (unsigned)(q->y >= cy) << 1 | (unsigned)(q->z >= cz) << 2;
}

/* Centre of the cell named by key, computed as the kernel does. */
static void dlb_centre(uint32_t key, float c[3])
{
    unsigned depth = key >> 28, path = key & 0x0fffffffu;
    float size = 1.0f;
    c[0] = c[1] = c[2] = 0.0f;
    for (unsigned l = 0; l < depth; l++) {
        unsigned o = (path >> (3 * (depth - 1 - l))) & 7;
        size *= 0.5f;
        for (unsigned d = 0; d < 3; d++)
            c[d] += (o >> d & 1) ? size : 0.0f;
    }
    size *= 0.5f;
    for (unsigned d = 0; d < 3; d++)
        c[d] += size;
}

/* CPU reference partition: appends leaves as keys with counts; returns tasks. */
static unsigned dlb_ref(struct dlb_pt *p, struct dlb_pt *tmp, unsigned n, uint32_t key,
                        const struct dlb_size *s, uint32_t (*leaves)[2], unsigned *nleaves)
{
    unsigned depth = key >> 28, path = key & 0x0fffffffu;
    if (n <= s->leaf_max || depth >= s->max_depth) {
        leaves[*nleaves][0] = key, leaves[*nleaves][1] = n, (*nleaves)++;
        return 1;
    }
    float c[3];
    dlb_centre(key, c);
    unsigned cnt[8] = {0}, off[8], sum = 0, tasks = 1;
    for (unsigned i = 0; i < n; i++)
        cnt[dlb_octant(&p[i], c[0], c[1], c[2])]++;
    for (unsigned o = 0; o < 8; o++)
        off[o] = sum, sum += cnt[o];
    for (unsigned i = 0; i < n; i++)
        tmp[off[dlb_octant(&p[i], c[0], c[1], c[2])]++] = p[i];
    memcpy(p, tmp, n * sizeof(*p));
    for (unsigned o = 0, start = 0; o < 8; start += cnt[o], o++)
        if (cnt[o])
            tasks += dlb_ref(p + start, tmp + start, cnt[o], (depth + 1) << 28 | path << 3 | o, s,
                             leaves, nleaves);
    return tasks;
}

static int dlb_cmp_key(const void *a, const void *b)
{
    const struct dlb_task *x = a, *y = b;
    return (x->key > y->key) - (x->key < y->key);
}

static int dlb_cmp_want(const void *a, const void *b)
{
    const uint32_t *x = a, *y = b;
    return (x[0] > y[0]) - (x[0] < y[0]);
}

static int dlb_cmp_lo(const void *a, const void *b)
{
    const struct dlb_task *x = a, *y = b;
    return (x->lo > y->lo) - (x->lo < y->lo);
}

static int dlb_check(const struct dlb_size *s, const int32_t *glob, const uint32_t *processed,
                     struct dlb_task *lv, const struct dlb_pt *in, const struct dlb_pt *out,
                     uint32_t (*want)[2], unsigned want_leaves, unsigned want_tasks, uint8_t *seen,
                     char *why, size_t why_len)
{
    const unsigned N = s->points;
    if (glob[DLB_ERROR]) {
        snprintf(why, why_len, "dlb: %s",
                 glob[DLB_ERROR] == 1 ? "a task deque overflowed" : "more tasks than expected");
        return 1;
    }
    if (glob[DLB_PENDING] != 0 || (unsigned)glob[DLB_NEXT_ID] != want_tasks) {
        snprintf(why, why_len, "dlb: %d tasks pending, %d created, expected 0 and %u",
                 glob[DLB_PENDING], glob[DLB_NEXT_ID], want_tasks);
        return 1;
    }
    for (unsigned id = 0; id < want_tasks; id++)
        if (processed[id] != 1) {
            snprintf(why, why_len, "dlb: task %u processed %u times", id, processed[id]);
            return 1;
        }
    unsigned nl = (unsigned)glob[DLB_NLEAVES];
    if (nl != want_leaves) {
        snprintf(why, why_len, "dlb: %u leaves, expected %u", nl, want_leaves);
        return 1;
    }
    qsort(lv, nl, sizeof(*lv), dlb_cmp_lo);
    for (unsigned k = 0, next = 0; k < nl; k++) {
        if (lv[k].lo != next) {
            snprintf(why, why_len, "dlb: leaves do not tile the points at %u", next);
            return 1;
        }
        next += lv[k].n;
        if (k + 1 == nl && next != N) {
            snprintf(why, why_len, "dlb: leaves hold %u points, expected %u", next, N);
            return 1;
        }
        float c[3];
        uint32_t key = lv[k].key;
        unsigned depth = key >> 28, path = key & 0x0fffffffu;
        if (lv[k].n > s->leaf_max && depth < s->max_depth) {
            snprintf(why, why_len, "dlb: leaf at %u holds %u points", lv[k].lo, lv[k].n);
            return 1;
        }
        for (unsigned i = lv[k].lo; i < lv[k].lo + lv[k].n; i++)
            for (unsigned l = 0; l < depth; l++) {
                uint32_t anc = l << 28 | path >> (3 * (depth - l));
                dlb_centre(anc, c);
                if (dlb_octant(&out[i], c[0], c[1], c[2]) !=
                    ((path >> (3 * (depth - 1 - l))) & 7)) {
                    snprintf(why, why_len, "dlb: point %u lies outside its leaf's cell", out[i].id);
                    return 1;
                }
            }
    }
    memset(seen, 0, N);
    for (unsigned i = 0; i < N; i++) {
        uint32_t id = out[i].id;
        if (id >= N || seen[id] || out[i].x != in[id].x || out[i].y != in[id].y ||
            out[i].z != in[id].z) {
            snprintf(why, why_len, "dlb: output slot %u is not a unique input point", i);
            return 1;
        }
        seen[id] = 1;
    }
    qsort(lv, nl, sizeof(*lv), dlb_cmp_key);
    qsort(want, want_leaves, sizeof(*want), dlb_cmp_want);
    for (unsigned k = 0; k < nl; k++)
        if (lv[k].key != want[k][0] || lv[k].n != want[k][1]) {
            snprintf(why, why_len, "dlb: leaf %u is cell %#x with %u points, expected %#x with %u",
                     k, lv[k].key, lv[k].n, want[k][0], want[k][1]);
            return 1;
        }
    return 0;
}

static int dlb_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    bool nofence = false;
    if (p->variant && strcmp(p->variant, "nofence") == 0)
        nofence = true;
    else if (p->variant) {
        snprintf(why, why_len, "dlb: unknown variant '%s' (known: nofence)", p->variant);
        return 1;
    }
    const struct dlb_size *s = &dlb_sizes[p->size];
    const unsigned N = s->points;
    struct dlb_pt *in = malloc(N * sizeof(*in)), *out = malloc(N * sizeof(*out));
    struct dlb_pt *tmp = malloc(N * sizeof(*tmp));
    uint32_t(*want)[2] = malloc(N * sizeof(*want));
    struct dlb_task *lv = malloc(N * sizeof(*lv));
    uint8_t *seen = malloc(N);
    uint32_t *processed = NULL;
    int rc = 1;
    if (!in || !out || !tmp || !want || !lv || !seen) {
        snprintf(why, why_len, "dlb: out of host memory");
        goto done;
    }
    struct rng r;
    rng_seed(&r, p->seed, 0xd1b);
    uint32_t centre[4][3];
    for (unsigned k = 0; k < 4; k++)
        for (unsigned d = 0; d < 3; d++)
            centre[k][d] = (1u << 22) + (uint32_t)rng_below(&r, 1u << 23);
    for (unsigned i = 0; i < N; i++) {
        unsigned k = (unsigned)rng_below(&r, 4);
        uint32_t q[3];
        for (unsigned d = 0; d < 3; d++) {
            /* centre + (sum of 3 uniforms - 1.5) * 2^20 (~0.06) */
            int64_t v = (int64_t)centre[k][d] - (3 << 19);
            for (unsigned j = 0; j < 3; j++)
                v += (int64_t)rng_below(&r, 1u << 20);
            q[d] = (uint32_t)(v < 0 ? 0 : v >= (1 << 24) ? (1 << 24) - 1 : v);
        }
        in[i] = (struct dlb_pt){(float)q[0] / (1 << 24), (float)q[1] / (1 << 24),
                                (float)q[2] / (1 << 24), i};
    }
    memcpy(out, in, N * sizeof(*in));
    unsigned want_leaves = 0;
    unsigned want_tasks = dlb_ref(out, tmp, N, 0, s, want, &want_leaves);
    const unsigned max_tasks = want_tasks + 64;
    processed = malloc(max_tasks * sizeof(uint32_t));
    if (!processed) {
        snprintf(why, why_len, "dlb: out of host memory");
        goto done;
    }

    host_load_ptx(h, wl_ptx_dlb, "workloads/dlb/dlb.ptx");
    const size_t pts_b = N * sizeof(struct dlb_pt), deq_b = s->ctas * DLB_CAP * 16;
    const size_t ctl_b = s->ctas * DLB_CTL * sizeof(int32_t);
    addr_t dp0 = host_malloc(h, pts_b), dp1 = host_malloc(h, pts_b), dout = host_malloc(h, pts_b);
    addr_t ddeq = host_malloc(h, deq_b), dctl = host_malloc(h, ctl_b);
    addr_t dleaves = host_malloc(h, max_tasks * 16);
    addr_t dproc = host_malloc(h, max_tasks * sizeof(uint32_t));
    addr_t dglob = host_malloc(h, DLB_NGLOB * sizeof(int32_t));
    host_memcpy_to_dev(h, dp0, in, pts_b);
    host_memset(h, dp1, 0, pts_b);
    host_memset(h, dout, 0, pts_b);
    host_memset(h, ddeq, 0, deq_b);
    host_memset(h, dctl, 0, ctl_b);
    host_memset(h, dleaves, 0, max_tasks * 16);
    host_memset(h, dproc, 0, max_tasks * sizeof(uint32_t));
    const struct dlb_task root = {0, N, 0, 0};
    const int32_t one = 1;
    host_memcpy_to_dev(h, ddeq, &root, sizeof(root));
    host_memcpy_to_dev(h, dctl + sizeof(int32_t), &one, sizeof(one)); /* bottom of deque 0 */
    int32_t glob[DLB_NGLOB] = {[DLB_PENDING] = 1, [DLB_NEXT_ID] = 1};
    host_memcpy_to_dev(h, dglob, glob, sizeof(glob));
    struct karg args[] = {KARG_PTR(dp0),         KARG_PTR(dp1),
                          KARG_PTR(dout),        KARG_PTR(ddeq),
                          KARG_PTR(dctl),        KARG_PTR(dleaves),
                          KARG_PTR(dproc),       KARG_PTR(dglob),
                          KARG_U32(s->leaf_max), KARG_U32(s->max_depth),
                          KARG_U32(max_tasks),   KARG_U32((uint32_t)(p->seed ^ (p->seed >> 32)))};
    host_launch(h, nofence ? "dlb_run_nofence" : "dlb_run", DIM1(s->ctas), DIM1(s->threads), 0,
                args, ARRAY_LEN(args));
    host_memcpy_from_dev(h, glob, dglob, sizeof(glob));
    host_memcpy_from_dev(h, processed, dproc, max_tasks * sizeof(uint32_t));
    host_memcpy_from_dev(h, out, dout, pts_b);
    unsigned nl = (unsigned)glob[DLB_NLEAVES] <= N ? (unsigned)glob[DLB_NLEAVES] : N;
    host_memcpy_from_dev(h, lv, dleaves, nl * sizeof(*lv));
    glob[DLB_NLEAVES] = (int32_t)nl;
    rc = dlb_check(s, glob, processed, lv, in, out, want, want_leaves, want_tasks, seen, why,
                   why_len);
done:
    free(in), free(out), free(tmp), free(want), free(lv), free(seen), free(processed);
    return rc;
}

const struct workload wl_dlb = {
    .name = "dlb",
    .set = "inter",
    .desc = "octree partitioning with per-CTA non-blocking task deques and work stealing",
    .ptx = wl_ptx_dlb,
    .ptx_file = "workloads/dlb/dlb.ptx",
    .run = dlb_run,
    .variants = (const char *const[]){"nofence", NULL},
};
