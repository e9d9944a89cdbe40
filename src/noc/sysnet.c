/*
 * sysnet.c - inter-GPM and inter-GPU links (see sysnet.h).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "noc/sysnet.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"

/* Deep FIFOs: the links' bandwidth is what limits, and a request vnet that
 * backs up into a bank must never block that bank's other vnets' progress. */
#define SYSNET_FIFO (1u << 16)

/* One GPM's half of the network. A send half drains its banks' in[] ports,
 * [gpm * banks * n_vnets, (gpm + 1) * banks * n_vnets); a receive half the far
 * ports of the links into its GPM, far[src][gpm][v], local index
 * src * n_vnets + v. A bit per port, set while it holds messages (port_watch):
 * a tick visits only those, in index order, which is the order of a scan of
 * every port (a machine of 16 GPMs has 48 far ports into each GPM, most of
 * them empty at any time). */
struct sysnet_half {
    struct comp comp;
    struct sysnet *net;
    unsigned gpm;
    uint64_t *occupied;
};

struct sysnet {
    const char *name;
    struct sysnet_shape s;
    unsigned n_ep, n_gpm;
    struct sysnet_half *send, *recv; /* [gpm] */
    struct port *in, *out;           /* [ep][vnet] */
    struct port *far;                /* [src gpm][dst gpm][vnet]: the far end of each link */
    struct p2p_link *link;           /* [src gpm][dst gpm] of one GPU (the diagonal unused) */
    struct p2p_link *gpu_link;       /* [src gpu][dst gpu] through the switch (the diagonal unused):
                                        one serialisation for every GPM pair of the two GPUs */
    char **names;
    unsigned n_names;
    struct sysnet_stats st;
};

static const char *add_name(struct sysnet *n, const char *fmt, unsigned a, unsigned b, unsigned c)
{
    char buf[96];
    snprintf(buf, sizeof buf, fmt, n->name, a, b, c);
    n->names[n->n_names] = strdup(buf);
    if (!n->names[n->n_names])
        panic("out of memory");
    return n->names[n->n_names++];
}

static size_t words_for(size_t n_ports)
{
    return (n_ports + 63) / 64;
}

static unsigned gpu_of(const struct sysnet *n, unsigned gpm)
{
    return gpm / n->s.gpms;
}

static size_t far_index(const struct sysnet *n, unsigned src, unsigned dst, unsigned vnet)
{
    return ((size_t)src * n->n_gpm + dst) * n->s.n_vnets + vnet;
}

/* Into a link: serialise and fly to its far FIFO. */
static bool inject(struct sysnet *n, struct msg *m, unsigned src_ep)
{
    unsigned sg = src_ep / n->s.banks, dg = m->dst / n->s.banks;
    panic_if(m->dst >= n->n_ep || sg == dg, "%s: message %u from endpoint %u to %u", n->name,
             m->type, src_ep, m->dst);
    struct port *far = &n->far[far_index(n, sg, dg, m->vnet)];
    /* free: straight into the destination's FIFO; ordered (a release
     * marker): behind what its link and vnet still carry, if anything */
    if ((m->flags & SYSNET_F_FREE) && (m->flags & SYSNET_F_AFTER) && far->n)
        return port_send_delayed(far, m, 0);
    if (m->flags & SYSNET_F_FREE)
        return port_send(&n->out[m->dst * n->s.n_vnets + m->vnet], m);
    uint32_t bytes = n->s.header_bytes + m->size_bytes;
    bool cross = gpu_of(n, sg) != gpu_of(n, dg);
    struct p2p_link *l = cross ? &n->gpu_link[(size_t)gpu_of(n, sg) * n->s.gpus + gpu_of(n, dg)]
                               : &n->link[(size_t)sg * n->n_gpm + dg];
    if (!p2p_send(l, far, m, bytes))
        return false;
    (cross ? n->st.gpu_bytes : n->st.gpm_bytes)[m->cls] += bytes;
    (cross ? n->st.gpu_msgs : n->st.gpm_msgs)[m->cls]++;
    return true;
}

