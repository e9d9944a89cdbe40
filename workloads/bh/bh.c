/*
 * bh.c - host driver of BH, the Barnes-Hut octree build, summarisation and
 * force traversal (see bh.cu).
 *
 * Input (from the seed): bodies uniform in the unit cube on a 2^-20 grid, all
 * distinct (so splitting ends within 21 levels), masses in [0.5, 1.5); root
 * cell centre 0.5, half-size 0.5. The host prepares the root; the bounding
 * box is known, so the TC paper's bounding-box kernel is not run.
 * Check (insertion order is nondeterministic, the octree of a point set is
 * not): no cell overflow or stack overflow; walking the tree from the root
 * meets every body exactly once, no slot is still locked, every body and
 * cell lies in the octant of its parent it hangs from, and every allocated
 * cell is reached; the cell count equals a CPU build's; every cell's mass is
 * the sum of its children's and its centre their mass-weighted mean (float
 * tolerance); accelerations match a CPU traversal of the CPU tree within 1%.
 * Sizes (bodies, CTAs x threads): tiny 256, 4x64; quick 2048, 16x128; small 8192,
 * 16x128; paper
 * 30000 (the TC paper's input), 16x128. theta 0.5, softening 1e-4.
 * bh_summarize must have a co-resident grid. Variant "nofence": build and
 * summarisation without their publish/acquire fences.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_bh[];

struct bh_size {
    unsigned bodies, ctas, threads;
};
static const struct bh_size bh_sizes[WL_NSIZES] = {
    [WL_TINY] = {256, 4, 64},
    [WL_QUICK] = {2048, 16, 128},
    [WL_SMALL] = {8192, 16, 128},
    [WL_PAPER] = {30000, 16, 128},
};
#define BH_THETA2 0.25f
#define BH_EPS2   1e-4f
#define BH_STACK  192
enum { BH_BOTTOM, BH_ERROR, BH_NGLOB };

struct bh_tree {
    int nb, nn;              /* bodies, nodes (bodies + cell slots) */
    float *px, *py, *pz, *m; /* [nn] */
    int *child;              /* [(nn - nb) * 8] */
    int bottom;
};

static int bh_octant(float x, float y, float z, float cx, float cy, float cz)
{
    return (x >= cx) | (y >= cy) << 1 | (z >= cz) << 2;
}

/* Sequential insertion, the kernel's algorithm without the locks. */
static bool bh_ref_build(struct bh_tree *t)
{
    const int root = t->nn - 1;
    t->bottom = root;
    for (int k = 0; k < 8; k++)
        t->child[(root - t->nb) * 8 + k] = -1;
    for (int i = 0; i < t->nb; i++) {
        int n = root;
        float r = 0.5f, c[3] = {0.5f, 0.5f, 0.5f};
        for (;;) {
            int j = bh_octant(t->px[i], t->py[i], t->pz[i], c[0], c[1], c[2]);
            int *slot = &t->child[(n - t->nb) * 8 + j];
            if (*slot == -1) {
                *slot = i;
                break;
            }
            r *= 0.5f;
            for (int d = 0; d < 3; d++)
                c[d] += (j >> d & 1) ? r : -r;
            if (*slot < t->nb) { /* a body: put it in a new cell, go on */
                int b = *slot, cell = --t->bottom;
                if (cell < t->nb)
                    return false;
                for (int k = 0; k < 8; k++)
                    t->child[(cell - t->nb) * 8 + k] = -1;
                t->child[(cell - t->nb) * 8 +
                         bh_octant(t->px[b], t->py[b], t->pz[b], c[0], c[1], c[2])] = b;
                *slot = cell;
            }
            n = *slot;
        }
    }
    return true;
}

static void bh_ref_summarize(struct bh_tree *t)
{
    for (int k = t->bottom; k < t->nn; k++) {
        float m = 0.0f, sx = 0.0f, sy = 0.0f, sz = 0.0f;
        for (int o = 0; o < 8; o++) {
            int ch = t->child[(k - t->nb) * 8 + o];
            if (ch < 0)
                continue;
            m += t->m[ch];
            sx += t->m[ch] * t->px[ch], sy += t->m[ch] * t->py[ch], sz += t->m[ch] * t->pz[ch];
        }
        t->m[k] = m;
        t->px[k] = sx / m, t->py[k] = sy / m, t->pz[k] = sz / m;
    }
}

