/*
 * 721-spandex-fwd-pred.c - the request types of spec 003 §2.6 on the
 * Spandex LLC and its DeNovo L1s (fcs.* settings): forwarded write-throughs
 * and atomics (ReqWTfwd(+data)) performed at the owner, which keeps its
 * words; owner-predicted reads, writes and atomics (ReqVo, ReqWTo(+data))
 * passed to the predicted owner; a Nack on a misprediction and the retry at
 * the LLC; owned loads (ReqO+data). On the tiny directed machine with the
 * invariant observers on (single owner per word, forwarded updates
 * performed exactly once, no Nack loop), checking values, states and the
 * table cells each scenario is about.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "directed-rig.h"

#define SPXD "coherence.protocol=spandex-d"

static uint64_t dn(struct inject *r, const char *state, const char *event)
{
    return inject_coverage(r, "spandex.DeNovo-L1", state, event);
}

static uint64_t llc(struct inject *r, const char *state, const char *event)
{
    return inject_coverage(r, "spandex.LLC", state, event);
}

static void fence(struct inject *r, unsigned sm)
{
    inject_order(r, sm, 0, MEM_FENCE, SEM_ACQ_REL, SCOPE_GPU, 0);
    inject_run(r);
}

static uint64_t sum_stat(struct inject *r, const char *fmt, unsigned n)
{
    uint64_t s = 0;
    char name[96];
    for (unsigned i = 0; i < n; i++) {
        snprintf(name, sizeof name, fmt, i);
        s += stat(r, name);
    }
    return s;
}

/* Producer-consumer forwarding: the consumer owns the word (a ReqO+data
 * load); the producer's ReqWTfwd and ReqWTfwd+data reach it through the LLC
 * and are performed there; neither the LLC nor the owner changes state, and
 * the consumer then hits on the new values. A word no L1 owns takes a
 * ReqWTfwd as a ReqWT. */
static void forwarded_updates_are_performed_at_the_owner(void **state)
{
    (void)state;
    struct inject *r = rig(SPXD, "fcs.load=odata", "fcs.store=wtfwd", "fcs.rmw=wtfwd_data");
    assert_int_equal(ld(r, 0, X), 0);
    assert_int_equal(dn(r, "I", "LoadOwn"), 1);
    assert_string_equal(inject_l1_state(r, 0, X), "O");
    st(r, 1, X, 5);
    assert_int_equal(llc(r, "O", "ReqWTfwd"), 1);
    assert_int_equal(dn(r, "O", "FwdWT"), 1);
    assert_int_equal(dn(r, "BW", "WTDone"), 1);
    assert_string_equal(inject_l1_state(r, 0, X), "O"); /* kept */
    assert_string_equal(inject_l2_state(r, X), "O");
    assert_int_equal(ato(r, 2, X, 3), 5); /* forwarded atomic: old value from the owner */
    assert_int_equal(llc(r, "O", "ReqWTfwd"), 2);
    assert_int_equal(ld(r, 0, X), 8);
    assert_int_equal(dn(r, "O", "LoadHit"), 1);
    assert_int_equal(stat(r, "gpu.l2[0].wt_forwarded"), 2);
    assert_int_equal(sum_stat(r, "gpu.sm[%u].l1.forwarded_performed", 4), 2);
    /* not remotely owned: a plain write-through */
    st(r, 1, Y, 7);
    assert_int_equal(llc(r, "V", "ReqWT"), 1);
    assert_int_equal(ld(r, 2, Y), 7);
    inject_free(r);
}

/* Owner prediction: the first ReqWTo has no prediction and goes to the LLC
 * as ReqWTfwd; the owner's answer names it, so the next is sent to it
 * (passed by the LLC without a lookup). When ownership has moved on, the
 * old owner Nacks and the requester retries at the LLC with a ReqWT, which
 * revokes the new owner's word: the value lands once. */
