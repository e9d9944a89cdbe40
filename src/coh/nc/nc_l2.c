/*
 * nc_l2.c - the L2 bank of the non-coherent baselines (nol1, rc).
 *
 * Spec 002 §2 and §3.2: one bank per memory partition, write-back and
 * write-allocate, atomics performed at the bank (one read-modify-write per
 * cycle on a resident line), one request per cycle in order. A miss takes a
 * way (evicting the LRU stable line, writing it back if dirty), fetches the
 * line from its DRAM channel and parks the request - and any later request to
 * the line - in the TBE; the fill wakes them and they replay in order, so a
 * miss never blocks the bank's queue (spec 002 §2: "An L2 miss allocates an
 * MSHR and removes the request from the queue").
 * Responses leave through a pipeline of latency_cycles (the bank's hit
 * latency), so the bank keeps taking one request per cycle.
 * INVARIANT: the bank is the single point where writes to its lines are
 *   serialised; a line in IV is never chosen as a victim.
 * DEVIATION: the spec's IS/IM are one state IV here: requests are parked
 *   and replayed, so what the first request was does not matter. A write
 *   miss always fetches (no full-line write optimisation).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "base/rng.h"
#include "check/observe.h"
#include "coh/nc/nc.h"
#include "system/config.h"

#define NC_L2_STATES(X)                                                                            \
    X(I, "not present")                                                                            \
    X(V, "valid, clean")                                                                           \
    X(M, "valid, dirty (differs from DRAM)")                                                       \
    X(IV, "way taken, fill from DRAM outstanding; requests parked")

#define NC_L2_EVENTS(X)                                                                            \
    X(GetS, "read request from an L1")                                                             \
    X(Write, "write-through from an L1")                                                           \
    X(Atomic, "atomic from an L1")                                                                 \
    X(Replace, "a miss needs this line's way")                                                     \
    X(MemData, "fill from DRAM")

#define X(n, d) NL2_##n,
enum nl2_state { NC_L2_STATES(X) NL2_NSTATES };
enum nl2_event { NC_L2_EVENTS(X) NL2_NEVENTS };
#undef X
#define X(n, d) #n,
static const char *const state_names[] = {NC_L2_STATES(X)};
static const char *const event_names[] = {NC_L2_EVENTS(X)};
#undef X
#define X(n, d) d,
static const char *const state_descs[] = {NC_L2_STATES(X)};
static const char *const event_descs[] = {NC_L2_EVENTS(X)};
#undef X

const char *const nc_vnet_names[NC_NVNETS] = {"request", "response"};

struct nl2_stats {
    uint64_t reads, writes, atomics, misses, writebacks, resource_stalls;
};

struct nc_l2 {
    struct comp comp;
    struct ctrl_wiring w;
    struct ctrl_links links;
    struct cache cache;
    struct tbe_table tbes;
    struct port from_mem;     /* DRAM responses */
    struct port pipe;         /* responses in the bank's pipeline (to itself) */
    struct msg_list replay;   /* parked requests whose line was filled */
    uint32_t line_bytes;
    uint32_t jitter_cycles;
    struct rng rng;           /* jitter */
    struct nl2_stats st;
};

/* ---- actions ---- */

static struct nc_l2 *l2_of(struct coh_ctx *x)
{
    return x->ctrl;
}

/* Into the pipeline; leaves for the L1 after the hit latency. */
static void respond(struct nc_l2 *c, struct msg *m, uint16_t type, uint8_t cls, uint16_t bytes)
{
    m->type = type;
    m->cls = cls;
    m->vnet = NC_VNET_RSP;
    m->dst = m->src; /* back to the requesting SM */
    m->src = (uint16_t)c->w.index;
    m->size_bytes = bytes;
    tick_t extra = c->jitter_cycles
                       ? rng_below(&c->rng, c->jitter_cycles + 1) * c->comp.clk->period_ps
                       : 0;
    if (!port_send_delayed(&c->pipe, m, extra))
        panic("%s: pipeline full", c->w.name);
}

