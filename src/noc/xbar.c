/*
 * xbar.c - the crossbar of spec 002 §4: input FIFOs per (source, vnet),
 * output FIFOs per (destination, vnet), one grant per output per cycle.
 *
 * A message spends latency_cycles in its input FIFO before it may compete
 * (the router pipeline: buffer write, route, VC and switch allocation, as in
 * Garnet, where flits wait in the input VC buffer during those stages); the
 * input port's latency models that. Each cycle the outputs are visited in a
 * rotating order (no output is favoured when two want the same input); a free
 * output scans the (input, vnet) heads round-robin from the one after its
 * last grant and grants the first whose input is free and whose output FIFO
 * has flit room. A head that finds too little room reserves its output FIFO:
 * no later head of that vnet may pass it there, or a stream of shorter
 * messages could take every freed flit and starve a longer one forever.
 * A granted message leaves its input FIFO at once and enters the output FIFO
 * with a ready time F (+ jitter) cycles later, so its room is reserved while
 * its flits cross (credit flow control). Output FIFOs are ports, whose ready
 * times never decrease: a jittered message may delay later ones to the same
 * output and vnet, never be passed by them.
 * INVARIANT: input s and output d each start at most one message per F cycles.
 * A tick visits only the (input, vnet) FIFOs that hold messages (a bit each,
 * kept by the ports: port_watch), only the outputs that some head wants (a
 * bit each) in the rotating order, and each output only the heads that want it
 * (a bit each, collected first; an output that only one head wants, the
 * common case, keeps that head and no bits), in the same round-robin order as
 * a scan of every FIFO: the cost per cycle follows the traffic, not the
 * crossbar's size. Whether the next cycle is needed (a ready head is left) is
 * counted on the way, not found by visiting the FIFOs again.
 * NOT MODELED: separate pipeline stages, speculation, power. The crossbar
 * ticks every cycle while a ready head waits (e.g. for output room).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "noc/xbar.h"

#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "base/rng.h"

/* Defaults for the tc-fermi machine (spec 002 Table 4). latency_cycles = 8:
 * the L2 minimum round trip is 340 core cycles at 1400 MHz = 170 crossbar
 * cycles. With 8, a request (1 flit) takes 8 + 1 = 9 cycles and a data reply
 * (5 flits) 8 + 5 = 13, so the two crossings cost 22 crossbar cycles (44 core
 * cycles: a Garnet-like router pipeline plus link each way) and the other
 * ~296 core cycles belong to the L1 and L2 pipelines, which is where the
 * Fermi measurement places them. */
const char *const noc_topology_names[] = {"crossbar", "mesh", NULL};

/*        key               field            default  min  max      unit      help */
const struct cfg_opt noc_opts[] = {
    CFG_F64("mhz", struct noc_spec, mhz, "700", 1, 100000, "MHz", "interconnect clock"),
    CFG_U32("flit_bytes", struct noc_spec, flit_bytes, "32", 1, 4096, "bytes",
            "flit size: one flit per cycle per port"),
    CFG_U32("latency_cycles", struct noc_spec, latency_cycles, "8", 0, 100000, "cycles",
            "router pipeline latency before a message may be granted"),
    CFG_U32("vc_flits", struct noc_spec, vc_flits, "8", 1, 4096, "flits",
            "buffer per virtual channel (input and output FIFO of each vnet)"),
    CFG_U32("header_bytes", struct noc_spec, header_bytes, "8", 0, 4096, "bytes",
            "header added to every message's payload on the wire"),
    CFG_U32("jitter_cycles", struct noc_spec, jitter_cycles, "0", 0, 100000, "cycles",
            "extra seeded random delay per message, uniform in [0, jitter] (litmus runs)"),
    CFG_U32("conflict_pct", struct noc_spec, conflict_pct, "0", 0, 100, "percent",
            "random bank conflicts: chance that a message leaves its destination busy (litmus)"),
    CFG_U32("conflict_cycles", struct noc_spec, conflict_cycles, "8", 0, 100000, "cycles",
            "extra cycles a destination stays busy after a random bank conflict"),
    CFG_ENUM("topology", struct noc_spec, topology, "crossbar", noc_topology_names,
             "network per direction: crossbar (every source to every destination) or a 2D "
             "mesh (latency_cycles is then each router's pipeline)"),
    CFG_U32("mesh_cols", struct noc_spec, mesh_cols, "4", 1, 256, "routers",
            "mesh: routers per row (endpoints spread evenly over the nodes)"),
    CFG_U32("mesh_rows", struct noc_spec, mesh_rows, "4", 1, 256, "routers",
            "mesh: rows of routers"),
    CFG_U32("link_cycles", struct noc_spec, link_cycles, "1", 1, 100000, "cycles",
            "mesh: cycles for a message's head to cross one link between routers"),
    CFG_END};

