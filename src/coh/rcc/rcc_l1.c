/*
 * rcc_l1.c - the L1 of Relativistic Cache Coherence: a write-through,
 * write-no-allocate L1 whose copies carry logical leases (RCC-SC `rccsc`,
 * RCC-WO `rccwo`).
 *
 * Spec 004a §3.2-3.7 (thesis Fig. 3.5a). The L1 keeps its SM's logical clock
 * `now` (one per SM, shared by its warps, spec 004a §9 item 7): every global
 * access of the SM passes through here, so the clock needs no other home. A
 * copy is valid while now <= exp. Loads fill (GETS carries now); a load that
 * finds its copy expired sends the copy's exp with its GETS, and the L2
 * answers RENEW (a new lease, no data) when the line was not written since
 * (spec 004a §3.10). Stores and atomics go to the L2 (WRITE/ATOMIC carry
 * now); their ACK and result carry the version they were performed at, and
 * the clock moves to it (rules 2 and 3: past every lease of the line, so
 * every stale copy anywhere has expired for this SM). A fill's version moves
 * the clock too (rule 1). Nothing ever waits for a lease to end.
 * States (thesis: I, V, IV, II, VI) plus E: a present copy whose lease has
 * ended, kept only so that a load can ask for a renewal; it behaves as I.
 * Expiry needs no message: the lookup fires Expire on a V/VI line whose exp
 * is behind now before any other event for it.
 * RCC-WO (spec 004a §3.12, §9 item 11, the store change INFERRED): two
 * clocks, a read view (loads send and take it; the hit test uses it) and a
 * write view (stores send it, their ACK moves it); atomics, fences and
 * acquire/release accesses first join them (both become the larger). A store
 * drops the SM's copy (V -> II): the ACK no longer moves the read view past
 * it, and the SM must read its own write.
 * Livelock guard (spec 004a §3.11): the clock advances by one every
 * rcc.livelock_cycles core cycles, so a spin loop hitting in its L1
 * eventually expires its copy.
 * Strong loads (rcc.strong_loads = l2, the default; INFERRED, see
 * docs/protocols/rccsc.md): a load of gpu scope or wider that is not weak
 * (ld.relaxed/acquire.gpu, ld.volatile: the flags spin loops read) is
 * performed at the L2 and neither uses nor keeps the SM's copy, as the
 * modelled Fermi serves volatile loads. The thesis's workloads spin on such
 * flags; served from the copy, a spin waits for the guard to carry the
 * clock past the copy's lease (up to lease_max x livelock_cycles cycles).
 * Rollover: a bank's FLUSH (the stall ring, rcc_l2.c) moves the clock to the
 * base of the bank's new epoch, every copy dropped, and is answered FLUSHED.
 * The clock can also reach a later epoch first (the livelock guard, or a
 * response from a bank that has rolled over before its FLUSH arrives): the L1
 * then flushes alone; a FLUSH for the epoch it is in drops nothing more.
 * INVARIANT: a load is answered only with data valid at the logical time it
 *   reached the L1: a load merged into a fill whose lease ends before the
 *   clock it merged at is replayed, not answered.
 * DEVIATION: IV + Store/Atomic park until the fill (thesis: -> II), as in
 *   TC's L1; a load in II is performed at the L2 and does not fill.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "coh/rcc/rcc.h"
#include "coh/machine_view.h"
#include "coh/rcc/rcc_options.h"

_Static_assert((int)RCC_VNET_REQ == CTRL_VNET_REQ && (int)RCC_VNET_RSP == CTRL_VNET_RSP,
               "the RCC L1 sends on the write-through vnets");

#define RCC_L1_STATES(X)                                                                           \
    X(I, "not present")                                                                            \
    X(V, "valid: now <= exp")                                                                      \
    X(E, "present, lease ended (exp < now): data kept for a renewal, otherwise as I")              \
    X(IV, "load miss or renewal outstanding; later loads merge")                                   \
    X(II, "writes, atomics or loads at the L2 outstanding, no valid copy; responses do not fill")  \
    X(VI, "writes or atomics outstanding; the old copy stays readable until the clock passes it")

#define RCC_L1_EVENTS(X)                                                                           \
    X(Load, "load from the SM")                                                                    \
    X(MergeFull, "load to a line whose outstanding fill has merged merge_max loads")               \
    X(LoadL2, "strong load (gpu scope or wider, not weak), rcc.strong_loads = l2: at the L2")      \
    X(Store, "store from the SM (write-through)")                                                  \
    X(Atomic, "atomic from the SM (performed at the L2)")                                          \
    X(Replace, "a fill needs this line's way")                                                     \
    X(FlashInv, "kernel launch or rollover: drop the copy")                                        \
    X(Expire, "the copy's lease has ended (exp < now), seen at access")                            \
    X(Data, "the fill: line, lease end and version")                                               \
    X(DataExpired, "the fill, its lease already behind the clock when it arrives")                 \
    X(Renew, "a new lease for the expired copy this L1 holds")                                     \
    X(RenewExpired, "a renewal whose lease is already behind the clock")                           \
    X(RenewLost, "a renewal for a copy replaced while it was asked for")                           \
    X(Rsp, "a response (ack, atomic result, load at the L2) with more outstanding")                \
    X(LastRsp, "the last outstanding response of the line")

#define X(n, d) L1_##n,
enum l1_state { RCC_L1_STATES(X) L1_NSTATES };
enum l1_event { RCC_L1_EVENTS(X) L1_NEVENTS };
#undef X
COH_NAMES(RCC_L1_STATES, RCC_L1_EVENTS);

#define EXP(l) ((l)->meta[0]) /* the copy's lease end, logical time */

