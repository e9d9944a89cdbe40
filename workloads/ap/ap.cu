// ap.cu - AP of the TM benchmarks: Apriori support counting (spec 004a
// Table 4.3, Data Mining of RMS-TM; GETM set). Every thread takes records
// (an item set as a 32-bit mask) and adds one to the counter of every
// candidate item set the record contains. The candidates are few and
// frequent, so every critical section updates a handful of the same few
// counters: extreme contention. Each counter has its own 32-byte granule
// (counter k at word 8k), so two counters never share GETM's metadata.
//
//   ap_tx    one transaction per record increments all its candidates'
//            counters (the record and the candidates are read before it).
//   ap_lock  the twin: each counter has a lock; a record's counters are
//            incremented one at a time, each under its lock (try-lock in a
//            loop on a volatile flag, as atm.cu).
#include "../../include/gpucoh_tx.cuh"

#define AP_CANDIDATES 16

extern "C" __global__ void ap_tx(const unsigned *records, const unsigned *cand, int *count,
                                 int nrecords)
{
    int stride = gridDim.x * blockDim.x;
    for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < nrecords; k += stride) {
        unsigned rec = records[k], hit = 0;
        for (int c = 0; c < AP_CANDIDATES; c++)
            hit |= ((rec & cand[c]) == cand[c]) << c;
        if (!hit)
            continue;
        gpucoh_tx_begin();
        for (int c = 0; c < AP_CANDIDATES; c++)
            if (hit >> c & 1)
                count[8 * c] += 1;
        gpucoh_tx_commit();
    }
}

extern "C" __global__ void ap_lock(const unsigned *records, const unsigned *cand, int *count,
                                   int *locks, int nrecords)
{
    int stride = gridDim.x * blockDim.x;
    for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < nrecords; k += stride) {
        unsigned rec = records[k];
        for (int c = 0; c < AP_CANDIDATES; c++) {
            if ((rec & cand[c]) != cand[c])
                continue;
            volatile bool done = false; // volatile: nvcc may not turn the retry into an inner spin
            while (!done) {
                if (atomicCAS(&locks[8 * c], 0, 1) == 0) {
                    __threadfence();
                    volatile int *vc = count;
                    vc[8 * c] = vc[8 * c] + 1;
                    __threadfence();
                    atomicExch(&locks[8 * c], 0);
                    done = true;
                }
            }
        }
    }
}
