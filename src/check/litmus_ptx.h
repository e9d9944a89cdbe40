/*
 * litmus_ptx.h - a litmus test as one PTX kernel that the simulator runs like
 * any CUDA kernel.
 *
 * Placement: the test's CTAs (sorted by id) become CTAs 0, 1, ... of the
 * grid, so CTA i runs on SM i; on a machine of several GPMs (G of them) the
 * grid has G x K CTAs, K the most CTAs a GPM gets: CTAs of GPM g (global
 * index gpu x gpms + gpm) become g x K + 0, 1, ..., which contiguous CTA
 * scheduling puts on that GPM's SMs 0, 1, ... (the others exit); within a CTA, its threads (in P
 * order) become warps 0, 1, ...; each litmus thread is one warp in which lane 0 does the work (the
 * other lanes leave at once) or, with all_lanes, every lane does the loads and stores and lane 0
 * alone the atomics (their results are broadcast through shared memory). Locations are 32-bit words
 * of one global buffer, each in its own 128-byte line unless packed. Registers are stored to a
 * result buffer at the end, one word per observable. Barriers become bar.sync/bar.arrive on one
 * hardware barrier per barrier group with an explicit thread count (members x 32; barriers count
 * whole warps). Randomisation inside the kernel: a start-skew delay loop per thread (its length is
 * a kernel parameter) and an optional pre-warm of the L1 (lane 0 loads every location the thread
 * uses, waits for the values, then a delay). Tests the hardware barriers cannot express are refused
 * with a reason. SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef CHECK_LITMUS_PTX_H
#define CHECK_LITMUS_PTX_H

#include "check/litmus.h"

struct litmus_ptx_opts {
    bool all_lanes;       /* every lane of a litmus warp loads and stores */
    bool pack;            /* locations in consecutive words rather than one line each */
    bool prewarm;         /* pre-warm the L1 with every location the thread uses */
    unsigned gpus, gpms;  /* the machine's topology (0: 1) */
    unsigned cpus;        /* its CPU cores (cpu.cores) */
    unsigned spin_budget; /* backward jumps a looping thread may take (p_spin) before it
                             gives up and raises its flag; 0: no budget, the kernel as before */
};

/* Kernel parameters, in order: p_mem (u64), p_out (u64), p_skew0..p_skew{T-1}
 * (u32 delay-loop iterations per thread), p_warm (u32 delay after pre-warm),
 * p_wmask0..p_wmask{T-1}, and for a test with threads on CPU cores p_cpu
 * (u32: 1 in the launch on the CPU cores), then with spin_flags p_spin (u32:
 * the spin budget).
 * Threads placed on CPU cores ("P1@cpu N") run in a second launch of the same
 * kernel on the CPU, together with the GPU's: CPU core N runs CTA N there. */
struct litmus_ptx {
    char *text;                           /* the PTX module (malloc'd) */
    const char *kernel;                   /* its entry name */
    unsigned n_ctas, warps_per_cta;       /* grid and block (x 32 threads); 0 CTAs: no
                                             thread on the GPU */
    unsigned n_cpu_ctas;                  /* the CPU launch's grid (0: no CPU thread) */
    unsigned cta_of[LITMUS_MAX_THREADS];  /* grid CTA of each litmus thread */
    unsigned warp_of[LITMUS_MAX_THREADS]; /* warp in its CTA */
    unsigned lane_of[LITMUS_MAX_THREADS]; /* lane in its warp (",warp N" placements) */
    unsigned loc_offset[LITMUS_MAX_LOCS]; /* byte offset of each location (aliases: root) */
    unsigned mem_bytes;                   /* size of the location buffer */
    unsigned out_bytes;                   /* size of the result buffer (one word per obs,
                                             then one per thread with spin_flags) */
    bool spin_flags;                      /* a spin budget and a loop: the p_spin parameter
                                             and, at spin_offset, a word per thread, 1 when
                                             it ran out of budget in a loop */
    unsigned spin_offset;
};

/* Translate. Returns 0, or -1 with the reason the test cannot run (a skip,
 * not an input error) in why. */
int litmus_ptx_build(const struct litmus_test *t, const struct litmus_ptx_opts *o,
                     struct litmus_ptx *p, char *why, size_t whylen);
void litmus_ptx_free(struct litmus_ptx *p);

#endif
