/*
 * stc_l1.c - the L1 of spatiotemporal coherence (spec 000 §2.5-2.7, Table 1).
 *
 * Write-through, no-write-allocate, write-invalidate like `rc`, plus what
 * makes it coherent without invalidation messages: the CU's current band set
 * (CER), which its L1 never caches. A load to a current band is uncached
 * (Load_U); a fill whose band is current when it arrives is not installed
 * (Data_E); a store or atomic whose band is not current - or any while an
 * epoch change holds stores - waits in the blocked store queue (BSQ) until
 * its band's epoch (state B, which Table 1 leaves to the coalescer: younger
 * requests to the line wait behind it). Lines of a band that becomes current
 * are invalidated lazily: a set is scrubbed when it is first touched in the
 * epoch, and the sets never touched at the epoch's end (spec 000 §2.7).
 * Acquires, fences and kernel launches cost the L1 nothing: no copy it holds
 * can be stale. Releases wait for the warp's stores to be acknowledged (the
 * SM's ordering policy), and an acknowledgement comes only after the store
 * left the BSQ in its epoch and reached the L2.
 * Hardening of spec 000 §7.2 (each also selectable in its paper form):
 *   a. stc.epoch_start: stores to the new band wait for EpochStart (sent
 *      after every CU's DoneAck), so no CU writes a band another still caches;
 *   b. stc.straddle: ChangeEpoch turns outstanding fills of a newly current
 *      band into uncached loads (Flip), so a value read before the band's
 *      epoch is never installed after it;
 *   e. after every ChangeEpoch the CU re-sends EpochDemand for every band
 *      still in its BSQ, so no demand is lost (not selectable: the paper's
 *      form deadlocks after an SEB change).
 * Invariants checked in every run (a violation panics, exit 3): a hit never
 * returns a line of a current band (I-ER1); a store or atomic leaves for the
 * L2 only in its band's epoch with stores released (I-ER2); ReadyAck only
 * with nothing outstanding. With --check a hit must also equal the golden
 * memory, and the EMU checks every write the L2 performs (stc_emu.c).
 * A 64-thread wavefront (sm.warp_size = 64) issues as two 32-thread PTX
 * warps in lockstep, each coalesced on its own (docs/protocols/stc.md).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "coh/stc/stc.h"
#include "mem/observe.h"

#define STC_L1_STATES(X)                                                                           \
    X(I, "not present")                                                                            \
    X(V, "valid: its band is not current, so no CU can write it")                                  \
    X(I_V, "cacheable load outstanding; the fill is installed unless its band is current")         \
    X(I_I, "requests outstanding whose responses never fill (uncached loads, writes, atomics)")    \
    X(B, "a store or atomic of the line waits in the BSQ; younger requests wait behind it")

#define STC_L1_EVENTS(X)                                                                           \
    X(Load, "load from the SM to a band that is not current")                                      \
    X(Load_U, "load to a current band: performed at the L2, never cached")                         \
    X(MergeFull, "load to a line whose outstanding fill has merged merge_max loads")               \
    X(Store, "store to a current band while stores may issue (write-through)")                     \
    X(Atomic, "atomic to a current band while stores may issue (performed at the L2)")             \
    X(Block, "store or atomic to a band that is not current, or while an epoch change holds "      \
             "stores: into the BSQ")                                                               \
    X(Drain, "the BSQ issues the line's blocked store or atomic in its band's epoch")              \
    X(Replace, "a fill needs this line's way")                                                     \
    X(Scrub, "lazy invalidation: the line's band is current (first touch of its set this "         \
             "epoch, or the epoch's end)")                                                         \
    X(Flip, "ChangeEpoch made the band of the outstanding fill current (spec 000 §7.2b)")          \
    X(HostWrite, "the host wrote the line between kernels")                                        \
    X(Data, "the fill, its band not current at arrival")                                           \
    X(Data_E, "the fill, its band current at arrival: not installed")                              \
    X(Rsp, "a response (uncached data, write ack, atomic result) with more outstanding")           \
    X(LastRsp, "the last outstanding response of the line")

#define X(n, d) STC_##n,
enum stc_state { STC_L1_STATES(X) STC_NSTATES };
enum stc_event { STC_L1_EVENTS(X) STC_NEVENTS };
#undef X
COH_NAMES(STC_L1_STATES, STC_L1_EVENTS);

/* Where the CU is in the EMU's handshake. */
enum stc_hs {
    HS_RUN,         /* stores to current bands issue */
    HS_DRAINING,    /* PrepareEpochChange: stores held, waiting for PW = 0 */
    HS_WAIT_CHANGE, /* ReadyAck sent: promised to write nothing until ChangeEpoch */
    HS_WAIT_START,  /* switched (safe form): stores held until EpochStart */
};
static const char *const hs_names[] = {"run", "draining", "wait_change", "wait_start"};

struct stc_l1_stats {
    uint64_t loads_uncached, fills_dropped, fills_flipped;
    uint64_t stores_blocked, bsq_drained, bsq_max, bsq_occupancy; /* entry-cycles */
    uint64_t lines_scrubbed, epoch_changes, seb_changes;
    uint64_t demands, conflicts, emu_msgs_out, emu_msgs_in;
    uint64_t host_invalidations;
    uint64_t stores_held; /* of stores_blocked: to a current band, held by an epoch change */
    uint64_t hold_cycles; /* cycles the CU's stores were held by epoch changes (handshake) */
};

