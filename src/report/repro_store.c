/*
 * repro_store.c - a reproduction's results kept beside its declaration
 * (`gpucoh repro NAME --size S --store`): repro/<name>/results/<size>/
 * holds report.txt, summary.csv, figures.csv, plot-data.csv and
 * `provenance` (the size, the gpucoh commit, the date, the wall time, the
 * host's cores), so that every number a README quotes has a size, a commit
 * and a date. The folder is written whole or not at all: into a temporary
 * folder beside it, then exchanged with the old one in one rename.
 *
 * A reproduction longer than one sitting (`--time-limit`, or any stop with
 * runs left) is kept as a checkpoint instead: repro/<name>/checkpoints/
 * <size>/ holds every finished run's files (its statistics compressed with
 * zstd, its identity, its failure record) and a provenance naming the commit
 * and build that made them. Every later `repro NAME --size S` takes those
 * runs into its output folder first; the sweep's identities decide which
 * still hold (docs/sweep.md), so a build of the same commit, on any machine,
 * goes on where the checkpoint stopped. The complete store drops the
 * checkpoint.
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

#include <zstd.h>

#include "base/build.h"
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
             "':(exclude,glob)repro/*/results/**' ':(exclude,glob)repro/*/checkpoints/**' "
             "2>/dev/null",
             root);
    p = popen(cmd, "r");
    char any[8] = "";
    bool dirty = p && fgets(any, sizeof any, p);
    if (p)
        pclose(p);
    snprintf(buf, n, "%s%s", line, dirty ? "-dirty" : "");
}

/* A stored result or checkpoint: plain files and a runs/ folder of them. */
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
        if (unlink(path) && errno == EISDIR)
            remove_tree(path);
    }
    closedir(dp);
    rmdir(dir);
}

/* Put the folder tmp at dest, the old one (if any) aside first and removed
 * after: whole or not at all. */
static int swap_into_place(const char *tmp, const char *dest, const char *old, char *err,
                           size_t errlen)
{
    struct stat st;
    bool had = !stat(dest, &st);
    if (had && rename(dest, old)) {
        snprintf(err, errlen, "%s: cannot move aside: %s", dest, strerror(errno));
        return -1;
    }
    if (rename(tmp, dest)) {
        snprintf(err, errlen, "%s: cannot rename into place: %s", dest, strerror(errno));
        if (had)
            rename(old, dest);
        return -1;
    }
    if (had)
        remove_tree(old);
    return 0;
}

/* The folder tmp, filled but for its provenance: write provenance (freed
 * here) into it, then put it at dest (swap_into_place); on failure remove
 * tmp. Returns 0, or -1 with what failed in err. */
static int seal_folder(const char *tmp, const char *dest, const char *old, char *provenance,
                       char *err, size_t errlen)
{
    char to[4500];
    snprintf(to, sizeof to, "%s/provenance", tmp);
    int rc = write_file_atomic(to, provenance);
    if (rc)
        snprintf(err, errlen, "%s: cannot write", to);
    free(provenance);
    if (!rc)
        rc = swap_into_place(tmp, dest, old, err, errlen);
    if (rc)
        remove_tree(tmp);
    return rc;
}

/* Now, as provenance files write it: 2026-12-04T12:40:00Z. */
static void utc_now(char *buf, size_t n)
{
    time_t now = time(NULL);
    strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
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
    if (rc) {
        remove_tree(tmp);
        return -1;
    }
    char commit[160], date[64];
    repro_source_commit(root, commit, sizeof commit);
    utc_now(date, sizeof date);
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
            r->d.name, r->size, r->size, repro_numbers_size(r), commit, date, info->wall_s, run_s,
            longest_s, cores, info->jobs, r->counts.total, r->counts.ran, r->counts.failed);
    fclose(f);
    if (seal_folder(tmp, dest, old, text, err, errlen))
        return -1;
    /* the complete result supersedes a checkpoint of the same size */
    char ckpt[4400];
    snprintf(ckpt, sizeof ckpt, "%s/checkpoints/%s", r->d.dir, r->size);
    remove_tree(ckpt);
    snprintf(ckpt, sizeof ckpt, "%s/checkpoints", r->d.dir);
    rmdir(ckpt); /* when it was the last */
    return 0;
}

