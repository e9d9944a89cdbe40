// fw.cu - one step k of Floyd-Warshall over an n x n distance matrix, in
// place: d[i][j] = min(d[i][j], d[i][k] + d[k][j]). Row and column k do not
// change in step k, so updating in place is race-free. One kernel per k
// (Pannotia's fw): coarse-grain read-write sharing of one matrix.
extern "C" __global__ void fw_step(int n, int k, int *d)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
    if (j < n) {
        int via = d[i * n + k] + d[k * n + j];
        if (via < d[i * n + j])
            d[i * n + j] = via;
    }
}
