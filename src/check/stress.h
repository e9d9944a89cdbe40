/*
 * stress.h - the data-race-free random tester (gem5's GPU Ruby tester shape).
 *
 * Agents stand in for the SMs: each of a few warps per SM runs episodes of an
 * opening atomic on a synchronisation variable, an acquire fence, a random
 * mix of loads and stores to locations no other warp touches during the
 * episode, a release fence and a closing atomic. Locations are reserved per
 * episode and reused across episodes and SMs, so data moves between L1s;
 * several locations share each line (false sharing). A last-writer table
 * gives the value every load must return; the first wrong value stops the
 * run with a report: address, expected writer and value, observed value, the
 * line's recent transitions in every controller and its state everywhere.
 * With CPU cores (cpu.cores) the tester is heterogeneous: CPU cores' L1s
 * get agents too (after the SMs'), so episodes move data between CPU and GPU
 * L1s of different devices (MESI or DeNovo CPU L1s beside DeNovo or
 * GPU-coherence GPU L1s), and a quarter of the loads are relaxed .sys loads,
 * which the self-invalidating L1s perform at the LLC.
 * When the configuration promises SC (order.model = sc), an agent waits for
 * each access before the next, as the SM's SC issue rule does (rccsc relies
 * on it: a store's old copy stays readable to the SM until its ACK).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef CHECK_STRESS_H
#define CHECK_STRESS_H

#include <stdio.h>

#include "system/config.h"

struct machine;

struct stress_opts {
    uint64_t episodes;     /* episodes to complete, over all warps */
    unsigned warps_per_sm; /* agents per SM */
    unsigned locations;    /* data words in the pool */
    unsigned max_body;     /* loads and stores per episode, at most */
    unsigned sync_vars;    /* synchronisation variables (1: every episode synchronises,
                              through memory, with every earlier one) */
    bool check;            /* run the invariant observers too */
    /* called with the machine once the run is over, before it goes (NULL: none) */
    void (*on_done)(struct machine *m, void *arg);
    void *on_done_arg;
};

struct stress_result {
    bool wrong; /* a load returned a wrong value */
    uint64_t episodes, loads, stores, atomics;
    uint64_t cycles;
    double wall_seconds;
};

/* Run on a machine built from cfg. Writes the report of a wrong value to
 * `report`. Returns 0 if every value was right, 1 if not. */
int stress_run(const struct config *cfg, const struct stress_opts *o, struct stress_result *r,
               FILE *report);

/* The --small-caches overrides: tiny L1s and L2 banks, few MSHRs. */
extern const char *const stress_small_caches[];

#endif
