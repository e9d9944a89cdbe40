/*
 * mesh.c - the 2D mesh of mesh.h: routers with per-(input, vnet) buffers,
 * XY routing, one grant per output per cycle, credits for whole messages.
 *
 * The whole mesh is one component (like the crossbar): each tick visits every
 * router output once, in an order that rotates by one output per cycle, and
 * grants it the first eligible head among that router's (input, vnet) buffers,
 * round-robin from the one after its last grant. Inputs are numbered
 * globally: 0..n_in-1 are the sources' injection buffers, then node * 4 + dir
 * the buffer a node's router fills from its neighbour in direction dir.
 * Outputs likewise: 0..n_out-1 are the destinations' ejection ports, then
 * node * 4 + dir the link toward the neighbour in direction dir, which feeds
 * that neighbour's input from the opposite direction. Buffers and ejection
 * ports are ports (src/sim/port.h) whose weight is the flits they hold, so a
 * router checks credits by reading the next buffer's weight. The mesh ticks
 * every cycle while a ready head waits, else sleeps until the next head is
 * ready (its ports wake it when messages arrive).
 * INVARIANT: every input and output starts at most one message per F cycles;
 * order per (source, vnet, destination) is kept (one XY path, FIFO buffers).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "noc/mesh.h"

#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "base/rng.h"

enum { DIR_N, DIR_E, DIR_S, DIR_W, N_DIRS };
static const char dir_names[N_DIRS] = {'N', 'E', 'S', 'W'};

#define MESH_NAME_BYTES 64

struct mesh {
    struct comp comp;
    struct noc_spec spec;
    unsigned cols, rows, nodes;
    unsigned n_in, n_out, n_vnets;
    unsigned n_inputs;            /* n_in + 4 * nodes (ids; edge ones stay empty) */
    unsigned n_output_ids;        /* n_out + 4 * nodes */
    unsigned n_outputs;           /* outputs that exist (no links off the edge) */
    uint16_t *in_node, *out_node; /* [src], [dst]: where the endpoints sit */
    struct port *in;              /* [input * n_vnets + vnet] */
    struct port *out;             /* [dst * n_vnets + vnet]: ejection ports */
    unsigned *node_in_first;      /* [node]: first of its inputs in node_inputs */
    unsigned *node_inputs;        /* inputs grouped by node (injection, then N E S W) */
    unsigned *node_out_first;     /* [node]: first of its outputs in node_outputs */
    unsigned *node_outputs;       /* outputs grouped by node (ejection, then N E S W) */
    uint16_t *output_node;        /* [output]: the router it belongs to */
    cycle_t *in_free_at;          /* [input]: first cycle it may start a message */
    cycle_t *out_free_at;         /* [output] */
    unsigned *rr;                 /* [output]: position in its router's (input, vnet) list */
    int32_t *head_out;            /* [input * n_vnets + vnet]: output a grantable head wants */
    tick_t *head_ready;           /* [input * n_vnets + vnet]: TICK_MAX if empty */
    int32_t *reserved;            /* [output * n_vnets + vnet]: head waiting for room, or -1 */
    unsigned out_first;           /* output visited first this cycle (rotates) */
    struct rng rng;
    char *names;
    struct xbar_stats st;
};

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p)
        panic("out of memory");
    return p;
}

static unsigned node_col(const struct mesh *m, unsigned node)
{
    return node % m->cols;
}

static unsigned node_row(const struct mesh *m, unsigned node)
{
    return node / m->cols;
}

unsigned mesh_hops(const struct mesh *m, unsigned a, unsigned b)
{
    unsigned ca = node_col(m, a), cb = node_col(m, b), ra = node_row(m, a), rb = node_row(m, b);
    return (ca > cb ? ca - cb : cb - ca) + (ra > rb ? ra - rb : rb - ra);
}

/* The neighbour of node in direction dir (the caller knows it exists). */
static unsigned neighbour(const struct mesh *m, unsigned node, unsigned dir)
{
    switch (dir) {
    case DIR_N:
        return node - m->cols;
    case DIR_S:
        return node + m->cols;
    case DIR_E:
        return node + 1;
    default:
        return node - 1;
    }
}

/* XY routing: along the row first, then along the column; at the final
 * node, the destination's ejection port. */
