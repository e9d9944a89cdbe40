/*
 * repro_site.c - the project's report over every reproduction (`gpucoh
 * repro all`): a scoreboard (per paper, the claims that hold and its first
 * headline's direction and effect ratio), the provenance (version, commit,
 * date, size, command; each reproduction's machine files), a warning when
 * the size is a smoke test, the distance to every paper's headline numbers
 * (repro/headlines.csv), and per reproduction its claims, the paper's
 * numbers beside gpucoh's (under the paper's design names) and its plots,
 * as DIR/index.html (a page to open in a browser, with a bar to move
 * between papers and every "spec 00x" linked to its entry of the
 * bibliography, docs/papers.md, copied to its end; its script marks the
 * page when every plot has loaded) and DIR/README.md (the same as text).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/file.h"
#include "base/log.h"
#include "report/repro_site.h"
#include "report/repro_values.h"

/* "NO-COH" -> "nocoh": how headlines.csv spells a design. */
static void squash(char *dst, size_t n, const char *s)
{
    size_t k = 0;
    for (; *s && k + 1 < n; s++)
        if (isalnum((unsigned char)*s))
            dst[k++] = (char)tolower((unsigned char)*s);
    dst[k] = 0;
}

/* The design of a reproduction a headline names: its configuration name,
 * or its paper name without case and punctuation. NULL if none. */
static const char *headline_design(const struct repro *r, const char *name)
{
    char want[RP_NAME], have[RP_NAME];
    squash(want, sizeof want, name);
    for (unsigned k = 0; k < r->n_cfgs; k++) {
        squash(have, sizeof have, repro_paper_name(r, r->cfgs[k]));
        if (!strcmp(r->cfgs[k], name) || !strcmp(have, want))
            return r->cfgs[k];
    }
    for (unsigned i = 0; i < r->d.n_designs; i++) {
        squash(have, sizeof have, r->d.designs[i].paper);
        if (!strcmp(r->d.designs[i].name, name) || !strcmp(have, want))
            return r->d.designs[i].name;
    }
    return NULL;
}

/* Why a reproduction has no numbers, as a label: "not built", or "not
 * finished" (stopped at --time-limit, its finished runs kept). */
static const char *not_ran(const struct repro_entry *e)
{
    return e->unfinished ? "not finished" : "not built";
}

/* gpucoh's number for a headline of a built reproduction; why not in `why`. */
static double headline_value(const struct repro *r, const char *set, const char *metric,
                             const char *baseline, const char *design, char *why, size_t n)
{
    const char *b = headline_design(r, baseline), *d = headline_design(r, design);
    if (!b || !d) {
        snprintf(why, n, "no design %s in repro/%s", !b ? baseline : design, r->d.name);
        return NAN;
    }
    if (!repro_have(r, b) || !repro_have(r, d)) {
        snprintf(why, n, "not built (%s)", !repro_have(r, b) ? b : d);
        return NAN;
    }
    if (strcmp(set, "all") && !repro_set(r, set)) {
        snprintf(why, n, "no set %s in repro/%s", set, r->d.name);
        return NAN;
    }
    const struct rp_paper_metric *pm = repro_paper_metric(metric);
    if (!pm) {
        snprintf(why, n, "metric %s is not computed yet", metric);
        return NAN;
    }
    unsigned used, total;
    double v = repro_paper_value(r, pm, -1, set, "", b, d, &used, &total, NULL);
    if (isnan(v) && !why[0])
        snprintf(why, n, "no number: runs failed");
    return v;
}

struct headline {
    char paper[32], spec[16], figure[32], set[32], metric[32], baseline[RP_NAME], design[RP_NAME],
        note[256];
    double value, ours;
    char why[160];
    struct effect effect;
    char size[16];      /* the size its reproduction ran at ("" without a number) */
    char evidence[128]; /* an explain's ablation and its effect; a miss without one:
                           "unexplained"; else "—" */
    /* the baseline and design as the paper names them ([designs]: NO-L1),
     * where its reproduction resolves them; else as headlines.csv has them */
    char baseline_shown[RP_NAME], design_shown[RP_NAME];
};

static const char *effect_css(const struct headline *x)
{
    if (isnan(x->ours))
        return "notbuilt";
    switch (x->effect.cls) {
    case EFFECT_GOOD:
        return "effect-good";
    case EFFECT_OFF:
        return "effect-off";
    case EFFECT_WRONG:
        return "effect-wrong";
    case EFFECT_NONE:
        break;
    }
    return "notbuilt";
}

struct headlines {
    struct headline *h;
    unsigned n, max;
};

