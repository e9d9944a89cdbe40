/*
 * dlb.cu - DLB: octree partitioning balanced by work stealing from
 * per-workgroup non-blocking task deques.
 *
 * Stands for Dynamic Load Balancing of the Temporal Coherence study and the
 * RCC thesis (Cederman and Tsigas, Graphics Hardware 2008): a task is an
 * octree cell holding a range of points; a CTA partitions the cell's points
 * into its 8 octants (ping-pong buffers by depth) and pushes one child task
 * per non-empty octant unless the cell is a leaf. Each CTA owns a deque in
 * global memory (Chase-Lev shape: the owner pushes and pops at the bottom,
 * thieves CAS the top; counters only grow, so there is no ABA); an idle CTA
 * steals from a random victim. `pending` counts tasks created and not yet
 * finished; the kernel ends when it reaches 0.
 * Fences (as the RCC thesis added to DLB): push writes the task, fences,
 * then publishes bottom; steal reads top, fences, reads bottom, fences, then
 * reads the task and the points it names. Variant nofence drops those
 * publish/acquire fences; the owner's pop keeps its store-load fence, which
 * the deque algorithm needs on any machine.
 * Task = {lo, n, depth << 28 | path, id}; path holds 3 bits per level.
 * INVARIANT: the grid is co-resident; one thread per CTA touches the deques.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <cuda/atomic>

typedef cuda::atomic_ref<int, cuda::thread_scope_device> dlb_cell;

#define DLB_CAP 256        /* tasks per deque */
#define DLB_CTL 32         /* ints per deque control block: top, bottom (own 128 B line) */

struct dlb_args {
    float4 *pts0, *pts1;   /* point buffers by depth parity; .w holds the point id's bits */
    float4 *out;           /* points of finished leaves, in leaf order */
    uint4 *deq;            /* [ctas][DLB_CAP] tasks */
    int *ctl;              /* [ctas][DLB_CTL]: top at 0, bottom at 1 */
    uint4 *leaves;         /* leaf tasks */
    unsigned *processed;   /* per task id: times processed */
    int *glob;             /* 0 pending, 1 next task id, 2 leaves, 3 error, 4 steals */
    unsigned leaf_max, max_depth, max_tasks, seed;
};

enum { DLB_PENDING, DLB_NEXT_ID, DLB_NLEAVES, DLB_ERROR, DLB_STEALS };

template <bool FENCE>
__device__ void dlb_push(const dlb_args &a, unsigned me, uint4 t)
{
    int *ctl = a.ctl + me * DLB_CTL;
    int bot = dlb_cell(ctl[1]).load(cuda::memory_order_relaxed);
    int top = dlb_cell(ctl[0]).load(cuda::memory_order_relaxed);
    if (bot - top >= DLB_CAP) {
        atomicExch(&a.glob[DLB_ERROR], 1);
        return;
    }
    a.deq[me * DLB_CAP + (unsigned)bot % DLB_CAP] = t;
    if (FENCE)
        __threadfence();    /* the task and its points before bottom */
    dlb_cell(ctl[1]).store(bot + 1, cuda::memory_order_relaxed);
}

__device__ bool dlb_pop(const dlb_args &a, unsigned me, uint4 *t)
{
    int *ctl = a.ctl + me * DLB_CTL;
    int bot = dlb_cell(ctl[1]).load(cuda::memory_order_relaxed) - 1;
    dlb_cell(ctl[1]).store(bot, cuda::memory_order_relaxed);
    __threadfence();        /* store bottom before loading top (Dekker with thieves) */
    int top = dlb_cell(ctl[0]).load(cuda::memory_order_relaxed);
    if (top > bot) {
        dlb_cell(ctl[1]).store(bot + 1, cuda::memory_order_relaxed);
        return false;
    }
    *t = a.deq[me * DLB_CAP + (unsigned)bot % DLB_CAP];
    if (top == bot) {       /* last task: race the thieves for it */
        bool won = atomicCAS(&ctl[0], top, top + 1) == top;
        dlb_cell(ctl[1]).store(bot + 1, cuda::memory_order_relaxed);
        return won;
    }
    return true;
}

template <bool FENCE>
__device__ bool dlb_steal(const dlb_args &a, unsigned victim, uint4 *t)
{
    int *ctl = a.ctl + victim * DLB_CTL;
    int top = dlb_cell(ctl[0]).load(cuda::memory_order_relaxed);
    if (FENCE)
        __threadfence();    /* load top before bottom */
    int bot = dlb_cell(ctl[1]).load(cuda::memory_order_relaxed);
    if (top >= bot)
        return false;
    if (FENCE)
        __threadfence();    /* acquire the task published with bottom */
    *t = a.deq[victim * DLB_CAP + (unsigned)top % DLB_CAP];
    return atomicCAS(&ctl[0], top, top + 1) == top;
}

