/*
 * launcher.h - what the host API needs from whatever runs kernels.
 *
 * Two implementations: the timing machine (src/system/) and the functional
 * mode (src/gpu/functional.c), which runs kernels without timing and reads
 * and writes the backing store directly. The host API, launch specs and
 * workloads are written once against this.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef HOST_LAUNCHER_H
#define HOST_LAUNCHER_H

#include "base/types.h"
#include "ptx/ptx.h"

struct launch {
    const struct ptx_kernel *kernel;
    struct ptx_dim3 grid, block;
    uint32_t dyn_shmem_bytes;
    const uint8_t *params;             /* the parameter buffer, kernel_info.param_bytes long */
    bool on_cpu;                       /* runs on the CPU cores (cpu.cores), one thread per core */
    struct ptx_printf_log *printf_log; /* the launch's device printf calls go here (the host
                                          prints them when it has run); NULL: dropped */
};

struct launcher_ops {
    /* Run one kernel to completion (implicit acquire at start, release at end). */
    void (*run_kernel)(void *obj, const struct launch *l);
    /* Copies while the machine is idle, following the protocol's rules. */
    void (*write)(void *obj, addr_t dst, const void *src, size_t n);
    void (*read)(void *obj, void *dst, addr_t src, size_t n);
    /* Simulated core cycles so far. */
    uint64_t (*cycles)(const void *obj);
    /* Run n kernels at the same time (at most one per device: the GPU and the
     * CPU cores), returning when all have finished; they may synchronise
     * through memory. NULL: the launcher runs one kernel at a time. */
    void (*run_together)(void *obj, const struct launch *l, unsigned n);
    /* With on, a launch whose warps spin on a condition that cannot change
     * (the spin watchdog, sim.spin_cycles) while the memory system still
     * answers them is given up instead of stopping the program: its warps
     * exit where they stand and the launch returns; spin_stopped then says
     * so until the next launch. A stuck request stays a fault. NULL: every
     * spin is a fault. */
    void (*set_spin_stops)(void *obj, bool on);
    bool (*spin_stopped)(const void *obj);
};

struct launcher {
    const struct launcher_ops *ops;
    void *obj;
    unsigned cpu_cores; /* the CPU cores a launch on the CPU runs on (0: none) */
};

/* The host over a launcher. */
struct host *host_new(struct launcher l);
void host_delete(struct host *h);

#endif
