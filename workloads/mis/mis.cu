// mis.cu - Luby's maximal independent set (Pannotia's mis shape) over an
// undirected CSR graph (read-only): per round, an undecided node is selected
// when its random value is the smallest among its undecided neighbours;
// then selected nodes join the set and their undecided neighbours leave.
// status: 0 undecided, 1 in the set, 2 out.
extern "C" __global__ void mis_select(int n, const int *row, const int *col, const int *rnd,
                                      const int *status, int *sel)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n && status[v] == 0) {
        int best = 1;
        for (int k = row[v]; k < row[v + 1]; k++) {
            int w = col[k];
            if (status[w] == 0 && rnd[w] < rnd[v])
                best = 0;
        }
        sel[v] = best;
    }
}

extern "C" __global__ void mis_update(int n, const int *row, const int *col, const int *sel,
                                      int *status, int *more)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n && status[v] == 0) {
        if (sel[v]) {
            status[v] = 1;
            return;
        }
        for (int k = row[v]; k < row[v + 1]; k++)
            if (sel[col[k]]) {
                status[v] = 2;
                return;
            }
        *more = 1;
    }
}
