/*
 * repro_values.h - what the parts of the reproduction engine share
 * (repro.c computes, repro_text.c renders, repro_hooks.c diagnoses): names
 * checked against the sweep, and a design's ratio over a baseline for one
 * app or a set's mean of them.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef REPORT_REPRO_VALUES_H
#define REPORT_REPRO_VALUES_H

#include "report/repro.h"

unsigned repro_csv_split(char *line, char **f, unsigned n);
/* Call row() for each line of a CSV file after its header (blank lines and
 * # comments skipped) that has n_fields (at most 16) fields; a line with
 * another count is "path:line: expected N fields (header)". Returns 0, or
 * -1 with the first error in err. */
int repro_csv_rows(const char *path, unsigned n_fields, const char *header,
                   int (*row)(void *ctx, char **f, const char *path, unsigned line, char *err,
                              size_t errlen),
                   void *ctx, char *err, size_t errlen);
int repro_metric_of(
    const char *paper_metric); /* paper.csv's metric: RP_SPEEDUP, RP_TRAFFIC or -1 */

const struct rp_variant *repro_variant(const struct repro *r, const char *name); /* or NULL */
const struct rp_set *repro_set(const struct repro *r, const char *name);
int repro_app(const struct repro *r, const char *name); /* index or -1 */
bool repro_in_set(const struct repro *r, unsigned app, const char *set);
const char *repro_set_base(const struct repro *r, const char *set); /* "" if none */
const char *repro_claim_base(const struct repro *r, const char *set_or_app);
const struct rp_figure *repro_figure(const struct repro *r, const char *id);
const struct repro_hook *repro_hook_find(const char *name);
const struct cx_env *repro_claim_env(struct repro *r);

/* 0 if known, else -1 with the reason (no file:line) in err. */
int repro_check_design(const struct repro *r, const char *name, const char *what, char *err,
                       size_t errlen);
int repro_check_set(const struct repro *r, const char *name, char *err, size_t errlen);
int repro_check_app(const struct repro *r, const char *name, char *err, size_t errlen);

const struct sweep_result *repro_get_in(const struct repro *r, const char *app, const char *block,
                                        const char *cfg, const char *setting);
/* design over base for one app: cycles(base)/cycles(design), bytes(design)/
 * bytes(base), stat(design)/stat(base) or stat(design). NaN when a run is
 * missing; *wrong set when a run's output check failed. */
double repro_ratio_of(enum rp_metric m, int stat, const struct sweep_result *base,
                      const struct sweep_result *design);
double repro_ratio(const struct repro *r, enum rp_metric m, int stat, const char *app,
                   const char *base, const char *design, bool *wrong);
/* The set's mean (the paper's for speedup, arithmetic otherwise) over the
 * apps where both runs have statistics; *used and *total count apps. */
double repro_set_mean(const struct repro *r, enum rp_metric m, int stat, const char *set,
                      const char *base, const char *design, unsigned *used, unsigned *total,
                      bool *wrong);

/* The numbers papers state: a metric by name (NULL if unknown; value:STAT
 * gives the statistic's entry, its name checked by the caller), the names
 * known, and gpucoh's value of one for a set, or for one app when app is
 * not "" (NaN when no run of it has results; *used of *total apps had);
 * stat is the statistic of a value: metric (else ignored). */
const struct rp_paper_metric *repro_paper_metric(const char *name);
void repro_paper_metric_names(char *buf, size_t n);
double repro_paper_value(const struct repro *r, const struct rp_paper_metric *pm, int stat,
                         const char *set, const char *app, const char *base, const char *design,
                         unsigned *used, unsigned *total, bool *wrong);
/* What a metric's effect is measured from: 1 for a ratio over a baseline,
 * 0 for a statistic stated as it is (value:STAT). */
double repro_paper_neutral(const struct rp_paper_metric *pm);
const char *repro_mean_label(const struct repro *r, enum rp_metric m); /* HM, GM, mean */

/* A lines figure: its x values (labels: the text after the last ':') and
 * the x at which an app's line peaks (NaN unless every point ran). */
unsigned repro_x_values(const struct repro *r, const struct rp_figure *f, const char **values);
const char *repro_x_label(const char *value);
double repro_peak(const struct repro *r, const struct rp_figure *f, const char *app);
double repro_point(const struct repro *r, const struct rp_figure *f, const char *app,
                   const char *x_value, bool *wrong);
/* A lines figure by design: the set's mean of one design at x_value. */
double repro_line_mean(const struct repro *r, const struct rp_figure *f, const char *design,
                       const char *x_value, bool *wrong);
