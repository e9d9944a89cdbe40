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
#include "check/observe.h"
#include "system/config.h"

const char *const vi_vnet_names[VI_NVNETS] = {"request", "response", "invalidation",
                                              "invalidation-ack"};

/* ---- actions ---- */

/* Into the pipeline; leaves for the L1 after the hit latency. */
static void respond(struct vi_bank *b, struct msg *m, uint16_t type, uint8_t cls, uint16_t bytes)
{
    m->type = type;
    m->cls = cls;
    m->vnet = VI_VNET_RSP;
    m->dst = m->src; /* back to the requesting SM */
    m->src = (uint16_t)b->w.index;
    m->size_bytes = bytes;
    tick_t extra = b->jitter_cycles
                       ? rng_below(&b->rng, b->jitter_cycles + 1) * b->comp.clk->period_ps
                       : 0;
    if (!port_send_delayed(&b->pipe, m, extra))
        panic("%s: pipeline full after room check", b->w.name);
}

void vi_take_way(struct coh_ctx *x)
{
    struct vi_bank *b = vi_bank_of(x);
    struct cache_line *way = cache_victim(&b->cache, x->addr, NULL, NULL);
    panic_if(!way || way->present, "%s: miss without a free way", b->w.name);
    cache_install(&b->cache, way, x->addr);
    x->line = way;
}

void vi_alloc_tbe(struct coh_ctx *x)
{
    x->tbe = tbe_alloc(&vi_bank_of(x)->tbes, x->addr); /* room checked before the step */
}

void vi_send_fetch(struct coh_ctx *x)
{
    struct vi_bank *b = vi_bank_of(x);
    struct msg *m = msg_new(b->w.msgs, MSG_DRAM_READ, x->addr, b->comp.eng->now);
    b->st.misses++;
    if (!port_send(b->links.to_mem, m))
        panic("%s: DRAM port full after room check", b->w.name);
}

void vi_park(struct coh_ctx *x)
{
    msg_list_push(&x->tbe->parked, x->msg);
    x->msg = NULL;
}

void vi_fill_line(struct coh_ctx *x)
{
    struct vi_bank *b = vi_bank_of(x);
    memcpy(x->line->data, x->msg->data, b->line_bytes);
    msg_free(b->w.msgs, x->msg);
    x->msg = NULL;
}

/* INVARIANT: requests to a line are served in arrival order. The parked
 * requests go to the front of the replay list: requests for the line still
 * waiting there (not yet examined when the line became busy again) are
 * younger than every request parked on it. */
void vi_wake_parked(struct coh_ctx *x)
{
    struct vi_bank *b = vi_bank_of(x);
    struct msg_list *p = &x->tbe->parked;
    if (p->head) {
        p->tail->next = b->replay.head;
        if (!b->replay.tail)
            b->replay.tail = p->tail;
        b->replay.head = p->head;
        b->replay.n += p->n;
        p->head = p->tail = NULL;
        p->n = 0;
    }
    tbe_free(&b->tbes, x->tbe);
    x->tbe = NULL;
}

void vi_reply_data(struct coh_ctx *x)
{
    struct vi_bank *b = vi_bank_of(x);
    struct vi_ctx *v = vi_ctx_of(x);
    panic_if(!v->dir, "%s: read of %#llx with nowhere to record the sharer", b->w.name,
             (unsigned long long)x->addr);
    b->st.reads++;
    vi_sharer_set(v->dir, x->msg->src);
    cache_touch(&b->cache, x->line);
    if (b->w.obs)
        obs_check(b->w.obs, b->w.name, x->addr, x->line->data, NULL);
    memcpy(x->msg->data, x->line->data, b->line_bytes);
    respond(b, x->msg, MSG_VI_DATA, TRAFFIC_LD, (uint16_t)b->line_bytes);
    x->msg = NULL;
}

void vi_write_line(struct coh_ctx *x)
{
    struct vi_bank *b = vi_bank_of(x);
    b->st.writes++;
    cache_touch(&b->cache, x->line);
    bytes_merge(x->line->data, x->msg->data, &x->msg->mask, b->line_bytes);
    x->line->dirty = true;
    if (b->w.obs) /* the write is performed here: no other copy exists (ideal: none survives
                     past this L1 edge) */
        obs_write(b->w.obs, x->addr, x->msg->data, &x->msg->mask);
    respond(b, x->msg, MSG_VI_WRACK, TRAFFIC_REQ, 0);
    x->msg = NULL;
}

