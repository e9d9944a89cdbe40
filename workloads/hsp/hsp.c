/*
 * hsp.c - host driver of HSP (HotSpot), intra-workgroup set of the Temporal
 * Coherence (HPCA 2013, Table 3) and RCC (Ren thesis, Table 3.4) studies.
 *
 * Transient thermal simulation of a chip on a rows x cols grid (after
 * Rodinia's hotspot): each launch advances `pyramid` time steps with
 * overlapping shared-memory tiles (hsp.cu). Temperature and power are
 * generated from the seed; the chip constants follow HotSpot's model. The
 * CPU reference runs the same Jacobi steps with the same float operations
 * (explicit fmaf), so the comparison tolerance only covers rounding of a
 * differently ordered fma, which nvcc does not do here.
 * Sizes: tiny 32x32, 4 steps; quick 192x192, 4 steps; paper 512x512, 2 steps,
 * pyramid 2 (Rodinia's default run). Variant "aligned": 36x8 CTAs whose
 * 32-wide output rows fill whole 128-byte lines (the RCC thesis widened hsp's
 * tiles to the block size to avoid false sharing); 8 rows, not 16, because
 * a CTA's registers are sized from the PTX's virtual registers (108 per
 * thread here) and 36x16 would not fit a 32 K-register SM.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_hsp[];

struct hsp_size {
    int rows, cols, steps;
};
static const struct hsp_size hsp_sizes[WL_NSIZES] = {
    [WL_TINY] = {32, 32, 4},
    [WL_QUICK] = {192, 192, 4},
    [WL_SMALL] = {512, 512, 2}, /* small is paper: larger than the L2 */
    [WL_PAPER] = {512, 512, 2},
};

/* HotSpot's chip model (SI units). */
#define CHIP_H       0.016
#define CHIP_W       0.016
#define T_CHIP       0.0005
#define FACTOR_CHIP  0.5
#define SPEC_HEAT_SI 1.75e6
#define K_SI         100.0
#define MAX_PD       3.0e6
#define PRECISION    0.001
#define AMB_TEMP     80.0f

struct hsp_coef {
    float sdc, rx1, ry1, rz1, amb;
};

static void *hsp_alloc(size_t n)
{
    void *p = calloc(1, n);
    if (!p)
        fatal("hsp: out of host memory (%zu bytes)", n);
    return p;
}

static float hsp_unit(struct rng *r)
{
    return (float)(rng_next(r) >> 40) * (1.0f / 16777216.0f);
}

/* One time step on the CPU, in the kernel's operation order. */
static void hsp_ref_step(const float *pw, const float *t, float *out, int rows, int cols,
                         const struct hsp_coef *k)
{
    for (int y = 0; y < rows; y++) {
        for (int x = 0; x < cols; x++) {
            int me = y * cols + x;
            float c = t[me];
            float n = t[y > 0 ? me - cols : me];
            float s = t[y < rows - 1 ? me + cols : me];
            float w = t[x > 0 ? me - 1 : me];
            float e = t[x < cols - 1 ? me + 1 : me];
            float vert = (n + s) - (c + c);
            float horz = (e + w) - (c + c);
            float d = fmaf(k->amb - c, k->rz1, fmaf(horz, k->rx1, fmaf(vert, k->ry1, pw[me])));
            out[me] = fmaf(k->sdc, d, c);
        }
    }
}

