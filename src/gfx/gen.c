/*
 * gen.c - synthetic frames shaped like Table 6.3 (see gen.h).
 *
 * A frame is built as a list of composition groups, then draws are filled in:
 *  - large groups (object rendering): 4 to 9 of them (mean 6.5), one of them
 *    the shadow pass on render target 1, sometimes one transparent (particles,
 *    foliage); 0 to 2 of them "medium" (5000 to 15000 triangles, so that a
 *    16384 threshold drops them), the others >= 16384 triangles; together
 *    90% to 95% of the frame's triangles;
 *  - small groups (< 4096 triangles each): sky, decals, UI, post-processing
 *    quads on render targets 2 and 3 and the final composite, holding the rest.
 * Triangle and draw counts are split with log-normal weights (heavy tails)
 * and then corrected so that the totals are exact. Every constant here is a
 * stated assumption of the generator, documented in docs/frame-trace.md.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "gfx/gen.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "base/rng.h"

const struct gfx_game gfx_games[] = {
    {"cod2", "Call of Duty 2", 640, 480, 1005, 219950},
    {"cry", "Crysis", 800, 600, 1427, 800948},
    {"grid", "GRID", 1280, 1024, 2623, 466806},
    {"mirror", "Mirror's Edge", 1280, 1024, 1257, 381422},
    {"nfs", "Need for Speed: Undercover", 1280, 1024, 1858, 534121},
    {"stal", "S.T.A.L.K.E.R.: Call of Pripyat", 1280, 1024, 1086, 546733},
    {"ut3", "Unreal Tournament 3", 1280, 1024, 1944, 630302},
    {"wolf", "Wolfenstein", 640, 480, 1697, 243052},
    {0},
};

const struct gfx_game *gfx_game_find(const char *name)
{
    for (const struct gfx_game *g = gfx_games; g->name; g++)
        if (!strcmp(g->name, name))
            return g;
    return NULL;
}

static double uniform(struct rng *r)
{
    return (double)(rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

static double lognormal(struct rng *r, double median, double sigma)
{
    double u1 = uniform(r), u2 = uniform(r);
    double z = sqrt(-2.0 * log(u1 > 0 ? u1 : 1e-300)) * cos(6.283185307179586 * u2);
    return median * exp(sigma * z);
}

/* Split `total` into n parts, each >= lo, with log-normal weights (spread
 * sigma); exact sum. Needs total >= n * lo. */
static void split(struct rng *r, uint64_t total, uint32_t n, uint64_t lo, double sigma,
                  uint64_t *out)
{
    panic_if(total < (uint64_t)n * lo, "gen: cannot split %llu into %u parts of >= %llu",
             (unsigned long long)total, n, (unsigned long long)lo);
    double w[n], sum = 0;
    for (uint32_t i = 0; i < n; i++)
        sum += w[i] = lognormal(r, 1, sigma);
    uint64_t spare = total - (uint64_t)n * lo, used = 0;
    for (uint32_t i = 0; i < n; i++) {
        out[i] = lo + (uint64_t)floor((double)spare * w[i] / sum);
        used += out[i];
    }
    for (uint32_t i = 0; used < total; i = (i + 1) % n, used++)
        out[i]++;
}

static double round3(double v)
{
    return round(v * 1000) / 1000;
}

/* Screens' worth of pixels all object draws (shadow pass, objects, transparent) shade
 * together, the depth complexity of a game frame's scene passes, and all overlay draws
 * (UI, decals, small background and post-processing draws): assumptions. */
#define OBJECT_DEPTH_COMPLEXITY  3.0
#define OVERLAY_DEPTH_COMPLEXITY 1.0
/* Post-processing passes shade a quarter of the screen's pixels (down-sampled chains). */
#define POST_PIXEL_FRACTION 0.25

enum kind { K_SHADOW, K_OBJECTS, K_TRANSPARENT, K_SKY, K_DECAL, K_UI, K_POST, K_FINAL };

struct plan {
    enum kind kind;
    uint64_t tris;
    uint32_t draws;
};

