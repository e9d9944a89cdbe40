/*
 * xbar.h - a crossbar for one direction (SMs -> L2 banks, or back).
 *
 * Spec 002 §4: one crossbar per direction, 32-byte flits, 700 MHz, one flit
 * per cycle per port, 8-flit buffer per virtual channel. Each source has one
 * input FIFO per virtual network (so a blocked vnet never blocks another,
 * which is what keeps protocols deadlock-free); each destination has one
 * output FIFO per vnet that its receiver pops. Every cycle every output
 * grants at most one input (round-robin over inputs and vnets) and a granted
 * message holds both its input and its output for as many cycles as it has
 * flits; it then lands in the output FIFO after the link latency.
 * Traffic is accounted in bytes and flits per message class.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef NOC_XBAR_H
#define NOC_XBAR_H

#include "sim/eng.h"
#include "sim/msg.h"
#include "sim/port.h"

struct noc_spec {
    double mhz;               /* interconnect clock */
    uint32_t flit_bytes;      /* 32 */
    uint32_t latency_cycles;  /* pipeline latency through the crossbar */
    uint32_t vc_flits;        /* buffer per virtual channel, in flits */
    uint32_t header_bytes;    /* header of every message (control = header only) */
};

struct xbar_stats {
    uint64_t bytes[TRAFFIC_N];   /* by message class */
    uint64_t flits[TRAFFIC_N];
    uint64_t msgs[TRAFFIC_N];
    uint64_t busy_out_cycles;    /* output-port cycles spent moving flits */
    uint64_t blocked_cycles;     /* cycles a ready head could not be granted */
};

struct xbar;

/* A crossbar from n_in sources to n_out destinations with n_vnets virtual
 * networks. receivers[d] is woken when a message lands for destination d;
 * senders[s] (may be NULL) is woken when its full input FIFO frees a slot. */
struct xbar *xbar_new(struct eng *e, const char *name, const struct clock *clk,
                      const struct noc_spec *spec, unsigned n_in, unsigned n_out,
                      unsigned n_vnets, struct comp *const *senders,
                      struct comp *const *receivers);
void xbar_free(struct xbar *x);

/* Sources push here (m->dst picks the output, m->vnet the vnet; m->src must
 * be the source index). */
struct port *xbar_in(struct xbar *x, unsigned src, unsigned vnet);
/* Destinations pop here. */
struct port *xbar_out(struct xbar *x, unsigned dst, unsigned vnet);

/* Number of flits a message of size_bytes occupies. */
unsigned xbar_flits(const struct noc_spec *spec, unsigned size_bytes);

const struct xbar_stats *xbar_stats(const struct xbar *x);
struct comp *xbar_comp(struct xbar *x);

#endif
