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
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "check/observe.h"
#include "coh/vi/vi.h"
#include "system/config.h"

#define VI_L1_STATES(X)                                                                            \
    X(I, "not present")                                                                            \
    X(V, "valid: equals the L2's value")                                                          \
    X(VM, "valid, with this L1's writes outstanding (already written into the line)")             \
    X(IV, "load miss outstanding; the fill will be installed")                                    \
    X(II, "requests outstanding whose responses must not fill (write, atomic, load at the L2, "  \
          "invalidated fill)")

#define VI_L1_EVENTS(X)                                                                            \
    X(Load, "load from the SM (any semantics and scope: the L1 is coherent)")                     \
    X(MergeFull, "load to a line whose outstanding fill has merged merge_max loads")              \
    X(Store, "store from the SM (write-through)")                                                  \
    X(Atomic, "atomic from the SM (performed at the L2)")                                          \
    X(Replace, "a fill needs this line's way")                                                     \
    X(FlashInv, "kernel launch: invalidate every line and outstanding fill")                       \
    X(Inv, "invalidation or recall from the L2")                                                   \
    X(Data, "the fill of the line's outstanding miss")                                             \
    X(Rsp, "a response (data, write ack, atomic result) with more outstanding")                   \
    X(LastRsp, "the last outstanding response of the line")

#define X(n, d) L1_##n,
enum l1_state { VI_L1_STATES(X) L1_NSTATES };
enum l1_event { VI_L1_EVENTS(X) L1_NEVENTS };
#undef X
#define X(n, d) #n,
static const char *const state_names[] = {VI_L1_STATES(X)};
static const char *const event_names[] = {VI_L1_EVENTS(X)};
#undef X
#define X(n, d) d,
static const char *const state_descs[] = {VI_L1_STATES(X)};
static const char *const event_descs[] = {VI_L1_EVENTS(X)};
#undef X

struct l1_stats {
    uint64_t load_hits, load_misses, load_merged, loads_at_l2, stores, atomics;
    uint64_t invalidations, lines_invalidated, fills, fills_used_once, flash_invalidations;
    uint64_t resource_stalls, protocol_stalls;
};

struct vi_l1 {
    struct comp comp;
    struct ctrl_wiring w;
    struct ctrl_links links;
    const struct coh_table *table;
    struct cache cache;
    struct tbe_table tbes;
    struct port from_core;       /* the SM sends here */
    struct port bus_in;          /* ideal: the free invalidation channel */
    struct port *inv_in;         /* where invalidations arrive (INV vnet or bus_in) */
    struct msg_list replay;      /* parked requests whose line changed state */
    uint32_t merge_max;
    uint32_t line_bytes;
    tick_t hit_ps;               /* hit latency */
    bool ideal;                  /* invalidations need no ack */
    struct l1_stats st;
};

static struct vi_l1 *l1_of(void *p)
{
    return p;
}

/* ---- actions ---- */

/* Reply to the core with the message itself, after `delay_ps`. */
static void to_core(struct vi_l1 *c, struct msg *m, tick_t delay_ps)
{
    m->type = MSG_CORE_RSP;
    if (!port_send_delayed(c->links.to_core, m, delay_ps))
        panic("%s: core response port full", c->w.name);
}

static void alloc_tbe(struct coh_ctx *x)
{
    x->tbe = tbe_alloc(&l1_of(x->ctrl)->tbes, x->addr); /* room checked before the step */
}

static void free_tbe(struct coh_ctx *x)
{
    struct vi_l1 *c = l1_of(x->ctrl);
    msg_list_splice(&c->replay, &x->tbe->parked);
    tbe_free(&c->tbes, x->tbe);
    x->tbe = NULL;
}

static void to_l2(struct vi_l1 *c, struct coh_ctx *x, uint16_t type, uint8_t cls, uint16_t bytes)
{
    struct msg *m = x->msg;
    m->type = type;
    m->cls = cls;
    m->vnet = VI_VNET_REQ;
    m->src = (uint16_t)c->w.index;
    m->dst = (uint16_t)((m->addr / c->line_bytes) % c->w.n_banks);
    m->size_bytes = bytes;
    x->tbe->pending++;
    if (!port_send(c->links.net_out[VI_VNET_REQ], m))
        panic("%s: request port full after room check", c->w.name);
    x->msg = NULL;
}

