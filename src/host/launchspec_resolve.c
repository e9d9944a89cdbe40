/*
 * launchspec_resolve.c - resolving a parsed launch spec: its PTX modules
 * and data files are read, symbols and constants checked, each launch's
 * scalar arguments matched against its kernel's parameters.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "host/launchspec_int.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/file.h"
#include "ptx/ptx.h"

/* ---- resolving: PTX and data files ---- */

static int resolve_error(char *err, size_t errlen, const struct launchspec *s, int line,
                         const char *fmt, ...) PRINTF_LIKE(5, 6);
static int resolve_error(char *err, size_t errlen, const struct launchspec *s, int line,
                         const char *fmt, ...)
{
    int n = snprintf(err, errlen, "%s:%d: ", s->filename, line);
    va_list ap;
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < errlen)
        vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

static int check_file_source(const struct launchspec *s, const struct lspec_source *src,
                             const char *name, enum lspec_type type, uint64_t count, int line,
                             char *err, size_t errlen)
{
    if (src->kind != LSPEC_FILL_FILE)
        return 0;
    struct stat st;
    if (stat(src->path, &st))
        return resolve_error(err, errlen, s, line, "cannot open %s: %s", src->path,
                             strerror(errno));
    if (!S_ISREG(st.st_mode))
        return resolve_error(err, errlen, s, line,
                             "%s is not a regular file (a data file of "
                             "raw elements is expected)",
                             src->path);
    long size = (long)st.st_size;
    uint64_t want = count * lspec_type_bytes[type];
    if (size < 0 || (uint64_t)size != want)
        return resolve_error(err, errlen, s, line,
                             "%s has %ld bytes but %s needs %llu (%llu %s elements)", src->path,
                             size, name, (unsigned long long)want, (unsigned long long)count,
                             lspec_type_names[type]);
    return 0;
}

/* The module-level variable (.const or .global) a symbol line names: in
 * exactly one of the spec's modules, with room for what the line writes. */
static int resolve_symbol(const struct launchspec *s, const struct lspec_symbol *y,
                          const struct ptx_var **found, char *err, size_t errlen)
{
    const struct ptx_var *c = NULL;
    unsigned in = 0;
    for (unsigned j = 0; j < s->n_modules; j++) {
        const struct ptx_var *here = ptx_module_const(s->modules[j].mod, y->name);
        if (!here)
            here = ptx_module_global(s->modules[j].mod, y->name);
        if (here && c)
            return resolve_error(err, errlen, s, y->line,
                                 "'%s' is a variable of both %s and %s: which one is set cannot "
                                 "be told",
                                 y->name, s->modules[in].path, s->modules[j].path);
        if (here) {
            c = here;
            in = j;
        }
    }
    if (!c)
        return resolve_error(err, errlen, s, y->line,
                             "no __constant__ (.const) or __device__ (.global) variable named "
                             "'%s' in the PTX",
                             y->name);
    uint64_t esz = lspec_type_bytes[y->type];
    if ((y->first + y->count) * esz > c->bytes)
        return resolve_error(
            err, errlen, s, y->line,
            "%s elements %llu..%llu (%s) end at byte %llu, past the %u bytes "
            "of '%s' (%s:%u)",
            y->name, (unsigned long long)y->first, (unsigned long long)(y->first + y->count - 1),
            lspec_type_names[y->type], (unsigned long long)((y->first + y->count) * esz), c->bytes,
            y->name, s->modules[in].path, c->line);
    *found = c;
    return 0;
}

/* In file order: every symbol line names a variable that exists, and every
 * launch's kernel reads only __constant__ variables that have contents, from
 * the PTX's initialiser or a symbol line above the launch. Zeros nobody wrote
 * are no kernel's input: a launch that would read them is refused. */
static int check_constants(const struct launchspec *s, char *err, size_t errlen)
{
    const struct ptx_var **set = xcalloc(s->n_symbols, sizeof *set);
    unsigned n_set = 0;
    int rc = 0;
    for (unsigned i = 0; i < s->n_steps && !rc; i++) {
        const struct lspec_step *st = &s->steps[i];
        if (st->kind == LSPEC_SYMBOL) {
            rc = resolve_symbol(s, &s->symbols[st->index], &set[n_set], err, errlen);
            n_set++;
            continue;
        }
        if (st->kind != LSPEC_LAUNCH)
            continue;
        const struct lspec_launch *l = &s->launches[st->index];
        const struct ptx_kernel *k = NULL;
        const char *path = NULL;
        for (unsigned j = 0; j < s->n_modules && !k; j++)
            if ((k = ptx_module_kernel(s->modules[j].mod, l->kernel)))
                path = s->modules[j].path;
        for (unsigned r = 0; k && r < ptx_kernel_n_consts(k) && !rc; r++) {
            const struct ptx_var *c = ptx_kernel_const(k, r);
            bool written = c->initialised;
            for (unsigned q = 0; q < n_set && !written; q++)
                written = set[q] == c;
            if (!written)
                rc = resolve_error(err, errlen, s, l->line,
                                   "kernel %s reads __constant__ '%s' (%s:%u), which the PTX "
                                   "does not initialise and no 'symbol %s ...' line above sets",
                                   l->kernel, c->name, path, c->line, c->name);
        }
    }
    free(set);
    return rc;
}

