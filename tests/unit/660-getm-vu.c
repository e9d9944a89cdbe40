/*
 * 660-getm-vu.c - GETM's validation unit (spec 004a §4.3-4.7, §8.3, §9):
 * the worked example of Fig. 4.7 with every timestamp checked (the printed
 * timestamps and the default unique ones), the write-skew case of item 17
 * (both commit under the printed rules, one aborts by default), owners
 * tagged with the transaction sequence (item 19), the stall-buffer wake
 * order (item 23) and its overflow, the Bloom filter's overestimates (G3),
 * and a stress tester: random transactions of 16 warps over a few words
 * with tiny tables (forcing the stash and the Bloom filter), delayed commit
 * and cleanup messages, checked for serialisability by replaying the
 * committed transactions in timestamp order.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "coh/getm/getm_vu.h"

struct rig {
    struct eng eng;
    struct coh_cov cov;
    struct getm_params p;
    struct getm_vu *v;
};

static void rig_init(struct rig *r, const struct getm_params *p)
{
    memset(r, 0, sizeof *r);
    eng_init(&r->eng);
    coh_cov_init(&r->cov, &getm_vu_table);
    r->p = *p;
    r->v = getm_vu_new(p, &r->eng, "vu0", &r->cov);
}

static void rig_destroy(struct rig *r)
{
    getm_vu_free(r->v);
    coh_cov_destroy(&r->cov);
    eng_destroy(&r->eng);
}

static struct getm_params printed(void)
{
    struct getm_params p;
    getm_params_default(&p);
    p.unique_ts = p.owner_seq = p.wake_all = false;
    return p;
}

static struct getm_result acc(struct rig *r, addr_t a, bool st, uint32_t wid, uint32_t seq,
                              getm_ts ts)
{
    struct getm_req q = {a, st, wid, seq, ts, wid};
    return getm_vu_access(r->v, &q);
}

static void expect_meta(struct rig *r, addr_t a, getm_ts rts, getm_ts wts, uint32_t nw,
                        uint32_t owner)
{
    struct getm_meta m;
    assert_true(getm_vu_peek(r->v, a, &m));
    assert_int_equal(m.rts, rts);
    assert_int_equal(m.wts, wts);
    assert_int_equal(m.nwrites, nw);
    if (nw)
        assert_int_equal(m.owner, owner);
}

enum { A = 0x1000, B = 0x2000, TX1 = 1, TX2 = 2 };

/* Fig. 4.7 step by step. t(logical) gives the timestamp the core would use:
 * the logical time itself (printed), or it with the warp id below it. */
