/*
 * half.c - what add/sub/mul/fma/min/max/neg/abs/ex2/tanh on .f16, .f16x2,
 * .bf16 and .bf16x2 compute, per element (PTX ISA 9.0, half precision).
 *
 * Results are computed in double and rounded once to the format
 * (base/half.h: products of two halves are exact in double, sums are rounded
 * to odd first). For f16 fma the inexact case cannot change the result (the
 * product is then tiny beside the addend), but it takes the same path.
 * NaN results are the canonical NaN 0x7fff; neg and abs flip or clear the
 * sign bit of any value. .ftz flushes subnormal operands and results to the
 * zero of their sign; .sat clamps to [0, 1] and NaN to +0; .relu turns a
 * negative result (and -0) into +0. min/max: a NaN operand gives the other
 * one (canonical NaN when both are NaN, or with .NaN); -0 is below +0.
 * NOT MODELED: the exact bits of the hardware's ex2.approx and tanh.approx.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "ptx/half.h"

#include "ptx/ir.h"

#include <math.h>
#include <string.h>

/* min/max with PTX's NaN and signed-zero rules (see the header) */
static uint16_t min_max(bool is_max, bool bf, unsigned hb, uint16_t a, uint16_t b)
{
    uint16_t xs = (a ^ b) & 0x8000u;
    if (hb & PH_XORSIGN) {
        a &= 0x7fffu;
        b &= 0x7fffu;
    }
    bool an = half_is_nan(a, bf), bn = half_is_nan(b, bf);
    uint16_t d;
    if (an || bn) {
        if ((hb & PH_NAN) || (an && bn))
            return HALF_NAN;
        d = an ? b : a;
    } else {
        /* sign-magnitude patterns order like their values, with -0 == +0 */
        int ka = (a & 0x8000u) ? -(int)(a & 0x7fffu) : (int)a;
        int kb = (b & 0x8000u) ? -(int)(b & 0x7fffu) : (int)b;
        if (ka != kb)
            d = ((ka < kb) != is_max) ? a : b;
        else
            d = is_max ? (a & b) : (a | b); /* equal: the same bits, or +0 and -0 */
    }
    if (hb & PH_XORSIGN)
        d = (uint16_t)((d & 0x7fffu) | xs);
    return d;
}

uint16_t px_half_arith(unsigned op, bool bf, unsigned flags, unsigned hb, uint16_t a, uint16_t b,
                       uint16_t c)
{
    bool ftz = flags & PF_FTZ;
    if (ftz) {
        a = half_ftz(a, bf);
        b = half_ftz(b, bf);
        c = half_ftz(c, bf);
    }
    double x = half_to_f32(a, bf), y = half_to_f32(b, bf);
    uint16_t r;
    switch (op) {
    case PX_HNEG:
        return (uint16_t)(a ^ 0x8000u);
    case PX_HABS:
        return (uint16_t)(a & 0x7fffu);
    case PX_HMIN:
        return min_max(false, bf, hb, a, b);
    case PX_HMAX:
        return min_max(true, bf, hb, a, b);
    case PX_HADD:
        r = half_round(half_sum_odd(x, y), bf, HALF_RN);
        break;
    case PX_HSUB:
        r = half_round(half_sum_odd(x, -y), bf, HALF_RN);
        break;
    case PX_HMUL:
        r = half_round(x * y, bf, HALF_RN);
        break;
    case PX_HFMA:
        r = half_round(half_sum_odd(x * y, half_to_f32(c, bf)), bf, HALF_RN);
        break;
    case PX_HEX2:
        r = half_round(exp2(x), bf, HALF_RN);
        break;
    case PX_HTANH:
        r = half_round(tanh(x), bf, HALF_RN);
        break;
    default:
        return HALF_NAN;
    }
    if (ftz)
        r = half_ftz(r, bf);
    if (flags & PF_SAT) {
        uint16_t one = bf ? 0x3f80u : 0x3c00u;
        if (half_is_nan(r, bf) || (r & 0x8000u))
            r = 0;
        else if (r > one) /* positive patterns order like their values */
            r = one;
    }
    if ((hb & PH_RELU) && (r & 0x8000u) && !half_is_nan(r, bf))
        r = 0;
    return r;
}
