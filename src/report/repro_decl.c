/*
 * repro_decl.c - reading a reproduction's report.ini (repro.h, the format in
 * docs/repro.md). libinih reads the INI; a line-counting reader gives each
 * key its line, so a name that turns out wrong later (a design the sweep
 * does not run, a set that does not exist) is reported at the line that
 * wrote it. Indented lines continue a value (joined by a space); a key
 * written again adds a line to it (notes).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <ini.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/repro.h"

enum rp_section {
    SEC_NONE,
    SEC_REPRO,
    SEC_DESIGNS,
    SEC_SET,
    SEC_VARIANT,
    SEC_FIGURE,
    SEC_CLAIM,
    SEC_EXPLAIN,
    SEC_CALIBRATION,
    SEC_SCALE_CHECK
};

struct decl_reader {
    FILE *f;
    unsigned line;
    bool continued;        /* the line just read is indented */
    unsigned too_long;     /* the first line longer than inih's buffer */
    int max_line;          /* inih's buffer */
    unsigned section_line; /* the last [section] line read */
    unsigned err_line;     /* the first error's line */
    struct rp_decl *d;
    char section[256];
    enum rp_section sec;
    char last_key[64];
    char msg[512];
};

static char *read_line(char *str, int num, void *stream)
{
    struct decl_reader *rd = stream;
    char *s = fgets(str, num, rd->f);
    rd->max_line = num;
    if (s) {
        rd->line++;
        rd->continued = str[0] == ' ' || str[0] == '\t';
        if (str[strspn(str, " \t")] == '[')
            rd->section_line = rd->line;
        if (!strchr(s, '\n') && !feof(rd->f)) {
            /* inih's buffer is shorter than the line: drop the rest of it
             * (so the line count stays right) and refuse the file */
            int c;
            while ((c = fgetc(rd->f)) != EOF && c != '\n')
                ;
            if (!rd->too_long)
                rd->too_long = rd->line;
        }
    }
    return s;
}

static int bad(struct decl_reader *rd, const char *fmt, ...)
{
    if (rd->msg[0])
        return 0; /* inih goes on after an error: the first one is reported */
    rd->err_line = rd->line;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(rd->msg, sizeof rd->msg, fmt, ap);
    va_end(ap);
    return 0;
}

/* Set, continue (indented line: joined by a space) or extend (the key
 * again: a new line) a text value. */
static void text_value(struct decl_reader *rd, char *dst, size_t n, const char *key, const char *v)
{
    bool same = !strcmp(rd->last_key, key) && dst[0];
    size_t len = strlen(dst);
    if (!same)
        snprintf(dst, n, "%s", v);
    else if (len < n)
        snprintf(dst + len, n - len, "%s%s", rd->continued ? " " : "\n", v);
}

static int name_value(struct decl_reader *rd, char *dst, size_t n, const char *key, const char *v)
{
    if (!*v || strpbrk(v, " \t,"))
        return bad(rd, "%s = '%s': expected one name", key, v);
    if (strlen(v) >= n)
        return bad(rd, "%s = '%s': longer than %zu characters", key, v, n - 1);
    snprintf(dst, n, "%s", v);
    return 1;
}

static const char *const kind_names[] = {"bars", "stacked", "lines", "table"};
const char *const rp_size_names[RP_N_SIZES] = {"tiny", "quick", "small", "paper"};