/* Partition one task's points (whole CTA) and push its children. */
template <bool FENCE>
__device__ void dlb_process(const dlb_args &a, uint4 t, unsigned *cnt, unsigned *off)
{
    const unsigned lo = t.x, n = t.y, depth = t.z >> 28, path = t.z & 0x0fffffffu;
    float4 *src = (depth & 1) ? a.pts1 : a.pts0, *dst = (depth & 1) ? a.pts0 : a.pts1;

    if (threadIdx.x == 0)
        atomicAdd(&a.processed[t.w], 1u);
    if (n <= a.leaf_max || depth >= a.max_depth) {
        for (unsigned i = threadIdx.x; i < n; i += blockDim.x)
            a.out[lo + i] = src[lo + i];
        __syncthreads();
        if (threadIdx.x == 0) {
            int k = atomicAdd(&a.glob[DLB_NLEAVES], 1);
            a.leaves[k] = t;
            atomicSub(&a.glob[DLB_PENDING], 1);
        }
        return;
    }
    /* the cell's centre from its path: exact in float (halvings of 1) */
    float cx = 0.0f, cy = 0.0f, cz = 0.0f, size = 1.0f;
    for (unsigned l = 0; l < depth; l++) {
        unsigned o = (path >> (3 * (depth - 1 - l))) & 7;
        size *= 0.5f;
        cx += (o & 1) ? size : 0.0f;
        cy += (o & 2) ? size : 0.0f;
        cz += (o & 4) ? size : 0.0f;
    }
    size *= 0.5f;
    cx += size, cy += size, cz += size;

    if (threadIdx.x < 8)
        cnt[threadIdx.x] = 0;
    __syncthreads();
    for (unsigned i = threadIdx.x; i < n; i += blockDim.x) {
        float4 q = src[lo + i];
        unsigned o = (q.x >= cx) | (q.y >= cy) << 1 | (q.z >= cz) << 2;
        atomicAdd(&cnt[o], 1u);
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned sum = 0;
#pragma unroll 1
        for (unsigned o = 0; o < 8; o++)
            off[o] = sum, sum += cnt[o];
    }
    __syncthreads();
    for (unsigned i = threadIdx.x; i < n; i += blockDim.x) {
        float4 q = src[lo + i];
        unsigned o = (q.x >= cx) | (q.y >= cy) << 1 | (q.z >= cz) << 2;
        dst[lo + atomicAdd(&off[o], 1u)] = q;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned kids = 0;
#pragma unroll 1
        for (unsigned o = 0; o < 8; o++)
            kids += cnt[o] != 0;
        atomicAdd(&a.glob[DLB_PENDING], (int)kids);
        unsigned start = 0;
#pragma unroll 1
        for (unsigned o = 0; o < 8; o++) {
            if (cnt[o] == 0)
                continue;
            unsigned id = (unsigned)atomicAdd(&a.glob[DLB_NEXT_ID], 1);
            if (id >= a.max_tasks) {
                atomicExch(&a.glob[DLB_ERROR], 2);
                id = a.max_tasks - 1;
            }
            uint4 c = make_uint4(lo + start, cnt[o], (depth + 1) << 28 | path << 3 | o, id);
            dlb_push<FENCE>(a, blockIdx.x, c);
            start += cnt[o];
        }
        atomicSub(&a.glob[DLB_PENDING], 1);
    }
}

template <bool FENCE>
__device__ void dlb_body(const dlb_args &a)
{
    __shared__ uint4 task;
    __shared__ int have;    /* 1 a task, 0 none yet, -1 all done */
    __shared__ unsigned cnt[8], off[8];
    unsigned rng = a.seed ^ (blockIdx.x * 0x9e3779b9u + 0x7f4a7c15u);

    for (;;) {
        if (threadIdx.x == 0) {
            uint4 t = make_uint4(0, 0, 0, 0);
            int got = dlb_pop(a, blockIdx.x, &t);
            if (!got && gridDim.x > 1) {
                rng ^= rng << 13, rng ^= rng >> 17, rng ^= rng << 5;
                unsigned victim = rng % (gridDim.x - 1);
                victim += victim >= blockIdx.x;
                got = dlb_steal<FENCE>(a, victim, &t);
                if (got)
                    atomicAdd(&a.glob[DLB_STEALS], 1);
            }
            if (!got && dlb_cell(a.glob[DLB_PENDING]).load(cuda::memory_order_relaxed) == 0)
                got = -1;
            if (!got && dlb_cell(a.glob[DLB_ERROR]).load(cuda::memory_order_relaxed) != 0)
                got = -1;
            task = t;
            have = got;
        }
        __syncthreads();
        int h = have;
        if (h < 0)
            break;
        if (h > 0)
            dlb_process<FENCE>(a, task, cnt, off);
        __syncthreads();
    }
}

#define DLB_PARAMS                                                                                 \
    float4 *pts0, float4 *pts1, float4 *out, uint4 *deq, int *ctl, uint4 *leaves,                 \
        unsigned *processed, int *glob, unsigned leaf_max, unsigned max_depth,                     \
        unsigned max_tasks, unsigned seed
#define DLB_ARGS {pts0, pts1, out, deq, ctl, leaves, processed, glob, leaf_max, max_depth,     \
                  max_tasks, seed}

/* Scalar parameters (the host API passes scalars); the struct is local. */
extern "C" __global__ void dlb_run(DLB_PARAMS)
{
    const dlb_args a = DLB_ARGS;
    dlb_body<true>(a);
}

extern "C" __global__ void dlb_run_nofence(DLB_PARAMS)
{
    const dlb_args a = DLB_ARGS;
    dlb_body<false>(a);
}
