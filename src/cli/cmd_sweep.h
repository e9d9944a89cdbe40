/*
 * cmd_sweep.h - the experiment commands: `gpucoh sweep` (any spec file) and
 * `gpucoh repro` (a paper's figures, built on the same runner).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef CLI_CMD_SWEEP_H
#define CLI_CMD_SWEEP_H

#include <stdbool.h>

#include "cli/opt.h"
#include "sweep/sweep.h"

/* The options both commands take, read the same way: how the runs execute
 * (-j, --timeout, --retry-failed, --progress, --out, --size) and the Slurm and
 * --collect modes. */
struct sweep_cli {
    struct sweep_exec_opts exec;        /* jobs 2 unless -j; log stderr */
    struct sweep_slurm_opts slurm_opts; /* --partition, --time, --mem */
    const char *out;                    /* --out, or NULL */
    int size;                           /* --size: an index of wl_size_names, or -1 */
    bool slurm, dry_run, collect;
};

#define SWEEP_CLI_ROWS 14
/* Set c to the defaults and fill rows (OPT_END included) with the shared
 * options writing into c; pass them to opt_parse() after the command's own. */
void sweep_cli_rows(struct sweep_cli *c, struct opt rows[SWEEP_CLI_ROWS]);

/* Exit 2 when Slurm's options are given without --slurm ("gpucoh CMD: ..."). */
void sweep_cli_check(const char *cmd, const struct sweep_cli *c);

int cmd_sweep(int argc, char **argv);
int cmd_repro(int argc, char **argv);

#endif