static int parse_metric(struct decl_reader *rd, struct rp_figure *f, const char *v)
{
    if (!strcmp(v, "speedup"))
        f->metric = RP_SPEEDUP;
    else if (!strcmp(v, "traffic"))
        f->metric = RP_TRAFFIC;
    else if (!strcmp(v, "traffic_class"))
        f->metric = RP_TRAFFIC_CLASS;
    else if (!strncmp(v, "ratio:", 6) || !strncmp(v, "value:", 6)) {
        f->metric = v[0] == 'r' ? RP_RATIO : RP_VALUE;
        snprintf(f->stat_name, sizeof f->stat_name, "%.*s", RP_NAME - 1, v + 6);
        char *slash = strchr(f->stat_name, '/');
        if (slash && f->metric == RP_VALUE) { /* value:STAT/DIVISOR: shown divided */
            char *end;
            f->divisor = strtod(slash + 1, &end);
            if (*end || end == slash + 1 || !(f->divisor > 0))
                return bad(rd, "metric = %s: expected value:STAT[/DIVISOR]", v);
            *slash = 0;
        }
        f->stat = repro_stat_find(f->stat_name);
        if (f->stat < 0) {
            char known[1024];
            repro_stat_names(known, sizeof known);
            return bad(rd, "metric = %s: unknown statistic '%s' (known: %s)", v, v + 6, known);
        }
    } else {
        return bad(rd,
                   "metric = %s: unknown metric (expected speedup, traffic, traffic_class, "
                   "ratio:STAT or value:STAT[/DIVISOR])",
                   v);
    }
    return 1;
}

/* The keys of enum rp_fig_key, in its order. */
static const char *const fig_keys[RP_FK_N] = {"title",       "kind",   "metric", "set", "baseline",
                                              "designs",     "design", "block",  "x",   "beside",
                                              "beside_stat", "parts",  "best"};

static int figure_key(struct decl_reader *rd, struct rp_figure *f, const char *key, const char *v)
{
    for (unsigned k = 0; k < RP_FK_N; k++)
        if (!strcmp(key, fig_keys[k]))
            f->key_line[k] = rd->line;
    if (!strcmp(key, "title"))
        text_value(rd, f->title, sizeof f->title, key, v);
    else if (!strcmp(key, "plot_title"))
        text_value(rd, f->plot_title, sizeof f->plot_title, key, v);
    else if (!strcmp(key, "ylabel"))
        text_value(rd, f->ylabel, sizeof f->ylabel, key, v);
    else if (!strcmp(key, "xlabel"))
        text_value(rd, f->xlabel, sizeof f->xlabel, key, v);
    else if (!strcmp(key, "note"))
        text_value(rd, f->note, sizeof f->note, key, v);
    else if (!strcmp(key, "kind")) {
        for (unsigned k = 0; k < 4; k++)
            if (!strcmp(v, kind_names[k])) {
                f->kind = (enum rp_kind)k;
                return 1;
            }
        return bad(rd, "kind = %s: expected bars, stacked, lines or table", v);
    } else if (!strcmp(key, "metric"))
        return parse_metric(rd, f, v);
    else if (!strcmp(key, "set"))
        return name_value(rd, f->set, sizeof f->set, key, v);
    else if (!strcmp(key, "baseline"))
        return name_value(rd, f->baseline, sizeof f->baseline, key, v);
    else if (!strcmp(key, "design"))
        return name_value(rd, f->design, sizeof f->design, key, v);
    else if (!strcmp(key, "block"))
        return name_value(rd, f->block, sizeof f->block, key, v);
    else if (!strcmp(key, "x"))
        return name_value(rd, f->x, sizeof f->x, key, v);
    else if (!strcmp(key, "beside"))
        return name_value(rd, f->beside, sizeof f->beside, key, v);
    else if (!strcmp(key, "beside_stat_label"))
        return name_value(rd, f->beside_stat_label, sizeof f->beside_stat_label, key, v);
    else if (!strcmp(key, "beside_stat")) {
        f->beside_stat = repro_stat_find(v);
        if (f->beside_stat < 0) {
            char known[1024];
            repro_stat_names(known, sizeof known);
            return bad(rd, "beside_stat = %s: unknown statistic (known: %s)", v, known);
        }
    } else if (!strcmp(key, "parts")) {
        char buf[1024];
        snprintf(buf, sizeof buf, "%s", v);
        for (char *t = strtok(buf, " \t,"); t; t = strtok(NULL, " \t,")) {
            if (f->n_parts == RP_MAX_PARTS)
                return bad(rd, "parts: at most %d", RP_MAX_PARTS);
            int st = repro_stat_find(t);
            if (st < 0) {
                char known[1024];
                repro_stat_names(known, sizeof known);
                return bad(rd, "parts: unknown statistic '%s' (known: %s)", t, known);
            }
            f->part_stat[f->n_parts] = st;
            snprintf(f->parts[f->n_parts++], RP_NAME, "%s", t);
        }
    } else if (!strcmp(key, "designs") || !strcmp(key, "best")) {
        bool best = key[0] == 'b';
        char(*to)[RP_NAME] = best ? f->best : f->designs;
        unsigned *n = best ? &f->n_best : &f->n_designs;
        char buf[1024];
        snprintf(buf, sizeof buf, "%s", v);
        for (char *t = strtok(buf, " \t,"); t; t = strtok(NULL, " \t,")) {
            if (*n == RP_MAX_DESIGNS)
                return bad(rd, "%s: at most %d", key, RP_MAX_DESIGNS);
            if (strlen(t) >= RP_NAME)
                return bad(rd, "%s: '%s' is too long", key, t);
            snprintf(to[(*n)++], RP_NAME, "%s", t);
        }
    } else if (!strcmp(key, "best_label"))
        return name_value(rd, f->best_label, sizeof f->best_label, key, v);
    else
        return bad(rd,
                   "[figure %s]: unknown key '%s' (expected title, kind, metric, set, "
                   "baseline, designs, design, block, x, beside, beside_stat, "
                   "beside_stat_label, parts, best, best_label, note, plot_title, ylabel, "
                   "xlabel)",
                   f->id, key);
    return 1;
}

