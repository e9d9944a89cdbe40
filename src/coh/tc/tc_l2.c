/*
 * tc_l2.c - the L2 bank of Temporal Coherence (TC-Strong `tcs`, TC-Weak `tcw`).
 *
 * Spec 002 §3.7-3.10 (paper §6, Table 2 right). A write-back, write-allocate
 * bank; atomics are performed here; one request per cycle in order; a miss
 * parks later requests to its line in its MSHR (spec 002 §2). Every line has
 * a global timestamp (meta[0], core cycles): the time by which every L1 copy
 * will have self-invalidated. A read extends it to the lease end and returns
 * it. States I, P (entered by one read), S, E (valid, timestamp passed: no
 * L1 copy), IS, IM, MI (evicted while unexpired: the timestamp is kept in an
 * MSHR until it passes, spec 002 §7 item 1). P/S -> E and MI -> I happen by
 * time alone (Expire, fired lazily at access, and by a sweep at the earliest
 * kept timestamp, which also frees MI MSHRs).
 * TC-Weak: writes never stall; every write does TS++; a write to an
 * unexpired line answers ACK-G/DATA-G with the GWCT (the timestamp before
 * the write); a private write (an UPGR to P whose timestamp matches) gets a
 * plain ACK. The line keeps its latest write's GWCT (meta[2]); a DATA sent
 * before it has passed carries it (tc.load_gwct), so the reader's later
 * releases wait until the data is visible to every SM (PTX causality). The
 * lease comes from a per-bank predictor (+t_hit, -t_evict, -t_write, §3.10)
 * or is fixed.
 * TC-Strong: a write or atomic to an unexpired line waits until every lease
 * has passed, then is performed (-> E): write atomicity. tc.stall_scope: the
 * waiting write blocks the whole bank (`bank`, the paper: "affects all cores
 * and wavefronts"; the default, so that TCS's head-of-line cost is the
 * paper's) or only its line (`line`: it waits in S_W with later requests to
 * the line parked behind it). A read never extends a line a write waits on.
 * A read marked no-copy (GetSOnce: a strong load under tc.strong_loads = l2)
 * is answered with the data alone: no L1 keeps it, so the timestamp is not
 * extended, the state does not move and the predictor sees no event.
 * Safety fixes of spec 002 §8 (tc.private_rule, tc.retained: `safe` is the
 * default): item 4, a private write needs P entered by a read (the owner bit,
 * meta[1]) and DATA-G gives the L1 the GWCT as its lease; item 5, a fill of
 * an evicted line whose kept timestamp has not passed keeps it (IS -> S,
 * IM -> P with ACK-G/DATA-G).
 * INVARIANT: a line's global timestamp never decreases while it or its MI
 *   entry lives, and is >= every L1 copy's local timestamp.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "base/rng.h"
#include "coh/tc/tc.h"
#include "mem/observe.h"
#include "coh/machine_view.h"
#include "coh/tc/tc_options.h"

#define TC_L2_STATES(X)                                                                            \
    X(I, "not present (no unexpired timestamp kept)")                                              \
    X(P, "valid, private: one L1 read it since it was last written or expired")                    \
    X(S, "valid, shared: L1 copies may exist until the global timestamp")                          \
    X(E, "valid, expired: global timestamp < now, no L1 copy exists")                              \
    X(IS, "read miss: way taken, fill from DRAM outstanding; requests parked")                     \
    X(IM, "write or atomic miss: way taken, fill outstanding; requests parked")                    \
    X(MI, "evicted with an unexpired timestamp, kept in an MSHR until it passes")                  \
    X(S_W, "tcs, stall_scope=line: a write waits for every lease to pass; requests parked")

#define TC_L2_EVENTS(X)                                                                            \
    X(GetS, "read request from an L1")                                                             \
    X(GetSOnce, "read for a strong load performed here (tc.strong_loads = l2): no copy kept")      \
    X(GetX, "write-through from an L1 without a valid copy")                                       \
    X(Upgr, "write-through from an L1 with a copy whose timestamp does not match")                 \
    X(UpgrMatch, "tcw: write-through, the copy's timestamp matches, not private")                  \
    X(UpgrOwn, "write-through from the one reader of a P line (private write)")                    \
    X(Atomic, "atomic")                                                                            \
    X(AtomicOwn, "tcs: atomic from the one reader of a P line (private)")                          \
    X(WriteBlock, "tcs, scope bank: write/atomic to an unexpired line: the bank waits")            \
    X(WriteHold, "tcs, scope line: write/atomic to an unexpired line: it waits in a TBE")          \
    X(Replace, "a miss needs this line's way")                                                     \
    X(Expire, "the global (or kept) timestamp has passed, seen at access or by the sweep")         \
    X(MemData, "fill from DRAM")                                                                   \
    X(MemDataRetained, "fill from DRAM of a line whose kept timestamp has not passed")

#define X(n, d) L2_##n,
enum l2_state { TC_L2_STATES(X) L2_NSTATES };
enum l2_event { TC_L2_EVENTS(X) L2_NEVENTS };
#undef X
COH_NAMES(TC_L2_STATES, TC_L2_EVENTS);

#define GTS(l)   ((l)->meta[0]) /* global timestamp, core cycles */
#define OWNER(l) ((l)->meta[1]) /* P entered by a read: its reader may write privately */
#define WGWCT(l) ((l)->meta[2]) /* tcw: GWCT of the latest write: every older copy gone by then */
#define KEPT(t)  ((t)->meta[0]) /* MI/IS/IM/S_W: the timestamp the MSHR keeps */
#define SINCE(t) ((t)->meta[1]) /* S_W: core cycle the write began to wait */

const char *const tc_vnet_names[TC_NVNETS] = {"request", "response"};

struct l2_stats {
    uint64_t private_writes, gwct_writes, datag, writes_stalled, write_stall_cycles;
    uint64_t mi_entries, mi_expired, lease_sum, leases;
    /* the predictor's events (counted under a fixed lease too): reads of an
     * L1 copy that had expired, reads of an E line, both at once, and writes
     * to a line whose timestamp had not passed; mi_entries are its evictions */
    uint64_t reads_expired_copy, reads_expired_line, reads_expired_both, writes_unexpired;
};

struct tc_l2 {
    struct ctrl base;
    enum tc_variant v;
    tick_t core_ps;    /* one core cycle: the global counter's unit */
    uint64_t next_due; /* earliest core cycle an MI/S_W entry may expire */
    /* lease */
    bool fixed;    /* fixed lease (else the predictor) */
    int64_t lease; /* current lease, core cycles */
    int64_t lease_min, lease_max, t_hit, t_evict, t_write;
    uint32_t t_write_when; /* 0 fences, 1 always, 2 never */
    bool bank_scope;       /* tcs: a waiting write blocks the bank */
    bool private_safe, retained_safe;
    bool load_gwct;         /* tcw: DATA carries the GWCT of the write it returns */
    bool bug_write_no_wait; /* tcs-nowait (test only): a write takes its line as expired */
    struct msg *blocked;    /* tcs bank scope: the write at the head that waits */
    uint64_t blocked_since; /* core cycle it began to wait */
    struct l2_stats st;
};

