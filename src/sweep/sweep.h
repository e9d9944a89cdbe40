/*
 * sweep.h - the experiment runner behind `gpucoh sweep` and `gpucoh repro`.
 *
 * A sweep spec (docs/sweep.md) names workloads, protocols (optionally as
 * named configurations carrying settings, "tcw-fixed=tcw:tc.lease=fixed:3200"),
 * sizes, machine files and parameter axes ("set tc.lease fixed:800 fixed:3200");
 * each block's cross product is a list of runs. A run is one child process,
 * `gpucoh run ... --stats DIR/runs/<id>.json --quiet`, so a fault in one run
 * cannot take the others down and runs proceed in parallel.
 *
 * Run ids are a pure function of what the run does (workload, size, registry
 * protocol, canonical settings, machine file), never of its name in the spec:
 * the same run named twice is run once. A run is finished when its JSON exists
 * (the child writes it whole, so an interrupted run leaves none) or when it
 * failed with an exit status (DIR/runs/<id>.err); finished runs are not redone
 * while their identity (DIR/runs/<id>.ident: the gpucoh binary, the resolved
 * configuration's contents, the workload; sweep_ident.c) is unchanged.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef SWEEP_SWEEP_H
#define SWEEP_SWEEP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "gfx/sfr.h"
#include "coh/getm/sm_tx.h"
#include "sim/msg.h"

#define SWEEP_MAX_SETTINGS 32
#define SWEEP_MAX_MISSING  64

/* What a block's runs simulate: kernels on the memory system (`gpucoh run`),
 * or one frame on the split-frame rendering model (`gpucoh chopin run`),
 * where a workload is a generated game trace and a protocol is a design. */
enum sweep_model { SWEEP_MEMORY, SWEEP_FRAMES };
extern const char *const sweep_model_names[2];

struct sweep_run {
    char id[160];      /* "<workload>-<size>-<protocol>-<hash>" */
    const char *block; /* the spec block ("sweep NAME") it came from; "" for none */
    enum sweep_model model;
    const char *workload;    /* the app as the workloads line names it: a registry name,
                                or NAME:VARIANT ("ht:m"); frames: the game (gpucoh chopin gen) */
    const char *wl;          /* the registry name ("ht") */
    const char *spec_file;   /* a launch spec as the workload (`workloads mine.spec`): the
                                resolved path the child runs with `gpucoh exec`; NULL else */
    const char *variant;     /* the --variant the run passes: the app's and the configuration's
                                joined by '-' ("m-tx"), one of them alone, or NULL for none */
    const char *set;         /* the workload's set: basic, inter, intra, sync, stc, stc-reuse,
                                mg, getm; frames: games; a launch spec: spec */
    const char *size;        /* wl_size_names[]: tiny, quick, small, paper; frames: "frame";
                                a launch spec: "spec" (its inputs are what it says) */
    const char *seed;        /* frames: the trace generator's seed; memory: the generated
                                input's (`--input-seed`), "" for the default */
    const char *config;      /* configuration name: the protocol entry's name ("tcw-fixed") */
    const char *protocol;    /* registry protocol ("tcw"); frames: the design ("chopin-cs") */
    const char *config_file; /* resolved machine file, NULL for the default */
    const char *settings[SWEEP_MAX_SETTINGS]; /* "section.key=value": one per key, sorted */
    unsigned n_settings;
    const char *settings_text; /* the settings joined by ';' ("" for none) */
    unsigned line;             /* spec line of the block's protocols entry */
};

/* A protocol entry that names a protocol this build does not have. */
struct sweep_missing {
    const char *config;   /* entry name */
    const char *protocol; /* the protocol it needs */
    const char *block;
    unsigned line;
};

struct sweep_spec {
    const char *path;       /* for messages */
    struct sweep_run *runs; /* blocks in order; the same id may appear more than once */
    unsigned n_runs, cap_runs;
    struct sweep_missing missing[SWEEP_MAX_MISSING];
    unsigned n_missing;
    char **owned; /* strings the runs point into */
    unsigned n_owned, cap_owned;
};

struct sweep_parse_opts {
    const char *size;  /* replaces every `sizes` line (NULL: as written) */
    bool skip_missing; /* protocols not built are noted in `missing`, not an error */
};

/* Parse spec text (path is for messages and for resolving machine files).
 * Returns 0, or -1 with "path:line: what is wrong" in err. Workload names and
 * option keys are checked against the registries; values by loading them. */
int sweep_spec_parse(struct sweep_spec *s, const char *path, const char *text,
                     const struct sweep_parse_opts *o, char *err, size_t errlen);
/* Read the file and parse it. */
int sweep_spec_load(struct sweep_spec *s, const char *path, const struct sweep_parse_opts *o,
                    char *err, size_t errlen);
void sweep_spec_free(struct sweep_spec *s);

/* The first run with this block, workload and configuration name (and, if
 * `setting` is not NULL, that "key=value" among its settings), or NULL. */
const struct sweep_run *sweep_find(const struct sweep_spec *s, const char *block,
                                   const char *workload, const char *config, const char *setting);

/* ---- running ---- */

struct sweep_exec_opts {
    const char *out_dir; /* runs go to out_dir/runs/ */
    unsigned jobs;       /* at most this many children at once (>= 1) */
    bool retry_failed;   /* redo runs that have an .err file */
    double timeout_s;    /* kill a run after this long (0: never) */
    double time_limit_s; /* stop the sweep after this long (0: never): the runs in
                            progress are stopped as by Ctrl-C, the rest left */
    FILE *log;           /* progress: a status line on a terminal, a line per run otherwise */
    bool one_run;        /* run only the distinct run of index run_index (a Slurm
                            array task; sweep_slurm.c), as resumable as a whole sweep */
    unsigned run_index;
    bool progress; /* the status line (done, running, failed, ETA) even when log is
                      not a terminal: then a line whenever runs finish, not redrawn */
};