static unsigned route(const struct mesh *m, unsigned node, unsigned dst)
{
    unsigned to = m->out_node[dst];
    unsigned c = node_col(m, node), tc = node_col(m, to);
    if (c != tc)
        return m->n_out + node * N_DIRS + (tc > c ? DIR_E : DIR_W);
    unsigned r = node_row(m, node), tr = node_row(m, to);
    if (r != tr)
        return m->n_out + node * N_DIRS + (tr > r ? DIR_S : DIR_N);
    return dst;
}

/* The buffer an output fills: the ejection port, or the next router's input
 * from the opposite direction. */
static struct port *target(struct mesh *m, unsigned o, unsigned v)
{
    if (o < m->n_out)
        return &m->out[o * m->n_vnets + v];
    unsigned link = o - m->n_out, node = link / N_DIRS, dir = link % N_DIRS;
    unsigned in = m->n_in + neighbour(m, node, dir) * N_DIRS + (dir + 2) % N_DIRS;
    return &m->in[in * m->n_vnets + v];
}

static bool has_room(const struct mesh *m, const struct port *p, unsigned f)
{
    if (!port_has_room(p, 1))
        return false;
    return p->weight == 0 || p->weight + f <= m->spec.vc_flits;
}

static void grant(struct mesh *m, unsigned in, unsigned v, unsigned o, cycle_t now)
{
    unsigned j = in * m->n_vnets + v;
    struct port *ip = &m->in[j];
    struct msg *msg = port_pop(ip);
    m->head_ready[j] = ip->n ? ip->slots[ip->head].ready : TICK_MAX;
    unsigned f = xbar_flits(&m->spec, msg->size_bytes);
    m->in_free_at[in] = now + f;
    m->out_free_at[o] = now + f;
    uint64_t delay;
    if (o < m->n_out) { /* ejection: whole message ready after its flits */
        delay = f;
        if (m->spec.jitter_cycles)
            delay += rng_below(&m->rng, (uint64_t)m->spec.jitter_cycles + 1);
        if (m->spec.conflict_pct && rng_below(&m->rng, 100) < m->spec.conflict_pct)
            m->out_free_at[o] += m->spec.conflict_cycles;
        m->st.bytes[msg->cls] += m->spec.header_bytes + msg->size_bytes;
        m->st.flits[msg->cls] += f;
        m->st.msgs[msg->cls]++;
        m->st.busy_out_cycles += f;
    } else { /* a link: the head competes at the next router after link + pipeline */
        delay = (uint64_t)m->spec.link_cycles + m->spec.latency_cycles;
        m->st.hop_flits += f;
    }
    if (!port_send_weighted(target(m, o, v), msg, delay * m->comp.clk->period_ps, f))
        panic("%s: output %u vnet %u refused a granted message", m->comp.name, o, v);
}

/* Find every ready head and the output it wants. Returns whether any is
 * ready. */
static bool collect_heads(struct mesh *m, cycle_t now)
{
    tick_t now_ps = m->comp.eng->now;
    bool any = false;
    for (unsigned in = 0; in < m->n_inputs; in++) {
        for (unsigned v = 0; v < m->n_vnets; v++) {
            unsigned j = in * m->n_vnets + v;
            const struct port *p = &m->in[j];
            m->head_out[j] = -1;
            if (!p->n) {
                m->head_ready[j] = TICK_MAX;
                continue;
            }
            const struct port_slot *h = &p->slots[p->head];
            m->head_ready[j] = h->ready;
            if (h->ready > now_ps)
                continue;
            const struct msg *msg = h->m;
            if (msg->dst >= m->n_out || msg->vnet != v || msg->cls >= TRAFFIC_N ||
                (in < m->n_in && msg->src != in))
                panic("%s: input %u vnet %u holds a message with dst %u src %u vnet %u cls %u "
                      "(%u sources, %u destinations, %u vnets)",
                      m->comp.name, in, v, msg->dst, msg->src, msg->vnet, msg->cls, m->n_in,
                      m->n_out, m->n_vnets);
            any = true;
            if (m->in_free_at[in] > now) {
                m->st.blocked_cycles++;
                continue;
            }
            unsigned node = in < m->n_in ? m->in_node[in] : (in - m->n_in) / N_DIRS;
            m->head_out[j] = (int32_t)route(m, node, msg->dst);
        }
    }
    return any;
}

