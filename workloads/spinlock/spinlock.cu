// spinlock.cu - an atomicCAS spin lock around a shared counter, taken by
// every thread of every CTA `iters` times. The critical section reads and
// writes the counter with plain loads and stores and logs who got each
// ticket, so a stale read shows up as a lost increment and a duplicate entry.
// __threadfence() after the acquiring CAS and before the releasing exchange.
// The loop is written so that the winning lane leaves the critical section
// before the losers of its warp retry (no intra-warp livelock on SIMT stacks).
// spinlock_sys is the same lock at system scope (atomicCAS_system,
// __threadfence_system): the form a kernel whose CTAs span several GPUs needs,
// since a .gpu-scoped lock orders nothing between CTAs on different GPUs.
extern "C" __global__ void spinlock(int *lock, unsigned *counter, unsigned *owners, int iters)
{
    unsigned me = blockIdx.x * blockDim.x + threadIdx.x;
    for (int it = 0; it < iters; it++) {
        bool done = false;
        while (!done) {
            if (atomicCAS(lock, 0, 1) == 0) {
                __threadfence();
                unsigned c = *counter;
                owners[c] = me;
                *counter = c + 1;
                __threadfence();
                atomicExch(lock, 0);
                done = true;
            }
        }
    }
}

extern "C" __global__ void spinlock_sys(int *lock, unsigned *counter, unsigned *owners, int iters)
{
    unsigned me = blockIdx.x * blockDim.x + threadIdx.x;
    for (int it = 0; it < iters; it++) {
        bool done = false;
        while (!done) {
            if (atomicCAS_system(lock, 0, 1) == 0) {
                __threadfence_system();
                unsigned c = *counter;
                owners[c] = me;
                *counter = c + 1;
                __threadfence_system();
                atomicExch_system(lock, 0);
                done = true;
            }
        }
    }
}
