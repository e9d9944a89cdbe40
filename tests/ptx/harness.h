/*
 * harness.h - a tiny kernel runner for the PTX front-end's unit tests.
 *
 * Runs every CTA of a grid at once, round-robin over warps, on a flat host
 * array that stands in for global memory. Memory operations the interpreter
 * hands out are done here at once (loads and atomics complete one cycle
 * later), barriers release when every live warp of the CTA has arrived.
 * This is the smallest honest "memory system": values still only reach
 * registers through ptx_warp_complete().
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef TESTS_PTX_HARNESS_H
#define TESTS_PTX_HARNESS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx.h"
#include "sim/req.h"

#define HX_GBASE 0x10000000ull /* device address of hx_mem[0] */

struct hx_gmem {
    uint8_t *bytes;
    size_t size;
    size_t brk; /* bump allocator */
};

static inline addr_t hx_alloc(struct hx_gmem *g, size_t n)
{
    size_t a = (g->brk + 255) & ~(size_t)255;
    if (a + n > g->size) {
        fprintf(stderr, "harness: out of global memory\n");
        abort();
    }
    g->brk = a + n;
    return HX_GBASE + a;
}

static inline void *hx_ptr(struct hx_gmem *g, addr_t a)
{
    return g->bytes + (a - HX_GBASE);
}

/* Read a whole file, NUL-terminated; path relative to $GPUCOH_ROOT. */
static inline char *hx_read(const char *rel)
{
    const char *root = getenv("GPUCOH_ROOT");
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", root ? root : ".", rel);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (fread(s, 1, (size_t)n, f) != (size_t)n) {
        fclose(f);
        free(s);
        return NULL;
    }
    s[n] = 0;
    fclose(f);
    return s;
}

static inline struct ptx_module *hx_load(const char *rel, char *err, size_t errlen)
{
    char *text = hx_read(rel);
    if (!text) {
        snprintf(err, errlen, "cannot read %s (is GPUCOH_ROOT set?)", rel);
        return NULL;
    }
    struct ptx_module *m = ptx_module_parse(text, rel, err, errlen);
    free(text);
    return m;
}

/* Parameter buffer builder following ptx_kernel_info's layout. */
struct hx_params {
    uint8_t buf[4096];
    unsigned n;
};

static inline void hx_param(struct hx_params *p, const struct ptx_kernel *k, uint64_t v)
{
    const struct ptx_kernel_info *ki = ptx_kernel_info(k);
    memcpy(p->buf + ki->param_offset[p->n], &v, ki->param_size[p->n]);
    p->n++;
}

static inline int hx_memop(struct hx_gmem *g, const struct ptx_memop *op, uint64_t (*res)[2],
                           char *err, size_t errlen)
{
    for (unsigned l = 0; l < 32; l++) {
        if (!(op->mask >> l & 1))
            continue;
        addr_t a = op->addr[l];
        if (op->op == MEM_FENCE)
            continue;
        if (a < HX_GBASE || a + op->size > HX_GBASE + g->size) {
            snprintf(err, errlen, "global access out of range: lane %u addr 0x%llx", l,
                     (unsigned long long)a);
            return -1;
        }
        uint8_t *p = hx_ptr(g, a);
        if (op->op == MEM_LOAD) {
            res[l][0] = res[l][1] = 0;
            memcpy(res[l], p, op->size);
        } else if (op->op == MEM_STORE) {
            if (!op->tx) /* a transactional store's data waits in the redo log */
                memcpy(p, op->data[l], op->size);
        } else if (op->op == MEM_ATOMIC) {
            struct atom_ops ao;
            ao.kind = op->atom_kind;
            ao.type = op->atom_type;
            ao.n = 1;
            ao.is_red = op->is_red;
            ao.lane[0] = (struct atom_lane){(uint8_t)l, 0, op->data[l][0], op->data[l][1], 0};
            atom_apply(&ao, p);
            res[l][0] = ao.lane[0].result;
            res[l][1] = 0;
        }
    }
    return 0;
}

/* The end of a transaction attempt: the committed lanes' writes reach memory
 * in program order. The harness detects no conflicts between warps, so only
 * one-warp kernels are serialisable under it (the interpreter itself detects
 * those between lanes of a warp). */
static inline void hx_tx_end(struct hx_gmem *g, const struct ptx_tx_end *t)
{
    for (uint32_t k = 0; k < t->n_log; k++) {
        const struct ptx_tx_access *e = &t->log[k];
        if (e->write && (t->committed >> e->lane & 1))
            memcpy(hx_ptr(g, e->addr), e->data, e->size);
    }
}

struct hx_stats {
    uint64_t warp_insts, thread_insts, mem_ops, barriers, cycles;
    uint64_t tx_attempts, tx_commits, tx_aborts; /* attempts (warp), lanes committed/aborted */
};

