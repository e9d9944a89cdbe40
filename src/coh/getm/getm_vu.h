/*
 * getm_vu.h - GETM's validation unit (VU) at one L2 partition (spec 004a
 * §4.3-4.7, thesis §4.5.2): eager conflict detection with logical timestamps.
 *
 * Per 32-byte granule the VU keeps rts, wts, #writes and owner. A
 * transactional access is checked against them as the transition table
 * getm_vu_table says (states Free and Locked; the classifier is the only place
 * with protocol `if`s): it succeeds (updating rts/wts eagerly, never rolled
 * back), aborts with the largest timestamp it saw, or waits in the stall
 * buffer for the owner's commit or cleanup. Metadata lives in a precise table
 * (4-way cuckoo hash with H3 hashes, a stash, an overflow list) and, for
 * everything else, a recency Bloom filter that only ever overestimates.
 *
 * The spec's fixes are options (docs/transactions.md): unique timestamps
 * (item 17: getm_advance_ts), owners tagged with a transaction sequence number
 * (item 19), and all stall-buffer waiters re-entering in ascending warpts
 * (item 23); false gives the thesis's printed form.
 *
 * The VU is a unit driven through getm_vu_access/release: the timing
 * machine's L2 banks drive it with the SMs' messages (getm_bank.h), the
 * functional mode directly.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef COH_GETM_VU_H
#define COH_GETM_VU_H

#include <stdio.h>

#include "coh/coh.h"

typedef uint64_t getm_ts;

struct getm_params {
    uint32_t granule;                    /* bytes of one metadata granule (32) */
    uint32_t precise_sets;               /* sets per cuckoo way (power of two); 4 ways */
    uint32_t stash;                      /* fully associative stash entries */
    uint32_t max_swaps;                  /* cuckoo displacements before the stash */
    uint32_t overflow;                   /* overflow list entries (the thesis's unbounded list) */
    uint32_t bloom_sets;                 /* sets per Bloom filter way (power of two); 4 ways */
    uint32_t stall_lines, stall_entries; /* stall buffer: lines x entries per line */
    uint32_t warp_bits; /* log2 of the GPU's warps: the warp-id part of a unique ts */
    uint32_t ts_bits;   /* width of a timestamp, warp id included (rollover beyond) */
    bool unique_ts;     /* item 17: timestamps (logical << warp_bits) | warp id */
    bool owner_seq;     /* item 19: owner = (warp, transaction sequence) */
    bool wake_all;      /* item 23: every waiter re-enters, ascending warpts */
    bool commit_waits;  /* the SM's retry waits for its commit and cleanup acks (the
                           thesis's warp "sends the write log and moves on": false) */
    bool evict_oldest;  /* a full precise table evicts, of the slots a granule may take,
                           the unreserved one with the oldest timestamps (false: the
                           entry the cuckoo walk displaces first) */
    uint64_t seed;      /* the H3 matrices */
    /* WarpTM (protocol warptm, coh/getm/warptm_vu.h): lazy value-based validation */
    bool warptm;           /* the banks validate values at commit (not GETM's timestamps) */
    bool silent;           /* read-only attempts the TCD clears commit without validation */
    bool eager;            /* WarpTM-EL (ideal): every read so far is checked against the
                              banks' values, at no cost, whenever a load completes */
    bool eapg;             /* EAPG (ideal): commits broadcast their write signatures */
    uint32_t hold_entries; /* per bank: granules validated transactions may hold at once */
    uint32_t tcd_entries;  /* per bank: last-write times of the temporal conflict detector */
    /* the SM (coh/getm/tx_serial.h): attempts in a row with no lane committed after
     * which a warp asks for the serial token */
    uint32_t progress_aborts;
    /* getm-nowts (test only, for the checkers): a load is never compared with
     * its granule's wts, so it reads writes logically later than itself */
    bool bug_load_ignores_wts;
    /* warptm-noval (test only, for the checkers): a validation never compares
     * the values read with the bank's, so a transaction commits on stale reads */
    bool bug_validate_ignores_values;
};

/* Table 4.2's sizes for one of 6 partitions (4K precise entries and 1K
 * Bloom entries GPU-wide, rounded to powers of two per partition) and the
 * spec's fixes on. */
void getm_params_default(struct getm_params *p);

/* The first timestamp of warp `wid`, and the smallest one later than t that
 * the warp may take (after an abort with cause t, or a commit that saw t). */
getm_ts getm_first_ts(const struct getm_params *p, uint32_t wid);
getm_ts getm_advance_ts(const struct getm_params *p, uint32_t wid, getm_ts t);
/* The largest warpts a warp may take: its wts (warpts + 1) must fit ts_bits.
 * A warp whose next timestamp is larger must wait for a rollover
 * (coh/getm/tx_epoch.h). */
getm_ts getm_ts_limit(const struct getm_params *p);

struct getm_req {
    addr_t addr;
    bool store;
    uint32_t wid; /* global warp id */
    uint32_t seq; /* the warp's transaction sequence number */
    getm_ts warpts;
    uint64_t cookie; /* the caller's, returned when a waiter re-enters */
};

