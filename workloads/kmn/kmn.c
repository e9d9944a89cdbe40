/*
 * kmn.c - host driver of KMN (k-means), intra-workgroup set of the Temporal
 * Coherence (HPCA 2013, Table 3) and RCC (Ren thesis, Table 3.4) studies.
 *
 * Lloyd's k-means on the GPU as Rodinia's kmeans splits it: the device
 * assigns every point to its nearest centre (kmn.cu, one launch per
 * iteration, re-reading the whole feature array), the host reads the
 * memberships back and recomputes the centres. Points are generated around
 * `nclusters` random centres; the first points are the initial centres.
 * Iterations stop when no membership changes or at the size's limit.
 * The CPU reference assigns the same points to the same centres with the
 * kernel's float operations (explicit fmaf), so memberships must match
 * exactly at every iteration; the transposed feature array is checked too.
 * Sizes: tiny 1024 points x 8 features, 4 clusters, <= 4 iterations; quick
 * 16384 x 16, 5, <= 4; small 65536 x 34, 5, <= 4; paper 494020 x 34, 5
 * clusters, <= 20 iterations (the shape of Rodinia's kdd_cup input with
 * synthetic values; the iteration cap is ours).
 * Variant `cmem`: the centres in constant memory (kmn_assign_cmem, written
 * with cudaMemcpyToSymbol before each launch), as Rodinia's kmeansPoint
 * keeps them; the default reads them from global memory.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_kmn[];

struct kmn_size {
    int npoints, nfeat, nclusters, max_iter;
};
static const struct kmn_size kmn_sizes[WL_NSIZES] = {
    [WL_TINY] = {1024, 8, 4, 4},
    [WL_QUICK] = {16384, 16, 5, 4},
    [WL_SMALL] = {65536, 34, 5, 4},
    [WL_PAPER] = {494020, 34, 5, 20},
};

static void *kmn_alloc(size_t n)
{
    void *p = calloc(1, n);
    if (!p)
        fatal("kmn: out of host memory (%zu bytes)", n);
    return p;
}

static float kmn_unit(struct rng *r)
{
    return (float)(rng_next(r) >> 40) * (1.0f / 16777216.0f);
}

/* Nearest centre of point p, in the kernel's operation order. */
static int kmn_nearest(const float *pts, const float *centres, int p, int nfeat, int nclusters)
{
    int best = 0;
    float best_dist = 3.0e38f;
    for (int c = 0; c < nclusters; c++) {
        float dist = 0.0f;
        for (int f = 0; f < nfeat; f++) {
            float d = pts[(size_t)p * nfeat + f] - centres[c * nfeat + f];
            dist = fmaf(d, d, dist);
        }
        if (dist < best_dist) {
            best_dist = dist;
            best = c;
        }
    }
    return best;
}

