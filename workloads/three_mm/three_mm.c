/*
 * three_mm.c - host driver of the 3mm workload (order set, spec 001 §4):
 * Polybench-GPU's 3mm, E = A * B, F = C * D, G = E * F over n x n floats,
 * three launches of mm3_kernel (one thread per output element, 32 x 8
 * blocks: up to 6 blocks per SM, the warp limit), each thread accumulating
 * into its element in memory once per k, as gemm does. Inputs are uniform
 * floats in [0, 1) from the seed. The CPU reference does the kernel's float
 * operations in its order (c = 0; then per k: c = fmaf(a, b, c), as nvcc
 * compiled it), so the check is exact.
 * Variant "hoisted": kernel mm3_kernel_hoisted, the same products and stores
 * with the loads of four iterations issued before their multiply-adds (as
 * gemm's variant of that name).
 * Sizes (n): tiny 32, quick 64, small 128, paper 256 (Polybench-GPU's
 * standard dataset is 512; a quarter of its footprint here, 6 matrices of
 * 256 KB).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_three_mm[];

#define MM3_BX 32u
#define MM3_BY 8u

static float mm3_unit(struct rng *r)
{
    return (float)rng_below(r, 1u << 24) / (float)(1u << 24);
}

/* out = x * y on the CPU, in the kernel's order. */
static void mm3_cpu(uint32_t n, const float *x, const float *y, float *out)
{
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < n; j++) {
            float c = 0;
            for (uint32_t k = 0; k < n; k++)
                c = fmaf(x[i * n + k], y[k * n + j], c);
            out[i * n + j] = c;
        }
}

static void mm3_launch(struct host *h, const char *kernel, uint32_t n, addr_t x, addr_t y,
                       addr_t out)
{
    struct karg args[] = {KARG_I32(n), KARG_I32(n), KARG_I32(n),
                          KARG_PTR(x), KARG_PTR(y), KARG_PTR(out)};
    struct dim3 grid = {(n + MM3_BX - 1) / MM3_BX, (n + MM3_BY - 1) / MM3_BY, 1};
    host_launch(h, kernel, grid, (struct dim3){MM3_BX, MM3_BY, 1}, 0, args, ARRAY_LEN(args));
}

static int three_mm_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    static const uint32_t sizes[WL_NSIZES] = {32, 64, 128, 256};
    const char *kernel = "mm3_kernel";
    if (p->variant && !strcmp(p->variant, "hoisted")) {
        kernel = "mm3_kernel_hoisted";
    } else if (p->variant) {
        snprintf(why, why_len, "unknown variant '%s' (hoisted)", p->variant);
        return 1;
    }
    uint32_t n = sizes[p->size];
    size_t cells = (size_t)n * n, bytes = cells * sizeof(float);
    float *m[7]; /* A B C D E F G; E F G are the CPU's */
    for (int i = 0; i < 7; i++) {
        m[i] = malloc(bytes);
        panic_if(!m[i], "out of memory");
    }
    float *got = malloc(bytes);
    panic_if(!got, "out of memory");
    struct rng r;
    rng_seed(&r, p->seed, 0x334d4d); /* "3MM" */
    for (int i = 0; i < 4; i++)
        for (size_t k = 0; k < cells; k++)
            m[i][k] = mm3_unit(&r);

    host_load_ptx(h, wl_ptx_three_mm, "workloads/three_mm/three_mm.ptx");
    addr_t d[7];
    for (int i = 0; i < 7; i++)
        d[i] = host_malloc(h, bytes);
    for (int i = 0; i < 4; i++)
        host_memcpy_to_dev(h, d[i], m[i], bytes);
    mm3_launch(h, kernel, n, d[0], d[1], d[4]);
    mm3_launch(h, kernel, n, d[2], d[3], d[5]);
    mm3_launch(h, kernel, n, d[4], d[5], d[6]);
    host_memcpy_from_dev(h, got, d[6], bytes);

    mm3_cpu(n, m[0], m[1], m[4]);
    mm3_cpu(n, m[2], m[3], m[5]);
    mm3_cpu(n, m[4], m[5], m[6]);
    int rc = 0;
    for (size_t k = 0; k < cells; k++)
        if (got[k] != m[6][k]) {
            snprintf(why, why_len, "g[%zu][%zu]: expected %.9g, got %.9g", k / n, k % n,
                     (double)m[6][k], (double)got[k]);
            rc = 1;
            break;
        }
    for (int i = 0; i < 7; i++) {
        host_free(h, d[i]);
        free(m[i]);
    }
    free(got);
    return rc;
}

const struct workload wl_three_mm = {
    .name = "3mm",
    .set = "order",
    .desc = "E = A*B, F = C*D, G = E*F, one thread per element accumulating in memory "
            "(Polybench-GPU 3mm; spec 001); variant hoisted (four k's loads first)",
    .ptx = wl_ptx_three_mm,
    .ptx_file = "workloads/three_mm/three_mm.ptx",
    .run = three_mm_run,
    .variants = (const char *const[]){"hoisted", NULL},
};
