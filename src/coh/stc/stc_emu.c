/*
 * stc_emu.c - the epoch management unit of spatiotemporal coherence (spec 000
 * §2.3, §2.8-2.10, Fig. 5).
 *
 * One per GPU, on its own clock (stc.emu_mhz), linked to every CU's L1 by a
 * port each way (stc.link_cycles). Each EMU cycle it takes one message in
 * (round robin over the CUs) and sends one out, so a broadcast to n CUs takes
 * n cycles and a transition's cost grows with the CU count (spec 000 §2.4:
 * 36 core cycles at 8 CUs, 79 at 32). It wakes every stc.period_cycles (a
 * free-running timer; a wake-up during a transition is taken at the first
 * one after it) and decides the next grant:
 *   stc-nv  the next epoch in turn, always (while any CU is busy);
 *   stc-es  the next epoch with demand after the current one, round robin;
 *           none: the epoch stays (spec 000 §7.2d): the EMU does not wake;
 *   stc-ab  ES, and ChangeEpoch also carries the start epoch bit that
 *           EpochConflicts moved (one bit per transition);
 *   stc-mb  AB granting the next stc.mb_width demanded bands at once.
 * A grant runs the handshake PrepareEpochChange -> every ReadyAck ->
 * ChangeEpoch -> every DoneAck (-> EpochStart, safe form). A DoneAck carries
 * the CU's new epoch set and SEB; the EMU checks they equal the grant (ER3).
 * Demand for a band that is current when the EMU decides is dropped: its
 * stores issue in this epoch, and any still blocked are demanded again after
 * the next ChangeEpoch (stc_l1.c). An SEB change clears the ERV for the same
 * reason (its bands move). Between kernels nothing is demanded and the EMU
 * sleeps; under NV it cycles while any CU reports itself busy (a kernel
 * running or stores blocked), the stand-in for the paper's free-running
 * timer, since the simulator spends no time between kernels.
 * With --check the observer asks the EMU, for every write an L2 performs,
 * whether the write's band is granted and no transition is under way (I-ER2).
 * The EMU's phases are a transition table (stc.EMU) run by the protocol
 * engine (coh.h) like any controller's: the classifier maps a CU's message,
 * or a wake-up of the timer, to an event; the cells' actions do the work;
 * a message the phase cannot take (a ReadyAck outside a transition) is a
 * protocol hole, a simulator fault with the EMU's dump (exit 3). Its
 * coverage is the protocol's third table's (stc_tables in stc_l1.c).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "coh/stc/stc.h"
#include "mem/observe.h"

struct emu_stats {
    uint64_t wakeups, transitions, transition_cycles, bands_granted;
    uint64_t skipped;      /* wake-ups that kept the epoch: none (Idle+Keep is a hole); emitted
                              for the statistics' layout */
    uint64_t ready_cycles; /* of transition_cycles: PrepareEpochChange to the last
                              ReadyAck (the CUs' outstanding writes draining) */
    uint64_t demands, conflicts, seb_changes, msgs_in, msgs_out;
};

struct emu {
    struct comp comp;
    enum stc_variant variant;
    struct stc_spec spec;
    struct pool *msgs;
    struct observer *obs;
    unsigned n; /* CUs */
    struct port **to_l1, **from_l1;
    unsigned rr;         /* next CU port to take a message from */
    struct msg_list out; /* messages to send, one a cycle (dst = CU) */
    struct coh_cov *cov; /* the stc.EMU table's coverage */
    unsigned phase;      /* its state (EMU_Idle, EMU_Prepare, EMU_Change) */
    unsigned acks;       /* ReadyAcks or DoneAcks so far */
    uint32_t grant;      /* the epoch set in force (or being installed) */
    unsigned ptr;        /* round-robin pointer: the last band granted */
    unsigned seb, seb_next;
    uint32_t erv;         /* epoch request vector: demand bits */
    addr_t erv_addr[32];  /* the last demand's write address per band (AB) */
    uint32_t erv_known;   /* bands whose erv_addr holds one under this SEB */
    uint64_t round;       /* transitions that grant every band once: epochs/width */
    unsigned busy;        /* NV: CUs busy */
    uint64_t since_remap; /* transitions since the SEB last moved */
    tick_t core_ps, period_ps;
    tick_t msg_ps;            /* one message in (or out) takes this long */
    tick_t next_in, next_out; /* the next message may be taken / sent then */
    tick_t next_wake;         /* no decision before this (the last transition's end) */
    tick_t wake_at;           /* the wake-up that decides next (0: none due) */
    tick_t started;           /* when the transition under way began */
    uint32_t line_bytes;
    bool bug_first_ready; /* stc-es-oneack (test only): ChangeEpoch after the first
                             ReadyAck */
    /* the observer's view: writes may reach an L2 (band in check_grant under
     * check_seb) unless a transition is between its last ReadyAck and its
     * EpochStart (safe form) */
    bool writable;
    uint32_t check_grant;
    unsigned check_seb;
    struct emu_stats st;
};

