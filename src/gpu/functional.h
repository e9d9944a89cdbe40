/*
 * functional.h - the functional mode (--functional): kernels run without a
 * timing model, reading and writing global memory straight from a backing
 * store.
 *
 * Used to develop and check workloads and launch specs fast, and as the
 * reference the timing machine's results are compared with. It is one of the
 * two audited users of the backing store outside the DRAM controllers.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef GPU_FUNCTIONAL_H
#define GPU_FUNCTIONAL_H

#include "base/types.h"
#include "host/launcher.h"
#include "mem/backing.h"

struct functional_opts {
    uint64_t max_warp_insts;    /* per kernel; 0 = FUNCTIONAL_AUTO_INSTS_PER_WARP per warp of
                                   the launch; UINT64_MAX = no limit */
    uint32_t max_resident_ctas; /* CTAs in flight at once; 0 = FUNCTIONAL_DEFAULT_RESIDENT */
    uint64_t spin_rounds;       /* rounds (one instruction per warp each) in which no warp
                                   stores, does an atomic, commits a transaction, loads a
                                   value it had not just loaded or finishes, before exit 3:
                                   the timing mode's sim.spin_cycles; 0 = off */
    uint32_t progress_aborts;   /* fruitless transaction attempts in a row (no lane committed)
                                   after which a warp runs its transaction alone, as the timing
                                   mode's getm.progress_aborts; 0 = FUNCTIONAL_DEFAULT_PROGRESS */
};

/* The functional mode's transactional conflict detection, supplied by the
 * transactional protocols (functional_set_tm; coh/getm/getm_fn.h: GETM's
 * validation unit): the
 * runner keeps each warp's timestamp, transaction sequence, log and backoff,
 * and asks it about every lane's transactional access. */
enum functional_tm_reply {
    FUNCTIONAL_TM_OK,     /* performed (a store: reserved until released) */
    FUNCTIONAL_TM_ABORT,  /* the lane's attempt aborts */
    FUNCTIONAL_TM_QUEUED, /* waits; it re-enters, by its cookie, when a release wakes it */
};
struct functional_tm_ops {
    /* A detector for warp ids below `wids`; *wid_bits: it tells apart the ids
     * below 2^wid_bits. */
    void *(*create)(uint64_t wids, unsigned *wid_bits);
    void (*destroy)(void *tm);
    /* Warp wid's first timestamp, and its next one after `past`. */
    uint64_t (*first_ts)(void *tm, uint32_t wid);
    uint64_t (*advance_ts)(void *tm, uint32_t wid, uint64_t past);
    /* One lane's access by attempt `seq` of warp `wid` at timestamp `ts`;
     * *seen: a timestamp the warp's next attempt must move past. */
    enum functional_tm_reply (*access)(void *tm, addr_t addr, bool store, uint32_t wid,
                                       uint32_t seq, uint64_t ts, uint64_t cookie, uint64_t *seen);
    /* One reservation of the granule of addr released (a commit or cleanup):
     * the cookies of the waiters to re-enter, in order (at most cap). */
    unsigned (*release)(void *tm, addr_t addr, uint64_t *woken, unsigned cap);
};

#define FUNCTIONAL_AUTO_INSTS_PER_WARP (1ull << 24) /* as the timing machine's auto limit */
#define FUNCTIONAL_DEFAULT_RESIDENT    4096u
#define FUNCTIONAL_INDEPENDENT_RESIDENT                                                            \
    64u                                  /* for kernels whose CTAs cannot observe each             \
                                            other's timing (functional.c) */
#define FUNCTIONAL_DEFAULT_PROGRESS 256u /* getm.progress_aborts' default */

struct functional_stats {
    uint64_t thread_insts;      /* active lanes of every executed warp instruction */
    uint64_t warp_insts;        /* executed warp instructions */
    uint64_t kernels;           /* kernels run to completion */
    uint64_t tx_attempts;       /* warp transaction attempts ended (commit or all aborted) */
    uint64_t tx_commits;        /* threads' transactions committed */
    uint64_t tx_aborts;         /* threads' transaction attempts aborted (the VU's or intra-warp) */
    uint64_t tx_vu_aborts;      /* of those, aborts the validation unit decided */
    uint64_t tx_serial_grants;  /* transactions run alone after progress_aborts fruitless
                                   attempts (the serialising fallback) */
    uint64_t tx_serial_stalls;  /* warps held at their begin while one ran alone */
    uint32_t tx_fruitless_max;  /* the most fruitless attempts in a row of one warp */
    uint32_t max_ctas_resident; /* the most CTAs resident at once in one kernel */
};

/* A functional runner over `store` (not owned; it must outlive the runner).
 * `o` may be NULL for the defaults. */
struct functional *functional_new(struct backing *store, const struct functional_opts *o);
void functional_delete(struct functional *f);
/* Transactions' conflict detection (before the first transaction; without
 * it a transaction is a fault). */
void functional_set_tm(struct functional *f, const struct functional_tm_ops *tm);
/* Change the options between kernels (NULL or zero fields: the defaults). */
void functional_set_opts(struct functional *f, const struct functional_opts *o);
/* The launcher the host API runs kernels with. */
struct launcher functional_launcher(struct functional *f);
/* Counters over every kernel run so far. */
const struct functional_stats *functional_stats(const struct functional *f);
/* Tell o of every warp instruction and kernel start (gpu/inst_observer.h;
 * o is copied): no clock, so no cycles and no lines (--inst-stats counts
 * only); NULL: none. Changes nothing the runner does. */
struct inst_observer;
void functional_set_inst_observer(struct functional *f, const struct inst_observer *o);

#endif
