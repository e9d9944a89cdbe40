/*
 * vi_l2.c - the L2 bank of GPU-VI (inclusive, sharer vector with the tags)
 * and of the ideal-coherence reference.
 *
 * GPU-VI, spec 002 §3.4 (paper §4.2): a write to a line that other L1s share
 * completes only after the bank has invalidated every other copy and
 * collected every ack (S_W): until then the new value is held in the TBE and
 * shown to nobody, and later requests to the line park behind it; that is
 * how write atomicity is kept. The writer's own copy stays valid (the L1
 * wrote it at once, Opt 1). An atomic invalidates every sharer - its
 * requester dropped its own copy when it sent the atomic - and is performed
 * once the acks are in (S_A). Inclusion: evicting a line that L1s may hold
 * recalls every copy first (S_R, class RCL); the request that needed the way
 * retries meanwhile.
 * Ideal, spec 002 §3.3 (IDEAL-COH, "coherence costs no latency and no
 * traffic"): the same bank and sharer vector, but every write and atomic is
 * performed the moment it reaches the bank and answered at once, and its
 * invalidations (and the recalls of an eviction) go out on the free channel
 * of vi.h: zero latency, outside the crossbar, no acks. An L1 handles ready
 * invalidations before anything else in its cycle, so a copy dies at the
 * first L1 edge at or after the write, before any response carrying the new
 * value can reach any L1: writes stay atomic. Cost in simulated time: none
 * for the writer; a copy may live until the next L1 clock edge (< 1 core
 * cycle) after the write was performed, during which that L1 does nothing.
 * States: V = valid, no L1 holds a copy; S = valid, the sharer vector names
 * every L1 that may (bits go stale; it may even be empty after a write).
 * INVARIANT: an L1 copy exists only for lines in S, S_W, S_A or S_R, and
 *   only for L1s named in the vector or being invalidated.
 * DEVIATION: the spec's IS/IM are one state IV (parked requests replay, so
 *   the first request's kind does not matter); a write miss fetches the line;
 *   dirty is the line's dirty bit, not a state.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdlib.h>

#include "base/log.h"
#include "coh/vi/vi_bank.h"

/* The ideal table uses the first four states and eight events. */
#define VI_L2_STATES(X)                                                                            \
    X(I, "not present")                                                                            \
    X(V, "valid; no L1 holds a copy")                                                              \
    X(S, "valid; the sharer vector names every L1 that may hold a copy")                           \
    X(IV, "way taken, fill from DRAM outstanding; requests parked")                                \
    X(S_W, "write waiting for invalidation acks; the new value held in the TBE")                   \
    X(S_A, "atomic waiting for invalidation acks")                                                 \
    X(S_R, "recall before eviction, waiting for invalidation acks")

#define VI_L2_EVENTS(X)                                                                            \
    X(GetS, "read request from an L1")                                                             \
    X(Write, "write-through; no L1 but the writer's may hold a copy")                              \
    X(WriteInv, "write-through; other L1s may hold copies")                                        \
    X(Atomic, "atomic; no L1 but the requester's may hold a copy")                                 \
    X(AtomicInv, "atomic; other L1s may hold copies")                                              \
    X(Replace, "a miss needs this line's way; no L1 holds a copy")                                 \
    X(Recall, "a miss needs this line's way; L1s may hold copies")                                 \
    X(MemData, "fill from DRAM")                                                                   \
    X(InvAck, "invalidation ack, more expected")                                                   \
    X(LastAck, "the last invalidation ack")

#define X(n, d) L2_##n,
enum l2_state { VI_L2_STATES(X) L2_NSTATES };
enum l2_event { VI_L2_EVENTS(X) L2_NEVENTS };
#undef X
COH_NAMES(VI_L2_STATES, VI_L2_EVENTS);

enum { ID_NSTATES = L2_IV + 1, ID_NEVENTS = L2_MemData + 1 };

static const struct coh_action_name actions[] = {VI_BANK_ACTION_NAMES, {0}};

/* ---- the tables ---- */

/* The cells GPU-VI and IDEAL share: misses, the fill, reads, writes and
 * atomics no other L1 sees, evictions without copies. They differ in S +
 * WriteInv, AtomicInv and Recall: GPU-VI waits for the acks (S_W, S_A, S_R,
 * states IDEAL does not have), IDEAL performs at once. */
