/*
 * stress.c - the DRF random tester (see stress.h).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "check/stress.h"

#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/log.h"
#include "base/rng.h"
#include "system/machine.h"

const char *const stress_small_caches[] = {
    "l1.size=1K", "l1.ways=2", "l1.mshrs=8", "l1.merge_max=2",
    "l2.size=2K", "l2.ways=2", "l2.mshrs=8", NULL,
};

#define DATA_BASE 0x20000000ull
#define SYNC_BASE 0x30000000ull
#define WORD_GAP  32u /* words per line: 4 at offsets 0, 32, 64, 96 */
#define MAX_RES   8   /* locations reserved per episode */
#define NO_OWNER  UINT32_MAX

enum phase { P_IDLE, P_OPEN, P_ACQUIRE, P_BODY, P_RELEASE, P_CLOSE, P_DONE };

struct agent {
    unsigned sm, warp;
    enum phase phase;
    unsigned n_out; /* requests in flight */
    unsigned body_left;
    unsigned res[MAX_RES], n_res; /* reserved locations */
    uint64_t episode;             /* global episode number */
    struct atom_ops atom;         /* the one atomic in flight */
};

struct loc {
    uint32_t owner;          /* agent index, or NO_OWNER */
    uint32_t value;          /* last value written */
    uint64_t writer_episode; /* who wrote it */
    uint32_t writer_sm, writer_warp;
};

struct pending { /* a request in flight; for a load, what it must return */
    uint32_t id; /* the request's, while in_flight */
    bool in_flight;
    unsigned agent, loc;
    uint32_t expect;
    uint64_t writer_episode;
    uint32_t writer_sm, writer_warp;
};

struct stress {
    struct comp comp;
    struct clock clk;
    struct machine *m;
    struct stress_opts o;
    struct port *rsp;
    struct agent *agents;
    unsigned n_agents, n_sms, line_bytes;
    struct loc *locs;
    struct pending *pend; /* by request id modulo pend_mask + 1 (grown: grow_pending) */
    uint32_t pend_mask, next_id;
    uint64_t started, finished;
    uint32_t next_value;
    struct rng rng;
    struct stress_result *res;
    FILE *report;
    struct coh_history *hist;
    bool one_at_a_time; /* the SM's model promises sc: a warp waits for each access */
    bool hetero;        /* CPU cores too (cpu.cores): their agents follow the SMs' */
};

static addr_t loc_addr(const struct stress *s, unsigned loc)
{
    unsigned per_line = s->line_bytes / WORD_GAP;
    return DATA_BASE + (addr_t)(loc / per_line) * s->line_bytes + (loc % per_line) * WORD_GAP;
}

/* One controller's state for the line and, if it holds them, its words. */
static void controller_line(struct stress *s, FILE *out, struct comp *c, const struct ctrl_ops *ops,
                            const struct coh_table *t, addr_t line)
{
    uint8_t data[LINE_MAX_BYTES];
    bool has_data;
    unsigned st = ops->peek(c, line, data, &has_data);
    fprintf(out, "    %-16s %-4s", c->name, t->state_names[st]);
    if (has_data)
        for (unsigned w = 0; w < s->line_bytes; w += WORD_GAP)
            fprintf(out, " %08x", *(uint32_t *)(data + w));
    else if (st)
        fputs(" (no data)", out);
    fputc('\n', out);
}

static void line_report(struct stress *s, addr_t line)
{
    const struct proto_desc *p = machine_proto(s->m);
    FILE *out = s->report;
    fprintf(out, "  the line %#llx now:\n", (unsigned long long)line);
    for (unsigned i = 0; i < s->n_sms; i++) {
        unsigned t = 0;
        if (i >= machine_n_sms(s->m)) /* a CPU core's L1 */
            p->cpu_l1(machine_coh_view(s->m), &t);
        controller_line(s, out, machine_l1(s->m, i), machine_l1_ops(s->m, i), p->tables[t], line);
    }
    unsigned banks = machine_config(s->m)->l2.banks;
    unsigned bank = (unsigned)((line / s->line_bytes) % banks);
    for (unsigned b = bank; b < machine_n_banks(s->m); b += banks) /* every GPM's */
        controller_line(s, out, machine_l2(s->m, b), &p->l2, p->tables[p->n_l1_tables], line);
    fprintf(out, "  its recent transitions (oldest first):\n");
    coh_history_print(s->hist, line, out);
}

