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
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "gpu/sm.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "gpu/coalesce.h"
#include "gpu/inst_trace.h"
#include "gpu/mac.h"
#include "gpu/sm_tx.h"
#include "gpu/tx_board.h"
#include "gpu/tx_epoch.h"
#include "gpu/tx_serial.h"
#include "mem/tbe.h"

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
#define ID_PREFETCH_SLOT (ID_SLOT_MASK - 1) /* prefetches (order.prefetch) */
#define SM_MAX_INFLIGHT (ID_PREFETCH_SLOT - 1)
#define ID_TX_SLOT SM_MAX_INFLIGHT /* GETM commit and cleanup messages (never an instruction slot) */
#define SM_PREFETCH_QUEUE 64 /* prefetches waiting for the memory stage to be idle */

enum warp_state {
    W_FREE,       /* slot unused */
    W_READY,      /* in the ready set: polled by its scheduler */
    W_TIMED,      /* operands wait for results computed in the SM: ready at wake */
    W_PARKED,     /* operands wait for a load or atomic: polled again on a completion */
    W_BARRIER,    /* waits at a barrier */
    W_HELD_ORDER, /* its memory instruction waits for the ordering policy */
    W_HELD_LSU,   /* its memory instruction waits for room in the memory stage */
    W_EXITED,     /* every lane exited; memory operations still outstanding */
    W_HELD_SB,    /* its store waits for room in its TSO store buffer */
    W_NSTATES
};
static const char *const warp_state_names[W_NSTATES] = {
    "free", "ready", "timed(alu)", "parked(mem)", "barrier", "held(order)", "held(lsu)",
    "exited(draining)", "held(store buffer)"};

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
    uint16_t held;          /* instruction slot held at issue, or SM_NONE (a hold before
                               execution: SM_HOLD_CTA) */
    uint8_t hold;           /* enum sm_hold of a W_HELD_ORDER or W_HELD_SB warp */
    bool sb_queued;         /* in sm->sb_ready: its store buffer's head may be sent */
    uint16_t sb_head, sb_n; /* TSO store buffer: ring of instruction slots (sm->sb) */
    uint16_t sb_lines;      /* lines the buffered stores write (entries used) */
    uint32_t ld_issued;     /* loads that entered the memory stage (their sequence numbers) */
    uint32_t ld_last;       /* sequence number of the last of them */
    uint64_t held_since;    /* cycle its current hold began */
    uint16_t n_out;         /* memory instructions outstanding */
    uint16_t n_res;         /* of which deliver results (loads, atomics) */
    uint64_t last_load;     /* hash of its last load's addresses and values (spin check) */
    addr_t last_addr;       /* its last load's first lane: address and value, for the dump */
    uint64_t last_value;    /* (what a spinning warp waits on) */
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

/* How sc-typeaware sent an instruction (sm_minst.ta_sent). */
enum { TA_SENT_SAFE = 1, TA_SENT_UNSAFE = 2, TA_SENT_SERIAL = 3 };

/* A warp memory instruction from issue to completion. For loads and atomics
 * the lanes' results are gathered into mem.data (each lane belongs to exactly
 * one line, so a result never overwrites an operand still to be sent). */
struct sm_minst {
    struct ptx_memop mem;
    uint16_t warp;          /* slot */
    uint16_t gen;           /* generation, part of the request ids */
    uint8_t n_lines;
    uint8_t next_line;      /* next line to send */
    uint8_t send_end;       /* the memory stage sends lines up to here (sc-typeaware's
                               line-at-a-time instructions), else n_lines */
    bool in_use;
    uint32_t pending;       /* lines not yet answered */
    uint64_t ready;         /* first cycle a line may leave */
    tick_t first_sent;      /* when its first line left, for the starvation check */
    uint32_t ld_before;     /* a buffered store: loads of its warp issued before it */
    uint32_t ta_known;      /* sc-typeaware: lines whose sector type is known */
    uint32_t ta_unsafe;     /* ... of which unsafe */
    uint32_t ta_asked;      /* ... lines not known whose sector's type was asked for */
    uint8_t ta_sent;        /* ... 0 not sent, 1 sent as safe, 2 as unsafe, 3 as unsafe
                               one line at a time (TA_SENT_SERIAL) */
    uint8_t ta_forgets;     /* ... RECALLs that made it forget a line while at its TQ head */
    struct coal_line line[32];
    struct inst_event ev;   /* --trace, --inst-stats: the instruction, filled only then */
};

struct sm {
    struct comp comp;
    struct sm_spec spec;
    const struct order_policy *ord;
    uint32_t gpu, id;
    unsigned gang;             /* PTX warps per wavefront: warp_size / 32 (1 or 2) */
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
    uint32_t cta_threads, cta_warps, cta_regs, cta_shmem; /* needs of one CTA (warps: slots,
                                                              whole wavefronts) */
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
    uint16_t *sb;              /* [spec.warps][spec.order.store_buffer] store buffers */
    uint8_t sb_ready[SM_MAX_WARPS]; /* warps whose store-buffer head may be sent, FIFO */
    uint32_t sb_ready_head, sb_ready_n;
    addr_t pf[SM_PREFETCH_QUEUE]; /* prefetch lines waiting, FIFO */
    uint8_t pf_warp[SM_PREFETCH_QUEUE]; /* the warp each is for */
    uint32_t pf_head, pf_n;
    uint32_t pf_out;           /* prefetches sent and not answered */
    struct sm_ta *ta;          /* sc-typeaware state, else NULL */
    struct sm_tx *tx;          /* GETM: timestamps, verdicts, commit unit (sm_enable_tx), else NULL */
    int tx_trace_slot;         /* the warp slot whose transactional events are printed, or -1 */

    uint64_t last_cycle;
    tick_t last_tick_ps;       /* time of that tick (TICK_MAX: none yet) */
    bool has_last;
    struct ptx_step step;      /* scratch for ptx_warp_step */
    sm_issue_fn *hook;
    void *hook_obj;
    struct inst_trace *itrace; /* --trace, --inst-stats (sm_set_inst_trace), else NULL */
    struct inst_event iev;     /* the instruction being issued, while itrace is set */
    unsigned trace_index;      /* its place in the machine, as itrace names it */
    struct sm_stats st;
    bool abandoning;           /* sm_abandon_kernel: warps exit instead of issuing */
    uint64_t advances;         /* stores and atomics (issued, completed), loads of values new
                                  to their warp and finished warps: the spin watchdog's
                                  progress (sm_advances);
                                  not a statistic, so statistics stay as they were */
};

const char *const sm_sched_names[] = {"lrr", "gto", NULL};
const char *const sm_stall_names[SM_STALL_N] = {"scoreboard", "order", "lsu_full", "barrier",
                                                "idle", "sb_full"};
const char *const sm_hold_names[SM_HOLD_N] = {"order", "cta", "sb_forward", "sb_full",
                                              "tq_full"};
const char *const sm_ta_wait_names[SM_TA_N] = {"type_wait", "unsafe_full", "sync_conflict"};

/* Defaults: the Fermi core of spec 002 §4 (48 warps, 1536 threads, 8 CTAs,
 * 32 K registers, 48 KB shared memory, 2 schedulers). Latencies are
 * Fermi-like pipeline depths in the range of GPGPU-Sim's GTX480 model:
 * 4-cycle integer and fp32 add/fma, 5 for integer multiply-add, 8 for fp64,
 * 39 for SFU and division, 30 for shared memory, 4 for branches and for
 * global address generation before the memory stage. */
