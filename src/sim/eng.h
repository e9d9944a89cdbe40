/*
 * eng.h - the discrete-event engine: time, clock domains, components.
 *
 * Time is integer picoseconds. Events are ordered by (when, insertion order),
 * so simultaneous events run in a total, reproducible order: each distinct
 * time has a FIFO slot, and a heap orders the slots (so the heap holds times,
 * not events, and a cycle's dozens of ticks cost one heap operation).
 * A component has a clock domain and a tick function; it is ticked on its
 * clock edges only while it reports progress, and otherwise sleeps until
 * something wakes it (a message arriving on one of its ports, a timer it set).
 * An idle machine therefore costs nothing and time skips ahead.
 *
 * The watchdog: whoever issues work into the memory system counts it in
 * eng->n_outstanding and calls eng_progress() when work completes. If work is
 * outstanding and nothing completes for watchdog_ps, or the event queue runs
 * dry with work outstanding, the engine panics and every component's dump()
 * prints what it holds (exit 3).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef SIM_ENG_H
#define SIM_ENG_H

#include <stdio.h>

#include "base/types.h"

struct eng;
typedef void eng_fn(void *obj, uint64_t arg);

struct clock {
    const char *name;  /* "core", "icnt", "l2", "dram" */
    tick_t period_ps;  /* one cycle of this domain */
};

/* Period in ps of a clock of `mhz` MHz (rounded to the nearest ps). */
tick_t clock_period_ps(double mhz);

/* The first edge of `clk` at or after `t`. */
static inline tick_t clock_edge_at_or_after(const struct clock *clk, tick_t t)
{
    tick_t r = t % clk->period_ps;
    return r ? t + clk->period_ps - r : t;
}

/* Tick times a component has pending that the engine knows of (a subset of
 * its pending tick events, earliest first): a wake for one of them adds no
 * event. Small and inline so that components need no destructor. */
#define COMP_PENDING 8 /* a power of two: pend[] is a ring */

struct comp {
    const char *name;            /* hierarchical: "gpu.sm[3].l1" */
    const struct clock *clk;     /* its domain */
    struct eng *eng;
    bool (*tick)(struct comp *); /* one cycle; returns true if anything moved */
    void (*dump)(struct comp *, FILE *); /* watchdog / panic diagnostics; may be NULL */
    tick_t last;                 /* last tick that ran */
    struct comp *all_next;       /* engine's list of every component */
    /* --- private to eng.c --- */
    uint32_t pend_head, n_pend;  /* pend[pend_head] is the earliest of n_pend ... */
    tick_t pend[COMP_PENDING];   /* ... known pending tick times, ascending (a ring) */
};

/* One scheduled call. Events of one time wait in a FIFO, so simultaneous
 * events run in the order they were scheduled without a sequence number. */
struct eng_event {
    eng_fn *fn;
    void *obj;
    uint64_t arg;
};

/* Every event of one time, in scheduling order: ev[head..n). The array stays
 * with the slot when it is recycled, so it is only allocated in warm-up. */
struct eng_slot {
    tick_t when;
    uint32_t head, n, cap;
    struct eng_event *ev;
    struct eng_slot *next_free;  /* free list */
};

struct eng {
    tick_t now;
    struct eng_slot **heap;    /* binary min-heap of slots on their (distinct) times */
    size_t n_heap, cap_heap;   /* n_heap: times with events pending (0: queue empty) */
    struct eng_slot **hash;    /* open-addressed time -> slot, [hash_mask + 1] */
    size_t hash_mask;
    struct eng_slot *last_slot; /* the slot found last (most schedules hit it again) */
    struct eng_slot *free_slots; /* recycled slots */
    void **chunks;             /* every block of slots, for eng_destroy */
    size_t n_chunks, cap_chunks;
    struct comp *comps;        /* every registered component */
    bool stop;                 /* set by eng_stop() */

    /* watchdog */
    uint64_t n_outstanding;    /* memory work issued and not completed */
    tick_t last_progress;      /* time of the last eng_progress() */
    tick_t watchdog_ps;        /* 0 disables the time-based check */

    /* statistics */
    uint64_t n_events;         /* events executed (ticks included) */
};

void eng_init(struct eng *e);
void eng_destroy(struct eng *e);

/* Run `fn(obj, arg)` at time `when` (>= now). */
void eng_at(struct eng *e, tick_t when, eng_fn *fn, void *obj, uint64_t arg);

/* Run events until the queue is empty, eng_stop() is called, or the next
 * event lies beyond `until`. Callers set last_progress when work starts. Returns true if it stopped because the queue ran
 * dry. Panics (watchdog) as described above. */
bool eng_run(struct eng *e, tick_t until);
void eng_stop(struct eng *e);

/* Whether any event is pending. */
static inline bool eng_pending(const struct eng *e)
{
    return e->n_heap > 0;
}

/* Time of the earliest pending event (TICK_MAX when none). */
static inline tick_t eng_next_time(const struct eng *e)
{
    return e->n_heap ? e->heap[0]->when : TICK_MAX;
}

static inline void eng_progress(struct eng *e)
{
    e->last_progress = e->now;
}

/* Print every component's dump (used by the watchdog and panics). */
void eng_dump_all(struct eng *e, FILE *out);

void comp_init(struct comp *c, struct eng *e, const char *name, const struct clock *clk,
               bool (*tick)(struct comp *), void (*dump)(struct comp *, FILE *));

/* Tick `c` at its first clock edge at or after `t` that is later than its
 * last tick. Adds nothing when that tick is already pending. */
void comp_wake_at(struct comp *c, tick_t t);

static inline void comp_wake(struct comp *c)
{
    comp_wake_at(c, c->eng->now);
}

/* Current time in cycles of `clk`. */
static inline cycle_t comp_cycle(const struct comp *c)
{
    return c->eng->now / c->clk->period_ps;
}

#endif
