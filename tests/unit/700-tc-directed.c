/*
 * 700-tc-directed.c - directed tests of Temporal Coherence, `tcs` and `tcw`
 * (spec 002 §3.7-3.11, §7, §8): values, timing bounds set by leases, GWCT
 * fences, the private-write, eviction and kernel-boundary rules, rollover,
 * the predictor, strong loads at the L2 (tc.strong_loads), and a walk that
 * fires every table cell.
 *
 * The machine and lines are directed-rig.h's (4 SMs, an L1 of one set of 2
 * ways, L2 banks of 2 sets of 2 ways), with fixed leases unless a test says
 * otherwise (timing is then exact enough to reason about).
 * An L2 hit costs ~340 core cycles round trip, a DRAM miss ~460; a lease of
 * N runs N core cycles from the bank's service of the read.
 * Every test runs with the invariant observers on (inject_new): the golden
 * memory, lease inclusion and GWCT visibility.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "directed-rig.h"

#define TCS "coherence.protocol=tcs"
#define TCW "coherence.protocol=tcw"

static unsigned fence_at(struct inject *r, unsigned sm, unsigned warp, uint64_t at)
{
    return inject_order(r, sm, warp, MEM_FENCE, SEM_ACQ_REL, SCOPE_GPU, at);
}

/* A kernel launch on every SM: every L1 is empty after it. */
static void launch_all(struct inject *r)
{
    for (unsigned i = 0; i < 4; i++)
        launch(r, i, 0);
    inject_run(r);
}

/* Let `cycles` core cycles pass (an access elsewhere, on SM 3, line 0x8000). */
static void wait_cycles(struct inject *r, uint64_t cycles)
{
    ld_at(r, 3, 0x8000 + 0x80, cycles);
    inject_run(r);
}

/* A strong load (ld.relaxed.gpu: what spin loops read flags with), from
 * warp `warp`. */
static unsigned lds_at(struct inject *r, unsigned sm, unsigned warp, addr_t a, uint64_t at)
{
    return inject_load(r, sm, warp, a, 4, SEM_RELAXED, SCOPE_GPU, at);
}

static uint64_t lds(struct inject *r, unsigned sm, addr_t a)
{
    unsigned id = lds_at(r, sm, 0, a, 0);
    inject_run(r);
    return inject_value(r, id);
}

/* ---- values and the model ---- */

/* EVIDENCE-OF: spec 002 §3.9 "A fence deschedules the wavefront until its
 * writes are acked and its GWCT has passed" (Fig. 6(c)). Message passing
 * with fences: SM 1 holds a copy of data; SM 0 writes data, fences, writes
 * flag. The write is not stalled (tcw), but the fence waits until SM 1's
 * copy has expired, so after SM 1 sees the flag and fences, it reads 1. */
static void tcw_mp_fence_waits_for_gwct(void **state)
{
    (void)state;
    struct inject *r = rig(TCW, "tc.lease=fixed:3200");
    assert_int_equal(ld(r, 1, X), 0); /* SM 1's copy: lease ~3200 cycles */
    unsigned w = st_at(r, 0, X, 1, 0);
    inject_run(r); /* the SM sends a fence after the ack */
    unsigned f = fence_at(r, 0, 0, 0);
    inject_run(r);
    assert_true(inject_latency(r, w) < 500);  /* writes never stall */
    assert_true(inject_latency(r, f) > 2000); /* the fence waits out SM 1's lease */
    assert_int_equal(inject_stat(r, "gpu.sm[0].l1.gwct_waits"), 1);
    assert_true(inject_stat(r, "gpu.sm[0].l1.fence_wait_cycles") > 2000);
    st(r, 0, Y, 1);
    assert_int_equal(ld(r, 1, Y), 1);
    inject_order(r, 1, 0, MEM_FENCE, SEM_ACQ_REL, SCOPE_GPU, 0);
    inject_run(r);
    assert_int_equal(ld(r, 1, X), 1);
    inject_free(r);
}

/* Without the fence the reader may see the flag and still hit its stale copy
 * (spec 002 §7 "MP without producer fence: allowed"): the stale value is
 * really in the L1 until the lease ends. */
static void tcw_stale_copy_until_lease_end(void **state)
{
    (void)state;
    struct inject *r = rig(TCW, "tc.lease=fixed:3200");
    assert_int_equal(ld(r, 1, X), 0);
    st(r, 0, X, 5);
    assert_int_equal(ld(r, 1, X), 0); /* stale, legal: no fence yet */
    assert_string_equal(inject_l1_state(r, 1, X), "V");
    wait_cycles(r, 3300);
    assert_string_equal(inject_l1_state(r, 1, X), "I"); /* self-invalidated */
    assert_int_equal(ld(r, 1, X), 5);
    inject_free(r);
}

