/*
 * verify_mg.h - what the explorer (verify_digest.c) reads of a multi-GPM L2 bank
 * beyond struct ctrl, for the canonical digest (docs/verify.md, "Several
 * GPMs"). Private to src/verify.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef VERIFY_VERIFY_MG_H
#define VERIFY_VERIFY_MG_H

#include <stdbool.h>
#include <stddef.h>

#include "base/types.h"
#include "sim/eng.h"

struct msg;
struct msg_list;

/* How the digest takes bytes and message lists. */
struct verify_mg_sink {
    void (*put)(void *arg, const void *p, size_t n);
    void (*put_msg)(void *arg, const struct msg *m);
    /* a directory entry's sharer vector (bit per GPM) as written: relabelled under
     * symmetry over the GPMs; NULL: as it is */
    uint64_t (*gpms)(void *arg, uint64_t sharers);
    void *arg;
};

/* Serialise a multi-GPM bank's state outside struct ctrl: the directory
 * entries of the regions of `lines`, the remote-line MSHR count, the release
 * slots (by index: invalidations name their slot), the rounds' queues, the
 * counted release's generations and the queue for the links. */
void verify_mg_bank(struct comp *bank, const addr_t *lines, unsigned n_lines,
                    const struct verify_mg_sink *out);

/* Whether the bank sends invalidations and release markers free of cost
 * (ideal-mg: SYSNET_F_FREE, which the sysnet delivers past the links' FIFOs). */
bool verify_mg_free(struct comp *bank);
/* Whether the bank has a GPU home per GPU between its GPMs and the system
 * home (hmg, sw-h and their variants). */
bool verify_mg_hier(struct comp *bank);

/* Serialise a multi-GPM L1's state outside struct ctrl (mg_l1_view): the
 * request held for its release or (software coherence) acquire at the banks
 * and that round's counts; software coherence's acquiring responses waiting
 * for a round of MSG_MG_ACQ and in one, and that round's counts. */
void verify_mg_l1(struct comp *l1, const struct verify_mg_sink *out);

#endif
