/*
 * sm.h - the SM timing model: CTA dispatch, warp schedulers, barriers, the
 * LSU (coalescer, in-order memory stage) and the core-side ordering policy.
 *
 * An SM is an event-engine component in the core clock domain that ticks only
 * while it has work. It executes PTX through the interpreter (src/ptx/ptx.h)
 * one warp instruction at a time and talks to its L1 only through two ports:
 * MSG_CORE_REQ messages out (one per unique line of a warp memory instruction,
 * one per fence, plus MEM_KERNEL_BEGIN/END around each kernel) and exactly one
 * MSG_CORE_RSP back per request, matched by req.id.
 *
 * Use:
 *     struct sm *sm = sm_new(eng, &core_clk, "gpu.sm[0]", &spec, gpu, 0, line_bytes, &msgs);
 *     port_init(&to_l1, ..., sm_comp(sm), l1_comp);  port_init(&from_l1, ..., l1_comp,
 * sm_comp(sm)); sm_connect(sm, &to_l1, &from_l1); kernel_run_init(&run, &launch, n_sms); for (i =
 * 0; i < n_sms; i++) sm_start_kernel(sm[i], &run);   (in SM order) eng_run(...) until
 * kernel_run_done(&run) SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef GPU_SM_H
#define GPU_SM_H

#include <stdio.h>

#include "base/pool.h"
#include "gpu/kernel_run.h"
#include "gpu/order.h"
#include "ptx/ptx.h"
#include "sim/cfg.h"
#include "sim/eng.h"
#include "sim/hist.h"
#include "sim/port.h"

enum sm_sched_policy { SM_SCHED_LRR, SM_SCHED_GTO, SM_SCHED_N };
extern const char *const sm_sched_names[]; /* NULL-terminated: "lrr", "gto" */

/* Immutable limits and latencies of an SM (config section of the machine). */
struct sm_spec {
    uint32_t warps;               /* warp slots (wavefront slots when warp_size is 64) */
    uint32_t warp_size;           /* lanes issued as one instruction: 32, or 64 (GCN wavefronts:
                                     two 32-thread PTX warps of a CTA issued in lockstep) */
    uint32_t threads;             /* resident threads */
    uint32_t ctas;                /* resident CTAs */
    uint32_t regs;                /* 32-bit registers */
    uint32_t max_regs_per_thread; /* cap on a thread's registers (the ISA's limit) */
    uint32_t shmem_bytes;         /* shared memory */
    uint32_t schedulers;     /* warp schedulers; warp slot s belongs to scheduler s % schedulers */
    uint32_t sched;          /* enum sm_sched_policy */
    struct order_spec order; /* the memory model enforced (config section [order]) */
    uint32_t lsu_queue;      /* memory instructions waiting in the in-order memory stage */
    uint32_t max_inflight;   /* memory instructions issued and not completed, per SM */
    uint32_t lat[PTX_LAT_N]; /* issue-to-result cycles per instruction class */
    uint32_t alu_latency;    /* enum sm_alu_latency: ALU latencies by class or by opcode */
    char opcode_latency_int[CFG_STR_MAX]; /* "add,max,mul,mad,div,shfl" (GPGPU-Sim's lists) */
    char opcode_latency_fp[CFG_STR_MAX];  /* "add,max,mul,mad,div" on f32 */
    char opcode_latency_dp[CFG_STR_MAX];  /* the same on f64 */
    uint32_t opcode_latency_sfu;          /* sqrt rcp rsqrt ex2 lg2 sin cos */
    uint32_t lat_pipeline; /* cycles every ALU result adds beyond its unit's latency */
    bool sleep;            /* sleep through cycles with nothing to do (false: tick each one) */
};

/* Option rows, names relative to the section ("warps", "lat_int", ...). */
extern const struct cfg_opt sm_opts[];

/* How an ALU instruction's result latency is set (sm.alu_latency). */
enum sm_alu_latency {
    SM_ALU_CLASSES, /* lat_int ... lat_sfu by the instruction's class */
    SM_ALU_OPCODES, /* by opcode and type, as GPGPU-Sim: opcode_latency_* */
};
extern const char *const sm_alu_latency_names[];

/* The per-opcode latencies of a spec's opcode_latency_* lists, by slot (enum
 * ptx_oplat; ONE is 1). Returns 0, or -1 with the option at fault in *key and
 * what is wrong in why. */
int sm_opcode_latencies(const struct sm_spec *s, uint32_t lat[PTX_OPLAT_N], const char **key,
                        char *why, size_t len);

