/*
 * spandex_app.h - the host side that spec 003 §4.5's applications share
 * (workloads/fcnn, lstm, lenet; implemented in workloads/fcnn/
 * spandex_app.c): their counters, the quantised activations of
 * spandex_app.cuh and the exact check of an output array.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef WORKLOADS_SPANDEX_APP_H
#define WORKLOADS_SPANDEX_APP_H

#include <stddef.h>
#include <stdint.h>

#include "host/host.h"

/* spandex_app.cuh's APP_FLAG_STRIDE: one counter per 64-byte line. */
#define APP_FLAG_BYTES 64u

/* n zeroed counters, one a line (free with host_free). */
addr_t app_counters(struct host *h, unsigned n);

/* The same quantised ReLU as spandex_app.cuh's app_relu. */
static inline int app_relu_host(int acc)
{
    int v = acc >> 7;
    return v < 0 ? 0 : (v > 127 ? 127 : v);
}

/* Compare n ints of the device's array a with want; 0 when all match, 1 with
 * "WHAT[k]: expected X, got Y" for the first difference in why. */
int app_compare(struct host *h, const char *what, addr_t a, const int *want, size_t n, char *why,
                size_t why_len);

/* Fill n ints with values in [lo, lo + span) from the stream. */
struct rng;
void app_fill(struct rng *r, int *v, size_t n, int lo, unsigned span);

#endif