/* ---- checkpoints ---- */

static const char *const run_exts[] = {"ident", "err", "json"}; /* json last: compressed */

/* from's bytes into to, zstd-compressed (compress) or decompressed. */
static int zstd_copy(const char *from, const char *to, bool compress)
{
    size_t n;
    char *in = file_read_text(from, &n);
    if (!in)
        return -1;
    size_t cap = compress ? ZSTD_compressBound(n) : (size_t)ZSTD_getFrameContentSize(in, n);
    void *out = cap < (1u << 30) ? malloc(cap ? cap : 1) : NULL; /* CONTENTSIZE_ERROR too */
    size_t len = !out       ? 0
                 : compress ? ZSTD_compress(out, cap, in, n, 9)
                            : ZSTD_decompress(out, cap, in, n);
    int rc = !out || ZSTD_isError(len) || write_bytes_atomic(to, out, len) ? -1 : 0;
    free(in);
    free(out);
    return rc;
}

static int copy_file(const char *from, const char *to)
{
    size_t n;
    char *text = file_read_text(from, &n);
    int rc = !text || write_bytes_atomic(to, text, n) ? -1 : 0;
    free(text);
    return rc;
}

static bool exists(const char *path)
{
    struct stat st;
    return !stat(path, &st);
}

/* A provenance file's value of key, or "" (buf). */
static const char *provenance_value(const char *text, const char *key, char *buf, size_t n)
{
    buf[0] = 0;
    size_t k = strlen(key);
    for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
        if (!strncmp(l, key, k) && !strncmp(l + k, " = ", 3)) {
            snprintf(buf, n, "%.*s", (int)strcspn(l + k + 3, "\n"), l + k + 3);
            break;
        }
    return buf;
}

int repro_checkpoint_take(const struct repro *r, FILE *log)
{
    char dir[4400], prov[4500];
    snprintf(dir, sizeof dir, "%s/checkpoints/%s", r->d.dir, r->size);
    snprintf(prov, sizeof prov, "%s/provenance", dir);
    char *text = file_read_text(prov, NULL);
    if (!text)
        return 0;
    char runs[4400];
    snprintf(runs, sizeof runs, "%s/runs", r->out_dir);
    if (sweep_mkdir_p(runs)) {
        free(text);
        return -1;
    }
    unsigned taken = 0;
    for (unsigned i = 0; i < r->spec.n_runs; i++) {
        const char *id = r->spec.runs[i].id;
        if (!sweep_run_is_first(&r->spec, i))
            continue;
        char from[4700], to[4700];
        bool have = false, stored = false;
        for (unsigned e = 0; e < 3; e++) {
            snprintf(to, sizeof to, "%s/%s.%s", runs, id, run_exts[e]);
            have |= exists(to);
        }
        snprintf(from, sizeof from, "%s/runs/%s.ident", dir, id);
        stored = exists(from);
        if (have || !stored) /* the output folder's own run wins */
            continue;
        int bad = 0;
        for (unsigned e = 0; e < 3 && !bad; e++) {
            bool json = e == 2;
            snprintf(from, sizeof from, "%s/runs/%s.%s%s", dir, id, run_exts[e],
                     json ? ".zst" : "");
            snprintf(to, sizeof to, "%s/%s.%s", runs, id, run_exts[e]);
            if (exists(from))
                bad = json ? zstd_copy(from, to, false) : copy_file(from, to);
        }
        if (bad) {
            fprintf(stderr, "gpucoh repro %s: %s/runs/%s: cannot take it from the checkpoint\n",
                    r->d.name, dir, id);
            free(text);
            return -1;
        }
        taken++;
    }
    char commit[128], build[64], date[64];
    provenance_value(text, "commit", commit, sizeof commit);
    provenance_value(text, "build", build, sizeof build);
    provenance_value(text, "date", date, sizeof date);
    if (log && taken) {
        fprintf(log, "repro %s: %u runs taken from the checkpoint %s (commit %s, build %s, %s)\n",
                r->d.name, taken, dir, commit, build, date);
        if (strcmp(build, build_fingerprint()))
            fprintf(log,
                    "repro %s: this is build %s, not the checkpoint's: its runs are stale and run "
                    "again; to go on from them, build commit %s\n",
                    r->d.name, build_fingerprint(), commit);
    }
    free(text);
    return (int)taken;
}

