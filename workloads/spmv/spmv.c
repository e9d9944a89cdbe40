/*
 * spmv.c - host driver of the spmv workload (set stc; a guess for one of
 * spec 000's four unnamed benchmarks): HCC's SPMV example, y = A x for a
 * random sparse matrix in CSR form, one row per thread, launched `iters`
 * times (a timing loop; A and x are read-only and re-read by every
 * launch). 128-thread CTAs.
 *
 * Sizes: tiny 1024 rows, quick 16384, small 65536, paper 65536; 8 nonzeros
 * a row; iters 2 / 8 / 8 / 32. Check: y against the CPU's product summed in
 * the same order (1e-4 relative).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/log.h"
#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_spmv[];

#define SP_THREADS 128u
#define SP_NNZ_ROW 8u

static int spmv_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    static const uint32_t rows[WL_NSIZES] = {1024, 16384, 65536, 65536};
    static const uint32_t iters[WL_NSIZES] = {2, 8, 8, 32};
    if (p->variant) {
        snprintf(why, why_len, "unknown variant '%s'", p->variant);
        return 1;
    }
    uint32_t n = rows[p->size], nnz = n * SP_NNZ_ROW;
    int32_t *row = malloc((n + 1) * 4), *col = malloc(nnz * 4);
    float *val = malloc(nnz * 4), *x = malloc(n * 4), *y = malloc(n * 4);
    panic_if(!row || !col || !val || !x || !y, "out of memory");
    struct rng r;
    rng_seed(&r, p->seed, 0);
    for (uint32_t i = 0; i <= n; i++)
        row[i] = (int32_t)(i * SP_NNZ_ROW);
    for (uint32_t k = 0; k < nnz; k++) {
        col[k] = (int32_t)rng_below(&r, n);
        val[k] = (float)rng_below(&r, 1024) / 512.0f - 1.0f;
    }
    for (uint32_t i = 0; i < n; i++)
        x[i] = (float)rng_below(&r, 1024) / 1024.0f;
    host_load_ptx(h, wl_ptx_spmv, "workloads/spmv/spmv.ptx");
    addr_t drow = host_malloc(h, (n + 1) * 4), dcol = host_malloc(h, nnz * 4);
    addr_t dval = host_malloc(h, nnz * 4), dx = host_malloc(h, n * 4), dy = host_malloc(h, n * 4);
    host_memcpy_to_dev(h, drow, row, (n + 1) * 4);
    host_memcpy_to_dev(h, dcol, col, nnz * 4);
    host_memcpy_to_dev(h, dval, val, nnz * 4);
    host_memcpy_to_dev(h, dx, x, n * 4);
    for (uint32_t it = 0; it < iters[p->size]; it++) {
        struct karg a[] = {KARG_I32(n),    KARG_PTR(drow), KARG_PTR(dcol),
                           KARG_PTR(dval), KARG_PTR(dx),   KARG_PTR(dy)};
        host_launch(h, "spmv", DIM1((n + SP_THREADS - 1) / SP_THREADS), DIM1(SP_THREADS), 0, a,
                    ARRAY_LEN(a));
    }
    host_memcpy_from_dev(h, y, dy, n * 4);
    int rc = 0;
    for (uint32_t i = 0; i < n && !rc; i++) {
        float s = 0.0f;
        for (int32_t k = row[i]; k < row[i + 1]; k++)
            s += val[k] * x[col[k]];
        if (fabsf(y[i] - s) > 1e-4f * fmaxf(1.0f, fabsf(s))) {
            snprintf(why, why_len, "y[%u]: expected %.9g, got %.9g", i, (double)s, (double)y[i]);
            rc = 1;
        }
    }
    host_free(h, drow), host_free(h, dcol), host_free(h, dval), host_free(h, dx);
    host_free(h, dy);
    free(row), free(col), free(val), free(x), free(y);
    return rc;
}

const struct workload wl_spmv = {
    .name = "spmv",
    .set = "stc",
    .desc = "sparse matrix-vector product, CSR, a row per thread (HCC SPMV; a guess for an "
            "unnamed benchmark of spec 000)",
    .ptx = wl_ptx_spmv,
    .ptx_file = "workloads/spmv/spmv.ptx",
    .run = spmv_run,
};
