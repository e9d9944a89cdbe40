/*
 * repro.h - one engine for every reproduction (docs/repro.md).
 *
 * A reproduction is a folder of data, repro/<name>/: a sweep of runs
 * (docs/sweep.md), the paper's numbers (paper.csv) and report.ini, which
 * declares the paper's figures (metric, app set and baseline, designs,
 * chart kind) and claims (an expression over computed values, with the
 * sentence of the paper it tests). The engine loads the declaration,
 * checks every name in it against the sweep, runs the sweep, and renders
 * the text report (the paper's numbers beside gpucoh's, tables per figure,
 * each claim marked holds / does not hold / cannot check), summary.csv, the
 * plot data and, through tools/plot_repro.py, the plots. Nothing in the
 * engine knows any paper; a paper-specific diagnosis is a named hook.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef REPORT_REPRO_H
#define REPORT_REPRO_H

#include <stdbool.h>
#include <stdio.h>

#include "report/claim_expr.h"
#include "report/effect.h"
#include "sweep/sweep_result.h"

#define RP_MAX_SETS     8
#define RP_MAX_DESIGNS  32
#define RP_MAX_VARIANTS 32
#define RP_MAX_FIGURES  32
#define RP_MAX_CLAIMS   32
#define RP_MAX_PAPER    64
#define RP_MAX_APPS     64
#define RP_MAX_X        32
#define RP_MAX_PARTS    12
#define RP_MAX_EXPLAINS 96
#define RP_MAX_CALIBS   8
#define RP_MAX_REPLICAS 16
#define RP_NAME         64
#define RP_N_SIZES      4 /* tiny quick small paper: a sweep file may be named per size */
extern const char *const rp_size_names[RP_N_SIZES];

enum rp_kind { RP_BARS, RP_STACKED, RP_LINES, RP_TABLE };
/* speedup: cycles(baseline) / cycles(design), averaged per the paper's mean;
 * traffic: bytes(design) / bytes(baseline), arithmetic mean; traffic by
 * class: each class's bytes over the baseline's total; ratio:STAT and
 * value:STAT: a statistic of the run (repro_stat_names) over the
 * baseline's, or as it is (arithmetic means) */
enum rp_metric { RP_SPEEDUP, RP_TRAFFIC, RP_TRAFFIC_CLASS, RP_RATIO, RP_VALUE };
enum rp_mean { RP_HARMONIC, RP_GEOMETRIC };

struct rp_set {
    char name[RP_NAME], baseline[RP_NAME];
    unsigned line;
};

struct rp_design {
    char name[RP_NAME], paper[RP_NAME]; /* "rc", "NO-COH" */
    unsigned line;
};

/* A design at one setting of another sweep block: "lease:0" is block lease,
 * configuration tcw-fixed, tc.lease=fixed:0. With best = KEY instead of a
 * setting: per app, the run of the design in the block, over every value of
 * the block's axis KEY, with the fewest cycles (unknown unless every value
 * has run with statistics): a design at its best setting, as a paper that
 * runs each design at its best concurrency reports it. */
struct rp_variant {
    /* fallback: a main-block design for the apps the block does not run */
    char name[RP_NAME], block[RP_NAME], design[RP_NAME], setting[128], fallback[RP_NAME];
    char best[RP_NAME];
    unsigned line, best_line;
};

/* Figure keys whose lines are kept, for messages about their values. */
enum rp_fig_key {
    RP_FK_TITLE,
    RP_FK_KIND,
    RP_FK_METRIC,
    RP_FK_SET,
    RP_FK_BASELINE,
    RP_FK_DESIGNS,
    RP_FK_DESIGN,
    RP_FK_BLOCK,
    RP_FK_X,
    RP_FK_BESIDE,
    RP_FK_BESIDE_STAT,
    RP_FK_PARTS,
    RP_FK_BEST,
    RP_FK_N
};

