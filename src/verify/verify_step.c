/*
 * verify_step.c - the checker of `gpucoh verify` (verify_int.h,
 * docs/verify.md, "Properties"): the reference state each state carries, the
 * properties checked at every step, and the events that drive a rig (core
 * operations, deliveries, ticks of time) with the list of those enabled.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "verify/verify_int.h"

#include <string.h>

#include "coh/rcc/rcc.h"
#include "coh/stc/stc.h"
#include "verify/verify_spandex.h"

/* ---- the reference state and the properties ---- */

static uint32_t word_of(const uint8_t *line)
{
    uint32_t w;
    memcpy(&w, line, 4);
    return w;
}

static uint8_t value_bit(struct rig *r, uint32_t v, const char *what)
{
    if (v > V_MAX_VALUE) {
        vx_fail(r, "%s holds %u, a value no core wrote", what, v);
        return 0;
    }
    return (uint8_t)(1u << v);
}

static void mask_text(uint8_t m, char *out)
{
    char *o = out;
    *o++ = '{';
    for (unsigned v = 0; v <= V_MAX_VALUE; v++)
        if (m >> v & 1)
            o += sprintf(o, "%s%u", o[-1] == '{' ? "" : ",", v);
    strcpy(o, "}");
}

/* A golden update (observer hook): the line's next value in coherence order
 * is one a load in flight on it, and a core's next load after its fence, may
 * return. Followed write by write, so two writes performed in one step both count. */
void vx_follow_gold(void *arg, addr_t line)
{
    struct rig *r = arg;
    struct env *e = &r->env;
    for (unsigned k = 0; k < r->o->lines; k++) {
        if (line_addr(r, k) != line)
            continue;
        const uint8_t *g = backing_peek(&r->obs->golden, line);
        e->gold[k] = g ? word_of(g + loc_off(r, k)) : 0;
        if (r->prof.tx) {
            vtx_performed(r, k);
            if (!r->o->plain) /* (--plain: plain loads and atomics follow it too) */
                continue;
        }
        uint8_t bit = value_bit(r, e->gold[k], "the golden memory");
        for (unsigned c = 0; c < r->n_l1; c++) {
            for (unsigned w = 0; w < vx_warps(r->o); w++) {
                if (!r->prof.logical) /* (rcc judges loads by logical time) */
                    e->floor[c][w][k] |= bit;
                if (r->prof.rule == RULE_WRITER_FENCE || r->prof.rule == RULE_SCOPED)
                    e->vis[c][w][k] |= bit;
                if (r->prof.rule == RULE_SCOPED)
                    e->rel[c][w][0][k] |= bit, e->rel[c][w][1][k] |= bit;
            }
            for (unsigned q = 0; q < V_MAX_SLOTS; q++)
                if (e->busy[c][q] && e->line[c][q] == k &&
                    (!r->prof.logical || e->busy[c][q] == OPK_ATOMIC + 1))
                    e->allowed[c][q] |= bit;
        }
        if (r->prof.lease_exclusive)
            vx_check_no_lease(r, k);
        if (r->prof.logical)
            vx_rcc_follow(r, k);
    }
}

/* TC-Strong: a write is performed (the golden memory moves) only once every
 * lease on its line has expired, so no L1 may hold a valid copy then; asked
 * of the L1 controller itself (its peek sees an expired lease as I). */
void vx_check_no_lease(struct rig *r, unsigned k)
{
    uint8_t buf[LINE_MAX_BYTES];
    for (unsigned c = 0; c < r->n_l1; c++) {
        bool has = false;
        if (in_states(r->l1_leased, r->l1_ops[c]->peek(r->l1[c], line_addr(r, k), buf, &has)))
            vx_fail(r,
                    "lease: a write to line %u was performed at the L2 while l1[%u] holds a "
                    "valid copy (value %u): TC-Strong performs a write only after every lease "
                    "on its line has expired",
                    k, c, word_of(buf));
    }
}

/* ---- RCC: the reference in logical time (RULE_LOGICAL) ---- */

/* An L1's clock as its SM sees it (the livelock guard's ticks not yet
 * applied included); *wview the write view (rccwo; rccsc: the same clock). */
static uint64_t l1_clock(const struct rig *r, unsigned c, uint64_t *wview)
{
    return rcc_l1_now(r->l1[c], wview);
}

/* The value of line k at logical time t: the last write in coherence order
 * performed at a version <= t. */
static unsigned value_at(const struct rig *r, unsigned k, uint64_t t)
{
    const struct lenv *e = &r->lenv;
    unsigned v = 0;
    for (unsigned i = 0; i < e->n_hist[k]; i++)
        if (e->hist_init[k][i] || e->hist_ver[k][i] <= t)
            v = e->hist_val[k][i];
    return v;
}

/* The values line k holds at some logical time from lo to hi. */
static uint8_t values_between(const struct rig *r, unsigned k, uint64_t lo, uint64_t hi)
{
    const struct lenv *e = &r->lenv;
    uint8_t m = (uint8_t)(1u << value_at(r, k, lo));
    for (unsigned i = 0; i < e->n_hist[k]; i++)
        if (!e->hist_init[k][i] && e->hist_ver[k][i] > lo && e->hist_ver[k][i] <= hi)
            m |= (uint8_t)(1u << e->hist_val[k][i]);
    return m;
}

