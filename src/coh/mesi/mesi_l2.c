/*
 * mesi_l2.c - the L2 bank of `mesi`: an inclusive, write-back L2 with the
 * directory of gem5's MESI_Two_Level (spec 002 §3.6; paper §4.1, §7).
 *
 * Each line keeps a sharer vector with its tags (two metadata words). Stable
 * states: NP; SS (valid here, the vector names every L1 that may hold an S
 * copy - bits go stale when an L1 drops an S line silently); M (valid here,
 * no L1 copy; the dirty bit says whether DRAM is behind); MT (one L1 owns the
 * line in E or M; the vector names it). A GETS to a line no L1 holds is
 * granted E (DATA_E); a GETX or UPGRADE first invalidates every other S copy
 * (class INV, SS_MB) and the bank collects the acks itself, then grants
 * DATA_X (or ACK_X to an UPGRADE whose S copy survived). Requests to an owned
 * line are forwarded to the owner, whose answer (OWNER_DATA, with the line if
 * dirty) comes back through the bank: FWD_GETS leaves both L1s in S (MT_SB ->
 * SS), FWD_GETX moves ownership (MT_IB -> MT_MB). After every exclusive grant
 * the line stays blocked (MT_MB) until the new owner's UNBLOCK, so no forward
 * or invalidation can overtake a grant. Inclusion: evicting a line that L1s
 * may hold recalls every copy first (class RCL; S_I, MT_I), and the request
 * that needed the way retries meanwhile. A PUTX from the owner makes the line
 * M; one from an L1 that no longer owns it (it lost a race to a forward or
 * recall, which took its data) is only acknowledged. Requests to a line in a
 * transient state park on its TBE and replay in arrival order.
 * INVARIANT: data the bank hands out equals the golden memory (checked with
 *   --check): no L1 holds the line in M while the bank answers from its copy.
 * DEVIATION: gem5's owner sends data straight to the requester; the crossbar
 *   here only links L1s with banks, so it goes through the bank (MT_SB/MT_IB
 *   wait for it). Invalidation acks go to the bank, not to the requester, so
 *   the requester needs no ack count. ISS and IM differ only in what the
 *   fill grants; gem5's M_I/MCT_I/I_I are not needed because DRAM keeps line
 *   order (a write-back needs no ack), and shared grants need no UNBLOCK.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "base/rng.h"
#include "coh/mesi/mesi.h"
#include "coh/sharers.h"
#include "mem/observe.h"
#include "coh/machine_view.h"

#define MESI_L2_STATES(X)                                                                          \
    X(NP, "not present")                                                                           \
    X(SS, "valid here; the sharer vector names every L1 that may hold an S copy")                  \
    X(M, "valid here; no L1 holds a copy")                                                         \
    X(MT, "an L1 owns the line (E or M); the vector names it")                                     \
    X(ISS, "fetch from DRAM for a GETS (granted E); later requests parked")                        \
    X(IM, "fetch from DRAM for a GETX or UPGRADE; later requests parked")                          \
    X(SS_MB, "invalidating the other S copies for a GETX/UPGRADE; collecting acks")                \
    X(MT_MB, "exclusive grant sent; blocked until the new owner's UNBLOCK")                        \
    X(MT_SB, "FWD_GETS sent to the owner; waiting for its answer")                                 \
    X(MT_IB, "FWD_GETX sent to the owner; waiting for its answer")                                 \
    X(S_I, "recalling the S copies before eviction; collecting acks")                              \
    X(MT_I, "recalling the owner's copy before eviction; waiting for its answer")

#define MESI_L2_EVENTS(X)                                                                          \
    X(GetS, "read request")                                                                        \
    X(GetX, "write request (GETX, or UPGRADE from an L1 no longer listed); no S copy listed")      \
    X(GetXInv, "write request to an SS line: other L1s may hold S copies")                         \
    X(Upgrade, "UPGRADE from a listed sharer (SS: other L1s are listed too)")                      \
    X(PutX, "write-back from the owner")                                                           \
    X(PutXOld, "write-back from an L1 that no longer owns the line")                               \
    X(Busy, "any request or write-back to a line in a transient state")                            \
    X(Replace, "a miss needs this line's way; no L1 may hold a copy")                              \
    X(Recall, "a miss needs this line's way; L1s may hold copies")                                 \
    X(MemData, "fill from DRAM")                                                                   \
    X(InvAck, "invalidation ack, more expected")                                                   \
    X(LastAck, "the last invalidation ack")                                                        \
    X(OwnerData, "the owner's answer to a forward or recall")                                      \
    X(Unblock, "the new owner has its exclusive grant")

#define X(n, d) L2_##n,
enum l2_state { MESI_L2_STATES(X) L2_NSTATES };
enum l2_event { MESI_L2_EVENTS(X) L2_NEVENTS };
#undef X
COH_NAMES(MESI_L2_STATES, MESI_L2_EVENTS);

const char *const mesi_vnet_names[MESI_NVNETS] = {"request", "forward", "response", "unblock",
                                                  "writeback"};

struct l2_stats {
    uint64_t invs_sent, recalls_sent, forwards, putx, putx_old;
};

struct mesi_l2 {
    struct ctrl base;
    struct msg_list fwd_out; /* forwards and invalidations waiting for room */
    bool bug_forgets_inv;    /* mesi-noinv (test only): a GETX/UPGRADE's invalidation of
                                the first other sharer is never sent */
    struct l2_stats st;
};

