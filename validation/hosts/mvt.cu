// mvt.cu - validation host of mvt: gpucoh's mvt kernels (the same source, hence
// the same PTX) for its driver workloads/mvt/mvt.c, run through cuda_host.c.
#include "../../workloads/mvt/mvt.cu"
#include "cuda_host.h"

VH_KERNELS(VH_KERNEL(mvt_kernel1), VH_KERNEL(mvt_kernel2));
VH_WORKLOAD(mvt)
