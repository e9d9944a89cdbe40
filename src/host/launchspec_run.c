/*
 * launchspec_run.c - running a resolved launch spec against the host
 * API: buffers filled from their sources, launches, symbol writes, checks of
 * expected values (the first mismatches shown) and prints, and dumping a
 * buffer to a file.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "host/launchspec_int.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"

/* ---- running ---- */

/* Fill `out` (count elements of type t) from a source. */
static void fill(const struct launchspec *s, const struct lspec_source *src, enum lspec_type t,
                 uint64_t count, uint8_t *out, int line)
{
    size_t bytes = count * lspec_type_bytes[t];
    switch (src->kind) {
    case LSPEC_FILL_ZEROS:
        memset(out, 0, bytes);
        break;
    case LSPEC_FILL_EXPR: {
        struct lx_env e = {.s = s, .f32 = t == LSPEC_F32, .line = line};
        for (uint64_t i = 0; i < count; i++) {
            e.i = i;
            lspec_elem_set(t, out, i, lx_eval(src->expr, &e));
        }
        break;
    }
    case LSPEC_FILL_VALUES:
        for (uint64_t i = 0; i < count; i++)
            lspec_elem_set(t, out, i, src->values[i]);
        break;
    case LSPEC_FILL_RANDOM: {
        struct rng r;
        rng_seed(&r, src->seed, 0);
        if (type_is_float(t)) {
            double lo = src->has_range ? as_f(src->lo) : 0.0;
            double hi = src->has_range ? as_f(src->hi) : 1.0;
            for (uint64_t i = 0; i < count; i++) {
                double u = (double)(rng_next(&r) >> 11) * 0x1.0p-53;
                lspec_elem_set(t, out, i, vflt(lo + (hi - lo) * u));
            }
        } else {
            unsigned bits = 8 * lspec_type_bytes[t];
            int64_t lo, hi;
            if (src->has_range) {
                lo = src->lo.is_float ? (int64_t)src->lo.f : src->lo.i;
                hi = src->hi.is_float ? (int64_t)src->hi.f : src->hi.i;
            } else if (type_is_signed(t)) {
                lo = bits == 64 ? INT64_MIN : -(1ll << (bits - 1));
                hi = bits == 64 ? INT64_MAX : (1ll << (bits - 1)) - 1;
            } else {
                lo = 0;
                hi = bits == 64 ? -1 : (int64_t)((1ull << bits) - 1);
            }
            uint64_t span = (uint64_t)hi - (uint64_t)lo + 1; /* 0: the whole 64-bit range */
            for (uint64_t i = 0; i < count; i++) {
                uint64_t u = span ? rng_below(&r, span) : rng_next(&r);
                lspec_elem_set(t, out, i, vint((int64_t)((uint64_t)lo + u)));
            }
        }
        break;
    }
    case LSPEC_FILL_FILE: {
        FILE *f = fopen(src->path, "rb");
        if (!f || fread(out, 1, bytes, f) != bytes)
            fatal("%s:%d: cannot read %llu bytes from %s", s->filename, line,
                  (unsigned long long)bytes, src->path);
        fclose(f);
        break;
    }
    }
}

static void format_elem(char *buf, size_t len, enum lspec_type t, const uint8_t *p, uint64_t i)
{
    struct lspec_val v = lspec_elem_get(t, p, i);
    if (t == LSPEC_F32)
        snprintf(buf, len, "%.9g", v.f);
    else if (t == LSPEC_F64)
        snprintf(buf, len, "%.17g", v.f);
    else if (t == LSPEC_U64)
        snprintf(buf, len, "%llu", (unsigned long long)v.i);
    else
        snprintf(buf, len, "%lld", (long long)v.i);
}

static bool elem_matches(enum lspec_type t, const uint8_t *exp, const uint8_t *got, uint64_t i,
                         double tol)
{
    struct lspec_val e = lspec_elem_get(t, exp, i), g = lspec_elem_get(t, got, i);
    if (!type_is_float(t)) {
        if (e.i == g.i)
            return true;
        if (tol <= 0)
            return false;
        double d = fabs((double)e.i - (double)g.i);
        return d <= tol || d <= tol * fabs((double)e.i);
    }
    if (isnan(e.f) || isnan(g.f))
        return isnan(e.f) && isnan(g.f);
    if (e.f == g.f)
        return true;
    double d = fabs(e.f - g.f);
    return tol > 0 && (d <= tol || d <= tol * fabs(e.f));
}

static void read_back(struct launchspec *s, struct host *h)
{
    for (unsigned i = 0; i < s->n_buffers; i++) {
        struct lspec_buffer *b = &s->buffers[i];
        host_memcpy_from_dev(h, b->current, b->dev, b->count * lspec_type_bytes[b->type]);
    }
}

#define LSPEC_SHOW_MISMATCHES 8

static bool run_check(struct launchspec *s, struct host *h, const struct lspec_check *c, FILE *out)
{
    struct lspec_buffer *b = &s->buffers[c->buf];
    size_t esz = lspec_type_bytes[b->type];
    uint8_t *exp = xcalloc(b->count, esz);
    read_back(s, h);
    fill(s, &c->expect, b->type, b->count, exp, c->line);
    uint64_t bad = 0;
    for (uint64_t i = 0; i < b->count; i++) {
        if (elem_matches(b->type, exp, b->current, i, c->tol))
            continue;
        if (bad++ < LSPEC_SHOW_MISMATCHES) {
            char e[40], g[40];
            format_elem(e, sizeof e, b->type, exp, i);
            format_elem(g, sizeof g, b->type, b->current, i);
            if (bad == 1)
                fprintf(out, "%s:%d: check %s FAILED\n", s->filename, c->line, b->name);
            fprintf(out, "  %s[%llu]: expected %s, got %s\n", b->name, (unsigned long long)i, e, g);
        }
    }
    free(exp);
    if (bad) {
        fprintf(out, "  %llu of %llu elements differ\n", (unsigned long long)bad,
                (unsigned long long)b->count);
        return false;
    }
    fprintf(out, "%s:%d: check %s ok (%llu element%s)\n", s->filename, c->line, b->name,
            (unsigned long long)b->count, b->count == 1 ? "" : "s");
    return true;
}