static void send_gets(struct coh_ctx *x)
{
    struct vi_l1 *c = l1_of(x->ctrl);
    if (x->state == L1_I) {
        x->msg->flags |= VI_F_MERGED; /* this fill answers the loads merged behind it */
        c->st.load_misses++;
    } else {
        c->st.loads_at_l2++;
    }
    to_l2(c, x, MSG_VI_GETS, TRAFFIC_REQ, 0);
}

static void send_write(struct coh_ctx *x)
{
    struct vi_l1 *c = l1_of(x->ctrl);
    c->st.stores++;
    to_l2(c, x, MSG_VI_WRITE, TRAFFIC_ST, (uint16_t)bytemask_count(&x->msg->mask));
}

static void send_atomic(struct coh_ctx *x)
{
    struct vi_l1 *c = l1_of(x->ctrl);
    c->st.atomics++;
    to_l2(c, x, MSG_VI_ATOMIC, TRAFFIC_ATO, (uint16_t)atom_operand_bytes(x->msg->req.atom));
}

static void merge_load(struct coh_ctx *x)
{
    struct vi_l1 *c = l1_of(x->ctrl);
    c->st.load_merged++;
    msg_list_push(&x->tbe->merged, x->msg);
    x->msg = NULL;
}

static void reply_hit(struct coh_ctx *x)
{
    struct vi_l1 *c = l1_of(x->ctrl);
    c->st.load_hits++;
    cache_touch(&c->cache, x->line);
    if (c->w.obs) /* coherent: a hit returns the current value of every byte */
        obs_check(c->w.obs, c->w.name, x->addr, x->line->data, NULL);
    memcpy(x->msg->data, x->line->data, c->line_bytes);
    to_core(c, x->msg, c->hit_ps);
    x->msg = NULL;
}

/* Opt 1: the store's bytes go into the line before the L2 acknowledges. */
static void write_line(struct coh_ctx *x)
{
    struct vi_l1 *c = l1_of(x->ctrl);
    cache_touch(&c->cache, x->line);
    bytes_merge(x->line->data, x->msg->data, &x->msg->mask, c->line_bytes);
}

static void drop_line(struct coh_ctx *x)
{
    struct vi_l1 *c = l1_of(x->ctrl);
    cache_remove(&c->cache, x->line);
    x->line = NULL;
}

static void fill_line(struct coh_ctx *x)
{
    struct vi_l1 *c = l1_of(x->ctrl);
    struct cache_line *way = cache_victim(&c->cache, x->addr, NULL, NULL);
    panic_if(!way || way->present, "%s: fill without a free way", c->w.name);
    cache_install(&c->cache, way, x->addr);
    memcpy(way->data, x->msg->data, c->line_bytes);
    x->line = way;
    c->st.fills++;
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
        struct msg *w;
        while ((w = msg_list_pop(&x->tbe->merged))) {
            memcpy(w->data, m->data, c->line_bytes);
            to_core(c, w, 0);
        }
    }
    to_core(c, m, 0);
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
        msg_free(c->w.msgs, m);
        return;
    }
    m->type = MSG_VI_INVACK;
    m->vnet = VI_VNET_ACK;
    m->dst = m->src;
    m->src = (uint16_t)c->w.index;
    m->size_bytes = 0;
    if (!port_send(c->links.net_out[VI_VNET_ACK], m))
        panic("%s: ack port full after room check", c->w.name);
}

static void count_inv(struct coh_ctx *x)
{
    l1_of(x->ctrl)->st.lines_invalidated++;
}

static void nothing(struct coh_ctx *x)
{
    (void)x;
}

