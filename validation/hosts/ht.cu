// ht.cu - validation host of ht: gpucoh's ht kernels (the same source, hence
// the same PTX) for its driver workloads/ht/ht.c, run through cuda_host.c.
// The lock variant is the one compared (the transactional one's markers are
// empty calls outside gpucoh: include/gpucoh_tx.cuh).
#include "../../workloads/ht/ht.cu"
#include "cuda_host.h"

VH_KERNELS(VH_KERNEL(ht_tx), VH_KERNEL(ht_lock));
VH_WORKLOAD(ht)