static void fig47(struct getm_params p)
{
    struct rig r;
    rig_init(&r, &p);
    unsigned wb = p.unique_ts ? p.warp_bits : 0;
    getm_ts t1 = (20ull << wb) | (p.unique_ts ? TX1 : 0);
    getm_ts t2 = (10ull << wb) | (p.unique_ts ? TX2 : 0);
    /* 1: tx1 LD A@20, ST A@20 */
    assert_int_equal(acc(&r, A, false, TX1, 0, t1).reply, GETM_OK);
    assert_int_equal(acc(&r, A, true, TX1, 0, t1).reply, GETM_OK);
    expect_meta(&r, A, t1, t1 + 1, 1, TX1);
    /* 2: tx2 LD B@10, ST B@10 (table 1) */
    assert_int_equal(acc(&r, B, false, TX2, 0, t2).reply, GETM_OK);
    assert_int_equal(acc(&r, B, true, TX2, 0, t2).reply, GETM_OK);
    expect_meta(&r, A, t1, t1 + 1, 1, TX1);
    expect_meta(&r, B, t2, t2 + 1, 1, TX2);
    /* 3: tx2 LD A@10 aborts with A.wts; the abort log releases B */
    struct getm_result x = acc(&r, A, false, TX2, 0, t2);
    assert_int_equal(x.reply, GETM_ABORT);
    assert_int_equal(x.cause, t1 + 1);
    struct getm_req woken[8];
    assert_int_equal(getm_vu_release(r.v, B, 1, woken, 8), 0);
    expect_meta(&r, B, t2, t2 + 1, 0, 0);
    getm_ts t2b = getm_advance_ts(&p, TX2, x.cause);
    assert_int_equal(t2b, p.unique_ts ? (21ull << wb | TX2) : 22);
    /* 4: tx1 LD B@20 (unlocked, rts = 20); ST B@20 (wts = 21) (table 2) */
    assert_int_equal(acc(&r, B, false, TX1, 0, t1).reply, GETM_OK);
    expect_meta(&r, B, t1, t2 + 1, 0, 0);
    assert_int_equal(acc(&r, B, true, TX1, 0, t1).reply, GETM_OK);
    expect_meta(&r, A, t1, t1 + 1, 1, TX1);
    expect_meta(&r, B, t1, t1 + 1, 1, TX1);
    /* 5: tx2 restarts; LD B passes the timestamp check but B is reserved */
    assert_int_equal(acc(&r, B, false, TX2, 1, t2b).reply, GETM_QUEUED);
    /* 6: tx1 commits: #writes of A and B to 0 (table 3); B's waiter re-enters */
    assert_int_equal(getm_vu_release(r.v, A, 1, woken, 8), 0);
    assert_int_equal(getm_vu_release(r.v, B, 1, woken, 8), 1);
    assert_int_equal(woken[0].wid, TX2);
    assert_int_equal(woken[0].warpts, t2b);
    expect_meta(&r, A, t1, t1 + 1, 0, 0);
    expect_meta(&r, B, t1, t1 + 1, 0, 0);
    /* 7: the queued LD B succeeds; tx2 finishes and commits at its new time */
    assert_int_equal(getm_vu_access(r.v, &woken[0]).reply, GETM_OK);
    assert_int_equal(acc(&r, B, true, TX2, 1, t2b).reply, GETM_OK);
    assert_int_equal(acc(&r, A, false, TX2, 1, t2b).reply, GETM_OK);
    assert_int_equal(acc(&r, A, true, TX2, 1, t2b).reply, GETM_OK);
    expect_meta(&r, A, t2b, t2b + 1, 1, TX2);
    expect_meta(&r, B, t2b, t2b + 1, 1, TX2);
    assert_int_equal(getm_vu_release(r.v, B, 1, woken, 8), 0);
    assert_int_equal(getm_vu_release(r.v, A, 1, woken, 8), 0);
    expect_meta(&r, A, t2b, t2b + 1, 0, 0);
    expect_meta(&r, B, t2b, t2b + 1, 0, 0);
    rig_destroy(&r);
}

static void fig47_printed_timestamps(void **state)
{
    (void)state;
    fig47(printed());
}

static void fig47_unique_timestamps(void **state)
{
    (void)state;
    struct getm_params p;
    getm_params_default(&p);
    fig47(p);
}

/* Item 17: T1 reads A and writes B, T2 reads B and writes A, from the first
 * timestamp of their warps. Returns how many of the two commit. */
static int write_skew(struct getm_params p)
{
    struct rig r;
    rig_init(&r, &p);
    getm_ts t1 = getm_first_ts(&p, TX1), t2 = getm_first_ts(&p, TX2);
    int ok1 = acc(&r, A, false, TX1, 0, t1).reply == GETM_OK;
    int ok2 = acc(&r, B, false, TX2, 0, t2).reply == GETM_OK;
    ok1 &= acc(&r, B, true, TX1, 0, t1).reply == GETM_OK;
    ok2 &= acc(&r, A, true, TX2, 0, t2).reply == GETM_OK;
    rig_destroy(&r);
    return ok1 + ok2;
}

static void write_skew_commits_both_only_under_printed_rules(void **state)
{
    (void)state;
    assert_int_equal(write_skew(printed()), 2); /* not serialisable */
    struct getm_params p;
    getm_params_default(&p);
    assert_int_equal(write_skew(p), 1);
}

/* Item 19: a warp's next transaction touches a line whose commit has not yet
 * reached the VU. With owner = warp id it passes the owner check (and would
 * read stale LLC data); with the sequence number it waits for the commit. */
