/*
 * launchspec.c - parse, resolve and run launch-spec files (launchspec.h,
 * format in docs/launch-spec.md): the type tables, loading and freeing a spec.
 * The work is done in five files sharing launchspec_int.h: launchspec_expr.c
 * (expressions and their evaluation), launchspec_lex.c (the line cursor and
 * the expression parser), launchspec_parse.c (the statements),
 * launchspec_resolve.c (PTX and data files) and launchspec_run.c (running a
 * spec against the host API).
 *
 * The parser is a cursor over one line at a time (comments stripped) with a
 * small recursive-descent expression language: integers (64-bit, wrapping)
 * and doubles, C operators and precedence, a few functions, `i` for the
 * element index and NAME[EXPR] / NAME.init[EXPR] for buffer elements.
 * Expected values of a check are computed in the checked buffer's type: for an
 * f32 buffer every floating operation is rounded to float, as the kernel's
 * own f32 arithmetic is (fma() is there for contracted multiply-adds).
 * INVARIANT: a parsed spec only names buffers, constants and functions that
 * exist; anything else was a file:line error.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "host/launchspec_int.h"

#include <stdlib.h>
#include <string.h>

#include "base/file.h"
#include "ptx/ptx.h"

#define X(n, s, b) s,
const char *const lspec_type_names[LSPEC_NTYPES] = {LSPEC_TYPES(X)};
#undef X
#define X(n, s, b) b,
const unsigned lspec_type_bytes[LSPEC_NTYPES] = {LSPEC_TYPES(X)};
#undef X

int launchspec_find_buffer(const struct launchspec *s, const char *name)
{
    for (unsigned i = 0; i < s->n_buffers; i++)
        if (!strcmp(s->buffers[i].name, name))
            return (int)i;
    return -1;
}

struct launchspec *launchspec_load(const char *path, char *err, size_t errlen)
{
    char *text = file_read_source(path, NULL, err, errlen);
    if (!text)
        return NULL;
    struct launchspec *s = launchspec_parse(text, path, NULL, err, errlen);
    free(text);
    if (s && launchspec_resolve(s, err, errlen)) {
        launchspec_free(s);
        return NULL;
    }
    return s;
}

void launchspec_free(struct launchspec *s)
{
    if (!s)
        return;
    for (unsigned i = 0; i < s->n_modules; i++) {
        free(s->modules[i].path);
        free(s->modules[i].text);
        if (s->modules[i].mod)
            ptx_module_free(s->modules[i].mod);
    }
    for (unsigned i = 0; i < s->n_buffers; i++) {
        free(s->buffers[i].name);
        lspec_free_source(&s->buffers[i].init);
        free(s->buffers[i].initial);
        free(s->buffers[i].current);
    }
    for (unsigned i = 0; i < s->n_launches; i++) {
        free(s->launches[i].kernel);
        free(s->launches[i].args);
    }
    for (unsigned i = 0; i < s->n_checks; i++)
        lspec_free_source(&s->checks[i].expect);
    for (unsigned i = 0; i < s->n_symbols; i++) {
        free(s->symbols[i].name);
        lspec_free_source(&s->symbols[i].init);
    }
    for (struct lspec_expr *x = s->exprs, *n; x; x = n) {
        n = x->next_alloc;
        free(x);
    }
    free(s->modules);
    free(s->buffers);
    free(s->launches);
    free(s->checks);
    free(s->prints);
    free(s->symbols);
    free(s->steps);
    free(s->filename);
    free(s->dir);
    free(s);
}
