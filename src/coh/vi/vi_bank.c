/*
 * vi_bank.c - the L2 bank machinery GPU-VI, GPU-VIni and the ideal
 * reference share (see vi_bank.h): actions, pipeline, invalidation queue,
 * tick, construction, host access and statistics.
 * Responses leave through a pipeline of l2.latency_cycles (the bank's hit
 * latency) so the bank keeps taking one request per cycle; invalidations
 * need only the tags and the sharer vector, so they leave at once (through a
 * queue that waits for room on the INV vnet, or on the ideal reference's
 * free channel).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "coh/vi/vi_bank.h"

#include <stdlib.h>
#include <string.h>

#include "base/bits.h"
#include "base/log.h"
#include "mem/observe.h"
#include "coh/machine_view.h"

const char *const vi_vnet_names[VI_NVNETS] = {"request", "response", "invalidation",
                                              "invalidation-ack"};

/* ---- actions ---- */

void vi_reply_data(struct coh_ctx *x)
{
    struct vi_bank *b = vi_bank_of(x);
    struct vi_ctx *v = vi_ctx_of(x);
    panic_if(!v->dir, "%s: read of %#llx with nowhere to record the sharer", b->base.w.name,
             (unsigned long long)x->addr);
    coh_sharer_set(v->dir, x->msg->src);
    ctrl_l2_reply_line(&b->base, x, x->msg, MSG_VI_DATA, VI_VNET_RSP);
    x->msg = NULL;
}

/* The write is performed here: no other copy exists (ideal: none survives
 * past this L1 edge). */
void vi_write_line(struct coh_ctx *x)
{
    struct ctrl *b = x->ctrl;
    ctrl_l2_perform_write(b, x);
    ctrl_l2_respond(b, x->msg, MSG_VI_WRACK, VI_VNET_RSP, TRAFFIC_REQ, 0);
    x->msg = NULL;
}

void vi_do_atomic(struct coh_ctx *x)
{
    struct ctrl *b = x->ctrl;
    ctrl_l2_perform_atomic(b, x);
    ctrl_l2_respond(b, x->msg, MSG_VI_ATOMRSP, VI_VNET_RSP, TRAFFIC_ATO,
                    ctrl_atomic_rsp_bytes(x->msg));
    x->msg = NULL;
}

void vi_drop_line(struct coh_ctx *x)
{
    struct vi_ctx *v = vi_ctx_of(x);
    if (v->dir == x->line)
        v->dir = NULL;
    ctrl_drop_line(x);
}

/* One invalidation to `sm`: queued for the INV vnet, or delivered at once on
 * the ideal reference's free channel. */
static void send_inv(struct vi_bank *b, addr_t line, unsigned sm, uint8_t cls)
{
    struct msg *m = msg_new(b->base.w.msgs, MSG_VI_INV, line, b->base.comp.eng->now);
    m->cls = cls;
    m->vnet = VI_VNET_INV;
    m->src = (uint16_t)b->base.w.index;
    m->dst = (uint16_t)sm;
    if (b->bus) {
        if (!port_send(b->bus[sm], m))
            panic("%s: free invalidation channel to L1 %u full", b->base.w.name, sm);
    } else {
        msg_list_push(&b->inv_out, m);
    }
}

/* Invalidate the sharers (all, or all but `keep`), clearing their bits;
 * the TBE (none on the free channel) expects one ack per invalidation. */
static void invalidate(struct coh_ctx *x, int keep, uint8_t cls)
{
    struct vi_bank *b = vi_bank_of(x);
    struct cache_line *d = vi_ctx_of(x)->dir;
    bool forget = b->bug_forgets_inv && cls == TRAFFIC_INV;
    for (unsigned w = 0; d && w < 2; w++) {
        uint64_t bits = d->meta[w];
        while (bits) {
            unsigned sm = w * 64 + (unsigned)__builtin_ctzll(bits);
            bits &= bits - 1;
            if ((int)sm == keep)
                continue;
            coh_sharer_clear(d, sm);
            if (forget) { /* the seeded bug: dropped from the vector, never told */
                forget = false;
                continue;
            }
            send_inv(b, x->addr, sm, cls);
            if (cls == TRAFFIC_RCL)
                b->st.recalls_sent++;
            else
                b->st.invs_sent++;
            if (x->tbe)
                x->tbe->acks++;
        }
    }
}

void vi_send_invs(struct coh_ctx *x)
{
    invalidate(x, x->msg->src, TRAFFIC_INV);
}

void vi_send_recalls(struct coh_ctx *x)
{
    invalidate(x, -1, TRAFFIC_RCL);
}

