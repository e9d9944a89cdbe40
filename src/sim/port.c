/*
 * port.c - bounded delayed FIFO (see port.h).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "sim/port.h"

#include <stdlib.h>

#include "base/log.h"

void port_init(struct port *p, const char *name, uint32_t cap, tick_t latency_ps,
               struct comp *sender, struct comp *receiver)
{
    p->name = name;
    p->receiver = receiver;
    p->sender = sender;
    p->latency_ps = latency_ps;
    p->cap = cap;
    p->alloc = MIN(cap, 16u);
    p->head = p->n = 0;
    p->weight = 0;
    p->slots = calloc(p->alloc ? p->alloc : 1, sizeof *p->slots);
    if (!p->slots)
        panic("out of memory");
    p->occupied_word = NULL;
    p->occupied_bit = 0;
    p->n_sent = p->n_full = 0;
    p->wired_sender = NULL;
    p->outbox = NULL;
    p->quiet = false;
}

void port_wire(struct port *p, const struct comp *c)
{
    const struct comp *other = p->wired_sender ? p->wired_sender : p->sender;
    if (other && other != c)
        panic("port %s (into %s) has two senders, %s and %s (one sender per port: "
              "docs/parallel.md, C2)",
              p->name, p->receiver ? p->receiver->name : "nobody", other->name, c->name);
    p->wired_sender = c;
}

void port_watch(struct port *p, uint64_t *word, uint64_t bit)
{
    if (p->n)
        panic("%s: port_watch on a port that holds messages", p->name);
    p->occupied_word = word;
    p->occupied_bit = bit;
}

void port_destroy(struct port *p)
{
    free(p->slots);
    p->slots = NULL;
}

/* Double the ring (up to cap), unwrapping it to start at slot 0. */
static void grow(struct port *p)
{
    uint32_t alloc = MIN(p->cap, 2 * p->alloc);
    struct port_slot *s = malloc(alloc * sizeof *s);
    if (!s)
        panic("out of memory");
    for (uint32_t i = 0; i < p->n; i++)
        s[i] = *port_slot_at(p, i);
    free(p->slots);
    p->slots = s;
    p->alloc = alloc;
    p->head = 0;
}

static bool send_after_growing(struct port *p, struct msg *m, tick_t extra_ps, uint32_t weight);

/* A send into a cut port: its announcement waits in the outbox. */
static bool __attribute__((noinline)) outbox_add(struct port *p, tick_t ready)
{
    struct port_outbox *ob = p->outbox;
    if (ob->n == ob->cap) {
        ob->cap = ob->cap ? 2 * ob->cap : 256;
        ob->e = realloc(ob->e, ob->cap * sizeof *ob->e);
        if (!ob->e)
            panic("out of memory");
    }
    ob->e[ob->n++] = (struct port_outbox_entry){p, ready};
    return true;
}

void port_cut(struct port *p, struct port_outbox *ob)
{
    p->outbox = ob;
    p->quiet = true; /* sends take the quiet path, which hands the wake to the outbox */
}

bool port_outbox_deliver(struct port_outbox *ob)
{
    uint32_t n = ob->n;
    for (uint32_t i = 0; i < n; i++) {
        const struct port_outbox_entry *x = &ob->e[i];
        comp_wake_at(x->p->receiver, x->ready);
    }
    ob->n = 0;
    ob->n_delivered += n;
    return n > 0;
}

void port_outbox_free(struct port_outbox *ob)
{
    free(ob->e);
    ob->e = NULL;
    ob->n = ob->cap = 0;
}

/* Nothing is live across its one call, the wake at the end, so the compiler
 * saves one register, not six: the ring's growth, which would keep the
 * arguments across a call, is a tail call to send_after_growing (with the
 * growth inline, the saves and restores were about a quarter of this
 * function's instructions: 35.5 M -> 26.3 M on bench-memsys). */
bool port_send_weighted(struct port *p, struct msg *m, tick_t extra_ps, uint32_t weight)
{
    if (p->n == p->cap) {
        p->n_full++;
        return false;
    }
    if (p->n == p->alloc)
        return send_after_growing(p, m, extra_ps, weight);
    tick_t ready = p->receiver->eng->now + p->latency_ps + extra_ps;
    /* A later message never overtakes an earlier one: FIFO order is kept even
     * when the extra delay of the previous one was larger. */
    if (p->n) {
        tick_t prev = port_slot_at(p, p->n - 1)->ready;
        if (prev > ready)
            ready = prev;
    }
    *port_slot_at(p, p->n) = (struct port_slot){m, ready, weight};
    p->n++;
    if (p->occupied_word)
        *p->occupied_word |= p->occupied_bit;
    p->weight += weight;
    p->n_sent++;
    if (!p->quiet)
        comp_wake_at(p->receiver, ready);
    else if (p->outbox) /* a cut port is quiet: its wake waits for the window's end */
        return outbox_add(p, ready);
    return true;
}