struct stc_l1 {
    struct ctrl base;
    enum stc_variant variant;
    struct stc_spec spec;
    uint32_t cer; /* current band set (one bit per band) */
    unsigned seb; /* start epoch bit */
    enum stc_hs hs;
    uint32_t pw;                         /* stores and atomics at the L2, unacknowledged */
    struct msg_list bsq[STC_MAX_EPOCHS]; /* blocked stores and atomics by band */
    uint32_t bsq_n;
    uint32_t bsq_bands;          /* bands with BSQ entries */
    uint32_t demand_sent;        /* ES+: EpochDemand sent this epoch, per band */
    uint32_t conflict_sent;      /* AB/MB: EpochConflict sent this epoch, per band */
    uint32_t gen;                /* epoch generation (lazy invalidation) */
    uint32_t *scrubbed;          /* per set: the generation it was scrubbed in */
    uint8_t *drains;             /* per BSQ bank: entries issued this cycle */
    bool in_kernel, active_sent; /* NV: tell the EMU when the CU is busy */
    tick_t bsq_since;            /* last change of bsq_n (occupancy integral) */
    tick_t hold_since;           /* when the handshake last left HS_RUN */
    struct msg_list to_emu;      /* messages for the EMU (its link is unbounded) */
    struct stc_l1_stats st;
};

static struct stc_l1 *stc_of(void *p)
{
    return p;
}

static inline unsigned band(const struct stc_l1 *c, addr_t a)
{
    return stc_band(a, c->seb, c->spec.epochs);
}

static inline bool current(const struct stc_l1 *c, addr_t a)
{
    return (c->cer >> band(c, a)) & 1;
}

/* ---- the EMU link ---- */

static void to_emu(struct stc_l1 *c, uint16_t type, addr_t a, uint64_t ts, uint64_t ts2)
{
    struct msg *m = msg_new(c->base.w.msgs, type, a, c->base.comp.eng->now);
    m->sharer = c->base.w.index;
    m->ts = ts;
    m->ts2 = ts2;
    m->size_bytes = STC_MSG_BYTES;
    msg_list_push(&c->to_emu, m);
    c->st.emu_msgs_out++;
}

static void demand(struct stc_l1 *c, unsigned b, addr_t a)
{
    if (c->variant == STC_NV || ((c->demand_sent >> b) & 1))
        return;
    c->demand_sent |= 1u << b;
    c->st.demands++;
    to_emu(c, MSG_STC_DEMAND, a, b, c->seb);
}

/* ---- the BSQ ---- */

static void bsq_account(struct stc_l1 *c)
{
    tick_t now = c->base.comp.eng->now;
    c->st.bsq_occupancy +=
        (uint64_t)c->bsq_n * ((now - c->bsq_since) / c->base.comp.clk->period_ps);
    c->bsq_since = now;
}

static void bsq_push(struct stc_l1 *c, struct msg *m)
{
    bsq_account(c);
    unsigned b = band(c, m->addr);
    msg_list_push(&c->bsq[b], m);
    c->bsq_bands |= 1u << b;
    c->bsq_n++;
    c->st.bsq_max = MAX(c->st.bsq_max, c->bsq_n);
}

/* After an SEB change the entries belong to other bands: sort them again, in
 * their order. */
static void bsq_rebucket(struct stc_l1 *c)
{
    struct msg_list all = {0};
    for (unsigned b = 0; b < c->spec.epochs; b++)
        msg_list_splice(&all, &c->bsq[b]);
    c->bsq_bands = 0;
    struct msg *m;
    while ((m = msg_list_pop(&all))) {
        unsigned b = band(c, m->addr);
        msg_list_push(&c->bsq[b], m);
        c->bsq_bands |= 1u << b;
    }
}

/* ---- lazy invalidation ---- */

/* Invalidate the lines of set `s` whose band is in `set` under `seb`. */
static void scrub_set(struct stc_l1 *c, uint32_t s, uint32_t set, unsigned seb)
{
    struct cache *k = &c->base.cache;
    uint32_t ways = k->spec.ways;
    for (uint32_t w = 0; w < ways; w++) {
        struct cache_line *l = &k->lines[(size_t)s * ways + w];
        if (l->present && ((set >> stc_band(l->addr, seb, c->spec.epochs)) & 1)) {
            ctrl_fire(&c->base, l->addr, NULL, STC_Scrub);
            c->st.lines_scrubbed++;
        }
    }
}

/* The first touch of a set in an epoch scrubs it (piggybacks on the tag read). */
static void touch_set(struct stc_l1 *c, addr_t line)
{
    uint32_t s = cache_set_of(&c->base.cache, line);
    if (c->scrubbed[s] != c->gen) {
        scrub_set(c, s, c->cer, c->seb);
        c->scrubbed[s] = c->gen;
    }
}

/* ---- actions ---- */

