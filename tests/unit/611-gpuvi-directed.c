/*
 * 611-gpuvi-directed.c - directed transition tests of `gpuvi` (spec 002
 * §3.4): values, line states and message counts by traffic class, and a
 * coverage test that fires every cell of its L1 and L2 tables.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "610-vi-rig.h"

#include "host/launcher.h"

#define VI "coherence.protocol=gpuvi"

/* A write to a shared line completes only after every other copy is gone:
 * once it is acknowledged, no L1 returns the old value. Two INVs down, two
 * acks up, both in class INV. */
static void write_invalidates_sharers(void **state)
{
    (void)state;
    struct inject *r = rig(VI);
    assert_int_equal(ld(r, 0, X), 0);
    assert_int_equal(ld(r, 1, X), 0);
    assert_string_equal(inject_l2_state(r, X), "S");
    unsigned w = st_at(r, 2, X, 7, 0);
    inject_run(r);
    assert_string_equal(inject_l1_state(r, 0, X), "I");
    assert_string_equal(inject_l1_state(r, 1, X), "I");
    assert_string_equal(inject_l1_state(r, 2, X), "I"); /* no write-allocate */
    assert_string_equal(inject_l2_state(r, X), "S");    /* vector now empty */
    assert_msgs_down_and_up(r, "INV", 2);
    assert_int_equal(stat(r, "gpu.noc.down.msgs.RCL"), 0);
    assert_int_equal(stat(r, "gpu.noc.up.msgs.ST"), 1);
    assert_int_equal(stat(r, "gpu.l2[0].writes_waited"), 1);
    uint64_t waited = inject_latency(r, w);
    assert_int_equal(ld(r, 0, X), 7);
    assert_int_equal(ld(r, 1, X), 7);
    /* the same write with no other copy is not held up */
    unsigned w2 = st_at(r, 3, Z, 7, 0);
    inject_run(r);
    ld(r, 3, Z);
    unsigned w3 = st_at(r, 3, Z, 8, 0);
    inject_run(r);
    assert_true(inject_latency(r, w3) < waited);
    (void)w2;
    inject_free(r);
}

/* Opt 1: the writer's copy is written at once and stays valid; no INV. Opt
 * 2: a load behind a pending write goes to the L2 and sees the write. */
static void writer_keeps_copy_and_reads_through(void **state)
{
    (void)state;
    struct inject *r = rig(VI);
    ld(r, 0, X);
    unsigned w = st_at(r, 0, X, 5, 0);
    unsigned l = ld_at(r, 0, X, 1);
    inject_run(r);
    assert_true(inject_done(r, w));
    assert_int_equal(inject_value(r, l), 5);
    assert_int_equal(stat(r, "gpu.sm[0].l1.loads_at_l2"), 1);
    assert_string_equal(inject_l1_state(r, 0, X), "V");
    assert_string_equal(inject_l2_state(r, X), "S");
    assert_int_equal(stat(r, "gpu.noc.down.msgs.INV"), 0);
    uint64_t hits = stat(r, "gpu.sm[0].l1.load_hits");
    assert_int_equal(ld(r, 0, X), 5);
    assert_int_equal(stat(r, "gpu.sm[0].l1.load_hits"), hits + 1);
    inject_free(r);
}

/* An atomic is performed at the L2 after every copy is gone: the requester
 * dropped its own when it sent it; the others are invalidated (class INV). */
static void atomic_invalidates_every_copy(void **state)
{
    (void)state;
    struct inject *r = rig(VI);
    st(r, 0, X, 40);
    ld(r, 0, X);
    ld(r, 1, X);
    assert_int_equal(ato(r, 0, X, 2), 40);
    assert_string_equal(inject_l1_state(r, 0, X), "I");
    assert_string_equal(inject_l1_state(r, 1, X), "I");
    assert_string_equal(inject_l2_state(r, X), "V");
    assert_msgs_down_and_up(r, "INV", 1);
    assert_int_equal(stat(r, "gpu.noc.up.msgs.ATO"), 1);
    assert_int_equal(ld(r, 1, X), 42);
    inject_free(r);
}

