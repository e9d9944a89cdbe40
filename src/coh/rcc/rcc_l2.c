/*
 * rcc_l2.c - the L2 bank of Relativistic Cache Coherence (`rccsc`, `rccwo`).
 *
 * Spec 004a §3.5-3.10 (thesis Fig. 3.5b). A write-back, write-allocate,
 * non-inclusive bank; atomics are performed here; one request per cycle in
 * order. Every line keeps `ver` (the logical time of its last write) and
 * `exp` (the largest lease it granted); the bank keeps `mnow`, the largest
 * ver/exp it has evicted (a bank is a memory partition here: each has its
 * own DRAM channel). States I, V, IV (read or write miss, fill outstanding),
 * IAV (atomic miss).
 *   GETS in V:   exp = max(exp, ver + lease, now + lease); RENEW{exp} if the
 *                copy the L1 still holds is current (M.exp > ver), else
 *                DATA{exp, ver}.
 *   WRITE in V:  ver = max(now, ver, exp + 1): past every lease, so it never
 *                waits; ACK{ver}. ATOMIC alike, DATA{ver} with the old values.
 *   evict:       mnow = max(mnow, exp, ver); no recall (copies expire alone).
 *   miss:        the MSHR notes lastrd/lastwr, the largest reader and writer
 *                clocks. A write is ACKed at once with ver = max(lastwr,
 *                mnow + 1) (spec 004a §9 items 1-2) and its bytes merged in
 *                arrival order into the MSHR (§9 item 3: writes that share a
 *                version are ordered by arrival); reads wait in the MSHR and
 *                are answered at the fill with every write merged by then;
 *                an atomic (IAV) holds the line until it is performed.
 *                DEVIATION: a write arriving while reads are held waits for
 *                the fill (parked, ACKed then), since the merged bytes
 *                would otherwise reach reads that came before it.
 *   fill:        ver = exp = mnow; after writes ver = max(lastwr, mnow + 1,
 *                every version ACKed); after reads exp = max(ver, lastrd) +
 *                lease; then the held requests are answered in order.
 * rcc.refill_version = paper uses the thesis's printed mnow instead of
 * mnow + 1, which lets a write version equal a lease still held in an L1.
 * Lease predictor (spec 004a §3.10 and §9 item 5; where it lives is
 * INFERRED): per line, in the tag: lease_max for a line fetched from DRAM,
 * lease_min after a write, doubled (capped) after each renewal; a renewal is
 * granted with the lease before the doubling. rcc.lease = fixed:N: always N.
 * Rollover (spec 004a §3.9): a bank that must store a timestamp past its
 * epoch of 2^rcc.ts_bits values raises every ver, exp, mnow and MSHR clock it
 * holds to the new epoch's base (the thesis's "set to 0") and starts the
 * stall ring: a STALL flit goes bank to bank (on the ring's links, ports of
 * rcc.ring_hop_cycles latency; each bank's part is the table rcc.Ring);
 * each bank it reaches rolls over likewise and stops taking requests (it
 * queues them, MSHRs and fills go on). When the flit is back, every bank has
 * stopped: the originator sends FLUSH to every L1 (each drops its copies and
 * moves its clock to the base, rcc_l1.c) and waits for every FLUSHED; then a
 * RESUME flit goes round and every bank takes its queued requests again.
 * A rollover asked for while one is under way follows it (the thesis: the
 * lowest partition id wins a tie). DEVIATION: messages carry full 64-bit
 * timestamps (in hardware: the epoch's low bit beside the stored width), so
 * a stamp of an older epoch still in flight (a response sent before the
 * stall) is told apart and never moves a clock back; an L1 whose clock
 * would cross the epoch end by itself (the livelock guard) rolls over alone.
 * INVARIANT: ver and exp of a line never decrease while it lives, and a
 *   refill's are >= mnow >= those of every eviction of it (spec 004a R1, R6).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "coh/rcc/rcc.h"
#include "mem/observe.h"
#include "coh/machine_view.h"
#include "coh/rcc/rcc_options.h"

#define RCC_L2_STATES(X)                                                                           \
    X(I, "not present")                                                                            \
    X(V, "valid: ver and exp kept in the tag")                                                     \
    X(IV, "read or write miss: fill from DRAM outstanding, reads held, writes ACKed and merged")   \
    X(IAV, "atomic miss: fill outstanding, every other request waits")

#define RCC_L2_EVENTS(X)                                                                           \
    X(GetS, "read from an L1")                                                                     \
    X(Renew, "read of a copy the L1 holds, not written since its lease (M.exp > ver)")             \
    X(Write, "write-through from an L1")                                                           \
    X(WriteAfterRead, "write to a missing line whose MSHR holds reads: waits for the fill")        \
    X(Atomic, "atomic")                                                                            \
    X(Replace, "a miss needs this line's way")                                                     \
    X(MemData, "fill from DRAM")

#define X(n, d) L2_##n,
enum l2_state { RCC_L2_STATES(X) L2_NSTATES };
enum l2_event { RCC_L2_EVENTS(X) L2_NEVENTS };
#undef X
COH_NAMES(RCC_L2_STATES, RCC_L2_EVENTS);

#define VER(l) ((l)->meta[0])
#define EXP(l) ((l)->meta[1])

const char *const rcc_vnet_names[RCC_NVNETS] = {"request", "response"};

/* An MSHR's clocks and the bytes of the writes it merged. */
struct rcc_mshr {
    uint64_t lastrd, lastwr, acked; /* largest reader / writer clock, version ACKed */
    bool hasread, haswrite;
    struct bytemask wmask;
    uint8_t wdata[LINE_MAX_BYTES];
};

struct l2_stats {
    uint64_t renewals, early_acks, rollovers, lease_sum, leases;
    uint64_t ring_rollovers, ring_stall_cycles;
};

/* The banks of one machine on the stall ring: RCC's per-machine context
 * (proto_desc.attach, ctrl_wiring.proto_ctx), which the observer reads too.
 * The ring's links are ports it owns: hop[i] carries the flit (a STALL or
 * RESUME message) from bank i to bank i + 1, with rcc.ring_hop_cycles as
 * its latency; bank i only sends into hop[i] and receives from hop[i - 1].
 * A link holds one flit (a second one on a hop is a protocol error), and
 * the message it carries is the link's own (flit[i]), not one from the
 * machine's pool: the ring is wires, not network traffic. */
struct ring {
    struct ctrl_bank_set set; /* the banks, in ring order (not in any list) */
    struct port *hop;         /* [n_banks]: bank i to bank i + 1 */
    struct msg *flit;         /* [n_banks]: the message hop[i] carries */
    bool busy;                /* a rollover is under way */
    unsigned origin;          /* ... started by this bank */
    uint64_t epoch;           /* ... moving everyone to this epoch */
    uint64_t again;           /* a later epoch asked for meanwhile (0: none) */
    unsigned flushed;         /* L1s that have answered FLUSH */
};