/* Grant output o (of router `node`) to the first eligible head of the
 * router's inputs, round-robin. */
static void arbitrate(struct mesh *m, unsigned node, unsigned o, cycle_t now)
{
    unsigned first = m->node_in_first[node],
             n_j = (m->node_in_first[node + 1] - first) * m->n_vnets;
    for (unsigned i = 0, k = m->rr[o]; i < n_j; i++, k = k + 1 == n_j ? 0 : k + 1) {
        unsigned in = m->node_inputs[first + k / m->n_vnets], v = k % m->n_vnets;
        unsigned j = in * m->n_vnets + v;
        if (m->head_out[j] != (int32_t)o)
            continue;
        if (m->in_free_at[in] > now || m->out_free_at[o] > now) {
            m->st.blocked_cycles++;
            continue;
        }
        int32_t *r = &m->reserved[o * m->n_vnets + v];
        if (*r >= 0 && *r != (int32_t)j) {
            m->st.blocked_cycles++;
            m->st.full_out_cycles++;
            continue;
        }
        unsigned f = xbar_flits(&m->spec, m->in[j].slots[m->in[j].head].m->size_bytes);
        if (!has_room(m, target(m, o, v), f)) {
            *r = (int32_t)j;
            m->st.blocked_cycles++;
            m->st.full_out_cycles++;
            continue;
        }
        *r = -1;
        grant(m, in, v, o, now);
        m->rr[o] = k + 1 == n_j ? 0 : k + 1;
    }
}

static bool mesh_tick(struct comp *c)
{
    struct mesh *m = container_of(c, struct mesh, comp);
    cycle_t now = comp_cycle(c);
    if (collect_heads(m, now)) {
        for (unsigned i = 0, k = m->out_first; i < m->n_outputs;
             i++, k = k + 1 == m->n_outputs ? 0 : k + 1) {
            unsigned o = m->node_outputs[k];
            arbitrate(m, m->output_node[o], o, now);
        }
    }
    m->out_first = m->out_first + 1 == m->n_outputs ? 0 : m->out_first + 1;

    tick_t first = TICK_MAX;
    for (unsigned j = 0; j < m->n_inputs * m->n_vnets; j++)
        first = MIN(first, m->head_ready[j]);
    if (first <= c->eng->now)
        return true;
    if (first != TICK_MAX)
        comp_wake_at(c, first);
    return false;
}

static void dump_port(FILE *out, const struct port *p, tick_t now, tick_t period)
{
    for (uint32_t i = 0; i < p->n; i++) {
        const struct port_slot *sl = port_slot_at(p, i);
        const struct msg *msg = sl->m;
        fprintf(out,
                "    %s[%u] ready@%llu: type %u addr 0x%llx src %u dst %u vnet %u cls %s size %u "
                "age %llu cycles\n",
                p->name, i, (unsigned long long)sl->ready, msg->type, (unsigned long long)msg->addr,
                msg->src, msg->dst, msg->vnet,
                msg->cls < TRAFFIC_N ? traffic_class_names[msg->cls] : "?", msg->size_bytes,
                (unsigned long long)((now - MIN(now, msg->born)) / period));
    }
}

void mesh_dump(struct mesh *m, FILE *out)
{
    tick_t now = m->comp.eng->now, period = m->comp.clk->period_ps;
    fprintf(out, "  %s: mesh %u x %u, %u sources, %u destinations, %u vnets\n", m->comp.name,
            m->cols, m->rows, m->n_in, m->n_out, m->n_vnets);
    for (unsigned j = 0; j < m->n_inputs * m->n_vnets; j++)
        dump_port(out, &m->in[j], now, period);
    for (unsigned j = 0; j < m->n_out * m->n_vnets; j++)
        dump_port(out, &m->out[j], now, period);
}

static void mesh_comp_dump(struct comp *c, FILE *out)
{
    mesh_dump(container_of(c, struct mesh, comp), out);
}

