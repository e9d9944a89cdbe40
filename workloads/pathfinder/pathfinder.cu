// pathfinder.cu - one row of Rodinia's pathfinder dynamic program:
// dst[x] = cost[x] + min(src[x - 1], src[x], src[x + 1]) (clamped at the
// edges). The host launches one kernel per row, each reading the row the
// previous launch wrote: a wavefront whose values cross GPM and GPU
// boundaries at the edges of every GPM's share of the columns (Table 5.3's DP
// wavefront class: pathfinder, nw).
//
// Launch: block 256, grid ceil(cols / 256).
extern "C" __global__ void pathfinder_row(const int *cost, const int *src, int *dst, int cols)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= cols)
        return;
    int m = src[x];
    if (x > 0 && src[x - 1] < m)
        m = src[x - 1];
    if (x < cols - 1 && src[x + 1] < m)
        m = src[x + 1];
    dst[x] = cost[x] + m;
}
