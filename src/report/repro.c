/*
 * repro.c - a reproduction's values (repro.h): loading the sweep and the
 * paper's numbers, checking every name the declaration uses against them,
 * and the numbers themselves - a design's ratio over a baseline for one
 * app, and a set's mean of those, the way the paper averages.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/file.h"
#include "base/log.h"
#include "report/mean.h"
#include "report/repro.h"
#include "report/repro_store.h"
#include "report/repro_values.h"

/* ---- statistics by name ---- */

#define STAT_FIELDS(X)                                                                             \
    X(cycles)                                                                                      \
    X(thread_insts)                                                                                \
    X(warp_insts)                                                                                  \
    X(l1_hit_rate)                                                                                 \
    X(l2_hit_rate)                                                                                 \
    X(bytes_total)                                                                                 \
    X(flits_total)                                                                                 \
    X(lease_avg)                                                                                   \
    X(fence_wait)                                                                                  \
    X(lease_ups)                                                                                   \
    X(lease_down_writes)                                                                           \
    X(lease_down_evicts)                                                                           \
    X(epoch_changes)                                                                               \
    X(emu_bytes)                                                                                   \
    X(bsq_mean)                                                                                    \
    X(bsq_max)                                                                                     \
    X(bsq_wait)                                                                                    \
    X(blocked_frac)                                                                                \
    X(hold_frac)                                                                                   \
    X(transition_mean)                                                                             \
    X(kernels)                                                                                     \
    X(sc_hold_cycles)                                                                              \
    X(sc_hold_mean)                                                                                \
    X(sc_held_frac)                                                                                \
    X(sc_held_insts)                                                                               \
    X(sc_held_lanes)                                                                               \
    X(sc_hold_on_write)                                                                            \
    X(load_latency)                                                                                \
    X(store_latency)                                                                               \
    X(store_load_ratio)                                                                            \
    X(expired_loads)                                                                               \
    X(gpu_link_bytes)                                                                              \
    X(gpm_link_bytes)                                                                              \
    X(link_inv_bytes)                                                                              \
    X(lines_invalidated)                                                                           \
    X(dir_evictions)                                                                               \
    X(l1_writes)                                                                                   \
    X(invs_per_store)                                                                              \
    X(evict_lines_invalidated)                                                                     \
    X(invs_per_dir_evict)                                                                          \
    X(tx_commits)                                                                                  \
    X(tx_aborts)                                                                                   \
    X(tx_aborts_per_1k)                                                                            \
    X(tx_cycles)                                                                                   \
    X(tx_cycles_per_tx)                                                                            \
    X(tx_exec_cycles)                                                                              \
    X(tx_wait_cycles)                                                                              \
    X(vu_cycles_per_access)                                                                        \
    X(vu_stall_max)                                                                                \
    X(vu_stall_per_line)
#define STAT_NAME(f) #f,
#define STAT_OFF(f)  offsetof(struct sweep_result, f),
static const size_t stat_offsets[] = {STAT_FIELDS(STAT_OFF)};
static const char *const field_stat_names[] = {STAT_FIELDS(STAT_NAME)};
#define N_FIELD_STATS (int)(sizeof stat_offsets / sizeof stat_offsets[0])

#define N_FRAME_BASE (N_FIELD_STATS + TRAFFIC_N)
#define N_ABORT_BASE (N_FRAME_BASE + SFR_N_STATS)

/* The fields of struct sweep_result by name, then bytes_<class> for every
 * traffic class, then the split-frame model's statistics (frames runs), then
 * tx_abort_<cause> for every abort cause and tx_abort_bloom. */
int repro_stat_find(const char *name)
{
    for (int i = 0; i < N_FIELD_STATS; i++)
        if (!strcmp(name, field_stat_names[i]))
            return i;
    if (!strncmp(name, "bytes_", 6))
        for (int c = 0; c < TRAFFIC_N; c++)
            if (!strcmp(name + 6, traffic_class_names[c]))
                return N_FIELD_STATS + c;
    for (int k = 0; k < SFR_N_STATS; k++)
        if (!strcmp(name, sfr_stat_names[k]))
            return N_FRAME_BASE + k;
    if (!strcmp(name, "tx_abort_bloom"))
        return N_ABORT_BASE + SM_TX_ABORT_N;
    if (!strncmp(name, "tx_abort_", 9))
        for (int k = 0; k < SM_TX_ABORT_N; k++)
            if (!strcmp(name + 9, sm_tx_abort_names[k]))
                return N_ABORT_BASE + k;
    return -1;
}

double repro_stat(const struct sweep_result *r, int stat)
{
    if (stat >= N_ABORT_BASE)
        return stat == N_ABORT_BASE + SM_TX_ABORT_N ? r->tx_abort_bloom
                                                    : r->tx_abort[stat - N_ABORT_BASE];
    if (stat >= N_FRAME_BASE)
        return r->frame[stat - N_FRAME_BASE];
    if (stat >= N_FIELD_STATS)
        return r->bytes[stat - N_FIELD_STATS];
    double v = *(const double *)((const char *)r + stat_offsets[stat]);
    /* a lease_avg below zero means the protocol has no leases */
    return stat_offsets[stat] == offsetof(struct sweep_result, lease_avg) && v < 0 ? NAN : v;
}

int repro_stat_count(void)
{
    return N_ABORT_BASE + SM_TX_ABORT_N + 1;
}

void repro_stat_put(struct sweep_result *r, int stat, double v)
{
    if (stat >= N_ABORT_BASE) {
        if (stat == N_ABORT_BASE + SM_TX_ABORT_N)
            r->tx_abort_bloom = v;
        else
            r->tx_abort[stat - N_ABORT_BASE] = v;
    } else if (stat >= N_FRAME_BASE) {
        r->frame[stat - N_FRAME_BASE] = v;
    } else if (stat >= N_FIELD_STATS) {
        r->bytes[stat - N_FIELD_STATS] = v;
    } else {
        *(double *)((char *)r + stat_offsets[stat]) = v;
    }
}

void repro_stat_names(char *buf, size_t n)
{
    size_t k = 0;
    buf[0] = 0;
    for (int i = 0; i < N_FIELD_STATS + TRAFFIC_N && k < n; i++)
        k += (size_t)(i < N_FIELD_STATS ? snprintf(buf + k, n - k, "%s ", field_stat_names[i])
                                        : snprintf(buf + k, n - k, "bytes_%s ",
                                                   traffic_class_names[i - N_FIELD_STATS]));
    for (int i = 0; i < SFR_N_STATS && k < n; i++)
        k += (size_t)snprintf(buf + k, n - k, "%s ", sfr_stat_names[i]);
    for (int i = 0; i < SM_TX_ABORT_N && k < n; i++)
        k += (size_t)snprintf(buf + k, n - k, "tx_abort_%s ", sm_tx_abort_names[i]);
    if (k < n)
        k += (size_t)snprintf(buf + k, n - k, "tx_abort_bloom ");
    if (k && k < n)
        buf[k - 1] = 0;
}

/* ---- the paper's numbers ---- */

unsigned repro_csv_split(char *line, char **f, unsigned n)
{
    unsigned k = 0;
    char *p = line;
    while (k < n) {
        if (*p == '"') {
            char *w = ++p;
            f[k++] = w;
            for (; *p; p++) {
                if (*p == '"' && p[1] == '"')
                    *w++ = '"', p++;
                else if (*p == '"')
                    break;
                else
                    *w++ = *p;
            }
            if (*p == '"')
                p++;
            *w = 0;
            if (*p == ',')
                p++;
            else
                break;
        } else {
            f[k++] = p;
            char *c = strchr(p, ',');
            if (!c)
                break;
            *c = 0;
            p = c + 1;
        }
    }
    return k;
}

static int errf(char *err, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
    return -1;
}

