/*
 * sm.c - the SM timing model (see sm.h).
 *
 * One tick is one core cycle, its stages run back to front so that nothing
 * moves two stages in one cycle: (1) take the L1's responses and complete
 * memory instructions, (2) the memory stage sends at most one line request
 * into the L1 port, (3) the kernel controller sends KERNEL_BEGIN/END and
 * dispatches at most one CTA, (4) each warp scheduler issues at most one warp
 * instruction. Issue executes the instruction in the interpreter at once; a
 * global memory instruction is then coalesced and enters the in-order memory
 * stage (the LSU queue) if the ordering policy lets it and there is room, and
 * otherwise waits, held by its warp, which issues nothing else meanwhile
 * (spec 001 §2.1: ordering stalls at issue). Its line requests leave one per
 * cycle, lat_gmem cycles after issue at the earliest.
 *
 * Per-cycle cost: only warps in the ready set are polled. A warp that cannot
 * issue is taken out of it until it can: the scoreboard gives the exact cycle
 * its operands computed in the SM are ready (the warp waits on a timer
 * wheel), or says it waits for memory (the warp is parked until one of its
 * loads or atomics completes). Issue order and timing are the same as polling
 * every warp every cycle. When no warp is ready and nothing else can move
 * (memory stage, warps held for it, kernel controller), the SM sleeps until
 * the first timed warp's cycle, the memory stage head's cycle or the L1's
 * next response, and on waking counts the slept cycles with the stall reason
 * they had (nothing changed meanwhile). Under the engine's tie order this is
 * exact: sm.sleep = false (tick every cycle) gives identical statistics.
 * Host speed: hundreds of warps are interleaved, so a warp's interpreter state
 * is rarely in the host's caches. The SM therefore keeps each warp's first
 * issue cycle itself (refreshed whenever the interpreter changes the warp:
 * step, completion, barrier release) and touches the interpreter only to
 * issue; GTO finds the oldest ready warp through a bit per age position; a
 * warp slot keeps its interpreter warp, whose storage the slot's next warp
 * reuses, so CTA dispatch does not allocate.
 *
 * Wavefronts (warp_size 64): PTX fixes a warp at 32 threads (WARP_SZ,
 * %laneid, 32-bit vote and shuffle masks), so a 64-thread wavefront is two
 * PTX warps of one CTA in a pair of slots (2k, 2k+1) that issue in lockstep:
 * when both halves are about to run the same instruction, they issue together
 * in one scheduler slot (counted as one warp instruction), and one whose half
 * waits for its operands or for the memory stage waits with it; halves at
 * different instructions (divergence across the halves) issue one at a time,
 * as the paths of a divergent wavefront do. Warp collectives and %laneid
 * therefore act within each 32-thread half, as the PTX says. Internally every
 * count of slots (spec.warps after sm_new) is in 32-thread halves.
 * DEVIATION: each half coalesces its own lanes, so a line both halves touch is
 * requested twice (for lanes of consecutive words that never happens).
 * INVARIANT: a warp slot is freed only when its warp exited and has nothing
 * outstanding; a CTA when all its warps are freed.
 * DEVIATION: a barrier counts warps, not threads (pre-Volta hardware): a warp
 * with any live thread arriving adds all its threads, and with no thread count
 * the barrier waits for the threads of the CTA's warps that have not exited.
 * NOT MODELED: register-file bank conflicts, operand collectors, dual issue,
 * instruction fetch and i-cache, shared-memory bank conflicts (a fixed
 * lat_shmem), bar.sync waiting for earlier memory operations (CTA-scope order
 * relies on the in-order path from the LSU through the L1).
 *
 * This file holds what a tick runs: the memory stage (the LSU queue, line
 * requests into the L1 port, responses completing instructions), the issue
 * stage and the warp schedulers, and the tick with its sleeping. The TSO
 * store buffer is in sm_sb.c, type-aware SC in sm_ta.c, CTAs, warps and the
 * kernel controller in sm_cta.c, and the component's options, construction,
 * dump and statistics in sm_comp.c, all sharing sm_int.h.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "gpu/sm_int.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- memory instructions ---- */

/* One event of the traced warp's transactions (getm.trace_warp), on stderr:
 * a debugging aid that follows one transaction through the memory system;
 * it costs one comparison when no warp is traced. */
