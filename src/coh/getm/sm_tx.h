/*
 * sm_tx.h - the SM's part of GETM (spec 004a §4.3-4.4; docs/transactions.md):
 * each warp slot's timestamp (warpts) and transaction sequence, the limit on
 * transactional warps per SM, the verdicts the L2's validation units send
 * back, and the commit unit that turns the end of an attempt into one message
 * per line.
 *
 * A transactional line request carries the warp's warpts and sequence (see
 * coh/getm/getm_bank.h); its answer says which granules aborted (their lanes
 * abort) and which stores were reserved. At the end of an attempt the commit
 * unit coalesces the committed lanes' logged writes per line (the warp-level
 * log coalescing of the thesis) and sends, for every line the attempt
 * reserved, one message: the writes and the count of reservations to release
 * per granule (MEM_TX_COMMIT), or only the counts when nothing of the line
 * commits (MEM_TX_CLEANUP). The warp's timestamp then moves past every
 * timestamp the attempt's answers carried (spec §9 items 17, 18).
 * Under WarpTM (protocol warptm) stores stay in the redo log; at the end of
 * an attempt the warp first sends its read values and written granules to be
 * validated (MEM_TX_VALIDATE), aborts the lanes whose granules failed, and
 * then commits or cleans up as above: the thesis's two round trips, the warp
 * resuming once every acknowledgement is in.
 * DEVIATION: a warp waits for the acknowledgements of its commit or cleanup
 *   messages before it goes on (or retries); the thesis's warp goes on at once
 *   and its next transaction waits at the VU if it touches the same granules.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef COH_GETM_SM_TX_H
#define COH_GETM_SM_TX_H

#include "coh/getm/getm_vu.h"
#include "sim/msg.h"

/* Why a lane's attempt aborted (statistics tx.abort.<name>, lanes; one cause
 * per aborted lane and attempt, the first that reached the SM). GETM's come
 * from the validation unit's verdict on a granule (getm_vu.h); WarpTM's from
 * its validation or its ideal variants; intra-warp conflicts from the PTX
 * interpreter (every aborted lane no other cause claimed). */
#define SM_TX_ABORT_CAUSES(X)                                                                      \
    X(load_late, "GETM: a load found wts > warpts (a logically later write)")                      \
    X(store_read, "GETM: a store found rts > warpts (a logically later read)")                     \
    X(store_write, "GETM: a store found wts > warpts (a logically later write)")                   \
    X(stall_full, "GETM: the access would wait for the owner but the stall buffer was full")       \
    X(mismatch, "WarpTM: validation found a value read changed since")                             \
    X(held, "WarpTM: validation found the granule held by another validated transaction")          \
    X(hold_full, "WarpTM: validation found no room in the bank's hold table")                      \
    X(stale_pair, "WarpTM: two lanes of the warp read different values of one word")               \
    X(eager, "WarpTM-EL (ideal): an early check found a value read changed")                       \
    X(eapg, "EAPG (ideal): a committing transaction's signature meets a granule read")             \
    X(intra, "intra-warp conflict: another lane of the attempt touched the word, one writing")
#define X(n, d) SM_TX_ABORT_##n,
enum sm_tx_abort_cause { SM_TX_ABORT_CAUSES(X) SM_TX_ABORT_N };
#undef X
extern const char *const sm_tx_abort_names[SM_TX_ABORT_N];

