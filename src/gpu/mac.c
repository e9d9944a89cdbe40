/*
 * mac.c - the memory access classifier (see mac.h).
 *
 * Each arriving message waits order.mac_cycles MAC cycles (the lookup) in a
 * FIFO; one is handled per cycle. Answers and invalidations leave through an
 * outbox that drains into the crossbar as it has room. An entry in a
 * transition or being evicted (busy) holds the requests for its sector in
 * arrival order and handles them again when it settles; a request whose set
 * has no entry that can be replaced waits until one settles.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "gpu/mac.h"

#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "mem/tbe.h"

const char *const mac_state_names[MAC_NSTATES] = {"P_RO", "P_RW", "S_RO", "S_RW"};

struct mac_entry {
    uint64_t sector;     /* sector number (addr / sector_bytes) */
    uint64_t lru;        /* last use */
    uint64_t busy_since; /* MAC cycle the transition or eviction began */
    uint32_t acks;       /* acks still awaited */
    uint16_t owner;      /* P_*: the SM; also the previous accessor */
    uint16_t requester;  /* the SM a transition answers when done */
    uint8_t state;       /* enum mac_state */
    bool valid;
    bool busy;               /* a transition or an eviction waits for acks */
    bool evicting;           /* ... an eviction: the entry is freed when done */
    struct msg_list waiting; /* requests for the sector held meanwhile */
};

struct mac {
    struct comp comp;
    struct order_spec spec;
    unsigned index, n_macs, n_sms, n_sets;
    struct pool *msgs;
    struct port *in, *out;
    struct mac_entry *e;     /* [n_sets][mac_ways] */
    struct msg_list pipe;    /* arrived, waiting for the lookup latency (m->ts: ready cycle) */
    struct msg_list outbox;  /* to send when the crossbar has room */
    struct msg_list stalled; /* requests whose set had nothing replaceable */
    uint64_t tick_count;
    struct mac_stats st;
};

static void send(struct mac *m, uint16_t type, uint64_t sector, unsigned sm, uint16_t flags)
{
    struct msg *r = msg_new(m->msgs, type, (addr_t)sector * m->spec.sector_bytes, m->comp.eng->now);
    r->cls = type == MSG_MAC_INV ? TRAFFIC_INV : type == MSG_MAC_RECALL ? TRAFFIC_RCL : TRAFFIC_REQ;
    r->src = (uint16_t)m->index;
    r->dst = (uint16_t)sm;
    r->flags = flags;
    msg_list_push(&m->outbox, r);
}

/* The set of `sector`'s ways. The MAC holds only sectors that are `index`
 * modulo n_macs (mac_home), so the set comes from the sector number above
 * those bits: indexed by the sector number itself, only one set in n_macs
 * would ever be used. */
static struct mac_entry *set_of(struct mac *m, uint64_t sector)
{
    return &m->e[(sector / m->n_macs % m->n_sets) * m->spec.mac_ways];
}

static struct mac_entry *lookup(struct mac *m, uint64_t sector)
{
    struct mac_entry *set = set_of(m, sector);
    for (unsigned w = 0; w < m->spec.mac_ways; w++)
        if (set[w].valid && set[w].sector == sector)
            return &set[w];
    return NULL;
}

/* Send `type` to the owner (P_*) or to every SM but `except` (S_*); the
 * number sent. */
static unsigned notify(struct mac *m, const struct mac_entry *e, uint16_t type, unsigned except)
{
    if (e->state == MAC_P_RO || e->state == MAC_P_RW) {
        if (e->owner == except)
            return 0;
        send(m, type, e->sector, e->owner, 0);
        return 1;
    }
    unsigned n = 0;
    for (unsigned s = 0; s < m->n_sms; s++)
        if (s != except) {
            send(m, type, e->sector, s, 0);
            n++;
        }
    return n;
}

static void handle(struct mac *m, struct msg *req);

/* Move the requests of `from` into `to`, keeping `to` in arrival order
 * (r->ts, the cycle the lookup finished, grows with arrival; stable). */
static void merge_by_arrival(struct msg_list *to, struct msg_list *from)
{
    struct msg *r;
    while ((r = msg_list_pop(from))) {
        if (!to->tail || to->tail->ts <= r->ts) {
            msg_list_push(to, r);
            continue;
        }
        if (r->ts < to->head->ts) {
            msg_list_push_front(to, r);
            continue;
        }
        struct msg *p = to->head;
        while (p->next->ts <= r->ts)
            p = p->next;
        r->next = p->next;
        p->next = r;
        to->n++;
    }
}

/* A busy entry settled: handle what waited for it and for a free way, in
 * the order the requests arrived. Handling the entry's own waiters first
 * would let them (each evicting a way again) take every way freed before
 * requests stalled earlier: with a set smaller than the sectors in demand,
 * those could wait for ever. */
