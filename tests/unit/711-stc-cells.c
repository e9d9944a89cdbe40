/*
 * 711-stc-cells.c - every defined cell of the STC tables (the L1's, the L2
 * bank's and the EMU's) fires (or is documented unreachable, and then must
 * never fire), on the directed rig's tiny machine (4 SMs, a one-set two-way
 * L1 of 128-byte lines, merge_max 1) with 4 epochs and bands one line apart
 * (stc.seb = 7): line P<b> is in band b, and every CU starts in epoch 0. The
 * variants share the tables; the EMU's cells need NV, ES and AB rigs.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "directed-rig.h"

#define P0 0x10000u /* band 0: current at the start */
#define P1 0x10080u /* band 1 */
#define P2 0x10100u /* band 2 */
#define P3 0x10180u /* band 3 */
#define Q1 0x20080u /* band 1, another line */

#define STC_RIG(proto, ...) rig(proto, "stc.epochs=4", "stc.seb=7", "stc.seb_min=7", __VA_ARGS__)

/* The walk on one rig (safe forms). Each step names the cells it means; the
 * comments say which epoch is current after it. The EMU wakes every 100
 * cycles, a transition takes some 40, an L2 miss some 460 (tc-fermi). */
static void walk_safe(struct inject *r)
{
    /* I+Load, I_V+Load (merge), I_V+MergeFull, I_V+Data, V+Load */
    ld_at(r, 0, P1, 0);
    ld_at(r, 0, P1, 1);
    ld_at(r, 0, P1, 2);
    inject_run(r);
    assert_int_equal(ld(r, 0, P1), 0);
    /* I+Load_U, I_I+Load_U, I_I+Rsp, I_I+LastRsp */
    ld_at(r, 1, P0, 0);
    ld_at(r, 1, P0, 1);
    inject_run(r);
    /* I+Store, I_I+Store, I_I+Atomic, I+Atomic (band 0 is current); at the
     * L2, I+Atomic and IV+Atomic on a fresh line */
    st_at(r, 2, P0, 5, 0);
    st_at(r, 2, P0, 6, 1);
    ato_at(r, 2, P0, 1, 2);
    ato_at(r, 3, P0, 1, 0);
    ato_at(r, 3, 0x11000u, 1, 0);
    ato_at(r, 2, 0x11000u, 1, 1);
    inject_run(r);
    assert_int_equal(ld(r, 3, P0), 7);
    /* V+Block, B+Block (parked), B+Load (parked), B+Drain: P1 is V in SM 0 */
    st_at(r, 0, P1, 11, 0);
    st_at(r, 0, P1, 12, 1);
    ld_at(r, 0, P1, 2);
    inject_run(r);
    assert_int_equal(ld(r, 1, P1), 12); /* epoch 1 */
    /* I+Block, I_V+Block, B+LastRsp: a load of band 2 outstanding, then a
     * store to it; another CU's store to band 3 */
    ld_at(r, 1, P2, 0);
    st_at(r, 1, P2, 21, 1);
    st_at(r, 2, P3, 31, 0);
    inject_run(r); /* epoch 2 or 3 */
    /* V+Replace: three lines of band 1 through the two ways */
    st(r, 1, P0, 1); /* epoch 0 */
    ld(r, 3, P1);
    ld(r, 3, Q1);
    ld(r, 3, 0x30080u);
    /* V+Scrub: P1 and Q1 cached in SM 2, then an epoch of band 1 */
    ld(r, 2, P1);
    ld(r, 2, Q1);
    st(r, 1, P1, 13); /* epoch 1 */
    assert_int_equal(ld(r, 2, Q1), 0);
    assert_int_equal(ld(r, 2, P1), 13);
    /* I_V+Flip, then I_I+Load: SM 3's load of band 2 misses in the L2; SM
     * 0's store to band 2 has it granted meanwhile (Flip), SM 1's to band 3
     * ends that epoch before SM 3 loads the line again */
    ld_at(r, 3, 0x50100u, 0);
    st_at(r, 0, 0x60100u, 1, 0);
    st_at(r, 1, 0x60180u, 1, 160);
    ld_at(r, 3, 0x50100u, 420);
    inject_run(r); /* epoch 3 */
    /* I_I+Block, B+Rsp: two uncached loads of band 3 outstanding, then,
     * once band 0 is granted, a store to the line */
    ld_at(r, 2, 0x70180u, 0);
    ld_at(r, 2, 0x70180u, 1);
    st_at(r, 3, 0x70000u, 1, 0);
    st_at(r, 2, 0x70180u, 1, 300);
    inject_run(r); /* epoch 3 */
}

/* EMU links of 300 cycles: SM 0's 100 stores to band 1 all wait; a load
 * meets one before band 1 is granted (B+Load) and one between ChangeEpoch
 * (about cycle 1250) and EpochStart (about 1850), when band 1 is current
 * but stores are held (B+Load_U). */
