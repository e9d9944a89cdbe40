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

// Variant "hoisted" (as gemm's and 3mm's): the same products in the same
// order and the same per-j stores, with each group of four iterations' loads
// of a and y issued before their four multiply-adds; a compiler barrier after
// each store keeps nvcc from merging or sinking it. Valid since a and y do not
// alias x (the host allocates them apart). a[i * si + j * sj]: kernel1 reads
// rows (si = n, sj = 1), kernel2 columns (si = 1, sj = n).
__device__ __forceinline__ void mvt_hoisted(int n, int i, int si, int sj, const float *a, float *x,
                                            const float *y)
{
    float acc = x[i];
    int j = 0;
    for (; j + 4 <= n; j += 4) {
        float a0 = a[i * si + j * sj], y0 = y[j];
        float a1 = a[i * si + (j + 1) * sj], y1 = y[j + 1];
        float a2 = a[i * si + (j + 2) * sj], y2 = y[j + 2];
        float a3 = a[i * si + (j + 3) * sj], y3 = y[j + 3];
        asm volatile("" ::: "memory");
        acc = fmaf(a0, y0, acc);
        x[i] = acc;
        asm volatile("" ::: "memory");
        acc = fmaf(a1, y1, acc);
        x[i] = acc;
        asm volatile("" ::: "memory");
        acc = fmaf(a2, y2, acc);
        x[i] = acc;
        asm volatile("" ::: "memory");
        acc = fmaf(a3, y3, acc);
        x[i] = acc;
        asm volatile("" ::: "memory");
    }
    for (; j < n; j++) {
        acc = fmaf(a[i * si + j * sj], y[j], acc);
        x[i] = acc;
        asm volatile("" ::: "memory");
    }
}

extern "C" __global__ void mvt_kernel1_hoisted(int n, const float *a, float *x1, const float *y1)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        mvt_hoisted(n, i, n, 1, a, x1, y1);
}

extern "C" __global__ void mvt_kernel2_hoisted(int n, const float *a, float *x2, const float *y2)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        mvt_hoisted(n, i, 1, n, a, x2, y2);
}
