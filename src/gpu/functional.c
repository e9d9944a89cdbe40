/*
 * functional.c - the functional mode: run a kernel's warps round-robin, one
 * instruction per warp per round, with global memory read and written
 * straight from the backing store and no timing at all.
 *
 * Every CTA of the grid is resident at once (up to max_resident_ctas; larger
 * grids admit a new CTA when one finishes, as hardware does), and the
 * round-robin interleaving means kernels whose CTAs or warps spin-wait on each
 * other (message passing, spin locks) terminate. A kernel whose CTAs cannot
 * observe each other's timing (ptx_kernel_info.cta_independent: no atomics,
 * fences, strong accesses, transactions or clock reads beyond the CTA) keeps
 * only FUNCTIONAL_INDEPENDENT_RESIDENT CTAs resident: its results are the
 * same, because a CTA's warps still step in the same order among themselves,
 * and without those instructions CTAs of one launch can only exchange values
 * by a data race, whose outcome the PTX model leaves open anyway. Atomics are performed lane
 * by lane in lane order with atom_apply, the arithmetic the L2 banks of the
 * timing machine use, so both modes compute identical values.
 * Barriers: a warp arriving at bar.sync waits until its CTA's barrier is
 * complete. With no thread count, a barrier completes when every warp of the
 * CTA that has not exited has arrived; with a count, when the arriving warps'
 * threads (counted per warp, as hardware does) reach it. bar.arrive counts in
 * and continues.
 * INVARIANT: a warp waiting at a barrier is never stepped.
 * NOT MODELED: time (%clock counts rounds, host cycles stay 0), memory
 * ordering (fences are no-ops: every access is performed when issued).
 * Watchdog: all live warps blocked at barriers, more warp instructions than
 * the budget in one kernel, or spin_rounds rounds in which no warp progresses
 * (stores, does an atomic, commits a transaction, loads a value it had not
 * just loaded, or finishes: the timing mode's spin watchdog, with rounds for
 * cycles, which they never outnumber) is a simulator fault (exit 3) with a
 * dump of the live warps.
 * Transactions (docs/transactions.md) run under GETM's rules with no timing:
 * every transactional access goes through one validation unit sized for the
 * whole GPU (functional_set_tm: coh/getm/getm_fn.h); a load's data comes from the
 * backing store once the VU lets it through; a lane the VU parks in its stall
 * buffer holds its warp until the lane re-enters; the end of an attempt writes
 * the committed lanes' logs to the backing store, then releases every
 * reservation (commit or cleanup) and advances the warp's timestamp past all
 * it saw (items 17 and 18).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "gpu/functional.h"

#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "base/rng.h"
#include "gpu/inst_observer.h"
#include "ptx/ptx.h"
#include "sim/req.h"

#define FN_NBARRIERS   16
#define FN_NOT_WAITING 0xff

struct fn_bar {
    uint32_t count; /* threads expected; 0 = every live warp */
    uint32_t arrived_warps;
    uint32_t arrived_threads;
};

struct fn_warp {
    struct ptx_warp *w;
    uint32_t n_threads; /* threads of the CTA this warp holds (32 but for the last) */
    uint8_t waiting;    /* barrier id it waits at, or FN_NOT_WAITING */
    bool done;
    bool tx_wait;            /* a transactional access waits in the VU's stall buffer */
    uint64_t tx_sleep_until; /* backing off after an abort: not stepped before this round */
    uint64_t last_load;      /* hash of its last load's addresses and values (spin check) */
    addr_t last_addr;        /* its last load's first lane: address and value, for the dump */
    uint64_t last_value;
};

/* A warp slot's transaction state (wid = CTA slot * 32 + warp), kept across
 * the CTAs that use the slot so that its timestamps only grow. */
#define FN_WARPS_PER_SLOT 32
struct fn_tx {
    uint32_t wid, seq; /* seq: the attempt, which tags the VU's owners (item 19) */
    uint64_t ts;
    uint64_t horizon;     /* the largest abort cause, rts and wts the attempt saw */
    struct fn_warp *fw;   /* the warp running in the slot */
    struct ptx_memop op;  /* the access being validated */
    uint32_t queued;      /* its lanes parked in the stall buffer */
    uint64_t data[32][2]; /* its loads' data */
    uint32_t fails;       /* attempts in a row that had aborts: the backoff's exponent */
    uint32_t fruitless;   /* attempts in a row in which no lane committed */
    bool serial_wait;     /* asked for the serial token, not yet granted */
    bool running;         /* an attempt runs: from its begin (or the end of the attempt
                             before, or the first step after being held) to its end */
    struct rng rng;       /* the backoff's draws */
    uint32_t n_resv;
    addr_t resv[PTX_TX_LOG_MAX]; /* one per reservation the VU granted */
};