static void bh_ref_force(const struct bh_tree *t, int i, float a[3], int *stack)
{
    const float x = t->px[i], y = t->py[i], z = t->pz[i];
    int sp = 0;
    a[0] = a[1] = a[2] = 0.0f;
    stack[sp++] = (t->nn - 1) << 5;
    while (sp > 0) {
        int e = stack[--sp], n = e >> 5, d = e & 31;
        float dx = t->px[n] - x, dy = t->py[n] - y, dz = t->pz[n] - z;
        float d2 = dx * dx + dy * dy + dz * dz;
        bool far = n < t->nb;
        if (!far) {
            float side = 1.0f / (float)(1 << d);
            far = side * side < BH_THETA2 * d2;
        }
        if (far) {
            if (n != i) {
                float inv = 1.0f / sqrtf(d2 + BH_EPS2);
                float f = t->m[n] * inv * inv * inv;
                a[0] += dx * f, a[1] += dy * f, a[2] += dz * f;
            }
        } else {
            for (int o = 0; o < 8; o++) {
                int ch = t->child[(n - t->nb) * 8 + o];
                if (ch >= 0 && sp < BH_STACK)
                    stack[sp++] = ch << 5 | (d + 1);
            }
        }
    }
}

/* Walk the kernel's tree below cell n (centre c, half-size r); returns the
 * cells met, or -1 with why. */
static int bh_walk(const struct bh_tree *g, int n, const float c[3], float r, uint8_t *seen,
                   char *why, size_t why_len)
{
    int cells = 1;
    float m = 0.0f, sx = 0.0f, sy = 0.0f, sz = 0.0f;
    for (int o = 0; o < 8; o++) {
        int ch = g->child[(n - g->nb) * 8 + o];
        if (ch == -1)
            continue;
        if (ch < -1 || ch >= n || (ch >= g->nb && ch < g->bottom) || seen[ch]) {
            snprintf(why, why_len, "bh: cell %d slot %d holds %d (locked, stale or repeated)", n, o,
                     ch);
            return -1;
        }
        seen[ch] = 1;
        if (ch < g->nb) {
            if (bh_octant(g->px[ch], g->py[ch], g->pz[ch], c[0], c[1], c[2]) != o) {
                snprintf(why, why_len, "bh: body %d hangs from the wrong octant of cell %d", ch, n);
                return -1;
            }
        } else {
            float cc[3];
            for (int d = 0; d < 3; d++)
                cc[d] = c[d] + ((o >> d & 1) ? r * 0.5f : -r * 0.5f);
            int k = bh_walk(g, ch, cc, r * 0.5f, seen, why, why_len);
            if (k < 0)
                return -1;
            cells += k;
        }
        m += g->m[ch];
        sx += g->m[ch] * g->px[ch], sy += g->m[ch] * g->py[ch], sz += g->m[ch] * g->pz[ch];
    }
    if (!(fabsf(g->m[n] - m) <= 1e-4f * m) || !(fabsf(g->px[n] - sx / m) <= 1e-4f) ||
        !(fabsf(g->py[n] - sy / m) <= 1e-4f) || !(fabsf(g->pz[n] - sz / m) <= 1e-4f)) {
        snprintf(why, why_len,
                 "bh: cell %d has mass %g at (%g,%g,%g); its children give %g at "
                 "(%g,%g,%g)",
                 n, (double)g->m[n], (double)g->px[n], (double)g->py[n], (double)g->pz[n],
                 (double)m, (double)(sx / m), (double)(sy / m), (double)(sz / m));
        return -1;
    }
    return cells;
}

static bool bh_alloc(struct bh_tree *t, int nb)
{
    t->nb = nb;
    t->nn = 2 * nb + 64;
    t->px = malloc(t->nn * sizeof(float)), t->py = malloc(t->nn * sizeof(float));
    t->pz = malloc(t->nn * sizeof(float)), t->m = malloc(t->nn * sizeof(float));
    t->child = malloc((size_t)(t->nn - nb) * 8 * sizeof(int));
    return t->px && t->py && t->pz && t->m && t->child;
}

static void bh_free(struct bh_tree *t)
{
    free(t->px), free(t->py), free(t->pz), free(t->m), free(t->child);
}

