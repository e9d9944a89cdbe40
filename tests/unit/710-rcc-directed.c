/*
 * 710-rcc-directed.c - directed tests of Relativistic Cache Coherence,
 * `rccsc` and `rccwo` (spec 004a §3, §8, §9): the worked example of the
 * thesis's Fig. 3.3 with every timestamp checked step by step, the refill
 * version fix (§9 item 1) against the printed rule, renewal, the lease
 * predictor, the livelock guard, rollover at a 12-bit stored width (alone,
 * and through the stall ring that stops every bank and flushes every L1), RCC-WO's
 * two views, every cell of the ring's table (rcc.Ring) but three documented, strong loads performed
 * at the L2 (rcc.strong_loads), and the refusal of rccsc without the SC issue rule.
 *
 * The machine is directed-rig.h's (4 SMs, 2 L2 banks of 2 sets of 2 ways;
 * A, B, C and X share bank 0 set 0, Y is in bank 1), with fixed leases and
 * the livelock guard off unless a test says otherwise, so that every
 * logical time is known exactly. Every test but the one that shows the
 * printed rule failing runs with the invariant observers on (R1, R2, R4).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "coh/rcc/rcc.h"
#include "directed-rig.h"

#define RCCSC    "coherence.protocol=rccsc", "order.model=sc"
#define RCCWO    "coherence.protocol=rccwo"
#define NO_GUARD "rcc.livelock_cycles=0"

static uint64_t now_of(struct inject *r, unsigned sm)
{
    return rcc_l1_now(machine_l1(inject_machine(r), sm), NULL);
}

static uint64_t wview_of(struct inject *r, unsigned sm)
{
    uint64_t w;
    rcc_l1_now(machine_l1(inject_machine(r), sm), &w);
    return w;
}

/* Line `a`'s L2 version and lease end (it must be in V). A macro, so that a
 * failure names the test's line. */
#define assert_l2(r, a, ver, exp)                                                                  \
    do {                                                                                           \
        uint64_t v_, e_;                                                                           \
        struct machine *m_ = inject_machine(r);                                                    \
        unsigned b_ = (unsigned)(((a) / 128) % 2);                                                 \
        assert_true(rcc_l2_stamps(machine_l2(m_, b_), (a), &v_, &e_));                             \
        assert_int_equal(v_, (ver));                                                               \
        assert_int_equal(e_, (exp));                                                               \
    } while (0)

static uint64_t l1_exp(struct inject *r, unsigned sm, addr_t a)
{
    uint64_t e = 0;
    assert_true(rcc_l1_exp(machine_l1(inject_machine(r), sm), a, &e));
    return e;
}

/* A strong load (ld.relaxed.gpu: what spin loops read flags with). */
static unsigned lds_at(struct inject *r, unsigned sm, addr_t a, uint64_t at)
{
    return inject_load(r, sm, 0, a, 4, SEM_RELAXED, SCOPE_GPU, at);
}

static uint64_t lds(struct inject *r, unsigned sm, addr_t a)
{
    unsigned id = lds_at(r, sm, a, 0);
    inject_run(r);
    return inject_value(r, id);
}

/* Bank 1, set 0 lines (line index odd, index / 2 even): the mnow ladder. */
static addr_t ladder(unsigned i)
{
    return 0x80 + (addr_t)i * 0x200;
}

/* EVIDENCE-OF: spec 004a §3.7 (thesis Fig. 3.3): lease 10, C0 = SM 0 at
 * now 20 with expired copies of A and B (exp 10), C1 = SM 1 at now 0 with
 * valid copies (exp 10), L2 A = (ver 0, exp 10), B = (ver 30, exp 10)
 * written by a third core (SM 3). The initial state is built with real
 * operations: the clocks reach 20 and 30 by reading lines refilled from
 * DRAM after evictions raised bank 1's mnow in steps of the lease. */
