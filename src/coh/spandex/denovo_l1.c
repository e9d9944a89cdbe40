/*
 * denovo_l1.c - the DeNovo device L1 on the Spandex LLC (spec 003 §2.4,
 * §2.7): word-granularity valid and owned state, ownership for stores and
 * atomics, self-invalidation of valid (not owned) words at acquires.
 *
 * Requests (spandex.h): a load miss sends ReqV for the line (the response's
 * words fill every word the L1 does not own); a store to words it does not
 * own sends ReqO (ReqO+data when it writes part of a word); an atomic on
 * words it does not own sends ReqO+data and is then performed here, where
 * owned words are current ("atomic accesses can only hit on owned state").
 * A store or atomic completes (and the SM sees its ack) once the grant and
 * every relayed word of an old owner are in; forwards for words whose grant
 * is still on its way wait for it (they were sent after it); a word a
 * forward takes from a waiting request is asked for again. Owned words
 * serve forwarded requests: FwdReqV (send them, keep them), FwdReqO (send
 * them to the new owner through the LLC, or straight to it with
 * fcs.l1_to_l1, drop them) and RvkO (give them back to the LLC). An
 * evicted line with owned words is written back (ReqWB) and kept, serving
 * forwards, until the write-back's ack.
 * Acquires (kernel launch, .gpu/.sys fences and acquire loads or atomics)
 * drop every valid word that is neither owned nor shared; a ReqV fill
 * requested before an acquire answers its load but is not installed.
 * Releases need nothing here: the SM waits for its stores' acks, which
 * arrive once ownership is held.
 * Shared words (spec 003 §2.4, I6, I7): a load typed ReqS that misses reads
 * the line as a registered sharer (ReqS); the fill makes every word valid
 * and shared (state S: the LLC never answers a ReqS while a word of the line
 * is owned, so none is owned here). The LLC invalidates every sharer (Inv,
 * answered InvAck whether or not the line is here) before it performs any
 * write or atomic to the line or grants any of its words, this L1's own
 * requests included, so shared words are current while held: loads hit on
 * them (strong .gpu/.sys loads too), acquires keep them, and a line with
 * shared words is never granted or written through before its Inv is in.
 * Shared words leave silently (eviction) or at the Inv; an Inv that
 * overtakes the ReqS fill lets the fill answer its load (ordered before the
 * write) without installing. A ReqV or ReqVo fill makes the words it writes
 * valid but not shared (a downgrade, always safe: the LLC's later Inv is
 * only acknowledged).
 * DEVIATION: owned words are written back at kernel end (the host's copies
 * read the LLC, as MESI's L1 flushes at kernel end), so ownership does not
 * survive a kernel boundary, and shared words are dropped at kernel start
 * (the host's copies write the LLC without invalidating sharers, as for the
 * MESI L1); one request per line is outstanding (a second miss to a busy
 * line waits for the first).
 * Request types (spec 003 §2.6; fcs.* settings, docs/spandex.md): a load
 * that misses sends ReqV, ReqVo (to the predicted owner: the last L1 that
 * answered this L1's ReqVo or ReqV, or the LLC when none), ReqO+data (the
 * words read become owned) or ReqS (the line becomes shared); a store to
 * words not owned ReqO, ReqWT, ReqWTfwd
 * or ReqWTo; an atomic ReqO+data, ReqWT+data, ReqWTfwd+data or ReqWTo+data.
 * The write-through kinds leave the words where they are (BW until the
 * answer: from the LLC, or from the owner that performed it). As an owner
 * this L1 performs forwarded and predicted writes and atomics on words it
 * owns and keeps them, answers predicted reads from them, and Nacks what it
 * does not own entirely (nothing done); the requester then retries at the
 * LLC with ReqV, ReqWT or ReqWT+data, which are never Nacked. Under --check
 * a request performed twice (by an owner and again) or Nacked twice panics.
 * Forwards are served in the order the LLC sent them: forwards that waited
 * for a grant replay once it is in, and until they are served, later
 * messages of the forward vnet for the same line queue behind them. This
 * L1 can meet that race: a parked FwdWT leaves the words owned here at the
 * LLC, which goes on forwarding writes (FwdWT) and ownership (FwdReqO) of
 * them here, and predicted requests pass the LLC without a lookup, so a
 * newer one may arrive after the grant woke the older one; served first, a
 * FwdReqO would move the words before the older write is performed there
 * (which is then Nacked and retried), a FwdWT would reorder two writes.
 * (A parked FwdReqV or RvkO cannot be overtaken so: the LLC blocks the line
 * until this L1 answers it.)
 * Per line: meta[0] valid words, meta[1] owned words, meta[2] shared words
 * (INVARIANT: shared words are valid, never owned). Per TBE: meta[0] words
 * whose ownership is pending, meta[1] the held store or atomic (its msg->ts:
 * the words done, ts2: the rounds asked), acks the relays still expected
 * (negative until the grant says how many), pending the grant or fill still
 * expected.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "base/alloc.h"
#include "base/log.h"
#include "coh/spandex/fcs.h"
#include "coh/spandex/spandex.h"
#include "mem/observe.h"
#include "coh/machine_view.h"
#include "coh/spandex/fcs_options.h"

#define DN_STATES(X)                                                                               \
    X(I, "not present")                                                                            \
    X(V, "present, some words valid, none owned or shared")                                        \
    X(S, "every word valid and shared: registered at the LLC, invalidated before any write")       \
    X(O, "present, some words owned (current here, serve forwards)")                               \
    X(BV, "a ReqV is outstanding for the line")                                                    \
    X(BS, "a ReqS is outstanding for the line")                                                    \
    X(BO, "a ReqO is outstanding for some words (grant and relays to collect)")                    \
    X(W, "owned words written back (eviction or kernel end); kept until the ack")                  \
    X(BW, "a write-through, forwarded or predicted request is out (no state asked)")

#define DN_EVENTS(X)                                                                               \
    X(LoadHit, "load whose words are all valid or owned")                                          \
    X(Load, "load of a word not valid (ReqV: the line fills)")                                     \
    X(LoadL2, ".gpu/.sys load not all owned (ReqV, answered, not installed)")                      \
    X(StoreHit, "store to words all owned")                                                        \
    X(Store, "store to some word not owned (ReqO, ReqO+data for partial words)")                   \
    X(AtomicHit, "atomic on words all owned: performed here")                                      \
    X(Atomic, "atomic on some word not owned (ReqO+data, then performed here)")                    \
    X(Replace, "a fill needs this line's way: no word owned")                                      \
    X(ReplaceOwned, "a fill needs this line's way: write the owned words back")                    \
    X(SelfInv, "acquire: drop every valid word that is not owned")                                 \
    X(Flush, "kernel end: write the owned words back")                                             \
    X(Fill, "ReqV response: the line's words (no word owned here)")                                \
    X(FillOwned, "ReqV response for a line with owned words")                                      \
    X(Grant, "RspO, relays still expected")                                                        \
    X(GrantDone, "RspO with every relay in: perform the store or atomic")                          \
    X(Relay, "an old owner's words, more expected")                                                \
    X(RelayDone, "the last old owner's words with the grant in: perform")                          \
    X(GrantRetry, "RspO completing the words asked for, but a word the request needs was taken")   \
    X(RelayRetry, "the last relay completing them, but a word the request needs was taken")        \
    X(WbAck, "RspWB: the write-back is in")                                                        \
    X(FwdV, "FwdReqV: send the owned words, keep them")                                            \
    X(FwdO, "FwdReqO: send the owned words to the new owner, drop them")                           \
    X(RvkO, "RvkO: give the owned words back to the LLC")                                          \
    X(FwdOLast, "FwdReqO taking the line's last owned words")                                      \
    X(RvkOLast, "RvkO taking the line's last owned words")                                         \
    X(FwdPending, "a forward for words whose grant is still on its way")                           \
    X(LoadOwn, "load of a word not valid, typed ReqO+data: own the words read")                    \
    X(LoadPred, "load of a word not valid, typed ReqVo: ask the predicted owner")                  \
    X(StoreWT, "store to some word not owned, typed ReqWT, ReqWTfwd or ReqWTo")                    \
    X(AtomicWT, "atomic on some word not owned, typed ReqWT+data, ReqWTfwd+data or ReqWTo+data")   \
    X(WTDone, "the write-through's answer (LLC or owner); no word owned here")                     \
    X(WTDoneOwned, "the write-through's answer; some words of the line owned here")                \
    X(PredFill, "the predicted owner's words for a ReqVo; no word owned here")                     \
    X(PredFillOwned, "the predicted owner's words for a ReqVo; some words owned here")             \
    X(Nack, "Nack of a forwarded or predicted write: retry at the LLC (ReqWT(+data))")             \
    X(NackLoad, "Nack of a ReqVo: retry at the LLC (ReqV)")                                        \
    X(FwdWT, "FwdWT, ReqWTo(+data) for words all owned here: perform, keep them")                  \
    X(PredV, "ReqVo for words all owned here: send them, keep them")                               \
    X(FwdNack, "a forwarded or predicted request for words not all owned here: Nack")              \
    X(LoadShared, "load of a word not valid, typed ReqS: read the line as a registered sharer")    \
    X(FillShared, "the ReqS response: every word valid and shared")                                \
    X(FillSharedLate, "the ReqS response after an Inv overtook it: answers the load only")         \
    X(Inv, "Inv: the LLC invalidates the line's sharers (acked whether or not it is here)")        \
    X(KernelStart, "kernel start: drop the shared words (the host may have written the LLC)")

#define X(n, d) DN_##n,
enum dn_state { DN_STATES(X) DN_NSTATES };
enum dn_event { DN_EVENTS(X) DN_NEVENTS };
#undef X
COH_NAMES(DN_STATES, DN_EVENTS);

struct dn_stats {
    uint64_t store_hits, atomic_hits, ownership_requests, forwards_served, revoked,
        self_invalidations, words_invalidated, writebacks, fills_dropped, ownership_retries,
        write_throughs, predicted_sent, forwarded_performed, predicted_reads_served, nacks_sent,
        nacks_received, shared_reads, invalidations, wb_clean_words;
};

/* The owner predictor's request classes (spec 003 §6.1: the last responder
 * per request type). */
