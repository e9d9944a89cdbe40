// lps.cu - validation host of lps: gpucoh's lps kernels (the same source, hence
// the same PTX) for its driver workloads/lps/lps.c, run through cuda_host.c.
#include "../../workloads/lps/lps.cu"
#include "cuda_host.h"

VH_KERNELS(VH_KERNEL(lps_sweep));
VH_WORKLOAD(lps)
