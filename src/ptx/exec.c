/*
 * exec.c - functional SIMT execution of decoded PTX, one warp instruction
 * per ptx_warp_step().
 *
 * A warp holds 32 lanes' registers struct-of-arrays (one row of 32 uint64_t
 * per register; predicates are 32-bit lane masks), a PDOM reconvergence
 * stack, a call-frame stack and a per-register scoreboard. An instruction is
 * a switch on the decoded op, then a loop over the active lanes; the common
 * integer and float ops are specialised by type before the loop.
 *
 * SIMT stack: entries (pc, rpc, mask). The top entry runs. A divergent branch
 * turns the top entry into the reconvergence entry (pc = rpc) and pushes one
 * entry per side, unless the top entry already waits for the same rpc, in
 * which case it is reused so that loops do not grow the stack. An entry
 * whose pc reaches its rpc, or whose mask empties, is popped. exit removes
 * lanes from every entry; ret removes them from the entries of the current
 * call. A call turns the caller's entry into a call marker (pc = return
 * address) and pushes the callee's entry; when the marker is on top again
 * the call has returned for every lane that made it.
 *
 * Global memory is never touched here: those lanes are returned as a
 * ptx_memop. Shared, local, param and const accesses are done inside.
 * Host speed: a warp's state is usually out of the host's caches when it is
 * stepped (callers interleave hundreds of warps), so the fields a step reads
 * first share the warp's first cache lines and the running SIMT entry is kept
 * in the warp itself; ptx_warp_prefetch lets a caller that knows which warp
 * comes next ask for its registers early; fma.f32 uses the host's FMA
 * instruction over a whole row when the host has one (same bits as fmaf).
 * Half-precision instructions are ops of their own (PX_H*, PX_CVT_PACK):
 * their element arithmetic is in half.c, so the f32 and integer cases are
 * untouched by them.
 * INVARIANT: ptx_warp_step does not allocate, except that a device printf's
 *   record may grow the launch's log (amortised, up to the printf FIFO);
 *   ptx_warp_renew allocates only when a kernel needs more storage than the
 *   warp had.
 * INVARIANT: a call or ret issues only when no load/atomic is outstanding
 *   (ptx_warp_can_issue), so completions always find the frame they came from.
 * NOT MODELED: .ftz on f32 inputs (outputs are flushed), denormal behaviour of
 *   .approx functions, exact bit results of hardware .approx functions.
 *
 * This file holds the SIMT and call stacks, transactions, the memory
 * instructions, the warp-level collectives, device printf and the step
 * itself; the CTAs' and warps' life and the queries between steps are in
 * exec_warp.c and the register-to-register instructions in exec_alu.c,
 * sharing exec_int.h.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "ptx/exec_int.h"

#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define X(n, d) #n,
const char *const ptx_lat_names[PTX_LAT_N] = {PTX_LAT_CLASSES(X)};
#undef X

/* Cycles from issue to an instruction's result: its class's latency, or with
 * sm.alu_latency = opcodes its opcode's (GPGPU-Sim's way of timing ALU work);
 * both tables include the pipeline around an ALU unit (sm.lat_pipeline).
 * Functional runs (no latencies) take one cycle. */
static inline uint32_t result_latency(const struct ptx_env *env, const struct px_inst *i)
{
    if (!env->lat)
        return 1;
    if (env->op_lat && i->op_lat != PTX_OPLAT_NONE)
        return env->op_lat[i->op_lat];
    return env->lat[i->lat];
}

/* ------------------------------------------------------------------ the step */

