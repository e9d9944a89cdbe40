/*
 * mesi_l1.c - the L1 of `mesi`: a write-back, write-allocate MESI cache
 * (spec 002 §3.6, after gem5's MESI_Two_Level L1; paper §4.1, §7).
 *
 * States: the stable I, S, E, M; IS and IM (misses); SM (upgrade), IS_I
 * (a fill overtaken by an invalidation), M_I (write-back of an E/M line in
 * flight) and SINK_WB_ACK (the write-back lost a race to a forward and waits
 * only for its ack) - Table 1's 4 + 2 + 4 L1 states. Loads hit in S, E and
 * M; stores and atomics hit only in M (E -> M is silent), so an atomic is
 * performed at the L1 once it holds M (paper §8.1). A store miss fetches the
 * whole line (write-allocate) and merges its bytes when write permission
 * arrives; until then the store waits in the TBE (the spec's store buffer).
 * A miss takes its way when it is sent: a full set first replaces its LRU
 * stable line (S silently, E and M with a PUTX whose data waits in the TBE
 * for the bank's WB_ACK). An exclusive grant (DATA_E, DATA_X, ACK_X) is
 * answered with an UNBLOCK: the bank holds the line blocked until then, so
 * no forward or invalidation can overtake the grant. Shared data needs no
 * unblock: an invalidation that overtakes it finds the line in IS and turns
 * the fill into a use-once answer (IS_I).
 * Requests to a line leave in program order: one arriving behind a parked
 * request parks too; the TBE answers its held requests in arrival order.
 * Fences need no action (the SM already waited for the warp's accesses; the
 * protocol is coherent). Kernel end writes back and gives up every E and M
 * line and answers when every write-back is acknowledged, so that the host's
 * idle-time reads through the bank see every value; kernel launch drops every
 * S line, because host writes between kernels reach only the bank's copy.
 * INVARIANT (checked with --check): at every grant (-> S, E, M) no other L1
 *   holds E or M, and for E/M no other L1 holds a readable copy (SWMR); a
 *   hit or a fill hands out the golden value, and stores update the golden
 *   memory here, where MESI serialises them.
 * DEVIATION: E is not evicted silently (gem5 sends a PUTX for E too; the
 *   spec's "silent" would leave the bank forwarding to an L1 without the
 *   line); its PUTX is control only. An UPGRADE from an L1 the bank no longer
 *   lists is served as a GETX (gem5 does the same through an ack count).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "coh/mesi/mesi.h"
#include "mem/observe.h"
#include "coh/machine_view.h"

#define MESI_L1_STATES(X)                                                                          \
    X(I, "not present")                                                                            \
    X(S, "shared, read-only")                                                                      \
    X(E, "exclusive, clean: a store makes it M silently")                                          \
    X(M, "modified: the only copy, newer than the L2's")                                           \
    X(IS, "GETS sent; loads merge into the fill")                                                  \
    X(IM, "GETX sent; the store or atomic waits for the line and write permission")                \
    X(SM, "UPGRADE sent from S; the store or atomic waits for write permission")                   \
    X(IS_I, "GETS sent, then invalidated: the fill answers the held loads once and is not "        \
            "cached (unless it is exclusive)")                                                     \
    X(M_I, "PUTX sent (E or M line given up); the data waits in the TBE for the WB_ACK")           \
    X(SINK_WB_ACK, "a forward or recall took the written-back data; waiting for the WB_ACK")

#define MESI_L1_EVENTS(X)                                                                          \
    X(Load, "load from the SM (any semantics: the L1 is coherent)")                                \
    X(MergeFull, "load to a line whose fill has merged merge_max loads")                           \
    X(Store, "store from the SM")                                                                  \
    X(Atomic, "atomic from the SM (performed here once the line is M)")                            \
    X(Busy, "any request to a line in a transient state that takes no more requests")              \
    X(Replace, "a miss needs this line's way")                                                     \
    X(KernelBegin, "kernel launch: drop a shared line (the host may have written it)")             \
    X(KernelEnd, "kernel end: give up an owned line so the bank holds its value")                  \
    X(Inv, "invalidation (class INV) or recall (class RCL) from the bank")                         \
    X(FwdGetS, "another L1 reads the line this L1 owns")                                           \
    X(FwdGetX, "another L1 wants to write the line this L1 owns")                                  \
    X(Data, "the line, shared")                                                                    \
    X(DataE, "the line, exclusive clean")                                                          \
    X(DataX, "the line with write permission")                                                     \
    X(AckX, "write permission for the S line (UPGRADE granted)")                                   \
    X(WbAck, "the bank took the PUTX")

#define X(n, d) L1_##n,
enum l1_state { MESI_L1_STATES(X) L1_NSTATES };
enum l1_event { MESI_L1_EVENTS(X) L1_NEVENTS };
#undef X
COH_NAMES(MESI_L1_STATES, MESI_L1_EVENTS);

struct l1_stats {
    uint64_t store_hits, store_misses, upgrades, atomic_hits, atomic_misses, replacements;
    uint64_t writebacks, putx_clean, invalidations, lines_invalidated, forwards, fills_used_once;
    uint64_t kernel_end_flushes, kernel_begin_drops;
};

struct mesi_l1 {
    struct ctrl base;
    uint8_t *tbe_data;    /* per TBE: an M_I line's data */
    struct msg_list kend; /* KERNEL_END requests waiting for the write-backs */
    struct l1_stats st;
};