const struct cfg_opt sm_opts[] = {
    CFG_U32("warps", struct sm_spec, warps, "48", 1, SM_MAX_WARPS, "", "warp slots per SM"),
    CFG_U32("warp_size", struct sm_spec, warp_size, "32", 32, 64, "lanes",
            "threads issued as one instruction: 32 (warps), or 64 (GCN wavefronts: two "
            "32-thread PTX warps in lockstep; warps then counts wavefront slots, at most 32)"),
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
    sm->advances++;
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
    index += sm->run->cta_base; /* this GPM's share starts there */
    struct ptx_dim3 id = {index % l->grid.x, (index / l->grid.x) % l->grid.y,
                          index / (l->grid.x * l->grid.y)};
    c->pc = ptx_cta_new(l->kernel, id, l->grid, l->block, l->params, l->dyn_shmem_bytes);
    c->index = index;
    c->n_warps = (uint16_t)ptx_cta_n_warps(c->pc);
    if ((c->n_warps + sm->gang - 1) / sm->gang * sm->gang != sm->cta_warps)
        panic("%s: CTA has %u warps, expected %u", sm->comp.name, c->n_warps, sm->cta_warps);
    c->n_alive = c->n_warps;
    c->live_threads = sm->cta_threads;
    cycle_t now = comp_cycle(&sm->comp);
    for (unsigned i = 0; i < c->n_warps; i++) {
        /* a wavefront takes a whole pair of slots (an odd CTA leaves the
         * second one empty, and pairs are only ever taken whole) */
        unsigned slot;
        if (sm->gang == 1)
            slot = (unsigned)__builtin_ctzll(sm->free_slots);
        else if (i % 2)
            slot = c->slot[i - 1] + 1u;
        else
            slot = (unsigned)__builtin_ctzll(sm->free_slots & sm->free_slots >> 1 &
                                             0x5555555555555555ull);
        sm->free_slots &= ~(1ull << slot);
        struct sm_warp *w = &sm->warps[slot];
        struct ptx_warp *pw = w->pw;
        memset(w, 0, sizeof *w);
        w->sched = (uint8_t)(slot / sm->gang % sm->spec.schedulers);
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

/* The i-th store of a warp's store buffer, oldest first. */
static struct sm_minst *sb_at(struct sm *sm, const struct sm_warp *w, unsigned i)
{
    unsigned cap = sm->spec.order.store_buffer;
    unsigned slot = (unsigned)(w - sm->warps);
    return &sm->minst[sm->sb[slot * cap + (w->sb_head + i) % cap]];
}

/* May the oldest buffered store be sent? Once every store ahead of it
 * completed (nothing sent is outstanding: stores leave the buffer one at a
 * time) and every load older than it did. Under TSO a warp has at most one
 * load outstanding (loads wait for loads), so that load is older unless its
 * sequence number is at least the store's ld_before. Atomics, fences and
 * acquires (which also wait for the buffer to drain) hold it as well. */
static bool sb_head_ready(struct sm *sm, const struct sm_warp *w)
{
    if (!w->sb_n)
        return false;
    /* order.sb_parallel: earlier stores may still be outstanding (stores
     * leave in order but complete in any order: not TSO, enough for DRF
     * programs, whose releases wait for every store) */
    uint8_t st = sm->spec.order.sb_parallel ? 0 : (uint8_t)ORDER_BIT(ORDER_ST);
    if (w->ord.nz & (st | ORDER_BIT(ORDER_ATOM) | ORDER_BIT(ORDER_FENCE) | ORDER_BIT(ORDER_ACQ)))
        return false;
    return !w->ord.n[ORDER_LD] || w->ld_last >= sb_at(sm, w, 0)->ld_before;
}

static void complete_minst(struct sm *sm, struct sm_minst *mi, cycle_t cyc);

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

/* order.sb_combine (a CPU core): the buffered stores that follow the head
 * `hd`, just taken from the buffer, go with it as more lanes of its one
 * request, as a write-combining buffer sends a line's words together. TSO
 * allows it: consecutive stores become visible together, never out of
 * order. It stops at a store to another line, of another kind (semantics,
 * scope, size, request type), overlapping bytes already taken (the younger
 * must win), held back by an older load (sb_head_ready's rule), or when the
 * lanes run out. A combined store is done here; the head's ack covers it. */
static void sb_combine(struct sm *sm, struct sm_warp *w, struct sm_minst *hd, cycle_t cyc)
{
    const uint8_t *types = sm->run ? sm->run->req_types : NULL;
    struct ptx_memop *h = &hd->mem;
    if (!sm->spec.order.sb_combine || hd->n_lines != 1 || h->tx)
        return;
    while (w->sb_n) {
        struct sm_minst *c = sb_at(sm, w, 0);
        const struct ptx_memop *o = &c->mem;
        if (c->n_lines != 1 || c->line[0].line != hd->line[0].line || o->tx ||
            o->sem != h->sem || o->scope != h->scope || o->size != h->size ||
            (types && types[o->tag] != types[h->tag]) ||
            (w->ord.n[ORDER_LD] && w->ld_last < c->ld_before) ||
            __builtin_popcount(h->mask) + __builtin_popcount(o->mask) > 32)
            return;
        for (uint32_t a = h->mask; a; a &= a - 1)
            for (uint32_t b = o->mask; b; b &= b - 1) {
                addr_t x = h->addr[__builtin_ctz(a)], y = o->addr[__builtin_ctz(b)];
                if (x < y + o->size && y < x + h->size)
                    return;
            }
        for (uint32_t b = o->mask; b; b &= b - 1) {
            unsigned from = (unsigned)__builtin_ctz(b), to = (unsigned)__builtin_ctz(~h->mask);
            h->addr[to] = o->addr[from];
            memcpy(h->data[to], o->data[from], sizeof h->data[to]);
            h->mask |= 1u << to;
            hd->line[0].lanes |= 1u << to;
        }
        w->sb_head = (uint16_t)((w->sb_head + 1) % sm->spec.order.store_buffer);
        w->sb_n--;
        w->sb_lines = (uint16_t)(w->sb_lines - 1);
        if (--w->ord.n[ORDER_SB] == 0)
            w->ord.nz &= (uint8_t)~ORDER_BIT(ORDER_SB);
        order_issue(sm->ord, &w->ord, o->op, o->sem);
        complete_minst(sm, c, cyc);
    }
}

/* Queue the warp for the memory stage if its buffer's head may be sent. */
static void sb_check(struct sm *sm, struct sm_warp *w)
{
    if (w->sb_queued || !sb_head_ready(sm, w))
        return;
    w->sb_queued = true;
    sm->sb_ready[(sm->sb_ready_head + sm->sb_ready_n++) % SM_MAX_WARPS] =
        (uint8_t)(w - sm->warps);
}

/* What a warp's memory instruction may do now. */
enum mem_go {
    GO_LSU,     /* enter the memory stage */
    GO_BUFFER,  /* wait in the store buffer; the warp goes on */
    GO_FORWARD, /* a load served whole from the warp's buffered stores */
    GO_TYPE,    /* sc-typeaware: enter the warp's type-wait queue */
    GO_HOLD,    /* the warp waits (reason in *why) */
};

/* Which buffered stores a load reads: GO_LSU when no lane's bytes overlap
 * one, GO_FORWARD when every lane's bytes lie inside one store lane (the
 * youngest that overlaps; within a store the highest lane, which is written
 * last), with the values copied into ld's data, else GO_HOLD. */
static enum mem_go sb_forward(struct sm *sm, const struct sm_warp *w, struct sm_minst *ld)
{
    struct ptx_memop *op = &ld->mem;
    unsigned n_cov = 0, n_lanes = 0;
    for (uint32_t lanes = op->mask; lanes; lanes &= lanes - 1) {
        unsigned l = (unsigned)__builtin_ctz(lanes);
        addr_t a = op->addr[l];
        bool hit = false;
        n_lanes++;
        for (unsigned i = w->sb_n; i-- && !hit;) {
            const struct ptx_memop *st = &sb_at(sm, w, i)->mem;
            for (int sl = 31; sl >= 0; sl--) {
                addr_t b = st->addr[sl];
                if (!(st->mask >> sl & 1) || b + st->size <= a || a + op->size <= b)
                    continue;
                if (b > a || a + op->size > b + st->size)
                    return GO_HOLD; /* partly covered */
                op->data[l][0] = op->data[l][1] = 0;
                memcpy(op->data[l], (const uint8_t *)st->data[sl] + (a - b), op->size);
                hit = true;
                n_cov++;
                break;
            }
        }
    }
    if (!n_cov)
        return GO_LSU;
    return n_cov == n_lanes ? GO_FORWARD : GO_HOLD;
}

static bool ta_tq_full(const struct sm *sm, const struct sm_warp *w);

static enum mem_go mem_decide(struct sm *sm, struct sm_warp *w, unsigned idx, enum sm_hold *why)
{
    struct sm_minst *mi = &sm->minst[idx];
    unsigned op = mi->mem.op, sem = mi->mem.sem;
    if (sm->ta) {
        if (ta_tq_full(sm, w)) {
            *why = SM_HOLD_TQ_FULL;
            return GO_HOLD;
        }
        return GO_TYPE;
    }
    if (!order_may_issue(sm->ord, &w->ord, op, sem)) {
        /* plain stores wait in the store buffer; release stores and
         * atomics (which order what precedes them) hold the warp */
        if (sm->sb && op == MEM_STORE && sem <= SEM_RELAXED &&
            mi->n_lines <= sm->spec.order.store_buffer) {
            if (w->sb_lines + mi->n_lines <= sm->spec.order.store_buffer)
                return GO_BUFFER;
            *why = SM_HOLD_SB_FULL;
            return GO_HOLD;
        }
        *why = SM_HOLD_ORDER;
        return GO_HOLD;
    }
    if (op == MEM_LOAD && w->ord.n[ORDER_SB]) {
        enum mem_go g = sb_forward(sm, w, mi);
        if (g == GO_HOLD)
            *why = SM_HOLD_FORWARD;
        return g;
    }
    return GO_LSU;
}

static void hold(struct sm *sm, struct sm_warp *w, unsigned idx, enum sm_hold why, cycle_t cyc)
{
    w->held = (uint16_t)idx;
    w->hold = (uint8_t)why;
    w->held_since = cyc;
    sm->st.holds[why]++;
    set_state(sm, w, why == SM_HOLD_SB_FULL ? W_HELD_SB : W_HELD_ORDER);
}

static void sb_push(struct sm *sm, struct sm_warp *w, unsigned idx)
{
    struct sm_minst *mi = &sm->minst[idx];
    unsigned cap = sm->spec.order.store_buffer;
    unsigned slot = (unsigned)(w - sm->warps);
    sm->sb[slot * cap + (w->sb_head + w->sb_n) % cap] = (uint16_t)idx;
    w->sb_n++;
    w->sb_lines = (uint16_t)(w->sb_lines + mi->n_lines);
    mi->ld_before = w->ld_issued;
    w->ord.n[ORDER_SB]++;
    w->ord.nz |= (uint8_t)ORDER_BIT(ORDER_SB);
    w->n_out++;
    sm->st.sb_stores++;
    sb_check(sm, w);
}

static void retry_held(struct sm *sm, struct sm_warp *w, cycle_t cyc);
static void ta_sent_done(struct sm *sm, const struct sm_minst *mi);
static void ta_line_left(struct sm *sm, const struct sm_minst *mi);
static void ta_line_answered(struct sm *sm);

static void complete_minst(struct sm *sm, struct sm_minst *mi, cycle_t cyc)
{
    struct sm_warp *w = &sm->warps[mi->warp];
    bool res = is_result_op(&mi->mem);
    order_complete(sm->ord, &w->ord, mi->mem.op, mi->mem.sem);
    w->n_out--;
    /* a write at the L2 now: logical-time protocols' spin watchdog takes its
     * lease marks after it (machine.c, mark_leases) */
    sm->advances += mi->mem.op == MEM_STORE || mi->mem.op == MEM_ATOMIC;
    if (mi->mem.op == MEM_LOAD) {
        /* a warp that loads what it loaded last time (a spin on a flag) is not
         * progressing; a new address or a new value is */
        uint64_t h = mi->mem.mask;
        for (uint32_t lanes = mi->mem.mask; lanes; lanes &= lanes - 1) {
            unsigned l = (unsigned)__builtin_ctz(lanes);
            h = (h ^ mi->mem.addr[l] ^ mi->mem.data[l][0] ^ (mi->mem.data[l][1] << 1)) *
                0x9e3779b97f4a7c15ull;
        }
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
        uint32_t doomed = mi->mem.tx && sm->tx ? sm_tx_eager_check(sm->tx, mi->warp, w->pw) : 0;
        if (doomed)
            ptx_warp_tx_abort(w->pw, doomed);
        w->issue_at = ptx_warp_issue_cycle(w->pw);
        w->n_res--;
    }
    if (__builtin_expect(sm->itrace != NULL, 0)) {
        mi->ev.done = cyc;
        inst_trace_event(sm->itrace, &mi->ev);
    }
    mi->in_use = false;
    sm->minst_free[sm->n_minst_free++] = (uint16_t)(mi - sm->minst);
    if (sm->sb)
        sb_check(sm, w);
    if (mi->ta_sent)
        ta_sent_done(sm, mi);

    switch (w->state) {
    case W_PARKED:
        if (res || sm->tx) /* a transaction's end waits for the warp's accesses */
            set_state(sm, w, W_READY);
        break;
    case W_HELD_ORDER:
        retry_held(sm, w, cyc);
        break;
    case W_EXITED:
        if (w->n_out == 0)
            warp_free(sm, w);
        break;
    default:
        break;
    }
}

/* The operation now counts as outstanding in the memory stage (a store
 * from the store buffer, or an access from a type-wait queue, was counted in
 * n_out when it was buffered); false when it had no line to send and is
 * complete already. */
static bool lsu_issue(struct sm *sm, struct sm_warp *w, unsigned idx, cycle_t cyc, bool buffered)
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
        complete_minst(sm, mi, cyc);
        return false;
    }
    uint32_t lat = sm->spec.lat[PTX_LAT_GMEM];
    mi->ready = cyc + (lat ? lat : 1);
    mi->pending = mi->n_lines == 32 ? 0xffffffffu : (1u << mi->n_lines) - 1;
    return true;
}