static int hsp_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    int bx = 16, by = 16, pyramid = 2;
    if (p->variant && strcmp(p->variant, "aligned") == 0) {
        bx = 36;
        by = 8;
    } else if (p->variant) {
        snprintf(why, why_len, "hsp: unknown variant '%s' (known: aligned)", p->variant);
        return 1;
    }
    const struct hsp_size *sz = &hsp_sizes[p->size];
    int rows = sz->rows, cols = sz->cols;
    size_t cells = (size_t)rows * cols, bytes = cells * sizeof(float);

    double gh = CHIP_H / rows, gw = CHIP_W / cols;
    double cap = FACTOR_CHIP * SPEC_HEAT_SI * T_CHIP * gw * gh;
    double rx = gw / (2.0 * K_SI * T_CHIP * gh);
    double ry = gh / (2.0 * K_SI * T_CHIP * gw);
    double rz = T_CHIP / (K_SI * gh * gw);
    double step = PRECISION / (MAX_PD / (FACTOR_CHIP * T_CHIP * SPEC_HEAT_SI));
    struct hsp_coef k = {(float)(step / cap), (float)(1.0 / rx), (float)(1.0 / ry),
                         (float)(1.0 / rz), AMB_TEMP};

    float *temp = hsp_alloc(bytes), *power = hsp_alloc(bytes);
    float *ref = hsp_alloc(bytes), *tmp = hsp_alloc(bytes), *got = hsp_alloc(bytes);
    struct rng r;
    rng_seed(&r, p->seed, 0x485350); /* "HSP" */
    for (size_t i = 0; i < cells; i++) {
        temp[i] = 323.0f + 20.0f * hsp_unit(&r);
        power[i] = 2.0e-3f * hsp_unit(&r);
    }

    host_load_ptx(h, wl_ptx_hsp, "workloads/hsp/hsp.ptx");
    addr_t d_power = host_malloc(h, bytes);
    addr_t d_t[2] = {host_malloc(h, bytes), host_malloc(h, bytes)};
    host_memcpy_to_dev(h, d_power, power, bytes);
    host_memcpy_to_dev(h, d_t[0], temp, bytes);

    int ox = bx - 2 * pyramid, oy = by - 2 * pyramid;
    struct dim3 grid = DIM3((uint32_t)((cols + ox - 1) / ox), (uint32_t)((rows + oy - 1) / oy), 1);
    int cur = 0;
    for (int t = 0; t < sz->steps; t += pyramid) {
        int iters = MIN(pyramid, sz->steps - t);
        struct karg a[] = {KARG_PTR(d_power), KARG_PTR(d_t[cur]), KARG_PTR(d_t[1 - cur]),
                           KARG_I32(cols),    KARG_I32(rows),     KARG_I32(pyramid),
                           KARG_I32(iters),   KARG_F32(k.sdc),    KARG_F32(k.rx1),
                           KARG_F32(k.ry1),   KARG_F32(k.rz1),    KARG_F32(k.amb)};
        host_launch(h, "hsp_step", grid, DIM3((uint32_t)bx, (uint32_t)by, 1),
                    (uint32_t)(3 * bx * by * sizeof(float)), a, ARRAY_LEN(a));
        cur = 1 - cur;
    }
    host_memcpy_from_dev(h, got, d_t[cur], bytes);

    memcpy(ref, temp, bytes);
    for (int t = 0; t < sz->steps; t++) {
        hsp_ref_step(power, ref, tmp, rows, cols, &k);
        float *x = ref;
        ref = tmp;
        tmp = x;
    }

    int rc = 0;
    for (size_t i = 0; i < cells && rc == 0; i++) {
        if (!(fabsf(got[i] - ref[i]) <= 1e-5f * fabsf(ref[i]))) {
            snprintf(why, why_len, "hsp: temp[%zu][%zu] expected %.9g got %.9g", i / (size_t)cols,
                     i % (size_t)cols, (double)ref[i], (double)got[i]);
            rc = 1;
        }
    }
    host_free(h, d_power);
    host_free(h, d_t[0]);
    host_free(h, d_t[1]);
    free(temp);
    free(power);
    free(ref);
    free(tmp);
    free(got);
    return rc;
}

const struct workload wl_hsp = {
    .name = "hsp",
    .set = "intra",
    .desc = "HotSpot: iterative 2D thermal stencil, pyramid-tiled in shared memory (Rodinia)",
    .ptx = wl_ptx_hsp,
    .ptx_file = "workloads/hsp/hsp.ptx",
    .run = hsp_run,
    .variants = (const char *const[]){"aligned", NULL},
};
