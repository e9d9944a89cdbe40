/*
 * 001-engine.c - event order, clock edges, component sleep/wake, ports, and
 * the tie order: eng_at calls, then ticks by rank, whatever the order of
 * scheduling; a wake for the current time of a passed rank waits for the
 * next edge.
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
    assert_false(port_send(&p, &c)); /* full */
    assert_int_equal(p.n_full, 1);
    assert_null(port_peek(&p)); /* not ready at t=0 */
    eng_run(&e, 2999);
    assert_null(port_peek(&p));
    eng_run(&e, 3000);
    assert_ptr_equal(port_peek(&p), &a); /* ready exactly at the latency */
    assert_ptr_equal(port_pop(&p), &a);
    assert_ptr_equal(port_pop(&p), &b);
    port_destroy(&p);
    eng_destroy(&e);
}

/* A pending send (port_send_pending) keeps its place and counts against the
 * capacity at once, but is not ready, and wakes nobody, until port_ready_at
 * names its time; the receiver is woken then, for that time. */
static void pending_send_is_ready_when_released(void **state)
{
    (void)state;
    struct eng e;
    eng_init(&e);
    struct clock clk = {"core", 1000};
    struct counter rx = {.budget = 1};
    comp_init(&rx.c, &e, "rx", &clk, count_tick, NULL);
    struct port p;
    port_init(&p, "p", 2, 3000, NULL, &rx.c);
    struct msg a, b, c;
    assert_true(port_send_pending(&p, &a));
    assert_true(port_send_pending(&p, &b));
    assert_false(port_send(&p, &c)); /* the pending two fill it */
    eng_run(&e, TICK_MAX);
    assert_int_equal(rx.ticks, 0); /* nothing was announced */
    assert_null(port_peek(&p));
    port_ready_at(&p, &a, 7000);
    port_ready_at(&p, &b, 9000);
    eng_run(&e, 6999);
    assert_null(port_peek(&p));
    eng_run(&e, 7000);
    assert_int_equal(rx.ticks, 1);
    assert_int_equal(rx.seen[0], 7000); /* woken for the released time */
    assert_ptr_equal(port_pop(&p), &a);
    assert_null(port_peek(&p)); /* b is ready at 9000 */
    port_destroy(&p);
    eng_destroy(&e);
}

/* port_remove_at (l1.issue = out-of-order takes a request past a stalled
 * head): the others keep their order across the ring's wrap, and the slot
 * freed in a full port is usable again. */
