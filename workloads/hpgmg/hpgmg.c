/*
 * hpgmg.c - host driver of the hpgmg-shaped workload (set stc): V-cycles of
 * a geometric multigrid solver for a 1D diffusion operator, levels halving
 * down to 64 points; per level two smoother launches (damped Jacobi,
 * ping-pong), a residual and a restriction on the way down, four smoother
 * launches on the coarsest, a correction and two smoother launches on the
 * way up. 128-thread CTAs.
 *
 * Stands for HPGMG (AMD Compute Apps), in spec 000's inter-kernel reuse set
 * with a third of its loads to the band being written; the real code and
 * inputs are not given (spec 000 §4). Shape kept: the operator's
 * coefficients are read-only and re-read by every smoother and residual
 * launch; the solution, temporaries and right-hand sides are read and
 * written in place or ping-pong. Sizes: tiny 1024 points x 2 cycles, quick
 * 16384 x 8, small 65536 x 8, paper 65536 x 30. Check: the CPU runs the
 * same launches (floats, 1e-3 relative: nvcc may contract into fma).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_hpgmg[];

#define MG_THREADS    128u
#define MG_MAX_LEVELS 16
#define MG_COARSEST   64u

struct mg_level {
    uint32_t n;
    float *a, *b, *u, *t, *r; /* host copies for the reference */
    addr_t da, db, du, dt, dr;
};

static struct dim3 grid_of(uint32_t n)
{
    return DIM1((n + MG_THREADS - 1) / MG_THREADS);
}

static void smooth_gpu(struct host *h, struct mg_level *L)
{
    struct karg a1[] = {KARG_I32(L->n), KARG_PTR(L->da), KARG_PTR(L->db), KARG_PTR(L->du),
                        KARG_PTR(L->dt)};
    host_launch(h, "mg_smooth", grid_of(L->n), DIM1(MG_THREADS), 0, a1, ARRAY_LEN(a1));
    struct karg a2[] = {KARG_I32(L->n), KARG_PTR(L->da), KARG_PTR(L->db), KARG_PTR(L->dt),
                        KARG_PTR(L->du)};
    host_launch(h, "mg_smooth", grid_of(L->n), DIM1(MG_THREADS), 0, a2, ARRAY_LEN(a2));
}

static float nb(const float *u, uint32_t n, int64_t i)
{
    return i >= 0 && i < (int64_t)n ? u[i] : 0.0f;
}

static void smooth_cpu_once(struct mg_level *L, const float *u, float *t)
{
    for (uint32_t i = 0; i < L->n; i++) {
        float s = nb(u, L->n, (int64_t)i - 1) + nb(u, L->n, (int64_t)i + 1);
        t[i] = u[i] + 0.6f * (L->b[i] - (L->a[i] * u[i] - 0.25f * s)) / L->a[i];
    }
}

static void smooth_cpu(struct mg_level *L)
{
    smooth_cpu_once(L, L->u, L->t);
    smooth_cpu_once(L, L->t, L->u);
}

