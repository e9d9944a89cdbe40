/*
 * verify_int.h - what the parts of the explorer of `gpucoh verify` share
 * (verify.h is its interface; docs/verify.md): the rig and its events, the
 * checker's reference state, the serialiser of the canonical digest and the
 * functions each part offers the others. Private to src/verify: verify_rig.c
 * builds and runs the rig, verify_step.c holds the reference state, the
 * properties and the events, verify_digest.c the canonical digest, verify.c
 * the search and verify_cex.c the counterexample files and their replay;
 * verify_tx.c drives and judges GETM's transactions.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef VERIFY_VERIFY_INT_H
#define VERIFY_VERIFY_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/clock.h"
#include "base/log.h"
#include "coh/ctrl.h"
#include "coh/getm/getm_vu.h"
#include "coh/machine_view.h"
#include "coh/proto.h"
#include "mem/backing.h"
#include "mem/observe.h"
#include "mem/pagemap.h"
#include "verify/verify.h"

#define V_MAX_L1         4
#define V_MAX_LINES      VERIFY_MAX_LINES
#define V_MAX_VALUE      7 /* values 0..7: a reference mask fits a byte */
#define V_MAX_SYM_VALUES 3 /* --symmetry values: at most 3! relabellings of the values */
#define V_MAX_SLOTS      4 /* operations in flight per core */
#define V_MAX_WARPS      VERIFY_MAX_WARPS
/* the L1s' links, DRAM, a central unit's links or, on several GPMs, the other
 * banks' DRAM and the links between banks */
#define V_MAX_CH                                                                                   \
    (2 * V_MAX_L1 * VNET_MAX + 1 + 2 * V_MAX_L1 + V_MAX_L1 + 2 * V_MAX_L1 * V_MAX_L1 * VNET_MAX)
#define LINE_BASE 0x20000000ull
#define PORT_CAP  (1u << 16) /* never full: the explorer decides the order, not room */

/* EV_TICK: time advances one tick (protocols with leases only) */
enum ev_kind { EV_OP, EV_DELIVER, EV_TICK };
/* ld.acquire.gpu and st.release.gpu come with --sync */
/* transactional protocols (getm): OPK_TX_LOAD and OPK_TX_STORE (the first begins
 * an attempt) and OPK_TX_COMMIT (verify_tx.c) */
enum op_kind {
    OPK_LOAD,
    OPK_STORE,
    OPK_ATOMIC,
    OPK_FENCE,
    OPK_LOAD_ACQ,
    OPK_STORE_REL,
    OPK_TX_LOAD,
    OPK_TX_STORE,
    OPK_TX_COMMIT,
    OPK_N
};
static const char *const op_names[OPK_N] = {"load",   "store",        "atomic",
                                            "fence",  "load.acquire", "store.release",
                                            "txload", "txstore",      "commit"};

/* One nondeterministic step: a core operation or a channel's head delivered. */
struct vev {
    uint8_t kind;                  /* enum ev_kind */
    uint8_t core, op, line, value; /* EV_OP */
    uint16_t ch;                   /* EV_DELIVER */
    uint8_t scope;                 /* EV_OP under --scopes: enum mem_scope + 1 (0: the
                                      operation's default scope) */
    uint8_t warp;                  /* EV_OP: the issuing warp of the core (--warps) */
};
static const char *const scope_names[] = {"", "cta", "gpu", "sys"};

/* ---- how the explorer reads a protocol beyond struct ctrl ---- */

/* What a stored word is, for the canonical digest. Times (core cycles) are
 * written relative to now: a time not yet passed as its offset from now, a
 * passed one either as "expired" (TK_CLAMP: the protocol only ever compares it
 * with now, or takes its maximum with a running one) or by its rank among the
 * passed times of the state (TK_ORDER, TK_STAMP: two passed times may still be
 * compared, e.g. a merged load's arrival with its fill's lease end). A TK_STAMP
 * is the moment something happened (never a deadline: it does not make time
 * worth advancing); TK_SKIP is a statistic or a word nobody reads; TK_BY_TYPE:
 * a message's time words, by what its type carries (tc_msg_times). docs/verify.md,
 * "Time". */
