/*
 * eng.c - event queue, component scheduling and the watchdog (see eng.h).
 *
 * The queue is a slot per distinct pending time. A slot holds the eng_at
 * calls due then (a FIFO) and a bitmap of the components to tick, by rank.
 * Nearly every event is a component tick on a clock edge, and a busy cycle
 * schedules dozens of them for the same few edges, so scheduling a tick is
 * usually a hit on the slot used last and setting a bit, and running the
 * ticks of a time in rank order is a walk over a word or two of bits. A bit
 * set twice is one tick, so a component ticks at most once per time whatever
 * wakes it.
 * Slots are kept in a timing wheel: a bucket per 512 ps from now's bucket on,
 * each a short list in increasing time (the edges of the clock domains that
 * fall in it), and a bit per non-empty bucket; finding a time's slot is a
 * shift and a walk of that list (a new time's slot is linked in where that
 * walk stopped), and the earliest slot is the head of the first non-empty
 * bucket, which is also where it is unlinked when its time is done. Times
 * beyond the wheel's reach (about 1 us) wait in the far queue, an
 * open-addressed hash and a binary min-heap, and move into the wheel when
 * time comes close enough, before anything looks for them there.
 * The wheel replaced the hash and heap for every time: they cost a probe, an
 * insertion and a removal of a heap of hundreds of slots per distinct time,
 * and nearly every distinct time is scheduled once.
 * A component remembers the tick time it asked for last (`asked`), so that a
 * wake for that time again (several messages sent to it in one cycle, a tick
 * asking for the next cycle that a send already asked for) returns without
 * looking up the slot. One time is enough: it catches most repeats, and the
 * sorted ring of 8 pending times it replaced cost more to keep (an insertion
 * per wake and a removal per tick) than the look-ups it saved now that a
 * look-up is a hit on the last slot or a short walk of a wheel bucket.
 * A slot stays at the top of the heap until everything due at its time has
 * run, so a tick may wake a higher-ranked component for the current time
 * (a zero-latency port) and see it tick in the same time step.
 * INVARIANT: every pending slot holds at least one call or tick bit, and its
 * time is at or after `now`; a slot is in the wheel exactly when its time is
 * within the wheel's reach of `now` (in_wheel), so one time has one slot.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "sim/eng.h"

#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/log.h"

/* Slots are carved from blocks of this many; a slot's event array starts at
 * ENG_SLOT_EVENTS and doubles. */
#define ENG_BLOCK       256
#define ENG_SLOT_EVENTS 16

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
    e->wheel = calloc(ENG_WHEEL_BUCKETS, sizeof *e->wheel);
    e->wheel_used = calloc(ENG_WHEEL_BUCKETS / 64, sizeof *e->wheel_used);
    if (!e->wheel || !e->wheel_used)
        panic("out of memory");
    e->cap_heap = 256;
    e->heap = xmalloc(e->cap_heap * sizeof *e->heap);
    e->hash_mask = 1023;
    e->hash = calloc(e->hash_mask + 1, sizeof *e->hash);
    if (!e->hash)
        panic("out of memory");
    e->slot_words = ENG_SLOT_WORDS;
    log_push_dump(eng_dump_hook, e);
}

void eng_destroy(struct eng *e)
{
    log_pop_dump(e);
    for (size_t i = 0; i < e->n_chunks; i++) {
        struct eng_slot *b = e->chunks[i];
        for (size_t k = 0; k < ENG_BLOCK; k++) {
            free(b[k].ev);
            if (b[k].tick != b[k].tick_small)
                free(b[k].tick);
        }
        free(b);
    }
    free(e->chunks);
    free(e->by_rank);
    free(e->heap);
    free(e->hash);
    free(e->wheel);
    free(e->wheel_used);
    memset(e, 0, sizeof *e);
}

static void *new_chunk(struct eng *e, size_t bytes)
{
    if (e->n_chunks == e->cap_chunks) {
        e->cap_chunks = e->cap_chunks ? 2 * e->cap_chunks : 16;
        e->chunks = realloc(e->chunks, e->cap_chunks * sizeof *e->chunks);
        if (!e->chunks)
            panic("out of memory");
    }
    return e->chunks[e->n_chunks++] = xmalloc(bytes);
}

