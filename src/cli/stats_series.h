/*
 * stats_series.h - the statistics of a run over time (--stats-interval N
 * --stats-series FILE.csv): a CSV row every N core cycles while kernels run,
 * and a last row when the run has ended, whose cumulative counters are the
 * run's totals (the stats file's). The rows are kept in memory and the file
 * is written whole or not at all when the run ends. Columns: docs/stats.md.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef CLI_STATS_SERIES_H
#define CLI_STATS_SERIES_H

#include <stdint.h>

#include "system/machine.h"

struct stats_series;

/* Start sampling m every `every_cycles` core cycles. */
struct stats_series *stats_series_start(struct machine *m, uint64_t every_cycles);
/* Add the run's last row and write the file (temp + rename; path NULL:
 * nothing written); free the series either way. Returns 0, or -1 if the file could not be written.
 */
int stats_series_finish(struct stats_series *ss, struct machine *m, const char *path);

#endif
