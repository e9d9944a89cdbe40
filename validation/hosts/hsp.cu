// hsp.cu - validation host of hsp: gpucoh's hsp kernels (the same source, hence
// the same PTX) for its driver workloads/hsp/hsp.c, run through cuda_host.c.
#include "../../workloads/hsp/hsp.cu"
#include "cuda_host.h"

VH_KERNELS(VH_KERNEL(hsp_step));
VH_WORKLOAD(hsp)
