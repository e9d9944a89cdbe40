/*
 * spandex_app.c - the host side spec 003 §4.5's applications share
 * (workloads/spandex_app.h).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>

#include "base/log.h"
#include "base/rng.h"
#include "../spandex_app.h"

addr_t app_counters(struct host *h, unsigned n)
{
    addr_t a = host_malloc(h, (size_t)n * APP_FLAG_BYTES);
    host_memset(h, a, 0, (size_t)n * APP_FLAG_BYTES);
    return a;
}

int app_compare(struct host *h, const char *what, addr_t a, const int *want, size_t n, char *why,
                size_t why_len)
{
    int *got = malloc(n * sizeof *got);
    if (!got)
        panic("out of memory");
    host_memcpy_from_dev(h, got, a, n * sizeof *got);
    int rc = 0;
    for (size_t k = 0; k < n && !rc; k++)
        if (got[k] != want[k]) {
            snprintf(why, why_len, "%s[%zu]: expected %d, got %d", what, k, want[k], got[k]);
            rc = 1;
        }
    free(got);
    return rc;
}

void app_fill(struct rng *r, int *v, size_t n, int lo, unsigned span)
{
    for (size_t k = 0; k < n; k++)
        v[k] = lo + (int)rng_below(r, span);
}
