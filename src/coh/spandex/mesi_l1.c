/*
 * mesi_l1.c - the MESI device L1 on the Spandex LLC (spec 003 §2.7, Table
 * 1): line granularity, writer-invalidated shared copies and ownership for
 * writes, as the CPU L1s of the paper's SMG and SMD designs (cpu.device =
 * mesi; docs/cpu.md).
 *
 * Requests (spandex.h): a load miss sends ReqS for the line and keeps it
 * Shared: the LLC registers the L1 as a sharer and invalidates the copy
 * (Inv, answered with InvAck) before any write or ownership request to the
 * line completes, so no acquire needs to drop it. A store or atomic to a
 * line not Modified sends ReqO+data for every word of the line (MESI's
 * read-for-ownership) and is performed here once the grant and every old
 * owner's relayed words are in; the line is then Modified: every word owned,
 * loads, stores and atomics hit. Owned words serve the LLC's forwards as a
 * DeNovo owner does: FwdReqV (send them, keep them), FwdReqO (to the new
 * owner through the LLC) and RvkO (back to the LLC); a line that loses any
 * word to a FwdReqO or RvkO writes the others back (ReqWB) and leaves, since
 * a MESI line is owned whole or not at all; an RvkO that finds no TBE or
 * request slot free for that write-back gives every word back in its answer
 * instead, since the LLC waits for it (R) and may take the requests that
 * hold the TBEs only after it. Forwards that reach a line whose
 * grant is still on its way wait for the grant (they were sent after it).
 * An Inv that overtakes the fill of a ReqS (the LLC answered the ReqS before
 * the write that sent the Inv) lets the fill answer its load, which was
 * ordered before the write, but not install.
 * An evicted Shared line is dropped silently (an Inv to an L1 that no longer
 * holds the line is just acknowledged); a Modified line is written back and
 * kept, serving forwards, until the write-back's ack.
 * Acquires and releases need nothing here: Shared copies are never stale
 * and stores complete once owned.
 * DEVIATION (as the DeNovo L1's): Modified lines are written back at kernel
 * end and Shared lines dropped at kernel start, because the host's copies
 * between kernels read and write the LLC. One request per line is
 * outstanding (a second miss to a busy line waits for the first).
 * Per line: meta[1] the owned words (all of them in M; in MI the ones not
 * yet taken by a forward). Per TBE: meta[0] words whose ownership is pending,
 * meta[1] the held store or atomic, acks the relays still expected,
 * pending the grant or fill still expected.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "base/log.h"
#include "coh/spandex/spandex.h"
#include "mem/observe.h"

#define ME_STATES(X)                                                                               \
    X(I, "not present")                                                                            \
    X(S, "Shared: a registered copy of the line, invalidated by the LLC before any write")         \
    X(M, "Modified: every word owned (current here, serve forwards)")                              \
    X(IS, "a ReqS is outstanding for the line")                                                    \
    X(IM, "a ReqO+data is outstanding for the line (grant and relays to collect)")                 \
    X(MI, "owned words written back (eviction, kernel end, a word taken); kept until the ack")

#define ME_EVENTS(X)                                                                               \
    X(Load, "load")                                                                                \
    X(Store, "store")                                                                              \
    X(Atomic, "atomic")                                                                            \
    X(Replace, "a fill needs this line's way")                                                     \
    X(KernelStart, "kernel start: drop Shared lines (the host may have written the LLC)")          \
    X(Flush, "kernel end: write the owned words back")                                             \
    X(Fill, "the ReqS response: the line")                                                         \
    X(FillInvalid, "the ReqS response after an Inv overtook it: answers the load only")            \
    X(Grant, "RspO, relays still expected")                                                        \
    X(GrantDone, "RspO with every relay in: perform the store or atomic")                          \
    X(Relay, "an old owner's words, more expected")                                                \
    X(RelayDone, "the last old owner's words with the grant in: perform")                          \
    X(WbAck, "RspWB: the write-back is in")                                                        \
    X(Inv, "Inv: the LLC invalidates the line's copies")                                           \
    X(FwdV, "FwdReqV: send the owned words, keep them")                                            \
    X(FwdO, "FwdReqO or RvkO taking some owned words: send them, write the others back")           \
    X(FwdOLast, "FwdReqO or RvkO taking the line's last owned words")                              \
    X(FwdPending, "a forward for words whose grant is still on its way")                           \
    X(FwdNack, "a forwarded write-through or predicted request: not served here, Nack")

#define X(n, d) ME_##n,
enum me_state { ME_STATES(X) ME_NSTATES };
enum me_event { ME_EVENTS(X) ME_NEVENTS };
#undef X
COH_NAMES(ME_STATES, ME_EVENTS);

struct me_stats {
    uint64_t store_hits, atomic_hits, shared_reads, ownership_requests, forwards_served,
        invalidations, writebacks, fills_dropped, nacks_sent;
};

struct me_l1 {
    struct ctrl base;
    struct msg_list kend; /* KERNEL_END requests waiting for the flush */
    struct me_stats st;
};

