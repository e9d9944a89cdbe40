/*
 * 804-litmus-functional.c - end to end: litmus tests translated to PTX and
 * run in functional mode, which is sequentially consistent at instruction
 * granularity, so every observed outcome must be SC-allowed; conditions are
 * evaluated on the values that came back from simulated memory; a forbidden
 * outcome is caught as a failure; a test beyond the oracle's limits runs
 * unjudged (UNKNOWN).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "check/litmus_run.h"
#include "gpu/functional.h"

static struct litmus_test T;
static char err[1024];
static struct backing store;
static struct functional *fn;

static int setup(void **state)
{
    (void)state;
    backing_init(&store);
    fn = functional_new(&store, NULL);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    functional_delete(fn);
    backing_destroy(&store);
    return 0;
}

static const struct litmus_run_opts opts = {
    .iterations = 24, .seed = 7, .max_skew = 40, .warm_delay = 8, .ptx = {.prewarm = true}};

static void run_suite(const char *rel, const struct litmus_run_opts *o, struct litmus_result *r)
{
    char dir[512], p[1024];
    assert_int_equal(litmus_suite_dir(dir, sizeof dir), 0);
    snprintf(p, sizeof p, "%s/%s", dir, rel);
    if (litmus_parse_file(p, &T, err, sizeof err))
        fail_msg("%s", err);
    struct litmus_refs *refs = litmus_refs_load(err, sizeof err);
    assert_non_null(refs);
    struct litmus_ref ref;
    litmus_refs_lookup(refs, p, &ref);
    litmus_refs_free(refs);
    if (litmus_run(&T, &ref, "functional", functional_launcher(fn), o, r, err, sizeof err))
        fail_msg("%s", err);
}

/* Every observed outcome SC-allowed; hits = iterations whose outcome has C. */
static void check_sc_run(const struct litmus_result *r)
{
    if (r->status != LITMUS_PASS)
        fail_msg("%s: %s %s", r->test->path, litmus_status_names[r->status], r->reason);
    assert_string_equal(r->model, "sc");
    uint64_t total = 0, hits = 0;
    for (unsigned i = 0; i < r->n_hist; i++) {
        assert_true(r->hist[i].sc_allowed);
        assert_int_equal(r->hist[i].cond, litmus_cond_holds(r->test, r->hist[i].values));
        total += r->hist[i].count;
        if (r->hist[i].cond)
            hits += r->hist[i].count;
    }
    assert_int_equal(total, r->iterations);
    assert_int_equal(hits, r->hits);
    assert_int_equal(r->iterations, opts.iterations);
}

static void message_passing(void **state)
{
    (void)state;
    struct litmus_result r;
    run_suite("Manual/MP-gpu.litmus", &opts, &r);
    check_sc_run(&r);
    assert_int_equal(r.hits, 0); /* flag without data never */
    /* the location values came back: x == 1 and y == 1 in every outcome */
    for (unsigned i = 0; i < r.n_hist; i++) {
        assert_int_equal(r.hist[i].values[2], 1);
        assert_int_equal(r.hist[i].values[3], 1);
    }
    litmus_result_free(&r);
}

static void several_shapes(void **state)
{
    (void)state;
    static const char *const tests[] = {
        "Manual/SB-weak.litmus",
        "Manual/LB+NoThinAir-register.litmus",
        "Manual/Atom-plus-location_.litmus",
        "Manual/SL-cas-minus.litmus",
        "Manual/Ticketlock-same-gpu.litmus",
        "Manual/XF-Barrier-rlx.litmus",
        "Manual/SB+twice-bars.litmus",
        "Manual/PC-bar-sync-arrive.litmus",
        "Manual/SB+named-bar-reg-diff.litmus",
        "Barrier/quorum1-fail.litmus",
        "Manual/Red-minus-location_.litmus",
        "Manual/MP-3-transitive.litmus",
    };
    for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++) {
        struct litmus_result r;
        run_suite(tests[i], &opts, &r);
        check_sc_run(&r);
        litmus_result_free(&r);
    }
}

static void other_modes(void **state)
{
    (void)state;
    struct litmus_run_opts o = opts;
    o.ptx.all_lanes = true;
    o.ptx.pack = true;
    o.ptx.prewarm = false;
    struct litmus_result r;
    run_suite("Manual/Ticketlock-same-gpu.litmus", &o, &r);
    check_sc_run(&r);
    litmus_result_free(&r);
    run_suite("Manual/Atom-plus-location_.litmus", &o, &r);
    check_sc_run(&r);
    litmus_result_free(&r);
    /* all lanes with the pre-warm: the mask it reads must not take the
     * register that holds the atomics' broadcast slot (a misaligned access) */
    o.ptx.prewarm = true;
    o.ptx.pack = false;
    run_suite("Manual/Atom-minus-location_.litmus", &o, &r);
    check_sc_run(&r);
    litmus_result_free(&r);
}

