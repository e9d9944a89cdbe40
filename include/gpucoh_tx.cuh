// gpucoh_tx.cuh - marking transactions in CUDA source for gpucoh
// (docs/transactions.md).
//
//     gpucoh_tx_begin();
//     ... loads and stores of global memory ...
//     gpucoh_tx_commit();
//
// The markers are calls of functions that nvcc keeps as calls in the PTX
// (`call.uni gpucoh_tx_begin, ();`): __noinline__ keeps the call, extern "C"
// keeps the name unmangled, and the empty volatile asm with a memory clobber
// keeps the compiler from deleting a call it would otherwise find to do
// nothing, or moving memory accesses across it. gpucoh's PTX front end turns
// the two calls into the begin and commit of a transaction. On a real GPU
// they are empty calls: the code then runs without transactions.
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

extern "C" __device__ __noinline__ void gpucoh_tx_begin(void)
{
    asm volatile("" ::: "memory");
}

extern "C" __device__ __noinline__ void gpucoh_tx_commit(void)
{
    asm volatile("" ::: "memory");
}