/* Give s n words of rank bits (a component registered after the slot was
 * made; rare, so every slot is grown at once, see comp_init). */
static void grow_ticks(struct eng_slot *s, uint32_t n)
{
    if (n <= s->n_words)
        return;
    uint64_t *t = calloc(n, sizeof *t);
    if (!t)
        panic("out of memory");
    memcpy(t, s->tick, s->n_words * sizeof *t);
    if (s->tick != s->tick_small)
        free(s->tick);
    s->tick = t;
    s->n_words = n;
}

/* Carve a block of slots onto the free list (warm-up, and whenever more times
 * are pending than ever before). Apart from slot_alloc so that taking a slot
 * stays a few instructions inline on the path that makes a new time's slot. */
static void __attribute__((noinline)) refill_free_slots(struct eng *e)
{
    struct eng_slot *b = new_chunk(e, ENG_BLOCK * sizeof *b);
    memset(b, 0, ENG_BLOCK * sizeof *b);
    for (size_t i = ENG_BLOCK; i-- > 0;) {
        b[i].tick = b[i].tick_small;
        b[i].n_words = ENG_SLOT_WORDS;
        if (e->slot_words > ENG_SLOT_WORDS)
            grow_ticks(&b[i], e->slot_words);
        b[i].next_free = e->free_slots;
        e->free_slots = &b[i];
    }
}

static inline struct eng_slot *slot_alloc(struct eng *e)
{
    if (!e->free_slots)
        refill_free_slots(e);
    struct eng_slot *s = e->free_slots;
    e->free_slots = s->next_free;
    return s;
}

static inline size_t hash_of(const struct eng *e, tick_t when)
{
    return (size_t)((when * 0x9e3779b97f4a7c15ull) >> 32) & e->hash_mask;
}

static void hash_put(struct eng *e, struct eng_slot *s)
{
    size_t i = hash_of(e, s->when);
    while (e->hash[i])
        i = (i + 1) & e->hash_mask;
    e->hash[i] = s;
}

/* Remove s (linear probing: shift the rest of its cluster back). */
static void hash_del(struct eng *e, const struct eng_slot *s)
{
    size_t i = hash_of(e, s->when);
    while (e->hash[i] != s)
        i = (i + 1) & e->hash_mask;
    for (size_t j = (i + 1) & e->hash_mask; e->hash[j]; j = (j + 1) & e->hash_mask) {
        size_t h = hash_of(e, e->hash[j]->when);
        /* the entry at j may move to i if its home is not in (i, j] */
        if (((j - h) & e->hash_mask) >= ((j - i) & e->hash_mask)) {
            e->hash[i] = e->hash[j];
            i = j;
        }
    }
    e->hash[i] = NULL;
}

static void hash_grow(struct eng *e)
{
    struct eng_slot **old = e->hash;
    size_t n = e->hash_mask + 1;
    e->hash_mask = 2 * n - 1;
    e->hash = calloc(2 * n, sizeof *e->hash);
    if (!e->hash)
        panic("out of memory");
    for (size_t i = 0; i < n; i++)
        if (old[i])
            hash_put(e, old[i]);
    free(old);
}

static void heap_push(struct eng *e, struct eng_slot *s)
{
    if (e->n_heap == e->cap_heap) {
        e->cap_heap *= 2;
        e->heap = realloc(e->heap, e->cap_heap * sizeof *e->heap);
        if (!e->heap)
            panic("out of memory");
    }
    size_t i = e->n_heap++;
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (e->heap[p]->when <= s->when)
            break;
        e->heap[i] = e->heap[p];
        i = p;
    }
    e->heap[i] = s;
}

static void heap_pop(struct eng *e)
{
    struct eng_slot *last = e->heap[--e->n_heap];
    size_t i = 0, n = e->n_heap;
    for (;;) {
        size_t l = 2 * i + 1;
        if (l >= n)
            break;
        size_t m = (l + 1 < n && e->heap[l + 1]->when < e->heap[l]->when) ? l + 1 : l;
        if (e->heap[m]->when >= last->when)
            break;
        e->heap[i] = e->heap[m];
        i = m;
    }
    e->heap[i] = last;
}