int repro_csv_rows(const char *path, unsigned n_fields, const char *header,
                   int (*row)(void *ctx, char **f, const char *path, unsigned line, char *err,
                              size_t errlen),
                   void *ctx, char *err, size_t errlen)
{
    char *text = file_read_text(path, NULL);
    if (!text)
        return errf(err, errlen, "%s: cannot read", path);
    unsigned line = 0;
    int rc = 0;
    for (char *l = text, *next; l && !rc; l = next) {
        next = strchr(l, '\n');
        if (next)
            *next++ = 0;
        line++;
        if (line == 1 || !*l || *l == '#')
            continue;
        char *f[16];
        if (repro_csv_split(l, f, n_fields) != n_fields)
            rc = errf(err, errlen, "%s:%u: expected %u fields (%s)", path, line, n_fields, header);
        else
            rc = row(ctx, f, path, line, err, errlen);
    }
    free(text);
    return rc;
}

static int paper_row(void *ctx, char **f, const char *path, unsigned line, char *err, size_t errlen)
{
    struct repro *r = ctx;
    if (r->n_paper == RP_MAX_PAPER)
        return errf(err, errlen, "%s:%u: more than %d rows", path, line, RP_MAX_PAPER);
    struct rp_paper_row *p = &r->paper[r->n_paper++];
    snprintf(p->figure, sizeof p->figure, "%s", f[0]);
    snprintf(p->set, sizeof p->set, "%s", f[1]);
    snprintf(p->app, sizeof p->app, "%s", f[2]);
    snprintf(p->metric, sizeof p->metric, "%s", f[3]);
    snprintf(p->baseline, sizeof p->baseline, "%s", f[4]);
    snprintf(p->design, sizeof p->design, "%s", f[5]);
    snprintf(p->note, sizeof p->note, "%s", f[7]);
    p->line = line;
    char *end;
    p->value = strtod(f[6], &end);
    if (*end || end == f[6])
        return errf(err, errlen, "%s:%u: value '%s' is not a number", path, line, f[6]);
    p->pm = repro_paper_metric(p->metric);
    p->stat = -1;
    p->divisor = 1;
    if (p->pm && p->pm->metric == RP_VALUE) {
        char name[64];
        snprintf(name, sizeof name, "%s", p->metric + 6);
        char *slash = strchr(name, '/');
        if (slash) {
            *slash = 0;
            p->divisor = strtod(slash + 1, &end);
            if (*end || end == slash + 1 || !(p->divisor > 0))
                return errf(err, errlen, "%s:%u: metric '%s': expected value:STAT[/DIVISOR]", path,
                            line, p->metric);
        }
        p->stat = repro_stat_find(name);
        if (p->stat < 0) {
            char known[1024];
            repro_stat_names(known, sizeof known);
            return errf(err, errlen, "%s:%u: metric '%s': unknown statistic '%s' (known: %s)", path,
                        line, p->metric, name, known);
        }
    }
    if (!p->pm) {
        char known[1024];
        repro_paper_metric_names(known, sizeof known);
        return errf(err, errlen, "%s:%u: metric '%s': expected one of %s", path, line, p->metric,
                    known);
    }
    char why[512];
    if (p->stat >= 0 && p->baseline[0])
        return errf(err, errlen, "%s:%u: a value: metric has no baseline (leave it empty)", path,
                    line);
    if ((p->stat < 0 && repro_check_design(r, p->baseline, "baseline", why, sizeof why)) ||
        repro_check_design(r, p->design, "design", why, sizeof why) ||
        (p->app[0] ? repro_check_app(r, p->app, why, sizeof why)
                   : repro_check_set(r, p->set, why, sizeof why)))
        return errf(err, errlen, "%s:%u: %s", path, line, why);
    return 0;
}

/* ---- names ---- */

const struct rp_variant *repro_variant(const struct repro *r, const char *name)
{
    for (unsigned i = 0; i < r->d.n_variants; i++)
        if (!strcmp(r->d.variants[i].name, name))
            return &r->d.variants[i];
    return NULL;
}

const struct rp_set *repro_set(const struct repro *r, const char *name)
{
    for (unsigned i = 0; i < r->d.n_sets; i++)
        if (!strcmp(r->d.sets[i].name, name))
            return &r->d.sets[i];
    return NULL;
}

int repro_app(const struct repro *r, const char *name)
{
    for (unsigned a = 0; a < r->n_apps; a++)
        if (!strcmp(r->apps[a], name))
            return (int)a;
    return -1;
}

static bool spec_has(const struct sweep_spec *s, const char *block, const char *cfg, bool *built)
{
    for (unsigned i = 0; i < s->n_runs; i++)
        if (!strcmp(s->runs[i].block, block) && (!cfg || !strcmp(s->runs[i].config, cfg))) {
            *built = true;
            return true;
        }
    for (unsigned i = 0; i < s->n_missing; i++)
        if (!strcmp(s->missing[i].block, block) && (!cfg || !strcmp(s->missing[i].config, cfg))) {
            *built = false;
            return true;
        }
    return false;
}

/* A configuration the sweep names in a block (any configuration: cfg NULL):
 * run, or not built. One that only another size's sweep file names is known
 * and not run here (*built false). */
static bool block_has(const struct repro *r, const char *block, const char *cfg, bool *built)
{
    if (spec_has(&r->spec, block, cfg, built))
        return true;
    for (unsigned k = 0; k < r->n_others; k++)
        if (spec_has(&r->others[k], block, cfg, built)) {
            *built = false;
            return true;
        }
    return false;
}

bool repro_runs_block(const struct repro *r, const char *block)
{
    bool built = false;
    return spec_has(&r->spec, block, NULL, &built) && built;
}

/* A variant that is one setting of a block (getm-c8: the concurrency block's
 * getm at getm.tx_warps=8), in an ablation against that block at that setting
 * (its reference; before the change, the reference is the ablation), is the
 * configuration the ablation changes: its design, taken as a design of the
 * ablation. NULL for any other variant or outside such an ablation. */
static const char *variant_as_reference(const struct repro *r, const struct rp_variant *v)
{
    const struct rp_ablation *ref = r->reference ? r->reference : r->ablation;
    if (!v || !ref || v->best[0] || !v->setting[0] || strcmp(v->block, ref->block) ||
        strcmp(v->setting, ref->setting))
        return NULL;
    return v->design;
}

bool repro_have(const struct repro *r, const char *design)
{
    bool built = false;
    const struct rp_variant *v = repro_variant(r, design);
    const char *as_ref = variant_as_reference(r, v);
    if (as_ref)
        design = as_ref, v = NULL;
    if (v) /* not run in an ablation: no number from it there */
        return !r->ablation && block_has(r, v->block, v->design, &built) && built;
    if (r->ablation && block_has(r, r->ablation->block, design, &built))
        return built;
    if (r->ablation && r->reference && block_has(r, r->reference->block, design, &built))
        return built;
    return block_has(r, r->d.block, design, &built) && built;
}

const char *repro_paper_name(const struct repro *r, const char *design)
{
    for (unsigned i = 0; i < r->d.n_designs; i++)
        if (!strcmp(r->d.designs[i].name, design))
            return r->d.designs[i].paper;
    return design;
}

int repro_check_design(const struct repro *r, const char *name, const char *what, char *err,
                       size_t errlen)
{
    bool built;
    if (repro_variant(r, name) || block_has(r, r->d.block, name, &built))
        return 0;
    return errf(err, errlen,
                "%s '%s': unknown design (not a configuration of sweep block '%s' "
                "in %s, nor a [variant])",
                what, name, r->d.block, r->d.sweep);
}

int repro_check_set(const struct repro *r, const char *name, char *err, size_t errlen)
{
    if (!strcmp(name, "all") || repro_set(r, name))
        return 0;
    return errf(err, errlen, "set '%s': unknown set (declare [set %s], or use all)", name, name);
}

int repro_check_app(const struct repro *r, const char *name, char *err, size_t errlen)
{
    if (repro_app(r, name) >= 0)
        return 0;
    return errf(err, errlen, "app '%s': not a workload of sweep block '%s'", name, r->d.block);
}

bool repro_in_set(const struct repro *r, unsigned a, const char *set)
{
    return !strcmp(set, "all") || !strcmp(r->app_set[a], set);
}

const char *repro_set_base(const struct repro *r, const char *set)
{
    const struct rp_set *s = repro_set(r, set);
    return s ? s->baseline : "";
}

/* ---- values ---- */

