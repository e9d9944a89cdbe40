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
 * INVARIANT: a warp slot is freed only when its warp exited and has nothing
 * outstanding; a CTA when all its warps are freed.
 * DEVIATION: a barrier counts warps, not threads (pre-Volta hardware): a warp
 * with any live thread arriving adds all its threads, and with no thread count
 * the barrier waits for the threads of the CTA's warps that have not exited.
 * NOT MODELED: register-file bank conflicts, operand collectors, dual issue,
 * instruction fetch and i-cache, shared-memory bank conflicts (a fixed
 * lat_shmem), bar.sync waiting for earlier memory operations (CTA-scope order
 * relies on the in-order path from the LSU through the L1).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "gpu/sm.h"

#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "gpu/coalesce.h"

#define SM_MAX_WARPS   64  /* the ready sets are uint64 bitmasks */
#define SM_MAX_SCHED   4
#define SM_CTA_WARPS   32  /* 1024 threads per CTA at most */
#define SM_N_BARRIERS  16
#define SM_NONE        0xffff
#define SM_WHEEL       1024 /* timer wheel slots: more than the longest latency (1000) */

/* Request ids: line index (5 bits), instruction slot (11 bits), generation
 * (16 bits) so that a stale or duplicate response is caught. */
#define ID_LINE_BITS   5
#define ID_SLOT_BITS   11
#define ID_SLOT_MASK   ((1u << ID_SLOT_BITS) - 1)
#define ID_KERNEL_SLOT ID_SLOT_MASK /* KERNEL_BEGIN/END */
#define SM_MAX_INFLIGHT (ID_KERNEL_SLOT - 1)

enum warp_state {
    W_FREE,       /* slot unused */
    W_READY,      /* in the ready set: polled by its scheduler */
    W_TIMED,      /* operands wait for results computed in the SM: ready at wake */
    W_PARKED,     /* operands wait for a load or atomic: polled again on a completion */
    W_BARRIER,    /* waits at a barrier */
    W_HELD_ORDER, /* its memory instruction waits for the ordering policy */
    W_HELD_LSU,   /* its memory instruction waits for room in the memory stage */
    W_EXITED,     /* every lane exited; memory operations still outstanding */
    W_NSTATES
};
static const char *const warp_state_names[W_NSTATES] = {
    "free", "ready", "timed(alu)", "parked(mem)", "barrier", "held(order)", "held(lsu)", "exited(draining)"};

enum kernel_state { K_IDLE, K_BEGIN_SEND, K_BEGIN_WAIT, K_RUN, K_END_SEND, K_END_WAIT };
static const char *const kernel_state_names[] = {"idle", "begin-send", "begin-wait",
                                                 "run", "end-send", "end-wait"};

struct sm_cta;

struct sm_warp {
    struct ptx_warp *pw;
    struct sm_cta *cta;
    uint8_t state;          /* enum warp_state */
    uint8_t sched;          /* its scheduler */
    uint8_t warp_in_cta;
    uint8_t n_threads;      /* threads of the CTA in this warp (barrier counting) */
    uint16_t held;          /* instruction slot held at issue, or SM_NONE */
    uint16_t n_out;         /* memory instructions outstanding */
    uint16_t n_res;         /* of which deliver results (loads, atomics) */
    uint64_t alu_ready;     /* cycle by which every result it issued inside the SM is ready */
    uint64_t issue_at;      /* ptx_warp_issue_cycle of pw, kept current: polling a warp
                               that cannot issue then touches no interpreter state */
    struct order_warp ord;  /* outstanding operations by kind */
};

struct sm_barrier {
    uint32_t arrived;       /* threads arrived (warp granular) */
    uint32_t count;         /* expected threads; 0 = the CTA's live threads */
    uint32_t waiting;       /* warps (in CTA) waiting */
};

struct sm_cta {
    struct ptx_cta *pc;     /* NULL when the entry is free */
    uint32_t index;         /* linear CTA index in the grid */
    uint16_t n_warps;
    uint16_t n_alive;       /* warps not yet freed */
    uint32_t live_threads;  /* threads of warps that have not exited */
    uint16_t bar_active;    /* barriers with arrivals */
    uint8_t slot[SM_CTA_WARPS];
    struct sm_barrier bar[SM_N_BARRIERS];
};

/* A warp memory instruction from issue to completion. For loads and atomics
 * the lanes' results are gathered into mem.data (each lane belongs to exactly
 * one line, so a result never overwrites an operand still to be sent). */
struct sm_minst {
    struct ptx_memop mem;
    uint16_t warp;          /* slot */
    uint16_t gen;           /* generation, part of the request ids */
    uint8_t n_lines;
    uint8_t next_line;      /* next line to send */
    bool in_use;
    uint32_t pending;       /* lines not yet answered */
    uint64_t ready;         /* first cycle a line may leave */
    tick_t first_sent;      /* when its first line left, for the starvation check */
    struct coal_line line[32];
};

struct sm {
    struct comp comp;
    struct sm_spec spec;
    const struct order_policy *ord;
    uint32_t gpu, id;
    unsigned line_bytes;
    struct pool *msgs;         /* the machine's message pool */
    struct pool atoms;         /* struct atom_ops, owned here */
    struct port *to_l1, *from_l1;
    struct ptx_env env;

    /* kernel */
    struct kernel_run *run;
    uint8_t kstate;            /* enum kernel_state */
    uint16_t kgen;             /* generation of kernel begin/end ids */
    uint32_t fill_next;        /* next round-robin CTA reserved for this SM */
    uint32_t cta_threads, cta_warps, cta_regs, cta_shmem; /* needs of one CTA */
    uint32_t used_threads, used_warps, used_regs, used_shmem, n_ctas_res;
    struct sm_cta *ctas;       /* [spec.ctas] */

