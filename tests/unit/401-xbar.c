/*
 * 401-xbar.c - the crossbar: exact latencies, round-robin and flit
 * serialisation, output backpressure, no starvation of long messages by short
 * ones, vnet independence, traffic accounting,
 * seeded jitter that keeps FIFO order.
 *
 * A scripted sender component pushes messages into the input ports at given
 * cycles; a sink component pops (or deliberately leaves) what lands in the
 * output ports and records when. The crossbar clock is 1000 ps so that
 * cycle c is time c*1000. Expected times follow xbar.h: a message sent at
 * cycle t may be granted from t + latency_cycles (8); a message of F flits
 * granted at cycle g is ready at g + F.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "base/log.h"
#include "noc/xbar.h"
#include "sim/cfg.h"

#include "net-rig.h"

#define P 1000 /* ps per crossbar cycle in these tests */

/* --- the rig: one crossbar, n_in inputs, n_out sinks */
struct rig {
    struct eng e;
    struct clock clk;
    struct noc_spec spec;
    struct sender snd;
    struct sink sink[4];
    struct comp *rx[4];
    struct xbar *x;
    struct msg m[64];
};

static void rig_init_j(struct rig *r, unsigned n_in, unsigned n_out, unsigned n_vnets,
                       uint32_t jitter)
{
    memset(r, 0, sizeof *r);
    eng_init(&r->e);
    r->clk = (struct clock){"icnt", P};
    cfg_defaults(noc_opts, &r->spec);
    r->spec.jitter_cycles = jitter;
    comp_init(&r->snd.c, &r->e, "snd", &r->clk, sender_tick, NULL);
    struct comp *tx[4];
    for (unsigned i = 0; i < 4; i++)
        tx[i] = &r->snd.c;
    for (unsigned d = 0; d < n_out; d++) {
        comp_init(&r->sink[d].c, &r->e, "sink", &r->clk, sink_tick, NULL);
        r->sink[d].pop = true;
        r->rx[d] = &r->sink[d].c;
    }
    r->x = xbar_new(&r->e, "xbar", &r->clk, &r->spec, n_in, n_out, n_vnets, tx, r->rx);
    for (unsigned d = 0; d < n_out; d++) {
        r->sink[d].n_ports = n_vnets;
        for (unsigned v = 0; v < n_vnets; v++)
            r->sink[d].ports[v] = xbar_out(r->x, d, v);
    }
}

static void rig_init(struct rig *r, unsigned n_in, unsigned n_out, unsigned n_vnets)
{
    rig_init_j(r, n_in, n_out, n_vnets, 0);
}

static void rig_destroy(struct rig *r)
{
    xbar_free(r->x);
    eng_destroy(&r->e);
}

static struct msg *mk(struct rig *r, unsigned i, unsigned src, unsigned dst, unsigned vnet,
                      unsigned size, unsigned cls)
{
    return net_rig_msg(&r->m[i], i, src, dst, vnet, size, cls);
}

static void send_at(struct rig *r, cycle_t at, struct msg *m)
{
    sender_add(&r->snd, at, xbar_in(r->x, m->src, m->vnet), m);
}

static void options_have_the_tc_fermi_defaults(void **state)
{
    (void)state;
    struct noc_spec s;
    cfg_defaults(noc_opts, &s);
    assert_true(s.mhz == 700.0);
    assert_int_equal(s.flit_bytes, 32);
    assert_int_equal(s.latency_cycles, 8);
    assert_int_equal(s.vc_flits, 8);
    assert_int_equal(s.header_bytes, 8);
    assert_int_equal(s.jitter_cycles, 0);
    char err[128];
    assert_int_equal(cfg_set(noc_opts, &s, "vc_flits", "0", err, sizeof err), -1);
    assert_int_equal(xbar_flits(&s, 0), 1);  /* control: header only */
    assert_int_equal(xbar_flits(&s, 24), 1); /* 8 + 24 = 32 */
    assert_int_equal(xbar_flits(&s, 25), 2);
    assert_int_equal(xbar_flits(&s, 128), 5); /* 136 B */
}