/* The banks' messages onto the links, in endpoint and vnet order. */
static bool send_tick(struct comp *c)
{
    struct sysnet_half *h = (struct sysnet_half *)c;
    struct sysnet *n = h->net;
    unsigned nv = n->s.n_vnets;
    size_t n_in = (size_t)n->s.banks * nv, base = h->gpm * n_in;
    bool more = false;
    for (size_t w = 0; w < words_for(n_in); w++)
        for (uint64_t bits = h->occupied[w]; bits; bits &= bits - 1) {
            size_t i = base + ((w << 6) | (unsigned)__builtin_ctzll(bits));
            struct msg *m;
            while ((m = port_peek(&n->in[i])) && inject(n, m, (unsigned)(i / nv)))
                port_pop(&n->in[i]);
            more |= m != NULL;
        }
    return more;
}

/* What the links into this GPM delivered, into its banks' FIFOs. */
static bool receive_tick(struct comp *c)
{
    struct sysnet_half *h = (struct sysnet_half *)c;
    struct sysnet *n = h->net;
    unsigned nv = n->s.n_vnets;
    size_t n_far = (size_t)n->n_gpm * nv;
    for (size_t w = 0; w < words_for(n_far); w++)
        for (uint64_t bits = h->occupied[w]; bits; bits &= bits - 1) {
            size_t local = (w << 6) | (unsigned)__builtin_ctzll(bits);
            unsigned v = (unsigned)(local % nv);
            struct port *far = &n->far[far_index(n, (unsigned)(local / nv), h->gpm, v)];
            struct msg *m;
            while ((m = port_peek(far))) {
                if (!port_send(&n->out[m->dst * nv + v], m))
                    break; /* the bank pops: a pop of a full port wakes us */
                port_pop(far);
            }
        }
    return false;
}

static void send_dump(struct comp *c, FILE *out)
{
    struct sysnet_half *h = (struct sysnet_half *)c;
    struct sysnet *n = h->net;
    size_t n_in = (size_t)n->s.banks * n->s.n_vnets;
    for (size_t i = h->gpm * n_in; i < (h->gpm + 1) * n_in; i++)
        if (n->in[i].n)
            fprintf(out, "  %s: %u messages waiting for the link\n", n->in[i].name, n->in[i].n);
}

static void receive_dump(struct comp *c, FILE *out)
{
    struct sysnet_half *h = (struct sysnet_half *)c;
    struct sysnet *n = h->net;
    for (unsigned src = 0; src < n->n_gpm; src++)
        for (unsigned v = 0; v < n->s.n_vnets; v++) {
            const struct port *far = &n->far[far_index(n, src, h->gpm, v)];
            if (far->n)
                fprintf(out, "  %s: %u messages in flight\n", far->name, far->n);
        }
}

static void half_init(struct sysnet *n, struct sysnet_half *h, struct eng *e, unsigned gpm,
                      const struct clock *clk, size_t n_ports, bool (*tick)(struct comp *),
                      void (*dump)(struct comp *, FILE *), const char *fmt)
{
    h->net = n;
    h->gpm = gpm;
    h->occupied = calloc(words_for(n_ports), sizeof *h->occupied);
    if (!h->occupied)
        panic("out of memory");
    comp_init(&h->comp, e, add_name(n, fmt, gpm, 0, 0), clk, tick, dump);
}