/* Enter the memory stage, every line to be sent (lsu_issue). */
static void lsu_enqueue(struct sm *sm, struct sm_warp *w, unsigned idx, cycle_t cyc,
                        bool buffered)
{
    if (!lsu_issue(sm, w, idx, cyc, buffered))
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
    complete_minst(sm, mi, cyc + sm->spec.lat[PTX_LAT_GMEM]);
}

static void hold_for_lsu(struct sm *sm, struct sm_warp *w, unsigned idx)
{
    w->held = (uint16_t)idx;
    set_state(sm, w, W_HELD_LSU);
    sm->lsu_wait[(sm->lsu_wait_head + sm->lsu_wait_n++) % SM_MAX_WARPS] =
        (uint8_t)(w - sm->warps);
}

/* A held warp's instruction may have become free to go. A warp held before
 * executing (SM_HOLD_CTA) waits for all of its memory operations. */
static bool cta_clear(const struct sm *sm, const struct sm_warp *w);
static void ta_enter(struct sm *sm, struct sm_warp *w, unsigned idx, cycle_t cyc);

static void retry_held(struct sm *sm, struct sm_warp *w, cycle_t cyc)
{
    unsigned idx = w->held;
    enum sm_hold why = (enum sm_hold)w->hold;
    enum mem_go g = GO_LSU;
    if (idx == SM_NONE) {
        if (!cta_clear(sm, w))
            return;
        g = GO_FORWARD; /* nothing to send: the warp simply goes on */
    } else {
        g = mem_decide(sm, w, idx, &why);
        if (g == GO_HOLD) {
            if (why != w->hold) {
                sm->st.hold_cycles[w->hold] += cyc - w->held_since;
                hold(sm, w, idx, why, cyc);
            }
            return;
        }
    }
    sm->st.hold_cycles[w->hold] += cyc - w->held_since;
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
        sb_push(sm, w, idx);
    else if (g == GO_TYPE)
        ta_enter(sm, w, idx, cyc);
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
        lsu_enqueue(sm, w, idx, cyc, false);
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
        sb_combine(sm, w, mi, cyc);
        lsu_enqueue(sm, w, (unsigned)(mi - sm->minst), cyc, true);
        if (w->state == W_HELD_SB)
            retry_held(sm, w, cyc);
        moved = true;
    }
    return moved;
}

/* ---- type-aware SC (order.model = sc-typeaware, spec 001 §2.5) ----
 *
 * Every global memory instruction enters its warp's type-wait queue (TQ), in
 * program order. At the TQ head it is classified from the type cache (or
 * waits for the MAC's answer; answers are stamped into waiting entries, so a
 * tiny type cache cannot make an entry wait forever). An instruction is
 * unsafe when any of its lines lies in an unsafe sector (instruction
 * granularity: its lines still leave in parallel). Unsafe instructions of a
 * warp are performed one at a time, in program order: directly when the warp
 * has none pending, else through its unsafe queue (UQ). A safe instruction
 * goes to the memory stage at once; when its warp still has unsafe ones
 * pending it bypasses them, which leaves an entry per line in the
 * synchronisation table and a marker in the UQ, both removed once every
 * earlier unsafe access completed. Any access that conflicts with another
 * warp's table entry (same line, one side a store) waits at the TQ head.
 * An INV (a sector turned unsafe) or RECALL (safe form) is acknowledged once
 * no marker for the sector is left and no access to it sent as safe is in
 * flight (spec 001 §2.5.5 step 5 and §7's conservative option).
 * DEVIATION: classification, the TQ and the UQ are per warp instruction, not
 * per line request; the LSU queue (sm.lsu_queue) is the safe queue; shared-
 * memory accesses and barriers never bypass (the interpreter performs them at
 * issue, before their addresses could be checked against the synchronisation
 * table): they wait until the warp has no access waiting for its type and no
 * unsafe one pending. Warps with no pending unsafe accesses get no scheduling
 * priority (plain GTO). */

#define TA_MARKER_SECTORS 4
#define TA_PENDING 64
/* RECALLs that make a TQ head forget a classified line before it switches
 * to line-at-a-time sending: with a classifier set smaller than the sectors
 * one instruction touches (or contended by other SMs), classifying every
 * line at once may never happen. */
#define TA_SERIAL_AFTER 2

struct ta_tc {                /* a type-cache entry */
    uint64_t sector, lru;
    bool valid, unsafe, we;
};

struct ta_uq {                /* an unsafe-queue entry: an instruction or a marker */
    uint16_t minst;           /* the instruction (SM_NONE: a marker) */
    uint8_t n_sectors;        /* marker: sectors of the access that bypassed (0xff: many) */
    uint8_t n_sync;
    uint64_t sectors[TA_MARKER_SECTORS];
    uint16_t sync[32];        /* marker: its synchronisation-table entries */
};

struct ta_sync {              /* a synchronisation-table entry */
    addr_t line;
    uint64_t warps;           /* warps whose bypassing accesses it records */
    uint32_t count;           /* markers that refer to it */
    bool valid, store;
};

struct ta_drain {             /* an INV or RECALL being drained */
    uint64_t sector;
    uint64_t since;           /* cycle it arrived */
    uint32_t checked;         /* sm_ta.n_drain_events when it was last found not drained */
    bool ever_checked;
    bool recall;              /* a RECALL (else an INV) */
    uint16_t mac;
};

/* What a warp's queues wait for when ta_advance leaves them (a fixed point:
 * calling it again changes nothing until one of these happens). */
enum {
    TA_ON_TYPE = 1,           /* a message from a MAC (answer, INV, RECALL) */
    TA_ON_SYNC = 2,           /* a synchronisation-table entry freed */
    TA_ON_LSU = 4,            /* room in the memory stage */
};

struct ta_warp {
    uint16_t tq_head, tq_n;
    uint16_t uq_head, uq_n;
    uint16_t pend_unsafe;     /* unsafe instructions sent, not completed */
    uint16_t serial;          /* the instruction it sends one line at a time, or SM_NONE */
    uint8_t wait_on;          /* TA_ON_* bits: events that may let its queues move */
    uint8_t why;              /* enum sm_ta_wait of its TQ head at the last advance */
    bool dirty;               /* its own state changed (an unsafe access completed) */
    uint32_t seen_type, seen_sync; /* sm_ta's event counts at the last advance */
};

struct sm_ta {
    struct order_spec spec;
    unsigned n_macs, sector_shift, tc_sets;
    struct port *to_mac, *from_mac;
    struct ta_tc *tc;                 /* [type_cache_entries] */
    struct ta_warp w[SM_MAX_WARPS];
    uint16_t *tq;                     /* [warps][tq_entries] instruction slots */
    struct ta_uq *uq;                 /* [warps][uq_entries] */
    struct ta_sync *sync;             /* [sync_entries] */
    struct {
        uint64_t sector;
        bool write, valid;
    } pending[TA_PENDING];            /* type requests out */
    struct ta_drain *drains;          /* [drain_cap] */
    unsigned n_drains, drain_cap;
    struct msg_list outbox;           /* messages to the MACs waiting for room */
    uint64_t watch;                   /* warps with TQ/UQ entries or held for them */
    uint64_t tick;
    uint32_t n_type_events;           /* MAC messages received */
    uint32_t n_sync_frees;            /* synchronisation-table entries freed */
    uint32_t n_drain_events;          /* markers removed and safe accesses completed: what
                                         may end a drain (ta_drained) */
};

static inline uint64_t ta_sector(const struct sm_ta *t, addr_t a)
{
    return a >> t->sector_shift;
}

static struct ta_tc *ta_tc_find(struct sm_ta *t, uint64_t sector)
{
    struct ta_tc *set = &t->tc[(sector % t->tc_sets) * t->spec.type_cache_ways];
    for (unsigned i = 0; i < t->spec.type_cache_ways; i++)
        if (set[i].valid && set[i].sector == sector)
            return &set[i];
    return NULL;
}

static void ta_tc_fill(struct sm_ta *t, uint64_t sector, bool unsafe, bool we)
{
    struct ta_tc *e = ta_tc_find(t, sector);
    if (!e) {
        struct ta_tc *set = &t->tc[(sector % t->tc_sets) * t->spec.type_cache_ways];
        e = &set[0];
        for (unsigned i = 0; i < t->spec.type_cache_ways; i++) {
            if (!set[i].valid) {
                e = &set[i];
                break;
            }
            if (set[i].lru < e->lru)
                e = &set[i];
        }
    }
    *e = (struct ta_tc){sector, t->tick, true, unsafe, we};
}

static void ta_send(struct sm *sm, uint16_t type, uint64_t sector, uint16_t flags)
{
    struct sm_ta *t = sm->ta;
    struct msg *m = msg_new(sm->msgs, type, (addr_t)(sector << t->sector_shift), sm->comp.eng->now);
    m->cls = TRAFFIC_REQ;
    m->src = (uint16_t)sm->id;
    m->dst = (uint16_t)(sector % t->n_macs);
    m->flags = flags;
    msg_list_push(&t->outbox, m);
}

/* Ask the MAC for a sector's type unless the same question is out. Returns
 * false when the table of questions is full (the asker tries again). */
static bool ta_ask(struct sm *sm, uint64_t sector, bool write)
{
    struct sm_ta *t = sm->ta;
    int free_at = -1;
    for (int i = 0; i < TA_PENDING; i++) {
        if (t->pending[i].valid && t->pending[i].sector == sector && t->pending[i].write >= write)
            return true;
        if (!t->pending[i].valid && free_at < 0)
            free_at = i;
    }
    if (free_at < 0)
        return false;
    t->pending[free_at].valid = true;
    t->pending[free_at].sector = sector;
    t->pending[free_at].write = write;
    sm->st.ta_type_requests++;
    ta_send(sm, MSG_MAC_TYPE_REQ, sector, write ? MAC_F_WRITE : 0);
    return true;
}

static inline bool ta_writes(const struct sm_minst *mi)
{
    return mi->mem.op != MEM_LOAD;
}

/* Classify line i of mi from the type cache, or ask its MAC (once, until a
 * RECALL makes it forget the line). */
static void ta_classify_line(struct sm *sm, struct sm_minst *mi, unsigned i, bool write)
{
    struct sm_ta *t = sm->ta;
    if ((mi->ta_known | mi->ta_asked) >> i & 1)
        return;
    uint64_t sec = ta_sector(t, mi->line[i].line);
    struct ta_tc *e = ta_tc_find(t, sec);
    if (e && (e->unsafe || e->we || !write)) {
        e->lru = t->tick;
        sm->st.ta_type_hits++;
        mi->ta_known |= 1u << i;
        if (e->unsafe)
            mi->ta_unsafe |= 1u << i;
        return;
    }
    /* an answer (or INV) for the sector is stamped into this entry, so once
     * asked it needs no second look until a RECALL forgets it */
    if (ta_ask(sm, sec, write))
        mi->ta_asked |= 1u << i;
}

