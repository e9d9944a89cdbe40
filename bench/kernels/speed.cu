// speed.cu - kernels for bench/kernels.c: one compute-bound, one memory-bound.
// Regenerate speed.ptx with: nvcc -ptx -arch=sm_75 -O3 speed.cu -o speed.ptx

// Compute-bound: a long dependent chain of integer and float arithmetic per
// thread, one store at the end.
extern "C" __global__ void compute(float *out, int iters)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    float x = t * 0.001f, y = 1.0f;
    unsigned h = (unsigned)t;
    for (int i = 0; i < iters; i++) {
        x = fmaf(x, 1.0001f, 0.5f);
        y = y * 0.999f + x;
        h = h * 1664525u + 1013904223u;
        x += (float)(h & 0xff) * 1e-6f;
    }
    out[t] = x + y;
}

// Memory-bound: a grid-stride streaming triad over large arrays.
extern "C" __global__ void stream(float *a, const float *b, const float *c, float s, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        a[i] = b[i] + s * c[i];
}
