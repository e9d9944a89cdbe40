/*
 * mg_l2.c - the L2 bank of the multi-GPM protocols (spec 004b §2.3-2.8):
 * nhcc, hmg, ideal-mg, sw-nh, sw-h and nocache-mg, one bank in flavours.
 *
 * Every GPM's bank b serves the lines that interleave onto b. For each line
 * one GPM is the system home (the first toucher of its page, mem/pagemap):
 * its bank keeps the newest value (write-back to its own DRAM, as nc's L2).
 * In hmg and sw-h each GPU also has a GPU home for the line, its GPM with the
 * system home's index; GPMs go through their GPU home, GPU homes through the
 * system home. Any other bank keeps clean copies of remote lines, forwards
 * every miss, write and atomic towards the home, and relays the answers.
 * Concurrent misses to one remote line merge: the first read's MSHR (state
 * IR) holds the later ones, which its answer serves, so one request crosses
 * the link (remote-line MSHRs are at most half of l2.mshrs, so that home
 * misses, which free on DRAM alone, always find one; a full share stalls an
 * L1's read, while a read another GPM's bank passed on, which must not hold
 * up the FIFO behind it, goes on unmerged and unfilled).
 *
 * Two tables: the data array's (this file) and the directory's (mg_dir.c:
 * Table 5.1, V/I per region with a sharer vector of GPMs, no transient
 * states; nhcc, hmg, ideal-mg). The classifier picks home or non-home
 * events; scope decides where a load may be served: weak and .cta loads
 * anywhere, .gpu loads at the GPU home, .sys (and volatile) loads only at
 * the system home. Stores are written through and acknowledged to the L1 at
 * once by its own bank (posted); atomics are performed at the system home
 * (hmg and sw-h, mg.gpu_atomics = gpu-home: .gpu ones at the GPU home;
 * .cta ones are performed in the L1, mg_l1.c).
 * Invalidations go only on read-write sharing and directory evictions and are
 * acknowledged only for the counted release completion (mg_release.c); a GPU home
 * passes those of the system home on to its GPMs. A fill that may be older
 * than an invalidation or a write seen meanwhile is not installed: a
 * per-line race check (spec 004b §8 item 4), the MSHR moving from IR to IRX
 * when a write or atomic to the line passes through the bank, an
 * invalidation of its region arrives or an acquire drops remote copies;
 * reads that come later do not merge on it (their value must be as new as
 * that event). Software coherence (sw-nh, sw-h) has no directory: an
 * acquire has the banks drop their remote copies.
 *
 * Release completion and software coherence's bulk invalidation at acquires
 * are in mg_release.c; what the three files share, in mg_l2_int.h.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "coh/mg/mg_l2_int.h"
#include "mem/observe.h"
#include "coh/machine_view.h"
#include "coh/mg/mg_options.h"

/* ---- the data array ---- */

COH_NAMES(MG_L2_STATES, MG_L2_EVENTS);

/* ---- sending ---- */

/* To bank `bank` of GPM `gpm` through the sysnet. */
void mg_sys_send(struct mg_l2 *c, struct msg *m, unsigned gpm, unsigned vnet, uint16_t type,
                 uint8_t cls, uint16_t bytes)
{
    m->type = type;
    m->vnet = (uint8_t)vnet;
    m->cls = cls;
    m->src = (uint16_t)(c->gpm * c->banks + c->base.w.index);
    m->dst = (uint16_t)(gpm * c->banks + c->base.w.index);
    m->size_bytes = bytes;
    if (c->f.free_coherence && (type == MSG_MG_INV || type == MSG_MG_MARK ||
                                type == MSG_MG_MARKACK || type == MSG_MG_INVACK))
        m->flags |= SYSNET_F_FREE;
    /* ideal-mg: a free marker still arrives after what was sent before it on
     * its link (the writes its release covers); past them, the release
     * completed before its writes reached their homes (docs/verify.md,
     * "Several GPMs": found by gpucoh verify); its answer, the same message,
     * need not */
    m->flags &= (uint16_t)~SYSNET_F_AFTER;
    if (c->f.free_coherence && type == MSG_MG_MARK)
        m->flags |= SYSNET_F_AFTER;
    if (c->outq.n || !port_send(c->base.links.sys_out[vnet], m))
        msg_list_push(&c->outq, m); /* the sysnet's FIFOs are deep: rare, and kept in order */
}

/* An answer to the request m, through the bank's pipeline (its hit
 * latency): to the bank of another GPM that sent it (over the sysnet, marked
 * MG_F_TO_SYS), or to this GPM's L1. */
static void answer(struct mg_l2 *c, struct msg *m, uint16_t type, uint8_t cls, uint16_t bytes)
{
    bool sys = m->flags & MG_F_SYS;
    uint16_t from = m->src;
    ctrl_l2_respond(&c->base, m, type, NC_VNET_RSP, cls, bytes);
    if (sys) {
        m->flags |= MG_F_TO_SYS;
        m->src = (uint16_t)(c->gpm * c->banks + c->base.w.index);
        m->dst = from;
    }
}

/* Ready answers leave the pipeline: to the crossbar, or to the sysnet. */
static bool drain_pipe(struct mg_l2 *c)
{
    struct ctrl *b = &c->base;
    bool moved = false;
    struct msg *m;
    while ((m = port_peek(&b->pipe))) {
        struct port *out =
            (m->flags & MG_F_TO_SYS) ? b->links.sys_out[m->vnet] : b->links.net_out[m->vnet];
        if (!port_has_room(out, 1))
            break;
        port_pop(&b->pipe);
        m->flags &= (uint16_t)~MG_F_TO_SYS;
        port_send(out, m);
        moved = true;
    }
    return moved;
}

/* ---- homes ---- */

/* Where this bank sends what it cannot serve: its GPU's home, or from there
 * the system home. */
static unsigned parent(struct mg_l2 *c, addr_t line)
{
    unsigned sys = mg_sys_home(c, line, false), gh = mg_gpu_home(c, sys);
    return c->gpm == gh ? sys : gh;
}

/* ---- data-array actions ---- */

/* The home's answer to a read: the line (checked against the golden memory:
 * the home always holds the newest value). */
static void reply_data(struct coh_ctx *x)
{
    struct mg_l2 *c = mg_of(x->ctrl);
    struct msg *m = x->msg;
    c->base.st.reads++;
    cache_touch(&c->base.cache, x->line);
    if (c->base.w.obs)
        obs_check(c->base.w.obs, c->base.w.name, x->addr, x->line->data, NULL);
    memcpy(m->data, x->line->data, c->base.line_bytes);
    answer(c, m, MSG_NC_DATA, TRAFFIC_LD, (uint16_t)c->base.line_bytes);
    x->msg = NULL;
}

