/*
 * vpr.cu - VPR: one temperature step of simulated-annealing placement with
 * concurrent swap moves, CAS-locked grid cells and locked net-cost updates.
 *
 * Stands for the VPR placement benchmark of the Temporal Coherence study
 * (VTR 1.0's annealer ported to CUDA, one iteration of the annealing
 * schedule) and the RCC thesis. Blocks sit on a G x G grid (cell_block[],
 * -1 = empty; block_cell[] its inverse); nets join 2..5 blocks and cost their
 * bounding box's half perimeter. Each thread proposes `moves` swaps: a
 * random block and a random cell within `range`; it try-locks both cells
 * (atomicCAS, never spins, so no deadlock), estimates the cost change from
 * relaxed reads of other blocks' positions, accepts by the Metropolis rule,
 * writes the new positions, then for each net of the moved blocks takes the
 * net's lock (spinning, one lock at a time, the lanes of a warp in turn),
 * recomputes its cost from the
 * current positions, and adds the difference to the total. Locks are
 * acquired with a fence after the CAS and released after a fence.
 * Variant nofence drops those fences.
 * The estimate may race with other moves (as in parallel annealers); the
 * stored net costs are exact because every recomputation happens under the
 * net's lock after the positions it reads were published.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <cuda/atomic>

typedef cuda::atomic_ref<int, cuda::thread_scope_device> vpr_cell;

enum { VPR_TOTAL, VPR_ACCEPTED, VPR_REJECTED, VPR_ABORTED };

struct vpr_args {
    int *cell_block, *block_cell, *cell_lock, *net_lock, *net_cost, *glob;
    const int *net_off, *net_pins, *blk_off, *blk_nets;
    int G, B, moves, range;
    float temp;
    unsigned seed;
};

__device__ unsigned vpr_rand(unsigned &s)
{
    s ^= s << 13, s ^= s >> 17, s ^= s << 5;
    return s;
}

/* Position of block x (-1: none), with the proposed swap applied. */
__device__ int vpr_pos(const vpr_args &a, int x, int b, int c1, int b2, int c2)
{
    if (x == b)
        return c2;
    if (x == b2)
        return c1;
    return vpr_cell(a.block_cell[x]).load(cuda::memory_order_relaxed);
}

__device__ int vpr_net_cost(const vpr_args &a, int net, int b, int c1, int b2, int c2)
{
    int x0 = a.G, x1 = -1, y0 = a.G, y1 = -1;
    for (int k = a.net_off[net]; k < a.net_off[net + 1]; k++) {
        int c = vpr_pos(a, a.net_pins[k], b, c1, b2, c2);
        int x = c % a.G, y = c / a.G;
        x0 = min(x0, x), x1 = max(x1, x), y0 = min(y0, y), y1 = max(y1, y);
    }
    return (x1 - x0) + (y1 - y0);
}

template <bool FENCE>
__device__ bool vpr_trylock(int *l)
{
    if (atomicCAS(l, 0, 1) != 0)
        return false;
    if (FENCE)
        __threadfence();
    return true;
}

template <bool FENCE>
__device__ void vpr_unlock(int *l)
{
    if (FENCE)
        __threadfence();
    atomicExch(l, 0);
}

/* Recompute the nets of block x under their locks. The lanes of a warp take
 * turns: nvcc (sm_75, independent thread scheduling) may compile the retry
 * into a tight CAS loop with the critical section after it, and on a SIMT
 * stack a lane spinning there for a lock held by a lane of its own warp
 * would never let that lane run. With turns, the holder of any lock a lane
 * waits for is in another warp. */
template <bool FENCE>
__device__ void vpr_update_nets(const vpr_args &a, int x)
{
    const unsigned lane = threadIdx.x % 32;
    for (unsigned turn = 0; turn < 32; turn++) {
        if (turn != lane)
            continue;
        for (int k = a.blk_off[x]; k < a.blk_off[x + 1]; k++) {
            int net = a.blk_nets[k];
            while (!vpr_trylock<FENCE>(&a.net_lock[net])) {
            }
            int now = vpr_net_cost(a, net, -1, -1, -1, -1);
            int old = vpr_cell(a.net_cost[net]).load(cuda::memory_order_relaxed);
            vpr_cell(a.net_cost[net]).store(now, cuda::memory_order_relaxed);
            if (now != old)
                atomicAdd(&a.glob[VPR_TOTAL], now - old);
            vpr_unlock<FENCE>(&a.net_lock[net]);
        }
    }
}

