/*
 * 004-eng-part.c - the merge executor (docs/parallel.md, step 1): a graph of
 * components in three clock domains, ranked in a shuffled order, talking
 * through bounded and deep ports of random latencies, split over 2 to 8
 * partitions (eng_split), runs every tick at the same (time, rank) and ends
 * in the same state as on one queue. Ports between partitions are cut ports
 * (their sends announced at window ends through outboxes, the window being
 * the smallest cut latency), or left direct when they have no latency; ports
 * inside a partition have latencies from 0 up, so zero-latency ties, wakes
 * for the current time past a component's rank, backpressure across
 * partitions (a pop waking a sender of another partition) and windows that
 * pass with nothing in them are all exercised. Many seeds; a run that stops
 * at horizons (eng_run with `until`, as the machine's chunks do) gives the
 * same log.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/rng.h"
#include "sim/eng.h"
#include "sim/port.h"

#define N_COMPS  40
#define OUT_DEG  3
#define N_PORTS  (N_COMPS * OUT_DEG)
#define MAX_LOG  200000
#define MAX_PART 8

struct node {
    struct comp c;
    struct rng g;
    struct port *in[N_PORTS], *out[OUT_DEG];
    unsigned n_in, budget, sent, received;
    uint64_t acc; /* a digest of what it received, when */
};

struct tick_rec {
    tick_t when;
    uint32_t rank, id;
};

struct world {
    struct eng e;
    struct clock clk[3];
    struct node nodes[N_COMPS];
    struct port ports[N_PORTS];
    struct msg msg; /* the ports carry its address; nothing reads it */
    struct eng parts[MAX_PART];
    struct eng *part_ptr[MAX_PART];
    struct port_outbox outbox[MAX_PART];
    unsigned n_parts;
    struct tick_rec *log;
    size_t n_log;
};

static struct world *cur;

static bool node_tick(struct comp *c)
{
    struct node *n = (struct node *)c;
    tick_t now = c->eng->now;
    if (cur->n_log < MAX_LOG)
        cur->log[cur->n_log++] = (struct tick_rec){now, c->rank, (uint32_t)(n - cur->nodes)};
    bool moved = false;
    for (unsigned i = 0; i < n->n_in; i++)
        while (port_peek(n->in[i])) {
            port_pop(n->in[i]);
            n->received++;
            n->acc = n->acc * 1000003u ^ (now + i);
            n->budget += n->acc % 3 == 0; /* some messages cause more */
            moved = true;
        }
    if (n->budget) {
        struct port *p = n->out[rng_below(&n->g, OUT_DEG)];
        if (port_has_room(p, 1)) {
            port_send_delayed(p, &cur->msg, rng_below(&n->g, 4) * 250);
            n->budget--;
            n->sent++;
            moved = true;
        } else
            port_send(p, &cur->msg); /* refused: counted, and the pop will wake us */
    }
    return moved && n->budget;
}