static void send_gets(struct coh_ctx *x)
{
    bool fill = x->event == STC_Load && x->state == STC_I;
    if (!fill)
        stc_of(x->ctrl)->st.loads_uncached += x->event == STC_Load_U;
    ctrl_l1_send_gets(x, MSG_NC_GETS, fill, NC_F_MERGED);
}

/* A store or atomic leaves for the L2: only in its band's epoch (I-ER2). */
static void check_writable(struct stc_l1 *c, const struct coh_ctx *x)
{
    if (c->hs != HS_RUN || !current(c, x->addr))
        panic("%s: invariant I-ER2: a write to %#llx (band %u) would leave in epoch set %#x "
              "with the handshake in %s",
              c->base.w.name, (unsigned long long)x->addr, band(c, x->addr), c->cer,
              hs_names[c->hs]);
}

static void send_write(struct coh_ctx *x)
{
    struct stc_l1 *c = stc_of(x->ctrl);
    check_writable(c, x);
    c->pw++;
    if (x->msg->req.op == MEM_STORE)
        ctrl_l1_send_write(x, MSG_NC_WRITE);
    else
        ctrl_l1_send_atomic(x, MSG_NC_ATOMIC);
}

static void block(struct coh_ctx *x)
{
    struct stc_l1 *c = stc_of(x->ctrl);
    c->st.stores_blocked++;
    c->st.stores_held += current(c, x->addr); /* blocked only because a change holds stores */
    demand(c, band(c, x->addr), x->msg->addr);
    bsq_push(c, x->msg);
    x->msg = NULL;
}

/* I-ER1: a hit never returns a line of a current band; with --check it
 * returns exactly what memory holds. */
static void reply_hit(struct coh_ctx *x)
{
    struct stc_l1 *c = stc_of(x->ctrl);
    if (current(c, x->addr))
        panic("%s: invariant I-ER1: hit on %#llx of current band %u (epoch set %#x)",
              c->base.w.name, (unsigned long long)x->addr, band(c, x->addr), c->cer);
    if (c->base.w.obs)
        obs_check(c->base.w.obs, c->base.w.name, x->addr, x->line->data, NULL);
    ctrl_l1_reply_hit(x);
}

/* Answer the response's request (and the loads merged behind a fill). */
static void reply_rsp(struct coh_ctx *x)
{
    struct stc_l1 *c = stc_of(x->ctrl);
    struct msg *m = x->msg;
    x->tbe->pending--;
    if (m->type == MSG_NC_WRACK || m->type == MSG_NC_ATOMRSP) {
        panic_if(!c->pw, "%s: write ack with no write outstanding", c->base.w.name);
        c->pw--;
    }
    if (x->event == STC_Data_E ||
        (m->type == MSG_NC_DATA && (m->flags & NC_F_MERGED) && x->event != STC_Data))
        c->st.fills_dropped++;
    if (m->flags & NC_F_MERGED)
        ctrl_l1_answer_merged(&c->base, x->tbe, m->data);
    ctrl_to_core(&c->base, m, 0);
    x->msg = NULL;
}

static void flip(struct coh_ctx *x)
{
    stc_of(x->ctrl)->st.fills_flipped++;
}

static const struct coh_action_name actions[] = {
    {ctrl_alloc_tbe, "alloc_tbe", "allocate a TBE for the line"},
    {ctrl_free_tbe, "free_tbe", "free the TBE and replay requests parked on it"},
    {send_gets, "send_gets", "send a read to the home L2 bank (a fill only from I on Load)"},
    {send_write, "send_write", "write through, or send the atomic, to the L2 (PW++)"},
    {block, "block", "into the BSQ; EpochDemand for its band if none sent this epoch (ES+)"},
    {ctrl_l1_merge_load, "merge_load", "answer this load with the outstanding fill"},
    {reply_hit, "reply_hit", "answer the load from the line after the hit latency"},
    {ctrl_drop_line, "drop_line", "invalidate the line (silently: the L2 is current)"},
    {ctrl_l1_fill_line, "fill_line", "install the fill in a free way"},
    {reply_rsp, "reply_rsp", "answer the request and merged loads (a write ack: PW--)"},
    {flip, "flip", "the outstanding fill will not be installed"},
    {0},
};

/* ---- the table ---- */

