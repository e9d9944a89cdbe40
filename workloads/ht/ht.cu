// ht.cu - hash-table population (spec 004a Table 4.3, HT-H/M/L; GETM set).
// Every thread inserts `per` keys from its xorshift stream: hash the key to a
// bucket, read the bucket's head, point its own node's `next` at it, make its
// node the head. ht_tx does each insertion in a transaction
// (include/gpucoh_tx.cuh); ht_lock, the fine-grained-lock twin, takes the
// bucket's lock with a try-lock loop (one flag per thread, so lanes of one
// warp never wait on each other: no SIMT deadlock; the flag is volatile so
// that nvcc keeps one loop rather than an inner spin on the lock), fences,
// inserts, fences and releases.
#include "../../include/gpucoh_tx.cuh"

// Key k of the thread: its node (written with the key) and its bucket. The
// stream starts at ht_first; the host replays the same.
__device__ unsigned ht_first(unsigned seed)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    return (seed ^ (t * 0x9e3779b9u)) | 1u;
}

__device__ int ht_draw(unsigned *state, unsigned *keys, int nbuckets, int per, int k, int *node)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x, s = *state;
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    *state = s;
    *node = (int)(t * (unsigned)per + (unsigned)k);
    keys[*node] = s;
    return (int)(s % (unsigned)nbuckets);
}

extern "C" __global__ void ht_tx(int *heads, int *next, unsigned *keys, int nbuckets, int per,
                                 unsigned seed)
{
    unsigned s = ht_first(seed);
    for (int k = 0; k < per; k++) {
        int node, b = ht_draw(&s, keys, nbuckets, per, k, &node);
        gpucoh_tx_begin();
        int h = heads[b];
        next[node] = h;
        heads[b] = node;
        gpucoh_tx_commit();
    }
}

extern "C" __global__ void ht_lock(int *heads, int *next, unsigned *keys, int *locks,
                                   int nbuckets, int per, unsigned seed)
{
    unsigned s = ht_first(seed);
    for (int k = 0; k < per; k++) {
        int node, b = ht_draw(&s, keys, nbuckets, per, k, &node);
        volatile bool done = false; // volatile: nvcc may not turn the retry into an inner spin
        while (!done) {
            if (atomicCAS(&locks[b], 0, 1) == 0) {
                __threadfence();
                int h = ((volatile int *)heads)[b];
                next[node] = h;
                ((volatile int *)heads)[b] = node;
                __threadfence();
                atomicExch(&locks[b], 0);
                done = true;
            }
        }
    }
}