/* A .cta fence does not wait for the GWCT (the CTA shares the L1). */
static void tcw_cta_fence_no_wait(void **state)
{
    (void)state;
    struct inject *r = rig(TCW, "tc.lease=fixed:3200");
    ld(r, 1, X);
    st(r, 0, X, 1);
    unsigned f = inject_order(r, 0, 0, MEM_FENCE, SEM_ACQ_REL, SCOPE_CTA, 0);
    inject_run(r);
    assert_true(inject_latency(r, f) < 10);
    assert_int_equal(inject_stat(r, "gpu.sm[0].l1.gwct_waits"), 0);
    /* a release store waits, as does a kernel end */
    unsigned rel = inject_store(r, 0, 0, Y, 4, 1, SEM_RELEASE, SCOPE_GPU, 0);
    inject_run(r);
    assert_true(inject_latency(r, rel) > 1500);
    assert_int_equal(inject_stat(r, "gpu.sm[0].l1.gwct_waits"), 1);
    ld(r, 1, Z);
    st(r, 2, Z, 1);
    unsigned k = inject_order(r, 2, 0, MEM_KERNEL_END, SEM_RELEASE, SCOPE_SYS, 0);
    inject_run(r);
    assert_true(inject_latency(r, k) > 1500);
    inject_free(r);
}

/* Write-to-read causality across SMs (tests/litmus/WRC-rel-acq.litmus): SM 2
 * holds a copy of X; SM 0 writes X (performed at once, GWCT = SM 2's lease
 * end); SM 1 acquires X = 1 from the L2 and releases Y. With tc.load_gwct the
 * DATA carries X's GWCT, so the release waits out SM 2's lease and SM 2,
 * acquiring Y = 1, then reads X = 1. The paper's form (false) releases at
 * once: SM 2 sees Y = 1 and still hits its stale X = 0, which PTX forbids. */
static void tcw_release_waits_for_acquired_gwct(void **state)
{
    (void)state;
    for (int safe = 1; safe >= 0; safe--) {
        struct inject *r =
            rig(TCW, "tc.lease=fixed:3200", safe ? "tc.load_gwct=true" : "tc.load_gwct=false");
        assert_int_equal(ld(r, 2, X), 0);
        st(r, 0, X, 1);
        unsigned acq = inject_load(r, 1, 0, X, 4, SEM_ACQUIRE, SCOPE_GPU, 0);
        inject_run(r);
        assert_int_equal(inject_value(r, acq), 1);
        unsigned rel = inject_store(r, 1, 0, Y, 4, 1, SEM_RELEASE, SCOPE_GPU, 0);
        inject_run(r);
        unsigned flag = inject_load(r, 2, 0, Y, 4, SEM_ACQUIRE, SCOPE_GPU, 0);
        inject_run(r);
        assert_int_equal(inject_value(r, flag), 1);
        if (safe) {
            assert_true(inject_latency(r, rel) > 1500); /* SM 2's lease on X */
            assert_int_equal(inject_stat(r, "gpu.sm[1].l1.gwct_waits"), 1);
            assert_int_equal(ld(r, 2, X), 1);
        } else {
            assert_true(inject_latency(r, rel) < 1000);
            assert_int_equal(inject_stat(r, "gpu.sm[1].l1.gwct_waits"), 0);
            assert_int_equal(ld(r, 2, X), 0);
            assert_string_equal(inject_l1_state(r, 2, X), "V");
        }
        inject_free(r);
    }
}

/* The same with the writer and the first reader on one SM (WRC-cta.litmus):
 * warp 0 writes X into its valid copy (VM, the write in flight) and warp 1
 * reads X. With tc.load_gwct warp 1's load goes to the L2 (VM + LoadOther),
 * arrives behind the write and brings its GWCT (SM 2's lease); warp 0's own
 * load still hits. The paper's form hits for warp 1 too, long before the
 * write's GWCT is known. Then warp 1 releases Y; tc.fence_gwct=warp makes it
 * wait for warp 1's own entry only, so the wait is the DATA's GWCT. (The
 * driver applies no SM ordering: the release is sent once the load is done.) */
static void tcw_other_warp_reads_outstanding_write_at_l2(void **state)
{
    (void)state;
    for (int safe = 1; safe >= 0; safe--) {
        struct inject *r = rig(TCW, "tc.lease=fixed:3200", "tc.fence_gwct=warp",
                               safe ? "tc.load_gwct=true" : "tc.load_gwct=false");
        assert_int_equal(ld(r, 2, X), 0);
        assert_int_equal(ld(r, 0, X), 0);
        unsigned w = st_at(r, 0, X, 7, 0);
        unsigned own = inject_load(r, 0, 0, X, 4, SEM_WEAK, SCOPE_CTA, 5);
        unsigned other = inject_load(r, 0, 1, X, 4, SEM_ACQUIRE, SCOPE_CTA, 5);
        inject_run(r);
        assert_true(inject_latency(r, w) < 500);
        assert_int_equal(inject_value(r, own), 7);
        assert_true(inject_latency(r, own) < 100);
        assert_int_equal(inject_value(r, other), 7);
        unsigned rel = inject_store(r, 0, 1, Y, 4, 1, SEM_RELEASE, SCOPE_GPU, 0);
        inject_run(r);
        if (safe) {
            assert_true(inject_latency(r, other) > 300); /* an L2 round trip */
            assert_int_equal(inject_coverage(r, "tcw.L1", "VM", "LoadOther"), 1);
            assert_true(inject_latency(r, rel) > 1500);
        } else {
            assert_true(inject_latency(r, other) < 100);
            assert_int_equal(inject_coverage(r, "tcw.L1", "VM", "LoadOther"), 0);
            assert_true(inject_latency(r, rel) < 1000);
        }
        inject_free(r);
    }
}

