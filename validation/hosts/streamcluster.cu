// streamcluster.cu - validation host of streamcluster: gpucoh's streamcluster kernels (the same source, hence
// the same PTX) for its driver workloads/streamcluster/streamcluster.c, run through cuda_host.c.
#include "../../workloads/streamcluster/streamcluster.cu"
#include "cuda_host.h"

VH_KERNELS(VH_KERNEL(pgain));
VH_WORKLOAD(streamcluster)
