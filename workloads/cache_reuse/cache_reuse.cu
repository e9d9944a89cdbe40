// cache_reuse.cu - spec 000's cache-reuse microbenchmark: one of 10 kernels,
// each reading the same read-only array a and updating a second array b.
// A grid-stride loop over a fixed grid, so that every kernel places each
// element on the same CU (the first wave's CTA i -> CU i mod CUs) and a is
// re-read where it was cached (inter-kernel reuse in the L1 when a launch
// does not invalidate it); b is written by its own thread only.
extern "C" __global__ void cache_reuse(int n, float k, const float *a, float *b)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        b[i] = 0.5f * b[i] + k * a[i];
}