static struct mesi_l1 *l1_of(void *p)
{
    return p;
}

/* ---- the SWMR observer (--check only) ----
 * Observers may look at every controller (DESIGN.md, "components talk only
 * through messages" - except checkers). The L1s of a machine register in
 * MESI's per-machine context (proto_desc.attach, ctrl_wiring.proto_ctx) when
 * the observer is on; a grant then reads every other L1's state of the line.
 * Never used by the model. */
struct swmr_reg {
    unsigned n_sms;
    struct mesi_l1 **l1;
};

void *mesi_swmr_attach(const struct ctrl_wiring *w)
{
    if (!w->obs)
        return NULL; /* no --check: nothing to observe */
    struct swmr_reg *r = calloc(1, sizeof *r);
    if (!r)
        panic("out of memory");
    return r;
}

void mesi_swmr_detach(void *ctx)
{
    struct swmr_reg *r = ctx;
    if (!r)
        return;
    free(r->l1);
    free(r);
}

static void swmr_attach(struct mesi_l1 *c)
{
    struct swmr_reg *r = c->base.w.proto_ctx;
    if (!r)
        return;
    if (!r->l1) { /* the L1s' count comes with the first of them */
        r->n_sms = c->base.w.n_sms;
        r->l1 = calloc(r->n_sms, sizeof *r->l1);
        if (!r->l1)
            panic("out of memory");
    }
    r->l1[c->base.w.index] = c;
}

static void swmr_detach(struct mesi_l1 *c)
{
    struct swmr_reg *r = c->base.w.proto_ctx;
    if (r && r->l1)
        r->l1[c->base.w.index] = NULL;
}

/* `c` is about to hold `line` in `granted` (S, E or M). */
static void swmr_check(struct mesi_l1 *c, addr_t line, unsigned granted)
{
    struct swmr_reg *r = c->base.w.proto_ctx;
    for (unsigned i = 0; r && i < r->n_sms; i++) {
        struct mesi_l1 *o = r->l1[i];
        if (!o || o == c)
            continue;
        unsigned s = ctrl_peek(&o->base.comp, line, NULL, NULL);
        bool owner = s == L1_E || s == L1_M;
        bool reader = owner || s == L1_S || s == L1_SM;
        if (owner || (granted != L1_S && reader))
            panic("invariant violated: %s is granted %s on line %#llx while %s holds it in %s "
                  "(single writer / multiple readers)",
                  c->base.w.name, state_names[granted], (unsigned long long)line, o->base.w.name,
                  state_names[s]);
    }
}

/* ---- actions ---- */

/* Send `m` to the line's home bank on `vnet`. */
static void to_l2(struct mesi_l1 *c, struct msg *m, uint16_t type, unsigned vnet, uint8_t cls,
                  uint16_t bytes)
{
    ctrl_to_home(&c->base, m, type, vnet, cls, bytes);
}

static uint8_t *tbe_buf(struct mesi_l1 *c, const struct tbe *t)
{
    return c->tbe_data + (size_t)(t - c->base.tbes.e) * c->base.line_bytes;
}

/* Perform one core request on the line's data and answer it. Stores and
 * atomics are serialised here (the line is M): the golden memory follows. */
static void perform(struct mesi_l1 *c, struct cache_line *l, struct msg *m, tick_t delay_ps)
{
    struct ctrl *b = &c->base;
    switch (m->req.op) {
    case MEM_LOAD:
        if (b->w.obs)
            obs_check(b->w.obs, b->w.name, l->addr, l->data, NULL);
        memcpy(m->data, l->data, b->line_bytes);
        break;
    case MEM_STORE:
        ctrl_apply_store(b, l, m);
        break;
    default:
        ctrl_apply_atomic(b, l, m);
    }
    ctrl_to_core(b, m, delay_ps);
}

