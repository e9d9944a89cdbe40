/*
 * rng.h - seeded random streams (xoshiro256**), one per purpose.
 *
 * Every consumer owns its stream, seeded from (global seed, stream id), so
 * adding a random draw in one component never perturbs another's sequence.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef BASE_RNG_H
#define BASE_RNG_H

#include "base/types.h"

struct rng {
    uint64_t s[4];
};

void rng_seed(struct rng *r, uint64_t seed, uint64_t stream);
uint64_t rng_next(struct rng *r);
/* Uniform in [0, n); n > 0. */
uint64_t rng_below(struct rng *r, uint64_t n);
/* True with probability num/den. */
bool rng_chance(struct rng *r, uint64_t num, uint64_t den);

#endif