#define XBAR_NAME_BYTES 64 /* room for one port name */

struct xbar {
    struct comp comp;
    struct noc_spec spec;
    unsigned n_in, n_out, n_vnets;
    struct port *in;         /* [src * n_vnets + vnet] */
    struct port *out;        /* [dst * n_vnets + vnet] */
    cycle_t *in_free_at;     /* [src]: first cycle the input may start a message */
    cycle_t *out_free_at;    /* [dst]: first cycle the output may start a message */
    unsigned *rr;            /* [dst]: (input, vnet) index to look at first */
    unsigned n_words;        /* words of a bit per (input, vnet): ceil(n_in * n_vnets / 64) */
    uint64_t *occupied;      /* [n_words]: bit src * n_vnets + vnet set while that input
                                FIFO holds a message (kept by the ports) */
    uint64_t *want;          /* [dst * n_words ...]: the grantable heads that want dst
                                this cycle (all clear between ticks) */
    const struct msg **seen; /* [src * n_vnets + vnet]: the head whose header was checked */
    uint16_t *seen_dst;      /* ... and its destination */
    uint16_t *seen_flits;    /* ... and its size in flits */
    unsigned *n_want;        /* [dst]: grantable heads wanting it this cycle (all 0 between
                                ticks) */
    unsigned *want_first;    /* [dst]: the first head wanting it this cycle; its bit in want[]
                                is set only when a second one comes (most outputs have one) */
    unsigned n_out_words;    /* words of a bit per output: ceil(n_out / 64) */
    uint64_t *wanted;        /* [n_out_words]: bit dst set while n_want[dst] > 0, so that a
                                tick visits only the outputs that some head wants */
    int32_t *reserved;       /* [dst * n_vnets + vnet]: the head waiting for room there, or -1 */
    unsigned out_first;      /* output visited first this cycle (rotates) */
    unsigned n_ready;        /* heads ready now, counted as they are collected and granted: a
                                tick that leaves one ticks again next cycle */
    struct rng rng;          /* jitter stream */
    char *names;             /* storage for the name of every port */
    struct xbar_stats st;
};

unsigned xbar_flits(const struct noc_spec *spec, unsigned size_bytes)
{
    unsigned wire = spec->header_bytes + size_bytes;
    unsigned f = (wire + spec->flit_bytes - 1) / spec->flit_bytes;
    return f ? f : 1;
}

/* Whether a message of f flits may enter output FIFO p now (the port's
 * weight is the flits it holds, queued or in flight). */
static bool out_has_room(const struct xbar *x, const struct port *p, unsigned f)
{
    if (!port_has_room(p, 1))
        return false;
    unsigned held = p->weight;
    return held == 0 || held + f <= x->spec.vc_flits;
}

