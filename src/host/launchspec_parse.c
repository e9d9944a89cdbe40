/*
 * launchspec_parse.c - the launch-spec statements (ptx, let, buffer,
 * launch, check, print, symbol) and launchspec_parse(), which reads a spec
 * line by line (format in docs/launch-spec.md).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "host/launchspec_int.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A fill source: zeros | const(E) | iota[(S[, STEP])] | random(SEED[, LO, HI]) |
 * file(PATH) | values(E, ...) | = E. */
/* What parse_source allocated; every parser that gives up after it frees it. */
void lspec_free_source(struct lspec_source *src)
{
    free(src->path);
    free(src->values);
}

static bool parse_source(struct lp *lp, struct lspec_source *src, const char *what)
{
    char tmp[40];
    memset(src, 0, sizeof *src);
    /* "= EXPR", and "=" (or "==", natural in checks) before any other form */
    bool eq = lp_accept(lp, '=');
    if (eq)
        lp_accept(lp, '=');
    if (lp_keyword(lp, "zeros")) {
        src->kind = LSPEC_FILL_ZEROS;
        return true;
    }
    if (lp_keyword(lp, "const")) {
        src->kind = LSPEC_FILL_EXPR;
        if (!lp_expect(lp, '(', "const"))
            return false;
        if (!(src->expr = lp_parse_expr(lp)))
            return false;
        return lp_expect(lp, ')', "const(VALUE");
    }
    if (lp_keyword(lp, "iota")) {
        /* start + i * step */
        struct lspec_expr *start = NULL, *step = NULL;
        if (lp_accept(lp, '(')) {
            if (!(start = lp_parse_expr(lp)))
                return false;
            if (lp_accept(lp, ',') && !(step = lp_parse_expr(lp)))
                return false;
            if (!lp_expect(lp, ')', "iota(START[, STEP]"))
                return false;
        }
        struct lspec_expr *x = lp_node(lp, LX_INDEX);
        if (step) {
            struct lspec_expr *m = lp_node(lp, LX_MUL);
            m->a[0] = x;
            m->a[1] = step;
            x = m;
        }
        if (start) {
            struct lspec_expr *a = lp_node(lp, LX_ADD);
            a->a[0] = start;
            a->a[1] = x;
            x = a;
        }
        src->kind = LSPEC_FILL_EXPR;
        src->expr = x;
        return true;
    }
    if (lp_keyword(lp, "random")) {
        uint64_t seed;
        src->kind = LSPEC_FILL_RANDOM;
        if (!lp_expect(lp, '(', "random") ||
            !lp_const_uint(lp, "random seed", 0, UINT64_MAX, &seed))
            return false;
        src->seed = seed;
        if (lp_accept(lp, ',')) {
            src->has_range = true;
            if (!lp_const_expr(lp, &src->lo) || !lp_expect(lp, ',', "random(SEED, LO") ||
                !lp_const_expr(lp, &src->hi))
                return false;
            if (as_f(src->hi) < as_f(src->lo)) {
                lp_error(lp, "random range is empty: HI is below LO");
                return false;
            }
        }
        return lp_expect(lp, ')', "random(SEED[, LO, HI]");
    }
    if (lp_keyword(lp, "file")) {
        src->kind = LSPEC_FILL_FILE;
        if (!lp_expect(lp, '(', "file") || !(src->path = lp_parse_path(lp, ')')))
            return false;
        return lp_expect(lp, ')', "file(PATH");
    }
    if (lp_keyword(lp, "values")) {
        src->kind = LSPEC_FILL_VALUES;
        if (!lp_expect(lp, '(', "values"))
            return false;
        do {
            struct lspec_val v;
            if (!lp_const_expr(lp, &v))
                return false;
            PUSH(src->values, src->n_values, v);
        } while (lp_accept(lp, ','));
        return lp_expect(lp, ')', "values(V, ...");
    }
    if (eq) {
        src->kind = LSPEC_FILL_EXPR;
        return (src->expr = lp_parse_expr(lp)) != NULL;
    }
    lp_error(lp,
             "expected %s (zeros, const(V), iota, random(SEED), file(PATH), values(...) or "
             "= EXPR) but found %s",
             what, lp_next_desc(lp, tmp, sizeof tmp));
    return false;
}

