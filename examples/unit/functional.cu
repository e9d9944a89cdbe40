// functional.cu - kernels for tests/unit/252-functional.c: barriers with a
// partial last warp, atomics and the results they return, a barrier that can
// never complete, a spin that never ends, a misaligned access, and a
// compute-bound loop for the speed measurement.
extern "C" __global__ void reverse(int *out)
{
    __shared__ int s[1024];
    unsigned t = threadIdx.x, n = blockDim.x;
    s[t] = 1000 * blockIdx.x + t;
    __syncthreads();
    out[blockIdx.x * n + t] = s[n - 1 - t];
}

extern "C" __global__ void atomics(unsigned *ctr, unsigned *old, float *fsum, int *mn,
                                   unsigned *wrap, unsigned long long *big)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    old[t] = atomicAdd(ctr, 1u);
    atomicAdd(fsum, 0.5f);
    atomicMin(mn, -(int)t);
    atomicInc(wrap, 9u);
    atomicAdd(big, 1ull << 33);
}

// Warps 0 and 1 wait at different named barriers, each expecting 64 threads:
// neither can complete.
extern "C" __global__ void stuck(int *x)
{
    if (threadIdx.x < 32)
        asm volatile("bar.sync 1, 64;");
    else
        asm volatile("bar.sync 2, 64;");
    x[threadIdx.x] = 1;
}

extern "C" __global__ void spin(int *flag)
{
    while (atomicAdd(flag, 0) == 0)
        ;
}

extern "C" __global__ void misaligned(char *p)
{
    *(int *)(p + 2) = 1;
}

extern "C" __global__ void burn(unsigned *out, int iters)
{
    unsigned x = threadIdx.x, y = blockIdx.x;
    for (int k = 0; k < iters; k++) {
        x = x * 1664525u + 1013904223u;
        y ^= x >> 7;
        y += x & 0xff;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = x ^ y;
}
