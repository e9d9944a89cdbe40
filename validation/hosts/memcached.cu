// memcached.cu - validation host of memcached: gpucoh's memcached kernels (the same source, hence
// the same PTX) for its driver workloads/memcached/memcached.c, run through cuda_host.c.
#include "../../workloads/memcached/memcached.cu"
#include "cuda_host.h"

VH_KERNELS(VH_KERNEL(mc_get));
VH_WORKLOAD(memcached)
