/*
 * cmd_compare.c - `gpucoh compare`: the same workloads under several
 * protocols, side by side - the question gpucoh exists to answer.
 *
 * Runs every (workload, protocol) pair in this process, one fresh machine
 * each, checks every output against its CPU reference, and prints one table:
 * cycles, speedup over the first protocol, L1 hit rate, interconnect traffic
 * by class; --csv writes the same rows for plotting.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "cli/cmds.h"
#include "cli/common.h"
#include "host/workload.h"

#define MAX_ITEMS 64

static void usage(FILE *out)
{
    fprintf(out,
            "usage: gpucoh compare [--workloads A,B,...|all|SET] [--protocols P,Q,...|all]\n"
            "                      [--size " WL_SIZE_USAGE "] [--csv FILE] [machine options]\n"
            "\n"
            "Runs each workload under each protocol on a fresh machine and prints cycles,\n"
            "speedup over the first protocol, L1 load hit rate and traffic by message class.\n"
            "Every output is checked against its CPU reference; a wrong one is marked and\n"
            "makes the exit status 1. SET is a workload set: basic, inter, intra, sync, order,\n"
            "stc, stc-reuse, mg (gpucoh list workloads).\n"
            "`--protocols all` runs a protocol that needs its own order.model (rccsc: sc)\n"
            "under it; named, it needs --set order.model=sc.\n"
            "\n"
            "  --workloads LIST      workloads or sets, comma-separated (default all)\n"
            "  --protocols LIST      protocols, comma-separated, or all (default: every one\n"
            "                        that is not test-only, multi-GPM ones aside: name\n"
            "                        those, e.g. nhcc,hmg); --protocol NAME adds one\n"
            "  --size S              input size (default tiny)\n"
            "  --csv FILE            write the table's rows as CSV\n"
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

int cmd_compare(int argc, char **argv)
{
    struct sim_opts o = {0};
    char wl_list[4096] = "", pr_list[4096] = "";
    struct list_arg wl_arg = {wl_list, sizeof wl_list}, pr_arg = {pr_list, sizeof pr_list};
    const char *csv = NULL;
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
        OPT_END,
    };
    int rc = opt_parse("compare", (const struct opt *const[]){rows, sim_rows, NULL}, argc, argv,
                       1, NULL, usage);
    if (rc != OPT_CONTINUE)
        return rc;
    p.size = (enum wl_size)size;
    const struct workload *wls[MAX_ITEMS];
    unsigned n_wl = 0;
    const char *names[MAX_ITEMS];
    unsigned n_names = split(wl_list, names);
    for (const struct workload *const *w = wl_registry; *w && n_wl < MAX_ITEMS; w++) {
        bool take = !n_names;
        for (unsigned k = 0; k < n_names; k++)
            take |= !strcmp(names[k], "all") || !strcmp(names[k], (*w)->set);
        if (take)
            wls[n_wl++] = *w;
    }
    for (unsigned k = 0; k < n_names; k++) {
        const struct workload *w = wl_find(names[k]);
        bool is_set = !strcmp(names[k], "all");
        for (const struct workload *const *s = wl_registry; *s; s++)
            is_set |= !strcmp(names[k], (*s)->set);
        if (w && n_wl < MAX_ITEMS)
            wls[n_wl++] = w;
        else if (!w && !is_set)
            fatal("unknown workload '%s' (gpucoh list workloads)", names[k]);
    }
    const char *protos[MAX_ITEMS];
    unsigned n_pr = 0;
    if (!pr_list[0] || !strcmp(pr_list, "all")) {
        for (const struct proto_desc *const *q = proto_registry; *q && n_pr < MAX_ITEMS; q++)
            if (!(*q)->test_only && !(*q)->multi_gpm && !(*q)->not_in_all)
                protos[n_pr++] = (*q)->name;
    } else {
        n_pr = split(pr_list, protos);
        for (unsigned k = 0; k < n_pr; k++)
            if (!proto_find(protos[k]))
                fatal("unknown protocol '%s' (gpucoh list protocols)", protos[k]);
    }
    if (!n_wl || !n_pr)
        fatal("nothing to compare");

    FILE *csvf = NULL;
    char *csv_text = NULL;
    size_t csv_len = 0;
    if (csv) {
        csvf = open_memstream(&csv_text, &csv_len);
        fprintf(csvf, "workload,set,protocol,check,cycles,speedup,l1_hit_rate,bytes");
        for (unsigned c = 0; c < TRAFFIC_N; c++)
            fprintf(csvf, ",bytes_%s", traffic_class_names[c]);
        fputc('\n', csvf);
    }
    printf("%-16s %-8s %-6s %12s %8s %7s %12s", "workload", "protocol", "check", "cycles",
           "speedup", "L1hit%", "traffic(B)");
    for (unsigned c = 0; c < TRAFFIC_N; c++)
        printf(" %10s", traffic_class_names[c]);
    putchar('\n');
    int worst = 0;
    for (unsigned w = 0; w < n_wl; w++) {
        uint64_t base_cycles = 0;
        for (unsigned k = 0; k < n_pr; k++) {
            struct sim_opts ok = o;
            char set[96], set_order[96];
            snprintf(set, sizeof set, "coherence.protocol=%s", protos[k]);
            if (ok.n_sets + 1 >= SIM_MAX_SETS)
                fatal("too many --set options");
            ok.sets[ok.n_sets++] = set;
            const struct proto_desc *pd = proto_find(protos[k]);
            if (pd->needs_order && (!pr_list[0] || !strcmp(pr_list, "all"))) {
                /* `all` runs a protocol that needs its own issue rule under it */
                snprintf(set_order, sizeof set_order, "order.model=%s", pd->needs_order);
                ok.sets[ok.n_sets++] = set_order;
            }
            ok.quiet = true;
            struct sim_session s;
            sim_open(&s, &ok);
            char why[512] = "";
            int result = wls[w]->run(s.host, &p, why, sizeof why);
            struct machine_summary m;
            machine_summary(s.machine, &m);
            if (!k)
                base_cycles = m.cycles;
            uint64_t total = 0;
            for (unsigned c = 0; c < TRAFFIC_N; c++)
                total += m.bytes[c];
            double speedup = m.cycles ? (double)base_cycles / (double)m.cycles : 0;
            double hit = m.l1_accesses ? 100.0 * m.l1_hits / m.l1_accesses : 0;
            printf("%-16s %-8s %-6s %12llu %8.2f %7.1f %12llu", wls[w]->name, protos[k],
                   result ? "WRONG" : "ok", (unsigned long long)m.cycles, speedup, hit,
                   (unsigned long long)total);
            for (unsigned c = 0; c < TRAFFIC_N; c++)
                printf(" %10llu", (unsigned long long)m.bytes[c]);
            putchar('\n');
            if (result)
                printf("    %s: %s\n", wls[w]->name, why);
            fflush(stdout);
            if (csvf) {
                fprintf(csvf, "%s,%s,%s,%s,%llu,%.4f,%.4f,%llu", wls[w]->name, wls[w]->set,
                        protos[k], result ? "wrong" : "ok", (unsigned long long)m.cycles,
                        speedup, hit / 100, (unsigned long long)total);
                for (unsigned c = 0; c < TRAFFIC_N; c++)
                    fprintf(csvf, ",%llu", (unsigned long long)m.bytes[c]);
                fputc('\n', csvf);
            }
            if (result)
                worst = EXIT_CHECK_FAILED;
            sim_close(&s);
        }
    }
    if (csvf) {
        fclose(csvf);
        if (write_file_atomic(csv, csv_text))
            worst = EXIT_USAGE;
        free(csv_text);
    }
    return worst;
}