enum tkind {
    TK_RAW,
    TK_SKIP,
    TK_CLAMP,
    TK_ORDER,
    TK_STAMP,
    TK_BY_TYPE,
    /* RCC's logical time (docs/verify.md, "Logical time"): every logical time
     * of the state is written as its offset from the smallest one. An L1's
     * clock (TK_LCLOCK), a stored time (TK_LTIME; TK_LTIME0: 0 means "none"),
     * a time of the checker's reference (TK_LREF). */
    TK_LCLOCK,
    TK_LTIME,
    TK_LTIME0,
    TK_LREF,
    /* GETM's timestamps (docs/verify.md, "Transactions"): written as the offset
     * from the state's smallest, rounded down to a multiple of 2^warp_bits
     * (TK_GTS0: 0 is the initial value, below every timestamp, kept as is) */
    TK_GTS,
    TK_GTS0,
    /* WarpTM's TCD times (physical ps, only compared, new ones later than all):
     * written by their rank among the state's (0: none, kept as is) */
    TK_RANK,
};

/* Which values a load may return (docs/verify.md, "Properties"). */
enum value_rule {
    RULE_WRITE_ATOMIC, /* the line's value at issue or a later one in coherence order */
    RULE_READER_FENCE, /* any value since the core's last fence (rc: acquires invalidate) */
    RULE_WRITER_FENCE, /* tcw: once a core's fence completes, its earlier writes are the
                          oldest values any core's later load may return */
    RULE_LOGICAL,      /* rcc: a load returns the line's value at a logical time between
                          its core's clock at issue and at the answer */
    RULE_SCOPED,       /* multi-GPM: PTX's scoped release/acquire (docs/verify.md, "Several
                          GPMs") */
    RULE_TX,           /* getm: committed transactions serializable in timestamp order
                          (docs/verify.md, "Transactions") */
};

/* The protocol's description (proto_desc.verify, struct proto_verify) as
 * the explorer uses it. */
struct profile {
    bool timed;           /* leases: time advances only by EV_TICK */
    bool logical;         /* rcc: logical time; EV_TICK is the livelock guard's tick */
    bool unit;            /* stc: a central unit (the EMU); EV_TICK is its wake-up period */
    bool tx;              /* getm, warptm: transactions (verify_tx.c), judged by RULE_TX */
    bool lazy;            /* warptm: lazy value-based validation at the commit */
    bool lease_exclusive; /* tcs: a write is performed only when no L1 holds a lease on its line */
    bool two_clocks;      /* rccwo: a read and a write clock per L1 */
    bool vi_bank;         /* gpuvi, gpuvini, ideal: the bank's struct vi_bank state */
    bool device_mix;      /* spandex: device L1s (verify_spandex.h) */
    enum value_rule rule;
    uint8_t l1_line[3], l2_line[3]; /* enum tkind of each cache line meta word */
    uint8_t l1_tbe[2], l2_tbe[2];   /* ... and of each TBE meta word */
    /* state names (space-separated): struct proto_verify's */
    const char *l1_unfilled, *l2_unfilled, *l1_leased, *l2_leased;
};

/* A state serialised for its digest; with times, in two passes (see put_time). */
struct ser {
    /* symmetry: the protocol's description (proto_desc.symmetry; NULL: written
     * as is) and the relabelling: L1 i is written as perm[i], in slot order inv[];
     * under symmetry over GPMs GPM g as gperm[g], in slot order ginv[] (each L1
     * goes with its GPM: the same as perm[] with one SM per GPM) */
    const struct proto_symmetry *sym;
    uint8_t perm[V_MAX_L1], inv[V_MAX_L1], gperm[V_MAX_L1], ginv[V_MAX_L1];
    uint8_t where; /* symmetry over GPMs: where the messages being written lie (verify_digest.c) */
    /* symmetry over values (values true): a data value v is written as vmap[v]; 0,
     * every line's initial value, and the values no store writes stay themselves */
    bool values;
    uint8_t vmap[V_MAX_VALUE + 1];
    uint8_t *b;
    size_t n, cap;
    uint64_t now;   /* core cycle the times are relative to */
    bool collect;   /* first pass: gather the passed times and the next deadline */
    uint64_t *past; /* the passed ranked times (sorted, distinct after the pass) */
    size_t n_past, cap_past;
    uint64_t next_deadline; /* the earliest time not yet passed (UINT64_MAX: none) */
    /* logical time (first pass): the smallest time, the largest stored time that
     * is not a clock, the smallest clock (UINT64_MAX / 0: none) */
    uint64_t base, max_other, min_clock;
    bool any_other;
    uint64_t gts_base, gts_align; /* GETM: the smallest timestamp; 2^warp_bits - 1 */
};

