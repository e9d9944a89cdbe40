/*
 * spx_llc.c - the Spandex last-level cache bank (spec 003 §2.5): word
 * granularity state with an owner id per owned word, serving the base
 * request types of Table 1 (see spandex.h).
 *
 * A line is I, V (no word owned: the bank's data is current) or O (some
 * words owned by L1s; their ids are kept per word beside the data, as DeNovo
 * keeps them in the data array). Ownership moves without a blocking state: a
 * ReqO updates the owner ids at once and forwards the words an L1 owned to
 * it (FwdReqO), whose data the bank relays to the new owner; the grant tells
 * the requester how many relays to expect. Blocking states exist only where
 * the bank itself needs owned data: a read of a line with owned words (G:
 * each owner sends its words and keeps them, FwdReqV; the read is answered
 * when all are in), a write-through or atomic to an owned word and the
 * eviction of a line with owned words (R: the owners give the words back,
 * RvkO; the request then replays). Misses fetch from DRAM (IV).
 * A write-back (ReqWB) writes only the words the writer still owns: when
 * ownership moved on while it travelled, the forward that moved it reaches
 * the writer before the write-back's ack (one vnet), and the writer serves it
 * from the line it keeps until that ack.
 * Forwarded and predicted requests (spec 003 §2.6) change no state here: a
 * ReqWTfwd(+data) whose words one other L1 owns goes to that owner (FwdWT,
 * no blocking state), one not remotely owned is a ReqWT(+data); a predicted
 * request (ReqVo, ReqWTo(+data)) and an owner's answer (RspOwner) are passed
 * on without a lookup.
 *
 * Lines read with ReqS (MESI devices, DeNovo loads typed ReqS) are S: the
 * sharers, one bit per L1 in line->meta[1], hold copies that no acquire
 * drops, so a write-through, an atomic or an ownership request to an S line
 * first invalidates every sharer (SI: Inv, InvAck; the request then
 * replays), and a ReqS of a line with owned words revokes them first (R), as
 * spec 003 §6 I2 says; an S line never has owned words.
 * INVARIANT (checked by spx_check_owner under --check): a word has at most
 * one owner, and an owned word is never served from the bank's data.
 * INVARIANT: requests to a line are served in arrival order. A freed MSHR's
 * parked requests replay before anything still on the replay list
 * (ctrl_wake_parked), as the device L1s do; with one replayed request taken
 * a tick, a line's requests stay together on that list and no new MSHR
 * frees within a tick, so appending them (ctrl_free_tbe) kept this too, but
 * only by that timing.
 * DEVIATION: a ReqV of a line with owned words waits for the owners (G)
 * rather than letting each owner answer the requester directly (the
 * networks run L1 <-> LLC only), unless fcs.l1_to_l1 gives the L1s paths to
 * each other and one L1 other than the reader owns every owned word: then
 * that owner answers with the whole line (forward_read; a line of several
 * owners is still gathered, where the paper's owners each answer their
 * words); a ReqWT to an owned word revokes the word
 * before writing (the paper writes at once and revokes in the background:
 * equal for whole-word writes, and this keeps partial-word writes exact);
 * a ReqWTfwd is forwarded only when one other L1 owns all its owned words
 * (the words no L1 owns are written here first), a ReqWTfwd+data only when
 * one L1 owns all its words (words of several owners, or a ReqWTfwd+data's
 * owned and not: served as ReqWT(+data), which revokes);
 * predicted requests and owners' answers reach their target through the
 * home bank's node (passed on past the access pipeline) and an old owner's
 * words reach the new owner through the bank (relayed after its pipeline),
 * unless the L1s send them to each other (fcs.l1_to_l1: then the Relay,
 * Predicted and OwnerAnswer events never happen here).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdlib.h>

#include "base/log.h"
#include "coh/spandex/fcs_options.h"
#include "coh/spandex/spandex.h"
#include "mem/observe.h"

#define SPX_LLC_STATES(X)                                                                          \
    X(I, "not present")                                                                            \
    X(V, "valid, no word owned: the bank's data is current")                                       \
    X(O, "some words owned by L1s (owner id per word)")                                            \
    X(IV, "way taken, fill from DRAM outstanding; requests parked")                                \
    X(G, "gathering owned words for a read: owners send them and keep ownership")                  \
    X(R, "revoking owned words (for a write-through, an atomic, a ReqS or an eviction)")           \
    X(S, "valid, no word owned, copies at the sharers (ReqS; writer-invalidated)")                 \
    X(SI, "invalidating the sharers (for a write, an ownership request or an eviction)")

#define SPX_LLC_EVENTS(X)                                                                          \
    X(ReqV, "read of a line with no word owned by an L1")                                          \
    X(ReqVOwned, "read of a line with owned words")                                                \
    X(ReqVOwnedOne, "read of a line whose owned words one other L1 owns (fcs.l1_to_l1)")           \
    X(ReqWT, "write-through to words not owned")                                                   \
    X(ReqWTdata, "atomic (performed here) on words not owned")                                     \
    X(ReqWTOwned, "write-through or atomic to an owned word")                                      \
    X(ReqWTfwd, "ReqWTfwd to owned words of one other L1 (the rest written here), ReqWTfwd+data "  \
                "to words it owns: forwarded to it")                                               \
    X(ReqO, "ownership (with or without data) of some words")                                      \
    X(ReqWB, "write-back of owned words; some words stay owned")                                   \
    X(ReqWBLast, "write-back that leaves no word owned")                                           \
    X(ReqWBStale, "write-back of words the writer no longer owns: only acknowledged")              \
    X(FwdRsp, "an owner's words (for G or R), more expected")                                      \
    X(FwdRspLastO, "the last owner's words; some words stay owned")                                \
    X(FwdRspLastV, "the last owner's words; no word stays owned")                                  \
    X(Relay, "an old owner's words for a new owner: passed on")                                    \
    X(Replace, "a miss needs this line's way")                                                     \
    X(MemData, "fill from DRAM")                                                                   \
    X(Predicted, "ReqVo, ReqWTo(+data) for a predicted owner: passed on, no lookup")               \
    X(OwnerAnswer, "an owner's answer to a forwarded or predicted request: passed on")             \
    X(ReqS, "read as a sharer of a line with no word owned by an L1")                              \
    X(ReqSOwned, "read as a sharer of a line with owned words")                                    \
    X(InvAck, "a sharer dropped its copy, more expected")                                          \
    X(InvAckLast, "the last sharer dropped its copy")

#define X(n, d) SL_##n,
enum spx_llc_state { SPX_LLC_STATES(X) SL_NSTATES };
enum spx_llc_event { SPX_LLC_EVENTS(X) SL_NEVENTS };
#undef X
COH_NAMES(SPX_LLC_STATES, SPX_LLC_EVENTS);

const char *const spx_vnet_names[SPX_NVNETS] = {"request", "response", "forward",
                                                "forward-response"};

/* The request types an L1 sends the LLC (or, predicted, past it): the
 * requests and the words they name are counted per type and per side
 * (GPU L1s, then CPU L1s: their indices follow the SMs'). */
