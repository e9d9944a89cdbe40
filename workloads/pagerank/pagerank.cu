// pagerank.cu - Pannotia-style PageRank iterations over a graph whose
// in-edges are in CSR form: each node's contribution (rank / out-degree),
// then each node's new rank pulled from its in-neighbours' contributions.
// The graph is read-only and re-read by every launch.
extern "C" __global__ void pr_contrib(int n, const float *rank, const int *outdeg, float *contrib)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n)
        contrib[v] = rank[v] / (float)outdeg[v];
}

extern "C" __global__ void pr_rank(int n, const int *row, const int *col, const float *contrib,
                                   float *rank)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n) {
        float s = 0.0f;
        for (int k = row[v]; k < row[v + 1]; k++)
            s += contrib[col[k]];
        rank[v] = 0.15f / (float)n + 0.85f * s;
    }
}
