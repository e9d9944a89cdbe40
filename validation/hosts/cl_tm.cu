// cl_tm.cu - validation host of cl_tm: gpucoh's cl_tm kernels (the same source, hence
// the same PTX) for its driver workloads/cl_tm/cl_tm.c, run through cuda_host.c.
// The lock variant is the one compared (the transactional one's markers are
// empty calls outside gpucoh: include/gpucoh_tx.cuh).
#include "../../workloads/cl_tm/cl_tm.cu"
#include "cuda_host.h"

VH_KERNELS(VH_KERNEL(cl_tx), VH_KERNEL(clto_tx), VH_KERNEL(cl_lock), VH_KERNEL(clto_lock));
VH_WORKLOAD(cl_tm)
