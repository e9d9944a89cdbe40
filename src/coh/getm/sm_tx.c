/*
 * sm_tx.c - the SM's part of GETM and WarpTM: warp timestamps, the
 * transactional-warp limit, verdicts, validation and the commit unit, as the
 * SM's transaction extension (see sm_tx.h, gpu/sm_ext.h).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "coh/getm/sm_tx.h"

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
    struct tx_board *board;   /* EAPG (ideal): the commits' broadcasts, or NULL */
    unsigned sm_id;           /* this SM on the board */
    uint64_t paused;          /* EAPG: warps holding their validation for a signature */
    struct tx_epoch *epoch;   /* GETM: the timestamp rollover board, or NULL */
    uint64_t epoch_waiters;   /* warps held for a rollover (woken by it) */
    struct tx_serial *serial; /* the serialising fallback's token, or NULL */
    unsigned serial_id;       /* this SM on it */
    uint64_t serial_waiters;  /* warps held while another warp asks for or holds the token */
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
    sm_set_ext(sm, &sm_tx_ops, t);
    return t;
}

void sm_tx_free(struct sm_tx *t)
{
    if (!t)
        return;
    for (unsigned s = 0; s < SM_TX_WARPS; s++)
        free(t->w[s].resv);
    free(t->build);
    free(t);
}

