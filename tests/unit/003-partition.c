/*
 * 003-partition.c - the partitions of built machines (docs/parallel.md,
 * step 0): every config builds with condition C2 (one sender per port)
 * checked, every component lands in a partition of the machine's cut (SMs and
 * L1s on the core side, banks and DRAM on the memory side, per GPM on several
 * GPMs, one partition where a zero-latency shortcut joins the machine), and
 * the ticks counted per partition add up to the engine's events on a run. A
 * port wired to two senders is a simulator fault (exit 3) naming both.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "host/host.h"
#include "host/workload.h"
#include "sim/port.h"
#include "system/config.h"
#include "system/machine.h"

/* A machine of configs/`ini` (NULL: the defaults), under `protocol` (NULL:
 * the file's), with one more setting `extra` (may be NULL). */
static struct machine *build_with(const char *ini, const char *protocol, const char *extra)
{
    struct config cfg;
    char err[256], set[64], path[512];
    const char *sets[2];
    unsigned n = 0;
    if (protocol) {
        snprintf(set, sizeof set, "coherence.protocol=%s", protocol);
        sets[n++] = set;
    }
    if (extra)
        sets[n++] = extra;
    snprintf(path, sizeof path, GPUCOH_SOURCE_DIR "/configs/%s", ini ? ini : "");
    if (config_load(&cfg, ini ? path : NULL, sets, n, err, sizeof err))
        fail_msg("%s %s: %s", ini ? ini : "defaults", protocol ? protocol : "", err);
    return machine_new(&cfg);
}

static struct machine *build(const char *ini, const char *protocol)
{
    return build_with(ini, protocol, NULL);
}

/* Every component is in a partition of the machine. */
static void all_placed(struct machine *m)
{
    unsigned n = machine_n_partitions(m, NULL);
    assert_true(n >= 1 && n <= ENG_PARTS_MAX);
    for (const struct comp *c = machine_eng(m)->comps; c; c = c->all_next)
        if (c->part >= n)
            fail_msg("%s in partition %u of %u", c->name, c->part, n);
}

static void every_config_builds_with_one_sender_per_port(void **state)
{
    (void)state;
    /* every machine config (chopin-8gpu.ini describes the SFR model, not a machine) */
    static const char *const inis[] = {
        "ampere-a100.ini", "getm-fermi-56.ini", "getm-fermi.ini", "hmg-4x4.ini",  "hmg-scaled.ini",
        "rcc-fermi.ini",   "spandex.ini",       "stc-gcn.ini",    "tc-fermi.ini", "volta-v100.ini"};
    for (size_t i = 0; i < sizeof inis / sizeof *inis; i++) {
        struct machine *m = build(inis[i], NULL);
        all_placed(m);
        machine_free(m);
    }
    static const char *const protos[] = {"nol1", "rc", "tcw", "mesi", "gpuvi", "rccsc", "ideal"};
    for (size_t i = 0; i < sizeof protos / sizeof *protos; i++) {
        struct machine *m = build(NULL, protos[i]);
        all_placed(m);
        machine_free(m);
    }
    /* the MACs of type-aware SC and their crossbars */
    struct machine *m = build_with(NULL, "mesi", "order.model=sc-typeaware");
    all_placed(m);
    assert_int_equal(machine_n_partitions(m, NULL), 2);
    machine_free(m);
}

static void one_gpu_is_core_and_mem(void **state)
{
    (void)state;
    struct machine *m = build("tc-fermi.ini", NULL);
    const char *why = "unset";
    assert_int_equal(machine_n_partitions(m, &why), 2);
    assert_null(why);
    char buf[64];
    assert_string_equal(machine_partition_name(m, 0, buf, sizeof buf), "core");
    assert_string_equal(machine_partition_name(m, 1, buf, sizeof buf), "mem");
    assert_int_equal(machine_l1(m, 0)->part, 0);
    assert_int_equal(machine_l2(m, 0)->part, 1);
    machine_free(m);
}

