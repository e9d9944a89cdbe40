/*
 * ctrl.c - the controller library every protocol uses (see ctrl.h):
 * construction, lookup and stepping, the tick's message plumbing, and the
 * actions that do the same thing in every table that names them.
 * Nothing here decides a protocol question: which event a message is, which
 * state follows, and when to wait stay in the protocol's classifier and table.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "coh/ctrl.h"

#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "mem/observe.h"
#include "coh/machine_view.h"

/* ---- construction and the common ctrl_ops ---- */

void *ctrl_alloc(size_t size)
{
    void *p = calloc(1, size);
    if (!p)
        panic("out of memory");
    return p;
}

void ctrl_init(struct ctrl *c, const struct ctrl_wiring *w, const struct coh_table *t,
               bool (*tick)(struct comp *), void (*dump)(struct comp *, FILE *),
               uint32_t line_bytes)
{
    c->w = *w;
    c->table = t;
    c->line_bytes = line_bytes;
    c->sleep = w->cfg->coherence.sleep;
    comp_init(&c->comp, w->eng, w->name, w->clk, tick, dump);
}

void ctrl_l1_init(struct ctrl *c, const struct ctrl_wiring *w, const struct coh_table *t,
                  bool (*tick)(struct comp *), void (*dump)(struct comp *, FILE *))
{
    char err[256];
    if (cache_init(&c->cache, &w->cfg->l1.cache, err, sizeof err))
        panic("l1: %s (passed config_load's cache check)", err);
    tbe_table_init(&c->tbes, w->cfg->l1.mshrs, w->cfg->l1.cache.line_bytes);
    c->merge_max = w->cfg->l1.merge_max;
    c->issue_ooo = w->cfg->l1.issue == L1_ISSUE_OUT_OF_ORDER;
    c->merge_full_stalls = w->cfg->l1.merge_full == L1_MERGE_FULL_STALL;
    c->hit_ps = (tick_t)w->cfg->l1.cache.hit_cycles * w->clk->period_ps;
    ctrl_init(c, w, t, tick, dump, w->cfg->l1.cache.line_bytes);
    port_init(&c->in, "from_core", 64, w->clk->period_ps, NULL, &c->comp);
}

void ctrl_l2_init(struct ctrl *c, const struct ctrl_wiring *w, const struct coh_table *t,
                  bool (*tick)(struct comp *), void (*dump)(struct comp *, FILE *),
                  uint64_t rng_stream)
{
    char err[256];
    if (cache_init(&c->cache, &w->cfg->l2.cache, err, sizeof err))
        panic("l2: %s (passed config_load's cache check)", err);
    c->cache.index_div = w->n_banks; /* this bank sees every n_banks-th line */
    tbe_table_init(&c->tbes, w->cfg->l2.mshrs, w->cfg->l2.cache.line_bytes);
    c->jitter_cycles = w->cfg->l2.jitter_cycles;
    rng_seed(&c->rng, w->cfg->sim.seed, rng_stream + w->index);
    ctrl_init(c, w, t, tick, dump, w->cfg->l2.cache.line_bytes);
    port_init(&c->in, "from_mem", 64, w->clk->period_ps, NULL, &c->comp);
    port_init(&c->pipe, "pipe", 4096, (tick_t)w->cfg->l2.latency_cycles * w->clk->period_ps,
              &c->comp, &c->comp);
}

void ctrl_connect(struct comp *cp, const struct ctrl_links *l)
{
    ((struct ctrl *)cp)->links = *l;
}

void ctrl_l2_connect(struct comp *cp, const struct ctrl_links *l)
{
    struct ctrl *c = (struct ctrl *)cp;
    c->links = *l;
    c->in.sender = NULL; /* DRAM never waits for room */
}

struct port *ctrl_in_port(struct comp *cp)
{
    return &((struct ctrl *)cp)->in;
}

void ctrl_destroy(struct comp *cp)
{
    struct ctrl *c = (struct ctrl *)cp;
    cache_destroy(&c->cache);
    tbe_table_destroy(&c->tbes);
    port_destroy(&c->in);
    port_destroy(&c->pipe);
    free(c);
}

unsigned ctrl_peek(struct comp *cp, addr_t line, uint8_t *data, bool *has_data)
{
    struct ctrl *c = (struct ctrl *)cp;
    struct coh_ctx x;
    ctrl_lookup(c, &x, line);
    ctrl_copy_line(c, line, data, has_data);
    return x.state;
}

