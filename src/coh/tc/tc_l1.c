/*
 * tc_l1.c - the L1 of Temporal Coherence: a write-through, write-no-allocate
 * L1 whose copies carry leases (TC-Strong `tcs`, TC-Weak `tcw`).
 *
 * Spec 002 §3.7-3.9 (paper §6, Table 2 left): states I, V, VM, IV, II. A
 * copy is valid while its local timestamp >= now (core cycles); expiry needs
 * no message: the classifier fires Expire on an expired line before any
 * other event for it (lazy, spec 002 §8 item 8). Loads fill and merge into
 * an outstanding fill; stores write through (UPGR, carrying the local
 * timestamp, on a valid copy, whose bytes the store updates at once; GETX
 * otherwise); atomics drop the copy and are performed at the L2. Evictions
 * are silent. TC-Weak: write responses may carry a GWCT; a per-SM table
 * keeps the largest per warp slot, and a .gpu/.sys fence, a release store
 * or atomic (before it is performed) and a kernel end wait until now >
 * GWCT[warp] (max over the SM for a kernel end); a VM line hits (RCpc's
 * early view of the SM's own writes). TC-Strong: no GWCT; a load to a VM
 * line is performed at the L2 without a fill (GPU-VI's Opt 2), so nobody
 * reads a write before it is globally performed (write atomicity).
 * Kernel launch flash-invalidates (host writes between kernels, spec 002 §8
 * item 11); so does a wrap of the tc.ts_bits-wide counter (§3.11).
 * INVARIANT: a load is answered only with data valid at the time it reached
 *   the L1: a load merged into a fill whose lease ended before it merged is
 *   replayed, not answered (else a reader could see data older than a flag it
 *   acquired: the fill may have been read before the flag's producer wrote).
 * DEVIATION: IV + Store/Atomic park until the fill (Table 2: GETX -> II):
 *   replaying a late merged load after a later store of its warp to the same
 *   bytes had been sent would let the load read that store. VM + Replace
 *   drops the line (-> II) rather than stalling, as in gpuvi's L1.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "coh/tc/tc.h"
#include "system/config.h"

#define TC_L1_STATES(X)                                                                            \
    X(I, "not present, or present with an expired lease")                                         \
    X(V, "valid: local timestamp >= now")                                                          \
    X(VM, "valid, with this L1's writes outstanding (already written into the line)")             \
    X(IV, "load miss outstanding; the fill will be installed if its lease is still running")     \
    X(II, "requests outstanding whose responses must not fill (write, atomic, load at the L2)")

#define TC_L1_EVENTS(X)                                                                            \
    X(Load, "load from the SM")                                                                    \
    X(MergeFull, "load to a line whose outstanding fill has merged merge_max loads")              \
    X(Store, "store from the SM (write-through)")                                                  \
    X(Atomic, "atomic from the SM (performed at the L2)")                                          \
    X(Replace, "a fill needs this line's way")                                                     \
    X(FlashInv, "kernel launch or timestamp wrap: invalidate")                                     \
    X(Expire, "the line's lease has ended (local timestamp < now), seen at access")               \
    X(Data, "the fill of the line's outstanding miss, lease still running")                       \
    X(DataExpired, "the fill, its lease ended in flight: answer the loads that came in time")    \
    X(Rsp, "a response (data, ack, atomic result) with more outstanding")                         \
    X(LastRsp, "the last outstanding response of the line")

#define X(n, d) L1_##n,
enum l1_state { TC_L1_STATES(X) L1_NSTATES };
enum l1_event { TC_L1_EVENTS(X) L1_NEVENTS };
#undef X
#define X(n, d) #n,
static const char *const state_names[] = {TC_L1_STATES(X)};
static const char *const event_names[] = {TC_L1_EVENTS(X)};
#undef X
#define X(n, d) d,
static const char *const state_descs[] = {TC_L1_STATES(X)};
static const char *const event_descs[] = {TC_L1_EVENTS(X)};
#undef X

/* The line's local timestamp lives in meta[0]. */
#define LTS(l) ((l)->meta[0])

struct l1_stats {
    uint64_t load_hits, load_misses, load_merged, loads_at_l2, loads_replayed;
    uint64_t stores, upgrades, atomics, fills, fills_expired, expirations;
    uint64_t flash_invalidations, rollovers, private_acks, refreshes;
    uint64_t gwct_waits, fence_wait_cycles;
    uint64_t resource_stalls, protocol_stalls;
};

/* One warp slot: its GWCT and the requests held behind a GWCT wait. */
struct tc_warp {
    uint64_t gwct;               /* largest GWCT received, core cycles */
    struct msg_list held;        /* head waits for its due time; the rest keep order */
};

