/*
 * cmd_stress.c - `gpucoh stress`: the DRF random tester over protocols.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "check/stress.h"
#include "cli/cmds.h"
#include "cli/common.h"
#include "coh/proto.h"
#include "system/machine.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: gpucoh stress [--protocol NAME|all] [--episodes N] [--seed S]\n"
            "                     [--small-caches] [--warps N] [--config F] [--set K=V]...\n"
            "\n"
            "A data-race-free random tester. Warps on every SM run episodes: an atomic on a\n"
            "synchronisation variable, an acquire fence, random loads and stores to\n"
            "locations no other warp touches meanwhile, a release fence, a closing atomic.\n"
            "Locations are reused across episodes and SMs, several share a line. Every\n"
            "load is checked against the last value written; the first wrong value stops\n"
            "the run with a report (address, expected writer and value, observed value, the\n"
            "line's recent transitions and its state in every cache) and exit status 1.\n"
            "Under order.model = sc each warp waits for an access before its next (the SM's\n"
            "SC issue rule). rccsc runs only under it: name it with --set order.model=sc;\n"
            "`all` runs it so by itself. Under protocols with logical time (rccsc, rccwo) a\n"
            "completed write is visible only to readers that synchronised with its writer\n"
            "through memory, so every episode opens and closes on one variable there.\n"
            "On a machine with CPU cores (cpu.cores, under spandex-d or spandex-g: e.g.\n"
            "--config configs/spandex.ini) the CPU cores' L1s get agents too, so data moves\n"
            "between CPU and GPU L1s of different kinds (--set cpu.device=mesi|denovo), and\n"
            "a quarter of the loads are .sys loads, performed at the LLC.\n"
            "\n"
            "  --protocol NAME|all  protocols to test (default all: every one but the test-only\n"
            "                       and multi-GPM ones, which are named: nhcc, hmg, ...)\n"
            "  --episodes N         episodes to complete per protocol, 1 to 10^12 (default 20000)\n"
            "  --seed S             random seed (default 1)\n"
            "  --small-caches       tiny L1s and L2 banks and few MSHRs: evictions, recalls,\n"
            "                       MSHR pressure\n"
            "  --warps N            agents per SM, 1 to 48 (default 4)\n"
            "  --stats FILE.json    write every statistic of the machine at the end (one\n"
            "                       protocol only; written whole or not at all; schema:\n"
            "                       docs/stats.md, under \"stats\")\n"
            "  --coverage FILE      write how often each protocol transition fired, cells never\n"
            "                       fired first (one protocol only; gpucoh verify's coverage\n"
            "                       has the same format: tools/verify-vs-stress.sh)\n"
            "  --check              also run the invariant observers (golden memory)\n"
            "  --config FILE, --set SECTION.KEY=V   machine configuration, as for gpucoh run\n");
}

static void stat_to_json(void *arg, const char *name, uint64_t v)
{
    cJSON_AddNumberToObject(arg, name, (double)v);
}

/* The machine's statistics as {"protocol": ..., "stats": {...}}. */
/* What a run keeps of its machine before it goes: its statistics (--stats)
 * and its table coverage (--coverage), whichever was asked for. */
struct keep {
    cJSON *root;
    const char *coverage_file;
    bool coverage_failed;
};

static void keep_machine(struct machine *m, void *arg)
{
    struct keep *k = arg;
    if (k->root)
        machine_stats(m, stat_to_json, cJSON_AddObjectToObject(k->root, "stats"));
    if (k->coverage_file) {
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        if (!f) {
            k->coverage_failed = true;
            return;
        }
        machine_coverage(m, f);
        k->coverage_failed = fclose(f) || write_file_atomic(k->coverage_file, text);
        free(text);
    }
}

