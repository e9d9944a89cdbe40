/*
 * 602-coh-sleep.c - controllers that sleep on a resource stall change no result.
 *
 * An L1 or L2 controller whose only work is a request stalled on a full
 * output port or TBE table sleeps until a port wakes it (coherence.sleep, the
 * default), and counts the cycles it slept through as stalled ticks when it
 * wakes. Exact: every statistic of such a run equals the one of a run whose
 * controllers tick every cycle (coherence.sleep=false), except the engine's
 * event count, which is lower. Checked under every protocol family on
 * workloads and machines chosen to stall: narrow crossbar buffers and few
 * L1 MSHRs (L1s stall on their request port), few L2 MSHRs and a short DRAM
 * queue (banks stall on their DRAM port), and TC's bank on an L2 of one way
 * per set (a request waits for a busy way).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "run-rig.h"

struct result {
    char *text;      /* "name value" lines, engine.events left out */
    uint64_t events; /* engine.events */
    uint64_t stalls; /* every controller's resource_stalls */
};

static void sum_stalls(void *arg, const char *name, uint64_t value)
{
    size_t n = strlen(name), k = strlen("resource_stalls");
    if (n >= k && !strcmp(name + n - k, "resource_stalls"))
        *(uint64_t *)arg += value;
}

/* Run workload `wl` (tiny, seed 1) under `proto` with the settings `m1`,
 * `m2`, `m3` (NULL: none) and coherence.sleep = `sleep`. */
static struct result run(const char *wl, const char *proto, const char *m1, const char *m2,
                         const char *m3, bool sleep)
{
    char p[64];
    snprintf(p, sizeof p, "coherence.protocol=%s", proto);
    const char *sets[] = {p, m1, m2, sleep ? "coherence.sleep=true" : "coherence.sleep=false", m3};
    struct result r = {0};
    struct rig_run x = rig_run(wl, sets, m3 ? 5 : 4, sum_stalls, &r.stalls);
    r.text = x.text;
    r.events = x.events;
    return r;
}

#define L1_STALLS "noc.vc_flits=2", "l1.mshrs=8"
#define L2_STALLS "l2.mshrs=2", "dram.queue=2"

static const struct {
    const char *wl, *proto, *m1, *m2, *m3;
} cases[] = {
    {"saxpy", "nol1", L1_STALLS},
    {"kmn", "rc", L1_STALLS},
    {"cl", "gpuvi", L1_STALLS}, /* invalidations held by a full ack vnet */
    {"cl", "gpuvini", L1_STALLS},
    {"cl", "ideal", L1_STALLS},
    {"kmn", "mesi", L1_STALLS},
    {"kmn", "mesi", L2_STALLS}, /* directory banks on their DRAM port */
    {"cl", "tcs", L1_STALLS},
    {"kmn", "tcw", L1_STALLS}, /* leases, GWCT waits */
    {"saxpy", "rc", L2_STALLS},
    /* TC's bank: a set whose one way is busy (a fill, a TC-Strong write
     * waiting for leases) and full MSHRs, which time alone may free (an MI
     * entry's timestamp passing: the bank wakes for it) */
    {"kmn", "tcs", "l2.size=2048", "l2.ways=1"},
    {"kmn", "tcw", "l2.size=2048", "l2.ways=1"},
    {"kmn", "tcs", L2_STALLS},
    /* ... and a stall that a fill clears before the MI entry's timestamp
     * passes: the wake-up asked for that time is left over, in both modes
     * alike (it once was asked for only when sleeping, and when it was the
     * last event of a kernel's settling, the next launch started later) */
    {"kmn", "tcw", "l2.size=4096", "l2.ways=1", "tc.lease=fixed:12800"},
};

static void sleeping_controllers_change_no_statistic(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct result s =
            run(cases[i].wl, cases[i].proto, cases[i].m1, cases[i].m2, cases[i].m3, true);
        struct result t =
            run(cases[i].wl, cases[i].proto, cases[i].m1, cases[i].m2, cases[i].m3, false);
        print_message("%-5s %-7s %s: %llu resource stalls; events %llu sleeping, %llu ticking\n",
                      cases[i].wl, cases[i].proto, cases[i].m1, (unsigned long long)s.stalls,
                      (unsigned long long)s.events, (unsigned long long)t.events);
        assert_string_equal(s.text, t.text);
        assert_true(s.stalls > 0);        /* the case does stall ... */
        assert_true(s.events < t.events); /* ... and sleeping saved ticks */
        free(s.text);
        free(t.text);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sleeping_controllers_change_no_statistic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
