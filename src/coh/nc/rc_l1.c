/*
 * rc_l1.c - L1 of `rc`: non-coherent write-through, write-no-allocate L1 with
 * software-managed release consistency.
 *
 * Spec 002 §3.2 (the NO-COH baseline, recovered from Table 2) and spec 000
 * §2.13: loads allocate; stores write through and evict a valid copy
 * (write-evict); atomics are performed at the L2. An acquire - a fence of
 * .gpu/.sys scope, the acquire half of ld.acquire/atom.acquire at .gpu/.sys,
 * and every kernel launch - flash-invalidates the L1; a release needs no
 * action here because the SM already waits for the warp's stores to be
 * acknowledged by the L2. Loads and atomics of .gpu/.sys scope (and
 * volatile loads) are performed at the L2 and never fill.
 * An extension (struct rc_l1_ext in nc.h; the multi-GPM protocols' L1,
 * coh/mg/mg_l1.c) adds releases and acquires through the banks, and may have
 * the L1 perform .cta atomics itself (spec 004b §2.2: .cta synchronisation
 * at the L1): every thread a .cta atomic must be atomic with (its CTA's, at
 * any scope) goes through this L1, which serialises them per line. On a
 * valid copy it applies the atomic, answers, and writes the bytes through
 * (posted: the L1 absorbs the ack; the write is ahead of anything later from
 * this L1 to the bank); a miss fetches the line first, with the atomic
 * parked; while writes, atomics or L2 loads of the line are outstanding (II)
 * it goes to the L2 behind them.
 * Other CTAs' threads are not morally strong with it and may see a stale
 * value, as the scoped model allows.
 * A stale hit returns the stale value: that is the baseline's contract.
 * INVARIANT: a fill requested before a store (or an acquire) to its line is
 *   never installed (state II); a load never merges into such a fill.
 * DEVIATION: the baseline's L2 keeps only V/M stable states (see nc_l2.c).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "coh/ctrl.h"
#include "coh/nc/nc.h"

_Static_assert((int)NC_VNET_REQ == CTRL_VNET_REQ && (int)NC_VNET_RSP == CTRL_VNET_RSP,
               "rc sends on the write-through vnets");

#define RC_L1_STATES(X)                                                                            \
    X(I, "not present")                                                                            \
    X(V, "valid (possibly stale: nothing invalidates it but an acquire)")                          \
    X(IV, "load miss outstanding; the fill will be installed")                                     \
    X(II, "requests outstanding whose responses must not fill (write, atomic, L2 load, acquire)")

#define RC_L1_EVENTS(X)                                                                            \
    X(Load, "weak or .cta load from the SM")                                                       \
    X(LoadL2, "load performed at the L2: .gpu/.sys relaxed/acquire, volatile")                     \
    X(MergeFull, "load to a line whose outstanding fill has merged merge_max loads")               \
    X(Store, "store from the SM (write-through)")                                                  \
    X(Atomic, "atomic from the SM (performed at the L2)")                                          \
    X(CtaAtomic, "multi-GPM L1s: a .cta atomic (performed here on a valid copy)")                  \
    X(Replace, "a fill needs this line's way")                                                     \
    X(FlashInv, "acquire: invalidate every valid line")                                            \
    X(Data, "the fill of the line's outstanding miss")                                             \
    X(Rsp, "a response (data, write ack, atomic result) with more outstanding")                    \
    X(LastRsp, "the last outstanding response of the line")

#define X(n, d) RC_##n,
enum rc_state { RC_L1_STATES(X) RC_NSTATES };
enum rc_event { RC_L1_EVENTS(X) RC_NEVENTS };
#undef X
COH_NAMES(RC_L1_STATES, RC_L1_EVENTS);

struct rc_stats {
    uint64_t flash_invalidations, lines_invalidated, fills_dropped;
    uint64_t cta_atomics; /* multi-GPM L1s: .cta atomics performed here */
};

