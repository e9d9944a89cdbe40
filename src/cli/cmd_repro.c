/*
 * cmd_repro.c - `gpucoh repro NAME | all | list`: run a reproduction (a
 * folder of data, repro/NAME/: docs/repro.md) through the sweep runner
 * and render it with the generic engine (src/report/repro.h), or run
 * every reproduction that is built and write the project's report.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "base/log.h"
#include "cli/cmd_sweep.h"
#include "host/workload.h"
#include "report/repro.h"
#include "report/repro_site.h"
#include "report/repro_store.h"
#include "sweep/sweep.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: gpucoh repro NAME [--size " WL_SIZE_USAGE "] [--out DIR] [-j N]\n"
            "                         [--timeout SECONDS] [--retry-failed] [--lint] [--store]\n"
            "                         [--time-limit SECONDS] [--progress] [--candidates]\n"
            "       gpucoh repro NAME --slurm [--partition P] [--time T] [--mem M] [--dry-run]\n"
            "                         [--size S] [--out DIR] [--timeout SECONDS]\n"
            "       gpucoh repro NAME --collect [--size S] [--out DIR]\n"
            "       gpucoh repro all [same options as NAME's first form]\n"
            "       gpucoh repro list\n"
            "\n"
            "Runs a reproduction: the folder repro/NAME/ holds the sweep of runs, the paper's\n"
            "numbers (paper.csv) and report.ini, which declares the paper's figures (metric,\n"
            "app set and baseline, designs, chart kind) and claims (an expression with the\n"
            "sentence of the paper it tests); docs/repro.md describes the format. The runs go\n"
            "through the sweep runner (resumable); the report prints the paper's numbers beside\n"
            "gpucoh's with the difference stated, a table per figure, and each claim marked\n"
            "holds / does not hold / cannot check, and for each of the paper's numbers the\n"
            "effect ratio ((gpucoh - 1) / (paper - 1): 1 the paper's effect, 0 none, negative\n"
            "the wrong direction); then every miss (a claim that does not hold, a number in\n"
            "the wrong direction or with an effect ratio outside 0.5-2) with the ablation\n"
            "that explains it (an [explain] entry: the number computed again in another\n"
            "sweep block, or in another unit from the same runs, e.g. traffic in flits;\n"
            "it explains only if it moves the number a tenth of the way to the paper's) or\n"
            "`unexplained`, the calibrations ([calibration]: a claim whose\n"
            "verdict flips when one is undone is flagged), and the scale check\n"
            "([scale_check]). The header and every table say the size. Into DIR:\n"
            "report.txt, summary.csv (set,protocol,\n"
            "speedup_hm,traffic_norm; then every paper number with gpucoh's, its effect\n"
            "ratio and direction), results.csv, figures.csv and\n"
            "plot-data.csv (what the plots show), one .svg and .png per figure (drawn by\n"
            "tools/plot_repro.py with Debian's python3-matplotlib), runs/.\n"
            "\n"
            "  NAME                a folder of repro/ (`gpucoh repro list` names them; tc is\n"
            "                      spec 002, Temporal Coherence; chopin is thesis Chapter 6,\n"
            "                      split-frame rendering, on the frames model)\n"
            "  all                 every reproduction that is built, each into DIR/NAME/, then\n"
            "                      DIR/index.html (open it in a browser: provenance, a\n"
            "                      scoreboard per paper, the headline table, then claims,\n"
            "                      numbers and plots per paper under the papers' design\n"
            "                      names; \"spec 00x\" linked to docs/papers.md's entry) and\n"
            "                      DIR/README.md; prints the headline table: every\n"
            "                      paper's headline numbers (repro/headlines.csv) beside\n"
            "                      gpucoh's or `not built`, the direction, the effect ratio,\n"
            "                      the size and the evidence for a miss\n"
            "  list                the reproductions, built or not\n"
            "  --size S            tiny (seconds: a smoke test), quick (2 minutes on 2 cores\n"
            "                      for tc: the README's demo), small (default; about 22 minutes\n"
            "                      for tc on 2 cores), paper (hours); frames runs (chopin)\n"
            "                      have one size and ignore it. A reproduction may run its own\n"
            "                      sweep file at a size (report.ini's sweep.SIZE, e.g. getm's\n"
            "                      paper.sweep), as written; --lint prints its run count\n"
            "  --out DIR           output folder (default repro-NAME-SIZE)\n"
            "  -j, --jobs N        runs at once (default 2)\n"
            "  --timeout SECONDS   stop a run that takes longer (recorded as failed)\n"
            "  --retry-failed      redo runs that failed before\n"
            "  --time-limit SECONDS\n"
            "                      stop after this long: the runs in progress are stopped\n"
            "                      and keep nothing, no report is made (exit 75); with\n"
            "                      --store the finished runs become a checkpoint\n"
            "  --progress          the sweep's status line with its ETA whenever runs finish,\n"
            "                      even when stderr is not a terminal (gpucoh sweep --help)\n"
            "  --lint              run nothing: check the declaration against the sweep and\n"
            "                      every claim on counterfactual data (a claim that cannot\n"
            "                      fail, or cannot hold, or says \"within N%%\" and is\n"
            "                      one-sided, is refused: report.ini:LINE, exit 2); the same\n"
            "                      checks run before every reproduction\n"
            "  --candidates        after the report, on stdout only: for every miss, each\n"
            "                      sweep block not declared as its [explain] that moves it a\n"
            "                      tenth of the way to the paper, at each value of each key\n"
            "                      it sweeps, computed as an [explain] naming it would be:\n"
            "                      ablations to study, not explanations (re-rendering stored\n"
            "                      runs with --out DIR reruns nothing)\n"
            "  --store             also keep the results with the code: repro/NAME/results/SIZE/\n"
            "                      (report.txt, summary.csv, figures.csv, plot-data.csv and\n"
            "                      provenance: size, gpucoh commit, date, wall time, host\n"
            "                      cores), replaced whole or not at all; with all, each\n"
            "                      reproduction's. The report says the size in its header and\n"
            "                      every table's title. Stopped with runs left (--time-limit,\n"
            "                      Ctrl-C), it keeps a checkpoint instead: every finished\n"
            "                      run, with the commit and build that made it, in\n"
            "                      repro/NAME/checkpoints/SIZE/. Every repro NAME --size SIZE\n"
            "                      starts from its size's checkpoint, so a reproduction longer\n"
            "                      than a sitting is run in parts, on any machine that builds\n"
            "                      the checkpoint's commit (docs/repro.md, \"Checkpoints\")\n"
            "\n"
            "On a Slurm cluster (docs/sweep.md; NAME only, not all):\n"
            "  --slurm             write DIR/slurm/sweep.sbatch, a job array of one task per run\n"
            "                      of the reproduction's sweep (task I runs `gpucoh sweep SWEEP\n"
            "                      --out DIR --size S --run-index I`, resumable), and submit it\n"
            "                      with sbatch\n"
            "  --partition P, --time T, --mem M\n"
            "                      the script's #SBATCH --partition, --time, --mem\n"
            "  --dry-run           write the script, do not submit it\n"
            "  --collect           run nothing: write DIR/results.csv from the runs finished so\n"
            "                      far; when every run has finished, the report as above (exit\n"
            "                      1 while any is missing, with how many)\n"
            "\n"
            "A reproduction is not built when its report.ini says built = no or its sweep\n"
            "names a protocol this gpucoh lacks; `repro NAME` still runs what exists (and\n"
            "names what it could not run), `repro all` lists it as not built. No number is\n"
            "ever filled in for what did not run.\n"
            "\nexit status: 0 done (whatever the numbers), 1 some run failed, 2 usage or a\n"
            "malformed declaration (file:line: what is wrong), 75 stopped at --time-limit\n"
            "with runs left, 130 interrupted\n");
}

static const char *root(void)
{
    const char *r = getenv("GPUCOH_ROOT");
    return r ? r : GPUCOH_SOURCE_DIR;
}

/* The folders of repro/ with a report.ini, sorted. */
static unsigned list_repros(char names[][RP_NAME], unsigned max)
{
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/repro", root());
    DIR *dp = opendir(dir);
    if (!dp)
        fatal("%s: cannot read the reproductions", dir);
    unsigned n = 0;
    for (struct dirent *de; (de = readdir(dp));) {
        char ini[4200 + 256 + 16];
        struct stat st;
        snprintf(ini, sizeof ini, "%s/%s/report.ini", dir, de->d_name);
        if (de->d_name[0] == '.' || stat(ini, &st) || n == max || strlen(de->d_name) >= RP_NAME)
            continue;
        memcpy(names[n++], de->d_name, strlen(de->d_name) + 1); /* shorter than RP_NAME */
    }
    closedir(dp);
    qsort(names, n, RP_NAME, (int (*)(const void *, const void *))strcmp);
    return n;
}

