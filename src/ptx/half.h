/*
 * half.h - IEEE binary16 (.f16) and bfloat16 (.bf16) values for the PTX
 * interpreter: exact widening, one correctly rounded narrowing from double,
 * and the element operations of the half-precision instructions.
 *
 * A half value is its 16-bit pattern; `bf` selects bfloat16. Packed .f16x2
 * and .bf16x2 registers are two such patterns, the first element in the low
 * 16 bits; callers split them and call these per element.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef PTX_HALF_H
#define PTX_HALF_H

#include <stdbool.h>
#include <stdint.h>

#define PX_HALF_NAN 0x7fffu /* the canonical NaN PTX gives for both formats */

static inline bool px_half_is_nan(uint16_t h, bool bf)
{
    return (h & 0x7fffu) > (bf ? 0x7f80u : 0x7c00u);
}

/* .ftz: a subnormal becomes the zero of its sign; other values are kept. */
static inline uint16_t px_half_ftz(uint16_t h, bool bf)
{
    return (h & (bf ? 0x7f80u : 0x7c00u)) ? h : (uint16_t)(h & 0x8000u);
}

/* The value of h as a float (exact: both formats widen to f32 exactly). */
float px_half_to_f32(uint16_t h, bool bf);

/* v rounded once to the format with rounding `rnd` (enum px_round; RND_NONE
 * is to nearest even). Overflow gives infinity or the largest finite value as
 * the rounding direction says; a NaN gives PX_HALF_NAN. */
uint16_t px_half_round(double v, bool bf, unsigned rnd);

/* One element of a half-precision instruction: op is PX_HADD .. PX_HTANH,
 * flags the instruction's PF_FTZ/PF_SAT, hb its PH_* bits; unused operands
 * are ignored. Add, sub, mul and fma are correctly rounded to nearest even;
 * ex2 and tanh round the host's double result. */
uint16_t px_half_arith(unsigned op, bool bf, unsigned flags, unsigned hb, uint16_t a, uint16_t b,
                       uint16_t c);

#endif
