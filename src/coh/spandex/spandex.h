/*
 * spandex.h - messages, virtual networks and word masks of the Spandex LLC
 * (spec 003 §2.5) and its device L1s.
 *
 * Spandex keeps coherence state per word: a line at the LLC is I, V or has
 * owned words, each with its owner's id; devices talk to it with request
 * types of their own (Table 1). This file defines the base request types the
 * LLC serves here:
 *   ReqV        read the line, self-invalidated at acquires (GPU coherence,
 *               DeNovo loads);
 *   ReqWT       write-through of the masked bytes (GPU coherence stores);
 *   ReqWT+data  an atomic performed at the LLC (GPU coherence RMWs);
 *   ReqO        ownership of the masked words, no data (DeNovo stores);
 *   ReqO+data   ownership with the words' data (DeNovo RMWs);
 *   ReqWB       write-back of owned words (evictions, kernel-end flush);
 *   ReqS        read of the line as a registered sharer, writer-invalidated
 *               (MESI device loads, DeNovo loads typed ReqS): answered like ReqV; a later write or
 *               ownership request first invalidates every sharer (Inv,
 *               InvAck), and a ReqS of a line with owned words revokes them.
 * and the request types of spec 003 §2.6 that change no coherence state:
 *   ReqWTfwd(+data)  a write-through (atomic) the LLC forwards to the L1
 *               that owns the words, which performs it and keeps them
 *               (FwdWT); words not owned elsewhere: served as ReqWT(+data);
 *   ReqVo, ReqWTo(+data)  a read, write-through or atomic sent to a
 *               predicted owner (msg->sharer). The LLC passes it on without
 *               a lookup; the target serves it if it owns every word, else
 *               it Nacks and the requester retries at the LLC with ReqV,
 *               ReqWT or ReqWT+data (non-forwarded types: never Nacked, so
 *               a request is Nacked at most once).
 * An owner's answer to a forwarded or predicted request (RspOwner: done,
 * the words' data for ReqVo, or Nack) is passed back through the LLC the
 * same way. Passing skips the bank's access pipeline: the bank's router
 * hands the message on (see DEVIATION). With fcs.l1_to_l1 the L1s send
 * these straight to each other instead (ctrl_links.peer_out: their
 * messages cross the LLC -> L1 network from L1 to L1): a predicted request
 * to its owner on the forward vnet, an owner's answer (RspOwner) and an old
 * owner's words (Relay) to the requester on the response vnet.
 * The GPU-coherence device is rc's L1 (src/coh/nc/rc_l1.c): its GETS, WRITE
 * and ATOMIC are ReqV, ReqWT and ReqWT+data, and their responses keep the
 * numbers rc expects, so the same table serves both.
 * Four virtual networks: requests (L1 -> LLC, write-backs included),
 * responses (LLC -> requester, relayed owner data included), forwards (LLC ->
 * owner: FwdReqV, FwdReqO, RvkO, and the write-back acks, which must follow
 * the forwards the LLC sent before them: one vnet keeps that order), and
 * forward responses (owner -> LLC).
 * DEVIATION (the default, fcs.l1_to_l1 = false): the machine's networks run
 * L1 -> LLC and LLC -> L1 only, so an owner's answer to a forwarded request
 * reaches the requester through the LLC (the owner's data is relayed
 * without a state change) rather than directly: one more network crossing
 * than the paper's 3-hop forwards. fcs.l1_to_l1 = true is the paper's path
 * for everything but a read of a line whose owned words several L1s own, or
 * the reader itself (ReqV, gathered at the LLC): a line with one other owner
 * is read from it directly (FwdReqV with SPX_F_DIRECT).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef COH_SPANDEX_SPANDEX_H
#define COH_SPANDEX_SPANDEX_H

#include "coh/ctrl.h"
#include "coh/nc/nc.h"

enum {
    SPX_REQ_V = MSG_NC_GETS,         /* line read; answered by SPX_RSP_V */
    SPX_REQ_WT = MSG_NC_WRITE,       /* answered by SPX_RSP_WT */
    SPX_REQ_WT_DATA = MSG_NC_ATOMIC, /* answered by SPX_RSP_WT_DATA */
    SPX_RSP_V = MSG_NC_DATA,
    SPX_RSP_WT = MSG_NC_WRACK,
    SPX_RSP_WT_DATA = MSG_NC_ATOMRSP,
    SPX_REQ_O = MSG_PROTO_BASE + 8, /* ownership of msg->mask's words */
    SPX_REQ_O_DATA,                 /* ... and their data */
    SPX_REQ_WB,                     /* owned words' data back to the LLC */
    SPX_RSP_O,                      /* ownership granted; acks = relays to expect */
    SPX_RSP_WB,                     /* write-back taken (forward vnet) */
    SPX_FWD_V,                      /* LLC -> owner: send the owned words' data, keep them */
    SPX_FWD_O,                      /* LLC -> owner: give the words to msg->sharer */
    SPX_RVK_O,                      /* LLC -> owner: give the words back to the LLC */
    SPX_FWD_RSP,                    /* owner -> LLC: data of the words in msg->mask */
    SPX_RELAY,                      /* LLC -> new owner: an old owner's words (FWD_O) */
    SPX_REQ_WTFWD,                  /* ReqWTfwd: forwarded to the words' owner */
    SPX_REQ_WTFWD_DATA,             /* ReqWTfwd+data */
    SPX_REQ_VO,                     /* ReqVo: to the predicted owner msg->sharer */
    SPX_REQ_WTO,                    /* ReqWTo */
    SPX_REQ_WTO_DATA,               /* ReqWTo+data */
    SPX_FWD_WT,                     /* LLC -> owner: perform this write or atomic, keep the words */
    SPX_RSP_OWNER,                  /* owner -> requester (passed by the LLC): done, data, Nack */
    SPX_REQ_S,                      /* line read as a sharer; answered by SPX_RSP_V */
    SPX_INV,                        /* LLC -> sharer: drop the line (forward vnet) */
    SPX_INV_ACK,                    /* sharer -> LLC: dropped (forward-response vnet) */
};