static struct me_l1 *me_of(void *p)
{
    return p;
}

static uint64_t *owned_of(struct cache_line *l)
{
    return &l->meta[1];
}

/* ---- actions ---- */

static void take_way_now(struct coh_ctx *x)
{
    ctrl_take_way(x);
    *owned_of(x->line) = 0;
}

static void send_req_s(struct coh_ctx *x)
{
    me_of(x->ctrl)->st.shared_reads++;
    x->tbe->use_once = false;
    ctrl_l1_send_gets(x, SPX_REQ_S, true, 0);
}

/* ReqO+data for the whole line; the store or atomic waits in the TBE. */
static void send_req_o(struct coh_ctx *x)
{
    struct me_l1 *c = me_of(x->ctrl);
    struct msg *m = x->msg;
    if (m->req.op == MEM_ATOMIC)
        c->base.st.atomics++;
    else
        c->base.st.stores++;
    c->st.ownership_requests++;
    uint64_t all = spx_all_words(c->base.line_bytes);
    x->tbe->meta[0] = all;
    x->tbe->meta[1] = (uint64_t)(uintptr_t)m;
    x->tbe->acks = 0;
    x->tbe->pending++;
    struct msg *r = msg_new(c->base.w.msgs, SPX_REQ_O_DATA, x->addr, c->base.comp.eng->now);
    spx_bytes_of(&r->mask, all, c->base.line_bytes);
    r->req = m->req;
    r->req.atom = NULL;
    ctrl_to_home(&c->base, r, SPX_REQ_O_DATA, SPX_VNET_REQ, TRAFFIC_REQ, 0);
    x->msg = NULL;
}

/* A write here (the observer checks no other L1 owns the words). */
static void note_write(struct me_l1 *c, struct cache_line *l)
{
    if (c->base.w.obs)
        spx_obs_write(c->base.w.proto_ctx, c->base.w.name, c->base.w.index, l->addr,
                      spx_all_words(c->base.line_bytes));
}

/* Perform a store or atomic on the Modified line and answer it. */
static void perform(struct me_l1 *c, struct cache_line *l, struct msg *m, tick_t delay)
{
    note_write(c, l);
    if (m->req.op == MEM_ATOMIC)
        ctrl_apply_atomic(&c->base, l, m);
    else
        ctrl_apply_store(&c->base, l, m);
    cache_touch(&c->base.cache, l);
    ctrl_to_core(&c->base, m, delay);
}

static void store_hit(struct coh_ctx *x)
{
    struct me_l1 *c = me_of(x->ctrl);
    c->st.store_hits++;
    c->base.st.stores++;
    perform(c, x->line, x->msg, c->base.hit_ps);
    x->msg = NULL;
}

static void atomic_hit(struct coh_ctx *x)
{
    struct me_l1 *c = me_of(x->ctrl);
    c->st.atomic_hits++;
    c->base.st.atomics++;
    perform(c, x->line, x->msg, c->base.hit_ps);
    x->msg = NULL;
}

/* The ReqS response: the line (unless an Inv overtook it: then it only
 * answers its load). */
