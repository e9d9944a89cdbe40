/*
 * effect.h - magnitude, not only direction: how much of a paper's effect a
 * reproduction shows. For a number stated against a neutral value (1 for a
 * ratio over a baseline: a speedup, a traffic or time ratio; 0 for a
 * statistic stated as it is), the effect ratio is (gpucoh - neutral) /
 * (paper - neutral): 1.0 a perfect reproduction, 0 no effect, negative the
 * effect in the wrong direction. For a percentage change (time 0.64, "-36%")
 * it is gpucoh's percentage over the paper's. It is undefined (n/a) where the
 * paper states no effect (paper = neutral) or gpucoh has no number.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef REPORT_EFFECT_H
#define REPORT_EFFECT_H

#include <stdbool.h>
#include <stddef.h>

/* How a reproduced number stands against the paper's (the HTML report's
 * colours: green, amber, red; grey without a number). */
enum effect_class {
    EFFECT_GOOD,  /* direction right, ratio within 0.5-2 (n/a ratio: within 5% of the paper) */
    EFFECT_OFF,   /* direction right, ratio outside 0.5-2 */
    EFFECT_WRONG, /* wrong direction, or no effect at all */
    EFFECT_NONE   /* no number */
};

struct effect {
    double ratio;  /* NaN: n/a */
    int direction; /* 1 the paper's, 0 not (or no effect), -1 n/a */
    enum effect_class cls;
};

#define EFFECT_LOW  0.5 /* an effect ratio outside [EFFECT_LOW, EFFECT_HIGH] is a miss */
#define EFFECT_HIGH 2.0

struct effect effect_of(double paper, double ours, double neutral);

/* A miss: the wrong direction, or the right one at a ratio outside 0.5-2. */
static inline bool effect_miss(const struct effect *e)
{
    return e->cls == EFFECT_OFF || e->cls == EFFECT_WRONG;
}

/* "0.63", "-1.40" or "n/a"; the direction as a mark: "✓", "✗" or "n/a". */
void effect_ratio_text(char *buf, size_t n, const struct effect *e);
const char *effect_direction_text(const struct effect *e);
/* The mark padded with spaces to `width` columns ("✓" is one column, three
 * bytes), for text tables. */
void effect_direction_cell(char *buf, size_t n, const struct effect *e, int width);

#endif