static void run_print(struct launchspec *s, struct host *h, const struct lspec_print *p, FILE *out)
{
    struct lspec_buffer *b = &s->buffers[p->buf];
    read_back(s, h);
    fprintf(out, "%s[%llu..%llu]:", b->name, (unsigned long long)p->first,
            (unsigned long long)(p->first + p->count - 1));
    for (uint64_t i = p->first; i < p->first + p->count; i++) {
        char v[40];
        format_elem(v, sizeof v, b->type, b->current, i);
        fprintf(out, " %s", v);
    }
    fputc('\n', out);
}

static void run_launch(struct launchspec *s, struct host *h, const struct lspec_launch *l,
                       FILE *out)
{
    struct karg *args = xcalloc(l->n_args, sizeof *args);
    for (unsigned a = 0; a < l->n_args; a++) {
        const struct lspec_arg *arg = &l->args[a];
        if (arg->kind == LSPEC_ARG_BUFFER) {
            const struct lspec_buffer *b = &s->buffers[arg->buf];
            args[a] = KARG_PTR(b->dev + arg->offset * lspec_type_bytes[b->type]);
        } else {
            args[a] = arg->karg;
        }
    }
    fprintf(out, "%s:%d: launch %s%s grid (%u,%u,%u) block (%u,%u,%u)%s\n", s->filename, l->line,
            l->kernel, l->on_cpu ? " on cpu" : "", l->grid.x, l->grid.y, l->grid.z, l->block.x,
            l->block.y, l->block.z, l->together ? " &" : "");
    fflush(out);
    host_launch_on(h, l->on_cpu ? HOST_CPU : HOST_GPU, l->together, l->kernel, l->grid, l->block,
                   l->shared_bytes, args, l->n_args);
    free(args);
}

/* A symbol line: the host's cudaMemcpyToSymbol. */
static void run_symbol(struct launchspec *s, struct host *h, const struct lspec_symbol *y,
                       FILE *out)
{
    size_t esz = lspec_type_bytes[y->type];
    uint8_t *bytes = xcalloc(y->count, esz);
    fill(s, &y->init, y->type, y->count, bytes, y->line);
    host_memcpy_to_symbol(h, y->name, y->first * esz, bytes, y->count * esz);
    free(bytes);
    fprintf(out, "%s:%d: symbol %s set (%llu %s element%s from element %llu)\n", s->filename,
            y->line, y->name, (unsigned long long)y->count, lspec_type_names[y->type],
            y->count == 1 ? "" : "s", (unsigned long long)y->first);
}

int launchspec_run(struct launchspec *s, struct host *h, FILE *out)
{
    char err[512];
    if (!s->resolved && launchspec_resolve(s, err, sizeof err))
        fatal("%s", err);
    for (unsigned i = 0; i < s->n_modules; i++)
        host_load_ptx(h, s->modules[i].text, s->modules[i].path);
    for (unsigned i = 0; i < s->n_buffers; i++) {
        struct lspec_buffer *b = &s->buffers[i];
        size_t bytes = b->count * lspec_type_bytes[b->type];
        b->initial = xcalloc(b->count, lspec_type_bytes[b->type]);
        b->current = xcalloc(b->count, lspec_type_bytes[b->type]);
        fill(s, &b->init, b->type, b->count, b->initial, b->line);
        b->dev = host_malloc(h, bytes);
        host_memcpy_to_dev(h, b->dev, b->initial, bytes);
    }
    int rc = 0;
    for (unsigned i = 0; i < s->n_steps; i++) {
        const struct lspec_step *st = &s->steps[i];
        switch (st->kind) {
        case LSPEC_LAUNCH:
            run_launch(s, h, &s->launches[st->index], out);
            break;
        case LSPEC_CHECK:
            if (!run_check(s, h, &s->checks[st->index], out))
                rc = EXIT_CHECK_FAILED;
            break;
        case LSPEC_PRINT:
            run_print(s, h, &s->prints[st->index], out);
            break;
        case LSPEC_SYMBOL:
            run_symbol(s, h, &s->symbols[st->index], out);
            break;
        }
    }
    return rc;
}

int launchspec_dump(struct launchspec *s, struct host *h, const char *buffer, const char *path,
                    char *err, size_t errlen)
{
    int bi = launchspec_find_buffer(s, buffer);
    if (bi < 0) {
        snprintf(err, errlen, "--dump: %s has no buffer named '%s'", s->filename, buffer);
        return -1;
    }
    struct lspec_buffer *b = &s->buffers[bi];
    if (!b->current) {
        snprintf(err, errlen, "--dump %s: the spec has not run", buffer);
        return -1;
    }
    size_t bytes = b->count * lspec_type_bytes[b->type];
    host_memcpy_from_dev(h, b->current, b->dev, bytes);
    FILE *f = fopen(path, "wb");
    if (!f) {
        snprintf(err, errlen, "--dump %s: cannot write %s: %s", buffer, path, strerror(errno));
        return -1;
    }
    bool ok = fwrite(b->current, 1, bytes, f) == bytes;
    ok = !fclose(f) && ok;
    if (!ok) {
        snprintf(err, errlen, "--dump %s: error writing %s", buffer, path);
        return -1;
    }
    return 0;
}
