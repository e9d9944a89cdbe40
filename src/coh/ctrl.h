/*
 * ctrl.h - what every cache controller of every protocol shares: its
 * component, wiring, tag/data array, TBEs and replay list, the plumbing that
 * moves messages in and out, and the actions whose behaviour does not depend
 * on the protocol.
 *
 * A controller embeds `struct ctrl` as its first member, so the coh_ctx's
 * `ctrl` pointer, the component pointer and the controller pointer are one
 * address, and the functions here serve every protocol. A protocol file then
 * keeps only what makes it that protocol: states, events, classifiers
 * (guards), its own actions and its transition table. The shared actions
 * below (coh_act) appear in the tables under the protocol's own action names.
 * Conventions every table follows: state 0 is "not present" (no line, no
 * TBE); a TBE and the line it belongs to carry the same state; write-through
 * L1s send requests on vnet CTRL_VNET_REQ and get responses on CTRL_VNET_RSP.
 * Three parts: what any controller uses (ctrl_*), what an L1 uses (its core
 * port, hit latency and merge limit; ctrl_l1_*), and what an L2 bank uses
 * (its DRAM port and response pipeline; ctrl_l2_*).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef COH_CTRL_H
#define COH_CTRL_H

#include <stddef.h>

#include "base/rng.h"
#include "coh/proto.h"

/* The request and response vnets of every write-through protocol. */
enum { CTRL_VNET_REQ = 0, CTRL_VNET_RSP = 1 };

/* Counters the shared actions keep; a protocol emits those it uses. */
struct ctrl_stats {
    uint64_t load_hits, load_misses, load_merged, loads_at_l2; /* L1 */
    uint64_t stores, atomics, fills;                           /* L1 (atomics: also L2) */
    uint64_t reads, writes, misses, writebacks, acks;          /* L2 */
    uint64_t resource_stalls, protocol_stalls;
    uint64_t issue_bypasses; /* L1, l1.issue = out-of-order: requests taken past a stalled one */
    /* L1, the SM's prefetches (order.prefetch; ctrl_l1_note_fill): fills made for prefetches
       alone, such lines a demand request then found present, and fills a demand request
       merged into behind a prefetch (late prefetches). Lines removed unused: the cache's
       prefetched_unused. */
    uint64_t prefetch_fills, prefetch_used, prefetch_late;
};

struct ctrl_stat;

struct ctrl {
    struct comp comp; /* first: a controller is a component */
    struct ctrl_wiring w;
    struct ctrl_links links;
    const struct coh_table *table; /* the table this instance runs (coverage: w.cov[0]) */
    struct cache cache;            /* the data array (nol1: none) */
    struct tbe_table tbes;
    struct port in;         /* L1: requests from the SM; L2: DRAM responses */
    struct msg_list replay; /* parked requests whose line changed state */
    uint32_t line_bytes;
    struct ctrl_stats st;
    const struct ctrl_stat *stat_rows; /* what ctrl_stats emits, in order */
    const void *own_stats;             /* the protocol's own counters those rows name */
    /* --- sleeping on a resource stall (ctrl_stall_sleep) --- */
    bool sleep;                   /* coherence.sleep */
    bool stall_asleep;            /* asleep on a resource stall since stall_cycle */
    cycle_t stall_cycle;          /* the last cycle counted while asleep so */
    uint64_t stall_per_cycle;     /* resource stalls each cycle slept through counts */
    uint64_t stall_mark;          /* resource_stalls when the tick began */
    uint64_t n_steps, steps_mark; /* table steps taken; n_steps when the tick began */
    /* --- L1 only --- */
    uint32_t merge_max;     /* loads one fill may answer */
    tick_t hit_ps;          /* hit latency */
    bool issue_ooo;         /* l1.issue = out-of-order (ctrl_take_next) */
    bool merge_full_stalls; /* l1.merge_full = stall (mesi) */
    /* --- L2 only --- */
    struct port pipe;       /* responses in the bank's pipeline (to itself) */
    uint32_t jitter_cycles; /* l2.jitter_cycles: random extra pipeline delay */
    struct rng rng;         /* jitter */
};