static void *rcc_attach(const struct ctrl_wiring *w)
{
    struct ring *r = calloc(1, sizeof *r);
    if (!r)
        panic("out of memory");
    r->set.eng = w->eng;
    r->set.n_banks = w->n_banks;
    r->set.banks = calloc(w->n_banks, sizeof *r->set.banks);
    r->hop = calloc(w->n_banks, sizeof *r->hop);
    r->flit = calloc(w->n_banks, sizeof *r->flit);
    if (!r->set.banks || !r->hop || !r->flit)
        panic("out of memory");
    return r;
}

static void rcc_detach(void *ctx)
{
    struct ring *r = ctx;
    for (unsigned i = 0; i < r->set.n_banks; i++)
        port_destroy(&r->hop[i]); /* a flit left on it is the link's own message */
    free(r->hop);
    free(r->flit);
    free(r->set.banks);
    free(r);
}

const struct ctrl_bank_set *rcc_banks(const void *ctx)
{
    return ctx ? &((const struct ring *)ctx)->set : NULL;
}

struct rcc_l2 {
    struct ctrl base;
    uint64_t mnow;
    unsigned ts_bits;
    uint64_t epoch;
    bool refill_paper; /* rcc.refill_version = paper */
    bool renew;
    bool bug_write_ignores_leases; /* rccsc-nolease (test only): ver = max(now, ver) */
    uint32_t fixed;                /* fixed lease, 0: the predictor */
    uint32_t lease_min;
    uint8_t levels;        /* predictor: lease_min << level, level <= levels */
    uint8_t *level;        /* per way of the cache */
    struct rcc_mshr *mshr; /* per TBE */
    uint64_t *granted;     /* per SM: the largest lease end sent it (rcc_l2_lease_mark) */
    struct ring *ring;
    struct port *ring_in;     /* the ring's link from the previous bank */
    struct port *ring_out;    /* ... to the next bank */
    struct msg *flit;         /* the message ring_out carries */
    uint8_t ring_state;       /* its state in the ring's table (rcc_ring_table) */
    bool stalled;             /* stopped by the ring (Stopped, Circling, Flushing): requests
                                 are queued in held */
    uint64_t asked;           /* the epoch of this bank's latest rollover */
    struct coh_cov *ring_cov; /* the ring's table's coverage */
    cycle_t stalled_since;
    struct msg_list held;
    struct msg_list flush_out; /* the originator's FLUSHes, waiting for room */
    struct l2_stats st;
};

static struct rcc_l2 *l2_of(struct coh_ctx *x)
{
    return x->ctrl;
}

static struct rcc_mshr *mshr_of(struct rcc_l2 *c, const struct tbe *t)
{
    return &c->mshr[t - c->base.tbes.e];
}

static uint8_t *level_of(struct rcc_l2 *c, const struct cache_line *l)
{
    return &c->level[l - c->base.cache.lines];
}

/* ---- time ---- */

static void raise_to(uint64_t *t, uint64_t base)
{
    *t = MAX(*t, base);
}

struct roll {
    uint64_t base;
};

static void roll_line(struct cache_line *l, void *arg)
{
    const struct roll *r = arg;
    raise_to(&VER(l), r->base);
    raise_to(&EXP(l), r->base);
}

/* Every stamp the bank keeps jumps to the base of epoch e (past its own). */
static void roll_bank(struct rcc_l2 *c, uint64_t e)
{
    struct roll r = {e << c->ts_bits};
    c->epoch = e;
    c->st.rollovers++;
    cache_for_each(&c->base.cache, roll_line, &r);
    raise_to(&c->mnow, r.base);
    for (uint32_t i = 0; i < c->base.tbes.cap; i++)
        if (c->base.tbes.e[i].used) {
            struct rcc_mshr *s = &c->mshr[i];
            raise_to(&s->lastrd, r.base);
            raise_to(&s->lastwr, r.base);
            raise_to(&s->acked, r.base);
        }
}

static void ring_rollover(struct rcc_l2 *c, uint64_t e);

/* Logical time t is about to be stored: past the bank's epoch, every stamp
 * it keeps jumps to the new epoch's base first, and the ring takes every
 * other bank and L1 there. Returns t. */
static uint64_t stamp(struct rcc_l2 *c, uint64_t t)
{
    uint64_t e = rcc_epoch(t, c->ts_bits);
    if (e <= c->epoch)
        return t;
    roll_bank(c, e);
    ring_rollover(c, e);
    return t;
}

/* ---- the stall ring: a table (rcc.Ring) ----
 * Each bank runs the ring's table beside its lines' (spec 004a §3.9): its
 * state is its part in the rollover under way. The flits travel on the
 * ring's links (struct ring's hop[]); the originator's FLUSHes go to the L1s
 * on the response vnet and their FLUSHEDs come back on the request vnet.
 * The ring's shared record (struct ring: busy, origin, epoch, again,
 * flushed) is the state of the rollover itself, which every bank's
 * classifier reads; only the actions of the bank the event happens at write
 * it. */

#define RING_STATES(X)                                                                             \
    X(Run, "taking requests: no rollover stops this bank (one may be under way elsewhere)")        \
    X(Stopped, "stopped by another bank's STALL flit: requests are queued until RESUME")           \
    X(Circling, "this bank started a rollover: stopped, its STALL flit goes round")                \
    X(Flushing, "the STALL flit is back, every bank stopped: FLUSH sent to every L1, FLUSHEDs "    \
                "counted")                                                                         \
    X(Resuming, "every L1 flushed: this bank runs again, its RESUME flit goes round")

#define RING_EVENTS(X)                                                                             \
    X(Rollover, "the bank stores a timestamp past its epoch (it has rolled over); no rollover "    \
                "is under way")                                                                    \
    X(RolloverLater, "the bank stores a timestamp past its epoch while a rollover is under way")   \
    X(Request, "a request from an L1 (the request vnet)")                                          \
    X(Stall, "the STALL flit arrives from the previous bank")                                      \
    X(StallBack, "the STALL flit is back at the bank that sent it first: every bank has stopped")  \
    X(Flushed, "an L1's FLUSHED, not the last")                                                    \
    X(LastFlushed, "the last L1's FLUSHED")                                                        \
    X(Resume, "the RESUME flit arrives from the previous bank")                                    \
    X(ResumeBack, "the RESUME flit is back at the bank that started the rollover")                 \
    X(ResumeBackLater, "... and a later epoch was asked for meanwhile")

#define X(n, d) RING_##n,
enum ring_state { RING_STATES(X) RING_NSTATES };
enum ring_event { RING_EVENTS(X) RING_NEVENTS };
#undef X
COH_NAMES_OF(ring_, RING_STATES, RING_EVENTS); /* the file's second table (the first: rcc.L2) */

static const char *flit_name(unsigned type)
{
    return type == MSG_RCC_STALL ? "STALL" : "RESUME";
}

/* Send flit `type` (MSG_RCC_STALL, MSG_RCC_RESUME) to the next bank: it
 * arrives rcc.ring_hop_cycles later, the link's latency. */
