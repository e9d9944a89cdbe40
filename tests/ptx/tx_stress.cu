// tx_stress.cu - the transactional-memory stress kernel (tests/unit/662-tm-stress.c,
// docs/transactions.md): every thread runs `per_thread` transactions, each over
// two distinct random words of a small set (each word read, and written with
// probability 1/2: a read-modify-write that stores the transaction's own id + 1),
// and records after its commit the words, the values it read and which it wrote.
// The host rebuilds each word's version chain from the values the writers read
// and checks that the transactions' conflicts form no cycle (serialisability).
#include "../../include/gpucoh_tx.cuh"

extern "C" __global__ void tx_stress(unsigned *words, unsigned n_words, unsigned stride,
                                     unsigned per_thread, unsigned seed, unsigned *log)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned r = seed ^ (t * 0x9e3779b9u);
    for (unsigned e = 0; e < per_thread; e++) {
        unsigned id = t * per_thread + e;
        r = r * 1664525u + 1013904223u;
        unsigned w0 = (r >> 8) % n_words;
        unsigned w1 = (w0 + 1 + (r >> 20) % (n_words - 1)) % n_words;
        unsigned wr = r & 3;
        unsigned *a0 = words + w0 * stride, *a1 = words + w1 * stride;
        unsigned v0, v1;
        gpucoh_tx_begin();
        v0 = *a0;
        if (wr & 1)
            *a0 = id + 1;
        v1 = *a1;
        if (wr & 2)
            *a1 = id + 1;
        gpucoh_tx_commit();
        unsigned *rec = log + id * 5;
        rec[0] = w0;
        rec[1] = v0;
        rec[2] = w1;
        rec[3] = v1;
        rec[4] = wr;
    }
}
