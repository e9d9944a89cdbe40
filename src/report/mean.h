/*
 * mean.h - the averages papers report: harmonic or geometric mean of
 * speedups, arithmetic mean of normalised traffic.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef REPORT_MEAN_H
#define REPORT_MEAN_H

/* n / sum(1/v). NaN when n is 0 or any value is not a positive number. */
double mean_harmonic(const double *v, unsigned n);
/* exp(mean(log v)): the geometric mean later papers report. NaN as for HM. */
double mean_geometric(const double *v, unsigned n);
/* sum(v) / n. NaN when n is 0 or any value is NaN. */
double mean_arith(const double *v, unsigned n);

#endif