/* Move m (head of input s, vnet v) through output d starting at cycle now. */
static void grant(struct xbar *x, unsigned s, unsigned v, unsigned d, cycle_t now)
{
    unsigned j = s * x->n_vnets + v;
    struct port *in = &x->in[j];
    struct msg *m = port_pop(in);
    x->seen[j] = NULL; /* the message may come back (pooled) with another header */
    /* this head is gone; the one behind it, if any, is a new head */
    x->n_ready--;
    if (in->n && in->slots[in->head].ready <= x->comp.eng->now)
        x->n_ready++;
    unsigned f = xbar_flits(&x->spec, m->size_bytes);
    uint64_t delay = f;
    if (x->spec.jitter_cycles)
        delay += rng_below(&x->rng, (uint64_t)x->spec.jitter_cycles + 1);
    x->in_free_at[s] = now + f;
    x->out_free_at[d] = now + f;
    /* a random bank conflict: the destination (an L2 bank on the way up) is
     * busy for a while, so whatever follows to it waits */
    if (x->spec.conflict_pct && rng_below(&x->rng, 100) < x->spec.conflict_pct)
        x->out_free_at[d] += x->spec.conflict_cycles;
    if (!port_send_weighted(&x->out[d * x->n_vnets + v], m, delay * x->comp.clk->period_ps, f))
        panic("%s: output %u vnet %u refused a granted message", x->comp.name, d, v);
    x->st.bytes[m->cls] += x->spec.header_bytes + m->size_bytes;
    x->st.flits[m->cls] += f;
    x->st.msgs[m->cls]++;
    x->st.busy_out_cycles += f;
    x->st.hop_flits += f;
}

/* The first set bit of mask[0..n_words) at or after `from`, or -1. */
static inline int32_t next_bit(const uint64_t *mask, unsigned n_words, unsigned from)
{
    unsigned w = from >> 6;
    if (w >= n_words)
        return -1;
    uint64_t bits = mask[w] & (~0ull << (from & 63));
    while (!bits) {
        if (++w == n_words)
            return -1;
        bits = mask[w];
    }
    return (int32_t)((w << 6) | (unsigned)__builtin_ctzll(bits));
}

/* Record which heads could be granted this cycle (want_first[] or a bit in
 * want[] of their output) and count the ready heads; check their headers.
 * Visits the occupied inputs in index order. */
static void collect_heads(struct xbar *x, cycle_t now)
{
    tick_t now_ps = x->comp.eng->now;
    x->n_ready = 0;
    for (unsigned w = 0; w < x->n_words; w++) {
        for (uint64_t bits = x->occupied[w]; bits; bits &= bits - 1) {
            unsigned j = (w << 6) | (unsigned)__builtin_ctzll(bits);
            unsigned s = j / x->n_vnets, v = j % x->n_vnets;
            const struct port *p = &x->in[j];
            const struct port_slot *h = &p->slots[p->head];
            if (h->ready > now_ps)
                continue;
            x->n_ready++;
            const struct msg *m = h->m;
            if (m != x->seen[j] &&
                (m->dst >= x->n_out || m->src != s || m->vnet != v || m->cls >= TRAFFIC_N))
                panic("%s: input %u vnet %u holds a message with dst %u src %u vnet %u cls %u "
                      "(%u outputs, %u vnets)",
                      x->comp.name, s, v, m->dst, m->src, m->vnet, m->cls, x->n_out, x->n_vnets);
            if (m != x->seen[j]) { /* read the header once per message */
                x->seen[j] = m;
                x->seen_dst[j] = m->dst;
                x->seen_flits[j] = xbar_flits(&x->spec, m->size_bytes);
            }
            unsigned dst = x->seen_dst[j];
            if (x->in_free_at[s] > now || x->out_free_at[dst] > now) {
                x->st.blocked_cycles++;
                continue;
            }
            uint64_t *want = &x->want[(size_t)dst * x->n_words];
            switch (x->n_want[dst]++) {
            case 0: /* the first: remembered; a bit only if another one comes */
                x->want_first[dst] = j;
                x->wanted[dst >> 6] |= 1ull << (dst & 63);
                break;
            case 1: {
                unsigned first = x->want_first[dst];
                want[first >> 6] |= 1ull << (first & 63);
            }
                /* fall through */
            default:
                want[j >> 6] |= 1ull << (j & 63);
            }
        }
    }
}