static void ring_send(struct rcc_l2 *c, unsigned type)
{
    struct port *out = c->ring_out;
    if (!port_has_room(out, 1))
        panic("%s: ring flit %s sent while %s is on the hop", c->base.w.name, flit_name(type),
              flit_name(port_slot_at(out, 0)->m->type));
    unsigned i = c->base.w.index;
    *c->flit = (struct msg){.type = (uint16_t)type,
                            .src = (uint16_t)i,
                            .dst = (uint16_t)((i + 1) % c->ring->set.n_banks),
                            .born = c->base.comp.eng->now};
    port_send(out, c->flit);
}

static struct rcc_l2 *ring_l2(struct coh_ctx *x)
{
    return x->ctrl;
}

/* The rollover to the epoch the bank asked for (c->asked) starts here. */
static void start_rollover(struct coh_ctx *x)
{
    struct rcc_l2 *c = ring_l2(x);
    struct ring *r = c->ring;
    r->busy = true;
    r->origin = c->base.w.index;
    r->epoch = c->asked;
    r->flushed = 0;
    c->st.ring_rollovers++;
}

static void ask_later(struct coh_ctx *x)
{
    struct rcc_l2 *c = ring_l2(x);
    c->ring->again = MAX(c->ring->again, c->asked);
}

/* The rollover just ended: the latest epoch asked for meanwhile is the next
 * one's (this bank starts it, whichever asked). */
static void take_later(struct coh_ctx *x)
{
    struct rcc_l2 *c = ring_l2(x);
    c->asked = c->ring->again;
    c->ring->again = 0;
}

static void end_rollover(struct coh_ctx *x)
{
    ring_l2(x)->ring->busy = false;
}

static void follow_epoch(struct coh_ctx *x)
{
    struct rcc_l2 *c = ring_l2(x);
    if (c->ring->epoch > c->epoch)
        roll_bank(c, c->ring->epoch);
}

static void stop(struct coh_ctx *x)
{
    struct rcc_l2 *c = ring_l2(x);
    c->stalled_since = comp_cycle(&c->base.comp);
}

/* Requests queued while stopped are taken again, before newer ones. */
static void resume(struct coh_ctx *x)
{
    struct rcc_l2 *c = ring_l2(x);
    c->st.ring_stall_cycles += comp_cycle(&c->base.comp) - c->stalled_since;
    msg_list_splice(&c->base.replay, &c->held);
}

static void hold_request(struct coh_ctx *x)
{
    msg_list_push(&ring_l2(x)->held, x->msg);
    x->msg = NULL;
}

static void send_stall(struct coh_ctx *x)
{
    ring_send(ring_l2(x), MSG_RCC_STALL);
}

static void send_resume(struct coh_ctx *x)
{
    ring_send(ring_l2(x), MSG_RCC_RESUME);
}

/* Every bank has stopped: FLUSH every L1 (the response vnet, in order). */
static void flush_l1s(struct coh_ctx *x)
{
    struct rcc_l2 *c = ring_l2(x);
    for (unsigned sm = 0; sm < c->base.w.n_sms; sm++) {
        struct msg *m = msg_new(c->base.w.msgs, MSG_RCC_FLUSH, 0, c->base.comp.eng->now);
        m->vnet = RCC_VNET_RSP;
        m->cls = TRAFFIC_INV;
        m->src = (uint16_t)c->base.w.index;
        m->dst = (uint16_t)sm;
        m->ts = c->ring->epoch << c->ts_bits;
        msg_list_push(&c->flush_out, m);
    }
}

static void count_flushed(struct coh_ctx *x)
{
    struct rcc_l2 *c = ring_l2(x);
    msg_free(c->base.w.msgs, x->msg);
    x->msg = NULL;
    c->ring->flushed++;
}

static const struct coh_action_name ring_actions[] = {
    {start_rollover, "start_rollover",
     "the ring is busy with a rollover to the bank's new epoch, started here"},
    {ask_later, "ask_later", "again = max(again, the bank's new epoch): a rollover to follow"},
    {take_later, "take_later", "the next rollover is to epoch again (again = 0)"},
    {end_rollover, "end_rollover", "the ring is free"},
    {follow_epoch, "follow_epoch",
     "every stamp the bank keeps jumps to the rollover's epoch's base (unless it is there)"},
    {stop, "stop", "stop taking requests (the stall cycles count from here)"},
    {resume, "resume", "take the queued requests again, before newer ones"},
    {hold_request, "hold_request", "queue the request until RESUME"},
    {send_stall, "send_stall", "STALL to the next bank (rcc.ring_hop_cycles later)"},
    {send_resume, "send_resume", "RESUME to the next bank (rcc.ring_hop_cycles later)"},
    {flush_l1s, "flush_l1s", "FLUSH{the epoch's base} to every L1 (the response vnet)"},
    {count_flushed, "count_flushed", "one more L1 flushed"},
    {0},
};

/*  state            event              next           uses  actions                           */
static const struct coh_trans ring_cells[RING_NSTATES][RING_NEVENTS] = {
    [RING_Run][RING_Rollover] = DO(RING_Circling, 0, start_rollover, stop, send_stall),
    [RING_Run][RING_RolloverLater] = DO(RING_Run, 0, ask_later),
    [RING_Run][RING_Stall] = DO(RING_Stopped, 0, follow_epoch, stop, send_stall),
    [RING_Stopped][RING_RolloverLater] = DO(RING_Stopped, 0, ask_later),
    [RING_Stopped][RING_Request] = DO(RING_Stopped, 0, hold_request),
    [RING_Stopped][RING_Resume] = DO(RING_Run, 0, resume, send_resume),
    [RING_Circling][RING_RolloverLater] = DO(RING_Circling, 0, ask_later),
    [RING_Circling][RING_Request] = DO(RING_Circling, 0, hold_request),
    [RING_Circling][RING_StallBack] = DO(RING_Flushing, 0, flush_l1s),
    [RING_Flushing][RING_RolloverLater] = DO(RING_Flushing, 0, ask_later),
    [RING_Flushing][RING_Request] = DO(RING_Flushing, 0, hold_request),
    [RING_Flushing][RING_Flushed] = DO(RING_Flushing, 0, count_flushed),
    [RING_Flushing][RING_LastFlushed] = DO(RING_Resuming, 0, count_flushed, resume, send_resume),
    [RING_Resuming][RING_RolloverLater] = DO(RING_Resuming, 0, ask_later),
    [RING_Resuming][RING_ResumeBack] = DO(RING_Run, 0, end_rollover),
    [RING_Resuming][RING_ResumeBackLater] =
        DO(RING_Circling, 0, end_rollover, take_later, start_rollover, stop, send_stall),
    /* every cell not listed is a hole; a request reaches this table only
     * while the bank is stopped (Run and Resuming take it in rcc.L2) */
};

static bool ring_stopped(unsigned s)
{
    return s == RING_Stopped || s == RING_Circling || s == RING_Flushing;
}

static void ring_set_state(struct coh_ctx *x, unsigned next)
{
    struct rcc_l2 *c = ring_l2(x);
    c->ring_state = (uint8_t)next;
    c->stalled = ring_stopped(next);
}