static void walk_slow_drain(struct inject *r)
{
    for (unsigned i = 0; i < 100; i++) /* SM 1 puts the lines in the L2 */
        ld_at(r, 1, 0x100080u + 0x200u * i, i);
    inject_run(r);
    for (unsigned i = 0; i < 100; i++)
        st_at(r, 0, 0x100080u + 0x200u * i, i, 0);
    ld_at(r, 0, 0x100080u + 0x200u * 50, 500);
    ld_at(r, 0, 0x100080u + 0x200u * 99, 1600);
    inject_run(r);
}

/* A fast network and L2 and a BSQ draining one entry a cycle: stores and
 * atomics meet B lines of the band just granted that wait their turn to
 * drain (B+Store, B+Atomic). When band 1 is granted depends on the EMU's
 * wake-up phase, so the attempts sweep a window of times over distinct
 * lines: for any grant between cycles 60 and 150, some store meets a line
 * of 99-k not yet drained, and some atomic one of 59-k. */
static void walk_fast_drain(struct inject *r)
{
    for (unsigned i = 0; i < 100; i++) /* SM 1 puts the lines in the L2 */
        ld_at(r, 1, 0x100080u + 0x200u * i, i);
    inject_run(r);
    for (unsigned i = 0; i < 100; i++)
        st_at(r, 0, 0x100080u + 0x200u * i, i, 0);
    for (unsigned k = 0; k < 40; k++) {
        st_at(r, 0, 0x100080u + 0x200u * (99 - k), 7, 60 + 3 * k);
        ato_at(r, 0, 0x100080u + 0x200u * (59 - k), 1, 61 + 3 * k);
    }
    inject_run(r);
    assert_int_equal(ld(r, 2, 0x100080u + 0x200u * 99), 7);
}

/* On rigs whose memory answers after some 3000 cycles: a fill of band 2 is
 * flipped when band 2 is granted (I_V+Flip) and still outstanding when band
 * 3 is (I_I+Load; the stores that have them granted hit in the L2); under
 * the paper's straddle form a fill of band 1 arrives while band 1 is
 * current (I_V+Data_E). */
static void walk_slow_memory(struct inject *safe, struct inject *paper)
{
    ld_at(safe, 2, 0x60100u, 0); /* in the L2, so that the stores below are quick */
    ld_at(safe, 2, 0x60180u, 0);
    inject_run(safe);
    ld_at(safe, 3, 0x50100u, 0);
    st_at(safe, 0, 0x60100u, 1, 0);
    st_at(safe, 1, 0x60180u, 1, 200);
    ld_at(safe, 3, 0x50100u, 1000);
    inject_run(safe);
    ld_at(paper, 0, 0x80080u, 0);
    st_at(paper, 1, 0x90080u, 1, 0);
    inject_run(paper);
}

/* The host's write between kernels drops the line (V+HostWrite). */
static void host_write(struct inject *r)
{
    ld(r, 0, P2);
    uint32_t v = 99;
    struct launcher l = machine_launcher(inject_machine(r));
    l.ops->write(l.obj, P2, &v, sizeof v);
    assert_int_equal(ld(r, 0, P2), 99);
}

/* The paper's straddle form: fills of a current band are not flipped but
 * dropped at arrival (I_V+Data_E), and requests meet an I_V of a current
 * band (I_V+Load_U, I_V+Store, I_V+Atomic). */
static void walk_paper(struct inject *r)
{
    ld_at(r, 0, 0x80080u, 0);    /* band 1, an L2 miss */
    st_at(r, 1, 0x90080u, 1, 0); /* has band 1 granted meanwhile */
    ld_at(r, 0, 0x80080u, 250);
    inject_run(r);
    ld_at(r, 0, 0xc0100u, 0); /* band 2 */
    st_at(r, 1, 0xd0100u, 1, 0);
    st_at(r, 0, 0xc0100u, 1, 250);
    inject_run(r);
    ld_at(r, 0, 0xe0180u, 0); /* band 3 */
    st_at(r, 1, 0xf0180u, 1, 0);
    ato_at(r, 0, 0xe0180u, 1, 250);
    inject_run(r);
}

/* ---- the EMU's table (stc.EMU) ---- */

/* NV: a CU is busy while its BSQ holds stores (Busy, Quiet) and the EMU
 * visits every epoch in turn while one is (Grant, Ready, LastReady, Done,
 * LastDone). Stores of SMs 1-3, SM b's to band b, `spacing` cycles apart
 * block and drain while transitions are under way, so that CUs turn busy and
 * quiet in every phase; under the paper's EpochStart a CU drains as soon as
 * it has switched, while the EMU, sending one ChangeEpoch every 20 of its
 * cycles, still waits for other CUs' DoneAcks (Change+Quiet). */
static void walk_emu_nv(struct inject *r, unsigned spacing)
{
    st_at(r, 0, P1, 1, 0);
    for (unsigned k = 0; k < 60; k++)
        st_at(r, 1 + k % 3, P1 + 0x80u * (k % 3) + 0x1000u * k, k, spacing * k);
    inject_run(r);
    assert_int_equal(ld(r, 0, P2 + 0x1000u * 58), 58); /* SM 2's last, band 2 */
}

