/*
 * claim_lint.c - claims that can fail (docs/repro.md, "Claims that can
 * fail"): before anything runs, each claim is evaluated on counterfactual
 * data, and a claim whose verdict no data can change is refused.
 *
 * A counterfactual data set ("world") fills every run of the sweep with
 * made-up statistics: a level shared by every run, times a factor per
 * design (the same run configuration on every app), times a factor per
 * run (one app's swing), each statistic drawn on its own. The factors come
 * from the claim's own thresholds, moved just past them on either side (and
 * their reciprocals: the compared designs exchanged), and from plain
 * effects (0.5x .. 2x); some statistics are zero and some runs fail their
 * output check. Worlds are drawn from a fixed seed, so the lint is
 * deterministic. A claim must hold in some world and fail in another.
 *
 * A claim whose text says "within N%" is two-sided: with its first design
 * moved just outside the band on each side (every statistic of it scaled
 * by (1 + N%) x 1.02, or by (1 - N%) x 0.98) it must fail, and with every
 * design equal it must hold. A claim declaring `band = LO HI` (its text's
 * "about X") must fail with its first value just below LO and just above
 * HI, and hold at the band's middle. A claim whose text says "about" with
 * a number and declares no band is refused.
 *
 * Worlds are built by writing r->res, which is NULL until the sweep runs;
 * the claims are evaluated by the engine's own functions, so a set's mean,
 * a variant's fallback, a lines figure's points are what a real run gives.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/repro_values.h"

#define LINT_WORLDS    1500 /* worlds tried before a claim is refused */
#define MAX_CANDIDATES 96
#define MAX_LINT_STATS 64
#define MAX_LINT_CALLS 64

struct lint {
    struct repro *r;
    struct sweep_result *res;
    uint64_t *design_key, *run_key; /* per run of the spec */
    int stats[MAX_LINT_STATS];      /* what the claim reads: cycles, bytes_total, ... */
    unsigned n_stats;
    double cand[MAX_CANDIDATES]; /* the factors worlds draw from */
    unsigned n_cand;
};

static uint64_t mix(uint64_t x) /* splitmix64's finaliser */
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static uint64_t hash_str(uint64_t h, const char *s)
{
    for (; s && *s; s++)
        h = mix(h ^ (unsigned char)*s);
    return h;
}

static double unit(uint64_t h) /* [0, 1) */
{
    return (double)(h >> 11) / 9007199254740992.0;
}

static void add_stat(struct lint *l, int stat)
{
    for (unsigned i = 0; i < l->n_stats; i++)
        if (l->stats[i] == stat)
            return;
    if (stat >= 0 && l->n_stats < MAX_LINT_STATS)
        l->stats[l->n_stats++] = stat;
}

static void add_cand(struct lint *l, double v)
{
    if (l->n_cand < MAX_CANDIDATES && v > 0 && isfinite(v))
        l->cand[l->n_cand++] = v;
}

/* The statistics and factors one claim needs. */
static void lint_prepare(struct lint *l, const struct rp_claim *c)
{
    const struct cx_call *calls[MAX_LINT_CALLS];
    unsigned n = cx_calls(c->node, calls, MAX_LINT_CALLS);
    l->n_stats = 0;
    add_stat(l, repro_stat_find("cycles"));
    add_stat(l, repro_stat_find("bytes_total"));
    for (unsigned i = 0; i < n; i++) {
        if (!strcmp(calls[i]->fn, "stat"))
            add_stat(l, repro_stat_find(calls[i]->args[2]));
        if (!strcmp(calls[i]->fn, "peak") || !strcmp(calls[i]->fn, "point")) {
            const struct rp_figure *f = repro_figure(l->r, calls[i]->args[0]);
            if (f && (f->metric == RP_RATIO || f->metric == RP_VALUE))
                add_stat(l, f->stat);
        }
    }
    static const double plain[] = {0.5, 0.8, 0.9, 0.97, 1.03, 1.1, 1.25, 2};
    l->n_cand = 0;
    for (unsigned i = 0; i < sizeof plain / sizeof plain[0]; i++)
        add_cand(l, plain[i]);
    double k[32];
    unsigned nk = cx_constants(c->node, k, 32);
    for (unsigned i = 0; i < nk; i++) {
        add_cand(l, k[i] * 1.01);
        add_cand(l, k[i] / 1.01);
        add_cand(l, 1 / (k[i] * 1.01));
        add_cand(l, 1.01 / k[i]);
    }
}

