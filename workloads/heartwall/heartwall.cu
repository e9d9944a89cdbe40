// heartwall.cu - the tracking step of Rodinia's heartwall, reduced to its
// memory pattern: one thread block per tracked point, one thread per
// candidate displacement in a (2r+1) x (2r+1) search window. For each row of
// the point's template (read from global memory by the block) the thread
// adds the row's sum of absolute differences against the frame (windows of
// neighbouring points overlap) to its entry of the block's partial-result
// array in global memory (a non-streaming read-modify-write per row). Thread
// 0 then picks the best displacement (lowest sum, first in row-major order)
// and moves the point; the next frame's launch reads the moved points.
extern "C" __global__ void track(const unsigned char *frame, int width, int height,
                                 const unsigned char *templ, int tsize, int radius,
                                 int *px, int *py, unsigned *sad)
{
    int p = blockIdx.x;
    int side = 2 * radius + 1;
    int nd = side * side;
    int d = threadIdx.x;
    unsigned *mine = sad + p * nd;
    int x0 = px[p], y0 = py[p];
    if (d < nd) {
        int dx = d % side - radius, dy = d / side - radius;
        mine[d] = 0;
        for (int ty = 0; ty < tsize; ty++) {
            unsigned row = 0;
            int fy = y0 + dy + ty;
            for (int tx = 0; tx < tsize; tx++) {
                int fx = x0 + dx + tx;
                int f = frame[fy * width + fx];
                int t = templ[(p * tsize + ty) * tsize + tx];
                row += f > t ? f - t : t - f;
            }
            mine[d] += row;
        }
    }
    __syncthreads();
    if (d == 0) {
        int best = 0;
        for (int k = 1; k < nd; k++)
            if (mine[k] < mine[best])
                best = k;
        px[p] = x0 + best % side - radius;
        py[p] = y0 + best / side - radius;
    }
}
