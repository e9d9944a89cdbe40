// managed.cu - cudaMallocManaged: the host fills an array in managed memory, a kernel
// squares it in place and counts into a __device__ variable, the host reads the same
// pointer back after cudaDeviceSynchronize, writes it again and launches once more.
#include "common.cuh"

__device__ unsigned calls;

__global__ void square(int *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] = v[i] * v[i];
    if (i == 0)
        atomicAdd(&calls, 1u);
}

int main()
{
    const int n = 300;
    int *v;
    CHECK(cudaMallocManaged(&v, n * sizeof(int)));
    for (int i = 0; i < n; i++)
        v[i] = i - 150;
    square<<<(n + 127) / 128, 128>>>(v, n);
    CHECK(cudaDeviceSynchronize());
    int bad = 0;
    for (int i = 0; i < n; i++) {
        if (v[i] != (i - 150) * (i - 150) && bad++ < 5)
            std::printf("after 1: v[%d] = %d\n", i, v[i]);
        v[i] = i % 7;
    }
    square<<<(n + 127) / 128, 128>>>(v, n);
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < n; i++)
        if (v[i] != (i % 7) * (i % 7) && bad++ < 5)
            std::printf("after 2: v[%d] = %d\n", i, v[i]);
    unsigned c = 0;
    CHECK(cudaMemcpyFromSymbol(&c, calls, sizeof c));
    bad += c != 2;
    std::printf("managed: %d elements, two launches (%u counted), %s\n", n, c, bad ? "FAILED" : "ok");
    CHECK(cudaFree(v));
    return bad ? 1 : 0;
}
