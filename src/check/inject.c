/*
 * inject.c - the directed protocol test driver (see inject.h).
 *
 * The driver is a component in the core clock domain that owns one response
 * port per SM; it sends each scheduled request into the SM's L1 port at its
 * time (retrying while the port is full) and collects the responses. An
 * operation is kept compact until it is sent and gets its message then, as
 * an LSU would: a long schedule costs no memory system state up front.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "check/inject.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"

struct op {
    unsigned sm;
    uint64_t at;        /* core cycle offset */
    unsigned size, off; /* bytes accessed and where in the line */
    bool sent, done;
    uint64_t value; /* the result; for a store, the value stored */
    tick_t t_sent, t_done;
    addr_t line;           /* line address (0 for fences and boundaries) */
    tick_t born;           /* when it was scheduled */
    struct mem_req req;    /* the request (req.atom set when sent) */
    struct atom_ops *atom; /* atomics only: operands, then results */
};

struct inject {
    struct comp comp;
    struct machine *m;
    struct port *rsp; /* per SM */
    struct op *ops;
    unsigned n_ops, cap_ops, n_done;
    unsigned *order; /* ops of the current run by (time, id) */
    unsigned n_order, next_unsent;
    tick_t t0;
    uint32_t line_bytes;
    struct clock clk; /* the core clock */
    unsigned stop_at; /* inject_run_until: the op whose completion stops the run */
};

/* The request message of o, as new_op and the inject_* calls described it. */
static struct msg *make_msg(struct inject *r, struct op *o)
{
    struct msg *m = msg_new(machine_msgs(r->m), MSG_CORE_REQ, o->line, o->born);
    m->req = o->req;
    m->req.atom = o->atom;
    if (o->req.op < MEM_FENCE)
        bytemask_set_range(&m->mask, o->off, o->size);
    if (o->req.op == MEM_STORE)
        memcpy(m->data + o->off, &o->value, o->size);
    return m;
}

static bool inject_tick(struct comp *cp)
{
    struct inject *r = (struct inject *)cp;
    struct machine *m = r->m;
    bool moved = false;
    unsigned n_sms = machine_n_sms(m) + machine_n_cpus(m);
    for (unsigned s = 0; s < n_sms; s++) {
        struct msg *rsp;
        while ((rsp = port_peek(&r->rsp[s]))) {
            port_pop(&r->rsp[s]);
            struct op *o = &r->ops[rsp->req.id];
            o->done = true;
            o->t_done = cp->eng->now;
            o->value = 0;
            if (rsp->req.op == MEM_LOAD)
                memcpy(&o->value, rsp->data + o->off, o->size);
            else if (rsp->req.op == MEM_ATOMIC)
                o->value = o->atom->lane[0].result;
            r->n_done++;
            cp->eng->n_outstanding--;
            eng_progress(cp->eng);
            if (rsp->req.id == r->stop_at)
                eng_stop(cp->eng); /* the rest stays in flight */
            msg_free(machine_msgs(m), rsp);
            moved = true;
        }
    }
    /* send in schedule order; an op that finds its L1 port full holds back
     * the ones after it (the driver is in-order, like an LSU) */
    bool retry = false;
    while (r->next_unsent < r->n_order) {
        struct op *o = &r->ops[r->order[r->next_unsent]];
        tick_t due = r->t0 + o->at * cp->clk->period_ps;
        if (cp->eng->now < due) {
            comp_wake_at(cp, due);
            break;
        }
        struct port *p = machine_l1_port(m, o->sm);
        if (!port_has_room(p, 1)) {
            retry = true;
            break;
        }
        port_send(p, make_msg(r, o));
        o->sent = true;
        o->t_sent = cp->eng->now;
        eng_work_issued(cp->eng);
        r->next_unsent++;
        moved = true;
    }
    return moved || retry;
}

static void inject_dump(struct comp *cp, FILE *out)
{
    struct inject *r = (struct inject *)cp;
    fprintf(out, "inject: %u of %u operations done\n", r->n_done, r->n_ops);
    for (unsigned i = 0; i < r->n_ops; i++) {
        const struct op *o = &r->ops[i];
        if (!o->done)
            fprintf(out, "  op %u on sm %u at +%llu: %s\n", i, o->sm, (unsigned long long)o->at,
                    o->sent ? "sent, no response" : "not sent");
    }
}

struct inject *inject_new(const struct config *cfg)
{
    return inject_new_checked(cfg, true); /* directed tests always check invariants */
}

