/*
 * sm_tx.c - the SM's part of GETM and WarpTM: warp timestamps, the
 * transactional-warp limit, verdicts, validation and the commit unit, as the
 * SM's transaction extension (see sm_tx.h, gpu/sm_ext.h). Each warp slot's
 * transaction is a transition table (getm_sm_table, warptm_sm_table): the
 * hooks are its classifier, the SM-wide agreements (a rollover, the serial
 * token, a commit's broadcast) step the warps they concern; the waiters'
 * wake-ups are SM-wide and stay outside it.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "coh/getm/sm_tx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "base/rng.h"
#include "coh/getm/getm_bank.h"
#include "coh/getm/tx_board.h"
#include "coh/getm/tx_epoch.h"
#include "coh/getm/tx_serial.h"
#include "gpu/sm_ext.h"
#include "mem/tbe.h"

#define SM_TX_WARPS           64
#define SM_TX_BACKOFF_MAX_EXP 6

#define X(n, d) #n,
const char *const sm_tx_abort_names[SM_TX_ABORT_N] = {SM_TX_ABORT_CAUSES(X)};
#undef X

/* A store's reservation at a bank: the granules of one line it reserved
 * (GETM); or the granules of one line a validation holds (WarpTM). */
struct sm_tx_resv {
    addr_t line;
    uint8_t granules;      /* reserved (GETM) or held exclusively (WarpTM) */
    uint8_t read_granules; /* WarpTM: held shared */
    bool unheld;           /* WarpTM: validated alone (the serial token): the granules
                            * written are to be committed but nothing is held */
};

struct sm_tx_warp {
    getm_ts ts;         /* warpts: the attempt's timestamp */
    getm_ts horizon;    /* the largest timestamp the attempt's answers carried */
    uint32_t seq;       /* transaction sequence: tags the VU's owner (item 19) */
    uint32_t n_access;  /* transactional requests awaiting their verdict */
    uint32_t n_acks;    /* commit and cleanup messages awaiting their ack */
    bool in_tx;         /* counted against the limit */
    bool running;       /* an attempt runs (from its begin or retry to its end) */
    bool live;          /* running or acks awaited: counted on the epoch board */
    bool ts_wait;       /* its next attempt waits for a timestamp rollover */
    uint8_t fails;      /* attempts with aborts in a row (the backoff's exponent) */
    uint32_t fruitless; /* attempts in a row in which no lane committed */
    bool serial_wait;   /* waits for the serial token: its own grant, or the token to
                         * come free (tx_serial.h) */
    bool serial;        /* holds the serial token: its transaction runs alone */
    uint32_t claimed;   /* lanes of the attempt whose abort has a cause counted */
    cycle_t start;      /* the attempt's start (or the retry's earliest start) */
    cycle_t ended;      /* the last attempt's end, while its acks are awaited */
    bool acks_block;    /* the warp may not go on before the acks */
    /* WarpTM */
    uint64_t first_read; /* the earliest time (ps) a load of the attempt was read */
    uint64_t last_write; /* the latest TCD write time its loads' answers carried */
    uint32_t n_val;      /* validations awaiting their answer */
    bool validated;      /* the attempt's validation is done: it may end */
    bool published;      /* EAPG: its commit's signature is up on the board */
    uint32_t n_resv;
    struct sm_tx_resv *resv; /* [PTX_TX_LOG_MAX], made at the slot's first transaction */
};

struct sm_tx {
    struct sm *sm; /* the SM it extends */
    struct sm_ext_wiring io;
    struct getm_params p;
    uint32_t wid_base;
    unsigned line_bytes, limit, n_in_tx, backoff;
    struct rng rng;         /* backoff windows */
    uint64_t limit_waiters; /* warps at a begin, blocked by the limit */
    struct sm_tx_warp w[SM_TX_WARPS];
    struct msg_list out;        /* the commit unit's queue */
    struct msg **build;         /* [PTX_TX_LOG_MAX]: one attempt's messages while built */
    sm_tx_value_now *value_now; /* WarpTM-EL's ideal view of the banks, or NULL */
    void *value_arg;
    struct tx_board *board;        /* EAPG (ideal): the commits' broadcasts, or NULL */
    unsigned sm_id;                /* this SM on the board */
    uint64_t paused;               /* EAPG: warps holding their validation for a signature */
    struct tx_epoch *epoch;        /* GETM: the timestamp rollover board, or NULL */
    uint64_t epoch_waiters;        /* warps held for a rollover (woken by it) */
    struct tx_serial *serial;      /* the serialising fallback's token, or NULL */
    unsigned serial_id;            /* this SM on it */
    uint64_t serial_waiters;       /* warps held while another warp asks for or holds the token */
    const struct coh_table *table; /* getm_sm_table or warptm_sm_table */
    struct coh_cov *cov;           /* the machine's (sm_tx_cover), or own_cov */
    struct coh_cov own_cov;
    char name[24];
    struct sm_tx_stats st;
};

static const struct sm_ext_ops sm_tx_ops;

struct sm_tx *sm_tx_new(struct sm *sm, const struct getm_params *p, uint32_t wid_base,
                        unsigned limit, unsigned backoff, uint64_t seed)
{
    struct sm_ext_wiring io;
    sm_ext_wiring(sm, &io);
    unsigned warps = io.warps, line_bytes = io.line_bytes;
    if (warps > SM_TX_WARPS || line_bytes / p->granule > GETM_MAX_GRANULES)
        panic("sm_tx: %u warps or %u-byte lines out of bounds", warps, line_bytes);
    struct sm_tx *t = calloc(1, sizeof *t);
    if (!t || !(t->build = calloc(PTX_TX_LOG_MAX, sizeof *t->build)))
        panic("out of memory");
    t->sm = sm;
    t->io = io;
    t->p = *p;
    t->wid_base = wid_base;
    t->line_bytes = line_bytes;
    t->limit = limit;
    t->backoff = backoff;
    rng_seed(&t->rng, seed, 0x7e7a);
    for (unsigned s = 0; s < warps; s++) {
        t->w[s].ts = getm_first_ts(p, wid_base + s);
        t->w[s].first_read = UINT64_MAX;
    }
    t->table = p->warptm ? &warptm_sm_table : &getm_sm_table;
    coh_cov_init(&t->own_cov, t->table);
    t->cov = &t->own_cov;
    snprintf(t->name, sizeof t->name, "sm_tx[w%u]", wid_base);
    sm_set_ext(sm, &sm_tx_ops, t);
    return t;
}

void sm_tx_free(struct sm_tx *t)
{
    if (!t)
        return;
    for (unsigned s = 0; s < SM_TX_WARPS; s++)
        free(t->w[s].resv);
    coh_cov_destroy(&t->own_cov);
    free(t->build);
    free(t);
}

const struct sm_tx_stats *sm_tx_stats_of(const struct sm_tx *t)
{
    return &t->st;
}

void sm_tx_cover(struct sm_tx *t, struct coh_cov *covs, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        if (covs[i].t == t->table)
            t->cov = &covs[i];
}

/* Count `lanes` of warp `slot`'s attempt as aborted for `cause`, each lane
 * once an attempt (the first cause to reach the SM). */
static void claim(struct sm_tx *t, unsigned slot, uint32_t lanes, enum sm_tx_abort_cause cause)
{
    struct sm_tx_warp *w = &t->w[slot];
    lanes &= ~w->claimed;
    w->claimed |= lanes;
    t->st.aborts[cause] += (uint64_t)__builtin_popcount(lanes);
}

/* Keep the epoch board's count of warps with an attempt running or a commit
 * unacknowledged (it may roll over when that reaches 0). */
static void note_live(struct sm_tx *t, struct sm_tx_warp *w)
{
    bool live = w->running || w->n_acks;
    if (live == w->live)
        return;
    w->live = live;
    if (t->epoch)
        tx_epoch_live(t->epoch, live ? 1 : -1);
    if (t->serial) {
        tx_serial_live(t->serial, live ? 1 : -1);
        if (!live && w->serial && !w->in_tx) { /* done alone: every lane in, every ack back */
            w->serial = false;
            tx_serial_release(t->serial, t->serial_id, (unsigned)(w - t->w));
        }
    }
}

