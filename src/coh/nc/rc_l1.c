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
 * The multi-GPM protocols' L1 (mg_l1_create) performs .cta atomics itself
 * (spec 004b §2.2: .cta synchronisation at the L1): every thread a .cta
 * atomic must be atomic with (its CTA's, at any scope) goes through this L1,
 * which serialises them per line. On a valid copy it applies the atomic,
 * answers, and writes the bytes through (posted: the L1 absorbs the ack;
 * the write is ahead of anything later from this L1 to the bank); a miss
 * fetches the line first, with the atomic parked; while writes, atomics or
 * L2 loads of the line are outstanding (II) it goes to the L2 behind them.
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
#include "coh/mg/mg.h"

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

/* Multi-GPM protocols: a round of markers (MSG_MG_REL or MSG_MG_ACQ), one to
 * every L2 bank of the GPM. A GPM may have more banks than the L1's request
 * port holds messages (noc.vc_flits), so the markers go out in batches as the
 * port has room; the round is done when every bank has acknowledged. */
struct marker_round {
    struct mem_req req; /* the scope and ids every marker carries */
    uint16_t type;      /* MSG_MG_REL or MSG_MG_ACQ */
    uint32_t id;        /* comes back in the acknowledgements' sharer field */
    unsigned sent;      /* markers sent so far, to banks 0 .. sent - 1 */
    unsigned acks;      /* acknowledgements still expected */
};

struct rc_l1 {
    struct ctrl base;
    bool flash_pending;        /* an acquire completed in this step: invalidate after it */
    bool bug_acquire_keeps_l1; /* rc-noinv (test only): acquires do not invalidate */
    bool cta_atomics_here;     /* multi-GPM L1s: .cta atomics are performed in this L1 */
    /* multi-GPM protocols (coh/mg): a release wider than .cta is completed by
     * the L2 banks (every bank of the GPM acknowledges MSG_MG_REL once the
     * writes and invalidations it must cover have arrived) */
    bool release_at_l2;
    struct msg *rel_held;    /* the request waiting for its release, or NULL */
    struct marker_round rel; /* ... its round */
    /* software coherence (sw-nh, sw-h): an acquire wider than .cta also has
     * the L2 banks drop their copies of remote lines (MSG_MG_ACQ) before it
     * completes; responses of acquiring loads and atomics wait for a round */
    bool acquire_at_l2;
    struct msg_list acq_next;  /* acquiring responses waiting for the next round */
    struct msg_list acq_round; /* ... those the round under way completes */
    struct marker_round acq;   /* ... its round */
    struct rc_stats st;
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
 * to the L2 (MG_F_L1WT: its acknowledgement stays here). */
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
    w->flags = MG_F_L1WT;
    for (unsigned i = 0; i < a->n; i++)
        bytemask_set_range(&w->mask, a->lane[i].off, atom_type_bytes((enum atom_type)a->type));
    memcpy(w->data, x->line->data, b->line_bytes);
    ctrl_to_home(b, w, MSG_NC_WRITE, NC_VNET_REQ, TRAFFIC_ST, (uint16_t)bytemask_count(&w->mask));
    ctrl_to_core(b, m, b->hit_ps);
    x->msg = NULL;
}

/* A miss of a .cta atomic: read the line (MG_F_L1FETCH: the answer goes to
 * no request of the SM; loads that come meanwhile merge into it). */
static void fetch_line(struct coh_ctx *x)
{
    struct ctrl *b = ctrl_of(x);
    struct msg *k = msg_new(b->w.msgs, MSG_NC_GETS, x->addr, b->comp.eng->now);
    k->req = x->msg->req;
    k->req.op = MEM_LOAD;
    k->req.atom = NULL;
    k->flags = MG_F_L1FETCH | NC_F_MERGED;
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
    if (m->flags & MG_F_L1FETCH) { /* a .cta atomic's fetch: it is parked, and replays */
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
        return c->cta_atomics_here && r->scope == SCOPE_CTA ? RC_CtaAtomic : RC_Atomic;
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

/* Multi-GPM protocols: does request m release at .gpu/.sys scope (a fence,
 * a kernel end, a store or atomic with release semantics)? */
static bool releases_at_l2(const struct rc_l1 *c, const struct msg *m)
{
    const struct mem_req *r = &m->req;
    if (!c->release_at_l2 || (m->flags & MG_F_RELEASED) || r->op == MEM_LOAD ||
        r->op == MEM_KERNEL_BEGIN)
        return false;
    if (r->op == MEM_KERNEL_END)
        return true;
    return r->scope >= SCOPE_GPU &&
           (r->sem == SEM_RELEASE || r->sem == SEM_ACQ_REL || r->sem == SEM_SC);
}

/* Software coherence: does the fence or kernel start m acquire at
 * .gpu/.sys scope (the banks must drop remote copies first)? */
static bool acquires_at_l2(const struct rc_l1 *c, const struct msg *m)
{
    const struct mem_req *r = &m->req;
    if (!c->acquire_at_l2 || (m->flags & MG_F_ACQUIRED))
        return false;
    return r->op == MEM_KERNEL_BEGIN || (r->op == MEM_FENCE && r->scope >= SCOPE_GPU);
}

/* Send the round's markers that the request vnet has room for, in bank
 * order. Left unsent, they wait for the tick: the port is then full, and a
 * full port wakes its sender when it frees. Returns whether it sent any. */
static bool send_markers(struct rc_l1 *c, struct marker_round *r)
{
    struct ctrl *b = &c->base;
    struct port *out = b->links.net_out[NC_VNET_REQ];
    unsigned first = r->sent;
    for (; r->sent < b->w.n_banks && port_has_room(out, 1); r->sent++) {
        struct msg *k =
            msg_new(b->w.msgs, r->type, (addr_t)r->sent * b->line_bytes, b->comp.eng->now);
        k->req = r->req;
        k->sharer = r->id;
        ctrl_to_home(b, k, r->type, NC_VNET_REQ, TRAFFIC_REQ, 0);
    }
    return r->sent != first;
}

/* May a round start? It waits for room for its first batch: a marker to
 * every bank when the port holds that many (as it always did; a round never
 * trickles out behind other requests then), else a full port's worth. */
static bool round_may_start(const struct rc_l1 *c)
{
    const struct port *out = c->base.links.net_out[NC_VNET_REQ];
    unsigned n = c->base.w.n_banks;
    return port_has_room(out, n < out->cap ? n : out->cap);
}

/* Begin round r of `type` for req: its first batch of markers goes now. */
static void start_round(struct rc_l1 *c, struct marker_round *r, const struct mem_req *req,
                        uint16_t type, uint32_t id)
{
    *r = (struct marker_round){.req = *req, .type = type, .id = id, .acks = c->base.w.n_banks};
    send_markers(c, r);
}

/* A round for every acquiring response waiting, when none is under way and
 * the request vnet has room (else the tick tries again: a full port wakes
 * its sender when it frees): MSG_MG_ACQ at the widest scope among them.
 * Returns whether it started one. */
static bool start_acq_round(struct rc_l1 *c)
{
    if (c->acq_round.n || !c->acq_next.n || !round_may_start(c))
        return false;
    struct msg widest = {0};
    for (struct msg *m = c->acq_next.head; m; m = m->next)
        if (!widest.req.op || m->req.scope > widest.req.scope)
            widest.req = m->req;
    c->acq_round = c->acq_next;
    c->acq_next = (struct msg_list){0};
    start_round(c, &c->acq, &widest.req, MSG_MG_ACQ, 1);
    return true;
}

/* Start a release (or, for software coherence, an acquire) at the banks:
 * m waits for their acknowledgements. False (a resource stall) while
 * another is under way or the request vnet lacks room. */
static bool start_release(struct rc_l1 *c, struct msg *m, bool acquire)
{
    struct ctrl *b = &c->base;
    if (!round_may_start(c)) {
        b->st.resource_stalls++;
        return false;
    }
    m->flags |= acquire ? MG_F_ACQUIRED : MG_F_RELEASED;
    c->rel_held = m;
    start_round(c, &c->rel, &m->req, acquire ? MSG_MG_ACQ : MSG_MG_REL, 0);
    return true;
}

/* Software coherence: the response m of a load or atomic that acquires at
 * .gpu/.sys scope waits for the banks to drop their remote copies; one
 * round at a time, later ones join the next. True: m is held. */
static bool hold_acquire(struct rc_l1 *c, struct msg *m)
{
    const struct mem_req *r = &m->req;
    if (!c->acquire_at_l2 || (m->flags & MG_F_ACQUIRED) || r->scope < SCOPE_GPU ||
        (r->sem != SEM_ACQUIRE && r->sem != SEM_ACQ_REL && r->sem != SEM_SC))
        return false;
    m->flags |= MG_F_ACQUIRED;
    msg_list_push(&c->acq_next, m);
    start_acq_round(c);
    return true;
}

/* One core request (new or replayed). Returns false on a resource stall (the
 * request stays where it was). */
static bool take_core(struct ctrl *b, struct msg *m)
{
    struct rc_l1 *c = rc_of(b);
    struct coh_ctx x;
    if (c->rel_held) { /* nothing passes a request held for its release (program order) */
        b->st.resource_stalls++;
        return false;
    }
    if (releases_at_l2(c, m))
        return start_release(c, m, false);
    if (acquires_at_l2(c, m))
        return start_release(c, m, true);
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
    /* (the acquiring responses a round held come back here) */
    struct rc_l1 *c = rc_of(b);
    struct coh_ctx x;
    /* a .cta atomic's write-through, answered already (only its own
     * acknowledgement: other protocols' responses may use the bit) */
    if (m->type == MSG_NC_WRACK && (m->flags & MG_F_L1WT)) {
        msg_free(b->w.msgs, m);
        return;
    }
    if (m->type == MSG_MG_RELACK && m->sharer == 1) { /* an acquiring responses' round */
        msg_free(b->w.msgs, m);
        if (!--c->acq.acks) {
            struct msg *r;
            while ((r = msg_list_pop(&c->acq_round)))
                take_response(b, r);
            start_acq_round(c);
        }
        return;
    }
    if (m->type == MSG_MG_RELACK) {
        msg_free(b->w.msgs, m);
        if (!--c->rel.acks) { /* released: the held request goes on, first */
            msg_list_push_front(&b->replay, c->rel_held);
            c->rel_held = NULL;
        }
        return;
    }
    if (hold_acquire(c, m))
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
    /* the rest of a round whose markers did not all fit the port */
    bool moved = c->rel_held && send_markers(c, &c->rel);
    moved |= c->acq_round.n && send_markers(c, &c->acq);
    moved |= c->acq_next.n && start_acq_round(c);
    moved |= ctrl_take_one(b, b->links.net_in[NC_VNET_RSP], take_response);
    moved |= ctrl_take_next(b, &b->in, take_core);
    if (moved)
        return true;
    /* a request left waiting stalled on a resource: sleep until it may clear */
    if (b->replay.n || port_peek(&b->in))
        return ctrl_stall_sleep(b, &b->links.net_in[NC_VNET_RSP], 1);
    /* a release under way wakes us with its acknowledgements */
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

/* The multi-GPM protocols' L1: rc's rows and the .cta atomics it performs. */
static const struct ctrl_stat mg_l1_stat_rows[] = {
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

/* The L1 of the multi-GPM protocols (coh/mg): rc's, releasing through the L2s. */
struct comp *mg_l1_create(const struct ctrl_wiring *w)
{
    struct comp *cp = rc_l1_create(w);
    rc_of(cp)->release_at_l2 = true;
    rc_of(cp)->cta_atomics_here = true;
    ctrl_set_stats(&rc_of(cp)->base, mg_l1_stat_rows, &rc_of(cp)->st);
    return cp;
}

/* ... and of software coherence (sw-nh, sw-h): acquiring through them too. */
struct comp *mg_sw_l1_create(const struct ctrl_wiring *w)
{
    struct comp *cp = mg_l1_create(w);
    rc_of(cp)->acquire_at_l2 = true;
    return cp;
}

void mg_l1_view(struct comp *l1, struct mg_l1_view *v)
{
    const struct rc_l1 *c = rc_of(l1);
    *v = (struct mg_l1_view){
        .rel_held = c->rel_held, .acq_next = &c->acq_next, .acq_round = &c->acq_round};
    if (c->rel_held) { /* a finished round's counts are leftovers */
        v->rel_type = c->rel.type;
        v->rel_sent = c->rel.sent;
        v->rel_acks = c->rel.acks;
    }
    if (c->acq_round.n) {
        v->acq_sent = c->acq.sent;
        v->acq_acks = c->acq.acks;
    }
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
};
