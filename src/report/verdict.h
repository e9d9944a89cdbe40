/*
 * verdict.h - how a reproduction states the distance between the paper's
 * number and gpucoh's: "close (within 5%)" or "differs: 23% lower than the
 * paper", noting when the two lie on different sides of 1.0 (a speedup that
 * became a slowdown).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef REPORT_VERDICT_H
#define REPORT_VERDICT_H

#include <stddef.h>

void report_verdict(char *buf, size_t n, double paper, double ours);

#endif