const struct sweep_result *repro_get_in(const struct repro *r, const char *app, const char *block,
                                        const char *cfg, const char *setting)
{
    const struct sweep_run *run = sweep_find(&r->spec, block, app, cfg, setting);
    if (!run)
        return NULL;
    const struct sweep_result *res = &r->res[run - r->spec.runs];
    return res->has_stats && res->cycles > 0 ? res : NULL;
}

/* The value of a run's setting KEY, its first n characters ("8" of getm.tx_warps=8), or NULL. */
const char *repro_setting_of(const struct sweep_run *run, const char *key, size_t n)
{
    for (unsigned k = 0; k < run->n_settings; k++)
        if (!strncmp(run->settings[k], key, n) && run->settings[k][n] == '=')
            return run->settings[k] + n + 1;
    return NULL;
}

const struct sweep_run *repro_best_run(const struct repro *r, const struct rp_variant *v,
                                       const char *app)
{
    const struct sweep_run *best = NULL;
    double best_cycles = 0;
    for (unsigned i = 0; i < r->spec.n_runs; i++) {
        const struct sweep_run *run = &r->spec.runs[i];
        if (strcmp(run->block, v->block) || strcmp(run->workload, app) ||
            strcmp(run->config, v->design) || !repro_setting_of(run, v->best, strlen(v->best)))
            continue;
        const struct sweep_result *res = r->res ? &r->res[i] : NULL;
        if (!res || !res->has_stats || !(res->cycles > 0))
            return NULL;                        /* a value of the axis has not run: no best yet */
        if (!best || res->cycles < best_cycles) /* ties: the first value in the block's order */
            best = run, best_cycles = res->cycles;
    }
    return best;
}

static bool block_runs_app(const struct repro *r, const char *block, const char *app)
{
    for (unsigned i = 0; i < r->spec.n_runs; i++)
        if (!strcmp(r->spec.runs[i].block, block) && !strcmp(r->spec.runs[i].workload, app))
            return true;
    return false;
}

/* Whether the app is one the scope block (an ablation's, set while an
 * ablation that runs fewer apps than the main block is computed) runs. */
static bool in_scope(const struct repro *r, const char *app)
{
    return !r->scope || block_runs_app(r, r->scope, app);
}

unsigned repro_block_apps(const struct repro *r, const char *block, char *buf, size_t n)
{
    unsigned count = 0;
    size_t k = 0;
    if (buf && n)
        buf[0] = 0;
    for (unsigned i = 0; i < r->spec.n_runs; i++) {
        const struct sweep_run *run = &r->spec.runs[i];
        bool seen = strcmp(run->block, block) != 0;
        for (unsigned j = 0; j < i && !seen; j++)
            seen = !strcmp(r->spec.runs[j].block, block) &&
                   !strcmp(r->spec.runs[j].workload, run->workload);
        if (seen)
            continue;
        count++;
        if (buf && k < n)
            k += (size_t)snprintf(buf + k, n - k, "%s%s", k ? " " : "", run->workload);
    }
    return count;
}

bool repro_ablation_scoped(const struct repro *r, const struct rp_ablation *ab)
{
    if (ab->rest_main || ab->none[0] || !repro_runs_block(r, ab->block))
        return false;
    for (unsigned i = 0; i < r->spec.n_runs; i++)
        if (!strcmp(r->spec.runs[i].block, r->d.block) &&
            !block_runs_app(r, ab->block, r->spec.runs[i].workload))
            return true;
    return false;
}

const struct sweep_result *repro_get(const struct repro *r, const char *app, const char *design)
{
    const struct rp_variant *v = repro_variant(r, design);
    bool built;
    if (!in_scope(r, app))
        return NULL;
    const char *as_ref = variant_as_reference(r, v);
    if (as_ref)
        design = as_ref, v = NULL;
    if (!v && r->ablation && block_has(r, r->ablation->block, design, &built)) {
        const char *setting = r->ablation->setting[0] ? r->ablation->setting : NULL;
        if (r->ablation->rest_main && repro_runs_block(r, r->ablation->block) &&
            !sweep_find(&r->spec, r->ablation->block, app, design, setting))
            return repro_get_in(r, app, r->d.block, design, NULL);
        return repro_get_in(r, app, r->ablation->block, design, setting);
    }
    if (!v && r->ablation && r->reference && block_has(r, r->reference->block, design, &built))
        return repro_get_in(r, app, r->reference->block, design,
                            r->reference->setting[0] ? r->reference->setting : NULL);
    if (!v)
        return repro_get_in(r, app, r->d.block, design, NULL);
    if (r->ablation)
        return NULL; /* a variant is not run in an ablation */
    if (v->best[0]) {
        const struct sweep_run *run = repro_best_run(r, v, app);
        return run ? &r->res[run - r->spec.runs] : NULL;
    }
    const char *setting = v->setting[0] ? v->setting : NULL;
    if (v->fallback[0] && !sweep_find(&r->spec, v->block, app, v->design, setting))
        return repro_get_in(r, app, r->d.block, v->fallback, NULL);
    return repro_get_in(r, app, v->block, v->design, setting);
}

double repro_ratio_of(enum rp_metric m, int stat, const struct sweep_result *b,
                      const struct sweep_result *d)
{
    switch (m) {
    case RP_SPEEDUP:
        return b->cycles / d->cycles;
    case RP_TRAFFIC:
    case RP_TRAFFIC_CLASS:
        return b->bytes_total > 0 ? d->bytes_total / b->bytes_total : NAN;
    case RP_RATIO: {
        double x = repro_stat(b, stat);
        return x != 0 ? repro_stat(d, stat) / x : NAN;
    }
    case RP_VALUE:
        return repro_stat(d, stat);
    }
    return NAN;
}

double repro_ratio(const struct repro *r, enum rp_metric m, int stat, const char *app,
                   const char *base, const char *design, bool *wrong)
{
    const struct sweep_result *b = m == RP_VALUE ? NULL : repro_get(r, app, base);
    const struct sweep_result *d = repro_get(r, app, design);
    if ((!b && m != RP_VALUE) || !d)
        return NAN;
    if (wrong)
        *wrong |= (b && b->check == SWEEP_CHECK_WRONG) || d->check == SWEEP_CHECK_WRONG;
    return repro_ratio_of(m, stat, b ? b : d, d);
}

const char *repro_mean_label(const struct repro *r, enum rp_metric m)
{
    if (m != RP_SPEEDUP)
        return "mean";
    return r->d.mean == RP_GEOMETRIC ? "GM" : "HM";
}

/* The design's values over the set's apps where both runs have statistics,
 * into v; returns how many, *total the set's apps. */
static unsigned set_values(const struct repro *r, enum rp_metric m, int stat, const char *set,
                           const char *base, const char *design, double *v, unsigned *total,
                           bool *wrong)
{
    unsigned n = 0, t = 0;
    for (unsigned a = 0; a < r->n_apps; a++) {
        if (!repro_in_set(r, a, set))
            continue;
        t++;
        double x = repro_ratio(r, m, stat, r->apps[a], base, design, wrong);
        if (!isnan(x))
            v[n++] = x;
    }
    *total = t;
    return n;
}

double repro_set_mean(const struct repro *r, enum rp_metric m, int stat, const char *set,
                      const char *base, const char *design, unsigned *used, unsigned *total,
                      bool *wrong)
{
    double v[RP_MAX_APPS];
    unsigned t, n = set_values(r, m, stat, set, base, design, v, &t, wrong);
    if (used)
        *used = n;
    if (total)
        *total = t;
    if (m != RP_SPEEDUP)
        return mean_arith(v, n);
    return r->d.mean == RP_GEOMETRIC ? mean_geometric(v, n) : mean_harmonic(v, n);
}

/* ---- the numbers papers state ---- */

