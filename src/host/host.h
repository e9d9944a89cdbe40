/*
 * host.h - the host API: what a CUDA host program does, against the
 * simulated GPU.
 *
 * Device memory lives in a simulated address space; copies and memsets go
 * through the memory hierarchy's rules at kernel boundaries (the machine is
 * idle between kernels: a copy writes the L2/backing store and the protocol's
 * kernel-begin action keeps L1s from serving stale data). Launches run one
 * kernel to completion with an implicit acquire at its start and release at
 * its end (sequential kernels, one stream). Timing and functional modes share
 * this API.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef HOST_HOST_H
#define HOST_HOST_H

#include "base/types.h"

struct host; /* a simulated GPU (or machine) as the host program sees it */
struct ptx_module;

struct dim3 {
    uint32_t x, y, z;
};
#define DIM3(x_, y_, z_) ((struct dim3){(x_), (y_), (z_)})
#define DIM1(x_)         ((struct dim3){(x_), 1, 1})

enum karg_kind { KARG_U32, KARG_U64, KARG_F32, KARG_F64 };
struct karg {
    enum karg_kind kind;
    union {
        uint32_t u32;
        uint64_t u64;
        float f32;
        double f64;
    } v;
};
#define KARG_PTR(a) ((struct karg){KARG_U64, {.u64 = (a)}})
#define KARG_I32(a) ((struct karg){KARG_U32, {.u32 = (uint32_t)(a)}})
#define KARG_U32(a) ((struct karg){KARG_U32, {.u32 = (a)}})
#define KARG_U64(a) ((struct karg){KARG_U64, {.u64 = (a)}})
#define KARG_F32(a) ((struct karg){KARG_F32, {.f32 = (a)}})
#define KARG_F64(a) ((struct karg){KARG_F64, {.f64 = (a)}})

/* Device memory. Allocations are 256-byte aligned; 0 is never returned. */
addr_t host_malloc(struct host *h, size_t bytes);
void host_free(struct host *h, addr_t a);
void host_memcpy_to_dev(struct host *h, addr_t dst, const void *src, size_t n);
void host_memcpy_from_dev(struct host *h, void *dst, addr_t src, size_t n);
void host_memset(struct host *h, addr_t dst, uint8_t value, size_t n);

/* Parse PTX text (file name for messages) and make its kernels launchable;
 * its __device__ (.global) variables get device memory holding their
 * initialisers (zeros elsewhere). A malformed module is a fatal input error
 * (file:line, exit 2). */
void host_load_ptx(struct host *h, const char *text, const char *filename);

/* Write n bytes at byte `offset` of the loaded PTX's __constant__ (.const)
 * or __device__ (.global) variable `symbol` (CUDA's cudaMemcpyToSymbol). An
 * unknown symbol, one two modules declare, or bytes past its end are fatal
 * input errors. */
void host_memcpy_to_symbol(struct host *h, const char *symbol, size_t offset, const void *src,
                           size_t n);

/* Read n bytes at byte `offset` of a __constant__ or __device__ variable
 * (cudaMemcpyFromSymbol; errors as host_memcpy_to_symbol). */
void host_memcpy_from_symbol(struct host *h, const char *symbol, size_t offset, void *dst,
                             size_t n);

/* The device address and size of __device__ (.global) variable `symbol`
 * (cudaGetSymbolAddress); false if no loaded module declares one. */
bool host_global_symbol(struct host *h, const char *symbol, addr_t *addr, size_t *bytes);

/* Device printf: the calls of each launch are printed on stdout, in the
 * order they ran, when it has completed. The FIFO holding them takes `bytes`
 * (CUDA's cudaLimitPrintfFifoSize; 1 MiB by default); calls past it are
 * dropped and counted on stderr. */
void host_set_printf_fifo(struct host *h, uint64_t bytes);
uint64_t host_printf_fifo(const struct host *h);

/* Launch a kernel of a loaded module and run it to completion. A missing
 * kernel, a wrong argument count, or a kernel that reads a __constant__
 * variable nobody gave contents (no initialiser in the PTX, never written by
 * host_memcpy_to_symbol) is a fatal input error. */
void host_launch(struct host *h, const char *kernel, struct dim3 grid, struct dim3 block,
                 uint32_t dyn_shmem_bytes, const struct karg *args, unsigned n_args);

/* host_launch with the arguments as CUDA's runtime receives them: args[i]
 * points to parameter i, whose size and place in the parameter buffer come
 * from the kernel's PTX signature (cudaLaunchKernel). A missing kernel is
 * fatal, as for host_launch. */
void host_launch_args(struct host *h, const char *kernel, struct dim3 grid, struct dim3 block,
                      uint32_t dyn_shmem_bytes, void *const *args);

/* Where a launch runs: the GPU's SMs, or the CPU cores (cpu.cores in the
 * configuration; one thread per core, so the block is one thread and the
 * grid counts the threads). */
enum host_device { HOST_GPU, HOST_CPU };

/* Launch on `dev`; with `together`, the launch only waits (its arguments
 * packed and checked now) and starts with the next launch that is not
 * together, and that call returns when all of them have finished: a CPU
 * launch and a GPU launch that run at the same time and synchronise through
 * memory. A launcher that runs one kernel at a time (the functional mode)
 * refuses a group (fatal); two launches of one group on one device too. */
void host_launch_on(struct host *h, enum host_device dev, bool together, const char *kernel,
                    struct dim3 grid, struct dim3 block, uint32_t dyn_shmem_bytes,
                    const struct karg *args, unsigned n_args);

/* The CPU cores a launch on the CPU runs on (cpu.cores; 0: none, or a
 * launcher without them): a driver whose CPU threads wait for each other
 * launches at most that many. */
unsigned host_cpu_cores(const struct host *h);

/* Simulated cycles so far (core clock), for drivers that report phases. */
uint64_t host_cycles(const struct host *h);

#endif
