/*
 * cmd_compare.c - `gpucoh compare`: the same workloads under several
 * protocols, side by side - the question gpucoh exists to answer.
 *
 * Runs every (workload, protocol) pair in this process, one fresh machine
 * each, checks every output against its CPU reference, and prints one table:
 * cycles, speedup over the first protocol, L1 hit rate, interconnect traffic
 * by class, and per protocol the harmonic mean of its speedups; --csv and
 * --json write the same rows for plotting. With -j N the pairs run in up to
 * N child processes at once (each a fresh machine, as in this process), and
 * the rows still come out in order, so the output does not depend on N.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/log.h"
#include "cli/cmds.h"
#include "cli/common.h"
#include "host/launchspec.h"
#include "host/workload.h"

#define MAX_ITEMS 64

static void usage(FILE *out)
{
    fprintf(out,
            "usage: gpucoh compare [--workloads A,B,...|all|SET] [--protocols P,Q,...|all]\n"
            "                      [--size " WL_SIZE_USAGE "] [-j N] [--csv FILE] [--json FILE]\n"
            "                      [machine options]\n"
            "\n"
            "Runs each workload under each protocol on a fresh machine and prints cycles,\n"
            "speedup over the first protocol, L1 load hit rate and traffic by message class,\n"
            "then a row `hmean` per protocol: the harmonic mean of its speedups over the\n"
            "workloads.\n"
            "Every output is checked against its CPU reference; a wrong one is marked and\n"
            "makes the exit status 1. SET is a workload set: basic, inter, intra, sync, order,\n"
            "stc, stc-reuse, mg (gpucoh list workloads); a file NAME.spec is a launch spec\n"
            "(docs/launch-spec.md): one's own kernels, run as gpucoh exec runs them.\n"
            "`--protocols all` runs a protocol that needs its own order.model (rccsc: sc)\n"
            "under it; named, it needs --set order.model=sc.\n"
            "\n"
            "  --workloads LIST      workloads or sets, comma-separated (default all)\n"
            "  --protocols LIST      protocols, comma-separated, or all (default: every one\n"
            "                        that is not test-only, multi-GPM ones aside: name\n"
            "                        those, e.g. nhcc,hmg); --protocol NAME adds one\n"
            "  --size S              input size (default tiny)\n"
            "  -j, --jobs N          run up to N pairs at once, each in a child process\n"
            "                        (default 1: in this process); the output is the same\n"
            "  --csv FILE            write the table's rows as CSV (hmean rows: workload\n"
            "                        `hmean`, the speedup, other fields empty)\n"
            "  --json FILE           the same as JSON: {rows: [...], hmean: [...]}\n"
            "\n" SIM_HELP_MACHINE SIM_HELP_CHECK
            "\nFor every statistic of one run, use gpucoh run --stats (or gpucoh sweep).\n"
            "\nexample: gpucoh compare --workloads intra --protocols nol1,rc --size tiny\n");
}

/* --workloads, --protocols and --protocol append to a comma-separated list,
 * so that repeating them adds rather than replaces. */
struct list_arg {
    char *text;
    size_t cap;
};

static int take_list(void *ctx, const char *name, const char *value, char *err, size_t errlen)
{
    struct list_arg *l = ctx;
    size_t n = strlen(l->text);
    if (!*value || n + strlen(value) + 2 > l->cap) {
        snprintf(err, errlen, "%s: %s", name, *value ? "list too long" : "needs a value");
        return -1;
    }
    snprintf(l->text + n, l->cap - n, "%s%s", n ? "," : "", value);
    return 0;
}

static unsigned split(char *s, const char **out)
{
    unsigned n = 0;
    for (char *t = strtok(s, ","); t; t = strtok(NULL, ",")) {
        if (n == MAX_ITEMS)
            fatal("too many names in a list (at most %d)", MAX_ITEMS);
        out[n++] = t;
    }
    return n;
}

/* One (workload, protocol) pair's result: filled by run_pair, in this
 * process or in a child of -j N (the rows live in shared memory). */
