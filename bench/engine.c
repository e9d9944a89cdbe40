/*
 * engine.c - speed of the event engine alone: events per second.
 *
 * A ring of components in two clock domains passes tokens through ports, so
 * each event is a component tick that pops and sends one message: the
 * engine's heap, the scheduling of ticks and the port FIFOs are what is
 * measured. Prints what it measured. Target (issue): >= 20 M events/s.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>

#include "base/clock.h"
#include "sim/eng.h"
#include "sim/port.h"

#define N_COMPS 64
#define TOKENS  8

struct node {
    struct comp c;
    struct port in;
    struct port *out;
    uint64_t passed;
};

static bool node_tick(struct comp *cp)
{
    struct node *n = (struct node *)cp;
    struct msg *m = port_peek(&n->in);
    if (!m || !port_has_room(n->out, 1))
        return m != NULL;
    port_pop(&n->in);
    port_send(n->out, m);
    n->passed++;
    return n->in.n > 0;
}

int main(int argc, char **argv)
{
    uint64_t events = argc > 1 ? strtoull(argv[1], NULL, 0) : 20000000;
    struct eng e;
    eng_init(&e);
    struct clock fast = {"core", 714}, slow = {"icnt", 1428};
    static struct node nodes[N_COMPS];
    static struct msg msgs[N_COMPS * TOKENS];
    for (int i = 0; i < N_COMPS; i++)
        comp_init(&nodes[i].c, &e, "node", i % 2 ? &slow : &fast, node_tick, NULL);
    for (int i = 0; i < N_COMPS; i++) {
        port_init(&nodes[i].in, "in", 16, 714, &nodes[(i + N_COMPS - 1) % N_COMPS].c, &nodes[i].c);
        nodes[(i + N_COMPS - 1) % N_COMPS].out = &nodes[i].in;
    }
    for (int i = 0; i < N_COMPS * TOKENS; i++)
        port_send(&nodes[i % N_COMPS].in, &msgs[i]);
    double t0 = wall_seconds_since(0);
    while (e.n_events < events && eng_pending(&e))
        eng_run(&e, e.now + 1000000);
    double dt = wall_seconds_since(t0);
    uint64_t passed = 0;
    for (int i = 0; i < N_COMPS; i++)
        passed += nodes[i].passed;
    printf("engine: %llu events in %.3f s = %.2f M events/s (%llu messages passed, "
           "simulated %.1f us)\n",
           (unsigned long long)e.n_events, dt, e.n_events / dt / 1e6, (unsigned long long)passed,
           e.now / 1e6);
    for (int i = 0; i < N_COMPS; i++)
        port_destroy(&nodes[i].in);
    eng_destroy(&e);
    return 0;
}
