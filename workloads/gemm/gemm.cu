// gemm.cu - C = alpha * A * B + beta * C over floats (Polybench-GPU gemm):
// one thread per element of C, which it scales by beta and then accumulates
// into, in memory, once per k (a, b and c may alias, so nvcc keeps every
// load and store of c). Thread (x, y) of the grid owns c[y][x]: the loads of
// b are coalesced across a warp, those of a broadcast.
extern "C" __global__ void gemm(int ni, int nj, int nk, float alpha, float beta, const float *a,
                                const float *b, float *c)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < ni && j < nj) {
        c[i * nj + j] *= beta;
        for (int k = 0; k < nk; k++)
            c[i * nj + j] += alpha * a[i * nk + k] * b[k * nj + j];
    }
}