static void tx_trace(const struct sm *sm, unsigned slot, cycle_t cyc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void tx_trace(const struct sm *sm, unsigned slot, cycle_t cyc, const char *fmt, ...)
{
    if (sm->tx_trace_slot != (int)slot)
        return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "tx-trace %llu %s warp %u: ", (unsigned long long)cyc, sm->comp.name, slot);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* One step of a load's hash: lane l's address and value. */
static inline uint64_t load_hash_lane(uint64_t h, const struct ptx_memop *op, unsigned l)
{
    return (h ^ op->addr[l] ^ op->data[l][0] ^ (op->data[l][1] << 1)) * 0x9e3779b97f4a7c15ull;
}

/* The hash of a completed load's lanes (mask, then each lane's address and
 * value in lane order) that the spin check compares with the warp's last
 * one. A whole warp's load, the common case, walks the lanes by index
 * instead of by the mask's bits, four a turn: the same hash in fewer
 * instructions. */
static uint64_t load_hash(const struct ptx_memop *op)
{
    uint64_t h = op->mask;
    if (op->mask == 0xffffffffu) {
#pragma GCC unroll 4
        for (unsigned l = 0; l < 32; l++)
            h = load_hash_lane(h, op, l);
        return h;
    }
    for (uint32_t lanes = op->mask; lanes; lanes &= lanes - 1)
        h = load_hash_lane(h, op, (unsigned)__builtin_ctz(lanes));
    return h;
}

void smi_complete_minst(struct sm *sm, struct sm_minst *mi, cycle_t cyc)
{
    struct sm_warp *w = &sm->warps[mi->warp];
    bool res = is_result_op(&mi->mem);
    order_complete(sm->ord, &w->ord, mi->mem.op, mi->mem.sem);
    w->n_out--;
    /* a write at the L2 now: logical-time protocols' spin watchdog takes its
     * lease marks after it (machine_run.c, mark_leases) */
    sm->advances += mi->mem.op == MEM_STORE || mi->mem.op == MEM_ATOMIC;
    if (mi->mem.op == MEM_LOAD) {
        /* a warp that loads what it loaded last time (a spin on a flag) is not
         * progressing; a new address or a new value is */
        uint64_t h = load_hash(&mi->mem);
        sm->advances += h != w->last_load;
        w->last_load = h;
        if (mi->mem.mask) {
            unsigned l = (unsigned)__builtin_ctz(mi->mem.mask);
            w->last_addr = mi->mem.addr[l];
            w->last_value = mi->mem.data[l][0];
        }
    }
    if (res) {
        ptx_warp_complete(w->pw, &mi->mem, (const uint64_t(*)[2])mi->mem.data, cyc);
        uint32_t doomed = mi->mem.tx && sm->tx ? sm->tx->loaded(sm->tx_ctx, mi->warp, w->pw) : 0;
        if (doomed)
            ptx_warp_tx_abort(w->pw, doomed);
        w->issue_at = ptx_warp_issue_cycle(w->pw);
        w->n_res--;
    }
    if (__builtin_expect(sm->observer.done != NULL, 0)) {
        mi->ev.done = cyc;
        sm->observer.done(sm->observer.ctx, &mi->ev);
    }
    mi->in_use = false;
    sm->minst_free[sm->n_minst_free++] = (uint16_t)(mi - sm->minst);
    if (sm->sb)
        smi_sb_check(sm, w);
    if (mi->ta_sent)
        smi_ta_sent_done(sm, mi);

    switch (w->state) {
    case W_PARKED:
        if (res || sm->tx) /* a transaction's end waits for the warp's accesses */
            set_state(sm, w, W_READY);
        break;
    case W_HELD_ORDER:
        smi_retry_held(sm, w, cyc);
        break;
    case W_EXITED:
        if (w->n_out == 0)
            smi_warp_free(sm, w);
        break;
    default:
        break;
    }
}

/* The operation now counts as outstanding in the memory stage (a store
 * from the store buffer, or an access from a type-wait queue, was counted in
 * n_out when it was buffered); false when it had no line to send and is
 * complete already. */
bool smi_lsu_issue(struct sm *sm, struct sm_warp *w, unsigned idx, cycle_t cyc, bool buffered)
{
    struct sm_minst *mi = &sm->minst[idx];
    order_issue(sm->ord, &w->ord, mi->mem.op, mi->mem.sem);
    if (!buffered) {
        w->n_out++;
        if (is_result_op(&mi->mem))
            w->n_res++;
    }
    if (mi->mem.op == MEM_LOAD)
        w->ld_last = w->ld_issued++;
    if (mi->n_lines == 0) { /* no lane went to global memory */
        smi_complete_minst(sm, mi, cyc);
        return false;
    }
    uint32_t lat = sm->spec.lat[PTX_LAT_GMEM];
    mi->ready = cyc + (lat ? lat : 1);
    mi->pending = mi->n_lines == 32 ? 0xffffffffu : (1u << mi->n_lines) - 1;
    return true;
}

/* Enter the memory stage, every line to be sent (lsu_issue). */
void smi_lsu_enqueue(struct sm *sm, struct sm_warp *w, unsigned idx, cycle_t cyc, bool buffered)
{
    if (!smi_lsu_issue(sm, w, idx, cyc, buffered))
        return;
    struct sm_minst *mi = &sm->minst[idx];
    mi->send_end = mi->n_lines;
    sm->lsu[(sm->lsu_head + sm->lsu_n++) % sm->spec.lsu_queue] = (uint16_t)idx;
}

/* A load served from the store buffer completes at once; its registers are
 * ready lat_gmem cycles later, as an L1 port would deliver nothing sooner. */
static void forward_load(struct sm *sm, struct sm_warp *w, unsigned idx, cycle_t cyc)
{
    struct sm_minst *mi = &sm->minst[idx];
    order_issue(sm->ord, &w->ord, mi->mem.op, mi->mem.sem);
    w->n_out++;
    w->n_res++;
    sm->st.sb_forwards++;
    smi_complete_minst(sm, mi, cyc + sm->spec.lat[PTX_LAT_GMEM]);
}

static void hold_for_lsu(struct sm *sm, struct sm_warp *w, unsigned idx)
{
    w->held = (uint16_t)idx;
    set_state(sm, w, W_HELD_LSU);
    sm->lsu_wait[(sm->lsu_wait_head + sm->lsu_wait_n++) % SM_MAX_WARPS] = (uint8_t)(w - sm->warps);
}

/* A held warp's instruction may have become free to go. A warp held before
 * executing (SM_HOLD_CTA) waits for all of its memory operations. */

void smi_retry_held(struct sm *sm, struct sm_warp *w, cycle_t cyc)
{
    unsigned idx = w->held;
    enum sm_hold why = (enum sm_hold)w->hold;
    enum mem_go g = GO_LSU;
    if (idx == SM_NONE) {
        if (!smi_cta_clear(sm, w))
            return;
        g = GO_FORWARD; /* nothing to send: the warp simply goes on */
    } else {
        g = smi_mem_decide(sm, w, idx, &why);
        if (g == GO_HOLD) {
            if (why != w->hold) {
                unhold(sm, w, cyc);
                hold(sm, w, idx, why, cyc);
            }
            return;
        }
    }
    unhold(sm, w, cyc);
    if (g == GO_LSU) {
        /* joins the queue for the memory stage, behind warps already waiting */
        hold_for_lsu(sm, w, idx);
        return;
    }
    w->held = SM_NONE;
    set_state(sm, w, W_READY);
    if (idx == SM_NONE)
        return;
    if (g == GO_BUFFER)
        smi_sb_push(sm, w, idx);
    else if (g == GO_TYPE)
        smi_ta_enter(sm, w, idx, cyc);
    else
        forward_load(sm, w, idx, cyc);
}

/* Warps held for room enter the memory stage first, oldest hold first; then
 * store-buffer heads that may be sent. */
static bool lsu_admit_held(struct sm *sm, cycle_t cyc)
{
    bool moved = false;
    while (sm->lsu_wait_n && sm->lsu_n < sm->spec.lsu_queue) {
        struct sm_warp *w = &sm->warps[sm->lsu_wait[sm->lsu_wait_head]];
        sm->lsu_wait_head = (sm->lsu_wait_head + 1) % SM_MAX_WARPS;
        sm->lsu_wait_n--;
        unsigned idx = w->held;
        w->held = SM_NONE;
        set_state(sm, w, W_READY);
        smi_lsu_enqueue(sm, w, idx, cyc, false);
        moved = true;
    }
    while (sm->sb_ready_n && sm->lsu_n < sm->spec.lsu_queue) {
        struct sm_warp *w = &sm->warps[sm->sb_ready[sm->sb_ready_head]];
        sm->sb_ready_head = (sm->sb_ready_head + 1) % SM_MAX_WARPS;
        sm->sb_ready_n--;
        w->sb_queued = false;
        if (!sb_head_ready(sm, w)) /* a younger acquire went out meanwhile */
            continue;
        struct sm_minst *mi = sb_at(sm, w, 0);
        w->sb_head = (uint16_t)((w->sb_head + 1) % sm->spec.order.store_buffer);
        w->sb_n--;
        w->sb_lines = (uint16_t)(w->sb_lines - mi->n_lines);
        if (--w->ord.n[ORDER_SB] == 0)
            w->ord.nz &= (uint8_t)~ORDER_BIT(ORDER_SB);
        smi_sb_combine(sm, w, mi, cyc);
        smi_lsu_enqueue(sm, w, (unsigned)(mi - sm->minst), cyc, true);
        if (w->state == W_HELD_SB)
            smi_retry_held(sm, w, cyc);
        moved = true;
    }
    return moved;
}

/* Prefetch the lines of an access held for ordering (order.prefetch). */
static void prefetch_lines(struct sm *sm, const struct sm_minst *mi)
{
    if (mi->mem.op == MEM_FENCE)
        return;
    for (unsigned i = 0; i < mi->n_lines; i++) {
        if (sm->pf_n == SM_PREFETCH_QUEUE) {
            sm->st.prefetches_dropped += mi->n_lines - i;
            return;
        }
        unsigned k = (sm->pf_head + sm->pf_n++) % SM_PREFETCH_QUEUE;
        sm->pf[k] = mi->line[i].line;
        sm->pf_warp[k] = (uint8_t)mi->warp;
    }
}

/* A memory instruction that completes as it issues (a fence the model needs
 * not send, a transactional store the redo log keeps). */
static void observe_done_now(struct sm *sm, unsigned op, cycle_t cyc)
{
    sm->iev.op = (uint8_t)op;
    sm->iev.done = cyc;
    sm->observer.done(sm->observer.ctx, &sm->iev);
}

static void mem_issue(struct sm *sm, struct sm_warp *w, const struct ptx_memop *op, cycle_t cyc)
{
    if (op->op == MEM_FENCE && sm->ord->fences_free) {
        sm->st.mem_insts[MEM_FENCE]++;
        sm->st.fences_elided++;
        if (__builtin_expect(sm->observer.done != NULL, 0))
            observe_done_now(sm, op->op, cyc);
        return;
    }
    uint32_t doomed = 0;
    if (op->tx && op->op == MEM_STORE && sm->tx &&
        sm->tx->keeps_store(sm->tx_ctx, (unsigned)(w - sm->warps), w->pw, &doomed)) {
        sm->st.mem_insts[MEM_STORE]++; /* WarpTM: the redo log holds it until the commit */
        sm->st.mem_lanes[MEM_STORE] += (unsigned)__builtin_popcount(op->mask);
        if (doomed)
            ptx_warp_tx_abort(w->pw, doomed);
        if (__builtin_expect(sm->observer.done != NULL, 0))
            observe_done_now(sm, op->op, cyc);
        return;
    }
    if (!sm->n_minst_free) /* the scheduler admits an issue only while a slot is free */
        panic("%s: warp %u issued a memory instruction with no instruction slot free",
              sm->comp.name, (unsigned)(w - sm->warps));
    unsigned idx = sm->minst_free[--sm->n_minst_free];
    struct sm_minst *mi = &sm->minst[idx];
    /* A load's data is not copied (512 of the operation's 792 bytes): every
     * lane of its mask gets its bytes written before anything reads them, as
     * its lines return (drain_responses) or from the store buffer
     * (sb_forward). */
    memcpy(&mi->mem, op, offsetof(struct ptx_memop, data));
    if (op->op != MEM_LOAD)
        memcpy(mi->mem.data, op->data, sizeof op->data);
    mi->mem.tag = op->tag;
    mi->mem.tx = op->tx;
    mi->warp = (uint16_t)(w - sm->warps);
    mi->gen++;
    mi->in_use = true;
    mi->next_line = 0;
    mi->pending = 0;
    mi->ta_sent = 0;
    if (op->op >= MEM_KERNEL_BEGIN || op->sem >= SEM_N || op->scope >= SCOPE_N)
        panic("%s: interpreter produced memory op %u sem %u scope %u", sm->comp.name, op->op,
              op->sem, op->scope);
    if (op->op == MEM_FENCE) {
        mi->n_lines = 1;
        mi->line[0] = (struct coal_line){0, 0};
    } else {
        unsigned bad;
        int n = coalesce(op->addr, op->mask, op->size, sm->line_bytes, mi->line, &bad);
        if (n < 0) {
            char where[128];
            fatal("kernel %s: CTA %u warp %u lane %u: misaligned %u-byte global access at "
                  "0x%llx (before %s)",
                  smi_kernel_name(sm), w->cta->index, w->warp_in_cta, bad, op->size,
                  (unsigned long long)op->addr[bad], ptx_warp_where(w->pw, where, sizeof where));
        }
        mi->n_lines = (uint8_t)n;
    }
    if (__builtin_expect(sm->observer.done != NULL, 0)) {
        mi->ev = sm->iev;
        mi->ev.op = (uint8_t)op->op;
        mi->ev.n_lines = op->op == MEM_FENCE ? 0 : mi->n_lines;
        mi->ev.lines = mi->line;
    }
    sm->st.mem_insts[op->op]++;
    sm->st.mem_lanes[op->op] += (unsigned)__builtin_popcount(op->mask);
    sm->advances += op->op == MEM_STORE || op->op == MEM_ATOMIC;
    enum sm_hold why = SM_HOLD_ORDER;
    switch (smi_mem_decide(sm, w, idx, &why)) {
    case GO_HOLD:
        hold(sm, w, idx, why, cyc);
        if (why == SM_HOLD_ORDER && sm->spec.order.prefetch)
            prefetch_lines(sm, mi);
        return;
    case GO_BUFFER:
        smi_sb_push(sm, w, idx);
        return;
    case GO_FORWARD:
        forward_load(sm, w, idx, cyc);
        return;
    case GO_TYPE:
        smi_ta_enter(sm, w, idx, cyc);
        return;
    case GO_LSU:
        break;
    }
    if (sm->lsu_wait_n || sm->lsu_n >= sm->spec.lsu_queue) {
        hold_for_lsu(sm, w, idx);
        return;
    }
    smi_lsu_enqueue(sm, w, idx, cyc, false);
}

static const uint8_t class_of_op[MEM_NOPS] = {
    [MEM_LOAD] = TRAFFIC_LD,   [MEM_STORE] = TRAFFIC_ST,         [MEM_ATOMIC] = TRAFFIC_ATO,
    [MEM_FENCE] = TRAFFIC_REQ, [MEM_KERNEL_BEGIN] = TRAFFIC_REQ, [MEM_KERNEL_END] = TRAFFIC_REQ};

/* A prefetch leaves when the memory stage has nothing else to send this
 * cycle (order.prefetch_issue = idle; `first` sends it ahead): a weak load of one byte of the line,
 * answered with data that is dropped (a plain load to the protocol, so it allocates and merges as
 * one). */
static bool prefetch_send(struct sm *sm)
{
    if (!port_has_room(sm->to_l1, 1))
        return false;
    unsigned k = sm->pf_head;
    sm->pf_head = (sm->pf_head + 1) % SM_PREFETCH_QUEUE;
    sm->pf_n--;
    struct msg *m = msg_new(sm->msgs, MSG_CORE_REQ, sm->pf[k], sm->comp.eng->now);
    m->cls = TRAFFIC_LD;
    m->req = (struct mem_req){.op = MEM_LOAD,
                              .sem = SEM_WEAK,
                              .scope = SCOPE_GPU,
                              .gpu = (uint8_t)sm->gpu,
                              .sm = (uint16_t)sm->id,
                              .warp = sm->pf_warp[k],
                              .prefetch = 1,
                              .id = req_id(0, ID_PREFETCH_SLOT, 0)};
    bytemask_set_range(&m->mask, 0, 1);
    if (!port_send(sm->to_l1, m))
        panic("%s: send on a port that had room", sm->comp.name);
    eng_work_issued(sm->comp.eng);
    sm->pf_out++;
    sm->st.prefetches++;
    return true;
}

/* The lanes of line cl into m: their bytes in its mask, a store's data, an
 * atomic's operands (into a). Always inlined, and called with a constant
 * `size` for the usual 4 and 8 bytes: a copy of a size known only at run
 * time is a branchy sequence (about 9 instructions a lane in unpack_lanes on
 * cl), a fixed one a load and a store. */
static inline __attribute__((always_inline)) void pack_lanes(struct msg *m, struct atom_ops *a,
                                                             const struct ptx_memop *op,
                                                             const struct coal_line *cl,
                                                             unsigned size)
{
    /* accesses are aligned to their size (coalesce checked), so a lane's
     * bytes never straddle a 64-bit word of the mask */
    uint64_t lane_bits = size >= 64 ? ~0ull : (1ull << size) - 1;
    for (uint32_t lanes = cl->lanes; lanes; lanes &= lanes - 1) {
        unsigned l = (unsigned)__builtin_ctz(lanes);
        unsigned off = (unsigned)(op->addr[l] - cl->line);
        if (size <= 64)
            m->mask.w[off >> 6] |= lane_bits << (off & 63);
        else
            bytemask_set_range(&m->mask, off, size);
        if (op->op == MEM_STORE)
            memcpy(m->data + off, op->data[l], size);
        else if (a)
            a->lane[a->n++] =
                (struct atom_lane){(uint8_t)l, (uint8_t)off, op->data[l][0], op->data[l][1], 0};
    }
}

/* A load's lanes of line cl from the answer's data into op->data,
 * zero-extended; inlined with a constant size like pack_lanes. */
static inline __attribute__((always_inline)) void
unpack_lanes(struct ptx_memop *op, const struct coal_line *cl, const uint8_t *data, unsigned size)
{
    for (uint32_t lanes = cl->lanes; lanes; lanes &= lanes - 1) {
        unsigned l = (unsigned)__builtin_ctz(lanes);
        op->data[l][0] = op->data[l][1] = 0;
        memcpy(op->data[l], data + (op->addr[l] - cl->line), size);
    }
}

/* The memory stage: the head instruction sends its next line, if the port
 * has room (else retried next cycle and counted). */
static bool lsu_send(struct sm *sm, cycle_t cyc)
{
    if (sm->pf_n && sm->spec.order.prefetch_issue == ORDER_PREFETCH_FIRST && prefetch_send(sm))
        return true;
    if (!sm->lsu_n)
        return sm->pf_n && prefetch_send(sm);
    unsigned idx = sm->lsu[sm->lsu_head];
    struct sm_minst *mi = &sm->minst[idx];
    if (cyc < mi->ready)
        return sm->pf_n && prefetch_send(sm);
    if (!port_has_room(sm->to_l1, 1)) {
        sm->st.port_full++;
        return false;
    }
    const struct ptx_memop *op = &mi->mem;
    unsigned li = mi->next_line;
    const struct coal_line *cl = &mi->line[li];
    struct msg *m = msg_new(sm->msgs, MSG_CORE_REQ, cl->line, sm->comp.eng->now);
    m->cls = class_of_op[op->op];
    m->req = (struct mem_req){.op = op->op,
                              .sem = op->sem,
                              .scope = op->scope,
                              .gpu = (uint8_t)sm->gpu,
                              .sm = (uint16_t)sm->id,
                              .warp = mi->warp,
                              .req_type = sm->run->req_types ? sm->run->req_types[op->tag] : 0,
                              .id = req_id(mi->gen, idx, li)};
    struct atom_ops *a = NULL;
    if (op->op == MEM_ATOMIC) {
        a = pool_alloc(&sm->atoms);
        a->kind = op->atom_kind;
        a->type = op->atom_type;
        a->is_red = op->is_red;
        m->req.atom = a;
    }
    switch (op->size) { /* the usual sizes with a constant size (pack_lanes) */
    case 4:
        pack_lanes(m, a, op, cl, 4);
        break;
    case 8:
        pack_lanes(m, a, op, cl, 8);
        break;
    default:
        pack_lanes(m, a, op, cl, op->size);
    }
    if (op->tx) {
        sm->tx->stamp(sm->tx_ctx, mi->warp, m, op->op == MEM_STORE);
        tx_trace(sm, mi->warp, cyc, "%s line 0x%llx sent (%d lanes, warpts %llu)",
                 op->op == MEM_STORE ? "store" : "load", (unsigned long long)cl->line,
                 __builtin_popcount(cl->lanes), (unsigned long long)m->ts);
    }
    if (!port_send(sm->to_l1, m))
        panic("%s: send on a port that had room", sm->comp.name);
    eng_work_issued(sm->comp.eng);
    sm->st.mem_reqs[op->op]++;
    if (li == 0)
        mi->first_sent = sm->comp.eng->now;
    if (++mi->next_line == mi->send_end) {
        sm->lsu_head = (sm->lsu_head + 1) % sm->spec.lsu_queue;
        sm->lsu_n--;
        if (mi->send_end != mi->n_lines)
            smi_ta_line_left(sm, mi);
    }
    return true;
}

static void tx_wake(struct sm *sm, uint64_t slots);

static void kernel_response(struct sm *sm, const struct msg *m)
{
    uint16_t gen = (uint16_t)(m->req.id >> (ID_LINE_BITS + ID_SLOT_BITS));
    if (gen != sm->kgen || (sm->kstate != K_BEGIN_WAIT && sm->kstate != K_END_WAIT))
        panic("%s: unexpected kernel response id 0x%x in state %s", sm->comp.name, m->req.id,
              smi_kernel_state_names[sm->kstate]);
    if (sm->kstate == K_BEGIN_WAIT) {
        sm->kstate = K_RUN;
        return;
    }
    struct kernel_run *run = sm->run;
    sm->kstate = K_IDLE;
    sm->run = NULL;
    run->n_sms_busy--;
    if (kernel_run_done(run) && run->on_done)
        run->on_done(run->done_obj, run);
}

static bool drain_responses(struct sm *sm, cycle_t cyc)
{
    bool moved = false;
    struct msg *m;
    while ((m = port_peek(sm->from_l1))) {
        port_pop(sm->from_l1);
        moved = true;
        if (m->type != MSG_CORE_RSP)
            panic("%s: message type %u on the L1 response port", sm->comp.name, m->type);
        struct eng *e = sm->comp.eng;
        e->n_outstanding--;
        eng_progress(e);
        uint32_t id = m->req.id;
        unsigned slot = (id >> ID_LINE_BITS) & ID_SLOT_MASK;
        if (slot == ID_PREFETCH_SLOT) {
            sm->pf_out--;
            msg_free(sm->msgs, m);
            continue;
        }
        uint64_t round_trip = (e->now - m->born) / sm->comp.clk->period_ps;
        if (m->req.op < MEM_NOPS)
            hist_add(&sm->st.latency[m->req.op], round_trip);
        unsigned li = id & ((1u << ID_LINE_BITS) - 1);
        uint16_t gen = (uint16_t)(id >> (ID_LINE_BITS + ID_SLOT_BITS));
        if (slot == ID_KERNEL_SLOT) {
            kernel_response(sm, m);
            msg_free(sm->msgs, m);
            continue;
        }
        if (slot == ID_TX_SLOT) { /* a validation answered, or a commit or cleanup done */
            if (!sm->tx || m->req.warp >= sm->spec.warps)
                panic("%s: commit response id 0x%x for no transaction", sm->comp.name, id);
            struct sm_warp *w = &sm->warps[m->req.warp];
            uint32_t abort = 0;
            bool last = sm->tx->answer(sm->tx_ctx, m->req.warp, m, w->pw, cyc, &abort);
            tx_trace(sm, m->req.warp, cyc, "%s line 0x%llx answered%s (%d lanes aborted)",
                     li == 1 ? "validation of" : "commit or cleanup of",
                     (unsigned long long)m->addr, last ? ", the last" : "",
                     __builtin_popcount(abort));
            if (abort) {
                ptx_warp_tx_abort(w->pw, abort);
                w->issue_at = ptx_warp_issue_cycle(w->pw);
            }
            if (last)
                tx_wake(sm, 1ull << m->req.warp);
            msg_free(sm->msgs, m);
            continue;
        }
        struct sm_minst *mi = slot < sm->n_minst ? &sm->minst[slot] : NULL;
        if (!mi || !mi->in_use || mi->gen != gen || li >= mi->next_line ||
            !(mi->pending & (1u << li)))
            panic("%s: response id 0x%x matches no outstanding request", sm->comp.name, id);
        struct ptx_memop *op = &mi->mem;
        const struct coal_line *cl = &mi->line[li];
        if (op->op == MEM_LOAD) {
            switch (op->size) {
            case 4:
                unpack_lanes(op, cl, m->data, 4);
                break;
            case 8:
                unpack_lanes(op, cl, m->data, 8);
                break;
            default:
                unpack_lanes(op, cl, m->data, op->size);
            }
        } else if (op->op == MEM_ATOMIC) {
            struct atom_ops *a = m->req.atom;
            if (!a)
                panic("%s: atomic response id 0x%x without its operands", sm->comp.name, id);
            if (!op->is_red)
                for (unsigned i = 0; i < a->n; i++) {
                    op->data[a->lane[i].lane][0] = a->lane[i].result;
                    op->data[a->lane[i].lane][1] = 0;
                }
            pool_free(&sm->atoms, a);
        }
        if (op->tx) { /* the validation unit's verdict */
            struct sm_warp *w = &sm->warps[mi->warp];
            uint32_t abort, n_log, live; /* lanes aborted since the request left have no verdict */
            ptx_warp_tx_log(w->pw, &n_log, &live);
            bool last = sm->tx->verdict(sm->tx_ctx, mi->warp, m, op, cl->lanes & live, &abort);
            tx_trace(sm, mi->warp, cyc, "%s line 0x%llx verdict: %d lanes aborted%s",
                     op->op == MEM_STORE ? "store" : "load", (unsigned long long)cl->line,
                     __builtin_popcount(abort), last ? " (the last verdict awaited)" : "");
            if (abort) {
                ptx_warp_tx_abort(w->pw, abort);
                w->issue_at = ptx_warp_issue_cycle(w->pw);
            }
            if (last || abort)
                tx_wake(sm, 1ull << mi->warp);
        }
        if (__builtin_expect(sm->observer.done != NULL, 0)) {
            mi->ev.line_cycles += round_trip;
            mi->ev.l1_hits = (uint16_t)(mi->ev.l1_hits + m->req.l1_hit);
        }
        msg_free(sm->msgs, m);
        mi->pending &= ~(1u << li);
        if (mi->ta_sent == TA_SENT_SERIAL)
            smi_ta_line_answered(sm);
        if (!mi->pending && mi->next_line == mi->n_lines)
            smi_complete_minst(sm, mi, cyc);
    }
    return moved;
}

/* ---- issue ---- */

enum sm_stall smi_stall_of_states(unsigned bits)
{
#define HAS(k) (bits & (1u << (k)))
    if (HAS(W_HELD_ORDER))
        return SM_STALL_ORDER;
    if (HAS(W_HELD_SB))
        return SM_STALL_SB_FULL;
    if (HAS(W_HELD_LSU))
        return SM_STALL_LSU;
    if (HAS(W_READY) || HAS(W_TIMED) || HAS(W_PARKED))
        return SM_STALL_SCOREBOARD;
    if (HAS(W_BARRIER))
        return SM_STALL_BARRIER;
    return SM_STALL_IDLE;
#undef HAS
}

/* Why scheduler s issues nothing this cycle: smi_stall_of_states of the
 * states its warps are in, looked up (sm_comp.c fills stall_of[]). */
static inline enum sm_stall stall_reason(const struct sm *sm, unsigned s)
{
    return (enum sm_stall)sm->stall_of[sm->state_bits[s]];
}

/* A parked warp that may issue again is polled again. */
static void tx_wake(struct sm *sm, uint64_t slots)
{
    for (; slots; slots &= slots - 1) {
        struct sm_warp *w = &sm->warps[__builtin_ctzll(slots)];
        if (w->state == W_PARKED)
            set_state(sm, w, W_READY);
    }
}

/* tx_wake, and the SM's component polled again when any warp woke. */
static void tx_resume(struct sm *sm, uint64_t slots)
{
    if (slots) {
        tx_wake(sm, slots);
        comp_wake(&sm->comp);
    }
}

/* The end of a transaction attempt: the commit unit queues its messages; a
 * warp that leaves its transaction makes room under the limit. */
static void tx_end(struct sm *sm, struct sm_warp *w, unsigned slot, const struct ptx_tx_end *e,
                   cycle_t cyc)
{
    bool left = !ptx_warp_in_tx(w->pw);
    uint64_t wake = 0;
    unsigned wait = sm->tx->end(sm->tx_ctx, slot, e, left, cyc, &wake);
    tx_trace(sm, slot, cyc, "attempt ends: %d lanes commit, %d abort; %s, backoff %u cycles",
             __builtin_popcount(e->committed), __builtin_popcount(e->aborted),
             left ? "the transaction is done" : "the aborted lanes retry", wait);
    if (wait) { /* the retry backs off: the warp waits on the timer wheel */
        w->alu_ready = MAX(w->alu_ready, cyc + wait);
        w->issue_at = MAX(w->issue_at, cyc + wait);
    }
    tx_wake(sm, wake);
}

struct ptx_warp *sm_ext_warp(struct sm *sm, unsigned slot)
{
    struct sm_warp *w = &sm->warps[slot];
    return w->pw && w->state != W_FREE && w->state != W_EXITED ? w->pw : NULL;
}

void sm_ext_abort(struct sm *sm, unsigned slot, uint32_t lanes)
{
    struct sm_warp *w = &sm->warps[slot];
    ptx_warp_tx_abort(w->pw, lanes);
    w->issue_at = ptx_warp_issue_cycle(w->pw);
}

void sm_ext_resume(struct sm *sm, uint64_t slots)
{
    tx_resume(sm, slots);
}

/* The extension sends its next message when the L1 port has room. */
static bool tx_send(struct sm *sm)
{
    struct msg *m = sm->tx->peek_out(sm->tx_ctx);
    if (!m || !port_has_room(sm->to_l1, 1))
        return false;
    sm->tx->pop_out(sm->tx_ctx);
    if (!port_send(sm->to_l1, m))
        panic("%s: send on a port that had room", sm->comp.name);
    eng_work_issued(sm->comp.eng);
    return true;
}

/* For the observer: the instruction just stepped; one that is not a
 * global memory access is done when its result is ready (the scoreboard's
 * latency), a memory one when mem_issue or complete_minst says so. */
static void observe_issue(struct sm *sm, const struct sm_warp *w, unsigned slot, cycle_t cyc,
                          uint32_t pc)
{
    const struct ptx_step *st = &sm->step;
    sm->iev = (struct inst_event){.kernel = sm->run->launch.kernel,
                                  .issued = cyc,
                                  .done = cyc + st->lat,
                                  .pc = pc,
                                  .cta = w->cta->index,
                                  .gpu = (uint16_t)sm->gpu,
                                  .sm = (uint16_t)sm->observed_index,
                                  .slot = (uint16_t)slot,
                                  .warp = w->warp_in_cta,
                                  .active = st->active,
                                  .threads = st->n_thread_insts,
                                  .op = MEM_NOPS};
    if (st->kind != PTX_STEP_MEM)
        sm->observer.done(sm->observer.ctx, &sm->iev);
}

static void issue(struct sm *sm, struct sm_warp *w, unsigned slot, cycle_t cyc, bool counted)
{
    struct ptx_step *st = &sm->step;
    char err[256];
    if (sm->abandoning) { /* the kernel was given up: leave instead */
        ptx_warp_abandon(w->pw);
        smi_warp_exit(sm, w);
        return;
    }
    sm->env.warpid = slot;
    sm->env.clock = cyc;
    sm->env.globaltimer_ns = sm->comp.eng->now / 1000;
    uint32_t pc = 0;
    if (__builtin_expect(sm->observer.done != NULL, 0))
        pc = ptx_warp_pc(w->pw);
    if (ptx_warp_step(w->pw, &sm->env, st, err, sizeof err))
        fatal("kernel %s: CTA %u warp %u: %s", smi_kernel_name(sm), w->cta->index, w->warp_in_cta,
              err);
    if (st->lat_class >= PTX_LAT_N)
        panic("%s: instruction class %u out of range", sm->comp.name, st->lat_class);
    w->issue_at = ptx_warp_issue_cycle(w->pw); /* while the warp is in the host's cache */
    uint64_t ready = cyc + st->lat;
    if (ready > w->alu_ready)
        w->alu_ready = ready;
    sm->st.warp_insts += counted;
    sm->st.thread_insts += st->n_thread_insts;
    if (sm->hook)
        sm->hook(sm->hook_obj, sm->id, cyc, slot, st);
    if (__builtin_expect(sm->observer.done != NULL, 0))
        observe_issue(sm, w, slot, cyc, pc);
    switch (st->kind) {
    case PTX_STEP_ALU:
        break;
    case PTX_STEP_MEM:
        mem_issue(sm, w, &st->mem, cyc);
        break;
    case PTX_STEP_BARRIER:
        smi_barrier_arrive(sm, w, &st->bar);
        break;
    case PTX_STEP_EXIT:
        smi_warp_exit(sm, w);
        break;
    case PTX_STEP_TX_BEGIN:
        if (!sm->tx)
            fatal("kernel %s: CTA %u warp %u: transactions need a transactional protocol "
                  "(coherence.protocol = getm or warptm; docs/transactions.md)",
                  smi_kernel_name(sm), w->cta->index, w->warp_in_cta);
        sm->tx->begin(sm->tx_ctx, slot, cyc);
        tx_trace(sm, slot, cyc, "transaction begins (CTA %u, warp %u of it)", w->cta->index,
                 w->warp_in_cta);
        break;
    case PTX_STEP_TX_END:
        tx_end(sm, w, slot, &st->tx, cyc);
        break;
    }
}

static bool hold_for_cta(struct sm *sm, struct sm_warp *w, unsigned slot, cycle_t cyc)
{
    if (!sm->cta_ordered || smi_cta_clear(sm, w) || !ptx_warp_next_orders_cta(w->pw))
        return false;
    hold(sm, w, SM_NONE, SM_HOLD_CTA, cyc);
    if (sm->ta)
        sm->ta->watch |= 1ull << slot;
    return true;
}

/* The other half of a wavefront (warp_size 64) when it is about to run the
 * same instruction as w and has not left the lockstep: not exited, not at a
 * barrier (halves at one instruction reach a barrier together). */
static struct sm_warp *lockstep_half(struct sm *sm, const struct sm_warp *w, unsigned slot)
{
    struct sm_warp *o = &sm->warps[slot ^ 1];
    if (o->state == W_FREE || o->state == W_EXITED || o->state == W_BARRIER ||
        ptx_warp_pc(o->pw) != ptx_warp_pc(w->pw))
        return NULL;
    return o;
}

/* warp_size 64: issue w with the other half of its wavefront when that one
 * runs the same instruction; it waits (and stays polled) while that half's
 * operands are not ready or the half is held for the memory stage. */
static bool try_issue_wavefront(struct sm *sm, struct sm_warp *w, unsigned slot, cycle_t cyc)
{
    struct sm_warp *o = lockstep_half(sm, w, slot);
    if (o && (o->state != W_READY || o->issue_at > cyc))
        return false;
    if (hold_for_cta(sm, w, slot, cyc) || (o && hold_for_cta(sm, o, slot ^ 1, cyc)))
        return false;
    issue(sm, w, slot, cyc, true);
    if (o)
        issue(sm, o, slot ^ 1, cyc, false);
    return true;
}

/* Poll one warp: issue it if its operands are ready. Otherwise it is not
 * polled again until it can issue: operand readiness only moves earlier with
 * time (a register ready at cycle t stays ready), so the scoreboard's first
 * issue cycle is exact. If that cycle comes once every result it computed
 * inside the SM has matured (alu_ready), the warp waits for it on the timer
 * wheel; if not, it waits for memory and is parked until one of its loads or
 * atomics completes. */
static bool try_issue(struct sm *sm, unsigned slot, cycle_t cyc)
{
    struct sm_warp *w = &sm->warps[slot];
    uint64_t at = w->issue_at;
    if (at <= cyc) {
        if (sm->tx &&
            sm->tx->holds(sm->tx_ctx, slot, w->pw, w->n_out)) { /* polled again by tx_wake */
            set_state(sm, w, W_PARKED);
            return false;
        }
        if (sm->gang > 1)
            return try_issue_wavefront(sm, w, slot, cyc);
        if (hold_for_cta(sm, w, slot, cyc))
            return false;
        issue(sm, w, slot, cyc, true);
        return true;
    }
    if (w->alu_ready > cyc && at <= w->alu_ready) {
        set_state(sm, w, W_TIMED);
        sm->timed[at % SM_WHEEL] |= 1ull << slot;
        sm->timed_warps |= 1ull << slot;
    } else if (w->n_res) {
        set_state(sm, w, W_PARKED);
    }
    return false;
}

/* Warps whose operands are ready this cycle rejoin the ready set. */
static void wake_timed(struct sm *sm, cycle_t cyc)
{
    uint64_t *slot = &sm->timed[cyc % SM_WHEEL];
    for (uint64_t m = *slot; m; m &= m - 1)
        set_state(sm, &sm->warps[__builtin_ctzll(m)], W_READY);
    sm->timed_warps &= ~*slot;
    *slot = 0;
}

static void schedule(struct sm *sm, unsigned s, cycle_t cyc)
{
    uint64_t cand = sm->ready & sm->sched_mask[s];
    if (!cand) {
        sm->st.stall[stall_reason(sm, s)]++;
        return;
    }
    if (sm->n_minst_free <= sm->minst_spare) { /* a memory instruction would have nowhere to go */
        sm->st.stall[SM_STALL_LSU]++;
        return;
    }
    unsigned last = sm->last[s];
    if (sm->spec.sched == SM_SCHED_GTO) {
        if (last != SM_NONE && (cand >> last & 1) && try_issue(sm, last, cyc))
            return;
        /* the other ready warps, oldest first (a failed try changes only the
         * warp tried, so the set taken now is the one a scan would see) */
        uint64_t m = sm->ready_age[s];
        /* (a greedy warp that exited as it issued was freed: its age_pos is
         * another warp's now) */
        if (last != SM_NONE && sm->warps[last].state != W_FREE)
            m &= ~(1ull << sm->age_pos[last]);
        for (; m; m &= m - 1) {
            unsigned slot = sm->age[s][__builtin_ctzll(m)];
            if (try_issue(sm, slot, cyc)) {
                sm->last[s] = (uint16_t)slot;
                return;
            }
        }
    } else {
        /* loose round-robin: slots after the last one issued, then from the start */
        uint64_t after = last == SM_NONE || last >= 63 ? 0 : cand & (~0ull << (last + 1));
        uint64_t order[2] = {after, cand & ~after};
        for (unsigned k = 0; k < 2; k++)
            for (uint64_t m = order[k]; m; m &= m - 1) {
                unsigned slot = (unsigned)__builtin_ctzll(m);
                if (try_issue(sm, slot, cyc)) {
                    sm->last[s] = (uint16_t)slot;
                    return;
                }
            }
    }
    sm->st.stall[stall_reason(sm, s)]++;
}

/* ---- the tick ---- */

/* Cycles the SM slept through with a kernel on it: nothing changed while it
 * slept, so each scheduler's stall reason is the one it has now. */
static void account_sleep(struct sm *sm, uint64_t n)
{
    sm->st.cycles += n;
    for (unsigned s = 0; s < sm->spec.schedulers; s++)
        sm->st.stall[stall_reason(sm, s)] += n;
}

bool smi_tick(struct comp *c)
{
    struct sm *sm = container_of(c, struct sm, comp);
    /* ticks fall on clock edges; the one after the last needs no division */
    tick_t now = c->eng->now;
    cycle_t cyc = sm->last_tick_ps != TICK_MAX && now == sm->last_tick_ps + c->clk->period_ps
                      ? sm->last_cycle + 1
                      : comp_cycle(c);
    sm->last_tick_ps = now;
    if (sm->kstate != K_IDLE) {
        if (sm->has_last && cyc > sm->last_cycle + 1)
            account_sleep(sm, cyc - sm->last_cycle - 1);
        sm->st.cycles++;
        sm->has_last = true;
    } else {
        sm->has_last = false;
    }
    sm->last_cycle = cyc;
    sm->st.ticks++;

    drain_responses(sm, cyc);
    if (sm->ta)
        smi_ta_step(sm, cyc);
    lsu_send(sm, cyc);
    if (sm->tx)
        tx_send(sm);
    smi_kernel_step(sm);
    lsu_admit_held(sm, cyc);
    if (sm->timed_warps)
        wake_timed(sm, cyc);
    for (unsigned s = 0; s < sm->spec.schedulers; s++)
        schedule(sm, s, cyc);

    /* The next cycle is needed when a warp is ready (polled: it may issue), a
     * warp waits for room in the memory stage, the memory stage's head may
     * send, or the kernel controller has something to send or a CTA to
     * dispatch. Otherwise nothing changes until a timed warp's operands are
     * ready, the memory stage's head may leave, or a response arrives (the
     * port wakes the SM): it sleeps until the first of these, and the cycles
     * it sleeps through are counted when it wakes (account_sleep). */
    uint64_t next = UINT64_MAX; /* the cycle to wake at, if it sleeps */
    if (sm->lsu_n) {
        next = sm->minst[sm->lsu[sm->lsu_head]].ready;
        if (next <= cyc + 1)
            return true;
    }
    if (sm->ready || sm->lsu_wait_n || sm->sb_ready_n || sm->pf_n || smi_ta_busy(sm) ||
        (sm->tx && sm->tx->peek_out(sm->tx_ctx)) || sm->kstate == K_BEGIN_SEND ||
        sm->kstate == K_END_SEND ||
        (sm->kstate == K_RUN &&
         (ctas_left(sm) ? cta_fits(sm) : sm->n_ctas_res == 0 && sm->pf_out == 0)))
        return true;
    if (!sm->spec.sleep && sm->kstate != K_IDLE)
        return true; /* ticks every cycle: the reference sleeping is checked against */
    for (uint64_t m = sm->timed_warps; m; m &= m - 1) {
        uint64_t at = sm->warps[__builtin_ctzll(m)].issue_at;
        if (at < next)
            next = at;
    }
    if (next == cyc + 1)
        return true;
    if (next != UINT64_MAX)
        comp_wake_at(c, (tick_t)next * c->clk->period_ps);
    /* A response sent while this tick was already scheduled asked for a wake
     * that the engine folded into this tick; re-arm it. */
    const struct port *in = sm->from_l1;
    if (in && in->n)
        comp_wake_at(c, in->slots[in->head].ready);
    return false;
}