/* A retry inside the transaction may go on before the acks of the previous
 * attempt's commit and cleanup (the thesis's warp sends its write log and
 * moves on): its requests carry the next transaction sequence, so a granule
 * still reserved by that attempt makes them wait in the stall buffer (or
 * abort) until the release arrives. Without owner_seq the retry would be
 * taken for the owner and read around the release, so it waits. */
static bool retry_waits_acks(const struct sm_tx *t)
{
    return t->p.commit_waits || !t->p.owner_seq || t->p.warptm;
}

/* The granules of a line (bit k: the k-th) that `size` bytes at `off` touch. */
static uint32_t granules_in(const struct sm_tx *t, unsigned off, unsigned size)
{
    uint32_t s = 0;
    for (unsigned g = off / t->p.granule; g <= (off + size - 1) / t->p.granule; g++)
        s |= 1u << g;
    return s;
}

/* The board signature of the granules the live lanes of the attempt have
 * read (answered loads) or write. */
static uint64_t signature(const struct sm_tx *t, const struct ptx_warp *pw)
{
    uint32_t n_log, live;
    const struct ptx_tx_access *log = ptx_warp_tx_log(pw, &n_log, &live);
    uint64_t sig = 0;
    for (uint32_t k = 0; k < n_log; k++) {
        const struct ptx_tx_access *a = &log[k];
        if ((live >> a->lane & 1) && (a->write || a->done))
            sig |= tx_board_bit(a->addr / t->p.granule);
    }
    return sig;
}

/* The validation message of `line` among the first n being built, made if new. */
static struct msg *validation_of(struct sm_tx *t, unsigned *n, addr_t line,
                                 const struct mem_req *tmpl)
{
    for (unsigned i = 0; i < *n; i++)
        if (t->build[i]->addr == line)
            return t->build[i];
    struct msg *m = msg_new(t->io.msgs, MSG_CORE_REQ, line, t->io.eng->now);
    m->cls = TRAFFIC_ST;
    m->req = *tmpl;
    m->req.op = MEM_STORE; /* to the L1, a write-through of the values read */
    m->req.sem = SEM_WEAK;
    m->req.scope = SCOPE_GPU;
    m->req.tx = MEM_TX_VALIDATE;
    m->req.id |= 1; /* the header's free bit: a validation, not a commit (ext_answer) */
    m->ts2 = 0;
    memset(&m->mask, 0, sizeof m->mask);
    t->build[(*n)++] = m;
    return m;
}

/* The message of `line` among the attempt's first n, or NULL. */
static struct msg *find_line(struct sm_tx *t, unsigned n, addr_t line)
{
    for (unsigned i = n; i-- > 0;)
        if (t->build[i]->addr == line)
            return t->build[i];
    return NULL;
}

/* ---- the table: one warp slot's transaction ---- */

/* The state is a function of the slot's fields (state_of); the table's next
 * state must agree with what the actions did (set_state checks it). WarpTM's
 * table uses the states before Spent and the events before RetryRoll (its
 * timestamps are physical: no rollover). A count
 * of messages awaited (verdicts, validation answers, acks) is not a state of
 * its own: its last answer is an event of its own. */
#define SM_TX_STATES(X)                                                                            \
    X(Idle, "not in a transaction, nothing awaited")                                               \
    X(Leaving, "left its transaction; the acks of its last commit or cleanup are awaited")         \
    X(Running, "an attempt runs (its requests' verdicts counted as they go out and come back)")    \
    X(Committing, "a retry waits for the acks of its previous attempt's commit or cleanup")        \
    X(Validating, "WarpTM: the attempt's validation messages are out, answers awaited")            \
    X(Validated, "WarpTM: the attempt's validation is done (or needed none): it may end")          \
    X(SerialWait, "a retry waits for the serial token: its own grant, or the token to come free")  \
    X(Spent, "GETM: not in a transaction; its next begin waits for a timestamp rollover")          \
    X(LeavingRoll, "GETM: Leaving, and its next begin waits for a timestamp rollover")             \
    X(RollWait, "GETM: a retry waits for a timestamp rollover")                                    \
    X(RollSerialWait, "GETM: a retry waits for both a timestamp rollover and the serial token")
#define SM_TX_EVENTS(X)                                                                            \
    X(Begin, "the warp begins a transaction")                                                      \
    X(Issue, "a transactional line request leaves: stamped with warpts and sequence")              \
    X(Verdict, "the answer to a transactional request, others still awaited")                      \
    X(LastVerdict, "the answer to the attempt's last awaited transactional request")               \
    X(Check,                                                                                       \
      "WarpTM-EL (ideal): the early value check after a load, a store or before validating")       \
    X(Pause, "EAPG (ideal): the validation waits for a commit's signature to come down")           \
    X(EarlyAbort, "EAPG (ideal): a commit's signature just up meets granules the attempt read")    \
    X(Validate, "WarpTM: the attempt at its end sends its read and write sets to be validated")    \
    X(ValidateNone, "WarpTM: the attempt at its end needs no validation (TCD, or nothing live)")   \
    X(Answer, "WarpTM: a validation answer, others still awaited")                                 \
    X(LastAnswer, "WarpTM: the attempt's last validation answer")                                  \
    X(Retry, "the attempt ends; the aborted lanes retry at once (after the backoff)")              \
    X(RetryAcks, "the attempt ends; the retry waits for its commit's and cleanup's acks")          \
    X(RetryToken,                                                                                  \
      "the attempt ends; the retry asks for the serial token or waits while it is busy")           \
    X(Leave, "the attempt ends and the warp leaves its transaction, nothing sent")                 \
    X(LeaveAcks, "the warp leaves its transaction; commit or cleanup acks awaited")                \
    X(Ack, "a commit or cleanup acknowledgement, others still awaited")                            \
    X(LastAck, "the last awaited commit or cleanup acknowledgement")                               \
    X(Grant, "the serial token is granted to this warp")                                           \
    X(Free, "the serial token came free")                                                          \
    X(HoldToken,                                                                                   \
      "the warp may not issue: no attempt starts while another asks for or holds the token")       \
    X(HoldAcks, "the warp may not issue before its commit's and cleanup's acks")                   \
    X(HoldEnd, "the attempt may not end: verdicts, memory instructions or validation outstanding") \
    X(HoldLimit, "the warp may not begin: the SM's limit of transactional warps is reached")       \
    X(RetryRoll,                                                                                   \
      "GETM: the attempt ends; the next timestamp does not fit or a rollover is asked for")        \
    X(RetryRollToken, "GETM: RetryRoll and RetryToken at once")                                    \
    X(LeaveRoll, "GETM: Leave, with a timestamp that does not fit (or a rollover asked for)")      \
    X(LeaveAcksRoll,                                                                               \
      "GETM: LeaveAcks, with a timestamp that does not fit (or a rollover asked for)")             \
    X(Rollover, "GETM: the GPU's timestamp rollover is done")                                      \
    X(HoldRoll, "GETM: the warp may not issue: no attempt starts before the asked-for rollover")
#define X(n, d) TS_##n,
enum { SM_TX_STATES(X) TS_N };
#undef X
#define X(n, d) TE_##n,
enum { SM_TX_EVENTS(X) TE_N };
#undef X
COH_NAMES(SM_TX_STATES, SM_TX_EVENTS);

/* The event being stepped and its operands; coh_ctx.ctrl points at it. On
 * the stack, as a step's actions may step other warps of the SM (a commit's
 * broadcast, a rollover, the serial token). */
struct tx_op {
    struct sm_tx *t;
    struct sm_tx_warp *w;
    unsigned slot;
    cycle_t cyc;
    struct msg *m;              /* Issue: the request */
    bool store;                 /* Issue: a store */
    const struct msg *ans;      /* Verdict, Answer: the answer */
    const struct ptx_memop *op; /* Verdict: the request's instruction */
    uint32_t lanes;             /* Verdict: its lanes still live; EarlyAbort: lanes to abort */
    const struct ptx_warp *pw;  /* Check, Validate, Answer: the warp */
    const struct ptx_tx_end *e; /* the end events: the attempt's outcome */
    bool left;                  /* the end events: the warp left its transaction */
    bool overflow;              /* the end events: the next timestamp does not fit */
    getm_ts next;               /* the end events: the next timestamp */
    uint32_t abort;             /* out: lanes to abort */
    unsigned wait;              /* out (end events): the retry's backoff */
};

