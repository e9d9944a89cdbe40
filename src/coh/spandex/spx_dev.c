/*
 * spx_dev.c - what the Spandex device L1s that own words share (the DeNovo
 * L1, denovo_l1.c, and the MESI device L1, mesi_l1.c; spandex.h): answering
 * a forward from owned words, writing owned words back, the room a core
 * request needs, and their dumps. The tables, classifiers and the words each
 * L1 owns stay in the L1's own file.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "coh/spandex/spandex.h"
#include "mem/observe.h"

/* A direct FwdReqV (SPX_F_DIRECT): the request itself, its data the bank's
 * words; the words the bank named this L1 owner of (msg->ts) go over them
 * from the line (current in O; in W, kept until the write-back's ack, their
 * values when the bank ordered the read, which writes the bank took after the
 * write-back may have replaced since), and the whole line goes to the
 * requester from L1 to L1 as the bank's RspV would, naming this L1 as the
 * responder (its owner predictors learn it). The words stay owned here. */
static uint64_t answer_read_direct(struct ctrl *b, struct coh_ctx *x)
{
    struct msg *f = x->msg;
    uint64_t words = f->ts;
    struct bytemask mine;
    spx_bytes_of(&mine, words, b->line_bytes);
    if (b->w.obs) /* current here, or (written back since) as of the bank's forward */
        obs_check_since(b->w.obs, b->w.name, x->addr, x->line->data, f->data, &mine);
    bytes_merge(f->data, x->line->data, &mine, b->line_bytes);
    unsigned requester = f->sharer;
    f->flags &= (uint16_t)~SPX_F_DIRECT;
    f->ts = 0;
    f->sharer = b->w.index + 1u;
    x->msg = NULL;
    ctrl_to_peer(b, f, requester, SPX_RSP_V, SPX_VNET_RSP, TRAFFIC_LD, (uint16_t)b->line_bytes);
    return words;
}

uint64_t spx_dev_answer_forward(struct ctrl *b, struct coh_ctx *x, uint64_t owned)
{
    struct msg *f = x->msg;
    if (f->type == SPX_FWD_V && (f->flags & SPX_F_DIRECT))
        return answer_read_direct(b, x);
    uint64_t words = spx_words_of(&f->mask, b->line_bytes) & owned;
    bool relay = f->type == SPX_FWD_O, data = !relay || (f->flags & SPX_F_DATA);
    struct msg *r = msg_new(b->w.msgs, SPX_FWD_RSP, x->addr, b->comp.eng->now);
    spx_bytes_of(&r->mask, words, b->line_bytes);
    if (b->w.obs) /* the owner is where its words are current */
        obs_check(b->w.obs, b->w.name, x->addr, x->line->data, &r->mask);
    memcpy(r->data, x->line->data, b->line_bytes);
    r->flags = (uint16_t)((relay ? SPX_F_RELAY : 0) | (data ? SPX_F_DATA : 0));
    r->sharer = f->sharer;
    r->req = f->req;
    uint8_t cls = f->type == SPX_RVK_O ? TRAFFIC_RCL : data ? TRAFFIC_LD : TRAFFIC_REQ;
    uint16_t bytes = data ? (uint16_t)(__builtin_popcountll(words) * SPX_WORD_BYTES) : 0;
    msg_free(b->w.msgs, f);
    x->msg = NULL;
    if (relay && b->links.peer_out[SPX_VNET_RSP]) /* straight to the new owner */
        ctrl_to_peer(b, r, r->sharer, SPX_RELAY, SPX_VNET_RSP, cls, bytes);
    else
        ctrl_to_home(b, r, SPX_FWD_RSP, SPX_VNET_FWDRSP, cls, bytes);
    return words;
}

void spx_dev_take_forwards(struct ctrl *b, bool (*room)(struct ctrl *, const struct msg *),
                           void (*take)(struct ctrl *, struct msg *), bool *moved, bool *blocked)
{
    struct port *fwd = b->links.net_in[SPX_VNET_FWD];
    struct msg *f;
    while ((f = port_peek(fwd))) {
        if (spx_dev_forward_waits(b, f->addr)) { /* behind the line's woken forward */
            msg_list_push(&b->replay, port_pop(fwd));
            *moved = true;
            continue;
        }
        if (!room(b, f)) {
            b->st.resource_stalls++;
            *blocked = true;
            return;
        }
        take(b, port_pop(fwd));
        *moved = true;
    }
}