static struct emu *emu_of(void *p)
{
    return p;
}

static void send(struct emu *e, unsigned cu, uint16_t type, uint64_t ts, uint64_t ts2)
{
    struct msg *m = msg_new(e->msgs, type, 0, e->comp.eng->now);
    m->dst = (uint16_t)cu;
    m->ts = ts;
    m->ts2 = ts2;
    m->size_bytes = STC_MSG_BYTES;
    msg_list_push(&e->out, m);
}

static void broadcast(struct emu *e, uint16_t type, uint64_t ts, uint64_t ts2)
{
    for (unsigned i = 0; i < e->n; i++)
        send(e, i, type, ts, ts2);
}

/* The next band after `from` in round-robin order with a bit in `w`
 * (`from` itself last); -1 when w is empty. */
static int next_set(uint32_t w, unsigned from, unsigned epochs)
{
    for (unsigned k = 1; k <= epochs; k++) {
        unsigned b = (from + k) & (epochs - 1);
        if ((w >> b) & 1)
            return (int)b;
    }
    return -1;
}

/* ---- the table ---- */

#define EMU_STATES(X)                                                                              \
    X(Idle, "an epoch (set) is in force; the timer wakes the EMU while there is demand beyond "    \
            "it or a moved SEB (NV: while a CU is busy)")                                          \
    X(Prepare, "PrepareEpochChange sent: collecting ReadyAcks (the CUs' writes draining)")         \
    X(Change, "ChangeEpoch sent: collecting DoneAcks")

#define EMU_EVENTS(X)                                                                              \
    X(Grant, "wake-up with bands to grant under the SEB in force (NV: the next epoch in turn)")    \
    X(Remap, "wake-up with the SEB moved by EpochConflicts: the grant (the bands demanded, else "  \
             "the set in force) carries the new SEB")                                              \
    X(Keep, "wake-up with no band demanded beyond the set in force and the SEB unchanged (the "    \
            "timer does not wake the EMU then: a hole)")                                           \
    X(Ready, "ReadyAck with more to come")                                                         \
    X(LastReady, "the last CU's ReadyAck: every CU has PW = 0 and holds its stores")               \
    X(Done, "DoneAck with more to come (its epoch set and SEB equal the grant: ER3)")              \
    X(LastDone, "the last CU's DoneAck")                                                           \
    X(Demand, "EpochDemand under the SEB in force (ES, AB, MB)")                                   \
    X(DemandMoved,                                                                                 \
      "EpochDemand under an older SEB: its band has moved, the CU demands again "                  \
      "(only during a transition that moves the SEB: a CU's link keeps order, and its "            \
      "DoneAck follows what it sent under the old SEB)")                                           \
    X(Conflict, "EpochConflict under the SEB in force (AB, MB)")                                   \
    X(ConflictMoved, "EpochConflict under an older SEB: its bands have moved (as DemandMoved)")    \
    X(Busy, "NV: a CU reports a kernel running or stores blocked")                                 \
    X(Quiet, "NV: a busy CU reports itself idle")

#define X(n, d) EMU_##n,
enum emu_state { EMU_STATES(X) EMU_NSTATES };
enum emu_event { EMU_EVENTS(X) EMU_NEVENTS };
#undef X
COH_NAMES(EMU_STATES, EMU_EVENTS);

static struct emu *emu_of_ctx(struct coh_ctx *x)
{
    return x->ctrl;
}

static void count_wakeup(struct coh_ctx *x)
{
    emu_of_ctx(x)->st.wakeups++;
}