/* A hit on a copy (a GPU home's may answer its GPMs): it may be stale, as
 * the weak model allows for what the scope does not cover. */
static void reply_copy(struct coh_ctx *x)
{
    struct mg_l2 *c = mg_of(x->ctrl);
    c->base.st.reads++;
    cache_touch(&c->base.cache, x->line);
    memcpy(x->msg->data, x->line->data, c->base.line_bytes);
    answer(c, x->msg, MSG_NC_DATA, TRAFFIC_LD, (uint16_t)c->base.line_bytes);
    x->msg = NULL;
}

static void write_line(struct coh_ctx *x)
{
    struct mg_l2 *c = mg_of(x->ctrl);
    ctrl_l2_perform_write(&c->base, x);
    if (x->msg->flags & MG_F_SYS) /* posted: the writer's own bank acknowledged it */
        msg_free(c->base.w.msgs, x->msg);
    else
        ctrl_l2_respond(&c->base, x->msg, MSG_NC_WRACK, NC_VNET_RSP, TRAFFIC_REQ, 0);
    x->msg = NULL;
}

static void do_atomic(struct coh_ctx *x)
{
    struct mg_l2 *c = mg_of(x->ctrl);
    ctrl_l2_perform_atomic(&c->base, x);
    answer(c, x->msg, MSG_NC_ATOMRSP, TRAFFIC_ATO, ctrl_atomic_rsp_bytes(x->msg));
    x->msg = NULL;
}

/* Forward a request towards the line's home (parent()); the answer comes
 * back the same way. From an L1 of this GPM: m->sharer keeps the L1,
 * MG_F_FILL whether the answer settles this bank's MSHR (IR) for the line.
 * From another GPM (at a GPU home, hmg): m->ts2 keeps that bank's endpoint +
 * 1, MG_F_FILL2 whether the answer settles this bank's MSHR. */
static void forward(struct coh_ctx *x, uint16_t type, uint8_t cls, uint16_t bytes, bool fill)
{
    struct mg_l2 *c = mg_of(x->ctrl);
    struct msg *m = x->msg;
    bool passed_on = m->flags & MG_F_SYS; /* another GPM's, at a GPU home (hmg, sw-h) */
    c->st.forwarded++;
    if (passed_on) {
        m->ts2 = (uint64_t)m->src + 1;
        m->flags =
            (uint16_t)((m->flags & ~(MG_F_SYS | MG_F_DIR | MG_F_FILL2)) | (fill ? MG_F_FILL2 : 0));
    } else {
        m->sharer = m->src;
        m->ts2 = 0;
        m->flags = (uint16_t)((m->flags & ~(MG_F_SYS | MG_F_DIR | MG_F_FILL | MG_F_FILL2)) |
                              (fill ? MG_F_FILL : 0));
    }
    if (c->counted && passed_on && type != MSG_NC_GETS) {
        /* outstanding until the system home has it and its invalidations
         * have arrived (a marker straight to the system home may overtake it) */
        m->acks = (int32_t)(uint32_t)mg_gen_count(c);
        m->flags |= MG_F_ACKME;
    }
    mg_sys_send(c, m, parent(c, x->addr), NC_VNET_REQ, type, cls, bytes);
    x->msg = NULL;
}

/* A read miss to a remote line: the MSHR (IR) its answer settles, and the
 * read to the home. */
static void open_read(struct coh_ctx *x)
{
    struct mg_l2 *c = mg_of(x->ctrl);
    ctrl_alloc_tbe(x); /* room checked before the step (take_request) */
    c->n_remote++;
    forward(x, MSG_NC_GETS, TRAFFIC_REQ, 0, true);
}

/* A later read of the line waits for the outstanding one's answer. */
static void merge_read(struct coh_ctx *x)
{
    mg_of(x->ctrl)->st.merged++;
    ctrl_hold(x);
}

static void fwd_load_nofill(struct coh_ctx *x)
{
    forward(x, MSG_NC_GETS, TRAFFIC_REQ, 0, false);
}

/* A write-through: acknowledged to the L1 now, a copy to the home (one
 * forwarded by another GPM's bank goes on as it is). */
static void fwd_write(struct coh_ctx *x)
{
    struct mg_l2 *c = mg_of(x->ctrl);
    struct msg *m = x->msg;
    c->base.st.writes++;
    if (m->flags & MG_F_SYS) {
        forward(x, MSG_NC_WRITE, TRAFFIC_ST, m->size_bytes, false);
        return;
    }
    struct msg *w = msg_new(c->base.w.msgs, MSG_NC_WRITE, m->addr, c->base.comp.eng->now);
    w->req = m->req;
    w->mask = m->mask;
    memcpy(w->data, m->data, c->base.line_bytes);
    ctrl_l2_respond(&c->base, m, MSG_NC_WRACK, NC_VNET_RSP, TRAFFIC_REQ, 0);
    x->msg = w;
    forward(x, MSG_NC_WRITE, TRAFFIC_ST, (uint16_t)bytemask_count(&w->mask), false);
}

/* The written bytes into this GPM's clean copy (read-own-write). */
static void update_copy(struct coh_ctx *x)
{
    struct mg_l2 *c = mg_of(x->ctrl);
    bytes_merge(x->line->data, x->msg->data, &x->msg->mask, c->base.line_bytes);
    cache_touch(&c->base.cache, x->line);
}

static void fwd_atomic(struct coh_ctx *x)
{
    struct mg_l2 *c = mg_of(x->ctrl);
    c->base.st.atomics++;
    forward(x, MSG_NC_ATOMIC, TRAFFIC_ATO, ctrl_atomic_rsp_bytes(x->msg), false);
}

/* hmg, sw-h, a GPU home: a .gpu (or .cta) atomic is performed on this GPU's
 * copy (spec 004b §2.4: .gpu synchronisation at the GPU home), which every
 * write and atomic of this GPU passes: hmg's directory keeps it coherent with
 * the system home's, sw-h's .sys acquires drop it (a .gpu one need not: the
 * GPU home is .gpu's point of coherence). Its bytes are written through to
 * the system home, where the observers check values (a GPU home's copy is
 * not the newest value for other GPUs, which a .gpu atomic does not
 * synchronise with). */