/* A write performed at the L2 (the golden memory moved): its version is the
 * L2 line's ver now (set before the bytes are written), and versions of a
 * line never decrease in coherence order. */
void vx_rcc_follow(struct rig *r, unsigned k)
{
    struct lenv *e = &r->lenv;
    struct cache_line *l = cache_find(&((struct ctrl *)r->l2)->cache, line_addr(r, k));
    if (!l) {
        vx_fail(r, "a write to line %u was performed while the L2 holds no line for it", k);
        return;
    }
    unsigned n = e->n_hist[k];
    uint64_t ver = l->meta[0];
    if (!e->hist_init[k][n - 1] && ver < e->hist_ver[k][n - 1])
        vx_fail(r,
                "logical time: a write to line %u was performed at version %llu, below the "
                "version %llu of the write before it in coherence order",
                k, (unsigned long long)ver, (unsigned long long)e->hist_ver[k][n - 1]);
    if (n == V_MAX_HIST)
        panic("verify: more than %u writes to a line a load may still read; lower --ops",
              V_MAX_HIST);
    if (r->env.gold[k] > V_MAX_VALUE)
        return; /* value_bit has reported it */
    e->hist_init[k][n] = 0;
    e->hist_val[k][n] = (uint8_t)r->env.gold[k];
    e->hist_ver[k][n] = ver;
    e->n_hist[k]++;
}

/* The reference keeps only what a load may still read: every load reads at or
 * after the smallest clock (or an in-flight operation's clock at issue), so a
 * write followed by one at or before that time is dropped, and the oldest
 * kept is "before every time"; a write version at or below its core's read
 * view no longer constrains a fence. (A canonical form: no path's history
 * beyond that splits states.) */
static void rcc_prune(struct rig *r)
{
    struct lenv *e = &r->lenv;
    uint64_t lo = UINT64_MAX;
    for (unsigned c = 0; c < r->n_l1; c++) {
        uint64_t now = l1_clock(r, c, NULL);
        lo = MIN(lo, now);
        for (unsigned q = 0; q < V_MAX_SLOTS; q++)
            if (r->env.busy[c][q])
                lo = MIN(lo, e->t_issue[c][q]);
        if (e->has_w[c] && e->wmax[c] <= now) {
            e->has_w[c] = false;
            e->wmax[c] = 0;
        }
    }
    for (unsigned k = 0; k < r->o->lines; k++) {
        while (e->n_hist[k] >= 2 && e->hist_ver[k][1] <= lo) {
            unsigned n = --e->n_hist[k];
            memmove(e->hist_init[k], e->hist_init[k] + 1, n);
            memmove(e->hist_val[k], e->hist_val[k] + 1, n);
            memmove(e->hist_ver[k], e->hist_ver[k] + 1, n * sizeof(uint64_t));
            e->hist_init[k][n] = e->hist_val[k][n] = 0;
            e->hist_ver[k][n] = 0;
        }
        if (!e->hist_init[k][0] && e->hist_ver[k][0] <= lo) {
            e->hist_init[k][0] = 1;
            e->hist_ver[k][0] = 0;
        }
    }
}

/* One value per logical time (RCC's single-writer/multiple-reader, in every
 * state): a copy an L1 may still read, from its clock to its lease end, holds
 * the line's value at every logical time in between. */
static void rcc_check_copies(struct rig *r)
{
    struct rcc_l2_view v;
    rcc_l2_view(r->l2, line_addr(r, 0), &v);
    if (v.rolling)
        vx_fail(r, "logical time: a rollover started (the rig runs with rcc.ts_bits = 64)");
    for (unsigned c = 0; c < r->n_l1; c++)
        for (unsigned k = 0; k < r->o->lines; k++) {
            struct cache_line *l = cache_find(&((struct ctrl *)r->l1[c])->cache, line_addr(r, k));
            if (!l || !in_states(r->l1_leased, l->state))
                continue;
            uint64_t now = l1_clock(r, c, NULL), exp = l->meta[0];
            if (exp < now)
                continue; /* expired: the next access sees it as E */
            uint8_t have = value_bit(r, word_of(l->data), "an L1 copy");
            uint8_t want = values_between(r, k, now, exp);
            if (have != want) {
                char t[40];
                mask_text(want, t);
                vx_fail(
                    r,
                    "one value per logical time: l1[%u] holds line %u = %u, readable from its "
                    "clock %llu to the copy's lease end %llu, where the line takes the values %s",
                    c, k, word_of(l->data), (unsigned long long)now, (unsigned long long)exp, t);
            }
        }
}

/* A core response under RCC: a load's value is the line's value at some
 * logical time between its core's clock at issue and at the answer; a write
 * is performed at a version between its core's (write) clock at issue and at
 * the answer (program order); after a fence the read view has reached every
 * earlier write of the core. Atomics' values are judged in coherence order. */