enum { PRED_V, PRED_WT, PRED_WT_DATA, PRED_N };

struct dn_l1 {
    struct ctrl base;
    unsigned words;
    bool inv_pending;      /* an acquire was answered in this step: self-invalidate after it */
    struct msg_list kend;  /* KERNEL_END requests waiting for the flush */
    struct fcs_spec types; /* the request types to send */
    uint32_t pred[PRED_N]; /* last responder: L1 index + 1, 0 the LLC */
    uint16_t pick_type;    /* the classifier's choice for the step it classified */
    uint32_t pick_to;      /* ... and its predicted owner (L1 index + 1; 0: the LLC) */
    struct rng rng;        /* fcs.random and fcs.mispredict draws */
    bool bug_acquire_keeps_valid; /* spandex-d-noinv (test only): acquires drop nothing */
    struct dn_stats st;
    /* per way (sets * ways), fcs.wb_clean = false only: the owned words that
     * may differ from the LLC's copy (written here, or handed over by an old
     * owner); an owned word not in it came from the LLC's copy and was not
     * written since, so the LLC still holds its value (it cannot change
     * while this L1 owns the word: writes to it are forwarded here) */
    uint64_t *dirty_words;
};

/* The owned words of line l that may differ from the LLC's copy. */
static uint64_t *dirty_of(struct dn_l1 *c, const struct cache_line *l)
{
    return &c->dirty_words[l - c->base.cache.lines];
}

/* Words of line l written here or handed over: no longer equal to the
 * LLC's copy (fcs.wb_clean = false tracks them). */
static void mark_dirty(struct dn_l1 *c, const struct cache_line *l, uint64_t words)
{
    if (c->dirty_words)
        *dirty_of(c, l) |= words;
}

/* Words of line l that stop being owned here. */
static void mark_gone(struct dn_l1 *c, const struct cache_line *l, uint64_t words)
{
    if (c->dirty_words)
        *dirty_of(c, l) &= ~words;
}

static struct dn_l1 *dn_of(void *p)
{
    return p;
}

static uint64_t *valid_of(struct cache_line *l)
{
    return &l->meta[0];
}

static uint64_t *owned_of(struct cache_line *l)
{
    return &l->meta[1];
}

static uint64_t *shared_of(struct cache_line *l)
{
    return &l->meta[2];
}

static uint64_t core_words(const struct dn_l1 *c, const struct msg *m)
{
    if (m->req.op == MEM_ATOMIC)
        return spx_atomic_words(m->req.atom);
    return spx_words_of(&m->mask, c->base.line_bytes);
}

static bool is_acquire(const struct mem_req *r)
{
    return (r->sem == SEM_ACQUIRE || r->sem == SEM_ACQ_REL || r->sem == SEM_SC) &&
           r->scope >= SCOPE_GPU;
}

/* Perform an atomic on owned words of line l. The observer sees only the
 * owned words: the line's other words may be stale or absent here. */
static void apply_atomic(struct dn_l1 *c, struct cache_line *l, struct msg *m)
{
    struct observer *obs = c->base.w.obs;
    struct bytemask words;
    uint64_t w = spx_atomic_words(m->req.atom);
    spx_bytes_of(&words, w, c->base.line_bytes);
    if (obs) {
        spx_obs_write(c->base.w.proto_ctx, c->base.w.name, c->base.w.index, l->addr, w);
        obs_check(obs, c->base.w.name, l->addr, l->data, &words);
    }
    atom_apply(m->req.atom, l->data);
    l->dirty = true;
    mark_dirty(c, l, w);
    if (obs) {
        obs_write(obs, l->addr, l->data, &words);
        obs_performed(obs, l->addr);
    }
}

/* ---- actions ---- */

static void send_req_v(struct coh_ctx *x)
{
    struct dn_l1 *c = dn_of(x->ctrl);
    x->tbe->use_once = x->event == DN_LoadL2;
    x->tbe->acks = 0;
    x->msg->sharer = 0; /* the answer names the owner that supplied words, if any */
    ctrl_l1_send_gets(x, SPX_REQ_V, x->event == DN_Load, 0);
    (void)c;
}

/* ReqS: the line is read as a registered sharer. */
static void send_req_s(struct coh_ctx *x)
{
    struct dn_l1 *c = dn_of(x->ctrl);
    c->st.shared_reads++;
    x->tbe->use_once = false; /* set if an Inv overtakes the fill */
    x->tbe->acks = 0;
    x->msg->sharer = 0;
    ctrl_l1_send_gets(x, SPX_REQ_S, true, 0);
}

/* The words of `needed` still to do (msg->ts: the words done so far). */
static uint64_t words_left(const struct dn_l1 *c, const struct msg *m)
{
    return core_words(c, m) & ~m->ts;
}

/* The mask shape of request m: its instruction's, or under fcs.random a
 * random one (the stress tests' mix). */
static unsigned mask_shape(struct dn_l1 *c, const struct msg *m)
{
    if (c->types.random && !spx_type_kind(m->req.req_type))
        return SPXM_WORDS + (unsigned)rng_below(&c->rng, SPXM_N - SPXM_WORDS);
    return spx_type_shape(m->req.req_type);
}

/* ReqO for the words of held request m that are left and not owned (+data
 * for an atomic or when the store writes part of a word), as a message of
 * its own: m, with its mask and data, waits in the TBE for the grant. The
 * first round also asks for the other words of its instruction's mask shape
 * (Algorithm 4: words the core will own anyway), with their data. */
static void request_ownership(struct dn_l1 *c, struct coh_ctx *x, struct msg *m)
{
    uint64_t owned = x->line ? *owned_of(x->line) : 0, want = words_left(c, m);
    if (!m->ts2)
        want = spx_shape_words(mask_shape(c, m), want, c->words);
    want &= ~owned;
    struct bytemask whole, wrote;
    spx_bytes_of(&whole, want, c->base.line_bytes);
    for (unsigned i = 0; i < ARRAY_LEN(whole.w); i++)
        wrote.w[i] = whole.w[i] & m->mask.w[i];
    bool partial = m->req.op != MEM_STORE || memcmp(&whole, &wrote, sizeof whole) != 0;
    x->tbe->meta[0] = want;
    x->tbe->meta[1] = (uint64_t)(uintptr_t)m;
    x->tbe->acks = 0;
    x->tbe->pending++;
    c->st.ownership_requests++;
    struct msg *r = msg_new(c->base.w.msgs, SPX_REQ_O, x->addr, c->base.comp.eng->now);
    r->mask = whole;
    r->req = m->req;
    r->req.atom = NULL;
    ctrl_to_home(&c->base, r, partial ? SPX_REQ_O_DATA : SPX_REQ_O, SPX_VNET_REQ, TRAFFIC_REQ, 0);
}

static void send_req_o(struct coh_ctx *x)
{
    struct dn_l1 *c = dn_of(x->ctrl);
    struct msg *m = x->msg;
    m->ts = 0;
    m->ts2 = 0;
    if (m->req.op == MEM_ATOMIC)
        c->base.st.atomics++;
    else if (m->req.op == MEM_LOAD)
        c->base.st.load_misses++;
    else
        c->base.st.stores++;
    x->msg = NULL;
    request_ownership(c, x, m);
}

static void take_way_now(struct coh_ctx *x)
{
    ctrl_take_way(x);
    *valid_of(x->line) = 0;
    *owned_of(x->line) = 0;
    *shared_of(x->line) = 0;
    mark_gone(dn_of(x->ctrl), x->line, ~0ull);
}

/* A load hit. Shared words are current (the LLC invalidates them before
 * any write is performed), so under --check the ones the load reads must
 * equal the golden memory: a shared word that missed its Inv shows here. */
static void reply_hit(struct coh_ctx *x)
{
    struct dn_l1 *c = dn_of(x->ctrl);
    if (is_acquire(&x->msg->req))
        c->inv_pending = true;
    uint64_t shared = *shared_of(x->line) & core_words(c, x->msg);
    if (c->base.w.obs && shared) {
        struct bytemask b;
        spx_bytes_of(&b, shared, c->base.line_bytes);
        obs_check(c->base.w.obs, c->base.w.name, x->addr, x->line->data, &b);
    }
    ctrl_l1_reply_hit(x);
}

/* A store performed here on owned words (the observer checks no other L1
 * owns them). */
static void apply_store(struct dn_l1 *c, struct cache_line *l, struct msg *m)
{
    if (c->base.w.obs)
        spx_obs_write(c->base.w.proto_ctx, c->base.w.name, c->base.w.index, l->addr,
                      spx_words_of(&m->mask, c->base.line_bytes));
    ctrl_apply_store(&c->base, l, m);
    mark_dirty(c, l, spx_words_of(&m->mask, c->base.line_bytes));
}