/* slowdown and runtime: cycles(design) / cycles(baseline) */
static const struct rp_paper_metric paper_metrics[] = {
    {"speedup_hm", RP_SPEEDUP, RP_AGG_HM, "speedup"},
    {"speedup_gmean", RP_SPEEDUP, RP_AGG_GM, "speedup"},
    {"speedup_max", RP_SPEEDUP, RP_AGG_MAX, "speedup"},
    {"speedup", RP_SPEEDUP, RP_AGG_MAX, "speedup"},
    {"traffic_norm", RP_TRAFFIC, RP_AGG_MEAN, "traffic"},
    /* the same traffic counted in flits (a Garnet network counts flits) */
    {"traffic_flits_norm", RP_RATIO, RP_AGG_MEAN, "traffic in flits", "flits_total"},
    {"slowdown_max", RP_RATIO, RP_AGG_MAX, "slowdown"},
    {"slowdown_mean", RP_RATIO, RP_AGG_MEAN, "slowdown"},
    {"slowdown_gmean", RP_RATIO, RP_AGG_GM, "slowdown"},
    {"runtime_norm", RP_RATIO, RP_AGG_MEAN, "runtime"},
    {"time_norm", RP_RATIO, RP_AGG_MEAN, "time"},
    {"value:", RP_VALUE, RP_AGG_MEAN, "value"}, /* value:STAT[/DIVISOR]: the statistic itself */
};
#define N_PAPER_METRICS (sizeof paper_metrics / sizeof paper_metrics[0])

const struct rp_paper_metric *repro_paper_metric(const char *name)
{
    for (unsigned i = 0; i < N_PAPER_METRICS; i++)
        if (paper_metrics[i].metric == RP_VALUE ? !strncmp(name, "value:", 6)
                                                : !strcmp(paper_metrics[i].name, name))
            return &paper_metrics[i];
    return NULL;
}

double repro_paper_neutral(const struct rp_paper_metric *pm)
{
    return pm->metric == RP_VALUE ? 0 : 1;
}

void repro_paper_metric_names(char *buf, size_t n)
{
    size_t k = 0;
    buf[0] = 0;
    for (unsigned i = 0; i < N_PAPER_METRICS && k < n; i++)
        k += (size_t)snprintf(buf + k, n - k, "%s%s%s", i ? ", " : "", paper_metrics[i].name,
                              paper_metrics[i].metric == RP_VALUE ? "STAT[/DIVISOR]" : "");
}

double repro_paper_value(const struct repro *r, const struct rp_paper_metric *pm, int stat,
                         const char *set, const char *app, const char *base, const char *design,
                         unsigned *used, unsigned *total, bool *wrong)
{
    int cycles =
        pm->metric == RP_VALUE ? stat : repro_stat_find(pm->ratio_of ? pm->ratio_of : "cycles");
    *used = *total = 1;
    if (app[0])
        return repro_ratio(r, pm->metric, cycles, app, base, design, wrong);
    double v[RP_MAX_APPS], best = NAN;
    *used = set_values(r, pm->metric, cycles, set, base, design, v, total, wrong);
    unsigned n = *used;
    for (unsigned i = 0; i < n; i++)
        best = isnan(best) || v[i] > best ? v[i] : best;
    switch (pm->agg) {
    case RP_AGG_HM:
        return mean_harmonic(v, n);
    case RP_AGG_GM:
        return mean_geometric(v, n);
    case RP_AGG_MEAN:
        return mean_arith(v, n);
    case RP_AGG_MAX:
        break;
    }
    return best; /* "up to": the set's largest app's */
}

/* A number of paper.csv in the current ablation and scope: NaN when a run
 * it needs is missing. */
static double row_value(struct repro *r, const struct rp_paper_row *p)
{
    unsigned used, total;
    if ((!p->baseline[0] || repro_have(r, p->baseline)) && repro_have(r, p->design))
        return repro_paper_value(r, p->pm, p->stat, p->set, p->app, p->baseline, p->design, &used,
                                 &total, NULL) /
               p->divisor;
    return NAN;
}

/* A claim's verdict in the current state, its values into detail and, where
 * margin is not NULL, how far it is from holding (cx_margin). */
static int claim_value_in(struct repro *r, unsigned claim, char *detail, size_t n, double *margin)
{
    const struct rp_claim *c = &r->d.claims[claim];
    double v = cx_eval(c->node, repro_claim_env(r), detail, n);
    if (margin)
        *margin = cx_margin(c->node, repro_claim_env(r));
    return isnan(v) ? -1 : v != 0;
}

/* Evaluate in the ablation `ab` (after) or in the main block (before), over
 * the ablation block's apps where it is scoped; eval_leave restores what
 * eval_enter returns. */
struct eval_state {
    const struct rp_ablation *ablation;
    const char *scope;
};
static struct eval_state eval_enter(struct repro *r, const struct rp_ablation *ab, bool after)
{
    struct eval_state was = {r->ablation, r->scope};
    r->ablation = after ? ab : NULL;
    r->scope = repro_ablation_scoped(r, ab) ? ab->block : NULL;
    return was;
}
static void eval_leave(struct repro *r, struct eval_state was)
{
    r->ablation = was.ablation, r->scope = was.scope;
}

double repro_row_in(struct repro *r, const struct rp_paper_row *p, const struct rp_ablation *ab)
{
    struct eval_state was = eval_enter(r, ab, true);
    double v = row_value(r, p);
    eval_leave(r, was);
    return v;
}

double repro_row_before(struct repro *r, const struct rp_paper_row *p, const struct rp_ablation *ab)
{
    if (!repro_ablation_scoped(r, ab))
        return p->ours;
    struct eval_state was = eval_enter(r, ab, false);
    double v = row_value(r, p);
    eval_leave(r, was);
    return v;
}

int repro_claim_in(struct repro *r, unsigned claim, const struct rp_ablation *ab, char *detail,
                   size_t n)
{
    struct eval_state was = eval_enter(r, ab, true);
    int holds = claim_value_in(r, claim, detail, n, NULL);
    eval_leave(r, was);
    return holds;
}

int repro_claim_before(struct repro *r, unsigned claim, const struct rp_ablation *ab, char *detail,
                       size_t n)
{
    if (!repro_ablation_scoped(r, ab)) {
        snprintf(detail, n, "%s", r->claims[claim].detail);
        return r->claims[claim].holds;
    }
    struct eval_state was = eval_enter(r, ab, false);
    int holds = claim_value_in(r, claim, detail, n, NULL);
    eval_leave(r, was);
    return holds;
}

/* An [explain]'s number (its row) or claim before the change (after =
 * false: the main block's, or its reference's over the ablation block's
 * apps) and after it (in the ablation; with a reference, what the ablation's
 * block does not run is taken from it, over the same apps; with a measure,
 * in the main block by the measure's metric). A row's value is
 * returned (NaN: a run it needs is missing); a claim's verdict goes to
 * *holds (1, 0, -1) with its values in detail, and its margin (cx_margin:
 * how far it is from holding) is returned. */
double repro_explain_in(struct repro *r, const struct rp_explain *x, bool after, int *holds,
                        char *detail, size_t n)
{
    const struct rp_ablation *was = r->ablation, *was_ref = r->reference;
    const char *was_scope = r->scope;
    bool ref = x->ref.block[0] != 0;
    if (!ref && !x->measure_pm) { /* against the main block */
        if (x->row_index >= 0)
            return after ? repro_row_in(r, &r->paper[x->row_index], &x->ab)
                         : repro_row_before(r, &r->paper[x->row_index], &x->ab);
        struct eval_state was_state = eval_enter(r, &x->ab, after);
        double margin;
        *holds = claim_value_in(r, (unsigned)x->claim_index, detail, n, &margin);
        eval_leave(r, was_state);
        return margin;
    }
    double v = NAN;
    if (!after && !ref) /* a measure: the main block's number, as the report computed it */
        return r->paper[x->row_index].ours;
    r->ablation = x->measure_pm ? NULL : after ? &x->ab : &x->ref;
    r->reference = after && ref ? &x->ref : NULL;
    r->scope = ref ? x->ab.block : NULL;
    if (x->row_index >= 0) {
        const struct rp_paper_row *p = &r->paper[x->row_index];
        const struct rp_paper_metric *pm = x->measure_pm ? x->measure_pm : p->pm;
        unsigned used, total;
        if ((!p->baseline[0] || repro_have(r, p->baseline)) && repro_have(r, p->design))
            v = repro_paper_value(r, pm, p->stat, p->set, p->app, p->baseline, p->design, &used,
                                  &total, NULL) /
                p->divisor;
    } else {
        *holds = claim_value_in(r, (unsigned)x->claim_index, detail, n, &v);
    }
    r->ablation = was;
    r->reference = was_ref;
    r->scope = was_scope;
    return v;
}