// clang-format off
/*  state      event            next     uses               actions                            */
#define VI_L2_COMMON_CELLS                                                                 \
    [L2_I][L2_GetS] = DO(L2_IV, TAG_RD | TAG_WR, ctrl_take_way, ctrl_alloc_tbe,            \
        ctrl_l2_send_fetch, ctrl_park),                                                    \
    [L2_I][L2_Write] = DO(L2_IV, TAG_RD | TAG_WR, ctrl_take_way, ctrl_alloc_tbe,           \
        ctrl_l2_send_fetch, ctrl_park),                                                    \
    [L2_I][L2_Atomic] = DO(L2_IV, TAG_RD | TAG_WR, ctrl_take_way, ctrl_alloc_tbe,          \
        ctrl_l2_send_fetch, ctrl_park),                                                    \
    [L2_IV][L2_GetS] = STALL,                                                              \
    [L2_IV][L2_Write] = STALL,                                                             \
    [L2_IV][L2_Atomic] = STALL,                                                            \
    [L2_IV][L2_MemData] = DO(L2_V, TAG_WR | DATA_WR, ctrl_l2_fill_line, ctrl_wake_parked), \
    [L2_V][L2_GetS] = DO(L2_S, TAG_RD | TAG_WR | DATA_RD, vi_reply_data),                  \
    [L2_V][L2_Write] = DO(L2_V, TAG_RD | DATA_WR, vi_write_line),                          \
    [L2_V][L2_Atomic] = DO(L2_V, TAG_RD | DATA_RD | DATA_WR, vi_do_atomic),                \
    [L2_V][L2_Replace] = DO(L2_I, TAG_WR | DATA_RD, ctrl_l2_write_back, vi_drop_line),     \
    [L2_S][L2_GetS] = DO(L2_S, TAG_RD | TAG_WR | DATA_RD, vi_reply_data),                  \
    [L2_S][L2_Write] = DO(L2_S, TAG_RD | DATA_WR, vi_write_line),                          \
    [L2_S][L2_Atomic] = DO(L2_V, TAG_RD | TAG_WR | DATA_RD | DATA_WR, vi_clear_sharers,    \
        vi_do_atomic),                                                                     \
    [L2_S][L2_Replace] = DO(L2_I, TAG_WR | DATA_RD, ctrl_l2_write_back, vi_drop_line)
// clang-format on

/*  state      event            next     uses               actions                            */
static const struct coh_trans vi_l2_cells[L2_NSTATES][L2_NEVENTS] = {
    VI_L2_COMMON_CELLS,
    [L2_S][L2_WriteInv] = DO(L2_S_W, TAG_RD | TAG_WR, ctrl_alloc_tbe, vi_send_invs, ctrl_hold),
    [L2_S][L2_AtomicInv] =
        DO(L2_S_A, TAG_RD | TAG_WR, ctrl_alloc_tbe, vi_send_invs, vi_clear_sharers, ctrl_hold),
    [L2_S][L2_Recall] = DO(L2_S_R, TAG_RD | TAG_WR, ctrl_alloc_tbe, vi_send_recalls),
    [L2_S_W][L2_GetS] = STALL,
    [L2_S_W][L2_Write] = STALL,
    [L2_S_W][L2_WriteInv] = STALL,
    [L2_S_W][L2_Atomic] = STALL,
    [L2_S_W][L2_AtomicInv] = STALL,
    [L2_S_W][L2_InvAck] = DO(L2_S_W, 0, ctrl_count_ack),
    [L2_S_W][L2_LastAck] =
        DO(L2_S, TAG_WR | DATA_WR, ctrl_count_ack, vi_perform_held, ctrl_wake_parked),
    [L2_S_A][L2_GetS] = STALL,
    [L2_S_A][L2_Write] = STALL,
    [L2_S_A][L2_Atomic] = STALL,
    [L2_S_A][L2_InvAck] = DO(L2_S_A, 0, ctrl_count_ack),
    [L2_S_A][L2_LastAck] =
        DO(L2_V, TAG_WR | DATA_RD | DATA_WR, ctrl_count_ack, vi_perform_held, ctrl_wake_parked),
    [L2_S_R][L2_GetS] = STALL,
    [L2_S_R][L2_Write] = STALL,
    [L2_S_R][L2_Atomic] = STALL,
    [L2_S_R][L2_InvAck] = DO(L2_S_R, 0, ctrl_count_ack),
    [L2_S_R][L2_LastAck] = DO(L2_I, TAG_WR | DATA_RD, ctrl_count_ack, ctrl_l2_write_back,
                              vi_drop_line, ctrl_wake_parked),
};

