/*
 * functional-rig.h - run a registered workload at tiny size on a fresh
 * functional machine (every access performed when it issues: sequentially
 * consistent, no caches), and the checks the workload tests (950 basic and
 * sync, 960 inter-workgroup, 970 intra-workgroup) make of every workload:
 * its own check passes, an unknown variant is refused, the same seed gives
 * the same run.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef TESTS_FUNCTIONAL_RIG_H
#define TESTS_FUNCTIONAL_RIG_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "coh/getm/getm_fn.h"
#include "gpu/functional.h"
#include "host/host.h"
#include "host/launcher.h"
#include "host/workload.h"
#include "mem/backing.h"

/* What one run gave. */
struct wl_outcome {
    int rc;                        /* the workload's verdict: 0 when its check passed */
    char why[256];                 /* the reason it gave when not */
    struct functional_stats stats; /* what the machine executed */
};

/* Puts a launcher between the host and the machine: given the machine's,
 * returns the one the host is to use. */
typedef struct launcher wrap_launcher_fn(struct launcher machine, void *arg);

/* Run `w` at tiny size with `seed` and `variant` (NULL: the default) on a
 * fresh functional machine; the host goes through wrap(machine, wrap_arg)
 * when `wrap` is given. */
static inline struct wl_outcome run_functional_through(const struct workload *w, uint64_t seed,
                                                       const char *variant, wrap_launcher_fn *wrap,
                                                       void *wrap_arg)
{
    struct backing store;
    backing_init(&store);
    struct functional *f = functional_new(&store, NULL);
    functional_set_tm(f, &getm_functional_tm);
    struct launcher machine = functional_launcher(f);
    struct host *h = host_new(wrap ? wrap(machine, wrap_arg) : machine);
    struct wl_params p = {.size = WL_TINY, .seed = seed, .variant = variant};
    struct wl_outcome o = {0};
    o.rc = w->run(h, &p, o.why, sizeof o.why);
    o.stats = *functional_stats(f);
    host_delete(h);
    functional_delete(f);
    backing_destroy(&store);
    return o;
}

static inline struct wl_outcome run_functional(const struct workload *w, uint64_t seed,
                                               const char *variant)
{
    return run_functional_through(w, seed, variant, NULL, NULL);
}

/* The registered workload `name`; fails the test when there is none. */
static inline const struct workload *find_workload(const char *name)
{
    const struct workload *w = wl_find(name);
    if (!w)
        fail_msg("workload %s is not registered", name);
    return w;
}

/* Run `w` and fail the test, naming the run, when its check fails. Returns
 * what the machine executed. */
static inline struct functional_stats assert_passes(const struct workload *w, const char *variant,
                                                    uint64_t seed)
{
    struct wl_outcome o = run_functional(w, seed, variant);
    if (o.rc != 0)
        fail_msg("%s%s%s seed %llu: check failed: %s", w->name, variant ? " " : "",
                 variant ? variant : "", (unsigned long long)seed, o.why);
    return o.stats;
}

/* A variant the workload does not have is refused, with the reason. */
static inline void assert_unknown_variant_refused(const char *name)
{
    struct wl_outcome o = run_functional(find_workload(name), 1, "no-such-variant");
    assert_int_equal(o.rc, 1);
    assert_non_null(strstr(o.why, "unknown variant"));
}

/* Inputs come from the seed alone: two runs with the same seed pass and
 * execute the same instructions. */
static inline void assert_same_seed_same_run(const char *name, const char *variant)
{
    const struct workload *w = find_workload(name);
    struct wl_outcome a = run_functional(w, 7, variant);
    struct wl_outcome b = run_functional(w, 7, variant);
    assert_int_equal(a.rc, 0);
    assert_int_equal(b.rc, 0);
    assert_true(a.stats.warp_insts == b.stats.warp_insts);
    assert_true(a.stats.thread_insts == b.stats.thread_insts);
}

#endif
