/*
 * eng.h - the discrete-event engine: time, clock domains, components.
 *
 * Time is integer picoseconds. A component has a clock domain and a tick
 * function; it is ticked on its clock edges only while it reports progress,
 * and otherwise sleeps until something wakes it (a message arriving on one of
 * its ports, a timer it set). An idle machine therefore costs nothing and time
 * skips ahead.
 *
 * The tie order (what runs first among simultaneous events) is a property of
 * the components, not of scheduling history:
 *  - every component has a rank, a dense number given at registration
 *    (registration order) that eng_order() may rearrange before the run;
 *  - at one time, events scheduled with eng_at() run first, in the order they
 *    were scheduled (one scheduled for the current time from inside a tick
 *    runs right after that tick); then the ticks due at that time run in
 *    increasing rank;
 *  - a wake for the current time of a component whose rank that time has
 *    already passed (it ticked, or would have ticked, before the waker) takes
 *    effect at its next edge: exactly what happens to a component that ticks
 *    every cycle and only sees the cause on its next tick.
 * So a component that sleeps through cycles in which its tick would do
 * nothing, and is woken for the cycle where it has work, ticks at the same
 * place among simultaneous events as one that ticked every cycle: sleeping
 * changes no result. A zero-latency port delivers in the same cycle when the
 * receiver ranks after the sender, else one receiver cycle later.
 *
 * The watchdog: whoever issues work into the memory system counts it in
 * eng->n_outstanding (eng_work_issued) and calls eng_progress() when work
 * completes. If work is outstanding and nothing completes for watchdog_ps,
 * or the event queue runs dry with work outstanding, the engine panics and
 * every component's dump() prints what it holds (exit 3).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef SIM_ENG_H
#define SIM_ENG_H

#include <stdio.h>

#include "base/types.h"

struct eng;
typedef void eng_fn(void *obj, uint64_t arg);

struct clock {
    const char *name; /* "core", "icnt", "l2", "dram" */
    tick_t period_ps; /* one cycle of this domain */
};

/* Period in ps of a clock of `mhz` MHz (rounded to the nearest ps). */
tick_t clock_period_ps(double mhz);

/* The first edge of `clk` at or after `t`. */
static inline tick_t clock_edge_at_or_after(const struct clock *clk, tick_t t)
{
    tick_t r = t % clk->period_ps;
    return r ? t + clk->period_ps - r : t;
}

struct comp {
    const char *name;        /* hierarchical: "gpu.sm[3].l1" */
    const struct clock *clk; /* its domain */
    struct eng *eng;
    bool (*tick)(struct comp *);         /* one cycle; returns true if anything moved */
    void (*dump)(struct comp *, FILE *); /* watchdog / panic diagnostics; may be NULL */
    tick_t last;                         /* last tick that ran */
    uint32_t rank; /* place among simultaneous ticks (lower first), machine-wide */
    uint32_t part; /* its partition (docs/parallel.md): 0 unless the machine sets it; its ticks
                      are counted in eng->part_ticks[part] */
    struct comp *all_next; /* engine's list of every component */
    /* --- private to eng.c --- */
    struct eng *q;     /* the engine whose queue holds its ticks: `eng`, or the engine of its
                          partition (eng_split) */
    uint32_t slot;     /* its bit in q's slots: a dense index in q, in rank order (= rank
                          while q is eng) */
    uint64_t rank_bit; /* 1 << (slot % 64) */
    tick_t asked;      /* the tick time last scheduled (TICK_MAX: none yet); still pending
                          while it is later than `last` */
};

/* One scheduled call (eng_at). */
struct eng_event {
    eng_fn *fn;
    void *obj;
    uint64_t arg;
};

#define ENG_SLOT_WORDS 2 /* tick bits kept inside a slot: ranks below 128 */

/* Everything due at one time: the eng_at calls in scheduling order,
 * ev[head..n), and a bit per rank of the components to tick. The arrays stay
 * with the slot when it is recycled (a finished slot has no bit set), so they
 * are only allocated in warm-up. */
struct eng_slot {
    tick_t when;
    bool far;              /* in the far queue (heap and hash), not the wheel */
    struct eng_slot *next; /* the next later slot of its wheel bucket */
    uint32_t n_ticks;      /* tick bits set */
    uint32_t n_words;      /* words in tick[] (>= what the ranks need) */
    uint32_t head, n, cap; /* eng_at calls */
    uint64_t *tick;        /* bit per rank; tick_small or allocated */
    struct eng_event *ev;
    struct eng_slot *next_free; /* free list */
    uint64_t tick_small[ENG_SLOT_WORDS];
};

/* The wheel: a bucket per 2^ENG_WHEEL_SHIFT ps, ENG_WHEEL_BUCKETS of them,
 * covering the times from now's bucket on (about 1 us: most latencies). */
#define ENG_WHEEL_SHIFT   9
#define ENG_WHEEL_BUCKETS 2048 /* a power of two */

/* Partitions whose ticks the engine counts apart (comp.part is below it). */
#define ENG_PARTS_MAX 256

/* Called by the merge executor at a window boundary (and before it returns):
 * hands over what the partitions' outboxes hold; returns true when it
 * delivered anything. */
typedef bool eng_window_fn(void *obj);

