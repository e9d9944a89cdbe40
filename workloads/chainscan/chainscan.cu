// chainscan.cu - inclusive prefix sum in one pass with flag handoffs between
// CTAs (a chained scan), synchronised at .gpu scope, then a fix-up kernel.
// The grid is split into `chains` chains of consecutive CTAs; CTA b of a chain
// sums its chunk, waits for its predecessor's flag (ld.acquire.gpu), adds the
// predecessor's running total and publishes its own (st.release.gpu), then
// writes its chunk's scan. `.gpu` scope is enough because the host makes a
// chain no longer than one GPU's share of the grid under contiguous CTA
// scheduling; chains meet only at the kernel boundary, where chainscan_fixup
// adds the totals of the earlier chains (Table 5.3's explicitly
// .gpu-synchronised class: release-store / acquire-load handoffs inside a
// kernel).
//
// Launch: block 256, grid chains * per_chain; each thread owns `per_thread`
// consecutive words. flags and totals: one word per CTA, 32 words apart.
#include <cuda/atomic>

#define CS_STRIDE 32

extern "C" __global__ void chainscan_pass(const unsigned *in, unsigned *out, unsigned *flags,
                                          unsigned *totals, int per_chain, int per_thread)
{
    __shared__ unsigned part[256];
    __shared__ unsigned base;
    int b = blockIdx.x, t = threadIdx.x;
    const unsigned *src = in + ((size_t)b * 256 + t) * per_thread;
    unsigned *dst = out + ((size_t)b * 256 + t) * per_thread;
    unsigned sum = 0;
    for (int k = 0; k < per_thread; k++)
        sum += src[k];
    part[t] = sum;
    __syncthreads();
    // Hillis-Steele inclusive scan of the 256 thread sums.
    for (int d = 1; d < 256; d <<= 1) {
        unsigned v = t >= d ? part[t - d] : 0u;
        __syncthreads();
        part[t] += v;
        __syncthreads();
    }
    if (t == 0) {
        unsigned prev = 0;
        if (b % per_chain != 0) {
            cuda::atomic_ref<unsigned, cuda::thread_scope_device> f(flags[(b - 1) * CS_STRIDE]);
            while (f.load(cuda::memory_order_acquire) == 0u) {
            }
            prev = totals[(b - 1) * CS_STRIDE];
        }
        totals[b * CS_STRIDE] = prev + part[255];
        cuda::atomic_ref<unsigned, cuda::thread_scope_device> mine(flags[b * CS_STRIDE]);
        mine.store(1u, cuda::memory_order_release);
        base = prev;
    }
    __syncthreads();
    unsigned run = base + (t > 0 ? part[t - 1] : 0u);
    for (int k = 0; k < per_thread; k++) {
        run += src[k];
        dst[k] = run;
    }
}

// Words of chain c > 0 get the totals of chains 0 .. c-1 (each the running
// total of its last CTA) added.
extern "C" __global__ void chainscan_fixup(unsigned *out, const unsigned *totals, int per_chain,
                                           int per_thread)
{
    int b = blockIdx.x, chain = b / per_chain;
    if (chain == 0)
        return;
    unsigned add = 0;
    for (int c = 0; c < chain; c++)
        add += totals[((c + 1) * per_chain - 1) * CS_STRIDE];
    unsigned *dst = out + ((size_t)b * 256 + threadIdx.x) * per_thread;
    for (int k = 0; k < per_thread; k++)
        dst[k] += add;
}