static bool __attribute__((noinline))
send_after_growing(struct port *p, struct msg *m, tick_t extra_ps, uint32_t weight)
{
    grow(p);
    return port_send_weighted(p, m, extra_ps, weight);
}

bool port_send_delayed(struct port *p, struct msg *m, tick_t extra_ps)
{
    return port_send_weighted(p, m, extra_ps, 0);
}

bool port_send(struct port *p, struct msg *m)
{
    return port_send_delayed(p, m, 0);
}

bool port_send_pending(struct port *p, struct msg *m)
{
    if (p->outbox || p->quiet)
        panic("%s: a pending send into a cut or quiet port", p->name);
    if (p->n == p->cap) {
        p->n_full++;
        return false;
    }
    if (p->n == p->alloc)
        grow(p);
    *port_slot_at(p, p->n) = (struct port_slot){m, TICK_MAX, 0};
    p->n++;
    if (p->occupied_word)
        *p->occupied_word |= p->occupied_bit;
    p->n_sent++;
    return true;
}

void port_ready_at(struct port *p, const struct msg *m, tick_t ready)
{
    for (uint32_t i = 0; i < p->n; i++) {
        struct port_slot *s = port_slot_at(p, i);
        if (s->m != m)
            continue;
        if (s->ready != TICK_MAX || (i && port_slot_at(p, i - 1)->ready > ready))
            panic("%s: a pending send released twice, out of order or with a falling ready time",
                  p->name);
        s->ready = ready;
        comp_wake_at(p->receiver, ready);
        return;
    }
    panic("%s: port_ready_at of a message the port does not hold", p->name);
}

void port_unquiet(struct port *p)
{
    if (p->outbox)
        panic("%s: the receiver of a cut port sleeps on it (port_quiet): its wakes would "
              "come at window ends",
              p->name);
    p->quiet = false;
    tick_t now = p->receiver->eng->now;
    for (uint32_t i = p->n; i-- > 0;) { /* ready times never fall along the FIFO */
        tick_t ready = port_slot_at(p, i)->ready;
        if (ready <= now)
            break;
        comp_wake_at(p->receiver, ready);
    }
}

struct msg *port_pop(struct port *p)
{
    if (!p->n)
        panic("%s: pop from an empty port", p->name);
    struct msg *m = p->slots[p->head].m;
    p->weight -= p->slots[p->head].weight;
    p->head = p->head + 1 == p->alloc ? 0 : p->head + 1;
    bool was_full = p->n == p->cap;
    p->n--;
    if (p->n) {
        /* The next one is taken at the receiver's first tick at or after its
         * ready time. Its send asked for that tick (comp_wake_at(receiver,
         * ready)), and a tick asked for stays pending until it runs; when the
         * ready time is still ahead, that tick has not run, and a wake now
         * would find the same edge (the first one at or after `ready`: the
         * receiver's last tick is before it), so it is asked for only when
         * the message is ready already (the receiver's tick at that edge may
         * have passed with this head in front of it). */
        tick_t ready = p->slots[p->head].ready;
        if (ready <= p->receiver->eng->now)
            comp_wake_at(p->receiver, ready);
    } else if (p->occupied_word)
        *p->occupied_word &= ~p->occupied_bit;
    if (was_full && p->sender)
        comp_wake(p->sender);
    return m;
}

struct msg *port_remove_at(struct port *p, uint32_t i)
{
    if (i >= p->n)
        panic("%s: remove slot %u of %u", p->name, i, p->n);
    if (!i)
        return port_pop(p);
    struct port_slot *s = port_slot_at(p, i);
    struct msg *m = s->m;
    p->weight -= s->weight;
    for (uint32_t k = i; k + 1 < p->n; k++) /* the head stays, so its wake-up stands */
        *port_slot_at(p, k) = *port_slot_at(p, k + 1);
    bool was_full = p->n == p->cap;
    p->n--;
    if (was_full && p->sender)
        comp_wake(p->sender);
    return m;
}

void port_dump(const struct port *p, FILE *out, void (*fn)(const struct msg *, FILE *))
{
    for (uint32_t i = 0; i < p->n; i++) {
        const struct port_slot *s = port_slot_at(p, i);
        fprintf(out, "    %s[%u] ready@%llu: ", p->name, i, (unsigned long long)s->ready);
        fn(s->m, out);
    }
}