void vi_do_atomic(struct coh_ctx *x)
{
    struct vi_bank *b = vi_bank_of(x);
    b->st.atomics++;
    cache_touch(&b->cache, x->line);
    if (b->w.obs)
        obs_check(b->w.obs, b->w.name, x->addr, x->line->data, NULL);
    atom_apply(x->msg->req.atom, x->line->data);
    x->line->dirty = true;
    if (b->w.obs) {
        struct bytemask all;
        memset(&all, 0xff, sizeof all);
        obs_write(b->w.obs, x->addr, x->line->data, &all);
    }
    respond(b, x->msg, MSG_VI_ATOMRSP, TRAFFIC_ATO,
            (uint16_t)(x->msg->req.atom->is_red ? 0 : atom_operand_bytes(x->msg->req.atom)));
    x->msg = NULL;
}

void vi_write_back(struct coh_ctx *x)
{
    struct vi_bank *b = vi_bank_of(x);
    if (!x->line->dirty)
        return;
    struct msg *m = msg_new(b->w.msgs, MSG_DRAM_WRITE, x->addr, b->comp.eng->now);
    memcpy(m->data, x->line->data, b->line_bytes);
    memset(&m->mask, 0xff, sizeof m->mask);
    x->line->dirty = false;
    b->st.writebacks++;
    if (!port_send(b->links.to_mem, m))
        panic("%s: DRAM port full after room check", b->w.name);
}

void vi_drop_line(struct coh_ctx *x)
{
    struct vi_ctx *v = vi_ctx_of(x);
    if (v->dir == x->line)
        v->dir = NULL;
    cache_remove(&vi_bank_of(x)->cache, x->line);
    x->line = NULL;
}

/* One invalidation to `sm`: queued for the INV vnet, or delivered at once on
 * the ideal reference's free channel. */