static void hold_req(struct coh_ctx *x)
{
    struct mesi_l1 *c = l1_of(x->ctrl);
    switch (x->msg->req.op) {
    case MEM_LOAD:
        c->base.st.load_misses++;
        break;
    case MEM_STORE:
        c->st.store_misses++;
        break;
    default:
        c->st.atomic_misses++;
    }
    msg_list_push(&x->tbe->merged, x->msg);
    x->msg = NULL;
}

static void send_request(struct coh_ctx *x, uint16_t type)
{
    struct mesi_l1 *c = l1_of(x->ctrl);
    struct msg *m = msg_new(c->base.w.msgs, type, x->addr, c->base.comp.eng->now);
    to_l2(c, m, type, MESI_VNET_REQ, TRAFFIC_REQ, 0);
}

static void send_gets(struct coh_ctx *x)
{
    send_request(x, MSG_MESI_GETS);
}

static void send_getx(struct coh_ctx *x)
{
    send_request(x, MSG_MESI_GETX);
}

static void send_upgrade(struct coh_ctx *x)
{
    l1_of(x->ctrl)->st.upgrades++;
    send_request(x, MSG_MESI_UPGRADE);
}

static void reply_hit(struct coh_ctx *x)
{
    struct mesi_l1 *c = l1_of(x->ctrl);
    c->base.st.load_hits++;
    x->msg->req.l1_hit = 1;
    cache_touch(&c->base.cache, x->line);
    perform(c, x->line, x->msg, c->base.hit_ps);
    x->msg = NULL;
}

static void write_hit(struct coh_ctx *x)
{
    struct mesi_l1 *c = l1_of(x->ctrl);
    if (x->msg->req.op == MEM_STORE)
        c->st.store_hits++;
    else
        c->st.atomic_hits++;
    cache_touch(&c->base.cache, x->line);
    perform(c, x->line, x->msg, c->base.hit_ps);
    x->msg = NULL;
}

/* The fill: the whole line (write-allocate), clean until a store merges. */
static void fill_line(struct coh_ctx *x)
{
    struct mesi_l1 *c = l1_of(x->ctrl);
    memcpy(x->line->data, x->msg->data, c->base.line_bytes);
    x->line->dirty = false;
    cache_touch(&c->base.cache, x->line);
    ctrl_l1_note_fill(&c->base, x->line, &x->tbe->merged);
    if (c->base.w.obs)
        obs_check(c->base.w.obs, c->base.w.name, x->addr, x->line->data, NULL);
}

/* Perform the held requests in arrival order (loads read, stores and
 * atomics write the line, which now has the permission they need). */
static void answer_held(struct coh_ctx *x)
{
    struct mesi_l1 *c = l1_of(x->ctrl);
    struct msg *m;
    while ((m = msg_list_pop(&x->tbe->merged)))
        perform(c, x->line, m, 0);
}

/* IS_I: the fill answers the loads held for it, but is not cached: an
 * invalidation overtook it, so a later write may already be performed. */
static void answer_once(struct coh_ctx *x)
{
    struct mesi_l1 *c = l1_of(x->ctrl);
    struct msg *m;
    c->st.fills_used_once++;
    while ((m = msg_list_pop(&x->tbe->merged))) {
        panic_if(m->req.op != MEM_LOAD, "%s: a store held in IS_I", c->base.w.name);
        memcpy(m->data, x->msg->data, c->base.line_bytes);
        ctrl_to_core(&c->base, m, 0);
    }
}

/* The grant's message becomes the UNBLOCK. */
static void send_unblock(struct coh_ctx *x)
{
    struct mesi_l1 *c = l1_of(x->ctrl);
    struct msg *m = x->msg;
    x->msg = NULL;
    to_l2(c, m, MSG_MESI_UNBLOCK, MESI_VNET_UNBLOCK, TRAFFIC_REQ, 0);
}

/* Give up an E or M line: its data moves to the TBE, a PUTX (with the data
 * if it is dirty) goes to the bank. */
static void send_putx(struct coh_ctx *x)
{
    struct mesi_l1 *c = l1_of(x->ctrl);
    bool dirty = x->state == L1_M;
    memcpy(tbe_buf(c, x->tbe), x->line->data, c->base.line_bytes);
    x->tbe->meta[0] = dirty;
    struct msg *m = msg_new(c->base.w.msgs, MSG_MESI_PUTX, x->addr, c->base.comp.eng->now);
    memcpy(m->data, x->line->data, c->base.line_bytes);
    memset(&m->mask, 0xff, sizeof m->mask);
    m->flags = dirty ? MESI_F_DIRTY : 0;
    if (dirty)
        c->st.writebacks++;
    else
        c->st.putx_clean++;
    to_l2(c, m, MSG_MESI_PUTX, MESI_VNET_WB, dirty ? TRAFFIC_ST : TRAFFIC_REQ,
          (uint16_t)(dirty ? c->base.line_bytes : 0));
}