struct sm_tx_stats {
    uint64_t begins;                /* transactions begun (warps) */
    uint64_t attempts;              /* attempts ended */
    uint64_t lane_commits;          /* lanes that committed */
    uint64_t lane_aborts;           /* lanes that aborted (and retried) */
    uint64_t vu_aborts;             /* lanes aborted by a validation unit's verdict */
    uint64_t commit_msgs;           /* MEM_TX_COMMIT messages sent */
    uint64_t cleanup_msgs;          /* MEM_TX_CLEANUP messages sent */
    uint64_t commit_bytes;          /* bytes the commit messages wrote */
    uint64_t limit_waits;           /* times a warp at a begin waited for the limit */
    uint64_t backoff_cycles;        /* cycles warps backed off before retries */
    uint64_t attempt_cycles;        /* cycles from an attempt's start (its begin, or the end of the
                                     * previous attempt's backoff and commit) to its end */
    uint64_t commit_wait_cycles;    /* cycles from an attempt's end to its last commit or
                                     * cleanup acknowledgement */
    uint64_t validation_msgs;       /* WarpTM: MEM_TX_VALIDATE messages sent */
    uint64_t silent_commits;        /* WarpTM: attempts that committed without validation (TCD) */
    uint64_t eager_aborts;          /* WarpTM-EL: lanes aborted by the ideal early checks */
    uint64_t eapg_aborts;           /* EAPG: lanes aborted early by a commit's broadcast */
    uint64_t eapg_pauses;           /* EAPG: validations held for a commit's broadcast */
    uint64_t tcd_validations;       /* WarpTM: read-only attempts the TCD could not clear (they
                                     * validate; with warptm.silent off, every read-only one) */
    uint64_t aborts[SM_TX_ABORT_N]; /* aborted lanes by cause (they sum to lane_aborts) */
    uint64_t ts_max;                /* GETM: the largest logical warpts a warp reached (the unique
                                     * timestamps' warp-id bits dropped): how fast time moved */
    uint64_t rollover_requests;     /* GETM: attempts whose next timestamp did not fit */
    uint64_t rollovers;             /* GETM: timestamp rollovers this SM took part in */
    uint64_t fruitless_max;   /* the most attempts in a row of one warp with no lane committed */
    uint64_t serial_grants;   /* transactions that took the serial token and ran alone */
    uint64_t serial_attempts; /* attempts run alone */
    uint64_t serial_stalls;   /* times a warp waited while another asked for or held it */
};

struct sm;
struct sm_tx;
/* The core side of SM `sm`'s transactions, plugged into it as its
 * transaction extension (gpu/sm_ext.h): wid_base, the global warp id of slot
 * 0; limit: tx warps at once (0: any); backoff: cycles of the retry backoff's
 * first window (0: none); seed: its random stream. The caller frees it after
 * the SM. */
struct sm_tx *sm_tx_new(struct sm *sm, const struct getm_params *p, uint32_t wid_base,
                        unsigned limit, unsigned backoff, uint64_t seed);
void sm_tx_free(struct sm_tx *t);
const struct sm_tx_stats *sm_tx_stats_of(const struct sm_tx *t);
/* Each warp slot's transaction as a table (states Idle, Running,
 * Committing, ...; docs/protocols/getm.md, warptm.md), one per protocol. */
extern const struct coh_table getm_sm_table, warptm_sm_table;
/* Count the table's cells in the machine's coverage: the one of covs[0..n)
 * for this SM's table (without it, in the SM's own). */
void sm_tx_cover(struct sm_tx *t, struct coh_cov *covs, unsigned n);

/* GETM: this SM, the `index`-th, on the timestamp rollover board
 * (coh/getm/tx_epoch.h). A warp whose next timestamp would not fit
 * getm.ts_bits asks for a rollover; no attempt starts while one is asked
 * for; at the rollover every warp restarts from its first timestamp and the
 * warps that waited go on. */
struct tx_epoch;
void sm_tx_join_epoch(struct sm_tx *t, struct tx_epoch *e, unsigned index);
/* Forward progress: this SM, the `index`-th, on the serial token
 * (coh/getm/tx_serial.h). A warp whose attempts had no lane commit
 * getm.progress_aborts times in a row asks for it and runs alone once
 * granted; while it is asked for or held no other attempt starts. */
struct tx_serial;
void sm_tx_join_serial(struct sm_tx *t, struct tx_serial *s, unsigned index);
/* EAPG (ideal): this SM, the `index`-th, on the board of commits' signatures
 * (coh/getm/tx_board.h). A validation whose granules meet a signature up
 * waits until it comes down (Pause-n-Go); the lanes of a running attempt
 * (not yet validating) that read a granule of a signature just up abort at
 * once (EarlyAbort). */
struct tx_board;
void sm_tx_join_board(struct sm_tx *t, struct tx_board *b, unsigned index);
/* WarpTM-EL (ideal): how the SM learns a bank's bytes of a line now (false:
 * the bank does not hold them), for its zero-latency early checks: after
 * each transactional load, store and before a validation, the live lanes
 * whose completed reads no longer match the banks' values abort (only under
 * warptm.eager). */
typedef bool sm_tx_value_now(void *arg, addr_t line, uint8_t *data);
void sm_tx_set_oracle(struct sm_tx *t, sm_tx_value_now *fn, void *arg);

#endif
