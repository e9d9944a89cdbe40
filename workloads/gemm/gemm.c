/*
 * gemm.c - host driver of the gemm workload (order set, spec 001 §4):
 * Polybench-GPU's GEMM, C = alpha * A * B + beta * C over n x n floats, one
 * thread per element of C in 32 x 4 thread blocks, so up to 8 blocks are
 * resident per SM (the paper's "8 TBs/SM", its high-miss-rate case).
 * Variant "1tb": the same kernel launched with 40 KB of dynamic shared memory
 * it does not use, which leaves room for one block per SM (48 KB): the
 * paper's "1 TB/SM" case.
 * Variant "hoisted": kernel gemm_hoisted, the same products and stores with the
 * loads of four iterations issued before their multiply-adds, so a warp has
 * eight loads in flight where gemm has two (the intra-thread memory-level
 * parallelism that the paper credits RMO with on gemm, spec 001 §6.1).
 * Inputs are uniform floats in [0, 1) from the seed, alpha 1.5, beta 1.2.
 * The CPU reference does the kernel's float operations in its order
 * (c *= beta; then per k: c = fmaf(a * alpha, b, c), as nvcc compiled it), so
 * the check is exact.
 * Sizes: tiny 32, quick 128, small 256, paper 512 (NI = NJ = NK; the paper's
 * NK = 512, spec 001 §5).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_gemm[];

#define GEMM_BX        32u
#define GEMM_BY        4u
#define GEMM_1TB_SHMEM 40960u

static float gemm_unit(struct rng *r)
{
    return (float)rng_below(r, 1u << 24) / (float)(1u << 24);
}

static int gemm_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    static const uint32_t sizes[WL_NSIZES] = {32, 128, 256, 512};
    uint32_t shmem = 0;
    const char *kernel = "gemm";
    if (p->variant && !strcmp(p->variant, "1tb")) {
        shmem = GEMM_1TB_SHMEM;
    } else if (p->variant && !strcmp(p->variant, "hoisted")) {
        kernel = "gemm_hoisted";
    } else if (p->variant) {
        snprintf(why, why_len, "unknown variant '%s' (1tb, hoisted)", p->variant);
        return 1;
    }
    uint32_t n = sizes[p->size];
    size_t bytes = (size_t)n * n * sizeof(float);
    float *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes), *got = malloc(bytes);
    panic_if(!a || !b || !c || !got, "out of memory");
    struct rng r;
    rng_seed(&r, p->seed, 0x47454d4d); /* "GEMM" */
    for (size_t i = 0; i < (size_t)n * n; i++) {
        a[i] = gemm_unit(&r);
        b[i] = gemm_unit(&r);
        c[i] = gemm_unit(&r);
    }
    const float alpha = 1.5f, beta = 1.2f;

    host_load_ptx(h, wl_ptx_gemm, "workloads/gemm/gemm.ptx");
    addr_t da = host_malloc(h, bytes), db = host_malloc(h, bytes), dc = host_malloc(h, bytes);
    host_memcpy_to_dev(h, da, a, bytes);
    host_memcpy_to_dev(h, db, b, bytes);
    host_memcpy_to_dev(h, dc, c, bytes);
    struct karg args[] = {KARG_I32(n),    KARG_I32(n),  KARG_I32(n),  KARG_F32(alpha),
                          KARG_F32(beta), KARG_PTR(da), KARG_PTR(db), KARG_PTR(dc)};
    struct dim3 grid = {(n + GEMM_BX - 1) / GEMM_BX, (n + GEMM_BY - 1) / GEMM_BY, 1};
    host_launch(h, kernel, grid, (struct dim3){GEMM_BX, GEMM_BY, 1}, shmem, args, ARRAY_LEN(args));
    host_memcpy_from_dev(h, got, dc, bytes);

    int rc = 0;
    for (uint32_t i = 0; i < n && !rc; i++)
        for (uint32_t j = 0; j < n; j++) {
            float want = c[i * n + j] * beta;
            for (uint32_t k = 0; k < n; k++)
                want = fmaf(a[i * n + k] * alpha, b[k * n + j], want);
            if (got[i * n + j] != want) {
                snprintf(why, why_len, "c[%u][%u]: expected %.9g, got %.9g", i, j, (double)want,
                         (double)got[i * n + j]);
                rc = 1;
                break;
            }
        }
    host_free(h, da);
    host_free(h, db);
    host_free(h, dc);
    free(a);
    free(b);
    free(c);
    free(got);
    return rc;
}

const struct workload wl_gemm = {
    .name = "gemm",
    .set = "order",
    .desc = "C = alpha*A*B + beta*C, one thread per element, 8 blocks per SM (Polybench-GPU "
            "gemm; spec 001); variants 1tb (one block per SM), hoisted (four k's loads first)",
    .ptx = wl_ptx_gemm,
    .ptx_file = "workloads/gemm/gemm.ptx",
    .run = gemm_run,
    .variants = (const char *const[]){"1tb", "hoisted", NULL},
};
