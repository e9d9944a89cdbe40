/*
 * 713-stc-sweep-waits.c - the statistics of where STC's stores wait, as a
 * sweep reads them from a run's JSON (docs/repro.md): the mean cycles a
 * blocked store spends in the BSQ (entry-cycles over entries, over every
 * CU), the share of stores and atomics blocked, the share of a CU's cycles
 * its stores are held by epoch changes, the cycles per transition and the
 * kernels launched; all 0 without STC. Also the SC issue rule's holds (spec
 * 004a Fig. 3.1a): per line request (sc_held_frac) and, global instructions
 * over global instructions, per warp instruction (sc_held_insts) and per
 * thread operation (sc_held_lanes), and the share of order-hold cycles spent
 * behind a store or atomic (sc_hold_on_write).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/file.h"
#include "report/repro.h"
#include "sweep/sweep_result.h"

static void load(const char *stats_json, struct sweep_result *res)
{
    char dir[] = "/tmp/gpucoh-713-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/runs", dir);
    assert_int_equal(sweep_mkdir_p(path), 0);
    snprintf(path, sizeof path, "%s/runs/r.json", dir);
    char text[2048];
    snprintf(text, sizeof text,
             "{\"cycles\": 1000, \"kernels\": 4, \"check_passed\": true, \"stats\": {%s}}",
             stats_json);
    assert_int_equal(write_file_atomic(path, text), 0);
    struct sweep_run r = {.id = "r", .model = SWEEP_MEMORY};
    sweep_result_load(dir, &r, res);
    unlink(path);
    snprintf(path, sizeof path, "%s/runs", dir);
    rmdir(path);
    rmdir(dir);
}

static double stat(const struct sweep_result *res, const char *name)
{
    int k = repro_stat_find(name);
    assert_true(k >= 0);
    return repro_stat(res, k);
}

static void waits_are_summed_over_the_cus(void **state)
{
    (void)state;
    struct sweep_result res;
    load("\"gpu.sm[0].l1.stores\": 30, \"gpu.sm[1].l1.stores\": 8, \"gpu.sm[1].l1.atomics\": 2,"
         "\"gpu.sm[0].l1.stores_blocked\": 6, \"gpu.sm[1].l1.stores_blocked\": 4,"
         "\"gpu.sm[0].l1.bsq_occupancy\": 500, \"gpu.sm[1].l1.bsq_occupancy\": 300,"
         "\"gpu.sm[0].l1.hold_cycles\": 100, \"gpu.sm[1].l1.hold_cycles\": 300,"
         "\"gpu.emu.transitions\": 8, \"gpu.emu.transition_cycles\": 320",
         &res);
    assert_true(stat(&res, "bsq_wait") == 80);        /* 800 entry-cycles / 10 entries */
    assert_true(stat(&res, "blocked_frac") == 0.25);  /* 10 of 40 stores and atomics */
    assert_true(stat(&res, "hold_frac") == 0.2);      /* 400 / 2 CUs / 1000 cycles */
    assert_true(stat(&res, "transition_mean") == 40); /* 320 / 8 */
    assert_true(stat(&res, "kernels") == 4);
    assert_true(stat(&res, "bsq_mean") == 0.4); /* unchanged: 800 / 2 CUs / 1000 cycles */
}

static void without_stc_all_are_zero(void **state)
{
    (void)state;
    struct sweep_result res;
    load("\"gpu.sm[0].l1.stores\": 6, \"gpu.l2[0].writes\": 6", &res);
    assert_true(res.bsq_wait == 0 && res.blocked_frac == 0 && res.hold_frac == 0);
    assert_true(res.transition_mean == 0 && res.kernels == 4);
}

static void sc_holds_per_request_and_per_instruction(void **state)
{
    (void)state;
    struct sweep_result res;
    load("\"gpu.sm[0].holds.order\": 6, \"gpu.sm[1].holds.order\": 4, \"gpu.sm[1].holds.cta\": 30,"
         "\"gpu.sm[0].mem_insts.LOAD\": 30, \"gpu.sm[1].mem_insts.STORE\": 8,"
         "\"gpu.sm[1].mem_insts.ATOMIC\": 2, \"gpu.sm[0].mem_insts.FENCE\": 50,"
         "\"gpu.sm[0].latency.LOAD.count\": 60, \"gpu.sm[1].latency.STORE.count\": 16,"
         "\"gpu.sm[1].latency.ATOMIC.count\": 4",
         &res);
    assert_true(stat(&res, "sc_held_frac") == 0.5);   /* 40 holds / 80 requests */
    assert_true(stat(&res, "sc_held_insts") == 0.25); /* 10 order holds / 40 instructions */
    load("\"gpu.sm[0].holds.cta\": 3, \"gpu.sm[0].mem_insts.LOAD\": 0", &res);
    assert_true(res.sc_held_insts == 0 && res.sc_held_frac == 0);
    load("\"gpu.sm[0].holds.order\": 3", &res); /* a build that did not count instructions */
    assert_true(isnan(stat(&res, "sc_held_insts")));
    assert_true(isnan(stat(&res, "sc_held_lanes")));
    load("\"gpu.sm[0].order_held_lanes\": 64, \"gpu.sm[1].order_held_lanes\": 16,"
         "\"gpu.sm[0].mem_lanes.LOAD\": 200, \"gpu.sm[1].mem_lanes.STORE\": 100,"
         "\"gpu.sm[1].mem_lanes.ATOMIC\": 20, \"gpu.sm[0].mem_lanes.FENCE\": 500",
         &res);
    assert_true(stat(&res, "sc_held_lanes") == 0.25); /* 80 held lanes / 320 lanes */
}

static void sc_hold_cycles_on_writes(void **state)
{
    (void)state;
    struct sweep_result res;
    load("\"gpu.sm[0].hold_cycles.order\": 300, \"gpu.sm[1].hold_cycles.order\": 100,"
         "\"gpu.sm[0].hold_cycles.cta\": 1000,"
         "\"gpu.sm[0].order_hold_cycles_on_write\": 250,"
         "\"gpu.sm[1].order_hold_cycles_on_write\": 50",
         &res);
    assert_true(stat(&res, "sc_hold_on_write") == 0.75); /* 300 of 400 order-hold cycles */
    assert_true(stat(&res, "sc_hold_cycles") == 1400);
    load("\"gpu.sm[0].order_hold_cycles_on_write\": 0", &res); /* no order holds at all */
    assert_true(stat(&res, "sc_hold_on_write") == 0);
    load("\"gpu.sm[0].hold_cycles.order\": 30", &res); /* a build without the counter */
    assert_true(isnan(stat(&res, "sc_hold_on_write")));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(waits_are_summed_over_the_cus),
        cmocka_unit_test(without_stc_all_are_zero),
        cmocka_unit_test(sc_holds_per_request_and_per_instruction),
        cmocka_unit_test(sc_hold_cycles_on_writes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