static const struct coh_action_name actions[] = {
    {alloc_tbe, "alloc_tbe", "allocate a TBE for the line"},
    {free_tbe, "free_tbe", "free the TBE and replay requests parked on it"},
    {send_gets, "send_gets", "send a read to the home L2 bank"},
    {send_write, "send_write", "write the masked bytes through to the L2"},
    {send_atomic, "send_atomic", "send the atomic to the L2"},
    {merge_load, "merge_load", "answer this load with the outstanding fill"},
    {reply_hit, "reply_hit", "answer the load from the line after the hit latency"},
    {write_line, "write_line", "write the store's bytes into the line at once (Opt 1)"},
    {drop_line, "drop_line", "invalidate the line (silently: write-through keeps the L2 current)"},
    {fill_line, "fill_line", "install the fill in a free way"},
    {reply_rsp, "reply_rsp", "answer the request (and, for the fill, the loads merged behind it)"},
    {ack_inv, "ack_inv",
     "answer the invalidation with an INVACK of its class (ideal: consume it, nobody waits)"},
    {count_inv, "count_inv", "count a valid copy lost to an invalidation"},
    {nothing, "nothing", "no action: the outstanding fill will not be installed"},
    {0},
};

/* ---- the table ---- */

/*  state    event            next   uses               actions                                  */
static const struct coh_trans vi_l1_cells[L1_NSTATES][L1_NEVENTS] = {
    [L1_I ][L1_Load     ] = DO(L1_IV, TAG_RD,           alloc_tbe, send_gets),
    [L1_I ][L1_Store    ] = DO(L1_II, TAG_RD,           alloc_tbe, send_write),
    [L1_I ][L1_Atomic   ] = DO(L1_II, TAG_RD,           alloc_tbe, send_atomic),
    [L1_I ][L1_Inv      ] = DO(L1_I,  TAG_RD,           ack_inv),  /* stale sharer bit */
    [L1_V ][L1_Load     ] = DO(L1_V,  TAG_RD | DATA_RD, reply_hit),
    [L1_V ][L1_Store    ] = DO(L1_VM, TAG_RD | DATA_WR, write_line, alloc_tbe, send_write),
    [L1_V ][L1_Atomic   ] = DO(L1_II, TAG_RD | TAG_WR,  drop_line, alloc_tbe, send_atomic),
    [L1_V ][L1_Replace  ] = DO(L1_I,  TAG_WR,           drop_line),
    [L1_V ][L1_FlashInv ] = DO(L1_I,  TAG_WR,           drop_line),
    [L1_V ][L1_Inv      ] = DO(L1_I,  TAG_WR,           count_inv, drop_line, ack_inv),
    [L1_VM][L1_Load     ] = DO(L1_VM, TAG_RD,           send_gets), /* Opt 2 */
    [L1_VM][L1_Store    ] = DO(L1_VM, TAG_RD | DATA_WR, write_line, send_write),
    [L1_VM][L1_Atomic   ] = DO(L1_II, TAG_RD | TAG_WR,  drop_line, send_atomic),
    [L1_VM][L1_Replace  ] = DO(L1_II, TAG_WR,           drop_line),
    [L1_VM][L1_FlashInv ] = DO(L1_II, TAG_WR,           drop_line),
    [L1_VM][L1_Inv      ] = DO(L1_II, TAG_WR,           count_inv, drop_line, ack_inv),
    [L1_VM][L1_Rsp      ] = DO(L1_VM, 0,                reply_rsp),
    [L1_VM][L1_LastRsp  ] = DO(L1_V,  0,                reply_rsp, free_tbe),
    [L1_IV][L1_Load     ] = DO(L1_IV, TAG_RD,           merge_load),
    [L1_IV][L1_MergeFull] = STALL,
    [L1_IV][L1_Store    ] = DO(L1_II, TAG_RD,           send_write),
    [L1_IV][L1_Atomic   ] = DO(L1_II, TAG_RD,           send_atomic),
    [L1_IV][L1_FlashInv ] = DO(L1_II, 0,                nothing),
    [L1_IV][L1_Inv      ] = DO(L1_II, TAG_RD,           ack_inv),  /* the fill is used once */
    [L1_IV][L1_Data     ] = DO(L1_V,  TAG_WR | DATA_WR, fill_line, reply_rsp, free_tbe),
    [L1_II][L1_Load     ] = DO(L1_II, TAG_RD,           send_gets),
    [L1_II][L1_Store    ] = DO(L1_II, TAG_RD,           send_write),
    [L1_II][L1_Atomic   ] = DO(L1_II, TAG_RD,           send_atomic),
    [L1_II][L1_Inv      ] = DO(L1_II, TAG_RD,           ack_inv),
    [L1_II][L1_Rsp      ] = DO(L1_II, 0,                reply_rsp),
    [L1_II][L1_LastRsp  ] = DO(L1_I,  0,                reply_rsp, free_tbe),
};