static void count_replacement(struct coh_ctx *x)
{
    l1_of(x->ctrl)->st.replacements++;
}

static void count_flush(struct coh_ctx *x)
{
    l1_of(x->ctrl)->st.kernel_end_flushes++;
}

static void count_drop(struct coh_ctx *x)
{
    l1_of(x->ctrl)->st.kernel_begin_drops++;
}

/* The INV becomes its INV_ACK, in the INV's traffic class. */
static void ack_inv(struct coh_ctx *x)
{
    struct mesi_l1 *c = l1_of(x->ctrl);
    struct msg *m = x->msg;
    x->msg = NULL;
    c->st.invalidations++;
    to_l2(c, m, MSG_MESI_INV_ACK, MESI_VNET_RSP, m->cls, 0);
}

static void count_inv(struct coh_ctx *x)
{
    l1_of(x->ctrl)->st.lines_invalidated++;
}

/* The owner's answer to a forward or a recall: the line if it is dirty
 * (from the cache, or from the TBE while its PUTX is in flight). Data for a
 * read counts as LD, for a write as ST, for a recall as RCL. */
static void send_owner_data(struct coh_ctx *x)
{
    struct mesi_l1 *c = l1_of(x->ctrl);
    struct msg *m = x->msg;
    const uint8_t *data = x->line ? x->line->data : tbe_buf(c, x->tbe);
    bool dirty = x->line ? x->state == L1_M : x->tbe->meta[0] != 0;
    uint8_t cls = m->type == MSG_MESI_INV        ? m->cls
                  : !dirty                       ? TRAFFIC_REQ
                  : m->type == MSG_MESI_FWD_GETS ? TRAFFIC_LD
                                                 : TRAFFIC_ST;
    x->msg = NULL;
    if (m->type == MSG_MESI_INV)
        c->st.invalidations++;
    else
        c->st.forwards++;
    if (c->base.w.obs)
        obs_check(c->base.w.obs, c->base.w.name, x->addr, data, NULL);
    memcpy(m->data, data, c->base.line_bytes);
    memset(&m->mask, 0xff, sizeof m->mask);
    m->flags = dirty ? MESI_F_DIRTY : 0;
    if (x->line)
        x->line->dirty = false; /* the bank has the value now */
    to_l2(c, m, MSG_MESI_OWNER_DATA, MESI_VNET_RSP, cls,
          (uint16_t)(dirty ? c->base.line_bytes : 0));
}

static const struct coh_action_name actions[] = {
    {ctrl_take_way, "take_way", "install the line in a free way (the fill comes later)"},
    {ctrl_alloc_tbe, "alloc_tbe", "allocate a TBE for the line"},
    {ctrl_wake_parked, "free_tbe", "free the TBE and replay requests parked on it"},
    {hold_req, "hold_req", "keep the request in the TBE until the permission arrives"},
    {ctrl_l1_merge_load, "merge_load", "answer this load with the outstanding fill"},
    {send_gets, "send_gets", "ask the home bank for the line (read)"},
    {send_getx, "send_getx", "ask the home bank for the line and write permission"},
    {send_upgrade, "send_upgrade", "ask the home bank for write permission on the S copy"},
    {reply_hit, "reply_hit", "answer the load from the line after the hit latency"},
    {write_hit, "write_hit", "perform the store or atomic on the line (M) after the hit latency"},
    {fill_line, "fill_line", "write the arriving line into its way"},
    {answer_held, "answer_held", "perform the held requests in order and answer them"},
    {answer_once, "answer_once", "answer the held loads from the fill without caching it"},
    {send_unblock, "send_unblock", "tell the bank the exclusive grant has arrived"},
    {ctrl_drop_line, "drop_line", "free the way"},
    {send_putx, "send_putx", "move the data to the TBE and send a PUTX (with it if dirty)"},
    {count_replacement, "count_replacement", "count a replacement"},
    {count_flush, "count_flush", "count a line given up at kernel end"},
    {count_drop, "count_drop", "count a shared line dropped at a launch"},
    {ack_inv, "ack_inv", "answer the invalidation with an INV_ACK of its class"},
    {count_inv, "count_inv", "count a valid copy lost to an invalidation"},
    {send_owner_data, "send_owner_data",
     "answer the forward or recall with OWNER_DATA (the line if dirty)"},
    {0},
};

/* ---- the table ---- */

