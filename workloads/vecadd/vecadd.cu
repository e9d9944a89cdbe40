// vecadd.cu - c[i] = a[i] + b[i], one thread per element (the CUDA samples' vectorAdd).
// Streaming, no sharing between threads; the guard handles a tail CTA.
extern "C" __global__ void vecadd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}