struct tc_l1 {
    struct comp comp;
    struct ctrl_wiring w;
    struct ctrl_links links;
    const struct coh_table *table;
    enum tc_variant v;
    struct cache cache;
    struct tbe_table tbes;
    struct port from_core;       /* the SM sends here */
    struct msg_list replay;      /* parked requests whose line changed state */
    struct tc_warp *warps;       /* n_warps + 1: the last is the SM's own (kernel ops) */
    uint32_t n_warps, n_held;    /* slots; slots with held requests */
    uint32_t merge_max;
    uint32_t line_bytes;
    tick_t hit_ps;               /* hit latency */
    tick_t core_ps;              /* one core cycle: the global counter's unit */
    unsigned ts_bits;
    uint64_t epoch;              /* now >> ts_bits at the last look */
    uint32_t fixed_lease;        /* tcs fixed lease requested by GETS; 0 = none */
    bool private_safe;           /* tc.private_rule = safe */
    bool fenced;                 /* a .gpu fence or release seen this kernel */
    bool end_wait;               /* tc.end_wait: a kernel end waits for the GWCTs */
    bool sc_fence_invalidates;   /* tc.sc_fence_invalidates (TC-Weak) */
    bool fence_warp_gwct;        /* tc.fence_gwct=warp: the paper's per-warp fence wait */
    addr_t expired_addr;         /* the line whose lease just ended (GETS hint) */
    struct l1_stats st;
};

static struct tc_l1 *l1_of(void *p)
{
    return p;
}

static uint64_t now_cycles(const struct tc_l1 *c)
{
    return c->comp.eng->now / c->core_ps;
}

/* ---- actions ---- */

/* Reply to the core with the message itself, after `delay_ps`. */
static void to_core(struct tc_l1 *c, struct msg *m, tick_t delay_ps)
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
    struct tc_l1 *c = l1_of(x->ctrl);
    msg_list_splice(&c->replay, &x->tbe->parked);
    tbe_free(&c->tbes, x->tbe);
    x->tbe = NULL;
}

static void to_l2(struct tc_l1 *c, struct coh_ctx *x, uint16_t type, uint8_t cls, uint16_t bytes)
{
    struct msg *m = x->msg;
    m->type = type;
    m->cls = cls;
    m->vnet = TC_VNET_REQ;
    m->src = (uint16_t)c->w.index;
    m->dst = (uint16_t)((m->addr / c->line_bytes) % c->w.n_banks);
    m->size_bytes = bytes;
    x->tbe->pending++;
    if (!port_send(c->links.net_out[TC_VNET_REQ], m))
        panic("%s: request port full after room check", c->w.name);
    x->msg = NULL;
}

static void send_gets(struct coh_ctx *x)
{
    struct tc_l1 *c = l1_of(x->ctrl);
    struct msg *m = x->msg;
    m->flags = 0;
    if (x->state == L1_I) {
        m->flags |= TC_F_MERGED; /* this fill answers the loads merged behind it */
        c->st.load_misses++;
    } else {
        c->st.loads_at_l2++;
    }
    if (c->expired_addr == x->addr)
        m->flags |= TC_F_EXPIRED;
    if (c->fixed_lease) {
        m->flags |= TC_F_LEASE;
        m->ts = now_cycles(c) + c->fixed_lease;
    }
    to_l2(c, x, MSG_TC_GETS, TRAFFIC_REQ, 0);
}

static void write_flags(struct tc_l1 *c, struct msg *m)
{
    m->flags = (uint16_t)((m->flags & TC_F_HAS_TS) | (c->fenced ? TC_F_FENCES : 0));
}

static void send_getx(struct coh_ctx *x)
{
    struct tc_l1 *c = l1_of(x->ctrl);
    c->st.stores++;
    write_flags(c, x->msg);
    to_l2(c, x, MSG_TC_GETX, TRAFFIC_ST, (uint16_t)bytemask_count(&x->msg->mask));
}

static void send_upgr(struct coh_ctx *x)
{
    struct tc_l1 *c = l1_of(x->ctrl);
    c->st.stores++;
    c->st.upgrades++;
    write_flags(c, x->msg);
    x->msg->ts = LTS(x->line);
    to_l2(c, x, MSG_TC_UPGR, TRAFFIC_ST, (uint16_t)bytemask_count(&x->msg->mask));
}

static void send_atomic(struct coh_ctx *x)
{
    struct tc_l1 *c = l1_of(x->ctrl);
    c->st.atomics++;
    write_flags(c, x->msg);
    to_l2(c, x, MSG_TC_ATOMIC, TRAFFIC_ATO, (uint16_t)atom_operand_bytes(x->msg->req.atom));
}

