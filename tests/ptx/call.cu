// call.cu - device-function calls that nvcc keeps (noinline), with a local array.
__device__ __noinline__ int poly(int x, int y)
{
    int a[8];
    for (int i = 0; i < 8; i++)
        a[i] = x * i + y;
    int s = 0;
    for (int i = 0; i < 8; i++)
        s += a[(i * 3 + x) & 7];
    return s;
}

__device__ __noinline__ float fpoly(float x, double d)
{
    return (float)(x * d + 1.0);
}

__device__ __noinline__ void store_sq(int *p, int v)
{
    if (v < 0)
        return;
    *p = v * v;
}

extern "C" __global__ void caller(int *out, float *fout, int k)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int r = poly(t, k);
    if (t & 1)
        r += poly(k, t);
    out[t] = r;
    fout[t] = fpoly((float)t, 0.5);
    store_sq(out + 64 + t, t - 3);
}