/* ablation = BLOCK [KEY=V], or (a calibration's undo) none (REASON): 0, or
 * -1 with what is wrong in msg. */
static int ablation_parse(struct rp_ablation *ab, const char *key, const char *v, bool none_ok,
                          char *msg, size_t n)
{
    if (none_ok && !strncmp(v, "none", 4) && (!v[4] || v[4] == ' ')) {
        const char *why = v + 4 + strspn(v + 4, " ");
        size_t len = strlen(why);
        if (len < 3 || why[0] != '(' || why[len - 1] != ')') {
            snprintf(msg, n, "%s = %.200s: expected none (REASON): why it cannot be undone", key,
                     v);
            return -1;
        }
        snprintf(ab->none, sizeof ab->none, "%.*s", (int)(len - 2), why + 1);
        return 0;
    }
    char block[256] = "", setting[256] = "", extra[8] = "";
    int k = sscanf(v, "%255s %255s %7s", block, setting, extra);
    if (k < 1 || k > 2 || strlen(block) >= sizeof ab->block ||
        strlen(setting) >= sizeof ab->setting || (k == 2 && !strchr(setting, '='))) {
        snprintf(msg, n, "%s = %.200s: expected a sweep block, and KEY=V for one of its settings%s",
                 key, v, none_ok ? " (or none (REASON))" : "");
        return -1;
    }
    /* lengths checked above: the copies are whole */
    memcpy(ab->block, block, strlen(block) + 1);
    memcpy(ab->setting, setting, strlen(setting) + 1);
    return 0;
}

static int ablation_value(struct decl_reader *rd, struct rp_ablation *ab, const char *key,
                          const char *v)
{
    char msg[512];
    ab->line = rd->line;
    return ablation_parse(ab, key, v, false, msg, sizeof msg) ? bad(rd, "%s", msg) : 1;
}

/* rest = main: the apps the ablation's block does not run are the main
 * block's runs (the block changes only its own apps' input or kernel). */
static int rest_value(struct decl_reader *rd, struct rp_ablation *ab, const char *v)
{
    if (strcmp(v, "main"))
        return bad(rd,
                   "rest = %s: expected main (the apps the block does not run are the main "
                   "block's; without it they are left out on both sides)",
                   v);
    ab->rest_main = true;
    return 1;
}

