/*
 * getm_fn.c - GETM's validation unit for the functional mode (see getm_fn.h).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "coh/getm/getm_fn.h"

#include <stdlib.h>

#include "base/alloc.h"
#include "coh/getm/getm_vu.h"
#include "sim/eng.h"

struct getm_fn {
    struct getm_params p;
    struct getm_vu *vu;
    struct eng eng; /* only for the table engine's diagnostics: no timing here */
    struct coh_cov cov;
};

static void *fn_create(uint64_t wids, unsigned *wid_bits)
{
    struct getm_fn *g = xcalloc(1, sizeof *g);
    getm_params_default(&g->p);
    g->p.precise_sets *= 8; /* one VU for the GPU: Table 4.2's 4K entries... */
    g->p.bloom_sets *= 8;   /* ...and 1K Bloom entries, rounded up */
    unsigned bits = 1;
    while ((1ull << bits) < wids)
        bits++;
    g->p.warp_bits = bits;
    g->p.ts_bits = 64; /* the functional mode has no rollover */
    eng_init(&g->eng);
    coh_cov_init(&g->cov, &getm_vu_table);
    g->vu = getm_vu_new(&g->p, &g->eng, "functional.vu", &g->cov);
    *wid_bits = bits;
    return g;
}

static void fn_destroy(void *tm)
{
    struct getm_fn *g = tm;
    getm_vu_free(g->vu);
    coh_cov_destroy(&g->cov);
    eng_destroy(&g->eng);
    free(g);
}

static uint64_t fn_first_ts(void *tm, uint32_t wid)
{
    return getm_first_ts(&((struct getm_fn *)tm)->p, wid);
}

static uint64_t fn_advance_ts(void *tm, uint32_t wid, uint64_t past)
{
    return getm_advance_ts(&((struct getm_fn *)tm)->p, wid, past);
}

/* *seen: what the warp must move past (items 17, 18): the granule's rts and
 * wts after a performed access, the abort's cause. */
static enum functional_tm_reply fn_access(void *tm, addr_t addr, bool store, uint32_t wid,
                                          uint32_t seq, uint64_t ts, uint64_t cookie,
                                          uint64_t *seen)
{
    struct getm_fn *g = tm;
    struct getm_req q = {addr, store, wid, seq, ts, cookie};
    struct getm_result x = getm_vu_access(g->vu, &q);
    switch (x.reply) {
    case GETM_OK:
        *seen = MAX(x.rts, x.wts);
        return FUNCTIONAL_TM_OK;
    case GETM_ABORT:
        *seen = x.cause;
        return FUNCTIONAL_TM_ABORT;
    case GETM_QUEUED:
        break;
    }
    return FUNCTIONAL_TM_QUEUED;
}

static unsigned fn_release(void *tm, addr_t addr, uint64_t *woken, unsigned cap)
{
    struct getm_fn *g = tm;
    struct getm_req w[64];
    unsigned n = getm_vu_release(g->vu, addr, 1, w, MIN(cap, 64u));
    for (unsigned k = 0; k < n; k++)
        woken[k] = w[k].cookie;
    return n;
}

const struct functional_tm_ops getm_functional_tm = {
    .create = fn_create,
    .destroy = fn_destroy,
    .first_ts = fn_first_ts,
    .advance_ts = fn_advance_ts,
    .access = fn_access,
    .release = fn_release,
};
