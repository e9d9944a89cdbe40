/*
 * cl.cu - CL: cloth distance-constraint solver (RopaDemo-style) in one
 * persistent kernel.
 *
 * Stands for Cloth Physics of the Temporal Coherence study and the RCC
 * thesis (Brownsword, GDC'09): the Distance Solver kernel moves cloth
 * particles so that constraints (springs) return to their rest length.
 * Constraints are coloured into 8 batches (horizontal, vertical and both
 * diagonals, each split by parity) so that no two constraints of a batch
 * share a particle; a batch is solved in parallel, Gauss-Seidel style, and a
 * software global barrier separates batches. Constraint c of a batch belongs
 * to thread (c + rot * blockDim) mod (grid size), rot advancing by one per
 * batch, so the constraints that share a particle in consecutive batches
 * belong to different CTAs: every barrier hands freshly written particle
 * positions to other workgroups.
 * Barrier: a monotonic arrival counter (atomicAdd, then spin until it reaches
 * ctas * epoch); __threadfence before arriving and after leaving publishes
 * and acquires the positions. Variant nofence drops both fences.
 * INVARIANT: the grid is co-resident; within a batch no particle is touched
 * twice.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <cuda/atomic>

typedef cuda::atomic_ref<unsigned, cuda::thread_scope_device> cl_counter;

template <bool FENCE>
__device__ void cl_barrier(unsigned *count, unsigned target)
{
    __syncthreads();
    if (threadIdx.x == 0) {
        if (FENCE)
            __threadfence();
        atomicAdd(count, 1u);
        while (cl_counter(*count).load(cuda::memory_order_relaxed) < target) {
        }
        if (FENCE)
            __threadfence();
    }
    __syncthreads();
}

/* pos: particles as x,y,z float triples; inv_mass 0 pins a particle.
 * ci, cj, rest: constraints in batch order; batch_off[0..8]. */
template <bool FENCE>
__device__ void cl_body(float *pos, const float *inv_mass, const unsigned *ci,
                        const unsigned *cj, const float *rest, const unsigned *batch_off,
                        unsigned iters, unsigned *count)
{
    const unsigned stride = gridDim.x * blockDim.x;
    const unsigned me = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned epoch = 0;

    for (unsigned it = 0; it < iters; it++)
        for (unsigned b = 0; b < 8; b++) {
            /* rotate ownership by one CTA per batch: the particles a CTA
             * wrote in the last batch are read by another CTA in this one */
            const unsigned rot = (it * 8 + b) % gridDim.x;
            const unsigned mine = (me + rot * blockDim.x) % stride;
            for (unsigned c = batch_off[b] + mine; c < batch_off[b + 1]; c += stride) {
                unsigned i = ci[c], j = cj[c];
                float wi = inv_mass[i], wj = inv_mass[j];
                float w = wi + wj;
                if (w == 0.0f)
                    continue;
                float dx = pos[3 * j] - pos[3 * i];
                float dy = pos[3 * j + 1] - pos[3 * i + 1];
                float dz = pos[3 * j + 2] - pos[3 * i + 2];
                float len = sqrtf(dx * dx + dy * dy + dz * dz);
                if (len == 0.0f)
                    continue;
                float k = (len - rest[c]) / (len * w);
                pos[3 * i] += wi * k * dx;
                pos[3 * i + 1] += wi * k * dy;
                pos[3 * i + 2] += wi * k * dz;
                pos[3 * j] -= wj * k * dx;
                pos[3 * j + 1] -= wj * k * dy;
                pos[3 * j + 2] -= wj * k * dz;
            }
            epoch++;
            cl_barrier<FENCE>(count, epoch * gridDim.x);
        }
}

extern "C" __global__ void cl_solve(float *pos, const float *inv_mass, const unsigned *ci,
                                    const unsigned *cj, const float *rest,
                                    const unsigned *batch_off, unsigned iters, unsigned *count)
{
    cl_body<true>(pos, inv_mass, ci, cj, rest, batch_off, iters, count);
}

extern "C" __global__ void cl_solve_nofence(float *pos, const float *inv_mass,
                                            const unsigned *ci, const unsigned *cj,
                                            const float *rest, const unsigned *batch_off,
                                            unsigned iters, unsigned *count)
{
    cl_body<false>(pos, inv_mass, ci, cj, rest, batch_off, iters, count);
}