/* A number as the report prints it (two decimals). */
static double printed(double v)
{
    return rint(v * 100) / 100;
}

bool repro_explain_toward(struct repro *r, const struct rp_explain *x)
{
    if (!repro_explain_run_here(r, x))
        return false;
    int was_holds, holds;
    char detail[8];
    double before = repro_explain_in(r, x, false, &was_holds, detail, sizeof detail);
    double after = repro_explain_in(r, x, true, &holds, detail, sizeof detail);
    if (x->row_index < 0 && holds == 1 && was_holds == 0)
        return true; /* a claim that comes to hold, whatever its margin */
    if (isnan(before) || isnan(after))
        return false;
    if (x->row_index >= 0) { /* a tenth of the way to the paper's number, as printed */
        double paper = r->paper[x->row_index].value;
        double was = fabs(printed(before) - paper), now = fabs(printed(after) - paper);
        return now < was - 1e-9 && now <= (1 - RP_TOWARD_SHARE) * was + 1e-9;
    }
    /* a claim a tenth of the way nearer to holding (its margin, and by
     * RP_TOWARD_MARGIN at least) */
    double gain = after - before;
    return gain >= RP_TOWARD_MARGIN && gain >= RP_TOWARD_SHARE * fabs(before) - 1e-12;
}

/* "fig7a,inter,,speedup_hm,nol1,tcw": a row of paper.csv by its columns. */
static void row_key(const struct rp_paper_row *p, char *buf, size_t n)
{
    snprintf(buf, n, "%s,%s,%s,%s,%s,%s", p->figure, p->set, p->app, p->metric, p->baseline,
             p->design);
}

void repro_evidence(struct repro *r, const char *set, const char *metric, const char *baseline,
                    const char *design, const struct effect *e, char *buf, size_t n)
{
    /* an explain of a paper.csv row stating the same number (any figure) */
    for (unsigned i = 0; i < r->d.n_explains; i++) {
        const struct rp_explain *x = &r->d.explains[i];
        if (x->row_index < 0)
            continue;
        const struct rp_paper_row *p = &r->paper[x->row_index];
        if (p->app[0] || strcmp(p->set, set) || strcmp(p->metric, metric) ||
            strcmp(p->baseline, baseline) || strcmp(p->design, design))
            continue;
        int holds;
        char detail[8];
        double in = repro_explain_in(r, x, true, &holds, detail, sizeof detail);
        unsigned used, total;
        double ours = x->ref.block[0]
                          ? repro_explain_in(r, x, false, &holds, detail, sizeof detail)
                          : repro_paper_value(r, p->pm, p->stat, p->set, p->app, p->baseline,
                                              p->design, &used, &total, NULL) /
                                p->divisor;
        if (!repro_explain_toward(r, x))
            continue; /* not run at this size, or too little toward the paper */
        if (isnan(in))
            snprintf(buf, n, "%s: not measured", x->name);
        else
            snprintf(buf, n, "%s: %.2f \u2192 %.2f", x->name, ours, in);
        return;
    }
    snprintf(buf, n, "%s", effect_miss(e) ? "unexplained" : "\u2014");
}

const char *repro_numbers_size(const struct repro *r)
{
    for (unsigned i = 0; i < r->spec.n_runs; i++)
        if (!strcmp(r->spec.runs[i].block, r->d.block))
            return r->spec.runs[i].size;
    return r->size;
}

/* ---- opening ---- */

static void collect(struct repro *r)
{
    for (unsigned i = 0; i < r->spec.n_runs; i++) {
        const struct sweep_run *run = &r->spec.runs[i];
        if (strcmp(run->block, r->d.block))
            continue;
        if (repro_app(r, run->workload) < 0 && r->n_apps < RP_MAX_APPS) {
            r->app_set[r->n_apps] = run->set;
            r->apps[r->n_apps++] = run->workload;
        }
        bool seen = false;
        for (unsigned k = 0; k < r->n_cfgs && !seen; k++)
            seen = !strcmp(r->cfgs[k], run->config);
        if (!seen && r->n_cfgs < RP_MAX_DESIGNS)
            r->cfgs[r->n_cfgs++] = run->config;
    }
}

/* A setting key ("tc.lease") some run of the block sets. */
static bool block_sets(const struct repro *r, const char *block, const char *cfg, const char *key)
{
    size_t n = strlen(key);
    for (unsigned i = 0; i < r->spec.n_runs; i++) {
        const struct sweep_run *run = &r->spec.runs[i];
        if (strcmp(run->block, block) || strcmp(run->config, cfg))
            continue;
        for (unsigned k = 0; k < run->n_settings; k++)
            if (!strncmp(run->settings[k], key, n) && run->settings[k][n] == '=')
                return true;
    }
    return false;
}

#define AT(line, ...)                                                                              \
    do {                                                                                           \
        char why_[768];                                                                            \
        snprintf(why_, sizeof why_, __VA_ARGS__);                                                  \
        return errf(err, errlen, "%s:%u: %s", d->path, (line), why_);                              \
    } while (0)

static int check_figure(struct repro *r, const struct rp_figure *f, char *err, size_t errlen)
{
    const struct rp_decl *d = &r->d;
    char why[512];
#define FL(k) (f->key_line[k] ? f->key_line[k] : f->line)
    if (!f->title[0])
        AT(f->line, "[figure %s] has no title", f->id);
    if (!f->set[0])
        AT(f->line, "[figure %s] names no set (set = NAME, or all)", f->id);
    if (repro_check_set(r, f->set, why, sizeof why))
        AT(FL(RP_FK_SET), "[figure %s]: %s", f->id, why);
    if (!f->baseline[0] && f->metric != RP_VALUE)
        AT(FL(RP_FK_BASELINE), "[figure %s]: no baseline (set %s declares none)", f->id, f->set);
    if (f->baseline[0] && repro_check_design(r, f->baseline, "baseline", why, sizeof why))
        AT(FL(RP_FK_BASELINE), "[figure %s]: %s", f->id, why);
    for (unsigned k = 0; k < f->n_designs && f->kind != RP_LINES; k++)
        if (repro_check_design(r, f->designs[k], "design", why, sizeof why))
            AT(FL(RP_FK_DESIGNS), "[figure %s]: %s", f->id, why);
    if (f->n_best && f->kind != RP_BARS && f->kind != RP_TABLE)
        AT(FL(RP_FK_BEST), "[figure %s]: best needs kind = bars or table", f->id);
    for (unsigned k = 0; k < f->n_best; k++)
        if (repro_check_design(r, f->best[k], "best", why, sizeof why))
            AT(FL(RP_FK_BEST), "[figure %s]: %s", f->id, why);
    if (f->kind == RP_LINES) {
        bool built;
        if (!f->design[0] == !f->n_designs || !f->block[0] || !f->x[0])
            AT(f->line, "[figure %s]: a lines figure needs design (or designs), block and x",
               f->id);
        for (unsigned k = 0; k < (f->n_designs ? f->n_designs : 1); k++) {
            const char *dn = f->n_designs ? f->designs[k] : f->design;
            unsigned kl = FL(f->n_designs ? RP_FK_DESIGNS : RP_FK_DESIGN);
            if (!block_has(r, f->block, dn, &built))
                AT(kl, "[figure %s]: design '%s' is not a configuration of sweep block '%s'", f->id,
                   dn, f->block);
            if (built && !block_sets(r, f->block, dn, f->x))
                AT(FL(RP_FK_X), "[figure %s]: block '%s' does not sweep '%s'", f->id, f->block,
                   f->x);
        }
        if (f->beside[0] && repro_check_design(r, f->beside, "beside", why, sizeof why))
            AT(FL(RP_FK_BESIDE), "[figure %s]: %s", f->id, why);
    } else if (!f->n_designs) {
        AT(f->line, "[figure %s] names no designs", f->id);
    }
    if (f->n_parts && (f->kind != RP_STACKED || f->metric != RP_RATIO))
        AT(FL(RP_FK_PARTS), "[figure %s]: parts go with kind stacked and metric ratio:STAT", f->id);
    if (f->kind == RP_STACKED && f->metric != RP_TRAFFIC_CLASS && !f->n_parts)
        AT(FL(RP_FK_METRIC),
           "[figure %s]: a stacked figure has metric traffic_class, or ratio:STAT with parts",
           f->id);
    if (f->metric == RP_TRAFFIC_CLASS && f->kind != RP_STACKED)
        AT(FL(RP_FK_METRIC), "[figure %s]: metric traffic_class goes with kind stacked", f->id);
#undef FL
    return 0;
}

