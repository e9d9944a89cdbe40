// spandex_app.cuh - what the applications of spec 003 §4.5 (Alsop et al.,
// TACO 2022, §5.2, Fig. 3) share: workloads/fcnn, lstm and lenet include it.
//
// Their pipelined versions run one persistent kernel in which each CTA (one
// per SM: CTA i runs on SM i) is a stage, or a part of a stage, of the
// network. A stage hands its output to the next through a double-buffered
// array in global memory and two counters per CTA, each on its own 64-byte
// line (the paper's "double-buffering and atomic accesses are used to
// synchronize between adjacent layers"):
//   full[c]  inputs CTA c has written to its output buffer (an atomic add
//            with release semantics after the writes),
//   taken[c] inputs CTA c has read from its input buffer (the same, after
//            its reads).
// A consumer waits with an acquire-atomic loop (fetch_add of 0) until every producer it reads
// has written input m; a producer waits until every consumer has taken input
// m - 2 before overwriting slot m % 2. Thread 0 waits and posts; the CTA's
// other threads meet it at __syncthreads, which orders their buffer accesses
// before its release and after its acquire.
//
// Each wait and each post is inlined, so every call site is a static
// instruction of its own and gpucoh spandex select can type it apart from the
// others (spec 003 §5.2.1: acquires ReqO+data, releases ReqWTo+data).
#pragma once
#include <cuda/atomic>

// Counters sit 16 words (64 bytes) apart, one line each.
#define APP_FLAG_STRIDE 16

typedef cuda::atomic_ref<unsigned, cuda::thread_scope_device> app_flag;

// Wait (thread 0) until counters[c * stride] >= want for every c in
// [first, first + n).
__device__ __forceinline__ void app_wait_all(unsigned *counters, int first, int n, unsigned want)
{
    if (threadIdx.x == 0)
        for (int c = first; c < first + n; c++) {
            app_flag f(counters[c * APP_FLAG_STRIDE]);
            while (f.fetch_add(0u, cuda::memory_order_acquire) < want) {
            }
        }
    __syncthreads();
}

// Post (thread 0, after every thread's accesses): counters[c * stride] += 1.
__device__ __forceinline__ void app_post(unsigned *counters, int c)
{
    __syncthreads();
    if (threadIdx.x == 0) {
        app_flag f(counters[c * APP_FLAG_STRIDE]);
        f.fetch_add(1u, cuda::memory_order_release);
    }
}

// The quantised activations the networks use (the host's replay has the
// same): values are fixed point with 7 fraction bits.
__device__ __forceinline__ int app_relu(int acc)
{
    int v = acc >> 7;
    return v < 0 ? 0 : (v > 127 ? 127 : v);
}