struct rc_l1 {
    struct ctrl base;
    bool flash_pending;          /* an acquire completed in this step: invalidate after it */
    bool bug_acquire_keeps_l1;   /* rc-noinv (test only): acquires do not invalidate */
    const struct rc_l1_ext *ext; /* its extension (multi-GPM protocols), or NULL */
    struct rc_stats st;
    _Alignas(max_align_t) unsigned char ext_state[]; /* ext->state_bytes */
};

static struct rc_l1 *rc_of(void *p)
{
    return p;
}

/* ---- actions ---- */

static void send_gets(struct coh_ctx *x)
{
    ctrl_l1_send_gets(x, MSG_NC_GETS, x->state == RC_I && x->event == RC_Load, NC_F_MERGED);
}

static void send_write(struct coh_ctx *x)
{
    ctrl_l1_send_write(x, MSG_NC_WRITE);
}

static void send_atomic(struct coh_ctx *x)
{
    ctrl_l1_send_atomic(x, MSG_NC_ATOMIC);
}

/* A .cta atomic on the valid copy: every lane's atomic on the line, the old
 * values to the SM after the hit latency, and the new bytes written through
 * to the L2 (NC_F_L1WT: its acknowledgement stays here). */
static void atomic_here(struct coh_ctx *x)
{
    struct rc_l1 *c = rc_of(x->ctrl);
    struct ctrl *b = &c->base;
    struct msg *m = x->msg;
    struct atom_ops *a = m->req.atom;
    c->st.cta_atomics++;
    cache_touch(&b->cache, x->line);
    atom_apply(a, x->line->data);
    struct msg *w = msg_new(b->w.msgs, MSG_NC_WRITE, m->addr, b->comp.eng->now);
    w->req = m->req;
    w->req.op = MEM_STORE;
    w->req.atom = NULL;
    w->flags = NC_F_L1WT;
    for (unsigned i = 0; i < a->n; i++)
        bytemask_set_range(&w->mask, a->lane[i].off, atom_type_bytes((enum atom_type)a->type));
    memcpy(w->data, x->line->data, b->line_bytes);
    ctrl_to_home(b, w, MSG_NC_WRITE, NC_VNET_REQ, TRAFFIC_ST, (uint16_t)bytemask_count(&w->mask));
    ctrl_to_core(b, m, b->hit_ps);
    x->msg = NULL;
}

/* A miss of a .cta atomic: read the line (NC_F_L1FETCH: the answer goes to
 * no request of the SM; loads that come meanwhile merge into it). */
static void fetch_line(struct coh_ctx *x)
{
    struct ctrl *b = ctrl_of(x);
    struct msg *k = msg_new(b->w.msgs, MSG_NC_GETS, x->addr, b->comp.eng->now);
    k->req = x->msg->req;
    k->req.op = MEM_LOAD;
    k->req.atom = NULL;
    k->flags = NC_F_L1FETCH | NC_F_MERGED;
    x->tbe->pending++;
    b->st.load_misses++;
    ctrl_to_home(b, k, MSG_NC_GETS, NC_VNET_REQ, TRAFFIC_REQ, 0);
}

/* Answer the response's own request and, for the merged fill, every load
 * merged behind it. The data is copied before the message is reused. An
 * acquire at .gpu/.sys scope invalidates the L1 once it has been answered. */
static void reply_rsp(struct coh_ctx *x)
{
    struct rc_l1 *c = rc_of(x->ctrl);
    struct msg *m = x->msg;
    x->tbe->pending--;
    if (m->type == MSG_NC_DATA && x->state == RC_II)
        c->st.fills_dropped++;
    if (m->flags & NC_F_MERGED)
        ctrl_l1_answer_merged(&c->base, x->tbe, m->data);
    if (m->flags & NC_F_L1FETCH) { /* a .cta atomic's fetch: it is parked, and replays */
        msg_free(c->base.w.msgs, m);
        x->msg = NULL;
        return;
    }
    if ((m->req.sem == SEM_ACQUIRE || m->req.sem == SEM_ACQ_REL || m->req.sem == SEM_SC) &&
        m->req.scope >= SCOPE_GPU && !c->bug_acquire_keeps_l1)
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
    {atomic_here, "atomic_here", "perform the atomic on the line, answer, write the bytes through"},
    {fetch_line, "fetch_line", "read the line for the parked .cta atomic"},
    {ctrl_park, "park", "keep the request until the line's TBE frees"},
    {ctrl_l1_merge_load, "merge_load", "answer this load with the outstanding fill"},
    {ctrl_l1_reply_hit, "reply_hit", "answer the load from the line after the hit latency"},
    {ctrl_drop_line, "drop_line", "invalidate the line (silently: write-through keeps L2 current)"},
    {ctrl_l1_fill_line, "fill_line", "install the fill in a free way"},
    {reply_rsp, "reply_rsp", "answer the request (and merged loads); an acquire invalidates"},
    {ctrl_nothing, "nothing", "no action: the outstanding fill will not be installed"},
    {0},
};