/* ---- statistics ---- */

uint64_t ctrl_stat_accesses(const struct ctrl *c)
{
    return c->st.reads + c->st.writes + c->st.atomics;
}

uint64_t ctrl_stat_prefetch_unused(const struct ctrl *c)
{
    return c->cache.st.prefetched_unused;
}

void ctrl_set_stats(struct ctrl *c, const struct ctrl_stat *rows, const void *own)
{
    c->stat_rows = rows;
    c->own_stats = own;
}

void ctrl_stats(struct comp *cp, void (*emit)(void *, const char *, uint64_t), void *arg)
{
    struct ctrl *c = (struct ctrl *)cp;
    if (c->stall_asleep) { /* asleep on a stall: count the cycles up to now */
        cycle_t now = comp_cycle(cp);
        c->st.resource_stalls += (now - c->stall_cycle) * c->stall_per_cycle;
        c->stall_cycle = now;
    }
    const void *own = c->own_stats;
    for (const struct ctrl_stat *r = c->stat_rows; r && r->name; r++) {
        uint64_t v;
        switch (r->kind) {
        case CTRL_ST_BASE:
            memcpy(&v, (const char *)&c->st + r->off, sizeof v);
            break;
        case CTRL_ST_OWN:
            memcpy(&v, (const char *)own + r->off, sizeof v);
            break;
        default:
            v = r->get(c);
        }
        emit(arg, r->name, v);
    }
    if (c->issue_ooo) /* only then: the statistics of in-order runs stay as they were */
        emit(arg, "issue_bypasses", c->st.issue_bypasses);
}

/* ---- sleeping on a resource stall ---- */

static void tick_marks(struct ctrl *c)
{
    c->stall_mark = c->st.resource_stalls;
    c->steps_mark = c->n_steps;
}

/* Out of line, and a tail call: most ticks do not follow a sleep, and save no
 * register for it. */
static void __attribute__((noinline)) wake_from_stall(struct ctrl *c)
{
    /* each cycle slept through stalled as the last tick did */
    cycle_t now = comp_cycle(&c->comp);
    if (now > c->stall_cycle)
        c->st.resource_stalls += (now - c->stall_cycle - 1) * c->stall_per_cycle;
    else /* ctrl_stats already counted this cycle; the tick counts it again */
        c->st.resource_stalls -= c->stall_per_cycle;
    c->stall_asleep = false;
    if (c->in.quiet)
        port_unquiet(&c->in);
    tick_marks(c);
}

void ctrl_tick_begin(struct ctrl *c)
{
    if (c->stall_asleep)
        wake_from_stall(c);
    else
        tick_marks(c);
}

bool ctrl_stall_sleep(struct ctrl *c, struct port *const *in, unsigned n)
{
    if (!c->sleep || c->n_steps != c->steps_mark)
        return true;
    c->stall_asleep = true;
    c->stall_cycle = comp_cycle(&c->comp);
    c->stall_per_cycle = c->st.resource_stalls - c->stall_mark;
    for (unsigned i = 0; i < n; i++) /* a head not ready yet (a ready one is stalled) */
        if (in[i] && in[i]->n && port_slot_at(in[i], 0)->ready > c->comp.eng->now)
            comp_wake_at(&c->comp, port_slot_at(in[i], 0)->ready);
    return false;
}

bool ctrl_l1_stall_sleep(struct ctrl *c, struct port *const *in, unsigned n)
{
    if (ctrl_stall_sleep(c, in, n))
        return true;
    if (!c->issue_ooo)
        port_quiet(&c->in);
    return false;
}

/* ---- looking up, stepping, parking ---- */

void ctrl_lookup(struct ctrl *c, struct coh_ctx *x, addr_t line)
{
    *x = (struct coh_ctx){.ctrl = c, .ctrl_name = c->w.name, .eng = c->comp.eng, .addr = line};
    x->line = cache_find(&c->cache, line);
    x->tbe = tbe_find(&c->tbes, line);
    x->state = x->tbe ? x->tbe->state : x->line ? x->line->state : 0;
}

enum coh_result ctrl_step(struct ctrl *c, struct coh_ctx *x)
{
    c->n_steps++;
    return coh_step(c->table, &c->w.cov[0], x);
}