static void store_hit(struct coh_ctx *x)
{
    struct dn_l1 *c = dn_of(x->ctrl);
    c->st.store_hits++;
    c->base.st.stores++;
    cache_touch(&c->base.cache, x->line);
    apply_store(c, x->line, x->msg);
    ctrl_to_core(&c->base, x->msg, c->base.hit_ps);
    x->msg = NULL;
}

static void atomic_hit(struct coh_ctx *x)
{
    struct dn_l1 *c = dn_of(x->ctrl);
    c->st.atomic_hits++;
    c->base.st.atomics++;
    cache_touch(&c->base.cache, x->line);
    apply_atomic(c, x->line, x->msg);
    if (is_acquire(&x->msg->req))
        c->inv_pending = true;
    ctrl_to_core(&c->base, x->msg, c->base.hit_ps);
    x->msg = NULL;
}

/* The answer to request x->msg is in: answer the core; an acquire (a
 * load-acquire or acquire atomic) self-invalidates after this step. */
static void answer_core(struct dn_l1 *c, struct coh_ctx *x)
{
    x->tbe->pending--;
    if (is_acquire(&x->msg->req))
        c->inv_pending = true;
    ctrl_to_core(&c->base, x->msg, 0);
    x->msg = NULL;
}

/* The fill: every word not owned takes the response's value (unless an
 * acquire came since the request: then it only answers its load). */
static void fill(struct coh_ctx *x)
{
    struct dn_l1 *c = dn_of(x->ctrl);
    struct msg *m = x->msg;
    uint64_t owned = *owned_of(x->line), take = spx_all_words(c->base.line_bytes) & ~owned;
    struct bytemask own;
    spx_bytes_of(&own, owned, c->base.line_bytes);
    bytes_merge(m->data, x->line->data, &own, c->base.line_bytes); /* owned words are newer */
    if (x->tbe->use_once) {
        c->st.fills_dropped++;
    } else {
        memcpy(x->line->data, m->data, c->base.line_bytes);
        *valid_of(x->line) |= take;
        *shared_of(x->line) &= ~take; /* valid, not shared: a downgrade, always safe */
        c->base.st.fills++;
    }
    c->pred[PRED_V] = m->sharer;
    answer_core(c, x);
}

/* The ReqS response: every word valid and shared (unless an Inv overtook it:
 * then it only answers its load, which the LLC ordered before the write).
 * INVARIANT: the LLC answers a ReqS only once no word of the line is owned,
 * and this L1 served the revokes of its own words before the answer left. */
static void fill_shared(struct coh_ctx *x)
{
    struct dn_l1 *c = dn_of(x->ctrl);
    struct msg *m = x->msg;
    if (x->event == DN_FillSharedLate) {
        c->st.fills_dropped++;
    } else {
        uint64_t all = spx_all_words(c->base.line_bytes);
        memcpy(x->line->data, m->data, c->base.line_bytes);
        *valid_of(x->line) = all;
        *shared_of(x->line) = all;
        c->base.st.fills++;
    }
    answer_core(c, x);
}

/* Inv: the shared words stop being valid (owned words and pending requests
 * are untouched); acknowledged whether or not the line is here. */
static void ack_inv(struct coh_ctx *x)
{
    struct dn_l1 *c = dn_of(x->ctrl);
    struct msg *m = x->msg;
    c->st.invalidations++;
    if (x->line) {
        *valid_of(x->line) &= ~*shared_of(x->line);
        *shared_of(x->line) = 0;
    }
    x->msg = NULL;
    ctrl_to_home(&c->base, m, SPX_INV_ACK, SPX_VNET_FWDRSP, TRAFFIC_INV, 0);
}

/* An Inv overtook the ReqS fill: the fill will answer its load only. */
static void fill_late(struct coh_ctx *x)
{
    x->tbe->use_once = true;
}

/* RspO: the grant, with data of the words the LLC held (+data) and the
 * number of old owners whose words are relayed. */
static void take_grant(struct coh_ctx *x)
{
    struct dn_l1 *c = dn_of(x->ctrl);
    struct msg *m = x->msg;
    bytes_merge(x->line->data, m->data, &m->mask, c->base.line_bytes);
    x->tbe->acks += m->acks;
    x->tbe->pending--;
    msg_free(c->base.w.msgs, m);
    x->msg = NULL;
}

static void take_relay(struct coh_ctx *x)
{
    struct dn_l1 *c = dn_of(x->ctrl);
    struct msg *m = x->msg;
    if (m->flags & SPX_F_DATA)
        bytes_merge(x->line->data, m->data, &m->mask, c->base.line_bytes);
    /* an old owner's words: the LLC's copy may be older */
    mark_dirty(c, x->line, spx_words_of(&m->mask, c->base.line_bytes));
    x->tbe->acks--;
    msg_free(c->base.w.msgs, m);
    x->msg = NULL;
}

/* Perform the part of held request m on the words `avail` (owned here):
 * a store's bytes there, an atomic's lanes there. */
static void perform_part(struct dn_l1 *c, struct cache_line *l, struct msg *m, uint64_t avail)
{
    if (m->req.op == MEM_LOAD) /* ReqO+data load: answered from the line when all are in */
        return;
    if (m->req.op != MEM_ATOMIC) {
        struct bytemask all = m->mask, part;
        spx_bytes_of(&part, avail, c->base.line_bytes);
        for (unsigned i = 0; i < ARRAY_LEN(part.w); i++)
            m->mask.w[i] = all.w[i] & part.w[i];
        apply_store(c, l, m);
        m->mask = all;
        return;
    }
    struct atom_ops *ops = m->req.atom, sub = *ops;
    uint8_t index[32];
    sub.n = 0;
    unsigned bytes = atom_type_bytes((enum atom_type)ops->type);
    for (unsigned i = 0; i < ops->n; i++) {
        uint64_t w = 0;
        for (unsigned b = 0; b < bytes; b += SPX_WORD_BYTES)
            w |= 1ull << ((ops->lane[i].off + b) / SPX_WORD_BYTES);
        if ((w & ~avail) == 0) {
            index[sub.n] = (uint8_t)i;
            sub.lane[sub.n++] = ops->lane[i];
        }
    }
    struct msg tmp = {.req = m->req};
    tmp.req.atom = &sub;
    apply_atomic(c, l, &tmp);
    for (unsigned k = 0; k < sub.n; k++)
        ops->lane[index[k]].result = sub.lane[k].result;
}

/* The grant and every relay are in: the requested words are owned and
 * current. Perform the held request on every word left that is owned now;
 * a word it needed that a forward took meanwhile (owned, not requested,
 * when the request left) is requested again, so each round performs at
 * least the words it requested. Answer the core when nothing is left. */
static void perform_held(struct coh_ctx *x)
{
    struct dn_l1 *c = dn_of(x->ctrl);
    struct msg *m = (struct msg *)(uintptr_t)x->tbe->meta[1];
    uint64_t granted = x->tbe->meta[0];
    panic_if(*shared_of(x->line),
             "invariant violated: %s granted words of line %#llx while it "
             "holds shared words (the LLC invalidates every sharer before a grant)",
             c->base.w.name, (unsigned long long)x->addr);
    *owned_of(x->line) |= granted;
    *valid_of(x->line) |= granted;
    x->tbe->meta[0] = 0;
    x->tbe->meta[1] = 0;
    cache_touch(&c->base.cache, x->line);
    uint64_t avail = words_left(c, m) & *owned_of(x->line);
    perform_part(c, x->line, m, avail);
    m->ts |= avail;
    if (words_left(c, m)) {
        c->st.ownership_retries++;
        /* each round performs at least the words it asked for, so a request
         * takes at most one round per word: more is a retry loop */
        if (++m->ts2 > (uint64_t)__builtin_popcountll(core_words(c, m)) && c->base.w.obs)
            panic("invariant violated: %s asked for ownership of line %#llx's words %llu times "
                  "for one request (retry loop)",
                  c->base.w.name, (unsigned long long)x->addr, (unsigned long long)m->ts2);
        request_ownership(c, x, m);
        /* forwards parked for the words just granted are due now (the LLC
         * may wait for them before it takes the new request) */
        ctrl_replay_first(&c->base, &x->tbe->parked);
        return;
    }
    if (m->req.op == MEM_ATOMIC && is_acquire(&m->req))
        c->inv_pending = true;
    if (m->req.op == MEM_LOAD)
        memcpy(m->data, x->line->data, c->base.line_bytes);
    ctrl_to_core(&c->base, m, 0);
}

/* A forward: the words of msg->mask this L1 owns go to the LLC (relayed to
 * the new owner for FwdReqO). FwdReqO and RvkO drop them here. */
static void serve_forward(struct coh_ctx *x)
{
    struct dn_l1 *c = dn_of(x->ctrl);
    bool keep = x->msg->type == SPX_FWD_V;
    c->st.forwards_served++;
    uint64_t words = spx_dev_answer_forward(&c->base, x, *owned_of(x->line));
    if (!keep) {
        *owned_of(x->line) &= ~words;
        *valid_of(x->line) &= ~words;
        mark_gone(c, x->line, words);
        c->st.revoked += (uint64_t)__builtin_popcountll(words);
    }
}

