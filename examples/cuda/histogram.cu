// histogram.cu - a 16-bin histogram with global atomics, inputs copied on a stream with
// cudaMemcpyAsync, and a __device__ count of the elements seen read back by symbol.
#include "common.cuh"

#define BINS 16

__device__ unsigned long long seen;

__global__ void histogram(const unsigned char *in, unsigned *bins, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicAdd(&bins[in[i] % BINS], 1u);
        atomicAdd(&seen, 1ull);
    }
}

int main()
{
    const int n = 3000;
    unsigned char *in = (unsigned char *)std::malloc(n);
    unsigned want[BINS] = {0}, got[BINS];
    for (int i = 0; i < n; i++) {
        in[i] = (unsigned char)((i * 37 + i / 3) & 0xff);
        want[in[i] % BINS]++;
    }
    cudaStream_t st;
    CHECK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    unsigned char *din;
    unsigned *dbins;
    CHECK(cudaMalloc(&din, n));
    CHECK(cudaMalloc(&dbins, sizeof got));
    CHECK(cudaMemcpyAsync(din, in, n, cudaMemcpyHostToDevice, st));
    CHECK(cudaMemsetAsync(dbins, 0, sizeof got, st));
    const unsigned long long zero = 0;
    CHECK(cudaMemcpyToSymbolAsync(seen, &zero, sizeof zero, 0, cudaMemcpyHostToDevice, st));
    histogram<<<(n + 255) / 256, 256, 0, st>>>(din, dbins, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpyAsync(got, dbins, sizeof got, cudaMemcpyDeviceToHost, st));
    CHECK(cudaStreamSynchronize(st));
    unsigned long long count = 0;
    CHECK(cudaMemcpyFromSymbol(&count, seen, sizeof count));
    int bad = count != (unsigned long long)n;
    for (int b = 0; b < BINS; b++)
        if (got[b] != want[b] && bad++ < 5)
            std::printf("bin %d: %u, expected %u\n", b, got[b], want[b]);
    std::printf("histogram: %d elements, %llu seen, %s\n", n, count, bad ? "FAILED" : "ok");
    CHECK(cudaStreamDestroy(st));
    CHECK(cudaFree(din));
    CHECK(cudaFree(dbins));
    std::free(in);
    return bad ? 1 : 0;
}