static bool end_of_line(struct lp *lp, const char *what)
{
    char tmp[40];
    if (lp_at_end(lp))
        return true;
    lp_error(lp, "unexpected %s after %s", lp_next_desc(lp, tmp, sizeof tmp), what);
    return false;
}

static bool new_name(struct lp *lp, const char *name)
{
    if (lp_reserved(name)) {
        lp_error(lp, "'%s' is a reserved word and cannot name a buffer or constant", name);
        return false;
    }
    if (launchspec_find_buffer(lp->s, name) >= 0 || lp_find_const(lp, name) >= 0) {
        lp_error(lp, "'%s' is already defined", name);
        return false;
    }
    return true;
}

static void parse_ptx(struct lp *lp)
{
    struct lspec_module m = {.line = lp->line};
    if (!(m.path = lp_parse_path(lp, 0)))
        return;
    PUSH(lp->s->modules, lp->s->n_modules, m);
    end_of_line(lp, "the PTX file name");
}

static void parse_let(struct lp *lp)
{
    char name[64];
    struct lspec_val v;
    if (!lp_ident(lp, name, sizeof name)) {
        lp_error(lp, "expected a name after 'let'");
        return;
    }
    if (!new_name(lp, name) || !lp_expect(lp, '=', "let NAME") || !lp_const_expr(lp, &v) ||
        !end_of_line(lp, "the constant's value"))
        return;
    struct lp_const c = {xstrdup(name), v};
    PUSH(lp->consts, lp->n_consts, c);
}

/* values() constants must be what an element of type t can hold: an integer
 * type takes integers that fit its width, signed or unsigned (-1 is the all-
 * ones u8), rather than the low bytes of whatever was written. */
static bool values_fit(struct lp *lp, const struct lspec_source *src, enum lspec_type t)
{
    if (src->kind != LSPEC_FILL_VALUES || type_is_float(t))
        return true;
    unsigned bits = 8 * lspec_type_bytes[t];
    for (uint64_t k = 0; k < src->n_values; k++) {
        struct lspec_val v = src->values[k];
        if (v.is_float) {
            lp_error(lp, "values(): value %llu (%g) is not an integer, and the elements are %s",
                     (unsigned long long)k + 1, v.f, lspec_type_names[t]);
            return false;
        }
        if (bits < 64 && (v.i < -(INT64_C(1) << (bits - 1)) || v.i > (INT64_C(1) << bits) - 1)) {
            lp_error(lp, "values(): value %llu (%lld) does not fit in %s",
                     (unsigned long long)k + 1, (long long)v.i, lspec_type_names[t]);
            return false;
        }
    }
    return true;
}

static void parse_buffer(struct lp *lp)
{
    char name[64], type[16] = "", tmp[40];
    struct lspec_buffer b = {.line = lp->line};
    if (!lp_ident(lp, name, sizeof name)) {
        lp_error(lp, "expected a buffer name after 'buffer'");
        return;
    }
    if (!new_name(lp, name))
        return;
    if (!lp_ident(lp, type, sizeof type) || lp_find_type(type) < 0) {
        if (!lp->failed)
            lp_error(lp,
                     "expected an element type (u8 s8 u16 s16 u32 s32 u64 s64 f32 f64) "
                     "after the buffer name, found %s",
                     type[0] && lp_find_type(type) < 0 ? type : lp_next_desc(lp, tmp, sizeof tmp));
        return;
    }
    b.type = (enum lspec_type)lp_find_type(type);
    if (!lp_const_uint(lp, "element count", 1, LSPEC_MAX_BUFFER_BYTES / lspec_type_bytes[b.type],
                       &b.count))
        return;
    if (lp_at_end(lp)) {
        b.init.kind = LSPEC_FILL_ZEROS;
    } else {
        lp->refs = REFS_INIT;
        lp->refs_below = lp->s->n_buffers;
        lp->defining = name;
        bool ok = parse_source(lp, &b.init, "the initial contents");
        lp->refs = REFS_NONE;
        lp->defining = NULL;
        if (!ok || !end_of_line(lp, "the initial contents")) {
            lspec_free_source(&b.init);
            return;
        }
    }
    if (b.init.kind == LSPEC_FILL_VALUES && b.init.n_values != b.count) {
        lp_error(lp, "values() gives %llu values for %llu elements",
                 (unsigned long long)b.init.n_values, (unsigned long long)b.count);
        lspec_free_source(&b.init);
        return;
    }
    if (!values_fit(lp, &b.init, b.type)) {
        lspec_free_source(&b.init);
        return;
    }
    b.name = xstrdup(name);
    PUSH(lp->s->buffers, lp->s->n_buffers, b);
}

