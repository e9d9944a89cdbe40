/*
 * mvt.c - host driver of the mvt workload (order set, spec 001 §4):
 * Polybench-GPU's mvt, x1 += A * y1 (mvt_kernel1, rows of A) and
 * x2 += A^T * y2 (mvt_kernel2, columns of A) over an n x n float matrix,
 * one thread per output element in blocks of 256, each accumulating into
 * its element in memory once per j. Inputs are uniform floats in [0, 1)
 * from the seed. The CPU reference does the kernels' float operations in
 * their order (x = fmaf(a, y, x) per j), so the check is exact.
 * Variant "hoisted": kernels mvt_kernel1_hoisted and mvt_kernel2_hoisted, the
 * same products and stores with the loads of four iterations issued before
 * their multiply-adds (as gemm's variant of that name).
 * Sizes (n): tiny 64, quick 512, small 1024, paper 2048 (Polybench-GPU's
 * standard dataset is 4096; a quarter of its footprint here, 16 MB of A).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_mvt[];

#define MVT_BLOCK 256u

static float mvt_unit(struct rng *r)
{
    return (float)rng_below(r, 1u << 24) / (float)(1u << 24);
}

static int mvt_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    static const uint32_t sizes[WL_NSIZES] = {64, 512, 1024, 2048};
    bool hoisted = p->variant && !strcmp(p->variant, "hoisted");
    if (p->variant && !hoisted) {
        snprintf(why, why_len, "unknown variant '%s' (hoisted)", p->variant);
        return 1;
    }
    uint32_t n = sizes[p->size];
    size_t abytes = (size_t)n * n * sizeof(float), vbytes = n * sizeof(float);
    float *a = malloc(abytes), *v[4], *got = malloc(vbytes); /* x1 x2 y1 y2 */
    panic_if(!a || !got, "out of memory");
    struct rng r;
    rng_seed(&r, p->seed, 0x4d5654); /* "MVT" */
    for (size_t k = 0; k < (size_t)n * n; k++)
        a[k] = mvt_unit(&r);
    for (int i = 0; i < 4; i++) {
        v[i] = malloc(vbytes);
        panic_if(!v[i], "out of memory");
        for (uint32_t k = 0; k < n; k++)
            v[i][k] = mvt_unit(&r);
    }

    host_load_ptx(h, wl_ptx_mvt, "workloads/mvt/mvt.ptx");
    addr_t da = host_malloc(h, abytes), dv[4];
    host_memcpy_to_dev(h, da, a, abytes);
    for (int i = 0; i < 4; i++) {
        dv[i] = host_malloc(h, vbytes);
        host_memcpy_to_dev(h, dv[i], v[i], vbytes);
    }
    struct dim3 grid = {(n + MVT_BLOCK - 1) / MVT_BLOCK, 1, 1}, block = {MVT_BLOCK, 1, 1};
    struct karg a1[] = {KARG_I32(n), KARG_PTR(da), KARG_PTR(dv[0]), KARG_PTR(dv[2])};
    host_launch(h, hoisted ? "mvt_kernel1_hoisted" : "mvt_kernel1", grid, block, 0, a1,
                ARRAY_LEN(a1));
    struct karg a2[] = {KARG_I32(n), KARG_PTR(da), KARG_PTR(dv[1]), KARG_PTR(dv[3])};
    host_launch(h, hoisted ? "mvt_kernel2_hoisted" : "mvt_kernel2", grid, block, 0, a2,
                ARRAY_LEN(a2));

    int rc = 0;
    for (int x = 0; x < 2 && !rc; x++) {
        host_memcpy_from_dev(h, got, dv[x], vbytes);
        for (uint32_t i = 0; i < n; i++) {
            float want = v[x][i];
            for (uint32_t j = 0; j < n; j++)
                want =
                    fmaf(x == 0 ? a[(size_t)i * n + j] : a[(size_t)j * n + i], v[2 + x][j], want);
            if (got[i] != want) {
                snprintf(why, why_len, "x%d[%u]: expected %.9g, got %.9g", x + 1, i, (double)want,
                         (double)got[i]);
                rc = 1;
                break;
            }
        }
    }
    host_free(h, da);
    for (int i = 0; i < 4; i++) {
        host_free(h, dv[i]);
        free(v[i]);
    }
    free(a);
    free(got);
    return rc;
}

const struct workload wl_mvt = {
    .name = "mvt",
    .set = "order",
    .desc = "x1 += A*y1 and x2 += A^T*y2, one thread per element accumulating in memory "
            "(Polybench-GPU mvt; spec 001); variant hoisted (four j's loads first)",
    .ptx = wl_ptx_mvt,
    .ptx_file = "workloads/mvt/mvt.ptx",
    .run = mvt_run,
    .variants = (const char *const[]){"hoisted", NULL},
};