int cmd_stress(int argc, char **argv)
{
    struct sim_opts o = {0};
    const char *proto = "all";
    const char *stats_file = NULL, *coverage_file = NULL;
    bool small = false;
    struct stress_opts so = {
        .episodes = 20000, .warps_per_sm = 4, .locations = 512, .max_body = 8, .sync_vars = 8};
    uint64_t episodes = so.episodes;
    struct opt sim_rows[SIM_OPT_ROWS];
    sim_opts_rows(&o, SIM_OPT_MACHINE | SIM_OPT_CHECK, sim_rows);
    const struct opt rows[] = {
        OPT_STR_ROW("--protocol", NULL, &proto),
        OPT_U64_ROW("--episodes", NULL, &episodes, 1, 1e12),
        OPT_UINT_ROW("--warps", NULL, &so.warps_per_sm, 1, 48),
        OPT_FLAG_ROW("--small-caches", NULL, &small),
        OPT_STR_ROW("--stats", NULL, &stats_file),
        OPT_OUT_ROW("--coverage", NULL, &coverage_file),
        OPT_END,
    };
    int rc = opt_parse("stress", (const struct opt *const[]){rows, sim_rows, NULL}, argc, argv, 1,
                       NULL, usage);
    if (rc != OPT_CONTINUE)
        return rc;
    so.episodes = episodes;
    so.check = o.check;
    if ((stats_file || coverage_file) && !strcmp(proto, "all")) {
        fprintf(stderr, "gpucoh: error: --stats and --coverage need one --protocol\n");
        return EXIT_USAGE;
    }
    int worst = 0;
    for (const struct proto_desc *const *p = proto_registry; *p; p++) {
        if (strcmp(proto, "all")
                ? strcmp(proto, (*p)->name)
                : (*p)->test_only || (*p)->multi_gpm || (*p)->not_in_all || (*p)->example)
            continue;
        const char *sets[SIM_MAX_SETS + 16];
        unsigned n = 0;
        if (small)
            for (const char *const *s = stress_small_caches; *s; s++)
                sets[n++] = *s;
        for (unsigned k = 0; k < o.n_sets; k++)
            sets[n++] = o.sets[k];
        char set_proto[96], set_order[96];
        snprintf(set_proto, sizeof set_proto, "coherence.protocol=%s", (*p)->name);
        sets[n++] = set_proto;
        if ((*p)->needs_order && !strcmp(proto, "all")) {
            /* `all` runs a protocol that needs its own issue rule under it */
            snprintf(set_order, sizeof set_order, "order.model=%s", (*p)->needs_order);
            sets[n++] = set_order;
        }
        struct config cfg;
        char err[512];
        const char *file = o.config_file ? o.config_file : config_default_file();
        if (config_load(&cfg, file, sets, n, err, sizeof err))
            fatal("%s", err);
        struct stress_result r;
        struct stress_opts po = so;
        if ((*p)->logical_time)
            po.sync_vars = 1; /* every episode synchronises with the one before it */
        cJSON *root = NULL;
        struct keep keep = {.coverage_file = coverage_file};
        if (stats_file) {
            root = cJSON_CreateObject();
            cJSON_AddStringToObject(root, "protocol", (*p)->name);
            keep.root = root;
        }
        if (stats_file || coverage_file) {
            po.on_done = keep_machine;
            po.on_done_arg = &keep;
        }
        rc = stress_run(&cfg, &po, &r, stdout);
        if (keep.coverage_failed)
            worst = EXIT_USAGE;
        if (root) {
            cJSON_AddNumberToObject(root, "episodes", (double)r.episodes);
            cJSON_AddNumberToObject(root, "cycles", (double)r.cycles);
            char *text = cJSON_Print(root);
            cJSON_Delete(root);
            if (!text || write_file_atomic(stats_file, text))
                worst = EXIT_USAGE;
            free(text);
        }
        printf("stress %-8s %s: %llu episodes, %llu loads checked, %llu stores, %llu atomics, "
               "%llu cycles, %.2f s\n",
               (*p)->name, rc ? "FAILED" : "passed", (unsigned long long)r.episodes,
               (unsigned long long)r.loads, (unsigned long long)r.stores,
               (unsigned long long)r.atomics, (unsigned long long)r.cycles, r.wall_seconds);
        fflush(stdout);
        if (rc)
            worst = EXIT_CHECK_FAILED;
        if (strcmp(proto, "all"))
            return worst;
    }
    if (strcmp(proto, "all"))
        fatal("unknown protocol '%s' (gpucoh list protocols)", proto);
    return worst;
}
