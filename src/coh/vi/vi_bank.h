/*
 * vi_bank.h - what the L2 banks of GPU-VI, GPU-VIni and the ideal reference
 * share: the bank's structure, its pipeline and invalidation queue, and the
 * actions their tables have in common. Private to src/coh/vi/.
 *
 * A bank is write-back and write-allocate, performs atomics, serves one
 * request per cycle in order and parks requests to a busy line on its TBE
 * (spec 002 §2, §3.4). Each L2 file supplies its own table, lookup and
 * request classifier (`struct vi_bank_proto`); the tick, DRAM fills,
 * invalidation acks, construction, host access and statistics are shared
 * here, and what every controller shares comes from coh/ctrl.h (a bank is a
 * `struct ctrl`).
 * A line's sharer vector - the L1s that may hold a copy - lives in the
 * metadata of the line that holds it (`struct vi_ctx.dir`): the data line for
 * GPU-VI and the ideal reference, the directory entry for GPU-VIni. Bits go
 * stale when an L1 evicts silently; the L1 acks invalidations in every state.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef COH_VI_VI_BANK_H
#define COH_VI_VI_BANK_H

#include "coh/sharers.h"
#include "coh/vi/vi.h"

struct vi_bank_stats {
    uint64_t invs_sent, recalls_sent, writes_waited, dir_evictions;
};

struct vi_bank;
struct vi_ctx;

/* The protocol's part of a bank. lookup: fill a step's context for a line
 * (its line, TBE, sharer-vector line and state); request: one request from
 * an L1, false on a resource stall (it stays queued); busy: a transient
 * state (no host access); the events of a DRAM fill and of invalidation
 * acks (more expected, the last). */
struct vi_bank_proto {
    const struct coh_table *table;
    void (*lookup)(struct vi_bank *b, struct vi_ctx *v, addr_t line);
    bool (*request)(struct vi_bank *b, struct msg *m);
    bool (*busy)(unsigned state);
    unsigned mem_data, inv_ack, last_ack;
};

struct vi_bank {
    struct ctrl base; /* cache: the data array */
    const struct vi_bank_proto *p;
    struct cache dir; /* GPU-VIni: the sparse directory (entries of 4 bytes) */
    bool has_dir;
    unsigned dir_shift;      /* line address >> dir_shift = directory key */
    struct msg_list inv_out; /* invalidations waiting for room on the INV vnet */
    struct port **bus;       /* ideal: every L1's free invalidation port; else NULL */
    bool bug_forgets_inv;    /* gpuvi-noinv (test only): a write's or atomic's invalidation
                                of the first other sharer is never sent nor its ack expected */
    struct vi_bank_stats st;
};

/* The context of a bank's step: the line and TBE of coh_ctx, plus the line
 * whose metadata holds the sharer vector (NULL: no sharers tracked). */
struct vi_ctx {
    struct coh_ctx x;
    struct cache_line *dir;
};

static inline struct vi_ctx *vi_ctx_of(struct coh_ctx *x)
{
    return (struct vi_ctx *)x;
}

static inline struct vi_bank *vi_bank_of(struct coh_ctx *x)
{
    return x->ctrl;
}

/* ---- shared actions (see vi_bank.c for what each does) ---- */
coh_act vi_reply_data, vi_write_line, vi_do_atomic, vi_drop_line;
coh_act vi_send_invs, vi_send_recalls, vi_clear_sharers, vi_perform_held;
/* Name/description rows of the shared actions, for a table's action list. */
#define VI_BANK_ACTION_NAMES                                                                       \
    {ctrl_take_way, "take_way", "install the line in a free way (the fill comes later)"},          \
        {ctrl_alloc_tbe, "alloc_tbe", "allocate an MSHR/TBE for the line"},                        \
        {ctrl_l2_send_fetch, "send_fetch", "read the line from DRAM"},                             \
        {ctrl_park, "park", "keep the request in the TBE until the line's state changes"},         \
        {ctrl_l2_fill_line, "fill_line", "write the DRAM data into the line"},                     \
        {ctrl_wake_parked, "wake_parked", "free the TBE and replay its parked requests in order"}, \
        {vi_reply_data, "reply_data", "record the reader as a sharer, send it the line"},          \
        {vi_write_line, "write_line", "merge the written bytes, acknowledge the writer"},          \
        {vi_do_atomic, "do_atomic", "perform every lane's atomic on the line, return old values"}, \
        {ctrl_l2_write_back, "write_back", "write the line to DRAM if it is dirty"},               \
        {vi_drop_line, "drop_line", "free the data way"},                                          \
        {vi_send_invs, "send_invs",                                                                \
         "invalidate every sharer but the requester (class INV), expect their acks"},              \
        {vi_send_recalls, "send_recalls",                                                          \
         "invalidate every sharer (class RCL), expect their acks"},                                \
        {vi_clear_sharers, "clear_sharers",                                                        \
         "empty the sharer vector (the requester dropped its copy)"},                              \
        {ctrl_hold, "hold_request", "keep the write/atomic in the TBE until the acks are in"},     \
        {ctrl_count_ack, "count_ack", "count one invalidation ack"},                               \
    {                                                                                              \
        vi_perform_held, "perform_held",                                                           \
            "perform the held write or atomic now that no other copy exists, answer it"            \
    }

/* ---- construction and the common parts of the ctrl_ops ---- */
struct vi_bank *vi_bank_create(const struct ctrl_wiring *w, const struct vi_bank_proto *p);
void vi_bank_connect(struct comp *c, const struct ctrl_links *l);
void vi_bank_destroy(struct comp *c);
void vi_bank_dma(struct comp *c, addr_t line, uint8_t *buf, const struct bytemask *wmask);
unsigned vi_bank_peek(struct comp *c, addr_t line, uint8_t *data, bool *has_data);
#define VI_BANK_OPS(create_)                                                                       \
    {                                                                                              \
        create_, vi_bank_connect, ctrl_in_port, vi_bank_destroy, vi_bank_dma, vi_bank_peek,        \
            ctrl_stats                                                                             \
    }

/* Fill the coh_ctx part of a step's context for `line` (line and TBE only). */
void vi_bank_ctx(struct vi_bank *b, struct vi_ctx *v, addr_t line);
/* Run the protocol's table; returns what coh_step returned. */
enum coh_result vi_bank_step(struct vi_bank *b, struct vi_ctx *v, unsigned event);
/* Run a request's event; one the table stalls parks on the line's TBE. */
void vi_bank_step_or_park(struct vi_bank *b, struct vi_ctx *v, struct msg *m, unsigned event);
/* Whether a request may proceed now: a free TBE (when it may need one), room
 * on the DRAM port and in the pipeline (counts a resource stall when not). */
bool vi_bank_room(struct vi_bank *b, bool needs_tbe);
/* The set-conflict victim for a miss on `line` among lines evictable(state),
 * or NULL when a free way exists or every way is busy (*busy set then). */
struct cache_line *vi_bank_victim(struct vi_bank *b, struct cache *c, addr_t line,
                                  bool (*evictable)(unsigned state), bool *busy);

#endif
