/*
 * lulesh.c - host driver of the lulesh-shaped workload (set stc): `steps`
 * time steps of two short kernels (lulesh_force, lulesh_update) over `ne`
 * hexahedral elements of a structured mesh numbered as an unstructured one
 * (connectivity array), 128-thread CTAs.
 *
 * Stands for LULESH (AMD Compute Apps), which spec 000 runs as 3,380 kernel
 * launches with read data reused across kernels; the real kernels and
 * inputs are not given (spec 000 §4), so this keeps the shape: many short
 * kernels, read-only node coordinates, connectivity and masses re-read by
 * every launch (they fit in the L1s), and per-kernel output arrays.
 * Sizes: tiny 512 elements x 8 steps, quick 4096 x 100, small 4096 x 400,
 * paper 4096 x 1690 (3,380 kernels). Check: the CPU runs the same steps
 * (floats, 1e-4 relative).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/log.h"
#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_lulesh[];

#define LU_THREADS 128u

static int lulesh_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    static const uint32_t elems[WL_NSIZES] = {512, 4096, 4096, 4096};
    static const uint32_t steps[WL_NSIZES] = {8, 100, 400, 1690};
    if (p->variant) {
        snprintf(why, why_len, "unknown variant '%s'", p->variant);
        return 1;
    }
    uint32_t ne = elems[p->size], nsteps = steps[p->size];
    uint32_t side = 1; /* elements on a cube's side: ne = side^3 rounded up */
    while (side * side * side < ne)
        side++;
    uint32_t nn = (side + 1) * (side + 1) * (side + 1);
    float *x = malloc(nn * sizeof *x), *m = malloc(ne * sizeof *m), *v = calloc(ne, sizeof *v);
    float *f = malloc(ne * sizeof *f), *out = malloc(ne * sizeof *out);
    int32_t *conn = malloc(8u * ne * sizeof *conn);
    panic_if(!x || !m || !v || !f || !out || !conn, "out of memory");
    struct rng r;
    rng_seed(&r, p->seed, 0);
    for (uint32_t i = 0; i < nn; i++)
        x[i] = (float)rng_below(&r, 1024) / 1024.0f;
    for (uint32_t e = 0; e < ne; e++) {
        uint32_t i = e % side, j = e / side % side, k = e / (side * side), s1 = side + 1;
        for (uint32_t c = 0; c < 8; c++)
            conn[8 * e + c] =
                (int32_t)((i + (c & 1)) + (j + (c >> 1 & 1)) * s1 + (k + (c >> 2)) * s1 * s1);
        m[e] = 0.5f + (float)rng_below(&r, 256) / 512.0f;
    }
    const float dt = 0.01f;

    host_load_ptx(h, wl_ptx_lulesh, "workloads/lulesh/lulesh.ptx");
    addr_t dx = host_malloc(h, nn * sizeof(float)), dconn = host_malloc(h, 8u * ne * 4);
    addr_t dm = host_malloc(h, ne * sizeof(float)), dv = host_malloc(h, ne * sizeof(float));
    addr_t df = host_malloc(h, ne * sizeof(float));
    host_memcpy_to_dev(h, dx, x, nn * sizeof(float));
    host_memcpy_to_dev(h, dconn, conn, 8u * ne * 4);
    host_memcpy_to_dev(h, dm, m, ne * sizeof(float));
    host_memcpy_to_dev(h, dv, v, ne * sizeof(float));
    struct dim3 grid = DIM1((ne + LU_THREADS - 1) / LU_THREADS);
    for (uint32_t s = 0; s < nsteps; s++) {
        struct karg fa[] = {KARG_I32(ne), KARG_PTR(dx), KARG_PTR(dconn),
                            KARG_PTR(dm), KARG_PTR(dv), KARG_PTR(df)};
        host_launch(h, "lulesh_force", grid, DIM1(LU_THREADS), 0, fa, ARRAY_LEN(fa));
        struct karg ua[] = {KARG_I32(ne), KARG_F32(dt), KARG_PTR(df), KARG_PTR(dv)};
        host_launch(h, "lulesh_update", grid, DIM1(LU_THREADS), 0, ua, ARRAY_LEN(ua));
    }
    host_memcpy_from_dev(h, out, dv, ne * sizeof(float));

    for (uint32_t s = 0; s < nsteps; s++) {
        for (uint32_t e = 0; e < ne; e++) {
            float sum = 0.0f;
            for (uint32_t c = 0; c < 8; c++)
                sum += x[conn[8 * e + c]];
            f[e] = m[e] * sum * (1.0f + v[e]);
        }
        for (uint32_t e = 0; e < ne; e++)
            v[e] = 0.5f * v[e] + dt * f[e];
    }
    int rc = 0;
    for (uint32_t e = 0; e < ne && !rc; e++)
        if (fabsf(out[e] - v[e]) > 1e-4f * fmaxf(1.0f, fabsf(v[e]))) {
            snprintf(why, why_len, "v[%u]: expected %.9g, got %.9g", e, (double)v[e],
                     (double)out[e]);
            rc = 1;
        }
    host_free(h, dx);
    host_free(h, dconn);
    host_free(h, dm);
    host_free(h, dv);
    host_free(h, df);
    free(x);
    free(m);
    free(v);
    free(f);
    free(out);
    free(conn);
    return rc;
}

const struct workload wl_lulesh = {
    .name = "lulesh",
    .set = "stc-reuse",
    .desc = "LULESH-shaped: two short kernels a step over a hex mesh, read-only mesh re-read by "
            "every launch (spec 000)",
    .ptx = wl_ptx_lulesh,
    .ptx_file = "workloads/lulesh/lulesh.ptx",
    .run = lulesh_run,
};