/* IDEAL's writes and atomics are performed the moment they reach the bank, and
 * its invalidations and recalls cost nothing: no state waits for acks. */
/*  state      event            next     uses               actions                            */
static const struct coh_trans ideal_l2_cells[ID_NSTATES][ID_NEVENTS] = {
    VI_L2_COMMON_CELLS,
    [L2_S][L2_WriteInv] = DO(L2_S, TAG_RD | TAG_WR | DATA_WR, vi_send_invs, vi_write_line),
    [L2_S][L2_AtomicInv] =
        DO(L2_V, TAG_RD | TAG_WR | DATA_RD | DATA_WR, vi_send_invs, vi_clear_sharers, vi_do_atomic),
    [L2_S][L2_Recall] =
        DO(L2_I, TAG_WR | DATA_RD, vi_send_recalls, ctrl_l2_write_back, vi_drop_line),
};

const struct coh_table vi_l2_table =
    COH_TABLE("gpuvi", "L2", vi_l2_cells, ctrl_set_state, ctrl_l2_dump_ctx);

const struct coh_table ideal_l2_table =
    COH_TABLE("ideal", "L2", ideal_l2_cells, ctrl_set_state, ctrl_l2_dump_ctx);

/* ---- the classifier ---- */

static void lookup(struct vi_bank *b, struct vi_ctx *v, addr_t line)
{
    vi_bank_ctx(b, v, line);
    v->dir = v->x.line; /* the sharer vector lives with the tags */
    v->x.state = v->x.tbe ? v->x.tbe->state : v->x.line ? v->x.line->state : L2_I;
}

static bool busy(unsigned s)
{
    return s == L2_IV || s == L2_S_W || s == L2_S_A || s == L2_S_R;
}

static bool evictable(unsigned s)
{
    return s == L2_V || s == L2_S;
}

static unsigned classify(const struct vi_ctx *v, const struct msg *m)
{
    bool others = coh_sharers_other(v->dir, m->src);
    switch (m->type) {
    case MSG_VI_GETS:
        return L2_GetS;
    case MSG_VI_WRITE:
        return others ? L2_WriteInv : L2_Write;
    case MSG_VI_ATOMIC:
        return others ? L2_AtomicInv : L2_Atomic;
    default:
        panic("gpuvi L2: unexpected request type %u", m->type);
    }
}

/* Evict `victim` through the table: a line some L1 may hold is recalled. */
static void evict(struct vi_bank *b, struct cache_line *victim)
{
    struct vi_ctx v;
    lookup(b, &v, victim->addr);
    vi_bank_step(b, &v, coh_sharers_none(v.dir) ? L2_Replace : L2_Recall);
}

/* One request. A miss first needs room and a free way: a full set gives up
 * its LRU stable line (recalling it if L1s may hold it) and the request
 * retries next cycle. Returns false on a resource stall. */
static bool take_request(struct vi_bank *b, struct msg *m)
{
    struct vi_ctx v;
    if (!vi_bank_room(b, true))
        return false;
    lookup(b, &v, m->addr);
    if (!v.x.line) {
        bool full;
        struct cache_line *victim = vi_bank_victim(b, &b->base.cache, m->addr, evictable, &full);
        if (full)
            return false;
        if (victim) {
            evict(b, victim);
            b->base.st.resource_stalls++;
            return false;
        }
    }
    vi_bank_step_or_park(b, &v, m, classify(&v, m));
    return true;
}

static const struct vi_bank_proto vi_proto = {&vi_l2_table, lookup,    take_request, busy,
                                              L2_MemData,   L2_InvAck, L2_LastAck};
static const struct vi_bank_proto ideal_proto = {&ideal_l2_table, lookup,    take_request, busy,
                                                 L2_MemData,      L2_InvAck, L2_LastAck};

static struct comp *vi_l2_create(const struct ctrl_wiring *w)
{
    return &vi_bank_create(w, &vi_proto)->base.comp;
}

