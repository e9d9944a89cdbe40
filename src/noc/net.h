/*
 * net.h - one direction of the interconnect, whichever topology `[noc]`
 * names: a crossbar (noc/xbar.h) or a 2D mesh (noc/mesh.h).
 *
 * Both offer the same ports (an input per (source, vnet), an output per
 * (destination, vnet)) and the same statistics, so the machine builder and
 * the protocols do not depend on the topology; this is the one place that
 * chooses.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef NOC_NET_H
#define NOC_NET_H

#include "noc/mesh.h"
#include "noc/xbar.h"

struct net {
    struct xbar *xbar; /* exactly one of the two */
    struct mesh *mesh;
};

/* Build the network spec->topology names from n_in sources to n_out
 * destinations (see xbar_new; mesh endpoints are spread evenly over the
 * nodes). */
struct net *net_new(struct eng *e, const char *name, const struct clock *clk,
                    const struct noc_spec *spec, unsigned n_in, unsigned n_out, unsigned n_vnets,
                    struct comp *const *senders, struct comp *const *receivers);
/* The same with the endpoints placed: in_node[s] / out_node[d] name a mesh
 * node (NULL: spread evenly; a crossbar has no places). */
struct net *net_new_placed(struct eng *e, const char *name, const struct clock *clk,
                           const struct noc_spec *spec, unsigned n_in, unsigned n_out,
                           unsigned n_vnets, struct comp *const *senders,
                           struct comp *const *receivers, const uint16_t *in_node,
                           const uint16_t *out_node);
void net_free(struct net *n);
void net_set_seed(struct net *n, uint64_t seed);
struct port *net_in(struct net *n, unsigned src, unsigned vnet);
struct port *net_out(struct net *n, unsigned dst, unsigned vnet);
const struct xbar_stats *net_stats(const struct net *n);
struct comp *net_comp(struct net *n);

#endif
