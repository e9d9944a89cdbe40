/*
 * 980-gfx-sfr.c - the split-frame rendering model: trace parser errors and
 * round trip, the synthetic image's order sensitivity, and for every design
 * a composed frame equal to the sequential rendering, on the committed small
 * traces (with transparent and other order-dependent groups) at several GPU
 * counts and thresholds; the model is deterministic.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/rng.h"
#include "gfx/gen.h"
#include "gfx/image.h"
#include "gfx/sfr.h"

static const char *const traces[] = {"mirror-s5", "mirror-s6", "cod2-s7"};

static void load(struct gfx_trace *t, const char *name)
{
    char path[4096], err[512];
    const char *root = getenv("GPUCOH_ROOT");
    snprintf(path, sizeof path, "%s/tests/gfx/%s.trace", root ? root : GPUCOH_SOURCE_DIR, name);
    int rc = gfx_trace_load(t, path, err, sizeof err);
    if (rc)
        fail_msg("%s", err);
}

static void expect_error(const char *text, const char *want)
{
    struct gfx_trace t;
    char err[512] = "";
    assert_int_equal(gfx_trace_parse(&t, text, "t.trace", err, sizeof err), -1);
    if (!strstr(err, want))
        fail_msg("expected '%s' in '%s'", want, err);
}

#define DRAW "draw tris=10 tiles=0,0,1,1 ppt=2 gcpt=1 rt=0 zwrite=1 zfunc=less blend=none\n"

static void parse_errors(void **state)
{
    (void)state;
    expect_error("group\n", "t.trace:1: expected 'frame NAME WIDTH HEIGHT' before 'group'");
    expect_error("frame a 640 480\n" DRAW, "t.trace:2: draw before the first 'group' line");
    expect_error("frame a 640 480\ngroup\ndraw tris=10\n", "t.trace:3: draw lacks field 'tiles'");
    expect_error("frame a 640 480\ngroup\n" DRAW "draw tris=x tiles=0,0,1,1\n",
                 "t.trace:4: tris: 'x' is not a whole number");
    expect_error("frame a 640 480\ngroup\ndraw tris=10 tiles=9,0,2,1 ppt=2 gcpt=1 rt=0 zwrite=1 "
                 "zfunc=less blend=none\n",
                 "t.trace:3: tiles: 9,0,2,1 leaves the 10x8-tile screen");
    expect_error("frame a 640 480\ngroup\n" DRAW
                 "draw tris=10 tiles=0,0,1,1 ppt=2 gcpt=1 rt=0 zwrite=1 zfunc=lequal blend=none\n",
                 "t.trace:4: depth function changes inside a composition group");
    expect_error("frame a 640 480\ngroup\ndraw tris=10 tiles=0,0,1,1 ppt=2 gcpt=1 rt=0 zwrite=1 "
                 "zfunc=less blend=over\n",
                 "t.trace:3: a blended draw with depth writes is not modelled");
    expect_error(
        "frame a 640 480\ngroup\ndraw tris=10 tiles=0,0,1,1 ppt=2 gcpt=1 rt=0 zwrite=1 "
        "zfunc=nearer blend=none\n",
        "t.trace:3: zfunc: 'nearer' is not one of less lequal greater gequal always never");
    expect_error("frame a 640 480\ngroup\ngroup\n" DRAW, "t.trace:3: empty composition group");
    expect_error("frame a 640 480\nsplat\n", "t.trace:2: unknown directive 'splat'");
    expect_error("frame a 640 480\ngroup\n" DRAW "draw tris=1 tris=2\n",
                 "t.trace:4: draw field 'tris' given twice");
}

static void assert_same_draws(const struct gfx_trace *a, const struct gfx_trace *b)
{
    assert_int_equal(a->n_draws, b->n_draws);
    assert_int_equal(a->n_groups, b->n_groups);
    for (uint32_t i = 0; i < a->n_draws; i++) {
        const struct gfx_draw *x = &a->draws[i], *y = &b->draws[i];
        /* field by field: a struct copy need not copy padding, and `line` is
         * where a draw was read from */
        assert_true(x->tris == y->tris && x->tx == y->tx && x->ty == y->ty && x->tw == y->tw &&
                    x->th == y->th && x->ppt == y->ppt && x->gcpt == y->gcpt && x->rt == y->rt &&
                    x->zwrite == y->zwrite && x->zfunc == y->zfunc && x->blend == y->blend &&
                    x->group == y->group);
    }
}