static void fig_3_3_worked_example(void **state)
{
    (void)state;
    struct inject *r = rig(RCCSC, "rcc.lease=fixed:10", NO_GUARD, "l1.size=1K", "l1.ways=8");
    /* C1 and C0 read A and B at now 0: every lease ends at 10 */
    ld(r, 1, A);
    ld(r, 1, B);
    ld(r, 0, A);
    ld(r, 0, B);
    assert_l2(r, A, 0, 10);
    assert_l2(r, B, 0, 10);
    assert_int_equal(l1_exp(r, 1, A), 10);
    assert_int_equal(l1_exp(r, 0, B), 10);
    /* the ladder in bank 1: each eviction of a line read at now t raises
     * mnow to t + 10; a refill has ver = mnow, and reading it moves the clock */
    ld(r, 3, ladder(0)); /* ver 0, exp 10 */
    ld(r, 3, ladder(1)); /* ver 0, exp 10 */
    ld(r, 3, ladder(2)); /* evicts 0: mnow 10; ver 10, exp 20; SM 3 now 10 */
    assert_int_equal(now_of(r, 3), 10);
    ld(r, 3, ladder(3)); /* evicts 1: mnow 10; ver 10, exp 20 */
    ld(r, 3, ladder(4)); /* evicts 2: mnow 20; ver 20, exp 30 */
    assert_int_equal(now_of(r, 3), 20);
    ld(r, 0, ladder(4)); /* C0 reads version 20 */
    assert_int_equal(now_of(r, 0), 20);
    ld(r, 3, ladder(5)); /* evicts 3: mnow 20 */
    ld(r, 3, ladder(6)); /* evicts 4 (exp 30): mnow 30; ver 30 */
    assert_int_equal(now_of(r, 3), 30);
    st(r, 3, B, 7); /* the third core writes B at 30 */
    assert_l2(r, B, 30, 10);
    assert_int_equal(now_of(r, 0), 20);
    assert_int_equal(now_of(r, 1), 0);

    /* 1: C0 ST A: A.ver = max(20, 0, 10 + 1) = 20; C1 still reads its old A */
    st(r, 0, A, 1);
    assert_l2(r, A, 20, 10);
    assert_int_equal(now_of(r, 0), 20);
    assert_int_equal(now_of(r, 1), 0);
    assert_int_equal(ld(r, 1, A), 0);
    assert_string_equal(inject_l1_state(r, 1, A), "V");
    /* 2: C0 LD B: its copy (exp 10) expired; B was written since (ver 30 >
     * 10): DATA, B.exp = max(10, 30 + 10, 20 + 10) = 40, C0.now = 30 */
    assert_int_equal(ld(r, 0, B), 7);
    assert_l2(r, B, 30, 40);
    assert_int_equal(now_of(r, 0), 30);
    assert_int_equal(l1_exp(r, 0, B), 40);
    /* 3: C1 ST B: B.ver = max(0, 30, 40 + 1) = 41, C1.now = 41 (rule 3) */
    st(r, 1, B, 8);
    assert_l2(r, B, 41, 40);
    assert_int_equal(now_of(r, 1), 41);
    /* 4: C1 LD A: its copy (exp 10) expired; A.exp = max(10, 20 + 10,
     * 41 + 10) = 51; C1 sees C0's A; C1.now stays 41 */
    assert_int_equal(ld(r, 1, A), 1);
    assert_l2(r, A, 20, 51);
    assert_int_equal(now_of(r, 1), 41);
    assert_int_equal(l1_exp(r, 1, A), 51);
    /* 5: C0 ST B: B.ver = max(30, 41, 40 + 1) = 41, C0.now = 41 (rule 2) */
    st(r, 0, B, 9);
    assert_l2(r, B, 41, 40);
    assert_int_equal(now_of(r, 0), 41);
    assert_int_equal(now_of(r, 1), 41);
    /* 6: C0 ST A: A.ver = max(41, 20, 51 + 1) = 52, C0.now = 52 (rule 3) */
    st(r, 0, A, 2);
    assert_l2(r, A, 52, 51);
    assert_int_equal(now_of(r, 0), 52);
    /* 7: C1 LD A hits its copy (41 <= 51): the value of step 1, not step 6 */
    uint64_t hits = stat(r, "gpu.sm[1].l1.load_hits");
    assert_int_equal(ld(r, 1, A), 1);
    assert_int_equal(stat(r, "gpu.sm[1].l1.load_hits"), hits + 1);
    assert_int_equal(now_of(r, 0), 52);
    assert_int_equal(now_of(r, 1), 41);
    assert_l2(r, A, 52, 51);
    assert_l2(r, B, 41, 40);
    /* and once C1's clock passes 51 (it reads B's version 41, then writes A
     * at max(41, 52, 52)), it sees step 6 */
    st(r, 1, C, 1);
    inject_free(r);
}

