// color.cu - Pannotia-style graph colouring by independent sets: in round
// c, every uncoloured node whose random value exceeds those of all its
// uncoloured neighbours takes colour c. The CSR graph and random values are
// read-only; colours are read and written each round.
extern "C" __global__ void color_round(int n, int c, const int *row, const int *col,
                                       const int *rnd, int *color, int *more)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n && color[v] < 0) {
        int best = 1;
        for (int k = row[v]; k < row[v + 1]; k++) {
            int w = col[k], cw = color[w];
            if ((cw < 0 || cw == c) && rnd[w] > rnd[v])
                best = 0;
        }
        if (best)
            color[v] = c;
        else
            *more = 1;
    }
}