/* The predicted types: passed by the LLC to msg->sharer without a lookup. */
static inline bool spx_predicted(unsigned type)
{
    return type == SPX_REQ_VO || type == SPX_REQ_WTO || type == SPX_REQ_WTO_DATA;
}

/* What reaches an L1 on the forward vnet: the LLC's forwards, Inv and
 * write-back acks, and forwarded or predicted requests. */
static inline bool spx_to_l1_on_fwd(unsigned type)
{
    return type == SPX_FWD_V || type == SPX_FWD_O || type == SPX_RVK_O || type == SPX_INV ||
           type == SPX_RSP_WB || type == SPX_FWD_WT || spx_predicted(type);
}

enum { SPX_VNET_REQ, SPX_VNET_RSP, SPX_VNET_FWD, SPX_VNET_FWDRSP, SPX_NVNETS };
_Static_assert((int)SPX_VNET_REQ == NC_VNET_REQ && (int)SPX_VNET_RSP == NC_VNET_RSP,
               "rc's L1 and the nc bank's actions serve Spandex on their vnets");
extern const char *const spx_vnet_names[SPX_NVNETS];

/* msg->flags of SPX_FWD_RSP: the words go on to msg->sharer (an FWD_O), not
 * into the LLC. */
#define SPX_F_RELAY 0x2
/* msg->flags of SPX_FWD_O and SPX_FWD_RSP: the new owner wants the words'
 * data (ReqO+data). */
#define SPX_F_DATA 0x4
/* msg->flags of an owner's answer to a forwarded or predicted request
 * (SPX_FWD_RSP on its way to the LLC, SPX_RSP_OWNER after): the LLC passes it
 * to msg->sharer; NACK: the owner did not own every word and did nothing. */
#define SPX_F_PASS 0x8
#define SPX_F_NACK 0x10
/* msg->flags of SPX_REQ_WB: only the words of msg->ts (a word mask) carry
 * data; the mask's other words are clean (equal to the LLC's copy: fcs.wb_clean
 * = false) and only give ownership back. */
