/*
 * 101-ptx-kernels.c - real nvcc output (tests/ptx/NAME.cu -> NAME.ptx, sm_75 and
 * sm_90) run to completion on the functional interpreter; every output is
 * compared with the same computation done in C.
 * EVIDENCE-OF: divergence, loops with early exit, device calls with local
 *   arrays, shared memory and barriers, dynamic shared memory, shuffles and
 *   votes, global/shared/generic atomics incl. CAS loops, release/acquire
 *   message passing between CTAs, float and integer math.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "../ptx/harness.h"

static struct hx_rig *rig_new(const char *file)
{
    struct hx_rig *r = hx_rig_new(file, NULL, 1 << 20);
    if (!r->m)
        fail_msg("%s", r->err);
    return r;
}

static const struct ptx_kernel *kern(struct hx_rig *r, const char *name)
{
    const struct ptx_kernel *k = ptx_module_kernel(r->m, name);
    if (!k)
        fail_msg("no kernel %s", name);
    return k;
}

static void run(struct hx_rig *r, const struct ptx_kernel *k, unsigned grid, unsigned block,
                const struct hx_params *p, uint32_t dyn)
{
    if (hx_run(k, (struct ptx_dim3){grid, 1, 1}, (struct ptx_dim3){block, 1, 1}, p->buf, dyn, &r->g,
               &r->st, r->err, sizeof r->err))
        fail_msg("%s", r->err);
}

#define PTR(r, a, T) ((T *)hx_ptr(&(r)->g, (a)))

static void vecadd_one(const char *file)
{
    struct hx_rig *r = rig_new(file);
    const struct ptx_kernel *k = kern(r, "vecadd");
    int n = 500;
    addr_t a = hx_alloc(&r->g, 4 * n), b = hx_alloc(&r->g, 4 * n), c = hx_alloc(&r->g, 4 * n);
    for (int i = 0; i < n; i++) {
        PTR(r, a, float)[i] = (float)i * 0.5f;
        PTR(r, b, float)[i] = 1000.0f - (float)i;
    }
    struct hx_params p = {0};
    hx_param(&p, k, a);
    hx_param(&p, k, b);
    hx_param(&p, k, c);
    hx_param(&p, k, (uint64_t)n);
    run(r, k, 3, 64, &p, 0);
    for (int i = 0; i < n; i++)
        assert_true(PTR(r, c, float)[i] == (float)i * 0.5f + (1000.0f - (float)i));
    hx_rig_free(r);
}

static void vecadd(void **state)
{
    (void)state;
    vecadd_one("tests/ptx/vecadd.ptx");
    vecadd_one("tests/ptx/vecadd.sm90.ptx");
}

static void saxpy_bounds(void **state)
{
    (void)state;
    struct hx_rig *r = rig_new("tests/ptx/vecadd.ptx");
    const struct ptx_kernel *k = kern(r, "saxpy_i");
    addr_t y = hx_alloc(&r->g, 4 * 128), x = hx_alloc(&r->g, 4 * 128);
    for (int i = 0; i < 128; i++) {
        PTR(r, y, int)[i] = i - 7;
        PTR(r, x, int)[i] = 3 * i;
    }
    struct hx_params p = {0};
    hx_param(&p, k, y);
    hx_param(&p, k, x);
    hx_param(&p, k, (uint64_t)(uint32_t)-5);
    hx_param(&p, k, 100);
    run(r, k, 2, 64, &p, 0);
    for (int i = 0; i < 128; i++)
        assert_int_equal(PTR(r, y, int)[i], i < 100 ? -5 * 3 * i + i - 7 : i - 7);
    hx_rig_free(r);
}

static void reduce_one(const char *file)
{
    struct hx_rig *r = rig_new(file);
    const struct ptx_kernel *k = kern(r, "reduce_sum");
    int n = 700;
    addr_t in = hx_alloc(&r->g, 4 * 768), out = hx_alloc(&r->g, 4 * 3);
    for (int i = 0; i < n; i++)
        PTR(r, in, int)[i] = (i * 37) % 101 - 50;
    struct hx_params p = {0};
    hx_param(&p, k, in);
    hx_param(&p, k, out);
    hx_param(&p, k, (uint64_t)n);
    run(r, k, 3, 256, &p, 0);
    for (int b = 0; b < 3; b++) {
        int s = 0;
        for (int i = b * 256; i < (b + 1) * 256 && i < n; i++)
            s += (i * 37) % 101 - 50;
        assert_int_equal(PTR(r, out, int)[b], s);
    }
    assert_true(r->st.barriers > 0);

    /* dynamic shared memory and a shuffle tail */
    k = kern(r, "reduce_dyn");
    addr_t fin = hx_alloc(&r->g, 4 * 256), fout = hx_alloc(&r->g, 4 * 2);
    for (int i = 0; i < 256; i++)
        PTR(r, fin, float)[i] = (float)((i * 13) % 17);
    struct hx_params q = {0};
    hx_param(&q, k, fin);
    hx_param(&q, k, fout);
    run(r, k, 2, 128, &q, 128 * 4);
    for (int b = 0; b < 2; b++) {
        float s = 0;
        for (int i = b * 128; i < (b + 1) * 128; i++)
            s += (float)((i * 13) % 17);
        assert_true(PTR(r, fout, float)[b] == s);
    }
    hx_rig_free(r);
}