static struct mesi_l2 *l2_of(struct coh_ctx *x)
{
    return x->ctrl;
}

/* ---- actions ---- */

/* Into the pipeline; leaves on the message's vnet after the hit latency. */
static void respond(struct mesi_l2 *c, struct msg *m, uint16_t type, unsigned vnet, uint8_t cls,
                    uint16_t bytes)
{
    ctrl_l2_respond(&c->base, m, type, vnet, cls, bytes);
}

/* The line's data into a response (checked against the golden memory). */
static void with_data(struct mesi_l2 *c, struct coh_ctx *x, struct msg *m)
{
    if (c->base.w.obs)
        obs_check(c->base.w.obs, c->base.w.name, x->addr, x->line->data, NULL);
    memcpy(m->data, x->line->data, c->base.line_bytes);
    memset(&m->mask, 0xff, sizeof m->mask);
}

/* A forward or invalidation to L1 `sm`, out at once (tags only). */
static void to_l1(struct mesi_l2 *c, addr_t line, unsigned sm, uint16_t type, uint8_t cls)
{
    struct msg *m = msg_new(c->base.w.msgs, type, line, c->base.comp.eng->now);
    m->cls = cls;
    m->vnet = MESI_VNET_FWD;
    m->src = (uint16_t)c->base.w.index;
    m->dst = (uint16_t)sm;
    msg_list_push(&c->fwd_out, m);
}

static void reply_shared_to(struct coh_ctx *x, struct msg *m)
{
    coh_sharer_set(x->line, m->src);
    memset(&m->mask, 0xff, sizeof m->mask);
    ctrl_l2_reply_line(x->ctrl, x, m, MSG_MESI_DATA, MESI_VNET_RSP);
}

static void reply_shared(struct coh_ctx *x)
{
    reply_shared_to(x, x->msg);
    x->msg = NULL;
}

static void reply_held_shared(struct coh_ctx *x)
{
    reply_shared_to(x, msg_list_pop(&x->tbe->merged));
}

/* Exclusive permission to the requester of this request, or of the held
 * one: DATA_E for a GETS, DATA_X for a GETX, ACK_X for an UPGRADE (its S
 * copy is current). The vector then names the new owner alone. */
static void grant(struct coh_ctx *x)
{
    struct mesi_l2 *c = l2_of(x);
    struct msg *m = x->msg ? x->msg : msg_list_pop(&x->tbe->merged);
    x->msg = NULL;
    panic_if(!m, "%s: nothing to grant on %#llx", c->base.w.name, (unsigned long long)x->addr);
    cache_touch(&c->base.cache, x->line);
    x->line->meta[0] = x->line->meta[1] = 0;
    coh_sharer_set(x->line, m->src);
    switch (m->type) {
    case MSG_MESI_GETS:
        c->base.st.reads++;
        with_data(c, x, m);
        respond(c, m, MSG_MESI_DATA_E, MESI_VNET_RSP, TRAFFIC_LD, (uint16_t)c->base.line_bytes);
        break;
    case MSG_MESI_GETX:
        c->base.st.writes++;
        with_data(c, x, m);
        respond(c, m, MSG_MESI_DATA_X, MESI_VNET_RSP, TRAFFIC_ST, (uint16_t)c->base.line_bytes);
        break;
    default:
        c->base.st.writes++;
        respond(c, m, MSG_MESI_ACK_X, MESI_VNET_RSP, TRAFFIC_REQ, 0);
    }
}

/* Invalidate the listed L1s (all, or all but the requester), clearing their
 * bits; the TBE expects one answer per message. */
