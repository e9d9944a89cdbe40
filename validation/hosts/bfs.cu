// bfs.cu - validation host of bfs: gpucoh's bfs kernels (the same source, hence
// the same PTX) for its driver workloads/bfs/bfs.c, run through cuda_host.c.
#include "../../workloads/bfs/bfs.cu"
#include "cuda_host.h"

VH_KERNELS(VH_KERNEL(bfs_expand), VH_KERNEL(bfs_update));
VH_WORKLOAD(bfs)