static void group_state(enum kind k, uint32_t index, struct gfx_draw *d)
{
    d->rt = 0, d->zwrite = 1, d->zfunc = GFX_Z_LESS, d->blend = GFX_BLEND_NONE;
    switch (k) {
    case K_SHADOW:
        d->rt = 1;
        break;
    case K_OBJECTS:
        d->zfunc = index % 2 ? GFX_Z_LEQUAL : GFX_Z_LESS; /* alternating material passes */
        break;
    case K_TRANSPARENT:
        d->zwrite = 0, d->zfunc = GFX_Z_LEQUAL, d->blend = GFX_BLEND_OVER;
        break;
    case K_SKY:
        d->zwrite = 0, d->zfunc = GFX_Z_LEQUAL;
        break;
    case K_DECAL:
        d->zwrite = 0, d->zfunc = GFX_Z_LEQUAL, d->blend = GFX_BLEND_MUL;
        break;
    case K_UI:
        d->rt = 0, d->zwrite = 0, d->zfunc = GFX_Z_ALWAYS, d->blend = GFX_BLEND_OVER;
        break;
    case K_POST:
        d->rt = (uint8_t)(2 + index % 2), d->zwrite = 0, d->zfunc = GFX_Z_ALWAYS;
        break;
    case K_FINAL:
        d->rt = 0, d->zwrite = 0, d->zfunc = GFX_Z_ALWAYS, d->blend = GFX_BLEND_ADD;
        break;
    }
}

static bool same_state(const struct gfx_draw *a, const struct gfx_draw *b)
{
    return a->rt == b->rt && a->zwrite == b->zwrite && a->zfunc == b->zfunc && a->blend == b->blend;
}

const char *const gfx_generator_names[] = {"budget", "first", NULL};

int gfx_generate(struct gfx_trace *t, const struct gfx_game *g, uint64_t seed, char *err,
                 size_t errlen)
{
    return gfx_generate_with(t, g, seed, GFX_GEN_BUDGET, err, errlen);
}

/* The first generator's screen rectangle of draw k of a group (commit
 * ea10d87^): full-screen for the second quad of every quad group, a random
 * rectangle up to a quarter of the screen for overlays, and for objects a
 * square fraction of the screen (0.08 x lognormal x a triangle-count factor). */
static void first_rect(struct rng *r, const struct gfx_trace *t, enum kind kind, bool quads,
                       uint32_t k, uint32_t tris, uint32_t *w, uint32_t *h)
{
    if (quads && k == 1) {
        *w = t->tiles_x, *h = t->tiles_y;
    } else if (kind == K_UI || kind == K_DECAL || (quads && k > 1)) {
        *w = 1 + (uint32_t)rng_below(r, MAX(1, t->tiles_x / 4));
        *h = 1 + (uint32_t)rng_below(r, MAX(1, t->tiles_y / 4));
    } else {
        double frac = 0.08 * lognormal(r, 1, 0.9) * (1 + log10(1 + (double)tris / 1000));
        frac = MIN(1.0, frac);
        *w = MAX(1, (uint32_t)lround(frac * t->tiles_x));
        *h = MAX(1, (uint32_t)lround(frac * t->tiles_y));
    }
}

int gfx_generate_with(struct gfx_trace *t, const struct gfx_game *g, uint64_t seed,
                      enum gfx_generator gen, char *err, size_t errlen)
{
    return gfx_generate_spread(t, g, seed, gen, GFX_GEN_DRAW_SIGMA, err, errlen);
}