static void invalidate(struct coh_ctx *x, int keep, uint8_t cls)
{
    struct mesi_l2 *c = l2_of(x);
    struct cache_line *l = x->line;
    bool forget = c->bug_forgets_inv && cls == TRAFFIC_INV;
    for (unsigned w = 0; w < 2; w++) {
        uint64_t bits = l->meta[w];
        while (bits) {
            unsigned sm = w * 64 + (unsigned)__builtin_ctzll(bits);
            bits &= bits - 1;
            if ((int)sm == keep)
                continue;
            l->meta[w] &= ~(1ull << (sm % 64));
            if (forget) { /* the seeded bug: dropped from the list, never told */
                forget = false;
                continue;
            }
            to_l1(c, x->addr, sm, MSG_MESI_INV, cls);
            if (cls == TRAFFIC_RCL)
                c->st.recalls_sent++;
            else
                c->st.invs_sent++;
            x->tbe->acks++;
        }
    }
}

static void send_invs(struct coh_ctx *x)
{
    invalidate(x, x->msg->src, TRAFFIC_INV);
}

static void send_recalls(struct coh_ctx *x)
{
    invalidate(x, -1, TRAFFIC_RCL);
}

static void send_fwd(struct coh_ctx *x, uint16_t type)
{
    struct mesi_l2 *c = l2_of(x);
    c->st.forwards++;
    to_l1(c, x->addr, coh_sharers_first(x->line), type, TRAFFIC_REQ);
}

static void send_fwd_gets(struct coh_ctx *x)
{
    send_fwd(x, MSG_MESI_FWD_GETS);
}

static void send_fwd_getx(struct coh_ctx *x)
{
    send_fwd(x, MSG_MESI_FWD_GETX);
}

/* The owner's answer, or its PUTX: the line if it was dirty. */
static void take_line(struct mesi_l2 *c, struct coh_ctx *x)
{
    if (x->msg->flags & MESI_F_DIRTY) {
        memcpy(x->line->data, x->msg->data, c->base.line_bytes);
        x->line->dirty = true;
    }
}

static void take_owner_data(struct coh_ctx *x)
{
    struct mesi_l2 *c = l2_of(x);
    /* a recall cleared the owner's bit when it was sent; a forward did not */
    panic_if(x->state != L2_MT_I && !coh_sharer(x->line, x->msg->src),
             "%s: %#llx answered by L1 %u, not its owner", c->base.w.name,
             (unsigned long long)x->addr, x->msg->src);
    take_line(c, x);
    msg_free(c->base.w.msgs, x->msg);
    x->msg = NULL;
}

static void take_putx(struct coh_ctx *x)
{
    struct mesi_l2 *c = l2_of(x);
    c->st.putx++;
    take_line(c, x);
    x->line->meta[0] = x->line->meta[1] = 0;
}

/* The PUTX becomes its WB_ACK. */
static void send_wback(struct coh_ctx *x)
{
    struct mesi_l2 *c = l2_of(x);
    if (x->event == L2_PutXOld)
        c->st.putx_old++;
    respond(c, x->msg, MSG_MESI_WB_ACK, MESI_VNET_WB, TRAFFIC_REQ, 0);
    x->msg = NULL;
}

static void take_unblock(struct coh_ctx *x)
{
    struct mesi_l2 *c = l2_of(x);
    panic_if(!coh_sharer(x->line, x->msg->src), "%s: UNBLOCK for %#llx from L1 %u, not the grantee",
             c->base.w.name, (unsigned long long)x->addr, x->msg->src);
    msg_free(c->base.w.msgs, x->msg);
    x->msg = NULL;
}

static const struct coh_action_name actions[] = {
    {ctrl_take_way, "take_way", "install the line in a free way (the fill comes later)"},
    {ctrl_alloc_tbe, "alloc_tbe", "allocate a TBE for the line"},
    {ctrl_hold, "hold", "keep the request in the TBE until it can be answered"},
    {ctrl_l2_send_fetch, "send_fetch", "read the line from DRAM"},
    {ctrl_l2_fill_line, "fill_line", "write the DRAM data into the line"},
    {ctrl_wake_parked, "wake_parked", "free the TBE and replay its parked requests in order"},
    {reply_shared, "reply_shared", "list the reader, send it the line (DATA, shared)"},
    {reply_held_shared, "reply_held_shared",
     "list the held reader, send it the line (DATA, shared)"},
    {grant, "grant",
     "make the requester (this or the held one) the owner: DATA_E to a GETS, DATA_X to a GETX, "
     "ACK_X to an UPGRADE"},
    {send_invs, "send_invs", "invalidate every listed L1 but the requester (class INV)"},
    {send_recalls, "send_recalls", "recall every listed L1 (class RCL)"},
    {ctrl_count_ack, "count_ack", "count one invalidation ack"},
    {send_fwd_gets, "send_fwd_gets", "forward the read to the owner"},
    {send_fwd_getx, "send_fwd_getx", "forward the write to the owner"},
    {take_owner_data, "take_owner_data", "take the owner's line if it was dirty"},
    {take_putx, "take_putx", "take the written-back line if dirty; no L1 holds it now"},
    {send_wback, "send_wback", "acknowledge the PUTX"},
    {take_unblock, "take_unblock", "the new owner has its grant"},
    {ctrl_l2_write_back, "write_back", "write the line to DRAM if it is dirty"},
    {ctrl_drop_line, "drop_line", "free the way"},
    {0},
};

