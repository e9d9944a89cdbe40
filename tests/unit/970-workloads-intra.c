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
#include "functional-rig.h"

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

/* wrap_launcher_fn: the corrupting launcher over the machine's; `arg` is
 * the struct corrupt that holds it. */
static struct launcher corrupting(struct launcher machine, void *arg)
{
    struct corrupt *c = arg;
    c->inner = machine;
    return (struct launcher){&corrupt_ops, c};
}

static void every_workload_passes_at_tiny(void **state)
{
    (void)state;
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        const struct workload *w = find_workload(cases[i].name);
        assert_string_equal(w->set, "intra");
        for (uint64_t seed = 1; seed <= 2; seed++) {
            uint64_t insts = assert_passes(w, cases[i].variant, seed).thread_insts;
            if (insts < 10000 || insts > 5000000)
                fail_msg("%s: tiny ran %llu thread instructions, outside [1e4, 5e6]", cases[i].name,
                         (unsigned long long)insts);
        }
    }
}

static void same_seed_same_run(void **state)
{
    (void)state;
    for (size_t i = 0; i < ARRAY_LEN(cases); i++)
        assert_same_seed_same_run(cases[i].name, cases[i].variant);
}

static void unknown_variant_is_refused(void **state)
{
    (void)state;
    for (size_t i = 0; i < ARRAY_LEN(cases); i++)
        assert_unknown_variant_refused(cases[i].name);
}

/* A check that cannot fail proves nothing: one wrong word read back must be
 * reported, naming what was expected and what came back. */
static void a_wrong_value_is_caught(void **state)
{
    (void)state;
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        struct corrupt c;
        struct wl_outcome o = run_functional_through(find_workload(cases[i].name), 1,
                                                     cases[i].variant, corrupting, &c);
        if (o.rc != 1)
            fail_msg("%s: a corrupted result passed the check", cases[i].name);
        assert_non_null(strstr(o.why, "expected"));
        assert_non_null(strstr(o.why, "got"));
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
