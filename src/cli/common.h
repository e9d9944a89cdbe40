/*
 * common.h - what every simulating subcommand shares: the options that
 * choose and configure the machine (--config, --set, --protocol, --seed,
 * --functional), the reporting options (--stats, --coverage, --quiet), and a
 * session that builds the machine (or the functional runner), hands a host
 * to the caller, and reports what was measured.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef CLI_COMMON_H
#define CLI_COMMON_H

#include <stdio.h>

#include "gpu/functional.h"
#include "host/host.h"
#include "system/machine.h"

#define SIM_MAX_SETS 256

struct sim_opts {
    const char *config_file;             /* --config (default configs/tc-fermi.ini) */
    const char *sets[SIM_MAX_SETS];      /* --set section.key=value, in order */
    unsigned n_sets;
    bool functional;                     /* --functional */
    bool quiet;                          /* --quiet: no progress line */
    bool check;                          /* --check: invariant observers */
    const char *stats_file;              /* --stats FILE.json */
    const char *coverage_file;           /* --coverage FILE */
};

/* Help text for the options above, for each command's --help. */
extern const char sim_opts_help[];

/* If argv[*i] is one of the common options, consume it (and its value) and
 * return true. A malformed one is a usage error (exit 2). */
bool sim_opts_take(struct sim_opts *o, int argc, char **argv, int *i);

struct sim_session {
    struct sim_opts opts;
    struct config cfg;
    struct machine *machine;         /* timing mode */
    struct backing store;            /* functional mode */
    struct functional *functional;   /* functional mode */
    struct host *host;
    double wall_start;
};

/* Resolve the configuration (exit 2 on errors) and build the machine. */
void sim_open(struct sim_session *s, const struct sim_opts *o);
void sim_close(struct sim_session *s);

/* Print the summary of what ran (cycles, instructions, hit rates, traffic by
 * class, simulator speed) and write --stats / --coverage files. `extra` adds
 * top-level JSON members (may be NULL). Returns 0, or 2 if a file could not
 * be written. */
struct cJSON;
int sim_report(struct sim_session *s, FILE *out, const char *title, struct cJSON *extra);

/* Write text to `path` whole or not at all (temp file + rename). */
int write_file_atomic(const char *path, const char *text);

double wall_seconds(void);

#endif
