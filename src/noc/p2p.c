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
    return p2p_send_path(&l, 1, p, m, bytes);
}

bool p2p_send_path(struct p2p_link *const *path, unsigned n, struct port *p, struct msg *m,
                   uint64_t bytes)
{
    if (!port_has_room(p, 1)) {
        p->n_full++;
        return false;
    }
    tick_t now = p->receiver->eng->now;
    tick_t start = now, ser = 0;
    for (unsigned i = 0; i < n; i++) {
        start = MAX(start, path[i]->free_at);
        ser = MAX(ser, (tick_t)ceil((double)bytes * path[i]->ps_per_byte));
    }
    for (unsigned i = 0; i < n; i++) {
        struct p2p_link *l = path[i];
        l->free_at = start + ser;
        l->bytes += bytes;
        l->msgs++;
        l->busy_ps += ser;
    }
    bool ok = port_send_delayed(p, m, start + ser - now + path[0]->latency_ps);
    panic_if(!ok, "p2p_send: port %s refused after room check", p->name);
    return true;
}
