// twostage.cu - launch-spec example with two launches: an affine map, then a
// block sum in dynamic shared memory (barriers) whose per-block results are
// added into one total with an atomic.
extern "C" __global__ void affine(const int *x, int *y, int a, int b, unsigned n)
{
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        y[i] = a * x[i] + b;
}

extern "C" __global__ void block_sum(const int *y, int *partial, unsigned long long *total,
                                     unsigned n)
{
    extern __shared__ int s[];
    unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t] = i < n ? y[i] : 0;
    __syncthreads();
    for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
        if (t < k)
            s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0) {
        partial[blockIdx.x] = s[0];
        atomicAdd(total, (unsigned long long)(long long)s[0]);
    }
}