struct l1_stats {
    uint64_t expirations, renewals_asked, renewals, renewals_lost, fills_expired;
    uint64_t loads_replayed, rollovers, flash_invalidations, livelock_ticks, clock_jumps;
    uint64_t flushes;
};

struct rcc_l1 {
    struct ctrl base;
    enum rcc_variant v;
    uint64_t now;  /* the SM's clock (rccwo: the read view) */
    uint64_t wnow; /* rccwo: the write view (rccsc: unused) */
    unsigned ts_bits;
    uint64_t epoch; /* rcc_epoch of the clock */
    tick_t core_ps;
    uint64_t livelock; /* core cycles per tick of the guard (0: off) */
    uint64_t guard_at; /* core cycle up to which the guard has ticked */
    bool strong_at_l2; /* rcc.strong_loads = l2 */
    struct l1_stats st;
};

static struct rcc_l1 *l1_of(void *p)
{
    return p;
}

static uint64_t now_cycles(const struct rcc_l1 *c)
{
    return c->base.comp.eng->now / c->core_ps;
}

/* Move a view of the clock forward to t (never back: R1). */
static void advance(struct rcc_l1 *c, uint64_t *view, uint64_t t)
{
    if (t <= *view)
        return;
    if (c->base.w.obs)
        rcc_obs_now(c->base.w.name, *view, t);
    c->st.clock_jumps++;
    *view = t;
}

/* The view a load reads at (and the hit test uses). */
static uint64_t read_view(const struct rcc_l1 *c)
{
    return c->now;
}

static uint64_t write_view(const struct rcc_l1 *c)
{
    return c->v == RCC_WO ? c->wnow : c->now;
}

/* rccwo: a full fence, an atomic or an acquire/release: both views become the larger. */
static void join_views(struct rcc_l1 *c)
{
    if (c->v != RCC_WO)
        return;
    uint64_t m = MAX(c->now, c->wnow);
    advance(c, &c->now, m);
    advance(c, &c->wnow, m);
}

/* ---- actions ---- */

static void send_gets(struct coh_ctx *x)
{
    struct rcc_l1 *c = l1_of(x->ctrl);
    struct msg *m = x->msg;
    bool fill = x->state == L1_I || x->state == L1_E;
    m->flags = 0;
    m->ts = read_view(c);
    /* only a copy the L1 still holds may be renewed (spec 004a §9 item 4) */
    m->ts2 = x->state == L1_E ? EXP(x->line) : 0;
    c->st.renewals_asked += m->ts2 != 0;
    ctrl_l1_send_gets(x, MSG_RCC_GETS, fill, RCC_F_MERGED);
}

/* A strong load: GETS{now, 0} performed at the L2; the response answers it
 * without filling, and its version moves the clock (rule 1). */
static void send_gets_at_l2(struct coh_ctx *x)
{
    struct rcc_l1 *c = l1_of(x->ctrl);
    x->msg->flags = 0;
    x->msg->ts = read_view(c);
    x->msg->ts2 = 0;
    ctrl_l1_send_gets(x, MSG_RCC_GETS, false, 0);
}

