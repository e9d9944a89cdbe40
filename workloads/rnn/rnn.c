/*
 * rnn.c - host driver of rnn, Table 5.3's RNN/LSTM class (RNN_FW, lstm;
 * spec 004b §5.1): T dependent time steps of a quantised recurrent layer over
 * a batch of B, one launch each, reusing one read-only weight matrix
 * (rnn.cu).
 *
 * Weights in [-4, 4], inputs x_t in [-32, 31], h_0 = 0, from the seed. The
 * CPU reference runs the same integer steps: exact check of h_T.
 * Sizes (hidden H, batch B, steps T; footprint = H^2 weights + T B H inputs +
 * 2 B H words): tiny 64, 4, 4 (22 KB); quick and small 128, 16, 16 (208 KB);
 * paper 512, 16, 32 (2.1 MB). At small every GPM reads all 64 KB of the
 * weights at every step, a third of its 192 KB of L2; the thesis's RNN layers
 * (29-40 MB) are a similar share of its 48 MB. A first choice, H = 256 and
 * B = 8, gave each GPM 128 KB of weights whose 1 KB stride used half the L2's
 * sets: the cyclic reads then missed every time, in any design. Variant
 * `first` keeps that choice (H 256, B 8, T 8 at quick and small; tiny and
 * paper as above): repro/hmg's [calibration rnn-input] undone.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_rnn[];

struct rnn_size {
    int hidden, batch, steps;
};
static const struct rnn_size rnn_sizes[WL_NSIZES] = {
    [WL_TINY] = {64, 4, 4},
    [WL_QUICK] = {128, 16, 16},
    [WL_SMALL] = {128, 16, 16},
    [WL_PAPER] = {512, 16, 32},
};

static const struct rnn_size rnn_first_sizes[WL_NSIZES] = {
    [WL_TINY] = {64, 4, 4},
    [WL_QUICK] = {256, 8, 8},
    [WL_SMALL] = {256, 8, 8},
    [WL_PAPER] = {512, 16, 32},
};

static int rnn_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    bool first = p->variant && !strcmp(p->variant, "first");
    const struct rnn_size *s = first ? &rnn_first_sizes[p->size] : &rnn_sizes[p->size];
    int H = s->hidden, B = s->batch, T = s->steps, BH = B * H;
    size_t wl = (size_t)H * H, xl = (size_t)T * BH;
    int *wt = malloc(wl * sizeof *wt), *x = malloc(xl * sizeof *x);
    int *hv = calloc((size_t)BH, sizeof *hv), *hn = calloc((size_t)BH, sizeof *hn);
    int *got = calloc((size_t)BH, sizeof *got);
    if (!wt || !x || !hv || !hn || !got) {
        free(wt), free(x), free(hv), free(hn), free(got);
        snprintf(why, why_len, "rnn: out of host memory");
        return 1;
    }
    struct rng r;
    rng_seed(&r, p->seed, 0x724e4e); /* "rNN" */
    for (size_t i = 0; i < wl; i++)
        wt[i] = (int)rng_below(&r, 9) - 4;
    for (size_t i = 0; i < xl; i++)
        x[i] = (int)rng_below(&r, 64) - 32;

    host_load_ptx(h, wl_ptx_rnn, "workloads/rnn/rnn.ptx");
    addr_t d_w = host_malloc(h, wl * sizeof(int)), d_x = host_malloc(h, xl * sizeof(int));
    size_t hb = (size_t)BH * sizeof(int);
    addr_t d_h[2] = {host_malloc(h, hb), host_malloc(h, hb)};
    host_memcpy_to_dev(h, d_w, wt, wl * sizeof(int));
    host_memcpy_to_dev(h, d_x, x, xl * sizeof(int));
    host_memset(h, d_h[0], 0, hb);
    for (int t = 0; t < T; t++) {
        struct karg args[] = {KARG_PTR(d_w), KARG_PTR(d_h[t & 1]),
                              KARG_PTR(d_x + (addr_t)t * (addr_t)hb), KARG_PTR(d_h[1 - (t & 1)]),
                              KARG_I32(H)};
        host_launch(h, "rnn_step", DIM3((uint32_t)H / 64, (uint32_t)B, 1), DIM1(64), 0, args,
                    ARRAY_LEN(args));
    }
    host_memcpy_from_dev(h, got, d_h[T & 1], hb);

    for (int t = 0; t < T; t++) {
        for (int b = 0; b < B; b++)
            for (int i = 0; i < H; i++) {
                int acc = 0;
                for (int j = 0; j < H; j++)
                    acc += wt[(size_t)j * H + i] * hv[b * H + j];
                int v = (acc >> 7) + x[(size_t)t * BH + b * H + i];
                hn[b * H + i] = v < -128 ? -128 : (v > 127 ? 127 : v);
            }
        memcpy(hv, hn, hb);
    }
    int rc = 0;
    for (int i = 0; i < BH && rc == 0; i++)
        if (got[i] != hv[i]) {
            snprintf(why, why_len, "rnn: h[%d][%d] after %d steps is %d, expected %d", i / H, i % H,
                     T, got[i], hv[i]);
            rc = 1;
        }
    host_free(h, d_w);
    host_free(h, d_x);
    host_free(h, d_h[0]);
    host_free(h, d_h[1]);
    free(wt), free(x), free(hv), free(hn), free(got);
    return rc;
}

const struct workload wl_rnn = {
    .name = "rnn",
    .set = "mg",
    .desc = "RNN: dependent time-step kernels over a batch, all GPMs reusing one weight matrix",
    .ptx = wl_ptx_rnn,
    .ptx_file = "workloads/rnn/rnn.ptx",
    .run = rnn_run,
    .variants = (const char *const[]){"first", NULL},
};
