/*
 * repro_text.c - rendering a reproduction (repro.h): the text report
 * (header, the paper's numbers beside gpucoh's, one section per declared
 * figure, the hook, the claims), summary.csv, and the plot data
 * (figures.csv, plot-data.csv) that tools/plot_repro.py draws.
 *
 * Nothing here is tuned toward the paper: the numbers are what the runs
 * measured. A design whose protocol is not built, or whose runs failed, is
 * reported as such and contributes no number.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/file.h"
#include "report/mean.h"
#include "report/repro_values.h"

/* ---- lines over a swept setting ---- */

/* Whether a configuration is a line of the figure. */
static bool on_figure(const struct rp_figure *f, const char *cfg)
{
    if (!f->by_design)
        return !strcmp(cfg, f->design);
    for (unsigned k = 0; k < f->n_designs; k++)
        if (!strcmp(cfg, f->designs[k]))
            return true;
    return false;
}

unsigned repro_x_values(const struct repro *r, const struct rp_figure *f, const char **values)
{
    unsigned n = 0;
    size_t klen = strlen(f->x);
    for (unsigned i = 0; i < r->spec.n_runs; i++) {
        const struct sweep_run *run = &r->spec.runs[i];
        if (strcmp(run->block, f->block) || !on_figure(f, run->config))
            continue;
        for (unsigned k = 0; k < run->n_settings; k++) {
            const char *s = run->settings[k];
            if (strncmp(s, f->x, klen) || s[klen] != '=')
                continue;
            bool seen = false;
            for (unsigned j = 0; j < n && !seen; j++)
                seen = !strcmp(values[j], s + klen + 1);
            if (!seen && n < RP_MAX_X)
                values[n++] = s + klen + 1;
        }
    }
    return n;
}

const char *repro_x_label(const char *value)
{
    const char *c = strrchr(value, ':');
    return c ? c + 1 : value;
}

double repro_point(const struct repro *r, const struct rp_figure *f, const char *app,
                   const char *x_value, bool *wrong)
{
    char setting[256];
    snprintf(setting, sizeof setting, "%s=%s", f->x, x_value);
    const struct sweep_result *d = repro_get_in(r, app, f->block, f->design, setting);
    const struct sweep_result *b = f->metric == RP_VALUE ? d : repro_get(r, app, f->baseline);
    if (!b || !d)
        return NAN;
    if (wrong)
        *wrong |= b->check == SWEEP_CHECK_WRONG || d->check == SWEEP_CHECK_WRONG;
    return repro_ratio_of(f->metric, f->stat, b, d);
}

const char *repro_x_find(const struct repro *r, const struct rp_figure *f, const char *x)
{
    const char *xs[RP_MAX_X];
    unsigned n = repro_x_values(r, f, xs);
    for (unsigned i = 0; i < n; i++)
        if (!strcmp(xs[i], x) || !strcmp(repro_x_label(xs[i]), x))
            return xs[i];
    return NULL;
}

double repro_line_mean(const struct repro *r, const struct rp_figure *f, const char *design,
                       const char *x_value, bool *wrong)
{
    char setting[256];
    snprintf(setting, sizeof setting, "%s=%s", f->x, x_value);
    double v[RP_MAX_APPS];
    unsigned n = 0;
    for (unsigned a = 0; a < r->n_apps; a++) {
        if (!repro_in_set(r, a, f->set))
            continue;
        const struct sweep_result *d = repro_get_in(r, r->apps[a], f->block, design, setting);
        const struct sweep_result *b = d;
        if (f->metric != RP_VALUE) {
            b = repro_get_in(r, r->apps[a], f->block, f->baseline, setting);
            if (!b && !sweep_find(&r->spec, f->block, r->apps[a], f->baseline, setting))
                b = repro_get(r, r->apps[a], f->baseline);
        }
        if (!b || !d)
            return NAN; /* a mean over fewer apps would not be the set's */
        if (wrong)
            *wrong |= b->check == SWEEP_CHECK_WRONG || d->check == SWEEP_CHECK_WRONG;
        v[n++] = repro_ratio_of(f->metric, f->stat, b, d);
    }
    if (f->metric != RP_SPEEDUP)
        return mean_arith(v, n);
    return r->d.mean == RP_GEOMETRIC ? mean_geometric(v, n) : mean_harmonic(v, n);
}

double repro_peak(const struct repro *r, const struct rp_figure *f, const char *app)
{
    const char *xs[RP_MAX_X];
    unsigned n = repro_x_values(r, f, xs);
    double best = NAN, best_x = NAN;
    for (unsigned i = 0; i < n; i++) {
        double v = repro_point(r, f, app, xs[i], NULL);
        if (isnan(v))
            return NAN; /* no peak is known while a point is missing */
        if (isnan(best) || v > best)
            best = v, best_x = atof(repro_x_label(xs[i]));
    }
    return best_x;
}

/* ---- printing ---- */

static void cell(FILE *o, double v, bool wrong)
{
    if (isnan(v))
        fprintf(o, " %8s", "-");
    else
        fprintf(o, " %7.2f%c", v, wrong ? '!' : ' ');
}

/* "close", "differs: 23% lower", with the direction relative to 1 noted. */
static void verdict(char *buf, size_t n, double paper, double ours)
{
    double rel = ours / paper - 1;
    if (fabs(rel) <= 0.05)
        snprintf(buf, n, "close (within 5%%)");
    else
        snprintf(buf, n, "differs: %.0f%% %s than the paper%s", fabs(rel) * 100,
                 rel < 0 ? "lower" : "higher",
                 (paper - 1) * (ours - 1) < 0 ? "; on the other side of 1.0" : "");
}

static const char *mean_name(const struct repro *r)
{
    return r->d.mean == RP_GEOMETRIC ? "geometric" : "harmonic";
}

/* gpucoh's value for one row of paper.csv. */
static void paper_value(struct repro *r, struct rp_paper_row *p)
{
    p->ours = NAN;
    p->effect = effect_of(p->value, NAN, 1);
    const char *missing = p->baseline[0] && !repro_have(r, p->baseline) ? p->baseline
                          : !repro_have(r, p->design)                   ? p->design
                                                                        : NULL;
    if (missing) {
        if (repro_design_absent(r, missing))
            snprintf(p->verdict, sizeof p->verdict, "not run at size %s: %s is not in %s", r->size,
                     missing, r->sweep_file);
        else
            snprintf(p->verdict, sizeof p->verdict,
                     "not run: configuration %s is not built in this gpucoh", missing);
        return;
    }
    unsigned used, total;
    p->ours = repro_paper_value(r, p->pm, p->stat, p->set, p->app, p->baseline, p->design, &used,
                                &total, &p->wrong) /
              p->divisor;
    if (isnan(p->ours)) {
        snprintf(p->verdict, sizeof p->verdict, "no number: runs failed");
        return;
    }
    verdict(p->verdict, sizeof p->verdict, p->value, p->ours);
    p->effect = effect_of(p->value, p->ours, repro_paper_neutral(p->pm));
    if (used < total) {
        size_t len = strlen(p->verdict);
        snprintf(p->verdict + len, sizeof p->verdict - len, " (over %u of %u apps)", used, total);
    }
}

