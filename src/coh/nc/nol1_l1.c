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
#include "coh/ctrl.h"
#include "coh/nc/nc.h"
#include "coh/machine_view.h"

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
COH_NAMES(NOL1_STATES, NOL1_EVENTS);

struct nol1_stats {
    uint64_t loads, stores, atomics;
};

struct nol1 {
    struct ctrl base; /* no cache, no TBEs */
    struct nol1_stats st;
};

/* ---- actions ---- */

static struct nol1_stats *st_of(struct coh_ctx *x)
{
    return &((struct nol1 *)x->ctrl)->st;
}

static void forward(struct coh_ctx *x, uint16_t type, uint8_t cls, uint16_t bytes)
{
    ctrl_to_home(x->ctrl, x->msg, type, NC_VNET_REQ, cls, bytes);
    x->msg = NULL;
}

static void send_gets(struct coh_ctx *x)
{
    st_of(x)->loads++;
    forward(x, MSG_NC_GETS, TRAFFIC_REQ, 0);
}

static void send_write(struct coh_ctx *x)
{
    st_of(x)->stores++;
    forward(x, MSG_NC_WRITE, TRAFFIC_ST, (uint16_t)bytemask_count(&x->msg->mask));
}

static void send_atomic(struct coh_ctx *x)
{
    st_of(x)->atomics++;
    forward(x, MSG_NC_ATOMIC, TRAFFIC_ATO, (uint16_t)atom_operand_bytes(x->msg->req.atom));
}

static void reply_core(struct coh_ctx *x)
{
    ctrl_to_core(x->ctrl, x->msg, 0);
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
    [NOL1_I][NOL1_Load] = DO(NOL1_I, 0, send_gets),
    [NOL1_I][NOL1_Store] = DO(NOL1_I, 0, send_write),
    [NOL1_I][NOL1_Atomic] = DO(NOL1_I, 0, send_atomic),
    [NOL1_I][NOL1_Rsp] = DO(NOL1_I, 0, reply_core),
};

static void set_state(struct coh_ctx *x, unsigned next)
{
    (void)x, (void)next; /* a single state: nothing to keep */
}

const struct coh_table nol1_l1_table = COH_TABLE("nol1", "L1", nol1_cells, set_state, NULL);

/* ---- classifier and tick ---- */

static void step(struct ctrl *b, struct msg *m, unsigned event)
{
    struct coh_ctx x = {.ctrl = b,
                        .ctrl_name = b->w.name,
                        .eng = b->comp.eng,
                        .addr = m->addr,
                        .msg = m,
                        .state = NOL1_I,
                        .event = event};
    ctrl_step(b, &x);
}

static void take_response(struct ctrl *b, struct msg *m)
{
    step(b, m, NOL1_Rsp);
}

static bool nol1_tick(struct comp *cp)
{
    struct ctrl *b = (struct ctrl *)cp;
    struct msg *m;

    ctrl_tick_begin(b);
    bool moved = ctrl_take_one(b, b->links.net_in[NC_VNET_RSP], take_response);
    if ((m = port_peek(&b->in))) {
        if (m->req.op >= MEM_FENCE) { /* ordering already enforced by the SM */
            port_pop(&b->in);
            ctrl_to_core(b, m, 0);
            moved = true;
        } else if (port_has_room(b->links.net_out[NC_VNET_REQ], 1)) {
            port_pop(&b->in);
            step(b, m,
                 m->req.op == MEM_LOAD    ? NOL1_Load
                 : m->req.op == MEM_STORE ? NOL1_Store
                                          : NOL1_Atomic);
            moved = true;
        } else {
            b->st.resource_stalls++;
        }
    }
    if (moved)
        return true;
    /* the request waiting stalled on a full port: sleep until it has room */
    if (port_peek(&b->in))
        return ctrl_stall_sleep(b, &b->links.net_in[NC_VNET_RSP], 1);
    return false;
}

static const struct ctrl_stat nol1_stat_rows[] = {
    CTRL_STAT_OWN(struct nol1_stats, loads),
    CTRL_STAT_OWN(struct nol1_stats, stores),
    CTRL_STAT_OWN(struct nol1_stats, atomics),
    CTRL_STAT_BASE(resource_stalls),
    CTRL_STAT_END,
};

static struct comp *nol1_create(const struct ctrl_wiring *w)
{
    struct nol1 *c = ctrl_alloc(sizeof *c);
    ctrl_init(&c->base, w, &nol1_l1_table, nol1_tick, NULL, w->cfg->l1.cache.line_bytes);
    ctrl_set_stats(&c->base, nol1_stat_rows, &c->st);
    port_init(&c->base.in, "from_core", 64, w->clk->period_ps, NULL, &c->base.comp);
    return &c->base.comp;
}

static unsigned nol1_peek(struct comp *cp, addr_t line, uint8_t *data, bool *has_data)
{
    (void)cp, (void)line, (void)data;
    if (has_data)
        *has_data = false;
    return NOL1_I;
}

static const struct coh_table *const nol1_tables[] = {&nol1_l1_table, &nc_l2_table, NULL};

const struct proto_desc proto_nol1 = {
    .name = "nol1",
    .title = "L1 disabled for global data: every access goes to its L2 bank, no MSHR merging",
    .model = MODEL_PTX,
    .write_atomic = true,
    .n_vnets = NC_NVNETS,
    .vnet_names = nc_vnet_names,
    .tables = nol1_tables,
    .n_l1_tables = 1,
    .l1 = {nol1_create, ctrl_connect, ctrl_in_port, ctrl_destroy, NULL, nol1_peek, ctrl_stats},
    .l2 = NC_L2_OPS,
    .symmetry = &nc_symmetry,
};
