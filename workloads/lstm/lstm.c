/*
 * lstm.c - spec 003's LSTM (§4.5, set spandex-app; kernel and arithmetic in
 * lstm.cu): two stacked LSTM layers of 50 cells, a dense layer and an output
 * layer, pipelined over 3 CTAs (one a layer, dense and output fused), over S
 * sequences of T tokens; the prediction of the next token is the argmax of
 * each token's logits.
 *
 * Sizes (S, T): tiny 1, 4; quick 2, 10; small 6, 10; paper 10, 10 (the
 * paper's 10-token sequences; it gives no count). A layer's four 50 x 100
 * gate matrices are 80 KB: they fit the 128 KB L1 when owned (the spec's
 * point: the other data are a small share). Gate weights in [-6, 6], dense
 * and output weights in [-4, 4], tokens' entries in [-64, 63], from the seed;
 * the host runs the same integer steps and compares every logit.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "base/rng.h"
#include "host/workload.h"
#include "../spandex_app.h"

extern const char wl_ptx_lstm[];

#define H      50
#define G      (4 * H)
#define V      50
#define STAGES 3

static const struct {
    int seqs, tokens;
} lstm_sizes[WL_NSIZES] = {
    [WL_TINY] = {1, 4},
    [WL_QUICK] = {2, 10},
    [WL_SMALL] = {6, 10},
    [WL_PAPER] = {10, 10},
};

static int clampi(int v, int lo, int hi)
{
    return v < lo ? lo : (v > hi ? hi : v);
}

/* One step of a layer, as lstm.cu's lstm_step: in = [x; h], h and c updated. */
static void lstm_step_host(const int *w, int *in, int *c)
{
    int z[G];
    for (int t = 0; t < G; t++) {
        int acc = 0;
        for (int k = 0; k < 2 * H; k++)
            acc += w[k * G + t] * in[k];
        z[t] = acc >> 7;
    }
    for (int t = 0; t < H; t++) {
        int i = clampi((z[t] >> 2) + 64, 0, 128), f = clampi((z[H + t] >> 2) + 64, 0, 128);
        int g = clampi(z[2 * H + t], -128, 128), o = clampi((z[3 * H + t] >> 2) + 64, 0, 128);
        c[t] = clampi((f * c[t] + i * g) >> 7, -512, 512);
        in[H + t] = (o * clampi(c[t], -128, 128)) >> 7;
    }
}

static void lstm_reference(const int *W, const int *D, const int *F, const int *X, int *Y, int T,
                           int M)
{
    int in1[2 * H], in2[2 * H], c1[H], c2[H], d[H];
    for (int m = 0; m < M; m++) {
        if (m % T == 0) {
            memset(c1, 0, sizeof c1), memset(c2, 0, sizeof c2);
            memset(in1 + H, 0, H * sizeof *in1), memset(in2 + H, 0, H * sizeof *in2);
        }
        memcpy(in1, X + (size_t)m * H, H * sizeof *in1);
        lstm_step_host(W, in1, c1);
        memcpy(in2, in1 + H, H * sizeof *in2);
        lstm_step_host(W + 2 * H * G, in2, c2);
        for (int t = 0; t < H; t++) {
            int acc = 0;
            for (int k = 0; k < H; k++)
                acc += D[k * H + t] * in2[H + k];
            d[t] = app_relu_host(acc);
        }
        for (int t = 0; t < V; t++) {
            int acc = 0;
            for (int k = 0; k < H; k++)
                acc += F[k * V + t] * d[k];
            Y[(size_t)m * V + t] = acc >> 7;
        }
    }
}

static int lstm_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    if (p->variant) {
        snprintf(why, why_len, "unknown variant '%s'", p->variant);
        return 1;
    }
    int T = lstm_sizes[p->size].tokens, M = lstm_sizes[p->size].seqs * T;
    size_t wn = 2 * (size_t)2 * H * G, dn = (size_t)H * H, fn = (size_t)H * V;
    size_t xn = (size_t)M * H, yn = (size_t)M * V;
    int *W = malloc(wn * sizeof *W), *D = malloc(dn * sizeof *D), *F = malloc(fn * sizeof *F);
    int *X = malloc(xn * sizeof *X), *Y = malloc(yn * sizeof *Y);
    if (!W || !D || !F || !X || !Y)
        panic("out of memory");
    struct rng r;
    rng_seed(&r, p->seed, 0x4c53544d); /* "LSTM" */
    app_fill(&r, W, wn, -6, 13);
    app_fill(&r, D, dn, -4, 9);
    app_fill(&r, F, fn, -4, 9);
    app_fill(&r, X, xn, -64, 128);

    host_load_ptx(h, wl_ptx_lstm, "workloads/lstm/lstm.ptx");
    addr_t dW = host_malloc(h, wn * sizeof *W), dD = host_malloc(h, dn * sizeof *D);
    addr_t dF = host_malloc(h, fn * sizeof *F), dX = host_malloc(h, xn * sizeof *X);
    addr_t dY = host_malloc(h, yn * sizeof *Y);
    addr_t dbuf = host_malloc(h, (size_t)(STAGES - 1) * 2 * H * sizeof(int));
    addr_t full = app_counters(h, STAGES), taken = app_counters(h, STAGES);
    host_memcpy_to_dev(h, dW, W, wn * sizeof *W);
    host_memcpy_to_dev(h, dD, D, dn * sizeof *D);
    host_memcpy_to_dev(h, dF, F, fn * sizeof *F);
    host_memcpy_to_dev(h, dX, X, xn * sizeof *X);
    struct karg args[] = {KARG_PTR(dW), KARG_PTR(dD),   KARG_PTR(dF),   KARG_PTR(dX),
                          KARG_PTR(dY), KARG_PTR(dbuf), KARG_PTR(full), KARG_PTR(taken),
                          KARG_I32(T),  KARG_I32(M)};
    host_launch(h, "lstm_pipe", DIM1(STAGES), DIM1(256), 0, args, ARRAY_LEN(args));
    lstm_reference(W, D, F, X, Y, T, M);
    int rc = app_compare(h, "lstm logits", dY, Y, yn, why, why_len);
    addr_t dev[] = {dW, dD, dF, dX, dY, dbuf, full, taken};
    for (size_t k = 0; k < ARRAY_LEN(dev); k++)
        host_free(h, dev[k]);
    free(W), free(D), free(F), free(X), free(Y);
    return rc;
}

const struct workload wl_lstm = {
    .name = "lstm",
    .set = "spandex-app",
    .desc = "LSTM: 2 stacked 50-cell layers, dense and output layer, pipelined over 3 CTAs "
            "(spec 003 §4.5)",
    .ptx = wl_ptx_lstm,
    .ptx_file = "workloads/lstm/lstm.ptx",
    .run = lstm_run,
};