static int headline_row(void *ctx, char **f, const char *path, unsigned line, char *err,
                        size_t errlen)
{
    struct headlines *hs = ctx;
    if (hs->n == hs->max) {
        snprintf(err, errlen, "%s:%u: more than %u rows", path, line, hs->max);
        return -1;
    }
    struct headline *x = &hs->h[hs->n++];
    snprintf(x->paper, sizeof x->paper, "%s", f[0]);
    snprintf(x->spec, sizeof x->spec, "%s", f[1]);
    snprintf(x->figure, sizeof x->figure, "%s", f[2]);
    snprintf(x->set, sizeof x->set, "%s", f[3]);
    snprintf(x->metric, sizeof x->metric, "%s", f[4]);
    snprintf(x->baseline, sizeof x->baseline, "%s", f[5]);
    snprintf(x->design, sizeof x->design, "%s", f[6]);
    snprintf(x->note, sizeof x->note, "%s", f[8]);
    char *end;
    x->value = strtod(f[7], &end);
    if (*end || end == f[7]) {
        snprintf(err, errlen, "%s:%u: value '%s' is not a number", path, line, f[7]);
        return -1;
    }
    return 0;
}

static void html_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<':
            fputs("&lt;", f);
            break;
        case '>':
            fputs("&gt;", f);
            break;
        case '&':
            fputs("&amp;", f);
            break;
        case '"':
            fputs("&quot;", f);
            break;
        default:
            fputc(*s, f);
        }
    }
}

/* One work of docs/papers.md: a row of its table, "| 002 | authors | title |
 * venue | year | reproductions |". */
struct bib_entry {
    char spec[8], authors[256], title[512], venue[256], year[8];
};

struct bib {
    struct bib_entry e[16];
    unsigned n;
};

/* Read the bibliography's rows (a missing file leaves it empty: the page
 * then links nothing and says so). */
static void bib_load(struct bib *b, const char *path)
{
    b->n = 0;
    char *text = file_read_text(path, NULL);
    if (!text) {
        warn("%s: cannot read the bibliography; \"spec 00x\" is not linked", path);
        return;
    }
    for (char *line = strtok(text, "\n"); line && b->n < 16; line = strtok(NULL, "\n")) {
        if (strncmp(line, "| 0", 3))
            continue;
        char *f[7];
        unsigned k = 0;
        for (char *c = line + 1; k < 7 && c && *c;) {
            char *bar = strstr(c, " |");
            if (bar)
                *bar = 0;
            while (*c == ' ')
                c++;
            f[k++] = c;
            c = bar ? bar + 2 : NULL;
        }
        if (k < 5)
            continue;
        struct bib_entry *x = &b->e[b->n++];
        snprintf(x->spec, sizeof x->spec, "%s", f[0]);
        snprintf(x->authors, sizeof x->authors, "%s", f[1]);
        snprintf(x->title, sizeof x->title, "%s", f[2]);
        snprintf(x->venue, sizeof x->venue, "%s", f[3]);
        snprintf(x->year, sizeof x->year, "%s", f[4]);
    }
    free(text);
}

/* The length of the spec number at s ("002", "004a") when the bibliography
 * has it, else 0. */
static size_t bib_spec_at(const struct bib *b, const char *s)
{
    size_t len = 0;
    while (isalnum((unsigned char)s[len]))
        len++;
    for (unsigned i = 0; i < b->n; i++)
        if (len && strlen(b->e[i].spec) == len && !strncmp(b->e[i].spec, s, len))
            return len;
    return 0;
}

/* Text for the page with every "spec 00x" the bibliography has linked to
 * its entry (#spec-00x). */
static void html_prose(FILE *f, const char *s, const struct bib *b)
{
    while (*s) {
        size_t len = 0;
        if (!strncmp(s, "spec ", 5) && (len = bib_spec_at(b, s + 5))) {
            fprintf(f, "<a href=\"#spec-%.*s\">spec %.*s</a>", (int)len, s + 5, (int)len, s + 5);
            s += 5 + len;
            continue;
        }
        const char *end = strstr(s, "spec ");
        size_t n = end ? (size_t)(end - s) : strlen(s);
        if (!n)
            n = 1; /* "spec " not followed by a known number */
        char part[512];
        while (n) {
            size_t take = n < sizeof part - 1 ? n : sizeof part - 1;
            memcpy(part, s, take);
            part[take] = 0;
            html_text(f, part);
            s += take;
            n -= take;
        }
    }
}

/* The machine files of a reproduction's main block, from configs/ on
 * ("configs/tc-fermi.ini"), or "built-in default". */
static void machine_files(const struct repro *r, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = 0;
    const char *seen[16];
    unsigned n_seen = 0;
    for (unsigned i = 0; i < r->spec.n_runs && n_seen < 16; i++) {
        const struct sweep_run *run = &r->spec.runs[i];
        if (strcmp(run->block, r->d.block))
            continue;
        const char *file = run->config_file ? run->config_file : "built-in default";
        const char *from = strstr(file, "configs/");
        if (!from)
            from = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
        bool dup = false;
        for (unsigned k = 0; k < n_seen && !dup; k++)
            dup = !strcmp(seen[k], from);
        if (dup)
            continue;
        seen[n_seen++] = from;
        if (len < n)
            len += (size_t)snprintf(buf + len, n - len, "%s%s", n_seen > 1 ? ", " : "", from);
    }
}

