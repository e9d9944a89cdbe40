/*
 * trace.c - frame traces: strict parser and writer (docs/frame-trace.md).
 *
 * The parser is line based. Every error names path:line and what is wrong;
 * nothing is guessed: every draw field is required once, numbers must parse
 * whole and lie in range, tiles must lie on the screen, and a change of
 * render target, depth write, depth function or blend operator inside a
 * composition group is refused, because it is a group boundary.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "gfx/trace.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/file.h"
#include "base/log.h"

const char *const gfx_blend_names[GFX_BLEND_N] = {"none", "over", "add", "mul"};
const char *const gfx_zfunc_names[GFX_Z_N] = {"less",   "lequal", "greater",
                                              "gequal", "always", "never"};

uint32_t gfx_tile_pixels(const struct gfx_trace *t, uint32_t x, uint32_t y)
{
    uint32_t w = MIN(GFX_TILE_PX, t->width - x * GFX_TILE_PX);
    uint32_t h = MIN(GFX_TILE_PX, t->height - y * GFX_TILE_PX);
    return w * h;
}

void gfx_trace_free(struct gfx_trace *t)
{
    free(t->draws);
    free(t->groups);
    memset(t, 0, sizeof *t);
}

void gfx_trace_begin_group(struct gfx_trace *t)
{
    if (t->n_groups == t->cap_groups) {
        t->cap_groups = t->cap_groups ? 2 * t->cap_groups : 64;
        t->groups = realloc(t->groups, t->cap_groups * sizeof *t->groups);
        if (!t->groups)
            panic("out of memory");
    }
    t->groups[t->n_groups++] = (struct gfx_group){.first = t->n_draws};
}

void gfx_trace_add_draw(struct gfx_trace *t, const struct gfx_draw *d)
{
    panic_if(!t->n_groups, "gfx_trace_add_draw: no group open");
    if (t->n_draws == t->cap_draws) {
        t->cap_draws = t->cap_draws ? 2 * t->cap_draws : 256;
        t->draws = realloc(t->draws, t->cap_draws * sizeof *t->draws);
        if (!t->draws)
            panic("out of memory");
    }
    struct gfx_group *g = &t->groups[t->n_groups - 1];
    t->draws[t->n_draws] = *d;
    t->draws[t->n_draws].group = t->n_groups - 1;
    t->n_draws++;
    g->n++;
    g->tris += d->tris;
    t->tris += d->tris;
}

/* --- parsing */

struct parse {
    const char *path;
    unsigned line;
    char *err;
    size_t errlen;
};

static int perr(struct parse *p, const char *fmt, ...) PRINTF_LIKE(2, 3);
static int perr(struct parse *p, const char *fmt, ...)
{
    size_t n = (size_t)snprintf(p->err, p->errlen, "%s:%u: ", p->path, p->line);
    va_list ap;
    va_start(ap, fmt);
    if (n < p->errlen)
        vsnprintf(p->err + n, p->errlen - n, fmt, ap);
    va_end(ap);
    return -1;
}

static int parse_u32(struct parse *p, const char *key, const char *s, uint32_t lo, uint32_t hi,
                     uint32_t *out)
{
    char *end;
    errno = 0;
    if (*s < '0' || *s > '9')
        return perr(p, "%s: '%s' is not a whole number", key, s);
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end)
        return perr(p, "%s: '%s' is not a whole number", key, s);
    if (v < lo || v > hi)
        return perr(p, "%s: %s is out of range [%u, %u]", key, s, lo, hi);
    *out = (uint32_t)v;
    return 0;
}

static int parse_f64(struct parse *p, const char *key, const char *s, double lo, double hi,
                     double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !isfinite(v))
        return perr(p, "%s: '%s' is not a number", key, s);
    if (v < lo || v > hi)
        return perr(p, "%s: %s is out of range [%g, %g]", key, s, lo, hi);
    *out = v;
    return 0;
}

static int parse_name(struct parse *p, const char *key, const char *s, const char *const *names,
                      unsigned n, uint8_t *out)
{
    for (unsigned i = 0; i < n; i++)
        if (!strcmp(s, names[i])) {
            *out = (uint8_t)i;
            return 0;
        }
    char list[128] = "";
    for (unsigned i = 0; i < n; i++) {
        strcat(list, " ");
        strcat(list, names[i]);
    }
    return perr(p, "%s: '%s' is not one of%s", key, s, list);
}