    /* warps and schedulers */
    struct sm_warp warps[SM_MAX_WARPS];
    uint64_t free_slots;       /* bit per free warp slot */
    uint64_t ready;            /* bit per W_READY warp */
    uint64_t sched_mask[SM_MAX_SCHED];
    uint16_t n_state[SM_MAX_SCHED][W_NSTATES];
    uint16_t last[SM_MAX_SCHED];   /* last slot issued (LRR start, GTO greedy) */
    uint8_t age[SM_MAX_SCHED][SM_MAX_WARPS]; /* slots, oldest first (GTO) */
    uint8_t n_age[SM_MAX_SCHED];
    uint8_t age_pos[SM_MAX_WARPS];     /* a slot's index in its scheduler's age[] */
    uint64_t ready_age[SM_MAX_SCHED];  /* bit per age[] index whose warp is W_READY: GTO
                                          visits ready warps oldest first without a scan */
    uint64_t timed[SM_WHEEL];  /* W_TIMED warps by wake cycle % SM_WHEEL */
    uint64_t timed_warps;      /* bit per W_TIMED warp (each wakes at its issue_at) */

    /* memory */
    struct sm_minst *minst;    /* [spec.max_inflight] */
    uint16_t *minst_free;      /* stack of free slots */
    uint32_t n_minst_free;
    uint16_t *lsu;             /* ring of instruction slots, [spec.lsu_queue] */
    uint32_t lsu_head, lsu_n;
    uint8_t lsu_wait[SM_MAX_WARPS]; /* warps held for room, FIFO */
    uint32_t lsu_wait_head, lsu_wait_n;

    uint64_t last_cycle;
    tick_t last_tick_ps;       /* time of that tick (TICK_MAX: none yet) */
    bool has_last;
    struct ptx_step step;      /* scratch for ptx_warp_step */
    sm_issue_fn *hook;
    void *hook_obj;
    struct sm_stats st;
};

const char *const sm_sched_names[] = {"lrr", "gto", NULL};
const char *const sm_stall_names[SM_STALL_N] = {"scoreboard", "order", "lsu_full", "barrier",
                                                "idle"};

/* Defaults: the Fermi core of spec 002 §4 (48 warps, 1536 threads, 8 CTAs,
 * 32 K registers, 48 KB shared memory, 2 schedulers). Latencies are
 * Fermi-like pipeline depths in the range of GPGPU-Sim's GTX480 model:
 * 4-cycle integer and fp32 add/fma, 5 for integer multiply-add, 8 for fp64,
 * 39 for SFU and division, 30 for shared memory, 4 for branches and for
 * global address generation before the memory stage. */
const struct cfg_opt sm_opts[] = {
    CFG_U32("warps", struct sm_spec, warps, "48", 1, SM_MAX_WARPS, "", "warp slots per SM"),
    CFG_U32("threads", struct sm_spec, threads, "1536", 32, 2048, "", "resident threads per SM"),
    CFG_U32("ctas", struct sm_spec, ctas, "8", 1, 32, "", "resident CTAs per SM"),
    CFG_U32("regs", struct sm_spec, regs, "32768", 1, 1u << 20, "", "32-bit registers per SM"),
    CFG_U32("max_regs_per_thread", struct sm_spec, max_regs_per_thread, "63", 1, 255, "",
            "registers a thread is given at most (Fermi ISA: 63; beyond it the compiler spills)"),
    CFG_U32("shmem_bytes", struct sm_spec, shmem_bytes, "49152", 0, 1u << 20, "bytes",
            "shared memory per SM"),
    CFG_U32("schedulers", struct sm_spec, schedulers, "2", 1, SM_MAX_SCHED, "",
            "warp schedulers; warp slot s belongs to scheduler s % schedulers"),
    CFG_ENUM("sched", struct sm_spec, sched, "gto", sm_sched_names,
             "warp scheduling: lrr (loose round-robin) or gto (greedy-then-oldest)"),
    CFG_ENUM("order", struct sm_spec, order, "ptx", order_policy_names,
             "core-side memory ordering policy: ptx, tso or sc"),
    CFG_U32("lsu_queue", struct sm_spec, lsu_queue, "8", 1, 1024, "",
            "warp memory instructions waiting in the in-order memory stage"),
    CFG_U32("max_inflight", struct sm_spec, max_inflight, "256", 2, SM_MAX_INFLIGHT, "",
            "warp memory instructions issued and not completed, per SM"),
    CFG_U32("lat_int", struct sm_spec, lat[PTX_LAT_INT], "4", 1, 1000, "cycles",
            "integer add/logic/compare/move"),
    CFG_U32("lat_imul", struct sm_spec, lat[PTX_LAT_IMUL], "5", 1, 1000, "cycles",
            "integer multiply, multiply-add"),
    CFG_U32("lat_fp32", struct sm_spec, lat[PTX_LAT_FP32], "4", 1, 1000, "cycles",
            "single-precision add/mul/fma"),
    CFG_U32("lat_fp64", struct sm_spec, lat[PTX_LAT_FP64], "8", 1, 1000, "cycles",
            "double precision"),
    CFG_U32("lat_sfu", struct sm_spec, lat[PTX_LAT_SFU], "39", 1, 1000, "cycles",
            "special functions, integer division"),
    CFG_U32("lat_shmem", struct sm_spec, lat[PTX_LAT_SHMEM], "30", 1, 1000, "cycles",
            "shared, local, param and const memory"),
    CFG_U32("lat_branch", struct sm_spec, lat[PTX_LAT_BRANCH], "4", 1, 1000, "cycles",
            "control flow, barriers, votes, shuffles"),
    CFG_U32("lat_gmem", struct sm_spec, lat[PTX_LAT_GMEM], "4", 1, 1000, "cycles",
            "global memory: issue to the first line leaving the memory stage"),
    CFG_BOOL("sleep", struct sm_spec, sleep, "true",
             "sleep through cycles in which nothing can issue or move (false: tick every cycle "
             "while a kernel runs; results are identical, only slower)"),
    CFG_END,
};

/* ---- warp state bookkeeping ---- */