/* Head j (input s, vnet v), which wants output d, gets d now if its input,
 * d and room in d's FIFO are free; otherwise what stopped it is counted. */
static void try_grant(struct xbar *x, unsigned j, unsigned s, unsigned v, unsigned d, cycle_t now)
{
    if (x->in_free_at[s] > now) { /* granted to an earlier output this cycle */
        x->st.blocked_cycles++;
        return;
    }
    if (x->out_free_at[d] > now) { /* lost to the head granted this cycle */
        x->st.blocked_cycles++;
        return;
    }
    int32_t *r = &x->reserved[d * x->n_vnets + v];
    if (*r >= 0 && *r != (int32_t)j) { /* the room is promised to an earlier head */
        x->st.blocked_cycles++;
        x->st.full_out_cycles++;
        return;
    }
    if (!out_has_room(x, &x->out[d * x->n_vnets + v], x->seen_flits[j])) {
        *r = (int32_t)j;
        x->st.blocked_cycles++;
        x->st.full_out_cycles++;
        return;
    }
    *r = -1;
    grant(x, s, v, d, now);
    x->rr[d] = j + 1 == x->n_in * x->n_vnets ? 0 : j + 1;
}

/* Output d's turn this cycle: its wanting heads in round-robin order from
 * rr[d]; grants the first that may go. Leaves want[d], n_want[d] and its bit
 * in wanted[] clear. */
static void arbitrate(struct xbar *x, unsigned d, cycle_t now)
{
    unsigned n = x->n_want[d];
    x->n_want[d] = 0;
    x->wanted[d >> 6] &= ~(1ull << (d & 63));
    if (n == 1) { /* the only one (no bit in want[]): the order does not matter */
        unsigned j = x->want_first[d];
        try_grant(x, j, j / x->n_vnets, j % x->n_vnets, d, now);
        return;
    }
    uint64_t *want = &x->want[(size_t)d * x->n_words];
    int32_t jj = next_bit(want, x->n_words, x->rr[d]);
    for (unsigned left = n; left; left--, jj = next_bit(want, x->n_words, (unsigned)jj + 1)) {
        if (jj < 0) /* wrap around to the heads before rr[d] */
            jj = next_bit(want, x->n_words, 0);
        unsigned j = (unsigned)jj;
        /* each head wanting d is visited once (n of them, from rr[d] round to
         * before it): clearing its bit as it is visited leaves the later
         * searches' answers as they were and want[] clear at the end. A head
         * that does not get d goes on to the next; one that does leaves d busy,
         * so the rest are counted as blocked, as before. */
        want[j >> 6] &= ~(1ull << (j & 63));
        try_grant(x, j, j / x->n_vnets, j % x->n_vnets, d, now);
    }
}

/* One crossbar cycle: every free output grants at most one head. Returns
 * true while a ready head waits (for a busy port or output room); a head
 * still in the pipeline gets a timed wake instead. */
static bool xbar_tick(struct comp *c)
{
    struct xbar *x = container_of(c, struct xbar, comp);
    cycle_t now = comp_cycle(c);

    collect_heads(x, now);
    /* the wanted outputs from out_first on, then from 0 (arbitrate clears
     * each one's bit, so the second pass finds those before out_first) */
    for (int32_t d = next_bit(x->wanted, x->n_out_words, x->out_first); d >= 0;
         d = next_bit(x->wanted, x->n_out_words, (unsigned)d + 1))
        arbitrate(x, (unsigned)d, now);
    for (int32_t d = next_bit(x->wanted, x->n_out_words, 0); d >= 0;
         d = next_bit(x->wanted, x->n_out_words, (unsigned)d + 1))
        arbitrate(x, (unsigned)d, now);
    x->out_first = x->out_first + 1 == x->n_out ? 0 : x->out_first + 1;

    /* A head that is ready but waits needs the next cycle. One still in the
     * pipeline needs nothing: its send woke the crossbar for its ready time
     * (port_send), and that tick stays pending until it runs. */
    return x->n_ready > 0;
}

