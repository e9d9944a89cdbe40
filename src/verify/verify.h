/*
 * verify.h - exhaustive exploration of a protocol's real controllers on a
 * tiny machine (`gpucoh verify`; docs/verify.md).
 *
 * The explorer builds the protocol's own L1 and L2 controllers (the code
 * every simulation runs) on a rig of N L1s and one L2 bank whose network,
 * DRAM and cores it plays itself: every core operation from a bounded set
 * and every delivery its vnet's ordering allows (a FIFO per source,
 * destination and vnet, as the crossbar keeps) is a nondeterministic event.
 * States are reached by re-executing their event path from a fresh rig and
 * identified by a 128-bit digest of a canonical serialisation of the
 * controllers' lines, TBEs and queues, every message in flight and the
 * checker's reference state; the search is breadth-first, so the first
 * violation found has a shortest event path. That path is printed and
 * written to a file that verify_replay() re-runs with a transition trace.
 * Protocols with leases (TC) get time as one more event: a tick to the next
 * expiry, with times written relative to now in the digest. Under RCC the
 * tick is the livelock guard's (every L1's logical clock + 1, --ticks a path
 * at most) and logical times are written relative to the state's smallest;
 * STC's epoch management unit is built beside the controllers, its links are
 * channels and its wake-up period is the tick. Under GETM and WarpTM the cores
 * run small transactions against the banks' validation units, and committed
 * transactions are judged serializable (GETM in timestamp order, WarpTM in
 * commit order; timestamps relative in the digest).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef VERIFY_VERIFY_H
#define VERIFY_VERIFY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "system/config.h"

/* Protocols with leases (tcs, tcw) run on a rig whose time moves only when the
 * explorer advances it, a tick at a time: a tick is this many core cycles
 * (more than the operations a search can issue, so the one-cycle steps
 * TC-Weak's writes add to a timestamp never reach the next tick), and leases
 * are whole ticks (docs/verify.md, "Time"). */
#define VERIFY_TICK_CYCLES 1024u
#define VERIFY_MAX_LEASE   4u
/* RCC: the livelock guard's ticks (one logical time unit on every L1's clock)
 * an event path may take, at most (docs/verify.md, "Logical time"). */
#define VERIFY_MAX_TICKS 16u
/* --conflict: caches of one set of one way, so that the rig's lines evict each
 * other (docs/verify.md, "Conflicting lines"): the L1s, the L2 bank, or both. */
#define VERIFY_CONFLICT_L1 1u
#define VERIFY_CONFLICT_L2 2u
/* --lines: the line addresses the cores use, at most */
#define VERIFY_MAX_LINES 3u
/* --plain-only: plain operations and no transactions (struct verify_opts' plain) */
#define VERIFY_PLAIN_ONLY 2u
/* --merge-max not given: l1.merge_max is the configuration's. */
#define VERIFY_MERGE_CONFIG 0xffffffffu
#define VERIFY_MAX_MERGE    8u
/* --warps: warps per core, at most (each operation from one of them) */
#define VERIFY_MAX_WARPS 2u

/* --kinds: the operations a core may issue (the letters l, s, a, f). */
#define VERIFY_KIND_LOAD   1u
#define VERIFY_KIND_STORE  2u
#define VERIFY_KIND_ATOMIC 4u
#define VERIFY_KIND_FENCE  8u