/* The MP test of spec 004a §8.2 across an L2 eviction: SM 1 holds X (lease
 * end e = 100); X is evicted (mnow = 100); SM 0 writes X (refilled on the
 * write) and then Y; SM 1 reads the new Y and then X. Safe rule (§9 item
 * 1): X's version is mnow + 1 = 101 > e, so SM 1's clock passes its copy
 * and it reads the new X. Printed rule: version mnow = 100 = e, SM 1's
 * clock reaches exactly 100 and it hits its old copy: new Y, old X. */
static struct inject *mp_across_eviction(const char *rule, bool check, uint64_t *x, uint64_t *now)
{
    const char *sets[] = {
        "gpu.sms=4",      "l2.banks=2",          "l1.size=256",    "l1.ways=2",
        "l2.size=512",    "l2.ways=2",           "l1.merge_max=1", "coherence.protocol=rccsc",
        "order.model=sc", "rcc.lease=fixed:100", NO_GUARD,         rule};
    struct config cfg;
    char err[256];
    if (config_load(&cfg, NULL, sets, ARRAY_LEN(sets), err, sizeof err))
        fail_msg("%s", err);
    struct inject *r = inject_new_checked(&cfg, check);
    ld(r, 1, X); /* ver 0, exp 100 */
    ld(r, 2, A);
    ld(r, 2, B); /* evicts X: bank 0's mnow = 100 */
    assert_string_equal(inject_l2_state(r, X), "I");
    st(r, 0, X, 1); /* refilled on the write, ACKed at once */
    st(r, 0, Y, 1);
    assert_int_equal(ld(r, 1, Y), 1);
    *now = now_of(r, 1);
    *x = ld(r, 1, X);
    return r;
}

static void refill_version_fix(void **state)
{
    (void)state;
    uint64_t x, now;
    struct inject *r = mp_across_eviction("rcc.refill_version=safe", true, &x, &now);
    assert_int_equal(now, 101);
    assert_int_equal(x, 1);
    assert_l2(r, X, 101, 201);
    assert_int_equal(stat(r, "gpu.l2[0].early_acks"), 1);
    inject_free(r);
    /* the printed rule, observers off (R4 would stop the run): MP breaks */
    r = mp_across_eviction("rcc.refill_version=paper", false, &x, &now);
    assert_int_equal(now, 100);
    assert_int_equal(x, 0);
    inject_free(r);
}

/* Renewal (spec 004a §3.10): an expired copy whose line was not written
 * since is renewed without data; a written one is not; rcc.renew=false
 * always sends the data. The livelock guard (one tick every 10 cycles)
 * expires the copies. */
static void renewal(void **state)
{
    (void)state;
    for (int on = 1; on >= 0; on--) {
        struct inject *r = rig(RCCSC, "rcc.lease=fixed:100", "rcc.livelock_cycles=10",
                               on ? "rcc.renew=true" : "rcc.renew=false");
        ld(r, 1, X);
        uint64_t e = l1_exp(r, 1, X);
        ld_at(r, 2, Y, 2000); /* let 2000 cycles pass: 200 guard ticks */
        inject_run(r);
        assert_true(now_of(r, 1) > e);
        assert_int_equal(ld(r, 1, X), 0); /* expired: GETS{now, e} */
        assert_int_equal(stat(r, "gpu.sm[1].l1.expirations"), 1);
        assert_int_equal(stat(r, "gpu.sm[1].l1.renewals_asked"), 1);
        assert_int_equal(stat(r, "gpu.sm[1].l1.renewals"), on);
        assert_int_equal(stat(r, "gpu.l2[0].renewals"), on);
        assert_true(l1_exp(r, 1, X) >= now_of(r, 1));
        /* written since: the data */
        st(r, 0, X, 3);
        ld_at(r, 2, Y, 2000);
        inject_run(r);
        assert_int_equal(ld(r, 1, X), 3);
        assert_int_equal(stat(r, "gpu.sm[1].l1.renewals"), on);
        inject_free(r);
    }
}

/* The predictor (spec 004a §3.10): a refilled line grants lease_max, a
 * write drops it to lease_min, each renewal doubles it (after the grant). */
