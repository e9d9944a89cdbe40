/*
 * 403-mesh.c - the 2D mesh: exact zero-load latency per hop and per flit,
 * serialisation (bandwidth) at a link and at an ejection port, XY paths and
 * per-link flit accounting, backpressure without loss, all-to-all traffic
 * delivered once and in order per (source, destination, vnet), seeded jitter
 * that is deterministic, options, and a misrouted message as a fault.
 *
 * A scripted sender pushes messages at given cycles; sinks pop what lands and
 * record when. The mesh clock is 1000 ps; latency_cycles (router pipeline)
 * is 2 and link_cycles 1 unless a test says otherwise, so a message of F
 * flits over h hops is ready 2 * (h + 1) + h + F cycles after it was sent.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "base/log.h"
#include "base/rng.h"
#include "noc/mesh.h"
#include "noc/net.h"
#include "sim/cfg.h"

#define P                1000 /* ps per mesh cycle */
#define MAX_MSGS         1024
#define NET_RIG_MAX_MSGS MAX_MSGS
#define MAX_ENDS         16

#include "net-rig.h"

struct rig {
    struct eng e;
    struct clock clk;
    struct noc_spec spec;
    struct sender snd;
    struct sink sink[MAX_ENDS];
    struct comp *tx[MAX_ENDS], *rx[MAX_ENDS];
    struct mesh *x;
    struct msg m[MAX_MSGS];
};

/* A cols x rows mesh; sources and destinations placed at in_node/out_node. */
static void rig_init(struct rig *r, unsigned cols, unsigned rows, unsigned n_in,
                     const uint16_t *in_node, unsigned n_out, const uint16_t *out_node,
                     unsigned n_vnets, uint32_t jitter)
{
    memset(r, 0, sizeof *r);
    eng_init(&r->e);
    r->clk = (struct clock){"icnt", P};
    cfg_defaults(noc_opts, &r->spec);
    r->spec.topology = NOC_MESH;
    r->spec.mesh_cols = cols;
    r->spec.mesh_rows = rows;
    r->spec.latency_cycles = 2;
    r->spec.link_cycles = 1;
    r->spec.jitter_cycles = jitter;
    comp_init(&r->snd.c, &r->e, "snd", &r->clk, sender_tick, NULL);
    for (unsigned i = 0; i < n_in; i++)
        r->tx[i] = &r->snd.c;
    for (unsigned d = 0; d < n_out; d++) {
        comp_init(&r->sink[d].c, &r->e, "sink", &r->clk, sink_tick, NULL);
        r->sink[d].pop = true;
        r->rx[d] = &r->sink[d].c;
    }
    r->x = mesh_new(&r->e, "mesh", &r->clk, &r->spec, n_in, n_out, n_vnets, r->tx, r->rx, in_node,
                    out_node);
    for (unsigned d = 0; d < n_out; d++) {
        r->sink[d].n_ports = n_vnets;
        for (unsigned v = 0; v < n_vnets; v++)
            r->sink[d].ports[v] = mesh_out(r->x, d, v);
    }
}

static void rig_destroy(struct rig *r)
{
    mesh_free(r->x);
    eng_destroy(&r->e);
}

static struct msg *mk(struct rig *r, unsigned i, unsigned src, unsigned dst, unsigned vnet,
                      unsigned size, unsigned cls)
{
    return net_rig_msg(&r->m[i], i, src, dst, vnet, size, cls);
}

static void send_at(struct rig *r, cycle_t at, struct msg *m)
{
    sender_add(&r->snd, at, mesh_in(r->x, m->src, m->vnet), m);
}

/* Zero-load time of a message of f flits over h hops (pipeline 2, link 1). */
static tick_t zero_load(unsigned h, unsigned f)
{
    return (tick_t)(2 * (h + 1) + h + f) * P;
}

