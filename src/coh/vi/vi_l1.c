/*
 * vi_l1.c - the L1 of GPU-VI, GPU-VIni and the ideal reference: a coherent
 * write-through, write-no-allocate L1 with states I, V, VM, IV, II.
 *
 * Spec 002 §3.4 (after paper §4.2): loads fill; a store writes through and,
 * on a valid line, writes its bytes into the L1 at once (Opt 1: no store
 * buffer) and leaves the line in VM until every response outstanding on it
 * has returned; a load to a VM line is sent to the L2 and answered without a
 * fill (Opt 2: no stall, and no early view of the warp's own pending write,
 * which keeps write atomicity); atomics are performed at the L2 and drop the
 * local copy first. Invalidations from the L2 drop the line and are
 * acknowledged in every state, because sharer bits go stale after silent
 * evictions. The INV/DATA race: an INV that reaches a line whose fill is in
 * flight (IV) may belong to a write the L2 serialised after the fill's read,
 * so the fill answers the loads merged behind it once and is not cached
 * (IV -> II: II never fills).
 * Fences need no action (the SM already waited for the warp's accesses, and
 * the protocol is coherent and write-atomic); a kernel launch flash-
 * invalidates the L1, because the host may have written lines between kernels
 * through the L2's idle-time access, which sends no invalidations.
 * The ideal variant (spec 002 §3.3) differs in one action: its invalidations
 * arrive on a free zero-latency channel and need no ack.
 * INVARIANT: a V line equals the L2's value of the line; a VM line equals it
 *   once the writes outstanding on it are performed; no load merges into a
 *   fill that an invalidation or a store overtook (II).
 * DEVIATION: the spec stalls VM + Evict; here a VM line is dropped (-> II):
 *   stalling a fill behind write acks on the same vnet could deadlock, and a
 *   write-through line loses nothing when dropped.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "base/log.h"
#include "coh/ctrl.h"
#include "coh/vi/vi.h"
#include "mem/observe.h"

_Static_assert((int)VI_VNET_REQ == CTRL_VNET_REQ && (int)VI_VNET_RSP == CTRL_VNET_RSP,
               "the VI L1 sends on the write-through vnets");

#define VI_L1_STATES(X)                                                                            \
    X(I, "not present")                                                                            \
    X(V, "valid: equals the L2's value")                                                           \
    X(VM, "valid, with this L1's writes outstanding (already written into the line)")              \
    X(IV, "load miss outstanding; the fill will be installed")                                     \
    X(II, "requests outstanding whose responses must not fill (write, atomic, load at the L2, "    \
          "invalidated fill)")

#define VI_L1_EVENTS(X)                                                                            \
    X(Load, "load from the SM (any semantics and scope: the L1 is coherent)")                      \
    X(MergeFull, "load to a line whose outstanding fill has merged merge_max loads")               \
    X(Store, "store from the SM (write-through)")                                                  \
    X(Atomic, "atomic from the SM (performed at the L2)")                                          \
    X(Replace, "a fill needs this line's way")                                                     \
    X(FlashInv, "kernel launch: invalidate every line and outstanding fill")                       \
    X(Inv, "invalidation or recall from the L2")                                                   \
    X(Data, "the fill of the line's outstanding miss")                                             \
    X(Rsp, "a response (data, write ack, atomic result) with more outstanding")                    \
    X(LastRsp, "the last outstanding response of the line")

#define X(n, d) L1_##n,
enum l1_state { VI_L1_STATES(X) L1_NSTATES };
enum l1_event { VI_L1_EVENTS(X) L1_NEVENTS };
#undef X
COH_NAMES(VI_L1_STATES, VI_L1_EVENTS);

struct l1_stats {
    uint64_t invalidations, lines_invalidated, fills_used_once, flash_invalidations;
};

struct vi_l1 {
    struct ctrl base;
    struct port bus_in;  /* ideal: the free invalidation channel */
    struct port *inv_in; /* where invalidations arrive (INV vnet or bus_in) */
    bool ideal;          /* invalidations need no ack */
    struct l1_stats st;
};

static struct vi_l1 *l1_of(void *p)
{
    return p;
}

/* ---- actions ---- */

static void send_gets(struct coh_ctx *x)
{
    ctrl_l1_send_gets(x, MSG_VI_GETS, x->state == L1_I, VI_F_MERGED);
}

static void send_write(struct coh_ctx *x)
{
    ctrl_l1_send_write(x, MSG_VI_WRITE);
}

static void send_atomic(struct coh_ctx *x)
{
    ctrl_l1_send_atomic(x, MSG_VI_ATOMIC);
}

