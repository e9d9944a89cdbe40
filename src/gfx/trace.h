/*
 * trace.h - a single-frame draw trace for the split-frame rendering model.
 *
 * A frame is a sequence of composition groups (the CompGroupStart() marks of
 * thesis Chapter 6), each a run of draws that share render target, depth
 * write, depth function and blend operator, since a change of any of them is
 * a group boundary (spec 004b §3.3). A draw is what the model needs of it:
 * triangles, the rectangle of 64x64 tiles it covers, pixels per triangle
 * (its fragment work), geometry cycles per triangle (its geometry work) and
 * the state above. Format and semantics: docs/frame-trace.md.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef GFX_TRACE_H
#define GFX_TRACE_H

#include <stdio.h>

#include "base/types.h"

#define GFX_TILE_PX  64 /* screen tiles are 64 x 64 pixels (Table 6.2's SFR split) */
#define GFX_MAX_RTS  16 /* render targets a trace may name: 0..15 */
#define GFX_MAX_TRIS (1u << 24)

enum gfx_blend { GFX_BLEND_NONE, GFX_BLEND_OVER, GFX_BLEND_ADD, GFX_BLEND_MUL, GFX_BLEND_N };
enum gfx_zfunc {
    GFX_Z_LESS,
    GFX_Z_LEQUAL,
    GFX_Z_GREATER,
    GFX_Z_GEQUAL,
    GFX_Z_ALWAYS,
    GFX_Z_NEVER,
    GFX_Z_N
};
extern const char *const gfx_blend_names[GFX_BLEND_N];
extern const char *const gfx_zfunc_names[GFX_Z_N];

struct gfx_draw {
    uint32_t tris;           /* triangles */
    uint16_t tx, ty, tw, th; /* covered tiles: the rectangle [tx, tx+tw) x [ty, ty+th) */
    double ppt;              /* shaded pixels per triangle (fragment work) */
    double gcpt;             /* geometry-stage cycles per triangle on one GPU */
    uint8_t rt;              /* render target (and its depth buffer) */
    uint8_t zwrite;          /* depth writes enabled */
    uint8_t zfunc;           /* enum gfx_zfunc */
    uint8_t blend;           /* enum gfx_blend; NONE = opaque */
    uint32_t group;          /* index of its composition group */
    uint32_t line;           /* trace line (diagnostics) */
};

struct gfx_group {
    uint32_t first, n; /* draws [first, first + n) */
    uint64_t tris;     /* triangles in the group */
};

struct gfx_trace {
    char name[64];
    uint32_t width, height;    /* pixels */
    uint32_t tiles_x, tiles_y; /* 64x64 tiles (the last row/column may be partial) */
    struct gfx_draw *draws;
    uint32_t n_draws, cap_draws;
    struct gfx_group *groups;
    uint32_t n_groups, cap_groups;
    uint64_t tris; /* total */
};

/* An ordered group is one whose colour result depends on draw order: any
 * blending, or opaque draws without depth writes (the last passing fragment
 * wins). Its sub-images must be composed in draw order. */
static inline bool gfx_draw_ordered(const struct gfx_draw *d)
{
    return d->blend != GFX_BLEND_NONE || !d->zwrite;
}

/* Pixels of tile (x, y) inside the screen (edge tiles may be partial). */
uint32_t gfx_tile_pixels(const struct gfx_trace *t, uint32_t x, uint32_t y);

/* Parse a trace. Returns 0, or -1 with "path:line: what is wrong" in err. */
int gfx_trace_load(struct gfx_trace *t, const char *path, char *err, size_t errlen);
int gfx_trace_parse(struct gfx_trace *t, const char *text, const char *path, char *err,
                    size_t errlen);
void gfx_trace_free(struct gfx_trace *t);

/* Append a group mark / a draw (the generator and tests build traces so). */
void gfx_trace_begin_group(struct gfx_trace *t);
void gfx_trace_add_draw(struct gfx_trace *t, const struct gfx_draw *d);

/* Write the trace in the text format (it parses back to the same trace). */
void gfx_trace_write(const struct gfx_trace *t, FILE *out);

#endif
