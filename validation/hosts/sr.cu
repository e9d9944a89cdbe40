// sr.cu - validation host of sr: gpucoh's sr kernels (the same source, hence
// the same PTX) for its driver workloads/sr/sr.c, run through cuda_host.c.
#include "../../workloads/sr/sr.cu"
#include "cuda_host.h"

VH_KERNELS(VH_KERNEL(sr_coeff), VH_KERNEL(sr_update));
VH_WORKLOAD(sr)
