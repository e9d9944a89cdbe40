/*
 * 853-sweep-mg-stats.c - the multi-GPM statistics a sweep reads from a run's
 * JSON (docs/repro.md): link bytes between GPUs and between GPMs, the
 * invalidation class on both, lines invalidated and directory evictions over
 * every bank, the L1s' stores and atomics and their ratio (Fig. 5.10), the
 * lines directory evictions' invalidations dropped per eviction (Fig. 5.11), under
 * multi-GPM component names; all 0 for a run on one GPM.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/file.h"
#include "report/repro.h"
#include "sweep/sweep_result.h"

static void load(const char *stats_json, struct sweep_result *res)
{
    char dir[] = "/tmp/gpucoh-853-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/runs", dir);
    assert_int_equal(sweep_mkdir_p(path), 0);
    snprintf(path, sizeof path, "%s/runs/r.json", dir);
    char text[2048];
    snprintf(text, sizeof text, "{\"cycles\": 1000, \"check_passed\": true, \"stats\": {%s}}",
             stats_json);
    assert_int_equal(write_file_atomic(path, text), 0);
    struct sweep_run r = {.id = "r", .model = SWEEP_MEMORY};
    sweep_result_load(dir, &r, res);
    unlink(path);
    snprintf(path, sizeof path, "%s/runs", dir);
    rmdir(path);
    rmdir(dir);
}

static void multi_gpm_statistics_are_summed_over_components(void **state)
{
    (void)state;
    struct sweep_result res;
    load("\"sys.gpu_links.bytes.LD\": 100, \"sys.gpu_links.bytes.INV\": 24,"
         "\"sys.gpu_links.msgs.LD\": 7, \"sys.gpm_links.bytes.ST\": 50,"
         "\"sys.gpm_links.bytes.INV\": 16,"
         "\"gpu0.gpm0.l2[0].lines_invalidated\": 3, \"gpu1.gpm1.l2[1].lines_invalidated\": 2,"
         "\"gpu0.gpm1.l2[0].dir_evictions\": 4,"
         "\"gpu0.gpm0.l2[0].evict_lines_invalidated\": 2,"
         "\"gpu1.gpm1.l2[1].evict_lines_invalidated\": 4,"
         "\"gpu0.gpm0.sm[0].l1.stores\": 6, \"gpu1.gpm0.sm[1].l1.stores\": 3,"
         "\"gpu1.gpm0.sm[1].l1.atomics\": 1, \"gpu1.gpm1.sm[0].l1.cta_atomics\": 2",
         &res);
    assert_true(res.has_stats);
    assert_true(res.gpu_link_bytes == 124);
    assert_true(res.gpm_link_bytes == 66);
    assert_true(res.link_inv_bytes == 40);
    assert_true(res.lines_invalidated == 5);
    assert_true(res.dir_evictions == 4);
    assert_true(res.l1_writes == 12);
    assert_true(res.invs_per_store == 5.0 / 12);
    int k = repro_stat_find("invs_per_store");
    assert_true(k >= 0);
    assert_true(repro_stat(&res, k) == 5.0 / 12);
    assert_true(res.evict_lines_invalidated == 6);
    assert_true(repro_stat(&res, repro_stat_find("invs_per_dir_evict")) == 1.5);
    assert_true(repro_stat(&res, repro_stat_find("gpu_link_bytes")) == 124);
}

static void one_gpm_has_none(void **state)
{
    (void)state;
    struct sweep_result res;
    load("\"gpu.sm[0].l1.stores\": 6, \"gpu.l2[0].writes\": 6", &res);
    assert_true(res.l1_writes == 6);
    assert_true(res.gpu_link_bytes == 0 && res.gpm_link_bytes == 0 && res.link_inv_bytes == 0);
    assert_true(res.lines_invalidated == 0 && res.invs_per_store == 0);
    assert_true(res.dir_evictions == 0 && res.invs_per_dir_evict == 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(multi_gpm_statistics_are_summed_over_components),
        cmocka_unit_test(one_gpm_has_none),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
