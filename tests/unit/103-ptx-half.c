/*
 * 103-ptx-half.c - half-precision arithmetic, compares and conversions:
 * tests/ptx/half.cu as nvcc emits it for sm_75 (f16 native, bf16 emulated in
 * f32 by the headers) and sm_90 (bf16 native), run lane by lane against a
 * reference written here, plus hand-written PTX for the forms the headers do
 * not reach (.ftz, .xorsign.abs, set, the cvt pack modifiers) and for
 * rejected input.
 * The reference is independent of src/ptx/half.c: it holds exact values as a
 * 128-bit integer times a power of two, adds and multiplies those exactly and
 * rounds to nearest even with integer arithmetic (no double anywhere, so
 * fma's double-rounding traps are covered by construction). Lanes hold ties,
 * overflow to infinity, subnormals, signed zeros, NaNs and infinities, and
 * fma operands whose exact result sits just off a tie.
 * EVIDENCE-OF: add/sub/mul/fma correctly rounded; NaN results canonical
 *   (0x7fff); min/max NaN and signed-zero rules; .sat/.relu/.ftz; setp p|q on
 *   packed operands; cvt.rn.{f16x2,bf16x2}.f32 puts its first source high.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "../ptx/harness.h"

/* ------------------------------------------------------------------ reference */

struct fmt {
    int p;          /* significant bits, the implicit one included */
    int emin, emax; /* exponents of the smallest and largest normal binade */
    bool bf;
};
static const struct fmt F16 = {11, -14, 15, false}, BF16 = {8, -126, 127, true};

#define QNAN 0x7fffu

static unsigned fbits(const struct fmt *f)
{
    return (unsigned)f->p - 1;
}

static uint16_t inf_of(const struct fmt *f)
{
    return (uint16_t)(((1u << (15 - fbits(f))) - 1) << fbits(f));
}

static bool is_nan(uint16_t h, const struct fmt *f)
{
    return (h & 0x7fffu) > inf_of(f);
}

static bool is_special(uint16_t h, const struct fmt *f)
{
    return (h & inf_of(f)) == inf_of(f);
}

/* An exact value: (-1)^neg * mag * 2^e. */
struct ex {
    bool neg;
    unsigned __int128 mag;
    int e;
};

static struct ex decode(uint16_t h, const struct fmt *f)
{
    unsigned fb = fbits(f), ef = (h & 0x7fffu) >> fb, m = h & ((1u << fb) - 1);
    int bias = f->emax;
    struct ex x = {h >> 15, m, f->emin - (int)fb};
    if (ef) {
        x.mag = m | (1u << fb);
        x.e = (int)ef - bias - (int)fb;
    }
    return x;
}

/* value of a finite or infinite pattern, for compares and special cases */
static double value_of(uint16_t h, const struct fmt *f)
{
    if (is_nan(h, f))
        return NAN;
    if (is_special(h, f))
        return (h & 0x8000u) ? -INFINITY : INFINITY;
    struct ex x = decode(h, f);
    double v = ldexp((double)(uint64_t)x.mag, x.e);
    return x.neg ? -v : v;
}

static int msb128(unsigned __int128 v)
{
    int n = -1;
    while (v) {
        v >>= 1;
        n++;
    }
    return n;
}

/* Round an exact value to nearest even in the format, with integers only. */
static uint16_t round_ex(struct ex x, const struct fmt *f)
{
    uint16_t s = x.neg ? 0x8000u : 0;
    if (!x.mag)
        return s;
    int top = msb128(x.mag) + x.e;                        /* value in [2^top, 2^(top+1)) */
    int q = (top > f->emin ? top : f->emin) - (f->p - 1); /* exponent of the last place */
    unsigned __int128 n;
    if (q <= x.e) {
        n = x.mag << (x.e - q);
    } else if (q - x.e >= 127) {
        n = 0; /* below half the last place */
    } else {
        int sh = q - x.e;
        unsigned __int128 rem = x.mag & (((unsigned __int128)1 << sh) - 1);
        unsigned __int128 half = (unsigned __int128)1 << (sh - 1);
        n = x.mag >> sh;
        if (rem > half || (rem == half && (n & 1)))
            n++;
    }
    if (n == (unsigned __int128)1 << f->p) {
        n >>= 1;
        q++;
    }
    if (!(n >> (f->p - 1)))
        return (uint16_t)(s | (uint16_t)n); /* subnormal or zero */
    int E = q + f->p - 1;
    if (E > f->emax)
        return (uint16_t)(s | inf_of(f));
    return (uint16_t)(s | (unsigned)(E + f->emax) << fbits(f) |
                      ((unsigned)n & ((1u << fbits(f)) - 1)));
}

/* exact x + y; sign of an exact zero as IEEE round-to-nearest gives it */
static struct ex add_ex(struct ex x, struct ex y)
{
    if (!x.mag && !y.mag)
        return (struct ex){x.neg && y.neg, 0, 0};
    if (!x.mag)
        return y;
    if (!y.mag)
        return x;
    /* A term more than 60 binades below the other (which has at most 22
     * significant bits) only decides on which side of the other the sum
     * lies: any smaller nonzero term of its sign rounds the same way. */
    int tx = msb128(x.mag) + x.e, ty = msb128(y.mag) + y.e;
    if (ty < tx - 60)
        y = (struct ex){y.neg, 1, tx - 60};
    else if (tx < ty - 60)
        x = (struct ex){x.neg, 1, ty - 60};
    int e = x.e < y.e ? x.e : y.e;
    if (msb128(x.mag) + x.e - e > 120 || msb128(y.mag) + y.e - e > 120)
        fail_msg("test operands too far apart for the integer reference");
    unsigned __int128 a = x.mag << (x.e - e), b = y.mag << (y.e - e);
    if (x.neg == y.neg)
        return (struct ex){x.neg, a + b, e};
    if (a == b)
        return (struct ex){false, 0, 0};
    return a > b ? (struct ex){x.neg, a - b, e} : (struct ex){y.neg, b - a, e};
}