void spx_dev_answer_owner(struct ctrl *b, struct coh_ctx *x, uint16_t flags, uint8_t cls,
                          uint16_t bytes)
{
    struct msg *m = x->msg;
    m->flags = (uint16_t)(SPX_F_PASS | flags);
    x->msg = NULL;
    if (b->links.peer_out[SPX_VNET_RSP]) { /* straight to the requester, naming the owner */
        unsigned requester = m->sharer;
        m->sharer = b->w.index + 1u;
        ctrl_to_peer(b, m, requester, SPX_RSP_OWNER, SPX_VNET_RSP, cls, bytes);
        return;
    }
    ctrl_to_home(b, m, SPX_FWD_RSP, SPX_VNET_FWDRSP, cls, bytes);
}

bool spx_dev_answer_room(const struct ctrl *b)
{
    const struct port *peer = b->links.peer_out[SPX_VNET_RSP];
    return port_has_room(b->links.net_out[SPX_VNET_FWDRSP], 1) && (!peer || port_has_room(peer, 1));
}

void spx_dev_send_wb(struct ctrl *b, struct coh_ctx *x, uint64_t owned)
{
    struct msg *w = msg_new(b->w.msgs, SPX_REQ_WB, x->addr, b->comp.eng->now);
    spx_bytes_of(&w->mask, owned, b->line_bytes);
    memcpy(w->data, x->line->data, b->line_bytes);
    ctrl_to_home(b, w, SPX_REQ_WB, SPX_VNET_REQ, TRAFFIC_ST,
                 (uint16_t)(__builtin_popcountll(owned) * SPX_WORD_BYTES));
}

void spx_dev_send_wb_dirty(struct ctrl *b, struct coh_ctx *x, uint64_t owned, uint64_t dirty)
{
    struct msg *w = msg_new(b->w.msgs, SPX_REQ_WB, x->addr, b->comp.eng->now);
    spx_bytes_of(&w->mask, owned, b->line_bytes);
    memcpy(w->data, x->line->data, b->line_bytes);
    w->flags = SPX_F_CLEAN;
    w->ts = dirty & owned;
    ctrl_to_home(b, w, SPX_REQ_WB, SPX_VNET_REQ, TRAFFIC_ST,
                 (uint16_t)(__builtin_popcountll(dirty & owned) * SPX_WORD_BYTES));
}

bool spx_dev_writing_back(const struct ctrl *b, addr_t line, unsigned wb_state)
{
    const struct cache_line *set =
        &b->cache.lines[(size_t)cache_set_of(&b->cache, line) * b->cache.spec.ways];
    for (uint32_t w = 0; w < b->cache.spec.ways; w++)
        if (set[w].present && set[w].state == wb_state)
            return true;
    return false;
}

bool spx_dev_forward_waits(const struct ctrl *b, addr_t line)
{
    for (const struct msg *m = b->replay.head; m; m = m->next)
        if (m->addr == line && spx_to_l1_on_fwd(m->type))
            return true;
    return false;
}

bool spx_dev_room(const struct ctrl *b)
{
    const struct port *peer = b->links.peer_out[SPX_VNET_FWD];
    return port_has_room(b->links.net_out[SPX_VNET_REQ], 2) && (!peer || port_has_room(peer, 1)) &&
           b->tbes.n_used + 2 <= b->tbes.cap;
}

static void dump_tbe(const struct ctrl *b, const struct tbe *t, FILE *out)
{
    fprintf(out, "  tbe %#llx %s pending %d relays %d words %#llx parked %u\n",
            (unsigned long long)t->addr, b->table->state_names[t->state], t->pending, t->acks,
            (unsigned long long)t->meta[0], t->parked.n);
}

void spx_dev_dump(const struct ctrl *b, const char *kind, unsigned kernel_ends, FILE *out)
{
    if (!b->tbes.n_used && !b->in.n && !b->replay.n && !kernel_ends)
        return;
    fprintf(out, "%s (%s): %u TBEs, %u core requests queued, %u replaying, %u kernel ends\n",
            b->w.name, kind, b->tbes.n_used, b->in.n, b->replay.n, kernel_ends);
    ctrl_dump_tbes(b, out, dump_tbe);
}
