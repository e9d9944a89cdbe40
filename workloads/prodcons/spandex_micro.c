/*
 * spandex_micro.c - the host side that spec 003 §4's microbenchmarks share
 * (workloads/spandex_micro.h): FlexV/S, FlexO/WT, FlexOa/WTa and Prod-Cons,
 * each a workload of its own (set spandex; its .cu says what it does).
 *
 * The paper gives no sizes (spec 003 §7.1). Here: n CPU threads (one per
 * CPU core) and n GPU CTAs of 128 threads, launched together (FlexOa/WTa:
 * the n CTAs alone), partitions of P words, one per thread or CTA of each
 * side, `iters` iterations of the phases, which synchronise through flags
 * (spandex_micro.cuh). Sizes: tiny n = 4, P = 128, 2 iterations; quick 16
 * (every CPU core and SM of configs/spandex.ini), 512 (2 KB: FlexV/S's A
 * is the spec's 32 KB), 4; small 16, 1024, 8; paper 16, 4096 (16 KB, the
 * spec's Prod-Cons partitions), 20. With fewer than n CPU cores (none, or
 * the functional mode, which runs one kernel at a time) the phases run one
 * kernel each, the CPU's on the GPU as n CTAs of one thread, so that the
 * benchmarks run and check on every machine.
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

/* Each benchmark's kernels: CPU side (NULL: none) and GPU side. */
static const char *const names[] = {"flexvs", "flexowt", "flexoawta", "prodcons"};
static const char *const cpu_kernels[] = {"flexvs_cpu", "flexowt_cpu", NULL, "prodcons_cpu"};
static const char *const gpu_kernels[] = {"flexvs_gpu", "flexowt_gpu", "flexoawta", "prodcons_gpu"};

struct dev {
    struct host *h;
    uint32_t n, P, iters;  /* threads (CTAs) per side, partition words */
    uint32_t *A, *B, *out; /* the host's replay */
    addr_t dA, dB, dout, dflags;
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
    uint32_t n = d->n, P = d->P;
    for (uint32_t it = 0; it < d->iters; it++) {
        for (uint32_t c = 0; c < n; c++) {
            uint32_t sum = 0, bp = (c + it) % n;
            for (uint32_t k = 0; k < n * P; k++)
                sum += d->A[k];
            for (uint32_t k = 0; k < P; k++)
                sum += d->B[bp * P + k];
            d->out[it * n + c] = sum;
        }
        for (uint32_t g = 0; g < n; g++) {
            for (uint32_t j = 0; j * 256 < P; j++)
                d->A[g * P + (j * 16 + (it + g) % 16) % (P / 16) * 16 + (it + g) % 16] =
                    it * 1000u + g;
            for (uint32_t k = 0; k < P; k++)
                d->B[g * P + k] += 1u;
        }
    }
}

static void replay_flexowt(struct dev *d)
{
    uint32_t n = d->n, P = d->P;
    for (uint32_t it = 0; it < d->iters; it++) {
        for (uint32_t c = 0; c < n; c++) {
            for (uint32_t k = 0; k < P; k++)
                d->A[c * P + k] += 1u;
            for (uint32_t j = 0; j < P / 16; j++)
                d->B[(c + it) % n * P + j * 16 + it % 16] = 7u * it + c;
        }
        for (uint32_t g = 0; g < n; g++) {
            for (uint32_t k = 0; k < P; k++)
                d->B[g * P + k] += 1u;
            for (uint32_t j = 0; j < P / 16; j++)
                d->A[(g + it) % n * P + j * 16 + it % 16] = 5u * it + g;
        }
    }
}

static void replay_flexoawta(struct dev *d)
{
    uint32_t n = d->n, P = d->P;
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
    uint32_t n = d->n, P = d->P;
    for (uint32_t it = 0; it < d->iters; it++) {
        for (uint32_t c = 0; c < n * P; c++)
            d->B[c] = d->A[c] + 1u;
        for (uint32_t c = 0; c < n * P; c++)
            d->A[c] = d->B[c] * 3u;
    }
}

/* Iterations it0 .. iters - 1 of both sides: the CPU side on the CPU cores
 * together with the GPU side, or (!together) before it on the GPU, one CTA
 * of one thread per CPU thread. */