/*  state           event             next            uses               actions              */
static const struct coh_trans mesi_l1_cells[L1_NSTATES][L1_NEVENTS] = {
    [L1_I][L1_Load] =
        DO(L1_IS, TAG_RD | TAG_WR, ctrl_take_way, ctrl_alloc_tbe, hold_req, send_gets),
    [L1_I][L1_Store] =
        DO(L1_IM, TAG_RD | TAG_WR, ctrl_take_way, ctrl_alloc_tbe, hold_req, send_getx),
    [L1_I][L1_Atomic] =
        DO(L1_IM, TAG_RD | TAG_WR, ctrl_take_way, ctrl_alloc_tbe, hold_req, send_getx),
    [L1_I][L1_Inv] = DO(L1_I, TAG_RD, ack_inv), /* stale sharer bit */
    [L1_S][L1_Load] = DO(L1_S, TAG_RD | DATA_RD, reply_hit),
    [L1_S][L1_Store] = DO(L1_SM, TAG_RD | TAG_WR, ctrl_alloc_tbe, hold_req, send_upgrade),
    [L1_S][L1_Atomic] = DO(L1_SM, TAG_RD | TAG_WR, ctrl_alloc_tbe, hold_req, send_upgrade),
    [L1_S][L1_Replace] = DO(L1_I, TAG_WR, count_replacement, ctrl_drop_line),
    [L1_S][L1_KernelBegin] = DO(L1_I, TAG_WR, count_drop, ctrl_drop_line),
    [L1_S][L1_Inv] = DO(L1_I, TAG_WR, count_inv, ctrl_drop_line, ack_inv),
    [L1_E][L1_Load] = DO(L1_E, TAG_RD | DATA_RD, reply_hit),
    [L1_E][L1_Store] = DO(L1_M, TAG_RD | TAG_WR | DATA_WR, write_hit),
    [L1_E][L1_Atomic] = DO(L1_M, TAG_RD | TAG_WR | DATA_RD | DATA_WR, write_hit),
    [L1_E][L1_Replace] =
        DO(L1_M_I, TAG_WR | DATA_RD, count_replacement, ctrl_alloc_tbe, send_putx, ctrl_drop_line),
    [L1_E][L1_KernelEnd] =
        DO(L1_M_I, TAG_WR | DATA_RD, count_flush, ctrl_alloc_tbe, send_putx, ctrl_drop_line),
    [L1_E][L1_Inv] = DO(L1_I, TAG_WR | DATA_RD, count_inv, send_owner_data, ctrl_drop_line),
    [L1_E][L1_FwdGetS] = DO(L1_S, TAG_WR | DATA_RD, send_owner_data),
    [L1_E][L1_FwdGetX] = DO(L1_I, TAG_WR | DATA_RD, send_owner_data, ctrl_drop_line),
    [L1_M][L1_Load] = DO(L1_M, TAG_RD | DATA_RD, reply_hit),
    [L1_M][L1_Store] = DO(L1_M, TAG_RD | DATA_WR, write_hit),
    [L1_M][L1_Atomic] = DO(L1_M, TAG_RD | DATA_RD | DATA_WR, write_hit),
    [L1_M][L1_Replace] =
        DO(L1_M_I, TAG_WR | DATA_RD, count_replacement, ctrl_alloc_tbe, send_putx, ctrl_drop_line),
    [L1_M][L1_KernelEnd] =
        DO(L1_M_I, TAG_WR | DATA_RD, count_flush, ctrl_alloc_tbe, send_putx, ctrl_drop_line),
    [L1_M][L1_Inv] = DO(L1_I, TAG_WR | DATA_RD, count_inv, send_owner_data, ctrl_drop_line),
    [L1_M][L1_FwdGetS] = DO(L1_S, TAG_WR | DATA_RD, send_owner_data),
    [L1_M][L1_FwdGetX] = DO(L1_I, TAG_WR | DATA_RD, send_owner_data, ctrl_drop_line),
    [L1_IS][L1_Load] = DO(L1_IS, TAG_RD, ctrl_l1_merge_load),
    [L1_IS][L1_MergeFull] = STALL,
    [L1_IS][L1_Busy] = STALL,
    [L1_IS][L1_Inv] = DO(L1_IS_I, TAG_RD, ack_inv),
    [L1_IS][L1_Data] = DO(L1_S, TAG_WR | DATA_WR, fill_line, answer_held, ctrl_wake_parked),
    [L1_IS][L1_DataE] =
        DO(L1_E, TAG_WR | DATA_WR, fill_line, answer_held, send_unblock, ctrl_wake_parked),
    [L1_IS_I][L1_Busy] = STALL,
    [L1_IS_I][L1_Inv] = DO(L1_IS_I, TAG_RD, ack_inv),
    [L1_IS_I][L1_Data] = DO(L1_I, TAG_WR, answer_once, ctrl_drop_line, ctrl_wake_parked),
    /* an exclusive grant is never overtaken (the bank waits for the UNBLOCK):
     * the invalidation was older than the GETS it answers */
    [L1_IS_I][L1_DataE] =
        DO(L1_E, TAG_WR | DATA_WR, fill_line, answer_held, send_unblock, ctrl_wake_parked),
    [L1_IM][L1_Busy] = STALL,
    [L1_IM][L1_Inv] = DO(L1_IM, TAG_RD, ack_inv), /* stale sharer bit */
    [L1_IM][L1_DataX] =
        DO(L1_M, TAG_WR | DATA_WR, fill_line, answer_held, send_unblock, ctrl_wake_parked),
    [L1_SM][L1_Busy] = STALL,
    [L1_SM][L1_Inv] = DO(L1_IM, TAG_WR, count_inv, ack_inv),
    [L1_SM][L1_AckX] = DO(L1_M, TAG_WR | DATA_WR, answer_held, send_unblock, ctrl_wake_parked),
    [L1_M_I][L1_Busy] = STALL,
    [L1_M_I][L1_Inv] = DO(L1_SINK_WB_ACK, 0, send_owner_data),
    [L1_M_I][L1_FwdGetS] = DO(L1_SINK_WB_ACK, 0, send_owner_data),
    [L1_M_I][L1_FwdGetX] = DO(L1_SINK_WB_ACK, 0, send_owner_data),
    [L1_M_I][L1_WbAck] = DO(L1_I, 0, ctrl_wake_parked),
    [L1_SINK_WB_ACK][L1_Busy] = STALL,
    [L1_SINK_WB_ACK][L1_Inv] = DO(L1_SINK_WB_ACK, 0, ack_inv),
    [L1_SINK_WB_ACK][L1_WbAck] = DO(L1_I, 0, ctrl_wake_parked),
};

