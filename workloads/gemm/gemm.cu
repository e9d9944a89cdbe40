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

// gemm_hoisted - the same products in the same order, with each group of four
// iterations' loads of a and b issued before their four multiply-adds (variant
// "hoisted"). nvcc keeps gemm's loads in source order, one iteration's a and b
// and then its multiply-add, so a warp has one iteration's loads in flight when
// it stalls on that multiply-add; here it has four iterations' (eight loads).
// The stores of c stay one per iteration: each is followed by a compiler
// barrier, so nvcc neither merges nor sinks them. Valid since a and b do not
// alias c (the host allocates them apart); nk is a multiple of 4 at every size,
// and the tail loop covers any other.
extern "C" __global__ void gemm_hoisted(int ni, int nj, int nk, float alpha, float beta,
                                        const float *a, const float *b, float *c)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < ni && j < nj) {
        float *cij = &c[i * nj + j];
        float acc = *cij * beta;
        *cij = acc;
        int k = 0;
        for (; k + 4 <= nk; k += 4) {
            float a0 = a[i * nk + k], b0 = b[k * nj + j];
            float a1 = a[i * nk + k + 1], b1 = b[(k + 1) * nj + j];
            float a2 = a[i * nk + k + 2], b2 = b[(k + 2) * nj + j];
            float a3 = a[i * nk + k + 3], b3 = b[(k + 3) * nj + j];
            asm volatile("" ::: "memory");
            acc = fmaf(alpha * a0, b0, acc);
            *cij = acc;
            asm volatile("" ::: "memory");
            acc = fmaf(alpha * a1, b1, acc);
            *cij = acc;
            asm volatile("" ::: "memory");
            acc = fmaf(alpha * a2, b2, acc);
            *cij = acc;
            asm volatile("" ::: "memory");
            acc = fmaf(alpha * a3, b3, acc);
            *cij = acc;
            asm volatile("" ::: "memory");
        }
        for (; k < nk; k++) {
            acc = fmaf(alpha * a[i * nk + k], b[k * nj + j], acc);
            *cij = acc;
            asm volatile("" ::: "memory");
        }
    }
}