static unsigned state_of(const struct sm_tx_warp *w)
{
    if (!w->in_tx)
        return w->n_acks ? (w->ts_wait ? TS_LeavingRoll : TS_Leaving)
                         : (w->ts_wait ? TS_Spent : TS_Idle);
    if (w->ts_wait)
        return w->serial_wait ? TS_RollSerialWait : TS_RollWait;
    if (w->serial_wait)
        return TS_SerialWait;
    if (w->n_val)
        return TS_Validating;
    if (w->validated)
        return TS_Validated;
    return w->n_acks && w->acks_block ? TS_Committing : TS_Running;
}

static void a_begin(struct coh_ctx *x)
{
    struct tx_op *o = x->ctrl;
    struct sm_tx_warp *w = o->w;
    w->start = o->cyc;
    if (!w->resv && !(w->resv = calloc(PTX_TX_LOG_MAX, sizeof *w->resv)))
        panic("out of memory");
    w->in_tx = true;
    w->running = true;
    w->n_resv = 0;
    w->horizon = 0;
    o->t->n_in_tx++;
    o->t->st.begins++;
}

static void a_hold_for_rollover(struct coh_ctx *x)
{
    struct tx_op *o = x->ctrl;
    o->t->epoch_waiters |= 1ull << o->slot; /* no attempt starts before the rollover */
}

static void a_hold_for_token(struct coh_ctx *x)
{
    struct tx_op *o = x->ctrl;
    struct sm_tx *t = o->t;
    if (!(t->serial_waiters >> o->slot & 1))
        t->st.serial_stalls++;
    t->serial_waiters |= 1ull << o->slot; /* no other attempt starts while one runs alone */
}

static void a_hold_for_limit(struct coh_ctx *x)
{
    struct tx_op *o = x->ctrl;
    struct sm_tx *t = o->t;
    if (!(t->limit_waiters >> o->slot & 1))
        t->st.limit_waits++;
    t->limit_waiters |= 1ull << o->slot;
}

static void a_stamp(struct coh_ctx *x)
{
    struct tx_op *o = x->ctrl;
    struct msg *m = o->m;
    /* to the L1 a validation is a load performed at the L2 (item 20: it
     * bypasses the L1); the bank's validation unit tells the two apart */
    m->req.op = MEM_LOAD;
    m->req.sem = SEM_RELAXED;
    m->req.scope = SCOPE_GPU;
    m->req.tx = o->store ? MEM_TX_STORE : MEM_TX_LOAD;
    m->ts = o->w->ts;
    m->acks = (int32_t)o->w->seq;
    o->w->n_access++;
}

/* GETM: the lanes whose granules the VU refused abort; a store's
 * reservations are kept for the commit or cleanup. */
static void a_take_verdict(struct coh_ctx *x)
{
    struct tx_op *o = x->ctrl;
    struct sm_tx *t = o->t;
    struct sm_tx_warp *w = o->w;
    const struct msg *m = o->ans;
    w->horizon = MAX(w->horizon, m->ts2);
    uint32_t aborted = GETM_ABORTED(m->sharer), reserved = GETM_RESERVED(m->sharer);
    for (uint32_t lanes = o->lanes; aborted && lanes; lanes &= lanes - 1) {
        unsigned l = (unsigned)__builtin_ctz(lanes);
        unsigned k = (unsigned)((o->op->addr[l] - m->addr) / t->p.granule);
        if (aborted >> k & 1) {
            o->abort |= 1u << l;
            claim(t, o->slot, 1u << l, SM_TX_ABORT_load_late + GETM_ABORT_KIND(m->sharer, k));
        }
    }
    t->st.vu_aborts += (uint64_t)__builtin_popcount(o->abort);
    if (reserved) {
        if (w->n_resv >= PTX_TX_LOG_MAX)
            panic("sm_tx: warp %u has more reservations than log entries", o->slot);
        w->resv[w->n_resv++] = (struct sm_tx_resv){m->addr, (uint8_t)reserved};
    }
}

/* WarpTM: a load's data, and the TCD's times. */
static void a_take_times(struct coh_ctx *x)
{
    struct tx_op *o = x->ctrl;
    o->w->first_read = MIN(o->w->first_read, o->ans->ts);
    o->w->last_write = MAX(o->w->last_write, o->ans->ts2);
}

static void a_count_verdict(struct coh_ctx *x)
{
    struct tx_op *o = x->ctrl;
    o->w->n_access--;
}

static void a_check_values(struct coh_ctx *x)
{
    struct tx_op *o = x->ctrl;
    struct sm_tx *t = o->t;
    uint32_t n_log, live, abort = 0;
    const struct ptx_tx_access *log = ptx_warp_tx_log(o->pw, &n_log, &live);
    uint8_t data[LINE_MAX_BYTES];
    addr_t have = 1; /* no line: lines are aligned */
    bool held = false;
    for (uint32_t k = 0; k < n_log; k++) {
        const struct ptx_tx_access *a = &log[k];
        if (a->write || !a->done || !(live >> a->lane & 1) || (abort >> a->lane & 1))
            continue;
        addr_t line = a->addr & ~(addr_t)(t->line_bytes - 1);
        if (line != have) {
            held = t->value_now(t->value_arg, line, data);
            have = line;
        }
        if (held && memcmp(data + (a->addr - line), a->data, a->size))
            abort |= 1u << a->lane;
    }
    t->st.eager_aborts += (uint64_t)__builtin_popcount(abort);
    claim(t, o->slot, abort, SM_TX_ABORT_eager);
    o->abort = abort;
}

static void a_pause(struct coh_ctx *x)
{
    struct tx_op *o = x->ctrl;
    struct sm_tx *t = o->t;
    t->st.eapg_pauses += !(t->paused >> o->slot & 1);
    t->paused |= 1ull << o->slot; /* Pause-n-Go: validate once that commit is done */
}

static void a_abort_early(struct coh_ctx *x)
{
    struct tx_op *o = x->ctrl;
    o->t->st.eapg_aborts += (uint64_t)__builtin_popcount(o->lanes);
    claim(o->t, o->slot, o->lanes, SM_TX_ABORT_eapg);
}

static void a_send_validation(struct coh_ctx *x)
{
    struct tx_op *o = x->ctrl;
    struct sm_tx *t = o->t;
    struct sm_tx_warp *w = o->w;
    t->paused &= ~(1ull << o->slot);
    struct mem_req tmpl = t->io.hdr;
    tmpl.warp = (uint16_t)o->slot;
    uint32_t n_log, live, abort = 0;
    const struct ptx_tx_access *log = ptx_warp_tx_log(o->pw, &n_log, &live);
    bool writes = false;
    for (uint32_t k = 0; k < n_log; k++)
        writes |= log[k].write && (live >> log[k].lane & 1);
    w->validated = true;
    if (!live || (t->p.silent && !writes && w->last_write < w->first_read)) {
        t->st.silent_commits += live != 0;
        return; /* read a snapshot (or nothing is left): no validation */
    }
    t->st.tcd_validations += !writes;
    unsigned n = 0;
    for (uint32_t k = 0; k < n_log; k++) {
        const struct ptx_tx_access *a = &log[k];
        if (!(live >> a->lane & 1) || (abort >> a->lane & 1))
            continue;
        addr_t line = a->addr & ~(addr_t)(t->line_bytes - 1);
        unsigned off = (unsigned)(a->addr - line);
        struct msg *m = validation_of(t, &n, line, &tmpl);
        if (a->write) {
            m->ts2 |= WARPTM_RELEASES(0, granules_in(t, off, a->size));
            continue;
        }
        const uint8_t *v = (const uint8_t *)a->data;
        for (unsigned i = 0; i < a->size; i++)
            if (bytemask_test(&m->mask, off + i) && m->data[off + i] != v[i])
                abort |= 1u << a->lane; /* two lanes read different values: one is stale */
        if (abort >> a->lane & 1)
            continue;
        memcpy(m->data + off, v, a->size);
        bytemask_set_range(&m->mask, off, a->size);
    }
    for (unsigned i = 0; i < n; i++) {
        t->st.validation_msgs++;
        if (w->serial)
            t->build[i]->ts2 |= WARPTM_ALONE;
        msg_list_push(&t->out, t->build[i]);
    }
    claim(t, o->slot, abort, SM_TX_ABORT_stale_pair);
    w->n_val = n;
    w->validated = !n;
    o->abort = abort;
}