static int kmn_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    bool cmem = p->variant && !strcmp(p->variant, "cmem");
    if (p->variant && !cmem) {
        snprintf(why, why_len, "kmn: unknown variant '%s' (known: cmem)", p->variant);
        return 1;
    }
    const struct kmn_size *sz = &kmn_sizes[p->size];
    int np = sz->npoints, nf = sz->nfeat, nc = sz->nclusters;
    size_t fbytes = (size_t)np * nf * sizeof(float), mbytes = (size_t)np * sizeof(int);
    size_t cbytes = (size_t)nc * nf * sizeof(float);

    float *pts = kmn_alloc(fbytes), *feat = kmn_alloc(fbytes);
    float *centres = kmn_alloc(cbytes), *truth = kmn_alloc(cbytes);
    int *member = kmn_alloc(mbytes), *got = kmn_alloc(mbytes);
    double *sum = kmn_alloc((size_t)nc * nf * sizeof(double));
    int *count = kmn_alloc((size_t)nc * sizeof(int));
    struct rng r;
    rng_seed(&r, p->seed, 0x4b4d4e); /* "KMN" */
    for (int i = 0; i < nc * nf; i++)
        truth[i] = kmn_unit(&r);
    for (int i = 0; i < np; i++) {
        int c = (int)rng_below(&r, (uint64_t)nc);
        for (int f = 0; f < nf; f++)
            pts[(size_t)i * nf + f] = truth[c * nf + f] + 0.25f * (kmn_unit(&r) - 0.5f);
    }
    memcpy(centres, pts, cbytes);
    for (int i = 0; i < np; i++)
        member[i] = -1;

    host_load_ptx(h, wl_ptx_kmn, "workloads/kmn/kmn.ptx");
    addr_t d_pts = host_malloc(h, fbytes), d_feat = host_malloc(h, fbytes);
    addr_t d_centres = host_malloc(h, cbytes), d_member = host_malloc(h, mbytes);
    host_memcpy_to_dev(h, d_pts, pts, fbytes);
    struct dim3 grid = DIM1((uint32_t)((np + 255) / 256)), block = DIM1(256);
    struct karg ia[] = {KARG_PTR(d_pts), KARG_PTR(d_feat), KARG_I32(np), KARG_I32(nf)};
    host_launch(h, "kmn_invert", grid, block, 0, ia, ARRAY_LEN(ia));

    int rc = 0;
    for (int it = 0; it < sz->max_iter && rc == 0; it++) {
        if (cmem) {
            host_memcpy_to_symbol(h, "kmn_centres_c", 0, centres, cbytes);
            struct karg ca[] = {KARG_PTR(d_feat), KARG_PTR(d_member), KARG_I32(np), KARG_I32(nf),
                                KARG_I32(nc)};
            host_launch(h, "kmn_assign_cmem", grid, block, 0, ca, ARRAY_LEN(ca));
        } else {
            host_memcpy_to_dev(h, d_centres, centres, cbytes);
            struct karg aa[] = {KARG_PTR(d_feat), KARG_PTR(d_centres), KARG_PTR(d_member),
                                KARG_I32(np),     KARG_I32(nf),        KARG_I32(nc)};
            host_launch(h, "kmn_assign", grid, block, 0, aa, ARRAY_LEN(aa));
        }
        host_memcpy_from_dev(h, got, d_member, mbytes);

        int changed = 0;
        memset(sum, 0, (size_t)nc * nf * sizeof(double));
        memset(count, 0, (size_t)nc * sizeof(int));
        for (int i = 0; i < np && rc == 0; i++) {
            int want = kmn_nearest(pts, centres, i, nf, nc);
            if (got[i] != want) {
                snprintf(why, why_len, "kmn: iteration %d membership[%d] expected %d got %d", it, i,
                         want, got[i]);
                rc = 1;
            }
            changed += member[i] != want;
            member[i] = want;
            count[want]++;
            for (int f = 0; f < nf; f++)
                sum[want * nf + f] += pts[(size_t)i * nf + f];
        }
        if (rc != 0 || changed == 0)
            break;
        for (int c = 0; c < nc; c++)
            for (int f = 0; f < nf && count[c] > 0; f++)
                centres[c * nf + f] = (float)(sum[c * nf + f] / count[c]);
    }

    if (rc == 0) {
        host_memcpy_from_dev(h, feat, d_feat, fbytes);
        for (int f = 0; f < nf && rc == 0; f++) {
            for (int i = 0; i < np; i++) {
                float want = pts[(size_t)i * nf + f], g = feat[(size_t)f * np + i];
                if (memcmp(&want, &g, sizeof want) != 0) {
                    snprintf(why, why_len, "kmn: feature[%d][%d] expected %.9g got %.9g", f, i,
                             (double)want, (double)g);
                    rc = 1;
                    break;
                }
            }
        }
    }
    host_free(h, d_pts);
    host_free(h, d_feat);
    host_free(h, d_centres);
    host_free(h, d_member);
    free(pts);
    free(feat);
    free(centres);
    free(truth);
    free(member);
    free(got);
    free(sum);
    free(count);
    return rc;
}

const struct workload wl_kmn = {
    .name = "kmn",
    .set = "intra",
    .desc = "k-means: per-iteration nearest-centre kernel over a re-read feature array (Rodinia)",
    .ptx = wl_ptx_kmn,
    .ptx_file = "workloads/kmn/kmn.ptx",
    .run = kmn_run,
    .variants = (const char *const[]){"cmem", NULL},
};