static inline struct ctrl *ctrl_of(const struct coh_ctx *x)
{
    return x->ctrl;
}

/* ---- construction and the common ctrl_ops ---- */

/* Initialise the shared part of a zeroed controller: wiring, table, line
 * size and component (nol1, which has no cache, sets up `in` itself). */
void ctrl_init(struct ctrl *c, const struct ctrl_wiring *w, const struct coh_table *t,
               bool (*tick)(struct comp *), void (*dump)(struct comp *, FILE *),
               uint32_t line_bytes);
/* ctrl_init for an L1 with the l1.* cache, l1.mshrs TBEs, merge limit and hit latency. */
void ctrl_l1_init(struct ctrl *c, const struct ctrl_wiring *w, const struct coh_table *t,
                  bool (*tick)(struct comp *), void (*dump)(struct comp *, FILE *));
/* ctrl_init for an L2 bank: the l2.* cache (indexed by line / n_banks), l2.mshrs
 * TBEs, the pipeline of l2.latency_cycles and its jitter stream `rng_stream` + index. */
void ctrl_l2_init(struct ctrl *c, const struct ctrl_wiring *w, const struct coh_table *t,
                  bool (*tick)(struct comp *), void (*dump)(struct comp *, FILE *),
                  uint64_t rng_stream);
/* Allocate a zeroed controller of `size` bytes (panics when out of memory). */
void *ctrl_alloc(size_t size);
void ctrl_connect(struct comp *c, const struct ctrl_links *l);
void ctrl_l2_connect(struct comp *c, const struct ctrl_links *l);
struct port *ctrl_in_port(struct comp *c);
/* Release the shared part and the controller itself (its extras first). */
void ctrl_destroy(struct comp *c);
/* The line's state (state 0 when absent), its data into `data` if present
 * (proto.h's peek). */
unsigned ctrl_peek(struct comp *c, addr_t line, uint8_t *data, bool *has_data);

/* ---- sleeping on a resource stall ----
 * A controller whose request stage stalls on a resource (a full output port,
 * a full TBE table) and which has nothing else to do would tick every cycle
 * only to stall again and count it. Instead it sleeps: every way the stall
 * can end wakes it (a full port that frees a slot wakes its sender; a TBE
 * frees on a response, which wakes the receiver), and on waking it counts
 * the cycles slept through as ticks that stalled again, each adding what the
 * tick that went to sleep added to resource_stalls (the only statistic a
 * tick that moves nothing changes each cycle). Exact: coherence.sleep =
 * false ticks every cycle and gives the same statistics. */

/* The start of a tick: count the cycles slept through on a stall. */
void ctrl_tick_begin(struct ctrl *c);
/* The end of a tick that moved nothing, whose only reason to tick again is a
 * request stalled on a resource, and which has nothing else pending that a
 * wake does not announce: sleep (returns false), or with coherence.sleep =
 * false tick on (true). A tick that took a table step (a replacement before
 * the request that stalls retries) did move: it ticks on. The input ports in `in[0..n)` (NULL
 * entries skipped) whose head is not ready yet are re-armed to wake it when it is. */
bool ctrl_stall_sleep(struct ctrl *c, struct port *const *in, unsigned n);
/* ctrl_stall_sleep for an L1 whose core requests issue in order: what the core
 * sends meanwhile waits behind the stalled request, so it does not wake the
 * L1 either (port_quiet) until something that may end the stall does. */
bool ctrl_l1_stall_sleep(struct ctrl *c, struct port *const *in, unsigned n);

/* ---- statistics: rows emitted in order ---- */
enum ctrl_stat_kind { CTRL_ST_BASE, CTRL_ST_OWN, CTRL_ST_FN };
struct ctrl_stat {
    const char *name;
    uint8_t kind;                          /* enum ctrl_stat_kind */
    size_t off;                            /* BASE: in struct ctrl_stats; OWN: in `own` */
    uint64_t (*get)(const struct ctrl *c); /* FN */
};
#define CTRL_STAT_BASE(f)                                                                          \
    {                                                                                              \
#f, CTRL_ST_BASE, offsetof(struct ctrl_stats, f), NULL                                     \
    }
