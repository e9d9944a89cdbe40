/*
 * litmus_ref.c - the reference verdict tables of the in-tree suite (litmus/),
 * the verdict rules and the protocol -> promised model hook.
 *
 * Files read: expected/PTXv7_5-expected.csv, PTXv6_0-expected.csv and
 * PTXv7_5-Liveness-expected.csv ("litmus/PTX/<path>,<0|1>", '//' comments),
 * and index.csv (header, then one row per test; the features field is
 * quoted). These are cross-checks of the oracle (oracle.h), which judges.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "check/litmus_ref.h"

#include "coh/proto.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef GPUCOH_SOURCE_DIR
#define GPUCOH_SOURCE_DIR "."
#endif

const char *const litmus_check_names[5] = {"no verdict", "C forbidden", "not-C forbidden",
                                           "C allowed", "not-C allowed"};

static bool is_dir(const char *p)
{
    struct stat st;
    return !stat(p, &st) && S_ISDIR(st.st_mode);
}

int litmus_root_dir(char *buf, size_t len)
{
    snprintf(buf, len, "%s/litmus", GPUCOH_SOURCE_DIR);
    return is_dir(buf) ? 0 : -1;
}

int litmus_suite_dir(char *buf, size_t len)
{
    char s[PATH_MAX];
    if (litmus_root_dir(s, sizeof s))
        return -1;
    snprintf(buf, len, "%s/ptx", s);
    return is_dir(buf) ? 0 : -1;
}

struct ref_row {
    char rel[256];
    int verdict, verdict6, liveness, core;
    char features[160];
};

struct litmus_refs {
    char suite_real[PATH_MAX];
    unsigned n;
    struct ref_row rows[512];
};

static struct ref_row *row_for(struct litmus_refs *r, const char *rel)
{
    for (unsigned i = 0; i < r->n; i++)
        if (!strcmp(r->rows[i].rel, rel))
            return &r->rows[i];
    size_t len = strlen(rel);
    if (r->n == ARRAY_LEN(r->rows) || len >= sizeof r->rows[0].rel)
        return NULL;
    struct ref_row *w = &r->rows[r->n++];
    memset(w, 0, sizeof *w);
    memcpy(w->rel, rel, len + 1);
    w->verdict = w->verdict6 = w->liveness = w->core = -1;
    return w;
}

static char *chomp(char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' '))
        s[--n] = 0;
    return s;
}

/* expected/<file>: "litmus/PTX/<rel>,<0|1>". */
enum expected_file { EXP_V75, EXP_V60, EXP_LIVENESS };

static int load_expected(struct litmus_refs *r, const char *path, enum expected_file which,
                         char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    char line[1024];
    int ln = 0;
    static const char prefix[] = "litmus/PTX/";
    while (fgets(line, sizeof line, f)) {
        ln++;
        char *s = chomp(line);
        if (!*s || !strncmp(s, "//", 2))
            continue;
        char *comma = strrchr(s, ',');
        if (!comma || strncmp(s, prefix, sizeof prefix - 1) ||
            (strcmp(comma + 1, "0") && strcmp(comma + 1, "1"))) {
            snprintf(err, errlen, "%s:%d: expected 'litmus/PTX/PATH,0|1'", path, ln);
            fclose(f);
            return -1;
        }
        *comma = 0;
        struct ref_row *w = row_for(r, s + sizeof prefix - 1);
        if (!w) {
            snprintf(err, errlen, "%s:%d: too many rows, or a path over 255 bytes", path, ln);
            fclose(f);
            return -1;
        }
        int v = comma[1] - '0';
        if (which == EXP_LIVENESS)
            w->liveness = v;
        else if (which == EXP_V60)
            w->verdict6 = v;
        else
            w->verdict = v;
    }
    fclose(f);
    return 0;
}

/* index.csv: path,threads,instructions,"features",v6,v7.5,condition,l6,l7.5,ctas,gpus,core */
static int load_index(struct litmus_refs *r, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    char line[1024];
    int ln = 0;
    while (fgets(line, sizeof line, f)) {
        ln++;
        char *s = chomp(line);
        if (ln == 1 || !*s)
            continue;
        char *fields[16];
        int nf = 0;
        for (char *p = s; nf < 16;) {
            if (*p == '"') {
                char *q = strchr(p + 1, '"');
                if (!q)
                    break;
                *q = 0;
                fields[nf++] = p + 1;
                p = q + 1;
                if (*p == ',')
                    p++;
                else
                    break;
            } else {
                fields[nf++] = p;
                char *c = strchr(p, ',');
                if (!c)
                    break;
                *c = 0;
                p = c + 1;
            }
        }
        if (nf != 12) {
            snprintf(err, errlen, "%s:%d: expected 12 fields, got %d", path, ln, nf);
            fclose(f);
            return -1;
        }
        struct ref_row *w = row_for(r, fields[0]);
        if (!w) {
            snprintf(err, errlen, "%s:%d: too many rows, or a path over 255 bytes", path, ln);
            fclose(f);
            return -1;
        }
        snprintf(w->features, sizeof w->features, "%s", fields[3]);
        w->core = atoi(fields[11]);
    }
    fclose(f);
    return 0;
}