static enum getm_reply next_tx_on_uncommitted_line(struct getm_params p)
{
    struct rig r;
    rig_init(&r, &p);
    getm_ts t = getm_first_ts(&p, TX1);
    assert_int_equal(acc(&r, A, true, TX1, 0, t).reply, GETM_OK);
    struct getm_meta m;
    getm_vu_peek(r.v, A, &m);
    getm_ts next = getm_advance_ts(&p, TX1, MAX(t, MAX(m.rts, m.wts))); /* item 18 */
    enum getm_reply rep = acc(&r, A, false, TX1, 1, next).reply;
    rig_destroy(&r);
    return rep;
}

static void owner_tagged_with_sequence_waits_for_the_commit(void **state)
{
    (void)state;
    assert_int_equal(next_tx_on_uncommitted_line(printed()), GETM_OK);
    struct getm_params p;
    getm_params_default(&p);
    assert_int_equal(next_tx_on_uncommitted_line(p), GETM_QUEUED);
}

/* Item 23: three waiters on a line; when it unlocks the printed form lets
 * only the oldest re-enter (the others stay, possibly forever), the default
 * all of them in ascending warpts. A fifth waiter finds the line's entries
 * full and aborts, reporting its own warpts. */
static void stall_buffer_wake_order_and_overflow(void **state)
{
    (void)state;
    for (int wake_all = 0; wake_all < 2; wake_all++) {
        struct getm_params p = printed();
        p.wake_all = wake_all;
        struct rig r;
        rig_init(&r, &p);
        assert_int_equal(acc(&r, A, true, 9, 0, 5).reply, GETM_OK);
        static const getm_ts ts[] = {30, 10, 20, 40};
        for (int k = 0; k < 4; k++)
            assert_int_equal(acc(&r, A, k & 1, 10 + k, 0, ts[k]).reply, GETM_QUEUED);
        struct getm_result full = acc(&r, A, false, 20, 0, 50);
        assert_int_equal(full.reply, GETM_ABORT);
        assert_int_equal(full.cause, 50);
        struct getm_req woken[8];
        unsigned n = getm_vu_release(r.v, A, 1, woken, 8);
        if (!wake_all) {
            assert_int_equal(n, 1);
            assert_int_equal(woken[0].warpts, 10);
        } else {
            assert_int_equal(n, 4);
            for (unsigned k = 0; k < n; k++)
                assert_int_equal(woken[k].warpts, (k + 1) * 10);
        }
        assert_int_equal(getm_vu_stats(r.v)->stall_full, 1);
        rig_destroy(&r);
    }
}

/* The printed wake order (item 23: only the oldest waiter re-enters at the
 * last release) must not strand the rest: when the waiter that re-entered
 * leaves the granule unreserved (here a load), getm_vu_wake_next hands over
 * the next oldest, until one reserves; under wake_all it never has any. */
static void printed_wake_order_passes_on(void **state)
{
    (void)state;
    for (int wake_all = 0; wake_all < 2; wake_all++) {
        struct getm_params p = printed();
        p.wake_all = wake_all;
        struct rig r;
        rig_init(&r, &p);
        assert_int_equal(acc(&r, A, true, 9, 0, 5).reply, GETM_OK);
        assert_int_equal(acc(&r, A, false, 10, 0, 10).reply, GETM_QUEUED); /* a load */
        assert_int_equal(acc(&r, A, true, 11, 0, 20).reply, GETM_QUEUED);  /* a store */
        assert_int_equal(acc(&r, A, false, 12, 0, 30).reply, GETM_QUEUED); /* a load */
        struct getm_req woken[8];
        unsigned n = getm_vu_release(r.v, A, 1, woken, 8);
        if (wake_all) {
            assert_int_equal(n, 3);
            assert_int_equal(getm_vu_wake_next(r.v, A, woken, 8), 0);
            rig_destroy(&r);
            continue;
        }
        assert_int_equal(n, 1);
        assert_int_equal(woken[0].warpts, 10);
        assert_int_equal(getm_vu_access(r.v, &woken[0]).reply, GETM_OK); /* reads: no reservation */
        assert_int_equal(getm_vu_wake_next(r.v, A, woken, 8), 1);
        assert_int_equal(woken[0].warpts, 20);
        assert_int_equal(getm_vu_access(r.v, &woken[0]).reply, GETM_OK); /* reserves */
        assert_int_equal(getm_vu_wake_next(r.v, A, woken, 8), 0);        /* waits for its release */
        assert_int_equal(getm_vu_release(r.v, A, 1, woken, 8), 1);
        assert_int_equal(woken[0].warpts, 30);
        assert_int_equal(getm_vu_access(r.v, &woken[0]).reply, GETM_OK);
        assert_int_equal(getm_vu_wake_next(r.v, A, woken, 8), 0); /* none left */
        rig_destroy(&r);
    }
}