/* tc.strong_loads. TC-Weak: SM 1 holds a leased copy of X when SM 0's
 * write is performed (writes never stall). With l1 (the default, the
 * paper's L1) a strong load hits the copy and reads the old value, as a
 * weak one does; with l2 it is performed at the L2, reads the write and
 * drops the copy, so the next weak load fills the new value too. */
static void tcw_strong_load_at_l2(void **state)
{
    (void)state;
    for (int at_l2 = 1; at_l2 >= 0; at_l2--) {
        struct inject *r =
            rig(TCW, "tc.lease=fixed:3200", at_l2 ? "tc.strong_loads=l2" : "tc.strong_loads=l1");
        assert_int_equal(ld(r, 1, X), 0); /* SM 1's copy: lease ~3200 cycles */
        st(r, 0, X, 5);
        assert_int_equal(ld(r, 1, X), 0); /* weak: the copy, in both forms */
        assert_int_equal(stat(r, "gpu.sm[1].l1.loads_at_l2"), 0);
        unsigned id = lds_at(r, 1, 0, X, 0);
        inject_run(r);
        assert_int_equal(inject_value(r, id), at_l2 ? 5 : 0);
        assert_int_equal(stat(r, "gpu.sm[1].l1.loads_at_l2"), at_l2);
        if (at_l2)
            assert_true(inject_latency(r, id) > 300); /* an L2 round trip */
        else
            assert_true(inject_latency(r, id) < 100); /* a hit */
        assert_string_equal(inject_l1_state(r, 1, X), at_l2 ? "I" : "V");
        assert_int_equal(ld(r, 1, X), at_l2 ? 5 : 0);
        inject_free(r);
    }
}

/* tc.strong_loads = l2 under TC-Strong: a strong load at the L2 gets no
 * lease, so a later write to the line is not stalled by it (with l1 the
 * load fills a copy whose 3200-cycle lease the write waits out); and a
 * strong load of a line a write waits on is answered only after the write
 * is performed, with its value (write atomicity). */
static void tcs_strong_load_at_l2(void **state)
{
    (void)state;
    for (int at_l2 = 1; at_l2 >= 0; at_l2--) {
        struct inject *r =
            rig(TCS, "tc.lease=fixed:3200", at_l2 ? "tc.strong_loads=l2" : "tc.strong_loads=l1");
        assert_int_equal(lds(r, 1, X), 0);
        unsigned w = st_at(r, 0, X, 5, 0);
        inject_run(r);
        if (at_l2)
            assert_true(inject_latency(r, w) < 600);
        else
            assert_true(inject_latency(r, w) > 2500);
        assert_int_equal(stat(r, "gpu.l2[0].writes_stalled"), at_l2 ? 0 : 1);
        /* SM 2 holds Y; SM 0's write to Y waits for its lease; SM 1's strong
         * load, sent meanwhile, reads the old value from its own copy (l1)
         * or waits at the L2 and reads the new one (l2) */
        assert_int_equal(ld(r, 2, Y), 0);
        assert_int_equal(ld(r, 1, Y), 0);
        w = st_at(r, 0, Y, 7, 0);
        unsigned id = lds_at(r, 1, 0, Y, 600);
        inject_run(r);
        assert_int_equal(inject_value(r, id), at_l2 ? 7 : 0);
        assert_true(inject_latency(r, w) > 2500);
        if (at_l2)
            assert_true(inject_latency(r, id) > 2000);
        inject_free(r);
    }
}

/* EVIDENCE-OF: spec 002 §3.8 "At the L2 its completion is delayed until
 * global_ts has expired". TC-Strong: the write waits until SM 1's copy has
 * expired; nobody reads the new value before that, everybody after. */
static void tcs_write_stalls_until_leases_expire(void **state)
{
    (void)state;
    for (int scope = 0; scope < 2; scope++) {
        struct inject *r =
            rig(TCS, "tc.lease=fixed:1500", scope ? "tc.stall_scope=line" : "tc.stall_scope=bank");
        assert_int_equal(ld(r, 1, X), 0);
        unsigned w = st_at(r, 0, X, 9, 0);
        unsigned early = ld_at(r, 1, X, 200); /* SM 1's copy still valid: old value */
        unsigned other = ld_at(r, 2, C, 210); /* same bank, other line */
        inject_run(r);
        assert_true(inject_latency(r, w) > 1000);
        assert_int_equal(inject_value(r, early), 0);
        /* bank scope: the other line's read waits behind the write; line: not */
        if (scope)
            assert_true(inject_latency(r, other) < 700);
        else
            assert_true(inject_latency(r, other) > 700);
        assert_int_equal(ld(r, 1, X), 9);
        assert_int_equal(ld(r, 2, X), 9);
        assert_int_equal(stat_sum(r, "gpu.l2[%u].writes_stalled", 2), 1);
        assert_true(stat_sum(r, "gpu.l2[%u].write_stall_cycles", 2) > 700);
        inject_free(r);
    }
}