/* DIMS: E[, E[, E]] */
static bool parse_dims(struct lp *lp, const char *what, struct dim3 *d)
{
    uint64_t v[3] = {1, 1, 1};
    unsigned k = 0;
    do {
        if (k == 3) {
            lp_error(lp, "%s has more than 3 dimensions", what);
            return false;
        }
        /* CUDA's limits: grid x < 2^31, y and z <= 65535; block x, y <= 1024, z <= 64 */
        uint64_t max = what[0] == 'g' ? (k ? 65535 : INT32_MAX) : (k == 2 ? 64 : 1024);
        if (!lp_const_uint(lp, what, 1, max, &v[k++]))
            return false;
    } while (lp_accept(lp, ','));
    *d = DIM3((uint32_t)v[0], (uint32_t)v[1], (uint32_t)v[2]);
    return true;
}

/* One argument word: BUF | BUF+OFFSET | [label=][type:]CONST_EXPR */
static bool parse_arg(struct lp *lp, struct lspec_arg *a)
{
    char name[64], tmp[40];
    memset(a, 0, sizeof *a);
    a->type = -1;
    const char *start = lp->p;
    /* label= (documentation only) */
    if (lp_ident(lp, name, sizeof name) && *lp->p == '=' && lp->p[1] != '=')
        lp->p++;
    else
        lp->p = start;
    start = lp->p;
    if (lp_ident(lp, name, sizeof name)) {
        int t = lp_find_type(name);
        int b = launchspec_find_buffer(lp->s, name);
        if (t >= 0 && *lp->p == ':') {
            lp->p++;
            a->type = t;
        } else if (b >= 0 && (!*lp->p || *lp->p == '+' || *lp->p == ' ' || *lp->p == '\t')) {
            a->kind = LSPEC_ARG_BUFFER;
            a->buf = (unsigned)b;
            if (*lp->p == '+') {
                lp->p++;
                if (!lp_const_uint(lp, "buffer offset", 0, lp->s->buffers[b].count, &a->offset))
                    return false;
            }
            return true;
        } else {
            lp->p = start;
        }
    }
    a->kind = LSPEC_ARG_SCALAR;
    if (!lp_const_expr(lp, &a->val))
        return false;
    if (*lp->p && *lp->p != ' ' && *lp->p != '\t') {
        lp_error(lp, "unexpected %s in a kernel argument (arguments are separated by spaces)",
                 lp_next_desc(lp, tmp, sizeof tmp));
        return false;
    }
    if (a->type >= 0 && lspec_type_bytes[a->type] < 4) {
        lp_error(lp, "scalar arguments are 4 or 8 bytes wide (u32 s32 u64 s64 f32 f64)");
        return false;
    }
    return true;
}