/* G3 with tiny tables: after many granules pass through (stash, Bloom
 * evictions), what the VU reports is never below the true rts and wts. */
static void small_tables_only_overestimate(void **state)
{
    (void)state;
    struct getm_params p;
    getm_params_default(&p);
    p.precise_sets = 1;
    p.stash = 2;
    p.bloom_sets = 2;
    struct rig r;
    rig_init(&r, &p);
    enum { G = 64 };
    getm_ts true_rts[G] = {0}, true_wts[G] = {0};
    struct rng g;
    rng_seed(&g, 7, 0);
    struct getm_req woken[8];
    for (int n = 0; n < 5000; n++) {
        unsigned k = (unsigned)rng_below(&g, G);
        getm_ts ts = getm_advance_ts(&p, 3, rng_below(&g, 1u << 20));
        bool st = rng_chance(&g, 1, 3);
        struct getm_result x = acc(&r, (addr_t)k * 32, st, 3, (uint32_t)n, ts);
        if (x.reply != GETM_OK)
            continue;
        if (st) {
            true_wts[k] = MAX(true_wts[k], ts + 1);
            getm_vu_release(r.v, (addr_t)k * 32, 1, woken, 8);
        } else {
            true_rts[k] = MAX(true_rts[k], ts);
        }
        for (unsigned j = 0; j < G; j++) {
            struct getm_meta m;
            getm_vu_peek(r.v, (addr_t)j * 32, &m);
            assert_true(m.rts >= true_rts[j]);
            assert_true(m.wts >= true_wts[j]);
        }
    }
    const struct getm_vu_stats *st = getm_vu_stats(r.v);
    assert_true(st->bloom_evictions > 100); /* the stash is the stress tester's */
    rig_destroy(&r);
}

/* The abort causes: each refusal of the flowchart with its kind (and the
 * VU's counts), and a refusal by a timestamp the Bloom filter gave back
 * (approx) told from one by a precise timestamp. */
static void abort_kinds_and_bloom_refusals(void **state)
{
    (void)state;
    struct getm_params p = printed();
    p.stall_lines = p.stall_entries = 1;
    struct rig r;
    rig_init(&r, &p);
    assert_int_equal(acc(&r, A, true, TX1, 0, 20).reply, GETM_OK);  /* A: wts 21, TX1's */
    assert_int_equal(acc(&r, B, false, TX1, 0, 20).reply, GETM_OK); /* B: rts 20 */
    struct getm_result x = acc(&r, A, false, TX2, 0, 10);
    assert_int_equal(x.reply, GETM_ABORT);
    assert_int_equal(x.kind, GETM_ABORT_LOAD_LATE);
    assert_int_equal(x.cause, 21);
    assert_false(x.approx);
    x = acc(&r, B, true, TX2, 0, 10);
    assert_int_equal(x.kind, GETM_ABORT_STORE_READ);
    assert_int_equal(x.cause, 20);
    x = acc(&r, A, true, TX2, 0, 10);
    assert_int_equal(x.kind, GETM_ABORT_STORE_WRITE);
    assert_int_equal(acc(&r, A, false, TX2, 0, 30).reply, GETM_QUEUED); /* the one entry */
    x = acc(&r, A, false, 3, 0, 40);
    assert_int_equal(x.kind, GETM_ABORT_STALL_FULL);
    assert_int_equal(x.cause, 40);
    const struct getm_vu_stats *st = getm_vu_stats(r.v);
    for (unsigned k = 0; k < GETM_ABORT_KINDS; k++)
        assert_int_equal(st->abort_kinds[k], 1);
    assert_int_equal(st->abort_approx, 0);
    rig_destroy(&r);

    /* one precise set of 4 ways and no stash: reads of 16 granules at 100
     * send most of them to the Bloom filter; a store at 50 to one that is
     * there comes back with the filter's rts and is refused by it, one to a
     * precise granule by its own rts */
    p = printed();
    p.precise_sets = 1;
    p.stash = 0;
    rig_init(&r, &p);
    for (addr_t g = 0; g < 16; g++)
        assert_int_equal(acc(&r, 32 * g, false, TX1, 0, 100).reply, GETM_OK);
    addr_t out = 0, in = 0;
    struct getm_meta m;
    for (addr_t g = 0; g < 16; g++)
        *(getm_vu_peek(r.v, 32 * g, &m) ? &in : &out) = 32 * g;
    assert_true(getm_vu_stats(r.v)->bloom_evictions > 0);
    x = acc(&r, in, true, TX2, 0, 50);
    assert_int_equal(x.kind, GETM_ABORT_STORE_READ);
    assert_false(x.approx);
    x = acc(&r, out, true, TX2, 0, 50);
    assert_int_equal(x.kind, GETM_ABORT_STORE_READ);
    assert_true(x.approx);
    assert_int_equal(x.cause, 100);
    /* a read raises the rts itself: no longer the filter's */
    assert_int_equal(acc(&r, out, false, TX2, 0, 200).reply, GETM_OK);
    assert_false(acc(&r, out, true, TX1, 0, 150).approx);
    assert_int_equal(getm_vu_stats(r.v)->abort_approx, 1);
    rig_destroy(&r);
}

