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
 * A stale hit returns the stale value: that is the baseline's contract.
 * INVARIANT: a fill requested before a store (or an acquire) to its line is
 *   never installed (state II); a load never merges into such a fill.
 * DEVIATION: the baseline's L2 keeps only V/M stable states (see nc_l2.c).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "coh/nc/nc.h"
#include "system/config.h"

#define RC_L1_STATES(X)                                                                            \
    X(I, "not present")                                                                            \
    X(V, "valid (possibly stale: nothing invalidates it but an acquire)")                         \
    X(IV, "load miss outstanding; the fill will be installed")                                    \
    X(II, "requests outstanding whose responses must not fill (write, atomic, L2 load, acquire)")

#define RC_L1_EVENTS(X)                                                                            \
    X(Load, "weak or .cta load from the SM")                                                       \
    X(LoadL2, "load performed at the L2: .gpu/.sys relaxed/acquire, volatile")                    \
    X(MergeFull, "load to a line whose outstanding fill has merged merge_max loads")              \
    X(Store, "store from the SM (write-through)")                                                  \
    X(Atomic, "atomic from the SM (performed at the L2)")                                          \
    X(Replace, "a fill needs this line's way")                                                     \
    X(FlashInv, "acquire: invalidate every valid line")                                            \
    X(Data, "the fill of the line's outstanding miss")                                             \
    X(Rsp, "a response (data, write ack, atomic result) with more outstanding")                   \
    X(LastRsp, "the last outstanding response of the line")

#define X(n, d) RC_##n,
enum rc_state { RC_L1_STATES(X) RC_NSTATES };
enum rc_event { RC_L1_EVENTS(X) RC_NEVENTS };
#undef X
#define X(n, d) #n,
static const char *const state_names[] = {RC_L1_STATES(X)};
static const char *const event_names[] = {RC_L1_EVENTS(X)};
#undef X
#define X(n, d) d,
static const char *const state_descs[] = {RC_L1_STATES(X)};
static const char *const event_descs[] = {RC_L1_EVENTS(X)};
#undef X

struct rc_stats {
    uint64_t load_hits, load_misses, load_merged, loads_at_l2, stores, atomics;
    uint64_t flash_invalidations, lines_invalidated, fills, fills_dropped;
    uint64_t resource_stalls, protocol_stalls;
};

struct rc_l1 {
    struct comp comp;
    struct ctrl_wiring w;
    struct ctrl_links links;
    struct cache cache;
    struct tbe_table tbes;
    struct port from_core;       /* the SM sends here */
    struct msg_list replay;      /* parked requests whose line changed state */
    uint32_t merge_max;
    uint32_t line_bytes;
    tick_t hit_ps;               /* hit latency */
    bool flash_pending;          /* an acquire completed in this step: invalidate after it */
    bool bug_acquire_keeps_l1;   /* rc-noinv (test only): acquires do not invalidate */
    struct rc_stats st;
};

static struct rc_l1 *rc_of(void *p)
{
    return p;
}

/* ---- actions ---- */

/* Reply to the core with the message itself, after `delay_ps`. */
static void to_core(struct rc_l1 *c, struct msg *m, tick_t delay_ps)
{
    m->type = MSG_CORE_RSP;
    if (!port_send_delayed(c->links.to_core, m, delay_ps))
        panic("%s: core response port full", c->w.name);
}

static void alloc_tbe(struct coh_ctx *x)
{
    struct rc_l1 *c = rc_of(x->ctrl);
    x->tbe = tbe_alloc(&c->tbes, x->addr); /* room checked before the step */
}

static void free_tbe(struct coh_ctx *x)
{
    struct rc_l1 *c = rc_of(x->ctrl);
    msg_list_splice(&c->replay, &x->tbe->parked);
    tbe_free(&c->tbes, x->tbe);
    x->tbe = NULL;
}

