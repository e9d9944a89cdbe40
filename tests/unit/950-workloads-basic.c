/*
 * 950-workloads-basic.c - the basic and synchronization-primitive workloads
 * in functional mode: each runs at tiny size through the host API and must
 * pass its own CPU-reference check.
 *
 * Functional mode performs every access when it issues (sequentially
 * consistent, no caches), so the racy variants (mp "nofence") pass here too;
 * their failures under a non-coherent L1 are shown on the timing model.
 * Also: every listed workload is registered with its set, an unknown
 * variant is refused with a reason, and two runs with the same seed execute
 * the same number of instructions (inputs come from the seed alone).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "functional-rig.h"

struct case_ {
    const char *name;
    const char *set;
    const char *variant;
};

static const struct case_ cases[] = {
    {"vecadd", "basic", NULL},          {"saxpy", "basic", NULL},
    {"reduce", "basic", NULL},          {"histogram", "basic", NULL},
    {"histogram", "basic", "global"},   {"divergence", "basic", NULL},
    {"devcall", "basic", NULL},         {"mp", "basic", NULL},
    {"mp", "basic", "nofence"},         {"spinlock", "basic", NULL},
    {"mutex-spin", "sync", NULL},       {"mutex-spin", "sync", "ttas"},
    {"mutex-backoff", "sync", NULL},    {"mutex-ticket", "sync", NULL},
    {"semaphore", "sync", NULL},        {"barrier-tree", "sync", NULL},
    {"barrier-lockfree", "sync", NULL}, {"counter-relaxed", "sync", NULL},
};

static void every_workload_passes_at_tiny(void **state)
{
    (void)state;
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        const struct workload *w = find_workload(cases[i].name);
        assert_string_equal(w->set, cases[i].set);
        struct functional_stats ran = assert_passes(w, cases[i].variant, 1);
        assert_true(ran.warp_insts > 0);
    }
}

/* EVIDENCE-OF: mp's relaxed variant is a separate kernel that still meets
 * the check on a sequentially consistent machine, with other seeds too. */
static void mp_nofence_passes_functionally(void **state)
{
    (void)state;
    const struct workload *w = find_workload("mp");
    for (uint64_t seed = 2; seed < 5; seed++)
        assert_passes(w, "nofence", seed);
}

static void unknown_variant_is_refused(void **state)
{
    (void)state;
    for (size_t i = 0; i < ARRAY_LEN(cases); i++)
        assert_unknown_variant_refused(cases[i].name);
}

static void same_seed_same_run(void **state)
{
    (void)state;
    static const char *const names[] = {"histogram", "mutex-ticket", "barrier-lockfree"};
    for (size_t i = 0; i < ARRAY_LEN(names); i++)
        assert_same_seed_same_run(names[i], NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_workload_passes_at_tiny),
        cmocka_unit_test(mp_nofence_passes_functionally),
        cmocka_unit_test(unknown_variant_is_refused),
        cmocka_unit_test(same_seed_same_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