static void headlines(struct repro *r)
{
    FILE *o = r->o;
    if (!r->n_paper)
        return;
    fprintf(o, "\n== The paper's numbers beside gpucoh's (size %s) ==\n", repro_numbers_size(r));
    fprintf(o,
            "(speedup: %s mean of per-app cycle ratios; traffic: mean of per-app byte ratios;\n"
            " all = %s; '!' = a run's output check failed)\n",
            mean_name(r), r->d.n_sets == 2 ? "both sets" : "every set");
    fputs("(effect: (gpucoh - 1) / (paper - 1), or gpucoh / paper for a statistic: 1 the paper's\n"
          " effect, 0 none, negative the wrong direction; dir: the paper's direction or not)\n\n",
          o);
    fprintf(o, "%-7s %-5s %-4s %-31s %6s %8s %6s %-3s  %s\n", "figure", "set", "app", "what",
            "paper", "gpucoh", "effect", "dir", "verdict");
    for (unsigned i = 0; i < r->n_paper; i++) {
        struct rp_paper_row *p = &r->paper[i];
        paper_value(r, p);
        char what[160];
        if (p->stat >= 0)
            snprintf(what, sizeof what, "%s %s", p->design, p->metric + 6);
        else
            snprintf(what, sizeof what, "%s %s over %s", p->design, p->pm->what, p->baseline);
        fprintf(o, "%-7s %-5s %-4s %-31s %6.2f ", p->figure, p->set, p->app, what, p->value);
        char effect[16], dir[16];
        effect_ratio_text(effect, sizeof effect, &p->effect);
        effect_direction_cell(dir, sizeof dir, &p->effect, 3);
        if (isnan(p->ours))
            fprintf(o, "%8s %6s %-3s  %s\n", "-", "", "", p->verdict);
        else
            fprintf(o, "%7.2f%c %6s %s  %s\n", p->ours, p->wrong ? '!' : ' ', effect, dir,
                    p->verdict);
    }
}

/* The figure's designs that have results, in its order. */
static unsigned pick(const struct repro *r, const struct rp_figure *f, const char **out)
{
    unsigned k = 0;
    for (unsigned i = 0; i < f->n_designs; i++)
        if (repro_have(r, f->designs[i]))
            out[k++] = f->designs[i];
    return k;
}

/* A paper value for (figure, group, series), or NaN: a paper.csv row of the
 * figure's metric, baseline and design, for one app, or for the figure's set
 * summed up as the figure's mean is. */
static double paper_mark(const struct repro *r, const struct rp_figure *f, const char *group,
                         const char *design, bool is_mean)
{
    enum rp_metric m = f->metric == RP_TRAFFIC_CLASS ? RP_TRAFFIC : f->metric;
    enum rp_agg agg = m != RP_SPEEDUP             ? RP_AGG_MEAN
                      : r->d.mean == RP_GEOMETRIC ? RP_AGG_GM
                                                  : RP_AGG_HM;
    for (unsigned i = 0; i < r->n_paper; i++) {
        const struct rp_paper_row *p = &r->paper[i];
        if (p->pm->metric != m || strcmp(p->design, design))
            continue;
        if (m == RP_VALUE ? p->stat != f->stat : strcmp(p->baseline, f->baseline) != 0)
            continue;
        if (is_mean ? !p->app[0] && p->pm->agg == agg && !strcmp(p->set, f->set)
                    : !strcmp(p->app, group))
            return p->value;
    }
    return NAN;
}

/* A plotted value. A series that is a design is written under the paper's
 * name for it ([designs]: NO-L1, not nol1), so legends read as the paper's. */
static void plot_row(struct repro *r, const struct rp_figure *f, const char *group,
                     const char *series, const char *stack, double v, double paper)
{
    fprintf(r->plot, "%s,%s,", f->id, group);
    csv_field(r->plot, repro_paper_name(r, series));
    fprintf(r->plot, ",%s,", stack);
    if (!isnan(v))
        fprintf(r->plot, "%.6g", v);
    fputc(',', r->plot);
    if (!isnan(paper))
        fprintf(r->plot, "%.6g", paper);
    fputc('\n', r->plot);
}

/* The design of f's best list with the fewest cycles on app ("-": none
 * ran). */
static const char *best_of(struct repro *r, const struct rp_figure *f, const char *app)
{
    const char *best = "-";
    double least = INFINITY;
    for (unsigned k = 0; k < f->n_best; k++) {
        const struct sweep_result *d = repro_get(r, app, f->best[k]);
        double c = d ? repro_stat(d, repro_stat_find("cycles")) : NAN;
        if (c < least) {
            least = c;
            best = f->best[k];
        }
    }
    return best;
}

/* Per-app table of the figure's metric for its designs, with the set mean
 * (and the best column when the figure has a best list). */
static void table(struct repro *r, const struct rp_figure *f, bool plot)
{
    FILE *o = r->o;
    const char *cfgs[RP_MAX_DESIGNS];
    unsigned n = pick(r, f, cfgs);
    const char *label = repro_mean_label(r, f->metric);
    const char *best_label = f->best_label[0] ? f->best_label : "best";
    fprintf(o, "%-8s", "app");
    for (unsigned k = 0; k < n; k++)
        fprintf(o, " %8s", cfgs[k]);
    if (f->n_best)
        fprintf(o, "  %s", best_label);
    fputc('\n', o);
    for (unsigned a = 0; a < r->n_apps; a++) {
        if (!repro_in_set(r, a, f->set))
            continue;
        fprintf(o, "%-8s", r->apps[a]);
        for (unsigned k = 0; k < n; k++) {
            bool wrong = false;
            double v =
                repro_ratio(r, f->metric, f->stat, r->apps[a], f->baseline, cfgs[k], &wrong) /
                f->divisor;
            cell(o, v, wrong);
            if (plot)
                plot_row(r, f, r->apps[a], cfgs[k], "", v,
                         paper_mark(r, f, r->apps[a], cfgs[k], false));
        }
        if (f->n_best)
            fprintf(o, "  %s", best_of(r, f, r->apps[a]));
        fputc('\n', o);
    }
    fprintf(o, "%-8s", label);
    char partial[512] = "";
    size_t len = 0;
    for (unsigned k = 0; k < n; k++) {
        unsigned used, total;
        double v = repro_set_mean(r, f->metric, f->stat, f->set, f->baseline, cfgs[k], &used,
                                  &total, NULL) /
                   f->divisor;
        cell(o, v, false);
        if (plot)
            plot_row(r, f, label, cfgs[k], "", v, paper_mark(r, f, label, cfgs[k], true));
        if (used < total && len < sizeof partial)
            len += (size_t)snprintf(partial + len, sizeof partial - len, " %s %u of %u,", cfgs[k],
                                    used, total);
    }
    fputc('\n', o);
    if (len) {
        partial[len - 1] = 0;
        /* an app has no value when a run is missing or failed, or when its
         * baseline's statistic is 0 (a ratio of nothing) */
        fprintf(o,
                "(%s over fewer apps, the others without a value: a run missing or failed, or "
                "a baseline of 0:%s)\n",
                label, partial);
    }
}

/* Statistics in parts (parts =, metric ratio:STAT): each part over the
 * baseline's STAT; a table of the set means per design, with the design's
 * own STAT ratio and the parts' sum; plotted stacked per app. */
