/*
 * verify_tx.c - transactions in `gpucoh verify` (getm, warptm; verify_int.h,
 * docs/verify.md "Transactions"): each core drives small transactions
 * against the real L2 bank and validation unit the way the SM's transaction
 * extension (coh/getm/sm_tx.c) does, and the checker keeps the committed
 * transactions and judges them serializable in timestamp order.
 *
 * The core driver builds the messages sm_tx.c builds (sm_tx_stamp,
 * sm_tx_end), field by field, without calling it (it is tied to a PTX warp):
 *   a transactional load or store: MSG_CORE_REQ, req.op MEM_LOAD (to the L1 a
 *     load performed at the L2, item 20), req.sem SEM_RELAXED, req.scope
 *     SCOPE_GPU, req.tx MEM_TX_LOAD or MEM_TX_STORE, req.sm the core, req.warp
 *     0 (the VU's warp id is getm_warp_id(sm, 0)), req.id 0, mask word 0 (the
 *     granule the VU validates), ts the core's warpts, acks its sequence;
 *   a commit or cleanup, one per line the attempt reserved: req.op MEM_STORE,
 *     req.sem SEM_WEAK, req.tx MEM_TX_COMMIT with word 0's redo-log value
 *     under its mask, or MEM_TX_CLEANUP with an empty mask (an aborted
 *     attempt), ts2 the reservations to release on granule 0 (16 bits a
 *     granule), ts and acks as above, req.id 1 + the line (its ack is told
 *     apart from the access's answer by it).
 * After the attempt the warpts moves past everything the verdicts carried
 * (getm_advance_ts(max(warpts, horizon))) and the sequence grows, as
 * sm_tx_end does; the next attempt waits for every acknowledgement
 * (getm.commit_waits, the default). An abort verdict ends the attempt at
 * once (the warp has one lane: nothing is left in its Transaction entry).
 * WarpTM (warptm; sm_tx_validate, sm_tx_validated): a store stays in the
 *   core; the commit sends, per line touched, MEM_TX_VALIDATE (req.op
 *   MEM_STORE, req.id 1 + the line, the values read under the mask, ts2
 *   WARPTM_RELEASES(0, granule 0 if written)), then commits or cleans up the
 *   holds its answers granted (ts2 WARPTM_RELEASES(read, written)); ts is 0
 *   (its bank reads no warpts). A read-only attempt the TCD clears commits
 *   silently. Transactions serialize in the order of commit decisions.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "verify/verify_int.h"

#include <string.h>

#include "coh/getm/getm_bank.h"
#include "coh/getm/warptm_vu.h"

static uint32_t word_of(const uint8_t *line)
{
    uint32_t w;
    memcpy(&w, line, 4);
    return w;
}

static uint32_t wid_of(const struct rig *r, unsigned c)
{
    return getm_warp_id(&r->view, c, 0);
}

void vtx_init(struct rig *r)
{
    getm_params_of_config(&r->view, r->n_l1, &r->gp);
    for (unsigned c = 0; c < r->n_l1 && !r->prof.lazy; c++) /* (WarpTM: no warpts, 0) */
        r->tx.c[c].ts = getm_first_ts(&r->gp, wid_of(r, c));
}

bool vtx_busy(const struct rig *r)
{
    for (unsigned c = 0; c < r->n_l1; c++)
        if (r->tx.c[c].in_tx || r->tx.c[c].pend || r->tx.c[c].acks || r->tx.c[c].n_val)
            return true;
    return false;
}

static struct msg *tx_msg(struct rig *r, unsigned c, unsigned k)
{
    struct txcore *t = &r->tx.c[c];
    struct msg *m = msg_new(&r->msgs, MSG_CORE_REQ, line_addr(r, k), r->eng.now);
    m->req = (struct mem_req){.sm = (uint16_t)c, .warp = 0, .scope = SCOPE_GPU};
    m->ts = t->ts; /* (WarpTM: 0; its bank reads no warpts) */
    m->acks = (int32_t)t->seq;
    return m;
}

/* A value of `seen` (bit v: v was read) other than `want`. */
static unsigned tx_value(uint8_t seen, unsigned want)
{
    unsigned v = 0;
    while (v < 8 && (!(seen >> v & 1) || v == want))
        v++;
    return v;
}

