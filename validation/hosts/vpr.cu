// vpr.cu - validation host of vpr: gpucoh's vpr kernels (the same source, hence
// the same PTX) for its driver workloads/vpr/vpr.c, run through cuda_host.c.
#include "../../workloads/vpr/vpr.cu"
#include "cuda_host.h"

VH_KERNELS(VH_KERNEL(vpr_anneal), VH_KERNEL(vpr_anneal_nofence));
VH_WORKLOAD(vpr)
