/*
 * repro_store.c - a reproduction's results kept beside its declaration
 * (`gpucoh repro NAME --size S --store`): repro/<name>/results/<size>/
 * holds report.txt, summary.csv, figures.csv, plot-data.csv and
 * `provenance` (the size, the gpucoh commit, the date, the wall time, the
 * host's cores), so that every number a README quotes has a size, a commit
 * and a date. The folder is written whole or not at all: into a temporary
 * folder beside it, then exchanged with the old one in one rename.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/file.h"
#include "base/types.h"
#include "report/repro_store.h"
#include "sweep/sweep.h"

/* The files of a stored result, copied from the reproduction's output. */
static const char *const stored_files[] = {"report.txt", "summary.csv", "figures.csv",
                                           "plot-data.csv"};

/* The source tree's commit, with "-dirty" when a tracked file other than
 * stored results differs from it (storing one result must not mark the
 * next one dirty); "unknown (not a git checkout)" without git. */
void repro_source_commit(const char *root, char *buf, size_t n)
{
    char cmd[4400], line[128] = "";
    snprintf(cmd, sizeof cmd, "git -C '%s' rev-parse --short=12 HEAD 2>/dev/null", root);
    FILE *p = popen(cmd, "r");
    bool ok = p && fgets(line, sizeof line, p) && line[0] != '\n';
    if (p)
        pclose(p);
    if (!ok) {
        snprintf(buf, n, "unknown (not a git checkout)");
        return;
    }
    line[strcspn(line, "\n")] = 0;
    snprintf(cmd, sizeof cmd,
             "git -C '%s' status --porcelain --untracked-files=no -- . "
             "':(exclude,glob)repro/*/results/**' 2>/dev/null",
             root);
    p = popen(cmd, "r");
    char any[8] = "";
    bool dirty = p && fgets(any, sizeof any, p);
    if (p)
        pclose(p);
    snprintf(buf, n, "%s%s", line, dirty ? "-dirty" : "");
}

static void remove_tree(const char *dir)
{
    DIR *dp = opendir(dir);
    if (!dp)
        return;
    for (struct dirent *de; (de = readdir(dp));) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        char path[4400];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        unlink(path); /* a stored result holds plain files only */
    }
    closedir(dp);
    rmdir(dir);
}

int repro_store(const struct repro *r, const char *root, const struct repro_store_info *info,
                char *dest, size_t dest_len, char *err, size_t errlen)
{
    char results[4200], tmp[4400], old[4400];
    snprintf(results, sizeof results, "%s/results", r->d.dir);
    snprintf(dest, dest_len, "%s/%s", results, r->size);
    snprintf(tmp, sizeof tmp, "%s/.%s.new-%ld", results, r->size, (long)getpid());
    snprintf(old, sizeof old, "%s/.%s.old-%ld", results, r->size, (long)getpid());
    if (sweep_mkdir_p(tmp)) {
        snprintf(err, errlen, "%s: cannot make the folder", tmp);
        return -1;
    }
    int rc = 0;
    for (unsigned i = 0; i < sizeof stored_files / sizeof stored_files[0] && !rc; i++) {
        char from[4400], to[4500];
        snprintf(from, sizeof from, "%s/%s", r->out_dir, stored_files[i]);
        snprintf(to, sizeof to, "%s/%s", tmp, stored_files[i]);
        char *text = file_read_text(from, NULL);
        rc = !text || write_file_atomic(to, text);
        if (rc)
            snprintf(err, errlen, "%s: cannot copy to %s", from, to);
        free(text);
    }
    if (!rc) {
        char commit[160], date[64];
        repro_source_commit(root, commit, sizeof commit);
        time_t now = time(NULL);
        strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        /* wall_seconds is this call's; a sweep resumed over several calls
         * reuses most runs, so each run's own wall time, kept in its result,
         * is what says how long the whole took */
        double run_s = 0, longest_s = 0;
        for (unsigned i = 0; i < r->spec.n_runs; i++)
            if (r->res[i].finished && r->res[i].has_stats) {
                run_s += r->res[i].wall_seconds;
                longest_s = MAX(longest_s, r->res[i].wall_seconds);
            }
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        fprintf(f,
                "# Where the numbers in this folder come from (docs/repro.md). Retake them with\n"
                "#   build/gpucoh repro %s --size %s --store\n"
                "[provenance]\n"
                "size = %s\n"
                "numbers_size = %s\n"
                "commit = %s\n"
                "date = %s\n"
                "wall_seconds = %.1f\n"
                "run_seconds = %.1f\n"
                "longest_run_seconds = %.1f\n"
                "host_cores = %ld\n"
                "jobs = %u\n"
                "runs = %u\n"
                "runs_run_now = %u\n"
                "runs_failed = %u\n",
                r->d.name, r->size, r->size, repro_numbers_size(r), commit, date, info->wall_s,
                run_s, longest_s, cores, info->jobs, r->counts.total, r->counts.ran,
                r->counts.failed);
        fclose(f);
        char to[4500];
        snprintf(to, sizeof to, "%s/provenance", tmp);
        rc = write_file_atomic(to, text);
        if (rc)
            snprintf(err, errlen, "%s: cannot write", to);
        free(text);
    }
    /* into place: the old folder, if any, moves aside first and goes after */
    struct stat st;
    bool had = !stat(dest, &st);
    if (!rc && had && rename(dest, old)) {
        snprintf(err, errlen, "%s: cannot move aside: %s", dest, strerror(errno));
        rc = -1;
    }
    if (!rc && rename(tmp, dest)) {
        snprintf(err, errlen, "%s: cannot rename into place: %s", dest, strerror(errno));
        if (had)
            rename(old, dest);
        rc = -1;
    }
    if (rc)
        remove_tree(tmp);
    else if (had)
        remove_tree(old);
    return rc ? -1 : 0;
}
