/*
 * chart.h - small self-contained SVG charts for experiment reports: grouped
 * (optionally stacked) bar charts and category line charts, with axes, tick
 * labels, a title and a legend. No plotting package is needed to read them.
 *
 * Values are indexed [group][series][stack]; NaN draws nothing (a run that
 * did not happen), and the chart says so under its title when any is missing.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef REPORT_CHART_H
#define REPORT_CHART_H

#include <stdio.h>

struct chart {
    const char *title;
    const char *ylabel;
    const char *xlabel;               /* may be NULL */
    const char *const *groups;        /* x categories (apps, leases) */
    unsigned n_groups;
    const char *const *series;        /* bars within a group, or lines */
    unsigned n_series;
    const char *const *stacks;        /* stacked segments of each bar (NULL: not stacked) */
    unsigned n_stacks;                /* 1 when not stacked */
    const double *values;             /* [(g * n_series + s) * n_stacks + k] */
    double ref;                       /* a dashed horizontal line at this value (0: none) */
};

/* Bars: one cluster per group, one bar per series; colours by series, or by
 * stack segment (then each bar is labelled with its series under the axis).
 * Returns 0, or -1 if the file could not be written (message printed). */
int chart_bars_svg(const char *path, const struct chart *c);

/* Lines: x is the groups in order, one line per series (n_stacks must be 1). */
int chart_lines_svg(const char *path, const struct chart *c);

#endif
