/*
 * exec_alu.c - the register-to-register instructions of the PTX
 * interpreter: the value helpers (float bits, rounding, saturation,
 * conversions, comparisons, bit-field ops), the special registers, the
 * arithmetic on 32-lane rows specialised by type (exec_alu), setp and set,
 * and the half-precision ops (element arithmetic in half.c). Called from
 * step() in exec.c; nothing here touches memory or the SIMT stack.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "ptx/exec_int.h"

#include "ptx/half.h"

#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ value helpers */

/* A register's float views (base/bits.h reinterprets). */
static inline float f32_of(uint64_t v)
{
    return f32_from_bits((uint32_t)v);
}

static inline uint64_t bits_f32(float f)
{
    return f32_bits(f);
}

static inline double f64_of(uint64_t v)
{
    return f64_from_bits(v);
}

static inline uint64_t bits_f64(double d)
{
    return f64_bits(d);
}

static int round_mode(unsigned r)
{
    switch (r) {
    case RND_RZ:
        return FE_TOWARDZERO;
    case RND_RM:
        return FE_DOWNWARD;
    case RND_RP:
        return FE_UPWARD;
    default:
        return FE_TONEAREST;
    }
}

static inline float ftz32(float f)
{
    return fpclassify(f) == FP_SUBNORMAL ? copysignf(0.0f, f) : f;
}

static inline float sat32(float f)
{
    return f > 0.0f ? (f < 1.0f ? f : 1.0f) : 0.0f; /* NaN -> 0 */
}

static inline double sat64(double d)
{
    return d > 0.0 ? (d < 1.0 ? d : 1.0) : 0.0;
}

/* float to integer with PTX saturation: NaN -> 0, clamp to the range */
static uint64_t float_to_int(double v, unsigned t)
{
    unsigned b = px_type_bytes(t);
    if (isnan(v))
        return 0;
    if (px_type_signed(t)) {
        double lo = -ldexp(1.0, (int)b * 8 - 1), hi = ldexp(1.0, (int)b * 8 - 1);
        if (v <= lo)
            return trunc_to((uint64_t)(int64_t)lo, b);
        if (v >= hi)
            return b == 8 ? (uint64_t)INT64_MAX : trunc_to((uint64_t)(int64_t)hi - 1, b);
        return trunc_to((uint64_t)(int64_t)v, b);
    }
    double hi = ldexp(1.0, (int)b * 8);
    if (v <= 0)
        return 0;
    if (v >= hi)
        return b == 8 ? UINT64_MAX : (1ull << (b * 8)) - 1;
    return (uint64_t)v;
}

static double round_integral(double v, unsigned r)
{
    switch (r) {
    case RND_RZ:
        return trunc(v);
    case RND_RM:
        return floor(v);
    case RND_RP:
        return ceil(v);
    default:
        return nearbyint(v);
    }
}

static float round_integral_f(float v, unsigned r)
{
    switch (r) {
    case RND_RZ:
        return truncf(v);
    case RND_RM:
        return floorf(v);
    case RND_RP:
        return ceilf(v);
    default:
        return nearbyintf(v);
    }
}

/* cvt: one value, given source bits, to destination bits */
static uint64_t cvt_one(const struct px_inst *i, uint64_t a)
{
    unsigned dt = i->type, st = i->type2;
    bool df = px_type_float(dt), sf = px_type_float(st);
    unsigned db = px_type_bytes(dt);
    bool sat = i->flags & PF_SAT;
    if (!df && !sf) {
        unsigned sb = px_type_bytes(st);
        bool ss = px_type_signed(st);
        if (sat) {
            int64_t sv = ss ? sext(a, sb) : 0;
            uint64_t uv = trunc_to(a, sb);
            if (px_type_signed(dt)) {
                int64_t lo = db == 8 ? INT64_MIN : -(1ll << (db * 8 - 1));
                int64_t hi = db == 8 ? INT64_MAX : (1ll << (db * 8 - 1)) - 1;
                if (ss)
                    sv = sv < lo ? lo : sv > hi ? hi : sv;
                else
                    sv = uv > (uint64_t)hi ? hi : (int64_t)uv;
                return (uint64_t)sv;
            }
            uint64_t hi = db == 8 ? UINT64_MAX : (1ull << (db * 8)) - 1;
            if (ss)
                return sv < 0 ? 0 : (uint64_t)sv > hi ? hi : (uint64_t)sv;
            return uv > hi ? hi : uv;
        }
        uint64_t v = ss ? (uint64_t)sext(a, sb) : trunc_to(a, sb);
        return extend(v, dt);
    }
    if (sf) {
        double v;
        float vf = 0;
        bool is32 = st != PT_F64;
        if (st == PT_F64)
            v = f64_of(a);
        else {
            vf = st == PT_F32 ? f32_of(a) : half_to_f32((uint16_t)a, st == PT_BF16);
            v = vf;
        }
        if (!df) {
            v = round_integral(v, i->mod);
            return extend(float_to_int(v, dt), dt);
        }
        bool dh = dt == PT_F16 || dt == PT_BF16;
        if (i->flags & PF_INTRND) {
            if (dt == PT_F32 && is32) {
                float r = round_integral_f(vf, i->mod);
                if (i->flags & PF_FTZ)
                    r = ftz32(r);
                return bits_f32(sat ? sat32(r) : r);
            }
            double r = round_integral(v, i->mod);
            if (sat)
                r = sat64(r);
            if (dh) /* an integral value of a half is a half: no rounding */
                return half_round(r, dt == PT_BF16, HALF_RN);
            return dt == PT_F32 ? bits_f32((float)r) : bits_f64(r);
        }
        if (dt == PT_F64)
            return bits_f64(sat ? sat64(v) : v);
        if (dh) /* one rounding from the exact source value, in the cvt's mode */
            return half_round(sat ? sat64(v) : v, dt == PT_BF16, px_half_rounding(i->mod));
        float r;
        if (st == PT_F64 && i->mod > RND_RN) {
            int old = fegetround();
            fesetround(round_mode(i->mod));
            volatile double vv = v;
            r = (float)vv;
            fesetround(old);
        } else {
            r = (float)v;
        }
        if (sat)
            r = sat32(r);
        if (i->flags & PF_FTZ)
            r = ftz32(r);
        return bits_f32(r);
    }
    /* integer to float */
    unsigned sb = px_type_bytes(st);
    int old = 0;
    bool dir = i->mod > RND_RN;
    if (dir) {
        old = fegetround();
        fesetround(round_mode(i->mod));
    }
    uint64_t out;
    if (dt == PT_F64) {
        volatile double d = px_type_signed(st) ? (double)sext(a, sb) : (double)trunc_to(a, sb);
        out = bits_f64(sat ? sat64(d) : d);
    } else if (dt == PT_F32) {
        volatile float f = px_type_signed(st) ? (float)sext(a, sb) : (float)trunc_to(a, sb);
        out = bits_f32(sat ? sat32(f) : f);
    } else {
        /* to double in the same mode, then to the half: rounding twice to
         * nearest is exact enough (53 >= 2 x 11 + 2 bits), twice in one
         * direction is one rounding in that direction */
        volatile double d = px_type_signed(st) ? (double)sext(a, sb) : (double)trunc_to(a, sb);
        out = half_round(sat ? sat64(d) : d, dt == PT_BF16, px_half_rounding(i->mod));
    }
    if (dir)
        fesetround(old);
    return out;
}

