/*
 * opt.c - the commands' option parser (see opt.h).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "cli/opt.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/log.h"
#include "base/types.h"

int opt_number(const char *opt, const char *text, uint64_t min, uint64_t max, uint64_t *out,
               char *err, size_t errlen)
{
    const char *s = text;
    int base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && s[2])
        base = 16, s += 2;
    bool ok = *s != 0;
    uint64_t v = 0;
    for (; ok && *s; s++) {
        int d = *s >= '0' && *s <= '9'                 ? *s - '0'
                : base == 16 && *s >= 'a' && *s <= 'f' ? *s - 'a' + 10
                : base == 16 && *s >= 'A' && *s <= 'F' ? *s - 'A' + 10
                                                       : -1;
        if (d < 0 || v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
            ok = false; /* not a digit, or overflow */
        else
            v = v * (uint64_t)base + (uint64_t)d;
    }
    if (!ok || v < min || v > max) {
        snprintf(err, errlen, "%s: '%s' is not a whole number from %llu to %llu", opt, text,
                 (unsigned long long)min, (unsigned long long)max);
        return -1;
    }
    *out = v;
    return 0;
}

int opt_check_input(const char *opt, const char *path, char *err, size_t errlen)
{
    struct stat st;
    if (stat(path, &st)) {
        snprintf(err, errlen, "%s %s: cannot open: %s", opt, path, strerror(errno));
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "%s %s: not a regular file", opt, path);
        return -1;
    }
    if (access(path, R_OK)) {
        snprintf(err, errlen, "%s %s: cannot open: %s", opt, path, strerror(errno));
        return -1;
    }
    return 0;
}

int opt_check_output(const char *opt, const char *path, char *err, size_t errlen)
{
    struct stat st;
    if (!*path) {
        snprintf(err, errlen, "%s: needs a file name", opt);
        return -1;
    }
    if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s %s: is a folder, expected a file name", opt, path);
        return -1;
    }
    char dir[4096];
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == path)
        snprintf(dir, sizeof dir, "/");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s %s: folder %s does not exist", opt, path, dir);
        return -1;
    }
    if (access(dir, W_OK | X_OK)) {
        snprintf(err, errlen, "%s %s: cannot write in %s: %s", opt, path, dir, strerror(errno));
        return -1;
    }
    return 0;
}

int opt_append(void *ctx, const char *name, const char *value, char *err, size_t errlen)
{
    struct opt_args *l = ctx;
    if (l->n == l->max) {
        snprintf(err, errlen, "too many %s options (at most %u)", name, l->max);
        return -1;
    }
    l->v[l->n++] = value;
    return 0;
}

int opt_apply(const struct opt *row, const char *value, char *err, size_t errlen)
{
    uint64_t u;
    switch (row->kind) {
    case OPT_FLAG:
        *(bool *)row->dst = true;
        return 0;
    case OPT_STR:
        if (!*value) {
            snprintf(err, errlen, "%s: needs a non-empty value", row->name);
            return -1;
        }
        *(const char **)row->dst = value;
        return 0;
    case OPT_U64:
    case OPT_UINT:
        if (opt_number(row->name, value, (uint64_t)row->min,
                       row->max >= 0x1p64 ? UINT64_MAX : (uint64_t)row->max, &u, err, errlen))
            return -1;
        if (row->kind == OPT_U64)
            *(uint64_t *)row->dst = u;
        else
            *(unsigned *)row->dst = (unsigned)u;
        return 0;
    case OPT_F64: {
        char *end;
        errno = 0;
        double d = strtod(value, &end);
        if (!*value || *end || errno || !isfinite(d) || d < row->min || d > row->max) {
            snprintf(err, errlen, "%s: '%s' is not a number from %g to %g", row->name, value,
                     row->min, row->max);
            return -1;
        }
        *(double *)row->dst = d;
        return 0;
    }
    case OPT_ENUM: {
        for (int i = 0; row->choices[i]; i++)
            if (!strcmp(row->choices[i], value)) {
                *(int *)row->dst = i;
                return 0;
            }
        size_t n = (size_t)snprintf(err, errlen, "%s: '%s' is not one of", row->name, value);
        for (int i = 0; row->choices[i] && n < errlen; i++)
            n += (size_t)snprintf(err + n, errlen - n, " %s", row->choices[i]);
        return -1;
    }
    case OPT_IN:
        if (opt_check_input(row->name, value, err, errlen))
            return -1;
        *(const char **)row->dst = value;
        return 0;
    case OPT_OUT:
        if (opt_check_output(row->name, value, err, errlen))
            return -1;
        *(const char **)row->dst = value;
        return 0;
    case OPT_CALL:
        return row->call(row->ctx, row->name, value, err, errlen);
    }
    return -1;
}

