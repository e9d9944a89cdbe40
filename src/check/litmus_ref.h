/*
 * litmus_ref.h - the reference side of the litmus harness: where the in-tree
 * suite lives (litmus/ at the source root), the reference verdicts of the PTX
 * models and index.csv that come with it, and which memory model each
 * protocol promises.
 *
 * A verdict (litmus/README.md, "Using the verdicts as an oracle") turns
 * the test's clause into either "an outcome with property P must never be
 * observed" or "P is allowed". gpucoh judges with its own oracle (oracle.h);
 * a reference verdict, where one exists, is a cross-check of it.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef CHECK_LITMUS_REF_H
#define CHECK_LITMUS_REF_H

#include "check/litmus.h"

/* <source root>/litmus, the suite with its models and verdicts. Returns 0,
 * or -1 when it does not exist. */
int litmus_root_dir(char *buf, size_t len);
/* <source root>/litmus/ptx, the suite's tests. */
int litmus_suite_dir(char *buf, size_t len);

/* What the reference files say about one test. */
struct litmus_ref {
    char rel[256];      /* path under ptx/, "" when the file is not in the suite */
    int verdict;        /* PTX v7.5 verdict 0/1, -1 when none */
    int verdict6;       /* PTX v6.0 verdict 0/1, -1 when none */
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
    LCHK_NONE,         /* no verdict: nothing can be judged */
    LCHK_FORBID_C,     /* an outcome satisfying C is a failure (exists 0, ~exists 1) */
    LCHK_FORBID_NOT_C, /* an outcome violating C is a failure (forall 1) */
    LCHK_ALLOW_C,      /* C may be observed (exists 1, ~exists 0) */
    LCHK_ALLOW_NOT_C,  /* a violation of C may be observed (forall 0) */
};
extern const char *const litmus_check_names[5];
enum litmus_check litmus_ptx_check(enum litmus_kind kind, int verdict);

/* The memory model `protocol` promises, as the oracle names it (oracle.h:
 * "ptx", "ptx6", "sc", "tso"): its proto_desc's model (mem_model_names), so
 * a protocol or ordering that promises another model only has to name it
 * there. The functional mode, SC at instruction granularity, promises "sc";
 * an unknown name "ptx". */
const char *litmus_model_of(const char *protocol);

#endif