static void to_l2(struct rc_l1 *c, struct coh_ctx *x, uint16_t type, uint8_t cls, uint16_t bytes)
{
    struct msg *m = x->msg;
    m->type = type;
    m->cls = cls;
    m->vnet = NC_VNET_REQ;
    m->src = (uint16_t)c->w.index;
    m->dst = (uint16_t)((m->addr / c->line_bytes) % c->w.n_banks);
    m->size_bytes = bytes;
    x->tbe->pending++;
    if (!port_send(c->links.net_out[NC_VNET_REQ], m))
        panic("%s: request port full after room check", c->w.name);
    x->msg = NULL;
}

static void send_gets(struct coh_ctx *x)
{
    struct rc_l1 *c = rc_of(x->ctrl);
    if (x->state == RC_I && x->event == RC_Load) {
        x->msg->flags |= NC_F_MERGED; /* this fill answers the loads merged behind it */
        c->st.load_misses++;
    } else {
        c->st.loads_at_l2++;
    }
    to_l2(c, x, MSG_NC_GETS, TRAFFIC_REQ, 0);
}

static void send_write(struct coh_ctx *x)
{
    struct rc_l1 *c = rc_of(x->ctrl);
    c->st.stores++;
    to_l2(c, x, MSG_NC_WRITE, TRAFFIC_ST, (uint16_t)bytemask_count(&x->msg->mask));
}

static void send_atomic(struct coh_ctx *x)
{
    struct rc_l1 *c = rc_of(x->ctrl);
    c->st.atomics++;
    to_l2(c, x, MSG_NC_ATOMIC, TRAFFIC_ATO, (uint16_t)atom_operand_bytes(x->msg->req.atom));
}

static void merge_load(struct coh_ctx *x)
{
    struct rc_l1 *c = rc_of(x->ctrl);
    c->st.load_merged++;
    msg_list_push(&x->tbe->merged, x->msg);
    x->msg = NULL;
}

static void reply_hit(struct coh_ctx *x)
{
    struct rc_l1 *c = rc_of(x->ctrl);
    c->st.load_hits++;
    cache_touch(&c->cache, x->line);
    memcpy(x->msg->data, x->line->data, c->line_bytes);
    to_core(c, x->msg, c->hit_ps);
    x->msg = NULL;
}

static void drop_line(struct coh_ctx *x)
{
    struct rc_l1 *c = rc_of(x->ctrl);
    cache_remove(&c->cache, x->line);
    x->line = NULL;
}

static void fill_line(struct coh_ctx *x)
{
    struct rc_l1 *c = rc_of(x->ctrl);
    struct cache_line *way = cache_victim(&c->cache, x->addr, NULL, NULL);
    panic_if(!way || way->present, "%s: fill without a free way", c->w.name);
    cache_install(&c->cache, way, x->addr);
    memcpy(way->data, x->msg->data, c->line_bytes);
    x->line = way;
    c->st.fills++;
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
    if (m->flags & NC_F_MERGED) {
        struct msg *w;
        while ((w = msg_list_pop(&x->tbe->merged))) {
            memcpy(w->data, m->data, c->line_bytes);
            to_core(c, w, 0);
        }
    }
    if ((m->req.sem == SEM_ACQUIRE || m->req.sem == SEM_ACQ_REL || m->req.sem == SEM_SC) &&
        m->req.scope >= SCOPE_GPU && !c->bug_acquire_keeps_l1)
        c->flash_pending = true;
    to_core(c, m, 0);
    x->msg = NULL;
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
    {drop_line, "drop_line", "invalidate the line (silently: write-through keeps L2 current)"},
    {fill_line, "fill_line", "install the fill in a free way"},
    {reply_rsp, "reply_rsp", "answer the request (and merged loads); an acquire invalidates"},
    {nothing, "nothing", "no action: the outstanding fill will not be installed"},
    {0},
};

/* ---- the table ---- */