/* Drop the valid copy first; the atomic tells the L2 the lease it held (a
 * private atomic needs no stall in tcs). */
static void drop_for_atomic(struct coh_ctx *x)
{
    struct tc_l1 *c = l1_of(x->ctrl);
    x->msg->ts = LTS(x->line);
    cache_remove(&c->cache, x->line);
    x->line = NULL;
    x->msg->flags |= TC_F_HAS_TS;
}

static void merge_load(struct coh_ctx *x)
{
    struct tc_l1 *c = l1_of(x->ctrl);
    c->st.load_merged++;
    x->msg->ts2 = now_cycles(c); /* when it merged: answered only if the lease reaches it */
    msg_list_push(&x->tbe->merged, x->msg);
    x->msg = NULL;
}

static void reply_hit(struct coh_ctx *x)
{
    struct tc_l1 *c = l1_of(x->ctrl);
    c->st.load_hits++;
    cache_touch(&c->cache, x->line);
    memcpy(x->msg->data, x->line->data, c->line_bytes);
    if (c->w.obs)
        tc_obs_l1(c->comp.eng, c->w.obs, c->w.name, x->state == L1_V ? c->v : TC_WEAK, x->addr,
                  LTS(x->line), now_cycles(c), c->line_bytes,
                  x->state == L1_V ? x->line->data : NULL, &x->msg->mask);
    to_core(c, x->msg, c->hit_ps);
    x->msg = NULL;
}

/* Opt 1: the store's bytes go into the line before the L2 acknowledges. */
static void write_line(struct coh_ctx *x)
{
    struct tc_l1 *c = l1_of(x->ctrl);
    cache_touch(&c->cache, x->line);
    bytes_merge(x->line->data, x->msg->data, &x->msg->mask, c->line_bytes);
}

static void drop_line(struct coh_ctx *x)
{
    struct tc_l1 *c = l1_of(x->ctrl);
    cache_remove(&c->cache, x->line);
    x->line = NULL;
}

/* The lease ended: the copy is gone; the next GETS tells the L2 (predictor). */
static void expire_line(struct coh_ctx *x)
{
    struct tc_l1 *c = l1_of(x->ctrl);
    c->st.expirations++;
    c->expired_addr = x->addr;
    cache_remove(&c->cache, x->line);
    x->line = NULL;
}

static void fill_line(struct coh_ctx *x)
{
    struct tc_l1 *c = l1_of(x->ctrl);
    struct cache_line *way = cache_victim(&c->cache, x->addr, NULL, NULL);
    panic_if(!way || way->present, "%s: fill without a free way", c->w.name);
    cache_install(&c->cache, way, x->addr);
    memcpy(way->data, x->msg->data, c->line_bytes);
    LTS(way) = x->msg->ts;
    x->line = way;
    c->st.fills++;
    if (c->w.obs)
        tc_obs_l1(c->comp.eng, c->w.obs, c->w.name, c->v, x->addr, LTS(way), now_cycles(c),
                  c->line_bytes, NULL, NULL);
}

/* A write response to a VM line that leaves it V: a DATA-G refreshes data and
 * lease (safe rule: lease = GWCT, which never equals the L2's incremented
 * timestamp; paper: the L2's timestamp); a private ACK advances the lease by
 * one, as the L2 advanced its timestamp, so the next write stays private. */
static void update_line(struct coh_ctx *x)
{
    struct tc_l1 *c = l1_of(x->ctrl);
    struct msg *m = x->msg;
    if (m->type == MSG_TC_DATAG) {
        memcpy(x->line->data, m->data, c->line_bytes);
        LTS(x->line) = c->private_safe ? m->ts2 : m->ts;
        c->st.refreshes++;
        if (c->w.obs)
            tc_obs_l1(c->comp.eng, c->w.obs, c->w.name, c->v, x->addr, LTS(x->line),
                      now_cycles(c), c->line_bytes, NULL, NULL);
    } else if (m->type == MSG_TC_ACK && (m->flags & TC_F_PRIVATE)) {
        LTS(x->line)++;
        c->st.private_acks++;
    }
}

/* A warp's slot in the GWCT table; requests of no warp slot (kernel
 * boundaries) use the extra last entry. */
static unsigned slot_index(const struct tc_l1 *c, unsigned warp)
{
    return warp < c->n_warps ? warp : c->n_warps;
}

static struct tc_warp *slot_of(struct tc_l1 *c, unsigned warp)
{
    return &c->warps[slot_index(c, warp)];
}

/* Answer the response's own request and, for a fill, every load merged behind
 * it that reached the L1 while the fill's lease still ran; later ones replay
 * (see INVARIANT). A GWCT raises the warp's entry. */
