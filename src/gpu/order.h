/*
 * order.h - core-side memory ordering policies: when may a warp's next
 * global memory operation issue, given the ones it has outstanding?
 *
 * The memory model the SM enforces is a choice of its own (order.model),
 * orthogonal to the coherence protocol; what a combination promises is
 * order_promise(). Ordering is tracked per warp (a warp plays the role of a
 * CPU thread, spec 002 §2, spec 001 §2.0) with one counter per kind of
 * outstanding operation, from entry into the LSU until the L1's response,
 * plus the stores waiting in the warp's TSO store buffer. A policy is a table
 * indexed by (op, sem): each cell names the kinds that must have nothing
 * outstanding before the operation may issue (`wait`), and whether the
 * operation, while outstanding, holds back later operations that wait on
 * ORDER_ACQ (`acq`). Checks are made at issue: a warp whose next operation
 * may not issue is not eligible (spec 001 §2.1 "issue-time stalling").
 *
 *   rmo  relaxed hardware with PTX/DRF-0 synchronisation (spec 001 §2.1, the
 *        default): weak, relaxed and volatile operations issue freely; a
 *        release (and acq_rel, sc, every fence, kernel end) waits for every
 *        earlier operation of the warp; an acquire (and acq_rel, sc, every
 *        fence) holds every later operation until it completes.
 *   tso  TSO of spec 001 §2.2: loads wait for earlier loads, stores for
 *        earlier loads and stores; atomics and fences order everything. With
 *        order.store_buffer > 0 a store that may not issue waits in the
 *        warp's store buffer and the warp goes on (sm.c).
 *   sc   naive SC of spec 001 §2.3: every operation waits for all earlier
 *        ones; fences are no-ops.
 * Under tso and sc, shared-memory accesses and barriers also wait until the
 * warp has nothing outstanding (cta_ordered; order.shared = free lets them
 * go at once, an ablation): they take effect at issue,
 * so they would otherwise pass earlier global accesses (spec 001 Fig. 1b).
 *
 * NOT MODELED: scope does not relax ordering (a .cta release waits as a .gpu
 * one does); in-window speculation (spec 001 §2.4, docs/ordering.md).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef GPU_ORDER_H
#define GPU_ORDER_H

#include "base/types.h"
#include "sim/cfg.h"
#include "sim/req.h"

/* Kinds of outstanding operations a warp counts. */
enum order_kind {
    ORDER_LD,    /* loads */
    ORDER_ST,    /* stores */
    ORDER_ATOM,  /* atomics and reductions */
    ORDER_FENCE, /* fences and kernel begin/end */
    ORDER_ACQ,   /* any of the above whose cell has acq: later ops wait for it */
    ORDER_SB,    /* stores waiting in the warp's TSO store buffer (not yet sent) */
    ORDER_NKINDS
};

#define ORDER_BIT(k) (1u << (k))
#define ORDER_ALL    ((1u << ORDER_NKINDS) - 1)

struct order_rule {
    uint8_t wait; /* ORDER_BIT mask: kinds that must have nothing outstanding */
    bool acq;     /* while outstanding, counts as ORDER_ACQ */
};

struct order_policy {
    const char *name;
    const char *desc;
    struct order_rule rule[MEM_NOPS][SEM_N]; /* indexed by enum mem_op, enum mem_sem */
    bool cta_ordered;    /* shared-memory accesses and barriers wait until the warp has
                            nothing outstanding */
    bool fences_free;    /* fences are no-ops: every access already waits for all earlier ones */
    bool store_buffer;   /* plain stores that may not issue wait in the store buffer (when
                            order.store_buffer > 0) */
    const char *promise; /* the model a write-atomic protocol under it gives programs; NULL:
                            the protocol's own (rmo adds nothing) */
    bool typeaware;      /* type-aware SC: accesses are classified by sector (sm.c, mac.c) */
};

enum order_recall { ORDER_RECALL_SAFE, ORDER_RECALL_PAPER };
extern const char *const order_recall_names[]; /* "safe", "paper" */

/* When a queued prefetch (order.prefetch) takes the memory stage's cycle. */
enum order_prefetch_issue {
    ORDER_PREFETCH_IDLE,  /* only in a cycle with no demand access to send */
    ORDER_PREFETCH_FIRST, /* ahead of the demand accesses */
};
extern const char *const order_prefetch_issue_names[]; /* "idle", "first" */

