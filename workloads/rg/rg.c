/*
 * rg.c - host driver of RG (Gaussian filter), intra-workgroup set of the
 * Temporal Coherence study (HPCA 2013, Table 3: "Gaussian Filter", CUDA SDK;
 * its Fig. 12(c) shows the invalidation traffic of inter-kernel sharing).
 *
 * A separable Gaussian blur of a width x height image as two kernels
 * (rg.cu): rows into a temporary image, then columns of that image into the
 * output, so the second kernel reads the first kernel's output. The SDK's
 * sample is a recursive (IIR) filter; this is the direct (FIR) form with the
 * same two-pass, inter-kernel structure. Pixels are random 8-bit values
 * scaled to [0, 1]; the 2R+1 weights are a normalised Gaussian with
 * sigma = R/2. The CPU reference accumulates the taps in the kernel's order
 * with fmaf; both passes are checked.
 * Sizes (R = 8, the SDK separable-convolution radius): tiny 64x48; quick
 * 256x256; paper 512x512 (the SDK sample's image size). CTAs are 32x8.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/log.h"
#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_rg[];

#define RG_RADIUS 8

struct rg_size {
    int width, height;
};
static const struct rg_size rg_sizes[WL_NSIZES] = {
    [WL_TINY] = {64, 48},
    [WL_QUICK] = {256, 256},
    [WL_SMALL] = {512, 512}, /* small is paper: larger than the L2 */
    [WL_PAPER] = {512, 512},
};

static void *rg_alloc(size_t n)
{
    void *p = calloc(1, n);
    if (!p)
        fatal("rg: out of host memory (%zu bytes)", n);
    return p;
}

/* One pass on the CPU along x (along_x) or y, borders clamped. */
static void rg_ref_pass(const float *in, float *out, const float *w, int width, int height,
                        int along_x)
{
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++) {
            float acc = 0.0f;
            for (int k = -RG_RADIUS; k <= RG_RADIUS; k++) {
                int xx = along_x ? MIN(MAX(x + k, 0), width - 1) : x;
                int yy = along_x ? y : MIN(MAX(y + k, 0), height - 1);
                acc = fmaf(w[k + RG_RADIUS], in[yy * width + xx], acc);
            }
            out[y * width + x] = acc;
        }
}

static int rg_compare(const float *want, const float *got, size_t n, int width, const char *what,
                      char *why, size_t why_len)
{
    for (size_t i = 0; i < n; i++) {
        if (!(fabsf(got[i] - want[i]) <= 1e-6f + 1e-5f * fabsf(want[i]))) {
            snprintf(why, why_len, "rg: %s[%zu][%zu] expected %.9g got %.9g", what,
                     i / (size_t)width, i % (size_t)width, (double)want[i], (double)got[i]);
            return 1;
        }
    }
    return 0;
}

static int rg_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    if (p->variant) {
        snprintf(why, why_len, "rg: unknown variant '%s' (none defined)", p->variant);
        return 1;
    }
    const struct rg_size *sz = &rg_sizes[p->size];
    int width = sz->width, height = sz->height;
    size_t pixels = (size_t)width * height, bytes = pixels * sizeof(float);

    float w[2 * RG_RADIUS + 1];
    double sigma = RG_RADIUS / 2.0, total = 0.0, g[2 * RG_RADIUS + 1];
    for (int k = -RG_RADIUS; k <= RG_RADIUS; k++)
        total += g[k + RG_RADIUS] = exp(-(double)(k * k) / (2.0 * sigma * sigma));
    for (int k = 0; k < 2 * RG_RADIUS + 1; k++)
        w[k] = (float)(g[k] / total);

    float *img = rg_alloc(bytes), *tmp = rg_alloc(bytes), *out = rg_alloc(bytes);
    float *got = rg_alloc(bytes);
    struct rng r;
    rng_seed(&r, p->seed, 0x5247); /* "RG" */
    for (size_t i = 0; i < pixels; i++)
        img[i] = (float)rng_below(&r, 256) / 255.0f;

    host_load_ptx(h, wl_ptx_rg, "workloads/rg/rg.ptx");
    addr_t d_img = host_malloc(h, bytes), d_tmp = host_malloc(h, bytes);
    addr_t d_out = host_malloc(h, bytes), d_w = host_malloc(h, sizeof w);
    host_memcpy_to_dev(h, d_img, img, bytes);
    host_memcpy_to_dev(h, d_w, w, sizeof w);
    struct dim3 block = DIM3(32, 8, 1);
    struct dim3 grid = DIM3((uint32_t)((width + 31) / 32), (uint32_t)((height + 7) / 8), 1);
    struct karg a1[] = {KARG_PTR(d_img), KARG_PTR(d_tmp),  KARG_PTR(d_w),
                        KARG_I32(width), KARG_I32(height), KARG_I32(RG_RADIUS)};
    host_launch(h, "rg_rows", grid, block, 0, a1, ARRAY_LEN(a1));
    struct karg a2[] = {KARG_PTR(d_tmp), KARG_PTR(d_out),  KARG_PTR(d_w),
                        KARG_I32(width), KARG_I32(height), KARG_I32(RG_RADIUS)};
    host_launch(h, "rg_cols", grid, block, 0, a2, ARRAY_LEN(a2));

    rg_ref_pass(img, tmp, w, width, height, 1);
    rg_ref_pass(tmp, out, w, width, height, 0);
    host_memcpy_from_dev(h, got, d_tmp, bytes);
    int rc = rg_compare(tmp, got, pixels, width, "rows", why, why_len);
    if (rc == 0) {
        host_memcpy_from_dev(h, got, d_out, bytes);
        rc = rg_compare(out, got, pixels, width, "out", why, why_len);
    }
    host_free(h, d_img);
    host_free(h, d_tmp);
    host_free(h, d_out);
    host_free(h, d_w);
    free(img);
    free(tmp);
    free(out);
    free(got);
    return rc;
}

const struct workload wl_rg = {
    .name = "rg",
    .set = "intra",
    .desc =
        "Gaussian filter: row pass then column pass, kernel 2 reads kernel 1's output (CUDA SDK)",
    .ptx = wl_ptx_rg,
    .ptx_file = "workloads/rg/rg.ptx",
    .run = rg_run,
};