/* ---- the table ---- */

/* SS is entered only from MT_SB, with the old owner and the reader listed,
 * and a bit is cleared only by an invalidation that leaves SS: an SS vector
 * always names at least two L1s, so every request to an SS line meets
 * another listed copy (GetXInv, Upgrade) and evicting one recalls
 * (Recall). [SS][GetX] and [SS][Replace] are left undefined: reaching one
 * would be a protocol hole (exit 3). */
/*  state       event            next      uses               actions                           */
static const struct coh_trans mesi_l2_cells[L2_NSTATES][L2_NEVENTS] = {
    [L2_NP][L2_GetS] =
        DO(L2_ISS, TAG_RD | TAG_WR, ctrl_take_way, ctrl_alloc_tbe, ctrl_hold, ctrl_l2_send_fetch),
    [L2_NP][L2_GetX] =
        DO(L2_IM, TAG_RD | TAG_WR, ctrl_take_way, ctrl_alloc_tbe, ctrl_hold, ctrl_l2_send_fetch),
    [L2_NP][L2_PutXOld] = DO(L2_NP, TAG_RD, send_wback),
    [L2_SS][L2_GetS] = DO(L2_SS, TAG_RD | TAG_WR | DATA_RD, reply_shared),
    [L2_SS][L2_GetXInv] = DO(L2_SS_MB, TAG_RD | TAG_WR, ctrl_alloc_tbe, send_invs, ctrl_hold),
    [L2_SS][L2_Upgrade] = DO(L2_SS_MB, TAG_RD | TAG_WR, ctrl_alloc_tbe, send_invs, ctrl_hold),
    [L2_SS][L2_PutXOld] = DO(L2_SS, TAG_RD, send_wback),
    [L2_SS][L2_Recall] = DO(L2_S_I, TAG_RD | TAG_WR, ctrl_alloc_tbe, send_recalls),
    [L2_M][L2_GetS] = DO(L2_MT_MB, TAG_RD | TAG_WR | DATA_RD, ctrl_alloc_tbe, grant),
    [L2_M][L2_GetX] = DO(L2_MT_MB, TAG_RD | TAG_WR | DATA_RD, ctrl_alloc_tbe, grant),
    [L2_M][L2_PutXOld] = DO(L2_M, TAG_RD, send_wback),
    [L2_M][L2_Replace] = DO(L2_NP, TAG_WR | DATA_RD, ctrl_l2_write_back, ctrl_drop_line),
    [L2_MT][L2_GetS] = DO(L2_MT_SB, TAG_RD, ctrl_alloc_tbe, ctrl_hold, send_fwd_gets),
    [L2_MT][L2_GetX] = DO(L2_MT_IB, TAG_RD, ctrl_alloc_tbe, ctrl_hold, send_fwd_getx),
    [L2_MT][L2_PutX] = DO(L2_M, TAG_RD | TAG_WR | DATA_WR, take_putx, send_wback),
    [L2_MT][L2_PutXOld] = DO(L2_MT, TAG_RD, send_wback),
    [L2_MT][L2_Recall] = DO(L2_MT_I, TAG_RD | TAG_WR, ctrl_alloc_tbe, send_recalls),
    [L2_ISS][L2_Busy] = STALL,
    [L2_ISS][L2_MemData] = DO(L2_MT_MB, TAG_WR | DATA_WR | DATA_RD, ctrl_l2_fill_line, grant),
    [L2_IM][L2_Busy] = STALL,
    [L2_IM][L2_MemData] = DO(L2_MT_MB, TAG_WR | DATA_WR | DATA_RD, ctrl_l2_fill_line, grant),
    [L2_SS_MB][L2_Busy] = STALL,
    [L2_SS_MB][L2_InvAck] = DO(L2_SS_MB, 0, ctrl_count_ack),
    [L2_SS_MB][L2_LastAck] = DO(L2_MT_MB, TAG_WR | DATA_RD, ctrl_count_ack, grant),
    [L2_MT_MB][L2_Busy] = STALL,
    [L2_MT_MB][L2_Unblock] = DO(L2_MT, TAG_WR, take_unblock, ctrl_wake_parked),
    [L2_MT_SB][L2_Busy] = STALL,
    [L2_MT_SB][L2_OwnerData] =
        DO(L2_SS, TAG_WR | DATA_WR | DATA_RD, take_owner_data, reply_held_shared, ctrl_wake_parked),
    [L2_MT_IB][L2_Busy] = STALL,
    [L2_MT_IB][L2_OwnerData] = DO(L2_MT_MB, TAG_WR | DATA_WR | DATA_RD, take_owner_data, grant),
    [L2_S_I][L2_Busy] = STALL,
    [L2_S_I][L2_InvAck] = DO(L2_S_I, 0, ctrl_count_ack),
    [L2_S_I][L2_LastAck] = DO(L2_NP, TAG_WR | DATA_RD, ctrl_count_ack, ctrl_l2_write_back,
                              ctrl_drop_line, ctrl_wake_parked),
    [L2_MT_I][L2_Busy] = STALL,
    [L2_MT_I][L2_OwnerData] = DO(L2_NP, TAG_WR | DATA_RD, take_owner_data, ctrl_l2_write_back,
                                 ctrl_drop_line, ctrl_wake_parked),
};