static struct tc_l2 *l2_of(struct coh_ctx *x)
{
    return x->ctrl;
}

static uint64_t now_cycles(const struct tc_l2 *c)
{
    return c->base.comp.eng->now / c->core_ps;
}

bool tc_lease_fixed(const struct machine_view *cfg, enum tc_variant v, uint32_t *cycles)
{
    const char *lease = tc_spec_of(cfg)->lease;
    switch (coh_lease_parse(lease, tc_lease_words, 0, TC_LEASE_MAX, cycles)) {
    case 0: /* auto */
        *cycles = 800;
        return v == TC_STRONG;
    case 1: /* predict */
        return false;
    case COH_LEASE_FIXED:
        return true;
    }
    panic("tc.lease '%s' passed config_load's check", lease);
}

/* ---- the lease predictor (spec 002 §3.10) ---- */

static void lease_add(struct tc_l2 *c, int64_t d)
{
    if (c->fixed)
        return;
    c->lease = MAX(c->lease_min, MIN(c->lease_max, c->lease + d));
}

/* ---- actions ---- */

/* Into the pipeline; leaves for the L1 after the hit latency. */
static void respond(struct tc_l2 *c, struct msg *m, uint16_t type, uint8_t cls, uint16_t bytes)
{
    ctrl_l2_respond(&c->base, m, type, TC_VNET_RSP, cls, bytes);
}

static void arm(struct tc_l2 *c, uint64_t ts)
{
    if (ts + 1 < c->next_due) {
        c->next_due = ts + 1;
        comp_wake_at(&c->base.comp, c->next_due * c->core_ps);
    }
}

/* S_W: the write waits until the line's timestamp has passed. */
static void wait_expiry(struct coh_ctx *x)
{
    struct tc_l2 *c = l2_of(x);
    KEPT(x->tbe) = GTS(x->line);
    SINCE(x->tbe) = now_cycles(c);
    c->st.writes_stalled++;
    arm(c, KEPT(x->tbe));
}

/* The fill keeps the timestamp the MSHR kept for the evicted line. The
 * latest write's GWCT was not kept; the kept timestamp bounds it (every copy,
 * of any version, expires by then). */
static void restore_ts(struct coh_ctx *x)
{
    GTS(x->line) = KEPT(x->tbe);
    WGWCT(x->line) = KEPT(x->tbe);
}

/* A read: the global timestamp becomes max(itself, lease end); the
 * predictor grows on a read the L1 missed because its copy expired, and on a
 * read of an expired line (E). */
static void extend_ts(struct coh_ctx *x)
{
    struct tc_l2 *c = l2_of(x);
    struct msg *m = x->msg;
    bool copy = m->flags & TC_F_EXPIRED, line = x->state == L2_E;
    c->st.reads_expired_copy += copy;
    c->st.reads_expired_line += line;
    c->st.reads_expired_both += copy && line;
    if (copy)
        lease_add(c, c->t_hit);
    if (line)
        lease_add(c, c->t_hit);
    uint64_t end = (m->flags & TC_F_LEASE) ? m->ts : now_cycles(c) + (uint64_t)c->lease;
    c->st.lease_sum += (uint64_t)c->lease;
    c->st.leases++;
    GTS(x->line) = MAX(GTS(x->line), end);
}

/* DATA: the line and its timestamp. TC-Weak (tc.load_gwct): while copies
 * older than the data may still be valid elsewhere, also the latest write's
 * GWCT: the data is not yet visible to every SM, so a release of the reader
 * that follows must wait for it (causality: WRC, tests/litmus/WRC-*). */
static void reply_data(struct coh_ctx *x)
{
    struct tc_l2 *c = l2_of(x);
    struct msg *m = x->msg;
    m->ts = GTS(x->line);
    m->flags = m->flags & TC_F_MERGED;
    if (c->v == TC_WEAK && c->load_gwct && WGWCT(x->line) >= now_cycles(c)) {
        m->flags |= TC_F_GWCT;
        m->ts2 = WGWCT(x->line);
    }
    ctrl_l2_reply_line(x->ctrl, x, x->msg, MSG_TC_DATA, TC_VNET_RSP);
    x->msg = NULL;
}

static void set_owner(struct coh_ctx *x)
{
    OWNER(x->line) = 1;
}

static void clear_owner(struct coh_ctx *x)
{
    OWNER(x->line) = 0;
}

/* Perform a write's bytes; TC-Weak: TS++ (every write, so that stale copies'
 * UPGRs mismatch) and -t_write on an unexpired line. Returns the GWCT: the
 * timestamp before the write if it had not passed, else 0. */
static uint64_t perform(struct tc_l2 *c, struct coh_ctx *x)
{
    struct msg *m = x->msg;
    uint64_t g = GTS(x->line) >= now_cycles(c) ? GTS(x->line) : 0;
    if (m->type == MSG_TC_ATOMIC)
        ctrl_l2_perform_atomic(&c->base, x);
    else
        ctrl_l2_perform_write(&c->base, x);
    if (c->v == TC_WEAK) {
        GTS(x->line)++;
        WGWCT(x->line) = MAX(WGWCT(x->line), g);
        c->st.writes_unexpired += g != 0;
        if (g && (c->t_write_when == 1 || (c->t_write_when == 0 && (m->flags & TC_F_FENCES))))
            lease_add(c, -c->t_write);
    }
    return c->v == TC_WEAK ? g : 0;
}

static void promise(struct tc_l2 *c, struct coh_ctx *x, uint64_t gwct)
{
    if (c->base.w.obs)
        tc_obs_write(c->base.w.proto_ctx, x->addr, gwct);
}

/* ACK: the write is visible everywhere (E, or TC-Strong after the wait). */
static void write_ack(struct coh_ctx *x)
{
    struct tc_l2 *c = l2_of(x);
    uint64_t g = perform(c, x);
    panic_if(g, "%s: plain ACK for a write to an unexpired line %#llx", c->base.w.name,
             (unsigned long long)x->addr);
    promise(c, x, 0);
    x->msg->flags = 0;
    respond(c, x->msg, MSG_TC_ACK, TRAFFIC_REQ, 0);
    x->msg = NULL;
}

/* Private write: no other copy can be valid; TC-Weak marks it so the writer
 * advances its lease with the L2's TS++ (safe rule (d)). */
static void write_private(struct coh_ctx *x)
{
    struct tc_l2 *c = l2_of(x);
    c->st.private_writes++;
    perform(c, x);
    promise(c, x, 0);
    x->msg->flags = c->v == TC_WEAK && c->private_safe ? TC_F_PRIVATE : 0;
    respond(c, x->msg, MSG_TC_ACK, TRAFFIC_REQ, 0);
    x->msg = NULL;
}