static void round_trip(void **state)
{
    (void)state;
    struct gfx_game g = *gfx_game_find("cod2");
    g.draws = 120, g.tris = 30000;
    struct gfx_trace a, b;
    char gerr[256];
    assert_int_equal(gfx_generate(&a, &g, 7, gerr, sizeof gerr), 0);
    assert_int_equal(a.n_draws, 120);
    assert_int_equal(a.tris, 30000);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    gfx_trace_write(&a, f);
    fclose(f);
    char err[512];
    assert_int_equal(gfx_trace_parse(&b, text, "gen", err, sizeof err), 0);
    assert_same_draws(&a, &b);
    /* the committed test trace is this generator's output (seed 7) */
    struct gfx_trace c;
    load(&c, "cod2-s7");
    assert_same_draws(&a, &c);
    gfx_trace_free(&a), gfx_trace_free(&b), gfx_trace_free(&c);
    free(text);
}

/* Pixels shaded by a frame, in screens (sum of tris x ppt over the screen's pixels). */
static double screens(const struct gfx_trace *t)
{
    double px = 0;
    for (uint32_t i = 0; i < t->n_draws; i++)
        px += t->draws[i].tris * t->draws[i].ppt;
    return px / ((double)t->width * t->height);
}

/* The first generator, kept as trace.generator = first: cod2-s7-first.trace was
 * written by the generator as it was before commit ea10d87 (seed 7, shrunk), and
 * GFX_GEN_FIRST gives it draw for draw; at full size its frames shade far more
 * pixels than the budget generator's. gfx_generate is the budget generator. */
static void first_generator(void **state)
{
    (void)state;
    struct gfx_game g = *gfx_game_find("cod2");
    g.draws = 120, g.tris = 30000;
    struct gfx_trace a, b, c;
    char gerr[256];
    assert_int_equal(gfx_generate_with(&a, &g, 7, GFX_GEN_FIRST, gerr, sizeof gerr), 0);
    char *text = NULL, *want = NULL, path[4096];
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    gfx_trace_write(&a, f);
    fclose(f);
    const char *root = getenv("GPUCOH_ROOT");
    snprintf(path, sizeof path, "%s/tests/gfx/cod2-s7-first.trace",
             root ? root : GPUCOH_SOURCE_DIR);
    f = fopen(path, "r");
    assert_non_null(f);
    want = calloc(len + 2, 1);
    assert_int_equal(fread(want, 1, len + 1, f), len); /* the same bytes, no more */
    fclose(f);
    assert_string_equal(text, want);
    free(text), free(want);
    assert_int_equal(gfx_generate(&b, &g, 7, gerr, sizeof gerr), 0);
    load(&c, "cod2-s7");
    assert_same_draws(&b, &c);
    gfx_trace_free(&a), gfx_trace_free(&b), gfx_trace_free(&c);
    for (const struct gfx_game *gg = gfx_games; gg->name; gg++) {
        assert_int_equal(gfx_generate_with(&a, gg, 1, GFX_GEN_FIRST, gerr, sizeof gerr), 0);
        assert_int_equal(gfx_generate_with(&b, gg, 1, GFX_GEN_BUDGET, gerr, sizeof gerr), 0);
        assert_int_equal(a.n_draws, gg->draws);
        assert_int_equal(a.tris, gg->tris);
        double fa = screens(&a), fb = screens(&b);
        if (!(fa > 50 && fb < 12 && fb > 4))
            fail_msg("%s: first %.1f screens, budget %.1f", gg->name, fa, fb);
        gfx_trace_free(&a), gfx_trace_free(&b);
    }
}

/* The draw-spread ablation: at the generator's own spread it is the generator;
 * at 0 every object, shadow and transparent group splits its triangles evenly
 * (the largest group's draws differ by at most one triangle), with the same
 * totals; at 1.3 the same group's draws are far apart. */
static void draw_spread(void **state)
{
    (void)state;
    const struct gfx_game *g = gfx_game_find("cod2");
    struct gfx_trace a, b, even;
    char gerr[256];
    assert_int_equal(gfx_generate_with(&a, g, 1, GFX_GEN_BUDGET, gerr, sizeof gerr), 0);
    assert_int_equal(
        gfx_generate_spread(&b, g, 1, GFX_GEN_BUDGET, GFX_GEN_DRAW_SIGMA, gerr, sizeof gerr), 0);
    assert_same_draws(&a, &b);
    assert_int_equal(gfx_generate_spread(&even, g, 1, GFX_GEN_BUDGET, 0, gerr, sizeof gerr), 0);
    assert_int_equal(even.n_draws, g->draws);
    assert_int_equal(even.tris, g->tris);
    assert_int_equal(even.n_groups, a.n_groups);
    const struct gfx_group *big = &even.groups[0], *was = &a.groups[0];
    for (uint32_t k = 0; k < even.n_groups; k++)
        if (even.groups[k].tris > big->tris)
            big = &even.groups[k], was = &a.groups[k];
    assert_true(big->n > 8);
    uint32_t lo = UINT32_MAX, hi = 0, was_lo = UINT32_MAX, was_hi = 0;
    for (uint32_t i = 0; i < big->n; i++) {
        uint32_t n = even.draws[big->first + i].tris, m = a.draws[was->first + i].tris;
        lo = MIN(lo, n), hi = MAX(hi, n), was_lo = MIN(was_lo, m), was_hi = MAX(was_hi, m);
    }
    assert_true(hi - lo <= 1);
    assert_true(was_hi > 10 * was_lo);
    gfx_trace_free(&a), gfx_trace_free(&b), gfx_trace_free(&even);
}