/* ReqWB of the owned words; the line stays (serving forwards) until the ack. */
static void send_wb(struct coh_ctx *x)
{
    struct dn_l1 *c = dn_of(x->ctrl);
    c->st.writebacks++;
    if (!c->dirty_words) {
        spx_dev_send_wb(&c->base, x, *owned_of(x->line));
        return;
    }
    uint64_t owned = *owned_of(x->line), dirty = *dirty_of(c, x->line) & owned;
    c->st.wb_clean_words += (uint64_t)__builtin_popcountll(owned & ~dirty);
    spx_dev_send_wb_dirty(&c->base, x, owned, dirty);
    mark_gone(c, x->line, owned);
}

static void wb_done(struct coh_ctx *x)
{
    struct dn_l1 *c = dn_of(x->ctrl);
    msg_free(c->base.w.msgs, x->msg);
    x->msg = NULL;
}

/* ---- write-through, forwarded and predicted requests (spec 003 §2.6) ---- */

static unsigned pred_class(const struct msg *m)
{
    return m->req.op == MEM_LOAD ? PRED_V : m->req.op == MEM_STORE ? PRED_WT : PRED_WT_DATA;
}

/* The type a write-through kind is retried with after a Nack: the same
 * request at the LLC, in a type that is never forwarded. */
static uint16_t retry_type(const struct msg *m)
{
    return m->req.op == MEM_LOAD    ? SPX_REQ_V
           : m->req.op == MEM_STORE ? SPX_REQ_WT
                                    : SPX_REQ_WT_DATA;
}

/* Send core request m (held in x->msg) as `type`; the TBE counts it. */
static void send_as(struct dn_l1 *c, struct coh_ctx *x, uint16_t type)
{
    struct msg *m = x->msg;
    bool atomic = m->req.op == MEM_ATOMIC, load = m->req.op == MEM_LOAD;
    uint8_t cls = load ? TRAFFIC_REQ : atomic ? TRAFFIC_ATO : TRAFFIC_ST;
    uint16_t bytes = load     ? 0
                     : atomic ? (uint16_t)atom_operand_bytes(m->req.atom)
                              : (uint16_t)bytemask_count(&m->mask);
    if (spx_predicted(type) && c->base.links.peer_out[SPX_VNET_FWD]) {
        /* L1 to L1 (fcs.l1_to_l1): to the predicted owner's forward vnet,
         * naming this L1 as the requester, as the LLC would pass it on */
        unsigned owner = m->sharer;
        m->sharer = c->base.w.index;
        x->tbe->pending++;
        ctrl_to_peer(&c->base, m, owner, type, SPX_VNET_FWD, cls, bytes);
        x->msg = NULL;
        return;
    }
    ctrl_l1_request(x, type, cls, bytes);
}

/* StoreWT, AtomicWT, LoadPred: the classifier's type (pick_type), to the
 * LLC or to the predicted owner (pick_to). A store's bytes go into the
 * valid words here too; an atomic's words are no longer valid here. */
static void send_wt(struct coh_ctx *x)
{
    struct dn_l1 *c = dn_of(x->ctrl);
    struct msg *m = x->msg;
    m->ts = 0;  /* times performed by an owner (--check) */
    m->ts2 = 0; /* Nacks */
    m->flags = 0;
    m->sharer = c->pick_to ? c->pick_to - 1 : 0;
    if (spx_predicted(c->pick_type))
        c->st.predicted_sent++;
    if (m->req.op == MEM_STORE) {
        c->st.write_throughs++;
        c->base.st.stores++;
        bytes_merge(x->line->data, m->data, &m->mask, c->base.line_bytes);
    } else if (m->req.op == MEM_ATOMIC) {
        c->st.write_throughs++;
        c->base.st.atomics++;
        *valid_of(x->line) &= ~spx_atomic_words(m->req.atom);
        *shared_of(x->line) &= ~spx_atomic_words(m->req.atom);
    } else {
        c->base.st.load_misses++;
        x->tbe->use_once = false;
        /* a ReqVo asks for its shape's words not here (Algorithm 4), which
         * the predicted owner serves if it owns them all */
        uint64_t touched = core_words(c, m), here = *owned_of(x->line) | *valid_of(x->line),
                 want = spx_shape_words(mask_shape(c, m), touched, c->words) & ~here;
        struct bytemask b;
        spx_bytes_of(&b, want, c->base.line_bytes);
        for (unsigned i = 0; i < ARRAY_LEN(b.w); i++)
            m->mask.w[i] |= b.w[i];
    }
    send_as(c, x, c->pick_type);
}

/* The owner predictor learns who answered (msg->sharer: L1 index + 1, or 0
 * for the LLC). */
static void learn(struct dn_l1 *c, const struct msg *m, uint32_t who)
{
    c->pred[pred_class(m)] = who;
}

/* The answer to a write-through kind: done. */
static void wt_done(struct coh_ctx *x)
{
    struct dn_l1 *c = dn_of(x->ctrl);
    struct msg *m = x->msg;
    bool by_owner = m->type == SPX_RSP_OWNER;
    /* performed exactly once: by the owner that answers, or by the LLC */
    if (c->base.w.obs && m->ts != (by_owner ? 1u : 0u))
        panic("invariant violated: %s: a %s to line %#llx was performed %llu times by owners "
              "and answered by %s (forwarded updates are applied exactly once)",
              c->base.w.name, mem_op_names[m->req.op], (unsigned long long)x->addr,
              (unsigned long long)m->ts, by_owner ? "an owner" : "the LLC");
    learn(c, m, by_owner ? m->sharer : 0);
    answer_core(c, x);
}

/* The predicted owner's words for a ReqVo: they fill the words of the line
 * not owned here (unless an acquire came since: then they only answer). */
static void pred_fill(struct coh_ctx *x)
{
    struct dn_l1 *c = dn_of(x->ctrl);
    struct msg *m = x->msg;
    uint64_t words = core_words(c, m) & ~*owned_of(x->line);
    learn(c, m, m->sharer);
    if (!x->tbe->use_once) {
        struct bytemask b;
        spx_bytes_of(&b, words, c->base.line_bytes);
        bytes_merge(x->line->data, m->data, &b, c->base.line_bytes);
        *valid_of(x->line) |= words;
        *shared_of(x->line) &= ~words;
        c->base.st.fills++;
    } else {
        c->st.fills_dropped++;
    }
    answer_core(c, x);
}

/* A Nack: the target did not own every word and did nothing; retry at the
 * LLC with the non-forwarded type, which is never Nacked. */
static void retry_at_llc(struct coh_ctx *x)
{
    struct dn_l1 *c = dn_of(x->ctrl);
    struct msg *m = x->msg;
    c->st.nacks_received++;
    if (c->base.w.obs && (m->ts || ++m->ts2 > 1))
        panic("invariant violated: %s: a %s to line %#llx Nacked %s (no Nack loop; a Nacked "
              "request was not performed)",
              c->base.w.name, mem_op_names[m->req.op], (unsigned long long)x->addr,
              m->ts ? "after an owner performed it" : "twice");
    learn(c, m, 0);
    x->tbe->pending--;
    m->flags = 0;
    m->sharer = 0;
    if (m->req.op == MEM_LOAD) {
        c->base.st.load_misses--; /* counted again by the retry */
        ctrl_l1_send_gets(x, retry_type(m), true, 0);
        return;
    }
    send_as(c, x, retry_type(m));
}

/* FwdWT, ReqWTo(+data) for words all owned here: perform, keep them. */
static void serve_fwd_wt(struct coh_ctx *x)
{
    struct dn_l1 *c = dn_of(x->ctrl);
    struct msg *m = x->msg;
    c->st.forwarded_performed++;
    cache_touch(&c->base.cache, x->line);
    m->ts++;
    if (m->req.op == MEM_ATOMIC) {
        apply_atomic(c, x->line, m);
        spx_dev_answer_owner(&c->base, x, 0, TRAFFIC_ATO, ctrl_atomic_rsp_bytes(m));
    } else {
        apply_store(c, x->line, m);
        spx_dev_answer_owner(&c->base, x, 0, TRAFFIC_REQ, 0);
    }
}

/* ReqVo for words all owned here: send them, keep them. */
static void serve_pred_v(struct coh_ctx *x)
{
    struct dn_l1 *c = dn_of(x->ctrl);
    struct msg *m = x->msg;
    uint64_t words = core_words(c, m);
    struct bytemask b;
    spx_bytes_of(&b, words, c->base.line_bytes);
    c->st.predicted_reads_served++;
    cache_touch(&c->base.cache, x->line);
    if (c->base.w.obs)
        obs_check(c->base.w.obs, c->base.w.name, x->addr, x->line->data, &b);
    memcpy(m->data, x->line->data, c->base.line_bytes);
    spx_dev_answer_owner(&c->base, x, 0, TRAFFIC_LD,
                         (uint16_t)(__builtin_popcountll(words) * SPX_WORD_BYTES));
}

static void nack(struct coh_ctx *x)
{
    struct dn_l1 *c = dn_of(x->ctrl);
    c->st.nacks_sent++;
    spx_dev_answer_owner(&c->base, x, SPX_F_NACK, TRAFFIC_REQ, 0);
}

static void self_inv(struct coh_ctx *x)
{
    struct dn_l1 *c = dn_of(x->ctrl);
    if (x->line) {
        uint64_t *v = valid_of(x->line), keep = *owned_of(x->line) | *shared_of(x->line);
        c->st.words_invalidated += (uint64_t)__builtin_popcountll(*v & ~keep);
        *v &= keep;
    }
    if (x->tbe && (x->state == DN_BV || x->state == DN_BW))
        x->tbe->use_once = true;
}

