/*
 * port.h - a bounded, delayed FIFO of messages between two components.
 *
 * The only way components talk (Akita's ports). A send stamps the message
 * with a ready time (now + the port's latency), fails when the FIFO is full
 * (backpressure, never an error), and wakes the receiver for the ready time.
 * The receiver peeks and pops only messages that are ready, in order. A pop
 * that frees a slot in a full port wakes the sender. The ring starts small
 * and doubles up to the capacity when needed (warm-up only). A receiver that
 * drains many ports may have each keep a bit set while it holds a message
 * (port_watch), and visit only the occupied ones.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef SIM_PORT_H
#define SIM_PORT_H

#include "sim/eng.h"
#include "sim/msg.h"

struct port_slot {
    struct msg *m;
    tick_t ready;
    uint32_t weight; /* what the sender counts it as (flits); 0 by default */
};

struct port_outbox;

struct port {
    const char *name;
    struct comp *receiver; /* woken when a message is sent */
    struct comp *sender;   /* woken when a full port frees a slot; may be NULL */
    tick_t latency_ps;     /* from send to ready */
    uint32_t cap;          /* capacity in messages */
    uint32_t alloc;        /* slots allocated (<= cap): the ring grows on demand, so
                              a nearly unbounded port stays small in the cache */
    uint32_t head, n;
    uint32_t weight; /* sum of the queued messages' weights */
    bool quiet;      /* a send does not wake the receiver (port_quiet); in weight's padding */
    struct port_slot *slots;
    uint64_t *occupied_word; /* port_watch: this bit is set while n > 0 (NULL: none) */
    uint64_t occupied_bit;
    /* The one component wired to send into it (condition C2 of docs/parallel.md),
     * recorded by port_wire when the machine is built; NULL until then. Unlike
     * `sender` it is set also where nobody is to be woken. */
    const struct comp *wired_sender;
    /* A cut port (docs/parallel.md 2.3): the sending partition's outbox, where a send is
     * recorded and the receiver's wake for it asked for only at the end of the window
     * (the message itself is in the ring at once, so room queries see it); NULL: at once.
     * A cut port is `quiet` for good: its receiver may not sleep on it (port_unquiet
     * panics), and sends pay nothing for the outbox on the ports that are not cut */
    struct port_outbox *outbox;
    uint64_t n_sent; /* statistics */
    uint64_t n_full; /* sends refused because the port was full */
};

/* The sender half of a partition's cut ports: the sends of the current
 * window, in send order, each waiting for its announcement. Its array grows
 * in warm-up only (doubling). */
struct port_outbox_entry {
    struct port *p;
    tick_t ready;
};
struct port_outbox {
    struct port_outbox_entry *e;
    uint32_t n, cap;
    uint64_t n_delivered; /* statistics of the host: sends announced at a window end */
};

void port_init(struct port *p, const char *name, uint32_t cap, tick_t latency_ps,
               struct comp *sender, struct comp *receiver);
void port_destroy(struct port *p);

/* Record that c sends into p (C2: one sender per port). Panics (exit 3),
 * naming the port and both components, when p is already wired to another
 * component or names another sender. */
void port_wire(struct port *p, const struct comp *c);

/* Make p a cut port whose sends go through `ob` (p's latency must be at
 * least the window: what it holds is then never ready before the window
 * ends). */
void port_cut(struct port *p, struct port_outbox *ob);

/* Announce every send of ob to its receiver, in send order, as the send would
 * have (the wake for its ready time); true when ob held any. */
bool port_outbox_deliver(struct port_outbox *ob);
void port_outbox_free(struct port_outbox *ob);

/* Keep `bit` of *word set while p holds a message, from now on (p must be
 * empty). */
void port_watch(struct port *p, uint64_t *word, uint64_t bit);

static inline bool port_has_room(const struct port *p, uint32_t k)
{
    return p->n + k <= p->cap;
}

/* Send with the port's latency. Returns false (and counts it) when full. */
bool port_send(struct port *p, struct msg *m);
/* Send with an explicit extra delay on top of the port latency. */
bool port_send_delayed(struct port *p, struct msg *m, tick_t extra_ps);
/* ... and a weight the port sums over what it holds (the crossbar counts the
 * flits held by an output FIFO this way). */
bool port_send_weighted(struct port *p, struct msg *m, tick_t extra_ps, uint32_t weight);

/* A send whose ready time the sender learns later (a switch that serves its
 * output in the order messages reach it, src/gfx/sfr.c): m takes its place at
 * the tail now, so room is counted as for any send, but is not ready, and the
 * receiver is not woken, until port_ready_at. Returns false (and counts it)
 * when full. Not for cut or quiet ports. */
bool port_send_pending(struct port *p, struct msg *m);
/* m, sent pending, is ready at `ready`: the receiver is woken for it. The
 * pending sends of a port must be released in send order and with ready
 * times that do not fall (panics otherwise): the FIFO's order stays its
 * ready order. */
void port_ready_at(struct port *p, const struct msg *m, tick_t ready);

/* The receiver sleeps on a stall that nothing sent into p can end (its head
 * waits, and what is behind it may not pass): from now on a send does not
 * wake it, until port_unquiet. */
static inline void port_quiet(struct port *p)
{
    p->quiet = true;
}

/* Sends wake the receiver again, and the messages sent meanwhile that are
 * not ready yet ask for the ticks their sends would have asked for (those
 * that are ready are the receiver's to take now: it calls this from its
 * tick, and a pop that leaves a ready head wakes it for that head). */
void port_unquiet(struct port *p);

/* Slot i (0 = head) of the FIFO. */
static inline struct port_slot *port_slot_at(const struct port *p, uint32_t i)
{
    uint32_t k = p->head + i;
    return &p->slots[k >= p->alloc ? k - p->alloc : k];
}

/* The head message if it is ready now, else NULL. */
static inline struct msg *port_peek(const struct port *p)
{
    if (!p->n)
        return NULL;
    const struct port_slot *s = &p->slots[p->head];
    return s->ready <= p->receiver->eng->now ? s->m : NULL;
}

/* Remove the head (which port_peek returned). */
struct msg *port_pop(struct port *p);

/* Remove slot i (0 = head): what was behind it moves up one, in order. */
struct msg *port_remove_at(struct port *p, uint32_t i);

/* Call fn on every queued message (for dumps). */
void port_dump(const struct port *p, FILE *out, void (*fn)(const struct msg *, FILE *));

#endif