static void predicted_writes_nack_and_retry_on_a_misprediction(void **state)
{
    (void)state;
    struct inject *r = rig(SPXD, "fcs.load=odata", "fcs.store=wto", "fcs.rmw=odata");
    ld(r, 0, X); /* SM 0 owns X */
    st(r, 1, X, 1);
    assert_int_equal(llc(r, "O", "ReqWTfwd"), 1);
    st(r, 1, X, 2);
    assert_int_equal(llc(r, "O", "Predicted"), 1);
    assert_int_equal(llc(r, "O", "OwnerAnswer"), 2);
    assert_int_equal(dn(r, "O", "FwdWT"), 2);
    assert_int_equal(ld(r, 0, X), 2);
    ld(r, 2, X); /* ownership moves to SM 2 */
    assert_string_equal(inject_l1_state(r, 2, X), "O");
    st(r, 1, X, 3); /* predicted to SM 0: a misprediction */
    assert_int_equal(dn(r, "BW", "Nack"), 1);
    assert_int_equal(sum_stat(r, "gpu.sm[%u].l1.nacks_sent", 4), 1);
    assert_int_equal(llc(r, "O", "ReqWTOwned"), 1); /* the retry revokes */
    fence(r, 3);
    assert_int_equal(ld(r, 3, X), 3);
    assert_int_equal(ld(r, 2, X), 3);
    inject_free(r);
}

/* Predicted reads: a ReqV gathered from an owner names it, so the next
 * ReqVo goes straight to it, which answers from its owned word and keeps it.
 * An atomic typed ReqWTo+data is performed at the predicted owner. */
static void predicted_reads_and_atomics_go_to_the_owner(void **state)
{
    (void)state;
    struct inject *r = rig(SPXD, "fcs.load=vo", "fcs.store=o", "fcs.rmw=wto_data");
    st(r, 0, X, 0x21); /* SM 0 owns X (ReqO) */
    assert_int_equal(ld(r, 1, X), 0x21); /* no prediction yet: ReqV, gathered */
    assert_int_equal(llc(r, "O", "ReqVOwned"), 1);
    fence(r, 1); /* self-invalidates SM 1's copy */
    assert_int_equal(ld(r, 1, X), 0x21);
    assert_int_equal(dn(r, "O", "PredV"), 1);
    assert_int_equal(dn(r, "BW", "PredFill"), 1);
    assert_string_equal(inject_l1_state(r, 0, X), "O");
    /* atomics: the first finds the owner through the LLC, the second predicts */
    assert_int_equal(ato(r, 2, X, 1), 0x21);
    assert_int_equal(ato(r, 2, X, 1), 0x22);
    assert_int_equal(llc(r, "O", "Predicted"), 2);
    assert_int_equal(dn(r, "O", "FwdWT"), 2);
    assert_int_equal(ld(r, 0, X), 0x23);
    inject_free(r);
}

/* fcs.mispredict = 100: every prediction names a random other L1; wrong
 * ones are Nacked and retried at the LLC, at most once each, and every
 * value lands. */
static void forced_mispredictions_retry_once(void **state)
{
    (void)state;
    struct inject *r = rig(SPXD, "fcs.load=odata", "fcs.store=wto", "fcs.rmw=wto_data",
                           "fcs.mispredict=100");
    ld(r, 0, X);
    for (unsigned i = 0; i < 6; i++)
        st(r, 1 + i % 3, X, 10 + i);
    for (unsigned i = 0; i < 6; i++)
        ato(r, 1 + i % 3, X + 4, 1);
    uint64_t nacks = sum_stat(r, "gpu.sm[%u].l1.nacks_received", 4);
    assert_true(nacks >= 1);
    assert_int_equal(nacks, sum_stat(r, "gpu.sm[%u].l1.nacks_sent", 4));
    assert_int_equal(ld(r, 0, X), 15);
    assert_int_equal(ld(r, 0, X + 4), 6);
    inject_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(forwarded_updates_are_performed_at_the_owner),
        cmocka_unit_test(predicted_writes_nack_and_retry_on_a_misprediction),
        cmocka_unit_test(predicted_reads_and_atomics_go_to_the_owner),
        cmocka_unit_test(forced_mispredictions_retry_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
