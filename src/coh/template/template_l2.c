/*
 * template_l2.c - L2 bank of `template`: it just serves.
 *
 * One bank per memory partition, write-back and write-allocate, atomics
 * performed at the bank, one request per cycle in order. A miss takes a way
 * (evicting the LRU line that is not filling, writing it back if dirty),
 * fetches the line from its DRAM channel and parks the request, and any later
 * one to the line, on the MSHR; the fill replays them in order. Responses
 * leave through a pipeline of l2.latency_cycles. The bank keeps no sharers:
 * the L1s drop their copies themselves (template_l1.c).
 * INVARIANT: the bank is where writes to its lines are serialised; a line in
 *   IV is never chosen as a victim.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "base/log.h"
#include "coh/template/template.h"

#define TPL_L2_STATES(X)                                                                           \
    X(I, "not present")                                                                            \
    X(V, "valid, clean")                                                                           \
    X(M, "valid, dirty (differs from DRAM)")                                                       \
    X(IV, "way taken, fill from DRAM outstanding; requests parked")

#define TPL_L2_EVENTS(X)                                                                           \
    X(GetS, "read request from an L1")                                                             \
    X(Write, "write-through from an L1")                                                           \
    X(Atomic, "atomic from an L1")                                                                 \
    X(Replace, "a miss needs this line's way")                                                     \
    X(MemData, "fill from DRAM")

#define X(n, d) TL2_##n,
enum tpl_l2_state { TPL_L2_STATES(X) TL2_NSTATES };
enum tpl_l2_event { TPL_L2_EVENTS(X) TL2_NEVENTS };
#undef X
COH_NAMES(TPL_L2_STATES, TPL_L2_EVENTS);

/* ---- actions ---- */

static void reply_data(struct coh_ctx *x)
{
    ctrl_l2_reply_line(x->ctrl, x, x->msg, MSG_TPL_DATA, TPL_VNET_RSP);
    x->msg = NULL;
}

static void write_line(struct coh_ctx *x)
{
    ctrl_l2_perform_write(x->ctrl, x);
    ctrl_l2_respond(x->ctrl, x->msg, MSG_TPL_WRACK, TPL_VNET_RSP, TRAFFIC_REQ, 0);
    x->msg = NULL;
}

static void do_atomic(struct coh_ctx *x)
{
    ctrl_l2_perform_atomic(x->ctrl, x);
    ctrl_l2_respond(x->ctrl, x->msg, MSG_TPL_ATOMRSP, TPL_VNET_RSP, TRAFFIC_ATO,
                    ctrl_atomic_rsp_bytes(x->msg));
    x->msg = NULL;
}

static const struct coh_action_name actions[] = {
    {ctrl_take_way, "take_way", "install the line in a free way (the fill comes later)"},
    {ctrl_alloc_tbe, "alloc_tbe", "allocate an MSHR for the miss"},
    {ctrl_l2_send_fetch, "send_fetch", "read the line from DRAM"},
    {ctrl_park, "park", "keep the request in the MSHR until the fill"},
    {ctrl_l2_fill_line, "fill_line", "write the DRAM data into the line"},
    {ctrl_free_tbe, "free_tbe", "free the MSHR and replay its requests in order"},
    {reply_data, "reply_data", "send the line to the requester"},
    {write_line, "write_line", "merge the written bytes, acknowledge"},
    {do_atomic, "do_atomic", "perform every lane's atomic on the line, return old values"},
    {ctrl_l2_write_back, "write_back", "write the dirty line to DRAM"},
    {ctrl_drop_line, "drop_line", "free the way"},
    {0},
};

/*  state      event          next     uses                          actions                     */
static const struct coh_trans tpl_l2_cells[TL2_NSTATES][TL2_NEVENTS] = {
    [TL2_I][TL2_GetS] =
        DO(TL2_IV, TAG_RD | TAG_WR, ctrl_take_way, ctrl_alloc_tbe, ctrl_l2_send_fetch, ctrl_park),
    [TL2_I][TL2_Write] =
        DO(TL2_IV, TAG_RD | TAG_WR, ctrl_take_way, ctrl_alloc_tbe, ctrl_l2_send_fetch, ctrl_park),
    [TL2_I][TL2_Atomic] =
        DO(TL2_IV, TAG_RD | TAG_WR, ctrl_take_way, ctrl_alloc_tbe, ctrl_l2_send_fetch, ctrl_park),
    [TL2_V][TL2_GetS] = DO(TL2_V, TAG_RD | DATA_RD, reply_data),
    [TL2_V][TL2_Write] = DO(TL2_M, TAG_RD | DATA_WR, write_line),
    [TL2_V][TL2_Atomic] = DO(TL2_M, TAG_RD | DATA_RD | DATA_WR, do_atomic),
    [TL2_V][TL2_Replace] = DO(TL2_I, TAG_WR, ctrl_drop_line),
    [TL2_M][TL2_GetS] = DO(TL2_M, TAG_RD | DATA_RD, reply_data),
    [TL2_M][TL2_Write] = DO(TL2_M, TAG_RD | DATA_WR, write_line),
    [TL2_M][TL2_Atomic] = DO(TL2_M, TAG_RD | DATA_RD | DATA_WR, do_atomic),
    [TL2_M][TL2_Replace] = DO(TL2_I, TAG_WR | DATA_RD, ctrl_l2_write_back, ctrl_drop_line),
    [TL2_IV][TL2_GetS] = STALL,
    [TL2_IV][TL2_Write] = STALL,
    [TL2_IV][TL2_Atomic] = STALL,
    [TL2_IV][TL2_MemData] = DO(TL2_V, TAG_WR | DATA_WR, ctrl_l2_fill_line, ctrl_free_tbe),
};