static bool cmp_int(unsigned cmp, uint64_t a, uint64_t b, unsigned t)
{
    unsigned by = px_type_bytes(t);
    int64_t sa = sext(a, by), sb = sext(b, by);
    uint64_t ua = trunc_to(a, by), ub = trunc_to(b, by);
    bool s = px_type_signed(t);
    switch (cmp) {
    case CMP_EQ:
        return ua == ub;
    case CMP_NE:
        return ua != ub;
    case CMP_LT:
        return s ? sa < sb : ua < ub;
    case CMP_LE:
        return s ? sa <= sb : ua <= ub;
    case CMP_GT:
        return s ? sa > sb : ua > ub;
    case CMP_GE:
        return s ? sa >= sb : ua >= ub;
    case CMP_LO:
        return ua < ub;
    case CMP_LS:
        return ua <= ub;
    case CMP_HI:
        return ua > ub;
    case CMP_HS:
        return ua >= ub;
    default:
        return false;
    }
}

static bool cmp_float(unsigned cmp, double a, double b)
{
    bool un = isnan(a) || isnan(b);
    switch (cmp) {
    case CMP_EQ:
        return !un && a == b;
    case CMP_NE:
        return !un && a != b;
    case CMP_LT:
        return !un && a < b;
    case CMP_LE:
        return !un && a <= b;
    case CMP_GT:
        return !un && a > b;
    case CMP_GE:
        return !un && a >= b;
    case CMP_EQU:
        return un || a == b;
    case CMP_NEU:
        return un || a != b;
    case CMP_LTU:
        return un || a < b;
    case CMP_LEU:
        return un || a <= b;
    case CMP_GTU:
        return un || a > b;
    case CMP_GEU:
        return un || a >= b;
    case CMP_NUM:
        return !un;
    case CMP_NAN:
        return un;
    default:
        return false;
    }
}

static inline uint32_t bool_combine(unsigned bop, uint32_t x, uint32_t c)
{
    switch (bop) {
    case BOP_AND:
        return x & c;
    case BOP_OR:
        return x | c;
    case BOP_XOR:
        return x ^ c;
    default:
        return x;
    }
}

static uint64_t bfe(uint64_t a, uint32_t pos, uint32_t len, unsigned t)
{
    unsigned msb = px_type_bytes(t) * 8 - 1;
    pos &= 0xff;
    len &= 0xff;
    bool sbit = false;
    if (px_type_signed(t) && len)
        sbit = (a >> (pos + len - 1 > msb ? msb : pos + len - 1)) & 1;
    uint64_t d = 0;
    for (unsigned k = 0; k <= msb; k++) {
        bool bit = (k < len && pos + k <= msb) ? (a >> (pos + k)) & 1 : sbit;
        d |= (uint64_t)bit << k;
    }
    return d;
}

static uint64_t bfi(uint64_t a, uint64_t b, uint32_t pos, uint32_t len, unsigned t)
{
    unsigned msb = px_type_bytes(t) * 8 - 1;
    pos &= 0xff;
    len &= 0xff;
    uint64_t d = b;
    for (unsigned k = 0; k < len && pos + k <= msb; k++) {
        uint64_t bit = (a >> k) & 1;
        d = (d & ~(1ull << (pos + k))) | (bit << (pos + k));
    }
    return trunc_to(d, msb / 8 + 1);
}

static uint32_t prmt(uint32_t a, uint32_t b, uint32_t c)
{
    uint64_t t = ((uint64_t)b << 32) | a;
    uint32_t d = 0;
    for (unsigned n = 0; n < 4; n++) {
        unsigned sel = (c >> (4 * n)) & 0xf;
        uint32_t byte = (uint32_t)(t >> (8 * (sel & 7))) & 0xff;
        if (sel & 8)
            byte = (byte & 0x80) ? 0xff : 0;
        d |= byte << (8 * n);
    }
    return d;
}

static uint32_t brev32(uint32_t x)
{
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
    x = ((x >> 8) & 0x00ff00ffu) | ((x & 0x00ff00ffu) << 8);
    return (x >> 16) | (x << 16);
}

static uint64_t sreg_value(const struct ptx_warp *w, unsigned sr, unsigned l,
                           const struct ptx_env *env)
{
    const struct ptx_cta *c = w->c;
    switch (sr) {
    case SR_TID_X:
        return w->tid[0][l];
    case SR_TID_Y:
        return w->tid[1][l];
    case SR_TID_Z:
        return w->tid[2][l];
    case SR_NTID_X:
        return c->ntid.x;
    case SR_NTID_Y:
        return c->ntid.y;
    case SR_NTID_Z:
        return c->ntid.z;
    case SR_CTAID_X:
        return c->ctaid.x;
    case SR_CTAID_Y:
        return c->ctaid.y;
    case SR_CTAID_Z:
        return c->ctaid.z;
    case SR_NCTAID_X:
        return c->nctaid.x;
    case SR_NCTAID_Y:
        return c->nctaid.y;
    case SR_NCTAID_Z:
        return c->nctaid.z;
    case SR_LANEID:
        return l;
    case SR_WARPID:
        return env->warpid;
    case SR_NWARPID:
        return 64;
    case SR_SMID:
        return env->smid;
    case SR_NSMID:
        return env->nsmid;
    case SR_CLOCK:
        return (uint32_t)env->clock;
    case SR_CLOCK_HI:
        return (uint32_t)(env->clock >> 32);
    case SR_CLOCK64:
        return env->clock;
    case SR_GLOBALTIMER:
        return env->globaltimer_ns;
    case SR_GLOBALTIMER_LO:
        return (uint32_t)env->globaltimer_ns;
    case SR_GLOBALTIMER_HI:
        return (uint32_t)(env->globaltimer_ns >> 32);
    case SR_LANEMASK_EQ:
        return 1u << l;
    case SR_LANEMASK_LT:
        return (1u << l) - 1;
    case SR_LANEMASK_LE:
        return (uint32_t)((2ull << l) - 1);
    case SR_LANEMASK_GT:
        return ~(uint32_t)((2ull << l) - 1);
    case SR_LANEMASK_GE:
        return ~((1u << l) - 1);
    case SR_DYN_SMEM:
        return c->dyn_bytes;
    case SR_TOTAL_SMEM:
        return c->shmem_bytes;
    case SR_GRIDID:
        return 0;
    default:
        return 0;
    }
}

