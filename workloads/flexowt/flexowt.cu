// flexowt.cu - spec 003's FlexO/WT microbenchmark (workloads/spandex_micro.cuh says how
// the paper's CPU phases run here).
#include "../spandex_micro.cuh"

// FlexO/WT (§4.2): "CPU" c densely reads and writes its partition of A
// (the same every phase) and sparsely writes partition (c + it) % half of
// B; "GPU" g densely reads and writes its partition of B and sparsely
// writes partition (g + it) % half of A.
extern "C" __global__ void flexowt(unsigned *A, unsigned *B, unsigned *bar, int P, int iters)
{
    unsigned half = gridDim.x / 2, c = blockIdx.x;
    for (int it = 0; it < iters; it++) {
        if (c < half) {
            for (unsigned k = threadIdx.x; k < (unsigned)P; k += blockDim.x)
                A[c * P + k] += 1u;
            unsigned bp = (c + it) % half;
            for (unsigned j = threadIdx.x; j < (unsigned)P / 16; j += blockDim.x)
                B[bp * P + j * 16 + it % 16] = 7u * it + c;
        }
        grid_sync(bar, bar + 32, gridDim.x);
        if (c >= half) {
            unsigned g = c - half;
            for (unsigned k = threadIdx.x; k < (unsigned)P; k += blockDim.x)
                B[g * P + k] += 1u;
            unsigned ap = (g + it) % half;
            for (unsigned j = threadIdx.x; j < (unsigned)P / 16; j += blockDim.x)
                A[ap * P + j * 16 + it % 16] = 5u * it + g;
        }
        grid_sync(bar, bar + 32, gridDim.x);
    }
}