static void take_way(struct coh_ctx *x)
{
    struct nc_l2 *c = l2_of(x);
    struct cache_line *way = cache_victim(&c->cache, x->addr, NULL, NULL);
    panic_if(!way || way->present, "%s: miss without a free way", c->w.name);
    cache_install(&c->cache, way, x->addr);
    x->line = way;
}

static void alloc_tbe(struct coh_ctx *x)
{
    x->tbe = tbe_alloc(&l2_of(x)->tbes, x->addr);
}

static void send_fetch(struct coh_ctx *x)
{
    struct nc_l2 *c = l2_of(x);
    struct msg *m = msg_new(c->w.msgs, MSG_DRAM_READ, x->addr, c->comp.eng->now);
    c->st.misses++;
    if (!port_send(c->links.to_mem, m))
        panic("%s: DRAM port full after room check", c->w.name);
}

static void park(struct coh_ctx *x)
{
    msg_list_push(&x->tbe->parked, x->msg);
    x->msg = NULL;
}

static void fill_line(struct coh_ctx *x)
{
    struct nc_l2 *c = l2_of(x);
    memcpy(x->line->data, x->msg->data, c->line_bytes);
    msg_free(c->w.msgs, x->msg);
    x->msg = NULL;
}

static void wake_parked(struct coh_ctx *x)
{
    struct nc_l2 *c = l2_of(x);
    msg_list_splice(&c->replay, &x->tbe->parked);
    tbe_free(&c->tbes, x->tbe);
    x->tbe = NULL;
}

static void reply_data(struct coh_ctx *x)
{
    struct nc_l2 *c = l2_of(x);
    c->st.reads++;
    cache_touch(&c->cache, x->line);
    memcpy(x->msg->data, x->line->data, c->line_bytes);
    if (c->w.obs)
        obs_check(c->w.obs, c->w.name, x->addr, x->line->data, NULL);
    respond(c, x->msg, MSG_NC_DATA, TRAFFIC_LD, (uint16_t)c->line_bytes);
    x->msg = NULL;
}

static void write_line(struct coh_ctx *x)
{
    struct nc_l2 *c = l2_of(x);
    c->st.writes++;
    cache_touch(&c->cache, x->line);
    bytes_merge(x->line->data, x->msg->data, &x->msg->mask, c->line_bytes);
    x->line->dirty = true;
    if (c->w.obs)
        obs_write(c->w.obs, x->addr, x->msg->data, &x->msg->mask);
    respond(c, x->msg, MSG_NC_WRACK, TRAFFIC_REQ, 0);
    x->msg = NULL;
}

static void do_atomic(struct coh_ctx *x)
{
    struct nc_l2 *c = l2_of(x);
    c->st.atomics++;
    cache_touch(&c->cache, x->line);
    if (c->w.obs)
        obs_check(c->w.obs, c->w.name, x->addr, x->line->data, NULL);
    atom_apply(x->msg->req.atom, x->line->data);
    x->line->dirty = true;
    if (c->w.obs) {
        struct bytemask all;
        memset(&all, 0xff, sizeof all);
        obs_write(c->w.obs, x->addr, x->line->data, &all);
    }
    respond(c, x->msg, MSG_NC_ATOMRSP, TRAFFIC_ATO,
            (uint16_t)(x->msg->req.atom->is_red ? 0 : atom_operand_bytes(x->msg->req.atom)));
    x->msg = NULL;
}

static void write_back(struct coh_ctx *x)
{
    struct nc_l2 *c = l2_of(x);
    struct msg *m = msg_new(c->w.msgs, MSG_DRAM_WRITE, x->addr, c->comp.eng->now);
    memcpy(m->data, x->line->data, c->line_bytes);
    memset(&m->mask, 0xff, sizeof m->mask);
    c->st.writebacks++;
    if (!port_send(c->links.to_mem, m))
        panic("%s: DRAM port full after room check", c->w.name);
}

static void drop_line(struct coh_ctx *x)
{
    cache_remove(&l2_of(x)->cache, x->line);
    x->line = NULL;
}