struct litmus_refs *litmus_refs_load(char *err, size_t errlen)
{
    char root[PATH_MAX], p[PATH_MAX + 64];
    if (litmus_root_dir(root, sizeof root)) {
        snprintf(err, errlen, "%s: the litmus suite folder is missing", root);
        return NULL;
    }
    struct litmus_refs *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    snprintf(p, sizeof p, "%s/ptx", root);
    if (!realpath(p, r->suite_real)) {
        snprintf(err, errlen, "%s: %s", p, strerror(errno));
        free(r);
        return NULL;
    }
    snprintf(p, sizeof p, "%s/expected/PTXv7_5-expected.csv", root);
    if (load_expected(r, p, EXP_V75, err, errlen))
        goto bad;
    snprintf(p, sizeof p, "%s/expected/PTXv6_0-expected.csv", root);
    if (load_expected(r, p, EXP_V60, err, errlen))
        goto bad;
    snprintf(p, sizeof p, "%s/expected/PTXv7_5-Liveness-expected.csv", root);
    if (load_expected(r, p, EXP_LIVENESS, err, errlen))
        goto bad;
    snprintf(p, sizeof p, "%s/index.csv", root);
    if (load_index(r, p, err, errlen))
        goto bad;
    return r;
bad:
    free(r);
    return NULL;
}

void litmus_refs_free(struct litmus_refs *r)
{
    free(r);
}

/* A test outside the shared suite (the project's own, under tests/litmus/)
 * takes its PTX verdict from expected.csv beside it: "file,verdict" rows,
 * in the suite's format. Returns false (no verdict) when there is none. */
static bool local_verdict(const char *real, struct litmus_ref *out)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", real);
    char *slash = strrchr(dir, '/');
    if (!slash)
        return false;
    const char *base = real + (slash - dir) + 1;
    strcpy(slash, "/expected.csv");
    FILE *f = fopen(dir, "r");
    if (!f)
        return false;
    char line[512];
    bool found = false;
    while (!found && fgets(line, sizeof line, f)) {
        char *comma = strchr(line, ',');
        if (line[0] == '/' || !comma)
            continue;
        *comma = 0;
        if (!strcmp(line, base)) {
            out->verdict = atoi(comma + 1);
            snprintf(out->rel, sizeof out->rel, "%s", base);
            found = true;
        }
    }
    fclose(f);
    return found;
}

bool litmus_refs_lookup(const struct litmus_refs *r, const char *path, struct litmus_ref *out)
{
    memset(out, 0, sizeof *out);
    out->verdict = out->verdict6 = out->liveness = out->core = -1;
    char real[PATH_MAX];
    if (!r || !realpath(path, real))
        return false;
    size_t n = strlen(r->suite_real);
    if (strncmp(real, r->suite_real, n) || real[n] != '/')
        return local_verdict(real, out);
    const char *rel = real + n + 1;
    for (unsigned i = 0; i < r->n; i++)
        if (!strcmp(r->rows[i].rel, rel)) {
            snprintf(out->rel, sizeof out->rel, "%s", rel);
            out->verdict = r->rows[i].verdict;
            out->verdict6 = r->rows[i].verdict6;
            out->liveness = r->rows[i].liveness;
            out->core = r->rows[i].core;
            snprintf(out->features, sizeof out->features, "%s", r->rows[i].features);
            return true;
        }
    snprintf(out->rel, sizeof out->rel, "%s", rel);
    return true;
}

enum litmus_check litmus_ptx_check(enum litmus_kind kind, int verdict)
{
    if (verdict < 0)
        return LCHK_NONE;
    switch (kind) {
    case LITMUS_EXISTS:
        return verdict ? LCHK_ALLOW_C : LCHK_FORBID_C;
    case LITMUS_NOT_EXISTS:
        return verdict ? LCHK_FORBID_C : LCHK_ALLOW_C;
    default:
        return verdict ? LCHK_FORBID_NOT_C : LCHK_ALLOW_NOT_C;
    }
}

/* Names that are not registered protocols but promise SC: the functional
 * mode executes one instruction at a time against one memory. */
static const char *const sc_names[] = {"functional", "sc", NULL};

const char *litmus_model_of(const char *protocol)
{
    const struct proto_desc *d = proto_find(protocol);
    if (d)
        return mem_model_names[d->model]; /* each names an oracle model (oracle.h) */
    for (const char *const *p = sc_names; *p; p++)
        if (!strcmp(*p, protocol))
            return "sc";
    return "ptx";
}