struct rp_figure {
    char id[RP_NAME], title[256], plot_title[256], ylabel[128], xlabel[128];
    enum rp_kind kind;
    enum rp_metric metric;
    int stat;       /* ratio: / value: statistic index */
    double divisor; /* value:STAT/DIVISOR: tables and plots show the value divided (1e6: MB) */
    char stat_name[RP_NAME];
    char set[RP_NAME], baseline[RP_NAME];
    char designs[RP_MAX_DESIGNS][RP_NAME];
    unsigned n_designs;
    /* lines: one line per app of the set, design's metric at each value of
     * the setting x in block; beside: a design of the main block shown as
     * a column; beside_stat: a statistic of it shown as a column */
    char design[RP_NAME], block[RP_NAME], x[RP_NAME], beside[RP_NAME];
    /* lines with designs instead of design: one line per design, the set's
     * mean at each value, over the baseline at the same setting when the
     * block runs it (else the main block's) */
    bool by_design;
    /* stacked with metric ratio:STAT: each bar split into these statistics,
     * each over the baseline's STAT */
    char parts[RP_MAX_PARTS][RP_NAME];
    int part_stat[RP_MAX_PARTS];
    unsigned n_parts;
    int beside_stat;
    char beside_stat_label[RP_NAME];
    /* bars and table: a column naming, per app, the design of these with the
     * fewest cycles (the paper's Sbest: the best static design) */
    char best[RP_MAX_DESIGNS][RP_NAME], best_label[RP_NAME];
    unsigned n_best;
    char note[2048];
    unsigned line, key_line[RP_FK_N]; /* the section's line; each key's (0: not written) */
};

struct rp_claim {
    char id[RP_NAME], text[512], paper[1024], expr[1024];
    unsigned line, expr_line, band_line;
    /* band = LO HI (band_line set): the range an "about X" claim allows the
     * value of its first call; the lint checks the claim fails outside it */
    double band_lo, band_hi;
    struct cx_node *node;
};

/* An ablation: another sweep block (at one of its settings, KEY=V, when it
 * sweeps one) in which a number of the main block is computed again. Each
 * design of the main block is taken from that block where it runs there,
 * else from the main block (an ablation that changes one design's
 * modelling need not rerun its baseline). A variant is not run in an
 * ablation: a number that needs one is unknown there. */
struct rp_ablation {
    char block[RP_NAME], setting[128];
    char none[256]; /* a calibration's undo = none (REASON): nothing to run */
    unsigned line;  /* of block = (or undo =) */
    /* a replica (the main block on another input), or `rest = main`: an app
     * its block does not run is the main block's run there (a replica's
     * apps whose accesses do not depend on the input's values run the same
     * on every seed; an explain's or a calibration's block that changes only
     * its apps' input). Without it a block that runs fewer apps than the
     * main block is compared with the main block over its own apps. */
    bool rest_main;
};

/* [explain NAME]: the ablation that explains a miss, a claim or a row of
 * paper.csv (figure,set,app,metric,baseline,design), and what it changes. */
struct rp_explain {
    char name[RP_NAME], claim[RP_NAME], row[256], text[512];
    struct rp_ablation ab;
    /* reference = BLOCK [KEY=V] (ref.block set): the number before the
     * change is computed there instead of in the main block, the ablation
     * takes what its block does not run from there, and a set's number is
     * computed in both over the apps the ablation's block runs */
    struct rp_ablation ref;
    /* measure = METRIC instead of an ablation: the row's number computed
     * again from the main block's own runs by another metric (traffic in
     * flits where the paper may count flits): a choice of measurement, not
     * of model */
    char measure[32];
    const struct rp_paper_metric *measure_pm; /* resolved by repro_open */
    unsigned line, target_line, measure_line;
    int claim_index, row_index; /* resolved by repro_open; -1 none */
};

/* [calibration NAME]: a parameter or generator changed to fit, why, from
 * which source, whether after a first result was seen, the figures and
 * claims it affects, and the ablation that undoes it. */
struct rp_calibration {
    char name[RP_NAME], what[512], why[1024], source[512];
    int after_result; /* 1 yes, 0 no, -1 not said */
    char affects[RP_MAX_FIGURES + RP_MAX_CLAIMS][RP_NAME];
    unsigned n_affects;
    struct rp_ablation undo;
    char undo_text[512]; /* undo = as written, over its lines */
    unsigned line, affects_line;
};