/* A full precise table (one set: 4 slots) takes a new granule in place of
 * the unreserved one with the oldest timestamps (evict_oldest), never a
 * reserved one; the evicted granule's timestamps go to the Bloom filter. */
static void full_table_evicts_the_oldest_unreserved(void **state)
{
    (void)state;
    struct getm_params p = printed();
    p.precise_sets = 1;
    p.stash = 0;
    struct rig r;
    rig_init(&r, &p);
    assert_int_equal(acc(&r, 0, true, TX1, 0, 5).reply, GETM_OK); /* reserved, oldest */
    for (addr_t g = 1; g < 4; g++)                                /* ways 1..3: rts 30, 20, 10 */
        assert_int_equal(acc(&r, 32 * g, false, TX1, 0, 40 - 10 * g).reply, GETM_OK);
    assert_int_equal(acc(&r, 32 * 4, false, TX1, 0, 50).reply, GETM_OK);
    struct getm_meta m;
    assert_true(getm_vu_peek(r.v, 0, &m));       /* the reservation stays */
    assert_false(getm_vu_peek(r.v, 32 * 3, &m)); /* rts 10: gone to the filter (the cuckoo
                                                    walk would have sent rts 30's) */
    assert_true(m.rts >= 10);
    for (addr_t g = 1; g < 5; g++)
        assert_true(g == 3 || getm_vu_peek(r.v, 32 * g, &m));
    assert_int_equal(getm_vu_stats(r.v)->bloom_evictions, 1);
    rig_destroy(&r);
}

/* ---- the stress tester ---- */

enum { W = 16, G = 24, MAXOPS = 4, WORD = 32 };

struct txop {
    uint8_t g;
    bool store;
    uint32_t val; /* load: value seen; store: value written */
};

struct warp {
    enum { IDLE, RUN, WAIT } phase;
    getm_ts ts;
    uint32_t seq; /* attempt number: the owner tag */
    struct txop op[MAXOPS];
    unsigned n, pc;
    uint32_t nwrites[G]; /* reservations of the current attempt */
    uint32_t redo[G];
    bool wrote[G];
    getm_ts seen; /* largest rts/wts observed (item 18) */
};

struct committed {
    getm_ts ts;
    uint32_t wid;
    unsigned n;
    struct txop op[MAXOPS];
};

struct release {
    uint8_t g;
    uint32_t count;
    bool commit;
    uint32_t data;
};

struct stress {
    struct rig r;
    struct rng rng;
    struct warp w[W];
    uint32_t llc[G];
    struct release *pend;
    unsigned n_pend, cap_pend;
    struct committed *done;
    unsigned n_done, cap_done;
    uint64_t aborts;
    bool closing; /* the run is over: waiters no longer re-enter */
};