static void same_seed_same_histogram(void **state)
{
    (void)state;
    struct litmus_result a, b;
    run_suite("Manual/SB-weak.litmus", &opts, &a);
    run_suite("Manual/SB-weak.litmus", &opts, &b);
    assert_int_equal(a.n_hist, b.n_hist);
    for (unsigned i = 0; i < a.n_hist; i++)
        assert_int_equal(a.hist[i].count, b.hist[i].count);
    litmus_result_free(&a);
    litmus_result_free(&b);
}

static void wrong_reference_verdict_fails(void **state)
{
    (void)state;
    /* SB with the clause turned around: ~exists (both see the other's
     * store). The model allows that outcome, so the verdict is 0; a reference
     * table saying 1 disagrees with the oracle, and that is a FAIL of its own
     * (a bug in one of the two), named, before anything runs */
    const char *text = "PTX SB-inverted\n{ x=0; y=0; }\n"
                       " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                       " st.weak x, 1   | st.weak y, 1   ;\n"
                       " ld.weak r1, y  | ld.weak r2, x  ;\n"
                       "~exists (P0:r1 == 1 /\\ P1:r2 == 1)";
    assert_int_equal(litmus_parse(text, "inverted.litmus", &T, err, sizeof err), 0);
    struct litmus_ref ref = {.verdict = 1, .verdict6 = -1, .liveness = -1, .core = -1};
    struct litmus_run_opts o = opts;
    o.iterations = 64;
    o.max_skew = 4;
    struct litmus_result r;
    assert_int_equal(
        litmus_run(&T, &ref, "ptx-model-check", functional_launcher(fn), &o, &r, err, sizeof err),
        0);
    assert_string_equal(r.model, "ptx");
    assert_int_equal(r.verdict, 0);
    assert_true(r.ref_disagrees);
    assert_int_equal(r.status, LITMUS_FAIL);
    assert_non_null(strstr(r.reason, "disagrees with the reference verdict 1"));
    litmus_result_free(&r);
    /* with the right verdict it runs, and SC reaches the allowed outcome */
    ref.verdict = 0;
    assert_int_equal(
        litmus_run(&T, &ref, "ptx-model-check", functional_launcher(fn), &o, &r, err, sizeof err),
        0);
    assert_int_equal(r.status, LITMUS_PASS);
    assert_true(r.hits > 0);
    litmus_result_free(&r);
    /* the same test judged by SC (the model named, not the protocol's) */
    o.model = "sc";
    assert_int_equal(
        litmus_run(&T, &ref, "ptx-model-check", functional_launcher(fn), &o, &r, err, sizeof err),
        0);
    assert_string_equal(r.model, "sc");
    assert_int_equal(r.status, LITMUS_PASS);
    assert_int_equal(r.ref_verdict, -1);
    litmus_result_free(&r);
}

/* A test beyond the oracle's limits (a loop past the unroll bound) is not
 * refused: it runs, its outcomes are recorded unjudged, status UNKNOWN. */
static void beyond_the_oracle_still_runs(void **state)
{
    (void)state;
    static const char text[] = "PTX counter\n{ x=0; }\n"
                               " P0@cta 0,gpu 0 ;\n"
                               " LC00: ;\n"
                               " atom.relaxed.gpu.add r0, x, 1 ;\n"
                               " bne r0, 20, LC00 ;\n"
                               "exists (x == 21)\n";
    assert_int_equal(litmus_parse(text, "counter.litmus", &T, err, sizeof err), 0);
    struct litmus_ref ref = {.verdict = -1, .verdict6 = -1, .liveness = -1, .core = -1};
    struct litmus_run_opts o = opts;
    o.iterations = 3;
    o.unroll = 4;
    struct litmus_result r;
    if (litmus_run(&T, &ref, "functional", functional_launcher(fn), &o, &r, err, sizeof err))
        fail_msg("refused: %s", err);
    assert_int_equal(r.status, LITMUS_UNKNOWN);
    assert_true(r.unjudged);
    assert_non_null(strstr(r.reason, "oracle limit: counter.litmus:6:"));
    assert_int_equal(r.iterations, 3);
    assert_int_equal(r.n_hist, 1);
    assert_int_equal(r.hits, 3); /* x ends 21, read back from simulated memory */
    assert_false(r.hist[0].forbidden);
    assert_true(r.hist[0].sc_allowed);
    litmus_result_free(&r);
}

static void skips_are_not_passes(void **state)
{
    (void)state;
    struct litmus_result r;
    run_suite("Barrier/quorum2-hang.litmus", &opts, &r);
    assert_int_equal(r.status, LITMUS_SKIP);
    assert_int_equal(r.iterations, 0);
    litmus_result_free(&r);
    run_suite("Nvidia/proxy/Proxy-MP-Alias+diffProxy-aliasFence+proxyFence-correctOrder.litmus",
              &opts, &r);
    assert_int_equal(r.status, LITMUS_SKIP);
    assert_non_null(strstr(r.reason, "prox"));
    litmus_result_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(message_passing),
        cmocka_unit_test(several_shapes),
        cmocka_unit_test(other_modes),
        cmocka_unit_test(beyond_the_oracle_still_runs),
        cmocka_unit_test(same_seed_same_histogram),
        cmocka_unit_test(wrong_reference_verdict_fails),
        cmocka_unit_test(skips_are_not_passes),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
