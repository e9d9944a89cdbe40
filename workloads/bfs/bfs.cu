/*
 * bfs.cu - BFS: level-synchronous breadth-first search with a shared
 * frontier mask, in the shape of the GPGPU-Sim ISPASS'09 / Rodinia BFS.
 *
 * Stands for BFS of the RCC thesis (Ren 2020, Table 3.4). Each level is two
 * kernels: bfs_expand lets every frontier node (mask set) write cost and set
 * the `updating` byte of each unvisited neighbour; bfs_update turns updating
 * into the next frontier and raises `over`. Threads of every CTA write bytes
 * of the same mask/updating/cost lines at random indices (false sharing at
 * line granularity); the kernel boundary separates levels. Several frontier
 * nodes may write the same neighbour's cost: they all write the same value
 * (level + 1), as in the original code.
 * SPDX-License-Identifier: BSD-3-Clause
 */

extern "C" __global__ void bfs_expand(const unsigned *row, const unsigned *col,
                                      unsigned char *mask, unsigned char *updating,
                                      const unsigned char *visited, int *cost, unsigned n)
{
    unsigned u = blockIdx.x * blockDim.x + threadIdx.x;
    if (u < n && mask[u]) {
        mask[u] = 0;
        int next = cost[u] + 1;
        for (unsigned e = row[u]; e < row[u + 1]; e++) {
            unsigned v = col[e];
            if (!visited[v]) {
                cost[v] = next;
                updating[v] = 1;
            }
        }
    }
}

extern "C" __global__ void bfs_update(unsigned char *mask, unsigned char *updating,
                                      unsigned char *visited, unsigned *over, unsigned n)
{
    unsigned u = blockIdx.x * blockDim.x + threadIdx.x;
    if (u < n && updating[u]) {
        mask[u] = 1;
        visited[u] = 1;
        *over = 1;
        updating[u] = 0;
    }
}