static uint32_t store_value(uint32_t wid, const struct txop *op, unsigned upto)
{
    uint32_t h = 0x9e3779b9u * (wid + 1);
    for (unsigned k = 0; k < upto; k++)
        if (!op[k].store)
            h = (h ^ op[k].val) * 0x85ebca6bu + k;
    return h;
}

static void end_attempt(struct stress *s, unsigned wid, bool commit)
{
    struct warp *w = &s->w[wid];
    for (unsigned g = 0; g < G; g++) {
        /* one log entry per granule (the commit unit coalesced them) or,
         * at random, one per write (as from different threads of the warp) */
        bool split = rng_chance(&s->rng, 1, 2);
        while (w->nwrites[g]) {
            uint32_t n = split ? 1 : w->nwrites[g];
            assert_true(s->n_pend < s->cap_pend);
            s->pend[s->n_pend++] = (struct release){(uint8_t)g, n, commit, w->redo[g]};
            w->nwrites[g] -= n;
        }
    }
    memset(w->wrote, 0, sizeof w->wrote);
    w->seq++;
    w->pc = 0;
}

static void apply(struct stress *s, unsigned wid, const struct getm_result *x)
{
    struct warp *w = &s->w[wid];
    struct txop *o = &w->op[w->pc];
    if (x->reply == GETM_QUEUED) {
        w->phase = WAIT;
        return;
    }
    if (x->reply == GETM_ABORT) {
        s->aborts++;
        end_attempt(s, wid, false);
        w->ts = getm_advance_ts(&s->r.p, wid, MAX(w->ts, x->cause));
        w->phase = RUN;
        return;
    }
    w->seen = MAX(w->seen, MAX(x->rts, x->wts));
    if (o->store) {
        o->val = store_value(wid, w->op, w->pc);
        w->redo[o->g] = o->val;
        w->wrote[o->g] = true;
        w->nwrites[o->g]++;
    } else {
        o->val = w->wrote[o->g] ? w->redo[o->g] : s->llc[o->g];
    }
    w->phase = RUN;
    if (++w->pc < w->n)
        return;
    assert_true(s->n_done < s->cap_done);
    struct committed *c = &s->done[s->n_done++];
    c->ts = w->ts;
    c->wid = wid;
    c->n = w->n;
    memcpy(c->op, w->op, sizeof c->op);
    end_attempt(s, wid, true);
    w->ts = getm_advance_ts(&s->r.p, wid, MAX(w->ts, w->seen)); /* item 18 */
    w->phase = IDLE;
}

static void deliver_one(struct stress *s)
{
    unsigned k = (unsigned)rng_below(&s->rng, s->n_pend);
    struct release rel = s->pend[k];
    s->pend[k] = s->pend[--s->n_pend];
    if (rel.commit)
        s->llc[rel.g] = rel.data; /* the commit unit writes the LLC first */
    struct getm_req woken[64];
    addr_t a = (addr_t)rel.g * WORD;
    unsigned n = getm_vu_release(s->r.v, a, rel.count, woken, 64);
    while (n) { /* as the bank does (getm_bank.c, release) */
        for (unsigned i = 0; i < n; i++) {
            unsigned wid = (unsigned)woken[i].cookie;
            if (s->closing)
                continue;
            assert_int_equal(s->w[wid].phase, WAIT);
            struct getm_result x = getm_vu_access(s->r.v, &woken[i]);
            apply(s, wid, &x);
        }
        n = getm_vu_wake_next(s->r.v, a, woken, 64);
    }
}

static int by_ts(const void *a, const void *b)
{
    getm_ts x = ((const struct committed *)a)->ts, y = ((const struct committed *)b)->ts;
    return x < y ? -1 : x > y;
}

