// flexvs.cu - spec 003's FlexV/S microbenchmark (workloads/spandex_micro.cuh says how
// the paper's CPU phases run here).
#include "../spandex_micro.cuh"

// FlexV/S (§4.1): "CPU" c densely reads all of A (sync-separated reuse:
// the same data every phase) and partition (c + it) % half of B (no
// reuse: another partition each phase), and writes a checksum per thread;
// "GPU" g sparsely writes its slice of A (one word per line) and densely
// reads and writes its partition of B (the same one every phase).
extern "C" __global__ void flexvs(unsigned *A, unsigned *B, unsigned *out, unsigned *bar,
                                  int P, int iters)
{
    unsigned half = gridDim.x / 2, c = blockIdx.x;
    for (int it = 0; it < iters; it++) {
        if (c < half) {
            unsigned sum = 0;
            for (unsigned k = threadIdx.x; k < half * P; k += blockDim.x)
                sum += A[k];
            unsigned bp = (c + it) % half;
            for (unsigned k = threadIdx.x; k < (unsigned)P; k += blockDim.x)
                sum += B[bp * P + k];
            out[(it * gridDim.x + c) * blockDim.x + threadIdx.x] = sum;
        }
        grid_sync(bar, bar + 32, gridDim.x);
        if (c >= half) {
            unsigned g = c - half;
            for (unsigned j = threadIdx.x; j < (unsigned)P / 16; j += blockDim.x)
                A[g * P + j * 16 + (it + g) % 16] = it * 1000u + g;
            for (unsigned k = threadIdx.x; k < (unsigned)P; k += blockDim.x)
                B[g * P + k] += 1u;
        }
        grid_sync(bar, bar + 32, gridDim.x);
    }
}