/* Backoff after an abort (spec 004a §9 item 26: binary exponential with a
 * random slot), in rounds: without it two warps that keep reading what the
 * other writes can abort each other for ever. */
#define FN_TX_BACKOFF_BASE    4u
#define FN_TX_BACKOFF_MAX_EXP 10u

/* A resident CTA slot; reused by the next CTA of the grid when it finishes. */
struct fn_cta {
    struct ptx_cta *cta; /* NULL when the slot is empty */
    struct ptx_dim3 id;
    unsigned n_warps, live_warps;
    struct fn_warp *warps; /* [n_warps] */
    struct fn_bar bar[FN_NBARRIERS];
};

struct functional {
    struct backing *store;
    struct functional_opts opts;
    struct functional_stats st;
    uint32_t lat[PTX_LAT_N]; /* all zero: no timing */
    struct ptx_step step;    /* reused by every step: no per-instruction allocation */
    uint64_t lane_data[32][2];
    const char *kernel_name;       /* of the kernel running, for messages */
    struct inst_observer observer; /* functional_set_inst_observer; .done NULL: none */
    struct fn_cta *slots;          /* the running kernel's CTA slots; kept here so that a kernel
                                      abandoned by a fault (tests longjmp out of fatal) is freed */
    unsigned n_slots;
    /* transactions: the conflict detection made at the first transactional access */
    const struct functional_tm_ops *tm_ops; /* transactions' conflict detection, or NULL */
    void *tm;                               /* made from it at the first transaction */
    unsigned tm_wid_bits;                   /* it tells apart wids below 2^tm_wid_bits */
    struct fn_tx **tx;                      /* [n_tx], by wid */
    unsigned n_tx;
    /* the serialising fallback (as the timing mode's coh/getm/tx_serial.c): a warp
     * with progress_aborts fruitless attempts in a row asks for the token; no
     * other attempt starts while it is asked for or held; once none runs, the
     * oldest asker runs its transaction alone until every lane has committed */
    uint32_t *askers; /* wids, oldest first; askers[0] holds the token when granted */
    unsigned n_askers, cap_askers;
    bool serial_granted;
    unsigned tx_running; /* attempts running (fn_tx.running) */
    unsigned n_held;     /* warps between two attempts of a transaction, held back */
    uint64_t round;      /* the round-robin loop's round */
    uint64_t advances;   /* progress events (see the watchdog above) */
};

static void cta_retire(struct fn_cta *c);

static void release_slots(struct functional *f)
{
    for (unsigned s = 0; s < f->n_slots; s++)
        if (f->slots[s].cta)
            cta_retire(&f->slots[s]);
    free(f->slots);
    f->slots = NULL;
    f->n_slots = 0;
}

void functional_set_opts(struct functional *f, const struct functional_opts *o)
{
    memset(&f->opts, 0, sizeof f->opts);
    if (o)
        f->opts = *o;
    if (!f->opts.max_resident_ctas)
        f->opts.max_resident_ctas = FUNCTIONAL_DEFAULT_RESIDENT;
    if (!f->opts.progress_aborts)
        f->opts.progress_aborts = FUNCTIONAL_DEFAULT_PROGRESS;
}

struct functional *functional_new(struct backing *store, const struct functional_opts *o)
{
    struct functional *f = calloc(1, sizeof *f);
    if (!f)
        panic("out of memory");
    f->store = store;
    functional_set_opts(f, o);
    return f;
}

void functional_set_tm(struct functional *f, const struct functional_tm_ops *tm)
{
    if (f->tm)
        panic("functional: the conflict detection changes after a transaction");
    f->tm_ops = tm;
}

void functional_delete(struct functional *f)
{
    if (!f)
        return;
    release_slots(f);
    free(f->askers);
    if (f->tm)
        f->tm_ops->destroy(f->tm);
    for (unsigned k = 0; k < f->n_tx; k++)
        free(f->tx[k]);
    free(f->tx);
    free(f);
}