#define CTRL_STAT_OWN(T, f)                                                                        \
    {                                                                                              \
#f, CTRL_ST_OWN, offsetof(T, f), NULL                                                      \
    }
#define CTRL_STAT_FN(name, fn)                                                                     \
    {                                                                                              \
        name, CTRL_ST_FN, 0, fn                                                                    \
    }
#define CTRL_STAT_END                                                                              \
    {                                                                                              \
        NULL, 0, 0, NULL                                                                           \
    }
/* The first rows of a write-through L1 and of an L2 bank. */
#define CTRL_STATS_L1_ACCESSES                                                                     \
    CTRL_STAT_BASE(load_hits), CTRL_STAT_BASE(load_misses), CTRL_STAT_BASE(load_merged),           \
        CTRL_STAT_BASE(loads_at_l2), CTRL_STAT_BASE(stores), CTRL_STAT_BASE(atomics)
#define CTRL_STATS_L2_ACCESSES                                                                     \
    CTRL_STAT_BASE(reads), CTRL_STAT_BASE(writes), CTRL_STAT_BASE(atomics),                        \
        CTRL_STAT_FN("accesses", ctrl_stat_accesses),                                              \
        CTRL_STAT_BASE(misses), /* DRAM fetches; requests parked behind one hit */                 \
        CTRL_STAT_BASE(writebacks)
/* The L1's prefetch rows (order.prefetch), for an L1 that calls ctrl_l1_note_fill. */
#define CTRL_STATS_L1_PREFETCH                                                                     \
    CTRL_STAT_BASE(prefetch_fills), CTRL_STAT_BASE(prefetch_used),                                 \
        CTRL_STAT_FN("prefetch_unused", ctrl_stat_prefetch_unused), CTRL_STAT_BASE(prefetch_late)
/* The accesses of an L2 bank: reads + writes + atomics. */
uint64_t ctrl_stat_accesses(const struct ctrl *c);
/* Lines an L1 filled for prefetches alone and removed before a demand request found them. */
uint64_t ctrl_stat_prefetch_unused(const struct ctrl *c);
/* The rows ctrl_stats emits; `own` holds the protocol's own counters. */
void ctrl_set_stats(struct ctrl *c, const struct ctrl_stat *rows, const void *own);
/* ctrl_ops.stats: every row, in order. */
void ctrl_stats(struct comp *c, void (*emit)(void *, const char *, uint64_t), void *arg);

/* ---- looking up, stepping, parking ---- */

/* Fill x for `line`: the present line, its TBE, the state (TBE's, else the
 * line's, else 0), no message. */
void ctrl_lookup(struct ctrl *c, struct coh_ctx *x, addr_t line);
/* Run x->event of the controller's table. */
enum coh_result ctrl_step(struct ctrl *c, struct coh_ctx *x);
/* Look `line` up and run `event` for it with message m (may be NULL). */
enum coh_result ctrl_fire(struct ctrl *c, addr_t line, struct msg *m, unsigned event);
/* Run x->event; a request the table stalls parks on the line's TBE until the
 * line's state changes (counted as a protocol stall). */
void ctrl_step_or_park(struct ctrl *c, struct coh_ctx *x);
/* Requests to a line leave in program order: when some are parked on x's
 * TBE, park x->msg behind them (a protocol stall) and return true. */
