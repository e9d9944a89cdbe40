/*
 * 001-engine.c - event order, clock edges, component sleep/wake, ports.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "sim/eng.h"
#include "sim/port.h"

static int order[8], n_order;
static void record(void *obj, uint64_t arg)
{
    (void)obj;
    order[n_order++] = (int)arg;
}

static void same_time_events_run_in_insertion_order(void **state)
{
    (void)state;
    struct eng e;
    eng_init(&e);
    n_order = 0;
    eng_at(&e, 100, record, NULL, 1);
    eng_at(&e, 50, record, NULL, 2);
    eng_at(&e, 100, record, NULL, 3);
    eng_at(&e, 100, record, NULL, 4);
    eng_run(&e, TICK_MAX);
    assert_int_equal(n_order, 4);
    assert_int_equal(order[0], 2);
    assert_int_equal(order[1], 1);
    assert_int_equal(order[2], 3);
    assert_int_equal(order[3], 4);
    assert_int_equal(e.now, 100);
    eng_destroy(&e);
}

struct counter {
    struct comp c;
    int ticks, budget;
    tick_t seen[16];
};

static bool count_tick(struct comp *c)
{
    struct counter *k = (struct counter *)c;
    k->seen[k->ticks++] = c->eng->now;
    return --k->budget > 0;
}

static void component_ticks_on_edges_while_busy_then_sleeps(void **state)
{
    (void)state;
    struct eng e;
    eng_init(&e);
    struct clock clk = {"core", 1000};
    struct counter k = {.budget = 3};
    comp_init(&k.c, &e, "k", &clk, count_tick, NULL);
    eng_at(&e, 1500, record, NULL, 0); /* unrelated event to advance time */
    eng_run(&e, TICK_MAX);
    comp_wake(&k.c); /* at 1500: first edge is 2000 */
    eng_run(&e, TICK_MAX);
    assert_int_equal(k.ticks, 3);
    assert_int_equal(k.seen[0], 2000);
    assert_int_equal(k.seen[1], 3000);
    assert_int_equal(k.seen[2], 4000);
    /* asleep now: no more ticks without a wake */
    eng_run(&e, TICK_MAX);
    assert_int_equal(k.ticks, 3);
    eng_destroy(&e);
}

static void port_delivers_after_latency_and_applies_backpressure(void **state)
{
    (void)state;
    struct eng e;
    eng_init(&e);
    struct clock clk = {"core", 1000};
    struct counter rx = {.budget = 100};
    comp_init(&rx.c, &e, "rx", &clk, count_tick, NULL);
    struct port p;
    port_init(&p, "p", 2, 3000, NULL, &rx.c);
    struct msg a, b, c;
    assert_true(port_send(&p, &a));
    assert_true(port_send(&p, &b));
    assert_false(port_send(&p, &c));   /* full */
    assert_int_equal(p.n_full, 1);
    assert_null(port_peek(&p));        /* not ready at t=0 */
    eng_run(&e, 2999);
    assert_null(port_peek(&p));
    eng_run(&e, 3000);
    assert_ptr_equal(port_peek(&p), &a); /* ready exactly at the latency */
    assert_ptr_equal(port_pop(&p), &a);
    assert_ptr_equal(port_pop(&p), &b);
    port_destroy(&p);
    eng_destroy(&e);
}

/* A wake asked for while an earlier tick is pending must survive that tick
 * going back to sleep. */
struct sleeper {
    struct comp c;
    int ticks;
    tick_t seen[4];
};

static bool sleeper_tick(struct comp *c)
{
    struct sleeper *s = (struct sleeper *)c;
    s->seen[s->ticks++] = c->eng->now;
    return false;
}

static void later_wake_survives_an_earlier_idle_tick(void **state)
{
    (void)state;
    struct eng e;
    eng_init(&e);
    struct clock clk = {"core", 1000};
    struct sleeper s = {0};
    comp_init(&s.c, &e, "s", &clk, sleeper_tick, NULL);
    comp_wake_at(&s.c, 1000);
    comp_wake_at(&s.c, 5000); /* later than the pending tick */
    comp_wake_at(&s.c, 3000); /* and another in between */
    eng_run(&e, TICK_MAX);
    assert_int_equal(s.ticks, 3);
    assert_int_equal(s.seen[0], 1000);
    assert_int_equal(s.seen[1], 3000);
    assert_int_equal(s.seen[2], 5000);
    eng_destroy(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_time_events_run_in_insertion_order),
        cmocka_unit_test(component_ticks_on_edges_while_busy_then_sleeps),
        cmocka_unit_test(port_delivers_after_latency_and_applies_backpressure),
        cmocka_unit_test(later_wake_survives_an_earlier_idle_tick),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