/* The copy a renewal was asked for is gone: ask again, for the data. */
static void resend_gets(struct coh_ctx *x)
{
    struct rcc_l1 *c = l1_of(x->ctrl);
    struct msg *m = x->msg;
    c->st.renewals_lost++;
    x->tbe->pending--;
    m->flags = RCC_F_MERGED;
    m->ts = read_view(c);
    m->ts2 = 0;
    ctrl_l1_request(x, MSG_RCC_GETS, TRAFFIC_REQ, 0);
}

static void send_write(struct coh_ctx *x)
{
    struct rcc_l1 *c = l1_of(x->ctrl);
    x->msg->flags = 0;
    x->msg->ts = write_view(c);
    ctrl_l1_send_write(x, MSG_RCC_WRITE);
}

static void send_atomic(struct coh_ctx *x)
{
    struct rcc_l1 *c = l1_of(x->ctrl);
    join_views(c);
    x->msg->flags = 0;
    x->msg->ts = write_view(c);
    ctrl_l1_send_atomic(x, MSG_RCC_ATOMIC);
}

static void merge_load(struct coh_ctx *x)
{
    x->msg->ts2 = read_view(l1_of(x->ctrl)); /* answered only if the lease reaches it */
    ctrl_l1_merge_load(x);
}

static void reply_hit(struct coh_ctx *x)
{
    struct rcc_l1 *c = l1_of(x->ctrl);
    struct ctrl *b = &c->base;
    if (b->w.obs)
        rcc_obs_l1(b->w.proto_ctx, b->w.obs, b->w.name, x->addr, EXP(x->line), read_view(c),
                   b->line_bytes, x->line->data, &x->msg->mask);
    ctrl_l1_reply_hit(x);
}

static void count_expiry(struct coh_ctx *x)
{
    l1_of(x->ctrl)->st.expirations++;
}

/* Rule 1 (a fill, a load at the L2) and rules 2-3 (ACK, atomic result): the
 * clock moves to the version the response carries. rccwo: a load's version
 * moves the read view, a write's the write view, an atomic's both. */
static void take_version(struct coh_ctx *x)
{
    struct rcc_l1 *c = l1_of(x->ctrl);
    struct msg *m = x->msg;
    if (c->v == RCC_WO && m->type == MSG_RCC_ACK) {
        advance(c, &c->wnow, m->ts2);
        return;
    }
    advance(c, &c->now, m->ts2);
    if (c->v == RCC_WO && m->type == MSG_RCC_ATOMRSP)
        advance(c, &c->wnow, m->ts2);
}

static void observe_copy(struct rcc_l1 *c, struct coh_ctx *x)
{
    struct ctrl *b = &c->base;
    if (b->w.obs)
        rcc_obs_l1(b->w.proto_ctx, b->w.obs, b->w.name, x->addr, EXP(x->line), read_view(c),
                   b->line_bytes, NULL, NULL);
}

/* Install the fill (over the expired copy if a renewal was refused). */
static void fill_line(struct coh_ctx *x)
{
    struct rcc_l1 *c = l1_of(x->ctrl);
    if (x->line) {
        memcpy(x->line->data, x->msg->data, c->base.line_bytes);
        c->base.st.fills++;
    } else {
        ctrl_l1_fill_line(x);
    }
    EXP(x->line) = x->msg->ts;
    observe_copy(c, x);
}

static void renew_line(struct coh_ctx *x)
{
    struct rcc_l1 *c = l1_of(x->ctrl);
    c->st.renewals++;
    EXP(x->line) = x->msg->ts;
    memcpy(x->msg->data, x->line->data, c->base.line_bytes); /* what the loads read */
    observe_copy(c, x);
}

static void count_expired_fill(struct coh_ctx *x)
{
    l1_of(x->ctrl)->st.fills_expired++;
}

/* Answer the fill's own load and every load merged while the lease still
 * reached the clock; later ones replay (see INVARIANT). */
static void reply_fill(struct coh_ctx *x)
{
    struct rcc_l1 *c = l1_of(x->ctrl);
    struct msg *m = x->msg;
    x->tbe->pending--;
    c->st.loads_replayed += ctrl_l1_answer_in_time(&c->base, x->tbe, m->data, m->ts);
    ctrl_to_core(&c->base, m, 0);
    x->msg = NULL;
}