/* Markdown table cells: no | or newline. */
static void md_text(FILE *f, const char *s)
{
    for (; *s; s++)
        fputs(*s == '|' ? "\\|" : *s == '\n' ? " " : (char[2]){*s, 0}, f);
}

static const char *verdict_name(int holds)
{
    return holds < 0 ? "cannot check" : holds ? "holds" : "does not hold";
}

static const char *page_head =
    "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
    "<title>gpucoh reproductions</title>\n<style>\n"
    "body{font-family:sans-serif;max-width:1200px;margin:2em auto;padding:0 1em;color:#222}\n"
    "table{border-collapse:collapse;margin:1em 0;font-size:90%}\n"
    "td,th{border:1px solid #ccc;padding:3px 8px;text-align:left;vertical-align:top}\n"
    "th{background:#f0f0f0} td.num{text-align:right;font-variant-numeric:tabular-nums}\n"
    ".holds{background:#d8f0d8} .fails{background:#f6d6d6} .unknown{background:#eee}\n"
    ".effect-good{background:#d8f0d8} .effect-off{background:#fbe3b4} "
    ".effect-wrong{background:#f6d6d6}\n"
    ".notbuilt{color:#888} .plots{display:flex;flex-wrap:wrap;gap:1em}\n"
    "figure{margin:0 0 1.5em 0;max-width:100%} "
    "figure img{max-width:100%;height:auto;border:1px solid #ddd}\n"
    "figcaption{font-size:90%}\n"
    "nav#papers-nav{position:sticky;top:0;background:#fff;border-bottom:1px solid #ccc;"
    "padding:6px 0;z-index:1;font-size:90%} nav#papers-nav a{margin-right:0.8em}\n"
    ".prevnext{font-size:85%;color:#555}\n"
    ".warning{background:#fff3cd;border:2px solid #e0a800;padding:0.6em 1em;margin:1em 0}\n"
    "#provenance td:first-child{font-weight:bold;white-space:nowrap}\n"
    "h2,h3{scroll-margin-top:3em} a[href^=\"#spec-\"]{white-space:nowrap}\n"
    "</style></head>\n<body>\n";

/* The page checks its own plots: every <img> loaded with a size, or the
 * body says which did not (a test reads the attribute back). */
static const char *page_script =
    "<script>\n"
    "window.addEventListener('error', function (e) {\n"
    "  document.body.setAttribute('data-errors', String(e.message || e.target.src));\n"
    "}, true);\n"
    "window.addEventListener('load', function () {\n"
    "  var imgs = document.querySelectorAll('img'), bad = [];\n"
    "  imgs.forEach(function (i) { if (!i.complete || !i.naturalWidth) bad.push(i.src); });\n"
    "  document.body.setAttribute('data-plots',\n"
    "    bad.length ? 'broken ' + bad.join(' ') : 'ok ' + imgs.length);\n"
    "});\n"
    "</script>\n";

/* One reproduction's section: its place among the others (previous, next,
 * top), claims, the paper's numbers beside gpucoh's and its plots. */
