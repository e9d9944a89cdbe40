/*
 * sharers.h - sharer vectors: which L1s may hold a copy of a line, kept in
 * the two metadata words of the cache line (or directory entry) that tracks
 * it, one bit per SM. Used by the directory protocols (GPU-VI, GPU-VIni, the
 * ideal reference, MESI).
 * A NULL line tracks nobody: no sharer, none other, none at all.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef COH_SHARERS_H
#define COH_SHARERS_H

#include <stdbool.h>

#include "mem/cache.h"

/* Most SMs a sharer vector can name. */
#define COH_MAX_SHARERS 128

/* proto_desc.check of the protocols that keep sharer vectors: gpu.sms within
 * COH_MAX_SHARERS (proto.c). */
struct machine_view;
const char *coh_sharers_check(const struct machine_view *c, char *why, size_t len);

static inline bool coh_sharer(const struct cache_line *d, unsigned sm)
{
    return d && (d->meta[sm / 64] >> (sm % 64) & 1);
}

static inline void coh_sharer_set(struct cache_line *d, unsigned sm)
{
    d->meta[sm / 64] |= 1ull << (sm % 64);
}

static inline void coh_sharer_clear(struct cache_line *d, unsigned sm)
{
    d->meta[sm / 64] &= ~(1ull << (sm % 64));
}

static inline bool coh_sharers_none(const struct cache_line *d)
{
    return !d || !(d->meta[0] | d->meta[1]);
}

/* Sharers other than `sm`. */
static inline bool coh_sharers_other(const struct cache_line *d, unsigned sm)
{
    if (!d)
        return false;
    uint64_t w[2] = {d->meta[0], d->meta[1]};
    w[sm / 64] &= ~(1ull << (sm % 64));
    return (w[0] | w[1]) != 0;
}

/* The lowest-numbered sharer (the vector must not be empty). */
static inline unsigned coh_sharers_first(const struct cache_line *d)
{
    return d->meta[0] ? (unsigned)__builtin_ctzll(d->meta[0])
                      : 64 + (unsigned)__builtin_ctzll(d->meta[1]);
}

#endif
