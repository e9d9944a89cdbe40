// alu_latency.cu - dependent-instruction chains for tests/cli/alu-latency.sh
// (sm.alu_latency, sm.lat_pipeline): one warp runs 2048 instructions, each
// reading the register the one before wrote, so a kernel's cycles less
// k_empty's, over 2048, are that instruction's issue-to-dependent-issue
// distance (the method of validation/pipeline/pipeline.cu).
#define ITER 64
#define R32(x) x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x
#define CHAIN(name, type, cons, text)                                                              \
    extern "C" __global__ void name(unsigned *o, unsigned s)                                       \
    {                                                                                              \
        type r = s + 1;                                                                            \
        for (int i = 0; i < ITER; i++) {                                                           \
            R32(asm volatile(text : "+" cons(r));)                                                 \
        }                                                                                          \
        o[threadIdx.x] = (unsigned)r;                                                              \
    }
extern "C" __global__ void k_empty(unsigned *o, unsigned s)
{
    unsigned r = s;
    for (int i = 0; i < ITER; i++)
        asm volatile("" : "+r"(r));
    o[threadIdx.x] = r;
}
CHAIN(k_xor, unsigned, "r", "xor.b32 %0, %0, 5;")
CHAIN(k_iadd, unsigned, "r", "add.u32 %0, %0, 3;")
CHAIN(k_imul, unsigned, "r", "mul.lo.u32 %0, %0, 3;")
CHAIN(k_idiv, unsigned, "r", "div.u32 %0, %0, 3;")
CHAIN(k_fadd, float, "f", "add.f32 %0, %0, 0f3F800000;")
CHAIN(k_fmax, float, "f", "max.f32 %0, %0, 0f3F800000;")
CHAIN(k_ffma, float, "f", "fma.rn.f32 %0, %0, 0f3F800000, 0f3F800000;")
CHAIN(k_fdiv, float, "f", "div.rn.f32 %0, %0, 0f3F800000;")
CHAIN(k_rsqrt, float, "f", "rsqrt.approx.f32 %0, %0;")
CHAIN(k_dadd, double, "d", "add.f64 %0, %0, 0d3FF0000000000000;")
CHAIN(k_shfl, unsigned, "r", "shfl.sync.idx.b32 %0, %0, 0, 31, -1;")