static void port_remove_at_keeps_the_rest_in_order(void **state)
{
    (void)state;
    struct eng e;
    eng_init(&e);
    struct clock clk = {"core", 1000};
    struct counter rx = {.budget = 100};
    comp_init(&rx.c, &e, "rx", &clk, count_tick, NULL);
    struct port p;
    port_init(&p, "p", 4, 0, NULL, &rx.c);
    struct msg m[6];
    for (int i = 0; i < 4; i++)
        assert_true(port_send(&p, &m[i]));
    assert_ptr_equal(port_pop(&p), &m[0]);
    assert_ptr_equal(port_pop(&p), &m[1]);
    assert_true(port_send(&p, &m[4])); /* the ring wraps: 2 3 4 */
    assert_true(port_send(&p, &m[5])); /* 2 3 4 5, full */
    assert_false(port_send(&p, &m[0]));
    assert_ptr_equal(port_remove_at(&p, 2), &m[4]);
    assert_int_equal(p.n, 3);
    assert_true(port_send(&p, &m[0])); /* 2 3 5 0 */
    assert_ptr_equal(port_remove_at(&p, 0), &m[2]);
    assert_ptr_equal(port_pop(&p), &m[3]);
    assert_ptr_equal(port_pop(&p), &m[5]);
    assert_ptr_equal(port_pop(&p), &m[0]);
    assert_int_equal(p.n, 0);
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

/* --- the tie order */
struct ranked {
    struct comp c;
    struct ranked *wake_now[2]; /* woken for the current time by the first tick */
    int ticks;
};

static int tick_log[16], n_tick_log;

static bool ranked_tick(struct comp *c)
{
    struct ranked *k = (struct ranked *)c;
    tick_log[n_tick_log++] = (int)(c->eng->now / 1000 * 10 + c->rank);
    if (k->ticks++ == 0)
        for (int i = 0; i < 2; i++)
            if (k->wake_now[i])
                comp_wake(&k->wake_now[i]->c);
    return false;
}

static void mark(void *obj, uint64_t arg)
{
    (void)obj;
    tick_log[n_tick_log++] = -(int)arg;
}

static void simultaneous_ticks_run_by_rank_after_calls(void **state)
{
    (void)state;
    struct eng e;
    eng_init(&e);
    struct clock clk = {"core", 1000};
    struct ranked k[3] = {0};
    for (int i = 0; i < 3; i++)
        comp_init(&k[i].c, &e, "k", &clk, ranked_tick, NULL);
    n_tick_log = 0;
    comp_wake_at(&k[2].c, 1000);
    comp_wake_at(&k[0].c, 1000);
    eng_at(&e, 1000, mark, NULL, 1);
    comp_wake_at(&k[1].c, 1000);
    eng_at(&e, 1000, mark, NULL, 2);
    eng_run(&e, TICK_MAX);
    int want[] = {-1, -2, 10, 11, 12};
    assert_int_equal(n_tick_log, 5);
    for (int i = 0; i < 5; i++)
        assert_int_equal(tick_log[i], want[i]);
    /* eng_order: k[2] first, then k[0]; k[1] keeps its place after them */
    struct comp *order[] = {&k[2].c, &k[0].c};
    eng_order(&e, order, 2);
    assert_int_equal(k[2].c.rank, 0);
    assert_int_equal(k[0].c.rank, 1);
    assert_int_equal(k[1].c.rank, 2);
    n_tick_log = 0;
    for (int i = 0; i < 3; i++)
        comp_wake_at(&k[i].c, 2000);
    eng_run(&e, TICK_MAX);
    assert_int_equal(n_tick_log, 3);
    assert_ptr_equal(e.by_rank[0], &k[2].c);
    assert_int_equal(tick_log[0], 20);
    assert_int_equal(tick_log[1], 21);
    assert_int_equal(tick_log[2], 22);
    eng_destroy(&e);
}

/* k[1] ticks at 1000 and wakes k[0] and k[2] for now: k[2] ranks after it and
 * ticks at 1000 too; k[0]'s place at 1000 has passed, so it ticks at 2000,
 * as it would have seen the wake had it ticked every cycle. */
static void wake_for_now_of_a_passed_rank_is_the_next_edge(void **state)
{
    (void)state;
    struct eng e;
    eng_init(&e);
    struct clock clk = {"core", 1000};
    struct ranked k[3] = {0};
    for (int i = 0; i < 3; i++)
        comp_init(&k[i].c, &e, "k", &clk, ranked_tick, NULL);
    k[1].wake_now[0] = &k[0];
    k[1].wake_now[1] = &k[2];
    n_tick_log = 0;
    comp_wake_at(&k[1].c, 1000);
    eng_run(&e, TICK_MAX);
    assert_int_equal(n_tick_log, 3);
    assert_int_equal(tick_log[0], 11);
    assert_int_equal(tick_log[1], 12);
    assert_int_equal(tick_log[2], 20);
    eng_destroy(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_time_events_run_in_insertion_order),
        cmocka_unit_test(component_ticks_on_edges_while_busy_then_sleeps),
        cmocka_unit_test(port_delivers_after_latency_and_applies_backpressure),
        cmocka_unit_test(port_remove_at_keeps_the_rest_in_order),
        cmocka_unit_test(pending_send_is_ready_when_released),
        cmocka_unit_test(later_wake_survives_an_earlier_idle_tick),
        cmocka_unit_test(simultaneous_ticks_run_by_rank_after_calls),
        cmocka_unit_test(wake_for_now_of_a_passed_rank_is_the_next_edge),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
