/*
 * template_l1.c - L1 of `template`: a write-through, write-no-allocate L1
 * with two stable states (I, V) and software-managed coherence, and the
 * protocol's descriptor.
 *
 * Loads allocate; stores write through and drop a valid copy; atomics are
 * performed at the L2. Nothing invalidates a copy but an acquire: a fence of
 * .gpu/.sys scope, the acquire half of a .gpu/.sys load or atomic, and every
 * kernel launch flash-invalidate the L1. A release needs nothing here: the
 * SM waits for the warp's stores to be acknowledged. Loads of .gpu/.sys
 * scope that are not weak are performed at the L2 and never fill. So the L1
 * keeps the PTX model's promise (the litmus oracle judges it by MODEL_PTX).
 * Two transient states carry misses: IV (a fill outstanding, loads merge into
 * it) and II (requests outstanding whose responses must not fill).
 * INVARIANT: a fill requested before a store (or an acquire) to its line is
 *   never installed (II); a load never merges into such a fill.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "coh/template/template.h"

/* ---- states and events: X(name, description), printed by `gpucoh protocol show` ---- */

#define TPL_L1_STATES(X)                                                                           \
    X(I, "not present")                                                                            \
    X(V, "valid (possibly stale: nothing invalidates it but an acquire)")                          \
    X(IV, "load miss outstanding; the fill will be installed")                                     \
    X(II, "requests outstanding whose responses must not fill (write, atomic, L2 load, acquire)")

#define TPL_L1_EVENTS(X)                                                                           \
    X(Load, "weak or .cta load from the SM")                                                       \
    X(LoadL2, "load performed at the L2: .gpu/.sys relaxed/acquire, volatile")                     \
    X(MergeFull, "load to a line whose outstanding fill has merged merge_max loads")               \
    X(Store, "store from the SM (write-through)")                                                  \
    X(Atomic, "atomic from the SM (performed at the L2)")                                          \
    X(Replace, "a fill needs this line's way")                                                     \
    X(FlashInv, "acquire: invalidate every valid line")                                            \
    X(Data, "the fill of the line's outstanding miss")                                             \
    X(Rsp, "a response (data, write ack, atomic result) with more outstanding")                    \
    X(LastRsp, "the last outstanding response of the line")

#define X(n, d) TL1_##n,
enum tpl_l1_state { TPL_L1_STATES(X) TL1_NSTATES };
enum tpl_l1_event { TPL_L1_EVENTS(X) TL1_NEVENTS };
#undef X
COH_NAMES(TPL_L1_STATES, TPL_L1_EVENTS);

struct tpl_l1_stats {
    uint64_t flash_invalidations, lines_invalidated;
};

struct tpl_l1 {
    struct ctrl base;   /* first: the shared controller (coh/ctrl.h) */
    bool flash_pending; /* an acquire completed in this step: invalidate after it */
    struct tpl_l1_stats st;
};

/* ---- actions: each does one thing; only the table changes the state ---- */

static void send_gets(struct coh_ctx *x)
{
    ctrl_l1_send_gets(x, MSG_TPL_GETS, x->state == TL1_I && x->event == TL1_Load, TPL_F_MERGED);
}

static void send_write(struct coh_ctx *x)
{
    ctrl_l1_send_write(x, MSG_TPL_WRITE);
}

static void send_atomic(struct coh_ctx *x)
{
    ctrl_l1_send_atomic(x, MSG_TPL_ATOMIC);
}

/* Answer the response's own request and, for a fill, every load merged
 * behind it. An acquire at .gpu/.sys scope invalidates the L1 once answered. */
static void reply_rsp(struct coh_ctx *x)
{
    struct tpl_l1 *c = x->ctrl;
    struct msg *m = x->msg;
    x->tbe->pending--;
    if (m->flags & TPL_F_MERGED)
        ctrl_l1_answer_merged(&c->base, x->tbe, m->data);
    if ((m->req.sem == SEM_ACQUIRE || m->req.sem == SEM_ACQ_REL || m->req.sem == SEM_SC) &&
        m->req.scope >= SCOPE_GPU)
        c->flash_pending = true;
    ctrl_to_core(&c->base, m, 0);
    x->msg = NULL;
}

