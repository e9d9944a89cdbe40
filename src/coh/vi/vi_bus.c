/*
 * vi_bus.c - the ideal reference's free invalidation channel (see vi.h).
 *
 * IDEAL-COH (spec 002 §3.3) is "coherence without latency or traffic". Its
 * invalidations are still messages: an L2 bank sends each one into a port of
 * the target L1 with zero latency, outside the crossbar, so the traffic
 * statistics never see them. The machine builder wires only crossbar vnets,
 * so each ideal L1 registers its port in the protocol's per-machine context
 * (proto_desc.attach, ctrl_wiring.proto_ctx) and the banks look the ports up
 * once, when they are connected.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdlib.h>

#include "base/log.h"
#include "coh/vi/vi.h"

struct vi_bus {
    unsigned n_sms, n_attached;
    struct port **port; /* [n_sms], made with the first L1 */
};

void *vi_bus_new(const struct ctrl_wiring *w)
{
    (void)w;
    struct vi_bus *b = calloc(1, sizeof *b);
    if (!b)
        panic("out of memory");
    return b;
}

void vi_bus_free(void *ctx)
{
    struct vi_bus *b = ctx;
    if (!b)
        return;
    free(b->port);
    free(b);
}

void vi_bus_attach(struct vi_bus *b, unsigned sm, unsigned n_sms, struct port *p)
{
    panic_if(!b, "ideal: L1 %u built without the machine's invalidation channel", sm);
    if (!b->port) {
        b->n_sms = n_sms;
        b->port = calloc(n_sms, sizeof *b->port);
        if (!b->port)
            panic("out of memory");
    }
    panic_if(sm >= b->n_sms || b->port[sm], "ideal: L1 %u attached twice or out of range", sm);
    b->port[sm] = p;
    b->n_attached++;
}

void vi_bus_detach(struct vi_bus *b, unsigned sm)
{
    panic_if(!b || sm >= b->n_sms || !b->port[sm], "ideal: L1 %u was never attached", sm);
    b->port[sm] = NULL;
    b->n_attached--;
}

struct port *vi_bus_port(struct vi_bus *b, unsigned sm)
{
    panic_if(!b || sm >= b->n_sms || !b->port[sm],
             "ideal: no L1 %u on this machine's invalidation channel", sm);
    return b->port[sm];
}