/* EVIDENCE-OF: spec 002 §3.8 "A write to a P line whose carried TS matches
 * the L2 global TS comes from the original (only) reader. It is a private
 * write and is not stalled." Both variants; tcw answers a plain ACK, so the
 * fence after it does not wait. Repeated private writes stay private (the
 * L1 advances its lease with the bank's TS++). */
static void private_write(void **state)
{
    (void)state;
    for (int v = 0; v < 2; v++) {
        struct inject *r = rig(v ? TCW : TCS, "tc.lease=fixed:3000");
        ld(r, 0, X);
        assert_string_equal(inject_l2_state(r, X), "P");
        unsigned w = st_at(r, 0, X, 1, 0);
        inject_run(r);
        unsigned f = fence_at(r, 0, 0, 0);
        inject_run(r);
        assert_true(inject_latency(r, w) < 500);
        assert_true(inject_latency(r, f) < 500);
        st(r, 0, X, 2);
        assert_int_equal(stat_sum(r, "gpu.l2[%u].private_writes", 2), 2);
        assert_int_equal(ld(r, 0, X), 2);
        /* a second reader makes it shared: the next write is not private */
        ld(r, 1, X);
        assert_string_equal(inject_l2_state(r, X), "S");
        unsigned w2 = st_at(r, 0, X, 3, 0);
        inject_run(r);
        assert_int_equal(stat_sum(r, "gpu.l2[%u].private_writes", 2), 2);
        if (!v)
            assert_true(inject_latency(r, w2) > 1500); /* tcs: waits for SM 1's copy */
        inject_free(r);
    }
}

/* Spec 002 §8 item 4: a DATA-G gives the writer the GWCT as its lease, so a
 * write after it is never taken for private while another L1 still holds a
 * stale copy (the paper rule would: tc.private_rule=paper). */
static void tcw_datag_is_not_private(void **state)
{
    (void)state;
    struct inject *r = rig(TCW, "tc.lease=fixed:3000");
    ld(r, 0, X);    /* E -> P, SM 0 owner */
    ld(r, 1, X);    /* P -> S */
    st(r, 2, X, 1); /* S + GetX -> P (owner cleared), TS++ */
    st(r, 0, X, 2); /* SM 0's copy is stale: DATA-G */
    assert_int_equal(stat_sum(r, "gpu.l2[%u].datag", 2), 1);
    st(r, 0, X, 3); /* the refreshed lease is the GWCT: no match, ACK-G */
    assert_int_equal(stat_sum(r, "gpu.l2[%u].private_writes", 2), 0);
    unsigned f = fence_at(r, 0, 0, 0);
    inject_run(r);
    assert_true(inject_latency(r, f) > 1500); /* SM 1's stale copy still counts */
    inject_free(r);

    r = rig(TCW, "tc.lease=fixed:3000", "tc.private_rule=paper");
    ld(r, 0, X);
    ld(r, 1, X);
    st(r, 2, X, 1);
    st(r, 0, X, 2);
    st(r, 0, X, 3); /* the paper rule: the DATA-G lease matches: "private" */
    assert_int_equal(stat_sum(r, "gpu.l2[%u].private_writes", 2), 1);
    inject_free(r);
}

/* Spec 002 §7 item 1 and §8 item 5: an unexpired line evicted from the L2
 * keeps its timestamp in an MSHR (MI); a later write to it gets a GWCT that
 * covers the copies still out there (tcw), or waits for them (tcs). */
static void eviction_keeps_timestamp(void **state)
{
    (void)state;
    for (int v = 0; v < 2; v++) {
        struct inject *r = rig(v ? TCW : TCS, "tc.lease=fixed:3000");
        ld(r, 1, X);
        ld(r, 2, A);
        ld(r, 2, B); /* bank 0 set 0 is full: X goes */
        assert_string_equal(inject_l2_state(r, X), "MI");
        assert_int_equal(stat_sum(r, "gpu.l2[%u].mi_entries", 2), 1);
        unsigned w = st_at(r, 0, X, 4, 0);
        inject_run(r);
        if (!v)
            assert_true(inject_latency(r, w) > 1000); /* tcs: waits out SM 1's copy */
        assert_int_equal(ld(r, 1, X), v ? 0 : 4);     /* tcw: SM 1 may still hit */
        unsigned f = fence_at(r, 0, 0, 0);
        inject_run(r);
        if (v)
            assert_true(inject_latency(r, f) > 500); /* GWCT from the kept timestamp */
        assert_int_equal(ld(r, 1, X), 4);            /* after the fence: nobody is stale */
        inject_free(r);
    }
}

/* A fill whose lease ended in flight answers its load but is not installed;
 * a load that merged after the lease ended is replayed, not answered with
 * the old data (tc_l1.c INVARIANT). Lease 0: every fill arrives expired. */