/* WarpTM: the lanes whose granules failed abort; the granules held (or,
 * alone, written) are kept for the commit or cleanup. */
static void a_take_validation(struct coh_ctx *x)
{
    struct tx_op *o = x->ctrl;
    struct sm_tx *t = o->t;
    struct sm_tx_warp *w = o->w;
    const struct msg *m = o->ans;
    uint32_t failed = GETM_ABORTED(m->sharer), n_log, live;
    uint8_t wr = (uint8_t)GETM_RESERVED(m->sharer), rd = (uint8_t)WARPTM_READ_HELD(m->sharer);
    const struct ptx_tx_access *log = ptx_warp_tx_log(o->pw, &n_log, &live);
    for (uint32_t k = 0; failed && k < n_log; k++) {
        const struct ptx_tx_access *a = &log[k];
        if (!(live >> a->lane & 1) || (a->addr & ~(addr_t)(t->line_bytes - 1)) != m->addr)
            continue;
        uint32_t gs = failed & granules_in(t, (unsigned)(a->addr - m->addr), a->size);
        if (gs) {
            o->abort |= 1u << a->lane;
            claim(t, o->slot, 1u << a->lane,
                  SM_TX_ABORT_mismatch + WARPTM_FAIL_WHY(m->ts, __builtin_ctz(gs)));
        }
    }
    t->st.vu_aborts += (uint64_t)__builtin_popcount(o->abort);
    bool unheld = w->serial; /* alone, nothing is held: the line's writes are still to commit */
    for (uint32_t k = 0; unheld && k < n_log; k++) {
        const struct ptx_tx_access *a = &log[k];
        if (a->write && (live >> a->lane & 1) && !(o->abort >> a->lane & 1) &&
            (a->addr & ~(addr_t)(t->line_bytes - 1)) == m->addr)
            wr |= (uint8_t)granules_in(t, (unsigned)(a->addr - m->addr), a->size);
    }
    if (wr | rd) {
        if (w->n_resv >= PTX_TX_LOG_MAX)
            panic("sm_tx: warp %u holds more lines than log entries", o->slot);
        w->resv[w->n_resv++] = (struct sm_tx_resv){m->addr, wr, rd, unheld};
    }
}

static void a_count_answer(struct coh_ctx *x)
{
    struct tx_op *o = x->ctrl;
    o->w->n_val--;
}

static void a_validated(struct coh_ctx *x)
{
    struct tx_op *o = x->ctrl;
    o->w->validated = true;
}

/* The commit unit: one message per line the attempt reserved (GETM) or
 * holds (WarpTM), the committed lanes' writes coalesced into it. */
static void a_send_commit(struct coh_ctx *x)
{
    struct tx_op *o = x->ctrl;
    struct sm_tx *t = o->t;
    struct sm_tx_warp *w = o->w;
    const struct ptx_tx_end *e = o->e;
    struct mem_req tmpl = t->io.hdr;
    tmpl.warp = (uint16_t)o->slot;
    unsigned n = 0;
    t->st.attempt_cycles += o->cyc - MIN(w->start, o->cyc);
    w->ended = o->cyc;
    for (uint32_t i = 0; i < w->n_resv; i++) {
        const struct sm_tx_resv *r = &w->resv[i];
        struct msg *m = find_line(t, n, r->line);
        if (!m) {
            m = msg_new(t->io.msgs, MSG_CORE_REQ, r->line, t->io.eng->now);
            m->cls = TRAFFIC_ST;
            m->req = tmpl;
            m->req.op = MEM_STORE;
            m->req.sem = SEM_WEAK;
            m->req.scope = SCOPE_GPU;
            m->req.tx = MEM_TX_CLEANUP;
            m->ts = w->ts;
            m->acks = (int32_t)w->seq;
            m->ts2 = 0;
            memset(&m->mask, 0, sizeof m->mask);
            t->build[n++] = m;
        }
        if (t->p.warptm)
            m->ts2 |= r->unheld ? 0 : WARPTM_RELEASES(r->read_granules & ~r->granules, r->granules);
        else
            for (uint32_t g = r->granules; g; g &= g - 1)
                m->ts2 += 1ull << (16 * __builtin_ctz(g));
    }
    /* the committed writes, coalesced per line in program order */
    for (uint32_t k = 0; k < e->n_log; k++) {
        const struct ptx_tx_access *a = &e->log[k];
        if (!a->write || !(e->committed >> a->lane & 1))
            continue;
        addr_t line = a->addr & ~(addr_t)(t->line_bytes - 1);
        struct msg *m = find_line(t, n, line);
        if (!m)
            panic("sm_tx: warp %u commits a write to 0x%llx, which it never reserved", o->slot,
                  (unsigned long long)a->addr);
        unsigned off = (unsigned)(a->addr - line);
        memcpy(m->data + off, a->data, a->size);
        bytemask_set_range(&m->mask, off, a->size);
        m->req.tx = MEM_TX_COMMIT;
    }
    uint64_t sig = 0; /* EAPG: the granules this commit writes */
    for (unsigned i = 0; i < n; i++) {
        struct msg *m = t->build[i];
        if (m->req.tx == MEM_TX_COMMIT) {
            for (uint32_t gs = getm_granules(&m->mask, t->line_bytes / t->p.granule, t->p.granule);
                 gs; gs &= gs - 1)
                sig |= tx_board_bit(m->addr / t->p.granule + (unsigned)__builtin_ctz(gs));
            t->st.commit_msgs++;
            t->st.commit_bytes += bytemask_count(&m->mask);
        } else {
            t->st.cleanup_msgs++;
        }
        msg_list_push(&t->out, m);
    }
    w->n_acks += n;
    w->acks_block = o->left || retry_waits_acks(t);
    if (t->board && sig) {
        tx_board_publish(t->board, t->sm_id, o->slot, sig);
        w->published = true;
    }
    w->n_resv = 0;
}

/* The next attempt's timestamp passes everything this one saw. */
static void a_advance_ts(struct coh_ctx *x)
{
    struct tx_op *o = x->ctrl;
    struct sm_tx *t = o->t;
    o->w->ts = o->next;
    t->st.ts_max = MAX(t->st.ts_max, t->p.unique_ts ? o->w->ts >> t->p.warp_bits : o->w->ts);
}

/* A next timestamp that does not fit the timestamps' width waits for a
 * rollover (and asks for one), and while one is asked for no attempt starts
 * (WarpTM's timestamps are physical: never). */
static void a_wait_rollover(struct coh_ctx *x)
{
    struct tx_op *o = x->ctrl;
    struct sm_tx *t = o->t;
    if (!t->epoch)
        panic("sm_tx: warp %u's next timestamp %llu does not fit %u bits, and nothing rolls "
              "over",
              o->slot, (unsigned long long)o->next, t->p.ts_bits);
    if (o->overflow) {
        t->st.rollover_requests++;
        tx_epoch_request(t->epoch);
    }
    o->w->ts_wait = true;
    o->w->running = false;
}

static void a_end_attempt(struct coh_ctx *x)
{
    struct tx_op *o = x->ctrl;
    struct sm_tx *t = o->t;
    struct sm_tx_warp *w = o->w;
    w->horizon = 0;
    w->first_read = UINT64_MAX;
    w->last_write = 0;
    w->validated = false;
    w->seq++;
    t->st.attempts++;
    t->st.lane_commits += (uint64_t)__builtin_popcount(o->e->committed);
    t->st.lane_aborts += (uint64_t)__builtin_popcount(o->e->aborted);
    /* an aborted lane no verdict claimed aborted in the interpreter */
    t->st.aborts[SM_TX_ABORT_intra] += (uint64_t)__builtin_popcount(o->e->aborted & ~w->claimed);
    w->claimed = 0;
}