#define SPX_REQ_KINDS(X)                                                                           \
    X(V, SPX_REQ_V)                                                                                \
    X(S, SPX_REQ_S)                                                                                \
    X(O, SPX_REQ_O)                                                                                \
    X(Odata, SPX_REQ_O_DATA)                                                                       \
    X(WT, SPX_REQ_WT)                                                                              \
    X(WTdata, SPX_REQ_WT_DATA)                                                                     \
    X(WTfwd, SPX_REQ_WTFWD)                                                                        \
    X(WTfwd_data, SPX_REQ_WTFWD_DATA)                                                              \
    X(Vo, SPX_REQ_VO)                                                                              \
    X(WTo, SPX_REQ_WTO)                                                                            \
    X(WTo_data, SPX_REQ_WTO_DATA)                                                                  \
    X(WB, SPX_REQ_WB)
#define X(n, t) SPX_RK_##n,
enum { SPX_REQ_KINDS(X) SPX_RK_N };
#undef X

struct spx_llc_stats {
    uint64_t ownership_grants, forwards, revokes, gathers, direct_reads, relays, wb_stale,
        wt_forwarded, wt_split, predicted_passed, answers_passed, invalidations;
    /* [side: 0 GPU, 1 CPU][kind]: requests taken, and the words their masks name */
    uint64_t req_n[2][SPX_RK_N], req_words[2][SPX_RK_N];
};

static unsigned req_kind(uint16_t type)
{
#define X(n, t)                                                                                    \
    if (type == (t))                                                                               \
        return SPX_RK_##n;
    SPX_REQ_KINDS(X)
#undef X
    return SPX_RK_N;
}

struct spx_llc {
    struct ctrl base;
    unsigned words;    /* per line */
    unsigned gpu_l1s;  /* L1 indices below it are the GPU's, the rest the CPU's */
    bool direct_reads; /* fcs.l1_to_l1: a line's one owner answers its readers */
    uint16_t *owner;   /* [way index * words + word]: owner id of an owned word */
    /* passed on past the access pipeline, in order, as the vnet has room */
    struct msg_list pass_fwd, pass_rsp;
    struct spx_llc_stats st;
};

static struct spx_llc *llc_of(void *p)
{
    return p;
}

/* The owned-word mask lives in line->meta[0], the sharers in meta[1]. */
static uint64_t *owned_of(struct cache_line *l)
{
    return &l->meta[0];
}

static uint64_t *sharers_of(struct cache_line *l)
{
    return &l->meta[1];
}

static uint16_t *owners_of(struct spx_llc *c, const struct cache_line *l)
{
    return &c->owner[(size_t)(l - c->base.cache.lines) * c->words];
}

/* The words a request names: its byte mask (loads: the whole line). */
static uint64_t req_words(const struct spx_llc *c, const struct msg *m)
{
    if (m->type == SPX_REQ_V || m->type == SPX_REQ_S)
        return spx_all_words(c->base.line_bytes);
    if (m->type == SPX_REQ_WT_DATA || m->type == SPX_REQ_WTFWD_DATA)
        return spx_atomic_words(m->req.atom);
    return spx_words_of(&m->mask, c->base.line_bytes);
}

/* ---- actions ---- */

/* One forward per owner of the words in `words` that are owned (and not by
 * `except`): FwdReqV, FwdReqO (to `to`) or RvkO. Returns how many. */
static int forward_to_owners(struct spx_llc *c, struct coh_ctx *x, uint64_t words, uint16_t type,
                             unsigned except, unsigned to, uint16_t flags)
{
    uint64_t left = words & *owned_of(x->line);
    const uint16_t *own = owners_of(c, x->line);
    int n = 0;
    while (left) {
        unsigned w0 = (unsigned)__builtin_ctzll(left), o = own[w0];
        uint64_t mine = 0;
        for (uint64_t k = left; k; k &= k - 1) {
            unsigned w = (unsigned)__builtin_ctzll(k);
            if (own[w] == o)
                mine |= 1ull << w;
        }
        left &= ~mine;
        if (o == except)
            continue;
        struct msg *f = msg_new(c->base.w.msgs, type, x->addr, c->base.comp.eng->now);
        spx_bytes_of(&f->mask, mine, c->base.line_bytes);
        f->sharer = to;
        f->flags = flags;
        f->src = (uint16_t)o; /* ctrl_l2_respond sends to m->src */
        ctrl_l2_respond(&c->base, f, type, SPX_VNET_FWD,
                        type == SPX_RVK_O ? TRAFFIC_RCL : TRAFFIC_REQ, 0);
        n++;
    }
    return n;
}

/* G: ask every owner for its words (they keep them); the read waits in the
 * TBE's held list. */
static void send_fwd_v(struct coh_ctx *x)
{
    struct spx_llc *c = llc_of(x->ctrl);
    x->tbe->acks = forward_to_owners(c, x, ~0ull, SPX_FWD_V, UINT32_MAX, 0, 0);
    c->st.gathers++;
    c->st.forwards += (uint64_t)x->tbe->acks;
}

/* ReqV of a line whose owned words one other L1 owns, with fcs.l1_to_l1
 * (spec 003 §2.5: the owner answers the requester directly): the request goes
 * on to the owner as a FwdReqV carrying the bank's words (SPX_F_DIRECT;
 * msg->ts the owner's words, msg->sharer the requester), and the owner
 * answers with the whole line from L1 to L1, keeping its words. The line
 * stays O: a later request to it is served in order behind this forward on
 * the owner's forward vnet. The read is ordered here: an owner that has
 * written the words back since (a write-back the bank took after this
 * forward) answers with their values as of now, which later writes here may
 * already have replaced (the observer's check allows that: obs_check_since). */