static void rcc_take(struct rig *r, const struct msg *m, unsigned c, unsigned q, unsigned op)
{
    struct lenv *e = &r->lenv;
    uint64_t w, now = l1_clock(r, c, &w);
    unsigned k = r->env.line[c][q];
    bool two_views = r->prof.two_clocks;
    if (op == OPK_LOAD || op == OPK_LOAD_ACQ) {
        uint32_t got = word_of(m->data);
        uint8_t ok = values_between(r, k, e->t_issue[c][q], now);
        if (!(value_bit(r, got, "a loaded word") & ok)) {
            char t[40];
            mask_text(ok, t);
            vx_fail(
                r,
                "data value: l1[%u]'s %s of line %u returned %u; from its clock at issue (%llu) "
                "to its clock at the answer (%llu) the line holds only %s",
                c, op_names[op], k, got, (unsigned long long)e->t_issue[c][q],
                (unsigned long long)now, t);
        }
    } else if (op == OPK_STORE || op == OPK_STORE_REL || op == OPK_ATOMIC) {
        uint64_t ver = m->ts2, view = two_views && op != OPK_ATOMIC ? w : now;
        if (ver < e->t_issue[c][q] || ver > view)
            vx_fail(r,
                    "program order: l1[%u]'s %s of line %u was performed at version %llu, outside "
                    "its clock from issue (%llu) to answer (%llu)",
                    c, op_names[op], k, (unsigned long long)ver,
                    (unsigned long long)e->t_issue[c][q], (unsigned long long)view);
        e->wmax[c] = e->has_w[c] ? MAX(e->wmax[c], ver) : ver;
        e->has_w[c] = true;
    } else if (op == OPK_FENCE && e->fence_has_w[c][q] && now < e->fence_w[c][q]) {
        vx_fail(r,
                "fence: l1[%u]'s fence completed with its read view at %llu, before the version "
                "%llu of a write the core completed before it",
                c, (unsigned long long)now, (unsigned long long)e->fence_w[c][q]);
    }
    e->t_issue[c][q] = 0;
    e->fence_has_w[c][q] = false;
    e->fence_w[c][q] = 0;
}

static bool is_write(unsigned op)
{
    return op == OPK_STORE || op == OPK_STORE_REL || op == OPK_ATOMIC;
}

/* Whether warp w of core c has a write to slot q's line in flight in another slot. */
static bool other_write_in_flight(const struct env *e, unsigned c, unsigned w, unsigned q)
{
    for (unsigned p = 0; p < V_MAX_SLOTS; p++)
        if (p != q && e->busy[c][p] && is_write(e->busy[c][p] - 1u) && e->warp[c][p] == w &&
            e->line[c][p] == e->line[c][q])
            return true;
    return false;
}

static void take_response(struct rig *r, struct msg *m)
{
    struct env *e = &r->env;
    unsigned c = m->req.sm;
    unsigned q = m->req.id;
    if (m->req.op == MEM_KERNEL_BEGIN)
        return; /* the rig's launch (STC) */
    /* transactions: every answer is the driver's but a plain operation's
     * (--plain; outside any attempt, up to --inflight of them) */
    if (r->prof.tx &&
        !(c < r->n_l1 && q < V_MAX_SLOTS && e->busy[c][q] && e->busy[c][q] <= OPK_TX_LOAD)) {
        vtx_take(r, m);
        return;
    }
    if (c >= r->n_l1 || q >= V_MAX_SLOTS || !e->busy[c][q]) {
        vx_fail(r, "a core response (op %s) for core %u, which has nothing in flight",
                mem_op_names[m->req.op < MEM_NOPS ? m->req.op : 0], c);
        return;
    }
    unsigned op = e->busy[c][q] - 1u, w = e->warp[c][q];
    uint32_t got = 0;
    bool check = true;
    if (r->prof.logical)
        rcc_take(r, m, c, q, op);
    if (r->prof.logical && op != OPK_ATOMIC)
        check = false;
    else if (op == OPK_LOAD || op == OPK_LOAD_ACQ)
        got = word_of(m->data + loc_off(r, e->line[c][q]));
    else if (op == OPK_ATOMIC)
        got = (uint32_t)r->atom[c][q].lane[0].result;
    else
        check = false;
    if (check) {
        uint8_t bit = value_bit(r, got, "a loaded word");
        if (!(bit & e->allowed[c][q])) {
            char want[40];
            mask_text(e->allowed[c][q], want);
            vx_fail(r,
                    "data value: l1[%u]'s %s of line %u returned %u; the protocol's model allows "
                    "only %s",
                    c, op_names[op], e->line[c][q], got, want);
        }
    }
    if (r->prof.rule == RULE_WRITER_FENCE) {
        /* vis follows the warp's last write to the line issued: it is done only
         * when no other write of the warp to the line is in flight (with
         * --inflight 2 the first of two stores may complete while the second,
         * which reset vis at its issue, is still out; marking the line then
         * made a later fence publish values from the second's issue only,
         * which excluded the first's, an empty floor: measured 2026-12-05) */
        if (is_write(op) && !other_write_in_flight(e, c, w, q))
            e->wrote[c][w] |= (uint8_t)(1u << e->line[c][q]);
        /* the fence has waited for the GWCTs of its warp's writes done before
         * it: from now on no warp of any core may read a line older than them */
        for (unsigned k = 0; op == OPK_FENCE && k < r->o->lines; k++)
            if (e->fence_lines[c][q] >> k & 1)
                for (unsigned d = 0; d < r->n_l1; d++)
                    for (unsigned x = 0; x < vx_warps(r->o); x++)
                        e->floor[d][x][k] &= e->vis[c][w][k];
    }
    if (r->prof.rule == RULE_SCOPED) {
        unsigned k0 = e->line[c][q];
        if (op == OPK_STORE || op == OPK_STORE_REL || op == OPK_ATOMIC) {
            /* the warp's own write: its later loads return it or a later value */
            e->wrote[c][w] |= (uint8_t)(1u << k0);
            e->floor[c][w][k0] = (uint8_t)((e->floor[c][w][k0] & e->vis[c][w][k0]) | e->val[c][q]);
        }
        /* a release of .gpu or .sys completed: the warp's writes done before it
         * (a release store's own line: its earlier write is not followed, the
         * store reset it) */
        if ((op == OPK_FENCE || op == OPK_STORE_REL) && e->scope[c][q] != SCOPE_CTA)
            for (unsigned k = 0; k < r->o->lines; k++)
                if (e->fence_lines[c][q] >> k & 1 && !(op == OPK_STORE_REL && k == k0))
                    for (unsigned l = 0; l <= (e->scope[c][q] == SCOPE_SYS ? 1u : 0u); l++)
                        e->rel[c][w][l][k] &= e->vis[c][w][k];
    }
    e->busy[c][q] = 0;
    e->warp[c][q] = 0;
    e->scope[c][q] = 0;
    e->allowed[c][q] = 0;
    e->line[c][q] = 0;
    e->val[c][q] = 0;
    e->fence_lines[c][q] = 0;
}

