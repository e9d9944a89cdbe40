// fdtd_2d.cu - fdtd-2d (Polybench-GPU): 2-D finite-difference time domain,
// per time step three launches over nx x ny float grids, one thread per
// point in 32 x 8 blocks: ey from hz (row above), ex from hz (column to the
// left), then hz from ex and ey. Streaming loads with neighbour reuse one row
// or column away and streaming stores.
extern "C" __global__ void fdtd_step1(int nx, int ny, const float *fict, float *ey,
                                      const float *hz, int t)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < nx && j < ny) {
        if (i == 0)
            ey[i * ny + j] = fict[t];
        else
            ey[i * ny + j] = ey[i * ny + j] - 0.5f * (hz[i * ny + j] - hz[(i - 1) * ny + j]);
    }
}

extern "C" __global__ void fdtd_step2(int nx, int ny, float *ex, const float *hz)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < nx && j < ny && j > 0)
        ex[i * (ny + 1) + j] =
            ex[i * (ny + 1) + j] - 0.5f * (hz[i * ny + j] - hz[i * ny + (j - 1)]);
}

extern "C" __global__ void fdtd_step3(int nx, int ny, const float *ex, const float *ey,
                                      float *hz)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < nx && j < ny)
        hz[i * ny + j] = hz[i * ny + j] - 0.7f * (ex[i * (ny + 1) + (j + 1)] - ex[i * (ny + 1) + j] +
                                                  ey[(i + 1) * ny + j] - ey[i * ny + j]);
}
