/*
 * image.c - synthetic tile values and the sequential reference (image.h).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "gfx/image.h"

#include <stdlib.h>
#include <string.h>

#include "base/log.h"

static uint64_t mix(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

struct gfx_px gfx_frag(uint32_t d, uint32_t k)
{
    uint64_t h = mix(((uint64_t)d << 32) | k);
    /* a small depth range makes ties (z-fighting) common, so that tie-breaking is tested */
    return (struct gfx_px){.color = mix(h), .depth = (uint32_t)(h % 4096) * 4096, .id = d + 1};
}

struct gfx_map gfx_frag_map(const struct gfx_draw *dr, uint32_t d, uint32_t k)
{
    uint64_t h = mix(mix(((uint64_t)d << 32) | k) + 1);
    switch (dr->blend) {
    case GFX_BLEND_OVER:
        return (struct gfx_map){h, mix(h) | 1};
    case GFX_BLEND_ADD:
        return (struct gfx_map){h, 1};
    case GFX_BLEND_MUL:
        return (struct gfx_map){0, mix(h) | 1};
    default: /* opaque without depth write: replaces the colour */
        return (struct gfx_map){h, 0};
    }
}

bool gfx_frag_better(uint8_t zf, struct gfx_px a, struct gfx_px b)
{
    switch (zf) {
    case GFX_Z_LESS: /* passes if strictly nearer: on a tie the older stays */
        return a.depth < b.depth || (a.depth == b.depth && a.id < b.id);
    case GFX_Z_LEQUAL: /* on a tie the newer wins */
        return a.depth < b.depth || (a.depth == b.depth && a.id > b.id);
    case GFX_Z_GREATER:
        return a.depth > b.depth || (a.depth == b.depth && a.id < b.id);
    case GFX_Z_GEQUAL:
        return a.depth > b.depth || (a.depth == b.depth && a.id > b.id);
    case GFX_Z_ALWAYS:
        return a.id > b.id;
    default:
        return false;
    }
}

void gfx_fb_init(struct gfx_fb *f, uint32_t n_tiles)
{
    f->n_tiles = n_tiles;
    f->px = malloc((size_t)GFX_MAX_RTS * n_tiles * sizeof *f->px);
    if (!f->px)
        panic("out of memory");
    for (size_t i = 0; i < (size_t)GFX_MAX_RTS * n_tiles; i++)
        f->px[i] = (struct gfx_px){.color = 0, .depth = GFX_DEPTH_FAR, .id = 0};
}

void gfx_fb_free(struct gfx_fb *f)
{
    free(f->px);
    f->px = NULL;
}

void gfx_apply(struct gfx_fb *f, const struct gfx_trace *t, uint32_t d, uint32_t k)
{
    const struct gfx_draw *dr = &t->draws[d];
    struct gfx_px *dst = gfx_fb_at(f, dr->rt, k);
    if (gfx_draw_ordered(dr)) {
        if (gfx_frag_passes(dr->zfunc, d, k, *dst))
            dst->color = gfx_map_apply(gfx_frag_map(dr, d, k), dst->color);
    } else {
        struct gfx_px p = gfx_frag(d, k);
        if (gfx_frag_better(dr->zfunc, p, *dst))
            *dst = p;
    }
}

void gfx_render_sequential(const struct gfx_trace *t, struct gfx_fb *out)
{
    gfx_fb_init(out, t->tiles_x * t->tiles_y);
    for (uint32_t d = 0; d < t->n_draws; d++) {
        const struct gfx_draw *dr = &t->draws[d];
        for (uint32_t y = dr->ty; y < dr->ty + dr->th; y++)
            for (uint32_t x = dr->tx; x < dr->tx + dr->tw; x++)
                gfx_apply(out, t, d, y * t->tiles_x + x);
    }
}