/* One world (0: every run alike). */
static void lint_world(struct lint *l, unsigned w)
{
    const struct repro *r = l->r;
    uint64_t seed = mix(0x6c696e74ull + w);
    double level = 1, p = 0, q = 0, zero = 0;
    if (w) {
        uint64_t h = mix(seed);
        level = h & 1 ? l->cand[(h >> 8) % l->n_cand] : 1;
        p = (double[]){0.2, 0.5, 1.0}[(h >> 24) % 3];
        q = (double[]){0, 0, 0.3, 1.0}[(h >> 32) % 4];
        zero = (h >> 40) % 3 ? 0 : 0.2;
    }
    int cycles = repro_stat_find("cycles"), bytes = repro_stat_find("bytes_total");
    for (unsigned i = 0; i < r->spec.n_runs; i++) {
        struct sweep_result *x = &l->res[i];
        memset(x, 0, sizeof *x);
        x->finished = x->has_stats = true;
        x->check = SWEEP_CHECK_OK;
        if (q && unit(mix(seed ^ l->run_key[i] ^ 0xc4ec)) < q / 8)
            x->check = SWEEP_CHECK_WRONG;
        for (unsigned s = 0; s < l->n_stats; s++) {
            uint64_t axis = mix((uint64_t)l->stats[s] + 1);
            uint64_t hd = mix(seed ^ l->design_key[i] ^ axis),
                     hr = mix(seed ^ l->run_key[i] ^ axis);
            double v = level;
            if (unit(hd) < p)
                v *= l->cand[(hd >> 7) % l->n_cand];
            if (unit(hr) < q)
                v *= l->cand[(hr >> 7) % l->n_cand];
            if (l->stats[s] != cycles && l->stats[s] != bytes && unit(mix(hd)) < zero)
                v = 0;
            repro_stat_put(x, l->stats[s], v);
        }
    }
}

/* The design a claim is about: its first call's (a speedup's or traffic's
 * design, a stat's, max_app's, a lines figure's series or design) as the
 * runs that carry it: block, configuration and setting (NULL: any). */
struct subject {
    const char *block, *config, *setting, *name;
};

static bool subject_of(const struct repro *r, const struct cx_call *c, struct subject *s)
{
    const char *design = NULL;
    if (!strcmp(c->fn, "speedup") || !strcmp(c->fn, "traffic") || !strcmp(c->fn, "stat"))
        design = c->args[1];
    else if (!strcmp(c->fn, "max_app"))
        design = c->args[2];
    else if (!strcmp(c->fn, "point")) {
        const struct rp_figure *f = repro_figure(r, c->args[0]);
        *s = (struct subject){f->block, f->by_design ? c->args[1] : f->design, NULL,
                              f->by_design ? c->args[1] : f->design};
        return true;
    }
    if (!design)
        return false;
    const struct rp_variant *v = repro_variant(r, design);
    if (v)
        *s = (struct subject){v->block, v->design, v->setting[0] ? v->setting : NULL, design};
    else
        *s = (struct subject){r->d.block, design, NULL, design};
    return true;
}

static bool is_subject(const struct sweep_run *run, const struct subject *s)
{
    if (strcmp(run->block, s->block) || strcmp(run->config, s->config))
        return false;
    for (unsigned k = 0; s->setting && k < run->n_settings; k++)
        if (!strcmp(run->settings[k], s->setting))
            return true;
    return !s->setting;
}

/* The neutral world with every statistic of the subject's runs times f. */
static void lint_scaled(struct lint *l, const struct subject *s, double f)
{
    lint_world(l, 0);
    for (unsigned i = 0; i < l->r->spec.n_runs; i++)
        if (is_subject(&l->r->spec.runs[i], s))
            for (unsigned k = 0; k < l->n_stats; k++)
                repro_stat_put(&l->res[i], l->stats[k], repro_stat(&l->res[i], l->stats[k]) * f);
}

static double verdict(struct lint *l, const struct rp_claim *c)
{
    return cx_eval(c->node, repro_claim_env(l->r), NULL, 0);
}

/* The N of a text's "within N%", or NaN. */
static double within_percent(const char *text)
{
    for (const char *p = strstr(text, "within "); p; p = strstr(p + 1, "within ")) {
        char *end;
        double n = strtod(p + 7, &end);
        if (end != p + 7 && *end == '%')
            return n;
    }
    return NAN;
}

/* Whether a text says "about" followed by a number ("about 50%", "about 2x"). */
static bool says_about(const char *text)
{
    for (const char *p = strstr(text, "about "); p; p = strstr(p + 1, "about "))
        if ((p == text || !isalpha((unsigned char)p[-1])) && isdigit((unsigned char)p[6]))
            return true;
    return false;
}

#define REFUSE(...)                                                                                \
    do {                                                                                           \
        snprintf(why, whylen, __VA_ARGS__);                                                        \
        return false;                                                                              \
    } while (0)