static void send_inv(struct vi_bank *b, addr_t line, unsigned sm, uint8_t cls)
{
    struct msg *m = msg_new(b->w.msgs, MSG_VI_INV, line, b->comp.eng->now);
    m->cls = cls;
    m->vnet = VI_VNET_INV;
    m->src = (uint16_t)b->w.index;
    m->dst = (uint16_t)sm;
    if (b->bus) {
        if (!port_send(b->bus[sm], m))
            panic("%s: free invalidation channel to L1 %u full", b->w.name, sm);
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
    for (unsigned w = 0; d && w < 2; w++) {
        uint64_t bits = d->meta[w];
        while (bits) {
            unsigned sm = w * 64 + (unsigned)__builtin_ctzll(bits);
            bits &= bits - 1;
            if ((int)sm == keep)
                continue;
            vi_sharer_clear(d, sm);
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

void vi_hold_request(struct coh_ctx *x)
{
    msg_list_push(&x->tbe->merged, x->msg);
    x->msg = NULL;
}

void vi_count_ack(struct coh_ctx *x)
{
    struct vi_bank *b = vi_bank_of(x);
    x->tbe->acks--;
    b->st.acks++;
    msg_free(b->w.msgs, x->msg);
    x->msg = NULL;
}

void vi_perform_held(struct coh_ctx *x)
{
    struct vi_bank *b = vi_bank_of(x);
    x->msg = msg_list_pop(&x->tbe->merged);
    panic_if(!x->msg, "%s: no held request for %#llx", b->w.name, (unsigned long long)x->addr);
    b->st.writes_waited++;
    if (x->msg->type == MSG_VI_WRITE)
        vi_write_line(x);
    else
        vi_do_atomic(x);
}

/* ---- helpers for the protocols' classifiers ---- */

void vi_bank_ctx(struct vi_bank *b, struct vi_ctx *v, addr_t line)
{
    memset(v, 0, sizeof *v);
    v->x.ctrl = b;
    v->x.ctrl_name = b->w.name;
    v->x.eng = b->comp.eng;
    v->x.addr = line;
    v->x.line = cache_find(&b->cache, line);
    v->x.tbe = tbe_find(&b->tbes, line);
}

enum coh_result vi_bank_step(struct vi_bank *b, struct vi_ctx *v, unsigned event)
{
    v->x.event = event;
    return coh_step(b->p->table, &b->w.cov[0], &v->x);
}

bool vi_bank_room(struct vi_bank *b)
{
    if (tbe_full(&b->tbes) || !port_has_room(b->links.to_mem, 1) || !port_has_room(&b->pipe, 1)) {
        b->st.resource_stalls++;
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
        b->st.resource_stalls++;
    return way && way->present ? way : NULL;
}

/* ---- tick ---- */

static bool vi_bank_tick(struct comp *cp)
{
    struct vi_bank *b = (struct vi_bank *)cp;
    bool moved = false;
    struct msg *m;
    struct port *rsp = b->links.net_out[VI_VNET_RSP], *inv = b->links.net_out[VI_VNET_INV];
    struct port *acks = b->links.net_in[VI_VNET_ACK], *reqs = b->links.net_in[VI_VNET_REQ];

    while (port_peek(&b->pipe) && port_has_room(rsp, 1)) {
        port_send(rsp, port_pop(&b->pipe));
        moved = true;
    }
    while (b->inv_out.n && port_has_room(inv, 1)) {
        port_send(inv, msg_list_pop(&b->inv_out));
        moved = true;
    }
    if (port_peek(&b->from_mem)) {
        b->p->mem(b, port_pop(&b->from_mem));
        moved = true;
    }
    if (acks && (m = port_peek(acks)) && b->p->ack(b, m)) {
        port_pop(acks);
        moved = true;
    }
    if ((m = msg_list_pop(&b->replay))) {
        if (b->p->request(b, m))
            moved = true;
        else
            msg_list_push_front(&b->replay, m);
    } else if ((m = port_peek(reqs))) {
        if (b->p->request(b, m)) {
            port_pop(reqs);
            moved = true;
        }
    }
    /* stay awake while a stall may clear by itself */
    return moved || b->replay.n || b->inv_out.n || port_peek(&b->pipe) || port_peek(reqs) ||
           (acks && port_peek(acks));
}

static void dump_msg(const struct msg *m, FILE *out)
{
    fprintf(out, "type %u addr %#llx src %u dst %u op %s\n", m->type, (unsigned long long)m->addr,
            m->src, m->dst, mem_op_names[m->req.op]);
}

static void vi_bank_dump(struct comp *cp, FILE *out)
{
    struct vi_bank *b = (struct vi_bank *)cp;
    if (!b->tbes.n_used && !b->replay.n && !b->pipe.n && !b->inv_out.n)
        return;
    fprintf(out, "%s (%s L2): %u TBEs, %u replaying, %u in pipeline, %u invalidations queued\n",
            b->w.name, b->p->table->proto, b->tbes.n_used, b->replay.n, b->pipe.n,
            b->inv_out.n);
    for (uint32_t i = 0; i < b->tbes.cap; i++) {
        struct tbe *t = &b->tbes.e[i];
        if (t->used)
            fprintf(out, "  tbe %#llx %s acks %d held %u parked %u\n",
                    (unsigned long long)t->addr, b->p->table->state_names[t->state], t->acks,
                    t->merged.n, t->parked.n);
    }
    port_dump(&b->pipe, out, dump_msg);
}

/* ---- construction ---- */

struct vi_bank *vi_bank_create(const struct ctrl_wiring *w, const struct vi_bank_proto *p)
{
    struct vi_bank *b = calloc(1, sizeof *b);
    char err[256];
    if (!b)
        panic("out of memory");
    if (w->n_sms > VI_MAX_SHARERS)
        fatal("%s: gpu.sms = %u, but a sharer vector names at most %u SMs", p->table->proto,
              w->n_sms, VI_MAX_SHARERS);
    b->w = *w;
    b->p = p;
    if (cache_init(&b->cache, &w->cfg->l2.cache, err, sizeof err))
        fatal("l2: %s", err);
    b->cache.index_div = w->n_banks; /* this bank sees every n_banks-th line */
    tbe_table_init(&b->tbes, w->cfg->l2.mshrs, w->cfg->l2.cache.line_bytes);
    b->line_bytes = w->cfg->l2.cache.line_bytes;
    b->jitter_cycles = w->cfg->l2.jitter_cycles;
    rng_seed(&b->rng, w->cfg->sim.seed, 0x5600 + w->index);
    comp_init(&b->comp, w->eng, w->name, w->clk, vi_bank_tick, vi_bank_dump);
    port_init(&b->from_mem, "from_mem", 64, w->clk->period_ps, NULL, &b->comp);
    port_init(&b->pipe, "pipe", 4096, (tick_t)w->cfg->l2.latency_cycles * w->clk->period_ps,
              &b->comp, &b->comp);
    return b;
}

void vi_bank_connect(struct comp *cp, const struct ctrl_links *l)
{
    struct vi_bank *b = (struct vi_bank *)cp;
    b->links = *l;
    b->from_mem.sender = NULL;
    if (b->p->table == &ideal_l2_table && !b->bus) {
        b->bus = calloc(b->w.n_sms, sizeof *b->bus);
        if (!b->bus)
            panic("out of memory");
        for (unsigned i = 0; i < b->w.n_sms; i++)
            b->bus[i] = vi_bus_port(b->comp.eng, i);
    }
}

struct port *vi_bank_in_port(struct comp *cp)
{
    return &((struct vi_bank *)cp)->from_mem;
}

void vi_bank_destroy(struct comp *cp)
{
    struct vi_bank *b = (struct vi_bank *)cp;
    struct msg *m;
    while ((m = msg_list_pop(&b->inv_out)))
        msg_free(b->w.msgs, m);
    cache_destroy(&b->cache);
    if (b->has_dir)
        cache_destroy(&b->dir);
    tbe_table_destroy(&b->tbes);
    port_destroy(&b->from_mem);
    port_destroy(&b->pipe);
    free(b->bus);
    free(b);
}

/* Host access between kernels: the line's current value is in the data
 * array if present, else in DRAM. A host write sends no invalidations (the
 * machine is idle); L1s drop every line at the next launch instead. */
void vi_bank_dma(struct comp *cp, addr_t line, uint8_t *buf, const struct bytemask *wmask)
{
    struct vi_bank *b = (struct vi_bank *)cp;
    unsigned s = b->p->state(b, line);
    panic_if(b->p->busy(s), "%s: host access to %#llx in state %s", b->w.name,
             (unsigned long long)line, b->p->table->state_names[s]);
    struct cache_line *l = cache_find(&b->cache, line);
    if (!wmask) {
        if (l)
            memcpy(buf, l->data, b->line_bytes);
        else
            backing_read(b->w.store, line, buf, b->line_bytes);
    } else {
        if (b->w.obs)
            obs_write(b->w.obs, line, buf, wmask);
        if (l) {
            bytes_merge(l->data, buf, wmask, b->line_bytes);
            l->dirty = true;
        } else {
            backing_write_masked(b->w.store, line, buf, wmask->w, b->line_bytes);
        }
    }
}

unsigned vi_bank_peek(struct comp *cp, addr_t line, uint8_t *data)
{
    struct vi_bank *b = (struct vi_bank *)cp;
    struct cache_line *l = cache_find(&b->cache, line);
    if (data && l)
        memcpy(data, l->data, b->line_bytes);
    return b->p->state(b, line);
}

void vi_bank_stats(struct comp *cp, void (*emit)(void *, const char *, uint64_t), void *arg)
{
    struct vi_bank *b = (struct vi_bank *)cp;
    const struct vi_bank_stats *s = &b->st;
    emit(arg, "reads", s->reads);
    emit(arg, "writes", s->writes);
    emit(arg, "atomics", s->atomics);
    emit(arg, "accesses", s->reads + s->writes + s->atomics);
    emit(arg, "misses", s->misses); /* DRAM fetches; requests parked behind one hit */
    emit(arg, "writebacks", s->writebacks);
    emit(arg, "invs_sent", s->invs_sent);
    emit(arg, "recalls_sent", s->recalls_sent);
    emit(arg, "acks", s->acks);
    emit(arg, "writes_waited", s->writes_waited);
    emit(arg, "dir_evictions", s->dir_evictions);
    emit(arg, "resource_stalls", s->resource_stalls);
    emit(arg, "protocol_stalls", s->protocol_stalls);
}
