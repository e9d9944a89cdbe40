// hsp.cu - HotSpot: iterative 2D thermal stencil with pyramid tiling
// (after Rodinia's hotspot). Each CTA loads a (bx x by) tile of temperature
// and power, runs `iters` time steps in shared memory (the valid region
// shrinks by one cell per step), and writes the inner tile once. Tiles of
// neighbouring CTAs overlap by 2*pyramid cells, so halo rows are read by
// several CTAs; the output is write-once per launch.
//
// Launch: block (bx, by), grid (ceil(cols/(bx-2p)), ceil(rows/(by-2p))),
// dynamic shared memory 3*bx*by floats.

extern "C" __global__ void hsp_step(const float *power, const float *src, float *dst,
                                    int cols, int rows, int pyramid, int iters,
                                    float sdc, float rx1, float ry1, float rz1, float amb)
{
    extern __shared__ float sh[];
    int bx = blockDim.x, by = blockDim.y;
    float *t_in = sh;
    float *t_out = sh + bx * by;
    float *pw = sh + 2 * bx * by;

    int tx = threadIdx.x, ty = threadIdx.y;
    int gx = blockIdx.x * (bx - 2 * pyramid) - pyramid + tx;
    int gy = blockIdx.y * (by - 2 * pyramid) - pyramid + ty;
    int me = ty * bx + tx;
    bool in_grid = gx >= 0 && gx < cols && gy >= 0 && gy < rows;

    if (in_grid) {
        t_in[me] = src[gy * cols + gx];
        pw[me] = power[gy * cols + gx];
    }
    __syncthreads();

    // Neighbours are clamped to the grid: a border cell uses itself.
    int n = gy > 0 ? me - bx : me;
    int s = gy < rows - 1 ? me + bx : me;
    int w = gx > 0 ? me - 1 : me;
    int e = gx < cols - 1 ? me + 1 : me;

    // Step i updates the cells at least i+1 from the tile edge; the output
    // region (at least `pyramid` from it) is updated by every step.
    for (int i = 0; i < iters; i++) {
        bool active =
            in_grid && tx >= i + 1 && tx <= bx - 2 - i && ty >= i + 1 && ty <= by - 2 - i;
        if (active) {
            float t = t_in[me];
            float vert = (t_in[n] + t_in[s]) - (t + t);
            float horz = (t_in[e] + t_in[w]) - (t + t);
            float d = fmaf(amb - t, rz1, fmaf(horz, rx1, fmaf(vert, ry1, pw[me])));
            t_out[me] = fmaf(sdc, d, t);
        }
        __syncthreads();
        if (i == iters - 1)
            break;
        if (active)
            t_in[me] = t_out[me];
        __syncthreads();
    }
    if (in_grid && tx >= pyramid && tx <= bx - 1 - pyramid && ty >= pyramid &&
        ty <= by - 1 - pyramid)
        dst[gy * cols + gx] = t_out[me];
}