static void options_default_to_a_crossbar_and_parse_a_mesh(void **state)
{
    (void)state;
    struct noc_spec s;
    cfg_defaults(noc_opts, &s);
    assert_int_equal(s.topology, NOC_CROSSBAR);
    assert_int_equal(s.mesh_cols, 4);
    assert_int_equal(s.mesh_rows, 4);
    assert_int_equal(s.link_cycles, 1);
    char err[128];
    assert_int_equal(cfg_set(noc_opts, &s, "topology", "mesh", err, sizeof err), 0);
    assert_int_equal(s.topology, NOC_MESH);
    assert_int_equal(cfg_set(noc_opts, &s, "topology", "ring", err, sizeof err), -1);
    assert_int_equal(cfg_set(noc_opts, &s, "link_cycles", "0", err, sizeof err), -1);
}

/* Endpoints spread evenly: k of n at node k * nodes / n; hops are Manhattan. */
static void endpoints_spread_evenly_and_hops_are_manhattan(void **state)
{
    (void)state;
    struct rig r;
    rig_init(&r, 4, 4, 16, NULL, 8, NULL, 1, 0);
    for (unsigned s = 0; s < 16; s++)
        assert_int_equal(mesh_in_node(r.x, s), s);
    for (unsigned d = 0; d < 8; d++)
        assert_int_equal(mesh_out_node(r.x, d), 2 * d);
    assert_int_equal(mesh_hops(r.x, 0, 15), 6);
    assert_int_equal(mesh_hops(r.x, 5, 6), 1);
    assert_int_equal(mesh_hops(r.x, 3, 12), 6);
    assert_int_equal(mesh_hops(r.x, 9, 9), 0);
    rig_destroy(&r);
}

/* A control message from every node to node 15 and back to node 0 takes
 * exactly the zero-load time of its hop count; a 5-flit one adds 4. */
static void zero_load_latency_is_per_hop_plus_flits(void **state)
{
    (void)state;
    for (unsigned from = 0; from < 16; from++) {
        uint16_t in_node[1] = {(uint16_t)from}, out_node[2] = {15, 0};
        struct rig r;
        rig_init(&r, 4, 4, 1, in_node, 2, out_node, 1, 0);
        send_at(&r, 0, mk(&r, 0, 0, 0, 0, 0, TRAFFIC_REQ));
        send_at(&r, 100, mk(&r, 1, 0, 1, 0, 128, TRAFFIC_LD));
        eng_run(&r.e, TICK_MAX);
        unsigned h0 = mesh_hops(r.x, from, 15), h1 = mesh_hops(r.x, from, 0);
        assert_int_equal(r.sink[0].n, 1);
        assert_int_equal(r.sink[0].at[0], zero_load(h0, 1));
        assert_int_equal(r.sink[1].at[0], 100 * P + zero_load(h1, 5));
        const struct xbar_stats *st = mesh_stats(r.x);
        assert_int_equal(st->hop_flits, h0 * 1 + h1 * 5);
        assert_int_equal(st->flits[TRAFFIC_REQ], 1);
        assert_int_equal(st->bytes[TRAFFIC_LD], 136);
        rig_destroy(&r);
    }
}

/* Bandwidth: a stream of 5-flit messages from one source over 3 hops
 * arrives one per 5 cycles (one flit per cycle per link). */
static void a_link_carries_one_flit_per_cycle(void **state)
{
    (void)state;
    uint16_t in_node[1] = {0}, out_node[1] = {3};
    struct rig r;
    rig_init(&r, 4, 4, 1, in_node, 1, out_node, 1, 0);
    for (unsigned i = 0; i < 20; i++)
        send_at(&r, 0, mk(&r, i, 0, 0, 0, 128, TRAFFIC_ST));
    eng_run(&r.e, TICK_MAX);
    assert_int_equal(r.sink[0].n, 20);
    assert_int_equal(r.sink[0].at[0], zero_load(3, 5));
    for (unsigned i = 1; i < 20; i++) {
        assert_ptr_equal(r.sink[0].got[i], &r.m[i]);
        assert_int_equal(r.sink[0].at[i] - r.sink[0].at[i - 1], 5 * P);
    }
    assert_int_equal(mesh_stats(r.x)->hop_flits, 20 * 3 * 5);
    rig_destroy(&r);
}

/* Two sources whose XY paths share the last link to a destination split
 * its bandwidth: 2 x 10 control messages take 20 cycles at the shared link,
 * alternating between the sources. */