static void set_state(struct coh_ctx *x, unsigned next)
{
    struct mesi_l1 *c = l1_of(x->ctrl);
    if (c->base.w.obs && next != x->state && (next == L1_S || next == L1_E || next == L1_M))
        swmr_check(c, x->addr, next);
    ctrl_set_state(x, next);
}

static void dump_ctx(struct coh_ctx *x, FILE *out)
{
    if (x->line)
        fprintf(out, "  line %#llx: %s%s\n", (unsigned long long)x->line->addr,
                state_names[x->line->state], x->line->dirty ? " dirty" : "");
    if (x->tbe)
        fprintf(out, "  tbe %#llx: %s held %u parked %u\n", (unsigned long long)x->tbe->addr,
                state_names[x->tbe->state], x->tbe->merged.n, x->tbe->parked.n);
}

const struct coh_table mesi_l1_table = COH_TABLE("mesi", "L1", mesi_l1_cells, set_state, dump_ctx);

/* ---- the classifier ---- */

static bool is_transient(unsigned s)
{
    return s >= L1_IS;
}

static unsigned classify_core(const struct mesi_l1 *c, const struct coh_ctx *x)
{
    unsigned op = x->msg->req.op;
    if (x->state == L1_IS && op == MEM_LOAD)
        /* the TBE holds the load that sent the GETS, then up to merge_max more */
        return x->tbe->merged.n > c->base.merge_max ? L1_MergeFull : L1_Load;
    if (is_transient(x->state))
        return L1_Busy;
    return op == MEM_LOAD ? L1_Load : op == MEM_STORE ? L1_Store : L1_Atomic;
}

static unsigned classify_net(const struct msg *m)
{
    switch (m->type) {
    case MSG_MESI_INV:
        return L1_Inv;
    case MSG_MESI_FWD_GETS:
        return L1_FwdGetS;
    case MSG_MESI_FWD_GETX:
        return L1_FwdGetX;
    case MSG_MESI_DATA:
        return L1_Data;
    case MSG_MESI_DATA_E:
        return L1_DataE;
    case MSG_MESI_DATA_X:
        return L1_DataX;
    case MSG_MESI_ACK_X:
        return L1_AckX;
    case MSG_MESI_WB_ACK:
        return L1_WbAck;
    default:
        panic("mesi L1: unexpected message type %u", m->type);
    }
}

/* A network message: every cell consumes or forwards it; what is left (a
 * shared fill, a write-back ack) is freed. */
