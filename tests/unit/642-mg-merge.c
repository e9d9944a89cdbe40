/*
 * 642-mg-merge.c - the multi-GPM L2's misses to remote lines, directed:
 * concurrent reads of one remote line merge in one MSHR (one request crosses
 * the link), and a fill is dropped only when a write to that line raced it
 * (spec 004b §8 item 4, per line).
 *
 * Machine: 2 GPUs x 2 GPMs, 2 SMs and one L2 bank per GPM (SM 2g and 2g+1
 * on GPM g; GPM 0, 1 on GPU 0, GPM 2, 3 on GPU 1), 4 KB pages placed by
 * first touch. Lines X, W and V lie on three pages that GPM 2 touches first,
 * so their system home is GPM 2; under hmg their GPU home on GPU 0 is GPM 0.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "check/inject.h"

#define X 0x10000u
#define W 0x11000u
#define V 0x12000u

enum { GPM0_SM = 0, GPM1_SM = 2, HOME_SM = 4, READER = 6, OTHER = 7 };

static struct inject *mg_rig(const char *protocol, const char *mshrs)
{
    char proto[64], m[64];
    snprintf(proto, sizeof proto, "coherence.protocol=%s", protocol);
    snprintf(m, sizeof m, "l2.mshrs=%s", mshrs);
    const char *sets[] = {
        proto,       m,           "topology.gpus=2", "topology.gpms=2", "topology.page_bytes=4K",
        "gpu.sms=2", "l2.banks=1"};
    struct config cfg;
    char err[256];
    if (config_load(&cfg, NULL, sets, ARRAY_LEN(sets), err, sizeof err))
        fail_msg("%s", err);
    struct inject *r = inject_new(&cfg);
    const addr_t lines[] = {X, W, V};
    for (unsigned k = 0; k < ARRAY_LEN(lines); k++) { /* first touches place the pages */
        unsigned id = inject_store(r, HOME_SM, 0, lines[k], 4, 7 + k, SEM_WEAK, SCOPE_CTA, 0);
        inject_run_until(r, id);
    }
    inject_run(r);
    return r;
}

static uint64_t bank_stat(struct inject *r, unsigned gpm, const char *name)
{
    char full[96];
    snprintf(full, sizeof full, "gpu%u.gpm%u.l2[0].%s", gpm / 2, gpm % 2, name);
    return inject_stat(r, full);
}

/* Two SMs of GPM 3 read X in the same cycles: one read goes to the home, the
 * other waits in its MSHR; both get the home's value, and the line is
 * installed. */
static void concurrent_reads_merge(void **state)
{
    (void)state;
    const char *protocols[] = {"nhcc", "hmg", "ideal-mg", "sw-nh", "sw-h"};
    for (unsigned p = 0; p < ARRAY_LEN(protocols); p++) {
        struct inject *r = mg_rig(protocols[p], "128");
        unsigned a = inject_load(r, READER, 0, X, 4, SEM_WEAK, SCOPE_CTA, 0);
        unsigned b = inject_load(r, OTHER, 0, X, 4, SEM_WEAK, SCOPE_CTA, 2);
        inject_run(r);
        assert_int_equal(inject_value(r, a), 7);
        assert_int_equal(inject_value(r, b), 7);
        assert_int_equal(bank_stat(r, 3, "forwarded"), 1);
        assert_int_equal(bank_stat(r, 3, "merged"), 1);
        assert_int_equal(bank_stat(r, 3, "fills"), 1);
        inject_free(r);
    }
}

/* hmg: GPM 0, the GPU home of X on GPU 0, has a read of X out for its own
 * L1 when GPM 1's read, passed on to it, arrives: that one merges there too,
 * and one read crosses to GPU 1. */
static void gpu_home_merges_passed_on_reads(void **state)
{
    (void)state;
    struct inject *r = mg_rig("hmg", "128");
    unsigned a = inject_load(r, GPM0_SM, 0, X, 4, SEM_WEAK, SCOPE_CTA, 0);
    unsigned b = inject_load(r, GPM1_SM, 0, X, 4, SEM_WEAK, SCOPE_CTA, 0);
    inject_run(r);
    assert_int_equal(inject_value(r, a), 7);
    assert_int_equal(inject_value(r, b), 7);
    assert_int_equal(bank_stat(r, 0, "merged"), 1);
    assert_int_equal(bank_stat(r, 0, "forwarded"), 1); /* to the system home */
    assert_int_equal(bank_stat(r, 1, "forwarded"), 1); /* to its GPU home */
    assert_int_equal(bank_stat(r, 1, "fills"), 1);
    inject_free(r);
}

/* A write to another line while X's read is out leaves X's fill alone (the
 * per-bank rule dropped it); a write to X itself drops it, and a read of X
 * after that write does not merge on the older read: it sees the write. */
static void fill_dropped_only_when_its_line_raced(void **state)
{
    (void)state;
    const char *protocols[] = {"nhcc", "hmg", "sw-nh"};
    for (unsigned p = 0; p < ARRAY_LEN(protocols); p++) {
        struct inject *r = mg_rig(protocols[p], "128");
        unsigned a = inject_load(r, READER, 0, X, 4, SEM_WEAK, SCOPE_CTA, 0);
        inject_store(r, OTHER, 0, W, 4, 99, SEM_WEAK, SCOPE_CTA, 2);
        inject_run(r);
        assert_int_equal(inject_value(r, a), 7);
        assert_int_equal(bank_stat(r, 3, "fills"), 1);
        assert_int_equal(bank_stat(r, 3, "fills_raced"), 0);

        a = inject_load(r, READER, 0, V, 4, SEM_WEAK, SCOPE_CTA, 0);
        inject_store(r, OTHER, 0, V, 4, 42, SEM_WEAK, SCOPE_CTA, 2);
        unsigned b = inject_load(r, OTHER, 0, V, 4, SEM_WEAK, SCOPE_CTA, 4);
        inject_run(r);
        assert_int_equal(inject_value(r, a), 9); /* ordered before the write */
        assert_int_equal(inject_value(r, b), 42);
        assert_int_equal(bank_stat(r, 3, "merged"), 0);
        assert_int_equal(bank_stat(r, 3, "fills_raced"), 1);
        assert_int_equal(bank_stat(r, 3, "fills"), 1); /* V is not installed */
        assert_int_equal(inject_coverage(r, "nhcc.L2", "IRX", "Fill"), 1);
        inject_free(r);
    }
}

/* Remote-line MSHRs are half of l2.mshrs: with 2, a second line's read from
 * an L1 waits (a resource stall) for the first's answer, and nothing is
 * lost. */
static void full_mshrs_stall(void **state)
{
    (void)state;
    struct inject *r = mg_rig("nhcc", "2");
    unsigned a = inject_load(r, READER, 0, X, 4, SEM_WEAK, SCOPE_CTA, 0);
    unsigned b = inject_load(r, OTHER, 0, W, 4, SEM_WEAK, SCOPE_CTA, 0);
    inject_run(r);
    assert_int_equal(inject_value(r, a), 7);
    assert_int_equal(inject_value(r, b), 8);
    assert_int_equal(bank_stat(r, 3, "forwarded"), 2);
    assert_int_equal(bank_stat(r, 3, "fills"), 2);
    assert_true(bank_stat(r, 3, "resource_stalls") > 0);
    assert_true(inject_latency(r, b) > inject_latency(r, a) + 100);
    inject_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(concurrent_reads_merge),
        cmocka_unit_test(gpu_home_merges_passed_on_reads),
        cmocka_unit_test(fill_dropped_only_when_its_line_raced),
        cmocka_unit_test(full_mshrs_stall),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
