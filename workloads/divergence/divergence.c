/*
 * divergence.c - host driver of the divergence workload (basic set): a
 * divergent loop nest, one thread per input word, 128-thread CTAs.
 *
 * Each thread's outer trip count (0..15), branch directions, inner trip
 * counts, continue and break all depend on its own random input word, so
 * every warp splits and reconverges many times. No sharing between threads.
 * Invented to exercise SIMT divergence and reconvergence; the host mirrors
 * the loop nest in 32-bit unsigned arithmetic and the check is exact.
 * Sizes: tiny 1024, small 65536, paper 1 << 20 (no paper: documented choice).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>

#include "base/log.h"
#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_divergence[];

#define DIVERGENCE_THREADS 128u

/* The reference of divergence.cu's per-thread loop nest. */
static uint32_t divergence_ref(uint32_t v)
{
    uint32_t acc = v;
    uint32_t outer = v & 15u;
    for (uint32_t j = 0; j < outer; j++) {
        if ((v >> j) & 1u) {
            uint32_t inner = ((v >> 8) + j) & 7u;
            for (uint32_t k = 0; k <= inner; k++)
                acc = acc * 31u + (k ^ j);
        } else {
            acc ^= j * v;
            if (acc & 1u)
                continue;
            acc += 7u;
        }
        if (acc > 0xf0000000u)
            break;
    }
    return acc;
}

static int divergence_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    static const uint32_t sizes[WL_NSIZES] = {1024, 65536, 65536, 1u << 20};
    if (p->variant) {
        snprintf(why, why_len, "unknown variant '%s'", p->variant);
        return 1;
    }
    uint32_t n = sizes[p->size];
    uint32_t *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
    panic_if(!in || !out, "out of memory");
    struct rng r;
    rng_seed(&r, p->seed, 0);
    for (uint32_t i = 0; i < n; i++)
        in[i] = (uint32_t)rng_next(&r);

    host_load_ptx(h, wl_ptx_divergence, "workloads/divergence/divergence.ptx");
    addr_t din = host_malloc(h, n * sizeof(uint32_t)), dout = host_malloc(h, n * sizeof(uint32_t));
    host_memcpy_to_dev(h, din, in, n * sizeof(uint32_t));
    host_memset(h, dout, 0, n * sizeof(uint32_t));
    struct karg args[] = {KARG_PTR(din), KARG_PTR(dout), KARG_I32(n)};
    host_launch(h, "divergence", DIM1((n + DIVERGENCE_THREADS - 1) / DIVERGENCE_THREADS),
                DIM1(DIVERGENCE_THREADS), 0, args, ARRAY_LEN(args));
    host_memcpy_from_dev(h, out, dout, n * sizeof(uint32_t));

    int rc = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t want = divergence_ref(in[i]);
        if (out[i] != want) {
            snprintf(why, why_len, "out[%u] (input 0x%08x): expected 0x%08x, got 0x%08x", i, in[i],
                     want, out[i]);
            rc = 1;
            break;
        }
    }
    host_free(h, din);
    host_free(h, dout);
    free(in);
    free(out);
    return rc;
}

const struct workload wl_divergence = {
    .name = "divergence",
    .set = "basic",
    .desc = "data-dependent divergent loop nest (if/else, continue, break, inner loop)",
    .ptx = wl_ptx_divergence,
    .ptx_file = "workloads/divergence/divergence.ptx",
    .run = divergence_run,
};
