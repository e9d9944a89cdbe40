/*
 * ndl.c - host driver of NDL (Needleman-Wunsch), intra-workgroup set of the
 * Temporal Coherence (HPCA 2013, Table 3) and RCC (Ren thesis, Table 3.4)
 * studies.
 *
 * Global alignment of two random sequences of length n over a 24-letter
 * alphabet (after Rodinia's nw): the score matrix is filled tile diagonal by
 * tile diagonal, one launch each (2n/16 - 1 launches, ndl.cu). The TC paper
 * notes this streaming pattern prefers a short lease (an effectively
 * disabled L1). The substitution table is ours: symmetric, generated from
 * the seed with BLOSUM-like ranges (+4..+11 on the diagonal, -4..+2 off it).
 * The CPU reference fills the same matrix; integers compare exactly.
 * Sizes: tiny n = 128; quick n = 512; paper n = 2048, gap penalty 10
 * (Rodinia's default run).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>

#include "base/log.h"
#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_ndl[];

#define NDL_TILE    16
#define NDL_ALPHA   24
#define NDL_PENALTY 10

static const int ndl_sizes[WL_NSIZES] = {
    [WL_TINY] = 128,
    [WL_QUICK] = 512,
    [WL_SMALL] = 2048, /* small is paper: larger than the L2 */
    [WL_PAPER] = 2048,
};

static void *ndl_alloc(size_t n)
{
    void *p = calloc(1, n);
    if (!p)
        fatal("ndl: out of host memory (%zu bytes)", n);
    return p;
}

static int ndl_max3(int a, int b, int c)
{
    int m = a > b ? a : b;
    return m > c ? m : c;
}

static int ndl_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    if (p->variant) {
        snprintf(why, why_len, "ndl: unknown variant '%s' (none defined)", p->variant);
        return 1;
    }
    int n = ndl_sizes[p->size], cols = n + 1, ntiles = n / NDL_TILE;
    size_t cells = (size_t)cols * cols, bytes = cells * sizeof(int);

    int sub[NDL_ALPHA][NDL_ALPHA];
    struct rng r;
    rng_seed(&r, p->seed, 0x4e444c); /* "NDL" */
    for (int a = 0; a < NDL_ALPHA; a++) {
        sub[a][a] = 4 + (int)rng_below(&r, 8);
        for (int b = 0; b < a; b++)
            sub[a][b] = sub[b][a] = -4 + (int)rng_below(&r, 7);
    }
    int *seq1 = ndl_alloc((size_t)cols * sizeof(int)),
        *seq2 = ndl_alloc((size_t)cols * sizeof(int));
    for (int i = 1; i <= n; i++) {
        seq1[i] = (int)rng_below(&r, NDL_ALPHA);
        seq2[i] = (int)rng_below(&r, NDL_ALPHA);
    }
    int *ref = ndl_alloc(bytes), *score = ndl_alloc(bytes), *got = ndl_alloc(bytes);
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= n; j++)
            ref[(size_t)i * cols + j] = sub[seq1[i]][seq2[j]];
    for (int i = 0; i <= n; i++) {
        score[(size_t)i * cols] = -i * NDL_PENALTY;
        score[i] = -i * NDL_PENALTY;
    }

    host_load_ptx(h, wl_ptx_ndl, "workloads/ndl/ndl.ptx");
    addr_t d_score = host_malloc(h, bytes), d_ref = host_malloc(h, bytes);
    host_memcpy_to_dev(h, d_score, score, bytes);
    host_memcpy_to_dev(h, d_ref, ref, bytes);
    for (int diag = 0; diag < 2 * ntiles - 1; diag++) {
        int nblocks = diag < ntiles ? diag + 1 : 2 * ntiles - 1 - diag;
        struct karg a[] = {KARG_PTR(d_score),     KARG_PTR(d_ref), KARG_I32(cols),
                           KARG_I32(NDL_PENALTY), KARG_I32(diag),  KARG_I32(ntiles)};
        host_launch(h, "ndl_tile", DIM1((uint32_t)nblocks), DIM1(NDL_TILE), 0, a, ARRAY_LEN(a));
    }
    host_memcpy_from_dev(h, got, d_score, bytes);

    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= n; j++) {
            size_t me = (size_t)i * cols + j;
            score[me] = ndl_max3(score[me - cols - 1] + ref[me], score[me - 1] - NDL_PENALTY,
                                 score[me - cols] - NDL_PENALTY);
        }
    int rc = 0;
    for (size_t i = 0; i < cells && rc == 0; i++) {
        if (got[i] != score[i]) {
            snprintf(why, why_len, "ndl: score[%zu][%zu] expected %d got %d", i / (size_t)cols,
                     i % (size_t)cols, score[i], got[i]);
            rc = 1;
        }
    }
    host_free(h, d_score);
    host_free(h, d_ref);
    free(seq1);
    free(seq2);
    free(ref);
    free(score);
    free(got);
    return rc;
}

const struct workload wl_ndl = {
    .name = "ndl",
    .set = "intra",
    .desc = "Needleman-Wunsch: tile-diagonal wavefront, one launch per diagonal (Rodinia)",
    .ptx = wl_ptx_ndl,
    .ptx_file = "workloads/ndl/ndl.ptx",
    .run = ndl_run,
};