/* Arithmetic on 32-lane rows, specialised by type. */
/* Full warps whose destination row is not a source row take a loop over
 * restrict-qualified rows, which the compiler may vectorise. Rows are either
 * the same row or disjoint, so the check makes restrict truthful. */
#define NOALIAS_FULL (active == 0xffffffffu && D != A && D != B)

#define INT_BIN(EXPR32, EXPR64, EXPR16)                                                            \
    do {                                                                                           \
        if (by == 4 && NOALIAS_FULL) {                                                             \
            uint64_t *restrict d_ = D;                                                             \
            const uint64_t *restrict a_ = A, *restrict b_ = B;                                     \
            for (unsigned l = 0; l < 32; l++) {                                                    \
                uint32_t a = (uint32_t)a_[l], b = (uint32_t)b_[l];                                 \
                d_[l] = (uint32_t)(EXPR32);                                                        \
            }                                                                                      \
        } else if (by == 4) {                                                                      \
            LANES(uint32_t a = (uint32_t)A[l]; uint32_t b = (uint32_t)B[l];                        \
                  D[l] = (uint32_t)(EXPR32));                                                      \
        } else if (by == 8 && NOALIAS_FULL) {                                                      \
            uint64_t *restrict d_ = D;                                                             \
            const uint64_t *restrict a_ = A, *restrict b_ = B;                                     \
            for (unsigned l = 0; l < 32; l++) {                                                    \
                uint64_t a = a_[l], b = b_[l];                                                     \
                d_[l] = (EXPR64);                                                                  \
            }                                                                                      \
        } else if (by == 8) {                                                                      \
            LANES(uint64_t a = A[l]; uint64_t b = B[l]; D[l] = (EXPR64));                          \
        } else {                                                                                   \
            LANES(uint16_t a = (uint16_t)A[l]; uint16_t b = (uint16_t)B[l];                        \
                  D[l] = (uint16_t)(EXPR16));                                                      \
        }                                                                                          \
    } while (0)

#define F_BIN(EXPR32, EXPR64)                                                                      \
    do {                                                                                           \
        if (t == PT_F32 && NOALIAS_FULL) {                                                         \
            uint64_t *restrict d_ = D;                                                             \
            const uint64_t *restrict a_ = A, *restrict b_ = B;                                     \
            for (unsigned l = 0; l < 32; l++) {                                                    \
                float a = f32_of(a_[l]), b = f32_of(b_[l]);                                        \
                d_[l] = bits_f32(EXPR32);                                                          \
            }                                                                                      \
        } else if (t == PT_F32) {                                                                  \
            LANES(float a = f32_of(A[l]); float b = f32_of(B[l]); D[l] = bits_f32(EXPR32));        \
        } else {                                                                                   \
            LANES(double a = f64_of(A[l]); double b = f64_of(B[l]); D[l] = bits_f64(EXPR64));      \
        }                                                                                          \
    } while (0)

/* fma.f32 over a row. Where the host has an FMA instruction a clone of the
 * loop built for it is picked at run time (the C library's fmaf uses the same
 * instruction there; both round once, so the bits are the same); elsewhere
 * fmaf lane by lane. All 32 lanes are computed into a local row (inactive
 * lanes' bits only set floating-point flags, which nothing reads), so the
 * loop vectorises whatever rows D aliases, then the active lanes are kept. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target("avx2,fma"))) static void fma_row_f32_hw(uint64_t *D, const uint64_t *A,
                                                               const uint64_t *B, const uint64_t *C,
                                                               uint32_t active)
{
    uint64_t t[32];
    for (unsigned l = 0; l < 32; l++)
        t[l] = bits_f32(__builtin_fmaf(f32_of(A[l]), f32_of(B[l]), f32_of(C[l])));
    if (active == 0xffffffffu)
        memcpy(D, t, sizeof t);
    else
        for (uint32_t m_ = active; m_; m_ &= m_ - 1)
            D[__builtin_ctz(m_)] = t[__builtin_ctz(m_)];
}
#define PX_HW_FMA() (__builtin_cpu_supports("fma") && __builtin_cpu_supports("avx2"))
#else
#define fma_row_f32_hw(D, A, B, C, active) ((void)0)
#define PX_HW_FMA()                        0
#endif

static void fma_row_f32(uint64_t *D, const uint64_t *A, const uint64_t *B, const uint64_t *C,
                        uint32_t active)
{
    if (PX_HW_FMA()) {
        fma_row_f32_hw(D, A, B, C, active);
        return;
    }
    LANES(D[l] = bits_f32(fmaf(f32_of(A[l]), f32_of(B[l]), f32_of(C[l]))));
}

static void float_post(uint64_t *D, uint32_t active, const struct px_inst *i)
{
    if (i->type == PT_F32) {
        if (i->flags & PF_FTZ)
            LANES(D[l] = bits_f32(ftz32(f32_of(D[l]))));
        if (i->flags & PF_SAT)
            LANES(D[l] = bits_f32(sat32(f32_of(D[l]))));
    } else if (i->flags & PF_SAT) {
        LANES(D[l] = bits_f64(sat64(f64_of(D[l]))));
    }
}

/* mul.hi and mad.hi: the high half of the double-width product. */
static int alu_high_half(struct ptx_warp *w, const struct px_inst *i, uint32_t active, uint64_t *D,
                         const uint64_t *A, const uint64_t *B, const uint64_t *C, unsigned by,
                         bool sg, char *err, size_t errlen)
{
    switch (i->op) {
    case PX_MUL_HI:
        if (by == 4 && sg)
            LANES(D[l] = (uint32_t)(((int64_t)(int32_t)A[l] * (int32_t)B[l]) >> 32));
        else if (by == 4)
            LANES(D[l] = (uint32_t)(((uint64_t)(uint32_t)A[l] * (uint32_t)B[l]) >> 32));
        else if (by == 8 && sg)
            LANES(D[l] = (uint64_t)(((__int128)(int64_t)A[l] * (int64_t)B[l]) >> 64));
        else if (by == 8)
            LANES(D[l] = (uint64_t)(((unsigned __int128)A[l] * B[l]) >> 64));
        else if (sg)
            LANES(D[l] = (uint16_t)(((int32_t)(int16_t)A[l] * (int16_t)B[l]) >> 16));
        else
            LANES(D[l] = (uint16_t)(((uint32_t)(uint16_t)A[l] * (uint16_t)B[l]) >> 16));
        break;
    case PX_MAD_HI:
        if (by == 4 && sg)
            LANES(D[l] = (uint32_t)((uint32_t)(((int64_t)(int32_t)A[l] * (int32_t)B[l]) >> 32) +
                                    (uint32_t)C[l]));
        else if (by == 4)
            LANES(D[l] = (uint32_t)((uint32_t)(((uint64_t)(uint32_t)A[l] * (uint32_t)B[l]) >> 32) +
                                    (uint32_t)C[l]));
        else if (by == 8 && sg)
            LANES(D[l] = (uint64_t)(((__int128)(int64_t)A[l] * (int64_t)B[l]) >> 64) + C[l]);
        else if (by == 8)
            LANES(D[l] = (uint64_t)(((unsigned __int128)A[l] * B[l]) >> 64) + C[l]);
        else {
            snprintf(err, errlen, "%s:%u: mad.hi on 16-bit types is not supported", w->m->filename,
                     i->line);
            return -1;
        }
        break;
    default:
        break;
    }
    return 0;
}