struct verify_opts {
    unsigned l1s;              /* L1s (gpu.sms) */
    unsigned lines;            /* line addresses the cores use */
    unsigned values;           /* data values stores and atomics write: 1..values */
    unsigned ops;              /* core operations per L1, at most */
    uint8_t ops_each[4];       /* --ops-each: L1 c's core issues at most ops_each[c]
                                  operations (0: none; ops is their largest) */
    unsigned n_ops_each;       /* the bounds given, one per L1 (0: ops each) */
    bool atomics;              /* cores also issue atomic exchanges */
    uint8_t kinds[4];          /* --kinds: L1 c's core issues only the operations of bits
                                  VERIFY_KIND_* in kinds[c] (all 0: every kind) */
    unsigned inflight;         /* operations in flight per core, at most (1..4) */
    unsigned warps;            /* --warps: each core operation comes from one of this many
                                  warps of its SM, 1 or VERIFY_MAX_WARPS (0: 1); TC only
                                  (docs/verify.md, "Two warps per core") */
    bool sync;                 /* cores also issue ld.acquire.gpu and st.release.gpu */
    unsigned plain;            /* getm, warptm: cores also issue plain loads, stores, atomics
                                  and fences outside their transactions, up to --inflight
                                  at a time (1; VERIFY_PLAIN_ONLY: and no transactions) */
    unsigned lease;            /* TC: the longest lease, in ticks (1..VERIFY_MAX_LEASE);
                                  RCC: in logical time units (1, 2 or 4) */
    unsigned ticks;            /* RCC: guard ticks per event path (0..VERIFY_MAX_TICKS) */
    unsigned words;            /* Spandex, --words 2: the two locations (lines = 2) are words
                                  0 and 1 of one line, so part of a line can be owned,
                                  forwarded or revoked (0 or 1: a line each, word 0) */
    char devices[40];          /* Spandex: each L1's device, "gpu,mesi" ("": the protocol's own) */
    unsigned gpus;             /* multi-GPM protocols: GPUs the l1s GPMs (one SM and one L2
                                  bank each) are divided among (1 or 2) */
    unsigned scopes;           /* operations carry scopes: bit (1 << enum mem_scope) for each
                                  scope fences, acquires and releases take (0: the fixed
                                  scopes of before) */
    unsigned conflict;         /* VERIFY_CONFLICT_* bits: those caches have one set of one
                                  way (0: small arrays where the lines never conflict) */
    unsigned conflict_ways;    /* ... of this many ways, 1 or 2 (0: 1; 2 wants --lines 3) */
    unsigned merge_max;        /* l1.merge_max (VERIFY_MERGE_CONFIG: the configuration's) */
    unsigned gpm_sms;          /* multi-GPM protocols: SMs (L1s) per GPM, 1 or 2 (0: 1) */
    bool line_pages;           /* multi-GPM protocols: each line on a page of its own (its
                                  home placed by its own first touch) */
    uint64_t max_states;       /* stop (incomplete) past this many states */
    uint64_t max_mem_mb;       /* ... or past this much memory for the search */
    const char *cex_file;      /* where a counterexample is written (NULL: not written) */
    const char *coverage_file; /* where the coverage of every table is written (NULL: none) */
    bool symmetry;             /* --symmetry on: states that differ only by a relabelling
                                  of the L1s are one (protocols whose L1-naming fields
                                  are described; docs/verify.md "Search, bounds and
                                  symmetry") */
    bool value_symmetry;       /* --symmetry values: also states that differ only by a
                                  relabelling of the stores' values (data-blind protocols) */
    const char *const *sets;   /* the --set overrides, recorded in a counterexample */
    unsigned n_sets;
};

struct verify_result {
    bool violation;  /* a property failed: a counterexample was found */
    bool incomplete; /* stopped at a bound: nothing is proven */
    uint64_t states, transitions;
    unsigned depth; /* the longest shortest path to a state */
    double seconds;
    uint64_t mem_bytes; /* the search's own tables */
    unsigned cells_reached, cells_total;
    unsigned cex_steps;   /* the counterexample's length (violation) */
    bool reduced;         /* --symmetry on and the protocol reducible: states counts
                             representatives, each standing for its orbit */
    uint64_t states_full; /* reduced: the states of the unreduced space they stand for */
    bool values_reduced;  /* reduced over the stores' values too (--symmetry values) */
    /* reduced over a subgroup of the L1s' relabellings: what keeps it (" (each
     * among those of its device)", " (by GPM, ...)"); "": every relabelling */
    const char *subgroup;
};

/* Explore the protocol of `cfg` (loaded with gpu.sms = o->l1s, one L2 bank)
 * and print progress, the result line and any counterexample on `out`.
 * Returns 0 verified, 1 a violation or a bound reached. */
int verify_run(const struct config *cfg, const struct verify_opts *o, struct verify_result *r,
               FILE *out);

/* Re-run the counterexample in `file` under `cfg` with every transition
 * traced on `out`. Returns 1 when the violation recurs, 0 when it does not;
 * exits 2 on a malformed file (file:line: what is wrong). */
int verify_replay(const struct config *cfg, const struct verify_opts *o, const char *file,
                  FILE *out);

/* --ops-each's list as text, "3,1". */
void verify_ops_each_text(const struct verify_opts *o, char *out, size_t len);

/* Parse --ops-each's LIST (N,N,...: each 0 to 255, not all 0, one per L1) into o->ops_each
 * and o->ops (their largest). Returns NULL, or what is wrong with it. */
const char *verify_ops_each_parse(struct verify_opts *o, const char *list);

/* --kinds's list as text, "l,lsf". */
void verify_kinds_text(const struct verify_opts *o, char *out, size_t len);

/* Parse --kinds's LIST (one group of the letters l, s, a, f per L1,
 * comma-separated) into o->kinds. Returns NULL, or what is wrong with it. */
const char *verify_kinds_parse(struct verify_opts *o, const char *list);

/* Read the header of a counterexample file: the protocol, the bounds and the
 * --set overrides it was found under (into `sets`, strings owned by the
 * caller's buffer `buf`). Exits 2 on a malformed file. */
void verify_read_header(const char *file, char *proto, size_t proto_len, struct verify_opts *o,
                        const char **sets, unsigned max_sets, char *buf, size_t buf_len);

#endif
