/*
 * fcnn.c - spec 003's FCNN (§4.5, set spandex-app; kernels in fcnn.cu): L = 5
 * fully connected layers of width N over M inputs on 5 CTAs, pipelined (one
 * layer a CTA, the default) or data-parallel (variant dp: each CTA runs all
 * layers for its share of the inputs).
 *
 * Sizes (N, M): tiny 32, 4; quick 128, 15; small and paper 128, 60 (the
 * paper's 60 inputs). At N = 128 a layer's weights are 64 KB: one fits the
 * 128 KB L1, five (320 KB) do not (the spec's suggestion), so data-parallel
 * CTAs cannot keep their weights from one input to the next, while a
 * pipelined CTA can if its weights survive the acquire of every hand-over.
 * Weights in [-4, 4], inputs in [0, 127], from the seed; the host runs the
 * same integer layers and compares every output word.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "base/rng.h"
#include "host/workload.h"
#include "../spandex_app.h"

extern const char wl_ptx_fcnn[];

#define FCNN_LAYERS 5

static const struct {
    int n, inputs;
} fcnn_sizes[WL_NSIZES] = {
    [WL_TINY] = {32, 4},
    [WL_QUICK] = {128, 15},
    [WL_SMALL] = {128, 60},
    [WL_PAPER] = {128, 60},
};

/* The host's layers: y[m] = relu(W[L-1] ... relu(W[0] x[m])). */
static void fcnn_reference(const int *W, const int *X, int *Y, int N, int M)
{
    int *a = malloc((size_t)N * sizeof *a), *b = malloc((size_t)N * sizeof *b);
    if (!a || !b)
        panic("out of memory");
    for (int m = 0; m < M; m++) {
        memcpy(a, X + (size_t)m * N, (size_t)N * sizeof *a);
        for (int l = 0; l < FCNN_LAYERS; l++) {
            const int *w = W + (size_t)l * N * N;
            for (int i = 0; i < N; i++) {
                int acc = 0;
                for (int j = 0; j < N; j++)
                    acc += w[j * N + i] * a[j];
                b[i] = app_relu_host(acc);
            }
            memcpy(a, b, (size_t)N * sizeof *a);
        }
        memcpy(Y + (size_t)m * N, a, (size_t)N * sizeof *a);
    }
    free(a);
    free(b);
}

static int fcnn_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    bool dp = p->variant && !strcmp(p->variant, "dp");
    if (p->variant && !dp) {
        snprintf(why, why_len, "unknown variant '%s'", p->variant);
        return 1;
    }
    int N = fcnn_sizes[p->size].n, M = fcnn_sizes[p->size].inputs, L = FCNN_LAYERS;
    size_t wn = (size_t)L * N * N, xn = (size_t)M * N;
    int *W = malloc(wn * sizeof *W), *X = malloc(xn * sizeof *X), *Y = malloc(xn * sizeof *Y);
    if (!W || !X || !Y)
        panic("out of memory");
    struct rng r;
    rng_seed(&r, p->seed, 0x46434e4e); /* "FCNN" */
    app_fill(&r, W, wn, -4, 9);
    app_fill(&r, X, xn, 0, 128);

    host_load_ptx(h, wl_ptx_fcnn, "workloads/fcnn/fcnn.ptx");
    addr_t dW = host_malloc(h, wn * sizeof *W), dX = host_malloc(h, xn * sizeof *X);
    addr_t dY = host_malloc(h, xn * sizeof *Y);
    host_memcpy_to_dev(h, dW, W, wn * sizeof *W);
    host_memcpy_to_dev(h, dX, X, xn * sizeof *X);
    addr_t dbuf = 0, full = 0, taken = 0;
    if (dp) {
        struct karg args[] = {KARG_PTR(dW), KARG_PTR(dX), KARG_PTR(dY),
                              KARG_I32(N),  KARG_I32(L),  KARG_I32(M)};
        host_launch(h, "fcnn_dp", DIM1((uint32_t)L), DIM1((uint32_t)N), 0, args, ARRAY_LEN(args));
    } else {
        dbuf = host_malloc(h, (size_t)(L - 1) * 2 * N * sizeof(int));
        full = app_counters(h, (unsigned)L);
        taken = app_counters(h, (unsigned)L);
        struct karg args[] = {KARG_PTR(dW),   KARG_PTR(dX),   KARG_PTR(dY),
                              KARG_PTR(dbuf), KARG_PTR(full), KARG_PTR(taken),
                              KARG_I32(N),    KARG_I32(L),    KARG_I32(M)};
        host_launch(h, "fcnn_pipe", DIM1((uint32_t)L), DIM1((uint32_t)N), 0, args, ARRAY_LEN(args));
    }
    fcnn_reference(W, X, Y, N, M);
    int rc = app_compare(h, "fcnn output", dY, Y, xn, why, why_len);
    host_free(h, dW);
    host_free(h, dX);
    host_free(h, dY);
    if (!dp) {
        host_free(h, dbuf);
        host_free(h, full);
        host_free(h, taken);
    }
    free(W);
    free(X);
    free(Y);
    return rc;
}

const struct workload wl_fcnn = {
    .name = "fcnn",
    .set = "spandex-app",
    .desc = "FCNN: 5 fully connected layers over independent inputs, one layer a CTA (variant dp: "
            "data-parallel) (spec 003 §4.5)",
    .ptx = wl_ptx_fcnn,
    .ptx_file = "workloads/fcnn/fcnn.ptx",
    .run = fcnn_run,
    .variants = (const char *const[]){"dp", NULL},
};