static const struct coh_action_name actions[] = {
    {take_way, "take_way", "install the line in a free way (the fill comes later)"},
    {alloc_tbe, "alloc_tbe", "allocate an MSHR for the miss"},
    {send_fetch, "send_fetch", "read the line from DRAM"},
    {park, "park", "keep the request in the MSHR until the fill"},
    {fill_line, "fill_line", "write the DRAM data into the line"},
    {wake_parked, "wake_parked", "free the MSHR and replay its requests in order"},
    {reply_data, "reply_data", "send the line to the requester"},
    {write_line, "write_line", "merge the written bytes, acknowledge"},
    {do_atomic, "do_atomic", "perform every lane's atomic on the line, return old values"},
    {write_back, "write_back", "write the dirty line to DRAM"},
    {drop_line, "drop_line", "free the way"},
    {0},
};

/*  state      event          next      uses               actions                              */
static const struct coh_trans nc_l2_cells[NL2_NSTATES][NL2_NEVENTS] = {
    [NL2_I ][NL2_GetS   ] = DO(NL2_IV, TAG_RD | TAG_WR,  take_way, alloc_tbe, send_fetch, park),
    [NL2_I ][NL2_Write  ] = DO(NL2_IV, TAG_RD | TAG_WR,  take_way, alloc_tbe, send_fetch, park),
    [NL2_I ][NL2_Atomic ] = DO(NL2_IV, TAG_RD | TAG_WR,  take_way, alloc_tbe, send_fetch, park),
    [NL2_V ][NL2_GetS   ] = DO(NL2_V,  TAG_RD | DATA_RD, reply_data),
    [NL2_V ][NL2_Write  ] = DO(NL2_M,  TAG_RD | DATA_WR, write_line),
    [NL2_V ][NL2_Atomic ] = DO(NL2_M,  TAG_RD | DATA_RD | DATA_WR, do_atomic),
    [NL2_V ][NL2_Replace] = DO(NL2_I,  TAG_WR,           drop_line),
    [NL2_M ][NL2_GetS   ] = DO(NL2_M,  TAG_RD | DATA_RD, reply_data),
    [NL2_M ][NL2_Write  ] = DO(NL2_M,  TAG_RD | DATA_WR, write_line),
    [NL2_M ][NL2_Atomic ] = DO(NL2_M,  TAG_RD | DATA_RD | DATA_WR, do_atomic),
    [NL2_M ][NL2_Replace] = DO(NL2_I,  TAG_WR | DATA_RD, write_back, drop_line),
    [NL2_IV][NL2_GetS   ] = STALL,
    [NL2_IV][NL2_Write  ] = STALL,
    [NL2_IV][NL2_Atomic ] = STALL,
    [NL2_IV][NL2_MemData] = DO(NL2_V,  TAG_WR | DATA_WR, fill_line, wake_parked),
};

static void set_state(struct coh_ctx *x, unsigned next)
{
    if (x->line)
        x->line->state = (uint8_t)next;
    if (x->tbe)
        x->tbe->state = (uint8_t)next;
}

static void dump_ctx(struct coh_ctx *x, FILE *out)
{
    if (x->line)
        fprintf(out, "  line %#llx: %s%s\n", (unsigned long long)x->line->addr,
                state_names[x->line->state], x->line->dirty ? " dirty" : "");
    if (x->tbe)
        fprintf(out, "  mshr %#llx: parked %u\n", (unsigned long long)x->tbe->addr,
                x->tbe->parked.n);
}

const struct coh_table nc_l2_table = {
    .proto = "nc",
    .ctrl = "L2",
    .n_states = NL2_NSTATES,
    .n_events = NL2_NEVENTS,
    .state_names = state_names,
    .state_descs = state_descs,
    .event_names = event_names,
    .event_descs = event_descs,
    .cells = &nc_l2_cells[0][0],
    .actions = actions,
    .set_state = set_state,
    .dump = dump_ctx,
};

/* ---- classifier ---- */

static void lookup(struct nc_l2 *c, struct coh_ctx *x, addr_t line)
{
    x->ctrl = c;
    x->ctrl_name = c->w.name;
    x->eng = c->comp.eng;
    x->addr = line;
    x->line = cache_find(&c->cache, line);
    x->tbe = x->line && x->line->state == NL2_IV ? tbe_find(&c->tbes, line) : NULL;
    x->state = x->line ? x->line->state : NL2_I;
}