static void sources_sharing_a_link_alternate(void **state)
{
    (void)state;
    uint16_t in_node[2] = {0, 4}, out_node[1] = {6}; /* 0 -> E E S; 4 -> E E */
    struct rig r;
    rig_init(&r, 4, 4, 2, in_node, 1, out_node, 1, 0);
    for (unsigned i = 0; i < 10; i++) {
        send_at(&r, 0, mk(&r, 2 * i, 0, 0, 0, 0, TRAFFIC_REQ));
        send_at(&r, 0, mk(&r, 2 * i + 1, 1, 0, 0, 0, TRAFFIC_REQ));
    }
    eng_run(&r.e, TICK_MAX);
    struct sink *k = &r.sink[0];
    assert_int_equal(k->n, 20);
    unsigned from0 = 0, from1 = 0;
    for (unsigned i = 0; i < 20; i++) {
        unsigned idx = (unsigned)(k->got[i] - r.m);
        if (idx % 2) {
            assert_int_equal(idx / 2, from1);
            from1++;
        } else {
            assert_int_equal(idx / 2, from0);
            from0++;
        }
        if (i)
            assert_true(k->at[i] >= k->at[i - 1] + P); /* one flit per cycle at the port */
    }
    /* 20 one-flit messages through one ejection port: at least 20 cycles
     * after the first, and no idle cycle once both streams meet */
    assert_int_equal(k->at[19] - k->at[0], 19 * P);
    rig_destroy(&r);
}

/* A destination that does not pop fills its ejection FIFO and then the
 * buffers back along the path; nothing is lost and, once it pops, every
 * message arrives in order. */
static void backpressure_holds_messages_without_loss(void **state)
{
    (void)state;
    uint16_t in_node[1] = {0}, out_node[1] = {15};
    struct rig r;
    rig_init(&r, 4, 4, 1, in_node, 1, out_node, 2, 0);
    r.sink[0].pop = false;
    for (unsigned i = 0; i < 200; i++)
        send_at(&r, i / 4, mk(&r, i, 0, 0, i % 2, i % 3 ? 0 : 64, TRAFFIC_REQ));
    eng_run(&r.e, 2000 * P);
    assert_true(r.snd.next < 200); /* the source was refused */
    r.sink[0].pop = true;
    comp_wake(&r.sink[0].c);
    eng_run(&r.e, TICK_MAX);
    assert_int_equal(r.sink[0].n, 200);
    unsigned next[2] = {0, 1}; /* vnet v carries messages v, v + 2, ... */
    for (unsigned i = 0; i < 200; i++) {
        unsigned idx = (unsigned)(r.sink[0].got[i] - r.m), v = idx % 2;
        assert_int_equal(idx, next[v]);
        next[v] += 2;
    }
    assert_true(mesh_stats(r.x)->full_out_cycles > 0);
    rig_destroy(&r);
}

/* Random all-to-all traffic on 3 vnets with small buffers: every message is
 * delivered exactly once, to its destination, in order per (source,
 * destination, vnet); the run ends (no deadlock). Returns the arrival times. */
static void all_to_all(uint32_t jitter, uint64_t seed, tick_t *at)
{
    struct rig r;
    rig_init(&r, 4, 4, 16, NULL, 16, NULL, 3, jitter);
    r.spec.vc_flits = 4; /* set before mesh_new matters only for ports: rebuild */
    mesh_free(r.x);
    r.x = mesh_new(&r.e, "mesh", &r.clk, &r.spec, 16, 16, 3, r.tx, r.rx, NULL, NULL);
    for (unsigned d = 0; d < 16; d++)
        for (unsigned v = 0; v < 3; v++)
            r.sink[d].ports[v] = mesh_out(r.x, d, v);
    mesh_set_seed(r.x, seed);
    struct rng g;
    rng_seed(&g, 7, 1);
    for (unsigned i = 0; i < MAX_MSGS; i++) {
        unsigned src = (unsigned)rng_below(&g, 16), dst = (unsigned)rng_below(&g, 16);
        unsigned v = (unsigned)rng_below(&g, 3), size = rng_below(&g, 4) ? 0 : 128;
        struct msg *m = mk(&r, i, src, dst, v, size, size ? TRAFFIC_LD : TRAFFIC_REQ);
        m->ts = i;
        send_at(&r, i / 8, m);
    }
    eng_run(&r.e, TICK_MAX);
    unsigned total = 0;
    uint64_t seen[16][16][3];
    memset(seen, 0, sizeof seen);
    for (unsigned d = 0; d < 16; d++) {
        total += r.sink[d].n;
        for (unsigned i = 0; i < r.sink[d].n; i++) {
            const struct msg *m = r.sink[d].got[i];
            assert_int_equal(m->dst, d);
            uint64_t *s = &seen[m->src][d][m->vnet];
            assert_true(m->ts + 1 > *s); /* in order per (src, dst, vnet) */
            *s = m->ts + 1;
            at[m->ts] = r.sink[d].at[i];
        }
    }
    assert_int_equal(total, MAX_MSGS);
    rig_destroy(&r);
}