static void gpu_atomic(struct coh_ctx *x)
{
    struct mg_l2 *c = mg_of(x->ctrl);
    struct msg *m = x->msg;
    struct atom_ops *a = m->req.atom;
    c->st.gpu_atomics++;
    cache_touch(&c->base.cache, x->line);
    atom_apply(a, x->line->data);
    struct msg *w = msg_new(c->base.w.msgs, MSG_NC_WRITE, m->addr, c->base.comp.eng->now);
    w->req = m->req;
    w->req.op = MEM_STORE;
    w->req.atom = NULL;
    for (unsigned i = 0; i < a->n; i++)
        bytemask_set_range(&w->mask, a->lane[i].off, atom_type_bytes((enum atom_type)a->type));
    memcpy(w->data, x->line->data, c->base.line_bytes);
    answer(c, m, MSG_NC_ATOMRSP, TRAFFIC_ATO, ctrl_atomic_rsp_bytes(m));
    if (c->counted) { /* a marker straight to the system home may overtake it */
        w->acks = (int32_t)(uint32_t)mg_gen_count(c);
        w->flags |= MG_F_ACKME;
    }
    c->st.forwarded++;
    mg_sys_send(c, w, mg_sys_home(c, x->addr, false), NC_VNET_REQ, MSG_NC_WRITE, TRAFFIC_ST,
                (uint16_t)bytemask_count(&w->mask));
    x->msg = NULL;
}

/* hmg, a GPU home without the line: fetch it from the system home for the
 * parked .gpu atomic (the answer fires Fill; MG_F_FETCH). */
static void fetch_line(struct coh_ctx *x)
{
    struct mg_l2 *c = mg_of(x->ctrl);
    struct msg *k = msg_new(c->base.w.msgs, MSG_NC_GETS, x->addr, c->base.comp.eng->now);
    k->req = x->msg->req;
    k->req.op = MEM_LOAD;
    k->req.atom = NULL;
    k->flags = MG_F_FETCH;
    c->st.forwarded++;
    mg_sys_send(c, k, mg_sys_home(c, x->addr, false), NC_VNET_REQ, MSG_NC_GETS, TRAFFIC_REQ, 0);
}

static void fill_fetched(struct coh_ctx *x)
{
    struct mg_l2 *c = mg_of(x->ctrl);
    memcpy(x->line->data, x->msg->data, c->base.line_bytes);
    x->line->dirty = false;
    c->base.st.fills++;
}

/* The parked .gpu atomic that fetched the line (the first parked: its step
 * parked it), performed on the fetched data before the line is dropped. The
 * data may miss a write of another GPU, which a .gpu atomic is not atomic
 * with; every access of this GPU it must be atomic with passes this bank and
 * is parked behind it. */
static void atomic_parked(struct coh_ctx *x)
{
    struct msg *m = msg_list_pop(&x->tbe->parked);
    panic_if(!m || m->type != MSG_NC_ATOMIC, "%s: no atomic parked on %#llx", x->ctrl_name,
             (unsigned long long)x->addr);
    x->msg = m;
    gpu_atomic(x);
}

static void install_fill(struct coh_ctx *x)
{
    struct mg_l2 *c = mg_of(x->ctrl);
    struct cache_line *way = cache_victim(&c->base.cache, x->addr, NULL, NULL);
    cache_install(&c->base.cache, way, x->addr);
    way->dirty = false;
    memcpy(way->data, x->msg->data, c->base.line_bytes);
    x->line = way;
    c->base.st.fills++;
}

static void count_inv(struct coh_ctx *x)
{
    mg_of(x->ctrl)->st.lines_invalidated++;
}

static void count_raced(struct coh_ctx *x)
{
    struct mg_l2 *c = mg_of(x->ctrl);
    c->st.fills_dropped++;
    c->st.fills_raced++;
}

static void count_no_way(struct coh_ctx *x)
{
    mg_of(x->ctrl)->st.fills_dropped++;
}

/* The answer to the MSHR's read (x->msg, relayed to its requester after
 * the step) serves every read merged on it, then the MSHR is freed; those
 * parked on it (.gpu atomics) replay. A merged read of another GPM goes
 * back as the answer to its own forward. */
static void settle_read(struct coh_ctx *x)
{
    struct mg_l2 *c = mg_of(x->ctrl);
    struct msg *w;
    while ((w = msg_list_pop(&x->tbe->merged))) {
        c->base.st.reads++;
        memcpy(w->data, x->msg->data, c->base.line_bytes);
        if (w->flags & MG_F_SYS) {
            w->flags &= (uint16_t) ~(MG_F_SYS | MG_F_DIR);
            mg_sys_send(c, w, w->src / c->banks, NC_VNET_RSP, MSG_NC_DATA, TRAFFIC_LD,
                        (uint16_t)c->base.line_bytes);
        } else {
            ctrl_l2_respond(&c->base, w, MSG_NC_DATA, NC_VNET_RSP, TRAFFIC_LD,
                            (uint16_t)c->base.line_bytes);
        }
    }
    c->n_remote--;
    ctrl_free_tbe(x);
}

static const struct coh_action_name actions[] = {
    {ctrl_take_way, "take_way", "install the line in a free way (the fill comes later)"},
    {ctrl_alloc_tbe, "alloc_tbe", "allocate an MSHR for the miss"},
    {ctrl_l2_send_fetch, "send_fetch", "read the line from this GPM's DRAM"},
    {ctrl_park, "park", "keep the request in the MSHR until the fill"},
    {ctrl_l2_fill_line, "fill_line", "write the DRAM data into the line"},
    {ctrl_free_tbe, "wake_parked", "free the MSHR and replay its requests in order"},
    {reply_data, "reply_data", "send the line to the requester (checked: the newest value)"},
    {reply_copy, "reply_copy", "answer the L1 from this GPM's copy"},
    {write_line, "write_line", "merge the written bytes (acknowledge a write of this GPM)"},
    {do_atomic, "do_atomic", "perform every lane's atomic on the line, return old values"},
    {open_read, "open_read",
     "allocate an MSHR, forward the read to the home (its answer "
     "may fill here)"},
    {merge_read, "merge_read", "wait in the MSHR for the outstanding read's answer"},
    {settle_read, "settle_read", "answer the merged reads with the home's data, free the MSHR"},
    {count_raced, "count_raced", "count the answer not installed (raced)"},
    {count_no_way, "count_no_way", "count the answer not installed (no way)"},
    {fwd_load_nofill, "fwd_load_far", "forward the read to the home (its answer never fills)"},
    {fwd_write, "fwd_write", "acknowledge the L1, write through to the home"},
    {update_copy, "update_copy", "write the bytes into this GPM's copy"},
    {fwd_atomic, "fwd_atomic", "forward the atomic to the home"},
    {gpu_atomic, "gpu_atomic",
     "perform the atomic on this copy, write its bytes through to "
     "the system home"},
    {fetch_line, "fetch_line", "read the line from the system home (its answer fills here)"},
    {fill_fetched, "fill_fetched", "write the system home's data into the line"},
    {atomic_parked, "atomic_parked", "perform the parked atomic on it (gpu_atomic)"},
    {install_fill, "install", "install the home's data in a free way"},
    {count_inv, "count_inv", "count the invalidated line"},
    {ctrl_l2_write_back, "write_back", "write the dirty line to DRAM"},
    {ctrl_drop_line, "drop_line", "free the way"},
    {ctrl_nothing, "nothing", "no action"},
    {0},
};

