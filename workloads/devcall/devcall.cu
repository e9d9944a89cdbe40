// devcall.cu - a kernel that calls __noinline__ device functions, so nvcc
// emits .func definitions and call/ret with parameter passing: a mixing step
// called in a data-dependent loop, and a store through a generic pointer.
__device__ __noinline__ unsigned mix_step(unsigned x, unsigned k)
{
    x ^= x >> 13;
    x *= 0x5bd1e995u ^ k;
    x ^= x >> 15;
    return x;
}

__device__ __noinline__ void put(unsigned *p, unsigned v)
{
    *p = v;
}

extern "C" __global__ void devcall(const unsigned *in, unsigned *out, int n, int rounds)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned v = in[i];
    for (int k = 0; k < rounds; k++)
        v = mix_step(v, (unsigned)k);
    if (v & 1u)
        v = mix_step(v, 99u);
    put(out + i, v);
}
