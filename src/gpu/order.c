/*
 * order.c - the ordering policy tables (see order.h).
 *
 * Rows are operations, columns semantics. Macros name the three cell shapes
 * that occur: FREE (wait only for an outstanding acquire), REL (wait for
 * everything earlier) and their acquire forms.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "gpu/order.h"

#include <string.h>

const struct cfg_opt order_opts[] = {
    CFG_ENUM("model", struct order_spec, model, "rmo", order_policy_names,
             "memory model the SM enforces: rmo (relaxed; PTX synchronisation), tso, sc "
             "(spec 001 §2.1-2.3) or sc-typeaware (§2.5); all but rmo need a write-atomic "
             "protocol"),
    CFG_U32("store_buffer", struct order_spec, store_buffer, "8", 0, 1024, "lines",
            "tso: store-buffer entries per warp (one per line a store writes; spec 001 §6.2: "
            "8 x 128 B); 0 = naive TSO, a store that may not issue holds its warp"),
    CFG_BOOL("prefetch", struct order_spec, prefetch, "false",
             "send a prefetch (a load whose data is dropped) for each line of an access while "
             "it is held for ordering (spec 001 §2.4)"),
    CFG_ENUM("prefetch_issue", struct order_spec, prefetch_issue, "idle",
             order_prefetch_issue_names,
             "with prefetch: a queued prefetch takes the memory stage only in a cycle when no "
             "demand access is ready to send (idle), or before the demand accesses (first: "
             "prefetches take their cycles of the L1's port; spec 001 §2.4 does not say)"),
    CFG_ENUM("shared", struct order_spec, shared, "ordered", order_shared_names,
             "tso, sc, sc-typeaware: shared-memory accesses and barriers wait until the warp has "
             "nothing outstanding (ordered: they take effect at issue and would otherwise pass "
             "earlier global accesses, spec 001 Fig. 1b) or go at once (free: the RCC thesis's "
             "SC holds 'local' accesses behind global ones, which may mean CUDA local memory, "
             "served in the SM; an ablation: shared and global accesses of a warp are then not "
             "ordered, which is not SC for a program that communicates through both)"),
    CFG_U32("sector_bytes", struct order_spec, sector_bytes, "16K", 128, 1u << 30, "bytes",
            "sc-typeaware: classification granularity (a power of two, at least a line)"),
    CFG_U32("mac_entries", struct order_spec, mac_entries, "512", 1, 1u << 20, "",
            "sc-typeaware: sectors each memory partition's classifier (MAC) tracks"),
    CFG_U32("mac_ways", struct order_spec, mac_ways, "8", 1, 1024, "",
            "sc-typeaware: MAC associativity (must divide mac_entries)"),
    CFG_U32("mac_cycles", struct order_spec, mac_cycles, "4", 0, 10000, "L2 cycles",
            "sc-typeaware: MAC lookup latency"),
    CFG_ENUM("mac_recall", struct order_spec, mac_recall, "safe", order_recall_names,
             "sc-typeaware: a MAC eviction recalls the sector and waits for every SM to drain "
             "and acknowledge (safe, spec 001 §7) or reuses the entry at once (paper)"),
    CFG_U32("type_cache_entries", struct order_spec, type_cache_entries, "64", 1, 1u << 16, "",
            "sc-typeaware: sector types cached per SM"),
    CFG_U32("type_cache_ways", struct order_spec, type_cache_ways, "4", 1, 1024, "",
            "sc-typeaware: type-cache associativity (must divide type_cache_entries)"),
    CFG_U32("tq_entries", struct order_spec, tq_entries, "4", 1, 64, "",
            "sc-typeaware: accesses waiting for their type, per warp"),
    CFG_U32("uq_entries", struct order_spec, uq_entries, "4", 1, 64, "",
            "sc-typeaware: unsafe accesses and markers waiting for earlier unsafe ones, per warp"),
    CFG_U32("sync_entries", struct order_spec, sync_entries, "64", 1, 4096, "",
            "sc-typeaware: synchronisation-table entries per SM (blocks reached by bypassing)"),
    CFG_END,
};

const char *const order_recall_names[] = {"safe", "paper", NULL};
const char *const order_prefetch_issue_names[] = {"idle", "first", NULL};
const char *const order_shared_names[] = {"ordered", "free", NULL};

#define ACQ_ONLY ORDER_BIT(ORDER_ACQ)
#define FREE                                                                                       \
    {                                                                                              \
        ACQ_ONLY, false                                                                            \
    } /* issues unless an acquire is outstanding */
#define ACQ                                                                                        \
    {                                                                                              \
        ACQ_ONLY, true                                                                             \
    } /* and later ops wait for it */
#define REL                                                                                        \
    {                                                                                              \
        ORDER_ALL, false                                                                           \
    } /* waits for every earlier op */
#define REL_ACQ                                                                                    \
    {                                                                                              \
        ORDER_ALL, true                                                                            \
    } /* both */