static int explain_key(struct decl_reader *rd, struct rp_explain *x, const char *key, const char *v)
{
    if (!strcmp(key, "text"))
        text_value(rd, x->text, sizeof x->text, key, v);
    else if (!strcmp(key, "claim") || !strcmp(key, "row")) {
        if (x->claim[0] || x->row[0])
            return bad(rd, "[explain %s]: one claim or row per explain", x->name);
        x->target_line = rd->line;
        if (key[0] == 'c')
            return name_value(rd, x->claim, sizeof x->claim, key, v);
        if (strlen(v) >= sizeof x->row)
            return bad(rd, "row = %s: too long", v);
        snprintf(x->row, sizeof x->row, "%s", v);
    } else if (!strcmp(key, "ablation"))
        return ablation_value(rd, &x->ab, key, v);
    else if (!strcmp(key, "reference"))
        return ablation_value(rd, &x->ref, key, v);
    else if (!strcmp(key, "rest"))
        return rest_value(rd, &x->ab, v);
    else if (!strcmp(key, "measure")) {
        x->measure_line = rd->line; /* resolved with the paper's numbers (repro.c) */
        return name_value(rd, x->measure, sizeof x->measure, key, v);
    } else
        return bad(rd,
                   "[explain %s]: unknown key '%s' (expected claim, row, ablation, measure, "
                   "reference, rest, text)",
                   x->name, key);
    return 1;
}

static int calibration_key(struct decl_reader *rd, struct rp_calibration *c, const char *key,
                           const char *v)
{
    if (!strcmp(key, "what"))
        text_value(rd, c->what, sizeof c->what, key, v);
    else if (!strcmp(key, "why"))
        text_value(rd, c->why, sizeof c->why, key, v);
    else if (!strcmp(key, "source"))
        text_value(rd, c->source, sizeof c->source, key, v);
    else if (!strcmp(key, "after_result")) {
        if (strcmp(v, "yes") && strcmp(v, "no"))
            return bad(rd, "after_result = %s: expected yes or no", v);
        c->after_result = !strcmp(v, "yes");
    } else if (!strcmp(key, "affects")) {
        char buf[1024];
        snprintf(buf, sizeof buf, "%s", v);
        c->affects_line = c->affects_line ? c->affects_line : rd->line;
        for (char *t = strtok(buf, " \t,"); t; t = strtok(NULL, " \t,")) {
            if (c->n_affects == sizeof c->affects / sizeof c->affects[0] || strlen(t) >= RP_NAME)
                return bad(rd, "affects: too many or too long names");
            snprintf(c->affects[c->n_affects++], RP_NAME, "%s", t);
        }
    } else if (!strcmp(key, "undo")) {
        /* may continue on indented lines (a reason): parsed once read whole */
        if (!c->undo_text[0])
            c->undo.line = rd->line;
        text_value(rd, c->undo_text, sizeof c->undo_text, key, v);
    } else if (!strcmp(key, "rest"))
        return rest_value(rd, &c->undo, v);
    else
        return bad(rd,
                   "[calibration %s]: unknown key '%s' (expected what, why, source, "
                   "after_result, affects, undo, rest)",
                   c->name, key);
    return 1;
}

static int scale_check_key(struct decl_reader *rd, struct rp_scale_check *sc, const char *key,
                           const char *v)
{
    if (!strcmp(key, "sizes")) {
        char extra[8] = "";
        if (sscanf(v, "%15s %15s %7s", sc->sizes[0], sc->sizes[1], extra) != 2 ||
            !strcmp(sc->sizes[0], sc->sizes[1]))
            return bad(rd, "sizes = %s: expected two different sizes (tiny quick small paper)", v);
        for (unsigned k = 0; k < 2; k++)
            if (strcmp(sc->sizes[k], "tiny") && strcmp(sc->sizes[k], "quick") &&
                strcmp(sc->sizes[k], "small") && strcmp(sc->sizes[k], "paper"))
                return bad(rd, "sizes: '%s' is not a size (tiny quick small paper)", sc->sizes[k]);
    } else if (!strcmp(key, "factor")) {
        char *end;
        sc->factor = strtod(v, &end);
        if (*end || end == v || !(sc->factor > 1))
            return bad(rd, "factor = %s: expected a number above 1", v);
    } else {
        return bad(rd, "[scale_check]: unknown key '%s' (expected sizes, factor)", key);
    }
    return 1;
}

