/*
 * lenet.c - spec 003's LeNet (§4.5, set spandex-app; kernels and layout in
 * lenet.cu): two convolutions with max-pools and two fully connected layers
 * over M inputs on 12 CTAs, pipelined (the default: conv1 on 2 CTAs, conv2
 * on 6, the first fully connected layer on 3, the last on 1) or
 * data-parallel (variant dp).
 *
 * Sizes (S x S pixels, M inputs): tiny 16, 2 (the convolutions leave one
 * pixel a map); quick 32, 12; small 32, 36; paper 32, 80 (the paper's 80
 * inputs). The weights are 207 KB at S = 32, over the 128 KB L1; the
 * pipeline's largest share is a CTA of the first fully connected layer, 64
 * KB. Weights in [-4, 4], pixels in [0, 127], from the seed; the host runs
 * the same integer layers and compares every logit.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "base/rng.h"
#include "host/workload.h"
#include "../spandex_app.h"

extern const char wl_ptx_lenet[];

#define K    5
#define C1   6
#define C2   16
#define F1   120
#define OUT  10
#define CTAS 12

static const struct {
    int s, inputs;
} lenet_sizes[WL_NSIZES] = {
    [WL_TINY] = {16, 2},
    [WL_QUICK] = {32, 12},
    [WL_SMALL] = {32, 36},
    [WL_PAPER] = {32, 80},
};

/* As lenet.cu's lenet_conv_pool, every output map. */
static void conv_pool(const int *in, int cin, int s, const int *w, int cout, int *out)
{
    int po = (s - K + 1) / 2;
    for (int map = 0; map < cout; map++)
        for (int y = 0; y < po; y++)
            for (int x = 0; x < po; x++) {
                int best = 0;
                for (int dy = 0; dy < 2; dy++)
                    for (int dx = 0; dx < 2; dx++) {
                        int acc = 0;
                        for (int c = 0; c < cin; c++)
                            for (int ky = 0; ky < K; ky++)
                                for (int kx = 0; kx < K; kx++)
                                    acc += w[((map * cin + c) * K + ky) * K + kx] *
                                           in[(c * s + 2 * y + dy + ky) * s + 2 * x + dx + kx];
                        int v = app_relu_host(acc);
                        best = v > best ? v : best;
                    }
                out[(map * po + y) * po + x] = best;
            }
}

static void fc(const int *in, int nin, const int *w, int nout, int *out, bool relu)
{
    for (int j = 0; j < nout; j++) {
        int acc = 0;
        for (int k = 0; k < nin; k++)
            acc += w[k * nout + j] * in[k];
        out[j] = relu ? app_relu_host(acc) : acc >> 7;
    }
}

static int lenet_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    bool dp = p->variant && !strcmp(p->variant, "dp");
    if (p->variant && !dp) {
        snprintf(why, why_len, "unknown variant '%s'", p->variant);
        return 1;
    }
    int S = lenet_sizes[p->size].s, M = lenet_sizes[p->size].inputs;
    int s1 = (S - 4) / 2, s2 = (s1 - 4) / 2, n1 = C1 * s1 * s1, n2 = C2 * s2 * s2;
    size_t wn[4] = {(size_t)C1 * K * K, (size_t)C2 * C1 * K * K, (size_t)n2 * F1, (size_t)F1 * OUT};
    size_t xn = (size_t)M * S * S, yn = (size_t)M * OUT;
    int *w[4], *X = malloc(xn * sizeof *X), *Y = malloc(yn * sizeof *Y);
    int *p1 = malloc((size_t)n1 * sizeof *p1), *p2 = malloc((size_t)n2 * sizeof *p2);
    int f[F1];
    struct rng r;
    rng_seed(&r, p->seed, 0x4c654e74); /* "LeNt" */
    addr_t dw[4];
    host_load_ptx(h, wl_ptx_lenet, "workloads/lenet/lenet.ptx");
    for (int k = 0; k < 4; k++) {
        w[k] = malloc(wn[k] * sizeof *w[k]);
        if (!w[k])
            panic("out of memory");
        app_fill(&r, w[k], wn[k], -4, 9);
        dw[k] = host_malloc(h, wn[k] * sizeof *w[k]);
        host_memcpy_to_dev(h, dw[k], w[k], wn[k] * sizeof *w[k]);
    }
    if (!X || !Y || !p1 || !p2)
        panic("out of memory");
    app_fill(&r, X, xn, 0, 128);
    addr_t dX = host_malloc(h, xn * sizeof *X), dY = host_malloc(h, yn * sizeof *Y);
    host_memcpy_to_dev(h, dX, X, xn * sizeof *X);
    addr_t dbuf = 0, full = 0, taken = 0;
    if (dp) {
        struct karg args[] = {KARG_PTR(dw[0]), KARG_PTR(dw[1]), KARG_PTR(dw[2]), KARG_PTR(dw[3]),
                              KARG_PTR(dX),    KARG_PTR(dY),    KARG_I32(S),     KARG_I32(M)};
        host_launch(h, "lenet_dp", DIM1(CTAS), DIM1(256), 0, args, ARRAY_LEN(args));
    } else {
        dbuf = host_malloc(h, 2 * (size_t)(n1 + n2 + F1) * sizeof(int));
        full = app_counters(h, CTAS);
        taken = app_counters(h, CTAS);
        struct karg args[] = {KARG_PTR(dw[0]), KARG_PTR(dw[1]), KARG_PTR(dw[2]), KARG_PTR(dw[3]),
                              KARG_PTR(dX),    KARG_PTR(dY),    KARG_PTR(dbuf),  KARG_PTR(full),
                              KARG_PTR(taken), KARG_I32(S),     KARG_I32(M)};
        host_launch(h, "lenet_pipe", DIM1(CTAS), DIM1(256), 0, args, ARRAY_LEN(args));
    }
    for (int m = 0; m < M; m++) {
        conv_pool(X + (size_t)m * S * S, 1, S, w[0], C1, p1);
        conv_pool(p1, C1, s1, w[1], C2, p2);
        fc(p2, n2, w[2], F1, f, true);
        fc(f, F1, w[3], OUT, Y + (size_t)m * OUT, false);
    }
    int rc = app_compare(h, "lenet logits", dY, Y, yn, why, why_len);
    for (int k = 0; k < 4; k++) {
        host_free(h, dw[k]);
        free(w[k]);
    }
    host_free(h, dX);
    host_free(h, dY);
    if (!dp) {
        host_free(h, dbuf);
        host_free(h, full);
        host_free(h, taken);
    }
    free(X), free(Y), free(p1), free(p2);
    return rc;
}

const struct workload wl_lenet = {
    .name = "lenet",
    .set = "spandex-app",
    .desc =
        "LeNet: 2 convolutions with max-pools, 2 fully connected layers, pipelined over 12 CTAs "
        "(variant dp: data-parallel) (spec 003 §4.5)",
    .ptx = wl_ptx_lenet,
    .ptx_file = "workloads/lenet/lenet.ptx",
    .run = lenet_run,
    .variants = (const char *const[]){"dp", NULL},
};
