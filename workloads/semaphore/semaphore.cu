// semaphore.cu - a counting semaphore of `size` units in one word (HeteroSync's
// spinSem shape: readers take one unit, writers take all of them), taken by
// thread 0 of every CTA. wait(k): load(relaxed) until at least k units are
// free, then compare_exchange(acquire); post(k): fetch_add(k, release);
// device scope.
// Every writer_every-th CTA is a writer: each thread adds 1 to its word of
// `nldst` 128-byte lines with plain loads and stores, and thread 0 counts
// the write with an atomic on wcount. Readers check, with plain loads, that
// every word equals wcount (read atomically): with writers excluded, any
// difference is a stale or torn read and is counted in errs[0].
#include <cuda/atomic>

using dev_int = cuda::atomic_ref<int, cuda::thread_scope_device>;
using dev_uint = cuda::atomic_ref<unsigned, cuda::thread_scope_device>;

__device__ void sem_wait(int *sem, int units)
{
    dev_int s(*sem);
    for (;;) {
        int v = s.load(cuda::memory_order_relaxed);
        if (v >= units &&
            s.compare_exchange_strong(v, v - units, cuda::memory_order_acquire,
                                      cuda::memory_order_relaxed))
            break;
    }
}

__device__ void sem_post(int *sem, int units)
{
    dev_int(*sem).fetch_add(units, cuda::memory_order_release);
}

extern "C" __global__ void semaphore(int *sem, unsigned *data, unsigned *wcount, unsigned *errs,
                                     int iters, int nldst, int size, int writer_every)
{
    bool writer = (blockIdx.x % writer_every) == 0;
    int units = writer ? size : 1;
    unsigned t = threadIdx.x;
    for (int it = 0; it < iters; it++) {
        if (t == 0)
            sem_wait(sem, units);
        __syncthreads();
        if (writer) {
            for (int j = 0; j < nldst; j++) {
                unsigned *p = data + j * blockDim.x + t;
                *p = *p + 1u;
            }
            if (t == 0)
                dev_uint(*wcount).fetch_add(1u, cuda::memory_order_relaxed);
        } else {
            unsigned w = dev_uint(*wcount).load(cuda::memory_order_relaxed);
            for (int j = 0; j < nldst; j++) {
                if (data[j * blockDim.x + t] != w)
                    atomicAdd(&errs[0], 1u);
            }
        }
        __syncthreads();
        if (t == 0)
            sem_post(sem, units);
    }
}