/* ACK-G: performed; visible to all by the GWCT. */
static void write_ackg(struct coh_ctx *x)
{
    struct tc_l2 *c = l2_of(x);
    uint64_t g = perform(c, x);
    promise(c, x, g);
    x->msg->flags = g ? TC_F_GWCT : 0;
    x->msg->ts2 = g;
    if (g)
        c->st.gwct_writes++;
    respond(c, x->msg, MSG_TC_ACK, TRAFFIC_REQ, 0);
    x->msg = NULL;
}

/* DATA-G: performed; the writer's copy was stale, so it gets the line, its
 * lease (the incremented timestamp) and the GWCT. */
static void write_datag(struct coh_ctx *x)
{
    struct tc_l2 *c = l2_of(x);
    uint64_t g = perform(c, x);
    promise(c, x, g);
    c->st.datag++;
    if (g)
        c->st.gwct_writes++;
    struct msg *m = x->msg;
    memcpy(m->data, x->line->data, c->base.line_bytes);
    m->flags = g ? TC_F_GWCT : 0;
    m->ts = GTS(x->line);
    m->ts2 = g;
    respond(c, m, MSG_TC_DATAG, TRAFFIC_LD, (uint16_t)c->base.line_bytes);
    x->msg = NULL;
}

/* Perform every lane's atomic on the line, return old values (TC-Weak: with
 * the GWCT when the line had not expired). */
static void do_atomic(struct coh_ctx *x)
{
    struct tc_l2 *c = l2_of(x);
    uint64_t g = perform(c, x);
    promise(c, x, g);
    struct msg *m = x->msg;
    m->flags = g ? TC_F_GWCT : 0;
    m->ts2 = g;
    if (g)
        c->st.gwct_writes++;
    respond(c, m, MSG_TC_ATOMRSP, TRAFFIC_ATO,
            (uint16_t)(m->req.atom->is_red ? 0 : atom_operand_bytes(m->req.atom)));
    x->msg = NULL;
}

/* The request held in the MSHR (the miss's first, or the write S_W waited
 * for), performed now: a read gets the line; a write ACK, or - TC-Weak, the
 * kept timestamp unexpired - ACK-G for a GETX and DATA-G for an UPGR; an
 * atomic its results. */
static void perform_held(struct coh_ctx *x)
{
    struct tc_l2 *c = l2_of(x);
    x->msg = msg_list_pop(&x->tbe->merged);
    panic_if(!x->msg, "%s: no held request for %#llx", c->base.w.name, (unsigned long long)x->addr);
    bool live = GTS(x->line) >= now_cycles(c);
    if (x->state == L2_S_W) {
        c->st.write_stall_cycles += now_cycles(c) - SINCE(x->tbe);
        live = false;
    }
    switch (x->msg->type) {
    case MSG_TC_GETS:
        if (!(x->msg->flags & TC_F_NOCOPY))
            extend_ts(x);
        reply_data(x);
        break;
    case MSG_TC_ATOMIC:
        do_atomic(x);
        break;
    case MSG_TC_UPGR:
        if (live)
            write_datag(x);
        else
            write_ack(x);
        break;
    default:
        if (live)
            write_ackg(x);
        else
            write_ack(x);
    }
}

/* MI: an MSHR keeps the unexpired timestamp until it passes (-t_evict). */
static void keep_ts(struct coh_ctx *x)
{
    struct tc_l2 *c = l2_of(x);
    KEPT(x->tbe) = GTS(x->line);
    c->st.mi_entries++;
    lease_add(c, -c->t_evict);
}

static void free_kept(struct coh_ctx *x)
{
    l2_of(x)->st.mi_expired++;
    ctrl_wake_parked(x);
}

static const struct coh_action_name actions[] = {
    {ctrl_take_way, "take_way", "install the line in a free way (the fill comes later)"},
    {ctrl_alloc_tbe, "alloc_tbe", "allocate an MSHR for the line"},
    {ctrl_l2_send_fetch, "send_fetch", "read the line from DRAM"},
    {ctrl_hold, "hold_request", "keep the request in the MSHR: it is performed first"},
    {wait_expiry, "wait_expiry", "wait (S_W) until the line's timestamp has passed"},
    {ctrl_l2_fill_line, "fill_line", "write the DRAM data into the line"},
    {restore_ts, "restore_ts", "give the line the timestamp the MSHR kept (§8 item 5)"},
    {ctrl_wake_parked, "wake_parked",
     "free the MSHR and replay its parked requests first, in order"},
    {extend_ts, "extend_ts",
     "timestamp := max(timestamp, lease end); predictor +t_hit on an expired L1 copy or E"},
    {reply_data, "reply_data",
     "DATA: the line and its timestamp (tcw: and the latest write's GWCT if unexpired)"},
    {set_owner, "set_owner", "P entered by a read: its reader may write privately"},
    {clear_owner, "clear_owner", "no private write until the next E -> P read"},
    {write_ack, "write_ack", "perform the write (tcw: TS++), ACK"},
    {write_private, "write_private", "perform the private write (tcw: TS++), ACK"},
    {write_ackg, "write_ackg", "perform the write, TS++, ACK-G with the GWCT (-t_write)"},
    {write_datag, "write_datag",
     "perform the write, TS++, DATA-G: the line, its timestamp and the GWCT (-t_write)"},
    {do_atomic, "do_atomic",
     "perform every lane's atomic, return old values (tcw: TS++, GWCT if unexpired)"},
    {perform_held, "perform_held",
     "perform the held request: read DATA (extending the timestamp unless no-copy); write "
     "ACK, or ACK-G/DATA-G if unexpired; atomic"},
    {ctrl_l2_write_back, "write_back", "write the line to DRAM if it is dirty"},
    {keep_ts, "keep_ts", "keep the unexpired timestamp in the MSHR (MI), predictor -t_evict"},
    {ctrl_drop_line, "drop_line", "free the data way"},
    {free_kept, "free_kept", "the kept timestamp passed: free the MSHR, replay parked requests"},
    {ctrl_nothing, "nothing", "no action: the timestamp passed, no L1 copy is left"},
    {0},
};

/* ---- the tables ---- */