/* Whether time `when` (>= now) is within the wheel's reach. */
static inline bool in_wheel(const struct eng *e, tick_t when)
{
    return (when >> ENG_WHEEL_SHIFT) - (e->now >> ENG_WHEEL_SHIFT) < ENG_WHEEL_BUCKETS;
}

static inline size_t bucket_of(tick_t when)
{
    return (size_t)(when >> ENG_WHEEL_SHIFT) & (ENG_WHEEL_BUCKETS - 1);
}

/* Link s (not in the wheel, its time within reach) into bucket b at *at,
 * where it keeps the bucket's list in increasing time. */
static inline void wheel_link(struct eng *e, struct eng_slot *s, size_t b, struct eng_slot **at)
{
    s->next = *at;
    *at = s;
    s->far = false;
    e->wheel_used[b >> 6] |= 1ull << (b & 63);
    e->n_wheel++;
}

/* Put s (not in the wheel, its time within reach) in its bucket, in order. */
static void wheel_put(struct eng *e, struct eng_slot *s)
{
    size_t b = bucket_of(s->when);
    struct eng_slot **at = &e->wheel[b];
    while (*at && (*at)->when < s->when)
        at = &(*at)->next;
    wheel_link(e, s, b, at);
}

/* Take s, the head of its bucket, out of the wheel. */
static inline void wheel_del_head(struct eng *e, struct eng_slot *s)
{
    size_t b = bucket_of(s->when);
    e->wheel[b] = s->next;
    if (!s->next)
        e->wheel_used[b >> 6] &= ~(1ull << (b & 63));
    e->n_wheel--;
}

/* The lowest index whose tick is due in slot s (one is), taken out of it. */
static inline uint32_t slot_take_tick(struct eng_slot *s)
{
    uint32_t w = 0;
    while (!s->tick[w])
        w++;
    uint64_t bits = s->tick[w];
    s->tick[w] = bits & (bits - 1);
    s->n_ticks--;
    return (w << 6) | (uint32_t)__builtin_ctzll(bits);
}

/* The earliest pending slot, or NULL: the head of the first used bucket from
 * now's on (buckets before now's hold the latest times of the reach), else
 * the top of the far queue. */
static struct eng_slot *first_slot(const struct eng *e)
{
    if (!e->n_wheel)
        return e->n_heap ? e->heap[0] : NULL;
    size_t b = bucket_of(e->now), w = b >> 6;
    uint64_t bits = e->wheel_used[w] & (~0ull << (b & 63));
    while (!bits) { /* n_wheel > 0: some word has a bit; wraps to word 0 */
        w = (w + 1) & (ENG_WHEEL_BUCKETS / 64 - 1);
        bits = e->wheel_used[w];
    }
    return e->wheel[(w << 6) | (size_t)__builtin_ctzll(bits)];
}

static tick_t queue_next_time(const struct eng *e)
{
    const struct eng_slot *s = first_slot(e);
    return s ? s->when : TICK_MAX;
}

tick_t eng_next_time(const struct eng *e)
{
    tick_t t = queue_next_time(e);
    for (uint32_t i = 0; i < e->n_parts; i++)
        t = MIN(t, queue_next_time(e->parts[i]));
    return t;
}

bool eng_parts_pending(const struct eng *e)
{
    for (uint32_t i = 0; i < e->n_parts; i++)
        if (e->parts[i]->n_times)
            return true;
    return false;
}

/* Time has advanced: move the far slots now within the wheel's reach into it.
 * Inline in eng_run, as it was before the merge executor also called it. */
static inline __attribute__((always_inline)) void far_to_wheel(struct eng *e)
{
    while (e->n_heap && in_wheel(e, e->heap[0]->when)) {
        struct eng_slot *s = e->heap[0];
        heap_pop(e);
        hash_del(e, s);
        wheel_put(e, s);
    }
}

/* A slot just taken for a time pending from now on: nothing due yet. */
static inline struct eng_slot *slot_start(struct eng *e, struct eng_slot *s, tick_t when)
{
    s->when = when;
    s->head = s->n = 0;
    s->n_ticks = 0;
    e->n_times++;
    return e->last_slot = s;
}

/* The slot of time `when`, beyond the wheel's reach, created (empty) if there
 * is none. */
