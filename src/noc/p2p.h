/*
 * p2p.h - a point-to-point link between two endpoints (one direction).
 *
 * The inter-GPU links of a DGX-like machine (thesis Table 6.2: 64 GB/s per
 * direction per GPU pair, 200 cycles). A message of B bytes leaves the link
 * B / bandwidth after the link is free (serialisation, messages in send
 * order) and becomes ready at the receiver one latency later. The link is the
 * timing in front of ports: several ports (virtual networks to different
 * receivers on the far side) share one link's serialisation, each port
 * carries the link's latency, and a full port (a receive buffer) refuses the
 * send without occupying the link. Bandwidth 0 means unlimited (no
 * serialisation), the ideal links of the thesis.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef NOC_P2P_H
#define NOC_P2P_H

#include "sim/port.h"

struct p2p_link {
    double ps_per_byte;   /* 0: unlimited bandwidth */
    tick_t free_at;       /* when the last accepted message has left */
    uint64_t bytes, msgs; /* statistics */
    tick_t busy_ps;       /* time spent serialising */
    tick_t latency_ps;    /* flight time added after serialisation on top of the port's own
                             latency (0 from p2p_init: the port carries it) */
};

/* bytes_per_second 0 = unlimited. */
void p2p_init(struct p2p_link *l, double bytes_per_second);

/* Serialise `bytes` on the link and deliver `m` through `p` (a port whose
 * latency is the link's). False, with nothing sent, when the port is full. */
bool p2p_send(struct p2p_link *l, struct port *p, struct msg *m, uint64_t bytes);

/* The same over a path of `n` links crossed cut-through, as a sender's port
 * into a switch and the switch's port to the receiver: the message starts
 * when every link on the path is free and occupies each for the slowest
 * link's serialisation; the first link's latency_ps is the path's. */
bool p2p_send_path(struct p2p_link *const *path, unsigned n, struct port *p, struct msg *m,
                   uint64_t bytes);

#endif
