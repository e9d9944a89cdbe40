/*
 * 211-sm-sleep.c - sleeping SMs change no result, and a run is reproducible.
 *
 * An SM sleeps through cycles in which no warp can issue and nothing else in
 * it can move (sm.sleep, the default), and counts the stall reasons of the
 * cycles it slept when it wakes. The engine's tie order (eng.h) makes that
 * exact: every statistic of a run with sleeping SMs equals the one of a run
 * whose SMs tick every cycle, except the engine's event count. And a run
 * repeated with the same configuration and seed gives bit-identical
 * statistics, events included. Checked on workloads with barriers, ALU
 * chains, spin locks and atomics under several protocols.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "host/host.h"
#include "host/workload.h"
#include "system/config.h"
#include "system/machine.h"

struct dump {
    char *text;
    size_t len;
    FILE *f;
};

static void emit(void *arg, const char *name, uint64_t value)
{
    struct dump *d = arg;
    fprintf(d->f, "%s %llu\n", name, (unsigned long long)value);
}

/* Run workload `wl` (tiny, seed 1) under `proto` with sm.sleep = `sleep` and
 * return its statistics as "name value" lines (caller frees). */
static char *run_stats(const char *wl, const char *proto, bool sleep, uint64_t *events)
{
    char p[64];
    snprintf(p, sizeof p, "coherence.protocol=%s", proto);
    const char *sets[] = {p, sleep ? "sm.sleep=true" : "sm.sleep=false"};
    struct config cfg;
    char err[256];
    if (config_load(&cfg, NULL, sets, 2, err, sizeof err))
        fail_msg("%s", err);
    struct machine *m = machine_new(&cfg);
    struct host *h = host_new(machine_launcher(m));
    const struct workload *w = wl_find(wl);
    if (!w)
        fail_msg("workload %s is not registered", wl);
    struct wl_params wp = {.size = WL_TINY, .seed = 1, .variant = NULL};
    char why[256];
    if (w->run(h, &wp, why, sizeof why))
        fail_msg("%s under %s: check failed: %s", wl, proto, why);
    struct dump d = {0};
    d.f = open_memstream(&d.text, &d.len);
    machine_stats(m, emit, &d);
    fclose(d.f);
    *events = machine_eng(m)->n_events;
    host_delete(h);
    machine_free(m);
    return d.text;
}

/* The statistics without the engine's event count. */
static void drop_events(char *text)
{
    char *l = strstr(text, "engine.events ");
    if (!l)
        fail_msg("no engine.events line");
    char *end = strchr(l, '\n');
    memmove(l, end + 1, strlen(end + 1) + 1);
}

static const struct {
    const char *wl, *proto;
} cases[] = {
    {"hsp", "rc"},  /* barriers, shared memory */
    {"kmn", "tcw"}, /* ALU chains, leases */
    {"cl", "mesi"}, /* spin locks */
    {"sr", "gpuvi"},
};

static void sleeping_sms_change_no_statistic(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint64_t ev_sleep, ev_tick;
        char *s = run_stats(cases[i].wl, cases[i].proto, true, &ev_sleep);
        char *t = run_stats(cases[i].wl, cases[i].proto, false, &ev_tick);
        print_message("%-4s %-6s events: %llu sleeping, %llu ticking\n", cases[i].wl,
                      cases[i].proto, (unsigned long long)ev_sleep, (unsigned long long)ev_tick);
        drop_events(s);
        drop_events(t);
        assert_string_equal(s, t);
        assert_true(ev_sleep < ev_tick);
        free(s);
        free(t);
    }
}

static void same_config_and_seed_is_bit_identical(void **state)
{
    (void)state;
    for (size_t i = 0; i < 2; i++) {
        uint64_t e1, e2;
        char *a = run_stats(cases[i].wl, cases[i].proto, true, &e1);
        char *b = run_stats(cases[i].wl, cases[i].proto, true, &e2);
        assert_string_equal(a, b);
        assert_int_equal(e1, e2);
        free(a);
        free(b);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sleeping_sms_change_no_statistic),
        cmocka_unit_test(same_config_and_seed_is_bit_identical),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