/* The x value ("fixed:800") whose label or value is `x`, or NULL. */
const char *repro_x_find(const struct repro *r, const struct rp_figure *f, const char *x);

/* The evidence for one of a reproduction's numbers (set, metric, baseline,
 * design: configuration names, as paper.csv names them) given its effect:
 * the [explain] entry of a paper.csv row stating that number with its
 * measured effect ("l1-bypass: 1.34 → 1.52"), else "unexplained" for a miss
 * (the wrong direction, or an effect ratio outside 0.5-2) and "—" for
 * anything else. */
void repro_evidence(struct repro *r, const char *set, const char *metric, const char *baseline,
                    const char *design, const struct effect *e, char *buf, size_t n);
/* A number of paper.csv, or a claim (1 holds, 0 not, -1 cannot check; its
 * values into detail), computed again in an ablation (repro.h), and the same
 * before it: the main block's, over the ablation block's apps where the
 * ablation is scoped (it runs fewer apps than the main block, without
 * rest = main), else as the report computed it. */
double repro_row_in(struct repro *r, const struct rp_paper_row *p, const struct rp_ablation *ab);
double repro_row_before(struct repro *r, const struct rp_paper_row *p,
                        const struct rp_ablation *ab);
int repro_claim_in(struct repro *r, unsigned claim, const struct rp_ablation *ab, char *detail,
                   size_t n);
int repro_claim_before(struct repro *r, unsigned claim, const struct rp_ablation *ab, char *detail,
                       size_t n);
/* Whether an ablation's block runs here and leaves out an app the main block
 * runs, and has no rest = main: its numbers are compared over its apps. */
bool repro_ablation_scoped(const struct repro *r, const struct rp_ablation *ab);
/* The apps a block runs at this size: their count, their names joined by
 * spaces into buf (may be NULL). */
unsigned repro_block_apps(const struct repro *r, const char *block, char *buf, size_t n);
int repro_claim_index(const struct repro *r, const char *id); /* or -1 */
/* The value a run sets KEY (its first n characters) to, its settings being
 * "key=value", or NULL. */
const char *repro_setting_of(const struct sweep_run *run, const char *key, size_t n);
/* A claim's verdict as the report prints it: holds, does not hold, cannot check. */
const char *repro_verdict_word(int holds);
/* An [explain]'s row (returned; NaN when a run is missing) or claim (*holds,
 * detail; its margin, cx_margin, returned) before its change (the main
 * block's, or its reference's) and after it (repro.h, struct rp_explain). */
double repro_explain_in(struct repro *r, const struct rp_explain *x, bool after, int *holds,
                        char *detail, size_t n);
/* Whether an [explain] explains its miss: measured at this size, it moves the
 * number at least a tenth of the way to the paper's (RP_TOWARD_SHARE of the
 * distance, the numbers as printed, two decimals), or the claim to hold or a
 * tenth of the way nearer to holding (its margin, cx_margin, and by
 * RP_TOWARD_MARGIN or more). An ablation that moves it less, away, or not at
 * all is listed but explains nothing. */
#define RP_TOWARD_SHARE  0.1
#define RP_TOWARD_MARGIN 0.005
bool repro_explain_toward(struct repro *r, const struct rp_explain *x);
/* Whether a block is run only by another size's sweep file: not at this size. */
bool repro_block_absent(const struct repro *r, const char *block);
/* Whether an [explain] is measured at this size: its ablation's block and its
 * reference's both run here (a measurement in another unit always is). One
 * that is not explains nothing at this size. */
bool repro_explain_run_here(const struct repro *r, const struct rp_explain *x);
/* Whether a design (a main-block configuration or a variant) is run only by
 * another size's sweep file. */
bool repro_design_absent(const struct repro *r, const char *design);
/* The size a reproduction's numbers come from: its main block's runs' (a
 * frames block has one, "frame"), else the size asked for. */
const char *repro_numbers_size(const struct repro *r);

/* Every statistic by index (0 .. repro_stat_count() - 1), written: the
 * claim lint fills counterfactual runs with them. */
int repro_stat_count(void);
void repro_stat_put(struct sweep_result *r, int stat, double v);

/* The claim lint (claim_lint.c): each claim evaluated on counterfactual
 * data. Returns how many claims it refuses, their reasons one per line
 * ("report.ini:LINE: claim 'X' cannot fail: ...") in err. */
unsigned repro_lint_claims(struct repro *r, char *err, size_t errlen);

#endif
