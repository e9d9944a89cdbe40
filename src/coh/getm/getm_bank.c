/*
 * getm_bank.c - GETM's validation unit at an L2 bank, and protocol `getm`
 * (see getm_bank.h and docs/transactions.md).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "coh/getm/getm_bank.h"

#include <stdlib.h>

#include "base/log.h"
#include "coh/getm/getm_cu.h"
#include "coh/getm/sm_tx.h"
#include "coh/getm/warptm_vu.h"
#include "coh/nc/nc.h"
#include "coh/proto.h"
#include "coh/machine_view.h"
#include "coh/getm/getm_options.h"
#include "coh/getm/warptm_options.h"

struct getm_bank_stats {
    uint64_t tx_loads, tx_stores, commits, cleanups; /* requests */
    uint64_t granules, granule_aborts, granule_waits, releases;
    uint64_t validations; /* WarpTM: MEM_TX_VALIDATE requests */
    uint64_t port_busy;   /* requests refused by a busy VU port (retried next cycle) */
};

struct getm_bank {
    struct getm_params p;
    struct getm_vu *vu;    /* GETM, or NULL */
    struct getm_cu *cu;    /* the commit unit (getm.cu_bytes), or NULL: no limit */
    uint32_t cu_bytes;     /* its width: a commit writes regions of this many bytes */
    struct warptm_vu *wvu; /* WarpTM, or NULL */
    const struct machine_view *cfg;
    unsigned n_gran;        /* granules per line */
    uint32_t vu_port;       /* granules per VU cycle (getm.vu_port); 0: no limit */
    tick_t vu_period;       /* ps per VU cycle */
    tick_t vu_free;         /* the port takes the next request from then */
    struct getm_req *woken; /* scratch for getm_vu_release: every stall-buffer entry */
    unsigned cap_woken;
    struct getm_bank_stats st;
};

void getm_params_of_config(const struct machine_view *cfg, unsigned n_sms, struct getm_params *p)
{
    const struct getm_spec *s = getm_spec_of(cfg);
    const struct warptm_spec *wt = warptm_spec_of(cfg);
    getm_params_default(p);
    p->granule = s->granule;
    p->precise_sets = s->precise_sets;
    p->stash = s->stash;
    p->bloom_sets = s->bloom_sets;
    p->stall_lines = s->stall_lines;
    p->stall_entries = s->stall_entries;
    p->unique_ts = s->unique_ts;
    p->owner_seq = s->owner_seq;
    p->wake_all = s->wake_all;
    p->commit_waits = s->commit_waits;
    p->evict_oldest = s->evict_oldest;
    const struct proto_desc *pd = proto_find(cfg->coherence.protocol);
    p->warptm = pd && pd->lazy_tm;
    p->bug_load_ignores_wts = pd == &proto_getm_nowts;
    p->bug_validate_ignores_values = pd == &proto_warptm_noval;
    p->silent = wt->silent;
    p->eager = p->warptm && wt->eager; /* WarpTM's variants: nothing under getm */
    p->eapg = p->warptm && wt->eapg;
    p->hold_entries = wt->hold_entries;
    p->progress_aborts = s->progress_aborts;
    p->tcd_entries = wt->tcd_entries;
    p->seed ^= cfg->sim.seed;
    unsigned bits = 1;
    while ((1ull << bits) < (uint64_t)n_sms * cfg->sm.warps)
        bits++;
    p->warp_bits = bits;
    p->ts_bits = s->ts_bits;
}

uint32_t getm_warp_id(const struct machine_view *cfg, unsigned sm, unsigned slot)
{
    return sm * cfg->sm.warps + slot;
}