/*  state    event            next   uses               actions                                */
static const struct coh_trans rc_l1_cells[RC_NSTATES][RC_NEVENTS] = {
    [RC_I ][RC_Load    ] = DO(RC_IV, TAG_RD,           alloc_tbe, send_gets),
    [RC_I ][RC_LoadL2  ] = DO(RC_II, TAG_RD,           alloc_tbe, send_gets),
    [RC_I ][RC_Store   ] = DO(RC_II, TAG_RD,           alloc_tbe, send_write),
    [RC_I ][RC_Atomic  ] = DO(RC_II, TAG_RD,           alloc_tbe, send_atomic),
    [RC_V ][RC_Load    ] = DO(RC_V,  TAG_RD | DATA_RD, reply_hit),
    [RC_V ][RC_LoadL2  ] = DO(RC_II, TAG_RD | TAG_WR,  drop_line, alloc_tbe, send_gets),
    [RC_V ][RC_Store   ] = DO(RC_II, TAG_RD | TAG_WR,  drop_line, alloc_tbe, send_write),
    [RC_V ][RC_Atomic  ] = DO(RC_II, TAG_RD | TAG_WR,  drop_line, alloc_tbe, send_atomic),
    [RC_V ][RC_Replace ] = DO(RC_I,  TAG_WR,           drop_line),
    [RC_V ][RC_FlashInv] = DO(RC_I,  TAG_WR,           drop_line),
    [RC_IV][RC_Load    ] = DO(RC_IV, TAG_RD,           merge_load),
    [RC_IV][RC_MergeFull]= STALL,
    [RC_IV][RC_LoadL2  ] = DO(RC_II, TAG_RD,           send_gets),
    [RC_IV][RC_Store   ] = DO(RC_II, TAG_RD,           send_write),
    [RC_IV][RC_Atomic  ] = DO(RC_II, TAG_RD,           send_atomic),
    [RC_IV][RC_FlashInv] = DO(RC_II, 0,                nothing),
    [RC_IV][RC_Data    ] = DO(RC_V,  TAG_WR | DATA_WR, fill_line, reply_rsp, free_tbe),
    [RC_II][RC_Load    ] = DO(RC_II, TAG_RD,           send_gets),
    [RC_II][RC_LoadL2  ] = DO(RC_II, TAG_RD,           send_gets),
    [RC_II][RC_Store   ] = DO(RC_II, TAG_RD,           send_write),
    [RC_II][RC_Atomic  ] = DO(RC_II, TAG_RD,           send_atomic),
    [RC_II][RC_Rsp     ] = DO(RC_II, 0,                reply_rsp),
    [RC_II][RC_LastRsp ] = DO(RC_I,  0,                reply_rsp, free_tbe),
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

const struct coh_table rc_l1_table = {
    .proto = "rc",
    .ctrl = "L1",
    .n_states = RC_NSTATES,
    .n_events = RC_NEVENTS,
    .state_names = state_names,
    .state_descs = state_descs,
    .event_names = event_names,
    .event_descs = event_descs,
    .cells = &rc_l1_cells[0][0],
    .actions = actions,
    .set_state = set_state,
    .dump = dump_ctx,
};

/* ---- the classifier ---- */

static void lookup(struct rc_l1 *c, struct coh_ctx *x, addr_t line)
{
    x->ctrl = c;
    x->ctrl_name = c->w.name;
    x->eng = c->comp.eng;
    x->addr = line;
    x->line = cache_find(&c->cache, line);
    x->tbe = tbe_find(&c->tbes, line);
    x->state = x->tbe ? x->tbe->state : x->line ? x->line->state : RC_I;
}

static bool performed_at_l2(const struct mem_req *r)
{
    return r->scope >= SCOPE_GPU && r->sem != SEM_WEAK;
}

static unsigned classify_core(const struct rc_l1 *c, const struct coh_ctx *x)
{
    const struct mem_req *r = &x->msg->req;
    switch (r->op) {
    case MEM_LOAD:
        if (performed_at_l2(r))
            return RC_LoadL2;
        if (x->state == RC_IV && x->tbe->merged.n >= c->merge_max)
            return RC_MergeFull;
        return RC_Load;
    case MEM_STORE:
        return RC_Store;
    default:
        return RC_Atomic;
    }
}

static void run_event(struct rc_l1 *c, struct coh_ctx *x)
{
    coh_step(&rc_l1_table, &c->w.cov[0], x);
}

static void flash_line(struct cache_line *l, void *arg)
{
    struct rc_l1 *c = arg;
    struct coh_ctx x;
    lookup(c, &x, l->addr);
    x.msg = NULL;
    x.event = RC_FlashInv;
    run_event(c, &x);
    c->st.lines_invalidated++;
}

/* The acquire: every valid line, then every outstanding fill (IV). Lines in
 * II need nothing: their responses never fill. */
static void flash_invalidate(struct rc_l1 *c)
{
    c->flash_pending = false;
    c->st.flash_invalidations++;
    cache_for_each(&c->cache, flash_line, c);
    for (uint32_t i = 0; i < c->tbes.cap; i++) {
        struct tbe *t = &c->tbes.e[i];
        if (t->used && t->state == RC_IV) {
            struct coh_ctx x;
            lookup(c, &x, t->addr);
            x.msg = NULL;
            x.event = RC_FlashInv;
            run_event(c, &x);
        }
    }
}

/* Fences and kernel boundaries: the SM has already waited for the warp's
 * earlier accesses (release); an acquire at .gpu/.sys scope or a launch
 * invalidates. Answered at once. */
static void order_op(struct rc_l1 *c, struct msg *m)
{
    bool acquire = m->req.op == MEM_KERNEL_BEGIN ||
                   (m->req.op == MEM_FENCE && m->req.scope >= SCOPE_GPU &&
                    !c->bug_acquire_keeps_l1);
    if (acquire)
        flash_invalidate(c);
    to_core(c, m, 0);
}

/* Room for the worst case of one step: one network request, one TBE. */
static bool have_room(struct rc_l1 *c)
{
    return port_has_room(c->links.net_out[NC_VNET_REQ], 1) && !tbe_full(&c->tbes);
}

/* One core request (new or replayed). Returns false on a resource stall (the
 * request stays where it was). */
static bool take_core(struct rc_l1 *c, struct msg *m)
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
    if (coh_step(&rc_l1_table, &c->w.cov[0], &x) == COH_STALLED) {
        c->st.protocol_stalls++;
        msg_list_push(&x.tbe->parked, m);
    }
    if (c->flash_pending)
        flash_invalidate(c);
    return true;
}

