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