/* Inclusion: evicting a line from the L2 recalls every L1 copy (class RCL,
 * acks RCL); its value survives through DRAM. */
static void l2_eviction_recalls(void **state)
{
    (void)state;
    struct inject *r = rig(VI);
    st(r, 2, A, 3);
    ld(r, 0, A);
    ld(r, 1, A);
    st(r, 2, B, 1);
    st(r, 2, C, 1); /* A is the LRU line of bank 0 set 0 */
    assert_string_equal(inject_l2_state(r, A), "I");
    assert_string_equal(inject_l1_state(r, 0, A), "I");
    assert_string_equal(inject_l1_state(r, 1, A), "I");
    assert_msgs_down_and_up(r, "RCL", 2);
    assert_int_equal(stat(r, "gpu.noc.down.msgs.INV"), 0);
    /* the miss retried during the recall and took B's way: B went too */
    assert_int_equal(stat(r, "gpu.l2[0].writebacks"), 2);
    assert_int_equal(ld(r, 3, A), 3);
    assert_int_equal(ld(r, 3, B), 1);
    inject_free(r);
}

/* Host writes between kernels send no INVs (the L1 copy survives them); the
 * launch that follows flash-invalidates, so the kernel reads the host's data. */
static void launch_drops_copies_after_host_write(void **state)
{
    (void)state;
    struct inject *r = rig(VI);
    ld(r, 0, X);
    struct launcher l = machine_launcher(inject_machine(r));
    uint32_t v = 99;
    l.ops->write(l.obj, X, &v, 4);
    assert_string_equal(inject_l1_state(r, 0, X), "V");
    launch(r, 0, 0);
    inject_run(r);
    assert_string_equal(inject_l1_state(r, 0, X), "I");
    assert_int_equal(ld(r, 0, X), 99);
    /* a fence needs nothing: answered, the line stays */
    inject_order(r, 0, 0, MEM_FENCE, SEM_ACQ_REL, SCOPE_GPU, 0);
    inject_run(r);
    assert_string_equal(inject_l1_state(r, 0, X), "V");
    inject_free(r);
}

/* Every L2 cell: see the comments for which cell each step aims at. */
static void l2_every_transition(struct inject *r)
{
    l2_stable_walk(r);
    l2_ack_wait_walk(r);
    /* S+Replace: a shared line whose vector a write emptied is evicted */
    ld(r, 0, A);
    st(r, 1, A, 2);
    st(r, 2, B, 2);
    st(r, 2, C, 2);
    /* S+Recall -> S_R (two sharers: InvAck, LastAck); the miss that needed
     * the way takes B's instead, so later requests to A meet S_R */
    ld(r, 0, A);
    ld(r, 1, A);
    st(r, 2, B, 3);
    st_at(r, 2, C, 3, 0);
    ld_at(r, 3, A, 6);
    st_at(r, 2, A, 4, 7);
    ato_at(r, 0, A, 1, 8);
    inject_run(r);
}

static void every_transition(void **state)
{
    (void)state;
    struct inject *r = rig(VI);
    l1_every_transition(r);
    l2_every_transition(r);
    assert_int_equal(check_coverage(r, NULL, 0), 0);
    inject_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(write_invalidates_sharers),
        cmocka_unit_test(writer_keeps_copy_and_reads_through),
        cmocka_unit_test(atomic_invalidates_every_copy),
        cmocka_unit_test(l2_eviction_recalls),
        /* the INV/DATA race, in 610-vi-rig.h: ideal runs it too */
        cmocka_unit_test_prestate(fill_raced_by_inv_is_used_once, VI),
        cmocka_unit_test(launch_drops_copies_after_host_write),
        cmocka_unit_test(every_transition),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
