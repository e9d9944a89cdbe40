// cc.cu - validation host of cc: gpucoh's cc kernels (the same source, hence
// the same PTX) for its driver workloads/cc/cc.c, run through cuda_host.c.
#include "../../workloads/cc/cc.cu"
#include "cuda_host.h"

VH_KERNELS(VH_KERNEL(cc_run), VH_KERNEL(cc_run_nofence));
VH_WORKLOAD(cc)