static void stacked_parts(struct repro *r, const struct rp_figure *f)
{
    FILE *o = r->o;
    const char *cfgs[RP_MAX_DESIGNS];
    unsigned n = pick(r, f, cfgs);
    fprintf(o, "%-13s %8s", "design", f->stat_name);
    for (unsigned p = 0; p < f->n_parts; p++)
        fprintf(o, " %*s", (int)(strlen(f->parts[p]) > 8 ? strlen(f->parts[p]) : 8), f->parts[p]);
    fprintf(o, " %8s\n", "sum");
    for (unsigned k = 0; k < n; k++) {
        double sum[RP_MAX_PARTS] = {0}, whole = 0;
        unsigned used = 0;
        for (unsigned a = 0; a < r->n_apps; a++) {
            if (!repro_in_set(r, a, f->set))
                continue;
            const struct sweep_result *b = repro_get(r, r->apps[a], f->baseline),
                                      *d = repro_get(r, r->apps[a], cfgs[k]);
            double base = b ? repro_stat(b, f->stat) : NAN;
            bool ok = d && base > 0;
            for (unsigned p = 0; p < f->n_parts; p++) {
                double v = ok ? repro_stat(d, f->part_stat[p]) / base : NAN;
                plot_row(r, f, r->apps[a], cfgs[k], f->parts[p], v, NAN);
                if (ok)
                    sum[p] += v;
            }
            if (ok)
                whole += repro_stat(d, f->stat) / base;
            used += ok;
        }
        fprintf(o, "%-13s", cfgs[k]);
        cell(o, used ? whole / used : NAN, false);
        double total = 0;
        for (unsigned p = 0; p < f->n_parts; p++) {
            double v = used ? sum[p] / used : NAN;
            total += v;
            int w = (int)(strlen(f->parts[p]) > 8 ? strlen(f->parts[p]) : 8);
            if (isnan(v))
                fprintf(o, " %*s", w, "-");
            else
                fprintf(o, " %*.3f", w, v);
            plot_row(r, f, "mean", cfgs[k], f->parts[p], v, NAN);
        }
        cell(o, total, false);
        fputc('\n', o);
    }
}

/* Traffic by class, normalised to the baseline's total: a table of the set
 * means per design; plotted stacked per app. */
static void stacked(struct repro *r, const struct rp_figure *f)
{
    if (f->n_parts) {
        stacked_parts(r, f);
        return;
    }
    FILE *o = r->o;
    const char *cfgs[RP_MAX_DESIGNS];
    unsigned n = pick(r, f, cfgs);
    fprintf(o, "%-9s", "config");
    for (unsigned c = 0; c < TRAFFIC_N; c++)
        fprintf(o, " %7s", traffic_class_names[c]);
    fprintf(o, " %7s\n", "total");
    for (unsigned k = 0; k < n; k++) {
        double sum[TRAFFIC_N] = {0};
        unsigned used = 0;
        for (unsigned a = 0; a < r->n_apps; a++) {
            if (!repro_in_set(r, a, f->set))
                continue;
            const struct sweep_result *b = repro_get(r, r->apps[a], f->baseline),
                                      *d = repro_get(r, r->apps[a], cfgs[k]);
            bool ok = b && d && b->bytes_total > 0;
            for (unsigned c = 0; c < TRAFFIC_N; c++) {
                double v = ok ? d->bytes[c] / b->bytes_total : NAN;
                plot_row(r, f, r->apps[a], cfgs[k], traffic_class_names[c], v, NAN);
                if (ok)
                    sum[c] += v;
            }
            used += ok;
        }
        fprintf(o, "%-9s", cfgs[k]);
        double total = 0;
        for (unsigned c = 0; c < TRAFFIC_N; c++) {
            double v = used ? sum[c] / used : NAN;
            total += v;
            cell(o, v, false);
            plot_row(r, f, "mean", cfgs[k], traffic_class_names[c], v,
                     c ? NAN : paper_mark(r, f, "mean", cfgs[k], true));
        }
        cell(o, total, false);
        fputc('\n', o);
    }
}

static void beside_cell(FILE *o, int width, double v)
{
    if (isnan(v))
        fprintf(o, " %*s", width, "-");
    else
        fprintf(o, fabs(v) >= 100 ? " %*.0f" : " %*.2f", width, v);
}

/* One line per app of the set: the design's metric at each x; the best x;
 * the beside design's value and statistic. */
static void lines(struct repro *r, const struct rp_figure *f)
{
    FILE *o = r->o;
    const char *xs[RP_MAX_X];
    unsigned nx = repro_x_values(r, f, xs);
    int stat_w = f->beside_stat_label[0] && strlen(f->beside_stat_label) > 8
                     ? (int)strlen(f->beside_stat_label)
                     : 8;
    fprintf(o, "%-8s", "app");
    for (unsigned l = 0; l < nx; l++)
        fprintf(o, " %8s", repro_x_label(xs[l]));
    fprintf(o, " %8s", "best");
    if (f->beside[0])
        fprintf(o, " %8s", f->beside);
    if (f->beside_stat >= 0)
        fprintf(o, " %*s", stat_w, f->beside_stat_label[0] ? f->beside_stat_label : "stat");
    fputc('\n', o);
    for (unsigned a = 0; a < r->n_apps; a++) {
        if (!repro_in_set(r, a, f->set))
            continue;
        const char *app = r->apps[a];
        fprintf(o, "%-8s", app);
        for (unsigned l = 0; l < nx; l++) {
            bool wrong = false;
            double v = repro_point(r, f, app, xs[l], &wrong);
            cell(o, v, wrong);
            /* the paper's value at this point: a variant of this block and setting */
            double paper = NAN;
            for (unsigned i = 0; i < r->d.n_variants; i++) {
                const struct rp_variant *x = &r->d.variants[i];
                char setting[256];
                snprintf(setting, sizeof setting, "%s=%s", f->x, xs[l]);
                if (strcmp(x->block, f->block) || strcmp(x->design, f->design) ||
                    strcmp(x->setting, setting))
                    continue;
                for (unsigned p = 0; p < r->n_paper; p++)
                    if (!strcmp(r->paper[p].design, x->name) && !strcmp(r->paper[p].app, app) &&
                        !strcmp(r->paper[p].baseline, f->baseline))
                        paper = r->paper[p].value;
            }
            plot_row(r, f, repro_x_label(xs[l]), app, "", v, paper);
        }
        double peak = repro_peak(r, f, app);
        char best[32] = "-";
        if (!isnan(peak))
            snprintf(best, sizeof best, "%.0f", peak);
        fprintf(o, " %8s", best);
        if (f->beside[0])
            cell(o, repro_ratio(r, f->metric, f->stat, app, f->baseline, f->beside, NULL), false);
        if (f->beside_stat >= 0) {
            const struct sweep_result *t = repro_get(r, app, f->beside);
            beside_cell(o, stat_w, t ? repro_stat(t, f->beside_stat) : NAN);
        }
        fputc('\n', o);
    }
}

/* The paper's value of a design at one x of a lines figure: a row of
 * paper.csv naming a variant of this block, design and setting (for one app,
 * or "" for the set). */
static double paper_at(const struct repro *r, const struct rp_figure *f, const char *design,
                       const char *x_value, const char *app)
{
    char setting[256];
    snprintf(setting, sizeof setting, "%s=%s", f->x, x_value);
    for (unsigned i = 0; i < r->d.n_variants; i++) {
        const struct rp_variant *x = &r->d.variants[i];
        if (strcmp(x->block, f->block) || strcmp(x->design, design) || strcmp(x->setting, setting))
            continue;
        for (unsigned p = 0; p < r->n_paper; p++)
            if (!strcmp(r->paper[p].design, x->name) && !strcmp(r->paper[p].app, app) &&
                r->paper[p].pm->metric == f->metric &&
                (f->metric != RP_VALUE || r->paper[p].stat == f->stat))
                return r->paper[p].value;
    }
    return NAN;
}

