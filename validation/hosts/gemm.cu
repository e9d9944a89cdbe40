// gemm.cu - validation host of gemm: gpucoh's gemm kernels (the same source, hence
// the same PTX) for its driver workloads/gemm/gemm.c, run through cuda_host.c.
#include "../../workloads/gemm/gemm.cu"
#include "cuda_host.h"

VH_KERNELS(VH_KERNEL(gemm));
VH_WORKLOAD(gemm)
