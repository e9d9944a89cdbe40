// atm.cu - validation host of atm: gpucoh's atm kernels (the same source, hence
// the same PTX) for its driver workloads/atm/atm.c, run through cuda_host.c.
// The lock variant is the one compared (the transactional one's markers are
// empty calls outside gpucoh: include/gpucoh_tx.cuh).
#include "../../workloads/atm/atm.cu"
#include "cuda_host.h"

VH_KERNELS(VH_KERNEL(atm_tx), VH_KERNEL(atm_lock));
VH_WORKLOAD(atm)
