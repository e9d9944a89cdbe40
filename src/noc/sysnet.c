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

struct sysnet {
    struct comp comp;
    struct sysnet_shape s;
    unsigned n_ep, n_gpm;
    struct port *in, *out; /* [ep][vnet] */
    struct port *far;      /* [src gpm][dst gpm][vnet]: the far end of each link */
    /* A bit per port of in[] and of far[], set while it holds messages
     * (port_watch): a tick visits only those, in index order, which is the
     * order of a scan of every port (a machine of 16 GPMs has 768 far ports,
     * most of them empty at any time). */
    uint64_t *in_occupied, *far_occupied;
    struct p2p_link *link;     /* [src gpm][dst gpm] of one GPU (the diagonal unused) */
    struct p2p_link *gpu_link; /* [src gpu][dst gpu] through the switch (the diagonal unused):
                                  one serialisation for every GPM pair of the two GPUs */
    char **names;
    unsigned n_names;
    struct sysnet_stats st;
};

static const char *add_name(struct sysnet *n, const char *fmt, unsigned a, unsigned b, unsigned c)
{
    char buf[96];
    snprintf(buf, sizeof buf, fmt, n->comp.name, a, b, c);
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

/* Into a link: serialise and fly to its far FIFO. */
static bool inject(struct sysnet *n, struct msg *m, unsigned src_ep)
{
    unsigned sg = src_ep / n->s.banks, dg = m->dst / n->s.banks;
    panic_if(m->dst >= n->n_ep || sg == dg, "%s: message %u from endpoint %u to %u", n->comp.name,
             m->type, src_ep, m->dst);
    size_t li = (size_t)sg * n->n_gpm + dg;
    struct port *far = &n->far[li * n->s.n_vnets + m->vnet];
    /* free: straight into the destination's FIFO; ordered (a release
     * marker): behind what its link and vnet still carry, if anything */
    if ((m->flags & SYSNET_F_FREE) && (m->flags & SYSNET_F_AFTER) && far->n)
        return port_send_delayed(far, m, 0);
    if (m->flags & SYSNET_F_FREE)
        return port_send(&n->out[m->dst * n->s.n_vnets + m->vnet], m);
    uint32_t bytes = n->s.header_bytes + m->size_bytes;
    bool cross = gpu_of(n, sg) != gpu_of(n, dg);
    struct p2p_link *l =
        cross ? &n->gpu_link[(size_t)gpu_of(n, sg) * n->s.gpus + gpu_of(n, dg)] : &n->link[li];
    if (!p2p_send(l, far, m, bytes))
        return false;
    (cross ? n->st.gpu_bytes : n->st.gpm_bytes)[m->cls] += bytes;
    (cross ? n->st.gpu_msgs : n->st.gpm_msgs)[m->cls]++;
    return true;
}

static bool sysnet_tick(struct comp *c)
{
    struct sysnet *n = (struct sysnet *)c;
    bool more = false;
    unsigned nv = n->s.n_vnets;
    size_t n_in = (size_t)n->n_ep * nv, n_far = (size_t)n->n_gpm * n->n_gpm * nv;
    for (size_t w = 0; w < words_for(n_in); w++)
        for (uint64_t bits = n->in_occupied[w]; bits; bits &= bits - 1) {
            size_t i = (w << 6) | (unsigned)__builtin_ctzll(bits);
            struct msg *m;
            while ((m = port_peek(&n->in[i])) && inject(n, m, (unsigned)(i / nv)))
                port_pop(&n->in[i]);
            more |= m != NULL;
        }
    for (size_t w = 0; w < words_for(n_far); w++) /* read after the injections above */
        for (uint64_t bits = n->far_occupied[w]; bits; bits &= bits - 1) {
            size_t i = (w << 6) | (unsigned)__builtin_ctzll(bits);
            struct msg *m;
            while ((m = port_peek(&n->far[i]))) {
                struct port *out = &n->out[m->dst * nv + i % nv];
                if (!port_send(out, m))
                    break; /* the bank pops: a pop of a full port wakes us */
                port_pop(&n->far[i]);
            }
        }
    return more;
}

static void sysnet_dump(struct comp *c, FILE *out)
{
    struct sysnet *n = (struct sysnet *)c;
    unsigned nv = n->s.n_vnets;
    for (size_t i = 0; i < (size_t)n->n_gpm * n->n_gpm * nv; i++)
        if (n->far[i].n)
            fprintf(out, "  %s: %u messages in flight\n", n->far[i].name, n->far[i].n);
    for (unsigned i = 0; i < n->n_ep * nv; i++)
        if (n->in[i].n)
            fprintf(out, "  %s: %u messages waiting for the link\n", n->in[i].name, n->in[i].n);
}

struct sysnet *sysnet_new(struct eng *e, const char *name, const struct clock *clk,
                          const struct sysnet_shape *shape, struct comp *const *banks)
{
    struct sysnet *n = calloc(1, sizeof *n);
    if (!n)
        panic("out of memory");
    n->s = *shape;
    n->n_gpm = shape->gpus * shape->gpms;
    n->n_ep = n->n_gpm * shape->banks;
    unsigned nv = shape->n_vnets;
    size_t n_far = (size_t)n->n_gpm * n->n_gpm * nv;
    comp_init(&n->comp, e, name, clk, sysnet_tick, sysnet_dump);
    n->in = calloc((size_t)n->n_ep * nv, sizeof *n->in);
    n->out = calloc((size_t)n->n_ep * nv, sizeof *n->out);
    n->far = calloc(n_far, sizeof *n->far);
    n->link = calloc((size_t)n->n_gpm * n->n_gpm, sizeof *n->link);
    n->gpu_link = calloc((size_t)shape->gpus * shape->gpus, sizeof *n->gpu_link);
    n->names = calloc(2 * (size_t)n->n_ep * nv + n_far, sizeof *n->names);
    n->in_occupied = calloc(words_for((size_t)n->n_ep * nv), sizeof *n->in_occupied);
    n->far_occupied = calloc(words_for(n_far), sizeof *n->far_occupied);
    if (!n->in || !n->out || !n->far || !n->link || !n->gpu_link || !n->names || !n->in_occupied ||
        !n->far_occupied)
        panic("out of memory");
    for (unsigned ep = 0; ep < n->n_ep; ep++)
        for (unsigned v = 0; v < nv; v++) {
            size_t i = (size_t)ep * nv + v;
            port_init(&n->in[i], add_name(n, "%s.in[%u].vnet%u", ep, v, 0), SYSNET_FIFO, 0,
                      banks[ep], &n->comp);
            port_watch(&n->in[i], &n->in_occupied[i >> 6], 1ull << (i & 63));
            port_init(&n->out[ep * nv + v], add_name(n, "%s.out[%u].vnet%u", ep, v, 0), SYSNET_FIFO,
                      0, &n->comp, banks[ep]);
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
                size_t i = ((size_t)a * n->n_gpm + b) * nv + v;
                port_init(&n->far[i], add_name(n, "%s.link[%u->%u].vnet%u", a, b, v), SYSNET_FIFO,
                          0, &n->comp, &n->comp);
                port_watch(&n->far[i], &n->far_occupied[i >> 6], 1ull << (i & 63));
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
    for (unsigned i = 0; i < n->n_names; i++)
        free(n->names[i]);
    free(n->names);
    free(n->in);
    free(n->out);
    free(n->far);
    free(n->in_occupied);
    free(n->far_occupied);
    free(n->link);
    free(n->gpu_link);
    free(n);
}

struct port *sysnet_in(struct sysnet *n, unsigned ep, unsigned vnet)
{
    return &n->in[ep * n->s.n_vnets + vnet];
}

struct port *sysnet_out(struct sysnet *n, unsigned ep, unsigned vnet)
{
    return &n->out[ep * n->s.n_vnets + vnet];
}

const struct sysnet_stats *sysnet_stats(const struct sysnet *n)
{
    return &n->st;
}

struct comp *sysnet_comp(struct sysnet *n)
{
    return &n->comp;
}