static void set_state(struct sm *sm, struct sm_warp *w, enum warp_state s)
{
    unsigned slot = (unsigned)(w - sm->warps);
    sm->n_state[w->sched][w->state]--;
    sm->n_state[w->sched][s]++;
    w->state = (uint8_t)s;
    if (s == W_READY) {
        sm->ready |= 1ull << slot;
        sm->ready_age[w->sched] |= 1ull << sm->age_pos[slot];
    } else {
        sm->ready &= ~(1ull << slot);
        sm->ready_age[w->sched] &= ~(1ull << sm->age_pos[slot]);
    }
}

static inline bool is_result_op(const struct ptx_memop *m)
{
    return m->op == MEM_LOAD || (m->op == MEM_ATOMIC && !m->is_red);
}

static inline uint32_t req_id(uint16_t gen, unsigned slot, unsigned line)
{
    return ((uint32_t)gen << (ID_LINE_BITS + ID_SLOT_BITS)) | (slot << ID_LINE_BITS) | line;
}

static const char *kernel_name(const struct sm *sm)
{
    return sm->run ? ptx_kernel_info(sm->run->launch.kernel)->name : "?";
}

/* ---- CTAs and warps ---- */

static void cta_finish(struct sm *sm, struct sm_cta *c)
{
    ptx_cta_free(c->pc);
    c->pc = NULL;
    sm->used_threads -= sm->cta_threads;
    sm->used_warps -= sm->cta_warps;
    sm->used_regs -= sm->cta_regs;
    sm->used_shmem -= sm->cta_shmem;
    sm->n_ctas_res--;
    sm->run->n_ctas_done++;
    sm->st.ctas++;
    sm->st.kernel_ctas++;
}

static void warp_free(struct sm *sm, struct sm_warp *w)
{
    unsigned slot = (unsigned)(w - sm->warps);
    unsigned s = w->sched;
    /* w->pw stays: the slot's next warp reuses its storage (ptx_warp_renew) */
    set_state(sm, w, W_FREE);
    /* close the gap in age[]: the younger warps move down one place */
    unsigned pos = sm->age_pos[slot];
    for (unsigned i = pos + 1; i < sm->n_age[s]; i++) {
        sm->age[s][i - 1] = sm->age[s][i];
        sm->age_pos[sm->age[s][i - 1]] = (uint8_t)(i - 1);
    }
    uint64_t below = (1ull << pos) - 1;
    sm->ready_age[s] = (sm->ready_age[s] & below) | ((sm->ready_age[s] >> 1) & ~below);
    sm->n_age[s]--;
    if (sm->last[s] == slot)
        sm->last[s] = SM_NONE;
    sm->free_slots |= 1ull << slot;
    struct sm_cta *c = w->cta;
    w->cta = NULL;
    if (--c->n_alive == 0)
        cta_finish(sm, c);
}

static void barrier_release(struct sm *sm, struct sm_cta *c, unsigned id)
{
    struct sm_barrier *b = &c->bar[id];
    for (uint32_t m = b->waiting; m; m &= m - 1) {
        struct sm_warp *w = &sm->warps[c->slot[__builtin_ctz(m)]];
        ptx_warp_barrier_release(w->pw);
        w->issue_at = ptx_warp_issue_cycle(w->pw);
        set_state(sm, w, W_READY);
    }
    *b = (struct sm_barrier){0};
    c->bar_active &= (uint16_t)~(1u << id);
    sm->st.barriers++;
}

static void barrier_check(struct sm *sm, struct sm_cta *c, unsigned id)
{
    struct sm_barrier *b = &c->bar[id];
    uint32_t expect = b->count ? b->count : c->live_threads;
    if (b->arrived >= expect)
        barrier_release(sm, c, id);
}

static void barrier_arrive(struct sm *sm, struct sm_warp *w, const struct ptx_barrier *bar)
{
    struct sm_cta *c = w->cta;
    if (bar->id >= SM_N_BARRIERS)
        fatal("kernel %s: barrier id %u is out of range 0..%u", kernel_name(sm), bar->id,
              SM_N_BARRIERS - 1);
    struct sm_barrier *b = &c->bar[bar->id];
    if (!b->arrived)
        b->count = bar->count;
    b->arrived += w->n_threads;
    if (!bar->arrive_only) {
        b->waiting |= 1u << w->warp_in_cta;
        set_state(sm, w, W_BARRIER);
    }
    c->bar_active |= (uint16_t)(1u << bar->id);
    barrier_check(sm, c, bar->id);
}

static void warp_exit(struct sm *sm, struct sm_warp *w)
{
    struct sm_cta *c = w->cta;
    set_state(sm, w, W_EXITED);
    c->live_threads -= w->n_threads;
    /* barriers counting the CTA's live threads may now be complete */
    for (uint32_t m = c->bar_active; m; m &= m - 1)
        barrier_check(sm, c, (unsigned)__builtin_ctz(m));
    if (w->n_out == 0)
        warp_free(sm, w);
}

