/*
 * sweep_ident.c - the identity of a sweep run's result: what it was computed
 * from, so that a stored result is reused only while that is unchanged.
 *
 * A run's id (sweep_spec.c) names what the run does: workload, size,
 * protocol, settings, machine file as written. Its identity fingerprints
 * what its result depends on, in three parts:
 *   build     the fingerprint of the gpucoh build that runs the children:
 *             every file compiled or embedded into it and the compiler and
 *             flags (tools/source_fingerprint.cmake). A build with any change,
 *             committed or not, has another (the embedded PTX and the trace
 *             generator too); the same commit built again, on another machine
 *             or in another folder, has the same, so a sweep stored with the
 *             code resumes there (docs/sweep.md)
 *   config    the resolved configuration: every option's value after the
 *             machine file (the default one too) and the settings, and the
 *             contents of the files an option names (fcs.table; with %m,
 *             every file the pattern matches). A configuration that does not
 *             load (the run will fail with its message) is fingerprinted by
 *             the machine file's bytes and the settings instead.
 *   workload  the workload's embedded PTX (a launch spec: its text, its PTX
 *             and data files; a frames run: the game and seed,
 *             whose trace the binary generates)
 * The sweep writes DIR/runs/<id>.ident after each run and, on resuming,
 * reruns a stored run whose identity differs, naming the first part that
 * differs in this order (another build may resolve the same machine file
 * differently, with a new option or default, so it is named first); a result without an .ident (an
 * older gpucoh, or a sweep stopped between the child's exit and the write) is rerun too.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <errno.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>

#include "base/file.h"
#include "base/hash.h"
#include "coh/spandex/fcs_options.h"
#include "host/launchspec.h"
#include "host/workload.h"
#include "sweep/sweep.h"
#include "system/config.h"

const char *const sweep_ident_parts[SWEEP_IDENT_N] = {"build", "config", "workload"};
const char *const sweep_ident_reasons[SWEEP_IDENT_N + 1] = {
    "gpucoh build changed", "machine configuration changed", "workload changed",
    "no identity recorded"};

/* h updated with a file's bytes; -1 if it cannot be read. */
static int hash_file(uint64_t *h, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    char buf[1 << 16];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        *h = hash_fnv1a(*h, buf, n);
    int bad = ferror(f);
    fclose(f);
    return bad ? -1 : 0;
}

/* h updated with the names and contents of the files matching `pattern`,
 * each name without its first `base` characters (the folder the pattern was
 * rooted in: a checkout elsewhere names the same files). */
static uint64_t hash_glob(uint64_t h, const char *pattern, size_t base)
{
    glob_t g;
    if (glob(pattern, 0, NULL, &g))
        return hash_fnv1a(h, "-", 2); /* none: differs from any file */
    for (size_t i = 0; i < g.gl_pathc; i++) {
        const char *name = g.gl_pathv[i] + base;
        h = hash_fnv1a(h, name, strlen(name) + 1);
        if (hash_file(&h, g.gl_pathv[i]))
            h = hash_fnv1a(h, "?", 2);
    }
    globfree(&g);
    return h;
}

/* fcs.table's files: %m stands for each module's name, so every file the
 * pattern matches counts, from the current folder and from the project root
 * (where machine_run.c looks for a table missing from the current folder). */
static uint64_t hash_fcs_tables(uint64_t h, const char *table)
{
    char pattern[1024], rooted[4200];
    size_t k = 0;
    for (const char *t = table; *t && k + 2 < sizeof pattern; t++) {
        if (t[0] == '%' && t[1] == 'm') {
            pattern[k++] = '*';
            t++;
        } else {
            pattern[k++] = *t;
        }
    }
    pattern[k] = 0;
    h = hash_glob(h, pattern, 0);
    if (pattern[0] != '/') {
        const char *root = getenv("GPUCOH_ROOT");
        int n = snprintf(rooted, sizeof rooted, "%s/", root ? root : GPUCOH_SOURCE_DIR);
        if (n > 0 && (size_t)n < sizeof rooted) {
            snprintf(rooted + n, sizeof rooted - (size_t)n, "%s", pattern);
            h = hash_glob(h, rooted, (size_t)n);
        }
    }
    return h;
}

/* The run's settings after `first`, as the child applies them. */
static unsigned run_sets(const struct sweep_run *r, const char *first, const char **sets)
{
    unsigned n = 0;
    if (first)
        sets[n++] = first;
    for (unsigned i = 0; i < r->n_settings; i++)
        sets[n++] = r->settings[i];
    return n;
}

