// atm.cu - parallel funds transfer between bank accounts (spec 004a Fig. 4.1
// and Table 4.3, ATM; GETM set). Every thread makes `per` transfers of a
// random amount between two random distinct accounts from its xorshift
// stream. atm_tx does each in a transaction (include/gpucoh_tx.cuh); atm_lock
// is the fine-grained-lock twin of Fig. 4.1: the two accounts' locks are
// taken in address order with try-locks in a loop on a per-thread flag
// (released when the second is busy), so no SIMT deadlock; `done` is
// volatile so that nvcc keeps one loop (at -O3 it otherwise spins on the
// first lock in an inner loop, and a lane spinning on a lock its own warp
// holds never lets the holder run: a SIMT deadlock).
#include "../../include/gpucoh_tx.cuh"

// The thread's stream starts at atm_first; atm_draw advances it and gives
// the next transfer's accounts and amount (the host replays the same).
__device__ unsigned atm_first(unsigned seed)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    return (seed ^ (t * 0x9e3779b9u)) | 1u;
}

__device__ int atm_draw(unsigned *state, int n, int *src, int *dst)
{
    unsigned s = *state;
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    *state = s;
    *src = (int)(s % (unsigned)n);
    *dst = (int)((s >> 11) % (unsigned)n);
    return 1 + (int)((s >> 27) & 7u);
}

extern "C" __global__ void atm_tx(int *accounts, int n, int per, unsigned seed)
{
    unsigned s = atm_first(seed);
    for (int k = 0; k < per; k++) {
        int src, dst, amount = atm_draw(&s, n, &src, &dst);
        if (src == dst)
            continue;
        gpucoh_tx_begin();
        accounts[src] -= amount;
        accounts[dst] += amount;
        gpucoh_tx_commit();
    }
}

extern "C" __global__ void atm_lock(int *accounts, int *locks, int n, int per, unsigned seed)
{
    unsigned s = atm_first(seed);
    for (int k = 0; k < per; k++) {
        int src, dst, amount = atm_draw(&s, n, &src, &dst);
        if (src == dst)
            continue;
        int outer = src > dst ? src : dst, inner = src > dst ? dst : src;
        volatile bool done = false; // volatile: nvcc may not turn the retry into an inner spin
        while (!done) {
            if (atomicCAS(&locks[outer], 0, 1) == 0) {
                if (atomicCAS(&locks[inner], 0, 1) == 0) {
                    __threadfence();
                    volatile int *a = accounts;
                    a[src] = a[src] - amount;
                    a[dst] = a[dst] + amount;
                    __threadfence();
                    atomicExch(&locks[inner], 0);
                    atomicExch(&locks[outer], 0);
                    done = true;
                } else {
                    atomicExch(&locks[outer], 0);
                }
            }
        }
    }
}
