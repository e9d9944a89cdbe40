// stn.cu - validation host of stn: gpucoh's stn kernels (the same source, hence
// the same PTX) for its driver workloads/stn/stn.c, run through cuda_host.c.
#include "../../workloads/stn/stn.cu"
#include "cuda_host.h"

VH_KERNELS(VH_KERNEL(stn_run), VH_KERNEL(stn_run_nofence));
VH_WORKLOAD(stn)