/* Load and check a reproduction; false with every error printed (the claim
 * lint reports each claim it refuses, one per line). */
static bool open_checked(struct repro *r, const char *name, const char *size)
{
    char dir[4200], err[8192];
    snprintf(dir, sizeof dir, "%s/repro/%s", root(), name);
    if (!repro_open(r, dir, size, err, sizeof err))
        return true;
    fflush(stdout);
    for (char *line = err, *nl; line; line = nl) {
        nl = strchr(line, '\n');
        if (nl)
            *nl++ = 0;
        char esc[4 * sizeof err + 1];
        log_escape(line, esc, sizeof esc);
        fprintf(stderr, "gpucoh: error: %s\n", esc);
    }
    repro_close(r);
    return false;
}

static void open_or_die(struct repro *r, const char *name, const char *size)
{
    if (!open_checked(r, name, size))
        exit(EXIT_USAGE);
}

/* Why a loaded reproduction is not built, or "" when it is. */
static void not_built(const struct repro *r, char *why, size_t n)
{
    why[0] = 0;
    if (!r->d.built)
        snprintf(why, n, "its report.ini says built = no");
    else if (r->spec.n_missing)
        snprintf(why, n, "needs protocol %s (%s:%u)", r->spec.missing[0].protocol, r->spec.path,
                 r->spec.missing[0].line);
}

