/*
 * sc_enum.h - the SC interleaving search: every final outcome that some
 * sequentially consistent interleaving of a litmus test can produce. The
 * litmus runner uses it to find tests that can hang at a barrier; runs are
 * judged by the oracle (oracle.h), whose sc.cat it cross-checks
 * (tests/unit/805-oracle.c).
 *
 * Threads take turns at instruction granularity; memory is one value per
 * physical location; atomics are single steps; fences do nothing. Barriers
 * follow the plan in struct litmus_test: a group with a count completes once
 * that many threads arrived and then lets late arrivals pass; a group without
 * a count completes when every member arrived (bar.cta.arrive counts but does
 * not wait) and can then be used again. The search memoises (pcs, registers,
 * memory, barrier) states, so a spin loop that revisits a state is cut there,
 * and only executions in which every thread finishes produce outcomes;
 * states where no thread can move are recorded as a possible hang, and a
 * cycle of states that a fair scheduler can follow forever (every thread
 * that can move does, and none leaves) as a possible livelock: without one,
 * every fair interleaving terminates (forward progress is guaranteed).
 * The same question is asked again under gpucoh's SIMT order when threads
 * are lanes of one warp (",warp N"): the SIMT stack runs such lanes one at a
 * time, the later column first and each to its end (docs/oracle.md, "The
 * modelled scheduler"), so a lane may move only once every lane of its warp
 * in a later column has finished.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef CHECK_SC_ENUM_H
#define CHECK_SC_ENUM_H

#include "check/litmus.h"

struct sc_result {
    unsigned n_obs; /* values per outcome (= test->n_obs) */
    unsigned n_outcomes;
    int32_t *outcomes;      /* n_outcomes rows of n_obs values, sorted, distinct */
    bool may_hang;          /* some interleaving reaches a state where nobody can move */
    bool may_livelock;      /* some fair interleaving never ends: a set of states it can
                               cycle through forever, every thread that can move moving */
    bool simt_ordered;      /* some threads are lanes of one warp: the simt_ fields apply */
    bool simt_may_livelock; /* ... and some fair interleaving in the SIMT order never ends */
    bool simt_may_hang;     /* ... or reaches a state where nobody may move (a barrier) */
    int simt_spinner;       /* in such a livelock: a thread that runs forever (-1 none) */
    int simt_waiter;        /* ... and a lane that waits behind it for its turn in the
                               warp (-1: the livelock is not the SIMT order's, SC has it) */
    uint64_t n_states;      /* distinct states visited */
};

/* Enumerate. Returns 0, or -1 with a message when the test has more than
 * max_states states (0: a default of 4 million). */
int sc_enumerate(const struct litmus_test *t, struct sc_result *r, uint64_t max_states, char *err,
                 size_t errlen);
void sc_result_free(struct sc_result *r);

/* Whether SC allows this exact outcome. */
bool sc_allows(const struct sc_result *r, const int32_t *values);
/* Whether some SC outcome satisfies (want = true) or violates (false) C. */
bool sc_cond_reachable(const struct litmus_test *t, const struct sc_result *r, bool want);

#endif
