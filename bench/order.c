/*
 * order.c - simulator speed under each memory model (docs/ordering.md): the
 * same workloads on MESI under rmo, tso, sc and sc-typeaware, and under
 * sc-typeaware with small type-aware structures that make sectors flip
 * between safe and unsafe all the time (tests/cli/order-typeaware.sh's
 * "small" sizes). Prints simulated core cycles per second and thread
 * instructions per second for each; the type-aware SC hot path
 * (src/gpu/sm.c, ta_step) is what it watches. Times are the process's CPU
 * time, so that a shared, loaded machine changes them little.
 * Use: bench-order [WORKLOAD] runs only that workload.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base/log.h"
#include "host/host.h"
#include "host/workload.h"
#include "system/machine.h"

struct bench_case {
    const char *workload;
    enum wl_size size;
};

static const struct bench_case cases[] = {
    {"gemm", WL_QUICK}, {"lock-stress", WL_TINY}, {"bfs", WL_QUICK}};

static const char *const models[][12] = {
    {"rmo", "order.model=rmo"},
    {"tso", "order.model=tso"},
    {"sc", "order.model=sc"},
    {"sc-typeaware", "order.model=sc-typeaware"},
    {"sc-ta-small", "order.model=sc-typeaware", "order.sector_bytes=4096", "order.mac_entries=8",
     "order.mac_ways=4", "order.type_cache_entries=4", "order.type_cache_ways=2",
     "order.sync_entries=8", "order.uq_entries=2", "order.tq_entries=2"},
};

static double cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    const char *only = argc > 1 ? argv[1] : NULL;
    for (unsigned c = 0; c < ARRAY_LEN(cases); c++) {
        if (only && strcmp(only, cases[c].workload))
            continue;
        const struct workload *w = wl_find(cases[c].workload);
        if (!w)
            fatal("no workload %s", cases[c].workload);
        for (unsigned k = 0; k < ARRAY_LEN(models); k++) {
            const char *sets[12] = {"coherence.protocol=mesi"};
            unsigned n = 1;
            for (unsigned i = 1; i < ARRAY_LEN(models[k]) && models[k][i]; i++)
                sets[n++] = models[k][i];
            struct config cfg;
            char err[512], why[256] = "";
            if (config_load(&cfg, config_default_file(), sets, n, err, sizeof err))
                fatal("%s", err);
            struct machine *m = machine_new(&cfg);
            struct host *h = host_new(machine_launcher(m));
            struct wl_params p = {.size = cases[c].size, .seed = 1};
            double t0 = cpu_seconds();
            int bad = w->run(h, &p, why, sizeof why);
            double dt = cpu_seconds() - t0;
            struct machine_summary s;
            machine_summary(m, &s);
            uint64_t cy = host_cycles(h);
            printf("%-12s %-6s %-13s %10llu cycles in %6.2f s CPU = %7.1f K cycles/s, "
                   "%6.2f M thread insts/s%s\n",
                   w->name, wl_size_names[cases[c].size], models[k][0], (unsigned long long)cy, dt,
                   cy / dt / 1e3, s.thread_insts / dt / 1e6, bad ? "  CHECK FAILED" : "");
            host_delete(h);
            machine_free(m);
        }
    }
    return 0;
}