static void ring_dump(struct coh_ctx *x, FILE *out)
{
    struct rcc_l2 *c = ring_l2(x);
    struct ring *r = c->ring;
    fprintf(out,
            "  ring: %s, bank epoch %llu; rollover %s to epoch %llu from bank %u (again %llu), "
            "%u of %u L1s flushed, %u requests queued\n",
            ring_state_names[c->ring_state], (unsigned long long)c->epoch,
            r->busy ? "under way" : "none", (unsigned long long)r->epoch, r->origin,
            (unsigned long long)r->again, r->flushed, c->base.w.n_sms, c->held.n);
}

const struct coh_table rcc_ring_table =
    COH_TABLE_OF(ring_, "rcc", "Ring", ring_cells, ring_set_state, ring_dump);

/* Fire `event` of the ring's table at bank c (m: the request, FLUSHED or
 * flit that caused it; NULL for a rollover). */
static void ring_event(struct rcc_l2 *c, unsigned event, struct msg *m)
{
    struct coh_ctx x = {
        .ctrl = c,
        .ctrl_name = c->base.w.name,
        .eng = c->base.comp.eng,
        .addr = m ? m->addr : 0,
        .msg = m,
        .state = c->ring_state,
        .event = event,
    };
    coh_step(&rcc_ring_table, c->ring_cov, &x);
}

/* Bank c has rolled over to epoch e: stop every bank (or, with a rollover
 * under way, have another follow it). */
static void ring_rollover(struct rcc_l2 *c, uint64_t e)
{
    c->asked = e;
    ring_event(c, c->ring->busy ? RING_RolloverLater : RING_Rollover, NULL);
}

/* A flit that has arrived on the link from the previous bank. */
static bool ring_step(struct rcc_l2 *c)
{
    struct ring *r = c->ring;
    struct msg *m = port_peek(c->ring_in);
    if (!m)
        return false;
    port_pop(c->ring_in);
    bool origin = c->base.w.index == r->origin;
    unsigned ev;
    if (m->type == MSG_RCC_STALL) /* back: FLUSHEDs end it (gpu.sms >= 1) */
        ev = !origin ? RING_Stall : RING_StallBack;
    else
        ev = !origin ? RING_Resume : r->again > r->epoch ? RING_ResumeBackLater : RING_ResumeBack;
    ring_event(c, ev, m);
    return true;
}

/* While stopped: requests are queued (so the network keeps flowing and the
 * L1s' FLUSHED reach the originator); FLUSHED are counted, and the last one
 * resumes the originator and sends the resume flit. The requests behind it
 * are the lines' table's again (before the table, this loop queued them
 * too, where nothing took them before the next rollover; no run compared
 * reached that case). */
static bool ring_take_stalled(struct rcc_l2 *c, struct port *reqs)
{
    bool moved = false;
    struct msg *m;
    while (c->stalled && (m = port_peek(reqs))) {
        port_pop(reqs);
        moved = true;
        unsigned ev = m->type != MSG_RCC_FLUSHED                ? RING_Request
                      : c->ring->flushed + 1 == c->base.w.n_sms ? RING_LastFlushed
                                                                : RING_Flushed;
        ring_event(c, ev, m);
    }
    return moved;
}

static uint64_t lease_of(struct rcc_l2 *c, const struct cache_line *l)
{
    return c->fixed ? c->fixed : (uint64_t)c->lease_min << *level_of(c, l);
}

/* The version a refill gives after writes: past mnow (safe) or at it (paper). */
static uint64_t past_mnow(const struct rcc_l2 *c)
{
    return c->refill_paper ? c->mnow : c->mnow + 1;
}

/* ---- actions ---- */

static void respond(struct rcc_l2 *c, struct msg *m, uint16_t type, uint8_t cls, uint16_t bytes)
{
    ctrl_l2_respond(&c->base, m, type, RCC_VNET_RSP, cls, bytes);
}

static void open_mshr(struct coh_ctx *x)
{
    struct rcc_l2 *c = l2_of(x);
    memset(mshr_of(c, x->tbe), 0, sizeof(struct rcc_mshr));
}

static void note_read(struct coh_ctx *x)
{
    struct rcc_mshr *s = mshr_of(l2_of(x), x->tbe);
    s->lastrd = s->hasread ? MAX(s->lastrd, x->msg->ts) : x->msg->ts;
    s->hasread = true;
    ctrl_hold(x);
}

static void note_atomic(struct coh_ctx *x)
{
    struct rcc_mshr *s = mshr_of(l2_of(x), x->tbe);
    s->lastwr = s->haswrite ? MAX(s->lastwr, x->msg->ts) : x->msg->ts;
    s->haswrite = true;
    ctrl_hold(x);
}

/* A write to a missing line: its version is known now (§9 item 2), so it is
 * ACKed at once; its bytes wait in the MSHR, merged in arrival order. */
static void buffer_write(struct coh_ctx *x)
{
    struct rcc_l2 *c = l2_of(x);
    struct rcc_mshr *s = mshr_of(c, x->tbe);
    struct msg *m = x->msg;
    s->lastwr = s->haswrite ? MAX(s->lastwr, m->ts) : m->ts;
    s->haswrite = true;
    s->acked = stamp(c, MAX(MAX(s->lastwr, past_mnow(c)), s->acked));
    bytes_merge(s->wdata, m->data, &m->mask, c->base.line_bytes);
    for (size_t i = 0; i < sizeof s->wmask.w / sizeof s->wmask.w[0]; i++)
        s->wmask.w[i] |= m->mask.w[i];
    c->base.st.writes++;
    c->st.early_acks++;
    m->ts2 = s->acked;
    respond(c, m, MSG_RCC_ACK, TRAFFIC_REQ, 0);
    x->msg = NULL;
}

/* The refill's timestamps (spec 004a §3.5 with §9 item 1), the predictor
 * reset, then the merged writes (§9 item 3). */
static void refill(struct coh_ctx *x)
{
    struct rcc_l2 *c = l2_of(x);
    struct rcc_mshr *s = mshr_of(c, x->tbe);
    struct cache_line *l = x->line;
    VER(l) = EXP(l) = c->mnow;
    *level_of(c, l) = c->levels;
    if (s->haswrite) {
        VER(l) = stamp(c, MAX(MAX(s->lastwr, past_mnow(c)), s->acked));
        *level_of(c, l) = 0;
    }
    if (s->hasread)
        EXP(l) = stamp(c, MAX(VER(l), s->lastrd) + lease_of(c, l));
    if (bytemask_count(&s->wmask)) {
        bytes_merge(l->data, s->wdata, &s->wmask, c->base.line_bytes);
        l->dirty = true;
        if (c->base.w.obs)
            obs_write(c->base.w.obs, l->addr, s->wdata, &s->wmask);
    }
}

static void grant_lease(struct coh_ctx *x)
{
    struct rcc_l2 *c = l2_of(x);
    struct cache_line *l = x->line;
    uint64_t lease = lease_of(c, l);
    c->st.lease_sum += lease;
    c->st.leases++;
    EXP(l) = stamp(c, MAX(EXP(l), MAX(VER(l), x->msg->ts) + lease));
}

/* A lease leaves for the requester's L1 (m->src until the reply is sent). */
static void note_grant(struct rcc_l2 *c, const struct msg *m)
{
    if (m->src < c->base.w.n_sms)
        c->granted[m->src] = MAX(c->granted[m->src], m->ts);
}

