// matmul.cu - C = A*B with 8x8 shared-memory tiles, a device-to-device copy, the device's
// properties queried, and a __device__ error flag a kernel sets on a bad index (read back).
#include "common.cuh"

#define TILE 8

__device__ int bad_index;

__global__ void matmul(const float *A, const float *B, float *C, int n)
{
    __shared__ float as[TILE][TILE], bs[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
    if (row >= n || col >= n)
        atomicExch(&bad_index, 1);
    float s = 0;
    for (int t = 0; t < n / TILE; t++) {
        as[threadIdx.y][threadIdx.x] = A[row * n + t * TILE + threadIdx.x];
        bs[threadIdx.y][threadIdx.x] = B[(t * TILE + threadIdx.y) * n + col];
        __syncthreads();
        for (int k = 0; k < TILE; k++)
            s += as[threadIdx.y][k] * bs[k][threadIdx.x];
        __syncthreads();
    }
    C[row * n + col] = s;
}

int main()
{
    const int n = 32;
    cudaDeviceProp prop;
    int dev = -1, count = 0;
    CHECK(cudaGetDeviceCount(&count));
    CHECK(cudaGetDevice(&dev));
    CHECK(cudaGetDeviceProperties(&prop, dev));
    std::printf("device %d of %d: %s, %d SMs, warp %d\n", dev, count, prop.name,
                prop.multiProcessorCount, prop.warpSize);
    float *A = (float *)std::malloc(n * n * sizeof(float)), *B = (float *)std::malloc(n * n * sizeof(float));
    float *C = (float *)std::malloc(n * n * sizeof(float));
    for (int i = 0; i < n * n; i++) {
        A[i] = (float)(i % 7) - 3;
        B[i] = (float)(i % 5) - 2;
    }
    float *dA, *dB, *dB2, *dC;
    CHECK(cudaMalloc(&dA, n * n * sizeof(float)));
    CHECK(cudaMalloc(&dB, n * n * sizeof(float)));
    CHECK(cudaMalloc(&dB2, n * n * sizeof(float)));
    CHECK(cudaMalloc(&dC, n * n * sizeof(float)));
    CHECK(cudaMemcpy(dA, A, n * n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dB, B, n * n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dB2, dB, n * n * sizeof(float), cudaMemcpyDeviceToDevice));
    const int zero = 0;
    CHECK(cudaMemcpyToSymbol(bad_index, &zero, sizeof zero));
    cudaEvent_t e;
    CHECK(cudaEventCreate(&e));
    matmul<<<dim3(n / TILE, n / TILE), dim3(TILE, TILE)>>>(dA, dB2, dC, n);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(e));
    CHECK(cudaEventSynchronize(e));
    CHECK(cudaMemcpy(C, dC, n * n * sizeof(float), cudaMemcpyDeviceToHost));
    int flag = -1;
    CHECK(cudaMemcpyFromSymbol(&flag, bad_index, sizeof flag));
    int bad = flag != 0 || count != 1 || dev != 0 || prop.warpSize != 32;
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            float want = 0;
            for (int k = 0; k < n; k++)
                want += A[r * n + k] * B[k * n + c];
            if (C[r * n + c] != want && bad++ < 5)
                std::printf("C[%d][%d] = %g, expected %g\n", r, c, C[r * n + c], want);
        }
    std::printf("matmul: %dx%d, %s\n", n, n, bad ? "FAILED" : "ok");
    CHECK(cudaEventDestroy(e));
    CHECK(cudaFree(dA));
    CHECK(cudaFree(dB));
    CHECK(cudaFree(dB2));
    CHECK(cudaFree(dC));
    std::free(A);
    std::free(B);
    std::free(C);
    return bad ? 1 : 0;
}
