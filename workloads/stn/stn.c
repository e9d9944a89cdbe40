/*
 * stn.c - host driver of STN, the 3D 24-neighbour stencil in one persistent
 * kernel with a software global barrier between time steps (see stn.cu).
 *
 * Input: a random field in [-1, 1) from the seed, halo included (the halo is
 * constant boundary data). Reference: the same recurrence on the CPU in the
 * same summation order; floats are compared with a tolerance relative to the
 * field's magnitude, since nvcc contracts multiply-adds into FMAs.
 * Sizes (interior points, CTAs x threads, steps): tiny 16^3, 4x64, 4;
 * quick 40x40x32, 16x128, 4; paper 64^3, 16x128, 10 (the papers give no
 * grid size; this one is invented). The grid must be co-resident.
 * Variant "nofence": the barrier without its fences.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_stn[];
#define STN_R 4

struct stn_size {
    unsigned nx, ny, nz, ctas, threads, steps;
};
static const struct stn_size stn_sizes[WL_NSIZES] = {
    [WL_TINY] = {16, 16, 16, 4, 64, 4},
    [WL_QUICK] = {40, 40, 32, 16, 128, 4},
    [WL_SMALL] = {64, 64, 64, 16, 128, 10}, /* small is paper: larger than the L2 */
    [WL_PAPER] = {64, 64, 64, 16, 128, 10},
};
static const float stn_c[STN_R + 1] = {0.4f, 0.05f, 0.03f, 0.015f, 0.005f};

/* One time step on the CPU, same order of operations as the kernel. */
static void stn_ref_step(const float *in, float *out, unsigned nx, unsigned ny, unsigned nz)
{
    const size_t X = nx + 2 * STN_R, Y = ny + 2 * STN_R, XY = X * Y;
    for (unsigned z = 0; z < nz; z++)
        for (unsigned y = 0; y < ny; y++)
            for (unsigned x = 0; x < nx; x++) {
                size_t i = ((z + STN_R) * Y + (y + STN_R)) * X + (x + STN_R);
                float v = stn_c[0] * in[i];
                for (size_t k = 1; k <= STN_R; k++)
                    v += stn_c[k] * (in[i - k] + in[i + k] + in[i - k * X] + in[i + k * X] +
                                     in[i - k * XY] + in[i + k * XY]);
                out[i] = v;
            }
}

static int stn_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    bool nofence = false;
    if (p->variant && strcmp(p->variant, "nofence") == 0)
        nofence = true;
    else if (p->variant) {
        snprintf(why, why_len, "stn: unknown variant '%s' (known: nofence)", p->variant);
        return 1;
    }
    const struct stn_size *s = &stn_sizes[p->size];
    const size_t X = s->nx + 2 * STN_R, Y = s->ny + 2 * STN_R, Z = s->nz + 2 * STN_R;
    const size_t cells = X * Y * Z, bytes = cells * sizeof(float);

    float *a = malloc(bytes), *b = malloc(bytes), *got = malloc(bytes);
    if (!a || !b || !got) {
        free(a), free(b), free(got);
        snprintf(why, why_len, "stn: out of host memory");
        return 1;
    }
    struct rng r;
    rng_seed(&r, p->seed, 0x57a);
    for (size_t i = 0; i < cells; i++)
        a[i] = (float)((double)rng_below(&r, 1u << 24) / (double)(1u << 23) - 1.0);
    memcpy(b, a, bytes); /* the halo is the same in both buffers */

    host_load_ptx(h, wl_ptx_stn, "workloads/stn/stn.ptx");
    addr_t da = host_malloc(h, bytes), db = host_malloc(h, bytes);
    addr_t din = host_malloc(h, s->ctas * sizeof(uint32_t));
    addr_t dout = host_malloc(h, s->ctas * sizeof(uint32_t));
    host_memcpy_to_dev(h, da, a, bytes);
    host_memcpy_to_dev(h, db, b, bytes);
    host_memset(h, din, 0, s->ctas * sizeof(uint32_t));
    host_memset(h, dout, 0, s->ctas * sizeof(uint32_t));
    struct karg args[] = {
        KARG_PTR(da),       KARG_PTR(db),       KARG_U32(s->nx),    KARG_U32(s->ny),
        KARG_U32(s->nz),    KARG_U32(s->steps), KARG_PTR(din),      KARG_PTR(dout),
        KARG_F32(stn_c[0]), KARG_F32(stn_c[1]), KARG_F32(stn_c[2]), KARG_F32(stn_c[3]),
        KARG_F32(stn_c[4]),
    };
    host_launch(h, nofence ? "stn_run_nofence" : "stn_run", DIM1(s->ctas), DIM1(s->threads), 0,
                args, ARRAY_LEN(args));
    host_memcpy_from_dev(h, got, (s->steps & 1) ? db : da, bytes);

    for (unsigned t = 0; t < s->steps; t++) {
        if (t & 1)
            stn_ref_step(b, a, s->nx, s->ny, s->nz);
        else
            stn_ref_step(a, b, s->nx, s->ny, s->nz);
    }
    const float *want = (s->steps & 1) ? b : a;
    int rc = 0;
    for (size_t i = 0; i < cells && rc == 0; i++) {
        float tol = 1e-4f * (1.0f + fabsf(want[i]));
        if (!(fabsf(got[i] - want[i]) <= tol)) {
            size_t x = i % X, y = (i / X) % Y, z = i / (X * Y);
            snprintf(why, why_len, "stn: point (%zu,%zu,%zu) after %u steps is %g, expected %g", x,
                     y, z, s->steps, (double)got[i], (double)want[i]);
            rc = 1;
        }
    }
    free(a), free(b), free(got);
    return rc;
}

const struct workload wl_stn = {
    .name = "stn",
    .set = "inter",
    .desc = "3D 24-neighbour stencil, one persistent kernel, lock-free global barrier per step",
    .ptx = wl_ptx_stn,
    .ptx_file = "workloads/stn/stn.ptx",
    .run = stn_run,
    .variants = (const char *const[]){"nofence", NULL},
};