static void cta_dispatch(struct sm *sm, uint32_t index)
{
    const struct launch *l = &sm->run->launch;
    struct sm_cta *c = NULL;
    for (uint32_t i = 0; i < sm->spec.ctas; i++)
        if (!sm->ctas[i].pc) {
            c = &sm->ctas[i];
            break;
        }
    if (!c)
        panic("%s: no free CTA entry although the limit allowed one", sm->comp.name);
    memset(c, 0, sizeof *c);
    struct ptx_dim3 id = {index % l->grid.x, (index / l->grid.x) % l->grid.y,
                          index / (l->grid.x * l->grid.y)};
    c->pc = ptx_cta_new(l->kernel, id, l->grid, l->block, l->params, l->dyn_shmem_bytes);
    c->index = index;
    c->n_warps = (uint16_t)ptx_cta_n_warps(c->pc);
    if (c->n_warps != sm->cta_warps)
        panic("%s: CTA has %u warps, expected %u", sm->comp.name, c->n_warps, sm->cta_warps);
    c->n_alive = c->n_warps;
    c->live_threads = sm->cta_threads;
    cycle_t now = comp_cycle(&sm->comp);
    for (unsigned i = 0; i < c->n_warps; i++) {
        unsigned slot = (unsigned)__builtin_ctzll(sm->free_slots);
        sm->free_slots &= sm->free_slots - 1;
        struct sm_warp *w = &sm->warps[slot];
        struct ptx_warp *pw = w->pw;
        memset(w, 0, sizeof *w);
        w->sched = (uint8_t)(slot % sm->spec.schedulers);
        w->state = W_FREE; /* counted as free since sm_new or warp_free */
        if (pw && !ptx_warp_renew(pw, c->pc, i)) {
            ptx_warp_free(pw);
            pw = NULL;
        }
        w->pw = pw ? pw : ptx_warp_new(c->pc, i);
        if (!w->pw)
            panic("out of memory");
        w->issue_at = ptx_warp_issue_cycle(w->pw);
        w->cta = c;
        w->warp_in_cta = (uint8_t)i;
        uint32_t left = sm->cta_threads - 32 * i;
        w->n_threads = (uint8_t)(left < 32 ? left : 32);
        w->held = SM_NONE;
        w->alu_ready = now;
        c->slot[i] = (uint8_t)slot;
        sm->age_pos[slot] = sm->n_age[w->sched];
        sm->age[w->sched][sm->n_age[w->sched]++] = (uint8_t)slot;
        set_state(sm, w, W_READY);
    }
    sm->used_threads += sm->cta_threads;
    sm->used_warps += sm->cta_warps;
    sm->used_regs += sm->cta_regs;
    sm->used_shmem += sm->cta_shmem;
    sm->n_ctas_res++;
    if (sm->n_ctas_res > sm->st.max_ctas_resident)
        sm->st.max_ctas_resident = sm->n_ctas_res;
    if (sm->used_warps > sm->st.max_warps_resident)
        sm->st.max_warps_resident = sm->used_warps;
}

/* ---- memory instructions ---- */

static void complete_minst(struct sm *sm, struct sm_minst *mi, cycle_t cyc)
{
    struct sm_warp *w = &sm->warps[mi->warp];
    bool res = is_result_op(&mi->mem);
    order_complete(sm->ord, &w->ord, mi->mem.op, mi->mem.sem);
    w->n_out--;
    if (res) {
        ptx_warp_complete(w->pw, &mi->mem, (const uint64_t(*)[2])mi->mem.data, cyc);
        w->issue_at = ptx_warp_issue_cycle(w->pw);
        w->n_res--;
    }
    mi->in_use = false;
    sm->minst_free[sm->n_minst_free++] = (uint16_t)(mi - sm->minst);

    switch (w->state) {
    case W_PARKED:
        if (res)
            set_state(sm, w, W_READY);
        break;
    case W_HELD_ORDER: {
        struct sm_minst *h = &sm->minst[w->held];
        if (order_may_issue(sm->ord, &w->ord, h->mem.op, h->mem.sem)) {
            /* joins the queue for the memory stage, behind warps already waiting */
            set_state(sm, w, W_HELD_LSU);
            sm->lsu_wait[(sm->lsu_wait_head + sm->lsu_wait_n++) % SM_MAX_WARPS] =
                (uint8_t)(w - sm->warps);
        }
        break;
    }
    case W_EXITED:
        if (w->n_out == 0)
            warp_free(sm, w);
        break;
    default:
        break;
    }
}

/* Enter the memory stage: the operation now counts as outstanding. */
static void lsu_enqueue(struct sm *sm, struct sm_warp *w, unsigned idx, cycle_t cyc)
{
    struct sm_minst *mi = &sm->minst[idx];
    order_issue(sm->ord, &w->ord, mi->mem.op, mi->mem.sem);
    w->n_out++;
    if (is_result_op(&mi->mem))
        w->n_res++;
    if (mi->n_lines == 0) { /* no lane went to global memory */
        complete_minst(sm, mi, cyc);
        return;
    }
    uint32_t lat = sm->spec.lat[PTX_LAT_GMEM];
    mi->ready = cyc + (lat ? lat : 1);
    mi->pending = mi->n_lines == 32 ? 0xffffffffu : (1u << mi->n_lines) - 1;
    sm->lsu[(sm->lsu_head + sm->lsu_n++) % sm->spec.lsu_queue] = (uint16_t)idx;
}

static void hold_for_lsu(struct sm *sm, struct sm_warp *w, unsigned idx)
{
    w->held = (uint16_t)idx;
    set_state(sm, w, W_HELD_LSU);
    sm->lsu_wait[(sm->lsu_wait_head + sm->lsu_wait_n++) % SM_MAX_WARPS] =
        (uint8_t)(w - sm->warps);
}

/* Warps held for room enter the memory stage first, oldest hold first. */
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
        lsu_enqueue(sm, w, idx, cyc);
        moved = true;
    }
    return moved;
}

static void mem_issue(struct sm *sm, struct sm_warp *w, const struct ptx_memop *op, cycle_t cyc)
{
    unsigned idx = sm->minst_free[--sm->n_minst_free];
    struct sm_minst *mi = &sm->minst[idx];
    memcpy(&mi->mem, op, sizeof *op);
    mi->warp = (uint16_t)(w - sm->warps);
    mi->gen++;
    mi->in_use = true;
    mi->next_line = 0;
    mi->pending = 0;
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
                  kernel_name(sm), w->cta->index, w->warp_in_cta, bad, op->size,
                  (unsigned long long)op->addr[bad], ptx_warp_where(w->pw, where, sizeof where));
        }
        mi->n_lines = (uint8_t)n;
    }
    sm->st.mem_insts[op->op]++;
    if (!order_may_issue(sm->ord, &w->ord, op->op, op->sem)) {
        w->held = (uint16_t)idx;
        set_state(sm, w, W_HELD_ORDER);
        return;
    }
    if (sm->lsu_wait_n || sm->lsu_n >= sm->spec.lsu_queue) {
        hold_for_lsu(sm, w, idx);
        return;
    }
    lsu_enqueue(sm, w, idx, cyc);
}