/* ---- the checker's reference state (part of every state's digest) ---- */

struct env {
    uint8_t issued[V_MAX_L1]; /* operations each core has issued (its warps' together) */
    /* the operations in flight, by slot (the request id; a new one takes the lowest free) */
    uint8_t busy[V_MAX_L1][V_MAX_SLOTS];    /* op + 1, 0 none */
    uint8_t line[V_MAX_L1][V_MAX_SLOTS];    /* ... its line */
    uint8_t warp[V_MAX_L1][V_MAX_SLOTS];    /* ... its warp (--warps) */
    uint8_t allowed[V_MAX_L1][V_MAX_SLOTS]; /* ... the values a load or atomic may return */
    /* Program order is a warp's (--warps; docs/verify.md, "Two warps per core"): what
     * follows is kept per (core, warp), [c][w]; with one warp, w = 0 only. So a fence
     * publishes (tcw) or bounds (floor rule) its own warp's accesses only: PTX orders
     * a thread's accesses by its fence, and another warp is another thread, whose
     * stores program order does not place before the fence (its SM sharing the L1
     * changes nothing; TC-Weak's tc.fence_gwct = warp waits for its own warp's GWCT
     * alone, which a per-core rule would wrongly fail). */
    uint8_t floor[V_MAX_L1][V_MAX_WARPS][V_MAX_LINES]; /* values a load may return since
                                                          the warp's last fence (protocols
                                                          that are not write-atomic) */
    uint32_t gold[V_MAX_LINES]; /* the line's value in coherence order (word 0) */
    /* RULE_WRITER_FENCE */
    uint8_t val[V_MAX_L1][V_MAX_SLOTS];              /* a store in flight: its value's bit */
    uint8_t vis[V_MAX_L1][V_MAX_WARPS][V_MAX_LINES]; /* values the line took since the
                                                        warp's last write to it was issued */
    uint8_t wrote[V_MAX_L1][V_MAX_WARPS]; /* lines (bit k) whose last write by the warp is done */
    uint8_t fence_lines[V_MAX_L1][V_MAX_SLOTS]; /* a fence in flight: the lines it publishes */
    /* RULE_SCOPED */
    uint8_t scope[V_MAX_L1][V_MAX_SLOTS];               /* the operation's enum mem_scope */
    uint8_t rel[V_MAX_L1][V_MAX_WARPS][2][V_MAX_LINES]; /* values the line took since the
                                                           warp's last write to it that a
                                                           release of scope .gpu ([0]) or
                                                           .sys ([1]) has completed for */
};

/* The warps each core's operations come from (--warps; 1 unless given). */
static inline unsigned vx_warps(const struct verify_opts *o)
{
    return o->warps ? o->warps : 1;
}

/* RCC's reference (RULE_LOGICAL): each line's writes in coherence order
 * with the logical time (version) each was performed at, from the oldest one
 * a load may still read; each operation's clock at issue; each core's
 * largest completed write version (for its fences). Times as TK_LREF. */