static void expired_fill_and_late_merge(void **state)
{
    (void)state;
    struct inject *r = rig(TCW, "tc.lease=fixed:0", "l1.merge_max=4");
    st(r, 2, X, 7);
    unsigned a = ld_at(r, 0, X, 0);
    unsigned b = ld_at(r, 0, X, 250); /* merges after the L2 served the read */
    inject_run(r);
    assert_int_equal(inject_value(r, a), 7);
    assert_int_equal(inject_value(r, b), 7);
    assert_string_equal(inject_l1_state(r, 0, X), "I");
    assert_int_equal(inject_stat(r, "gpu.sm[0].l1.fills_expired"), 2);
    assert_int_equal(inject_stat(r, "gpu.sm[0].l1.loads_replayed"), 1);
    assert_int_equal(inject_stat(r, "gpu.noc.up.msgs.REQ"), 2); /* two GETS */
    inject_free(r);
}

/* Kernel launch flash-invalidates (host writes between kernels send nothing);
 * the timestamp counter's wrap does too (spec 002 §3.11). */
static void launch_and_rollover(void **state)
{
    (void)state;
    struct inject *r = rig(TCW, "tc.lease=fixed:3000");
    ld(r, 0, X);
    launch(r, 0, 0);
    inject_run(r);
    assert_string_equal(inject_l1_state(r, 0, X), "I");
    assert_int_equal(inject_stat(r, "gpu.sm[0].l1.flash_invalidations"), 1);
    inject_free(r);

    r = rig(TCS, "tc.lease=fixed:3000", "tc.ts_bits=11");
    ld(r, 0, X); /* lease runs past the 2048-cycle wrap */
    assert_string_equal(inject_l1_state(r, 0, X), "V");
    wait_cycles(r, 2100);
    ld(r, 0, Y); /* the L1 notices the wrap at its next tick */
    assert_string_equal(inject_l1_state(r, 0, X), "I");
    assert_true(inject_stat(r, "gpu.sm[0].l1.rollovers") >= 1);
    inject_free(r);
}

/* EVIDENCE-OF: spec 002 §3.10 "+t_hit (4 cycles) when the L2 receives a load
 * to a valid block with an expired global TS", "-t_evict (8 cycles) when an
 * L2 block with an unexpired TS is evicted", "-t_write (8 cycles) when a
 * store writes to an unexpired block ... disabled for applications that do
 * not use fences". */
static void predictor(void **state)
{
    (void)state;
    struct inject *r = rig(TCW, "tc.lease=predict", "tc.lease_init=3000");
    assert_int_equal(inject_stat(r, "gpu.l2[0].lease"), 3000);
    ld(r, 0, X); /* a fill: no change */
    assert_int_equal(inject_stat(r, "gpu.l2[0].lease"), 3000);
    wait_cycles(r, 3100);
    ld(r, 1, X); /* E: +4 */
    assert_int_equal(inject_stat(r, "gpu.l2[0].lease"), 3004);
    ld(r, 1, X); /* L1 hit: nothing */
    wait_cycles(r, 3100);
    ld(r, 1, X); /* expired L1 copy (+4) of an E line (+4) */
    assert_int_equal(inject_stat(r, "gpu.l2[0].lease"), 3012);
    st(r, 2, X, 1); /* unexpired, but SM 2 never fenced: no change */
    assert_int_equal(inject_stat(r, "gpu.l2[0].lease"), 3012);
    fence_at(r, 2, 1, 0); /* another warp of SM 2 fences: it waits for the SM's
                             largest GWCT (SM 2's store), so X has expired after it */
    inject_run(r);
    ld(r, 1, X); /* expired L1 copy (+4) of an E line (+4): a fresh lease */
    assert_int_equal(inject_stat(r, "gpu.l2[0].lease"), 3020);
    st(r, 2, X, 2); /* unexpired, and SM 2 has fenced: -8 */
    assert_int_equal(inject_stat(r, "gpu.l2[0].lease"), 3012);
    ld(r, 1, A);
    ld(r, 1, B); /* evicts X unexpired: -8 */
    assert_int_equal(inject_stat(r, "gpu.l2[0].lease"), 3004);
    /* the events behind those steps, as the statistics count them */
    assert_int_equal(inject_stat(r, "gpu.l2[0].reads_expired_copy"), 2);
    assert_int_equal(inject_stat(r, "gpu.l2[0].reads_expired_line"), 3);
    assert_int_equal(inject_stat(r, "gpu.l2[0].reads_expired_both"), 2);
    assert_int_equal(inject_stat(r, "gpu.l2[0].writes_unexpired"), 2);
    assert_int_equal(inject_stat(r, "gpu.l2[0].mi_entries"), 1);
    inject_free(r);
}

/* Bad lease specifications are rejected at machine construction (exit 2 is
 * the CLI's; here: the parser accepts what it must). */
static void lease_parse(void **state)
{
    (void)state;
    struct inject *r = rig(TCW, "tc.lease=fixed:3200");
    assert_int_equal(inject_stat(r, "gpu.l2[1].lease"), 3200);
    inject_free(r);
    r = rig(TCS); /* auto: 800 requested by the L1 */
    assert_int_equal(inject_stat(r, "gpu.l2[1].lease"), 800);
    inject_free(r);
}

/* ---- every cell ---- */

