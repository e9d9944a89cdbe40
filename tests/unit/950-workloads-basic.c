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
    const char *set;
    const char *variant;
};

static const struct case_ cases[] = {
    {"vecadd", "basic", NULL},
    {"saxpy", "basic", NULL},
    {"reduce", "basic", NULL},
    {"histogram", "basic", NULL},
    {"histogram", "basic", "global"},
    {"divergence", "basic", NULL},
    {"devcall", "basic", NULL},
    {"mp", "basic", NULL},
    {"mp", "basic", "nofence"},
    {"spinlock", "basic", NULL},
    {"mutex-spin", "sync", NULL},
    {"mutex-spin", "sync", "ttas"},
    {"mutex-backoff", "sync", NULL},
    {"mutex-ticket", "sync", NULL},
    {"semaphore", "sync", NULL},
    {"barrier-tree", "sync", NULL},
    {"barrier-lockfree", "sync", NULL},
    {"counter-relaxed", "sync", NULL},
};

/* Runs one workload on a fresh functional machine; returns its verdict and
 * the warp instructions it executed. */
static int run_one(const struct workload *w, uint64_t seed, const char *variant, char *why,
                   size_t why_len, uint64_t *warp_insts)
{
    struct backing store;
    backing_init(&store);
    struct functional *f = functional_new(&store, NULL);
    struct host *h = host_new(functional_launcher(f));
    struct wl_params p = {.size = WL_TINY, .seed = seed, .variant = variant};
    why[0] = '\0';
    int rc = w->run(h, &p, why, why_len);
    if (warp_insts)
        *warp_insts = functional_stats(f)->warp_insts;
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
        assert_string_equal(w->set, cases[i].set);
        char why[256];
        uint64_t insts = 0;
        int rc = run_one(w, 1, cases[i].variant, why, sizeof why, &insts);
        if (rc != 0)
            fail_msg("%s%s%s: check failed: %s", cases[i].name, cases[i].variant ? " " : "",
                     cases[i].variant ? cases[i].variant : "", why);
        assert_true(insts > 0);
    }
}

/* EVIDENCE-OF: mp's relaxed variant is a separate kernel that still meets
 * the check on a sequentially consistent machine, with other seeds too. */
static void mp_nofence_passes_functionally(void **state)
{
    (void)state;
    const struct workload *w = wl_find("mp");
    assert_non_null(w);
    for (uint64_t seed = 2; seed < 5; seed++) {
        char why[256];
        int rc = run_one(w, seed, "nofence", why, sizeof why, NULL);
        if (rc != 0)
            fail_msg("mp nofence seed %llu: %s", (unsigned long long)seed, why);
    }
}

static void unknown_variant_is_refused(void **state)
{
    (void)state;
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        const struct workload *w = wl_find(cases[i].name);
        assert_non_null(w);
        char why[256];
        assert_int_equal(run_one(w, 1, "no-such-variant", why, sizeof why, NULL), 1);
        assert_non_null(strstr(why, "unknown variant"));
    }
}

static void same_seed_same_run(void **state)
{
    (void)state;
    static const char *const names[] = {"histogram", "mutex-ticket", "barrier-lockfree"};
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
        cmocka_unit_test(mp_nofence_passes_functionally),
        cmocka_unit_test(unknown_variant_is_refused),
        cmocka_unit_test(same_seed_same_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