static void reduce(void **state)
{
    (void)state;
    reduce_one("tests/ptx/reduce.ptx");
    reduce_one("tests/ptx/reduce.sm90.ptx");
}

static int nest_ref(int t, int k)
{
    if (t % 5 == 4)
        return 0x7777; /* not written */
    int acc = 0;
    for (int i = 0; i < t % 7; i++) {
        if ((i + t) & 1) {
            for (int j = 0; j <= i; j++)
                acc += j * k;
        } else {
            acc ^= i << 3;
            if (acc > 100)
                break;
        }
    }
    if (t & 2)
        acc = -acc;
    return acc;
}

static void divergent_loops(void **state)
{
    (void)state;
    struct hx_rig *r = rig_new("tests/ptx/diverge.ptx");
    const struct ptx_kernel *k = kern(r, "nest");
    addr_t out = hx_alloc(&r->g, 4 * 256);
    for (int i = 0; i < 256; i++)
        PTR(r, out, int)[i] = 0x7777;
    for (int kk = 1; kk <= 9; kk += 4) {
        struct hx_params p = {0};
        hx_param(&p, k, out);
        hx_param(&p, k, (uint64_t)kk);
        run(r, k, 2, 96, &p, 0);
        for (int b = 0; b < 2; b++)
            for (int t = 0; t < 96; t++)
                assert_int_equal(PTR(r, out, int)[b * 96 + t], nest_ref(t, kk));
    }
    k = kern(r, "collatz");
    struct hx_params p = {0};
    hx_param(&p, k, out);
    hx_param(&p, k, 1);
    run(r, k, 2, 64, &p, 0);
    for (int t = 0; t < 128; t++) {
        unsigned x = 1 + (unsigned)t, s = 0;
        while (x != 1) {
            x = (x & 1) ? 3 * x + 1 : x / 2;
            s++;
        }
        assert_int_equal(PTR(r, out, unsigned)[t], s);
    }
    hx_rig_free(r);
}