void vi_clear_sharers(struct coh_ctx *x)
{
    struct cache_line *d = vi_ctx_of(x)->dir;
    if (d)
        d->meta[0] = d->meta[1] = 0;
}

void vi_perform_held(struct coh_ctx *x)
{
    struct vi_bank *b = vi_bank_of(x);
    x->msg = msg_list_pop(&x->tbe->merged);
    panic_if(!x->msg, "%s: no held request for %#llx", b->base.w.name, (unsigned long long)x->addr);
    b->st.writes_waited++;
    if (x->msg->type == MSG_VI_WRITE)
        vi_write_line(x);
    else
        vi_do_atomic(x);
}

/* ---- helpers for the protocols' classifiers ---- */

void vi_bank_ctx(struct vi_bank *b, struct vi_ctx *v, addr_t line)
{
    ctrl_lookup(&b->base, &v->x, line);
    v->dir = NULL;
}

enum coh_result vi_bank_step(struct vi_bank *b, struct vi_ctx *v, unsigned event)
{
    v->x.event = event;
    return ctrl_step(&b->base, &v->x);
}

void vi_bank_step_or_park(struct vi_bank *b, struct vi_ctx *v, struct msg *m, unsigned event)
{
    v->x.msg = m;
    v->x.event = event;
    ctrl_step_or_park(&b->base, &v->x);
}

bool vi_bank_room(struct vi_bank *b, bool needs_tbe)
{
    struct ctrl *c = &b->base;
    if ((needs_tbe && tbe_full(&c->tbes)) || !port_has_room(c->links.to_mem, 1) ||
        !port_has_room(&c->pipe, 1)) {
        c->st.resource_stalls++;
        return false;
    }
    return true;
}

struct evictable_fn {
    bool (*f)(unsigned state);
};

static bool evictable_wrap(const struct cache_line *l, void *arg)
{
    return ((const struct evictable_fn *)arg)->f(l->state);
}

struct cache_line *vi_bank_victim(struct vi_bank *b, struct cache *c, addr_t line,
                                  bool (*evictable)(unsigned state), bool *busy)
{
    struct evictable_fn fn = {evictable};
    struct cache_line *way = cache_victim(c, line, evictable_wrap, &fn);
    *busy = !way;
    if (!way)
        b->base.st.resource_stalls++;
    return way && way->present ? way : NULL;
}

/* ---- what the bank takes ---- */

static bool take_request(struct ctrl *c, struct msg *m)
{
    struct vi_bank *b = (struct vi_bank *)c;
    return b->p->request(b, m);
}

/* One INVACK (false on a resource stall: it stays queued). */
/* An ack completes a TBE that exists and never takes a new one: waiting for a
 * free TBE here would deadlock a bank whose TBEs all wait for acks. */
static bool take_ack(struct vi_bank *b, struct msg *m)
{
    if (!vi_bank_room(b, false))
        return false;
    struct vi_ctx v;
    b->p->lookup(b, &v, m->addr);
    panic_if(!v.x.tbe, "%s: invalidation ack for %#llx with no TBE", b->base.w.name,
             (unsigned long long)m->addr);
    v.x.msg = m;
    vi_bank_step(b, &v, v.x.tbe->acks == 1 ? b->p->last_ack : b->p->inv_ack);
    return true;
}

static void take_mem(struct ctrl *c, struct msg *m)
{
    struct vi_bank *b = (struct vi_bank *)c;
    if (ctrl_l2_drop_wrack(c, m))
        return;
    struct vi_ctx v;
    b->p->lookup(b, &v, m->addr);
    v.x.msg = m;
    vi_bank_step(b, &v, b->p->mem_data);
}

/* ---- tick ---- */

static bool vi_bank_tick(struct comp *cp)
{
    struct vi_bank *b = (struct vi_bank *)cp;
    struct ctrl *c = &b->base;
    struct msg *m;
    struct port *acks = c->links.net_in[VI_VNET_ACK], *reqs = c->links.net_in[VI_VNET_REQ];

    ctrl_tick_begin(c);
    bool moved = ctrl_l2_drain_pipe(c);
    moved |= ctrl_drain(&b->inv_out, c->links.net_out[VI_VNET_INV]);
    moved |= ctrl_take_one(c, &c->in, take_mem);
    if (acks && (m = port_peek(acks)) && take_ack(b, m)) {
        port_pop(acks);
        moved = true;
    }
    moved |= ctrl_take_next(c, reqs, take_request);
    if (moved)
        return true;
    /* responses or invalidations held by a full vnet, or an ack or request
     * stalled on a resource, and nothing else: sleep until it may clear */
    if (c->replay.n || b->inv_out.n || port_peek(&c->pipe) || port_peek(reqs) ||
        (acks && port_peek(acks))) {
        struct port *const in[] = {&c->in, &c->pipe};
        return ctrl_stall_sleep(c, in, 2);
    }
    return false;
}

