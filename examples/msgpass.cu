// msgpass.cu - launch-spec example: message passing between CTAs. CTA 0
// writes a payload and then raises a flag with a release store; every other
// CTA spins on the flag with acquire loads and copies the payload. It ends
// only if the CTAs run concurrently (the functional mode interleaves them).
extern "C" __global__ void msgpass(int *payload, int *flag, int *out, unsigned n)
{
    unsigned t = threadIdx.x;
    if (blockIdx.x == 0) {
        for (unsigned i = t; i < n; i += blockDim.x)
            payload[i] = 3 * i + 1;
        __syncthreads();
        if (t == 0) {
            __threadfence();
            atomicExch(flag, 1);
        }
        return;
    }
    if (t == 0)
        while (atomicAdd(flag, 0) == 0)
            ;
    __syncthreads();
    __threadfence();
    for (unsigned i = t; i < n; i += blockDim.x)
        out[(blockIdx.x - 1) * n + i] = ((volatile int *)payload)[i];
}
