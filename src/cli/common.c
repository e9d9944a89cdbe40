/*
 * common.c - shared options, session and report of the simulating commands.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "cli/common.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/clock.h"
#include "base/log.h"
#include "cli/stats_series.h"
#include "coh/getm/getm_fn.h"
#include "coh/getm/getm_options.h"
#include "gpu/inst_trace.h"
#include "host/launcher.h"
#include "system/kernel_stats.h"

/* The configuration's [getm] section. */
static const struct getm_spec *getm_of(const struct config *c)
{
    return config_section(c, &getm_options);
}

const char sim_opts_help[] =
    SIM_HELP_MACHINE SIM_HELP_FUNCTIONAL SIM_HELP_CHECK SIM_HELP_REPORT SIM_HELP_RUN SIM_HELP_TRACE;

static int add_set(struct sim_opts *o, const char *s, char *err, size_t errlen)
{
    if (o->n_sets == SIM_MAX_SETS) {
        snprintf(err, errlen, "too many --set options (at most %d)", SIM_MAX_SETS);
        return -1;
    }
    o->sets[o->n_sets++] = s;
    return 0;
}

static int take_set(void *ctx, const char *name, const char *value, char *err, size_t errlen)
{
    (void)name;
    return add_set(ctx, value, err, errlen);
}

/* --protocol and --seed are --set shorthands; their text lives in one buffer
 * per --set slot so that it outlives the parse. */
static int take_protocol(void *ctx, const char *name, const char *value, char *err, size_t errlen)
{
    static char buf[SIM_MAX_SETS][CFG_STR_MAX + 32];
    struct sim_opts *o = ctx;
    if (!*value || strlen(value) >= CFG_STR_MAX) {
        snprintf(err, errlen, "%s: '%s' is not a protocol name (gpucoh list protocols)", name,
                 value);
        return -1;
    }
    snprintf(buf[o->n_sets % SIM_MAX_SETS], sizeof buf[0], "coherence.protocol=%s", value);
    return add_set(o, buf[o->n_sets % SIM_MAX_SETS], err, errlen);
}

static int take_seed(void *ctx, const char *name, const char *value, char *err, size_t errlen)
{
    static char buf[SIM_MAX_SETS][64];
    struct sim_opts *o = ctx;
    uint64_t seed;
    if (opt_number(name, value, 0, UINT64_MAX, &seed, err, errlen))
        return -1;
    snprintf(buf[o->n_sets % SIM_MAX_SETS], sizeof buf[0], "sim.seed=%llu",
             (unsigned long long)seed);
    return add_set(o, buf[o->n_sets % SIM_MAX_SETS], err, errlen);
}

/* The trace filters are checked as they are read (exit 2), kept as text. */
static int take_filter(const char *what, const char **dst, const char *name, const char *value,
                       char *err, size_t errlen)
{
    struct inst_trace_opts scratch = {0};
    char why[256];
    if (inst_trace_filter(&scratch, what, value, why, sizeof why)) {
        snprintf(err, errlen, "%s: %s", name, why);
        return -1;
    }
    *dst = value;
    return 0;
}

static int take_trace_warps(void *ctx, const char *name, const char *value, char *err,
                            size_t errlen)
{
    return take_filter("warps", &((struct sim_opts *)ctx)->trace_warps, name, value, err, errlen);
}

static int take_trace_ctas(void *ctx, const char *name, const char *value, char *err, size_t errlen)
{
    return take_filter("ctas", &((struct sim_opts *)ctx)->trace_ctas, name, value, err, errlen);
}

static int take_trace_cycles(void *ctx, const char *name, const char *value, char *err,
                             size_t errlen)
{
    return take_filter("cycles", &((struct sim_opts *)ctx)->trace_cycles, name, value, err, errlen);
}