static void stress_run(unsigned episodes, uint64_t seed, bool wake_all)
{
    struct stress *s = calloc(1, sizeof *s);
    struct getm_params p;
    getm_params_default(&p);
    p.wake_all = wake_all;
    p.precise_sets = 2; /* 8 entries for 24 words: the stash and the Bloom filter work */
    p.stash = 2;
    p.bloom_sets = 4;
    p.stall_lines = 2;
    p.stall_entries = 2;
    p.warp_bits = 4;
    rig_init(&s->r, &p);
    rng_seed(&s->rng, seed, 1);
    s->cap_pend = W * G * MAXOPS + 1;
    s->pend = calloc(s->cap_pend, sizeof *s->pend);
    s->cap_done = episodes + W;
    s->done = calloc(s->cap_done, sizeof *s->done);
    for (unsigned i = 0; i < W; i++)
        s->w[i].ts = getm_first_ts(&p, i);
    uint64_t steps = 0;
    while (s->n_done < episodes) {
        if (++steps > 400ull * episodes)
            fail_msg("no progress: %u of %u transactions committed", s->n_done, episodes);
        if (s->n_pend && rng_chance(&s->rng, 1, 3)) {
            deliver_one(s);
            continue;
        }
        unsigned wid = (unsigned)rng_below(&s->rng, W);
        struct warp *w = &s->w[wid];
        if (w->phase == WAIT)
            continue;
        if (w->phase == IDLE) {
            w->n = 1 + (unsigned)rng_below(&s->rng, MAXOPS);
            for (unsigned k = 0; k < w->n; k++)
                w->op[k] =
                    (struct txop){(uint8_t)rng_below(&s->rng, G), rng_chance(&s->rng, 1, 2), 0};
            w->pc = 0;
            w->seen = 0;
            w->phase = RUN;
        }
        struct txop *o = &w->op[w->pc];
        struct getm_req q = {(addr_t)o->g * WORD, o->store, wid, w->seq, w->ts, wid};
        struct getm_result x = getm_vu_access(s->r.v, &q);
        apply(s, wid, &x);
    }
    /* end: abort what is in flight, deliver every commit and cleanup */
    s->closing = true;
    for (unsigned i = 0; i < W; i++)
        if (s->w[i].phase != IDLE) {
            end_attempt(s, i, false);
            s->w[i].phase = IDLE;
        }
    while (s->n_pend)
        deliver_one(s);
    /* serialisability: replay the committed transactions in timestamp order */
    qsort(s->done, s->n_done, sizeof *s->done, by_ts);
    uint32_t mem[G] = {0};
    for (unsigned t = 0; t < s->n_done; t++) {
        struct committed *c = &s->done[t];
        if (t)
            assert_true(c->ts != s->done[t - 1].ts); /* unique timestamps */
        uint32_t redo[G];
        bool wrote[G] = {false};
        for (unsigned k = 0; k < c->n; k++) {
            struct txop *o = &c->op[k];
            if (o->store) {
                assert_int_equal(o->val, store_value(c->wid, c->op, k));
                redo[o->g] = o->val;
                wrote[o->g] = true;
            } else {
                uint32_t want = wrote[o->g] ? redo[o->g] : mem[o->g];
                if (o->val != want)
                    fail_msg("transaction %u (warp %u, ts %llu) op %u read word %u = %#x; the "
                             "serial order by timestamp gives %#x",
                             t, c->wid, (unsigned long long)c->ts, k, o->g, o->val, want);
            }
        }
        for (unsigned g = 0; g < G; g++)
            if (wrote[g])
                mem[g] = redo[g];
    }
    for (unsigned g = 0; g < G; g++) {
        struct getm_meta m;
        getm_vu_peek(s->r.v, (addr_t)g * WORD, &m);
        assert_int_equal(m.nwrites, 0); /* G4: every reservation released */
        assert_int_equal(s->llc[g], mem[g]);
    }
    const struct getm_vu_stats *st = getm_vu_stats(s->r.v);
    printf("getm stress: %u transactions, %llu aborts (%.0f per 1K commits), %llu queued, "
           "%llu stall-full, %llu stashed, %llu Bloom evictions\n",
           s->n_done, (unsigned long long)s->aborts, 1000.0 * (double)s->aborts / s->n_done,
           (unsigned long long)st->queued, (unsigned long long)st->stall_full,
           (unsigned long long)st->stashed, (unsigned long long)st->bloom_evictions);
    assert_true(st->stashed > 0 && st->bloom_evictions > 0 && st->queued > 0);
    /* every defined cell of the table fired; WakeNext exists for the printed
     * wake order alone, and is the cell that run must reach */
    const struct coh_table *t = &getm_vu_table;
    for (unsigned k = 0; k < t->n_states * t->n_events; k++) {
        bool wake_next = !strcmp(t->event_names[k % t->n_events], "WakeNext");
        if (t->cells[k].kind == COH_DO && !s->r.cov.hits[k] && wake_next != wake_all)
            fail_msg("cell %s:%s never fired", t->state_names[k / t->n_events],
                     t->event_names[k % t->n_events]);
    }
    rig_destroy(&s->r);
    free(s->pend);
    free(s->done);
    free(s);
}