int repro_checkpoint_store(const struct repro *r, const char *root, char *dest, size_t dest_len,
                           char *err, size_t errlen)
{
    char base[4200], tmp[4400], old[4400], runs[4500];
    snprintf(base, sizeof base, "%s/checkpoints", r->d.dir);
    snprintf(dest, dest_len, "%s/%s", base, r->size);
    snprintf(tmp, sizeof tmp, "%s/.%s.new-%ld", base, r->size, (long)getpid());
    snprintf(old, sizeof old, "%s/.%s.old-%ld", base, r->size, (long)getpid());
    snprintf(runs, sizeof runs, "%s/runs", tmp);
    if (sweep_mkdir_p(runs)) {
        snprintf(err, errlen, "%s: cannot make the folder", runs);
        return -1;
    }
    unsigned kept = 0, total = 0, failed = 0;
    double run_s = 0;
    int rc = 0;
    for (unsigned i = 0; i < r->spec.n_runs && !rc; i++) {
        if (!sweep_run_is_first(&r->spec, i))
            continue;
        total++;
        const char *id = r->spec.runs[i].id;
        char from[4700], to[4800];
        snprintf(from, sizeof from, "%s/runs/%s.ident", r->out_dir, id);
        /* a result of this build only: a stale run taken from an earlier
         * checkpoint that the sweep stopped before rerunning is left out */
        struct sweep_ident now;
        sweep_ident_of(&r->spec.runs[i], build_fingerprint_value(), &now);
        if (!r->res[i].finished || sweep_ident_compare(from, &now) >= 0)
            continue;
        for (unsigned e = 0; e < 3 && !rc; e++) {
            bool json = e == 2;
            snprintf(from, sizeof from, "%s/runs/%s.%s", r->out_dir, id, run_exts[e]);
            snprintf(to, sizeof to, "%s/%s.%s%s", runs, id, run_exts[e], json ? ".zst" : "");
            if (exists(from) && (json ? zstd_copy(from, to, true) : copy_file(from, to))) {
                snprintf(err, errlen, "%s: cannot copy to %s", from, to);
                rc = -1;
            }
        }
        kept++;
        failed += r->res[i].exit_status != 0;
        run_s += r->res[i].wall_seconds;
    }
    if (rc) {
        remove_tree(tmp);
        return -1;
    }
    char commit[160], date[64];
    repro_source_commit(root, commit, sizeof commit);
    utc_now(date, sizeof date);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    fprintf(f,
            "# A reproduction not yet finished: the runs finished so far (docs/repro.md,\n"
            "# \"Checkpoints\"). Every `gpucoh repro %s --size %s` takes them first; a\n"
            "# build of `commit` (its `gpucoh version` says build = `build`) goes on from\n"
            "# them, any other build reruns them:\n"
            "#   build/gpucoh repro %s --size %s --store --time-limit SECONDS\n"
            "[checkpoint]\n"
            "size = %s\n"
            "commit = %s\n"
            "build = %s\n"
            "date = %s\n"
            "runs = %u\n"
            "runs_finished = %u\n"
            "runs_failed = %u\n"
            "run_seconds = %.1f\n",
            r->d.name, r->size, r->d.name, r->size, r->size, commit, build_fingerprint(), date,
            total, kept, failed, run_s);
    fclose(f);
    return seal_folder(tmp, dest, old, text, err, errlen) ? -1 : (int)kept;
}
