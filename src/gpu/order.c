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

#define ACQ_ONLY ORDER_BIT(ORDER_ACQ)
#define FREE     {ACQ_ONLY, false}  /* issues unless an acquire is outstanding */
#define ACQ      {ACQ_ONLY, true}   /* and later ops wait for it */
#define REL      {ORDER_ALL, false} /* waits for every earlier op */
#define REL_ACQ  {ORDER_ALL, true}  /* both */

/* Semantics columns: weak, volatile, relaxed, acquire, release, acq_rel, sc. */
static const struct order_policy order_ptx = {
    "ptx",
    "PTX release/acquire as hardware implements it; weak and relaxed ops unordered",
    {
        /*                  weak     volatile relaxed  acquire  release  acq_rel  sc      */
        [MEM_LOAD]      = {FREE,    FREE,    FREE,    ACQ,     REL_ACQ, REL_ACQ, REL_ACQ},
        [MEM_STORE]     = {FREE,    FREE,    FREE,    REL_ACQ, REL,     REL_ACQ, REL_ACQ},
        [MEM_ATOMIC]    = {FREE,    FREE,    FREE,    ACQ,     REL,     REL_ACQ, REL_ACQ},
        [MEM_FENCE]     = {REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ},
        [MEM_KERNEL_BEGIN] = {REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ},
        [MEM_KERNEL_END]   = {REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ},
    },
};

#define LD_WAIT (ORDER_BIT(ORDER_LD) | ORDER_BIT(ORDER_ATOM) | ORDER_BIT(ORDER_ACQ))
#define ST_WAIT (LD_WAIT | ORDER_BIT(ORDER_ST))
#define TSO_LD  {LD_WAIT, false}
#define TSO_ST  {ST_WAIT, false}

/* Naive TSO (spec 001 §2.2): R->R, R->W and W->W kept, W->R relaxed. The
 * semantics do not matter except that the cells stay at least as strong as
 * PTX's. Atomics act as both a load and a store and order everything. */
static const struct order_policy order_tso = {
    "tso",
    "naive TSO (spec 001 §2.2): loads wait for loads, stores for loads and stores",
    {
        /*                  weak     volatile relaxed  acquire  release  acq_rel  sc      */
        [MEM_LOAD]      = {TSO_LD,  TSO_LD,  TSO_LD,  {LD_WAIT, true}, REL_ACQ, REL_ACQ, REL_ACQ},
        [MEM_STORE]     = {TSO_ST,  TSO_ST,  TSO_ST,  REL_ACQ, REL,     REL_ACQ, REL_ACQ},
        [MEM_ATOMIC]    = {REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ},
        [MEM_FENCE]     = {REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ},
        [MEM_KERNEL_BEGIN] = {REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ},
        [MEM_KERNEL_END]   = {REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ},
    },
};

#define SC_ROW {REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ, REL_ACQ}

/* Naive SC (spec 001 §2.3): one outstanding operation per warp.
 * NOT MODELED: shared-memory accesses waiting for earlier global ones (they
 * run inside the interpreter, which the ordering policy does not see). */
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
};

const struct order_policy *const order_policies[] = {&order_ptx, &order_tso, &order_sc, NULL};
const char *const order_policy_names[] = {"ptx", "tso", "sc", NULL};

const struct order_policy *order_find(const char *name)
{
    for (unsigned i = 0; order_policies[i]; i++)
        if (!strcmp(order_policies[i]->name, name))
            return order_policies[i];
    return NULL;
}
