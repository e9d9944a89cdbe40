// half.cu - half-precision arithmetic, compares and conversions as nvcc emits
// them for cuda_fp16.h (__half, __half2) and cuda_bf16.h (__nv_bfloat16,
// __nv_bfloat162). Inputs and outputs are raw bit patterns so that the test
// (tests/unit/103-ptx-half.c) can check every lane bit for bit.
//   nvcc -ptx -arch=sm_75 -O3 -o half.ptx half.cu
//   nvcc -ptx -arch=sm_90 -O3 -o half.sm90.ptx half.cu
// On sm_75 the bf16 functions are emulated in f32 by the headers (bf16 fma
// does not exist before sm_80: those slots hold 0xdead); on sm_90 they become
// add/sub/mul/fma/min/max/setp on .bf16 and .bf16x2.
#include <cuda_fp16.h>
#include <cuda_bf16.h>

#define NH 24 // f16 results per thread
#define NH2 17 // f16x2 results per thread
#define NB 17 // bf16 results per thread
#define NB2 14 // bf16x2 results per thread

static __device__ __half h_of(unsigned short u) { return __ushort_as_half(u); }
static __device__ unsigned short u_of(__half h) { return __half_as_ushort(h); }
static __device__ unsigned u2_of(__half2 h)
{
    return (unsigned)__half_as_ushort(__low2half(h)) |
           ((unsigned)__half_as_ushort(__high2half(h)) << 16);
}

// ex2.approx on f16: cuda_fp16.h computes hexp2 in f32, so the f16 form is
// reached only through inline PTX.
static __device__ __half ex2_f16(__half a)
{
    unsigned short r, x = __half_as_ushort(a);
    asm("ex2.approx.f16 %0, %1;" : "=h"(r) : "h"(x));
    return __ushort_as_half(r);
}
static __device__ unsigned ex2_f16x2(unsigned a)
{
    unsigned r;
    asm("ex2.approx.f16x2 %0, %1;" : "=r"(r) : "r"(a));
    return r;
}