static bool in_flight(const struct rig *r)
{
    for (unsigned ch = 0; ch < r->n_ch; ch++)
        if (r->ch[ch].n)
            return true;
    return false;
}

/* The lowest free slot of core c, or V_MAX_SLOTS when --inflight are in use
 * (a core with nothing in flight returns 0). */
unsigned vx_free_slot(const struct rig *r, unsigned c)
{
    for (unsigned q = 0; q < r->o->inflight; q++)
        if (!r->env.busy[c][q])
            return q;
    return V_MAX_SLOTS;
}

static bool busy_any(const struct rig *r, unsigned c)
{
    for (unsigned q = 0; q < V_MAX_SLOTS; q++)
        if (r->env.busy[c][q])
            return true;
    return false;
}

bool vx_quiescent(const struct rig *r)
{
    if (r->prof.tx && vtx_busy(r))
        return false;
    for (unsigned c = 0; c < r->n_l1; c++)
        if (busy_any(r, c))
            return false;
    return !in_flight(r);
}

/* A quiescent state: the L2 (or DRAM behind it) holds each line's current
 * value unless an L1 holds it dirty; under a write-atomic protocol every
 * valid L1 copy is current too. */
void vx_check_quiescent(struct rig *r)
{
    uint8_t buf[LINE_MAX_BYTES];
    for (unsigned k = 0; k < r->o->lines; k++) {
        addr_t a = line_addr(r, k);
        uint32_t gold = r->env.gold[k];
        bool dirty_above = false;
        for (unsigned c = 0; c < r->n_l1; c++) {
            struct ctrl *l1 = (struct ctrl *)r->l1[c];
            bool has = false;
            unsigned st = r->l1_ops[c]->peek(r->l1[c], a, buf, &has);
            struct cache_line *cl = l1->cache.sets ? cache_find(&l1->cache, a) : NULL;
            if (cl && cl->dirty)
                dirty_above = true;
            struct stc_l1_view sv;
            if (r->unit)
                stc_l1_view(r->l1[c], &sv);
            /* STC: a line of a current band is dead (scrubbed lazily, never read) */
            bool dead =
                r->unit && (sv.cer >> stc_band(a, sv.seb, stc_spec_of(&r->view)->epochs) & 1);
            uint32_t w = word_of(buf + loc_off(r, k));
            if (r->l1_write_atomic[c] && !r->prof.logical && !dead && st && has && w != gold)
                vx_fail(r, "quiescent: l1[%u] holds line %u = %u in state %s, but its value is %u",
                        c, k, w, r->p->tables[r->l1_table[c]]->state_names[st], gold);
        }
        if (r->spandex)
            continue; /* by word ownership, below */
        /* (--words is Spandex's: every other protocol's locations are word 0) */
        bool has = false;
        struct comp *bank = r->l2; /* several GPMs: the line's home, once its page has one */
        if (r->mg) {
            unsigned home = pagemap_owner(&r->pages, a);
            bank = home == PAGEMAP_NONE ? NULL : r->l2s[home];
        }
        unsigned st = bank ? r->p->l2.peek(bank, a, buf, &has) : 0;
        if (!has)
            backing_read(r->store, a, buf, r->line_bytes);
        if (!dirty_above && word_of(buf) != gold)
            vx_fail(r, "quiescent: the %s holds line %u = %u (L2 state %s), but its value is %u",
                    has ? "L2" : "DRAM", k, word_of(buf),
                    r->p->tables[r->p->n_l1_tables]->state_names[st], gold);
    }
    if (r->spandex) {
        addr_t lines[V_MAX_LINES];
        uint32_t dram[V_MAX_LINES];
        unsigned words[V_MAX_LINES];
        char why[256];
        for (unsigned k = 0; k < r->o->lines; k++) {
            lines[k] = line_addr(r, k);
            words[k] = loc_off(r, k) / 4;
            backing_read(r->store, lines[k], buf, r->line_bytes);
            dram[k] = word_of(buf + loc_off(r, k));
        }
        if (!vspx_quiescent(r->p, r->l1, r->l1_table, r->n_l1, r->l2, lines, words, r->o->lines,
                            r->env.gold, dram, why, sizeof why))
            vx_fail(r, "%s", why);
    }
}