static void take_net(struct ctrl *b, struct msg *m)
{
    struct coh_ctx x;
    ctrl_lookup(b, &x, m->addr);
    x.msg = m;
    x.event = classify_net(m);
    ctrl_step(b, &x);
    if (x.msg)
        msg_free(b->w.msgs, x.msg);
}

static bool evictable(const struct cache_line *l, void *arg)
{
    (void)arg;
    return l->state == L1_S || l->state == L1_E || l->state == L1_M;
}

/* Kernel launch: every S line goes (E and M lines are tracked by the banks,
 * which the host cannot write while an L1 owns the line). */
static void drop_shared(struct cache_line *l, void *arg)
{
    if (l->state == L1_S)
        ctrl_fire(arg, l->addr, NULL, L1_KernelBegin);
}

static bool owns_line(const struct cache_line *l)
{
    return l->state == L1_E || l->state == L1_M;
}

/* Kernel end: give up owned lines while there is room; answer the
 * KERNEL_END once none is left and every write-back is acknowledged.
 * Returns progress. */
static bool flush_step(struct mesi_l1 *c)
{
    return ctrl_l1_flush_step(&c->base, &c->kend, owns_line, L1_KernelEnd,
                              c->base.links.net_out[MESI_VNET_WB]);
}

static void order_op(struct ctrl *b, struct msg *m)
{
    struct mesi_l1 *c = l1_of(b);
    switch (m->req.op) {
    case MEM_KERNEL_BEGIN:
        cache_for_each(&c->base.cache, drop_shared, &c->base);
        ctrl_to_core(&c->base, m, 0);
        break;
    case MEM_KERNEL_END:
        msg_list_push(&c->kend, m);
        flush_step(c);
        break;
    default: /* a fence: the protocol is coherent and the SM waited */
        ctrl_to_core(&c->base, m, 0);
    }
}

/* Room for the worst case of one core step: a replaced line's PUTX and TBE,
 * the miss's request and TBE. */
static bool have_room(const struct ctrl *b)
{
    return port_has_room(b->links.net_out[MESI_VNET_REQ], 1) &&
           port_has_room(b->links.net_out[MESI_VNET_WB], 1) && b->tbes.n_used + 2 <= b->tbes.cap;
}

/* A request served in place: a load of a line held in S, E or M, or a store
 * to one held in E or M, with nothing outstanding for it. It allocates no TBE
 * and sends nothing, so with l1.issue = out-of-order it goes ahead while the
 * worst-case room of have_room is missing (in order, everything waits). */
static bool served_in_place(struct ctrl *b, const struct msg *m)
{
    const struct cache_line *l = cache_find(&b->cache, m->addr);
    if (!l || tbe_find(&b->tbes, m->addr))
        return false;
    if (m->req.op == MEM_LOAD)
        return l->state == L1_S || l->state == L1_E || l->state == L1_M;
    return m->req.op == MEM_STORE && (l->state == L1_E || l->state == L1_M);
}

/* One core request (new or replayed). Returns false on a resource stall (the
 * request stays where it was). */
static bool take_core(struct ctrl *b, struct msg *m)
{
    struct coh_ctx x;
    bool room = have_room(b) || (b->issue_ooo && served_in_place(b, m));
    enum ctrl_take r = ctrl_l1_begin(b, &x, m, order_op, room, NULL);
    if (r != CTRL_GO)
        return r == CTRL_TAKEN;
    x.event = classify_core(l1_of(b), &x);
    if (x.event == L1_MergeFull && b->merge_full_stalls) {
        b->st.resource_stalls++; /* l1.merge_full = stall: wait here for the fill */
        return false;
    }
    if (x.state == L1_I) {
        /* a miss takes its way now: a full set gives up its LRU stable line */
        struct cache_line *way = cache_victim(&b->cache, m->addr, evictable, NULL);
        if (!way) {
            b->st.resource_stalls++; /* every way waits for a fill */
            return false;
        }
        if (way->present)
            ctrl_fire(b, way->addr, NULL, L1_Replace);
    }
    ctrl_step_or_park(b, &x);
    return true;
}

/* ---- tick ---- */

/* One L1 cycle: every ready forward and invalidation (while the response
 * vnet has room), one grant or fill, one write-back ack, the kernel-end
 * flush, then one core request (parked ones replay before new ones). */