static struct ex mul_ex(struct ex x, struct ex y)
{
    return (struct ex){x.neg != y.neg, x.mag * y.mag, x.e + y.e};
}

enum { OP_ADD, OP_SUB, OP_MUL, OP_FMA };

static uint16_t ref_arith(int op, uint16_t a, uint16_t b, uint16_t c, const struct fmt *f)
{
    if (op == OP_SUB)
        b ^= 0x8000u;
    if (is_special(a, f) || is_special(b, f) || (op == OP_FMA && is_special(c, f))) {
        /* NaN or infinity involved: the result is NaN or an infinity */
        double x = value_of(a, f), y = value_of(b, f), r;
        r = op == OP_MUL ? x * y : op == OP_FMA ? x * y + value_of(c, f) : x + y;
        if (isnan(r))
            return QNAN;
        return (uint16_t)((r < 0 ? 0x8000u : 0) | inf_of(f));
    }
    struct ex x = decode(a, f), y = decode(b, f);
    struct ex r = op == OP_MUL   ? mul_ex(x, y)
                  : op == OP_FMA ? add_ex(mul_ex(x, y), decode(c, f))
                                 : add_ex(x, y);
    return round_ex(r, f);
}

static uint16_t one_of(const struct fmt *f)
{
    return f->bf ? 0x3f80u : 0x3c00u;
}

static uint16_t ref_sat(uint16_t r, const struct fmt *f)
{
    double v = value_of(r, f);
    if (isnan(v) || v <= 0)
        return 0;
    return v >= 1 ? one_of(f) : r;
}

static uint16_t ref_relu(uint16_t r, const struct fmt *f)
{
    return (!is_nan(r, f) && (r & 0x8000u)) ? 0 : r;
}

static uint16_t ref_minmax(bool mx, bool nan_mode, uint16_t a, uint16_t b, const struct fmt *f)
{
    bool an = is_nan(a, f), bn = is_nan(b, f);
    if ((an && bn) || ((an || bn) && nan_mode))
        return QNAN;
    if (an || bn)
        return an ? b : a;
    double x = value_of(a, f), y = value_of(b, f);
    if (x == y) /* same bits, or +0 and -0: -0 is the smaller */
        return (uint16_t)(mx ? (a & b) : (a | b));
    return ((x < y) != mx) ? a : b;
}

/* bits 0..10: lt le gt ge eq ne ltu geu isnan(a) equ neu */
static unsigned ref_cmps(uint16_t a, uint16_t b, const struct fmt *f)
{
    double x = value_of(a, f), y = value_of(b, f);
    bool u = isnan(x) || isnan(y);
    return (unsigned)(x < y) | (unsigned)(x <= y) << 1 | (unsigned)(x > y) << 2 |
           (unsigned)(x >= y) << 3 | (unsigned)(x == y) << 4 | (unsigned)(!u && x != y) << 5 |
           (unsigned)(u || x < y) << 6 | (unsigned)(u || x >= y) << 7 | (unsigned)isnan(x) << 8 |
           (unsigned)(u || x == y) << 9 | (unsigned)(u || x != y) << 10;
}

/* a float, exactly, rounded to the format */
static uint16_t ref_from_f32(float v, const struct fmt *f)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    uint32_t ef = (u >> 23) & 0xff, m = u & 0x7fffff;
    if (ef == 0xff)
        return m ? QNAN : (uint16_t)((u >> 16 & 0x8000u) | inf_of(f));
    struct ex x = {u >> 31, ef ? m | 0x800000u : m, ef ? (int)ef - 150 : -149};
    return round_ex(x, f);
}

/* ex2/tanh/exp are approximations: within one unit in the last place of the
 * correctly rounded value (same sign), or both NaN */
static void assert_close(uint16_t got, double want, const struct fmt *f, const char *what,
                         unsigned lane)
{
    if (isnan(want)) {
        if (!is_nan(got, f))
            fail_msg("%s lane %u: got 0x%04x, want NaN", what, lane, got);
        return;
    }
    uint16_t w;
    if (isinf(want)) {
        w = (uint16_t)((signbit(want) ? 0x8000u : 0) | inf_of(f));
    } else {
        int ex;
        double fr = frexp(fabs(want), &ex); /* want = fr * 2^ex, fr in [0.5, 1) */
        struct ex x = {signbit(want) != 0, (unsigned __int128)(uint64_t)ldexp(fr, 60), ex - 60};
        w = round_ex(x, f); /* 60 bits of want: far more than either format keeps */
    }
    int d = (int)(got & 0x7fffu) - (int)(w & 0x7fffu);
    if ((got ^ w) & 0x8000u || d < -1 || d > 1)
        fail_msg("%s lane %u: got 0x%04x, want 0x%04x (+-1)", what, lane, got, w);
}

#define EQ16(got, want, what, lane)                                                                \
    do {                                                                                           \
        unsigned g_ = (got), w_ = (want);                                                          \
        if (g_ != w_)                                                                              \
            fail_msg("%s lane %u: got 0x%04x, want 0x%04x", (what), (lane), g_, w_);               \
    } while (0)

/* ------------------------------------------------------------------ inputs */

/* f16 lanes: a, b, c. The first lanes are chosen cases, the rest random. */
static const uint16_t H_CASES[][3] = {
    {0x3c00, 0x4000, 0x3800}, /* 1, 2, 0.5 */
    {0x6800, 0x3c00, 0x0000}, /* 2048 + 1: a tie, to even 2048 */
    {0x6801, 0x3c00, 0x8000}, /* 2050 + 1: a tie, to even 2052 */
    {0x7bff, 0x4c00, 0x3c00}, /* 65504 + 16 = 65520: ties to infinity */
    {0x0001, 0x0001, 0x0001}, /* smallest subnormals: 2 * 2^-24, product underflows */
    {0x0000, 0x8000, 0x8000}, /* +0 and -0 */
    {0x8000, 0x8000, 0x0000}, /* -0 and -0 */
    {0x7e00, 0x3c00, 0x3c00}, /* NaN and 1 */
    {0x3c00, 0x7c01, 0x3c00}, /* 1 and a signalling NaN */
    {0xfe00, 0x7d00, 0x0000}, /* two NaNs */
    {0x7c00, 0xfc00, 0x3c00}, /* inf and -inf */
    {0x7c00, 0x0000, 0x3c00}, /* inf * 0 */
    {0x3c20, 0x3c10, 0x0001}, /* fma: product a tie + 2^-24: up */
    {0x3c20, 0x3c10, 0x8001}, /* fma: product a tie - 2^-24: down */
    {0x3c20, 0x3c10, 0x0000}, /* fma: exactly the tie: to even */
    {0x3a00, 0x3800, 0x3400}, /* 0.75, 0.5: add saturates at 1 */
    {0xb800, 0x3400, 0x3000}, /* -0.5, 0.25: negative results for sat and relu */
    {0x0401, 0x3800, 0x8400}, /* (1 + 2^-10) 2^-14 * 0.5: subnormal tie, to even */
    {0x5bff, 0xdbff, 0x3c00}, /* x - x */
    {0x0400, 0x0400, 0x83ff}, /* fma into the subnormal range */
};

