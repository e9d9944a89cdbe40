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
 * are silent. TC-Weak: write responses may carry a GWCT, and so may a DATA
 * (tc.load_gwct: the GWCT of the write whose data it returns, while stale
 * copies of older data may live elsewhere); a per-SM table keeps the
 * largest per warp slot, and a .gpu/.sys fence, a release store or atomic
 * (before it is performed) and a kernel end wait until now > the SM's
 * largest GWCT (tc.fence_gwct=warp: the warp's own); a VM line hits (RCpc's
 * early view of the SM's own writes), with tc.load_gwct only for the warp
 * that wrote it: another warp reads the L2, whose DATA brings the GWCT.
 * TC-Strong: no GWCT; a load to a VM line is performed at the L2 without a
 * fill (GPU-VI's Opt 2), so nobody reads a write before it is globally
 * performed (write atomicity).
 * Strong loads (tc.strong_loads): a load of gpu scope or wider that is not
 * weak (ld.relaxed/acquire.gpu, ld.volatile) hits a leased copy like any
 * load by default (l1: the paper's L1 has one Load column, Table 2, and a
 * copy is coherent until its lease ends, docs/protocols/tcw.md); with l2 it
 * is performed at the L2 (LoadL2: a GETS marked no-copy, which gets no
 * lease and feeds no predictor event), and a copy the SM held is dropped.
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
#include "coh/machine_view.h"
#include "coh/tc/tc_options.h"

_Static_assert((int)TC_VNET_REQ == CTRL_VNET_REQ && (int)TC_VNET_RSP == CTRL_VNET_RSP,
               "the TC L1 sends on the write-through vnets");

#define TC_L1_STATES(X)                                                                            \
    X(I, "not present, or present with an expired lease")                                          \
    X(V, "valid: local timestamp >= now")                                                          \
    X(VM, "valid, with this L1's writes outstanding (already written into the line)")              \
    X(IV, "load miss outstanding; the fill will be installed if its lease is still running")       \
    X(II, "requests outstanding whose responses must not fill (write, atomic, load at the L2)")

#define TC_L1_EVENTS(X)                                                                            \
    X(Load, "load from the SM")                                                                    \
    X(LoadOther, "tcw, tc.load_gwct: load to a VM line from a warp other than its one writer")     \
    X(LoadL2, "strong load (gpu scope or wider, not weak), tc.strong_loads = l2: at the L2")       \
    X(MergeFull, "load to a line whose outstanding fill has merged merge_max loads")               \
    X(Store, "store from the SM (write-through)")                                                  \
    X(Atomic, "atomic from the SM (performed at the L2)")                                          \
    X(Replace, "a fill needs this line's way")                                                     \
    X(FlashInv, "kernel launch or timestamp wrap: invalidate")                                     \
    X(Expire, "the line's lease has ended (local timestamp < now), seen at access")                \
    X(Data, "the fill of the line's outstanding miss, lease still running")                        \
    X(DataExpired, "the fill, its lease ended in flight: answer the loads that came in time")      \
    X(Rsp, "a response (data, ack, atomic result) with more outstanding")                          \
    X(LastRsp, "the last outstanding response of the line")

#define X(n, d) L1_##n,
enum l1_state { TC_L1_STATES(X) L1_NSTATES };
enum l1_event { TC_L1_EVENTS(X) L1_NEVENTS };
#undef X
COH_NAMES(TC_L1_STATES, TC_L1_EVENTS);

/* The line's local timestamp lives in meta[0]; in VM, meta[1] names the warp
 * whose writes are outstanding (1 + its slot, MANY_WRITERS for several). */
#define LTS(l)       ((l)->meta[0])
#define WRITER(l)    ((l)->meta[1])
#define MANY_WRITERS UINT64_MAX

struct l1_stats {
    uint64_t loads_replayed, upgrades, fills_expired, expirations;
    uint64_t flash_invalidations, rollovers, private_acks, refreshes;
    uint64_t gwct_waits, fence_wait_cycles;
};

/* One warp slot: its GWCT and the requests held behind a GWCT wait. */
struct tc_warp {
    uint64_t gwct;        /* largest GWCT received, core cycles */
    struct msg_list held; /* head waits for its due time; the rest keep order */
};

struct tc_l1 {
    struct ctrl base;
    enum tc_variant v;
    struct tc_warp *warps;    /* n_warps + 1: the last is the SM's own (kernel ops) */
    uint32_t n_warps, n_held; /* slots; slots with held requests */
    tick_t core_ps;           /* one core cycle: the global counter's unit */
    unsigned ts_bits;
    uint64_t epoch;              /* now >> ts_bits at the last look */
    uint32_t fixed_lease;        /* tcs fixed lease requested by GETS; 0 = none */
    bool private_safe;           /* tc.private_rule = safe */
    bool fenced;                 /* a .gpu fence or release seen this kernel */
    bool end_wait;               /* tc.end_wait: a kernel end waits for the GWCTs */
    bool sc_fence_invalidates;   /* tc.sc_fence_invalidates (TC-Weak) */
    bool fence_warp_gwct;        /* tc.fence_gwct=warp: the paper's per-warp fence wait */
    bool load_gwct;              /* tc.load_gwct: loads learn their data's GWCT (causality) */
    bool strong_at_l2;           /* tc.strong_loads = l2 */
    bool bug_fence_ignores_gwct; /* tcw-nogwct (test only): fences and releases never wait */
    addr_t expired_addr;         /* the line whose lease just ended (GETS hint) */
    struct l1_stats st;
};

static struct tc_l1 *l1_of(void *p)
{
    return p;
}

static uint64_t now_cycles(const struct tc_l1 *c)
{
    return c->base.comp.eng->now / c->core_ps;
}

/* ---- actions ---- */

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

static void send_gets(struct coh_ctx *x)
{
    struct tc_l1 *c = l1_of(x->ctrl);
    struct msg *m = x->msg;
    m->flags = 0;
    if (c->expired_addr == x->addr)
        m->flags |= TC_F_EXPIRED;
    if (c->fixed_lease) {
        m->flags |= TC_F_LEASE;
        m->ts = now_cycles(c) + c->fixed_lease;
    }
    ctrl_l1_send_gets(x, MSG_TC_GETS, x->state == L1_I, TC_F_MERGED);
}

/* A strong load performed at the L2: no fill, so no lease is asked for and
 * no predictor hint is given (the copy's expiry is for the next fill). */
static void send_gets_at_l2(struct coh_ctx *x)
{
    x->msg->flags = TC_F_NOCOPY;
    ctrl_l1_send_gets(x, MSG_TC_GETS, false, 0);
}

static void write_flags(struct tc_l1 *c, struct msg *m)
{
    m->flags = (uint16_t)((m->flags & TC_F_HAS_TS) | (c->fenced ? TC_F_FENCES : 0));
}

static void send_getx(struct coh_ctx *x)
{
    write_flags(l1_of(x->ctrl), x->msg);
    ctrl_l1_send_write(x, MSG_TC_GETX);
}

static void send_upgr(struct coh_ctx *x)
{
    struct tc_l1 *c = l1_of(x->ctrl);
    c->st.upgrades++;
    write_flags(c, x->msg);
    x->msg->ts = LTS(x->line);
    ctrl_l1_send_write(x, MSG_TC_UPGR);
}

static void send_atomic(struct coh_ctx *x)
{
    write_flags(l1_of(x->ctrl), x->msg);
    ctrl_l1_send_atomic(x, MSG_TC_ATOMIC);
}

/* Drop the valid copy first; the atomic tells the L2 the lease it held (a
 * private atomic needs no stall in tcs). */
static void drop_for_atomic(struct coh_ctx *x)
{
    x->msg->ts = LTS(x->line);
    ctrl_drop_line(x);
    x->msg->flags |= TC_F_HAS_TS;
}

static void merge_load(struct coh_ctx *x)
{
    x->msg->ts2 = now_cycles(l1_of(x->ctrl)); /* answered only if the lease reaches it */
    ctrl_l1_merge_load(x);
}

/* An observer --check: a hit on V hands out the serialised value (VM: the
 * SM's own early view, TC-Weak only). */
static void reply_hit(struct coh_ctx *x)
{
    struct tc_l1 *c = l1_of(x->ctrl);
    struct ctrl *b = &c->base;
    if (b->w.obs)
        tc_obs_l1(b->w.proto_ctx, b->w.obs, b->w.name, x->state == L1_V ? c->v : TC_WEAK, x->addr,
                  LTS(x->line), now_cycles(c), b->line_bytes,
                  x->state == L1_V ? x->line->data : NULL, &x->msg->mask);
    ctrl_l1_reply_hit(x);
}

/* Opt 1: the store's bytes go into the copy at once, where the SM's loads
 * see them before the L2 has performed them; the line remembers whose. */
static void write_line(struct coh_ctx *x)
{
    uint64_t me = 1 + (uint64_t)slot_index(l1_of(x->ctrl), x->msg->req.warp);
    ctrl_l1_write_line(x);
    WRITER(x->line) = !WRITER(x->line) || WRITER(x->line) == me ? me : MANY_WRITERS;
}

/* The lease ended: the copy is gone; the next GETS tells the L2 (predictor). */
static void expire_line(struct coh_ctx *x)
{
    struct tc_l1 *c = l1_of(x->ctrl);
    c->st.expirations++;
    c->expired_addr = x->addr;
    ctrl_drop_line(x);
}

/* Tell the observer (--check) that this L1 now holds a copy until its lease. */
static void observe_copy(struct tc_l1 *c, struct coh_ctx *x)
{
    struct ctrl *b = &c->base;
    if (b->w.obs)
        tc_obs_l1(b->w.proto_ctx, b->w.obs, b->w.name, c->v, x->addr, LTS(x->line), now_cycles(c),
                  b->line_bytes, NULL, NULL);
}

static void fill_line(struct coh_ctx *x)
{
    ctrl_l1_fill_line(x);
    LTS(x->line) = x->msg->ts;
    observe_copy(l1_of(x->ctrl), x);
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
        memcpy(x->line->data, m->data, c->base.line_bytes);
        LTS(x->line) = c->private_safe ? m->ts2 : m->ts;
        c->st.refreshes++;
        observe_copy(c, x);
    } else if (m->type == MSG_TC_ACK && (m->flags & TC_F_PRIVATE)) {
        LTS(x->line)++;
        c->st.private_acks++;
    }
    WRITER(x->line) = 0; /* every write of the line is performed */
}

/* Answer the response's own request and, for a fill, every load merged behind
 * it that reached the L1 while the fill's lease still ran; later ones replay
 * (see INVARIANT). A GWCT (a write's, or a DATA's: its data's write) raises
 * the requesting warp's entry; merged loads of other warps are covered by the
 * SM-wide wait of tc.fence_gwct=sm. */
static void reply_rsp(struct coh_ctx *x)
{
    struct tc_l1 *c = l1_of(x->ctrl);
    struct msg *m = x->msg;
    x->tbe->pending--;
    if (m->flags & TC_F_GWCT) {
        struct tc_warp *w = slot_of(c, m->req.warp);
        w->gwct = MAX(w->gwct, m->ts2);
    }
    if (m->flags & TC_F_MERGED)
        c->st.loads_replayed += ctrl_l1_answer_in_time(&c->base, x->tbe, m->data, m->ts);
    ctrl_to_core(&c->base, m, 0);
    x->msg = NULL;
}

static void count_expired_fill(struct coh_ctx *x)
{
    l1_of(x->ctrl)->st.fills_expired++;
}

static const struct coh_action_name actions[] = {
    {ctrl_alloc_tbe, "alloc_tbe", "allocate a TBE for the line"},
    {ctrl_free_tbe, "free_tbe", "free the TBE and replay requests parked on it"},
    {send_gets, "send_gets",
     "send a read to the home L2 bank (tcs fixed lease: with the requested lease end)"},
    {send_gets_at_l2, "send_gets_at_l2",
     "send a read marked no-copy to the home L2 bank: answered there, no lease, no fill"},
    {send_getx, "send_getx", "write the masked bytes through to the L2 (no valid copy)"},
    {send_upgr, "send_upgr", "write the masked bytes through, with the copy's local timestamp"},
    {send_atomic, "send_atomic", "send the atomic to the L2"},
    {drop_for_atomic, "drop_for_atomic", "drop the copy, the atomic carries its lease"},
    {merge_load, "merge_load", "answer this load with the outstanding fill (if in time)"},
    {reply_hit, "reply_hit", "answer the load from the line after the hit latency"},
    {write_line, "write_line",
     "write the store's bytes into the line at once (Opt 1), note the writing warp"},
    {ctrl_drop_line, "drop_line",
     "invalidate the line (silently: write-through keeps the L2 current)"},
    {expire_line, "expire_line", "drop the expired copy (self-invalidation), note it for the hint"},
    {fill_line, "fill_line", "install the fill and its lease in a free way"},
    {update_line, "update_line",
     "DATA-G: refresh data and lease; private ACK: lease + 1 (as the L2's TS++)"},
    {reply_rsp, "reply_rsp",
     "answer the request and the loads merged in time (later ones replay); GWCT into the table"},
    {count_expired_fill, "count_expired_fill", "count a fill whose lease ended in flight"},
    {ctrl_nothing, "nothing", "no action: the outstanding fill will not be installed"},
    {0},
};

/* ---- the tables ---- */

/* The cells TC-Strong and TC-Weak share; they differ in VM + Load only.
 * LoadL2 arises only under tc.strong_loads = l2. */
// clang-format off
/*  state    event             next   uses               actions                                 */
#define TC_L1_COMMON_CELLS                                                                        \
    [L1_I][L1_Load] = DO(L1_IV, TAG_RD, ctrl_alloc_tbe, send_gets),                               \
    [L1_I][L1_Store] = DO(L1_II, TAG_RD, ctrl_alloc_tbe, send_getx),                              \
    [L1_I][L1_Atomic] = DO(L1_II, TAG_RD, ctrl_alloc_tbe, send_atomic),                           \
    [L1_I][L1_LoadL2] = DO(L1_II, TAG_RD, ctrl_alloc_tbe, send_gets_at_l2),                       \
    [L1_V][L1_Load] = DO(L1_V, TAG_RD | DATA_RD, reply_hit),                                      \
    [L1_V][L1_Store] = DO(L1_VM, TAG_RD | DATA_WR, write_line, ctrl_alloc_tbe, send_upgr),        \
    [L1_V][L1_Atomic] = DO(L1_II, TAG_RD | TAG_WR, drop_for_atomic, ctrl_alloc_tbe, send_atomic), \
    [L1_V][L1_LoadL2] = DO(L1_II, TAG_RD | TAG_WR, ctrl_drop_line, ctrl_alloc_tbe,                \
        send_gets_at_l2),                                                                         \
    [L1_V][L1_Replace] = DO(L1_I, TAG_WR, ctrl_drop_line),                                        \
    [L1_V][L1_FlashInv] = DO(L1_I, TAG_WR, ctrl_drop_line),                                       \
    [L1_V][L1_Expire] = DO(L1_I, TAG_WR, expire_line),                                            \
    [L1_VM][L1_LoadL2] = DO(L1_VM, TAG_RD, send_gets_at_l2), /* after its writes */               \
    [L1_VM][L1_Store] = DO(L1_VM, TAG_RD | DATA_WR, write_line, send_upgr),                       \
    [L1_VM][L1_Atomic] = DO(L1_II, TAG_RD | TAG_WR, drop_for_atomic, send_atomic),                \
    [L1_VM][L1_Replace] = DO(L1_II, TAG_WR, ctrl_drop_line),                                      \
    [L1_VM][L1_FlashInv] = DO(L1_II, TAG_WR, ctrl_drop_line),                                     \
    [L1_VM][L1_Expire] = DO(L1_II, TAG_WR, expire_line),                                          \
    [L1_VM][L1_Rsp] = DO(L1_VM, 0, reply_rsp),                                                    \
    [L1_VM][L1_LastRsp] = DO(L1_V, TAG_WR | DATA_WR, update_line, reply_rsp, ctrl_free_tbe),      \
    [L1_IV][L1_Load] = DO(L1_IV, TAG_RD, merge_load),                                             \
    [L1_IV][L1_MergeFull] = STALL,                                                                \
    [L1_IV][L1_LoadL2] = DO(L1_IV, TAG_RD, merge_load), /* a fill in flight */                    \
    [L1_IV][L1_Store] = STALL,                                                                    \
    [L1_IV][L1_Atomic] = STALL,                                                                   \
    [L1_IV][L1_FlashInv] = DO(L1_II, 0, ctrl_nothing),                                            \
    [L1_IV][L1_Data] = DO(L1_V, TAG_WR | DATA_WR, fill_line, reply_rsp, ctrl_free_tbe),           \
    [L1_IV][L1_DataExpired] = DO(L1_I, 0, count_expired_fill, reply_rsp, ctrl_free_tbe),          \
    [L1_II][L1_Load] = DO(L1_II, TAG_RD, send_gets),                                              \
    [L1_II][L1_LoadL2] = DO(L1_II, TAG_RD, send_gets_at_l2),                                      \
    [L1_II][L1_Store] = DO(L1_II, TAG_RD, send_getx),                                             \
    [L1_II][L1_Atomic] = DO(L1_II, TAG_RD, send_atomic),                                          \
    [L1_II][L1_Rsp] = DO(L1_II, 0, reply_rsp),                                                    \
    [L1_II][L1_LastRsp] = DO(L1_I, 0, reply_rsp, ctrl_free_tbe)
// clang-format on

/*  state    event             next   uses               actions                                 */
static const struct coh_trans tcs_l1_cells[L1_NSTATES][L1_NEVENTS] = {
    TC_L1_COMMON_CELLS,
    /* Opt 2: write atomicity */
    [L1_VM][L1_Load] = DO(L1_VM, TAG_RD, send_gets),
};

/*  state    event             next   uses               actions                                 */
static const struct coh_trans tcw_l1_cells[L1_NSTATES][L1_NEVENTS] = {
    TC_L1_COMMON_CELLS,
    [L1_VM][L1_Load] = DO(L1_VM, TAG_RD | DATA_RD, reply_hit), /* RCpc: own writes early */
    [L1_VM][L1_LoadOther] = DO(L1_VM, TAG_RD, send_gets),      /* learn the GWCT */
};

static void dump_ctx(struct coh_ctx *x, FILE *out)
{
    if (x->line)
        fprintf(out, "  line %#llx: %s lease %llu\n", (unsigned long long)x->line->addr,
                state_names[x->line->state], (unsigned long long)LTS(x->line));
    ctrl_l1_dump_ctx_tbe(x, out);
}

const struct coh_table tcs_l1_table =
    COH_TABLE("tcs", "L1", tcs_l1_cells, ctrl_set_state, dump_ctx);
const struct coh_table tcw_l1_table =
    COH_TABLE("tcw", "L1", tcw_l1_cells, ctrl_set_state, dump_ctx);

/* ---- the classifier ---- */

/* Look the line up; a present line whose lease has ended expires first. */
static void lookup_live(struct ctrl *b, struct coh_ctx *x, addr_t line)
{
    ctrl_lookup(b, x, line);
    if (x->line && LTS(x->line) < now_cycles(l1_of(b))) {
        x->event = L1_Expire;
        ctrl_step(b, x);
        ctrl_lookup(b, x, line);
    }
}

/* TC-Weak, tc.load_gwct: a load may read a VM line's outstanding bytes early
 * only in the warp that wrote them. Another warp could acquire them at .cta
 * scope and then release at .gpu scope before their GWCT reached the table
 * (tests/litmus/WRC-cta.litmus); it reads the line from the L2 instead, and
 * the DATA brings the GWCT of the write it returns. */
static bool load_other(const struct tc_l1 *c, const struct coh_ctx *x)
{
    return c->v == TC_WEAK && c->load_gwct && x->state == L1_VM &&
           WRITER(x->line) != 1 + (uint64_t)slot_index(c, x->msg->req.warp);
}

static unsigned classify_core(const struct tc_l1 *c, const struct coh_ctx *x)
{
    switch (x->msg->req.op) {
    case MEM_LOAD:
        if (x->state == L1_IV && x->tbe->merged.n >= c->base.merge_max)
            return L1_MergeFull;
        if (c->strong_at_l2 && mem_req_strong_gpu(&x->msg->req))
            return L1_LoadL2;
        return load_other(c, x) ? L1_LoadOther : L1_Load;
    case MEM_STORE:
        return L1_Store;
    default:
        return L1_Atomic;
    }
}

/* Every present line (V, VM) and, at a launch, every outstanding fill (IV):
 * the host may have written its line. A timestamp wrap leaves fills alone:
 * their leases are compared in full width. */
static void flash_invalidate(struct tc_l1 *c, bool fills)
{
    ctrl_l1_flash(&c->base, L1_FlashInv, fills ? L1_IV : -1);
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
        if (c->bug_fence_ignores_gwct)
            return 0;
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
static void order_op(struct ctrl *b, struct msg *m)
{
    struct tc_l1 *c = l1_of(b);
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
    ctrl_to_core(&c->base, m, 0);
}

/* Perform one core request whose GWCT wait (if any) is over. Returns false on
 * a resource stall (the request stays where it was). */
static bool perform_core(struct tc_l1 *c, struct msg *m)
{
    if ((m->req.op == MEM_FENCE && m->req.scope >= SCOPE_GPU) || is_release(&m->req))
        c->fenced = true;
    struct coh_ctx x;
    enum ctrl_take r =
        ctrl_l1_begin(&c->base, &x, m, order_op, ctrl_l1_room(&c->base), lookup_live);
    if (r != CTRL_GO)
        return r == CTRL_TAKEN;
    x.event = classify_core(c, &x);
    ctrl_step_or_park(&c->base, &x);
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
        comp_wake_at(&c->base.comp, (due + 1) * c->core_ps);
}

/* One request from the core. Returns false on a resource stall. */
static bool take_core(struct ctrl *b, struct msg *m)
{
    struct tc_l1 *c = l1_of(b);
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

static void take_response(struct ctrl *b, struct msg *m)
{
    struct coh_ctx x;
    lookup_live(b, &x, m->addr);
    x.msg = m;
    panic_if(!x.tbe, "%s: response for %#llx with no TBE", b->w.name, (unsigned long long)m->addr);
    if (x.state == L1_IV && m->ts < now_cycles(l1_of(b))) {
        x.event = L1_DataExpired;
    } else if (x.state == L1_IV) {
        x.event = L1_Data;
        ctrl_l1_make_room(b, m->addr, L1_Replace); /* the victim goes through the table */
    } else {
        x.event = x.tbe->pending == 1 ? L1_LastRsp : L1_Rsp;
    }
    ctrl_step(b, &x);
}

/* ---- tick ---- */

/* One L1 cycle: the wrap check, one response, the held requests whose GWCT
 * wait is over, then one core request (parked ones replay before new ones). */
static bool tc_l1_tick(struct comp *cp)
{
    struct tc_l1 *c = l1_of(cp);
    struct ctrl *b = &c->base;

    ctrl_tick_begin(b);
    check_wrap(c);
    bool moved = ctrl_take_one(b, b->links.net_in[TC_VNET_RSP], take_response);
    if (c->n_held)
        moved |= take_held(c);
    moved |= ctrl_take_next(b, &b->in, take_core);
    if (moved)
        return true;
    /* A request left waiting stalled on a resource: sleep until it may clear.
     * GWCT waits set their own wake-up. A counter wrap while asleep is seen at
     * the wake instead of on its cycle, which changes nothing: its flash only
     * drops present lines, which nothing looks at in between. */
    if (b->replay.n || port_peek(&b->in))
        return ctrl_stall_sleep(b, &b->links.net_in[TC_VNET_RSP], 1);
    return false;
}

static void tc_l1_dump(struct comp *cp, FILE *out)
{
    struct tc_l1 *c = l1_of(cp);
    struct ctrl *b = &c->base;
    if (!b->tbes.n_used && !b->in.n && !b->replay.n && !c->n_held)
        return;
    fprintf(out,
            "%s (%s L1) at core cycle %llu: %u TBEs, %u core requests queued, %u replaying, "
            "%u warps held\n",
            b->w.name, b->table->proto, (unsigned long long)now_cycles(c), b->tbes.n_used, b->in.n,
            b->replay.n, c->n_held);
    ctrl_dump_tbes(b, out, NULL);
    for (uint32_t i = 0; i <= c->n_warps; i++)
        if (c->warps[i].held.n)
            fprintf(out, "  warp slot %u: gwct %llu, %u held (head %s until %llu)\n", i,
                    (unsigned long long)c->warps[i].gwct, c->warps[i].held.n,
                    mem_op_names[c->warps[i].held.head->req.op],
                    (unsigned long long)c->warps[i].held.head->ts);
}

/* ---- construction ---- */

static const struct ctrl_stat tc_l1_stat_rows[] = {
    CTRL_STAT_BASE(load_hits),
    CTRL_STAT_BASE(load_misses),
    CTRL_STAT_BASE(load_merged),
    CTRL_STAT_BASE(loads_at_l2),
    CTRL_STAT_OWN(struct l1_stats, loads_replayed),
    CTRL_STAT_BASE(stores),
    CTRL_STAT_OWN(struct l1_stats, upgrades),
    CTRL_STAT_BASE(atomics),
    CTRL_STAT_BASE(fills),
    CTRL_STAT_OWN(struct l1_stats, fills_expired),
    CTRL_STAT_OWN(struct l1_stats, expirations),
    CTRL_STAT_OWN(struct l1_stats, flash_invalidations),
    CTRL_STAT_OWN(struct l1_stats, rollovers),
    CTRL_STAT_OWN(struct l1_stats, private_acks),
    CTRL_STAT_OWN(struct l1_stats, refreshes),
    CTRL_STAT_OWN(struct l1_stats, gwct_waits),
    CTRL_STAT_OWN(struct l1_stats, fence_wait_cycles),
    CTRL_STAT_BASE(resource_stalls),
    CTRL_STAT_BASE(protocol_stalls),
    CTRL_STAT_END,
};

static struct tc_l1 *create(const struct ctrl_wiring *w, const struct coh_table *t,
                            enum tc_variant v)
{
    struct tc_l1 *c = ctrl_alloc(sizeof *c);
    c->v = v;
    ctrl_l1_init(&c->base, w, t, tc_l1_tick, tc_l1_dump);
    ctrl_set_stats(&c->base, tc_l1_stat_rows, &c->st);
    c->core_ps = clock_period_ps(w->cfg->gpu.core_mhz);
    const struct tc_spec *tc = tc_spec_of(w->cfg);
    c->ts_bits = tc->ts_bits;
    c->private_safe = tc->private_rule == 0;
    c->end_wait = tc->end_wait;
    c->sc_fence_invalidates = tc->sc_fence_invalidates;
    c->fence_warp_gwct = tc->fence_gwct == 1;
    c->load_gwct = tc->load_gwct;
    c->strong_at_l2 = tc->strong_loads == 1;
    c->expired_addr = ~(addr_t)0;
    uint32_t fixed;
    if (tc_lease_fixed(w->cfg, v, &fixed) && v == TC_STRONG)
        c->fixed_lease = fixed ? fixed : 1; /* 0 would read as "no request" */
    c->n_warps = w->cfg->sm.warps;
    c->warps = calloc(c->n_warps + 1, sizeof *c->warps);
    if (!c->warps)
        panic("out of memory");
    return c;
}

struct comp *tcs_l1_create(const struct ctrl_wiring *w)
{
    return &create(w, &tcs_l1_table, TC_STRONG)->base.comp;
}

struct comp *tcw_l1_create(const struct ctrl_wiring *w)
{
    return &create(w, &tcw_l1_table, TC_WEAK)->base.comp;
}

/* tcw-nogwct: TC-Weak whose fences and releases ignore the GWCT (test only:
 * gpucoh verify must catch it; docs/verify.md). */
struct comp *tcw_nogwct_l1_create(const struct ctrl_wiring *w)
{
    struct tc_l1 *c = create(w, &tcw_l1_table, TC_WEAK);
    c->bug_fence_ignores_gwct = true;
    return &c->base.comp;
}

void tc_l1_destroy(struct comp *cp)
{
    free(l1_of(cp)->warps);
    ctrl_destroy(cp);
}

/* The line's state as the protocol sees it now: an expired copy is gone. */
unsigned tc_l1_peek(struct comp *cp, addr_t line, uint8_t *data, bool *has_data)
{
    struct cache_line *l = cache_find(&((struct ctrl *)cp)->cache, line);
    unsigned s = ctrl_peek(cp, line, data, has_data);
    if (l && LTS(l) < now_cycles(l1_of(cp)))
        return s == L1_VM ? L1_II : L1_I;
    return s;
}

unsigned tc_l1_slots(struct comp *cp)
{
    return l1_of(cp)->n_warps + 1;
}

uint64_t tc_l1_slot(struct comp *cp, unsigned slot, const struct msg_list **held)
{
    struct tc_warp *w = &l1_of(cp)->warps[slot];
    *held = &w->held;
    return w->gwct;
}

bool tc_l1_fenced(struct comp *cp)
{
    return l1_of(cp)->fenced;
}

addr_t tc_l1_expired_line(struct comp *cp)
{
    return l1_of(cp)->expired_addr;
}
