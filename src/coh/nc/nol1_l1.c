/*
 * nol1_l1.c - L1 of `nol1`: the L1 is not used for global data.
 *
 * Spec 002 §3.1: every global load, store and atomic goes to its L2 bank,
 * and - the detail that makes the DLB result reproducible - redundant loads
 * from different warps are NOT merged: there is no MSHR, each request travels
 * alone. Fences and kernel boundaries cost nothing here beyond what the SM's
 * ordering already waited for.
 * INVARIANT: the controller holds no line and no state; every response
 *   answers exactly the request it carries.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdlib.h>

#include "base/log.h"
#include "coh/nc/nc.h"
#include "system/config.h"

#define NOL1_STATES(X) X(I, "the L1 holds nothing")

#define NOL1_EVENTS(X)                                                                             \
    X(Load, "load from the SM")                                                                    \
    X(Store, "store from the SM")                                                                  \
    X(Atomic, "atomic from the SM")                                                                \
    X(Rsp, "response from the L2")

#define X(n, d) NOL1_##n,
enum nol1_state { NOL1_STATES(X) NOL1_NSTATES };
enum nol1_event { NOL1_EVENTS(X) NOL1_NEVENTS };
#undef X
#define X(n, d) #n,
static const char *const state_names[] = {NOL1_STATES(X)};
static const char *const event_names[] = {NOL1_EVENTS(X)};
#undef X
#define X(n, d) d,
static const char *const state_descs[] = {NOL1_STATES(X)};
static const char *const event_descs[] = {NOL1_EVENTS(X)};
#undef X

struct nol1 {
    struct comp comp;
    struct ctrl_wiring w;
    struct ctrl_links links;
    struct port from_core;
    uint32_t line_bytes;
    uint64_t loads, stores, atomics, resource_stalls;
};

/* ---- actions ---- */

static void forward(struct coh_ctx *x, uint16_t type, uint8_t cls, uint16_t bytes)
{
    struct nol1 *c = x->ctrl;
    struct msg *m = x->msg;
    m->type = type;
    m->cls = cls;
    m->vnet = NC_VNET_REQ;
    m->src = (uint16_t)c->w.index;
    m->dst = (uint16_t)((m->addr / c->line_bytes) % c->w.n_banks);
    m->size_bytes = bytes;
    if (!port_send(c->links.net_out[NC_VNET_REQ], m))
        panic("%s: request port full after room check", c->w.name);
    x->msg = NULL;
}

static void send_gets(struct coh_ctx *x)
{
    ((struct nol1 *)x->ctrl)->loads++;
    forward(x, MSG_NC_GETS, TRAFFIC_REQ, 0);
}

static void send_write(struct coh_ctx *x)
{
    ((struct nol1 *)x->ctrl)->stores++;
    forward(x, MSG_NC_WRITE, TRAFFIC_ST, (uint16_t)bytemask_count(&x->msg->mask));
}

static void send_atomic(struct coh_ctx *x)
{
    ((struct nol1 *)x->ctrl)->atomics++;
    forward(x, MSG_NC_ATOMIC, TRAFFIC_ATO, (uint16_t)atom_operand_bytes(x->msg->req.atom));
}

static void reply_core(struct coh_ctx *x)
{
    struct nol1 *c = x->ctrl;
    x->msg->type = MSG_CORE_RSP;
    if (!port_send(c->links.to_core, x->msg))
        panic("%s: core response port full", c->w.name);
    x->msg = NULL;
}

static const struct coh_action_name actions[] = {
    {send_gets, "send_gets", "send the load to the L2 (no merging)"},
    {send_write, "send_write", "send the store's bytes to the L2"},
    {send_atomic, "send_atomic", "send the atomic to the L2"},
    {reply_core, "reply_core", "answer the request this response carries"},
    {0},
};

/*  state       event          next     uses  actions      */
static const struct coh_trans nol1_cells[NOL1_NSTATES][NOL1_NEVENTS] = {
    [NOL1_I][NOL1_Load  ] = DO(NOL1_I, 0, send_gets),
    [NOL1_I][NOL1_Store ] = DO(NOL1_I, 0, send_write),
    [NOL1_I][NOL1_Atomic] = DO(NOL1_I, 0, send_atomic),
    [NOL1_I][NOL1_Rsp   ] = DO(NOL1_I, 0, reply_core),
};

