// atomic_ref.cu - message passing with cuda::atomic_ref release/acquire.
#include <cuda/atomic>

extern "C" __global__ void mp(int *data, int *flag, int *out)
{
    int t = threadIdx.x;
    if (blockIdx.x == 0) {
        if (t == 0) {
            data[0] = 42;
            cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
            f.store(1, cuda::memory_order_release);
        }
    } else {
        if (t == 0) {
            cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
            while (f.load(cuda::memory_order_acquire) == 0) {
            }
            out[0] = data[0];
            cuda::atomic_ref<int, cuda::thread_scope_block> c(out[1]);
            c.fetch_add(5, cuda::memory_order_relaxed);
            cuda::atomic_ref<int, cuda::thread_scope_system> s(out[2]);
            s.fetch_add(7, cuda::memory_order_acq_rel);
            cuda::atomic_thread_fence(cuda::memory_order_seq_cst, cuda::thread_scope_device);
        }
    }
}
