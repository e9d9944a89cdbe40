// flexowt.cu - spec 003's FlexO/WT microbenchmark (workloads/spandex_micro.cuh says how its
// CPU and GPU phases run and synchronise).
#include "../spandex_micro.cuh"

// FlexO/WT (§4.2): CPU c densely reads and writes its partition of A (the
// same every phase) and sparsely writes partition (c + it) % n of B; GPU
// CTA g densely reads and writes its partition of B and sparsely writes
// partition (g + it) % n of A.
// One side's phase: read and write every word of its partition `own`, and
// write word `at` of every line of partition `other`.
__device__ void dense_and_sparse(unsigned *own, unsigned *other, int P, unsigned at, unsigned v)
{
    for (unsigned k = threadIdx.x; k < (unsigned)P; k += blockDim.x)
        own[k] += 1u;
    for (unsigned j = threadIdx.x; j < (unsigned)P / 16; j += blockDim.x)
        other[j * 16 + at] = v;
}

// Each phase waits for the two participants of the other side whose data
// it touches: the one that sparsely wrote its own partition last phase and
// the owner of the partition it writes sparsely now.
extern "C" __global__ void flexowt_cpu(unsigned *A, unsigned *B, unsigned *flags, int P, int it0,
                                       int iters)
{
    unsigned n = gridDim.x, c = blockIdx.x;
    for (int it = it0; it < iters; it++) {
        if (it) {
            await_flag(spx_flag(flags, 1, (c + n - (it - 1) % n) % n, n), it);
            await_flag(spx_flag(flags, 1, (c + it) % n, n), it);
            acquire_all();
        }
        dense_and_sparse(A + c * P, B + (c + it) % n * P, P, it % 16, 7u * it + c);
        raise_flag(spx_flag(flags, 0, c, n), it + 1);
    }
}

extern "C" __global__ void flexowt_gpu(unsigned *A, unsigned *B, unsigned *flags, int P, int it0,
                                       int iters)
{
    unsigned n = gridDim.x, g = blockIdx.x;
    for (int it = it0; it < iters; it++) {
        if (threadIdx.x == 0)
            await_flag(spx_flag(flags, 0, (g + n - it % n) % n, n), it + 1);
        if (threadIdx.x == 1)
            await_flag(spx_flag(flags, 0, (g + it) % n, n), it + 1);
        acquire_all();
        dense_and_sparse(B + g * P, A + (g + it) % n * P, P, it % 16, 5u * it + g);
        raise_flag(spx_flag(flags, 1, g, n), it + 1);
    }
}
