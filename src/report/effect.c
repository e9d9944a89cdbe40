/*
 * effect.c - effect ratios and their classes (effect.h).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "report/effect.h"

#include <math.h>
#include <stdio.h>

/* A stated effect smaller than this is "no effect": paper = neutral. */
#define NO_EFFECT 1e-9

struct effect effect_of(double paper, double ours, double neutral)
{
    struct effect e = {NAN, -1, EFFECT_NONE};
    if (isnan(ours) || isnan(paper))
        return e;
    double dp = paper - neutral, dq = ours - neutral;
    if (fabs(dp) < NO_EFFECT) {
        /* the paper states no effect: the distance to its number is what counts */
        e.cls =
            fabs(ours - paper) <= 0.05 * fmax(fabs(paper), NO_EFFECT) ? EFFECT_GOOD : EFFECT_OFF;
        return e;
    }
    e.ratio = dq / dp;
    e.direction = e.ratio > 0;
    e.cls = !e.direction                                      ? EFFECT_WRONG
            : e.ratio >= EFFECT_LOW && e.ratio <= EFFECT_HIGH ? EFFECT_GOOD
                                                              : EFFECT_OFF;
    return e;
}

void effect_ratio_text(char *buf, size_t n, const struct effect *e)
{
    if (isnan(e->ratio))
        snprintf(buf, n, "n/a");
    else
        snprintf(buf, n, "%.2f", e->ratio);
}

const char *effect_direction_text(const struct effect *e)
{
    return e->direction < 0 ? "n/a" : e->direction ? "\u2713" : "\u2717";
}

void effect_direction_cell(char *buf, size_t n, const struct effect *e, int width)
{
    const char *mark = effect_direction_text(e);
    int cols = e->direction < 0 ? 3 : 1;
    snprintf(buf, n, "%s%*s", mark, width > cols ? width - cols : 0, "");
}