struct getm_bank *getm_bank_new(const struct ctrl_wiring *w)
{
    struct getm_bank *g = calloc(1, sizeof *g);
    if (!g)
        panic("out of memory");
    g->cfg = w->cfg;
    getm_params_of_config(w->cfg, w->n_sms, &g->p);
    uint32_t line = w->cfg->l2.cache.line_bytes;
    g->n_gran = line / g->p.granule;
    if (line % g->p.granule || g->n_gran > GETM_MAX_GRANULES)
        panic("%s: getm needs lines of at most %u granules of %u bytes", w->name, GETM_MAX_GRANULES,
              g->p.granule);
    const struct getm_spec *s = getm_spec_of(w->cfg);
    g->vu_port = s->vu_port;
    g->vu_period = (tick_t)(1000000 / s->vu_mhz);
    g->cu_bytes = s->cu_bytes;
    if (g->cu_bytes)
        g->cu = getm_cu_new(s->cu_mhz, g->cu_bytes, s->cu_buffer, w->name);
    g->cap_woken = g->p.stall_lines * g->p.stall_entries;
    g->woken = calloc(g->cap_woken, sizeof *g->woken);
    if (!g->woken)
        panic("out of memory");
    /* the VU's coverage follows the bank table's (proto_getm.tables, proto_warptm.tables) */
    if (g->p.warptm)
        g->wvu = warptm_vu_new(&g->p, w->eng, w->name, w->cov + 1);
    else
        g->vu = getm_vu_new(&g->p, w->eng, w->name, w->cov + 1);
    return g;
}

void getm_bank_free(struct getm_bank *g)
{
    if (!g)
        return;
    getm_vu_free(g->vu);
    warptm_vu_free(g->wvu);
    getm_cu_free(g->cu);
    free(g->woken);
    free(g);
}

/* The VU's verdict on granule k of access m. */
static void decide(struct getm_bank *g, struct msg *m, unsigned k, bool store,
                   const struct getm_result *r)
{
    uint32_t bit = 1u << k;
    switch (r->reply) {
    case GETM_QUEUED: /* the stall buffer holds it until the owner's release */
        g->st.granule_waits++;
        return;
    case GETM_OK:
        m->ts2 = MAX(m->ts2, MAX(r->rts, r->wts));
        if (store)
            m->sharer |= bit << 16;
        break;
    case GETM_ABORT: /* which granule, and why (2 bits a granule) */
        m->ts2 = MAX(m->ts2, r->cause);
        m->sharer =
            (m->sharer & ~(3u << (24 + 2 * k))) | bit << 8 | (uint32_t)r->kind << (24 + 2 * k);
        g->st.granule_aborts++;
        break;
    }
    m->sharer &= ~bit;
}

static struct getm_req req_of(const struct getm_bank *g, const struct msg *m, unsigned k)
{
    return (struct getm_req){
        .addr = m->addr + (addr_t)k * g->p.granule,
        .store = m->req.tx == MEM_TX_STORE,
        .wid = getm_warp_id(g->cfg, m->req.sm, m->req.warp),
        .seq = (uint32_t)m->acks,
        .warpts = m->ts,
        .cookie = (uint64_t)(uintptr_t)m | k, /* messages are 8-byte aligned */
    };
}

static bool load_still_decided(struct getm_bank *g, struct msg *m);

/* Release `count` reservations of granule a; the waiters it wakes re-enter
 * the VU in its order, and a request with no granule left undecided replays
 * through the bank (a load to read its line, a store to be answered). */
static void release(struct getm_bank *g, struct ctrl *b, addr_t a, uint32_t count)
{
    g->st.releases += count;
    unsigned n = getm_vu_release(g->vu, a, count, g->woken, g->cap_woken);
    while (n) {
        for (unsigned i = 0; i < n; i++) {
            struct getm_req q = g->woken[i];
            struct msg *m = (struct msg *)(uintptr_t)(q.cookie & ~(uint64_t)7);
            struct getm_result r = getm_vu_access(g->vu, &q);
            decide(g, m, (unsigned)(q.cookie & 7), q.store, &r);
            if (!GETM_PENDING(m->sharer) && (q.store || load_still_decided(g, m))) {
                m->req.tx = q.store ? MEM_TX_STORE_OK : MEM_TX_LOAD_OK;
                msg_list_push(&b->replay, m);
            }
        }
        n = getm_vu_wake_next(g->vu, a, g->woken, g->cap_woken);
    }
}

