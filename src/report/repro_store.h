/*
 * repro_store.h - a reproduction's results kept in repro/<name>/results/
 * <size>/ with their provenance (repro_store.c, docs/repro.md).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef REPORT_REPRO_STORE_H
#define REPORT_REPRO_STORE_H

#include <stddef.h>

#include "report/repro_values.h"

/* What the provenance records beside what the reproduction knows. */
struct repro_store_info {
    double wall_s; /* running and rendering it */
    unsigned jobs; /* runs at once */
};

/* Copy a rendered reproduction's report.txt, summary.csv, figures.csv and
 * plot-data.csv from r->out_dir into repro/<name>/results/<size>/ (its path
 * into dest) with a provenance file; root is the source tree (for its git
 * commit). Whole or not at all. Returns 0, or -1 with what failed in err. */
int repro_store(const struct repro *r, const char *root, const struct repro_store_info *info,
                char *dest, size_t dest_len, char *err, size_t errlen);

/* A reproduction stopped with runs left: keep every finished run of
 * r->out_dir (statistics zstd-compressed, identity, failure record) in
 * repro/<name>/checkpoints/<size>/ with a provenance (commit, build
 * fingerprint, date, runs finished of all). Whole or not at all. Returns how
 * many runs it keeps, or -1 with what failed in err. */
int repro_checkpoint_store(const struct repro *r, const char *root, char *dest, size_t dest_len,
                           char *err, size_t errlen);

/* Before a reproduction runs: copy the runs of its size's checkpoint, if
 * any, into r->out_dir/runs/ where that folder has none of the run's files
 * (the sweep's identities then say which are still valid), and say so on log
 * (and, when this build is not the checkpoint's, that they will rerun).
 * Returns how many were taken, or -1 (message printed). */
int repro_checkpoint_take(const struct repro *r, FILE *log);

/* The source tree's git commit (12 hex digits), "-dirty" when a tracked file
 * other than stored results (repro/NAME/results/) differs from it; "unknown (not a git
 * checkout)" without git. For provenance: stored results and the report. */
void repro_source_commit(const char *root, char *buf, size_t n);

#endif
