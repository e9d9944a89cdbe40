/*
 * lud.c - host driver of LUD (LU decomposition), intra-workgroup set of the
 * RCC study (Ren thesis, Table 3.4, from Rodinia).
 *
 * In-place blocked LU factorisation (no pivoting) of an n x n matrix with
 * 16x16 tiles (after Rodinia's lud): per step, lud_diag, lud_perim and
 * lud_internal (lud.cu), each reading what the previous kernel wrote; the
 * last step runs lud_diag alone. The matrix is random and diagonally
 * dominant, so no pivoting is needed. The CPU reference runs the same
 * blocked algorithm with the kernels' per-element operation order (explicit
 * fmaf, IEEE division), so results agree to rounding.
 * Sizes: tiny n = 64 (4 steps); small n = 192 (12 steps); paper n = 256 (the
 * size commonly used with Rodinia's lud; the thesis gives none).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/log.h"
#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_lud[];

#define LUD_T 16

static const int lud_sizes[WL_NSIZES] = {
    [WL_TINY] = 64, [WL_QUICK] = 192, [WL_SMALL] = 192, [WL_PAPER] = 256};

static void *lud_alloc(size_t n)
{
    void *p = calloc(1, n);
    if (!p)
        fatal("lud: out of host memory (%zu bytes)", n);
    return p;
}

/* Factor the diagonal tile at (off, off): lud_diag's order. */
static void lud_ref_diag(float *a, int n, int off)
{
    float *d = a + (size_t)off * n + off;
    for (int k = 0; k < LUD_T - 1; k++) {
        for (int i = k + 1; i < LUD_T; i++)
            d[i * n + k] = d[i * n + k] / d[k * n + k];
        for (int i = k + 1; i < LUD_T; i++) {
            float l = d[i * n + k];
            for (int j = k + 1; j < LUD_T; j++)
                d[i * n + j] = fmaf(-l, d[k * n + j], d[i * n + j]);
        }
    }
}

/* Solve the tiles right of and below the diagonal tile: lud_perim's order. */
static void lud_ref_perim(float *a, int n, int off)
{
    const float *d = a + (size_t)off * n + off;
    for (int base = off + LUD_T; base < n; base += LUD_T) {
        float *u = a + (size_t)off * n + base;
        float *l = a + (size_t)base * n + off;
        for (int t = 0; t < LUD_T; t++) {
            for (int k = 0; k < LUD_T - 1; k++)
                for (int i = k + 1; i < LUD_T; i++)
                    u[i * n + t] = fmaf(-d[i * n + k], u[k * n + t], u[i * n + t]);
            for (int j = 0; j < LUD_T; j++) {
                float v = l[t * n + j];
                for (int k = 0; k < j; k++)
                    v = fmaf(-l[t * n + k], d[k * n + j], v);
                l[t * n + j] = v / d[j * n + j];
            }
        }
    }
}

/* Update the trailing matrix: lud_internal's order. */
static void lud_ref_internal(float *a, int n, int off)
{
    for (int row = off + LUD_T; row < n; row++)
        for (int col = off + LUD_T; col < n; col++) {
            float sum = 0.0f;
            for (int k = 0; k < LUD_T; k++)
                sum = fmaf(a[(size_t)row * n + off + k], a[(size_t)(off + k) * n + col], sum);
            a[(size_t)row * n + col] -= sum;
        }
}

static int lud_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    if (p->variant) {
        snprintf(why, why_len, "lud: unknown variant '%s' (none defined)", p->variant);
        return 1;
    }
    int n = lud_sizes[p->size];
    size_t cells = (size_t)n * n, bytes = cells * sizeof(float);

    float *ref = lud_alloc(bytes), *got = lud_alloc(bytes);
    struct rng r;
    rng_seed(&r, p->seed, 0x4c5544); /* "LUD" */
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            float v = (float)(rng_next(&r) >> 40) * (1.0f / 16777216.0f);
            ref[(size_t)i * n + j] = i == j ? (float)n + v : v - 0.5f;
        }

    host_load_ptx(h, wl_ptx_lud, "workloads/lud/lud.ptx");
    addr_t d_a = host_malloc(h, bytes);
    host_memcpy_to_dev(h, d_a, ref, bytes);
    for (int off = 0; off < n; off += LUD_T) {
        struct karg a[] = {KARG_PTR(d_a), KARG_I32(n), KARG_I32(off)};
        host_launch(h, "lud_diag", DIM1(1), DIM1(LUD_T), 0, a, ARRAY_LEN(a));
        int rest = (n - off) / LUD_T - 1;
        if (rest == 0)
            break;
        host_launch(h, "lud_perim", DIM1((uint32_t)rest), DIM1(2 * LUD_T), 0, a, ARRAY_LEN(a));
        host_launch(h, "lud_internal", DIM3((uint32_t)rest, (uint32_t)rest, 1),
                    DIM3(LUD_T, LUD_T, 1), 0, a, ARRAY_LEN(a));
    }
    host_memcpy_from_dev(h, got, d_a, bytes);

    for (int off = 0; off < n; off += LUD_T) {
        lud_ref_diag(ref, n, off);
        lud_ref_perim(ref, n, off);
        lud_ref_internal(ref, n, off);
    }
    int rc = 0;
    for (size_t i = 0; i < cells && rc == 0; i++) {
        if (!(fabsf(got[i] - ref[i]) <= 1e-6f + 1e-5f * fabsf(ref[i]))) {
            snprintf(why, why_len, "lud: a[%zu][%zu] expected %.9g got %.9g", i / (size_t)n,
                     i % (size_t)n, (double)ref[i], (double)got[i]);
            rc = 1;
        }
    }
    host_free(h, d_a);
    free(ref);
    free(got);
    return rc;
}

const struct workload wl_lud = {
    .name = "lud",
    .set = "intra",
    .desc = "LU decomposition: diagonal, perimeter and internal kernels per 16-wide step (Rodinia)",
    .ptx = wl_ptx_lud,
    .ptx_file = "workloads/lud/lud.ptx",
    .run = lud_run,
};