enum coh_result ctrl_fire(struct ctrl *c, addr_t line, struct msg *m, unsigned event)
{
    struct coh_ctx x;
    ctrl_lookup(c, &x, line);
    x.msg = m;
    x.event = event;
    return ctrl_step(c, &x);
}

void ctrl_step_or_park(struct ctrl *c, struct coh_ctx *x)
{
    struct msg *m = x->msg;
    if (ctrl_step(c, x) == COH_STALLED) {
        c->st.protocol_stalls++;
        msg_list_push(&x->tbe->parked, m);
    }
}

bool ctrl_park_behind(struct ctrl *c, struct coh_ctx *x)
{
    if (!x->tbe || !x->tbe->parked.n)
        return false;
    c->st.protocol_stalls++;
    msg_list_push(&x->tbe->parked, x->msg);
    return true;
}

void ctrl_replay_first(struct ctrl *c, struct msg_list *p)
{
    if (!p->head)
        return;
    p->tail->next = c->replay.head;
    if (!c->replay.tail)
        c->replay.tail = p->tail;
    c->replay.head = p->head;
    c->replay.n += p->n;
    p->head = p->tail = NULL;
    p->n = 0;
}

void ctrl_set_state(struct coh_ctx *x, unsigned next)
{
    if (x->line)
        x->line->state = (uint8_t)next;
    if (x->tbe)
        x->tbe->state = (uint8_t)next;
}

/* Is a request to `line` waiting ahead of slot `before` of `in` (on the
 * replay list or in an earlier slot)? */
static bool line_waits_ahead(const struct ctrl *c, const struct port *in, uint32_t before,
                             addr_t line)
{
    for (const struct msg *r = c->replay.head; r; r = r->next)
        if (r->addr == line)
            return true;
    for (uint32_t k = 0; k < before; k++)
        if (port_slot_at(in, k)->m->addr == line)
            return true;
    return false;
}

/* l1.issue = out-of-order: the first waiting request stalled; take the first
 * later one that may pass it (ctrl.h). Requests tried and refused leave
 * resource_stalls as the stalled one left it. */
static bool take_bypassing(struct ctrl *c, struct port *in, uint32_t first,
                           bool (*take)(struct ctrl *, struct msg *))
{
    tick_t now = c->comp.eng->now;
    uint64_t stalls = c->st.resource_stalls;
    for (uint32_t i = first; i < in->n; i++) {
        const struct port_slot *s = port_slot_at(in, i);
        if (s->ready > now || s->m->req.op >= MEM_FENCE)
            break;
        if (line_waits_ahead(c, in, i, s->m->addr))
            continue;
        if (take(c, s->m)) {
            port_remove_at(in, i);
            c->st.issue_bypasses++;
            return true;
        }
        c->st.resource_stalls = stalls;
    }
    return false;
}

bool ctrl_take_next(struct ctrl *c, struct port *in, bool (*take)(struct ctrl *, struct msg *))
{
    struct msg *m;
    if ((m = msg_list_pop(&c->replay))) {
        if (take(c, m))
            return true;
        msg_list_push_front(&c->replay, m);
        if (c->issue_ooo && in == &c->in)
            return take_bypassing(c, in, 0, take);
    } else if ((m = port_peek(in))) {
        if (take(c, m)) {
            port_pop(in);
            return true;
        }
        if (c->issue_ooo && in == &c->in && m->req.op < MEM_FENCE)
            return take_bypassing(c, in, 1, take);
    }
    return false;
}

bool ctrl_take_one(struct ctrl *c, struct port *p, void (*take)(struct ctrl *, struct msg *))
{
    if (!port_peek(p))
        return false;
    take(c, port_pop(p));
    return true;
}

bool ctrl_drain(struct msg_list *q, struct port *out)
{
    bool moved = false;
    while (q->n && port_has_room(out, 1)) {
        port_send(out, msg_list_pop(q));
        moved = true;
    }
    return moved;
}

void ctrl_to_core(struct ctrl *c, struct msg *m, tick_t delay_ps)
{
    m->type = MSG_CORE_RSP;
    if (!port_send_delayed(c->links.to_core, m, delay_ps))
        panic("%s: core response port full", c->w.name);
}

