/*
 * exec_warp.c - the life of the PTX interpreter's CTAs and warps: a CTA's
 * parameters and shared memory, a warp's registers, stacks and local memory
 * (set up, renewed for the next warp of a slot, freed), and the queries a
 * timing model makes between steps (where a warp is, when it may issue next,
 * whether its next instruction orders the CTA, prefetching its state).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "ptx/exec_int.h"

#include "ptx/half.h"

#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ CTAs and warps */

struct ptx_cta *ptx_cta_new(const struct ptx_kernel *k, struct ptx_dim3 ctaid,
                            struct ptx_dim3 nctaid, struct ptx_dim3 ntid, const uint8_t *params,
                            uint32_t dyn_shmem_bytes)
{
    struct ptx_cta *c = calloc(1, sizeof(*c));
    if (!c)
        return NULL;
    c->k = k;
    c->m = k->m;
    c->f = k->f;
    c->ctaid = ctaid;
    c->nctaid = nctaid;
    c->ntid = ntid;
    c->param_bytes = k->f->info.param_bytes;
    c->params = calloc(1, c->param_bytes + 8);
    if (params && c->param_bytes)
        memcpy(c->params, params, c->param_bytes);
    c->dynshm_base = k->f->dynshm_base;
    c->dyn_bytes = dyn_shmem_bytes;
    c->shmem_bytes =
        dyn_shmem_bytes ? c->dynshm_base + dyn_shmem_bytes : k->f->info.static_shmem_bytes;
    c->shmem = calloc(1, c->shmem_bytes + 16);
    c->n_threads = ntid.x * ntid.y * ntid.z;
    c->n_warps = (c->n_threads + 31) / 32;
    if (!c->params || !c->shmem) {
        ptx_cta_free(c);
        return NULL;
    }
    for (unsigned b = 0; b < 16; b++)
        c->red[b].all = true;
    return c;
}

void ptx_cta_free(struct ptx_cta *c)
{
    if (!c)
        return;
    free(c->params);
    free(c->shmem);
    free(c);
}

unsigned ptx_cta_n_warps(const struct ptx_cta *c)
{
    return c->n_warps;
}

/* A buffer of n zeroed elements of `size` bytes: buf itself when its
 * capacity *cap is enough, else a new one (buf is freed). NULL when out of
 * memory. */
static void *zeroed(void *buf, size_t *cap, size_t n, size_t size)
{
    if (n <= *cap) {
        memset(buf, 0, n * size);
        return buf;
    }
    free(buf);
    buf = calloc(n, size);
    *cap = buf ? n : 0;
    return buf;
}

/* (Re)initialise w as warp `warp_in_cta` of c: storage from an earlier warp
 * is reused when it is large enough, and everything starts zeroed exactly as
 * in a new warp. Returns false when out of memory. */
static bool warp_setup(struct ptx_warp *w, struct ptx_cta *c, unsigned warp_in_cta)
{
    const struct px_func *f = c->f;
    const struct ptx_module *m = c->m;
    w->c = c;
    w->m = m;
    w->ins = m->ins;
    w->imm = m->imm;
    w->warp_in_cta = warp_in_cta;
    w->at_barrier = false;
    w->n_pending = 0;
    w->ready_max = 0;
    w->frame_base = 0;
    w->bar_red = NULL;
    w->bar_red_mask = 0;
    w->n_rows = f->n_rows_chain;
    w->n_preds = f->n_preds_chain;
    w->local_stride = (f->max_stack + 15) & ~15u;
    /* depth bound: two entries per nested divergence plus one per call */
    uint32_t stk_cap = 64 + 2 * (m->n_ins < 4096 ? m->n_ins : 4096);
    uint32_t frames_cap = m->n_funcs + 1;
    w->regs = zeroed(w->regs, &w->cap_regs, (size_t)w->n_rows * 32 + 32, sizeof(uint64_t));
    w->preds = zeroed(w->preds, &w->cap_preds, (size_t)w->n_preds + 1, sizeof(uint32_t));
    w->ready =
        zeroed(w->ready, &w->cap_ready, (size_t)w->n_rows + w->n_preds + 2, sizeof(uint64_t));
    w->local = zeroed(w->local, &w->cap_local, (size_t)w->local_stride * 32 + 16, 1);
    w->stk = zeroed(w->stk, &w->cap_stk, stk_cap, sizeof(*w->stk));
    w->frames = zeroed(w->frames, &w->cap_frames, frames_cap, sizeof(*w->frames));
    if (!w->regs || !w->preds || !w->ready || !w->local || !w->stk || !w->frames)
        return false;
    w->tx_at = w->tx_begin_pc = w->tx_aborted = w->tx_n = 0;
    if (m->has_tx) {
        w->tx_regs =
            zeroed(w->tx_regs, &w->cap_tx_regs, (size_t)w->n_rows * 32 + 32, sizeof(uint64_t));
        w->tx_preds =
            zeroed(w->tx_preds, &w->cap_tx_preds, (size_t)w->n_preds + 1, sizeof(uint32_t));
        w->tx_log = zeroed(w->tx_log, &w->cap_tx_log, PTX_TX_LOG_MAX, sizeof(*w->tx_log));
        if (!w->tx_regs || !w->tx_preds || !w->tx_log)
            return false;
    }
    w->stk_cap = stk_cap;
    w->frames_cap = frames_cap;
    w->r = w->regs;
    w->p = w->preds;
    w->rr = w->ready;
    w->rp = w->ready + w->n_rows;
    uint32_t mask = 0;
    for (unsigned l = 0; l < 32; l++) {
        unsigned lin = warp_in_cta * 32 + l;
        if (lin < c->n_threads)
            mask |= 1u << l;
        w->tid[0][l] = lin % c->ntid.x;
        w->tid[1][l] = (lin / c->ntid.x) % c->ntid.y;
        w->tid[2][l] = lin / (c->ntid.x * c->ntid.y);
    }
    w->frames[0] = (struct call_frame){f, NULL, 0, 0, 0, 0};
    w->nf = 1;
    w->sp = 0;
    if (mask) {
        w->top = (struct simt_entry){f->first, PX_RPC_EXIT, mask, 0};
        w->sp = 1;
    }
    w->exited = ~mask;
    return true;
}

