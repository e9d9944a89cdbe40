/*
 * half.h - IEEE binary16 (f16) and bfloat16 (bf16) numbers: exact widening,
 * one correctly rounded narrowing from double, and a correctly rounded sum.
 *
 * Shared by the PTX interpreter (half-precision instructions, conversions)
 * and the atomic unit (atom.add.noftz.f16/.bf16 and their x2 forms), so that
 * every place computing on halves rounds alike. A half is its 16-bit pattern;
 * `bf` selects bfloat16.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef BASE_HALF_H
#define BASE_HALF_H

#include <stdbool.h>
#include <stdint.h>

#define HALF_NAN 0x7fffu /* the canonical NaN PTX gives for both formats */

enum half_rounding { HALF_RN, HALF_RZ, HALF_RM, HALF_RP, HALF_RNA };

static inline bool half_is_nan(uint16_t h, bool bf)
{
    return (h & 0x7fffu) > (bf ? 0x7f80u : 0x7c00u);
}

/* Flush to zero: a subnormal becomes the zero of its sign. */
static inline uint16_t half_ftz(uint16_t h, bool bf)
{
    return (h & (bf ? 0x7f80u : 0x7c00u)) ? h : (uint16_t)(h & 0x8000u);
}

/* The value of h as a float (exact: both formats widen to f32 exactly). */
float half_to_f32(uint16_t h, bool bf);

/* v rounded once to the format. Overflow gives infinity or the largest
 * finite value as the rounding direction says; a NaN gives HALF_NAN. */
uint16_t half_round(double v, bool bf, enum half_rounding rnd);

/* a + b rounded to odd in double: rounding that to a half later is one
 * correct rounding of the exact sum (see half.c). */
double half_sum_odd(double a, double b);

/* a + b rounded to nearest even, subnormals kept (PTX .noftz). */
uint16_t half_add(uint16_t a, uint16_t b, bool bf);

#endif