/* Cells TC-Strong and TC-Weak share: misses, reads, E, eviction, expiry. */
// clang-format off
/*  state     event              next     uses              actions                              */
#define TC_L2_COMMON_CELLS                                                                       \
    [L2_I][L2_GetS] = DO(L2_IS, TAG_RD | TAG_WR, ctrl_take_way, ctrl_alloc_tbe,                  \
        ctrl_l2_send_fetch, ctrl_hold),                                                          \
    [L2_I][L2_GetSOnce] = DO(L2_IS, TAG_RD | TAG_WR, ctrl_take_way, ctrl_alloc_tbe,              \
        ctrl_l2_send_fetch, ctrl_hold),                                                          \
    [L2_I][L2_GetX] = DO(L2_IM, TAG_RD | TAG_WR, ctrl_take_way, ctrl_alloc_tbe,                  \
        ctrl_l2_send_fetch, ctrl_hold),                                                          \
    [L2_I][L2_Upgr] = DO(L2_IM, TAG_RD | TAG_WR, ctrl_take_way, ctrl_alloc_tbe,                  \
        ctrl_l2_send_fetch, ctrl_hold),                                                          \
    [L2_I][L2_Atomic] = DO(L2_IM, TAG_RD | TAG_WR, ctrl_take_way, ctrl_alloc_tbe,                \
        ctrl_l2_send_fetch, ctrl_hold),                                                          \
    [L2_P][L2_GetS] = DO(L2_S, TAG_RD | TAG_WR | DATA_RD, extend_ts, reply_data),                \
    [L2_P][L2_GetSOnce] = DO(L2_P, TAG_RD | DATA_RD, reply_data),                                \
    [L2_P][L2_UpgrOwn] = DO(L2_P, TAG_RD | TAG_WR | DATA_WR, write_private),                     \
    [L2_P][L2_Replace] = DO(L2_MI, TAG_WR | DATA_RD, ctrl_alloc_tbe, keep_ts,                    \
        ctrl_l2_write_back, ctrl_drop_line),                                                     \
    [L2_P][L2_Expire] = DO(L2_E, TAG_WR, ctrl_nothing),                                          \
    [L2_S][L2_GetS] = DO(L2_S, TAG_RD | TAG_WR | DATA_RD, extend_ts, reply_data),                \
    [L2_S][L2_GetSOnce] = DO(L2_S, TAG_RD | DATA_RD, reply_data),                                \
    [L2_S][L2_Replace] = DO(L2_MI, TAG_WR | DATA_RD, ctrl_alloc_tbe, keep_ts,                    \
        ctrl_l2_write_back, ctrl_drop_line),                                                     \
    [L2_S][L2_Expire] = DO(L2_E, TAG_WR, ctrl_nothing),                                          \
    [L2_E][L2_GetS] = DO(L2_P, TAG_RD | TAG_WR | DATA_RD, extend_ts, reply_data, set_owner),     \
    [L2_E][L2_GetSOnce] = DO(L2_E, TAG_RD | DATA_RD, reply_data),                                \
    [L2_E][L2_GetX] = DO(L2_E, TAG_RD | DATA_WR, write_ack),                                     \
    [L2_E][L2_Upgr] = DO(L2_E, TAG_RD | DATA_WR, write_ack),                                     \
    [L2_E][L2_Atomic] = DO(L2_E, TAG_RD | DATA_RD | DATA_WR, do_atomic),                         \
    [L2_E][L2_Replace] = DO(L2_I, TAG_WR | DATA_RD, ctrl_l2_write_back, ctrl_drop_line),         \
    [L2_IS][L2_GetS] = STALL,                                                                    \
    [L2_IS][L2_GetSOnce] = STALL,                                                                \
    [L2_IS][L2_GetX] = STALL,                                                                    \
    [L2_IS][L2_Upgr] = STALL,                                                                    \
    [L2_IS][L2_Atomic] = STALL,                                                                  \
    [L2_IS][L2_MemData] = DO(L2_P, TAG_WR | DATA_WR | DATA_RD, ctrl_l2_fill_line, perform_held,  \
        set_owner, ctrl_wake_parked),                                                            \
    [L2_IS][L2_MemDataRetained] = DO(L2_S, TAG_WR | DATA_WR | DATA_RD, ctrl_l2_fill_line,        \
        restore_ts, perform_held, ctrl_wake_parked),                                             \
    [L2_IM][L2_GetS] = STALL,                                                                    \
    [L2_IM][L2_GetSOnce] = STALL,                                                                \
    [L2_IM][L2_GetX] = STALL,                                                                    \
    [L2_IM][L2_Upgr] = STALL,                                                                    \
    [L2_IM][L2_Atomic] = STALL,                                                                  \
    [L2_IM][L2_MemData] = DO(L2_E, TAG_WR | DATA_WR | DATA_RD, ctrl_l2_fill_line, perform_held,  \
        ctrl_wake_parked),                                                                       \
    [L2_MI][L2_GetS] = DO(L2_IS, TAG_RD | TAG_WR, ctrl_take_way, ctrl_l2_send_fetch, ctrl_hold), \
    [L2_MI][L2_GetSOnce] = DO(L2_IS, TAG_RD | TAG_WR, ctrl_take_way, ctrl_l2_send_fetch,         \
        ctrl_hold),                                                                              \
    [L2_MI][L2_Expire] = DO(L2_I, 0, free_kept)
// clang-format on

/*  state     event              next     uses              actions                              */
static const struct coh_trans tcs_l2_cells[L2_NSTATES][L2_NEVENTS] = {
    TC_L2_COMMON_CELLS,
    [L2_P][L2_AtomicOwn] = DO(L2_P, TAG_RD | TAG_WR | DATA_RD | DATA_WR, do_atomic, clear_owner),
    [L2_P][L2_WriteBlock] = STALL,
    [L2_P][L2_WriteHold] = DO(L2_S_W, TAG_RD | TAG_WR, ctrl_alloc_tbe, ctrl_hold, wait_expiry),
    [L2_S][L2_WriteBlock] = STALL,
    [L2_S][L2_WriteHold] = DO(L2_S_W, TAG_RD | TAG_WR, ctrl_alloc_tbe, ctrl_hold, wait_expiry),
    [L2_MI][L2_WriteBlock] = STALL,
    [L2_MI][L2_WriteHold] = STALL, /* parked on the MI entry until it expires */
    [L2_S_W][L2_GetS] = STALL,
    [L2_S_W][L2_GetSOnce] = STALL, /* reads the write's value once it is performed */
    [L2_S_W][L2_GetX] = STALL,
    [L2_S_W][L2_Upgr] = STALL,
    [L2_S_W][L2_Atomic] = STALL,
    [L2_S_W][L2_Expire] = DO(L2_E, TAG_WR | DATA_WR | DATA_RD, perform_held, ctrl_wake_parked),
    /* IM + MemDataRetained is left undefined: a write or atomic to an MI line
     * waits (WriteBlock/WriteHold) until the kept timestamp passes, so IM is
     * only entered from I and its fill never finds a kept timestamp */
};

