/*
 * spandex_micro.c - the host side that spec 003 §4's microbenchmarks share
 * (workloads/spandex_micro.h): FlexV/S, FlexO/WT, FlexOa/WTa and Prod-Cons,
 * each a workload of its own (set spandex; its .cu says what it does).
 *
 * The paper gives no sizes (spec 003 §7.1). Here: partitions of P words,
 * as many as CTAs (FlexOa/WTa) or half of them (the others: one per "CPU"
 * CTA and one per "GPU" CTA), 128 threads a CTA, `iters` iterations of the
 * phases. Sizes: tiny 8 CTAs, P = 128, 2 iterations; quick 16 CTAs (one per
 * SM of configs/spandex.ini), P = 1024 (4 KB), 4 iterations; small 16, 4096
 * (16 KB, the spec's Prod-Cons partitions), 8; paper 16, 4096, 20. The
 * first half of the CTAs plays the paper's CPU cores (gpucoh has no CPU
 * cores yet), each CTA on its own SM when the machine has as many SMs.
 * Check: the host replays every phase on its own copies and compares every
 * word of the arrays and of FlexV/S's checksums.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "host/workload.h"
#include "../spandex_micro.h"

#define SPX_THREADS 128u

static const char *const kernels[] = {"flexvs", "flexowt", "flexoawta", "prodcons"};

struct dev {
    struct host *h;
    uint32_t nb, P, iters;
    uint32_t *A, *B, *out;      /* the host's replay */
    addr_t dA, dB, dout, dbar;
    size_t a_words, b_words, out_words;
};

static void put(struct dev *d, addr_t a, const uint32_t *v, size_t words)
{
    if (words)
        host_memcpy_to_dev(d->h, a, v, words * 4);
}

/* Compare device array `a` with the replay `want`. */
static int compare(struct dev *d, const char *what, addr_t a, const uint32_t *want, size_t words,
                   char *why, size_t why_len)
{
    if (!words)
        return 0;
    uint32_t *got = malloc(words * 4);
    if (!got)
        panic("out of memory");
    host_memcpy_from_dev(d->h, got, a, words * 4);
    int rc = 0;
    for (size_t k = 0; k < words && !rc; k++)
        if (got[k] != want[k]) {
            snprintf(why, why_len, "%s[%zu]: expected %u, got %u", what, k, want[k], got[k]);
            rc = 1;
        }
    free(got);
    return rc;
}

static void replay_flexvs(struct dev *d)
{
    uint32_t half = d->nb / 2, P = d->P;
    for (uint32_t it = 0; it < d->iters; it++) {
        for (uint32_t c = 0; c < half; c++)
            for (uint32_t t = 0; t < SPX_THREADS; t++) {
                uint32_t sum = 0, bp = (c + it) % half;
                for (uint32_t k = t; k < half * P; k += SPX_THREADS)
                    sum += d->A[k];
                for (uint32_t k = t; k < P; k += SPX_THREADS)
                    sum += d->B[bp * P + k];
                d->out[(it * d->nb + c) * SPX_THREADS + t] = sum;
            }
        for (uint32_t g = 0; g < half; g++) {
            for (uint32_t j = 0; j < P / 16; j++)
                d->A[g * P + j * 16 + (it + g) % 16] = it * 1000u + g;
            for (uint32_t k = 0; k < P; k++)
                d->B[g * P + k] += 1u;
        }
    }
}

static void replay_flexowt(struct dev *d)
{
    uint32_t half = d->nb / 2, P = d->P;
    for (uint32_t it = 0; it < d->iters; it++) {
        for (uint32_t c = 0; c < half; c++) {
            for (uint32_t k = 0; k < P; k++)
                d->A[c * P + k] += 1u;
            for (uint32_t j = 0; j < P / 16; j++)
                d->B[(c + it) % half * P + j * 16 + it % 16] = 7u * it + c;
        }
        for (uint32_t g = 0; g < half; g++) {
            for (uint32_t k = 0; k < P; k++)
                d->B[g * P + k] += 1u;
            for (uint32_t j = 0; j < P / 16; j++)
                d->A[(g + it) % half * P + j * 16 + it % 16] = 5u * it + g;
        }
    }
}