static void reply_rsp(struct coh_ctx *x)
{
    struct rcc_l1 *c = l1_of(x->ctrl);
    x->tbe->pending--;
    ctrl_to_core(&c->base, x->msg, 0);
    x->msg = NULL;
}

static const struct coh_action_name actions[] = {
    {ctrl_alloc_tbe, "alloc_tbe", "allocate a TBE for the line"},
    {ctrl_free_tbe, "free_tbe", "free the TBE and replay requests parked on it"},
    {send_gets, "send_gets",
     "GETS{now, exp}: exp of the expired copy held (a renewal may answer), else 0"},
    {resend_gets, "resend_gets", "the copy is gone: GETS{now, 0} for the data"},
    {send_gets_at_l2, "send_gets_at_l2", "GETS{now, 0} answered at the L2, no fill"},
    {send_write, "send_write", "WRITE{now} of the masked bytes (rccwo: the write view)"},
    {send_atomic, "send_atomic", "ATOMIC{now} (rccwo: views joined first)"},
    {merge_load, "merge_load", "answer this load with the outstanding fill (if its lease reaches)"},
    {reply_hit, "reply_hit", "answer the load from the line after the hit latency"},
    {count_expiry, "expire", "the lease has ended: the copy behaves as I (kept for a renewal)"},
    {ctrl_drop_line, "drop_line", "free the way (silently: write-through keeps the L2 current)"},
    {take_version, "take_version",
     "now := max(now, M.ver) (rccwo: ACK the write view, data the read view, atomic both)"},
    {fill_line, "fill_line", "install the data and exp = M.exp"},
    {renew_line, "renew_line", "exp = M.exp: the copy is current again"},
    {count_expired_fill, "count_expired_fill", "count a fill whose lease ended in flight"},
    {reply_fill, "reply_fill", "answer the load and the loads merged in time (later ones replay)"},
    {reply_rsp, "reply_rsp", "answer the request"},
    {ctrl_nothing, "nothing", "no action"},
    {0},
};

/* ---- the tables ---- */

/* The cells RCC-SC and RCC-WO share; they differ in V + Store/Atomic. */
// clang-format off
/*  state    event              next    uses               actions                               */
#define RCC_L1_COMMON_CELLS                                                                      \
    [L1_I][L1_Load] = DO(L1_IV, TAG_RD, ctrl_alloc_tbe, send_gets),                              \
    [L1_I][L1_Store] = DO(L1_II, TAG_RD, ctrl_alloc_tbe, send_write),                            \
    [L1_I][L1_Atomic] = DO(L1_II, TAG_RD, ctrl_alloc_tbe, send_atomic),                          \
    [L1_I][L1_LoadL2] = DO(L1_II, TAG_RD, ctrl_alloc_tbe, send_gets_at_l2),                      \
    [L1_V][L1_Load] = DO(L1_V, TAG_RD | DATA_RD, reply_hit),                                     \
    [L1_V][L1_Replace] = DO(L1_I, TAG_WR, ctrl_drop_line),                                       \
    [L1_V][L1_FlashInv] = DO(L1_I, TAG_WR, ctrl_drop_line),                                      \
    [L1_V][L1_Expire] = DO(L1_E, TAG_WR, count_expiry),                                          \
    [L1_V][L1_LoadL2] = DO(L1_II, TAG_RD | TAG_WR, ctrl_drop_line, ctrl_alloc_tbe,               \
        send_gets_at_l2),                                                                        \
    [L1_E][L1_Load] = DO(L1_IV, TAG_RD, ctrl_alloc_tbe, send_gets),                              \
    [L1_E][L1_Store] = DO(L1_II, TAG_RD | TAG_WR, ctrl_drop_line, ctrl_alloc_tbe, send_write),   \
    [L1_E][L1_Atomic] = DO(L1_II, TAG_RD | TAG_WR, ctrl_drop_line, ctrl_alloc_tbe, send_atomic), \
    [L1_E][L1_LoadL2] = DO(L1_II, TAG_RD | TAG_WR, ctrl_drop_line, ctrl_alloc_tbe,               \
        send_gets_at_l2),                                                                        \
    [L1_E][L1_Replace] = DO(L1_I, TAG_WR, ctrl_drop_line),                                       \
    [L1_E][L1_FlashInv] = DO(L1_I, TAG_WR, ctrl_drop_line),                                      \
    [L1_IV][L1_Load] = DO(L1_IV, TAG_RD, merge_load),                                            \
    [L1_IV][L1_MergeFull] = STALL,                                                               \
    [L1_IV][L1_LoadL2] = DO(L1_IV, TAG_RD, merge_load),                                          \
    [L1_IV][L1_Store] = STALL,                                                                   \
    [L1_IV][L1_Atomic] = STALL,                                                                  \
    [L1_IV][L1_Replace] = DO(L1_IV, TAG_WR, ctrl_drop_line),                                     \
    [L1_IV][L1_FlashInv] = DO(L1_IV, TAG_WR, ctrl_drop_line),                                    \
    [L1_IV][L1_Data] = DO(L1_V, TAG_WR | DATA_WR, take_version, fill_line, reply_fill,           \
        ctrl_free_tbe),                                                                          \
    [L1_IV][L1_DataExpired] = DO(L1_E, TAG_WR | DATA_WR, take_version, fill_line,                \
        count_expired_fill, reply_fill, ctrl_free_tbe),                                          \
    [L1_IV][L1_Renew] = DO(L1_V, TAG_WR | DATA_RD, renew_line, reply_fill, ctrl_free_tbe),       \
    [L1_IV][L1_RenewExpired] = DO(L1_E, TAG_WR | DATA_RD, renew_line, count_expired_fill,        \
        reply_fill, ctrl_free_tbe),                                                              \
    [L1_IV][L1_RenewLost] = DO(L1_IV, 0, resend_gets),                                           \
    [L1_II][L1_Load] = DO(L1_II, TAG_RD, send_gets),                                             \
    [L1_II][L1_LoadL2] = DO(L1_II, TAG_RD, send_gets_at_l2),                                     \
    [L1_II][L1_Store] = DO(L1_II, TAG_RD, send_write),                                           \
    [L1_II][L1_Atomic] = DO(L1_II, TAG_RD, send_atomic),                                         \
    [L1_II][L1_Rsp] = DO(L1_II, 0, take_version, reply_rsp),                                     \
    [L1_II][L1_LastRsp] = DO(L1_I, 0, take_version, reply_rsp, ctrl_free_tbe)