void ctrl_to_home(struct ctrl *c, struct msg *m, uint16_t type, unsigned vnet, uint8_t cls,
                  uint16_t bytes)
{
    m->type = type;
    m->vnet = (uint8_t)vnet;
    m->cls = cls;
    m->src = (uint16_t)c->w.index;
    m->dst = (uint16_t)((m->addr / c->line_bytes) % c->w.n_banks);
    m->size_bytes = bytes;
    if (!port_send(c->links.net_out[vnet], m))
        panic("%s: vnet %u full after room check", c->w.name, vnet);
}

void ctrl_to_peer(struct ctrl *c, struct msg *m, unsigned l1, uint16_t type, unsigned vnet,
                  uint8_t cls, uint16_t bytes)
{
    panic_if(!c->links.peer_out[vnet], "%s: no path to other L1s on vnet %u", c->w.name, vnet);
    m->type = type;
    m->vnet = (uint8_t)vnet;
    m->cls = cls;
    m->src = (uint16_t)(c->w.n_banks + c->w.index);
    m->dst = (uint16_t)l1;
    m->size_bytes = bytes;
    if (!port_send(c->links.peer_out[vnet], m))
        panic("%s: vnet %u to the L1s full after room check", c->w.name, vnet);
}

static void wt_tbe_line(const struct ctrl *c, const struct tbe *t, FILE *out)
{
    fprintf(out, "  tbe %#llx %s pending %d merged %u parked %u\n", (unsigned long long)t->addr,
            c->table->state_names[t->state], t->pending, t->merged.n, t->parked.n);
}

void ctrl_dump_tbes(const struct ctrl *c, FILE *out,
                    void (*line)(const struct ctrl *, const struct tbe *, FILE *))
{
    for (uint32_t i = 0; i < c->tbes.cap; i++)
        if (c->tbes.e[i].used)
            (line ? line : wt_tbe_line)(c, &c->tbes.e[i], out);
}

void ctrl_dump_msg(const struct msg *m, FILE *out)
{
    fprintf(out, "type %u addr %#llx src %u dst %u op %s\n", m->type, (unsigned long long)m->addr,
            m->src, m->dst, mem_op_names[m->req.op]);
}

/* ---- shared actions ---- */

void ctrl_alloc_tbe(struct coh_ctx *x)
{
    x->tbe = tbe_alloc(&ctrl_of(x)->tbes, x->addr); /* room checked before the step */
}

void ctrl_free_tbe(struct coh_ctx *x)
{
    struct ctrl *c = ctrl_of(x);
    msg_list_splice(&c->replay, &x->tbe->parked);
    tbe_free(&c->tbes, x->tbe);
    x->tbe = NULL;
}

/* INVARIANT: requests to a line are served in arrival order. Requests for
 * the line still on the replay list (not yet examined when the line became
 * busy again) are younger than every request parked on it, so the parked
 * ones go first. */
void ctrl_wake_parked(struct coh_ctx *x)
{
    struct ctrl *c = ctrl_of(x);
    ctrl_replay_first(c, &x->tbe->parked);
    tbe_free(&c->tbes, x->tbe);
    x->tbe = NULL;
}

void ctrl_take_way(struct coh_ctx *x)
{
    struct ctrl *c = ctrl_of(x);
    struct cache_line *way = cache_victim(&c->cache, x->addr, NULL, NULL);
    panic_if(!way || way->present, "%s: no free way for %#llx", c->w.name,
             (unsigned long long)x->addr);
    cache_install(&c->cache, way, x->addr); /* clean, no metadata */
    x->line = way;
}

void ctrl_drop_line(struct coh_ctx *x)
{
    cache_remove(&ctrl_of(x)->cache, x->line);
    x->line = NULL;
}

void ctrl_park(struct coh_ctx *x)
{
    msg_list_push(&x->tbe->parked, x->msg);
    x->msg = NULL;
}

void ctrl_hold(struct coh_ctx *x)
{
    msg_list_push(&x->tbe->merged, x->msg);
    x->msg = NULL;
}

void ctrl_nothing(struct coh_ctx *x)
{
    (void)x;
}

/* ---- write-through L1s ---- */

void ctrl_l1_request(struct coh_ctx *x, uint16_t type, uint8_t cls, uint16_t bytes)
{
    x->tbe->pending++;
    ctrl_to_home(ctrl_of(x), x->msg, type, CTRL_VNET_REQ, cls, bytes);
    x->msg = NULL;
}