/* ---- events ---- */

uint64_t vx_now_cycles(const struct rig *r)
{
    return r->eng.now / r->core_ps;
}

/* Run the controllers until they have nothing left to do. With leases, only
 * until the core cycle ends: what is left then waits for time (a GWCT wait, a
 * write waiting for leases to expire), which only EV_TICK advances. */
void vx_settle(struct rig *r)
{
    if (r->prof.tx) { /* an answer may make the core send (an abort's cleanup): run again */
        struct msg *m;
        for (bool again = true; again;) {
            eng_run(&r->eng, TICK_MAX);
            again = false;
            while ((m = msg_list_pop(&r->rsp))) {
                take_response(r, m);
                msg_free(&r->msgs, m);
                again = true;
            }
        }
        return;
    }
    if (!r->prof.timed) {
        eng_run(&r->eng, TICK_MAX);
    } else {
        eng_run(&r->eng, (vx_now_cycles(r) + 1) * r->core_ps - 1);
        tick_t next = eng_next_time(&r->eng);
        if (next != TICK_MAX && next % r->core_ps)
            panic("verify: the controllers' reaction to an event ran past its core cycle "
                  "(an event at %llu ps)",
                  (unsigned long long)next);
    }
    struct msg *m;
    while ((m = msg_list_pop(&r->rsp))) {
        take_response(r, m);
        msg_free(&r->msgs, m);
    }
}

/* The values a load of warp w of core c on line k may return, given at its
 * issue (the golden updates while it is in flight add theirs). */
static uint8_t load_allows(struct rig *r, unsigned c, unsigned w, unsigned k)
{
    struct env *e = &r->env;
    if (r->prof.rule == RULE_WRITE_ATOMIC || (r->spandex && r->l1_write_atomic[c]))
        return value_bit(r, e->gold[k], "the golden memory");
    if (r->prof.rule == RULE_LOGICAL)
        return 0; /* judged at the answer (rcc_take) */
    uint8_t m = e->floor[c][w][k];
    /* TC-Weak (RCpc): a core sees its own writes early, before they are performed;
     * so may a multi-GPM core (--inflight): its bank updates its copy with a write
     * it forwards to a remote home, and a later load of the core reads that copy
     * before the home performs the write (program order allows the write's value).
     * With two warps (--warps 2) the writes in flight of either warp of the core:
     * the warp's own by program order; the other warp's because nothing orders
     * the load before that store, so PTX lets the load read it (it bounds only how
     * old a value may be), and the SM's L1 holds it. TC-Weak's tc.load_gwct sends
     * such a load to the L2 instead (LoadOther), for cumulativity, which this
     * reference does not model (docs/verify.md, "Two warps per core"). */
    bool early = r->prof.rule == RULE_WRITER_FENCE || r->prof.rule == RULE_SCOPED;
    for (unsigned q = 0; early && q < V_MAX_SLOTS; q++)
        if (e->val[c][q] && e->line[c][q] == k)
            m |= e->val[c][q];
    return m;
}

/* A store or atomic of core c issued in slot q: what RULE_WRITER_FENCE follows
 * (per warp: the issuing warp's last write to the line). */
static void wrote(struct rig *r, unsigned c, unsigned q, const struct vev *ev)
{
    struct env *e = &r->env;
    if (r->prof.rule != RULE_WRITER_FENCE && r->prof.rule != RULE_SCOPED)
        return;
    e->vis[c][ev->warp][ev->line] = 0;
    e->wrote[c][ev->warp] &= (uint8_t) ~(1u << ev->line);
    e->val[c][q] = value_bit(r, ev->value, "a stored word");
}

/* RULE_SCOPED (docs/verify.md, "Several GPMs"). Whether cores c and d are in
 * one GPU (the rig's GPMs, o->gpus GPUs of equal size). */
static bool same_gpu(const struct rig *r, unsigned c, unsigned d)
{
    unsigned per = r->n_l1 / (r->o->gpus ? r->o->gpus : 1);
    return c / per == d / per;
}

/* An acquire of `scope` by warp x of core d: its later loads return, of each
 * line, no value older than the writes of another core's warp that a release
 * completed for, where the two scopes include both cores (morally strong: .gpu
 * within a GPU, .sys across GPUs). (Multi-GPM rigs run one warp per core.) */
static void scoped_acquire(struct rig *r, unsigned d, unsigned x, unsigned scope)
{
    struct env *e = &r->env;
    for (unsigned c = 0; c < r->n_l1; c++) {
        if (c == d || scope == SCOPE_CTA)
            continue;
        unsigned level = same_gpu(r, c, d) ? 0 : 1;
        if (level == 1 && scope != SCOPE_SYS)
            continue;
        for (unsigned w = 0; w < vx_warps(r->o); w++)
            for (unsigned k = 0; k < r->o->lines; k++)
                e->floor[d][x][k] &= e->rel[c][w][level][k];
    }
}

/* A scoped relaxed load reads at the point of coherence of its scope (the
 * home; a hierarchical protocol's .gpu: the GPU home, the system home on one
 * GPU), so at or after the line's value at issue. On several GPUs the .gpu
 * load of hmg, sw-h (and their variants) reads the GPU home, which other
 * GPUs' writes reach only through invalidations (sw-h: a .sys acquire) no
 * .gpu operation waits for: judged as a weak load. */