/* The next grant: NV the next epoch in turn; ES and AB the next demanded
 * band after the last one granted, MB up to stc.mb_width of them; none
 * (only the SEB moves): the set in force again. */
static void pick_bands(struct coh_ctx *x)
{
    struct emu *e = emu_of_ctx(x);
    uint32_t grant = 0;
    if (e->variant == STC_NV) {
        e->ptr = (e->ptr + 1) & (e->spec.epochs - 1);
        grant = 1u << e->ptr;
    } else {
        e->erv &= ~e->grant; /* served by the epoch in force (stc_l1.c re-demands leftovers) */
        unsigned width = e->variant == STC_MB ? e->spec.mb_width : 1;
        int b = next_set(e->erv, e->ptr, e->spec.epochs);
        for (unsigned k = 0; k < width && b >= 0; k++) {
            grant |= 1u << b;
            e->erv &= ~(1u << b);
            e->ptr = (unsigned)b;
            b = next_set(e->erv, e->ptr, e->spec.epochs);
        }
        if (!grant)
            grant = e->grant; /* only the SEB moves */
    }
    e->grant = grant;
    e->since_remap++;
}

/* The SEB that EpochConflicts chose takes effect with this grant. */
static void move_seb(struct coh_ctx *x)
{
    struct emu *e = emu_of_ctx(x);
    e->seb = e->seb_next;
    e->since_remap = 0;
    e->st.seb_changes++;
    e->erv = e->erv_known = 0; /* its bands moved: the CUs demand again after ChangeEpoch */
}

static void send_prepare(struct coh_ctx *x)
{
    struct emu *e = emu_of_ctx(x);
    e->acks = 0;
    e->started = e->comp.eng->now;
    e->st.transitions++;
    e->st.bands_granted += (uint64_t)__builtin_popcount(e->grant);
    broadcast(e, MSG_STC_PREPARE, 0, 0);
}

static void count_ack(struct coh_ctx *x)
{
    emu_of_ctx(x)->acks++;
}

static void send_change(struct coh_ctx *x)
{
    struct emu *e = emu_of_ctx(x);
    e->st.ready_cycles += (e->comp.eng->now - e->started) / e->core_ps;
    e->acks = 0;
    broadcast(e, MSG_STC_CHANGE, e->grant, e->seb);
    e->writable = e->spec.epoch_start == 1; /* paper: CUs write once switched */
    e->check_grant = e->grant;
    e->check_seb = e->seb;
}

static void end_transition(struct coh_ctx *x)
{
    struct emu *e = emu_of_ctx(x);
    e->writable = true; /* no CU writes before its EpochStart */
    if (e->spec.epoch_start == 0)
        broadcast(e, MSG_STC_START, 0, 0);
    e->st.transition_cycles += (e->comp.eng->now - e->started) / e->core_ps;
    e->next_wake = e->comp.eng->now;
}

static void record_demand(struct coh_ctx *x)
{
    struct emu *e = emu_of_ctx(x);
    unsigned b = (unsigned)x->msg->ts;
    if (!((e->erv >> b) & 1))
        e->erv_addr[b] = x->msg->addr; /* the first write since the band's last grant */
    e->erv |= 1u << b;
    e->erv_known |= 1u << b;
}

static void ack_demand(struct coh_ctx *x)
{
    struct emu *e = emu_of_ctx(x);
    e->st.demands++;
    send(e, x->msg->sharer, MSG_STC_DEMAND_ACK, 0, 0);
}

static void count_conflict(struct coh_ctx *x)
{
    emu_of_ctx(x)->st.conflicts++;
}

/* Adaptive bands (spec 000 §2.9): a read R of a band with a blocked write W
 * moves the start epoch bit one step, taking effect at the next ChangeEpoch. */