/* The claim functions (docs/repro.md):
 *   speedup(SET|APP, DESIGN [, BASELINE])   traffic(SET|APP, DESIGN [, BASELINE])
 *   stat(SET|APP, DESIGN, STAT)             max_app(speedup|traffic, SET, DESIGN [, BASELINE])
 *   peak(FIGURE, APP)                       point(FIGURE, APP|DESIGN, X)
 *   runs_wrong(BLOCK|all)                    */
static int check_where(struct repro *r, const char *name, char *err, size_t errlen)
{
    if (!strcmp(name, "all") || repro_set(r, name) || repro_app(r, name) >= 0)
        return 0;
    char sets[256] = "all";
    size_t k = 3;
    for (unsigned i = 0; i < r->d.n_sets && k < sizeof sets; i++)
        k += (size_t)snprintf(sets + k, sizeof sets - k, ", %s", r->d.sets[i].name);
    return errf(err, errlen, "'%s': unknown set or app (sets: %s; apps: the workloads of block %s)",
                name, sets, r->d.block);
}

static int claim_check(void *ctx, const struct cx_call *c, char *err, size_t errlen)
{
    struct repro *r = ctx;
    const char *fn = c->fn;
    unsigned n = c->n_args;
    if (!strcmp(fn, "speedup") || !strcmp(fn, "traffic")) {
        if (n < 2 || n > 3)
            return errf(err, errlen, "%s: expected %s(SET or APP, DESIGN [, BASELINE])", c->text,
                        fn);
        if (check_where(r, c->args[0], err, errlen) ||
            repro_check_design(r, c->args[1], "design", err, errlen) ||
            (n == 3 && repro_check_design(r, c->args[2], "baseline", err, errlen)))
            return -1;
        if (n == 2 && !repro_claim_base(r, c->args[0])[0])
            return errf(err, errlen, "%s: no baseline (its set declares none; name one)", c->text);
        return 0;
    }
    if (!strcmp(fn, "stat")) {
        if (n != 3)
            return errf(err, errlen, "%s: expected stat(SET or APP, DESIGN, STAT)", c->text);
        if (check_where(r, c->args[0], err, errlen) ||
            repro_check_design(r, c->args[1], "design", err, errlen))
            return -1;
        if (repro_stat_find(c->args[2]) < 0) {
            char known[1024];
            repro_stat_names(known, sizeof known);
            return errf(err, errlen, "%s: unknown statistic '%s' (known: %s)", c->text, c->args[2],
                        known);
        }
        return 0;
    }
    if (!strcmp(fn, "max_app")) {
        if (n < 3 || n > 4 || (strcmp(c->args[0], "speedup") && strcmp(c->args[0], "traffic")))
            return errf(err, errlen,
                        "%s: expected max_app(speedup or traffic, SET, DESIGN [, BASELINE])",
                        c->text);
        if (repro_check_set(r, c->args[1], err, errlen) ||
            repro_check_design(r, c->args[2], "design", err, errlen) ||
            (n == 4 && repro_check_design(r, c->args[3], "baseline", err, errlen)))
            return -1;
        if (n == 3 && !repro_set_base(r, c->args[1])[0])
            return errf(err, errlen, "%s: set %s has no baseline; name one", c->text, c->args[1]);
        return 0;
    }
    if (!strcmp(fn, "peak")) {
        const struct rp_figure *f = n == 2 ? repro_figure(r, c->args[0]) : NULL;
        if (!f || f->kind != RP_LINES)
            return errf(err, errlen, "%s: expected peak(FIGURE, APP) of a lines figure", c->text);
        if (repro_check_app(r, c->args[1], err, errlen))
            return -1;
        return 0;
    }
    if (!strcmp(fn, "point")) {
        const struct rp_figure *f = n == 3 ? repro_figure(r, c->args[0]) : NULL;
        if (!f || f->kind != RP_LINES)
            return errf(err, errlen, "%s: expected point(FIGURE, SERIES, X) of a lines figure",
                        c->text);
        bool series = false;
        for (unsigned k = 0; k < f->n_designs; k++)
            series |= !strcmp(f->designs[k], c->args[1]);
        if (!f->by_design)
            series = repro_app(r, c->args[1]) >= 0;
        if (!series)
            return errf(err, errlen, "%s: '%s' is not a line of figure %s (%s)", c->text,
                        c->args[1], f->id, f->by_design ? "its designs" : "an app");
        if (!repro_x_find(r, f, c->args[2]) && !repro_block_absent(r, f->block))
            return errf(err, errlen, "%s: figure %s has no x '%s'", c->text, f->id, c->args[2]);
        return 0;
    }
    if (!strcmp(fn, "runs_wrong")) {
        bool known = n == 1 && !strcmp(c->args[0], "all");
        for (unsigned i = 0; i < r->spec.n_runs && n == 1 && !known; i++)
            known = !strcmp(r->spec.runs[i].block, c->args[0]);
        if (!known)
            return errf(err, errlen, "%s: expected runs_wrong(BLOCK or all)", c->text);
        return 0;
    }
    return errf(err, errlen,
                "%s: unknown function '%s' (expected speedup, traffic, stat, "
                "max_app, peak, point, runs_wrong, min, max or spread)",
                c->text, fn);
}

const struct rp_figure *repro_figure(const struct repro *r, const char *id)
{
    for (unsigned i = 0; i < r->d.n_figures; i++)
        if (!strcmp(r->d.figures[i].id, id))
            return &r->d.figures[i];
    return NULL;
}

/* A claim's default baseline: the set's, or the app's set's. */
const char *repro_claim_base(const struct repro *r, const char *where)
{
    int a = repro_app(r, where);
    return repro_set_base(r, a >= 0 ? r->app_set[a] : where);
}

static double claim_value(void *ctx, const struct cx_call *c)
{
    struct repro *r = ctx;
    const char *fn = c->fn;
    if (!strcmp(fn, "speedup") || !strcmp(fn, "traffic")) {
        enum rp_metric m = fn[0] == 's' ? RP_SPEEDUP : RP_TRAFFIC;
        const char *where = c->args[0], *design = c->args[1];
        const char *base = c->n_args == 3 ? c->args[2] : repro_claim_base(r, where);
        if (!repro_have(r, design) || !repro_have(r, base))
            return NAN;
        if (repro_app(r, where) >= 0)
            return repro_ratio(r, m, 0, where, base, design, NULL);
        return repro_set_mean(r, m, 0, where, base, design, NULL, NULL, NULL);
    }
    if (!strcmp(fn, "stat")) {
        int stat = repro_stat_find(c->args[2]);
        if (repro_app(r, c->args[0]) >= 0) {
            const struct sweep_result *x = repro_get(r, c->args[0], c->args[1]);
            return x ? repro_stat(x, stat) : NAN;
        }
        return repro_set_mean(r, RP_VALUE, stat, c->args[0], NULL, c->args[1], NULL, NULL, NULL);
    }
    if (!strcmp(fn, "max_app")) {
        enum rp_metric m = c->args[0][0] == 's' ? RP_SPEEDUP : RP_TRAFFIC;
        const char *set = c->args[1], *design = c->args[2];
        const char *base = c->n_args == 4 ? c->args[3] : repro_set_base(r, set);
        double best = NAN;
        for (unsigned a = 0; a < r->n_apps; a++) {
            if (!repro_in_set(r, a, set))
                continue;
            double v = repro_ratio(r, m, 0, r->apps[a], base, design, NULL);
            if (!isnan(v) && (isnan(best) || v > best))
                best = v;
        }
        return best;
    }
    if (!strcmp(fn, "peak"))
        return repro_peak(r, repro_figure(r, c->args[0]), c->args[1]);
    if (!strcmp(fn, "point")) {
        const struct rp_figure *f = repro_figure(r, c->args[0]);
        const char *x = repro_x_find(r, f, c->args[2]);
        if (!x) /* the figure's block is not run at this size */
            return NAN;
        return f->by_design ? repro_line_mean(r, f, c->args[1], x, NULL)
                            : repro_point(r, f, c->args[1], x, NULL);
    }
    if (!strcmp(fn, "runs_wrong")) { /* distinct runs whose output check failed */
        double wrong = 0;
        for (unsigned i = 0; i < r->spec.n_runs; i++) {
            const struct sweep_run *run = &r->spec.runs[i];
            bool first = true;
            for (unsigned k = 0; k < i && first; k++)
                first = strcmp(r->spec.runs[k].id, run->id) != 0;
            if (first && (!strcmp(c->args[0], "all") || !strcmp(run->block, c->args[0])))
                wrong += r->res[i].check == SWEEP_CHECK_WRONG;
        }
        return wrong;
    }
    return NAN;
}