/* div and rem, integer and floating point. */
static void alu_div_rem(const struct px_inst *i, uint32_t active, uint64_t *D, const uint64_t *A,
                        const uint64_t *B, unsigned t, unsigned by, bool sg, bool fl)
{
    switch (i->op) {
    case PX_DIV:
        if (fl)
            F_BIN(a / b, a / b);
        else if (sg && by == 4)
            LANES(int32_t a = (int32_t)A[l]; int32_t b = (int32_t)B[l];
                  D[l] = (uint32_t)(b == 0                        ? -1
                                    : (a == INT32_MIN && b == -1) ? a
                                                                  : a / b));
        else if (sg && by == 8)
            LANES(int64_t a = (int64_t)A[l]; int64_t b = (int64_t)B[l];
                  D[l] = (uint64_t)(b == 0                        ? -1
                                    : (a == INT64_MIN && b == -1) ? a
                                                                  : a / b));
        else if (sg)
            LANES(int16_t a = (int16_t)A[l]; int16_t b = (int16_t)B[l];
                  D[l] = (uint16_t)(b == 0 ? -1 : a / b));
        else
            INT_BIN(b ? a / b : 0xffffffffu, b ? a / b : UINT64_MAX, b ? a / b : 0xffff);
        break;
    case PX_REM:
        if (sg && by == 4)
            LANES(int32_t a = (int32_t)A[l]; int32_t b = (int32_t)B[l];
                  D[l] = (uint32_t)(b == 0      ? a
                                    : (b == -1) ? 0
                                                : a % b));
        else if (sg && by == 8)
            LANES(int64_t a = (int64_t)A[l]; int64_t b = (int64_t)B[l];
                  D[l] = (uint64_t)(b == 0      ? a
                                    : (b == -1) ? 0
                                                : a % b));
        else if (sg)
            LANES(int16_t a = (int16_t)A[l]; int16_t b = (int16_t)B[l];
                  D[l] = (uint16_t)(b == 0 ? a : a % b));
        else
            INT_BIN(b ? a % b : a, b ? a % b : a, b ? a % b : a);
        break;
    default:
        break;
    }
}

/* min and max, integer and floating point. */
static void alu_min_max(const struct px_inst *i, uint32_t active, uint64_t *D, const uint64_t *A,
                        const uint64_t *B, unsigned t, unsigned by, bool sg)
{
    switch (i->op) {
    case PX_MIN:
    case PX_MAX: {
        bool mx = i->op == PX_MAX;
        /* PTX orders +0.0 above -0.0, which fminf/fmaxf leave open: two
         * zeros give -0 for min when either is -0, +0 for max when either is */
        if (t == PT_F32)
            LANES(float a = f32_of(A[l]); float b = f32_of(B[l]);
                  D[l] = (a == 0.0f && b == 0.0f) ? (uint32_t)(mx ? A[l] & B[l] : A[l] | B[l])
                                                  : bits_f32(mx ? fmaxf(a, b) : fminf(a, b)));
        else if (t == PT_F64)
            LANES(double a = f64_of(A[l]); double b = f64_of(B[l]);
                  D[l] = (a == 0.0 && b == 0.0) ? (mx ? A[l] & B[l] : A[l] | B[l])
                                                : bits_f64(mx ? fmax(a, b) : fmin(a, b)));
        else if (sg)
            LANES(int64_t a = sext(A[l], by); int64_t b = sext(B[l], by);
                  D[l] = trunc_to((uint64_t)(mx ? (a > b ? a : b) : (a < b ? a : b)), by));
        else
            LANES(uint64_t a = trunc_to(A[l], by); uint64_t b = trunc_to(B[l], by);
                  D[l] = mx ? (a > b ? a : b) : (a < b ? a : b));
        break;
    }
    default:
        break;
    }
}

/* abs and neg, integer and floating point. */
static void alu_abs_neg(const struct px_inst *i, uint32_t active, uint64_t *D, const uint64_t *A,
                        unsigned t, unsigned by)
{
    switch (i->op) {
    case PX_ABS:
        if (t == PT_F32)
            LANES(D[l] = A[l] & 0x7fffffffu);
        else if (t == PT_F64)
            LANES(D[l] = A[l] & 0x7fffffffffffffffull);
        else
            LANES(int64_t a = sext(A[l], by); D[l] = trunc_to((uint64_t)(a < 0 ? -a : a), by));
        break;
    case PX_NEG:
        if (t == PT_F32)
            LANES(D[l] = (A[l] ^ 0x80000000u) & 0xffffffffu);
        else if (t == PT_F64)
            LANES(D[l] = A[l] ^ 0x8000000000000000ull);
        else
            LANES(D[l] = trunc_to(-A[l], by));
        break;
    default:
        break;
    }
}

