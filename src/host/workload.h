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

/* Input sizes, smallest first. tiny: the unit tests' size, seconds for a
 * whole sweep. quick: a few seconds a run; the README's demonstration.
 * small: the default; the twelve Temporal Coherence benchmarks take inputs
 * larger than the L2 where the paper's are (the paper's own where a run takes
 * under a minute), every other workload the same as quick. paper: the
 * papers' inputs (docs/workloads.md gives each workload's). */
enum wl_size { WL_TINY, WL_QUICK, WL_SMALL, WL_PAPER, WL_NSIZES };
extern const char *const wl_size_names[WL_NSIZES + 1]; /* NULL-terminated */
#define WL_SIZE_CHOICES "tiny, quick, small or paper"
#define WL_SIZE_USAGE   "tiny|quick|small|paper"

/* The size called name, or -1. */
int wl_size_find(const char *name);

struct wl_params {
    enum wl_size size;
    uint64_t seed;       /* input generation */
    const char *variant; /* workload-defined switch ("nofence", ...); NULL = default */
};

struct workload {
    const char *name;     /* command-line name, lower case */
    const char *set;      /* "basic", "inter", "intra", "sync", "order", "stc", "stc-reuse",
                             "mg" */
    const char *desc;     /* one line for `gpucoh list workloads` */
    const char *ptx;      /* embedded PTX text */
    const char *ptx_file; /* its path in the repository, for messages */
    /* Run it. Returns 0 when the output matches the CPU reference, 1 when it
     * does not (with a reason in why). */
    int (*run)(struct host *h, const struct wl_params *p, char *why, size_t why_len);
    const char *const *variants; /* NULL-terminated names --variant accepts; NULL: none */
};

/* A random undirected graph for the graph workloads: n nodes, n * per_node
 * edges between distinct random nodes, each stored in both directions, in
 * CSR form (*row: n + 1 offsets, *col: the neighbours; malloc'ed, the
 * caller frees). Deterministic in the stream. */
struct rng;
void wl_random_undirected_csr(uint32_t n, uint32_t per_node, struct rng *r, int32_t **row,
                              int32_t **col);

/* All registered workloads, NULL-terminated (generated at build time). */
extern const struct workload *const wl_registry[];
const struct workload *wl_find(const char *name);

/* Whether w declares the variant `v`. */
bool wl_has_variant(const struct workload *w, const char *v);

#endif
