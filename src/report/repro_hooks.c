/*
 * repro_hooks.c - the named hooks a reproduction's report.ini may ask for
 * (hook = NAME): a paper-specific diagnosis printed after the figures, too
 * particular to be a figure of its own. Each is small; the rest of a
 * report is data.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/repro_values.h"

/* ---- tc-lease: where TC-Weak's time goes (the Temporal Coherence study) ---- */

/* Why TCW's leases are as long as they are: the predictor's events in each
 * app (spec 002 §3.10). The lease drifts by +t_hit per read of an expired
 * copy or line and -t_write / -t_evict per write to, or eviction of, an
 * unexpired line; when the reads win, it climbs until the clamp. */
static void predictor_events(struct repro *r)
{
    FILE *o = r->o;
    fprintf(o, "\nTCW's lease predictor, events per app (all L2 banks):\n");
    fprintf(o, "%-6s %11s %11s %11s %8s %13s %9s\n", "app", "+t_hit", "-t_write", "-t_evict",
            "L2hit", "drift/kcycle", "mean");
    fprintf(o, "%-6s %11s %11s %11s %8s %13s %9s\n", "", "exp. reads", "unexp.wr", "unexp.ev", "",
            "(Table 4)", "lease");
    unsigned n_up = 0, n_fit = 0, n_apps = 0;
    for (unsigned a = 0; a < r->n_apps; a++) {
        const struct sweep_result *t = repro_get(r, r->apps[a], "tcw");
        if (!t)
            continue;
        /* Table 4's constants, as the repro runs them. -t_write acts only on
         * writes from SMs that have fenced, so the true drift is at least this */
        double drift = 4 * t->lease_ups - 8 * t->lease_down_writes - 8 * t->lease_down_evicts;
        fprintf(o, "%-6s %11.0f %11.0f %11.0f %7.1f%% %13.1f %9.0f\n", r->apps[a], t->lease_ups,
                t->lease_down_writes, t->lease_down_evicts, 100 * t->l2_hit_rate,
                1000 * drift / t->cycles, t->lease_avg);
        n_apps++;
        n_up += drift > 0;
        n_fit += drift > 0 && t->lease_down_evicts == 0;
    }
    fprintf(o, "(drift/kcycle: 4 x reads - 8 x writes - 8 x evictions per thousand cycles, summed "
               "over banks; positive drift pushes the lease towards tc.lease_max)\n");
    if (n_apps)
        fprintf(o,
                "%u of %u app(s) drift upwards; in %u of them no L2 bank evicted an unexpired "
                "line, so -t_evict never acted.\n",
                n_up, n_apps, n_fit);
}

/* Not a figure of the paper: the measurements that explain TCW's numbers
 * beside GPU-VI's, which invalidates instead of waiting for leases. Under TC a
 * copy stays readable until its lease ends, so a warp polling a flag keeps
 * hitting the old value (more instructions, later progress), and a fence
 * after a write to a leased line waits for that lease (GWCT). */
static void tc_lease(struct repro *r)
{
    if (!repro_have(r, "tcw") || !repro_have(r, "gpuvi"))
        return;
    FILE *o = r->o;
    fprintf(o,
            "\n== Where TC-Weak's time goes: TCW beside GPU-VI (not a figure of the paper) ==\n");
    fprintf(o, "%-6s %-5s %9s %9s %8s %8s %9s %9s\n", "app", "set", "cycles", "warp-inst", "L1hit",
            "L1hit", "GWCT", "mean");
    fprintf(o, "%-6s %-5s %9s %9s %8s %8s %9s %9s\n", "", "", "tcw/vi", "tcw/vi", "gpuvi", "tcw",
            "waiters", "lease");
    unsigned n_spin = 0, n_fence = 0;
    for (unsigned a = 0; a < r->n_apps; a++) {
        const struct sweep_result *t = repro_get(r, r->apps[a], "tcw"),
                                  *v = repro_get(r, r->apps[a], "gpuvi");
        if (!t || !v)
            continue;
        double insts = v->warp_insts > 0 ? t->warp_insts / v->warp_insts : NAN;
        double waiters = t->fence_wait / t->cycles;
        fprintf(o, "%-6s %-5s %9.2f %9.2f %7.1f%% %7.1f%% %9.2f %9.0f\n", r->apps[a], r->app_set[a],
                t->cycles / v->cycles, insts, 100 * v->l1_hit_rate, 100 * t->l1_hit_rate, waiters,
                t->lease_avg);
        n_spin += insts > 1.2;
        n_fence += waiters > 0.5;
    }
    fprintf(o, "(GWCT waiters: warps waiting at a fence or release for their GWCT, on average over "
               "the run, all SMs;\n mean lease: TCW's granted lease averaged over L2 banks, core "
               "cycles)\n");
    if (n_spin)
        fprintf(o,
                "%u app(s) run over 1.2x GPU-VI's warp instructions under TCW: warps polling a "
                "flag hit their L1 copy until its lease ends, where GPU-VI's write invalidates "
                "it at once.\n",
                n_spin);
    if (n_fence)
        fprintf(o,
                "%u app(s) keep over half a warp waiting for GWCTs on average: with long "
                "leases each fence after a write to a shared line waits for that lease.\n",
                n_fence);
    predictor_events(r);
}

const struct repro_hook repro_hooks[] = {
    {"tc-lease",
     "TCW beside GPU-VI (instructions, L1 hits, GWCT waits, leases) and TCW's lease "
     "predictor events",
     tc_lease},
    {NULL, NULL, NULL},
};

const struct repro_hook *repro_hook_find(const char *name)
{
    for (const struct repro_hook *h = repro_hooks; h->name; h++)
        if (!strcmp(h->name, name))
            return h;
    return NULL;
}
