/*
 * mg_l1.c - the L1 of the multi-GPM protocols (spec 004b §2.2, §2.5): rc's
 * write-through L1 (coh/nc/rc_l1.c) with an extension (struct rc_l1_ext)
 * that completes releases wider than .cta through the L2 banks, and has the
 * L1 perform .cta atomics itself (rc's event CtaAtomic). Software coherence
 * (sw-nh, sw-h) also acquires through the banks: an acquire wider than .cta
 * has every bank of the GPM drop its copies of remote lines before it
 * completes.
 * A release (a fence, a kernel end, a store or atomic with release semantics
 * at .gpu/.sys scope) holds its request while a round of MSG_MG_REL markers,
 * one to every bank of the GPM, is acknowledged: each bank answers
 * MSG_MG_RELACK once the writes and invalidations the release must cover
 * have arrived. Nothing passes a held request (program order). An acquiring
 * fence or kernel start does the same with MSG_MG_ACQ; the response of an
 * acquiring load or atomic waits for a round, one at a time, later ones
 * joining the next.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "coh/mg/mg.h"

/* The extension's flags on the L1's requests and responses (nc.h: its share
 * of the L1's bits). */
_Static_assert(!((MG_F_RELEASED | MG_F_ACQUIRED) & ~NC_F_L1_EXT),
               "the multi-GPM L1's flags are outside the share nc.h gives rc's L1's extension");

/* A round of markers (MSG_MG_REL or MSG_MG_ACQ), one to every L2 bank of the
 * GPM. A GPM may have more banks than the L1's request port holds messages
 * (noc.vc_flits), so the markers go out in batches as the port has room; the
 * round is done when every bank has acknowledged. */
struct marker_round {
    struct mem_req req; /* the scope and ids every marker carries */
    uint16_t type;      /* MSG_MG_REL or MSG_MG_ACQ */
    uint32_t id;        /* comes back in the acknowledgements' sharer field */
    unsigned sent;      /* markers sent so far, to banks 0 .. sent - 1 */
    unsigned acks;      /* acknowledgements still expected */
};

/* The extension's state in each L1 (rc_l1_ext_of). */
struct mg_l1 {
    /* a release wider than .cta is completed by the L2 banks */
    struct msg *rel_held;    /* the request waiting for its release, or NULL */
    struct marker_round rel; /* ... its round */
    /* software coherence (sw-nh, sw-h): an acquire wider than .cta also has
     * the L2 banks drop their copies of remote lines (MSG_MG_ACQ) before it
     * completes; responses of acquiring loads and atomics wait for a round */
    bool acquire_at_l2;
    struct msg_list acq_next;  /* acquiring responses waiting for the next round */
    struct msg_list acq_round; /* ... those the round under way completes */
    struct marker_round acq;   /* ... its round */
};

static struct mg_l1 *mg_of(struct ctrl *b)
{
    return rc_l1_ext_of(b);
}

/* Does request m release at .gpu/.sys scope (a fence, a kernel end, a store
 * or atomic with release semantics)? */
static bool releases_at_l2(const struct msg *m)
{
    const struct mem_req *r = &m->req;
    if ((m->flags & MG_F_RELEASED) || r->op == MEM_LOAD || r->op == MEM_KERNEL_BEGIN)
        return false;
    if (r->op == MEM_KERNEL_END)
        return true;
    return r->scope >= SCOPE_GPU &&
           (r->sem == SEM_RELEASE || r->sem == SEM_ACQ_REL || r->sem == SEM_SC);
}

/* Software coherence: does the fence or kernel start m acquire at
 * .gpu/.sys scope (the banks must drop remote copies first)? */
static bool acquires_at_l2(const struct mg_l1 *c, const struct msg *m)
{
    const struct mem_req *r = &m->req;
    if (!c->acquire_at_l2 || (m->flags & MG_F_ACQUIRED))
        return false;
    return r->op == MEM_KERNEL_BEGIN || (r->op == MEM_FENCE && r->scope >= SCOPE_GPU);
}

/* Send the round's markers that the request vnet has room for, in bank
 * order. Left unsent, they wait for the tick: the port is then full, and a
 * full port wakes its sender when it frees. Returns whether it sent any. */
static bool send_markers(struct ctrl *b, struct marker_round *r)
{
    struct port *out = b->links.net_out[NC_VNET_REQ];
    unsigned first = r->sent;
    for (; r->sent < b->w.n_banks && port_has_room(out, 1); r->sent++) {
        struct msg *k =
            msg_new(b->w.msgs, r->type, (addr_t)r->sent * b->line_bytes, b->comp.eng->now);
        k->req = r->req;
        k->sharer = r->id;
        ctrl_to_home(b, k, r->type, NC_VNET_REQ, TRAFFIC_REQ, 0);
    }
    return r->sent != first;
}

/* May a round start? It waits for room for its first batch: a marker to
 * every bank when the port holds that many (as it always did; a round never
 * trickles out behind other requests then), else a full port's worth. */
static bool round_may_start(const struct ctrl *b)
{
    const struct port *out = b->links.net_out[NC_VNET_REQ];
    unsigned n = b->w.n_banks;
    return port_has_room(out, n < out->cap ? n : out->cap);
}

/* Begin round r of `type` for req: its first batch of markers goes now. */
static void start_round(struct ctrl *b, struct marker_round *r, const struct mem_req *req,
                        uint16_t type, uint32_t id)
{
    *r = (struct marker_round){.req = *req, .type = type, .id = id, .acks = b->w.n_banks};
    send_markers(b, r);
}