/* A 1-flit message sent at cycle 0 is ready at 0 + 8 + 1 = 9, not at 8. */
static void control_message_latency_is_one_flit_plus_pipeline(void **state)
{
    (void)state;
    struct rig r;
    rig_init(&r, 2, 2, 1);
    r.sink[1].pop = false;
    send_at(&r, 0, mk(&r, 0, 0, 1, 0, 0, TRAFFIC_REQ));
    eng_run(&r.e, 9 * P - 1);
    assert_null(port_peek(xbar_out(r.x, 1, 0)));
    eng_run(&r.e, 9 * P);
    assert_ptr_equal(port_peek(xbar_out(r.x, 1, 0)), &r.m[0]);
    eng_run(&r.e, TICK_MAX);
    assert_int_equal(r.sink[0].n, 0);
    rig_destroy(&r);
}

/* A 128-byte data message (5 flits) sent at cycle 3 is ready at 3 + 8 + 5 = 16. */
static void data_message_latency_adds_its_flits(void **state)
{
    (void)state;
    struct rig r;
    rig_init(&r, 1, 1, 1);
    send_at(&r, 3, mk(&r, 0, 0, 0, 0, 128, TRAFFIC_LD));
    eng_run(&r.e, 16 * P - 1);
    assert_int_equal(r.sink[0].n, 0);
    eng_run(&r.e, TICK_MAX);
    assert_int_equal(r.sink[0].n, 1);
    assert_int_equal(r.sink[0].at[0], 16 * P);
    rig_destroy(&r);
}

/* Two inputs, one output: grants alternate and each data message holds the
 * output for its 5 flits; a third input to another output is not delayed. */
static void contending_inputs_alternate_and_serialise_by_flits(void **state)
{
    (void)state;
    struct rig r;
    rig_init(&r, 3, 2, 1);
    send_at(&r, 0, mk(&r, 0, 0, 0, 0, 128, TRAFFIC_LD)); /* a0 */
    send_at(&r, 0, mk(&r, 1, 0, 0, 0, 128, TRAFFIC_LD)); /* a1 */
    send_at(&r, 0, mk(&r, 2, 1, 0, 0, 128, TRAFFIC_LD)); /* b0 */
    send_at(&r, 0, mk(&r, 3, 1, 0, 0, 128, TRAFFIC_LD)); /* b1 */
    send_at(&r, 0, mk(&r, 4, 2, 1, 0, 0, TRAFFIC_REQ));  /* to the other output */
    eng_run(&r.e, TICK_MAX);
    struct sink *k = &r.sink[0];
    assert_int_equal(k->n, 4);
    /* all may compete from 8: grants at 8 (a0), 13 (b0), 18 (a1), 23 (b1), each
     * as soon as the sink popped the previous one; ready 5 cycles later */
    assert_ptr_equal(k->got[0], &r.m[0]);
    assert_int_equal(k->at[0], 13 * P);
    assert_ptr_equal(k->got[1], &r.m[2]);
    assert_int_equal(k->at[1], 18 * P);
    assert_ptr_equal(k->got[2], &r.m[1]);
    assert_int_equal(k->at[2], 23 * P);
    assert_ptr_equal(k->got[3], &r.m[3]);
    assert_int_equal(k->at[3], 28 * P);
    assert_int_equal(r.sink[1].n, 1);
    assert_int_equal(r.sink[1].at[0], 9 * P);
    const struct xbar_stats *st = xbar_stats(r.x);
    assert_int_equal(st->busy_out_cycles, 4 * 5 + 1);
    assert_true(st->blocked_cycles > 0);
    assert_int_equal(st->full_out_cycles, 0);
    rig_destroy(&r);
}

/* One input sending to two outputs is serialised at the input: one flit per
 * cycle per port, so the second message starts after the first's 5 flits. */