static void parse_launch(struct lp *lp)
{
    char name[128];
    struct lspec_launch l = {.line = lp->line};
    bool has_grid = false, has_block = false, has_shared = false;
    if (!lp_ident(lp, name, sizeof name)) {
        lp_error(lp, "expected a kernel name after 'launch'");
        return;
    }
    for (;;) {
        if (lp_keyword(lp, "grid")) {
            if (has_grid) {
                lp_error(lp, "grid given twice");
                goto fail;
            }
            if (!parse_dims(lp, "grid", &l.grid))
                goto fail;
            has_grid = true;
        } else if (lp_keyword(lp, "block")) {
            if (has_block) {
                lp_error(lp, "block given twice");
                goto fail;
            }
            if (!parse_dims(lp, "block", &l.block))
                goto fail;
            has_block = true;
        } else if (lp_keyword(lp, "shared")) {
            uint64_t v;
            if (has_shared) {
                lp_error(lp, "shared given twice");
                goto fail;
            }
            if (!lp_const_uint(lp, "shared memory bytes", 0, UINT32_MAX, &v))
                goto fail;
            l.shared_bytes = (uint32_t)v;
            has_shared = true;
        } else if (lp_keyword(lp, "on")) {
            if (lp_keyword(lp, "cpu")) {
                l.on_cpu = true;
            } else if (!lp_keyword(lp, "gpu")) {
                char tmp[40];
                lp_error(lp, "expected cpu or gpu after 'on' but found %s",
                         lp_next_desc(lp, tmp, sizeof tmp));
                goto fail;
            }
        } else if (lp_accept(lp, '&')) {
            l.together = true;
            if (!lp_at_end(lp)) {
                lp_error(lp, "'&' ends a launch line (it runs with the next launch)");
                goto fail;
            }
            break;
        } else if (lp_keyword(lp, "args")) {
            /* each space-separated word is one argument, parsed on its own so
             * that "1 -1" is two arguments, not 1 - 1 */
            while (!lp_at_end(lp)) {
                char word[256];
                struct lspec_arg a;
                size_t n = strcspn(lp->p, " \t\r");
                if (n >= sizeof word) {
                    lp_error(lp, "kernel argument '%.20s...' is too long", lp->p);
                    goto fail;
                }
                memcpy(word, lp->p, n);
                word[n] = 0;
                const char *rest = lp->p + n;
                if (!strcmp(word, "&")) {
                    lp->p = rest;
                    l.together = true;
                    if (!lp_at_end(lp)) {
                        lp_error(lp, "'&' ends a launch line (it runs with the next launch)");
                        goto fail;
                    }
                    break;
                }
                lp->p = word;
                bool ok = parse_arg(lp, &a);
                lp->p = rest;
                if (!ok)
                    goto fail;
                PUSH(l.args, l.n_args, a);
            }
            break;
        } else if (lp_at_end(lp)) {
            break;
        } else {
            char tmp[40];
            lp_error(lp, "expected grid, block, shared, on, args or & but found %s",
                     lp_next_desc(lp, tmp, sizeof tmp));
            goto fail;
        }
    }
    if (!has_grid || !has_block) {
        lp_error(lp, "launch needs both 'grid' and 'block'");
        goto fail;
    }
    if ((uint64_t)l.block.x * l.block.y * l.block.z > 1024) {
        lp_error(lp, "block (%u,%u,%u) has more than 1024 threads", l.block.x, l.block.y,
                 l.block.z);
        goto fail;
    }
    if (l.on_cpu && (uint64_t)l.block.x * l.block.y * l.block.z != 1) {
        lp_error(lp, "a launch on the CPU runs one thread per core: block must be 1 (the grid "
                     "counts the threads)");
        goto fail;
    }
    unsigned dev = l.on_cpu ? 2u : 1u;
    if (lp->together_devices & dev) {
        lp_error(lp,
                 "this launch runs together with line %d's on the same device (one kernel "
                 "per device at a time: add 'on cpu' to one of them)",
                 lp->together_line);
        goto fail;
    }
    if (l.together) {
        lp->together_devices |= dev;
        lp->together_line = lp->line;
    } else {
        lp->together_devices = 0;
        lp->together_line = 0;
    }
    l.kernel = xstrdup(name);
    PUSH(lp->s->launches, lp->s->n_launches, l);
    struct lspec_step st = {LSPEC_LAUNCH, lp->s->n_launches - 1};
    PUSH(lp->s->steps, lp->s->n_steps, st);
    return;
fail:
    free(l.args);
}

static bool buffer_name(struct lp *lp, const char *after, unsigned *buf)
{
    char name[64];
    if (!lp_ident(lp, name, sizeof name)) {
        lp_error(lp, "expected a buffer name after '%s'", after);
        return false;
    }
    int b = launchspec_find_buffer(lp->s, name);
    if (b < 0) {
        lp_error(lp, "unknown buffer '%s'", name);
        return false;
    }
    *buf = (unsigned)b;
    return true;
}

