/*
 * 851-report-mean-chart.c - the paper's averages (harmonic mean of speedups,
 * arithmetic mean of traffic) and the SVG charts: well-formed, scaled to the
 * data, every label and legend entry present, missing values left out.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/sweep.h"
#include "report/chart.h"
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
}

static char *chart_text(const char *path)
{
    char *t = sweep_read_file(path);
    assert_non_null(t);
    assert_non_null(strstr(t, "<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert_non_null(strstr(t, "</svg>\n"));
    return t;
}

static unsigned count(const char *t, const char *what)
{
    unsigned n = 0;
    for (const char *p = strstr(t, what); p; p = strstr(p + 1, what))
        n++;
    return n;
}

static void grouped_and_stacked_bars(void **state)
{
    (void)state;
    char dir[] = "/tmp/gpucoh-851-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/bars.svg", dir);
    const char *groups[] = {"bh", "HM"};
    const char *series[] = {"nol1", "tcw"};
    const double vals[] = {1.0, 1.85, 1.0, NAN};
    struct chart c = {.title = "speedup <test>", .ylabel = "speedup", .groups = groups,
                      .n_groups = 2, .series = series, .n_series = 2, .n_stacks = 1,
                      .values = vals, .ref = 1};
    assert_int_equal(chart_bars_svg(path, &c), 0);
    char *t = chart_text(path);
    assert_non_null(strstr(t, "speedup &lt;test&gt;")); /* text is escaped */
    assert_non_null(strstr(t, "<title>bh tcw: 1.850</title>"));
    assert_null(strstr(t, "HM tcw:"));                  /* NaN: no bar */
    assert_non_null(strstr(t, "gaps: runs that did not produce statistics"));
    assert_int_equal(count(t, "<title>"), 3);
    /* y axis 0..2 in steps of 0.5: the largest bar (1.85) fits under the top tick */
    assert_non_null(strstr(t, ">2</text>"));
    assert_non_null(strstr(t, ">0.5</text>"));
    assert_non_null(strstr(t, "stroke-dasharray")); /* the reference line at 1 */
    free(t);

    const char *stacks[] = {"LD", "ST"};
    const double sv[] = {0.5, 0.25, 1.0, 0.0, 0.75, 0.25, 0.5, 0.5};
    struct chart s = {.title = "traffic", .ylabel = "bytes", .groups = groups, .n_groups = 2,
                      .series = series, .n_series = 2, .stacks = stacks, .n_stacks = 2,
                      .values = sv};
    assert_int_equal(chart_bars_svg(path, &s), 0);
    t = chart_text(path);
    assert_int_equal(count(t, "<rect x="), 7 + 2); /* zero segment skipped; 2 legend boxes */
    assert_non_null(strstr(t, "<title>HM tcw ST: 0.500</title>"));
    assert_int_equal(count(t, ">nol1</text>"), 2); /* each bar labelled in its group */
    free(t);
    remove(path);
    rmdir(dir);
}

static void lines_break_at_missing_points(void **state)
{
    (void)state;
    char dir[] = "/tmp/gpucoh-851-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/lines.svg", dir);
    const char *leases[] = {"0", "800", "3200"};
    const char *apps[] = {"dlb"};
    const double v[] = {3.0, NAN, 2.0};
    struct chart c = {.title = "lease", .ylabel = "speedup", .xlabel = "lease", .groups = leases,
                      .n_groups = 3, .series = apps, .n_series = 1, .n_stacks = 1, .values = v};
    assert_int_equal(chart_lines_svg(path, &c), 0);
    char *t = chart_text(path);
    assert_int_equal(count(t, "<polyline"), 2);
    assert_int_equal(count(t, "<circle"), 2);
    assert_non_null(strstr(t, "<title>dlb 0: 3.000</title>"));
    free(t);
    remove(path);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(harmonic_mean_as_the_paper),
        cmocka_unit_test(grouped_and_stacked_bars),
        cmocka_unit_test(lines_break_at_missing_points),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