/* One line per design: the set's mean at each x (baseline at the same x). */
static void design_lines(struct repro *r, const struct rp_figure *f)
{
    FILE *o = r->o;
    const char *xs[RP_MAX_X];
    unsigned nx = repro_x_values(r, f, xs);
    fprintf(o, "%-13s", f->metric == RP_VALUE ? f->stat_name : repro_mean_label(r, f->metric));
    for (unsigned l = 0; l < nx; l++)
        fprintf(o, " %8s", repro_x_label(xs[l]));
    fputc('\n', o);
    for (unsigned k = 0; k < f->n_designs; k++) {
        const char *dn = f->designs[k];
        fprintf(o, "%-13s", dn);
        for (unsigned l = 0; l < nx; l++) {
            bool wrong = false;
            double v = repro_line_mean(r, f, dn, xs[l], &wrong) / f->divisor;
            cell(o, v, wrong);
            plot_row(r, f, repro_x_label(xs[l]), dn, "", v, paper_at(r, f, dn, xs[l], ""));
        }
        fputc('\n', o);
    }
}

static void figure(struct repro *r, const struct rp_figure *f)
{
    FILE *o = r->o;
    if (f->kind == RP_TABLE)
        fprintf(o, "%s (size %s)\n", f->title, repro_numbers_size(r));
    else
        fprintf(o, "\n== %s (size %s) ==\n", f->title, repro_numbers_size(r));
    const char *need =
        f->baseline[0] && f->metric != RP_VALUE && !repro_have(r, f->baseline) ? f->baseline
        : f->kind == RP_LINES && !f->by_design && !repro_have(r, f->design)    ? f->design
                                                                               : NULL;
    if (need && repro_design_absent(r, need)) {
        fprintf(o, "not run at size %s: %s is not in %s\n", r->size, need, r->sweep_file);
        return;
    }
    if (need) {
        fprintf(o, "not run: %s is not built in this gpucoh\n", need);
        return;
    }
    if (f->kind == RP_LINES && repro_block_absent(r, f->block)) {
        fprintf(o, "not run at size %s: block %s is not in %s\n", r->size, f->block, r->sweep_file);
        return;
    }
    switch (f->kind) {
    case RP_BARS:
        table(r, f, true);
        break;
    case RP_TABLE:
        table(r, f, false);
        break;
    case RP_STACKED:
        stacked(r, f);
        break;
    case RP_LINES:
        if (f->by_design)
            design_lines(r, f);
        else
            lines(r, f);
        break;
    }
    if (f->note[0])
        fprintf(o, "%s\n", f->note);
    for (unsigned i = 0; i < r->d.n_calibs; i++) {
        const struct rp_calibration *c = &r->d.calibs[i];
        for (unsigned k = 0; k < c->n_affects; k++)
            if (!strcmp(c->affects[k], f->id))
                fprintf(o, "calibration %s%s: %s\n", c->name,
                        c->after_result ? " (made after a first result was seen)" : "", c->what);
    }
}

const char *repro_verdict_word(int holds)
{
    return holds < 0 ? "cannot check" : holds ? "holds" : "does not hold";
}

static void claims(struct repro *r)
{
    FILE *o = r->o;
    if (!r->d.n_claims)
        return;
    fprintf(o, "\n== The paper's expected shape, claim by claim (size %s) ==\n",
            repro_numbers_size(r));
    for (unsigned i = 0; i < r->d.n_claims; i++) {
        const struct rp_claim *c = &r->d.claims[i];
        struct rp_claim_result *x = &r->claims[i];
        double v = cx_eval(c->node, repro_claim_env(r), x->detail, sizeof x->detail);
        x->holds = isnan(v) ? -1 : v != 0;
        fprintf(o, "[%s] %s%s%s", repro_verdict_word(x->holds), c->text, x->detail[0] ? ": " : "",
                x->detail);
        /* its verdict flips when a calibration is undone */
        for (unsigned k = 0; k < r->d.n_calibs; k++) {
            const struct rp_calibration *cal = &r->d.calibs[k];
            char detail[1024];
            if (cal->undo.none[0] || repro_block_absent(r, cal->undo.block))
                continue;
            int was = repro_claim_before(r, i, &cal->undo, detail, sizeof detail);
            int undone = repro_claim_in(r, i, &cal->undo, detail, sizeof detail);
            if (was >= 0 && undone >= 0 && was != undone)
                fprintf(o, " [rests on calibration %s]", cal->name);
        }
        fputc('\n', o);
        if (c->paper[0])
            fprintf(o, "    the paper: %s\n", c->paper);
        for (unsigned k = 0; k < r->d.n_calibs; k++) { /* the calibrations it names */
            const struct rp_calibration *cal = &r->d.calibs[k];
            for (unsigned a = 0; a < cal->n_affects; a++)
                if (!strcmp(cal->affects[a], c->id))
                    fprintf(o, "    calibration %s: %s%s\n", cal->name, cal->what,
                            cal->undo.none[0] ? " (its effect is not measured)" : "");
        }
    }
}

/* "block lease, tc.lease=fixed:0" */
static void ablation_name(const struct rp_ablation *ab, char *buf, size_t n)
{
    snprintf(buf, n, "block %s%s%s", ab->block, ab->setting[0] ? ", " : "", ab->setting);
}

static void number(FILE *o, double v)
{
    if (isnan(v))
        fputs("-", o);
    else
        fprintf(o, "%.2f", v);
}

/* The mark of an explain that does not move its number or claim at least a
 * tenth of the way toward the paper (repro_explain_toward): listed, it
 * explains nothing. */
#define NOT_TOWARD " [under a tenth of the way to the paper: explains nothing]"

/* One explain entry: its ablation and the number (or the claim) it moves;
 * under a miss (miss), marked where it moves it too little to explain it. */
static void explain_line(struct repro *r, const struct rp_explain *x, bool miss)
{
    FILE *o = r->o;
    char where[256], ref[256] = "";
    if (x->measure_pm)
        snprintf(where, sizeof where, "the main block's runs as %s", x->measure);
    else
        ablation_name(&x->ab, where, sizeof where);
    char apps[256];
    repro_block_apps(r, x->ab.block, apps, sizeof apps);
    size_t len = strlen(where);
    if (x->ref.block[0]) { /* against a reference, over the ablation's apps */
        ablation_name(&x->ref, ref, sizeof ref);
        snprintf(where + len, sizeof where - len, " against %.80s; apps %.80s", ref, apps);
    } else if (!x->measure_pm && repro_ablation_scoped(r, &x->ab))
        snprintf(where + len, sizeof where - len, "; over its apps %.80s", apps);
    else if (!x->measure_pm && x->ab.rest_main && repro_runs_block(r, x->ab.block))
        snprintf(where + len, sizeof where - len, "; apps %.80s, the rest the main block's", apps);
    fprintf(o, "    %s: %s (%s): ", x->name, x->text, where);
    if (!repro_explain_run_here(r, x)) {
        fprintf(o, "not run at size %s (the block is not in %s)\n", r->size, r->sweep_file);
        return;
    }
    int holds;
    char detail[1024], before_detail[1024];
    if (x->row_index >= 0) {
        const struct rp_paper_row *p = &r->paper[x->row_index];
        double in = repro_explain_in(r, x, true, &holds, detail, sizeof detail);
        number(o, repro_explain_in(r, x, false, &holds, detail, sizeof detail));
        fputs(" \u2192 ", o);
        number(o, in);
        fprintf(o, "; paper %.2f", p->value);
        if (!isnan(in)) {
            struct effect e = effect_of(p->value, in, repro_paper_neutral(p->pm));
            char eff[16];
            effect_ratio_text(eff, sizeof eff, &e);
            fprintf(o, " (effect %s)", eff);
        } else {
            fputs(" (the block lacks a run it needs)", o);
        }
        fprintf(o, "%s\n", miss && !isnan(in) && !repro_explain_toward(r, x) ? NOT_TOWARD : "");
        return;
    }
    int before;
    repro_explain_in(r, x, false, &before, before_detail, sizeof before_detail);
    repro_explain_in(r, x, true, &holds, detail, sizeof detail);
    if (x->ref.block[0]) /* the reference's values too: they are not the claim's above */
        fprintf(o, "[%s]%s%s \u2192 [%s]%s%s", repro_verdict_word(before),
                before_detail[0] ? ": " : "", before_detail, repro_verdict_word(holds),
                detail[0] ? ": " : "", detail);
    else
        fprintf(o, "[%s] \u2192 [%s]%s%s", repro_verdict_word(before), repro_verdict_word(holds),
                detail[0] ? ": " : "", detail);
    bool measured = before >= 0 && holds >= 0;
    fprintf(o, "%s\n", miss && measured && !repro_explain_toward(r, x) ? NOT_TOWARD : "");
}