const struct functional_stats *functional_stats(const struct functional *f)
{
    return &f->st;
}

/* ---- CTAs and barriers ---- */

static void cta_admit(struct fn_cta *c, const struct launch *l, uint64_t linear)
{
    struct ptx_dim3 id = {
        (uint32_t)(linear % l->grid.x),
        (uint32_t)(linear / l->grid.x % l->grid.y),
        (uint32_t)(linear / l->grid.x / l->grid.y),
    };
    c->id = id;
    c->cta = ptx_cta_new(l->kernel, id, l->grid, l->block, l->params, l->dyn_shmem_bytes);
    c->n_warps = c->live_warps = ptx_cta_n_warps(c->cta);
    c->warps = calloc(c->n_warps, sizeof *c->warps);
    if (!c->warps)
        panic("out of memory");
    uint32_t threads = l->block.x * l->block.y * l->block.z;
    for (unsigned i = 0; i < c->n_warps; i++) {
        c->warps[i].w = ptx_warp_new(c->cta, i);
        c->warps[i].n_threads = MIN(32u, threads - 32u * i);
        c->warps[i].waiting = FN_NOT_WAITING;
    }
    memset(c->bar, 0, sizeof c->bar);
}

static void cta_retire(struct fn_cta *c)
{
    for (unsigned i = 0; i < c->n_warps; i++)
        ptx_warp_free(c->warps[i].w);
    free(c->warps);
    ptx_cta_free(c->cta);
    c->cta = NULL;
    c->warps = NULL;
}

static bool bar_complete(const struct fn_cta *c, const struct fn_bar *b)
{
    if (!b->arrived_warps)
        return false;
    return b->count ? b->arrived_threads >= b->count : b->arrived_warps >= c->live_warps;
}

static void bar_release(struct fn_cta *c, unsigned id)
{
    for (unsigned i = 0; i < c->n_warps; i++) {
        if (c->warps[i].waiting == id) {
            c->warps[i].waiting = FN_NOT_WAITING;
            ptx_warp_barrier_release(c->warps[i].w);
        }
    }
    memset(&c->bar[id], 0, sizeof c->bar[id]);
}

static void bar_arrive(struct functional *f, struct fn_cta *c, struct fn_warp *fw,
                       const struct ptx_barrier *pb)
{
    if (pb->id >= FN_NBARRIERS)
        fatal("kernel %s: barrier id %u is out of range 0..15", f->kernel_name, pb->id);
    struct fn_bar *b = &c->bar[pb->id];
    if (!b->arrived_warps)
        b->count = pb->count;
    b->arrived_warps++;
    b->arrived_threads += fw->n_threads;
    if (!pb->arrive_only)
        fw->waiting = (uint8_t)pb->id;
    if (bar_complete(c, b))
        bar_release(c, pb->id);
}

/* A warp exited: barriers waiting for "all live warps" may now be complete. */
static void warp_exited(struct fn_cta *c, struct fn_warp *fw)
{
    fw->done = true;
    c->live_warps--;
    for (unsigned id = 0; id < FN_NBARRIERS; id++)
        if (!c->bar[id].count && bar_complete(c, &c->bar[id]))
            bar_release(c, id);
}

/* ---- global memory ---- */

static _Noreturn void mem_fault(struct functional *f, const struct fn_cta *c, unsigned warp,
                                const char *what, const struct ptx_memop *m, addr_t a)
{
    char where[256];
    static const char *const ops[] = {"load", "store", "atomic", "fence"};
    fatal("kernel %s: CTA (%u,%u,%u) warp %u: %s global %s of %u bytes at 0x%llx (the "
          "instruction before %s)",
          f->kernel_name, c->id.x, c->id.y, c->id.z, warp, what, m->op < 4 ? ops[m->op] : "access",
          m->size, (unsigned long long)a, ptx_warp_where(c->warps[warp].w, where, sizeof where));
}

static void tx_mem(struct functional *f, struct fn_cta *c, unsigned warp);