/* popcount without a library call (the build does not assume POPCNT) */
static inline uint32_t popc32(uint32_t x)
{
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (((x + (x >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
}

static int fault(const struct ptx_warp *w, const struct px_inst *i, char *err, size_t errlen,
                 const char *what, unsigned lane, uint64_t addr)
{
    snprintf(err, errlen, "%s:%u: %s (lane %u, address 0x%llx)", w->m->filename, i->line, what,
             lane, (unsigned long long)addr);
    return -1;
}

static void pop_entry(struct ptx_warp *w);

/* The SIMT stack: entry k (0 = bottom) is w->top for k = sp - 1, else stk[k]. */
static inline struct simt_entry *stk_at(struct ptx_warp *w, uint32_t k)
{
    return k + 1 == w->sp ? &w->top : &w->stk[k];
}

static inline void stk_push(struct ptx_warp *w, struct simt_entry e)
{
    if (w->sp)
        w->stk[w->sp - 1] = w->top;
    w->top = e;
    w->sp++;
}

static inline void stk_pop(struct ptx_warp *w)
{
    w->sp--;
    if (w->sp)
        w->top = w->stk[w->sp - 1];
}

/* After an instruction: pop finished entries, complete calls. */
static void settle(struct ptx_warp *w)
{
    while (w->sp) {
        struct simt_entry *t = &w->top;
        if (t->kind == SE_TX && t->mask == 0)
            break; /* the attempt ends at the warp's next step */
        if (t->mask == 0 || t->pc == t->rpc)
            pop_entry(w);
        else
            break;
    }
}

/* Return from the call whose marker is now on top: copy return values into
 * the caller's buffers for the lanes that made the call, restore the frame. */
static void finish_call(struct ptx_warp *w)
{
    struct simt_entry *t = &w->top;
    struct call_frame *cf = &w->frames[w->nf - 1];
    struct call_frame *caller = &w->frames[w->nf - 2];
    const struct px_call *cs = cf->cs;
    uint32_t mask = t->mask;
    for (unsigned k = 0; k < cs->n_rets; k++) {
        const struct px_param *pp = &cf->f->rets[k];
        uint32_t n = MIN(pp->size, cs->ret_size[k]);
        for (uint32_t m_ = mask; m_; m_ &= m_ - 1) {
            unsigned l = (unsigned)__builtin_ctz(m_);
            uint8_t *base = w->local + (size_t)l * w->local_stride;
            memmove(base + caller->local_base + cs->ret_off[k], base + cf->local_base + pp->off, n);
        }
    }
    w->nf--;
    w->r = w->regs + (size_t)caller->row_base * 32;
    w->p = w->preds + caller->pred_base;
    w->rr = w->ready + caller->row_base;
    w->rp = w->ready + w->n_rows + caller->pred_base;
    w->frame_base = caller->local_base;
    t->call = 0;
}

static void pop_entry(struct ptx_warp *w)
{
    struct simt_entry *t = &w->top;
    if (t->call && t->mask == 0) {
        /* every lane of the call exited inside it: drop the callee frame */
        struct call_frame *caller = &w->frames[w->nf - 2];
        w->nf--;
        w->r = w->regs + (size_t)caller->row_base * 32;
        w->p = w->preds + caller->pred_base;
        w->rr = w->ready + caller->row_base;
        w->rp = w->ready + w->n_rows + caller->pred_base;
        w->frame_base = caller->local_base;
    }
    stk_pop(w);
    if (w->sp && w->top.call && w->top.call == w->nf - 1 + 1 &&
        w->frames[w->nf - 1].marker == w->sp - 1)
        finish_call(w);
}

static void remove_lanes(struct ptx_warp *w, uint32_t lanes, uint32_t from)
{
    for (uint32_t k = from; k < w->sp; k++)
        stk_at(w, k)->mask &= ~lanes;
}

static int diverge(struct ptx_warp *w, uint32_t tpc, uint32_t fpc, uint32_t tmask, uint32_t fmask,
                   uint32_t rpc, char *err, size_t errlen, const struct px_inst *i)
{
    if (w->sp + 2 > w->stk_cap) {
        snprintf(err, errlen, "%s:%u: SIMT stack overflow (%u entries)", w->m->filename, i->line,
                 w->stk_cap);
        return -1;
    }
    struct simt_entry *t = &w->top;
    if (t->rpc == rpc && !t->call && t->kind == SE_PLAIN) {
        t->pc = tpc;
        t->mask = tmask;
    } else {
        t->pc = rpc;
        stk_push(w, (struct simt_entry){tpc, rpc, tmask, 0});
    }
    stk_push(w, (struct simt_entry){fpc, rpc, fmask, 0});
    return 0;
}

/* ---- transactions ----
 * At gpucoh_tx_begin the running entry E gets a Retry entry and a Transaction
 * entry above it (E, Retry, Tx; tx_at - 1 indexes Tx). Divergence inside the
 * transaction pushes plain entries above Tx; they reconverge into Tx before
 * the commit. An aborted lane leaves Tx and everything above it and joins
 * Retry. At the commit (or once Tx has no lane left) the attempt ends: E
 * continues after the commit with the committed lanes, and Retry's lanes, if
 * any, run the transaction again from the begin with their registers restored. */

static void tx_abort_lanes(struct ptx_warp *w, uint32_t lanes)
{
    uint32_t tx = w->tx_at - 1;
    lanes &= stk_at(w, tx)->mask;
    if (!lanes)
        return;
    remove_lanes(w, lanes, tx);
    stk_at(w, tx - 1)->mask |= lanes;
    w->tx_aborted |= lanes;
}

void ptx_warp_tx_abort(struct ptx_warp *w, uint32_t lanes)
{
    if (!w->tx_at)
        return;
    tx_abort_lanes(w, lanes);
    settle(w);
}

bool ptx_warp_in_tx(const struct ptx_warp *w)
{
    return w->tx_at != 0;
}

bool ptx_warp_at_tx_begin(const struct ptx_warp *w)
{
    return w->sp && w->ins[w->top.pc].op == PX_TXBEGIN;
}

const struct ptx_tx_access *ptx_warp_tx_log(const struct ptx_warp *w, uint32_t *n, uint32_t *live)
{
    *n = w->tx_at ? w->tx_n : 0;
    uint32_t k = w->tx_at - 1; /* the Transaction entry */
    *live = !w->tx_at ? 0 : k + 1 == w->sp ? w->top.mask : w->stk[k].mask;
    return w->tx_log;
}

bool ptx_warp_at_tx_end(const struct ptx_warp *w)
{
    return w->tx_at && w->sp &&
           ((w->tx_at == w->sp && !w->top.mask) || w->ins[w->top.pc].op == PX_TXCOMMIT);
}

/* Intra-warp conflict detection (spec 004a §9 item 22): lane l's access to
 * [a, a + size) conflicts with another live lane's earlier access to the same
 * 4-byte word when either of the two writes. Of two conflicting lanes the
 * higher-numbered (younger) one aborts, so an attempt always keeps its lowest
 * lane. Returns false when lane l itself aborts. */
static bool tx_intra_check(struct ptx_warp *w, unsigned l, uint64_t a, unsigned size, bool write)
{
    uint64_t lo = a & ~3ull, hi = (a + size + 3) & ~3ull;
    uint32_t with = 0;
    for (uint32_t k = 0; k < w->tx_n; k++) {
        const struct ptx_tx_access *e = &w->tx_log[k];
        if (e->lane == l || (w->tx_aborted >> e->lane & 1) || (!write && !e->write))
            continue;
        uint64_t elo = e->addr & ~3ull, ehi = (e->addr + e->size + 3) & ~3ull;
        if (elo < hi && lo < ehi)
            with |= 1u << e->lane;
    }
    if (with & ((1u << l) - 1)) {
        tx_abort_lanes(w, 1u << l);
        return false;
    }
    tx_abort_lanes(w, with);
    return true;
}

/* The attempt running in the Transaction entry (on top) ends: `committed`
 * lanes reached the commit at `commit_pc`. */
static void tx_end(struct ptx_warp *w, struct ptx_step *out, uint32_t committed, uint32_t commit_pc)
{
    out->kind = PTX_STEP_TX_END;
    out->tx = (struct ptx_tx_end){committed, w->tx_aborted, w->tx_log, w->tx_n};
    if (committed)
        stk_at(w, w->tx_at - 3)->pc = commit_pc + 1;
    stk_pop(w);
    struct simt_entry *retry = &w->top;
    uint32_t again = retry->mask;
    w->tx_n = 0;
    w->tx_aborted = 0;
    if (!again) {
        stk_pop(w);
        w->tx_at = 0;
        return;
    }
    for (uint32_t r = 0; r < w->n_rows; r++) {
        uint64_t *R = w->regs + (size_t)r * 32;
        const uint64_t *C = w->tx_regs + (size_t)r * 32;
        for (uint32_t m_ = again; m_; m_ &= m_ - 1) {
            unsigned l = (unsigned)__builtin_ctz(m_);
            R[l] = C[l];
        }
    }
    for (uint32_t k = 0; k < w->n_preds; k++)
        w->preds[k] = (w->preds[k] & ~again) | (w->tx_preds[k] & again);
    retry->mask = 0;
    stk_push(w, (struct simt_entry){w->tx_begin_pc + 1, PX_RPC_EXIT, again, 0, SE_TX});
}

/* Per-lane address of a memory instruction, in its own space (before
 * generic resolution). */
static inline uint64_t lane_addr(const struct ptx_warp *w, const struct px_inst *i, unsigned l)
{
    uint64_t a = (uint64_t)i->off;
    if (i->addr.kind == OK_REG)
        a += w->r[(size_t)i->addr.idx * 32 + l];
    if (i->addr32) /* nvcc relies on [%r+imm] wrapping like 32-bit arithmetic */
        a = (uint32_t)a;
    if (i->addr_rel == AR_FRAME)
        a += w->frame_base;
    else if (i->addr_rel == AR_DYNSHM)
        a += w->c->dynshm_base;
    return a;
}

/* Pack a lane's store data (vector elements) into bytes. */
static void pack_store(const struct ptx_warp *w, const struct px_inst *i, unsigned l,
                       uint64_t out[2])
{
    unsigned eb = px_type_bytes(i->type);
    out[0] = out[1] = 0;
    uint8_t *dst = (uint8_t *)out;
    for (unsigned k = 0; k < i->vec; k++) {
        uint64_t v = row(w, &i->s[1 + k])[l];
        memcpy(dst + k * eb, &v, eb);
    }
}

/* Write a lane's loaded bytes into the destination registers. */
static void unpack_load(struct ptx_warp *w, const struct px_inst *i, unsigned l, const void *src)
{
    unsigned eb = px_type_bytes(i->type);
    const uint8_t *s = src;
    for (unsigned k = 0; k < i->vec; k++) {
        if (i->d[k].kind != OK_REG)
            continue;
        uint64_t v = 0;
        memcpy(&v, s + k * eb, eb);
        w->r[(size_t)i->d[k].idx * 32 + l] = extend(v, i->type);
    }
}

/* Shared-memory or generic-shared atomic of one lane, via the shared ALU. */
static uint64_t atom_local(const struct px_inst *i, uint8_t *where, uint64_t a, uint64_t b)
{
    struct atom_ops ops;
    ops.kind = i->mod;
    ops.type = (uint8_t)px_atom_type(i->type);
    ops.n = 1;
    ops.is_red = i->op == PX_RED;
    ops.lane[0] = (struct atom_lane){0, 0, a, b, 0};
    atom_apply(&ops, where);
    return ops.lane[0].result;
}

enum { WIN_GLOBAL, WIN_SHARED, WIN_LOCAL };

static inline int window_of(uint64_t a)
{
    if (a - PTX_SHARED_WINDOW < PTX_WINDOW_BYTES)
        return WIN_SHARED;
    if (a - PTX_LOCAL_WINDOW < PTX_WINDOW_BYTES)
        return WIN_LOCAL;
    return WIN_GLOBAL;
}

static int exec_mem(struct ptx_warp *w, const struct px_inst *i, uint32_t active,
                    const struct ptx_env *env, struct ptx_step *out, char *err, size_t errlen)
{
    struct ptx_cta *c = w->c;
    unsigned eb = px_type_bytes(i->type);
    unsigned size = eb * i->vec;
    bool is_ld = i->op == PX_LD, is_st = i->op == PX_ST;
    bool is_atom = i->op == PX_ATOM || i->op == PX_RED;
    uint32_t gmask = 0;
    struct ptx_memop *mo = &out->mem;
    for (uint32_t m_ = active; m_; m_ &= m_ - 1) {
        unsigned l = (unsigned)__builtin_ctz(m_);
        uint64_t a = lane_addr(w, i, l);
        int space = i->space;
        uint64_t la = a;
        if (space == SP_GENERIC) {
            int win = window_of(a);
            if (win == WIN_SHARED) {
                space = SP_SHARED;
                la = a - PTX_SHARED_WINDOW;
            } else if (win == WIN_LOCAL) {
                space = SP_LOCAL;
                la = a - PTX_LOCAL_WINDOW;
            } else {
                space = SP_GLOBAL;
            }
        }
        if (space != SP_GLOBAL && space != SP_PARAM && (la & (size - 1)))
            return fault(w, i, err, errlen, "misaligned access", l, a);
        uint8_t *p;
        switch (space) {
        case SP_GLOBAL:
            if (a & (size - 1))
                return fault(w, i, err, errlen, "misaligned global access", l, a);
            if (w->tx_at) {
                if (is_atom)
                    return fault(w, i, err, errlen, "atomic inside a transaction (not supported)",
                                 l, a);
                if ((w->tx_aborted >> l & 1) || !tx_intra_check(w, l, a, size, is_st))
                    continue;
                if (w->tx_n >= PTX_TX_LOG_MAX)
                    return fault(w, i, err, errlen, "transaction log overflow", l, a);
                struct ptx_tx_access *e = &w->tx_log[w->tx_n++];
                e->addr = a;
                e->lane = (uint8_t)l;
                e->size = (uint8_t)size;
                e->pc = (uint32_t)(i - w->ins);
                e->write = is_st;
                e->data[0] = e->data[1] = 0;
                e->done = false;
                if (is_st)
                    pack_store(w, i, l, e->data);
            }
            gmask |= 1u << l;
            mo->addr[l] = a;
            if (is_st)
                pack_store(w, i, l, mo->data[l]);
            else if (is_atom) {
                mo->data[l][0] = trunc_to(row(w, &i->s[0])[l], eb);
                mo->data[l][1] = i->mod == ATOM_CAS ? trunc_to(row(w, &i->s[1])[l], eb) : 0;
            }
            continue;
        case SP_SHARED:
            if (la + size > c->shmem_bytes)
                return fault(w, i, err, errlen, "shared access out of range", l, a);
            p = c->shmem + la;
            break;
        case SP_LOCAL:
            if (la + size > w->local_stride)
                return fault(w, i, err, errlen, "local access out of range", l, a);
            p = w->local + (size_t)l * w->local_stride + la;
            break;
        case SP_PARAM:
            if (la + size > c->param_bytes)
                return fault(w, i, err, errlen, "parameter access out of range", l, a);
            p = c->params + la;
            break;
        case SP_CONST:
            if (la + size > w->m->cbank_bytes)
                return fault(w, i, err, errlen, "constant access out of range", l, a);
            p = w->m->cbank + la;
            break;
        default:
            return fault(w, i, err, errlen, "bad state space", l, a);
        }
        if (is_ld) {
            unpack_load(w, i, l, p);
        } else if (is_st) {
            uint64_t d[2];
            pack_store(w, i, l, d);
            memcpy(p, d, size);
        } else {
            if (space != SP_SHARED)
                return fault(w, i, err, errlen, "atomic on local memory", l, a);
            uint64_t r =
                atom_local(i, p, row(w, &i->s[0])[l], i->mod == ATOM_CAS ? row(w, &i->s[1])[l] : 0);
            if (i->op == PX_ATOM)
                w->r[(size_t)i->d[0].idx * 32 + l] = extend(r, i->type);
        }
    }
    uint64_t now = env->clock;
    uint32_t lat = env->lat ? env->lat[PTX_LAT_SHMEM] : 1;
    out->lat = lat;
    bool has_dst = is_ld || i->op == PX_ATOM;
    if (!gmask) {
        if (has_dst)
            for (unsigned k = 0; k < i->n_dst; k++)
                if (i->d[k].kind == OK_REG)
                    w->rr[i->d[k].idx] = now + lat;
        if (now + lat > w->ready_max)
            w->ready_max = now + lat;
        out->lat_class = PTX_LAT_SHMEM;
        return 0;
    }
    out->kind = PTX_STEP_MEM;
    out->lat_class = PTX_LAT_GMEM;
    out->lat = env->lat ? env->lat[PTX_LAT_GMEM] : 1;
    mo->op = is_ld ? MEM_LOAD : is_st ? MEM_STORE : MEM_ATOMIC;
    mo->sem = i->sem;
    mo->scope = i->scope;
    mo->size = (uint8_t)size;
    mo->mask = gmask;
    mo->is_red = i->op == PX_RED;
    mo->tag = (uint32_t)(i - w->ins);
    mo->tx = w->tx_at != 0;
    if (is_atom) {
        mo->atom_kind = i->mod;
        mo->atom_type = (uint8_t)px_atom_type(i->type);
    } else {
        mo->atom_kind = mo->atom_type = 0;
    }
    if (has_dst) {
        for (unsigned k = 0; k < i->n_dst; k++)
            if (i->d[k].kind == OK_REG)
                w->rr[i->d[k].idx] = UINT64_MAX;
        w->n_pending++;
    }
    return 0;
}

/* A transactional load sees the lane's own earlier writes of the attempt (the
 * redo log) over what memory returned. The load's own log entry is the lane's
 * last read from its instruction: one instruction cannot have two loads in
 * flight, since its destination is pending. That entry keeps what memory
 * returned (the read log a lazy TM validates). */
static void tx_read_own_writes(struct ptx_warp *w, const struct ptx_memop *op,
                               const uint64_t (*lane_data)[2], uint64_t (*own)[2])
{
    for (uint32_t m_ = op->mask; m_; m_ &= m_ - 1) {
        unsigned l = (unsigned)__builtin_ctz(m_);
        own[l][0] = lane_data[l][0];
        own[l][1] = lane_data[l][1];
        uint32_t upto = w->tx_n;
        while (upto && !(w->tx_log[upto - 1].lane == l && w->tx_log[upto - 1].pc == op->tag &&
                         !w->tx_log[upto - 1].write))
            upto--;
        if (upto) {
            w->tx_log[upto - 1].data[0] = lane_data[l][0];
            w->tx_log[upto - 1].data[1] = lane_data[l][1];
            w->tx_log[upto - 1].done = true;
        }
        uint64_t a = op->addr[l];
        uint8_t *dst = (uint8_t *)own[l];
        for (uint32_t k = 0; k + 1 < upto; k++) {
            const struct ptx_tx_access *e = &w->tx_log[k];
            if (e->lane != l || !e->write)
                continue;
            uint64_t lo = MAX(a, e->addr), hi = MIN(a + op->size, e->addr + e->size);
            if (lo < hi)
                memcpy(dst + (lo - a), (const uint8_t *)e->data + (lo - e->addr), hi - lo);
        }
    }
}

void ptx_warp_complete(struct ptx_warp *w, const struct ptx_memop *op,
                       const uint64_t (*lane_data)[2], uint64_t cycle)
{
    if (op->op != MEM_LOAD && op->op != MEM_ATOMIC)
        return;
    const struct px_inst *i = &w->ins[op->tag];
    uint64_t own[32][2];
    if (op->tx) {
        tx_read_own_writes(w, op, lane_data, own);
        lane_data = (const uint64_t(*)[2])own;
    }
    if (op->op == MEM_LOAD && i->vec == 1 && i->n_dst == 1 && i->d[0].kind == OK_REG) {
        /* a scalar load: the lane's bytes are the low bytes of lane_data[l][0] */
        uint64_t *D = w->r + (size_t)i->d[0].idx * 32;
        unsigned t = i->type;
        for (uint32_t m_ = op->mask; m_; m_ &= m_ - 1) {
            unsigned l = (unsigned)__builtin_ctz(m_);
            D[l] = extend(lane_data[l][0], t);
        }
        w->rr[i->d[0].idx] = cycle;
        if (cycle > w->ready_max)
            w->ready_max = cycle;
    } else if (op->op == MEM_LOAD || !op->is_red) {
        for (uint32_t m_ = op->mask; m_; m_ &= m_ - 1) {
            unsigned l = (unsigned)__builtin_ctz(m_);
            if (op->op == MEM_LOAD)
                unpack_load(w, i, l, lane_data[l]);
            else
                w->r[(size_t)i->d[0].idx * 32 + l] = extend(lane_data[l][0], i->type);
        }
        for (unsigned k = 0; k < i->n_dst; k++)
            if (i->d[k].kind == OK_REG)
                w->rr[i->d[k].idx] = cycle;
        if (cycle > w->ready_max)
            w->ready_max = cycle;
    }
    if (w->n_pending)
        w->n_pending--;
}

void ptx_warp_barrier_release(struct ptx_warp *w)
{
    w->at_barrier = false;
    if (w->bar_red) {
        const struct px_inst *i = w->bar_red;
        struct ptx_cta *c = w->c;
        uint32_t id = (uint32_t)row(w, &i->s[0])[__builtin_ctz(w->bar_red_mask)] & 15;
        if (i->mod == 2) {
            uint64_t *D = w->r + (size_t)i->d[0].idx * 32;
            for (uint32_t m_ = w->bar_red_mask; m_; m_ &= m_ - 1)
                D[__builtin_ctz(m_)] = c->red[id].popc;
        } else {
            bool v = i->mod == 3 ? c->red[id].all : c->red[id].any;
            uint32_t *P = &w->p[i->d[0].idx];
            *P = v ? (*P | w->bar_red_mask) : (*P & ~w->bar_red_mask);
        }
        if (++c->red[id].released >= c->red[id].arrived) {
            c->red[id].popc = 0;
            c->red[id].all = true;
            c->red[id].any = false;
            c->red[id].arrived = c->red[id].released = 0;
        }
        w->bar_red = NULL;
    }
}

/* ------------------------------------------------------------------ device printf */

/* vprintf(fmt, args) for the active lanes, in lane order: a record of the
 * launch's printf log each (printf.c), holding the format's address and the
 * lane's argument bytes, read here because the thread's local memory dies
 * with it. nvcc puts the argument buffer in the caller's frame, so the bytes
 * kept run from its start to the frame's end (at most PTX_PRINTF_ARGS_MAX).
 * The call returns 0: the arguments are counted only when the host formats
 * them (CUDA returns their number). */
static int exec_printf(struct ptx_warp *w, const struct px_inst *i, uint32_t active,
                       const struct ptx_env *env, char *err, size_t errlen)
{
    const struct px_call *cs = &w->m->calls[i->call];
    const struct px_func *f = w->frames[w->nf - 1].f;
    uint32_t frame_end = w->frame_base + f->frame_bytes;
    for (uint32_t m_ = active; m_; m_ &= m_ - 1) {
        unsigned l = (unsigned)__builtin_ctz(m_);
        uint8_t *local = w->local + (size_t)l * w->local_stride;
        uint64_t fmt, args;
        memcpy(&fmt, local + w->frame_base + cs->arg_off[0], 8);
        memcpy(&args, local + w->frame_base + cs->arg_off[1], 8);
        if (cs->n_rets)
            memset(local + w->frame_base + cs->ret_off[0], 0, 4);
        uint32_t n = 0;
        const uint8_t *bytes = NULL;
        if (args) {
            if (window_of(args) != WIN_LOCAL || args - PTX_LOCAL_WINDOW >= w->local_stride)
                return fault(w, i, err, errlen,
                             "printf's argument buffer is not in the thread's local memory", l,
                             args);
            uint32_t la = (uint32_t)(args - PTX_LOCAL_WINDOW);
            uint32_t end = la < frame_end ? frame_end : w->local_stride;
            n = MIN(end - la, PTX_PRINTF_ARGS_MAX);
            bytes = local + la;
        }
        if (env->printf_log)
            ptx_printf_log_add(env->printf_log, fmt, bytes, n);
    }
    return 0;
}
static int exec_warp_op(struct ptx_warp *w, const struct px_inst *i, uint32_t active)
{
    switch (i->op) {
    case PX_SHFL: {
        const uint64_t *A = row(w, &i->s[0]), *B = row(w, &i->s[1]), *C = row(w, &i->s[2]);
        uint32_t res[32], pv = 0;
        LANES(
            uint32_t b = (uint32_t)B[l] & 31; uint32_t cv = (uint32_t)C[l] & 31;
            uint32_t seg = ((uint32_t)C[l] >> 8) & 31;
            int32_t maxl = (int32_t)((l & seg) | (cv & ~seg)), minl = (int32_t)(l & seg); int32_t j;
            bool ok; switch (i->mod) {
                case 0:
                    j = (int32_t)l - (int32_t)b;
                    ok = j >= maxl;
                    break;
                case 1:
                    j = (int32_t)l + (int32_t)b;
                    ok = j <= maxl;
                    break;
                case 2:
                    j = (int32_t)(l ^ b);
                    ok = j <= maxl;
                    break;
                default:
                    j = minl | (int32_t)(b & ~seg);
                    ok = j <= maxl;
                    break;
            } if (!ok) j = (int32_t)l;
            res[l] = (uint32_t)A[j]; pv |= (uint32_t)ok << l);
        uint64_t *D = w->r + (size_t)i->d[0].idx * 32;
        LANES(D[l] = res[l]);
        if (i->n_dst > 1) {
            uint32_t *P = &w->p[i->d[1].idx];
            *P = (*P & ~active) | (pv & active);
        }
        return 0;
    }
    case PX_VOTE: {
        uint32_t p = pred_val(w, &i->s[0]) & active;
        if (i->mod == 3) {
            uint64_t *D = w->r + (size_t)i->d[0].idx * 32;
            LANES(D[l] = p);
            return 0;
        }
        bool v = i->mod == 0 ? p == active : i->mod == 1 ? p != 0 : (p == 0 || p == active);
        uint32_t *P = &w->p[i->d[0].idx];
        *P = v ? (*P | active) : (*P & ~active);
        return 0;
    }
    case PX_ACTIVEMASK: {
        uint64_t *D = w->r + (size_t)i->d[0].idx * 32;
        LANES(D[l] = active);
        return 0;
    }
    case PX_MATCH: {
        const uint64_t *A = row(w, &i->s[0]);
        unsigned by = px_type_bytes(i->type);
        uint64_t *D = w->r + (size_t)i->d[0].idx * 32;
        uint32_t res[32];
        bool all = true;
        LANES(uint32_t mm = 0; uint64_t v = trunc_to(A[l], by);
              for (uint32_t k_ = active; k_; k_ &= k_ - 1) {
                  unsigned o = (unsigned)__builtin_ctz(k_);
                  if (trunc_to(A[o], by) == v)
                      mm |= 1u << o;
              } res[l] = mm;
              if (mm != active) all = false);
        if (i->mod == 0) {
            LANES(D[l] = res[l]);
        } else {
            LANES(D[l] = all ? active : 0);
            if (i->n_dst > 1) {
                uint32_t *P = &w->p[i->d[1].idx];
                *P = all ? (*P | active) : (*P & ~active);
            }
        }
        return 0;
    }
    case PX_REDUX: {
        const uint64_t *A = row(w, &i->s[0]);
        bool sg = i->type == PT_S32;
        uint32_t acc = 0;
        int32_t sacc = 0;
        bool first = true;
        LANES(
            uint32_t v = (uint32_t)A[l]; if (first) {
                acc = v;
                sacc = (int32_t)v;
                first = false;
            } else switch (i->mod) {
                case 0:
                    acc += v;
                    break;
                case 1:
                    if (sg)
                        sacc = sacc < (int32_t)v ? sacc : (int32_t)v;
                    else
                        acc = acc < v ? acc : v;
                    break;
                case 2:
                    if (sg)
                        sacc = sacc > (int32_t)v ? sacc : (int32_t)v;
                    else
                        acc = acc > v ? acc : v;
                    break;
                case 3:
                    acc &= v;
                    break;
                case 4:
                    acc |= v;
                    break;
                default:
                    acc ^= v;
                    break;
            });
        if (sg && (i->mod == 1 || i->mod == 2))
            acc = (uint32_t)sacc;
        uint64_t *D = w->r + (size_t)i->d[0].idx * 32;
        LANES(D[l] = acc);
        return 0;
    }
    default:
        return 0;
    }
}

/* bar.sync, bar.arrive and bar.red: the step waits at barrier id (a
 * reduction's operand counted in the CTA's slot). */
static int exec_bar(struct ptx_warp *w, const struct px_inst *i, uint32_t active,
                    struct ptx_step *out, char *err, size_t errlen)
{
    if (w->tx_at) {
        snprintf(err, errlen, "%s:%u: barrier inside a transaction is not supported",
                 w->m->filename, i->line);
        return -1;
    }
    unsigned l0 = (unsigned)__builtin_ctz(active);
    uint32_t id = (uint32_t)row(w, &i->s[0])[l0];
    if (id > 15) {
        snprintf(err, errlen, "%s:%u: barrier number %u out of range", w->m->filename, i->line, id);
        return -1;
    }
    out->kind = PTX_STEP_BARRIER;
    out->bar.id = id;
    out->bar.count = i->s[1].kind != OK_NONE ? (uint32_t)row(w, &i->s[1])[l0] : 0;
    out->bar.arrive_only = i->mod == 1;
    out->bar.n_threads = (uint32_t)__builtin_popcount(active);
    if (i->mod >= 2) {
        struct ptx_cta *c = w->c;
        uint32_t p = pred_val(w, &i->s[2]) & active;
        c->red[id].popc += (uint32_t)__builtin_popcount(p);
        c->red[id].all &= p == active;
        c->red[id].any |= p != 0;
        c->red[id].arrived++;
        w->bar_red = i;
        w->bar_red_mask = active;
    }
    if (i->mod != 1)
        w->at_barrier = true;
    return 0;
}

/* A transaction begins: the registers and predicates saved for a retry, the
 * SIMT stack's retry and transaction entries pushed. */
static int exec_tx_begin(struct ptx_warp *w, const struct px_inst *i, uint32_t pc, uint32_t active,
                         uint32_t mask, struct ptx_step *out, char *err, size_t errlen)
{
    if (active != mask) {
        snprintf(err, errlen,
                 "%s:%u: predicated transaction begin with a partial mask is "
                 "not supported",
                 w->m->filename, i->line);
        return -1;
    }
    if (!active)
        return 0;
    if (w->tx_at) {
        snprintf(err, errlen, "%s:%u: nested transactions are not supported", w->m->filename,
                 i->line);
        return -1;
    }
    if (w->n_pending || w->sp + 2 > w->stk_cap) {
        snprintf(err, errlen, "%s:%u: transaction begin with %s", w->m->filename, i->line,
                 w->n_pending ? "loads outstanding" : "a full SIMT stack");
        return -1;
    }
    memcpy(w->tx_regs, w->regs, (size_t)w->n_rows * 32 * sizeof(uint64_t));
    memcpy(w->tx_preds, w->preds, (size_t)w->n_preds * sizeof(uint32_t));
    w->tx_begin_pc = pc;
    w->tx_n = 0;
    w->tx_aborted = 0;
    stk_push(w, (struct simt_entry){pc + 1, PX_RPC_EXIT, 0, 0, SE_RETRY});
    stk_push(w, (struct simt_entry){pc + 1, PX_RPC_EXIT, active, 0, SE_TX});
    w->tx_at = w->sp;
    out->kind = PTX_STEP_TX_BEGIN;
    return 0;
}

/* A transaction's commit, reached by the whole warp with nothing outstanding. */
static int exec_tx_commit(struct ptx_warp *w, const struct px_inst *i, uint32_t pc, uint32_t active,
                          uint32_t mask, struct ptx_step *out, char *err, size_t errlen)
{
    if (!active && !w->tx_at)
        return 0;
    if (!w->tx_at || w->tx_at != w->sp || active != mask) {
        snprintf(err, errlen, "%s:%u: %s", w->m->filename, i->line,
                 !w->tx_at        ? "transaction commit outside a transaction"
                 : active != mask ? "predicated transaction commit with a partial mask is "
                                    "not supported"
                                  : "transaction commit reached by part of a diverged warp "
                                    "(branches inside a transaction must reconverge before "
                                    "its commit)");
        return -1;
    }
    if (w->n_pending) {
        snprintf(err, errlen, "%s:%u: transaction commit with loads outstanding", w->m->filename,
                 i->line);
        return -1;
    }
    tx_end(w, out, active, pc);
    return 0;
}

/* A call: the arguments copied into the callee's frame, its registers,
 * predicates and locals above the caller's, its first instruction pushed. */
static int exec_call(struct ptx_warp *w, const struct px_inst *i, uint32_t active, uint32_t mask,
                     char *err, size_t errlen)
{
    if (w->tx_at && active) {
        snprintf(err, errlen, "%s:%u: call inside a transaction is not supported", w->m->filename,
                 i->line);
        return -1;
    }
    if (active != mask) {
        snprintf(err, errlen, "%s:%u: predicated call with a partial mask is not supported",
                 w->m->filename, i->line);
        return -1;
    }
    if (w->n_pending) {
        snprintf(err, errlen, "%s:%u: call issued with loads outstanding", w->m->filename, i->line);
        return -1;
    }
    if (!active)
        return 0;
    const struct px_call *cs = &w->m->calls[i->call];
    const struct px_func *callee = &w->m->funcs[i->target];
    struct call_frame *cur = &w->frames[w->nf - 1];
    if (w->nf >= w->frames_cap || w->sp + 1 > w->stk_cap) {
        snprintf(err, errlen, "%s:%u: call stack overflow", w->m->filename, i->line);
        return -1;
    }
    struct call_frame *nf = &w->frames[w->nf];
    nf->f = callee;
    nf->cs = cs;
    nf->marker = w->sp - 1;
    nf->row_base = cur->row_base + cur->f->n_rows;
    nf->pred_base = cur->pred_base + cur->f->n_preds;
    nf->local_base = cur->local_base + cur->f->frame_bytes;
    if (nf->local_base + callee->frame_bytes > w->local_stride ||
        nf->row_base + callee->n_rows > w->n_rows || nf->pred_base + callee->n_preds > w->n_preds) {
        snprintf(err, errlen, "%s:%u: call frame overflow", w->m->filename, i->line);
        return -1;
    }
    for (unsigned k = 0; k < cs->n_args; k++) {
        const struct px_param *pp = &callee->params[k];
        uint32_t n = MIN(pp->size, cs->arg_size[k]);
        LANES(uint8_t *base = w->local + (size_t)l * w->local_stride;
              memmove(base + nf->local_base + pp->off, base + cur->local_base + cs->arg_off[k], n));
    }
    w->nf++;
    w->top.call = w->nf - 1 + 1;
    stk_push(w, (struct simt_entry){callee->first, PX_RPC_EXIT, active, 0});
    w->r = w->regs + (size_t)nf->row_base * 32;
    w->p = w->preds + nf->pred_base;
    w->rr = w->ready + nf->row_base;
    w->rp = w->ready + w->n_rows + nf->pred_base;
    w->frame_base = nf->local_base;
    return 0;
}

static inline int step(struct ptx_warp *w, const struct ptx_env *env, struct ptx_step *out,
                       char *err, size_t errlen)
{
    if (!w->sp) {
        snprintf(err, errlen, "%s: step of a warp that has exited", w->m->filename);
        return -1;
    }
    struct simt_entry *top = &w->top;
    uint32_t pc = top->pc, mask = top->mask;
    const struct px_inst *i = &w->ins[pc];
    if (w->tx_at == w->sp && !mask) {
        /* every lane of the attempt aborted: it ends here, without a commit */
        out->lat_class = PTX_LAT_BRANCH;
        out->lat = env->lat ? env->lat[PTX_LAT_BRANCH] : 1;
        out->active = 0;
        out->n_thread_insts = 0;
        tx_end(w, out, 0, 0);
        return 0;
    }
    uint32_t active = mask;
    if (i->guard >= 0) {
        uint32_t g = w->p[i->guard];
        active &= (i->flags & PF_GNEG) ? ~g : g;
    }
    out->kind = PTX_STEP_ALU;
    out->lat_class = i->lat;
    out->active = active;
    out->n_thread_insts = active == 0xffffffffu ? 32 : popc32(active);
    uint64_t now = env->clock;
    uint32_t lat = result_latency(env, i);
    out->lat = lat;
    top->pc = pc + 1;
    bool set_ready = true;
    switch (i->op) {
    case PX_NOP:
    case PX_BAR_WARP:
        break;
    case PX_SETP:
        exec_setp(w, i, active);
        break;
    case PX_HSETP:
        exec_hsetp(w, i, active);
        break;
    case PX_SET:
        if (active)
            exec_set(w, i, active);
        break;
    case PX_HADD:
    case PX_HSUB:
    case PX_HMUL:
    case PX_HFMA:
    case PX_HMIN:
    case PX_HMAX:
    case PX_HNEG:
    case PX_HABS:
    case PX_HEX2:
    case PX_HTANH:
    case PX_CVT_PACK:
        if (active)
            exec_half(w, i, active);
        break;
    case PX_PAND:
    case PX_POR:
    case PX_PXOR:
    case PX_PNOT:
    case PX_PMOV: {
        uint32_t a = pred_val(w, &i->s[0]);
        uint32_t b = i->n_src > 1 ? pred_val(w, &i->s[1]) : 0;
        uint32_t r = i->op == PX_PAND   ? a & b
                     : i->op == PX_POR  ? a | b
                     : i->op == PX_PXOR ? a ^ b
                     : i->op == PX_PNOT ? ~a
                                        : a;
        uint32_t *P = &w->p[i->d[0].idx];
        *P = (*P & ~active) | (r & active);
        break;
    }
    case PX_MOV_PRED_FROM: {
        uint32_t *P = &w->p[i->d[0].idx];
        *P = i->mod ? (*P | active) : (*P & ~active);
        break;
    }
    case PX_LD:
    case PX_ST:
    case PX_ATOM:
    case PX_RED:
        if (!active)
            break;
        set_ready = false;
        if (exec_mem(w, i, active, env, out, err, errlen))
            return -1;
        break;
    case PX_FENCE:
        if (!active)
            break;
        out->kind = PTX_STEP_MEM;
        out->mem.op = MEM_FENCE;
        out->mem.sem = i->sem;
        out->mem.scope = i->scope;
        out->mem.size = 0;
        out->mem.mask = active;
        out->mem.is_red = false;
        out->mem.atom_kind = out->mem.atom_type = 0;
        out->mem.tag = pc;
        out->mem.tx = false;
        break;
    case PX_BAR:
        if (active && exec_bar(w, i, active, out, err, errlen))
            return -1;
        break;
    case PX_BRA: {
        uint32_t nt = mask & ~active;
        if (!nt)
            top->pc = i->target;
        else if (active && diverge(w, i->target, pc + 1, active, nt, i->rpc, err, errlen, i))
            return -1;
        break;
    }
    case PX_TXBEGIN:
        if (exec_tx_begin(w, i, pc, active, mask, out, err, errlen))
            return -1;
        break;
    case PX_TXCOMMIT:
        if (exec_tx_commit(w, i, pc, active, mask, out, err, errlen))
            return -1;
        break;
    case PX_PRINTF:
        if (active && exec_printf(w, i, active, env, err, errlen))
            return -1;
        break;
    case PX_CALL:
        if (exec_call(w, i, active, mask, err, errlen))
            return -1;
        break;
    case PX_RET: {
        if (w->tx_at && active) {
            snprintf(err, errlen, "%s:%u: %s inside a transaction is not supported", w->m->filename,
                     i->line, w->nf <= 1 ? "exit" : "ret");
            return -1;
        }
        if (w->nf <= 1) {
            /* ret in a kernel is decoded as exit; this is a defensive path */
            w->exited |= active;
            remove_lanes(w, active, 0);
            break;
        }
        if (w->n_pending) {
            snprintf(err, errlen, "%s:%u: ret issued with loads outstanding", w->m->filename,
                     i->line);
            return -1;
        }
        remove_lanes(w, active, w->frames[w->nf - 1].marker + 1);
        break;
    }
    case PX_EXIT:
        if (w->tx_at && active) {
            snprintf(err, errlen, "%s:%u: exit inside a transaction is not supported",
                     w->m->filename, i->line);
            return -1;
        }
        w->exited |= active;
        remove_lanes(w, active, 0);
        break;
    case PX_TRAP:
        if (!active)
            break;
        snprintf(err, errlen, "%s:%u: trap", w->m->filename, i->line);
        return -1;
    case PX_SHFL:
    case PX_VOTE:
    case PX_ACTIVEMASK:
    case PX_MATCH:
    case PX_REDUX:
        if (exec_warp_op(w, i, active))
            return -1;
        break;
    default:
        if (active && exec_alu(w, i, active, env, err, errlen))
            return -1;
        break;
    }
    if (set_ready && i->n_dst) {
        for (unsigned k = 0; k < i->n_dst; k++) {
            const struct px_opnd *d = &i->d[k];
            if (d->kind == OK_REG)
                w->rr[d->idx] = now + lat;
            else if (d->kind == OK_PRED)
                w->rp[d->idx] = now + lat;
        }
        if (now + lat > w->ready_max)
            w->ready_max = now + lat;
    }
    settle(w);
    if (!w->sp)
        out->kind = out->kind == PTX_STEP_ALU ? PTX_STEP_EXIT : out->kind;
    return 0;
}

/* A run-time fault's message names the PTX line ("prog.ptx:120: ..."); with
 * -lineinfo the CUDA source line of that instruction follows it, as in
 * ptx_warp_where. */
int ptx_warp_step(struct ptx_warp *w, const struct ptx_env *env, struct ptx_step *out, char *err,
                  size_t errlen)
{
    uint32_t pc = w->sp ? w->top.pc : UINT32_MAX;
    if (__builtin_expect(!step(w, env, out, err, errlen), 1))
        return 0;
    const struct px_loc *l = w->m->locs && pc != UINT32_MAX ? &w->m->locs[pc] : NULL;
    if (l && l->line && l->file < w->m->n_src_files && w->m->src_files[l->file]) {
        size_t n = strlen(err);
        if (n < errlen)
            snprintf(err + n, errlen - n, " (at %s:%u)", w->m->src_files[l->file], l->line);
    }
    return -1;
}