static const struct coh_action_name actions[] = {
    {ctrl_alloc_tbe, "alloc_tbe", "allocate a TBE for the line"},
    {ctrl_wake_parked, "wake_parked",
     "free the TBE; its parked requests replay before younger ones for the line"},
    {take_way_now, "take_way", "install the line in a free way, no word valid"},
    {send_req_v, "send_req_v", "ReqV for the line (LoadL2: answered, not installed)"},
    {send_req_o, "send_req_o",
     "ReqO (+data for atomics and partial words) for the words not owned"},
    {reply_hit, "reply_hit", "answer the load from the line after the hit latency"},
    {store_hit, "store_hit", "write the owned words here, ack after the hit latency"},
    {atomic_hit, "atomic_hit", "perform the atomic on the owned words here"},
    {fill, "fill", "words not owned take the response (valid, not shared); answer the load"},
    {take_grant, "take_grant", "merge the LLC's words, count the relays to expect, hold the grant"},
    {take_relay, "take_relay", "merge an old owner's words"},
    {perform_held, "perform", "own the words; perform the held store or atomic and answer it"},
    {serve_forward, "serve_forward",
     "send the owned words to the LLC (FwdReqO: relayed to the new owner); FwdReqO/RvkO drop them"},
    {send_wb, "send_wb", "ReqWB of the owned words; keep the line until the ack"},
    {wb_done, "wb_done", "the write-back is in"},
    {self_inv, "self_inv",
     "drop valid words neither owned nor shared; an outstanding ReqV fill will not install"},
    {ctrl_drop_line, "drop_line", "free the way"},
    {ctrl_park, "park", "wait until the line's state changes"},
    {send_wt, "send_wt",
     "send the typed request to the LLC or the predicted owner (stores: bytes into valid words)"},
    {wt_done, "wt_done", "answer the core; the predictor learns who performed it"},
    {pred_fill, "pred_fill", "the owner's words fill the words not owned; answer the load"},
    {retry_at_llc, "retry_at_llc", "Nacked: send ReqV, ReqWT or ReqWT+data to the LLC"},
    {serve_fwd_wt, "serve_fwd_wt", "perform the write or atomic on the owned words, answer"},
    {serve_pred_v, "serve_pred_v", "send the owned words to the requester, keep them"},
    {nack, "nack", "answer Nack: nothing done"},
    {send_req_s, "send_req_s", "ReqS for the line (registered as a sharer)"},
    {fill_shared, "fill_shared",
     "every word valid and shared (unless an Inv overtook the fill); answer the load"},
    {ack_inv, "ack_inv", "drop the shared words; InvAck to the LLC"},
    {fill_late, "fill_late", "the ReqS fill on its way will answer its load only"},
    {0},
};

/* A line busy with a request of its own: the core's typed misses wait. */
#define TYPED_STALLS(s)                                                                            \
    [s][DN_LoadOwn] = STALL, [s][DN_LoadPred] = STALL, [s][DN_StoreWT] = STALL,                    \
    [s][DN_AtomicWT] = STALL, [s][DN_LoadShared] = STALL
/* A line with a request out (BV, BS, BO): every core request but a load hit
 * on its words waits. */
#define BUSY_STALLS(s)                                                                             \
    [s][DN_Load] = STALL, [s][DN_LoadL2] = STALL, [s][DN_StoreHit] = STALL, [s][DN_Store] = STALL, \
    [s][DN_AtomicHit] = STALL, [s][DN_Atomic] = STALL, TYPED_STALLS(s)
/* ... and every core request waits. */
#define CORE_STALLS(s) [s][DN_LoadHit] = STALL, BUSY_STALLS(s)

