/*
 * fcs_select.h - the offline request-type selector of fine-grain coherence
 * specialization (spec 003 §2.9-2.10; fcs_select.c): record a sequentially
 * consistent trace of a workload's global accesses, then write the request
 * type of each static instruction as an fcs.table file (fcs.h).
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef COH_SPANDEX_FCS_SELECT_H
#define COH_SPANDEX_FCS_SELECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct fcs_trace;
struct ptx_module;
struct ptx_memop;

struct fcs_trace *fcs_trace_new(void);
void fcs_trace_free(struct fcs_trace *t);
/* A kernel of module m starts: a release and an acquire on every SM. */
void fcs_trace_kernel(struct fcs_trace *t, const struct ptx_module *m);
/* SM `core` issued global memory operation op (a load, store, atomic or fence). */
void fcs_trace_step(struct fcs_trace *t, unsigned core, const struct ptx_memop *op);
size_t fcs_trace_len(const struct fcs_trace *t);

struct fcs_select_opts {
    const char *title;   /* the workload, for the file's header */
    bool fwd, pred;      /* the hardware forwards write-throughs, predicts owners */
    bool shared;         /* the CPU L1s hold lines Shared (ReqS): Algorithm 6 applies */
    bool line_state;     /* the L1s keep state per line, not per word (§2.10): every
                            ownership request asks for the line, ReqO becomes ReqO+data */
    unsigned l1_bytes;   /* ReusePossible: 75% of it */
    unsigned line_bytes; /* Algorithm 6's blocks (0: 64) */
    unsigned cpu_from;   /* cores from this number on are CPU cores (gpu.sms); 0: none */
};

/* An instruction's type from its accesses' votes (per enum spx_req_kind),
 * decided in the order of Algorithms 1-3: own or not; if not, share (ReqS)
 * or not; if not, predict the owner or not; then the type with most votes
 * on the chosen side. Each decision weighs every vote on either side, so
 * types that answer a question the same way (ReqWT and ReqWTfwd, say) do
 * not split their side's vote. A tie goes the way of the device's own type
 * dflt. */
unsigned fcs_elect(const double *votes, unsigned dflt);

/* Write the table to out. Returns 0, or -1 with the reason in err. */
int fcs_select(const struct fcs_trace *t, const struct fcs_select_opts *o, FILE *out, char *err,
               size_t errlen);

#endif