/* Classify what the type cache knows of mi's lines; ask for the rest. True
 * when every line is classified. */
static bool ta_classify(struct sm *sm, struct sm_minst *mi)
{
    uint32_t all = mi->n_lines == 32 ? 0xffffffffu : (1u << mi->n_lines) - 1;
    bool write = ta_writes(mi);
    for (unsigned i = 0; i < mi->n_lines; i++)
        ta_classify_line(sm, mi, i, write);
    return mi->ta_known == all;
}

/* Apply a MAC's answer (or an invalidation: unsafe, or a recall: forget)
 * to one waiting access; `committed`: a line whose type is known is not
 * forgotten (ta_serial_step). True when a recall made it forget a line it
 * knew. */
static bool ta_stamp_minst(const struct sm_ta *t, struct sm_minst *mi, uint64_t sector,
                           bool forget, bool unsafe, bool we, bool committed)
{
    bool write = ta_writes(mi);
    bool forgot = false;
    for (unsigned i = 0; i < mi->n_lines; i++) {
        if (ta_sector(t, mi->line[i].line) != sector)
            continue;
        if (forget) {
            if (committed && mi->ta_known >> i & 1)
                continue;
            forgot |= mi->ta_known >> i & 1;
            mi->ta_known &= ~(1u << i);
            mi->ta_asked &= ~(1u << i);
            mi->ta_unsafe &= ~(1u << i);
        } else if (unsafe || we || !write) {
            mi->ta_known |= 1u << i;
            if (unsafe)
                mi->ta_unsafe |= 1u << i;
        }
    }
    return forgot;
}

/* ... to every access waiting for its type. A RECALL that makes a TQ head
 * forget a line counts towards sending it line at a time (TA_SERIAL_AFTER). */
static void ta_stamp(struct sm *sm, uint64_t sector, bool forget, bool unsafe, bool we)
{
    struct sm_ta *t = sm->ta;
    unsigned cap = t->spec.tq_entries;
    for (uint64_t m = t->watch; m; m &= m - 1) {
        unsigned slot = (unsigned)__builtin_ctzll(m);
        const struct ta_warp *tw = &t->w[slot];
        for (unsigned k = 0; k < tw->tq_n; k++) {
            struct sm_minst *mi = &sm->minst[t->tq[slot * cap + (tw->tq_head + k) % cap]];
            if (ta_stamp_minst(t, mi, sector, forget, unsafe, we, false) && k == 0 &&
                mi->ta_forgets < UINT8_MAX)
                mi->ta_forgets++;
        }
        if (tw->serial != SM_NONE) {
            struct sm_minst *mi = &sm->minst[tw->serial];
            ta_stamp_minst(t, mi, sector, forget, unsafe, we, true);
        }
    }
}

static struct ta_uq *ta_uq_at(struct sm *sm, unsigned slot, unsigned k)
{
    struct sm_ta *t = sm->ta;
    unsigned cap = t->spec.uq_entries;
    return &t->uq[slot * cap + (t->w[slot].uq_head + k) % cap];
}

/* Does an access of warp `slot` to `line` conflict with another warp's
 * entry (single writer or several readers)? */
static bool ta_conflict(const struct sm_ta *t, unsigned slot, addr_t line, bool store)
{
    for (unsigned i = 0; i < t->spec.sync_entries; i++) {
        const struct ta_sync *e = &t->sync[i];
        if (e->valid && e->line == line && (e->warps & ~(1ull << slot)) && (store || e->store))
            return true;
    }
    return false;
}

/* Record a bypassing access of warp `slot` to `line`; the entry's index, or
 * -1 when the table is full. */
static int ta_sync_add(struct sm_ta *t, unsigned slot, addr_t line, bool store)
{
    int free_at = -1;
    for (unsigned i = 0; i < t->spec.sync_entries; i++) {
        struct ta_sync *e = &t->sync[i];
        if (e->valid && e->line == line) {
            e->warps |= 1ull << slot;
            e->store |= store;
            e->count++;
            return (int)i;
        }
        if (!e->valid && free_at < 0)
            free_at = (int)i;
    }
    if (free_at >= 0)
        t->sync[free_at] = (struct ta_sync){line, 1ull << slot, 1, true, store};
    return free_at;
}

static unsigned ta_sync_free(const struct sm_ta *t)
{
    unsigned n = 0;
    for (unsigned i = 0; i < t->spec.sync_entries; i++)
        n += !t->sync[i].valid;
    return n;
}

static bool lsu_room(const struct sm *sm)
{
    return sm->lsu_n < sm->spec.lsu_queue && !sm->lsu_wait_n;
}

/* Send instruction idx of warp w to the memory stage as safe or unsafe. */
static void ta_go(struct sm *sm, struct sm_warp *w, unsigned idx, bool unsafe, cycle_t cyc)
{
    struct sm_minst *mi = &sm->minst[idx];
    mi->ta_sent = unsafe ? 2 : 1;
    if (unsafe) {
        sm->ta->w[w - sm->warps].pend_unsafe++;
        sm->st.ta_unsafe_insts++;
    } else {
        sm->st.ta_safe_insts++;
    }
    lsu_enqueue(sm, w, idx, cyc, true);
}

/* A bypassing safe instruction: table entries per line and a marker. False
 * (nothing changed) when the table or the unsafe queue has no room. */
static bool ta_bypass(struct sm *sm, unsigned slot, const struct sm_minst *mi)
{
    struct sm_ta *t = sm->ta;
    struct ta_warp *tw = &t->w[slot];
    if (tw->uq_n >= t->spec.uq_entries || ta_sync_free(t) < mi->n_lines)
        return false;
    struct ta_uq *u = ta_uq_at(sm, slot, tw->uq_n);
    tw->uq_n++;
    u->minst = SM_NONE;
    u->n_sectors = 0;
    u->n_sync = 0;
    bool store = ta_writes(mi);
    for (unsigned i = 0; i < mi->n_lines; i++) {
        uint64_t sec = ta_sector(t, mi->line[i].line);
        bool have = false;
        for (unsigned k = 0; k < u->n_sectors && u->n_sectors != 0xff; k++)
            have |= u->sectors[k] == sec;
        if (!have && u->n_sectors != 0xff) {
            if (u->n_sectors == TA_MARKER_SECTORS)
                u->n_sectors = 0xff;
            else
                u->sectors[u->n_sectors++] = sec;
        }
        u->sync[u->n_sync++] = (uint16_t)ta_sync_add(t, slot, mi->line[i].line, store);
    }
    sm->st.ta_bypasses++;
    return true;
}

/* Swap lines i and j of an instruction none of whose lines from
 * min(i, j) on has been sent (request ids name a line by its index only
 * once sent). */
static void ta_swap_lines(struct sm_minst *mi, unsigned i, unsigned j)
{
    struct coal_line l = mi->line[i];
    mi->line[i] = mi->line[j];
    mi->line[j] = l;
    uint32_t *bits[] = {&mi->ta_known, &mi->ta_unsafe, &mi->ta_asked};
    for (unsigned k = 0; k < sizeof bits / sizeof *bits; k++) {
        uint32_t d = (*bits[k] >> i ^ *bits[k] >> j) & 1;
        *bits[k] ^= d << i | d << j;
    }
}

/* Drive warp `slot`'s line-at-a-time instruction (ta_go_serial). Every line
 * not sent yet is classified from the type cache or asked for; a line
 * whose type is known is committed: it is sent without asking anything
 * more, so a RECALL does not make it forgotten (ta_stamp) and drains of its
 * sector wait until it is answered (ta_drained), and no MAC hands the sector
 * to another SM under it. Once the lines sent before have left the memory
 * stage, the known lines are moved to the front of those not sent and enter
 * it together (lines of one instruction belong to different threads: their
 * order is free). */
static void ta_serial_step(struct sm *sm, unsigned slot, cycle_t cyc)
{
    struct sm_ta *t = sm->ta;
    struct ta_warp *tw = &t->w[slot];
    struct sm_minst *mi = &sm->minst[tw->serial];
    bool store = ta_writes(mi);
    for (unsigned i = mi->send_end; i < mi->n_lines; i++)
        ta_classify_line(sm, mi, i, store);
    if (mi->next_line != mi->send_end || !lsu_room(sm))
        return; /* lines sent before are still in the memory stage */
    unsigned end = mi->send_end;
    for (unsigned i = end; i < mi->n_lines; i++) {
        /* the synchronisation table orders it after other warps' bypassing
         * accesses to the line, as at the TQ head */
        if (!(mi->ta_known >> i & 1) || ta_conflict(t, slot, mi->line[i].line, store))
            continue;
        if (i != end)
            ta_swap_lines(mi, i, end);
        end++;
    }
    if (end == mi->send_end)
        return;
    if (mi->send_end) /* the first lines keep lsu_issue's latency */
        mi->ready = cyc + 1;
    sm->lsu[(sm->lsu_head + sm->lsu_n++) % sm->spec.lsu_queue] = tw->serial;
    mi->send_end = (uint8_t)end;
}

/* The TQ head idx of warp `slot` could not get every line classified at
 * once (TA_SERIAL_AFTER): with a classifier set smaller than the sectors one
 * instruction touches, or contended by other SMs, a RECALL for one line's
 * sector may keep arriving while another line's type is asked for. It goes
 * as an unsafe instruction whose lines leave as their own types become known
 * (ta_serial_step). The warp has no unsafe access pending or queued, and no
 * later instruction passes it (ta_advance), so it is ordered like any unsafe
 * one; an access of a thread is one line, so sending lines apart reorders
 * nothing within a thread. It counts as in the memory stage now (lsu_issue)
 * and sends its lines as they are committed. */
static void ta_go_serial(struct sm *sm, unsigned slot, unsigned idx, cycle_t cyc)
{
    struct sm_ta *t = sm->ta;
    struct sm_minst *mi = &sm->minst[idx];
    mi->ta_sent = TA_SENT_SERIAL;
    t->w[slot].pend_unsafe++;
    t->w[slot].serial = (uint16_t)idx;
    sm->st.ta_unsafe_insts++;
    sm->st.ta_serial_insts++;
    mi->send_end = 0;
    if (lsu_issue(sm, &sm->warps[slot], idx, cyc, true))
        ta_serial_step(sm, slot, cyc);
}

/* Does mi touch a line of an unsafe instruction of warp `slot` still in its
 * unsafe queue (classified, not yet sent)? A safe access that bypassed it
 * would reach the L1 first: a thread's later access to the same address
 * performed before its earlier one. An instruction is unsafe when any of its
 * lines is, so its other lines may well lie in a sector that is safe now
 * (or that was recalled and handed back as private since). */
