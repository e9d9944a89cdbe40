// cl.cu - validation host of cl: gpucoh's cl kernels (the same source, hence
// the same PTX) for its driver workloads/cl/cl.c, run through cuda_host.c.
#include "../../workloads/cl/cl.cu"
#include "cuda_host.h"

VH_KERNELS(VH_KERNEL(cl_solve), VH_KERNEL(cl_solve_nofence));
VH_WORKLOAD(cl)