static void forward_read(struct coh_ctx *x)
{
    struct spx_llc *c = llc_of(x->ctrl);
    struct msg *m = x->msg;
    uint64_t owned = *owned_of(x->line), here = spx_all_words(c->base.line_bytes) & ~owned;
    unsigned owner = owners_of(c, x->line)[__builtin_ctzll(owned)];
    c->base.st.reads++;
    c->st.direct_reads++;
    c->st.forwards++;
    cache_touch(&c->base.cache, x->line);
    memcpy(m->data, x->line->data, c->base.line_bytes);
    if (c->base.w.obs) {
        /* the bank's words are current here; the owner's, as of now, go in
         * their place for the owner's check (it overwrites them) */
        struct bytemask held_here, theirs;
        spx_bytes_of(&held_here, here, c->base.line_bytes);
        obs_check(c->base.w.obs, c->base.w.name, x->addr, x->line->data, &held_here);
        spx_bytes_of(&theirs, owned, c->base.line_bytes);
        obs_golden(c->base.w.obs, x->addr, m->data, &theirs);
    }
    m->ts = owned;
    m->flags |= SPX_F_DIRECT;
    m->sharer = m->src;
    m->src = (uint16_t)owner; /* ctrl_l2_respond sends to m->src */
    uint16_t bytes = (uint16_t)(__builtin_popcountll(here) * SPX_WORD_BYTES);
    ctrl_l2_respond(&c->base, m, SPX_FWD_V, SPX_VNET_FWD, bytes ? TRAFFIC_LD : TRAFFIC_REQ, bytes);
    x->msg = NULL;
}

/* R: the owners of the request's words give them back (the whole line's for
 * an eviction, x->msg NULL). */
static void send_rvk(struct coh_ctx *x)
{
    struct spx_llc *c = llc_of(x->ctrl);
    uint64_t words = x->msg ? req_words(c, x->msg) : ~0ull;
    x->tbe->acks = forward_to_owners(c, x, words, SPX_RVK_O, UINT32_MAX, 0, 0);
    c->st.revokes += (uint64_t)x->tbe->acks;
}

/* ReqO(+data): the requester owns the words from now on; each old owner is
 * told to pass its words on (relayed here); the grant carries the number of
 * relays and, for +data, the bank's data of the words no L1 owned. */
static void grant_ownership(struct coh_ctx *x)
{
    struct spx_llc *c = llc_of(x->ctrl);
    struct msg *m = x->msg;
    uint64_t words = req_words(c, m), owned = *owned_of(x->line);
    unsigned r = m->src;
    int relays =
        forward_to_owners(c, x, words, SPX_FWD_O, r, r, m->type == SPX_REQ_O_DATA ? SPX_F_DATA : 0);
    uint16_t *own = owners_of(c, x->line);
    for (uint64_t k = words; k; k &= k - 1)
        own[__builtin_ctzll(k)] = (uint16_t)r;
    *owned_of(x->line) = owned | words;
    c->st.ownership_grants++;
    c->base.st.writes++;
    c->st.forwards += (uint64_t)relays;
    cache_touch(&c->base.cache, x->line);
    m->acks = relays;
    uint16_t bytes = 0;
    if (m->type == SPX_REQ_O_DATA) {
        uint64_t from_here = words & ~owned;
        spx_bytes_of(&m->mask, from_here, c->base.line_bytes);
        memcpy(m->data, x->line->data, c->base.line_bytes);
        if (c->base.w.obs)
            obs_check(c->base.w.obs, c->base.w.name, x->addr, x->line->data, &m->mask);
        bytes = (uint16_t)(__builtin_popcountll(from_here) * SPX_WORD_BYTES);
    } else {
        memset(&m->mask, 0, sizeof m->mask);
    }
    ctrl_l2_respond(&c->base, m, SPX_RSP_O, SPX_VNET_RSP, bytes ? TRAFFIC_LD : TRAFFIC_REQ, bytes);
    x->msg = NULL;
}

/* ReqWB: the words the writer still owns take its data and are owned by no
 * one; acknowledged on the forward vnet (after any forward sent to it). */
static void take_wb(struct coh_ctx *x)
{
    struct spx_llc *c = llc_of(x->ctrl);
    struct msg *m = x->msg;
    uint64_t words = spx_words_of(&m->mask, c->base.line_bytes), mine = 0;
    if (x->line) {
        const uint16_t *own = owners_of(c, x->line);
        for (uint64_t k = words & *owned_of(x->line); k; k &= k - 1) {
            unsigned w = (unsigned)__builtin_ctzll(k);
            if (own[w] == m->src)
                mine |= 1ull << w;
        }
    }
    if (mine) {
        /* SPX_F_CLEAN: only msg->ts's words carry data; the others are
         * clean, so the line already holds their value (checked) */
        uint64_t carried = (m->flags & SPX_F_CLEAN) ? mine & m->ts : mine;
        struct bytemask b;
        if (c->base.w.obs && carried != mine) {
            spx_bytes_of(&b, mine & ~carried, c->base.line_bytes);
            obs_check(c->base.w.obs, c->base.w.name, x->addr, x->line->data, &b);
        }
        spx_bytes_of(&b, carried, c->base.line_bytes);
        bytes_merge(x->line->data, m->data, &b, c->base.line_bytes);
        if (carried)
            x->line->dirty = true;
        *owned_of(x->line) &= ~mine;
        c->base.st.writebacks++;
    }
    if (mine != words)
        c->st.wb_stale++;
    ctrl_l2_respond(&c->base, m, SPX_RSP_WB, SPX_VNET_FWD, TRAFFIC_REQ, 0);
    x->msg = NULL;
}

/* An owner's words for G or R: into the line; in R they are owned by no one
 * from now on. */
static void take_fwd_rsp(struct coh_ctx *x)
{
    struct spx_llc *c = llc_of(x->ctrl);
    struct msg *m = x->msg;
    uint64_t words = spx_words_of(&m->mask, c->base.line_bytes);
    const uint16_t *own = owners_of(c, x->line);
    uint64_t still = 0; /* words the sender still owns (a write-back may have come first) */
    for (uint64_t k = words & *owned_of(x->line); k; k &= k - 1) {
        unsigned w = (unsigned)__builtin_ctzll(k);
        if (own[w] == m->src)
            still |= 1ull << w;
    }
    struct bytemask b;
    spx_bytes_of(&b, still, c->base.line_bytes);
    bytes_merge(x->line->data, m->data, &b, c->base.line_bytes);
    if (x->state == SL_R) {
        *owned_of(x->line) &= ~still;
        if (still)
            x->line->dirty = true;
    }
    x->tbe->acks--;
    msg_free(c->base.w.msgs, m);
    x->msg = NULL;
}

/* The gathered read: the line now holds every word's value (an owned word's
 * as of when its owner answered: the observer checked it there, since the
 * owner may have written it again since). */