/* Every reservation m's ts2 counts, granule by granule (GETM), or every
 * hold it names (WarpTM: WARPTM_RELEASE_READ/WRITE). */
static void release_line(struct getm_bank *g, struct ctrl *b, const struct msg *m)
{
    if (g->wvu) {
        for (unsigned k = 0; k < g->n_gran; k++) {
            addr_t a = m->addr + (addr_t)k * g->p.granule;
            bool rd = WARPTM_RELEASE_READ(m->ts2) >> k & 1;
            bool wr = WARPTM_RELEASE_WRITE(m->ts2) >> k & 1;
            if (rd || wr) {
                g->st.releases++;
                warptm_vu_release(g->wvu, a, wr);
            }
        }
        return;
    }
    for (unsigned k = 0; k < g->n_gran; k++) {
        uint32_t c = (uint32_t)(m->ts2 >> (16 * k)) & 0xffffu;
        if (c)
            release(g, b, m->addr + (addr_t)k * g->p.granule, c);
    }
}

uint32_t getm_granules(const struct bytemask *mask, unsigned n_gran, unsigned granule)
{
    uint32_t s = 0;
    for (unsigned k = 0; k < n_gran; k++)
        for (unsigned i = k * granule; i < (k + 1) * granule; i += 64 - i % 64) {
            uint64_t w = mask->w[i / 64];
            unsigned lo = i % 64, n = MIN(64 - lo, (k + 1) * granule - i);
            uint64_t bits = n == 64 ? ~0ull : ((1ull << n) - 1) << lo;
            if (w & bits) {
                s |= 1u << k;
                break;
            }
        }
    return s;
}

/* The granules of the line whose bytes m's mask touches. */
static uint32_t granules_of(const struct getm_bank *g, const struct msg *m)
{
    return getm_granules(&m->mask, g->n_gran, g->p.granule);
}

/* A load that waited in the stall buffer is read only now: its granules
 * decided before it waited may since have been reserved, even written, by a
 * later transaction (rts did not stop a writer with a larger warpts), and
 * reading that write would put the reader after it. So every granule not
 * aborted is decided again, with the line read at once (the replay list goes
 * before the network, so no commit comes in between). False: a granule
 * waits again (the stall buffer holds the load until its release). Found by
 * the stress tester (tests/unit/662-tm-stress.c): a cycle of three
 * transactions at 50 000. */
static bool load_still_decided(struct getm_bank *g, struct msg *m)
{
    for (uint32_t gs = granules_of(g, m) & ~GETM_ABORTED(m->sharer); gs; gs &= gs - 1) {
        unsigned k = (unsigned)__builtin_ctz(gs);
        struct getm_req q = req_of(g, m, k);
        struct getm_result r = getm_vu_access(g->vu, &q);
        m->sharer |= 1u << k; /* undecided until decide says otherwise */
        decide(g, m, k, false, &r);
    }
    return !GETM_PENDING(m->sharer);
}

static void answer_store(struct ctrl *b, struct msg *m)
{
    m->flags &= (uint16_t)~GETM_F_WRITTEN; /* the bank's mark stays in the bank */
    ctrl_l2_respond(b, m, MSG_NC_WRACK, NC_VNET_RSP, TRAFFIC_REQ, 0);
}

/* The VU's port (getm.vu_port granules per VU cycle): a request of k
 * granules is taken when the port is free and keeps it busy k / vu_port
 * cycles (rounded up). False: busy, the request waits. */
static bool take_port(struct getm_bank *g, struct ctrl *b, unsigned k)
{
    tick_t now = b->comp.eng->now;
    if (!g->vu_port)
        return true;
    if (g->vu_free > now) {
        g->st.port_busy++;
        return false;
    }
    g->vu_free = now + (tick_t)((k + g->vu_port - 1) / g->vu_port) * g->vu_period;
    return true;
}

bool getm_bank_busy(const struct getm_bank *g, tick_t now)
{
    return g->vu_free > now;
}

/* WarpTM: a transactional load is a read at the bank (its answer gets the
 * TCD's times in getm_bank_reading); a validation reads the line through the
 * table too, and is compared with it there. Stores never leave the SM. */