enum sm_stall {
    SM_STALL_SCOREBOARD, /* warps present but their operands are not ready */
    SM_STALL_ORDER,      /* a warp's next memory op is held by the ordering policy */
    SM_STALL_LSU,        /* a warp's next memory op found the memory stage full */
    SM_STALL_BARRIER,    /* warps wait at a barrier */
    SM_STALL_IDLE,       /* no warp that could issue (none resident, or all exited) */
    SM_STALL_SB_FULL,    /* a warp's store found its TSO store buffer full */
    SM_STALL_N
};
extern const char *const sm_stall_names[SM_STALL_N];

/* Why a warp's next instruction waits for the memory model (warp-cycles are
 * counted per reason: sm_stats.hold_cycles). */
enum sm_hold {
    SM_HOLD_ORDER,   /* a global access waits for earlier ones (the policy's table) */
    SM_HOLD_CTA,     /* a shared-memory access or barrier waits for the warp's global ones */
    SM_HOLD_FORWARD, /* a load overlaps buffered stores it cannot take whole */
    SM_HOLD_SB_FULL, /* a store waits for room in the store buffer */
    SM_HOLD_TQ_FULL, /* sc-typeaware: an access waits for room in its warp's type-wait queue */
    SM_HOLD_N
};
extern const char *const sm_hold_names[SM_HOLD_N];

/* sc-typeaware: why the head of a warp's type-wait queue cannot leave it
 * (warp-cycles are counted per reason: sm_stats.ta_wait_cycles). */
enum sm_ta_wait {
    SM_TA_TYPE,        /* its sector's type is not known yet (a type request is out) */
    SM_TA_UNSAFE_FULL, /* the warp's unsafe queue is full */
    SM_TA_SYNC,        /* a conflicting synchronisation-table entry of another warp, or
                          the table is full */
    SM_TA_N
};
extern const char *const sm_ta_wait_names[SM_TA_N];

/* Counters; all plain, reset never (diff them around a region of interest). */
struct sm_stats {
    uint64_t cycles;                 /* cycles with a kernel on the SM (asleep or not) */
    uint64_t ticks;                  /* cycles the SM actually ticked */
    uint64_t thread_insts;           /* thread instructions (active lanes) */
    uint64_t warp_insts;             /* warp instructions issued (a wavefront's, once) */
    uint64_t stall[SM_STALL_N];      /* scheduler-cycles with no issue, by reason */
    uint64_t mem_insts[MEM_NOPS];    /* warp memory instructions by op */
    uint64_t mem_lanes[MEM_NOPS];    /* their active lanes to global memory: thread operations */
    uint64_t mem_reqs[MEM_NOPS];     /* requests sent to the L1 by op (lines) */
    uint64_t port_full;              /* cycles a request found the L1 port full */
    uint64_t barriers;               /* barrier releases */
    uint64_t ctas;                   /* CTAs run, all kernels */
    uint64_t kernel_ctas;            /* CTAs run in the current (or last) kernel */
    uint64_t kernels;                /* kernels started */
    uint64_t max_ctas_resident;      /* most CTAs resident at once */
    uint64_t max_warps_resident;     /* most warps resident at once */
    struct hist latency[MEM_NOPS];   /* core cycles from sending a request to its response */
    uint64_t hold_cycles[SM_HOLD_N]; /* warp-cycles held for the memory model, by reason */
    uint64_t holds[SM_HOLD_N];       /* holds begun, by reason */
    /* what an order hold waits on (spec 004a Fig. 3.1b): holds by the order rule begun while
     * a store or atomic of the warp (sent, or in its store buffer) was outstanding, and their
     * warp-cycles; the rest wait on loads, fences or kernel markers alone */
    uint64_t order_holds_on_write;
    uint64_t order_hold_cycles_on_write;
    uint64_t order_held_lanes;   /* active lanes of the global accesses held by the order rule */
    uint64_t fences_elided;      /* fences not sent: the model already orders (sc) */
    uint64_t sb_stores;          /* stores that waited in the TSO store buffer */
    uint64_t sb_forwards;        /* loads served from the warp's buffered stores */
    uint64_t prefetches;         /* prefetches sent for held accesses */
    uint64_t prefetches_dropped; /* prefetches not sent: the queue was full */
    /* sc-typeaware */
    uint64_t ta_wait_cycles[SM_TA_N]; /* warp-cycles a type-wait queue head waited, by reason */
    uint64_t ta_safe_insts;           /* memory instructions sent as SM-safe */
    uint64_t ta_unsafe_insts;         /* ... as unsafe (in program order among themselves) */
    uint64_t ta_bypasses;             /* safe instructions that passed pending unsafe ones */
    uint64_t ta_same_line;            /* safe instructions sent as unsafe because they touch a
                                         line of an earlier unsafe one still in the unsafe queue */
    uint64_t ta_serial_insts;         /* unsafe instructions sent line by line, each line once
                                         its type was known (recalls kept making them forget
                                         a line before all were known at once) */
    uint64_t ta_type_hits;            /* type-cache lookups that found the type */
    uint64_t ta_type_requests;        /* type requests sent to a MAC */
    uint64_t ta_invalidations;        /* INVs received (a sector turned unsafe) */
    uint64_t ta_recalls;              /* RECALLs received (a MAC evicted a sector) */
    uint64_t ta_drains;               /* drains done before an acknowledgement */
    uint64_t ta_drain_cycles;         /* cycles from an INV or RECALL to its acknowledgement */
};