static void do_mem(struct functional *f, struct fn_cta *c, unsigned warp)
{
    const struct ptx_memop *m = &f->step.mem;
    struct fn_warp *fw = &c->warps[warp];
    unsigned size = m->size;

    if (m->op == MEM_FENCE)
        return; /* every access is performed at issue: nothing to order */
    if (m->tx) {
        tx_mem(f, c, warp);
        return;
    }
    for (uint32_t mask = m->mask; mask; mask &= mask - 1) {
        unsigned l = (unsigned)__builtin_ctz(mask);
        addr_t a = m->addr[l];
        if (a & (size - 1))
            mem_fault(f, c, warp, "misaligned", m, a);
        if (a < BACKING_PAGE_BYTES)
            mem_fault(f, c, warp, "null-pointer", m, a);
    }
    switch (m->op) {
    case MEM_LOAD: {
        /* a warp that loads what it loaded last time (a spin on a flag) is not
         * progressing; a new address or a new value is (as in the timing SM) */
        uint64_t h = m->mask;
        for (uint32_t mask = m->mask; mask; mask &= mask - 1) {
            unsigned l = (unsigned)__builtin_ctz(mask);
            f->lane_data[l][0] = f->lane_data[l][1] = 0;
            backing_read(f->store, m->addr[l], f->lane_data[l], size);
            h = (h ^ m->addr[l] ^ f->lane_data[l][0] ^ (f->lane_data[l][1] << 1)) *
                0x9e3779b97f4a7c15ull;
        }
        f->advances += h != fw->last_load;
        fw->last_load = h;
        if (m->mask) {
            unsigned l = (unsigned)__builtin_ctz(m->mask);
            fw->last_addr = m->addr[l];
            fw->last_value = f->lane_data[l][0];
        }
        ptx_warp_complete(fw->w, m, (const uint64_t(*)[2])f->lane_data, 0);
        break;
    }
    case MEM_STORE:
        f->advances++;
        for (uint32_t mask = m->mask; mask; mask &= mask - 1) {
            unsigned l = (unsigned)__builtin_ctz(mask);
            backing_write(f->store, m->addr[l], m->data[l], size);
        }
        break;
    case MEM_ATOMIC: {
        f->advances++;
        struct atom_ops ops;
        unsigned w = atom_type_bytes(m->atom_type);
        uint8_t word[8];
        ops.kind = m->atom_kind;
        ops.type = m->atom_type;
        ops.n = 1;
        ops.is_red = m->is_red;
        for (uint32_t mask = m->mask; mask; mask &= mask - 1) {
            unsigned l = (unsigned)__builtin_ctz(mask);
            ops.lane[0] = (struct atom_lane){
                .lane = (uint8_t)l, .off = 0, .a = m->data[l][0], .b = m->data[l][1]};
            backing_read(f->store, m->addr[l], word, w);
            atom_apply(&ops, word);
            backing_write(f->store, m->addr[l], word, w);
            f->lane_data[l][0] = ops.lane[0].result;
            f->lane_data[l][1] = 0;
        }
        if (!m->is_red)
            ptx_warp_complete(fw->w, m, (const uint64_t(*)[2])f->lane_data, 0);
        break;
    }
    default:
        panic("functional: memory op %u is not a global access", m->op);
    }
}

/* ---- transactions ---- */

static struct fn_tx *tx_of(struct functional *f, struct fn_cta *c, unsigned warp)
{
    if (!f->tm) {
        if (!f->tm_ops)
            panic("functional: kernel %s runs a transaction, and no conflict detection was given "
                  "(functional_set_tm)",
                  f->kernel_name);
        f->tm = f->tm_ops->create((uint64_t)f->opts.max_resident_ctas * FN_WARPS_PER_SLOT,
                                  &f->tm_wid_bits);
    }
    unsigned slot = (unsigned)(c - f->slots), wid = slot * FN_WARPS_PER_SLOT + warp;
    if (warp >= FN_WARPS_PER_SLOT || wid >> f->tm_wid_bits)
        panic("functional: warp %u of CTA slot %u has no transaction id", warp, slot);
    if (wid >= f->n_tx) {
        unsigned n = MAX(wid + 1, 2 * f->n_tx);
        struct fn_tx **t = realloc(f->tx, n * sizeof *t);
        if (!t)
            panic("out of memory");
        memset(t + f->n_tx, 0, (n - f->n_tx) * sizeof *t);
        f->tx = t;
        f->n_tx = n;
    }
    if (!f->tx[wid]) {
        f->tx[wid] = calloc(1, sizeof *f->tx[wid]);
        if (!f->tx[wid])
            panic("out of memory");
        f->tx[wid]->wid = wid;
        f->tx[wid]->ts = f->tm_ops->first_ts(f->tm, wid);
        rng_seed(&f->tx[wid]->rng, 0x6e7a, wid);
    }
    f->tx[wid]->fw = &c->warps[warp];
    return f->tx[wid];
}