/* A key of [reproduction]; returns inih's 1 (taken) or 0 (refused). */
static int repro_key(struct decl_reader *rd, struct rp_decl *d, const char *key, const char *v)
{
    int ok = 1;
    if (!strcmp(key, "title"))
        text_value(rd, d->title, sizeof d->title, key, v);
    else if (!strcmp(key, "about"))
        text_value(rd, d->about, sizeof d->about, key, v);
    else if (!strcmp(key, "paper"))
        ok = name_value(rd, d->paper_key, sizeof d->paper_key, key, v);
    else if (!strcmp(key, "sweep"))
        ok = name_value(rd, d->sweep, sizeof d->sweep, key, v);
    else if (!strncmp(key, "sweep.", 6)) {
        /* sweep.SIZE = FILE: the sweep of one size */
        int k = -1;
        for (int i = 0; i < RP_N_SIZES; i++)
            if (!strcmp(key + 6, rp_size_names[i]))
                k = i;
        if (k < 0)
            ok = bad(rd, "%s: '%s' is not a size (tiny quick small paper)", key, key + 6);
        else {
            ok = name_value(rd, d->sweep_for[k], sizeof d->sweep_for[k], key, v);
            d->sweep_for_line[k] = rd->line;
        }
    } else if (!strcmp(key, "numbers"))
        ok = name_value(rd, d->numbers, sizeof d->numbers, key, v);
    else if (!strcmp(key, "block")) {
        ok = name_value(rd, d->block, sizeof d->block, key, v);
        d->block_line = rd->line;
    } else if (!strcmp(key, "hook")) {
        ok = name_value(rd, d->hook, sizeof d->hook, key, v);
        d->hook_line = rd->line;
    } else if (!strcmp(key, "speedup_mean")) {
        if (!strcmp(v, "harmonic"))
            d->mean = RP_HARMONIC;
        else if (!strcmp(v, "geometric"))
            d->mean = RP_GEOMETRIC;
        else
            ok = bad(rd, "speedup_mean = %s: expected harmonic or geometric", v);
    } else if (!strcmp(key, "replicas")) {
        char buf[1024], *save = NULL;
        snprintf(buf, sizeof buf, "%s", v);
        for (char *b = strtok_r(buf, " \t", &save); b && ok > 0; b = strtok_r(NULL, " \t", &save)) {
            if (d->n_replicas == RP_MAX_REPLICAS)
                ok = bad(rd, "replicas: at most %d blocks", RP_MAX_REPLICAS);
            else if (strlen(b) >= RP_NAME)
                ok = bad(rd, "replicas: block name '%s' too long", b);
            else {
                struct rp_ablation *x = &d->replicas[d->n_replicas++];
                snprintf(x->block, sizeof x->block, "%s", b);
                x->line = rd->line;
                x->rest_main = true;
            }
        }
    } else if (!strcmp(key, "built")) {
        if (!strcmp(v, "yes") || !strcmp(v, "no"))
            d->built = !strcmp(v, "yes");
        else
            ok = bad(rd, "built = %s: expected yes or no", v);
    } else
        ok = bad(rd,
                 "[reproduction]: unknown key '%s' (expected title, about, paper, "
                 "sweep, sweep.SIZE, numbers, block, speedup_mean, hook, replicas, built)",
                 key);
    return ok;
}

