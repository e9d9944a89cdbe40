// ap.cu - validation host of ap: gpucoh's ap kernels (the same source, hence
// the same PTX) for its driver workloads/ap/ap.c, run through cuda_host.c.
// The lock variant is the one compared (the transactional one's markers are
// empty calls outside gpucoh: include/gpucoh_tx.cuh).
#include "../../workloads/ap/ap.cu"
#include "cuda_host.h"

VH_KERNELS(VH_KERNEL(ap_tx), VH_KERNEL(ap_lock));
VH_WORKLOAD(ap)