/* Each variant's check adds up the coverage of several rigs: lease 3000 for
 * most cells, lease 0 for IV+DataExpired, and for tcs line stall scope for
 * the held writes, bank scope for the rest. No cell is documented
 * unreachable: those that cannot be reached are left undefined in the
 * tables (tcw L2 P+UpgrMatch, tcs L2 IM+MemDataRetained; see tc_l2.c). */

/* A line of its own for each episode: bank 0, set 0 (with A, B, C, X). */
static addr_t fresh(void)
{
    static unsigned k;
    return 0x40000 + (addr_t)(k++) * 0x200;
}

/* `holder` reads `a`; two other lines of the set evict it from the L2 while
 * its lease runs: the bank keeps the timestamp in an MSHR (MI). */
static void make_mi(struct inject *r, unsigned holder, addr_t a)
{
    ld(r, holder, a);
    ld(r, 3, fresh());
    ld(r, 3, fresh());
}

/* Run `scenario(r, a, d)` with a fresh line for d = lo, lo + step, ... until
 * the cell fires: the cells that need a lease to end while a message flies. */
static void search(struct inject *r, const char *table, const char *st, const char *ev,
                   void (*scenario)(struct inject *, addr_t, uint64_t), uint64_t lo, uint64_t hi,
                   uint64_t step)
{
    for (uint64_t d = lo; d < hi; d += step) {
        launch_all(r);
        scenario(r, fresh(), d);
        if (inject_coverage(r, table, st, ev))
            return;
    }
    print_message("search for %s [%s][%s] found nothing\n", table, st, ev);
}

/* A store d cycles after a read: it reaches the bank after the lease ended
 * (E+Upgr), or its ack returns to the L1 after that (VM+Expire). */
static void store_after_read(struct inject *r, addr_t a, uint64_t d)
{
    ld(r, 0, a);
    st_at(r, 0, a, 1, d);
    inject_run(r);
}

/* The same, with the line evicted (MI) first: the MI entry has expired too. */
static void upgr_late_mi(struct inject *r, addr_t a, uint64_t d)
{
    make_mi(r, 0, a);
    st_at(r, 0, a, 1, d);
    inject_run(r);
}

/* tcs: SM 1's write reaches the expired MI entry first (-> IM); the holder's
 * UPGR, sent while its copy was valid, follows. */
static void upgr_into_im(struct inject *r, addr_t a, uint64_t d)
{
    make_mi(r, 0, a);
    st_at(r, 1, a, 2, d);
    st_at(r, 0, a, 1, d + 1);
    inject_run(r);
}

/* Every L1 cell, both variants: the write-through cells, then the lease's
 * end. It leaves every L1 empty and every lease ended for the L2 walk. `l1`:
 * the variant's L1 table. */
static void l1_walk(struct inject *r, const char *l1)
{
    write_through_l1_walk(r);
    /* V+Expire (lease 3000) */
    ld(r, 3, X);
    wait_cycles(r, 3100);
    ld(r, 3, X);
    /* VM+Replace: SM 0 holds X and Z; its write to X goes to an L2 miss kept
     * in MI (slow: DRAM), while its read of Y (an L2 hit) fills first and
     * replaces X, the LRU line */
    launch_all(r);
    ld(r, 0, X);
    ld(r, 0, Z);
    ld(r, 1, Y);
    ld(r, 1, A);
    ld(r, 1, B);
    st_at(r, 0, X, 9, 0);
    ld_at(r, 0, Z, 1);
    ld_at(r, 0, Y, 2);
    inject_run(r);
    /* VM+Expire */
    search(r, l1, "VM", "Expire", store_after_read, 2300, 3000, 20);
    launch_all(r);
    wait_cycles(r, 3100);
}

/* A rig of lease 0, for IV+DataExpired: every fill arrives expired. */
static struct inject *expired_fill_rig(const char *protocol)
{
    struct inject *r = rig(protocol, "tc.lease=fixed:0");
    ld(r, 0, X);
    ld(r, 0, X);
    return r;
}

/* Misses and what parks behind them; MI in every way. Each episode's first
 * follower is the kind of the cell it means (later ones park behind it
 * without reaching the table). */
