// vecadd.cu - c[i] = a[i] + b[i] over a grid-stride loop, float and int.
extern "C" __global__ void vecadd(const float *a, const float *b, float *c, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        c[i] = a[i] + b[i];
}

extern "C" __global__ void saxpy_i(int *y, const int *x, int a, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}
