/*
 * sm_ta.c - type-aware SC (order.model = sc-typeaware, spec 001 §2.5) in the
 * SM: the per-SM type cache and its questions to the MACs, the
 * classification of an instruction's lines as safe or unsafe, the per-warp
 * type-wait (TQ) and unsafe (UQ) queues, bypassing safe accesses with their
 * synchronisation table, line-at-a-time instructions, drains, and the
 * messages from the MACs. Entered from the memory stage (sm.c) and once a
 * cycle from the tick.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "gpu/sm_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
static bool ta_stamp_minst(const struct sm_ta *t, struct sm_minst *mi, uint64_t sector, bool forget,
                           bool unsafe, bool we, bool committed)
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
    smi_lsu_enqueue(sm, w, idx, cyc, true);
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
    if (smi_lsu_issue(sm, &sm->warps[slot], idx, cyc, true))
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
                smi_retry_held(sm, w, cyc);
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
            smi_retry_held(sm, w, cyc);
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
void smi_ta_enter(struct sm *sm, struct sm_warp *w, unsigned idx, cycle_t cyc)
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
bool smi_cta_clear(const struct sm *sm, const struct sm_warp *w)
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
    for (unsigned i = 0; i < sm->n_minst; i++) {
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
void smi_ta_step(struct sm *sm, cycle_t cyc)
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
            smi_retry_held(sm, w, cyc);
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
        struct msg *a =
            msg_new(sm->msgs, MSG_MAC_ACK, (addr_t)(t->drains[i].sector << t->sector_shift),
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

bool smi_ta_busy(const struct sm *sm)
{
    const struct sm_ta *t = sm->ta;
    return t && (t->watch || t->n_drains || t->outbox.n);
}

bool smi_ta_tq_full(const struct sm *sm, const struct sm_warp *w)
{
    return sm->ta->w[w - sm->warps].tq_n >= sm->ta->spec.tq_entries;
}

/* An access sent by the type-aware path completed: an unsafe one lets its
 * warp's unsafe queue move; a safe one may end a drain. */
void smi_ta_sent_done(struct sm *sm, const struct sm_minst *mi)
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
void smi_ta_line_left(struct sm *sm, const struct sm_minst *mi)
{
    sm->ta->w[mi->warp].dirty = true;
}

/* ... was answered: a drain of its sector may end. */
void smi_ta_line_answered(struct sm *sm)
{
    sm->ta->n_drain_events++;
}