/* A round for every acquiring response waiting, when none is under way and
 * the request vnet has room (else the tick tries again: a full port wakes
 * its sender when it frees): MSG_MG_ACQ at the widest scope among them.
 * Returns whether it started one. */
static bool start_acq_round(struct ctrl *b)
{
    struct mg_l1 *c = mg_of(b);
    if (c->acq_round.n || !c->acq_next.n || !round_may_start(b))
        return false;
    struct msg widest = {0};
    for (struct msg *m = c->acq_next.head; m; m = m->next)
        if (!widest.req.op || m->req.scope > widest.req.scope)
            widest.req = m->req;
    c->acq_round = c->acq_next;
    c->acq_next = (struct msg_list){0};
    start_round(b, &c->acq, &widest.req, MSG_MG_ACQ, 1);
    return true;
}

/* Start a release (or, for software coherence, an acquire) at the banks:
 * m waits for their acknowledgements. A resource stall while the request
 * vnet lacks room. */
static enum rc_l1_take start_release(struct ctrl *b, struct msg *m, bool acquire)
{
    struct mg_l1 *c = mg_of(b);
    if (!round_may_start(b)) {
        b->st.resource_stalls++;
        return RC_L1_STALL;
    }
    m->flags |= acquire ? MG_F_ACQUIRED : MG_F_RELEASED;
    c->rel_held = m;
    start_round(b, &c->rel, &m->req, acquire ? MSG_MG_ACQ : MSG_MG_REL, 0);
    return RC_L1_TAKEN;
}

/* Software coherence: the response m of a load or atomic that acquires at
 * .gpu/.sys scope waits for the banks to drop their remote copies; one
 * round at a time, later ones join the next. True: m is held. */
static bool hold_acquire(struct ctrl *b, struct msg *m)
{
    struct mg_l1 *c = mg_of(b);
    const struct mem_req *r = &m->req;
    if (!c->acquire_at_l2 || (m->flags & MG_F_ACQUIRED) || r->scope < SCOPE_GPU ||
        (r->sem != SEM_ACQUIRE && r->sem != SEM_ACQ_REL && r->sem != SEM_SC))
        return false;
    m->flags |= MG_F_ACQUIRED;
    msg_list_push(&c->acq_next, m);
    start_acq_round(b);
    return true;
}

/* A core request before rc's table. */
static enum rc_l1_take take_core(struct ctrl *b, struct msg *m)
{
    struct mg_l1 *c = mg_of(b);
    if (c->rel_held) { /* nothing passes a request held for its release (program order) */
        b->st.resource_stalls++;
        return RC_L1_STALL;
    }
    if (releases_at_l2(m))
        return start_release(b, m, false);
    if (acquires_at_l2(c, m))
        return start_release(b, m, true);
    return RC_L1_TO_TABLE;
}

/* A response before rc's table: the rounds' acknowledgements, and the
 * acquiring responses a round must complete first (those it held come back
 * here, marked MG_F_ACQUIRED). */
static bool take_response(struct ctrl *b, struct msg *m)
{
    struct mg_l1 *c = mg_of(b);
    if (m->type == MSG_MG_RELACK && m->sharer == 1) { /* an acquiring responses' round */
        msg_free(b->w.msgs, m);
        if (!--c->acq.acks) {
            struct msg *r;
            while ((r = msg_list_pop(&c->acq_round)))
                rc_l1_take_response(b, r);
            start_acq_round(b);
        }
        return true;
    }
    if (m->type == MSG_MG_RELACK) {
        msg_free(b->w.msgs, m);
        if (!--c->rel.acks) { /* released: the held request goes on, first */
            msg_list_push_front(&b->replay, c->rel_held);
            c->rel_held = NULL;
        }
        return true;
    }
    return hold_acquire(b, m);
}

/* The rest of a round whose markers did not all fit the port. */
static bool tick(struct ctrl *b)
{
    struct mg_l1 *c = mg_of(b);
    bool moved = c->rel_held && send_markers(b, &c->rel);
    moved |= c->acq_round.n && send_markers(b, &c->acq);
    moved |= c->acq_next.n && start_acq_round(b);
    return moved;
}

static const struct rc_l1_ext mg_l1_ext = {
    .state_bytes = sizeof(struct mg_l1),
    .cta_atomics = true,
    .take_core = take_core,
    .take_response = take_response,
    .tick = tick,
};

/* The L1 of the multi-GPM protocols: rc's, releasing through the L2s. */
struct comp *mg_l1_create(const struct ctrl_wiring *w)
{
    return rc_l1_create_ext(w, &mg_l1_ext);
}

/* ... and of software coherence (sw-nh, sw-h): acquiring through them too. */
struct comp *mg_sw_l1_create(const struct ctrl_wiring *w)
{
    struct comp *cp = mg_l1_create(w);
    mg_of((struct ctrl *)cp)->acquire_at_l2 = true;
    return cp;
}

void mg_l1_view(struct comp *l1, struct mg_l1_view *v)
{
    const struct mg_l1 *c = mg_of((struct ctrl *)l1);
    *v = (struct mg_l1_view){
        .rel_held = c->rel_held, .acq_next = &c->acq_next, .acq_round = &c->acq_round};
    if (c->rel_held) { /* a finished round's counts are leftovers */
        v->rel_type = c->rel.type;
        v->rel_sent = c->rel.sent;
        v->rel_acks = c->rel.acks;
    }
    if (c->acq_round.n) {
        v->acq_sent = c->acq.sent;
        v->acq_acks = c->acq.acks;
    }
}
