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

const char *const p2p_path_mode_names[] = {"buffered", "circuit", "arrival", NULL};

bool p2p_send(struct p2p_link *l, struct port *p, struct msg *m, uint64_t bytes)
{
    return p2p_send_path(&l, 1, P2P_PATH_BUFFERED, p, m, bytes);
}

static tick_t serialisation(const struct p2p_link *l, uint64_t bytes)
{
    return (tick_t)ceil((double)bytes * l->ps_per_byte);
}

static void occupy(struct p2p_link *l, uint64_t bytes, tick_t start, tick_t end)
{
    l->free_at = end;
    l->bytes += bytes;
    l->msgs++;
    l->busy_ps += end - start;
}

tick_t p2p_take(struct p2p_link *l, uint64_t bytes, tick_t at, tick_t not_before, tick_t *start)
{
    *start = MAX(at, l->free_at);
    tick_t end = MAX(not_before, *start + serialisation(l, bytes));
    occupy(l, bytes, *start, end);
    return end;
}

bool p2p_send_path(struct p2p_link *const *path, unsigned n, enum p2p_path_mode mode,
                   struct port *p, struct msg *m, uint64_t bytes)
{
    panic_if(mode == P2P_PATH_ARRIVAL, "p2p_send_path: arrival order needs its path's owner");
    if (!port_has_room(p, 1)) {
        p->n_full++;
        return false;
    }
    tick_t now = p->receiver->eng->now;
    tick_t head = now, tail = now; /* when the message starts and ends on the link so far */
    if (mode == P2P_PATH_CIRCUIT) {
        tick_t ser = 0;
        for (unsigned i = 0; i < n; i++) {
            head = MAX(head, path[i]->free_at);
            ser = MAX(ser, serialisation(path[i], bytes));
        }
        tail = head + ser;
        for (unsigned i = 0; i < n; i++)
            occupy(path[i], bytes, head, tail);
    } else { /* each link takes it once the one before has begun it, ending no earlier */
        for (unsigned i = 0; i < n; i++)
            tail = p2p_take(path[i], bytes, head, tail, &head);
    }
    bool ok = port_send_delayed(p, m, tail - now + path[0]->latency_ps);
    panic_if(!ok, "p2p_send: port %s refused after room check", p->name);
    return true;
}