static bool evictable(const struct cache_line *l, void *arg)
{
    (void)arg;
    return l->state != NL2_IV;
}

static unsigned classify_request(const struct msg *m)
{
    switch (m->type) {
    case MSG_NC_GETS: return NL2_GetS;
    case MSG_NC_WRITE: return NL2_Write;
    case MSG_NC_ATOMIC: return NL2_Atomic;
    default: panic("nc L2: unexpected request type %u", m->type);
    }
}

/* One request. Returns false on a resource stall (it stays queued). */
static bool take_request(struct nc_l2 *c, struct msg *m)
{
    struct coh_ctx x;
    lookup(c, &x, m->addr);
    if (!x.line) {
        /* A miss needs an MSHR, the DRAM port and a free way. A full set first
         * replaces its LRU stable line (writing it back if dirty); the request
         * then retries next cycle, as SLICC's L2_Replacement does. */
        if (tbe_full(&c->tbes) || !port_has_room(c->links.to_mem, 1)) {
            c->st.resource_stalls++;
            return false;
        }
        struct cache_line *way = cache_victim(&c->cache, m->addr, evictable, NULL);
        if (!way) {
            c->st.resource_stalls++;
            return false;
        }
        if (way->present) {
            struct coh_ctx v;
            lookup(c, &v, way->addr);
            v.msg = NULL;
            v.event = NL2_Replace;
            coh_step(&nc_l2_table, &c->w.cov[0], &v);
            return false;
        }
    }
    x.msg = m;
    x.event = classify_request(m);
    if (coh_step(&nc_l2_table, &c->w.cov[0], &x) == COH_STALLED)
        msg_list_push(&x.tbe->parked, m);
    return true;
}

static void take_mem(struct nc_l2 *c, struct msg *m)
{
    if (m->type == MSG_DRAM_WRACK) { /* write-backs need no answer: DRAM keeps line order */
        msg_free(c->w.msgs, m);
        return;
    }
    struct coh_ctx x;
    lookup(c, &x, m->addr);
    x.msg = m;
    x.event = NL2_MemData;
    coh_step(&nc_l2_table, &c->w.cov[0], &x);
}

static bool nc_l2_tick(struct comp *cp)
{
    struct nc_l2 *c = (struct nc_l2 *)cp;
    bool moved = false;
    struct msg *m;
    struct port *out = c->links.net_out[NC_VNET_RSP];

    while (port_peek(&c->pipe) && port_has_room(out, 1)) {
        port_send(out, port_pop(&c->pipe));
        moved = true;
    }
    if (port_peek(&c->from_mem)) {
        take_mem(c, port_pop(&c->from_mem));
        moved = true;
    }
    if ((m = msg_list_pop(&c->replay))) {
        if (take_request(c, m))
            moved = true;
        else
            msg_list_push_front(&c->replay, m);
    } else if ((m = port_peek(c->links.net_in[NC_VNET_REQ]))) {
        if (take_request(c, m)) {
            port_pop(c->links.net_in[NC_VNET_REQ]);
            moved = true;
        }
    }
    return moved || c->replay.n || port_peek(&c->pipe) ||
           port_peek(c->links.net_in[NC_VNET_REQ]);
}

static void dump_msg(const struct msg *m, FILE *out)
{
    fprintf(out, "type %u addr %#llx src %u op %s\n", m->type, (unsigned long long)m->addr,
            m->src, mem_op_names[m->req.op]);
}

static void nc_l2_dump(struct comp *cp, FILE *out)
{
    struct nc_l2 *c = (struct nc_l2 *)cp;
    if (!c->tbes.n_used && !c->replay.n && !c->pipe.n)
        return;
    fprintf(out, "%s (nc L2): %u MSHRs, %u replaying, %u in pipeline\n", c->w.name,
            c->tbes.n_used, c->replay.n, c->pipe.n);
    for (uint32_t i = 0; i < c->tbes.cap; i++) {
        struct tbe *t = &c->tbes.e[i];
        if (t->used)
            fprintf(out, "  mshr %#llx %s parked %u\n", (unsigned long long)t->addr,
                    state_names[t->state], t->parked.n);
    }
    port_dump(&c->pipe, out, dump_msg);
}

