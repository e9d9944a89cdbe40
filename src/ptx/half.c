/*
 * half.c - what add/sub/mul/fma/min/max/neg/abs/ex2/tanh on .f16, .f16x2,
 * .bf16 and .bf16x2 compute, per element (PTX ISA 9.0, half precision).
 *
 * Results are computed in double and rounded once to the format. Halves widen
 * to double exactly and a product of two is exact (at most 22 significant
 * bits). A sum need not be: f16 add is (41 bits at most), but an f16 fma sum
 * can span 81 bits and a bf16 sum hundreds, and rounding it to nearest in
 * double and again to the format can create a tie the exact sum did not have.
 * So sums are rounded to odd in double: 2Sum gives the exact error, and an
 * inexact sum moves to its neighbour with an odd last bit on the side of the
 * exact value. Round-to-odd at 53 bits, then rounding to at most 51 bits, is
 * one rounding of the exact value (Boldo and Melquiond, IEEE TC 2008). For
 * f16 fma the inexact case cannot change the result (the product is then
 * tiny beside the addend), but it takes the same path.
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

/* fraction bits and exponent bias of each format; the all-ones exponent field */
#define FRAC_BITS(bf) ((bf) ? 7u : 10u)
#define BIAS(bf) ((bf) ? 127 : 15)
#define EXP_ONES(bf) ((bf) ? 0xffu : 0x1fu)

static inline uint64_t f64_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

static inline double f64_from(uint64_t u)
{
    double d;
    memcpy(&d, &u, 8);
    return d;
}

float px_half_to_f32(uint16_t h, bool bf)
{
    uint32_t u;
    if (bf) {
        u = (uint32_t)h << 16;
    } else {
        uint32_t s = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
        if (e == 0x1f) {
            u = s | 0x7f800000u | (m << 13);
        } else if (e) {
            u = s | ((e + 112) << 23) | (m << 13);
        } else if (!m) {
            u = s;
        } else {
            /* subnormal m * 2^-24: shift the leading one into the implicit bit */
            unsigned k = (unsigned)__builtin_clz(m) - 21;
            u = s | ((113 - k) << 23) | (((m << k) & 0x3ffu) << 13);
        }
    }
    float f;
    memcpy(&f, &u, 4);
    return f;
}

uint16_t px_half_round(double v, bool bf, unsigned rnd)
{
    unsigned fb = FRAC_BITS(bf);
    uint64_t inf = (uint64_t)EXP_ONES(bf) << fb;
    uint64_t u = f64_bits(v);
    uint32_t s = (uint32_t)(u >> 48) & 0x8000u;
    uint32_t ex = (uint32_t)(u >> 52) & 0x7ffu;
    uint64_t sig = u & 0xfffffffffffffull;
    if (ex == 0x7ff)
        return (uint16_t)(sig ? PX_HALF_NAN : s | inf);
    if (ex)
        sig |= 1ull << 52;
    else
        ex = 1; /* double subnormals lie far below both formats: they only round */
    if (!sig)
        return (uint16_t)s;
    /* v = sig * 2^(ex - 1075); e is its biased exponent in the format, and
     * `shift` the number of bits of sig below the format's last place there */
    int e = (int)ex - 1023 + BIAS(bf);
    unsigned shift = 52 - fb + (e < 1 ? (unsigned)(1 - e) : 0);
    uint64_t q, rem, half;
    if (shift < 64) {
        q = sig >> shift;
        rem = sig & ((1ull << shift) - 1);
        half = 1ull << (shift - 1);
    } else {
        q = 0; /* less than half the smallest subnormal, and not zero */
        rem = 1;
        half = 2;
    }
    bool neg = s != 0, inc;
    switch (rnd) {
    case RND_RZ: inc = false; break;
    case RND_RM: inc = neg && rem; break;
    case RND_RP: inc = !neg && rem; break;
    case RND_RNA: inc = rem >= half; break;
    default: inc = rem > half || (rem == half && (q & 1)); break;
    }
    q += inc;
    /* a normal q carries the implicit bit, which adds one to the exponent
     * field; a carry out of the fraction moves on to the next binade */
    uint64_t r = e < 1 ? q : ((uint64_t)(e - 1) << fb) + q;
    if (r >= inf) {
        bool to_inf = rnd == RND_RZ ? false : rnd == RND_RM ? neg : rnd == RND_RP ? !neg : true;
        r = to_inf ? inf : inf - 1;
    }
    return (uint16_t)(s | r);
}

/* a + b rounded to odd in double (see the header): the double sum if it is
 * exact, else whichever of it and its neighbour towards the exact sum has an
 * odd last bit. Infinities and NaNs pass through. Needs the host's
 * round-to-nearest mode. */
static double add_odd(double a, double b)
{
    double s = a + b;
    double bv = s - a, av = s - bv;
    double err = (a - av) + (b - bv); /* 2Sum: a + b == s + err exactly */
    if (err != 0.0 && isfinite(s)) {   /* an infinite or NaN s makes err NaN */
        uint64_t u = f64_bits(s);
        if (!(u & 1))
            u += ((err > 0) == (s > 0)) ? 1 : UINT64_MAX; /* away from or towards zero */
        s = f64_from(u);
    }
    return s;
}

/* min/max with PTX's NaN and signed-zero rules (see the header) */
static uint16_t min_max(bool is_max, bool bf, unsigned hb, uint16_t a, uint16_t b)
{
    uint16_t xs = (a ^ b) & 0x8000u;
    if (hb & PH_XORSIGN) {
        a &= 0x7fffu;
        b &= 0x7fffu;
    }
    bool an = px_half_is_nan(a, bf), bn = px_half_is_nan(b, bf);
    uint16_t d;
    if (an || bn) {
        if ((hb & PH_NAN) || (an && bn))
            return PX_HALF_NAN;
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
        a = px_half_ftz(a, bf);
        b = px_half_ftz(b, bf);
        c = px_half_ftz(c, bf);
    }
    double x = px_half_to_f32(a, bf), y = px_half_to_f32(b, bf);
    uint16_t r;
    switch (op) {
    case PX_HNEG: return (uint16_t)(a ^ 0x8000u);
    case PX_HABS: return (uint16_t)(a & 0x7fffu);
    case PX_HMIN: return min_max(false, bf, hb, a, b);
    case PX_HMAX: return min_max(true, bf, hb, a, b);
    case PX_HADD: r = px_half_round(add_odd(x, y), bf, RND_RN); break;
    case PX_HSUB: r = px_half_round(add_odd(x, -y), bf, RND_RN); break;
    case PX_HMUL: r = px_half_round(x * y, bf, RND_RN); break;
    case PX_HFMA: r = px_half_round(add_odd(x * y, px_half_to_f32(c, bf)), bf, RND_RN); break;
    case PX_HEX2: r = px_half_round(exp2(x), bf, RND_RN); break;
    case PX_HTANH: r = px_half_round(tanh(x), bf, RND_RN); break;
    default: return PX_HALF_NAN;
    }
    if (ftz)
        r = px_half_ftz(r, bf);
    if (flags & PF_SAT) {
        uint16_t one = bf ? 0x3f80u : 0x3c00u;
        if (px_half_is_nan(r, bf) || (r & 0x8000u))
            r = 0;
        else if (r > one) /* positive patterns order like their values */
            r = one;
    }
    if ((hb & PH_RELU) && (r & 0x8000u) && !px_half_is_nan(r, bf))
        r = 0;
    return r;
}