static void fill(struct coh_ctx *x)
{
    struct me_l1 *c = me_of(x->ctrl);
    struct msg *m = x->msg;
    if (x->event == ME_FillInvalid) {
        c->st.fills_dropped++;
    } else {
        memcpy(x->line->data, m->data, c->base.line_bytes);
        c->base.st.fills++;
    }
    x->tbe->pending--;
    ctrl_to_core(&c->base, m, 0);
    x->msg = NULL;
}

static void take_grant(struct coh_ctx *x)
{
    struct me_l1 *c = me_of(x->ctrl);
    struct msg *m = x->msg;
    bytes_merge(x->line->data, m->data, &m->mask, c->base.line_bytes);
    x->tbe->acks += m->acks;
    x->tbe->pending--;
    msg_free(c->base.w.msgs, m);
    x->msg = NULL;
}

static void take_relay(struct coh_ctx *x)
{
    struct me_l1 *c = me_of(x->ctrl);
    struct msg *m = x->msg;
    bytes_merge(x->line->data, m->data, &m->mask, c->base.line_bytes); /* +data: words came */
    x->tbe->acks--;
    msg_free(c->base.w.msgs, m);
    x->msg = NULL;
}

/* The grant and every relay are in: the whole line is owned and current. */
static void perform_held(struct coh_ctx *x)
{
    struct me_l1 *c = me_of(x->ctrl);
    struct msg *m = (struct msg *)(uintptr_t)x->tbe->meta[1];
    *owned_of(x->line) = x->tbe->meta[0];
    x->tbe->meta[0] = 0;
    x->tbe->meta[1] = 0;
    perform(c, x->line, m, 0);
}

/* A forward: the owned words of msg->mask go to the LLC (relayed on to the
 * new owner for FwdReqO); FwdReqO and RvkO take them from here. */
static void serve_forward(struct coh_ctx *x)
{
    struct me_l1 *c = me_of(x->ctrl);
    bool keep = x->msg->type == SPX_FWD_V;
    c->st.forwards_served++;
    uint64_t words = spx_dev_answer_forward(&c->base, x, *owned_of(x->line));
    if (!keep)
        *owned_of(x->line) &= ~words;
}

/* ReqWB of the owned words; the line stays (serving forwards) until the ack. */
static void send_wb(struct coh_ctx *x)
{
    struct me_l1 *c = me_of(x->ctrl);
    c->st.writebacks++;
    spx_dev_send_wb(&c->base, x, *owned_of(x->line));
}

static void free_msg(struct coh_ctx *x)
{
    msg_free(me_of(x->ctrl)->base.w.msgs, x->msg);
    x->msg = NULL;
}

/* Inv: acknowledged (whether or not the line is here); a fill still on its
 * way will not install. */
static void ack_inv(struct coh_ctx *x)
{
    struct me_l1 *c = me_of(x->ctrl);
    struct msg *m = x->msg;
    c->st.invalidations++;
    if (x->tbe && x->state == ME_IS)
        x->tbe->use_once = true;
    x->msg = NULL;
    ctrl_to_home(&c->base, m, SPX_INV_ACK, SPX_VNET_FWDRSP, TRAFFIC_INV, 0);
}

/* A forwarded write-through or predicted request (spec 003 §2.6): the MESI
 * device keeps state per line and takes no forwarded updates (Table 1 gives
 * these types to FCS devices), so it Nacks whatever it holds; the requester
 * retries at the LLC with ReqV, ReqWT or ReqWT+data, which revoke or read
 * the line as they do for any owner. */
static void nack(struct coh_ctx *x)
{
    struct me_l1 *c = me_of(x->ctrl);
    c->st.nacks_sent++;
    spx_dev_answer_owner(&c->base, x, SPX_F_NACK, TRAFFIC_REQ, 0);
}

