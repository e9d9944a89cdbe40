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
    unsigned max_skew;    /* start-skew delay loop iterations, drawn in [0, max_skew] */
    unsigned warm_delay;  /* delay-loop iterations after the pre-warm */
    const char *model;    /* oracle model to judge by; NULL: the protocol's promise */
    unsigned unroll;      /* the oracle's loop bound; 0: its default */
    struct litmus_ptx_opts ptx;
};

enum litmus_status { LITMUS_PASS, LITMUS_FAIL, LITMUS_SKIP };
extern const char *const litmus_status_names[3];

struct litmus_hist {
    int32_t *values;      /* one outcome (test->n_obs values) */
    uint64_t count;
    bool cond;            /* C holds in it */
    bool forbidden;       /* the model forbids it */
    bool sc_allowed;      /* SC can produce it */
};

struct litmus_result {
    const struct litmus_test *test;
    char protocol[64];
    const char *model;            /* the oracle model judging: "ptx", "ptx6", "sc", "tso" */
    enum litmus_status status;
    char reason[320];             /* SKIP: why; FAIL: the first forbidden outcome */
    unsigned iterations;          /* launches done */
    uint64_t hits;                /* iterations whose outcome satisfies C */
    uint64_t spins;               /* iterations that did not finish (warps spun on loads) */
    bool spin_forbidden;          /* ... and the model allows no run that never finishes */
    int verdict;                  /* the oracle's verdict on the clause (0/1) */
    int ref_verdict;              /* the reference table's for this model, -1 none */
    bool ref_disagrees;           /* both exist and differ */
    enum litmus_check check;      /* what the verdict demands */
    bool sc_cond;                 /* SC can reach an outcome satisfying C */
    unsigned n_hist;
    struct litmus_hist *hist;     /* sorted by outcome values */
    unsigned n_unseen;            /* allowed but never observed: outcomes (SC, TSO), or
                                     1 when the allowed C / not-C never appeared (PTX) */
    char unseen_note[160];        /* what was allowed but never observed */
    struct sc_result sc;          /* the interleavings: can a run hang at a barrier? */
    struct oracle_result oracle;  /* the model's judgement of every outcome */
    struct oracle_result sc_oracle; /* SC's, for the [not SC] marks (unused when the model
                                       is SC) */
};

/* Judge and, unless the test must be skipped, run it. `ref` may come from
 * litmus_refs_lookup (verdicts -1 if none). Returns 0; -1 with a message in
 * err only for an input error (a test the oracle or the SC search cannot
 * enumerate, an unknown model). A launch that spins on loads is an outcome
 * (res->spins) where the launcher can give it up; simulator faults (stuck
 * requests, runaway kernels, protocol holes) exit as usual. */
int litmus_run(const struct litmus_test *t, const struct litmus_ref *ref, const char *protocol,
               struct launcher l, const struct litmus_run_opts *o, struct litmus_result *res,
               char *err, size_t errlen);
void litmus_result_free(struct litmus_result *r);

/* Print the per-test report (path, iterations, histogram, hits, verdict,
 * PASS/FAIL/SKIP). */
void litmus_result_print(const struct litmus_result *r, FILE *out);

#endif