/* ---- the table ---- */

/*  state    event            next   uses               actions                                */
static const struct coh_trans rc_l1_cells[RC_NSTATES][RC_NEVENTS] = {
    [RC_I][RC_Load] = DO(RC_IV, TAG_RD, ctrl_alloc_tbe, send_gets),
    [RC_I][RC_LoadL2] = DO(RC_II, TAG_RD, ctrl_alloc_tbe, send_gets),
    [RC_I][RC_Store] = DO(RC_II, TAG_RD, ctrl_alloc_tbe, send_write),
    [RC_I][RC_Atomic] = DO(RC_II, TAG_RD, ctrl_alloc_tbe, send_atomic),
    [RC_I][RC_CtaAtomic] = DO(RC_IV, TAG_RD, ctrl_alloc_tbe, fetch_line, ctrl_park),
    [RC_V][RC_Load] = DO(RC_V, TAG_RD | DATA_RD, ctrl_l1_reply_hit),
    [RC_V][RC_LoadL2] = DO(RC_II, TAG_RD | TAG_WR, ctrl_drop_line, ctrl_alloc_tbe, send_gets),
    [RC_V][RC_Store] = DO(RC_II, TAG_RD | TAG_WR, ctrl_drop_line, ctrl_alloc_tbe, send_write),
    [RC_V][RC_Atomic] = DO(RC_II, TAG_RD | TAG_WR, ctrl_drop_line, ctrl_alloc_tbe, send_atomic),
    [RC_V][RC_CtaAtomic] = DO(RC_V, TAG_RD | DATA_RD | DATA_WR, atomic_here),
    [RC_V][RC_Replace] = DO(RC_I, TAG_WR, ctrl_drop_line),
    [RC_V][RC_FlashInv] = DO(RC_I, TAG_WR, ctrl_drop_line),
    [RC_IV][RC_Load] = DO(RC_IV, TAG_RD, ctrl_l1_merge_load),
    [RC_IV][RC_MergeFull] = STALL,
    [RC_IV][RC_LoadL2] = DO(RC_II, TAG_RD, send_gets),
    [RC_IV][RC_Store] = DO(RC_II, TAG_RD, send_write),
    [RC_IV][RC_Atomic] = DO(RC_II, TAG_RD, send_atomic),
    [RC_IV][RC_CtaAtomic] = STALL, /* the fill comes, then it is performed here */
    [RC_IV][RC_FlashInv] = DO(RC_II, 0, ctrl_nothing),
    [RC_IV][RC_Data] = DO(RC_V, TAG_WR | DATA_WR, ctrl_l1_fill_line, reply_rsp, ctrl_free_tbe),
    [RC_II][RC_Load] = DO(RC_II, TAG_RD, send_gets),
    [RC_II][RC_LoadL2] = DO(RC_II, TAG_RD, send_gets),
    [RC_II][RC_Store] = DO(RC_II, TAG_RD, send_write),
    [RC_II][RC_Atomic] = DO(RC_II, TAG_RD, send_atomic),
    [RC_II][RC_CtaAtomic] = DO(RC_II, TAG_RD, send_atomic), /* at the L2, behind them */
    [RC_II][RC_Rsp] = DO(RC_II, 0, reply_rsp),
    [RC_II][RC_LastRsp] = DO(RC_I, 0, reply_rsp, ctrl_free_tbe),
};