static struct eng_slot *slot_far(struct eng *e, tick_t when)
{
    struct eng_slot *s;
    for (size_t i = hash_of(e, when);; i = (i + 1) & e->hash_mask) {
        s = e->hash[i];
        if (!s)
            break;
        if (s->when == when)
            return e->last_slot = s;
    }
    if (2 * (e->n_heap + 1) > e->hash_mask + 1)
        hash_grow(e);
    s = slot_start(e, slot_alloc(e), when);
    s->far = true;
    hash_put(e, s);
    heap_push(e, s);
    return s;
}

/* A new slot for time `when`, within the wheel's reach, linked into bucket b
 * at *at (where the walk of the bucket that found no slot for it stopped).
 * Out of line: inlined into every schedule, it made the common paths (a hit
 * on the slot used last, or on one in the wheel) save and restore more
 * registers. */
static struct eng_slot *__attribute__((noinline))
slot_new_in_wheel(struct eng *e, size_t b, struct eng_slot **at, tick_t when)
{
    struct eng_slot *s = slot_alloc(e);
    wheel_link(e, s, b, at);
    return slot_start(e, s, when);
}

/* The slot of time `when` (>= now), created (empty) if there is none. Inline:
 * most schedules find the slot used last or one in the wheel. A new time's
 * slot (most distinct times are scheduled once) is linked in where the walk
 * of its bucket stopped, so making it costs no second walk. */
static inline struct eng_slot *slot_for(struct eng *e, tick_t when)
{
    struct eng_slot *s = e->last_slot;
    if (s && s->when == when)
        return s;
    if (!in_wheel(e, when))
        return slot_far(e, when);
    size_t b = bucket_of(when);
    struct eng_slot **at = &e->wheel[b];
    while ((s = *at) && s->when < when)
        at = &s->next;
    if (s && s->when == when)
        return e->last_slot = s;
    return slot_new_in_wheel(e, b, at, when);
}

static void grow_slot(struct eng_slot *s)
{
    s->cap = s->cap ? 2 * s->cap : ENG_SLOT_EVENTS;
    s->ev = realloc(s->ev, s->cap * sizeof *s->ev);
    if (!s->ev)
        panic("out of memory");
}

/* Append an eng_at call to the slot of `when` (>= now). */
static void push_call(struct eng *e, tick_t when, eng_fn *fn, void *obj, uint64_t arg)
{
    struct eng_slot *s = e->last_slot;
    if (!s || s->when != when)
        s = slot_for(e, when);
    if (s->n == s->cap)
        grow_slot(s);
    s->ev[s->n++] = (struct eng_event){fn, obj, arg};
}

/* Mark c's tick at `when` (>= now). Inline: the tick path schedules once per
 * tick. */
static inline void push_tick(struct eng *e, tick_t when, const struct comp *c)
{
    struct eng_slot *s = e->last_slot;
    if (!s || s->when != when)
        s = slot_for(e, when);
    uint64_t *w = &s->tick[c->slot >> 6], old = *w;
    *w = old | c->rank_bit;
    s->n_ticks += !(old & c->rank_bit); /* a bit set twice is one tick */
}

void eng_at(struct eng *e, tick_t when, eng_fn *fn, void *obj, uint64_t arg)
{
    if (when < e->now)
        panic("event scheduled in the past (%llu < %llu)", (unsigned long long)when,
              (unsigned long long)e->now);
    push_call(e, when, fn, obj, arg);
}

/* Mark c's tick at `edge` (a clock edge of c, later than its last tick and
 * at or after now, not before its rank when it is now). Setting a bit twice
 * is one tick, so asking again changes nothing; `asked` only saves the slot
 * look-up when the time is the one asked for last. That time is still
 * pending when it equals `edge`: a tick asked for stays pending until it runs
 * at its time, and once it has run `last` is at or after it, while `edge` is
 * later than `last`. */
static inline void schedule_tick(struct comp *c, tick_t edge)
{
    if (edge == c->asked)
        return;
    c->asked = edge;
    push_tick(c->q, edge, c);
}

/* c's tick at `when` (= now); a tick that reports progress asks for the next
 * edge, without comp_wake_at's edge arithmetic. */
static inline void run_tick(struct comp *c, tick_t when)
{
    c->last = when;
    if (c->tick(c))
        schedule_tick(c, when + c->clk->period_ps);
}