static void stress_20k_transactions_serialisable(void **state)
{
    (void)state;
    const char *env = getenv("GETM_STRESS_EPISODES");
    const char *seed = getenv("GETM_STRESS_SEED");
    unsigned n = env ? (unsigned)strtoul(env, NULL, 10) : 20000;
    stress_run(n, seed ? strtoull(seed, NULL, 10) : 1, true);
}

/* The printed wake order (getm.wake_all = false) with getm_vu_wake_next:
 * every waiter is served in the end (no "no progress" stop), the commits are
 * serialisable, and the hand-over (WakeNext) happens. */
static void stress_printed_wake_order(void **state)
{
    (void)state;
    stress_run(5000, 1, false);
}

/* Timestamp rollover (spec 004a §4.7; coh/getm/tx_epoch.h): with 8-bit
 * timestamps and 4 warp bits a warp may take logical times 0..14 (its wts
 * must fit: the limit is 254); with nothing reserved or waiting the VU
 * flushes its precise table, stash and Bloom filter, so every granule reads
 * (0, 0) and a store at a warp's first timestamp passes where it aborted
 * before (behind the loads' rts). */
static void rollover_flushes_the_tables(void **state)
{
    (void)state;
    struct getm_params p;
    getm_params_default(&p);
    p.ts_bits = 8;
    p.warp_bits = 4;
    p.precise_sets = 1; /* 4 precise entries and a 2-entry stash for 16 granules */
    p.stash = 2;
    p.bloom_sets = 2;
    assert_int_equal(getm_ts_limit(&p), 254);
    assert_int_equal(getm_advance_ts(&p, 3, getm_ts_limit(&p)), 0x103); /* would not fit */
    struct rig r;
    rig_init(&r, &p);
    struct getm_req woken[8];
    getm_ts late = getm_advance_ts(&p, 5, 0xd0); /* logical 14, the last that fits */
    assert_true(late <= getm_ts_limit(&p));
    for (unsigned k = 0; k < 16; k++) /* rts = late everywhere */
        assert_int_equal(acc(&r, (addr_t)k * 32, false, 5, 1, late).reply, GETM_OK);
    assert_true(getm_vu_stats(r.v)->bloom_evictions > 0);
    assert_int_equal(acc(&r, 0, true, 2, 1, getm_first_ts(&p, 2)).reply, GETM_ABORT);
    getm_vu_rollover(r.v);
    assert_int_equal(getm_vu_stats(r.v)->rollovers, 1);
    struct getm_meta m;
    for (unsigned k = 0; k < 16; k++) {
        assert_false(getm_vu_peek(r.v, (addr_t)k * 32, &m)); /* not in the precise table */
        assert_int_equal(m.rts, 0);                          /* and the filter is clear */
        assert_int_equal(m.wts, 0);
    }
    assert_int_equal(acc(&r, 0, true, 2, 2, getm_first_ts(&p, 2)).reply, GETM_OK);
    expect_meta(&r, 0, 0, 3, 1, 2);
    getm_vu_release(r.v, 0, 1, woken, 8);
    rig_destroy(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fig47_printed_timestamps),
        cmocka_unit_test(fig47_unique_timestamps),
        cmocka_unit_test(write_skew_commits_both_only_under_printed_rules),
        cmocka_unit_test(owner_tagged_with_sequence_waits_for_the_commit),
        cmocka_unit_test(stall_buffer_wake_order_and_overflow),
        cmocka_unit_test(printed_wake_order_passes_on),
        cmocka_unit_test(small_tables_only_overestimate),
        cmocka_unit_test(abort_kinds_and_bloom_refusals),
        cmocka_unit_test(full_table_evicts_the_oldest_unreserved),
        cmocka_unit_test(stress_20k_transactions_serialisable),
        cmocka_unit_test(stress_printed_wake_order),
        cmocka_unit_test(rollover_flushes_the_tables),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