static void reply_hit(struct coh_ctx *x)
{
    struct vi_l1 *c = l1_of(x->ctrl);
    if (c->base.w.obs) /* coherent: a hit returns the current value of every byte */
        obs_check(c->base.w.obs, c->base.w.name, x->addr, x->line->data, NULL);
    ctrl_l1_reply_hit(x);
}

/* Answer the response's own request and, for the merged fill, every load
 * merged behind it. The data is copied before the message is reused. */
static void reply_rsp(struct coh_ctx *x)
{
    struct vi_l1 *c = l1_of(x->ctrl);
    struct msg *m = x->msg;
    x->tbe->pending--;
    if (m->flags & VI_F_MERGED) {
        if (x->state == L1_II)
            c->st.fills_used_once++;
        ctrl_l1_answer_merged(&c->base, x->tbe, m->data);
    }
    ctrl_to_core(&c->base, m, 0);
    x->msg = NULL;
}

/* The INV becomes its INVACK, in the INV's traffic class; the ideal L2 waits
 * for nothing, so there the INV is simply consumed. */
static void ack_inv(struct coh_ctx *x)
{
    struct vi_l1 *c = l1_of(x->ctrl);
    struct msg *m = x->msg;
    c->st.invalidations++;
    x->msg = NULL;
    if (c->ideal) {
        msg_free(c->base.w.msgs, m);
        return;
    }
    m->type = MSG_VI_INVACK;
    m->vnet = VI_VNET_ACK;
    m->dst = m->src;
    m->src = (uint16_t)c->base.w.index;
    m->size_bytes = 0;
    if (!port_send(c->base.links.net_out[VI_VNET_ACK], m))
        panic("%s: ack port full after room check", c->base.w.name);
}

static void count_inv(struct coh_ctx *x)
{
    l1_of(x->ctrl)->st.lines_invalidated++;
}

static const struct coh_action_name actions[] = {
    {ctrl_alloc_tbe, "alloc_tbe", "allocate a TBE for the line"},
    {ctrl_free_tbe, "free_tbe", "free the TBE and replay requests parked on it"},
    {send_gets, "send_gets", "send a read to the home L2 bank"},
    {send_write, "send_write", "write the masked bytes through to the L2"},
    {send_atomic, "send_atomic", "send the atomic to the L2"},
    {ctrl_l1_merge_load, "merge_load", "answer this load with the outstanding fill"},
    {reply_hit, "reply_hit", "answer the load from the line after the hit latency"},
    {ctrl_l1_write_line, "write_line", "write the store's bytes into the line at once (Opt 1)"},
    {ctrl_drop_line, "drop_line",
     "invalidate the line (silently: write-through keeps the L2 current)"},
    {ctrl_l1_fill_line, "fill_line", "install the fill in a free way"},
    {reply_rsp, "reply_rsp", "answer the request (and, for the fill, the loads merged behind it)"},
    {ack_inv, "ack_inv",
     "answer the invalidation with an INVACK of its class (ideal: consume it, nobody waits)"},
    {count_inv, "count_inv", "count a valid copy lost to an invalidation"},
    {ctrl_nothing, "nothing", "no action: the outstanding fill will not be installed"},
    {0},
};

/* ---- the table ---- */