static const struct coh_action_name actions[] = {
    {ctrl_alloc_tbe, "alloc_tbe", "allocate a TBE for the line"},
    {ctrl_free_tbe, "free_tbe", "free the TBE and replay requests parked on it"},
    {send_gets, "send_gets", "send a read to the home L2 bank"},
    {send_write, "send_write", "write the masked bytes through to the L2"},
    {send_atomic, "send_atomic", "send the atomic to the L2"},
    {ctrl_l1_merge_load, "merge_load", "answer this load with the outstanding fill"},
    {ctrl_l1_reply_hit, "reply_hit", "answer the load from the line after the hit latency"},
    {ctrl_drop_line, "drop_line", "invalidate the line (silently: write-through keeps L2 current)"},
    {ctrl_l1_fill_line, "fill_line", "install the fill in a free way"},
    {reply_rsp, "reply_rsp", "answer the request (and merged loads); an acquire invalidates"},
    {ctrl_nothing, "nothing", "no action: the outstanding fill will not be installed"},
    {0},
};

/* ---- the table: (state, event) -> (next state, arrays used, actions) ---- */

/*  state     event              next    uses               actions                              */
static const struct coh_trans tpl_l1_cells[TL1_NSTATES][TL1_NEVENTS] = {
    [TL1_I][TL1_Load] = DO(TL1_IV, TAG_RD, ctrl_alloc_tbe, send_gets),
    [TL1_I][TL1_LoadL2] = DO(TL1_II, TAG_RD, ctrl_alloc_tbe, send_gets),
    [TL1_I][TL1_Store] = DO(TL1_II, TAG_RD, ctrl_alloc_tbe, send_write),
    [TL1_I][TL1_Atomic] = DO(TL1_II, TAG_RD, ctrl_alloc_tbe, send_atomic),
    [TL1_V][TL1_Load] = DO(TL1_V, TAG_RD | DATA_RD, ctrl_l1_reply_hit),
    [TL1_V][TL1_LoadL2] = DO(TL1_II, TAG_RD | TAG_WR, ctrl_drop_line, ctrl_alloc_tbe, send_gets),
    [TL1_V][TL1_Store] = DO(TL1_II, TAG_RD | TAG_WR, ctrl_drop_line, ctrl_alloc_tbe, send_write),
    [TL1_V][TL1_Atomic] = DO(TL1_II, TAG_RD | TAG_WR, ctrl_drop_line, ctrl_alloc_tbe, send_atomic),
    [TL1_V][TL1_Replace] = DO(TL1_I, TAG_WR, ctrl_drop_line),
    [TL1_V][TL1_FlashInv] = DO(TL1_I, TAG_WR, ctrl_drop_line),
    [TL1_IV][TL1_Load] = DO(TL1_IV, TAG_RD, ctrl_l1_merge_load),
    [TL1_IV][TL1_MergeFull] = STALL,
    [TL1_IV][TL1_LoadL2] = DO(TL1_II, TAG_RD, send_gets),
    [TL1_IV][TL1_Store] = DO(TL1_II, TAG_RD, send_write),
    [TL1_IV][TL1_Atomic] = DO(TL1_II, TAG_RD, send_atomic),
    [TL1_IV][TL1_FlashInv] = DO(TL1_II, 0, ctrl_nothing),
    [TL1_IV][TL1_Data] = DO(TL1_V, TAG_WR | DATA_WR, ctrl_l1_fill_line, reply_rsp, ctrl_free_tbe),
    [TL1_II][TL1_Load] = DO(TL1_II, TAG_RD, send_gets),
    [TL1_II][TL1_LoadL2] = DO(TL1_II, TAG_RD, send_gets),
    [TL1_II][TL1_Store] = DO(TL1_II, TAG_RD, send_write),
    [TL1_II][TL1_Atomic] = DO(TL1_II, TAG_RD, send_atomic),
    [TL1_II][TL1_Rsp] = DO(TL1_II, 0, reply_rsp),
    [TL1_II][TL1_LastRsp] = DO(TL1_I, 0, reply_rsp, ctrl_free_tbe),
};

const struct coh_table tpl_l1_table =
    COH_TABLE("template", "L1", tpl_l1_cells, ctrl_set_state, ctrl_l1_dump_ctx);

/* ---- the classifier: the only place with protocol `if`s ---- */

static unsigned classify_core(const struct tpl_l1 *c, const struct coh_ctx *x)
{
    const struct mem_req *r = &x->msg->req;
    switch (r->op) {
    case MEM_LOAD:
        if (mem_req_strong_gpu(r))
            return TL1_LoadL2;
        if (x->state == TL1_IV && x->tbe->merged.n >= c->base.merge_max)
            return TL1_MergeFull;
        return TL1_Load;
    case MEM_STORE:
        return TL1_Store;
    default:
        return TL1_Atomic;
    }
}

