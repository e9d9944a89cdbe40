/*
 * half.h - the element operations of PTX's half-precision instructions on
 * .f16 and .bf16 values (the formats themselves: base/half.h).
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

#include "base/half.h"
#include "ptx/ir.h"

/* The format's rounding for a PTX rounding modifier (RND_NONE: to nearest even). */
static inline enum half_rounding px_half_rounding(unsigned rnd)
{
    switch (rnd) {
    case RND_RZ:
        return HALF_RZ;
    case RND_RM:
        return HALF_RM;
    case RND_RP:
        return HALF_RP;
    case RND_RNA:
        return HALF_RNA;
    default:
        return HALF_RN;
    }
}

/* One element of a half-precision instruction: op is PX_HADD .. PX_HTANH,
 * flags the instruction's PF_FTZ/PF_SAT, hb its PH_* bits; unused operands
 * are ignored. Add, sub, mul and fma are correctly rounded to nearest even;
 * ex2 and tanh round the host's double result. */
uint16_t px_half_arith(unsigned op, bool bf, unsigned flags, unsigned hb, uint16_t a, uint16_t b,
                       uint16_t c);

#endif
