/*
 * order.h - core-side memory ordering policies: when may a warp's next
 * global memory operation issue, given the ones it has outstanding?
 *
 * Ordering is tracked per warp (a warp plays the role of a CPU thread, spec
 * 002 §2, spec 001 §2.0) with one counter per kind of outstanding operation,
 * from entry into the LSU until the L1's response. A policy is a table
 * indexed by (op, sem): each cell names the kinds that must have nothing
 * outstanding before the operation may issue (`wait`), and whether the
 * operation, while outstanding, holds back later operations that wait on
 * ORDER_ACQ (`acq`). Checks are made at issue: a warp whose next operation
 * may not issue is not eligible (spec 001 §2.1 "issue-time stalling").
 *
 *   ptx  the PTX model as the hardware implements it (default): weak,
 *        relaxed and volatile operations issue freely; a release (and
 *        acq_rel, sc, every fence, kernel end) waits for every earlier
 *        operation of the warp; an acquire (and acq_rel, sc, every fence)
 *        holds every later operation until it completes.
 *   tso  naive TSO of spec 001 §2.2: loads wait for earlier loads, stores
 *        for earlier loads and stores; atomics and fences order everything.
 *   sc   every operation waits for all earlier ones (one outstanding).
 *
 * NOT MODELED: scope does not relax ordering (a .cta release waits as a .gpu
 * one does); TSO store buffers (spec 001 §2.2) need state beyond counters.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef GPU_ORDER_H
#define GPU_ORDER_H

#include "base/types.h"
#include "mem/req.h"

/* Kinds of outstanding operations a warp counts. */
enum order_kind {
    ORDER_LD,    /* loads */
    ORDER_ST,    /* stores */
    ORDER_ATOM,  /* atomics and reductions */
    ORDER_FENCE, /* fences and kernel begin/end */
    ORDER_ACQ,   /* any of the above whose cell has acq: later ops wait for it */
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
};

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
    case MEM_LOAD: return ORDER_LD;
    case MEM_STORE: return ORDER_ST;
    case MEM_ATOMIC: return ORDER_ATOM;
    default: return ORDER_FENCE;
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
static inline void order_complete(const struct order_policy *p, struct order_warp *w,
                                  unsigned op, unsigned sem)
{
    enum order_kind k = order_kind_of(op);
    if (--w->n[k] == 0)
        w->nz &= (uint8_t)~ORDER_BIT(k);
    if (p->rule[op][sem].acq && --w->n[ORDER_ACQ] == 0)
        w->nz &= (uint8_t)~ORDER_BIT(ORDER_ACQ);
}

#endif
