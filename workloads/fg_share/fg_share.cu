// fg_share.cu - spec 000's fg-share microbenchmark: every workgroup enters a
// critical section guarded by one CAS mutex, reads the shared ledger and
// updates it in place (a "centralized ledger"), and releases the lock.
// Thread 0 takes the lock (relaxed CAS, then a fence: acquire) and the
// barrier hands the acquisition to the whole workgroup; the release is a
// fence by every thread, the barrier, then the unlocking exchange. The lock
// and the ledger are separate allocations (different pages).
extern "C" __global__ void fg_share(int rounds, unsigned *lock, unsigned *ledger, int words)
{
    for (int r = 0; r < rounds; r++) {
        if (threadIdx.x == 0) {
            while (atomicCAS(lock, 0u, 1u) != 0u)
                ;
            __threadfence();
        }
        __syncthreads();
        for (int j = threadIdx.x; j < words; j += blockDim.x)
            ledger[j] += blockIdx.x + 1; // read the ledger's words and update them in place
        __threadfence();
        __syncthreads();
        if (threadIdx.x == 0)
            atomicExch(lock, 0u);
    }
}
