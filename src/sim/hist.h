/*
 * hist.h - a histogram with power-of-two buckets, for latencies and sizes.
 *
 * Bucket 0 holds 0; bucket k > 0 holds [2^(k-1), 2^k); the last bucket also
 * holds everything larger. Adding is a count-leading-zeros and three adds,
 * cheap enough for every memory request.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef SIM_HIST_H
#define SIM_HIST_H

#include <stdio.h>

#include "base/types.h"

#define HIST_BUCKETS 24

struct hist {
    uint64_t n, sum, max;
    uint64_t b[HIST_BUCKETS];
};

static inline void hist_add(struct hist *h, uint64_t v)
{
    unsigned k = v ? 64u - (unsigned)__builtin_clzll(v) : 0;
    h->b[k < HIST_BUCKETS ? k : HIST_BUCKETS - 1]++;
    h->n++;
    h->sum += v;
    if (v > h->max)
        h->max = v;
}

static inline void hist_merge(struct hist *d, const struct hist *s)
{
    d->n += s->n;
    d->sum += s->sum;
    d->max = s->max > d->max ? s->max : d->max;
    for (unsigned k = 0; k < HIST_BUCKETS; k++)
        d->b[k] += s->b[k];
}

/* Emit "<prefix>.count", ".sum", ".max" and one ".lt_<2^k>" per non-empty
 * bucket (".ge_<2^(B-2)>" for the last). */
static inline void hist_emit(const struct hist *h, const char *prefix,
                             void (*emit)(void *, const char *, uint64_t), void *arg)
{
    char name[192];
    snprintf(name, sizeof name, "%s.count", prefix);
    emit(arg, name, h->n);
    snprintf(name, sizeof name, "%s.sum", prefix);
    emit(arg, name, h->sum);
    snprintf(name, sizeof name, "%s.max", prefix);
    emit(arg, name, h->max);
    for (unsigned k = 0; k < HIST_BUCKETS; k++) {
        if (!h->b[k])
            continue;
        if (k + 1 < HIST_BUCKETS)
            snprintf(name, sizeof name, "%s.lt_%llu", prefix, 1ull << k);
        else
            snprintf(name, sizeof name, "%s.ge_%llu", prefix, 1ull << (k - 1));
        emit(arg, name, h->b[k]);
    }
}

#endif
