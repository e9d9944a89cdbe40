// lud.cu - validation host of lud: gpucoh's lud kernels (the same source, hence
// the same PTX) for its driver workloads/lud/lud.c, run through cuda_host.c.
#include "../../workloads/lud/lud.cu"
#include "cuda_host.h"

VH_KERNELS(VH_KERNEL(lud_diag), VH_KERNEL(lud_perim), VH_KERNEL(lud_internal));
VH_WORKLOAD(lud)
