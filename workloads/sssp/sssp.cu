// sssp.cu - one Bellman-Ford relaxation round of single-source shortest
// paths over a CSR graph: every node marked active relaxes its edges with
// system-scope atomicMin on the neighbours' distances and marks a neighbour it
// improved active for the next round. The host launches rounds until one
// changes nothing: many dependent kernels with irregular, fine-grained
// read-write sharing of the distance and frontier arrays across all GPUs
// (Table 5.3's graph class: bfs/mst on road networks). The atomics are .sys
// because threads on different GPUs update the same words.
//
// Launch: block 256, grid ceil(n / 256).
extern "C" __global__ void sssp_relax(const int *row, const int *col, const int *wgt, int *dist,
                                      const int *active, int *next, int *changed, int n)
{
    int u = blockIdx.x * blockDim.x + threadIdx.x;
    if (u >= n || !active[u])
        return;
    int du = dist[u];
    for (int e = row[u]; e < row[u + 1]; e++) {
        int v = col[e], nd = du + wgt[e];
        if (nd < atomicMin_system(&dist[v], nd)) {
            next[v] = 1;
            *changed = 1;
        }
    }
}

// Variant flag-once (an ablation of the flag, not the thesis's kernel): each
// thread sets `changed` once, after its edges, instead of on every distance
// it improves, so the flag's line takes one store per improving thread.
extern "C" __global__ void sssp_relax_flag_once(const int *row, const int *col, const int *wgt,
                                                int *dist, const int *active, int *next,
                                                int *changed, int n)
{
    int u = blockIdx.x * blockDim.x + threadIdx.x;
    if (u >= n || !active[u])
        return;
    int du = dist[u], improved = 0;
    for (int e = row[u]; e < row[u + 1]; e++) {
        int v = col[e], nd = du + wgt[e];
        if (nd < atomicMin_system(&dist[v], nd)) {
            next[v] = 1;
            improved = 1;
        }
    }
    if (improved)
        *changed = 1;
}

// The next round's frontier becomes this one's; the old one is cleared.
extern "C" __global__ void sssp_swap(int *active, int *next, int n)
{
    int u = blockIdx.x * blockDim.x + threadIdx.x;
    if (u >= n)
        return;
    active[u] = next[u];
    next[u] = 0;
}
