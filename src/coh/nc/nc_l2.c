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
 * With l2.write_ack = arrival (spec 000 §2.4: STC acknowledges a store "as
 * soon as it reaches the memory side cache") a write is performed when the
 * bank takes it and its acknowledgement leaves at once, not after the access
 * pipeline (WriteOnArrival); one that misses, or finds its line filling with
 * nothing but such writes before it, is merged into the allocated line and
 * the fill keeps the bytes written (MemDataW). Other requests still park
 * behind a fill, so a line's requests are performed in arrival order.
 * An extension (struct nc_l2_ext in nc.h; GETM's and WarpTM's validation
 * units, coh/getm/getm_l2.c) may sit in front of the table: it sees every
 * request first, answers or holds those that are its matter, and is told of
 * the lines the table reads for an answer and of the writes it performs.
 * DEVIATION: the spec's IS/IM are one state IV here: requests are parked
 *   and replayed, so what the first request was does not matter. A write
 *   miss always fetches (no full-line write optimisation).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <string.h>

#include "base/log.h"
#include "coh/nc/nc.h"
#include "coh/machine_view.h"

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
    X(MemData, "fill from DRAM")                                                                   \
    X(WriteOnArrival, "write-through, l2.write_ack = arrival (to a filling line: only with "       \
                      "nothing but writes before it)")                                             \
    X(MemDataW, "fill from DRAM of a line written while it was filling")

#define X(n, d) NL2_##n,
enum nl2_state { NC_L2_STATES(X) NL2_NSTATES };
enum nl2_event { NC_L2_EVENTS(X) NL2_NEVENTS };
#undef X
COH_NAMES(NC_L2_STATES, NC_L2_EVENTS);

const char *const nc_vnet_names[NC_NVNETS] = {"request", "response"};

const struct proto_symmetry nc_symmetry = {
    .up = PROTO_MSG_BIT(MSG_NC_GETS) | PROTO_MSG_BIT(MSG_NC_WRITE) | PROTO_MSG_BIT(MSG_NC_ATOMIC),
    .down =
        PROTO_MSG_BIT(MSG_NC_DATA) | PROTO_MSG_BIT(MSG_NC_WRACK) | PROTO_MSG_BIT(MSG_NC_ATOMRSP),
    .data_blind = true,
};

struct nc_l2 {
    struct ctrl base;
    const struct nc_l2_ext *ext; /* an extension in front of the table (getm), or NULL */
    void *ext_state;             /* ... its state */
    bool ack_on_arrival;         /* l2.write_ack = arrival */
    struct msg_list acks;        /* acknowledgements sent on arrival, waiting for the vnet */
};

/* The bytes written into a filling line (arrival mode) are kept in its
 * MSHR's protocol words, which this bank uses for nothing else. */
_Static_assert(sizeof(((struct tbe *)0)->meta) == sizeof(struct bytemask),
               "an MSHR's meta words hold one line's byte mask");

/* ---- actions ---- */

/* Shared with the Spandex LLC, whose controller is not an nc_l2. */
void nc_l2_reply_data(struct coh_ctx *x)
{
    ctrl_l2_reply_line(x->ctrl, x, x->msg, MSG_NC_DATA, NC_VNET_RSP);
    x->msg = NULL;
}

/* This bank's read for an answer: an extension may answer it instead. */
static void reply_data(struct coh_ctx *x)
{
    struct nc_l2 *c = (struct nc_l2 *)x->ctrl;
    if (c->ext && c->ext->reading(c->ext_state, x->ctrl, x->msg, x->line->data)) {
        x->msg = NULL; /* answered by the extension (a WarpTM validation) */
        return;
    }
    nc_l2_reply_data(x);
}

/* Shared with the Spandex LLC, whose controller is not an nc_l2. */
void nc_l2_write_line(struct coh_ctx *x)
{
    ctrl_l2_perform_write(x->ctrl, x);
    ctrl_l2_respond(x->ctrl, x->msg, MSG_NC_WRACK, NC_VNET_RSP, TRAFFIC_REQ, 0);
    x->msg = NULL;
}

/* This bank's write: an extension hears of it before the answer (under
 * getm a commit's reservations go once it is written). */
static void write_line(struct coh_ctx *x)
{
    struct nc_l2 *c = (struct nc_l2 *)x->ctrl;
    if (!c->ext) {
        nc_l2_write_line(x);
        return;
    }
    ctrl_l2_perform_write(x->ctrl, x);
    c->ext->written(c->ext_state, x->ctrl, x->msg);
    ctrl_l2_respond(x->ctrl, x->msg, MSG_NC_WRACK, NC_VNET_RSP, TRAFFIC_REQ, 0);
    x->msg = NULL;
}

/* l2.write_ack = arrival: perform, and acknowledge past the access
 * pipeline (the acknowledgement queues only for room in its vnet). */
static void write_now(struct coh_ctx *x)
{
    struct ctrl *c = x->ctrl;
    ctrl_l2_perform_write(c, x);
    ctrl_l2_reply_header(c, x->msg, MSG_NC_WRACK, NC_VNET_RSP, TRAFFIC_REQ, 0);
    msg_list_push(&((struct nc_l2 *)c)->acks, x->msg);
    x->msg = NULL;
}

static void write_filling(struct coh_ctx *x)
{
    struct bytemask written;
    memcpy(&written, x->tbe->meta, sizeof written);
    for (unsigned i = 0; i < LINE_MAX_BYTES / 64; i++)
        written.w[i] |= x->msg->mask.w[i];
    memcpy(x->tbe->meta, &written, sizeof written);
    write_now(x);
}

static void fill_unwritten(struct coh_ctx *x)
{
    struct ctrl *c = ctrl_of(x);
    struct bytemask keep;
    memcpy(&keep, x->tbe->meta, sizeof keep);
    for (unsigned i = 0; i < LINE_MAX_BYTES / 64; i++)
        keep.w[i] = ~keep.w[i];
    bytes_merge(x->line->data, x->msg->data, &keep, c->line_bytes);
    msg_free(c->w.msgs, x->msg);
    x->msg = NULL;
}

/* A fill frees its MSHR and replays the requests parked on it, after those
 * already on the replay list. Under getm and warptm that list also carries
 * requests that can miss: commits the commit unit has written, loads woken
 * from the stall buffer. One of those at the list's head, refused for want
 * of a way or an MSHR, would take the way of a line just filled before the
 * requests parked on it were served; each of them then misses again, and
 * with more lines contending for a set than it has ways they evict each
 * other's fills forever (WarpTM on ATM at paper size with 4 transactional
 * warps per core; tests/cli/tm-fill-livelock.sh). So while a transactional
 * request waits on the list the parked requests go first, and the filled
 * line is read or written before anything can evict it; a line's requests
 * stay in arrival order (ctrl_wake_parked). Without one, every request on
 * the list is a fill's waiter that hits, and the order stays the one every
 * other result was measured with (FGLock under getm equals rc). */
static void wake_parked(struct coh_ctx *x)
{
    for (const struct msg *m = ctrl_of(x)->replay.head; m; m = m->next)
        if (m->req.tx != MEM_TX_NONE) {
            ctrl_wake_parked(x);
            return;
        }
    ctrl_free_tbe(x);
}

void nc_l2_do_atomic(struct coh_ctx *x)
{
    ctrl_l2_perform_atomic(x->ctrl, x);
    ctrl_l2_respond(x->ctrl, x->msg, MSG_NC_ATOMRSP, NC_VNET_RSP, TRAFFIC_ATO,
                    ctrl_atomic_rsp_bytes(x->msg));
    x->msg = NULL;
}

static const struct coh_action_name actions[] = {
    {ctrl_take_way, "take_way", "install the line in a free way (the fill comes later)"},
    {ctrl_alloc_tbe, "alloc_tbe", "allocate an MSHR for the miss"},
    {ctrl_l2_send_fetch, "send_fetch", "read the line from DRAM"},
    {ctrl_park, "park", "keep the request in the MSHR until the fill"},
    {ctrl_l2_fill_line, "fill_line", "write the DRAM data into the line"},
    {wake_parked, "wake_parked",
     "free the MSHR and replay its requests in order (before those "
     "waiting while a transactional request waits)"},
    {reply_data, "reply_data", "send the line to the requester"},
    {write_line, "write_line", "merge the written bytes, acknowledge"},
    {write_now, "write_now", "merge the written bytes, acknowledge at once"},
    {write_filling, "write_filling",
     "merge the written bytes into the filling line, note them "
     "in the MSHR, acknowledge at once"},
    {fill_unwritten, "fill_unwritten", "write the DRAM data into the bytes not written"},
    {nc_l2_do_atomic, "do_atomic", "perform every lane's atomic on the line, return old values"},
    {ctrl_l2_write_back, "write_back", "write the dirty line to DRAM"},
    {ctrl_drop_line, "drop_line", "free the way"},
    {0},
};

/*  state      event          next      uses               actions                              */
static const struct coh_trans nc_l2_cells[NL2_NSTATES][NL2_NEVENTS] = {
    [NL2_I][NL2_GetS] =
        DO(NL2_IV, TAG_RD | TAG_WR, ctrl_take_way, ctrl_alloc_tbe, ctrl_l2_send_fetch, ctrl_park),
    [NL2_I][NL2_Write] =
        DO(NL2_IV, TAG_RD | TAG_WR, ctrl_take_way, ctrl_alloc_tbe, ctrl_l2_send_fetch, ctrl_park),
    [NL2_I][NL2_Atomic] =
        DO(NL2_IV, TAG_RD | TAG_WR, ctrl_take_way, ctrl_alloc_tbe, ctrl_l2_send_fetch, ctrl_park),
    [NL2_V][NL2_GetS] = DO(NL2_V, TAG_RD | DATA_RD, reply_data),
    [NL2_V][NL2_Write] = DO(NL2_M, TAG_RD | DATA_WR, write_line),
    [NL2_V][NL2_Atomic] = DO(NL2_M, TAG_RD | DATA_RD | DATA_WR, nc_l2_do_atomic),
    [NL2_V][NL2_Replace] = DO(NL2_I, TAG_WR, ctrl_drop_line),
    [NL2_M][NL2_GetS] = DO(NL2_M, TAG_RD | DATA_RD, reply_data),
    [NL2_M][NL2_Write] = DO(NL2_M, TAG_RD | DATA_WR, write_line),
    [NL2_M][NL2_Atomic] = DO(NL2_M, TAG_RD | DATA_RD | DATA_WR, nc_l2_do_atomic),
    [NL2_M][NL2_Replace] = DO(NL2_I, TAG_WR | DATA_RD, ctrl_l2_write_back, ctrl_drop_line),
    [NL2_IV][NL2_GetS] = STALL,
    [NL2_IV][NL2_Write] = STALL,
    [NL2_IV][NL2_Atomic] = STALL,
    [NL2_IV][NL2_MemData] = DO(NL2_V, TAG_WR | DATA_WR, ctrl_l2_fill_line, wake_parked),
    [NL2_I][NL2_WriteOnArrival] = DO(NL2_IV, TAG_RD | TAG_WR | DATA_WR, ctrl_take_way,
                                     ctrl_alloc_tbe, ctrl_l2_send_fetch, write_filling),
    [NL2_IV][NL2_WriteOnArrival] = DO(NL2_IV, DATA_WR, write_filling),
    [NL2_V][NL2_WriteOnArrival] = DO(NL2_M, TAG_RD | DATA_WR, write_now),
    [NL2_M][NL2_WriteOnArrival] = DO(NL2_M, TAG_RD | DATA_WR, write_now),
    [NL2_IV][NL2_MemDataW] = DO(NL2_M, TAG_WR | DATA_WR, fill_unwritten, wake_parked),
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

const struct coh_table nc_l2_table = COH_TABLE("nc", "L2", nc_l2_cells, ctrl_set_state, dump_ctx);

/* ---- classifier ---- */

static bool evictable(const struct cache_line *l, void *arg)
{
    (void)arg;
    return l->state != NL2_IV;
}

static unsigned classify_request(const struct msg *m)
{
    switch (m->type) {
    case MSG_NC_GETS:
        return NL2_GetS;
    case MSG_NC_WRITE:
        return NL2_Write;
    case MSG_NC_ATOMIC:
        return NL2_Atomic;
    default:
        panic("nc L2: unexpected request type %u", m->type);
    }
}

/* One request. Returns false on a resource stall (it stays queued). */
static bool take_request(struct ctrl *b, struct msg *m)
{
    struct coh_ctx x;
    if (!port_has_room(&b->pipe, 1)) { /* responses held by a full vnet back up to here */
        b->st.resource_stalls++;
        return false;
    }
    struct nc_l2 *c = (struct nc_l2 *)b;
    enum nc_l2_take t = c->ext ? c->ext->take(c->ext_state, b, m) : NC_L2_TO_TABLE;
    if (t == NC_L2_TAKEN)
        return true;
    if (t == NC_L2_BUSY) { /* retried when the extension is free (nc_l2_tick) */
        b->st.resource_stalls++;
        return false;
    }
    ctrl_lookup(b, &x, m->addr);
    if (!x.line && !ctrl_l2_room_for_miss(b, m->addr, evictable, NL2_Replace))
        return false;
    x.msg = m;
    x.event = classify_request(m);
    if (x.event == NL2_Write && ((struct nc_l2 *)b)->ack_on_arrival &&
        (!x.line || x.line->state != NL2_IV || !x.tbe->parked.n))
        x.event = NL2_WriteOnArrival;
    ctrl_step_or_park(b, &x);
    return true;
}

static void take_mem(struct ctrl *b, struct msg *m)
{
    if (ctrl_l2_drop_wrack(b, m))
        return;
    const struct tbe *t = ((struct nc_l2 *)b)->ack_on_arrival ? tbe_find(&b->tbes, m->addr) : NULL;
    bool written = t && (t->meta[0] | t->meta[1]);
    ctrl_fire(b, m->addr, m, written ? NL2_MemDataW : NL2_MemData);
}

static bool nc_l2_tick(struct comp *cp)
{
    struct ctrl *b = (struct ctrl *)cp;
    struct nc_l2 *c = (struct nc_l2 *)b;
    struct port *reqs = b->links.net_in[NC_VNET_REQ];
    struct msg_list *acks = &c->acks;
    ctrl_tick_begin(b);
    bool moved = false;
    while (acks->n && port_has_room(b->links.net_out[NC_VNET_RSP], 1)) {
        port_send(b->links.net_out[NC_VNET_RSP], msg_list_pop(acks));
        moved = true;
    }
    moved |= ctrl_l2_drain_pipe(b);
    if (c->ext)
        moved |= c->ext->tick(c->ext_state, b);
    moved |= ctrl_take_one(b, &b->in, take_mem);
    moved |= ctrl_take_next(b, reqs, take_request);
    if (moved)
        return true;
    if (c->ext && c->ext->must_tick(c->ext_state, b, port_peek(reqs) != NULL))
        return true; /* a request waits for the extension (GETM's VU port, say), or it
                        works on its own (GETM's commit unit writes): only time frees them */
    /* a response held by a full vnet, or a request stalled on a resource (a
     * full DRAM port, MSHR table or set), and nothing else: sleep until it
     * may clear */
    if (b->replay.n || port_peek(&b->pipe) || acks->n || port_peek(reqs)) {
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

static void nc_l2_dump(struct comp *cp, FILE *out)
{
    struct ctrl *b = (struct ctrl *)cp;
    const struct nc_l2 *c = (const struct nc_l2 *)b;
    const struct msg_list *acks = &c->acks;
    bool held = c->ext && c->ext->holds(c->ext_state); /* GETM's commit unit or stall buffer */
    if (!b->tbes.n_used && !b->replay.n && !b->pipe.n && !acks->n && !held)
        return;
    fprintf(out, "%s (nc L2): %u MSHRs, %u replaying, %u in pipeline, %u acknowledgements queued\n",
            b->w.name, b->tbes.n_used, b->replay.n, b->pipe.n, acks->n);
    ctrl_dump_tbes(b, out, dump_mshr);
    ctrl_l2_dump_pipe(b, out);
    if (held)
        c->ext->dump(c->ext_state, out);
}

/* ---- construction ---- */

static const struct ctrl_stat nc_l2_stat_rows[] = {
    CTRL_STATS_L2_ACCESSES,
    CTRL_STAT_BASE(resource_stalls),
    CTRL_STAT_END,
};

struct comp *nc_l2_create(const struct ctrl_wiring *w)
{
    struct nc_l2 *c = ctrl_alloc(sizeof *c);
    ctrl_l2_init(&c->base, w, &nc_l2_table, nc_l2_tick, nc_l2_dump, 0x1200);
    c->ack_on_arrival = w->cfg->l2.write_ack == L2_ACK_ARRIVAL;
    ctrl_set_stats(&c->base, nc_l2_stat_rows, NULL);
    return &c->base.comp;
}

struct comp *nc_l2_create_ext(const struct ctrl_wiring *w, const struct nc_l2_ext *ops, void *ext)
{
    struct comp *cp = nc_l2_create(w);
    ((struct nc_l2 *)cp)->ext = ops;
    ((struct nc_l2 *)cp)->ext_state = ext;
    return cp;
}

void *nc_l2_ext_of(struct comp *cp)
{
    return ((struct nc_l2 *)cp)->ext_state;
}

bool nc_l2_value_now(struct comp *cp, addr_t line, uint8_t *data)
{
    struct ctrl *b = (struct ctrl *)cp;
    const struct cache_line *l = cache_find(&b->cache, line);
    if (!l || (l->state != NL2_V && l->state != NL2_M))
        return false;
    memcpy(data, l->data, b->line_bytes);
    return true;
}

void nc_l2_dma(struct comp *cp, addr_t line, uint8_t *buf, const struct bytemask *wmask)
{
    struct ctrl *b = (struct ctrl *)cp;
    struct cache_line *l = cache_find(&b->cache, line);
    unsigned s = l ? l->state : NL2_I;
    ctrl_l2_dma(b, line, buf, wmask, s, s == NL2_IV); /* a fill outstanding */
    if (l && wmask)
        l->state = NL2_M; /* now differs from DRAM */
}
