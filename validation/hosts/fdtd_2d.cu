// fdtd_2d.cu - validation host of fdtd_2d: gpucoh's fdtd_2d kernels (the same source, hence
// the same PTX) for its driver workloads/fdtd_2d/fdtd_2d.c, run through cuda_host.c.
#include "../../workloads/fdtd_2d/fdtd_2d.cu"
#include "cuda_host.h"

VH_KERNELS(VH_KERNEL(fdtd_step1), VH_KERNEL(fdtd_step2), VH_KERNEL(fdtd_step3));
VH_WORKLOAD(fdtd_2d)