void ctrl_l1_send_gets(struct coh_ctx *x, uint16_t type, bool fill, uint16_t merged)
{
    struct ctrl *c = ctrl_of(x);
    if (fill) {
        x->msg->flags |= merged; /* this fill answers the loads merged behind it */
        c->st.load_misses++;
    } else {
        c->st.loads_at_l2++;
    }
    ctrl_l1_request(x, type, TRAFFIC_REQ, 0);
}

void ctrl_l1_send_write(struct coh_ctx *x, uint16_t type)
{
    ctrl_of(x)->st.stores++;
    ctrl_l1_request(x, type, TRAFFIC_ST, (uint16_t)bytemask_count(&x->msg->mask));
}

void ctrl_l1_send_atomic(struct coh_ctx *x, uint16_t type)
{
    ctrl_of(x)->st.atomics++;
    ctrl_l1_request(x, type, TRAFFIC_ATO, (uint16_t)atom_operand_bytes(x->msg->req.atom));
}

void ctrl_l1_answer_merged(struct ctrl *c, struct tbe *t, const uint8_t *data)
{
    struct msg *w;
    while ((w = msg_list_pop(&t->merged))) {
        memcpy(w->data, data, c->line_bytes);
        ctrl_to_core(c, w, 0);
    }
}

void ctrl_l1_note_fill(struct ctrl *c, struct cache_line *l, const struct msg_list *held)
{
    if (!held->head || !held->head->req.prefetch)
        return;
    for (const struct msg *m = held->head->next; m; m = m->next)
        if (!m->req.prefetch) {
            c->st.prefetch_late++;
            return;
        }
    l->prefetched = true;
    c->st.prefetch_fills++;
}

unsigned ctrl_l1_answer_in_time(struct ctrl *c, struct tbe *t, const uint8_t *data,
                                uint64_t lease_end)
{
    struct msg *w;
    struct msg_list late = {0};
    while ((w = msg_list_pop(&t->merged))) {
        if (w->ts2 > lease_end) {
            msg_list_push(&late, w);
            continue;
        }
        memcpy(w->data, data, c->line_bytes);
        ctrl_to_core(c, w, 0);
    }
    unsigned n = late.n;
    msg_list_splice(&c->replay, &late);
    return n;
}

enum ctrl_take ctrl_l1_begin(struct ctrl *c, struct coh_ctx *x, struct msg *m,
                             void (*order)(struct ctrl *, struct msg *), bool room,
                             void (*lookup)(struct ctrl *, struct coh_ctx *, addr_t))
{
    if (m->req.op >= MEM_FENCE) {
        order(c, m);
        return CTRL_TAKEN;
    }
    if (!room) {
        c->st.resource_stalls++;
        return CTRL_RETRY;
    }
    (lookup ? lookup : ctrl_lookup)(c, x, m->addr);
    x->msg = m;
    if (x->line && x->line->prefetched && !m->req.prefetch) {
        x->line->prefetched = false; /* a demand request found it: the prefetch was used */
        c->st.prefetch_used++;
    }
    return ctrl_park_behind(c, x) ? CTRL_TAKEN : CTRL_GO;
}

void ctrl_l1_response(struct ctrl *c, struct coh_ctx *x, struct msg *m)
{
    ctrl_lookup(c, x, m->addr);
    x->msg = m;
    panic_if(!x->tbe, "%s: response for %#llx with no TBE", c->w.name, (unsigned long long)m->addr);
}

void ctrl_l1_make_room(struct ctrl *c, addr_t line, unsigned replace)
{
    struct cache_line *way = cache_victim(&c->cache, line, NULL, NULL);
    if (way && way->present)
        ctrl_fire(c, way->addr, NULL, replace);
}

struct flash {
    struct ctrl *c;
    unsigned event, n;
};

static void flash_line(struct cache_line *l, void *arg)
{
    struct flash *f = arg;
    ctrl_fire(f->c, l->addr, NULL, f->event);
    f->n++;
}