/* --slurm: the reproduction's sweep as a Slurm job array (sweep_slurm.c),
 * submitted unless dry_run; --collect then renders it. */
static int slurm_one(const struct repro *r, const char *out, const char *size,
                     const struct sweep_exec_opts *eo, struct sweep_slurm_opts *so, bool dry_run)
{
    char then[4400];
    snprintf(then, sizeof then, "gpucoh repro %s --size %s --out %s --collect", r->d.name, size,
             out);
    so->spec_path = r->spec.path;
    so->out_dir = out;
    so->size = r->sweep_as_written ? NULL : size; /* a size's own sweep file runs as written */
    so->timeout_s = eo->timeout_s;
    so->skip_missing = true; /* as repro_open reads the sweep */
    so->then = then;
    so->job_name = r->d.name;
    char script[8192];
    if (sweep_slurm_write(&r->spec, so, script, sizeof script))
        return EXIT_USAGE;
    unsigned runs = sweep_distinct_runs(&r->spec);
    fprintf(stderr, "repro %s: %u runs as a job array (0-%u): %s\nthen: %s\n", r->d.name, runs,
            runs - 1, script, then);
    if (dry_run)
        return 0;
    int rc = sweep_slurm_submit(script);
    if (rc)
        fprintf(stderr, "gpucoh repro: sbatch %s exited %d\n", script, rc);
    return rc ? EXIT_USAGE : 0;
}

