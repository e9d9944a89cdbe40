// lps.cu - 3D Laplace solver: one Jacobi sweep of the 7-point stencil per
// launch (after the 3D Laplace solver of the GPGPU-Sim ISPASS'09 set).
//
// A CTA covers a (blockDim.x x blockDim.y) column of the grid and marches up
// through z. For every plane it stages the tile plus a one-cell halo in
// shared memory (the halo is read by the neighbouring CTAs too); the z
// neighbours come from global memory and stay in registers as the march
// moves on. Boundary cells are copied; interior cells get the mean of their
// six neighbours. The output is write-once per launch; the host swaps the
// two arrays between launches.

#define LPS_MAX_BX 32
#define LPS_MAX_BY 8

extern "C" __global__ void lps_sweep(const float *u1, float *u2, int nx, int ny, int nz)
{
    __shared__ float tile[LPS_MAX_BY + 2][LPS_MAX_BX + 2];
    int tx = threadIdx.x, ty = threadIdx.y;
    int bx = blockDim.x, by = blockDim.y;
    int i = blockIdx.x * bx + tx;
    int j = blockIdx.y * by + ty;
    bool inside = i < nx && j < ny;
    long plane = (long)nx * ny;
    long idx = (long)j * nx + i;
    const float sixth = 1.0f / 6.0f;

    float below = 0.0f;
    float here = inside ? u1[idx] : 0.0f;
    for (int k = 0; k < nz; k++) {
        float above = (inside && k + 1 < nz) ? u1[idx + plane] : 0.0f;
        tile[ty + 1][tx + 1] = here;
        if (tx == 0 && i > 0 && j < ny)
            tile[ty + 1][0] = u1[idx - 1];
        if (tx == bx - 1 && i + 1 < nx && j < ny)
            tile[ty + 1][tx + 2] = u1[idx + 1];
        if (ty == 0 && j > 0 && i < nx)
            tile[0][tx + 1] = u1[idx - nx];
        if (ty == by - 1 && j + 1 < ny && i < nx)
            tile[ty + 2][tx + 1] = u1[idx + nx];
        __syncthreads();
        if (inside) {
            float out;
            if (i == 0 || i == nx - 1 || j == 0 || j == ny - 1 || k == 0 || k == nz - 1) {
                out = here;
            } else {
                float sum = tile[ty + 1][tx] + tile[ty + 1][tx + 2];
                sum = sum + tile[ty][tx + 1];
                sum = sum + tile[ty + 2][tx + 1];
                sum = sum + below;
                sum = sum + above;
                out = sum * sixth;
            }
            u2[idx] = out;
        }
        __syncthreads();
        below = here;
        here = above;
        idx += plane;
    }
}