const struct coh_table mesi_l2_table =
    COH_TABLE("mesi", "L2", mesi_l2_cells, ctrl_set_state, ctrl_l2_dump_ctx);

/* ---- the classifier ---- */

static bool is_transient(unsigned s)
{
    return s >= L2_ISS;
}

static bool is_recall(unsigned s)
{
    return s == L2_S_I || s == L2_MT_I;
}

/* Requests and write-backs. An UPGRADE from an L1 the vector no longer
 * lists lost its S copy to an invalidation on the way: it is a GETX (the
 * message says so from here on, so that the grant sends the line). */
static unsigned classify_request(const struct coh_ctx *x, struct msg *m)
{
    unsigned s = x->state;
    if (is_transient(s))
        return L2_Busy;
    if (m->type == MSG_MESI_PUTX)
        return s == L2_MT && coh_sharer(x->line, m->src) ? L2_PutX : L2_PutXOld;
    panic_if(s == L2_MT && coh_sharer(x->line, m->src),
             "mesi L2: L1 %u requests line %#llx that it owns", m->src,
             (unsigned long long)x->addr);
    if (m->type == MSG_MESI_UPGRADE && !(s == L2_SS && coh_sharer(x->line, m->src)))
        m->type = MSG_MESI_GETX;
    bool others = s == L2_SS && coh_sharers_other(x->line, m->src);
    switch (m->type) {
    case MSG_MESI_GETS:
        return L2_GetS;
    case MSG_MESI_GETX:
        return others ? L2_GetXInv : L2_GetX;
    case MSG_MESI_UPGRADE:
        panic_if(!others, "mesi L2: UPGRADE of %#llx from its only listed sharer",
                 (unsigned long long)x->addr);
        return L2_Upgrade;
    default:
        panic("mesi L2: unexpected request type %u", m->type);
    }
}

static bool evictable(const struct cache_line *l, void *arg)
{
    (void)arg;
    return l->state == L2_SS || l->state == L2_M || l->state == L2_MT;
}

/* Evict `victim` through the table: a line L1s may hold is recalled. */
static void evict(struct mesi_l2 *c, struct cache_line *victim)
{
    struct coh_ctx x;
    ctrl_lookup(&c->base, &x, victim->addr);
    x.event =
        x.state == L2_M || (x.state == L2_SS && coh_sharers_none(victim)) ? L2_Replace : L2_Recall;
    ctrl_step(&c->base, &x);
}

/* A recall in progress in the line's set: a miss waits for it rather than
 * evicting another line. */
static bool set_recalling(struct mesi_l2 *c, addr_t line)
{
    struct cache_line *set =
        &c->base.cache.lines[(size_t)cache_set_of(&c->base.cache, line) * c->base.cache.spec.ways];
    for (uint32_t w = 0; w < c->base.cache.spec.ways; w++)
        if (set[w].present && is_recall(set[w].state))
            return true;
    return false;
}

static bool stall(struct mesi_l2 *c)
{
    c->base.st.resource_stalls++;
    return false;
}

