/*
 * eng.c - event heap, component scheduling and the watchdog (see eng.h).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "sim/eng.h"

#include <stdlib.h>
#include <string.h>

#include "base/log.h"

tick_t clock_period_ps(double mhz)
{
    return (tick_t)(1e6 / mhz + 0.5);
}

static void eng_dump_hook(void *obj, FILE *out)
{
    eng_dump_all(obj, out);
}

void eng_init(struct eng *e)
{
    memset(e, 0, sizeof *e);
    e->cap_heap = 1024;
    e->heap = malloc(e->cap_heap * sizeof *e->heap);
    if (!e->heap)
        panic("out of memory");
    log_push_dump(eng_dump_hook, e);
}

void eng_destroy(struct eng *e)
{
    log_pop_dump(e);
    free(e->heap);
    memset(e, 0, sizeof *e);
}

static inline bool ev_before(const struct event *a, const struct event *b)
{
    return a->when < b->when || (a->when == b->when && a->seq < b->seq);
}

void eng_at(struct eng *e, tick_t when, eng_fn *fn, void *obj, uint64_t arg)
{
    if (when < e->now)
        panic("event scheduled in the past (%llu < %llu)", (unsigned long long)when,
              (unsigned long long)e->now);
    if (e->n_heap == e->cap_heap) {
        e->cap_heap *= 2;
        e->heap = realloc(e->heap, e->cap_heap * sizeof *e->heap);
        if (!e->heap)
            panic("out of memory");
    }
    struct event ev = {when, e->seq++, fn, obj, arg};
    size_t i = e->n_heap++;
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!ev_before(&ev, &e->heap[p]))
            break;
        e->heap[i] = e->heap[p];
        i = p;
    }
    e->heap[i] = ev;
}

static struct event heap_pop(struct eng *e)
{
    struct event top = e->heap[0];
    struct event last = e->heap[--e->n_heap];
    size_t i = 0, n = e->n_heap;
    for (;;) {
        size_t l = 2 * i + 1;
        if (l >= n)
            break;
        size_t m = (l + 1 < n && ev_before(&e->heap[l + 1], &e->heap[l])) ? l + 1 : l;
        if (!ev_before(&e->heap[m], &last))
            break;
        e->heap[i] = e->heap[m];
        i = m;
    }
    e->heap[i] = last;
    return top;
}

/* A tick event. Several may be pending for one component (a wake asked for
 * while an earlier tick is pending must survive that tick going back to
 * sleep); the first at each time runs the tick, the rest find it done. */
static void comp_tick_event(void *obj, uint64_t when)
{
    struct comp *c = obj;
    if (c->last != TICK_MAX && c->last >= when)
        return;
    if (c->next == when)
        c->next = TICK_MAX;
    c->last = when;
    if (c->tick(c))
        comp_wake_at(c, when + c->clk->period_ps);
}

void comp_init(struct comp *c, struct eng *e, const char *name, const struct clock *clk,
               bool (*tick)(struct comp *), void (*dump)(struct comp *, FILE *))
{
    c->name = name;
    c->clk = clk;
    c->eng = e;
    c->tick = tick;
    c->dump = dump;
    c->next = TICK_MAX;
    c->last = TICK_MAX;
    c->all_next = e->comps;
    e->comps = c;
}

void comp_wake_at(struct comp *c, tick_t t)
{
    tick_t edge = clock_edge_at_or_after(c->clk, t);
    if (c->last != TICK_MAX && edge <= c->last)
        edge = c->last + c->clk->period_ps;
    if (edge == c->next)
        return;
    if (edge < c->next)
        c->next = edge;
    eng_at(c->eng, edge, comp_tick_event, c, edge);
}

void eng_stop(struct eng *e)
{
    e->stop = true;
}

void eng_dump_all(struct eng *e, FILE *out)
{
    fprintf(out, "--- state at t=%llu ps, %llu memory operations outstanding ---\n",
            (unsigned long long)e->now, (unsigned long long)e->n_outstanding);
    for (struct comp *c = e->comps; c; c = c->all_next)
        if (c->dump)
            c->dump(c, out);
}

bool eng_run(struct eng *e, tick_t until)
{
    e->stop = false;
    while (e->n_heap > 0 && !e->stop) {
        if (e->heap[0].when > until)
            return false;
        struct event ev = heap_pop(e);
        e->now = ev.when;
        e->n_events++;
        ev.fn(ev.obj, ev.arg);
        if (e->watchdog_ps && e->n_outstanding &&
            e->now - e->last_progress > e->watchdog_ps)
            panic("watchdog: no memory operation completed for %llu ps with %llu outstanding "
                  "(deadlock or livelock)",
                  (unsigned long long)(e->now - e->last_progress),
                  (unsigned long long)e->n_outstanding);
    }
    if (!e->stop && e->n_outstanding)
        panic("deadlock: every component is asleep with %llu memory operations outstanding",
              (unsigned long long)e->n_outstanding);
    return !e->stop;
}