static void wrong_value(struct stress *s, const struct pending *pd, uint32_t got)
{
    const struct agent *a = &s->agents[pd->agent];
    addr_t addr = loc_addr(s, pd->loc);
    fprintf(s->report,
            "stress: WRONG VALUE at t=%llu ps (%s)\n"
            "  address %#llx: sm %u warp %u (episode %llu) loaded 0x%08x\n"
            "  expected 0x%08x, written by sm %u warp %u in episode %llu\n",
            (unsigned long long)s->comp.eng->now, machine_config(s->m)->coherence.protocol,
            (unsigned long long)addr, a->sm, a->warp, (unsigned long long)a->episode, got,
            pd->expect, pd->writer_sm, pd->writer_warp, (unsigned long long)pd->writer_episode);
    line_report(s, addr & ~(addr_t)(s->line_bytes - 1));
    s->res->wrong = true;
    eng_stop(s->comp.eng);
}

/* Double the ring until the slot of the next id is free. Ids are given in
 * order but a request may stay in flight while any number of later ones
 * complete (an LLC a few lines large, thrashed by many L1s, serves some
 * requests hundreds of thousands of cycles late), so no fixed size is
 * enough: a response must never meet a slot that a later request reused. */
static void grow_pending(struct stress *s)
{
    while (s->pend[s->next_id & s->pend_mask].in_flight) {
        uint32_t cap = (s->pend_mask + 1) * 2;
        panic_if(!cap, "stress: more requests in flight than ids");
        struct pending *p = calloc(cap, sizeof *p);
        if (!p)
            panic("out of memory");
        for (uint32_t i = 0; i <= s->pend_mask; i++)
            if (s->pend[i].in_flight)
                p[s->pend[i].id & (cap - 1)] = s->pend[i];
        free(s->pend);
        s->pend = p;
        s->pend_mask = cap - 1;
    }
}

static struct msg *new_req(struct stress *s, struct agent *a, enum mem_op op, addr_t addr,
                           enum mem_sem sem)
{
    struct msg *m = msg_new(machine_msgs(s->m), MSG_CORE_REQ, addr & ~(addr_t)(s->line_bytes - 1),
                            s->comp.eng->now);
    /* agents on several GPUs synchronise at .sys scope, the one that covers them */
    enum mem_scope scope = machine_config(s->m)->topology.gpus > 1 ? SCOPE_SYS : SCOPE_GPU;
    m->req = (struct mem_req){.op = (uint8_t)op,
                              .sem = (uint8_t)sem,
                              .scope = (uint8_t)scope,
                              .sm = (uint16_t)a->sm,
                              .warp = (uint16_t)a->warp,
                              .id = s->next_id};
    grow_pending(s);
    s->pend[s->next_id & s->pend_mask] =
        (struct pending){.id = s->next_id, .in_flight = true, .agent = (unsigned)(a - s->agents)};
    s->next_id++;
    return m;
}

static bool send(struct stress *s, struct agent *a, struct msg *m)
{
    struct port *p = machine_l1_port(s->m, a->sm);
    if (!port_send(p, m))
        panic("stress: L1 port full after room check");
    a->n_out++;
    eng_work_issued(s->comp.eng);
    return true;
}

static void send_atomic(struct stress *s, struct agent *a, enum mem_sem sem)
{
    unsigned v = (unsigned)rng_below(&s->rng, s->o.sync_vars);
    addr_t addr = SYNC_BASE + (addr_t)v * s->line_bytes;
    struct msg *m = new_req(s, a, MEM_ATOMIC, addr, sem);
    a->atom = (struct atom_ops){.kind = ATOM_ADD, .type = ATYPE_U32, .n = 1};
    a->atom.lane[0] = (struct atom_lane){.off = 0, .a = 1};
    m->req.atom = &a->atom;
    bytemask_set_range(&m->mask, 0, 4);
    s->res->atomics++;
    send(s, a, m);
}

static void send_fence(struct stress *s, struct agent *a)
{
    send(s, a, new_req(s, a, MEM_FENCE, 0, SEM_ACQ_REL));
}

static bool reserve(struct stress *s, struct agent *a)
{
    unsigned want = 1 + (unsigned)rng_below(&s->rng, MAX_RES);
    a->n_res = 0;
    for (unsigned tries = 0; tries < 4 * want && a->n_res < want; tries++) {
        unsigned l = (unsigned)rng_below(&s->rng, s->o.locations);
        if (s->locs[l].owner != NO_OWNER)
            continue;
        s->locs[l].owner = (uint32_t)(a - s->agents);
        a->res[a->n_res++] = l;
    }
    return a->n_res > 0;
}