/* Observes every issued warp instruction (tests, tracing). */
typedef void sm_issue_fn(void *obj, unsigned sm_id, uint64_t cycle, unsigned slot,
                         const struct ptx_step *step);

struct sm;

/* A new SM. `name` must outlive it; `msgs` is the machine's message pool
 * (requests are allocated there, responses freed there); line_bytes is the
 * L1's line size (a power of two, 16..LINE_MAX_BYTES). Panics on a spec that
 * cannot work (the config tables bound every field). */
struct sm *sm_new(struct eng *e, const struct clock *clk, const char *name,
                  const struct sm_spec *spec, uint32_t gpu, uint32_t id, unsigned line_bytes,
                  struct pool *msgs);
void sm_free(struct sm *sm);
/* The component, for ports (sender of to_l1, receiver of from_l1). */
struct comp *sm_comp(struct sm *sm);
/* Attach the L1 ports; before the first kernel. */
void sm_connect(struct sm *sm, struct port *to_l1, struct port *from_l1);
/* sc-typeaware: attach the ports to and from the MACs' crossbar (messages
 * carry the MAC's index in dst); before the first kernel. */
void sm_connect_mac(struct sm *sm, struct port *to_mac, struct port *from_mac, unsigned n_macs);
/* Transactions run through the protocol's extension (gpu/sm_ext.h,
 * sm_set_ext). Print warp `slot`'s transactional events on stderr
 * (getm.trace_warp); -1: none (the default). */
void sm_trace_tx(struct sm *sm, int slot);
/* NULL when a CTA of launch `l` fits in the SM; else what it exceeds, in
 * `why`, and the configuration keys at fault separated by spaces (the one to
 * change first), for config_where. */
const char *sm_cta_misfit(const struct sm *sm, const struct launch *l, char *why, size_t len);
/* Start taking part in `run` (the SM must be idle): KERNEL_BEGIN, CTAs,
 * KERNEL_END, then it counts itself out of run->n_sms_busy. The caller has
 * refused a kernel whose CTA does not fit (sm_cta_misfit). */
void sm_start_kernel(struct sm *sm, struct kernel_run *run);
/* Give the running kernel up (its warps spin on a condition that cannot
 * change): warps waiting at barriers are released, and every warp, also of
 * CTAs dispatched later, exits instead of issuing its next instruction; its
 * memory operations in flight complete first, so the kernel then ends as
 * any other. Cleared when the next kernel starts. */
void sm_abandon_kernel(struct sm *sm);
/* True when no kernel is on the SM. */
bool sm_idle(const struct sm *sm);
/* When the memory instruction that has waited longest for a response sent
 * its first request, and its warp slot; TICK_MAX when none waits. */
tick_t sm_oldest_request(const struct sm *sm, unsigned *warp);

/* Events that show its warps progressing: stores and atomics issued and
 * completed, loads returning addresses or values their warp had not just
 * loaded, warps finished. The machine's spin watchdog stops a run in which none happens
 * for sim.spin_cycles. */
uint64_t sm_advances(const struct sm *sm);

/* Warp instructions issued so far (all kernels), for the instruction limit. */
uint64_t sm_warp_insts(const struct sm *sm);

const struct sm_stats *sm_stats(const struct sm *sm);
/* "name.stat value # description" lines, prefixed with the SM's name. */
void sm_stats_print(const struct sm *sm, FILE *out);
void sm_set_issue_hook(struct sm *sm, sm_issue_fn *fn, void *obj);
/* Tell o of every warp instruction and kernel start (gpu/inst_observer.h;
 * o is copied), naming the SM by `index` (its place in the machine); NULL:
 * none (the default). Changes nothing the SM does. */
struct inst_observer;
void sm_set_inst_observer(struct sm *sm, const struct inst_observer *o, unsigned index);
/* Its warp slots (spec.warps). */
unsigned sm_warp_slots(const struct sm *sm);

#endif