bool ctrl_park_behind(struct ctrl *c, struct coh_ctx *x);
/* Put `l` before everything on the replay list, leaving it empty. */
void ctrl_replay_first(struct ctrl *c, struct msg_list *l);
/* The table's set_state: the line and the TBE take the state. */
void ctrl_set_state(struct coh_ctx *x, unsigned next);
/* The request stage of a tick: a parked request replays before any new one
 * from `in` (popped only when `take` took it; false: a resource stall, it
 * stays first in line). Returns progress.
 * With l1.issue = out-of-order, an L1 whose waiting request (the replay
 * list's first, else `in`'s head) stalls on a resource takes instead the
 * first later ready request of `in` to a line no earlier waiting request is
 * for; a fence or kernel message, and a request not ready yet, end the search
 * (nothing passes a fence). Same-line order and fences are what the SM's
 * memory path promises beyond the model's counters, so every model's order
 * holds. The other requests tried and refused are not counted as resource
 * stalls: a stalled tick counts one, as in order. */
bool ctrl_take_next(struct ctrl *c, struct port *in, bool (*take)(struct ctrl *, struct msg *));
/* If a message is ready on `p`, pop it and hand it to `take`. Returns progress. */
bool ctrl_take_one(struct ctrl *c, struct port *p, void (*take)(struct ctrl *, struct msg *));
/* Send queued messages while `out` has room. Returns progress. */
bool ctrl_drain(struct msg_list *q, struct port *out);
/* Reply to the core with the request message itself, after delay_ps. */
void ctrl_to_core(struct ctrl *c, struct msg *m, tick_t delay_ps);
/* Send m to the home bank of its line on `vnet` (room checked before). */
void ctrl_to_home(struct ctrl *c, struct msg *m, uint16_t type, unsigned vnet, uint8_t cls,
                  uint16_t bytes);
/* Send m to L1 `l1` of the GPM on `vnet` through links.peer_out (room
 * checked before): its source is this L1's input of the L2 -> L1 network,
 * after the banks'. */
void ctrl_to_peer(struct ctrl *c, struct msg *m, unsigned l1, uint16_t type, unsigned vnet,
                  uint8_t cls, uint16_t bytes);
/* Print the used TBEs with `line` (NULL: the write-through L1 format). */
void ctrl_dump_tbes(const struct ctrl *c, FILE *out,
                    void (*line)(const struct ctrl *, const struct tbe *, FILE *));
/* A message in a dump: type, address, ends and op. */
void ctrl_dump_msg(const struct msg *m, FILE *out);

/* ---- shared actions (any controller) ---- */
coh_act ctrl_alloc_tbe;   /* allocate the line's TBE (room checked before the step) */
coh_act ctrl_free_tbe;    /* free the TBE; its parked requests replay after those waiting */
coh_act ctrl_wake_parked; /* free the TBE; its parked requests replay before those waiting */
coh_act ctrl_take_way;    /* install the line in a free way (the data comes later) */
coh_act ctrl_drop_line;   /* free the line's way */
coh_act ctrl_park;        /* keep the request on the TBE until the line's state changes */
coh_act ctrl_hold;        /* keep the request in the TBE's merged list (performed first) */
coh_act ctrl_nothing;     /* no action */

/* ---- write-through L1s ---- */

/* Send the request x->msg to its home bank (one more response pending on the TBE). */
void ctrl_l1_request(struct coh_ctx *x, uint16_t type, uint8_t cls, uint16_t bytes);
/* A read: `fill` marks the GETS (flag `merged`) as the fill that answers the
 * loads merged behind it (a miss), else it is a load performed at the L2. */
void ctrl_l1_send_gets(struct coh_ctx *x, uint16_t type, bool fill, uint16_t merged);
/* A write-through of the masked bytes; an atomic performed at the L2. */
void ctrl_l1_send_write(struct coh_ctx *x, uint16_t type);
void ctrl_l1_send_atomic(struct coh_ctx *x, uint16_t type);
/* Answer the loads merged behind a fill with `data`, at once. */
void ctrl_l1_answer_merged(struct ctrl *c, struct tbe *t, const uint8_t *data);
/* A fill of line l for the requests `held` (in arrival order) is cached: marks
 * the line prefetched when a prefetch missed and no demand request merged
 * behind it, counts a late prefetch when one did (the L1's prefetch rows). */