/*  state     event              next     uses              actions                              */
static const struct coh_trans tcw_l2_cells[L2_NSTATES][L2_NEVENTS] = {
    TC_L2_COMMON_CELLS,
    [L2_P][L2_GetX] = DO(L2_P, TAG_RD | TAG_WR | DATA_WR, write_ackg, clear_owner),
    [L2_P][L2_Upgr] = DO(L2_P, TAG_RD | TAG_WR | DATA_WR | DATA_RD, write_datag, clear_owner),
    /* P + UpgrMatch is left undefined: in P without the owner bit every
     * timestamp was raised by a write (TS++) after the last lease was granted,
     * and no L1 is given that raised value (DATA-G gives the GWCT); with the
     * owner bit (or the paper rule) a match is UpgrOwn */
    [L2_P][L2_Atomic] = DO(L2_P, TAG_RD | TAG_WR | DATA_RD | DATA_WR, do_atomic, clear_owner),
    [L2_S][L2_GetX] = DO(L2_P, TAG_RD | TAG_WR | DATA_WR, write_ackg, clear_owner),
    [L2_S][L2_Upgr] = DO(L2_P, TAG_RD | TAG_WR | DATA_WR | DATA_RD, write_datag, clear_owner),
    [L2_S][L2_UpgrMatch] = DO(L2_P, TAG_RD | TAG_WR | DATA_WR, write_ackg, clear_owner),
    [L2_S][L2_Atomic] = DO(L2_S, TAG_RD | DATA_RD | DATA_WR, do_atomic),
    [L2_IM][L2_MemDataRetained] = DO(L2_P, TAG_WR | DATA_WR | DATA_RD, ctrl_l2_fill_line,
                                     restore_ts, perform_held, clear_owner, ctrl_wake_parked),
    [L2_MI][L2_GetX] = DO(L2_IM, TAG_RD | TAG_WR, ctrl_take_way, ctrl_l2_send_fetch, ctrl_hold),
    [L2_MI][L2_Upgr] = DO(L2_IM, TAG_RD | TAG_WR, ctrl_take_way, ctrl_l2_send_fetch, ctrl_hold),
    [L2_MI][L2_Atomic] = DO(L2_IM, TAG_RD | TAG_WR, ctrl_take_way, ctrl_l2_send_fetch, ctrl_hold),
};

static void dump_ctx(struct coh_ctx *x, FILE *out)
{
    if (x->line)
        fprintf(out, "  line %#llx: %s%s gts %llu owner %llu\n", (unsigned long long)x->line->addr,
                state_names[x->line->state], x->line->dirty ? " dirty" : "",
                (unsigned long long)GTS(x->line), (unsigned long long)OWNER(x->line));
    if (x->tbe)
        fprintf(out, "  mshr %#llx: %s kept %llu held %u parked %u\n",
                (unsigned long long)x->tbe->addr, state_names[x->tbe->state],
                (unsigned long long)KEPT(x->tbe), x->tbe->merged.n, x->tbe->parked.n);
}

const struct coh_table tcs_l2_table =
    COH_TABLE("tcs", "L2", tcs_l2_cells, ctrl_set_state, dump_ctx);
const struct coh_table tcw_l2_table =
    COH_TABLE("tcw", "L2", tcw_l2_cells, ctrl_set_state, dump_ctx);

/* ---- the classifier ---- */

static void lookup(struct tc_l2 *c, struct coh_ctx *x, addr_t line)
{
    ctrl_lookup(&c->base, x, line);
}

static enum coh_result step(struct tc_l2 *c, struct coh_ctx *x, unsigned event)
{
    x->event = event;
    return ctrl_step(&c->base, x);
}

/* Whether time alone has moved the line on: P/S past their timestamp are E;
 * an MI entry or a waiting S_W write past its kept timestamp expires. */
static bool due(const struct tc_l2 *c, const struct coh_ctx *x)
{
    uint64_t now = now_cycles(c);
    switch (x->state) {
    case L2_P:
    case L2_S:
        return GTS(x->line) < now;
    case L2_MI:
    case L2_S_W:
        return KEPT(x->tbe) < now;
    default:
        return false;
    }
}

/* Look the line up and let time act on it first (lazy Expire). */
static void lookup_live(struct tc_l2 *c, struct coh_ctx *x, addr_t line)
{
    lookup(c, x, line);
    if (due(c, x)) {
        step(c, x, L2_Expire);
        lookup(c, x, line);
    }
}

/* The event for a request, given the line's (live) state. */
static unsigned classify(const struct tc_l2 *c, const struct coh_ctx *x, const struct msg *m)
{
    bool live = x->state == L2_P || x->state == L2_S;
    bool own = false;
    if (x->state == L2_P && (OWNER(x->line) || !c->private_safe))
        own = (m->type == MSG_TC_UPGR || (m->flags & TC_F_HAS_TS)) && m->ts == GTS(x->line);
    if (c->v == TC_STRONG && m->type != MSG_TC_GETS && (live || x->state == L2_MI)) {
        if (own)
            return m->type == MSG_TC_UPGR ? L2_UpgrOwn : L2_AtomicOwn;
        return c->bank_scope ? L2_WriteBlock : L2_WriteHold;
    }
    switch (m->type) {
    case MSG_TC_GETS:
        return (m->flags & TC_F_NOCOPY) ? L2_GetSOnce : L2_GetS;
    case MSG_TC_GETX:
        return L2_GetX;
    case MSG_TC_UPGR:
        if (!live)
            return L2_Upgr;
        if (own)
            return L2_UpgrOwn;
        return m->ts == GTS(x->line) ? L2_UpgrMatch : L2_Upgr;
    case MSG_TC_ATOMIC:
        return L2_Atomic;
    default:
        panic("%s: unexpected request type %u", c->base.w.name, m->type);
    }
}

static bool busy(unsigned s)
{
    return s == L2_IS || s == L2_IM || s == L2_S_W;
}

static bool evictable(const struct cache_line *l, void *arg)
{
    (void)arg;
    return !busy(l->state);
}

/* Room for the worst step: an MSHR, a DRAM request, a response. */
static bool sweep(struct tc_l2 *c, bool force);

static bool room(struct tc_l2 *c)
{
    if (tbe_full(&c->base.tbes))
        sweep(c, true); /* MSHR pressure: free the MI entries whose timestamp passed */
    return ctrl_l2_room_for_step(&c->base);
}

/* A miss's set is full: the victim (stable) is replaced if there is room. */
static void replace(struct ctrl *b, addr_t victim)
{
    struct tc_l2 *c = (struct tc_l2 *)b;
    struct coh_ctx v;
    lookup_live(c, &v, victim);
    if (room(c))
        step(c, &v, L2_Replace);
}

/* One request. A miss first needs a free way: a full set gives up its LRU
 * stable line (an unexpired one to MI) and the request retries next cycle.
 * Returns false when the request stays where it is (resource stall, or a
 * TC-Strong write blocking the bank). */
static bool take_request(struct ctrl *b, struct msg *m)
{
    struct tc_l2 *c = (struct tc_l2 *)b;
    struct coh_ctx x;
    if (!room(c))
        return false;
    lookup(c, &x, m->addr);
    x.msg = m;
    if (ctrl_park_behind(b, &x)) /* requests to a line keep their order */
        return true;
    lookup_live(c, &x, m->addr);
    if (c->bug_write_no_wait && m->type != MSG_TC_GETS && (x.state == L2_P || x.state == L2_S)) {
        step(c, &x, L2_Expire); /* the seeded bug: leases still running are ignored */
        lookup(c, &x, m->addr);
    }
    if (!x.line && !ctrl_l2_free_way(b, m->addr, evictable, replace))
        return false;
    x.msg = m;
    unsigned ev = classify(c, &x, m);
    if (step(c, &x, ev) == COH_STALLED) {
        if (ev == L2_WriteBlock) {
            if (c->blocked != m) {
                c->blocked = m;
                c->blocked_since = now_cycles(c);
                c->st.writes_stalled++;
            }
            uint64_t until = x.state == L2_MI ? KEPT(x.tbe) : GTS(x.line);
            comp_wake_at(&c->base.comp, (until + 1) * c->core_ps);
            return false;
        }
        c->base.st.protocol_stalls++;
        msg_list_push(&x.tbe->parked, m);
        if (ev == L2_WriteHold) { /* on an MI entry: wake when it expires */
            c->st.writes_stalled++;
            arm(c, KEPT(x.tbe));
        }
    }
    if (c->blocked == m) {
        c->st.write_stall_cycles += now_cycles(c) - c->blocked_since;
        c->blocked = NULL;
    }
    return true;
}