static bool scoped_strong(const struct rig *r, unsigned scope)
{
    if (scope == SCOPE_SYS)
        return true;
    return scope == SCOPE_GPU && (r->o->gpus <= 1 || !r->mg_hier);
}

static void issue(struct rig *r, const struct vev *ev)
{
    struct env *e = &r->env;
    unsigned c = ev->core, w = ev->warp, q = vx_free_slot(r, c), off = loc_off(r, ev->line);
    if (q == V_MAX_SLOTS)
        panic("verify: core %u issues with every slot in use", c);
    addr_t a = line_addr(r, ev->line);
    struct msg *m = msg_new(&r->msgs, MSG_CORE_REQ, a, r->eng.now);
    m->req = (struct mem_req){
        .sm = (uint16_t)c, .warp = (uint16_t)w, .id = q, .scope = SCOPE_GPU, .sem = SEM_WEAK};
    if (r->mg)
        m->req.sm = (uint16_t)(c % r->gpm_sms); /* its SM within its GPM */
    bool scoped = r->prof.rule == RULE_SCOPED;
    unsigned scope = ev->scope ? ev->scope - 1u : SCOPE_GPU;
    if (scoped && (ev->op == OPK_FENCE || ev->op == OPK_STORE_REL))
        e->fence_lines[c][q] = e->wrote[c][w]; /* the release covers the warp's writes done */
    switch (ev->op) {
    case OPK_LOAD_ACQ:
        /* what it reads is judged as a plain load's; the loads after it, as after a fence */
        m->req.sem = SEM_ACQUIRE;
        m->req.scope = (uint8_t)scope;
        e->allowed[c][q] = load_allows(r, c, w, ev->line);
        if (scoped && scoped_strong(r, scope))
            e->allowed[c][q] &= value_bit(r, e->gold[ev->line], "the golden memory");
        if (scoped)
            scoped_acquire(r, c, w, scope);
        else if (r->prof.rule != RULE_WRITER_FENCE && r->prof.rule != RULE_LOGICAL)
            for (unsigned k = 0; k < r->o->lines; k++)
                e->floor[c][w][k] = value_bit(r, e->gold[k], "the golden memory");
        m->req.op = MEM_LOAD;
        bytemask_set_range(&m->mask, off, 4);
        break;
    case OPK_LOAD:
        m->req.op = MEM_LOAD;
        m->req.scope = SCOPE_CTA;
        bytemask_set_range(&m->mask, off, 4);
        e->allowed[c][q] = load_allows(r, c, w, ev->line);
        if (ev->scope) { /* ld.relaxed.SCOPE */
            m->req.scope = (uint8_t)scope;
            m->req.sem = SEM_RELAXED;
            if (scoped && scoped_strong(r, scope))
                e->allowed[c][q] &= value_bit(r, e->gold[ev->line], "the golden memory");
        }
        break;
    case OPK_STORE_REL:
    case OPK_STORE:
        m->req.op = MEM_STORE;
        if (ev->op == OPK_STORE_REL) {
            m->req.sem = SEM_RELEASE;
            m->req.scope = (uint8_t)scope;
        } else {
            m->req.scope = SCOPE_CTA;
        }
        memset(m->data, 0, r->line_bytes);
        memcpy(m->data + off, &(uint32_t){ev->value}, 4);
        bytemask_set_range(&m->mask, off, 4);
        wrote(r, c, q, ev);
        break;
    case OPK_ATOMIC:
        m->req.op = MEM_ATOMIC;
        m->req.sem = SEM_RELAXED;
        m->req.scope = (uint8_t)scope;
        r->atom[c][q] = (struct atom_ops){.kind = ATOM_EXCH, .type = ATYPE_U32, .n = 1};
        r->atom[c][q].lane[0] = (struct atom_lane){.off = (uint8_t)off, .a = ev->value};
        m->req.atom = &r->atom[c][q];
        bytemask_set_range(&m->mask, off, 4);
        /* an atomic reads its line's value in coherence order, whatever the model */
        e->allowed[c][q] = value_bit(r, e->gold[ev->line], "the golden memory");
        wrote(r, c, q, ev);
        break;
    case OPK_FENCE:
        m->req.op = MEM_FENCE;
        m->req.sem = SEM_ACQ_REL;
        m->req.scope = (uint8_t)scope;
        m->addr = 0;
        if (scoped) {
            scoped_acquire(r, c, w, scope);
        } else if (r->prof.rule == RULE_LOGICAL) {
            r->lenv.fence_has_w[c][q] = r->lenv.has_w[c];
            r->lenv.fence_w[c][q] = r->lenv.wmax[c];
        } else if (r->prof.rule != RULE_WRITER_FENCE)
            for (unsigned k = 0; k < r->o->lines; k++)
                e->floor[c][w][k] = value_bit(r, e->gold[k], "the golden memory");
        else
            e->fence_lines[c][q] = e->wrote[c][w];
        break;
    }
    if (r->prof.logical) { /* loads read at the read view, writes at the write view */
        uint64_t w, now = l1_clock(r, c, &w);
        bool writes = ev->op == OPK_STORE || ev->op == OPK_STORE_REL || ev->op == OPK_ATOMIC;
        r->lenv.t_issue[c][q] = writes ? w : now;
    }
    e->issued[c]++;
    e->scope[c][q] = (uint8_t)m->req.scope;
    e->busy[c][q] = (uint8_t)(ev->op + 1);
    e->line[c][q] = ev->line;
    e->warp[c][q] = ev->warp;
    vx_send_core(r, c, m);
}