unsigned ctrl_l1_flash(struct ctrl *c, unsigned event, int tbe_state)
{
    struct flash f = {c, event, 0};
    cache_for_each(&c->cache, flash_line, &f);
    for (uint32_t i = 0; tbe_state >= 0 && i < c->tbes.cap; i++) {
        struct tbe *t = &c->tbes.e[i];
        if (t->used && t->state == (unsigned)tbe_state)
            ctrl_fire(c, t->addr, NULL, event);
    }
    return f.n;
}

bool ctrl_l1_flush_step(struct ctrl *b, struct msg_list *kend,
                        bool (*owned)(const struct cache_line *), unsigned event, struct port *out)
{
    bool moved = false;
    if (!kend->n)
        return false;
    for (uint32_t i = 0; i < b->cache.sets * b->cache.spec.ways; i++) {
        struct cache_line *l = &b->cache.lines[i];
        if (!l->present || !owned(l))
            continue;
        if (tbe_full(&b->tbes) || !port_has_room(out, 1)) {
            b->st.resource_stalls++;
            return true; /* retry next cycle */
        }
        ctrl_fire(b, l->addr, NULL, event);
        moved = true;
    }
    if (!b->tbes.n_used) {
        struct msg *m;
        while ((m = msg_list_pop(kend)))
            ctrl_to_core(b, m, 0);
        moved = true;
    }
    return moved;
}

bool ctrl_l1_room(const struct ctrl *c)
{
    return port_has_room(c->links.net_out[CTRL_VNET_REQ], 1) && !tbe_full(&c->tbes);
}

void ctrl_l1_dump(struct comp *cp, FILE *out)
{
    struct ctrl *c = (struct ctrl *)cp;
    if (!c->tbes.n_used && !c->in.n && !c->replay.n)
        return;
    fprintf(out, "%s (%s L1): %u TBEs, %u core requests queued, %u replaying\n", c->w.name,
            c->table->proto, c->tbes.n_used, c->in.n, c->replay.n);
    ctrl_dump_tbes(c, out, NULL);
}

void ctrl_l1_dump_ctx_tbe(const struct coh_ctx *x, FILE *out)
{
    if (x->tbe)
        fprintf(out, "  tbe %#llx: %s pending %d merged %u parked %u\n",
                (unsigned long long)x->tbe->addr, ctrl_of(x)->table->state_names[x->tbe->state],
                x->tbe->pending, x->tbe->merged.n, x->tbe->parked.n);
}

void ctrl_l1_dump_ctx(struct coh_ctx *x, FILE *out)
{
    if (x->line)
        fprintf(out, "  line %#llx: %s\n", (unsigned long long)x->line->addr,
                ctrl_of(x)->table->state_names[x->line->state]);
    ctrl_l1_dump_ctx_tbe(x, out);
}

void ctrl_l1_merge_load(struct coh_ctx *x)
{
    ctrl_of(x)->st.load_merged++;
    msg_list_push(&x->tbe->merged, x->msg);
    x->msg = NULL;
}

void ctrl_l1_reply_hit(struct coh_ctx *x)
{
    struct ctrl *c = ctrl_of(x);
    c->st.load_hits++;
    x->msg->req.l1_hit = 1;
    cache_touch(&c->cache, x->line);
    memcpy(x->msg->data, x->line->data, c->line_bytes);
    ctrl_to_core(c, x->msg, c->hit_ps);
    x->msg = NULL;
}

/* Opt 1 of GPU-VI: the store's bytes go into the line before the L2 acks. */
void ctrl_l1_write_line(struct coh_ctx *x)
{
    struct ctrl *c = ctrl_of(x);
    cache_touch(&c->cache, x->line);
    bytes_merge(x->line->data, x->msg->data, &x->msg->mask, c->line_bytes);
}

void ctrl_l1_fill_line(struct coh_ctx *x)
{
    struct ctrl *c = ctrl_of(x);
    ctrl_take_way(x);
    memcpy(x->line->data, x->msg->data, c->line_bytes);
    c->st.fills++;
}

/* ---- L2 banks ---- */

void ctrl_l2_dump_ctx(struct coh_ctx *x, FILE *out)
{
    const char *const *names = ctrl_of(x)->table->state_names;
    if (x->line)
        fprintf(out, "  line %#llx: %s%s sharers %#llx:%#llx\n", (unsigned long long)x->line->addr,
                names[x->line->state], x->line->dirty ? " dirty" : "",
                (unsigned long long)x->line->meta[1], (unsigned long long)x->line->meta[0]);
    if (x->tbe)
        fprintf(out, "  tbe %#llx: %s acks %d held %u parked %u\n",
                (unsigned long long)x->tbe->addr, names[x->tbe->state], x->tbe->acks,
                x->tbe->merged.n, x->tbe->parked.n);
}