static const uint8_t class_of_op[MEM_NOPS] = {
    [MEM_LOAD] = TRAFFIC_LD, [MEM_STORE] = TRAFFIC_ST, [MEM_ATOMIC] = TRAFFIC_ATO,
    [MEM_FENCE] = TRAFFIC_REQ, [MEM_KERNEL_BEGIN] = TRAFFIC_REQ, [MEM_KERNEL_END] = TRAFFIC_REQ};

/* The memory stage: the head instruction sends its next line, if the port
 * has room (else retried next cycle and counted). */
static bool lsu_send(struct sm *sm, cycle_t cyc)
{
    if (!sm->lsu_n)
        return false;
    unsigned idx = sm->lsu[sm->lsu_head];
    struct sm_minst *mi = &sm->minst[idx];
    if (cyc < mi->ready)
        return false;
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
                              .id = req_id(mi->gen, idx, li)};
    struct atom_ops *a = NULL;
    if (op->op == MEM_ATOMIC) {
        a = pool_alloc(&sm->atoms);
        a->kind = op->atom_kind;
        a->type = op->atom_type;
        a->is_red = op->is_red;
        m->req.atom = a;
    }
    unsigned size = op->size;
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
            a->lane[a->n++] = (struct atom_lane){(uint8_t)l, (uint8_t)off, op->data[l][0],
                                                 op->data[l][1], 0};
    }
    if (!port_send(sm->to_l1, m))
        panic("%s: send on a port that had room", sm->comp.name);
    sm->comp.eng->n_outstanding++;
    sm->st.mem_reqs[op->op]++;
    if (li == 0)
        mi->first_sent = sm->comp.eng->now;
    if (++mi->next_line == mi->n_lines) {
        sm->lsu_head = (sm->lsu_head + 1) % sm->spec.lsu_queue;
        sm->lsu_n--;
    }
    return true;
}