int gfx_generate_spread(struct gfx_trace *t, const struct gfx_game *g, uint64_t seed,
                        enum gfx_generator gen, double draw_sigma, char *err, size_t errlen)
{
    bool first_gen = gen == GFX_GEN_FIRST;
    struct rng r;
    uint64_t stream = 0x6766782d67656eull; /* "gfx-gen", then the game's name */
    for (const char *c = g->name; *c; c++)
        stream = stream * 131 + (unsigned char)*c;
    rng_seed(&r, seed, stream);
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "%s", g->name);
    t->width = g->width, t->height = g->height;
    t->tiles_x = (g->width + GFX_TILE_PX - 1) / GFX_TILE_PX;
    t->tiles_y = (g->height + GFX_TILE_PX - 1) / GFX_TILE_PX;

    /* --- the groups and their triangle and draw budgets */
    uint32_t n_large = 4 + (uint32_t)rng_below(&r, 6);
    uint32_t n_medium = g->tris >= 200000 ? (uint32_t)rng_below(&r, 3) : 0;
    uint64_t large_tris = (uint64_t)((double)g->tris * (0.90 + 0.05 * uniform(&r)));
    uint32_t n_small = 30 + (uint32_t)rng_below(&r, 60);
    uint64_t small_tris = g->tris - large_tris;
    while (small_tris > (uint64_t)n_small * 1500)
        n_small++;
    uint32_t small_draws = (uint32_t)(g->draws * (0.35 + 0.15 * uniform(&r)));
    small_draws = MAX(small_draws, n_small);
    if (g->draws < small_draws + 3 * n_large || small_tris < 2ull * small_draws) {
        snprintf(err, errlen,
                 "%s: %u draws and %u triangles do not fit the frame structure "
                 "(docs/frame-trace.md): give more triangles per draw",
                 g->name, g->draws, g->tris);
        return -1;
    }
    uint32_t large_draws = g->draws - small_draws;

    struct plan large[16], small[1024];
    panic_if(n_small > ARRAY_LEN(small), "gen: too many small groups");
    uint64_t parts[1024];
    uint64_t medium_tris = 0;
    for (uint32_t i = 0; i < n_medium; i++) {
        large[i].tris = 5000 + rng_below(&r, 10001);
        medium_tris += large[i].tris;
    }
    uint64_t large_min = MIN(16384, (large_tris - medium_tris) / (2 * (n_large - n_medium)));
    split(&r, large_tris - medium_tris, n_large - n_medium, large_min, 0.7, parts);
    for (uint32_t i = n_medium; i < n_large; i++)
        large[i].tris = parts[i - n_medium];
    split(&r, large_draws, n_large, MIN(10, large_draws / n_large), 0.5, parts);
    for (uint32_t i = 0; i < n_large; i++) {
        large[i].draws = (uint32_t)parts[i];
        large[i].kind = K_OBJECTS;
    }
    /* the largest becomes the shadow pass, one in two frames has a transparent large group */
    uint32_t biggest = 0;
    for (uint32_t i = 1; i < n_large; i++)
        if (large[i].tris > large[biggest].tris)
            biggest = i;
    large[biggest].kind = K_SHADOW;
    if (rng_chance(&r, 1, 2))
        large[(biggest + 1) % n_large].kind = K_TRANSPARENT;
    split(&r, small_tris - 2ull * small_draws, n_small, 0, first_gen ? 1.0 : 2.0,
          parts); /* most tiny, a few larger */
    uint64_t draw_parts[1024];
    split(&r, small_draws, n_small, 1, 0.8, draw_parts);
    for (uint32_t i = 0; i < n_small; i++) {
        small[i].draws = (uint32_t)draw_parts[i];
        small[i].tris = parts[i] + 2ull * small[i].draws;
        uint64_t k = rng_below(&r, 8);
        small[i].kind = k < 2 ? K_SKY : k < 4 ? K_DECAL : k < 6 ? K_UI : K_POST;
    }
    /* keep every small group below 4096 triangles: move the excess to a neighbour below */
    for (uint32_t i = 0, j = 1; i < n_small; i++)
        while (small[i].tris > 4000) {
            j = (j + 1) % n_small;
            uint64_t move = MIN(small[i].tris - 4000, 4000 - MIN(small[j].tris, 4000));
            small[i].tris -= move, small[j].tris += move;
        }

    /* --- order: shadow pass, then objects interleaved with small groups, the transparent
     * group late, post-processing and the final composite and UI last */
    struct plan order[1100];
    uint32_t n = 0, s = 0;
    for (uint32_t i = 0; i < n_large; i++)
        if (large[i].kind == K_SHADOW)
            order[n++] = large[i];
    uint32_t n_post = 0;
    for (uint32_t i = 0; i < n_small; i++)
        n_post += small[i].kind == K_POST;
    uint32_t n_scene_small = n_small - n_post;
    uint32_t n_obj = 0;
    for (uint32_t i = 0; i < n_large; i++)
        n_obj += large[i].kind == K_OBJECTS;
    uint32_t per_gap = n_obj ? n_scene_small / (n_obj + 1) : 0;
    for (uint32_t i = 0; i < n_large; i++) {
        if (large[i].kind != K_OBJECTS)
            continue;
        for (uint32_t k = 0; k < per_gap; k++, s++) {
            while (small[s].kind == K_POST)
                s++;
            order[n++] = small[s];
        }
        order[n++] = large[i];
    }
    for (uint32_t i = 0; i < n_large; i++)
        if (large[i].kind == K_TRANSPARENT)
            order[n++] = large[i];
    /* the scene small groups not yet placed, then the post-processing ones */
    for (; s < n_small; s++)
        if (small[s].kind != K_POST)
            order[n++] = small[s];
    for (uint32_t i = 0; i < n_small; i++)
        if (small[i].kind == K_POST)
            order[n++] = small[i];
    if (n_post) /* the last post group composites into the frame */
        order[n - 1].kind = K_FINAL;

    /* --- draws. Object draws get a relative size now and their screen area at the end,
     * scaled so that all object draws together cover OBJECT_DEPTH_COMPLEXITY screens */
    double *rel = calloc(g->draws, sizeof *rel), *layer = calloc(g->draws, sizeof *layer);
    uint8_t *cls = calloc(g->draws, 1); /* 1 object, 2 overlay */
    if (!rel || !layer || !cls)
        panic("out of memory");
    bool sky_done = false;
    struct gfx_draw prev = {.rt = 0xff};
    uint64_t dt[4096];
    for (uint32_t gi = 0; gi < n; gi++) {
        struct plan *p = &order[gi];
        struct gfx_draw st = {0};
        group_state(p->kind, gi, &st);
        if (same_state(&st,
                       &prev)) /* adjacent groups must differ: they are split by a state change */
            st.zfunc = st.zfunc == GFX_Z_LESS ? GFX_Z_LEQUAL : GFX_Z_LESS;
        prev = st;
        gfx_trace_begin_group(t);
        panic_if(p->draws > ARRAY_LEN(dt), "gen: group of %u draws", p->draws);
        bool quads = p->kind == K_POST || p->kind == K_FINAL || p->kind == K_SKY;
        if (quads) { /* full-screen quads: two triangles each, the rest of the budget on the first
                      */
            for (uint32_t k = 0; k < p->draws; k++)
                dt[k] = 2;
            dt[0] += p->tris - 2ull * p->draws;
        } else {
            split(&r, p->tris, p->draws, 1,
                  p->kind == K_UI || p->kind == K_DECAL ? 0.8 : draw_sigma, dt);
        }
        for (uint32_t k = 0; k < p->draws; k++) {
            struct gfx_draw d = st;
            d.tris = (uint32_t)dt[k];
            uint32_t w, h;
            bool full = quads && k == 1 && (p->kind != K_SKY || !sky_done);
            double full_px = 1.0;
            if (first_gen) {
                first_rect(&r, t, p->kind, quads, k, d.tris, &w, &h);
                full = quads;  /* one layer: every quad group's pass shades its whole rectangle */
            } else if (full) { /* one full-screen pass per post group, one sky per frame */
                w = t->tiles_x, h = t->tiles_y;
                sky_done |= p->kind == K_SKY;
                full_px = p->kind == K_POST ? POST_PIXEL_FRACTION : 1.0;
            } else { /* sized at the end */
                bool overlay = p->kind == K_UI || p->kind == K_DECAL || quads;
                cls[t->n_draws] = overlay ? 2 : 1;
                rel[t->n_draws] =
                    lognormal(&r, 1, 0.9) * (overlay ? 1 : 1 + log10(1 + (double)d.tris / 1000));
                w = h = 1;
            }
            d.tw = (uint16_t)w, d.th = (uint16_t)h;
            d.tx = (uint16_t)rng_below(&r, t->tiles_x - w + 1);
            d.ty = (uint16_t)rng_below(&r, t->tiles_y - h + 1);
            double px = (double)MIN(w * GFX_TILE_PX, t->width) * MIN(h * GFX_TILE_PX, t->height);
            double layers = full ? full_px : 0.6 + 0.8 * uniform(&r);
            d.ppt = MAX(0.5, round3(px * layers / d.tris));
            d.gcpt = round3(lognormal(&r, 2.0, 0.6));
            d.gcpt = MAX(0.25, d.gcpt);
            layer[t->n_draws] = layers;
            gfx_trace_add_draw(t, &d);
        }
    }
    double sum[3] = {0}, scale[3];
    for (uint32_t i = 0; i < t->n_draws; i++)
        sum[cls[i]] += rel[i] * rel[i];
    scale[1] = sqrt(OBJECT_DEPTH_COMPLEXITY * t->width * t->height / MAX(sum[1], 1e-9));
    scale[2] = sqrt(OVERLAY_DEPTH_COMPLEXITY * t->width * t->height / MAX(sum[2], 1e-9));
    for (uint32_t i = 0; i < t->n_draws && !first_gen; i++) {
        if (!cls[i])
            continue;
        struct gfx_draw *d = &t->draws[i];
        double side = MIN(scale[cls[i]] * rel[i], (double)MIN(t->width, t->height));
        uint32_t w = MIN(t->tiles_x, (uint32_t)ceil(side / GFX_TILE_PX));
        uint32_t h = MIN(t->tiles_y, (uint32_t)ceil(side / GFX_TILE_PX));
        d->tw = (uint16_t)w, d->th = (uint16_t)h;
        d->tx = (uint16_t)rng_below(&r, t->tiles_x - w + 1);
        d->ty = (uint16_t)rng_below(&r, t->tiles_y - h + 1);
        d->ppt = round3(side * side * layer[i] / d->tris);
        d->ppt = MAX(0.5, d->ppt);
    }
    free(rel), free(layer), free(cls);
    panic_if(t->n_draws != g->draws || t->tris != g->tris,
             "gen: %s came out with %u draws and %llu triangles", g->name, t->n_draws,
             (unsigned long long)t->tris);
    return 0;
}
