/*
 * cmd_run.c - `gpucoh run`: run a registered workload and report.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "cli/cmds.h"
#include "cli/common.h"
#include "host/workload.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: gpucoh run --workload NAME [--size " WL_SIZE_USAGE "] [--variant V]\n"
            "                  [--input-seed N] [machine and report options]\n"
            "\n"
            "Runs a workload (gpucoh list workloads) on the simulated GPU, checks its output\n"
            "against the CPU reference, and prints cycles, instruction counts, L1/L2 hit\n"
            "rates, load latency, TC-Weak's GWCT waits (when fences waited), transactions\n"
            "(GETM, WarpTM: commits, aborts, and aborts per 1000 commits by cause, e.g.\n"
            "store_read: a store found a logically later read; docs/transactions.md), traffic\n"
            "by message class and simulator speed. --stats writes every statistic, per\n"
            "kernel launch too; --stats-series samples them over time (docs/stats.md).\n"
            "\n"
            "  --workload NAME    what to run\n"
            "  --size S           input size: tiny (tests), quick (seconds), small (default;\n"
            "                     larger than the L2 where the paper's inputs are), paper\n"
            "  --variant V        a workload-defined variant (e.g. nofence)\n"
            "  --input-seed N     seed of the generated input, 0 to 2^64-1 (default 1)\n"
            "\n%s"
            "\nexit status: 0 output correct, 1 output wrong, 2 usage or input error,\n"
            "3 simulator fault (deadlock, starvation, protocol hole; a dump of the stuck\n"
            "state is printed)\n"
            "\nexample: gpucoh run --workload mp --size tiny --protocol rc --stats mp.json\n",
            sim_opts_help);
}

int cmd_run(int argc, char **argv)
{
    struct sim_opts o = {0};
    const char *name = NULL, *variant = NULL;
    int size = WL_SMALL;
    uint64_t input_seed = 1;
    struct opt sim_rows[SIM_OPT_ROWS];
    sim_opts_rows(&o, SIM_OPT_ALL | SIM_OPT_RUN | SIM_OPT_TRACE, sim_rows);
    const struct opt rows[] = {
        OPT_STR_ROW("--workload", NULL, &name),
        OPT_ENUM_ROW("--size", NULL, &size, wl_size_names),
        OPT_STR_ROW("--variant", NULL, &variant),
        OPT_U64_ROW("--input-seed", NULL, &input_seed, 0, 0x1p64),
        OPT_END,
    };
    int rc = opt_parse("run", (const struct opt *const[]){rows, sim_rows, NULL}, argc, argv, 1,
                       NULL, usage);
    if (rc != OPT_CONTINUE)
        return rc;
    if (!name) {
        fprintf(stderr, "gpucoh run: --workload is required\n");
        usage(stderr);
        return EXIT_USAGE;
    }
    const struct workload *w = wl_find(name);
    if (!w)
        fatal("unknown workload '%s' (gpucoh list workloads)", name);
    if (variant && !wl_has_variant(w, variant)) {
        fprintf(stderr, "gpucoh run: --variant: workload %s has no variant '%s' (", w->name,
                variant);
        for (const char *const *v = w->variants; v && *v; v++)
            fprintf(stderr, "%s%s", v == w->variants ? "known: " : ", ", *v);
        fprintf(stderr, "%s)\n", w->variants ? "" : "it has none");
        return EXIT_USAGE;
    }
    struct wl_params p = {.size = (enum wl_size)size, .seed = input_seed};
    p.variant = variant;

    struct sim_session s;
    o.kernel_stats = true; /* --stats holds every statistic per launch */
    sim_open(&s, &o);
    char why[512] = "";
    int result = w->run(s.host, &p, why, sizeof why);
    char title[160];
    snprintf(title, sizeof title, "%s (%s%s%s)", w->name, wl_size_names[p.size],
             variant ? ", " : "", variant ? variant : "");
    cJSON *extra = cJSON_CreateObject();
    cJSON_AddStringToObject(extra, "workload", w->name);
    cJSON_AddStringToObject(extra, "size", wl_size_names[p.size]);
    cJSON_AddStringToObject(extra, "variant", variant ? variant : "");
    cJSON_AddBoolToObject(extra, "check_passed", result == 0);
    rc = sim_report(&s, stdout, title, extra);
    cJSON_Delete(extra);
    printf("  check           %s%s%s\n", result ? "FAILED" : "passed", result ? ": " : "",
           result ? why : "");
    sim_close(&s);
    return rc ? rc : result ? EXIT_CHECK_FAILED : 0;
}