/* The committed transactions, in timestamp order: every line a committed
 * transaction read before writing it returned the value of the committed
 * write to that line with the largest timestamp below its own, or the
 * initial 0 (docs/verify.md, "Transactions"). Judged again at every commit:
 * a later commit with a smaller timestamp may invalidate an earlier reader.
 * --plain: a value a plain write stored may also be read (weak isolation,
 * item 21: plain accesses ignore the VU), and is judged by nothing else. */
static void check_serial(struct rig *r)
{
    const struct txenv *e = &r->tx;
    for (unsigned i = 0; i < e->n_commits; i++) {
        const struct txcommit *t = &e->commits[i];
        for (unsigned k = 0; k < r->o->lines; k++) {
            if (!(t->reads >> k & 1))
                continue;
            int best = -1;
            for (unsigned j = 0; j < e->n_commits; j++) {
                const struct txcommit *w = &e->commits[j];
                if (w->writes >> k & 1 && w->ts < t->ts &&
                    (best < 0 || w->ts > e->commits[best].ts))
                    best = (int)j;
            }
            unsigned want = best < 0 ? 0 : e->commits[best].wval[k];
            uint8_t tx_seen = (uint8_t)(t->rseen[k] & ~e->plain[k]);
            if (tx_seen && tx_seen != 1u << want) {
                if (best < 0)
                    vx_fail(r,
                            "serializability: core %u's transaction at warpts %llu committed "
                            "having read %u from line %u, but no committed transaction with a "
                            "smaller timestamp wrote it (its value then is the initial 0)",
                            t->core, (unsigned long long)t->ts, tx_value(tx_seen, want), k);
                else
                    vx_fail(r,
                            "serializability: core %u's transaction at warpts %llu committed "
                            "having read %u from line %u, but the committed write before it in "
                            "timestamp order (core %u's, warpts %llu) wrote %u",
                            t->core, (unsigned long long)t->ts, tx_value(tx_seen, want), k,
                            e->commits[best].core, (unsigned long long)e->commits[best].ts, want);
                return;
            }
        }
    }
}

/* The value of line k after the first n committed transactions (commit order). */
static unsigned committed_value(const struct txenv *e, unsigned k, unsigned n)
{
    unsigned v = 0;
    for (unsigned j = 0; j < n; j++)
        if (e->commits[j].writes >> k & 1)
            v = e->commits[j].wval[k];
    return v;
}

/* WarpTM: transactions serialize in the order their commits are decided (a
 * validation holds what it checked until the commit is performed): every
 * line a validated transaction read before writing it returned the line's
 * committed value now; a read-only one the TCD let commit silently read a
 * snapshot, the committed values after some prefix of the commit order.
 * --plain: a value a plain write stored may be read whatever the order (weak
 * isolation; the validation compares values, so it commits if still there). */
static void check_lazy(struct rig *r, unsigned c, bool silent)
{
    const struct txenv *e = &r->tx;
    const struct txcore *t = &e->c[c];
    for (int n = e->n_commits; n >= (silent ? 0 : e->n_commits); n--) {
        unsigned k = 0;
        while (k < r->o->lines && (!t->read[k] || e->plain[k] >> t->rval[k] & 1 ||
                                   t->rval[k] == committed_value(e, k, (unsigned)n)))
            k++;
        if (k == r->o->lines)
            return;
        if (!silent) {
            vx_fail(r,
                    "serializability: core %u's transaction was validated and committed having "
                    "read %u from line %u, whose committed value is %u",
                    c, t->rval[k], k, committed_value(e, k, (unsigned)n));
            return;
        }
    }
    vx_fail(r,
            "serializability: core %u's read-only transaction committed silently (the TCD) having "
            "read values that no prefix of the commit order gives together",
            c);
}

/* The end of an attempt (sm_tx_end): a commit (its writes) or, aborted, a
 * cleanup of every line it reserved; the warpts passes what it saw. */