static void an_input_moves_one_message_at_a_time(void **state)
{
    (void)state;
    struct rig r;
    rig_init(&r, 1, 2, 2);
    send_at(&r, 0, mk(&r, 0, 0, 0, 0, 128, TRAFFIC_LD));
    send_at(&r, 0, mk(&r, 1, 0, 1, 1, 0, TRAFFIC_REQ));
    eng_run(&r.e, TICK_MAX);
    assert_int_equal(r.sink[0].at[0], 13 * P);
    assert_int_equal(r.sink[1].at[0], (8 + 5 + 1) * P); /* after the data's 5 flits */
    rig_destroy(&r);
}

/* An output FIFO holds vc_flits = 8 flits: one 5-flit message fits, a second
 * waits until the receiver pops, then takes its 5 flits. */
static void full_output_fifo_backpressures_until_popped(void **state)
{
    (void)state;
    struct rig r;
    rig_init(&r, 1, 1, 1);
    r.sink[0].pop = false;
    struct port *out = xbar_out(r.x, 0, 0);
    send_at(&r, 0, mk(&r, 0, 0, 0, 0, 128, TRAFFIC_ST));
    send_at(&r, 0, mk(&r, 1, 0, 0, 0, 128, TRAFFIC_ST));
    eng_run(&r.e, 20 * P);
    assert_int_equal(out->n, 1);
    assert_int_equal(xbar_in(r.x, 0, 0)->n, 1);
    /* m0 granted at 8; m1 blocked for room from 13 (input and output free
     * again) through 20 */
    assert_int_equal(xbar_stats(r.x)->full_out_cycles, 8);
    assert_ptr_equal(port_pop(out), &r.m[0]); /* at t = 20: the crossbar ticked already */
    eng_run(&r.e, 26 * P - 1);
    assert_null(port_peek(out));
    eng_run(&r.e, 26 * P);
    assert_ptr_equal(port_peek(out), &r.m[1]); /* granted at 21, ready at 21 + 5 */
    rig_destroy(&r);
}

/* Eight control messages fill an output FIFO; the ninth waits. */
static void output_fifo_counts_flits_of_control_messages(void **state)
{
    (void)state;
    struct rig r;
    rig_init(&r, 2, 1, 1);
    r.sink[0].pop = false;
    for (unsigned i = 0; i < 5; i++) {
        send_at(&r, 0, mk(&r, i, 0, 0, 0, 0, TRAFFIC_REQ));
        send_at(&r, 0, mk(&r, 5 + i, 1, 0, 0, 0, TRAFFIC_REQ));
    }
    eng_run(&r.e, 40 * P);
    assert_int_equal(xbar_out(r.x, 0, 0)->n, 8);
    assert_int_equal(xbar_in(r.x, 0, 0)->n + xbar_in(r.x, 1, 0)->n, 2);
    r.sink[0].pop = true; /* drain: everything arrives, in order per input */
    comp_wake(&r.sink[0].c);
    eng_run(&r.e, TICK_MAX);
    assert_int_equal(r.sink[0].n, 10);
    unsigned last[2] = {0, 0};
    for (unsigned i = 0; i < 10; i++) {
        unsigned idx = (unsigned)(r.sink[0].got[i] - r.m), src = idx / 5;
        assert_true(idx % 5 >= last[src]);
        last[src] = idx % 5;
    }
    rig_destroy(&r);
}

/* vnet 0 of output 0 is full and input 0 has a vnet-0 message stuck behind
 * it; a vnet-1 message from the same input to the same output still goes. */
static void full_vnet_does_not_block_another(void **state)
{
    (void)state;
    struct rig r;
    rig_init(&r, 2, 1, 2);
    r.sink[0].pop = false;
    for (unsigned i = 0; i < 8; i++)
        send_at(&r, 0, mk(&r, i, 0, 0, 0, 0, TRAFFIC_REQ));
    send_at(&r, 0, mk(&r, 8, 1, 0, 0, 0, TRAFFIC_REQ));
    send_at(&r, 20, mk(&r, 9, 0, 0, 1, 0, TRAFFIC_INV));
    eng_run(&r.e, 19 * P);
    assert_int_equal(xbar_out(r.x, 0, 0)->n, 8);
    assert_int_equal(xbar_in(r.x, 0, 0)->n, 1); /* stuck */
    /* sent at 20: competes from 28, granted at once, ready at 29 */
    eng_run(&r.e, 29 * P - 1);
    assert_null(port_peek(xbar_out(r.x, 0, 1)));
    eng_run(&r.e, 29 * P);
    assert_ptr_equal(port_peek(xbar_out(r.x, 0, 1)), &r.m[9]);
    assert_int_equal(xbar_in(r.x, 0, 0)->n, 1); /* vnet 0 still stuck */
    rig_destroy(&r);
}