static void reply_held(struct coh_ctx *x)
{
    struct spx_llc *c = llc_of(x->ctrl);
    struct msg *m = msg_list_pop(&x->tbe->merged);
    c->base.st.reads++;
    cache_touch(&c->base.cache, x->line);
    if (c->base.w.obs) {
        struct bytemask held_here;
        spx_bytes_of(&held_here, spx_all_words(c->base.line_bytes) & ~*owned_of(x->line),
                     c->base.line_bytes);
        obs_check(c->base.w.obs, c->base.w.name, x->addr, x->line->data, &held_here);
    }
    memcpy(m->data, x->line->data, c->base.line_bytes);
    /* an owner that answered (index + 1): DeNovo L1s' owner predictors learn it */
    uint64_t owned = *owned_of(x->line);
    m->sharer = owned ? owners_of(c, x->line)[__builtin_ctzll(owned)] + 1u : 0;
    ctrl_l2_respond(&c->base, m, SPX_RSP_V, SPX_VNET_RSP, TRAFFIC_LD, (uint16_t)c->base.line_bytes);
}

static void relay(struct coh_ctx *x)
{
    struct spx_llc *c = llc_of(x->ctrl);
    struct msg *m = x->msg;
    c->st.relays++;
    m->src = (uint16_t)m->sharer;
    ctrl_l2_respond(&c->base, m, SPX_RELAY, SPX_VNET_RSP, m->size_bytes ? TRAFFIC_LD : TRAFFIC_REQ,
                    m->size_bytes);
    x->msg = NULL;
}

/* The one L1 that owns all of `words` of the line, or UINT32_MAX. */
static unsigned sole_owner(struct spx_llc *c, struct cache_line *l, uint64_t words)
{
    if (!l || !words || (words & ~*owned_of(l)))
        return UINT32_MAX;
    const uint16_t *own = owners_of(c, l);
    unsigned o = own[__builtin_ctzll(words)];
    for (uint64_t k = words; k; k &= k - 1)
        if (own[__builtin_ctzll(k)] != o)
            return UINT32_MAX;
    return o;
}

/* Keep only the bytes of m's mask that lie in `words`. */
static void mask_to_words(struct msg *m, uint64_t words, unsigned line_bytes)
{
    struct bytemask in;
    spx_bytes_of(&in, words, line_bytes);
    for (unsigned i = 0; i < ARRAY_LEN(in.w); i++)
        m->mask.w[i] &= in.w[i];
}

/* ReqWTfwd(+data): the owner performs it and keeps the words; nothing
 * changes here. The owner answers the requester (msg->sharer). Words of a
 * ReqWTfwd that no L1 owns are written here first (spec 003 §2.6.1 decides
 * word by word), so the owner's answer completes the whole write; a Nack
 * then retries only the forwarded words. */
static void forward_wt(struct coh_ctx *x)
{
    struct spx_llc *c = llc_of(x->ctrl);
    struct msg *m = x->msg;
    unsigned requester = m->src;
    uint64_t words = req_words(c, m), owned = words & *owned_of(x->line);
    if (words != owned) {
        struct bytemask all = m->mask;
        mask_to_words(m, words & ~owned, c->base.line_bytes);
        ctrl_l2_perform_write(&c->base, x);
        c->st.wt_split++;
        m->mask = all;
        mask_to_words(m, owned, c->base.line_bytes);
    }
    m->src = (uint16_t)sole_owner(c, x->line, owned);
    m->sharer = requester;
    c->st.wt_forwarded++;
    c->st.forwards++;
    bool atomic = m->req.op == MEM_ATOMIC;
    ctrl_l2_respond(&c->base, m, SPX_FWD_WT, SPX_VNET_FWD, atomic ? TRAFFIC_ATO : TRAFFIC_ST,
                    atomic ? (uint16_t)atom_operand_bytes(m->req.atom)
                           : (uint16_t)bytemask_count(&m->mask));
    x->msg = NULL;
}

/* Hand m to L1 `to` on `vnet` past the access pipeline (no lookup). */
static void pass_on(struct spx_llc *c, struct msg *m, unsigned to, unsigned vnet)
{
    m->dst = (uint16_t)to;
    m->src = (uint16_t)c->base.w.index;
    m->vnet = (uint8_t)vnet;
    msg_list_push(vnet == SPX_VNET_FWD ? &c->pass_fwd : &c->pass_rsp, m);
}

/* A predicted request: to the predicted owner (msg->sharer), which learns
 * the requester from msg->sharer in turn. */
static void pass_predicted(struct coh_ctx *x)
{
    struct spx_llc *c = llc_of(x->ctrl);
    struct msg *m = x->msg;
    unsigned to = m->sharer;
    m->sharer = m->src;
    c->st.predicted_passed++;
    pass_on(c, m, to, SPX_VNET_FWD);
    x->msg = NULL;
}

/* An owner's answer: to the requester, naming the owner (msg->sharer: the
 * requester's owner predictor learns it). */
static void pass_answer(struct coh_ctx *x)
{
    struct spx_llc *c = llc_of(x->ctrl);
    struct msg *m = x->msg;
    unsigned to = m->sharer;
    m->sharer = m->src + 1u;
    m->type = SPX_RSP_OWNER;
    c->st.answers_passed++;
    pass_on(c, m, to, SPX_VNET_RSP);
    x->msg = NULL;
}

/* ReqWT+data on words no L1 owns: performed here, old values returned. The
 * observer sees the atomic's words only: other words of the line may be
 * owned elsewhere, and stale here. */
static void do_atomic(struct coh_ctx *x)
{
    struct spx_llc *c = llc_of(x->ctrl);
    struct msg *m = x->msg;
    struct observer *obs = c->base.w.obs;
    struct bytemask words;
    spx_bytes_of(&words, spx_atomic_words(m->req.atom), c->base.line_bytes);
    c->base.st.atomics++;
    cache_touch(&c->base.cache, x->line);
    if (obs)
        obs_check(obs, c->base.w.name, x->addr, x->line->data, &words);
    atom_apply(m->req.atom, x->line->data);
    x->line->dirty = true;
    if (obs) {
        obs_write(obs, x->addr, x->line->data, &words);
        obs_performed(obs, x->addr);
    }
    ctrl_l2_respond(&c->base, m, SPX_RSP_WT_DATA, SPX_VNET_RSP, TRAFFIC_ATO,
                    ctrl_atomic_rsp_bytes(m));
    x->msg = NULL;
}

static void clear_owners(struct coh_ctx *x)
{
    *owned_of(x->line) = 0;
    *sharers_of(x->line) = 0;
}

/* ReqS: the requester joins the sharers. */
static void add_sharer(struct coh_ctx *x)
{
    *sharers_of(x->line) |= 1ull << x->msg->src;
}

/* SI: Inv to every sharer (the requester too: its ReqO+data brings the
 * line); the sharers are none from now on. */
