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
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "gpu/functional.h"
#include "host/host.h"
#include "host/launcher.h"
#include "host/workload.h"
#include "mem/backing.h"

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

/* Runs one workload on a fresh functional machine; returns its verdict and
 * the thread instructions it executed. */
static int run_one(const struct workload *w, uint64_t seed, const char *variant, char *why,
                   size_t why_len, uint64_t *thread_insts)
{
    struct backing store;
    backing_init(&store);
    struct functional *f = functional_new(&store, NULL);
    struct host *h = host_new(functional_launcher(f));
    struct wl_params p = {.size = WL_TINY, .seed = seed, .variant = variant};
    why[0] = '\0';
    int rc = w->run(h, &p, why, why_len);
    if (thread_insts)
        *thread_insts = functional_stats(f)->thread_insts;
    host_delete(h);
    functional_delete(f);
    backing_destroy(&store);
    return rc;
}

static void every_workload_passes_at_tiny(void **state)
{
    (void)state;
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        const struct workload *w = wl_find(cases[i].name);
        if (!w)
            fail_msg("workload %s is not registered", cases[i].name);
        assert_string_equal(w->set, "inter");
        for (uint64_t seed = 1; seed <= 2; seed++) {
            char why[256];
            uint64_t insts = 0;
            int rc = run_one(w, seed, cases[i].variant, why, sizeof why, &insts);
            if (rc != 0)
                fail_msg("%s%s%s seed %llu: check failed: %s", cases[i].name,
                         cases[i].variant ? " " : "", cases[i].variant ? cases[i].variant : "",
                         (unsigned long long)seed, why);
            /* tiny must stay cheap enough for the cycle-level model */
            assert_true(insts > 1000);
            assert_true(insts < 20000000);
            if (seed == 1)
                print_message("%-4s %-8s %10llu thread instructions\n", cases[i].name,
                              cases[i].variant ? cases[i].variant : "-",
                              (unsigned long long)insts);
        }
    }
}

static void unknown_variant_is_refused(void **state)
{
    (void)state;
    static const char *const names[] = {"bh", "cc", "cl", "dlb", "stn", "vpr", "bfs"};
    for (size_t i = 0; i < ARRAY_LEN(names); i++) {
        const struct workload *w = wl_find(names[i]);
        assert_non_null(w);
        char why[256];
        assert_int_equal(run_one(w, 1, "no-such-variant", why, sizeof why, NULL), 1);
        assert_non_null(strstr(why, "unknown variant"));
    }
}

static void same_seed_same_run(void **state)
{
    (void)state;
    static const char *const names[] = {"dlb", "vpr", "bh"};
    for (size_t i = 0; i < ARRAY_LEN(names); i++) {
        const struct workload *w = wl_find(names[i]);
        assert_non_null(w);
        char why[256];
        uint64_t a = 0, b = 0;
        assert_int_equal(run_one(w, 7, NULL, why, sizeof why, &a), 0);
        assert_int_equal(run_one(w, 7, NULL, why, sizeof why, &b), 0);
        assert_true(a == b);
    }
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