struct cmp_row {
    bool done;
    int exit_status; /* 0 ok, EXIT_CHECK_FAILED wrong output, else the child's */
    uint64_t cycles, total;
    uint64_t bytes[TRAFFIC_N];
    double hit;     /* L1 load hit rate, 0..1 */
    double speedup; /* over the workload's first protocol; set when printed */
    char why[512];
};

/* A column of the table: a registry workload, or a launch spec (one's own
 * kernels, run as gpucoh exec runs them). */
struct cmp_item {
    const char *name, *set;
    const struct workload *wl;
    const char *spec;
};

static void run_pair(const struct sim_opts *o, const struct cmp_item *it, const struct wl_params *p,
                     const char *proto, bool all, struct cmp_row *r)
{
    struct sim_opts ok = *o;
    char set[96], set_order[96];
    snprintf(set, sizeof set, "coherence.protocol=%s", proto);
    if (ok.n_sets + 2 >= SIM_MAX_SETS)
        fatal("too many --set options");
    ok.sets[ok.n_sets++] = set;
    const struct proto_desc *pd = proto_find(proto);
    if (pd->needs_order && all) {
        /* `all` runs a protocol that needs its own issue rule under it */
        snprintf(set_order, sizeof set_order, "order.model=%s", pd->needs_order);
        ok.sets[ok.n_sets++] = set_order;
    }
    ok.quiet = true;
    struct sim_session s;
    sim_open(&s, &ok);
    int result;
    if (it->spec) {
        char err[1024];
        struct launchspec *ls = launchspec_load(it->spec, err, sizeof err);
        if (!ls)
            fatal("%s", err);
        FILE *quiet = fopen("/dev/null", "w"); /* its launch and check lines */
        result = launchspec_run(ls, s.host, quiet ? quiet : stderr);
        if (quiet)
            fclose(quiet);
        launchspec_free(ls);
        if (result)
            snprintf(r->why, sizeof r->why, "a check failed (gpucoh exec %s names the elements)",
                     it->spec);
    } else {
        result = it->wl->run(s.host, p, r->why, sizeof r->why);
    }
    struct machine_summary m;
    machine_summary(s.machine, &m);
    r->cycles = m.cycles;
    r->total = 0;
    for (unsigned c = 0; c < TRAFFIC_N; c++) {
        r->bytes[c] = m.bytes[c];
        r->total += m.bytes[c];
    }
    r->hit = m.l1_accesses ? (double)m.l1_hits / (double)m.l1_accesses : 0;
    r->exit_status = result ? EXIT_CHECK_FAILED : 0;
    sim_close(&s);
    r->done = true;
}

static void print_row(FILE *out, const char *wl, const char *proto, const struct cmp_row *r)
{
    if (r->exit_status && r->exit_status != EXIT_CHECK_FAILED) {
        fprintf(out, "%-16s %-8s %-6s    %s: %s\n", wl, proto, "FAULT", wl, r->why);
        return;
    }
    fprintf(out, "%-16s %-8s %-6s %12llu %8.2f %7.1f %12llu", wl, proto,
            r->exit_status ? "WRONG" : "ok", (unsigned long long)r->cycles, r->speedup,
            100 * r->hit, (unsigned long long)r->total);
    for (unsigned c = 0; c < TRAFFIC_N; c++)
        fprintf(out, " %10llu", (unsigned long long)r->bytes[c]);
    fputc('\n', out);
    if (r->exit_status)
        fprintf(out, "    %s: %s\n", wl, r->why);
}

/* The table as CSV into csv (written whole or not at all): a row per run
 * with statistics, then one per protocol for its harmonic mean. True when
 * the file could not be written. */