/*  state      event           next     uses               actions                              */
static const struct coh_trans mg_l2_cells[ML2_NSTATES][ML2_NEVENTS] = {
    [ML2_I][ML2_HLoad] =
        DO(ML2_IV, TAG_RD | TAG_WR, ctrl_take_way, ctrl_alloc_tbe, ctrl_l2_send_fetch, ctrl_park),
    [ML2_I][ML2_HWrite] =
        DO(ML2_IV, TAG_RD | TAG_WR, ctrl_take_way, ctrl_alloc_tbe, ctrl_l2_send_fetch, ctrl_park),
    [ML2_I][ML2_HAtomic] =
        DO(ML2_IV, TAG_RD | TAG_WR, ctrl_take_way, ctrl_alloc_tbe, ctrl_l2_send_fetch, ctrl_park),
    [ML2_I][ML2_Load] = DO(ML2_IR, TAG_RD, open_read),
    [ML2_I][ML2_LoadFar] = DO(ML2_I, TAG_RD, fwd_load_nofill),
    [ML2_I][ML2_Write] = DO(ML2_I, TAG_RD, fwd_write),
    [ML2_I][ML2_Atomic] = DO(ML2_I, TAG_RD, fwd_atomic),
    [ML2_I][ML2_GAtomic] =
        DO(ML2_IA, TAG_RD | TAG_WR, ctrl_take_way, ctrl_alloc_tbe, fetch_line, ctrl_park),
    [ML2_I][ML2_Inv] = DO(ML2_I, TAG_RD, ctrl_nothing),
    [ML2_V][ML2_HLoad] = DO(ML2_V, TAG_RD | DATA_RD, reply_data),
    [ML2_V][ML2_HWrite] = DO(ML2_M, TAG_RD | DATA_WR, write_line),
    [ML2_V][ML2_HAtomic] = DO(ML2_M, TAG_RD | DATA_RD | DATA_WR, do_atomic),
    [ML2_V][ML2_Load] = DO(ML2_V, TAG_RD | DATA_RD, reply_copy),
    [ML2_V][ML2_LoadFar] = DO(ML2_V, TAG_RD, fwd_load_nofill),
    [ML2_V][ML2_Write] = DO(ML2_V, TAG_RD | DATA_WR, update_copy, fwd_write),
    [ML2_V][ML2_Atomic] = DO(ML2_I, TAG_RD | TAG_WR, ctrl_drop_line, fwd_atomic),
    [ML2_V][ML2_GAtomic] = DO(ML2_V, TAG_RD | DATA_RD | DATA_WR, gpu_atomic),
    [ML2_V][ML2_Inv] = DO(ML2_I, TAG_WR, count_inv, ctrl_drop_line),
    [ML2_V][ML2_Replace] = DO(ML2_I, TAG_WR, ctrl_drop_line),
    [ML2_M][ML2_HLoad] = DO(ML2_M, TAG_RD | DATA_RD, reply_data),
    [ML2_M][ML2_HWrite] = DO(ML2_M, TAG_RD | DATA_WR, write_line),
    [ML2_M][ML2_HAtomic] = DO(ML2_M, TAG_RD | DATA_RD | DATA_WR, do_atomic),
    [ML2_M][ML2_Replace] = DO(ML2_I, TAG_WR | DATA_RD, ctrl_l2_write_back, ctrl_drop_line),
    [ML2_IV][ML2_HLoad] = STALL,
    [ML2_IV][ML2_HWrite] = STALL,
    [ML2_IV][ML2_HAtomic] = STALL,
    [ML2_IV][ML2_MemData] = DO(ML2_V, TAG_WR | DATA_WR, ctrl_l2_fill_line, ctrl_free_tbe),
    [ML2_IA][ML2_Load] = STALL,
    [ML2_IA][ML2_LoadFar] = STALL,
    [ML2_IA][ML2_Write] = STALL,
    [ML2_IA][ML2_Atomic] = STALL,
    [ML2_IA][ML2_GAtomic] = STALL,
    [ML2_IA][ML2_Fill] = DO(ML2_V, TAG_WR | DATA_WR, fill_fetched, ctrl_free_tbe),
    [ML2_IR][ML2_Load] = DO(ML2_IR, TAG_RD, merge_read),
    [ML2_IR][ML2_LoadFar] = DO(ML2_IR, TAG_RD, fwd_load_nofill),
    [ML2_IR][ML2_Write] = DO(ML2_IRX, TAG_RD, fwd_write),
    [ML2_IR][ML2_Atomic] = DO(ML2_IRX, TAG_RD, fwd_atomic),
    [ML2_IR][ML2_GAtomic] = STALL,
    [ML2_IR][ML2_Inv] = DO(ML2_IRX, TAG_RD, ctrl_nothing),
    [ML2_IR][ML2_Fill] = DO(ML2_V, TAG_WR | DATA_WR, install_fill, settle_read),
    [ML2_IR][ML2_FillNoWay] = DO(ML2_I, TAG_RD, count_no_way, settle_read),
    [ML2_IRX][ML2_Load] = DO(ML2_IRX, TAG_RD, fwd_load_nofill),
    [ML2_IRX][ML2_LoadFar] = DO(ML2_IRX, TAG_RD, fwd_load_nofill),
    [ML2_IRX][ML2_Write] = DO(ML2_IRX, TAG_RD, fwd_write),
    [ML2_IRX][ML2_Atomic] = DO(ML2_IRX, TAG_RD, fwd_atomic),
    [ML2_IRX][ML2_GAtomic] = STALL,
    [ML2_IRX][ML2_Inv] = DO(ML2_IRX, TAG_RD, ctrl_nothing),
    [ML2_IRX][ML2_Fill] = DO(ML2_I, TAG_RD, count_raced, settle_read),
    [ML2_IA][ML2_FillOnce] =
        DO(ML2_I, TAG_WR | DATA_WR, fill_fetched, atomic_parked, ctrl_drop_line, ctrl_free_tbe),
};