static void take_mem(struct ctrl *b, struct msg *m)
{
    struct tc_l2 *c = (struct tc_l2 *)b;
    if (ctrl_l2_drop_wrack(b, m))
        return;
    struct coh_ctx x;
    lookup(c, &x, m->addr);
    x.msg = m;
    bool kept = c->retained_safe && KEPT(x.tbe) >= now_cycles(c);
    step(c, &x, kept ? L2_MemDataRetained : L2_MemData);
}

/* Expire the MSHR entries that wait for time: S_W writes, and MI entries
 * with requests parked on them (tcs, scope line) - each armed a wake-up for
 * its timestamp - and, under MSHR pressure (`force`), every MI entry whose
 * timestamp passed. Other MI entries expire lazily, when their line is next
 * accessed: time alone schedules no event. Notes the next armed time. */
static bool sweep(struct tc_l2 *c, bool force)
{
    uint64_t now = now_cycles(c);
    if (now < c->next_due && !force)
        return false;
    bool moved = false;
    c->next_due = UINT64_MAX;
    for (uint32_t i = 0; i < c->base.tbes.cap; i++) {
        struct tbe *t = &c->base.tbes.e[i];
        if (!t->used || (t->state != L2_MI && t->state != L2_S_W))
            continue;
        bool armed = t->state == L2_S_W || t->parked.n;
        if (!armed && !force)
            continue;
        if (KEPT(t) < now && port_has_room(&c->base.pipe, 1)) {
            struct coh_ctx x;
            lookup(c, &x, t->addr);
            step(c, &x, L2_Expire);
            moved = true;
        } else if (armed) {
            c->next_due = MIN(c->next_due, KEPT(t) < now ? now + 1 : KEPT(t) + 1);
        }
    }
    if (c->next_due != UINT64_MAX)
        comp_wake_at(&c->base.comp, c->next_due * c->core_ps);
    return moved;
}

/* The first core cycle after `now` at which time alone changes what a stalled
 * request's retry does: an MI or S_W entry's kept timestamp passing (a forced
 * sweep frees it when the MSHRs are full; the request's own line expires
 * lazily at its lookup). UINT64_MAX when none. */
static uint64_t next_kept_due(const struct tc_l2 *c)
{
    uint64_t now = now_cycles(c), due = UINT64_MAX;
    for (uint32_t i = 0; i < c->base.tbes.cap; i++) {
        const struct tbe *t = &c->base.tbes.e[i];
        if (t->used && (t->state == L2_MI || t->state == L2_S_W) && KEPT(t) >= now)
            due = MIN(due, KEPT(t) + 1);
    }
    return due;
}

static bool tc_l2_tick(struct comp *cp)
{
    struct tc_l2 *c = (struct tc_l2 *)cp;
    struct ctrl *b = &c->base;
    struct port *reqs = b->links.net_in[TC_VNET_REQ];

    ctrl_tick_begin(b);
    bool moved = ctrl_l2_drain_pipe(b);
    moved |= ctrl_take_one(b, &b->in, take_mem);
    moved |= sweep(c, false);
    moved |= ctrl_take_next(b, reqs, take_request);
    if (moved || port_peek(&b->pipe))
        return true;
    /* a blocked write set its own wake-up */
    if (!(b->replay.n || port_peek(reqs)) || c->blocked)
        return false;
    /* A request stalled on a resource (a full MSHR table or DRAM port, a set
     * whose every way is busy: a fill, a TC-Strong write waiting for its
     * leases). Ticking every cycle until it clears would retry it up to a
     * lease's length of cycles (and `gpucoh verify`'s rig, whose controllers
     * run at a cycle per ps, could not finish a tick of time). Messages wake
     * the bank (a fill, a freed port slot), the sweep arms the S_W expiry; what
     * else time alone changes for the retry is an MI or S_W entry's timestamp
     * passing, so the bank sleeps until the first of those (exact: the cycles
     * slept through are counted as stalled ticks, ctrl.h).
     * That wake-up is asked for whether the bank sleeps or not
     * (coherence.sleep): when a message clears the stall first, it is left
     * over as a tick that does nothing, and such a tick still counts where
     * only the last event matters, at the end of a kernel's settling, which
     * sets when the next launch starts (machine_run.c). Asked for in one mode
     * only, it moved every later timestamp: kmn at tiny on a 4 KiB one-way L2
     * with 12 800-cycle leases took 40 108 cycles sleeping and 41 726
     * ticking (tests/unit/602-coh-sleep.c). */
    if (b->n_steps == b->steps_mark) {
        uint64_t due = next_kept_due(c);
        if (due != UINT64_MAX)
            comp_wake_at(cp, due * c->core_ps);
    }
    struct port *const in[] = {&b->in, &b->pipe};
    return ctrl_stall_sleep(b, in, 2);
}

static void dump_mshr(const struct ctrl *b, const struct tbe *t, FILE *out)
{
    fprintf(out, "  mshr %#llx %s kept %llu held %u parked %u\n", (unsigned long long)t->addr,
            b->table->state_names[t->state], (unsigned long long)KEPT(t), t->merged.n, t->parked.n);
}

static void tc_l2_dump(struct comp *cp, FILE *out)
{
    struct tc_l2 *c = (struct tc_l2 *)cp;
    struct ctrl *b = &c->base;
    if (!b->tbes.n_used && !b->replay.n && !b->pipe.n && !c->blocked)
        return;
    fprintf(out,
            "%s (%s L2) at core cycle %llu: %u MSHRs, %u replaying, %u in pipeline, "
            "lease %lld%s\n",
            b->w.name, b->table->proto, (unsigned long long)now_cycles(c), b->tbes.n_used,
            b->replay.n, b->pipe.n, (long long)c->lease, c->blocked ? ", blocked by a write" : "");
    ctrl_dump_tbes(b, out, dump_mshr);
    ctrl_l2_dump_pipe(b, out);
}

/* ---- construction ---- */

static uint64_t stat_lease(const struct ctrl *b)
{
    return (uint64_t)((const struct tc_l2 *)b)->lease;
}

static uint64_t stat_lease_avg(const struct ctrl *b)
{
    const struct tc_l2 *c = (const struct tc_l2 *)b;
    return c->st.leases ? c->st.lease_sum / c->st.leases : (uint64_t)c->lease;
}