// clang-format on

/*  state    event              next    uses               actions                               */
static const struct coh_trans rccsc_l1_cells[L1_NSTATES][L1_NEVENTS] = {
    RCC_L1_COMMON_CELLS,
    /* the old copy serves the SM's other warps until the ACK moves the clock past it */
    [L1_V][L1_Store] = DO(L1_VI, TAG_RD, ctrl_alloc_tbe, send_write),
    [L1_V][L1_Atomic] = DO(L1_VI, TAG_RD, ctrl_alloc_tbe, send_atomic),
    [L1_VI][L1_Load] = DO(L1_VI, TAG_RD | DATA_RD, reply_hit),
    [L1_VI][L1_LoadL2] = DO(L1_VI, TAG_RD, send_gets_at_l2),
    [L1_VI][L1_Store] = DO(L1_VI, TAG_RD, send_write),
    [L1_VI][L1_Atomic] = DO(L1_VI, TAG_RD, send_atomic),
    [L1_VI][L1_Replace] = DO(L1_II, TAG_WR, ctrl_drop_line),
    [L1_VI][L1_FlashInv] = DO(L1_II, TAG_WR, ctrl_drop_line),
    [L1_VI][L1_Expire] = DO(L1_II, TAG_WR, count_expiry, ctrl_drop_line),
    [L1_VI][L1_Rsp] = DO(L1_VI, 0, take_version, reply_rsp),
    /* write-no-allocate: the writer's clock is now past the copy's lease */
    [L1_VI][L1_LastRsp] = DO(L1_I, TAG_WR, take_version, reply_rsp, ctrl_drop_line, ctrl_free_tbe),
};

/*  state    event              next    uses               actions                               */
static const struct coh_trans rccwo_l1_cells[L1_NSTATES][L1_NEVENTS] = {
    RCC_L1_COMMON_CELLS,
    /* the write view's ACK leaves the read view where it was: drop the copy
     * so that the SM reads its own write */
    [L1_V][L1_Store] = DO(L1_II, TAG_RD | TAG_WR, ctrl_drop_line, ctrl_alloc_tbe, send_write),
    [L1_V][L1_Atomic] = DO(L1_II, TAG_RD | TAG_WR, ctrl_drop_line, ctrl_alloc_tbe, send_atomic),
};