static enum getm_take warptm_take(struct getm_bank *g, struct ctrl *b, struct msg *m)
{
    switch ((enum mem_tx)m->req.tx) {
    case MEM_TX_LOAD:
        g->st.tx_loads++;
        m->req.tx = MEM_TX_LOAD_OK;
        m->sharer = 0;
        return GETM_TO_TABLE;
    case MEM_TX_VALIDATE: /* counted once compared: a miss takes it again */
        if (m->type == MSG_NC_GETS)
            return GETM_TO_TABLE; /* a replay after a miss: the port was paid */
        if (!take_port(
                g, b,
                (unsigned)__builtin_popcount(granules_of(g, m) | WARPTM_RELEASE_WRITE(m->ts2))))
            return GETM_BUSY;
        m->type = MSG_NC_GETS; /* it came as a write-through of the values read */
        return GETM_TO_TABLE;
    default:
        panic("warptm bank: a transactional request of kind %u (stores stay in the SM's redo "
              "log)",
              m->req.tx);
    }
}

/* A commit or cleanup enters the commit unit's buffer (GETM_TAKEN), or finds
 * it full (GETM_BUSY); once the unit has written it, it comes back through
 * the replay list marked GETM_F_WRITTEN and is performed. */
static enum getm_take enter_cu(struct getm_bank *g, struct ctrl *b, struct msg *m)
{
    unsigned regions = m->req.tx == MEM_TX_COMMIT
                           ? (unsigned)__builtin_popcount(
                                 getm_granules(&m->mask, b->line_bytes / g->cu_bytes, g->cu_bytes))
                           : 0;
    return getm_cu_offer(g->cu, m, regions, b->comp.eng->now) ? GETM_TAKEN : GETM_BUSY;
}

bool getm_bank_tick(struct getm_bank *g, struct ctrl *b)
{
    bool moved = false;
    struct msg *m;
    while (g->cu && (m = getm_cu_take_done(g->cu, b->comp.eng->now))) {
        m->flags |= GETM_F_WRITTEN;
        msg_list_push(&b->replay, m);
        moved = true;
    }
    return moved;
}

bool getm_bank_writing(const struct getm_bank *g)
{
    return g->cu && getm_cu_busy(g->cu);
}

enum getm_take getm_bank_take(struct getm_bank *g, struct ctrl *b, struct msg *m)
{
    if ((m->req.tx == MEM_TX_COMMIT || m->req.tx == MEM_TX_CLEANUP) && g->cu &&
        !(m->flags & GETM_F_WRITTEN))
        return enter_cu(g, b, m);
    switch ((enum mem_tx)m->req.tx) {
    case MEM_TX_NONE:
    case MEM_TX_LOAD_OK:
        return GETM_TO_TABLE;
    case MEM_TX_COMMIT: /* counted once written: a resource stall takes it again */
        return GETM_TO_TABLE;
    case MEM_TX_STORE_OK:
        answer_store(b, m);
        return GETM_TAKEN;
    case MEM_TX_CLEANUP:
        g->st.cleanups++;
        release_line(g, b, m);
        answer_store(b, m);
        return GETM_TAKEN;
    case MEM_TX_LOAD:
    case MEM_TX_STORE:
    case MEM_TX_VALIDATE:
        if (g->wvu)
            return warptm_take(g, b, m);
        break;
    }
    if (!take_port(g, b, (unsigned)__builtin_popcount(granules_of(g, m))))
        return GETM_BUSY;
    bool store = m->req.tx == MEM_TX_STORE;
    if (store)
        g->st.tx_stores++;
    else
        g->st.tx_loads++;
    uint32_t gs = granules_of(g, m);
    m->sharer = gs;
    m->ts2 = 0;
    for (; gs; gs &= gs - 1) {
        unsigned k = (unsigned)__builtin_ctz(gs);
        struct getm_req q = req_of(g, m, k);
        struct getm_result r = getm_vu_access(g->vu, &q);
        g->st.granules++;
        decide(g, m, k, store, &r);
    }
    if (GETM_PENDING(m->sharer))
        return GETM_TAKEN; /* the stall buffer holds it */
    if (store) {
        answer_store(b, m);
        return GETM_TAKEN;
    }
    m->req.tx = MEM_TX_LOAD_OK;
    return GETM_TO_TABLE;
}

