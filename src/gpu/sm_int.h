/*
 * sm_int.h - what the files of the SM timing model share (sm.c, sm_sb.c,
 * sm_ta.c, sm_cta.c, sm_comp.c): the limits and request-id layout, the
 * warp, CTA, memory-instruction, type-aware SC and SM state, the small
 * helpers of the per-cycle path (inline: warp-state bookkeeping, a hold, the
 * store buffer's head, whether a CTA fits), and the functions one file calls
 * in another. Private to gpu/.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef GPU_SM_INT_H
#define GPU_SM_INT_H

#include "gpu/sm.h"

#include "base/log.h"
#include "gpu/coalesce.h"
#include "gpu/inst_observer.h"
#include "gpu/mac.h"
#include "gpu/sm_ext.h"
#include "mem/tbe.h"

#define SM_MAX_WARPS  64 /* the ready sets are uint64 bitmasks */
#define SM_MAX_SCHED  4
#define SM_CTA_WARPS  32 /* 1024 threads per CTA at most */
#define SM_N_BARRIERS 16
#define SM_NONE       0xffff
#define SM_WHEEL      1024 /* timer wheel slots: more than the longest latency (1000) */

/* Request ids: line index (5 bits), instruction slot (11 bits), generation
 * (16 bits) so that a stale or duplicate response is caught. */
#define ID_LINE_BITS     5
#define ID_SLOT_BITS     11
#define ID_SLOT_MASK     ((1u << ID_SLOT_BITS) - 1)
#define ID_KERNEL_SLOT   ID_SLOT_MASK           /* KERNEL_BEGIN/END */
#define ID_PREFETCH_SLOT (ID_SLOT_MASK - 1)     /* prefetches (order.prefetch) */
#define SM_MAX_INFLIGHT  (ID_PREFETCH_SLOT - 1) /* instruction slots, sm.max_inflight + 1 */
#define ID_TX_SLOT                                                                                 \
    SM_MAX_INFLIGHT          /* the transaction extension's messages (never an instruction slot) */
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
_Static_assert(W_NSTATES <= 12, "state_bits is a uint16_t and stall_of[] has 2^W_NSTATES entries");

enum kernel_state { K_IDLE, K_BEGIN_SEND, K_BEGIN_WAIT, K_RUN, K_END_SEND, K_END_WAIT };

struct sm_cta;

struct sm_warp {
    struct ptx_warp *pw;
    struct sm_cta *cta;
    uint8_t state; /* enum warp_state */
    uint8_t sched; /* its scheduler */
    uint8_t warp_in_cta;
    uint8_t n_threads;      /* threads of the CTA in this warp (barrier counting) */
    uint16_t held;          /* instruction slot held at issue, or SM_NONE (a hold before
                               execution: SM_HOLD_CTA) */
    uint8_t hold;           /* enum sm_hold of a W_HELD_ORDER or W_HELD_SB warp */
    bool hold_on_write;     /* an order hold begun with a store or atomic outstanding */
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
    uint32_t arrived; /* threads arrived (warp granular) */
    uint32_t count;   /* expected threads; 0 = the CTA's live threads */
    uint32_t waiting; /* warps (in CTA) waiting */
};