enum getm_reply { GETM_OK, GETM_ABORT, GETM_QUEUED };

/* Why an access aborted (the order of sm_tx.h's first four causes). */
enum getm_abort_kind {
    GETM_ABORT_LOAD_LATE,   /* a load with warpts < wts */
    GETM_ABORT_STORE_READ,  /* a store with wts <= warpts < rts */
    GETM_ABORT_STORE_WRITE, /* a store with warpts < wts */
    GETM_ABORT_STALL_FULL,  /* it would wait, but the stall buffer is full */
    GETM_ABORT_KINDS
};

struct getm_result {
    enum getm_reply reply;
    getm_ts cause;             /* GETM_ABORT: the timestamp the core must move past */
    enum getm_abort_kind kind; /* GETM_ABORT: why */
    bool approx;               /* GETM_ABORT: every timestamp that refused it came from the
                                  recency Bloom filter (an overestimate, or by chance exact) */
    getm_ts rts, wts;          /* the granule's timestamps after the access */
};

struct getm_meta {
    getm_ts rts, wts;
    uint32_t nwrites, owner, owner_seq;
    uint8_t approx; /* GETM_APPROX_*: the value came from the Bloom filter on the
                       granule's last entry into the precise table, unchanged since */
};
#define GETM_APPROX_RTS 1u
#define GETM_APPROX_WTS 2u

struct getm_vu_stats {
    uint64_t accesses, aborts, queued, stall_full, woken, releases, rollovers;
    uint64_t stashed, bloom_evictions, overflowed, bloom_fills;
    uint64_t abort_kinds[GETM_ABORT_KINDS]; /* granule verdicts by cause */
    uint64_t abort_approx;                  /* of those, refused only by Bloom-filter timestamps */
    /* Fig. 4.13: metadata-table cycles of the accesses (getm_vu_access), counted as the
     * tables' structure implies, not charged to time (getm.vu_port charges a request one VU
     * cycle a granule): 1 for the lookup (the 4 ways and the stash read at once; a miss
     * fills an empty slot or evicts one of its 4 candidates in that cycle), +1 per cuckoo
     * displacement, +1 for a placement in the stash or the overflow list, +1 per overflow
     * entry searched. table_cycles_max: the most one access took. */
    uint64_t table_cycles, table_cycles_max;
    /* Figs. 4.15/4.16, the stall buffer: requests waiting now and the most at once; lines
     * (addresses) in use now and the most at once; a line's uses (from its first waiter
     * until it empties) and the sum over uses of the most requests it held at once */
    uint64_t stall_now, stall_max, stall_lines_now, stall_lines_max;
    uint64_t stall_line_uses, stall_line_peaks;
};

struct getm_vu;
struct getm_vu *getm_vu_new(const struct getm_params *p, struct eng *eng, const char *name,
                            struct coh_cov *cov);
void getm_vu_free(struct getm_vu *v);

/* Validate a transactional load or store. */
struct getm_result getm_vu_access(struct getm_vu *v, const struct getm_req *r);
/* A commit or cleanup log entry: `count` of the owner's writes to addr's
 * granule are done (for a commit, the bank has written the data). Waiters
 * that must now re-enter the VU are copied to woken (at most cap) in the order
 * to retry them; returns how many. */
unsigned getm_vu_release(struct getm_vu *v, addr_t addr, uint32_t count, struct getm_req *woken,
                         unsigned cap);
/* After the waiters getm_vu_release (or this) returned have re-entered: under
 * the printed retry policy, the next oldest waiter when the granule is still
 * unreserved (copied to woken; returns 1), else 0. Always 0 under wake_all. */
unsigned getm_vu_wake_next(struct getm_vu *v, addr_t addr, struct getm_req *woken, unsigned cap);
/* Timestamp rollover (coh/getm/tx_epoch.h): nothing is in flight and no granule
 * is reserved; the stall buffer and the metadata tables are flushed (every
 * rts and wts back to 0). A waiter or a reservation left is a fault (panic). */
void getm_vu_rollover(struct getm_vu *v);
/* Observer: the metadata the VU would use for addr (precise, else the Bloom
 * filter's overestimate); true when it is in the precise table. */
bool getm_vu_peek(const struct getm_vu *v, addr_t addr, struct getm_meta *m);
const struct getm_vu_stats *getm_vu_stats(const struct getm_vu *v);
/* The requests waiting in the stall buffer for addr's granule, in their
 * order (*e: their array; returns how many): a read-only view for the
 * explorer's digest (src/verify). */
unsigned getm_vu_stalled(const struct getm_vu *v, addr_t addr, const struct getm_req **e);
/* How many requests wait in the stall buffer. */
unsigned getm_vu_waiting(const struct getm_vu *v);
/* How many stall buffer lines (granules waited for) are in use. */
unsigned getm_vu_waiting_lines(const struct getm_vu *v);
/* The stall buffer's waiters, line by line, for a simulator fault's dump
 * (nothing when it is empty). */
void getm_vu_dump(const struct getm_vu *v, FILE *out);

extern const struct coh_table getm_vu_table;

#endif