static void reply_data(struct coh_ctx *x)
{
    struct msg *m = x->msg;
    m->flags &= RCC_F_MERGED;
    m->ts = EXP(x->line);
    note_grant(l2_of(x), m);
    m->ts2 = VER(x->line);
    ctrl_l2_reply_line(x->ctrl, x, m, MSG_RCC_DATA, RCC_VNET_RSP);
    x->msg = NULL;
}

/* No write since the L1's lease: a new lease without data; the predictor
 * doubles the line's lease (after this grant). */
static void reply_renew(struct coh_ctx *x)
{
    struct rcc_l2 *c = l2_of(x);
    struct msg *m = x->msg;
    uint8_t *lv = level_of(c, x->line);
    if (*lv < c->levels)
        (*lv)++;
    c->st.renewals++;
    c->base.st.reads++;
    cache_touch(&c->base.cache, x->line);
    m->flags &= RCC_F_MERGED;
    m->ts = EXP(x->line);
    m->ts2 = VER(x->line);
    note_grant(c, m);
    respond(c, m, MSG_RCC_RENEW, TRAFFIC_REQ, 0);
    x->msg = NULL;
}

/* Rules 2 and 3: the write's version is past the writer's clock, the line's
 * version and every lease granted; the predictor drops to lease_min. */
static void write_version(struct coh_ctx *x)
{
    struct rcc_l2 *c = l2_of(x);
    struct cache_line *l = x->line;
    uint64_t past_leases = c->bug_write_ignores_leases ? VER(l) : MAX(VER(l), EXP(l) + 1);
    VER(l) = stamp(c, MAX(x->msg->ts, past_leases));
    *level_of(c, l) = 0;
}

static void write_ack(struct coh_ctx *x)
{
    struct rcc_l2 *c = l2_of(x);
    ctrl_l2_perform_write(&c->base, x);
    x->msg->flags = 0;
    x->msg->ts2 = VER(x->line);
    respond(c, x->msg, MSG_RCC_ACK, TRAFFIC_REQ, 0);
    x->msg = NULL;
}

static void do_atomic(struct coh_ctx *x)
{
    struct rcc_l2 *c = l2_of(x);
    struct msg *m = x->msg;
    ctrl_l2_perform_atomic(&c->base, x);
    m->flags = 0;
    m->ts = EXP(x->line);
    m->ts2 = VER(x->line);
    respond(c, m, MSG_RCC_ATOMRSP, TRAFFIC_ATO, ctrl_atomic_rsp_bytes(m));
    x->msg = NULL;
}

/* The requests held in the MSHR, in arrival order: reads get the line and
 * the lease the refill granted; the atomic (IAV) is performed at the
 * version the refill gave. */
static void perform_held(struct coh_ctx *x)
{
    while ((x->msg = msg_list_pop(&x->tbe->merged))) {
        if (x->msg->type == MSG_RCC_ATOMIC) {
            *level_of(l2_of(x), x->line) = 0;
            do_atomic(x);
        } else {
            grant_lease(x);
            reply_data(x);
        }
    }
}

static void raise_mnow(struct coh_ctx *x)
{
    struct rcc_l2 *c = l2_of(x);
    c->mnow = MAX(c->mnow, MAX(EXP(x->line), VER(x->line)));
}

static const struct coh_action_name actions[] = {
    {ctrl_take_way, "take_way", "install the line in a free way (the fill comes later)"},
    {ctrl_alloc_tbe, "alloc_tbe", "allocate an MSHR for the line"},
    {open_mshr, "open_mshr", "clear the MSHR's clocks and write buffer"},
    {ctrl_l2_send_fetch, "send_fetch", "read the line from DRAM"},
    {note_read, "note_read", "lastrd = max(lastrd, M.now); hold the read in the MSHR"},
    {note_atomic, "note_atomic", "lastwr = max(lastwr, M.now); hold the atomic in the MSHR"},
    {buffer_write, "buffer_write",
     "lastwr = max(lastwr, M.now); ACK{max(lastwr, mnow + 1)} now; merge the bytes in order"},
    {ctrl_l2_fill_line, "fill_line", "write the DRAM data into the line"},
    {refill, "refill",
     "ver = exp = mnow, lease_max; writes: ver = max(lastwr, mnow + 1), lease_min, merged "
     "bytes applied; reads: exp = max(ver, lastrd) + lease"},
    {perform_held, "perform_held", "answer the held reads (DATA) and perform the held atomic"},
    {ctrl_wake_parked, "wake_parked", "free the MSHR and replay its parked requests first"},
    {grant_lease, "grant_lease", "exp = max(exp, ver + lease, M.now + lease)"},
    {reply_data, "reply_data", "DATA{exp, ver} with the line"},
    {reply_renew, "reply_renew", "RENEW{exp}, no data; the predictor doubles the lease"},
    {write_version, "write_version",
     "ver = max(M.now, ver, exp + 1); the predictor drops to lease_min"},
    {write_ack, "write_ack", "perform the write, ACK{ver}"},
    {do_atomic, "do_atomic", "perform every lane's atomic, DATA{ver} with the old values"},
    {raise_mnow, "raise_mnow", "mnow = max(mnow, exp, ver)"},
    {ctrl_l2_write_back, "write_back", "write the line to DRAM if it is dirty"},
    {ctrl_drop_line, "drop_line", "free the way (L1 copies expire by themselves)"},
    {0},
};

/*  state     event        next    uses                              actions                     */
static const struct coh_trans rcc_l2_cells[L2_NSTATES][L2_NEVENTS] = {
    [L2_I][L2_GetS] = DO(L2_IV, TAG_RD | TAG_WR, ctrl_take_way, ctrl_alloc_tbe, open_mshr,
                         ctrl_l2_send_fetch, note_read),
    [L2_I][L2_Write] = DO(L2_IV, TAG_RD | TAG_WR, ctrl_take_way, ctrl_alloc_tbe, open_mshr,
                          ctrl_l2_send_fetch, buffer_write),
    [L2_I][L2_Atomic] = DO(L2_IAV, TAG_RD | TAG_WR, ctrl_take_way, ctrl_alloc_tbe, open_mshr,
                           ctrl_l2_send_fetch, note_atomic),
    [L2_V][L2_GetS] = DO(L2_V, TAG_RD | TAG_WR | DATA_RD, grant_lease, reply_data),
    [L2_V][L2_Renew] = DO(L2_V, TAG_RD | TAG_WR, grant_lease, reply_renew),
    [L2_V][L2_Write] = DO(L2_V, TAG_RD | TAG_WR | DATA_WR, write_version, write_ack),
    [L2_V][L2_Atomic] = DO(L2_V, TAG_RD | TAG_WR | DATA_RD | DATA_WR, write_version, do_atomic),
    [L2_V][L2_Replace] = DO(L2_I, TAG_WR | DATA_RD, raise_mnow, ctrl_l2_write_back, ctrl_drop_line),
    [L2_IV][L2_GetS] = DO(L2_IV, 0, note_read),
    [L2_IV][L2_Write] = DO(L2_IV, 0, buffer_write),
    [L2_IV][L2_WriteAfterRead] = STALL,
    [L2_IV][L2_Atomic] = STALL,
    [L2_IV][L2_MemData] = DO(L2_V, TAG_WR | DATA_WR | DATA_RD, ctrl_l2_fill_line, refill,
                             perform_held, ctrl_wake_parked),
    [L2_IAV][L2_GetS] = STALL,
    [L2_IAV][L2_Write] = STALL, /* (IAV holds only the atomic: no WriteAfterRead) */
    [L2_IAV][L2_Atomic] = STALL,
    [L2_IAV][L2_MemData] = DO(L2_V, TAG_WR | DATA_WR | DATA_RD, ctrl_l2_fill_line, refill,
                              perform_held, ctrl_wake_parked),
};