static void dump_tbe(const struct ctrl *c, const struct tbe *t, FILE *out)
{
    fprintf(out, "  tbe %#llx %s acks %d held %u parked %u\n", (unsigned long long)t->addr,
            c->table->state_names[t->state], t->acks, t->merged.n, t->parked.n);
}

static void vi_bank_dump(struct comp *cp, FILE *out)
{
    struct vi_bank *b = (struct vi_bank *)cp;
    struct ctrl *c = &b->base;
    if (!c->tbes.n_used && !c->replay.n && !c->pipe.n && !b->inv_out.n)
        return;
    fprintf(out, "%s (%s L2): %u TBEs, %u replaying, %u in pipeline, %u invalidations queued\n",
            c->w.name, c->table->proto, c->tbes.n_used, c->replay.n, c->pipe.n, b->inv_out.n);
    ctrl_dump_tbes(c, out, dump_tbe);
    ctrl_l2_dump_pipe(c, out);
}

/* ---- construction ---- */

static const struct ctrl_stat vi_bank_stat_rows[] = {
    CTRL_STATS_L2_ACCESSES,
    CTRL_STAT_OWN(struct vi_bank_stats, invs_sent),
    CTRL_STAT_OWN(struct vi_bank_stats, recalls_sent),
    CTRL_STAT_BASE(acks),
    CTRL_STAT_OWN(struct vi_bank_stats, writes_waited),
    CTRL_STAT_OWN(struct vi_bank_stats, dir_evictions),
    CTRL_STAT_BASE(resource_stalls),
    CTRL_STAT_BASE(protocol_stalls),
    CTRL_STAT_END,
};

struct vi_bank *vi_bank_create(const struct ctrl_wiring *w, const struct vi_bank_proto *p)
{
    panic_if(w->n_sms > VI_MAX_SHARERS, "%s: %u SMs passed coh_sharers_check", p->table->proto,
             w->n_sms);
    struct vi_bank *b = ctrl_alloc(sizeof *b);
    b->p = p;
    ctrl_l2_init(&b->base, w, p->table, vi_bank_tick, vi_bank_dump, 0x5600);
    ctrl_set_stats(&b->base, vi_bank_stat_rows, &b->st);
    return b;
}

void vi_bank_connect(struct comp *cp, const struct ctrl_links *l)
{
    struct vi_bank *b = (struct vi_bank *)cp;
    ctrl_l2_connect(cp, l);
    if (b->p->table == &ideal_l2_table && !b->bus) {
        b->bus = calloc(b->base.w.n_sms, sizeof *b->bus);
        if (!b->bus)
            panic("out of memory");
        for (unsigned i = 0; i < b->base.w.n_sms; i++)
            b->bus[i] = vi_bus_port(b->base.w.proto_ctx, i);
    }
}

void vi_bank_destroy(struct comp *cp)
{
    struct vi_bank *b = (struct vi_bank *)cp;
    struct msg *m;
    while ((m = msg_list_pop(&b->inv_out)))
        msg_free(b->base.w.msgs, m);
    if (b->has_dir)
        cache_destroy(&b->dir);
    free(b->bus);
    ctrl_destroy(cp);
}

/* The line's state as the protocol sees it (data, directory entry, TBE). */
static unsigned line_state(struct vi_bank *b, addr_t line)
{
    struct vi_ctx v;
    b->p->lookup(b, &v, line);
    return v.x.state;
}

/* Host access between kernels: the line's current value is in the data
 * array if present, else in DRAM. A host write sends no invalidations (the
 * machine is idle); L1s drop every line at the next launch instead. */
void vi_bank_dma(struct comp *cp, addr_t line, uint8_t *buf, const struct bytemask *wmask)
{
    struct vi_bank *b = (struct vi_bank *)cp;
    unsigned s = line_state(b, line);
    ctrl_l2_dma(&b->base, line, buf, wmask, s, b->p->busy(s));
}

unsigned vi_bank_peek(struct comp *cp, addr_t line, uint8_t *data, bool *has_data)
{
    struct vi_bank *b = (struct vi_bank *)cp;
    ctrl_copy_line(&b->base, line, data, has_data);
    return line_state(b, line);
}
