/*
 * snapc.c - host driver of the snapc-shaped workload (set stc): `steps` time
 * steps; per energy group, a sweep kernel for each angle (angular flux of
 * every cell) and a kernel summing the angles into the group's scalar flux.
 * 128-thread CTAs.
 *
 * Stands for SNAP-C (AMD Compute Apps), which spec 000 runs as 2,992
 * kernels with read reuse and coarse-grain sharing; the real code and inputs
 * are not given (spec 000 §4). Shape kept: many small kernels; source,
 * cross-section and angle tables read-only and re-read by every launch; the
 * angular fluxes written by one kernel and read by the next; the scalar
 * fluxes written once a step and read by the next step's sweeps.
 * Sizes: tiny 512 cells, 2 groups, 4 angles, 2 steps (20 kernels); quick
 * 4096, 4, 8, 8 (288); small 8192, 8, 16, 8 (1,088); paper 8192, 8, 16, 22
 * (2,992, the paper's count). Check: the CPU runs the same launches
 * (floats, 1e-4 relative).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/log.h"
#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_snapc[];

#define SN_THREADS 128u

static int snapc_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    static const uint32_t cells[WL_NSIZES] = {512, 4096, 8192, 8192};
    static const uint32_t groups[WL_NSIZES] = {2, 4, 8, 8}, angles[WL_NSIZES] = {4, 8, 16, 16};
    static const uint32_t steps[WL_NSIZES] = {2, 8, 8, 22};
    if (p->variant) {
        snprintf(why, why_len, "unknown variant '%s'", p->variant);
        return 1;
    }
    uint32_t n = cells[p->size], ng = groups[p->size], na = angles[p->size];
    float *q = malloc(n * 4), *ss = malloc(ng * 4), *st = malloc((size_t)ng * n * 4);
    float *phi = calloc((size_t)ng * n, 4), *psi = calloc((size_t)na * n, 4);
    float *w = malloc(na * 4), *mu = malloc(na * 4), *out = malloc((size_t)ng * n * 4);
    panic_if(!q || !ss || !st || !phi || !psi || !w || !mu || !out, "out of memory");
    struct rng r;
    rng_seed(&r, p->seed, 0);
    for (uint32_t i = 0; i < n; i++)
        q[i] = (float)rng_below(&r, 1024) / 1024.0f;
    for (uint32_t g = 0; g < ng; g++) {
        ss[g] = 0.1f + (float)rng_below(&r, 256) / 1024.0f;
        for (uint32_t i = 0; i < n; i++)
            st[g * n + i] = 1.0f + (float)rng_below(&r, 1024) / 1024.0f;
    }
    for (uint32_t a = 0; a < na; a++) {
        mu[a] = (float)(a + 1) / (float)na;
        w[a] = 1.0f / (float)na;
    }

    host_load_ptx(h, wl_ptx_snapc, "workloads/snapc/snapc.ptx");
    addr_t dq = host_malloc(h, n * 4), dss = host_malloc(h, ng * 4);
    addr_t dst = host_malloc(h, (size_t)ng * n * 4), dphi = host_malloc(h, (size_t)ng * n * 4);
    addr_t dpsi = host_malloc(h, (size_t)na * n * 4), dw = host_malloc(h, na * 4);
    host_memcpy_to_dev(h, dq, q, n * 4);
    host_memcpy_to_dev(h, dss, ss, ng * 4);
    host_memcpy_to_dev(h, dst, st, (size_t)ng * n * 4);
    host_memcpy_to_dev(h, dphi, phi, (size_t)ng * n * 4);
    host_memcpy_to_dev(h, dw, w, na * 4);
    struct dim3 grid = DIM1((n + SN_THREADS - 1) / SN_THREADS);
    for (uint32_t s = 0; s < steps[p->size]; s++)
        for (uint32_t g = 0; g < ng; g++) {
            for (uint32_t a = 0; a < na; a++) {
                struct karg sa[] = {KARG_I32(n),     KARG_I32(g),
                                    KARG_F32(mu[a]), KARG_PTR(dq),
                                    KARG_PTR(dss),   KARG_PTR(dst),
                                    KARG_PTR(dphi),  KARG_PTR(dpsi + (addr_t)a * n * 4)};
                host_launch(h, "snap_sweep", grid, DIM1(SN_THREADS), 0, sa, ARRAY_LEN(sa));
            }
            struct karg pa[] = {KARG_I32(n),  KARG_I32(g),    KARG_I32(na),
                                KARG_PTR(dw), KARG_PTR(dpsi), KARG_PTR(dphi)};
            host_launch(h, "snap_phi", grid, DIM1(SN_THREADS), 0, pa, ARRAY_LEN(pa));
            for (uint32_t a = 0; a < na; a++) /* the same on the CPU */
                for (uint32_t i = 0; i < n; i++)
                    psi[a * n + i] = (q[i] + ss[g] * phi[g * n + i]) / (st[g * n + i] + mu[a]);
            for (uint32_t i = 0; i < n; i++) {
                float sum = 0.0f;
                for (uint32_t a = 0; a < na; a++)
                    sum += w[a] * psi[a * n + i];
                phi[g * n + i] = sum;
            }
        }
    host_memcpy_from_dev(h, out, dphi, (size_t)ng * n * 4);
    int rc = 0;
    for (uint32_t i = 0; i < ng * n && !rc; i++)
        if (fabsf(out[i] - phi[i]) > 1e-4f * fmaxf(1.0f, fabsf(phi[i]))) {
            snprintf(why, why_len, "phi[%u]: expected %.9g, got %.9g", i, (double)phi[i],
                     (double)out[i]);
            rc = 1;
        }
    host_free(h, dq), host_free(h, dss), host_free(h, dst), host_free(h, dphi);
    host_free(h, dpsi), host_free(h, dw);
    free(q), free(ss), free(st), free(phi), free(psi), free(w), free(mu), free(out);
    return rc;
}

const struct workload wl_snapc = {
    .name = "snapc",
    .set = "stc-reuse",
    .desc = "SNAP-shaped transport steps: a sweep kernel per angle and group over read-only "
            "cross sections, then the scalar flux (spec 000)",
    .ptx = wl_ptx_snapc,
    .ptx_file = "workloads/snapc/snapc.ptx",
    .run = snapc_run,
};