/* The row named by `arg` ("--name" or "--name=value"); *eq is the value after
 * '=' or NULL. */
static const struct opt *find_row(const struct opt *const *tables, const char *arg, const char **eq)
{
    const char *e = strchr(arg, '=');
    size_t n = e ? (size_t)(e - arg) : strlen(arg);
    for (const struct opt *const *t = tables; *t; t++)
        for (const struct opt *r = *t; r->name; r++)
            if ((strlen(r->name) == n && !strncmp(r->name, arg, n)) ||
                (r->alias && strlen(r->alias) == n && !strncmp(r->alias, arg, n))) {
                *eq = e ? e + 1 : NULL;
                return r;
            }
    /* a one-letter alias with its value attached: -j4 */
    if (arg[1] != '-' && arg[2])
        for (const struct opt *const *t = tables; *t; t++)
            for (const struct opt *r = *t; r->name; r++)
                if (r->kind != OPT_FLAG && r->alias && strlen(r->alias) == 2 &&
                    !strncmp(r->alias, arg, 2)) {
                    *eq = arg + 2;
                    return r;
                }
    return NULL;
}

int opt_take(const struct opt *const *tables, int argc, char **argv, int *i, char *err,
             size_t errlen)
{
    const char *value;
    const struct opt *r = find_row(tables, argv[*i], &value);
    if (!r)
        return 0;
    if (r->kind == OPT_FLAG && value) {
        snprintf(err, errlen, "%s takes no value", r->name);
        return -1;
    }
    if (r->kind != OPT_FLAG && !value) {
        if (*i + 1 >= argc) {
            snprintf(err, errlen, "%s needs a value", r->name);
            return -1;
        }
        value = argv[++*i];
    }
    return opt_apply(r, value ? value : "", err, errlen) ? -1 : 1;
}

int opt_parse(const char *cmd, const struct opt *const *tables, int argc, char **argv, int first,
              struct opt_args *pos, void (*usage)(FILE *))
{
    char err[1024];
    bool options_end = false;
    const struct opt *seen[64]; /* value options given so far: a second is an error */
    unsigned n_seen = 0;
    for (int i = first; i < argc; i++) {
        const char *a = argv[i];
        if (options_end || a[0] != '-' || !a[1]) {
            if (!pos || pos->n == pos->max) {
                snprintf(err, sizeof err, "unexpected argument '%s'", a);
                goto fail;
            }
            pos->v[pos->n++] = a;
            continue;
        }
        if (!strcmp(a, "--")) {
            options_end = true;
            continue;
        }
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        }
        const char *eq;
        const struct opt *row = find_row(tables, a, &eq);
        if (row && row->kind != OPT_FLAG && row->kind != OPT_CALL) {
            for (unsigned k = 0; k < n_seen; k++)
                if (seen[k] == row) {
                    snprintf(err, sizeof err, "%s given twice (it takes one value)", row->name);
                    goto fail;
                }
            if (n_seen < ARRAY_LEN(seen))
                seen[n_seen++] = row;
        }
        int taken = opt_take(tables, argc, argv, &i, err, sizeof err);
        if (taken < 0)
            goto fail;
        if (!taken) {
            snprintf(err, sizeof err, "unknown option '%s'", a);
            goto fail;
        }
    }
    return OPT_CONTINUE;
fail:;
    char esc[4 * sizeof err + 1];
    log_escape(err, esc, sizeof esc);
    fprintf(stderr, "gpucoh %s: %s\n(gpucoh %s --help for usage)\n", cmd, esc, cmd);
    return EXIT_USAGE;
}