static const uint16_t B_CASES[][3] = {
    {0x3f80, 0x4000, 0x3f00}, /* 1, 2, 0.5 */
    {0x4380, 0x3f80, 0x0000}, /* 256 + 1: a tie, to even 256 */
    {0x4381, 0x3f80, 0x8000}, /* 258 + 1: a tie, to even 260 */
    {0x7f7f, 0x7f7f, 0x3f80}, /* largest finite twice: infinity */
    {0x0001, 0x0001, 0x0001}, /* smallest subnormals */
    {0x0000, 0x8000, 0x8000}, /* +0 and -0 */
    {0x7fc0, 0x3f80, 0x3f80}, /* NaN and 1 */
    {0xffc1, 0x7f81, 0x0000}, /* two NaNs */
    {0x7f80, 0xff80, 0x3f80}, /* inf and -inf */
    {0x3f88, 0x3f88, 0x2180}, /* fma: product a tie + 2^-60: up (wrong if rounded twice) */
    {0x3f88, 0x3f88, 0xa180}, /* fma: product a tie - 2^-60: down */
    {0x3f88, 0x3f88, 0x0000}, /* fma: exactly the tie: to even */
    {0xbf00, 0x3e80, 0x3e00}, /* -0.5, 0.25: negative results for relu */
    {0x0081, 0x3f00, 0x8080}, /* smallest normal + ulp, halved: a subnormal tie */
};

static uint32_t rng_state = 12345;
static uint32_t rng(void)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return rng_state >> 8;
}

/* a random finite value with the exponent field in [lo, hi] */
static uint16_t rand_half(const struct fmt *f, unsigned lo, unsigned hi)
{
    unsigned fb = fbits(f);
    unsigned e = lo + rng() % (hi - lo + 1);
    return (uint16_t)((rng() & 1) << 15 | e << fb | (rng() & ((1u << fb) - 1)));
}

static const float F_CASES[] = {
    0.1f,        1.0f / 3.0f, 65520.0f,        65519.0f,     0x1p-25f, 0x1.8p-25f,
    -0x1.8p-24f, NAN,         -INFINITY,       -0.0f,        1e-8f,    3.0e38f,
    0x1.0101p0f, 0x1.03p0f,   0x1.00801p-126f, 0x1.ff8p127f,
};

/* ------------------------------------------------------------------ kernels */

#define NH  24
#define NH2 17
#define NB  17
#define NB2 14

struct rig {
    struct ptx_module *m;
    struct hx_gmem g;
    struct hx_stats st;
    char err[512];
};

static void run_ops(const char *file, const char *kname, const uint16_t (*in)[3], const float *F,
                    uint16_t *o, uint32_t *o2, unsigned n_o, unsigned n_o2)
{
    struct rig r = {0};
    r.m = hx_load(file, r.err, sizeof r.err);
    if (!r.m)
        fail_msg("%s", r.err);
    r.g.size = 1 << 20;
    r.g.bytes = calloc(1, r.g.size);
    const struct ptx_kernel *k = ptx_module_kernel(r.m, kname);
    assert_non_null(k);
    addr_t A = hx_alloc(&r.g, 64), B = hx_alloc(&r.g, 64), C = hx_alloc(&r.g, 64);
    addr_t Fa = hx_alloc(&r.g, 128), O = hx_alloc(&r.g, 2 * n_o * 32),
           O2 = hx_alloc(&r.g, 4 * n_o2 * 32);
    for (unsigned t = 0; t < 32; t++) {
        ((uint16_t *)hx_ptr(&r.g, A))[t] = in[t][0];
        ((uint16_t *)hx_ptr(&r.g, B))[t] = in[t][1];
        ((uint16_t *)hx_ptr(&r.g, C))[t] = in[t][2];
        ((float *)hx_ptr(&r.g, Fa))[t] = F[t];
    }
    struct hx_params p = {0};
    hx_param(&p, k, A);
    hx_param(&p, k, B);
    hx_param(&p, k, C);
    hx_param(&p, k, Fa);
    hx_param(&p, k, O);
    hx_param(&p, k, O2);
    if (hx_run(k, (struct ptx_dim3){1, 1, 1}, (struct ptx_dim3){32, 1, 1}, p.buf, 0, &r.g, &r.st,
               r.err, sizeof r.err))
        fail_msg("%s", r.err);
    memcpy(o, hx_ptr(&r.g, O), 2 * n_o * 32);
    memcpy(o2, hx_ptr(&r.g, O2), 4 * n_o2 * 32);
    free(r.g.bytes);
    ptx_module_free(r.m);
}

static void make_inputs(const struct fmt *f, uint16_t (*in)[3], float *F)
{
    const uint16_t(*cases)[3] = f->bf ? B_CASES : H_CASES;
    unsigned nc = f->bf ? ARRAY_LEN(B_CASES) : ARRAY_LEN(H_CASES);
    rng_state = f->bf ? 777 : 12345;
    for (unsigned t = 0; t < 32; t++) {
        for (unsigned k = 0; k < 3; k++)
            in[t][k] = t < nc  ? cases[t][k]
                       : f->bf ? rand_half(f, 127 - 20, 127 + 20)
                               : rand_half(f, 3, 28);
        F[t] = t < ARRAY_LEN(F_CASES) ? F_CASES[t] : (float)(rng() % 200000) * 0.37f - 30000.0f;
    }
}