static uint64_t config_part(const struct sweep_run *r)
{
    const char *sets[SWEEP_MAX_SETTINGS + 1];
    char why[512];
    uint64_t h = HASH_FNV_INIT;
    if (r->model == SWEEP_FRAMES) {
        struct sfr_config c;
        unsigned n = run_sets(r, NULL, sets);
        if (!sfr_config_load(&c, r->config_file, sets, n, why, sizeof why))
            return cfg_fingerprint(sfr_opts, &c);
    } else {
        char proto[96];
        snprintf(proto, sizeof proto, "coherence.protocol=%s", r->protocol);
        unsigned n = run_sets(r, proto, sets);
        const char *file = r->config_file ? r->config_file : config_default_file();
        struct config *c = malloc(sizeof *c);
        if (!c)
            abort();
        int rc = config_load(c, file, sets, n, why, sizeof why);
        if (!rc) {
            h = cfg_fingerprint(config_options(), c);
            const struct fcs_spec *fcs = config_section(c, &fcs_options);
            if (fcs->table[0])
                h = hash_fcs_tables(h, fcs->table);
        }
        free(c);
        if (!rc)
            return h;
    }
    /* it does not load: the run fails; rerun it when its inputs change */
    const char *file = r->config_file             ? r->config_file
                       : r->model == SWEEP_MEMORY ? config_default_file()
                                                  : "";
    if (*file && hash_file(&h, file))
        h = hash_fnv1a(h, "?", 2);
    return hash_fnv1a(h, r->settings_text, strlen(r->settings_text) + 1);
}

static uint64_t workload_part(const struct sweep_run *r)
{
    uint64_t h = HASH_FNV_INIT;
    if (r->model == SWEEP_FRAMES) {
        h = hash_fnv1a(h, r->workload, strlen(r->workload) + 1);
        return hash_fnv1a(h, r->seed, strlen(r->seed) + 1);
    }
    if (r->spec_file) {
        /* a launch spec: its text, and every PTX and data file it reads */
        if (hash_file(&h, r->spec_file))
            return hash_fnv1a(h, "?", 2);
        char err[512];
        struct launchspec *ls = launchspec_load(r->spec_file, err, sizeof err);
        if (!ls) /* the run fails; rerun it when the spec changes */
            return hash_fnv1a(h, err, strlen(err) + 1);
        for (unsigned m = 0; m < ls->n_modules; m++)
            if (hash_file(&h, ls->modules[m].path))
                h = hash_fnv1a(h, "?", 2);
        for (unsigned b = 0; b < ls->n_buffers; b++)
            if (ls->buffers[b].init.path && hash_file(&h, ls->buffers[b].init.path))
                h = hash_fnv1a(h, "?", 2);
        launchspec_free(ls);
        return h;
    }
    const struct workload *w = wl_find(r->wl);
    if (*r->seed) /* a generated input's own seed (runs without one keep their idents) */
        h = hash_fnv1a(h, r->seed, strlen(r->seed) + 1);
    return w ? hash_fnv1a(h, w->ptx, strlen(w->ptx)) : h;
}

void sweep_ident_of(const struct sweep_run *r, uint64_t build, struct sweep_ident *id)
{
    id->part[SWEEP_IDENT_CONFIG] = config_part(r);
    id->part[SWEEP_IDENT_WORKLOAD] = workload_part(r);
    id->part[SWEEP_IDENT_BUILD] = build;
}

int sweep_ident_write(const char *path, const struct sweep_ident *id)
{
    char text[256];
    size_t len = 0;
    for (unsigned p = 0; p < SWEEP_IDENT_N; p++)
        len += (size_t)snprintf(text + len, sizeof text - len, "%s %016llx\n", sweep_ident_parts[p],
                                (unsigned long long)id->part[p]);
    return write_file_atomic(path, text);
}

int sweep_ident_compare(const char *path, const struct sweep_ident *now)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return SWEEP_IDENT_N;
    bool seen[SWEEP_IDENT_N] = {0};
    uint64_t stored[SWEEP_IDENT_N] = {0};
    char name[32];
    unsigned long long v;
    while (fscanf(f, "%31s %llx", name, &v) == 2)
        for (unsigned p = 0; p < SWEEP_IDENT_N; p++)
            if (!strcmp(name, sweep_ident_parts[p])) {
                seen[p] = true;
                stored[p] = v;
            }
    fclose(f);
    for (unsigned p = 0; p < SWEEP_IDENT_N; p++)
        if (!seen[p])
            return SWEEP_IDENT_N;
    for (unsigned p = 0; p < SWEEP_IDENT_N; p++)
        if (stored[p] != now->part[p])
            return (int)p;
    return -1;
}
