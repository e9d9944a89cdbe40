/*
 * net.c - the topology switch of net.h.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "noc/net.h"

#include <stdlib.h>

#include "base/log.h"

struct net *net_new(struct eng *e, const char *name, const struct clock *clk,
                    const struct noc_spec *spec, unsigned n_in, unsigned n_out, unsigned n_vnets,
                    struct comp *const *senders, struct comp *const *receivers)
{
    return net_new_placed(e, name, clk, spec, n_in, n_out, n_vnets, senders, receivers, NULL, NULL);
}

struct net *net_new_placed(struct eng *e, const char *name, const struct clock *clk,
                           const struct noc_spec *spec, unsigned n_in, unsigned n_out,
                           unsigned n_vnets, struct comp *const *senders,
                           struct comp *const *receivers, const uint16_t *in_node,
                           const uint16_t *out_node)
{
    struct net *n = calloc(1, sizeof *n);
    if (!n)
        panic("out of memory");
    if (spec->topology == NOC_MESH)
        n->mesh = mesh_new(e, name, clk, spec, n_in, n_out, n_vnets, senders, receivers, in_node,
                           out_node);
    else
        n->xbar = xbar_new(e, name, clk, spec, n_in, n_out, n_vnets, senders, receivers);
    return n;
}

void net_free(struct net *n)
{
    if (!n)
        return;
    xbar_free(n->xbar);
    mesh_free(n->mesh);
    free(n);
}

void net_set_seed(struct net *n, uint64_t seed)
{
    if (n->mesh)
        mesh_set_seed(n->mesh, seed);
    else
        xbar_set_seed(n->xbar, seed);
}

struct port *net_in(struct net *n, unsigned src, unsigned vnet)
{
    return n->mesh ? mesh_in(n->mesh, src, vnet) : xbar_in(n->xbar, src, vnet);
}

struct port *net_out(struct net *n, unsigned dst, unsigned vnet)
{
    return n->mesh ? mesh_out(n->mesh, dst, vnet) : xbar_out(n->xbar, dst, vnet);
}

const struct xbar_stats *net_stats(const struct net *n)
{
    return n->mesh ? mesh_stats(n->mesh) : xbar_stats(n->xbar);
}

struct comp *net_comp(struct net *n)
{
    return n->mesh ? mesh_comp(n->mesh) : xbar_comp(n->xbar);
}
