/*
 * 970-workloads-intra.c - the intra-workgroup workloads of the Temporal
 * Coherence and RCC studies (HSP, KMN, LPS, NDL, RG, SR, LUD) in functional
 * mode: each runs at tiny size through the host API and must pass its own
 * CPU-reference check, for more than one seed.
 *
 * Also: each is registered in the "intra" set; tiny stays within the test
 * budget (tens of thousands to a few million thread instructions); the same
 * seed executes the same instructions; an unknown variant is refused with a
 * reason; and the checks have teeth: a launcher that corrupts one word of
 * every copy back to the host makes every workload report a failure.
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
    {"hsp", NULL}, {"hsp", "aligned"}, {"kmn", NULL}, {"lps", NULL},
    {"rg", NULL},  {"sr", NULL},       {"lud", NULL}, {"ndl", NULL},
};

/* A launcher over the functional one whose copies to the host return one
 * wrong word (a high mantissa/integer bit flipped in the middle word). */
struct corrupt {
    struct launcher inner;
};

static void corrupt_run(void *obj, const struct launch *l)
{
    struct corrupt *c = obj;
    c->inner.ops->run_kernel(c->inner.obj, l);
}
static void corrupt_write(void *obj, addr_t dst, const void *src, size_t n)
{
    struct corrupt *c = obj;
    c->inner.ops->write(c->inner.obj, dst, src, n);
}
static void corrupt_read(void *obj, void *dst, addr_t src, size_t n)
{
    struct corrupt *c = obj;
    c->inner.ops->read(c->inner.obj, dst, src, n);
    if (n >= 4) {
        uint32_t word;
        size_t at = (n / 4 / 2) * 4;
        memcpy(&word, (char *)dst + at, 4);
        word ^= 0x00400000u;
        memcpy((char *)dst + at, &word, 4);
    }
}
static uint64_t corrupt_cycles(const void *obj)
{
    const struct corrupt *c = obj;
    return c->inner.ops->cycles(c->inner.obj);
}
static const struct launcher_ops corrupt_ops = {corrupt_run, corrupt_write, corrupt_read,
                                                corrupt_cycles};

/* Runs one workload at tiny size on a fresh functional machine (through the
 * corrupting launcher when asked); returns its verdict and the thread
 * instructions it executed. */
static int run_one(const struct workload *w, uint64_t seed, const char *variant, bool corrupt,
                   char *why, size_t why_len, uint64_t *thread_insts)
{
    struct backing store;
    backing_init(&store);
    struct functional *f = functional_new(&store, NULL);
    struct corrupt c = {functional_launcher(f)};
    struct host *h = host_new(corrupt ? (struct launcher){&corrupt_ops, &c} : c.inner);
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

static const struct workload *find(const char *name)
{
    const struct workload *w = wl_find(name);
    if (!w)
        fail_msg("workload %s is not registered", name);
    return w;
}

static void every_workload_passes_at_tiny(void **state)
{
    (void)state;
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        const struct workload *w = find(cases[i].name);
        assert_string_equal(w->set, "intra");
        for (uint64_t seed = 1; seed <= 2; seed++) {
            char why[256];
            uint64_t insts = 0;
            int rc = run_one(w, seed, cases[i].variant, false, why, sizeof why, &insts);
            if (rc != 0)
                fail_msg("%s%s%s seed %llu: check failed: %s", cases[i].name,
                         cases[i].variant ? " " : "", cases[i].variant ? cases[i].variant : "",
                         (unsigned long long)seed, why);
            if (insts < 10000 || insts > 5000000)
                fail_msg("%s: tiny ran %llu thread instructions, outside [1e4, 5e6]",
                         cases[i].name, (unsigned long long)insts);
        }
    }
}

static void same_seed_same_run(void **state)
{
    (void)state;
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        const struct workload *w = find(cases[i].name);
        char why[256];
        uint64_t a = 0, b = 0;
        assert_int_equal(run_one(w, 7, cases[i].variant, false, why, sizeof why, &a), 0);
        assert_int_equal(run_one(w, 7, cases[i].variant, false, why, sizeof why, &b), 0);
        assert_true(a == b);
    }
}

static void unknown_variant_is_refused(void **state)
{
    (void)state;
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        const struct workload *w = find(cases[i].name);
        char why[256];
        assert_int_equal(run_one(w, 1, "no-such-variant", false, why, sizeof why, NULL), 1);
        assert_non_null(strstr(why, "unknown variant"));
    }
}

/* A check that cannot fail proves nothing: one wrong word read back must be
 * reported, naming what was expected and what came back. */
static void a_wrong_value_is_caught(void **state)
{
    (void)state;
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        const struct workload *w = find(cases[i].name);
        char why[256];
        int rc = run_one(w, 1, cases[i].variant, true, why, sizeof why, NULL);
        if (rc != 1)
            fail_msg("%s: a corrupted result passed the check", cases[i].name);
        assert_non_null(strstr(why, "expected"));
        assert_non_null(strstr(why, "got"));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(unknown_variant_is_refused),
        cmocka_unit_test(every_workload_passes_at_tiny),
        cmocka_unit_test(same_seed_same_run),
        cmocka_unit_test(a_wrong_value_is_caught),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