static void dump_ctx(struct coh_ctx *x, FILE *out)
{
    if (x->line)
        fprintf(out, "  line %#llx: %s exp %llu\n", (unsigned long long)x->line->addr,
                state_names[x->line->state], (unsigned long long)EXP(x->line));
    ctrl_l1_dump_ctx_tbe(x, out);
}

const struct coh_table rccsc_l1_table =
    COH_TABLE("rccsc", "L1", rccsc_l1_cells, ctrl_set_state, dump_ctx);
const struct coh_table rccwo_l1_table =
    COH_TABLE("rccwo", "L1", rccwo_l1_cells, ctrl_set_state, dump_ctx);

/* ---- time: the livelock guard and rollover ---- */

/* Drop every present copy: stored leases of an older epoch would read as
 * current ones once truncated to the stored width. */
static void flash(struct rcc_l1 *c)
{
    c->st.flash_invalidations++;
    ctrl_l1_flash(&c->base, L1_FlashInv, -1);
}

/* The clock is about to reach logical time t: past its epoch, every copy
 * goes and the clock (both views) jumps to the new epoch's base. */
static void roll_to(struct rcc_l1 *c, uint64_t t)
{
    uint64_t e = rcc_epoch(t, c->ts_bits);
    if (e <= c->epoch)
        return;
    c->epoch = e;
    c->st.rollovers++;
    uint64_t base = e << c->ts_bits;
    advance(c, &c->now, base);
    advance(c, &c->wnow, base);
    flash(c);
}

/* The livelock guard's ticks since the last look (exact whenever it is
 * looked at, so sleeping through them changes nothing). */
static void guard(struct rcc_l1 *c)
{
    if (!c->livelock)
        return;
    uint64_t cyc = now_cycles(c);
    if (cyc < c->guard_at + c->livelock)
        return;
    uint64_t k = (cyc - c->guard_at) / c->livelock;
    c->guard_at += k * c->livelock;
    c->st.livelock_ticks += k;
    roll_to(c, MAX(c->now, c->wnow) + k);
    advance(c, &c->now, c->now + k);
    if (c->v == RCC_WO)
        advance(c, &c->wnow, c->wnow + k);
}

/* ---- the classifier ---- */

/* Look the line up; a present V/VI copy whose lease has ended expires first. */
static void lookup_live(struct ctrl *b, struct coh_ctx *x, addr_t line)
{
    ctrl_lookup(b, x, line);
    if (x->line && (x->state == L1_V || x->state == L1_VI) && EXP(x->line) < read_view(l1_of(b))) {
        x->event = L1_Expire;
        ctrl_step(b, x);
        ctrl_lookup(b, x, line);
    }
}

static unsigned classify_core(const struct rcc_l1 *c, const struct coh_ctx *x)
{
    switch (x->msg->req.op) {
    case MEM_LOAD:
        if (x->state == L1_IV && x->tbe->merged.n >= c->base.merge_max)
            return L1_MergeFull;
        return c->strong_at_l2 && mem_req_strong_gpu(&x->msg->req) ? L1_LoadL2 : L1_Load;
    case MEM_STORE:
        return L1_Store;
    default:
        return L1_Atomic;
    }
}

static bool orders(const struct mem_req *r)
{
    return r->sem == SEM_ACQUIRE || r->sem == SEM_RELEASE || r->sem == SEM_ACQ_REL ||
           r->sem == SEM_SC;
}

/* Fences and kernel boundaries (the SM has already waited for the warp's
 * earlier accesses): a launch drops every copy (the host may have written
 * between kernels); rccwo: a fence joins the views. Answered at once. */
static void order_op(struct ctrl *b, struct msg *m)
{
    struct rcc_l1 *c = l1_of(b);
    if (m->req.op == MEM_KERNEL_BEGIN)
        flash(c);
    else if (m->req.op == MEM_FENCE)
        join_views(c);
    ctrl_to_core(b, m, 0);
}

static bool take_core(struct ctrl *b, struct msg *m)
{
    struct rcc_l1 *c = l1_of(b);
    struct coh_ctx x;
    enum ctrl_take r = ctrl_l1_begin(b, &x, m, order_op, ctrl_l1_room(b), lookup_live);
    if (r != CTRL_GO)
        return r == CTRL_TAKEN;
    if (orders(&m->req))
        join_views(c);
    x.event = classify_core(c, &x);
    ctrl_step_or_park(b, &x);
    return true;
}

