// saxpy_const.cu - y = a*x + b with a and b in __constant__ memory (cudaMemcpyToSymbol),
// timed with events; the host checks every element.
#include "common.cuh"

__constant__ float coef[2];

__global__ void saxpy(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = coef[0] * x[i] + coef[1] + y[i];
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? std::atoi(argv[1]) : 1000;
    float *x = (float *)std::malloc(n * sizeof(float)), *y = (float *)std::malloc(n * sizeof(float));
    for (int i = 0; i < n; i++) {
        x[i] = (float)(i % 17) - 8.0f;
        y[i] = (float)(i % 5);
    }
    const float hc[2] = {2.0f, 0.5f};
    CHECK(cudaMemcpyToSymbol(coef, hc, sizeof hc));
    float *dx, *dy;
    CHECK(cudaMalloc(&dx, n * sizeof(float)));
    CHECK(cudaMalloc(&dy, n * sizeof(float)));
    CHECK(cudaMemcpy(dx, x, n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dy, y, n * sizeof(float), cudaMemcpyHostToDevice));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventRecord(start));
    saxpy<<<(n + 127) / 128, 128>>>(dx, dy, n);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    CHECK(cudaMemcpy(y, dy, n * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; i++) {
        float want = 2.0f * ((float)(i % 17) - 8.0f) + 0.5f + (float)(i % 5);
        if (y[i] != want && bad++ < 5)
            std::printf("y[%d] = %g, expected %g\n", i, y[i], want);
    }
    if (!(ms > 0)) {
        std::printf("event time %g ms is not positive\n", ms);
        bad++;
    }
    std::printf("saxpy_const: %d elements, %s (%.4f ms)\n", n, bad ? "FAILED" : "ok", ms);
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaFree(dx));
    CHECK(cudaFree(dy));
    std::free(x);
    std::free(y);
    return bad ? 1 : 0;
}
