// btree.cu - validation host of btree: gpucoh's btree kernels (the same source, hence
// the same PTX) for its driver workloads/btree/btree.c, run through cuda_host.c.
#include "../../workloads/btree/btree.cu"
#include "cuda_host.h"

VH_KERNELS(VH_KERNEL(findK));
VH_WORKLOAD(btree)