struct inject *inject_new_checked(const struct config *cfg, bool check)
{
    struct inject *r = calloc(1, sizeof *r);
    if (!r)
        panic("out of memory");
    r->m = machine_new_checked(cfg, check);
    r->line_bytes = cfg->l1.cache.line_bytes;
    r->stop_at = UINT_MAX;
    struct eng *e = machine_eng(r->m);
    r->clk = (struct clock){"core", clock_period_ps(cfg->gpu.core_mhz)};
    const struct clock *clk = &r->clk;
    comp_init(&r->comp, e, "inject", clk, inject_tick, inject_dump);
    /* every SM of every GPM, numbered GPM by GPM (gpu.sms each), then the
     * CPU cores' L1s */
    unsigned n_cores = machine_n_sms(r->m) + machine_n_cpus(r->m);
    r->rsp = calloc(n_cores, sizeof *r->rsp);
    for (unsigned s = 0; s < n_cores; s++) {
        port_init(&r->rsp[s], "inject.rsp", 1u << 16, clk->period_ps, NULL, &r->comp);
        machine_detach_sm(r->m, s, &r->rsp[s], &r->comp);
        machine_l1_port(r->m, s)->sender = &r->comp;
    }
    return r;
}

void inject_free(struct inject *r)
{
    unsigned n_sms = machine_n_sms(r->m) + machine_n_cpus(r->m);
    for (unsigned i = 0; i < r->n_ops; i++)
        free(r->ops[i].atom);
    machine_free(r->m);
    for (unsigned s = 0; s < n_sms; s++)
        port_destroy(&r->rsp[s]);
    free(r->rsp);
    free(r->ops);
    free(r->order);
    free(r);
}

struct machine *inject_machine(struct inject *r)
{
    return r->m;
}

static struct op *new_op(struct inject *r, unsigned sm, unsigned warp, enum mem_op op, addr_t a,
                         enum mem_sem sem, enum mem_scope scope, uint64_t at, unsigned *id)
{
    if (r->n_ops == r->cap_ops) {
        r->cap_ops = r->cap_ops ? 2 * r->cap_ops : 64;
        r->ops = realloc(r->ops, r->cap_ops * sizeof *r->ops);
        if (!r->ops)
            panic("out of memory");
    }
    *id = r->n_ops;
    struct op *o = &r->ops[r->n_ops++];
    memset(o, 0, sizeof *o);
    o->sm = sm;
    o->at = at;
    addr_t line = a & ~(addr_t)(r->line_bytes - 1);
    o->off = (unsigned)(a - line);
    o->line = op >= MEM_FENCE ? 0 : line;
    o->born = machine_eng(r->m)->now;
    o->req = (struct mem_req){.op = (uint8_t)op,
                              .sem = (uint8_t)sem,
                              .scope = (uint8_t)scope,
                              .sm = (uint16_t)sm,
                              .warp = (uint16_t)warp,
                              .id = *id};
    return o;
}

unsigned inject_load(struct inject *r, unsigned sm, unsigned warp, addr_t a, unsigned size,
                     enum mem_sem sem, enum mem_scope scope, uint64_t at)
{
    unsigned id;
    struct op *o = new_op(r, sm, warp, MEM_LOAD, a, sem, scope, at, &id);
    o->size = size;
    return id;
}

unsigned inject_prefetch(struct inject *r, unsigned sm, unsigned warp, addr_t a, uint64_t at)
{
    unsigned id = inject_load(r, sm, warp, a, 1, SEM_WEAK, SCOPE_GPU, at);
    r->ops[id].req.prefetch = 1;
    return id;
}

unsigned inject_store(struct inject *r, unsigned sm, unsigned warp, addr_t a, unsigned size,
                      uint64_t value, enum mem_sem sem, enum mem_scope scope, uint64_t at)
{
    unsigned id;
    struct op *o = new_op(r, sm, warp, MEM_STORE, a, sem, scope, at, &id);
    o->size = size;
    o->value = value;
    return id;
}

unsigned inject_atomic(struct inject *r, unsigned sm, unsigned warp, addr_t a, enum atom_kind kind,
                       enum atom_type type, uint64_t op_a, uint64_t op_b, enum mem_sem sem,
                       enum mem_scope scope, uint64_t at)
{
    unsigned id;
    struct op *o = new_op(r, sm, warp, MEM_ATOMIC, a, sem, scope, at, &id);
    o->size = atom_type_bytes(type);
    o->atom = calloc(1, sizeof *o->atom);
    if (!o->atom)
        panic("out of memory");
    *o->atom = (struct atom_ops){.kind = (uint8_t)kind, .type = (uint8_t)type, .n = 1};
    o->atom->lane[0] = (struct atom_lane){.lane = 0, .off = (uint8_t)o->off, .a = op_a, .b = op_b};
    return id;
}

unsigned inject_order(struct inject *r, unsigned sm, unsigned warp, enum mem_op op,
                      enum mem_sem sem, enum mem_scope scope, uint64_t at)
{
    unsigned id;
    new_op(r, sm, warp, op, 0, sem, scope, at, &id);
    return id;
}

