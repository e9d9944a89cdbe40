// bh.cu - validation host of bh: gpucoh's bh kernels (the same source, hence
// the same PTX) for its driver workloads/bh/bh.c, run through cuda_host.c.
#include "../../workloads/bh/bh.cu"
#include "cuda_host.h"

VH_KERNELS(VH_KERNEL(bh_build), VH_KERNEL(bh_build_nofence), VH_KERNEL(bh_summarize),
           VH_KERNEL(bh_summarize_nofence), VH_KERNEL(bh_force));
VH_WORKLOAD(bh)
