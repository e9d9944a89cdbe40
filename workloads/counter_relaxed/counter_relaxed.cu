// counter_relaxed.cu - relaxed atomic counters (the event and statistics
// counters of HeteroSync's relaxed-atomics set): every thread adds 1, `iters`
// times, to one device-wide counter with fetch_add(relaxed, device scope)
// and to its CTA's own counter with fetch_add(relaxed, block scope). The
// per-CTA counters sit one per 128-byte line. Nothing orders the adds; only
// the totals, read by the host after the kernel, are checked.
#include <cuda/atomic>

extern "C" __global__ void counter_relaxed(unsigned *total, unsigned *per_cta, int iters)
{
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> all(*total);
    cuda::atomic_ref<unsigned, cuda::thread_scope_block> mine(per_cta[blockIdx.x * 32]);
    for (int it = 0; it < iters; it++) {
        all.fetch_add(1u, cuda::memory_order_relaxed);
        mine.fetch_add(1u, cuda::memory_order_relaxed);
    }
}