static int on_entry(void *user, const char *section, const char *key, const char *v)
{
    struct decl_reader *rd = user;
    struct rp_decl *d = rd->d;
    if (strcmp(section, rd->section)) {
        /* a new section: what kind, and its entry */
        snprintf(rd->section, sizeof rd->section, "%s", section);
        rd->last_key[0] = 0;
        char kind[32] = "", name[RP_NAME] = "";
        sscanf(section, "%31s %63s", kind, name);
        /* "[figure ID]": one word after the kind, shorter than RP_NAME */
        bool named = name[0] && strlen(section) == strlen(kind) + 1 + strlen(name);
        if (!strcmp(section, "reproduction"))
            rd->sec = SEC_REPRO;
        else if (!strcmp(section, "scale_check")) {
            rd->sec = SEC_SCALE_CHECK;
            d->scale.line = rd->section_line;
        } else if (!strcmp(section, "designs"))
            rd->sec = SEC_DESIGNS;
        else if (named && !strcmp(kind, "set")) {
            if (d->n_sets == RP_MAX_SETS)
                return bad(rd, "at most %d sets", RP_MAX_SETS);
            rd->sec = SEC_SET;
            struct rp_set *s = &d->sets[d->n_sets++];
            memcpy(s->name, name, strlen(name) + 1); /* checked shorter */
            s->line = rd->section_line;
        } else if (named && !strcmp(kind, "variant")) {
            if (d->n_variants == RP_MAX_VARIANTS)
                return bad(rd, "at most %d variants", RP_MAX_VARIANTS);
            rd->sec = SEC_VARIANT;
            struct rp_variant *x = &d->variants[d->n_variants++];
            memcpy(x->name, name, strlen(name) + 1); /* checked shorter */
            x->line = rd->section_line;
        } else if (named && !strcmp(kind, "figure")) {
            if (d->n_figures == RP_MAX_FIGURES)
                return bad(rd, "at most %d figures", RP_MAX_FIGURES);
            rd->sec = SEC_FIGURE;
            struct rp_figure *f = &d->figures[d->n_figures++];
            memcpy(f->id, name, strlen(name) + 1); /* checked shorter */
            f->line = rd->section_line;
            f->beside_stat = -1;
            f->divisor = 1;
        } else if (named && !strcmp(kind, "claim")) {
            if (d->n_claims == RP_MAX_CLAIMS)
                return bad(rd, "at most %d claims", RP_MAX_CLAIMS);
            rd->sec = SEC_CLAIM;
            struct rp_claim *c = &d->claims[d->n_claims++];
            memcpy(c->id, name, strlen(name) + 1); /* checked shorter */
            c->line = rd->section_line;
        } else if (named && !strcmp(kind, "explain")) {
            if (d->n_explains == RP_MAX_EXPLAINS)
                return bad(rd, "at most %d explains", RP_MAX_EXPLAINS);
            rd->sec = SEC_EXPLAIN;
            struct rp_explain *x = &d->explains[d->n_explains++];
            memcpy(x->name, name, strlen(name) + 1); /* checked shorter */
            x->line = rd->section_line;
            x->claim_index = x->row_index = -1;
        } else if (named && !strcmp(kind, "calibration")) {
            if (d->n_calibs == RP_MAX_CALIBS)
                return bad(rd, "at most %d calibrations", RP_MAX_CALIBS);
            rd->sec = SEC_CALIBRATION;
            struct rp_calibration *c = &d->calibs[d->n_calibs++];
            memcpy(c->name, name, strlen(name) + 1); /* checked shorter */
            c->line = rd->section_line;
            c->after_result = -1;
        } else {
            rd->sec = SEC_NONE;
            bad(rd,
                "[%s]: unknown section (expected [reproduction], [designs], "
                "[set NAME], [variant NAME], [figure ID], [claim ID], [explain NAME], "
                "[calibration NAME] or [scale_check])",
                section);
            rd->err_line = rd->section_line; /* inih calls back at its first key */
            return 0;
        }
    }
    int ok = 1;
    switch (rd->sec) {
    case SEC_NONE:
        return 0;
    case SEC_REPRO:
        ok = repro_key(rd, d, key, v);
        break;
    case SEC_DESIGNS: {
        if (d->n_designs == RP_MAX_DESIGNS)
            return bad(rd, "at most %d designs", RP_MAX_DESIGNS);
        if (strlen(key) >= RP_NAME || strlen(v) >= RP_NAME)
            return bad(rd, "%s = %s: too long", key, v);
        struct rp_design *x = &d->designs[d->n_designs++];
        snprintf(x->name, sizeof x->name, "%s", key);
        snprintf(x->paper, sizeof x->paper, "%s", v);
        x->line = rd->line;
        break;
    }
    case SEC_SET: {
        struct rp_set *s = &d->sets[d->n_sets - 1];
        if (!strcmp(key, "baseline"))
            ok = name_value(rd, s->baseline, sizeof s->baseline, key, v);
        else if (strcmp(key, "about"))
            ok = bad(rd, "[set %s]: unknown key '%s' (expected baseline, about)", s->name, key);
        break;
    }
    case SEC_VARIANT: {
        struct rp_variant *x = &d->variants[d->n_variants - 1];
        if (!strcmp(key, "block"))
            ok = name_value(rd, x->block, sizeof x->block, key, v);
        else if (!strcmp(key, "design"))
            ok = name_value(rd, x->design, sizeof x->design, key, v);
        else if (!strcmp(key, "setting"))
            ok = name_value(rd, x->setting, sizeof x->setting, key, v);
        else if (!strcmp(key, "fallback"))
            ok = name_value(rd, x->fallback, sizeof x->fallback, key, v);
        else if (!strcmp(key, "best")) {
            ok = name_value(rd, x->best, sizeof x->best, key, v);
            x->best_line = rd->line;
        } else
            ok = bad(rd,
                     "[variant %s]: unknown key '%s' (expected block, design, setting, best, "
                     "fallback)",
                     x->name, key);
        break;
    }
    case SEC_FIGURE:
        ok = figure_key(rd, &d->figures[d->n_figures - 1], key, v);
        break;
    case SEC_CLAIM: {
        struct rp_claim *c = &d->claims[d->n_claims - 1];
        if (!strcmp(key, "text"))
            text_value(rd, c->text, sizeof c->text, key, v);
        else if (!strcmp(key, "paper"))
            text_value(rd, c->paper, sizeof c->paper, key, v);
        else if (!strcmp(key, "expr")) {
            if (!c->expr[0])
                c->expr_line = rd->line;
            /* an expression continues over lines with a space between */
            size_t len = strlen(c->expr);
            snprintf(c->expr + len, sizeof c->expr - len, "%s%s", len ? " " : "", v);
        } else if (!strcmp(key, "band")) {
            /* band = LO HI: the range an "about X" claim allows its first value */
            char *end;
            c->band_lo = strtod(v, &end);
            c->band_hi = strtod(end, &end);
            while (*end == ' ')
                end++;
            c->band_line = rd->line;
            if (*end || !(c->band_lo > 0) || !(c->band_hi > c->band_lo))
                ok = bad(rd, "[claim %s]: band '%s': expected two numbers LO HI, 0 < LO < HI",
                         c->id, v);
        } else
            ok = bad(rd, "[claim %s]: unknown key '%s' (expected text, paper, expr, band)", c->id,
                     key);
        break;
    }
    case SEC_EXPLAIN:
        ok = explain_key(rd, &d->explains[d->n_explains - 1], key, v);
        break;
    case SEC_CALIBRATION:
        ok = calibration_key(rd, &d->calibs[d->n_calibs - 1], key, v);
        break;
    case SEC_SCALE_CHECK:
        ok = scale_check_key(rd, &d->scale, key, v);
        break;
    }
    snprintf(rd->last_key, sizeof rd->last_key, "%s", key);
    return ok;
}

