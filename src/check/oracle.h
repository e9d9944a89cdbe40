/*
 * oracle.h - the axiomatic memory-model oracle: every candidate execution of
 * a litmus test, judged by a cat model, gives the set of final outcomes the
 * model allows.
 *
 * Candidate executions: each thread is run symbolically, a load taking any
 * value some store of the test can write (a fixed point over the values the
 * stores compute), which fixes the thread's events, registers and
 * dependencies. One trace per thread, then the reads-from choice of every load
 * (a write of the same physical location with the value it read), the
 * coherence order of every location (a total order of its writes after the
 * initial write), the order of the fence.sc fences (sync_fence), and for a CTA
 * barrier with a thread count which arrivals complete it. The model decides
 * each; the outcome of an execution is its final registers and the value of
 * each location's coherence-last write.
 *
 * Loops: an iteration that comes back to its loop head with the same registers
 * and no store since is a thread spinning on a value (as the reference tool
 * treats it), and that path is dropped; executions in which every thread
 * finishes are the only ones that count. An RMW that writes back the value it
 * read on a location whose accesses are all morally strong (a failed
 * exchange/CAS/add-0 retry) is no store for this rule, and such an RMW reads
 * the immediate coherence predecessor of its write, which narrows reads-from
 * before candidates are built (docs/oracle.md). A loop that takes more than
 * the unroll bound of backward jumps in a consistent execution is beyond the
 * oracle's limits (ORACLE_LIMIT, file:line), never a verdict from a cut
 * search. So are tests with more events than the bit matrices hold, and
 * tests with more than a million candidate executions (tens of seconds),
 * which are refused rather than left running.
 *
 * Runs that never finish (opts.liveness): a thread cut as spinning is kept
 * too, as a trace that ends with the iteration that repeats, and a thread
 * that arrives at a bar.cta.sync as one that may wait there forever. An
 * execution in which some thread spins, each other thread finishing,
 * spinning, or waiting at a barrier round that a spinning or waiting
 * member never reaches, is a candidate that never finishes. The model
 * allows it when it is consistent and every load of each repeating
 * iteration reads a co-maximal write: reading one value forever, the load
 * reads what memory finally holds, unless co leaves another write
 * unordered with it (as the reference tool's liveness check does; PTX's
 * co does not order weak writes of different threads, so a weak poll may
 * keep its stale value forever, a strong one may not). Counted barriers
 * with a waiter that is never released are not judged (no candidate).
 *
 * Barriers (the dialect's rules, litmus/README.md): barriers pair by
 * (GPU, CTA, inst, id value); without a count the k-th arrivals of every
 * thread whose code holds the barrier synchronise (a member that never
 * arrives hangs the others: no execution); with a count, `count` arrivals
 * complete it and synchronise, the rest only receive; bar.cta.arrive releases
 * but does not acquire. syncbar holds an edge a -> b when b waits and a's
 * earlier operations are ordered before b's later ones.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef CHECK_ORACLE_H
#define CHECK_ORACLE_H

#include "check/cat.h"
#include "check/litmus.h"

/* The models gpucoh ships (litmus/models/). */
enum oracle_model { OM_PTX, OM_PTX6, OM_SC, OM_TSO, OM_N };
extern const char *const oracle_model_names[OM_N]; /* "ptx" "ptx6" "sc" "tso" */
/* The model's name as a user writes it (--model), or -1. */
int oracle_model_find(const char *name);
/* The parsed cat model (parsed once, from the copy built into the binary). */
const struct cat_model *oracle_cat(enum oracle_model m);

#define ORACLE_DEFAULT_UNROLL 8

struct oracle_opts {
    unsigned unroll;      /* backward jumps allowed per thread trace; 0: the default */
    bool explain;         /* keep, for each forbidden outcome, why (oracle_result.why) */
    bool liveness;        /* also judge executions that never finish (oracle_result.may_spin) */
    bool first_finishing; /* stop at the first consistent execution that finishes: the
                             result holds the outcomes met so far, n_allowed 0 or 1 */
};