static void dump_ctx(struct coh_ctx *x, FILE *out)
{
    struct rcc_l2 *c = l2_of(x);
    if (x->line)
        fprintf(out, "  line %#llx: %s%s ver %llu exp %llu lease %llu (mnow %llu)\n",
                (unsigned long long)x->line->addr, state_names[x->line->state],
                x->line->dirty ? " dirty" : "", (unsigned long long)VER(x->line),
                (unsigned long long)EXP(x->line), (unsigned long long)lease_of(c, x->line),
                (unsigned long long)c->mnow);
    if (x->tbe) {
        struct rcc_mshr *s = mshr_of(c, x->tbe);
        fprintf(out, "  mshr %#llx: %s lastrd %llu lastwr %llu acked %llu held %u parked %u\n",
                (unsigned long long)x->tbe->addr, state_names[x->tbe->state],
                (unsigned long long)s->lastrd, (unsigned long long)s->lastwr,
                (unsigned long long)s->acked, x->tbe->merged.n, x->tbe->parked.n);
    }
}

const struct coh_table rcc_l2_table =
    COH_TABLE("rcc", "L2", rcc_l2_cells, ctrl_set_state, dump_ctx);

/* ---- the classifier ---- */

static enum coh_result step(struct rcc_l2 *c, struct coh_ctx *x, unsigned event)
{
    x->event = event;
    return ctrl_step(&c->base, x);
}

static unsigned classify(const struct rcc_l2 *c, const struct coh_ctx *x, const struct msg *m)
{
    switch (m->type) {
    case MSG_RCC_GETS:
        return x->state == L2_V && c->renew && m->ts2 > VER(x->line) ? L2_Renew : L2_GetS;
    case MSG_RCC_WRITE:
        /* the held reads came first: they must not see it */
        return x->state == L2_IV && x->tbe->merged.n ? L2_WriteAfterRead : L2_Write;
    case MSG_RCC_ATOMIC:
        return L2_Atomic;
    default:
        panic("%s: unexpected request type %u", c->base.w.name, m->type);
    }
}

static bool busy(unsigned s)
{
    return s == L2_IV || s == L2_IAV;
}

static bool evictable(const struct cache_line *l, void *arg)
{
    (void)arg;
    return !busy(l->state);
}

/* A miss's set is full: the victim (stable) is replaced. */
static void replace(struct ctrl *b, addr_t victim)
{
    struct coh_ctx v;
    ctrl_lookup(b, &v, victim);
    step((struct rcc_l2 *)b, &v, L2_Replace);
}

/* One request. A miss first needs a free way: a full set gives up its LRU
 * stable line (no recall, no waiting) and the request retries next cycle. */
static bool take_request(struct ctrl *b, struct msg *m)
{
    struct rcc_l2 *c = (struct rcc_l2 *)b;
    struct coh_ctx x;
    if (!ctrl_l2_room_for_step(b)) /* room for the worst step */
        return false;
    ctrl_lookup(b, &x, m->addr);
    x.msg = m;
    if (ctrl_park_behind(b, &x)) /* requests to a line keep their order */
        return true;
    if (!x.line && !ctrl_l2_free_way(b, m->addr, evictable, replace))
        return false;
    unsigned ev = classify(c, &x, m);
    if (step(c, &x, ev) == COH_STALLED) {
        b->st.protocol_stalls++;
        msg_list_push(&x.tbe->parked, m);
    }
    return true;
}

static void take_mem(struct ctrl *b, struct msg *m)
{
    if (ctrl_l2_drop_wrack(b, m))
        return;
    struct coh_ctx x;
    ctrl_lookup(b, &x, m->addr);
    x.msg = m;
    step((struct rcc_l2 *)b, &x, L2_MemData);
}

static bool rcc_l2_tick(struct comp *cp)
{
    struct rcc_l2 *c = (struct rcc_l2 *)cp;
    struct ctrl *b = &c->base;
    struct port *reqs = b->links.net_in[RCC_VNET_REQ];

    ctrl_tick_begin(b);
    bool moved = ring_step(c);
    moved |= ctrl_drain(&c->flush_out, b->links.net_out[RCC_VNET_RSP]);
    moved |= ctrl_l2_drain_pipe(b);
    moved |= ctrl_take_one(b, &b->in, take_mem);
    if (c->stalled)
        moved |= ring_take_stalled(c, reqs);
    else
        moved |= ctrl_take_next(b, reqs, take_request);
    if (moved || c->flush_out.n)
        return true;
    if (c->ring_in->n) /* the flit arrives later (woken then) */
        comp_wake_at(cp, port_slot_at(c->ring_in, 0)->ready);
    /* a response held by a full vnet, or a request stalled on a resource:
     * sleep until it may clear (as the baseline bank) */
    if (!c->stalled && (b->replay.n || port_peek(&b->pipe) || port_peek(reqs))) {
        struct port *const in[] = {&b->in, &b->pipe};
        return ctrl_stall_sleep(b, in, 2);
    }
    return false;
}

static void dump_mshr(const struct ctrl *b, const struct tbe *t, FILE *out)
{
    struct rcc_l2 *c = (struct rcc_l2 *)b;
    const struct rcc_mshr *s = mshr_of(c, t);
    fprintf(out, "  mshr %#llx %s lastrd %llu lastwr %llu acked %llu held %u parked %u\n",
            (unsigned long long)t->addr, b->table->state_names[t->state],
            (unsigned long long)s->lastrd, (unsigned long long)s->lastwr,
            (unsigned long long)s->acked, t->merged.n, t->parked.n);
}

static void dump_flit(const struct msg *m, FILE *out)
{
    fprintf(out, "%s from bank %u\n", flit_name(m->type), m->src);
}

static void rcc_l2_dump(struct comp *cp, FILE *out)
{
    struct rcc_l2 *c = (struct rcc_l2 *)cp;
    struct ctrl *b = &c->base;
    if (!b->tbes.n_used && !b->replay.n && !b->pipe.n && !c->ring->busy)
        return;
    fprintf(out, "%s (rcc L2) mnow %llu: %u MSHRs, %u replaying, %u in pipeline\n", b->w.name,
            (unsigned long long)c->mnow, b->tbes.n_used, b->replay.n, b->pipe.n);
    if (c->ring->busy)
        fprintf(out,
                "  rollover to epoch %llu from bank %u: %s, %u requests queued, %u of %u L1s "
                "flushed, %u FLUSHes to send\n",
                (unsigned long long)c->ring->epoch, c->ring->origin,
                c->stalled ? "stopped" : "running", c->held.n, c->ring->flushed, b->w.n_sms,
                c->flush_out.n);
    port_dump(c->ring_in, out, dump_flit);
    ctrl_dump_tbes(b, out, dump_mshr);
    ctrl_l2_dump_pipe(b, out);
}