enum { F_TRIS, F_TILES, F_PPT, F_GCPT, F_RT, F_ZWRITE, F_ZFUNC, F_BLEND, F_N };
static const char *const field_names[F_N] = {"tris", "tiles",  "ppt",   "gcpt",
                                             "rt",   "zwrite", "zfunc", "blend"};

static int parse_draw(struct parse *p, struct gfx_trace *t, char *rest)
{
    struct gfx_draw d = {.line = p->line};
    bool seen[F_N] = {0};
    for (char *tok = strtok(rest, " \t"); tok; tok = strtok(NULL, " \t")) {
        char *eq = strchr(tok, '=');
        if (!eq)
            return perr(p, "expected key=value, got '%s'", tok);
        *eq = 0;
        const char *v = eq + 1;
        unsigned f = 0;
        while (f < F_N && strcmp(tok, field_names[f]))
            f++;
        if (f == F_N)
            return perr(p,
                        "unknown draw field '%s' (fields: tris tiles ppt gcpt rt zwrite zfunc "
                        "blend)",
                        tok);
        if (seen[f])
            return perr(p, "draw field '%s' given twice", tok);
        seen[f] = true;
        uint32_t u;
        switch (f) {
        case F_TRIS:
            if (parse_u32(p, tok, v, 1, GFX_MAX_TRIS, &d.tris))
                return -1;
            break;
        case F_TILES: {
            uint32_t r[4];
            char buf[96];
            snprintf(buf, sizeof buf, "%s", v);
            char *save = NULL, *part = strtok_r(buf, ",", &save);
            for (unsigned k = 0; k < 4; k++, part = strtok_r(NULL, ",", &save)) {
                if (!part)
                    return perr(p, "tiles: '%s' is not X,Y,W,H (tile column, row, width, height)",
                                v);
                if (parse_u32(p, "tiles", part, k < 2 ? 0 : 1, 65535, &r[k]))
                    return -1;
            }
            if (part)
                return perr(p, "tiles: '%s' is not X,Y,W,H (tile column, row, width, height)", v);
            if (r[0] + r[2] > t->tiles_x || r[1] + r[3] > t->tiles_y)
                return perr(p, "tiles: %u,%u,%u,%u leaves the %ux%u-tile screen", r[0], r[1], r[2],
                            r[3], t->tiles_x, t->tiles_y);
            d.tx = (uint16_t)r[0], d.ty = (uint16_t)r[1], d.tw = (uint16_t)r[2],
            d.th = (uint16_t)r[3];
            break;
        }
        case F_PPT:
            if (parse_f64(p, tok, v, 0, 1e8, &d.ppt))
                return -1;
            break;
        case F_GCPT:
            if (parse_f64(p, tok, v, 0, 1e6, &d.gcpt))
                return -1;
            break;
        case F_RT:
            if (parse_u32(p, tok, v, 0, GFX_MAX_RTS - 1, &u))
                return -1;
            d.rt = (uint8_t)u;
            break;
        case F_ZWRITE:
            if (parse_u32(p, tok, v, 0, 1, &u))
                return -1;
            d.zwrite = (uint8_t)u;
            break;
        case F_ZFUNC:
            if (parse_name(p, tok, v, gfx_zfunc_names, GFX_Z_N, &d.zfunc))
                return -1;
            break;
        case F_BLEND:
            if (parse_name(p, tok, v, gfx_blend_names, GFX_BLEND_N, &d.blend))
                return -1;
            break;
        }
    }
    for (unsigned f = 0; f < F_N; f++)
        if (!seen[f])
            return perr(p, "draw lacks field '%s'", field_names[f]);
    if (d.blend != GFX_BLEND_NONE && d.zwrite)
        return perr(p, "a blended draw with depth writes is not modelled (its composition would "
                       "be order-dependent in depth as well); use zwrite=0");
    if (!t->n_groups)
        return perr(p, "draw before the first 'group' line");
    const struct gfx_group *g = &t->groups[t->n_groups - 1];
    if (g->n) {
        const struct gfx_draw *prev = &t->draws[t->n_draws - 1];
        const char *what = prev->rt != d.rt           ? "render target"
                           : prev->zwrite != d.zwrite ? "depth write"
                           : prev->zfunc != d.zfunc   ? "depth function"
                           : prev->blend != d.blend   ? "blend operator"
                                                      : NULL;
        if (what)
            return perr(p,
                        "%s changes inside a composition group (a group boundary, spec 004b "
                        "§3.3): start a new 'group' before this draw",
                        what);
    }
    gfx_trace_add_draw(t, &d);
    return 0;
}

