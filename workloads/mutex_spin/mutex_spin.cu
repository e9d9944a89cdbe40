// mutex_spin.cu - a test-and-set spin mutex over one word, contended by
// thread 0 of every CTA (HeteroSync's spinMutex shape: one warp per CTA, the
// whole warp runs the critical section). The lock is taken with
// exchange(acquire) and given back with store(release), device scope;
// __syncthreads() carries the ordering to the rest of the CTA.
// mutex_spin_ttas spins on a relaxed load before each exchange
// (test-and-test-and-set).
// Critical section (shared by the three mutex workloads): every CTA owns one
// 128-byte line of `percta` (a count of its own acquisitions) and `total`
// holds the count of all acquisitions. Thread t reads total[t], then word t
// of EVERY CTA's line, and checks that they add up to total[t] (atomically
// counting mismatches in errs); then it increments its own CTA's word and
// total[t]. All of it with plain loads and stores. The lines of the other
// CTAs are only read, so an L1 that kept them from an earlier critical
// section and missed the acquire serves stale values and the sum is off.
// Thread 0 also writes its CTA id into order[total], so a lost update shows
// as a doubly used slot.
#include <cuda/atomic>

using dev_int = cuda::atomic_ref<int, cuda::thread_scope_device>;

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
__device__ void mutex_body(int *lock, unsigned *total, unsigned *percta, unsigned *order,
                           unsigned *errs, int iters)
{
    for (int it = 0; it < iters; it++) {
        if (threadIdx.x == 0)
            tas_lock<TTAS>(lock);
        __syncthreads();
        cs_body(total, percta, order, errs);
        __syncthreads();
        if (threadIdx.x == 0)
            tas_unlock(lock);
    }
}

extern "C" __global__ void mutex_spin(int *lock, unsigned *total, unsigned *percta,
                                      unsigned *order, unsigned *errs, int iters)
{
    mutex_body<false>(lock, total, percta, order, errs, iters);
}

extern "C" __global__ void mutex_spin_ttas(int *lock, unsigned *total, unsigned *percta,
                                           unsigned *order, unsigned *errs, int iters)
{
    mutex_body<true>(lock, total, percta, order, errs, iters);
}