static void send_inv(struct coh_ctx *x)
{
    struct spx_llc *c = llc_of(x->ctrl);
    int n = 0;
    for (uint64_t k = *sharers_of(x->line); k; k &= k - 1) {
        struct msg *f = msg_new(c->base.w.msgs, SPX_INV, x->addr, c->base.comp.eng->now);
        f->src = (uint16_t)__builtin_ctzll(k); /* ctrl_l2_respond sends to m->src */
        ctrl_l2_respond(&c->base, f, SPX_INV, SPX_VNET_FWD, TRAFFIC_INV, 0);
        n++;
    }
    *sharers_of(x->line) = 0;
    x->tbe->acks = n;
    c->st.invalidations += (uint64_t)n;
}

static void take_inv_ack(struct coh_ctx *x)
{
    struct spx_llc *c = llc_of(x->ctrl);
    x->tbe->acks--;
    msg_free(c->base.w.msgs, x->msg);
    x->msg = NULL;
}

static const struct coh_action_name actions[] = {
    {ctrl_take_way, "take_way", "install the line in a free way (the fill comes later)"},
    {ctrl_alloc_tbe, "alloc_tbe", "allocate an MSHR"},
    {ctrl_l2_send_fetch, "send_fetch", "read the line from DRAM"},
    {ctrl_park, "park", "keep the request in the MSHR until the line is stable"},
    {ctrl_hold, "hold", "keep the read until the owners' words are in"},
    {ctrl_l2_fill_line, "fill_line", "write the DRAM data into the line"},
    {ctrl_wake_parked, "wake_parked",
     "free the MSHR; its parked requests replay before younger ones for the line"},
    {clear_owners, "clear_owners", "a new line: no word owned"},
    {nc_l2_reply_data, "reply_data", "send the line to the requester (RspV)"},
    {nc_l2_write_line, "write_line", "merge the written bytes, acknowledge (RspWT)"},
    {do_atomic, "do_atomic", "perform the atomic, return old values (RspWT+data)"},
    {grant_ownership, "grant_ownership",
     "owner ids := requester; FwdReqO to old owners; RspO (+data) with the relay count"},
    {send_fwd_v, "send_fwd_v", "FwdReqV to every owner of the line (they keep ownership)"},
    {send_rvk, "send_rvk", "RvkO to the owners of the words (they give them back)"},
    {take_wb, "take_wb", "write the words the writer still owns, clear them; ack (RspWB)"},
    {take_fwd_rsp, "take_fwd_rsp", "an owner's words into the line (R: owned by no one now)"},
    {reply_held, "reply_held", "answer the held read with the gathered line"},
    {relay, "relay", "pass an old owner's words on to the new owner"},
    {forward_read, "forward_read",
     "FwdReqV with the bank's words to the line's one owner, which answers the reader"},
    {forward_wt, "forward_wt", "FwdWT to the words' owner (it performs and keeps them)"},
    {pass_predicted, "pass_predicted", "hand the request to the predicted owner, no lookup"},
    {pass_answer, "pass_answer", "hand the owner's answer to the requester, no lookup"},
    {ctrl_l2_write_back, "write_back", "write the dirty line to DRAM"},
    {ctrl_drop_line, "drop_line", "free the way"},
    {add_sharer, "add_sharer", "the requester joins the line's sharers"},
    {send_inv, "send_inv", "Inv to every sharer; count the acks to expect"},
    {take_inv_ack, "take_inv_ack", "a sharer's InvAck"},
    {0},
};

/* The request events that wait in state s (a transient state: IV, G, R, SI). */
#define REQ_STALLS(s)                                                                              \
    [s][SL_ReqV] = STALL, [s][SL_ReqVOwned] = STALL, [s][SL_ReqVOwnedOne] = STALL,                 \
    [s][SL_ReqWT] = STALL, [s][SL_ReqWTdata] = STALL, [s][SL_ReqWTOwned] = STALL,                  \
    [s][SL_ReqO] = STALL, [s][SL_ReqWTfwd] = STALL, [s][SL_ReqS] = STALL,                          \
    [s][SL_ReqSOwned] = STALL

/* Predicted requests and owners' answers pass in every state, changing none. */
#define PASSES(s)                                                                                  \
    [s][SL_Predicted] = DO(s, 0, pass_predicted), [s][SL_OwnerAnswer] = DO(s, 0, pass_answer)