static void a_leave(struct coh_ctx *x)
{
    struct tx_op *o = x->ctrl;
    o->w->running = false;
    o->w->in_tx = false;
    o->t->n_in_tx--;
}

/* Forward progress (tx_serial.h): attempts in a row with no lane committed. */
static void a_count_progress(struct coh_ctx *x)
{
    struct tx_op *o = x->ctrl;
    struct sm_tx *t = o->t;
    struct sm_tx_warp *w = o->w;
    w->fruitless = o->e->committed ? 0 : w->fruitless + 1;
    t->st.fruitless_max = MAX(t->st.fruitless_max, w->fruitless);
    t->st.serial_attempts += w->serial;
}

static void a_wait_token(struct coh_ctx *x)
{
    struct tx_op *o = x->ctrl;
    o->w->serial_wait = true;
    o->w->running = false;
}

static void a_backoff(struct coh_ctx *x)
{
    struct tx_op *o = x->ctrl;
    struct sm_tx *t = o->t;
    struct sm_tx_warp *w = o->w;
    unsigned wait = 0;
    if (!o->e->aborted) {
        w->fails = 0;
        w->start = o->cyc;
    } else {
        w->fails = (uint8_t)MIN(w->fails + 1, SM_TX_BACKOFF_MAX_EXP);
        /* alone, a retry has nobody to make way for */
        wait = t->backoff && !w->serial
                   ? (unsigned)rng_below(&t->rng, (uint64_t)t->backoff << w->fails)
                   : 0;
        t->st.backoff_cycles += wait;
        w->start = o->cyc + wait; /* the retry starts after its backoff and its acks */
    }
    o->wait = wait;
}

static void a_count_ack(struct coh_ctx *x)
{
    struct tx_op *o = x->ctrl;
    o->w->n_acks--;
}

static void a_acks_in(struct coh_ctx *x)
{
    struct tx_op *o = x->ctrl;
    struct sm_tx *t = o->t;
    struct sm_tx_warp *w = o->w;
    if (w->published) {
        w->published = false;
        tx_board_withdraw(t->board, t->sm_id, o->slot);
    }
    t->st.commit_wait_cycles += o->cyc - MIN(w->ended, o->cyc);
    if (w->acks_block)
        w->start = MAX(w->start, o->cyc);
}

static void a_end_rollover_wait(struct coh_ctx *x)
{
    struct tx_op *o = x->ctrl;
    o->w->ts_wait = false;
}

static void a_take_token(struct coh_ctx *x)
{
    struct tx_op *o = x->ctrl;
    o->w->serial = true;
    o->w->fruitless = 0;
    o->t->st.serial_grants++;
}

static void a_end_token_wait(struct coh_ctx *x)
{
    struct tx_op *o = x->ctrl;
    o->w->serial_wait = false;
}

static void a_resume(struct coh_ctx *x)
{
    struct tx_op *o = x->ctrl;
    o->w->running = true;
}

static const struct coh_action_name actions[] = {
    {a_begin, "begin", "count the warp against the limit; the attempt starts now"},
    {a_hold_for_rollover, "hold_for_rollover", "park the warp until the rollover"},
    {a_hold_for_token, "hold_for_token", "park the warp until the serial token comes free"},
    {a_hold_for_limit, "hold_for_limit", "park the warp until a transactional warp leaves"},
    {a_stamp, "stamp", "the request carries warpts and the sequence; one more verdict awaited"},
    {a_take_verdict, "take_verdict", "GETM: abort the refused lanes, keep the reservations"},
    {a_take_times, "take_times", "WarpTM: keep the earliest read and the latest TCD write time"},
    {a_count_verdict, "count_verdict", "one verdict fewer awaited"},
    {a_check_values, "check_values", "abort the live lanes whose reads no longer match the banks"},
    {a_pause, "pause", "EAPG: hold the validation until the signature comes down"},
    {a_abort_early, "abort_early", "EAPG: the lanes that read a granule of the signature abort"},
    {a_send_validation, "send_validation",
     "one validation message per line read or written (none: TCD or nothing live)"},
    {a_take_validation, "take_validation", "abort the failed lanes, keep the granules held"},
    {a_count_answer, "count_answer", "one validation answer fewer awaited"},
    {a_validated, "validated", "the attempt may end"},
    {a_send_commit, "send_commit",
     "one commit (writes and releases) or cleanup (releases) message per line"},
    {a_advance_ts, "advance_ts", "warpts passes every timestamp the attempt saw"},
    {a_wait_rollover, "wait_rollover", "ask for a rollover if warpts does not fit; wait for it"},
    {a_end_attempt, "end_attempt", "count the attempt's lanes; the next sequence"},
    {a_leave, "leave", "no longer counted against the limit"},
    {a_count_progress, "count_progress", "count attempts in a row with no lane committed"},
    {a_wait_token, "wait_token", "wait for the serial token (asked for after the step)"},
    {a_backoff, "backoff", "after aborts, a random backoff in a window doubling per abort"},
    {a_count_ack, "count_ack", "one ack fewer awaited"},
    {a_acks_in, "acks_in", "EAPG: withdraw the signature; the retry may start"},
    {a_end_rollover_wait, "end_rollover_wait", "no longer waits for a rollover"},
    {a_take_token, "take_token", "hold the serial token: the transaction runs alone"},
    {a_end_token_wait, "end_token_wait", "no longer waits for the serial token"},
    {a_resume, "resume", "the retry runs"},
    {0},
};

/* The end of an attempt: the commit unit, then the next attempt's
 * timestamp, the attempt's counts, leaving, progress, backoff. */
#define END_NEXT(...)  a_send_commit, __VA_ARGS__, a_end_attempt
#define END_RETRY      END_NEXT(a_advance_ts), a_count_progress, a_backoff
#define END_RETRY_ROLL END_NEXT(a_wait_rollover), a_count_progress
#define END_LEAVE      END_NEXT(a_advance_ts), a_leave, a_count_progress, a_backoff
#define END_LEAVE_ROLL END_NEXT(a_wait_rollover), a_leave, a_count_progress, a_backoff

/* GETM: verdicts from the VUs as the attempt runs, commit at once at its
 * end; a next timestamp that does not fit waits for a rollover. */