static void predictor(void **state)
{
    (void)state;
    struct inject *r = rig(RCCSC, "rcc.lease_min=8", "rcc.lease_max=64", "rcc.livelock_cycles=1");
    struct comp *bank = machine_l2(inject_machine(r), 0);
    uint64_t v, e, sent;
    /* a line refilled from DRAM: lease_max */
    sent = now_of(r, 1);
    ld(r, 1, X);
    assert_true(rcc_l2_stamps(bank, X, &v, &e));
    assert_in_range(e - (v > sent ? v : sent), 64, 67);
    /* a write: lease_min for the next read */
    st(r, 0, X, 1);
    sent = now_of(r, 1);
    assert_int_equal(ld(r, 1, X), 1);
    assert_true(rcc_l2_stamps(bank, X, &v, &e));
    assert_in_range(e - (v > sent ? v : sent), 8, 11);
    /* each renewal is granted with the lease before it doubles: 8, 16, 32, 64, 64 */
    const uint64_t want[] = {8, 16, 32, 64, 64};
    for (unsigned i = 0; i < ARRAY_LEN(want); i++) {
        uint64_t before = stat(r, "gpu.l2[0].renewals");
        ld_at(r, 2, Y, 200); /* the guard (1 a cycle) expires SM 1's copy */
        inject_run(r);
        sent = now_of(r, 1);
        assert_int_equal(ld(r, 1, X), 1);
        assert_int_equal(stat(r, "gpu.l2[0].renewals"), before + 1);
        assert_in_range(l1_exp(r, 1, X) - sent, want[i], want[i] + 3);
    }
    inject_free(r);
}

/* Rollover at a 12-bit stored width: the guard (one tick a cycle) carries
 * SM 1's clock past 4096; the L1 flushes, its next read rolls bank 0 over
 * (every stamp raised to the epoch's base, 4096), and values stay right. */
static void rollover(void **state)
{
    (void)state;
    struct inject *r = rig(RCCSC, "rcc.ts_bits=12", "rcc.livelock_cycles=1");
    st(r, 0, X, 5);
    assert_int_equal(ld(r, 1, X), 5);
    assert_int_equal(stat(r, "gpu.sm[1].l1.rollovers"), 0);
    ld_at(r, 2, Y, 5000);
    inject_run(r);
    assert_true(now_of(r, 1) >= 4096);
    assert_int_equal(ld(r, 1, X), 5);
    assert_true(stat(r, "gpu.sm[1].l1.rollovers") >= 1);
    assert_true(stat(r, "gpu.l2[0].rollovers") >= 1);
    uint64_t v, e;
    assert_true(rcc_l2_stamps(machine_l2(inject_machine(r), 0), X, &v, &e));
    assert_true(v >= 4096 && e >= 4096);
    assert_int_equal(v >> 12, e >> 12); /* the bank stores one epoch: 12 bits and its base */
    st(r, 0, X, 6);                     /* SM 0's clock is behind, the version is not */
    assert_true(now_of(r, 0) >= 4096);
    assert_int_equal(ld(r, 1, X), 6);
    inject_free(r);
}

/* The stall ring (spec 004a §3.9), guard off: SM 1 reads X (a lease of 2000)
 * and writes it past the lease, three times, which carries bank 0's stamps
 * past 4096. Bank 0 rolls over and stops bank 1
 * with the ring; every L1 is flushed (SMs 2 and 3, which never talked to
 * bank 0, included: their clocks jump to the base and their copies go); the
 * ring resumes and values stay right. */