/*  state     event              next    uses               actions                            */
static const struct coh_trans spx_llc_cells[SL_NSTATES][SL_NEVENTS] = {
    PASSES(SL_I),
    [SL_I][SL_ReqV] = DO(SL_IV, TAG_RD | TAG_WR, ctrl_take_way, clear_owners, ctrl_alloc_tbe,
                         ctrl_l2_send_fetch, ctrl_park),
    [SL_I][SL_ReqWT] = DO(SL_IV, TAG_RD | TAG_WR, ctrl_take_way, clear_owners, ctrl_alloc_tbe,
                          ctrl_l2_send_fetch, ctrl_park),
    [SL_I][SL_ReqWTdata] = DO(SL_IV, TAG_RD | TAG_WR, ctrl_take_way, clear_owners, ctrl_alloc_tbe,
                              ctrl_l2_send_fetch, ctrl_park),
    [SL_I][SL_ReqO] = DO(SL_IV, TAG_RD | TAG_WR, ctrl_take_way, clear_owners, ctrl_alloc_tbe,
                         ctrl_l2_send_fetch, ctrl_park),
    [SL_I][SL_ReqS] = DO(SL_IV, TAG_RD | TAG_WR, ctrl_take_way, clear_owners, ctrl_alloc_tbe,
                         ctrl_l2_send_fetch, ctrl_park),
    [SL_I][SL_ReqWBStale] = DO(SL_I, TAG_RD, take_wb),
    [SL_I][SL_Relay] = DO(SL_I, 0, relay),
    PASSES(SL_V),
    [SL_V][SL_ReqV] = DO(SL_V, TAG_RD | DATA_RD, nc_l2_reply_data),
    [SL_V][SL_ReqWT] = DO(SL_V, TAG_RD | DATA_WR, nc_l2_write_line),
    [SL_V][SL_ReqWTdata] = DO(SL_V, TAG_RD | DATA_RD | DATA_WR, do_atomic),
    [SL_V][SL_ReqO] = DO(SL_O, TAG_RD | TAG_WR | DATA_RD, grant_ownership),
    [SL_V][SL_ReqS] = DO(SL_S, TAG_RD | TAG_WR | DATA_RD, add_sharer, nc_l2_reply_data),
    [SL_V][SL_ReqWBStale] = DO(SL_V, TAG_RD, take_wb),
    [SL_V][SL_Relay] = DO(SL_V, 0, relay),
    [SL_V][SL_Replace] = DO(SL_I, TAG_WR | DATA_RD, ctrl_l2_write_back, ctrl_drop_line),
    PASSES(SL_O),
    [SL_O][SL_ReqVOwned] = DO(SL_G, TAG_RD, ctrl_alloc_tbe, send_fwd_v, ctrl_hold),
    [SL_O][SL_ReqVOwnedOne] = DO(SL_O, TAG_RD | DATA_RD, forward_read),
    [SL_O][SL_ReqWT] = DO(SL_O, TAG_RD | DATA_WR, nc_l2_write_line),
    [SL_O][SL_ReqWTdata] = DO(SL_O, TAG_RD | DATA_RD | DATA_WR, do_atomic),
    [SL_O][SL_ReqWTOwned] = DO(SL_R, TAG_RD, ctrl_alloc_tbe, send_rvk, ctrl_park),
    [SL_O][SL_ReqWTfwd] = DO(SL_O, TAG_RD, forward_wt),
    [SL_O][SL_ReqSOwned] = DO(SL_R, TAG_RD, ctrl_alloc_tbe, send_rvk, ctrl_park),
    [SL_O][SL_ReqO] = DO(SL_O, TAG_RD | TAG_WR | DATA_RD, grant_ownership),
    [SL_O][SL_ReqWB] = DO(SL_O, TAG_RD | TAG_WR | DATA_WR, take_wb),
    [SL_O][SL_ReqWBLast] = DO(SL_V, TAG_RD | TAG_WR | DATA_WR, take_wb),
    [SL_O][SL_ReqWBStale] = DO(SL_O, TAG_RD, take_wb),
    [SL_O][SL_Relay] = DO(SL_O, 0, relay),
    [SL_O][SL_Replace] = DO(SL_R, TAG_RD, ctrl_alloc_tbe, send_rvk),
    PASSES(SL_IV),
    REQ_STALLS(SL_IV),
    [SL_IV][SL_ReqWBStale] = DO(SL_IV, 0, take_wb),
    [SL_IV][SL_Relay] = DO(SL_IV, 0, relay),
    [SL_IV][SL_MemData] = DO(SL_V, TAG_WR | DATA_WR, ctrl_l2_fill_line, ctrl_wake_parked),
    PASSES(SL_G),
    REQ_STALLS(SL_G),
    [SL_G][SL_ReqWB] = DO(SL_G, TAG_WR | DATA_WR, take_wb),
    [SL_G][SL_ReqWBLast] = DO(SL_G, TAG_WR | DATA_WR, take_wb),
    [SL_G][SL_ReqWBStale] = DO(SL_G, 0, take_wb),
    [SL_G][SL_Relay] = DO(SL_G, 0, relay),
    [SL_G][SL_FwdRsp] = DO(SL_G, DATA_WR, take_fwd_rsp),
    [SL_G][SL_FwdRspLastO] =
        DO(SL_O, DATA_WR | DATA_RD, take_fwd_rsp, reply_held, ctrl_wake_parked),
    [SL_G][SL_FwdRspLastV] =
        DO(SL_V, DATA_WR | DATA_RD, take_fwd_rsp, reply_held, ctrl_wake_parked),
    PASSES(SL_R),
    REQ_STALLS(SL_R),
    [SL_R][SL_ReqWB] = DO(SL_R, TAG_WR | DATA_WR, take_wb),
    [SL_R][SL_ReqWBLast] = DO(SL_R, TAG_WR | DATA_WR, take_wb),
    [SL_R][SL_ReqWBStale] = DO(SL_R, 0, take_wb),
    [SL_R][SL_Relay] = DO(SL_R, 0, relay),
    [SL_R][SL_FwdRsp] = DO(SL_R, DATA_WR, take_fwd_rsp),
    [SL_R][SL_FwdRspLastO] = DO(SL_O, DATA_WR, take_fwd_rsp, ctrl_wake_parked),
    [SL_R][SL_FwdRspLastV] = DO(SL_V, DATA_WR, take_fwd_rsp, ctrl_wake_parked),
    PASSES(SL_S),
    [SL_S][SL_ReqV] = DO(SL_S, TAG_RD | DATA_RD, nc_l2_reply_data),
    [SL_S][SL_ReqS] = DO(SL_S, TAG_RD | TAG_WR | DATA_RD, add_sharer, nc_l2_reply_data),
    [SL_S][SL_ReqWT] = DO(SL_SI, TAG_RD, ctrl_alloc_tbe, send_inv, ctrl_park),
    [SL_S][SL_ReqWTdata] = DO(SL_SI, TAG_RD, ctrl_alloc_tbe, send_inv, ctrl_park),
    [SL_S][SL_ReqO] = DO(SL_SI, TAG_RD, ctrl_alloc_tbe, send_inv, ctrl_park),
    [SL_S][SL_ReqWBStale] = DO(SL_S, TAG_RD, take_wb),
    [SL_S][SL_Relay] = DO(SL_S, 0, relay),
    [SL_S][SL_Replace] = DO(SL_SI, TAG_RD, ctrl_alloc_tbe, send_inv),
    PASSES(SL_SI),
    REQ_STALLS(SL_SI),
    [SL_SI][SL_ReqWBStale] = DO(SL_SI, 0, take_wb),
    [SL_SI][SL_Relay] = DO(SL_SI, 0, relay),
    [SL_SI][SL_InvAck] = DO(SL_SI, 0, take_inv_ack),
    [SL_SI][SL_InvAckLast] = DO(SL_V, TAG_WR, take_inv_ack, ctrl_wake_parked),
};

static void dump_ctx(struct coh_ctx *x, FILE *out)
{
    struct spx_llc *c = llc_of(x->ctrl);
    if (x->line) {
        fprintf(out, "  line %#llx: %s%s owned %#llx owners", (unsigned long long)x->line->addr,
                state_names[x->line->state], x->line->dirty ? " dirty" : "",
                (unsigned long long)*owned_of(x->line));
        for (uint64_t k = *owned_of(x->line); k; k &= k - 1)
            fprintf(out, " w%u:%u", (unsigned)__builtin_ctzll(k),
                    owners_of(c, x->line)[__builtin_ctzll(k)]);
        fputc('\n', out);
    }
    if (x->tbe)
        fprintf(out, "  mshr %#llx: acks %d held %u parked %u\n", (unsigned long long)x->tbe->addr,
                x->tbe->acks, x->tbe->merged.n, x->tbe->parked.n);
}

const struct coh_table spx_llc_table =
    COH_TABLE("spandex", "LLC", spx_llc_cells, ctrl_set_state, dump_ctx);