static void html_repro(FILE *h, const struct repro_entry *all, unsigned k, unsigned n,
                       const struct bib *b)
{
    const struct repro_entry *e = &all[k];
    const struct repro *r = e->r;
    fprintf(h, "<h2 id=\"%s\">%s: ", r->d.name, r->d.name);
    html_prose(h, r->d.title, b);
    fputs("</h2>\n<p class=\"prevnext\">", h);
    if (k)
        fprintf(h, "&larr; <a href=\"#%s\">%s</a> &middot; ", all[k - 1].r->d.name,
                all[k - 1].r->d.name);
    fputs("<a href=\"#scoreboard\">scoreboard</a>", h);
    if (k + 1 < n)
        fprintf(h, " &middot; <a href=\"#%s\">%s</a> &rarr;", all[k + 1].r->d.name,
                all[k + 1].r->d.name);
    fputs("</p>\n", h);
    if (r->d.about[0]) {
        fputs("<p>", h);
        html_prose(h, r->d.about, b);
        fputs("</p>\n", h);
    }
    if (!e->ran) {
        fprintf(h, "<p class=\"notbuilt\">%s: ", e->unfinished ? "Not finished" : "Not built");
        html_text(h, e->why);
        fputs(". No numbers.</p>\n", h);
        return;
    }
    char machines[512];
    machine_files(r, machines, sizeof machines);
    fprintf(h,
            "<p>Size %s (numbers from size %s); machine: %s; <a href=\"%s/report.txt\">full "
            "report</a>, <a href=\"%s/results.csv\">results.csv</a>, "
            "<a href=\"%s/summary.csv\">summary.csv</a></p>\n",
            r->size, repro_numbers_size(r), machines, r->d.name, r->d.name, r->d.name);
    if (r->d.n_claims) {
        fputs("<h3>Claims</h3>\n<table><tr><th>verdict</th><th>claim</th><th>the paper</th>"
              "<th>gpucoh's values</th></tr>\n",
              h);
        for (unsigned i = 0; i < r->d.n_claims; i++) {
            const struct rp_claim_result *c = &r->claims[i];
            fprintf(h, "<tr><td class=\"%s\">%s</td><td>",
                    c->holds < 0 ? "unknown"
                    : c->holds   ? "holds"
                                 : "fails",
                    verdict_name(c->holds));
            html_text(h, r->d.claims[i].text);
            fputs("</td><td>", h);
            html_prose(h, r->d.claims[i].paper, b);
            fputs("</td><td>", h);
            html_text(h, c->detail);
            fputs("</td></tr>\n", h);
        }
        fputs("</table>\n", h);
    }
    if (r->n_paper) {
        fputs("<h3>The paper's numbers beside gpucoh's</h3>\n<table><tr><th>figure</th>"
              "<th>set</th><th>app</th><th>what</th><th>paper</th><th>gpucoh</th>"
              "<th>verdict</th><th>the paper says</th></tr>\n",
              h);
        for (unsigned i = 0; i < r->n_paper; i++) {
            const struct rp_paper_row *p = &r->paper[i];
            fprintf(h, "<tr><td>%s</td><td>%s</td><td>%s</td><td>", p->figure, p->set, p->app);
            html_text(h, repro_paper_name(r, p->design));
            fprintf(h, " %s", p->pm->what);
            if (p->baseline[0]) {
                fputs(" over ", h);
                html_text(h, repro_paper_name(r, p->baseline));
            }
            fprintf(h, "</td><td class=\"num\">%.2f</td>", p->value);
            if (isnan(p->ours))
                fputs("<td class=\"num\">-</td><td>", h);
            else
                fprintf(h, "<td class=\"num\">%.2f%s</td><td>", p->ours, p->wrong ? "!" : "");
            html_text(h, p->verdict);
            fputs("</td><td>", h);
            html_prose(h, p->note, b);
            fputs("</td></tr>\n", h);
        }
        fputs("</table>\n", h);
    }
    fputs("<h3>Plots</h3>\n<div class=\"plots\">\n", h);
    for (unsigned i = 0; i < r->d.n_figures; i++) {
        const struct rp_figure *f = &r->d.figures[i];
        if (f->kind == RP_TABLE)
            continue;
        fprintf(h,
                "<figure><a href=\"%s/%s.svg\"><img src=\"%s/%s.png\" alt=\"%s\"></a>"
                "<figcaption>",
                r->d.name, f->id, r->d.name, f->id, f->id);
        html_text(h, f->title);
        fputs("</figcaption></figure>\n", h);
    }
    fputs("</div>\n", h);
}

static void md_repro(FILE *m, const struct repro_entry *e)
{
    const struct repro *r = e->r;
    fprintf(m, "\n## %s: %s\n\n", r->d.name, r->d.title);
    if (r->d.about[0])
        fprintf(m, "%s\n\n", r->d.about);
    if (!e->ran) {
        fprintf(m, "%s: %s. No numbers.\n", e->unfinished ? "Not finished" : "Not built", e->why);
        return;
    }
    fprintf(m, "Size %s; full report: [%s/report.txt](%s/report.txt)\n\n", r->size, r->d.name,
            r->d.name);
    if (r->d.n_claims) {
        fputs("| verdict | claim | the paper | gpucoh's values |\n|---|---|---|---|\n", m);
        for (unsigned i = 0; i < r->d.n_claims; i++) {
            fprintf(m, "| %s | ", verdict_name(r->claims[i].holds));
            md_text(m, r->d.claims[i].text);
            fputs(" | ", m);
            md_text(m, r->d.claims[i].paper);
            fputs(" | ", m);
            md_text(m, r->claims[i].detail);
            fputs(" |\n", m);
        }
        fputc('\n', m);
    }
    if (r->n_paper) {
        fputs("| figure | set | app | what | paper | gpucoh | verdict |\n"
              "|---|---|---|---|---:|---:|---|\n",
              m);
        for (unsigned i = 0; i < r->n_paper; i++) {
            const struct rp_paper_row *p = &r->paper[i];
            fprintf(m, "| %s | %s | %s | %s %s%s%s | %.2f | ", p->figure, p->set, p->app,
                    repro_paper_name(r, p->design), p->pm->what, p->baseline[0] ? " over " : "",
                    p->baseline[0] ? repro_paper_name(r, p->baseline) : "", p->value);
            if (isnan(p->ours))
                fputs("- | ", m);
            else
                fprintf(m, "%.2f%s | ", p->ours, p->wrong ? "!" : "");
            md_text(m, p->verdict);
            fputs(" |\n", m);
        }
        fputc('\n', m);
    }
    for (unsigned i = 0; i < r->d.n_figures; i++)
        if (r->d.figures[i].kind != RP_TABLE)
            fprintf(m, "![%s](%s/%s.png)\n", r->d.figures[i].title, r->d.name, r->d.figures[i].id);
}