static bool mesi_l1_tick(struct comp *cp)
{
    struct mesi_l1 *c = l1_of(cp);
    struct ctrl *b = &c->base;
    bool moved = false, blocked = false;
    struct port *fwd = b->links.net_in[MESI_VNET_FWD], *rsp = b->links.net_in[MESI_VNET_RSP];
    struct port *wb = b->links.net_in[MESI_VNET_WB];

    ctrl_tick_begin(b);
    while (port_peek(fwd)) {
        if (!port_has_room(b->links.net_out[MESI_VNET_RSP], 1)) {
            b->st.resource_stalls++;
            blocked = true;
            break;
        }
        take_net(b, port_pop(fwd));
        moved = true;
    }
    if (port_peek(rsp)) {
        if (port_has_room(b->links.net_out[MESI_VNET_UNBLOCK], 1)) {
            take_net(b, port_pop(rsp));
            moved = true;
        } else {
            b->st.resource_stalls++;
            blocked = true;
        }
    }
    moved |= ctrl_take_one(b, wb, take_net);
    if (c->kend.n && flush_step(c))
        moved = blocked = true;
    moved |= ctrl_take_next(b, &b->in, take_core);
    if (moved)
        return true; /* a kernel-end flush that stalled counts as moved: it ticks on */
    /* A forward, a grant or a request left waiting stalled on a resource (a
     * full port; a full TBE table or a set whose every way waits for a fill,
     * which a response clears): sleep until it may clear. */
    if (blocked || b->replay.n || port_peek(&b->in)) {
        struct port *const in[] = {fwd, rsp, wb};
        return ctrl_stall_sleep(b, in, 3);
    }
    return false;
}

static void dump_tbe(const struct ctrl *b, const struct tbe *t, FILE *out)
{
    (void)b;
    fprintf(out, "  tbe %#llx %s held %u parked %u\n", (unsigned long long)t->addr,
            state_names[t->state], t->merged.n, t->parked.n);
}

static void mesi_l1_dump(struct comp *cp, FILE *out)
{
    struct mesi_l1 *c = l1_of(cp);
    struct ctrl *b = &c->base;
    if (!b->tbes.n_used && !b->in.n && !b->replay.n && !c->kend.n)
        return;
    fprintf(out, "%s (mesi L1): %u TBEs, %u core requests queued, %u replaying, %u kernel ends\n",
            b->w.name, b->tbes.n_used, b->in.n, b->replay.n, c->kend.n);
    ctrl_dump_tbes(b, out, dump_tbe);
}

/* ---- construction ---- */

static const struct ctrl_stat mesi_l1_stat_rows[] = {
    CTRL_STAT_BASE(load_hits),
    CTRL_STAT_BASE(load_misses),
    CTRL_STAT_BASE(load_merged),
    CTRL_STAT_OWN(struct l1_stats, store_hits),
    CTRL_STAT_OWN(struct l1_stats, store_misses),
    CTRL_STAT_OWN(struct l1_stats, atomic_hits),
    CTRL_STAT_OWN(struct l1_stats, atomic_misses),
    CTRL_STAT_OWN(struct l1_stats, upgrades),
    CTRL_STAT_OWN(struct l1_stats, replacements),
    CTRL_STAT_OWN(struct l1_stats, writebacks),
    CTRL_STAT_OWN(struct l1_stats, putx_clean),
    CTRL_STAT_OWN(struct l1_stats, invalidations),
    CTRL_STAT_OWN(struct l1_stats, lines_invalidated),
    CTRL_STAT_OWN(struct l1_stats, forwards),
    CTRL_STAT_OWN(struct l1_stats, fills_used_once),
    CTRL_STAT_OWN(struct l1_stats, kernel_end_flushes),
    CTRL_STAT_OWN(struct l1_stats, kernel_begin_drops),
    CTRL_STATS_L1_PREFETCH,
    CTRL_STAT_BASE(resource_stalls),
    CTRL_STAT_BASE(protocol_stalls),
    CTRL_STAT_END,
};

struct comp *mesi_l1_create(const struct ctrl_wiring *w)
{
    panic_if(w->n_sms > MESI_MAX_SHARERS || w->cfg->l1.mshrs < 2,
             "mesi: %u SMs, %u L1 MSHRs passed mesi_check", w->n_sms, w->cfg->l1.mshrs);
    struct mesi_l1 *c = ctrl_alloc(sizeof *c);
    ctrl_l1_init(&c->base, w, &mesi_l1_table, mesi_l1_tick, mesi_l1_dump);
    ctrl_set_stats(&c->base, mesi_l1_stat_rows, &c->st);
    c->tbe_data = calloc(w->cfg->l1.mshrs, c->base.line_bytes);
    if (!c->tbe_data)
        panic("out of memory");
    if (w->obs)
        swmr_attach(c);
    return &c->base.comp;
}

void mesi_l1_destroy(struct comp *cp)
{
    struct mesi_l1 *c = l1_of(cp);
    if (c->base.w.obs)
        swmr_detach(c);
    free(c->tbe_data);
    ctrl_destroy(cp);
}