/* AB: SM 0's store to P1 blocks (Demand) and its load of Q1, in the same
 * band, conflicts with it (Conflict); under the paper's rule that moves the
 * SEB up at the next wake-up (Remap). Stores and loads of SMs 1-3 to every
 * band, `spacing` cycles apart, demand and conflict in every phase of
 * transitions made long by links of 100 cycles, and under the paper's rule
 * also under the old SEB while the EMU has moved it (Prepare and Change +
 * DemandMoved, ConflictMoved); the safe rule moves no SEB before a round of
 * grants, so conflicts meet the SEB in force. */
static void walk_emu_ab(struct inject *r, unsigned spacing)
{
    st_at(r, 0, P1, 1, 0);
    ld_at(r, 0, Q1, 1);
    for (unsigned k = 0; k < 150; k++) {
        addr_t a = 0x100000u + 0x80u * (k % 4) + 0x1000u * k;
        st_at(r, 1 + k % 3, a, k, spacing * k);
        ld_at(r, 1 + k % 3, a + 0x40000u, spacing * k + 1);
    }
    inject_run(r);
    assert_int_equal(ld(r, 0, P1), 1);
}

static const struct unreached unreached[] = {
    {"stc.L1", "V", "Load_U",
     "a valid line of a current band is scrubbed before any request to its set"},
    {"stc.L1", "V", "Store", "as V+Load_U: the set is scrubbed before the request is classified"},
    {"stc.L1", "V", "Atomic", "as V+Load_U"},
    {"stc.L1", "B", "MergeFull", "MergeFull is a classification of I_V only"},
    {"nc.L2", "I", "WriteOnArrival", "l2.write_ack = arrival only (600-nc-directed.c)"},
    {"nc.L2", "IV", "WriteOnArrival", "l2.write_ack = arrival only (600-nc-directed.c)"},
    {"nc.L2", "V", "WriteOnArrival", "l2.write_ack = arrival only (600-nc-directed.c)"},
    {"nc.L2", "M", "WriteOnArrival", "l2.write_ack = arrival only (600-nc-directed.c)"},
    {"nc.L2", "IV", "MemDataW", "l2.write_ack = arrival only (600-nc-directed.c)"},
};

static void every_cell(void **state)
{
    (void)state;
    struct inject *safe = STC_RIG("coherence.protocol=stc-es", NULL);
    walk_safe(safe);
    host_write(safe);
    struct inject *paper = STC_RIG("coherence.protocol=stc-es", "stc.straddle=paper");
    walk_paper(paper);
    struct inject *slow =
        STC_RIG("coherence.protocol=stc-es", "stc.bsq_banks=1", "stc.bsq_drains=1", "l2.size=64K",
                "stc.link_cycles=300", "noc.mhz=5600");
    walk_slow_drain(slow);
    struct inject *fast = STC_RIG("coherence.protocol=stc-es", "stc.bsq_banks=1",
                                  "stc.bsq_drains=1", "l2.size=64K", "noc.mhz=5600", "l2.mhz=5600");
    walk_fast_drain(fast);
    struct inject *mem = STC_RIG("coherence.protocol=stc-es", "dram.latency_cycles=3000");
    struct inject *mem_paper =
        STC_RIG("coherence.protocol=stc-es", "dram.latency_cycles=3000", "stc.straddle=paper");
    walk_slow_memory(mem, mem_paper);
    /* the EMU's cells: NV with short and long links, each in both EpochStart
     * forms; AB under either rule */
    struct inject *emu[8];
    unsigned n_emu = 0;
    static const unsigned nv_spacing[] = {173, 11};
    static const unsigned ab_spacing[] = {9, 61};
    for (unsigned i = 0; i < 2; i++) {
        const char *link = i ? "stc.link_cycles=100" : NULL;
        emu[n_emu] = STC_RIG("coherence.protocol=stc-nv", link);
        walk_emu_nv(emu[n_emu++], nv_spacing[i]);
        emu[n_emu] = STC_RIG("coherence.protocol=stc-nv", link, "stc.epoch_start=paper",
                             "stc.emu_msg_cycles=20");
        walk_emu_nv(emu[n_emu++], nv_spacing[i]);
        emu[n_emu] =
            STC_RIG("coherence.protocol=stc-ab", "stc.link_cycles=100", "stc.ab_rule=paper");
        walk_emu_ab(emu[n_emu++], ab_spacing[i]);
        emu[n_emu] = STC_RIG("coherence.protocol=stc-ab", "stc.link_cycles=100");
        walk_emu_ab(emu[n_emu++], ab_spacing[i]);
    }
    struct inject *rigs[6 + ARRAY_LEN(emu)] = {safe, paper, slow, fast, mem, mem_paper};
    for (unsigned i = 0; i < n_emu; i++)
        rigs[6 + i] = emu[i];
    int bad = check_coverage_of(rigs, 6 + n_emu, unreached, ARRAY_LEN(unreached));
    for (unsigned i = 0; i < 6 + n_emu; i++)
        inject_free(rigs[i]);
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_cell),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