/*  state     event           next    uses               actions                               */
static const struct coh_trans stc_l1_cells[STC_NSTATES][STC_NEVENTS] = {
    [STC_I][STC_Load] = DO(STC_I_V, TAG_RD, ctrl_alloc_tbe, send_gets),
    [STC_I][STC_Load_U] = DO(STC_I_I, TAG_RD, ctrl_alloc_tbe, send_gets),
    [STC_I][STC_Store] = DO(STC_I_I, TAG_RD, ctrl_alloc_tbe, send_write),
    [STC_I][STC_Atomic] = DO(STC_I_I, TAG_RD, ctrl_alloc_tbe, send_write),
    [STC_I][STC_Block] = DO(STC_B, TAG_RD, ctrl_alloc_tbe, block),
    [STC_V][STC_Load] = DO(STC_V, TAG_RD | DATA_RD, reply_hit),
    [STC_V][STC_Load_U] = DO(STC_I_I, TAG_RD | TAG_WR, ctrl_drop_line, ctrl_alloc_tbe, send_gets),
    [STC_V][STC_Store] = DO(STC_I_I, TAG_RD | TAG_WR, ctrl_drop_line, ctrl_alloc_tbe, send_write),
    [STC_V][STC_Atomic] = DO(STC_I_I, TAG_RD | TAG_WR, ctrl_drop_line, ctrl_alloc_tbe, send_write),
    [STC_V][STC_Block] = DO(STC_B, TAG_RD | TAG_WR, ctrl_drop_line, ctrl_alloc_tbe, block),
    [STC_V][STC_Replace] = DO(STC_I, TAG_WR, ctrl_drop_line),
    [STC_V][STC_Scrub] = DO(STC_I, TAG_WR, ctrl_drop_line),
    [STC_V][STC_HostWrite] = DO(STC_I, TAG_WR, ctrl_drop_line),
    [STC_I_V][STC_Load] = DO(STC_I_V, TAG_RD, ctrl_l1_merge_load),
    [STC_I_V][STC_MergeFull] = STALL,
    [STC_I_V][STC_Load_U] = DO(STC_I_I, TAG_RD, send_gets),
    [STC_I_V][STC_Store] = DO(STC_I_I, TAG_RD, send_write),
    [STC_I_V][STC_Atomic] = DO(STC_I_I, TAG_RD, send_write),
    [STC_I_V][STC_Block] = DO(STC_B, TAG_RD, block),
    [STC_I_V][STC_Flip] = DO(STC_I_I, 0, flip),
    [STC_I_V][STC_Data] = DO(STC_V, TAG_WR | DATA_WR, ctrl_l1_fill_line, reply_rsp, ctrl_free_tbe),
    [STC_I_V][STC_Data_E] = DO(STC_I, 0, reply_rsp, ctrl_free_tbe),
    [STC_I_I][STC_Load] = DO(STC_I_I, TAG_RD, send_gets),
    [STC_I_I][STC_Load_U] = DO(STC_I_I, TAG_RD, send_gets),
    [STC_I_I][STC_Store] = DO(STC_I_I, TAG_RD, send_write),
    [STC_I_I][STC_Atomic] = DO(STC_I_I, TAG_RD, send_write),
    [STC_I_I][STC_Block] = DO(STC_B, TAG_RD, block),
    [STC_I_I][STC_Rsp] = DO(STC_I_I, 0, reply_rsp),
    [STC_I_I][STC_LastRsp] = DO(STC_I, 0, reply_rsp, ctrl_free_tbe),
    [STC_B][STC_Load] = STALL,
    [STC_B][STC_Load_U] = STALL,
    [STC_B][STC_MergeFull] = STALL,
    [STC_B][STC_Store] = STALL,
    [STC_B][STC_Atomic] = STALL,
    [STC_B][STC_Block] = STALL,
    [STC_B][STC_Drain] = DO(STC_I_I, TAG_RD, send_write),
    [STC_B][STC_Rsp] = DO(STC_B, 0, reply_rsp),
    [STC_B][STC_LastRsp] = DO(STC_B, 0, reply_rsp),
};

const struct coh_table stc_l1_table =
    COH_TABLE("stc", "L1", stc_l1_cells, ctrl_set_state, ctrl_l1_dump_ctx);

/* ---- the classifier ---- */

static unsigned classify_core(const struct stc_l1 *c, const struct coh_ctx *x)
{
    const struct mem_req *r = &x->msg->req;
    bool cur = current(c, x->addr);
    if (r->op == MEM_LOAD) {
        if (cur)
            return STC_Load_U;
        if (x->state == STC_I_V && x->tbe->merged.n >= c->base.merge_max)
            return STC_MergeFull;
        return STC_Load;
    }
    if (!cur || c->hs != HS_RUN)
        return STC_Block;
    return r->op == MEM_STORE ? STC_Store : STC_Atomic;
}

/* AB, MB: the first read of a band with blocked writes in this epoch tells
 * the EMU the two addresses conflict (spec 000 §2.9). */
static void note_conflict(struct stc_l1 *c, addr_t a)
{
    unsigned b = band(c, a);
    if (c->variant < STC_AB || !((c->bsq_bands >> b) & 1) || ((c->conflict_sent >> b) & 1))
        return;
    c->conflict_sent |= 1u << b;
    c->st.conflicts++;
    to_emu(c, MSG_STC_CONFLICT, a, b, c->seb);
}

/* Fences and kernel boundaries: an acquire needs no invalidation (no copy can
 * be stale); a release has already waited for the warp's stores. Answered at
 * once. */
static void order_op(struct ctrl *b, struct msg *m)
{
    struct stc_l1 *c = stc_of(b);
    if (m->req.op == MEM_KERNEL_BEGIN)
        c->in_kernel = true;
    else if (m->req.op == MEM_KERNEL_END)
        c->in_kernel = false;
    ctrl_to_core(b, m, 0);
}