/*  state    event              next    uses               actions                             */
static const struct coh_trans dn_cells[DN_NSTATES][DN_NEVENTS] = {
    [DN_I][DN_Load] = DO(DN_BV, TAG_RD | TAG_WR, take_way_now, ctrl_alloc_tbe, send_req_v),
    [DN_I][DN_LoadL2] = DO(DN_BV, TAG_RD | TAG_WR, take_way_now, ctrl_alloc_tbe, send_req_v),
    [DN_I][DN_Store] = DO(DN_BO, TAG_RD | TAG_WR, take_way_now, ctrl_alloc_tbe, send_req_o),
    [DN_I][DN_Atomic] = DO(DN_BO, TAG_RD | TAG_WR, take_way_now, ctrl_alloc_tbe, send_req_o),
    [DN_I][DN_LoadOwn] = DO(DN_BO, TAG_RD | TAG_WR, take_way_now, ctrl_alloc_tbe, send_req_o),
    [DN_I][DN_LoadPred] = DO(DN_BW, TAG_RD | TAG_WR, take_way_now, ctrl_alloc_tbe, send_wt),
    [DN_I][DN_StoreWT] = DO(DN_BW, TAG_RD | TAG_WR, take_way_now, ctrl_alloc_tbe, send_wt),
    [DN_I][DN_AtomicWT] = DO(DN_BW, TAG_RD | TAG_WR, take_way_now, ctrl_alloc_tbe, send_wt),
    [DN_I][DN_LoadShared] = DO(DN_BS, TAG_RD | TAG_WR, take_way_now, ctrl_alloc_tbe, send_req_s),
    [DN_I][DN_FwdNack] = DO(DN_I, 0, nack),
    [DN_I][DN_Inv] = DO(DN_I, 0, ack_inv), /* dropped silently before */
    [DN_V][DN_LoadHit] = DO(DN_V, TAG_RD | DATA_RD, reply_hit),
    [DN_V][DN_Load] = DO(DN_BV, TAG_RD, ctrl_alloc_tbe, send_req_v),
    [DN_V][DN_LoadL2] = DO(DN_BV, TAG_RD, ctrl_alloc_tbe, send_req_v),
    [DN_V][DN_Store] = DO(DN_BO, TAG_RD, ctrl_alloc_tbe, send_req_o),
    [DN_V][DN_Atomic] = DO(DN_BO, TAG_RD, ctrl_alloc_tbe, send_req_o),
    [DN_V][DN_LoadOwn] = DO(DN_BO, TAG_RD, ctrl_alloc_tbe, send_req_o),
    [DN_V][DN_LoadPred] = DO(DN_BW, TAG_RD, ctrl_alloc_tbe, send_wt),
    [DN_V][DN_StoreWT] = DO(DN_BW, TAG_RD | DATA_WR, ctrl_alloc_tbe, send_wt),
    [DN_V][DN_AtomicWT] = DO(DN_BW, TAG_RD, ctrl_alloc_tbe, send_wt),
    [DN_V][DN_LoadShared] = DO(DN_BS, TAG_RD, ctrl_alloc_tbe, send_req_s),
    [DN_V][DN_FwdNack] = DO(DN_V, 0, nack),
    [DN_V][DN_Replace] = DO(DN_I, TAG_WR, ctrl_drop_line),
    [DN_V][DN_SelfInv] = DO(DN_I, TAG_WR, self_inv, ctrl_drop_line),
    [DN_V][DN_Inv] = DO(DN_V, 0, ack_inv), /* shared words dropped before */
    /* every word valid and shared, so loads hit; no word owned, so no
     * forward comes (a predicted request is Nacked) */
    [DN_S][DN_LoadHit] = DO(DN_S, TAG_RD | DATA_RD, reply_hit),
    [DN_S][DN_Store] = DO(DN_BO, TAG_RD, ctrl_alloc_tbe, send_req_o),
    [DN_S][DN_Atomic] = DO(DN_BO, TAG_RD, ctrl_alloc_tbe, send_req_o),
    [DN_S][DN_StoreWT] = DO(DN_BW, TAG_RD | DATA_WR, ctrl_alloc_tbe, send_wt),
    [DN_S][DN_AtomicWT] = DO(DN_BW, TAG_RD, ctrl_alloc_tbe, send_wt),
    [DN_S][DN_FwdNack] = DO(DN_S, 0, nack),
    [DN_S][DN_Replace] = DO(DN_I, TAG_WR, ctrl_drop_line), /* silently */
    [DN_S][DN_SelfInv] = DO(DN_S, 0, self_inv),            /* acquires keep shared words */
    [DN_S][DN_Inv] = DO(DN_I, TAG_WR, ack_inv, ctrl_drop_line),
    [DN_S][DN_KernelStart] = DO(DN_I, TAG_WR, ctrl_drop_line),
    [DN_O][DN_LoadHit] = DO(DN_O, TAG_RD | DATA_RD, reply_hit),
    [DN_O][DN_Load] = DO(DN_BV, TAG_RD, ctrl_alloc_tbe, send_req_v),
    [DN_O][DN_LoadL2] = DO(DN_BV, TAG_RD, ctrl_alloc_tbe, send_req_v),
    [DN_O][DN_StoreHit] = DO(DN_O, TAG_RD | DATA_WR, store_hit),
    [DN_O][DN_Store] = DO(DN_BO, TAG_RD, ctrl_alloc_tbe, send_req_o),
    [DN_O][DN_AtomicHit] = DO(DN_O, TAG_RD | DATA_RD | DATA_WR, atomic_hit),
    [DN_O][DN_Atomic] = DO(DN_BO, TAG_RD, ctrl_alloc_tbe, send_req_o),
    [DN_O][DN_LoadOwn] = DO(DN_BO, TAG_RD, ctrl_alloc_tbe, send_req_o),
    [DN_O][DN_LoadPred] = DO(DN_BW, TAG_RD, ctrl_alloc_tbe, send_wt),
    [DN_O][DN_StoreWT] = DO(DN_BW, TAG_RD | DATA_WR, ctrl_alloc_tbe, send_wt),
    [DN_O][DN_AtomicWT] = DO(DN_BW, TAG_RD, ctrl_alloc_tbe, send_wt),
    [DN_O][DN_LoadShared] = DO(DN_BS, TAG_RD, ctrl_alloc_tbe, send_req_s), /* revokes */
    [DN_O][DN_FwdWT] = DO(DN_O, DATA_RD | DATA_WR, serve_fwd_wt),
    [DN_O][DN_PredV] = DO(DN_O, DATA_RD, serve_pred_v),
    [DN_O][DN_FwdNack] = DO(DN_O, 0, nack),
    [DN_O][DN_ReplaceOwned] = DO(DN_W, TAG_RD | DATA_RD, ctrl_alloc_tbe, send_wb),
    [DN_O][DN_SelfInv] = DO(DN_O, TAG_WR, self_inv),
    [DN_O][DN_Flush] = DO(DN_W, TAG_RD | DATA_RD, ctrl_alloc_tbe, send_wb),
    [DN_O][DN_FwdV] = DO(DN_O, DATA_RD, serve_forward),
    [DN_O][DN_FwdO] = DO(DN_O, DATA_RD | TAG_WR, serve_forward),
    [DN_O][DN_RvkO] = DO(DN_O, DATA_RD | TAG_WR, serve_forward),
    [DN_O][DN_FwdOLast] = DO(DN_V, DATA_RD | TAG_WR, serve_forward),
    [DN_O][DN_RvkOLast] = DO(DN_V, DATA_RD | TAG_WR, serve_forward),
    [DN_BV][DN_LoadHit] = DO(DN_BV, TAG_RD | DATA_RD, reply_hit),
    BUSY_STALLS(DN_BV),
    [DN_BV][DN_SelfInv] = DO(DN_BV, TAG_WR, self_inv),
    [DN_BV][DN_Fill] = DO(DN_V, TAG_WR | DATA_WR, fill, ctrl_wake_parked),
    [DN_BV][DN_FillOwned] = DO(DN_O, TAG_WR | DATA_WR, fill, ctrl_wake_parked),
    [DN_BV][DN_FwdWT] = DO(DN_BV, DATA_RD | DATA_WR, serve_fwd_wt),
    [DN_BV][DN_PredV] = DO(DN_BV, DATA_RD, serve_pred_v),
    [DN_BV][DN_FwdNack] = DO(DN_BV, 0, nack),
    [DN_BV][DN_FwdV] = DO(DN_BV, DATA_RD, serve_forward),
    [DN_BV][DN_FwdO] = DO(DN_BV, DATA_RD | TAG_WR, serve_forward),
    [DN_BV][DN_RvkO] = DO(DN_BV, DATA_RD | TAG_WR, serve_forward),
    [DN_BV][DN_Inv] = DO(DN_BV, 0, ack_inv), /* a stale registration */
    [DN_BS][DN_LoadHit] = DO(DN_BS, TAG_RD | DATA_RD, reply_hit),
    BUSY_STALLS(DN_BS),
    [DN_BS][DN_SelfInv] = DO(DN_BS, TAG_WR, self_inv), /* the ReqS fill still installs */
    [DN_BS][DN_FillShared] = DO(DN_S, TAG_WR | DATA_WR, fill_shared, ctrl_wake_parked),
    [DN_BS][DN_FillSharedLate] = DO(DN_V, TAG_WR, fill_shared, ctrl_wake_parked),
    [DN_BS][DN_FwdWT] = DO(DN_BS, DATA_RD | DATA_WR, serve_fwd_wt),
    [DN_BS][DN_PredV] = DO(DN_BS, DATA_RD, serve_pred_v),
    [DN_BS][DN_FwdNack] = DO(DN_BS, 0, nack),
    [DN_BS][DN_FwdV] = DO(DN_BS, DATA_RD, serve_forward),
    [DN_BS][DN_FwdO] = DO(DN_BS, DATA_RD | TAG_WR, serve_forward),
    [DN_BS][DN_RvkO] = DO(DN_BS, DATA_RD | TAG_WR, serve_forward), /* the ReqS revokes */
    [DN_BS][DN_Inv] = DO(DN_BS, 0, ack_inv, fill_late),
    [DN_BO][DN_LoadHit] = DO(DN_BO, TAG_RD | DATA_RD, reply_hit),
    BUSY_STALLS(DN_BO),
    [DN_BO][DN_SelfInv] = DO(DN_BO, TAG_WR, self_inv),
    [DN_BO][DN_Grant] = DO(DN_BO, DATA_WR, take_grant),
    [DN_BO][DN_GrantDone] = DO(DN_O, TAG_WR | DATA_WR, take_grant, perform_held, ctrl_wake_parked),
    [DN_BO][DN_Relay] = DO(DN_BO, DATA_WR, take_relay),
    [DN_BO][DN_RelayDone] = DO(DN_O, TAG_WR | DATA_WR, take_relay, perform_held, ctrl_wake_parked),
    [DN_BO][DN_GrantRetry] = DO(DN_BO, TAG_WR | DATA_WR, take_grant, perform_held),
    [DN_BO][DN_RelayRetry] = DO(DN_BO, TAG_WR | DATA_WR, take_relay, perform_held),
    [DN_BO][DN_FwdV] = DO(DN_BO, DATA_RD, serve_forward),
    [DN_BO][DN_FwdO] = DO(DN_BO, DATA_RD | TAG_WR, serve_forward),
    [DN_BO][DN_RvkO] = DO(DN_BO, DATA_RD | TAG_WR, serve_forward),
    [DN_BO][DN_FwdPending] = DO(DN_BO, 0, ctrl_park),
    [DN_BO][DN_FwdWT] = DO(DN_BO, DATA_RD | DATA_WR, serve_fwd_wt),
    [DN_BO][DN_PredV] = DO(DN_BO, DATA_RD, serve_pred_v),
    [DN_BO][DN_FwdNack] = DO(DN_BO, 0, nack),
    [DN_BO][DN_Inv] = DO(DN_BO, TAG_WR, ack_inv), /* before the grant */
    CORE_STALLS(DN_W),
    [DN_W][DN_SelfInv] = DO(DN_W, 0, self_inv),
    [DN_W][DN_FwdV] = DO(DN_W, DATA_RD, serve_forward),
    [DN_W][DN_FwdO] = DO(DN_W, DATA_RD, serve_forward),
    [DN_W][DN_RvkO] = DO(DN_W, DATA_RD, serve_forward),
    [DN_W][DN_WbAck] = DO(DN_I, TAG_WR, wb_done, ctrl_drop_line, ctrl_wake_parked),
    [DN_W][DN_FwdNack] = DO(DN_W, 0, nack),
    CORE_STALLS(DN_BW),
    [DN_BW][DN_SelfInv] = DO(DN_BW, TAG_WR, self_inv),
    [DN_BW][DN_FwdV] = DO(DN_BW, DATA_RD, serve_forward),
    [DN_BW][DN_FwdO] = DO(DN_BW, DATA_RD | TAG_WR, serve_forward),
    [DN_BW][DN_RvkO] = DO(DN_BW, DATA_RD | TAG_WR, serve_forward),
    [DN_BW][DN_FwdWT] = DO(DN_BW, DATA_RD | DATA_WR, serve_fwd_wt),
    [DN_BW][DN_PredV] = DO(DN_BW, DATA_RD, serve_pred_v),
    [DN_BW][DN_FwdNack] = DO(DN_BW, 0, nack),
    [DN_BW][DN_WTDone] = DO(DN_V, TAG_WR, wt_done, ctrl_wake_parked),
    [DN_BW][DN_WTDoneOwned] = DO(DN_O, TAG_WR, wt_done, ctrl_wake_parked),
    [DN_BW][DN_PredFill] = DO(DN_V, TAG_WR | DATA_WR, pred_fill, ctrl_wake_parked),
    [DN_BW][DN_PredFillOwned] = DO(DN_O, TAG_WR | DATA_WR, pred_fill, ctrl_wake_parked),
    [DN_BW][DN_Nack] = DO(DN_BW, 0, retry_at_llc),
    [DN_BW][DN_NackLoad] = DO(DN_BV, TAG_WR, retry_at_llc),
    [DN_BW][DN_Inv] = DO(DN_BW, TAG_WR, ack_inv), /* before the write is performed */
};

static void dump_ctx(struct coh_ctx *x, FILE *out)
{
    if (x->line)
        fprintf(out, "  line %#llx: %s valid %#llx owned %#llx shared %#llx\n",
                (unsigned long long)x->line->addr, state_names[x->line->state],
                (unsigned long long)*valid_of(x->line), (unsigned long long)*owned_of(x->line),
                (unsigned long long)*shared_of(x->line));
    if (x->tbe)
        fprintf(out, "  tbe %#llx: %s pending %d relays %d words %#llx parked %u\n",
                (unsigned long long)x->tbe->addr, state_names[x->tbe->state], x->tbe->pending,
                x->tbe->acks, (unsigned long long)x->tbe->meta[0], x->tbe->parked.n);
}

const struct coh_table dn_l1_table =
    COH_TABLE("spandex", "DeNovo-L1", dn_cells, ctrl_set_state, dump_ctx);