const struct coh_table mg_l2_table =
    COH_TABLE("nhcc", "L2", mg_l2_cells, ctrl_set_state, ctrl_l2_dump_ctx);

/* ---- classifier ---- */

static bool evictable(const struct cache_line *l, void *arg)
{
    (void)arg;
    return l->state != ML2_IV && l->state != ML2_IA;
}

/* Where a read may be served (spec 004b §2.4): 0 anywhere (weak, .cta),
 * 1 at the GPU home (.gpu), 2 only at the system home (.sys, volatile). */
static unsigned load_reach(const struct mem_req *r)
{
    if (r->sem == SEM_VOLATILE || (r->scope == SCOPE_SYS && r->sem != SEM_WEAK))
        return 2;
    return r->scope == SCOPE_GPU && r->sem != SEM_WEAK ? 1 : 0;
}

static unsigned classify_request(struct mg_l2 *c, const struct msg *m)
{
    unsigned sys = mg_sys_home(c, m->addr, !(m->flags & MG_F_SYS));
    bool home = sys == c->gpm, gh = mg_gpu_home(c, sys) == c->gpm;
    switch (m->type) {
    case MSG_NC_GETS:
        if (home)
            return ML2_HLoad;
        return c->f.remote_fill && load_reach(&m->req) <= (gh ? 1u : 0u) ? ML2_Load : ML2_LoadFar;
    case MSG_NC_WRITE:
        return home ? ML2_HWrite : ML2_Write;
    case MSG_NC_ATOMIC:
        if (home)
            return ML2_HAtomic;
        /* hmg, sw-h, mg.gpu_atomics = gpu-home: .gpu synchronisation at
         * the GPU home */
        return gh && c->gpu_atomics && m->req.scope <= SCOPE_GPU ? ML2_GAtomic : ML2_Atomic;
    default:
        panic("%s: unexpected request type %u", c->base.w.name, m->type);
    }
}

/* Room for what a step may send: a response into the pipeline and, at a
 * home miss, a DRAM read, an MSHR and a way. */
static bool take_request(struct ctrl *b, struct msg *m)
{
    struct mg_l2 *c = mg_of(b);
    struct coh_ctx x;
    if (!port_has_room(&b->pipe, 1)) {
        b->st.resource_stalls++;
        return false;
    }
    unsigned event = classify_request(c, m);
    ctrl_lookup(b, &x, m->addr);
    bool at_home = event <= ML2_HAtomic;
    if ((at_home || event == ML2_GAtomic) && !x.line &&
        !ctrl_l2_room_for_miss(b, m->addr, evictable, ML2_Replace))
        return false;
    /* no MSHR for a read of a remote line: an L1's read waits for one; one
     * another GPM passed on goes on unfilled here (a GPU home's FIFO from
     * that GPM also carries what the homes it waits on need) */
    bool no_mshr = event == ML2_Load && x.state == ML2_I &&
                   (c->n_remote == c->max_remote || tbe_full(&b->tbes));
    if (no_mshr && c->max_remote && !(m->flags & MG_F_SYS)) {
        b->st.resource_stalls++;
        return false;
    }
    int slot = -1;
    if (at_home && (m->flags & MG_F_ACKME)) /* counted: acknowledged once its invalidations are */
        slot = mg_ack_slot(c, m);
    /* the directory of the line's home for this request: the system home,
     * or in hmg the GPU home for its GPMs (a read it passes on unfilled
     * leaves no copy behind) */
    if (at_home || (c->f.hier && event != ML2_LoadFar &&
                    mg_gpu_home(c, mg_sys_home(c, m->addr, false)) == c->gpm))
        mg_dir_step(c, m, event != ML2_HLoad && event != ML2_Load);
    if (no_mshr) /* after the directory: the GPM that passed it on may fill */
        event = ML2_LoadFar;
    c->inv_slot = -1;
    if (slot >= 0)
        mg_slot_check(c, &c->rel[slot]);
    x.msg = m;
    x.event = event;
    ctrl_step_or_park(b, &x);
    return true;
}

/* The answer to this bank's read of a remote line settles its MSHR: it
 * fills the line unless raced (IRX) or its set is busy with home lines. */
static void settle(struct mg_l2 *c, struct msg *m)
{
    struct ctrl *b = &c->base;
    struct tbe *t = tbe_find(&b->tbes, m->addr);
    panic_if(!t || (t->state != ML2_IR && t->state != ML2_IRX),
             "%s: answer %#llx for no outstanding read", b->w.name, (unsigned long long)m->addr);
    unsigned event = ML2_Fill;
    if (t->state == ML2_IR) {
        struct cache_line *way = cache_victim(&b->cache, m->addr, evictable, NULL);
        if (way && way->present && way->state == ML2_V)
            ctrl_fire(b, way->addr, NULL, ML2_Replace);
        if (!way || way->present)
            event = ML2_FillNoWay;
    }
    ctrl_fire(b, m->addr, m, event);
}

/* An answer from a home, relayed to the bank (hmg, at a GPU home) or the L1
 * that asked; a read's data may fill this bank first. */
static void take_answer(struct mg_l2 *c, struct msg *m)
{
    struct ctrl *b = &c->base;
    if (m->flags & MG_F_FETCH) { /* a GPU home's own fetch (fetch_line) */
        struct tbe *t = tbe_find(&b->tbes, m->addr);
        ctrl_fire(b, m->addr, m, t && t->use_once ? ML2_FillOnce : ML2_Fill);
        msg_free(b->w.msgs, m);
        return;
    }
    c->st.relayed++;
    if (m->ts2) {
        if (m->type == MSG_NC_DATA && (m->flags & MG_F_FILL2))
            settle(c, m);
        unsigned to = (unsigned)(m->ts2 - 1);
        m->ts2 = 0;
        m->flags &= (uint16_t)~MG_F_FILL2;
        mg_sys_send(c, m, to / c->banks, NC_VNET_RSP, m->type, m->cls, m->size_bytes);
        return;
    }
    if (m->type == MSG_NC_DATA && (m->flags & MG_F_FILL))
        settle(c, m);
    m->flags &= (uint16_t) ~(MG_F_FILL | MG_F_SYS | MG_F_DIR);
    m->src = (uint16_t)m->sharer;
    ctrl_l2_respond(b, m, m->type, NC_VNET_RSP, m->cls, m->size_bytes);
}

