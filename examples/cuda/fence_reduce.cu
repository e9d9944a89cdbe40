// fence_reduce.cu - the CUDA samples' threadFenceReduction pattern: every block sums its
// part, publishes it with __threadfence(), and the last block to take a ticket from a
// __device__ retirement counter sums the partial sums in the same launch and, as the
// sample does, resets the counter for the next launch.
#include "common.cuh"

#define THREADS 128

__device__ unsigned int retirement_count = 0;

__global__ void reduce(const unsigned *in, unsigned *partial, unsigned *total, int n)
{
    __shared__ unsigned sums[THREADS];
    __shared__ bool last;
    unsigned s = 0;
    for (int i = blockIdx.x * THREADS + threadIdx.x; i < n; i += gridDim.x * THREADS)
        s += in[i];
    sums[threadIdx.x] = s;
    __syncthreads();
    for (int w = THREADS / 2; w > 0; w /= 2) {
        if (threadIdx.x < w)
            sums[threadIdx.x] += sums[threadIdx.x + w];
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = sums[0];
        __threadfence();
        unsigned ticket = atomicInc(&retirement_count, gridDim.x);
        last = ticket == gridDim.x - 1;
    }
    __syncthreads();
    if (last && threadIdx.x == 0) {
        __threadfence();
        unsigned t = 0;
        for (unsigned b = 0; b < gridDim.x; b++)
            t += ((volatile unsigned *)partial)[b];
        *total = t;
        retirement_count = 0;
    }
}

int main()
{
    const int n = 4096, blocks = 8;
    unsigned *in = (unsigned *)std::malloc(n * sizeof(unsigned)), want = 0;
    for (int i = 0; i < n; i++)
        want += in[i] = (unsigned)(i * 7 % 101);
    unsigned *din, *dpartial, *dtotal;
    CHECK(cudaMalloc(&din, n * sizeof(unsigned)));
    CHECK(cudaMalloc(&dpartial, blocks * sizeof(unsigned)));
    CHECK(cudaMalloc(&dtotal, sizeof(unsigned)));
    CHECK(cudaMemcpy(din, in, n * sizeof(unsigned), cudaMemcpyHostToDevice));
    cudaStream_t st;
    CHECK(cudaStreamCreate(&st));
    int bad = 0;
    for (int round = 0; round < 2; round++) { // the reset counter lets a second launch work too
        CHECK(cudaMemset(dtotal, 0, sizeof(unsigned)));
        reduce<<<blocks, THREADS, 0, st>>>(din, dpartial, dtotal, n);
        CHECK(cudaGetLastError());
        CHECK(cudaStreamSynchronize(st));
        unsigned total = 0, count = 1;
        CHECK(cudaMemcpy(&total, dtotal, sizeof total, cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpyFromSymbol(&count, retirement_count, sizeof count));
        if (total != want || count != 0) {
            std::printf("round %d: total %u (expected %u), retirement count %u (expected 0)\n",
                        round, total, want, count);
            bad++;
        }
    }
    CHECK(cudaStreamDestroy(st));
    std::printf("fence_reduce: %d elements in %d blocks, %s\n", n, blocks, bad ? "FAILED" : "ok");
    CHECK(cudaFree(din));
    CHECK(cudaFree(dpartial));
    CHECK(cudaFree(dtotal));
    std::free(in);
    return bad ? 1 : 0;
}
