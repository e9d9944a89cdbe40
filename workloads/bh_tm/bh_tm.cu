// bh_tm.cu - BH of the TM benchmarks: Barnes-Hut octree build, one body
// inserted per critical section (spec 004a Table 4.3; GETM set). The TC
// study's BH (workloads/bh) builds the same kind of tree with CAS-locked
// slots and goes on to summarise and compute forces; this is the tree build
// alone, in a transactional and a fine-grained-lock version.
//
// Bodies have distinct integer coordinates below 2^BH_BITS; the octant at
// depth d is bit BH_BITS-1-d of x, y and z, so two bodies separate by depth
// BH_BITS. Cell c's child slot o is child[8c + o]: -1 empty, a value below
// nbodies a body, nbodies + k cell k; the root is cell 0. Each thread takes
// new cells from its own slice of the cell pool (the host cleared every slot
// to -1), so cell allocation needs no atomics; its cursor is a register,
// which a transaction's retry restores.
//
//   bh_tx    the insertion walks down from the root reading slots and
//            writes the empty slot it ends at, or replaces the body it finds
//            with a chain of new cells that separates the two bodies: all in
//            one transaction. Contention is highest near the root while the
//            tree is young.
//   bh_lock  the twin after Burtscher and Pingali: descend without locks
//            (volatile loads), claim an empty slot with atomicCAS, or lock a
//            slot holding a body by CAS to -2, build the separating cells
//            privately, fence, and publish the first cell into the slot (which
//            unlocks it). A lane that meets a locked slot tries again on the
//            next trip of the loop; a lane takes one step per trip and the
//            locker finishes within its trip, so lanes of one warp never wait
//            on each other for ever.
#include "../../include/gpucoh_tx.cuh"

#define BH_BITS 10

__device__ int bh_octant(int4 b, int depth)
{
    int s = BH_BITS - 1 - depth;
    return (((b.x >> s) & 1) << 2) | (((b.y >> s) & 1) << 1) | ((b.z >> s) & 1);
}

// New cells from the pool cursor *next until bodies me (b) and s (other),
// which share octant o at depth d, separate: each new cell holds the next in
// the octant both select, the last holds the two bodies. Returns the first
// new cell, which the caller stores into the slot the two shared. P is int
// (transactional stores) or volatile int (private cells, published later).
template <typename P>
__device__ int bh_split(P *child, int nbodies, int4 b, int me, int4 other, int s, int d, int o,
                        int *next)
{
    int first = *next, c = -1;
    for (;;) {
        int nc = (*next)++;
        if (c >= 0)
            child[8 * c + o] = nbodies + nc;
        c = nc;
        d++;
        int om = bh_octant(b, d), oo = bh_octant(other, d);
        if (om != oo) {
            child[8 * c + om] = me;
            child[8 * c + oo] = s;
            return first;
        }
        o = om;
    }
}

extern "C" __global__ void bh_tx(int *child, const int4 *bodies, int nbodies, int per)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x, nthreads = gridDim.x * blockDim.x;
    int next = 1 + t * per * BH_BITS; // this thread's pool slice
    for (int k = 0; k < per; k++) {
        int me = t + k * nthreads;
        if (me >= nbodies)
            break;
        int4 b = bodies[me];
        gpucoh_tx_begin();
        int c = 0, d = 0;
        for (;;) {
            int o = bh_octant(b, d), s = child[8 * c + o];
            if (s >= nbodies) { // a cell: descend
                c = s - nbodies;
                d++;
            } else if (s < 0) { // empty: take it
                child[8 * c + o] = me;
                break;
            } else { // a body: new cells until the two separate
                // the shared slot first: a store reserves its granule at once, so a
                // later reader cannot raise its rts while the chain is built
                child[8 * c + o] = nbodies + next;
                bh_split(child, nbodies, b, me, bodies[s], s, d, o, &next);
                break;
            }
        }
        gpucoh_tx_commit();
    }
}

extern "C" __global__ void bh_lock(int *child, const int4 *bodies, int nbodies, int per)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x, nthreads = gridDim.x * blockDim.x;
    int next = 1 + t * per * BH_BITS;
    volatile int *vc = child;
    for (int k = 0; k < per; k++) {
        int me = t + k * nthreads;
        if (me >= nbodies)
            break;
        int4 b = bodies[me];
        int c = 0, d = 0;
        volatile bool done = false; // volatile: nvcc may not turn the retry into an inner spin
        while (!done) {
            int o = bh_octant(b, d), s = vc[8 * c + o];
            if (s >= nbodies) {
                c = s - nbodies;
                d++;
            } else if (s == -1) {
                if (atomicCAS(&child[8 * c + o], -1, me) == -1)
                    done = true;
            } else if (s >= 0 && atomicCAS(&child[8 * c + o], s, -2) == s) {
                int first = bh_split(vc, nbodies, b, me, bodies[s], s, d, o, &next);
                __threadfence(); // the private cells before the slot that publishes them
                atomicExch(&child[8 * c + o], nbodies + first);
                done = true;
            }
        }
    }
}