void sim_opts_rows(struct sim_opts *o, unsigned groups, struct opt rows[SIM_OPT_ROWS])
{
    unsigned n = 0;
    if (groups & SIM_OPT_MACHINE) {
        rows[n++] = (struct opt)OPT_IN_ROW("--config", NULL, &o->config_file);
        rows[n++] = (struct opt)OPT_CALL_ROW("--set", "-s", take_set, o);
        rows[n++] = (struct opt)OPT_CALL_ROW("--protocol", NULL, take_protocol, o);
        rows[n++] = (struct opt)OPT_CALL_ROW("--seed", NULL, take_seed, o);
    }
    if (groups & SIM_OPT_FUNCTIONAL)
        rows[n++] = (struct opt)OPT_FLAG_ROW("--functional", NULL, &o->functional);
    if (groups & SIM_OPT_CHECK)
        rows[n++] = (struct opt)OPT_FLAG_ROW("--check", NULL, &o->check);
    if (groups & SIM_OPT_REPORT) {
        rows[n++] = (struct opt)OPT_FLAG_ROW("--quiet", "-q", &o->quiet);
        rows[n++] = (struct opt)OPT_OUT_ROW("--stats", NULL, &o->stats_file);
        rows[n++] = (struct opt)OPT_OUT_ROW("--coverage", NULL, &o->coverage_file);
    }
    if (groups & SIM_OPT_RUN) {
        rows[n++] = (struct opt)OPT_FLAG_ROW("--progress", NULL, &o->progress);
        rows[n++] = (struct opt)OPT_FLAG_ROW("--no-progress", NULL, &o->no_progress);
        rows[n++] =
            (struct opt)OPT_U64_ROW("--stats-interval", NULL, &o->stats_interval, 1, 0x1p63);
        rows[n++] = (struct opt)OPT_OUT_ROW("--stats-series", NULL, &o->series_file);
    }
    if (groups & SIM_OPT_TRACE) {
        rows[n++] = (struct opt)OPT_OUT_ROW("--trace", NULL, &o->trace_file);
        rows[n++] = (struct opt)OPT_OUT_ROW("--inst-stats", NULL, &o->inst_stats_file);
        rows[n++] = (struct opt)OPT_STR_ROW("--trace-kernel", NULL, &o->trace_kernel);
        rows[n++] = (struct opt)OPT_CALL_ROW("--trace-warps", NULL, take_trace_warps, o);
        rows[n++] = (struct opt)OPT_CALL_ROW("--trace-ctas", NULL, take_trace_ctas, o);
        rows[n++] = (struct opt)OPT_CALL_ROW("--trace-cycles", NULL, take_trace_cycles, o);
    }
    rows[n] = (struct opt)OPT_END;
}

bool sim_opts_take(struct sim_opts *o, int argc, char **argv, int *i)
{
    return sim_opts_take_groups(o, SIM_OPT_ALL, argc, argv, i);
}

bool sim_opts_take_groups(struct sim_opts *o, unsigned groups, int argc, char **argv, int *i)
{
    struct opt rows[SIM_OPT_ROWS];
    sim_opts_rows(o, groups, rows);
    char err[1024];
    int taken = opt_take((const struct opt *const[]){rows, NULL}, argc, argv, i, err, sizeof err);
    if (taken < 0)
        fatal("%s", err);
    return taken > 0;
}

/* The traces of the open sessions, oldest first. A run that stops at a fault
 * leaves the process through exit() (fatal: 2, panic: 3) from inside the
 * simulator, returning to no caller, so only an exit handler can keep what
 * was traced (FILE.partial, docs/trace.md). The list is process-wide because
 * exit is; it lives here, with the owner of the sessions, so that the
 * simulator knows no tracer (it sees gpu/inst_observer.h only). */
static struct inst_trace **open_traces;
static unsigned n_open_traces, cap_open_traces;

static void keep_partial_traces_at_exit(void)
{
    for (unsigned i = n_open_traces; i--;)
        inst_trace_keep_partial(open_traces[i]);
}

static void keep_at_exit(struct inst_trace *t)
{
    static bool handler;
    if (!handler) {
        handler = true;
        atexit(keep_partial_traces_at_exit);
    }
    if (n_open_traces == cap_open_traces) {
        cap_open_traces = cap_open_traces ? 2 * cap_open_traces : 4;
        open_traces = xrealloc(open_traces, cap_open_traces * sizeof *open_traces);
    }
    open_traces[n_open_traces++] = t;
}