/* WarpTM's validation of granule k of m against the line's bytes. */
static enum warptm_verdict validate(struct getm_bank *g, const struct msg *m, unsigned k,
                                    const uint8_t *line)
{
    struct warptm_check c = {.addr = m->addr + (addr_t)k * g->p.granule,
                             .write = WARPTM_RELEASE_WRITE(m->ts2) >> k & 1,
                             .match = true,
                             .alone = (m->ts2 & WARPTM_ALONE) != 0};
    for (unsigned i = k * g->p.granule;
         i < (k + 1) * g->p.granule && c.match && !g->p.bug_validate_ignores_values; i++)
        if (bytemask_test(&m->mask, i) && m->data[i] != line[i])
            c.match = false;
    return warptm_vu_validate(g->wvu, &c);
}

bool getm_bank_reading(struct getm_bank *g, struct ctrl *b, struct msg *m, const uint8_t *line)
{
    if (!g->wvu)
        return false;
    uint64_t now = b->comp.eng->now;
    if (m->req.tx == MEM_TX_LOAD_OK) { /* the TCD's answer travels with the data */
        m->ts = now;
        m->ts2 = 0;
        for (uint32_t gs = granules_of(g, m); gs; gs &= gs - 1) {
            addr_t a = m->addr + (addr_t)__builtin_ctz(gs) * g->p.granule;
            m->ts2 = MAX(m->ts2, warptm_vu_last_write(g->wvu, a, now));
        }
        return false;
    }
    if (m->req.tx != MEM_TX_VALIDATE)
        return false;
    uint32_t gs = granules_of(g, m) | WARPTM_RELEASE_WRITE(m->ts2);
    m->sharer = 0;
    m->ts = 0; /* why each failed granule did (WARPTM_FAIL_WHY) */
    g->st.validations++;
    for (; gs; gs &= gs - 1) {
        unsigned k = (unsigned)__builtin_ctz(gs);
        g->st.granules++;
        switch (validate(g, m, k, line)) {
        case WARPTM_FAIL:
            m->sharer |= 1u << (8 + k);
            m->ts |= (uint64_t)warptm_vu_why(g->wvu) << (8 * k);
            g->st.granule_aborts++;
            break;
        case WARPTM_WRITE_HELD:
            m->sharer |= 1u << (16 + k);
            break;
        case WARPTM_READ_HELD:
            m->sharer |= 1u << (24 + k);
            break;
        case WARPTM_PASSED: /* validated alone: nothing to hold */
            break;
        }
    }
    answer_store(b, m);
    return true;
}

void getm_bank_committed(struct getm_bank *g, struct ctrl *b, const struct msg *m)
{
    g->st.commits++;
    if (g->wvu) /* the TCD learns the granules written */
        for (uint32_t gs = granules_of(g, m); gs; gs &= gs - 1)
            warptm_vu_written(g->wvu, m->addr + (addr_t)__builtin_ctz(gs) * g->p.granule,
                              b->comp.eng->now);
    release_line(g, b, m);
}

bool getm_bank_holds(const struct getm_bank *g)
{
    return getm_bank_writing(g) || (g->vu && getm_vu_waiting(g->vu));
}

void getm_bank_dump(const struct getm_bank *g, FILE *out)
{
    if (g->cu && getm_cu_busy(g->cu))
        getm_cu_dump(g->cu, out);
    if (g->vu)
        getm_vu_dump(g->vu, out);
}

const struct getm_vu *getm_bank_vu(const struct getm_bank *g)
{
    return g->vu;
}

const struct warptm_vu *getm_bank_wvu(const struct getm_bank *g)
{
    return g->wvu;
}

void getm_bank_rollover(struct getm_bank *g)
{
    if (g->vu)
        getm_vu_rollover(g->vu);
}

