/*
 * saxpy.c - host driver of the saxpy workload (basic set): y = a*x + y over
 * n floats, one thread per element, 256-thread CTAs.
 *
 * Stands for BLAS level-1 SAXPY as in NVIDIA's CUDA introductions (paper
 * size: their 1 << 20 elements). nvcc contracts a*x + y into one fma, so the
 * host reference uses fmaf; the check allows 1e-6 relative error anyway so
 * that a separate multiply and add would also pass.
 * Sizes: tiny 1000, small 65536, paper 1048576.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/log.h"
#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_saxpy[];

#define SAXPY_THREADS 256u

static float rand_unit(struct rng *r)
{
    return (float)rng_below(r, 1u << 24) / (float)(1u << 23) - 1.0f;
}

static int saxpy_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    static const uint32_t sizes[WL_NSIZES] = {1000, 65536, 65536, 1u << 20};
    if (p->variant) {
        snprintf(why, why_len, "unknown variant '%s'", p->variant);
        return 1;
    }
    uint32_t n = sizes[p->size];
    float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), *out = malloc(n * sizeof *out);
    panic_if(!x || !y || !out, "out of memory");
    struct rng r;
    rng_seed(&r, p->seed, 0);
    float a = 2.0f * rand_unit(&r);
    for (uint32_t i = 0; i < n; i++) {
        x[i] = rand_unit(&r);
        y[i] = rand_unit(&r);
    }

    host_load_ptx(h, wl_ptx_saxpy, "workloads/saxpy/saxpy.ptx");
    addr_t dx = host_malloc(h, n * sizeof(float)), dy = host_malloc(h, n * sizeof(float));
    host_memcpy_to_dev(h, dx, x, n * sizeof(float));
    host_memcpy_to_dev(h, dy, y, n * sizeof(float));
    struct karg args[] = {KARG_I32(n), KARG_F32(a), KARG_PTR(dx), KARG_PTR(dy)};
    host_launch(h, "saxpy", DIM1((n + SAXPY_THREADS - 1) / SAXPY_THREADS), DIM1(SAXPY_THREADS), 0,
                args, ARRAY_LEN(args));
    host_memcpy_from_dev(h, out, dy, n * sizeof(float));

    int rc = 0;
    for (uint32_t i = 0; i < n; i++) {
        float want = fmaf(a, x[i], y[i]);
        if (fabsf(out[i] - want) > 1e-6f * fmaxf(1.0f, fabsf(want))) {
            snprintf(why, why_len, "y[%u]: expected %.9g, got %.9g", i, (double)want,
                     (double)out[i]);
            rc = 1;
            break;
        }
    }
    host_free(h, dx);
    host_free(h, dy);
    free(x);
    free(y);
    free(out);
    return rc;
}

const struct workload wl_saxpy = {
    .name = "saxpy",
    .set = "basic",
    .desc = "y = a*x + y over floats, one thread per element (BLAS saxpy)",
    .ptx = wl_ptx_saxpy,
    .ptx_file = "workloads/saxpy/saxpy.ptx",
    .run = saxpy_run,
};