/* Endpoint k of n at node k * nodes / n, or where `place` says. */
static uint16_t *place_endpoints(const struct mesh *m, const char *name, unsigned n,
                                 const uint16_t *place)
{
    uint16_t *at = xcalloc(n, sizeof *at);
    for (unsigned k = 0; k < n; k++) {
        at[k] = place ? place[k] : (uint16_t)((uint64_t)k * m->nodes / n);
        if (at[k] >= m->nodes)
            fatal("%s: endpoint %u placed at node %u of a %u-node mesh", name, k, at[k], m->nodes);
    }
    return at;
}

struct mesh *mesh_new(struct eng *e, const char *name, const struct clock *clk,
                      const struct noc_spec *spec, unsigned n_in, unsigned n_out, unsigned n_vnets,
                      struct comp *const *senders, struct comp *const *receivers,
                      const uint16_t *in_node, const uint16_t *out_node)
{
    if (!n_in || !n_out || !n_vnets || n_vnets > 256 || n_in > 65536 || n_out > 65536)
        fatal("%s: a mesh needs 1..65536 sources and destinations and 1..256 vnets (got %u x "
              "%u, %u vnets)",
              name, n_in, n_out, n_vnets);
    if (!spec->flit_bytes || !spec->vc_flits || !spec->mesh_cols || !spec->mesh_rows ||
        !spec->link_cycles || (uint64_t)spec->mesh_cols * spec->mesh_rows > 65536)
        fatal("%s: flit_bytes, vc_flits, link_cycles, mesh_cols and mesh_rows must be at least "
              "1 (and the mesh at most 65536 nodes)",
              name);
    struct mesh *m = xcalloc(1, sizeof *m);
    comp_init(&m->comp, e, name, clk, mesh_tick, mesh_comp_dump);
    m->spec = *spec;
    m->cols = spec->mesh_cols;
    m->rows = spec->mesh_rows;
    m->nodes = m->cols * m->rows;
    m->n_in = n_in;
    m->n_out = n_out;
    m->n_vnets = n_vnets;
    m->n_inputs = n_in + N_DIRS * m->nodes;
    m->n_output_ids = n_out + N_DIRS * m->nodes;
    m->in_node = place_endpoints(m, name, n_in, in_node);
    m->out_node = place_endpoints(m, name, n_out, out_node);
    size_t nj = (size_t)m->n_inputs * n_vnets;
    m->in = xcalloc(nj, sizeof *m->in);
    m->out = xcalloc((size_t)n_out * n_vnets, sizeof *m->out);
    m->in_free_at = xcalloc(m->n_inputs, sizeof *m->in_free_at);
    m->out_free_at = xcalloc(m->n_output_ids, sizeof *m->out_free_at);
    m->rr = xcalloc(m->n_output_ids, sizeof *m->rr);
    m->head_out = xcalloc(nj, sizeof *m->head_out);
    m->head_ready = xcalloc(nj, sizeof *m->head_ready);
    m->reserved = xcalloc((size_t)m->n_output_ids * n_vnets, sizeof *m->reserved);
    for (size_t k = 0; k < (size_t)m->n_output_ids * n_vnets; k++)
        m->reserved[k] = -1;
    for (size_t j = 0; j < nj; j++)
        m->head_ready[j] = TICK_MAX;

    /* group inputs and outputs by router; a router has no link off the edge */
    m->node_in_first = xcalloc(m->nodes + 1, sizeof *m->node_in_first);
    m->node_inputs = xcalloc(m->n_inputs, sizeof *m->node_inputs);
    m->node_out_first = xcalloc(m->nodes + 1, sizeof *m->node_out_first);
    m->node_outputs = xcalloc(m->n_output_ids, sizeof *m->node_outputs);
    m->output_node = xcalloc(m->n_output_ids, sizeof *m->output_node);
    unsigned ni = 0, no = 0;
    for (unsigned node = 0; node < m->nodes; node++) {
        m->node_in_first[node] = ni;
        m->node_out_first[node] = no;
        for (unsigned s = 0; s < n_in; s++)
            if (m->in_node[s] == node)
                m->node_inputs[ni++] = s;
        for (unsigned d = 0; d < n_out; d++)
            if (m->out_node[d] == node)
                m->node_outputs[no++] = d;
        for (unsigned dir = 0; dir < N_DIRS; dir++) {
            bool exists = dir == DIR_N   ? node_row(m, node) > 0
                          : dir == DIR_S ? node_row(m, node) + 1 < m->rows
                          : dir == DIR_E ? node_col(m, node) + 1 < m->cols
                                         : node_col(m, node) > 0;
            if (!exists)
                continue;
            m->node_inputs[ni++] = n_in + node * N_DIRS + dir;
            m->node_outputs[no++] = n_out + node * N_DIRS + dir;
        }
    }
    m->node_in_first[m->nodes] = ni;
    m->node_out_first[m->nodes] = no;
    m->n_outputs = no; /* the outputs that exist, visited in node_outputs order */
    for (unsigned node = 0; node < m->nodes; node++)
        for (unsigned k = m->node_out_first[node]; k < m->node_out_first[node + 1]; k++)
            m->output_node[m->node_outputs[k]] = (uint16_t)node;
    mesh_set_seed(m, 0);

    m->names = xcalloc((size_t)(m->n_inputs + n_out) * n_vnets, MESH_NAME_BYTES);
    char *nm = m->names;
    for (unsigned in = 0; in < m->n_inputs; in++) {
        bool inject = in < n_in;
        for (unsigned v = 0; v < n_vnets; v++, nm += MESH_NAME_BYTES) {
            if (inject)
                snprintf(nm, MESH_NAME_BYTES, "%s.in[%u].v%u", name, in, v);
            else
                snprintf(nm, MESH_NAME_BYTES, "%s.r%u.%c.v%u", name, (in - n_in) / N_DIRS,
                         dir_names[(in - n_in) % N_DIRS], v);
            port_init(&m->in[in * n_vnets + v], nm, spec->vc_flits,
                      inject ? spec->latency_cycles * clk->period_ps : 0,
                      inject ? (senders ? senders[in] : NULL) : &m->comp, &m->comp);
        }
    }
    for (unsigned d = 0; d < n_out; d++) {
        if (!receivers || !receivers[d])
            panic("%s: output %u has no receiver", name, d);
        for (unsigned v = 0; v < n_vnets; v++, nm += MESH_NAME_BYTES) {
            snprintf(nm, MESH_NAME_BYTES, "%s.out[%u].v%u", name, d, v);
            port_init(&m->out[d * n_vnets + v], nm, spec->vc_flits, 0, &m->comp, receivers[d]);
        }
    }
    return m;
}