static void take_response(struct rc_l1 *c, struct msg *m)
{
    struct coh_ctx x;
    lookup(c, &x, m->addr);
    x.msg = m;
    panic_if(!x.tbe, "%s: response for %#llx with no TBE", c->w.name,
             (unsigned long long)m->addr);
    if (x.state == RC_IV) {
        x.event = RC_Data;
        /* make room first: the victim is replaced through the table */
        struct cache_line *way = cache_victim(&c->cache, m->addr, NULL, NULL);
        if (way && way->present) {
            struct coh_ctx v;
            lookup(c, &v, way->addr);
            v.msg = NULL;
            v.event = RC_Replace;
            run_event(c, &v);
        }
    } else {
        x.event = x.tbe->pending == 1 ? RC_LastRsp : RC_Rsp;
    }
    run_event(c, &x);
    if (c->flash_pending)
        flash_invalidate(c);
}

/* ---- tick ---- */

static bool rc_l1_tick(struct comp *cp)
{
    struct rc_l1 *c = (struct rc_l1 *)cp;
    bool moved = false;
    struct msg *m;

    if ((m = port_peek(c->links.net_in[NC_VNET_RSP]))) {
        take_response(c, port_pop(c->links.net_in[NC_VNET_RSP]));
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
    return moved || c->replay.n || port_peek(&c->from_core);
}

static void rc_l1_dump(struct comp *cp, FILE *out)
{
    struct rc_l1 *c = (struct rc_l1 *)cp;
    if (!c->tbes.n_used && !c->from_core.n && !c->replay.n)
        return;
    fprintf(out, "%s (rc L1): %u TBEs, %u core requests queued, %u replaying\n", c->w.name,
            c->tbes.n_used, c->from_core.n, c->replay.n);
    for (uint32_t i = 0; i < c->tbes.cap; i++) {
        struct tbe *t = &c->tbes.e[i];
        if (t->used)
            fprintf(out, "  tbe %#llx %s pending %d merged %u parked %u\n",
                    (unsigned long long)t->addr, state_names[t->state], t->pending, t->merged.n,
                    t->parked.n);
    }
}

/* ---- construction ---- */

static struct comp *rc_l1_create(const struct ctrl_wiring *w)
{
    struct rc_l1 *c = calloc(1, sizeof *c);
    char err[256];
    if (!c)
        panic("out of memory");
    c->w = *w;
    if (cache_init(&c->cache, &w->cfg->l1.cache, err, sizeof err))
        fatal("l1: %s", err);
    tbe_table_init(&c->tbes, w->cfg->l1.mshrs, w->cfg->l1.cache.line_bytes);
    c->merge_max = w->cfg->l1.merge_max;
    c->line_bytes = w->cfg->l1.cache.line_bytes;
    c->hit_ps = (tick_t)w->cfg->l1.cache.hit_cycles * w->clk->period_ps;
    comp_init(&c->comp, w->eng, w->name, w->clk, rc_l1_tick, rc_l1_dump);
    port_init(&c->from_core, "from_core", 64, w->clk->period_ps, NULL, &c->comp);
    return &c->comp;
}

/* The deliberately broken variant the validation tests must catch. */
static struct comp *rc_noinv_create(const struct ctrl_wiring *w)
{
    struct comp *cp = rc_l1_create(w);
    ((struct rc_l1 *)cp)->bug_acquire_keeps_l1 = true;
    return cp;
}

static void rc_l1_connect(struct comp *cp, const struct ctrl_links *l)
{
    struct rc_l1 *c = (struct rc_l1 *)cp;
    c->links = *l;
}

static struct port *rc_l1_in_port(struct comp *cp)
{
    return &((struct rc_l1 *)cp)->from_core;
}

static void rc_l1_destroy(struct comp *cp)
{
    struct rc_l1 *c = (struct rc_l1 *)cp;
    cache_destroy(&c->cache);
    tbe_table_destroy(&c->tbes);
    port_destroy(&c->from_core);
    free(c);
}

static void rc_l1_stats(struct comp *cp, void (*emit)(void *, const char *, uint64_t), void *arg)
{
    struct rc_l1 *c = (struct rc_l1 *)cp;
    const struct rc_stats *s = &c->st;
    emit(arg, "load_hits", s->load_hits);
    emit(arg, "load_misses", s->load_misses);
    emit(arg, "load_merged", s->load_merged);
    emit(arg, "loads_at_l2", s->loads_at_l2);
    emit(arg, "stores", s->stores);
    emit(arg, "atomics", s->atomics);
    emit(arg, "flash_invalidations", s->flash_invalidations);
    emit(arg, "lines_invalidated", s->lines_invalidated);
    emit(arg, "fills", s->fills);
    emit(arg, "fills_dropped", s->fills_dropped);
    emit(arg, "resource_stalls", s->resource_stalls);
    emit(arg, "protocol_stalls", s->protocol_stalls);
}

static unsigned rc_l1_peek(struct comp *cp, addr_t line, uint8_t *data)
{
    struct rc_l1 *c = (struct rc_l1 *)cp;
    struct coh_ctx x;
    lookup(c, &x, line);
    if (data && x.line)
        memcpy(data, x.line->data, c->line_bytes);
    return x.state;
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
    .l1 = {rc_l1_create, rc_l1_connect, rc_l1_in_port, rc_l1_destroy, NULL, rc_l1_peek,
           rc_l1_stats},
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
    .l1 = {rc_noinv_create, rc_l1_connect, rc_l1_in_port, rc_l1_destroy, NULL, rc_l1_peek,
           rc_l1_stats},
    .l2 = NC_L2_OPS,
};