static void end_attempt(struct rig *r, unsigned c, bool commit, bool silent)
{
    struct txenv *e = &r->tx;
    struct txcore *t = &e->c[c];
    if (commit && r->prof.lazy)
        check_lazy(r, c, silent);
    if (commit) {
        if (e->n_commits == V_TX_COMMITS)
            panic("verify: more than %u committed transactions; lower --ops", V_TX_COMMITS);
        struct txcommit *h = &e->commits[e->n_commits++];
        /* WarpTM has no logical time: its order is the commits' */
        *h = (struct txcommit){.core = (uint8_t)c, .ts = r->prof.lazy ? e->n_commits : t->ts};
        for (unsigned k = 0; k < r->o->lines; k++) {
            /* (--plain: a plain write between its loads is weak isolation's) */
            if (t->read[k] == 2 && __builtin_popcount(t->rseen[k] & ~e->plain[k]) > 1) {
                vx_fail(r,
                        "serializability: core %u's transaction at warpts %llu committed having "
                        "read two values of line %u",
                        c, (unsigned long long)t->ts, k);
                return;
            }
            if (t->read[k]) {
                h->reads |= (uint8_t)(1u << k);
                h->rval[k] = t->rval[k];
                h->rseen[k] = t->rseen[k];
            }
            if (t->wrote[k]) {
                h->writes |= (uint8_t)(1u << k);
                h->wval[k] = t->wval[k];
                if (r->prof.lazy ? !t->held_wr[k] : !t->resv[k])
                    vx_fail(r,
                            "core %u commits a write to line %u that the validation unit never "
                            "reserved",
                            c, k);
                e->unperf_val[k][e->n_unperf[k]] = t->wval[k];
                e->unperf_ts[k][e->n_unperf[k]++] = h->ts;
            }
        }
        if (!r->prof.lazy)
            check_serial(r);
    }
    for (unsigned k = 0; k < r->o->lines; k++) {
        if (r->prof.lazy ? !t->held_rd[k] && !t->held_wr[k] : !t->resv[k])
            continue;
        struct msg *m = tx_msg(r, c, k);
        m->req.op = MEM_STORE;
        m->req.sem = SEM_WEAK;
        m->req.id = 1 + V_MAX_LINES + k;
        m->req.tx = commit && t->wrote[k] ? MEM_TX_COMMIT : MEM_TX_CLEANUP;
        /* granule 0's count (GETM), or the holds it releases (WarpTM) */
        m->ts2 = r->prof.lazy ? WARPTM_RELEASES(t->held_rd[k] && !t->held_wr[k], t->held_wr[k])
                              : (uint64_t)t->resv[k];
        memset(m->data, 0, r->line_bytes);
        if (m->req.tx == MEM_TX_COMMIT) {
            memcpy(m->data, &(uint32_t){t->wval[k]}, 4);
            bytemask_set_range(&m->mask, 0, 4);
        }
        t->acks++;
        vx_send_core(r, c, m);
    }
    if (!r->prof.lazy) /* WarpTM's timestamps are physical (the TCD's) */
        t->ts = getm_advance_ts(&r->gp, wid_of(r, c), MAX(t->ts, t->horizon));
    t->horizon = 0;
    t->seq++;
    t->in_tx = 0;
    t->n_acc = 0;
    memset(t->resv, 0, sizeof t->resv);
    memset(t->wrote, 0, sizeof t->wrote);
    memset(t->wval, 0, sizeof t->wval);
    memset(t->read, 0, sizeof t->read);
    memset(t->rval, 0, sizeof t->rval);
    memset(t->rseen, 0, sizeof t->rseen);
    memset(t->held_rd, 0, sizeof t->held_rd);
    memset(t->held_wr, 0, sizeof t->held_wr);
    t->failed = 0;
    t->first_read = t->last_write = 0;
}

/* WarpTM's commit (sm_tx_validate): a read-only attempt whose loads saw only
 * writes older than its first load commits silently (warptm.silent); else each
 * line it touched is validated (the values read, the granules written), and
 * the answers decide. An attempt that read two values of a line aborts (the
 * SM's stale pair). */