void comp_init(struct comp *c, struct eng *e, const char *name, const struct clock *clk,
               bool (*tick)(struct comp *), void (*dump)(struct comp *, FILE *))
{
    c->name = name;
    c->clk = clk;
    c->eng = e;
    c->tick = tick;
    c->dump = dump;
    c->last = TICK_MAX;
    c->part = 0;
    c->asked = TICK_MAX;
    c->all_next = e->comps;
    e->comps = c;
    if (e->n_comps == e->cap_comps) {
        e->cap_comps = e->cap_comps ? 2 * e->cap_comps : 64;
        e->by_rank = realloc(e->by_rank, e->cap_comps * sizeof *e->by_rank);
        if (!e->by_rank)
            panic("out of memory");
    }
    c->q = e;
    c->rank = c->slot = e->n_comps;
    c->rank_bit = 1ull << (c->rank & 63);
    e->by_rank[e->n_comps++] = c;
    if (e->n_comps > 64 * e->slot_words) { /* every slot gets room for the new ranks */
        e->slot_words *= 2;
        for (size_t i = 0; i < e->n_chunks; i++)
            for (size_t k = 0; k < ENG_BLOCK; k++)
                grow_ticks((struct eng_slot *)e->chunks[i] + k, e->slot_words);
    }
}

void eng_order(struct eng *e, struct comp *const *order, size_t n)
{
    for (size_t i = 0; i < e->n_heap; i++)
        if (e->heap[i]->n_ticks)
            panic("eng_order with ticks pending");
    for (size_t b = 0; b < ENG_WHEEL_BUCKETS; b++)
        for (const struct eng_slot *s = e->wheel[b]; s; s = s->next)
            if (s->n_ticks)
                panic("eng_order with ticks pending");
    struct comp **by = malloc((e->n_comps ? e->n_comps : 1) * sizeof *by);
    bool *taken = calloc(e->n_comps ? e->n_comps : 1, sizeof *taken);
    if (!by || !taken)
        panic("out of memory");
    uint32_t k = 0;
    for (size_t i = 0; i < n; i++) {
        struct comp *c = order[i];
        if (c->eng != e || c->rank >= e->n_comps || e->by_rank[c->rank] != c || taken[c->rank])
            panic("eng_order: %s is not registered or listed twice", c->name);
        taken[c->rank] = true;
        by[k++] = c;
    }
    for (uint32_t r = 0; r < e->n_comps; r++)
        if (!taken[r])
            by[k++] = e->by_rank[r];
    if (e->n_parts)
        panic("eng_order after eng_split");
    for (uint32_t r = 0; r < e->n_comps; r++) {
        by[r]->rank = by[r]->slot = r;
        by[r]->rank_bit = 1ull << (r & 63);
    }
    free(taken);
    free(e->by_rank);
    e->by_rank = by;
    e->cap_comps = e->n_comps;
}

