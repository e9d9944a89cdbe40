/*
 * 900-rc-parked-load-order.c - regression: a load parked behind a full merge
 * must not be overtaken by a later store to the same line.
 *
 * Found by `gpucoh stress --small-caches`: with merge_max loads already
 * merged into an outstanding fill, the next load stalled (parked on the TBE)
 * while a younger store from the same warp went straight through; the load
 * replayed after the store was performed and returned the store's value.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "check/inject.h"

static void parked_load_keeps_program_order(void **state)
{
    (void)state;
    const char *sets[] = {"gpu.sms=2", "l2.banks=2", "l1.merge_max=1", "coherence.protocol=rc"};
    struct config cfg;
    char err[256];
    if (config_load(&cfg, NULL, sets, 4, err, sizeof err))
        fail_msg("%s", err);
    struct inject *r = inject_new(&cfg);
    unsigned a = inject_load(r, 0, 0, 0x1000, 4, SEM_WEAK, SCOPE_CTA, 0);
    unsigned b = inject_load(r, 0, 0, 0x1000, 4, SEM_WEAK, SCOPE_CTA, 1);
    unsigned c = inject_load(r, 0, 0, 0x1000, 4, SEM_WEAK, SCOPE_CTA, 2); /* parked */
    unsigned w = inject_store(r, 0, 0, 0x1000, 4, 5, SEM_WEAK, SCOPE_CTA, 3);
    unsigned d = inject_load(r, 0, 0, 0x1000, 4, SEM_WEAK, SCOPE_CTA, 4);
    inject_run(r);
    assert_int_equal(inject_coverage(r, "rc.L1", "IV", "MergeFull"), 1);
    assert_int_equal(inject_value(r, a), 0);
    assert_int_equal(inject_value(r, b), 0);
    assert_int_equal(inject_value(r, c), 0); /* older than the store */
    assert_true(inject_done(r, w));
    assert_int_equal(inject_value(r, d), 5); /* younger than the store */
    inject_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parked_load_keeps_program_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
