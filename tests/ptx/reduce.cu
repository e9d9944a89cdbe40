// reduce.cu - block sum in shared memory with __syncthreads, static and dynamic shared.
extern "C" __global__ void reduce_sum(const int *in, int *out, int n)
{
    __shared__ int buf[256];
    unsigned t = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x + t;
    buf[t] = i < (unsigned)n ? in[i] : 0;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s)
            buf[t] += buf[t + s];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = buf[0];
}

extern "C" __global__ void reduce_dyn(const float *in, float *out)
{
    extern __shared__ float sbuf[];
    unsigned t = threadIdx.x;
    sbuf[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
        if (t < s)
            sbuf[t] += sbuf[t + s];
        __syncthreads();
    }
    if (t < 32) {
        float v = sbuf[t] + sbuf[t + 32];
        for (int o = 16; o > 0; o >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, o);
        if (t == 0)
            out[blockIdx.x] = v;
    }
}