/* [scale_check]: the stored results of two sizes (repro/<name>/results/
 * <size>/) compared claim by claim and number by number: a verdict is
 * stable when it is the same at both, an effect ratio when both have the
 * same sign and are within `factor` of each other. */
struct rp_scale_check {
    char sizes[2][16];
    double factor;
    unsigned line; /* 0: none declared */
};

struct rp_decl {
    char path[4096], dir[4096]; /* report.ini and its folder */
    char name[RP_NAME];         /* the folder's name: `gpucoh repro NAME` */
    char title[256], paper_key[RP_NAME], sweep[256], numbers[256], block[RP_NAME], hook[RP_NAME];
    /* sweep.SIZE = FILE: the sweep run at that size (as written: its sizes
     * lines are kept), in the order of the sizes; "" for the default */
    char sweep_for[RP_N_SIZES][256];
    unsigned sweep_for_line[RP_N_SIZES];
    char about[1024];
    enum rp_mean mean;
    bool built; /* built = no: listed as not built, never run */
    unsigned block_line, hook_line;
    struct rp_set sets[RP_MAX_SETS];
    unsigned n_sets;
    struct rp_design designs[RP_MAX_DESIGNS];
    unsigned n_designs;
    struct rp_variant variants[RP_MAX_VARIANTS];
    unsigned n_variants;
    struct rp_figure figures[RP_MAX_FIGURES];
    unsigned n_figures;
    struct rp_claim claims[RP_MAX_CLAIMS];
    unsigned n_claims;
    struct rp_explain explains[RP_MAX_EXPLAINS];
    unsigned n_explains;
    struct rp_calibration calibs[RP_MAX_CALIBS];
    unsigned n_calibs;
    struct rp_scale_check scale;
    /* replicas = BLOCK...: blocks that repeat the main block with another
     * input (a frames block's seed): each of the paper's numbers and each
     * claim is computed again in each, as in an ablation, and the report
     * gives the spread (mean, min, max) over the main block and these */
    struct rp_ablation replicas[RP_MAX_REPLICAS];
    unsigned n_replicas;
};

/* How a paper states a number (paper.csv's and headlines.csv's metric
 * column): a per-app ratio (speedup; traffic; cycles(design)/cycles(base)
 * for slowdown and runtime) and how the set's apps are summed up. */
enum rp_agg { RP_AGG_HM, RP_AGG_GM, RP_AGG_MEAN, RP_AGG_MAX };
struct rp_paper_metric {
    const char *name;      /* "speedup_hm" */
    enum rp_metric metric; /* RP_SPEEDUP, RP_TRAFFIC or RP_RATIO (of cycles, or ratio_of) */
    enum rp_agg agg;       /* over a set; one app's when the row names an app */
    const char *what;      /* "speedup", for the report */
    const char *ratio_of;  /* RP_RATIO: the statistic whose ratio it is; NULL: cycles */
};

/* A row of paper.csv with gpucoh's number beside it. */
struct rp_paper_row {
    char figure[32], set[RP_NAME], app[RP_NAME], metric[32], baseline[RP_NAME], design[RP_NAME];
    char note[256];
    double value;
    unsigned line;
    const struct rp_paper_metric *pm;
    int stat;             /* value:STAT[/DIVISOR]: the statistic (else -1) ... */
    double divisor;       /* ... and what it is divided by (1e6: bytes as MB) */
    double ours;          /* NaN: none */
    bool wrong;           /* from a run whose output check failed */
    char verdict[160];    /* "close (within 5%)", "not run: ...", ... */
    struct effect effect; /* how much of the paper's effect gpucoh shows */
};

struct rp_claim_result {
    int holds; /* 1, 0, -1 cannot check */
    char detail[1024];
};

