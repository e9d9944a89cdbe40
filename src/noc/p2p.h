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

/* How a message crosses a path of links (a sender's port into a switch, then
 * the switch's port to the receiver). */
enum p2p_path_mode {
    /* A packet switch with buffers between the links: each link takes the
     * message once it is free and the message's head has reached it (cut-through)
     * and is held until the message has passed, which is no earlier than the link
     * before it let the message go. A busy link delays the links after it, not
     * those before it: a sender's port goes on to other receivers while one
     * receiver's port is busy. */
    P2P_PATH_BUFFERED,
    /* A circuit: the message starts when every link on the path is free and holds
     * them all for the slowest link's serialisation, so a sender's port idles
     * while its receiver's is busy, and the reservations, made at send time and
     * never backfilled, queue one sender's burst behind another's. */
    P2P_PATH_CIRCUIT,
    /* Buffered, but each link after the first serves messages in the order their
     * heads reach it, not the order they were sent: a message's place on a later
     * link is taken when its head arrives there, so it needs the owner of the
     * path to defer that step (src/gfx/sfr.c); p2p_send_path does not take it. */
    P2P_PATH_ARRIVAL,
};
extern const char *const p2p_path_mode_names[]; /* "buffered", "circuit", "arrival", NULL */

/* Serialise `bytes` on l once it is free, from `at` on, and hold l until the
 * message has passed, no earlier than `not_before` (when it has left the link
 * before l): *start gets when the message starts on l; returns when it has
 * passed. */
tick_t p2p_take(struct p2p_link *l, uint64_t bytes, tick_t at, tick_t not_before, tick_t *start);

/* The same over a path of `n` links, crossed as `mode` says; the first link's
 * latency_ps is the path's. */
bool p2p_send_path(struct p2p_link *const *path, unsigned n, enum p2p_path_mode mode,
                   struct port *p, struct msg *m, uint64_t bytes);

#endif