static void votes_and_shuffles(void **state)
{
    (void)state;
    struct hx_rig *r = rig_new("tests/ptx/diverge.ptx");
    const struct ptx_kernel *k = kern(r, "votes");
    addr_t out = hx_alloc(&r->g, 4 * 64);
    struct hx_params p = {0};
    hx_param(&p, k, out);
    run(r, k, 1, 64, &p, 0);
    for (unsigned t = 0; t < 64; t++) {
        unsigned lane = t & 31, base = t - lane;
        unsigned b = 0xaaaaaaaau, all = 1, any = base == 0, am = (t & 4) ? 0xf0f0f0f0u : 0;
        unsigned sh = (base + (lane ^ 5)) * 3;
        assert_int_equal(PTR(r, out, unsigned)[t], b ^ (all << 1) ^ (any << 2) ^ am ^ sh);
    }
    hx_rig_free(r);
}

static int poly_ref(int x, int y)
{
    int a[8];
    for (int i = 0; i < 8; i++)
        a[i] = x * i + y;
    int s = 0;
    for (int i = 0; i < 8; i++)
        s += a[(i * 3 + x) & 7];
    return s;
}

static void calls_one(const char *file)
{
    struct hx_rig *r = rig_new(file);
    const struct ptx_kernel *k = kern(r, "caller");
    addr_t out = hx_alloc(&r->g, 4 * 128), fout = hx_alloc(&r->g, 4 * 64);
    for (int i = 0; i < 128; i++)
        PTR(r, out, int)[i] = -1;
    struct hx_params p = {0};
    hx_param(&p, k, out);
    hx_param(&p, k, fout);
    hx_param(&p, k, 11);
    run(r, k, 1, 64, &p, 0);
    for (int t = 0; t < 64; t++) {
        int v = poly_ref(t, 11);
        if (t & 1)
            v += poly_ref(11, t);
        assert_int_equal(PTR(r, out, int)[t], v);
        assert_true(PTR(r, fout, float)[t] == (float)((float)t * 0.5 + 1.0));
        assert_int_equal(PTR(r, out, int)[64 + t], t - 3 < 0 ? -1 : (t - 3) * (t - 3));
    }
    hx_rig_free(r);
}

static void device_calls(void **state)
{
    (void)state;
    calls_one("tests/ptx/call.ptx");
    calls_one("tests/ptx/call.sm90.ptx");
}

static void atomics(void **state)
{
    (void)state;
    struct hx_rig *r = rig_new("tests/ptx/atomics.ptx");
    const struct ptx_kernel *k = kern(r, "atomics");
    addr_t ctr = hx_alloc(&r->g, 4 * 8), u = hx_alloc(&r->g, 4 * 80), f = hx_alloc(&r->g, 4),
           l = hx_alloc(&r->g, 8);
    PTR(r, u, unsigned)[1] = 0xffffffffu;
    struct hx_params p = {0};
    hx_param(&p, k, ctr);
    hx_param(&p, k, u);
    hx_param(&p, k, f);
    hx_param(&p, k, l);
    run(r, k, 1, 64, &p, 0);
    int *c = PTR(r, ctr, int);
    unsigned *uu = PTR(r, u, unsigned);
    assert_int_equal(c[0], 64);
    assert_int_equal(c[1], 22);
    assert_int_equal(c[2], -63);
    assert_int_equal((unsigned)c[3], 0xffffffffu);
    assert_int_equal(c[4], 64 * 65 / 2); /* CAS loop: sum of t+1 */
    assert_int_equal(c[5], 63 * 64 / 2); /* shared atomicAdd */
    assert_int_equal(uu[0], 0);
    assert_int_equal(uu[1], 0xffffff00u);
    unsigned inc = 0, dec = 0;
    for (int t = 0; t < 64; t++) {
        inc = inc >= 10 ? 0 : inc + 1;
        dec = (dec == 0 || dec > 5) ? 5 : dec - 1;
    }
    assert_int_equal(uu[2], inc);
    assert_int_equal(uu[3], dec);
    assert_int_equal(uu[4] & 1, 0);
    assert_int_equal(uu[5] & 1, 1);
    assert_true(*PTR(r, f, float) == 32.0f);
    assert_int_equal(*PTR(r, l, uint64_t), 63 * 64 / 2);
    uint64_t seen = 0;
    for (int t = 0; t < 64; t++)
        seen |= 1ull << uu[8 + t];
    assert_true(seen == ~0ull); /* atomicAdd returned every old value once */

    /* generic atomics mixing shared and global lanes in one instruction */
    k = kern(r, "generic_atom");
    addr_t g = hx_alloc(&r->g, 4 * 64);
    struct hx_params q = {0};
    hx_param(&q, k, g);
    hx_param(&q, k, 1);
    run(r, k, 1, 64, &q, 0);
    for (int j = 0; j < 32; j++) {
        assert_int_equal(PTR(r, g, int)[j], (j & 1) ? 0 : 2 * j + 32);
        assert_int_equal(PTR(r, g, int)[32 + j], (j & 1) ? 2 * j + 32 : 0);
    }
    hx_rig_free(r);
}