/* The headline table, first in both files: every row of headlines.csv, the
 * paper's number, gpucoh's, the direction, the effect ratio, the size and
 * the evidence for a miss; coloured by the effect's class in HTML. */
static void headline_table(FILE *hf, FILE *mf, const struct headline *h, unsigned nh,
                           const struct bib *b)
{
    fprintf(hf,
            "<h2 id=\"headlines\">Headline table</h2>\n<p>Each seed paper's headline numbers "
            "(repro/headlines.csv) and gpucoh's. Effect ratio: (gpucoh &minus; 1) / (paper "
            "&minus; 1), or gpucoh / paper for a statistic: 1 the paper's effect, 0 none, "
            "negative the wrong direction. <span class=\"effect-good\">Green</span>: the "
            "paper's direction, effect ratio %.1f&ndash;%.0f; <span class=\"effect-off\">amber"
            "</span>: the direction, the ratio outside; <span class=\"effect-wrong\">red"
            "</span>: the wrong direction. A miss names its evidence.</p>\n"
            "<table id=\"headline-table\"><tr><th>paper</th><th>spec</th><th>figure</th>"
            "<th>set</th><th>metric</th><th>baseline</th><th>design</th><th>paper</th>"
            "<th>gpucoh</th><th>direction</th><th>effect ratio</th><th>size</th>"
            "<th>evidence</th><th>the paper says</th></tr>\n",
            EFFECT_LOW, EFFECT_HIGH);
    fputs("\n## Headline table\n\n| paper | spec | figure | set | metric | baseline | design "
          "| paper | gpucoh | direction | effect ratio | size | evidence | the paper says |\n"
          "|---|---|---|---|---|---|---|---:|---:|---|---:|---|---|---|\n",
          mf);
    for (unsigned i = 0; i < nh; i++) {
        const struct headline *x = &h[i];
        fprintf(hf, "<tr class=\"%s\"><td>%s</td><td>", effect_css(x), x->paper);
        char spec[32];
        snprintf(spec, sizeof spec, "spec %s", x->spec);
        html_prose(hf, spec, b);
        fprintf(hf, "</td><td>%s</td><td>%s</td><td>%s</td><td>", x->figure, x->set, x->metric);
        html_text(hf, x->baseline_shown);
        fputs("</td><td>", hf);
        html_text(hf, x->design_shown);
        fprintf(hf, "</td><td class=\"num\">%.2f</td>", x->value);
        fprintf(mf, "| %s | %s | %s | %s | %s | %s | %s | %.2f | ", x->paper, x->spec, x->figure,
                x->set, x->metric, x->baseline_shown, x->design_shown, x->value);
        if (isnan(x->ours)) {
            fputs("<td colspan=\"5\">", hf);
            html_text(hf, x->why);
            fputs("</td><td>", hf);
            md_text(mf, x->why);
            fputs(" | | | | | ", mf);
        } else {
            char effect[16];
            effect_ratio_text(effect, sizeof effect, &x->effect);
            const char *dir = effect_direction_text(&x->effect);
            fprintf(hf,
                    "<td class=\"num\">%.2f</td><td>%s</td><td class=\"num\">%s</td>"
                    "<td>%s</td><td>",
                    x->ours, dir, effect, x->size);
            html_text(hf, x->evidence);
            fputs("</td><td>", hf);
            fprintf(mf, "%.2f | %s | %s | %s | ", x->ours, dir, effect, x->size);
            md_text(mf, x->evidence);
            fputs(" | ", mf);
        }
        html_prose(hf, x->note, b);
        fputs("</td></tr>\n", hf);
        md_text(mf, x->note);
        fputs(" |\n", mf);
    }
    fputs("</table>\n", hf);
}

/* Per paper (each reproduction, in order): the claims that hold of those
 * declared, the headlines in the paper's direction of those with a number,
 * and its first headline with a number (the paper's main result): what it
 * compares, the paper's value and gpucoh's, the direction and the effect
 * ratio, coloured as in the headline table. */