const struct coh_table rc_l1_table =
    COH_TABLE("rc", "L1", rc_l1_cells, ctrl_set_state, ctrl_l1_dump_ctx);

/* ---- the classifier ---- */

static unsigned classify_core(const struct rc_l1 *c, const struct coh_ctx *x)
{
    const struct mem_req *r = &x->msg->req;
    switch (r->op) {
    case MEM_LOAD:
        if (mem_req_strong_gpu(r))
            return RC_LoadL2;
        if (x->state == RC_IV && x->tbe->merged.n >= c->base.merge_max)
            return RC_MergeFull;
        return RC_Load;
    case MEM_STORE:
        return RC_Store;
    default:
        return c->ext && c->ext->cta_atomics && r->scope == SCOPE_CTA ? RC_CtaAtomic : RC_Atomic;
    }
}

/* The acquire: every valid line, then every outstanding fill (IV). Lines in
 * II need nothing: their responses never fill. */
static void flash_invalidate(struct rc_l1 *c)
{
    c->flash_pending = false;
    c->st.flash_invalidations++;
    c->st.lines_invalidated += ctrl_l1_flash(&c->base, RC_FlashInv, RC_IV);
}

/* Fences and kernel boundaries: the SM has already waited for the warp's
 * earlier accesses (release); an acquire at .gpu/.sys scope or a launch
 * invalidates. Answered at once. */
static void order_op(struct ctrl *b, struct msg *m)
{
    struct rc_l1 *c = rc_of(b);
    bool acquire =
        m->req.op == MEM_KERNEL_BEGIN ||
        (m->req.op == MEM_FENCE && m->req.scope >= SCOPE_GPU && !c->bug_acquire_keeps_l1);
    if (acquire)
        flash_invalidate(c);
    ctrl_to_core(&c->base, m, 0);
}

/* One core request (new or replayed). Returns false on a resource stall (the
 * request stays where it was). */
static bool take_core(struct ctrl *b, struct msg *m)
{
    struct rc_l1 *c = rc_of(b);
    struct coh_ctx x;
    if (c->ext) {
        enum rc_l1_take t = c->ext->take_core(b, m);
        if (t != RC_L1_TO_TABLE)
            return t == RC_L1_TAKEN;
    }
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
    struct rc_l1 *c = rc_of(b);
    struct coh_ctx x;
    /* a .cta atomic's write-through, answered already (only its own
     * acknowledgement: other protocols' responses may use the bit) */
    if (m->type == MSG_NC_WRACK && (m->flags & NC_F_L1WT)) {
        msg_free(b->w.msgs, m);
        return;
    }
    if (c->ext && c->ext->take_response(b, m))
        return;
    ctrl_l1_response(b, &x, m);
    if (x.state == RC_IV) {
        x.event = RC_Data;
        ctrl_l1_make_room(b, m->addr, RC_Replace); /* the victim goes through the table */
    } else {
        x.event = x.tbe->pending == 1 ? RC_LastRsp : RC_Rsp;
    }
    ctrl_step(b, &x);
    if (c->flash_pending)
        flash_invalidate(c);
}

/* ---- tick ---- */

static bool rc_l1_tick(struct comp *cp)
{
    struct ctrl *b = (struct ctrl *)cp;
    struct rc_l1 *c = rc_of(b);
    ctrl_tick_begin(b);
    bool moved = c->ext && c->ext->tick(b);
    moved |= ctrl_take_one(b, b->links.net_in[NC_VNET_RSP], take_response);
    moved |= ctrl_take_next(b, &b->in, take_core);
    /* After a cycle that moved, the next has work only if a request is left
     * on the replay list or at the head of a port, ready (refused this cycle;
     * a pop that leaves a ready head has woken the L1 for it already): a
     * message not ready yet wakes the L1 when it is (its send asked for that
     * tick), so a tick in between would find nothing. An extension may keep
     * work of its own, so with one the L1 ticks on. */
    if (moved)
        return c->ext || b->replay.n || port_peek(&b->in) ||
               port_peek(b->links.net_in[NC_VNET_RSP]);
    /* a request left waiting stalled on a resource: sleep until it may clear */
    if (b->replay.n || port_peek(&b->in))
        return ctrl_l1_stall_sleep(b, &b->links.net_in[NC_VNET_RSP], 1);
    /* (an extension's release under way wakes us with its acknowledgements) */
    return false;
}