/* Every best = KEY variant: per app the value of KEY with the fewest cycles,
 * and the paper's where paper.csv names, for the app, a variant of the same
 * block and design at one value of KEY (Table 4.4's "at its best
 * concurrency" rows). */
static void best_settings(struct repro *r)
{
    FILE *o = r->o;
    unsigned n = 0;
    for (unsigned i = 0; i < r->d.n_variants; i++)
        n += r->d.variants[i].best[0] != 0;
    if (!n)
        return;
    fprintf(o, "\n== Each design at its best setting (size %s) ==\n", repro_numbers_size(r));
    fputs(
        "(per app, the value of the setting with the fewest cycles over the design's runs in the\n"
        " block; - : not every value has run here; in parentheses the paper's choice where\n"
        " paper.csv names one)\n",
        o);
    for (unsigned i = 0; i < r->d.n_variants; i++) {
        const struct rp_variant *v = &r->d.variants[i];
        if (v->best[0])
            fprintf(o, "  %s: %s at its best %s in block %s\n", v->name,
                    repro_paper_name(r, v->design), v->best, v->block);
    }
    fprintf(o, "%-12s", "app");
    for (unsigned i = 0; i < r->d.n_variants; i++)
        if (r->d.variants[i].best[0])
            fprintf(o, " %-16s", r->d.variants[i].name);
    fputc('\n', o);
    for (unsigned a = 0; a < r->n_apps; a++) {
        fprintf(o, "%-12s", r->apps[a]);
        for (unsigned i = 0; i < r->d.n_variants; i++) {
            const struct rp_variant *v = &r->d.variants[i];
            if (!v->best[0])
                continue;
            const struct sweep_run *run =
                repro_have(r, v->name) ? repro_best_run(r, v, r->apps[a]) : NULL;
            const char *got = NULL;
            size_t kl = strlen(v->best);
            for (unsigned k = 0; run && k < run->n_settings; k++)
                if (!strncmp(run->settings[k], v->best, kl) && run->settings[k][kl] == '=')
                    got = run->settings[k] + kl + 1;
            /* the paper's: a row for this app naming a variant of the block and design */
            const char *paper = NULL;
            for (unsigned p = 0; p < r->n_paper && !paper; p++) {
                const struct rp_variant *pv = repro_variant(r, r->paper[p].design);
                if (strcmp(r->paper[p].app, r->apps[a]) || !pv || pv->best[0] ||
                    strcmp(pv->block, v->block) || strcmp(pv->design, v->design) ||
                    strncmp(pv->setting, v->best, kl) || pv->setting[kl] != '=')
                    continue;
                paper = pv->setting + kl + 1;
            }
            char cellv[64];
            snprintf(cellv, sizeof cellv, "%s%s%s%s", got ? got : "-", paper ? " (" : "",
                     paper ? paper : "", paper ? ")" : "");
            fprintf(o, " %-16s", cellv);
        }
        fputc('\n', o);
    }
}

/* Every miss - a claim that does not hold, a number in the wrong direction
 * or with an effect ratio outside 0.5-2 - with the ablations that explain
 * it, or "unexplained"; then the explains of what is not a miss here. */
static void misses(struct repro *r)
{
    FILE *o = r->o;
    fprintf(o, "\n== Misses and the ablations that explain them (size %s) ==\n",
            repro_numbers_size(r));
    fputs("(a miss: a claim that does not hold, or one of the paper's numbers in the wrong\n"
          " direction or with an effect ratio outside 0.5-2; an explanation is an ablation, a\n"
          " sweep block that changes one modelling choice or input, where the number is\n"
          " computed again: gpucoh's value -> the ablation's; paper's beside it. It explains\n"
          " the miss only if it moves the number at least a tenth of the way to the paper's,\n"
          " or the claim to hold or a tenth of the way nearer to holding)\n",
          o);
    unsigned n_miss = 0, n_unexplained = 0;
    for (int pass = 0; pass < 2; pass++) {
        bool header = false;
        for (unsigned i = 0; i < r->n_paper + r->d.n_claims; i++) {
            bool is_row = i < r->n_paper;
            unsigned k = is_row ? i : i - r->n_paper;
            bool miss = is_row ? effect_miss(&r->paper[k].effect) : r->claims[k].holds == 0;
            /* only an explain measured at this size that moves the number
             * or claim a tenth of the way toward the paper explains (the
             * others are listed: not run here, or too little toward it) */
            unsigned n_run = 0, n_toward = 0;
            for (unsigned e = 0; e < r->d.n_explains; e++) {
                const struct rp_explain *x = &r->d.explains[e];
                bool names = is_row ? x->row_index == (int)k : x->claim_index == (int)k;
                n_run += names && repro_explain_run_here(r, x);
                n_toward += names && repro_explain_toward(r, x);
            }
            if (pass == 0 ? !miss : miss || !n_run)
                continue;
            if (pass == 1 && !header) {
                fputs("explained, though not a miss at this size:\n", o);
                header = true;
            }
            if (is_row) {
                const struct rp_paper_row *p = &r->paper[k];
                char eff[16];
                effect_ratio_text(eff, sizeof eff, &p->effect);
                fprintf(o, "%s %s %s%s%s over %s: paper %.2f, gpucoh ", p->figure, p->set, p->app,
                        p->app[0] ? " " : "", p->design, p->baseline[0] ? p->baseline : "-",
                        p->value);
                number(o, p->ours);
                fprintf(o, " (%s, effect %s)\n", p->metric, eff);
            } else {
                fprintf(o, "claim %s [%s]: %s\n", r->d.claims[k].id,
                        repro_verdict_word(r->claims[k].holds), r->d.claims[k].text);
            }
            n_miss += pass == 0;
            n_unexplained += pass == 0 && !n_toward;
            if (pass == 0 && !n_toward)
                fputs("    unexplained\n", o);
            for (unsigned e = 0; e < r->d.n_explains; e++) {
                const struct rp_explain *x = &r->d.explains[e];
                if (is_row ? x->row_index == (int)k : x->claim_index == (int)k)
                    explain_line(r, x, pass == 0);
            }
        }
    }
    fprintf(o, "%u misses, %u of them unexplained\n", n_miss, n_unexplained);
}

/* Every calibration, and what undoing it changes: claims whose verdict
 * flips, and the paper's numbers it moves (by 0.01 or more). */