static void tx_lane(struct functional *f, struct fn_tx *t, unsigned l);

/* Re-enter the requests a release woke, in the order the VU gives. */
static void tx_release(struct functional *f, addr_t a)
{
    uint64_t woken[64];
    unsigned n = f->tm_ops->release(f->tm, a, woken, 64);
    for (unsigned k = 0; k < n; k++)
        tx_lane(f, f->tx[woken[k] >> 5], (unsigned)(woken[k] & 31));
}

static void tx_access_done(struct fn_tx *t)
{
    if (t->op.op == MEM_LOAD)
        ptx_warp_complete(t->fw->w, &t->op, (const uint64_t(*)[2])t->data, 0);
    t->fw->tx_wait = false;
}

/* Validate lane l of the warp's access at the VU and act on the reply. */
static void tx_lane(struct functional *f, struct fn_tx *t, unsigned l)
{
    const struct ptx_memop *m = &t->op;
    bool store = m->op == MEM_STORE;
    uint64_t seen = 0;
    enum functional_tm_reply x = f->tm_ops->access(f->tm, m->addr[l], store, t->wid, t->seq, t->ts,
                                                   (uint64_t)t->wid << 5 | l, &seen);
    uint32_t bit = 1u << l, was_queued = t->queued;
    t->queued &= ~bit;
    switch (x) {
    case FUNCTIONAL_TM_OK:
        t->horizon = MAX(t->horizon, seen);
        if (store) {
            t->resv[t->n_resv++] = m->addr[l];
        } else {
            t->data[l][0] = t->data[l][1] = 0;
            backing_read(f->store, m->addr[l], t->data[l], m->size);
        }
        break;
    case FUNCTIONAL_TM_ABORT:
        t->horizon = MAX(t->horizon, seen);
        ptx_warp_tx_abort(t->fw->w, bit);
        f->st.tx_vu_aborts++;
        break;
    case FUNCTIONAL_TM_QUEUED:
        t->queued |= bit;
        break;
    }
    if (was_queued && !t->queued)
        tx_access_done(t);
}

static void tx_mem(struct functional *f, struct fn_cta *c, unsigned warp)
{
    struct fn_tx *t = tx_of(f, c, warp);
    t->op = f->step.mem;
    t->queued = 0;
    for (uint32_t mask = t->op.mask; mask; mask &= mask - 1)
        tx_lane(f, t, (unsigned)__builtin_ctz(mask));
    if (t->queued)
        t->fw->tx_wait = true;
    else
        tx_access_done(t);
}

/* The wid running alone, or UINT32_MAX. */
static uint32_t serial_holder(const struct functional *f)
{
    return f->serial_granted ? f->askers[0] : UINT32_MAX;
}

static void serial_ask(struct functional *f, struct fn_tx *t)
{
    if (f->n_askers == f->cap_askers) {
        f->cap_askers = f->cap_askers ? 2 * f->cap_askers : 16;
        f->askers = realloc(f->askers, f->cap_askers * sizeof *f->askers);
        if (!f->askers)
            panic("out of memory");
    }
    f->askers[f->n_askers++] = t->wid;
    t->serial_wait = true;
}

/* The oldest asker gets the token once no other attempt runs. */
static void serial_try_grant(struct functional *f)
{
    if (f->serial_granted || !f->n_askers || f->tx_running)
        return;
    struct fn_tx *t = f->tx[f->askers[0]];
    f->serial_granted = true;
    t->serial_wait = false;
    t->fruitless = 0;
    t->fw->tx_sleep_until = 0;
    f->st.tx_serial_grants++;
}

/* Whether warp `warp` may take its next step: while the token is asked for
 * or held, no other attempt starts (a warp at its begin, or held between two
 * attempts by tx_end, waits; one inside an attempt runs on to its end). A
 * held warp's retry starts with its first step (the interpreter has no begin
 * step for a retry). */