/* Whether shared-memory accesses and barriers wait for the warp's global
 * accesses under a policy that orders them (cta_ordered). */
enum order_shared {
    ORDER_SHARED_ORDERED, /* they wait (spec 001 Fig. 1b) */
    ORDER_SHARED_FREE,    /* they go at once: an ablation, not SC for every program */
};
extern const char *const order_shared_names[]; /* "ordered", "free" */

/* The [order] section of the configuration. */
struct order_spec {
    uint32_t model;          /* index into order_policies */
    uint32_t store_buffer;   /* TSO store-buffer entries (lines) per warp; 0 = naive TSO */
    bool prefetch;           /* prefetch the lines of an access held for ordering */
    uint32_t prefetch_issue; /* enum order_prefetch_issue */
    uint32_t shared;         /* enum order_shared */
    bool sb_combine;         /* send the buffered stores that follow the head in its line
                                with it, as one request (a CPU core's write-combining
                                buffer; set by the machine, no configuration key) */
    bool sb_parallel;        /* the store buffer sends its head while earlier stores are still
                                outstanding (a CPU core's cpu.store_drain = parallel; set by
                                the machine, no configuration key) */
    /* type-aware SC (spec 001 §2.5, Table 2) */
    uint32_t sector_bytes;                        /* classification granularity */
    uint32_t mac_entries, mac_ways;               /* per memory partition */
    uint32_t mac_cycles;                          /* MAC lookup latency, L2 cycles */
    uint32_t mac_recall;                          /* enum order_recall */
    uint32_t type_cache_entries, type_cache_ways; /* per SM */
    uint32_t tq_entries;                          /* type-wait queue per warp */
    uint32_t uq_entries;                          /* unsafe queue per warp (accesses and markers) */
    uint32_t sync_entries;                        /* synchronisation table per SM */
};
/* Option rows of the section, names relative to it ("model", ...). */
extern const struct cfg_opt order_opts[];

/* What a combination of policy and protocol promises programs: the policy's
 * promise when it has one and the protocol is write-atomic, the protocol's
 * own model under rmo. NULL when the policy needs write atomicity the
 * protocol does not give (the combination is refused). */
const char *order_promise(const struct order_policy *p, const char *proto_model, bool write_atomic);

/* A warp's outstanding operations. */
struct order_warp {
    uint16_t n[ORDER_NKINDS]; /* outstanding operations of each kind */
    uint8_t nz;               /* ORDER_BIT(k) set iff n[k] > 0 */
};

/* The policies, in the order of order_policy_names (a config enum). */
extern const struct order_policy *const order_policies[];
extern const char *const order_policy_names[]; /* NULL-terminated */
/* The policy called `name`, or NULL. */
const struct order_policy *order_find(const char *name);

static inline enum order_kind order_kind_of(unsigned op)
{
    switch (op) {
    case MEM_LOAD:
        return ORDER_LD;
    case MEM_STORE:
        return ORDER_ST;
    case MEM_ATOMIC:
        return ORDER_ATOM;
    default:
        return ORDER_FENCE;
    }
}

/* May an operation (op, sem) issue now? */
static inline bool order_may_issue(const struct order_policy *p, const struct order_warp *w,
                                   unsigned op, unsigned sem)
{
    return !(p->rule[op][sem].wait & w->nz);
}

/* Count an operation as outstanding (it entered the LSU). */
static inline void order_issue(const struct order_policy *p, struct order_warp *w, unsigned op,
                               unsigned sem)
{
    enum order_kind k = order_kind_of(op);
    w->n[k]++;
    w->nz |= (uint8_t)ORDER_BIT(k);
    if (p->rule[op][sem].acq) {
        w->n[ORDER_ACQ]++;
        w->nz |= (uint8_t)ORDER_BIT(ORDER_ACQ);
    }
}

/* An outstanding operation completed. */
static inline void order_complete(const struct order_policy *p, struct order_warp *w, unsigned op,
                                  unsigned sem)
{
    enum order_kind k = order_kind_of(op);
    if (--w->n[k] == 0)
        w->nz &= (uint8_t)~ORDER_BIT(k);
    if (p->rule[op][sem].acq && --w->n[ORDER_ACQ] == 0)
        w->nz &= (uint8_t)~ORDER_BIT(ORDER_ACQ);
}

#endif