struct sysnet *sysnet_new(struct eng *e, const char *name, const struct clock *clk,
                          const struct sysnet_shape *shape, struct comp *const *banks)
{
    struct sysnet *n = calloc(1, sizeof *n);
    if (!n)
        panic("out of memory");
    n->name = name;
    n->s = *shape;
    n->n_gpm = shape->gpus * shape->gpms;
    n->n_ep = n->n_gpm * shape->banks;
    unsigned nv = shape->n_vnets;
    size_t n_far = (size_t)n->n_gpm * n->n_gpm * nv;
    n->send = calloc(n->n_gpm, sizeof *n->send);
    n->recv = calloc(n->n_gpm, sizeof *n->recv);
    n->in = calloc((size_t)n->n_ep * nv, sizeof *n->in);
    n->out = calloc((size_t)n->n_ep * nv, sizeof *n->out);
    n->far = calloc(n_far, sizeof *n->far);
    n->link = calloc((size_t)n->n_gpm * n->n_gpm, sizeof *n->link);
    n->gpu_link = calloc((size_t)shape->gpus * shape->gpus, sizeof *n->gpu_link);
    n->names = calloc(2 * (size_t)n->n_gpm + 2 * (size_t)n->n_ep * nv + n_far, sizeof *n->names);
    if (!n->send || !n->recv || !n->in || !n->out || !n->far || !n->link || !n->gpu_link ||
        !n->names)
        panic("out of memory");
    for (unsigned g = 0; g < n->n_gpm; g++) {
        half_init(n, &n->send[g], e, g, clk, (size_t)shape->banks * nv, send_tick, send_dump,
                  "%s.gpm%u.send");
        half_init(n, &n->recv[g], e, g, clk, (size_t)n->n_gpm * nv, receive_tick, receive_dump,
                  "%s.gpm%u.receive");
    }
    for (unsigned ep = 0; ep < n->n_ep; ep++) {
        struct sysnet_half *send = &n->send[ep / shape->banks], *recv = &n->recv[ep / shape->banks];
        for (unsigned v = 0; v < nv; v++) {
            size_t i = (size_t)ep * nv + v, local = i % ((size_t)shape->banks * nv);
            port_init(&n->in[i], add_name(n, "%s.in[%u].vnet%u", ep, v, 0), SYSNET_FIFO, 0,
                      banks[ep], &send->comp);
            port_watch(&n->in[i], &send->occupied[local >> 6], 1ull << (local & 63));
            port_init(&n->out[i], add_name(n, "%s.out[%u].vnet%u", ep, v, 0), SYSNET_FIFO, 0,
                      &recv->comp, banks[ep]);
        }
    }
    for (unsigned a = 0; a < shape->gpus * shape->gpus; a++) {
        p2p_init(&n->gpu_link[a], shape->gpu_bytes_per_s);
        n->gpu_link[a].latency_ps = shape->gpu_latency_ps;
    }
    for (unsigned a = 0; a < n->n_gpm; a++)
        for (unsigned b = 0; b < n->n_gpm; b++) {
            struct p2p_link *l = &n->link[(size_t)a * n->n_gpm + b];
            p2p_init(l, shape->gpm_bytes_per_s);
            l->latency_ps = shape->gpm_latency_ps;
            for (unsigned v = 0; v < nv; v++) {
                size_t i = far_index(n, a, b, v), local = (size_t)a * nv + v;
                port_init(&n->far[i], add_name(n, "%s.link[%u->%u].vnet%u", a, b, v), SYSNET_FIFO,
                          0, &n->send[a].comp, &n->recv[b].comp);
                port_watch(&n->far[i], &n->recv[b].occupied[local >> 6], 1ull << (local & 63));
            }
        }
    return n;
}

void sysnet_free(struct sysnet *n)
{
    if (!n)
        return;
    unsigned nv = n->s.n_vnets;
    for (unsigned i = 0; i < n->n_ep * nv; i++) {
        port_destroy(&n->in[i]);
        port_destroy(&n->out[i]);
    }
    for (size_t i = 0; i < (size_t)n->n_gpm * n->n_gpm * nv; i++)
        port_destroy(&n->far[i]);
    for (unsigned g = 0; g < n->n_gpm; g++) {
        free(n->send[g].occupied);
        free(n->recv[g].occupied);
    }
    for (unsigned i = 0; i < n->n_names; i++)
        free(n->names[i]);
    free(n->names);
    free(n->send);
    free(n->recv);
    free(n->in);
    free(n->out);
    free(n->far);
    free(n->link);
    free(n->gpu_link);
    free(n);
}

struct comp *sysnet_sender(struct sysnet *n, unsigned gpm)
{
    return &n->send[gpm].comp;
}

struct comp *sysnet_receiver(struct sysnet *n, unsigned gpm)
{
    return &n->recv[gpm].comp;
}

struct port *sysnet_in(struct sysnet *n, unsigned ep, unsigned vnet)
{
    return &n->in[ep * n->s.n_vnets + vnet];
}

struct port *sysnet_out(struct sysnet *n, unsigned ep, unsigned vnet)
{
    return &n->out[ep * n->s.n_vnets + vnet];
}

struct port *sysnet_link(struct sysnet *n, unsigned src, unsigned dst, unsigned vnet)
{
    return &n->far[far_index(n, src, dst, vnet)];
}

const struct sysnet_stats *sysnet_stats(const struct sysnet *n)
{
    return &n->st;
}