static void set_state(struct coh_ctx *x, unsigned next)
{
    if (x->line)
        x->line->state = (uint8_t)next;
    if (x->tbe)
        x->tbe->state = (uint8_t)next;
}

static void dump_ctx(struct coh_ctx *x, FILE *out)
{
    if (x->line)
        fprintf(out, "  line %#llx: %s\n", (unsigned long long)x->line->addr,
                state_names[x->line->state]);
    if (x->tbe)
        fprintf(out, "  tbe %#llx: %s pending %d merged %u parked %u\n",
                (unsigned long long)x->tbe->addr, state_names[x->tbe->state], x->tbe->pending,
                x->tbe->merged.n, x->tbe->parked.n);
}

#define VI_L1_TABLE(proto_)                                                                        \
    {                                                                                              \
        .proto = proto_, .ctrl = "L1", .n_states = L1_NSTATES, .n_events = L1_NEVENTS,             \
        .state_names = state_names, .state_descs = state_descs, .event_names = event_names,       \
        .event_descs = event_descs, .cells = &vi_l1_cells[0][0], .actions = actions,              \
        .set_state = set_state, .dump = dump_ctx,                                                  \
    }

/* One table, three names: coverage and printing are per protocol. */
const struct coh_table vi_l1_table = VI_L1_TABLE("gpuvi");
const struct coh_table vini_l1_table = VI_L1_TABLE("gpuvini");
const struct coh_table ideal_l1_table = VI_L1_TABLE("ideal");

/* ---- the classifier ---- */

static void lookup(struct vi_l1 *c, struct coh_ctx *x, addr_t line)
{
    x->ctrl = c;
    x->ctrl_name = c->w.name;
    x->eng = c->comp.eng;
    x->addr = line;
    x->line = cache_find(&c->cache, line);
    x->tbe = tbe_find(&c->tbes, line);
    x->state = x->tbe ? x->tbe->state : x->line ? x->line->state : L1_I;
}

static unsigned classify_core(const struct vi_l1 *c, const struct coh_ctx *x)
{
    switch (x->msg->req.op) {
    case MEM_LOAD:
        if (x->state == L1_IV && x->tbe->merged.n >= c->merge_max)
            return L1_MergeFull;
        return L1_Load;
    case MEM_STORE:
        return L1_Store;
    default:
        return L1_Atomic;
    }
}

static void run_event(struct vi_l1 *c, struct coh_ctx *x)
{
    coh_step(c->table, &c->w.cov[0], x);
}

static void flash_line(struct cache_line *l, void *arg)
{
    struct vi_l1 *c = arg;
    struct coh_ctx x;
    lookup(c, &x, l->addr);
    x.msg = NULL;
    x.event = L1_FlashInv;
    run_event(c, &x);
}

/* Kernel launch: every present line (V, VM), then every outstanding fill
 * (IV). Lines in II need nothing: their responses never fill. */
static void flash_invalidate(struct vi_l1 *c)
{
    c->st.flash_invalidations++;
    cache_for_each(&c->cache, flash_line, c);
    for (uint32_t i = 0; i < c->tbes.cap; i++) {
        struct tbe *t = &c->tbes.e[i];
        if (t->used && t->state == L1_IV) {
            struct coh_ctx x;
            lookup(c, &x, t->addr);
            x.msg = NULL;
            x.event = L1_FlashInv;
            run_event(c, &x);
        }
    }
}

/* Fences and kernel end need nothing (the SM has already waited for the
 * warp's earlier accesses, and every performed write is visible everywhere);
 * a launch invalidates (host writes between kernels sent no INVs). Answered
 * at once. */
static void order_op(struct vi_l1 *c, struct msg *m)
{
    if (m->req.op == MEM_KERNEL_BEGIN)
        flash_invalidate(c);
    to_core(c, m, 0);
}

