/*
 * conv.c - host driver of conv, Table 5.3's CNN class (AlexNet, GoogLeNet,
 * overfeat, resnet conv layers; spec 004b §5.1): a chain of quantised 3x3
 * convolution layers, one launch each, every layer reading the whole output
 * of the one before (conv.cu).
 *
 * Input activations in [0, 255], weights in [-3, 3], both from the seed;
 * layers keep C channels. The CPU reference runs the same integer layers, so
 * the check is exact.
 * Sizes (side, channels, layers; footprint = activations x 2 + weights):
 * tiny 16, 8, 2 (20 KB); quick and small 32, 16, 3 (155 KB); paper 64, 32, 4
 * (1.2 MB). The thesis's layers are 618 MB-3.2 GB on 4 x 4 GPMs of 3 MB L2
 * each; these keep the property that matters, that every GPM reads the whole
 * input of a layer, at a footprint the scaled machine's 16 x 192 KB of L2
 * holds.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_conv[];

struct conv_size {
    int side, channels, layers;
};
static const struct conv_size conv_sizes[WL_NSIZES] = {
    [WL_TINY] = {16, 8, 2},
    [WL_QUICK] = {32, 16, 3},
    [WL_SMALL] = {32, 16, 3},
    [WL_PAPER] = {64, 32, 4},
};
#define CONV_SHIFT 6

/* One layer on the CPU, as conv_layer computes it. */
static void conv_ref(const int *in, const int *w, int *out, int C, int H, int W)
{
    for (int k = 0; k < C; k++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                int acc = 0;
                for (int c = 0; c < C; c++)
                    for (int dy = -1; dy <= 1; dy++)
                        for (int dx = -1; dx <= 1; dx++) {
                            int yy = y + dy, xx = x + dx;
                            if (yy >= 0 && yy < H && xx >= 0 && xx < W)
                                acc += w[(k * C + c) * 9 + (dy + 1) * 3 + dx + 1] *
                                       in[(c * H + yy) * W + xx];
                        }
                int v = acc > 0 ? acc >> CONV_SHIFT : 0;
                out[(k * H + y) * W + x] = v > 255 ? 255 : v;
            }
}

static int conv_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    const struct conv_size *s = &conv_sizes[p->size];
    int C = s->channels, H = s->side, W = s->side, L = s->layers;
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
    int tiles = ((W + 15) / 16) * ((H + 15) / 16);
    for (int l = 0; l < L; l++) {
        struct karg args[] = {KARG_PTR(d_act[l & 1]), KARG_PTR(d_w + (addr_t)l * wlen * sizeof(int)),
                              KARG_PTR(d_act[1 - (l & 1)]), KARG_I32(C), KARG_I32(H), KARG_I32(W),
                              KARG_I32(CONV_SHIFT)};
        host_launch(h, "conv_layer", DIM3((uint32_t)tiles, (uint32_t)C, 1), DIM3(16, 16, 1), 0,
                    args, ARRAY_LEN(args));
    }
    host_memcpy_from_dev(h, got, d_act[L & 1], act * sizeof(int));

    for (int l = 0; l < L; l++) {
        conv_ref(a, w + (size_t)l * wlen, b, C, H, W);
        int *t = a;
        a = b;
        b = t;
    }
    int rc = 0;
    for (size_t i = 0; i < act && rc == 0; i++)
        if (got[i] != a[i]) {
            snprintf(why, why_len, "conv: channel %zu pixel (%zu,%zu) after %d layers is %d, expected %d",
                     i / ((size_t)H * W), i % (size_t)W, i / (size_t)W % (size_t)H, L, got[i], a[i]);
            rc = 1;
        }
    host_free(h, d_act[0]);
    host_free(h, d_act[1]);
    host_free(h, d_w);
    free(a), free(b), free(got), free(w);
    return rc;
}

const struct workload wl_conv = {
    .name = "conv",
    .set = "mg",
    .desc = "CNN: a chain of quantised 3x3 conv layers, channel-parallel, every GPM reads all input",
    .ptx = wl_ptx_conv,
    .ptx_file = "workloads/conv/conv.ptx",
    .run = conv_run,
};
