// printf.cu - device printf: a block sums its slice of an array in shared memory
// and its first thread prints the sum with printf (the values the memory system
// returned); the first warp of a second kernel prints a line per lane with
// strings of device memory. The host sets and reads back the printf FIFO's size
// (cudaDeviceSetLimit, from the first argument in bytes, 1 MiB by default) and
// checks the sums.
#include "common.cuh"

#define BLOCK 64

__device__ const char names[4][8] = {"north", "east", "south", "west"};

__global__ void block_sums(const int *in, int *sums, int n)
{
    __shared__ int part[BLOCK];
    int i = blockIdx.x * BLOCK + threadIdx.x;
    part[threadIdx.x] = i < n ? in[i] : 0;
    __syncthreads();
    for (int s = BLOCK / 2; s > 0; s /= 2) {
        if (threadIdx.x < s)
            part[threadIdx.x] += part[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        sums[blockIdx.x] = part[0];
        printf("block %d: sum %d, mean %.3f, hex %#x\n", blockIdx.x, part[0],
               part[0] / (double)BLOCK, part[0]);
    }
}

__global__ void lanes(const int *sums, int blocks)
{
    int t = threadIdx.x;
    if (t < 32 && t % 8 == 0)
        printf("lane %2d heads %-5s|%c| sum[%d] = %6d, %e\n", t, names[t / 8], 'a' + t / 8,
               t / 8 % blocks, sums[t / 8 % blocks], sums[t / 8 % blocks] * 1e-3);
}

int main(int argc, char **argv)
{
    const int blocks = 3, n = blocks * BLOCK - 5;
    size_t fifo = argc > 1 ? (size_t)std::atol(argv[1]) : (size_t)1 << 20, got = 0;
    CHECK(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, fifo));
    CHECK(cudaDeviceGetLimit(&got, cudaLimitPrintfFifoSize));
    int h[blocks * BLOCK], want[blocks] = {0}, sums[blocks];
    for (int i = 0; i < n; i++) {
        h[i] = (i * 37) % 101 - 20;
        want[i / BLOCK] += h[i];
    }
    int *din, *dsums;
    CHECK(cudaMalloc(&din, n * sizeof(int)));
    CHECK(cudaMalloc(&dsums, blocks * sizeof(int)));
    CHECK(cudaMemcpy(din, h, n * sizeof(int), cudaMemcpyHostToDevice));
    block_sums<<<blocks, BLOCK>>>(din, dsums, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    lanes<<<1, 64>>>(dsums, blocks);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(sums, dsums, sizeof sums, cudaMemcpyDeviceToHost));
    int bad = got != fifo;
    for (int b = 0; b < blocks; b++)
        if (sums[b] != want[b] && bad++ < 5)
            std::printf("sum[%d] = %d, expected %d\n", b, sums[b], want[b]);
    std::printf("printf: %d block sums, FIFO %zu bytes, %s\n", blocks, got, bad ? "FAILED" : "ok");
    CHECK(cudaFree(din));
    CHECK(cudaFree(dsums));
    return bad ? 1 : 0;
}