void getm_bank_stats(const struct getm_bank *g, void (*emit)(void *, const char *, uint64_t),
                     void *arg)
{
    emit(arg, "getm.tx_loads", g->st.tx_loads);
    emit(arg, "getm.tx_stores", g->st.tx_stores);
    emit(arg, "getm.commits", g->st.commits);
    emit(arg, "getm.cleanups", g->st.cleanups);
    emit(arg, "getm.granules", g->st.granules);
    emit(arg, "getm.granule_aborts", g->st.granule_aborts);
    emit(arg, "getm.granule_waits", g->st.granule_waits);
    emit(arg, "getm.releases", g->st.releases);
    emit(arg, "getm.vu_port_busy", g->st.port_busy);
    if (g->cu) {
        const struct getm_cu_stats *c = getm_cu_stats(g->cu);
        emit(arg, "getm.cu_entries", c->entries);
        emit(arg, "getm.cu_regions", c->regions);
        emit(arg, "getm.cu_busy_cycles", c->busy_cycles);
        emit(arg, "getm.cu_wait_cycles", c->wait_cycles);
        emit(arg, "getm.cu_full", c->full);
        emit(arg, "getm.cu_peak_bytes", c->peak_bytes);
    }
    if (g->wvu) {
        const struct warptm_vu_stats *w = warptm_vu_stats(g->wvu);
        emit(arg, "warptm.validations", g->st.validations);
        emit(arg, "warptm.mismatches", w->mismatches);
        emit(arg, "warptm.conflicts", w->conflicts);
        emit(arg, "warptm.hold_full", w->full);
        return;
    }
    const struct getm_vu_stats *v = getm_vu_stats(g->vu);
    emit(arg, "getm.vu_stashed", v->stashed);
    emit(arg, "getm.vu_bloom_evictions", v->bloom_evictions);
    emit(arg, "getm.vu_stall_full", v->stall_full);
    emit(arg, "getm.vu_accesses", v->accesses); /* granules, and the re-entries of waiters */
    emit(arg, "getm.vu_table_cycles", v->table_cycles);
    emit(arg, "getm.vu_table_cycles_max", v->table_cycles_max);
    emit(arg, "getm.vu_stall_max", v->stall_max);
    emit(arg, "getm.vu_stall_lines_max", v->stall_lines_max);
    emit(arg, "getm.vu_stall_line_uses", v->stall_line_uses);
    emit(arg, "getm.vu_stall_line_peaks", v->stall_line_peaks);
    static const char *const kinds[GETM_ABORT_KINDS] = {
        "getm.vu_abort.load_late", "getm.vu_abort.store_read", "getm.vu_abort.store_write",
        "getm.vu_abort.stall_full"};
    for (unsigned k = 0; k < GETM_ABORT_KINDS; k++)
        emit(arg, kinds[k], v->abort_kinds[k]);
    emit(arg, "getm.vu_abort.bloom", v->abort_approx);
    emit(arg, "getm.vu_rollovers", v->rollovers);
}

const char *const getm_series_names[GETM_SERIES_N] = {"getm_stall_requests", "getm_stall_lines"};

void getm_bank_series(const struct getm_bank *g, uint64_t *values)
{
    values[0] = g->vu ? getm_vu_waiting(g->vu) : 0;
    values[1] = g->vu ? getm_vu_waiting_lines(g->vu) : 0;
}

/* ---- the protocol ---- */

/* What GETM, WarpTM and their seeded variants share: the rc L1 and the
 * baseline L2 with the protocol's validation unit in front (getm_l2_create). */
#define TM_PROTO_FIELDS(tables_)                                                                   \
    .model = MODEL_PTX, .transactional = true, .n_vnets = NC_NVNETS, .vnet_names = nc_vnet_names,  \
    .tables = tables_, .n_l1_tables = 1, .l1 = TM_L1_OPS, .l2 = TM_L2_OPS
#define TM_L1_OPS                                                                                  \
    {                                                                                              \
        rc_l1_create, ctrl_connect, ctrl_in_port, ctrl_destroy, NULL, ctrl_peek, ctrl_stats        \
    }
