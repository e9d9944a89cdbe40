/*
 * 851-report-mean-claims.c - the papers' averages (harmonic and geometric
 * means of speedups, arithmetic mean of traffic) and claim expressions:
 * precedence, comparison chains, three-valued logic over unknown values,
 * the detail a claim prints, and syntax errors.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/claim_expr.h"
#include "report/mean.h"

static void harmonic_mean_as_the_paper(void **state)
{
    (void)state;
    const double v[] = {1.0, 2.0, 4.0};
    /* 3 / (1 + 0.5 + 0.25) */
    assert_float_equal(mean_harmonic(v, 3), 3.0 / 1.75, 1e-12);
    const double w[] = {2.0, 2.0};
    assert_float_equal(mean_harmonic(w, 2), 2.0, 1e-12);
    assert_true(isnan(mean_harmonic(v, 0)));
    const double bad[] = {1.0, 0.0};
    assert_true(isnan(mean_harmonic(bad, 2)));
    const double nan_in[] = {1.0, NAN};
    assert_true(isnan(mean_harmonic(nan_in, 2)));
    assert_float_equal(mean_arith(v, 3), 7.0 / 3, 1e-12);
    assert_true(isnan(mean_arith(v, 0)));
    /* (1 * 2 * 4)^(1/3) */
    assert_float_equal(mean_geometric(v, 3), 2.0, 1e-12);
    assert_true(isnan(mean_geometric(bad, 2)));
}

/* Calls answer from a tiny table: f(a) is 2, f(b) is 0.5, f(u) unknown; any
 * other function is refused at parse time. */
static int check(void *ctx, const struct cx_call *c, char *err, size_t len)
{
    (void)ctx;
    if (strcmp(c->fn, "f") || c->n_args != 1) {
        snprintf(err, len, "%s: unknown", c->text);
        return -1;
    }
    return 0;
}

static double value(void *ctx, const struct cx_call *c)
{
    (void)ctx;
    return !strcmp(c->args[0], "a") ? 2 : !strcmp(c->args[0], "tcw-fixed") ? 0.5 : NAN;
}

static const struct cx_env env = {check, value, NULL};

static double eval(const char *text, char *detail, size_t len)
{
    char err[256];
    struct cx_node *n = cx_parse(text, &env, err, sizeof err);
    if (!n)
        fail_msg("%s: %s", text, err);
    double v = cx_eval(n, &env, detail, len);
    cx_free(n);
    return v;
}

static void claims_evaluate(void **state)
{
    (void)state;
    char d[256];
    assert_float_equal(eval("1 + 2 * 3", NULL, 0), 7, 0);
    assert_float_equal(eval("-(1 + 2) / 3", NULL, 0), -1, 0);
    assert_float_equal(eval("f(a) > 1.5", d, sizeof d), 1, 0);
    assert_string_equal(d, "f(a) 2.00");
    /* a chain holds when every link does */
    assert_float_equal(eval("1 < f(a) < 3", NULL, 0), 1, 0);
    assert_float_equal(eval("1 < f(tcw-fixed) < f(a)", d, sizeof d), 0, 0);
    assert_string_equal(d, "f(tcw-fixed) 0.50, f(a) 2.00");
    assert_float_equal(eval("spread(f(a), f(tcw-fixed))", NULL, 0), 4, 0);
    assert_float_equal(eval("min(f(a), 3) == 2 and max(f(a), 3) == 3", NULL, 0), 1, 0);
    assert_float_equal(eval("not f(a) < 1", NULL, 0), 1, 0);
    /* an unknown value makes what depends on it unknown, but false and
     * anything is false, true or anything true */
    assert_true(isnan(eval("f(u) > 1", d, sizeof d)));
    assert_string_equal(d, "f(u) unknown");
    assert_true(isnan(eval("max(f(u), f(a)) > 1", NULL, 0)));
    assert_float_equal(eval("f(u) > 1 and f(a) < 1", NULL, 0), 0, 0);
    assert_float_equal(eval("f(u) > 1 or f(a) > 1", NULL, 0), 1, 0);
    assert_true(isnan(eval("f(u) > 1 and f(a) > 1", NULL, 0)));
}

static double margin(const char *text)
{
    char err[256];
    struct cx_node *n = cx_parse(text, &env, err, sizeof err);
    if (!n)
        fail_msg("%s: %s", text, err);
    double m = cx_margin(n, &env);
    cx_free(n);
    return m;
}

/* How far a claim is from holding: its sides' distance over the larger one,
 * positive where it holds; a chain's least link, and's lesser, or's greater. */
static void claims_margin(void **state)
{
    (void)state;
    assert_float_equal(margin("f(a) > 1.5"), 0.25, 1e-12); /* (2 - 1.5) / 2 */
    assert_float_equal(margin("f(a) < 1.5"), -0.25, 1e-12);
    assert_float_equal(margin("f(tcw-fixed) >= 1"), -0.5, 1e-12); /* (0.5 - 1) / 1 */
    assert_float_equal(margin("1 < f(a) < 3"), 1.0 / 3, 1e-12);   /* min(1/2, 1/3) */
    assert_float_equal(margin("f(a) == 2"), 0, 0);
    assert_float_equal(margin("f(a) == 4"), -0.5, 1e-12);
    assert_float_equal(margin("f(a) > 1.5 and f(tcw-fixed) >= 1"), -0.5, 1e-12);
    assert_float_equal(margin("f(a) > 1.5 or f(tcw-fixed) >= 1"), 0.25, 1e-12);
    assert_float_equal(margin("not f(a) > 1.5"), -0.25, 1e-12);
    assert_true(isnan(margin("f(u) > 1")));
    /* nearer to holding while still failing: a larger margin */
    assert_true(margin("f(tcw-fixed) >= 0.6") > margin("f(tcw-fixed) >= 1"));
}

static void claims_refuse_bad_text(void **state)
{
    (void)state;
    static const char *const bad[][2] = {
        {"f(a) >", "expected a number"},  {"f(a", "expected ',' or ')'"},
        {"g(a) > 1", "g(a): unknown"},    {"f > 1", "not a function call"},
        {"f(a) > 1 1", "unexpected '1'"}, {"(1 + 2", "expected ')'"},
    };
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char err[256] = "";
        assert_null(cx_parse(bad[i][0], &env, err, sizeof err));
        if (!strstr(err, bad[i][1]))
            fail_msg("'%s': got '%s', expected '%s'", bad[i][0], err, bad[i][1]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(harmonic_mean_as_the_paper),
        cmocka_unit_test(claims_evaluate),
        cmocka_unit_test(claims_margin),
        cmocka_unit_test(claims_refuse_bad_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