static void set_state(struct coh_ctx *x, unsigned next)
{
    (void)x, (void)next; /* a single state: nothing to keep */
}

const struct coh_table nol1_l1_table = {
    .proto = "nol1",
    .ctrl = "L1",
    .n_states = NOL1_NSTATES,
    .n_events = NOL1_NEVENTS,
    .state_names = state_names,
    .state_descs = state_descs,
    .event_names = event_names,
    .event_descs = event_descs,
    .cells = &nol1_cells[0][0],
    .actions = actions,
    .set_state = set_state,
};

/* ---- classifier and tick ---- */

static void step(struct nol1 *c, struct msg *m, unsigned event)
{
    struct coh_ctx x = {.ctrl = c, .ctrl_name = c->w.name, .eng = c->comp.eng,
                        .addr = m->addr, .msg = m, .state = NOL1_I, .event = event};
    coh_step(&nol1_l1_table, &c->w.cov[0], &x);
}

static bool nol1_tick(struct comp *cp)
{
    struct nol1 *c = (struct nol1 *)cp;
    bool moved = false;
    struct msg *m;

    if ((m = port_peek(c->links.net_in[NC_VNET_RSP]))) {
        step(c, port_pop(c->links.net_in[NC_VNET_RSP]), NOL1_Rsp);
        moved = true;
    }
    if ((m = port_peek(&c->from_core))) {
        if (m->req.op >= MEM_FENCE) { /* ordering already enforced by the SM */
            m->type = MSG_CORE_RSP;
            port_pop(&c->from_core);
            if (!port_send(c->links.to_core, m))
                panic("%s: core response port full", c->w.name);
            moved = true;
        } else if (port_has_room(c->links.net_out[NC_VNET_REQ], 1)) {
            port_pop(&c->from_core);
            step(c, m, m->req.op == MEM_LOAD    ? NOL1_Load
                       : m->req.op == MEM_STORE ? NOL1_Store
                                                : NOL1_Atomic);
            moved = true;
        } else {
            c->resource_stalls++;
        }
    }
    return moved || port_peek(&c->from_core);
}

static struct comp *nol1_create(const struct ctrl_wiring *w)
{
    struct nol1 *c = calloc(1, sizeof *c);
    if (!c)
        panic("out of memory");
    c->w = *w;
    c->line_bytes = w->cfg->l1.cache.line_bytes;
    comp_init(&c->comp, w->eng, w->name, w->clk, nol1_tick, NULL);
    port_init(&c->from_core, "from_core", 64, w->clk->period_ps, NULL, &c->comp);
    return &c->comp;
}

static void nol1_connect(struct comp *cp, const struct ctrl_links *l)
{
    ((struct nol1 *)cp)->links = *l;
}

static struct port *nol1_in_port(struct comp *cp)
{
    return &((struct nol1 *)cp)->from_core;
}

static void nol1_destroy(struct comp *cp)
{
    struct nol1 *c = (struct nol1 *)cp;
    port_destroy(&c->from_core);
    free(c);
}

static void nol1_stats(struct comp *cp, void (*emit)(void *, const char *, uint64_t), void *arg)
{
    struct nol1 *c = (struct nol1 *)cp;
    emit(arg, "loads", c->loads);
    emit(arg, "stores", c->stores);
    emit(arg, "atomics", c->atomics);
    emit(arg, "resource_stalls", c->resource_stalls);
}

static unsigned nol1_peek(struct comp *cp, addr_t line, uint8_t *data)
{
    (void)cp, (void)line, (void)data;
    return NOL1_I;
}

static const struct coh_table *const nol1_tables[] = {&nol1_l1_table, &nc_l2_table, NULL};

const struct proto_desc proto_nol1 = {
    .name = "nol1",
    .title = "L1 disabled for global data: every access goes to its L2 bank, no MSHR merging",
    .model = MODEL_PTX,
    .n_vnets = NC_NVNETS,
    .vnet_names = nc_vnet_names,
    .tables = nol1_tables,
    .n_l1_tables = 1,
    .l1 = {nol1_create, nol1_connect, nol1_in_port, nol1_destroy, NULL, nol1_peek, nol1_stats},
    .l2 = NC_L2_OPS,
};
