// lud.cu - blocked LU decomposition without pivoting (after Rodinia's lud),
// three kernels per 16-wide step.
//
// lud_diag factors the diagonal tile in shared memory (one CTA). lud_perim
// solves the tiles to the right of it (U) and below it (L) against that
// tile: one CTA per tile pair, 32 threads, one column or row each.
// lud_internal updates every trailing tile with the product of its L and U
// tiles. Each kernel reads what the previous one wrote (inter-kernel reuse),
// the diagonal and perimeter tiles are read by many CTAs, and the matrix is
// updated in place. Element (i, j) is at a[i * n + j].

#define LUD_T 16

extern "C" __global__ void lud_diag(float *a, int n, int off)
{
    __shared__ float d[LUD_T][LUD_T];
    int tx = threadIdx.x;
    for (int r = 0; r < LUD_T; r++)
        d[r][tx] = a[(off + r) * n + off + tx];
    __syncthreads();
    for (int k = 0; k < LUD_T - 1; k++) {
        if (tx > k)
            d[tx][k] = d[tx][k] / d[k][k];
        __syncthreads();
        if (tx > k) {
            float l = d[tx][k];
            for (int j = k + 1; j < LUD_T; j++)
                d[tx][j] = fmaf(-l, d[k][j], d[tx][j]);
        }
        __syncthreads();
    }
    for (int r = 0; r < LUD_T; r++)
        a[(off + r) * n + off + tx] = d[r][tx];
}

extern "C" __global__ void lud_perim(float *a, int n, int off)
{
    __shared__ float d[LUD_T][LUD_T];
    __shared__ float u[LUD_T][LUD_T];   // tile right of the diagonal
    __shared__ float l[LUD_T][LUD_T];   // tile below the diagonal
    int tx = threadIdx.x;
    int t = tx & (LUD_T - 1);
    int base = off + LUD_T * (blockIdx.x + 1);

    if (tx < LUD_T) {
        for (int r = 0; r < LUD_T; r++) {
            d[r][t] = a[(off + r) * n + off + t];
            u[r][t] = a[(off + r) * n + base + t];
        }
    } else {
        for (int r = 0; r < LUD_T; r++)
            l[r][t] = a[(base + r) * n + off + t];
    }
    __syncthreads();

    if (tx < LUD_T) {
        // column t of U12 = L11^-1 A12 (unit lower triangular forward solve)
        for (int k = 0; k < LUD_T - 1; k++)
            for (int i = k + 1; i < LUD_T; i++)
                u[i][t] = fmaf(-d[i][k], u[k][t], u[i][t]);
    } else {
        // row t of L21 = A21 U11^-1
        for (int j = 0; j < LUD_T; j++) {
            float v = l[t][j];
            for (int k = 0; k < j; k++)
                v = fmaf(-l[t][k], d[k][j], v);
            l[t][j] = v / d[j][j];
        }
    }
    __syncthreads();

    if (tx < LUD_T) {
        for (int r = 0; r < LUD_T; r++)
            a[(off + r) * n + base + t] = u[r][t];
    } else {
        for (int r = 0; r < LUD_T; r++)
            a[(base + r) * n + off + t] = l[r][t];
    }
}

extern "C" __global__ void lud_internal(float *a, int n, int off)
{
    __shared__ float l[LUD_T][LUD_T];
    __shared__ float u[LUD_T][LUD_T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = off + LUD_T * (blockIdx.y + 1) + ty;
    int col = off + LUD_T * (blockIdx.x + 1) + tx;

    l[ty][tx] = a[row * n + off + tx];
    u[ty][tx] = a[(off + ty) * n + col];
    __syncthreads();
    float sum = 0.0f;
    for (int k = 0; k < LUD_T; k++)
        sum = fmaf(l[ty][k], u[k][tx], sum);
    a[row * n + col] -= sum;
}