/* CompSched's decision counters and its ablations: direct-send makes no
 * pairing; CompSched pairs every receiver with every sender of each composed
 * group, holds some back (at most every pairing), and with the handshake free
 * sends no scheduler bytes for it; every variant composes the right frame. */
static void compsched_decisions(void **state)
{
    (void)state;
    struct gfx_trace t;
    load(&t, "mirror-s6");
    struct sfr_config c;
    char err[256];
    struct sfr_result direct, cs, pairs7, freemsg;
    assert_int_equal(sfr_config_load(&c, NULL, NULL, 0, err, sizeof err), 0);
    sfr_run(&t, &c, SFR_CHOPIN, &direct, NULL);
    sfr_run(&t, &c, SFR_CHOPIN_CS, &cs, NULL);
    assert_int_equal(direct.ics_pairs, 0);
    assert_int_equal(direct.ics_pairs_held, 0);
    assert_int_equal(cs.ics_pairs, (uint64_t)cs.groups_composed * c.gpus * (c.gpus - 1));
    assert_true(cs.ics_pairs_held > 0 && cs.ics_pairs_held <= cs.ics_pairs);
    assert_true(cs.ics_hold_cycles > 0);
    const char *p7[] = {"ics.pairs=7"}, *fm[] = {"ics.free_messages=1"};
    assert_int_equal(sfr_config_load(&c, NULL, p7, 1, err, sizeof err), 0);
    sfr_run(&t, &c, SFR_CHOPIN_CS, &pairs7, NULL);
    assert_int_equal(pairs7.ics_pairs, cs.ics_pairs);
    assert_true(pairs7.ics_pairs_held < cs.ics_pairs_held);
    assert_int_equal(sfr_config_load(&c, NULL, fm, 1, err, sizeof err), 0);
    sfr_run(&t, &c, SFR_CHOPIN_CS, &freemsg, NULL);
    assert_true(freemsg.traffic[SFR_T_SCHED] < cs.traffic[SFR_T_SCHED]);
    assert_int_equal(direct.wrong_tiles + cs.wrong_tiles + pairs7.wrong_tiles + freemsg.wrong_tiles,
                     0);
    gfx_trace_free(&t);
}

/* Blending in the wrong order changes the colour: the check can see order bugs. */
static void image_order_sensitive(void **state)
{
    (void)state;
    struct gfx_draw over = {.blend = GFX_BLEND_OVER};
    struct gfx_map a = gfx_frag_map(&over, 1, 3), b = gfx_frag_map(&over, 2, 3);
    uint64_t bg = 12345;
    assert_int_not_equal(gfx_map_apply(gfx_map_then(a, b), bg),
                         gfx_map_apply(gfx_map_then(b, a), bg));
    /* associativity: (a b) c == a (b c) */
    struct gfx_map c = gfx_frag_map(&over, 3, 3);
    struct gfx_map l = gfx_map_then(gfx_map_then(a, b), c), r = gfx_map_then(a, gfx_map_then(b, c));
    assert_true(l.c == r.c && l.t == r.t);
}

static void all_designs_compose_correctly(void **state)
{
    (void)state;
    static const unsigned gpus[] = {2, 3, 8};
    static const unsigned thresholds[] = {4096, 64};
    for (size_t ti = 0; ti < sizeof traces / sizeof *traces; ti++) {
        struct gfx_trace t;
        load(&t, traces[ti]);
        for (size_t gi = 0; gi < 3; gi++)
            for (size_t hi = 0; hi < 2; hi++)
                for (int d = 0; d < SFR_N_DESIGNS; d++) {
                    struct sfr_config c;
                    char err[256], s1[64], s2[64];
                    snprintf(s1, sizeof s1, "machine.gpus=%u", gpus[gi]);
                    snprintf(s2, sizeof s2, "chopin.threshold_tris=%u", thresholds[hi]);
                    const char *sets[] = {s1, s2};
                    assert_int_equal(sfr_config_load(&c, NULL, sets, 2, err, sizeof err), 0);
                    struct sfr_result r;
                    sfr_run(&t, &c, (enum sfr_design)d, &r, NULL);
                    if (r.wrong_tiles)
                        fail_msg("%s %s gpus=%u threshold=%u: %u tiles differ", traces[ti],
                                 sfr_design_names[d], gpus[gi], thresholds[hi], r.wrong_tiles);
                    assert_true(r.cycles > 0);
                    if (d >= SFR_CHOPIN)
                        assert_true(r.groups_composed > 0 && r.traffic[SFR_T_COMPOSE] > 0);
                }
        gfx_trace_free(&t);
    }
}