static void l2_miss_walk(struct inject *r, bool weak)
{
    addr_t a;
    a = fresh();
    ld_at(r, 0, a, 0);
    ld_at(r, 1, a, 2);
    inject_run(r); /* IS+GetS */
    a = fresh();
    ld_at(r, 0, a, 0);
    st_at(r, 1, a, 1, 2);
    inject_run(r); /* IS+GetX */
    a = fresh();
    ld_at(r, 0, a, 0);
    ato_at(r, 1, a, 1, 2);
    inject_run(r); /* IS+Atomic */
    a = fresh();
    st_at(r, 0, a, 1, 0);
    ld_at(r, 1, a, 2);
    inject_run(r); /* IM+GetS */
    a = fresh();
    st_at(r, 0, a, 1, 0);
    st_at(r, 1, a, 2, 2);
    inject_run(r); /* IM+GetX */
    a = fresh();
    st_at(r, 0, a, 1, 0);
    ato_at(r, 1, a, 1, 2);
    inject_run(r); /* IM+Atomic */
    a = fresh();
    ato(r, 0, a, 1); /* I+Atomic */
    /* MI+GetS -> IS, IS+Upgr (the holder writes), IS+MemDataRetained -> S */
    a = fresh();
    make_mi(r, 0, a);
    ld_at(r, 1, a, 0);
    st_at(r, 0, a, 1, 12);
    inject_run(r);
    /* S+Replace -> MI; MI+Expire (lazily, at the next access) */
    a = fresh();
    ld(r, 0, a);
    ld(r, 1, a);
    ld(r, 3, fresh());
    ld(r, 3, fresh());
    wait_cycles(r, 3100);
    ld(r, 2, a);
    /* E+Replace */
    a = fresh();
    ld(r, 0, a);
    wait_cycles(r, 3100);
    ld(r, 3, fresh());
    ld(r, 3, fresh());
    if (!weak)
        return;
    /* MI+GetX -> IM, IM+Upgr (the holder writes), IM+MemDataRetained -> P */
    a = fresh();
    make_mi(r, 0, a);
    st_at(r, 1, a, 1, 0);
    st_at(r, 0, a, 2, 12);
    inject_run(r);
    a = fresh();
    make_mi(r, 0, a);
    st(r, 0, a, 1); /* MI+Upgr */
    a = fresh();
    make_mi(r, 0, a);
    ato(r, 1, a, 1); /* MI+Atomic */
}

/* The L2 cells where leases end, both variants: E+GetX, E+Atomic, P+Expire,
 * S+Expire (at the access); the misses (l2_miss_walk); the writes that
 * reach the bank after the writer's lease ended (E+Upgr; I+Upgr, the MI
 * entry expired too). `l2`: the variant's L2 table. */
static void l2_lease_end_walk(struct inject *r, const char *l2, bool weak)
{
    addr_t a = fresh(), b = fresh();
    ld(r, 1, a);
    ld(r, 2, b);
    ld(r, 3, b);
    wait_cycles(r, 3100);
    st(r, 1, a, 3);
    ato(r, 1, b, 1);
    l2_miss_walk(r, weak);
    search(r, l2, "E", "Upgr", store_after_read, 2550, 2800, 2);
    search(r, l2, "I", "Upgr", upgr_late_mi, 1400, 2200, 2);
}

/* A rig with tc.strong_loads = l2 for the strong-load cells: L1 LoadL2 in
 * I, V, VM, IV (merged into the fill), II; L2 GetSOnce in I (-> IS), P, S,
 * E, IS, IM, MI. `extra`: one more setting. */
static struct inject *strong_rig(const char *protocol, const char *extra)
{
    struct inject *r = rig(protocol, "tc.lease=fixed:3000", "tc.strong_loads=l2", extra);
    addr_t a;
    a = fresh();
    lds(r, 0, a); /* I+LoadL2, I+GetSOnce, IS+MemData */
    wait_cycles(r, 10);
    lds(r, 1, a); /* E+GetSOnce */
    a = fresh();
    ld(r, 0, a);
    lds(r, 0, a); /* V+LoadL2, P+GetSOnce */
    a = fresh();
    ld(r, 0, a);
    ld(r, 1, a);
    lds(r, 2, a); /* S+GetSOnce */
    a = fresh();
    ld_at(r, 0, a, 0);
    lds_at(r, 1, 0, a, 2);
    inject_run(r); /* IS+GetSOnce */
    a = fresh();
    st_at(r, 0, a, 1, 0);
    lds_at(r, 1, 0, a, 2);
    inject_run(r); /* IM+GetSOnce */
    a = fresh();
    make_mi(r, 0, a);
    lds(r, 1, a); /* MI+GetSOnce */
    a = fresh();
    ld_at(r, 0, a, 0);
    lds_at(r, 0, 1, a, 1);
    inject_run(r); /* IV+LoadL2 */
    a = fresh();
    lds_at(r, 0, 0, a, 0);
    lds_at(r, 0, 1, a, 1);
    inject_run(r); /* II+LoadL2 */
    launch_all(r);
    a = fresh();
    ld(r, 0, a);
    st_at(r, 0, a, 1, 0);
    lds_at(r, 0, 1, a, 1);
    inject_run(r);
    /* VM+LoadL2 */
    return r;
}

