/*
 * 201-order.c - ordering policy tables: PTX release/acquire, naive TSO, SC.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "gpu/order.h"

static void rmo_weak_ops_issue_freely(void **state)
{
    (void)state;
    const struct order_policy *p = order_find("rmo");
    struct order_warp w = {0};
    assert_non_null(p);
    for (int i = 0; i < 3; i++) {
        assert_true(order_may_issue(p, &w, MEM_LOAD, SEM_WEAK));
        order_issue(p, &w, MEM_LOAD, SEM_WEAK);
        assert_true(order_may_issue(p, &w, MEM_STORE, SEM_RELAXED));
        order_issue(p, &w, MEM_STORE, SEM_RELAXED);
        assert_true(order_may_issue(p, &w, MEM_ATOMIC, SEM_RELAXED));
        order_issue(p, &w, MEM_ATOMIC, SEM_RELAXED);
    }
    assert_int_equal(w.n[ORDER_LD], 3);
    assert_int_equal(w.n[ORDER_ST], 3);
    assert_int_equal(w.n[ORDER_ATOM], 3);
    assert_int_equal(w.n[ORDER_ACQ], 0);
    assert_true(order_may_issue(p, &w, MEM_LOAD, SEM_ACQUIRE)); /* acquire waits for nothing */
}

static void rmo_release_waits_for_everything_earlier(void **state)
{
    (void)state;
    const struct order_policy *p = order_find("rmo");
    struct order_warp w = {0};
    order_issue(p, &w, MEM_STORE, SEM_WEAK);
    order_issue(p, &w, MEM_LOAD, SEM_WEAK);
    assert_false(order_may_issue(p, &w, MEM_STORE, SEM_RELEASE));
    assert_false(order_may_issue(p, &w, MEM_ATOMIC, SEM_RELEASE));
    assert_false(order_may_issue(p, &w, MEM_ATOMIC, SEM_ACQ_REL));
    assert_false(order_may_issue(p, &w, MEM_FENCE, SEM_SC));
    assert_false(order_may_issue(p, &w, MEM_KERNEL_END, SEM_RELEASE));
    order_complete(p, &w, MEM_STORE, SEM_WEAK);
    assert_false(order_may_issue(p, &w, MEM_STORE, SEM_RELEASE)); /* the load is still out */
    order_complete(p, &w, MEM_LOAD, SEM_WEAK);
    assert_true(order_may_issue(p, &w, MEM_STORE, SEM_RELEASE));
    assert_int_equal(w.nz, 0);
    /* a release does not hold later weak ops */
    order_issue(p, &w, MEM_STORE, SEM_RELEASE);
    assert_true(order_may_issue(p, &w, MEM_LOAD, SEM_WEAK));
}

static void rmo_acquire_holds_later_ops(void **state)
{
    (void)state;
    const struct order_policy *p = order_find("rmo");
    struct order_warp w = {0};
    order_issue(p, &w, MEM_LOAD, SEM_ACQUIRE);
    assert_false(order_may_issue(p, &w, MEM_LOAD, SEM_WEAK));
    assert_false(order_may_issue(p, &w, MEM_STORE, SEM_WEAK));
    assert_false(order_may_issue(p, &w, MEM_ATOMIC, SEM_RELAXED));
    order_complete(p, &w, MEM_LOAD, SEM_ACQUIRE);
    assert_true(order_may_issue(p, &w, MEM_LOAD, SEM_WEAK));
    /* fences act as both */
    order_issue(p, &w, MEM_LOAD, SEM_WEAK);
    assert_false(order_may_issue(p, &w, MEM_FENCE, SEM_ACQ_REL));
    order_complete(p, &w, MEM_LOAD, SEM_WEAK);
    order_issue(p, &w, MEM_FENCE, SEM_ACQ_REL);
    assert_false(order_may_issue(p, &w, MEM_STORE, SEM_WEAK));
    order_complete(p, &w, MEM_FENCE, SEM_ACQ_REL);
    assert_int_equal(w.nz, 0);
}

static void tso_and_sc(void **state)
{
    (void)state;
    const struct order_policy *t = order_find("tso"), *s = order_find("sc");
    assert_non_null(t);
    assert_non_null(s);
    assert_null(order_find("rmo-unknown"));
    struct order_warp w = {0};
    order_issue(t, &w, MEM_STORE, SEM_WEAK);
    assert_true(order_may_issue(t, &w, MEM_LOAD, SEM_WEAK));   /* W->R relaxed */
    assert_false(order_may_issue(t, &w, MEM_STORE, SEM_WEAK)); /* W->W kept */
    order_issue(t, &w, MEM_LOAD, SEM_WEAK);
    assert_false(order_may_issue(t, &w, MEM_LOAD, SEM_WEAK)); /* R->R kept */
    struct order_warp v = {0};
    order_issue(s, &v, MEM_LOAD, SEM_WEAK);
    assert_false(order_may_issue(s, &v, MEM_LOAD, SEM_WEAK));
    assert_false(order_may_issue(s, &v, MEM_STORE, SEM_WEAK));
    order_complete(s, &v, MEM_LOAD, SEM_WEAK);
    assert_true(order_may_issue(s, &v, MEM_STORE, SEM_WEAK));
    /* policy names match the config enum */
    for (unsigned i = 0; order_policies[i]; i++)
        assert_string_equal(order_policies[i]->name, order_policy_names[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rmo_weak_ops_issue_freely),
        cmocka_unit_test(rmo_release_waits_for_everything_earlier),
        cmocka_unit_test(rmo_acquire_holds_later_ops),
        cmocka_unit_test(tso_and_sc),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