static void calibrations(struct repro *r)
{
    FILE *o = r->o;
    if (!r->d.n_calibs)
        return;
    fprintf(o, "\n== Calibrations: settings and generators changed to fit (size %s) ==\n",
            repro_numbers_size(r));
    for (unsigned i = 0; i < r->d.n_calibs; i++) {
        const struct rp_calibration *c = &r->d.calibs[i];
        fprintf(o,
                "%s: %s\n    why: %s\n    source: %s\n    changed after a first result was "
                "seen: %s\n    affects:",
                c->name, c->what, c->why, c->source, c->after_result ? "yes" : "no");
        for (unsigned k = 0; k < c->n_affects; k++)
            fprintf(o, " %s", c->affects[k]);
        fputc('\n', o);
        if (c->undo.none[0]) {
            fprintf(o, "    undone: not measured (%s)\n", c->undo.none);
            continue;
        }
        char where[256], apps[256];
        ablation_name(&c->undo, where, sizeof where);
        if (repro_block_absent(r, c->undo.block)) {
            fprintf(o, "    undone (%s): not run at size %s (the block is not in %s)\n", where,
                    r->size, r->sweep_file);
            continue;
        }
        repro_block_apps(r, c->undo.block, apps, sizeof apps);
        if (repro_ablation_scoped(r, &c->undo))
            fprintf(o, "    undone (%s; before and after over its apps %s):\n", where, apps);
        else if (c->undo.rest_main)
            fprintf(o, "    undone (%s; apps %s, the rest the main block's):\n", where, apps);
        else
            fprintf(o, "    undone (%s):\n", where);
        unsigned shown = 0;
        for (unsigned k = 0; k < r->d.n_claims; k++) {
            char detail[1024];
            int was = repro_claim_before(r, k, &c->undo, detail, sizeof detail);
            int holds = repro_claim_in(r, k, &c->undo, detail, sizeof detail);
            if (holds < 0 || was < 0 || holds == was)
                continue;
            fprintf(o, "      claim %s [%s] \u2192 [%s]: rests on this calibration\n",
                    r->d.claims[k].id, repro_verdict_word(was), repro_verdict_word(holds));
            shown++;
        }
        for (unsigned k = 0; k < r->n_paper; k++) { /* the paper's numbers it moves */
            const struct rp_paper_row *p = &r->paper[k];
            double was = repro_row_before(r, p, &c->undo);
            double in = repro_row_in(r, p, &c->undo);
            if (isnan(in) || isnan(was) || fabs(in - was) < 0.005)
                continue;
            fprintf(o, "      %s %s %s%s%s over %s: ", p->figure, p->set, p->app,
                    p->app[0] ? " " : "", p->design, p->baseline[0] ? p->baseline : "-");
            number(o, was);
            fprintf(o, " \u2192 %.2f; paper %.2f\n", in, p->value);
            shown++;
        }
        if (!shown)
            fputs("      no claim's verdict and none of the paper's numbers changes\n", o);
    }
}

/* The paper's numbers and the claims over the main block and its replicas
 * (blocks that repeat it with another input, e.g. a frames block's seed):
 * each number's mean, min and max, each claim's count of verdicts. */
static void replicas(struct repro *r)
{
    FILE *o = r->o;
    const struct rp_decl *d = &r->d;
    const struct rp_ablation *rep[RP_MAX_REPLICAS]; /* those that run at this size */
    unsigned n_rep = 0;
    for (unsigned i = 0; i < d->n_replicas; i++)
        if (repro_runs_block(r, d->replicas[i].block))
            rep[n_rep++] = &d->replicas[i];
    if (!n_rep)
        return;
    unsigned k_all = n_rep + 1;
    fprintf(o, "\n== Spread over %u replicas of block %s (size %s) ==\n", k_all, d->block,
            repro_numbers_size(r));
    fprintf(o, "(the main block and blocks");
    for (unsigned i = 0; i < n_rep; i++)
        fprintf(o, " %s", rep[i]->block);
    fputs(", each the same runs with another input; a number: the main block's value, then\n"
          " mean [min, max] over the replicas that have it; a claim: in how many it holds; a\n"
          " claim or number read from another sweep block's figure is that block's in each;\n"
          " one that compares with another block's variant cannot be checked in a replica,\n"
          " that block having run on one input only)\n",
          o);
    /* the apps each replica takes from the main block, replicas with the
     * same list on one line */
    char taken[RP_MAX_REPLICAS][1024];
    for (unsigned i = 0; i < n_rep; i++) {
        size_t len = 0;
        taken[i][0] = 0;
        for (unsigned a = 0; a < r->n_apps; a++) {
            bool runs = false;
            for (unsigned k = 0; k < r->spec.n_runs && !runs; k++)
                runs = !strcmp(r->spec.runs[k].block, rep[i]->block) &&
                       !strcmp(r->spec.runs[k].workload, r->apps[a]);
            if (!runs && len < sizeof taken[i])
                len += (size_t)snprintf(taken[i] + len, sizeof taken[i] - len, "%s%s",
                                        len ? " " : "", r->apps[a]);
        }
    }
    for (unsigned i = 0; i < n_rep; i++) {
        bool said = !taken[i][0];
        for (unsigned j = 0; j < i && !said; j++)
            said = !strcmp(taken[j], taken[i]);
        if (said)
            continue;
        fprintf(o, "%s: not run in", taken[i]);
        for (unsigned j = i; j < n_rep; j++)
            if (!strcmp(taken[j], taken[i]))
                fprintf(o, " %s", rep[j]->block);
        fputs("; the main block's runs stand for them there\n", o);
    }
    for (unsigned k = 0; k < r->n_paper; k++) {
        const struct rp_paper_row *p = &r->paper[k];
        double sum = 0, lo = NAN, hi = NAN;
        unsigned n = 0;
        for (unsigned i = 0; i < k_all; i++) {
            double v = i ? repro_row_in(r, p, rep[i - 1]) : p->ours;
            if (isnan(v))
                continue;
            sum += v, n++;
            lo = isnan(lo) || v < lo ? v : lo;
            hi = isnan(hi) || v > hi ? v : hi;
        }
        fprintf(o, "%s %s %s%s%s over %s (%s): ", p->figure, p->set, p->app, p->app[0] ? " " : "",
                p->design, p->baseline[0] ? p->baseline : "-", p->metric);
        number(o, p->ours);
        if (n)
            fprintf(o, "; mean %.2f [%.2f, %.2f] over %u", sum / n, lo, hi, n);
        fprintf(o, "; paper %.2f\n", p->value);
    }
    for (unsigned k = 0; k < d->n_claims; k++) {
        unsigned holds = 0, known = 0;
        for (unsigned i = 0; i < k_all; i++) {
            char detail[1024];
            int h =
                i ? repro_claim_in(r, k, rep[i - 1], detail, sizeof detail) : r->claims[k].holds;
            known += h >= 0;
            holds += h == 1;
        }
        fprintf(o, "claim %s [%s]: holds in %u of %u replicas (%u cannot check)\n", d->claims[k].id,
                repro_verdict_word(r->claims[k].holds), holds, k_all, k_all - known);
    }
}

/* ---- the scale check: two sizes' stored results side by side ---- */

/* A claim's verdict in a stored report.txt (1, 0, -1 cannot check; -2 not
 * found): the line "[VERDICT] TEXT...". */
static int stored_verdict(const char *report, const char *text)
{
    static const char *const marks[] = {"[holds] ", "[does not hold] ", "[cannot check] "};
    static const int values[] = {1, 0, -1};
    for (const char *l = report; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL)
        for (unsigned k = 0; k < 3; k++) {
            size_t m = strlen(marks[k]), t = strlen(text);
            if (!strncmp(l, marks[k], m) && !strncmp(l + m, text, t) &&
                (l[m + t] == ':' || l[m + t] == '\n' || l[m + t] == ' ' || !l[m + t]))
                return values[k];
        }
    return -2;
}

