// three_mm.cu - 3mm (Polybench-GPU): E = A * B, F = C * D, G = E * F over
// n x n floats, three launches of one kernel, one thread per output element
// in 32 x 8 thread blocks. As in Polybench-GPU each thread zeroes its
// element and accumulates into it in memory once per k (the operands may
// alias, so nvcc keeps every load and store of the output).
extern "C" __global__ void mm3_kernel(int ni, int nj, int nk, const float *a, const float *b,
                                      float *c)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < ni && j < nj) {
        c[i * nj + j] = 0;
        for (int k = 0; k < nk; k++)
            c[i * nj + j] += a[i * nk + k] * b[k * nj + j];
    }
}

// mm3_kernel_hoisted - the same products in the same order, with each group
// of four iterations' loads of a and b issued before their four multiply-adds
// (variant "hoisted", as gemm's: an ablation of the instruction order). The
// stores of c stay one per iteration, each followed by a compiler barrier so
// that nvcc neither merges nor sinks them. Valid since a and b do not alias c
// (the host allocates every matrix apart); the tail loop covers an nk that is
// not a multiple of 4.
extern "C" __global__ void mm3_kernel_hoisted(int ni, int nj, int nk, const float *a,
                                              const float *b, float *c)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < ni && j < nj) {
        float *cij = &c[i * nj + j];
        float acc = 0;
        *cij = acc;
        int k = 0;
        for (; k + 4 <= nk; k += 4) {
            float a0 = a[i * nk + k], b0 = b[k * nj + j];
            float a1 = a[i * nk + k + 1], b1 = b[(k + 1) * nj + j];
            float a2 = a[i * nk + k + 2], b2 = b[(k + 2) * nj + j];
            float a3 = a[i * nk + k + 3], b3 = b[(k + 3) * nj + j];
            asm volatile("" ::: "memory");
            acc = fmaf(a0, b0, acc);
            *cij = acc;
            asm volatile("" ::: "memory");
            acc = fmaf(a1, b1, acc);
            *cij = acc;
            asm volatile("" ::: "memory");
            acc = fmaf(a2, b2, acc);
            *cij = acc;
            asm volatile("" ::: "memory");
            acc = fmaf(a3, b3, acc);
            *cij = acc;
            asm volatile("" ::: "memory");
        }
        for (; k < nk; k++) {
            acc = fmaf(a[i * nk + k], b[k * nj + j], acc);
            *cij = acc;
            asm volatile("" ::: "memory");
        }
    }
}