static void all_to_all_traffic_arrives_once_in_order(void **state)
{
    (void)state;
    static tick_t a[MAX_MSGS];
    all_to_all(0, 1, a);
}

static void jitter_is_seeded_and_deterministic(void **state)
{
    (void)state;
    static tick_t a[MAX_MSGS], b[MAX_MSGS], c[MAX_MSGS], z[MAX_MSGS];
    all_to_all(4, 1, a);
    all_to_all(4, 1, b);
    all_to_all(4, 2, c);
    all_to_all(0, 1, z);
    assert_memory_equal(a, b, sizeof a);
    assert_memory_not_equal(a, c, sizeof a);
    assert_memory_not_equal(a, z, sizeof a);
}

/* The net wrapper builds what [noc] topology names, with the same ports. */
static void net_builds_the_named_topology(void **state)
{
    (void)state;
    struct eng e;
    eng_init(&e);
    struct clock clk = {"icnt", P};
    struct comp rx;
    comp_init(&rx, &e, "rx", &clk, sink_tick, NULL);
    struct comp *rxs[2] = {&rx, &rx};
    struct noc_spec s;
    cfg_defaults(noc_opts, &s);
    struct net *x = net_new(&e, "x", &clk, &s, 2, 2, 1, NULL, rxs);
    assert_non_null(x->xbar);
    assert_null(x->mesh);
    net_free(x);
    s.topology = NOC_MESH;
    s.mesh_cols = 2;
    s.mesh_rows = 1;
    struct net *m = net_new(&e, "m", &clk, &s, 2, 2, 1, NULL, rxs);
    assert_non_null(m->mesh);
    assert_ptr_equal(net_in(m, 1, 0), mesh_in(m->mesh, 1, 0));
    assert_ptr_equal(net_comp(m), mesh_comp(m->mesh));
    net_free(m);
    eng_destroy(&e);
}

static jmp_buf fault_jmp;
static void fault_exit(int code)
{
    longjmp(fault_jmp, code);
}

static void misrouted_message_is_a_simulator_fault(void **state)
{
    (void)state;
    struct rig r;
    rig_init(&r, 2, 2, 1, NULL, 2, NULL, 1, 0);
    send_at(&r, 0, mk(&r, 0, 0, 2, 0, 0, TRAFFIC_REQ)); /* destination 2 of 2 */
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
        cmocka_unit_test(options_default_to_a_crossbar_and_parse_a_mesh),
        cmocka_unit_test(endpoints_spread_evenly_and_hops_are_manhattan),
        cmocka_unit_test(zero_load_latency_is_per_hop_plus_flits),
        cmocka_unit_test(a_link_carries_one_flit_per_cycle),
        cmocka_unit_test(sources_sharing_a_link_alternate),
        cmocka_unit_test(backpressure_holds_messages_without_loss),
        cmocka_unit_test(all_to_all_traffic_arrives_once_in_order),
        cmocka_unit_test(jitter_is_seeded_and_deterministic),
        cmocka_unit_test(net_builds_the_named_topology),
        cmocka_unit_test(misrouted_message_is_a_simulator_fault),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