/* gpuvi-noinv (test only): GPU-VI's bank with the seeded bug. */
static struct comp *vi_noinv_l2_create(const struct ctrl_wiring *w)
{
    struct vi_bank *b = vi_bank_create(w, &vi_proto);
    b->bug_forgets_inv = true;
    return &b->base.comp;
}

static struct comp *ideal_l2_create(const struct ctrl_wiring *w)
{
    return &vi_bank_create(w, &ideal_proto)->base.comp;
}

static const struct coh_table *const vi_tables[] = {&vi_l1_table, &vi_l2_table, NULL};
static const struct coh_table *const ideal_tables[] = {&ideal_l1_table, &ideal_l2_table, NULL};

/* Symmetry: the bank's sharer vectors name L1s (ideal's too: its free channel
 * is a port per L1 that the bank picks by the sharer's index, the L1's own, and
 * each L1 takes what arrives there within the step that sent it, so no
 * invalidation is ever left in one between the explorer's events; its INV
 * names the L1 in dst like GPU-VI's, and no INVACK is sent). gpuvi-noinv's bug forgets the
 * invalidation of the lowest-numbered other sharer: on 2 L1s that is the
 * only other one, on 3 a choice by number that a relabelling would not keep. */
static const struct proto_symmetry vi_symmetry = {
    .up = VI_SYMMETRY_UP, .down = VI_SYMMETRY_DOWN, .l2_sharers = true, .data_blind = true};
static const struct proto_symmetry vi_noinv_symmetry = {
    .up = VI_SYMMETRY_UP,
    .down = VI_SYMMETRY_DOWN,
    .l2_sharers = true,
    .only_l1s = 2,
    .only_why = "its seeded bug skips the lowest-numbered other sharer",
    .data_blind = true};

/* What `gpucoh verify` reads (struct proto_verify): the bank's invalidations
 * waiting for room, in struct vi_bank beside struct ctrl. */
static const struct proto_verify vi_verify = {.vi_bank = true};

const struct proto_desc proto_gpuvi = {
    .name = "gpuvi",
    .title = "GPU-VI: coherent write-through L1s, inclusive L2 with a sharer vector, "
             "invalidation on write (write-atomic)",
    .model = MODEL_PTX,
    .write_atomic = true,
    .check = coh_sharers_check,
    .n_vnets = VI_NVNETS,
    .vnet_names = vi_vnet_names,
    .tables = vi_tables,
    .n_l1_tables = 1,
    .l1 = VI_L1_OPS(vi_l1_create),
    .l2 = VI_BANK_OPS(vi_l2_create),
    .symmetry = &vi_symmetry,
    .verify = &vi_verify,
};

/* gpuvi with a deliberate bug for the explorer (tests/cli/verify.sh, docs/verify.md
 * "Seeded bugs"): a write or atomic leaves the first other sharer's copy valid. */
const struct proto_desc proto_gpuvi_noinv = {
    .name = "gpuvi-noinv",
    .title = "gpuvi with a deliberate bug for testing the checkers: a write's or atomic's "
             "invalidation of the first other sharer is never sent nor its ack expected",
    .test_only = true,
    .model = MODEL_PTX,
    .write_atomic = true,
    .check = coh_sharers_check,
    .n_vnets = VI_NVNETS,
    .vnet_names = vi_vnet_names,
    .tables = vi_tables,
    .n_l1_tables = 1,
    .l1 = VI_L1_OPS(vi_l1_create),
    .l2 = VI_BANK_OPS(vi_noinv_l2_create),
    .symmetry = &vi_noinv_symmetry,
    .verify = &vi_verify,
};

const struct proto_desc proto_ideal = {
    .name = "ideal",
    .title = "IDEAL-COH reference: GPU-VI whose writes complete on reaching the L2 and whose "
             "invalidations are instant and free (write-atomic)",
    .model = MODEL_PTX,
    .write_atomic = true,
    .check = coh_sharers_check,
    .uncut = "protocol ideal: its invalidation bus (bank -> L1) has no latency",
    .n_vnets = 2, /* request, response; invalidations use the free channel */
    .vnet_names = vi_vnet_names,
    .tables = ideal_tables,
    .n_l1_tables = 1,
    .l1 = VI_L1_OPS(ideal_l1_create),
    .l2 = VI_BANK_OPS(ideal_l2_create),
    .attach = vi_bus_new,
    .detach = vi_bus_free,
    .symmetry = &vi_symmetry,
    .verify = &vi_verify,
};