static void dump_msg(FILE *out, const struct msg *m, tick_t now, tick_t period)
{
    fprintf(out, "type %u addr 0x%llx src %u dst %u vnet %u cls %s size %u age %llu cycles\n",
            m->type, (unsigned long long)m->addr, m->src, m->dst, m->vnet,
            m->cls < TRAFFIC_N ? traffic_class_names[m->cls] : "?", m->size_bytes,
            (unsigned long long)((now - MIN(now, m->born)) / period));
}

static void dump_port(FILE *out, const struct port *p, tick_t now, tick_t period)
{
    for (uint32_t i = 0; i < p->n; i++) {
        const struct port_slot *sl = port_slot_at(p, i);
        fprintf(out, "    %s[%u] ready@%llu: ", p->name, i, (unsigned long long)sl->ready);
        dump_msg(out, sl->m, now, period);
    }
}

void xbar_dump(struct xbar *x, FILE *out)
{
    tick_t now = x->comp.eng->now, period = x->comp.clk->period_ps;
    cycle_t c = now / period;
    fprintf(out, "  %s: crossbar %u x %u, %u vnets\n", x->comp.name, x->n_in, x->n_out, x->n_vnets);
    for (unsigned s = 0; s < x->n_in; s++)
        if (x->in_free_at[s] > c)
            fprintf(out, "    input %u busy for %llu more cycles\n", s,
                    (unsigned long long)(x->in_free_at[s] - c));
    for (unsigned j = 0; j < x->n_in * x->n_vnets; j++)
        dump_port(out, &x->in[j], now, period);
    for (unsigned j = 0; j < x->n_out * x->n_vnets; j++)
        dump_port(out, &x->out[j], now, period);
}

static void xbar_comp_dump(struct comp *c, FILE *out)
{
    xbar_dump(container_of(c, struct xbar, comp), out);
}

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p)
        panic("out of memory");
    return p;
}

struct xbar *xbar_new(struct eng *e, const char *name, const struct clock *clk,
                      const struct noc_spec *spec, unsigned n_in, unsigned n_out, unsigned n_vnets,
                      struct comp *const *senders, struct comp *const *receivers)
{
    /* The option bounds keep a configured machine inside these (gpu.sms and l2.banks
     * at most 1024, noc.flit_bytes and noc.vc_flits at least 1): a violation is the
     * machine builder's fault, not the user's. */
    panic_if(!n_in || !n_out || !n_vnets || n_vnets > 256 || n_in > 65536 || n_out > 65536,
             "%s: a crossbar needs 1..65536 inputs and outputs and 1..256 vnets (got %u x %u, "
             "%u vnets)",
             name, n_in, n_out, n_vnets);
    panic_if(!spec->flit_bytes || !spec->vc_flits, "%s: flit_bytes and vc_flits must be at least 1",
             name);
    struct xbar *x = xcalloc(1, sizeof *x);
    comp_init(&x->comp, e, name, clk, xbar_tick, xbar_comp_dump);
    x->spec = *spec;
    x->n_in = n_in;
    x->n_out = n_out;
    x->n_vnets = n_vnets;
    x->in = xcalloc((size_t)n_in * n_vnets, sizeof *x->in);
    x->out = xcalloc((size_t)n_out * n_vnets, sizeof *x->out);
    x->in_free_at = xcalloc(n_in, sizeof *x->in_free_at);
    x->out_free_at = xcalloc(n_out, sizeof *x->out_free_at);
    x->rr = xcalloc(n_out, sizeof *x->rr);
    x->n_words = (unsigned)(((size_t)n_in * n_vnets + 63) / 64);
    x->occupied = xcalloc(x->n_words, sizeof *x->occupied);
    x->want = xcalloc((size_t)n_out * x->n_words, sizeof *x->want);
    x->seen = xcalloc((size_t)n_in * n_vnets, sizeof *x->seen);
    x->seen_dst = xcalloc((size_t)n_in * n_vnets, sizeof *x->seen_dst);
    x->seen_flits = xcalloc((size_t)n_in * n_vnets, sizeof *x->seen_flits);
    x->n_want = xcalloc(n_out, sizeof *x->n_want);
    x->want_first = xcalloc(n_out, sizeof *x->want_first);
    x->n_out_words = (n_out + 63) / 64;
    x->wanted = xcalloc(x->n_out_words, sizeof *x->wanted);
    x->reserved = xcalloc((size_t)n_out * n_vnets, sizeof *x->reserved);
    for (unsigned k = 0; k < n_out * n_vnets; k++)
        x->reserved[k] = -1;
    x->names = xcalloc((size_t)(n_in + n_out) * n_vnets, XBAR_NAME_BYTES);
    xbar_set_seed(x, 0);

