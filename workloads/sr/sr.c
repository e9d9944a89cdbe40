/*
 * sr.c - host driver of SR (SRAD), intra-workgroup set of the Temporal
 * Coherence (HPCA 2013, Table 3: "Anisotropic Diffusion") and RCC (Ren
 * thesis, Table 3.4) studies.
 *
 * Speckle-reducing anisotropic diffusion of a rows x cols image (after
 * Rodinia's srad): every iteration the host reads the image back, computes
 * the speckle statistic q0^2 = var/mean^2 over a region of interest, and
 * launches two kernels (sr.cu): coefficients and derivatives, then the
 * update, which reads the first kernel's outputs. The image is exp() of
 * uniform noise, generated from the seed. The CPU reference repeats every
 * step with the kernels' float operations (explicit fmaf, IEEE division);
 * the image is compared at every iteration and at the end.
 * Sizes (lambda 0.5, 2 iterations): tiny 64x64, ROI 32x32; quick 256x256,
 * ROI 128x128; paper 2048x2048, ROI rows 0-127 and columns 0-127 (Rodinia's
 * default run). CTAs are 16x16.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/log.h"
#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_sr[];

#define SR_LAMBDA 0.5f
#define SR_ITERS  2

struct sr_size {
    int rows, cols, roi; /* roi: the region is rows and columns [0, roi) */
};
static const struct sr_size sr_sizes[WL_NSIZES] = {
    [WL_TINY] = {64, 64, 32},
    [WL_QUICK] = {256, 256, 128},
    [WL_SMALL] = {2048, 2048, 128}, /* small is paper: larger than the L2 */
    [WL_PAPER] = {2048, 2048, 128},
};

static void *sr_alloc(size_t n)
{
    void *p = calloc(1, n);
    if (!p)
        fatal("sr: out of host memory (%zu bytes)", n);
    return p;
}

static float sr_q0sqr(const float *J, int cols, int roi)
{
    double sum = 0.0, sum2 = 0.0;
    for (int y = 0; y < roi; y++)
        for (int x = 0; x < roi; x++) {
            double v = J[y * cols + x];
            sum += v;
            sum2 += v * v;
        }
    double n = (double)roi * roi, mean = sum / n, var = sum2 / n - mean * mean;
    return (float)(var / (mean * mean));
}

/* One iteration on the CPU, in the kernels' operation order. */
static void sr_ref_iter(float *J, float *C, float *dN, float *dS, float *dW, float *dE, int rows,
                        int cols, float q0sqr)
{
    for (int y = 0; y < rows; y++)
        for (int x = 0; x < cols; x++) {
            int p = y * cols + x;
            float jc = J[p];
            float dn = J[(y > 0 ? y - 1 : 0) * cols + x] - jc;
            float ds = J[(y < rows - 1 ? y + 1 : y) * cols + x] - jc;
            float dw = J[y * cols + (x > 0 ? x - 1 : 0)] - jc;
            float de = J[y * cols + (x < cols - 1 ? x + 1 : x)] - jc;
            float g2 = fmaf(de, de, fmaf(dw, dw, fmaf(ds, ds, dn * dn))) / (jc * jc);
            float l = (((dn + ds) + dw) + de) / jc;
            float num = fmaf(-0.0625f * l, l, 0.5f * g2);
            float den = fmaf(0.25f, l, 1.0f);
            float qsqr = num / (den * den);
            den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
            float c = 1.0f / (1.0f + den);
            C[p] = c < 0.0f ? 0.0f : (c > 1.0f ? 1.0f : c);
            dN[p] = dn;
            dS[p] = ds;
            dW[p] = dw;
            dE[p] = de;
        }
    for (int y = 0; y < rows; y++)
        for (int x = 0; x < cols; x++) {
            int p = y * cols + x;
            float cn = C[p];
            float cs = C[(y < rows - 1 ? y + 1 : y) * cols + x];
            float ce = C[y * cols + (x < cols - 1 ? x + 1 : x)];
            float d = fmaf(ce, dE[p], fmaf(cn, dW[p], fmaf(cs, dS[p], cn * dN[p])));
            J[p] = fmaf(0.25f * SR_LAMBDA, d, J[p]);
        }
}