struct ptx_warp *ptx_warp_new(struct ptx_cta *c, unsigned warp_in_cta)
{
    struct ptx_warp *w = aligned_alloc(64, (sizeof(*w) + 63) & ~(size_t)63);
    if (!w)
        return NULL;
    memset(w, 0, sizeof *w);
    if (!warp_setup(w, c, warp_in_cta)) {
        ptx_warp_free(w);
        return NULL;
    }
    return w;
}

bool ptx_warp_renew(struct ptx_warp *w, struct ptx_cta *c, unsigned warp_in_cta)
{
    return warp_setup(w, c, warp_in_cta);
}

void ptx_warp_free(struct ptx_warp *w)
{
    if (!w)
        return;
    free(w->regs);
    free(w->preds);
    free(w->ready);
    free(w->local);
    free(w->stk);
    free(w->frames);
    free(w->tx_regs);
    free(w->tx_preds);
    free(w->tx_log);
    free(w);
}

bool ptx_warp_done(const struct ptx_warp *w)
{
    return w->sp == 0;
}

void ptx_warp_abandon(struct ptx_warp *w)
{
    w->sp = 0;
    w->exited = ~0u;
    w->at_barrier = false;
    w->bar_red = NULL;
    w->tx_at = 0;
}

uint32_t ptx_warp_pc(const struct ptx_warp *w)
{
    return w->sp ? w->top.pc : UINT32_MAX;
}

const char *ptx_warp_where(const struct ptx_warp *w, char *buf, size_t len)
{
    if (!w->sp) {
        snprintf(buf, len, "%s: (exited)", w->m->filename);
        return buf;
    }
    uint32_t pc = w->top.pc;
    const struct px_loc *l = w->m->locs ? &w->m->locs[pc] : NULL;
    if (l && l->line && l->file < w->m->n_src_files && w->m->src_files[l->file])
        snprintf(buf, len, "%s:%u (%s:%u)", w->m->filename, w->ins[pc].line,
                 w->m->src_files[l->file], l->line); /* -lineinfo: the CUDA source line */
    else
        snprintf(buf, len, "%s:%u", w->m->filename, w->ins[pc].line);
    return buf;
}

/* With nothing in flight every register is ready once ready_max is, so the
 * instruction may issue at the earlier of ready_max and its own registers'
 * ready cycle. With loads or atomics in flight only its own registers count
 * (a pending one reads UINT64_MAX), and call/ret wait for all of them. */
uint64_t ptx_warp_issue_cycle(const struct ptx_warp *w)
{
    if (!w->sp || w->at_barrier)
        return UINT64_MAX;
    if (w->tx_at == w->sp && !w->top.mask) /* every lane aborted: the attempt ends */
        return w->n_pending ? UINT64_MAX : 0;
    const struct px_inst *i = &w->ins[w->top.pc];
    if (w->n_pending &&
        (i->op == PX_CALL || i->op == PX_RET || i->op == PX_TXBEGIN || i->op == PX_TXCOMMIT))
        return UINT64_MAX;
    uint64_t at = 0;
    for (unsigned k = 0; k < i->n_sb; k++) {
        uint32_t s = i->sb[k];
        uint64_t rd = (s & 0x80000000u) ? w->rp[s & 0x7fffffffu] : w->rr[s];
        if (rd > at)
            at = rd;
    }
    if (!w->n_pending && w->ready_max < at)
        at = w->ready_max;
    return at;
}

void ptx_warp_prefetch(const struct ptx_warp *w)
{
    if (!w->sp)
        return;
    const struct px_inst *i = &w->ins[w->top.pc];
    for (unsigned k = 0; k < i->n_sb; k++) {
        uint32_t s = i->sb[k];
        if (s & 0x80000000u) {
            __builtin_prefetch(&w->p[s & 0x7fffffffu]);
            __builtin_prefetch(&w->rp[s & 0x7fffffffu]);
            continue;
        }
        const uint64_t *row = w->r + (size_t)s * 32; /* 256 bytes: four 64-byte lines */
        __builtin_prefetch(&w->rr[s]);
        __builtin_prefetch(row);
        __builtin_prefetch(row + 8);
        __builtin_prefetch(row + 16);
        __builtin_prefetch(row + 24);
    }
}

bool ptx_warp_next_orders_cta(const struct ptx_warp *w)
{
    if (!w->sp)
        return false;
    const struct px_inst *i = &w->ins[w->top.pc];
    switch (i->op) {
    case PX_BAR:
        return true;
    case PX_LD:
    case PX_ST:
    case PX_ATOM:
    case PX_RED:
        return i->space == SP_SHARED || i->space == SP_GENERIC;
    default:
        return false;
    }
}

bool ptx_warp_can_issue(const struct ptx_warp *w, uint64_t cycle)
{
    if (!w->sp || w->at_barrier)
        return false;
    if (!w->n_pending && w->ready_max <= cycle)
        return true; /* nothing in flight: every register is ready */
    return ptx_warp_issue_cycle(w) <= cycle;
}