/* Room for the worst case of one core step: one network request, one TBE. */
static bool have_room(struct vi_l1 *c)
{
    return port_has_room(c->links.net_out[VI_VNET_REQ], 1) && !tbe_full(&c->tbes);
}

/* One core request (new or replayed). Returns false on a resource stall (the
 * request stays where it was). */
static bool take_core(struct vi_l1 *c, struct msg *m)
{
    if (m->req.op >= MEM_FENCE) {
        order_op(c, m);
        return true;
    }
    if (!have_room(c)) {
        c->st.resource_stalls++;
        return false;
    }
    struct coh_ctx x;
    lookup(c, &x, m->addr);
    x.msg = m;
    if (x.tbe && x.tbe->parked.n) {
        /* INVARIANT: requests to a line leave in program order: once one is
         * parked, every later one for the line parks behind it */
        c->st.protocol_stalls++;
        msg_list_push(&x.tbe->parked, m);
        return true;
    }
    x.event = classify_core(c, &x);
    if (coh_step(c->table, &c->w.cov[0], &x) == COH_STALLED) {
        c->st.protocol_stalls++;
        msg_list_push(&x.tbe->parked, m);
    }
    return true;
}

static void take_response(struct vi_l1 *c, struct msg *m)
{
    struct coh_ctx x;
    lookup(c, &x, m->addr);
    x.msg = m;
    panic_if(!x.tbe, "%s: response for %#llx with no TBE", c->w.name,
             (unsigned long long)m->addr);
    if (x.state == L1_IV) {
        x.event = L1_Data;
        /* make room first: the victim is replaced through the table */
        struct cache_line *way = cache_victim(&c->cache, m->addr, NULL, NULL);
        if (way && way->present) {
            struct coh_ctx v;
            lookup(c, &v, way->addr);
            v.msg = NULL;
            v.event = L1_Replace;
            run_event(c, &v);
        }
    } else {
        x.event = x.tbe->pending == 1 ? L1_LastRsp : L1_Rsp;
    }
    run_event(c, &x);
}