static int bh_compare(const struct bh_tree *ref, struct bh_tree *g, const int32_t *glob,
                      const float *acc, int *stack, char *why, size_t why_len)
{
    const int nb = g->nb;
    if (glob[BH_ERROR]) {
        snprintf(why, why_len, "bh: %s",
                 glob[BH_ERROR] == 1 ? "ran out of cells" : "traversal stack overflow");
        return 1;
    }
    g->bottom = glob[BH_BOTTOM];
    uint8_t *seen = calloc((size_t)g->nn, 1);
    if (!seen) {
        snprintf(why, why_len, "bh: out of host memory");
        return 1;
    }
    const float c[3] = {0.5f, 0.5f, 0.5f};
    int cells = bh_walk(g, g->nn - 1, c, 0.5f, seen, why, why_len);
    int rc = cells < 0;
    for (int i = 0; i < nb && !rc; i++)
        if (!seen[i]) {
            snprintf(why, why_len, "bh: body %d is not in the tree", i);
            rc = 1;
        }
    if (!rc && (cells != g->nn - g->bottom || cells != ref->nn - ref->bottom)) {
        snprintf(why, why_len, "bh: %d cells reached of %d allocated; the octree has %d", cells,
                 g->nn - g->bottom, ref->nn - ref->bottom);
        rc = 1;
    }
    double mean = 0.0;
    float want[3];
    for (int i = 0; i < nb && !rc; i++) {
        bh_ref_force(ref, i, want, stack);
        mean += sqrt((double)want[0] * want[0] + (double)want[1] * want[1] +
                     (double)want[2] * want[2]) /
                nb;
    }
    for (int i = 0; i < nb && !rc; i++) {
        bh_ref_force(ref, i, want, stack);
        double norm =
            sqrt((double)want[0] * want[0] + (double)want[1] * want[1] + (double)want[2] * want[2]);
        double err = sqrt(pow(acc[3 * i] - want[0], 2) + pow(acc[3 * i + 1] - want[1], 2) +
                          pow(acc[3 * i + 2] - want[2], 2));
        if (!(err <= 1e-2 * norm + 1e-3 * mean)) {
            snprintf(why, why_len, "bh: body %d acceleration (%g,%g,%g), expected (%g,%g,%g)", i,
                     (double)acc[3 * i], (double)acc[3 * i + 1], (double)acc[3 * i + 2],
                     (double)want[0], (double)want[1], (double)want[2]);
            rc = 1;
        }
    }
    free(seen);
    return rc;
}