static bool serial_lets_step(struct functional *f, struct fn_cta *c, unsigned warp)
{
    if (!f->n_askers && !f->n_held)
        return true; /* the common case: nothing to check */
    struct ptx_warp *w = c->warps[warp].w;
    bool in_tx = ptx_warp_in_tx(w);
    if (!in_tx && !ptx_warp_at_tx_begin(w))
        return true; /* outside transactions */
    struct fn_tx *t = tx_of(f, c, warp);
    if (t->running)
        return true;
    if (f->n_askers && serial_holder(f) != t->wid) {
        f->st.tx_serial_stalls++;
        return false;
    }
    if (in_tx) { /* a held retry starts */
        t->running = true;
        f->tx_running++;
        f->n_held--;
    }
    return true;
}

/* The end of an attempt: the committed lanes' writes reach memory, then every
 * reservation is released (a commit or a cleanup: the VU cannot tell). */
static void tx_end(struct functional *f, struct fn_cta *c, unsigned warp)
{
    const struct ptx_tx_end *e = &f->step.tx;
    struct fn_tx *t = tx_of(f, c, warp);
    for (uint32_t k = 0; k < e->n_log; k++) {
        const struct ptx_tx_access *a = &e->log[k];
        if (a->write && (e->committed >> a->lane & 1))
            backing_write(f->store, a->addr, a->data, a->size);
    }
    uint32_t n = t->n_resv;
    t->n_resv = 0;
    for (uint32_t k = 0; k < n; k++)
        tx_release(f, t->resv[k]);
    t->ts = f->tm_ops->advance_ts(f->tm, t->wid, MAX(t->ts, t->horizon));
    t->horizon = 0;
    t->seq++;
    bool alone = serial_holder(f) == t->wid;
    if (e->aborted && !alone) { /* alone, a warp retries at once */
        t->fails = MIN(t->fails + 1, FN_TX_BACKOFF_MAX_EXP);
        t->fw->tx_sleep_until = f->round + rng_below(&t->rng, FN_TX_BACKOFF_BASE << t->fails);
    } else {
        t->fails = 0;
    }
    t->fruitless = e->committed ? 0 : t->fruitless + 1;
    f->st.tx_fruitless_max = MAX(f->st.tx_fruitless_max, t->fruitless);
    bool retries = ptx_warp_in_tx(t->fw->w);
    if (alone && !retries) { /* every lane has committed: the token passes on */
        f->serial_granted = false;
        memmove(f->askers, f->askers + 1, --f->n_askers * sizeof *f->askers);
    } else if (!alone && !t->serial_wait && t->fruitless >= f->opts.progress_aborts) {
        serial_ask(f, t);
    }
    /* the retry, if any, runs on at once unless the token holds it back */
    if (!retries || (f->n_askers && !alone)) {
        t->running = false;
        f->tx_running--;
        f->n_held += retries;
    }
    serial_try_grant(f);
    f->st.tx_attempts++;
    f->advances += e->committed != 0;
    f->st.tx_commits += (uint64_t)__builtin_popcount(e->committed);
    f->st.tx_aborts += (uint64_t)__builtin_popcount(e->aborted);
}

/* ---- the round-robin loop ---- */

/* Where every live warp is and what it waits on (the first 16), for the
 * watchdogs' faults. */
static void dump_warps(struct functional *f, struct fn_cta *slots, unsigned n_slots)
{
    char where[256];
    unsigned shown = 0;
    for (unsigned s = 0; s < n_slots; s++) {
        struct fn_cta *c = &slots[s];
        for (unsigned i = 0; c->cta && i < c->n_warps; i++) {
            struct fn_warp *fw = &c->warps[i];
            if (fw->done || shown++ >= 16)
                continue;
            fprintf(stderr, "  CTA (%u,%u,%u) warp %u: ", c->id.x, c->id.y, c->id.z, i);
            if (fw->tx_wait) {
                fprintf(stderr, "a transactional access waits in the stall buffer");
            } else if (fw->waiting != FN_NOT_WAITING) {
                const struct fn_bar *b = &c->bar[fw->waiting];
                fprintf(stderr, "barrier %u (%u of %u live warps arrived, count %u)", fw->waiting,
                        b->arrived_warps, c->live_warps, b->count);
            } else {
                fprintf(stderr, "running");
            }
            fprintf(stderr, ", before %s", ptx_warp_where(fw->w, where, sizeof where));
            if (fw->last_load)
                fprintf(stderr, "; last load 0x%llx = %llu", (unsigned long long)fw->last_addr,
                        (unsigned long long)fw->last_value);
            fprintf(stderr, "\n");
        }
    }
    if (shown > 16)
        fprintf(stderr, "  ... and %u more warps\n", shown - 16);
    (void)f;
}