/*  state     event              next    uses               actions                              */
static const struct coh_trans getm_cells[TS_N][TE_N] = {
    [TS_Idle][TE_Begin] = DO(TS_Running, 0, a_begin),
    [TS_Idle][TE_HoldToken] = DO(TS_Idle, 0, a_hold_for_token),
    [TS_Idle][TE_HoldLimit] = DO(TS_Idle, 0, a_hold_for_limit),
    [TS_Idle][TE_HoldRoll] = DO(TS_Idle, 0, a_hold_for_rollover),
    [TS_Spent][TE_Rollover] = DO(TS_Idle, 0, a_end_rollover_wait),
    [TS_Spent][TE_HoldRoll] = DO(TS_Spent, 0, a_hold_for_rollover),
    [TS_Leaving][TE_Ack] = DO(TS_Leaving, 0, a_count_ack),
    [TS_Leaving][TE_LastAck] = DO(TS_Idle, 0, a_count_ack, a_acks_in),
    [TS_Leaving][TE_HoldToken] = DO(TS_Leaving, 0, a_hold_for_token),
    [TS_Leaving][TE_HoldAcks] = STALL,
    [TS_Leaving][TE_HoldRoll] = DO(TS_Leaving, 0, a_hold_for_rollover),
    [TS_LeavingRoll][TE_Ack] = DO(TS_LeavingRoll, 0, a_count_ack),
    [TS_LeavingRoll][TE_LastAck] = DO(TS_Spent, 0, a_count_ack, a_acks_in),
    [TS_LeavingRoll][TE_HoldRoll] = DO(TS_LeavingRoll, 0, a_hold_for_rollover),
    [TS_LeavingRoll][TE_HoldAcks] = STALL,
    [TS_Running][TE_Issue] = DO(TS_Running, 0, a_stamp),
    [TS_Running][TE_Verdict] = DO(TS_Running, 0, a_take_verdict, a_count_verdict),
    [TS_Running][TE_LastVerdict] = DO(TS_Running, 0, a_take_verdict, a_count_verdict),
    [TS_Running][TE_RetryRoll] = DO(TS_RollWait, 0, END_RETRY_ROLL, a_backoff),
    [TS_Running][TE_RetryRollToken] =
        DO(TS_RollSerialWait, 0, END_RETRY_ROLL, a_wait_token, a_backoff),
    [TS_Running][TE_LeaveRoll] = DO(TS_Spent, 0, END_LEAVE_ROLL),
    [TS_Running][TE_LeaveAcksRoll] = DO(TS_LeavingRoll, 0, END_LEAVE_ROLL),
    [TS_Running][TE_Ack] = DO(TS_Running, 0, a_count_ack),
    [TS_Running][TE_LastAck] = DO(TS_Running, 0, a_count_ack, a_acks_in),
    [TS_Running][TE_HoldEnd] = STALL,
    [TS_Running][TE_Retry] = DO(TS_Running, 0, END_RETRY),
    [TS_Running][TE_RetryAcks] = DO(TS_Committing, 0, END_RETRY),
    [TS_Running][TE_RetryToken] =
        DO(TS_SerialWait, 0, END_NEXT(a_advance_ts), a_count_progress, a_wait_token, a_backoff),
    [TS_Running][TE_Leave] = DO(TS_Idle, 0, END_LEAVE),
    [TS_Running][TE_LeaveAcks] = DO(TS_Leaving, 0, END_LEAVE),
    [TS_Committing][TE_Ack] = DO(TS_Committing, 0, a_count_ack),
    [TS_Committing][TE_LastAck] = DO(TS_Running, 0, a_count_ack, a_acks_in),
    [TS_Committing][TE_HoldAcks] = STALL,
    [TS_RollWait][TE_Ack] = DO(TS_RollWait, 0, a_count_ack),
    [TS_RollWait][TE_LastAck] = DO(TS_RollWait, 0, a_count_ack, a_acks_in),
    [TS_RollWait][TE_Rollover] = DO(TS_Running, 0, a_end_rollover_wait, a_resume),
    [TS_RollWait][TE_HoldRoll] = DO(TS_RollWait, 0, a_hold_for_rollover),
    [TS_SerialWait][TE_Ack] = DO(TS_SerialWait, 0, a_count_ack),
    [TS_SerialWait][TE_LastAck] = DO(TS_SerialWait, 0, a_count_ack, a_acks_in),
    [TS_SerialWait][TE_Grant] = DO(TS_Running, 0, a_take_token, a_end_token_wait, a_resume),
    [TS_SerialWait][TE_Free] = DO(TS_Running, 0, a_end_token_wait, a_resume),
    [TS_SerialWait][TE_HoldToken] = DO(TS_SerialWait, 0, a_hold_for_token),
    [TS_RollSerialWait][TE_Ack] = DO(TS_RollSerialWait, 0, a_count_ack),
    [TS_RollSerialWait][TE_LastAck] = DO(TS_RollSerialWait, 0, a_count_ack, a_acks_in),
    [TS_RollSerialWait][TE_Rollover] = DO(TS_SerialWait, 0, a_end_rollover_wait),
    [TS_RollSerialWait][TE_HoldRoll] = DO(TS_RollSerialWait, 0, a_hold_for_rollover),
};

/* WarpTM: loads' data and times as the attempt runs; validation at its
 * end, then commit; physical timestamps (no rollover). */
/*  state     event              next    uses               actions                              */
static const struct coh_trans warptm_cells[TS_Spent][TE_RetryRoll] = {
    [TS_Idle][TE_Begin] = DO(TS_Running, 0, a_begin),
    [TS_Idle][TE_HoldToken] = DO(TS_Idle, 0, a_hold_for_token),
    [TS_Idle][TE_HoldLimit] = DO(TS_Idle, 0, a_hold_for_limit),
    [TS_Leaving][TE_Ack] = DO(TS_Leaving, 0, a_count_ack),
    [TS_Leaving][TE_LastAck] = DO(TS_Idle, 0, a_count_ack, a_acks_in),
    [TS_Leaving][TE_HoldToken] = DO(TS_Leaving, 0, a_hold_for_token),
    [TS_Leaving][TE_HoldAcks] = STALL,
    [TS_Running][TE_Issue] = DO(TS_Running, 0, a_stamp),
    [TS_Running][TE_Verdict] = DO(TS_Running, 0, a_take_times, a_count_verdict),
    [TS_Running][TE_LastVerdict] = DO(TS_Running, 0, a_take_times, a_count_verdict),
    [TS_Running][TE_Check] = DO(TS_Running, 0, a_check_values),
    [TS_Running][TE_Pause] = DO(TS_Running, 0, a_pause),
    [TS_Running][TE_EarlyAbort] = DO(TS_Running, 0, a_abort_early),
    [TS_Running][TE_Validate] = DO(TS_Validating, 0, a_send_validation),
    [TS_Running][TE_ValidateNone] = DO(TS_Validated, 0, a_send_validation),
    [TS_Running][TE_HoldEnd] = STALL,
    [TS_Committing][TE_Ack] = DO(TS_Committing, 0, a_count_ack),
    [TS_Committing][TE_LastAck] = DO(TS_Running, 0, a_count_ack, a_acks_in),
    [TS_Committing][TE_HoldAcks] = STALL,
    [TS_Validating][TE_Answer] = DO(TS_Validating, 0, a_take_validation, a_count_answer),
    [TS_Validating][TE_LastAnswer] =
        DO(TS_Validated, 0, a_take_validation, a_count_answer, a_validated),
    [TS_Validating][TE_HoldEnd] = STALL,
    [TS_Validated][TE_Retry] = DO(TS_Running, 0, END_RETRY),
    [TS_Validated][TE_RetryAcks] = DO(TS_Committing, 0, END_RETRY),
    [TS_Validated][TE_RetryToken] =
        DO(TS_SerialWait, 0, END_NEXT(a_advance_ts), a_count_progress, a_wait_token, a_backoff),
    [TS_Validated][TE_Leave] = DO(TS_Idle, 0, END_LEAVE),
    [TS_Validated][TE_LeaveAcks] = DO(TS_Leaving, 0, END_LEAVE),
    [TS_SerialWait][TE_Ack] = DO(TS_SerialWait, 0, a_count_ack),
    [TS_SerialWait][TE_LastAck] = DO(TS_SerialWait, 0, a_count_ack, a_acks_in),
    [TS_SerialWait][TE_Grant] = DO(TS_Running, 0, a_take_token, a_end_token_wait, a_resume),
    [TS_SerialWait][TE_Free] = DO(TS_Running, 0, a_end_token_wait, a_resume),
    [TS_SerialWait][TE_HoldToken] = DO(TS_SerialWait, 0, a_hold_for_token),
};

static void set_state(struct coh_ctx *x, unsigned next)
{
    struct tx_op *o = x->ctrl;
    if (state_of(o->w) != next)
        panic("%s: warp %u in state %s after %s, but its fields say %s", x->ctrl_name, o->slot,
              state_names[next], event_names[x->event], state_names[state_of(o->w)]);
}

static void dump(struct coh_ctx *x, FILE *out)
{
    struct tx_op *o = x->ctrl;
    const struct sm_tx_warp *w = o->w;
    fprintf(out,
            "  warp %u: warpts %llu seq %u verdicts %u validations %u acks %u in_tx %d "
            "running %d ts_wait %d serial_wait %d serial %d validated %d acks_block %d\n",
            o->slot, (unsigned long long)w->ts, w->seq, w->n_access, w->n_val, w->n_acks, w->in_tx,
            w->running, w->ts_wait, w->serial_wait, w->serial, w->validated, w->acks_block);
}