/* A long message waiting for room is not passed by shorter ones: input 1
 * streams 1-flit messages at an output whose FIFO is full, input 0 has a
 * 5-flit message for it, and the receiver frees one flit at a time. Each
 * freed flit would fit a short message at once; the long one reserves the
 * room and goes after five pops, not after the whole stream. */
static void long_message_is_not_starved_by_short_ones(void **state)
{
    (void)state;
    struct rig r;
    rig_init(&r, 2, 1, 1);
    r.sink[0].pop = false;
    for (unsigned i = 0; i < 8; i++)
        send_at(&r, 0, mk(&r, i, 1, 0, 0, 0, TRAFFIC_REQ));
    /* after the FIFO filled; the sender sends in list order */
    send_at(&r, 20, mk(&r, 8, 0, 0, 0, 128, TRAFFIC_ST));
    for (unsigned i = 9; i < 20; i++)
        send_at(&r, 20, mk(&r, i, 1, 0, 0, 0, TRAFFIC_REQ));
    eng_run(&r.e, 40 * P);
    assert_int_equal(xbar_out(r.x, 0, 0)->n, 8); /* full: m0..m7 */
    r.sink[0].pop = r.sink[0].one_a_cycle = true;
    comp_wake(&r.sink[0].c);
    eng_run(&r.e, TICK_MAX);
    assert_int_equal(r.sink[0].n, 20);
    unsigned long_at = 0;
    while (r.sink[0].got[long_at] != &r.m[8])
        long_at++;
    /* right after m0..m7 (without the reservation it came last, 19th) */
    assert_int_equal(long_at, 8);
    rig_destroy(&r);
}

/* Bytes (header + payload), flits and messages are counted per class. */
static void traffic_is_accounted_per_class(void **state)
{
    (void)state;
    struct rig r;
    rig_init(&r, 2, 2, 2);
    send_at(&r, 0, mk(&r, 0, 0, 0, 0, 0, TRAFFIC_REQ));
    send_at(&r, 0, mk(&r, 1, 1, 1, 1, 128, TRAFFIC_LD));
    send_at(&r, 2, mk(&r, 2, 0, 1, 0, 128, TRAFFIC_ST));
    send_at(&r, 2, mk(&r, 3, 1, 0, 1, 0, TRAFFIC_INV));
    send_at(&r, 3, mk(&r, 4, 1, 0, 1, 0, TRAFFIC_INV));
    send_at(&r, 4, mk(&r, 5, 0, 0, 0, 32, TRAFFIC_ATO));
    eng_run(&r.e, TICK_MAX);
    const struct xbar_stats *st = xbar_stats(r.x);
    assert_int_equal(st->msgs[TRAFFIC_REQ], 1);
    assert_int_equal(st->bytes[TRAFFIC_REQ], 8);
    assert_int_equal(st->flits[TRAFFIC_REQ], 1);
    assert_int_equal(st->msgs[TRAFFIC_LD], 1);
    assert_int_equal(st->bytes[TRAFFIC_LD], 136);
    assert_int_equal(st->flits[TRAFFIC_LD], 5);
    assert_int_equal(st->bytes[TRAFFIC_ST], 136);
    assert_int_equal(st->flits[TRAFFIC_ST], 5);
    assert_int_equal(st->msgs[TRAFFIC_INV], 2);
    assert_int_equal(st->bytes[TRAFFIC_INV], 16);
    assert_int_equal(st->flits[TRAFFIC_INV], 2);
    assert_int_equal(st->bytes[TRAFFIC_ATO], 40);
    assert_int_equal(st->flits[TRAFFIC_ATO], 2);
    assert_int_equal(st->msgs[TRAFFIC_RCL], 0);
    assert_int_equal(st->busy_out_cycles, 1 + 5 + 5 + 1 + 1 + 2);
    rig_destroy(&r);
}

