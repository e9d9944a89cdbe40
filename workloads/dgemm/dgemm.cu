// dgemm.cu - C = A * B for n x n doubles (row-major), 16 x 16 tiles through
// shared memory: A and B read-only with reuse inside the kernel, C written
// once. n is a multiple of 16.
#define T 16
extern "C" __global__ void dgemm(int n, const double *a, const double *b, double *c)
{
    __shared__ double sa[T][T], sb[T][T];
    int row = blockIdx.y * T + threadIdx.y, col = blockIdx.x * T + threadIdx.x;
    double s = 0.0;
    for (int k0 = 0; k0 < n; k0 += T) {
        sa[threadIdx.y][threadIdx.x] = a[row * n + k0 + threadIdx.x];
        sb[threadIdx.y][threadIdx.x] = b[(k0 + threadIdx.y) * n + col];
        __syncthreads();
        for (int k = 0; k < T; k++)
            s += sa[threadIdx.y][k] * sb[k][threadIdx.x];
        __syncthreads();
    }
    c[row * n + col] = s;
}
