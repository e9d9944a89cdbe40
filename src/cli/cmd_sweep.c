/*
 * cmd_sweep.c - `gpucoh sweep SPEC`: run the cross product a spec file
 * describes (docs/sweep.md) in parallel child processes, resumably, and
 * write DIR/runs/<id>.json per run and DIR/results.csv for all of them.
 *
 * Exit status: 0 every run passed; 1 some run failed (wrong check, fault,
 * timeout; their rows are in the CSV); 2 a bad spec or option; 75 when
 * stopped at --time-limit and 130 when interrupted (what finished is kept,
 * the rest runs next time).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "cli/cmd_sweep.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "cli/opt.h"
#include "host/workload.h"
#include "sweep/sweep_result.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: gpucoh sweep SPEC [-j N] [--out DIR] [--size " WL_SIZE_USAGE "]\n"
            "                    [--retry-failed] [--timeout SECONDS] [--time-limit SECONDS]\n"
            "                    [--list] [--progress]\n"
            "       gpucoh sweep SPEC --slurm [--partition P] [--time T] [--mem M] [--dry-run]\n"
            "                    [--out DIR] [--size S] [--timeout SECONDS]\n"
            "       gpucoh sweep SPEC --collect [--out DIR] [--size S]\n"
            "\n"
            "Runs every combination of workloads x protocols x sizes x parameter settings\n"
            "that SPEC describes (format: docs/sweep.md), each as a child `gpucoh run`,\n"
            "at most N at once. Writes DIR/runs/<id>.json per run and DIR/results.csv\n"
            "(one row per run). Resumable: runs whose results exist are not redone\n"
            "unless what they were computed from changed (the gpucoh build, the resolved\n"
            "configuration's contents, the workload): those are rerun, and it says why.\n"
            "A block that starts with `model frames` runs the split-frame rendering model\n"
            "instead (games x designs, each a child `gpucoh chopin run`; docs/chopin.md).\n"
            "Workload variants: `workloads ht:m` runs ht's variant m as an app of its own;\n"
            "a configuration `getm=getm:variant=tx` runs each workload's tx twin, joined to\n"
            "the workload's own (ht:m runs --variant m-tx). --list shows each run's.\n"
            "One's own kernels: `workloads mine.spec` runs a launch spec (docs/launch-spec.md,\n"
            "found beside SPEC) as a child `gpucoh exec`, once whatever the sizes.\n"
            "\n"
            "  -j, --jobs N        runs at once (default 2)\n"
            "  --out DIR           output folder (default: SPEC's name without .sweep)\n"
            "  --size S            run every block at this size instead of its sizes line\n"
            "                      (frames blocks have one size)\n"
            "  --retry-failed      redo runs that failed before (their .err files)\n"
            "  --timeout SECONDS   stop a run that takes longer (recorded as failed)\n"
            "  --time-limit SECONDS\n"
            "                      stop the whole sweep after this long, as Ctrl-C does: the\n"
            "                      runs in progress are stopped and keep nothing, what\n"
            "                      finished is kept, the same command goes on (exit 75)\n"
            "  --skip-missing      skip protocols this build does not have (default: error)\n"
            "  --list              print the runs and their ids, run nothing\n"
            "  --progress          print the status line (done/total, running, failed,\n"
            "                      elapsed, ETA from the mean wall time of the runs\n"
            "                      finished so far) whenever runs finish, even when stderr\n"
            "                      is not a terminal (on one it is always redrawn)\n"
            "\n"
            "On a Slurm cluster (docs/sweep.md):\n"
            "  --slurm             write DIR/slurm/sweep.sbatch, a job array of one task per\n"
            "                      run (task I runs `gpucoh sweep SPEC --out DIR --run-index I`,\n"
            "                      resumable as here), and submit it with sbatch\n"
            "  --partition P, --time T, --mem M\n"
            "                      the script's #SBATCH --partition, --time, --mem\n"
            "  --dry-run           write the script, do not submit it\n"
            "  --run-index I       run only the sweep's distinct run I (0-based, the order of\n"
            "                      results.csv's rows); does not write results.csv\n"
            "  --collect           run nothing: write DIR/results.csv from the runs finished\n"
            "                      so far and say how many are missing (exit 1 if any run\n"
            "                      is missing or failed)\n"
            "\n"
            "exit status: 0 all runs passed, 1 some run failed, 2 bad spec or option,\n"
            "75 stopped at --time-limit with runs left, 130 interrupted\n"
            "\nexample: gpucoh sweep repro/tc/tc.sweep --size tiny -j 2 --out /tmp/tc\n");
}

void sweep_cli_rows(struct sweep_cli *c, struct opt rows[SWEEP_CLI_ROWS])
{
    *c = (struct sweep_cli){.exec = {.jobs = 2, .log = stderr}, .size = -1};
    const struct opt shared[SWEEP_CLI_ROWS] = {
        OPT_UINT_ROW("--jobs", "-j", &c->exec.jobs, 1, 256),
        OPT_STR_ROW("--out", NULL, &c->out),
        OPT_ENUM_ROW("--size", NULL, &c->size, wl_size_names),
        OPT_F64_ROW("--timeout", NULL, &c->exec.timeout_s, 0.001, 1e9),
        OPT_F64_ROW("--time-limit", NULL, &c->exec.time_limit_s, 0.001, 1e9),
        OPT_FLAG_ROW("--retry-failed", NULL, &c->exec.retry_failed),
        OPT_FLAG_ROW("--progress", NULL, &c->exec.progress),
        OPT_FLAG_ROW("--slurm", NULL, &c->slurm),
        OPT_STR_ROW("--partition", NULL, &c->slurm_opts.partition),
        OPT_STR_ROW("--time", NULL, &c->slurm_opts.time),
        OPT_STR_ROW("--mem", NULL, &c->slurm_opts.mem),
        OPT_FLAG_ROW("--dry-run", NULL, &c->dry_run),
        OPT_FLAG_ROW("--collect", NULL, &c->collect),
        OPT_END,
    };
    memcpy(rows, shared, sizeof shared);
}

void sweep_cli_check(const char *cmd, const struct sweep_cli *c)
{
    const struct sweep_slurm_opts *so = &c->slurm_opts;
    if (!c->slurm && (so->partition || so->time || so->mem || c->dry_run))
        fatal("%s: --partition, --time, --mem and --dry-run go with --slurm", cmd);
    if ((c->slurm || c->collect) && c->exec.time_limit_s > 0)
        fatal("%s: --time-limit limits a sweep run here, not --slurm or --collect (Slurm's own "
              "limit is --time)",
              cmd);
}

int cmd_sweep(int argc, char **argv)
{
    const char *spec_path = NULL;
    struct sweep_parse_opts po = {0};
    bool list = false;
    unsigned run_index = UINT_MAX;
    const struct opt rows[] = {
        OPT_FLAG_ROW("--skip-missing", NULL, &po.skip_missing),
        OPT_FLAG_ROW("--list", NULL, &list),
        OPT_UINT_ROW("--run-index", NULL, &run_index, 0, 100000000),
        OPT_END,
    };
    struct sweep_cli cli;
    struct opt shared[SWEEP_CLI_ROWS];
    sweep_cli_rows(&cli, shared);
    struct opt_args pos = {&spec_path, 0, 1};
    int rc = opt_parse("sweep", (const struct opt *const[]){rows, shared, NULL}, argc, argv, 1,
                       &pos, usage);
    if (rc != OPT_CONTINUE)
        return rc;
    if (cli.size >= 0)
        po.size = wl_size_names[cli.size];
    if (!spec_path) {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (cli.slurm + cli.collect + list + (run_index != UINT_MAX) > 1)
        fatal("sweep: --slurm, --collect, --list and --run-index do not go together");
    sweep_cli_check("sweep", &cli);
    struct sweep_exec_opts eo = cli.exec;
    struct sweep_slurm_opts so = cli.slurm_opts;
    const char *out = cli.out;
    bool slurm = cli.slurm, dry_run = cli.dry_run, collect = cli.collect;
    struct sweep_spec s;
    char err[1024];
    if (sweep_spec_load(&s, spec_path, &po, err, sizeof err))
        fatal("%s", err);
    for (unsigned i = 0; i < s.n_missing; i++)
        fprintf(stderr, "gpucoh sweep: %s:%u: skipping '%s': protocol '%s' is not built\n",
                spec_path, s.missing[i].line, s.missing[i].config, s.missing[i].protocol);
    char out_buf[4096];
    if (!out) {
        const char *base = strrchr(spec_path, '/');
        base = base ? base + 1 : spec_path;
        snprintf(out_buf, sizeof out_buf, "%s", base);
        char *dot = strrchr(out_buf, '.');
        if (dot && dot != out_buf)
            *dot = 0;
        else
            strcat(out_buf, ".out");
        out = out_buf;
    }
    if (list) {
        for (unsigned i = 0; i < s.n_runs; i++) {
            const struct sweep_run *r = &s.runs[i];
            printf("%-40s %-10s %-12s %-6s %s%s%s%s%s\n", r->id, r->block[0] ? r->block : "-",
                   r->workload, r->size, r->config, r->variant ? " --variant " : "",
                   r->variant ? r->variant : "", r->n_settings ? " " : "", r->settings_text);
        }
        sweep_spec_free(&s);
        return 0;
    }
    if (slurm) {
        so.spec_path = spec_path;
        so.out_dir = out;
        so.size = po.size;
        so.timeout_s = eo.timeout_s;
        so.skip_missing = po.skip_missing;
        char script[8192];
        rc = sweep_slurm_write(&s, &so, script, sizeof script);
        unsigned runs = sweep_distinct_runs(&s);
        sweep_spec_free(&s);
        if (rc)
            return EXIT_USAGE;
        fprintf(stderr, "sweep: %u runs as a job array (0-%u): %s\n", runs, runs - 1, script);
        if (dry_run)
            return 0;
        rc = sweep_slurm_submit(script);
        if (rc)
            fprintf(stderr, "gpucoh sweep: sbatch %s exited %d\n", script, rc);
        return rc ? EXIT_USAGE : 0;
    }
    if (collect) {
        unsigned total = 0, finished = 0, failed = 0;
        for (unsigned i = 0; i < s.n_runs; i++) {
            if (!sweep_run_is_first(&s, i))
                continue;
            struct sweep_result res;
            sweep_result_load(out, &s.runs[i], &res);
            total++;
            finished += res.finished;
            failed += res.finished && res.exit_status;
        }
        bool csv_bad = sweep_write_csv(out, &s) != 0;
        fprintf(stderr, "sweep: %u runs: %u finished (%u failed), %u missing; %s/results.csv\n",
                total, finished, failed, total - finished, out);
        sweep_spec_free(&s);
        if (csv_bad)
            return EXIT_USAGE;
        return finished < total || failed ? EXIT_CHECK_FAILED : 0;
    }
    if (run_index != UINT_MAX) {
        unsigned runs = sweep_distinct_runs(&s);
        if (run_index >= runs)
            fatal("sweep: --run-index %u: %s has %u runs (0-%u)", run_index, spec_path, runs,
                  runs ? runs - 1 : 0);
        eo.one_run = true;
        eo.run_index = run_index;
    }
    eo.out_dir = out;
    struct sweep_counts c;
    rc = sweep_execute(&s, &eo, &c);
    /* one task of a job array leaves results.csv to --collect: the tasks
     * run at once, and each would write it */
    bool csv_bad = !eo.one_run && sweep_write_csv(out, &s) != 0;
    char rerun[64] = "";
    if (c.rerun)
        snprintf(rerun, sizeof rerun, " (%u rerun, stale)", c.rerun);
    if (eo.one_run)
        fprintf(stderr,
                "sweep: run %u of %s: %u run now%s, %u finished before, %u failed; %.1f s\n",
                run_index, spec_path, c.ran, rerun, c.skipped, c.failed, c.wall_seconds);
    else
        fprintf(stderr,
                "sweep: %u runs: %u run now%s, %u finished before, %u failed; %.1f s; "
                "%s/results.csv\n",
                c.total, c.ran, rerun, c.skipped, c.failed, c.wall_seconds, out);
    sweep_spec_free(&s);
    if (rc == SWEEP_STOPPED)
        return EXIT_UNFINISHED;
    if (rc)
        return c.total == 0 ? EXIT_USAGE : 130;
    if (csv_bad)
        return EXIT_USAGE;
    return c.failed ? EXIT_CHECK_FAILED : 0;
}
