/*
 * spandex_micro.h - the host side of spec 003 §4's microbenchmarks
 * (workloads/flexvs, flexowt, flexoawta, prodcons; implemented in
 * workloads/prodcons/spandex_micro.c). CPU phases on the CPU cores, GPU
 * phases on the GPU, both kernels at once, synchronised by flags
 * (spandex_micro.cuh). Sizes (CPU threads and GPU CTAs, words a partition,
 * iterations): tiny 4, 128, 2; quick 16 (every CPU core and SM of configs/
 * spandex.ini), 512, 4; small 16, 1024, 8; paper 16, 4096 (16 KB: the
 * spec's Prod-Cons partitions), 20. The host replays every phase on its
 * own copies and compares every word.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef WORKLOADS_SPANDEX_MICRO_H
#define WORKLOADS_SPANDEX_MICRO_H

#include <stddef.h>

struct host;
struct wl_params;

enum spandex_micro { SPXM_FLEXVS, SPXM_FLEXOWT, SPXM_FLEXOAWTA, SPXM_PRODCONS };

/* Run benchmark `which` from module text `ptx`; 0 when every word matches
 * the host's replay, 1 with the first difference in why. */
int spandex_micro_run(struct host *h, const struct wl_params *p, enum spandex_micro which,
                      const char *ptx, const char *ptx_file, char *why, size_t why_len);

/* The workload `wl_DIR` of folder workloads/DIR: benchmark WHICH, named NAME,
 * with the --variant names VARIANTS (a NULL-terminated array, or NULL). */
#define SPANDEX_MICRO_WORKLOAD(DIR, NAME, WHICH, DESC, VARIANTS)                                   \
    extern const char wl_ptx_##DIR[];                                                              \
    static int DIR##_run(struct host *h, const struct wl_params *p, char *why, size_t why_len)     \
    {                                                                                              \
        return spandex_micro_run(h, p, WHICH, wl_ptx_##DIR, "workloads/" #DIR "/" #DIR ".ptx",     \
                                 why, why_len);                                                    \
    }                                                                                              \
    const struct workload wl_##DIR = {                                                             \
        .name = NAME,                                                                              \
        .set = "spandex",                                                                          \
        .desc = DESC,                                                                              \
        .ptx = wl_ptx_##DIR,                                                                       \
        .ptx_file = "workloads/" #DIR "/" #DIR ".ptx",                                             \
        .run = DIR##_run,                                                                          \
        .variants = VARIANTS,                                                                      \
    }

#endif
