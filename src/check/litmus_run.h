/*
 * litmus_run.h - run a litmus test many times on a machine and judge the
 * outcomes against the model the protocol promises.
 *
 * Each iteration is a fresh launch of the test's kernel (litmus_ptx.h) on the
 * same machine: the host rewrites the initial values, clears the result
 * buffer, draws new start skews from a stream seeded by (seed, test path),
 * launches, and reads the final registers and memory back. The machine's own
 * random delays (l2.jitter_cycles, ...) are configured by whoever built it and
 * advance from launch to launch. Outcomes go into a histogram, and each is
 * judged by the oracle (oracle.h) under the model the protocol promises (or
 * the one the caller names): an outcome the model does not allow is a FAIL.
 * Where a reference verdict exists for that model (litmus_ref.h), it is
 * compared with the oracle's; a disagreement is a FAIL of its own.
 * A launch whose warps spin forever on loads while the memory system still
 * answers them (the machine's spin watchdog, sim.spin_cycles) is given up
 * (launcher_ops.set_spin_stops) and counted as the outcome "did not finish";
 * the oracle judges it like any other (oracle_opts.liveness: does some
 * execution the model allows spin forever?), and the suite goes on. A stuck
 * request, or a launcher that cannot give a launch up, is still a fault.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef CHECK_LITMUS_RUN_H
#define CHECK_LITMUS_RUN_H

#include "check/litmus_ptx.h"
#include "check/litmus_ref.h"
#include "check/oracle.h"
#include "check/sc_enum.h"
#include "host/launcher.h"

struct litmus_run_opts {
    unsigned iterations;
    uint64_t seed;
    unsigned max_skew;   /* start-skew delay loop iterations, drawn in [0, max_skew] */
    unsigned warm_delay; /* delay-loop iterations after the pre-warm */
    const char *model;   /* oracle model to judge by; NULL: the protocol's promise */
    unsigned unroll;     /* the oracle's loop bound; 0: its default */
    struct litmus_ptx_opts ptx;
};

/* UNKNOWN: run, but beyond the oracle's limits (ORACLE_LIMIT), so no outcome
 * is judged: the outcomes are recorded and the test counted apart. */
enum litmus_status { LITMUS_PASS, LITMUS_FAIL, LITMUS_SKIP, LITMUS_UNKNOWN };
extern const char *const litmus_status_names[4];

struct litmus_hist {
    int32_t *values; /* one outcome (test->n_obs values) */
    uint64_t count;
    bool cond;       /* C holds in it */
    bool forbidden;  /* the model forbids it (never, when the oracle could not judge) */
    bool sc_allowed; /* SC can produce it */
};

struct litmus_result {
    const struct litmus_test *test;
    char protocol[64];
    const char *model; /* the oracle model judging: "ptx", "ptx6", "sc", "tso" */
    enum litmus_status status;
    char reason[320];        /* SKIP: why; FAIL: the first forbidden outcome;
                                UNKNOWN: the oracle's limit, file:line */
    unsigned iterations;     /* launches done */
    uint64_t hits;           /* iterations whose outcome satisfies C */
    int verdict;             /* the oracle's verdict on the clause (0/1), -1 unjudged */
    bool unjudged;           /* beyond the oracle's limits: status UNKNOWN */
    uint64_t spins;          /* iterations that did not finish (warps spun on loads
                                until given up, or a thread ran out of its spin budget) */
    bool spin_forbidden;     /* ... and the model allows no run that never finishes */
    int ref_verdict;         /* the reference table's for this model, -1 none */
    bool ref_disagrees;      /* both exist and differ */
    enum litmus_check check; /* what the verdict demands */
    bool sc_cond;            /* SC can reach an outcome satisfying C */
    unsigned n_hist;
    struct litmus_hist *hist;       /* sorted by outcome values */
    unsigned n_unseen;              /* allowed but never observed: outcomes (SC, TSO), or
                                       1 when the allowed C / not-C never appeared (PTX) */
    char unseen_note[160];          /* what was allowed but never observed */
    struct sc_result sc;            /* the interleavings: can a run hang at a barrier? */
    bool spin_checked;              /* the test loops and ran under a spin budget */
    bool progress_guaranteed;       /* every fair interleaving ends (sc.may_livelock, may_hang);
                                       with lanes of one warp, every fair one in the SIMT order
                                       (sc.simt_*) and the model allows no run that never ends */
    bool lanes_share_warp;          /* some threads are lanes of one warp (",warp N"): termination
                                       is judged under the SIMT order, and an iteration that does
                                       not finish is a failure only where it is guaranteed */
    char progress_why[200];         /* lanes of one warp: why termination is (not) guaranteed */
    unsigned n_spun;                /* iterations in which a thread ran out of its budget (no
                                       outcome recorded: a failure where progress is guaranteed) */
    unsigned first_spun;            /* the thread that did, in the first of them */
    struct oracle_result oracle;    /* the model's judgement of every outcome */
    struct oracle_result sc_oracle; /* SC's, for the [not SC] marks (unused when the model
                                       is SC) */
};

/* Judge and, unless the test must be skipped, run it. `ref` may come from
 * litmus_refs_lookup (verdicts -1 if none). A test beyond the oracle's
 * limits still runs, with status UNKNOWN. Returns 0; -1 with a message in
 * err only for an input error (a test the oracle does not handle or the SC
 * search cannot enumerate, an unknown model). An iteration that does not
 * finish (a launch that spins on loads where the launcher can give it up, or
 * a thread out of its spin budget) is an outcome (res->spins), judged by the
 * model's liveness rule; simulator faults (stuck requests, runaway kernels,
 * protocol holes) exit as usual. */
int litmus_run(const struct litmus_test *t, const struct litmus_ref *ref, const char *protocol,
               struct launcher l, const struct litmus_run_opts *o, struct litmus_result *res,
               char *err, size_t errlen);
void litmus_result_free(struct litmus_result *r);

/* Print the per-test report (path, iterations, histogram, hits, verdict,
 * PASS/FAIL/SKIP). */
void litmus_result_print(const struct litmus_result *r, FILE *out);

#endif