/* ---- construction ---- */

static uint64_t stat_mnow(const struct ctrl *b)
{
    return ((const struct rcc_l2 *)b)->mnow;
}

static uint64_t stat_lease_avg(const struct ctrl *b)
{
    const struct rcc_l2 *c = (const struct rcc_l2 *)b;
    return c->st.leases ? c->st.lease_sum / c->st.leases : 0;
}

static const struct ctrl_stat rcc_l2_stat_rows[] = {
    CTRL_STATS_L2_ACCESSES,
    CTRL_STAT_OWN(struct l2_stats, renewals),
    CTRL_STAT_OWN(struct l2_stats, early_acks),
    CTRL_STAT_OWN(struct l2_stats, rollovers),
    CTRL_STAT_OWN(struct l2_stats, ring_rollovers),
    CTRL_STAT_OWN(struct l2_stats, ring_stall_cycles),
    CTRL_STAT_FN("lease_avg", stat_lease_avg),
    CTRL_STAT_FN("mnow", stat_mnow),
    CTRL_STAT_BASE(resource_stalls),
    CTRL_STAT_BASE(protocol_stalls),
    CTRL_STAT_END,
};

/* rcc.lease: predict, or fixed:N (returns N; 0 for the predictor); config_load
 * has checked its form. */
static uint32_t fixed_lease(const char *s)
{
    uint32_t n = 0;
    if (coh_lease_parse(s, rcc_lease_words, 1, RCC_LEASE_MAX, &n) < 0)
        panic("rcc.lease '%s' passed config_load's check", s);
    return n;
}

struct comp *rcc_l2_create(const struct ctrl_wiring *w)
{
    const struct rcc_spec *r = rcc_spec_of(w->cfg);
    struct rcc_l2 *c = ctrl_alloc(sizeof *c);
    ctrl_l2_init(&c->base, w, &rcc_l2_table, rcc_l2_tick, rcc_l2_dump, 0x7d00);
    ctrl_set_stats(&c->base, rcc_l2_stat_rows, &c->st);
    c->ts_bits = r->ts_bits;
    c->refill_paper = r->refill_version == 1;
    c->renew = r->renew;
    c->fixed = fixed_lease(r->lease);
    /* config_load has checked: lease_min and lease_max are powers of two, min <= max */
    c->lease_min = r->lease_min;
    c->levels = (uint8_t)(__builtin_ctz(r->lease_max) - __builtin_ctz(r->lease_min));
    size_t ways = (size_t)c->base.cache.sets * c->base.cache.spec.ways;
    c->level = calloc(ways, 1);
    c->mshr = calloc(c->base.tbes.cap, sizeof *c->mshr);
    c->granted = calloc(MAX(w->n_sms, 1u), sizeof *c->granted);
    if (!c->level || !c->mshr || !c->granted)
        panic("out of memory");
    c->ring = w->proto_ctx;
    if (!c->ring)
        panic("%s: built without RCC's machine context (proto_desc.attach)", w->name);
    struct ring *g = c->ring;
    unsigned n = g->set.n_banks, prev = (w->index + n - 1) % n;
    g->set.banks[w->index] = &c->base.comp;
    g->set.n_live++;
    /* The link into this bank. It names no sender: a flit never waits for
     * room (a second flit on a hop panics in ring_send), so there is nobody
     * to wake when one is taken. */
    port_init(&g->hop[prev], "rcc.ring", 1, (tick_t)r->ring_hop_cycles * w->clk->period_ps, NULL,
              &c->base.comp);
    c->ring_in = &g->hop[prev];
    c->ring_out = &g->hop[w->index];
    c->flit = &g->flit[w->index];
    c->ring_state = RING_Run;
    if (!w->n_sms) /* a rollover ends with the last L1's FLUSHED */
        panic("%s: RCC's stall ring needs an L1", w->name);
    c->ring_cov = &w->cov[1];
    if (c->ring_cov->t != &rcc_ring_table)
        panic("%s: the protocol's tables are not the bank's (rcc.L2, then rcc.Ring)", w->name);
    return &c->base.comp;
}

/* rccsc-nolease: RCC-SC whose bank gives a write the version max(now, ver),
 * not past the leases it granted (test only: gpucoh verify must catch it). */
static struct comp *rccsc_nolease_l2_create(const struct ctrl_wiring *w)
{
    struct comp *cp = rcc_l2_create(w);
    ((struct rcc_l2 *)cp)->bug_write_ignores_leases = true;
    return cp;
}

void rcc_l2_destroy(struct comp *cp)
{
    struct rcc_l2 *c = (struct rcc_l2 *)cp;
    c->ring->set.banks[c->base.w.index] = NULL;
    c->ring->set.n_live--;
    struct msg *m;
    while ((m = msg_list_pop(&c->held)))
        msg_free(c->base.w.msgs, m);
    while ((m = msg_list_pop(&c->flush_out)))
        msg_free(c->base.w.msgs, m);
    free(c->level);
    free(c->mshr);
    free(c->granted);
    ctrl_destroy(cp);
}

/* Host access between kernels: the line's value is in the data array if
 * present, else in DRAM. L1 copies are dropped at the next launch. */
void rcc_l2_dma(struct comp *cp, addr_t line, uint8_t *buf, const struct bytemask *wmask)
{
    struct rcc_l2 *c = (struct rcc_l2 *)cp;
    struct coh_ctx x;
    ctrl_lookup(&c->base, &x, line);
    ctrl_l2_dma(&c->base, line, buf, wmask, x.state, busy(x.state));
}

unsigned rcc_l2_peek(struct comp *cp, addr_t line, uint8_t *data, bool *has_data)
{
    struct rcc_l2 *c = (struct rcc_l2 *)cp;
    struct coh_ctx x;
    ctrl_lookup(&c->base, &x, line);
    ctrl_copy_line(&c->base, line, data, has_data);
    return x.state;
}

bool rcc_l2_stamps(struct comp *cp, addr_t line, uint64_t *ver, uint64_t *exp)
{
    struct rcc_l2 *c = (struct rcc_l2 *)cp;
    struct cache_line *l = cache_find(&c->base.cache, line);
    if (!l || l->state != L2_V)
        return false;
    *ver = VER(l);
    *exp = EXP(l);
    return true;
}

uint64_t rcc_l2_mnow(struct comp *cp)
{
    return ((struct rcc_l2 *)cp)->mnow;
}