/* A paper.csv row's effect ratio in a stored summary.csv (NaN: none). */
static double stored_effect(const char *summary, const struct rp_paper_row *p)
{
    char key[512];
    int n = snprintf(key, sizeof key, "%s,%s,%s,%s,%s,%s,", p->figure, p->set, p->app, p->metric,
                     p->baseline, p->design);
    for (const char *l = summary; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
        if (strncmp(l, key, (size_t)n))
            continue;
        /* after the key: paper,gpucoh,effect_ratio,direction */
        const char *f = l + n;
        for (unsigned k = 0; k < 2 && f; k++)
            f = strchr(f, ',') ? strchr(f, ',') + 1 : NULL;
        char *end;
        double v = f ? strtod(f, &end) : NAN;
        return f && end != f ? v : NAN;
    }
    return NAN;
}

/* "date, commit" from a stored provenance file. */
static void stored_provenance(const char *text, char *buf, size_t n)
{
    char date[64] = "?", commit[160] = "?";
    for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
        if (!strncmp(l, "date = ", 7))
            sscanf(l + 7, "%63[^\n]", date);
        if (!strncmp(l, "commit = ", 9))
            sscanf(l + 9, "%159[^\n]", commit);
    }
    snprintf(buf, n, "%s, commit %s", date, commit);
}

/* A size of the check that this run is at: its verdicts and effect ratios
 * are this run's, not those stored at that size before (which a --store
 * replaces only after the report is written): -1 when neither. */
static int scale_check_current(const struct repro *r)
{
    for (int k = 0; k < 2; k++)
        if (!strcmp(r->d.scale.sizes[k], r->size))
            return k;
    return -1;
}

static void scale_check(struct repro *r)
{
    const struct rp_scale_check *sc = &r->d.scale;
    if (!sc->line)
        return;
    FILE *o = r->o;
    int cur = scale_check_current(r);
    if (cur < 0)
        fprintf(o, "\n== Scale check: %s against %s (their stored results) ==\n", sc->sizes[0],
                sc->sizes[1]);
    else
        fprintf(o,
                "\n== Scale check: %s against %s (this run at %s, the stored results at %s) ==\n",
                sc->sizes[0], sc->sizes[1], sc->sizes[cur], sc->sizes[!cur]);
    char *report[2] = {NULL, NULL}, *summary[2] = {NULL, NULL}, *prov[2] = {NULL, NULL};
    bool have = true;
    for (int k = 0; k < 2; k++) {
        if (k == cur) {
            fprintf(o, "results/%s: this run\n", sc->sizes[k]);
            continue;
        }
        char path[4400];
        snprintf(path, sizeof path, "%s/results/%s/report.txt", r->d.dir, sc->sizes[k]);
        report[k] = file_read_text(path, NULL);
        snprintf(path, sizeof path, "%s/results/%s/summary.csv", r->d.dir, sc->sizes[k]);
        summary[k] = file_read_text(path, NULL);
        snprintf(path, sizeof path, "%s/results/%s/provenance", r->d.dir, sc->sizes[k]);
        prov[k] = file_read_text(path, NULL);
        if (!report[k] || !summary[k]) {
            fprintf(o, "no stored results at %s: run gpucoh repro %s --size %s --store\n",
                    sc->sizes[k], r->d.name, sc->sizes[k]);
            have = false;
        } else {
            char p[256];
            stored_provenance(prov[k] ? prov[k] : "", p, sizeof p);
            fprintf(o, "results/%s: %s\n", sc->sizes[k], p);
        }
    }
    if (have) {
        fprintf(o,
                "(a verdict is stable when it is the same at both sizes; an effect ratio when both "
                "have the same sign\n and are within a factor of %g of each other)\n",
                sc->factor);
        unsigned n_claims = 0, stable_claims = 0, n_effects = 0, stable_effects = 0;
        for (unsigned i = 0; i < r->d.n_claims; i++) {
            const struct rp_claim *c = &r->d.claims[i];
            int v[2];
            for (int k = 0; k < 2; k++)
                v[k] = k == cur ? r->claims[i].holds : stored_verdict(report[k], c->text);
            if (v[0] == -2 || v[1] == -2) {
                fprintf(o, "claim %s: not in the stored report at %s\n", c->id,
                        sc->sizes[v[0] == -2 ? 0 : 1]);
                continue;
            }
            bool stable = v[0] == v[1];
            n_claims++, stable_claims += stable;
            fprintf(o, "claim %s: [%s] at %s, [%s] at %s: %s\n", c->id, repro_verdict_word(v[0]),
                    sc->sizes[0], repro_verdict_word(v[1]), sc->sizes[1],
                    stable ? "stable" : "NOT stable");
        }
        for (int k = 0; k < 2; k++)
            if (k != cur && !strstr(summary[k], ",effect_ratio,"))
                fprintf(o, "results/%s has no effect ratios (stored before they were computed)\n",
                        sc->sizes[k]);
        for (unsigned i = 0; i < r->n_paper; i++) {
            const struct rp_paper_row *p = &r->paper[i];
            double e[2];
            for (int k = 0; k < 2; k++)
                e[k] = k == cur ? p->effect.ratio : stored_effect(summary[k], p);
            if (isnan(e[0]) || isnan(e[1]))
                continue; /* n/a at a size: no effect to compare */
            double lo = fmin(fabs(e[0]), fabs(e[1])), hi = fmax(fabs(e[0]), fabs(e[1]));
            bool stable = e[0] * e[1] > 0 && hi <= lo * sc->factor;
            n_effects++, stable_effects += stable;
            fprintf(o, "%s %s %s%s%s %s over %s: effect %.2f at %s, %.2f at %s: %s\n", p->figure,
                    p->set, p->app, p->app[0] ? " " : "", p->design, p->metric,
                    p->baseline[0] ? p->baseline : "-", e[0], sc->sizes[0], e[1], sc->sizes[1],
                    stable ? "stable" : "NOT stable");
        }
        fprintf(o, "%u of %u claims and %u of %u effect ratios stable between %s and %s\n",
                stable_claims, n_claims, stable_effects, n_effects, sc->sizes[0], sc->sizes[1]);
    }
    for (int k = 0; k < 2; k++)
        free(report[k]), free(summary[k]), free(prov[k]);
}

/* ---- files ---- */

/* Write a text made with open_memstream as out_dir/name, whole or not at
 * all, and free it. */
static int write_out(const struct repro *r, const char *name, char *text)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", r->out_dir, name);
    int rc = write_file_atomic(path, text);
    free(text);
    return rc;
}

static int summary(struct repro *r)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    fprintf(f, "set,protocol,speedup_%s,traffic_norm\n",
            r->d.mean == RP_GEOMETRIC ? "gmean" : "hm");
    for (unsigned s = 0; s < r->d.n_sets; s++) {
        const struct rp_set *set = &r->d.sets[s];
        if (!set->baseline[0])
            continue;
        for (unsigned k = 0; k < r->n_cfgs; k++) {
            double sp = repro_set_mean(r, RP_SPEEDUP, 0, set->name, set->baseline, r->cfgs[k], NULL,
                                       NULL, NULL);
            double tr = repro_set_mean(r, RP_TRAFFIC, 0, set->name, set->baseline, r->cfgs[k], NULL,
                                       NULL, NULL);
            fprintf(f, "%s,%s,", set->name, r->cfgs[k]);
            if (!isnan(sp))
                fprintf(f, "%.4f", sp);
            fputc(',', f);
            if (!isnan(tr))
                fprintf(f, "%.4f", tr);
            fputc('\n', f);
        }
    }
    /* every number of paper.csv: gpucoh's, its effect ratio and direction */
    fputs("\nfigure,set,app,metric,baseline,design,paper,gpucoh,effect_ratio,direction\n", f);
    for (unsigned i = 0; i < r->n_paper; i++) {
        const struct rp_paper_row *p = &r->paper[i];
        fprintf(f, "%s,%s,%s,%s,%s,%s,%g,", p->figure, p->set, p->app, p->metric, p->baseline,
                p->design, p->value);
        if (!isnan(p->ours))
            fprintf(f, "%.4f", p->ours);
        fputc(',', f);
        if (!isnan(p->effect.ratio))
            fprintf(f, "%.4f", p->effect.ratio);
        fprintf(f, ",%s\n", p->effect.direction < 0 ? "" : p->effect.direction ? "yes" : "no");
    }
    fclose(f);
    return write_out(r, "summary.csv", text);
}

