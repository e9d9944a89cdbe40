/*
 * net-rig.h - scripted traffic for network tests (crossbar, mesh, DRAM): a
 * sender component that pushes message i into its port at cycle at[i], in
 * order, retrying a refused send the next cycle; a sink component that pops
 * what lands on its ports (or deliberately leaves it, to build backpressure)
 * and records when; and a message builder.
 *
 * A test may define NET_RIG_MAX_MSGS before including this header to script
 * more than 64 messages.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef TESTS_NET_RIG_H
#define TESTS_NET_RIG_H

#include <stddef.h>
#include <string.h>

#include "sim/eng.h"
#include "sim/msg.h"
#include "sim/port.h"

#ifndef NET_RIG_MAX_MSGS
#define NET_RIG_MAX_MSGS 64
#endif

struct sender {
    struct comp c;
    unsigned n, next;
    cycle_t at[NET_RIG_MAX_MSGS];
    struct port *to[NET_RIG_MAX_MSGS];
    struct msg *m[NET_RIG_MAX_MSGS];
};

static bool sender_tick(struct comp *c)
{
    struct sender *s = container_of(c, struct sender, c);
    cycle_t now = comp_cycle(c);
    while (s->next < s->n && s->at[s->next] <= now) {
        if (!port_send(s->to[s->next], s->m[s->next]))
            return true; /* refused: retry next cycle, keeping the order */
        s->next++;
    }
    if (s->next < s->n)
        comp_wake_at(c, s->at[s->next] * c->clk->period_ps);
    return false;
}

static void sender_add(struct sender *s, cycle_t at, struct port *to, struct msg *m)
{
    s->at[s->n] = at;
    s->to[s->n] = to;
    s->m[s->n] = m;
    if (s->n++ == s->next)
        comp_wake_at(&s->c, at * s->c.clk->period_ps);
}

/* Pops everything that is ready on its ports if `pop` (one message a cycle if
 * `one_a_cycle`), recording the time and the message. */
struct sink {
    struct comp c;
    bool pop, one_a_cycle;
    unsigned n_ports;
    struct port *ports[8];
    unsigned n;
    tick_t at[NET_RIG_MAX_MSGS];
    struct msg *got[NET_RIG_MAX_MSGS];
};

static bool sink_tick(struct comp *c)
{
    struct sink *k = container_of(c, struct sink, c);
    if (!k->pop)
        return false;
    for (unsigned i = 0; i < k->n_ports; i++) {
        struct msg *m;
        while ((m = port_peek(k->ports[i]))) {
            port_pop(k->ports[i]);
            k->at[k->n] = c->eng->now;
            k->got[k->n++] = m;
            if (k->one_a_cycle)
                return true; /* the rest next cycle */
        }
    }
    /* re-arm for the earliest head still in flight: the engine keeps only
     * the earliest pending wake of a component */
    tick_t first = TICK_MAX;
    for (unsigned i = 0; i < k->n_ports; i++)
        if (k->ports[i]->n)
            first = MIN(first, k->ports[i]->slots[k->ports[i]->head].ready);
    if (first != TICK_MAX)
        comp_wake_at(c, first);
    return false;
}

/* Message i of a script (its type and address tell messages apart), from src
 * to dst on vnet with a payload of size bytes, of traffic class cls. */
static inline struct msg *net_rig_msg(struct msg *m, unsigned i, unsigned src, unsigned dst,
                                      unsigned vnet, unsigned size, unsigned cls)
{
    memset(m, 0, offsetof(struct msg, data));
    m->type = MSG_PROTO_BASE + i;
    m->src = (uint16_t)src;
    m->dst = (uint16_t)dst;
    m->vnet = (uint8_t)vnet;
    m->size_bytes = (uint16_t)size;
    m->cls = (uint8_t)cls;
    m->addr = 0x1000 + 128 * (addr_t)i;
    return m;
}

#endif