static void steer_seb(struct coh_ctx *x)
{
    struct emu *e = emu_of_ctx(x);
    unsigned b = (unsigned)x->msg->ts;
    addr_t r = x->msg->addr;
    if (!((e->erv_known >> b) & 1))
        return;
    addr_t w = e->erv_addr[b], d = r ^ w;
    unsigned nbits = (unsigned)__builtin_ctz(e->spec.epochs);
    unsigned hi = e->spec.seb_max;
    int step = 0;
    if (e->spec.ab_rule == 0 && e->since_remap < e->round)
        return; /* safe: the mapping holds for a round of grants, so every band with blocked
                   stores is granted before it moves again (no starvation by oscillation) */
    if (e->spec.ab_rule == 1) { /* paper: lower bits differ -> down, else up */
        step = (d & (((addr_t)1 << e->seb) - 1)) ? -1 : 1;
    } else { /* safe: by the highest differing bit, inside the address */
        hi = MIN(hi, e->spec.addr_bits - nbits);
        if (d < e->line_bytes &&
            (r & ~(addr_t)(e->line_bytes - 1)) == (w & ~(addr_t)(e->line_bytes - 1)))
            return; /* one line: true sharing no remap can separate */
        unsigned h = d ? 63u - (unsigned)__builtin_clzll(d) : 0;
        if (h >= e->seb + nbits)
            step = 1;
        else if (h < e->seb)
            step = -1;
    }
    if (step > 0 && e->seb < hi)
        e->seb_next = e->seb + 1;
    else if (step < 0 && e->seb > e->spec.seb_min)
        e->seb_next = e->seb - 1;
}

static void count_busy(struct coh_ctx *x)
{
    emu_of_ctx(x)->busy++;
}

static void count_quiet(struct coh_ctx *x)
{
    emu_of_ctx(x)->busy--;
}

static const struct coh_action_name actions[] = {
    {count_wakeup, "count_wakeup", "count the wake-up"},
    {pick_bands, "pick_bands",
     "the next grant: NV the next epoch; else the demanded bands after the last granted, round "
     "robin (MB: up to stc.mb_width), taken off the ERV; none: the set in force"},
    {move_seb, "move_seb", "the SEB becomes the one EpochConflicts chose; the ERV is cleared"},
    {send_prepare, "send_prepare", "broadcast PrepareEpochChange; ReadyAcks counted from 0"},
    {count_ack, "count_ack", "one more ReadyAck or DoneAck"},
    {send_change, "send_change",
     "broadcast ChangeEpoch(grant, SEB); DoneAcks counted from 0; the observer's grant (paper "
     "form: writes allowed once switched)"},
    {end_transition, "end_transition",
     "broadcast EpochStart (safe form); writes allowed; no wake-up before the next period tick"},
    {record_demand, "record_demand", "set the band's ERV bit (and the first write's address)"},
    {ack_demand, "ack_demand", "send EpochDemandAck to the CU"},
    {count_conflict, "count_conflict", "count the EpochConflict"},
    {steer_seb, "steer_seb",
     "move the next SEB one step (stc.ab_rule) if the read and the band's "
     "blocked write can be separated"},
    {count_busy, "count_busy", "one more busy CU"},
    {count_quiet, "count_quiet", "one fewer busy CU"},
    {0},
};

/*  state          event               next          uses  actions                              */
static const struct coh_trans emu_cells[EMU_NSTATES][EMU_NEVENTS] = {
    [EMU_Idle][EMU_Grant] = DO(EMU_Prepare, 0, count_wakeup, pick_bands, send_prepare),
    [EMU_Idle][EMU_Remap] = DO(EMU_Prepare, 0, count_wakeup, pick_bands, move_seb, send_prepare),
    [EMU_Idle][EMU_Demand] = DO(EMU_Idle, 0, record_demand, ack_demand),
    [EMU_Idle][EMU_Conflict] = DO(EMU_Idle, 0, count_conflict, steer_seb),
    [EMU_Idle][EMU_Busy] = DO(EMU_Idle, 0, count_busy),
    [EMU_Idle][EMU_Quiet] = DO(EMU_Idle, 0, count_quiet),
    [EMU_Prepare][EMU_Ready] = DO(EMU_Prepare, 0, count_ack),
    [EMU_Prepare][EMU_LastReady] = DO(EMU_Change, 0, count_ack, send_change),
    [EMU_Prepare][EMU_Demand] = DO(EMU_Prepare, 0, record_demand, ack_demand),
    [EMU_Prepare][EMU_DemandMoved] = DO(EMU_Prepare, 0, ack_demand),
    [EMU_Prepare][EMU_Conflict] = DO(EMU_Prepare, 0, count_conflict, steer_seb),
    [EMU_Prepare][EMU_ConflictMoved] = DO(EMU_Prepare, 0, count_conflict),
    [EMU_Prepare][EMU_Busy] = DO(EMU_Prepare, 0, count_busy),
    [EMU_Prepare][EMU_Quiet] = DO(EMU_Prepare, 0, count_quiet),
    [EMU_Change][EMU_Done] = DO(EMU_Change, 0, count_ack),
    [EMU_Change][EMU_LastDone] = DO(EMU_Idle, 0, count_ack, end_transition),
    [EMU_Change][EMU_Demand] = DO(EMU_Change, 0, record_demand, ack_demand),
    [EMU_Change][EMU_DemandMoved] = DO(EMU_Change, 0, ack_demand),
    [EMU_Change][EMU_Conflict] = DO(EMU_Change, 0, count_conflict, steer_seb),
    [EMU_Change][EMU_ConflictMoved] = DO(EMU_Change, 0, count_conflict),
    [EMU_Change][EMU_Busy] = DO(EMU_Change, 0, count_busy),
    [EMU_Change][EMU_Quiet] = DO(EMU_Change, 0, count_quiet),
    /* every cell not listed is a protocol hole: a wake-up during a transition or with nothing
       to do, a ReadyAck outside Prepare, a DoneAck outside Change, a message under an older
       SEB once every CU has switched */
};