/* the packed operands the kernels build: x = (a, b), y = (c, a), z = (b, c) */
static void packed(const uint16_t *in, uint16_t x[2], uint16_t y[2], uint16_t z[2])
{
    x[0] = in[0], x[1] = in[1];
    y[0] = in[2], y[1] = in[0];
    z[0] = in[1], z[1] = in[2];
}

static uint32_t pack(uint16_t lo, uint16_t hi)
{
    return (uint32_t)hi << 16 | lo;
}

/* Before sm_80 the headers emulate bf16 min/max with compares and selects
 * that return either zero for +0 against -0; accept either zero there. (f16
 * min/max are emulated with min/max.f32, which orders -0 below +0 too.) */
static void eq_minmax(uint16_t got, uint16_t want, bool loose_zero, const char *what, unsigned t)
{
    if (loose_zero && !(want & 0x7fffu) && !(got & 0x7fffu))
        return;
    EQ16(got, want, what, t);
}

static void half_file(const char *file)
{
    const struct fmt *f = &F16;
    uint16_t in[32][3], o[32 * NH];
    uint32_t o2[32 * NH2];
    float F[32];
    make_inputs(f, in, F);
    run_ops(file, "half_ops", (const uint16_t(*)[3])in, F, o, o2, NH, NH2);
    for (unsigned t = 0; t < 32; t++) {
        uint16_t a = in[t][0], b = in[t][1], c = in[t][2];
        const uint16_t *r = o + t * NH;
        EQ16(r[0], ref_arith(OP_ADD, a, b, 0, f), "add.f16", t);
        EQ16(r[1], ref_arith(OP_SUB, a, b, 0, f), "sub.f16", t);
        EQ16(r[2], ref_arith(OP_MUL, a, b, 0, f), "mul.f16", t);
        EQ16(r[3], ref_arith(OP_FMA, a, b, c, f), "fma.rn.f16", t);
        EQ16(r[4], a ^ 0x8000u, "neg.f16", t);
        EQ16(r[5], a & 0x7fffu, "abs.f16", t);
        eq_minmax(r[6], ref_minmax(false, false, a, b, f), false, "min.f16", t);
        eq_minmax(r[7], ref_minmax(true, false, a, b, f), false, "max.f16", t);
        eq_minmax(r[8], ref_minmax(false, true, a, b, f), false, "min.NaN.f16", t);
        eq_minmax(r[9], ref_minmax(true, true, a, b, f), false, "max.NaN.f16", t);
        EQ16(r[10], ref_sat(ref_arith(OP_ADD, a, b, 0, f), f), "add.sat.f16", t);
        EQ16(r[11], ref_sat(ref_arith(OP_MUL, a, b, 0, f), f), "mul.sat.f16", t);
        EQ16(r[12], ref_sat(ref_arith(OP_FMA, a, b, c, f), f), "fma.rn.sat.f16", t);
        EQ16(r[13], ref_relu(ref_arith(OP_FMA, a, b, c, f), f), "fma.rn.relu.f16", t);
        EQ16(r[14], ref_sat(ref_arith(OP_SUB, a, b, 0, f), f), "sub.sat.f16", t);
        EQ16(r[15], ref_cmps(a, b, f), "setp.f16", t);
        EQ16(r[16], ref_from_f32(F[t], f), "cvt.rn.f16.f32", t);
        assert_close(r[17], exp2(value_of(a, f)), f, "ex2.approx.f16", t);
        assert_close(r[18], tanh(value_of(a, f)), f, "tanh.approx.f16", t);
        EQ16(r[19], ref_arith(OP_ADD, a, b, 0, f), "add.rn.f16", t);
        EQ16(r[20], ref_arith(OP_MUL, a, b, 0, f), "mul.rn.f16", t);
        EQ16(r[21], ref_arith(OP_SUB, a, b, 0, f), "sub.rn.f16", t);
        assert_close(r[22], exp(value_of(a, f)), f, "hexp", t);
        EQ16(r[23],
             value_of(a, f) < value_of(b, f) ? ref_arith(OP_SUB, a, c, 0, f)
                                             : ref_arith(OP_ADD, b, c, 0, f),
             "select", t);

        uint16_t x[2], y[2], z[2];
        packed(in[t], x, y, z);
        const uint32_t *q = o2 + t * NH2;
        for (unsigned e = 0; e < 2; e++) {
            unsigned sh = 16 * e;
            EQ16(q[0] >> sh & 0xffff, ref_arith(OP_ADD, x[e], y[e], 0, f), "add.f16x2", t);
            EQ16(q[1] >> sh & 0xffff, ref_arith(OP_SUB, x[e], y[e], 0, f), "sub.f16x2", t);
            EQ16(q[2] >> sh & 0xffff, ref_arith(OP_MUL, x[e], y[e], 0, f), "mul.f16x2", t);
            EQ16(q[3] >> sh & 0xffff, ref_arith(OP_FMA, x[e], y[e], z[e], f), "fma.f16x2", t);
            eq_minmax(q[4] >> sh & 0xffff, ref_minmax(false, false, x[e], y[e], f), false,
                      "min.f16x2", t);
            eq_minmax(q[5] >> sh & 0xffff, ref_minmax(true, true, x[e], y[e], f), false,
                      "max.NaN.f16x2", t);
            EQ16(q[6] >> sh & 0xffff, x[e] ^ 0x8000u, "neg.f16x2", t);
            EQ16(q[7] >> sh & 0xffff, x[e] & 0x7fffu, "abs.f16x2", t);
            EQ16(q[8] >> sh & 0xffff, ref_sat(ref_arith(OP_ADD, x[e], y[e], 0, f), f),
                 "add.sat.f16x2", t);
            EQ16(q[9] >> sh & 0xffff, ref_relu(ref_arith(OP_FMA, x[e], y[e], z[e], f), f),
                 "fma.relu.f16x2", t);
            bool lt = value_of(x[e], f) < value_of(y[e], f);
            EQ16(q[10] >> sh & 0xffff, lt ? 0x3c00u : 0, "set.lt.f16x2.f16x2", t);
            bool geu = !(value_of(x[e], f) < value_of(z[e], f));
            EQ16(q[11] >> sh & 0xffff, (lt ? 0xffffu : 0) ^ (geu ? 0xffffu : 0), "set.u32.f16x2",
                 t);
            assert_close(q[14] >> sh & 0xffff, exp2(value_of(x[e], f)), f, "ex2.approx.f16x2", t);
            assert_close(q[15] >> sh & 0xffff, tanh(value_of(x[e], f)), f, "tanh.approx.f16x2", t);
        }
        double x0 = value_of(x[0], f), x1 = value_of(x[1], f), y0 = value_of(y[0], f),
               y1 = value_of(y[1], f), z0 = value_of(z[0], f), z1 = value_of(z[1], f);
        unsigned both = (unsigned)(x0 < y0 && x1 < y1) | (unsigned)(x0 > y0 && x1 > y1) << 1 |
                        (unsigned)(!(x0 < z0 || x0 > z0) && !(x1 < z1 || x1 > z1)) << 2;
        EQ16(q[12], both, "hb*2 compares", t);
        EQ16(q[13], pack(ref_from_f32(F[t], f), ref_from_f32(F[(t + 1) & 31], f)),
             "cvt.rn.f16x2.f32", t);
        bool cpred = t & 1;
        unsigned sp = (unsigned)(x0 < y0) | (unsigned)(x1 < y1) << 1 |
                      (unsigned)(!(x0 < y0) || !cpred) << 2 | (unsigned)(!(x1 < y1) || !cpred) << 3;
        EQ16(q[16], sp, "setp.f16x2 p|q", t);
    }
}