/* Past the instruction budget: where every live warp is, then exit 3. */
static _Noreturn void runaway(struct functional *f, struct fn_cta *slots, unsigned n_slots,
                              uint64_t budget)
{
    fprintf(stderr,
            "functional: kernel %s ran past its budget of %llu warp instructions (a "
            "spin-wait that never ends?); the live warps:\n",
            f->kernel_name, (unsigned long long)budget);
    dump_warps(f, slots, n_slots);
    panic("runaway: kernel %s ran past its budget of %llu warp instructions (sim.max_insts, "
          "or --max-insts; auto: 2^24 per warp of the launch)",
          f->kernel_name, (unsigned long long)budget);
}

/* No warp progressed for spin_rounds rounds: where they are, then exit 3. */
static _Noreturn void spinning(struct functional *f, struct fn_cta *slots, unsigned n_slots,
                               uint64_t rounds)
{
    fprintf(stderr,
            "functional: kernel %s: for %llu rounds no warp stored, did an atomic, "
            "committed a transaction, loaded a value it had not just loaded, or "
            "finished; the live warps:\n",
            f->kernel_name, (unsigned long long)rounds);
    dump_warps(f, slots, n_slots);
    panic("no progress: in kernel %s, for %llu rounds (one instruction per warp each) no warp "
          "made progress (sim.spin_cycles = %llu, counted in rounds in functional mode): "
          "warps spin on a condition that cannot change",
          f->kernel_name, (unsigned long long)rounds, (unsigned long long)f->opts.spin_rounds);
}

static _Noreturn void deadlock(struct functional *f, struct fn_cta *slots, unsigned n_slots)
{
    fprintf(stderr,
            "functional: kernel %s: every live warp waits at a barrier that cannot "
            "complete:\n",
            f->kernel_name);
    dump_warps(f, slots, n_slots);
    panic("functional: deadlock in kernel %s (barrier never completes)", f->kernel_name);
}

/* Tell the observer of one warp instruction: no clock, no lines (--inst-stats
 * counts only in the functional mode). */
static void observe_inst(struct functional *f, const struct launch *l, const struct fn_cta *c,
                         unsigned warp, uint32_t pc)
{
    const struct ptx_step *st = &f->step;
    struct inst_event e = {
        .kernel = l->kernel,
        .pc = pc,
        .cta = (uint32_t)(((uint64_t)c->id.z * l->grid.y + c->id.y) * l->grid.x + c->id.x),
        .slot = (uint16_t)warp,
        .warp = (uint16_t)warp,
        .active = st->active,
        .threads = st->n_thread_insts,
        .op = st->kind == PTX_STEP_MEM ? (uint8_t)st->mem.op : MEM_NOPS};
    f->observer.done(f->observer.ctx, &e);
}