void rcc_l2_view(struct comp *cp, addr_t line, struct rcc_l2_view *v)
{
    struct rcc_l2 *c = (struct rcc_l2 *)cp;
    struct cache_line *l = cache_find(&c->base.cache, line);
    struct tbe *t = c->base.tbes.cap ? tbe_find(&c->base.tbes, line) : NULL;
    *v = (struct rcc_l2_view){.level = l && l->state == L2_V ? *level_of(c, l) : 0,
                              .mshr = t != NULL,
                              .mnow = c->mnow,
                              .rolling = c->ring->busy || c->stalled || c->held.n ||
                                         c->flush_out.n || c->ring_in->n};
    if (t) {
        const struct rcc_mshr *s = mshr_of(c, t);
        v->hasread = s->hasread;
        v->haswrite = s->haswrite;
        v->lastrd = s->lastrd;
        v->lastwr = s->lastwr;
        v->acked = s->acked;
        v->wmask = &s->wmask;
        v->wdata = s->wdata;
    }
}

uint64_t rcc_l2_lease_mark(struct comp *cp, unsigned sm)
{
    return ((struct rcc_l2 *)cp)->granted[sm];
}

static const struct coh_table *const rccsc_tables[] = {&rccsc_l1_table, &rcc_l2_table,
                                                       &rcc_ring_table, NULL};
static const struct coh_table *const rccwo_tables[] = {&rccwo_l1_table, &rcc_l2_table,
                                                       &rcc_ring_table, NULL};

/* Symmetry over the L1s (struct proto_symmetry): the bank names no L1 that
 * it reads back (its per-SM granted marks feed only the simulator's lease
 * watchdog, not the protocol), and no line keeps sharers: leases end by
 * themselves. So only the messages' ends do. FLUSH and FLUSHED (a rollover)
 * never travel on the rig (64-bit times); STALL and RESUME go from bank to
 * bank on the ring's own links. The guard ticks every L1's clock alike, and
 * rccsc-nolease's bug (a write's version not past the leases) treats every
 * L1 alike too. */
static const struct proto_symmetry rcc_symmetry = {
    .up = PROTO_MSG_BIT(MSG_RCC_GETS) | PROTO_MSG_BIT(MSG_RCC_WRITE) |
          PROTO_MSG_BIT(MSG_RCC_ATOMIC) | PROTO_MSG_BIT(MSG_RCC_FLUSHED),
    .down = PROTO_MSG_BIT(MSG_RCC_DATA) | PROTO_MSG_BIT(MSG_RCC_RENEW) |
            PROTO_MSG_BIT(MSG_RCC_ACK) | PROTO_MSG_BIT(MSG_RCC_ATOMRSP) |
            PROTO_MSG_BIT(MSG_RCC_FLUSH),
    .data_blind = true,
};

/* What `gpucoh verify` reads (struct proto_verify; docs/verify.md, "Logical
 * time"): logical time, the livelock guard its one input from physical time.
 * An L1 line's meta[0] is its copy's lease end; a bank line's meta[0] and
 * meta[1] its ver and exp, set in V only. A readable copy is V or VI. On the
 * rig the predictor's leases span its whole range, 1 to --lease logical units,
 * the livelock guard moves the clocks once a tick, and timestamps never roll
 * over. */
static const char *const rcc_rig[] = {"rcc.lease=predict",     "rcc.lease_min=1",
                                      "rcc.lease_max={lease}", "rcc.livelock_cycles={tick}",
                                      "rcc.ts_bits=64",        NULL};
#define RCC_VERIFY                                                                                 \
    .time = PROTO_TIME_LOGICAL, .l1_line = {PROTO_WORD_LOGICAL},                                   \
    .l2_line = {PROTO_WORD_LOGICAL, PROTO_WORD_LOGICAL}, .l1_leased = "V VI", .l2_leased = "V",    \
    .rig_sets = rcc_rig, .lease_pow2 = true
static const struct proto_verify rccsc_verify = {RCC_VERIFY};
static const struct proto_verify rccwo_verify = {RCC_VERIFY, .two_clocks = true};

const struct proto_desc proto_rccsc = {
    .options = &rcc_options,
    .name = "rccsc",
    .title = "RCC-SC: logical-time leases; a write moves its writer's clock past every lease "
             "instead of waiting (SC with order.model = sc, which it requires)",
    .model = MODEL_SC,
    .write_atomic = true,
    .needs_order = "sc",
    .logical_time = true,
    .lease_mark = rcc_l2_lease_mark,
    .lease_passed = rcc_l1_lease_passed,
    .n_vnets = RCC_NVNETS,
    .vnet_names = rcc_vnet_names,
    .tables = rccsc_tables,
    .n_l1_tables = 1,
    .l1 = {rccsc_l1_create, ctrl_connect, ctrl_in_port, rcc_l1_destroy, NULL, rcc_l1_peek,
           ctrl_stats},
    .attach = rcc_attach,
    .detach = rcc_detach,
    .l2 = {rcc_l2_create, ctrl_l2_connect, ctrl_in_port, rcc_l2_destroy, rcc_l2_dma, rcc_l2_peek,
           ctrl_stats},
    .symmetry = &rcc_symmetry,
    .verify = &rccsc_verify,
};

const struct proto_desc proto_rccwo = {
    .options = &rcc_options,
    .name = "rccwo",
    .title = "RCC-WO: RCC with a read and a write clock per SM, joined by fences and "
             "acquire/release (weak ordering)",
    .model = MODEL_PTX,
    .write_atomic = false,
    .logical_time = true,
    .lease_mark = rcc_l2_lease_mark,
    .lease_passed = rcc_l1_lease_passed,
    .n_vnets = RCC_NVNETS,
    .vnet_names = rcc_vnet_names,
    .tables = rccwo_tables,
    .n_l1_tables = 1,
    .l1 = {rccwo_l1_create, ctrl_connect, ctrl_in_port, rcc_l1_destroy, NULL, rcc_l1_peek,
           ctrl_stats},
    .attach = rcc_attach,
    .detach = rcc_detach,
    .l2 = {rcc_l2_create, ctrl_l2_connect, ctrl_in_port, rcc_l2_destroy, rcc_l2_dma, rcc_l2_peek,
           ctrl_stats},
    .symmetry = &rcc_symmetry,
    .verify = &rccwo_verify,
};

const struct proto_desc proto_rccsc_nolease = {
    .options = &rcc_options,
    .name = "rccsc-nolease",
    .title = "rccsc with a deliberate bug for testing the checkers: the bank gives a write the "
             "version max(now, ver), not past the leases it granted",
    .test_only = true,
    .model = MODEL_SC,
    .write_atomic = true,
    .needs_order = "sc",
    .logical_time = true,
    .lease_mark = rcc_l2_lease_mark,
    .lease_passed = rcc_l1_lease_passed,
    .n_vnets = RCC_NVNETS,
    .vnet_names = rcc_vnet_names,
    .tables = rccsc_tables,
    .n_l1_tables = 1,
    .l1 = {rccsc_l1_create, ctrl_connect, ctrl_in_port, rcc_l1_destroy, NULL, rcc_l1_peek,
           ctrl_stats},
    .attach = rcc_attach,
    .detach = rcc_detach,
    .l2 = {rccsc_nolease_l2_create, ctrl_l2_connect, ctrl_in_port, rcc_l2_destroy, rcc_l2_dma,
           rcc_l2_peek, ctrl_stats},
    .symmetry = &rcc_symmetry,
    .verify = &rccsc_verify,
};