static bool take_core(struct ctrl *b, struct msg *m)
{
    struct stc_l1 *c = stc_of(b);
    struct coh_ctx x;
    if (m->req.op < MEM_FENCE)
        touch_set(c, m->addr);
    enum ctrl_take r = ctrl_l1_begin(b, &x, m, order_op, ctrl_l1_room(b), NULL);
    if (r != CTRL_GO)
        return r == CTRL_TAKEN;
    x.event = classify_core(c, &x);
    if (x.event == STC_Block && x.state != STC_B && c->bsq_n >= c->spec.bsq_entries) {
        b->st.resource_stalls++; /* BSQ full: the memory pipeline stalls */
        return false;
    }
    if (m->req.op == MEM_LOAD)
        note_conflict(c, m->addr);
    ctrl_step_or_park(b, &x);
    return true;
}

static void take_response(struct ctrl *b, struct msg *m)
{
    struct stc_l1 *c = stc_of(b);
    struct coh_ctx x;
    ctrl_l1_response(b, &x, m);
    if (x.state == STC_I_V) {
        if (current(c, m->addr)) {
            x.event = STC_Data_E;
        } else {
            x.event = STC_Data;
            touch_set(c, m->addr);
            ctrl_l1_make_room(b, m->addr, STC_Replace); /* the victim goes through the table */
        }
    } else {
        x.event = x.tbe->pending == 1 ? STC_LastRsp : STC_Rsp;
    }
    ctrl_step(b, &x);
}

/* ---- the handshake ---- */

/* The handshake is back in HS_RUN: stores issue again. */
static void hold_end(struct stc_l1 *c)
{
    c->st.hold_cycles += (c->base.comp.eng->now - c->hold_since) / c->base.comp.clk->period_ps;
}

static void change_epoch(struct stc_l1 *c, uint32_t set, unsigned seb)
{
    /* the epoch's end: sets never touched in it still hold lines of its bands */
    uint32_t sets = c->base.cache.sets;
    for (uint32_t s = 0; s < sets; s++)
        if (c->scrubbed[s] != c->gen)
            scrub_set(c, s, c->cer, c->seb);
    bsq_account(c);
    bool remap = seb != c->seb;
    c->cer = set;
    c->seb = seb;
    c->gen++;
    c->demand_sent = c->conflict_sent = 0;
    c->st.epoch_changes++;
    if (remap) {
        c->st.seb_changes++;
        bsq_rebucket(c);
    }
    if (c->spec.straddle == 0) /* safe: a fill read before this epoch must not be installed */
        for (uint32_t i = 0; i < c->base.tbes.cap; i++) {
            struct tbe *t = &c->base.tbes.e[i];
            if (t->used && t->state == STC_I_V && current(c, t->addr))
                ctrl_fire(&c->base, t->addr, NULL, STC_Flip);
        }
    c->hs = c->spec.epoch_start == 0 ? HS_WAIT_START : HS_RUN;
    if (c->hs == HS_RUN)
        hold_end(c);
    to_emu(c, MSG_STC_DONE, 0, c->cer, c->seb);
    /* spec 000 §7.2e: every band still waiting is demanded again */
    for (uint32_t w = c->bsq_bands & ~c->cer; w; w &= w - 1) {
        unsigned b = (unsigned)__builtin_ctz(w);
        if (c->bsq[b].n)
            demand(c, b, c->bsq[b].head->addr);
    }
}

static void take_emu(struct ctrl *b, struct msg *m)
{
    struct stc_l1 *c = stc_of(b);
    c->st.emu_msgs_in++;
    switch (m->type) {
    case MSG_STC_PREPARE:
        panic_if(c->hs != HS_RUN, "%s: PrepareEpochChange in handshake state %s", b->w.name,
                 hs_names[c->hs]);
        c->hs = HS_DRAINING;
        c->hold_since = c->base.comp.eng->now;
        break;
    case MSG_STC_CHANGE:
        panic_if(c->hs != HS_WAIT_CHANGE, "%s: ChangeEpoch in handshake state %s", b->w.name,
                 hs_names[c->hs]);
        change_epoch(c, (uint32_t)m->ts, (unsigned)m->ts2);
        break;
    case MSG_STC_START:
        panic_if(c->hs != HS_WAIT_START, "%s: EpochStart in handshake state %s", b->w.name,
                 hs_names[c->hs]);
        c->hs = HS_RUN;
        hold_end(c);
        break;
    case MSG_STC_DEMAND_ACK:
        break;
    default:
        panic("%s: unknown EMU message type %u", b->w.name, m->type);
    }
    msg_free(b->w.msgs, m);
}

/* Issue blocked stores of the current bands: each BSQ bank issues up to
 * bsq_drains entries a cycle. Returns progress. */