static void lazy_commit(struct rig *r, unsigned c)
{
    struct txcore *t = &r->tx.c[c];
    bool writes = false;
    for (unsigned k = 0; k < r->o->lines; k++) {
        writes |= t->wrote[k];
        if (t->read[k] == 2) {
            end_attempt(r, c, false, false);
            return;
        }
    }
    if (r->gp.silent && !writes && t->last_write < t->first_read) {
        end_attempt(r, c, true, true);
        return;
    }
    for (unsigned k = 0; k < r->o->lines; k++) {
        if (!t->read[k] && !t->wrote[k])
            continue;
        struct msg *m = tx_msg(r, c, k);
        m->req.op = MEM_STORE; /* to the L1, a write-through of the values read */
        m->req.sem = SEM_WEAK;
        m->req.id = 1 + k;
        m->req.tx = MEM_TX_VALIDATE;
        m->ts2 = WARPTM_RELEASES(0, t->wrote[k] ? 1u : 0u);
        memset(m->data, 0, r->line_bytes);
        if (t->read[k]) {
            memcpy(m->data, &(uint32_t){t->rval[k]}, 4);
            bytemask_set_range(&m->mask, 0, 4);
        }
        t->n_val++;
        vx_send_core(r, c, m);
    }
}

void vtx_issue(struct rig *r, const struct vev *ev)
{
    unsigned c = ev->core, k = ev->line;
    struct txcore *t = &r->tx.c[c];
    if (t->pend || t->acks || t->n_val || (!t->in_tx && ev->op == OPK_TX_COMMIT)) {
        vx_fail(r, "core %u cannot %s now", c, op_names[ev->op]);
        return;
    }
    if (ev->op == OPK_TX_COMMIT && r->prof.lazy) {
        lazy_commit(r, c);
        return;
    }
    if (ev->op == OPK_TX_COMMIT) {
        end_attempt(r, c, true, false);
        return;
    }
    if (!t->in_tx) { /* the attempt begins with its first access */
        t->in_tx = 1;
        t->attempts++;
    }
    t->n_acc++;
    bool store = ev->op == OPK_TX_STORE;
    if (store) { /* the redo log keeps the value; the VU sees only the granule */
        t->wrote[k] = 1;
        t->wval[k] = ev->value;
        if (r->prof.lazy)
            return; /* WarpTM: stores stay in the SM until the commit */
    }
    struct msg *m = tx_msg(r, c, k);
    m->req.op = MEM_LOAD;
    m->req.sem = SEM_RELAXED;
    m->req.tx = store ? MEM_TX_STORE : MEM_TX_LOAD;
    m->req.id = 0;
    bytemask_set_range(&m->mask, 0, 4);
    t->pend = (uint8_t)(ev->op + 1);
    t->pend_line = (uint8_t)k;
    r->env.busy[c][0] = (uint8_t)(ev->op + 1);
    vx_send_core(r, c, m);
}

void vtx_take(struct rig *r, const struct msg *m)
{
    unsigned c = m->req.sm;
    struct txcore *t = c < r->n_l1 ? &r->tx.c[c] : NULL;
    if (t && m->req.id >= 1 && m->req.id <= V_MAX_LINES) { /* WarpTM: a validation's answer */
        unsigned k = m->req.id - 1u;
        if (!t->n_val) {
            vx_fail(r, "core %u got a validation answer it does not wait for", c);
            return;
        }
        t->failed |= (uint8_t)(GETM_ABORTED(m->sharer) & 1);
        t->held_wr[k] |= (uint8_t)(GETM_RESERVED(m->sharer) & 1);
        t->held_rd[k] |= (uint8_t)(WARPTM_READ_HELD(m->sharer) & 1);
        if (!--t->n_val)
            end_attempt(r, c, !t->failed, false);
        return;
    }
    if (t && m->req.id > V_MAX_LINES) { /* a commit's or cleanup's acknowledgement */
        if (!t->acks)
            vx_fail(r, "core %u got a commit acknowledgement it does not wait for", c);
        else
            t->acks--;
        return;
    }
    if (!t || !t->pend) {
        vx_fail(r, "a transactional answer for core %u, which has no access in flight", c);
        return;
    }
    unsigned k = t->pend_line;
    bool store = t->pend == OPK_TX_STORE + 1;
    t->pend = 0;
    r->env.busy[c][0] = 0;
    if (r->prof.lazy) { /* the TCD's times: the read's, the granule's last write */
        t->first_read = t->first_read ? MIN(t->first_read, m->ts) : m->ts;
        t->last_write = MAX(t->last_write, m->ts2);
    } else {
        t->horizon = MAX(t->horizon, m->ts2);
    }
    if (!r->prof.lazy && GETM_ABORTED(m->sharer) & 1) {
        end_attempt(r, c, false, false);
        return;
    }
    if (store) {
        if (!(GETM_RESERVED(m->sharer) & 1))
            vx_fail(r, "core %u's store to line %u was neither aborted nor reserved", c, k);
        else
            t->resv[k]++;
        return;
    }
    if (t->wrote[k])
        return; /* the redo log answers it (the lane's own write) */
    uint32_t v = word_of(m->data);
    if (v > V_MAX_VALUE) {
        vx_fail(r, "core %u's transactional load of line %u returned %u, a value no core wrote", c,
                k, v);
        return;
    }
    t->rseen[k] |= (uint8_t)(1u << v);
    if (!t->read[k]) {
        t->read[k] = 1;
        t->rval[k] = (uint8_t)v;
    } else if (t->rval[k] != v) {
        t->read[k] = 2;
    }
}

