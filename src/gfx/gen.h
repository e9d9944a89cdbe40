/*
 * gen.h - seeded synthetic frame traces shaped like thesis Table 6.3's games.
 *
 * The eight games' traces are not public; the generator makes a frame with a
 * game's resolution, draw count and triangle count and the structure the
 * thesis reports: bipolar composition-group sizes (a few large object groups
 * holding most triangles, many tiny background/UI/post-processing groups;
 * spec 004b §5.2 calibrates about 6.5 groups of >= 4096 triangles covering
 * about 92% of triangles), a shadow pass, transparent groups and render-target
 * switches. How each quantity is drawn: docs/frame-trace.md.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef GFX_GEN_H
#define GFX_GEN_H

#include "gfx/trace.h"

struct gfx_game {
    const char *name; /* Table 6.3 abbreviation */
    const char *title;
    uint32_t width, height;
    uint32_t draws;
    uint32_t tris;
};

extern const struct gfx_game gfx_games[]; /* the eight of Table 6.3, then a NULL name */

const struct gfx_game *gfx_game_find(const char *name);

/* Build a frame shaped like `g` (exact draw and triangle totals). Returns 0,
 * or -1 with a message in err when the totals cannot take the frame's
 * structure (too few triangles per draw). */
int gfx_generate(struct gfx_trace *t, const struct gfx_game *g, uint64_t seed, char *err,
                 size_t errlen);

/* The generators (docs/frame-trace.md): BUDGET sizes scene draws to 3 screens
 * of pixels and overlays to 1 (gfx_generate's); FIRST is the first version,
 * kept to measure what replacing it changed: each object draw a fraction of
 * the screen with no frame-wide budget, full-screen sky and post passes
 * (20 to 60 screens of pixels a frame), small groups' triangles spread less. */
enum gfx_generator { GFX_GEN_BUDGET, GFX_GEN_FIRST, GFX_N_GENERATORS };
extern const char *const gfx_generator_names[]; /* "budget", "first", NULL */

int gfx_generate_with(struct gfx_trace *t, const struct gfx_game *g, uint64_t seed,
                      enum gfx_generator gen, char *err, size_t errlen);

/* The spread (log-normal sigma) of triangles among the draws of the object,
 * shadow and transparent groups: heavy-tailed, so that a few draws hold much
 * of a group. gfx_generate_spread with another value is an ablation (0: each
 * such group's triangles split evenly); the draws' pixels keep their budget. */
#define GFX_GEN_DRAW_SIGMA 1.3

int gfx_generate_spread(struct gfx_trace *t, const struct gfx_game *g, uint64_t seed,
                        enum gfx_generator gen, double draw_sigma, char *err, size_t errlen);

#endif