#define V_MAX_HIST 32
struct lenv {
    uint8_t n_hist[V_MAX_LINES];
    uint8_t hist_init[V_MAX_LINES][V_MAX_HIST]; /* the initial value: before every time */
    uint8_t hist_val[V_MAX_LINES][V_MAX_HIST];
    uint64_t hist_ver[V_MAX_LINES][V_MAX_HIST];
    uint64_t t_issue[V_MAX_L1][V_MAX_SLOTS]; /* loads: the read view; writes: the write view */
    bool has_w[V_MAX_L1];
    uint64_t wmax[V_MAX_L1];                 /* the largest version of its completed writes */
    bool fence_has_w[V_MAX_L1][V_MAX_SLOTS]; /* a fence in flight: wmax at its issue */
    uint64_t fence_w[V_MAX_L1][V_MAX_SLOTS];
    uint8_t ticks; /* the livelock guard's ticks so far (at most --ticks) */
};

/* Transactions (getm; verify_tx.c, docs/verify.md "Transactions"): each core's
 * attempt as its SM keeps it (sm_tx.c: warpts, sequence, reservations, redo
 * log) and the checker's history of committed transactions. */
#define V_TX_ACCESSES 2 /* transactional accesses per attempt, at most */
#define V_TX_COMMITS  32
struct txcore {
    uint8_t attempts;           /* begun (retries included): at most --ops */
    uint8_t in_tx, n_acc, acks; /* in an attempt; its accesses; commit/cleanup acks due */
    uint8_t pend, pend_line;    /* an access in flight: OPK_TX_LOAD/STORE + 1, its line */
    uint8_t resv[V_MAX_LINES];  /* reservations the VU granted the attempt (granule 0) */
    uint8_t wrote[V_MAX_LINES]; /* the redo log: the attempt stored wval */
    uint8_t wval[V_MAX_LINES];
    uint8_t read[V_MAX_LINES]; /* 1: read rval before writing the line; 2: read two values */
    uint8_t rval[V_MAX_LINES];
    uint8_t rseen[V_MAX_LINES]; /* every value read (bit v; --plain: a plain write's too) */
    uint32_t seq;               /* the transaction sequence (owner tag, item 19) */
    uint64_t ts, horizon;       /* warpts; the largest timestamp the verdicts carried */
    /* WarpTM: validation answers awaited, a granule failed, the holds granted */
    uint8_t n_val, failed, held_rd[V_MAX_LINES], held_wr[V_MAX_LINES];
    uint64_t first_read, last_write; /* the TCD's times (ps; first_read 0: none yet) */
};
struct txcommit {
    uint8_t core, reads, writes; /* lines (bit k) read before written; written */
    uint8_t rval[V_MAX_LINES], wval[V_MAX_LINES], rseen[V_MAX_LINES];
    uint64_t ts;
};
struct txenv {
    struct txcore c[V_MAX_L1];
    uint8_t n_commits;
    struct txcommit commits[V_TX_COMMITS];
    /* committed writes the L2 has not performed yet, per line, in commit order */
    uint8_t n_unperf[V_MAX_LINES];
    uint8_t unperf_val[V_MAX_LINES][V_TX_COMMITS];
    uint64_t unperf_ts[V_MAX_LINES][V_TX_COMMITS];
    uint8_t has_last[V_MAX_LINES]; /* the last committed write performed: its timestamp */
    uint64_t last_ts[V_MAX_LINES];
    /* --plain: the values plain stores and atomics wrote to each line (bit v;
     * above --values, so never a transaction's) */
    uint8_t plain[V_MAX_LINES];
};