static void settle(struct mac *m, struct mac_entry *e)
{
    m->st.transition_cycles += m->tick_count - e->busy_since;
    e->busy = false;
    struct msg_list w = {0};
    merge_by_arrival(&w, &e->waiting);
    merge_by_arrival(&w, &m->stalled);
    struct msg *r;
    while ((r = msg_list_pop(&w)))
        handle(m, r);
}

static void begin_busy(struct mac *m, struct mac_entry *e, unsigned acks)
{
    e->busy = true;
    e->acks = acks;
    e->busy_since = m->tick_count;
}

/* Make room in the set of `sector`: an invalid way, else the least recently
 * used entry that is not busy, evicted. Returns the way to fill now, or NULL
 * (req waits: in the victim while its safe-form recall drains, or stalled). */
static struct mac_entry *make_room(struct mac *m, uint64_t sector, struct msg *req)
{
    struct mac_entry *set = set_of(m, sector), *v = NULL;
    for (unsigned w = 0; w < m->spec.mac_ways; w++) {
        if (!set[w].valid)
            return &set[w];
        if (!set[w].busy && (!v || set[w].lru < v->lru))
            v = &set[w];
    }
    if (!v) {
        msg_list_push(&m->stalled, req);
        m->st.held++;
        return NULL;
    }
    m->st.evictions++;
    if (m->spec.mac_recall == ORDER_RECALL_PAPER) {
        m->st.recalls += notify(m, v, MSG_MAC_RECALL, m->n_sms);
        v->valid = false;
        return v;
    }
    unsigned n = notify(m, v, MSG_MAC_RECALL, m->n_sms);
    m->st.recalls += n;
    v->evicting = true;
    begin_busy(m, v, n);
    msg_list_push(&v->waiting, req);
    m->st.held++;
    if (!n) { /* nobody to recall from (cannot happen: a sector has an accessor) */
        v->valid = v->evicting = false;
        settle(m, v);
    }
    return NULL;
}

static void reply(struct mac *m, struct msg *req, bool unsafe, bool we)
{
    uint16_t f = (uint16_t)((unsafe ? MAC_F_UNSAFE : 0) | (we ? MAC_F_WRITE : 0));
    send(m, MSG_MAC_TYPE_RSP, req->addr / m->spec.sector_bytes, req->src, f);
    msg_free(m->msgs, req);
}

/* A safe sector turns unsafe: invalidate, then answer `req` when drained. */
static void to_unsafe(struct mac *m, struct mac_entry *e, struct msg *req)
{
    unsigned n = notify(m, e, MSG_MAC_INV, req->src);
    m->st.invalidations += n;
    e->requester = req->src;
    msg_free(m->msgs, req);
    if (!n) {
        e->state = MAC_S_RW;
        m->st.to_state[MAC_S_RW]++;
        send(m, MSG_MAC_TYPE_RSP, e->sector, e->requester, MAC_F_UNSAFE);
        return;
    }
    begin_busy(m, e, n);
}

static void handle_req(struct mac *m, struct msg *req)
{
    uint64_t sector = req->addr / m->spec.sector_bytes;
    unsigned s = req->src;
    bool write = req->flags & MAC_F_WRITE;
    struct mac_entry *e = lookup(m, sector);
    if (e && e->busy) {
        msg_list_push(&e->waiting, req);
        m->st.held++;
        return;
    }
    if (!e) {
        e = make_room(m, sector, req);
        if (!e)
            return;
        *e = (struct mac_entry){.sector = sector,
                                .valid = true,
                                .owner = (uint16_t)s,
                                .state = write ? MAC_P_RW : MAC_P_RO};
        e->lru = m->tick_count;
        m->st.allocs[e->state]++;
        reply(m, req, false, write);
        return;
    }
    e->lru = m->tick_count;
    switch (e->state) {
    case MAC_P_RO:
        if (s == e->owner) {
            if (write) {
                e->state = MAC_P_RW;
                m->st.to_state[MAC_P_RW]++;
            }
            reply(m, req, false, write);
        } else if (!write) {
            e->state = MAC_S_RO;
            m->st.to_state[MAC_S_RO]++;
            reply(m, req, false, false);
        } else {
            to_unsafe(m, e, req);
        }
        break;
    case MAC_P_RW:
        if (s == e->owner)
            reply(m, req, false, true);
        else
            to_unsafe(m, e, req);
        break;
    case MAC_S_RO:
        if (write)
            to_unsafe(m, e, req);
        else
            reply(m, req, false, false);
        break;
    default:
        reply(m, req, true, false);
        break;
    }
}