struct eng {
    tick_t now;
    uint32_t
        passed;              /* ranks below this have ticked (or been passed) at now (machine-wide
                                ranks; a partition's queue gets the value of the engine it was split from) */
    size_t n_times;          /* distinct times with events pending (0: queue empty) */
    struct eng_slot **wheel; /* [ENG_WHEEL_BUCKETS]: the slots of times within the wheel's
                                reach, a list per bucket in increasing time */
    uint64_t *wheel_used;    /* a bit per bucket whose list is not empty */
    size_t n_wheel;          /* slots in the wheel */
    struct eng_slot **heap;  /* the far queue: binary min-heap of the slots beyond the
                                wheel's reach, on their (distinct) times */
    size_t n_heap, cap_heap;
    struct eng_slot **hash; /* open-addressed time -> far slot, [hash_mask + 1] */
    size_t hash_mask;
    struct eng_slot *last_slot;  /* the slot found last (most schedules hit it again) */
    struct eng_slot *free_slots; /* recycled slots */
    void **chunks;               /* every block of slots, for eng_destroy */
    size_t n_chunks, cap_chunks;
    struct comp *comps;    /* every registered component */
    struct comp **by_rank; /* [n_comps] */
    uint32_t n_comps, cap_comps;
    uint32_t slot_words; /* words of tick bits every slot has: 64 * slot_words >= n_comps */
    bool stop;           /* set by eng_stop() */

    /* watchdog */
    uint64_t n_outstanding; /* memory work issued and not completed */
    tick_t last_progress;   /* time of the last eng_progress() */
    tick_t watchdog_ps;     /* 0 disables the time-based check */

    /* partitions (eng_split): each has a queue of its own; this engine keeps the time, the
     * tie order (passed, by global rank), the watchdog and the statistics of them all, and
     * eng_run runs them with the merge executor */
    struct eng **parts;
    uint32_t n_parts;
    tick_t window_ps;         /* the window grid (docs/parallel.md 2.1); 0: no windows */
    tick_t window_end;        /* end of the current window */
    eng_window_fn *at_window; /* outbox delivery, or NULL */
    void *window_obj;

    /* statistics */
    uint64_t n_events; /* events executed (ticks included) */
    /* ticks run per partition (comp.part; host work, not a simulated figure):
     * a fixed array, so that counting a tick allocates nothing */
    uint64_t part_ticks[ENG_PARTS_MAX];
};

void eng_init(struct eng *e);
void eng_destroy(struct eng *e);

/* Run `fn(obj, arg)` at time `when` (>= now), before the ticks due then that
 * have not run yet; calls for one time run in the order they were made. */
void eng_at(struct eng *e, tick_t when, eng_fn *fn, void *obj, uint64_t arg);

/* Run events until the queue is empty, eng_stop() is called, or the next
 * event lies beyond `until`. Callers set last_progress when work starts. Returns true if it stopped
 * because the queue ran dry. Panics (watchdog) as described above. */
bool eng_run(struct eng *e, tick_t until);
void eng_stop(struct eng *e);

bool eng_parts_pending(const struct eng *e);

/* Whether any event is pending. */
static inline bool eng_pending(const struct eng *e)
{
    return e->n_times > 0 || (e->n_parts && eng_parts_pending(e));
}

/* Time of the earliest pending event (TICK_MAX when none). */
tick_t eng_next_time(const struct eng *e);

static inline void eng_progress(struct eng *e)
{
    e->last_progress = e->now;
}

/* Work issued into the memory system, counted for the watchdog. Issued when
 * nothing was outstanding, it starts the watchdog's count afresh: a warp that
 * computed for longer than watchdog_ps before its next access is not stuck. */
static inline void eng_work_issued(struct eng *e)
{
    if (!e->n_outstanding++)
        e->last_progress = e->now;
}

/* Print every component's dump (used by the watchdog and panics). */
void eng_dump_all(struct eng *e, FILE *out);

/* Register c; its rank is the number of components registered before it. */
void comp_init(struct comp *c, struct eng *e, const char *name, const struct clock *clk,
               bool (*tick)(struct comp *), void (*dump)(struct comp *, FILE *));

/* Give order[0..n) ranks 0..n-1 in that order; every other component keeps
 * its relative order after them. Only while no tick is pending (panics
 * otherwise), i.e. after building a machine and before running it. */
void eng_order(struct eng *e, struct comp *const *order, size_t n);

/* Give e's components to the engines parts[0..n) (initialised, empty): c
 * goes to parts[c->part], where its ticks are queued from now on. Ranks stay
 * machine-wide (the order eng_order gave); e keeps the time and runs the
 * parts with the merge executor (eng_run): always the part whose next
 * (time, rank) is smallest, which is exactly the order of one queue. Only
 * while no tick is pending, like eng_order. Components registered later stay
 * in e's own queue (drivers that rank last). */
void eng_split(struct eng *e, struct eng **parts, uint32_t n);

/* Windows of `window_ps` on the grid of docs/parallel.md 2.1 for the merge
 * executor: fn(obj) is called before the first event at or after each window
 * end (and whenever eng_run returns), to deliver the outboxes of cut ports. */
void eng_set_windows(struct eng *e, tick_t window_ps, eng_window_fn *fn, void *obj);

/* Tick `c` at its first clock edge at or after `t` that is later than its
 * last tick, and, when that edge is now, not before its rank (else the edge
 * after). Adds nothing when that tick is already pending. */
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