static void launch_phases(struct dev *d, unsigned which, bool together, uint32_t it0,
                          uint32_t iters)
{
    struct karg args[7];
    unsigned n = 0;
    args[n++] = KARG_PTR(d->dA);
    if (which != SPXM_FLEXOAWTA)
        args[n++] = KARG_PTR(d->dB);
    unsigned out_at = n;
    if (which == SPXM_FLEXVS)
        args[n++] = KARG_PTR(d->dout);
    args[n++] = KARG_PTR(d->dflags);
    args[n++] = KARG_I32(d->P);
    args[n++] = KARG_I32(it0);
    args[n++] = KARG_I32(iters);
    if (cpu_kernels[which])
        host_launch_on(d->h, together ? HOST_CPU : HOST_GPU, together, cpu_kernels[which],
                       DIM1(d->n), DIM1(1), 0, args, n);
    if (which == SPXM_FLEXVS) { /* the GPU side has no `out` */
        memmove(&args[out_at], &args[out_at + 1], (n - out_at - 1) * sizeof *args);
        n--;
    }
    host_launch_on(d->h, HOST_GPU, false, gpu_kernels[which], DIM1(d->n), DIM1(SPX_THREADS), 0,
                   args, n);
}

/* One benchmark: inputs, the kernels, the replay, the check. */
static int run_one(struct dev *d, unsigned which, char *why, size_t why_len)
{
    d->a_words = (size_t)d->n * d->P;
    d->b_words = which == SPXM_FLEXOAWTA ? 0 : (size_t)d->n * d->P;
    d->out_words = which == SPXM_FLEXVS ? (size_t)d->iters * d->n : 0;
    d->A = calloc(d->a_words, 4);
    d->B = calloc(d->b_words + 1, 4);
    d->out = calloc(d->out_words + 1, 4);
    if (!d->A || !d->B || !d->out)
        panic("out of memory");
    for (size_t k = 0; k < d->a_words; k++)
        d->A[k] = (uint32_t)(k * 2654435761u >> 7);
    for (size_t k = 0; k < d->b_words; k++)
        d->B[k] = (uint32_t)k;
    size_t flag_bytes = (size_t)2 * d->n * 64; /* a line per participant */
    d->dA = host_malloc(d->h, d->a_words * 4);
    d->dB = host_malloc(d->h, (d->b_words + 1) * 4);
    d->dout = host_malloc(d->h, (d->out_words + 1) * 4);
    d->dflags = host_malloc(d->h, flag_bytes);
    put(d, d->dA, d->A, d->a_words);
    put(d, d->dB, d->B, d->b_words);
    host_memset(d->h, d->dflags, 0, flag_bytes);
    host_memset(d->h, d->dout, 0, (d->out_words + 1) * 4);
    bool together = host_cpu_cores(d->h) >= d->n;
    if (!cpu_kernels[which] || together)
        launch_phases(d, which, together, 0, d->iters);
    else /* no CPU cores: the phases one after the other, the CPU's on the GPU */
        for (uint32_t it = 0; it < d->iters; it++)
            launch_phases(d, which, false, it, it + 1);
    void (*const replay[])(struct dev *) = {replay_flexvs, replay_flexowt, replay_flexoawta,
                                            replay_prodcons};
    replay[which](d);
    char what[32];
    snprintf(what, sizeof what, "%s A", names[which]);
    int rc = compare(d, what, d->dA, d->A, d->a_words, why, why_len);
    snprintf(what, sizeof what, "%s B", names[which]);
    if (!rc)
        rc = compare(d, what, d->dB, d->B, d->b_words, why, why_len);
    snprintf(what, sizeof what, "%s checksum", names[which]);
    if (!rc)
        rc = compare(d, what, d->dout, d->out, d->out_words, why, why_len);
    host_free(d->h, d->dA);
    host_free(d->h, d->dB);
    host_free(d->h, d->dout);
    host_free(d->h, d->dflags);
    free(d->A);
    free(d->B);
    free(d->out);
    return rc;
}

int spandex_micro_run(struct host *h, const struct wl_params *p, enum spandex_micro which,
                      const char *ptx, const char *ptx_file, char *why, size_t why_len)
{
    static const uint32_t side[WL_NSIZES] = {4, 16, 16, 16},
                          words[WL_NSIZES] = {128, 512, 1024, 4096},
                          iters[WL_NSIZES] = {2, 4, 8, 20};
    struct dev d = {.h = h, .n = side[p->size], .P = words[p->size], .iters = iters[p->size]};
    if (p->variant && which == SPXM_FLEXVS && !strcmp(p->variant, "prop")) {
        /* FlexV/S at spec 003 §4.1's proposed proportions (its [PROP]: A read
         * whole by every CPU, 4 times a CPU's partition of B; at quick A 32 KB
         * and B's partitions 8 KB, as proposed) with the same kernels: 4
         * participants a side, A of the size's n P words, partitions of B a
         * quarter of that. An ablation of the weight of B (repro/spandex). */
        d.P = d.n * d.P / 4;
        d.n = 4;
    } else if (p->variant) {
        snprintf(why, why_len, "unknown variant '%s'", p->variant);
        return 1;
    }
    host_load_ptx(h, ptx, ptx_file);
    return run_one(&d, which, why, why_len);
}
