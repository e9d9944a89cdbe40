// spandex_micro.cuh - what the microbenchmarks of spec 003 §4 (Alsop et
// al., TACO 2022, §5.1, Fig. 2) share: workloads/flexvs, flexowt, flexoawta
// and prodcons include it. As in the paper, their "CPU" phases run on the
// CPU cores (one thread each, launched on the CPU) and their "GPU" phases on
// the GPU's compute units (a CTA each), both kernels at the same time: CPU
// thread i and GPU CTA i own partition i.
//
// The paper separates phases by kernel boundaries. gpucoh's DeNovo and MESI
// L1s write owned data back at kernel end (docs/protocols/spandex.md), which
// would drop what a core owns between its phases, so the phases are
// separated by CPU-GPU flags instead: each participant raises its own flag
// (a release store of the phase number, one flag per 64-byte line) when its
// phase is done, and a participant starts its next phase once the flags of
// the participants whose data it touches are raised (relaxed polls, then an
// acquire). No word is written by two participants' synchronisation, so no
// atomic moves a counter from core to core.
#pragma once

// Flag of participant i of side s (0: the CPU threads, 1: the GPU CTAs) in
// a block of 2 * n flags a line apart.
__device__ static unsigned *spx_flag(unsigned *flags, unsigned side, unsigned i, unsigned n)
{
    return flags + (side * n + i) * 16u;
}

__device__ static unsigned poll_relaxed(const unsigned *p)
{
    unsigned v;
    asm volatile("ld.relaxed.sys.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

// About n * 3 dependent instructions of nothing (nanosleep is a no-op
// here): the gap between two polls, so that a waiting participant's polls
// (each a request to the LLC under DeNovo and GPU coherence) do not make
// most of a run's traffic.
__device__ static void poll_gap(unsigned n)
{
    asm volatile("{\n\t.reg .u32 c;\n\t.reg .pred p;\n\tmov.u32 c, %0;\n"
                 "GAP%=:\n\tsub.u32 c, c, 1;\n\tsetp.ne.u32 p, c, 0;\n\t@p bra GAP%=;\n\t}" ::"r"(n));
}

// Spin (one thread) until *flag reaches v.
__device__ static void await_flag(const unsigned *flag, unsigned v)
{
    while (poll_relaxed(flag) < v)
        poll_gap(32);
}

// After this thread's polls: an acquire, then the rest of the CTA goes on.
__device__ static void acquire_all(void)
{
    asm volatile("fence.acq_rel.sys;" ::: "memory");
    __syncthreads();
}

// This participant's phase is done: every thread's writes, then flag = v
// (a release).
__device__ static void raise_flag(unsigned *flag, unsigned v)
{
    __syncthreads();
    if (threadIdx.x == 0) {
        __threadfence_system();
        asm volatile("st.release.sys.global.u32 [%0], %1;" ::"l"(flag), "r"(v) : "memory");
    }
}

// Wait until every flag of side `side` reached v: one thread polls them in
// turn (one poll in flight per waiting participant; a poll per lane would
// multiply the polling traffic by the lanes).
__device__ static void await_side(unsigned *flags, unsigned side, unsigned n, unsigned v)
{
    if (threadIdx.x == 0)
        for (unsigned k = 0; k < n; k++)
            await_flag(spx_flag(flags, side, k, n), v);
    acquire_all();
}