/* Bit manipulation: popc, clz, brev, bfe, bfi, prmt and the funnel shifts. */
static void alu_bits(struct ptx_warp *w, const struct px_inst *i, uint32_t active, uint64_t *D,
                     const uint64_t *A, const uint64_t *B, const uint64_t *C, unsigned t,
                     unsigned by)
{
    switch (i->op) {
    case PX_POPC:
        LANES(D[l] = (uint32_t)__builtin_popcountll(trunc_to(A[l], by)));
        break;
    case PX_CLZ:
        LANES(uint64_t a = trunc_to(A[l], by);
              D[l] = a ? (uint32_t)__builtin_clzll(a) - (64 - by * 8) : by * 8);
        break;
    case PX_BREV:
        if (by == 4)
            LANES(D[l] = brev32((uint32_t)A[l]));
        else
            LANES(D[l] = ((uint64_t)brev32((uint32_t)A[l]) << 32) | brev32((uint32_t)(A[l] >> 32)));
        break;
    case PX_BFE:
        LANES(D[l] = bfe(A[l], (uint32_t)B[l], (uint32_t)C[l], t));
        break;
    case PX_BFI: {
        const uint64_t *E = row(w, &i->s[3]);
        LANES(D[l] = bfi(A[l], B[l], (uint32_t)C[l], (uint32_t)E[l], t));
        break;
    }
    case PX_PRMT:
        LANES(D[l] = prmt((uint32_t)A[l], (uint32_t)B[l], (uint32_t)C[l]));
        break;
    case PX_SHF_L:
    case PX_SHF_R: {
        bool clamp = i->flags & PF_SHIFT_CLAMP, left = i->op == PX_SHF_L;
        LANES(uint32_t n = (uint32_t)C[l]; n = clamp ? (n > 32 ? 32 : n) : (n & 31);
              uint64_t v = ((uint64_t)(uint32_t)B[l] << 32) | (uint32_t)A[l];
              D[l] = left ? (uint32_t)((v << n) >> 32) : (uint32_t)(v >> n));
        break;
    }
    default:
        break;
    }
}

/* copysign and the special functions (sqrt, rcp, rsqrt, ex2, lg2, sin, cos, tanh). */
static void alu_special(const struct px_inst *i, uint32_t active, uint64_t *D, const uint64_t *A,
                        const uint64_t *B, unsigned t)
{
    switch (i->op) {
    case PX_COPYSIGN:
        if (t == PT_F32)
            LANES(D[l] = bits_f32(copysignf(f32_of(B[l]), f32_of(A[l]))));
        else
            LANES(D[l] = bits_f64(copysign(f64_of(B[l]), f64_of(A[l]))));
        break;
    case PX_SQRT:
        if (t == PT_F32)
            LANES(D[l] = bits_f32(sqrtf(f32_of(A[l]))));
        else
            LANES(D[l] = bits_f64(sqrt(f64_of(A[l]))));
        break;
    case PX_RCP:
        if (t == PT_F32)
            LANES(D[l] = bits_f32(1.0f / f32_of(A[l])));
        else
            LANES(D[l] = bits_f64(1.0 / f64_of(A[l])));
        break;
    case PX_RSQRT:
        if (t == PT_F32)
            LANES(D[l] = bits_f32(1.0f / sqrtf(f32_of(A[l]))));
        else
            LANES(D[l] = bits_f64(1.0 / sqrt(f64_of(A[l]))));
        break;
    case PX_EX2:
        if (t == PT_F32)
            LANES(D[l] = bits_f32(exp2f(f32_of(A[l]))));
        else
            LANES(D[l] = bits_f64(exp2(f64_of(A[l]))));
        break;
    case PX_LG2:
        if (t == PT_F32)
            LANES(D[l] = bits_f32(log2f(f32_of(A[l]))));
        else
            LANES(D[l] = bits_f64(log2(f64_of(A[l]))));
        break;
    case PX_SIN:
        if (t == PT_F32)
            LANES(D[l] = bits_f32(sinf(f32_of(A[l]))));
        else
            LANES(D[l] = bits_f64(sin(f64_of(A[l]))));
        break;
    case PX_COS:
        if (t == PT_F32)
            LANES(D[l] = bits_f32(cosf(f32_of(A[l]))));
        else
            LANES(D[l] = bits_f64(cos(f64_of(A[l]))));
        break;
    case PX_TANH:
        if (t == PT_F32)
            LANES(D[l] = bits_f32(tanhf(f32_of(A[l]))));
        else
            LANES(D[l] = bits_f64(tanh(f64_of(A[l]))));
        break;
    default:
        break;
    }
}

/* selp and slct: a source chosen per lane. */
static void alu_select(struct ptx_warp *w, const struct px_inst *i, uint32_t active, uint64_t *D,
                       const uint64_t *A, const uint64_t *B, const uint64_t *C)
{
    switch (i->op) {
    case PX_SELP: {
        uint32_t p = pred_val(w, &i->s[2]);
        LANES(D[l] = ((p >> l) & 1) ? A[l] : B[l]);
        break;
    }
    case PX_SLCT:
        if (i->type2 == PT_F32)
            LANES(D[l] = f32_of(C[l]) >= 0.0f ? A[l] : B[l]);
        else
            LANES(D[l] = (int32_t)C[l] >= 0 ? A[l] : B[l]);
        break;
    default:
        break;
    }
}

/* mov between a vector of registers and one wider register. */
static void alu_pack(struct ptx_warp *w, const struct px_inst *i, uint32_t active, uint64_t *D,
                     const uint64_t *A, unsigned by)
{
    switch (i->op) {
    case PX_MOV_PACK: {
        unsigned n = i->n_src, eb = by / n;
        LANES(uint64_t v = 0; for (unsigned k = 0; k < n; k++) v |=
                              trunc_to(row(w, &i->s[k])[l], eb) << (8 * eb * k);
              D[l] = v);
        break;
    }
    case PX_MOV_UNPACK: {
        unsigned n = i->n_dst, eb = by / n;
        for (unsigned k = 0; k < n; k++) {
            uint64_t *Dk = w->r + (size_t)i->d[k].idx * 32;
            if (i->d[k].kind != OK_REG || Dk == A)
                continue; /* a sink '_'; or the source, written last so it is read first */
            LANES(Dk[l] = trunc_to(A[l] >> (8 * eb * k), eb));
        }
        for (unsigned k = 0; k < n; k++) {
            uint64_t *Dk = w->r + (size_t)i->d[k].idx * 32;
            if (i->d[k].kind == OK_REG && Dk == A)
                LANES(Dk[l] = trunc_to(A[l] >> (8 * eb * k), eb));
        }
        break;
    }
    default:
        break;
    }
}