static bool write_csv(const char *csv, const struct cmp_item *wls, const char *const *protos,
                      unsigned n_pr, const struct cmp_row *rows_out, unsigned n_rows,
                      const double *hmean)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    fprintf(f, "workload,set,protocol,check,cycles,speedup,l1_hit_rate,bytes");
    for (unsigned c = 0; c < TRAFFIC_N; c++)
        fprintf(f, ",bytes_%s", traffic_class_names[c]);
    fputc('\n', f);
    for (unsigned i = 0; i < n_rows; i++) {
        const struct cmp_row *r = &rows_out[i];
        if (r->exit_status && r->exit_status != EXIT_CHECK_FAILED)
            continue; /* no statistics */
        fprintf(f, "%s,%s,%s,%s,%llu,%.4f,%.4f,%llu", wls[i / n_pr].name, wls[i / n_pr].set,
                protos[i % n_pr], r->exit_status ? "wrong" : "ok", (unsigned long long)r->cycles,
                r->speedup, r->hit, (unsigned long long)r->total);
        for (unsigned c = 0; c < TRAFFIC_N; c++)
            fprintf(f, ",%llu", (unsigned long long)r->bytes[c]);
        fputc('\n', f);
    }
    /* one row per protocol: workload "hmean", its speedup, the rest empty */
    for (unsigned k = 0; k < n_pr; k++) {
        fprintf(f, "hmean,,%s,,,%.4f,,", protos[k], hmean[k]);
        for (unsigned c = 0; c < TRAFFIC_N; c++)
            fputc(',', f);
        fputc('\n', f);
    }
    fclose(f);
    bool failed = write_file_atomic(csv, text) != 0;
    free(text);
    return failed;
}

/* The table as JSON into json (written whole or not at all): the rows, then
 * each protocol's harmonic mean. True when the file could not be written. */
static bool write_json(const char *json, const struct wl_params *p, const struct cmp_item *wls,
                       const char *const *protos, unsigned n_pr, const struct cmp_row *rows_out,
                       unsigned n_rows, const double *hmean, const unsigned *n_mean)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "gpucoh_version", GPUCOH_VERSION);
    cJSON_AddStringToObject(root, "size", wl_size_names[p->size]);
    cJSON *arr = cJSON_AddArrayToObject(root, "rows");
    for (unsigned i = 0; i < n_rows; i++) {
        const struct cmp_row *r = &rows_out[i];
        if (r->exit_status && r->exit_status != EXIT_CHECK_FAILED)
            continue;
        cJSON *o2 = cJSON_CreateObject();
        cJSON_AddStringToObject(o2, "workload", wls[i / n_pr].name);
        cJSON_AddStringToObject(o2, "set", wls[i / n_pr].set);
        cJSON_AddStringToObject(o2, "protocol", protos[i % n_pr]);
        cJSON_AddStringToObject(o2, "check", r->exit_status ? "wrong" : "ok");
        cJSON_AddNumberToObject(o2, "cycles", (double)r->cycles);
        cJSON_AddNumberToObject(o2, "speedup", r->speedup);
        cJSON_AddNumberToObject(o2, "l1_hit_rate", r->hit);
        cJSON_AddNumberToObject(o2, "bytes", (double)r->total);
        cJSON *b = cJSON_AddObjectToObject(o2, "bytes_by_class");
        for (unsigned c = 0; c < TRAFFIC_N; c++)
            cJSON_AddNumberToObject(b, traffic_class_names[c], (double)r->bytes[c]);
        cJSON_AddItemToArray(arr, o2);
    }
    cJSON *hm = cJSON_AddArrayToObject(root, "hmean");
    for (unsigned k = 0; k < n_pr; k++) {
        cJSON *o2 = cJSON_CreateObject();
        cJSON_AddStringToObject(o2, "protocol", protos[k]);
        cJSON_AddNumberToObject(o2, "speedup", hmean[k]);
        cJSON_AddNumberToObject(o2, "workloads", n_mean[k]);
        cJSON_AddItemToArray(hm, o2);
    }
    char *text = cJSON_Print(root);
    size_t tl = strlen(text);
    char *withnl = malloc(tl + 2);
    if (!withnl)
        abort();
    memcpy(withnl, text, tl);
    memcpy(withnl + tl, "\n", 2);
    bool failed = write_file_atomic(json, withnl) != 0;
    free(withnl);
    free(text);
    cJSON_Delete(root);
    return failed;
}