static void reply_rsp(struct coh_ctx *x)
{
    struct tc_l1 *c = l1_of(x->ctrl);
    struct msg *m = x->msg;
    x->tbe->pending--;
    if (m->flags & TC_F_GWCT) {
        struct tc_warp *w = slot_of(c, m->req.warp);
        w->gwct = MAX(w->gwct, m->ts2);
    }
    if (m->flags & TC_F_MERGED) {
        struct msg *w;
        struct msg_list late = {0};
        while ((w = msg_list_pop(&x->tbe->merged))) {
            if (w->ts2 > m->ts) {
                c->st.loads_replayed++;
                msg_list_push(&late, w);
                continue;
            }
            memcpy(w->data, m->data, c->line_bytes);
            to_core(c, w, 0);
        }
        msg_list_splice(&c->replay, &late);
    }
    to_core(c, m, 0);
    x->msg = NULL;
}

static void count_expired_fill(struct coh_ctx *x)
{
    l1_of(x->ctrl)->st.fills_expired++;
}

static void nothing(struct coh_ctx *x)
{
    (void)x;
}

static const struct coh_action_name actions[] = {
    {alloc_tbe, "alloc_tbe", "allocate a TBE for the line"},
    {free_tbe, "free_tbe", "free the TBE and replay requests parked on it"},
    {send_gets, "send_gets",
     "send a read to the home L2 bank (tcs fixed lease: with the requested lease end)"},
    {send_getx, "send_getx", "write the masked bytes through to the L2 (no valid copy)"},
    {send_upgr, "send_upgr", "write the masked bytes through, with the copy's local timestamp"},
    {send_atomic, "send_atomic", "send the atomic to the L2"},
    {drop_for_atomic, "drop_for_atomic", "drop the copy, the atomic carries its lease"},
    {merge_load, "merge_load", "answer this load with the outstanding fill (if in time)"},
    {reply_hit, "reply_hit", "answer the load from the line after the hit latency"},
    {write_line, "write_line", "write the store's bytes into the line at once (Opt 1)"},
    {drop_line, "drop_line", "invalidate the line (silently: write-through keeps the L2 current)"},
    {expire_line, "expire_line", "drop the expired copy (self-invalidation), note it for the hint"},
    {fill_line, "fill_line", "install the fill and its lease in a free way"},
    {update_line, "update_line",
     "DATA-G: refresh data and lease; private ACK: lease + 1 (as the L2's TS++)"},
    {reply_rsp, "reply_rsp",
     "answer the request and the loads merged in time (later ones replay); GWCT into the table"},
    {count_expired_fill, "count_expired_fill", "count a fill whose lease ended in flight"},
    {nothing, "nothing", "no action: the outstanding fill will not be installed"},
    {0},
};

/* ---- the tables ---- */

/* The cells TC-Strong and TC-Weak share; they differ in VM + Load only. */
/*  state    event             next   uses               actions                                 */
#define TC_L1_COMMON_CELLS                                                                         \
    [L1_I ][L1_Load       ] = DO(L1_IV, TAG_RD,           alloc_tbe, send_gets),                   \
    [L1_I ][L1_Store      ] = DO(L1_II, TAG_RD,           alloc_tbe, send_getx),                   \
    [L1_I ][L1_Atomic     ] = DO(L1_II, TAG_RD,           alloc_tbe, send_atomic),                 \
    [L1_V ][L1_Load       ] = DO(L1_V,  TAG_RD | DATA_RD, reply_hit),                              \
    [L1_V ][L1_Store      ] = DO(L1_VM, TAG_RD | DATA_WR, write_line, alloc_tbe, send_upgr),       \
    [L1_V ][L1_Atomic     ] = DO(L1_II, TAG_RD | TAG_WR,  drop_for_atomic, alloc_tbe, send_atomic),\
    [L1_V ][L1_Replace    ] = DO(L1_I,  TAG_WR,           drop_line),                              \
    [L1_V ][L1_FlashInv   ] = DO(L1_I,  TAG_WR,           drop_line),                              \
    [L1_V ][L1_Expire     ] = DO(L1_I,  TAG_WR,           expire_line),                            \
    [L1_VM][L1_Store      ] = DO(L1_VM, TAG_RD | DATA_WR, write_line, send_upgr),                  \
    [L1_VM][L1_Atomic     ] = DO(L1_II, TAG_RD | TAG_WR,  drop_for_atomic, send_atomic),           \
    [L1_VM][L1_Replace    ] = DO(L1_II, TAG_WR,           drop_line),                              \
    [L1_VM][L1_FlashInv   ] = DO(L1_II, TAG_WR,           drop_line),                              \
    [L1_VM][L1_Expire     ] = DO(L1_II, TAG_WR,           expire_line),                            \
    [L1_VM][L1_Rsp        ] = DO(L1_VM, 0,                reply_rsp),                              \
    [L1_VM][L1_LastRsp    ] = DO(L1_V,  TAG_WR | DATA_WR, update_line, reply_rsp, free_tbe),       \
    [L1_IV][L1_Load       ] = DO(L1_IV, TAG_RD,           merge_load),                             \
    [L1_IV][L1_MergeFull  ] = STALL,                                                               \
    [L1_IV][L1_Store      ] = STALL,                                                               \
    [L1_IV][L1_Atomic     ] = STALL,                                                               \
    [L1_IV][L1_FlashInv   ] = DO(L1_II, 0,                nothing),                                \
    [L1_IV][L1_Data       ] = DO(L1_V,  TAG_WR | DATA_WR, fill_line, reply_rsp, free_tbe),         \
    [L1_IV][L1_DataExpired] = DO(L1_I,  0,                count_expired_fill, reply_rsp, free_tbe),\
    [L1_II][L1_Load       ] = DO(L1_II, TAG_RD,           send_gets),                              \
    [L1_II][L1_Store      ] = DO(L1_II, TAG_RD,           send_getx),                              \
    [L1_II][L1_Atomic     ] = DO(L1_II, TAG_RD,           send_atomic),                            \
    [L1_II][L1_Rsp        ] = DO(L1_II, 0,                reply_rsp),                              \
    [L1_II][L1_LastRsp    ] = DO(L1_I,  0,                reply_rsp, free_tbe)

