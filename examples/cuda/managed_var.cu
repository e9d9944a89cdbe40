// managed_var.cu - __managed__ variables: a counter and an initialised table the
// host and kernels both read and write through the variables' names. The host
// sets the counter, a kernel adds to it and doubles the table, the host reads both,
// changes them and launches again; the host's pointer to the table reaches a
// kernel as an argument too (one address for host and device, as in CUDA).
#include "common.cuh"

__managed__ int counter;
__managed__ float table[64] = {1, 2, 3, 4};

__global__ void bump(int add)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&counter, add);
    if (i < 64)
        table[i] = 2 * table[i] + 1;
}

__global__ void sum_into_counter(const float *t)
{
    int i = threadIdx.x;
    atomicAdd(&counter, (int)t[i]);
}

int main()
{
    int bad = 0;
    counter = 5;
    bump<<<2, 64>>>(3); // 128 threads add 3 each
    CHECK(cudaDeviceSynchronize());
    bad += counter != 5 + 128 * 3;
    for (int i = 0; i < 64; i++) {
        float want = 2 * (i < 4 ? i + 1 : 0) + 1;
        if (table[i] != want && bad++ < 5)
            std::printf("after 1: table[%d] = %g, expected %g\n", i, table[i], want);
    }
    counter = -1000;
    for (int i = 0; i < 64; i++)
        table[i] = i;
    sum_into_counter<<<1, 64>>>(table); // the host's pointer, passed to the kernel
    CHECK(cudaDeviceSynchronize());
    bad += counter != -1000 + 63 * 64 / 2;
    std::printf("managed_var: counter %d, table[63] %g, %s\n", counter, table[63],
                bad ? "FAILED" : "ok");
    return bad ? 1 : 0;
}