void ctrl_l1_note_fill(struct ctrl *c, struct cache_line *l, const struct msg_list *held);
/* Answer the loads merged behind a fill whose lease ends at `lease_end`
 * with `data`: those that reached the L1 in time (msg->ts2 <= lease_end, the
 * time each merged at) at once; later ones go back to the replay list (they
 * could read data older than what they must see). Returns how many replay. */
unsigned ctrl_l1_answer_in_time(struct ctrl *c, struct tbe *t, const uint8_t *data,
                                uint64_t lease_end);
/* The start of a core request's step: a fence or kernel boundary goes to
 * `order` (CTRL_TAKEN); without `room`, a resource stall (CTRL_RETRY: it
 * stays where it was); else x is looked up (with `lookup`, NULL for
 * ctrl_lookup) and, behind parked requests, parked (CTRL_TAKEN); else
 * CTRL_GO: classify and step it. */
enum ctrl_take { CTRL_RETRY, CTRL_TAKEN, CTRL_GO };
enum ctrl_take ctrl_l1_begin(struct ctrl *c, struct coh_ctx *x, struct msg *m,
                             void (*order)(struct ctrl *, struct msg *), bool room,
                             void (*lookup)(struct ctrl *, struct coh_ctx *, addr_t));
/* Look up a response's line (it must have a TBE). */
void ctrl_l1_response(struct ctrl *c, struct coh_ctx *x, struct msg *m);
/* A fill is coming for `line`: a present victim in its set goes through the
 * table first (event `replace`). */
void ctrl_l1_make_room(struct ctrl *c, addr_t line, unsigned replace);
/* Fire `event` for every present line, then (tbe_state >= 0) for every TBE
 * in that state. Returns the number of present lines. */
unsigned ctrl_l1_flash(struct ctrl *c, unsigned event, int tbe_state);
/* Kernel end of an L1 that owns lines: fire `event` for every present line
 * `owned` accepts while a TBE and room in `out` are free (its write-back),
 * and answer the KERNEL_END requests in `kend` once no TBE is in use (every
 * write-back acknowledged). Returns progress; a stall counts as progress (it
 * must tick again). */
bool ctrl_l1_flush_step(struct ctrl *c, struct msg_list *kend,
                        bool (*owned)(const struct cache_line *), unsigned event, struct port *out);
/* Room for one core step of a write-through L1: one request, one TBE. */
bool ctrl_l1_room(const struct ctrl *c);
/* The dump of a write-through L1: queues and TBEs (nothing when idle). */
void ctrl_l1_dump(struct comp *c, FILE *out);
/* A table's dump of the line and TBE of a write-through L1. */
void ctrl_l1_dump_ctx(struct coh_ctx *x, FILE *out);
/* ... of its TBE alone (for a table that prints the line its own way). */
void ctrl_l1_dump_ctx_tbe(const struct coh_ctx *x, FILE *out);
coh_act ctrl_l1_merge_load; /* answer this load with the outstanding fill */
coh_act ctrl_l1_reply_hit;  /* answer the load from the line after the hit latency */
coh_act ctrl_l1_write_line; /* write the store's bytes into the line at once */
coh_act ctrl_l1_fill_line;  /* install the fill in a free way */

/* ---- L2 banks ---- */

/* Into the pipeline, back to the requester on `vnet` after the hit latency
 * (plus jitter). */
void ctrl_l2_respond(struct ctrl *c, struct msg *m, uint16_t type, unsigned vnet, uint8_t cls,
                     uint16_t bytes);
/* Turn request m into its response (type, vnet, class, payload bytes),
 * addressed back to the requesting SM: what ctrl_l2_respond sends. */
void ctrl_l2_reply_header(struct ctrl *c, struct msg *m, uint16_t type, unsigned vnet, uint8_t cls,
                          uint16_t bytes);
/* Room for the worst step of a write-through bank: an MSHR, a DRAM request
 * and a response in the pipeline. False (counted as a resource stall) when
 * one is missing. */