static int sr_compare(const float *want, const float *got, size_t n, int cols, int iter, char *why,
                      size_t why_len)
{
    for (size_t i = 0; i < n; i++) {
        if (!(fabsf(got[i] - want[i]) <= 1e-5f * fabsf(want[i]))) {
            snprintf(why, why_len, "sr: after %d iterations J[%zu][%zu] expected %.9g got %.9g",
                     iter, i / (size_t)cols, i % (size_t)cols, (double)want[i], (double)got[i]);
            return 1;
        }
    }
    return 0;
}

static int sr_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    if (p->variant) {
        snprintf(why, why_len, "sr: unknown variant '%s' (none defined)", p->variant);
        return 1;
    }
    const struct sr_size *sz = &sr_sizes[p->size];
    int rows = sz->rows, cols = sz->cols;
    size_t pixels = (size_t)rows * cols, bytes = pixels * sizeof(float);

    float *J = sr_alloc(bytes), *got = sr_alloc(bytes), *C = sr_alloc(bytes);
    float *dN = sr_alloc(bytes), *dS = sr_alloc(bytes), *dW = sr_alloc(bytes);
    float *dE = sr_alloc(bytes);
    struct rng r;
    rng_seed(&r, p->seed, 0x5352); /* "SR" */
    for (size_t i = 0; i < pixels; i++)
        J[i] = expf((float)(rng_next(&r) >> 40) * (1.0f / 16777216.0f));

    host_load_ptx(h, wl_ptx_sr, "workloads/sr/sr.ptx");
    addr_t d_J = host_malloc(h, bytes), d_C = host_malloc(h, bytes);
    addr_t d_N = host_malloc(h, bytes), d_S = host_malloc(h, bytes);
    addr_t d_W = host_malloc(h, bytes), d_E = host_malloc(h, bytes);
    host_memcpy_to_dev(h, d_J, J, bytes);
    struct dim3 block = DIM3(16, 16, 1);
    struct dim3 grid = DIM3((uint32_t)((cols + 15) / 16), (uint32_t)((rows + 15) / 16), 1);

    int rc = 0;
    for (int it = 0; it <= SR_ITERS && rc == 0; it++) {
        host_memcpy_from_dev(h, got, d_J, bytes);
        rc = sr_compare(J, got, pixels, cols, it, why, why_len);
        if (rc != 0 || it == SR_ITERS)
            break;
        float q0sqr = sr_q0sqr(got, cols, sz->roi);
        struct karg a1[] = {KARG_PTR(d_J),  KARG_PTR(d_C),  KARG_PTR(d_N),
                            KARG_PTR(d_S),  KARG_PTR(d_W),  KARG_PTR(d_E),
                            KARG_I32(cols), KARG_I32(rows), KARG_F32(q0sqr)};
        host_launch(h, "sr_coeff", grid, block, 0, a1, ARRAY_LEN(a1));
        struct karg a2[] = {KARG_PTR(d_J),  KARG_PTR(d_C),  KARG_PTR(d_N),
                            KARG_PTR(d_S),  KARG_PTR(d_W),  KARG_PTR(d_E),
                            KARG_I32(cols), KARG_I32(rows), KARG_F32(SR_LAMBDA)};
        host_launch(h, "sr_update", grid, block, 0, a2, ARRAY_LEN(a2));
        sr_ref_iter(J, C, dN, dS, dW, dE, rows, cols, sr_q0sqr(J, cols, sz->roi));
    }
    host_free(h, d_J);
    host_free(h, d_C);
    host_free(h, d_N);
    host_free(h, d_S);
    host_free(h, d_W);
    host_free(h, d_E);
    free(J);
    free(got);
    free(C);
    free(dN);
    free(dS);
    free(dW);
    free(dE);
    return rc;
}

const struct workload wl_sr = {
    .name = "sr",
    .set = "intra",
    .desc = "SRAD: speckle-reducing diffusion, two kernels per iteration (Rodinia)",
    .ptx = wl_ptx_sr,
    .ptx_file = "workloads/sr/sr.ptx",
    .run = sr_run,
};