const struct coh_table getm_sm_table = COH_TABLE("getm", "SM", getm_cells, set_state, dump);
const struct coh_table warptm_sm_table = COH_TABLE("warptm", "SM", warptm_cells, set_state, dump);

/* ---- the classifier: the only place with protocol `if`s ---- */

/* Step warp o->slot's table for `event`, then keep the boards' counts (last:
 * it may roll over or move the serial token, which steps warps again). */
static void step(struct sm_tx *t, struct tx_op *o, unsigned event)
{
    o->t = t;
    o->w = &t->w[o->slot];
    struct coh_ctx x = {
        .ctrl = o,
        .ctrl_name = t->name,
        .eng = t->io.eng,
        .addr = t->wid_base + o->slot, /* the global warp id: what the table keeps a state for */
        .state = state_of(o->w),
        .event = event,
    };
    coh_step(t->table, t->cov, &x);
    note_live(t, o->w);
}

static uint64_t sm_tx_rollover(struct sm_tx *t)
{
    for (unsigned s = 0; s < SM_TX_WARPS; s++) {
        struct sm_tx_warp *w = &t->w[s];
        w->ts = getm_first_ts(&t->p, t->wid_base + s);
        w->horizon = 0;
        if (w->ts_wait) /* its retry runs now, unless it waits for the token */
            step(t, &(struct tx_op){.slot = s}, TE_Rollover);
    }
    t->st.rollovers++;
    uint64_t m = t->epoch_waiters;
    t->epoch_waiters = 0;
    return m;
}

static uint64_t sm_tx_serial_changed(struct sm_tx *t)
{
    bool busy = tx_serial_busy(t->serial);
    uint64_t wake = 0;
    for (unsigned s = 0; s < SM_TX_WARPS; s++) {
        if (!t->w[s].serial_wait)
            continue;
        if (tx_serial_holds(t->serial, t->serial_id, s))
            step(t, &(struct tx_op){.slot = s}, TE_Grant);
        else if (!busy) /* its retry runs now (after a rollover, if one waits) */
            step(t, &(struct tx_op){.slot = s}, TE_Free);
        else
            continue; /* another warp's turn */
        wake |= 1ull << s;
    }
    if (!busy) {
        wake |= t->serial_waiters;
        t->serial_waiters = 0;
    }
    return wake;
}

/* Why warp `slot` may not issue now (TE_N: it may), in the order checked. */
static unsigned hold_of(const struct sm_tx *t, unsigned slot, const struct ptx_warp *pw,
                        unsigned n_out)
{
    const struct sm_tx_warp *w = &t->w[slot];
    if ((w->ts_wait && (ptx_warp_in_tx(pw) || ptx_warp_at_tx_begin(pw))) ||
        (t->epoch && tx_epoch_stalling(t->epoch) && !w->running && ptx_warp_at_tx_begin(pw)))
        return TE_HoldRoll;
    if (w->serial_wait || (t->serial && !w->serial && !w->running && tx_serial_busy(t->serial) &&
                           ptx_warp_at_tx_begin(pw)))
        return TE_HoldToken;
    if (w->n_acks && (w->acks_block || !ptx_warp_in_tx(pw)))
        return TE_HoldAcks;
    if ((n_out || w->n_access || (t->p.warptm && !w->validated)) && ptx_warp_at_tx_end(pw))
        return TE_HoldEnd;
    if (t->limit && !w->in_tx && t->n_in_tx >= t->limit && ptx_warp_at_tx_begin(pw))
        return TE_HoldLimit;
    return TE_N;
}

static bool sm_tx_blocks(struct sm_tx *t, unsigned slot, const struct ptx_warp *pw, unsigned n_out)
{
    unsigned hold = hold_of(t, slot, pw, n_out);
    if (hold == TE_N)
        return false;
    step(t, &(struct tx_op){.slot = slot}, hold);
    return true;
}

static uint64_t sm_tx_take_limit_waiters(struct sm_tx *t)
{
    uint64_t m = t->limit_waiters;
    t->limit_waiters = 0;
    return m;
}

static bool sm_tx_verdict(struct sm_tx *t, unsigned slot, const struct msg *m,
                          const struct ptx_memop *op, uint32_t lanes, uint32_t *abort)
{
    const struct sm_tx_warp *w = &t->w[slot];
    if (!w->n_access)
        panic("sm_tx: a verdict for warp %u, which awaits none", slot);
    bool last = w->n_access == 1;
    struct tx_op o = {.slot = slot, .ans = m, .op = op, .lanes = lanes};
    step(t, &o, last ? TE_LastVerdict : TE_Verdict);
    *abort = o.abort;
    return last;
}

/* WarpTM: the attempt at its end validates unless EAPG pauses it. */
static bool sm_tx_wants_validation(struct sm_tx *t, unsigned slot, const struct ptx_warp *pw,
                                   unsigned n_out)
{
    const struct sm_tx_warp *w = &t->w[slot];
    if (!t->p.warptm || w->validated || w->n_val || n_out || w->n_access || !ptx_warp_at_tx_end(pw))
        return false;
    if (t->board && tx_board_meets(t->board, t->sm_id, slot, signature(t, pw))) {
        step(t, &(struct tx_op){.slot = slot}, TE_Pause);
        return false;
    }
    return true;
}

/* WarpTM: no validation message when the TCD clears a read-only attempt or
 * no live lane accessed anything. */
static bool validation_empty(const struct sm_tx *t, unsigned slot, const struct ptx_warp *pw)
{
    const struct sm_tx_warp *w = &t->w[slot];
    uint32_t n_log, live;
    const struct ptx_tx_access *log = ptx_warp_tx_log(pw, &n_log, &live);
    bool writes = false, any = false;
    for (uint32_t k = 0; k < n_log; k++)
        if (live >> log[k].lane & 1) {
            any = true;
            writes |= log[k].write;
        }
    return !live || (t->p.silent && !writes && w->last_write < w->first_read) || !any;
}

static uint32_t sm_tx_validate(struct sm_tx *t, unsigned slot, const struct ptx_warp *pw)
{
    struct tx_op o = {.slot = slot, .pw = pw};
    step(t, &o, validation_empty(t, slot, pw) ? TE_ValidateNone : TE_Validate);
    return o.abort;
}

static bool sm_tx_validated(struct sm_tx *t, unsigned slot, const struct msg *m,
                            const struct ptx_warp *pw, uint32_t *abort)
{
    const struct sm_tx_warp *w = &t->w[slot];
    if (!w->n_val)
        panic("sm_tx: a validation answer for warp %u, which awaits none", slot);
    bool last = w->n_val == 1;
    struct tx_op o = {.slot = slot, .ans = m, .pw = pw};
    step(t, &o, last ? TE_LastAnswer : TE_Answer);
    *abort = o.abort;
    return last;
}

void sm_tx_set_oracle(struct sm_tx *t, sm_tx_value_now *fn, void *arg)
{
    t->value_now = fn;
    t->value_arg = arg;
}

static uint32_t sm_tx_eager_check(struct sm_tx *t, unsigned slot, const struct ptx_warp *pw)
{
    if (!t->p.eager || !t->value_now)
        return 0;
    struct tx_op o = {.slot = slot, .pw = pw};
    step(t, &o, TE_Check);
    return o.abort;
}

/* EAPG (ideal): a commit's signature just up meets granules the running
 * attempt has read: those lanes abort now (EarlyAbort). */
static uint32_t sm_tx_doomed(struct sm_tx *t, unsigned slot, const struct ptx_warp *pw,
                             uint64_t sig)
{
    const struct sm_tx_warp *w = &t->w[slot];
    if (!ptx_warp_in_tx(pw) || w->n_val || w->validated)
        return 0; /* not running, or already committing */
    uint32_t n_log, live, doomed = 0;
    const struct ptx_tx_access *log = ptx_warp_tx_log(pw, &n_log, &live);
    for (uint32_t k = 0; k < n_log; k++) {
        const struct ptx_tx_access *a = &log[k];
        if (!a->write && a->done && (live >> a->lane & 1) &&
            (tx_board_bit(a->addr / t->p.granule) & sig))
            doomed |= 1u << a->lane;
    }
    if (doomed)
        step(t, &(struct tx_op){.slot = slot, .lanes = doomed}, TE_EarlyAbort);
    return doomed;
}