/* A write reached the L2 (the golden memory moved): it must be a committed
 * transaction's, performed in timestamp order, or (--plain) a plain write's,
 * in any order (weak isolation). */
void vtx_performed(struct rig *r, unsigned k)
{
    struct txenv *e = &r->tx;
    uint32_t v = r->env.gold[k];
    if (v > r->o->values && v < 8 && e->plain[k] >> v & 1)
        return;
    for (unsigned i = 0; i < e->n_unperf[k]; i++) {
        if (e->unperf_val[k][i] != v)
            continue;
        uint64_t ts = e->unperf_ts[k][i];
        if (e->has_last[k] && ts < e->last_ts[k])
            vx_fail(r,
                    "timestamp order: line %u took %u from a commit at warpts %llu after one at "
                    "warpts %llu",
                    k, v, (unsigned long long)ts, (unsigned long long)e->last_ts[k]);
        e->has_last[k] = 1;
        e->last_ts[k] = ts;
        unsigned n = --e->n_unperf[k];
        memmove(&e->unperf_val[k][i], &e->unperf_val[k][i + 1], n - i);
        memmove(&e->unperf_ts[k][i], &e->unperf_ts[k][i + 1], (n - i) * sizeof(uint64_t));
        e->unperf_val[k][n] = 0;
        e->unperf_ts[k][n] = 0;
        return;
    }
    vx_fail(r,
            "isolation: line %u took the value %u in memory, which no committed transaction "
            "wrote (an aborted or unfinished transaction's write)",
            k, v);
}

/* --plain: a plain store or atomic (issued outside any attempt, verify_step.c
 * judges its values as rc's): its value is one a line may take. */
void vtx_plain(struct rig *r, const struct vev *ev)
{
    if (ev->op == OPK_STORE || ev->op == OPK_ATOMIC)
        r->tx.plain[ev->line] |= (uint8_t)(1u << ev->value);
}

/* Outside an attempt, with nothing awaited, a core may begin one or (--plain)
 * issue a plain operation; --ops bounds both together. Plain operations may
 * be several in flight (--inflight); an attempt begins only when none is (a
 * warp's transaction follows its earlier accesses), and none is issued while
 * an attempt or its acknowledgements are under way, so the answers to the
 * two never share a request id. --plain-only: no attempt at all. */
unsigned vtx_enabled(const struct rig *r, unsigned c, struct vev *out)
{
    const struct txcore *t = &r->tx.c[c];
    unsigned n = 0;
    if (t->pend || t->acks || t->n_val)
        return 0;
    bool plain_busy = false;
    for (unsigned q = 0; q < V_MAX_SLOTS; q++)
        plain_busy |= r->env.busy[c][q] != 0;
    bool budget = (unsigned)t->attempts + r->env.issued[c] < vx_ops_bound(r, c);
    bool access = t->in_tx ? t->n_acc < V_TX_ACCESSES
                           : budget && !plain_busy && r->o->plain != VERIFY_PLAIN_ONLY;
    for (unsigned k = 0; access && k < r->o->lines; k++) {
        out[n++] = (struct vev){EV_OP, (uint8_t)c, OPK_TX_LOAD, (uint8_t)k, 0, 0, 0};
        for (unsigned v = 1; v <= r->o->values; v++)
            out[n++] = (struct vev){EV_OP, (uint8_t)c, OPK_TX_STORE, (uint8_t)k, (uint8_t)v, 0, 0};
    }
    if (t->in_tx)
        out[n++] = (struct vev){EV_OP, (uint8_t)c, OPK_TX_COMMIT, 0, 0, 0, 0};
    if (t->in_tx || !budget || !r->o->plain || vx_free_slot(r, c) == V_MAX_SLOTS)
        return n;
    for (unsigned k = 0; k < r->o->lines; k++) {
        out[n++] = (struct vev){EV_OP, (uint8_t)c, OPK_LOAD, (uint8_t)k, 0, 0, 0};
        for (unsigned v = r->o->values + 1; v <= 2 * r->o->values; v++) {
            out[n++] = (struct vev){EV_OP, (uint8_t)c, OPK_STORE, (uint8_t)k, (uint8_t)v, 0, 0};
            if (r->o->atomics)
                out[n++] =
                    (struct vev){EV_OP, (uint8_t)c, OPK_ATOMIC, (uint8_t)k, (uint8_t)v, 0, 0};
        }
    }
    out[n++] = (struct vev){EV_OP, (uint8_t)c, OPK_FENCE, 0, 0, 0, 0};
    return n;
}

