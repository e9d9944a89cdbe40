/*
 * 402-p2p.c - point-to-point links: a message is ready one serialisation
 * (bytes / bandwidth, after the link is free) plus the latency after it is
 * sent; messages keep send order; a full port refuses without using the
 * link; bandwidth 0 serialises nothing; ports sharing a link share its time;
 * a path of links (a switch's ports) starts when every link on it is free
 * and occupies each.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "noc/p2p.h"

#define NS 1000 /* ps */

struct sink {
    struct comp c;
};

static bool sink_tick(struct comp *c)
{
    (void)c;
    return false;
}

static struct eng e;
static struct clock clk = {"link", NS};
static struct sink rx;
static struct pool pool;

static void setup_engine(void)
{
    eng_init(&e);
    comp_init(&rx.c, &e, "rx", &clk, sink_tick, NULL);
    msg_pool_init(&pool);
}

static void teardown_engine(struct port *p, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        port_destroy(&p[i]);
    pool_destroy(&pool);
    eng_destroy(&e);
}

static tick_t ready_at(struct port *p, unsigned i)
{
    return port_slot_at(p, i)->ready;
}

static void serialisation_and_latency(void **state)
{
    (void)state;
    setup_engine();
    struct port p;
    port_init(&p, "p", 16, 200 * NS, NULL, &rx.c);
    struct p2p_link l;
    p2p_init(&l, 64e9);                                           /* 64 GB/s: 64 bytes per ns */
    assert_true(p2p_send(&l, &p, msg_new(&pool, 1, 0, 0), 6400)); /* 100 ns on the wire */
    assert_true(p2p_send(&l, &p, msg_new(&pool, 1, 0, 0), 64));   /* queued behind it: 1 ns */
    assert_int_equal(ready_at(&p, 0), 100 * NS + 200 * NS);
    assert_int_equal(ready_at(&p, 1), 101 * NS + 200 * NS);
    assert_int_equal(l.bytes, 6464);
    assert_int_equal(l.busy_ps, 101 * NS);
    teardown_engine(&p, 1);
}

static void full_port_refuses_without_using_the_link(void **state)
{
    (void)state;
    setup_engine();
    struct port p[2];
    port_init(&p[0], "small", 1, 10 * NS, NULL, &rx.c);
    port_init(&p[1], "other", 4, 10 * NS, NULL, &rx.c);
    struct p2p_link l;
    p2p_init(&l, 64e9);
    assert_true(p2p_send(&l, &p[0], msg_new(&pool, 1, 0, 0), 640));
    struct msg *x = msg_new(&pool, 1, 0, 0);
    assert_false(p2p_send(&l, &p[0], x, 640));
    msg_free(&pool, x);
    assert_int_equal(p[0].n_full, 1);
    assert_int_equal(l.free_at, 10 * NS);
    /* a second port on the same link waits for the first message's serialisation */
    assert_true(p2p_send(&l, &p[1], msg_new(&pool, 1, 0, 0), 64));
    assert_int_equal(ready_at(&p[1], 0), 11 * NS + 10 * NS);
    teardown_engine(p, 2);
}

static void unlimited_bandwidth(void **state)
{
    (void)state;
    setup_engine();
    struct port p;
    port_init(&p, "p", 16, 0, NULL, &rx.c);
    struct p2p_link l;
    p2p_init(&l, 0);
    for (int i = 0; i < 3; i++)
        assert_true(p2p_send(&l, &p, msg_new(&pool, 1, 0, 0), 1 << 20));
    assert_int_equal(ready_at(&p, 2), 0);
    assert_int_equal(l.busy_ps, 0);
    teardown_engine(&p, 1);
}

/* Two senders into one receiver through a switch: the second message waits
 * for the receiver's port though its own sender's port is free, and then
 * holds that port too. */
static void path_waits_for_every_link(void **state)
{
    (void)state;
    setup_engine();
    struct port p[2];
    port_init(&p[0], "from-a", 4, 200 * NS, NULL, &rx.c);
    port_init(&p[1], "from-b", 4, 200 * NS, NULL, &rx.c);
    struct p2p_link out_a, out_b, in_c;
    p2p_init(&out_a, 64e9), p2p_init(&out_b, 64e9), p2p_init(&in_c, 64e9);
    struct p2p_link *a_to_c[2] = {&out_a, &in_c}, *b_to_c[2] = {&out_b, &in_c};
    assert_true(p2p_send_path(a_to_c, 2, &p[0], msg_new(&pool, 1, 0, 0), 6400)); /* 100 ns */
    assert_true(p2p_send_path(b_to_c, 2, &p[1], msg_new(&pool, 1, 0, 0), 6400));
    assert_int_equal(ready_at(&p[0], 0), 100 * NS + 200 * NS);
    assert_int_equal(ready_at(&p[1], 0), 200 * NS + 200 * NS);
    assert_int_equal(out_a.free_at, 100 * NS);
    assert_int_equal(out_b.free_at, 200 * NS);
    assert_int_equal(in_c.free_at, 200 * NS);
    assert_int_equal(in_c.bytes, 12800);
    assert_int_equal(out_b.busy_ps, 100 * NS);
    teardown_engine(p, 2);
}

/* The same two messages on links of their own (pairs) go side by side. */
static void pairs_go_side_by_side(void **state)
{
    (void)state;
    setup_engine();
    struct port p[2];
    port_init(&p[0], "from-a", 4, 200 * NS, NULL, &rx.c);
    port_init(&p[1], "from-b", 4, 200 * NS, NULL, &rx.c);
    struct p2p_link ac, bc;
    p2p_init(&ac, 64e9), p2p_init(&bc, 64e9);
    assert_true(p2p_send(&ac, &p[0], msg_new(&pool, 1, 0, 0), 6400));
    assert_true(p2p_send(&bc, &p[1], msg_new(&pool, 1, 0, 0), 6400));
    assert_int_equal(ready_at(&p[0], 0), 100 * NS + 200 * NS);
    assert_int_equal(ready_at(&p[1], 0), 100 * NS + 200 * NS);
    teardown_engine(p, 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(serialisation_and_latency),
        cmocka_unit_test(full_port_refuses_without_using_the_link),
        cmocka_unit_test(unlimited_bandwidth),
        cmocka_unit_test(path_waits_for_every_link),
        cmocka_unit_test(pairs_go_side_by_side),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
