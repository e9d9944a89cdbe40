// mutex_spin.cu - a test-and-set spin mutex over one word, contended by
// thread 0 of every CTA (HeteroSync's spinMutex shape: one warp per CTA, the
// whole warp runs the critical section). The lock is taken with
// exchange(acquire) and given back with store(release), device scope;
// __syncthreads() carries the ordering to the rest of the CTA.
// mutex_spin_ttas spins on a relaxed load before each exchange
// (test-and-test-and-set).
// Critical section: every thread adds 1 to its word of `nldst` 128-byte lines
// with a plain load and store; thread 0 first writes its CTA id into
// order[old value of word 0], so a lost update leaves a wrong count and a
// doubly used slot.
#include <cuda/atomic>

using dev_int = cuda::atomic_ref<int, cuda::thread_scope_device>;

__device__ void cs_body(unsigned *data, unsigned *order, int nldst)
{
    unsigned t = threadIdx.x;
    if (t == 0)
        order[data[0]] = blockIdx.x;
    for (int j = 0; j < nldst; j++) {
        unsigned *p = data + j * blockDim.x + t;
        *p = *p + 1u;
    }
}

template <bool TTAS>
__device__ void tas_lock(int *lock)
{
    dev_int l(*lock);
    if (TTAS) {
        for (;;) {
            while (l.load(cuda::memory_order_relaxed) != 0) {
            }
            if (l.exchange(1, cuda::memory_order_acquire) == 0)
                break;
        }
    } else {
        while (l.exchange(1, cuda::memory_order_acquire) != 0) {
        }
    }
}

__device__ void tas_unlock(int *lock)
{
    dev_int(*lock).store(0, cuda::memory_order_release);
}

template <bool TTAS>
__device__ void mutex_body(int *lock, unsigned *data, unsigned *order, int iters, int nldst)
{
    for (int it = 0; it < iters; it++) {
        if (threadIdx.x == 0)
            tas_lock<TTAS>(lock);
        __syncthreads();
        cs_body(data, order, nldst);
        __syncthreads();
        if (threadIdx.x == 0)
            tas_unlock(lock);
    }
}

extern "C" __global__ void mutex_spin(int *lock, unsigned *data, unsigned *order, int iters,
                                      int nldst)
{
    mutex_body<false>(lock, data, order, iters, nldst);
}

extern "C" __global__ void mutex_spin_ttas(int *lock, unsigned *data, unsigned *order, int iters,
                                           int nldst)
{
    mutex_body<true>(lock, data, order, iters, nldst);
}