/* One request or write-back. A request needs a free TBE, room on the DRAM
 * port and in the pipeline; a miss also needs a way: a full set gives up its
 * LRU stable line (recalling it if L1s may hold it) and the request retries.
 * A write-back needs only room in the pipeline. Returns false on a resource
 * stall (the message stays where it was). */
static bool take_request(struct ctrl *b, struct msg *m)
{
    struct mesi_l2 *c = (struct mesi_l2 *)b;
    bool put = m->type == MSG_MESI_PUTX;
    if (!port_has_room(&c->base.pipe, 1))
        return stall(c);
    if (!put && (tbe_full(&c->base.tbes) || !port_has_room(c->base.links.to_mem, 1)))
        return stall(c);
    struct coh_ctx x;
    ctrl_lookup(b, &x, m->addr);
    if (!put && !x.line) {
        if (set_recalling(c, m->addr))
            return stall(c);
        struct cache_line *way = cache_victim(&c->base.cache, m->addr, evictable, NULL);
        if (!way)
            return stall(c); /* every way is busy */
        if (way->present) {
            evict(c, way);
            return stall(c);
        }
    }
    x.msg = m;
    x.event = classify_request(&x, m);
    ctrl_step_or_park(b, &x);
    return true;
}

/* An INV_ACK or OWNER_DATA (may write back to DRAM and answer the held
 * request). Returns false on a resource stall. */
static bool take_answer(struct mesi_l2 *c, struct msg *m)
{
    if (!port_has_room(&c->base.pipe, 1) || !port_has_room(c->base.links.to_mem, 1))
        return stall(c);
    struct coh_ctx x;
    ctrl_lookup(&c->base, &x, m->addr);
    panic_if(!x.tbe, "%s: answer type %u for %#llx with no TBE", c->base.w.name, m->type,
             (unsigned long long)m->addr);
    x.msg = m;
    x.event = m->type == MSG_MESI_OWNER_DATA ? L2_OwnerData
              : x.tbe->acks == 1             ? L2_LastAck
                                             : L2_InvAck;
    ctrl_step(&c->base, &x);
    return true;
}

static void take_unblock_msg(struct ctrl *b, struct msg *m)
{
    ctrl_fire(b, m->addr, m, L2_Unblock);
}

static void take_mem(struct ctrl *b, struct msg *m)
{
    if (!ctrl_l2_drop_wrack(b, m))
        ctrl_fire(b, m->addr, m, L2_MemData);
}

/* ---- tick ---- */

/* One bank cycle: the pipeline and the forward queue drain into their
 * vnets; one DRAM response, one unblock, one answer, one write-back and one
 * request (parked ones replay before new ones) are taken. */
static bool mesi_l2_tick(struct comp *cp)
{
    struct mesi_l2 *c = (struct mesi_l2 *)cp;
    struct ctrl *b = &c->base;
    struct msg *m;
    struct port *reqs = b->links.net_in[MESI_VNET_REQ], *rsps = b->links.net_in[MESI_VNET_RSP];
    struct port *unbl = b->links.net_in[MESI_VNET_UNBLOCK], *wbs = b->links.net_in[MESI_VNET_WB];

    ctrl_tick_begin(b);
    bool moved = ctrl_l2_drain_pipe(b);
    moved |= ctrl_drain(&c->fwd_out, b->links.net_out[MESI_VNET_FWD]);
    moved |= ctrl_take_one(b, &b->in, take_mem);
    moved |= ctrl_take_one(b, unbl, take_unblock_msg);
    if ((m = port_peek(rsps)) && take_answer(c, m)) {
        port_pop(rsps);
        moved = true;
    }
    if ((m = port_peek(wbs)) && take_request(b, m)) {
        port_pop(wbs);
        moved = true;
    }
    moved |= ctrl_take_next(b, reqs, take_request);
    if (moved)
        return true;
    /* responses or forwards held by a full vnet, or messages stalled on a
     * resource (a full port, TBE table or set, a recall in the set), and
     * nothing else: sleep until it may clear */
    if (b->replay.n || c->fwd_out.n || port_peek(&b->pipe) || port_peek(reqs) || port_peek(rsps) ||
        port_peek(wbs)) {
        struct port *const in[] = {&b->in, &b->pipe, unbl, rsps, wbs, reqs};
        return ctrl_stall_sleep(b, in, 6);
    }
    return false;
}

static void dump_msg(const struct msg *m, FILE *out)
{
    fprintf(out, "type %u addr %#llx src %u dst %u vnet %u\n", m->type, (unsigned long long)m->addr,
            m->src, m->dst, m->vnet);
}