static void body_op(struct stress *s, struct agent *a)
{
    unsigned l = a->res[rng_below(&s->rng, a->n_res)];
    struct loc *c = &s->locs[l];
    addr_t addr = loc_addr(s, l);
    unsigned off = (unsigned)(addr & (s->line_bytes - 1));
    if (rng_chance(&s->rng, 1, 2)) {
        struct msg *m = new_req(s, a, MEM_LOAD, addr, SEM_WEAK);
        m->req.scope = SCOPE_CTA;
        if (s->hetero && rng_chance(&s->rng, 1, 4)) { /* a .sys load: performed at the LLC */
            m->req.sem = SEM_RELAXED;
            m->req.scope = SCOPE_SYS;
        }
        bytemask_set_range(&m->mask, off, 4);
        struct pending *pd = &s->pend[m->req.id & s->pend_mask];
        pd->loc = l;
        pd->expect = c->value;
        pd->writer_episode = c->writer_episode;
        pd->writer_sm = c->writer_sm;
        pd->writer_warp = c->writer_warp;
        s->res->loads++;
        send(s, a, m);
    } else {
        struct msg *m = new_req(s, a, MEM_STORE, addr, SEM_WEAK);
        m->req.scope = SCOPE_CTA;
        uint32_t v = ++s->next_value;
        memcpy(m->data + off, &v, 4);
        bytemask_set_range(&m->mask, off, 4);
        c->value = v;
        c->writer_episode = a->episode;
        c->writer_sm = a->sm;
        c->writer_warp = a->warp;
        s->res->stores++;
        send(s, a, m);
    }
}

/* Advance one agent by at most one request. Returns true if it sent. */
static bool step_agent(struct stress *s, struct agent *a)
{
    switch (a->phase) {
    case P_IDLE:
        if (s->started >= s->o.episodes) {
            a->phase = P_DONE;
            return false;
        }
        if (!reserve(s, a))
            return false;
        a->episode = ++s->started;
        a->body_left = 1 + (unsigned)rng_below(&s->rng, s->o.max_body);
        a->phase = P_OPEN;
        send_atomic(s, a, SEM_ACQ_REL);
        return true;
    case P_OPEN:
        if (a->n_out)
            return false;
        a->phase = P_ACQUIRE;
        send_fence(s, a);
        return true;
    case P_ACQUIRE:
        if (a->n_out)
            return false;
        a->phase = P_BODY;
        /* fall through */
    case P_BODY:
        if (a->body_left && a->n_out && s->one_at_a_time)
            return false; /* the SC issue rule: one access of a warp at a time */
        if (a->body_left) {
            a->body_left--;
            body_op(s, a);
            return true;
        }
        if (a->n_out) /* the release waits for every earlier access */
            return false;
        a->phase = P_RELEASE;
        send_fence(s, a);
        return true;
    case P_RELEASE:
        if (a->n_out)
            return false;
        a->phase = P_CLOSE;
        send_atomic(s, a, SEM_RELEASE);
        return true;
    case P_CLOSE:
        if (a->n_out)
            return false;
        for (unsigned i = 0; i < a->n_res; i++)
            s->locs[a->res[i]].owner = NO_OWNER;
        s->finished++;
        a->phase = P_IDLE;
        return step_agent(s, a);
    case P_DONE:
        return false;
    }
    return false;
}

