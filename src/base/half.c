/*
 * half.c - f16 and bf16 rounding (see half.h).
 *
 * Halves widen to double exactly and a product of two is exact (at most 22
 * significant bits). A sum need not be: an f16 add is (41 bits at most), but
 * an f16 fma sum can span 81 bits and a bf16 sum hundreds, and rounding it to
 * nearest in double and again to the format can create a tie the exact sum
 * did not have. So sums are rounded to odd in double: 2Sum gives the exact
 * error, and an inexact sum moves to its neighbour with an odd last bit on
 * the side of the exact value. Round-to-odd at 53 bits, then rounding to at
 * most 51 bits, is one rounding of the exact value (Boldo and Melquiond, IEEE
 * TC 2008).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "base/half.h"
#include "base/bits.h"

#include <math.h>
#include <string.h>

/* fraction bits and exponent bias of each format; the all-ones exponent field */
#define FRAC_BITS(bf) ((bf) ? 7u : 10u)
#define BIAS(bf)      ((bf) ? 127 : 15)
#define EXP_ONES(bf)  ((bf) ? 0xffu : 0x1fu)

float half_to_f32(uint16_t h, bool bf)
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
    return f32_from_bits(u);
}

uint16_t half_round(double v, bool bf, enum half_rounding rnd)
{
    unsigned fb = FRAC_BITS(bf);
    uint64_t inf = (uint64_t)EXP_ONES(bf) << fb;
    uint64_t u = f64_bits(v);
    uint32_t s = (uint32_t)(u >> 48) & 0x8000u;
    uint32_t ex = (uint32_t)(u >> 52) & 0x7ffu;
    uint64_t sig = u & 0xfffffffffffffull;
    if (ex == 0x7ff)
        return (uint16_t)(sig ? HALF_NAN : s | inf);
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
    case HALF_RZ:
        inc = false;
        break;
    case HALF_RM:
        inc = neg && rem;
        break;
    case HALF_RP:
        inc = !neg && rem;
        break;
    case HALF_RNA:
        inc = rem >= half;
        break;
    default:
        inc = rem > half || (rem == half && (q & 1));
        break;
    }
    q += inc;
    /* a normal q carries the implicit bit, which adds one to the exponent
     * field; a carry out of the fraction moves on to the next binade */
    uint64_t r = e < 1 ? q : ((uint64_t)(e - 1) << fb) + q;
    if (r >= inf) {
        bool to_inf = rnd == HALF_RZ ? false : rnd == HALF_RM ? neg : rnd == HALF_RP ? !neg : true;
        r = to_inf ? inf : inf - 1;
    }
    return (uint16_t)(s | r);
}

/* The double sum if it is exact, else whichever of it and its neighbour
 * towards the exact sum has an odd last bit. Infinities and NaNs pass
 * through. Needs the host's round-to-nearest mode. */
double half_sum_odd(double a, double b)
{
    double s = a + b;
    double bv = s - a, av = s - bv;
    double err = (a - av) + (b - bv); /* 2Sum: a + b == s + err exactly */
    if (err != 0.0 && isfinite(s)) {  /* an infinite or NaN s makes err NaN */
        uint64_t u = f64_bits(s);
        if (!(u & 1))
            u += ((err > 0) == (s > 0)) ? 1 : UINT64_MAX; /* away from or towards zero */
        s = f64_from_bits(u);
    }
    return s;
}

uint16_t half_add(uint16_t a, uint16_t b, bool bf)
{
    return half_round(half_sum_odd(half_to_f32(a, bf), half_to_f32(b, bf)), bf, HALF_RN);
}
