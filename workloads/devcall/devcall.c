/*
 * devcall.c - host driver of the devcall workload (basic set): a kernel that
 * calls __noinline__ device functions (call/ret with .param passing in the
 * PTX): `rounds` calls of a mixing step per thread, one more when the result
 * is odd, and the final store through a generic pointer inside a callee.
 *
 * Invented to exercise calls; no sharing between threads. Exact check
 * against the same mixing on the host.
 * Sizes (threads x rounds): tiny 512 x 4, small 65536 x 8, paper 1 << 20 x 8
 * (no paper: documented choice). 128-thread CTAs.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>

#include "base/log.h"
#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_devcall[];

#define DEVCALL_THREADS 128u

/* The reference of devcall.cu's mix_step. */
static uint32_t mix_step(uint32_t x, uint32_t k)
{
    x ^= x >> 13;
    x *= 0x5bd1e995u ^ k;
    x ^= x >> 15;
    return x;
}

static int devcall_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    static const uint32_t sizes[WL_NSIZES] = {512, 65536, 65536, 1u << 20};
    static const uint32_t rounds_by_size[WL_NSIZES] = {4, 8, 8, 8};
    if (p->variant) {
        snprintf(why, why_len, "unknown variant '%s'", p->variant);
        return 1;
    }
    uint32_t n = sizes[p->size], rounds = rounds_by_size[p->size];
    uint32_t *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
    panic_if(!in || !out, "out of memory");
    struct rng r;
    rng_seed(&r, p->seed, 0);
    for (uint32_t i = 0; i < n; i++)
        in[i] = (uint32_t)rng_next(&r);

    host_load_ptx(h, wl_ptx_devcall, "workloads/devcall/devcall.ptx");
    addr_t din = host_malloc(h, n * sizeof(uint32_t)), dout = host_malloc(h, n * sizeof(uint32_t));
    host_memcpy_to_dev(h, din, in, n * sizeof(uint32_t));
    host_memset(h, dout, 0, n * sizeof(uint32_t));
    struct karg args[] = {KARG_PTR(din), KARG_PTR(dout), KARG_I32(n), KARG_I32(rounds)};
    host_launch(h, "devcall", DIM1((n + DEVCALL_THREADS - 1) / DEVCALL_THREADS),
                DIM1(DEVCALL_THREADS), 0, args, ARRAY_LEN(args));
    host_memcpy_from_dev(h, out, dout, n * sizeof(uint32_t));

    int rc = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t want = in[i];
        for (uint32_t k = 0; k < rounds; k++)
            want = mix_step(want, k);
        if (want & 1u)
            want = mix_step(want, 99u);
        if (out[i] != want) {
            snprintf(why, why_len, "out[%u]: expected 0x%08x, got 0x%08x", i, want, out[i]);
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

const struct workload wl_devcall = {
    .name = "devcall",
    .set = "basic",
    .desc = "kernel calling __noinline__ device functions (call/ret, param passing)",
    .ptx = wl_ptx_devcall,
    .ptx_file = "workloads/devcall/devcall.ptx",
    .run = devcall_run,
};