static bool stress_tick(struct comp *cp)
{
    struct stress *s = (struct stress *)cp;
    bool moved = false;
    for (unsigned i = 0; i < s->n_sms; i++) {
        struct msg *r;
        while ((r = port_peek(&s->rsp[i]))) {
            port_pop(&s->rsp[i]);
            struct pending *pd = &s->pend[r->req.id & s->pend_mask];
            panic_if(!pd->in_flight || pd->id != r->req.id,
                     "stress: response to request %u, which is not in flight", r->req.id);
            pd->in_flight = false;
            struct agent *a = &s->agents[pd->agent];
            a->n_out--;
            cp->eng->n_outstanding--;
            eng_progress(cp->eng);
            if (r->req.op == MEM_LOAD) {
                uint32_t got;
                memcpy(&got, r->data + (loc_addr(s, pd->loc) & (s->line_bytes - 1)), 4);
                if (got != pd->expect) {
                    wrong_value(s, pd, got);
                    msg_free(machine_msgs(s->m), r);
                    return false;
                }
            }
            msg_free(machine_msgs(s->m), r);
            moved = true;
        }
    }
    /* one request per SM per cycle, agents of an SM taken round-robin */
    for (unsigned i = 0; i < s->n_sms; i++) {
        if (!port_has_room(machine_l1_port(s->m, i), 1))
            continue;
        unsigned k0 = (unsigned)(s->comp.eng->now / cp->clk->period_ps) % s->o.warps_per_sm;
        for (unsigned k = 0; k < s->o.warps_per_sm; k++) {
            struct agent *a = &s->agents[i * s->o.warps_per_sm + (k0 + k) % s->o.warps_per_sm];
            if (step_agent(s, a)) {
                moved = true;
                break;
            }
        }
    }
    return moved || (s->finished < s->o.episodes && !cp->eng->n_outstanding);
}

int stress_run(const struct config *cfg, const struct stress_opts *o, struct stress_result *r,
               FILE *report)
{
    struct stress *s = calloc(1, sizeof *s);
    if (!s)
        panic("out of memory");
    memset(r, 0, sizeof *r);
    s->o = *o;
    s->one_at_a_time = !strcmp(config_promise(cfg), "sc");
    s->res = r;
    s->report = report;
    s->m = machine_new_checked(cfg, o->check);
    s->hist = machine_record_history(s->m, 1u << 16);
    s->n_sms = machine_n_sms(s->m) + machine_n_cpus(s->m);
    s->hetero = machine_n_cpus(s->m) > 0;
    s->line_bytes = cfg->l1.cache.line_bytes;
    s->clk = (struct clock){"core", clock_period_ps(cfg->gpu.core_mhz)};
    rng_seed(&s->rng, cfg->sim.seed, 0x57e55);
    struct eng *e = machine_eng(s->m);
    comp_init(&s->comp, e, "stress", &s->clk, stress_tick, NULL);
    s->rsp = calloc(s->n_sms, sizeof *s->rsp);
    s->n_agents = s->n_sms * o->warps_per_sm;
    s->agents = calloc(s->n_agents, sizeof *s->agents);
    s->locs = calloc(o->locations, sizeof *s->locs);
    /* a slot is reused once the ids wrap round the ring: grow_pending makes
     * room when the request that holds it is still in flight */
    uint32_t cap = 1024;
    while (cap < 4u * s->n_agents * (o->max_body + 4))
        cap *= 2;
    s->pend_mask = cap - 1;
    s->pend = calloc(cap, sizeof *s->pend);
    if (!s->rsp || !s->agents || !s->locs || !s->pend)
        panic("out of memory");
    for (unsigned i = 0; i < o->locations; i++)
        s->locs[i].owner = NO_OWNER;
    for (unsigned i = 0; i < s->n_sms; i++) {
        port_init(&s->rsp[i], "stress.rsp", 1u << 16, s->clk.period_ps, NULL, &s->comp);
        machine_detach_sm(s->m, i, &s->rsp[i], &s->comp);
        machine_l1_port(s->m, i)->sender = &s->comp;
    }
    for (unsigned i = 0; i < s->n_agents; i++) {
        s->agents[i].sm = i / o->warps_per_sm;
        s->agents[i].warp = i % o->warps_per_sm;
    }
    double t0 = wall_seconds_since(0);
    e->last_progress = e->now;
    comp_wake(&s->comp);
    while (!r->wrong && s->finished < o->episodes) {
        eng_run(e, TICK_MAX);
        if (!r->wrong && s->finished < o->episodes && !eng_pending(e))
            panic("stress: stopped with %llu of %llu episodes done",
                  (unsigned long long)s->finished, (unsigned long long)o->episodes);
    }
    r->episodes = s->finished;
    r->cycles = e->now / s->clk.period_ps;
    r->wall_seconds = wall_seconds_since(t0);
    if (o->on_done)
        o->on_done(s->m, o->on_done_arg);
    /* responses still in flight after a wrong value are dropped with the machine */
    machine_free(s->m);
    for (unsigned i = 0; i < s->n_sms; i++)
        port_destroy(&s->rsp[i]);
    free(s->rsp);
    free(s->agents);
    free(s->locs);
    free(s->pend);
    free(s);
    return r->wrong ? 1 : 0;
}
