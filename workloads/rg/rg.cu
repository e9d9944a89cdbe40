// rg.cu - separable Gaussian filter as two kernels (stands for the CUDA
// SDK Gaussian sample of the Temporal Coherence study).
//
// rg_rows filters along x into a temporary image; rg_cols filters that
// image along y. Each thread produces one output pixel from 2R+1 inputs that
// it reads straight from global memory, so neighbouring threads and warps
// re-read the same lines (read reuse through the L1), every thread reads the
// small weight array, and the outputs are write-once. The second kernel
// reads what the first wrote: the inter-kernel communication of the study.
// Image borders are clamped.

extern "C" __global__ void rg_rows(const float *in, float *out, const float *w, int width,
                                   int height, int radius)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height)
        return;
    float acc = 0.0f;
    for (int k = -radius; k <= radius; k++) {
        int xx = min(max(x + k, 0), width - 1);
        acc = fmaf(w[k + radius], in[y * width + xx], acc);
    }
    out[y * width + x] = acc;
}

extern "C" __global__ void rg_cols(const float *in, float *out, const float *w, int width,
                                   int height, int radius)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height)
        return;
    float acc = 0.0f;
    for (int k = -radius; k <= radius; k++) {
        int yy = min(max(y + k, 0), height - 1);
        acc = fmaf(w[k + radius], in[yy * width + x], acc);
    }
    out[y * width + x] = acc;
}