void comp_wake_at(struct comp *c, tick_t t)
{
    tick_t p = c->clk->period_ps, edge;
    if (c->last != TICK_MAX && t <= c->last + p) /* the edge after the last tick (no divide) */
        edge = c->last + p;
    else
        edge = clock_edge_at_or_after(c->clk, t);
    const struct eng *q = c->q; /* its queue's time and passed are its engine's (merge_run) */
    if (edge == q->now && c->rank < q->passed)
        edge += p; /* this time step is past its place: as if it ticked and saw nothing */
    if (edge < q->now)
        panic("%s: tick scheduled in the past (%llu < %llu)", c->name, (unsigned long long)edge,
              (unsigned long long)q->now);
    schedule_tick(c, edge);
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

/* The slot's time (now) is done: out of the wheel, onto the free list. It
 * heads its bucket: now is within reach (far_to_wheel moved s in), every
 * other slot of the bucket is later, and a bucket holds the times of one turn
 * of the wheel only. */
static inline __attribute__((always_inline)) void retire(struct eng *e, struct eng_slot *s)
{
    wheel_del_head(e, s);
    e->n_times--;
    if (e->last_slot == s)
        e->last_slot = NULL;
    s->next_free = e->free_slots;
    e->free_slots = s;
}

static bool merge_run(struct eng *e, tick_t until);

bool eng_run(struct eng *e, tick_t until)
{
    if (e->n_parts)
        return merge_run(e, until);
    e->stop = false;
    while (e->n_times > 0 && !e->stop) {
        struct eng_slot *s = first_slot(e); /* stays first while anything is due at its time */
        if (s->when > until)
            return false;
        if (s->when != e->now) {
            e->now = s->when;
            e->passed = 0;
            far_to_wheel(e);
        }
        /* Whether the watchdog may fire in this time step. now stays put until
         * the step ends and last_progress only ever moves to now (eng_progress,
         * the callers that start work), so now - last_progress cannot grow
         * within the step: when it is within the limit here, no event of the
         * step can find it past the limit, and the check after each event is
         * left out; when it is past, every event checks as before. */
        bool overdue = e->watchdog_ps && e->now - e->last_progress > e->watchdog_ps;
        do { /* everything due now: what is scheduled for now meanwhile joins s */
            if (s->head < s->n) { /* eng_at calls first */
                struct eng_event ev = s->ev[s->head++];
                ev.fn(ev.obj, ev.arg);
            } else {
                uint32_t r = slot_take_tick(s);
                e->passed = r + 1;
                struct comp *c = e->by_rank[r];
                e->part_ticks[c->part]++;
                run_tick(c, s->when);
            }
            e->n_events++;
            if (overdue && e->n_outstanding && e->now - e->last_progress > e->watchdog_ps)
                panic("watchdog: no memory operation completed for %llu ps with %llu "
                      "outstanding (deadlock or livelock)",
                      (unsigned long long)(e->now - e->last_progress),
                      (unsigned long long)e->n_outstanding);
        } while ((s->n_ticks || s->head < s->n) && !e->stop);
        if (!s->n_ticks && s->head == s->n)
            retire(e, s);
    }
    if (!e->stop && e->n_outstanding)
        panic("deadlock: every component is asleep with %llu memory operations outstanding",
              (unsigned long long)e->n_outstanding);
    return !e->stop;
}

/* --- partitions and the merge executor (docs/parallel.md, step 1) --- */

/* Make room in e's slots for a bit at index `slot` (see comp_init). */
static void room_for_slot(struct eng *e, uint32_t slot)
{
    while (slot >= 64 * e->slot_words) {
        e->slot_words *= 2;
        for (size_t i = 0; i < e->n_chunks; i++)
            for (size_t k = 0; k < ENG_BLOCK; k++)
                grow_ticks((struct eng_slot *)e->chunks[i] + k, e->slot_words);
    }
}

void eng_split(struct eng *e, struct eng **parts, uint32_t n)
{
    if (e->n_parts || !n)
        panic("eng_split: split twice, or into nothing");
    for (size_t b = 0; b < ENG_WHEEL_BUCKETS; b++)
        for (const struct eng_slot *s = e->wheel[b]; s; s = s->next)
            if (s->n_ticks)
                panic("eng_split with ticks pending");
    for (size_t i = 0; i < e->n_heap; i++)
        if (e->heap[i]->n_ticks)
            panic("eng_split with ticks pending");
    for (uint32_t r = 0; r < e->n_comps; r++) { /* in rank order: dense local slots, same order */
        struct comp *c = e->by_rank[r];
        if (c->part >= n)
            panic("eng_split: %s is in partition %u of %u", c->name, c->part, n);
        struct eng *q = parts[c->part];
        if (q->n_comps == q->cap_comps) {
            q->cap_comps = q->cap_comps ? 2 * q->cap_comps : 64;
            q->by_rank = realloc(q->by_rank, q->cap_comps * sizeof *q->by_rank);
            if (!q->by_rank)
                panic("out of memory");
        }
        room_for_slot(q, q->n_comps);
        c->q = q;
        c->slot = q->n_comps;
        c->rank_bit = 1ull << (c->slot & 63);
        c->asked = TICK_MAX;
        q->by_rank[q->n_comps++] = c;
        q->now = e->now;
    }
    e->parts = parts;
    e->n_parts = n;
}

void eng_set_windows(struct eng *e, tick_t window_ps, eng_window_fn *fn, void *obj)
{
    e->window_ps = window_ps;
    e->window_end = window_ps ? (e->now / window_ps + 1) * window_ps : TICK_MAX;
    e->at_window = fn;
    e->window_obj = obj;
}

/* The key of q's next event: its time, and 0 for an eng_at call (calls run
 * first) or 1 + the rank of the tick. False when q is empty. */
static inline bool queue_key(const struct eng *q, tick_t *t, uint64_t *k)
{
    const struct eng_slot *s = first_slot(q);
    if (!s)
        return false;
    *t = s->when;
    if (s->head < s->n) {
        *k = 0;
        return true;
    }
    uint32_t w = 0;
    while (!s->tick[w])
        w++;
    uint32_t slot = (w << 6) | (uint32_t)__builtin_ctzll(s->tick[w]);
    *k = 1 + (uint64_t)q->by_rank[slot]->rank;
    return true;
}

/* Every queue's time moves to t (no event of any is earlier). */
static void merge_advance(struct eng *e, tick_t t)
{
    e->now = t;
    e->passed = 0;
    far_to_wheel(e);
    for (uint32_t i = 0; i < e->n_parts; i++) {
        e->parts[i]->now = t;
        e->parts[i]->passed = 0;
        far_to_wheel(e->parts[i]);
    }
}

/* Deliver the outboxes (returns true when that scheduled anything). */
static inline bool merge_deliver(struct eng *e)
{
    return e->at_window && e->at_window(e->window_obj);
}

/* The merge executor: one event at a time, from the queue (e's own, for
 * eng_at calls and late drivers, or a partition's) whose next (time, rank)
 * is smallest. Every queue's time and `passed` (by machine-wide rank) are
 * e's, set at each time and tick (a wake reads its own queue's, which keeps
 * the single-queue path free of a second pointer), so wakes, ties and the
 * watchdog behave as in eng_run's single queue and the order of events is
 * the same. At each
 * window end of the grid, and before returning, the outboxes of cut ports
 * are delivered: delivering early is harmless (what they hold is ready at
 * or after the window's end), late never happens. */
static bool merge_run(struct eng *e, tick_t until)
{
    e->stop = false;
    tick_t horizon = until == TICK_MAX ? TICK_MAX : until + 1;
    bool beyond = false; /* the next event lies beyond `until` */
    while (!e->stop) {
        struct eng *q = NULL;
        tick_t t = TICK_MAX;
        uint64_t k = 0;
        {
            tick_t qt;
            uint64_t qk;
            if (queue_key(e, &qt, &qk))
                q = e, t = qt, k = qk;
            for (uint32_t i = 0; i < e->n_parts; i++)
                if (queue_key(e->parts[i], &qt, &qk) && (qt < t || (qt == t && qk < k)))
                    q = e->parts[i], t = qt, k = qk;
        }
        if (!q || t >= MIN(e->window_end, horizon)) { /* a window or the run ends first */
            if (merge_deliver(e))
                continue;
            if (!q)
                break;
            if (t > until) {
                beyond = true;
                break;
            }
            e->window_end = e->window_ps ? (t / e->window_ps + 1) * e->window_ps : TICK_MAX;
        }
        if (t != e->now)
            merge_advance(e, t);
        struct eng_slot *s = first_slot(q);
        if (k == 0) {
            struct eng_event ev = s->ev[s->head++];
            ev.fn(ev.obj, ev.arg);
        } else {
            struct comp *c = q->by_rank[slot_take_tick(s)];
            e->passed = c->rank + 1; /* by global rank, in every queue: a wake reads its own */
            for (uint32_t i = 0; i < e->n_parts; i++)
                e->parts[i]->passed = e->passed;
            e->part_ticks[c->part]++;
            run_tick(c, t);
        }
        e->n_events++;
        if (e->watchdog_ps && e->n_outstanding && e->now - e->last_progress > e->watchdog_ps)
            panic("watchdog: no memory operation completed for %llu ps with %llu "
                  "outstanding (deadlock or livelock)",
                  (unsigned long long)(e->now - e->last_progress),
                  (unsigned long long)e->n_outstanding);
        s = first_slot(q);
        if (s && s->when == t && !s->n_ticks && s->head == s->n)
            retire(q, s);
    }
    merge_deliver(e);
    if (beyond)
        return false;
    if (!e->stop && e->n_outstanding)
        panic("deadlock: every component is asleep with %llu memory operations outstanding",
              (unsigned long long)e->n_outstanding);
    return !e->stop;
}