/* The size a figure's numbers come from: its block's runs' (a frames block
 * says "frame"), for its plot title. */
static const char *figure_size(const struct repro *r, const struct rp_figure *f)
{
    const char *block = f->block[0] ? f->block : r->d.block;
    for (unsigned i = 0; i < r->spec.n_runs; i++)
        if (!strcmp(r->spec.runs[i].block, block))
            return r->spec.runs[i].size;
    return r->size;
}

static int figures_csv(struct repro *r)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    static const char *const kinds[] = {"bars", "stacked", "lines", "table"};
    fputs("figure,kind,title,ylabel,xlabel,ref\n", f);
    for (unsigned i = 0; i < r->d.n_figures; i++) {
        const struct rp_figure *x = &r->d.figures[i];
        if (x->kind == RP_TABLE)
            continue;
        char ylabel[256];
        static const char *const what[] = {"speedup", "traffic", "traffic", "", ""};
        if (x->ylabel[0])
            snprintf(ylabel, sizeof ylabel, "%s", x->ylabel);
        else if (x->metric == RP_VALUE)
            snprintf(ylabel, sizeof ylabel, "%s", x->stat_name);
        else if (x->metric == RP_RATIO)
            snprintf(ylabel, sizeof ylabel, "%s over %s", x->stat_name,
                     repro_paper_name(r, x->baseline));
        else
            snprintf(ylabel, sizeof ylabel, "%s over %s", what[x->metric],
                     repro_paper_name(r, x->baseline));
        csv_field(f, x->id);
        fputc(',', f);
        csv_field(f, kinds[x->kind]);
        fputc(',', f);
        char title[300]; /* every plot says the size its numbers come from */
        snprintf(title, sizeof title, "%s [size %s]", x->plot_title[0] ? x->plot_title : x->title,
                 figure_size(r, x));
        csv_field(f, title);
        fputc(',', f);
        csv_field(f, ylabel);
        fputc(',', f);
        csv_field(f, x->xlabel);
        fputc(',', f);
        fputs(x->metric == RP_VALUE ? "\n" : "1\n", f);
    }
    fclose(f);
    return write_out(r, "figures.csv", text);
}

/* Draw the plots: tools/plot_repro.py under Debian's python3 (or
 * $GPUCOH_PYTHON), which reads figures.csv and plot-data.csv. */
static int draw(struct repro *r)
{
    const char *root = getenv("GPUCOH_ROOT");
    const char *py = getenv("GPUCOH_PYTHON");
    char script[4200];
    snprintf(script, sizeof script, "%s/tools/plot_repro.py", root ? root : GPUCOH_SOURCE_DIR);
    if (!py)
        py = "/usr/bin/python3";
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (!pid) {
        execl(py, py, script, r->out_dir, (char *)NULL);
        fprintf(stderr,
                "gpucoh repro: cannot run %s: the plots need Debian's python3 and "
                "python3-matplotlib (make deps installs them)\n",
                py);
        _exit(2);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        ;
    return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

int repro_render(struct repro *r)
{
    size_t len = 0;
    r->o = open_memstream(&r->text, &len);
    char *plot_text = NULL;
    size_t plot_len = 0;
    r->plot = open_memstream(&plot_text, &plot_len);
    fputs("figure,group,series,stack,value,paper\n", r->plot);
    FILE *o = r->o;
    const struct sweep_counts *c = &r->counts;
    fprintf(o, "gpucoh repro %s: %s at size %s\n", r->d.name, r->d.title, r->size);
    fprintf(o, "%u runs (%u run now, %u from before, %u failed) in %s\n", c->total, c->ran,
            c->skipped, c->failed, r->out_dir);
    if (c->rerun) { /* only then: a fresh run's report stays comparable */
        char why[256];
        sweep_rerun_text(c, why, sizeof why);
        fprintf(o, "%u of those run now were stored but stale: %s\n", c->rerun, why);
    }
    fprintf(o, "configurations:");
    for (unsigned k = 0; k < r->n_cfgs; k++)
        fprintf(o, " %s = %s%s", r->cfgs[k], repro_paper_name(r, r->cfgs[k]),
                k + 1 < r->n_cfgs ? "," : "\n");
    if (r->spec.n_missing) {
        fprintf(o, "NOT RUN, protocol not built in this gpucoh (no number is given for them):\n");
        for (unsigned i = 0; i < r->spec.n_missing; i++)
            fprintf(o, "  %s (%s) needs protocol '%s' (%s:%u)\n", r->spec.missing[i].config,
                    repro_paper_name(r, r->spec.missing[i].config), r->spec.missing[i].protocol,
                    r->spec.path, r->spec.missing[i].line);
    } else {
        fprintf(o, "every configuration the paper names was run\n");
    }
    if (r->sweep_as_written)
        fprintf(o, "the sweep of size %s: %s, run as written (its blocks' sizes kept)\n", r->size,
                r->sweep_file);
    if (r->absent[0]) /* the other sizes' sweeps run more: unknown here, not guessed */
        fprintf(o, "not in %s, so not run at this size (their numbers are unknown here): %s\n",
                r->sweep_file, r->absent);
    unsigned n_failed = 0;
    for (unsigned i = 0; i < r->spec.n_runs; i++) {
        const struct sweep_result *x = &r->res[i];
        bool dup = false;
        for (unsigned k = 0; k < i && !dup; k++)
            dup = !strcmp(r->spec.runs[k].id, r->spec.runs[i].id);
        if (dup || (x->has_stats && x->check != SWEEP_CHECK_WRONG))
            continue;
        if (!n_failed++)
            fprintf(o, "runs that failed (their numbers are left out, or marked '!' if only the "
                       "output check failed):\n");
        fprintf(o, "  %s (%s %s): %s\n", r->spec.runs[i].id, r->spec.runs[i].workload,
                r->spec.runs[i].config,
                x->has_stats  ? "output check failed"
                : x->finished ? x->why
                              : "not run");
    }
    headlines(r);
    for (unsigned i = 0; i < r->d.n_figures; i++)
        figure(r, &r->d.figures[i]);
    if (r->d.hook[0])
        repro_hook_find(r->d.hook)->print(r);
    best_settings(r);
    claims(r);
    misses(r);
    calibrations(r);
    replicas(r);
    scale_check(r);
    fprintf(o, "\nfiles: %s/summary.csv, results.csv, report.txt, figures.csv, plot-data.csv,",
            r->out_dir);
    for (unsigned i = 0; i < r->d.n_figures; i++)
        if (r->d.figures[i].kind != RP_TABLE)
            fprintf(o, " %s.svg", r->d.figures[i].id);
    fprintf(o, " (and .png)\n");
    fclose(o);
    r->o = NULL;
    fclose(r->plot);
    r->plot = NULL;
    char path[4200];
    snprintf(path, sizeof path, "%s/report.txt", r->out_dir);
    int rc = write_file_atomic(path, r->text) || summary(r) || figures_csv(r);
    if (write_out(r, "plot-data.csv", plot_text) || rc)
        return 2;
    if (draw(r)) {
        fprintf(stderr,
                "gpucoh repro %s: the plots were not drawn (the report and the data "
                "behind them are in %s)\n",
                r->d.name, r->out_dir);
        return 2;
    }
    return 0;
}