static void handle_ack(struct mac *m, struct msg *ack)
{
    uint64_t sector = ack->addr / m->spec.sector_bytes;
    msg_free(m->msgs, ack);
    struct mac_entry *e = lookup(m, sector);
    if (!e || !e->busy || !e->acks)
        panic("%s: ack for sector %#llx, which waits for none", m->comp.name,
              (unsigned long long)sector);
    if (--e->acks)
        return;
    if (e->evicting) {
        e->valid = e->evicting = false;
    } else {
        e->state = MAC_S_RW;
        m->st.to_state[MAC_S_RW]++;
        send(m, MSG_MAC_TYPE_RSP, e->sector, e->requester, MAC_F_UNSAFE);
    }
    settle(m, e);
}

static void handle(struct mac *m, struct msg *r)
{
    if (r->type == MSG_MAC_TYPE_REQ) {
        m->st.requests++;
        handle_req(m, r);
    } else if (r->type == MSG_MAC_ACK) {
        handle_ack(m, r);
    } else {
        panic("%s: unexpected message type %u", m->comp.name, r->type);
    }
}

static bool mac_tick(struct comp *c)
{
    struct mac *m = container_of(c, struct mac, comp);
    uint64_t cyc = comp_cycle(c);
    m->tick_count = cyc;
    struct msg *r;
    while ((r = port_peek(m->in))) {
        port_pop(m->in);
        r->ts = cyc + m->spec.mac_cycles;
        msg_list_push(&m->pipe, r);
    }
    if (m->pipe.head && m->pipe.head->ts <= cyc)
        handle(m, msg_list_pop(&m->pipe));
    while (m->outbox.head && port_has_room(m->out, 1)) {
        struct msg *o = msg_list_pop(&m->outbox);
        if (!port_send(m->out, o))
            panic("%s: send on a port that had room", c->name);
    }
    if (m->outbox.n)
        return true;
    if (m->pipe.head) {
        if (m->pipe.head->ts <= cyc + 1)
            return true;
        comp_wake_at(c, (tick_t)m->pipe.head->ts * c->clk->period_ps);
    }
    return false;
}

static void mac_dump(struct comp *c, FILE *out)
{
    struct mac *m = container_of(c, struct mac, comp);
    fprintf(out, "  %s: %u messages in the lookup pipe, %u to send, %u stalled for a way\n",
            c->name, m->pipe.n, m->outbox.n, m->stalled.n);
    for (unsigned i = 0; i < m->n_sets * m->spec.mac_ways; i++) {
        const struct mac_entry *e = &m->e[i];
        if (e->valid && e->busy)
            fprintf(out,
                    "    sector %#llx %s (owner SM %u): %s, %u acks awaited, %u requests held\n",
                    (unsigned long long)e->sector, mac_state_names[e->state], e->owner,
                    e->evicting ? "evicting" : "turning unsafe", e->acks, e->waiting.n);
    }
}

struct mac *mac_new(struct eng *e, const char *name, const struct clock *clk,
                    const struct order_spec *spec, unsigned index, unsigned n_macs, unsigned n_sms,
                    struct pool *msgs)
{
    if (!spec->mac_ways || spec->mac_entries % spec->mac_ways || !spec->sector_bytes)
        panic("%s: MAC of %u entries cannot have %u ways", name, spec->mac_entries, spec->mac_ways);
    struct mac *m = calloc(1, sizeof *m);
    if (!m)
        panic("out of memory");
    m->spec = *spec;
    m->index = index;
    m->n_macs = n_macs;
    m->n_sms = n_sms;
    m->n_sets = spec->mac_entries / spec->mac_ways;
    m->msgs = msgs;
    m->e = calloc(spec->mac_entries, sizeof *m->e);
    if (!m->e)
        panic("out of memory");
    comp_init(&m->comp, e, name, clk, mac_tick, mac_dump);
    return m;
}

static void free_list(struct pool *p, struct msg_list *l)
{
    struct msg *r;
    while ((r = msg_list_pop(l)))
        msg_free(p, r);
}

void mac_free(struct mac *m)
{
    if (!m)
        return;
    for (unsigned i = 0; i < m->spec.mac_entries; i++)
        free_list(m->msgs, &m->e[i].waiting);
    free_list(m->msgs, &m->pipe);
    free_list(m->msgs, &m->outbox);
    free_list(m->msgs, &m->stalled);
    free(m->e);
    free(m);
}

struct comp *mac_comp(struct mac *m)
{
    return &m->comp;
}

void mac_connect(struct mac *m, struct port *in, struct port *out)
{
    m->in = in;
    m->out = out;
}

const struct mac_stats *mac_stats(const struct mac *m)
{
    return &m->st;
}
