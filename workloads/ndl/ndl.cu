// ndl.cu - Needleman-Wunsch global alignment score matrix (after Rodinia's
// nw).
//
// The (n+1) x (n+1) score matrix is cut into 16x16 tiles that are processed
// in anti-diagonal order of tiles: one launch per tile diagonal, one CTA of
// 16 threads per tile. A CTA reads its tile of the substitution-score matrix
// (streamed, read once), the row above and the column to the left of its
// tile (written by CTAs of the previous launch), computes the tile as an
// anti-diagonal wavefront in shared memory and writes it back once.

#define NDL_TILE 16

__device__ static int max3(int a, int b, int c)
{
    int m = a > b ? a : b;
    return m > c ? m : c;
}

extern "C" __global__ void ndl_tile(int *score, const int *ref, int cols, int penalty, int diag,
                                    int ntiles)
{
    __shared__ int s[NDL_TILE + 1][NDL_TILE + 1];
    __shared__ int r[NDL_TILE][NDL_TILE];
    int tx = threadIdx.x;
    int first = diag < ntiles ? 0 : diag - ntiles + 1;
    int tcol = first + blockIdx.x;
    int trow = diag - tcol;
    int row0 = trow * NDL_TILE, col0 = tcol * NDL_TILE;

    for (int y = 0; y < NDL_TILE; y++)
        r[y][tx] = ref[(row0 + 1 + y) * cols + col0 + 1 + tx];
    s[0][tx + 1] = score[row0 * cols + col0 + 1 + tx];
    s[tx + 1][0] = score[(row0 + 1 + tx) * cols + col0];
    if (tx == 0)
        s[0][0] = score[row0 * cols + col0];
    __syncthreads();

    for (int m = 0; m < 2 * NDL_TILE - 1; m++) {
        int y = m - tx;
        if (y >= 0 && y < NDL_TILE)
            s[y + 1][tx + 1] = max3(s[y][tx] + r[y][tx], s[y + 1][tx] - penalty,
                                    s[y][tx + 1] - penalty);
        __syncthreads();
    }

    for (int y = 0; y < NDL_TILE; y++)
        score[(row0 + 1 + y) * cols + col0 + 1 + tx] = s[y + 1][tx + 1];
}