/*  state    event            next   uses               actions                                  */
static const struct coh_trans vi_l1_cells[L1_NSTATES][L1_NEVENTS] = {
    [L1_I][L1_Load] = DO(L1_IV, TAG_RD, ctrl_alloc_tbe, send_gets),
    [L1_I][L1_Store] = DO(L1_II, TAG_RD, ctrl_alloc_tbe, send_write),
    [L1_I][L1_Atomic] = DO(L1_II, TAG_RD, ctrl_alloc_tbe, send_atomic),
    [L1_I][L1_Inv] = DO(L1_I, TAG_RD, ack_inv), /* stale sharer bit */
    [L1_V][L1_Load] = DO(L1_V, TAG_RD | DATA_RD, reply_hit),
    [L1_V][L1_Store] = DO(L1_VM, TAG_RD | DATA_WR, ctrl_l1_write_line, ctrl_alloc_tbe, send_write),
    [L1_V][L1_Atomic] = DO(L1_II, TAG_RD | TAG_WR, ctrl_drop_line, ctrl_alloc_tbe, send_atomic),
    [L1_V][L1_Replace] = DO(L1_I, TAG_WR, ctrl_drop_line),
    [L1_V][L1_FlashInv] = DO(L1_I, TAG_WR, ctrl_drop_line),
    [L1_V][L1_Inv] = DO(L1_I, TAG_WR, count_inv, ctrl_drop_line, ack_inv),
    [L1_VM][L1_Load] = DO(L1_VM, TAG_RD, send_gets), /* Opt 2 */
    [L1_VM][L1_Store] = DO(L1_VM, TAG_RD | DATA_WR, ctrl_l1_write_line, send_write),
    [L1_VM][L1_Atomic] = DO(L1_II, TAG_RD | TAG_WR, ctrl_drop_line, send_atomic),
    [L1_VM][L1_Replace] = DO(L1_II, TAG_WR, ctrl_drop_line),
    [L1_VM][L1_FlashInv] = DO(L1_II, TAG_WR, ctrl_drop_line),
    [L1_VM][L1_Inv] = DO(L1_II, TAG_WR, count_inv, ctrl_drop_line, ack_inv),
    [L1_VM][L1_Rsp] = DO(L1_VM, 0, reply_rsp),
    [L1_VM][L1_LastRsp] = DO(L1_V, 0, reply_rsp, ctrl_free_tbe),
    [L1_IV][L1_Load] = DO(L1_IV, TAG_RD, ctrl_l1_merge_load),
    [L1_IV][L1_MergeFull] = STALL,
    [L1_IV][L1_Store] = DO(L1_II, TAG_RD, send_write),
    [L1_IV][L1_Atomic] = DO(L1_II, TAG_RD, send_atomic),
    [L1_IV][L1_FlashInv] = DO(L1_II, 0, ctrl_nothing),
    [L1_IV][L1_Inv] = DO(L1_II, TAG_RD, ack_inv), /* the fill is used once */
    [L1_IV][L1_Data] = DO(L1_V, TAG_WR | DATA_WR, ctrl_l1_fill_line, reply_rsp, ctrl_free_tbe),
    [L1_II][L1_Load] = DO(L1_II, TAG_RD, send_gets),
    [L1_II][L1_Store] = DO(L1_II, TAG_RD, send_write),
    [L1_II][L1_Atomic] = DO(L1_II, TAG_RD, send_atomic),
    [L1_II][L1_Inv] = DO(L1_II, TAG_RD, ack_inv),
    [L1_II][L1_Rsp] = DO(L1_II, 0, reply_rsp),
    [L1_II][L1_LastRsp] = DO(L1_I, 0, reply_rsp, ctrl_free_tbe),
};

/* One table, three names: coverage and printing are per protocol. */
const struct coh_table vi_l1_table =
    COH_TABLE("gpuvi", "L1", vi_l1_cells, ctrl_set_state, ctrl_l1_dump_ctx);
const struct coh_table vini_l1_table =
    COH_TABLE("gpuvini", "L1", vi_l1_cells, ctrl_set_state, ctrl_l1_dump_ctx);
const struct coh_table ideal_l1_table =
    COH_TABLE("ideal", "L1", vi_l1_cells, ctrl_set_state, ctrl_l1_dump_ctx);

/* ---- the classifier ---- */

static unsigned classify_core(const struct vi_l1 *c, const struct coh_ctx *x)
{
    switch (x->msg->req.op) {
    case MEM_LOAD:
        if (x->state == L1_IV && x->tbe->merged.n >= c->base.merge_max)
            return L1_MergeFull;
        return L1_Load;
    case MEM_STORE:
        return L1_Store;
    default:
        return L1_Atomic;
    }
}

/* Fences and kernel end need nothing (the SM has already waited for the
 * warp's earlier accesses, and every performed write is visible everywhere);
 * a launch invalidates every present line (V, VM), then every outstanding
 * fill (IV): host writes between kernels sent no INVs. Lines in II need
 * nothing: their responses never fill. Answered at once. */
static void order_op(struct ctrl *b, struct msg *m)
{
    struct vi_l1 *c = l1_of(b);
    if (m->req.op == MEM_KERNEL_BEGIN) {
        c->st.flash_invalidations++;
        ctrl_l1_flash(&c->base, L1_FlashInv, L1_IV);
    }
    ctrl_to_core(&c->base, m, 0);
}

/* One core request (new or replayed). Returns false on a resource stall (the
 * request stays where it was). */
static bool take_core(struct ctrl *b, struct msg *m)
{
    struct coh_ctx x;
    enum ctrl_take r = ctrl_l1_begin(b, &x, m, order_op, ctrl_l1_room(b), NULL);
    if (r != CTRL_GO)
        return r == CTRL_TAKEN;
    x.event = classify_core(l1_of(b), &x);
    ctrl_step_or_park(b, &x);
    return true;
}