static void deliver(struct rig *r, unsigned ch)
{
    struct msg *m = msg_list_pop(&r->ch[ch]);
    struct port *to;
    if (is_ch_peer(r, ch)) {
        unsigned i = ch - ch_peer(r, 0, 0, 0);
        to = &r->down[i / r->n_vnets % r->n_l1][i % r->n_vnets];
    } else if (r->mg && ch >= ch_sys(r, 0, 0, 0)) {
        unsigned i = ch - ch_sys(r, 0, 0, 0);
        to = &r->sys_in[i / r->n_vnets % r->n_l2][i % r->n_vnets];
    } else if (r->mg && ch >= ch_dram(r))
        to = r->p->l2.in_port(r->l2s[ch - ch_dram(r)]);
    else if (ch > ch_dram(r))
        to = ch < ch_unit_down(r, 0) ? &r->unit_in[ch - ch_unit_up(r, 0)]
                                     : &r->unit_down[ch - ch_unit_down(r, 0)];
    else if (ch == ch_dram(r))
        to = r->p->l2.in_port(r->l2);
    else if (ch < r->n_l1 * r->n_vnets)
        to = &r->l2_in[bank_of(r, ch / r->n_vnets)][ch % r->n_vnets];
    else
        to = &r->down[ch / r->n_vnets - r->n_l1][ch % r->n_vnets];
    if (!port_send(to, m))
        panic("verify: a network port is full");
}

static void nothing(void *obj, uint64_t arg)
{
    (void)obj;
    (void)arg;
}

/* Time moves to the start of core cycle `cycle`: what waited for a time before
 * it (a lease, a GWCT) happens at that time, in the engine's order. */
void vx_advance_to(struct rig *r, uint64_t cycle)
{
    eng_at(&r->eng, cycle * r->core_ps, nothing, NULL, 0);
    eng_run(&r->eng, cycle * r->core_ps);
    vx_settle(r);
}

/* EV_TICK: time advances one tick (enabled while a lease or wait runs).
 * Not straight to the next expiry: a lease granted a tick later than another
 * ends a tick later, an order a jump to the expiry would never produce. Every
 * time is a whole number of ticks plus fewer cycles than a tick, so what a
 * tick passes expires at once. */
static void tick(struct rig *r)
{
    if (!vx_time_can_advance(r))
        panic("verify: time advanced with no lease or wait running");
    r->lenv.ticks++;
    vx_advance_to(r, (vx_now_cycles(r) / VERIFY_TICK_CYCLES + 1) * VERIFY_TICK_CYCLES);
}

void vx_apply(struct rig *r, const struct vev *ev)
{
    if (ev->kind == EV_OP && r->prof.tx && ev->op >= OPK_TX_LOAD) {
        vtx_issue(r, ev);
        vx_settle(r);
    } else if (ev->kind == EV_OP && r->prof.tx) { /* --plain: a plain operation */
        vtx_plain(r, ev);
        issue(r, ev);
        vx_settle(r);
    } else if (ev->kind == EV_OP) {
        issue(r, ev);
        vx_settle(r);
    } else if (ev->kind == EV_DELIVER) {
        deliver(r, ev->ch);
        vx_settle(r);
    } else {
        tick(r);
    }
    if (r->prof.logical) {
        rcc_prune(r);
        rcc_check_copies(r);
    }
    if (r->prof.tx)
        vtx_check(r, vx_quiescent(r));
}

/* Every event enabled in the rig's state, in a fixed order. */
/* --scopes: weak loads and stores, relaxed loads at .gpu/.sys, atomics at
 * .gpu/.sys, fences and (--sync) acquire loads and release stores at each
 * listed scope. */
static unsigned enabled_scoped(const struct rig *r, unsigned c, struct vev *out)
{
    unsigned n = 0, mask = r->o->scopes;
    for (unsigned k = 0; k < r->o->lines; k++) {
        out[n++] = (struct vev){EV_OP, (uint8_t)c, OPK_LOAD, (uint8_t)k, 0, 0, 0};
        for (unsigned sc = SCOPE_GPU; sc <= SCOPE_SYS; sc++)
            if (mask >> sc & 1)
                out[n++] =
                    (struct vev){EV_OP, (uint8_t)c, OPK_LOAD, (uint8_t)k, 0, 0, (uint8_t)(sc + 1)};
        for (unsigned v = 1; v <= r->o->values; v++) {
            out[n++] = (struct vev){EV_OP, (uint8_t)c, OPK_STORE, (uint8_t)k, (uint8_t)v, 0, 0};
            for (unsigned sc = SCOPE_GPU; r->o->atomics && sc <= SCOPE_SYS; sc++)
                if (mask >> sc & 1)
                    out[n++] = (struct vev){EV_OP,      (uint8_t)c, OPK_ATOMIC,       (uint8_t)k,
                                            (uint8_t)v, 0,          (uint8_t)(sc + 1)};
        }
    }
    for (unsigned sc = SCOPE_CTA; sc <= SCOPE_SYS; sc++) {
        if (!(mask >> sc & 1))
            continue;
        out[n++] = (struct vev){EV_OP, (uint8_t)c, OPK_FENCE, 0, 0, 0, (uint8_t)(sc + 1)};
        for (unsigned k = 0; r->o->sync && k < r->o->lines; k++) {
            out[n++] =
                (struct vev){EV_OP, (uint8_t)c, OPK_LOAD_ACQ, (uint8_t)k, 0, 0, (uint8_t)(sc + 1)};
            for (unsigned v = 1; v <= r->o->values; v++)
                out[n++] = (struct vev){EV_OP,      (uint8_t)c, OPK_STORE_REL,    (uint8_t)k,
                                        (uint8_t)v, 0,          (uint8_t)(sc + 1)};
        }
    }
    return n;
}