static uint64_t sm_tx_take_paused(struct sm_tx *t)
{
    uint64_t m = t->paused;
    t->paused = 0;
    return m;
}

/* The end of an attempt: which of the end events it is. */
static unsigned sm_tx_end(struct sm_tx *t, unsigned slot, const struct ptx_tx_end *e, bool left,
                          cycle_t cyc)
{
    const struct sm_tx_warp *w = &t->w[slot];
    struct tx_op o = {.slot = slot, .cyc = cyc, .e = e, .left = left};
    o.next = getm_advance_ts(&t->p, t->wid_base + slot, MAX(w->ts, w->horizon));
    o.overflow = !t->p.warptm && o.next > getm_ts_limit(&t->p);
    bool roll = o.overflow || (!t->p.warptm && t->epoch && tx_epoch_stalling(t->epoch));
    bool acks = w->n_acks || w->n_resv; /* every reservation is a message */
    /* forward progress (tx_serial.h): a warp whose attempts have had no lane
     * commit progress_aborts times in a row asks for the serial token; while
     * the token is asked for or held, no other warp's retry starts */
    uint32_t fruitless = e->committed ? 0 : w->fruitless + 1;
    bool alone = t->serial && !left && !w->serial;
    bool ask = alone && fruitless >= t->p.progress_aborts;
    bool token = alone && (ask || tx_serial_busy(t->serial));
    unsigned event;
    if (left)
        event = acks ? (roll ? TE_LeaveAcksRoll : TE_LeaveAcks) : (roll ? TE_LeaveRoll : TE_Leave);
    else if (roll)
        event = token ? TE_RetryRollToken : TE_RetryRoll;
    else if (token)
        event = TE_RetryToken;
    else
        event = acks && retry_waits_acks(t) ? TE_RetryAcks : TE_Retry;
    step(t, &o, event); /* it may roll over, which restarts this warp too */
    if (ask)
        tx_serial_request(t->serial, t->serial_id, slot); /* last: it may be granted at once */
    return o.wait;
}

static struct msg *sm_tx_peek_out(void *ctx)
{
    struct sm_tx *t = ctx;
    return t->out.head;
}

static void sm_tx_pop_out(void *ctx)
{
    struct sm_tx *t = ctx;
    msg_list_pop(&t->out);
}

static bool sm_tx_ack(struct sm_tx *t, unsigned slot, cycle_t cyc)
{
    const struct sm_tx_warp *w = &t->w[slot];
    if (!w->n_acks)
        panic("sm_tx: a commit acknowledgement for warp %u, which awaits none", slot);
    bool last = w->n_acks == 1;
    step(t, &(struct tx_op){.slot = slot, .cyc = cyc}, last ? TE_LastAck : TE_Ack);
    return last;
}

/* ---- the GPU-wide agreements: events that come from other SMs ---- */

/* GETM's timestamp rollover is done: the warps that waited for it go on. */
static void rolled(void *obj)
{
    struct sm_tx *t = obj;
    sm_ext_resume(t->sm, sm_tx_rollover(t));
}

void sm_tx_join_epoch(struct sm_tx *t, struct tx_epoch *e, unsigned index)
{
    t->epoch = e;
    tx_epoch_listen_sm(e, index, rolled, t);
}

/* The serial token changed hands or came free. */
static void serial_moved(void *obj)
{
    struct sm_tx *t = obj;
    sm_ext_resume(t->sm, sm_tx_serial_changed(t));
}

void sm_tx_join_serial(struct sm_tx *t, struct tx_serial *s, unsigned index)
{
    t->serial = s;
    t->serial_id = index;
    tx_serial_listen(s, index, serial_moved, t);
}

/* EAPG (ideal): a commit's signature went up (sig != 0: running attempts
 * that read its granules abort now) or came down (validations it held go
 * on). Called from whichever SM's tick published or withdrew it. */
static void hear(void *obj, uint64_t sig)
{
    struct sm_tx *t = obj;
    uint64_t wake = 0;
    if (!sig) {
        wake = sm_tx_take_paused(t);
    } else {
        for (unsigned slot = 0; slot < t->io.warps; slot++) {
            struct ptx_warp *pw = sm_ext_warp(t->sm, slot);
            uint32_t doomed = pw ? sm_tx_doomed(t, slot, pw, sig) : 0;
            if (doomed) {
                sm_ext_abort(t->sm, slot, doomed);
                wake |= 1ull << slot;
            }
        }
    }
    sm_ext_resume(t->sm, wake);
}

void sm_tx_join_board(struct sm_tx *t, struct tx_board *b, unsigned index)
{
    t->board = b;
    t->sm_id = index;
    tx_board_listen(b, index, hear, t);
}

/* ---- the SM's hooks (gpu/sm_ext.h) ---- */

static void ext_begin(void *ctx, unsigned slot, cycle_t cyc)
{
    step(ctx, &(struct tx_op){.slot = slot, .cyc = cyc}, TE_Begin);
}

/* WarpTM: a warp at the end of its attempt sends its read log to be
 * validated before the attempt may end. */
static bool ext_holds(void *ctx, unsigned slot, struct ptx_warp *pw, unsigned n_out)
{
    struct sm_tx *t = ctx;
    if (sm_tx_wants_validation(t, slot, pw, n_out)) {
        uint32_t doomed = sm_tx_eager_check(t, slot, pw); /* WarpTM-EL: at no cost */
        if (doomed)
            ptx_warp_tx_abort(pw, doomed);
        uint32_t abort = sm_tx_validate(t, slot, pw);
        if (abort)
            ptx_warp_tx_abort(pw, abort);
    }
    return sm_tx_blocks(t, slot, pw, n_out);
}

/* WarpTM: transactional stores stay in the warp's redo log (no message). */
static bool ext_keeps_store(void *ctx, unsigned slot, const struct ptx_warp *pw, uint32_t *abort)
{
    struct sm_tx *t = ctx;
    if (!t->p.warptm)
        return false;
    *abort = sm_tx_eager_check(t, slot, pw);
    return true;
}

static void ext_stamp(void *ctx, unsigned slot, struct msg *m, bool store)
{
    step(ctx, &(struct tx_op){.slot = slot, .m = m, .store = store}, TE_Issue);
}

static bool ext_verdict(void *ctx, unsigned slot, const struct msg *m, const struct ptx_memop *op,
                        uint32_t lanes, uint32_t *abort)
{
    return sm_tx_verdict(ctx, slot, m, op, lanes, abort);
}

static uint32_t ext_loaded(void *ctx, unsigned slot, const struct ptx_warp *pw)
{
    return sm_tx_eager_check(ctx, slot, pw);
}

/* A validation answered (its id's free bit set: validation_of), or a commit
 * or cleanup done. */
static bool ext_answer(void *ctx, unsigned slot, const struct msg *m, const struct ptx_warp *pw,
                       cycle_t cyc, uint32_t *abort)
{
    if (m->req.id & 1)
        return sm_tx_validated(ctx, slot, m, pw, abort);
    *abort = 0;
    return sm_tx_ack(ctx, slot, cyc);
}

/* A warp that leaves its transaction makes room under the limit. */
static unsigned ext_end(void *ctx, unsigned slot, const struct ptx_tx_end *e, bool left,
                        cycle_t cyc, uint64_t *wake)
{
    unsigned wait = sm_tx_end(ctx, slot, e, left, cyc);
    *wake = left ? sm_tx_take_limit_waiters(ctx) : 0;
    return wait;
}

static const struct sm_ext_ops sm_tx_ops = {
    .begin = ext_begin,
    .holds = ext_holds,
    .keeps_store = ext_keeps_store,
    .stamp = ext_stamp,
    .verdict = ext_verdict,
    .loaded = ext_loaded,
    .answer = ext_answer,
    .end = ext_end,
    .peek_out = sm_tx_peek_out,
    .pop_out = sm_tx_pop_out,
};
