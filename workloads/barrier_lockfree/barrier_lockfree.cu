// barrier_lockfree.cu - the lock-free inter-CTA barrier of Xiao and Feng
// ("Inter-block GPU communication via fast barrier synchronization", IPDPS
// 2010), repeated for `episodes` episodes, with the fences that later CUDA
// code adds to it. Each CTA has an in flag and an out flag (two contiguous
// arrays). An episode with goal e: __syncthreads; thread 0 of CTA b does
// __threadfence and sets in[b] = e. In CTA 0, thread i < gridDim.x waits
// until in[i] == e; __threadfence, __syncthreads, __threadfence, then
// thread i sets out[i] = e. Thread 0 of every CTA waits until out[b] == e,
// then __threadfence and __syncthreads. Flag accesses are relaxed
// device-scope atomics (cuda::atomic_ref), never plain loads, so the spins
// always see the new value. Needs blockDim.x >= gridDim.x.
// Data and check as in barrier_tree: tags written before each barrier, every
// CTA's slots read after it, mismatches counted in errs[0] (first in
// errs[1..5]), two buffers alternating by episode.
#include <cuda/atomic>

using dev_uint = cuda::atomic_ref<unsigned, cuda::thread_scope_device>;

__device__ unsigned slot_tag(unsigned e, unsigned cta, unsigned t)
{
    return (e << 20) | (cta << 8) | t;
}

__device__ void lf_barrier(unsigned *fin, unsigned *fout, unsigned goal)
{
    unsigned t = threadIdx.x, b = blockIdx.x, n = gridDim.x;
    __syncthreads();
    if (t == 0) {
        __threadfence();
        dev_uint(fin[b]).store(goal, cuda::memory_order_relaxed);
    }
    if (b == 0) {
        if (t < n) {
            while (dev_uint(fin[t]).load(cuda::memory_order_relaxed) != goal) {
            }
            __threadfence();
        }
        __syncthreads();
        if (t < n) {
            __threadfence();
            dev_uint(fout[t]).store(goal, cuda::memory_order_relaxed);
        }
    }
    if (t == 0) {
        while (dev_uint(fout[b]).load(cuda::memory_order_relaxed) != goal) {
        }
        __threadfence();
    }
    __syncthreads();
}

extern "C" __global__ void barrier_lockfree(unsigned *buf, unsigned *fin, unsigned *fout,
                                            unsigned *errs, int episodes)
{
    unsigned n = gridDim.x, b = blockIdx.x, t = threadIdx.x, bt = blockDim.x;
    for (unsigned e = 1; e <= (unsigned)episodes; e++) {
        unsigned *half = buf + (e & 1u) * n * bt;
        half[b * bt + t] = slot_tag(e, b, t);
        lf_barrier(fin, fout, e);
        for (unsigned c = 0; c < n; c++) {
            unsigned got = half[c * bt + t];
            if (got != slot_tag(e, c, t) && atomicAdd(&errs[0], 1u) == 0u) {
                errs[1] = e;
                errs[2] = b;
                errs[3] = c;
                errs[4] = t;
                errs[5] = got;
            }
        }
    }
}