struct sm_cta {
    struct ptx_cta *pc; /* NULL when the entry is free */
    uint32_t index;     /* linear CTA index in the grid */
    uint16_t n_warps;
    uint16_t n_alive;      /* warps not yet freed */
    uint32_t live_threads; /* threads of warps that have not exited */
    uint16_t bar_active;   /* barriers with arrivals */
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
    uint16_t warp; /* slot */
    uint16_t gen;  /* generation, part of the request ids */
    uint8_t n_lines;
    uint8_t next_line; /* next line to send */
    uint8_t send_end;  /* the memory stage sends lines up to here (sc-typeaware's
                          line-at-a-time instructions), else n_lines */
    bool in_use;
    uint32_t pending;   /* lines not yet answered */
    uint64_t ready;     /* first cycle a line may leave */
    tick_t first_sent;  /* when its first line left, for the starvation check */
    uint32_t ld_before; /* a buffered store: loads of its warp issued before it */
    uint32_t ta_known;  /* sc-typeaware: lines whose sector type is known */
    uint32_t ta_unsafe; /* ... of which unsafe */
    uint32_t ta_asked;  /* ... lines not known whose sector's type was asked for */
    uint8_t ta_sent;    /* ... 0 not sent, 1 sent as safe, 2 as unsafe, 3 as unsafe
                           one line at a time (TA_SENT_SERIAL) */
    uint8_t ta_forgets; /* ... RECALLs that made it forget a line while at its TQ head */
    struct coal_line line[32];
    struct inst_event ev; /* --trace, --inst-stats: the instruction, filled only then */
};

struct sm {
    struct comp comp;
    struct sm_spec spec;
    const struct order_policy *ord;
    bool cta_ordered; /* the policy's, unless order.shared = free */
    uint32_t gpu, id;
    unsigned gang; /* PTX warps per wavefront: warp_size / 32 (1 or 2) */
    unsigned line_bytes;
    struct pool *msgs; /* the machine's message pool */
    struct pool atoms; /* struct atom_ops, owned here */
    struct port *to_l1, *from_l1;
    struct ptx_env env;

    /* kernel */
    struct kernel_run *run;
    uint8_t kstate;     /* enum kernel_state */
    uint16_t kgen;      /* generation of kernel begin/end ids */
    uint32_t fill_next; /* next round-robin CTA reserved for this SM */
    uint32_t cta_threads, cta_warps, cta_regs, cta_shmem; /* needs of one CTA (warps: slots,
                                                              whole wavefronts) */
    uint32_t used_threads, used_warps, used_regs, used_shmem, n_ctas_res;
    struct sm_cta *ctas; /* [spec.ctas] */

    /* warps and schedulers */
    struct sm_warp warps[SM_MAX_WARPS];
    uint64_t free_slots; /* bit per free warp slot */
    uint64_t ready;      /* bit per W_READY warp */
    uint64_t sched_mask[SM_MAX_SCHED];
    uint16_t n_state[SM_MAX_SCHED][W_NSTATES];
    /* a bit per state some warp of the scheduler is in (n_state[s][k] > 0), so
     * that a stall's reason, asked for on every scheduler-cycle with no issue,
     * is one look-up in stall_of[] instead of a call testing the counts */
    uint16_t state_bits[SM_MAX_SCHED];
    uint8_t stall_of[1u << W_NSTATES];       /* enum sm_stall of a state_bits value */
    uint16_t last[SM_MAX_SCHED];             /* last slot issued (LRR start, GTO greedy) */
    uint8_t age[SM_MAX_SCHED][SM_MAX_WARPS]; /* slots, oldest first (GTO) */
    uint8_t n_age[SM_MAX_SCHED];
    uint8_t age_pos[SM_MAX_WARPS];    /* a slot's index in its scheduler's age[] */
    uint64_t ready_age[SM_MAX_SCHED]; /* bit per age[] index whose warp is W_READY: GTO
                                         visits ready warps oldest first without a scan */
    uint64_t timed[SM_WHEEL];         /* W_TIMED warps by wake cycle % SM_WHEEL */
    uint64_t timed_warps;             /* bit per W_TIMED warp (each wakes at its issue_at) */