/* A GPU home's fetch for a .gpu atomic (IA) that an invalidation of its
 * region or a bulk invalidation meets may bring stale data: use it once. */
void mg_stale_fetch(struct mg_l2 *c, const struct cache_line *l)
{
    if (l->state == ML2_IA)
        tbe_find(&c->base.tbes, l->addr)->use_once = true;
}

/* ---- tick ---- */

static void take_mem(struct ctrl *b, struct msg *m)
{
    if (!ctrl_l2_drop_wrack(b, m))
        ctrl_fire(b, m->addr, m, ML2_MemData);
}

/* One message from another GPM's bank on the request vnet. */
static bool take_sys_request(struct mg_l2 *c, struct msg *m)
{
    struct ctrl *b = &c->base;
    switch (m->type) {
    case MSG_MG_INV:
        mg_dir_take_inv(c, m);
        return true;
    case MSG_MG_MARK:
        m->flags |= MG_F_SYS;
        return mg_take_rel(c, m);
    case MSG_MG_ACQ:
        m->flags |= MG_F_SYS;
        return mg_take_acq(c, m);
    default:
        m->flags |= MG_F_SYS;
        return take_request(b, m);
    }
}

static void take_sys_answer(struct mg_l2 *c, struct msg *m)
{
    if (m->type == MSG_MG_MARKACK)
        mg_take_ack(c, m);
    else if (m->type == MSG_MG_INVACK)
        mg_take_invack(c, m);
    else
        take_answer(c, m);
}

/* An L1's request (new or replayed, or a replayed request of another GPM). */
static bool take_local(struct ctrl *b, struct msg *m)
{
    struct mg_l2 *c = mg_of(b);
    if (m->type == MSG_MG_REL)
        return mg_take_rel(c, m);
    if (m->type == MSG_MG_ACQ)
        return mg_take_acq(c, m);
    return take_request(b, m);
}

static bool drain_outq(struct mg_l2 *c)
{
    bool moved = false;
    struct msg *m;
    while ((m = c->outq.head) && port_send(c->base.links.sys_out[m->vnet], m)) {
        msg_list_pop(&c->outq);
        moved = true;
    }
    return moved;
}

static bool mg_l2_tick(struct comp *cp)
{
    struct ctrl *b = (struct ctrl *)cp;
    struct mg_l2 *c = mg_of(b);
    struct port *reqs = b->links.net_in[NC_VNET_REQ];
    ctrl_tick_begin(b);
    bool moved = drain_pipe(c);
    moved |= ctrl_take_one(b, &b->in, take_mem);
    if (b->links.sys_in[0]) {
        struct msg *m;
        moved |= drain_outq(c);
        if ((m = port_peek(b->links.sys_in[NC_VNET_RSP]))) {
            take_sys_answer(c, port_pop(b->links.sys_in[NC_VNET_RSP]));
            moved = true;
        }
        /* parked requests replay first: a fill's waiters before anything
         * that could take its way again */
        if (!b->replay.n && (m = port_peek(b->links.sys_in[NC_VNET_REQ])) &&
            take_sys_request(c, m)) {
            port_pop(b->links.sys_in[NC_VNET_REQ]);
            moved = true;
        }
    }
    moved |= ctrl_take_next(b, reqs, take_local);
    if (moved)
        return true;
    if (b->replay.n || port_peek(&b->pipe) || port_peek(reqs) || c->outq.n ||
        (b->links.sys_in[0] && port_peek(b->links.sys_in[NC_VNET_REQ]))) {
        struct port *const in[] = {&b->in, &b->pipe, b->links.sys_in[NC_VNET_RSP]};
        return ctrl_stall_sleep(b, in, b->links.sys_in[0] ? 3 : 2);
    }
    return false;
}

static void dump_mshr(const struct ctrl *b, const struct tbe *t, FILE *out)
{
    fprintf(out, "  mshr %#llx %s parked %u\n", (unsigned long long)t->addr,
            b->table->state_names[t->state], t->parked.n);
}

static void mg_l2_dump(struct comp *cp, FILE *out)
{
    struct ctrl *b = (struct ctrl *)cp;
    struct mg_l2 *c = mg_of(b);
    unsigned rels = 0;
    for (unsigned i = 0; i < c->n_rel; i++)
        rels += c->rel[i].m != NULL;
    unsigned arrived = 0;
    for (unsigned v = 0; b->links.sys_in[0] && v < NC_NVNETS; v++)
        arrived += b->links.sys_in[v]->n;
    if (!b->tbes.n_used && !b->replay.n && !b->pipe.n && !rels && !c->outq.n && !arrived)
        return;
    fprintf(out,
            "%s (multi-GPM L2): %u MSHRs, %u replaying, %u in pipeline, %u releases, "
            "%u waiting for the sysnet\n",
            b->w.name, b->tbes.n_used, b->replay.n, b->pipe.n, rels, c->outq.n);
    /* what the sysnet delivered and the bank has not taken: a message's
     * ready time is when its link's serialisation lets it arrive */
    for (unsigned v = 0; b->links.sys_in[0] && v < NC_NVNETS; v++) {
        const struct port *p = b->links.sys_in[v];
        if (p->n)
            fprintf(out,
                    "  from the sysnet, vnet %u: %u messages, the first ready at %llu ps, "
                    "the last at %llu ps (now %llu ps)\n",
                    v, p->n, (unsigned long long)port_slot_at(p, 0)->ready,
                    (unsigned long long)port_slot_at(p, p->n - 1)->ready,
                    (unsigned long long)cp->eng->now);
    }
    for (unsigned i = 0; i < c->n_rel; i++)
        if (c->rel[i].m)
            fprintf(out, "  release %u: %u acknowledgements expected%s\n", i, c->rel[i].left,
                    c->rel[i].waiting ? ", waiting for its generations" : "");
    ctrl_dump_tbes(b, out, dump_mshr);
    ctrl_l2_dump_pipe(b, out);
}

/* ---- construction ---- */

