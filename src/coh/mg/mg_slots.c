/*
 * mg_slots.c - the multi-GPM bank's release slots (struct mg_rel) as a
 * transition table (nhcc.Slots), run by the protocol engine (spec 004b §2.7,
 * §2.8; docs/multi-gpu.md).
 *
 * A slot waits for acknowledgements on behalf of one message. Its state is
 * what it waits for: a round of this bank's L1 releases (Round), another
 * GPM's marker (Marker), counted at a GPU home a system home's invalidation
 * passed on to its GPMs (Inv), counted at a system home a write or atomic a
 * GPU home forwarded (Fwd), or an sw-h .sys acquire waiting for the GPU's
 * other GPMs (Acq). The markers and acquires a slot sends are answered by
 * MSG_MG_MARKACK (Ack); the invalidations counted in it (mg.release =
 * counted) by MSG_MG_INVACK (InvAck). When mg_release.c finds it done (every
 * answer in and, counted, its generations drained) the slot answers its
 * message and is free again. A slot's state is its message's kind while it
 * holds one (r->m), Free otherwise; a message the state cannot take (an
 * answer for a free slot, an invalidation acknowledged in a slot that counts
 * none) is a hole: a simulator fault with the slot's dump (exit 3).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "base/log.h"
#include "coh/mg/mg_l2_int.h"

#define SLOT_STATES(X)                                                                             \
    X(Free, "no message: the slot is free")                                                        \
    X(Round, "a round of this bank's L1 releases: its markers' answers are awaited")               \
    X(Marker, "another GPM's marker: the markers of the next level down are awaited (counted: "    \
              "and what this bank sent before it)")                                                \
    X(Inv, "counted, a GPU home: a system home's invalidation passed on to the GPU's GPMs, "       \
           "acknowledged once they have it")                                                       \
    X(Fwd, "counted, a system home: a write or atomic a GPU home forwarded, acknowledged once "    \
           "its invalidations are")                                                                \
    X(Acq, "sw-h: a .sys acquire, answered once the GPU's other GPMs have dropped their copies")
#define SLOT_EVENTS(X)                                                                             \
    X(TakeRound, "a round of L1 releases starts (nhcc.Rounds' start_round)")                       \
    X(TakeMarker, "a marker arrives from another GPM's bank")                                      \
    X(TakeInv, "counted: an invalidation from the system home reaches a GPU home")                 \
    X(TakeFwd, "counted: a write or atomic a GPU home forwarded reaches the system home")          \
    X(TakeAcq, "sw-h: a .sys acquire from an L1 of this GPM")                                      \
    X(Count, "counted: an invalidation the directory sends now is counted in the slot")            \
    X(Ack, "MSG_MG_MARKACK: a marker or acquire the slot sent is answered")                        \
    X(InvAck, "MSG_MG_INVACK: an invalidation counted in the slot is acknowledged")                \
    X(Done, "every answer is in (counted: and the generations the slot waits for are drained)")

#define X(n, d) SL_##n,
enum slot_state { SLOT_STATES(X) SL_NSTATES };
#undef X
#define X(n, d) SE_##n,
enum slot_event { SLOT_EVENTS(X) SE_NEVENTS };
#undef X
COH_NAMES(SLOT_STATES, SLOT_EVENTS);

_Static_assert((int)SE_TakeRound == MG_SLOT_ROUND && (int)SE_TakeMarker == MG_SLOT_MARKER &&
                   (int)SE_TakeInv == MG_SLOT_INV && (int)SE_TakeFwd == MG_SLOT_FWD &&
                   (int)SE_TakeAcq == MG_SLOT_ACQ,
               "enum mg_slot_kind names the table's Take events in order");

/* The slot a step is about (x->tbe and x->line are unused here). */
struct slot_step {
    struct coh_ctx x;
    struct mg_rel *r;
};

static struct mg_rel *slot_of(struct coh_ctx *x)
{
    return ((struct slot_step *)x)->r;
}

static void take_slot(struct coh_ctx *x)
{
    struct mg_rel *r = slot_of(x);
    r->m = x->msg;
    r->left = 0;
    mg_slot_mark_used(mg_of(x->ctrl), r, true);
}

static void count_answer(struct coh_ctx *x)
{
    slot_of(x)->left++;
}

static void take_answer(struct coh_ctx *x)
{
    struct mg_rel *r = slot_of(x);
    panic_if(!r->left, "%s: slot %u has no answer outstanding", x->ctrl_name,
             (unsigned)(r - mg_of(x->ctrl)->rel));
    r->left--;
}

/* The answering actions free the slot first: the round's end that follows a
 * Round slot's Done (mg_release.c) may take it again. */
static struct msg *free_slot(struct coh_ctx *x)
{
    struct mg_rel *r = slot_of(x);
    struct msg *m = r->m;
    r->m = NULL;
    mg_slot_mark_used(mg_of(x->ctrl), r, false);
    return m;
}

static void end_round(struct coh_ctx *x)
{
    free_slot(x); /* the rounds' table answers the releases (Answered, AnsweredMore) */
}

static void answer_marker(struct coh_ctx *x)
{
    struct mg_l2 *c = mg_of(x->ctrl);
    struct msg *m = free_slot(x); /* m->sharer: the asking bank's slot */
    mg_sys_send(c, m, m->src / c->banks, NC_VNET_RSP, MSG_MG_MARKACK, TRAFFIC_REQ, 0);
}