void ctrl_l2_reply_header(struct ctrl *c, struct msg *m, uint16_t type, unsigned vnet, uint8_t cls,
                          uint16_t bytes)
{
    m->type = type;
    m->vnet = (uint8_t)vnet;
    m->cls = cls;
    m->dst = m->src;
    m->src = (uint16_t)c->w.index;
    m->size_bytes = bytes;
}

void ctrl_l2_respond(struct ctrl *c, struct msg *m, uint16_t type, unsigned vnet, uint8_t cls,
                     uint16_t bytes)
{
    ctrl_l2_reply_header(c, m, type, vnet, cls, bytes);
    tick_t extra =
        c->jitter_cycles ? rng_below(&c->rng, c->jitter_cycles + 1) * c->comp.clk->period_ps : 0;
    if (!port_send_delayed(&c->pipe, m, extra))
        panic("%s: pipeline full after room check", c->w.name);
}

bool ctrl_l2_drain_pipe(struct ctrl *c)
{
    bool moved = false;
    struct msg *m;
    while ((m = port_peek(&c->pipe))) {
        struct port *out = c->links.net_out[m->vnet];
        if (!port_has_room(out, 1)) {
            /* It waits for room in its vnet, and nothing behind it may pass:
             * what becomes ready behind it would wake the bank for nothing,
             * so the pipeline keeps quiet until the head has gone. */
            port_quiet(&c->pipe);
            return moved;
        }
        port_send(out, port_pop(&c->pipe));
        moved = true;
    }
    if (moved && c->pipe.quiet) /* the head that held the rest back has gone */
        port_unquiet(&c->pipe);
    return moved;
}

bool ctrl_l2_drop_wrack(struct ctrl *c, struct msg *m)
{
    if (m->type != MSG_DRAM_WRACK)
        return false;
    msg_free(c->w.msgs, m);
    return true;
}

void ctrl_l2_reply_line(struct ctrl *c, struct coh_ctx *x, struct msg *m, uint16_t type,
                        unsigned vnet)
{
    c->st.reads++;
    cache_touch(&c->cache, x->line);
    if (c->w.obs)
        obs_check(c->w.obs, c->w.name, x->addr, x->line->data, NULL);
    memcpy(m->data, x->line->data, c->line_bytes);
    ctrl_l2_respond(c, m, type, vnet, TRAFFIC_LD, (uint16_t)c->line_bytes);
}

void ctrl_apply_store(struct ctrl *c, struct cache_line *l, const struct msg *m)
{
    bytes_merge(l->data, m->data, &m->mask, c->line_bytes);
    l->dirty = true;
    if (c->w.obs) {
        obs_write(c->w.obs, l->addr, m->data, &m->mask);
        obs_performed(c->w.obs, l->addr);
    }
}

void ctrl_apply_atomic(struct ctrl *c, struct cache_line *l, const struct msg *m)
{
    struct observer *obs = c->w.obs;
    if (obs)
        obs_check(obs, c->w.name, l->addr, l->data, NULL);
    atom_apply(m->req.atom, l->data);
    l->dirty = true;
    if (obs) {
        struct bytemask all;
        memset(&all, 0xff, sizeof all);
        obs_write(obs, l->addr, l->data, &all);
        obs_performed(obs, l->addr);
    }
}

void ctrl_l2_perform_write(struct ctrl *c, struct coh_ctx *x)
{
    c->st.writes++;
    cache_touch(&c->cache, x->line);
    ctrl_apply_store(c, x->line, x->msg);
}

void ctrl_l2_perform_atomic(struct ctrl *c, struct coh_ctx *x)
{
    c->st.atomics++;
    cache_touch(&c->cache, x->line);
    ctrl_apply_atomic(c, x->line, x->msg);
}

uint16_t ctrl_atomic_rsp_bytes(const struct msg *m)
{
    return (uint16_t)(m->req.atom->is_red ? 0 : atom_operand_bytes(m->req.atom));
}

