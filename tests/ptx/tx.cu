// tx.cu - transactions marked with include/gpucoh_tx.cuh (docs/transactions.md).
#include "../../include/gpucoh_tx.cuh"

// Every thread increments one counter in a transaction and records the value
// it read: a serialisable run gives the counter n and the reads 0..n-1 once each.
extern "C" __global__ void tx_counter(int *counter, int *seen)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    gpucoh_tx_begin();
    int v = *counter;
    *counter = v + 1;
    gpucoh_tx_commit();
    seen[t] = v;
}

// Every thread moves `amount` from one account to another if the first holds
// enough (a branch inside the transaction): the total never changes.
extern "C" __global__ void tx_transfer(int *acct, int n, int amount, int *moved)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int from = (t * 7 + 3) % n, to = (t * 5 + 1) % n;
    int ok = 0;
    gpucoh_tx_begin();
    int a = acct[from];
    if (a >= amount && from != to) {
        acct[from] = a - amount;
        acct[to] += amount;
        ok = 1;
    }
    gpucoh_tx_commit();
    moved[t] = ok;
}

// A plain store, then a transaction that touches no global memory: the
// commit must not wait for ever on the store issued before the begin.
extern "C" __global__ void tx_after_store(int *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    out[t] = t + 1;
    gpucoh_tx_begin();
    gpucoh_tx_commit();
}

// One warp: every lane writes a whole 128-byte line of its own in one
// transaction, so the commit is 32 lines, 4 KB, 128 regions of 32 bytes.
extern "C" __global__ void tx_fill_lines(int *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    gpucoh_tx_begin();
    for (int k = 0; k < 32; k++)
        out[t * 32 + k] = t + k;
    gpucoh_tx_commit();
}