static bool drain_bsq(struct stc_l1 *c)
{
    if (c->hs != HS_RUN || !(c->bsq_bands & c->cer))
        return false;
    bool moved = false;
    memset(c->drains, 0, c->spec.bsq_banks);
    for (uint32_t w = c->bsq_bands & c->cer; w; w &= w - 1) {
        unsigned b = (unsigned)__builtin_ctz(w);
        struct msg_list keep = {0};
        struct msg *m;
        while ((m = msg_list_pop(&c->bsq[b]))) {
            unsigned bank = (unsigned)((m->addr / c->base.line_bytes) % c->spec.bsq_banks);
            /* the line's TBE exists (state B): issuing needs only room in the port */
            if (c->drains[bank] >= c->spec.bsq_drains ||
                !port_has_room(c->base.links.net_out[NC_VNET_REQ], 1)) {
                msg_list_push(&keep, m);
                continue;
            }
            c->drains[bank]++;
            bsq_account(c);
            c->bsq_n--;
            c->st.bsq_drained++;
            struct coh_ctx x;
            ctrl_lookup(&c->base, &x, m->addr);
            x.msg = m;
            x.event = STC_Drain;
            ctrl_step(&c->base, &x);
            moved = true;
        }
        c->bsq[b] = keep;
        if (!keep.n)
            c->bsq_bands &= ~(1u << b);
    }
    return moved;
}

/* ---- tick ---- */

static bool stc_l1_tick(struct comp *cp)
{
    struct ctrl *b = (struct ctrl *)cp;
    struct stc_l1 *c = stc_of(b);
    ctrl_tick_begin(b);
    bool moved = ctrl_take_one(b, b->links.from_unit, take_emu);
    moved |= ctrl_take_one(b, b->links.net_in[NC_VNET_RSP], take_response);
    moved |= drain_bsq(c);
    moved |= ctrl_take_next(b, &b->in, take_core);
    if (c->hs == HS_DRAINING && !c->pw) {
        c->hs = HS_WAIT_CHANGE; /* the promise: no band is written until ChangeEpoch */
        to_emu(c, MSG_STC_READY, 0, 0, 0);
    }
    bool active = c->in_kernel || c->bsq_n;
    if (c->variant == STC_NV && active != c->active_sent) {
        c->active_sent = active;
        to_emu(c, MSG_STC_ACTIVE, 0, active, 0);
    }
    moved |= ctrl_drain(&c->to_emu, b->links.to_unit);
    if (moved)
        return true;
    /* BSQ entries of a current band wait only for room to issue */
    bool drainable = c->hs == HS_RUN && (c->bsq_bands & c->cer);
    if (b->replay.n || port_peek(&b->in) || drainable) {
        struct port *in[] = {b->links.net_in[NC_VNET_RSP], b->links.from_unit};
        return ctrl_stall_sleep(b, in, 2);
    }
    return false;
}

static void stc_l1_dump(struct comp *cp, FILE *out)
{
    struct stc_l1 *c = stc_of(cp);
    fprintf(out, "%s: epoch set %#x seb %u handshake %s pw %u bsq %u (bands %#x)\n", cp->name,
            c->cer, c->seb, hs_names[c->hs], c->pw, c->bsq_n, c->bsq_bands);
    for (unsigned b = 0; b < c->spec.epochs; b++)
        for (const struct msg *m = c->bsq[b].head; m; m = m->next) {
            fprintf(out, "  bsq band %u: ", b);
            ctrl_dump_msg(m, out);
        }
    ctrl_l1_dump(cp, out);
}

/* ---- host writes ---- */

/* The L1s of a machine, for the host's writes between kernels: STC's
 * per-machine context (proto_desc.attach, ctrl_wiring.proto_ctx). */
struct stc_group {
    struct stc_l1 **l1s; /* made with the first L1 */
    unsigned n;
};

static void *stc_attach(const struct ctrl_wiring *w)
{
    (void)w;
    struct stc_group *g = calloc(1, sizeof *g);
    if (!g)
        panic("out of memory");
    return g;
}

static void stc_detach(void *ctx)
{
    struct stc_group *g = ctx;
    free(g->l1s);
    free(g);
}

static void group_join(const struct ctrl_wiring *w, struct stc_l1 *c)
{
    struct stc_group *g = w->proto_ctx;
    panic_if(!g, "%s: built without STC's machine context (proto_desc.attach)", w->name);
    if (!g->l1s) {
        g->n = w->n_sms;
        if (!(g->l1s = calloc(g->n, sizeof *g->l1s)))
            panic("out of memory");
    }
    g->l1s[w->index] = c;
}

/* A host write between kernels bypasses the epochs (spec 000 §7.1 item 9):
 * every L1 drops its copy of the line. The host's copies are an audited
 * exception to message passing (proto.h, dma); this is their STC part. */
static void host_wrote(struct stc_group *g, addr_t line)
{
    for (unsigned i = 0; g && i < g->n; i++) {
        struct stc_l1 *c = g->l1s[i];
        if (c && cache_find(&c->base.cache, line)) {
            ctrl_fire(&c->base, line, NULL, STC_HostWrite);
            c->st.host_invalidations++;
        }
    }
}

static void stc_l2_dma(struct comp *cp, addr_t line, uint8_t *buf, const struct bytemask *wmask)
{
    nc_l2_dma(cp, line, buf, wmask);
    if (wmask)
        host_wrote(((struct ctrl *)cp)->w.proto_ctx, line);
}

/* ---- construction ---- */

