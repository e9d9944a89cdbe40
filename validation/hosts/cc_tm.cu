// cc_tm.cu - validation host of cc_tm: gpucoh's cc_tm kernels (the same source, hence
// the same PTX) for its driver workloads/cc_tm/cc_tm.c, run through cuda_host.c.
// The lock variant is the one compared (the transactional one's markers are
// empty calls outside gpucoh: include/gpucoh_tx.cuh).
#include "../../workloads/cc_tm/cc_tm.cu"
#include "cuda_host.h"

VH_KERNELS(VH_KERNEL(cc_tx), VH_KERNEL(cc_lock));
VH_WORKLOAD(cc_tm)