static void take_response(struct ctrl *b, struct msg *m)
{
    struct rcc_l1 *c = l1_of(b);
    roll_to(c, MAX(m->ts, m->ts2)); /* a bank in a later epoch: flush first */
    struct coh_ctx x;
    lookup_live(b, &x, m->addr);
    x.msg = m;
    panic_if(!x.tbe, "%s: response for %#llx with no TBE", b->w.name, (unsigned long long)m->addr);
    if (x.state == L1_IV && m->type == MSG_RCC_RENEW) {
        x.event = !x.line ? L1_RenewLost : m->ts < read_view(c) ? L1_RenewExpired : L1_Renew;
    } else if (x.state == L1_IV) {
        panic_if(m->type != MSG_RCC_DATA, "%s: response type %u to a fill of %#llx", b->w.name,
                 m->type, (unsigned long long)m->addr);
        if (!x.line) {
            ctrl_l1_make_room(b, m->addr, L1_Replace); /* the victim goes through the table */
            ctrl_lookup(b, &x, m->addr);
            x.msg = m;
        }
        x.event = m->ts < MAX(read_view(c), m->ts2) ? L1_DataExpired : L1_Data;
    } else {
        x.event = x.tbe->pending == 1 ? L1_LastRsp : L1_Rsp;
    }
    ctrl_step(b, &x);
}

/* The stall ring's FLUSH: to the epoch's base, every copy dropped, and
 * FLUSHED back to the bank that started the rollover. */
static void take_flush(struct rcc_l1 *c, struct msg *m)
{
    struct ctrl *b = &c->base;
    c->st.flushes++;
    roll_to(c, m->ts);
    m->type = MSG_RCC_FLUSHED;
    m->vnet = RCC_VNET_REQ;
    m->dst = m->src;
    m->src = (uint16_t)b->w.index;
    if (!port_send(b->links.net_out[RCC_VNET_REQ], m))
        panic("%s: request vnet full after room check", b->w.name);
}

/* The next response, unless it is a renewal for a copy replaced meanwhile
 * (RenewLost sends a GETS) or a FLUSH, and the request vnet is full: it
 * waits. */
static bool take_next_response(struct rcc_l1 *c)
{
    struct ctrl *b = &c->base;
    struct port *in = b->links.net_in[RCC_VNET_RSP];
    struct msg *m = port_peek(in);
    if (!m)
        return false;
    bool asks =
        m->type == MSG_RCC_FLUSH || (m->type == MSG_RCC_RENEW && !cache_find(&b->cache, m->addr));
    if (asks && !port_has_room(b->links.net_out[RCC_VNET_REQ], 1)) {
        b->st.resource_stalls++;
        return false;
    }
    if (m->type == MSG_RCC_FLUSH) {
        take_flush(c, port_pop(in));
        return true;
    }
    take_response(b, port_pop(in));
    return true;
}

/* ---- tick ---- */

/* One L1 cycle: the livelock guard, one response, one core request (parked
 * ones replay before new ones). */
static bool rcc_l1_tick(struct comp *cp)
{
    struct rcc_l1 *c = l1_of(cp);
    struct ctrl *b = &c->base;

    ctrl_tick_begin(b);
    guard(c);
    bool moved = take_next_response(c);
    moved |= ctrl_take_next(b, &b->in, take_core);
    if (moved)
        return true;
    if (b->replay.n || port_peek(&b->in) || port_peek(b->links.net_in[RCC_VNET_RSP]))
        return ctrl_stall_sleep(b, &b->links.net_in[RCC_VNET_RSP], 1);
    return false;
}

static void rcc_l1_dump(struct comp *cp, FILE *out)
{
    struct rcc_l1 *c = l1_of(cp);
    struct ctrl *b = &c->base;
    if (!b->tbes.n_used && !b->in.n && !b->replay.n)
        return;
    fprintf(out,
            "%s (%s L1) now %llu (write view %llu): %u TBEs, %u core requests queued, "
            "%u replaying\n",
            b->w.name, b->table->proto, (unsigned long long)c->now, (unsigned long long)c->wnow,
            b->tbes.n_used, b->in.n, b->replay.n);
    ctrl_dump_tbes(b, out, NULL);
}