int repro_decl_load(struct rp_decl *d, const char *dir, char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    d->built = true;
    snprintf(d->dir, sizeof d->dir, "%s", dir);
    snprintf(d->path, sizeof d->path, "%s/report.ini", dir);
    const char *slash = strrchr(dir, '/');
    snprintf(d->name, sizeof d->name, "%s", slash ? slash + 1 : dir);
    snprintf(d->block, sizeof d->block, "main");
    snprintf(d->numbers, sizeof d->numbers, "paper.csv");
    struct decl_reader rd = {.d = d};
    rd.f = fopen(d->path, "r");
    if (!rd.f) {
        snprintf(err, errlen, "%s: cannot read the declaration", d->path);
        return -1;
    }
    int line = ini_parse_stream(read_line, &rd, on_entry, &rd);
    fclose(rd.f);
    if (rd.too_long && (!line || (unsigned)line > rd.too_long)) {
        snprintf(err, errlen,
                 "%s:%u: line longer than %d characters (continue the value on an "
                 "indented line)",
                 d->path, rd.too_long, rd.max_line - 2);
        return -1;
    }
    if (line) {
        if (line > 0 && rd.msg[0])
            snprintf(err, errlen, "%s:%u: %s", d->path, rd.err_line, rd.msg);
        else
            snprintf(err, errlen, "%s:%d: syntax error (expected [section] or key = value)",
                     d->path, line);
        return -1;
    }
    if (!d->title[0]) {
        snprintf(err, errlen, "%s:1: no [reproduction] title", d->path);
        return -1;
    }
    if (d->built && !d->sweep[0]) {
        snprintf(err, errlen, "%s:1: [reproduction] names no sweep (or write built = no)", d->path);
        return -1;
    }
    for (unsigned i = 0; i < d->n_variants; i++) {
        const struct rp_variant *x = &d->variants[i];
        if (!x->block[0] || !x->design[0] || (x->setting[0] && x->best[0]) ||
            (x->best[0] && x->fallback[0])) {
            snprintf(err, errlen,
                     "%s:%u: [variant %s] needs block and design, and a setting or best = KEY "
                     "(not both; best takes no fallback)",
                     d->path, x->line, x->name);
            return -1;
        }
    }
    for (unsigned i = 0; i < d->n_claims; i++)
        if (!d->claims[i].text[0] || !d->claims[i].expr[0]) {
            snprintf(err, errlen, "%s:%u: [claim %s] needs text and expr", d->path,
                     d->claims[i].line, d->claims[i].id);
            return -1;
        }
    if (d->scale.line && (!d->scale.sizes[0][0] || !(d->scale.factor > 1))) {
        snprintf(err, errlen, "%s:%u: [scale_check] needs sizes and factor", d->path,
                 d->scale.line);
        return -1;
    }
    for (unsigned i = 0; i < d->n_explains; i++) {
        const struct rp_explain *x = &d->explains[i];
        if ((!x->claim[0] && !x->row[0]) || !x->ab.block[0] == !x->measure[0] || !x->text[0]) {
            snprintf(err, errlen,
                     "%s:%u: [explain %s] needs a claim or row, an ablation or a measure (one of "
                     "the two) and its text",
                     d->path, x->line, x->name);
            return -1;
        }
        if (x->measure[0] && (!x->row[0] || x->ref.block[0])) {
            snprintf(err, errlen,
                     "%s:%u: [explain %s]: a measure recomputes a paper.csv row from the main "
                     "block's runs (a row, no claim, no reference)",
                     d->path, x->line, x->name);
            return -1;
        }
    }
    /* an [explain] on a replica's block (the main block on another input) is
     * computed as the replica is: its apps the block does not run are the
     * main block's */
    for (unsigned i = 0; i < d->n_explains; i++)
        for (unsigned k = 0; k < d->n_replicas; k++)
            if (!strcmp(d->explains[i].ab.block, d->replicas[k].block) &&
                !d->explains[i].ab.setting[0])
                d->explains[i].ab.rest_main = true;
    for (unsigned i = 0; i < d->n_calibs; i++) {
        struct rp_calibration *c = &d->calibs[i];
        char msg[512];
        if (c->undo_text[0] &&
            ablation_parse(&c->undo, "undo", c->undo_text, true, msg, sizeof msg)) {
            snprintf(err, errlen, "%s:%u: %s", d->path, c->undo.line, msg);
            return -1;
        }
        if (!c->what[0] || !c->why[0] || !c->source[0] || c->after_result < 0 || !c->n_affects ||
            (!c->undo.block[0] && !c->undo.none[0])) {
            snprintf(err, errlen,
                     "%s:%u: [calibration %s] needs what, why, source, after_result, affects and "
                     "undo",
                     d->path, c->line, c->name);
            return -1;
        }
    }
    return 0;
}

void repro_decl_free(struct rp_decl *d)
{
    for (unsigned i = 0; i < d->n_claims; i++) {
        cx_free(d->claims[i].node);
        d->claims[i].node = NULL;
    }
}