static const struct coh_action_name actions[] = {
    {ctrl_alloc_tbe, "alloc_tbe", "allocate a TBE for the line"},
    {ctrl_wake_parked, "wake_parked",
     "free the TBE; its parked requests replay before younger ones for the line"},
    {take_way_now, "take_way", "install the line in a free way, no word owned"},
    {send_req_s, "send_req_s", "ReqS for the line (registered as a sharer)"},
    {send_req_o, "send_req_o", "ReqO+data for every word of the line; hold the store or atomic"},
    {ctrl_l1_reply_hit, "reply_hit", "answer the load from the line after the hit latency"},
    {store_hit, "store_hit", "write the line, ack after the hit latency"},
    {atomic_hit, "atomic_hit", "perform the atomic here"},
    {fill, "fill", "the line takes the response (unless an Inv overtook it); answer the load"},
    {take_grant, "take_grant", "merge the LLC's words, count the relays to expect"},
    {take_relay, "take_relay", "merge an old owner's words"},
    {perform_held, "perform", "own the whole line; perform the held store or atomic and answer it"},
    {serve_forward, "serve_forward",
     "send the owned words to the LLC (FwdReqO: relayed to the new owner); FwdReqO/RvkO drop them"},
    {send_wb, "send_wb", "ReqWB of the owned words; keep the line until the ack"},
    {free_msg, "wb_done", "the write-back is in"},
    {ack_inv, "ack_inv", "InvAck to the LLC; a fill on its way will not install"},
    {nack, "nack", "answer Nack through the LLC: nothing done"},
    {ctrl_drop_line, "drop_line", "free the way"},
    {ctrl_park, "park", "wait until the line's state changes"},
    {0},
};

/* The core's requests wait in state s (a line with a request out). */
#define CORE_STALLS(s) [s][ME_Load] = STALL, [s][ME_Store] = STALL, [s][ME_Atomic] = STALL

/*  state    event              next    uses               actions                             */
static const struct coh_trans me_cells[ME_NSTATES][ME_NEVENTS] = {
    [ME_I][ME_Load] = DO(ME_IS, TAG_RD | TAG_WR, take_way_now, ctrl_alloc_tbe, send_req_s),
    [ME_I][ME_Store] = DO(ME_IM, TAG_RD | TAG_WR, take_way_now, ctrl_alloc_tbe, send_req_o),
    [ME_I][ME_Atomic] = DO(ME_IM, TAG_RD | TAG_WR, take_way_now, ctrl_alloc_tbe, send_req_o),
    [ME_I][ME_Inv] = DO(ME_I, 0, ack_inv),
    [ME_I][ME_FwdNack] = DO(ME_I, 0, nack),
    [ME_S][ME_Load] = DO(ME_S, TAG_RD | DATA_RD, ctrl_l1_reply_hit),
    [ME_S][ME_Store] = DO(ME_IM, TAG_RD, ctrl_alloc_tbe, send_req_o),
    [ME_S][ME_Atomic] = DO(ME_IM, TAG_RD, ctrl_alloc_tbe, send_req_o),
    [ME_S][ME_Replace] = DO(ME_I, TAG_WR, ctrl_drop_line),
    [ME_S][ME_KernelStart] = DO(ME_I, TAG_WR, ctrl_drop_line),
    [ME_S][ME_Inv] = DO(ME_I, TAG_WR, ack_inv, ctrl_drop_line),
    [ME_S][ME_FwdNack] = DO(ME_S, 0, nack),
    [ME_M][ME_Load] = DO(ME_M, TAG_RD | DATA_RD, ctrl_l1_reply_hit),
    [ME_M][ME_Store] = DO(ME_M, TAG_RD | DATA_WR, store_hit),
    [ME_M][ME_Atomic] = DO(ME_M, TAG_RD | DATA_RD | DATA_WR, atomic_hit),
    [ME_M][ME_Replace] = DO(ME_MI, TAG_RD | DATA_RD, ctrl_alloc_tbe, send_wb),
    [ME_M][ME_Flush] = DO(ME_MI, TAG_RD | DATA_RD, ctrl_alloc_tbe, send_wb),
    [ME_M][ME_FwdV] = DO(ME_M, DATA_RD, serve_forward),
    [ME_M][ME_FwdO] = DO(ME_MI, DATA_RD | TAG_WR, serve_forward, ctrl_alloc_tbe, send_wb),
    [ME_M][ME_FwdOLast] = DO(ME_I, DATA_RD | TAG_WR, serve_forward, ctrl_drop_line),
    [ME_M][ME_FwdNack] = DO(ME_M, 0, nack),
    CORE_STALLS(ME_IS),
    [ME_IS][ME_Fill] = DO(ME_S, TAG_WR | DATA_WR, fill, ctrl_wake_parked),
    [ME_IS][ME_FillInvalid] = DO(ME_I, TAG_WR, fill, ctrl_drop_line, ctrl_wake_parked),
    [ME_IS][ME_Inv] = DO(ME_IS, 0, ack_inv),
    [ME_IS][ME_FwdNack] = DO(ME_IS, 0, nack),
    CORE_STALLS(ME_IM),
    [ME_IM][ME_Grant] = DO(ME_IM, DATA_WR, take_grant),
    [ME_IM][ME_GrantDone] = DO(ME_M, TAG_WR | DATA_WR, take_grant, perform_held, ctrl_wake_parked),
    [ME_IM][ME_Relay] = DO(ME_IM, DATA_WR, take_relay),
    [ME_IM][ME_RelayDone] = DO(ME_M, TAG_WR | DATA_WR, take_relay, perform_held, ctrl_wake_parked),
    [ME_IM][ME_Inv] = DO(ME_IM, 0, ack_inv),
    [ME_IM][ME_FwdPending] = DO(ME_IM, 0, ctrl_park),
    [ME_IM][ME_FwdNack] = DO(ME_IM, 0, nack),
    CORE_STALLS(ME_MI),
    [ME_MI][ME_FwdV] = DO(ME_MI, DATA_RD, serve_forward),
    [ME_MI][ME_FwdO] = DO(ME_MI, DATA_RD, serve_forward),
    [ME_MI][ME_FwdOLast] = DO(ME_MI, DATA_RD, serve_forward),
    [ME_MI][ME_WbAck] = DO(ME_I, TAG_WR, free_msg, ctrl_drop_line, ctrl_wake_parked),
    [ME_MI][ME_FwdNack] = DO(ME_MI, 0, nack),
};

