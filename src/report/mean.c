/*
 * mean.c - harmonic and arithmetic means (mean.h).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "report/mean.h"

#include <math.h>

double mean_harmonic(const double *v, unsigned n)
{
    if (!n)
        return NAN;
    double inv = 0;
    for (unsigned i = 0; i < n; i++) {
        if (!(v[i] > 0) || isinf(v[i]))
            return NAN;
        inv += 1 / v[i];
    }
    return n / inv;
}

double mean_arith(const double *v, unsigned n)
{
    if (!n)
        return NAN;
    double s = 0;
    for (unsigned i = 0; i < n; i++)
        s += v[i];
    return s / n;
}

double mean_geometric(const double *v, unsigned n)
{
    if (!n)
        return NAN;
    double logs = 0;
    for (unsigned i = 0; i < n; i++) {
        if (!(v[i] > 0) || isinf(v[i]))
            return NAN;
        logs += log(v[i]);
    }
    return exp(logs / n);
}