#define SPX_F_CLEAN 0x20
/* msg->flags of SPX_FWD_V (fcs.l1_to_l1, spec 003 §2.5): answer the
 * requester (msg->sharer) from L1 to L1 with the whole line, the owner's
 * words of msg->ts over the bank's others in msg->data; msg->mask is still
 * the request's. Not a bit of rc's L1 (NC_F_L1), whose flags it carries. */
#define SPX_F_DIRECT 0x40

#define SPX_WORD_BYTES 4u

/* The words (bit w: bytes 4w..4w+3) a byte mask touches. */
static inline uint64_t spx_words_of(const struct bytemask *m, unsigned line_bytes)
{
    uint64_t w = 0;
    for (unsigned i = 0; i < line_bytes; i++)
        if (bytemask_test(m, i))
            w |= 1ull << (i / SPX_WORD_BYTES);
    return w;
}

/* The byte mask of a word mask. */
static inline void spx_bytes_of(struct bytemask *m, uint64_t words, unsigned line_bytes)
{
    memset(m, 0, sizeof *m);
    for (unsigned w = 0; w < line_bytes / SPX_WORD_BYTES; w++)
        if (words >> w & 1)
            bytemask_set_range(m, w * SPX_WORD_BYTES, SPX_WORD_BYTES);
}

/* The words a forward asks this L1 for: msg->ts for a direct FwdReqV
 * (SPX_F_DIRECT), else its mask's. */
static inline uint64_t spx_fwd_words(const struct msg *m, unsigned line_bytes)
{
    return (m->type == SPX_FWD_V && (m->flags & SPX_F_DIRECT)) ? m->ts
                                                               : spx_words_of(&m->mask, line_bytes);
}

/* The words an atomic's lanes touch. */
static inline uint64_t spx_atomic_words(const struct atom_ops *a)
{
    uint64_t w = 0;
    unsigned bytes = atom_type_bytes((enum atom_type)a->type);
    for (unsigned i = 0; i < a->n; i++)
        for (unsigned b = 0; b < bytes; b += SPX_WORD_BYTES)
            w |= 1ull << ((a->lane[i].off + b) / SPX_WORD_BYTES);
    return w;
}

/* Every word of a line. */
static inline uint64_t spx_all_words(unsigned line_bytes)
{
    unsigned n = line_bytes / SPX_WORD_BYTES;
    return n >= 64 ? ~0ull : (1ull << n) - 1;
}

/* --check: the single-owner invariant (spx_obs.c). Device L1s that own
 * words register in Spandex's per-machine context (proto_desc.attach,
 * ctrl_wiring.proto_ctx; NULL without an observer, and then these do
 * nothing); before an L1 writes an owned word, no other L1 may hold it owned
 * in a writable state. */
struct spx_obs;
void *spx_obs_attach(const struct ctrl_wiring *w);
void spx_obs_detach(void *ctx);
void spx_obs_l1(struct spx_obs *o, unsigned index, unsigned n, struct comp *l1,
                uint64_t (*owned)(struct comp *l1, addr_t line));
void spx_obs_l1_gone(struct spx_obs *o, unsigned index);
void spx_obs_write(struct spx_obs *o, const char *who, unsigned index, addr_t line, uint64_t words);

/* What the device L1s that own words share (spx_dev.c). A forward (x->msg:
 * FwdReqV, FwdReqO or RvkO) answered from the words of its mask in `owned`
 * (FwdReqO: to the new owner, relayed by the LLC or, with L1-to-L1 paths,
 * fcs.l1_to_l1, sent to it directly; a direct FwdReqV, SPX_F_DIRECT: the
 * whole line to the requester, the words the bank named this L1 owner of
 * taken from the line); returns those words, frees or sends on the forward.
 * The caller drops them for FwdReqO and RvkO. */
uint64_t spx_dev_answer_forward(struct ctrl *b, struct coh_ctx *x, uint64_t owned);
/* ReqWB of the `owned` words of x->line. */
void spx_dev_send_wb(struct ctrl *b, struct coh_ctx *x, uint64_t owned);
/* ... with data only for the words of `dirty` (SPX_F_CLEAN): the other owned
 * words equal the LLC's copy. */