static void dump_ctx(struct coh_ctx *x, FILE *out)
{
    if (x->line)
        fprintf(out, "  line %#llx: %s owned %#llx\n", (unsigned long long)x->line->addr,
                state_names[x->line->state], (unsigned long long)*owned_of(x->line));
    if (x->tbe)
        fprintf(out, "  tbe %#llx: %s pending %d relays %d words %#llx parked %u\n",
                (unsigned long long)x->tbe->addr, state_names[x->tbe->state], x->tbe->pending,
                x->tbe->acks, (unsigned long long)x->tbe->meta[0], x->tbe->parked.n);
}

const struct coh_table spx_mesi_l1_table =
    COH_TABLE("spandex", "MESI-L1", me_cells, ctrl_set_state, dump_ctx);

/* ---- classifier ---- */

static unsigned classify_core(const struct msg *m)
{
    switch (m->req.op) {
    case MEM_LOAD:
        return ME_Load;
    case MEM_STORE:
        return ME_Store;
    default:
        return ME_Atomic;
    }
}

static bool evictable(const struct cache_line *l, void *arg)
{
    (void)arg;
    return l->state == ME_S || l->state == ME_M;
}

static void order_op(struct ctrl *b, struct msg *m);

/* Room to write a line's other words back: a TBE (MI) and a request slot. */
static bool wb_room(struct ctrl *b)
{
    return port_has_room(b->links.net_out[SPX_VNET_REQ], 1) && !tbe_full(&b->tbes);
}