/* Random frames using every depth function and blend operator, every group composed
 * (threshold 1) or none, against the sequential rendering. */
static void random_frames_every_state(void **state)
{
    (void)state;
    struct rng r;
    rng_seed(&r, 42, 0);
    for (int frame = 0; frame < 6; frame++) {
        struct gfx_trace t = {.width = 200, .height = 130};
        snprintf(t.name, sizeof t.name, "rand%d", frame);
        t.tiles_x = 4, t.tiles_y = 3;
        for (int g = 0; g < 12; g++) {
            struct gfx_draw st = {.rt = (uint8_t)rng_below(&r, 3),
                                  .zfunc = (uint8_t)rng_below(&r, GFX_Z_N),
                                  .blend = (uint8_t)rng_below(&r, GFX_BLEND_N)};
            st.zwrite = st.blend == GFX_BLEND_NONE && rng_chance(&r, 2, 3);
            gfx_trace_begin_group(&t);
            int n = 1 + (int)rng_below(&r, 12);
            for (int k = 0; k < n; k++) {
                struct gfx_draw d = st;
                d.tris = 1 + (uint32_t)rng_below(&r, 300);
                d.tw = (uint16_t)(1 + rng_below(&r, t.tiles_x));
                d.th = (uint16_t)(1 + rng_below(&r, t.tiles_y));
                d.tx = (uint16_t)rng_below(&r, t.tiles_x - d.tw + 1);
                d.ty = (uint16_t)rng_below(&r, t.tiles_y - d.th + 1);
                d.ppt = 1 + (double)rng_below(&r, 50);
                d.gcpt = 1 + (double)rng_below(&r, 8);
                gfx_trace_add_draw(&t, &d);
            }
        }
        static const char *const gpus[] = {"machine.gpus=2", "machine.gpus=5", "machine.gpus=8"};
        static const char *const thr[] = {"chopin.threshold_tris=1",
                                          "chopin.threshold_tris=100000"};
        for (int gi = 0; gi < 3; gi++)
            for (int ti = 0; ti < 2; ti++)
                for (int d = 0; d < SFR_N_DESIGNS; d++) {
                    struct sfr_config c;
                    char err[256];
                    const char *sets[] = {gpus[gi], thr[ti], "chopin.queue_draws=2"};
                    assert_int_equal(sfr_config_load(&c, NULL, sets, 3, err, sizeof err), 0);
                    struct sfr_result res;
                    sfr_run(&t, &c, (enum sfr_design)d, &res, NULL);
                    if (res.wrong_tiles)
                        fail_msg("frame %d %s %s %s: %u tiles differ", frame, sfr_design_names[d],
                                 gpus[gi], thr[ti], res.wrong_tiles);
                }
        gfx_trace_free(&t);
    }
}

static void deterministic(void **state)
{
    (void)state;
    struct gfx_trace t;
    load(&t, "mirror-s6");
    struct sfr_config c;
    char err[256];
    assert_int_equal(sfr_config_load(&c, NULL, NULL, 0, err, sizeof err), 0);
    for (int d = 0; d < SFR_N_DESIGNS; d++) {
        struct sfr_result a, b;
        sfr_run(&t, &c, (enum sfr_design)d, &a, NULL);
        sfr_run(&t, &c, (enum sfr_design)d, &b, NULL);
        assert_int_equal(a.cycles, b.cycles);
        assert_memory_equal(a.traffic, b.traffic, sizeof a.traffic);
        assert_int_equal(a.events, b.events);
    }
    gfx_trace_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parse_errors),
        cmocka_unit_test(round_trip),
        cmocka_unit_test(image_order_sensitive),
        cmocka_unit_test(all_designs_compose_correctly),
        cmocka_unit_test(random_frames_every_state),
        cmocka_unit_test(deterministic),
        cmocka_unit_test(first_generator),
        cmocka_unit_test(draw_spread),
        cmocka_unit_test(compsched_decisions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
