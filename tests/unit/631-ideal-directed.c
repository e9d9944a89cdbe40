/*
 * 631-ideal-directed.c - directed transition tests of `ideal` (spec 002
 * §3.3): the same coherent L1 as gpuvi, but writes, atomics and recalls cost
 * no coherence messages and no waiting; copies still disappear, so values
 * stay coherent. Every cell of its L1 and L2 tables fires.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "610-vi-rig.h"

#define IDEAL "coherence.protocol=ideal"

static uint64_t coherence_msgs(struct inject *r)
{
    return inject_stat(r, "gpu.noc.down.msgs.INV") + inject_stat(r, "gpu.noc.up.msgs.INV") +
           inject_stat(r, "gpu.noc.down.msgs.RCL") + inject_stat(r, "gpu.noc.up.msgs.RCL");
}

/* A write to a shared line: the copies are gone, no INV/RCL crosses the
 * crossbar, and the writer waits exactly as long as for an unshared line. */
static void write_invalidates_for_free(void **state)
{
    (void)state;
    struct inject *r = rig(IDEAL);
    ld(r, 3, Z); /* both lines resident in the L2 */
    ld(r, 3, X);
    st(r, 3, Z, 1);
    ld(r, 0, X);
    ld(r, 1, X);
    unsigned w = st_at(r, 2, X, 7, 0);
    inject_run(r);
    unsigned u = st_at(r, 3, Z, 7, 0); /* Z: only the writer holds it */
    inject_run(r);
    assert_int_equal(inject_latency(r, w), inject_latency(r, u));
    assert_string_equal(inject_l1_state(r, 0, X), "I");
    assert_string_equal(inject_l1_state(r, 1, X), "I");
    assert_string_equal(inject_l1_state(r, 3, X), "I");
    assert_int_equal(coherence_msgs(r), 0);
    assert_int_equal(inject_stat(r, "gpu.l2[0].invs_sent"), 3);
    assert_int_equal(inject_stat(r, "gpu.l2[0].acks"), 0);
    assert_int_equal(ld(r, 0, X), 7);
    assert_int_equal(ld(r, 1, X), 7);
    inject_free(r);
}

/* Atomics and L2 evictions likewise: copies dropped, nothing counted. */
static void atomics_and_recalls_are_free(void **state)
{
    (void)state;
    struct inject *r = rig(IDEAL);
    st(r, 2, A, 3);
    ld(r, 0, A);
    ld(r, 1, A);
    assert_int_equal(ato(r, 0, A, 1), 3);
    assert_string_equal(inject_l1_state(r, 1, A), "I");
    assert_string_equal(inject_l2_state(r, A), "V");
    ld(r, 0, A);
    ld(r, 1, A);
    st(r, 2, B, 1);
    st(r, 2, C, 1); /* A is the LRU line of bank 0 set 0: recalled */
    assert_string_equal(inject_l2_state(r, A), "I");
    assert_string_equal(inject_l1_state(r, 0, A), "I");
    assert_string_equal(inject_l1_state(r, 1, A), "I");
    assert_int_equal(inject_stat(r, "gpu.l2[0].recalls_sent"), 2);
    assert_int_equal(coherence_msgs(r), 0);
    assert_int_equal(ld(r, 3, A), 4);
    inject_free(r);
}

static void l2_every_transition(struct inject *r)
{
    l2_stable_walk(r);
    /* S+WriteInv, S+AtomicInv: the other copies dropped at once */
    ld(r, 0, X);
    ld(r, 1, X);
    st(r, 0, X, 3);
    ld(r, 1, X);
    ato(r, 2, X, 1);
    /* S+Replace (vector emptied by a write), S+Recall */
    ld(r, 0, A);
    st(r, 1, A, 2);
    st(r, 2, B, 2);
    st(r, 2, C, 2);
    ld(r, 0, A);
    st(r, 2, B, 3);
    st(r, 2, C, 3);
}

static void every_transition(void **state)
{
    (void)state;
    struct inject *r = rig(IDEAL);
    l1_every_transition(r);
    l2_every_transition(r);
    assert_int_equal(check_coverage(r, NULL, 0), 0);
    assert_int_equal(coherence_msgs(r), 0);
    inject_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(write_invalidates_for_free),
        cmocka_unit_test(atomics_and_recalls_are_free),
        /* the INV/DATA race exists here too (the fill is older than the write);
         * the test is gpuvi's, in 610-vi-rig.h */
        cmocka_unit_test_prestate(fill_raced_by_inv_is_used_once, IDEAL),
        cmocka_unit_test(every_transition),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
