// pipeline.cu - the dependent-instruction microbenchmark of docs/validation.md
// (bh under rc): one warp runs ITER iterations of a loop body of 32
// instructions, each reading the register the one before wrote, so a kernel's
// cycles over 2048 are the issue-to-dependent-issue distance of that
// instruction (k_empty: the launch and store around it; k_indep: eight
// independent chains, one warp's issue rate; k_ldg/k_lds: a pointer chase
// through an L1-resident table / shared memory, with its address arithmetic).
// Built and run on both simulators:
//   nvcc -O3 -gencode arch=compute_75,code=compute_75 --no-compress -cudart shared \
//        -o pipeline validation/pipeline/pipeline.cu
//   gpucoh cuda --protocol rc -- ./pipeline
//   (GPGPU-Sim: from a directory holding validation/gpgpusim/tc-fermi.config plus
//    the rc-perfectic-localinsm options as gpgpusim.config, and tc-fermi.icnt)
// Kernels are launched with cudaLaunchKernel, not <<<>>>, which the CUDA 13
// build of GPGPU-Sim does not take (docs/validation.md).
#include <cstdio>
#include <cuda_runtime.h>
#define ITER 64
#define R32(x) x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x
extern "C" __global__ void k_empty(unsigned *o, unsigned s) {
  unsigned r = s;
  for (int i = 0; i < ITER; i++) asm volatile("" : "+r"(r));
  o[threadIdx.x] = r;
}
extern "C" __global__ void k_iadd(unsigned *o, unsigned s) {
  unsigned r = s;
  for (int i = 0; i < ITER; i++) { R32(asm volatile("add.u32 %0, %0, 3;" : "+r"(r));) }
  o[threadIdx.x] = r;
}
extern "C" __global__ void k_xor(unsigned *o, unsigned s) {
  unsigned r = s;
  for (int i = 0; i < ITER; i++) { R32(asm volatile("xor.b32 %0, %0, 5;" : "+r"(r));) }
  o[threadIdx.x] = r;
}
extern "C" __global__ void k_fadd(unsigned *o, unsigned s) {
  float r = s;
  for (int i = 0; i < ITER; i++) { R32(asm volatile("add.f32 %0, %0, 0f3F800000;" : "+f"(r));) }
  o[threadIdx.x] = (unsigned)r;
}
extern "C" __global__ void k_ffma(unsigned *o, unsigned s) {
  float r = s;
  for (int i = 0; i < ITER; i++) { R32(asm volatile("fma.rn.f32 %0, %0, 0f3F800000, 0f3F800000;" : "+f"(r));) }
  o[threadIdx.x] = (unsigned)r;
}
extern "C" __global__ void k_rsqrt(unsigned *o, unsigned s) {
  float r = s + 1;
  for (int i = 0; i < ITER; i++) { R32(asm volatile("rsqrt.approx.f32 %0, %0;" : "+f"(r));) }
  o[threadIdx.x] = (unsigned)(r * 1000);
}
extern "C" __global__ void k_indep(unsigned *o, unsigned s) {
  unsigned a = s, b = s, c = s, d = s, e = s, f = s, g = s, h = s;
  for (int i = 0; i < ITER; i++) {
    R32(asm volatile("add.u32 %0, %0, 3; add.u32 %1, %1, 3; add.u32 %2, %2, 3; add.u32 %3, %3, 3; add.u32 %4, %4, 3; add.u32 %5, %5, 3; add.u32 %6, %6, 3; add.u32 %7, %7, 3;" : "+r"(a), "+r"(b), "+r"(c), "+r"(d), "+r"(e), "+r"(f), "+r"(g), "+r"(h));)
  }
  o[threadIdx.x] = a + b + c + d + e + f + g + h;
}
extern "C" __global__ void k_ldg(unsigned *o, unsigned s) {
  // pointer chase through a 32-word table the first pass brings into the L1
  unsigned idx = threadIdx.x;
  for (int i = 0; i < ITER; i++) { R32(asm volatile("ld.global.u32 %0, [%1];" : "=r"(idx) : "l"(o + 64 + idx));) }
  o[threadIdx.x] = idx;
}
extern "C" __global__ void k_lds(unsigned *o, unsigned s) {
  __shared__ unsigned t[64];
  t[threadIdx.x] = threadIdx.x;
  __syncthreads();
  unsigned idx = threadIdx.x;
  for (int i = 0; i < ITER; i++) { R32(asm volatile("ld.shared.u32 %0, [%1];" : "=r"(idx) : "r"((unsigned)__cvta_generic_to_shared(t) + idx * 4));) }
  o[threadIdx.x] = idx;
}
int main() {
  unsigned *d;
  unsigned h[128];
  for (int i = 0; i < 128; i++) h[i] = i < 64 ? 0 : (i - 64);
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  unsigned one = 1;
  void *args[] = {&d, &one};
  const void *ks[] = {(const void *)k_empty, (const void *)k_iadd, (const void *)k_xor, (const void *)k_fadd,
                      (const void *)k_ffma, (const void *)k_rsqrt, (const void *)k_indep, (const void *)k_ldg,
                      (const void *)k_lds};
  for (int k = 0; k < 9; k++) cudaLaunchKernel(ks[k], dim3(1), dim3(32), args, 0, 0);
  cudaDeviceSynchronize();
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("mb done %u\n", h[0]);
  return 0;
}