static bool ta_uq_touches(struct sm *sm, unsigned slot, const struct sm_minst *mi)
{
    for (unsigned k = 0; k < sm->ta->w[slot].uq_n; k++) {
        const struct ta_uq *u = ta_uq_at(sm, slot, k);
        if (u->minst == SM_NONE)
            continue;
        const struct sm_minst *q = &sm->minst[u->minst];
        for (unsigned i = 0; i < mi->n_lines; i++)
            for (unsigned j = 0; j < q->n_lines; j++)
                if (mi->line[i].line == q->line[j].line)
                    return true;
    }
    return false;
}

static void ta_tq_pop(struct sm *sm, unsigned slot)
{
    struct ta_warp *tw = &sm->ta->w[slot];
    tw->tq_head = (uint16_t)((tw->tq_head + 1) % sm->ta->spec.tq_entries);
    tw->tq_n--;
}

/* Move what may move in warp `slot`'s queues; returns why the TQ head
 * waits (SM_TA_N: it does not, or the TQ is empty). */
static enum sm_ta_wait ta_advance(struct sm *sm, unsigned slot, cycle_t cyc)
{
    struct sm_ta *t = sm->ta;
    struct ta_warp *tw = &t->w[slot];
    struct sm_warp *w = &sm->warps[slot];
    if (tw->serial != SM_NONE)
        ta_serial_step(sm, slot, cyc);
    /* the unsafe queue: program order, one unsafe instruction at a time */
    while (tw->uq_n && !tw->pend_unsafe) {
        struct ta_uq *u = ta_uq_at(sm, slot, 0);
        if (u->minst != SM_NONE) {
            if (!lsu_room(sm))
                break;
            ta_go(sm, w, u->minst, true, cyc);
        } else {
            t->n_drain_events++;
            for (unsigned k = 0; k < u->n_sync; k++) {
                struct ta_sync *e = &t->sync[u->sync[k]];
                if (--e->count == 0) {
                    e->valid = false;
                    t->n_sync_frees++;
                }
            }
        }
        tw->uq_head = (uint16_t)((tw->uq_head + 1) % t->spec.uq_entries);
        tw->uq_n--;
    }
    unsigned cap = t->spec.tq_entries;
    /* nothing passes a line-at-a-time instruction: a safe access bypassing it
     * would leave a marker that holds drains, and the instruction's next line
     * may wait for a MAC that waits for one of those drains */
    while (tw->tq_n && tw->serial == SM_NONE) {
        unsigned idx = t->tq[slot * cap + tw->tq_head];
        struct sm_minst *mi = &sm->minst[idx];
        if (!ta_classify(sm, mi)) {
            if (mi->ta_forgets < TA_SERIAL_AFTER || tw->pend_unsafe || tw->uq_n)
                return SM_TA_TYPE;
            ta_go_serial(sm, slot, idx, cyc);
            ta_tq_pop(sm, slot);
            if (w->state == W_HELD_ORDER && w->hold == SM_HOLD_TQ_FULL)
                retry_held(sm, w, cyc);
            return tw->tq_n ? SM_TA_TYPE : SM_TA_N;
        }
        bool unsafe = mi->ta_unsafe != 0, store = ta_writes(mi);
        for (unsigned i = 0; i < mi->n_lines; i++)
            if (ta_conflict(t, slot, mi->line[i].line, store))
                return SM_TA_SYNC;
        bool behind = tw->pend_unsafe || tw->uq_n;
        if (!unsafe && tw->uq_n && ta_uq_touches(sm, slot, mi)) {
            unsafe = true; /* it keeps its place behind them */
            sm->st.ta_same_line++;
        }
        if (unsafe) {
            if (!behind && lsu_room(sm)) {
                ta_go(sm, w, idx, true, cyc);
            } else if (tw->uq_n < t->spec.uq_entries) {
                struct ta_uq *u = ta_uq_at(sm, slot, tw->uq_n);
                tw->uq_n++;
                u->minst = (uint16_t)idx;
            } else {
                return SM_TA_UNSAFE_FULL;
            }
        } else {
            if (!lsu_room(sm))
                return SM_TA_N; /* the memory stage is full: counted as lsu_full */
            if (behind && !ta_bypass(sm, slot, mi))
                return tw->uq_n >= t->spec.uq_entries ? SM_TA_UNSAFE_FULL : SM_TA_SYNC;
            ta_go(sm, w, idx, false, cyc);
        }
        ta_tq_pop(sm, slot);
        if (w->state == W_HELD_ORDER && w->hold == SM_HOLD_TQ_FULL)
            retry_held(sm, w, cyc);
    }
    return tw->tq_n ? SM_TA_TYPE : SM_TA_N;
}

/* ta_advance, then note what the warp's queues now wait for, so that
 * ta_step calls it again only when that may have changed (the queues are a
 * fixed point of ta_advance otherwise: a call would change nothing). Every
 * waiting TQ head depends on MAC messages (a RECALL makes it ask again). */
static enum sm_ta_wait ta_advance_noted(struct sm *sm, unsigned slot, cycle_t cyc)
{
    struct sm_ta *t = sm->ta;
    enum sm_ta_wait why = ta_advance(sm, slot, cyc);
    struct ta_warp *tw = &t->w[slot];
    uint8_t on = 0;
    if (tw->tq_n)
        on |= TA_ON_TYPE;
    if (tw->tq_n && (why == SM_TA_SYNC || why == SM_TA_UNSAFE_FULL))
        on |= TA_ON_SYNC;
    if ((tw->tq_n && why == SM_TA_N) || (tw->uq_n && !tw->pend_unsafe))
        on |= TA_ON_LSU; /* the TQ head, or the UQ's head instruction, waits for room */
    if (tw->serial != SM_NONE)
        on |= TA_ON_TYPE | TA_ON_LSU | TA_ON_SYNC; /* its next line waits for its type, room
                                                      and no conflicting table entry */
    tw->wait_on = on;
    tw->why = (uint8_t)why;
    tw->dirty = false;
    tw->seen_type = t->n_type_events;
    tw->seen_sync = t->n_sync_frees;
    return why;
}

/* Enter the type-wait queue (it has room): counted as outstanding now. */
static void ta_enter(struct sm *sm, struct sm_warp *w, unsigned idx, cycle_t cyc)
{
    struct sm_ta *t = sm->ta;
    unsigned slot = (unsigned)(w - sm->warps);
    struct ta_warp *tw = &t->w[slot];
    struct sm_minst *mi = &sm->minst[idx];
    mi->ta_known = mi->ta_unsafe = mi->ta_asked = 0;
    mi->ta_sent = 0;
    mi->ta_forgets = 0;
    t->tq[slot * t->spec.tq_entries + (tw->tq_head + tw->tq_n) % t->spec.tq_entries] =
        (uint16_t)idx;
    tw->tq_n++;
    w->n_out++;
    if (is_result_op(&mi->mem))
        w->n_res++;
    t->watch |= 1ull << slot;
    ta_advance_noted(sm, slot, cyc);
}

/* May a shared-memory access or barrier of the warp go (cta_ordered)? */
static bool cta_clear(const struct sm *sm, const struct sm_warp *w)
{
    if (!sm->ta)
        return w->n_out == 0;
    const struct ta_warp *tw = &sm->ta->w[w - sm->warps];
    return !tw->tq_n && !tw->uq_n && !tw->pend_unsafe;
}

/* Is a drain of `sector` done: no marker for it, no access to it sent as
 * safe still in the memory stage or in flight, no line of a line-at-a-time
 * instruction committed to it or in flight, and for a RECALL no unsafe
 * access to it queued or in flight either? */
static bool ta_drained(struct sm *sm, uint64_t sector, bool recall)
{
    struct sm_ta *t = sm->ta;
    for (uint64_t m = t->watch; m; m &= m - 1) {
        unsigned slot = (unsigned)__builtin_ctzll(m);
        for (unsigned k = 0; k < t->w[slot].uq_n; k++) {
            const struct ta_uq *u = ta_uq_at(sm, slot, k);
            if (u->minst != SM_NONE) {
                /* an unsafe access classified before a RECALL must be
                 * performed before the MAC forgets this SM's use of the
                 * sector (it leaves the UQ without asking again) */
                const struct sm_minst *q = &sm->minst[u->minst];
                for (unsigned l = 0; recall && l < q->n_lines; l++)
                    if (ta_sector(t, q->line[l].line) == sector)
                        return false;
                continue;
            }
            if (u->n_sectors == 0xff)
                return false;
            for (unsigned j = 0; j < u->n_sectors; j++)
                if (u->sectors[j] == sector)
                    return false;
        }
    }
    for (unsigned i = 0; i < sm->spec.max_inflight; i++) {
        const struct sm_minst *mi = &sm->minst[i];
        if (!mi->in_use || !mi->ta_sent || (mi->ta_sent == TA_SENT_UNSAFE && !recall))
            continue;
        /* a line-at-a-time instruction: its lines sent and not answered,
         * and those committed (ta_serial_step); the others are classified
         * anew */
        bool serial = mi->ta_sent == TA_SENT_SERIAL;
        for (unsigned l = 0; l < mi->n_lines; l++) {
            if (ta_sector(t, mi->line[l].line) != sector)
                continue;
            if (!serial || (l < mi->send_end ? mi->pending >> l & 1 : mi->ta_known >> l & 1))
                return false;
        }
    }
    return true;
}

/* Messages from the MACs. */
static void ta_receive(struct sm *sm)
{
    struct sm_ta *t = sm->ta;
    struct msg *m;
    while ((m = port_peek(t->from_mac))) {
        port_pop(t->from_mac);
        t->n_type_events++;
        uint64_t sec = ta_sector(t, m->addr);
        bool unsafe = m->flags & MAC_F_UNSAFE, we = m->flags & MAC_F_WRITE;
        switch (m->type) {
        case MSG_MAC_TYPE_RSP:
            for (int i = 0; i < TA_PENDING; i++)
                if (t->pending[i].valid && t->pending[i].sector == sec &&
                    (t->pending[i].write <= (unsafe || we)))
                    t->pending[i].valid = false;
            ta_tc_fill(t, sec, unsafe, we);
            ta_stamp(sm, sec, false, unsafe, we);
            break;
        case MSG_MAC_INV:
        case MSG_MAC_RECALL: {
            bool inv = m->type == MSG_MAC_INV;
            struct ta_tc *e = ta_tc_find(t, sec);
            if (inv) {
                sm->st.ta_invalidations++;
                if (e)
                    e->unsafe = true;
                ta_stamp(sm, sec, false, true, false);
            } else {
                sm->st.ta_recalls++;
                if (e)
                    e->valid = false;
                ta_stamp(sm, sec, true, false, false);
            }
            if (!inv && t->spec.mac_recall == ORDER_RECALL_PAPER)
                break;
            if (t->n_drains == t->drain_cap) {
                t->drain_cap = t->drain_cap ? 2 * t->drain_cap : 16;
                t->drains = realloc(t->drains, t->drain_cap * sizeof *t->drains);
                if (!t->drains)
                    panic("out of memory");
            }
            t->drains[t->n_drains++] =
                (struct ta_drain){.sector = sec, .since = t->tick, .mac = m->src, .recall = !inv};
            break;
        }
        default:
            panic("%s: unexpected message type %u from a MAC", sm->comp.name, m->type);
        }
        msg_free(sm->msgs, m);
    }
}

