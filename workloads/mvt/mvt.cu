// mvt.cu - mvt (Polybench-GPU): x1 = x1 + A * y1 and x2 = x2 + A^T * y2
// over an n x n float matrix, one thread per output element in blocks of
// 256. Each thread accumulates into its element in memory once per j (the
// operands may alias, so nvcc keeps the load and store): mvt_kernel1 reads
// A by rows (each thread its own row: uncoalesced), mvt_kernel2 by columns
// (coalesced across a warp); y is broadcast.
extern "C" __global__ void mvt_kernel1(int n, const float *a, float *x1, const float *y1)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        for (int j = 0; j < n; j++)
            x1[i] += a[i * n + j] * y1[j];
}

extern "C" __global__ void mvt_kernel2(int n, const float *a, float *x2, const float *y2)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        for (int j = 0; j < n; j++)
            x2[i] += a[j * n + i] * y2[j];
}