static void dump_ctx(struct coh_ctx *x, FILE *out)
{
    if (x->line)
        fprintf(out, "  line %#llx: %s%s\n", (unsigned long long)x->line->addr,
                state_names[x->line->state], x->line->dirty ? " dirty" : "");
    if (x->tbe)
        fprintf(out, "  mshr %#llx: parked %u\n", (unsigned long long)x->tbe->addr,
                x->tbe->parked.n);
}

const struct coh_table tpl_l2_table =
    COH_TABLE("template", "L2", tpl_l2_cells, ctrl_set_state, dump_ctx);

/* ---- classifier ---- */

static bool evictable(const struct cache_line *l, void *arg)
{
    (void)arg;
    return l->state != TL2_IV;
}

static unsigned classify_request(const struct msg *m)
{
    switch (m->type) {
    case MSG_TPL_GETS:
        return TL2_GetS;
    case MSG_TPL_WRITE:
        return TL2_Write;
    case MSG_TPL_ATOMIC:
        return TL2_Atomic;
    default:
        panic("template L2: unexpected request type %u", m->type);
    }
}

/* One request. False: a resource stall (it stays queued). */
static bool take_request(struct ctrl *b, struct msg *m)
{
    struct coh_ctx x;
    if (!port_has_room(&b->pipe, 1)) { /* responses held by a full vnet back up to here */
        b->st.resource_stalls++;
        return false;
    }
    ctrl_lookup(b, &x, m->addr);
    if (!x.line && !ctrl_l2_room_for_miss(b, m->addr, evictable, TL2_Replace))
        return false;
    x.msg = m;
    x.event = classify_request(m);
    ctrl_step_or_park(b, &x);
    return true;
}

static void take_mem(struct ctrl *b, struct msg *m)
{
    if (ctrl_l2_drop_wrack(b, m))
        return;
    ctrl_fire(b, m->addr, m, TL2_MemData);
}

static bool tpl_l2_tick(struct comp *cp)
{
    struct ctrl *b = (struct ctrl *)cp;
    struct port *reqs = b->links.net_in[TPL_VNET_REQ];
    ctrl_tick_begin(b);
    bool moved = ctrl_l2_drain_pipe(b);
    moved |= ctrl_take_one(b, &b->in, take_mem);
    moved |= ctrl_take_next(b, reqs, take_request);
    if (moved)
        return true;
    /* a response held by a full vnet, or a request stalled on a resource: sleep until it
     * may clear */
    if (b->replay.n || port_peek(&b->pipe) || port_peek(reqs)) {
        struct port *const in[] = {&b->in, &b->pipe};
        return ctrl_stall_sleep(b, in, 2);
    }
    return false;
}

static void dump_mshr(const struct ctrl *b, const struct tbe *t, FILE *out)
{
    fprintf(out, "  mshr %#llx %s parked %u\n", (unsigned long long)t->addr,
            b->table->state_names[t->state], t->parked.n);
}

static void tpl_l2_dump(struct comp *cp, FILE *out)
{
    struct ctrl *b = (struct ctrl *)cp;
    if (!b->tbes.n_used && !b->replay.n && !b->pipe.n)
        return;
    fprintf(out, "%s (template L2): %u MSHRs, %u replaying, %u in pipeline\n", b->w.name,
            b->tbes.n_used, b->replay.n, b->pipe.n);
    ctrl_dump_tbes(b, out, dump_mshr);
    ctrl_l2_dump_pipe(b, out);
}

/* ---- construction ---- */

static const struct ctrl_stat tpl_l2_stat_rows[] = {
    CTRL_STATS_L2_ACCESSES,
    CTRL_STAT_BASE(resource_stalls),
    CTRL_STAT_END,
};

struct comp *tpl_l2_create(const struct ctrl_wiring *w)
{
    struct ctrl *c = ctrl_alloc(sizeof *c);
    ctrl_l2_init(c, w, &tpl_l2_table, tpl_l2_tick, tpl_l2_dump, 0x7e00);
    ctrl_set_stats(c, tpl_l2_stat_rows, NULL);
    return &c->comp;
}

/* Host access between kernels: where the line's value lives (the bank's copy, else DRAM). */
void tpl_l2_dma(struct comp *cp, addr_t line, uint8_t *buf, const struct bytemask *wmask)
{
    struct ctrl *b = (struct ctrl *)cp;
    struct cache_line *l = cache_find(&b->cache, line);
    unsigned s = l ? l->state : TL2_I;
    ctrl_l2_dma(b, line, buf, wmask, s, s == TL2_IV); /* a fill outstanding */
    if (l && wmask)
        l->state = TL2_M; /* now differs from DRAM */
}