static const struct coh_trans tcs_l1_cells[L1_NSTATES][L1_NEVENTS] = {
    TC_L1_COMMON_CELLS,
    [L1_VM][L1_Load       ] = DO(L1_VM, TAG_RD,           send_gets), /* Opt 2: write atomicity */
};

static const struct coh_trans tcw_l1_cells[L1_NSTATES][L1_NEVENTS] = {
    TC_L1_COMMON_CELLS,
    [L1_VM][L1_Load       ] = DO(L1_VM, TAG_RD | DATA_RD, reply_hit), /* RCpc: own writes early */
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
        fprintf(out, "  line %#llx: %s lease %llu\n", (unsigned long long)x->line->addr,
                state_names[x->line->state], (unsigned long long)LTS(x->line));
    if (x->tbe)
        fprintf(out, "  tbe %#llx: %s pending %d merged %u parked %u\n",
                (unsigned long long)x->tbe->addr, state_names[x->tbe->state], x->tbe->pending,
                x->tbe->merged.n, x->tbe->parked.n);
}

#define TC_L1_TABLE(proto_, cells_)                                                                \
    {                                                                                              \
        .proto = proto_, .ctrl = "L1", .n_states = L1_NSTATES, .n_events = L1_NEVENTS,             \
        .state_names = state_names, .state_descs = state_descs, .event_names = event_names,       \
        .event_descs = event_descs, .cells = &cells_[0][0], .actions = actions,                   \
        .set_state = set_state, .dump = dump_ctx,                                                  \
    }

const struct coh_table tcs_l1_table = TC_L1_TABLE("tcs", tcs_l1_cells);
const struct coh_table tcw_l1_table = TC_L1_TABLE("tcw", tcw_l1_cells);

/* ---- the classifier ---- */

static void run_event(struct tc_l1 *c, struct coh_ctx *x)
{
    coh_step(c->table, &c->w.cov[0], x);
}

static void lookup(struct tc_l1 *c, struct coh_ctx *x, addr_t line)
{
    x->ctrl = c;
    x->ctrl_name = c->w.name;
    x->eng = c->comp.eng;
    x->addr = line;
    x->msg = NULL;
    x->line = cache_find(&c->cache, line);
    x->tbe = tbe_find(&c->tbes, line);
    x->state = x->tbe ? x->tbe->state : x->line ? x->line->state : L1_I;
}

/* Look the line up; a present line whose lease has ended expires first. */
static void lookup_live(struct tc_l1 *c, struct coh_ctx *x, addr_t line)
{
    lookup(c, x, line);
    if (x->line && LTS(x->line) < now_cycles(c)) {
        x->event = L1_Expire;
        run_event(c, x);
        lookup(c, x, line);
    }
}

static unsigned classify_core(const struct tc_l1 *c, const struct coh_ctx *x)
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

static void flash_line(struct cache_line *l, void *arg)
{
    struct tc_l1 *c = arg;
    struct coh_ctx x;
    lookup(c, &x, l->addr);
    x.event = L1_FlashInv;
    run_event(c, &x);
}

