// mutex_ticket.cu - a fetch-and-add ticket lock (HeteroSync's faMutex shape,
// without its polling backoff), contended by thread 0 of every CTA. A CTA
// takes a ticket with fetch_add(relaxed) on `next`, spins with load(acquire)
// on `serving` until its number comes up, and hands over with
// store(ticket + 1, release); device scope. The two words sit on separate
// 128-byte lines (lockw[0] and lockw[32]).
// Critical section as in mutex_spin: per-thread plain increments of `nldst`
// lines, and thread 0 logs its CTA id at order[old value of word 0].
#include <cuda/atomic>

using dev_uint = cuda::atomic_ref<unsigned, cuda::thread_scope_device>;

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

extern "C" __global__ void mutex_ticket(unsigned *lockw, unsigned *data, unsigned *order,
                                        int iters, int nldst)
{
    dev_uint next(lockw[0]);
    dev_uint serving(lockw[32]);
    unsigned ticket = 0;
    for (int it = 0; it < iters; it++) {
        if (threadIdx.x == 0) {
            ticket = next.fetch_add(1u, cuda::memory_order_relaxed);
            while (serving.load(cuda::memory_order_acquire) != ticket) {
            }
        }
        __syncthreads();
        cs_body(data, order, nldst);
        __syncthreads();
        if (threadIdx.x == 0)
            serving.store(ticket + 1u, cuda::memory_order_release);
    }
}
