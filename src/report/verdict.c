/*
 * verdict.c - the paper-versus-gpucoh wording (see verdict.h).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "report/verdict.h"

#include <math.h>
#include <stdio.h>

void report_verdict(char *buf, size_t n, double paper, double ours)
{
    double rel = ours / paper - 1;
    if (fabs(rel) <= 0.05)
        snprintf(buf, n, "close (within 5%%)");
    else
        snprintf(buf, n, "differs: %.0f%% %s than the paper%s", fabs(rel) * 100,
                 rel < 0 ? "lower" : "higher",
                 (paper - 1) * (ours - 1) < 0 ? "; on the other side of 1.0" : "");
}