bool ctrl_l2_room_for_step(struct ctrl *c);
/* A free way for a request that misses at `line` in a write-through bank: a
 * full set gives up the line `evictable` allows (cache_victim's choice):
 * `replace` fires its replacement (the protocol's lookup and event), and the
 * request retries next cycle. False while there is none, counted as a
 * resource stall (a replacement included). */
bool ctrl_l2_free_way(struct ctrl *c, addr_t line,
                      bool (*evictable)(const struct cache_line *, void *),
                      void (*replace)(struct ctrl *c, addr_t victim));
/* Room for a miss of a write-back bank at `line`: an MSHR, the DRAM port and
 * a free way. A full set first replaces its LRU line that `evictable` allows
 * (event `replace`, writing it back if dirty) and the request retries next
 * cycle, as SLICC's L2_Replacement does. False (counted as a resource stall
 * unless a replacement ran) while there is none. */
bool ctrl_l2_room_for_miss(struct ctrl *c, addr_t line,
                           bool (*evictable)(const struct cache_line *, void *), unsigned replace);
/* Ready responses leave the pipeline while their vnet has room. */
bool ctrl_l2_drain_pipe(struct ctrl *c);
/* A DRAM write-back ack needs nothing (DRAM keeps line order): freed, true. */
bool ctrl_l2_drop_wrack(struct ctrl *c, struct msg *m);
/* A read served by the bank: the line into m, sent as `type` (class LD). */
void ctrl_l2_reply_line(struct ctrl *c, struct coh_ctx *x, struct msg *m, uint16_t type,
                        unsigned vnet);
/* Perform x->msg's write (its masked bytes) or atomic (every lane) on the
 * line; the golden memory follows (--check). */
void ctrl_l2_perform_write(struct ctrl *c, struct coh_ctx *x);
void ctrl_l2_perform_atomic(struct ctrl *c, struct coh_ctx *x);
/* Bytes of an atomic's response: the old values, none for a reduction. */
uint16_t ctrl_atomic_rsp_bytes(const struct msg *m);
/* Apply a store's masked bytes, or an atomic, to line l (dirty; golden memory
 * updated, and checked before an atomic). */
void ctrl_apply_store(struct ctrl *c, struct cache_line *l, const struct msg *m);
void ctrl_apply_atomic(struct ctrl *c, struct cache_line *l, const struct msg *m);
/* Host access between kernels: read (wmask NULL) or write the masked bytes
 * of `line` where its value lives (the bank's copy, else the backing store).
 * The line's protocol `state` must not be `busy` (a transaction in flight). */
void ctrl_l2_dma(struct ctrl *c, addr_t line, uint8_t *buf, const struct bytemask *wmask,
                 unsigned state, bool busy);
/* The line's data into `data` (if both exist), for a peek; whether it did
 * into *has_data (may be NULL). */
void ctrl_copy_line(struct ctrl *c, addr_t line, uint8_t *data, bool *has_data);
/* A table's dump of a directory bank's line (dirty bit, sharer vector) and TBE. */
void ctrl_l2_dump_ctx(struct coh_ctx *x, FILE *out);
/* The messages in the pipeline, for a dump. */
void ctrl_l2_dump_pipe(const struct ctrl *c, FILE *out);
coh_act ctrl_l2_send_fetch; /* read the line from DRAM */
coh_act ctrl_l2_fill_line;  /* write the DRAM data into the line */
coh_act ctrl_l2_write_back; /* write the line to DRAM if it is dirty */
coh_act ctrl_count_ack;     /* one invalidation ack in: one fewer expected */

/* ---- the banks an invariant observer reads (--check) ----
 * An observer reads its machine's L2 banks directly (a global view that never
 * changes behaviour). The set lives in the protocol's per-machine context
 * (proto_desc.attach): banks fill their slot when built, empty it when destroyed. */
struct ctrl_bank_set {
    struct eng *eng;
    struct comp **banks;
    unsigned n_banks, n_live;
};
/* The home bank of `line` (banks interleave lines), NULL once it is gone. */
struct comp *ctrl_bank_set_home(const struct ctrl_bank_set *s, addr_t line, uint32_t line_bytes);

#endif