    /* memory */
    struct sm_minst *minst; /* [n_minst] */
    uint16_t *minst_free;   /* stack of free slots */
    uint32_t n_minst_free;
    /* spec.max_inflight, plus one slot per extra half of a wavefront: the
     * halves of a 64-lane wavefront issue one instruction together, which the
     * scheduler admits while one of spec.max_inflight is free (the GCN memory
     * stage takes a wavefront's instruction whole), so the second half may
     * take a slot past it. The scheduler stalls while only these spares are
     * free. */
    uint32_t n_minst, minst_spare;
    uint16_t *lsu; /* ring of instruction slots, [spec.lsu_queue] */
    uint32_t lsu_head, lsu_n;
    uint8_t lsu_wait[SM_MAX_WARPS]; /* warps held for room, FIFO */
    uint32_t lsu_wait_head, lsu_wait_n;
    uint16_t *sb;                   /* [spec.warps][spec.order.store_buffer] store buffers */
    uint8_t sb_ready[SM_MAX_WARPS]; /* warps whose store-buffer head may be sent, FIFO */
    uint32_t sb_ready_head, sb_ready_n;
    addr_t pf[SM_PREFETCH_QUEUE];       /* prefetch lines waiting, FIFO */
    uint8_t pf_warp[SM_PREFETCH_QUEUE]; /* the warp each is for */
    uint32_t pf_head, pf_n;
    uint32_t pf_out;             /* prefetches sent and not answered */
    struct sm_ta *ta;            /* sc-typeaware state, else NULL */
    const struct sm_ext_ops *tx; /* the transaction extension (sm_set_ext), else NULL */
    void *tx_ctx;                /* its context */
    int tx_trace_slot;           /* the warp slot whose transactional events are printed, or -1 */

    uint64_t last_cycle;
    tick_t last_tick_ps; /* time of that tick (TICK_MAX: none yet) */
    bool has_last;
    struct ptx_step step; /* scratch for ptx_warp_step */
    sm_issue_fn *hook;
    void *hook_obj;
    struct inst_observer observer; /* sm_set_inst_observer; .done NULL: none */
    struct inst_event iev;         /* the instruction being issued, while observed */
    unsigned observed_index;       /* its place in the machine, as its events name it */
    struct sm_stats st;
    bool abandoning;              /* sm_abandon_kernel: warps exit instead of issuing */
    uint64_t advances;            /* stores and atomics (issued, completed), loads of values new
                                     to their warp and finished warps: the spin watchdog's
                                     progress (sm_advances);
                                     not a statistic, so statistics stay as they were */
    uint32_t lat[PTX_LAT_N];      /* env.lat: spec.lat, sm.lat_pipeline added to ALU classes */
    uint32_t op_lat[PTX_OPLAT_N]; /* env.op_lat (sm.alu_latency = opcodes), the same */
};

/* ---- warp state bookkeeping ---- */

/* The stall reason of a scheduler whose warps are in the states of `bits` (a
 * bit per enum warp_state present), highest priority first: held by the
 * ordering policy, by a full store buffer, by a full memory stage, operands
 * not ready, at a barrier, else idle. */
enum sm_stall smi_stall_of_states(unsigned bits);