/* Every present line (V, VM) and, at a launch, every outstanding fill (IV):
 * the host may have written its line. A timestamp wrap leaves fills alone:
 * their leases are compared in full width. */
static void flash_invalidate(struct tc_l1 *c, bool fills)
{
    cache_for_each(&c->cache, flash_line, c);
    for (uint32_t i = 0; fills && i < c->tbes.cap; i++) {
        struct tbe *t = &c->tbes.e[i];
        if (t->used && t->state == L1_IV) {
            struct coh_ctx x;
            lookup(c, &x, t->addr);
            x.event = L1_FlashInv;
            run_event(c, &x);
        }
    }
}

/* The counter wrapped since the last look: stored timestamps would read as
 * unexpired, so every copy goes (spec 002 §3.11). */
static void check_wrap(struct tc_l1 *c)
{
    if (c->ts_bits >= 64)
        return;
    uint64_t e = now_cycles(c) >> c->ts_bits;
    if (e != c->epoch) {
        c->epoch = e;
        c->st.rollovers++;
        flash_invalidate(c, false);
    }
}

static bool is_release(const struct mem_req *r)
{
    return (r->op == MEM_STORE || r->op == MEM_ATOMIC) && r->scope >= SCOPE_GPU &&
           (r->sem == SEM_RELEASE || r->sem == SEM_ACQ_REL || r->sem == SEM_SC);
}

/* The core cycle after which the request may proceed (0: at once). TC-Weak
 * only: a .gpu/.sys fence, a release and a kernel end wait for the SM's
 * largest GWCT (DEVIATION from the paper's per-warp wait, for cumulativity;
 * tc.fence_gwct=warp restores the paper's wait for fences and releases). */
static uint64_t gwct_due(const struct tc_l1 *c, const struct mem_req *r)
{
    if (c->v != TC_WEAK)
        return 0;
    if (r->op == MEM_KERNEL_END) {
        if (!c->end_wait)
            return 0;
        uint64_t g = 0;
        for (uint32_t i = 0; i <= c->n_warps; i++)
            g = MAX(g, c->warps[i].gwct);
        return g;
    }
    if ((r->op == MEM_FENCE && r->scope >= SCOPE_GPU) || is_release(r)) {
        /* Cumulativity: a warp may have observed, through .cta-scope
         * synchronisation, writes another warp of this SM made; a .gpu
         * release must make those visible too (MP-3-transitive). So it waits
         * for the SM's largest GWCT, not only its own warp's. */
        if (c->fence_warp_gwct)
            return c->warps[slot_index(c, r->warp)].gwct;
        uint64_t g = 0;
        for (uint32_t i = 0; i <= c->n_warps; i++)
            g = MAX(g, c->warps[i].gwct);
        return g;
    }
    return 0;
}

/* Fences and kernel boundaries (the SM has already waited for the warp's
 * earlier accesses): a launch invalidates; answered at once. */
static void order_op(struct tc_l1 *c, struct msg *m)
{
    if (m->req.op == MEM_KERNEL_BEGIN) {
        c->st.flash_invalidations++;
        c->fenced = false;
        flash_invalidate(c, true);
    } else if (c->v == TC_WEAK && c->sc_fence_invalidates && m->req.op == MEM_FENCE &&
               m->req.sem == SEM_SC && m->req.scope >= SCOPE_GPU) {
        /* DEVIATION (safe fix): TC-Weak is not multi-copy atomic (spec 002
         * §7: IRIW allowed even with reader fences), but PTX's fence.sc
         * forbids IRIW. A reader's fence.sc drops its L1 copies, so the loads
         * after it read lines written before it from the L2. */
        c->st.flash_invalidations++;
        flash_invalidate(c, true);
    }
    to_core(c, m, 0);
}

/* Room for the worst case of one core step: one network request, one TBE. */
static bool have_room(struct tc_l1 *c)
{
    return port_has_room(c->links.net_out[TC_VNET_REQ], 1) && !tbe_full(&c->tbes);
}

/* Perform one core request whose GWCT wait (if any) is over. Returns false on
 * a resource stall (the request stays where it was). */