/* cvt between types (i->bop: the conversion). */
static void alu_cvt(const struct px_inst *i, uint32_t active, uint64_t *D, const uint64_t *A)
{
    switch (i->bop) {
    case CV_F32_S32:
        LANES(D[l] = bits_f32((float)(int32_t)A[l]));
        break;
    case CV_F32_U32:
        LANES(D[l] = bits_f32((float)(uint32_t)A[l]));
        break;
    case CV_S32_F32_RZ:
        LANES(float f = f32_of(A[l]); D[l] = (f > -2147483648.0f && f < 2147483648.0f)
                                                 ? (uint32_t)(int32_t)f
                                                 : cvt_one(i, A[l]));
        break;
    case CV_S32_F32_RN:
        LANES(float f = f32_of(A[l]); D[l] = (f > -2147483648.0f && f < 2147483648.0f)
                                                 ? (uint32_t)(int32_t)nearbyintf(f)
                                                 : cvt_one(i, A[l]));
        break;
    case CV_ZEXT32:
        LANES(D[l] = (uint32_t)A[l]);
        break;
    case CV_SEXT32:
        LANES(D[l] = (uint64_t)(int64_t)(int32_t)A[l]);
        break;
    case CV_TRUNC32:
        LANES(D[l] = (uint32_t)A[l]);
        break;
    case CV_F64_F32:
        LANES(D[l] = bits_f64((double)f32_of(A[l])));
        break;
    case CV_F32_F64_RN:
        LANES(D[l] = bits_f32((float)f64_of(A[l])));
        break;
    case CV_F64_S32:
        LANES(D[l] = bits_f64((double)(int32_t)A[l]));
        break;
    case CV_F64_U32:
        LANES(D[l] = bits_f64((double)(uint32_t)A[l]));
        break;
    default:
        LANES(D[l] = cvt_one(i, A[l]));
        break;
    }
}

/* cvta between generic and state-space addresses. */
static void alu_cvta(const struct px_inst *i, uint32_t active, uint64_t *D, const uint64_t *A,
                     unsigned by)
{
    switch (i->op) {
    case PX_CVTA_FROM: {
        uint64_t base = i->space == SP_SHARED  ? PTX_SHARED_WINDOW
                        : i->space == SP_LOCAL ? PTX_LOCAL_WINDOW
                                               : 0;
        LANES(D[l] = trunc_to(A[l] + base, by));
        break;
    }
    case PX_CVTA_TO: {
        uint64_t base = i->space == SP_SHARED  ? PTX_SHARED_WINDOW
                        : i->space == SP_LOCAL ? PTX_LOCAL_WINDOW
                                               : 0;
        LANES(D[l] = trunc_to(A[l] - base, by));
        break;
    }
    default:
        break;
    }
}

