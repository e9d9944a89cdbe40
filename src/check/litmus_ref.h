/*
 * litmus_ref.h - the reference side of the litmus harness: where the shared
 * suite lives, the PTX-model verdicts and index of shared/litmus, and which
 * memory model each protocol promises.
 *
 * The PTX oracle follows shared/litmus/README.md, "Using the verdicts as an
 * oracle": a verdict turns the test's clause into either "an outcome with
 * property P must never be observed" or "P is allowed" (a coverage note when
 * never seen). The SC oracle is sc_enum.h.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef CHECK_LITMUS_REF_H
#define CHECK_LITMUS_REF_H

#include "check/litmus.h"

/* The shared folder: $GPUCOH_SHARED, else <source root>/../shared. Returns 0,
 * or -1 when it does not exist. */
int litmus_shared_dir(char *buf, size_t len);
/* <shared>/litmus/ptx, the suite's tests. */
int litmus_suite_dir(char *buf, size_t len);

/* What the reference files say about one test. */
struct litmus_ref {
    char rel[256];      /* path under ptx/, "" when the file is not in the suite */
    int verdict;        /* PTX v7.5 verdict 0/1, -1 when none */
    int tso_verdict;    /* TSO verdict 0/1 (tso-expected.csv beside a project test), -1 none */
    int liveness;       /* PTX v7.5 liveness verdict 0/1, -1 when none */
    int core;           /* index.csv core flag, -1 when not listed */
    char features[160]; /* index.csv feature tags */
};

struct litmus_refs; /* the loaded verdict files and index.csv */

/* Load the reference files of the shared suite. Returns NULL with a message
 * in err when they are missing or malformed (file:line). */
struct litmus_refs *litmus_refs_load(char *err, size_t errlen);
void litmus_refs_free(struct litmus_refs *r);
/* Look a test file up by its path (resolved against the suite folder).
 * Fills `out` in every case; returns true when the file is in the suite. */
bool litmus_refs_lookup(const struct litmus_refs *r, const char *path, struct litmus_ref *out);

/* What the PTX verdict demands of observed outcomes. */
enum litmus_check {
    LCHK_NONE,          /* no verdict: nothing can be judged */
    LCHK_FORBID_C,      /* an outcome satisfying C is a failure (exists 0, ~exists 1) */
    LCHK_FORBID_NOT_C,  /* an outcome violating C is a failure (forall 1) */
    LCHK_ALLOW_C,       /* C may be observed (exists 1, ~exists 0) */
    LCHK_ALLOW_NOT_C,   /* a violation of C may be observed (forall 0) */
};
extern const char *const litmus_check_names[5];
enum litmus_check litmus_ptx_check(enum litmus_kind kind, int verdict);

/* Memory models a protocol can promise. */
enum litmus_model { LITMUS_MODEL_PTX, LITMUS_MODEL_SC };
/* "ptx" or "sc": the model `protocol` promises under order.model = rmo. SC
 * designs (and the functional mode, which is SC at instruction granularity)
 * promise "sc"; every other protocol "ptx". Stronger SM models promise more
 * (config_promise, litmus_run_opts.model). */
const char *litmus_model_of(const char *protocol);

#endif