static void forget_at_exit(const struct inst_trace *t)
{
    for (unsigned i = 0; i < n_open_traces; i++)
        if (open_traces[i] == t) {
            memmove(&open_traces[i], &open_traces[i + 1],
                    (n_open_traces - i - 1) * sizeof *open_traces);
            n_open_traces--;
            return;
        }
}

/* --trace, --inst-stats: the observer, its filters checked against the machine. */
static void open_inst_trace(struct sim_session *s, const struct sim_opts *o)
{
    const char *filter = o->trace_kernel   ? "--trace-kernel"
                         : o->trace_warps  ? "--trace-warps"
                         : o->trace_ctas   ? "--trace-ctas"
                         : o->trace_cycles ? "--trace-cycles"
                                           : NULL;
    if (filter && !o->trace_file)
        fatal("%s filters the trace: give --trace FILE too", filter);
    if (!o->trace_file && !o->inst_stats_file)
        return;
    struct inst_trace_opts io = {.trace_file = o->trace_file,
                                 .stats_file = o->inst_stats_file,
                                 .functional = o->functional,
                                 .kernel = o->trace_kernel};
    char err[512];
    const char *const text[] = {o->trace_warps, o->trace_ctas, o->trace_cycles};
    const char *const what[] = {"warps", "ctas", "cycles"};
    for (unsigned k = 0; k < 3; k++)
        if (text[k] && inst_trace_filter(&io, what[k], text[k], err, sizeof err))
            fatal("--trace-%s: %s", what[k], err);
    if (s->machine) {
        unsigned sms, warps, cores = machine_cores(s->machine, &sms, &warps);
        for (unsigned k = 0; k < io.n_warps; k++)
            if (io.warp_sm[k] >= cores || io.warp_slot[k] >= warps)
                fatal("--trace-warps: %u:%u names no warp: the machine has SMs 0 to %u%s and "
                      "warp slots 0 to %u in each",
                      io.warp_sm[k], io.warp_slot[k], sms - 1,
                      cores > sms ? " (then its CPU cores)" : "", warps - 1);
    }
    s->itrace = inst_trace_new(&io, err, sizeof err);
    if (!s->itrace)
        fatal("%s", err);
    keep_at_exit(s->itrace);
    struct inst_observer obs = inst_trace_observer(s->itrace);
    if (s->machine)
        machine_set_inst_observer(s->machine, &obs);
    else
        functional_set_inst_observer(s->functional, &obs);
}

void sim_open(struct sim_session *s, const struct sim_opts *o)
{
    char err[512];
    memset(s, 0, sizeof *s);
    s->opts = *o;
    const char *file = o->config_file ? o->config_file : config_default_file();
    if (config_load(&s->cfg, file, o->sets, o->n_sets, err, sizeof err))
        fatal("%s", err);
    if (o->progress && o->no_progress)
        fatal("--progress and --no-progress contradict each other");
    if (!o->stats_interval != !o->series_file)
        fatal("--stats-interval N and --stats-series FILE go together (sample every N core "
              "cycles into FILE)");
    if (o->series_file && o->functional)
        fatal("--stats-series: the functional mode has no clock to sample by (drop --functional)");
    if (o->functional) {
        backing_init(&s->store);
        /* sim.max_insts: auto (0 here) scales to each launch; 0 there is no limit */
        uint64_t mi = s->cfg.sim.max_insts;
        s->functional = functional_new(
            &s->store,
            &(struct functional_opts){.max_warp_insts = mi == CFG_AUTO ? 0
                                                        : mi           ? mi
                                                                       : UINT64_MAX,
                                      .spin_rounds = s->cfg.sim.spin_cycles,
                                      .progress_aborts = getm_of(&s->cfg)->progress_aborts});
        functional_set_tm(s->functional, &getm_functional_tm);
        s->host = host_new(functional_launcher(s->functional));
    } else {
        s->machine = machine_new_checked(&s->cfg, o->check);
        bool tty = isatty(2);
        machine_set_progress(s->machine, o->progress || (!o->quiet && !o->no_progress && tty), tty);
        machine_set_kernel_stats(s->machine, o->kernel_stats && o->stats_file);
        if (o->series_file)
            s->series = stats_series_start(s->machine, o->stats_interval);
        s->host = host_new(machine_launcher(s->machine));
    }
    open_inst_trace(s, o);
    s->wall_start = wall_seconds();
}