static void several_gpms_are_cut_per_gpm(void **state)
{
    (void)state;
    struct machine *m = build("hmg-scaled.ini", NULL);
    unsigned n = machine_n_partitions(m, NULL);
    assert_int_equal(n, 2 * 16); /* core and mem of 16 GPMs */
    char buf[64];
    assert_string_equal(machine_partition_name(m, 2 * 5 + 1, buf, sizeof buf), "gpu1.gpm1.mem");
    assert_string_equal(machine_partition_name(m, n - 1, buf, sizeof buf), "gpu3.gpm3.mem");
    /* SM 2 and bank 2 belong to GPM 1 (2 SMs and 2 banks per GPM) */
    assert_int_equal(machine_l1(m, 2)->part, 2);
    assert_int_equal(machine_l2(m, 2)->part, 3);
    /* the sysnet's halves of GPM 5 in its mem partition */
    unsigned halves = 0;
    for (const struct comp *c = machine_eng(m)->comps; c; c = c->all_next)
        if (!strcmp(c->name, "sys.net.gpm5.send") || !strcmp(c->name, "sys.net.gpm5.receive")) {
            assert_int_equal(c->part, 2 * 5 + 1);
            halves++;
        }
    assert_int_equal(halves, 2);
    machine_free(m);
}

static void shortcuts_make_one_partition(void **state)
{
    (void)state;
    static const char *const one[][2] = {{NULL, "ideal"},
                                         {"getm-fermi.ini", NULL},
                                         {"spandex.ini", NULL},
                                         {"hmg-scaled.ini", "ideal-mg"}};
    for (size_t i = 0; i < sizeof one / sizeof *one; i++) {
        struct machine *m = build(one[i][0], one[i][1]);
        const char *why = NULL;
        assert_int_equal(machine_n_partitions(m, &why), 1);
        assert_non_null(why);
        machine_free(m);
    }
}

/* Run workload cl at tiny size; the partitions' ticks add up to the events
 * (the machine schedules no eng_at call, so every event is a tick). */
static void run_ticks_add_up(const char *ini)
{
    struct machine *m = build(ini, NULL);
    struct host *h = host_new(machine_launcher(m));
    const struct workload *w = wl_find("cl");
    assert_non_null(w);
    struct wl_params wp = {.size = WL_TINY, .seed = 1, .variant = NULL};
    char why[256];
    if (w->run(h, &wp, why, sizeof why))
        fail_msg("cl on %s: %s", ini, why);
    uint64_t sum = 0;
    unsigned n = machine_n_partitions(m, NULL);
    for (unsigned p = 0; p < n; p++) {
        if (!machine_partition_ticks(m, p))
            fail_msg("%s: partition %u ran no tick", ini, p);
        sum += machine_partition_ticks(m, p);
    }
    assert_int_equal(sum, machine_eng(m)->n_events);
    host_delete(h);
    machine_free(m);
}

static void partition_ticks_add_up_to_the_events(void **state)
{
    (void)state;
    run_ticks_add_up("tc-fermi.ini");
    run_ticks_add_up("hmg-scaled.ini");
}

static jmp_buf on_fatal;
static int exit_code;
static void test_exit(int code)
{
    exit_code = code;
    longjmp(on_fatal, 1);
}

static bool tick_nothing(struct comp *c)
{
    (void)c;
    return false;
}

static void two_senders_are_a_fault(void **state)
{
    (void)state;
    struct eng e;
    eng_init(&e);
    struct comp a, b, r;
    comp_init(&a, &e, "a", &(struct clock){"c", 1000}, tick_nothing, NULL);
    comp_init(&b, &e, "b", a.clk, tick_nothing, NULL);
    comp_init(&r, &e, "r", a.clk, tick_nothing, NULL);
    struct port p, q;
    port_init(&p, "p", 4, 1000, NULL, &r);
    port_init(&q, "q", 4, 1000, &a, &r);
    port_wire(&p, &a);
    port_wire(&p, &a); /* the same sender again is fine */
    char *buf = NULL;
    size_t len = 0;
    FILE *saved = stderr;
    for (int k = 0; k < 2; k++) {
        stderr = open_memstream(&buf, &len);
        log_set_exit(test_exit);
        exit_code = -1;
        if (!setjmp(on_fatal))
            port_wire(k ? &q : &p, &b); /* p wired to a; q names a as its sender */
        fclose(stderr);
        stderr = saved;
        log_set_exit(NULL);
        assert_int_equal(exit_code, EXIT_SIM_FAULT);
        if (!strstr(buf, k ? "port q (into r) has two senders, a and b"
                           : "port p (into r) has two senders, a and b"))
            fail_msg("message '%s'", buf);
        free(buf);
        buf = NULL;
    }
    port_destroy(&p);
    port_destroy(&q);
    eng_destroy(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_config_builds_with_one_sender_per_port),
        cmocka_unit_test(one_gpu_is_core_and_mem),
        cmocka_unit_test(several_gpms_are_cut_per_gpm),
        cmocka_unit_test(shortcuts_make_one_partition),
        cmocka_unit_test(partition_ticks_add_up_to_the_events),
        cmocka_unit_test(two_senders_are_a_fault),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