const struct cx_env *repro_claim_env(struct repro *r)
{
    static struct cx_env env = {claim_check, claim_value, NULL};
    env.ctx = r;
    return &env;
}

/* An ablation's block is a block of the sweep that runs a configuration of
 * the main block (it is looked up in its place), and its setting one the
 * block sets. */
static int check_ablation(struct repro *r, const struct rp_ablation *ab, const char *what,
                          char *err, size_t errlen)
{
    const struct rp_decl *d = &r->d;
    if (ab->none[0])
        return 0;
    bool known, shared = false, built;
    known = block_has(r, ab->block, NULL, &built);
    if (!known || !strcmp(ab->block, d->block))
        AT(ab->line, "%s: '%s' is not a sweep block of %s other than the main block '%s'", what,
           ab->block, r->sweep_file, d->block);
    for (unsigned k = 0; k < r->n_cfgs && !shared; k++)
        shared = block_has(r, ab->block, r->cfgs[k], &built);
    if (!shared)
        AT(ab->line, "%s: block '%s' runs none of the main block's configurations", what,
           ab->block);
    if (ab->setting[0]) {
        bool found = false;
        for (unsigned o = 0; o <= r->n_others && !found; o++) {
            const struct sweep_spec *s = o ? &r->others[o - 1] : &r->spec;
            for (unsigned i = 0; i < s->n_runs && !found; i++)
                if (!strcmp(s->runs[i].block, ab->block))
                    for (unsigned k = 0; k < s->runs[i].n_settings && !found; k++)
                        found = !strcmp(s->runs[i].settings[k], ab->setting);
        }
        if (!found)
            AT(ab->line, "%s: block '%s' has no setting %s", what, ab->block, ab->setting);
    }
    return 0;
}

/* [explain] and [calibration] entries: what they name exists. */
static int check_ablations(struct repro *r, char *err, size_t errlen)
{
    struct rp_decl *d = &r->d;
    char what[128];
    for (unsigned i = 0; i < d->n_explains; i++) {
        struct rp_explain *x = &d->explains[i];
        for (unsigned k = 0; k < d->n_claims && x->claim[0]; k++)
            if (!strcmp(d->claims[k].id, x->claim))
                x->claim_index = (int)k;
        for (unsigned k = 0; k < r->n_paper && x->row[0]; k++) {
            char key[512];
            row_key(&r->paper[k], key, sizeof key);
            if (!strcmp(key, x->row))
                x->row_index = (int)k;
        }
        if (x->claim[0] && x->claim_index < 0)
            AT(x->target_line, "[explain %s]: claim '%s': no such [claim]", x->name, x->claim);
        if (x->row[0] && x->row_index < 0)
            AT(x->target_line,
               "[explain %s]: row '%s': no such row of %s "
               "(figure,set,app,metric,baseline,design)",
               x->name, x->row, d->numbers);
        if (x->measure[0]) {
            x->measure_pm = repro_paper_metric(x->measure);
            char names[512];
            repro_paper_metric_names(names, sizeof names);
            if (!x->measure_pm || x->measure_pm->metric == RP_VALUE)
                AT(x->measure_line,
                   "[explain %s]: measure = %s: not a metric (expected one of %s; "
                   "not value:)",
                   x->name, x->measure, names);
        }
        const struct rp_paper_metric *row_pm = x->row_index >= 0 ? r->paper[x->row_index].pm : NULL;
        if (x->measure_pm && row_pm &&
            (row_pm->metric == RP_VALUE || row_pm->agg != x->measure_pm->agg ||
             strncmp(x->measure_pm->what, row_pm->what, strlen(row_pm->what))))
            AT(x->measure_line,
               "[explain %s]: measure %s does not state row '%s' in another unit (another "
               "quantity, or its apps summed up differently)",
               x->name, x->measure, x->row);
        snprintf(what, sizeof what, "[explain %s] ablation", x->name);
        if (!x->measure_pm && check_ablation(r, &x->ab, what, err, errlen))
            return -1;
        snprintf(what, sizeof what, "[explain %s] reference", x->name);
        if (x->ref.block[0] && check_ablation(r, &x->ref, what, err, errlen))
            return -1;
    }
    for (unsigned i = 0; i < d->n_calibs; i++) {
        const struct rp_calibration *c = &d->calibs[i];
        for (unsigned k = 0; k < c->n_affects; k++)
            if (!repro_figure(r, c->affects[k]) && repro_claim_index(r, c->affects[k]) < 0)
                AT(c->affects_line, "[calibration %s]: affects '%s': no such figure or claim",
                   c->name, c->affects[k]);
        snprintf(what, sizeof what, "[calibration %s] undo", c->name);
        if (check_ablation(r, &c->undo, what, err, errlen))
            return -1;
    }
    for (unsigned i = 0; i < d->n_replicas; i++) {
        const struct rp_ablation *x = &d->replicas[i];
        if (check_ablation(r, x, "replicas", err, errlen))
            return -1;
        for (unsigned k = 0; k < r->n_cfgs; k++) { /* a replica repeats every design */
            bool built;
            if (!block_has(r, x->block, r->cfgs[k], &built))
                AT(x->line, "replicas: block '%s' does not run the main block's configuration '%s'",
                   x->block, r->cfgs[k]);
        }
    }
    return 0;
}

bool repro_block_absent(const struct repro *r, const char *block)
{
    bool built;
    return !spec_has(&r->spec, block, NULL, &built) && block_has(r, block, NULL, &built);
}

bool repro_explain_run_here(const struct repro *r, const struct rp_explain *x)
{
    return (x->measure_pm || !repro_block_absent(r, x->ab.block)) &&
           (!x->ref.block[0] || !repro_block_absent(r, x->ref.block));
}

bool repro_design_absent(const struct repro *r, const char *design)
{
    const struct rp_variant *v = repro_variant(r, design);
    const char *block = v ? v->block : r->d.block, *cfg = v ? v->design : design;
    bool built;
    return !spec_has(&r->spec, block, cfg, &built) && block_has(r, block, cfg, &built);
}

/* What the other sizes' sweep files run and this one does not: blocks
 * ("metadata") and configurations of shared blocks ("main/getm-printed"). */
static void list_absent(struct repro *r)
{
    size_t k = 0;
    r->absent[0] = 0;
    for (unsigned o = 0; o < r->n_others; o++)
        for (unsigned i = 0; i < r->others[o].n_runs; i++) {
            const struct sweep_run *run = &r->others[o].runs[i];
            bool built, whole = !spec_has(&r->spec, run->block, NULL, &built);
            if (!whole && spec_has(&r->spec, run->block, run->config, &built))
                continue;
            char item[2 * RP_NAME + 2];
            snprintf(item, sizeof item, "%s%s%s", run->block, whole ? "" : "/",
                     whole ? "" : run->config);
            /* once each */
            bool seen = false;
            for (const char *p = r->absent; (p = strstr(p, item)) && !seen; p++)
                seen = (p == r->absent || p[-1] == ' ') &&
                       (p[strlen(item)] == ',' || !p[strlen(item)]);
            if (!seen && k < sizeof r->absent)
                k += (size_t)snprintf(r->absent + k, sizeof r->absent - k, "%s%s", k ? ", " : "",
                                      item);
        }
}