static bool perform_core(struct tc_l1 *c, struct msg *m)
{
    if ((m->req.op == MEM_FENCE && m->req.scope >= SCOPE_GPU) || is_release(&m->req))
        c->fenced = true;
    if (m->req.op >= MEM_FENCE) {
        order_op(c, m);
        return true;
    }
    if (!have_room(c)) {
        c->st.resource_stalls++;
        return false;
    }
    struct coh_ctx x;
    lookup_live(c, &x, m->addr);
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

/* Hold a request in its warp's queue until `due` (a GWCT wait), or behind
 * the warp's held requests (program order). */
static void hold(struct tc_l1 *c, struct tc_warp *w, struct msg *m, uint64_t due)
{
    if (!w->held.n)
        c->n_held++;
    m->ts = due;
    m->ts2 = now_cycles(c);
    msg_list_push(&w->held, m);
    if (due)
        comp_wake_at(&c->comp, (due + 1) * c->core_ps);
}

/* One request from the core. Returns false on a resource stall. */
static bool take_core(struct tc_l1 *c, struct msg *m)
{
    struct tc_warp *w = slot_of(c, m->req.warp);
    uint64_t due = gwct_due(c, &m->req);
    if (w->held.n || (due && due >= now_cycles(c))) {
        hold(c, w, m, due);
        return true;
    }
    return perform_core(c, m);
}

/* Release held requests whose wait is over, in each warp's order. */
static bool take_held(struct tc_l1 *c)
{
    bool moved = false;
    uint64_t now = now_cycles(c);
    for (uint32_t i = 0; c->n_held && i <= c->n_warps; i++) {
        struct tc_warp *w = &c->warps[i];
        struct msg *m;
        while ((m = w->held.head) && (!m->ts || m->ts < now)) {
            if (m->ts) {
                c->st.gwct_waits++;
                c->st.fence_wait_cycles += now - m->ts2;
                m->ts = 0;
            }
            msg_list_pop(&w->held); /* before: perform_core may queue it elsewhere */
            if (!perform_core(c, m)) {
                msg_list_push_front(&w->held, m);
                return moved;
            }
            moved = true;
            if (!w->held.n)
                c->n_held--;
        }
    }
    return moved;
}

static void take_response(struct tc_l1 *c, struct msg *m)
{
    struct coh_ctx x;
    lookup_live(c, &x, m->addr);
    x.msg = m;
    panic_if(!x.tbe, "%s: response for %#llx with no TBE", c->w.name,
             (unsigned long long)m->addr);
    if (x.state == L1_IV && m->ts < now_cycles(c)) {
        x.event = L1_DataExpired;
    } else if (x.state == L1_IV) {
        x.event = L1_Data;
        /* make room first: the victim is replaced through the table */
        struct cache_line *way = cache_victim(&c->cache, m->addr, NULL, NULL);
        if (way && way->present) {
            struct coh_ctx v;
            lookup(c, &v, way->addr);
            v.event = L1_Replace;
            run_event(c, &v);
        }
    } else {
        x.event = x.tbe->pending == 1 ? L1_LastRsp : L1_Rsp;
    }
    run_event(c, &x);
}

/* ---- tick ---- */

/* One L1 cycle: the wrap check, one response, the held requests whose GWCT
 * wait is over, then one core request (parked ones replay before new ones). */
static bool tc_l1_tick(struct comp *cp)
{
    struct tc_l1 *c = (struct tc_l1 *)cp;
    bool moved = false;
    struct msg *m;

    check_wrap(c);
    if ((m = port_peek(c->links.net_in[TC_VNET_RSP]))) {
        take_response(c, port_pop(c->links.net_in[TC_VNET_RSP]));
        moved = true;
    }
    if (c->n_held)
        moved |= take_held(c);
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
    /* stay awake while a resource stall may clear by itself; GWCT waits set
     * their own wake-up */
    return moved || c->replay.n || port_peek(&c->from_core);
}

static void tc_l1_dump(struct comp *cp, FILE *out)
{
    struct tc_l1 *c = (struct tc_l1 *)cp;
    if (!c->tbes.n_used && !c->from_core.n && !c->replay.n && !c->n_held)
        return;
    fprintf(out, "%s (%s L1) at core cycle %llu: %u TBEs, %u core requests queued, %u replaying, "
                 "%u warps held\n",
            c->w.name, c->table->proto, (unsigned long long)now_cycles(c), c->tbes.n_used,
            c->from_core.n, c->replay.n, c->n_held);
    for (uint32_t i = 0; i < c->tbes.cap; i++) {
        struct tbe *t = &c->tbes.e[i];
        if (t->used)
            fprintf(out, "  tbe %#llx %s pending %d merged %u parked %u\n",
                    (unsigned long long)t->addr, state_names[t->state], t->pending, t->merged.n,
                    t->parked.n);
    }
    for (uint32_t i = 0; i <= c->n_warps; i++)
        if (c->warps[i].held.n)
            fprintf(out, "  warp slot %u: gwct %llu, %u held (head %s until %llu)\n", i,
                    (unsigned long long)c->warps[i].gwct, c->warps[i].held.n,
                    mem_op_names[c->warps[i].held.head->req.op],
                    (unsigned long long)c->warps[i].held.head->ts);
}

/* ---- construction ---- */

static struct tc_l1 *create(const struct ctrl_wiring *w, const struct coh_table *t,
                            enum tc_variant v)
{
    struct tc_l1 *c = calloc(1, sizeof *c);
    char err[256];
    if (!c)
        panic("out of memory");
    c->w = *w;
    c->table = t;
    c->v = v;
    if (cache_init(&c->cache, &w->cfg->l1.cache, err, sizeof err))
        fatal("l1: %s", err);
    tbe_table_init(&c->tbes, w->cfg->l1.mshrs, w->cfg->l1.cache.line_bytes);
    c->merge_max = w->cfg->l1.merge_max;
    c->line_bytes = w->cfg->l1.cache.line_bytes;
    c->hit_ps = (tick_t)w->cfg->l1.cache.hit_cycles * w->clk->period_ps;
    c->core_ps = clock_period_ps(w->cfg->gpu.core_mhz);
    c->ts_bits = w->cfg->tc.ts_bits;
    c->private_safe = w->cfg->tc.private_rule == 0;
    c->end_wait = w->cfg->tc.end_wait;
    c->sc_fence_invalidates = w->cfg->tc.sc_fence_invalidates;
    c->fence_warp_gwct = w->cfg->tc.fence_gwct == 1;
    c->expired_addr = ~(addr_t)0;
    uint32_t fixed;
    if (tc_lease_fixed(w->cfg, v, &fixed) && v == TC_STRONG)
        c->fixed_lease = fixed ? fixed : 1; /* 0 would read as "no request" */
    c->n_warps = w->cfg->sm.warps;
    c->warps = calloc(c->n_warps + 1, sizeof *c->warps);
    if (!c->warps)
        panic("out of memory");
    comp_init(&c->comp, w->eng, w->name, w->clk, tc_l1_tick, tc_l1_dump);
    port_init(&c->from_core, "from_core", 64, w->clk->period_ps, NULL, &c->comp);
    return c;
}

struct comp *tcs_l1_create(const struct ctrl_wiring *w)
{
    return &create(w, &tcs_l1_table, TC_STRONG)->comp;
}

struct comp *tcw_l1_create(const struct ctrl_wiring *w)
{
    return &create(w, &tcw_l1_table, TC_WEAK)->comp;
}

void tc_l1_connect(struct comp *cp, const struct ctrl_links *l)
{
    ((struct tc_l1 *)cp)->links = *l;
}

struct port *tc_l1_in_port(struct comp *cp)
{
    return &((struct tc_l1 *)cp)->from_core;
}

void tc_l1_destroy(struct comp *cp)
{
    struct tc_l1 *c = (struct tc_l1 *)cp;
    cache_destroy(&c->cache);
    tbe_table_destroy(&c->tbes);
    port_destroy(&c->from_core);
    free(c->warps);
    free(c);
}

void tc_l1_stats(struct comp *cp, void (*emit)(void *, const char *, uint64_t), void *arg)
{
    struct tc_l1 *c = (struct tc_l1 *)cp;
    const struct l1_stats *s = &c->st;
    emit(arg, "load_hits", s->load_hits);
    emit(arg, "load_misses", s->load_misses);
    emit(arg, "load_merged", s->load_merged);
    emit(arg, "loads_at_l2", s->loads_at_l2);
    emit(arg, "loads_replayed", s->loads_replayed);
    emit(arg, "stores", s->stores);
    emit(arg, "upgrades", s->upgrades);
    emit(arg, "atomics", s->atomics);
    emit(arg, "fills", s->fills);
    emit(arg, "fills_expired", s->fills_expired);
    emit(arg, "expirations", s->expirations);
    emit(arg, "flash_invalidations", s->flash_invalidations);
    emit(arg, "rollovers", s->rollovers);
    emit(arg, "private_acks", s->private_acks);
    emit(arg, "refreshes", s->refreshes);
    emit(arg, "gwct_waits", s->gwct_waits);
    emit(arg, "fence_wait_cycles", s->fence_wait_cycles);
    emit(arg, "resource_stalls", s->resource_stalls);
    emit(arg, "protocol_stalls", s->protocol_stalls);
}

/* The line's state as the protocol sees it now: an expired copy is gone. */
unsigned tc_l1_peek(struct comp *cp, addr_t line, uint8_t *data)
{
    struct tc_l1 *c = (struct tc_l1 *)cp;
    struct coh_ctx x;
    lookup(c, &x, line);
    if (data && x.line)
        memcpy(data, x.line->data, c->line_bytes);
    if (x.line && LTS(x.line) < now_cycles(c))
        return x.state == L1_VM ? L1_II : L1_I;
    return x.state;
}
