// mutex_ticket.cu - a fetch-and-add ticket lock (HeteroSync's faMutex shape,
// without its polling backoff), contended by thread 0 of every CTA. A CTA
// takes a ticket with fetch_add(relaxed) on `next`, spins with load(acquire)
// on `serving` until its number comes up, and hands over with
// store(ticket + 1, release); device scope. The two words sit on separate
// 128-byte lines (lockw[0] and lockw[32]).
// Critical section and its self-check as in mutex_spin.cu.
#include <cuda/atomic>

using dev_uint = cuda::atomic_ref<unsigned, cuda::thread_scope_device>;

__device__ void cs_body(unsigned *total, unsigned *percta, unsigned *order, unsigned *errs)
{
    unsigned t = threadIdx.x, bt = blockDim.x;
    unsigned s = total[t];
    if (t == 0)
        order[s] = blockIdx.x;
    unsigned sum = 0;
    for (unsigned c = 0; c < gridDim.x; c++)
        sum += percta[c * bt + t];
    if (sum != s)
        atomicAdd(errs, 1u);
    percta[blockIdx.x * bt + t] += 1u;
    total[t] = s + 1u;
}

extern "C" __global__ void mutex_ticket(unsigned *lockw, unsigned *total, unsigned *percta,
                                        unsigned *order, unsigned *errs, int iters)
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
        cs_body(total, percta, order, errs);
        __syncthreads();
        if (threadIdx.x == 0)
            serving.store(ticket + 1u, cuda::memory_order_release);
    }
}
