/*
 * 701-tc-fence-wait.c - a fence-heavy microbenchmark shows TC-Weak's fences
 * waiting for their GWCT, and the lease as the cause.
 *
 * `spinlock`: every thread takes an atomicCAS lock, fences, increments a
 * plain shared counter, fences and releases; every SM reads the counter, so
 * the write of each critical section lands on a line other L1s hold under a
 * lease. TC-Weak never stalls that write; the fence before the release waits
 * until the write's GWCT (the longest lease on the line) has passed
 * (spec 002 §3.9, Fig. 6(c)). The L1 counts the waits (`gwct_waits`) and
 * the warp-cycles spent in them (`fence_wait_cycles`). With a lease of 0 no
 * copy outlives its read, every GWCT has passed when the ack arrives, and no
 * fence waits; with 1600 or 6400 cycles they wait, the longer lease longer.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "run-rig.h"

struct fence_stats {
    uint64_t waits;       /* sum over SMs of l1.gwct_waits */
    uint64_t wait_cycles; /* sum over SMs of l1.fence_wait_cycles */
};

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), k = strlen(tail);
    return n >= k && !strcmp(s + n - k, tail);
}

static void sum_fence(void *arg, const char *name, uint64_t value)
{
    struct fence_stats *f = arg;
    if (ends_with(name, "l1.gwct_waits"))
        f->waits += value;
    else if (ends_with(name, "l1.fence_wait_cycles"))
        f->wait_cycles += value;
}

/* spinlock (tiny, seed 1) under tcw with the given lease; fails if the
 * workload's own check fails. */
static struct fence_stats run(const char *lease, const char *fence_gwct)
{
    const char *sets[] = {"coherence.protocol=tcw", lease, fence_gwct};
    struct fence_stats f = {0};
    struct rig_run r = rig_run("spinlock", sets, 3, sum_fence, &f);
    free(r.text);
    return f;
}

static void no_lease_no_wait(void **state)
{
    (void)state;
    struct fence_stats f = run("tc.lease=fixed:0", "tc.fence_gwct=sm");
    assert_int_equal(f.waits, 0);
    assert_int_equal(f.wait_cycles, 0);
}

/* Under both fence rules (the SM's largest GWCT, the paper's warp's own):
 * fences wait, for hundreds of cycles each on average, and a longer lease
 * makes them wait longer. */
static void fences_wait_out_leases(void **state)
{
    (void)state;
    static const char *const rules[] = {"tc.fence_gwct=sm", "tc.fence_gwct=warp"};
    for (unsigned i = 0; i < 2; i++) {
        struct fence_stats short_ = run("tc.lease=fixed:1600", rules[i]);
        struct fence_stats long_ = run("tc.lease=fixed:6400", rules[i]);
        assert_true(short_.waits > 0);
        assert_true(long_.waits > 0);
        assert_true(long_.wait_cycles > 100 * long_.waits);
        assert_true(long_.wait_cycles > short_.wait_cycles);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(no_lease_no_wait),
        cmocka_unit_test(fences_wait_out_leases),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