static void bf16_file(const char *file, bool sm90)
{
    const struct fmt *f = &BF16;
    uint16_t in[32][3], o[32 * NB];
    uint32_t o2[32 * NB2];
    float F[32];
    make_inputs(f, in, F);
    run_ops(file, "bf16_ops", (const uint16_t(*)[3])in, F, o, o2, NB, NB2);
    for (unsigned t = 0; t < 32; t++) {
        uint16_t a = in[t][0], b = in[t][1], c = in[t][2];
        const uint16_t *r = o + t * NB;
        EQ16(r[0], ref_arith(OP_ADD, a, b, 0, f), "add.bf16", t);
        EQ16(r[1], ref_arith(OP_SUB, a, b, 0, f), "sub.bf16", t);
        EQ16(r[2], ref_arith(OP_MUL, a, b, 0, f), "mul.bf16", t);
        EQ16(r[3], sm90 ? ref_arith(OP_FMA, a, b, c, f) : 0xdead, "fma.rn.bf16", t);
        /* before sm_80 the headers negate with an f32 fma and take abs with
         * an and, both followed by NaN -> canonical NaN */
        bool emu_nan = !sm90 && is_nan(a, f);
        EQ16(r[4], emu_nan ? QNAN : a ^ 0x8000u, "neg.bf16", t);
        EQ16(r[5], emu_nan ? QNAN : a & 0x7fffu, "abs.bf16", t);
        eq_minmax(r[6], ref_minmax(false, false, a, b, f), !sm90, "min.bf16", t);
        eq_minmax(r[7], ref_minmax(true, false, a, b, f), !sm90, "max.bf16", t);
        eq_minmax(r[8], ref_minmax(false, true, a, b, f), !sm90, "min.NaN.bf16", t);
        eq_minmax(r[9], ref_minmax(true, true, a, b, f), !sm90, "max.NaN.bf16", t);
        EQ16(r[10], sm90 ? ref_relu(ref_arith(OP_FMA, a, b, c, f), f) : 0xdead, "fma.rn.relu.bf16",
             t);
        EQ16(r[11], ref_cmps(a, b, f), "setp.bf16", t);
        EQ16(r[12], ref_from_f32(F[t], f), "cvt.rn.bf16.f32", t);
        EQ16(r[13], ref_arith(OP_ADD, a, b, 0, f), "add.rn.bf16", t);
        EQ16(r[14], ref_arith(OP_MUL, a, b, 0, f), "mul.rn.bf16", t);
        EQ16(r[15],
             value_of(a, f) < value_of(b, f) ? ref_arith(OP_SUB, a, c, 0, f)
                                             : ref_arith(OP_ADD, b, c, 0, f),
             "select", t);
        if (sm90)
            assert_close(r[16], tanh(value_of(a, f)), f, "tanh.approx.bf16", t);
        else
            EQ16(r[16], 0xdead, "tanh.approx.bf16 (absent)", t);

        uint16_t x[2], y[2], z[2];
        packed(in[t], x, y, z);
        const uint32_t *q = o2 + t * NB2;
        for (unsigned e = 0; e < 2; e++) {
            unsigned sh = 16 * e;
            EQ16(q[0] >> sh & 0xffff, ref_arith(OP_ADD, x[e], y[e], 0, f), "add.bf16x2", t);
            EQ16(q[1] >> sh & 0xffff, ref_arith(OP_SUB, x[e], y[e], 0, f), "sub.bf16x2", t);
            EQ16(q[2] >> sh & 0xffff, ref_arith(OP_MUL, x[e], y[e], 0, f), "mul.bf16x2", t);
            if (sm90) {
                EQ16(q[3] >> sh & 0xffff, ref_arith(OP_FMA, x[e], y[e], z[e], f), "fma.bf16x2", t);
                EQ16(q[8] >> sh & 0xffff, ref_relu(ref_arith(OP_FMA, x[e], y[e], z[e], f), f),
                     "fma.relu.bf16x2", t);
                assert_close(q[13] >> sh & 0xffff, tanh(value_of(x[e], f)), f, "tanh.approx.bf16x2",
                             t);
            }
            eq_minmax(q[4] >> sh & 0xffff, ref_minmax(false, false, x[e], y[e], f), !sm90,
                      "min.bf16x2", t);
            eq_minmax(q[5] >> sh & 0xffff, ref_minmax(true, true, x[e], y[e], f), !sm90,
                      "max.NaN.bf16x2", t);
            bool emu_nan2 = !sm90 && is_nan(x[e], f);
            EQ16(q[6] >> sh & 0xffff, emu_nan2 ? QNAN : x[e] ^ 0x8000u, "neg.bf16x2", t);
            EQ16(q[7] >> sh & 0xffff, emu_nan2 ? QNAN : x[e] & 0x7fffu, "abs.bf16x2", t);
            bool lt = value_of(x[e], f) < value_of(y[e], f);
            EQ16(q[9] >> sh & 0xffff, lt ? 0x3f80u : 0, "set.lt.bf16x2.bf16x2", t);
        }
        if (!sm90) {
            EQ16(q[3], 0xdead, "fma.bf16x2 (absent)", t);
            EQ16(q[12], 0xdead, "setp.bf16x2 (absent)", t);
        }
        double x0 = value_of(x[0], f), x1 = value_of(x[1], f), y0 = value_of(y[0], f),
               y1 = value_of(y[1], f), z0 = value_of(z[0], f), z1 = value_of(z[1], f);
        unsigned both = (unsigned)(x0 < y0 && x1 < y1) | (unsigned)(x0 > y0 && x1 > y1) << 1 |
                        (unsigned)(!(x0 < z0 || x0 > z0) && !(x1 < z1 || x1 > z1)) << 2;
        EQ16(q[10], both, "hb*2 compares", t);
        EQ16(q[11], pack(ref_from_f32(F[t], f), ref_from_f32(F[(t + 1) & 31], f)),
             "cvt.rn.bf16x2.f32", t);
        if (sm90) {
            unsigned gtu = (unsigned)!(x0 <= y0) | (unsigned)!(x1 <= y1) << 1;
            EQ16(q[12], gtu, "setp.gtu.bf16x2 p|q", t);
        }
    }
}

