/*
 * vi_bus.c - the ideal reference's free invalidation channel (see vi.h).
 *
 * IDEAL-COH (spec 002 §3.3) is "coherence without latency or traffic". Its
 * invalidations are still messages: an L2 bank sends each one into a port of
 * the target L1 with zero latency, outside the crossbar, so the traffic
 * statistics never see them. The machine builder wires only crossbar vnets,
 * so each ideal L1 registers its port here under the machine's engine and
 * the banks look the ports up once, when they are connected.
 * DEVIATION: a process-wide table (one entry per live machine with ideal
 *   controllers) stands in for a wiring hook in the machine builder; it holds
 *   only port addresses and is emptied when the L1s are destroyed.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdlib.h>

#include "base/log.h"
#include "coh/vi/vi.h"

struct bus {
    struct eng *eng; /* the machine's engine; NULL: free slot */
    unsigned n_sms, n_attached;
    struct port **port; /* [n_sms] */
};

static struct bus *buses;
static unsigned n_buses;

static struct bus *find(struct eng *e)
{
    for (unsigned i = 0; i < n_buses; i++)
        if (buses[i].eng == e)
            return &buses[i];
    return NULL;
}

void vi_bus_attach(struct eng *e, unsigned sm, unsigned n_sms, struct port *p)
{
    struct bus *b = find(e);
    if (!b) {
        b = find(NULL);
        if (!b) {
            buses = realloc(buses, (n_buses + 1) * sizeof *buses);
            if (!buses)
                panic("out of memory");
            b = &buses[n_buses++];
        }
        b->eng = e;
        b->n_sms = n_sms;
        b->n_attached = 0;
        b->port = calloc(n_sms, sizeof *b->port);
        if (!b->port)
            panic("out of memory");
    }
    panic_if(sm >= b->n_sms || b->port[sm], "ideal: L1 %u attached twice or out of range", sm);
    b->port[sm] = p;
    b->n_attached++;
}

void vi_bus_detach(struct eng *e, unsigned sm)
{
    struct bus *b = find(e);
    panic_if(!b || sm >= b->n_sms || !b->port[sm], "ideal: L1 %u was never attached", sm);
    b->port[sm] = NULL;
    if (--b->n_attached == 0) {
        free(b->port);
        b->port = NULL;
        b->eng = NULL;
    }
}

struct port *vi_bus_port(struct eng *e, unsigned sm)
{
    struct bus *b = find(e);
    panic_if(!b || sm >= b->n_sms || !b->port[sm],
             "ideal: no L1 %u on this machine's invalidation channel", sm);
    return b->port[sm];
}