static const struct ctrl_stat stc_l1_stat_rows[] = {
    CTRL_STATS_L1_ACCESSES,
    CTRL_STAT_OWN(struct stc_l1_stats, loads_uncached),
    CTRL_STAT_BASE(fills),
    CTRL_STAT_OWN(struct stc_l1_stats, fills_dropped),
    CTRL_STAT_OWN(struct stc_l1_stats, fills_flipped),
    CTRL_STAT_OWN(struct stc_l1_stats, stores_blocked),
    CTRL_STAT_OWN(struct stc_l1_stats, bsq_drained),
    CTRL_STAT_OWN(struct stc_l1_stats, bsq_max),
    CTRL_STAT_OWN(struct stc_l1_stats, bsq_occupancy),
    CTRL_STAT_OWN(struct stc_l1_stats, lines_scrubbed),
    CTRL_STAT_OWN(struct stc_l1_stats, epoch_changes),
    CTRL_STAT_OWN(struct stc_l1_stats, seb_changes),
    CTRL_STAT_OWN(struct stc_l1_stats, demands),
    CTRL_STAT_OWN(struct stc_l1_stats, conflicts),
    CTRL_STAT_OWN(struct stc_l1_stats, emu_msgs_out),
    CTRL_STAT_OWN(struct stc_l1_stats, emu_msgs_in),
    CTRL_STAT_OWN(struct stc_l1_stats, host_invalidations),
    CTRL_STAT_OWN(struct stc_l1_stats, stores_held),
    CTRL_STAT_OWN(struct stc_l1_stats, hold_cycles),
    CTRL_STAT_BASE(resource_stalls),
    CTRL_STAT_BASE(protocol_stalls),
    CTRL_STAT_END,
};

static struct comp *stc_l1_create_variant(const struct ctrl_wiring *w, enum stc_variant v)
{
    struct stc_l1 *c = ctrl_alloc(sizeof *c);
    ctrl_l1_init(&c->base, w, &stc_l1_table, stc_l1_tick, stc_l1_dump);
    ctrl_set_stats(&c->base, stc_l1_stat_rows, &c->st);
    c->variant = v;
    c->spec = *stc_spec_of(w->cfg);
    c->seb = c->spec.seb;
    c->cer = 1; /* every CU starts in epoch 0 */
    c->scrubbed = calloc(c->base.cache.sets, sizeof *c->scrubbed);
    c->drains = calloc(c->spec.bsq_banks, 1);
    if (!c->scrubbed || !c->drains)
        panic("out of memory");
    c->gen = 1; /* nothing cached yet: every set is "unscrubbed" but empty */
    group_join(w, c);
    return &c->base.comp;
}

void stc_l1_view(struct comp *cp, struct stc_l1_view *v)
{
    struct stc_l1 *c = stc_of(cp);
    *v = (struct stc_l1_view){.cer = c->cer,
                              .pw = c->pw,
                              .bsq_n = c->bsq_n,
                              .bsq_bands = c->bsq_bands,
                              .demand_sent = c->demand_sent,
                              .conflict_sent = c->conflict_sent,
                              .seb = c->seb,
                              .hs = c->hs,
                              .bsq = c->bsq,
                              .to_emu = &c->to_emu,
                              .in_kernel = c->in_kernel,
                              .active_sent = c->active_sent};
}

bool stc_l1_set_scrubbed(struct comp *cp, addr_t line)
{
    struct stc_l1 *c = stc_of(cp);
    return c->scrubbed[cache_set_of(&c->base.cache, line)] == c->gen;
}

static void stc_l1_destroy(struct comp *cp)
{
    struct stc_l1 *c = stc_of(cp);
    struct stc_group *g = c->base.w.proto_ctx;
    g->l1s[c->base.w.index] = NULL;
    struct msg *m;
    for (unsigned b = 0; b < STC_MAX_EPOCHS; b++)
        while ((m = msg_list_pop(&c->bsq[b])))
            msg_free(c->base.w.msgs, m);
    while ((m = msg_list_pop(&c->to_emu)))
        msg_free(c->base.w.msgs, m);
    free(c->scrubbed);
    free(c->drains);
    ctrl_destroy(cp);
}

#define STC_CREATE(fn, v)                                                                          \
    static struct comp *fn(const struct ctrl_wiring *w)                                            \
    {                                                                                              \
        return stc_l1_create_variant(w, v);                                                        \
    }
STC_CREATE(stc_nv_create, STC_NV)
STC_CREATE(stc_es_create, STC_ES)
STC_CREATE(stc_ab_create, STC_AB)
STC_CREATE(stc_mb_create, STC_MB)

static const struct coh_table *const stc_tables[] = {&stc_l1_table, &nc_l2_table, &stc_emu_table,
                                                     NULL}; /* STC_EMU_TABLE: the EMU's */

/* What `gpucoh verify` reads (struct proto_verify; docs/verify.md, "A central
 * unit"): time moves only for the EMU's wake-up period. On the rig: two bands,
 * the rig's lines both in band 1 (address bit 29; band 0 is current at the
 * start, so stores block and demand), the EMU waking once a tick. */
static const char *const stc_rig[] = {"stc.epochs=2",
                                      "stc.seb=29",
                                      "stc.seb_min=12",
                                      "stc.seb_max=30",
                                      "stc.period_cycles={tick}",
                                      NULL};