static void rollover_ring(void **state)
{
    (void)state;
    struct inject *r = rig(RCCSC, "rcc.ts_bits=12", "rcc.lease=fixed:2000", NO_GUARD);
    st(r, 3, Y, 7);
    assert_int_equal(ld(r, 2, Y), 7); /* SM 2 holds a copy of Y (bank 1) */
    assert_int_equal(stat(r, "gpu.sm[2].l1.flushes"), 0);
    for (unsigned i = 1; i <= 3; i++) {
        assert_int_equal(ld(r, 1, X), i - 1); /* a lease to now + 2000 */
        st(r, 1, X, i);                       /* ver past it: SM 1's clock 2000 further each time */
    }
    assert_true(stat(r, "gpu.l2[0].ring_rollovers") >= 1);
    assert_int_equal(stat(r, "gpu.l2[1].ring_rollovers"), 0);
    for (unsigned b = 0; b < 2; b++) {
        char name[64];
        snprintf(name, sizeof name, "gpu.l2[%u].ring_stall_cycles", b);
        assert_true(stat(r, name) > 0); /* both banks stopped */
        snprintf(name, sizeof name, "gpu.l2[%u].rollovers", b);
        assert_true(stat(r, name) >= 1); /* bank 1 rolled when the flit reached it */
    }
    for (unsigned sm = 0; sm < 4; sm++) {
        char name[64];
        snprintf(name, sizeof name, "gpu.sm[%u].l1.flushes", sm);
        assert_true(stat(r, name) >= 1);
        assert_true(now_of(r, sm) >= 4096);
    }
    uint64_t v, e;
    assert_true(rcc_l2_stamps(machine_l2(inject_machine(r), 1), Y, &v, &e));
    assert_true(v >= 4096 && e >= 4096); /* bank 1's stamps were raised to the base */
    assert_int_equal(ld(r, 2, Y), 7);    /* its copy was flushed: read again at the L2 */
    assert_int_equal(ld(r, 1, X), 3);
    st(r, 2, X, 4);
    assert_int_equal(ld(r, 3, X), 4);
    inject_free(r);
}

/* RCC-WO (spec 004a §3.12): a store moves only the write view; a fence
 * joins the views; the SM reads its own write; an atomic joins them. */
static void wo_views(void **state)
{
    (void)state;
    struct inject *r = rig(RCCWO, "rcc.lease=fixed:10", NO_GUARD);
    ld(r, 1, X);    /* lease end 10 */
    st(r, 0, X, 1); /* ver 11: SM 0's write view 11, read view 0 */
    assert_int_equal(wview_of(r, 0), 11);
    assert_int_equal(now_of(r, 0), 0);
    assert_int_equal(ld(r, 0, X), 1); /* its own write (the copy was dropped) */
    st(r, 0, Y, 1);                   /* ver max(11, 0, 1) = 11 */
    assert_int_equal(ld(r, 1, Y), 1); /* SM 1's read view moves to 11 */
    assert_int_equal(ld(r, 1, X), 1); /* so its copy of X (exp 10) has expired */
    st(r, 2, Z, 1);
    assert_int_equal(now_of(r, 2), 0);
    inject_order(r, 2, 0, MEM_FENCE, SEM_ACQ_REL, SCOPE_GPU, 0);
    inject_run(r);
    assert_int_equal(now_of(r, 2), wview_of(r, 2));
    assert_true(now_of(r, 2) >= 1);
    inject_free(r);
}

/* A spinning reader's clock stands still (no guard): its copy of X stays
 * valid, so a weak load keeps reading the old value. A strong load is
 * performed at the L2 (rcc.strong_loads = l2): it sees the write, the clock
 * moves to its version, and the copy is gone; with l1 it hits the copy and
 * reads the old value like the weak load. */
static void strong_loads(void **state)
{
    (void)state;
    for (int at_l2 = 1; at_l2 >= 0; at_l2--) {
        struct inject *r = rig(RCCSC, "rcc.lease=fixed:100", NO_GUARD,
                               at_l2 ? "rcc.strong_loads=l2" : "rcc.strong_loads=l1");
        assert_int_equal(ld(r, 1, X), 0); /* SM 1's copy: lease end 100 */
        st(r, 0, X, 5);                   /* ver 101 */
        assert_int_equal(ld(r, 1, X), 0); /* weak: the copy, still valid at now 0 */
        assert_int_equal(now_of(r, 1), 0);
        assert_int_equal(lds(r, 1, X), at_l2 ? 5 : 0);
        assert_int_equal(now_of(r, 1), at_l2 ? 101 : 0);
        assert_int_equal(stat(r, "gpu.sm[1].l1.loads_at_l2"), at_l2);
        /* the copy was dropped: the next weak load fills at the new clock */
        assert_int_equal(ld(r, 1, X), at_l2 ? 5 : 0);
        inject_free(r);
    }
}

/* rccsc relies on the SM's SC issue rule and is refused without it. */
static void needs_sc(void **state)
{
    (void)state;
    const char *sets[] = {"coherence.protocol=rccsc", "order.model=rmo"};
    struct config cfg;
    char err[256];
    assert_int_equal(config_load(&cfg, NULL, sets, 2, err, sizeof err), -1);
    assert_non_null(strstr(err, "needs order.model = sc"));
    sets[1] = "order.model=sc";
    assert_int_equal(config_load(&cfg, NULL, sets, 2, err, sizeof err), 0);
    assert_string_equal(config_promise(&cfg), "sc");
    const char *wo[] = {"coherence.protocol=rccwo", "order.model=sc"};
    assert_int_equal(config_load(&cfg, NULL, wo, 2, err, sizeof err), -1);
}

