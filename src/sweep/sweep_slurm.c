/*
 * sweep_slurm.c - `gpucoh sweep SPEC --slurm`: the sweep as a Slurm job
 * array, for a cluster. gpucoh writes no scheduler of its own: Slurm runs
 * the tasks, and each task is the ordinary sweep runner restricted to one
 * run (`gpucoh sweep SPEC --out DIR --run-index I`), so it writes the run's
 * JSON whole, its .err and .ident, into the same folder a local sweep uses,
 * and skips a run already finished with an unchanged identity: the array can
 * be resubmitted after a failure, and a local sweep and `--collect` read
 * the same files (docs/sweep.md).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <errno.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/file.h"
#include "sweep/sweep.h"

extern char **environ;

/* s as one shell word: in single quotes, each ' written as '\'' */
static void shell_word(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'')
            fputs("'\\''", f);
        else
            fputc(*s, f);
    }
    fputc('\'', f);
}

/* A path made absolute against the current folder (the file need not exist
 * yet: the output folder may not). */
static void absolute(const char *path, char *buf, size_t n)
{
    char cwd[PATH_MAX];
    if (path[0] == '/' || !getcwd(cwd, sizeof cwd))
        snprintf(buf, n, "%s", path);
    else
        snprintf(buf, n, "%s/%s", cwd, path);
}

/* An #SBATCH value must be one line (it is written into the script). */
static bool one_line(const char *what, const char *v)
{
    if (v && strpbrk(v, "\n\r")) {
        fprintf(stderr, "gpucoh sweep: %s: the value must be one line\n", what);
        return false;
    }
    return true;
}

int sweep_slurm_write(const struct sweep_spec *s, const struct sweep_slurm_opts *o, char *path,
                      size_t n)
{
    unsigned runs = sweep_distinct_runs(s);
    if (!runs) {
        fprintf(stderr, "gpucoh sweep: %s: no runs to submit\n", o->spec_path);
        return -1;
    }
    if (!one_line("--partition", o->partition) || !one_line("--time", o->time) ||
        !one_line("--mem", o->mem))
        return -1;
    char exe[PATH_MAX], spec[PATH_MAX + 256], out[PATH_MAX + 256], cwd[PATH_MAX],
        dir[PATH_MAX + 300];
    if (o->exe) {
        absolute(o->exe, exe, sizeof exe);
    } else {
        ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (len < 0) {
            fprintf(stderr, "gpucoh sweep: cannot find this gpucoh's path: %s\n", strerror(errno));
            return -1;
        }
        exe[len] = 0;
    }
    absolute(o->spec_path, spec, sizeof spec);
    absolute(o->out_dir, out, sizeof out);
    if (!getcwd(cwd, sizeof cwd))
        snprintf(cwd, sizeof cwd, ".");
    snprintf(dir, sizeof dir, "%s/slurm", out);
    if (sweep_mkdir_p(dir)) {
        fprintf(stderr, "gpucoh sweep: cannot make %s: %s\n", dir, strerror(errno));
        return -1;
    }
    const char *base = strrchr(spec, '/');
    base = base ? base + 1 : spec;

    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    fprintf(f,
            "#!/bin/bash\n"
            "# %s as a Slurm job array, written by gpucoh sweep or repro --slurm (docs/sweep.md).\n"
            "# Task I runs the sweep's distinct run I (row I+1 of results.csv) into the\n"
            "# sweep's folder; a run already finished is skipped, so resubmitting this\n"
            "# script runs only what is left. Then: %s.\n",
            base, o->then ? o->then : "gpucoh sweep SPEC --collect --out DIR");
    if (o->job_name)
        fprintf(f, "#SBATCH --job-name=gpucoh-%s\n", o->job_name);
    else
        fprintf(f, "#SBATCH --job-name=gpucoh-%.*s\n", (int)strcspn(base, "."), base);
    fprintf(f, "#SBATCH --array=0-%u\n", runs - 1);
    fprintf(f, "#SBATCH --output=%s/%%A_%%a.out\n", dir);
    fprintf(f, "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n");
    if (o->partition)
        fprintf(f, "#SBATCH --partition=%s\n", o->partition);
    if (o->time)
        fprintf(f, "#SBATCH --time=%s\n", o->time);
    if (o->mem)
        fprintf(f, "#SBATCH --mem=%s\n", o->mem);
    fprintf(f, "cd ");
    shell_word(f, cwd);
    fprintf(f, " || exit 2\nexec ");
    shell_word(f, exe);
    fprintf(f, " sweep ");
    shell_word(f, spec);
    fprintf(f, " --out ");
    shell_word(f, out);
    if (o->size)
        fprintf(f, " --size %s", o->size);
    if (o->timeout_s > 0)
        fprintf(f, " --timeout %g", o->timeout_s);
    if (o->skip_missing)
        fprintf(f, " --skip-missing");
    fprintf(f, " --run-index \"$SLURM_ARRAY_TASK_ID\"\n");
    fclose(f);
    snprintf(path, n, "%s/sweep.sbatch", dir);
    int rc = write_file_atomic(path, text);
    free(text);
    if (rc) {
        fprintf(stderr, "gpucoh sweep: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}

int sweep_slurm_submit(const char *script)
{
    char *argv[] = {"sbatch", (char *)script, NULL};
    pid_t pid;
    fflush(NULL);
    int err = posix_spawnp(&pid, "sbatch", NULL, NULL, argv, environ);
    if (err) {
        fprintf(stderr,
                "gpucoh sweep: cannot run sbatch: %s (the script is %s: submit it where Slurm "
                "runs, or use --dry-run)\n",
                strerror(err), script);
        return 127;
    }
    int wst;
    while (waitpid(pid, &wst, 0) < 0)
        if (errno != EINTR)
            return 127;
    return WIFEXITED(wst) ? WEXITSTATUS(wst) : 128 + WTERMSIG(wst);
}
