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

#include "base/clock.h" /* wall_seconds */
#include "base/file.h"  /* write_file_atomic */
#include "cli/opt.h"
#include "gpu/functional.h"
#include "host/host.h"
#include "system/machine.h"

#define SIM_MAX_SETS 256

struct sim_opts {
    const char *config_file;        /* --config (default configs/tc-fermi.ini) */
    const char *sets[SIM_MAX_SETS]; /* --set section.key=value, in order */
    unsigned n_sets;
    bool functional;             /* --functional */
    bool quiet;                  /* --quiet: no progress line */
    bool check;                  /* --check: invariant observers */
    const char *stats_file;      /* --stats FILE.json */
    const char *coverage_file;   /* --coverage FILE */
    uint64_t stats_interval;     /* --stats-interval N (core cycles) */
    const char *series_file;     /* --stats-series FILE.csv */
    bool progress, no_progress;  /* --progress, --no-progress */
    bool kernel_stats;           /* --stats also holds every statistic per launch
                                  * (set by the command, not an option) */
    const char *trace_file;      /* --trace FILE.csv */
    const char *inst_stats_file; /* --inst-stats FILE.json */
    const char *trace_kernel;    /* --trace-kernel NAME */
    const char *trace_warps;     /* --trace-warps SM:WARP,... (text, checked) */
    const char *trace_ctas;      /* --trace-ctas N,... */
    const char *trace_cycles;    /* --trace-cycles A:B */
};

/* The groups of common options a command takes (its --help must list the
 * same): the machine (--config, --set, --protocol, --seed), --functional,
 * --check, the report (--stats, --coverage, --quiet), and one run's own
 * (--progress, --no-progress, --stats-interval, --stats-series). */
enum {
    SIM_OPT_MACHINE = 1,
    SIM_OPT_FUNCTIONAL = 2,
    SIM_OPT_CHECK = 4,
    SIM_OPT_REPORT = 8,
    SIM_OPT_ALL = 15,
    SIM_OPT_RUN = 16 /* run and exec only */,
    SIM_OPT_TRACE = 32 /* run, exec and cuda: --trace, --inst-stats and the filters */
};

#define SIM_HELP_MACHINE                                                                           \
    "machine options:\n"                                                                           \
    "  --config FILE         machine configuration (INI); default configs/tc-fermi.ini\n"          \
    "  --set SECTION.KEY=V   override one option (repeatable; gpucoh config show lists them)\n"    \
    "  --protocol NAME       coherence protocol (same as --set coherence.protocol=NAME);\n"        \
    "                        one that promises under one memory model only takes that\n"           \
    "                        order.model unless --set order.model gives another\n"                 \
    "  --seed N              seed of every random stream (same as --set sim.seed=N)\n"
#define SIM_HELP_FUNCTIONAL                                                                        \
    "  --functional          run kernels without the timing model (values straight from\n"         \
    "                        memory; fast checks and the speed limit to compare against)\n"
#define SIM_HELP_CHECK                                                                             \
    "  --check               run the invariant observers: a golden memory updated where the\n"     \
    "                        protocol serialises writes, checked on what it hands out;\n"          \
    "                        a violation stops the run (exit 3)\n"
#define SIM_HELP_REPORT                                                                            \
    "report options:\n"                                                                            \
    "  --stats FILE.json     write every statistic (schema: docs/stats.md)\n"                      \
    "  --coverage FILE       write how often each protocol transition fired\n"                     \
    "  --quiet               no progress line on stderr\n"
#define SIM_HELP_RUN                                                                               \
    "  --progress            print the progress line on stderr even when it is not a\n"            \
    "                        terminal (a line every 10 s and one per kernel)\n"                    \
    "  --no-progress         no progress line (default: one on a terminal, rewritten in\n"         \
    "                        place: kernel, percent of its CTAs done, cycles, thread\n"            \
    "                        instructions, simulated cycles per second)\n"                         \
    "  --stats-interval N    with --stats-series: sample statistics every N core cycles\n"         \
    "  --stats-series FILE   write the samples as CSV (IPC, hit rates, traffic by class,\n"        \
    "                        outstanding requests; the last row is the run's totals;\n"            \
    "                        columns: docs/stats.md)\n"

#define SIM_HELP_TRACE                                                                             \
    "trace options (docs/trace.md):\n"                                                             \
    "  --trace FILE.csv      write one row per warp instruction of the timing model: cycle\n"      \
    "                        issued and done, SM, warp slot, CTA, warp, PC, PTX text and\n"        \
    "                        line, active mask, lines a memory instruction touched, their\n"       \
    "                        round trips and L1 hits, and the .cu file:line with -lineinfo\n"      \
    "  --trace-kernel NAME   trace only this kernel (its PTX name)\n"                              \
    "  --trace-warps LIST    trace only these warps, SM:SLOT,... (SM index in the machine,\n"      \
    "                        warp slot in the SM; e.g. 0:0,0:1)\n"                                 \
    "  --trace-ctas LIST     trace only these CTAs, N,... (linear index in the grid)\n"            \
    "  --trace-cycles A:B    trace only instructions issued in core cycles A to B (A: and\n"       \
    "                        :B leave one end open)\n"                                             \
    "  --inst-stats FILE     write per-instruction statistics (JSON): executions by warps\n"       \
    "                        and threads, issue-to-done cycles, lines, L1 hits and round\n"        \
    "                        trips of memory instructions, also summed per .cu line\n"             \
    "                        (the functional mode: executions only)\n"

/* Help text of every group, for the commands that take them all (run, exec). */
extern const char sim_opts_help[];

/* Fill `rows` (SIM_OPT_ROWS entries, OPT_END included) with the option rows
 * of `groups`, writing into o; pass them to opt_parse() after the command's
 * own rows. */
#define SIM_OPT_ROWS 24
void sim_opts_rows(struct sim_opts *o, unsigned groups, struct opt rows[SIM_OPT_ROWS]);

/* For commands with their own argument loop: if argv[*i] is one of the common
 * options, consume it (and its value), parsed as opt_parse() would, and return
 * true. A malformed one is a usage error (exit 2). */
bool sim_opts_take(struct sim_opts *o, int argc, char **argv, int *i);
/* The same, for the groups given (SIM_OPT_ALL | SIM_OPT_TRACE: gpucoh cuda). */
bool sim_opts_take_groups(struct sim_opts *o, unsigned groups, int argc, char **argv, int *i);

struct sim_session {
    struct sim_opts opts;
    struct config cfg;
    struct machine *machine;       /* timing mode */
    struct backing store;          /* functional mode */
    struct functional *functional; /* functional mode */
    struct host *host;
    struct stats_series *series; /* --stats-series, or NULL */
    struct inst_trace *itrace;   /* --trace, --inst-stats, or NULL */
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

#endif
