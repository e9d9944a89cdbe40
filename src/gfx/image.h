/*
 * image.h - the tiny synthetic image every design renders and composes.
 *
 * One value per 64x64 tile and render target stands for the tile's pixels:
 * a colour, a depth and the id of the draw that wrote it. What a draw writes
 * is a pure function of (draw, tile), so any design can be checked against a
 * sequential single-GPU rendering of the same trace.
 *
 * The arithmetic is chosen so that composition is exact: colours are
 * elements of Z/2^64, and an ordered (blended) fragment is the affine map
 * x -> c + t*x (over: c + (1-alpha)x with "1-alpha" an odd t; add: t = 1;
 * multiply: c = 0; an opaque fragment without depth write: t = 0). Affine
 * maps compose associatively but not commutatively, exactly like blending
 * (spec 004b §3.2), with no rounding: a design that composes sub-images in
 * the wrong order gets a different colour. Opaque depth-writing fragments
 * reduce with a total order on (depth, draw id) that matches the sequential
 * depth test, ties included (see gfx_frag_better), so their composition is
 * exact in any order.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef GFX_IMAGE_H
#define GFX_IMAGE_H

#include "gfx/trace.h"

/* A tile of a render target: colour, depth and (1 + the id of the draw that
 * wrote the depth; 0 = the clear). Cleared: colour 0, depth far. */
struct gfx_px {
    uint64_t color;
    uint32_t depth;
    uint32_t id;
};
#define GFX_DEPTH_FAR 0xffffffu

/* An order-dependent contribution: x -> c + t*x; identity (0, 1). */
struct gfx_map {
    uint64_t c, t;
};

static inline struct gfx_map gfx_map_then(struct gfx_map first, struct gfx_map second)
{
    return (struct gfx_map){second.c + second.t * first.c, second.t * first.t};
}

static inline uint64_t gfx_map_apply(struct gfx_map m, uint64_t x)
{
    return m.c + m.t * x;
}

/* The fragment draw d writes on tile k (d = index in the trace). */
struct gfx_px gfx_frag(uint32_t d, uint32_t k);
struct gfx_map gfx_frag_map(const struct gfx_draw *dr, uint32_t d, uint32_t k);

/* Whether fragment a wins over b under depth function zf (a, b carry ids):
 * the total order that sequential depth testing induces. */
bool gfx_frag_better(uint8_t zf, struct gfx_px a, struct gfx_px b);

/* The depth test of an ordered (non-depth-writing) fragment of draw d against
 * the depth buffer's value. */
static inline bool gfx_frag_passes(uint8_t zf, uint32_t d, uint32_t k, struct gfx_px dst)
{
    return gfx_frag_better(zf, gfx_frag(d, k), dst);
}

/* A frame buffer: [GFX_MAX_RTS][tiles]. */
struct gfx_fb {
    uint32_t n_tiles;
    struct gfx_px *px;
};
void gfx_fb_init(struct gfx_fb *f, uint32_t n_tiles);
void gfx_fb_free(struct gfx_fb *f);
static inline struct gfx_px *gfx_fb_at(struct gfx_fb *f, uint32_t rt, uint32_t k)
{
    return &f->px[(size_t)rt * f->n_tiles + k];
}

/* Apply draw d on tile k of f in sequential order. */
void gfx_apply(struct gfx_fb *f, const struct gfx_trace *t, uint32_t d, uint32_t k);

/* The sequential single-GPU rendering of the whole trace. */
void gfx_render_sequential(const struct gfx_trace *t, struct gfx_fb *out);

#endif
