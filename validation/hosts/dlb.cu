// dlb.cu - validation host of dlb: gpucoh's dlb kernels (the same source, hence
// the same PTX) for its driver workloads/dlb/dlb.c, run through cuda_host.c.
#include "../../workloads/dlb/dlb.cu"
#include "cuda_host.h"

VH_KERNELS(VH_KERNEL(dlb_run), VH_KERNEL(dlb_run_nofence));
VH_WORKLOAD(dlb)