const struct sm_tx_stats *sm_tx_stats_of(const struct sm_tx *t)
{
    return &t->st;
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

static uint64_t sm_tx_rollover(struct sm_tx *t)
{
    for (unsigned s = 0; s < SM_TX_WARPS; s++) {
        struct sm_tx_warp *w = &t->w[s];
        w->ts = getm_first_ts(&t->p, t->wid_base + s);
        w->horizon = 0;
        if (w->ts_wait && w->in_tx && !w->serial_wait) { /* its retry runs now */
            w->running = true;
            note_live(t, w);
        }
        w->ts_wait = false;
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
        struct sm_tx_warp *w = &t->w[s];
        if (!w->serial_wait)
            continue;
        if (tx_serial_holds(t->serial, t->serial_id, s)) {
            w->serial = true;
            w->fruitless = 0;
            t->st.serial_grants++;
        } else if (busy) {
            continue; /* another warp's turn */
        }
        w->serial_wait = false;
        if (w->in_tx && !w->ts_wait) { /* its retry runs now (after a rollover, if one waits) */
            w->running = true;
            note_live(t, w);
        }
        wake |= 1ull << s;
    }
    if (!busy) {
        wake |= t->serial_waiters;
        t->serial_waiters = 0;
    }
    return wake;
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

static bool sm_tx_blocks(struct sm_tx *t, unsigned slot, const struct ptx_warp *pw, unsigned n_out)
{
    struct sm_tx_warp *w = &t->w[slot];
    if ((w->ts_wait && (ptx_warp_in_tx(pw) || ptx_warp_at_tx_begin(pw))) ||
        (t->epoch && tx_epoch_stalling(t->epoch) && !w->running && ptx_warp_at_tx_begin(pw))) {
        t->epoch_waiters |= 1ull << slot; /* no attempt starts before the rollover */
        return true;
    }
    if (w->serial_wait || (t->serial && !w->serial && !w->running && tx_serial_busy(t->serial) &&
                           ptx_warp_at_tx_begin(pw))) {
        if (!(t->serial_waiters >> slot & 1))
            t->st.serial_stalls++;
        t->serial_waiters |= 1ull << slot; /* no other attempt starts while one runs alone */
        return true;
    }
    if (w->n_acks && (w->acks_block || !ptx_warp_in_tx(pw)))
        return true;
    if ((n_out || w->n_access || (t->p.warptm && !w->validated)) && ptx_warp_at_tx_end(pw))
        return true;
    if (t->limit && !w->in_tx && t->n_in_tx >= t->limit && ptx_warp_at_tx_begin(pw)) {
        if (!(t->limit_waiters >> slot & 1))
            t->st.limit_waits++;
        t->limit_waiters |= 1ull << slot;
        return true;
    }
    return false;
}

static uint64_t sm_tx_take_limit_waiters(struct sm_tx *t)
{
    uint64_t m = t->limit_waiters;
    t->limit_waiters = 0;
    return m;
}

static void sm_tx_begin(struct sm_tx *t, unsigned slot, cycle_t cyc)
{
    struct sm_tx_warp *w = &t->w[slot];
    w->start = cyc;
    if (!w->resv && !(w->resv = calloc(PTX_TX_LOG_MAX, sizeof *w->resv)))
        panic("out of memory");
    w->in_tx = true;
    w->running = true;
    w->n_resv = 0;
    w->horizon = 0;
    t->n_in_tx++;
    t->st.begins++;
    note_live(t, w);
}

static void sm_tx_stamp(struct sm_tx *t, unsigned slot, struct msg *m, bool store)
{
    struct sm_tx_warp *w = &t->w[slot];
    /* to the L1 a validation is a load performed at the L2 (item 20: it
     * bypasses the L1); the bank's validation unit tells the two apart */
    m->req.op = MEM_LOAD;
    m->req.sem = SEM_RELAXED;
    m->req.scope = SCOPE_GPU;
    m->req.tx = store ? MEM_TX_STORE : MEM_TX_LOAD;
    m->ts = w->ts;
    m->acks = (int32_t)w->seq;
    w->n_access++;
}

static bool sm_tx_verdict(struct sm_tx *t, unsigned slot, const struct msg *m,
                          const struct ptx_memop *op, uint32_t lanes, uint32_t *abort)
{
    struct sm_tx_warp *w = &t->w[slot];
    if (!w->n_access)
        panic("sm_tx: a verdict for warp %u, which awaits none", slot);
    if (t->p.warptm) { /* a load's data, and the TCD's times */
        w->first_read = MIN(w->first_read, m->ts);
        w->last_write = MAX(w->last_write, m->ts2);
        *abort = 0;
        return --w->n_access == 0;
    }
    w->horizon = MAX(w->horizon, m->ts2);
    uint32_t aborted = GETM_ABORTED(m->sharer), reserved = GETM_RESERVED(m->sharer);
    *abort = 0;
    for (; aborted && lanes; lanes &= lanes - 1) {
        unsigned l = (unsigned)__builtin_ctz(lanes);
        unsigned k = (unsigned)((op->addr[l] - m->addr) / t->p.granule);
        if (aborted >> k & 1) {
            *abort |= 1u << l;
            claim(t, slot, 1u << l, SM_TX_ABORT_load_late + GETM_ABORT_KIND(m->sharer, k));
        }
    }
    t->st.vu_aborts += (uint64_t)__builtin_popcount(*abort);
    if (reserved) {
        if (w->n_resv >= PTX_TX_LOG_MAX)
            panic("sm_tx: warp %u has more reservations than log entries", slot);
        w->resv[w->n_resv++] = (struct sm_tx_resv){m->addr, (uint8_t)reserved};
    }
    return --w->n_access == 0;
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

static bool sm_tx_wants_validation(struct sm_tx *t, unsigned slot, const struct ptx_warp *pw,
                                   unsigned n_out)
{
    struct sm_tx_warp *w = &t->w[slot];
    if (!t->p.warptm || w->validated || w->n_val || n_out || w->n_access || !ptx_warp_at_tx_end(pw))
        return false;
    if (t->board && tx_board_meets(t->board, t->sm_id, slot, signature(t, pw))) {
        t->st.eapg_pauses += !(t->paused >> slot & 1);
        t->paused |= 1ull << slot; /* Pause-n-Go: validate once that commit is done */
        return false;
    }
    t->paused &= ~(1ull << slot);
    return true;
}

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
    t->st.eapg_aborts += (uint64_t)__builtin_popcount(doomed);
    claim(t, slot, doomed, SM_TX_ABORT_eapg);
    return doomed;
}

static uint64_t sm_tx_take_paused(struct sm_tx *t)
{
    uint64_t m = t->paused;
    t->paused = 0;
    return m;
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

static uint32_t sm_tx_validate(struct sm_tx *t, unsigned slot, const struct ptx_warp *pw)
{
    struct sm_tx_warp *w = &t->w[slot];
    struct mem_req tmpl = t->io.hdr;
    tmpl.warp = (uint16_t)slot;
    uint32_t n_log, live, abort = 0;
    const struct ptx_tx_access *log = ptx_warp_tx_log(pw, &n_log, &live);
    bool writes = false;
    for (uint32_t k = 0; k < n_log; k++)
        writes |= log[k].write && (live >> log[k].lane & 1);
    w->validated = true;
    if (!live || (t->p.silent && !writes && w->last_write < w->first_read)) {
        t->st.silent_commits += live != 0;
        return 0; /* read a snapshot (or nothing is left): no validation */
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
    claim(t, slot, abort, SM_TX_ABORT_stale_pair);
    w->n_val = n;
    w->validated = !n;
    return abort;
}

static bool sm_tx_validated(struct sm_tx *t, unsigned slot, const struct msg *m,
                            const struct ptx_warp *pw, uint32_t *abort)
{
    struct sm_tx_warp *w = &t->w[slot];
    if (!w->n_val)
        panic("sm_tx: a validation answer for warp %u, which awaits none", slot);
    uint32_t failed = GETM_ABORTED(m->sharer), n_log, live;
    uint8_t wr = (uint8_t)GETM_RESERVED(m->sharer), rd = (uint8_t)WARPTM_READ_HELD(m->sharer);
    const struct ptx_tx_access *log = ptx_warp_tx_log(pw, &n_log, &live);
    *abort = 0;
    for (uint32_t k = 0; failed && k < n_log; k++) {
        const struct ptx_tx_access *a = &log[k];
        if (!(live >> a->lane & 1) || (a->addr & ~(addr_t)(t->line_bytes - 1)) != m->addr)
            continue;
        uint32_t gs = failed & granules_in(t, (unsigned)(a->addr - m->addr), a->size);
        if (gs) {
            *abort |= 1u << a->lane;
            claim(t, slot, 1u << a->lane,
                  SM_TX_ABORT_mismatch + WARPTM_FAIL_WHY(m->ts, __builtin_ctz(gs)));
        }
    }
    t->st.vu_aborts += (uint64_t)__builtin_popcount(*abort);
    bool unheld = w->serial; /* alone, nothing is held: the line's writes are still to commit */
    for (uint32_t k = 0; unheld && k < n_log; k++) {
        const struct ptx_tx_access *a = &log[k];
        if (a->write && (live >> a->lane & 1) && !(*abort >> a->lane & 1) &&
            (a->addr & ~(addr_t)(t->line_bytes - 1)) == m->addr)
            wr |= (uint8_t)granules_in(t, (unsigned)(a->addr - m->addr), a->size);
    }
    if (wr | rd) {
        if (w->n_resv >= PTX_TX_LOG_MAX)
            panic("sm_tx: warp %u holds more lines than log entries", slot);
        w->resv[w->n_resv++] = (struct sm_tx_resv){m->addr, wr, rd, unheld};
    }
    if (--w->n_val)
        return false;
    w->validated = true;
    return true;
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
    uint32_t n_log, live, abort = 0;
    const struct ptx_tx_access *log = ptx_warp_tx_log(pw, &n_log, &live);
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
    claim(t, slot, abort, SM_TX_ABORT_eager);
    return abort;
}

/* The message of `line` among the attempt's first n, or NULL. */
static struct msg *find_line(struct sm_tx *t, unsigned n, addr_t line)
{
    for (unsigned i = n; i-- > 0;)
        if (t->build[i]->addr == line)
            return t->build[i];
    return NULL;
}

static unsigned sm_tx_end(struct sm_tx *t, unsigned slot, const struct ptx_tx_end *e, bool left,
                          cycle_t cyc)
{
    struct sm_tx_warp *w = &t->w[slot];
    struct mem_req tmpl = t->io.hdr;
    tmpl.warp = (uint16_t)slot;
    unsigned n = 0;
    t->st.attempt_cycles += cyc - MIN(w->start, cyc);
    w->ended = cyc;
    (void)left;
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
            panic("sm_tx: warp %u commits a write to 0x%llx, which it never reserved", slot,
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
    w->acks_block = left || retry_waits_acks(t);
    if (t->board && sig) {
        tx_board_publish(t->board, t->sm_id, slot, sig);
        w->published = true;
    }
    w->n_resv = 0;
    /* the next attempt's timestamp passes everything this one saw; one that
     * does not fit the timestamps' width waits for a rollover, and while one
     * is asked for no attempt starts (WarpTM's timestamps are physical) */
    getm_ts next = getm_advance_ts(&t->p, t->wid_base + slot, MAX(w->ts, w->horizon));
    bool overflow = !t->p.warptm && next > getm_ts_limit(&t->p);
    w->running = !left;
    if (overflow || (!t->p.warptm && t->epoch && tx_epoch_stalling(t->epoch))) {
        if (!t->epoch)
            panic("sm_tx: warp %u's next timestamp %llu does not fit %u bits, and nothing rolls "
                  "over",
                  slot, (unsigned long long)next, t->p.ts_bits);
        if (overflow) {
            t->st.rollover_requests++;
            tx_epoch_request(t->epoch);
        }
        w->ts_wait = true;
        w->running = false;
    } else {
        w->ts = next;
        t->st.ts_max = MAX(t->st.ts_max, t->p.unique_ts ? w->ts >> t->p.warp_bits : w->ts);
    }
    w->horizon = 0;
    w->first_read = UINT64_MAX;
    w->last_write = 0;
    w->validated = false;
    w->seq++;
    t->st.attempts++;
    t->st.lane_commits += (uint64_t)__builtin_popcount(e->committed);
    t->st.lane_aborts += (uint64_t)__builtin_popcount(e->aborted);
    /* an aborted lane no verdict claimed aborted in the interpreter */
    t->st.aborts[SM_TX_ABORT_intra] += (uint64_t)__builtin_popcount(e->aborted & ~w->claimed);
    w->claimed = 0;
    if (left) {
        w->in_tx = false;
        t->n_in_tx--;
    }
    /* forward progress (tx_serial.h): a warp whose attempts have had no lane
     * commit progress_aborts times in a row asks for the serial token; while
     * the token is asked for or held, no other warp's retry starts */
    w->fruitless = e->committed ? 0 : w->fruitless + 1;
    t->st.fruitless_max = MAX(t->st.fruitless_max, w->fruitless);
    t->st.serial_attempts += w->serial;
    bool ask = false;
    if (t->serial && !left && !w->serial) {
        ask = w->fruitless >= t->p.progress_aborts;
        if (ask || tx_serial_busy(t->serial)) {
            w->serial_wait = true;
            w->running = false;
        }
    }
    unsigned wait = 0;
    if (!e->aborted) {
        w->fails = 0;
        w->start = cyc;
    } else {
        w->fails = (uint8_t)MIN(w->fails + 1, SM_TX_BACKOFF_MAX_EXP);
        /* alone, a retry has nobody to make way for */
        wait = t->backoff && !w->serial
                   ? (unsigned)rng_below(&t->rng, (uint64_t)t->backoff << w->fails)
                   : 0;
        t->st.backoff_cycles += wait;
        w->start = cyc + wait; /* the retry starts after its backoff and its acks */
    }
    note_live(t, w); /* it may roll over, which restarts this warp too */
    if (ask)
        tx_serial_request(t->serial, t->serial_id, slot); /* last: it may be granted at once */
    return wait;
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
    struct sm_tx_warp *w = &t->w[slot];
    if (!w->n_acks)
        panic("sm_tx: a commit acknowledgement for warp %u, which awaits none", slot);
    if (--w->n_acks)
        return false;
    if (w->published) {
        w->published = false;
        tx_board_withdraw(t->board, t->sm_id, slot);
    }
    t->st.commit_wait_cycles += cyc - MIN(w->ended, cyc);
    if (w->acks_block)
        w->start = MAX(w->start, cyc);
    note_live(t, w); /* last: it may roll over */
    return true;
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
    sm_tx_begin(ctx, slot, cyc);
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
    sm_tx_stamp(ctx, slot, m, store);
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