static void tcw_every_cell(void **state)
{
    (void)state;
    struct inject *r = rig(TCW, "tc.lease=fixed:3000");
    l1_walk(r, "tcw.L1");
    /* stable states: E+GetS -> P, P+GetS -> S, S+UpgrMatch (SM 1 set the
     * timestamp last) -> P, P+Upgr (SM 0's copy is stale: DATA-G), P+GetX,
     * P+Atomic; S+Upgr, S+GetX, S+Atomic */
    addr_t a = fresh(), b = fresh(), c = fresh();
    ld(r, 0, a);
    ld(r, 1, a);
    st(r, 1, a, 1);
    st(r, 0, a, 2);
    st(r, 2, a, 3);
    ato(r, 2, a, 1);
    ld(r, 0, b);
    ld(r, 1, b);
    st(r, 0, b, 1);
    ld(r, 2, b);
    st(r, 3, b, 1);
    ld(r, 2, c);
    ld(r, 3, c);
    ato(r, 1, c, 1);
    /* P+UpgrOwn */
    a = fresh();
    ld(r, 0, a);
    st(r, 0, a, 2);
    /* VM+LoadOther: warp 1 loads the line warp 0's write is in flight for */
    st_at(r, 0, a, 3, 0);
    inject_load(r, 0, 1, a, 4, SEM_WEAK, SCOPE_CTA, 5);
    inject_run(r);
    l2_lease_end_walk(r, "tcw.L2", true);

    struct inject *rigs[] = {r, expired_fill_rig(TCW), strong_rig(TCW, "tc.load_gwct=true")};
    assert_int_equal(check_coverage_of(rigs, ARRAY_LEN(rigs), NULL, 0), 0);
    for (unsigned i = 0; i < ARRAY_LEN(rigs); i++)
        inject_free(rigs[i]);
}

/* tcs with line stall scope, for the cells of a write held at its line:
 * P+WriteHold -> S_W; S_W + GetS/GetX/Upgr/Atomic (each the first to park);
 * S_W+Expire; S+WriteHold, MI+WriteHold. */
static struct inject *held_write_rig(void)
{
    struct inject *r = rig(TCS, "tc.lease=fixed:3000", "tc.stall_scope=line");
    addr_t a;
    a = fresh();
    ld(r, 0, a);
    st_at(r, 1, a, 1, 0);
    ld_at(r, 2, a, 5);
    inject_run(r);
    a = fresh();
    ld(r, 0, a);
    st_at(r, 1, a, 1, 0);
    st_at(r, 2, a, 2, 5);
    inject_run(r);
    a = fresh();
    ld(r, 0, a);
    st_at(r, 1, a, 1, 0);
    st_at(r, 0, a, 2, 5);
    inject_run(r);
    a = fresh();
    ld(r, 0, a);
    st_at(r, 1, a, 1, 0);
    ato_at(r, 2, a, 1, 5);
    inject_run(r);
    a = fresh();
    ld(r, 0, a);
    ld(r, 1, a);
    st(r, 2, a, 1);
    a = fresh();
    make_mi(r, 0, a);
    st(r, 2, a, 1);
    return r;
}

static void tcs_every_cell(void **state)
{
    (void)state;
    struct inject *held = held_write_rig();
    /* S_W+GetSOnce: a strong load parks behind the held write */
    struct inject *strong = strong_rig(TCS, "tc.stall_scope=line");
    addr_t s = fresh();
    ld(strong, 0, s);
    st_at(strong, 1, s, 1, 0);
    lds_at(strong, 2, 0, s, 5);
    inject_run(strong);
    /* the rest with bank stall scope */
    struct inject *r = rig(TCS, "tc.lease=fixed:3000", "tc.stall_scope=bank");
    l1_walk(r, "tcs.L1");
    /* E+GetS -> P, P+WriteBlock; P+GetS -> S, S+GetS, S+WriteBlock;
     * P+UpgrOwn, P+AtomicOwn; MI+WriteBlock; MI+GetS */
    addr_t a;
    a = fresh();
    ld(r, 0, a);
    st(r, 1, a, 1);
    a = fresh();
    ld(r, 0, a);
    ld(r, 1, a);
    ld(r, 2, a);
    st(r, 3, a, 2);
    a = fresh();
    ld(r, 0, a);
    st(r, 0, a, 1);
    ato(r, 0, a, 1);
    a = fresh();
    make_mi(r, 0, a);
    st(r, 2, a, 3);
    l2_lease_end_walk(r, "tcs.L2", false);
    search(r, "tcs.L2", "IM", "Upgr", upgr_into_im, 1400, 2200, 2);

    struct inject *rigs[] = {held, r, expired_fill_rig(TCS), strong};
    assert_int_equal(check_coverage_of(rigs, ARRAY_LEN(rigs), NULL, 0), 0);
    for (unsigned i = 0; i < ARRAY_LEN(rigs); i++)
        inject_free(rigs[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tcw_mp_fence_waits_for_gwct),
        cmocka_unit_test(tcw_stale_copy_until_lease_end),
        cmocka_unit_test(tcw_cta_fence_no_wait),
        cmocka_unit_test(tcw_release_waits_for_acquired_gwct),
        cmocka_unit_test(tcw_other_warp_reads_outstanding_write_at_l2),
        cmocka_unit_test(tcs_write_stalls_until_leases_expire),
        cmocka_unit_test(tcw_strong_load_at_l2),
        cmocka_unit_test(tcs_strong_load_at_l2),
        cmocka_unit_test(private_write),
        cmocka_unit_test(tcw_datag_is_not_private),
        cmocka_unit_test(eviction_keeps_timestamp),
        cmocka_unit_test(expired_fill_and_late_merge),
        cmocka_unit_test(launch_and_rollover),
        cmocka_unit_test(predictor),
        cmocka_unit_test(lease_parse),
        cmocka_unit_test(tcw_every_cell),
        cmocka_unit_test(tcs_every_cell),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