struct oracle_result {
    enum oracle_model model;
    unsigned n_obs;      /* values per outcome (= test->n_obs) */
    unsigned n_outcomes; /* every outcome of some candidate execution */
    int32_t *outcomes;   /* n_outcomes rows, sorted */
    bool *allowed;       /* per outcome: some candidate with it is consistent */
    char **why;          /* per outcome, with opts.explain: the first failed axiom of one
                            candidate and its witness (NULL when allowed) */
    unsigned n_allowed;
    uint64_t n_candidates;      /* candidate executions judged by the model */
    uint64_t n_pruned;          /* coherence orders dropped unjudged: no reads-from choice
                                   of a chain location's RMW is consistent with them */
    uint64_t n_partial_pruned;  /* partial executions (co of some locations, or co and
                                   reads-from of some reads, or those and part of the
                                   fence.sc order or of the barrier completers chosen)
                                   discarded as inconsistent in every completion */
    unsigned unroll;            /* the bound used */
    unsigned max_backjumps;     /* the most backward jumps one trace took */
    bool may_spin;              /* opts.liveness: the model allows a run that never finishes */
    uint64_t n_spin_candidates; /* ... candidate executions that never finish, judged */
};

/* oracle_judge's answer for a test beyond the oracle's limits. */
#define ORACLE_LIMIT (-2)

/* Judge every candidate execution of t under model m. Returns 0; or, with
 * "file:line: why" in err, ORACLE_LIMIT when the test is beyond what the
 * oracle can enumerate (a loop beyond the unroll bound, too many events,
 * paths, values or candidate executions: the test is valid, only unjudged),
 * or -1 when the oracle does not handle it (an unsupported instruction, out
 * of memory). */
int oracle_judge(const struct litmus_test *t, enum oracle_model m, const struct oracle_opts *o,
                 struct oracle_result *r, char *err, size_t errlen);
void oracle_result_free(struct oracle_result *r);

/* Whether the model allows this exact outcome. */
bool oracle_allows(const struct oracle_result *r, const int32_t *values);
/* The test's verdict in the reference tool's sense (litmus/README.md):
 * exists C: 1 iff an allowed outcome satisfies C; ~exists C: 1 iff none
 * does; forall C: 1 iff every allowed outcome satisfies C. A constant
 * condition (litmus_cond_constant) is decided by its value and whether any
 * outcome is allowed, without scanning them. */
int oracle_verdict(const struct litmus_test *t, const struct oracle_result *r);
/* The verdict of a test whose condition is constant, decided without
 * enumerating its outcomes (docs/oracle.md, "Conditions"): `exists` of a
 * false condition is 0, `~exists` of it 1 and `forall` of a true one 1,
 * whatever the executions; the other three ask only whether some consistent
 * execution finishes, and the search stops at the first it meets. Returns
 * false when the condition is not constant; else true, with *verdict 0 or 1,
 * or -1 and "file:line: why" in err when that search is beyond the oracle's
 * limits or the oracle does not handle the test. */
bool oracle_constant_verdict(const struct litmus_test *t, enum oracle_model m, unsigned unroll,
                             int *verdict, char *err, size_t errlen);
/* What a constant condition's verdict rests on, for reports: "constant
 * condition (true in every outcome): the verdict is whether some execution
 * finishes"; "" when the condition is not constant. */
const char *oracle_constant_note(const struct litmus_test *t);
/* Whether some allowed outcome satisfies (want) or violates (!want) C. */
bool oracle_cond_reachable(const struct litmus_test *t, const struct oracle_result *r, bool want);

/* Print every outcome with allowed/forbidden and, for a forbidden one with
 * `why`, the failed axiom and its witness. */
void oracle_print(const struct litmus_test *t, const struct oracle_result *r, FILE *out);

#endif
