// saxpy.cu - y[i] = a * x[i] + y[i], one thread per element (BLAS level 1).
// Each element is read and written by one thread: no sharing.
extern "C" __global__ void saxpy(int n, float a, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}
