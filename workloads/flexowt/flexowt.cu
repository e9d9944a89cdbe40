// flexowt.cu - spec 003's FlexO/WT microbenchmark (workloads/spandex_micro.cuh says how
// the paper's CPU phases run here).
#include "../spandex_micro.cuh"

// FlexO/WT (§4.2): "CPU" c densely reads and writes its partition of A
// (the same every phase) and sparsely writes partition (c + it) % half of
// B; "GPU" g densely reads and writes its partition of B and sparsely
// writes partition (g + it) % half of A.
// One side's phase: read and write every word of its partition `own`, and
// write word `at` of every line of partition `other`.
__device__ void dense_and_sparse(unsigned *own, unsigned *other, int P, unsigned at, unsigned v)
{
    for (unsigned k = threadIdx.x; k < (unsigned)P; k += blockDim.x)
        own[k] += 1u;
    for (unsigned j = threadIdx.x; j < (unsigned)P / 16; j += blockDim.x)
        other[j * 16 + at] = v;
}

extern "C" __global__ void flexowt(unsigned *A, unsigned *B, unsigned *bar, int P, int iters)
{
    unsigned half = gridDim.x / 2, c = blockIdx.x;
    for (int it = 0; it < iters; it++) {
        if (c < half)
            dense_and_sparse(A + c * P, B + (c + it) % half * P, P, it % 16, 7u * it + c);
        grid_sync(bar, bar + 32, gridDim.x);
        if (c >= half) {
            unsigned g = c - half;
            dense_and_sparse(B + g * P, A + (g + it) % half * P, P, it % 16, 5u * it + g);
        }
        grid_sync(bar, bar + 32, gridDim.x);
    }
}