static void take_forward(struct ctrl *b, struct msg *m)
{
    struct coh_ctx x;
    ctrl_lookup(b, &x, m->addr);
    x.msg = m;
    if (m->type == SPX_RSP_WB) {
        x.event = ME_WbAck;
    } else if (m->type == SPX_INV) {
        x.event = ME_Inv;
    } else if (m->type == SPX_FWD_WT || spx_predicted(m->type)) {
        x.event = ME_FwdNack;
    } else {
        uint64_t words = spx_fwd_words(m, b->line_bytes);
        panic_if(!x.line, "%s: forward for %#llx, which it does not hold", b->w.name,
                 (unsigned long long)m->addr);
        if (m->type == SPX_RVK_O && x.state == ME_M && (*owned_of(x.line) & ~words) &&
            !wb_room(b)) {
            /* The LLC waits for this answer (R), and the TBEs and requests
             * that a write-back of the other words needs may all wait on
             * requests the LLC takes only after it (their set's ways all
             * revoking): the answer gives every owned word back instead. */
            words = *owned_of(x.line);
            spx_bytes_of(&m->mask, words, b->line_bytes);
        }
        if (x.state == ME_IM && (words & x.tbe->meta[0]))
            x.event = ME_FwdPending;
        else if (m->type == SPX_FWD_V)
            x.event = ME_FwdV;
        else
            x.event = *owned_of(x.line) & ~words ? ME_FwdO : ME_FwdOLast;
    }
    ctrl_step(b, &x);
}

/* Room to take message m of the forward vnet: a forward or an Inv answers
 * on the forward-response vnet, and a FwdReqO that takes some of a Modified
 * line's words writes the rest back (wb_room); a write-back's ack needs
 * nothing, so the TBEs of lines in MI always free. A FwdReqO that takes
 * every word writes nothing back, and an RvkO never waits for that room
 * (take_forward), so that neither waits on the TBEs' requests. */
static bool fwd_room(struct ctrl *b, const struct msg *m)
{
    if (m->type == SPX_RSP_WB)
        return true;
    const struct cache_line *l = cache_find(&b->cache, m->addr);
    bool may_write_back = l && l->state == ME_M && m->type == SPX_FWD_O &&
                          (l->meta[1] & ~spx_words_of(&m->mask, b->line_bytes));
    return spx_dev_answer_room(b) && (!may_write_back || wb_room(b));
}

/* One core request (new or replayed), or a message of the forward vnet: a
 * forward that waited for a grant, or one queued behind such a forward. */
static bool take_core(struct ctrl *b, struct msg *m)
{
    if (spx_to_l1_on_fwd(m->type)) {
        if (!fwd_room(b, m)) {
            b->st.resource_stalls++;
            return false;
        }
        take_forward(b, m);
        return true;
    }
    struct coh_ctx x;
    enum ctrl_take r = ctrl_l1_begin(b, &x, m, order_op, spx_dev_room(b), NULL);
    if (r != CTRL_GO)
        return r == CTRL_TAKEN;
    x.event = classify_core(m);
    if (x.state == ME_I) {
        struct cache_line *way = cache_victim(&b->cache, m->addr, evictable, NULL);
        if (!way || (way->present && spx_dev_writing_back(b, m->addr, ME_MI))) {
            b->st.resource_stalls++; /* a way frees at a write-back's ack */
            return false;
        }
        if (way->present) {
            ctrl_fire(b, way->addr, NULL, ME_Replace);
            if (way->present) { /* written back: the way frees at the ack */
                b->st.resource_stalls++;
                return false;
            }
        }
    }
    ctrl_step_or_park(b, &x);
    return true;
}

static void take_response(struct ctrl *b, struct msg *m)
{
    struct coh_ctx x;
    ctrl_l1_response(b, &x, m);
    switch (m->type) {
    case SPX_RSP_V:
        x.event = x.tbe->use_once ? ME_FillInvalid : ME_Fill;
        break;
    case SPX_RSP_O:
        x.event = x.tbe->acks + m->acks != 0 ? ME_Grant : ME_GrantDone;
        break;
    default: /* SPX_RELAY */
        x.event = x.tbe->pending == 0 && x.tbe->acks == 1 ? ME_RelayDone : ME_Relay;
    }
    ctrl_step(b, &x);
}

static bool modified(const struct cache_line *l)
{
    return l->state == ME_M;
}

/* Kernel end: write every Modified line back; answer the KERNEL_END once
 * none is left and every write-back is acknowledged. */
static bool flush_step(struct me_l1 *c)
{
    return ctrl_l1_flush_step(&c->base, &c->kend, modified, ME_Flush,
                              c->base.links.net_out[SPX_VNET_REQ]);
}