static const struct ctrl_stat mg_l2_stat_rows[] = {
    CTRL_STATS_L2_ACCESSES,
    CTRL_STAT_BASE(fills),
    CTRL_STAT_OWN(struct mg_stats, forwarded),
    CTRL_STAT_OWN(struct mg_stats, relayed),
    CTRL_STAT_OWN(struct mg_stats, merged),
    CTRL_STAT_OWN(struct mg_stats, fills_dropped),
    CTRL_STAT_OWN(struct mg_stats, fills_raced),
    CTRL_STAT_OWN(struct mg_stats, invs_sent),
    CTRL_STAT_OWN(struct mg_stats, invs_received),
    CTRL_STAT_OWN(struct mg_stats, lines_invalidated),
    CTRL_STAT_OWN(struct mg_stats, dir_evictions),
    CTRL_STAT_OWN(struct mg_stats, evict_invs),
    CTRL_STAT_OWN(struct mg_stats, evict_lines_invalidated),
    CTRL_STAT_OWN(struct mg_stats, releases),
    CTRL_STAT_OWN(struct mg_stats, marks_sent),
    CTRL_STAT_OWN(struct mg_stats, l1_releases),
    CTRL_STAT_OWN(struct mg_stats, sys_rounds),
    CTRL_STAT_OWN(struct mg_stats, release_cycles),
    CTRL_STAT_OWN(struct mg_stats, acks_received),
    CTRL_STAT_OWN(struct mg_stats, gpu_atomics),
    CTRL_STAT_OWN(struct mg_stats, bulk_invalidations),
    CTRL_STAT_OWN(struct mg_stats, bulk_dropped),
    CTRL_STAT_BASE(resource_stalls),
    CTRL_STAT_END,
};

static struct comp *mg_create(const struct ctrl_wiring *w, struct mg_flavour f)
{
    struct mg_l2 *c = ctrl_alloc(sizeof *c);
    ctrl_l2_init(&c->base, w, &mg_l2_table, mg_l2_tick, mg_l2_dump, 0x2000);
    ctrl_set_stats(&c->base, mg_l2_stat_rows, &c->st);
    const struct machine_view *cfg = w->cfg;
    const struct mg_spec *spec = mg_spec_of(cfg);
    c->f = f;
    c->gpm = w->gpm;
    c->n_gpms = cfg->topology.gpus * cfg->topology.gpms;
    c->gpms = cfg->topology.gpms;
    c->banks = w->n_banks;
    c->dir_lines = spec->dir_lines;
    c->one_round = spec->release != 0;
    c->counted = spec->release == 2;
    c->gpu_atomics = f.hier && spec->gpu_atomics == 1;
    c->inv_slot = -1;
    c->round_cov = &w->cov[MG_COV_ROUNDS];
    c->slot_cov = &w->cov[MG_COV_SLOTS];
    if (c->round_cov->t != &mg_round_table || c->slot_cov->t != &mg_slot_table ||
        (f.directory && w->cov[MG_COV_DIR].t != &mg_dir_table))
        panic("%s: the protocol's tables are not in the bank's order (MG_COV_*)", w->name);
    c->max_remote = cfg->l2.mshrs / 2;
    if (c->counted) {
        c->gen = 1;
        c->n_gout = 64;
        c->gout = calloc(c->n_gout, sizeof *c->gout);
        if (!c->gout)
            panic("out of memory");
    }
    if (f.directory) {
        struct cache_spec ds = {.size_bytes = spec->dir_entries / w->n_banks * 16,
                                .ways = spec->dir_ways,
                                .line_bytes = 16};
        char err[256];
        if (cache_init(&c->dir, &ds, err, sizeof err))
            fatal("mg.dir_entries / mg.dir_ways: %s", err);
    }
    return &c->base.comp;
}

static void mg_destroy(struct comp *cp)
{
    struct mg_l2 *c = mg_of(cp);
    if (c->f.directory)
        cache_destroy(&c->dir);
    free(c->rel);
    free(c->rel_used);
    free(c->gout);
    ctrl_destroy(cp);
}

static struct comp *nhcc_l2_create(const struct ctrl_wiring *w)
{
    return mg_create(w, (struct mg_flavour){.directory = true, .remote_fill = true});
}

static struct comp *hmg_l2_create(const struct ctrl_wiring *w)
{
    return mg_create(w, (struct mg_flavour){.directory = true, .remote_fill = true, .hier = true});
}

static struct comp *hmg_noinv_l2_create(const struct ctrl_wiring *w)
{
    return mg_create(
        w, (struct mg_flavour){
               .directory = true, .remote_fill = true, .hier = true, .bug_forgets_inv = true});
}

static struct comp *ideal_l2_create(const struct ctrl_wiring *w)
{
    return mg_create(
        w, (struct mg_flavour){.directory = true, .remote_fill = true, .free_coherence = true});
}

static struct comp *swnh_l2_create(const struct ctrl_wiring *w)
{
    return mg_create(w, (struct mg_flavour){.remote_fill = true});
}

static struct comp *swh_l2_create(const struct ctrl_wiring *w)
{
    return mg_create(w, (struct mg_flavour){.remote_fill = true, .hier = true});
}

static struct comp *swnh_noinv_l2_create(const struct ctrl_wiring *w)
{
    return mg_create(w, (struct mg_flavour){.remote_fill = true, .bug_acquire_keeps = true});
}

static struct comp *nocache_l2_create(const struct ctrl_wiring *w)
{
    return mg_create(w, (struct mg_flavour){.directory = false, .remote_fill = false});
}

static struct comp *nocache_norel_l2_create(const struct ctrl_wiring *w)
{
    return mg_create(w, (struct mg_flavour){.bug_release_at_once = true});
}

/* Host access between kernels: the home's copy or memory; every other GPM
 * updates a copy it holds (machine_run.c calls every GPM's bank for a write). */
static void mg_l2_dma(struct comp *cp, addr_t line, uint8_t *buf, const struct bytemask *wmask)
{
    struct mg_l2 *c = mg_of(cp);
    struct ctrl *b = &c->base;
    unsigned home = mg_sys_home(c, line, false);
    struct cache_line *l = cache_find(&b->cache, line);
    bool is_home = home == c->gpm || (home == PAGEMAP_NONE && c->gpm == 0);
    if (is_home) {
        unsigned s = l ? l->state : ML2_I;
        ctrl_l2_dma(b, line, buf, wmask, s, s == ML2_IV);
        if (l && wmask)
            l->state = ML2_M;
    } else if (wmask && l) {
        bytes_merge(l->data, buf, wmask, b->line_bytes);
    }
}

