/*
 * conv.c - host driver of conv, Table 5.3's CNN class (AlexNet, GoogLeNet,
 * overfeat, resnet conv layers; spec 004b §5.1): a bottleneck-shaped chain
 * of quantised convolution layers, one launch each - a 3x3 layer widening C
 * channels to 4C, a 1x1 layer at 4C, a 1x1 layer narrowing back to C - every
 * layer reading the whole output of the one before (conv.cu).
 *
 * Input activations in [0, 255], weights in [-3, 3], both from the seed. The
 * CPU reference runs the same integer layers, so the check is exact.
 * Sizes (side, C; footprint = the four activation tensors + the weights):
 * tiny 8, 8 (34 KB); quick and small 16, 16 (216 KB); paper 32, 32 (1.5 MB).
 * With 4C = 64 output channels at small, each of the scaled machine's 16
 * GPMs computes 4 channels of the wide layers and so reads their whole input
 * 4 times, as Table 5.3's layers (hundreds of channels, 618 MB-3.2 GB) are
 * read many times by the 32 SMs of each of the thesis's GPMs; the inputs
 * (16-64 KB) fit the scaled GPM's 192 KB of L2, where the thesis's do not fit
 * its 3 MB.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_conv[];

struct conv_size {
    int side, channels;
};
static const struct conv_size conv_sizes[WL_NSIZES] = {
    [WL_TINY] = {8, 8},
    [WL_QUICK] = {16, 16},
    [WL_SMALL] = {16, 16},
    [WL_PAPER] = {32, 32},
};
#define CONV_SHIFT  6
#define CONV_LAYERS 3

/* Layer l: kernel size, input and output channels in units of C. */
static const int conv_ks[CONV_LAYERS] = {3, 1, 1};
static const int conv_cin[CONV_LAYERS] = {1, 4, 4};
static const int conv_cout[CONV_LAYERS] = {4, 4, 1};

/* One layer on the CPU, as conv_layer computes it. */
static void conv_ref(const int *in, const int *w, int *out, int C, int K, int H, int W, int ks)
{
    int r = ks / 2;
    for (int k = 0; k < K; k++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                int acc = 0;
                for (int c = 0; c < C; c++)
                    for (int dy = -r; dy <= r; dy++)
                        for (int dx = -r; dx <= r; dx++) {
                            int yy = y + dy, xx = x + dx;
                            if (yy >= 0 && yy < H && xx >= 0 && xx < W)
                                acc += w[((k * C + c) * ks + dy + r) * ks + dx + r] *
                                       in[(c * H + yy) * W + xx];
                        }
                int v = acc > 0 ? acc >> CONV_SHIFT : 0;
                out[(k * H + y) * W + x] = v > 255 ? 255 : v;
            }
}

/* Variant `first`: conv as first written, before repro/hmg's [calibration
 * conv-input] (commit f285112): a chain of 3x3 layers keeping C channels
 * (conv_layer), side, channels and layers tiny 16, 8, 2; quick and small 32,
 * 16, 3; paper 64, 32, 4. With C output channels each GPM computes about one
 * channel and reads the input once. */
static const struct {
    int side, channels, layers;
} conv_first_sizes[WL_NSIZES] = {
    [WL_TINY] = {16, 8, 2},
    [WL_QUICK] = {32, 16, 3},
    [WL_SMALL] = {32, 16, 3},
    [WL_PAPER] = {64, 32, 4},
};

static int conv_run_first(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    int C = conv_first_sizes[p->size].channels, H = conv_first_sizes[p->size].side, W = H;
    int L = conv_first_sizes[p->size].layers;
    size_t act = (size_t)C * H * W, wlen = (size_t)C * C * 9;
    int *a = calloc(act, sizeof *a), *b = calloc(act, sizeof *b), *got = calloc(act, sizeof *got);
    int *w = calloc(wlen * (size_t)L, sizeof *w);
    if (!a || !b || !got || !w) {
        free(a), free(b), free(got), free(w);
        snprintf(why, why_len, "conv: out of host memory");
        return 1;
    }
    struct rng r;
    rng_seed(&r, p->seed, 0xc0a7);
    for (size_t i = 0; i < act; i++)
        a[i] = (int)rng_below(&r, 256);
    for (size_t i = 0; i < wlen * (size_t)L; i++)
        w[i] = (int)rng_below(&r, 7) - 3;

    host_load_ptx(h, wl_ptx_conv, "workloads/conv/conv.ptx");
    addr_t d_act[2] = {host_malloc(h, act * sizeof(int)), host_malloc(h, act * sizeof(int))};
    addr_t d_w = host_malloc(h, wlen * (size_t)L * sizeof(int));
    host_memcpy_to_dev(h, d_act[0], a, act * sizeof(int));
    host_memcpy_to_dev(h, d_w, w, wlen * (size_t)L * sizeof(int));
    uint32_t tiles = (uint32_t)(((W + 15) / 16) * ((H + 15) / 16));
    for (int l = 0; l < L; l++) {
        struct karg args[] = {KARG_PTR(d_act[l & 1]),
                              KARG_PTR(d_w + (addr_t)l * wlen * sizeof(int)),
                              KARG_PTR(d_act[1 - (l & 1)]),
                              KARG_I32(C),
                              KARG_I32(H),
                              KARG_I32(W),
                              KARG_I32(CONV_SHIFT)};
        host_launch(h, "conv_layer", DIM3(tiles, (uint32_t)C, 1), DIM3(16, 16, 1), 0, args,
                    ARRAY_LEN(args));
    }
    host_memcpy_from_dev(h, got, d_act[L & 1], act * sizeof(int));
    for (int l = 0; l < L; l++) {
        conv_ref(a, w + (size_t)l * wlen, b, C, C, H, W, 3);
        int *t = a;
        a = b;
        b = t;
    }
    int rc = 0;
    for (size_t i = 0; i < act && rc == 0; i++)
        if (got[i] != a[i]) {
            snprintf(why, why_len,
                     "conv: channel %zu pixel (%zu,%zu) after %d layers is %d, expected %d",
                     i / ((size_t)H * W), i % (size_t)W, i / (size_t)W % (size_t)H, L, got[i],
                     a[i]);
            rc = 1;
        }
    host_free(h, d_act[0]);
    host_free(h, d_act[1]);
    host_free(h, d_w);
    free(a), free(b), free(got), free(w);
    return rc;
}

