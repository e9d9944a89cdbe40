/*
 * mp.c - host driver of the mp workload (basic set): message passing between
 * CTA pairs through a device-scope flag.
 *
 * CTA 2p writes message p (`words` words, plain stores) and raises flag p;
 * CTA 2p+1 reads the message once before the flag (keeping the old copy in
 * its L1 where the protocol allows), spins on the flag, and reads it again.
 * Default: flag store(release) / load(acquire) - the consumer must see the
 * whole new message. Variant "nofence": relaxed flag accesses, no fences -
 * a racy program that a machine may legitimately break (stale L1 hits,
 * reordered stores); the functional mode, sequentially consistent, still
 * passes it. The classic MP litmus shape (Alglave et al., ASPLOS 2015) at
 * message size.
 * Variant "sys": the default at system scope (st.release.sys, ld.acquire.sys).
 * The default flag is .gpu-scoped, which is all a kernel on one GPU needs; on
 * a machine of several GPUs a kernel's CTAs span them (docs/multi-gpu.md), a
 * pair may be split over two GPUs, and PTX's scoped model then lets the
 * consumer spin on its own GPU's copy of the flag for ever (sw-h does).
 * Check: every word read after the flag is the new value; every word read
 * before it is the old or the new value.
 * Sizes (pairs x words): tiny 2 x 32, small 16 x 64, paper 64 x 32 (no
 * paper: documented choice). One 32-thread CTA each; thread 0 works.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "base/rng.h"
#include "host/workload.h"

extern const char wl_ptx_mp[];

#define MP_FLAG_STRIDE 32u /* words between flags: must match mp.cu */

static int mp_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)
{
    static const uint32_t pairs_by_size[WL_NSIZES] = {2, 16, 16, 64};
    static const uint32_t words_by_size[WL_NSIZES] = {32, 64, 64, 32};
    const char *kernel;
    if (!p->variant)
        kernel = "mp_acqrel";
    else if (strcmp(p->variant, "nofence") == 0)
        kernel = "mp_relaxed";
    else if (strcmp(p->variant, "sys") == 0)
        kernel = "mp_acqrel_sys";
    else {
        snprintf(why, why_len, "unknown variant '%s'", p->variant);
        return 1;
    }
    uint32_t pairs = pairs_by_size[p->size], words = words_by_size[p->size];
    uint32_t n = pairs * words;
    size_t bytes = n * sizeof(uint32_t), flag_bytes = pairs * MP_FLAG_STRIDE * sizeof(uint32_t);
    uint32_t *src = malloc(bytes), *old = malloc(bytes), *early = malloc(bytes);
    uint32_t *out = malloc(bytes);
    panic_if(!src || !old || !early || !out, "out of memory");
    struct rng r;
    rng_seed(&r, p->seed, 0);
    for (uint32_t i = 0; i < n; i++) {
        src[i] = (uint32_t)rng_next(&r);
        old[i] = ~src[i];
    }

    host_load_ptx(h, wl_ptx_mp, "workloads/mp/mp.ptx");
    addr_t dsrc = host_malloc(h, bytes), ddata = host_malloc(h, bytes);
    addr_t dflags = host_malloc(h, flag_bytes), dearly = host_malloc(h, bytes);
    addr_t dout = host_malloc(h, bytes);
    host_memcpy_to_dev(h, dsrc, src, bytes);
    host_memcpy_to_dev(h, ddata, old, bytes);
    host_memset(h, dflags, 0, flag_bytes);
    host_memset(h, dearly, 0, bytes);
    host_memset(h, dout, 0, bytes);
    struct karg args[] = {KARG_PTR(dsrc),   KARG_PTR(ddata), KARG_PTR(dflags),
                          KARG_PTR(dearly), KARG_PTR(dout),  KARG_I32(words)};
    host_launch(h, kernel, DIM1(2 * pairs), DIM1(32), 0, args, ARRAY_LEN(args));
    host_memcpy_from_dev(h, early, dearly, bytes);
    host_memcpy_from_dev(h, out, dout, bytes);

    int rc = 0;
    for (uint32_t i = 0; i < n && rc == 0; i++) {
        if (out[i] != src[i]) {
            snprintf(why, why_len,
                     "pair %u word %u after the flag: expected 0x%08x (new), got 0x%08x%s",
                     i / words, i % words, src[i], out[i],
                     out[i] == old[i] ? " (the old value: stale read)" : "");
            rc = 1;
        } else if (early[i] != src[i] && early[i] != old[i]) {
            snprintf(why, why_len,
                     "pair %u word %u before the flag: expected 0x%08x (old) or 0x%08x (new), "
                     "got 0x%08x",
                     i / words, i % words, old[i], src[i], early[i]);
            rc = 1;
        }
    }
    host_free(h, dsrc);
    host_free(h, ddata);
    host_free(h, dflags);
    host_free(h, dearly);
    host_free(h, dout);
    free(src);
    free(old);
    free(early);
    free(out);
    return rc;
}

const struct workload wl_mp = {
    .name = "mp",
    .set = "basic",
    .desc = "message passing between CTA pairs, flag release/acquire "
            "(variant nofence: relaxed flag, no fences; sys: system scope)",
    .ptx = wl_ptx_mp,
    .ptx_file = "workloads/mp/mp.ptx",
    .run = mp_run,
    .variants = (const char *const[]){"nofence", "sys", NULL},
};
