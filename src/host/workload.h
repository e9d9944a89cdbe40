/*
 * workload.h - the workload registry.
 *
 * A workload is a folder under workloads/ with its CUDA source, the PTX nvcc
 * made from it (committed, embedded in the binary at build time), and a host
 * driver that generates inputs from a seed, launches kernels through the host
 * API and checks the result against a CPU reference.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef HOST_WORKLOAD_H
#define HOST_WORKLOAD_H

#include "host/host.h"

enum wl_size { WL_TINY, WL_SMALL, WL_PAPER, WL_NSIZES };
extern const char *const wl_size_names[WL_NSIZES];

struct wl_params {
    enum wl_size size;
    uint64_t seed;          /* input generation */
    const char *variant;    /* workload-defined switch ("nofence", ...); NULL = default */
};

struct workload {
    const char *name;       /* command-line name, lower case */
    const char *set;        /* "basic", "inter", "intra", "sync" */
    const char *desc;       /* one line for `gpucoh list workloads` */
    const char *ptx;        /* embedded PTX text */
    const char *ptx_file;   /* its path in the repository, for messages */
    /* Run it. Returns 0 when the output matches the CPU reference, 1 when it
     * does not (with a reason in why). */
    int (*run)(struct host *h, const struct wl_params *p, char *why, size_t why_len);
};

/* All registered workloads, NULL-terminated (generated at build time). */
extern const struct workload *const wl_registry[];
const struct workload *wl_find(const char *name);

#endif
