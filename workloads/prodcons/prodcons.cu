// prodcons.cu - spec 003's Prod-Cons microbenchmark (workloads/spandex_micro.cuh says how
// the paper's CPU phases run here).
#include "../spandex_micro.cuh"

// Prod-Cons (§4.4): "CPU" c consumes partition c of A and produces
// partition c of B; "GPU" c consumes partition c of B and produces
// partition c of A.
extern "C" __global__ void prodcons(unsigned *A, unsigned *B, unsigned *bar, int P, int iters)
{
    unsigned half = gridDim.x / 2, c = blockIdx.x;
    for (int it = 0; it < iters; it++) {
        if (c < half)
            for (unsigned k = threadIdx.x; k < (unsigned)P; k += blockDim.x)
                B[c * P + k] = A[c * P + k] + 1u;
        grid_sync(bar, bar + 32, gridDim.x);
        if (c >= half) {
            unsigned g = c - half;
            for (unsigned k = threadIdx.x; k < (unsigned)P; k += blockDim.x)
                A[g * P + k] = B[g * P + k] * 3u;
        }
        grid_sync(bar, bar + 32, gridDim.x);
    }
}