/* ---- classifier ---- */

static bool evictable(const struct cache_line *l, void *arg)
{
    (void)arg;
    return l->state == SL_V || l->state == SL_O || l->state == SL_S;
}

/* The words of m that `line` has owned by someone. */
static uint64_t owned_words(struct spx_llc *c, const struct coh_ctx *x, const struct msg *m)
{
    return x->line ? req_words(c, m) & *owned_of(x->line) : 0;
}

static unsigned classify_request(struct spx_llc *c, const struct coh_ctx *x, const struct msg *m)
{
    switch (m->type) {
    case SPX_REQ_V: {
        if (!owned_words(c, x, m))
            return SL_ReqV;
        unsigned o = c->direct_reads ? sole_owner(c, x->line, *owned_of(x->line)) : UINT32_MAX;
        return o != UINT32_MAX && o != m->src ? SL_ReqVOwnedOne : SL_ReqVOwned;
    }
    case SPX_REQ_WTFWD:
    case SPX_REQ_WTFWD_DATA: {
        /* a write-through's words are forwarded to their owner, the others
         * written here (forward_wt); an atomic's all go to one owner */
        uint64_t words = req_words(c, m);
        if (m->type == SPX_REQ_WTFWD)
            words &= x->line ? *owned_of(x->line) : 0;
        unsigned o = sole_owner(c, x->line, words);
        if (o != UINT32_MAX && o != m->src)
            return SL_ReqWTfwd;
        /* not owned by another L1 alone: a ReqWT(+data) */
        if (owned_words(c, x, m))
            return SL_ReqWTOwned;
        return m->type == SPX_REQ_WTFWD ? SL_ReqWT : SL_ReqWTdata;
    }
    case SPX_REQ_S:
        return owned_words(c, x, m) ? SL_ReqSOwned : SL_ReqS;
    case SPX_REQ_WT:
        return owned_words(c, x, m) ? SL_ReqWTOwned : SL_ReqWT;
    case SPX_REQ_WT_DATA:
        return owned_words(c, x, m) ? SL_ReqWTOwned : SL_ReqWTdata;
    case SPX_REQ_O:
    case SPX_REQ_O_DATA:
        return SL_ReqO;
    case SPX_REQ_WB: {
        if (!x->line || x->state == SL_IV)
            return SL_ReqWBStale;
        uint64_t words = spx_words_of(&m->mask, c->base.line_bytes), mine = 0;
        const uint16_t *own = owners_of(c, x->line);
        for (uint64_t k = words & *owned_of(x->line); k; k &= k - 1)
            if (own[__builtin_ctzll(k)] == m->src)
                mine |= k & -k;
        if (!mine)
            return SL_ReqWBStale;
        return (*owned_of(x->line) & ~mine) ? SL_ReqWB : SL_ReqWBLast;
    }
    default:
        panic("%s: unexpected request type %u", c->base.w.name, m->type);
    }
}

/* One request (new or replayed). Returns false on a resource stall. */
static bool take_request(struct ctrl *b, struct msg *m)
{
    struct spx_llc *c = llc_of(b);
    struct coh_ctx x;
    ctrl_lookup(b, &x, m->addr);
    if (spx_predicted(m->type)) { /* no lookup: the state is only the table's row */
        x.msg = m;
        x.event = SL_Predicted;
        ctrl_step(b, &x);
        return true;
    }
    if (!x.line && m->type != SPX_REQ_WB) {
        if (tbe_full(&b->tbes) || !port_has_room(b->links.to_mem, 1)) {
            b->st.resource_stalls++;
            return false;
        }
        struct cache_line *way = cache_victim(&b->cache, m->addr, evictable, NULL);
        if (!way) {
            b->st.resource_stalls++;
            return false;
        }
        if (way->present) {
            if ((way->state == SL_O || way->state == SL_S) && tbe_full(&b->tbes)) {
                b->st.resource_stalls++;
                return false;
            }
            ctrl_fire(b, way->addr, NULL, SL_Replace);
            return false;
        }
    } else if (x.line && x.state != SL_IV && x.state != SL_G && x.state != SL_R &&
               x.state != SL_SI && tbe_full(&b->tbes)) {
        b->st.resource_stalls++; /* a G or R step needs an MSHR */
        return false;
    }
    x.msg = m;
    x.event = classify_request(c, &x, m);
    ctrl_step_or_park(b, &x);
    return true;
}

static void take_fwd_response(struct ctrl *b, struct msg *m)
{
    struct spx_llc *c = llc_of(b);
    struct coh_ctx x;
    ctrl_lookup(b, &x, m->addr);
    x.msg = m;
    if (m->flags & SPX_F_PASS) {
        x.event = SL_OwnerAnswer;
    } else if (m->type == SPX_INV_ACK) {
        panic_if(!x.tbe || x.state != SL_SI, "%s: InvAck for %#llx with nothing waiting", b->w.name,
                 (unsigned long long)m->addr);
        x.event = x.tbe->acks > 1 ? SL_InvAck : SL_InvAckLast;
    } else if (m->flags & SPX_F_RELAY) {
        x.event = SL_Relay;
    } else {
        panic_if(!x.tbe || !x.line, "%s: owner's words for %#llx with nothing waiting", b->w.name,
                 (unsigned long long)m->addr);
        if (x.tbe->acks > 1) {
            x.event = SL_FwdRsp;
        } else {
            /* the words still owned once this response is in */
            uint64_t owned = *owned_of(x.line);
            if (x.state == SL_R) {
                const uint16_t *own = owners_of(c, x.line);
                uint64_t words = spx_words_of(&m->mask, b->line_bytes);
                for (uint64_t k = words & owned; k; k &= k - 1)
                    if (own[__builtin_ctzll(k)] == m->src)
                        owned &= ~(k & -k);
            }
            x.event = owned ? SL_FwdRspLastO : SL_FwdRspLastV;
        }
    }
    ctrl_step(b, &x);
}

static void take_mem(struct ctrl *b, struct msg *m)
{
    if (!ctrl_l2_drop_wrack(b, m))
        ctrl_fire(b, m->addr, m, SL_MemData);
}