/* Run 16 messages from two inputs through one output with jitter; record
 * arrival times. */
static void jitter_run(uint64_t seed, tick_t *at, struct msg **got)
{
    struct rig r;
    rig_init_j(&r, 2, 2, 1, 6);
    xbar_set_seed(r.x, seed);
    for (unsigned i = 0; i < 16; i++)
        send_at(&r, i, mk(&r, i, i % 2, (i / 2) % 2, 0, 0, TRAFFIC_REQ));
    eng_run(&r.e, TICK_MAX);
    assert_int_equal(r.sink[0].n + r.sink[1].n, 16);
    for (unsigned d = 0; d < 2; d++)
        for (unsigned i = 0; i < r.sink[d].n; i++) {
            unsigned idx = (unsigned)(r.sink[d].got[i] - r.m);
            at[idx] = r.sink[d].at[i];
            got[d * 16 + i] = r.sink[d].got[i];
        }
    /* no message is early, none later than its jitter bound allows, and the
     * order per (input, output) is the send order */
    for (unsigned i = 0; i < 16; i++)
        assert_true(at[i] >= (i + 1 + 8) * P);
    for (unsigned i = 0; i + 4 < 16; i++)
        assert_true(at[i] <= at[i + 4]); /* same src and dst four messages later */
    rig_destroy(&r);
}

static void jitter_is_seeded_bounded_and_keeps_order(void **state)
{
    (void)state;
    tick_t a[16], b[16], c[16];
    struct msg *ga[32], *gb[32], *gc[32];
    jitter_run(1, a, ga);
    jitter_run(1, b, gb);
    jitter_run(2, c, gc);
    assert_memory_equal(a, b, sizeof a);
    bool differ = false, delayed = false;
    for (unsigned i = 0; i < 16; i++) {
        differ |= a[i] != c[i];
        delayed |= a[i] > (i + 1 + 8) * P;
    }
    assert_true(differ);
    assert_true(delayed);
}

static jmp_buf fault_jmp;
static void fault_exit(int code)
{
    longjmp(fault_jmp, code);
}

/* A message whose header does not match the port it was pushed into is a
 * simulator fault (exit 3, with the crossbar's dump), not a silent drop. */
static void misrouted_message_is_a_simulator_fault(void **state)
{
    (void)state;
    struct rig r;
    rig_init(&r, 1, 2, 1);
    send_at(&r, 0, mk(&r, 0, 0, 2, 0, 0, TRAFFIC_REQ)); /* output 2 of 2 */
    log_set_exit(fault_exit);
    int code = setjmp(fault_jmp);
    if (code == 0)
        eng_run(&r.e, TICK_MAX);
    log_set_exit(NULL);
    assert_int_equal(code, EXIT_SIM_FAULT);
    rig_destroy(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(options_have_the_tc_fermi_defaults),
        cmocka_unit_test(control_message_latency_is_one_flit_plus_pipeline),
        cmocka_unit_test(data_message_latency_adds_its_flits),
        cmocka_unit_test(contending_inputs_alternate_and_serialise_by_flits),
        cmocka_unit_test(an_input_moves_one_message_at_a_time),
        cmocka_unit_test(full_output_fifo_backpressures_until_popped),
        cmocka_unit_test(output_fifo_counts_flits_of_control_messages),
        cmocka_unit_test(full_vnet_does_not_block_another),
        cmocka_unit_test(long_message_is_not_starved_by_short_ones),
        cmocka_unit_test(traffic_is_accounted_per_class),
        cmocka_unit_test(jitter_is_seeded_bounded_and_keeps_order),
        cmocka_unit_test(misrouted_message_is_a_simulator_fault),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