static void release_acquire_one(const char *file)
{
    struct hx_rig *r = rig_new(file);
    const struct ptx_kernel *k = kern(r, "mp");
    addr_t data = hx_alloc(&r->g, 4), flag = hx_alloc(&r->g, 4), out = hx_alloc(&r->g, 16);
    struct hx_params p = {0};
    hx_param(&p, k, data);
    hx_param(&p, k, flag);
    hx_param(&p, k, out);
    run(r, k, 2, 32, &p, 0);
    assert_int_equal(PTR(r, out, int)[0], 42);
    assert_int_equal(PTR(r, out, int)[1], 5);
    assert_int_equal(PTR(r, out, int)[2], 7);
    assert_int_equal(*PTR(r, flag, int), 1);
    hx_rig_free(r);
}

static void release_acquire(void **state)
{
    (void)state;
    release_acquire_one("tests/ptx/atomic_ref.ptx");
    release_acquire_one("tests/ptx/atomic_ref.sm90.ptx");
}

static void close_f(float got, float want, float rel)
{
    if (!(fabsf(got - want) <= rel * fmaxf(1.0f, fabsf(want))))
        fail_msg("got %.9g want %.9g", (double)got, (double)want);
}

static void float_math(void **state)
{
    (void)state;
    struct hx_rig *r = rig_new("tests/ptx/fmath.ptx");
    const struct ptx_kernel *k = kern(r, "fmath");
    addr_t x = hx_alloc(&r->g, 4 * 32), y = hx_alloc(&r->g, 4 * 8 * 32),
           d = hx_alloc(&r->g, 8 * 4 * 32), iv = hx_alloc(&r->g, 4 * 4 * 32);
    for (int t = 0; t < 32; t++)
        PTR(r, x, float)[t] = (float)(t - 13) * 0.37f;
    struct hx_params p = {0};
    hx_param(&p, k, x);
    hx_param(&p, k, y);
    hx_param(&p, k, d);
    hx_param(&p, k, iv);
    run(r, k, 1, 32, &p, 0);
    for (int t = 0; t < 32; t++) {
        float a = (float)(t - 13) * 0.37f;
        float b = fmaf(a, 1.5f, 2.0f); /* nvcc contracts to fma.rn.f32 */
        const float *Y = PTR(r, y, float) + t * 8;
        assert_true(Y[0] == sqrtf(fabsf(a)));
        assert_true(Y[1] == 1.0f / (b + 3.0f));
        close_f(Y[2], expf(a * 0.1f), 1e-5f);
        close_f(Y[3], sinf(a) + cosf(a), 1e-5f);
        assert_true(Y[4] == fminf(a, b) - fmaxf(a, -b));
        close_f(Y[5], 1.0f / sqrtf(fabsf(b) + 1.0f), 1e-6f);
        close_f(Y[6], log2f(fabsf(a) + 1.0f), 1e-6f);
        assert_true(Y[7] == a / (b + 0.25f));
        double da = a;
        const double *D = PTR(r, d, double) + t * 4;
        assert_true(D[0] == da * da - 3.0 * da);
        assert_true(D[1] == sqrt(fabs(da) + 2.0));
        assert_true(D[2] == da / 7.0);
        assert_true(D[3] == fma(da, 2.0, (double)t));
        const int *I = PTR(r, iv, int) + t * 4;
        assert_int_equal(I[0], (int)(a * 10.0f));
        assert_int_equal(I[1], (int)nearbyintf(b));
        assert_int_equal(I[2], (int)(unsigned char)(t * 37));
        assert_int_equal(I[3], a < b ? t : -t);
    }
    hx_rig_free(r);
}