static void parse_check(struct lp *lp)
{
    struct lspec_check c = {.line = lp->line};
    if (!buffer_name(lp, "check", &c.buf))
        return;
    lp->refs = REFS_ALL;
    bool ok = parse_source(lp, &c.expect, "the expected contents");
    lp->refs = REFS_NONE;
    if (!ok)
        goto fail;
    const struct lspec_buffer *b = &lp->s->buffers[c.buf];
    if (c.expect.kind == LSPEC_FILL_VALUES && c.expect.n_values != b->count) {
        lp_error(lp, "values() gives %llu values but %s has %llu elements",
                 (unsigned long long)c.expect.n_values, b->name, (unsigned long long)b->count);
        goto fail;
    }
    if (!values_fit(lp, &c.expect, b->type))
        goto fail;
    if (lp_keyword(lp, "tol")) {
        struct lspec_val v;
        if (!lp_const_expr(lp, &v))
            goto fail;
        c.tol = as_f(v);
        if (!(c.tol >= 0)) {
            lp_error(lp, "tolerance must be >= 0");
            goto fail;
        }
    }
    if (!end_of_line(lp, "the check"))
        goto fail;
    PUSH(lp->s->checks, lp->s->n_checks, c);
    struct lspec_step st = {LSPEC_CHECK, lp->s->n_checks - 1};
    PUSH(lp->s->steps, lp->s->n_steps, st);
    return;
fail:
    lspec_free_source(&c.expect);
}

static void parse_print(struct lp *lp)
{
    struct lspec_print pr = {.line = lp->line};
    if (!buffer_name(lp, "print", &pr.buf))
        return;
    const struct lspec_buffer *b = &lp->s->buffers[pr.buf];
    pr.count = b->count;
    if (!lp_at_end(lp)) {
        if (!lp_const_uint(lp, "first element", 0, b->count - 1, &pr.first))
            return;
        pr.count = b->count - pr.first;
        if (!lp_at_end(lp) &&
            !lp_const_uint(lp, "element count", 1, b->count - pr.first, &pr.count))
            return;
    }
    if (!end_of_line(lp, "print BUFFER [FIRST [COUNT]]"))
        return;
    PUSH(lp->s->prints, lp->s->n_prints, pr);
    struct lspec_step st = {LSPEC_PRINT, lp->s->n_prints - 1};
    PUSH(lp->s->steps, lp->s->n_steps, st);
}

/* symbol NAME[+K] TYPE COUNT [FILL] */
static void parse_symbol(struct lp *lp)
{
    char name[128], type[16] = "", tmp[40];
    struct lspec_symbol y = {.line = lp->line};
    if (!lp_ident(lp, name, sizeof name)) {
        lp_error(lp, "expected the name of a __constant__ or __device__ variable of the PTX "
                     "after 'symbol'");
        return;
    }
    if (*lp->p == '+') {
        lp->p++;
        if (!lp_const_uint(lp, "element offset", 0, LSPEC_MAX_BUFFER_BYTES, &y.first))
            return;
    }
    if (!lp_ident(lp, type, sizeof type) || lp_find_type(type) < 0) {
        if (!lp->failed)
            lp_error(lp,
                     "expected an element type (u8 s8 u16 s16 u32 s32 u64 s64 f32 f64) "
                     "after the symbol name, found %s",
                     type[0] && lp_find_type(type) < 0 ? type : lp_next_desc(lp, tmp, sizeof tmp));
        return;
    }
    y.type = (enum lspec_type)lp_find_type(type);
    if (!lp_const_uint(lp, "element count", 1, LSPEC_MAX_BUFFER_BYTES / lspec_type_bytes[y.type],
                       &y.count))
        return;
    if (lp_at_end(lp)) {
        y.init.kind = LSPEC_FILL_ZEROS;
    } else {
        lp->refs = REFS_INIT; /* the initial contents of the buffers above it */
        lp->refs_below = lp->s->n_buffers;
        bool ok = parse_source(lp, &y.init, "the symbol's contents");
        lp->refs = REFS_NONE;
        if (!ok || !end_of_line(lp, "the symbol's contents")) {
            lspec_free_source(&y.init);
            return;
        }
    }
    if (y.init.kind == LSPEC_FILL_VALUES && y.init.n_values != y.count) {
        lp_error(lp, "values() gives %llu values for %llu elements",
                 (unsigned long long)y.init.n_values, (unsigned long long)y.count);
        lspec_free_source(&y.init);
        return;
    }
    if (!values_fit(lp, &y.init, y.type)) {
        lspec_free_source(&y.init);
        return;
    }
    y.name = xstrdup(name);
    PUSH(lp->s->symbols, lp->s->n_symbols, y);
    struct lspec_step st = {LSPEC_SYMBOL, lp->s->n_symbols - 1};
    PUSH(lp->s->steps, lp->s->n_steps, st);
}