static void scoreboard(FILE *hf, FILE *mf, const struct repro_entry *e, unsigned n,
                       const struct headline *h, unsigned nh, const struct bib *b)
{
    fputs("<h2 id=\"scoreboard\">Scoreboard</h2>\n<p>Per paper: its claims that hold, its "
          "headline numbers (repro/headlines.csv) that gpucoh shows in the paper's direction, "
          "and its first headline with gpucoh's value, direction and effect ratio (coloured as "
          "in the <a href=\"#headlines\">headline table</a>).</p>\n"
          "<table id=\"scoreboard-table\"><tr><th>reproduction</th><th>paper</th><th>size</th>"
          "<th>claims holding</th><th>headlines in the paper's direction</th>"
          "<th>first headline</th><th>paper</th><th>gpucoh</th><th>direction</th>"
          "<th>effect ratio</th></tr>\n",
          hf);
    fputs("\n## Scoreboard\n\n| reproduction | paper | size | claims holding | headlines in the "
          "paper's direction | first headline | paper | gpucoh | direction | effect ratio |\n"
          "|---|---|---|---|---|---|---:|---:|---|---:|\n",
          mf);
    for (unsigned k = 0; k < n; k++) {
        const struct repro *r = e[k].r;
        fprintf(hf, "<tr><td><a href=\"#%s\">%s</a></td><td>", r->d.name, r->d.name);
        html_prose(hf, r->d.title, b);
        fputs("</td>", hf);
        fprintf(mf, "| %s | ", r->d.name);
        md_text(mf, r->d.title);
        fputs(" | ", mf);
        if (!e[k].ran) {
            fprintf(hf, "<td colspan=\"8\" class=\"notbuilt\">%s: ", not_ran(&e[k]));
            html_text(hf, e[k].why);
            fputs("</td></tr>\n", hf);
            fprintf(mf, "%s: ", not_ran(&e[k]));
            md_text(mf, e[k].why);
            fputs(" | | | | | | | |\n", mf);
            continue;
        }
        unsigned held = 0, known = 0;
        for (unsigned i = 0; i < r->d.n_claims; i++) {
            held += r->claims[i].holds > 0;
            known += r->claims[i].holds >= 0;
        }
        unsigned with = 0, right = 0;
        const struct headline *first = NULL;
        for (unsigned i = 0; i < nh; i++) {
            if (!r->d.paper_key[0] || strcasecmp(h[i].paper, r->d.paper_key) || isnan(h[i].ours))
                continue;
            with++;
            right += h[i].effect.direction > 0;
            if (!first)
                first = &h[i];
        }
        char claims[64], heads[64];
        snprintf(claims, sizeof claims, "%u of %u%s", held, r->d.n_claims,
                 known < r->d.n_claims ? " (some cannot be checked)" : "");
        if (with)
            snprintf(heads, sizeof heads, "%u of %u", right, with);
        else
            snprintf(heads, sizeof heads, "%s",
                     r->d.paper_key[0] ? "none with a number" : "— (not a paper)");
        fprintf(hf, "<td>%s</td><td class=\"num\">%s</td><td class=\"num\">%s</td>",
                repro_numbers_size(r), claims, heads);
        fprintf(mf, "%s | %s | %s | ", repro_numbers_size(r), claims, heads);
        if (!first) {
            fputs("<td colspan=\"5\">—</td></tr>\n", hf);
            fputs("— | | | | |\n", mf);
            continue;
        }
        char effect[16];
        effect_ratio_text(effect, sizeof effect, &first->effect);
        fprintf(hf, "<td>%s %s: ", first->figure, first->metric);
        html_text(hf, first->design_shown);
        fputs(" over ", hf);
        html_text(hf, first->baseline_shown);
        fprintf(hf,
                "</td><td class=\"num\">%.2f</td><td class=\"num %s\">%.2f</td>"
                "<td class=\"%s\">%s</td><td class=\"num %s\">%s</td></tr>\n",
                first->value, effect_css(first), first->ours, effect_css(first),
                effect_direction_text(&first->effect), effect_css(first), effect);
        fprintf(mf, "%s %s: %s over %s | %.2f | %.2f | %s | %s |\n", first->figure, first->metric,
                first->design_shown, first->baseline_shown, first->value, first->ours,
                effect_direction_text(&first->effect), effect);
    }
    fputs("</table>\n", hf);
}

/* Where the page's numbers come from: the gpucoh version and source
 * commit, the date, the size, the command; each reproduction's machine
 * files are in its section. At a smoke-test size (tiny, quick) a warning
 * says what these numbers are not. */