static void replay_flexoawta(struct dev *d)
{
    uint32_t n = d->nb, P = d->P;
    for (uint32_t it = 0; it < d->iters; it++)
        for (uint32_t i = 0; i < n; i++) {
            for (uint32_t k = 0; k < P; k++)
                d->A[i * P + k] += 1u;
            for (uint32_t j = 0; j < P / 16; j++)
                d->A[(i + 1 + it) % n * P + j * 16 + (it + i) % 16] += 1u;
        }
}

static void replay_prodcons(struct dev *d)
{
    uint32_t half = d->nb / 2, P = d->P;
    for (uint32_t it = 0; it < d->iters; it++) {
        for (uint32_t c = 0; c < half * P; c++)
            d->B[c] = d->A[c] + 1u;
        for (uint32_t c = 0; c < half * P; c++)
            d->A[c] = d->B[c] * 3u;
    }
}

/* One benchmark: inputs, the kernel, the replay, the check. */
static int run_one(struct dev *d, unsigned which, char *why, size_t why_len)
{
    uint32_t half = d->nb / 2;
    d->a_words = (size_t)(which == 2 ? d->nb : half) * d->P;
    d->b_words = which == 2 ? 0 : (size_t)half * d->P;
    d->out_words = which == 0 ? (size_t)d->iters * d->nb * SPX_THREADS : 0;
    d->A = calloc(d->a_words, 4);
    d->B = calloc(d->b_words + 1, 4);
    d->out = calloc(d->out_words + 1, 4);
    if (!d->A || !d->B || !d->out)
        panic("out of memory");
    for (size_t k = 0; k < d->a_words; k++)
        d->A[k] = (uint32_t)(k * 2654435761u >> 7);
    for (size_t k = 0; k < d->b_words; k++)
        d->B[k] = (uint32_t)k;
    d->dA = host_malloc(d->h, d->a_words * 4);
    d->dB = host_malloc(d->h, (d->b_words + 1) * 4);
    d->dout = host_malloc(d->h, (d->out_words + 1) * 4);
    d->dbar = host_malloc(d->h, 256); /* count and generation a line apart */
    put(d, d->dA, d->A, d->a_words);
    put(d, d->dB, d->B, d->b_words);
    host_memset(d->h, d->dbar, 0, 256);
    host_memset(d->h, d->dout, 0, (d->out_words + 1) * 4);
    struct karg args[6];
    unsigned n = 0;
    args[n++] = KARG_PTR(d->dA);
    if (which != 2)
        args[n++] = KARG_PTR(d->dB);
    if (which == 0)
        args[n++] = KARG_PTR(d->dout);
    args[n++] = KARG_PTR(d->dbar);
    args[n++] = KARG_I32(d->P);
    args[n++] = KARG_I32(d->iters);
    host_launch(d->h, kernels[which], DIM1(d->nb), DIM1(SPX_THREADS), 0, args, n);
    void (*const replay[])(struct dev *) = {replay_flexvs, replay_flexowt, replay_flexoawta,
                                            replay_prodcons};
    replay[which](d);
    char what[32];
    snprintf(what, sizeof what, "%s A", kernels[which]);
    int rc = compare(d, what, d->dA, d->A, d->a_words, why, why_len);
    snprintf(what, sizeof what, "%s B", kernels[which]);
    if (!rc)
        rc = compare(d, what, d->dB, d->B, d->b_words, why, why_len);
    snprintf(what, sizeof what, "%s checksum", kernels[which]);
    if (!rc)
        rc = compare(d, what, d->dout, d->out, d->out_words, why, why_len);
    host_free(d->h, d->dA);
    host_free(d->h, d->dB);
    host_free(d->h, d->dout);
    host_free(d->h, d->dbar);
    free(d->A);
    free(d->B);
    free(d->out);
    return rc;
}

int spandex_micro_run(struct host *h, const struct wl_params *p, enum spandex_micro which,
                      const char *ptx, const char *ptx_file, char *why, size_t why_len)
{
    static const uint32_t ctas[WL_NSIZES] = {8, 16, 16, 16}, words[WL_NSIZES] = {128, 1024, 4096,
                                                                                   4096},
                          iters[WL_NSIZES] = {2, 4, 8, 20};
    if (p->variant) {
        snprintf(why, why_len, "unknown variant '%s'", p->variant);
        return 1;
    }
    host_load_ptx(h, ptx, ptx_file);
    struct dev d = {.h = h, .nb = ctas[p->size], .P = words[p->size], .iters = iters[p->size]};
    return run_one(&d, which, why, why_len);
}