int repro_claim_index(const struct repro *r, const char *id)
{
    for (unsigned k = 0; k < r->d.n_claims; k++)
        if (!strcmp(r->d.claims[k].id, id))
            return (int)k;
    return -1;
}

int repro_open(struct repro *r, const char *dir, const char *size, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    r->size = size;
    if (repro_decl_load(&r->d, dir, err, errlen))
        return -1;
    struct rp_decl *d = &r->d;
    if (!d->built)
        return 0;
    char path[4400];
    /* the sweep of this size: sweep.SIZE (run as written), else sweep */
    int this = -1;
    for (int k = 0; k < RP_N_SIZES; k++)
        if (!strcmp(size, rp_size_names[k]) && d->sweep_for[k][0])
            this = k;
    for (int k = 0; k < RP_N_SIZES; k++) {
        snprintf(path, sizeof path, "%s/%s", d->dir, d->sweep_for[k]);
        if (d->sweep_for[k][0] && access(path, R_OK))
            AT(d->sweep_for_line[k], "sweep.%s = %s: cannot read %.300s", rp_size_names[k],
               d->sweep_for[k], path);
    }
    r->sweep_file = this >= 0 ? d->sweep_for[this] : d->sweep;
    r->sweep_as_written = this >= 0;
    snprintf(path, sizeof path, "%s/%s", d->dir, r->sweep_file);
    struct sweep_parse_opts po = {.size = this >= 0 ? NULL : size, .skip_missing = true};
    if (sweep_spec_load(&r->spec, path, &po, err, errlen))
        return -1;
    /* the other files, for the names: each once */
    for (int k = -1; k < RP_N_SIZES; k++) {
        const char *file = k < 0 ? d->sweep : d->sweep_for[k];
        bool seen = !file[0] || !strcmp(file, r->sweep_file);
        for (int j = -1; j < k && !seen; j++)
            seen = !strcmp(file, j < 0 ? d->sweep : d->sweep_for[j]);
        if (seen)
            continue;
        snprintf(path, sizeof path, "%s/%s", d->dir, file);
        struct sweep_parse_opts oo = {.size = k < 0 ? size : NULL, .skip_missing = true};
        if (sweep_spec_load(&r->others[r->n_others], path, &oo, err, errlen))
            return -1;
        r->n_others++;
    }
    list_absent(r);
    collect(r);
    bool built;
    bool has_block = r->n_apps > 0;
    for (unsigned i = 0; i < r->spec.n_missing && !has_block; i++)
        has_block = !strcmp(r->spec.missing[i].block, d->block);
    if (!has_block)
        AT(d->block_line ? d->block_line : 1, "block '%s': no such sweep block in %s", d->block,
           d->sweep);
    if (d->hook[0] && !repro_hook_find(d->hook))
        AT(d->hook_line, "hook '%s': no such hook (known: %s)", d->hook, repro_hooks[0].name);
    char why[512];
    for (unsigned i = 0; i < d->n_designs; i++)
        if (repro_check_design(r, d->designs[i].name, "design", why, sizeof why))
            AT(d->designs[i].line, "[designs]: %s", why);
    for (unsigned i = 0; i < d->n_variants; i++) {
        const struct rp_variant *v = &d->variants[i];
        if (!block_has(r, v->block, v->design, &built))
            AT(v->line, "[variant %s]: design '%s' is not a configuration of sweep block '%s'",
               v->name, v->design, v->block);
        const char *eq = strchr(v->setting, '=');
        char key[128];
        snprintf(key, sizeof key, "%.*s", eq ? (int)(eq - v->setting) : 0, v->setting);
        if (built && v->setting[0] && (!eq || !block_sets(r, v->block, v->design, key)))
            AT(v->line, "[variant %s]: block '%s' has no setting '%s'", v->name, v->block,
               v->setting);
        if (built && v->best[0] && !block_sets(r, v->block, v->design, v->best))
            AT(v->best_line, "[variant %s]: block '%s' does not sweep '%s' for design '%s'",
               v->name, v->block, v->best, v->design);
        if (v->fallback[0] && !block_has(r, d->block, v->fallback, &built))
            AT(v->line, "[variant %s]: fallback '%s' is not a configuration of sweep block '%s'",
               v->name, v->fallback, d->block);
    }
    for (unsigned i = 0; i < d->n_sets; i++) {
        const struct rp_set *s = &d->sets[i];
        bool any = false;
        for (unsigned a = 0; a < r->n_apps; a++)
            any |= !strcmp(r->app_set[a], s->name);
        if (!any && r->n_apps)
            AT(s->line, "[set %s]: no workload of sweep block '%s' is in set %s", s->name, d->block,
               s->name);
        if (s->baseline[0] && repro_check_design(r, s->baseline, "baseline", why, sizeof why))
            AT(s->line, "[set %s]: %s", s->name, why);
    }
    for (unsigned i = 0; i < d->n_figures; i++) {
        struct rp_figure *f = &d->figures[i];
        f->by_design = f->kind == RP_LINES && f->n_designs > 0;
        if (!f->baseline[0] && f->set[0])
            snprintf(f->baseline, sizeof f->baseline, "%s", repro_set_base(r, f->set));
        if (check_figure(r, f, err, errlen))
            return -1;
    }
    for (unsigned i = 0; i < d->n_claims; i++) {
        struct rp_claim *c = &d->claims[i];
        c->node = cx_parse(c->expr, repro_claim_env(r), why, sizeof why);
        if (!c->node)
            AT(c->expr_line, "[claim %s] expr: %s", c->id, why);
    }
    snprintf(path, sizeof path, "%s/%s", d->dir, d->numbers);
    if (repro_csv_rows(path, 8, "figure,set,app,metric,baseline,design,value,note", paper_row, r,
                       err, errlen))
        return -1;
    if (check_ablations(r, err, errlen))
        return -1;
    /* every claim must be able to fail (and to hold): claim_lint.c */
    return repro_lint_claims(r, err, errlen) ? -1 : 0;
}

int repro_run(struct repro *r, const char *out_dir, const struct sweep_exec_opts *eo)
{
    r->out_dir = out_dir;
    struct sweep_exec_opts o = *eo;
    o.out_dir = out_dir;
    if (repro_checkpoint_take(r, eo->log) < 0)
        return 2;
    int erc = sweep_execute(&r->spec, &o, &r->counts);
    if (erc && !r->counts.total)
        return 2;
    if (sweep_write_csv(out_dir, &r->spec))
        return 2;
    /* stopped, the results so far too: a checkpoint keeps them */
    r->res = calloc(r->spec.n_runs ? r->spec.n_runs : 1, sizeof *r->res);
    if (!r->res)
        abort();
    for (unsigned i = 0; i < r->spec.n_runs; i++)
        sweep_result_load(out_dir, &r->spec.runs[i], &r->res[i]);
    return erc == SWEEP_STOPPED ? EXIT_UNFINISHED : erc ? 130 : 0;
}

int repro_collect(struct repro *r, const char *out_dir)
{
    r->out_dir = out_dir;
    memset(&r->counts, 0, sizeof r->counts);
    r->res = calloc(r->spec.n_runs ? r->spec.n_runs : 1, sizeof *r->res);
    if (!r->res)
        abort();
    for (unsigned i = 0; i < r->spec.n_runs; i++) {
        sweep_result_load(out_dir, &r->spec.runs[i], &r->res[i]);
        if (!sweep_run_is_first(&r->spec, i))
            continue;
        r->counts.total++;
        r->counts.skipped += r->res[i].finished;
        r->counts.failed += r->res[i].finished && r->res[i].exit_status;
    }
    return sweep_write_csv(out_dir, &r->spec) ? 2 : 0;
}

void repro_close(struct repro *r)
{
    repro_decl_free(&r->d);
    free(r->res);
    free(r->text);
    if (r->d.built && r->spec.runs)
        sweep_spec_free(&r->spec);
    for (unsigned k = 0; k < r->n_others; k++)
        sweep_spec_free(&r->others[k]);
    r->n_others = 0;
    r->res = NULL;
    r->text = NULL;
}