static unsigned brev_ref(unsigned x)
{
    unsigned r = 0;
    for (int i = 0; i < 32; i++)
        r |= ((x >> i) & 1u) << (31 - i);
    return r;
}

static unsigned byte_perm_ref(unsigned x, unsigned y, unsigned s)
{
    uint64_t v = ((uint64_t)y << 32) | x;
    unsigned r = 0;
    for (int n = 0; n < 4; n++)
        r |= (unsigned)((v >> (8 * ((s >> (4 * n)) & 7))) & 0xff) << (8 * n);
    return r;
}

static void integer_math(void **state)
{
    (void)state;
    struct hx_rig *r = rig_new("tests/ptx/fmath.ptx");
    const struct ptx_kernel *k = kern(r, "imath");
    addr_t x = hx_alloc(&r->g, 4 * 32), y = hx_alloc(&r->g, 4 * 8 * 32),
           z = hx_alloc(&r->g, 8 * 2 * 32);
    for (int t = 0; t < 32; t++)
        PTR(r, x, int)[t] = (t * 2654435761u) ^ (t & 1 ? 0x80000000u : 0);
    struct hx_params p = {0};
    hx_param(&p, k, x);
    hx_param(&p, k, y);
    hx_param(&p, k, z);
    run(r, k, 1, 32, &p, 0);
    for (int t = 0; t < 32; t++) {
        int a = PTR(r, x, int)[t];
        unsigned u = (unsigned)a;
        const int *Y = PTR(r, y, int) + t * 8;
        assert_int_equal(Y[0], a / 7 + a % 5);
        assert_int_equal(Y[1], __builtin_popcount(u) + (u ? __builtin_clz(u) : 32));
        assert_int_equal((unsigned)Y[2], brev_ref(u));
        assert_int_equal(Y[3], (u >> 3) & 0x3f);
        assert_int_equal((unsigned)Y[4], byte_perm_ref(u, u * 3, 0x5140));
        unsigned sh = t & 31;
        unsigned fs = sh ? ((u * 5) << sh) | (u >> (32 - sh)) : u * 5;
        assert_int_equal((unsigned)Y[5], fs);
        int mx = a > -t ? a : -t, mn = a < t ? a : t;
        assert_int_equal(Y[6], (int)((unsigned)mx - (unsigned)mn + (unsigned)abs(a)));
        int hi = (int)(((long long)a * 123456789) >> 32);
        unsigned uhi = (unsigned)(((unsigned long long)u * 3000000000u) >> 32);
        assert_int_equal(Y[7], (int)((unsigned)hi + uhi));
        long long w = (long long)a * 1000003LL;
        const long long *Z = PTR(r, z, long long) + t * 2;
        assert_true(Z[0] == w / 13 + (w >> 5));
        assert_true(Z[1] == (long long)((unsigned long long)w % 1000ULL));
    }
    hx_rig_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(vecadd),
        cmocka_unit_test(saxpy_bounds),
        cmocka_unit_test(reduce),
        cmocka_unit_test(divergent_loops),
        cmocka_unit_test(votes_and_shuffles),
        cmocka_unit_test(device_calls),
        cmocka_unit_test(atomics),
        cmocka_unit_test(release_acquire),
        cmocka_unit_test(float_math),
        cmocka_unit_test(integer_math),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
