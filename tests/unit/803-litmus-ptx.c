/*
 * 803-litmus-ptx.c - translation of litmus tests to PTX: every core test
 * either translates to a module the PTX front-end accepts or is refused with
 * a reason; the kernel keeps the exact qualifiers and placement.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "check/litmus_ptx.h"
#include "check/litmus_ref.h"
#include "ptx/ptx.h"

static struct litmus_test T;
static char err[1024];

static void load(const char *rel)
{
    char dir[512], p[1024];
    assert_int_equal(litmus_suite_dir(dir, sizeof dir), 0);
    snprintf(p, sizeof p, "%s/%s", dir, rel);
    if (litmus_parse_file(p, &T, err, sizeof err))
        fail_msg("%s", err);
}

static void check_module(const struct litmus_ptx *p, const char *what)
{
    struct ptx_module *m = ptx_module_parse(p->text, what, err, sizeof err);
    if (!m)
        fail_msg("%s\n%s", err, p->text);
    const struct ptx_kernel *k = ptx_module_kernel(m, p->kernel);
    assert_non_null(k);
    const struct ptx_kernel_info *ki = ptx_kernel_info(k);
    assert_int_equal(ki->n_params, 3 + 2 * T.n_threads); /* mem, out, warm delay; skew and
                                                           pre-warm mask per thread */
    ptx_module_free(m);
}

static void mp_translation(void **state)
{
    (void)state;
    load("Manual/MP-gpu.litmus");
    struct litmus_ptx p;
    struct litmus_ptx_opts o = {.prewarm = true};
    assert_int_equal(litmus_ptx_build(&T, &o, &p, err, sizeof err), 0);
    assert_int_equal(p.n_ctas, 1);
    assert_int_equal(p.warps_per_cta, 2);
    assert_int_equal(p.warp_of[1], 1);
    assert_int_equal(p.loc_offset[1], 128); /* a line per location */
    assert_non_null(strstr(p.text, "st.release.gpu.global.u32 [%a1], %t4;"));
    assert_non_null(strstr(p.text, "ld.acquire.gpu.global.u32 %r1, [%a1];"));
    assert_non_null(strstr(p.text, "ld.global.u32 %r2, [%a0];"));
    check_module(&p, "MP-gpu");
    litmus_ptx_free(&p);
    o.pack = true;
    o.all_lanes = true;
    assert_int_equal(litmus_ptx_build(&T, &o, &p, err, sizeof err), 0);
    assert_int_equal(p.loc_offset[1], 4);
    check_module(&p, "MP-gpu packed");
    litmus_ptx_free(&p);
}

static void placement_and_barriers(void **state)
{
    (void)state;
    struct litmus_ptx p;
    struct litmus_ptx_opts o = {0};
    load("Manual/XF-Barrier-rlx.litmus"); /* P0 in CTA 0; P1, P2 in CTA 1 */
    assert_int_equal(litmus_ptx_build(&T, &o, &p, err, sizeof err), 0);
    assert_int_equal(p.n_ctas, 2);
    assert_int_equal(p.cta_of[0], 0);
    assert_int_equal(p.cta_of[2], 1);
    assert_int_equal(p.warp_of[2], 1);
    assert_non_null(strstr(p.text, "bar.sync 1, 64;")); /* P1 and P2: two warps */
    check_module(&p, "XF");
    litmus_ptx_free(&p);
    load("Manual/PC-bar-sync-arrive.litmus");
    assert_int_equal(litmus_ptx_build(&T, &o, &p, err, sizeof err), 0);
    assert_non_null(strstr(p.text, "bar.arrive"));
    check_module(&p, "arrive");
    litmus_ptx_free(&p);
    load("Barrier/quorum1-pass.litmus"); /* count 2 of 3 arriving */
    assert_int_equal(litmus_ptx_build(&T, &o, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "late"));
    load("Manual/SB+named-bar-dyn-reg-const.litmus");
    assert_int_equal(litmus_ptx_build(&T, &o, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "run time"));
    load("Manual/Ticketlock-diff-gpu.litmus");
    assert_int_equal(litmus_ptx_build(&T, &o, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "GPUs"));
}

static void every_core_test_translates_or_says_why(void **state)
{
    (void)state;
    char dir[512], idx[1024], line[1024];
    assert_int_equal(litmus_suite_dir(dir, sizeof dir), 0);
    snprintf(idx, sizeof idx, "%s/../index.csv", dir);
    FILE *f = fopen(idx, "r");
    assert_non_null(f);
    unsigned ok = 0, refused = 0;
    while (fgets(line, sizeof line, f)) {
        size_t n = strlen(line);
        if (n < 3 || strncmp(line + n - 3, ",1\n", 3))
            continue; /* not core */
        *strchr(line, ',') = 0;
        load(line);
        struct litmus_ptx p;
        struct litmus_ptx_opts o = {.prewarm = true};
        if (litmus_ptx_build(&T, &o, &p, err, sizeof err)) {
            refused++;
            continue;
        }
        check_module(&p, line);
        litmus_ptx_free(&p);
        ok++;
    }
    fclose(f);
    assert_int_equal(ok + refused, 104);
    assert_true(ok >= 90);
    print_message("core tests: %u translate, %u refused\n", ok, refused);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(mp_translation),
        cmocka_unit_test(placement_and_barriers),
        cmocka_unit_test(every_core_test_translates_or_says_why),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