static void mesi_l2_dump(struct comp *cp, FILE *out)
{
    struct mesi_l2 *c = (struct mesi_l2 *)cp;
    if (!c->base.tbes.n_used && !c->base.replay.n && !c->base.pipe.n && !c->fwd_out.n)
        return;
    fprintf(out, "%s (mesi L2): %u TBEs, %u replaying, %u in pipeline, %u forwards queued\n",
            c->base.w.name, c->base.tbes.n_used, c->base.replay.n, c->base.pipe.n, c->fwd_out.n);
    for (uint32_t i = 0; i < c->base.tbes.cap; i++) {
        struct tbe *t = &c->base.tbes.e[i];
        if (t->used) {
            struct cache_line *l = cache_find(&c->base.cache, t->addr);
            fprintf(out, "  tbe %#llx %s acks %d held %u parked %u sharers %#llx:%#llx\n",
                    (unsigned long long)t->addr, state_names[t->state], t->acks, t->merged.n,
                    t->parked.n, l ? (unsigned long long)l->meta[1] : 0ull,
                    l ? (unsigned long long)l->meta[0] : 0ull);
        }
    }
    port_dump(&c->base.pipe, out, dump_msg);
}

/* ---- construction ---- */

static const struct ctrl_stat mesi_l2_stat_rows[] = {
    CTRL_STAT_BASE(reads),
    CTRL_STAT_BASE(writes),
    CTRL_STAT_FN("accesses", ctrl_stat_accesses), /* no atomics: they are done in the L1s */
    CTRL_STAT_BASE(misses),                       /* DRAM fetches */
    CTRL_STAT_BASE(writebacks),
    CTRL_STAT_OWN(struct l2_stats, invs_sent),
    CTRL_STAT_OWN(struct l2_stats, recalls_sent),
    CTRL_STAT_BASE(acks),
    CTRL_STAT_OWN(struct l2_stats, forwards),
    CTRL_STAT_OWN(struct l2_stats, putx),
    CTRL_STAT_OWN(struct l2_stats, putx_old),
    CTRL_STAT_BASE(resource_stalls),
    CTRL_STAT_BASE(protocol_stalls),
    CTRL_STAT_END,
};

struct comp *mesi_l2_create(const struct ctrl_wiring *w)
{
    panic_if(w->n_sms > MESI_MAX_SHARERS, "mesi: %u SMs passed mesi_check", w->n_sms);
    struct mesi_l2 *c = ctrl_alloc(sizeof *c);
    ctrl_l2_init(&c->base, w, &mesi_l2_table, mesi_l2_tick, mesi_l2_dump, 0x3E51);
    ctrl_set_stats(&c->base, mesi_l2_stat_rows, &c->st);
    return &c->base.comp;
}

static struct comp *mesi_noinv_l2_create(const struct ctrl_wiring *w)
{
    struct comp *cp = mesi_l2_create(w);
    ((struct mesi_l2 *)cp)->bug_forgets_inv = true;
    return cp;
}

void mesi_l2_destroy(struct comp *cp)
{
    struct mesi_l2 *c = (struct mesi_l2 *)cp;
    struct msg *m;
    while ((m = msg_list_pop(&c->fwd_out)))
        msg_free(c->base.w.msgs, m);
    ctrl_destroy(cp);
}

/* Host access between kernels. Kernel end wrote every owned line back, so
 * the current value is in the bank's copy if present, else in DRAM. A host
 * write sends no invalidations (the machine is idle): S copies in L1s go
 * stale, and every L1 drops its S lines at the next launch. */
void mesi_l2_dma(struct comp *cp, addr_t line, uint8_t *buf, const struct bytemask *wmask)
{
    struct mesi_l2 *c = (struct mesi_l2 *)cp;
    struct coh_ctx x;
    ctrl_lookup(&c->base, &x, line);
    if (x.state == L2_MT)
        panic("%s: host access to %#llx while an L1 owns it (E or M): only a kernel end, which "
              "writes owned lines back, makes host access safe",
              c->base.w.name, (unsigned long long)line);
    ctrl_l2_dma(&c->base, line, buf, wmask, x.state, is_transient(x.state));
}

/* ---- the protocol ---- */

static const struct coh_table *const mesi_tables[] = {&mesi_l1_table, &mesi_l2_table, NULL};

/* Symmetry over the L1s (struct proto_symmetry): the message types by sender;
 * the bank's sharer vectors name L1s (the owner of an MT line too). mesi-noinv's
 * bug forgets the invalidation of the lowest-numbered other sharer: on 2 L1s
 * the only other one, on 3 a choice by number that a relabelling would not keep. */