static void set_state(struct coh_ctx *x, unsigned next)
{
    emu_of_ctx(x)->phase = next;
}

static void emu_dump(struct comp *cp, FILE *out);

static void dump_ctx(struct coh_ctx *x, FILE *out)
{
    struct emu *e = emu_of_ctx(x);
    if (x->msg)
        fprintf(out, "  from CU %u\n", x->msg->sharer);
    emu_dump(&e->comp, out);
}

const struct coh_table stc_emu_table = COH_TABLE("stc", "EMU", emu_cells, set_state, dump_ctx);

/* ---- the classifier: the only place with protocol `if`s ---- */

/* The wake-up's event (the tick wakes the EMU only in Idle). */
static unsigned classify_wakeup(const struct emu *e)
{
    if (e->seb_next != e->seb)
        return EMU_Remap;
    if (e->variant != STC_NV && !(e->erv & ~e->grant))
        return EMU_Keep;
    return EMU_Grant;
}

/* A CU's message's event; checks what the message itself promises. */
static unsigned classify_msg(const struct emu *e, const struct msg *m)
{
    unsigned cu = m->sharer;
    switch (m->type) {
    case MSG_STC_READY:
        return e->acks + 1 == e->n || (e->bug_first_ready && e->acks == 0) ? EMU_LastReady
                                                                           : EMU_Ready;
    case MSG_STC_DONE:
        if (e->phase == EMU_Change && (m->ts != e->grant || m->ts2 != e->seb))
            panic("%s: invariant ER3: CU %u switched to epoch set %#llx SEB %llu, granted %#x "
                  "SEB %u",
                  e->comp.name, cu, (unsigned long long)m->ts, (unsigned long long)m->ts2, e->grant,
                  e->seb);
        return e->acks + 1 == e->n ? EMU_LastDone : EMU_Done;
    case MSG_STC_DEMAND:
        return m->ts2 == e->seb ? EMU_Demand : EMU_DemandMoved;
    case MSG_STC_CONFLICT:
        return m->ts2 == e->seb ? EMU_Conflict : EMU_ConflictMoved;
    case MSG_STC_ACTIVE:
        panic_if(!m->ts && !e->busy, "%s: CU %u idle twice", e->comp.name, cu);
        return m->ts ? EMU_Busy : EMU_Quiet;
    default:
        panic("%s: unknown message type %u from CU %u", e->comp.name, m->type, cu);
    }
}

static void step(struct emu *e, struct msg *m, unsigned event)
{
    struct coh_ctx x = {
        .ctrl = e,
        .ctrl_name = e->comp.name,
        .eng = e->comp.eng,
        .addr = m ? m->addr : 0,
        .msg = m,
        .state = e->phase,
        .event = event,
    };
    coh_step(&stc_emu_table, e->cov, &x);
}