/* Every cycle under sc-typeaware: messages in, queues advanced, drains
 * acknowledged, messages out. */
static void ta_step(struct sm *sm, cycle_t cyc)
{
    struct sm_ta *t = sm->ta;
    t->tick = cyc;
    ta_receive(sm);
    for (uint64_t m = t->watch; m; m &= m - 1) {
        unsigned slot = (unsigned)__builtin_ctzll(m);
        struct sm_warp *w = &sm->warps[slot];
        const struct ta_warp *tw = &t->w[slot];
        bool moves = tw->dirty ||
                     ((tw->wait_on & TA_ON_TYPE) && tw->seen_type != t->n_type_events) ||
                     ((tw->wait_on & TA_ON_SYNC) && tw->seen_sync != t->n_sync_frees) ||
                     ((tw->wait_on & TA_ON_LSU) && lsu_room(sm));
        enum sm_ta_wait why = moves ? ta_advance_noted(sm, slot, cyc) : (enum sm_ta_wait)tw->why;
        if (why != SM_TA_N)
            sm->st.ta_wait_cycles[why]++;
        if (w->state == W_HELD_ORDER && w->hold == SM_HOLD_CTA)
            retry_held(sm, w, cyc);
        if (!tw->tq_n && !tw->uq_n && !tw->pend_unsafe && w->state != W_HELD_ORDER)
            t->watch &= ~(1ull << slot);
    }
    for (unsigned i = 0; i < t->n_drains;) {
        struct ta_drain *d = &t->drains[i];
        /* a drain found unfinished can end only after a drain event */
        if ((d->ever_checked && d->checked == t->n_drain_events) ||
            !ta_drained(sm, d->sector, d->recall)) {
            d->checked = t->n_drain_events;
            d->ever_checked = true;
            i++;
            continue;
        }
        sm->st.ta_drains++;
        sm->st.ta_drain_cycles += cyc - t->drains[i].since;
        struct msg *a = msg_new(sm->msgs, MSG_MAC_ACK, (addr_t)(t->drains[i].sector
                                                                << t->sector_shift),
                                sm->comp.eng->now);
        a->cls = TRAFFIC_INV;
        a->src = (uint16_t)sm->id;
        a->dst = t->drains[i].mac;
        msg_list_push(&t->outbox, a);
        t->drains[i] = t->drains[--t->n_drains];
    }
    while (t->outbox.head && port_has_room(t->to_mac, 1)) {
        struct msg *o = msg_list_pop(&t->outbox);
        if (!port_send(t->to_mac, o))
            panic("%s: send on a port that had room", sm->comp.name);
    }
}

static bool ta_busy(const struct sm *sm)
{
    const struct sm_ta *t = sm->ta;
    return t && (t->watch || t->n_drains || t->outbox.n);
}

static bool ta_tq_full(const struct sm *sm, const struct sm_warp *w)
{
    return sm->ta->w[w - sm->warps].tq_n >= sm->ta->spec.tq_entries;
}

/* An access sent by the type-aware path completed: an unsafe one lets its
 * warp's unsafe queue move; a safe one may end a drain. */
static void ta_sent_done(struct sm *sm, const struct sm_minst *mi)
{
    struct sm_ta *t = sm->ta;
    if (mi->ta_sent != TA_SENT_SAFE) {
        t->w[mi->warp].pend_unsafe--;
        t->w[mi->warp].dirty = true;
    }
    if (mi->ta_sent == TA_SENT_SERIAL)
        t->w[mi->warp].serial = SM_NONE;
    t->n_drain_events++;
}

/* A line of a line-at-a-time instruction left the memory stage: its warp
 * may send the next. */
static void ta_line_left(struct sm *sm, const struct sm_minst *mi)
{
    sm->ta->w[mi->warp].dirty = true;
}

/* ... was answered: a drain of its sector may end. */
static void ta_line_answered(struct sm *sm)
{
    sm->ta->n_drain_events++;
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
static void trace_done_now(struct sm *sm, unsigned op, cycle_t cyc)
{
    sm->iev.op = (uint8_t)op;
    sm->iev.done = cyc;
    inst_trace_event(sm->itrace, &sm->iev);
}

static void mem_issue(struct sm *sm, struct sm_warp *w, const struct ptx_memop *op, cycle_t cyc)
{
    if (op->op == MEM_FENCE && sm->ord->fences_free) {
        sm->st.mem_insts[MEM_FENCE]++;
        sm->st.fences_elided++;
        if (__builtin_expect(sm->itrace != NULL, 0))
            trace_done_now(sm, op->op, cyc);
        return;
    }
    if (op->tx && op->op == MEM_STORE && sm->tx && sm_tx_stores_local(sm->tx)) {
        sm->st.mem_insts[MEM_STORE]++; /* WarpTM: the redo log holds it until the commit */
        uint32_t doomed = sm_tx_eager_check(sm->tx, (unsigned)(w - sm->warps), w->pw);
        if (doomed)
            ptx_warp_tx_abort(w->pw, doomed);
        if (__builtin_expect(sm->itrace != NULL, 0))
            trace_done_now(sm, op->op, cyc);
        return;
    }
    unsigned idx = sm->minst_free[--sm->n_minst_free];
    struct sm_minst *mi = &sm->minst[idx];
    memcpy(&mi->mem, op, sizeof *op);
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
                  kernel_name(sm), w->cta->index, w->warp_in_cta, bad, op->size,
                  (unsigned long long)op->addr[bad], ptx_warp_where(w->pw, where, sizeof where));
        }
        mi->n_lines = (uint8_t)n;
    }
    if (__builtin_expect(sm->itrace != NULL, 0)) {
        mi->ev = sm->iev;
        mi->ev.op = (uint8_t)op->op;
        mi->ev.n_lines = op->op == MEM_FENCE ? 0 : mi->n_lines;
        mi->ev.lines = mi->line;
    }
    sm->st.mem_insts[op->op]++;
    sm->advances += op->op == MEM_STORE || op->op == MEM_ATOMIC;
    enum sm_hold why = SM_HOLD_ORDER;
    switch (mem_decide(sm, w, idx, &why)) {
    case GO_HOLD:
        hold(sm, w, idx, why, cyc);
        if (why == SM_HOLD_ORDER && sm->spec.order.prefetch)
            prefetch_lines(sm, mi);
        return;
    case GO_BUFFER:
        sb_push(sm, w, idx);
        return;
    case GO_FORWARD:
        forward_load(sm, w, idx, cyc);
        return;
    case GO_TYPE:
        ta_enter(sm, w, idx, cyc);
        return;
    case GO_LSU:
        break;
    }
    if (sm->lsu_wait_n || sm->lsu_n >= sm->spec.lsu_queue) {
        hold_for_lsu(sm, w, idx);
        return;
    }
    lsu_enqueue(sm, w, idx, cyc, false);
}

static const uint8_t class_of_op[MEM_NOPS] = {
    [MEM_LOAD] = TRAFFIC_LD, [MEM_STORE] = TRAFFIC_ST, [MEM_ATOMIC] = TRAFFIC_ATO,
    [MEM_FENCE] = TRAFFIC_REQ, [MEM_KERNEL_BEGIN] = TRAFFIC_REQ, [MEM_KERNEL_END] = TRAFFIC_REQ};

/* A prefetch leaves when the memory stage has nothing else to send this
 * cycle: a weak load of one byte of the line, answered with data that is
 * dropped (a plain load to the protocol, so it allocates and merges as one). */
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
                              .id = req_id(0, ID_PREFETCH_SLOT, 0)};
    bytemask_set_range(&m->mask, 0, 1);
    if (!port_send(sm->to_l1, m))
        panic("%s: send on a port that had room", sm->comp.name);
    sm->comp.eng->n_outstanding++;
    sm->pf_out++;
    sm->st.prefetches++;
    return true;
}

/* The memory stage: the head instruction sends its next line, if the port
 * has room (else retried next cycle and counted). */
static bool lsu_send(struct sm *sm, cycle_t cyc)
{
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
    if (op->tx) {
        sm_tx_stamp(sm->tx, mi->warp, m, op->op == MEM_STORE);
        tx_trace(sm, mi->warp, cyc, "%s line 0x%llx sent (%d lanes, warpts %llu)",
                 op->op == MEM_STORE ? "store" : "load", (unsigned long long)cl->line,
                 __builtin_popcount(cl->lanes), (unsigned long long)m->ts);
    }
    if (!port_send(sm->to_l1, m))
        panic("%s: send on a port that had room", sm->comp.name);
    sm->comp.eng->n_outstanding++;
    sm->st.mem_reqs[op->op]++;
    if (li == 0)
        mi->first_sent = sm->comp.eng->now;
    if (++mi->next_line == mi->send_end) {
        sm->lsu_head = (sm->lsu_head + 1) % sm->spec.lsu_queue;
        sm->lsu_n--;
        if (mi->send_end != mi->n_lines)
            ta_line_left(sm, mi);
    }
    return true;
}