static void provenance(FILE *hf, FILE *mf, const struct repro_site_info *info)
{
    char date[64];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    bool smoke = !strcmp(info->size, "tiny") || !strcmp(info->size, "quick");
    if (smoke) {
        fprintf(hf,
                "<div class=\"warning\" id=\"size-warning\"><strong>Size %s is a smoke "
                "test.</strong> Its inputs are cut down until every run takes seconds: the "
                "numbers show that everything runs and is wired up, not what the papers "
                "measured. Claims and effect ratios at this size are no evidence for or "
                "against a paper; read the stored results of the larger sizes "
                "(repro/NAME/results/small/, paper/) for that.</div>\n",
                info->size);
        fprintf(mf,
                "\n> **Size %s is a smoke test.** Its inputs are cut down until every run takes "
                "seconds: the numbers show that everything runs, not what the papers measured; "
                "read repro/NAME/results/small/ or paper/ for that.\n",
                info->size);
    }
    fputs("<table id=\"provenance\"><tr><th colspan=\"2\">Provenance</th></tr>\n", hf);
    fputs("\n## Provenance\n\n", mf);
    const char *rows[][2] = {
        {"gpucoh", "version " GPUCOH_VERSION},
        {"commit", info->commit},
        {"date", date},
        {"size", info->size},
        {"command", info->command},
        {"machine", "each reproduction's machine files are named in its section (its sweep's "
                    "config lines)"},
    };
    for (unsigned i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        fprintf(hf, "<tr><td>%s</td><td>", rows[i][0]);
        if (!strcmp(rows[i][0], "command"))
            fputs("<code>", hf);
        html_text(hf, rows[i][1]);
        fputs(!strcmp(rows[i][0], "command") ? "</code></td></tr>\n" : "</td></tr>\n", hf);
        fprintf(mf, "- %s: ", rows[i][0]);
        md_text(mf, rows[i][1]);
        fputc('\n', mf);
    }
    fputs("</table>\n", hf);
}

/* The bibliography (docs/papers.md), each entry the target of the page's
 * "spec 00x" links. */
static void bibliography(FILE *hf, FILE *mf, const struct bib *b, const char *path)
{
    fputs("<h2 id=\"papers\">The papers</h2>\n<p>Each spec number is a paper's (from ", hf);
    html_text(hf, path);
    fputs(").</p>\n<table><tr><th>spec</th><th>authors</th><th>title</th><th>venue</th>"
          "<th>year</th></tr>\n",
          hf);
    fputs("\n## The papers\n\n| spec | authors | title | venue | year |\n|---|---|---|---|---|\n",
          mf);
    for (unsigned i = 0; i < b->n; i++) {
        const struct bib_entry *x = &b->e[i];
        fprintf(hf, "<tr id=\"spec-%s\"><td>%s</td><td>", x->spec, x->spec);
        html_text(hf, x->authors);
        fputs("</td><td>", hf);
        html_text(hf, x->title);
        fputs("</td><td>", hf);
        html_text(hf, x->venue);
        fprintf(hf, "</td><td>%s</td></tr>\n", x->year);
        fprintf(mf, "| %s | %s | %s | %s | %s |\n", x->spec, x->authors, x->title, x->venue,
                x->year);
    }
    fputs("</table>\n", hf);
}

