/*
 * 002-engine-queue.c - the event queue against a reference order, duplicate
 * wakes, and ports whose ring grows.
 *
 * The queue keeps a slot per distinct time (eng_at calls in a FIFO, ticks as
 * a bit per rank) in a timing wheel, the times beyond its reach in a heap;
 * these tests check the calls against the order they must run in, (time,
 * scheduling order), computed independently by a stable sort, for many events
 * (enough to wrap the wheel and grow the far heap and hash several times, and
 * a time scheduled while far and again once near), including events scheduled
 * for the current time from inside an event. A component woken several
 * times for one edge ticks once and costs one event. A port whose capacity
 * exceeds its first ring keeps FIFO order, ready times and weights as it
 * grows. Many components, some registered while ticks are pending (a slot's
 * rank bits grow), tick once per wake time, in rank order.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <cmocka.h>

#include "base/rng.h"
#include "sim/eng.h"
#include "sim/port.h"

#define N_EV 20000

struct ref {
    tick_t when;
    unsigned seq;
};

static unsigned got[2 * N_EV], n_got;
static struct ref refs[2 * N_EV];
static unsigned n_refs;
static struct eng *the_eng;

static int by_when_then_seq(const void *a, const void *b)
{
    const struct ref *x = a, *y = b;
    if (x->when != y->when)
        return x->when < y->when ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void record(void *obj, uint64_t arg)
{
    (void)obj;
    got[n_got++] = (unsigned)arg;
}

/* Every third event schedules one more at the current time (it must run
 * after everything already scheduled for now), another third one a little
 * later (as ticks do: slots are looked up while others are retired). */
static void record_and_add(void *obj, uint64_t arg)
{
    record(obj, arg);
    if (arg % 3 != 2 && n_refs < 2 * N_EV) {
        tick_t when = the_eng->now + (arg % 3 ? 714 * (1 + arg % 40) : 0);
        refs[n_refs] = (struct ref){when, n_refs};
        eng_at(the_eng, when, arg % 3 ? record_and_add : record, NULL, n_refs);
        n_refs++;
    }
}

static void many_events_run_in_time_then_scheduling_order(void **state)
{
    (void)state;
    struct eng e;
    eng_init(&e);
    the_eng = &e;
    struct rng g;
    rng_seed(&g, 7, 0);
    n_got = n_refs = 0;
    for (unsigned i = 0; i < N_EV; i++) {
        /* few distinct times, so that most slots hold several events */
        tick_t when = 714 * rng_below(&g, 3000);
        refs[n_refs] = (struct ref){when, n_refs};
        eng_at(&e, when, record_and_add, NULL, n_refs);
        n_refs++;
    }
    eng_run(&e, TICK_MAX);
    assert_false(eng_pending(&e));
    assert_int_equal(n_got, n_refs);
    /* the added events carry a later sequence number than every event
     * scheduled before them, so the reference order is a stable sort */
    qsort(refs, n_refs, sizeof *refs, by_when_then_seq);
    for (unsigned i = 0; i < n_refs; i++)
        assert_int_equal(got[i], refs[i].seq);
    eng_destroy(&e);
}

static void next_time_and_until(void **state)
{
    (void)state;
    struct eng e;
    eng_init(&e);
    n_got = 0;
    assert_int_equal(eng_next_time(&e), TICK_MAX);
    eng_at(&e, 300, record, NULL, 3);
    eng_at(&e, 100, record, NULL, 1);
    eng_at(&e, 200, record, NULL, 2);
    assert_int_equal(eng_next_time(&e), 100);
    assert_false(eng_run(&e, 250)); /* stopped by the limit, not dry */
    assert_int_equal(n_got, 2);
    assert_int_equal(eng_next_time(&e), 300);
    assert_true(eng_run(&e, TICK_MAX));
    assert_int_equal(n_got, 3);
    assert_int_equal(got[2], 3);
    eng_destroy(&e);
}

/* Schedules event 2 for `far` (arg 1), once that time is within the wheel's
 * reach. */
static tick_t far;

static void add_at_far(void *obj, uint64_t arg)
{
    record(obj, arg);
    eng_at(the_eng, far, record, NULL, 2);
}

/* A time first scheduled beyond the wheel's reach and again once near is one
 * slot: its calls run in scheduling order, and the wheel's wrap-around puts a
 * time of the next turn (same bucket) after it. */
static void far_time_scheduled_again_when_near_is_one_slot(void **state)
{
    (void)state;
    struct eng e;
    eng_init(&e);
    the_eng = &e;
    n_got = 0;
    tick_t reach = (tick_t)ENG_WHEEL_BUCKETS << ENG_WHEEL_SHIFT;
    far = 3 * reach + 714;
    eng_at(&e, far, record, NULL, 0);                 /* far when scheduled */
    eng_at(&e, far + reach, record, NULL, 4);         /* same bucket, a turn later */
    eng_at(&e, far, record, NULL, 3);                 /* far when scheduled, after 0 */
    eng_at(&e, far - reach / 2, add_at_far, NULL, 1); /* schedules 2 at far, then near (the
                                                         slot used last is not far's) */
    assert_int_equal(eng_next_time(&e), far - reach / 2);
    assert_true(eng_run(&e, TICK_MAX));
    assert_int_equal(n_got, 5);
    assert_int_equal(got[0], 1);
    assert_int_equal(got[1], 0);
    assert_int_equal(got[2], 3);
    assert_int_equal(got[3], 2);
    assert_int_equal(got[4], 4);
    assert_int_equal(e.now, far + reach);
    eng_destroy(&e);
}