void mesh_free(struct mesh *m)
{
    if (!m)
        return;
    for (unsigned j = 0; j < m->n_inputs * m->n_vnets; j++)
        port_destroy(&m->in[j]);
    for (unsigned j = 0; j < m->n_out * m->n_vnets; j++)
        port_destroy(&m->out[j]);
    free(m->in_node);
    free(m->out_node);
    free(m->in);
    free(m->out);
    free(m->node_in_first);
    free(m->node_inputs);
    free(m->node_out_first);
    free(m->node_outputs);
    free(m->output_node);
    free(m->in_free_at);
    free(m->out_free_at);
    free(m->rr);
    free(m->head_out);
    free(m->head_ready);
    free(m->reserved);
    free(m->names);
    free(m);
}

void mesh_set_seed(struct mesh *m, uint64_t seed)
{
    rng_seed(&m->rng, seed, 0x6d657368u /* "mesh" */);
}

struct port *mesh_in(struct mesh *m, unsigned src, unsigned vnet)
{
    panic_if(src >= m->n_in || vnet >= m->n_vnets, "%s: no input %u vnet %u", m->comp.name, src,
             vnet);
    return &m->in[src * m->n_vnets + vnet];
}

struct port *mesh_out(struct mesh *m, unsigned dst, unsigned vnet)
{
    panic_if(dst >= m->n_out || vnet >= m->n_vnets, "%s: no output %u vnet %u", m->comp.name, dst,
             vnet);
    return &m->out[dst * m->n_vnets + vnet];
}

unsigned mesh_in_node(const struct mesh *m, unsigned src)
{
    return m->in_node[src];
}

unsigned mesh_out_node(const struct mesh *m, unsigned dst)
{
    return m->out_node[dst];
}

const struct xbar_stats *mesh_stats(const struct mesh *m)
{
    return &m->st;
}

struct comp *mesh_comp(struct mesh *m)
{
    return &m->comp;
}