int repro_site(const char *out_dir, const struct repro_site_info *info, struct repro_entry *e,
               unsigned n, FILE *out)
{
    const char *headlines_path = info->headlines, *size = info->size;
    static struct bib bib;
    bib_load(&bib, info->papers);
    static struct headline h[256];
    struct headlines hs = {h, 0, 256};
    char err[1024];
    if (repro_csv_rows(headlines_path, 9, "paper,spec,figure,set,metric,baseline,design,value,note",
                       headline_row, &hs, err, sizeof err))
        fatal("%s", err);
    unsigned nh = hs.n;
    for (unsigned i = 0; i < nh; i++) {
        struct headline *x = &h[i];
        x->ours = NAN;
        x->effect = effect_of(x->value, NAN, 1);
        /* as headlines.csv has them, until a reproduction resolves them (memcpy:
         * the arrays are the same size; gcc's -Wrestrict misreads snprintf here) */
        memcpy(x->baseline_shown, x->baseline, sizeof x->baseline_shown);
        memcpy(x->design_shown, x->design, sizeof x->design_shown);
        snprintf(x->why, sizeof x->why, "not built");
        for (unsigned k = 0; k < n; k++) {
            if (strcasecmp(e[k].r->d.paper_key, x->paper))
                continue;
            if (!e[k].ran) {
                snprintf(x->why, sizeof x->why, "%s", not_ran(&e[k]));
                break;
            }
            x->why[0] = 0;
            const char *hb = headline_design(e[k].r, x->baseline),
                       *hd = headline_design(e[k].r, x->design);
            if (hb)
                snprintf(x->baseline_shown, sizeof x->baseline_shown, "%s",
                         repro_paper_name(e[k].r, hb));
            if (hd)
                snprintf(x->design_shown, sizeof x->design_shown, "%s",
                         repro_paper_name(e[k].r, hd));
            x->ours = headline_value(e[k].r, x->set, x->metric, x->baseline, x->design, x->why,
                                     sizeof x->why);
            const struct rp_paper_metric *pm = repro_paper_metric(x->metric);
            x->effect = effect_of(x->value, x->ours, pm ? repro_paper_neutral(pm) : 1);
            if (!isnan(x->ours)) {
                snprintf(x->size, sizeof x->size, "%s", repro_numbers_size(e[k].r));
                repro_evidence(e[k].r, x->set, x->metric, headline_design(e[k].r, x->baseline),
                               headline_design(e[k].r, x->design), &x->effect, x->evidence,
                               sizeof x->evidence);
            }
            break;
        }
    }
    /* the headline table, printed and in both files */
    fprintf(out, "\n== Headline table: every paper's headline numbers (%s) ==\n", headlines_path);
    fprintf(out,
            "(effect: (gpucoh - 1) / (paper - 1), or gpucoh / paper for a statistic; dir: "
            "the paper's direction (\u2713) or not (\u2717); a miss, the wrong direction or "
            "an effect outside %.1f-%.0f, names its evidence)\n",
            EFFECT_LOW, EFFECT_HIGH);
    fprintf(out, "%-8s %-4s %-7s %-5s %-13s %-12s %-16s %7s %8s %-3s %6s %-5s %s\n", "paper",
            "spec", "figure", "set", "metric", "baseline", "design", "paper", "gpucoh", "dir",
            "effect", "size", "evidence");
    for (unsigned i = 0; i < nh; i++) {
        const struct headline *x = &h[i];
        fprintf(out, "%-8s %-4s %-7s %-5s %-13s %-12s %-16s %7.2f ", x->paper, x->spec, x->figure,
                x->set, x->metric, x->baseline, x->design, x->value);
        if (isnan(x->ours)) {
            fprintf(out, "%8s\n", x->why);
            continue;
        }
        char effect[16], dir[16];
        effect_ratio_text(effect, sizeof effect, &x->effect);
        effect_direction_cell(dir, sizeof dir, &x->effect, 3);
        fprintf(out, "%8.2f %s %6s %-5s %s\n", x->ours, dir, effect, x->size, x->evidence);
    }

    char *html = NULL, *md = NULL;
    size_t hl = 0, ml = 0;
    FILE *hf = open_memstream(&html, &hl), *mf = open_memstream(&md, &ml);
    fputs(page_head, hf);
    fputs("<nav id=\"papers-nav\"><a href=\"#scoreboard\">scoreboard</a>"
          "<a href=\"#headlines\">headlines</a>",
          hf);
    for (unsigned k = 0; k < n; k++)
        fprintf(hf, "<a href=\"#%s\">%s</a>", e[k].r->d.name, e[k].r->d.name);
    fputs("<a href=\"#papers\">papers</a></nav>\n", hf);
    fprintf(hf, "<h1>gpucoh: every reproduction at size %s</h1>\n", size);
    fprintf(mf, "# gpucoh: every reproduction at size %s\n", size);
    provenance(hf, mf, info);
    scoreboard(hf, mf, e, n, h, nh, &bib);
    headline_table(hf, mf, h, nh, &bib);
    fputs("<h2>The reproductions</h2>\n<p>Each reproduction is a folder of data, "
          "<code>repro/&lt;name&gt;/</code> "
          "(docs/repro.md); these are its claims, the paper's numbers beside gpucoh's, and its "
          "plots. Numbers are what the runs measured.</p>\n<ul>\n",
          hf);
    fputs("\n## The reproductions\n\n", mf);
    for (unsigned k = 0; k < n; k++) {
        fprintf(hf, "<li><a href=\"#%s\">%s</a>: ", e[k].r->d.name, e[k].r->d.name);
        html_prose(hf, e[k].r->d.title, &bib);
        if (e[k].ran)
            fputs("</li>\n", hf);
        else
            fprintf(hf, " <span class=\"notbuilt\">(%s)</span></li>\n", not_ran(&e[k]));
        fprintf(mf, "- %s: %s%s%s%s\n", e[k].r->d.name, e[k].r->d.title, e[k].ran ? "" : " (",
                e[k].ran ? "" : not_ran(&e[k]), e[k].ran ? "" : ")");
    }
    fputs("</ul>\n", hf);
    for (unsigned k = 0; k < n; k++) {
        html_repro(hf, e, k, n, &bib);
        md_repro(mf, &e[k]);
    }
    bibliography(hf, mf, &bib, info->papers);
    fputs(page_script, hf);
    fputs("</body></html>\n", hf);
    fclose(hf);
    fclose(mf);
    char path[4200];
    snprintf(path, sizeof path, "%s/index.html", out_dir);
    int rc = write_file_atomic(path, html);
    snprintf(path, sizeof path, "%s/README.md", out_dir);
    rc = rc || write_file_atomic(path, md);
    free(html);
    free(md);
    return rc ? 2 : 0;
}