/* ---- classifier ---- */

static bool performed_at_llc(const struct mem_req *r)
{
    return r->scope >= SCOPE_GPU && r->sem != SEM_WEAK;
}

/* The owner to send a predicted request of class k to (L1 index + 1), or 0
 * for the LLC: the last responder, unless fcs.mispredict sends it to another
 * L1 on purpose. */
static uint32_t predict_owner(struct dn_l1 *c, unsigned k)
{
    unsigned self = c->base.w.index, n = c->base.w.n_sms;
    if (c->types.mispredict && n > 1 && rng_below(&c->rng, 100) < c->types.mispredict) {
        unsigned t = (unsigned)rng_below(&c->rng, n - 1);
        return (t >= self ? t + 1 : t) + 1;
    }
    return c->pred[k] == self + 1 ? 0 : c->pred[k];
}

/* This access's request type: its instruction's (fcs.table), else the
 * fcs.load/store/rmw setting for its kind of access (a random type of the
 * full set under fcs.random), then what the hardware supports (fcs.fwd,
 * fcs.pred; spec 003 §2.10). */
static unsigned access_kind(struct dn_l1 *c, const struct msg *m)
{
    static const uint8_t load_kinds[] = {SPXK_V, SPXK_VO, SPXK_O_DATA, SPXK_S};
    static const uint8_t store_kinds[] = {SPXK_O, SPXK_WT, SPXK_WTFWD, SPXK_WTO};
    static const uint8_t rmw_kinds[] = {SPXK_O_DATA, SPXK_WT_DATA, SPXK_WTFWD_DATA, SPXK_WTO_DATA};
    unsigned op = m->req.op, k = spx_type_kind(m->req.req_type);
    if (!k) {
        unsigned t = op == MEM_LOAD    ? c->types.load
                     : op == MEM_STORE ? c->types.store
                                       : c->types.rmw;
        if (c->types.random) /* four kinds of each */
            t = (unsigned)rng_below(&c->rng, 4);
        k = op == MEM_LOAD ? load_kinds[t] : op == MEM_STORE ? store_kinds[t] : rmw_kinds[t];
    }
    return spx_req_kind_supported(k, c->types.fwd, c->types.pred);
}

/* The event of a load, store or atomic that misses, by its request type;
 * the type to send and the predicted owner go in pick_type and pick_to. */
static unsigned typed_miss(struct dn_l1 *c, const struct msg *m)
{
    unsigned k = access_kind(c, m);
    c->pick_to = 0;
    switch (k) {
    case SPXK_O_DATA:
        return m->req.op == MEM_LOAD ? DN_LoadOwn : m->req.op == MEM_STORE ? DN_Store : DN_Atomic;
    case SPXK_O:
        return DN_Store;
    case SPXK_VO:
        if ((c->pick_to = predict_owner(c, PRED_V))) {
            c->pick_type = SPX_REQ_VO;
            return DN_LoadPred;
        }
        return DN_Load;
    case SPXK_WT:
    case SPXK_WTFWD:
    case SPXK_WTO:
        c->pick_type = k == SPXK_WT ? SPX_REQ_WT : SPX_REQ_WTFWD;
        if (k == SPXK_WTO && (c->pick_to = predict_owner(c, PRED_WT)))
            c->pick_type = SPX_REQ_WTO;
        return DN_StoreWT;
    case SPXK_WT_DATA:
    case SPXK_WTFWD_DATA:
    case SPXK_WTO_DATA:
        c->pick_type = k == SPXK_WT_DATA ? SPX_REQ_WT_DATA : SPX_REQ_WTFWD_DATA;
        if (k == SPXK_WTO_DATA && (c->pick_to = predict_owner(c, PRED_WT_DATA)))
            c->pick_type = SPX_REQ_WTO_DATA;
        return DN_AtomicWT;
    case SPXK_S:
        return DN_LoadShared;
    default:
        return DN_Load; /* SPXK_V */
    }
}

/* fcs.strong_shared: a strong load typed ReqS (by its instruction, or by
 * fcs.load) may read the line as a sharer: shared words are current while
 * held (the LLC invalidates them before any write), as for its hits. */
static bool typed_shared(const struct dn_l1 *c, const struct msg *m)
{
    if (!c->types.strong_shared)
        return false;
    unsigned k = spx_type_kind(m->req.req_type);
    if (!k && !c->types.random && c->types.load == FCS_LD_S)
        k = SPXK_S;
    return k == SPXK_S;
}

static unsigned classify_core(struct dn_l1 *c, const struct coh_ctx *x)
{
    const struct msg *m = x->msg;
    uint64_t words = core_words(c, m);
    uint64_t owned = x->line ? *owned_of(x->line) : 0, valid = x->line ? *valid_of(x->line) : 0;
    uint64_t shared = x->line ? *shared_of(x->line) : 0;
    if (x->tbe && x->state == DN_BO) { /* words the held store or atomic will write */
        const struct msg *held = (const struct msg *)(uintptr_t)x->tbe->meta[1];
        uint64_t busy = x->tbe->meta[0] | words_left(c, held);
        owned &= ~busy;
        valid &= ~busy;
        shared &= ~busy;
    }
    bool all_owned = (words & ~owned) == 0;
    switch (m->req.op) {
    case MEM_LOAD:
        /* owned and shared words are current: even a .gpu/.sys load hits */
        if ((words & ~(owned | shared)) == 0)
            return DN_LoadHit;
        if (performed_at_llc(&m->req))
            return typed_shared(c, m) ? typed_miss(c, m) : DN_LoadL2;
        return (words & ~(owned | valid)) ? typed_miss(c, m) : DN_LoadHit;
    case MEM_STORE:
        return all_owned ? DN_StoreHit : typed_miss(c, m);
    default:
        return all_owned ? DN_AtomicHit : typed_miss(c, m);
    }
}

static bool evictable(const struct cache_line *l, void *arg)
{
    (void)arg;
    return l->state == DN_V || l->state == DN_S || l->state == DN_O;
}

static void order_op(struct ctrl *b, struct msg *m);

static void self_invalidate(struct dn_l1 *c)
{
    c->inv_pending = false;
    if (c->bug_acquire_keeps_valid)
        return;
    c->st.self_invalidations++;
    ctrl_l1_flash(&c->base, DN_SelfInv, -1);
    for (uint32_t i = 0; i < c->base.tbes.cap; i++) { /* fills in flight do not install */
        struct tbe *t = &c->base.tbes.e[i];
        if (t->used && (t->state == DN_BV || t->state == DN_BW))
            t->use_once = true;
    }
}

/* One core request (new or replayed), or a message of the forward vnet: a
 * forward that waited for a grant, or one queued behind such a forward. */
static bool take_core(struct ctrl *b, struct msg *m);

static void take_forward(struct ctrl *b, struct msg *m)
{
    struct dn_l1 *c = dn_of(b);
    struct coh_ctx x;
    ctrl_lookup(b, &x, m->addr);
    x.msg = m;
    if (m->type == SPX_RSP_WB) {
        x.event = DN_WbAck;
    } else if (m->type == SPX_INV) {
        x.event = DN_Inv;
    } else if (m->type == SPX_FWD_WT || spx_predicted(m->type)) {
        uint64_t words = core_words(c, m);
        uint64_t owned = x.line && x.state != DN_W ? *owned_of(x.line) : 0;
        if (m->type == SPX_FWD_WT && x.state == DN_BO && (words & x.tbe->meta[0]))
            x.event = DN_FwdPending; /* the LLC named this L1 owner: the grant is coming */
        else if (words & ~owned)
            x.event = DN_FwdNack;
        else
            x.event = m->type == SPX_REQ_VO ? DN_PredV : DN_FwdWT;
    } else {
        uint64_t words = spx_fwd_words(m, b->line_bytes);
        panic_if(!x.line, "%s: forward for %#llx, which it does not hold", b->w.name,
                 (unsigned long long)m->addr);
        if (x.state == DN_BO && (words & x.tbe->meta[0]))
            x.event = DN_FwdPending;
        else if (m->type == SPX_FWD_V)
            x.event = DN_FwdV;
        else if (x.state == DN_O && !(*owned_of(x.line) & ~words))
            x.event = m->type == SPX_FWD_O ? DN_FwdOLast : DN_RvkOLast;
        else
            x.event = m->type == SPX_FWD_O ? DN_FwdO : DN_RvkO;
    }
    ctrl_step(b, &x);
    (void)c;
}

/* Room to take message m of the forward vnet: everything but a write-back's
 * ack answers on the forward-response vnet (no forward here needs a TBE). */
static bool fwd_room(struct ctrl *b, const struct msg *m)
{
    return m->type == SPX_RSP_WB || spx_dev_answer_room(b);
}

