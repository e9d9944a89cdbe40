/*
 * run-rig.h - run a registered workload on a machine built from settings and
 * return its statistics as text, for tests that compare whole runs (sleeping
 * components change no statistic; the same seed gives the same run).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef TESTS_RUN_RIG_H
#define TESTS_RUN_RIG_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/host.h"
#include "host/workload.h"
#include "system/config.h"
#include "system/machine.h"

struct rig_run {
    char *text;      /* every statistic as "name value" lines, engine.events left out */
    uint64_t events; /* engine.events */
};

struct rig_dump {
    char *text;
    size_t len;
    FILE *f;
};

static void rig_emit(void *arg, const char *name, uint64_t value)
{
    struct rig_dump *d = arg;
    fprintf(d->f, "%s %llu\n", name, (unsigned long long)value);
}

/* Run workload `wl` (tiny, seed 1) with the `n_sets` settings (as --set
 * takes them); `also`, when given, sees every statistic too. Fails the test
 * when the workload's check fails. The caller frees text. */
static struct rig_run rig_run(const char *wl, const char *const *sets, unsigned n_sets,
                              void (*also)(void *arg, const char *name, uint64_t v), void *also_arg)
{
    struct config cfg;
    char err[256];
    if (config_load(&cfg, NULL, sets, n_sets, err, sizeof err))
        fail_msg("%s", err);
    struct machine *m = machine_new(&cfg);
    struct host *h = host_new(machine_launcher(m));
    const struct workload *w = wl_find(wl);
    if (!w)
        fail_msg("workload %s is not registered", wl);
    struct wl_params wp = {.size = WL_TINY, .seed = 1, .variant = NULL};
    char why[256];
    if (w->run(h, &wp, why, sizeof why))
        fail_msg("%s (%s): check failed: %s", wl, sets[0], why);
    struct rig_dump d = {0};
    d.f = open_memstream(&d.text, &d.len);
    machine_stats(m, rig_emit, &d);
    fclose(d.f);
    if (also)
        machine_stats(m, also, also_arg);
    struct rig_run r = {.events = machine_eng(m)->n_events};
    host_delete(h);
    machine_free(m);
    char *l = strstr(d.text, "engine.events ");
    if (!l)
        fail_msg("no engine.events line");
    char *end = strchr(l, '\n');
    memmove(l, end + 1, strlen(end + 1) + 1);
    r.text = d.text;
    return r;
}

#endif