static void kernel_response(struct sm *sm, const struct msg *m)
{
    uint16_t gen = (uint16_t)(m->req.id >> (ID_LINE_BITS + ID_SLOT_BITS));
    if (gen != sm->kgen || (sm->kstate != K_BEGIN_WAIT && sm->kstate != K_END_WAIT))
        panic("%s: unexpected kernel response id 0x%x in state %s", sm->comp.name, m->req.id,
              kernel_state_names[sm->kstate]);
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
        if (m->req.op < MEM_NOPS)
            hist_add(&sm->st.latency[m->req.op], (e->now - m->born) / sm->comp.clk->period_ps);
        uint32_t id = m->req.id;
        unsigned slot = (id >> ID_LINE_BITS) & ID_SLOT_MASK;
        unsigned li = id & ((1u << ID_LINE_BITS) - 1);
        uint16_t gen = (uint16_t)(id >> (ID_LINE_BITS + ID_SLOT_BITS));
        if (slot == ID_KERNEL_SLOT) {
            kernel_response(sm, m);
            msg_free(sm->msgs, m);
            continue;
        }
        struct sm_minst *mi = slot < sm->spec.max_inflight ? &sm->minst[slot] : NULL;
        if (!mi || !mi->in_use || mi->gen != gen || li >= mi->next_line ||
            !(mi->pending & (1u << li)))
            panic("%s: response id 0x%x matches no outstanding request", sm->comp.name, id);
        struct ptx_memop *op = &mi->mem;
        const struct coal_line *cl = &mi->line[li];
        if (op->op == MEM_LOAD) {
            for (uint32_t lanes = cl->lanes; lanes; lanes &= lanes - 1) {
                unsigned l = (unsigned)__builtin_ctz(lanes);
                op->data[l][0] = op->data[l][1] = 0;
                memcpy(op->data[l], m->data + (op->addr[l] - cl->line), op->size);
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
        msg_free(sm->msgs, m);
        mi->pending &= ~(1u << li);
        if (!mi->pending && mi->next_line == mi->n_lines)
            complete_minst(sm, mi, cyc);
    }
    return moved;
}

/* ---- kernel controller ---- */

static bool send_kernel_op(struct sm *sm, enum mem_op op)
{
    if (!port_has_room(sm->to_l1, 1)) {
        sm->st.port_full++;
        return false;
    }
    struct msg *m = msg_new(sm->msgs, MSG_CORE_REQ, 0, sm->comp.eng->now);
    m->cls = TRAFFIC_REQ;
    sm->kgen++;
    m->req = (struct mem_req){.op = (uint8_t)op,
                              .sem = op == MEM_KERNEL_BEGIN ? SEM_ACQUIRE : SEM_RELEASE,
                              .scope = SCOPE_SYS,
                              .gpu = (uint8_t)sm->gpu,
                              .sm = (uint16_t)sm->id,
                              .warp = SM_NONE,
                              .id = req_id(sm->kgen, ID_KERNEL_SLOT, 0)};
    if (!port_send(sm->to_l1, m))
        panic("%s: send on a port that had room", sm->comp.name);
    sm->comp.eng->n_outstanding++;
    sm->st.mem_reqs[op]++;
    return true;
}

static bool cta_fits(const struct sm *sm)
{
    return sm->n_ctas_res < sm->spec.ctas &&
           sm->used_threads + sm->cta_threads <= sm->spec.threads &&
           sm->used_warps + sm->cta_warps <= sm->spec.warps &&
           sm->used_regs + sm->cta_regs <= sm->spec.regs &&
           sm->used_shmem + sm->cta_shmem <= sm->spec.shmem_bytes;
}

static bool ctas_left(const struct sm *sm)
{
    return sm->fill_next < sm->run->fill_ctas || sm->run->next_cta < sm->run->n_ctas;
}

static bool kernel_step(struct sm *sm)
{
    switch (sm->kstate) {
    case K_BEGIN_SEND:
        if (send_kernel_op(sm, MEM_KERNEL_BEGIN)) {
            sm->kstate = K_BEGIN_WAIT;
            return true;
        }
        return false;
    case K_RUN:
        if (!ctas_left(sm)) {
            if (sm->n_ctas_res == 0)
                sm->kstate = K_END_SEND;
            return false;
        }
        if (!cta_fits(sm))
            return false;
        if (sm->fill_next < sm->run->fill_ctas) {
            cta_dispatch(sm, sm->fill_next);
            sm->fill_next += sm->run->n_sms;
        } else {
            cta_dispatch(sm, sm->run->next_cta++);
        }
        return true;
    case K_END_SEND:
        if (send_kernel_op(sm, MEM_KERNEL_END)) {
            sm->kstate = K_END_WAIT;
            return true;
        }
        return false;
    default:
        return false;
    }
}

/* ---- issue ---- */

static enum sm_stall stall_reason(const struct sm *sm, unsigned s)
{
    const uint16_t *n = sm->n_state[s];
    if (n[W_HELD_ORDER])
        return SM_STALL_ORDER;
    if (n[W_HELD_LSU])
        return SM_STALL_LSU;
    if (n[W_READY] || n[W_TIMED] || n[W_PARKED])
        return SM_STALL_SCOREBOARD;
    if (n[W_BARRIER])
        return SM_STALL_BARRIER;
    return SM_STALL_IDLE;
}

static void issue(struct sm *sm, struct sm_warp *w, unsigned slot, cycle_t cyc)
{
    struct ptx_step *st = &sm->step;
    char err[256];
    sm->env.warpid = slot;
    sm->env.clock = cyc;
    sm->env.globaltimer_ns = sm->comp.eng->now / 1000;
    if (ptx_warp_step(w->pw, &sm->env, st, err, sizeof err))
        fatal("kernel %s: CTA %u warp %u: %s", kernel_name(sm), w->cta->index, w->warp_in_cta,
              err);
    if (st->lat_class >= PTX_LAT_N)
        panic("%s: instruction class %u out of range", sm->comp.name, st->lat_class);
    w->issue_at = ptx_warp_issue_cycle(w->pw); /* while the warp is in the host's cache */
    uint64_t ready = cyc + sm->spec.lat[st->lat_class];
    if (ready > w->alu_ready)
        w->alu_ready = ready;
    sm->st.warp_insts++;
    sm->st.thread_insts += st->n_thread_insts;
    if (sm->hook)
        sm->hook(sm->hook_obj, sm->id, cyc, slot, st);
    switch (st->kind) {
    case PTX_STEP_ALU:
        break;
    case PTX_STEP_MEM:
        mem_issue(sm, w, &st->mem, cyc);
        break;
    case PTX_STEP_BARRIER:
        barrier_arrive(sm, w, &st->bar);
        break;
    case PTX_STEP_EXIT:
        warp_exit(sm, w);
        break;
    case PTX_STEP_TX_BEGIN:
    case PTX_STEP_TX_END:
        fatal("kernel %s: CTA %u warp %u: transactions need a transactional memory design at "
              "the L2, and none is built yet (docs/transactions.md)",
              kernel_name(sm), w->cta->index, w->warp_in_cta);
    }
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
        issue(sm, w, slot, cyc);
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
    if (!sm->n_minst_free) { /* a memory instruction would have nowhere to go */
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
        if (last != SM_NONE)
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

/* ---- the component ---- */

/* Cycles the SM slept through with a kernel on it: nothing changed while it
 * slept, so each scheduler's stall reason is the one it has now. */
static void account_sleep(struct sm *sm, uint64_t n)
{
    sm->st.cycles += n;
    for (unsigned s = 0; s < sm->spec.schedulers; s++)
        sm->st.stall[stall_reason(sm, s)] += n;
}

static bool sm_tick(struct comp *c)
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
    lsu_send(sm, cyc);
    kernel_step(sm);
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
    if (sm->ready || sm->lsu_wait_n || sm->kstate == K_BEGIN_SEND || sm->kstate == K_END_SEND ||
        (sm->kstate == K_RUN && (ctas_left(sm) ? cta_fits(sm) : sm->n_ctas_res == 0)))
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

static void dump_minst(const struct sm *sm, const struct sm_minst *mi, FILE *out)
{
    unsigned idx = (unsigned)(mi - sm->minst);
    fprintf(out, "      %s %s.%s: %u lines, %u sent, pending 0x%08x", mem_op_names[mi->mem.op],
            mem_sem_names[mi->mem.sem], mem_scope_names[mi->mem.scope], mi->n_lines,
            mi->next_line, mi->pending);
    if (mi->next_line)
        fprintf(out, ", first sent %llu core cycles ago",
                (unsigned long long)((sm->comp.eng->now - mi->first_sent) / sm->comp.clk->period_ps));
    fputc('\n', out);
    for (unsigned i = 0; i < mi->next_line; i++)
        if (mi->pending & (1u << i))
            fprintf(out, "        id 0x%08x line 0x%llx lanes 0x%08x\n",
                    req_id(mi->gen, idx, i), (unsigned long long)mi->line[i].line,
                    mi->line[i].lanes);
}

static void sm_dump(struct comp *c, FILE *out)
{
    struct sm *sm = container_of(c, struct sm, comp);
    fprintf(out, "  %s: kernel %s state %s, %u CTAs resident, memory stage %u/%u queued, "
                 "%u warps waiting for it, %u instructions in flight\n",
            c->name, kernel_name(sm), kernel_state_names[sm->kstate], sm->n_ctas_res,
            sm->lsu_n, sm->spec.lsu_queue, sm->lsu_wait_n,
            sm->spec.max_inflight - sm->n_minst_free);
    for (unsigned slot = 0; slot < sm->spec.warps; slot++) {
        const struct sm_warp *w = &sm->warps[slot];
        if (w->state == W_FREE)
            continue;
        char where[128];
        fprintf(out, "    warp %u (CTA %u warp %u): %s at %s, outstanding ld %u st %u atom %u "
                     "fence %u\n",
                slot, w->cta->index, w->warp_in_cta, warp_state_names[w->state],
                ptx_warp_where(w->pw, where, sizeof where), w->ord.n[ORDER_LD],
                w->ord.n[ORDER_ST], w->ord.n[ORDER_ATOM], w->ord.n[ORDER_FENCE]);
        for (unsigned i = 0; i < sm->spec.max_inflight; i++)
            if (sm->minst[i].in_use && sm->minst[i].warp == slot)
                dump_minst(sm, &sm->minst[i], out);
    }
    if (sm->kstate == K_BEGIN_WAIT || sm->kstate == K_END_WAIT)
        fprintf(out, "    %s outstanding, id 0x%08x\n",
                sm->kstate == K_BEGIN_WAIT ? "KERNEL_BEGIN" : "KERNEL_END",
                req_id(sm->kgen, ID_KERNEL_SLOT, 0));
}

struct sm *sm_new(struct eng *e, const struct clock *clk, const char *name,
                  const struct sm_spec *spec, uint32_t gpu, uint32_t id, unsigned line_bytes,
                  struct pool *msgs)
{
    if (!is_pow2(line_bytes) || line_bytes < 16 || line_bytes > LINE_MAX_BYTES)
        panic("%s: line size %u is not a power of two in [16, %u]", name, line_bytes,
              LINE_MAX_BYTES);
    if (spec->warps < 1 || spec->warps > SM_MAX_WARPS || spec->schedulers < 1 ||
        spec->schedulers > SM_MAX_SCHED || spec->sched >= SM_SCHED_N || spec->lsu_queue < 1 ||
        spec->max_inflight < 2 || spec->max_inflight > SM_MAX_INFLIGHT || spec->ctas < 1 ||
        !order_policies[0])
        panic("%s: SM spec out of bounds", name);
    unsigned n_ord = 0;
    while (order_policies[n_ord])
        n_ord++;
    if (spec->order >= n_ord)
        panic("%s: ordering policy %u out of range", name, spec->order);

    struct sm *sm = calloc(1, sizeof *sm);
    if (!sm)
        panic("out of memory");
    sm->spec = *spec;
    sm->ord = order_policies[spec->order];
    sm->gpu = gpu;
    sm->id = id;
    sm->line_bytes = line_bytes;
    sm->msgs = msgs;
    pool_init(&sm->atoms, sizeof(struct atom_ops), 64);
    sm->env.smid = id;
    sm->env.lat = sm->spec.lat;
    sm->ctas = calloc(spec->ctas, sizeof *sm->ctas);
    sm->minst = calloc(spec->max_inflight, sizeof *sm->minst);
    sm->minst_free = calloc(spec->max_inflight, sizeof *sm->minst_free);
    sm->lsu = calloc(spec->lsu_queue, sizeof *sm->lsu);
    if (!sm->ctas || !sm->minst || !sm->minst_free || !sm->lsu)
        panic("out of memory");
    for (unsigned i = 0; i < spec->max_inflight; i++)
        sm->minst_free[i] = (uint16_t)(spec->max_inflight - 1 - i); /* slot 0 first */
    sm->n_minst_free = spec->max_inflight;
    sm->free_slots = spec->warps == 64 ? ~0ull : (1ull << spec->warps) - 1;
    for (unsigned slot = 0; slot < spec->warps; slot++) {
        sm->sched_mask[slot % spec->schedulers] |= 1ull << slot;
        sm->n_state[slot % spec->schedulers][W_FREE]++;
        sm->warps[slot].sched = (uint8_t)(slot % spec->schedulers);
        sm->warps[slot].held = SM_NONE;
    }
    for (unsigned s = 0; s < SM_MAX_SCHED; s++)
        sm->last[s] = SM_NONE;
    sm->last_tick_ps = TICK_MAX;
    comp_init(&sm->comp, e, name, clk, sm_tick, sm_dump);
    return sm;
}

void sm_free(struct sm *sm)
{
    if (!sm)
        return;
    for (unsigned slot = 0; slot < SM_MAX_WARPS; slot++)
        if (sm->warps[slot].pw)
            ptx_warp_free(sm->warps[slot].pw);
    for (unsigned i = 0; i < sm->spec.ctas; i++)
        if (sm->ctas[i].pc)
            ptx_cta_free(sm->ctas[i].pc);
    pool_destroy(&sm->atoms);
    free(sm->ctas);
    free(sm->minst);
    free(sm->minst_free);
    free(sm->lsu);
    free(sm);
}

struct comp *sm_comp(struct sm *sm)
{
    return &sm->comp;
}

void sm_connect(struct sm *sm, struct port *to_l1, struct port *from_l1)
{
    sm->to_l1 = to_l1;
    sm->from_l1 = from_l1;
}

bool sm_idle(const struct sm *sm)
{
    return sm->kstate == K_IDLE;
}

tick_t sm_oldest_request(const struct sm *sm, unsigned *warp)
{
    tick_t oldest = TICK_MAX;
    for (unsigned i = 0; i < sm->spec.max_inflight; i++) {
        const struct sm_minst *mi = &sm->minst[i];
        if (mi->in_use && mi->next_line && mi->pending && mi->first_sent < oldest) {
            oldest = mi->first_sent;
            *warp = mi->warp;
        }
    }
    return oldest;
}

/* Resident CTAs of `run` per SM, or fatal naming the resource a single CTA
 * exceeds. Also fixes the needs of one CTA. */
static uint32_t occupancy(struct sm *sm, const struct launch *l)
{
    const struct ptx_kernel_info *ki = ptx_kernel_info(l->kernel);
    const struct sm_spec *sp = &sm->spec;
    uint64_t threads = (uint64_t)l->block.x * l->block.y * l->block.z;
    if (threads > 32 * SM_CTA_WARPS)
        fatal("kernel %s: a block of %llu threads exceeds %u", ki->name,
              (unsigned long long)threads, 32 * SM_CTA_WARPS);
    uint32_t warps = (uint32_t)(threads + 31) / 32;
    /* PTX declares virtual registers (one per SSA value nvcc emitted); the
     * real allocator reuses them and never gives a thread more than the ISA
     * allows, spilling the rest. So a thread gets min(PTX registers, limit). */
    uint32_t per_thread = MIN(ki->regs_per_thread, sp->max_regs_per_thread);
    uint64_t regs = (uint64_t)per_thread * 32 * warps;
    uint64_t shmem = (uint64_t)ki->static_shmem_bytes + l->dyn_shmem_bytes;
    if (threads > sp->threads || warps > sp->warps)
        fatal("kernel %s: a CTA of %llu threads (%u warps) does not fit in an SM of %u "
              "threads, %u warps",
              ki->name, (unsigned long long)threads, warps, sp->threads, sp->warps);
    if (regs > sp->regs)
        fatal("kernel %s: a CTA needs %llu registers (%u per thread, allocated per warp), the "
              "SM has %u",
              ki->name, (unsigned long long)regs, per_thread, sp->regs);
    if (shmem > sp->shmem_bytes)
        fatal("kernel %s: a CTA needs %llu bytes of shared memory, the SM has %u", ki->name,
              (unsigned long long)shmem, sp->shmem_bytes);
    sm->cta_threads = (uint32_t)threads;
    sm->cta_warps = warps;
    sm->cta_regs = (uint32_t)regs;
    sm->cta_shmem = (uint32_t)shmem;
    uint32_t cap = sp->ctas;
    cap = MIN(cap, sp->threads / (uint32_t)threads);
    cap = MIN(cap, sp->warps / warps);
    if (regs)
        cap = MIN(cap, (uint32_t)(sp->regs / regs));
    if (shmem)
        cap = MIN(cap, (uint32_t)(sp->shmem_bytes / shmem));
    return cap;
}

void sm_start_kernel(struct sm *sm, struct kernel_run *run)
{
    if (sm->kstate != K_IDLE)
        panic("%s: kernel started while another runs", sm->comp.name);
    if (!sm->to_l1 || !sm->from_l1)
        panic("%s: kernel started before sm_connect", sm->comp.name);
    if (sm->id >= run->n_sms || run->n_sms_started >= run->n_sms)
        panic("%s: SM %u joins a kernel run of %u SMs (%u started)", sm->comp.name, sm->id,
              run->n_sms, run->n_sms_started);
    uint32_t cap = occupancy(sm, &run->launch);
    if (!run->per_sm_ctas) {
        run->per_sm_ctas = cap;
        uint64_t fill = (uint64_t)run->n_sms * cap;
        run->fill_ctas = (uint32_t)MIN(fill, (uint64_t)run->n_ctas);
        run->next_cta = run->fill_ctas;
    } else if (run->per_sm_ctas != cap) {
        panic("%s: SMs of one GPU differ in occupancy (%u vs %u CTAs)", sm->comp.name, cap,
              run->per_sm_ctas);
    }
    run->n_sms_started++;
    run->n_sms_busy++;
    sm->run = run;
    sm->kstate = K_BEGIN_SEND;
    sm->fill_next = sm->id;
    sm->env.nsmid = run->n_sms;
    sm->st.kernels++;
    sm->st.kernel_ctas = 0;
    sm->has_last = false;
    comp_wake(&sm->comp);
}

const struct sm_stats *sm_stats(const struct sm *sm)
{
    return &sm->st;
}

void sm_set_issue_hook(struct sm *sm, sm_issue_fn *fn, void *obj)
{
    sm->hook = fn;
    sm->hook_obj = obj;
}

struct stat_row {
    const char *name;
    size_t off;
    unsigned n;                 /* 1, or the length of an array */
    const char *const *names;   /* element names of an array */
    const char *desc;
};

#define ROW(f, d)           {#f, offsetof(struct sm_stats, f), 1, NULL, d}
#define ARR(f, n, names, d) {#f, offsetof(struct sm_stats, f), n, names, d}

static const struct stat_row stat_rows[] = {
    ROW(cycles, "cycles with a kernel on the SM"),
    ROW(ticks, "cycles the SM ticked (the rest it slept)"),
    ROW(thread_insts, "thread instructions"),
    ROW(warp_insts, "warp instructions issued"),
    ARR(stall, SM_STALL_N, sm_stall_names, "scheduler-cycles without issue, by reason"),
    ARR(mem_insts, MEM_NOPS, mem_op_names, "warp memory instructions"),
    ARR(mem_reqs, MEM_NOPS, mem_op_names, "requests sent to the L1"),
    ROW(port_full, "cycles a request found the L1 port full"),
    ROW(barriers, "barrier releases"),
    ROW(ctas, "CTAs run"),
    ROW(kernel_ctas, "CTAs run in the last kernel"),
    ROW(kernels, "kernels started"),
    ROW(max_ctas_resident, "most CTAs resident at once"),
    ROW(max_warps_resident, "most warps resident at once"),
};

void sm_stats_print(const struct sm *sm, FILE *out)
{
    for (unsigned i = 0; i < ARRAY_LEN(stat_rows); i++) {
        const struct stat_row *r = &stat_rows[i];
        const uint64_t *v = (const uint64_t *)((const char *)&sm->st + r->off);
        if (r->n == 1) {
            fprintf(out, "%s.%s %llu # %s\n", sm->comp.name, r->name,
                    (unsigned long long)v[0], r->desc);
            continue;
        }
        for (unsigned k = 0; k < r->n; k++)
            fprintf(out, "%s.%s.%s %llu # %s\n", sm->comp.name, r->name, r->names[k],
                    (unsigned long long)v[k], r->desc);
    }
}