int cmd_compare(int argc, char **argv)
{
    struct sim_opts o = {0};
    char wl_list[4096] = "", pr_list[4096] = "";
    struct list_arg wl_arg = {wl_list, sizeof wl_list}, pr_arg = {pr_list, sizeof pr_list};
    const char *csv = NULL, *json = NULL;
    unsigned jobs = 1;
    struct wl_params p = {.size = WL_TINY, .seed = 1};
    int size = WL_TINY;
    struct opt sim_rows[SIM_OPT_ROWS];
    sim_opts_rows(&o, SIM_OPT_MACHINE | SIM_OPT_CHECK, sim_rows);
    const struct opt rows[] = {
        OPT_CALL_ROW("--workloads", NULL, take_list, &wl_arg),
        OPT_CALL_ROW("--protocols", NULL, take_list, &pr_arg),
        OPT_CALL_ROW("--protocol", NULL, take_list, &pr_arg),
        OPT_ENUM_ROW("--size", NULL, &size, wl_size_names),
        OPT_OUT_ROW("--csv", NULL, &csv),
        OPT_OUT_ROW("--json", NULL, &json),
        OPT_UINT_ROW("--jobs", "-j", &jobs, 1, 256),
        OPT_END,
    };
    int rc = opt_parse("compare", (const struct opt *const[]){rows, sim_rows, NULL}, argc, argv, 1,
                       NULL, usage);
    if (rc != OPT_CONTINUE)
        return rc;
    p.size = (enum wl_size)size;
    struct cmp_item wls[MAX_ITEMS];
    unsigned n_wl = 0;
    const char *names[MAX_ITEMS];
    unsigned n_names = split(wl_list, names);
    for (const struct workload *const *w = wl_registry; *w && n_wl < MAX_ITEMS; w++) {
        bool take = !n_names;
        for (unsigned k = 0; k < n_names; k++)
            take |= !strcmp(names[k], "all") || !strcmp(names[k], (*w)->set);
        if (take)
            wls[n_wl++] = (struct cmp_item){(*w)->name, (*w)->set, *w, NULL};
    }
    for (unsigned k = 0; k < n_names; k++) {
        size_t len = strlen(names[k]);
        if (len > 5 && !strcmp(names[k] + len - 5, ".spec")) {
            /* one's own kernels: checked now, before anything runs */
            char err[1024];
            struct launchspec *ls = launchspec_load(names[k], err, sizeof err);
            if (!ls)
                fatal("%s", err);
            launchspec_free(ls);
            if (n_wl < MAX_ITEMS)
                wls[n_wl++] = (struct cmp_item){names[k], "spec", NULL, names[k]};
            continue;
        }
        const struct workload *w = wl_find(names[k]);
        bool is_set = !strcmp(names[k], "all");
        for (const struct workload *const *s = wl_registry; *s; s++)
            is_set |= !strcmp(names[k], (*s)->set);
        if (w && n_wl < MAX_ITEMS)
            wls[n_wl++] = (struct cmp_item){w->name, w->set, w, NULL};
        else if (!w && !is_set)
            fatal("unknown workload '%s' (gpucoh list workloads)", names[k]);
    }
    const char *protos[MAX_ITEMS];
    unsigned n_pr = 0;
    if (!pr_list[0] || !strcmp(pr_list, "all")) {
        for (const struct proto_desc *const *q = proto_registry; *q && n_pr < MAX_ITEMS; q++)
            if (!(*q)->test_only && !(*q)->multi_gpm && !(*q)->not_in_all && !(*q)->example)
                protos[n_pr++] = (*q)->name;
    } else {
        n_pr = split(pr_list, protos);
        for (unsigned k = 0; k < n_pr; k++)
            if (!proto_find(protos[k]))
                fatal("unknown protocol '%s' (gpucoh list protocols)", protos[k]);
    }
    if (!n_wl || !n_pr)
        fatal("nothing to compare");

    unsigned n_rows = n_wl * n_pr;
    /* shared with the children of -j N, which each fill the rows they run */
    struct cmp_row *rows_out = mmap(NULL, n_rows * sizeof *rows_out, PROT_READ | PROT_WRITE,
                                    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (rows_out == MAP_FAILED)
        fatal("compare: cannot map %u result rows", n_rows);
    memset(rows_out, 0, n_rows * sizeof *rows_out);
    bool all = !pr_list[0] || !strcmp(pr_list, "all");

    printf("%-16s %-8s %-6s %12s %8s %7s %12s", "workload", "protocol", "check", "cycles",
           "speedup", "L1hit%", "traffic(B)");
    for (unsigned c = 0; c < TRAFFIC_N; c++)
        printf(" %10s", traffic_class_names[c]);
    putchar('\n');
    fflush(stdout);
    pid_t *pids = calloc(jobs, sizeof *pids);
    unsigned *slot_row = calloc(jobs, sizeof *slot_row);
    if (!pids || !slot_row)
        abort();
    unsigned next = 0, printed = 0, running = 0;
    int worst = 0;
    while (printed < n_rows) {
        if (jobs == 1 && next < n_rows) {
            /* in this process, as one run of gpucoh run would */
            run_pair(&o, &wls[next / n_pr], &p, protos[next % n_pr], all, &rows_out[next]);
            next++;
        }
        for (unsigned j = 0; jobs > 1 && j < jobs && next < n_rows; j++) {
            if (pids[j])
                continue;
            fflush(NULL);
            pid_t pid = fork();
            if (pid < 0)
                fatal("compare: fork: %s", strerror(errno));
            if (!pid) {
                run_pair(&o, &wls[next / n_pr], &p, protos[next % n_pr], all, &rows_out[next]);
                _exit(0);
            }
            pids[j] = pid;
            slot_row[j] = next++;
            running++;
        }
        if (running) {
            int wst;
            pid_t got = wait(&wst);
            for (unsigned j = 0; j < jobs && got > 0; j++) {
                if (pids[j] != got)
                    continue;
                struct cmp_row *r = &rows_out[slot_row[j]];
                if (!r->done) {
                    /* the child stopped before its row: a fault (its dump is on
                     * stderr) or a usage error; the worst status is ours */
                    r->done = true;
                    r->exit_status = WIFEXITED(wst) ? WEXITSTATUS(wst) : 128 + WTERMSIG(wst);
                    snprintf(r->why, sizeof r->why, "exited %d without a result", r->exit_status);
                }
                pids[j] = 0;
                running--;
            }
        }
        /* rows in order, as soon as those before them are in */
        for (; printed < n_rows && rows_out[printed].done; printed++) {
            struct cmp_row *r = &rows_out[printed];
            const struct cmp_row *base = &rows_out[printed - printed % n_pr];
            r->speedup = r->cycles ? (double)base->cycles / (double)r->cycles : 0;
            print_row(stdout, wls[printed / n_pr].name, protos[printed % n_pr], r);
            if (r->exit_status > worst)
                worst = r->exit_status;
        }
        fflush(stdout);
    }
    free(pids);
    free(slot_row);

    /* the harmonic mean of each protocol's speedups over the workloads that
     * gave cycles (spec 002's and GPGPU-Sim studies' summary of a set) */
    double *hmean = calloc(n_pr, sizeof *hmean);
    unsigned *n_mean = calloc(n_pr, sizeof *n_mean);
    if (!hmean || !n_mean)
        abort();
    for (unsigned k = 0; k < n_pr; k++) {
        double inv = 0;
        for (unsigned w = 0; w < n_wl; w++) {
            const struct cmp_row *r = &rows_out[w * n_pr + k];
            if (r->speedup > 0) {
                inv += 1 / r->speedup;
                n_mean[k]++;
            }
        }
        hmean[k] = n_mean[k] ? n_mean[k] / inv : 0;
        printf("%-16s %-8s %-6s %12s %8.2f\n", "hmean", protos[k], "", "", hmean[k]);
    }

    if (csv && write_csv(csv, wls, protos, n_pr, rows_out, n_rows, hmean))
        worst = EXIT_USAGE;
    if (json && write_json(json, &p, wls, protos, n_pr, rows_out, n_rows, hmean, n_mean))
        worst = EXIT_USAGE;
    free(hmean);
    free(n_mean);
    munmap(rows_out, n_rows * sizeof *rows_out);
    return worst;
}
