/*
 * p2p.c - point-to-point link timing (see p2p.h).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "noc/p2p.h"

#include "base/log.h"

#include <math.h>
#include <string.h>

void p2p_init(struct p2p_link *l, double bytes_per_second)
{
    memset(l, 0, sizeof *l);
    l->ps_per_byte = bytes_per_second > 0 ? 1e12 / bytes_per_second : 0;
}

bool p2p_send(struct p2p_link *l, struct port *p, struct msg *m, uint64_t bytes)
{
    if (!port_has_room(p, 1)) {
        p->n_full++;
        return false;
    }
    tick_t now = p->receiver->eng->now;
    tick_t start = MAX(now, l->free_at);
    tick_t ser = (tick_t)ceil((double)bytes * l->ps_per_byte);
    l->free_at = start + ser;
    l->bytes += bytes;
    l->msgs++;
    l->busy_ps += ser;
    bool ok = port_send_delayed(p, m, l->free_at - now + l->latency_ps);
    panic_if(!ok, "p2p_send: port %s refused after room check", p->name);
    return true;
}
