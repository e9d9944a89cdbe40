// mp.cu - message passing between CTA pairs: CTA 2p (producer) writes a
// message of `words` words with plain stores and raises the pair's flag; CTA
// 2p+1 (consumer) reads the message once BEFORE looking at the flag (so its
// SM's L1 may hold the old copy), waits for the flag, then reads it again.
// mp_acqrel: flag store(release) / load(acquire), device scope - correct.
// mp_relaxed: relaxed flag accesses and no fences - a data race that a
// non-coherent L1 turns into stale reads (the "nofence" variant).
// mp_acqrel_sys: mp_acqrel at system scope (the "sys" variant), which a pair
// split over two GPUs needs: at device scope nothing obliges the consumer's
// GPU to ever see the producer's GPU's flag.
// One thread per CTA takes part; flags sit one per 128-byte line.
#include <cuda/atomic>

#define MP_FLAG_STRIDE 32

template <cuda::memory_order ST, cuda::memory_order LD,
          cuda::thread_scope SCOPE = cuda::thread_scope_device>
__device__ void mp_body(const unsigned *src, unsigned *data, unsigned *flags, unsigned *early,
                        unsigned *out, int words)
{
    if (threadIdx.x != 0)
        return;
    int pair = blockIdx.x >> 1;
    unsigned *d = data + pair * words;
    cuda::atomic_ref<unsigned, SCOPE> flag(flags[pair * MP_FLAG_STRIDE]);

    if ((blockIdx.x & 1) == 0) {
        const unsigned *s = src + pair * words;
        for (int i = 0; i < words; i++)
            d[i] = s[i];
        flag.store(1u, ST);
    } else {
        unsigned *e = early + pair * words;
        unsigned *o = out + pair * words;
        for (int i = 0; i < words; i++)
            e[i] = d[i];
        while (flag.load(LD) == 0u) {
        }
        for (int i = 0; i < words; i++)
            o[i] = d[i];
    }
}

extern "C" __global__ void mp_acqrel(const unsigned *src, unsigned *data, unsigned *flags,
                                     unsigned *early, unsigned *out, int words)
{
    mp_body<cuda::memory_order_release, cuda::memory_order_acquire>(src, data, flags, early, out,
                                                                     words);
}

extern "C" __global__ void mp_relaxed(const unsigned *src, unsigned *data, unsigned *flags,
                                      unsigned *early, unsigned *out, int words)
{
    mp_body<cuda::memory_order_relaxed, cuda::memory_order_relaxed>(src, data, flags, early, out,
                                                                     words);
}

extern "C" __global__ void mp_acqrel_sys(const unsigned *src, unsigned *data, unsigned *flags,
                                        unsigned *early, unsigned *out, int words)
{
    mp_body<cuda::memory_order_release, cuda::memory_order_acquire, cuda::thread_scope_system>(
        src, data, flags, early, out, words);
}