/* The acquire: every valid line, then every outstanding fill (IV). */
static void flash_invalidate(struct tpl_l1 *c)
{
    c->flash_pending = false;
    c->st.flash_invalidations++;
    c->st.lines_invalidated += ctrl_l1_flash(&c->base, TL1_FlashInv, TL1_IV);
}

/* Fences and kernel boundaries, answered at once: an acquire at .gpu/.sys
 * scope or a launch invalidates (the SM has waited for the release). */
static void order_op(struct ctrl *b, struct msg *m)
{
    struct tpl_l1 *c = (struct tpl_l1 *)b;
    if (m->req.op == MEM_KERNEL_BEGIN || (m->req.op == MEM_FENCE && m->req.scope >= SCOPE_GPU))
        flash_invalidate(c);
    ctrl_to_core(b, m, 0);
}

/* One core request (new or replayed). False: a resource stall (it stays). */
static bool take_core(struct ctrl *b, struct msg *m)
{
    struct tpl_l1 *c = (struct tpl_l1 *)b;
    struct coh_ctx x;
    enum ctrl_take r = ctrl_l1_begin(b, &x, m, order_op, ctrl_l1_room(b), NULL);
    if (r != CTRL_GO)
        return r == CTRL_TAKEN;
    x.event = classify_core(c, &x);
    ctrl_step_or_park(b, &x);
    if (c->flash_pending)
        flash_invalidate(c);
    return true;
}

static void take_response(struct ctrl *b, struct msg *m)
{
    struct tpl_l1 *c = (struct tpl_l1 *)b;
    struct coh_ctx x;
    ctrl_l1_response(b, &x, m);
    if (x.state == TL1_IV) {
        x.event = TL1_Data;
        ctrl_l1_make_room(b, m->addr, TL1_Replace); /* the victim goes through the table */
    } else {
        x.event = x.tbe->pending == 1 ? TL1_LastRsp : TL1_Rsp;
    }
    ctrl_step(b, &x);
    if (c->flash_pending)
        flash_invalidate(c);
}

/* ---- tick: responses first, then one request; sleep when nothing moves ---- */

static bool tpl_l1_tick(struct comp *cp)
{
    struct ctrl *b = (struct ctrl *)cp;
    ctrl_tick_begin(b);
    bool moved = ctrl_take_one(b, b->links.net_in[TPL_VNET_RSP], take_response);
    moved |= ctrl_take_next(b, &b->in, take_core);
    if (moved)
        return true;
    if (b->replay.n || port_peek(&b->in)) /* stalled on a resource: sleep until it may clear */
        return ctrl_stall_sleep(b, &b->links.net_in[TPL_VNET_RSP], 1);
    return false;
}

/* ---- construction ---- */

static const struct ctrl_stat tpl_l1_stat_rows[] = {
    CTRL_STATS_L1_ACCESSES,
    CTRL_STAT_OWN(struct tpl_l1_stats, flash_invalidations),
    CTRL_STAT_OWN(struct tpl_l1_stats, lines_invalidated),
    CTRL_STAT_BASE(fills),
    CTRL_STAT_BASE(resource_stalls),
    CTRL_STAT_BASE(protocol_stalls),
    CTRL_STAT_END,
};

struct comp *tpl_l1_create(const struct ctrl_wiring *w)
{
    struct tpl_l1 *c = ctrl_alloc(sizeof *c);
    ctrl_l1_init(&c->base, w, &tpl_l1_table, tpl_l1_tick, ctrl_l1_dump);
    ctrl_set_stats(&c->base, tpl_l1_stat_rows, &c->st);
    return &c->base.comp;
}

/* ---- the descriptor: what the machine builder, the CLI and the checkers know ---- */

static const char *const tpl_vnet_names[TPL_NVNETS] = {"request", "response"};
static const struct coh_table *const tpl_tables[] = {&tpl_l1_table, &tpl_l2_table, NULL};

const struct proto_desc proto_template = {
    .name = "template",
    .title = "the smallest complete protocol (docs/adding-a-protocol.md): write-through L1 with "
             "two stable states, invalidated at acquires; an L2 that serves",
    .example = true,
    .model = MODEL_PTX,
    .n_vnets = TPL_NVNETS,
    .vnet_names = tpl_vnet_names,
    .tables = tpl_tables,
    .n_l1_tables = 1,
    .l1 = {tpl_l1_create, ctrl_connect, ctrl_in_port, ctrl_destroy, NULL, ctrl_peek, ctrl_stats},
    .l2 = {tpl_l2_create, ctrl_l2_connect, ctrl_in_port, ctrl_destroy, tpl_l2_dma, ctrl_peek,
           ctrl_stats},
};