static const struct inject *sort_rig;

static int by_time(const void *a, const void *b)
{
    const struct op *x = &sort_rig->ops[*(const unsigned *)a];
    const struct op *y = &sort_rig->ops[*(const unsigned *)b];
    if (x->at != y->at)
        return x->at < y->at ? -1 : 1;
    return *(const unsigned *)a < *(const unsigned *)b ? -1 : 1;
}

void inject_run(struct inject *r)
{
    inject_run_until(r, UINT_MAX);
}

void inject_run_until(struct inject *r, unsigned id)
{
    struct eng *e = machine_eng(r->m);
    r->stop_at = id;
    r->t0 = clock_edge_at_or_after(r->comp.clk, e->now);
    free(r->order);
    r->order = malloc((r->n_ops + 1) * sizeof *r->order);
    if (!r->order)
        panic("out of memory");
    r->n_order = r->next_unsent = 0;
    for (unsigned i = 0; i < r->n_ops; i++) {
        if (r->ops[i].sent)
            continue;
        r->order[r->n_order++] = i;
    }
    sort_rig = r;
    bool sorted = true; /* scripts usually schedule in time order already */
    for (unsigned i = 1; i < r->n_order && sorted; i++)
        sorted = r->ops[r->order[i - 1]].at <= r->ops[r->order[i]].at;
    if (!sorted)
        qsort(r->order, r->n_order, sizeof *r->order, by_time);
    e->last_progress = e->now;
    comp_wake_at(&r->comp, r->t0);
    while (id < r->n_ops ? !r->ops[id].done : r->n_done < r->n_ops) {
        eng_run(e, TICK_MAX);
        if (r->n_done < r->n_ops && !eng_pending(e))
            panic("inject: %u operations never completed", r->n_ops - r->n_done);
    }
    r->stop_at = UINT_MAX;
}

bool inject_done(const struct inject *r, unsigned id)
{
    return id < r->n_ops && r->ops[id].done;
}

uint64_t inject_value(const struct inject *r, unsigned id)
{
    return r->ops[id].value;
}

uint64_t inject_latency(const struct inject *r, unsigned id)
{
    const struct op *o = &r->ops[id];
    return (o->t_done - o->t_sent) / r->comp.clk->period_ps;
}

const char *inject_l1_state(struct inject *r, unsigned sm, addr_t line)
{
    const struct proto_desc *p = machine_proto(r->m);
    unsigned t = 0;
    if (sm >= machine_n_sms(r->m)) /* a CPU core's L1 */
        p->cpu_l1(machine_coh_view(r->m), &t);
    const struct ctrl_ops *ops = machine_l1_ops(r->m, sm);
    return p->tables[t]->state_names[ops->peek(machine_l1(r->m, sm), line, NULL, NULL)];
}

const char *inject_l2_state(struct inject *r, addr_t line)
{
    const struct proto_desc *p = machine_proto(r->m);
    unsigned bank = (unsigned)((line / r->line_bytes) % machine_config(r->m)->l2.banks);
    unsigned st = p->l2.peek(machine_l2(r->m, bank), line, NULL, NULL);
    return p->tables[p->n_l1_tables]->state_names[st];
}

struct find_stat {
    const char *name;
    uint64_t value;
    bool found;
};

static void find_stat_emit(void *arg, const char *name, uint64_t v)
{
    struct find_stat *f = arg;
    if (!strcmp(name, f->name)) {
        f->value = v;
        f->found = true;
    }
}

uint64_t inject_stat(struct inject *r, const char *name)
{
    struct find_stat f = {name, 0, false};
    machine_stats(r->m, find_stat_emit, &f);
    panic_if(!f.found, "inject: no statistic named %s", name);
    return f.value;
}

uint64_t inject_coverage(struct inject *r, const char *table, const char *state, const char *event)
{
    unsigned n;
    const struct coh_cov *cov = machine_cov(r->m, &n);
    for (unsigned i = 0; i < n; i++) {
        const struct coh_table *t = cov[i].t;
        char name[64];
        snprintf(name, sizeof name, "%s.%s", t->proto, t->ctrl);
        if (strcmp(name, table))
            continue;
        for (unsigned s = 0; s < t->n_states; s++)
            for (unsigned e = 0; e < t->n_events; e++)
                if (!strcmp(t->state_names[s], state) && !strcmp(t->event_names[e], event)) {
                    size_t k = (size_t)s * t->n_events + e;
                    return coh_cell(t, s, e)->kind == COH_STALL ? cov[i].stalls[k] : cov[i].hits[k];
                }
    }
    panic("inject: no cell %s [%s][%s]", table, state, event);
}
