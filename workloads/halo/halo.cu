// halo.cu - a two-level multigrid-shaped integer relaxation on an N x N grid
// (N even) with fixed boundary cells. Each V-cycle is five dependent kernels:
// smooth the fine grid twice, restrict it to the N/2 coarse grid, smooth the
// coarse grid, prolong the coarse grid back into the fine one. Rows are
// partitioned over CTAs (16 x 16 tiles, row-major CTA ids), so contiguous
// scheduling gives each GPM a band of rows and the halo rows at every band's
// edge are read by the neighbouring GPM or GPU (Table 5.3's stencil and
// multigrid class).
//
// Launch: block (16, 16), grid (ceil(n / 16), ceil(n / 16)) for a grid of side n.

// Jacobi step: interior cells take (4c + n + s + e + w + 4) >> 3.
extern "C" __global__ void halo_smooth(const int *src, int *dst, int n)
{
    int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
    if (x >= n || y >= n)
        return;
    int i = y * n + x;
    if (x == 0 || y == 0 || x == n - 1 || y == n - 1) {
        dst[i] = src[i];
        return;
    }
    dst[i] = (4 * src[i] + src[i - n] + src[i + n] + src[i - 1] + src[i + 1] + 4) >> 3;
}

// Coarse cell (x, y) of side n/2: the rounded mean of its 2 x 2 fine cells.
extern "C" __global__ void halo_restrict(const int *fine, int *coarse, int n)
{
    int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y, m = n / 2;
    if (x >= m || y >= m)
        return;
    const int *f = fine + 2 * y * n + 2 * x;
    coarse[y * m + x] = (f[0] + f[1] + f[n] + f[n + 1] + 2) >> 2;
}

// Interior fine cells move halfway towards their coarse cell.
extern "C" __global__ void halo_prolong(const int *coarse, int *fine, int n)
{
    int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
    if (x <= 0 || y <= 0 || x >= n - 1 || y >= n - 1)
        return;
    int i = y * n + x;
    fine[i] = (fine[i] + coarse[(y / 2) * (n / 2) + x / 2]) >> 1;
}