/* Every defined cell of the tables fires (a STALL cell: is taken), over
 * three machines: clocks still (V, VI, II and the L2's misses), the
 * livelock guard ticking once a cycle with a lease longer than a round trip
 * (expiry, renewal, a renewal whose copy is lost) and with a shorter one
 * (fills and renewals that arrive expired). Each step names its cells. */
/* A line of its own for each use: bank 0, not yet in any cache. */
static addr_t fresh(void)
{
    static unsigned k;
    return 0x80000 + (addr_t)(k++) * 0x100;
}

static void walk_still(struct inject *r, bool sc)
{
    /* I+Load, IV+Load (merge), IV+MergeFull (stall), IV+Data, V+Load;
     * L2: I+GetS, IV+GetS, IV+MemData, V+GetS */
    ld_at(r, 0, X, 0);
    ld_at(r, 0, X, 1);
    ld_at(r, 0, X, 2);
    inject_run(r);
    ld(r, 0, X);
    /* V+Store (sc: VI+Load, VI+Store, VI+Rsp, VI+LastRsp; wo: II), V+Atomic,
     * VI+Atomic; L2: V+Write, V+Atomic */
    st_at(r, 0, X, 1, 0);
    ld_at(r, 0, X, 1);
    st_at(r, 0, X, 2, 2);
    ato_at(r, 0, X, 1, 3);
    inject_run(r);
    ld(r, 0, X);
    ato(r, 0, X, 1);
    /* V+Replace: three lines through the one-set, two-way L1 */
    ld(r, 0, X);
    ld(r, 0, Y);
    ld(r, 0, Z);
    /* V+FlashInv, VI+FlashInv: a launch while Z is valid and Y being written */
    ld(r, 0, Y);
    st_at(r, 0, Y, 4, 0);
    launch(r, 0, 1);
    inject_run(r);
    /* VI+Replace: Y (an L2 hit) is filled and written while two DRAM misses
     * are on their way; their fills evict it before the write's ACK */
    ld(r, 3, Y);
    launch(r, 0, 0);
    inject_run(r);
    ld_at(r, 0, Y, 0);
    ld_at(r, 0, fresh(), 1);
    ld_at(r, 0, fresh(), 2);
    st_at(r, 0, Y, 5, 360);
    inject_run(r);
    /* L2: I+Write, IV+Write; IV+GetS; IV+Atomic (stall behind a held read);
     * IV+WriteAfterRead; I+Atomic, IAV+GetS/Write/Atomic (stall), IAV+MemData */
    addr_t f = fresh();
    st_at(r, 1, f, 1, 0);
    st_at(r, 2, f, 2, 1);
    f = fresh();
    ld_at(r, 1, f, 0);
    ld_at(r, 2, f, 1);
    ato_at(r, 3, f, 1, 2);
    f = fresh();
    ld_at(r, 1, f, 0);
    st_at(r, 2, f, 1, 1);
    f = fresh();
    ato_at(r, 1, f, 1, 0);
    ld_at(r, 2, f, 1);
    st_at(r, 3, f, 1, 2);
    ato_at(r, 0, f, 1, 3);
    f = fresh(); /* each the first to meet IAV */
    ato_at(r, 1, f, 1, 0);
    ato_at(r, 2, f, 1, 1);
    f = fresh();
    ato_at(r, 1, f, 1, 0);
    st_at(r, 2, f, 1, 1);
    inject_run(r);
    /* I+Store, I+Atomic, II+Load, II+Store, II+Atomic, II+Rsp, II+LastRsp;
     * L2: I+Write, IV+Write, I+Atomic, IAV+GetS/Write/Atomic (stall), IAV+MemData */
    st_at(r, 1, A, 5, 0);
    ld_at(r, 1, A, 1);
    st_at(r, 1, A, 6, 2);
    ato_at(r, 1, A, 1, 3);
    ato_at(r, 2, C, 1, 0);
    ld_at(r, 3, C, 1);
    st_at(r, 3, C, 1, 2);
    ato_at(r, 1, C, 1, 3);
    inject_run(r);
    /* L2: IV+WriteAfterRead (a write behind a held read), IV+Atomic (stall) */
    ld_at(r, 1, B, 0);
    st_at(r, 2, B, 1, 1);
    ato_at(r, 3, B, 1, 2);
    inject_run(r);
    /* IV+Store, IV+Atomic: parked until the fill */
    ld_at(r, 2, X, 0);
    st_at(r, 2, X, 7, 1);
    ld_at(r, 2, Y, 2);
    ato_at(r, 2, Y, 1, 3);
    inject_run(r);
    /* strong loads: I+LoadL2, V+LoadL2 (the copy goes), IV+LoadL2 (merged),
     * II+LoadL2, VI+LoadL2 (sc; wo: II) */
    f = fresh();
    lds(r, 1, f);
    ld(r, 1, f);
    lds(r, 1, f);
    f = fresh();
    ld_at(r, 1, f, 0);
    lds_at(r, 1, f, 1);
    st_at(r, 1, f, 1, 2);
    lds_at(r, 1, f, 3);
    inject_run(r);
    f = fresh();
    ld(r, 1, f);
    st_at(r, 1, f, 1, 0);
    lds_at(r, 1, f, 1);
    inject_run(r);
    f = fresh();
    st_at(r, 1, f, 1, 0);
    lds_at(r, 1, f, 1);
    inject_run(r);
    (void)sc;
}