static void take(struct emu *e, struct msg *m)
{
    e->st.msgs_in++;
    step(e, m, classify_msg(e, m));
    msg_free(e->msgs, m);
}
static bool emu_tick(struct comp *cp)
{
    struct emu *e = emu_of(cp);
    tick_t now = cp->eng->now;
    bool moved = false;
    /* one message in, every stc.emu_msg_cycles (a message waiting for its
     * turn keeps the EMU ticking) */
    for (unsigned k = 0; k < e->n; k++) {
        unsigned i = (e->rr + k) % e->n;
        struct msg *m = port_peek(e->from_l1[i]);
        if (m) {
            moved = true;
            if (now < e->next_in)
                break;
            take(e, port_pop(e->from_l1[i]));
            e->rr = (i + 1) % e->n;
            e->next_in = now + e->msg_ps;
            break;
        }
    }
    /* one message out, likewise */
    if (e->out.n) {
        moved = true;
        if (now >= e->next_out) {
            struct msg *m = msg_list_pop(&e->out);
            if (!port_send(e->to_l1[m->dst], m))
                panic("%s: link to CU %u full", cp->name, m->dst);
            e->st.msgs_out++;
            e->next_out = now + e->msg_ps;
        }
    }
    if (e->phase == EMU_Idle && !e->out.n) {
        bool want =
            e->variant == STC_NV ? e->busy > 0 : (e->erv & ~e->grant) || e->seb_next != e->seb;
        if (want && (!e->wake_at || e->wake_at < e->next_wake)) { /* the next wake-up */
            tick_t from = MAX(now, e->next_wake);
            e->wake_at = (from + e->period_ps - 1) / e->period_ps * e->period_ps;
        }
        if (want && now >= e->wake_at) {
            e->wake_at = 0;
            step(e, NULL, classify_wakeup(e));
            moved = true;
        } else if (want && !moved) {
            comp_wake_at(cp, e->wake_at);
            return false;
        }
    }
    if (moved)
        return true;
    /* nothing to do: sleep until a CU's message arrives (its port wakes us);
     * re-arm ports whose head is not ready yet */
    for (unsigned i = 0; i < e->n; i++)
        if (e->from_l1[i]->n)
            comp_wake_at(cp, port_slot_at(e->from_l1[i], 0)->ready);
    return false;
}

static void emu_dump(struct comp *cp, FILE *out)
{
    struct emu *e = emu_of(cp);
    static const char *const phases[] = {"idle", "prepare", "change"};
    fprintf(out, "%s: %s, grant %#x seb %u (next %u), acks %u/%u, erv %#x, busy %u, %u to send\n",
            cp->name, phases[e->phase], e->grant, e->seb, e->seb_next, e->acks, e->n, e->erv,
            e->busy, e->out.n);
}

/* The observer's question for every write an L2 performs (--check). */
static void check_write(void *arg, addr_t line)
{
    struct emu *e = arg;
    unsigned b = stc_band(line, e->check_seb, e->spec.epochs);
    if (!e->writable || !((e->check_grant >> b) & 1))
        panic("%s: invariant I-ER2: write to %#llx (band %u) performed at the L2 %s (granted "
              "epoch set %#x)",
              e->comp.name, (unsigned long long)line, b,
              e->writable ? "outside its epoch" : "during an epoch transition", e->check_grant);
}

bool stc_emu_writable(const struct comp *cp, uint32_t *set, unsigned *seb)
{
    const struct emu *e = (const struct emu *)cp;
    *set = e->check_grant;
    *seb = e->check_seb;
    return e->writable;
}

enum stc_variant stc_variant_of(const char *proto)
{
    static const char *const names[] = {"stc-nv", "stc-es", "stc-ab", "stc-mb"};
    for (unsigned v = 0; v < ARRAY_LEN(names); v++)
        if (!strcmp(proto, names[v]))
            return (enum stc_variant)v;
    if (!strcmp(proto, "stc-es-oneack"))
        return STC_ES;
    panic("no STC variant %s", proto);
}