static void half_kernels(void **state)
{
    (void)state;
    half_file("tests/ptx/half.ptx");
    half_file("tests/ptx/half.sm90.ptx");
}

static void bf16_kernels(void **state)
{
    (void)state;
    bf16_file("tests/ptx/half.ptx", false);
    bf16_file("tests/ptx/half.sm90.ptx", true);
}

/* The reference itself, on values worked out by hand. */
static void reference_self_check(void **state)
{
    (void)state;
    assert_int_equal(ref_arith(OP_ADD, 0x6800, 0x3c00, 0, &F16), 0x6800); /* 2049 -> 2048 */
    assert_int_equal(ref_arith(OP_ADD, 0x6801, 0x3c00, 0, &F16), 0x6802); /* 2051 -> 2052 */
    assert_int_equal(ref_arith(OP_ADD, 0x7bff, 0x4c00, 0, &F16), 0x7c00); /* 65520 -> inf */
    assert_int_equal(ref_arith(OP_MUL, 0x0401, 0x3800, 0, &F16), 0x0200); /* tie to even */
    /* (1 + 2^-5)(1 + 2^-6) = 1 + 3 * 2^-6 + 2^-11: a tie between 0x3c30 and 0x3c31 */
    assert_int_equal(ref_arith(OP_FMA, 0x3c20, 0x3c10, 0x0000, &F16), 0x3c30);
    assert_int_equal(ref_arith(OP_FMA, 0x3c20, 0x3c10, 0x0001, &F16), 0x3c31);
    assert_int_equal(ref_arith(OP_FMA, 0x3c20, 0x3c10, 0x8001, &F16), 0x3c30);
    /* bf16 (1 + 2^-4)^2 = 1 + 2^-3 + 2^-8: a tie between 0x3f90 and 0x3f91 */
    assert_int_equal(ref_arith(OP_FMA, 0x3f88, 0x3f88, 0x0000, &BF16), 0x3f90);
    assert_int_equal(ref_arith(OP_FMA, 0x3f88, 0x3f88, 0x2180, &BF16), 0x3f91);
    assert_int_equal(ref_arith(OP_ADD, 0x4381, 0x3f80, 0, &BF16), 0x4382); /* 259 -> 260 */
    assert_int_equal(ref_from_f32(65519.0f, &F16), 0x7bff);
    assert_int_equal(ref_from_f32(65520.0f, &F16), 0x7c00);
    assert_int_equal(ref_from_f32(0x1p-25f, &F16), 0x0000); /* tie to 0 */
    assert_int_equal(ref_from_f32(0x1.8p-25f, &F16), 0x0001);
    assert_int_equal(ref_from_f32(0x1.03p0f, &BF16), 0x3f82); /* tie to even */
}

/* ------------------------------------------------------------------ hand-written PTX */

#define HDR ".version 9.0\n.target sm_90\n.address_size 64\n"

static struct ptx_module *parse_ok(const char *text)
{
    char err[512];
    struct ptx_module *m = ptx_module_parse(text, "h.ptx", err, sizeof err);
    if (!m)
        fail_msg("%s", err);
    return m;
}

/* Runs one thread of kernel k(out) and returns out's first 64 words. */
static void run1(const char *body, uint32_t out[64])
{
    char text[8192];
    snprintf(text, sizeof text,
             HDR ".visible .entry k(.param .u64 out)\n{\n"
                 ".reg .pred %%p<8>;\n.reg .b16 %%h<40>;\n.reg .b32 %%r<40>;\n"
                 ".reg .f32 %%f<8>;\n.reg .f64 %%d<4>;\n.reg .b64 %%rd<4>;\n"
                 "ld.param.u64 %%rd1, [out];\n%s\nret;\n}\n",
             body);
    struct ptx_module *m = parse_ok(text);
    struct hx_gmem g = {calloc(1, 4096), 4096, 0};
    addr_t o = hx_alloc(&g, 256);
    const struct ptx_kernel *k = ptx_module_kernel(m, "k");
    struct hx_params p = {0};
    hx_param(&p, k, o);
    struct hx_stats st = {0};
    char err[512];
    if (hx_run(k, (struct ptx_dim3){1, 1, 1}, (struct ptx_dim3){1, 1, 1}, p.buf, 0, &g, &st, err,
               sizeof err))
        fail_msg("%s", err);
    memcpy(out, hx_ptr(&g, o), 256);
    free(g.bytes);
    ptx_module_free(m);
}