int gfx_trace_parse(struct gfx_trace *t, const char *text, const char *path, char *err,
                    size_t errlen)
{
    memset(t, 0, sizeof *t);
    struct parse p = {.path = path, .err = err, .errlen = errlen};
    bool have_frame = false;
    const char *s = text;
    while (*s) {
        const char *nl = strchr(s, '\n');
        size_t len = nl ? (size_t)(nl - s) : strlen(s);
        p.line++;
        char line[1024];
        if (len >= sizeof line) {
            perr(&p, "line longer than %zu characters", sizeof line - 1);
            goto fail;
        }
        memcpy(line, s, len);
        line[len] = 0;
        s += len + (nl ? 1 : 0);
        char *hash = strchr(line, '#');
        if (hash)
            *hash = 0;
        char *cmd = strtok(line, " \t\r");
        if (!cmd)
            continue;
        char *rest = strtok(NULL, "");
        if (!rest)
            rest = "";
        if (!strcmp(cmd, "frame")) {
            if (have_frame) {
                perr(&p, "a second 'frame' line (a trace holds one frame)");
                goto fail;
            }
            char name[64];
            unsigned w, h;
            char extra;
            if (sscanf(rest, "%63s %u %u %c", name, &w, &h, &extra) != 3) {
                perr(&p, "expected 'frame NAME WIDTH HEIGHT'");
                goto fail;
            }
            if (w < 1 || h < 1 || w > 16384 || h > 16384) {
                perr(&p, "frame size %ux%u is out of range [1, 16384]", w, h);
                goto fail;
            }
            snprintf(t->name, sizeof t->name, "%s", name);
            t->width = w, t->height = h;
            t->tiles_x = (w + GFX_TILE_PX - 1) / GFX_TILE_PX;
            t->tiles_y = (h + GFX_TILE_PX - 1) / GFX_TILE_PX;
            have_frame = true;
        } else if (!have_frame) {
            perr(&p, "expected 'frame NAME WIDTH HEIGHT' before '%s'", cmd);
            goto fail;
        } else if (!strcmp(cmd, "group")) {
            if (strtok(rest, " \t\r")) {
                perr(&p, "'group' takes no arguments");
                goto fail;
            }
            if (t->n_groups && !t->groups[t->n_groups - 1].n) {
                perr(&p, "empty composition group (a 'group' line with no draws after it)");
                goto fail;
            }
            gfx_trace_begin_group(t);
        } else if (!strcmp(cmd, "draw")) {
            if (parse_draw(&p, t, rest))
                goto fail;
        } else {
            perr(&p, "unknown directive '%s' (expected frame, group or draw)", cmd);
            goto fail;
        }
    }
    p.line++;
    if (!have_frame) {
        perr(&p, "no 'frame' line");
        goto fail;
    }
    if (!t->n_draws) {
        perr(&p, "the trace has no draws");
        goto fail;
    }
    if (!t->groups[t->n_groups - 1].n) {
        perr(&p, "empty composition group at the end of the trace");
        goto fail;
    }
    return 0;
fail:
    gfx_trace_free(t);
    return -1;
}

int gfx_trace_load(struct gfx_trace *t, const char *path, char *err, size_t errlen)
{
    char *text = file_read_source(path, NULL, err, errlen);
    if (!text)
        return -1;
    int r = gfx_trace_parse(t, text, path, err, errlen);
    free(text);
    return r;
}

void gfx_trace_write(const struct gfx_trace *t, FILE *out)
{
    fprintf(out,
            "# gpucoh frame trace (docs/frame-trace.md): %u draws, %u groups, %llu triangles\n",
            t->n_draws, t->n_groups, (unsigned long long)t->tris);
    fprintf(out, "frame %s %u %u\n", t->name, t->width, t->height);
    for (uint32_t g = 0; g < t->n_groups; g++) {
        fprintf(out, "group\n");
        for (uint32_t i = t->groups[g].first; i < t->groups[g].first + t->groups[g].n; i++) {
            const struct gfx_draw *d = &t->draws[i];
            fprintf(out,
                    "draw tris=%u tiles=%u,%u,%u,%u ppt=%.9g gcpt=%.9g rt=%u zwrite=%u "
                    "zfunc=%s blend=%s\n",
                    d->tris, d->tx, d->ty, d->tw, d->th, d->ppt, d->gcpt, d->rt, d->zwrite,
                    gfx_zfunc_names[d->zfunc], gfx_blend_names[d->blend]);
        }
    }
}
