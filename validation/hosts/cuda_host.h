/*
 * cuda_host.h - what a validation host program declares besides its kernels.
 *
 * A validation host is gpucoh's own host driver (workloads/<wl>/<wl>.c: the
 * same input generation, launches and CPU check) linked against
 * cuda_host.c, which implements gpucoh's host API (src/host/host.h) with the
 * CUDA runtime: host_malloc is cudaMalloc, host_launch is cudaLaunchKernel.
 * The program's .cu file includes the workload's kernel source, so nvcc
 * embeds the same PTX gpucoh runs, and names its kernels with
 * VH_KERNELS; VH_WORKLOAD registers the driver for main.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef VALIDATION_CUDA_HOST_H
#define VALIDATION_CUDA_HOST_H

#ifdef __cplusplus
extern "C" {
#endif

/* A kernel by the name the driver launches it under. */
struct vh_kernel {
    const char *name;
    const void *func; /* the __global__ function, for cudaLaunchKernel */
};

/* The program's kernels, terminated by {NULL, NULL}. */
extern const struct vh_kernel vh_kernels[];

/* The CUDA runtime calls (cuda_rt.c; kept apart from gpucoh's headers, whose
 * struct dim3 is not CUDA's). A failing call prints the runtime's error and
 * exits 2. Addresses are device pointers as integers. */
unsigned long long vh_malloc(unsigned long long bytes);
void vh_free(unsigned long long dev);
void vh_copy_to_dev(unsigned long long dst, const void *src, unsigned long long n);
void vh_copy_from_dev(void *dst, unsigned long long src, unsigned long long n);
void vh_memset(unsigned long long dst, int value, unsigned long long n);
/* Launch func and wait for it; args[i] points at argument i's value. */
void vh_launch(const char *name, const void *func, const unsigned grid[3], const unsigned block[3],
               unsigned dyn_shmem_bytes, void **args);

#ifdef __cplusplus
}
#endif

/* One vh_kernels entry: the kernel under its own name. */
// clang-format off
#define VH_KERNEL(k) {#k, (const void *)(k)}
// clang-format on

/* The kernel table: VH_KERNELS(VH_KERNEL(a), VH_KERNEL(b)). */
#define VH_KERNELS(...) extern "C" const struct vh_kernel vh_kernels[] = {__VA_ARGS__, {0, 0}}

/* The driver wl_<wl> as the program's only registered workload. The PTX
 * text gpucoh embeds is empty here: the CUDA runtime (or GPGPU-Sim) takes
 * the PTX nvcc put in this binary. */
#define VH_WORKLOAD(wl)                                                                            \
    struct workload;                                                                               \
    extern "C" {                                                                                   \
    extern const struct workload wl_##wl;                                                          \
    extern const char wl_ptx_##wl[];                                                               \
    const char wl_ptx_##wl[] = "";                                                                 \
    extern const struct workload *const wl_registry[];                                             \
    const struct workload *const wl_registry[] = {&wl_##wl, 0};                                    \
    }

#endif