struct rig {
    struct comp comp; /* the network, DRAM and cores: receives every output */
    struct eng eng;
    struct clock clk;
    struct pool msgs;
    struct backing *store; /* DRAM (the search's, reset for each rig) */
    struct observer *obs;  /* golden memory: the coherence order of each line (ditto) */
    const struct config *cfg;
    struct machine_view view; /* what the controllers read of cfg (config_view) */
    const struct proto_desc *p;
    void *proto_ctx; /* p->attach's context for this rig, or NULL */
    const struct verify_opts *o;
    struct profile prof;
    tick_t core_ps;   /* one core cycle: TC's unit of time */
    struct ser *scan; /* for finding the next deadline (the memories') */
    unsigned n_l1, n_vnets, line_bytes;
    addr_t line_stride;             /* from one line's address to the next: line_bytes, or a page
                                       (--line-pages) */
    struct comp *l1[V_MAX_L1], *l2; /* l2: bank 0 (l2s[0]) */
    /* each L1's controller and table (Spandex: the device mix, verify_spandex.h),
     * and whether its loads are judged write-atomic */
    const struct ctrl_ops *l1_ops[V_MAX_L1];
    unsigned l1_table[V_MAX_L1];
    bool l1_write_atomic[V_MAX_L1];
    bool spandex; /* the LLC and device L1s of verify_spandex.h */
    bool peers;   /* the L1s message each other (proto_desc.l1_peers): a channel per
                     pair of L1s and vnet, after DRAM's (no central unit, one GPM) */
    /* Several GPMs (multi-GPM protocols): one L1 and one bank per GPM, bank b
     * the home or a remote cache per line, its links to the other banks explorer
     * channels (docs/verify.md, "Several GPMs"); otherwise one bank */
    bool mg;
    bool free_links; /* ideal-mg: messages the sysnet carries free and unordered
                        (SYSNET_F_FREE without SYSNET_F_AFTER: invalidations and
                        acknowledgements) bypass the links' FIFOs: channels of their own */
    bool mg_hier;    /* hmg, sw-h: a GPU home per GPU (verify_mg_hier) */
    unsigned n_l2;
    unsigned gpm_sms; /* L1s (SMs) per GPM, GPM-major: L1 i is SM i % gpm_sms of GPM
                         i / gpm_sms (--gpm-sms; 1 otherwise) */
    struct comp *l2s[V_MAX_L1];
    struct port sys_out[V_MAX_L1][VNET_MAX], sys_in[V_MAX_L1][VNET_MAX];
    struct pagemap pages;
    struct coh_cov *cov; /* one per table */
    unsigned n_tables;
    struct port to_core[V_MAX_L1];
    struct port up[V_MAX_L1][VNET_MAX];                                /* L1 -> network */
    struct port down[V_MAX_L1][VNET_MAX];                              /* network -> L1 */
    struct port peer[V_MAX_L1][VNET_MAX];                              /* L1 -> other L1s */
    struct port l2_out[V_MAX_L1][VNET_MAX], l2_in[V_MAX_L1][VNET_MAX]; /* per bank */
    struct port to_mem[V_MAX_L1];
    struct comp *unit;                                   /* STC's EMU (NULL: no central unit) */
    struct port unit_up[V_MAX_L1], unit_in[V_MAX_L1];    /* L1 -> explorer -> unit */
    struct port unit_out[V_MAX_L1], unit_down[V_MAX_L1]; /* unit -> explorer -> L1 */
    unsigned n_ch;                                       /* channels in use */
    struct msg_list ch[V_MAX_CH]; /* in flight: a FIFO per source, destination, vnet */
    struct msg_list rsp;          /* core responses of the step */
    struct atom_ops atom[V_MAX_L1][V_MAX_SLOTS];
    struct env env;
    struct lenv lenv;
    struct txenv tx;
    struct getm_params gp; /* getm: the SMs' timestamp rules (getm_params_of_config) */
    /* prof's unfilled and leased states of the L1's and the bank's table: bit s,
     * state s (l1_leased: tc a valid leased copy, rcc a readable one; l2_leased:
     * rcc the states whose ver and exp are set) */
    uint64_t l1_unfilled, l2_unfilled, l1_leased, l2_leased;
    char names[V_MAX_L1][32];
    char fault[512]; /* the violated property ("" none) */
};

static inline unsigned ch_up(const struct rig *r, unsigned l1, unsigned v)
{
    return l1 * r->n_vnets + v;
}
static inline unsigned ch_down(const struct rig *r, unsigned l1, unsigned v)
{
    return (r->n_l1 + l1) * r->n_vnets + v;
}
static inline unsigned ch_dram(const struct rig *r)
{
    return 2 * r->n_l1 * r->n_vnets;
}
/* The L1s' messages to each other (rig.peers): L1 s to L1 d on vnet v. */
static inline unsigned ch_peer(const struct rig *r, unsigned s, unsigned d, unsigned v)
{
    return ch_dram(r) + 1 + (s * r->n_l1 + d) * r->n_vnets + v;
}
static inline bool is_ch_peer(const struct rig *r, unsigned ch)
{
    return r->peers && ch >= ch_peer(r, 0, 0, 0);
}
/* Location k's line and the byte offset of its word there: a line each, word
 * 0, or (--words 2) words 0 and 1 of line 0. */