/* Build the world of `seed` split over n_parts partitions (1: one queue). */
static void build(struct world *w, uint64_t seed, unsigned n_parts)
{
    memset(w, 0, offsetof(struct world, log));
    w->n_log = 0;
    cur = w;
    eng_init(&w->e);
    w->clk[0] = (struct clock){"a", 714};
    w->clk[1] = (struct clock){"b", 1000};
    w->clk[2] = (struct clock){"c", 1429};
    struct rng g;
    rng_seed(&g, seed, 0);
    for (unsigned i = 0; i < N_COMPS; i++) {
        struct node *n = &w->nodes[i];
        comp_init(&n->c, &w->e, "node", &w->clk[rng_below(&g, 3)], node_tick, NULL);
        rng_seed(&n->g, seed, 1 + i);
        n->budget = 5 + (unsigned)rng_below(&g, 20);
    }
    struct comp *order[N_COMPS];
    for (unsigned i = 0; i < N_COMPS; i++)
        order[i] = &w->nodes[i].c;
    for (unsigned i = N_COMPS; i-- > 1;) { /* ranks are not the registration order */
        unsigned j = (unsigned)rng_below(&g, i + 1);
        struct comp *t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    eng_order(&w->e, order, N_COMPS);
    /* the partitions are drawn whatever n_parts is, so that latencies are too */
    unsigned part[N_COMPS];
    for (unsigned i = 0; i < N_COMPS; i++)
        part[i] = (unsigned)rng_below(&g, MAX_PART);
    const tick_t lookahead = 3000;
    for (unsigned i = 0; i < N_COMPS; i++)
        for (unsigned k = 0; k < OUT_DEG; k++) {
            struct node *from = &w->nodes[i], *to = &w->nodes[rng_below(&g, N_COMPS)];
            struct port *p = &w->ports[i * OUT_DEG + k];
            bool across = part[i] != part[to - w->nodes];
            tick_t lat = rng_below(&g, 4) * 700;
            if (across) /* a cut: at least the lookahead, or none at all (left direct) */
                lat = rng_below(&g, 5) ? lookahead + rng_below(&g, 3) * 500 : 0;
            uint32_t cap = rng_below(&g, 3) ? 1 + (uint32_t)rng_below(&g, 3) : 1u << 16;
            port_init(p, "p", cap, lat, &from->c, &to->c);
            from->out[k] = p;
            to->in[to->n_in++] = p;
        }
    w->n_parts = n_parts;
    if (n_parts > 1) {
        for (unsigned i = 0; i < N_COMPS; i++)
            w->nodes[i].c.part = part[i] % n_parts;
        for (unsigned p = 0; p < n_parts; p++) {
            eng_init(&w->parts[p]);
            w->part_ptr[p] = &w->parts[p];
        }
        eng_split(&w->e, w->part_ptr, n_parts);
        for (unsigned i = 0; i < N_PORTS; i++) {
            struct port *p = &w->ports[i];
            if (p->sender->part != p->receiver->part && p->latency_ps >= lookahead)
                port_cut(p, &w->outbox[p->sender->part]);
        }
    }
    for (unsigned i = 0; i < N_COMPS; i++)
        comp_wake(&w->nodes[i].c);
}

static bool deliver(void *obj)
{
    struct world *w = obj;
    bool any = false;
    for (unsigned p = 0; p < w->n_parts; p++)
        any |= port_outbox_deliver(&w->outbox[p]);
    return any;
}

static void teardown(struct world *w)
{
    for (unsigned i = 0; i < N_PORTS; i++)
        port_destroy(&w->ports[i]);
    eng_destroy(&w->e);
    for (unsigned p = 0; w->n_parts > 1 && p < w->n_parts; p++) {
        port_outbox_free(&w->outbox[p]);
        eng_destroy(&w->parts[p]);
    }
}

/* Run to the end, in one go or in chunks of `chunk` ps. */
static void run(struct world *w, tick_t chunk)
{
    if (w->n_parts > 1)
        eng_set_windows(&w->e, 3000, deliver, w);
    if (!chunk)
        eng_run(&w->e, TICK_MAX);
    else
        for (tick_t until = chunk; eng_pending(&w->e); until += chunk)
            eng_run(&w->e, until);
}

static void same_ticks_as_one_queue(void **state)
{
    (void)state;
    static struct world ref, part;
    ref.log = malloc(MAX_LOG * sizeof *ref.log);
    part.log = malloc(MAX_LOG * sizeof *part.log);
    assert_non_null(ref.log);
    assert_non_null(part.log);
    uint64_t total_ticks = 0, cut_sends = 0, windows_used = 0;
    for (uint64_t seed = 1; seed <= 60; seed++) {
        build(&ref, seed, 1);
        run(&ref, 0);
        unsigned n_parts = 2 + (unsigned)(seed % (MAX_PART - 1));
        build(&part, seed, n_parts);
        run(&part, seed % 3 ? 0 : 7777 + seed); /* some in chunks */
        assert_true(ref.n_log > 100 && ref.n_log < MAX_LOG);
        for (size_t i = 0; i < MIN(ref.n_log, part.n_log); i++)
            if (memcmp(&ref.log[i], &part.log[i], sizeof ref.log[i]))
                fail_msg("seed %llu, %u partitions: tick %zu is (%llu, rank %u, node %u), "
                         "one queue ran (%llu, rank %u, node %u)",
                         (unsigned long long)seed, n_parts, i, (unsigned long long)part.log[i].when,
                         part.log[i].rank, part.log[i].id, (unsigned long long)ref.log[i].when,
                         ref.log[i].rank, ref.log[i].id);
        assert_int_equal(part.n_log, ref.n_log);
        assert_int_equal(part.e.now, ref.e.now);
        assert_int_equal(part.e.n_events, ref.e.n_events);
        for (unsigned i = 0; i < N_COMPS; i++) {
            assert_int_equal(part.nodes[i].sent, ref.nodes[i].sent);
            assert_int_equal(part.nodes[i].received, ref.nodes[i].received);
            assert_true(part.nodes[i].acc == ref.nodes[i].acc);
        }
        for (unsigned i = 0; i < N_PORTS; i++)
            assert_int_equal(part.ports[i].n_full, ref.ports[i].n_full);
        uint64_t ticks = 0;
        for (unsigned p = 0; p < n_parts; p++) {
            ticks += part.e.part_ticks[p];
            cut_sends += part.outbox[p].n_delivered;
            windows_used += part.outbox[p].n_delivered > 0;
        }
        assert_int_equal(ticks, part.n_log);
        total_ticks += ticks;
        teardown(&ref);
        teardown(&part);
    }
    /* the test is about something: many ticks, many sends through outboxes */
    assert_true(total_ticks > 20000);
    assert_true(cut_sends > 1000);
    assert_true(windows_used > 30);
    free(ref.log);
    free(part.log);
}

/* At one time, the merge executor takes the partition whose next tick has
 * the smallest rank, whatever the partitions' order: two components of one
 * clock, the lower rank in the higher partition, tick in rank order, and a
 * wake for the current time of a component whose rank has passed (in
 * another partition) goes to its next edge, as on one queue. */
static bool log_tick(struct comp *c)
{
    if (cur->n_log < MAX_LOG)
        cur->log[cur->n_log++] = (struct tick_rec){c->eng->now, c->rank, 0};
    return false;
}

static bool wake_first(struct comp *c)
{
    log_tick(c);
    if (c->eng->now == 0) /* both now: the other has passed, so at its next edge */
        comp_wake(&cur->nodes[0].c);
    return false;
}

static void ties_by_rank_across_partitions(void **state)
{
    (void)state;
    static struct world w;
    static struct tick_rec log[16];
    memset(&w, 0, sizeof w);
    cur = &w;
    w.log = log;
    eng_init(&w.e);
    w.clk[0] = (struct clock){"a", 1000};
    comp_init(&w.nodes[0].c, &w.e, "low", &w.clk[0], log_tick, NULL);    /* rank 0 */
    comp_init(&w.nodes[1].c, &w.e, "high", &w.clk[0], wake_first, NULL); /* rank 1 */
    w.nodes[0].c.part = 1;
    w.nodes[1].c.part = 0;
    eng_init(&w.parts[0]);
    eng_init(&w.parts[1]);
    w.part_ptr[0] = &w.parts[0];
    w.part_ptr[1] = &w.parts[1];
    eng_split(&w.e, w.part_ptr, 2);
    w.n_parts = 2;
    comp_wake(&w.nodes[1].c);
    comp_wake(&w.nodes[0].c);
    eng_run(&w.e, TICK_MAX);
    assert_int_equal(w.n_log, 3);
    assert_int_equal(log[0].when, 0);
    assert_int_equal(log[0].rank, 0);
    assert_int_equal(log[1].when, 0);
    assert_int_equal(log[1].rank, 1);
    assert_int_equal(log[2].when, 1000); /* woken at 0 after its rank: the next edge */
    assert_int_equal(log[2].rank, 0);
    assert_int_equal(w.e.part_ticks[1], 2);
    assert_int_equal(w.e.part_ticks[0], 1);
    eng_destroy(&w.e);
    eng_destroy(&w.parts[0]);
    eng_destroy(&w.parts[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_ticks_as_one_queue),
        cmocka_unit_test(ties_by_rank_across_partitions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
