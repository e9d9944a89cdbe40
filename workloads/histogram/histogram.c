/*
 * histogram.c - host driver of the histogram workload (basic set): a
 * 256-bin histogram of n bytes, grid-stride loop.
 *
 * Default: per-CTA bins in shared memory (shared atomics), merged into the
 * global bins with one global atomicAdd per non-empty bin. Variant "global":
 * every byte is a global atomicAdd. Stands for the CUDA samples'
 * histogram256 (paper size: its 64 MiB input on 240 CTAs of 192 threads).
 * Input: half the bytes uniform, half from 8 hot bins, so that atomics to
 * the same bin collide within warps and across CTAs. Exact check per bin.
 * Sizes: tiny 4096 bytes on 4 CTAs x 128, small 1 << 18 on 16 x 256,
 * paper 64 MiB on 240 x 192.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_histogram[];

#define HISTO_BINS 256u

static int histogram_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    static const uint32_t sizes[WL_NSIZES] = {4096, 1u << 18, 1u << 18, 64u << 20};
    static const uint32_t ctas[WL_NSIZES] = {4, 16, 16, 240};
    static const uint32_t threads[WL_NSIZES] = {128, 256, 256, 192};
    const char *kernel;
    if (!p->variant) {
        kernel = "histo_shared";
    } else if (strcmp(p->variant, "global") == 0) {
        kernel = "histo_global";
    } else {
        snprintf(why, why_len, "unknown variant '%s'", p->variant);
        return 1;
    }
    uint32_t n = sizes[p->size];
    uint8_t *data = malloc(n);
    panic_if(!data, "out of memory");
    uint32_t want[HISTO_BINS] = {0}, got[HISTO_BINS];
    struct rng r;
    rng_seed(&r, p->seed, 0);
    for (uint32_t i = 0; i < n; i++) {
        uint64_t v = rng_next(&r);
        data[i] = (v & 1) ? (uint8_t)(v >> 8) : (uint8_t)(((v >> 8) & 7u) * 32u);
        want[data[i]]++;
    }

    host_load_ptx(h, wl_ptx_histogram, "workloads/histogram/histogram.ptx");
    addr_t ddata = host_malloc(h, n), dbins = host_malloc(h, sizeof got);
    host_memcpy_to_dev(h, ddata, data, n);
    host_memset(h, dbins, 0, sizeof got);
    struct karg args[] = {KARG_PTR(ddata), KARG_I32(n), KARG_PTR(dbins)};
    host_launch(h, kernel, DIM1(ctas[p->size]), DIM1(threads[p->size]), 0, args, ARRAY_LEN(args));
    host_memcpy_from_dev(h, got, dbins, sizeof got);

    int rc = 0;
    for (uint32_t b = 0; b < HISTO_BINS; b++) {
        if (got[b] != want[b]) {
            snprintf(why, why_len, "bin %u: expected %u, got %u", b, want[b], got[b]);
            rc = 1;
            break;
        }
    }
    host_free(h, ddata);
    host_free(h, dbins);
    free(data);
    return rc;
}

const struct workload wl_histogram = {
    .name = "histogram",
    .set = "basic",
    .desc = "256-bin byte histogram: shared-memory atomics merged by global atomics "
            "(variant global: global atomics only)",
    .ptx = wl_ptx_histogram,
    .ptx_file = "workloads/histogram/histogram.ptx",
    .run = histogram_run,
    .variants = (const char *const[]){"global", NULL},
};
