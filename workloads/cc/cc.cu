/*
 * cc.cu - CC: push-relabel graph cut on a 2D pixel grid, push, relabel and
 * termination merged into one persistent kernel.
 *
 * Stands for CudaCuts (Vineet and Narayanan, 2008) as the Temporal Coherence
 * study ran it: "push, pull and relabel merged into one kernel" over
 * coherent memory. Each CTA owns 16 x (threads/16) tiles of pixels; a pixel
 * pushes excess to its 4 neighbours with atomics on their excess and on the
 * residual capacities, so every tile border is a line written by two CTAs.
 * A round is: global relabel (exact distance-to-sink labels by a BFS, one
 * barrier per level; unreachable pixels get height n and go inactive), a
 * count of active pixels, and one push pass along admissible edges
 * (h(v) = h(u) - 1). Within a push pass heights are fixed, so the two
 * pixels of an edge never push to each other at the same time.
 * Barrier and sums: a monotonic arrival counter, and three rotating sum slots
 * (slot e%3 is summed in epoch e and read after its barrier; block 0 clears
 * slot (e+1)%3 before arriving). Variant nofence drops the barrier's fences.
 * DEVIATION: the global relabel runs inside the kernel every round; CudaCuts
 * relabels locally. Neighbour heights and excesses are read with relaxed
 * atomic loads (they are written by other threads).
 * INVARIANT: the grid is co-resident; W % 16 == 0 and H % (threads/16) == 0.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <cuda/atomic>

typedef cuda::atomic_ref<unsigned, cuda::thread_scope_device> cc_ucell;
typedef cuda::atomic_ref<int, cuda::thread_scope_device> cc_icell;

#define CC_TW 16

template <bool FENCE>
__device__ void cc_barrier(unsigned *count, unsigned target)
{
    __syncthreads();
    if (threadIdx.x == 0) {
        if (FENCE)
            __threadfence();
        atomicAdd(count, 1u);
        while (cc_ucell(*count).load(cuda::memory_order_relaxed) < target) {
        }
        if (FENCE)
            __threadfence();
    }
    __syncthreads();
}

/* Grid-wide sum of v over all threads; also the barrier of the epoch. */
template <bool FENCE>
__device__ unsigned cc_sum(unsigned v, unsigned *sums, unsigned *count, unsigned &epoch)
{
    if (v)
        atomicAdd(&sums[epoch % 3], v);
    if (blockIdx.x == 0 && threadIdx.x == 0)
        cc_ucell(sums[(epoch + 1) % 3]).store(0, cuda::memory_order_relaxed);
    epoch++;
    cc_barrier<FENCE>(count, epoch * gridDim.x);
    return cc_ucell(sums[(epoch - 1) % 3]).load(cuda::memory_order_relaxed);
}

/* Neighbour of u in direction d (0 +x, 1 -x, 2 +y, 3 -y), or -1. */
__device__ int cc_nb(unsigned u, unsigned d, unsigned W, unsigned H)
{
    unsigned x = u % W, y = u / W;
    switch (d) {
    case 0: return x + 1 < W ? (int)(u + 1) : -1;
    case 1: return x > 0 ? (int)(u - 1) : -1;
    case 2: return y + 1 < H ? (int)(u + W) : -1;
    default: return y > 0 ? (int)(u - W) : -1;
    }
}

/* e, h: per pixel; cf: residual capacity of the 4 grid edges, cf[d*n + u];
 * cft: residual capacity to the sink; sums[3], count: barrier state;
 * result[0] = rounds run. Stops after max_rounds rounds. */