/* A reproduction loaded, run and evaluated. */
struct repro {
    struct rp_decl d;
    struct sweep_spec spec;
    const char *sweep_file; /* the file of spec: d.sweep, or d.sweep_for[size] */
    bool sweep_as_written;  /* a per-size file: its sizes lines kept (no --size override) */
    /* the reproduction's other sweep files (other sizes'): the names a
     * declaration uses are checked against all of them; what only they run
     * is not run at this size, its values unknown (absent, for the report) */
    struct sweep_spec others[RP_N_SIZES];
    unsigned n_others;
    char absent[2048];        /* "main/getm-printed, metadata" */
    struct sweep_result *res; /* per spec run */
    const char *out_dir, *size;
    struct sweep_counts counts;
    const char *apps[RP_MAX_APPS]; /* the main block's workloads, in order */
    const char *app_set[RP_MAX_APPS];
    unsigned n_apps;
    const char *cfgs[RP_MAX_DESIGNS]; /* the main block's configurations, in order */
    unsigned n_cfgs;
    struct rp_paper_row paper[RP_MAX_PAPER];
    unsigned n_paper;
    struct rp_claim_result claims[RP_MAX_CLAIMS];
    /* while set, the main block's designs are looked up in this ablation's
     * block first (repro_get): a number computed again there */
    const struct rp_ablation *ablation;
    /* while set with ablation: an [explain]'s reference, where the ablation
     * takes what its block does not run; scope: the block whose apps a set's
     * mean is computed over (NULL: every app of the set) */
    const struct rp_ablation *reference;
    const char *scope;
    FILE *o;    /* the text report while it is written */
    FILE *plot; /* plot-data.csv while it is written */
    char *text; /* the text report */
};

/* The statistics a figure or claim may name (value:NAME, stat()): an
 * index, or -1; a run's value of one (NaN: the run has none). */
int repro_stat_find(const char *name);
double repro_stat(const struct sweep_result *r, int stat);
void repro_stat_names(char *buf, size_t n); /* "cycles thread_insts ... bytes_RCL" */

/* Read repro/<name>/report.ini and paper.csv. Returns 0, or -1 with
 * "file:line: what is wrong" in err. */
int repro_decl_load(struct rp_decl *d, const char *dir, char *err, size_t errlen);
void repro_decl_free(struct rp_decl *d);

/* Load the sweep at `size`, check every name of the declaration against it
 * and parse the claims. Returns 0 or -1 with "file:line: ..." in err. */
int repro_open(struct repro *r, const char *dir, const char *size, char *err, size_t errlen);

/* Run the sweep into out_dir (resumable). Returns 0, 130 interrupted, 2 the
 * folder could not be written. */
int repro_run(struct repro *r, const char *out_dir, const struct sweep_exec_opts *eo);

/* Run nothing: load the runs that have finished in out_dir (a Slurm job
 * array's tasks, `gpucoh repro NAME --collect`) and write its results.csv;
 * r->counts says how many are finished (skipped), failed and in all.
 * Returns 0, or 2 when results.csv cannot be written. */
int repro_collect(struct repro *r, const char *out_dir);

/* Compute everything and write out_dir/report.txt, summary.csv, plot-data.csv,
 * figures.csv and the plots; r->text keeps the report. Returns 0 or 2. */
int repro_render(struct repro *r);

/* After repro_render: for every miss, each sweep block not declared as its
 * [explain] that would explain it if declared (moves it a tenth of the way
 * to the paper), printed to o; `gpucoh repro NAME --candidates`. */
void repro_candidates(struct repro *r, FILE *o);

void repro_close(struct repro *r);

/* ---- for the engine's parts ---- */

/* The run of an app under a design of the main block or a variant; NULL
 * when it did not run or left no statistics. */
const struct sweep_result *repro_get(const struct repro *r, const char *app, const char *design);
/* Whether a design can have results (its protocol is built). */
bool repro_have(const struct repro *r, const char *design);
/* Whether sweep block `block` runs at this size (another size's sweep file
 * may be the only one that names it). */
bool repro_runs_block(const struct repro *r, const char *block);
/* A best = KEY variant's run for an app: the fewest cycles over the axis
 * (NULL unless every value ran with statistics). */
const struct sweep_run *repro_best_run(const struct repro *r, const struct rp_variant *v,
                                       const char *app);
const char *repro_paper_name(const struct repro *r, const char *design);

/* A named hook: a paper-specific diagnosis printed after the figures. */
struct repro_hook {
    const char *name, *what;
    void (*print)(struct repro *r);
};
extern const struct repro_hook repro_hooks[];

#endif
