// histogram.cu - 256-bin byte histogram (the CUDA samples' histogram256 idea).
// histo_shared: each CTA counts into a private shared-memory histogram with
// shared atomics, then merges it into the global bins with global atomics.
// histo_global: every thread adds straight into the global bins.
// Both walk the input with a grid-stride loop.
#define HISTO_BINS 256

extern "C" __global__ void histo_shared(const unsigned char *data, int n, unsigned *bins)
{
    __shared__ unsigned s[HISTO_BINS];
    for (int b = threadIdx.x; b < HISTO_BINS; b += blockDim.x)
        s[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&s[data[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < HISTO_BINS; b += blockDim.x) {
        unsigned v = s[b];
        if (v != 0)
            atomicAdd(&bins[b], v);
    }
}

extern "C" __global__ void histo_global(const unsigned char *data, int n, unsigned *bins)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&bins[data[i]], 1u);
}