static void tx_wake(struct sm *sm, uint64_t slots);

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
            bool last = li == 1 ? sm_tx_validated(sm->tx, m->req.warp, m, w->pw, &abort)
                                : sm_tx_ack(sm->tx, m->req.warp, cyc);
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
        if (op->tx) { /* the validation unit's verdict */
            struct sm_warp *w = &sm->warps[mi->warp];
            uint32_t abort, n_log, live; /* lanes aborted since the request left have no verdict */
            ptx_warp_tx_log(w->pw, &n_log, &live);
            bool last = sm_tx_verdict(sm->tx, mi->warp, m, op, cl->lanes & live, &abort);
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
        if (__builtin_expect(sm->itrace != NULL, 0)) {
            mi->ev.line_cycles += round_trip;
            mi->ev.l1_hits = (uint16_t)(mi->ev.l1_hits + m->req.l1_hit);
        }
        msg_free(sm->msgs, m);
        mi->pending &= ~(1u << li);
        if (mi->ta_sent == TA_SENT_SERIAL)
            ta_line_answered(sm);
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

/* Every CTA is done; prefetches still queued are dropped (nobody will use
 * them) and the kernel end waits for those in flight. */
static bool kernel_may_end(struct sm *sm)
{
    if (sm->n_ctas_res)
        return false;
    sm->pf_n = 0;
    return sm->pf_out == 0;
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
            if (kernel_may_end(sm))
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
    if (n[W_HELD_SB])
        return SM_STALL_SB_FULL;
    if (n[W_HELD_LSU])
        return SM_STALL_LSU;
    if (n[W_READY] || n[W_TIMED] || n[W_PARKED])
        return SM_STALL_SCOREBOARD;
    if (n[W_BARRIER])
        return SM_STALL_BARRIER;
    return SM_STALL_IDLE;
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
    struct mem_req tmpl = {.gpu = (uint8_t)sm->gpu,
                           .sm = (uint16_t)sm->id,
                           .warp = (uint16_t)slot,
                           .id = req_id(0, ID_TX_SLOT, 0)};
    unsigned wait = sm_tx_end(sm->tx, slot, e, left, sm->msgs, sm->comp.eng->now, cyc, &tmpl);
    tx_trace(sm, slot, cyc, "attempt ends: %d lanes commit, %d abort; %s, backoff %u cycles",
             __builtin_popcount(e->committed), __builtin_popcount(e->aborted),
             left ? "the transaction is done" : "the aborted lanes retry", wait);
    if (wait) { /* the retry backs off: the warp waits on the timer wheel */
        w->alu_ready = MAX(w->alu_ready, cyc + wait);
        w->issue_at = MAX(w->issue_at, cyc + wait);
    }
    if (left)
        tx_wake(sm, sm_tx_take_limit_waiters(sm->tx));
}

/* WarpTM: a warp at the end of its attempt sends its read log to be
 * validated before the attempt may end. */
static void tx_validate(struct sm *sm, struct sm_warp *w, unsigned slot)
{
    struct mem_req tmpl = {.gpu = (uint8_t)sm->gpu,
                           .sm = (uint16_t)sm->id,
                           .warp = (uint16_t)slot,
                           .id = req_id(0, ID_TX_SLOT, 0)};
    uint32_t doomed = sm_tx_eager_check(sm->tx, slot, w->pw); /* WarpTM-EL: at no cost */
    if (doomed)
        ptx_warp_tx_abort(w->pw, doomed);
    uint32_t abort = sm_tx_validate(sm->tx, slot, w->pw, sm->msgs, sm->comp.eng->now, &tmpl);
    if (abort)
        ptx_warp_tx_abort(w->pw, abort);
}

/* EAPG (ideal): a commit's signature went up (sig != 0: running attempts
 * that read its granules abort now) or came down (validations it held go
 * on). Called from whichever SM's tick published or withdrew it. */
static void tx_hear(void *obj, uint64_t sig)
{
    struct sm *sm = obj;
    uint64_t wake = 0;
    if (!sig) {
        wake = sm_tx_take_paused(sm->tx);
    } else {
        for (unsigned slot = 0; slot < sm->spec.warps; slot++) {
            struct sm_warp *w = &sm->warps[slot];
            uint32_t doomed = w->pw && w->state != W_FREE && w->state != W_EXITED
                                  ? sm_tx_doomed(sm->tx, slot, w->pw, sig)
                                  : 0;
            if (doomed) {
                ptx_warp_tx_abort(w->pw, doomed);
                w->issue_at = ptx_warp_issue_cycle(w->pw);
                wake |= 1ull << slot;
            }
        }
    }
    tx_resume(sm, wake);
}

/* GETM's timestamp rollover is done: the warps that waited for it go on. */
static void tx_rolled(void *obj)
{
    struct sm *sm = obj;
    tx_resume(sm, sm_tx_rollover(sm->tx));
}

void sm_join_tx_epoch(struct sm *sm, struct tx_epoch *e, unsigned index)
{
    sm_tx_set_epoch(sm->tx, e);
    tx_epoch_listen_sm(e, index, tx_rolled, sm);
}

/* The serial token changed hands or came free (gpu/tx_serial.h). */
static void tx_serial_moved(void *obj)
{
    struct sm *sm = obj;
    tx_resume(sm, sm_tx_serial_changed(sm->tx));
}

void sm_join_tx_serial(struct sm *sm, struct tx_serial *s, unsigned index)
{
    sm_tx_set_serial(sm->tx, s, index);
    tx_serial_listen(s, index, tx_serial_moved, sm);
}

void sm_join_tx_board(struct sm *sm, struct tx_board *b, unsigned index)
{
    sm_tx_set_board(sm->tx, b, index);
    tx_board_listen(b, index, tx_hear, sm);
}

/* The commit unit sends its next message when the L1 port has room. */
static bool tx_send(struct sm *sm)
{
    struct msg *m = sm_tx_peek_out(sm->tx);
    if (!m || !port_has_room(sm->to_l1, 1))
        return false;
    sm_tx_pop_out(sm->tx);
    if (!port_send(sm->to_l1, m))
        panic("%s: send on a port that had room", sm->comp.name);
    sm->comp.eng->n_outstanding++;
    return true;
}

/* --trace, --inst-stats: the instruction just stepped; one that is not a
 * global memory access is done when its result is ready (the scoreboard's
 * latency), a memory one when mem_issue or complete_minst says so. */
static void trace_issue(struct sm *sm, const struct sm_warp *w, unsigned slot, cycle_t cyc,
                        uint32_t pc)
{
    const struct ptx_step *st = &sm->step;
    sm->iev = (struct inst_event){.kernel = sm->run->launch.kernel,
                                  .issued = cyc,
                                  .done = cyc + sm->spec.lat[st->lat_class],
                                  .pc = pc,
                                  .cta = w->cta->index,
                                  .gpu = (uint16_t)sm->gpu,
                                  .sm = (uint16_t)sm->trace_index,
                                  .slot = (uint16_t)slot,
                                  .warp = w->warp_in_cta,
                                  .active = st->active,
                                  .threads = st->n_thread_insts,
                                  .op = MEM_NOPS};
    if (st->kind != PTX_STEP_MEM)
        inst_trace_event(sm->itrace, &sm->iev);
}

static void issue(struct sm *sm, struct sm_warp *w, unsigned slot, cycle_t cyc, bool counted)
{
    struct ptx_step *st = &sm->step;
    char err[256];
    if (sm->abandoning) { /* the kernel was given up: leave instead */
        ptx_warp_abandon(w->pw);
        warp_exit(sm, w);
        return;
    }
    sm->env.warpid = slot;
    sm->env.clock = cyc;
    sm->env.globaltimer_ns = sm->comp.eng->now / 1000;
    uint32_t pc = 0;
    if (__builtin_expect(sm->itrace != NULL, 0))
        pc = ptx_warp_pc(w->pw);
    if (ptx_warp_step(w->pw, &sm->env, st, err, sizeof err))
        fatal("kernel %s: CTA %u warp %u: %s", kernel_name(sm), w->cta->index, w->warp_in_cta,
              err);
    if (st->lat_class >= PTX_LAT_N)
        panic("%s: instruction class %u out of range", sm->comp.name, st->lat_class);
    w->issue_at = ptx_warp_issue_cycle(w->pw); /* while the warp is in the host's cache */
    uint64_t ready = cyc + sm->spec.lat[st->lat_class];
    if (ready > w->alu_ready)
        w->alu_ready = ready;
    sm->st.warp_insts += counted;
    sm->st.thread_insts += st->n_thread_insts;
    if (sm->hook)
        sm->hook(sm->hook_obj, sm->id, cyc, slot, st);
    if (__builtin_expect(sm->itrace != NULL, 0))
        trace_issue(sm, w, slot, cyc, pc);
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
        if (!sm->tx)
            fatal("kernel %s: CTA %u warp %u: transactions need a transactional protocol "
                  "(coherence.protocol = getm or warptm; docs/transactions.md)",
                  kernel_name(sm), w->cta->index, w->warp_in_cta);
        sm_tx_begin(sm->tx, slot, cyc);
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
    if (!sm->ord->cta_ordered || cta_clear(sm, w) || !ptx_warp_next_orders_cta(w->pw))
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
        if (sm->tx && sm_tx_wants_validation(sm->tx, slot, w->pw, w->n_out))
            tx_validate(sm, w, slot);
        if (sm->tx && sm_tx_blocks(sm->tx, slot, w->pw, w->n_out)) { /* polled again by tx_wake */
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
    if (sm->ta)
        ta_step(sm, cyc);
    lsu_send(sm, cyc);
    if (sm->tx)
        tx_send(sm);
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
    if (sm->ready || sm->lsu_wait_n || sm->sb_ready_n || sm->pf_n || ta_busy(sm) ||
        (sm->tx && sm_tx_peek_out(sm->tx)) ||
        sm->kstate == K_BEGIN_SEND ||
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
                     "fence %u, store buffer %u",
                slot, w->cta->index, w->warp_in_cta, warp_state_names[w->state],
                ptx_warp_where(w->pw, where, sizeof where), w->ord.n[ORDER_LD],
                w->ord.n[ORDER_ST], w->ord.n[ORDER_ATOM], w->ord.n[ORDER_FENCE],
                w->ord.n[ORDER_SB]);
        if (w->last_load) /* what a spinning warp waits on */
            fprintf(out, "; last load 0x%llx = %llu", (unsigned long long)w->last_addr,
                    (unsigned long long)w->last_value);
        fputc('\n', out);
        if (w->state == W_HELD_ORDER || w->state == W_HELD_SB)
            fprintf(out, "      held for the memory model (%s) since cycle %llu\n",
                    sm_hold_names[w->hold], (unsigned long long)w->held_since);
        for (unsigned i = 0; i < sm->spec.max_inflight; i++)
            if (sm->minst[i].in_use && sm->minst[i].warp == slot)
                dump_minst(sm, &sm->minst[i], out);
    }
    if (sm->ta) {
        const struct sm_ta *t = sm->ta;
        fprintf(out, "    type-aware: %u drains pending, %u messages to the MACs waiting\n",
                t->n_drains, t->outbox.n);
        for (unsigned slot = 0; slot < sm->spec.warps; slot++)
            if (t->w[slot].tq_n || t->w[slot].uq_n || t->w[slot].pend_unsafe) {
                fprintf(out, "    warp %u: %u waiting for their type, %u in the unsafe queue, %u "
                             "unsafe pending",
                        slot, t->w[slot].tq_n, t->w[slot].uq_n, t->w[slot].pend_unsafe);
                if (t->w[slot].serial != SM_NONE) {
                    const struct sm_minst *mi = &sm->minst[t->w[slot].serial];
                    fprintf(out, " (sent line by line: %u of %u lines sent, known 0x%08x)",
                            mi->send_end, mi->n_lines, mi->ta_known);
                    for (unsigned i = mi->send_end; i < mi->n_lines; i++)
                        fprintf(out, " [line %u: sector %#llx%s]", i,
                                (unsigned long long)ta_sector(t, mi->line[i].line),
                                mi->ta_asked >> i & 1 ? ", asked" : "");
                }
                fputc('\n', out);
            }
        for (int i = 0; i < TA_PENDING; i++)
            if (t->pending[i].valid)
                fprintf(out, "    type of sector %#llx asked%s\n",
                        (unsigned long long)t->pending[i].sector,
                        t->pending[i].write ? " for writing" : "");
        for (unsigned i = 0; i < t->n_drains; i++)
            fprintf(out, "    draining sector %#llx for MAC %u since cycle %llu\n",
                    (unsigned long long)t->drains[i].sector, t->drains[i].mac,
                    (unsigned long long)t->drains[i].since);
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
    if (spec->order.model >= n_ord)
        panic("%s: ordering policy %u out of range", name, spec->order.model);

    struct sm *sm = calloc(1, sizeof *sm);
    if (!sm)
        panic("out of memory");
    sm->spec = *spec;
    sm->tx_trace_slot = -1;
    if (spec->warp_size != 32 && spec->warp_size != 64)
        panic("%s: warp size %u is neither 32 nor 64", name, spec->warp_size);
    sm->gang = spec->warp_size / 32;
    if (spec->warps * sm->gang > SM_MAX_WARPS)
        panic("%s: %u wavefront slots exceed %u", name, spec->warps, SM_MAX_WARPS / sm->gang);
    sm->spec.warps = spec->warps * sm->gang; /* from here on: slots of 32-thread halves */
    spec = &sm->spec;
    sm->ord = order_policies[spec->order.model];
    if (sm->ord->store_buffer && spec->order.store_buffer) {
        sm->sb = calloc((size_t)spec->warps * spec->order.store_buffer, sizeof *sm->sb);
        if (!sm->sb)
            panic("out of memory");
    }
    if (sm->ord->typeaware) {
        const struct order_spec *o = &spec->order;
        if (!is_pow2(o->sector_bytes) || o->sector_bytes < line_bytes || !o->type_cache_ways ||
            o->type_cache_entries % o->type_cache_ways)
            panic("%s: type-aware SC sizes out of bounds", name);
        struct sm_ta *t = calloc(1, sizeof *t);
        if (!t)
            panic("out of memory");
        t->spec = *o;
        t->sector_shift = (unsigned)__builtin_ctz(o->sector_bytes);
        t->tc_sets = o->type_cache_entries / o->type_cache_ways;
        t->tc = calloc(o->type_cache_entries, sizeof *t->tc);
        t->tq = calloc((size_t)spec->warps * o->tq_entries, sizeof *t->tq);
        t->uq = calloc((size_t)spec->warps * o->uq_entries, sizeof *t->uq);
        t->sync = calloc(o->sync_entries, sizeof *t->sync);
        if (!t->tc || !t->tq || !t->uq || !t->sync)
            panic("out of memory");
        for (unsigned i = 0; i < SM_MAX_WARPS; i++) {
            t->w[i].why = SM_TA_N;
            t->w[i].serial = SM_NONE;
        }
        sm->ta = t;
    }
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
        unsigned s = slot / sm->gang % spec->schedulers;
        sm->sched_mask[s] |= 1ull << slot;
        sm->n_state[s][W_FREE]++;
        sm->warps[slot].sched = (uint8_t)s;
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
    sm_tx_free(sm->tx);
    free(sm->ctas);
    free(sm->minst);
    free(sm->minst_free);
    free(sm->lsu);
    free(sm->sb);
    if (sm->ta) {
        struct msg *m;
        while ((m = msg_list_pop(&sm->ta->outbox)))
            msg_free(sm->msgs, m);
        free(sm->ta->tc);
        free(sm->ta->tq);
        free(sm->ta->uq);
        free(sm->ta->sync);
        free(sm->ta->drains);
        free(sm->ta);
    }
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

void sm_connect_mac(struct sm *sm, struct port *to_mac, struct port *from_mac, unsigned n_macs)
{
    if (!sm->ta)
        panic("%s: MAC ports for an SM that is not type-aware", sm->comp.name);
    sm->ta->to_mac = to_mac;
    sm->ta->from_mac = from_mac;
    sm->ta->n_macs = n_macs;
}

void sm_enable_tx(struct sm *sm, const struct getm_params *p, uint32_t wid_base, unsigned limit,
                  unsigned backoff, uint64_t seed)
{
    sm->tx = sm_tx_new(p, wid_base, sm->spec.warps, sm->line_bytes, limit, backoff, seed);
}

void sm_trace_tx(struct sm *sm, int slot)
{
    sm->tx_trace_slot = slot;
}

void sm_set_tx_oracle(struct sm *sm, bool (*value_now)(void *, addr_t, uint8_t *), void *arg)
{
    sm_tx_set_oracle(sm->tx, value_now, arg);
}

const struct sm_tx_stats *sm_tx_stats(const struct sm *sm)
{
    return sm->tx ? sm_tx_stats_of(sm->tx) : NULL;
}

void sm_abandon_kernel(struct sm *sm)
{
    if (sm->kstate == K_IDLE || sm->abandoning)
        return;
    sm->abandoning = true;
    for (unsigned i = 0; i < sm->spec.ctas; i++) {
        struct sm_cta *c = &sm->ctas[i];
        for (uint32_t m = c->pc ? c->bar_active : 0; m; m &= m - 1)
            barrier_release(sm, c, (unsigned)__builtin_ctz(m));
    }
    comp_wake(&sm->comp);
}

bool sm_idle(const struct sm *sm)
{
    return sm->kstate == K_IDLE;
}

uint64_t sm_advances(const struct sm *sm)
{
    return sm->advances;
}

uint64_t sm_warp_insts(const struct sm *sm)
{
    return sm->st.warp_insts;
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

/* What one CTA of launch `l` needs of an SM with `gang` PTX warps per slot. */
struct cta_needs {
    uint64_t threads, regs, shmem;
    uint32_t warps, regs_per_thread;
};

static struct cta_needs cta_needs(const struct sm_spec *sp, unsigned gang, const struct launch *l)
{
    const struct ptx_kernel_info *ki = ptx_kernel_info(l->kernel);
    struct cta_needs n;
    n.threads = (uint64_t)l->block.x * l->block.y * l->block.z;
    /* warps in slots: whole wavefronts (gang PTX warps each) */
    n.warps = (uint32_t)(((n.threads + 31) / 32 + gang - 1) / gang * gang);
    /* PTX declares virtual registers (one per SSA value nvcc emitted); the
     * real allocator reuses them and never gives a thread more than the ISA
     * allows, spilling the rest. So a thread gets min(PTX registers, limit). */
    n.regs_per_thread = MIN(ki->regs_per_thread, sp->max_regs_per_thread);
    n.regs = (uint64_t)n.regs_per_thread * 32 * n.warps;
    n.shmem = (uint64_t)ki->static_shmem_bytes + l->dyn_shmem_bytes;
    return n;
}

const char *sm_cta_misfit(const struct sm *sm, const struct launch *l, char *why, size_t len)
{
    const struct sm_spec *sp = &sm->spec;
    if ((uint64_t)l->block.x * l->block.y * l->block.z > 32 * SM_CTA_WARPS) {
        snprintf(why, len, "a block of %llu threads exceeds %u (CUDA's limit, not a setting)",
                 (unsigned long long)l->block.x * l->block.y * l->block.z, 32 * SM_CTA_WARPS);
        return "";
    }
    struct cta_needs n = cta_needs(sp, sm->gang, l);
    if (n.threads > sp->threads || n.warps > sp->warps) {
        snprintf(why, len, "a CTA of %llu threads (%u warps) does not fit in an SM of %u "
                 "threads (sm.threads), %u warps (sm.warps)",
                 (unsigned long long)n.threads, n.warps, sp->threads, sp->warps);
        return n.threads > sp->threads ? "sm.threads sm.warps" : "sm.warps sm.threads";
    }
    if (n.regs > sp->regs) {
        snprintf(why, len, "a CTA needs %llu registers (%u per thread, allocated per warp), the "
                 "SM has %u (sm.regs)", (unsigned long long)n.regs, n.regs_per_thread, sp->regs);
        return "sm.regs sm.max_regs_per_thread";
    }
    if (n.shmem > sp->shmem_bytes) {
        snprintf(why, len, "a CTA needs %llu bytes of shared memory, the SM has %u "
                 "(sm.shmem_bytes)", (unsigned long long)n.shmem, sp->shmem_bytes);
        return "sm.shmem_bytes";
    }
    return NULL;
}

/* Resident CTAs of `run` per SM (the machine refused a launch whose CTA does
 * not fit: sm_cta_misfit). Also fixes the needs of one CTA. */
static uint32_t occupancy(struct sm *sm, const struct launch *l)
{
    char why[256];
    if (sm_cta_misfit(sm, l, why, sizeof why))
        panic("%s: kernel %s started on an SM it does not fit: %s", sm->comp.name,
              ptx_kernel_info(l->kernel)->name, why);
    const struct sm_spec *sp = &sm->spec;
    struct cta_needs n = cta_needs(sp, sm->gang, l);
    uint64_t threads = n.threads, regs = n.regs, shmem = n.shmem;
    uint32_t warps = n.warps;
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
    sm->env.printf_log = run->launch.printf_log;
    sm->st.kernels++;
    sm->st.kernel_ctas = 0;
    if (sm->itrace)
        inst_trace_kernel(sm->itrace, run->launch.kernel);
    sm->has_last = false;
    sm->abandoning = false;
    comp_wake(&sm->comp);
}

const struct sm_stats *sm_stats(const struct sm *sm)
{
    return &sm->st;
}

void sm_set_inst_trace(struct sm *sm, struct inst_trace *t, unsigned index)
{
    sm->itrace = t;
    sm->trace_index = index;
}

unsigned sm_warp_slots(const struct sm *sm)
{
    return sm->spec.warps;
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
    ARR(hold_cycles, SM_HOLD_N, sm_hold_names, "warp-cycles held for the memory model, by reason"),
    ARR(holds, SM_HOLD_N, sm_hold_names, "holds for the memory model, by reason"),
    ROW(fences_elided, "fences not sent: the memory model already orders"),
    ROW(sb_stores, "stores that waited in the TSO store buffer"),
    ROW(sb_forwards, "loads served from the warp's buffered stores"),
    ROW(prefetches, "prefetches sent for accesses held for ordering"),
    ROW(prefetches_dropped, "prefetches not sent: the queue was full"),
    ARR(ta_wait_cycles, SM_TA_N, sm_ta_wait_names,
        "warp-cycles a type-wait queue head waited, by reason"),
    ROW(ta_safe_insts, "memory instructions sent as SM-safe"),
    ROW(ta_unsafe_insts, "memory instructions sent as unsafe"),
    ROW(ta_bypasses, "safe instructions that passed pending unsafe ones"),
    ROW(ta_same_line, "safe instructions kept behind a queued unsafe one that shares a line"),
    ROW(ta_serial_insts, "unsafe instructions sent line by line (their sectors kept being recalled)"),
    ROW(ta_type_hits, "type-cache lookups that found the type"),
    ROW(ta_type_requests, "type requests sent to a MAC"),
    ROW(ta_invalidations, "INVs received"),
    ROW(ta_recalls, "RECALLs received"),
    ROW(ta_drains, "drains done before an acknowledgement"),
    ROW(ta_drain_cycles, "cycles from an INV or RECALL to its acknowledgement"),
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