void sim_close(struct sim_session *s)
{
    if (s->series) /* a run that did not report: no file */
        stats_series_finish(s->series, s->machine, NULL);
    host_delete(s->host);
    forget_at_exit(s->itrace);
    inst_trace_free(s->itrace); /* not reported: no files */
    if (s->machine)
        machine_free(s->machine);
    if (s->functional) {
        functional_delete(s->functional);
        backing_destroy(&s->store);
    }
}

static void json_stat(void *arg, const char *name, uint64_t v)
{
    cJSON_AddNumberToObject(arg, name, (double)v);
}

static double ratio(uint64_t a, uint64_t b)
{
    return b ? (double)a / (double)b : 0.0;
}

struct launch_values {
    int *column; /* per statistic name: its column, or -1 (changed in no launch) */
    double *v;   /* the launch's value per column */
};

static void mark_changed(void *arg, unsigned name, uint64_t value)
{
    (void)value;
    ((int *)arg)[name] = 0;
}

static void put_value(void *arg, unsigned name, uint64_t value)
{
    struct launch_values *lv = arg;
    lv->v[lv->column[name]] = (double)value;
}

/* "kernel_stats": the names of the counters that changed in some launch,
 * and per launch its kernels, headline figures and the counters' changes
 * in the names' order (docs/stats.md). Columns rather than one object per
 * launch, so that a counter's name appears once in the file: scripts that
 * grep "NAME": VALUE out of it still find the whole run's only. */
static void json_kernel_stats(cJSON *root, const struct kernel_stats *ks)
{
    unsigned n_names = kernel_stats_names(ks), n_launches = kernel_stats_launches(ks);
    int *column = malloc((n_names + 1) * sizeof *column);
    double *v = malloc((n_names + 1) * sizeof *v);
    if (!column || !v)
        panic("out of memory");
    for (unsigned i = 0; i < n_names; i++)
        column[i] = -1;
    for (unsigned l = 0; l < n_launches; l++)
        kernel_stats_each(ks, l, mark_changed, column);
    cJSON *obj = cJSON_AddObjectToObject(root, "kernel_stats");
    cJSON *names = cJSON_AddArrayToObject(obj, "names");
    int n_columns = 0;
    for (unsigned i = 0; i < n_names; i++)
        if (!column[i]) {
            column[i] = n_columns++;
            cJSON_AddItemToArray(names, cJSON_CreateString(kernel_stats_name(ks, i)));
        }
    cJSON *arr = cJSON_AddArrayToObject(obj, "launches");
    for (unsigned i = 0; i < n_launches; i++) {
        const struct kernel_stats_launch *l = kernel_stats_launch(ks, i);
        const struct machine_summary *m = &l->summary;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "launch", i);
        cJSON *kn = cJSON_AddArrayToObject(o, "kernels");
        for (unsigned k = 0; k < l->n_kernels; k++)
            cJSON_AddItemToArray(kn, cJSON_CreateString(l->kernels[k]));
        cJSON_AddNumberToObject(o, "cycles", (double)l->cycles);
        cJSON_AddNumberToObject(o, "thread_insts", (double)m->thread_insts);
        cJSON_AddNumberToObject(o, "warp_insts", (double)m->warp_insts);
        cJSON_AddNumberToObject(o, "ipc", ratio(m->warp_insts, l->cycles));
        cJSON_AddNumberToObject(o, "l1_hit_rate", ratio(m->l1_hits, m->l1_accesses));
        cJSON_AddNumberToObject(o, "l2_hit_rate", ratio(m->l2_hits, m->l2_accesses));
        for (int c = 0; c < n_columns; c++)
            v[c] = 0;
        kernel_stats_each(ks, i, put_value, &(struct launch_values){column, v});
        cJSON_AddItemToObject(o, "values", cJSON_CreateDoubleArray(v, n_columns));
        cJSON_AddItemToArray(arr, o);
    }
    free(column);
    free(v);
}