int exec_alu(struct ptx_warp *w, const struct px_inst *i, uint32_t active,
             const struct ptx_env *env, char *err, size_t errlen)
{
    unsigned t = i->type;
    unsigned by = px_type_bytes(t);
    bool sg = px_type_signed(t);
    uint64_t *D = w->r + (size_t)i->d[0].idx * 32;
    const uint64_t *A = row(w, &i->s[0]);
    const uint64_t *B = row(w, &i->s[1]);
    const uint64_t *C = row(w, &i->s[2]);
    bool fl = t == PT_F32 || t == PT_F64;
    int oldr = 0;
    bool dir = fl && i->mod > RND_RN && !(i->flags & PF_APPROX);
    if (dir) {
        oldr = fegetround();
        fesetround(round_mode(i->mod));
    }
    switch (i->op) {
    case PX_ADD:
        if (fl)
            F_BIN(a + b, a + b);
        else if ((i->flags & PF_SAT) && by == 4)
            LANES(int64_t s = (int64_t)(int32_t)A[l] + (int32_t)B[l];
                  D[l] = (uint32_t)(s > INT32_MAX   ? INT32_MAX
                                    : s < INT32_MIN ? INT32_MIN
                                                    : s));
        else
            INT_BIN(a + b, a + b, a + b);
        break;
    case PX_SUB:
        if (fl)
            F_BIN(a - b, a - b);
        else if ((i->flags & PF_SAT) && by == 4)
            LANES(int64_t s = (int64_t)(int32_t)A[l] - (int32_t)B[l];
                  D[l] = (uint32_t)(s > INT32_MAX   ? INT32_MAX
                                    : s < INT32_MIN ? INT32_MIN
                                                    : s));
        else
            INT_BIN(a - b, a - b, a - b);
        break;
    case PX_MUL:
        F_BIN(a * b, a * b);
        break;
    case PX_MUL_LO:
        INT_BIN(a * b, a * b, a * b);
        break;
    case PX_MUL_HI:
        if (alu_high_half(w, i, active, D, A, B, C, by, sg, err, errlen))
            return -1;
        break;
    case PX_MUL_WIDE:
        if (by == 4 && sg)
            LANES(D[l] = (uint64_t)((int64_t)(int32_t)A[l] * (int32_t)B[l]));
        else if (by == 4)
            LANES(D[l] = (uint64_t)(uint32_t)A[l] * (uint32_t)B[l]);
        else if (sg)
            LANES(D[l] = (uint32_t)((int32_t)(int16_t)A[l] * (int16_t)B[l]));
        else
            LANES(D[l] = (uint32_t)((uint32_t)(uint16_t)A[l] * (uint16_t)B[l]));
        break;
    case PX_MAD_LO:
        if (by == 4)
            LANES(D[l] = (uint32_t)((uint32_t)A[l] * (uint32_t)B[l] + (uint32_t)C[l]));
        else if (by == 8)
            LANES(D[l] = A[l] * B[l] + C[l]);
        else
            LANES(D[l] = (uint16_t)(A[l] * B[l] + C[l]));
        break;
    case PX_MAD_HI:
        if (alu_high_half(w, i, active, D, A, B, C, by, sg, err, errlen))
            return -1;
        break;
    case PX_MAD_WIDE:
        if (by == 4 && sg)
            LANES(D[l] = (uint64_t)((int64_t)(int32_t)A[l] * (int32_t)B[l]) + C[l]);
        else if (by == 4)
            LANES(D[l] = (uint64_t)(uint32_t)A[l] * (uint32_t)B[l] + C[l]);
        else if (sg)
            LANES(D[l] = (uint32_t)((int32_t)(int16_t)A[l] * (int16_t)B[l] + (uint32_t)C[l]));
        else
            LANES(D[l] = (uint32_t)((uint32_t)(uint16_t)A[l] * (uint16_t)B[l] + (uint32_t)C[l]));
        break;
    case PX_FMA:
        if (t == PT_F32)
            fma_row_f32(D, A, B, C, active);
        else
            LANES(D[l] = bits_f64(fma(f64_of(A[l]), f64_of(B[l]), f64_of(C[l]))));
        break;
    case PX_DIV:
    case PX_REM:
        alu_div_rem(i, active, D, A, B, t, by, sg, fl);
        break;
    case PX_MIN:
    case PX_MAX:
        alu_min_max(i, active, D, A, B, t, by, sg);
        break;
    case PX_ABS:
    case PX_NEG:
        alu_abs_neg(i, active, D, A, t, by);
        break;
    case PX_AND:
        INT_BIN(a & b, a & b, a & b);
        break;
    case PX_OR:
        INT_BIN(a | b, a | b, a | b);
        break;
    case PX_XOR:
        INT_BIN(a ^ b, a ^ b, a ^ b);
        break;
    case PX_NOT:
        LANES(D[l] = trunc_to(~A[l], by));
        break;
    case PX_CNOT:
        LANES(D[l] = trunc_to(A[l], by) == 0);
        break;
    case PX_SHL:
        LANES(uint32_t s = (uint32_t)B[l]; D[l] = s >= by * 8 ? 0 : trunc_to(A[l] << s, by));
        break;
    case PX_SHR:
        if (sg)
            LANES(uint32_t s = (uint32_t)B[l]; int64_t a = sext(A[l], by);
                  D[l] = trunc_to((uint64_t)(a >> (s >= by * 8 ? by * 8 - 1 : s)), by));
        else
            LANES(uint32_t s = (uint32_t)B[l]; D[l] = s >= by * 8 ? 0 : trunc_to(A[l], by) >> s);
        break;
    case PX_POPC:
    case PX_CLZ:
    case PX_BREV:
    case PX_BFE:
    case PX_BFI:
    case PX_PRMT:
    case PX_SHF_L:
    case PX_SHF_R:
        alu_bits(w, i, active, D, A, B, C, t, by);
        break;
    case PX_COPYSIGN:
    case PX_SQRT:
    case PX_RCP:
    case PX_RSQRT:
    case PX_EX2:
    case PX_LG2:
    case PX_SIN:
    case PX_COS:
    case PX_TANH:
        alu_special(i, active, D, A, B, t);
        break;
    case PX_SELP:
    case PX_SLCT:
        alu_select(w, i, active, D, A, B, C);
        break;
    case PX_MOV:
        LANES(D[l] = A[l]);
        break;
    case PX_MOV_PACK:
    case PX_MOV_UNPACK:
        alu_pack(w, i, active, D, A, by);
        break;
    case PX_MOV_SREG:
        LANES(D[l] = sreg_value(w, i->mod, l, env));
        break;
    case PX_MOV_FRAME:
        LANES(D[l] = w->frame_base + (uint64_t)i->off);
        break;
    case PX_MOV_DYNSHM:
        LANES(D[l] = w->c->dynshm_base + (uint64_t)i->off);
        break;
    case PX_CVT:
        alu_cvt(i, active, D, A);
        break;
    case PX_CVTA_FROM:
    case PX_CVTA_TO:
        alu_cvta(i, active, D, A, by);
        break;
    default:
        if (dir)
            fesetround(oldr);
        snprintf(err, errlen, "%s:%u: internal: op %u reached the ALU", w->m->filename, i->line,
                 i->op);
        return -1;
    }
    if (dir)
        fesetround(oldr);
    if (fl && (i->flags & (PF_FTZ | PF_SAT)) && i->op != PX_CVT && i->op != PX_MOV &&
        i->op != PX_SELP && i->op != PX_ABS && i->op != PX_NEG)
        float_post(D, active, i);
    return 0;
}

void exec_setp(struct ptx_warp *w, const struct px_inst *i, uint32_t active)
{
    const uint64_t *A = row(w, &i->s[0]);
    const uint64_t *B = row(w, &i->s[1]);
    unsigned t = i->type, cmp = i->mod;
    uint32_t r = 0;
    if (t == PT_F32) {
        LANES(r |= (uint32_t)cmp_float(cmp, f32_of(A[l]), f32_of(B[l])) << l);
    } else if (t == PT_F64) {
        LANES(r |= (uint32_t)cmp_float(cmp, f64_of(A[l]), f64_of(B[l])) << l);
    } else if (t == PT_S32 && cmp <= CMP_GE) {
        /* the most common form, kept tight */
        LANES(int32_t a = (int32_t)A[l]; int32_t b = (int32_t)B[l];
              bool v = cmp == CMP_EQ   ? a == b
                       : cmp == CMP_NE ? a != b
                       : cmp == CMP_LT ? a < b
                       : cmp == CMP_LE ? a <= b
                       : cmp == CMP_GT ? a > b
                                       : a >= b;
              r |= (uint32_t)v << l);
    } else {
        LANES(r |= (uint32_t)cmp_int(cmp, A[l], B[l], t) << l);
    }
    uint32_t c = i->bop ? pred_val(w, &i->s[2]) : 0;
    uint32_t p = bool_combine(i->bop, r, c), q = bool_combine(i->bop, ~r, c);
    uint32_t *P = &w->p[i->d[0].idx];
    *P = (*P & ~active) | (p & active);
    if (i->n_dst > 1) {
        uint32_t *Q = &w->p[i->d[1].idx];
        *Q = (*Q & ~active) | (q & active);
    }
}

/* ---- half precision: .f16 .f16x2 .bf16 .bf16x2 (element semantics in half.c) ---- */

static inline bool type_bf(unsigned t)
{
    return t == PT_BF16 || t == PT_BF16X2;
}

static inline bool type_x2(unsigned t)
{
    return t == PT_F16X2 || t == PT_BF16X2;
}

