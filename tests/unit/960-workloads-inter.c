/*
 * 960-workloads-inter.c - the inter-workgroup workloads (BH, CC, CL, DLB,
 * STN, VPR, BFS) in functional mode: each runs at tiny size through the host
 * API and must pass its own check, with two seeds, and so must every
 * "nofence" variant.
 *
 * Functional mode performs every access when it issues (sequentially
 * consistent, no caches), so the nofence variants are correct here; their
 * dependence on fences shows on the timing model with non-coherent L1s.
 * Its round-robin warp schedule and all-resident grid let the persistent
 * kernels' global barriers, the task deques and the spin locks make progress.
 * Also: each is registered in the "inter" set, an unknown variant is refused
 * with a reason, and the nondeterministic ones (DLB, VPR, BH) execute the
 * same instructions for the same seed.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "functional-rig.h"

struct case_ {
    const char *name;
    const char *variant;
};

static const struct case_ cases[] = {
    {"bh", NULL},  {"bh", "nofence"},  {"cc", NULL},  {"cc", "nofence"},
    {"cl", NULL},  {"cl", "nofence"},  {"dlb", NULL}, {"dlb", "nofence"},
    {"stn", NULL}, {"stn", "nofence"}, {"vpr", NULL}, {"vpr", "nofence"},
    {"bfs", NULL},
};

static void every_workload_passes_at_tiny(void **state)
{
    (void)state;
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        const struct workload *w = find_workload(cases[i].name);
        assert_string_equal(w->set, "inter");
        for (uint64_t seed = 1; seed <= 2; seed++) {
            uint64_t insts = assert_passes(w, cases[i].variant, seed).thread_insts;
            /* tiny must stay cheap enough for the cycle-level model */
            assert_true(insts > 1000);
            assert_true(insts < 20000000);
            if (seed == 1)
                print_message("%-4s %-8s %10llu thread instructions\n", cases[i].name,
                              cases[i].variant ? cases[i].variant : "-", (unsigned long long)insts);
        }
    }
}

static void unknown_variant_is_refused(void **state)
{
    (void)state;
    static const char *const names[] = {"bh", "cc", "cl", "dlb", "stn", "vpr", "bfs"};
    for (size_t i = 0; i < ARRAY_LEN(names); i++)
        assert_unknown_variant_refused(names[i]);
}

static void same_seed_same_run(void **state)
{
    (void)state;
    static const char *const names[] = {"dlb", "vpr", "bh"};
    for (size_t i = 0; i < ARRAY_LEN(names); i++)
        assert_same_seed_same_run(names[i], NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_workload_passes_at_tiny),
        cmocka_unit_test(unknown_variant_is_refused),
        cmocka_unit_test(same_seed_same_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