/* Stores %h<i> as 32-bit word i (zero-extended), for i < n. */
static void store_h(char *buf, size_t len, unsigned n)
{
    size_t k = strlen(buf);
    for (unsigned i = 0; i < n; i++)
        k += (size_t)snprintf(buf + k, len - k,
                              "cvt.u32.u16 %%r%u, %%h%u;\n"
                              "st.global.u32 [%%rd1+%u], %%r%u;\n",
                              i, i, 4 * i, i);
}

static void ftz_xorsign_and_modifiers(void **state)
{
    (void)state;
    char body[6000] = "mov.b16 %h20, 0x0200;\n"        /* f16 subnormal 2^-15 */
                      "mov.b16 %h21, 0x3c00;\n"        /* 1 */
                      "mov.b16 %h22, 0x8300;\n"        /* -0.75 * 2^-14, subnormal */
                      "mov.b16 %h23, 0xc000;\n"        /* -2 */
                      "mov.b16 %h24, 0x0400;\n"        /* 2^-14, smallest normal */
                      "mov.b16 %h25, 0x3800;\n"        /* 0.5 */
                      "add.f16 %h0, %h20, %h21;\n"     /* 1 + 2^-15 -> 1 (below half an ulp) */
                      "mul.ftz.f16 %h1, %h20, %h21;\n" /* subnormal operand flushed: +0 */
                      "mul.f16 %h2, %h20, %h21;\n"     /* kept: 0x0200 */
                      "mul.ftz.f16 %h3, %h24, %h25;\n" /* result 2^-15 subnormal: flushed, +0 */
                      "mul.ftz.f16 %h4, %h22, %h21;\n" /* -subnormal operand: -0 */
                      "neg.ftz.f16 %h5, %h20;\n"       /* flushed then negated: -0 */
                      "abs.ftz.f16 %h6, %h22;\n"       /* +0 */
                      "min.xorsign.abs.f16 %h7, %h23, %h21;\n" /* |.| min = 1, sign - ^ + : -1 */
                      "max.xorsign.abs.f16 %h8, %h23, %h23;\n" /* 2, sign - ^ - : +2 */
                      "fma.rn.ftz.sat.f16 %h9, %h23, %h23, %h21;\n" /* 5 -> 1 */
                      "fma.rn.relu.f16 %h10, %h23, %h21, %h21;\n"   /* -1 -> +0 */
                      "mov.b16 %h26, 0x7e00;\n"
                      "fma.rn.relu.f16 %h11, %h26, %h21, %h21;\n" /* NaN stays the canonical NaN */
                      "add.sat.f16 %h12, %h26, %h21;\n"           /* NaN -> +0 */
                      "max.NaN.f16 %h13, %h21, %h26;\n"           /* canonical NaN */
                      "min.ftz.f16 %h14, %h20, %h22;\n"           /* +0 and -0 after flush: -0 */
                      "max.ftz.f16 %h15, %h20, %h22;\n"           /* +0 */
                      "mov.b16 %h27, 0x0001;\n"                   /* bf16 subnormal */
                      "mov.b16 %h28, 0x3f80;\n"                   /* bf16 1 */
                      "ex2.approx.ftz.bf16 %h16, %h27;\n"         /* 2^0 = 1 */
                      "add.rn.bf16 %h17, %h27, %h27;\n"           /* subnormals kept: 0x0002 */
                      "neg.bf16 %h18, %h28;\n"                    /* 0xbf80 */
                      "sub.rn.bf16 %h19, %h28, %h28;\n";          /* +0 */
    store_h(body, sizeof body, 20);
    uint32_t o[64];
    run1(body, o);
    static const uint16_t want[20] = {0x3c00, 0x0000, 0x0200, 0x0000, 0x8000, 0x8000, 0x0000,
                                      0xbc00, 0x4000, 0x3c00, 0x0000, 0x7fff, 0x0000, 0x7fff,
                                      0x8000, 0x0000, 0x3f80, 0x0002, 0xbf80, 0x0000};
    for (unsigned i = 0; i < 20; i++)
        EQ16(o[i], want[i], "modifier case", i);
}