/* ---- construction ---- */

struct comp *nc_l2_create(const struct ctrl_wiring *w)
{
    struct nc_l2 *c = calloc(1, sizeof *c);
    char err[256];
    if (!c)
        panic("out of memory");
    c->w = *w;
    if (cache_init(&c->cache, &w->cfg->l2.cache, err, sizeof err))
        fatal("l2: %s", err);
    c->cache.index_div = w->n_banks; /* this bank sees every n_banks-th line */
    tbe_table_init(&c->tbes, w->cfg->l2.mshrs, w->cfg->l2.cache.line_bytes);
    c->line_bytes = w->cfg->l2.cache.line_bytes;
    c->jitter_cycles = w->cfg->l2.jitter_cycles;
    rng_seed(&c->rng, w->cfg->sim.seed, 0x1200 + w->index);
    comp_init(&c->comp, w->eng, w->name, w->clk, nc_l2_tick, nc_l2_dump);
    port_init(&c->from_mem, "from_mem", 64, w->clk->period_ps, NULL, &c->comp);
    port_init(&c->pipe, "pipe", 4096, (tick_t)w->cfg->l2.latency_cycles * w->clk->period_ps,
              &c->comp, &c->comp);
    return &c->comp;
}

void nc_l2_connect(struct comp *cp, const struct ctrl_links *l)
{
    struct nc_l2 *c = (struct nc_l2 *)cp;
    c->links = *l;
    c->from_mem.sender = NULL;
}

struct port *nc_l2_in_port(struct comp *cp)
{
    return &((struct nc_l2 *)cp)->from_mem;
}

void nc_l2_destroy(struct comp *cp)
{
    struct nc_l2 *c = (struct nc_l2 *)cp;
    cache_destroy(&c->cache);
    tbe_table_destroy(&c->tbes);
    port_destroy(&c->from_mem);
    port_destroy(&c->pipe);
    free(c);
}

void nc_l2_dma(struct comp *cp, addr_t line, uint8_t *buf, const struct bytemask *wmask)
{
    struct nc_l2 *c = (struct nc_l2 *)cp;
    struct cache_line *l = cache_find(&c->cache, line);
    panic_if(l && l->state == NL2_IV, "%s: host access to %#llx while a fill is outstanding",
             c->w.name, (unsigned long long)line);
    if (!wmask) {
        if (l)
            memcpy(buf, l->data, c->line_bytes);
        else
            backing_read(c->w.store, line, buf, c->line_bytes);
    } else if (l) {
        if (c->w.obs)
            obs_write(c->w.obs, line, buf, wmask);
        bytes_merge(l->data, buf, wmask, c->line_bytes);
        l->dirty = true;
        l->state = NL2_M;
    } else {
        if (c->w.obs)
            obs_write(c->w.obs, line, buf, wmask);
        backing_write_masked(c->w.store, line, buf, wmask->w, c->line_bytes);
    }
}

unsigned nc_l2_peek(struct comp *cp, addr_t line, uint8_t *data)
{
    struct nc_l2 *c = (struct nc_l2 *)cp;
    struct cache_line *l = cache_find(&c->cache, line);
    if (data && l)
        memcpy(data, l->data, c->line_bytes);
    return l ? l->state : NL2_I;
}

void nc_l2_stats(struct comp *cp, void (*emit)(void *, const char *, uint64_t), void *arg)
{
    struct nc_l2 *c = (struct nc_l2 *)cp;
    uint64_t accesses = c->st.reads + c->st.writes + c->st.atomics;
    emit(arg, "reads", c->st.reads);
    emit(arg, "writes", c->st.writes);
    emit(arg, "atomics", c->st.atomics);
    emit(arg, "accesses", accesses);
    emit(arg, "misses", c->st.misses); /* DRAM fetches; requests parked behind one hit */
    emit(arg, "writebacks", c->st.writebacks);
    emit(arg, "resource_stalls", c->st.resource_stalls);
}