#define TM_L2_OPS                                                                                  \
    {                                                                                              \
        getm_l2_create, ctrl_l2_connect, ctrl_in_port, getm_l2_destroy, nc_l2_dma, ctrl_peek,      \
            getm_l2_stats                                                                          \
    }

static const struct coh_table *const getm_tables[] = {&rc_l1_table, &nc_l2_table, &getm_vu_table,
                                                      &getm_sm_table, NULL};

const struct proto_desc proto_getm = {
    .options = &getm_options,
    .name = "getm",
    .title = "GETM hardware transactional memory (eager conflict detection with logical "
             "timestamps at the L2) over the non-coherent rc baseline",
    TM_PROTO_FIELDS(getm_tables),
    .n_series = GETM_SERIES_N,
    .series_names = getm_series_names,
    .series = getm_l2_series,
};

/* The deliberately broken variant the explorer must catch (docs/verify.md):
 * a load's warpts is never compared with its granule's wts. */
const struct proto_desc proto_getm_nowts = {
    .options = &getm_options,
    .name = "getm-nowts",
    .title = "getm with a deliberate bug for testing the checkers: the validation unit never "
             "compares a transactional load's timestamp with its granule's write timestamp",
    .test_only = true,
    TM_PROTO_FIELDS(getm_tables),
};

static const struct coh_table *const warptm_tables[] = {&rc_l1_table, &nc_l2_table,
                                                        &warptm_vu_table, &warptm_sm_table, NULL};

/* Symmetry over the L1s (struct proto_symmetry; docs/verify.md, "Search,
 * bounds and symmetry"): WarpTM's bank names no core. Its validation unit
 * keeps, per granule, a reader count and a writer bit (warptm_vu.c) and the
 * TCD's last-write times, found by hashing the granule's address; a
 * validation is decided by the values it carries against the line's and by
 * those holds, whoever sent it; releases name granules; the commit unit is a
 * FIFO by arrival. The one use of req.sm in the bank, getm_warp_id in
 * req_of, is GETM's alone (its timestamps tie-break by SM, so `getm` is not
 * described). The messages are rc's and nc's (nc_symmetry's types: a
 * validation comes as a write-through and is read as a GETS, its verdict goes
 * back in a WRACK's sharer and ts), every request's SM its L1's own. The
 * cores' attempts and committed history (verify_tx.c) the digest writes in
 * the relabelled order. Not data-blind: a validation compares values. */
static const struct proto_symmetry warptm_symmetry = {
    .up = PROTO_MSG_BIT(MSG_NC_GETS) | PROTO_MSG_BIT(MSG_NC_WRITE) | PROTO_MSG_BIT(MSG_NC_ATOMIC),
    .down =
        PROTO_MSG_BIT(MSG_NC_DATA) | PROTO_MSG_BIT(MSG_NC_WRACK) | PROTO_MSG_BIT(MSG_NC_ATOMRSP),
};

const struct proto_desc proto_warptm = {
    .options = &warptm_options,
    .name = "warptm",
    .title = "WarpTM hardware transactional memory (lazy value-based validation at the L2 with "
             "temporal conflict detection, two-round-trip commit) over the non-coherent rc "
             "baseline",
    .lazy_tm = true,
    .not_in_all = true,
    .symmetry = &warptm_symmetry,
    TM_PROTO_FIELDS(warptm_tables),
};

/* The deliberately broken variant the explorer must catch (docs/verify.md):
 * a validation never compares the values the transaction read with the
 * bank's, so a transaction whose reads another commit overwrote commits. */
const struct proto_desc proto_warptm_noval = {
    .options = &warptm_options,
    .name = "warptm-noval",
    .title = "warptm with a deliberate bug for testing the checkers: the validation unit never "
             "compares the values a transaction read with the bank's",
    .test_only = true,
    .lazy_tm = true,
    .not_in_all = true,
    .symmetry = &warptm_symmetry,
    TM_PROTO_FIELDS(warptm_tables),
};