static bool take_core(struct ctrl *b, struct msg *m)
{
    struct dn_l1 *c = dn_of(b);
    if (spx_to_l1_on_fwd(m->type)) {
        /* a forward parked behind a grant (the grant is in now), or a
         * message of the forward vnet queued behind such a forward */
        if (!fwd_room(b, m)) {
            b->st.resource_stalls++;
            return false;
        }
        take_forward(b, m);
        return true;
    }
    struct coh_ctx x;
    enum ctrl_take r = ctrl_l1_begin(b, &x, m, order_op, spx_dev_room(b), NULL);
    if (r != CTRL_GO)
        return r == CTRL_TAKEN;
    x.event = classify_core(c, &x);
    if (x.state == DN_I) {
        struct cache_line *way = cache_victim(&b->cache, m->addr, evictable, NULL);
        if (way && way->present && spx_dev_writing_back(b, m->addr, DN_W)) {
            /* a way of the set frees at its write-back's ack: wait for it
             * rather than evict another owned line */
            b->st.resource_stalls++;
            return false;
        }
        if (!way) {
            b->st.resource_stalls++;
            return false;
        }
        if (way->present) {
            ctrl_fire(b, way->addr, NULL, *owned_of(way) ? DN_ReplaceOwned : DN_Replace);
            if (way->present) { /* written back: the way frees at the ack */
                b->st.resource_stalls++;
                return false;
            }
        }
    }
    ctrl_step_or_park(b, &x);
    if (c->inv_pending)
        self_invalidate(c);
    return true;
}

/* Whether the held request can finish once the words it asked for are in:
 * every word it still needs is owned or asked for. */
static bool complete(const struct dn_l1 *c, const struct coh_ctx *x)
{
    const struct msg *held = (const struct msg *)(uintptr_t)x->tbe->meta[1];
    return (words_left(c, held) & ~(*owned_of(x->line) | x->tbe->meta[0])) == 0;
}

static void take_response(struct ctrl *b, struct msg *m)
{
    struct dn_l1 *c = dn_of(b);
    struct coh_ctx x;
    ctrl_l1_response(b, &x, m);
    switch (m->type) {
    case SPX_RSP_V:
        if (x.state == DN_BS) {
            panic_if(*owned_of(x.line),
                     "invariant violated: %s: a ReqS of line %#llx answered "
                     "while it owns words (the LLC revokes them first)",
                     b->w.name, (unsigned long long)m->addr);
            x.event = x.tbe->use_once ? DN_FillSharedLate : DN_FillShared;
        } else {
            x.event = *owned_of(x.line) ? DN_FillOwned : DN_Fill;
        }
        break;
    case SPX_RSP_OWNER:
        if (m->flags & SPX_F_NACK)
            x.event = m->req.op == MEM_LOAD ? DN_NackLoad : DN_Nack;
        else if (m->req.op == MEM_LOAD)
            x.event = *owned_of(x.line) ? DN_PredFillOwned : DN_PredFill;
        else
            x.event = *owned_of(x.line) ? DN_WTDoneOwned : DN_WTDone;
        break;
    case SPX_RSP_WT:
    case SPX_RSP_WT_DATA:
        x.event = *owned_of(x.line) ? DN_WTDoneOwned : DN_WTDone;
        break;
    case SPX_RSP_O:
        x.event = x.tbe->acks + m->acks != 0 ? DN_Grant
                  : complete(c, &x)          ? DN_GrantDone
                                             : DN_GrantRetry;
        break;
    default: /* SPX_RELAY */
        x.event = !(x.tbe->pending == 0 && x.tbe->acks == 1) ? DN_Relay
                  : complete(c, &x)                          ? DN_RelayDone
                                                             : DN_RelayRetry;
    }
    ctrl_step(b, &x);
    if (c->inv_pending)
        self_invalidate(c);
}

static bool has_owned_words(const struct cache_line *l)
{
    return l->state == DN_O;
}

/* Kernel end: write every owned line back while there is room; answer the
 * KERNEL_END once none is left and every write-back is acknowledged. */
static bool flush_step(struct dn_l1 *c)
{
    return ctrl_l1_flush_step(&c->base, &c->kend, has_owned_words, DN_Flush,
                              c->base.links.net_out[SPX_VNET_REQ]);
}

static void drop_shared(struct cache_line *l, void *arg)
{
    if (*shared_of(l))
        ctrl_fire(arg, l->addr, NULL, DN_KernelStart);
}

static void order_op(struct ctrl *b, struct msg *m)
{
    struct dn_l1 *c = dn_of(b);
    switch (m->req.op) {
    case MEM_KERNEL_END:
        msg_list_push(&c->kend, m);
        flush_step(c);
        return;
    case MEM_KERNEL_BEGIN:
        self_invalidate(c);
        cache_for_each(&b->cache, drop_shared, b);
        break;
    default:
        if (m->req.scope >= SCOPE_GPU)
            self_invalidate(c);
    }
    ctrl_to_core(b, m, 0);
}

static bool dn_tick(struct comp *cp)
{
    struct dn_l1 *c = dn_of(cp);
    struct ctrl *b = &c->base;
    bool moved = false, blocked = false;
    struct port *fwd = b->links.net_in[SPX_VNET_FWD], *rsp = b->links.net_in[SPX_VNET_RSP];
    ctrl_tick_begin(b);
    spx_dev_take_forwards(b, fwd_room, take_forward, &moved, &blocked);
    if (port_peek(rsp)) { /* a grant may send a new request (a retry) */
        if (port_has_room(b->links.net_out[SPX_VNET_REQ], 1)) {
            take_response(b, port_pop(rsp));
            moved = true;
        } else {
            b->st.resource_stalls++;
            blocked = true;
        }
    }
    if (c->kend.n && flush_step(c))
        moved = blocked = true;
    moved |= ctrl_take_next(b, &b->in, take_core);
    if (moved)
        return true;
    if (blocked || b->replay.n || port_peek(&b->in)) {
        struct port *const in[] = {fwd, rsp};
        return ctrl_stall_sleep(b, in, 2);
    }
    return false;
}

static void dn_dump(struct comp *cp, FILE *out)
{
    struct dn_l1 *c = dn_of(cp);
    spx_dev_dump(&c->base, "DeNovo L1", c->kend.n, out);
}

static const struct ctrl_stat dn_stat_rows[] = {
    CTRL_STATS_L1_ACCESSES,
    CTRL_STAT_OWN(struct dn_stats, store_hits),
    CTRL_STAT_OWN(struct dn_stats, atomic_hits),
    CTRL_STAT_OWN(struct dn_stats, ownership_requests),
    CTRL_STAT_OWN(struct dn_stats, ownership_retries),
    CTRL_STAT_OWN(struct dn_stats, forwards_served),
    CTRL_STAT_OWN(struct dn_stats, revoked),
    CTRL_STAT_OWN(struct dn_stats, self_invalidations),
    CTRL_STAT_OWN(struct dn_stats, words_invalidated),
    CTRL_STAT_OWN(struct dn_stats, writebacks),
    CTRL_STAT_OWN(struct dn_stats, write_throughs),
    CTRL_STAT_OWN(struct dn_stats, predicted_sent),
    CTRL_STAT_OWN(struct dn_stats, forwarded_performed),
    CTRL_STAT_OWN(struct dn_stats, predicted_reads_served),
    CTRL_STAT_OWN(struct dn_stats, nacks_sent),
    CTRL_STAT_OWN(struct dn_stats, nacks_received),
    CTRL_STAT_OWN(struct dn_stats, shared_reads),
    CTRL_STAT_OWN(struct dn_stats, invalidations),
    CTRL_STAT_OWN(struct dn_stats, wb_clean_words),
    CTRL_STAT_BASE(fills),
    CTRL_STAT_OWN(struct dn_stats, fills_dropped),
    CTRL_STAT_BASE(resource_stalls),
    CTRL_STAT_BASE(protocol_stalls),
    CTRL_STAT_END,
};

/* The words of `line` this L1 owns where it may write them (observer). */
static uint64_t owned_writable(struct comp *cp, addr_t line)
{
    struct cache_line *l = cache_find(&dn_of(cp)->base.cache, line);
    if (!l || l->state == DN_W)
        return 0;
    return *owned_of(l);
}

void spx_dn_destroy(struct comp *cp)
{
    struct dn_l1 *c = dn_of(cp);
    if (c->base.w.obs)
        spx_obs_l1_gone(c->base.w.proto_ctx, c->base.w.index);
    free(c->dirty_words);
    ctrl_destroy(cp);
}

struct comp *spx_dn_create(const struct ctrl_wiring *w)
{
    struct dn_l1 *c = ctrl_alloc(sizeof *c);
    ctrl_l1_init(&c->base, w, &dn_l1_table, dn_tick, dn_dump);
    ctrl_set_stats(&c->base, dn_stat_rows, &c->st);
    c->words = c->base.line_bytes / SPX_WORD_BYTES;
    c->types = *fcs_spec_of(w->cfg);
    rng_seed(&c->rng, w->cfg->sim.seed, 0xfc5000u + w->index);
    if (!c->types.wb_clean)
        c->dirty_words =
            xcalloc((size_t)c->base.cache.sets * c->base.cache.spec.ways, sizeof *c->dirty_words);
    if (c->words > 64 || c->base.line_bytes % SPX_WORD_BYTES)
        fatal("%s: DeNovo keeps per-word state for at most 64 words a line", w->name);
    if (w->obs)
        spx_obs_l1(w->proto_ctx, w->index, w->n_sms, &c->base.comp, owned_writable);
    return &c->base.comp;
}

unsigned spx_dn_predictor(struct comp *cp, uint32_t *pred, unsigned max)
{
    struct dn_l1 *c = dn_of(cp);
    unsigned n = MIN((unsigned)PRED_N, max);
    memcpy(pred, c->pred, n * sizeof *pred);
    return n;
}

struct comp *spx_dn_noinv_create(const struct ctrl_wiring *w)
{
    struct comp *cp = spx_dn_create(w);
    dn_of(cp)->bug_acquire_keeps_valid = true;
    return cp;
}