/* The bank's tables in the order of MG_COV_* (mg_l2_int.h). */
static const struct coh_table *const nhcc_tables[] = {
    &rc_l1_table, &mg_l2_table, &mg_round_table, &mg_slot_table, &mg_dir_table, NULL};
static const struct coh_table *const nocache_tables[] = {&rc_l1_table, &mg_l2_table,
                                                         &mg_round_table, &mg_slot_table, NULL};

/* Every multi-GPM protocol: rc's L1 (releasing, for software coherence also
 * acquiring, through the banks) and this bank in one of its flavours.
 * MG_PROTO makes its descriptor, MG_TEST_PROTO one of a deliberately broken
 * variant (test only). */
/* Symmetry over the GPMs (struct proto_symmetry's gpms; docs/verify.md, "The
 * multi-GPM protocols under the reduction"): nothing here decides by a GPM's
 * number but through the GPU structure. The loops over GPMs (send_inv,
 * send_markers, the acquire's fan-out) send one message per GPM, each into its
 * own link FIFO; release slots are per bank, by allocation; mg_gpu_home and
 * neighbour relate GPMs by "same GPU" and "same index in its GPU", which the
 * relabellings the explorer takes keep (verify_digest.c's gpm_relabellings);
 * the one test of gpm == 0 is the host's access (mg_l2_dma). What names a GPM:
 * a bank-to-bank message's src and dst (also while a GPU home holds an
 * invalidation it passes on), the directory's sharer vectors, the page's home,
 * and ts2 as a GPM + 1 (forward, mg_ack_slot). The seeded bugs treat every GPM
 * alike. */
static const struct proto_symmetry mg_symmetry = {.gpms = true, .data_blind = true};

#define MG_PROTO_FIELDS(name_, title_, tables_, l1_create_, l2_create_)                            \
    .symmetry = &mg_symmetry, .options = &mg_options, .name = name_, .title = title_,              \
    .model = MODEL_PTX, .multi_gpm = true, .n_vnets = NC_NVNETS, .vnet_names = nc_vnet_names,      \
    .tables = tables_, .n_l1_tables = 1,                                                           \
    .l1 = {l1_create_, ctrl_connect, ctrl_in_port, ctrl_destroy, NULL, ctrl_peek, ctrl_stats},     \
    .l2 = {                                                                                        \
        l2_create_, ctrl_l2_connect, ctrl_in_port, mg_destroy, mg_l2_dma, ctrl_peek, ctrl_stats}
#define MG_PROTO(name_, title_, tables_, l1_create_, l2_create_)                                   \
    {                                                                                              \
        MG_PROTO_FIELDS(name_, title_, tables_, l1_create_, l2_create_)                            \
    }
#define MG_TEST_PROTO(name_, title_, tables_, l1_create_, l2_create_)                              \
    {                                                                                              \
        MG_PROTO_FIELDS(name_, title_, tables_, l1_create_, l2_create_), .test_only = true         \
    }

const struct proto_desc proto_nhcc =
    MG_PROTO("nhcc",
             "NHCC: flat home directory over every GPM (V/I, sharer vector), ack-free "
             "invalidations, write-through rc L1s, releases drained by markers",
             nhcc_tables, mg_l1_create, nhcc_l2_create);

const struct proto_desc proto_hmg =
    MG_PROTO("hmg",
             "HMG: nhcc made hierarchical, a GPU home per GPU and a system home per line; "
             ".gpu synchronisation at the GPU home, .sys at the system home",
             nhcc_tables, mg_l1_create, hmg_l2_create);

/* hmg with a deliberate bug for the explorer (tests/cli/verify-mg.sh): a write
 * at the home leaves the other GPMs' copies of its region valid. */
const struct proto_desc proto_hmg_noinv = MG_TEST_PROTO(
    "hmg-noinv",
    "hmg with a deliberate bug for testing the checkers: a write at the home does not "
    "invalidate other GPMs' copies",
    nhcc_tables, mg_l1_create, hmg_noinv_l2_create);

const struct proto_desc proto_ideal_mg = {
    MG_PROTO_FIELDS("ideal-mg",
                    "multi-GPM upper bound: nhcc whose invalidations and release markers cost "
                    "nothing (no latency, no bandwidth, not counted)",
                    nhcc_tables, mg_l1_create, ideal_l2_create),
    .uncut = "protocol ideal-mg: its free messages between GPMs have no latency"};

const struct proto_desc proto_sw_nh =
    MG_PROTO("sw-nh",
             "software coherence over every GPM as one flat GPU: L2s cache remote lines, no "
             "directory; a .gpu/.sys acquire drops the local L2's remote lines",
             nocache_tables, mg_sw_l1_create, swnh_l2_create);

const struct proto_desc proto_sw_h =
    MG_PROTO("sw-h",
             "hierarchical software coherence: hmg's GPU homes without a directory; a .gpu "
             "acquire drops the local L2's remote lines, a .sys acquire those of every L2 of "
             "the GPU",
             nocache_tables, mg_sw_l1_create, swh_l2_create);

/* sw-nh with a deliberate bug for the explorer (tests/cli/verify-mg.sh,
 * docs/verify.md "Seeded bugs"): an acquire leaves the bank's copies of
 * remote lines valid, so a load after it may hit a stale one. */
const struct proto_desc proto_sw_nh_noinv = MG_TEST_PROTO(
    "sw-nh-noinv",
    "sw-nh with a deliberate bug for testing the checkers: an acquire does not drop the "
    "L2's copies of remote lines",
    nocache_tables, mg_sw_l1_create, swnh_noinv_l2_create);

const struct proto_desc proto_nocache_mg =
    MG_PROTO("nocache-mg",
             "multi-GPM baseline: no caching of other GPMs' data in the L2 (the "
             "normalisation of Fig. 5.9); every remote access goes to its home",
             nocache_tables, mg_l1_create, nocache_l2_create);

/* nocache-mg with a deliberate bug for the explorer (tests/cli/verify-mg.sh,
 * docs/verify.md "Seeded bugs"): a release is answered without its round of
 * markers, while the stores it covers may still be on their way to their homes. */
const struct proto_desc proto_nocache_mg_norel =
    MG_TEST_PROTO("nocache-mg-norel",
                  "nocache-mg with a deliberate bug for testing the checkers: a release completes "
                  "without waiting for its stores to reach their homes",
                  nocache_tables, mg_l1_create, nocache_norel_l2_create);