static inline addr_t line_addr(const struct rig *r, unsigned line)
{
    return LINE_BASE + (addr_t)(r->o->words > 1 ? 0 : line) * r->line_stride;
}
static inline unsigned loc_off(const struct rig *r, unsigned k)
{
    return r->o->words > 1 ? k * 4u : 0;
}

/* Several GPMs: bank b's DRAM (bank 0's is ch_dram) and the link from bank s
 * to bank d on vnet v, after DRAM (the multi-GPM protocols have no unit). */
static inline unsigned ch_dram_of(const struct rig *r, unsigned b)
{
    return b ? ch_dram(r) + b : ch_dram(r);
}
static inline unsigned ch_sys(const struct rig *r, unsigned s, unsigned d, unsigned v)
{
    return ch_dram(r) + r->n_l2 + (s * r->n_l2 + d) * r->n_vnets + v;
}
/* ideal-mg: the messages bank s sends bank d on vnet v free of cost and
 * unordered (SYSNET_F_FREE without SYSNET_F_AFTER), which the sysnet puts
 * straight into d's input FIFO, past those still on the link: a FIFO of
 * their own, after the links', delivered in any order with them (a superset
 * of the simulator's orders, where only timing keeps a later message on the
 * link behind an earlier free one). */
static inline unsigned ch_free(const struct rig *r, unsigned s, unsigned d, unsigned v)
{
    return ch_sys(r, 0, 0, 0) + (r->n_l2 * r->n_l2 + s * r->n_l2 + d) * r->n_vnets + v;
}
static inline bool is_ch_free(const struct rig *r, unsigned ch)
{
    return r->free_links && ch >= ch_free(r, 0, 0, 0);
}

/* The bank L1 i talks to: its GPM's. */
static inline unsigned bank_of(const struct rig *r, unsigned l1)
{
    return r->mg ? l1 / r->gpm_sms : 0;
}

/* A central unit's links, each a FIFO: L1 i to the unit, the unit to L1 i. */
static inline unsigned ch_unit_up(const struct rig *r, unsigned l1)
{
    return ch_dram(r) + 1 + l1;
}
static inline unsigned ch_unit_down(const struct rig *r, unsigned l1)
{
    return ch_dram(r) + 1 + r->n_l1 + l1;
}

/* The memories a rig uses, kept across rigs: a backing store's set-up costs
 * more than the controllers' (a 4096-slot table), so each rig resets them. */
struct memories {
    struct backing store;
    struct observer obs;
    struct ser scan;
};

struct digest {
    uint64_t h[2];
};

/* ---- verify_rig.c: the rig ---- */

/* State st is among bits (a set of a table's states, bit s state s). */
static inline bool in_states(uint64_t bits, unsigned st)
{
    return st < 64 && (bits >> st & 1);
}

/* What the explorer reads of protocol p's words (enum tkind) and how loads
 * are judged. */
struct profile vx_profile_of(const struct proto_desc *p);
/* A fresh rig of p's controllers on the memories mem (reset for it). */
struct rig *vx_rig_new(const struct config *cfg, const struct proto_desc *p,
                       const struct verify_opts *o, struct coh_cov *cov, struct memories *mem);
void vx_rig_free(struct rig *r);
void vx_memories_init(struct memories *mem, uint32_t line_bytes);
void vx_memories_destroy(struct memories *mem);
/* The channel's ends and vnet, for printing and for counterexample files. */
void vx_ch_describe(const struct rig *r, unsigned ch, char *src, char *dst, unsigned *vnet);
/* Record the step's violated property (the first one of a step is kept). */
void vx_fail(struct rig *r, const char *fmt, ...) PRINTF_LIKE(2, 3);
/* Hand core c's request m to its L1 (its core port never fills here). */
void vx_send_core(struct rig *r, unsigned c, struct msg *m);

/* ---- verify_step.c: the reference state, the properties, the events ---- */