static const struct proto_verify stc_verify = {.time = PROTO_TIME_PERIOD, .rig_sets = stc_rig};

/* Symmetry over the L1s (struct proto_symmetry): the bank is the baselines'
 * (nc_symmetry's messages); an L1's messages to the EMU name it in `sharer`,
 * the EMU's to an L1 in dst. Every CU runs the same code, and the EMU keeps
 * counts (acks, busy CUs) and bands, never a CU, but for its input pointer,
 * which the digest writes only when it could choose (docs/verify.md, "A
 * central unit"). Data-blind: the L1s and the EMU read addresses and bands,
 * the bank is nc's. */
static const struct proto_symmetry stc_symmetry = {
    .up = PROTO_MSG_BIT(MSG_NC_GETS) | PROTO_MSG_BIT(MSG_NC_WRITE) | PROTO_MSG_BIT(MSG_NC_ATOMIC),
    .down = PROTO_MSG_BIT(MSG_NC_DATA) | PROTO_MSG_BIT(MSG_NC_WRACK) |
            PROTO_MSG_BIT(MSG_NC_ATOMRSP) | PROTO_MSG_BIT(MSG_STC_PREPARE) |
            PROTO_MSG_BIT(MSG_STC_CHANGE) | PROTO_MSG_BIT(MSG_STC_START) |
            PROTO_MSG_BIT(MSG_STC_DEMAND_ACK),
    .up_sharer = PROTO_MSG_BIT(MSG_STC_READY) | PROTO_MSG_BIT(MSG_STC_DONE) |
                 PROTO_MSG_BIT(MSG_STC_DEMAND) | PROTO_MSG_BIT(MSG_STC_CONFLICT) |
                 PROTO_MSG_BIT(MSG_STC_ACTIVE),
    .data_blind = true,
};

#define STC_PROTO(sym, name_, title_, create_)                                                     \
    const struct proto_desc sym = {                                                                \
        .options = &stc_options,                                                                   \
        .name = name_,                                                                             \
        .title = title_,                                                                           \
        .model = MODEL_PTX,                                                                        \
        .write_atomic = true, /* a store is acknowledged once performed at the L2 in its epoch */  \
        .n_vnets = NC_NVNETS,                                                                      \
        .vnet_names = nc_vnet_names,                                                               \
        .tables = stc_tables,                                                                      \
        .n_l1_tables = 1,                                                                          \
        .l1 = {create_, ctrl_connect, ctrl_in_port, stc_l1_destroy, NULL, ctrl_peek, ctrl_stats},  \
        .l2 = {nc_l2_create, ctrl_l2_connect, ctrl_in_port, ctrl_destroy, stc_l2_dma, ctrl_peek,   \
               ctrl_stats},                                                                        \
        .attach = stc_attach,                                                                      \
        .detach = stc_detach,                                                                      \
        .unit = {stc_emu_create, stc_emu_connect, stc_emu_destroy, stc_emu_stats, stc_emu_mhz,     \
                 stc_link_cycles},                                                                 \
        .symmetry = &stc_symmetry,                                                                 \
        .verify = &stc_verify,                                                                     \
    }

STC_PROTO(proto_stc_nv, "stc-nv",
          "spatiotemporal coherence, naive: the EMU visits every epoch in turn (write-atomic)",
          stc_nv_create);
STC_PROTO(
    proto_stc_es, "stc-es",
    "spatiotemporal coherence with epoch skipping: only epochs with blocked stores are granted",
    stc_es_create);
STC_PROTO(proto_stc_ab, "stc-ab",
          "STC-ES with adaptive bands: conflicting reads move the start epoch bit", stc_ab_create);
STC_PROTO(proto_stc_mb, "stc-mb", "STC-AB granting up to stc.mb_width demanded bands at once",
          stc_mb_create);

/* stc-es-oneack (test only): STC-ES whose EMU sends ChangeEpoch after the
 * first ReadyAck, while other CUs may still have stores outstanding. */
const struct proto_desc proto_stc_es_oneack = {
    .options = &stc_options,
    .name = "stc-es-oneack",
    .title = "stc-es with a deliberate bug for testing the checkers: the EMU changes the epoch "
             "after the first CU's ReadyAck, not every CU's",
    .test_only = true,
    .model = MODEL_PTX,
    .write_atomic = true,
    .n_vnets = NC_NVNETS,
    .vnet_names = nc_vnet_names,
    .tables = stc_tables,
    .n_l1_tables = 1,
    .l1 = {stc_es_create, ctrl_connect, ctrl_in_port, stc_l1_destroy, NULL, ctrl_peek, ctrl_stats},
    .l2 = {nc_l2_create, ctrl_l2_connect, ctrl_in_port, ctrl_destroy, stc_l2_dma, ctrl_peek,
           ctrl_stats},
    .attach = stc_attach,
    .detach = stc_detach,
    .unit = {stc_es_oneack_emu_create, stc_emu_connect, stc_emu_destroy, stc_emu_stats, stc_emu_mhz,
             stc_link_cycles},
    .symmetry = &stc_symmetry, /* its bug takes the first ReadyAck, whichever CU's */
    .verify = &stc_verify,
};
