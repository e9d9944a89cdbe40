/*
 * mesh.h - a 2D mesh network for one direction, with the crossbar's ports.
 *
 * Spec 003 §3 puts CPU cores, GPU compute units and the LLC banks on a 4 x 4
 * mesh; the paper's Garnet parameters (flit size, router pipeline, virtual
 * channels) are not given, so every one is a parameter here (`[noc]`, keys
 * `topology = mesh`, `mesh_cols`, `mesh_rows`, `link_cycles`, and the
 * crossbar's `flit_bytes`, `latency_cycles` (the router pipeline), `vc_flits`,
 * `header_bytes`). A mesh is built from n_in sources to n_out destinations
 * exactly like a crossbar (mesh_in/mesh_out give the same ports, m->dst picks
 * the destination, m->vnet the virtual network), so a protocol cannot tell
 * which one carries its messages. Each source and destination sits at a node;
 * by default endpoint k of n sits at node k * nodes / n (spread evenly), or
 * where the caller's placement says.
 *
 * Model (virtual cut-through, message granularity, dimension-order routing):
 * every router has an input buffer per (input port, vnet): one per direction
 * (N, E, S, W) and one per source at the node (its injection port). A message
 * competes at a router latency_cycles (the pipeline) after it entered the
 * router's buffer; XY routing picks the output (a link toward the next node,
 * or the destination's ejection port at the final node). Every cycle each
 * output grants at most one head, round-robin over the router's (input, vnet)
 * heads; a message of F flits holds its input and output for F cycles. Over a
 * link its head reaches the next router's buffer link_cycles later (the tail
 * follows, as in cut-through); at the ejection port it is ready F cycles after
 * its grant (+ jitter), as in the crossbar. Zero-load latency of a message of
 * F flits over h hops: latency_cycles * (h + 1) + link_cycles * h + F.
 * Credits: a grant needs room for F flits in the next buffer (vc_flits per
 * vnet; one oversized message may enter an empty buffer), reserved at grant;
 * a head that finds too little room reserves it, so shorter messages cannot
 * starve a longer one. XY routing has no cyclic channel dependence and each
 * vnet has its own buffers, so the mesh cannot deadlock by itself.
 * DEVIATION: buffers hold whole messages (no flit interleaving of messages on
 * one virtual channel); link and pipeline stages are latencies, not modelled
 * stage by stage; one physical network per direction (requests and replies
 * do not share links; the spec leaves the vnet-to-network mapping open).
 * Traffic: bytes, flits and messages per class are counted once per message
 * (as the crossbar does); `hop_flits` adds the flits each link carried.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef NOC_MESH_H
#define NOC_MESH_H

#include "noc/xbar.h"

struct mesh;

/* A mesh of spec->mesh_cols x spec->mesh_rows routers from n_in sources to
 * n_out destinations. in_node[s] / out_node[d] place the endpoints (NULL:
 * spread evenly). receivers[d] is woken when a message lands for destination
 * d; senders[s] (may be NULL) when its full injection buffer frees a slot. */
struct mesh *mesh_new(struct eng *e, const char *name, const struct clock *clk,
                      const struct noc_spec *spec, unsigned n_in, unsigned n_out, unsigned n_vnets,
                      struct comp *const *senders, struct comp *const *receivers,
                      const uint16_t *in_node, const uint16_t *out_node);
void mesh_free(struct mesh *m);
void mesh_set_seed(struct mesh *m, uint64_t seed);

struct port *mesh_in(struct mesh *m, unsigned src, unsigned vnet);
struct port *mesh_out(struct mesh *m, unsigned dst, unsigned vnet);

/* Node of source s / destination d, and the hops (links) between two nodes. */
unsigned mesh_in_node(const struct mesh *m, unsigned src);
unsigned mesh_out_node(const struct mesh *m, unsigned dst);
unsigned mesh_hops(const struct mesh *m, unsigned from_node, unsigned to_node);

/* Per message: bytes, flits, messages by class; busy_out_cycles counts
 * ejection-port cycles, hop_flits the flits every link carried. */
const struct xbar_stats *mesh_stats(const struct mesh *m);
struct comp *mesh_comp(struct mesh *m);
void mesh_dump(struct mesh *m, FILE *out);

#endif