static void drop_shared(struct cache_line *l, void *arg)
{
    struct ctrl *b = arg;
    if (l->state == ME_S)
        ctrl_fire(b, l->addr, NULL, ME_KernelStart);
}

static void order_op(struct ctrl *b, struct msg *m)
{
    struct me_l1 *c = me_of(b);
    switch (m->req.op) {
    case MEM_KERNEL_END:
        msg_list_push(&c->kend, m);
        flush_step(c);
        return;
    case MEM_KERNEL_BEGIN:
        cache_for_each(&b->cache, drop_shared, b);
        break;
    default: /* fences: Shared copies are never stale, stores are done when acked */
        break;
    }
    ctrl_to_core(b, m, 0);
}

static bool me_tick(struct comp *cp)
{
    struct me_l1 *c = me_of(cp);
    struct ctrl *b = &c->base;
    bool moved = false, blocked = false;
    struct port *fwd = b->links.net_in[SPX_VNET_FWD], *rsp = b->links.net_in[SPX_VNET_RSP];
    ctrl_tick_begin(b);
    spx_dev_take_forwards(b, fwd_room, take_forward, &moved, &blocked);
    if (port_peek(rsp)) {
        take_response(b, port_pop(rsp));
        moved = true;
    }
    if (c->kend.n && flush_step(c))
        moved = blocked = true;
    moved |= ctrl_take_next(b, &b->in, take_core);
    if (moved)
        return true;
    if (blocked || b->replay.n || port_peek(&b->in)) {
        struct port *const in[] = {fwd, rsp};
        return ctrl_stall_sleep(b, in, 2);
    }
    return false;
}

static void me_dump(struct comp *cp, FILE *out)
{
    struct me_l1 *c = me_of(cp);
    spx_dev_dump(&c->base, "MESI device L1", c->kend.n, out);
}

static const struct ctrl_stat me_stat_rows[] = {
    CTRL_STATS_L1_ACCESSES,
    CTRL_STAT_OWN(struct me_stats, store_hits),
    CTRL_STAT_OWN(struct me_stats, atomic_hits),
    CTRL_STAT_OWN(struct me_stats, shared_reads),
    CTRL_STAT_OWN(struct me_stats, ownership_requests),
    CTRL_STAT_OWN(struct me_stats, forwards_served),
    CTRL_STAT_OWN(struct me_stats, invalidations),
    CTRL_STAT_OWN(struct me_stats, writebacks),
    CTRL_STAT_OWN(struct me_stats, nacks_sent),
    CTRL_STAT_BASE(fills),
    CTRL_STAT_OWN(struct me_stats, fills_dropped),
    CTRL_STAT_BASE(resource_stalls),
    CTRL_STAT_BASE(protocol_stalls),
    CTRL_STAT_END,
};

/* The words of `line` this L1 owns where it may write them (observer). */
static uint64_t owned_writable(struct comp *cp, addr_t line)
{
    struct cache_line *l = cache_find(&me_of(cp)->base.cache, line);
    return l && l->state == ME_M ? *owned_of(l) : 0;
}

static void me_destroy(struct comp *cp)
{
    struct me_l1 *c = me_of(cp);
    if (c->base.w.obs)
        spx_obs_l1_gone(c->base.w.proto_ctx, c->base.w.index);
    ctrl_destroy(cp);
}

static struct comp *me_create(const struct ctrl_wiring *w)
{
    struct me_l1 *c = ctrl_alloc(sizeof *c);
    ctrl_l1_init(&c->base, w, &spx_mesi_l1_table, me_tick, me_dump);
    ctrl_set_stats(&c->base, me_stat_rows, &c->st);
    if (c->base.line_bytes / SPX_WORD_BYTES > 64 || c->base.line_bytes % SPX_WORD_BYTES)
        fatal("%s: Spandex keeps per-word state for at most 64 words a line", w->name);
    if (w->obs)
        spx_obs_l1(w->proto_ctx, w->index, w->n_sms, &c->base.comp, owned_writable);
    return &c->base.comp;
}

const struct ctrl_ops spx_mesi_l1_ops = {me_create, ctrl_connect, ctrl_in_port, me_destroy,
                                         NULL,      ctrl_peek,    ctrl_stats};
