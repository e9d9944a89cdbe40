/*
 * fdtd_2d.c - host driver of the fdtd-2d workload (order set, spec 001 §4):
 * Polybench-GPU's fdtd-2d, tmax time steps over nx x ny float grids ex
 * (nx x (ny + 1)), ey ((nx + 1) x ny) and hz (nx x ny), three launches per
 * step (fdtd_step1..3, one thread per point in 32 x 8 blocks). Inputs are
 * uniform floats in [0, 1) from the seed; fict[t] = t. The CPU reference
 * does the kernels' float operations in their order (ey = fmaf(hz - hz',
 * -0.5f, ey); hz = fmaf(((ex' - ex) + ey') - ey, -0.7f, hz), as nvcc
 * compiled them), so the check is exact.
 * Sizes (tmax x nx x ny): tiny 2 x 32 x 32, quick 4 x 128 x 128, small
 * 4 x 256 x 256, paper 10 x 1024 x 1024 (Polybench-GPU's standard dataset
 * is 500 steps over 2048 x 2048; scaled to a run of minutes).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/log.h"
#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_fdtd_2d[];

#define FDTD_BX 32u
#define FDTD_BY 8u

static float fdtd_unit(struct rng *r)
{
    return (float)rng_below(r, 1u << 24) / (float)(1u << 24);
}

static void fdtd_cpu(uint32_t tmax, uint32_t nx, uint32_t ny, const float *fict, float *ex,
                     float *ey, float *hz)
{
    for (uint32_t t = 0; t < tmax; t++) {
        for (uint32_t i = 0; i < nx; i++)
            for (uint32_t j = 0; j < ny; j++)
                ey[i * ny + j] =
                    i == 0 ? fict[t]
                           : fmaf(hz[i * ny + j] - hz[(i - 1) * ny + j], -0.5f, ey[i * ny + j]);
        for (uint32_t i = 0; i < nx; i++)
            for (uint32_t j = 1; j < ny; j++)
                ex[i * (ny + 1) + j] =
                    fmaf(hz[i * ny + j] - hz[i * ny + j - 1], -0.5f, ex[i * (ny + 1) + j]);
        for (uint32_t i = 0; i < nx; i++)
            for (uint32_t j = 0; j < ny; j++) {
                float d = ex[i * (ny + 1) + j + 1] - ex[i * (ny + 1) + j];
                d = d + ey[(i + 1) * ny + j];
                d = d - ey[i * ny + j];
                hz[i * ny + j] = fmaf(d, -0.7f, hz[i * ny + j]);
            }
    }
}

static int fdtd_2d_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    static const uint32_t steps[WL_NSIZES] = {2, 4, 4, 10};
    static const uint32_t sides[WL_NSIZES] = {32, 128, 256, 1024};
    uint32_t tmax = steps[p->size], nx = sides[p->size], ny = sides[p->size];
    size_t nex = (size_t)nx * (ny + 1), ney = (size_t)(nx + 1) * ny, nhz = (size_t)nx * ny;
    float *fict = malloc(tmax * sizeof(float)), *ex = malloc(nex * sizeof(float)),
          *ey = malloc(ney * sizeof(float)), *hz = malloc(nhz * sizeof(float)),
          *got = malloc(nhz * sizeof(float));
    panic_if(!fict || !ex || !ey || !hz || !got, "out of memory");
    struct rng r;
    rng_seed(&r, p->seed, 0x46445444); /* "FDTD" */
    for (uint32_t t = 0; t < tmax; t++)
        fict[t] = (float)t;
    for (size_t k = 0; k < nex; k++)
        ex[k] = fdtd_unit(&r);
    for (size_t k = 0; k < ney; k++)
        ey[k] = fdtd_unit(&r);
    for (size_t k = 0; k < nhz; k++)
        hz[k] = fdtd_unit(&r);

    host_load_ptx(h, wl_ptx_fdtd_2d, "workloads/fdtd_2d/fdtd_2d.ptx");
    addr_t dfict = host_malloc(h, tmax * sizeof(float)), dex = host_malloc(h, nex * sizeof(float)),
           dey = host_malloc(h, ney * sizeof(float)), dhz = host_malloc(h, nhz * sizeof(float));
    host_memcpy_to_dev(h, dfict, fict, tmax * sizeof(float));
    host_memcpy_to_dev(h, dex, ex, nex * sizeof(float));
    host_memcpy_to_dev(h, dey, ey, ney * sizeof(float));
    host_memcpy_to_dev(h, dhz, hz, nhz * sizeof(float));
    struct dim3 grid = {(ny + FDTD_BX - 1) / FDTD_BX, (nx + FDTD_BY - 1) / FDTD_BY, 1};
    struct dim3 block = {FDTD_BX, FDTD_BY, 1};
    for (uint32_t t = 0; t < tmax; t++) {
        struct karg a1[] = {KARG_I32(nx),  KARG_I32(ny),  KARG_PTR(dfict),
                            KARG_PTR(dey), KARG_PTR(dhz), KARG_I32(t)};
        host_launch(h, "fdtd_step1", grid, block, 0, a1, ARRAY_LEN(a1));
        struct karg a2[] = {KARG_I32(nx), KARG_I32(ny), KARG_PTR(dex), KARG_PTR(dhz)};
        host_launch(h, "fdtd_step2", grid, block, 0, a2, ARRAY_LEN(a2));
        struct karg a3[] = {KARG_I32(nx), KARG_I32(ny), KARG_PTR(dex), KARG_PTR(dey),
                            KARG_PTR(dhz)};
        host_launch(h, "fdtd_step3", grid, block, 0, a3, ARRAY_LEN(a3));
    }
    host_memcpy_from_dev(h, got, dhz, nhz * sizeof(float));

    fdtd_cpu(tmax, nx, ny, fict, ex, ey, hz);
    int rc = 0;
    for (size_t k = 0; k < nhz; k++)
        if (got[k] != hz[k]) {
            snprintf(why, why_len, "hz[%zu][%zu]: expected %.9g, got %.9g", k / ny, k % ny,
                     (double)hz[k], (double)got[k]);
            rc = 1;
            break;
        }
    host_free(h, dfict);
    host_free(h, dex);
    host_free(h, dey);
    host_free(h, dhz);
    free(fict);
    free(ex);
    free(ey);
    free(hz);
    free(got);
    return rc;
}

const struct workload wl_fdtd_2d = {
    .name = "fdtd-2d",
    .set = "order",
    .desc = "2-D FDTD stencil, three launches per time step, one thread per point "
            "(Polybench-GPU fdtd-2d; spec 001)",
    .ptx = wl_ptx_fdtd_2d,
    .ptx_file = "workloads/fdtd_2d/fdtd_2d.ptx",
    .run = fdtd_2d_run,
};
