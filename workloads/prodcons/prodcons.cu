// prodcons.cu - spec 003's Prod-Cons microbenchmark (workloads/spandex_micro.cuh says how
// its CPU and GPU phases run and synchronise).
#include "../spandex_micro.cuh"

// Prod-Cons (§4.4): CPU c consumes partition c of A and produces
// partition c of B; GPU CTA c consumes partition c of B and produces
// partition c of A. Each waits only for its partner's flag.
extern "C" __global__ void prodcons_cpu(unsigned *A, unsigned *B, unsigned *flags, int P, int it0,
                                        int iters)
{
    unsigned n = gridDim.x, c = blockIdx.x;
    for (int it = it0; it < iters; it++) {
        if (it) {
            await_flag(spx_flag(flags, 1, c, n), it);
            acquire_all();
        }
        for (unsigned k = 0; k < (unsigned)P; k++)
            B[c * P + k] = A[c * P + k] + 1u;
        raise_flag(spx_flag(flags, 0, c, n), it + 1);
    }
}

extern "C" __global__ void prodcons_gpu(unsigned *A, unsigned *B, unsigned *flags, int P, int it0,
                                        int iters)
{
    unsigned n = gridDim.x, g = blockIdx.x;
    for (int it = it0; it < iters; it++) {
        if (threadIdx.x == 0)
            await_flag(spx_flag(flags, 0, g, n), it + 1);
        acquire_all();
        for (unsigned k = threadIdx.x; k < (unsigned)P; k += blockDim.x)
            A[g * P + k] = B[g * P + k] * 3u;
        raise_flag(spx_flag(flags, 1, g, n), it + 1);
    }
}