static void run_kernel(void *obj, const struct launch *l)
{
    struct functional *f = obj;
    const struct ptx_kernel_info *ki = ptx_kernel_info(l->kernel);
    uint64_t n_ctas = (uint64_t)l->grid.x * l->grid.y * l->grid.z;
    /* CTAs that cannot observe each other's timing run with few resident
     * (and the same results): the warps of all max_resident_ctas would be
     * hundreds of MiB of registers, allocated and touched once each */
    uint32_t resident_cap = ki->cta_independent
                                ? MIN(f->opts.max_resident_ctas, FUNCTIONAL_INDEPENDENT_RESIDENT)
                                : f->opts.max_resident_ctas;
    unsigned n_slots = (unsigned)MIN(n_ctas, (uint64_t)resident_cap);
    release_slots(f);
    struct fn_cta *slots = calloc(n_slots, sizeof *slots);
    uint64_t threads = (uint64_t)l->block.x * l->block.y * l->block.z;
    uint64_t warps = mul_sat_u64(n_ctas, (threads + 31) / 32);
    uint64_t budget = f->opts.max_warp_insts
                          ? f->opts.max_warp_insts
                          : mul_sat_u64(FUNCTIONAL_AUTO_INSTS_PER_WARP, MAX(warps, 1));
    uint64_t next_cta = 0;
    uint64_t budget_end =
        budget > UINT64_MAX - f->st.warp_insts ? UINT64_MAX : f->st.warp_insts + budget;
    struct ptx_env env = {.smid = 0, .nsmid = 1, .lat = f->lat, .printf_log = l->printf_log};
    char err[512];

    if (!slots)
        panic("out of memory");
    f->slots = slots;
    f->n_slots = n_slots;
    f->kernel_name = ki->name;
    if (f->observer.kernel_start)
        f->observer.kernel_start(f->observer.ctx, l->kernel);
    for (unsigned s = 0; s < n_slots; s++)
        cta_admit(&slots[s], l, next_cta++);
    unsigned resident = n_slots;
    f->st.max_ctas_resident = MAX(f->st.max_ctas_resident, n_slots);

    uint64_t advances = f->advances, advanced_round = 0;
    for (uint64_t round = 0; resident; round++) {
        bool progress = false;
        env.clock = env.globaltimer_ns = round;
        f->round = round;
        for (unsigned s = 0; s < n_slots; s++) {
            struct fn_cta *c = &slots[s];
            if (!c->cta)
                continue;
            for (unsigned i = 0; i < c->n_warps; i++) {
                struct fn_warp *fw = &c->warps[i];
                /* Every warp's state is long out of the host's caches by its
                 * next turn: ask for the next warp's registers now, and for
                 * the one after it, the warp itself (a hint only). */
                if (i + 1 < c->n_warps)
                    ptx_warp_prefetch(c->warps[i + 1].w);
                if (i + 2 < c->n_warps)
                    __builtin_prefetch(c->warps[i + 2].w);
                if (fw->done || fw->waiting != FN_NOT_WAITING || fw->tx_wait)
                    continue;
                progress = true;
                if (round < fw->tx_sleep_until || !serial_lets_step(f, c, i))
                    continue;
                env.warpid = i;
                uint32_t pc = 0;
                if (__builtin_expect(f->observer.done != NULL, 0))
                    pc = ptx_warp_pc(fw->w);
                if (ptx_warp_step(fw->w, &env, &f->step, err, sizeof err))
                    fatal("kernel %s: CTA (%u,%u,%u) warp %u: %s", ki->name, c->id.x, c->id.y,
                          c->id.z, i, err);
                if (__builtin_expect(f->observer.done != NULL, 0))
                    observe_inst(f, l, c, i, pc);
                f->st.warp_insts++;
                f->st.thread_insts += f->step.n_thread_insts;
                switch (f->step.kind) {
                case PTX_STEP_ALU:
                    break;
                case PTX_STEP_MEM:
                    do_mem(f, c, i);
                    break;
                case PTX_STEP_BARRIER:
                    bar_arrive(f, c, fw, &f->step.bar);
                    break;
                case PTX_STEP_EXIT:
                    warp_exited(c, fw);
                    f->advances++;
                    break;
                case PTX_STEP_TX_BEGIN:
                    tx_of(f, c, i)->running = true;
                    f->tx_running++;
                    break;
                case PTX_STEP_TX_END:
                    tx_end(f, c, i);
                    break;
                }
            }
            if (!c->live_warps) {
                cta_retire(c);
                if (next_cta < n_ctas)
                    cta_admit(c, l, next_cta++);
                else
                    resident--;
            }
        }
        if (!progress && resident)
            deadlock(f, slots, n_slots);
        if (f->st.warp_insts > budget_end)
            runaway(f, slots, n_slots, budget);
        if (f->advances != advances) {
            advances = f->advances;
            advanced_round = round;
        } else if (f->opts.spin_rounds && round - advanced_round > f->opts.spin_rounds) {
            spinning(f, slots, n_slots, round - advanced_round);
        }
    }
    release_slots(f);
    f->st.kernels++;
}

static void fn_write(void *obj, addr_t dst, const void *src, size_t n)
{
    struct functional *f = obj;
    backing_write(f->store, dst, src, n);
}

static void fn_read(void *obj, void *dst, addr_t src, size_t n)
{
    struct functional *f = obj;
    backing_read(f->store, src, dst, n);
}

static uint64_t fn_cycles(const void *obj)
{
    (void)obj;
    return 0; /* no timing model */
}

static const struct launcher_ops functional_ops = {
    .run_kernel = run_kernel,
    .write = fn_write,
    .read = fn_read,
    .cycles = fn_cycles,
};

struct launcher functional_launcher(struct functional *f)
{
    return (struct launcher){&functional_ops, f};
}

void functional_set_inst_observer(struct functional *f, const struct inst_observer *o)
{
    f->observer = o && o->done ? *o : (struct inst_observer){0};
}
