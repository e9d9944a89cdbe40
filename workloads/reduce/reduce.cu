// reduce.cu - per-CTA tree sum in shared memory (Harris, "Optimizing Parallel
// Reduction in CUDA", kernel 4: first add during the global load). Each CTA of
// REDUCE_THREADS threads sums 2 * REDUCE_THREADS inputs and writes one partial
// sum; __syncthreads separates the levels of the tree.
#define REDUCE_THREADS 256

extern "C" __global__ void reduce(const unsigned *in, unsigned *partial)
{
    __shared__ unsigned s[REDUCE_THREADS];
    unsigned t = threadIdx.x;
    unsigned i = blockIdx.x * (2 * REDUCE_THREADS) + t;

    s[t] = in[i] + in[i + REDUCE_THREADS];
    __syncthreads();
    for (unsigned stride = REDUCE_THREADS / 2; stride > 0; stride >>= 1) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0)
        partial[blockIdx.x] = s[0];
}