/* The two-sided checks of a claim with a tolerance: false with the reason. */
static bool lint_band(struct lint *l, const struct rp_claim *c, char *why, size_t whylen)
{
    const struct repro *r = l->r;
    double pct = within_percent(c->text);
    bool band = c->band_line != 0;
    if (says_about(c->text) && !band)
        REFUSE("claim '%s' says 'about' but declares no band (band = LO HI)", c->id);
    if (isnan(pct) && !band)
        return true;
    const struct cx_call *first;
    struct subject s;
    if (!cx_calls(c->node, &first, 1) || !subject_of(r, first, &s))
        REFUSE("claim '%s' has a tolerance but names no design to move", c->id);
    double lo, hi, mid; /* factors of the subject's statistics */
    if (band) {
        /* the first value as a function of the factor: proportional or inverse */
        lint_scaled(l, &s, 1);
        double v1 = repro_claim_env(l->r)->value(l->r, first);
        lint_scaled(l, &s, 2);
        double v2 = repro_claim_env(l->r)->value(l->r, first);
        bool up = fabs(v2 - 2 * v1) < 1e-9 * fabs(v1), down = fabs(v2 - v1 / 2) < 1e-9 * fabs(v1);
        if (!(v1 > 0) || (!up && !down))
            REFUSE("claim '%s': band: %s does not move with %s's statistics", c->id, first->text,
                   s.name);
        double t_lo = c->band_lo * 0.98, t_hi = c->band_hi * 1.02,
               t_mid = (c->band_lo + c->band_hi) / 2;
        lo = up ? t_lo / v1 : v1 / t_lo;
        hi = up ? t_hi / v1 : v1 / t_hi;
        mid = up ? t_mid / v1 : v1 / t_mid;
    } else {
        lo = (1 - pct / 100) * 0.98;
        hi = (1 + pct / 100) * 1.02;
        mid = 1;
    }
    lint_scaled(l, &s, mid);
    if (verdict(l, c) != 1)
        REFUSE("claim '%s' does not hold inside its band (%s's statistics x %.3g)", c->id, s.name,
               mid);
    const double edge[2] = {lo, hi};
    for (int e = 0; e < 2; e++) {
        lint_scaled(l, &s, edge[e]);
        if (verdict(l, c) == 1)
            REFUSE("claim '%s' cannot fail on one side: it holds with %s's statistics x %.3g, "
                   "outside its %s",
                   c->id, s.name, edge[e], band ? "band" : "'within' band");
    }
    return true;
}

/* Whether a claim can both hold and fail; false with the reason. */
static bool lint_claim(struct lint *l, const struct rp_claim *c, char *why, size_t whylen)
{
    lint_prepare(l, c);
    bool held = false, failed = false;
    for (unsigned w = 0; w <= LINT_WORLDS && !(held && failed); w++) {
        lint_world(l, w);
        double v = verdict(l, c);
        held |= v == 1, failed |= v == 0;
    }
    if (held && !failed)
        REFUSE("claim '%s' cannot fail: it holds on all %d counterfactual data sets (designs' "
               "values exchanged, moved past its thresholds, per app and per design)",
               c->id, LINT_WORLDS + 1);
    if (failed && !held)
        REFUSE("claim '%s' cannot hold: it fails on all %d counterfactual data sets", c->id,
               LINT_WORLDS + 1);
    if (!held) /* unknown everywhere: a design not built; the report says cannot check */
        return true;
    return lint_band(l, c, why, whylen);
}

unsigned repro_lint_claims(struct repro *r, char *err, size_t errlen)
{
    if (!r->d.n_claims || !r->spec.n_runs)
        return 0;
    struct lint l = {.r = r};
    unsigned n = r->spec.n_runs;
    l.res = calloc(n, sizeof *l.res);
    l.design_key = calloc(n, sizeof *l.design_key);
    l.run_key = calloc(n, sizeof *l.run_key);
    if (!l.res || !l.design_key || !l.run_key)
        abort();
    for (unsigned i = 0; i < n; i++) {
        /* a design: the same protocol, settings, machine and configuration
         * variant on any app (an app's own variant, ht:m's m, left out) */
        const struct sweep_run *run = &r->spec.runs[i];
        const char *variant = run->variant ? run->variant : "";
        const char *app_variant = strchr(run->workload, ':');
        size_t av = app_variant ? strlen(app_variant + 1) : 0;
        if (av && !strncmp(variant, app_variant + 1, av))
            variant += av + (variant[av] == '-');
        uint64_t k = hash_str(hash_str(hash_str(2, run->protocol), run->settings_text), variant);
        l.design_key[i] = hash_str(k, run->config_file);
        l.run_key[i] = hash_str(1, run->id);
    }
    struct sweep_result *saved = r->res;
    r->res = l.res;
    unsigned refused = 0;
    size_t used = 0;
    if (errlen)
        err[0] = 0;
    for (unsigned i = 0; i < r->d.n_claims; i++) {
        const struct rp_claim *c = &r->d.claims[i];
        char why[512];
        if (lint_claim(&l, c, why, sizeof why))
            continue;
        refused++;
        if (used < errlen)
            used += (size_t)snprintf(err + used, errlen - used, "%s%s:%u: %s", used ? "\n" : "",
                                     r->d.path, c->line, why);
    }
    r->res = saved;
    free(l.res);
    free(l.design_key);
    free(l.run_key);
    return refused;
}
