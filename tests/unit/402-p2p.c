/*
 * 402-p2p.c - point-to-point links: a message is ready one serialisation
 * (bytes / bandwidth, after the link is free) plus the latency after it is
 * sent; messages keep send order; a full port refuses without using the
 * link; bandwidth 0 serialises nothing; ports sharing a link share its time;
 * a path of links (a switch's ports) either holds every link at once (a
 * circuit) or lets each go once the message has passed it (buffered).
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

/* Two senders into one receiver through a switch, then the second sender to
 * another receiver, all sent at time 0. */
struct switch_run {
    tick_t b_to_c_ready, b_to_d_ready;
    struct p2p_link out_b, in_c;
};

static struct switch_run two_into_one(enum p2p_path_mode mode)
{
    setup_engine();
    struct port p[3];
    port_init(&p[0], "a-c", 4, 200 * NS, NULL, &rx.c);
    port_init(&p[1], "b-c", 4, 200 * NS, NULL, &rx.c);
    port_init(&p[2], "b-d", 4, 200 * NS, NULL, &rx.c);
    struct switch_run r;
    struct p2p_link out_a, in_d;
    p2p_init(&out_a, 64e9), p2p_init(&r.out_b, 64e9), p2p_init(&r.in_c, 64e9);
    p2p_init(&in_d, 64e9);
    struct p2p_link *a_to_c[2] = {&out_a, &r.in_c}, *b_to_c[2] = {&r.out_b, &r.in_c},
                    *b_to_d[2] = {&r.out_b, &in_d};
    assert_true(p2p_send_path(a_to_c, 2, mode, &p[0], msg_new(&pool, 1, 0, 0), 6400)); /* 100 ns */
    assert_true(p2p_send_path(b_to_c, 2, mode, &p[1], msg_new(&pool, 1, 0, 0), 6400));
    assert_true(p2p_send_path(b_to_d, 2, mode, &p[2], msg_new(&pool, 1, 0, 0), 6400));
    assert_int_equal(ready_at(&p[0], 0), 100 * NS + 200 * NS);
    assert_int_equal(out_a.free_at, 100 * NS);
    r.b_to_c_ready = ready_at(&p[1], 0);
    r.b_to_d_ready = ready_at(&p[2], 0);
    teardown_engine(p, 3);
    return r;
}

/* What both forms share: B's message to C waits for C's port (ready at 200 ns
 * plus the latency), C's port carries both messages, and B's port is busy for
 * 200 ns; they differ in when B's port is let go and so when B reaches D. */
static void check_two_into_one(enum p2p_path_mode mode, tick_t b_to_d_ready, tick_t out_b_free)
{
    struct switch_run r = two_into_one(mode);
    assert_int_equal(r.b_to_c_ready, 200 * NS + 200 * NS);
    assert_int_equal(r.in_c.free_at, 200 * NS);
    assert_int_equal(r.in_c.bytes, 12800);
    assert_int_equal(r.out_b.busy_ps, 200 * NS);
    assert_int_equal(r.b_to_d_ready, b_to_d_ready);
    assert_int_equal(r.out_b.free_at, out_b_free);
}

/* A circuit holds B's port while B's message to C waits for C's, so B's next
 * message, to an idle receiver, waits too. */
static void circuit_holds_every_link(void **state)
{
    (void)state;
    check_two_into_one(P2P_PATH_CIRCUIT, 300 * NS + 200 * NS, 300 * NS);
}

/* A buffered switch takes B's message to C off B's port at once (it waits in
 * the switch for C's port), and B's next message goes to D meanwhile. */
static void buffered_frees_the_senders_port(void **state)
{
    (void)state;
    check_two_into_one(P2P_PATH_BUFFERED, 200 * NS + 200 * NS, 200 * NS);
}

/* Cut-through onto a faster link: the message cannot leave the second link
 * before it has arrived over the first, so the slower link sets its end. */
static void buffered_path_ends_with_its_slowest_link(void **state)
{
    (void)state;
    setup_engine();
    struct port p;
    port_init(&p, "p", 4, 200 * NS, NULL, &rx.c);
    struct p2p_link slow, fast;
    p2p_init(&slow, 32e9), p2p_init(&fast, 64e9);
    struct p2p_link *path[2] = {&slow, &fast};
    assert_true(p2p_send_path(path, 2, P2P_PATH_BUFFERED, &p, msg_new(&pool, 1, 0, 0), 6400));
    assert_int_equal(ready_at(&p, 0), 200 * NS + 200 * NS);
    assert_int_equal(fast.free_at, 200 * NS);
    assert_int_equal(slow.busy_ps, 200 * NS);
    teardown_engine(&p, 1);
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
        cmocka_unit_test(circuit_holds_every_link),
        cmocka_unit_test(buffered_frees_the_senders_port),
        cmocka_unit_test(buffered_path_ends_with_its_slowest_link),
        cmocka_unit_test(pairs_go_side_by_side),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