/* The estimated seconds until a sweep ends, from the mean wall time of the
 * runs finished so far (mean_s; < 0: none finished yet, and the answer is
 * -1): `waiting` runs not started take mean_s each, a running one the rest of
 * mean_s beyond its elapsed time (never below 0), and the work is shared by
 * min(jobs, runs left) at once. A plain mean over every finished run, not per
 * design: see docs/sweep.md for how it fared on `repro tc --size quick`. */
double sweep_eta(double mean_s, unsigned waiting, const double *running_elapsed, unsigned n_running,
                 unsigned jobs);

/* Whether run i is the first with its id (the runs the sweep runs: the
 * distinct runs, in spec order, the rows of results.csv), and how many there
 * are. */
bool sweep_run_is_first(const struct sweep_spec *s, unsigned i);
unsigned sweep_distinct_runs(const struct sweep_spec *s);

/* ---- Slurm: a job array of one task per distinct run (sweep_slurm.c) ---- */

struct sweep_slurm_opts {
    const char *spec_path; /* as given; made absolute in the script */
    const char *out_dir;
    const char *size;                   /* --size passed on, or NULL */
    const char *partition, *time, *mem; /* #SBATCH lines, each only when given */
    double timeout_s;                   /* --timeout passed on (0: none) */
    bool skip_missing;
    const char *exe;      /* the gpucoh binary the tasks run (NULL: this one) */
    const char *then;     /* what to run once the tasks are done, for the script's
                             comment (NULL: `gpucoh sweep SPEC --collect --out DIR`) */
    const char *job_name; /* the array's --job-name after "gpucoh-" (NULL: SPEC's
                             file name without its extension) */
};

/* Write out_dir/slurm/sweep.sbatch (whole or not at all): a job array
 * 0..N-1 over the spec's N distinct runs, task i running
 * `gpucoh sweep SPEC --out DIR --run-index i`, its log out_dir/slurm/%A_%a.out.
 * Returns 0 with the script's path in `path`, or -1 (message printed). */
int sweep_slurm_write(const struct sweep_spec *s, const struct sweep_slurm_opts *o, char *path,
                      size_t n);
/* Run `sbatch SCRIPT` and wait for it. Returns its exit status, or 127 when
 * sbatch cannot be run (message printed). */
int sweep_slurm_submit(const char *script);

/* ---- identity: what a stored result was computed from (sweep_ident.c) ---- */

/* In the order a changed part is named as the reason for a rerun. */
enum sweep_ident_part {
    SWEEP_IDENT_BUILD,    /* the build's fingerprint: its sources and toolchain */
    SWEEP_IDENT_CONFIG,   /* the resolved configuration and the files it names */
    SWEEP_IDENT_WORKLOAD, /* the workload's PTX (frames: game and seed) */
    SWEEP_IDENT_N
};
extern const char *const sweep_ident_parts[SWEEP_IDENT_N]; /* keys in .ident: "build" ... */
/* why a stored run is rerun: a part changed ("gpucoh build changed"), or
 * [SWEEP_IDENT_N] "no identity recorded" */
extern const char *const sweep_ident_reasons[SWEEP_IDENT_N + 1];

struct sweep_ident {
    uint64_t part[SWEEP_IDENT_N];
};

/* The identity of run r under the build whose fingerprint is `build`
 * (build_fingerprint_value(): the sweep's children run this binary). */
void sweep_ident_of(const struct sweep_run *r, uint64_t build, struct sweep_ident *id);
/* Write it to path (whole or not at all). Returns 0 or -1. */
int sweep_ident_write(const char *path, const struct sweep_ident *id);
/* Compare the identity stored at path with `now`: -1 when equal, else the
 * reason to rerun (an index of sweep_ident_reasons; SWEEP_IDENT_N when the
 * file is missing or incomplete). */
int sweep_ident_compare(const char *path, const struct sweep_ident *now);

struct sweep_counts {
    unsigned total;                        /* distinct runs */
    unsigned skipped;                      /* finished before this call, identity unchanged */
    unsigned ran;                          /* run by this call */
    unsigned rerun;                        /* of those, finished before but stale */
    unsigned rerun_why[SWEEP_IDENT_N + 1]; /* stale runs by reason (sweep_ident_reasons) */
    unsigned failed;                       /* exit status != 0, this call or before */
    double wall_seconds;
};

/* Run every distinct run of the spec that is not finished, or whose stored
 * result is stale (its identity changed: rerun, counted by reason). Returns
 * 0; SWEEP_STOPPED when o->time_limit_s ran out first (running children are
 * stopped, nothing of theirs is kept, the rest is left for the next call);
 * or -1 if the output folder cannot be made (message printed) or the sweep
 * was interrupted (SIGINT/SIGTERM: running children stopped likewise). */
#define SWEEP_STOPPED 1
int sweep_execute(const struct sweep_spec *s, const struct sweep_exec_opts *o,
                  struct sweep_counts *c);
/* The stale runs' reasons with their counts: "machine configuration changed
 * (2), gpucoh binary changed (1)"; "" for none. */
void sweep_rerun_text(const struct sweep_counts *c, char *buf, size_t n);

/* Small helpers shared with repro. */
int sweep_mkdir_p(const char *path);

#endif