struct comp *stc_emu_create(const struct ctrl_wiring *w)
{
    struct emu *e = calloc(1, sizeof *e);
    if (!e)
        panic("out of memory");
    comp_init(&e->comp, w->eng, w->name, w->clk, emu_tick, emu_dump);
    e->variant = stc_variant_of(w->cfg->coherence.protocol);
    e->spec = *stc_spec_of(w->cfg);
    e->msgs = w->msgs;
    e->n = w->n_sms;
    e->grant = 1; /* epoch 0 */
    e->seb = e->seb_next = e->spec.seb;
    e->writable = true;
    e->check_grant = 1;
    e->round = e->spec.epochs / (e->variant == STC_MB ? MIN(e->spec.mb_width, e->spec.epochs) : 1);
    e->check_seb = e->seb;
    e->line_bytes = w->cfg->l1.cache.line_bytes;
    e->core_ps = clock_period_ps(w->cfg->gpu.core_mhz);
    e->period_ps = e->spec.period_cycles * e->core_ps;
    e->msg_ps = e->spec.emu_msg_cycles * w->clk->period_ps;
    e->cov = w->cov + STC_EMU_TABLE; /* the unit's wiring starts at the L1's table */
    if (e->cov->t != &stc_emu_table)
        panic("%s: coverage for table %s.%s, not stc.EMU", w->name, e->cov->t->proto,
              e->cov->t->ctrl);
    e->obs = w->obs;
    if (e->obs) {
        e->obs->on_write = check_write;
        e->obs->on_write_arg = e;
    }
    return &e->comp;
}

/* stc-es-oneack: STC-ES whose EMU sends ChangeEpoch after the first ReadyAck,
 * not every CU's (test only: gpucoh verify must catch it). */
struct comp *stc_es_oneack_emu_create(const struct ctrl_wiring *w)
{
    struct comp *cp = stc_emu_create(w);
    emu_of(cp)->bug_first_ready = true;
    return cp;
}

void stc_emu_view(struct comp *cp, struct stc_emu_view *v)
{
    struct emu *e = emu_of(cp);
    *v = (struct stc_emu_view){.phase = e->phase,
                               .acks = e->acks,
                               .ptr = e->ptr,
                               .seb = e->seb,
                               .seb_next = e->seb_next,
                               .busy = e->busy,
                               .rr = e->rr,
                               .check_seb = e->check_seb,
                               .grant = e->grant,
                               .erv = e->erv,
                               .erv_known = e->erv_known,
                               .check_grant = e->check_grant,
                               .erv_addr = e->erv_addr,
                               .since_remap = e->since_remap,
                               .round = e->round,
                               .out = &e->out,
                               .writable = e->writable,
                               .wake = !e->wake_at                  ? 0
                                       : e->wake_at <= cp->eng->now ? 1
                                                                    : 2,
                               .wake_stale = e->wake_at && e->wake_at < e->next_wake};
}

void stc_emu_connect(struct comp *cp, struct port *const *to_l1, struct port *const *from_l1)
{
    struct emu *e = emu_of(cp);
    e->to_l1 = calloc(e->n, sizeof *e->to_l1);
    e->from_l1 = calloc(e->n, sizeof *e->from_l1);
    if (!e->to_l1 || !e->from_l1)
        panic("out of memory");
    memcpy(e->to_l1, to_l1, e->n * sizeof *to_l1);
    memcpy(e->from_l1, from_l1, e->n * sizeof *from_l1);
}

void stc_emu_destroy(struct comp *cp)
{
    struct emu *e = emu_of(cp);
    struct msg *m;
    while ((m = msg_list_pop(&e->out)))
        msg_free(e->msgs, m);
    if (e->obs && e->obs->on_write_arg == e)
        e->obs->on_write = NULL;
    free(e->to_l1);
    free(e->from_l1);
    free(e);
}

void stc_emu_stats(struct comp *cp, void (*emit)(void *, const char *, uint64_t), void *arg)
{
    struct emu *e = emu_of(cp);
#define E(f) emit(arg, #f, e->st.f)
    E(wakeups);
    E(transitions);
    E(transition_cycles);
    E(ready_cycles);
    E(skipped);
    E(bands_granted);
    E(demands);
    E(conflicts);
    E(seb_changes);
    E(msgs_in);
    E(msgs_out);
#undef E
    emit(arg, "bytes", (e->st.msgs_in + e->st.msgs_out) * STC_MSG_BYTES);
    emit(arg, "seb", e->seb);
}

double stc_emu_mhz(const struct machine_view *cfg)
{
    return stc_spec_of(cfg)->emu_mhz;
}

uint32_t stc_link_cycles(const struct machine_view *cfg)
{
    return stc_spec_of(cfg)->link_cycles;
}