/* The guard ticks once a cycle; leases of 600 outlast a round trip. */
static void walk_ticking(struct inject *r)
{
    /* V+Expire, E+Load -> IV (line kept), IV+Renew; L2: V+Renew */
    ld(r, 0, X);
    ld_at(r, 3, Z, 800);
    inject_run(r);
    ld(r, 0, X);
    /* E+Store, E+Atomic, E+Replace, E+FlashInv */
    ld(r, 1, X);
    ld(r, 1, Y);
    ld_at(r, 3, Z, 800);
    inject_run(r);
    st(r, 1, X, 1);  /* V+Expire, E+Store */
    ato(r, 1, Y, 1); /* V+Expire, E+Atomic */
    /* VI+Expire: a copy that expires while its write is outstanding */
    ld(r, 2, X);
    st_at(r, 2, X, 2, 300);
    ld_at(r, 2, X, 620);
    inject_run(r);
    /* IV+Replace -> RenewLost: X expired in SM 0; Y and B fill first, B's
     * fill evicts X while its renewal is outstanding */
    ld(r, 0, X);
    ld_at(r, 3, Z, 800);
    inject_run(r);
    ld_at(r, 0, Y, 0);
    ld_at(r, 0, B, 1);
    ld_at(r, 0, X, 200);
    inject_run(r);
    /* IV+FlashInv: a launch while a renewal is outstanding */
    ld(r, 1, X);
    ld_at(r, 3, Z, 800);
    inject_run(r);
    ld_at(r, 1, X, 0);
    launch(r, 1, 1);
    inject_run(r);
    /* E+LoadL2: a strong load finds the copy expired */
    addr_t f = fresh();
    ld(r, 2, f);
    ld_at(r, 3, Z, 800);
    inject_run(r);
    lds(r, 2, f);
}

/* The guard ticks once a cycle; leases of 100 end before a round trip. */
static void walk_short(struct inject *r)
{
    /* IV+DataExpired, then E+Load and IV+RenewExpired */
    ld(r, 0, X);
    ld(r, 0, X);
    /* E+Replace: two more fills through the set; E+FlashInv: a launch */
    ld(r, 0, Y);
    ld(r, 0, Z);
    ld(r, 0, X);
    launch(r, 0, 0);
    inject_run(r);
}

/* The stall ring's table (rcc.Ring), rcc.ring_hop_cycles = 300, so that
 * its phases last: SM 1 rolls bank 0 over as in rollover_ring while SMs 0
 * and 3 keep strong loads (performed at the L2) going to X (bank 0, the
 * originator: Circling, Flushing) and Y (bank 1: Stopped), spread over the
 * whole rollover on eight warps each. */
#define RING_WALK "rcc.ts_bits=12", "rcc.lease=fixed:2000", "rcc.ring_hop_cycles=300", NO_GUARD