static bool spx_llc_tick(struct comp *cp)
{
    struct ctrl *b = (struct ctrl *)cp;
    struct port *reqs = b->links.net_in[SPX_VNET_REQ];
    struct spx_llc *c = llc_of(b);
    ctrl_tick_begin(b);
    bool moved = ctrl_l2_drain_pipe(b);
    moved |= ctrl_drain(&c->pass_fwd, b->links.net_out[SPX_VNET_FWD]);
    moved |= ctrl_drain(&c->pass_rsp, b->links.net_out[SPX_VNET_RSP]);
    moved |= ctrl_take_one(b, &b->in, take_mem);
    moved |= ctrl_take_one(b, b->links.net_in[SPX_VNET_FWDRSP], take_fwd_response);
    /* a new request (not a replay) that is taken is counted by its type */
    struct msg *fresh = b->replay.n ? NULL : port_peek(reqs);
    unsigned kind = fresh ? req_kind(fresh->type) : SPX_RK_N;
    unsigned side = fresh && fresh->src >= c->gpu_l1s;
    uint64_t words =
        fresh ? (uint64_t)__builtin_popcountll(spx_words_of(&fresh->mask, b->line_bytes)) : 0;
    if (ctrl_take_next(b, reqs, take_request)) {
        moved = true;
        if (kind < SPX_RK_N) {
            c->st.req_n[side][kind]++;
            c->st.req_words[side][kind] += words;
        }
    }
    if (moved)
        return true;
    if (c->pass_fwd.n || c->pass_rsp.n)
        return true; /* waiting for room in a vnet: look again next cycle */
    if (b->replay.n || port_peek(&b->pipe) || port_peek(reqs)) {
        struct port *const in[] = {&b->in, &b->pipe, b->links.net_in[SPX_VNET_FWDRSP]};
        return ctrl_stall_sleep(b, in, 3);
    }
    return false;
}

static void dump_mshr(const struct ctrl *b, const struct tbe *t, FILE *out)
{
    fprintf(out, "  mshr %#llx %s acks %d held %u parked %u\n", (unsigned long long)t->addr,
            b->table->state_names[t->state], t->acks, t->merged.n, t->parked.n);
}

static void spx_llc_dump(struct comp *cp, FILE *out)
{
    struct ctrl *b = (struct ctrl *)cp;
    if (!b->tbes.n_used && !b->replay.n && !b->pipe.n)
        return;
    fprintf(out, "%s (spandex LLC): %u MSHRs, %u replaying, %u in pipeline\n", b->w.name,
            b->tbes.n_used, b->replay.n, b->pipe.n);
    ctrl_dump_tbes(b, out, dump_mshr);
    ctrl_l2_dump_pipe(b, out);
}

/* ---- construction ---- */

static const struct ctrl_stat spx_llc_stat_rows[] = {
    CTRL_STATS_L2_ACCESSES,
    CTRL_STAT_OWN(struct spx_llc_stats, ownership_grants),
    CTRL_STAT_OWN(struct spx_llc_stats, forwards),
    CTRL_STAT_OWN(struct spx_llc_stats, revokes),
    CTRL_STAT_OWN(struct spx_llc_stats, gathers),
    CTRL_STAT_OWN(struct spx_llc_stats, direct_reads),
    CTRL_STAT_OWN(struct spx_llc_stats, relays),
    CTRL_STAT_OWN(struct spx_llc_stats, wb_stale),
    CTRL_STAT_OWN(struct spx_llc_stats, wt_forwarded),
    CTRL_STAT_OWN(struct spx_llc_stats, wt_split),
    CTRL_STAT_OWN(struct spx_llc_stats, predicted_passed),
    CTRL_STAT_OWN(struct spx_llc_stats, answers_passed),
    CTRL_STAT_OWN(struct spx_llc_stats, invalidations),
    CTRL_STAT_BASE(resource_stalls),
#define X(n, t)                                                                                    \
    {"requests.gpu." #n, CTRL_ST_OWN, offsetof(struct spx_llc_stats, req_n[0][SPX_RK_##n]), NULL}, \
        {"requests.cpu." #n, CTRL_ST_OWN, offsetof(struct spx_llc_stats, req_n[1][SPX_RK_##n]),    \
         NULL},                                                                                    \
        {"words.gpu." #n, CTRL_ST_OWN, offsetof(struct spx_llc_stats, req_words[0][SPX_RK_##n]),   \
         NULL},                                                                                    \
        {"words.cpu." #n, CTRL_ST_OWN, offsetof(struct spx_llc_stats, req_words[1][SPX_RK_##n]),   \
         NULL},
    SPX_REQ_KINDS(X)
#undef X
        CTRL_STAT_END,
};

void spx_llc_destroy(struct comp *cp)
{
    free(llc_of(cp)->owner);
    ctrl_destroy(cp);
}

struct comp *spx_llc_create(const struct ctrl_wiring *w)
{
    struct spx_llc *c = ctrl_alloc(sizeof *c);
    ctrl_l2_init(&c->base, w, &spx_llc_table, spx_llc_tick, spx_llc_dump, 0x5a00);
    ctrl_set_stats(&c->base, spx_llc_stat_rows, &c->st);
    c->words = c->base.line_bytes / SPX_WORD_BYTES;
    c->gpu_l1s = w->n_sms;
    c->direct_reads = fcs_spec_of(w->cfg)->l1_to_l1;
    if (c->words > 64 || c->base.line_bytes % SPX_WORD_BYTES)
        fatal("%s: Spandex keeps per-word state for at most 64 words of %u bytes a line (line "
              "%u bytes)",
              w->name, SPX_WORD_BYTES, c->base.line_bytes);
    size_t n = (size_t)c->base.cache.sets * c->base.cache.spec.ways * c->words;
    c->owner = calloc(n ? n : 1, sizeof *c->owner);
    if (!c->owner)
        panic("out of memory");
    return &c->base.comp;
}

uint64_t spx_llc_owners(struct comp *cp, addr_t line, uint16_t *ids, unsigned max)
{
    struct spx_llc *c = llc_of(cp);
    struct cache_line *l = cache_find(&c->base.cache, line);
    if (!l)
        return 0;
    uint64_t owned = *owned_of(l);
    const uint16_t *own = owners_of(c, l);
    for (unsigned w = 0; w < c->words && w < max; w++)
        ids[w] = owned >> w & 1 ? own[w] : 0;
    return owned;
}

void spx_llc_passing(struct comp *cp, const struct msg_list **fwd, const struct msg_list **rsp)
{
    *fwd = &llc_of(cp)->pass_fwd;
    *rsp = &llc_of(cp)->pass_rsp;
}

void spx_llc_dma(struct comp *cp, addr_t line, uint8_t *buf, const struct bytemask *wmask)
{
    struct ctrl *b = (struct ctrl *)cp;
    struct cache_line *l = cache_find(&b->cache, line);
    unsigned s = l ? l->state : SL_I;
    /* the L1s write owned words back at kernel end, so between kernels no
     * word is owned and the bank's data is current */
    ctrl_l2_dma(b, line, buf, wmask, s, s != SL_I && s != SL_V && s != SL_S);
}
