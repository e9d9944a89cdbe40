/*
 * xbar.h - a crossbar for one direction (SMs -> L2 banks, or back).
 *
 * Spec 002 §4: one crossbar per direction, 32-byte flits, 700 MHz, one flit
 * per cycle per port, 8-flit buffer per virtual channel. Each source has one
 * input FIFO per virtual network (a blocked vnet never blocks another, which
 * keeps protocols deadlock-free); each destination has one output FIFO per
 * vnet that its receiver pops. A message sent at time t may compete from
 * t + latency_cycles (router pipeline); every cycle every output grants at
 * most one input (round-robin over (input, vnet)); a message of F flits
 * (xbar_flits: header_bytes + m->size_bytes, the payload, 0 for control)
 * granted at cycle g holds its input and output for cycles g..g+F-1 and is
 * ready in the output FIFO at g + F (+ jitter). Idle: edge(t + L) + F.
 * INVARIANT: an output FIFO never holds more than vc_flits flits (room is
 * reserved at grant; one oversized message may enter an empty FIFO); order
 * per (input, vnet, output) is kept, also with jitter.
 * DEVIATION: input FIFOs hold vc_flits messages (those in the pipeline
 * included), not flits: port_send cannot see sizes; exact for 1-flit
 * control messages.
 * Traffic is accounted in bytes, flits and messages per message class.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef NOC_XBAR_H
#define NOC_XBAR_H

#include "sim/cfg.h"
#include "sim/eng.h"
#include "sim/msg.h"
#include "sim/port.h"

struct noc_spec {
    double mhz;               /* interconnect clock */
    uint32_t flit_bytes;      /* 32 */
    uint32_t latency_cycles;  /* router pipeline latency before a message competes */
    uint32_t vc_flits;        /* buffer per virtual channel, in flits */
    uint32_t header_bytes;    /* header of every message (control = header only) */
    uint32_t jitter_cycles;   /* extra random delay per message, [0, jitter] (0 = none) */
    uint32_t conflict_pct;    /* chance (percent) that a grant finds its destination busy */
    uint32_t conflict_cycles; /* how long a destination stays busy after such a conflict */
    uint32_t topology;        /* enum noc_topology: what net_new builds */
    uint32_t mesh_cols;       /* mesh: routers per row */
    uint32_t mesh_rows;       /* mesh: rows of routers */
    uint32_t link_cycles;     /* mesh: cycles for a message's head to cross one link */
};

/* The networks net_new (noc/net.h) can build from the same [noc] keys. */
enum noc_topology { NOC_CROSSBAR, NOC_MESH };
extern const char *const noc_topology_names[];

/* Options relative to struct noc_spec (keys without a section: "mhz", ...). */
extern const struct cfg_opt noc_opts[];

struct xbar_stats {
    uint64_t bytes[TRAFFIC_N]; /* by message class */
    uint64_t flits[TRAFFIC_N];
    uint64_t msgs[TRAFFIC_N];
    uint64_t busy_out_cycles; /* output-port cycles spent moving flits */
    uint64_t blocked_cycles;  /* cycles a ready head could not be granted */
    uint64_t full_out_cycles; /* ... of which because its output FIFO lacked room */
    uint64_t hop_flits;       /* flits carried by every link (mesh; the crossbar: one hop) */
};

struct xbar;

/* A crossbar from n_in sources to n_out destinations with n_vnets virtual
 * networks. receivers[d] is woken when a message lands for destination d;
 * senders[s] (may be NULL) is woken when its full input FIFO frees a slot. */
struct xbar *xbar_new(struct eng *e, const char *name, const struct clock *clk,
                      const struct noc_spec *spec, unsigned n_in, unsigned n_out, unsigned n_vnets,
                      struct comp *const *senders, struct comp *const *receivers);
void xbar_free(struct xbar *x);
/* Seed the jitter stream (default seed 0); call before traffic flows. */
void xbar_set_seed(struct xbar *x, uint64_t seed);

/* Sources push here (m->dst picks the output, m->vnet the vnet; m->src must
 * be the source index). */
struct port *xbar_in(struct xbar *x, unsigned src, unsigned vnet);
/* Destinations pop here. */
struct port *xbar_out(struct xbar *x, unsigned dst, unsigned vnet);

/* Flits on the wire of a message whose payload is size_bytes (header added;
 * at least 1). */
unsigned xbar_flits(const struct noc_spec *spec, unsigned size_bytes);

const struct xbar_stats *xbar_stats(const struct xbar *x);
struct comp *xbar_comp(struct xbar *x);
/* Print every queued message (type, address, src/dst, vnet, age). */
void xbar_dump(struct xbar *x, FILE *out);

#endif