static void parse_line(struct lp *lp)
{
    char word[32], tmp[40];
    if (lp_at_end(lp))
        return;
    if (!lp_ident(lp, word, sizeof word)) {
        lp_error(lp,
                 "expected a directive (ptx, let, buffer, symbol, launch, check, print) but "
                 "found %s",
                 lp_next_desc(lp, tmp, sizeof tmp));
        return;
    }
    if (!strcmp(word, "ptx"))
        parse_ptx(lp);
    else if (!strcmp(word, "let"))
        parse_let(lp);
    else if (!strcmp(word, "buffer"))
        parse_buffer(lp);
    else if (!strcmp(word, "launch"))
        parse_launch(lp);
    else if (lp->together_line && !strcmp(word, "symbol"))
        lp_error(lp,
                 "line %d's launch ends in '&': the launch it runs with must come before "
                 "this symbol line",
                 lp->together_line);
    else if (!strcmp(word, "symbol"))
        parse_symbol(lp);
    else if (lp->together_line && (!strcmp(word, "check") || !strcmp(word, "print")))
        lp_error(lp,
                 "line %d's launch ends in '&': the launch it runs with must come before "
                 "this %s",
                 lp->together_line, word);
    else if (!strcmp(word, "check"))
        parse_check(lp);
    else if (!strcmp(word, "print"))
        parse_print(lp);
    else
        lp_error(lp, "unknown directive '%s' (ptx, let, buffer, symbol, launch, check, print)",
                 word);
}

struct launchspec *launchspec_parse(const char *text, const char *filename, const char *dir,
                                    char *err, size_t errlen)
{
    struct launchspec *s = xcalloc(1, sizeof *s);
    s->filename = xstrdup(filename ? filename : "(spec)");
    if (dir) {
        s->dir = xstrdup(dir);
    } else {
        s->dir = xstrdup(s->filename);
        char *slash = strrchr(s->dir, '/');
        if (slash)
            *(slash == s->dir ? slash + 1 : slash) = 0;
        else
            s->dir[0] = 0;
    }
    struct lp lp = {.s = s, .err = err, .errlen = errlen};
    char *line = NULL;
    size_t cap = 0;
    for (const char *q = text; *q && !lp.failed;) {
        const char *eol = strchr(q, '\n');
        size_t n = eol ? (size_t)(eol - q) : strlen(q);
        lp.line++;
        if (n + 1 > cap) {
            cap = n + 1;
            line = xrealloc(line, cap);
        }
        memcpy(line, q, n);
        line[n] = 0;
        /* strip a comment, leaving '#' inside a quoted path alone */
        bool quoted = false;
        for (char *c = line; *c; c++) {
            if (*c == '"')
                quoted = !quoted;
            else if (*c == '#' && !quoted) {
                *c = 0;
                break;
            }
        }
        lp.p = line;
        parse_line(&lp);
        q = eol ? eol + 1 : q + n;
    }
    free(line);
    for (unsigned i = 0; i < lp.n_consts; i++)
        free(lp.consts[i].name);
    free(lp.consts);
    if (!lp.failed && lp.together_line) {
        lp.line = lp.together_line;
        lp_error(&lp, "the launch ends in '&' but no launch follows to run with it");
    }
    if (!lp.failed && !s->n_modules && s->n_launches) {
        lp.line = s->launches[0].line;
        lp_error(&lp, "launch before any 'ptx FILE' line: no kernels to launch");
    }
    if (lp.failed) {
        launchspec_free(s);
        return NULL;
    }
    return s;
}