/* Whether parameter k of kernel `name` is declared floating ('f'), integer or
 * bits ('i'), or cannot be told ('?'), from the .entry's parameter list in the
 * PTX text: ptx_kernel_info gives sizes only, and a float passed to an integer
 * parameter (or the reverse) would silently pass the wrong bits. */
static char param_kind(const char *ptx, const char *name, unsigned k)
{
    size_t nl = strlen(name);
    for (const char *p = strstr(ptx, ".entry"); p; p = strstr(p + 6, ".entry")) {
        const char *q = p + 6;
        while (*q == ' ' || *q == '\t')
            q++;
        if (strncmp(q, name, nl))
            continue;
        q += nl;
        while (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r')
            q++;
        if (*q != '(')
            continue;
        /* the k-th comma-separated declaration before ')' */
        for (unsigned i = 0; i < k; i++) {
            q = strpbrk(q + 1, ",)");
            if (!q || *q == ')')
                return '?';
        }
        const char *end = strpbrk(q + 1, ",)");
        if (!end)
            return '?';
        for (const char *t = q; t + 3 < end; t++)
            if (t[0] == '.' && t[1] == 'f' && (t[2] == '3' || t[2] == '6' || t[2] == '1'))
                return 'f';
        return 'i';
    }
    return '?';
}

/* Turn a scalar argument into a karg of the parameter's size (and kind). */
static int resolve_scalar(const struct launchspec *s, const struct lspec_launch *l, unsigned k,
                          struct lspec_arg *a, uint32_t psize, char kind, char *err, size_t errlen)
{
    int t = a->type;
    if (t < 0) {
        if (kind == 'i' && a->val.is_float)
            return resolve_error(err, errlen, s, l->line,
                                 "kernel %s: argument %u is %g but parameter %u is an integer",
                                 l->kernel, k + 1, a->val.f, k + 1);
        bool f = kind == 'f' || (kind == '?' && a->val.is_float);
        if (psize == 4)
            t = f ? LSPEC_F32 : LSPEC_U32;
        else if (psize == 8)
            t = f ? LSPEC_F64 : LSPEC_U64;
        else
            return resolve_error(err, errlen, s, l->line,
                                 "kernel %s: parameter %u is %u bytes; only 4- and 8-byte scalar "
                                 "and pointer parameters can be passed",
                                 l->kernel, k + 1, psize);
    } else if (lspec_type_bytes[t] != psize) {
        return resolve_error(err, errlen, s, l->line,
                             "kernel %s: argument %u is %s (%u bytes) but parameter %u is %u bytes",
                             l->kernel, k + 1, lspec_type_names[t], lspec_type_bytes[t], k + 1,
                             psize);
    }
    struct lspec_val v = a->val;
    if (!type_is_float((enum lspec_type)t) && v.is_float)
        return resolve_error(err, errlen, s, l->line,
                             "kernel %s: argument %u is %g but parameter %u is an integer (%s)",
                             l->kernel, k + 1, v.f, k + 1, lspec_type_names[t]);
    if (t == LSPEC_U32 || t == LSPEC_S32) {
        if (v.i < INT32_MIN || v.i > (int64_t)UINT32_MAX)
            return resolve_error(err, errlen, s, l->line,
                                 "kernel %s: argument %u (%lld) does not fit in 32 bits", l->kernel,
                                 k + 1, (long long)v.i);
        a->karg = KARG_U32((uint32_t)v.i);
    } else if (t == LSPEC_U64 || t == LSPEC_S64) {
        a->karg = KARG_U64((uint64_t)v.i);
    } else if (t == LSPEC_F32) {
        a->karg = KARG_F32((float)as_f(v));
    } else {
        a->karg = KARG_F64(as_f(v));
    }
    return 0;
}

int launchspec_resolve(struct launchspec *s, char *err, size_t errlen)
{
    for (unsigned i = 0; i < s->n_modules; i++) {
        struct lspec_module *m = &s->modules[i];
        if (m->mod)
            continue;
        if (!m->text) {
            size_t len;
            if (!(m->text = file_read_text(m->path, &len)))
                return resolve_error(err, errlen, s, m->line, "cannot read %s: %s", m->path,
                                     errno == EISDIR ? "is a folder, expected a PTX file"
                                                     : strerror(errno));
            if (file_check_text(m->path, m->text, len, err, errlen))
                return -1; /* the PTX's own file:line */
        }
        if (!(m->mod = ptx_module_parse(m->text, m->path, err, errlen)))
            return -1; /* the PTX's own file:line */
        if (!*ptx_module_kernel_names(m->mod))
            return resolve_error(err, errlen, s, m->line, "%s defines no kernel (.entry)", m->path);
        /* launches name kernels: a name two modules define would be ambiguous */
        for (unsigned j = 0; j < i; j++)
            for (const char *const *n = ptx_module_kernel_names(m->mod); *n; n++)
                if (ptx_module_kernel(s->modules[j].mod, *n))
                    return resolve_error(err, errlen, s, m->line,
                                         "kernel '%s' of %s is already defined by %s (line %u)", *n,
                                         m->path, s->modules[j].path, s->modules[j].line);
    }
    for (unsigned i = 0; i < s->n_buffers; i++) {
        const struct lspec_buffer *b = &s->buffers[i];
        if (check_file_source(s, &b->init, b->name, b->type, b->count, b->line, err, errlen))
            return -1;
    }
    for (unsigned i = 0; i < s->n_checks; i++) {
        const struct lspec_buffer *b = &s->buffers[s->checks[i].buf];
        if (check_file_source(s, &s->checks[i].expect, b->name, b->type, b->count,
                              s->checks[i].line, err, errlen))
            return -1;
    }
    for (unsigned i = 0; i < s->n_symbols; i++) {
        const struct lspec_symbol *y = &s->symbols[i];
        if (check_file_source(s, &y->init, y->name, y->type, y->count, y->line, err, errlen))
            return -1;
    }
    for (unsigned i = 0; i < s->n_launches; i++) {
        struct lspec_launch *l = &s->launches[i];
        const struct ptx_kernel *k = NULL;
        const char *text = NULL;
        for (unsigned j = 0; j < s->n_modules && !k; j++)
            if ((k = ptx_module_kernel(s->modules[j].mod, l->kernel)))
                text = s->modules[j].text;
        if (!k) {
            char names[256] = "";
            size_t len = 0;
            for (unsigned j = 0; j < s->n_modules; j++)
                for (const char *const *n = ptx_module_kernel_names(s->modules[j].mod); *n; n++)
                    if (len + strlen(*n) + 3 < sizeof names)
                        len += (size_t)snprintf(names + len, sizeof names - len, "%s%s",
                                                len ? ", " : "", *n);
            return resolve_error(err, errlen, s, l->line,
                                 "no kernel named '%s' in the PTX (kernels: %s)", l->kernel,
                                 len ? names : "none");
        }
        if (ptx_kernel_unsupported(k))
            return resolve_error(err, errlen, s, l->line, "kernel %s cannot run: %s", l->kernel,
                                 ptx_kernel_unsupported(k));
        const struct ptx_kernel_info *ki = ptx_kernel_info(k);
        if (l->n_args != ki->n_params)
            return resolve_error(err, errlen, s, l->line,
                                 "kernel %s takes %u parameter%s, %u argument%s given", l->kernel,
                                 ki->n_params, ki->n_params == 1 ? "" : "s", l->n_args,
                                 l->n_args == 1 ? "" : "s");
        for (unsigned a = 0; a < l->n_args; a++) {
            struct lspec_arg *arg = &l->args[a];
            if (arg->kind == LSPEC_ARG_BUFFER) {
                if (ki->param_size[a] != 8)
                    return resolve_error(
                        err, errlen, s, l->line,
                        "kernel %s: argument %u is buffer %s (an 8-byte pointer) but parameter "
                        "%u is %u bytes",
                        l->kernel, a + 1, s->buffers[arg->buf].name, a + 1, ki->param_size[a]);
            } else if (resolve_scalar(s, l, a, arg, ki->param_size[a],
                                      param_kind(text, l->kernel, a), err, errlen)) {
                return -1;
            }
        }
    }
    if (check_constants(s, err, errlen))
        return -1;
    s->resolved = true;
    return 0;
}
