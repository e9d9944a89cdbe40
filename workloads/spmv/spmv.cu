// spmv.cu - y = A x for a sparse matrix in CSR form, one row per thread
// (the scalar kernel of HCC's SPMV example). A and x are read-only and
// re-read by every launch; y is written.
extern "C" __global__ void spmv(int n, const int *row, const int *col, const float *val,
                                const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float s = 0.0f;
        for (int k = row[i]; k < row[i + 1]; k++)
            s += val[k] * x[col[k]];
        y[i] = s;
    }
}