/* ---- construction ---- */

static uint64_t stat_now(const struct ctrl *b)
{
    return ((const struct rcc_l1 *)b)->now;
}

static const struct ctrl_stat rcc_l1_stat_rows[] = {
    CTRL_STAT_BASE(load_hits),
    CTRL_STAT_BASE(load_misses),
    CTRL_STAT_BASE(load_merged),
    CTRL_STAT_BASE(loads_at_l2),
    CTRL_STAT_OWN(struct l1_stats, loads_replayed),
    CTRL_STAT_BASE(stores),
    CTRL_STAT_BASE(atomics),
    CTRL_STAT_BASE(fills),
    CTRL_STAT_OWN(struct l1_stats, fills_expired),
    CTRL_STAT_OWN(struct l1_stats, expirations),
    CTRL_STAT_OWN(struct l1_stats, renewals_asked),
    CTRL_STAT_OWN(struct l1_stats, renewals),
    CTRL_STAT_OWN(struct l1_stats, renewals_lost),
    CTRL_STAT_OWN(struct l1_stats, flash_invalidations),
    CTRL_STAT_OWN(struct l1_stats, rollovers),
    CTRL_STAT_OWN(struct l1_stats, flushes),
    CTRL_STAT_OWN(struct l1_stats, livelock_ticks),
    CTRL_STAT_OWN(struct l1_stats, clock_jumps),
    CTRL_STAT_FN("now", stat_now),
    CTRL_STAT_BASE(resource_stalls),
    CTRL_STAT_BASE(protocol_stalls),
    CTRL_STAT_END,
};

static struct comp *create(const struct ctrl_wiring *w, const struct coh_table *t,
                           enum rcc_variant v)
{
    struct rcc_l1 *c = ctrl_alloc(sizeof *c);
    c->v = v;
    ctrl_l1_init(&c->base, w, t, rcc_l1_tick, rcc_l1_dump);
    ctrl_set_stats(&c->base, rcc_l1_stat_rows, &c->st);
    c->core_ps = clock_period_ps(w->cfg->gpu.core_mhz);
    const struct rcc_spec *rcc = rcc_spec_of(w->cfg);
    c->ts_bits = rcc->ts_bits;
    c->livelock = rcc->livelock_cycles;
    c->strong_at_l2 = rcc->strong_loads == 0;
    return &c->base.comp;
}

struct comp *rccsc_l1_create(const struct ctrl_wiring *w)
{
    return create(w, &rccsc_l1_table, RCC_SC);
}

struct comp *rccwo_l1_create(const struct ctrl_wiring *w)
{
    return create(w, &rccwo_l1_table, RCC_WO);
}

void rcc_l1_destroy(struct comp *cp)
{
    ctrl_destroy(cp);
}

/* The line's state as the protocol sees it now: an expired copy is E (VI: II). */
unsigned rcc_l1_peek(struct comp *cp, addr_t line, uint8_t *data, bool *has_data)
{
    struct rcc_l1 *c = l1_of(cp);
    struct cache_line *l = cache_find(&c->base.cache, line);
    unsigned s = ctrl_peek(cp, line, data, has_data);
    if (l && (s == L1_V || s == L1_VI) && EXP(l) < read_view(c))
        return s == L1_VI ? L1_II : L1_E;
    return s;
}

/* The clock as the SM sees it at this moment: the livelock guard's ticks
 * not yet applied (the L1 applies them when it next ticks) added. */
uint64_t rcc_l1_now(struct comp *cp, uint64_t *wview)
{
    struct rcc_l1 *c = l1_of(cp);
    uint64_t k = 0, cyc = now_cycles(c);
    if (c->livelock && cyc >= c->guard_at)
        k = (cyc - c->guard_at) / c->livelock;
    if (wview)
        *wview = write_view(c) + k;
    return c->now + k;
}

/* A copy hits while exp >= the read view: past the mark, none granted by then can. */
bool rcc_l1_lease_passed(struct comp *cp, uint64_t mark)
{
    return !mark || mark < rcc_l1_now(cp, NULL);
}

bool rcc_l1_exp(struct comp *cp, addr_t line, uint64_t *exp)
{
    struct cache_line *l = cache_find(&l1_of(cp)->base.cache, line);
    if (!l)
        return false;
    *exp = EXP(l);
    return true;
}
