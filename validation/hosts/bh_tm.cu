// bh_tm.cu - validation host of bh_tm: gpucoh's bh_tm kernels (the same source, hence
// the same PTX) for its driver workloads/bh_tm/bh_tm.c, run through cuda_host.c.
// The lock variant is the one compared (the transactional one's markers are
// empty calls outside gpucoh: include/gpucoh_tx.cuh).
#include "../../workloads/bh_tm/bh_tm.cu"
#include "cuda_host.h"

VH_KERNELS(VH_KERNEL(bh_tx), VH_KERNEL(bh_lock));
VH_WORKLOAD(bh_tm)
