/*
 * oracle.c - speed of the memory-model oracle: the verdicts of every test of
 * the in-tree suite (litmus/ptx) under PTX v7.5 and v6.0, computed on one
 * core, compared with the reference verdicts as it goes; then the same for
 * the retry-loop family (tests/litmus/progress, forward-progress-shaped
 * tests of exchange, CAS and add-until loops, verdicts derived by hand).
 * Prints the candidates, the partial executions pruned and the time per
 * model and set, and any disagreement.
 * Target (issue 13): all verdicts of the shipped suite in under a minute;
 * (issue 41) each test of the family well under a second.
 * Measured (release build, one core of the 2-core development machine):
 * 239 tests under v7.5 and again under v6.0, 5,313 candidate executions
 * each (11,585 before the coherence-chain pruning, 7,037 before pruning
 * partial executions, 6,839 when only partial reads-from was pruned),
 * 0.8 to 1.5 s in all;
 * 238 + 109 verdicts equal the reference ones. The family: 11 tests, 144
 * candidate executions per model, 20 ms per model (before: ten of the
 * eleven refused after a million candidates or at the unroll bound).
 * usage: bench-oracle [SUITE_DIR [FAMILY_DIR]]
 *        (default: the source tree's litmus/ptx and tests/litmus/progress)
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "check/litmus_ref.h"
#include "check/oracle.h"

static char *files[1024]; /* the .litmus files of the set being judged */
static unsigned n_files;

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void walk(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char p[PATH_MAX];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        struct stat st;
        size_t n = strlen(e->d_name);
        if (!stat(p, &st) && S_ISDIR(st.st_mode))
            walk(p);
        else if (n > 7 && !strcmp(e->d_name + n - 7, ".litmus") && n_files < 1024)
            files[n_files++] = strdup(p);
    }
    closedir(d);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Judge every test of one set under both PTX models; returns the
 * disagreements with the reference verdicts. */
static unsigned judge_set(const char *label, const struct litmus_refs *refs, double *total)
{
    static struct litmus_test t;
    const enum oracle_model models[2] = {OM_PTX, OM_PTX6};
    char err[1024];
    unsigned bad = 0;
    for (unsigned mi = 0; mi < 2; mi++) {
        unsigned judged = 0, agree = 0, unparsed = 0, refused = 0;
        uint64_t cands = 0, pruned = 0;
        double t0 = now();
        for (unsigned i = 0; i < n_files; i++) {
            if (litmus_parse_file(files[i], &t, err, sizeof err)) {
                unparsed++;
                continue;
            }
            struct oracle_result r;
            if (oracle_judge(&t, models[mi], NULL, &r, err, sizeof err)) {
                printf("  %s: %s\n", oracle_model_names[models[mi]], err);
                refused++;
                continue;
            }
            judged++;
            cands += r.n_candidates;
            pruned += r.n_partial_pruned;
            struct litmus_ref ref;
            litmus_refs_lookup(refs, files[i], &ref);
            int want = mi == 0 ? ref.verdict : ref.verdict6;
            int got = oracle_verdict(&t, &r);
            if (want >= 0 && want == got)
                agree++;
            else if (want >= 0) {
                printf("  DISAGREE %s %s: oracle %d, reference %d\n",
                       oracle_model_names[models[mi]], files[i], got, want);
                bad++;
            }
            oracle_result_free(&r);
        }
        double dt = now() - t0;
        *total += dt;
        printf("%-6s %-5s %u tests judged (%u agree with the reference), %u unparsed, %u refused, "
               "%llu candidate executions (%llu partial executions pruned), %.3f s\n",
               label, oracle_model_names[models[mi]], judged, agree, unparsed, refused,
               (unsigned long long)cands, (unsigned long long)pruned, dt);
    }
    for (unsigned i = 0; i < n_files; i++)
        free(files[i]);
    n_files = 0;
    return bad;
}

int main(int argc, char **argv)
{
    char dir[PATH_MAX], family[PATH_MAX + 32], err[1024];
    if (argc > 1)
        snprintf(dir, sizeof dir, "%s", argv[1]);
    else if (litmus_suite_dir(dir, sizeof dir)) {
        fprintf(stderr, "no litmus suite at %s\n", dir);
        return 2;
    }
    if (argc > 2)
        snprintf(family, sizeof family, "%s", argv[2]);
    else
        snprintf(family, sizeof family, "%s/../../tests/litmus/progress", dir);
    struct litmus_refs *refs = litmus_refs_load(err, sizeof err);
    if (!refs)
        fprintf(stderr, "%s (no cross-check)\n", err);
    double total = 0, fam_total = 0;
    walk(dir);
    qsort(files, n_files, sizeof *files, cmp_str);
    unsigned bad = judge_set("suite", refs, &total);
    walk(family);
    qsort(files, n_files, sizeof *files, cmp_str);
    bad += judge_set("loops", refs, &fam_total);
    printf("all verdicts: suite %.2f s, retry loops %.3f s on one core\n", total, fam_total);
    litmus_refs_free(refs);
    return bad ? 1 : 0;
}