static int bh_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    bool nofence = false;
    if (p->variant && strcmp(p->variant, "nofence") == 0)
        nofence = true;
    else if (p->variant) {
        snprintf(why, why_len, "bh: unknown variant '%s' (known: nofence)", p->variant);
        return 1;
    }
    const struct bh_size *s = &bh_sizes[p->size];
    const int nb = (int)s->bodies;
    struct bh_tree ref = {0}, g = {0};
    float *acc = malloc(3 * (size_t)nb * sizeof(float)), *tmp = malloc((size_t)nb * sizeof(float));
    int *stack = malloc(BH_STACK * sizeof(int));
    int rc = 1;
    if (!bh_alloc(&ref, nb) || !bh_alloc(&g, nb) || !acc || !tmp || !stack) {
        snprintf(why, why_len, "bh: out of host memory");
        goto done;
    }
    struct rng r;
    rng_seed(&r, p->seed, 0xb4);
    for (int i = 0; i < nb; i++) {
        bool dup;
        do { /* distinct points: the tree then splits every pair */
            ref.px[i] = (float)rng_below(&r, 1u << 20) / (1u << 20);
            ref.py[i] = (float)rng_below(&r, 1u << 20) / (1u << 20);
            ref.pz[i] = (float)rng_below(&r, 1u << 20) / (1u << 20);
            dup = false;
            for (int k = 0; k < i && !dup; k++)
                dup = ref.px[k] == ref.px[i] && ref.py[k] == ref.py[i] && ref.pz[k] == ref.pz[i];
        } while (dup);
        ref.m[i] = 0.5f + (float)rng_below(&r, 1u << 20) / (1u << 20);
    }
    if (!bh_ref_build(&ref)) {
        snprintf(why, why_len, "bh: the reference ran out of cells");
        goto done;
    }
    bh_ref_summarize(&ref);

    host_load_ptx(h, wl_ptx_bh, "workloads/bh/bh.ptx");
    const size_t fb = (size_t)g.nn * sizeof(float), cb = (size_t)(g.nn - nb) * 8 * sizeof(int);
    addr_t dpx = host_malloc(h, fb), dpy = host_malloc(h, fb), dpz = host_malloc(h, fb);
    addr_t dm = host_malloc(h, fb), dchild = host_malloc(h, cb);
    addr_t dglob = host_malloc(h, BH_NGLOB * sizeof(int32_t));
    addr_t dax = host_malloc(h, nb * sizeof(float)), day = host_malloc(h, nb * sizeof(float));
    addr_t daz = host_malloc(h, nb * sizeof(float));
    const int root = g.nn - 1;
    memcpy(g.px, ref.px, nb * sizeof(float)), memcpy(g.py, ref.py, nb * sizeof(float));
    memcpy(g.pz, ref.pz, nb * sizeof(float)), memcpy(g.m, ref.m, nb * sizeof(float));
    for (int k = nb; k < g.nn; k++)
        g.px[k] = g.py[k] = g.pz[k] = 0.5f, g.m[k] = -1.0f;
    memset(g.child, 0xff, cb); /* every slot -1 */
    host_memcpy_to_dev(h, dpx, g.px, fb), host_memcpy_to_dev(h, dpy, g.py, fb);
    host_memcpy_to_dev(h, dpz, g.pz, fb), host_memcpy_to_dev(h, dm, g.m, fb);
    host_memcpy_to_dev(h, dchild, g.child, cb);
    int32_t glob[BH_NGLOB] = {[BH_BOTTOM] = root};
    host_memcpy_to_dev(h, dglob, glob, sizeof(glob));

    const struct dim3 grid = DIM1(s->ctas), block = DIM1(s->threads);
    struct karg build[] = {KARG_PTR(dpx),    KARG_PTR(dpy),   KARG_PTR(dpz),  KARG_PTR(dm),
                           KARG_PTR(dchild), KARG_PTR(dglob), KARG_I32(nb),   KARG_I32(g.nn),
                           KARG_F32(0.5f),   KARG_F32(0.5f),  KARG_F32(0.5f), KARG_F32(0.5f)};
    host_launch(h, nofence ? "bh_build_nofence" : "bh_build", grid, block, 0, build,
                ARRAY_LEN(build));
    struct karg sum[] = {KARG_PTR(dpx),    KARG_PTR(dpy),   KARG_PTR(dpz), KARG_PTR(dm),
                         KARG_PTR(dchild), KARG_PTR(dglob), KARG_I32(nb),  KARG_I32(g.nn)};
    host_launch(h, nofence ? "bh_summarize_nofence" : "bh_summarize", grid, block, 0, sum,
                ARRAY_LEN(sum));
    struct karg force[] = {KARG_PTR(dpx),       KARG_PTR(dpy),    KARG_PTR(dpz),  KARG_PTR(dm),
                           KARG_PTR(dchild),    KARG_PTR(dglob),  KARG_PTR(dax),  KARG_PTR(day),
                           KARG_PTR(daz),       KARG_I32(nb),     KARG_I32(g.nn), KARG_F32(1.0f),
                           KARG_F32(BH_THETA2), KARG_F32(BH_EPS2)};
    host_launch(h, "bh_force", grid, block, 0, force, ARRAY_LEN(force));

    host_memcpy_from_dev(h, glob, dglob, sizeof(glob));
    host_memcpy_from_dev(h, g.px, dpx, fb), host_memcpy_from_dev(h, g.py, dpy, fb);
    host_memcpy_from_dev(h, g.pz, dpz, fb), host_memcpy_from_dev(h, g.m, dm, fb);
    host_memcpy_from_dev(h, g.child, dchild, cb);
    for (int d = 0; d < 3; d++) {
        host_memcpy_from_dev(h, tmp, d == 0 ? dax : d == 1 ? day : daz, nb * sizeof(float));
        for (int i = 0; i < nb; i++)
            acc[3 * i + d] = tmp[i];
    }
    rc = bh_compare(&ref, &g, glob, acc, stack, why, why_len);
done:
    bh_free(&ref), bh_free(&g), free(acc), free(tmp), free(stack);
    return rc;
}

const struct workload wl_bh = {
    .name = "bh",
    .set = "inter",
    .desc = "Barnes-Hut octree build with CAS-locked slots, flag-waiting summary, force walk",
    .ptx = wl_ptx_bh,
    .ptx_file = "workloads/bh/bh.ptx",
    .run = bh_run,
    .variants = (const char *const[]){"nofence", NULL},
};