template <bool FENCE>
__device__ void cc_body(int *e, int *h, int *cf, int *cft, unsigned W, unsigned H,
                        unsigned *sums, unsigned *count, unsigned *result, unsigned max_rounds)
{
    const unsigned n = W * H, th = blockDim.x / CC_TW;
    const unsigned tiles_x = W / CC_TW, ntiles = tiles_x * (H / th);
    const int INF = (int)n;
    const unsigned tx = threadIdx.x % CC_TW, ty = threadIdx.x / CC_TW;
    unsigned epoch = 0, round = 0;

#define CC_FOR_MY_PIXELS(u)                                                                        \
    for (unsigned t_ = blockIdx.x; t_ < ntiles; t_ += gridDim.x)                                  \
        for (unsigned u = ((t_ / tiles_x) * th + ty) * W + (t_ % tiles_x) * CC_TW + tx, once_ = 1; \
             once_; once_ = 0)

    for (;;) {
        /* global relabel: BFS from the sink over residual edges */
        CC_FOR_MY_PIXELS(u)
        {
            cc_icell(h[u]).store(cft[u] > 0 ? 1 : INF, cuda::memory_order_relaxed);
        }
        cc_sum<FENCE>(0, sums, count, epoch);
        for (int level = 1;; level++) {
            unsigned changed = 0;
            CC_FOR_MY_PIXELS(u)
            {
                if (cc_icell(h[u]).load(cuda::memory_order_relaxed) != INF)
                    continue;
#pragma unroll 1
                for (unsigned d = 0; d < 4; d++) {
                    int v = cc_nb(u, d, W, H);
                    if (v >= 0 && cc_icell(cf[d * n + u]).load(cuda::memory_order_relaxed) > 0 &&
                        cc_icell(h[v]).load(cuda::memory_order_relaxed) == level) {
                        cc_icell(h[u]).store(level + 1, cuda::memory_order_relaxed);
                        changed++;
                        break;
                    }
                }
            }
            if (cc_sum<FENCE>(changed, sums, count, epoch) == 0)
                break;
        }
        unsigned active = 0;
        CC_FOR_MY_PIXELS(u)
        {
            if (cc_icell(e[u]).load(cuda::memory_order_relaxed) > 0 &&
                cc_icell(h[u]).load(cuda::memory_order_relaxed) < INF)
                active++;
        }
        if (cc_sum<FENCE>(active, sums, count, epoch) == 0 || round == max_rounds)
            break;
        round++;
        /* push along admissible edges */
        CC_FOR_MY_PIXELS(u)
        {
            int hu = cc_icell(h[u]).load(cuda::memory_order_relaxed);
            int ex = cc_icell(e[u]).load(cuda::memory_order_relaxed);
            if (hu >= INF || ex <= 0)
                continue;
            if (hu == 1 && cft[u] > 0) {
                int d = min(ex, cft[u]);
                cft[u] -= d;
                atomicSub(&e[u], d);
                ex -= d;
            }
#pragma unroll 1
            for (unsigned dir = 0; dir < 4 && ex > 0; dir++) {
                int v = cc_nb(u, dir, W, H);
                if (v < 0)
                    continue;
                int c = cc_icell(cf[dir * n + u]).load(cuda::memory_order_relaxed);
                if (c <= 0 || cc_icell(h[v]).load(cuda::memory_order_relaxed) != hu - 1)
                    continue;
                int d = min(ex, c);
                atomicSub(&cf[dir * n + u], d);
                atomicAdd(&cf[(dir ^ 1) * n + v], d);
                atomicSub(&e[u], d);
                atomicAdd(&e[v], d);
                ex -= d;
            }
        }
        cc_sum<FENCE>(0, sums, count, epoch);
    }
#undef CC_FOR_MY_PIXELS
    if (blockIdx.x == 0 && threadIdx.x == 0)
        result[0] = round;
}

extern "C" __global__ void cc_run(int *e, int *h, int *cf, int *cft, unsigned W, unsigned H,
                                  unsigned *sums, unsigned *count, unsigned *result,
                                  unsigned max_rounds)
{
    cc_body<true>(e, h, cf, cft, W, H, sums, count, result, max_rounds);
}

extern "C" __global__ void cc_run_nofence(int *e, int *h, int *cf, int *cft, unsigned W,
                                          unsigned H, unsigned *sums, unsigned *count,
                                          unsigned *result, unsigned max_rounds)
{
    cc_body<false>(e, h, cf, cft, W, H, sums, count, result, max_rounds);
}
