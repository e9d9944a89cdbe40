/*
 * sm_sb.c - the SM's TSO store buffer (order.sb_*): buffered stores leaving
 * in order, write-combining of the stores that follow the head
 * (order.sb_combine), loads reading the buffer (forwarding, or waiting for
 * it), and what the ordering policy lets a warp's memory instruction do now
 * (mem_decide: go, wait held, be served from the buffer).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "gpu/sm_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* order.sb_combine (a CPU core): the buffered stores that follow the head
 * `hd`, just taken from the buffer, go with it as more lanes of its one
 * request, as a write-combining buffer sends a line's words together. TSO
 * allows it: consecutive stores become visible together, never out of
 * order. It stops at a store to another line, of another kind (semantics,
 * scope, size, request type), overlapping bytes already taken (the younger
 * must win), held back by an older load (sb_head_ready's rule), or when the
 * lanes run out. A combined store is done here; the head's ack covers it. */
void smi_sb_combine(struct sm *sm, struct sm_warp *w, struct sm_minst *hd, cycle_t cyc)
{
    const uint8_t *types = sm->run ? sm->run->req_types : NULL;
    struct ptx_memop *h = &hd->mem;
    if (!sm->spec.order.sb_combine || hd->n_lines != 1 || h->tx)
        return;
    while (w->sb_n) {
        struct sm_minst *c = sb_at(sm, w, 0);
        const struct ptx_memop *o = &c->mem;
        if (c->n_lines != 1 || c->line[0].line != hd->line[0].line || o->tx || o->sem != h->sem ||
            o->scope != h->scope || o->size != h->size ||
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
        smi_complete_minst(sm, c, cyc);
    }
}

/* Queue the warp for the memory stage if its buffer's head may be sent. */
void smi_sb_check(struct sm *sm, struct sm_warp *w)
{
    if (w->sb_queued || !sb_head_ready(sm, w))
        return;
    w->sb_queued = true;
    sm->sb_ready[(sm->sb_ready_head + sm->sb_ready_n++) % SM_MAX_WARPS] = (uint8_t)(w - sm->warps);
}

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

enum mem_go smi_mem_decide(struct sm *sm, struct sm_warp *w, unsigned idx, enum sm_hold *why)
{
    struct sm_minst *mi = &sm->minst[idx];
    unsigned op = mi->mem.op, sem = mi->mem.sem;
    if (sm->ta) {
        if (smi_ta_tq_full(sm, w)) {
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

void smi_sb_push(struct sm *sm, struct sm_warp *w, unsigned idx)
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
    smi_sb_check(sm, w);
}