struct counter {
    struct comp c;
    int ticks;
    tick_t seen[8];
};

static bool count_tick(struct comp *c)
{
    struct counter *k = (struct counter *)c;
    if (k->ticks < 8)
        k->seen[k->ticks] = c->eng->now;
    k->ticks++;
    return false;
}

static void repeated_wakes_for_one_edge_cost_one_event(void **state)
{
    (void)state;
    struct eng e;
    eng_init(&e);
    struct clock clk = {"core", 1000};
    struct counter k = {0};
    comp_init(&k.c, &e, "k", &clk, count_tick, NULL);
    for (int i = 0; i < 5; i++) {
        comp_wake_at(&k.c, 2500); /* edge 3000 */
        comp_wake_at(&k.c, 3000);
        comp_wake_at(&k.c, 7000);
    }
    eng_run(&e, TICK_MAX);
    assert_int_equal(k.ticks, 2);
    assert_int_equal(k.seen[0], 3000);
    assert_int_equal(k.seen[1], 7000);
    assert_int_equal(e.n_events, 2);
    /* more distinct pending wakes than the component remembers: each still
     * ticks exactly once */
    for (int i = 10; i > 0; i--)
        comp_wake_at(&k.c, 10000 + 1000 * (tick_t)i);
    for (int i = 1; i <= 10; i++)
        comp_wake_at(&k.c, 10000 + 1000 * (tick_t)i);
    eng_run(&e, TICK_MAX);
    assert_int_equal(k.ticks, 12);
    eng_destroy(&e);
}

static void growing_port_keeps_order_ready_times_and_weight(void **state)
{
    (void)state;
    struct eng e;
    eng_init(&e);
    struct clock clk = {"core", 1000};
    struct counter rx = {0};
    comp_init(&rx.c, &e, "rx", &clk, count_tick, NULL);
    static struct msg m[300];
    struct port p;
    port_init(&p, "p", 300, 2000, NULL, &rx.c);
    unsigned sent = 0, popped = 0, weight = 0;
    /* interleave sends and pops so the ring wraps before and after growing */
    for (unsigned round = 0; round < 6; round++) {
        for (unsigned i = 0; i < 50; i++, sent++) {
            assert_true(port_send_weighted(&p, &m[sent], 0, sent % 5));
            weight += sent % 5;
        }
        assert_int_equal(p.weight, weight);
        for (unsigned i = 0; i < 20; i++, popped++) {
            assert_ptr_equal(port_slot_at(&p, 0)->m, &m[popped]);
            weight -= popped % 5;
            assert_ptr_equal(port_pop(&p), &m[popped]);
        }
        assert_int_equal(p.weight, weight);
    }
    assert_int_equal(p.n, sent - popped);
    for (uint32_t i = 0; i < p.n; i++)
        assert_ptr_equal(port_slot_at(&p, i)->m, &m[popped + i]);
    while (p.n < p.cap)
        assert_true(port_send(&p, &m[0]));
    assert_false(port_send(&p, &m[0]));
    assert_int_equal(p.n_full, 1);
    eng_run(&e, 1999);
    assert_null(port_peek(&p)); /* sent at 0 with latency 2000 */
    eng_run(&e, 2000);
    assert_ptr_equal(port_peek(&p), &m[popped]);
    port_destroy(&p);
    eng_destroy(&e);
}

#define N_MANY 300

static struct counter many[N_MANY];
static int many_log[3 * N_MANY], n_many_log;

static bool many_tick(struct comp *c)
{
    many_log[n_many_log++] = (int)c->rank;
    return false;
}

static void many_components_tick_by_rank(void **state)
{
    (void)state;
    struct eng e;
    eng_init(&e);
    struct clock clk = {"core", 1000};
    n_many_log = 0;
    /* the first 100 are woken before the others exist */
    for (int i = 0; i < 100; i++)
        comp_init(&many[i].c, &e, "k", &clk, many_tick, NULL);
    for (int i = 99; i >= 0; i--)
        comp_wake_at(&many[i].c, 5000);
    for (int i = 100; i < N_MANY; i++)
        comp_init(&many[i].c, &e, "k", &clk, many_tick, NULL);
    for (int i = N_MANY - 1; i >= 0; i--) {
        comp_wake_at(&many[i].c, 5000);
        comp_wake_at(&many[i].c, 3000 + 1000 * (tick_t)(i % 2));
    }
    eng_run(&e, TICK_MAX);
    assert_int_equal(n_many_log, 2 * N_MANY);
    assert_int_equal(e.n_events, 2 * N_MANY);
    int k = 0;
    for (int i = 0; i < N_MANY; i += 2) /* at 3000: the even ones */
        assert_int_equal(many_log[k++], i);
    for (int i = 1; i < N_MANY; i += 2) /* at 4000: the odd ones */
        assert_int_equal(many_log[k++], i);
    for (int i = 0; i < N_MANY; i++) /* at 5000: all */
        assert_int_equal(many_log[k++], i);
    eng_destroy(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(many_events_run_in_time_then_scheduling_order),
        cmocka_unit_test(next_time_and_until),
        cmocka_unit_test(far_time_scheduled_again_when_near_is_one_slot),
        cmocka_unit_test(repeated_wakes_for_one_edge_cost_one_event),
        cmocka_unit_test(growing_port_keeps_order_ready_times_and_weight),
        cmocka_unit_test(many_components_tick_by_rank),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
