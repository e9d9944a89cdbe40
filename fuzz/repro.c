/*
 * repro.c - fuzz harness of the reproduction declarations (repro/<paper>/
 * report.ini, docs/repro.md): repro_decl_load reads report.ini and the
 * paper's numbers it names. The loader reads a folder, so each input is written as report.ini into
 * a scratch folder that also holds a copy of repro/tc/paper.csv. SPDX-License-Identifier:
 * BSD-3-Clause
 */
#include <stdio.h>
#include <unistd.h>

#include "fuzz.h"
#include "report/repro.h"

static char dir[64];

static void put_file(const char *name, const char *text, size_t n)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(text, 1, n, f) != n || fclose(f))
        abort();
}

static void remove_dir(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd))
        fprintf(stderr, "fuzz-repro: could not remove %s\n", dir);
}

static void parse(const char *text)
{
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/tmp/gpucoh-fuzz-repro-%d", (int)getpid());
        char cmd[4096];
        snprintf(cmd, sizeof cmd, "mkdir -p %s && cp %s/repro/tc/paper.csv %s/", dir, fuzz_root(),
                 dir);
        if (system(cmd))
            abort();
        atexit(remove_dir);
    }
    put_file("report.ini", text, strlen(text));
    struct rp_decl *d = calloc(1, sizeof *d); /* large: not on the stack */
    char err[1024];
    if (!d)
        abort();
    if (!repro_decl_load(d, dir, err, sizeof err))
        repro_decl_free(d);
    free(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_one(data, size, parse);
    return 0;
}
