/*
 * sysnet.h - the network between the L2 banks of different GPMs: inter-GPM
 * links inside a GPU and inter-GPU links through a switch (spec 004b §2.1).
 *
 * Endpoints are L2 banks, numbered gpm * banks + bank over the machine's
 * GPMs (gpm = gpu * gpms + module). Every ordered pair of GPMs of one GPU has
 * a point-to-point link (topology.gpm_link_*); every ordered pair of GPUs has
 * one through the switch (topology.gpu_link_*), which carries the messages
 * of all their GPM pairs: the switch is non-blocking and each GPU pair gets
 * the link bandwidth per direction. A message of B bytes (noc.header_bytes +
 * its payload) serialises on its link (noc/p2p) in send order, then flies
 * the link's latency into a FIFO per (link, vnet) at the far side, whence it
 * moves to its bank's input FIFO of its vnet. Order is kept per (source GPM,
 * destination GPM, vnet): the FIFO channels a release relies on (spec 004b
 * §2.7). Traffic is counted in bytes and messages per class, inter-GPM and
 * inter-GPU apart.
 *
 * The network is two components per GPM (docs/parallel.md 1.5): a send half
 * that takes its banks' messages onto the links, and a receive half that
 * takes what its links delivered into its banks' FIFOs. A link's far FIFO
 * is the one port between GPMs, so a machine can be partitioned per GPM
 * with the network inside the partitions. Every send half ranks before every
 * receive half (order_components), which keeps one component's order: at
 * one time every injection, in endpoint order, then every delivery.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef NOC_SYSNET_H
#define NOC_SYSNET_H

#include "noc/p2p.h"
#include "noc/xbar.h"
#include "sim/port.h"

/* A bit of msg->flags the network reads: the message costs nothing (no
 * serialisation, no latency, not counted), for idealised protocols. It goes
 * straight into its destination's input FIFO, past the messages still on
 * its link, unless it also carries SYSNET_F_AFTER: then it keeps the link's
 * order per vnet (it arrives with the last message sent before it on its
 * link and vnet, or at once if none is in flight), as a release marker
 * must: it asks whether everything sent before it has arrived. A free
 * message is sent by its source GPM's send half into the destination's
 * FIFO, which is another GPM's: the one port with two senders, for the one
 * protocol that uses it (ideal-mg), whose machine is one partition. */
#define SYSNET_F_FREE  0x8000
#define SYSNET_F_AFTER 0x10

struct sysnet_stats {
    uint64_t gpm_bytes[TRAFFIC_N], gpm_msgs[TRAFFIC_N]; /* between GPMs of one GPU */
    uint64_t gpu_bytes[TRAFFIC_N], gpu_msgs[TRAFFIC_N]; /* between GPUs */
};

struct sysnet_shape {
    unsigned gpus, gpms, banks, n_vnets;
    double gpm_bytes_per_s, gpu_bytes_per_s; /* 0: unlimited */
    tick_t gpm_latency_ps, gpu_latency_ps;
    uint32_t header_bytes;
};

struct sysnet;

/* banks[ep] is endpoint ep's L2 bank (sender and receiver of its ports). */
struct sysnet *sysnet_new(struct eng *e, const char *name, const struct clock *clk,
                          const struct sysnet_shape *shape, struct comp *const *banks);
void sysnet_free(struct sysnet *n);
/* The half of GPM gpm (gpu * gpms + module) that sends onto the links, and
 * the one that receives from them. */
struct comp *sysnet_sender(struct sysnet *n, unsigned gpm);
struct comp *sysnet_receiver(struct sysnet *n, unsigned gpm);
/* A bank sends here (m->dst: the destination endpoint; m->src: its own). */
struct port *sysnet_in(struct sysnet *n, unsigned ep, unsigned vnet);
/* A bank receives here. */
struct port *sysnet_out(struct sysnet *n, unsigned ep, unsigned vnet);
/* The far FIFO of the link from GPM src to GPM dst (src != dst), vnet v:
 * sysnet_sender(src) sends into it, sysnet_receiver(dst) drains it. */
struct port *sysnet_link(struct sysnet *n, unsigned src, unsigned dst, unsigned vnet);
const struct sysnet_stats *sysnet_stats(const struct sysnet *n);

#endif