static inline bool cmp_half(unsigned cmp, bool bf, bool ftz, uint16_t a, uint16_t b)
{
    if (ftz) {
        a = half_ftz(a, bf);
        b = half_ftz(b, bf);
    }
    return cmp_float(cmp, half_to_f32(a, bf), half_to_f32(b, bf));
}

/* cvt.frnd{.relu}{.satfinite}.{f16x2,bf16x2}.f32 of one element */
static uint16_t cvt_half_elem(float f, bool bf, unsigned rnd, unsigned hb)
{
    uint16_t r = half_round(f, bf, px_half_rounding(rnd)), inf = bf ? 0x7f80u : 0x7c00u;
    if ((hb & PH_SATFIN) && (r & 0x7fffu) == inf)
        r = (uint16_t)(r - 1); /* the largest finite value of the same sign */
    if ((hb & PH_RELU) && (r & 0x8000u) && !half_is_nan(r, bf))
        r = 0;
    return r;
}

/* add/sub/mul/fma/min/max/neg/abs/ex2/tanh on halves, and the x2 cvt pack.
 * Packed registers are two independent elements, the first in the low half. */
void exec_half(struct ptx_warp *w, const struct px_inst *i, uint32_t active)
{
    unsigned t = i->type, op = i->op, fl = i->flags, hb = i->bop;
    bool bf = type_bf(t);
    uint64_t *D = w->r + (size_t)i->d[0].idx * 32;
    const uint64_t *A = row(w, &i->s[0]), *B = row(w, &i->s[1]), *C = row(w, &i->s[2]);
    if (op == PX_CVT_PACK) {
        LANES(uint64_t a = A[l], b = B[l];
              D[l] = (uint64_t)cvt_half_elem(f32_of(a), bf, i->mod, hb) << 16 |
                     cvt_half_elem(f32_of(b), bf, i->mod, hb));
    } else if (type_x2(t)) {
        LANES(uint64_t a = A[l], b = B[l], c = C[l];
              uint64_t lo = px_half_arith(op, bf, fl, hb, (uint16_t)a, (uint16_t)b, (uint16_t)c);
              uint64_t hi = px_half_arith(op, bf, fl, hb, (uint16_t)(a >> 16), (uint16_t)(b >> 16),
                                          (uint16_t)(c >> 16));
              D[l] = hi << 16 | lo);
    } else {
        LANES(D[l] = px_half_arith(op, bf, fl, hb, (uint16_t)A[l], (uint16_t)B[l], (uint16_t)C[l]));
    }
}

/* Per-lane compare masks of a setp/set on halves: lo = the (first) element,
 * hi = the second element of packed operands. */
static void half_cmp_masks(const struct ptx_warp *w, const struct px_inst *i, unsigned t,
                           uint32_t active, uint32_t *lo, uint32_t *hi)
{
    const uint64_t *A = row(w, &i->s[0]), *B = row(w, &i->s[1]);
    bool bf = type_bf(t), ftz = i->flags & PF_FTZ;
    unsigned cmp = i->mod;
    uint32_t rl = 0, rh = 0;
    if (type_x2(t))
        LANES(rl |= (uint32_t)cmp_half(cmp, bf, ftz, (uint16_t)A[l], (uint16_t)B[l]) << l;
              rh |= (uint32_t)cmp_half(cmp, bf, ftz, (uint16_t)(A[l] >> 16), (uint16_t)(B[l] >> 16))
                    << l);
    else
        LANES(rl |= (uint32_t)cmp_half(cmp, bf, ftz, (uint16_t)A[l], (uint16_t)B[l]) << l);
    *lo = rl;
    *hi = rh;
}

/* setp on halves. Scalar: p = the compare, q = its complement (as setp on
 * other types). Packed: p = the low elements' compare, q = the high ones'. */
void exec_hsetp(struct ptx_warp *w, const struct px_inst *i, uint32_t active)
{
    uint32_t lo, hi;
    half_cmp_masks(w, i, i->type, active, &lo, &hi);
    uint32_t c = i->bop ? pred_val(w, &i->s[2]) : 0;
    uint32_t p = bool_combine(i->bop, lo, c);
    uint32_t q = bool_combine(i->bop, type_x2(i->type) ? hi : ~lo, c);
    uint32_t *P = &w->p[i->d[0].idx];
    *P = (*P & ~active) | (p & active);
    if (i->n_dst > 1) {
        uint32_t *Q = &w->p[i->d[1].idx];
        *Q = (*Q & ~active) | (q & active);
    }
}

/* set.CmpOp{.BoolOp}.dtype.stype: each element of d is "true" (1.0 for a
 * float dtype, all ones for an integer one; per 16-bit half for packed
 * sources) or 0. */
void exec_set(struct ptx_warp *w, const struct px_inst *i, uint32_t active)
{
    unsigned dt = i->type, st = i->type2, cmp = i->mod;
    const uint64_t *A = row(w, &i->s[0]), *B = row(w, &i->s[1]);
    uint64_t *D = w->r + (size_t)i->d[0].idx * 32;
    uint32_t lo = 0, hi = 0;
    if (st == PT_F16 || st == PT_BF16 || type_x2(st))
        half_cmp_masks(w, i, st, active, &lo, &hi);
    else if (st == PT_F32)
        LANES(lo |= (uint32_t)cmp_float(cmp, f32_of(A[l]), f32_of(B[l])) << l);
    else if (st == PT_F64)
        LANES(lo |= (uint32_t)cmp_float(cmp, f64_of(A[l]), f64_of(B[l])) << l);
    else
        LANES(lo |= (uint32_t)cmp_int(cmp, A[l], B[l], st) << l);
    uint32_t c = i->bop ? pred_val(w, &i->s[2]) : 0;
    lo = bool_combine(i->bop, lo, c);
    hi = bool_combine(i->bop, hi, c);
    uint64_t one = dt == PT_F32                       ? 0x3f800000u
                   : dt == PT_F16 || dt == PT_F16X2   ? 0x3c00u
                   : dt == PT_BF16 || dt == PT_BF16X2 ? 0x3f80u
                   : type_x2(st)                      ? 0xffffu
                                                      : trunc_to(~0ull, px_type_bytes(dt));
    if (type_x2(st))
        LANES(D[l] = (((lo >> l) & 1) ? one : 0) | (((hi >> l) & 1) ? one << 16 : 0));
    else
        LANES(D[l] = ((lo >> l) & 1) ? one : 0);
}