void ctrl_copy_line(struct ctrl *c, addr_t line, uint8_t *data, bool *has_data)
{
    struct cache_line *l = cache_find(&c->cache, line);
    if (data && l)
        memcpy(data, l->data, c->line_bytes);
    if (has_data)
        *has_data = data && l;
}

void ctrl_l2_dma(struct ctrl *c, addr_t line, uint8_t *buf, const struct bytemask *wmask,
                 unsigned state, bool busy)
{
    panic_if(busy, "%s: host access to %#llx in state %s", c->w.name, (unsigned long long)line,
             c->table->state_names[state]);
    struct cache_line *l = cache_find(&c->cache, line);
    if (!wmask) {
        if (l)
            memcpy(buf, l->data, c->line_bytes);
        else
            backing_read(c->w.store, line, buf, c->line_bytes);
        return;
    }
    if (c->w.obs)
        obs_write(c->w.obs, line, buf, wmask);
    if (l) {
        bytes_merge(l->data, buf, wmask, c->line_bytes);
        l->dirty = true;
    } else {
        backing_write_masked(c->w.store, line, buf, wmask->w, c->line_bytes);
    }
}

void ctrl_l2_dump_pipe(const struct ctrl *c, FILE *out)
{
    port_dump(&c->pipe, out, ctrl_dump_msg);
}

bool ctrl_l2_room_for_step(struct ctrl *c)
{
    if (tbe_full(&c->tbes) || !port_has_room(c->links.to_mem, 1) || !port_has_room(&c->pipe, 1)) {
        c->st.resource_stalls++;
        return false;
    }
    return true;
}

bool ctrl_l2_free_way(struct ctrl *c, addr_t line,
                      bool (*evictable)(const struct cache_line *, void *),
                      void (*replace)(struct ctrl *c, addr_t victim))
{
    struct cache_line *way = cache_victim(&c->cache, line, evictable, NULL);
    if (way && !way->present)
        return true;
    if (way)
        replace(c, way->addr);
    c->st.resource_stalls++;
    return false;
}

bool ctrl_l2_room_for_miss(struct ctrl *c, addr_t line,
                           bool (*evictable)(const struct cache_line *, void *), unsigned replace)
{
    if (tbe_full(&c->tbes) || !port_has_room(c->links.to_mem, 1)) {
        c->st.resource_stalls++;
        return false;
    }
    struct cache_line *way = cache_victim(&c->cache, line, evictable, NULL);
    if (!way) {
        c->st.resource_stalls++;
        return false;
    }
    if (way->present) {
        ctrl_fire(c, way->addr, NULL, replace);
        return false;
    }
    return true;
}

void ctrl_l2_send_fetch(struct coh_ctx *x)
{
    struct ctrl *c = ctrl_of(x);
    struct msg *m = msg_new(c->w.msgs, MSG_DRAM_READ, x->addr, c->comp.eng->now);
    c->st.misses++;
    if (!port_send(c->links.to_mem, m))
        panic("%s: DRAM port full after room check", c->w.name);
}

void ctrl_l2_fill_line(struct coh_ctx *x)
{
    struct ctrl *c = ctrl_of(x);
    memcpy(x->line->data, x->msg->data, c->line_bytes);
    msg_free(c->w.msgs, x->msg);
    x->msg = NULL;
}

void ctrl_l2_write_back(struct coh_ctx *x)
{
    struct ctrl *c = ctrl_of(x);
    if (!x->line->dirty)
        return;
    struct msg *m = msg_new(c->w.msgs, MSG_DRAM_WRITE, x->addr, c->comp.eng->now);
    memcpy(m->data, x->line->data, c->line_bytes);
    memset(&m->mask, 0xff, sizeof m->mask);
    x->line->dirty = false;
    c->st.writebacks++;
    if (!port_send(c->links.to_mem, m))
        panic("%s: DRAM port full after room check", c->w.name);
}

void ctrl_count_ack(struct coh_ctx *x)
{
    struct ctrl *c = ctrl_of(x);
    x->tbe->acks--;
    c->st.acks++;
    msg_free(c->w.msgs, x->msg);
    x->msg = NULL;
}

/* ---- the banks an invariant observer reads ---- */

struct comp *ctrl_bank_set_home(const struct ctrl_bank_set *s, addr_t line, uint32_t line_bytes)
{
    return s->banks[(line / line_bytes) % s->n_banks];
}