static const struct ctrl_stat tc_l2_stat_rows[] = {
    CTRL_STATS_L2_ACCESSES,
    CTRL_STAT_OWN(struct l2_stats, private_writes),
    CTRL_STAT_OWN(struct l2_stats, gwct_writes),
    CTRL_STAT_OWN(struct l2_stats, datag),
    CTRL_STAT_OWN(struct l2_stats, writes_stalled),
    CTRL_STAT_OWN(struct l2_stats, write_stall_cycles),
    CTRL_STAT_OWN(struct l2_stats, mi_entries),
    CTRL_STAT_OWN(struct l2_stats, mi_expired),
    CTRL_STAT_OWN(struct l2_stats, reads_expired_copy),
    CTRL_STAT_OWN(struct l2_stats, reads_expired_line),
    CTRL_STAT_OWN(struct l2_stats, reads_expired_both),
    CTRL_STAT_OWN(struct l2_stats, writes_unexpired),
    CTRL_STAT_FN("lease", stat_lease),
    CTRL_STAT_FN("lease_avg", stat_lease_avg),
    CTRL_STAT_BASE(resource_stalls),
    CTRL_STAT_BASE(protocol_stalls),
    CTRL_STAT_END,
};

static struct comp *create(const struct ctrl_wiring *w, const struct coh_table *t,
                           enum tc_variant v)
{
    struct tc_l2 *c = ctrl_alloc(sizeof *c);
    c->v = v;
    ctrl_l2_init(&c->base, w, t, tc_l2_tick, tc_l2_dump, 0x7c00);
    ctrl_set_stats(&c->base, tc_l2_stat_rows, &c->st);
    c->core_ps = clock_period_ps(w->cfg->gpu.core_mhz);
    c->next_due = UINT64_MAX;
    const struct tc_spec *tc = tc_spec_of(w->cfg);
    uint32_t fixed;
    c->fixed = tc_lease_fixed(w->cfg, v, &fixed);
    c->lease = c->fixed ? fixed : MAX(tc->lease_min, MIN(tc->lease_max, tc->lease_init));
    c->lease_min = tc->lease_min;
    c->lease_max = tc->lease_max;
    c->t_hit = tc->t_hit;
    c->t_evict = tc->t_evict;
    c->t_write = tc->t_write;
    c->t_write_when = tc->t_write_when;
    c->bank_scope = tc->stall_scope == 0;
    c->private_safe = tc->private_rule == 0;
    c->retained_safe = tc->retained == 0;
    c->load_gwct = tc->load_gwct;
    if (w->obs)
        tc_obs_bank(w->proto_ctx, w->index, &c->base.comp);
    return &c->base.comp;
}

struct comp *tcs_l2_create(const struct ctrl_wiring *w)
{
    return create(w, &tcs_l2_table, TC_STRONG);
}

struct comp *tcw_l2_create(const struct ctrl_wiring *w)
{
    return create(w, &tcw_l2_table, TC_WEAK);
}

/* tcs-nowait: TC-Strong whose bank performs and acknowledges a write or atomic
 * at once, leases still running (test only: gpucoh verify must catch it). */
static struct comp *tcs_nowait_l2_create(const struct ctrl_wiring *w)
{
    struct comp *cp = create(w, &tcs_l2_table, TC_STRONG);
    ((struct tc_l2 *)cp)->bug_write_no_wait = true;
    return cp;
}

void tc_l2_destroy(struct comp *cp)
{
    struct tc_l2 *c = (struct tc_l2 *)cp;
    if (c->base.w.obs)
        tc_obs_bank_gone(c->base.w.proto_ctx, c->base.w.index);
    ctrl_destroy(cp);
}

/* The line's state as the protocol sees it now (time may have moved it). */
static unsigned live_state(struct tc_l2 *c, addr_t line)
{
    struct coh_ctx x;
    lookup(c, &x, line);
    if (due(c, &x))
        return x.state == L2_MI ? L2_I : x.state == L2_S_W ? L2_S_W : L2_E;
    return x.state;
}

/* Host access between kernels: the line's current value is in the data array
 * if present, else in DRAM (an MI line was written back). L1 copies are not
 * told: every L1 flash-invalidates at the next launch. */
void tc_l2_dma(struct comp *cp, addr_t line, uint8_t *buf, const struct bytemask *wmask)
{
    struct tc_l2 *c = (struct tc_l2 *)cp;
    unsigned s = live_state(c, line);
    ctrl_l2_dma(&c->base, line, buf, wmask, s, busy(s));
}

unsigned tc_l2_peek(struct comp *cp, addr_t line, uint8_t *data, bool *has_data)
{
    struct tc_l2 *c = (struct tc_l2 *)cp;
    ctrl_copy_line(&c->base, line, data, has_data);
    return live_state(c, line);
}

void tc_l2_view(struct comp *cp, struct tc_l2_view *v)
{
    struct tc_l2 *c = (struct tc_l2 *)cp;
    *v = (struct tc_l2_view){
        .lease = c->lease, .next_due = c->next_due, .blocked = c->blocked != NULL};
}

bool tc_l2_gts(struct comp *cp, addr_t line, uint64_t *gts)
{
    struct tc_l2 *c = (struct tc_l2 *)cp;
    struct cache_line *l = cache_find(&c->base.cache, line);
    struct tbe *t = tbe_find(&c->base.tbes, line);
    if (t && (t->state == L2_MI || ((t->state == L2_IS || t->state == L2_IM) && KEPT(t)))) {
        *gts = l ? MAX(GTS(l), KEPT(t)) : KEPT(t);
        return true;
    }
    if (l && l->state != L2_IS && l->state != L2_IM) {
        *gts = GTS(l);
        return true;
    }
    return false;
}

/* A write (tcs) or a fence (tcw) may wait for the longest lease to expire: a
 * lease the starvation watchdog would take for a hang is refused before the run. */
static const char *tc_check(const struct machine_view *c, char *why, size_t len)
{
    const struct tc_spec *tc = tc_spec_of(c);
    uint32_t n = 0;
    int form = coh_lease_parse(tc->lease, tc_lease_words, 0, TC_LEASE_MAX, &n);
    bool tcs = !strncmp(c->coherence.protocol, "tcs", 3); /* tcs-nowait too */
    const char *key = "tc.lease sim.starvation_cycles";
    if (form != COH_LEASE_FIXED) { /* the predictor's leases stay within lease_max */
        n = tcs && form == 0 ? 800 : tc->lease_max; /* auto: tcs fixed:800, tcw predict */
        key = form == 0 && tcs ? NULL : "tc.lease_max tc.lease sim.starvation_cycles";
    }
    uint64_t limit = c->sim.starvation_cycles;
    if (key && limit && n >= limit) {
        snprintf(why, len,
                 "a lease of %u cycles: a write or fence may wait that long for leases "
                 "to expire, which sim.starvation_cycles (%llu) would stop as a hang; shorten "
                 "the lease or raise sim.starvation_cycles",
                 n, (unsigned long long)limit);
        return key;
    }
    return NULL;
}

static const struct coh_table *const tcs_tables[] = {&tcs_l1_table, &tcs_l2_table, NULL};
static const struct coh_table *const tcw_tables[] = {&tcw_l1_table, &tcw_l2_table, NULL};