#define MESI_UP                                                                                    \
    (PROTO_MSG_BIT(MSG_MESI_GETS) | PROTO_MSG_BIT(MSG_MESI_GETX) |                                 \
     PROTO_MSG_BIT(MSG_MESI_UPGRADE) | PROTO_MSG_BIT(MSG_MESI_PUTX) |                              \
     PROTO_MSG_BIT(MSG_MESI_INV_ACK) | PROTO_MSG_BIT(MSG_MESI_OWNER_DATA) |                        \
     PROTO_MSG_BIT(MSG_MESI_UNBLOCK))
#define MESI_DOWN                                                                                  \
    (PROTO_MSG_BIT(MSG_MESI_DATA) | PROTO_MSG_BIT(MSG_MESI_DATA_E) |                               \
     PROTO_MSG_BIT(MSG_MESI_DATA_X) | PROTO_MSG_BIT(MSG_MESI_ACK_X) |                              \
     PROTO_MSG_BIT(MSG_MESI_FWD_GETS) | PROTO_MSG_BIT(MSG_MESI_FWD_GETX) |                         \
     PROTO_MSG_BIT(MSG_MESI_INV) | PROTO_MSG_BIT(MSG_MESI_WB_ACK))
static const struct proto_symmetry mesi_symmetry = {
    .up = MESI_UP, .down = MESI_DOWN, .l2_sharers = true, .data_blind = true};
static const struct proto_symmetry mesi_noinv_symmetry = {
    .up = MESI_UP,
    .down = MESI_DOWN,
    .l2_sharers = true,
    .only_l1s = 2,
    .only_why = "its seeded bug skips the lowest-numbered other sharer",
    .data_blind = true};

/* What `gpucoh verify` reads (struct proto_verify): MESI takes a way when a
 * miss is sent (mesi_l1.c, mesi_l2.c), and the fill (fill_line,
 * ctrl_l2_fill_line) copies the whole line over it. */
static const struct proto_verify mesi_verify = {.l1_unfilled = "IS IM IS_I",
                                                .l2_unfilled = "ISS IM"};

static const char *mesi_check(const struct machine_view *c, char *why, size_t len)
{
    const char *key = coh_sharers_check(c, why, len);
    if (key)
        return key;
    if (c->l1.mshrs < 2) {
        snprintf(why, len, "l1.mshrs = %u, but a miss that replaces an owned line needs 2",
                 c->l1.mshrs);
        return "l1.mshrs";
    }
    return NULL;
}

const struct proto_desc proto_mesi = {
    .name = "mesi",
    .title = "MESI: write-back, write-allocate L1s (atomics at the L1 in M), inclusive L2 "
             "directory with forwards, unblocks and recalls (gem5 MESI_Two_Level)",
    .model = MODEL_PTX,
    .write_atomic = true,
    .check = mesi_check,
    .attach = mesi_swmr_attach,
    .detach = mesi_swmr_detach,
    .n_vnets = MESI_NVNETS,
    .vnet_names = mesi_vnet_names,
    .tables = mesi_tables,
    .n_l1_tables = 1,
    .l1 = {mesi_l1_create, ctrl_connect, ctrl_in_port, mesi_l1_destroy, NULL, ctrl_peek,
           ctrl_stats},
    .l2 = {mesi_l2_create, ctrl_l2_connect, ctrl_in_port, mesi_l2_destroy, mesi_l2_dma, ctrl_peek,
           ctrl_stats},
    .symmetry = &mesi_symmetry,
    .verify = &mesi_verify,
};

const struct proto_desc proto_mesi_noinv = {
    .name = "mesi-noinv",
    .title = "mesi with a deliberate bug for testing the checkers: a write's invalidation of "
             "the first other S copy is never sent nor its ack expected",
    .test_only = true,
    .model = MODEL_PTX,
    .write_atomic = true,
    .check = mesi_check,
    .attach = mesi_swmr_attach,
    .detach = mesi_swmr_detach,
    .n_vnets = MESI_NVNETS,
    .vnet_names = mesi_vnet_names,
    .tables = mesi_tables,
    .n_l1_tables = 1,
    .l1 = {mesi_l1_create, ctrl_connect, ctrl_in_port, mesi_l1_destroy, NULL, ctrl_peek,
           ctrl_stats},
    .l2 = {mesi_noinv_l2_create, ctrl_l2_connect, ctrl_in_port, mesi_l2_destroy, mesi_l2_dma,
           ctrl_peek, ctrl_stats},
    .symmetry = &mesi_noinv_symmetry,
    .verify = &mesi_verify,
};