static int conv_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    if (p->variant && !strcmp(p->variant, "first"))
        return conv_run_first(h, p, why, why_len);
    const struct conv_size *s = &conv_sizes[p->size];
    int C = s->channels, H = s->side, W = s->side;
    size_t plane = (size_t)H * W, wlen[CONV_LAYERS], wall = 0;
    for (int l = 0; l < CONV_LAYERS; l++) {
        wlen[l] = (size_t)conv_cin[l] * conv_cout[l] * C * C * conv_ks[l] * conv_ks[l];
        wall += wlen[l];
    }
    /* act[l] is layer l's input; act[CONV_LAYERS] the output */
    int *act[CONV_LAYERS + 1], *w = malloc(wall * sizeof *w), *got = NULL;
    size_t alen[CONV_LAYERS + 1];
    bool ok = w != NULL;
    for (int l = 0; l <= CONV_LAYERS; l++) {
        alen[l] = plane * (size_t)C * (size_t)(l < CONV_LAYERS ? conv_cin[l] : conv_cout[l - 1]);
        act[l] = calloc(alen[l], sizeof(int));
        ok = ok && act[l];
    }
    got = calloc(alen[CONV_LAYERS], sizeof *got);
    if (!ok || !got) {
        for (int l = 0; l <= CONV_LAYERS; l++)
            free(act[l]);
        free(w), free(got);
        snprintf(why, why_len, "conv: out of host memory");
        return 1;
    }
    struct rng r;
    rng_seed(&r, p->seed, 0xc0a7);
    for (size_t i = 0; i < alen[0]; i++)
        act[0][i] = (int)rng_below(&r, 256);
    for (size_t i = 0; i < wall; i++)
        w[i] = (int)rng_below(&r, 7) - 3;

    host_load_ptx(h, wl_ptx_conv, "workloads/conv/conv.ptx");
    addr_t d_act[CONV_LAYERS + 1], d_w = host_malloc(h, wall * sizeof(int));
    for (int l = 0; l <= CONV_LAYERS; l++)
        d_act[l] = host_malloc(h, alen[l] * sizeof(int));
    host_memcpy_to_dev(h, d_act[0], act[0], alen[0] * sizeof(int));
    host_memcpy_to_dev(h, d_w, w, wall * sizeof(int));
    uint32_t tiles = (uint32_t)(((W + 15) / 16) * ((H + 15) / 16));
    size_t woff = 0;
    for (int l = 0; l < CONV_LAYERS; l++) {
        int cin = conv_cin[l] * C, cout = conv_cout[l] * C;
        struct karg args[] = {KARG_PTR(d_act[l]),
                              KARG_PTR(d_w + (addr_t)(woff * sizeof(int))),
                              KARG_PTR(d_act[l + 1]),
                              KARG_I32(cin),
                              KARG_I32(H),
                              KARG_I32(W),
                              KARG_I32(CONV_SHIFT)};
        host_launch(h, conv_ks[l] == 3 ? "conv3_layer" : "conv1_layer",
                    DIM3(tiles, (uint32_t)cout, 1), DIM3(16, 16, 1), 0, args, ARRAY_LEN(args));
        conv_ref(act[l], w + woff, act[l + 1], cin, cout, H, W, conv_ks[l]);
        woff += wlen[l];
    }
    host_memcpy_from_dev(h, got, d_act[CONV_LAYERS], alen[CONV_LAYERS] * sizeof(int));

    const int *want = act[CONV_LAYERS];
    int rc = 0;
    for (size_t i = 0; i < alen[CONV_LAYERS] && rc == 0; i++)
        if (got[i] != want[i]) {
            snprintf(why, why_len,
                     "conv: channel %zu pixel (%zu,%zu) after %d layers is %d, expected %d",
                     i / plane, i % (size_t)W, i / (size_t)W % (size_t)H, CONV_LAYERS, got[i],
                     want[i]);
            rc = 1;
        }
    for (int l = 0; l <= CONV_LAYERS; l++) {
        host_free(h, d_act[l]);
        free(act[l]);
    }
    host_free(h, d_w);
    free(w), free(got);
    return rc;
}

const struct workload wl_conv = {
    .name = "conv",
    .set = "mg",
    .desc = "CNN: 3x3 and 1x1 quantised conv layers, channel-parallel, each GPM re-reads all input",
    .ptx = wl_ptx_conv,
    .ptx_file = "workloads/conv/conv.ptx",
    .run = conv_run,
    .variants = (const char *const[]){"first", NULL},
};