/* Symmetry over the L1s (struct proto_symmetry): nothing in a bank names an
 * L1 (OWNER is one bit: a private write is recognised by its timestamp, not
 * by its sender), so only the messages' ends do. The seeded bugs (a bank that
 * never stalls a write, L1s whose fences ignore the GWCT) treat every L1 alike. */
static const struct proto_symmetry tc_symmetry = {
    .up = PROTO_MSG_BIT(MSG_TC_GETS) | PROTO_MSG_BIT(MSG_TC_GETX) | PROTO_MSG_BIT(MSG_TC_UPGR) |
          PROTO_MSG_BIT(MSG_TC_ATOMIC),
    .down = PROTO_MSG_BIT(MSG_TC_DATA) | PROTO_MSG_BIT(MSG_TC_ACK) | PROTO_MSG_BIT(MSG_TC_DATAG) |
            PROTO_MSG_BIT(MSG_TC_ATOMRSP),
    .data_blind = true,
};

/* What `gpucoh verify` reads (struct proto_verify; docs/verify.md, "Time"):
 * time is leases in core cycles. An L1 line's meta[0] is its local timestamp
 * (compared only with now), meta[1] the VM writer; a bank line's meta[0] the
 * global timestamp (a read maxes it with the lease end it asks for, both may
 * have passed: their order counts), meta[1] the owner bit, meta[2] the latest
 * write's GWCT; an MSHR's meta[0] the kept timestamp, meta[1] when an S_W
 * write began to wait (a statistic). TC-Strong performs a write only once no
 * valid (V) copy holds a lease; TC-Weak's fences wait for the GWCT instead.
 * On the rig leases are whole ticks: TC-Strong's --lease ticks, TC-Weak's
 * predictor's between one tick and --lease, a tick a step. */
#define TC_VERIFY                                                                                  \
    .time = PROTO_TIME_LEASES, .l1_line = {PROTO_WORD_EXPIRY, PROTO_WORD_PLAIN, PROTO_WORD_PLAIN}, \
    .l2_line = {PROTO_WORD_ORDERED, PROTO_WORD_PLAIN, PROTO_WORD_EXPIRY},                          \
    .l2_tbe = {PROTO_WORD_EXPIRY, PROTO_WORD_UNREAD}
static const char *const tcs_rig[] = {"tc.lease=fixed:{lease_ticks}", NULL};
static const char *const tcw_rig[] = {"tc.lease=predict",    "tc.lease_init={lease_ticks}",
                                      "tc.lease_min={tick}", "tc.lease_max={lease_ticks}",
                                      "tc.t_hit={tick}",     "tc.t_evict={tick}",
                                      "tc.t_write={tick}",   NULL};
static const struct proto_verify tcs_verify = {TC_VERIFY, .l1_leased = "V", .lease_exclusive = true,
                                               .rig_sets = tcs_rig};
static const struct proto_verify tcw_verify = {TC_VERIFY, .writer_fence = true,
                                               .rig_sets = tcw_rig};

const struct proto_desc proto_tcs = {
    .options = &tc_options,
    .name = "tcs",
    .title = "TC-Strong: write-through L1s with leases; the L2 stalls a write until every "
             "lease has expired (write-atomic)",
    .model = MODEL_PTX,
    .write_atomic = true,
    .check = tc_check,
    .n_vnets = TC_NVNETS,
    .vnet_names = tc_vnet_names,
    .tables = tcs_tables,
    .n_l1_tables = 1,
    .l1 = {tcs_l1_create, ctrl_connect, ctrl_in_port, tc_l1_destroy, NULL, tc_l1_peek, ctrl_stats},
    .attach = tc_obs_attach,
    .detach = tc_obs_detach,
    .l2 = {tcs_l2_create, ctrl_l2_connect, ctrl_in_port, tc_l2_destroy, tc_l2_dma, tc_l2_peek,
           ctrl_stats},
    .symmetry = &tc_symmetry,
    .verify = &tcs_verify,
};

const struct proto_desc proto_tcw = {
    .options = &tc_options,
    .name = "tcw",
    .title = "TC-Weak: write-through L1s with leases; writes never stall, fences wait for the "
             "Global Write Completion Time (RCpc)",
    .model = MODEL_PTX,
    .check = tc_check,
    .n_vnets = TC_NVNETS,
    .vnet_names = tc_vnet_names,
    .tables = tcw_tables,
    .n_l1_tables = 1,
    .l1 = {tcw_l1_create, ctrl_connect, ctrl_in_port, tc_l1_destroy, NULL, tc_l1_peek, ctrl_stats},
    .attach = tc_obs_attach,
    .detach = tc_obs_detach,
    .l2 = {tcw_l2_create, ctrl_l2_connect, ctrl_in_port, tc_l2_destroy, tc_l2_dma, tc_l2_peek,
           ctrl_stats},
    .symmetry = &tc_symmetry,
    .verify = &tcw_verify,
};

const struct proto_desc proto_tcs_nowait = {
    .options = &tc_options,
    .name = "tcs-nowait",
    .title = "tcs with a deliberate bug for testing the checkers: the bank performs and "
             "acknowledges a write at once, leases on its line still running",
    .test_only = true,
    .model = MODEL_PTX,
    .write_atomic = true,
    .check = tc_check,
    .n_vnets = TC_NVNETS,
    .vnet_names = tc_vnet_names,
    .tables = tcs_tables,
    .n_l1_tables = 1,
    .l1 = {tcs_l1_create, ctrl_connect, ctrl_in_port, tc_l1_destroy, NULL, tc_l1_peek, ctrl_stats},
    .attach = tc_obs_attach,
    .detach = tc_obs_detach,
    .l2 = {tcs_nowait_l2_create, ctrl_l2_connect, ctrl_in_port, tc_l2_destroy, tc_l2_dma,
           tc_l2_peek, ctrl_stats},
    .symmetry = &tc_symmetry,
    .verify = &tcs_verify,
};

const struct proto_desc proto_tcw_nogwct = {
    .options = &tc_options,
    .name = "tcw-nogwct",
    .title = "tcw with a deliberate bug for testing the checkers: fences and releases do not "
             "wait for the Global Write Completion Time",
    .test_only = true,
    .model = MODEL_PTX,
    .check = tc_check,
    .n_vnets = TC_NVNETS,
    .vnet_names = tc_vnet_names,
    .tables = tcw_tables,
    .n_l1_tables = 1,
    .l1 = {tcw_nogwct_l1_create, ctrl_connect, ctrl_in_port, tc_l1_destroy, NULL, tc_l1_peek,
           ctrl_stats},
    .attach = tc_obs_attach,
    .detach = tc_obs_detach,
    .l2 = {tcw_l2_create, ctrl_l2_connect, ctrl_in_port, tc_l2_destroy, tc_l2_dma, tc_l2_peek,
           ctrl_stats},
    .symmetry = &tc_symmetry,
    .verify = &tcw_verify,
};
