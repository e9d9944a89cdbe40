// kmn.cu - validation host of kmn: gpucoh's kmn kernels (the same source, hence
// the same PTX) for its driver workloads/kmn/kmn.c, run through cuda_host.c.
#include "../../workloads/kmn/kmn.cu"
#include "cuda_host.h"

VH_KERNELS(VH_KERNEL(kmn_invert), VH_KERNEL(kmn_assign));
VH_WORKLOAD(kmn)
