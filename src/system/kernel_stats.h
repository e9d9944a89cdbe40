/*
 * kernel_stats.h - every statistic of each kernel launch, as the difference
 * of the machine's counters between the launch's start and its end.
 *
 * The machine snapshots every counter (machine_stats) when a launch starts
 * and again when it has ended and the machine has settled, and keeps the
 * counters that changed with their differences: the launches' values sum to
 * the whole run's. Maxima, minima and averages (names ending in "max",
 * "_min", "_avg": histogram maxima, tx.ts_max, RCC's lease_avg) are not
 * differences of anything and are left out, and so is any statistic seen
 * to go down during a launch (a level, not a count). Kernels launched together (one on the GPU, one
 * on the CPU cores) share one launch. Snapshots cost a walk over every statistic per launch, so the
 * machine takes them only when asked (machine_set_kernel_stats). SPDX-License-Identifier:
 * BSD-3-Clause
 */
#ifndef SYSTEM_KERNEL_STATS_H
#define SYSTEM_KERNEL_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include "system/machine.h"

struct kernel_stats;

struct kernel_stats *kernel_stats_new(void);
void kernel_stats_free(struct kernel_stats *ks);

/* A launch starts: snapshot the machine's counters. */
void kernel_stats_begin(struct kernel_stats *ks, struct machine *m);
/* ... and has ended (the machine settled): keep what changed. `kernels` are
 * the launch's kernel names (they must outlive ks), `cycles` its core cycles. */
void kernel_stats_end(struct kernel_stats *ks, struct machine *m, const char *const *kernels,
                      unsigned n_kernels, uint64_t cycles);

/* One launch: its kernels, cycles, and the headline figures over it. */
struct kernel_stats_launch {
    const char *kernels[2]; /* the GPU's and the CPU cores' kernels launched together */
    unsigned n_kernels;
    uint64_t cycles;
    struct machine_summary summary; /* counters over the launch (load_latency.max: 0) */
};

unsigned kernel_stats_launches(const struct kernel_stats *ks);
const struct kernel_stats_launch *kernel_stats_launch(const struct kernel_stats *ks, unsigned i);
/* The statistics' names, indexed as kernel_stats_each reports them, in the
 * order first seen (machine_stats' order, then names that appeared later). */
unsigned kernel_stats_names(const struct kernel_stats *ks);
const char *kernel_stats_name(const struct kernel_stats *ks, unsigned name);
/* Report launch i's statistics that changed, with their differences, in the
 * order machine_stats names them. */
typedef void kernel_stat_fn(void *arg, unsigned name, uint64_t value);
void kernel_stats_each(const struct kernel_stats *ks, unsigned i, kernel_stat_fn *fn, void *arg);

#endif