static void walk_ring(struct inject *r)
{
    st(r, 3, Y, 7);
    ld(r, 2, Y);
    for (unsigned i = 1; i <= 2; i++) {
        ld(r, 1, X);
        st(r, 1, X, i);
    }
    ld_at(r, 1, X, 0); /* a lease past 4096: bank 0 starts the ring */
    /* on another warp: bank 1 rolls over by itself before the STALL flit
     * reaches it (a lease of SM 1's clock plus 2000, past 4096; the fence
     * joins RCC-WO's read view to the write view the stores moved) */
    inject_order(r, 1, 1, MEM_FENCE, SEM_ACQ_REL, SCOPE_GPU, 15);
    inject_load(r, 1, 1, Y, 4, SEM_WEAK, SCOPE_CTA, 20);
    /* SM 1 goes on writing and reading X: queued while bank 0 is stopped,
     * then its clock crosses 8192 while the RESUME flit goes round, and a
     * second rollover follows the first */
    for (unsigned i = 0; i < 4; i++) {
        st_at(r, 1, X, 10 + i, 1);
        ld_at(r, 1, X, 1);
    }
    for (unsigned t = 0; t < 4000; t += 10) {
        inject_load(r, 0, 1 + t / 10 % 8, X, 4, SEM_RELAXED, SCOPE_GPU, t);
        inject_load(r, 3, 1 + t / 10 % 8, Y, 4, SEM_RELAXED, SCOPE_GPU, t);
    }
    inject_run(r);
    assert_int_equal(stat(r, "gpu.l2[0].ring_rollovers"), 2); /* the second followed */
    assert_int_equal(stat(r, "gpu.l2[1].ring_rollovers"), 0); /* it asked during the first */
    assert_int_equal(ld(r, 2, X), 13);
}

/* A stopped bank takes no request, so only a fill can stamp there; a fill's
 * stamp past the epoch the ring is rolling to needs a read held in the MSHR
 * from an SM whose clock is already near that epoch's end, a lease short of
 * the next: one that a bank rolling over by itself during the ring (Run +
 * RolloverLater, which walk_ring reaches) moved on, with the fill late
 * enough to meet the STALL flit. Neither the walks nor gpucoh stress at 12
 * bits (tests/cli/rcc.sh, 20 K episodes) reach it; the cells do what Run's
 * does (ask for the rollover to follow). */
#define RING_FILL_ROLLOVER "a fill that stamps past the epoch being rolled to (see above)"
static const struct unreached ring_unreached[] = {
    {"rcc.Ring", "Stopped", "RolloverLater", RING_FILL_ROLLOVER},
    {"rcc.Ring", "Circling", "RolloverLater", RING_FILL_ROLLOVER},
    {"rcc.Ring", "Flushing", "RolloverLater", RING_FILL_ROLLOVER},
};

static void every_cell(void **state)
{
    (void)state;
    for (int wo = 0; wo < 2; wo++) {
        struct inject *rigs[] = {
            wo ? rig(RCCWO, NO_GUARD) : rig(RCCSC, NO_GUARD),
            wo ? rig(RCCWO, "rcc.livelock_cycles=1", "rcc.lease=fixed:600")
               : rig(RCCSC, "rcc.livelock_cycles=1", "rcc.lease=fixed:600"),
            wo ? rig(RCCWO, "rcc.livelock_cycles=1", "rcc.lease=fixed:100")
               : rig(RCCSC, "rcc.livelock_cycles=1", "rcc.lease=fixed:100"),
            wo ? rig(RCCWO, RING_WALK) : rig(RCCSC, RING_WALK),
        };
        walk_still(rigs[0], !wo);
        walk_ticking(rigs[1]);
        walk_short(rigs[2]);
        walk_ring(rigs[3]);
        int bad =
            check_coverage_of(rigs, ARRAY_LEN(rigs), ring_unreached, ARRAY_LEN(ring_unreached));
        for (unsigned i = 0; i < ARRAY_LEN(rigs); i++)
            inject_free(rigs[i]);
        assert_int_equal(bad, 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fig_3_3_worked_example),
        cmocka_unit_test(refill_version_fix),
        cmocka_unit_test(renewal),
        cmocka_unit_test(predictor),
        cmocka_unit_test(rollover),
        cmocka_unit_test(rollover_ring),
        cmocka_unit_test(wo_views),
        cmocka_unit_test(strong_loads),
        cmocka_unit_test(needs_sc),
        cmocka_unit_test(every_cell),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
