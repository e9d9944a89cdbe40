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
/* Change the options between kernels (NULL or zero fields: the defaults). */
void functional_set_opts(struct functional *f, const struct functional_opts *o);
/* The launcher the host API runs kernels with. */
struct launcher functional_launcher(struct functional *f);
/* Counters over every kernel run so far. */
const struct functional_stats *functional_stats(const struct functional *f);
/* Count every warp instruction into t (--inst-stats: counts only, as the
 * functional mode has no clock; gpu/inst_trace.h); NULL: none. */
struct inst_trace;
void functional_set_inst_trace(struct functional *f, struct inst_trace *t);

#endif
