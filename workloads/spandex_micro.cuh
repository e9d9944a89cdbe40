// spandex_micro.cuh - what the microbenchmarks of spec 003 §4 (Alsop et
// al., TACO 2022, §5.1, Fig. 2) share: workloads/flexvs, flexowt, flexoawta
// and prodcons include it. The paper runs their "CPU" phases on 16 CPU
// cores and their "GPU" phases on 16 GPU CUs; gpucoh has no CPU cores yet,
// so the first half of the CTAs plays the CPU cores and the second half the
// GPU CUs, each CTA on an SM of its own (16 CTAs on 16 SMs: CTA i runs on
// SM i). The phases are separated by a grid barrier (a release and an
// acquire at gpu scope), not by kernel boundaries, so that what an SM owns
// survives from one phase to the next as it does between the paper's
// phases. Every access pattern follows the spec's synthetic re-creation
// (§4.1-4.4); "sparse" is one word per 64-byte line.
//
// The CTAs must all be resident at once (the barrier spins): the host
// launches at most as many as the machine holds.
#pragma once

// A grid barrier: thread 0 of each CTA arrives on `count`; the last one
// starts the next generation. __threadfence is fence.sc.gpu: a release
// before arriving and an acquire after leaving.
__device__ void grid_sync(unsigned *count, volatile unsigned *gen, unsigned n)
{
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned g = *gen;
        __threadfence();
        if (atomicAdd(count, 1u) == n - 1) {
            *count = 0;
            __threadfence();
            atomicExch((unsigned *)gen, g + 1);
        } else {
            while (*gen == g)
                ;
        }
        __threadfence();
    }
    __syncthreads();
}