/* --lint: every declaration check and the claim lint, nothing run. */
static bool lint_one(const char *name, const char *size)
{
    static struct repro r;
    if (!open_checked(&r, name, size))
        return false;
    char why[256];
    not_built(&r, why, sizeof why);
    printf("repro %s: %u claims, each can hold and can fail; %u runs at size %s (%s)%s%s\n", name,
           r.d.n_claims, r.d.built ? sweep_distinct_runs(&r.spec) : 0, size,
           r.d.built ? r.sweep_file : "no sweep", why[0] ? "; not built: " : "", why);
    repro_close(&r);
    return true;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Run and render one reproduction; with store, keep its results in
 * repro/NAME/results/SIZE/ (docs/repro.md). With collect, run nothing:
 * render what a Slurm job array's tasks left in out, once all of it is there. */
static int run_one(struct repro *r, const char *out, const struct sweep_exec_opts *eo, FILE *report,
                   bool store, bool collect)
{
    double start = now_s();
    struct stat st;
    if (collect && (stat(out, &st) || !S_ISDIR(st.st_mode))) {
        fprintf(stderr, "gpucoh repro %s --collect: %s: no such folder (the --out of --slurm)\n",
                r->d.name, out);
        return EXIT_USAGE;
    }
    int rc = collect ? repro_collect(r, out) : repro_run(r, out, eo);
    if (rc == EXIT_USAGE && collect)
        fprintf(stderr, "gpucoh repro %s --collect: cannot write %s/results.csv\n", r->d.name, out);
    if ((rc == EXIT_UNFINISHED || rc == 130) && store) {
        char dest[4400], err[4600];
        int kept = repro_checkpoint_store(r, root(), dest, sizeof dest, err, sizeof err);
        if (kept < 0) {
            fprintf(stderr, "gpucoh repro %s: checkpoint not stored: %s\n", r->d.name, err);
            return EXIT_USAGE;
        }
        fprintf(stderr, "repro %s: stopped with runs left; the %d of %u finished kept in %s\n",
                r->d.name, kept, r->counts.total, dest);
    }
    if (rc)
        return rc;
    if (collect) {
        const struct sweep_counts *c = &r->counts;
        fprintf(stderr, "repro %s: %u runs: %u finished (%u failed), %u missing; %s/results.csv\n",
                r->d.name, c->total, c->skipped, c->failed, c->total - c->skipped, out);
        if (c->skipped < c->total) /* no report from part of the runs */
            return EXIT_CHECK_FAILED;
    }
    rc = repro_render(r);
    if (report && r->text)
        fputs(r->text, report);
    if (rc)
        return rc;
    if (store) {
        struct repro_store_info info = {.wall_s = now_s() - start, .jobs = eo->jobs};
        char dest[4400], err[4600];
        if (repro_store(r, root(), &info, dest, sizeof dest, err, sizeof err)) {
            fprintf(stderr, "gpucoh repro %s: results not stored: %s\n", r->d.name, err);
            return EXIT_USAGE;
        }
        fprintf(stderr, "repro %s: results stored in %s\n", r->d.name, dest);
    }
    return r->counts.failed ? EXIT_CHECK_FAILED : 0;
}

static int cmd_all(const char *out, const char *size, const struct sweep_exec_opts *eo, bool store,
                   const char *command)
{
    static char names[64][RP_NAME];
    unsigned n = list_repros(names, 64);
    struct repro_entry *e = calloc(n ? n : 1, sizeof *e);
    if (!e || sweep_mkdir_p(out))
        fatal("%s: cannot make the output folder", out);
    int worst = 0;
    double start = now_s();
    for (unsigned k = 0; k < n; k++) {
        e[k].r = calloc(1, sizeof *e[k].r);
        if (!e[k].r)
            abort();
        open_or_die(e[k].r, names[k], size);
        not_built(e[k].r, e[k].why, sizeof e[k].why);
        if (e[k].why[0]) {
            printf("repro %s: not built: %s\n", names[k], e[k].why);
            continue;
        }
        char dir[4400];
        snprintf(dir, sizeof dir, "%s/%s", out, names[k]);
        /* --time-limit is one limit for all of them, not one each */
        struct sweep_exec_opts o = *eo;
        if (eo->time_limit_s > 0) {
            o.time_limit_s = eo->time_limit_s - (now_s() - start);
            if (o.time_limit_s <= 0) { /* nothing to keep: no checkpoint either */
                e[k].unfinished = true;
                snprintf(e[k].why, sizeof e[k].why, "not started: the --time-limit ran out first");
                printf("repro %s: no report: %s\n", names[k], e[k].why);
                worst = MAX(worst, EXIT_UNFINISHED);
                continue;
            }
        }
        fprintf(stderr, "repro %s -> %s\n", names[k], dir);
        int rc = run_one(e[k].r, dir, &o, NULL, store, false);
        if (rc == 130)
            return rc;
        if (rc == EXIT_UNFINISHED) {
            e[k].unfinished = true;
            snprintf(e[k].why, sizeof e[k].why,
                     "stopped at --time-limit with runs left%s; the same command goes on",
                     store ? " (the finished ones kept as a checkpoint)" : "");
        }
        e[k].ran = e[k].r->text != NULL;
        if (rc > worst)
            worst = rc;
        if (!e[k].ran) {
            printf("repro %s: no report: %s\n", names[k],
                   e[k].why[0] ? e[k].why : "its runs could not be run");
            continue;
        }
        unsigned held = 0, failed = 0, unknown = 0;
        for (unsigned i = 0; i < e[k].r->d.n_claims; i++) {
            int h = e[k].r->claims[i].holds;
            held += h > 0, failed += h == 0, unknown += h < 0;
        }
        printf("repro %s: %u runs (%u failed); claims: %u hold, %u do not, %u cannot be "
               "checked; %s/report.txt\n",
               names[k], e[k].r->counts.total, e[k].r->counts.failed, held, failed, unknown, dir);
    }
    char headlines[4200], papers[4200], commit[160];
    snprintf(headlines, sizeof headlines, "%s/repro/headlines.csv", root());
    snprintf(papers, sizeof papers, "%s/docs/papers.md", root());
    repro_source_commit(root(), commit, sizeof commit);
    struct repro_site_info info = {.headlines = headlines,
                                   .papers = papers,
                                   .size = size,
                                   .command = command,
                                   .commit = commit};
    int rc = repro_site(out, &info, e, n, stdout);
    printf("\nfiles: %s/index.html (open it in a browser), %s/README.md\n", out, out);
    for (unsigned k = 0; k < n; k++) {
        repro_close(e[k].r);
        free(e[k].r);
    }
    free(e);
    return rc ? rc : worst;
}

int cmd_repro(int argc, char **argv)
{
    const char *which = NULL, *size = "small";
    bool lint = false, store = false, candidates = false;
    const struct opt rows[] = {
        OPT_FLAG_ROW("--lint", NULL, &lint),
        OPT_FLAG_ROW("--candidates", NULL, &candidates),
        OPT_FLAG_ROW("--store", NULL, &store),
        OPT_END,
    };
    struct sweep_cli cli;
    struct opt shared[SWEEP_CLI_ROWS];
    sweep_cli_rows(&cli, shared);
    struct opt_args pos = {&which, 0, 1};
    int parsed = opt_parse("repro", (const struct opt *const[]){rows, shared, NULL}, argc, argv, 1,
                           &pos, usage);
    if (parsed != OPT_CONTINUE)
        return parsed;
    if (cli.size >= 0)
        size = wl_size_names[cli.size];
    struct sweep_exec_opts eo = cli.exec;
    struct sweep_slurm_opts so = cli.slurm_opts;
    const char *out = cli.out;
    bool slurm = cli.slurm, dry_run = cli.dry_run, collect = cli.collect;
    if (!which) {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (candidates && (slurm || lint || !strcmp(which, "all") || !strcmp(which, "list")))
        fatal("repro: --candidates takes one reproduction's NAME and a run or --collect (it reads "
              "the report's misses)");
    if (slurm + collect + lint > 1 || ((slurm || collect) && store))
        fatal("repro: --slurm, --collect, --lint and --store do not go together (after --collect, "
              "`gpucoh repro NAME --out DIR --store` finds every run finished and stores the "
              "report)");
    sweep_cli_check("repro", &cli);
    if ((slurm || collect) && (!strcmp(which, "all") || !strcmp(which, "list")))
        fatal("repro %s: --slurm and --collect take one reproduction's NAME", which);
    static char names[64][RP_NAME];
    unsigned n = list_repros(names, 64);
    if (!strcmp(which, "list")) {
        for (unsigned k = 0; k < n; k++) {
            static struct repro r;
            open_or_die(&r, names[k], size);
            char why[256];
            not_built(&r, why, sizeof why);
            printf("%-10s %s%s%s\n", names[k], r.d.title, why[0] ? "; not built: " : "", why);
            repro_close(&r);
        }
        return 0;
    }
    if (lint && !strcmp(which, "all")) {
        bool ok = true;
        for (unsigned k = 0; k < n; k++)
            ok &= lint_one(names[k], size);
        return ok ? 0 : EXIT_USAGE;
    }
    char out_buf[256];
    if (!out) {
        snprintf(out_buf, sizeof out_buf, "repro-%s-%s", which, size);
        out = out_buf;
    }
    if (!strcmp(which, "all")) {
        char command[1024] = "gpucoh"; /* for the page's provenance */
        size_t len = strlen(command);
        for (int i = 0; i < argc && len < sizeof command; i++)
            len += (size_t)snprintf(command + len, sizeof command - len, " %s", argv[i]);
        return cmd_all(out, size, &eo, store, command);
    }
    bool known = false;
    for (unsigned k = 0; k < n && !known; k++)
        known = !strcmp(names[k], which);
    if (!known) {
        char list[1024] = "";
        size_t len = 0;
        for (unsigned k = 0; k < n && len < sizeof list; k++)
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", k ? ", " : "", names[k]);
        fatal("repro %s: no such reproduction (repro/%s/report.ini; known: %s, all, list)", which,
              which, list);
    }
    if (lint)
        return lint_one(which, size) ? 0 : EXIT_USAGE;
    static struct repro r;
    open_or_die(&r, which, size);
    if (!r.d.built)
        fatal("repro %s: not built (%s/report.ini says built = no)", which, r.d.dir);
    int rc = slurm ? slurm_one(&r, out, size, &eo, &so, dry_run)
                   : run_one(&r, out, &eo, stdout, store, collect);
    if (candidates && r.text && rc != EXIT_USAGE)
        repro_candidates(&r, stdout);
    repro_close(&r);
    return rc;
}
