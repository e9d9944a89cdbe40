// three_mm.cu - validation host of three_mm: gpucoh's three_mm kernels (the same source, hence
// the same PTX) for its driver workloads/three_mm/three_mm.c, run through cuda_host.c.
#include "../../workloads/three_mm/three_mm.cu"
#include "cuda_host.h"

VH_KERNELS(VH_KERNEL(mm3_kernel));
VH_WORKLOAD(three_mm)