void spx_dev_send_wb_dirty(struct ctrl *b, struct coh_ctx *x, uint64_t owned, uint64_t dirty);
/* Answer a forwarded or predicted request (x->msg) through the LLC, which
 * passes the answer to the requester, or (fcs.l1_to_l1) to the requester
 * directly: done, the words, or (SPX_F_NACK) not performed. */
void spx_dev_answer_owner(struct ctrl *b, struct coh_ctx *x, uint16_t flags, uint8_t cls,
                          uint16_t bytes);
/* Room to answer any forward: on the forward-response vnet to the LLC and,
 * with L1-to-L1 paths, on the response vnet to the L1s. */
bool spx_dev_answer_room(const struct ctrl *b);
/* Whether a line of `line`'s set is in state wb_state (being written back). */
bool spx_dev_writing_back(const struct ctrl *b, addr_t line, unsigned wb_state);
/* Whether the replay list holds a message of the forward vnet (a forward,
 * Inv or write-back ack) for `line`: one woken from a TBE, or moved there
 * behind such a one. Later messages for the line queue behind it, so a line's
 * forwards are served in the order the LLC sent them. */
bool spx_dev_forward_waits(const struct ctrl *b, addr_t line);
/* Take the forward vnet's messages in the order the LLC sent them: one for
 * a line whose woken forward still waits on the replay list queues behind
 * it; the others are taken (take) while room() allows. Sets *moved when a
 * message moved, *blocked when room() refused one. */
void spx_dev_take_forwards(struct ctrl *b, bool (*room)(struct ctrl *, const struct msg *),
                           void (*take)(struct ctrl *, struct msg *), bool *moved, bool *blocked);
/* Room for the worst case of one core step: a victim's ReqWB and TBE, the
 * request and its TBE. */
bool spx_dev_room(const struct ctrl *b);
/* The watchdog's dump: queues and TBEs (kind: "DeNovo L1"). */
void spx_dev_dump(const struct ctrl *b, const char *kind, unsigned kernel_ends, FILE *out);

/* The MESI device L1 (mesi_l1.c), for CPU cores (cpu.device = mesi). */
extern const struct coh_table spx_mesi_l1_table;
extern const struct ctrl_ops spx_mesi_l1_ops;

/* The DeNovo device L1 (denovo_l1.c): its table, and its controller for
 * the protocols' descriptors (spx_protos.c); the noinv one (spandex-d-noinv,
 * a test only) keeps valid words at acquires. */
extern const struct coh_table dn_l1_table;
struct comp *spx_dn_create(const struct ctrl_wiring *w);
struct comp *spx_dn_noinv_create(const struct ctrl_wiring *w);
void spx_dn_destroy(struct comp *cp);

/* Read-only views for `gpucoh verify` (src/verify/verify_spandex.c), which
 * puts the state kept outside struct ctrl into its canonical digest: the
 * LLC's owner id of every owned word of `line` (ids[w] for word w < max of
 * the owned mask it returns; 0: none owned or the line absent), the
 * messages it passes on, and a DeNovo L1's owner predictor (the last
 * responder per request class: L1 index + 1, 0 the LLC; returns how many). */
uint64_t spx_llc_owners(struct comp *llc, addr_t line, uint16_t *ids, unsigned max);
void spx_llc_passing(struct comp *llc, const struct msg_list **fwd, const struct msg_list **rsp);
unsigned spx_dn_predictor(struct comp *l1, uint32_t *pred, unsigned max);

struct comp *spx_llc_create(const struct ctrl_wiring *w);
void spx_llc_dma(struct comp *c, addr_t line, uint8_t *buf, const struct bytemask *wmask);
void spx_llc_destroy(struct comp *c);
extern const struct coh_table spx_llc_table;
#define SPX_LLC_OPS                                                                                \
    {                                                                                              \
        spx_llc_create, ctrl_l2_connect, ctrl_in_port, spx_llc_destroy, spx_llc_dma, ctrl_peek,    \
            ctrl_stats                                                                             \
    }

#endif