template <bool FENCE>
__device__ void vpr_body(const vpr_args &a)
{
    const unsigned me = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned s = a.seed ^ (me * 0x9e3779b9u) ^ 0x6a09e667u;
    if (s == 0)
        s = 1;
    for (int i = 0; i < 4; i++)
        vpr_rand(s);

    for (int m = 0; m < a.moves; m++) {
        const int b = (int)(vpr_rand(s) % (unsigned)a.B);
        const int span = 2 * a.range + 1;
        const int dx = (int)(vpr_rand(s) % (unsigned)span) - a.range;
        const int dy = (int)(vpr_rand(s) % (unsigned)span) - a.range;
        const float u = (float)(vpr_rand(s) >> 8) * (1.0f / 16777216.0f);
        const int c1 = vpr_cell(a.block_cell[b]).load(cuda::memory_order_relaxed);
        const int x2 = min(max(c1 % a.G + dx, 0), a.G - 1);
        const int y2 = min(max(c1 / a.G + dy, 0), a.G - 1);
        const int c2 = y2 * a.G + x2;
        if (c2 == c1) {
            atomicAdd(&a.glob[VPR_REJECTED], 1);
            continue;
        }
        if (!vpr_trylock<FENCE>(&a.cell_lock[c1])) {
            atomicAdd(&a.glob[VPR_ABORTED], 1);
            continue;
        }
        if (vpr_cell(a.block_cell[b]).load(cuda::memory_order_relaxed) != c1 ||
            !vpr_trylock<FENCE>(&a.cell_lock[c2])) {
            vpr_unlock<FENCE>(&a.cell_lock[c1]);
            atomicAdd(&a.glob[VPR_ABORTED], 1);
            continue;
        }
        const int b2 = vpr_cell(a.cell_block[c2]).load(cuda::memory_order_relaxed);
        int delta = 0;
        for (int k = a.blk_off[b]; k < a.blk_off[b + 1]; k++) {
            int net = a.blk_nets[k];
            delta += vpr_net_cost(a, net, b, c1, b2, c2) -
                     vpr_cell(a.net_cost[net]).load(cuda::memory_order_relaxed);
        }
        if (b2 >= 0)
            for (int k = a.blk_off[b2]; k < a.blk_off[b2 + 1]; k++) {
                int net = a.blk_nets[k];
                delta += vpr_net_cost(a, net, b, c1, b2, c2) -
                         vpr_cell(a.net_cost[net]).load(cuda::memory_order_relaxed);
            }
        if (delta <= 0 || u < __expf(-(float)delta / a.temp)) {
            vpr_cell(a.block_cell[b]).store(c2, cuda::memory_order_relaxed);
            vpr_cell(a.cell_block[c2]).store(b, cuda::memory_order_relaxed);
            vpr_cell(a.cell_block[c1]).store(b2, cuda::memory_order_relaxed);
            if (b2 >= 0)
                vpr_cell(a.block_cell[b2]).store(c1, cuda::memory_order_relaxed);
            vpr_update_nets<FENCE>(a, b);
            if (b2 >= 0)
                vpr_update_nets<FENCE>(a, b2);
            atomicAdd(&a.glob[VPR_ACCEPTED], 1);
        } else {
            atomicAdd(&a.glob[VPR_REJECTED], 1);
        }
        vpr_unlock<FENCE>(&a.cell_lock[c2]);
        vpr_unlock<FENCE>(&a.cell_lock[c1]);
    }
}

#define VPR_PARAMS                                                                                 \
    int *cell_block, int *block_cell, int *cell_lock, int *net_lock, int *net_cost, int *glob,     \
        const int *net_off, const int *net_pins, const int *blk_off, const int *blk_nets, int G,   \
        int B, int moves, int range, float temp, unsigned seed
#define VPR_ARGS                                                                                   \
    {cell_block, block_cell, cell_lock, net_lock, net_cost, glob, net_off, net_pins, blk_off,      \
     blk_nets, G, B, moves, range, temp, seed}

/* Scalar parameters (the host API passes scalars); the struct is local. */
extern "C" __global__ void vpr_anneal(VPR_PARAMS)
{
    const vpr_args a = VPR_ARGS;
    vpr_body<true>(a);
}

extern "C" __global__ void vpr_anneal_nofence(VPR_PARAMS)
{
    const vpr_args a = VPR_ARGS;
    vpr_body<false>(a);
}