/* Semantics columns: weak, volatile, relaxed, acquire, release, acq_rel, sc. */
static const struct order_policy order_rmo = {
    "rmo",
    "relaxed hardware: weak and relaxed ops unordered; PTX release/acquire and fences order",
    {
        /*                  weak     volatile relaxed  acquire  release  acq_rel  sc      */
        [MEM_LOAD] = {FREE, FREE, FREE, ACQ, REL_ACQ, REL_ACQ, REL_ACQ},
        [MEM_STORE] = {FREE, FREE, FREE, REL_ACQ, REL, REL_ACQ, REL_ACQ},
        [MEM_ATOMIC] = {FREE, FREE, FREE, ACQ, REL, REL_ACQ, REL_ACQ},
        [MEM_FENCE] = {REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ},
        [MEM_KERNEL_BEGIN] = {REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ},
        [MEM_KERNEL_END] = {REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ},
    },
    .cta_ordered = false,
    .fences_free = false,
    .store_buffer = false,
    .promise = NULL,
};

#define LD_WAIT (ORDER_BIT(ORDER_LD) | ORDER_BIT(ORDER_ATOM) | ORDER_BIT(ORDER_ACQ))
#define ST_WAIT (LD_WAIT | ORDER_BIT(ORDER_ST) | ORDER_BIT(ORDER_SB))
#define TSO_LD                                                                                     \
    {                                                                                              \
        LD_WAIT, false                                                                             \
    }
#define TSO_ST                                                                                     \
    {                                                                                              \
        ST_WAIT, false                                                                             \
    }

/* TSO (spec 001 §2.2): R->R, R->W and W->W kept, W->R relaxed. The
 * semantics do not matter except that the cells stay at least as strong as
 * PTX's. Atomics act as both a load and a store and order everything; so do
 * fences (they give W->R, which TSO lacks) and release stores, which also
 * wait for the store buffer to drain (ORDER_ALL includes ORDER_SB). Loads
 * pass buffered stores (LD_WAIT lacks ORDER_SB). */
static const struct order_policy order_tso = {
    "tso",
    "naive TSO (spec 001 §2.2): loads wait for loads, stores for loads and stores",
    {
        /*                  weak     volatile relaxed  acquire  release  acq_rel  sc      */
        [MEM_LOAD] = {TSO_LD, TSO_LD, TSO_LD, {LD_WAIT, true}, REL_ACQ, REL_ACQ, REL_ACQ},
        [MEM_STORE] = {TSO_ST, TSO_ST, TSO_ST, REL_ACQ, REL, REL_ACQ, REL_ACQ},
        [MEM_ATOMIC] = {REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ},
        [MEM_FENCE] = {REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ},
        [MEM_KERNEL_BEGIN] = {REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ},
        [MEM_KERNEL_END] = {REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ},
    },
    .cta_ordered = true,
    .fences_free = false,
    .store_buffer = true,
    .promise = "tso",
};

#define SC_ROW                                                                                     \
    {                                                                                              \
        REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ                              \
    }

/* Naive SC (spec 001 §2.3): one outstanding operation per warp; shared
 * accesses and barriers wait for it too (cta_ordered), so a fence has
 * nothing left to order and is not sent. */
static const struct order_policy order_sc = {
    "sc",
    "naive SC (spec 001 §2.3): every operation waits for all earlier ones",
    {
        [MEM_LOAD] = SC_ROW,
        [MEM_STORE] = SC_ROW,
        [MEM_ATOMIC] = SC_ROW,
        [MEM_FENCE] = SC_ROW,
        [MEM_KERNEL_BEGIN] = SC_ROW,
        [MEM_KERNEL_END] = SC_ROW,
    },
    .cta_ordered = true,
    .fences_free = true,
    .store_buffer = false,
    .promise = "sc",
};

/* Type-aware SC (spec 001 §2.5): the SM classifies every access by its
 * sector and orders only unsafe ones (sm.c), so no cell waits; a kernel end
 * still waits for everything. */
#define NONE                                                                                       \
    {                                                                                              \
        0, false                                                                                   \
    }
#define TA_ROW                                                                                     \
    {                                                                                              \
        NONE, NONE, NONE, NONE, NONE, NONE, NONE                                                   \
    }
static const struct order_policy order_sc_typeaware = {
    "sc-typeaware",
    "type-aware SC (spec 001 §2.5): only accesses to sectors several SMs share and one "
    "writes are ordered",
    {
        [MEM_LOAD] = TA_ROW,
        [MEM_STORE] = TA_ROW,
        [MEM_ATOMIC] = TA_ROW,
        [MEM_FENCE] = TA_ROW,
        [MEM_KERNEL_BEGIN] = SC_ROW,
        [MEM_KERNEL_END] = SC_ROW,
    },
    .cta_ordered = true,
    .fences_free = true,
    .store_buffer = false,
    .promise = "sc",
    .typeaware = true,
};

const struct order_policy *const order_policies[] = {&order_rmo, &order_tso, &order_sc,
                                                     &order_sc_typeaware, NULL};
const char *const order_policy_names[] = {"rmo", "tso", "sc", "sc-typeaware", NULL};

const struct order_policy *order_find(const char *name)
{
    for (unsigned i = 0; order_policies[i]; i++)
        if (!strcmp(order_policies[i]->name, name))
            return order_policies[i];
    return NULL;
}

const char *order_promise(const struct order_policy *p, const char *proto_model, bool write_atomic)
{
    if (!p->promise)
        return proto_model;
    return write_atomic ? p->promise : NULL;
}
