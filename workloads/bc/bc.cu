// bc.cu - Brandes betweenness centrality (Pannotia's bc shape) for spec 000:
// level-synchronous BFS kernels from each source counting shortest paths
// (atomics on shared distance and path-count arrays), then backward kernels
// accumulating dependencies level by level. The CSR graph is read-only and
// re-read by every launch.
extern "C" __global__ void bc_init(int n, int src, int *dist, unsigned *sigma, float *delta)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n) {
        dist[v] = v == src ? 0 : -1;
        sigma[v] = v == src ? 1u : 0u;
        delta[v] = 0.0f;
    }
}

extern "C" __global__ void bc_forward(int n, int level, const int *row, const int *col, int *dist,
                                      unsigned *sigma, int *more)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n && dist[v] == level) {
        for (int k = row[v]; k < row[v + 1]; k++) {
            int w = col[k];
            int old = atomicCAS(&dist[w], -1, level + 1);
            if (old == -1)
                *more = 1;
            if (old == -1 || old == level + 1)
                atomicAdd(&sigma[w], sigma[v]);
        }
    }
}

extern "C" __global__ void bc_backward(int n, int level, int src, const int *row, const int *col,
                                       const int *dist, const unsigned *sigma, float *delta,
                                       float *bc)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n && dist[v] == level) {
        float d = 0.0f;
        for (int k = row[v]; k < row[v + 1]; k++) {
            int w = col[k];
            if (dist[w] == level + 1)
                d += (float)sigma[v] / (float)sigma[w] * (1.0f + delta[w]);
        }
        delta[v] = d;
        if (v != src)
            bc[v] += d;
    }
}