/* The operations core c may issue: --ops, or its own bound from --ops-each
 * (a restriction of --ops's space to fewer paths, so what it reaches --ops
 * reaches too; it lets one core run the longer sequence a cell needs while
 * the others run short ones). */
unsigned vx_ops_bound(const struct rig *r, unsigned c)
{
    return r->o->n_ops_each ? r->o->ops_each[c] : r->o->ops;
}

/* Core c's plain operations (no --scopes), for warp 0. */
static unsigned enabled_plain(const struct rig *r, unsigned c, struct vev *out)
{
    unsigned n = 0;
    /* --kinds: this core's operation kinds (0: all) */
    unsigned kinds = r->o->kinds[0] ? r->o->kinds[c] : ~0u;
    for (unsigned k = 0; k < r->o->lines; k++) {
        if (kinds & VERIFY_KIND_LOAD)
            out[n++] = (struct vev){EV_OP, (uint8_t)c, OPK_LOAD, (uint8_t)k, 0, 0};
        for (unsigned v = 1; v <= r->o->values; v++) {
            if (kinds & VERIFY_KIND_STORE)
                out[n++] = (struct vev){EV_OP, (uint8_t)c, OPK_STORE, (uint8_t)k, (uint8_t)v, 0};
            if (r->o->atomics && (kinds & VERIFY_KIND_ATOMIC))
                out[n++] = (struct vev){EV_OP, (uint8_t)c, OPK_ATOMIC, (uint8_t)k, (uint8_t)v, 0};
        }
    }
    if (kinds & VERIFY_KIND_FENCE)
        out[n++] = (struct vev){EV_OP, (uint8_t)c, OPK_FENCE, 0, 0, 0};
    for (unsigned k = 0; r->o->sync && k < r->o->lines; k++) {
        out[n++] = (struct vev){EV_OP, (uint8_t)c, OPK_LOAD_ACQ, (uint8_t)k, 0, 0};
        for (unsigned v = 1; v <= r->o->values; v++)
            out[n++] = (struct vev){EV_OP, (uint8_t)c, OPK_STORE_REL, (uint8_t)k, (uint8_t)v, 0};
    }
    return n;
}

unsigned vx_enabled(const struct rig *r, struct vev *out)
{
    unsigned n = 0;
    for (unsigned c = 0; c < r->n_l1; c++) {
        if (r->prof.tx) { /* (vtx_enabled bounds the attempts, not the operations) */
            n += vtx_enabled(r, c, out + n);
            continue;
        }
        if (vx_free_slot(r, c) == V_MAX_SLOTS || r->env.issued[c] >= vx_ops_bound(r, c))
            continue;
        unsigned first = n;
        n += r->o->scopes ? enabled_scoped(r, c, out + n) : enabled_plain(r, c, out + n);
        /* --warps 2: each of them again from warp 1 (the core's --ops and
         * --inflight are its warps' together) */
        for (unsigned w = 1, len = n - first; w < vx_warps(r->o); w++)
            for (unsigned i = 0; i < len; i++) {
                out[n] = out[first + i];
                out[n++].warp = (uint8_t)w;
            }
    }
    for (unsigned ch = 0; ch < r->n_ch; ch++)
        if (r->ch[ch].n)
            out[n++] = (struct vev){.kind = EV_DELIVER, .ch = (uint16_t)ch};
    if (r->prof.timed && vx_time_can_advance(r))
        out[n++] = (struct vev){.kind = EV_TICK};
    return n;
}

void vx_ev_text(const struct rig *r, const struct vev *ev, char *out, size_t len)
{
    if (ev->kind == EV_OP) {
        int n = snprintf(out, len, "op %u %s%s%s %u %u", ev->core, op_names[ev->op],
                         ev->scope ? "." : "", scope_names[ev->scope < 4 ? ev->scope : 0], ev->line,
                         ev->value);
        if (vx_warps(r->o) > 1 && n >= 0 && (size_t)n < len) /* --warps 2: which one */
            snprintf(out + n, len - (size_t)n, " warp %u", ev->warp);
    } else if (ev->kind == EV_TICK) {
        snprintf(out, len, "tick");
    } else {
        char src[16], dst[16];
        unsigned vnet;
        vx_ch_describe(r, ev->ch, src, dst, &vnet);
        snprintf(out, len, "deliver %s %s %u%s", src, dst, vnet,
                 is_ch_free(r, ev->ch) ? " free" : "");
    }
}
