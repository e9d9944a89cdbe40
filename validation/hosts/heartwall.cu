// heartwall.cu - validation host of heartwall: gpucoh's heartwall kernels (the same source, hence
// the same PTX) for its driver workloads/heartwall/heartwall.c, run through cuda_host.c.
#include "../../workloads/heartwall/heartwall.cu"
#include "cuda_host.h"

VH_KERNELS(VH_KERNEL(track));
VH_WORKLOAD(heartwall)