/* The golden memory's hook: line took a new value in coherence order. */
void vx_follow_gold(void *arg, addr_t line);
/* Checks when line k's golden value moves: TC-Strong's leases, RCC's versions. */
void vx_check_no_lease(struct rig *r, unsigned k);
void vx_rcc_follow(struct rig *r, unsigned k);
/* The lowest free operation slot of core c (V_MAX_SLOTS: --inflight in use). */
unsigned vx_free_slot(const struct rig *r, unsigned c);
/* The operations core c may issue in all (--ops, or --ops-each's for c). */
unsigned vx_ops_bound(const struct rig *r, unsigned c);
/* No core has an operation in flight and no channel holds a message. */
bool vx_quiescent(const struct rig *r);
/* The properties of a quiescent state (values agree where they must). */
void vx_check_quiescent(struct rig *r);
uint64_t vx_now_cycles(const struct rig *r);
/* Run the controllers until they have nothing left to do (with leases: until
 * the core cycle ends). */
void vx_settle(struct rig *r);
void vx_advance_to(struct rig *r, uint64_t cycle);
/* Take one event (an operation, a delivery, a tick) and the checks after it. */
void vx_apply(struct rig *r, const struct vev *ev);
/* The events enabled in r's state, into out (at most MAX_ENABLED). */
unsigned vx_enabled(const struct rig *r, struct vev *out);
#define MAX_ENABLED                                                                                \
    (V_MAX_L1 * V_MAX_WARPS *                                                                      \
         (V_MAX_LINES * (3 + 3 * V_MAX_VALUE) + 3 * (1 + V_MAX_LINES * (1 + V_MAX_VALUE))) +       \
     V_MAX_CH + 1)
void vx_ev_text(const struct rig *r, const struct vev *ev, char *out, size_t len);

/* ---- verify_tx.c: transactions (getm) ---- */

void vtx_init(struct rig *r);
void vtx_issue(struct rig *r, const struct vev *ev);
void vtx_plain(struct rig *r, const struct vev *ev);
void vtx_take(struct rig *r, const struct msg *m);
/* The golden memory moved on line k: a committed write was performed. */
void vtx_performed(struct rig *r, unsigned k);
/* Core c's enabled transactional operations, into out. */
unsigned vtx_enabled(const struct rig *r, unsigned c, struct vev *out);
/* A core is inside an attempt, or waits for an answer or an acknowledgement. */
bool vtx_busy(const struct rig *r);
/* The validation unit against the cores' reservations (every state; at a
 * quiescent one, exactly). */
void vtx_check(struct rig *r, bool quiescent);

/* ---- verify_digest.c: the canonical digest ---- */

/* The earliest time in the state not yet passed (UINT64_MAX: none). */
uint64_t vx_next_deadline(const struct rig *r);
/* Whether an EV_TICK would change anything. */
bool vx_time_can_advance(const struct rig *r);
/* The digest of r's state (s: the serialiser, reused). */
struct digest vx_state_digest(const struct rig *r, struct ser *s);
/* Symmetry: p's description on n_l1 L1s, or NULL with why it cannot be reduced. */
const struct proto_symmetry *vx_sym_of(const struct proto_desc *p, unsigned n_l1, const char **why);
/* ... and on the rig r: NULL (with why) where its L1s are not alike (Spandex's
 * mix of devices). */
const struct proto_symmetry *vx_sym_of_rig(const struct rig *r, const char **why);
/* Which relabellings of the L1s the reduction takes, as words for its result
 * line: "" every one; in a mix of Spandex devices those that keep each L1's
 * device (vspx_keeps_devices); on several GPUs or with two SMs a GPM those of
 * whole GPMs that keep the machine (gpm_relabellings in verify_digest.c). */
const char *vx_sym_subgroup(const struct rig *r);
/* With s->sym set: the smallest digest over every relabelling of the L1s (the
 * state's canonical one) and, into *orbit, how many distinct states the
 * relabellings make (the state's share of the unreduced space). */
struct digest vx_canonical_digest(const struct rig *r, struct ser *s, unsigned *orbit);

#endif
