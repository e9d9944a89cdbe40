/*
 * lps.c - host driver of LPS (3D Laplace solver), intra-workgroup set of the
 * Temporal Coherence (HPCA 2013, Table 3) and RCC (Ren thesis, Table 3.4)
 * studies, from the GPGPU-Sim ISPASS'09 benchmark set.
 *
 * Jacobi iterations of the 7-point Laplace stencil on an nx x ny x nz grid
 * with fixed (Dirichlet) boundary values: one launch per sweep (lps.cu), the
 * host swapping the input and output arrays in between, so every launch
 * reads what the previous one wrote. The grid is filled from the seed. The
 * CPU reference sums the six neighbours in the kernel's order.
 * Sizes: tiny 40x12x16, 4 sweeps (a partial CTA in x); quick 64x64x48, 4
 * sweeps; paper 100x100x100, 10 sweeps (the papers give no size; this is our
 * choice for the original's grid). CTAs are 32x4 threads.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_lps[];

struct lps_size {
    int nx, ny, nz, sweeps;
};
static const struct lps_size lps_sizes[WL_NSIZES] = {
    [WL_TINY] = {40, 12, 16, 4},
    [WL_QUICK] = {64, 64, 48, 4},
    [WL_SMALL] = {100, 100, 100, 10}, /* small is paper: larger than the L2 */
    [WL_PAPER] = {100, 100, 100, 10},
};

static void *lps_alloc(size_t n)
{
    void *p = calloc(1, n);
    if (!p)
        fatal("lps: out of host memory (%zu bytes)", n);
    return p;
}

static void lps_ref_sweep(const float *u1, float *u2, int nx, int ny, int nz)
{
    const float sixth = 1.0f / 6.0f;
    size_t plane = (size_t)nx * ny;
    for (int k = 0; k < nz; k++) {
        for (int j = 0; j < ny; j++) {
            for (int i = 0; i < nx; i++) {
                size_t idx = k * plane + (size_t)j * nx + i;
                if (i == 0 || i == nx - 1 || j == 0 || j == ny - 1 || k == 0 || k == nz - 1) {
                    u2[idx] = u1[idx];
                    continue;
                }
                float sum = u1[idx - 1] + u1[idx + 1];
                sum = sum + u1[idx - nx];
                sum = sum + u1[idx + nx];
                sum = sum + u1[idx - plane];
                sum = sum + u1[idx + plane];
                u2[idx] = sum * sixth;
            }
        }
    }
}

static int lps_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    if (p->variant) {
        snprintf(why, why_len, "lps: unknown variant '%s' (none defined)", p->variant);
        return 1;
    }
    const struct lps_size *sz = &lps_sizes[p->size];
    int nx = sz->nx, ny = sz->ny, nz = sz->nz;
    size_t cells = (size_t)nx * ny * nz, bytes = cells * sizeof(float);

    float *ref = lps_alloc(bytes), *tmp = lps_alloc(bytes), *got = lps_alloc(bytes);
    struct rng r;
    rng_seed(&r, p->seed, 0x4c5053); /* "LPS" */
    for (size_t i = 0; i < cells; i++)
        ref[i] = (float)(rng_next(&r) >> 40) * (1.0f / 16777216.0f);

    host_load_ptx(h, wl_ptx_lps, "workloads/lps/lps.ptx");
    addr_t d_u[2] = {host_malloc(h, bytes), host_malloc(h, bytes)};
    host_memcpy_to_dev(h, d_u[0], ref, bytes);
    struct dim3 block = DIM3(32, 4, 1);
    struct dim3 grid = DIM3((uint32_t)((nx + 31) / 32), (uint32_t)((ny + 3) / 4), 1);
    int cur = 0;
    for (int s = 0; s < sz->sweeps; s++) {
        struct karg a[] = {KARG_PTR(d_u[cur]), KARG_PTR(d_u[1 - cur]), KARG_I32(nx), KARG_I32(ny),
                           KARG_I32(nz)};
        host_launch(h, "lps_sweep", grid, block, 0, a, ARRAY_LEN(a));
        cur = 1 - cur;
    }
    host_memcpy_from_dev(h, got, d_u[cur], bytes);

    for (int s = 0; s < sz->sweeps; s++) {
        lps_ref_sweep(ref, tmp, nx, ny, nz);
        float *x = ref;
        ref = tmp;
        tmp = x;
    }
    int rc = 0;
    for (size_t i = 0; i < cells && rc == 0; i++) {
        if (!(fabsf(got[i] - ref[i]) <= 1e-6f + 1e-5f * fabsf(ref[i]))) {
            size_t plane = (size_t)nx * ny;
            snprintf(why, why_len, "lps: u[%zu][%zu][%zu] (z,y,x) expected %.9g got %.9g",
                     i / plane, i % plane / (size_t)nx, i % (size_t)nx, (double)ref[i],
                     (double)got[i]);
            rc = 1;
        }
    }
    host_free(h, d_u[0]);
    host_free(h, d_u[1]);
    free(ref);
    free(tmp);
    free(got);
    return rc;
}

const struct workload wl_lps = {
    .name = "lps",
    .set = "intra",
    .desc = "3D Laplace solver: 7-point Jacobi sweeps, shared-memory planes (GPGPU-Sim ISPASS'09)",
    .ptx = wl_ptx_lps,
    .ptx_file = "workloads/lps/lps.ptx",
    .run = lps_run,
};