/* Every ready invalidation, while the ack vnet has room. Returns progress. */
static bool take_invalidations(struct vi_l1 *c)
{
    bool moved = false;
    while (port_peek(c->inv_in)) {
        if (!c->ideal && !port_has_room(c->links.net_out[VI_VNET_ACK], 1)) {
            c->st.resource_stalls++;
            break;
        }
        struct coh_ctx x;
        struct msg *m = port_pop(c->inv_in);
        lookup(c, &x, m->addr);
        x.msg = m;
        x.event = L1_Inv;
        run_event(c, &x);
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
    struct vi_l1 *c = (struct vi_l1 *)cp;
    bool moved = false;
    struct msg *m;

    moved |= take_invalidations(c);
    if ((m = port_peek(c->links.net_in[VI_VNET_RSP]))) {
        take_response(c, port_pop(c->links.net_in[VI_VNET_RSP]));
        moved = true;
    }
    if ((m = msg_list_pop(&c->replay))) {
        if (take_core(c, m))
            moved = true;
        else
            msg_list_push_front(&c->replay, m);
    } else if ((m = port_peek(&c->from_core))) {
        if (take_core(c, m)) {
            port_pop(&c->from_core);
            moved = true;
        }
    }
    /* stay awake while a resource stall may clear by itself */
    return moved || c->replay.n || port_peek(&c->from_core) || port_peek(c->inv_in);
}

static void vi_l1_dump(struct comp *cp, FILE *out)
{
    struct vi_l1 *c = (struct vi_l1 *)cp;
    if (!c->tbes.n_used && !c->from_core.n && !c->replay.n)
        return;
    fprintf(out, "%s (%s L1): %u TBEs, %u core requests queued, %u replaying\n", c->w.name,
            c->table->proto, c->tbes.n_used, c->from_core.n, c->replay.n);
    for (uint32_t i = 0; i < c->tbes.cap; i++) {
        struct tbe *t = &c->tbes.e[i];
        if (t->used)
            fprintf(out, "  tbe %#llx %s pending %d merged %u parked %u\n",
                    (unsigned long long)t->addr, state_names[t->state], t->pending, t->merged.n,
                    t->parked.n);
    }
}

/* ---- construction ---- */

static struct vi_l1 *create(const struct ctrl_wiring *w, const struct coh_table *t, bool ideal)
{
    struct vi_l1 *c = calloc(1, sizeof *c);
    char err[256];
    if (!c)
        panic("out of memory");
    if (w->n_sms > VI_MAX_SHARERS)
        fatal("%s: gpu.sms = %u, but a sharer vector names at most %u SMs", t->proto, w->n_sms,
              VI_MAX_SHARERS);
    c->w = *w;
    c->table = t;
    c->ideal = ideal;
    if (cache_init(&c->cache, &w->cfg->l1.cache, err, sizeof err))
        fatal("l1: %s", err);
    tbe_table_init(&c->tbes, w->cfg->l1.mshrs, w->cfg->l1.cache.line_bytes);
    c->merge_max = w->cfg->l1.merge_max;
    c->line_bytes = w->cfg->l1.cache.line_bytes;
    c->hit_ps = (tick_t)w->cfg->l1.cache.hit_cycles * w->clk->period_ps;
    comp_init(&c->comp, w->eng, w->name, w->clk, vi_l1_tick, vi_l1_dump);
    port_init(&c->from_core, "from_core", 64, w->clk->period_ps, NULL, &c->comp);
    if (ideal) {
        /* sized so that it never fills: the banks check room before a step */
        port_init(&c->bus_in, "ideal_inv", 4096, 0, NULL, &c->comp);
        vi_bus_attach(w->eng, w->index, w->n_sms, &c->bus_in);
    }
    return c;
}

struct comp *vi_l1_create(const struct ctrl_wiring *w)
{
    return &create(w, &vi_l1_table, false)->comp;
}

struct comp *vini_l1_create(const struct ctrl_wiring *w)
{
    return &create(w, &vini_l1_table, false)->comp;
}

struct comp *ideal_l1_create(const struct ctrl_wiring *w)
{
    return &create(w, &ideal_l1_table, true)->comp;
}

void vi_l1_connect(struct comp *cp, const struct ctrl_links *l)
{
    struct vi_l1 *c = (struct vi_l1 *)cp;
    c->links = *l;
    c->inv_in = c->ideal ? &c->bus_in : l->net_in[VI_VNET_INV];
}

struct port *vi_l1_in_port(struct comp *cp)
{
    return &((struct vi_l1 *)cp)->from_core;
}

void vi_l1_destroy(struct comp *cp)
{
    struct vi_l1 *c = (struct vi_l1 *)cp;
    if (c->ideal) {
        vi_bus_detach(c->comp.eng, c->w.index);
        while (c->bus_in.n) /* invalidations sent after the last tick */
            msg_free(c->w.msgs, port_pop(&c->bus_in));
        port_destroy(&c->bus_in);
    }
    cache_destroy(&c->cache);
    tbe_table_destroy(&c->tbes);
    port_destroy(&c->from_core);
    free(c);
}

void vi_l1_stats(struct comp *cp, void (*emit)(void *, const char *, uint64_t), void *arg)
{
    struct vi_l1 *c = (struct vi_l1 *)cp;
    const struct l1_stats *s = &c->st;
    emit(arg, "load_hits", s->load_hits);
    emit(arg, "load_misses", s->load_misses);
    emit(arg, "load_merged", s->load_merged);
    emit(arg, "loads_at_l2", s->loads_at_l2);
    emit(arg, "stores", s->stores);
    emit(arg, "atomics", s->atomics);
    emit(arg, "invalidations", s->invalidations);
    emit(arg, "lines_invalidated", s->lines_invalidated);
    emit(arg, "fills", s->fills);
    emit(arg, "fills_used_once", s->fills_used_once);
    emit(arg, "flash_invalidations", s->flash_invalidations);
    emit(arg, "resource_stalls", s->resource_stalls);
    emit(arg, "protocol_stalls", s->protocol_stalls);
}

unsigned vi_l1_peek(struct comp *cp, addr_t line, uint8_t *data)
{
    struct vi_l1 *c = (struct vi_l1 *)cp;
    struct coh_ctx x;
    lookup(c, &x, line);
    if (data && x.line)
        memcpy(data, x.line->data, c->line_bytes);
    return x.state;
}