static int hpgmg_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    static const uint32_t points[WL_NSIZES] = {1024, 16384, 65536, 65536};
    static const uint32_t cycles[WL_NSIZES] = {2, 8, 8, 30};
    if (p->variant) {
        snprintf(why, why_len, "unknown variant '%s'", p->variant);
        return 1;
    }
    struct mg_level lv[MG_MAX_LEVELS];
    unsigned nl = 0;
    struct rng r;
    rng_seed(&r, p->seed, 0);
    host_load_ptx(h, wl_ptx_hpgmg, "workloads/hpgmg/hpgmg.ptx");
    for (uint32_t n = points[p->size]; n >= MG_COARSEST && nl < MG_MAX_LEVELS; n /= 2) {
        struct mg_level *L = &lv[nl++];
        L->n = n;
        size_t bytes = n * sizeof(float);
        L->a = malloc(bytes), L->b = calloc(n, 4), L->u = calloc(n, 4), L->t = calloc(n, 4);
        L->r = calloc(n, 4);
        panic_if(!L->a || !L->b || !L->u || !L->t || !L->r, "out of memory");
        for (uint32_t i = 0; i < n; i++) {
            L->a[i] = 1.5f + (float)rng_below(&r, 1024) / 1024.0f;
            if (nl == 1)
                L->b[i] = (float)rng_below(&r, 1024) / 512.0f - 1.0f;
        }
        L->da = host_malloc(h, bytes), L->db = host_malloc(h, bytes);
        L->du = host_malloc(h, bytes), L->dt = host_malloc(h, bytes), L->dr = host_malloc(h, bytes);
        host_memcpy_to_dev(h, L->da, L->a, bytes);
        host_memcpy_to_dev(h, L->db, L->b, bytes);
        host_memcpy_to_dev(h, L->du, L->u, bytes);
    }
    for (uint32_t c = 0; c < cycles[p->size]; c++) {
        for (unsigned l = 0; l + 1 < nl; l++) { /* down */
            struct mg_level *L = &lv[l], *C = &lv[l + 1];
            smooth_gpu(h, L);
            struct karg ra[] = {KARG_I32(L->n), KARG_PTR(L->da), KARG_PTR(L->db), KARG_PTR(L->du),
                                KARG_PTR(L->dr)};
            host_launch(h, "mg_residual", grid_of(L->n), DIM1(MG_THREADS), 0, ra, ARRAY_LEN(ra));
            struct karg sa[] = {KARG_I32(C->n), KARG_PTR(L->dr), KARG_PTR(C->db), KARG_PTR(C->du)};
            host_launch(h, "mg_restrict", grid_of(C->n), DIM1(MG_THREADS), 0, sa, ARRAY_LEN(sa));
        }
        smooth_gpu(h, &lv[nl - 1]);
        smooth_gpu(h, &lv[nl - 1]);
        for (unsigned l = nl - 1; l-- > 0;) { /* up */
            struct mg_level *L = &lv[l], *C = &lv[l + 1];
            struct karg ca[] = {KARG_I32(L->n), KARG_PTR(C->du), KARG_PTR(L->du)};
            host_launch(h, "mg_correct", grid_of(L->n), DIM1(MG_THREADS), 0, ca, ARRAY_LEN(ca));
            smooth_gpu(h, L);
        }
        /* the same on the CPU */
        for (unsigned l = 0; l + 1 < nl; l++) {
            struct mg_level *L = &lv[l], *C = &lv[l + 1];
            smooth_cpu(L);
            for (uint32_t i = 0; i < L->n; i++) {
                float s = nb(L->u, L->n, (int64_t)i - 1) + nb(L->u, L->n, (int64_t)i + 1);
                L->r[i] = L->b[i] - (L->a[i] * L->u[i] - 0.25f * s);
            }
            for (uint32_t i = 0; i < C->n; i++) {
                C->b[i] = 0.5f * (L->r[2 * i] + L->r[2 * i + 1]);
                C->u[i] = 0.0f;
            }
        }
        smooth_cpu(&lv[nl - 1]);
        smooth_cpu(&lv[nl - 1]);
        for (unsigned l = nl - 1; l-- > 0;) {
            struct mg_level *L = &lv[l], *C = &lv[l + 1];
            for (uint32_t i = 0; i < L->n; i++)
                L->u[i] += C->u[i / 2];
            smooth_cpu(L);
        }
    }
    int rc = 0;
    float *out = malloc(lv[0].n * sizeof *out);
    panic_if(!out, "out of memory");
    host_memcpy_from_dev(h, out, lv[0].du, lv[0].n * sizeof(float));
    for (uint32_t i = 0; i < lv[0].n && !rc; i++) {
        float want = lv[0].u[i];
        if (fabsf(out[i] - want) > 1e-3f * fmaxf(1.0f, fabsf(want))) {
            snprintf(why, why_len, "u[%u]: expected %.9g, got %.9g", i, (double)want,
                     (double)out[i]);
            rc = 1;
        }
    }
    free(out);
    for (unsigned l = 0; l < nl; l++) {
        struct mg_level *L = &lv[l];
        host_free(h, L->da), host_free(h, L->db), host_free(h, L->du), host_free(h, L->dt);
        host_free(h, L->dr);
        free(L->a), free(L->b), free(L->u), free(L->t), free(L->r);
    }
    return rc;
}

const struct workload wl_hpgmg = {
    .name = "hpgmg",
    .set = "stc-reuse",
    .desc = "HPGMG-shaped multigrid V-cycles: smoother, residual, restriction, correction "
            "kernels per level over read-only coefficients (spec 000)",
    .ptx = wl_ptx_hpgmg,
    .ptx_file = "workloads/hpgmg/hpgmg.ptx",
    .run = hpgmg_run,
};