static void answer_inv(struct coh_ctx *x)
{
    struct mg_l2 *c = mg_of(x->ctrl);
    struct msg *m = free_slot(x);
    mg_sys_send(c, m, m->src / c->banks, NC_VNET_RSP, MSG_MG_INVACK, TRAFFIC_INV, 0);
}

static void answer_fwd(struct coh_ctx *x)
{
    struct mg_l2 *c = mg_of(x->ctrl);
    struct msg *m = free_slot(x); /* m->ts2: the GPU home's GPM + 1 (mg_ack_slot) */
    unsigned to = (unsigned)(m->ts2 - 1);
    m->ts2 = 0;
    mg_sys_send(c, m, to, NC_VNET_RSP, MSG_MG_INVACK, TRAFFIC_REQ, 0);
}

static void answer_acq(struct coh_ctx *x)
{
    struct mg_l2 *c = mg_of(x->ctrl);
    ctrl_l2_respond(&c->base, free_slot(x), MSG_MG_RELACK, NC_VNET_RSP, TRAFFIC_REQ, 0);
}

static const struct coh_action_name actions[] = {
    {take_slot, "take_slot", "the slot holds the message; no answer outstanding yet"},
    {count_answer, "count_answer", "one more answer outstanding"},
    {take_answer, "take_answer", "one answer fewer outstanding"},
    {end_round, "end_round",
     "the slot is free; the rounds' table then answers the round's releases"},
    {answer_marker, "answer_marker", "MARKACK to the marker's bank"},
    {answer_inv, "answer_inv", "INVACK to the system home"},
    {answer_fwd, "answer_fwd", "INVACK to the GPU home that forwarded the write"},
    {answer_acq, "answer_acq", "RELACK to the acquiring L1"},
    {0},
};

/*  state        event               next        uses  actions                                  */
static const struct coh_trans slot_cells[SL_NSTATES][SE_NEVENTS] = {
    [SL_Free][SE_TakeRound] = DO(SL_Round, 0, take_slot),
    [SL_Free][SE_TakeMarker] = DO(SL_Marker, 0, take_slot),
    [SL_Free][SE_TakeInv] = DO(SL_Inv, 0, take_slot),
    [SL_Free][SE_TakeFwd] = DO(SL_Fwd, 0, take_slot),
    [SL_Free][SE_TakeAcq] = DO(SL_Acq, 0, take_slot),
    [SL_Round][SE_Ack] = DO(SL_Round, 0, take_answer),
    [SL_Round][SE_Done] = DO(SL_Free, 0, end_round),
    [SL_Marker][SE_Ack] = DO(SL_Marker, 0, take_answer),
    [SL_Marker][SE_Done] = DO(SL_Free, 0, answer_marker),
    [SL_Inv][SE_Count] = DO(SL_Inv, 0, count_answer),
    [SL_Inv][SE_InvAck] = DO(SL_Inv, 0, take_answer),
    [SL_Inv][SE_Done] = DO(SL_Free, 0, answer_inv),
    [SL_Fwd][SE_Count] = DO(SL_Fwd, 0, count_answer),
    [SL_Fwd][SE_InvAck] = DO(SL_Fwd, 0, take_answer),
    [SL_Fwd][SE_Done] = DO(SL_Free, 0, answer_fwd),
    [SL_Acq][SE_Ack] = DO(SL_Acq, 0, take_answer),
    [SL_Acq][SE_Done] = DO(SL_Free, 0, answer_acq),
    /* every cell not listed is a hole: a slot taken twice, an answer for a
     * free slot, an invalidation counted in (or acknowledged to) a slot that
     * sends none, a marker's answer to a slot that sent no marker */
};

static void slot_set_state(struct coh_ctx *x, unsigned next)
{
    slot_of(x)->state = (uint8_t)next;
}

static void slot_dump(struct coh_ctx *x, FILE *out)
{
    struct mg_l2 *c = mg_of(x->ctrl);
    struct mg_rel *r = slot_of(x);
    fprintf(out, "  release slot %u of %u: %s, %u answers outstanding%s\n", (unsigned)(r - c->rel),
            c->n_rel, state_names[r->m ? r->state : SL_Free], r->left,
            r->waiting ? ", waiting for its generations" : "");
}

const struct coh_table mg_slot_table =
    COH_TABLE("nhcc", "Slots", slot_cells, slot_set_state, slot_dump);

static void slot_step(struct mg_l2 *c, struct mg_rel *r, struct msg *m, unsigned event)
{
    struct slot_step s = {
        .x =
            {
                .ctrl = c,
                .ctrl_name = c->base.w.name,
                .eng = c->base.comp.eng,
                .addr = m ? m->addr : 0,
                .msg = m,
                .state = r->m ? r->state : SL_Free,
                .event = event,
            },
        .r = r,
    };
    coh_step(&mg_slot_table, c->slot_cov, &s.x);
}

struct mg_rel *mg_slot_take(struct mg_l2 *c, enum mg_slot_kind kind, struct msg *m)
{
    struct mg_rel *r = mg_rel_slot(c);
    slot_step(c, r, m, kind);
    return r;
}

void mg_slot_count(struct mg_l2 *c, struct mg_rel *r)
{
    slot_step(c, r, r->m, SE_Count);
}

void mg_slot_answer(struct mg_l2 *c, struct mg_rel *r, struct msg *m)
{
    slot_step(c, r, m, m->type == MSG_MG_INVACK ? SE_InvAck : SE_Ack);
}

bool mg_slot_done(struct mg_l2 *c, struct mg_rel *r)
{
    bool round = r->state == SL_Round;
    slot_step(c, r, r->m, SE_Done);
    return round;
}
