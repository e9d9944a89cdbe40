// flexoawta.cu - spec 003's FlexOa/WTa microbenchmark (workloads/spandex_micro.cuh says how
// its phases synchronise).
#include "../spandex_micro.cuh"

// FlexOa/WTa (§4.3; GPU only in the paper too): every CTA atomically adds
// 1 to every word of its partition and, concurrently with that partition's
// owner, to one word per line of partition (i + 1 + it) % n; then it
// raises its flag and waits for every CTA's (the paper's per-iteration
// barrier, without a shared counter).
extern "C" __global__ void flexoawta(unsigned *A, unsigned *flags, int P, int it0, int iters)
{
    unsigned n = gridDim.x, i = blockIdx.x;
    for (int it = it0; it < iters; it++) {
        for (unsigned k = threadIdx.x; k < (unsigned)P; k += blockDim.x)
            atomicAdd(&A[i * P + k], 1u);
        unsigned q = (i + 1 + it) % n;
        for (unsigned j = threadIdx.x; j < (unsigned)P / 16; j += blockDim.x)
            atomicAdd(&A[q * P + j * 16 + (it + i) % 16], 1u);
        raise_flag(spx_flag(flags, 1, i, n), it + 1);
        await_side(flags, 1, n, it + 1);
    }
}
