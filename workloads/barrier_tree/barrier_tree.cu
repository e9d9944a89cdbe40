// barrier_tree.cu - a two-level tree barrier across all CTAs (HeteroSync's
// atomicTreeBarr shape), repeated for `episodes` episodes. CTAs are grouped
// as HeteroSync groups them by SM: CTA b belongs to group b % groups.
// An episode: __syncthreads (CTA level); thread 0 arrives at its group's
// counter with fetch_add(acq_rel); the group's last arriver arrives at the
// global counter, the last of those raises the global flag with
// store(release); each group's last arriver waits for the global flag with
// load(acquire) and then raises its group flag; the others of the group wait
// on the group flag; __syncthreads. Counters and flags only grow (episode e
// waits for e * members), so nothing is reset between episodes.
// Data: before each barrier every thread writes a tag (episode, CTA, thread)
// into its slot of a buffer with plain stores; after it every thread reads
// the same slot of every CTA with plain loads and counts mismatches in
// errs[0], keeping the first in errs[1..5]. Episodes alternate between two
// buffers so that a slot is rewritten only after the next barrier.
#include <cuda/atomic>

using dev_uint = cuda::atomic_ref<unsigned, cuda::thread_scope_device>;

#define LINE_WORDS 32

__device__ unsigned slot_tag(unsigned e, unsigned cta, unsigned t)
{
    return (e << 20) | (cta << 8) | t;
}

__device__ void tree_barrier(unsigned *sync, unsigned groups, unsigned e)
{
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned n = gridDim.x, b = blockIdx.x;
        unsigned g = b % groups;
        unsigned members = (n - g + groups - 1) / groups;
        dev_uint lcount(sync[g * LINE_WORDS]);
        dev_uint lflag(sync[(groups + g) * LINE_WORDS]);
        dev_uint gcount(sync[2 * groups * LINE_WORDS]);
        dev_uint gflag(sync[(2 * groups + 1) * LINE_WORDS]);
        if (lcount.fetch_add(1u, cuda::memory_order_acq_rel) == e * members - 1u) {
            if (gcount.fetch_add(1u, cuda::memory_order_acq_rel) == e * groups - 1u)
                gflag.store(e, cuda::memory_order_release);
            else
                while (gflag.load(cuda::memory_order_acquire) < e) {
                }
            lflag.store(e, cuda::memory_order_release);
        } else {
            while (lflag.load(cuda::memory_order_acquire) < e) {
            }
        }
    }
    __syncthreads();
}

extern "C" __global__ void barrier_tree(unsigned *buf, unsigned *sync, unsigned *errs,
                                        int episodes, unsigned groups)
{
    unsigned n = gridDim.x, b = blockIdx.x, t = threadIdx.x, bt = blockDim.x;
    for (unsigned e = 1; e <= (unsigned)episodes; e++) {
        unsigned *half = buf + (e & 1u) * n * bt;
        half[b * bt + t] = slot_tag(e, b, t);
        tree_barrier(sync, groups, e);
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