// setp on packed halves writes two predicates, p for the low element and q
// for the high one; with a BoolOp both are combined with the same c. The
// headers reach these forms only through set/and sequences, so inline PTX.
static __device__ unsigned setp_f16x2(unsigned a, unsigned b, unsigned c)
{
    unsigned r;
    asm("{ .reg .pred %%sp, %%sq, %%sr, %%ss, %%sc;\n"
        "  setp.ne.u32 %%sc, %3, 0;\n"
        "  setp.lt.f16x2 %%sp|%%sq, %1, %2;\n"
        "  setp.geu.or.f16x2 %%sr|%%ss, %1, %2, !%%sc;\n"
        "  selp.u32 %0, 1, 0, %%sp;\n"
        "  @%%sq or.b32 %0, %0, 2;\n"
        "  @%%sr or.b32 %0, %0, 4;\n"
        "  @%%ss or.b32 %0, %0, 8;\n"
        "}" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
}

extern "C" __global__ void half_ops(const unsigned short *A, const unsigned short *B,
                                    const unsigned short *C, const float *F,
                                    unsigned short *o, unsigned *o2)
{
    int t = threadIdx.x;
    __half a = h_of(A[t]), b = h_of(B[t]), c = h_of(C[t]);
    unsigned short *r = o + t * NH;
    r[0] = u_of(__hadd(a, b));
    r[1] = u_of(__hsub(a, b));
    r[2] = u_of(__hmul(a, b));
    r[3] = u_of(__hfma(a, b, c));
    r[4] = u_of(__hneg(a));
    r[5] = u_of(__habs(a));
    r[6] = u_of(__hmin(a, b));
    r[7] = u_of(__hmax(a, b));
    r[8] = u_of(__hmin_nan(a, b));
    r[9] = u_of(__hmax_nan(a, b));
    r[10] = u_of(__hadd_sat(a, b));
    r[11] = u_of(__hmul_sat(a, b));
    r[12] = u_of(__hfma_sat(a, b, c));
    r[13] = u_of(__hfma_relu(a, b, c));
    r[14] = u_of(__hsub_sat(a, b));
    r[15] = (unsigned short)(__hlt(a, b) | __hle(a, b) << 1 | __hgt(a, b) << 2 |
                             __hge(a, b) << 3 | __heq(a, b) << 4 | __hne(a, b) << 5 |
                             __hltu(a, b) << 6 | __hgeu(a, b) << 7 | __hisnan(a) << 8 |
                             __hequ(a, b) << 9 | __hneu(a, b) << 10);
    r[16] = u_of(__float2half_rn(F[t]));
    r[17] = u_of(ex2_f16(a));
    r[18] = u_of(htanh_approx(a));
    r[19] = u_of(__hadd_rn(a, b));
    r[20] = u_of(__hmul_rn(a, b));
    r[21] = u_of(__hsub_rn(a, b));
    r[22] = u_of(hexp(a));
    r[23] = u_of(__hlt(a, b) ? __hsub(a, c) : __hadd(b, c));

    __half2 x = __halves2half2(a, b), y = __halves2half2(c, a), z = __halves2half2(b, c);
    unsigned *q = o2 + t * NH2;
    q[0] = u2_of(__hadd2(x, y));
    q[1] = u2_of(__hsub2(x, y));
    q[2] = u2_of(__hmul2(x, y));
    q[3] = u2_of(__hfma2(x, y, z));
    q[4] = u2_of(__hmin2(x, y));
    q[5] = u2_of(__hmax2_nan(x, y));
    q[6] = u2_of(__hneg2(x));
    q[7] = u2_of(__habs2(x));
    q[8] = u2_of(__hadd2_sat(x, y));
    q[9] = u2_of(__hfma2_relu(x, y, z));
    q[10] = u2_of(__hlt2(x, y));
    q[11] = __hlt2_mask(x, y) ^ __hgeu2_mask(x, z);
    q[12] = (unsigned)__hblt2(x, y) | (unsigned)__hbgt2(x, y) << 1 | (unsigned)__hbequ2(x, z) << 2;
    q[13] = u2_of(__floats2half2_rn(F[t], F[(t + 1) & 31]));
    q[14] = ex2_f16x2(u2_of(x));
    q[15] = u2_of(h2tanh_approx(x));
    q[16] = setp_f16x2(u2_of(x), u2_of(y), t & 1);
}

static __device__ __nv_bfloat16 b_of(unsigned short u) { return __ushort_as_bfloat16(u); }
static __device__ unsigned short ub_of(__nv_bfloat16 h) { return __bfloat16_as_ushort(h); }
static __device__ unsigned ub2_of(__nv_bfloat162 h)
{
    return (unsigned)__bfloat16_as_ushort(__low2bfloat16(h)) |
           ((unsigned)__bfloat16_as_ushort(__high2bfloat16(h)) << 16);
}

extern "C" __global__ void bf16_ops(const unsigned short *A, const unsigned short *B,
                                    const unsigned short *C, const float *F,
                                    unsigned short *o, unsigned *o2)
{
    int t = threadIdx.x;
    __nv_bfloat16 a = b_of(A[t]), b = b_of(B[t]), c = b_of(C[t]);
    unsigned short *r = o + t * NB;
    r[0] = ub_of(__hadd(a, b));
    r[1] = ub_of(__hsub(a, b));
    r[2] = ub_of(__hmul(a, b));
#if __CUDA_ARCH__ >= 800
    r[3] = ub_of(__hfma(a, b, c));
#else
    r[3] = 0xdead; // bf16 fma needs sm_80
#endif
    r[4] = ub_of(__hneg(a));
    r[5] = ub_of(__habs(a));
    r[6] = ub_of(__hmin(a, b));
    r[7] = ub_of(__hmax(a, b));
    r[8] = ub_of(__hmin_nan(a, b));
    r[9] = ub_of(__hmax_nan(a, b));
#if __CUDA_ARCH__ >= 800
    r[10] = ub_of(__hfma_relu(a, b, c));
#else
    r[10] = 0xdead;
#endif
    r[11] = (unsigned short)(__hlt(a, b) | __hle(a, b) << 1 | __hgt(a, b) << 2 |
                             __hge(a, b) << 3 | __heq(a, b) << 4 | __hne(a, b) << 5 |
                             __hltu(a, b) << 6 | __hgeu(a, b) << 7 | __hisnan(a) << 8 |
                             __hequ(a, b) << 9 | __hneu(a, b) << 10);
    r[12] = ub_of(__float2bfloat16_rn(F[t]));
    r[13] = ub_of(__hadd_rn(a, b));
    r[14] = ub_of(__hmul_rn(a, b));
    r[15] = ub_of(__hlt(a, b) ? __hsub(a, c) : __hadd(b, c));
#if __CUDA_ARCH__ >= 900
    r[16] = ub_of(htanh_approx(a));
#else
    r[16] = 0xdead; // tanh.approx.bf16 needs sm_90
#endif

    __nv_bfloat162 x = __halves2bfloat162(a, b), y = __halves2bfloat162(c, a),
                   z = __halves2bfloat162(b, c);
    unsigned *q = o2 + t * NB2;
    q[0] = ub2_of(__hadd2(x, y));
    q[1] = ub2_of(__hsub2(x, y));
    q[2] = ub2_of(__hmul2(x, y));
#if __CUDA_ARCH__ >= 800
    q[3] = ub2_of(__hfma2(x, y, z));
#else
    q[3] = 0xdeadu;
#endif
    q[4] = ub2_of(__hmin2(x, y));
    q[5] = ub2_of(__hmax2_nan(x, y));
    q[6] = ub2_of(__hneg2(x));
    q[7] = ub2_of(__habs2(x));
#if __CUDA_ARCH__ >= 800
    q[8] = ub2_of(__hfma2_relu(x, y, z));
#else
    q[8] = 0xdeadu;
#endif
    q[9] = ub2_of(__hlt2(x, y));
    q[10] = (unsigned)__hblt2(x, y) | (unsigned)__hbgt2(x, y) << 1 | (unsigned)__hbequ2(x, z) << 2;
    q[11] = ub2_of(__floats2bfloat162_rn(F[t], F[(t + 1) & 31]));
#if __CUDA_ARCH__ >= 900
    unsigned r2;
    asm("{ .reg .pred %%bp, %%bq;\n"
        "  setp.gtu.bf16x2 %%bp|%%bq, %1, %2;\n"
        "  selp.u32 %0, 1, 0, %%bp;\n"
        "  @%%bq or.b32 %0, %0, 2;\n"
        "}" : "=r"(r2) : "r"(ub2_of(x)), "r"(ub2_of(y)));
    q[12] = r2;
    q[13] = ub2_of(h2tanh_approx(x));
#else
    q[12] = q[13] = 0xdeadu; // setp and tanh.approx on .bf16x2 need sm_90
#endif
}
