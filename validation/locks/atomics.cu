// atomics.cu - the lock-operation microbenchmark of docs/validation.md (cl-tm):
// one thread runs 256 dependent operations of one kind (each takes its
// address or operand from the one before), so a kernel's cycles over 256 are
// one operation's round trip (k_none: the launch and store around it). The
// operations are those of cl_tm's cl_lock: atom.cas that succeeds and that
// fails, atom.exch, ld.volatile, and membar.gl alone and after a store.
// Built and run on both simulators as validation/pipeline/pipeline.cu:
//   nvcc -O3 -gencode arch=compute_75,code=compute_75 --no-compress -cudart shared \
//        -o atomics validation/locks/atomics.cu
//   gpucoh cuda --protocol rc -- ./atomics   (and --protocol nol1; `./atomics cs`: k_cs only)
//   (GPGPU-Sim: from a directory holding run_gpgpusim.sh's gpgpusim.config of
//    the baseline, and tc-fermi.icnt)
#include <cstdio>
#include <cuda_runtime.h>
#define ITER 8
#define R32(x) x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x
extern "C" __global__ void k_none(unsigned *o, unsigned s) {
  unsigned r = s;
  for (int i = 0; i < ITER; i++) asm volatile("" : "+r"(r));
  o[100] = r;
}
// compare == the word's value: every CAS succeeds (the next compare is old + 1)
extern "C" __global__ void k_cas_ok(unsigned *o, unsigned s) {
  unsigned r = 0;
  for (int i = 0; i < ITER; i++) {
    R32(asm volatile("{.reg .u32 t; add.u32 t, %0, 1; atom.global.cas.b32 %0, [%1], %0, t; add.u32 %0, %0, 1;}" : "+r"(r) : "l"(o));)
  }
  o[100] = r;
}
// compare has the top bit set, the word never does: every CAS fails
extern "C" __global__ void k_cas_fail(unsigned *o, unsigned s) {
  unsigned r = 0;
  for (int i = 0; i < ITER; i++) {
    R32(asm volatile("{.reg .u32 t; or.b32 t, %0, 0x80000000; atom.global.cas.b32 %0, [%1], t, 7;}" : "+r"(r) : "l"(o + 32));)
  }
  o[100] = r;
}
extern "C" __global__ void k_exch(unsigned *o, unsigned s) {
  unsigned r = 0;
  for (int i = 0; i < ITER; i++) {
    R32(asm volatile("atom.global.exch.b32 %0, [%1], %0;" : "+r"(r) : "l"(o + 64));)
  }
  o[100] = r;
}
// atom.exch whose result nothing reads (cl_unlock2's releases): issue to issue
extern "C" __global__ void k_exch_nouse(unsigned *o, unsigned s) {
  unsigned r = s;
  for (int i = 0; i < ITER; i++) {
    R32(asm volatile("{.reg .u32 t; atom.global.exch.b32 t, [%1], %0;}" : "+r"(r) : "l"(o + 72));)
  }
  o[100] = r;
}
// o[96 + idx] == idx == 0: a chase through one word
extern "C" __global__ void k_ldvol(unsigned *o, unsigned s) {
  unsigned idx = 0;
  for (int i = 0; i < ITER; i++) {
    R32(asm volatile("ld.volatile.global.u32 %0, [%1];" : "=r"(idx) : "l"(o + 96 + idx));)
  }
  o[100] = idx;
}
extern "C" __global__ void k_fence(unsigned *o, unsigned s) {
  unsigned r = s;
  for (int i = 0; i < ITER; i++) { R32(asm volatile("membar.gl; add.u32 %0, %0, 1;" : "+r"(r));) }
  o[100] = r;
}
extern "C" __global__ void k_st_fence(unsigned *o, unsigned s) {
  unsigned r = s;
  for (int i = 0; i < ITER; i++) {
    R32(asm volatile("st.volatile.global.u32 [%1], %0; membar.gl; add.u32 %0, %0, 1;" : "+r"(r) : "l"(o + 104));)
  }
  o[100] = r;
}
// 16 CTAs x 64 threads (cl_tm's tiny launch), each thread 64 dependent
// failing CASes on one of 256 lock words (cl_tm's tiny lock array): the L2's
// atomic throughput under contention, not one round trip
extern "C" __global__ void k_contend_cas(unsigned *o, unsigned s) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x, r = 0;
  unsigned *w = o + 256 + (t * 37) % 256;
  for (int i = 0; i < 2; i++) {
    R32(asm volatile("{.reg .u32 t; or.b32 t, %0, 0x80000000; atom.global.cas.b32 %0, [%1], t, 7;}" : "+r"(r) : "l"(w));)
  }
  o[512 + t] = r;
}
// the same with dependent ld.volatile of the lock words
extern "C" __global__ void k_contend_ldvol(unsigned *o, unsigned s) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x, idx = 0;
  unsigned *w = o + 256 + (t * 37) % 256;
  for (int i = 0; i < 2; i++) {
    R32(asm volatile("ld.volatile.global.u32 %0, [%1];" : "=r"(idx) : "l"(w + idx));)
  }
  o[512 + t] = idx;
}
// cl_tm's critical section without contention: each thread of one warp
// takes and releases its own two locks (cl_lock2 / cl_unlock2, whose code
// this is) 64 times around cl_lock's loads and stores of its own two vertex
// records; launched with 1 thread and with 32
extern "C" __global__ void k_cs(unsigned *o, unsigned s) {
  int *locks = (int *)o + 1024;
  volatile int *v = (volatile int *)o + 1088;
  int t = threadIdx.x, u = 2 * t, w = 2 * t + 1;
  for (int i = 0; i < 64; i++) {
    volatile bool done = false;
    while (!done) {
      if (atomicCAS(&locks[w], 0, 1) != 0) continue;
      if (atomicCAS(&locks[u], 0, 1) != 0) { atomicExch(&locks[w], 0); continue; }
      __threadfence();
      int ax = v[4 * u], ay = v[4 * u + 1], bx = v[4 * w], by = v[4 * w + 1];
      int cx = (bx - ax) / 4, cy = (by - ay) / 4;
      v[4 * u] = ax + cx; v[4 * u + 1] = ay + cy; v[4 * u + 2] = v[4 * u + 2] + 1;
      v[4 * w] = bx - cx; v[4 * w + 1] = by - cy; v[4 * w + 2] = v[4 * w + 2] + 1;
      __threadfence();
      atomicExch(&locks[u], 0);
      atomicExch(&locks[w], 0);
      done = true;
    }
  }
}
int main(int argc, char **argv) {
  unsigned *d;
  unsigned h[1536] = {0};
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  unsigned one = 1;
  void *args[] = {&d, &one};
  const void *ks[] = {(const void *)k_none,  (const void *)k_cas_ok, (const void *)k_cas_fail,
                      (const void *)k_exch,  (const void *)k_ldvol,  (const void *)k_fence,
                      (const void *)k_st_fence, (const void *)k_exch_nouse};
  bool cs_only = argc > 1; // `atomics cs`: only the two k_cs launches
  for (int k = 0; k < 8 && !cs_only; k++) cudaLaunchKernel(ks[k], dim3(1), dim3(1), args, 0, 0);
  if (!cs_only) cudaLaunchKernel((const void *)k_contend_cas, dim3(16), dim3(64), args, 0, 0);
  if (!cs_only) cudaLaunchKernel((const void *)k_contend_ldvol, dim3(16), dim3(64), args, 0, 0);
  cudaLaunchKernel((const void *)k_cs, dim3(1), dim3(1), args, 0, 0);
  cudaLaunchKernel((const void *)k_cs, dim3(1), dim3(32), args, 0, 0);
  cudaDeviceSynchronize();
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("atomics done %u %u\n", h[0], h[100]);
  return 0;
}
