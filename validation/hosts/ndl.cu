// ndl.cu - validation host of ndl: gpucoh's ndl kernels (the same source, hence
// the same PTX) for its driver workloads/ndl/ndl.c, run through cuda_host.c.
#include "../../workloads/ndl/ndl.cu"
#include "cuda_host.h"

VH_KERNELS(VH_KERNEL(ndl_tile));
VH_WORKLOAD(ndl)