static void take_response(struct ctrl *b, struct msg *m)
{
    struct coh_ctx x;
    ctrl_l1_response(b, &x, m);
    if (x.state == L1_IV) {
        x.event = L1_Data;
        ctrl_l1_make_room(b, m->addr, L1_Replace); /* the victim goes through the table */
    } else {
        x.event = x.tbe->pending == 1 ? L1_LastRsp : L1_Rsp;
    }
    ctrl_step(b, &x);
}

/* Every ready invalidation, while the ack vnet has room. Returns progress. */
static bool take_invalidations(struct vi_l1 *c)
{
    bool moved = false;
    while (port_peek(c->inv_in)) {
        if (!c->ideal && !port_has_room(c->base.links.net_out[VI_VNET_ACK], 1)) {
            c->base.st.resource_stalls++;
            break;
        }
        struct msg *m = port_pop(c->inv_in);
        ctrl_fire(&c->base, m->addr, m, L1_Inv);
        moved = true;
    }
    return moved;
}

/* ---- tick ---- */

/* One L1 cycle. Invalidations go first, so that an invalidation ready at t
 * takes effect before anything else this L1 does at or after t (the ideal
 * reference's write atomicity rests on it); then one response; then one core
 * request (parked ones replay before new ones). */
static bool vi_l1_tick(struct comp *cp)
{
    struct vi_l1 *c = l1_of(cp);
    struct ctrl *b = &c->base;
    ctrl_tick_begin(b);
    bool moved = take_invalidations(c);
    moved |= ctrl_take_one(b, b->links.net_in[VI_VNET_RSP], take_response);
    moved |= ctrl_take_next(b, &b->in, take_core);
    if (moved)
        return true;
    /* an invalidation or a request left waiting stalled on a resource: sleep
     * until it may clear */
    if (b->replay.n || port_peek(&b->in) || port_peek(c->inv_in)) {
        struct port *const in[] = {c->inv_in, b->links.net_in[VI_VNET_RSP]};
        return ctrl_stall_sleep(b, in, 2);
    }
    return false;
}

/* ---- construction ---- */

static const struct ctrl_stat vi_l1_stat_rows[] = {
    CTRL_STATS_L1_ACCESSES,
    CTRL_STAT_OWN(struct l1_stats, invalidations),
    CTRL_STAT_OWN(struct l1_stats, lines_invalidated),
    CTRL_STAT_BASE(fills),
    CTRL_STAT_OWN(struct l1_stats, fills_used_once),
    CTRL_STAT_OWN(struct l1_stats, flash_invalidations),
    CTRL_STAT_BASE(resource_stalls),
    CTRL_STAT_BASE(protocol_stalls),
    CTRL_STAT_END,
};

static struct vi_l1 *create(const struct ctrl_wiring *w, const struct coh_table *t, bool ideal)
{
    panic_if(w->n_sms > VI_MAX_SHARERS, "%s: %u SMs passed coh_sharers_check", t->proto, w->n_sms);
    struct vi_l1 *c = ctrl_alloc(sizeof *c);
    c->ideal = ideal;
    ctrl_l1_init(&c->base, w, t, vi_l1_tick, ctrl_l1_dump);
    ctrl_set_stats(&c->base, vi_l1_stat_rows, &c->st);
    if (ideal) {
        /* sized so that it never fills: the banks check room before a step */
        port_init(&c->bus_in, "ideal_inv", 4096, 0, NULL, &c->base.comp);
        vi_bus_attach(w->proto_ctx, w->index, w->n_sms, &c->bus_in);
    }
    return c;
}

struct comp *vi_l1_create(const struct ctrl_wiring *w)
{
    return &create(w, &vi_l1_table, false)->base.comp;
}

struct comp *vini_l1_create(const struct ctrl_wiring *w)
{
    return &create(w, &vini_l1_table, false)->base.comp;
}

struct comp *ideal_l1_create(const struct ctrl_wiring *w)
{
    return &create(w, &ideal_l1_table, true)->base.comp;
}

void vi_l1_connect(struct comp *cp, const struct ctrl_links *l)
{
    struct vi_l1 *c = l1_of(cp);
    ctrl_connect(cp, l);
    c->inv_in = c->ideal ? &c->bus_in : l->net_in[VI_VNET_INV];
}

void vi_l1_destroy(struct comp *cp)
{
    struct vi_l1 *c = l1_of(cp);
    if (c->ideal) {
        vi_bus_detach(c->base.w.proto_ctx, c->base.w.index);
        while (c->bus_in.n) /* invalidations sent after the last tick */
            msg_free(c->base.w.msgs, port_pop(&c->bus_in));
        port_destroy(&c->bus_in);
    }
    ctrl_destroy(cp);
}
