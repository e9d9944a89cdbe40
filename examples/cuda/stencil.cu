// stencil.cu - a 5-point 1-D stencil through shared memory with __constant__ weights,
// run twice (ping-pong buffers) between two events; the host checks against its own.
#include "common.cuh"

#define RADIUS 2
#define THREADS 64

__constant__ int weights[2 * RADIUS + 1];

__global__ void stencil(const int *in, int *out, int n)
{
    __shared__ int tile[THREADS + 2 * RADIUS];
    int g = blockIdx.x * THREADS + threadIdx.x, l = threadIdx.x + RADIUS;
    tile[l] = g < n ? in[g] : 0;
    if (threadIdx.x < RADIUS) {
        int left = g - RADIUS, right = g + THREADS;
        tile[l - RADIUS] = left >= 0 && left < n ? in[left] : 0;
        tile[l + THREADS] = right < n ? in[right] : 0;
    }
    __syncthreads();
    if (g < n) {
        int s = 0;
        for (int k = -RADIUS; k <= RADIUS; k++)
            s += weights[k + RADIUS] * tile[l + k];
        out[g] = s;
    }
}

static void host_stencil(const int *in, int *out, int n, const int *w)
{
    for (int g = 0; g < n; g++) {
        int s = 0;
        for (int k = -RADIUS; k <= RADIUS; k++)
            s += w[k + RADIUS] * (g + k >= 0 && g + k < n ? in[g + k] : 0);
        out[g] = s;
    }
}

int main()
{
    const int n = 500;
    const int w[2 * RADIUS + 1] = {1, -2, 3, -2, 1};
    int *a = (int *)std::malloc(n * sizeof(int)), *b = (int *)std::malloc(n * sizeof(int));
    int *got = (int *)std::malloc(n * sizeof(int));
    for (int i = 0; i < n; i++)
        a[i] = (i * 13) % 29 - 14;
    host_stencil(a, b, n, w);
    host_stencil(b, a, n, w); // two sweeps: the answer is in a
    for (int i = 0; i < n; i++)
        got[i] = (i * 13) % 29 - 14;
    CHECK(cudaMemcpyToSymbol(weights, w, sizeof w));
    int *d0, *d1;
    CHECK(cudaMalloc(&d0, n * sizeof(int)));
    CHECK(cudaMalloc(&d1, n * sizeof(int)));
    CHECK(cudaMemcpy(d0, got, n * sizeof(int), cudaMemcpyHostToDevice));
    cudaEvent_t t0, t1, t2;
    CHECK(cudaEventCreate(&t0));
    CHECK(cudaEventCreate(&t1));
    CHECK(cudaEventCreate(&t2));
    CHECK(cudaEventRecord(t0, 0));
    stencil<<<(n + THREADS - 1) / THREADS, THREADS>>>(d0, d1, n);
    CHECK(cudaEventRecord(t1, 0));
    stencil<<<(n + THREADS - 1) / THREADS, THREADS>>>(d1, d0, n);
    CHECK(cudaEventRecord(t2, 0));
    CHECK(cudaDeviceSynchronize());
    float ms1 = 0, ms2 = 0, ms = 0;
    CHECK(cudaEventElapsedTime(&ms1, t0, t1));
    CHECK(cudaEventElapsedTime(&ms2, t1, t2));
    CHECK(cudaEventElapsedTime(&ms, t0, t2));
    CHECK(cudaMemcpy(got, d0, n * sizeof(int), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; i++)
        if (got[i] != a[i] && bad++ < 5)
            std::printf("out[%d] = %d, expected %d\n", i, got[i], a[i]);
    if (!(ms1 > 0 && ms2 > 0) || ms1 + ms2 < ms * 0.999f || ms1 + ms2 > ms * 1.001f) {
        std::printf("event times %g + %g ms do not add up to %g ms\n", ms1, ms2, ms);
        bad++;
    }
    std::printf("stencil: %d points, two sweeps, %s (%.4f + %.4f ms)\n", n, bad ? "FAILED" : "ok",
                ms1, ms2);
    CHECK(cudaFree(d0));
    CHECK(cudaFree(d1));
    std::free(a);
    std::free(b);
    std::free(got);
    return bad ? 1 : 0;
}