/* Run a whole grid. Returns 0, or -1 with a message in err. */
static inline int hx_run(const struct ptx_kernel *k, struct ptx_dim3 grid, struct ptx_dim3 block,
                         const uint8_t *params, uint32_t dyn, struct hx_gmem *g,
                         struct hx_stats *st, char *err, size_t errlen)
{
    unsigned nctas = grid.x * grid.y * grid.z;
    struct ptx_cta **ctas = calloc(nctas, sizeof(*ctas));
    struct ptx_warp ***warps = calloc(nctas, sizeof(*warps));
    unsigned nw = 0;
    for (unsigned c = 0; c < nctas; c++) {
        struct ptx_dim3 id = {c % grid.x, (c / grid.x) % grid.y, c / (grid.x * grid.y)};
        ctas[c] = ptx_cta_new(k, id, grid, block, params, dyn);
        nw = ptx_cta_n_warps(ctas[c]);
        warps[c] = calloc(nw, sizeof(**warps));
        for (unsigned w = 0; w < nw; w++)
            warps[c][w] = ptx_warp_new(ctas[c], w);
    }
    static const uint32_t lat[PTX_LAT_N] = {0, 0, 0, 0, 0, 0, 0, 0}; /* functional: no stalls */
    struct ptx_env env = {0, 1, 0, 0, 0, lat};
    static struct ptx_step step;
    static uint64_t res[32][2];
    uint64_t cycle = 1;
    unsigned stall = 0;
    int rc = 0;
    unsigned *waiting = calloc(nctas, sizeof(unsigned));
    for (;;) {
        bool any_live = false, progress = false;
        for (unsigned c = 0; c < nctas && !rc; c++) {
            unsigned live = 0;
            for (unsigned w = 0; w < nw && !rc; w++) {
                struct ptx_warp *wp = warps[c][w];
                if (ptx_warp_done(wp))
                    continue;
                live++;
                any_live = true;
                env.clock = cycle;
                env.warpid = w;
                /* run a few instructions of this warp */
                for (int n = 0; n < 16 && ptx_warp_can_issue(wp, cycle); n++) {
                    if (ptx_warp_step(wp, &env, &step, err, errlen)) {
                        rc = -1;
                        break;
                    }
                    progress = true;
                    st->warp_insts++;
                    st->thread_insts += step.n_thread_insts;
                    if (step.kind == PTX_STEP_MEM) {
                        st->mem_ops++;
                        if (hx_memop(g, &step.mem, res, err, errlen)) {
                            rc = -1;
                            break;
                        }
                        ptx_warp_complete(wp, &step.mem, (const uint64_t(*)[2])res, cycle + 1);
                        break;
                    }
                    if (step.kind == PTX_STEP_BARRIER) {
                        st->barriers++;
                        if (!step.bar.arrive_only)
                            waiting[c]++;
                        break;
                    }
                    if (step.kind == PTX_STEP_TX_END) {
                        st->tx_attempts++;
                        st->tx_commits += (uint64_t)__builtin_popcount(step.tx.committed);
                        st->tx_aborts += (uint64_t)__builtin_popcount(step.tx.aborted);
                        hx_tx_end(g, &step.tx);
                    }
                    if (step.kind == PTX_STEP_EXIT)
                        break;
                }
            }
            /* barrier: every live warp waiting */
            unsigned live_now = 0;
            for (unsigned w = 0; w < nw; w++)
                live_now += !ptx_warp_done(warps[c][w]);
            (void)live;
            if (waiting[c] && waiting[c] >= live_now) {
                for (unsigned w = 0; w < nw; w++)
                    if (!ptx_warp_done(warps[c][w]))
                        ptx_warp_barrier_release(warps[c][w]);
                waiting[c] = 0;
                progress = true;
            }
        }
        cycle++;
        if (rc || !any_live)
            break;
        stall = progress ? 0 : stall + 1;
        if (stall > 1000) {
            snprintf(err, errlen, "harness: deadlock (no warp can issue)");
            rc = -1;
            break;
        }
    }
    st->cycles = cycle;
    for (unsigned c = 0; c < nctas; c++) {
        for (unsigned w = 0; w < nw; w++)
            ptx_warp_free(warps[c][w]);
        free(warps[c]);
        ptx_cta_free(ctas[c]);
    }
    free(waiting);
    free(warps);
    free(ctas);
    return rc;
}

/* A module and a flat global memory of `bytes`, for a test that runs its
 * kernels: the module is parsed from `text`, or read from `file` when text is
 * NULL. When it does not parse, m is NULL and err says why. */
struct hx_rig {
    struct ptx_module *m;
    struct hx_gmem g;
    struct hx_stats st;
    char err[512];
};

static inline struct hx_rig *hx_rig_new(const char *file, const char *text, size_t bytes)
{
    struct hx_rig *r = calloc(1, sizeof(*r));
    if (!r)
        return NULL;
    r->m = text ? ptx_module_parse(text, file, r->err, sizeof r->err)
                : hx_load(file, r->err, sizeof r->err);
    r->g.size = bytes;
    r->g.bytes = calloc(1, bytes);
    return r;
}

static inline void hx_rig_free(struct hx_rig *r)
{
    ptx_module_free(r->m);
    free(r->g.bytes);
    free(r);
}

#endif
