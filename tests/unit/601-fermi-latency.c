/*
 * 601-fermi-latency.c - the tc-fermi machine meets spec 002's minimum
 * latencies: an L2 hit about 340 core cycles, a DRAM access about 460
 * (Table 4, from Fermi microbenchmarks), measured from the L1 accepting a
 * load to the response reaching the SM side, under nol1.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>

#include "check/inject.h"

static void l2_hit_and_dram_latency(void **state)
{
    (void)state;
    const char *sets[] = {"coherence.protocol=nol1"};
    struct config cfg;
    char err[256];
    if (config_load(&cfg, config_default_file(), sets, 1, err, sizeof err))
        fail_msg("%s", err);
    struct inject *r = inject_new(&cfg);
    unsigned miss = inject_load(r, 0, 0, 0x4000, 4, SEM_WEAK, SCOPE_CTA, 0);
    inject_run(r);
    unsigned hit = inject_load(r, 1, 0, 0x4000, 4, SEM_WEAK, SCOPE_CTA, 0);
    inject_run(r);
    uint64_t m = inject_latency(r, miss), h = inject_latency(r, hit);
    print_message("L2 hit %llu core cycles, DRAM %llu core cycles\n", (unsigned long long)h,
                  (unsigned long long)m);
    assert_in_range(h, 330, 360);
    assert_in_range(m, 440, 490);
    inject_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(l2_hit_and_dram_latency),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