int sim_report(struct sim_session *s, FILE *out, const char *title, struct cJSON *extra)
{
    double wall = wall_seconds() - s->wall_start;
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "gpucoh_version", GPUCOH_VERSION);
    cJSON_AddStringToObject(root, "title", title);
    cJSON_AddStringToObject(root, "mode", s->machine ? "timing" : "functional");
    cJSON_AddStringToObject(root, "protocol", s->machine ? s->cfg.coherence.protocol : "none");
    cJSON *cfg = cJSON_AddObjectToObject(root, "config");
    char buf[128];
    for (const struct cfg_opt *o = config_options(); o->name; o++) {
        cfg_format(o, &s->cfg, buf, sizeof buf);
        cJSON_AddStringToObject(cfg, o->name, buf);
    }
    int rc = 0;
    if (s->machine) {
        struct machine_summary m;
        machine_summary(s->machine, &m);
        fprintf(out, "%s: %s on %s\n", title, s->cfg.coherence.protocol,
                s->opts.config_file ? s->opts.config_file : "tc-fermi");
        fprintf(out, "  cycles          %llu core cycles in %llu kernel(s)\n",
                (unsigned long long)m.cycles, (unsigned long long)m.kernels);
        fprintf(out, "  instructions    %llu thread, %llu warp (IPC %.2f warp/cycle)\n",
                (unsigned long long)m.thread_insts, (unsigned long long)m.warp_insts,
                ratio(m.warp_insts, m.cycles));
        fprintf(out, "  L1 load hits    %.1f%% of %llu\n", 100 * ratio(m.l1_hits, m.l1_accesses),
                (unsigned long long)m.l1_accesses);
        fprintf(out, "  L2 hits         %.1f%% of %llu\n", 100 * ratio(m.l2_hits, m.l2_accesses),
                (unsigned long long)m.l2_accesses);
        fprintf(out,
                "  load latency    %.1f core cycles on average, %llu at most, over %llu requests\n",
                ratio(m.load_latency.sum, m.load_latency.n), (unsigned long long)m.load_latency.max,
                (unsigned long long)m.load_latency.n);
        if (m.gwct_waits) /* TC-Weak's fences, the cost of never stalling writes */
            fprintf(out,
                    "  GWCT waits      %llu fences or releases waited %.0f cycles each on "
                    "average (%llu warp-cycles in all)\n",
                    (unsigned long long)m.gwct_waits, ratio(m.gwct_wait_cycles, m.gwct_waits),
                    (unsigned long long)m.gwct_wait_cycles);
        if (m.tx_commits || m.tx_aborts) { /* transactions: aborts per 1000 commits by cause */
            fprintf(out, "  transactions    %llu committed, %llu aborted (%.0f per 1K commits):",
                    (unsigned long long)m.tx_commits, (unsigned long long)m.tx_aborts,
                    1000 * ratio(m.tx_aborts, m.tx_commits));
            for (unsigned k = 0; k < SM_TX_ABORT_N; k++)
                if (m.tx_abort[k])
                    fprintf(out, " %s %.0f", sm_tx_abort_names[k],
                            1000 * ratio(m.tx_abort[k], m.tx_commits));
            if (m.tx_abort_bloom)
                fprintf(out, "; %llu granule aborts on Bloom-filter timestamps",
                        (unsigned long long)m.tx_abort_bloom);
            fputc('\n', out);
        }
        uint64_t tb = 0, tf = 0;
        for (unsigned c = 0; c < TRAFFIC_N; c++)
            tb += m.bytes[c], tf += m.flits[c];
        fprintf(out, "  traffic         %llu bytes, %llu flits:", (unsigned long long)tb,
                (unsigned long long)tf);
        for (unsigned c = 0; c < TRAFFIC_N; c++)
            fprintf(out, " %s %llu", traffic_class_names[c], (unsigned long long)m.bytes[c]);
        fputc('\n', out);
        fprintf(out,
                "  simulator       %.2f s wall, %.0f cycles/s, %.2f M thread insts/s, "
                "%.2f M events/s\n",
                wall, ratio(m.cycles, 1) / (wall > 0 ? wall : 1e-9),
                (double)m.thread_insts / 1e6 / (wall > 0 ? wall : 1e-9),
                (double)m.events / 1e6 / (wall > 0 ? wall : 1e-9));
        cJSON_AddNumberToObject(root, "cycles", (double)m.cycles);
        cJSON_AddNumberToObject(root, "kernels", (double)m.kernels);
        cJSON_AddNumberToObject(root, "thread_insts", (double)m.thread_insts);
        cJSON_AddNumberToObject(root, "warp_insts", (double)m.warp_insts);
        cJSON_AddNumberToObject(root, "l1_hit_rate", ratio(m.l1_hits, m.l1_accesses));
        cJSON_AddNumberToObject(root, "l2_hit_rate", ratio(m.l2_hits, m.l2_accesses));
        cJSON *tr = cJSON_AddObjectToObject(root, "traffic");
        for (unsigned c = 0; c < TRAFFIC_N; c++) {
            cJSON *k = cJSON_AddObjectToObject(tr, traffic_class_names[c]);
            cJSON_AddNumberToObject(k, "bytes", (double)m.bytes[c]);
            cJSON_AddNumberToObject(k, "flits", (double)m.flits[c]);
            cJSON_AddNumberToObject(k, "msgs", (double)m.msgs[c]);
        }
        const char **names;
        const uint64_t *cyc;
        unsigned nk = machine_kernel_cycles(s->machine, &names, &cyc);
        cJSON *ks = cJSON_AddArrayToObject(root, "kernel_cycles");
        for (unsigned i = 0; i < nk; i++) {
            cJSON *k = cJSON_CreateObject();
            cJSON_AddStringToObject(k, "kernel", names[i]);
            cJSON_AddNumberToObject(k, "cycles", (double)cyc[i]);
            cJSON_AddItemToArray(ks, k);
        }
        cJSON *sp = cJSON_AddObjectToObject(root, "speed");
        cJSON_AddNumberToObject(sp, "wall_seconds", wall);
        cJSON_AddNumberToObject(sp, "cycles_per_second", wall > 0 ? m.cycles / wall : 0);
        cJSON_AddNumberToObject(sp, "thread_insts_per_second",
                                wall > 0 ? m.thread_insts / wall : 0);
        cJSON_AddNumberToObject(sp, "events_per_second", wall > 0 ? m.events / wall : 0);
        const char *why;
        unsigned np = machine_n_partitions(s->machine, &why);
        cJSON *parts = cJSON_AddObjectToObject(sp, "partitions"); /* docs/parallel.md */
        if (why)
            cJSON_AddStringToObject(parts, "one_because", why);
        cJSON *pt = cJSON_AddObjectToObject(parts, "ticks");
        for (unsigned p = 0; p < np; p++) {
            char pn[64];
            cJSON_AddNumberToObject(pt, machine_partition_name(s->machine, p, pn, sizeof pn),
                                    (double)machine_partition_ticks(s->machine, p));
        }
        struct machine_split_info si;
        machine_split_info(s->machine, &si);
        if (si.apart) { /* sim.partitions = max: a queue each */
            cJSON_AddNumberToObject(parts, "cut_ports", si.cut_ports);
            cJSON_AddNumberToObject(parts, "direct_ports", si.direct_ports);
            cJSON_AddNumberToObject(parts, "window_ps", (double)si.window_ps);
            cJSON_AddNumberToObject(parts, "outbox_sends", (double)si.outbox_sends);
        }
        machine_stats(s->machine, json_stat, cJSON_AddObjectToObject(root, "stats"));
        if (machine_kernel_stats(s->machine))
            json_kernel_stats(root, machine_kernel_stats(s->machine));
        if (s->opts.coverage_file) {
            char *text = NULL;
            size_t len = 0;
            FILE *mf = open_memstream(&text, &len);
            machine_coverage(s->machine, mf);
            fclose(mf);
            if (write_file_atomic(s->opts.coverage_file, text))
                rc = EXIT_USAGE;
            free(text);
        }
    } else {
        const struct functional_stats *f = functional_stats(s->functional);
        fprintf(out, "%s: functional mode\n", title);
        fprintf(out, "  instructions    %llu thread, %llu warp in %llu kernel(s)\n",
                (unsigned long long)f->thread_insts, (unsigned long long)f->warp_insts,
                (unsigned long long)f->kernels);
        if (f->tx_attempts)
            fprintf(out,
                    "  transactions    %llu committed, %llu attempts, %llu aborted (%llu by "
                    "the VU); %llu run alone after %u fruitless attempts\n",
                    (unsigned long long)f->tx_commits, (unsigned long long)f->tx_attempts,
                    (unsigned long long)f->tx_aborts, (unsigned long long)f->tx_vu_aborts,
                    (unsigned long long)f->tx_serial_grants, getm_of(&s->cfg)->progress_aborts);
        fprintf(out, "  simulator       %.2f s wall, %.2f M thread insts/s\n", wall,
                (double)f->thread_insts / 1e6 / (wall > 0 ? wall : 1e-9));
        if (f->tx_attempts) {
            cJSON *tx = cJSON_AddObjectToObject(root, "tx");
            cJSON_AddNumberToObject(tx, "commits", (double)f->tx_commits);
            cJSON_AddNumberToObject(tx, "attempts", (double)f->tx_attempts);
            cJSON_AddNumberToObject(tx, "aborts", (double)f->tx_aborts);
            cJSON_AddNumberToObject(tx, "vu_aborts", (double)f->tx_vu_aborts);
            cJSON_AddNumberToObject(tx, "serial_grants", (double)f->tx_serial_grants);
            cJSON_AddNumberToObject(tx, "serial_stalls", (double)f->tx_serial_stalls);
            cJSON_AddNumberToObject(tx, "fruitless_max", f->tx_fruitless_max);
        }
        cJSON_AddNumberToObject(root, "cycles", 0);
        cJSON_AddNumberToObject(root, "kernels", (double)f->kernels);
        cJSON_AddNumberToObject(root, "thread_insts", (double)f->thread_insts);
        cJSON_AddNumberToObject(root, "warp_insts", (double)f->warp_insts);
        cJSON *sp = cJSON_AddObjectToObject(root, "speed");
        cJSON_AddNumberToObject(sp, "wall_seconds", wall);
        cJSON_AddNumberToObject(sp, "thread_insts_per_second",
                                wall > 0 ? f->thread_insts / wall : 0);
    }
    if (extra) {
        cJSON *item = extra->child;
        while (item) {
            cJSON *next = item->next;
            cJSON_AddItemToObject(root, item->string, cJSON_DetachItemViaPointer(extra, item));
            item = next;
        }
    }
    if (s->series) {
        if (stats_series_finish(s->series, s->machine, s->opts.series_file))
            rc = EXIT_USAGE;
        s->series = NULL;
    }
    if (s->itrace) {
        char err[512];
        if (inst_trace_finish(s->itrace, err, sizeof err)) {
            fprintf(stderr, "gpucoh: error: %s\n", err);
            rc = EXIT_USAGE;
        }
    }
    if (s->opts.stats_file) {
        char *text = cJSON_Print(root);
        if (!text || write_file_atomic(s->opts.stats_file, text))
            rc = EXIT_USAGE;
        free(text);
    }
    cJSON_Delete(root);
    return rc;
}
