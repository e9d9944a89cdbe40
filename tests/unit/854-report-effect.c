/*
 * 854-report-effect.c - effect ratios (report/effect.h): (gpucoh - 1) /
 * (paper - 1) for a ratio over a baseline, gpucoh / paper for a statistic
 * stated as it is; 1 a perfect reproduction, 0 no effect, negative the wrong
 * direction, n/a where the paper states no effect or gpucoh has no number;
 * and the classes the reports colour (right direction within 0.5-2, outside
 * it, wrong direction).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/effect.h"

static void ratio_over_a_baseline(void **state)
{
    (void)state;
    /* TC-Weak 1.85x NO-L1 in the paper, 1.17x here: 0.17 / 0.85 of the effect */
    struct effect e = effect_of(1.85, 1.17, 1);
    assert_float_equal(e.ratio, 0.2, 1e-12);
    assert_int_equal(e.direction, 1);
    assert_int_equal(e.cls, EFFECT_OFF);
    /* exactly the paper's: 1.0 */
    e = effect_of(1.28, 1.28, 1);
    assert_float_equal(e.ratio, 1.0, 1e-12);
    assert_int_equal(e.cls, EFFECT_GOOD);
    /* twice the paper's effect is still within 0.5-2; a bit more is not */
    assert_int_equal(effect_of(1.2, 1.4, 1).cls, EFFECT_GOOD);
    assert_int_equal(effect_of(1.2, 1.41, 1).cls, EFFECT_OFF);
    assert_int_equal(effect_of(1.2, 1.1, 1).cls, EFFECT_GOOD);
    assert_int_equal(effect_of(1.2, 1.09, 1).cls, EFFECT_OFF);
    /* a percentage reduction: time 0.64 (-36%) in the paper, 0.82 (-18%) here */
    e = effect_of(0.64, 0.82, 1);
    assert_float_equal(e.ratio, 0.5, 1e-12);
    assert_int_equal(e.direction, 1);
    assert_int_equal(e.cls, EFFECT_GOOD);
}

static void wrong_direction_is_negative(void **state)
{
    (void)state;
    /* TC-Weak 23% faster than MESI in the paper, 0.64x here */
    struct effect e = effect_of(1.23, 0.64, 1);
    assert_float_equal(e.ratio, -0.36 / 0.23, 1e-12);
    assert_true(e.ratio < 0);
    assert_int_equal(e.direction, 0);
    assert_int_equal(e.cls, EFFECT_WRONG);
    assert_string_equal(effect_direction_text(&e), "\u2717");
    char buf[16];
    effect_ratio_text(buf, sizeof buf, &e);
    assert_string_equal(buf, "-1.57");
    /* no effect at all is not the paper's direction */
    e = effect_of(1.5, 1.0, 1);
    assert_float_equal(e.ratio, 0, 1e-12);
    assert_int_equal(e.direction, 0);
    assert_int_equal(e.cls, EFFECT_WRONG);
}

static void undefined_where_the_paper_states_no_effect(void **state)
{
    (void)state;
    char buf[16];
    /* type-aware SC "very close to RMO": 1.0 */
    struct effect e = effect_of(1.0, 1.03, 1);
    assert_true(isnan(e.ratio));
    assert_int_equal(e.direction, -1);
    effect_ratio_text(buf, sizeof buf, &e);
    assert_string_equal(buf, "n/a");
    assert_string_equal(effect_direction_text(&e), "n/a");
    assert_int_equal(e.cls, EFFECT_GOOD); /* within 5% of the paper's 1.0 */
    assert_int_equal(effect_of(1.0, 1.3, 1).cls, EFFECT_OFF);
    assert_false(effect_miss(&e));
    /* no number: n/a, and not a miss either (it is not built or did not run) */
    e = effect_of(1.85, NAN, 1);
    assert_true(isnan(e.ratio));
    assert_int_equal(e.cls, EFFECT_NONE);
    assert_false(effect_miss(&e));
}

static void statistic_stated_as_it_is(void **state)
{
    (void)state;
    /* a value: metric against 0: gpucoh / paper */
    struct effect e = effect_of(40.0, 30.0, 0);
    assert_float_equal(e.ratio, 0.75, 1e-12);
    assert_int_equal(e.cls, EFFECT_GOOD);
    e = effect_of(40.0, 10.0, 0);
    assert_float_equal(e.ratio, 0.25, 1e-12);
    assert_true(effect_miss(&e));
    assert_true(isnan(effect_of(0.0, 3.0, 0).ratio));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ratio_over_a_baseline),
        cmocka_unit_test(wrong_direction_is_negative),
        cmocka_unit_test(undefined_where_the_paper_states_no_effect),
        cmocka_unit_test(statistic_stated_as_it_is),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