static void set_and_packing(void **state)
{
    (void)state;
    uint32_t o[64];
    run1("mov.b16 %h1, 0x3c00;\n"           /* 1 */
         "mov.b16 %h2, 0x4000;\n"           /* 2 */
         "mov.b16 %h3, 0x7e00;\n"           /* NaN */
         "set.lt.u32.f16 %r1, %h1, %h2;\n"  /* 0xffffffff */
         "set.gt.f32.f16 %r2, %h1, %h2;\n"  /* 0 */
         "set.ltu.f16.f16 %h4, %h3, %h1;\n" /* 0x3c00: unordered */
         "cvt.u32.u16 %r3, %h4;\n"
         "mov.f32 %f1, 0f3F800000;\n"
         "set.le.f32.f32 %r4, %f1, %f1;\n" /* 1.0f */
         "setp.ne.u32 %p1, %r4, 0;\n"
         "set.eq.and.s32.f32 %r5, %f1, %f1, !%p1;\n" /* true and false: 0 */
         "set.lo.or.u32.u32 %r6, %r2, %r1, %p1;\n"   /* 0xffffffff */
         "mov.b32 %r7, {%h1, %h2};\n"                /* low 1, high 2: 0x40003c00 */
         "mov.b32 %r8, {%h2, %h3};\n"
         "set.lt.s32.f16x2 %r9, %r7, %r8;\n"           /* 1<2 yes, 2<NaN no: 0x0000ffff */
         "setp.gt.and.f16x2 %p2|%p3, %r8, %r7, %p1;\n" /* 2>1 yes, NaN>2 no */
         "selp.u32 %r10, 1, 0, %p2;\n"
         "selp.u32 %r11, 1, 0, %p3;\n"
         "mov.b32 {%h5, %h6}, %r7;\n" /* unpack */
         "cvt.u32.u16 %r12, %h5;\n"
         "cvt.u32.u16 %r13, %h6;\n"
         "mov.f32 %f2, 0f477FF000;\n"                   /* 65520: rounds to inf */
         "mov.f32 %f3, 0fC0000000;\n"                   /* -2 */
         "cvt.rn.satfinite.f16x2.f32 %r14, %f2, %f3;\n" /* high 65504, low -2 */
         "cvt.rz.relu.f16x2.f32 %r15, %f3, %f2;\n"      /* high +0, low 65504 (rz) */
         "cvt.rn.bf16x2.f32 %r16, %f1, %f3;\n"          /* high 1, low -2 */
         "mov.f64 %d1, 0d3FF0020000000001;\n"           /* 1 + 2^-11 + 2^-52: just above a tie */
         "cvt.rn.f16.f64 %h7, %d1;\n" /* 0x3c01 (double-rounding would tie to 0x3c00) */
         "cvt.u32.u16 %r17, %h7;\n"
         "mov.u32 %r18, 2049;\n"
         "cvt.rn.f16.u32 %h8, %r18;\n"  /* tie: 2048 = 0x6800 */
         "cvt.rz.f16.s32 %h9, -2051;\n" /* -2050 = 0xe801 */
         "cvt.rp.f16.u32 %h10, %r18;\n" /* 2050 = 0x6801 */
         "cvt.u32.u16 %r19, %h8;\n"
         "cvt.u32.u16 %r20, %h9;\n"
         "cvt.u32.u16 %r21, %h10;\n"
         "mov.b16 %h11, 0x3e40;\n"       /* 1.5625 */
         "cvt.rni.f16.f16 %h12, %h11;\n" /* 2 = 0x4000 */
         "cvt.u32.u16 %r22, %h12;\n"
         "mov.b32 {_, %h13}, %r8;\n" /* a sink: only the high half, NaN */
         "cvt.u32.u16 %r23, %h13;\n"
         "st.global.u32 [%rd1+80], %r23;\n"
         "st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};\n"
         "st.global.v4.u32 [%rd1+16], {%r5, %r6, %r7, %r9};\n"
         "st.global.v4.u32 [%rd1+32], {%r10, %r11, %r12, %r13};\n"
         "st.global.v4.u32 [%rd1+48], {%r14, %r15, %r16, %r17};\n"
         "st.global.v4.u32 [%rd1+64], {%r19, %r20, %r21, %r22};\n",
         o);
    static const uint32_t want[21] = {
        0xffffffffu, 0,      0x3c00, 0x3f800000u, 0,      0xffffffffu, 0x40003c00u,
        0x0000ffffu, 1,      0,      0x3c00,      0x4000, 0x7bffc000u, 0x00007bffu,
        0x3f80c000u, 0x3c01, 0x6800, 0xe801,      0x6801, 0x4000,      0x7e00};
    for (unsigned i = 0; i < 21; i++)
        if (o[i] != want[i])
            fail_msg("word %u: got 0x%08x, want 0x%08x", i, o[i], want[i]);
}

/* Invalid half-precision forms (and .relu elsewhere, not built) are rejected
 * with file:line and the opcode. */
static void bad_forms_rejected(void **state)
{
    (void)state;
    static const char *const bad[][2] = {
        {"fma.f16 %h1, %h2, %h3, %h4;", "needs .rn"},
        {"add.sat.bf16 %h1, %h2, %h3;", ".sat"},
        {"add.relu.f16 %h1, %h2, %h3;", ".relu"},
        {"min.xorsign.f16 %h1, %h2, %h3;", "xorsign"},
        {"add.rz.f16 %h1, %h2, %h3;", "rounding"},
        {"ex2.f16 %h1, %h2;", "needs .approx"},
        {"div.rn.f16 %h1, %h2, %h3;", "no such half-precision"},
        {"mad.f16 %h1, %h2, %h3, %h4;", "no such half-precision"},
        {"setp.lt.f16x2 %p1, %r1, %r2;", "p|q"},
        {"setp.lo.f16 %p1, %h1, %h2;", "compare integers"},
        {"set.lt.f16x2.f16 %r1, %h1, %h2;", "bad types"},
        {"add.f16 %h1, %h2, 0f3F800000;", "floating-point literal"},
        {"cvt.rm.f16x2.f32 %r1, %f1, %f2;", ".rn or .rz"},
        {"min.NaN.ftz.bf16 %h1, %h2, %h3;", ".ftz"},
        {"max.relu.s32 %r1, %r2, %r3;", "'.relu' outside half precision"},
    };
    for (size_t k = 0; k < ARRAY_LEN(bad); k++) {
        char text[1024], err[512];
        snprintf(text, sizeof text,
                 HDR ".visible .entry k()\n{\n.reg .pred %%p<4>;\n.reg .b16 %%h<8>;\n"
                     ".reg .b32 %%r<8>;\n.reg .f32 %%f<4>;\n%s\nret;\n}\n",
                 bad[k][0]);
        struct ptx_module *m = ptx_module_parse(text, "bad.ptx", err, sizeof err);
        if (m) { /* valid PTX that is not modelled: kernel k cannot run */
            const char *why = ptx_kernel_unsupported(ptx_module_kernel(m, "k"));
            snprintf(err, sizeof err, "%s", why ? why : "");
            ptx_module_free(m);
            if (!why)
                fail_msg("accepted: %s", bad[k][0]);
        }
        if (strncmp(err, "bad.ptx:10: ", 12) || !strstr(err, bad[k][1]))
            fail_msg("'%s': message '%s' lacks 'bad.ptx:10: ...%s'", bad[k][0], err, bad[k][1]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reference_self_check), cmocka_unit_test(half_kernels),
        cmocka_unit_test(bf16_kernels),         cmocka_unit_test(ftz_xorsign_and_modifiers),
        cmocka_unit_test(set_and_packing),      cmocka_unit_test(bad_forms_rejected),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
