// rg.cu - validation host of rg: gpucoh's rg kernels (the same source, hence
// the same PTX) for its driver workloads/rg/rg.c, run through cuda_host.c.
#include "../../workloads/rg/rg.cu"
#include "cuda_host.h"

VH_KERNELS(VH_KERNEL(rg_rows), VH_KERNEL(rg_cols));
VH_WORKLOAD(rg)