/* The VU against the cores: a reservation a core holds is the VU's, owned by
 * the core's warp and sequence, with at least that many writes counted (a
 * store in flight may have added one); in a quiescent state every granule's
 * #writes is exactly what a core holds, and the stall buffer is empty. */
/* WarpTM: a hold a core was granted is the VU's (a granule written is held
 * exclusively, one read shared), until the core's commit or cleanup; none is
 * left in a quiescent state. */
static void check_holds(struct rig *r, bool quiescent)
{
    const struct warptm_vu *vu = getm_l2_wvu(r->l2);
    for (unsigned k = 0; k < r->o->lines; k++) {
        bool writer;
        unsigned readers = warptm_vu_holds(vu, line_addr(r, k), &writer);
        for (unsigned c = 0; c < r->n_l1; c++) {
            const struct txcore *t = &r->tx.c[c];
            if ((t->held_wr[k] && !writer) || (t->held_rd[k] && !readers))
                vx_fail(r,
                        "validation unit: core %u holds line %u %s, but the VU's granule has %u "
                        "readers%s",
                        c, k, t->held_wr[k] ? "exclusively" : "shared", readers,
                        writer ? " and a writer" : "");
        }
        if (quiescent && (readers || writer))
            vx_fail(r, "validation unit: quiescent, line %u's granule is still held", k);
        if (quiescent && r->tx.n_unperf[k])
            vx_fail(r, "quiescent, but %u committed writes to line %u were never performed",
                    r->tx.n_unperf[k], k);
    }
}

void vtx_check(struct rig *r, bool quiescent)
{
    if (r->prof.lazy) {
        check_holds(r, quiescent);
        return;
    }
    const struct getm_vu *vu = getm_l2_vu(r->l2);
    for (unsigned k = 0; k < r->o->lines; k++) {
        struct getm_meta m;
        bool precise = getm_vu_peek(vu, line_addr(r, k), &m);
        unsigned held = 0;
        for (unsigned c = 0; c < r->n_l1; c++) {
            const struct txcore *t = &r->tx.c[c];
            if (!t->resv[k])
                continue;
            held += t->resv[k];
            if (!precise || !m.nwrites || m.owner != wid_of(r, c) || m.owner_seq != t->seq ||
                m.nwrites < t->resv[k])
                vx_fail(r,
                        "validation unit: core %u holds %u reservations of line %u (sequence "
                        "%u), but the VU's granule has #writes %u, owner warp %u, sequence %u",
                        c, t->resv[k], k, t->seq, m.nwrites, m.owner, m.owner_seq);
        }
        if (quiescent && m.nwrites != held)
            vx_fail(r,
                    "validation unit: quiescent, line %u's granule has #writes %u but the cores "
                    "hold %u reservations",
                    k, m.nwrites, held);
        const struct getm_req *w;
        if (quiescent && getm_vu_stalled(vu, line_addr(r, k), &w))
            vx_fail(r, "validation unit: quiescent, requests wait in the stall buffer of line %u",
                    k);
        if (quiescent && r->tx.n_unperf[k])
            vx_fail(r, "quiescent, but %u committed writes to line %u were never performed",
                    r->tx.n_unperf[k], k);
    }
}