static inline void set_state(struct sm *sm, struct sm_warp *w, enum warp_state s)
{
    unsigned slot = (unsigned)(w - sm->warps);
    uint16_t *n = sm->n_state[w->sched];
    if (!--n[w->state])
        sm->state_bits[w->sched] &= (uint16_t) ~(1u << w->state);
    n[s]++;
    sm->state_bits[w->sched] |= (uint16_t)(1u << s);
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

/* The i-th store of a warp's store buffer, oldest first. */
static inline struct sm_minst *sb_at(struct sm *sm, const struct sm_warp *w, unsigned i)
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
static inline bool sb_head_ready(struct sm *sm, const struct sm_warp *w)
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

/* What a warp's memory instruction may do now. */
enum mem_go {
    GO_LSU,     /* enter the memory stage */
    GO_BUFFER,  /* wait in the store buffer; the warp goes on */
    GO_FORWARD, /* a load served whole from the warp's buffered stores */
    GO_TYPE,    /* sc-typeaware: enter the warp's type-wait queue */
    GO_HOLD,    /* the warp waits (reason in *why) */
};

/* The kinds of outstanding operations that make an order hold one on a write
 * (Fig. 3.1b's "previous store (or atomic)"). */
#define ORDER_WRITES (ORDER_BIT(ORDER_ST) | ORDER_BIT(ORDER_ATOM) | ORDER_BIT(ORDER_SB))

static inline void hold(struct sm *sm, struct sm_warp *w, unsigned idx, enum sm_hold why,
                        cycle_t cyc)
{
    w->held = (uint16_t)idx;
    w->hold = (uint8_t)why;
    w->held_since = cyc;
    sm->st.holds[why]++;
    w->hold_on_write = why == SM_HOLD_ORDER && (w->ord.nz & ORDER_WRITES);
    sm->st.order_holds_on_write += w->hold_on_write;
    if (why == SM_HOLD_ORDER && idx != SM_NONE)
        sm->st.order_held_lanes += (unsigned)__builtin_popcount(sm->minst[idx].mem.mask);
    set_state(sm, w, why == SM_HOLD_SB_FULL ? W_HELD_SB : W_HELD_ORDER);
}

/* A hold ends (or changes reason) at cyc: its warp-cycles to its reason. */
static inline void unhold(struct sm *sm, struct sm_warp *w, cycle_t cyc)
{
    sm->st.hold_cycles[w->hold] += cyc - w->held_since;
    if (w->hold_on_write)
        sm->st.order_hold_cycles_on_write += cyc - w->held_since;
}

#define TA_MARKER_SECTORS 4
#define TA_PENDING        64
/* RECALLs that make a TQ head forget a classified line before it switches
 * to line-at-a-time sending: with a classifier set smaller than the sectors
 * one instruction touches (or contended by other SMs), classifying every
 * line at once may never happen. */
#define TA_SERIAL_AFTER 2

struct ta_tc { /* a type-cache entry */
    uint64_t sector, lru;
    bool valid, unsafe, we;
};

struct ta_uq {         /* an unsafe-queue entry: an instruction or a marker */
    uint16_t minst;    /* the instruction (SM_NONE: a marker) */
    uint8_t n_sectors; /* marker: sectors of the access that bypassed (0xff: many) */
    uint8_t n_sync;
    uint64_t sectors[TA_MARKER_SECTORS];
    uint16_t sync[32]; /* marker: its synchronisation-table entries */
};

struct ta_sync { /* a synchronisation-table entry */
    addr_t line;
    uint64_t warps; /* warps whose bypassing accesses it records */
    uint32_t count; /* markers that refer to it */
    bool valid, store;
};

struct ta_drain { /* an INV or RECALL being drained */
    uint64_t sector;
    uint64_t since;   /* cycle it arrived */
    uint32_t checked; /* sm_ta.n_drain_events when it was last found not drained */
    bool ever_checked;
    bool recall; /* a RECALL (else an INV) */
    uint16_t mac;
};

/* What a warp's queues wait for when ta_advance leaves them (a fixed point:
 * calling it again changes nothing until one of these happens). */
enum {
    TA_ON_TYPE = 1, /* a message from a MAC (answer, INV, RECALL) */
    TA_ON_SYNC = 2, /* a synchronisation-table entry freed */
    TA_ON_LSU = 4,  /* room in the memory stage */
};

struct ta_warp {
    uint16_t tq_head, tq_n;
    uint16_t uq_head, uq_n;
    uint16_t pend_unsafe;          /* unsafe instructions sent, not completed */
    uint16_t serial;               /* the instruction it sends one line at a time, or SM_NONE */
    uint8_t wait_on;               /* TA_ON_* bits: events that may let its queues move */
    uint8_t why;                   /* enum sm_ta_wait of its TQ head at the last advance */
    bool dirty;                    /* its own state changed (an unsafe access completed) */
    uint32_t seen_type, seen_sync; /* sm_ta's event counts at the last advance */
};

struct sm_ta {
    struct order_spec spec;
    unsigned n_macs, sector_shift, tc_sets;
    struct port *to_mac, *from_mac;
    struct ta_tc *tc; /* [type_cache_entries] */
    struct ta_warp w[SM_MAX_WARPS];
    uint16_t *tq;         /* [warps][tq_entries] instruction slots */
    struct ta_uq *uq;     /* [warps][uq_entries] */
    struct ta_sync *sync; /* [sync_entries] */
    struct {
        uint64_t sector;
        bool write, valid;
    } pending[TA_PENDING];   /* type requests out */
    struct ta_drain *drains; /* [drain_cap] */
    unsigned n_drains, drain_cap;
    struct msg_list outbox; /* messages to the MACs waiting for room */
    uint64_t watch;         /* warps with TQ/UQ entries or held for them */
    uint64_t tick;
    uint32_t n_type_events;  /* MAC messages received */
    uint32_t n_sync_frees;   /* synchronisation-table entries freed */
    uint32_t n_drain_events; /* markers removed and safe accesses completed: what
                                may end a drain (ta_drained) */
};

static inline uint64_t ta_sector(const struct sm_ta *t, addr_t a)
{
    return a >> t->sector_shift;
}

static inline bool cta_fits(const struct sm *sm)
{
    return sm->n_ctas_res < sm->spec.ctas &&
           sm->used_threads + sm->cta_threads <= sm->spec.threads &&
           sm->used_warps + sm->cta_warps <= sm->spec.warps &&
           sm->used_regs + sm->cta_regs <= sm->spec.regs &&
           sm->used_shmem + sm->cta_shmem <= sm->spec.shmem_bytes;
}

static inline bool ctas_left(const struct sm *sm)
{
    return sm->fill_next < sm->run->fill_ctas || sm->run->next_cta < sm->run->n_ctas;
}

/* sm_comp.c */
extern const char *const smi_kernel_state_names[];

/* sm_cta.c */
const char *smi_kernel_name(const struct sm *sm);
void smi_warp_free(struct sm *sm, struct sm_warp *w);
void smi_barrier_release(struct sm *sm, struct sm_cta *c, unsigned id);
void smi_barrier_arrive(struct sm *sm, struct sm_warp *w, const struct ptx_barrier *bar);
void smi_warp_exit(struct sm *sm, struct sm_warp *w);
bool smi_kernel_step(struct sm *sm);

/* sm_sb.c */
void smi_sb_combine(struct sm *sm, struct sm_warp *w, struct sm_minst *hd, cycle_t cyc);
void smi_sb_check(struct sm *sm, struct sm_warp *w);
enum mem_go smi_mem_decide(struct sm *sm, struct sm_warp *w, unsigned idx, enum sm_hold *why);
void smi_sb_push(struct sm *sm, struct sm_warp *w, unsigned idx);

/* sm_ta.c */
void smi_ta_enter(struct sm *sm, struct sm_warp *w, unsigned idx, cycle_t cyc);
bool smi_cta_clear(const struct sm *sm, const struct sm_warp *w);
void smi_ta_step(struct sm *sm, cycle_t cyc);
bool smi_ta_busy(const struct sm *sm);
bool smi_ta_tq_full(const struct sm *sm, const struct sm_warp *w);
void smi_ta_sent_done(struct sm *sm, const struct sm_minst *mi);
void smi_ta_line_left(struct sm *sm, const struct sm_minst *mi);
void smi_ta_line_answered(struct sm *sm);

/* sm.c */
void smi_complete_minst(struct sm *sm, struct sm_minst *mi, cycle_t cyc);
bool smi_lsu_issue(struct sm *sm, struct sm_warp *w, unsigned idx, cycle_t cyc, bool buffered);
void smi_lsu_enqueue(struct sm *sm, struct sm_warp *w, unsigned idx, cycle_t cyc, bool buffered);
void smi_retry_held(struct sm *sm, struct sm_warp *w, cycle_t cyc);
bool smi_tick(struct comp *c);

#endif /* GPU_SM_INT_H */