/* ---- construction ---- */

#define RC_L1_STAT_ROWS                                                                            \
    CTRL_STAT_OWN(struct rc_stats, flash_invalidations),                                           \
        CTRL_STAT_OWN(struct rc_stats, lines_invalidated), CTRL_STAT_BASE(fills),                  \
        CTRL_STAT_OWN(struct rc_stats, fills_dropped), CTRL_STAT_BASE(resource_stalls),            \
        CTRL_STAT_BASE(protocol_stalls)

static const struct ctrl_stat rc_l1_stat_rows[] = {
    CTRL_STATS_L1_ACCESSES,
    RC_L1_STAT_ROWS,
    CTRL_STAT_END,
};

/* With .cta atomics performed here: rc's rows and those atomics. */
static const struct ctrl_stat cta_l1_stat_rows[] = {
    CTRL_STATS_L1_ACCESSES,
    CTRL_STAT_OWN(struct rc_stats, cta_atomics),
    RC_L1_STAT_ROWS,
    CTRL_STAT_END,
};

/* Also the GPU-coherence device L1 of Spandex (src/coh/spandex/). */
struct comp *rc_l1_create(const struct ctrl_wiring *w)
{
    struct rc_l1 *c = ctrl_alloc(sizeof *c);
    ctrl_l1_init(&c->base, w, &rc_l1_table, rc_l1_tick, ctrl_l1_dump);
    ctrl_set_stats(&c->base, rc_l1_stat_rows, &c->st);
    return &c->base.comp;
}

/* The deliberately broken variant the validation tests must catch. */
static struct comp *rc_noinv_create(const struct ctrl_wiring *w)
{
    struct comp *cp = rc_l1_create(w);
    rc_of(cp)->bug_acquire_keeps_l1 = true;
    return cp;
}

/* rc's L1 with an extension (nc.h). */
struct comp *rc_l1_create_ext(const struct ctrl_wiring *w, const struct rc_l1_ext *ext)
{
    struct rc_l1 *c = ctrl_alloc(sizeof *c + ext->state_bytes);
    ctrl_l1_init(&c->base, w, &rc_l1_table, rc_l1_tick, ctrl_l1_dump);
    c->ext = ext;
    ctrl_set_stats(&c->base, ext->cta_atomics ? cta_l1_stat_rows : rc_l1_stat_rows, &c->st);
    return &c->base.comp;
}

void *rc_l1_ext_of(struct ctrl *b)
{
    return rc_of(b)->ext_state;
}

void rc_l1_take_response(struct ctrl *b, struct msg *m)
{
    take_response(b, m);
}

static const struct coh_table *const rc_tables[] = {&rc_l1_table, &nc_l2_table, NULL};

const struct proto_desc proto_rc = {
    .name = "rc",
    .title = "non-coherent write-through L1, software-managed release consistency",
    .model = MODEL_PTX,
    .n_vnets = NC_NVNETS,
    .vnet_names = nc_vnet_names,
    .tables = rc_tables,
    .n_l1_tables = 1,
    .l1 = {rc_l1_create, ctrl_connect, ctrl_in_port, ctrl_destroy, NULL, ctrl_peek, ctrl_stats},
    .l2 = NC_L2_OPS,
    .symmetry = &nc_symmetry,
};

const struct proto_desc proto_rc_noinv = {
    .name = "rc-noinv",
    .title = "rc with a deliberate bug for testing the checkers: acquires do not invalidate "
             "the L1 (kernel launches still do)",
    .test_only = true,
    .model = MODEL_PTX,
    .n_vnets = NC_NVNETS,
    .vnet_names = nc_vnet_names,
    .tables = rc_tables,
    .n_l1_tables = 1,
    .l1 = {rc_noinv_create, ctrl_connect, ctrl_in_port, ctrl_destroy, NULL, ctrl_peek, ctrl_stats},
    .l2 = NC_L2_OPS,
    .symmetry = &nc_symmetry,
};