    uint32_t cap = spec->vc_flits;
    char *nm = x->names;
    for (unsigned s = 0; s < n_in; s++)
        for (unsigned v = 0; v < n_vnets; v++, nm += XBAR_NAME_BYTES) {
            snprintf(nm, XBAR_NAME_BYTES, "%s.in[%u].v%u", name, s, v);
            unsigned j = s * n_vnets + v;
            port_init(&x->in[j], nm, cap, spec->latency_cycles * clk->period_ps,
                      senders ? senders[s] : NULL, &x->comp);
            port_watch(&x->in[j], &x->occupied[j >> 6], 1ull << (j & 63));
        }
    for (unsigned d = 0; d < n_out; d++) {
        if (!receivers || !receivers[d])
            panic("%s: output %u has no receiver", name, d);
        for (unsigned v = 0; v < n_vnets; v++, nm += XBAR_NAME_BYTES) {
            snprintf(nm, XBAR_NAME_BYTES, "%s.out[%u].v%u", name, d, v);
            port_init(&x->out[d * n_vnets + v], nm, cap, 0, &x->comp, receivers[d]);
        }
    }
    return x;
}

void xbar_free(struct xbar *x)
{
    if (!x)
        return;
    for (unsigned j = 0; j < x->n_in * x->n_vnets; j++)
        port_destroy(&x->in[j]);
    for (unsigned j = 0; j < x->n_out * x->n_vnets; j++)
        port_destroy(&x->out[j]);
    free(x->in);
    free(x->out);
    free(x->in_free_at);
    free(x->out_free_at);
    free(x->rr);
    free(x->occupied);
    free(x->want);
    free(x->seen);
    free(x->seen_dst);
    free(x->seen_flits);
    free(x->n_want);
    free(x->want_first);
    free(x->wanted);
    free(x->reserved);
    free(x->names);
    free(x);
}

void xbar_set_seed(struct xbar *x, uint64_t seed)
{
    rng_seed(&x->rng, seed, 0x786261720000u /* "xbar" */);
}

struct port *xbar_in(struct xbar *x, unsigned src, unsigned vnet)
{
    panic_if(src >= x->n_in || vnet >= x->n_vnets, "%s: no input %u vnet %u", x->comp.name, src,
             vnet);
    return &x->in[src * x->n_vnets + vnet];
}

struct port *xbar_out(struct xbar *x, unsigned dst, unsigned vnet)
{
    panic_if(dst >= x->n_out || vnet >= x->n_vnets, "%s: no output %u vnet %u", x->comp.name, dst,
             vnet);
    return &x->out[dst * x->n_vnets + vnet];
}

const struct xbar_stats *xbar_stats(const struct xbar *x)
{
    return &x->st;
}

struct comp *xbar_comp(struct xbar *x)
{
    return &x->comp;
}
